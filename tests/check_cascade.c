/* check_cascade.c - one mistake, one finding
 *
 * Each sample and each rule's passing fixture is broken once per word it
 * holds: every mapping key (a field name, or the name of a table, index,
 * entity, attribute or pattern), every scalar that reads as a name (a
 * reference, a type word, an operation, a role), every placeholder of a
 * template. The word loses one letter, the commonest typo there is. The
 * words come from the file, not from a list kept here: the test goes
 * wherever the designs go.
 *
 * What each broken copy must give: at most one error or warning that the
 * intact file did not give. Not exactly one: some words are free text to
 * ddbc (a description, a pattern's own name, a value no rule constrains),
 * and a typo there is no mistake it can see. Notes are left out: they are
 * advice, and a renamed attribute may well deserve one. Findings are told
 * apart by rule and line (a typo shifts later columns of its line). One
 * echo is asked for: a typo in an INCLUDE list does not hide the
 * pattern-projection finding of the attribute it was meant for (SPEC
 * 8.1), so that one is not counted. No message of any copy may print an
 * empty list.
 */
#include "input/compose.h"
#include "rules/check.h"
#include "testutil.h"
#include "util/arena.h"
#include "util/strbuf.h"

#include <check.h>
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const samples[] = { "samples/stamp-rally.ddb.yaml",
				       "samples/ecommerce.ddb.yaml", "samples/todo.ddb.yaml",
				       "samples/assessment-single.ddb.yaml",
				       "samples/assessment-multi.ddb.yaml" };
#define NSAMPLES (sizeof(samples) / sizeof(samples[0]))

static void settings_from_args(const char *text, ddbc_settings *s)
{
	ddbc_settings_init(s);
	const char *p = text;
	while ((p = strstr(p, "# args: --rule ")) != NULL) {
		p += strlen("# args: --rule ");
		char arg[256];
		size_t n = strcspn(p, "\r\n");
		ck_assert_uint_lt(n, sizeof(arg));
		memcpy(arg, p, n);
		arg[n] = '\0';
		strbuf err = STRBUF_INIT;
		ck_assert_msg(ddbc_settings_parse(s, arg, &err) == 0, "%s", ddbc_strbuf_str(&err));
		ddbc_strbuf_release(&err);
	}
}

/* The findings of one lint of text, as `ddbc lint` makes them. */
static void lint_text(const char *text, size_t len, ddbc_diags *d)
{
	ddbc_source *src = ddbc_source_from_memory("test.ddb.yaml", text, len);
	ddbc_settings cli;
	settings_from_args(src->text, &cli);
	ddbc_diags_init(d);
	ddbc_design_free(ddbc_check(src, d, &cli));
	/* The findings keep their source; only their texts are read after. */
	for (size_t i = 0; i < d->n; i++)
		d->items[i].src = NULL;
	ddbc_source_free(src);
}

static bool has_finding(const ddbc_diags *d, ddbc_rule rule, unsigned line)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->items[i].rule == rule && d->items[i].loc.line == line)
			return true;
	return false;
}

/* ---- the words of a file -------------------------------------------------------- */

/* A place in the text where a word starts, and its length. */
typedef struct word {
	size_t off, len;
	bool key;                /* a mapping key: a field name, or a name defined */
} word;

typedef struct words {
	word *items;
	size_t n, cap;
} words;

static void add_word(words *w, size_t off, size_t len, bool key)
{
	for (size_t i = 0; i < w->n; i++)
		if (w->items[i].off == off)
			return;
	if (w->n == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 64;
		w->items = realloc(w->items, w->cap * sizeof(word));
	}
	w->items[w->n++] = (word){ off, len, key };
}

/* The offset of line:column (both from 1; columns count bytes). */
static size_t offset_of(const char *text, size_t len, ddbc_loc loc)
{
	size_t off = 0;
	for (unsigned line = 1; line < loc.line && off < len; off++)
		if (text[off] == '\n')
			line++;
	return off + loc.column - 1;
}

static bool name_like(const char *s, size_t n)
{
	if (n < 3 || !isalpha((unsigned char)s[0]))
		return false;
	for (size_t i = 1; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '-')
			return false;
	return true;
}

