/* import_electrodb.c - designs from ElectroDB entities
 *
 * The JSON docs/import.md prints: {"electrodb": VERSION, "entities":
 * [SCHEMA...]}, each SCHEMA the object the Entity was made of (`model`
 * {entity, service, version}, `attributes`, `indexes`) and its `table`;
 * a bare schema or a list of them is read too. A key is ElectroDB's:
 * its `template` with ${attr} placeholders, the attribute itself when the
 * key's field is its one composite attribute, otherwise ElectroDB's own
 * format: the partition key `$service#attr_value...` (`$service$entity_V`
 * first when the index has no sort key), the sort key
 * `$[collection#]entity_V#attr_value...`, an attribute's `label` for its
 * name. `casing` (default lower case) applies to literals exactly; the
 * values it changes too are marked by a comment. An index whose partition
 * key is the table's is an LSI (marked); any other is a GSI.
 */
#include "import/import_int.h"
#include "import/import_libs.h"
#include "util/strbuf.h"

#include <ctype.h>
#include <string.h>

struct edb {
	ddbc_import_run *run;
	const char *file, *ename;
	const json_t *attributes;
	strbuf what;
	int casing;   /* 0 none, 1 lower, 2 upper */
	bool cased_value;   /* a string value the casing changes */
};

static const char *str(const json_t *o, const char *k)
{
	return ddbc_import_string_value(json_object_get(o, k));
}

/* The stored name of attribute name (its `field`). */
static const char *stored(const json_t *attributes, const char *name)
{
	const json_t *a = json_object_get(attributes, name);
	const char *f = str(a, "field");
	return f ? f : name;
}

static void cased(const struct edb *e, strbuf *out, const char *s, size_t n)
{
	strbuf tmp = STRBUF_INIT;
	for (size_t i = 0; i < n; i++)
		ddbc_strbuf_addch(&tmp, e->casing == 1 ? (char)tolower((unsigned char)s[i])
				   : e->casing == 2 ? (char)toupper((unsigned char)s[i]) : s[i]);
	ddbc_import_literal(out, tmp.buf ? tmp.buf : "", tmp.len);
	ddbc_strbuf_release(&tmp);
}

/* Whether the casing can change a value of attribute a. */
static bool casing_changes(const struct edb *e, const json_t *a)
{
	if (!e->casing)
		return false;
	const json_t *t = json_object_get(a, "type");
	if (json_is_array(t)) {
		size_t i;
		const json_t *v;
		json_array_foreach(t, i, v) {
			const char *s = ddbc_import_string_value(v);
			for (; s && *s; s++)
				if (e->casing == 1 ? isupper((unsigned char)*s) : islower((unsigned char)*s))
					return true;
		}
		return false;
	}
	const char *ts = ddbc_import_string_value(t);
	return !ts || strcmp(ts, "number");
}

static int name_of(void *ctx, const char *name, unsigned width, strbuf *out)
{
	struct edb *e = ctx;
	(void)width;
	const json_t *a = json_object_get(e->attributes, name);
	if (!a)
		return ddbc_import_fail(e->file, "%s: '%s' names no attribute of the entity; "
					"declare it", ddbc_strbuf_str(&e->what), name);
	const char *s = stored(e->attributes, name);
	if (strchr(s, '{') || strchr(s, '}') || strchr(s, ':'))
		return ddbc_import_fail(e->file, "%s: attribute '%s' has a name ddbc cannot use "
					"in a template; rename it", ddbc_strbuf_str(&e->what), s);
	const json_t *pad = json_object_get(a, "padding");
	if (pad) {
		const char *ch = str(pad, "char");
		json_int_t len = json_integer_value(json_object_get(pad, "length"));
		if (!ch || strcmp(ch, "0") || len < 1 || len > 64 ||
		    strcmp(str(a, "type") ? str(a, "type") : "", "number"))
			return ddbc_import_fail(e->file, "%s: attribute '%s' is padded, and ddbc "
						"pads only numbers with \"0\"; drop the padding",
						ddbc_strbuf_str(&e->what), name);
		ddbc_strbuf_addf(out, "{%s:0%d}", s, (int)len);
	} else {
		ddbc_strbuf_addf(out, "{%s}", s);
	}
	e->cased_value |= casing_changes(e, a);
	return 0;
}

