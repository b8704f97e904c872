/* import_toolbox.c - designs from DynamoDB-Toolbox (v2) entities
 *
 * The JSON docs/import.md prints: {"dynamodb-toolbox": VERSION,
 * "entities": [DTO...]}, each DTO what Toolbox's own EntityDTO action
 * gives (entityName, schema with its attributes, timestamps, table with
 * its keys and indexes) and beside it `links`, the source of each
 * attribute's key link, and `computeKey`'s source. A key link or
 * computeKey that reads as a template (import_toolbox_link.c) becomes the
 * key attribute's template; a key attribute computed by other code is
 * refused by name. Toolbox's attributes are required unless `never`.
 */
#include "import/import_int.h"
#include "import/import_libs.h"
#include "import/import_toolbox.h"
#include "util/strbuf.h"

#include <string.h>

struct tb {
	ddbc_import_run *run;
	const char *file, *ename;
	const json_t *attributes;
	strbuf what;
	bool said;   /* a placeholder's problem was said */
};

static const char *str(const json_t *o, const char *k)
{
	return ddbc_import_string_value(json_object_get(o, k));
}

static const char *stored(const json_t *attributes, const char *name)
{
	const char *s = str(json_object_get(attributes, name), "savedAs");
	return s ? s : name;
}

static const char *scalar(const char *t)
{
	static const char *const map[][2] = {
		{ "string", "S" }, { "number", "N" }, { "boolean", "BOOL" }, { "binary", "B" },
		{ "map", "M" }, { "record", "M" }, { "list", "L" }, { "tuple", "L" },
		{ "null", "NULL" },
	};
	for (size_t i = 0; t && i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(t, map[i][0]))
			return map[i][1];
	return NULL;
}

static const char *attr_type(const json_t *a, const char **note)
{
	const char *t = str(a, "type");
	*note = NULL;
	if (t && !strcmp(t, "set")) {
		const char *el = scalar(str(json_object_get(a, "elements"), "type"));
		return el && !strcmp(el, "N") ? "NS" : el && !strcmp(el, "B") ? "BS" : "SS";
	}
	const char *s = scalar(t);
	if (!s)
		*note = "read as a string: Toolbox's type says no more";
	return s ? s : "S";
}

static int name_of(void *ctx, const char *name, unsigned width, strbuf *out)
{
	struct tb *e = ctx;
	const json_t *a = json_object_get(e->attributes, name);
	if (!a) {
		e->said = true;
		return ddbc_import_fail(e->file, "%s: its link reads '%s', no attribute of the "
					"entity; declare it", ddbc_strbuf_str(&e->what), name);
	}
	const char *s = stored(e->attributes, name);
	const char *t = str(a, "type");
	if (strchr(s, '{') || strchr(s, '}') || strchr(s, ':') ||
	    (width && (!t || strcmp(t, "number")))) {
		e->said = true;
		return ddbc_import_fail(e->file, "%s: attribute '%s' %s; change the link",
					ddbc_strbuf_str(&e->what), name, width ? "is padded, and ddbc pads "
					"numbers only" : "has a name ddbc cannot use in a template");
	}
	ddbc_strbuf_addf(out, width ? "{%s:0%u}" : "{%s}", s, width);
	return 0;
}

/* The first 60 characters of code, on one line, for a message. */
static void quoted(strbuf *sb, const char *src)
{
	size_t n = 0;
	for (const char *p = src; *p && n < 60; p++, n++)
		ddbc_strbuf_addch(sb, (unsigned char)*p < 0x20 || *p == 0x7f ? ' ' : *p);
	if (strlen(src) > 60)
		ddbc_strbuf_addstr(sb, "...");
}

static int cannot(struct tb *e, const char *src)
{
	if (e->said)
		return -1;
	strbuf q = STRBUF_INIT;
	quoted(&q, src);
	ddbc_import_fail(e->file, "%s: its value is computed by code ddbc cannot read as a "
			 "template ('%s'); link it as a sum of strings and attributes, or "
			 "declare the key in ddbc", ddbc_strbuf_str(&e->what), ddbc_strbuf_str(&q));
	ddbc_strbuf_release(&q);
	return -1;
}

