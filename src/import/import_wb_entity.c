/* import_wb_entity.c - entities from Workbench facets
 *
 * A facet names the attributes of one kind of item and, in older models,
 * holds its sample items; newer models keep the items at the table, so an
 * item goes to the facet with the fewest attributes that names all of the
 * item's. Key templates: a facet's key alias when it is a template, else
 * recovered from the entity's samples and marked as a guess.
 */
#include "import/import_int.h"
#include "import/import_wb.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* One facet as items are matched to it: its attribute names (a list in
 * the model's order, and sorted, borrowed from it, for lookups: a jansson
 * object per facet was most of the memory of a model of many facets), its
 * key aliases when they are templates. */
struct facet {
	json_t *names;
	const char **sorted;
	size_t nsorted;
	const char *alias[2];      /* partition, sort key alias templates, or NULL */
	char *name;                /* its FacetName, or NULL */
	char *aliases[2];          /* its KeyAttributeAlias's partition and sort
				    * key aliases, or NULL (the facet's tree
				    * is not kept: ~1 KB a facet) */
};

/* The attribute names facet f holds: the table keys and its NonKeyAttributes. */
static json_t *facet_names(const json_t *f, const json_t *table)
{
	json_t *names = json_array();
	json_array_append(names, json_object_get(table, "partition_key"));
	if (json_object_get(table, "sort_key"))
		json_array_append(names, json_object_get(table, "sort_key"));
	size_t i;
	const json_t *n;
	json_array_foreach(json_object_get(f, "NonKeyAttributes"), i, n)
		if (ddbc_import_is_string(n))
			json_array_append(names, (json_t *)n);
	return names;
}

/* Whether value v fits template t: its literals in order, each
 * placeholder standing for at least one byte ("{{" is a literal brace). */
static bool fits_template(const char *t, const char *v)
{
	while (*t) {
		if (t[0] == '{' && t[1] != '{') {
			const char *close = strchr(t, '}');
			if (!close || !*v)
				return false;
			for (const char *p = v + 1;; p++) {
				if (fits_template(close + 1, p))
					return true;
				if (!*p)
					return false;
			}
		}
		size_t step = (t[0] == '{' || t[0] == '}') && t[1] == t[0] ? 2 : 1;
		if (*v != *t)
			return false;
		t += step;
		v++;
	}
	return !*v;
}

/* The length of the literal a template starts with (up to its first
 * placeholder), in the template's bytes. */
static size_t literal_len(const char *t)
{
	size_t n = 0;
	while (t[n] && !(t[n] == '{' && t[n + 1] != '{'))
		n += (t[n] == '{' || t[n] == '}') && t[n + 1] == t[n] ? 2 : 1;
	return n;
}

struct facets {
	struct facet *f;
	size_t n;
	const char *key[2];        /* the table's partition and sort key names */
	json_t *by_prefix;         /* "P"/"S" + literal prefix -> [facet index, ...] */
	json_t *plain;             /* the facets without template aliases */
};

static void index_facet(struct facets *fs, size_t i)
{
	const struct facet *f = &fs->f[i];
	int k = f->alias[1] ? 1 : f->alias[0] ? 0 : -1;
	if (k < 0) {
		json_array_append_new(fs->plain, json_integer((json_int_t)i));
		return;
	}
	/* A literal with "{{" escapes is looked up as written: it then
	 * matches no value's bytes and the facet is tried with the plain ones. */
	strbuf key = STRBUF_INIT;
	ddbc_strbuf_addch(&key, k ? 'S' : 'P');
	ddbc_strbuf_add(&key, f->alias[k], literal_len(f->alias[k]));
	json_t *list = strchr(ddbc_strbuf_str(&key), '{') || strchr(ddbc_strbuf_str(&key), '}')
		     ? fs->plain : json_object_get(fs->by_prefix, ddbc_strbuf_str(&key));
	if (!list) {
		list = json_array();
		json_object_set_new(fs->by_prefix, ddbc_strbuf_str(&key), list);
	}
	json_array_append_new(list, json_integer((json_int_t)i));
	ddbc_strbuf_release(&key);
}