/* A scalar whose text stands in the file as written (plain, one line). */
static void scalar_word(words *w, const char *text, size_t len, const ddbc_node *s, bool key)
{
	size_t off = offset_of(text, len, s->loc);
	if (off + s->n <= len && !memcmp(text + off, s->u.text, s->n) && name_like(s->u.text, s->n))
		add_word(w, off, s->n, key);
}

/* Every '{name' of a template scalar, found on its line. */
static void placeholders(words *w, const char *text, size_t len, const ddbc_node *s)
{
	size_t off = offset_of(text, len, s->loc), end = off;
	while (end < len && text[end] != '\n')
		end++;
	for (size_t i = off; i < end; i++) {
		if (text[i] != '{')
			continue;
		size_t n = 0;
		while (i + 1 + n < end && (isalnum((unsigned char)text[i + 1 + n]) ||
					   text[i + 1 + n] == '_'))
			n++;
		if (n >= 3)
			add_word(w, i + 1, n, false);
	}
}

static void collect(words *w, const char *text, size_t len, const ddbc_node *node,
		    unsigned depth)
{
	if (!node || depth > 64)
		return;
	switch (node->kind) {
	case DDBC_NODE_SCALAR:
		scalar_word(w, text, len, node, false);
		if (memchr(node->u.text, '{', node->n))
			placeholders(w, text, len, node);
		break;
	case DDBC_NODE_SEQ:
		for (size_t i = 0; i < node->n; i++)
			collect(w, text, len, node->u.items[i], depth + 1);
		break;
	case DDBC_NODE_MAP:
		for (size_t i = 0; i < node->n; i++) {
			const ddbc_node *k = node->u.pairs[i].key, *v = node->u.pairs[i].value;
			scalar_word(w, text, len, k, true);
			/* An enum's values are names defined too: example items and
			 * pattern examples use them, each a place of its own. */
			if (strcmp(k->u.text, "enum") || v->kind != DDBC_NODE_SEQ) {
				collect(w, text, len, v, depth + 1);
				continue;
			}
			for (size_t e = 0; e < v->n; e++)
				if (v->u.items[e]->kind == DDBC_NODE_SCALAR)
					scalar_word(w, text, len, v->u.items[e], true);
		}
		break;
	}
}

/* ---- the test ---------------------------------------------------------------------- */

/* Whether a message prints an empty list. */
static bool empty_list(const char *m)
{
	return strstr(m, "()") || strstr(m, "(, ") || strstr(m, "[]") || strstr(m, ", )") ||
	       strstr(m, "''") || strstr(m, "[, ");
}

/* Whether finding x is a pattern-projection of the attribute a fresh
 * projection-unknown-attribute of d says an INCLUDE name was meant for
 * ("did you mean 'X'?"): the same typo, told where it bites, which the
 * typo must not hide (SPEC 8.1). */
static bool typo_told_twice(const ddbc_diags *d, const ddbc_diags *base, const ddbc_diag *x)
{
	if (x->rule != DDBC_RULE_PATTERN_PROJECTION)
		return false;
	for (size_t i = 0; i < d->n; i++) {
		const ddbc_diag *u = &d->items[i];
		const char *m = strstr(u->message, "did you mean '");
		if (u->rule != DDBC_RULE_PROJECTION_UNKNOWN_ATTRIBUTE || !m ||
		    has_finding(base, u->rule, u->loc.line))
			continue;
		m += strlen("did you mean '");
		char want[300];
		snprintf(want, sizeof(want), "does not project '%.*s' of", (int)strcspn(m, "'"), m);
		if (strstr(x->message, want))
			return true;
	}
	return false;
}

