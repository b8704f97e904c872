/* import_guess.c - key templates recovered from sample keys
 *
 * Workbench models and item samples carry keys such as "USER#U001" beside
 * UserId = "U001". Split at the design's delimiter, a part that is the
 * same in every sample is a literal; a part that equals one attribute's
 * value in every sample is that attribute's placeholder. Anything else
 * (a part that varies with no attribute behind it, samples of different
 * shapes) gives no template: a wrong guess would be worse than none.
 */
#include "import/import_int.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The parts of s split at delim (an array of strings). */
static json_t *split(const char *s, const char *delim)
{
	json_t *parts = json_array();
	size_t dl = strlen(delim);
	for (;;) {
		const char *d = dl ? strstr(s, delim) : NULL;
		if (!d) {
			json_array_append_new(parts, json_string(s));
			return parts;
		}
		json_array_append_new(parts, json_stringn(s, (size_t)(d - s)));
		s = d + dl;
	}
}

char *ddbc_import_scalar_text(const json_t *v)
{
	if (ddbc_import_number_text(v))
		return ddbc_xstrdup(ddbc_import_number_text(v));
	if (ddbc_import_is_string(v))
		return ddbc_xstrdup(ddbc_import_string_value(v));
	if (json_is_integer(v)) {
		strbuf b = STRBUF_INIT;
		ddbc_strbuf_addf(&b, "%lld", (long long)json_integer_value(v));
		return ddbc_strbuf_detach(&b);
	}
	return NULL;
}

/* Part j of sample i's split key (parts: one list of parts a sample). */
static const char *part_at(const json_t *parts, size_t i, size_t j)
{
	return ddbc_import_string_value(json_array_get(json_array_get(parts, i), j));
}

static bool in_names(const json_t *names, const char *name)
{
	size_t i;
	const json_t *v;
	json_array_foreach(names, i, v)
		if (ddbc_import_is_string(v) && !strcmp(ddbc_import_string_value(v), name))
			return true;
	return false;
}

/* Whether attribute a's value is part j of every sample. */
static bool attr_fits(const json_t *samples, const json_t *parts, const char *a, size_t j)
{
	size_t i;
	const json_t *item;
	json_array_foreach(samples, i, item) {
		char *t = ddbc_import_scalar_text(json_object_get(item, a));
		const char *p = part_at(parts, i, j);
		bool ok = t && *t && !strcmp(t, p);
		free(t);
		if (!ok)
			return false;
	}
	return true;
}

static bool same_part(const json_t *parts, size_t j)
{
	const char *first = part_at(parts, 0, j);
	for (size_t i = 1; i < json_array_size(parts); i++)
		if (strcmp(first, part_at(parts, i, j)))
			return false;
	return true;
}

static void add_literal(strbuf *b, const char *s)
{
	for (; *s; s++) {
		if (*s == '{' || *s == '}')
			ddbc_strbuf_addch(b, *s);
		ddbc_strbuf_addch(b, *s);
	}
}

/* The length of the literal before attribute a's value in part j, the
 * same in every sample ("Month-" of "Month-2020-01" beside "2020-01"), or
 * 0 when a's value does not end part j after one shared literal. */
static size_t prefix_len(const json_t *samples, const json_t *parts, const char *a, size_t j)
{
	size_t len = 0, i;
	const char *first = NULL;
	const json_t *item;
	json_array_foreach(samples, i, item) {
		char *t = ddbc_import_scalar_text(json_object_get(item, a));
		const char *p = part_at(parts, i, j);
		size_t tl = t ? strlen(t) : 0, pl = strlen(p);
		bool ok = tl > 1 && pl > tl && !strcmp(p + pl - tl, t) &&
			  (!first || (pl - tl == len && !strncmp(p, first, len)));
		free(t);
		if (!ok)
			return 0;
		first = p;
		len = pl - tl;
	}
	return len;
}

/* Part j as a literal and a placeholder; -1 when no attribute fits. */
static int add_prefixed(strbuf *b, const json_t *samples, const json_t *parts,
			const json_t *keys, size_t j)
{
	const char *a;
	const json_t *v;
	json_object_foreach((json_t *)json_array_get(samples, 0), a, v) {
		size_t len = in_names(keys, a) ? 0 : prefix_len(samples, parts, a, j);
		if (!len)
			continue;
		/* prefix_len found part j of every sample to be a string. */
		const char *part = part_at(parts, 0, j);
		char *lit = ddbc_xstrndup(part, len);
		add_literal(b, lit);
		free(lit);
		ddbc_strbuf_addf(b, "{%s}", a);
		return 0;
	}
	return -1;
}

/* Part j of the template: a placeholder, a literal, or -1. An attribute
 * that holds the part in every sample wins, even when the part is the same
 * in all of them ("FORUM#dynamodb" beside ForumName "dynamodb" in two
 * samples is "FORUM#{ForumName}"), except for a key of one constant part:
 * "METADATA" is a literal whatever attribute happens to hold it too. A part
 * that varies with no attribute behind it, after literal parts only, is
 * the unstored placeholder (once). */