/* Whether name is a key attribute of the table itself (not of an index):
 * what identifies an item must be a template ddbc can build. */
static bool table_key(const json_t *t, const char *name)
{
	const char *pk = str(json_object_get(t, "partitionKey"), "name");
	const char *sk = str(json_object_get(t, "sortKey"), "name");
	return (pk && !strcmp(pk, name)) || (sk && !strcmp(sk, name));
}

/* An index's key names: one (`partitionKey`) as a string, several
 * (Toolbox's multi-attribute `partitionKeys`) as a list; NULL for none. */
static json_t *key_names(const json_t *ix, const char *one, const char *many)
{
	const char *n = str(json_object_get(ix, one), "name");
	if (n)
		return json_string(n);
	const json_t *list = json_object_get(ix, many);
	if (!json_array_size(list))
		return NULL;
	json_t *names = json_array();
	size_t i;
	const json_t *k;
	json_array_foreach(list, i, k) {
		const char *kn = str(k, "name");
		if (!kn) {
			json_decref(names);
			return NULL;
		}
		json_array_append_new(names, json_string(kn));
	}
	if (json_array_size(names) == 1) {
		json_t *only = json_incref(json_array_get(names, 0));
		json_decref(names);
		return only;
	}
	return names;
}

/* The table of the entity's DTO. */
static int table_of(struct tb *e, const json_t *t, json_t **out, const char **name)
{
	*name = str(t, "tableName");
	const char *pk = str(json_object_get(t, "partitionKey"), "name");
	if (!pk)
		return ddbc_import_fail(e->file, "entity '%s': its table has no partitionKey name; "
					"print it as docs/import.md shows", e->ename);
	json_t *x = json_pack("{ss}", "partition_key", pk);
	const char *sk = str(json_object_get(t, "sortKey"), "name");
	if (sk)
		json_object_set_new(x, "sort_key", json_string(sk));
	const char *k;
	const json_t *ix;
	json_object_foreach(json_object_get(t, "indexes"), k, ix) {
		const char *type = str(ix, "type");
		bool local = type && !strcmp(type, "local");
		json_t *ipk = key_names(ix, "partitionKey", "partitionKeys");
		json_t *isk = key_names(ix, "sortKey", "sortKeys");
		if ((!local && !ipk) || (local && !isk)) {
			json_decref(ipk);
			json_decref(isk);
			json_decref(x);
			return ddbc_import_fail(e->file, "entity '%s': index '%s' of its table names "
						"no key; give its partitionKey", e->ename, k);
		}
		json_t *i = json_object();
		if (!local)
			json_object_set_new(i, "partition_key", ipk);
		else
			json_decref(ipk);
		if (isk)
			json_object_set_new(i, "sort_key", isk);
		json_object_set_new(i, "projection", json_string("all"));
		const char *g = local ? "lsi" : "gsi";
		if (!json_object_get(x, g))
			json_object_set_new(x, g, json_object());
		json_object_set_new(json_object_get(x, g), k, i);
	}
	*out = x;
	return 0;
}

/* The type of key attribute name of the table (string, number, binary). */
static const char *key_type(const json_t *t, const char *name)
{
	const json_t *keys[] = { json_object_get(t, "partitionKey"), json_object_get(t, "sortKey") };
	for (size_t i = 0; i < 2; i++)
		if (str(keys[i], "name") && !strcmp(str(keys[i], "name"), name))
			return scalar(str(keys[i], "type"));
	const char *k;
	const json_t *ix;
	json_object_foreach(json_object_get(t, "indexes"), k, ix)
		for (size_t i = 0; i < 4; i++) {
			static const char *const ks[] = { "partitionKey", "sortKey", "partitionKeys",
							  "sortKeys" };
			const json_t *key = json_object_get(ix, ks[i]);
			size_t j;
			const json_t *one;
			if (i < 2 && str(key, "name") && !strcmp(str(key, "name"), name))
				return scalar(str(key, "type"));
			json_array_foreach(i >= 2 ? key : NULL, j, one)
				if (str(one, "name") && !strcmp(str(one, "name"), name))
					return scalar(str(one, "type"));
		}
	return NULL;
}