static int casing_of(struct edb *e, const json_t *key)
{
	const char *c = str(key, "casing");
	if (!c || !strcmp(c, "default") || !strcmp(c, "lower"))
		e->casing = 1;
	else if (!strcmp(c, "upper"))
		e->casing = 2;
	else if (!strcmp(c, "none"))
		e->casing = 0;
	else
		return ddbc_import_fail(e->file, "%s: unknown casing '%s'; ElectroDB's are "
					"default, lower, upper and none", ddbc_strbuf_str(&e->what), c);
	return 0;
}

/* The composite attribute names of key (a list of strings). */
static int composites(struct edb *e, const json_t *key, const json_t **list)
{
	*list = json_object_get(key, "composite");
	if (!*list)
		*list = json_object_get(key, "facets");   /* ElectroDB 1's word */
	if (!json_is_array(*list))
		return ddbc_import_fail(e->file, "%s: `composite` is no list of attribute names",
					ddbc_strbuf_str(&e->what));
	size_t i;
	const json_t *c;
	json_array_foreach(*list, i, c)
		if (!ddbc_import_string_value(c) ||
		    !json_object_get(e->attributes, ddbc_import_string_value(c)))
			return ddbc_import_fail(e->file, "%s: composite '%s' names no attribute of "
						"the entity; declare it", ddbc_strbuf_str(&e->what),
						ddbc_import_string_value(c) ?
						ddbc_import_string_value(c) : "(no string)");
	return 0;
}

/* ElectroDB's own key format: prefix, then #label_value per composite. */
static int default_key(struct edb *e, const char *prefix, const json_t *list, strbuf *out)
{
	cased(e, out, prefix, strlen(prefix));
	size_t i;
	const json_t *c;
	json_array_foreach(list, i, c) {
		const char *n = ddbc_import_string_value(c);
		const char *label = str(json_object_get(e->attributes, n), "label");
		strbuf lit = STRBUF_INIT;
		ddbc_strbuf_addf(&lit, "#%s_", label ? label : n);
		cased(e, out, lit.buf, lit.len);
		ddbc_strbuf_release(&lit);
		if (name_of(e, n, 0, out) < 0)
			return -1;
	}
	return 0;
}

/* Declares key attribute field of the entity (role "pk"/"sk" of index
 * iname) in attrs; prefix is ElectroDB's for a key without template. */
