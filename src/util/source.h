/* source.h - an input file (mapped, or read when it cannot be), and positions in it */
#ifndef DDBC_SOURCE_H
#define DDBC_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* A position in a source: 1-based line and column, as libyaml's marks
 * (0-based) plus one. The column counts characters, not bytes. */
typedef struct ddbc_loc {
	unsigned line, column;
} ddbc_loc;

typedef struct ddbc_source {
	char *name;  /* as given on the command line; "-" is standard input */
	char *text;  /* the whole file, NUL-terminated (it may hold other NULs) */
	size_t len;
	/* A regular file is mapped, not copied: base and mapped say what to
	 * unmap (text is past a byte order mark). */
	void *base;
	size_t mapped;
	/* Where each line starts, found as far as ddbc_source_line was asked
	 * (findings are printed in line order: the text is scanned once, and
	 * only up to the last line quoted, so the pages of a mapped file past
	 * it are never read back in). 4 bytes a line when the text is under
	 * 4 GiB (a 20,000-entity design has 860,000 lines), else 8. */
	void *line_starts;
	size_t nlines, lines_cap;
	size_t scanned;          /* the text before this offset is indexed */
	/* The scan gives back a mapped file's pages as it goes, those more
	 * than a step behind it (ddbc_source_evict): quoting the findings of
	 * a whole file in line order reads every page once, and they would
	 * all stay resident. Pages before this offset were given back. */
	size_t scan_evicted;
	/* Asked now and then while the text is checked (a megabyte of parsing
	 * at a time, a block of rules): true abandons the check, whose
	 * findings are then incomplete. NULL: never. The language server sets
	 * it: an edit that arrives makes the check of the text before it
	 * useless. */
	bool (*stop)(void *ctx);
	void *stop_ctx;
} ddbc_source;

/* Whether src's stop asks to abandon its check now. */
bool ddbc_source_stop(const ddbc_source *src);

/* Reads path ("-" = stdin) into a new source. Returns NULL and sets errno
 * when the file cannot be read. Free with ddbc_source_free. */
ddbc_source *ddbc_source_read(const char *path);
/* Opens path for reading, noted as an input of the run (util/output.h).
 * Returns NULL and sets errno when it cannot be read; a folder is EISDIR. */
FILE *ddbc_input_fopen(const char *path);
/* Reads path as a file another input names (a Serverless ${file(...)}):
 * only a regular file (checked on the open file, which was opened
 * non-blocking, so a FIFO cannot hang the run), of at most max bytes
 * (checked as it is read: a file that grows is cut off there), with no
 * NUL byte. Returns NULL and sets errno (ENOENT for a missing file), with
 * the reason in *why ("is a FIFO, not a file", "holds a NUL byte at line 1,
 * column 4": a phrase to follow the path); free it. */
ddbc_source *ddbc_source_read_bounded(const char *path, size_t max, char **why);
/* A source over a copy of len bytes of text, named name. */
ddbc_source *ddbc_source_from_memory(const char *name, const char *text, size_t len);
void ddbc_source_free(ddbc_source *src);

/* Says the text before offset upto (all of it when upto >= len) will not
 * be read for a while: a mapped file's pages leave the process's memory and
 * come back from the page cache when read. The composer calls it as the
 * parser moves on, so a large design is not held twice (as text and as a
 * model). */
void ddbc_source_evict(const ddbc_source *src, size_t upto);

/* The text of line (1-based) without its newline; *len receives its length.
 * NULL when the source has no such line. */
const char *ddbc_source_line(const ddbc_source *src, unsigned line, size_t *len);

#endif