/* Adds the facets whose literal prefix the item's key k starts with. */
static void prefixed(const struct facets *fs, const json_t *item, int k, json_t *out)
{
	const char *v = fs->key[k] ? ddbc_import_string_value(json_object_get(item, fs->key[k])) : NULL;
	if (!v)
		return;
	strbuf key = STRBUF_INIT;
	ddbc_strbuf_addch(&key, k ? 'S' : 'P');
	ddbc_strbuf_addstr(&key, v);
	for (size_t len = strlen(v) + 1; len-- > 0;) {
		const json_t *list = json_object_getn(fs->by_prefix, key.buf, len + 1);
		size_t i;
		const json_t *x;
		json_array_foreach(list, i, x)
			json_array_append(out, (json_t *)x);
	}
	ddbc_strbuf_release(&key);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Whether facet f can hold item: it names every attribute of the item and
 * its template aliases fit the item's keys. */
static bool can_hold(const struct facets *fs, const struct facet *f, const json_t *item)
{
	const char *k;
	const json_t *v;
	json_object_foreach((json_t *)item, k, v)
		if (!bsearch(&k, f->sorted, f->nsorted, sizeof(*f->sorted), by_name))
			return false;
	for (int i = 0; i < 2; i++) {
		const char *val = fs->key[i] ? ddbc_import_string_value(json_object_get(item, fs->key[i]))
					     : NULL;
		if (f->alias[i] && (!val || !fits_template(f->alias[i], val)))
			return false;
	}
	return true;
}

/* Whether facet a fits better than b: longer literal key prefixes first (a
 * facet whose key alias the item's key spells out is its facet, whatever
 * other facets share its attribute names), then fewer attributes. */
static bool better(const struct facet *a, const struct facet *b)
{
	size_t la = 0, lb = 0;
	for (int i = 0; i < 2; i++) {
		la += a->alias[i] ? literal_len(a->alias[i]) + 1 : 0;
		lb += b->alias[i] ? literal_len(b->alias[i]) + 1 : 0;
	}
	if (la != lb)
		return la > lb;
	return json_array_size(a->names) < json_array_size(b->names);
}

/* The facet item belongs to, or -1 for none. Only the facets whose key
 * prefix the item's keys start with, and those without template aliases,
 * are tried: an item costs its key's length, not the number of facets. */
static int facet_of(const struct facets *fs, const json_t *item)
{
	json_t *cands = json_array();
	prefixed(fs, item, 0, cands);
	prefixed(fs, item, 1, cands);
	size_t i;
	const json_t *x;
	json_array_foreach(fs->plain, i, x)
		json_array_append(cands, (json_t *)x);
	int best = -1;
	json_array_foreach(cands, i, x) {
		size_t k = (size_t)json_integer_value(x);
		if (!can_hold(fs, &fs->f[k], item))
			continue;
		if (best < 0 || better(&fs->f[k], &fs->f[best]) ||
		    (!better(&fs->f[best], &fs->f[k]) && k < (size_t)best))
			best = (int)k;
	}
	json_decref(cands);
	return best;
}

/* The type of attribute n: the model's, else its first sample value's. */
static const char *type_of(const struct wb_table *w, const char *n, const json_t *examples)
{
	const char *t = ddbc_import_string_value(json_object_get(w->types, n));
	size_t i;
	const json_t *e;
	json_array_foreach(examples, i, e)
		if (!t && json_object_get(e, n))
			t = ddbc_import_value_type(json_object_get(e, n));
	return t;
}

static json_t *attributes(const struct wb_table *w, const json_t *names,
			  const json_t *examples)
{
	json_t *attrs = json_object();
	size_t i;
	const json_t *n, *e;
	json_array_foreach(names, i, n) {
		const char *name = ddbc_import_string_value(n);
		const char *t = type_of(w, name, examples);
		if (t)
			json_object_set_new(attrs, name, json_pack("{ss}", "type", t));
	}
	json_array_foreach(examples, i, e) {
		const char *k;
		const json_t *v;
		json_object_foreach((json_t *)e, k, v)
			if (!json_object_get(attrs, k))
				json_object_set_new(attrs, k, json_pack("{ss}", "type",
									type_of(w, k, examples)));
	}
	return attrs;
}

/* Whether every example has attribute k as a string. */
static bool in_every(const json_t *examples, const char *k)
{
	size_t i;
	const json_t *e;
	json_array_foreach(examples, i, e)
		if (!ddbc_import_is_string(json_object_get(e, k)))
			return false;
	return json_array_size(examples) > 0;
}

/* Whether every example has key k, and it is exactly s. */
static bool every_key_is(const json_t *examples, const char *k, const char *s)
{
	size_t i;
	const json_t *e;
	json_array_foreach(examples, i, e)
		if (!ddbc_import_is_string(json_object_get(e, k)) ||
		    strcmp(ddbc_import_string_value(json_object_get(e, k)), s))
			return false;
	return json_array_size(examples) > 0;
}

/* Sets the template of key attribute k: alias when it is one, else a
 * guess from the examples (only when every example has k, since a
 * template makes its attribute required). */
/* Whether names a and b differ only in case and in what is no letter or
 * digit (vehicleId, vehicle_id, VEHICLE-ID): the names generated code
 * makes of them (VEHICLE_ID in the header) would be one. */
static bool same_letters(const char *a, const char *b)
{
	for (;; a++, b++) {
		while (*a && !isalnum((unsigned char)*a))
			a++;
		while (*b && !isalnum((unsigned char)*b))
			b++;
		if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
			return false;
		if (!*a)
			return true;
	}
}

static bool name_taken(const json_t *attrs, const char *name)
{
	const char *k;
	const json_t *v;
	json_object_foreach((json_t *)attrs, k, v)
		if (same_letters(k, name))
			return true;
	return false;
}

/* The name of a key part no attribute stores: the entity's id
 * ("customerId" for Customer), else the same with a number after it; no
 * attribute's name that differs from it only in case or separators. */
static char *unstored_name(const char *entity, const json_t *attrs)
{
	strbuf b = STRBUF_INIT;
	for (int i = 1;; i++) {
		ddbc_strbuf_reset(&b);
		ddbc_strbuf_addch(&b, (char)tolower((unsigned char)entity[0]));
		ddbc_strbuf_addf(&b, "%sId", entity[0] ? entity + 1 : "");
		if (i > 1)
			ddbc_strbuf_addf(&b, "%d", i);
		if (!name_taken(attrs, ddbc_strbuf_str(&b)))
			return ddbc_strbuf_detach(&b);
	}
}

/* Gives every sample the value of the unstored key part name, which the
 * guess of key k's template g found: the entity's other keys (a sort key
 * c#12345 beside a partition key c#12345) then find the same part. The
 * samples are the guessing copies, never the examples written. */
static void lend_unstored(json_t *samples, const char *k, const char *g, const char *name)
{
	json_t *parts = json_array(), *distinct = json_object();
	size_t i;
	json_t *item;
	json_array_foreach(samples, i, item) {
		const char *v = ddbc_import_string_value(json_object_get(item, k));
		char *part = v ? ddbc_import_template_part(g, v, name, "#") : NULL;
		json_array_append_new(parts, part ? json_string(part) : json_null());
		if (part)
			json_object_set_new(distinct, part, json_true());
		free(part);
	}
	/* A part that is the same in every sample (one customer's items) is no
	 * evidence that another key holding that text holds this part. */
	if (json_object_size(distinct) > 1)
		json_array_foreach(samples, i, item)
			if (ddbc_import_is_string(json_array_get(parts, i)))
				json_object_set(item, name, json_array_get(parts, i));
	json_decref(parts);
	json_decref(distinct);
}

/* Whether s is a name as attributes are named: a letter or '_', then
 * letters, digits and '_'. */
static bool is_name(const char *s, size_t n)
{
	if (!n || !(isalpha((unsigned char)*s) || *s == '_'))
		return false;
	for (size_t i = 1; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return false;
	return true;
}

static bool has_lower(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (islower((unsigned char)s[i]))
			return true;
	return false;
}

/* The template key k's alias reads as, or NULL. The alias split at '#',
 * a part is a placeholder where it reads as a name: an attribute of the
 * entity, the partition key's alias (pk_alias, a placeholder of the
 * partition key pk), or a word with lower-case letters beside the
 * upper-case literals keys are written with (TASK#TaskID is TASK#{TaskID});
 * any other part is a literal. A template needs a literal and a
 * placeholder, and never names k itself. */
static char *alias_template(const char *alias, const json_t *attrs, const char *k,
			    const char *pk, const char *pk_alias)
{
	if (!alias || strchr(alias, '{') || strchr(alias, '}') || !strchr(alias, '#'))
		return NULL;
	strbuf t = STRBUF_INIT;
	bool literal = false, placeholder = false, self = false, clash = false;
	for (const char *p = alias;; p++) {
		size_t n = strcspn(p, "#");
		bool pka = pk_alias && strlen(pk_alias) == n && !strncmp(p, pk_alias, n);
		char *part = ddbc_xstrndup(p, n);
		if (is_name(p, n) && (json_object_get(attrs, part) || pka || has_lower(p, n))) {
			const char *name = pka && strcmp(k, pk) ? pk : part;
			self |= !strcmp(name, k);
			/* A key part of a new name, never one generated code would
			 * name as an attribute's (TaskId beside task_id). */
			clash |= !json_object_get(attrs, name) && name_taken(attrs, name);
			ddbc_strbuf_addf(&t, "{%s}", name);
			placeholder = true;
		} else {
			ddbc_strbuf_add(&t, p, n);
			literal |= n > 0;
		}
		free(part);
		p += n;
		if (!*p)
			break;
		ddbc_strbuf_addch(&t, '#');
	}
	if (literal && placeholder && !self && !clash)
		return ddbc_strbuf_detach(&t);
	ddbc_strbuf_release(&t);
	return NULL;
}

/* Whether key value v fits template t part for part at '#': each literal
 * part as written, each placeholder part a non-empty value (placeholder
 * values never hold the delimiter), the value of the sample's own
 * attribute of that name where it stores one. */
static bool fits_parts(const char *t, const char *v, const json_t *sample, const json_t *attrs)
{
	for (;;) {
		size_t tn = strcspn(t, "#"), vn = strcspn(v, "#");
		if (t[0] == '{') {
			char *name = ddbc_xstrndup(t + 1, tn - 2);
			const json_t *a = json_object_get(attrs, name);
			char *own = a && !json_is_false(json_object_get(a, "stored"))
				  ? ddbc_import_scalar_text(json_object_get(sample, name)) : NULL;
			bool ok = vn > 0 && (!own || (strlen(own) == vn && !strncmp(own, v, vn)));
			free(own);
			free(name);
			if (!ok)
				return false;
		} else if (tn != vn || strncmp(t, v, tn)) {
			return false;
		}
		if (!t[tn] || !v[vn])
			return !t[tn] && !v[vn];
		t += tn + 1;
		v += vn + 1;
	}
}

/* The template key k's alias reads as (alias_template), when every sample
 * has k and fits it: a key alias is evidence, as sample keys are, and the
 * only evidence of a facet whose samples show no template of their own. */
static char *alias_evidence(const char *alias, const json_t *attrs, const char *k,
			    const char *pk, const char *pk_alias, const json_t *samples)
{
	char *t = alias_template(alias, attrs, k, pk, pk_alias);
	size_t i;
	const json_t *e;
	json_array_foreach(samples, i, e) {
		const char *v = ddbc_import_string_value(json_object_get(e, k));
		if (t && (!v || !fits_parts(t, v, e, attrs))) {
			free(t);
			t = NULL;
		}
	}
	return t;
}

/* Alias template t (alias_evidence) when it is guess g but for naming
 * g's invented key part {unstored}: the alias names that part (TASK#TaskID
 * names TASK#{tasksId}'s part TaskID), by a name no attribute has; the
 * name in *name (t's). NULL otherwise. */
static const char *alias_names(const char *g, const char *unstored, const char *t,
			       const json_t *attrs, char **name)
{
	if (!g || !t)
		return NULL;
	strbuf ph = STRBUF_INIT;
	ddbc_strbuf_addf(&ph, "{%s}", unstored);
	*name = NULL;
	bool same = true;
	for (const char *a = g, *b = t;;) {
		size_t an = strcspn(a, "#"), bn = strcspn(b, "#");
		if (an == ph.len && !strncmp(a, ph.buf, an) && bn > 2 && b[0] == '{' && !*name) {
			*name = ddbc_xstrndup(b + 1, bn - 2);
			same = !json_object_get(attrs, *name) && !name_taken(attrs, *name);
		} else {
			same = an == bn && !strncmp(a, b, an);
		}
		if (!same || !a[an] || !b[bn]) {
			same = same && !a[an] && !b[bn];
			break;
		}
		a += an + 1;
		b += bn + 1;
	}
	ddbc_strbuf_release(&ph);
	if (same && *name)
		return t;
	free(*name);
	*name = NULL;
	return NULL;
}

static void key_template(const struct wb_table *w, json_t *attrs, const char *k,
			 bool table_key, const char *alias, const char *pk_alias,
			 json_t *examples, json_t *templated, const char *entity)
{
	json_t *a = json_object_get(attrs, k);
	const char *t = ddbc_import_string_value(json_object_get(a, "type"));
	if (!a || !t || strcmp(t, "S"))
		return;
	/* An alias that is a template, or the very key of every sample (a
	 * constant key: Workbench labels carry ddbc's templates so). */
	if (alias && (strchr(alias, '{') || every_key_is(examples, k, alias))) {
		json_object_set_new(a, "template", json_string(alias));
		ddbc_import_add_unstored(w->run, attrs, alias, w->types);
		if (!strchr(alias, '{'))
			ddbc_import_set_comment(w->run, a, "template",
						"the facet's key alias, which "
						"every sample key is");
		json_array_append_new(templated, json_string(k));
		return;
	}
	size_t n = 0;
	/* Never a placeholder of itself or of an attribute that has a template
	 * already: no template can then refer back to itself. */
	json_t *exclude = json_deep_copy(templated);
	json_array_append_new(exclude, json_string(k));
	const char *pk = ddbc_import_string_value(json_object_get(w->table, "partition_key"));
	char *unstored = unstored_name(entity, attrs);
	ddbc_import_guess guess = { k, exclude, "#", table_key && strcmp(k, pk) ? pk : NULL,
				    unstored };
	char *g = in_every(examples, k) ? ddbc_import_guess_template(examples, &guess, &n) : NULL;
	json_decref(exclude);
	char *named = NULL;
	if (g && strstr(g, unstored)) {
		/* The key alias names the part the samples show unstored. */
		char *at = alias_evidence(alias, attrs, k, pk, pk_alias, examples);
		if (alias_names(g, unstored, at, attrs, &named)) {
			free(g);
			g = at;
			at = NULL;
		}
		free(at);
		ddbc_import_add_unstored(w->run, attrs, g, w->types);
		lend_unstored(examples, k, g, named ? named : unstored);
	}
	free(unstored);
	/* A constant is a template only for the table's keys: an index key
	 * that all samples share is more likely a plain attribute (a category)
	 * than a fixed value. */
	if (!g || (!table_key && !strchr(g, '{'))) {
		free(g);
		free(named);
		g = alias_evidence(alias, attrs, k, pk, pk_alias, examples);
		if (!g)
			return;
		ddbc_import_add_unstored(w->run, attrs, g, w->types);
		json_object_set_new(a, "template", json_string(g));
		json_array_append_new(templated, json_string(k));
		n = json_array_size(examples);
		if (n)
			ddbc_import_set_comment(w->run, a, "template",
						"read from the facet's key alias "
						"'%s', which %zu sample key%s fit%s", alias, n,
						n == 1 ? "" : "s", n == 1 ? "s" : "");
		else
			ddbc_import_set_comment(w->run, a, "template",
						"read from the facet's key alias "
						"'%s' (no sample key)", alias);
		free(g);
		return;
	}
	json_object_set_new(a, "template", json_string(g));
	json_array_append_new(templated, json_string(k));
	if (named)
		ddbc_import_set_comment(w->run, a, "template", "guessed from %zu sample key%s, its "
					"part named as the facet's key alias '%s' names it", n,
					n == 1 ? "" : "s", alias);
	else
		ddbc_import_set_comment(w->run, a, "template", "guessed from %zu sample key%s", n,
					n == 1 ? "" : "s");
	free(named);
	free(g);
}

/* The samples key k's template is guessed from: the examples' guessing
 * copies and what each malformed item still shows (shown, beside its
 * evidence entry), unless k itself is what is wrong in it. The well-formed
 * keys of a malformed item are facts of the source: the model's author
 * wrote them, so they are evidence of the key's shape, though the item is
 * no example. References: lend_unstored's additions reach every key. */
static json_t *key_samples(const json_t *guessing, const json_t *shown, const json_t *evidence,
			   const char *k)
{
	json_t *s = json_array();
	size_t i;
	json_t *x;
	json_array_foreach(guessing, i, x)
		json_array_append(s, x);
	json_array_foreach(shown, i, x)
		if (!json_object_get(json_object_get(json_array_get(evidence, i), "bad"), k))
			json_array_append(s, x);
	return s;
}

static int add_entity(const struct wb_table *w, json_t *design, const char *name,
		      const json_t *names, char *const alias[2], json_t *examples,
		      const json_t *evidence)
{
	json_t *entities = json_object_get(design, "entities");
	if (json_object_get(entities, name))
		return ddbc_import_fail(w->file, "two entities are named '%s'", name);
	json_t *attrs = attributes(w, names, examples);
	json_t *templated = json_array();
	/* The guesses read (and lend unstored key parts to) a copy. */
	json_t *guessing = json_deep_copy(examples), *shown = json_array();
	size_t i;
	const json_t *k;
	json_array_foreach(evidence, i, k)
		json_array_append_new(shown, json_deep_copy(json_object_get(k, "ok")));
	json_array_foreach(w->keys, i, k) {
		const char *kn = ddbc_import_string_value(k);
		const char *al = NULL;
		bool tk = true;
		if (!strcmp(kn, ddbc_import_string_value(json_object_get(w->table, "partition_key"))))
			al = alias ? alias[0] : NULL;
		else if (json_object_get(w->table, "sort_key") &&
			 !strcmp(kn, ddbc_import_string_value(json_object_get(w->table, "sort_key"))))
			al = alias ? alias[1] : NULL;
		else
			tk = false;
		json_t *samples = key_samples(guessing, shown, evidence, kn);
		key_template(w, attrs, kn, tk, al, alias ? alias[0] : NULL, samples, templated,
			     name);
		json_decref(samples);
	}
	json_decref(guessing);
	json_decref(shown);
	json_decref(templated);
	json_t *e = json_pack("{sssO}", "table", w->name, "attributes", attrs);
	json_decref(attrs);
	if (json_array_size(examples))
		json_object_set(e, "examples", examples);
	json_object_set_new(entities, name, e);
	return 0;
}

/* A key alias that is a template, as ddbc's export writes them. */
static const char *template_alias(const char *a)
{
	return a && strchr(a, '{') ? a : NULL;
}

static char *alias_of(const json_t *f, const char *member)
{
	const char *a = ddbc_import_string_value(json_object_get(json_object_get(f,
								"KeyAttributeAlias"), member));
	return a ? ddbc_xstrdup(a) : NULL;
}

/* per's element i, an array made when first needed: most facets' lists
 * of own items and of malformed ones' evidence stay empty. */
static json_t *slot(json_t *per, size_t i)
{
	json_t *a = json_array_get(per, i);
	if (!json_is_array(a)) {
		a = json_array();
		json_array_set_new(per, i, a);
	}
	return a;
}

/* l, or null in its place when it is empty. Takes l. */
static json_t *or_null(json_t *l)
{
	if (json_array_size(l))
		return l;
	json_decref(l);
	return json_null();
}

static json_t *facet_items(const struct wb_table *w, const json_t *f, json_t *evidence);

/* Reads each facet of the table (per: its own items, per_ev: what its
 * malformed ones show), keeping only what matching items and making its
 * entity use. */
static void facets_init(struct facets *fs, const struct wb_table *w, const json_t *facets,
			json_t *per, json_t *per_ev)
{
	fs->n = json_array_size(facets);
	fs->f = ddbc_xcalloc(fs->n ? fs->n : 1, sizeof(*fs->f));
	fs->key[0] = ddbc_import_string_value(json_object_get(w->table, "partition_key"));
	fs->key[1] = ddbc_import_string_value(json_object_get(w->table, "sort_key"));
	fs->by_prefix = json_object();
	fs->plain = json_array();
	for (size_t i = 0; i < fs->n; i++) {
		json_t *f = ddbc_import_wb_facet(w->run, json_array_get(facets, i));
		struct facet *x = &fs->f[i];
		json_t *ev = json_array();
		json_array_append_new(per, or_null(facet_items(w, f, ev)));
		json_array_append_new(per_ev, or_null(ev));
		const char *fname = ddbc_import_string_value(json_object_get(f, "FacetName"));
		x->name = fname ? ddbc_xstrdup(fname) : NULL;
		x->aliases[0] = alias_of(f, "PartitionKeyAlias");
		x->aliases[1] = alias_of(f, "SortKeyAlias");
		x->names = facet_names(f, w->table);
		x->sorted = ddbc_xcalloc(json_array_size(x->names) + 1, sizeof(*x->sorted));
		size_t j;
		const json_t *n;
		json_array_foreach(x->names, j, n)
			if (ddbc_import_is_string(n))
				x->sorted[x->nsorted++] = ddbc_import_string_value(n);
		qsort(x->sorted, x->nsorted, sizeof(*x->sorted), by_name);
		x->alias[0] = template_alias(x->aliases[0]);
		x->alias[1] = fs->key[1] ? template_alias(x->aliases[1]) : NULL;
		index_facet(fs, i);
		json_decref(f);
	}
}

/* Frees what facet f kept. */
static void facet_release(struct facet *f)
{
	json_decref(f->names);
	free(f->sorted);
	free(f->name);
	free(f->aliases[0]);
	free(f->aliases[1]);
	*f = (struct facet){ 0 };
}

static void facets_release(struct facets *fs)
{
	for (size_t i = 0; i < fs->n; i++)
		facet_release(&fs->f[i]);
	free(fs->f);
	json_decref(fs->by_prefix);
	json_decref(fs->plain);
}

/* The facet's own sample items (older models keep them per facet); what
 * its malformed ones still show goes to evidence. */
static json_t *facet_items(const struct wb_table *w, const json_t *f, json_t *evidence)
{
	json_t *mine = json_array();
	const char *fname = ddbc_import_string_value(json_object_get(f, "FacetName"));
	strbuf where = STRBUF_INIT;
	ddbc_strbuf_addf(&where, "facet '%s' of table '%s'", fname ? fname : "", w->name);
	ddbc_import_wb_items(w->run, w->file, ddbc_strbuf_str(&where), json_object_get(f, "TableData"),
			     mine,
			     evidence);
	ddbc_strbuf_release(&where);
	return mine;
}

/* Writes facet i's entity to text as soon as it is made and frees what
 * only it used: its trees, its items, its facet's names and the facet in
 * the model. A model of one table of many facets is then never held
 * whole beside its design: before, every entity's tree and every item
 * stayed to the table's end (75 MiB at 10,000 facets), and the import's
 * CPU time grew faster than its instructions as that working set grew. */
static void settle_facet(const struct wb_table *w, json_t *design, struct facets *fs,
			 json_t *facets, size_t i, json_t *per, size_t mark)
{
	ddbc_import_wb_settle(w->run, design, w->settled, mark);
	json_array_set_new(per, i, json_null());
	facet_release(&fs->f[i]);
	json_array_set_new(facets, i, json_null());
}

static int facet_entities(const struct wb_table *w, json_t *facets, json_t *design)
{
	struct facets fs;
	json_t *per = json_array(), *per_ev = json_array();
	facets_init(&fs, w, facets, per, per_ev);
	size_t i, lost = 0;
	const json_t *item;
	int rc = 0;
	json_array_foreach(w->items, i, item) {
		json_t *tree = ddbc_import_wb_item_tree(item);
		int k = tree ? facet_of(&fs, tree) : -1;
		json_decref(tree);
		if (k < 0)
			lost++;
		else
			json_array_append(slot(per, (size_t)k), (json_t *)item);
	}
	/* Each item is its facet's now: it is freed with its entity. */
	json_array_clear(w->items);
	/* A malformed item's facet, from the names and keys it shows (one that
	 * fits none was said left out already). */
	json_array_foreach(w->evidence, i, item) {
		json_t *view = json_deep_copy(json_object_get(item, "ok"));
		json_object_update(view, json_object_get(item, "bad"));
		int k = facet_of(&fs, view);
		json_decref(view);
		if (k >= 0)
			json_array_append(slot(per_ev, (size_t)k), (json_t *)item);
	}
	for (i = 0; i < fs.n; i++) {
		const char *fname = fs.f[i].name;
		if (rc == 0 && !fname)
			rc = ddbc_import_fail(w->file, "a facet of table '%s' has no FacetName",
					      w->name);
		size_t mark = ddbc_import_comments_mark(w->run);
		json_t *examples = rc ? NULL : ddbc_import_wb_item_trees(json_array_get(per, i), false);
		if (rc == 0)
			rc = add_entity(w, design, fname, fs.f[i].names, fs.f[i].aliases, examples,
					json_array_get(per_ev, i));
		json_decref(examples);
		if (rc == 0 && w->settled)
			settle_facet(w, design, &fs, facets, i, per, mark);
	}
	if (rc == 0 && lost)
		ddbc_warning("import", "%s: %zu sample item%s of table '%s' fit no facet: "
			     "left out", w->file, lost, lost == 1 ? "" : "s", w->name);
	facets_release(&fs);
	json_decref(per);
	json_decref(per_ev);
	return rc;
}

int ddbc_import_wb_entities(const struct wb_table *w, json_t *design)
{
	/* The facets the reader kept as text, else the model's own. */
	const json_t *listed = json_object_get(w->model, "TableFacets");
	json_t *facets = ddbc_import_wb_take(w->run, listed);
	if (!facets)
		facets = json_incref((json_t *)listed);
	int rc = json_array_size(facets) ? facet_entities(w, facets, design) : 1;
	json_decref(facets);
	if (rc != 1)
		return rc;
	/* No facets: one entity holds the table's attributes and items. */
	json_t *names = json_array();
	const char *k;
	const json_t *v;
	json_object_foreach((json_t *)w->types, k, v)
		json_array_append_new(names, json_string(k));
	json_t *examples = ddbc_import_wb_item_trees(w->items, true);
	rc = add_entity(w, design, w->name, names, NULL, examples, w->evidence);
	if (rc == 0)
		ddbc_import_set_comment(w->run, json_object_get(design, "entities"), w->name,
					"one entity: the model has no facets");
	json_decref(names);
	json_decref(examples);
	return rc;
}
