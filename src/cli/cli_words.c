/* cli_words.c - the words an option takes, from one table each */
#include "cli/cli_words.h"
#include "util/error.h"
#include "util/suggest.h"
#include "util/xalloc.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const void *ddbc_word_row(ddbc_words w, size_t i)
{
	return (const char *)w.rows + i * w.stride;
}

const char *ddbc_word_name(ddbc_words w, size_t i)
{
	return ((const ddbc_word *)ddbc_word_row(w, i))->name;
}

const char *ddbc_word_help(ddbc_words w, size_t i)
{
	return ((const ddbc_word *)ddbc_word_row(w, i))->help;
}

static size_t count(ddbc_words w)
{
	size_t n = 0;
	while (ddbc_word_name(w, n))
		n++;
	return n;
}

/* Whether short abbreviates word: the same first letter, and its letters
 * in word in order ('md' markdown, 'cfn' cloudformation, 'tf' terraform). */
static bool abbreviates(const char *brief, const char *word)
{
	if (strlen(brief) < 2 || strlen(brief) >= strlen(word) ||
	    strncasecmp(brief, word, 1))
		return false;
	for (const char *b = brief + 1, *s = word + 1; *b; b++) {
		while (*s && strncasecmp(s, b, 1))
			s++;
		if (!*s++)
			return false;
	}
	return true;
}

/* The word arg most likely means: a typo of one, else one it abbreviates
 * or that abbreviates it. */
static const char *meant(const char *arg, ddbc_words w)
{
	size_t n = count(w);
	const char **names = ddbc_xcalloc(n + 1, sizeof(*names));
	for (size_t i = 0; i < n; i++)
		names[i] = ddbc_word_name(w, i);
	const char *hint = ddbc_suggest(arg, names, n);
	for (size_t i = 0; !hint && i < n; i++)
		if (abbreviates(names[i], arg) || abbreviates(arg, names[i]))
			hint = names[i];
	free(names);
	return hint;
}

int ddbc_words_parse(const char *cmd, const char *what, const char *arg, ddbc_words w,
		     size_t *out)
{
	for (size_t i = 0; ddbc_word_name(w, i); i++) {
		if (!strcmp(arg, ddbc_word_name(w, i))) {
			*out = i;
			return 0;
		}
	}
	strbuf list = STRBUF_INIT;
	for (size_t i = 0; ddbc_word_name(w, i); i++)
		ddbc_strbuf_addf(&list, "%s%s", i ? ", " : "", ddbc_word_name(w, i));
	const char *hint = meant(arg, w);
	if (hint)
		ddbc_usage_error(cmd, "unknown %s '%s'; did you mean '%s'? (%s)", what, arg, hint,
				 ddbc_strbuf_str(&list));
	else
		ddbc_usage_error(cmd, "unknown %s '%s'; use %s", what, arg, ddbc_strbuf_str(&list));
	ddbc_strbuf_release(&list);
	return -1;
}

void ddbc_words_list(FILE *out, ddbc_words w)
{
	size_t width = 0;
	for (size_t i = 0; ddbc_word_name(w, i); i++)
		if (strlen(ddbc_word_name(w, i)) > width)
			width = strlen(ddbc_word_name(w, i));
	for (size_t i = 0; ddbc_word_name(w, i); i++)
		fprintf(out, "%-*s  %s\n", (int)width, ddbc_word_name(w, i),
			ddbc_word_help(w, i) ? ddbc_word_help(w, i) : "");
}

void ddbc_words_join(strbuf *sb, ddbc_words w, const char *first_note)
{
	size_t n = count(w);
	for (size_t i = 0; i < n; i++) {
		ddbc_strbuf_addf(sb, "%s%s", i == 0 ? "" : i + 1 == n ? " or " : ", ",
			    ddbc_word_name(w, i));
		if (i == 0 && first_note)
			ddbc_strbuf_addstr(sb, first_note);
	}
}