/* Breaks the word and lints the copy; failures are appended to out. */
static void try_word(const char *rel, const char *text, size_t len, const ddbc_diags *base,
		     word wd, strbuf *out)
{
	/* The last letter but one goes: "partition_key" -> "partition_ey". */
	size_t cut = wd.off + wd.len - 2;
	char *copy = malloc(len);
	memcpy(copy, text, cut);
	memcpy(copy + cut, text + cut + 1, len - cut - 1);
	ddbc_diags d;
	lint_text(copy, len - 1, &d);
	size_t fresh = 0;
	bool field = false;
	for (size_t i = 0; i < d.n; i++) {
		const ddbc_diag *x = &d.items[i];
		if (empty_list(x->message))
			ddbc_strbuf_addf(out, "%s: '%.*s': an empty list: %s\n", rel, (int)wd.len,
				    text + wd.off, x->message);
		if (x->severity >= DDBC_SEV_WARNING && !has_finding(base, x->rule, x->loc.line) &&
		    !typo_told_twice(&d, base, x))
			fresh++;
		field |= x->rule == DDBC_RULE_SCHEMA && !strncmp(x->message, "unknown field", 13);
	}
	/* A name defined (a mapping key that is no field) is linked to from
	 * each place that uses it: each broken link is a place of its own to
	 * fix, so only the other words are held to one finding. */
	if (wd.key && !field)
		fresh = 0;
	if (fresh > 1 || (field && fresh != 1)) {
		ddbc_strbuf_addf(out, "%s: '%.*s' -> %zu findings:\n", rel, (int)wd.len, text + wd.off,
			    fresh);
		for (size_t i = 0; i < d.n; i++)
			if (d.items[i].severity >= DDBC_SEV_WARNING &&
			    !has_finding(base, d.items[i].rule, d.items[i].loc.line))
				ddbc_strbuf_addf(out, "    %u:%u [%s] %s\n", d.items[i].loc.line,
					    d.items[i].loc.column, ddbc_rule_get(d.items[i].rule)->id,
					    d.items[i].message);
	}
	ddbc_diags_release(&d);
	free(copy);
}

static void one_mistake_each(const char *rel)
{
	char *path = tu_srcpath(rel);
	size_t len;
	char *text = tu_read_file(path, &len);
	free(path);
	ddbc_diags base;
	lint_text(text, len, &base);

	ddbc_source *src = tu_source(text);
	ddbc_arena *arena = ddbc_arena_new();
	ddbc_diags cd;
	ddbc_diags_init(&cd);
	ddbc_diags_begin(&cd, src);
	const ddbc_node *root = ddbc_yaml_load(arena, src, &cd);
	ck_assert_msg(root != NULL, "%s does not compose", rel);
	words w = { NULL, 0, 0 };
	collect(&w, text, len, root, 0);
	ck_assert_msg(w.n > 0, "%s: no word to break", rel);

	strbuf out = STRBUF_INIT;
	for (size_t i = 0; i < w.n; i++)
		try_word(rel, text, len, &base, w.items[i], &out);
	/* Check carries a message of a few kilobytes at most. */
	if (out.len)
		fprintf(stderr, "%s", ddbc_strbuf_str(&out));
	ck_assert_msg(out.len == 0, "%.2000s", ddbc_strbuf_str(&out));

	ddbc_strbuf_release(&out);
	free(w.items);
	ddbc_diags_release(&cd);
	ddbc_diags_release(&base);
	ddbc_arena_free(arena);
	ddbc_source_free(src);
	free(text);
}

START_TEST(test_samples)
{
	one_mistake_each(samples[_i]);
}
END_TEST

START_TEST(test_passing_fixtures)
{
	char rel[256];
	const ddbc_rule_info *r = ddbc_rule_get((ddbc_rule)_i);
	/* A change class of `ddbc diff` has pairs of designs: the new one of
	 * its quiet pair is a passing design too. */
	if (r->kind == DDBC_RULE_KIND_DIFF)
		snprintf(rel, sizeof(rel), "tests/diff/%s/good.new.yaml", r->id);
	else
		snprintf(rel, sizeof(rel), "tests/rules/%s/good.yaml", r->id);
	one_mistake_each(rel);
}
END_TEST

static Suite *cascade_suite(void)
{
	Suite *s = suite_create("cascade");
	TCase *tc = tcase_create("one mistake");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_samples, 0, (int)NSAMPLES);
	tcase_add_loop_test(tc, test_passing_fixtures, 0, DDBC_RULE_COUNT);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(cascade_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
