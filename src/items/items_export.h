/* items_export.h - the files a check-items run reads
 *
 * An ITEMS argument is a file of items ("-": standard input) or the folder
 * of a DynamoDB export to S3, as downloaded:
 *   manifest-summary.json  {"outputFormat": "DYNAMODB_JSON", "itemCount": N,
 *                           "manifestFilesS3Key": ".../manifest-files.json", ...}
 *   manifest-files.json    one line per data file: {"itemCount": N,
 *                           "dataFileS3Key": "AWSDynamoDB/ID/data/NAME.json.gz", ...}
 *   data/NAME.json.gz
 * (or a folder holding AWSDynamoDB/ID/ folders of such exports). The data
 * files become the parts of the run, each with the item count its
 * manifest lists; the counts of the two manifests are checked to agree
 * before anything is read. Amazon Ion exports are refused by name.
 */
#ifndef DDBC_ITEMS_EXPORT_H
#define DDBC_ITEMS_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct ddbc_items_part {
	char *path;              /* the file to read; NULL: stream */
	FILE *stream;            /* read when path is NULL (standard input for "-"); not closed */
	char *name;              /* the name findings give */
	long long expect;        /* the items its manifest lists; -1: no manifest */
	bool existed;            /* path was there when the plan was made: gone
				  * when read, it vanished during the run */
	/* A stream's source may fail after the stream ends (a Scan segment
	 * whose engine went away, items_table.c): when set, asked once the
	 * stream is read; a message (the source's) makes the part bad. */
	const char *(*failed)(void *arg);
	void *failed_arg;
} ddbc_items_part;

typedef struct ddbc_items_plan {
	ddbc_items_part *parts;
	size_t n, cap;
	const char *noun;        /* what the progress line calls a part; NULL: "file" */
} ddbc_items_plan;

/* Adds an open stream, named name, as a part of plan. */
void ddbc_items_plan_add_stream(ddbc_items_plan *plan, FILE *stream, const char *name);
/* Adds the parts of one ITEMS argument to plan. Returns 0, or -1 after
 * saying on stderr why the argument cannot be read (nothing added). */
int ddbc_items_plan_add(ddbc_items_plan *plan, const char *arg);
void ddbc_items_plan_release(ddbc_items_plan *plan);

#endif
