/* cli_words.h - the words an option takes, from one table each
 *
 * --format, --from, --color and --lang take one of a list of words. Each
 * list is a table whose rows start with the word and what it means
 * (`const char *name, *help`, then whatever the row is for: an emitter, a
 * source, a value), ended by a row with a NULL name. The same table gives
 * the parse (with "did you mean"), the help's list and --list-formats, so
 * a word added to it is offered everywhere at once.
 */
#ifndef DDBC_CLI_WORDS_H
#define DDBC_CLI_WORDS_H

#include "util/strbuf.h"

#include <stddef.h>
#include <stdio.h>

/* A table read through its first two members. */
typedef struct ddbc_words {
	const void *rows;
	size_t stride;           /* sizeof one row */
} ddbc_words;

/* The table t (an array of rows whose first members are name and help). */
#define DDBC_WORDS(t) ((ddbc_words){ (t), sizeof((t)[0]) })

/* A row of plain words: the name and what it means. */
typedef struct ddbc_word {
	const char *name;
	const char *help;
} ddbc_word;

/* Word i's name, NULL past the end; its help. */
const char *ddbc_word_name(ddbc_words w, size_t i);
const char *ddbc_word_help(ddbc_words w, size_t i);
/* The row of word i, to be cast to the table's own row type. */
const void *ddbc_word_row(ddbc_words w, size_t i);

/* Sets *out to the position of arg in w; returns 0, or -1 after saying on
 * stderr that cmd's option takes no such word (what: "format", "source"),
 * with the nearest word when one is likely meant (a typo, or an
 * abbreviation: 'md' for 'markdown'), and which words there are. */
int ddbc_words_parse(const char *cmd, const char *what, const char *arg, ddbc_words w,
		     size_t *out);

/* Writes each word and what it means, one a line (--list-formats). */
void ddbc_words_list(FILE *out, ddbc_words w);

/* Appends the words as a sentence: "a (default), b or c". */
void ddbc_words_join(strbuf *sb, ddbc_words w, const char *first_note);

#endif
