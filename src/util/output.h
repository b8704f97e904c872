/* output.h - writing a command's result without losing a byte
 *
 * Every command's -o goes through here. A result is written into a
 * temporary file: beside the destination for -o FILE (fsync'd, then
 * renamed over it), or an anonymous one for standard output and for a
 * destination that is not a regular file (a device, a FIFO: copied there,
 * never replaced). Only a committed output reaches its destination, so a
 * failing run writes nothing, a reader never sees half a file, and an
 * existing file is left untouched. A symlink is followed, so its target is
 * written; a directory is refused; so is any file the run reads (the
 * inputs noted below, compared by device and inode, so ./x, ../d/x, a
 * symlink and a hard link are all the same file). A temporary file or
 * folder is removed when SIGTERM, SIGINT or SIGHUP ends the run.
 * Memory does not grow with the output.
 */
#ifndef DDBC_OUTPUT_H
#define DDBC_OUTPUT_H

#include <stdio.h>
#include <sys/types.h>

typedef struct ddbc_output {
	FILE *f;           /* write the result here (an error is kept: commit says it) */
	struct ddbc_output_sink *sink;  /* output.c's writer under f */
	char *path;        /* the destination as given; NULL for standard output */
	char *tmp;         /* the temporary file's name; NULL when anonymous */
	char *target;      /* the file written: path with its symlinks followed */
	int kind;          /* output.c's out_kind */
	mode_t mode;       /* a regular file's mode, kept */
} ddbc_output;

/* Notes that the run reads path (a file or a folder, "-" is ignored): an
 * output that is the same file is refused. Safe from any thread. */
void ddbc_output_note_input(const char *path);
/* The same for an open file. */
void ddbc_output_note_input_fd(int fd, const char *path);

/* Opens an output for path ("-" or NULL = standard output). Returns 0, or
 * -1 with a message printed to stderr. */
int ddbc_output_open(ddbc_output *o, const char *path);
/* Sends what was written to the destination and closes o. Returns 0, or
 * -1 with a message printed (the destination is then untouched): every
 * error writing to o->f since it was opened is one, whether or not the
 * writer saw it, and so is an fflush, fsync or close that fails. */
int ddbc_output_commit(ddbc_output *o);
/* Throws away what was written and closes o. */
void ddbc_output_abort(ddbc_output *o);

/* A folder of outputs (doc's site): written into a temporary folder, its
 * files moved into place only when every one was written. */
typedef struct ddbc_output_site {
	char *dir;         /* the destination folder, symlinks followed */
	char *tmp;         /* where the files are written */
	int existed;       /* dir was there: files are moved in one by one */
} ddbc_output_site;

/* Makes the temporary folder for dir. Returns 0, or -1 with a message. */
int ddbc_output_site_open(ddbc_output_site *s, const char *dir);
/* Moves the written files into dir. Returns 0, or -1 with a message. */
int ddbc_output_site_commit(ddbc_output_site *s);
/* Removes the temporary folder and what it holds. */
void ddbc_output_site_abort(ddbc_output_site *s);

/* Whether a and b name the same existing file. An output needs no such
 * check: ddbc_output_open and ddbc_output_commit refuse every input. */
int ddbc_same_file(const char *a, const char *b);

#endif