static int key(struct edb *e, const char *iname, const char *role, const json_t *k,
	       const char *prefix, json_t *attrs, const char **field_out)
{
	ddbc_strbuf_reset(&e->what);
	ddbc_strbuf_addf(&e->what, "entity '%s' index '%s' %s", e->ename, iname, role);
	const char *field = str(k, "field");
	const json_t *list;
	if (!field)
		return ddbc_import_fail(e->file, "%s has no `field`; name its attribute",
					ddbc_strbuf_str(&e->what));
	*field_out = field;
	if (composites(e, k, &list) < 0 || casing_of(e, k) < 0)
		return -1;
	e->cased_value = false;
	const char *tpl = str(k, "template");
	const char *only = json_array_size(list) == 1 ?
			   ddbc_import_string_value(json_array_get(list, 0)) : NULL;
	if (!tpl && only && !strcmp(stored(e->attributes, only), field)) {
		/* The key is the attribute itself. */
		json_t *a = json_object_get(attrs, field);
		if (casing_changes(e, json_object_get(e->attributes, only)) && a)
			ddbc_import_set_comment(e->run, a, "type",
						"ElectroDB writes this key %s-cased "
						"(casing '%s')", e->casing == 1 ? "lower" : "upper",
						str(k, "casing") ? str(k, "casing") : "default");
		return 0;
	}
	if (json_object_get(e->attributes, field) && strcmp(stored(e->attributes, field), field) == 0)
		return ddbc_import_fail(e->file, "%s: its field '%s' is also an attribute that the "
					"key does not simply hold; give the key a field of its own",
					ddbc_strbuf_str(&e->what), field);
	strbuf out = STRBUF_INIT;
	int rc;
	if (tpl) {
		lib_braced_how how = { e->file, ddbc_strbuf_str(&e->what), false, name_of, e };
		strbuf lit = STRBUF_INIT;
		/* The casing applies to the template's literals too. */
		rc = ddbc_import_braced(&how, tpl, &lit);
		if (rc == 0 && e->casing) {
			for (size_t i = 0; i < lit.len; i++)
				if (lit.buf[i] == '{' && lit.buf[i + 1] != '{') {
					size_t j = i;
					while (lit.buf[j] != '}')
						j++;
					ddbc_strbuf_add(&out, lit.buf + i, j - i + 1);
					i = j;
				} else {
					char ch = lit.buf[i];
					ddbc_strbuf_addch(&out, e->casing == 1 ? (char)tolower((unsigned char)ch)
						     : (char)toupper((unsigned char)ch));
					if (ch == '{' || ch == '}')
						ddbc_strbuf_addch(&out, lit.buf[++i]);
				}
		} else if (rc == 0) {
			ddbc_strbuf_add(&out, lit.buf ? lit.buf : "", lit.len);
		}
		ddbc_strbuf_release(&lit);
	} else {
		rc = default_key(e, prefix, list, &out);
	}
	if (rc == 0) {
		json_t *a = json_pack("{ss ss}", "type", "S", "template", ddbc_strbuf_str(&out));
		json_object_set_new(attrs, field, a);
		if (e->cased_value)
			ddbc_import_set_comment(e->run, a, "template",
						"ElectroDB writes this key %s-cased "
						"(casing '%s'), the values in it too, "
						"which a template cannot say",
						e->casing == 1 ? "lower" : "upper",
						str(k, "casing") ? str(k, "casing") : "default");
	}
	ddbc_strbuf_release(&out);
	return rc;
}

static const char *attr_type(const json_t *a, const char **note)
{
	const json_t *t = json_object_get(a, "type");
	*note = NULL;
	if (json_is_array(t)) {
		const json_t *first = json_array_get(t, 0);
		return first && !ddbc_import_is_string(first) ? "N" : "S";
	}
	const char *s = ddbc_import_string_value(t);
	static const char *const map[][2] = {
		{ "string", "S" }, { "number", "N" }, { "boolean", "BOOL" }, { "map", "M" },
		{ "list", "L" },
	};
	for (size_t i = 0; s && i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(s, map[i][0]))
			return map[i][1];
	if (s && !strcmp(s, "set")) {
		const char *items = str(a, "items");
		if (items && !strcmp(items, "number"))
			return "NS";
		if (!items || strcmp(items, "string"))
			*note = "a set of other items read as a set of strings";
		return "SS";
	}
	*note = "read as a string: ElectroDB's type says no more";
	return "S";
}

static int attributes(struct edb *e, json_t *attrs)
{
	const char *n;
	const json_t *a;
	json_object_foreach((json_t *)e->attributes, n, a) {
		if (!json_is_object(a))
			return ddbc_import_fail(e->file, "entity '%s' attribute '%s' is no object; "
						"give it as {\"type\": ...}", e->ename, n);
		const char *note;
		json_t *x = json_pack("{ss}", "type", attr_type(a, &note));
		if (note)
			ddbc_import_set_comment(e->run, x, "type", "%s", note);
		if (json_is_true(json_object_get(a, "required")))
			json_object_set_new(x, "required", json_true());
		json_t *en = ddbc_import_lib_enum(json_object_get(a, "type"));
		if (en)
			json_object_set_new(x, "enum", en);
		json_object_set_new(attrs, stored(e->attributes, n), x);
	}
	return 0;
}