static void timestamps(ddbc_import_run *run, const json_t *ts, json_t *attrs)
{
	if (!json_is_true(ts) && !json_is_object(ts))
		return;
	static const char *const which[][2] = { { "created", "_ct" }, { "modified", "_md" } };
	for (size_t i = 0; i < 2; i++) {
		const json_t *o = json_object_get(ts, which[i][0]);
		if (json_is_false(o))
			continue;
		const char *n = str(o, "savedAs");
		json_t *a = json_pack("{ss sb}", "type", "S", "required", 1);
		ddbc_import_set_comment(run, a, "type",
					"Toolbox writes it (timestamps): an ISO 8601 string");
		json_object_set_new(attrs, n ? n : which[i][1], a);
	}
}

/* An attribute Toolbox transforms as it saves it. Its `prefix`
 * transformer (PREFIX#value) on a key saved under another name is a
 * template of a part no item stores under the attribute's own name
 * (pokemonId, saved as pk: POKEMON#{pokemonId}); on any other
 * attribute it is marked. A key any other transformer computes is
 * refused by name. */
static int transformed(struct tb *e, const char *n, const char *name, const json_t *a,
		       const json_t *tr, json_t *x, json_t *attrs)
{
	const char *id = str(tr, "transformerId"), *prefix = str(tr, "prefix");
	const char *delim = str(tr, "delimiter");
	bool key = json_is_true(json_object_get(a, "key"));
	bool is_prefix = id && !strcmp(id, "prefix") && prefix;
	if (!key) {
		ddbc_import_set_comment(e->run, x, "type",
					"Toolbox transforms it as it saves it (%s)",
					id ? id : "custom");
		return 0;
	}
	if (!is_prefix || !strcmp(n, name) || strchr(n, '{') || strchr(n, '}') ||
	    strchr(n, ':') || strcmp(str(a, "type") ? str(a, "type") : "", "string"))
		return ddbc_import_fail(e->file, "%s: a key Toolbox saves through %s ddbc cannot "
					"hold as a template%s; link the key instead", ddbc_strbuf_str(&e->what),
					is_prefix ? "a prefix transformer" : "a transformer",
					is_prefix ? " unless it is saved under another name (savedAs)"
					: "");
	strbuf t = STRBUF_INIT;
	ddbc_import_literal(&t, prefix, strlen(prefix));
	delim = delim ? delim : "#";
	ddbc_import_literal(&t, delim, strlen(delim));
	ddbc_strbuf_addf(&t, "{%s}", n);
	json_object_set_new(x, "type", json_string("S"));
	json_object_del(x, "required");
	json_object_set_new(x, "template", json_string(ddbc_strbuf_str(&t)));
	ddbc_strbuf_release(&t);
	json_t *part = json_pack("{ss sb}", "type", "S", "stored", 0);
	ddbc_import_set_comment(e->run, part, "stored",
				"only inside %s: Toolbox saves it prefixed there",
				name);
	json_object_set_new(attrs, n, part);
	return 0;
}