static int add_part(strbuf *b, const json_t *samples, const json_t *parts,
		    const ddbc_import_guess *g, size_t j, size_t width, bool *unstored_used)
{
	bool constant = same_part(parts, j);
	if (!constant || width > 1) {
		const char *a;
		const json_t *v;
		json_object_foreach((json_t *)json_array_get(samples, 0), a, v) {
			if (!in_names(g->keys, a) && attr_fits(samples, parts, a, j)) {
				ddbc_strbuf_addf(b, "{%s}", a);
				return 0;
			}
		}
	}
	if (add_prefixed(b, samples, parts, g->keys, j) == 0)
		return 0;
	if (!constant) {
		bool literal_before = j > 0 && !strchr(ddbc_strbuf_str(b), '{');
		if (!g->unstored || *unstored_used || !literal_before)
			return -1;
		*unstored_used = true;
		ddbc_strbuf_addf(b, "{%s}", g->unstored);
		return 0;
	}
	add_literal(b, part_at(parts, 0, j));
	return 0;
}

/* Whether the samples come from more than one partition. */
static bool several_partitions(const json_t *samples, const char *partition)
{
	char *first = NULL;
	bool several = false;
	size_t i;
	const json_t *item;
	json_array_foreach(samples, i, item) {
		char *t = ddbc_import_scalar_text(json_object_get(item, partition));
		if (t && !first)
			first = t, t = NULL;
		several = several || (t && strcmp(t, first));
		free(t);
	}
	free(first);
	return several;
}

char *ddbc_import_guess_template(const json_t *items, const ddbc_import_guess *g,
				 size_t *nsamples)
{
	json_t *samples = json_array(), *parts = json_array();
	size_t i;
	const json_t *item;
	json_array_foreach(items, i, item) {
		const json_t *k = json_object_get(item, g->key);
		if (!ddbc_import_is_string(k))
			continue;
		json_array_append(samples, (json_t *)item);
		json_array_append_new(parts, split(ddbc_import_string_value(k), g->delim));
	}
	char *out = NULL;
	size_t n = json_array_size(samples);
	size_t width = n ? json_array_size(json_array_get(parts, 0)) : 0;
	bool ok = n > 0, unstored_used = false;
	for (i = 1; ok && i < n; i++)
		ok = json_array_size(json_array_get(parts, i)) == width;
	strbuf b = STRBUF_INIT;
	for (size_t j = 0; ok && j < width; j++) {
		if (j)
			add_literal(&b, g->delim);
		ok = add_part(&b, samples, parts, g, j, width, &unstored_used) == 0;
	}
	/* A constant needs samples of several partitions of a sort key. A
	 * constant that is not one (c#12345 in every sample of one customer)
	 * is a shared literal prefix over a value: the last part is the
	 * unstored placeholder. */
	if (ok && !strchr(ddbc_strbuf_str(&b), '{') &&
	    !(g->partition && several_partitions(samples, g->partition))) {
		ok = g->unstored && width > 1;
		if (ok) {
			ddbc_strbuf_reset(&b);
			for (size_t j = 0; j + 1 < width; j++) {
				add_literal(&b, part_at(parts, 0, j));
				add_literal(&b, g->delim);
			}
			ddbc_strbuf_addf(&b, "{%s}", g->unstored);
		}
	}
	if (ok) {
		out = ddbc_strbuf_detach(&b);
		*nsamples = n;
	}
	ddbc_strbuf_release(&b);
	json_decref(samples);
	json_decref(parts);
	return out;
}

void ddbc_import_add_unstored(ddbc_import_run *run, json_t *attrs, const char *tmpl,
			      const json_t *types)
{
	for (const char *t = tmpl; *t; t++) {
		if (t[0] == '{' && t[1] == '{') {
			t++;
			continue;
		}
		if (t[0] != '{')
			continue;
		size_t n = strcspn(t + 1, ":}");
		char *name = ddbc_xstrndup(t + 1, n);
		if (!json_object_get(attrs, name)) {
			const char *ty = ddbc_import_string_value(json_object_get(types, name));
			json_object_set_new(attrs, name, json_pack("{sssb}", "type", ty ? ty : "S",
								   "stored", 0));
			ddbc_import_set_comment(run, attrs, name, "only inside the key: no sample "
						"item stores it");
		}
		free(name);
		t += n;
	}
}

char *ddbc_import_template_part(const char *tmpl, const char *value, const char *name,
				const char *delim)
{
	json_t *tp = split(tmpl, delim), *vp = split(value, delim);
	strbuf ph = STRBUF_INIT;
	ddbc_strbuf_addf(&ph, "{%s}", name);
	char *out = NULL;
	size_t i;
	const json_t *t;
	json_array_foreach(tp, i, t) {
		const char *ts = ddbc_import_string_value(t), *at = strstr(ts, ddbc_strbuf_str(&ph));
		const char *vs = ddbc_import_string_value(json_array_get(vp, i));
		/* The guesses put a placeholder at the end of its part, after a
		 * literal, with "{{" for a brace: the literal's length in the value
		 * is its length less the doubled braces. */
		if (!at || !vs || at[ph.len] || json_array_size(tp) != json_array_size(vp))
			continue;
		size_t lit = 0;
		for (const char *p = ts; p < at; p++, lit++)
			if ((*p == '{' || *p == '}') && p[1] == *p)
				p++;
		if (strlen(vs) > lit)
			out = ddbc_xstrdup(vs + lit);
		break;
	}
	ddbc_strbuf_release(&ph);
	json_decref(tp);
	json_decref(vp);
	return out;
}