/* An index of ElectroDB 3's type "composite": its keys the attributes. */
static void multi_keys(struct edb *e, const json_t *ix, json_t *x)
{
	static const char *const roles[][2] = { { "pk", "partition_key" }, { "sk", "sort_key" } };
	for (size_t r = 0; r < 2; r++) {
		const json_t *list = json_object_get(json_object_get(ix, roles[r][0]), "composite");
		if (!json_array_size(list))
			continue;
		json_t *names = json_array();
		size_t i;
		const json_t *c;
		json_array_foreach(list, i, c)
			json_array_append_new(names, json_string(stored(e->attributes,
									ddbc_import_string_value(c))));
		json_object_set_new(x, roles[r][1], json_array_size(names) == 1 ?
				    json_incref(json_array_get(names, 0)) : json_incref(names));
		json_decref(names);
	}
}

/* An index's collection as its sort keys begin with it: "name#", or each
 * of a list of sub-collections followed by '#'. */
static int collection(struct edb *e, const json_t *c, strbuf *out)
{
	if (!c)
		return 0;
	if (ddbc_import_is_string(c)) {
		ddbc_strbuf_addf(out, "%s#", ddbc_import_string_value(c));
		return 0;
	}
	size_t i;
	const json_t *v;
	json_array_foreach(c, i, v) {
		if (!ddbc_import_is_string(v))
			break;
		ddbc_strbuf_addf(out, "%s#", ddbc_import_string_value(v));
	}
	if (json_is_array(c) && i == json_array_size(c))
		return 0;
	return ddbc_import_fail(e->file, "%s: `collection` is no name or list of names",
				ddbc_strbuf_str(&e->what));
}

static int one_index(struct edb *e, const json_t *model, const char *iname, const json_t *ix,
		     json_t *table, json_t *attrs)
{
	const char *index = str(ix, "index"), *type = str(ix, "type");
	ddbc_strbuf_reset(&e->what);
	ddbc_strbuf_addf(&e->what, "entity '%s' index '%s'", e->ename, iname);
	if (json_object_get(ix, "scope") || (type && strcmp(type, "isolated") &&
					     strcmp(type, "composite")))
		return ddbc_import_fail(e->file, "%s: %s is not read (ddbc holds ElectroDB's "
					"isolated and composite indexes); use another index",
					ddbc_strbuf_str(&e->what), json_object_get(ix, "scope") ?
					"`scope`" : "its type");
	const json_t *pk = json_object_get(ix, "pk"), *sk = json_object_get(ix, "sk");
	if (!json_is_object(pk) || (sk && !json_is_object(sk)))
		return ddbc_import_fail(e->file, "%s has no `pk` object; give its partition key",
					ddbc_strbuf_str(&e->what));
	if (type && !strcmp(type, "composite")) {
		json_t *x = json_pack("{ss}", "projection", "all");
		json_t *group = json_object_get(table, "gsi");
		if (!index || !group) {
			json_decref(x);
			return ddbc_import_fail(e->file, "%s: a composite index is a GSI and needs "
						"`index`", ddbc_strbuf_str(&e->what));
		}
		for (size_t r = 0; r < 2; r++) {
			const json_t *list;
			const json_t *k = r ? sk : pk;
			if (k && composites(e, k, &list) < 0) {
				json_decref(x);
				return -1;
			}
		}
		multi_keys(e, ix, x);
		json_object_set_new(group, index, x);
		return 0;
	}
	const char *service = str(model, "service"), *entity = str(model, "entity");
	const char *version = str(model, "version");
	strbuf pre = STRBUF_INIT, coll = STRBUF_INIT;
	if (collection(e, json_object_get(ix, "collection"), &coll) < 0)
		return -1;
	ddbc_strbuf_addf(&pre, "$%s", service);
	if (!sk)
		ddbc_strbuf_addf(&pre, "$%s_%s", entity, version ? version : "1");
	const char *pkf, *skf = NULL;
	int rc = key(e, iname, "pk", pk, ddbc_strbuf_str(&pre), attrs, &pkf);
	ddbc_strbuf_reset(&pre);
	ddbc_strbuf_addf(&pre, "$%s%s_%s", ddbc_strbuf_str(&coll), entity, version ? version : "1");
	if (rc == 0 && sk)
		rc = key(e, iname, "sk", sk, ddbc_strbuf_str(&pre), attrs, &skf);
	ddbc_strbuf_release(&pre);
	ddbc_strbuf_release(&coll);
	if (rc < 0)
		return -1;
	if (!index) {
		json_object_set_new(table, "partition_key", json_string(pkf));
		if (skf)
			json_object_set_new(table, "sort_key", json_string(skf));
		return 0;
	}
	const char *tpk = str(table, "partition_key");
	bool lsi = tpk && !strcmp(tpk, pkf) && skf;
	json_t *x = json_object();
	if (!lsi)
		json_object_set_new(x, "partition_key", json_string(pkf));
	if (skf)
		json_object_set_new(x, "sort_key", json_string(skf));
	json_object_set_new(x, "projection", json_string("all"));
	json_object_set_new(json_object_get(table, lsi ? "lsi" : "gsi"), index, x);
	if (lsi)
		ddbc_import_set_comment(e->run, json_object_get(table, "lsi"), index,
					"an LSI: its partition key is the table's");
	return 0;
}