static int attributes(struct tb *e, const json_t *t, const json_t *links, json_t *keys,
		      json_t *attrs)
{
	const char *n;
	const json_t *a;
	json_object_foreach((json_t *)e->attributes, n, a) {
		if (!json_is_object(a))
			return ddbc_import_fail(e->file, "entity '%s' attribute '%s' is no object",
						e->ename, n);
		const char *note;
		const char *name = stored(e->attributes, n);
		json_t *x = json_pack("{ss}", "type", attr_type(a, &note));
		json_object_set_new(attrs, name, x);
		if (note)
			ddbc_import_set_comment(e->run, x, "type", "%s", note);
		const char *req = str(a, "required");
		if (!req || strcmp(req, "never"))
			json_object_set_new(x, "required", json_true());
		json_t *en = ddbc_import_lib_enum(json_object_get(a, "enum"));
		if (en)
			json_object_set_new(x, "enum", en);
		const char *src = str(links, n);
		const char *tpl = str(keys, name);
		ddbc_strbuf_reset(&e->what);
		ddbc_strbuf_addf(&e->what, "entity '%s' attribute '%s'", e->ename, n);
		const json_t *tr = json_object_get(a, "transform");
		if (tr && transformed(e, n, name, a, tr, x, attrs) < 0)
			return -1;
		if (tr)
			continue;
		if (!src && !tpl && json_is_true(json_object_get(a, "hidden")) &&
		    json_is_true(json_object_get(a, "key")))
			return ddbc_import_fail(e->file, "%s: a key computed by code the JSON does "
						"not hold; print the entity's links as "
						"docs/import.md shows", ddbc_strbuf_str(&e->what));
		if (!src && !tpl)
			continue;
		strbuf out = STRBUF_INIT;
		tb_link_how how = { name_of, e };
		bool sparse = false;
		if (!tpl && ddbc_import_tb_link(&how, src, &out, &sparse) < 0) {
			ddbc_strbuf_release(&out);
			if (e->said || table_key(t, name))
				return cannot(e, src);
			/* a value the item stores, computed as it is written */
			ddbc_import_set_comment(e->run, x, "type",
						"computed by a link that is no template");
			continue;
		}
		json_object_set_new(x, "type", json_string("S"));
		/* a key: the template says it is there, unless the link leaves it out */
		json_object_del(x, "required");
		if (sparse)
			json_object_set_new(x, "required", json_false());
		json_object_set_new(x, "template", json_string(tpl ? tpl : ddbc_strbuf_str(&out)));
		ddbc_strbuf_release(&out);
	}
	return 0;
}

static int entity(ddbc_import_run *run, const char *file, const json_t *d, size_t n, json_t *design)
{
	struct tb e = { .run = run, .file = file, .ename = str(d,
							       "entityName"), .what = STRBUF_INIT };
	const json_t *schema = json_object_get(d, "schema"), *t = json_object_get(d, "table");
	e.attributes = json_object_get(schema, "attributes");
	if (!e.ename || !json_is_object(e.attributes) || !json_is_object(t))
		return ddbc_import_fail(file, "entity %zu: no DynamoDB-Toolbox entity (entityName, "
					"schema.attributes and table, as EntityDTO gives them); "
					"print it as docs/import.md shows", n + 1);
	json_t *entities = json_object_get(design, "entities");
	if (json_object_get(entities, e.ename))
		return ddbc_import_fail(file, "entity '%s' is defined twice; rename one", e.ename);
	json_t *table = NULL, *attrs = json_object(), *keys = json_object();
	const char *tname;
	int rc = table_of(&e, t, &table, &tname);
	const char *compute = str(d, "computeKey");
	if (rc == 0 && compute) {
		ddbc_strbuf_addf(&e.what, "entity '%s' computeKey", e.ename);
		tb_link_how how = { name_of, &e };
		if (ddbc_import_tb_compute(&how, compute, keys) < 0)
			rc = cannot(&e, compute);
	}
	if (rc == 0)
		rc = attributes(&e, t, json_object_get(d, "links"), keys, attrs);
	/* computeKey's keys that no attribute declares */
	const char *k;
	json_t *v;
	json_object_foreach(keys, k, v)
		if (rc == 0 && !json_object_get(attrs, k))
			json_object_set_new(attrs, k, json_pack("{ss sO}", "type", "S", "template", v));
	/* the table's keys each entity holds as they are: typed by the table */
	json_object_foreach(attrs, k, v) {
		const char *kt = key_type(t, k);
		if (kt && !json_object_get(v, "template"))
			json_object_set_new(v, "type", json_string(kt));
	}
	if (rc == 0)
		timestamps(run, json_object_get(d, "timestamps"), attrs);
	ddbc_strbuf_release(&e.what);
	json_decref(keys);
	if (rc < 0) {
		json_decref(attrs);
		json_decref(table);
		return -1;
	}
	const char *tn = tname ? tname : e.ename;
	json_object_set_new(entities, e.ename, json_pack("{ss so}", "table", tn, "attributes", attrs));
	return ddbc_import_lib_table(file, design, tn, table);
}

int ddbc_import_toolbox(ddbc_import_run *run, const char *file, const json_t *root,
			json_t *design)
{
	return ddbc_import_lib_entities(run, file, root, "dynamodb-toolbox", "DynamoDB-Toolbox",
					"2",
					"no DynamoDB-Toolbox entities: give the list docs/import.md prints", entity, design);
}