static int entity(ddbc_import_run *run, const char *file, const json_t *s, size_t n, json_t *design)
{
	const json_t *model = json_object_get(s, "model");
	if (!json_is_object(model))
		return ddbc_import_fail(file, "entity %zu: no `model` object: ElectroDB 0's models "
					"(service and entity at the top) are not read; print the "
					"schema of ElectroDB 1 or later", n + 1);
	struct edb e = { .run = run, .file = file, .ename = str(model, "entity"),
			 .attributes = json_object_get(s, "attributes"), .what = STRBUF_INIT };
	const char *service = str(model, "service");
	const json_t *indexes = json_object_get(s, "indexes");
	if (!e.ename || !service || !json_is_object(e.attributes) || !json_is_object(indexes))
		return ddbc_import_fail(file, "entity %zu: no ElectroDB schema (model.entity, "
					"model.service, attributes and indexes); print it as "
					"docs/import.md shows", n + 1);
	json_t *entities = json_object_get(design, "entities");
	if (json_object_get(entities, e.ename))
		return ddbc_import_fail(file, "entity '%s' is defined twice; rename one", e.ename);
	const char *tname = str(s, "table");
	json_t *attrs = json_object();
	json_t *table = json_pack("{s{} s{}}", "gsi", "lsi");
	int rc = attributes(&e, attrs);
	/* The table's key first: an index that shares its partition key is an LSI. */
	const char *iname;
	const json_t *ix;
	bool primary = false;
	json_object_foreach((json_t *)indexes, iname, ix)
		if (rc == 0 && json_is_object(ix) && !json_object_get(ix, "index")) {
			rc = one_index(&e, model, iname, ix, table, attrs);
			primary = true;
			break;
		}
	if (rc == 0 && !primary)
		rc = ddbc_import_fail(file, "entity '%s' has no index without `index`: the table's "
				      "key is missing", e.ename);
	json_object_foreach((json_t *)indexes, iname, ix)
		if (rc == 0 && json_object_get(ix, "index"))
			rc = one_index(&e, model, iname, ix, table, attrs);
	ddbc_strbuf_release(&e.what);
	if (rc < 0) {
		json_decref(attrs);
		json_decref(table);
		return -1;
	}
	/* the table's keys first, then its indexes, as a design writes them */
	json_t *ordered = json_object();
	static const char *const members[] = { "partition_key", "sort_key", "gsi", "lsi" };
	for (size_t i = 0; i < 4; i++) {
		json_t *v = json_object_get(table, members[i]);
		if (v && (i < 2 || json_object_size(v)))
			json_object_set(ordered, members[i], v);
	}
	json_decref(table);
	table = ordered;
	json_object_set_new(entities, e.ename, json_pack("{ss so}", "table", tname ? tname : service,
						     "attributes", attrs));
	return ddbc_import_lib_table(file, design, tname ? tname : service, table);
}

int ddbc_import_electrodb(ddbc_import_run *run, const char *file, const json_t *root,
			  json_t *design)
{
	return ddbc_import_lib_entities(run, file, root, "electrodb", "ElectroDB", "1,2,3",
					"no ElectroDB entities: give a schema object or a list of them, as docs/import.md prints", entity, design);
}
