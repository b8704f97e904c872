/* import_onetable.c - designs from a OneTable schema
 *
 * The schema JSON as OneTable's Table takes it: `format` (onetable:1.0.0
 * or 1.1.0), `indexes` (the table key as `primary`, GSIs, LSIs of type
 * `local`, each with `project`), `models` (one per entity: fields with
 * `type`, `required`, `enum`, and `value` templates, ${field} and
 * ${field:WIDTH:0}), `params`. The JSON of a schema written in code
 * (`type: String`) is the one docs/import.md prints. A schema names no
 * table: the file does (`Orders.json` is table Orders); an object of
 * schemas by table name (what `export --format onetable` writes for a
 * design of several tables) gives each its table. ${_type} (params'
 * typeField) is the model's name, a literal in each entity's template.
 */
#include "import/import_int.h"
#include "import/import_libs.h"
#include "util/strbuf.h"

#include <stdlib.h>
#include <string.h>

struct ot {
	ddbc_import_run *run;
	const char *file;
	const json_t *model;
	const char *model_name, *type_field;
	strbuf what;
};

/* The attribute type of a OneTable field type (its constructor's name
 * lower-cased, as the printed JSON gives it); NULL for an unknown one. */
static const char *field_type(const char *t, bool iso_dates, const char **note)
{
	static const char *const map[][2] = {
		{ "string", "S" }, { "number", "N" }, { "boolean", "BOOL" }, { "object", "M" },
		{ "array", "L" }, { "binary", "B" }, { "buffer", "B" }, { "arraybuffer", "B" },
	};
	*note = NULL;
	if (t && !strcmp(t, "date")) {
		*note = iso_dates ? "a Date: OneTable stores an ISO 8601 string (isoDates)"
				  : "a Date: OneTable stores epoch milliseconds";
		return iso_dates ? "S" : "N";
	}
	if (t && !strcmp(t, "set")) {
		*note = "a Set: read as a set of strings";
		return "SS";
	}
	for (size_t i = 0; t && i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(t, map[i][0]))
			return map[i][1];
	return NULL;
}

static int name_of(void *ctx, const char *name, unsigned width, strbuf *out)
{
	struct ot *o = ctx;
	if (!strcmp(name, o->type_field) && !json_object_get(o->model, name) && !width) {
		ddbc_import_literal(out, o->model_name, strlen(o->model_name));
		return 0;
	}
	const json_t *f = json_object_get(o->model, name);
	if (!json_is_object(f))
		return ddbc_import_fail(o->file, "%s: ${%s} names no field of the model; declare "
					"the field", ddbc_strbuf_str(&o->what), name);
	const char *map = ddbc_import_string_value(json_object_get(f, "map"));
	if (map && strchr(map, '.'))
		return ddbc_import_fail(o->file, "%s: ${%s} names a field packed into map '%s', "
					"which a ddbc template cannot read; name an attribute of "
					"its own", ddbc_strbuf_str(&o->what), name, map);
	if (map)
		name = map;   /* the attribute as it is stored */
	const char *t = ddbc_import_string_value(json_object_get(f, "type"));
	if (width && (!t || strcmp(t, "number")))
		return ddbc_import_fail(o->file, "%s: ${%s:%u:0} pads a field that is no number, "
					"and ddbc pads numbers only; change the template",
					ddbc_strbuf_str(&o->what), name, width);
	if (strchr(name, '{') || strchr(name, '}') || strchr(name, ':'))
		return ddbc_import_fail(o->file, "%s: ${%s} names a field ddbc cannot name in a "
					"template; rename the field", ddbc_strbuf_str(&o->what), name);
	ddbc_strbuf_addf(out, width ? "{%s:0%u}" : "{%s}", name, width);
	return 0;
}

/* A field OneTable packs into a map attribute (map: 'data.city'): the map
 * is the item's attribute, an M, the fields it holds named in a comment.
 * Whether map is such a one. */
static bool packed(struct ot *o, const char *name, const char *map, json_t *attrs)
{
	const char *dot = strchr(map, '.');
	if (!dot || dot == map)
		return false;
	strbuf top = STRBUF_INIT;
	ddbc_strbuf_add(&top, map, (size_t)(dot - map));
	json_t *a = json_object_get(attrs, ddbc_strbuf_str(&top));
	const char *was = a ? ddbc_import_comment(o->run, a, "type") : NULL;
	strbuf note = STRBUF_INIT;
	ddbc_strbuf_addf(&note, "%s%s%s", was ? was : "OneTable packs fields into it (map):", was ? ", " : " ",
		    name);
	if (!a) {
		a = json_pack("{ss}", "type", "M");
		json_object_set_new(attrs, ddbc_strbuf_str(&top), a);
	}
	ddbc_import_set_comment(o->run, a, "type", "%s", ddbc_strbuf_str(&note));
	(void)o;
	ddbc_strbuf_release(&top);
	ddbc_strbuf_release(&note);
	return true;
}

static int field(struct ot *o, const char *name, const json_t *f, bool iso, json_t *attrs)
{
	ddbc_strbuf_reset(&o->what);
	ddbc_strbuf_addf(&o->what, "model '%s' field '%s'", o->model_name, name);
	if (!json_is_object(f))
		return ddbc_import_fail(o->file, "%s is no object; give it as {\"type\": ...}",
					ddbc_strbuf_str(&o->what));
	const char *map = ddbc_import_string_value(json_object_get(f, "map"));
	if (map && packed(o, name, map, attrs))
		return 0;
	if (map && !*map)
		return ddbc_import_fail(o->file, "%s: `map` is empty; name the attribute",
					ddbc_strbuf_str(&o->what));
	if (map)
		name = map;   /* stored under this name */
	const char *st = ddbc_import_string_value(json_object_get(f, "type"));
	const char *note;
	const char *t = field_type(st, iso, &note);
	json_t *a = json_pack("{ss}", "type", t ? t : "S");
	json_object_set_new(attrs, name, a);
	if (!t)
		ddbc_import_set_comment(o->run, a, "type", "'%s' read as a string",
					st ? st : "no type");
	else if (note)
		ddbc_import_set_comment(o->run, a, "type", "%s", note);
	if (json_is_true(json_object_get(f, "required")))
		json_object_set_new(a, "required", json_true());
	json_t *en = ddbc_import_lib_enum(json_object_get(f, "enum"));
	if (en)
		json_object_set_new(a, "enum", en);
	const json_t *v = json_object_get(f, "value");
	if (!v || json_is_true(v))
		return 0;   /* true: a value the application's function computes */
	const char *tpl = ddbc_import_string_value(v);
	if (!tpl)
		return ddbc_import_fail(o->file, "%s: value is no template string; give it as "
					"a string like \"${_type}#${id}\"", ddbc_strbuf_str(&o->what));
	strbuf out = STRBUF_INIT;
	lib_braced_how how = { o->file, ddbc_strbuf_str(&o->what), true, name_of, o };
	int rc = ddbc_import_braced(&how, tpl, &out);
	if (rc == 0) {
		json_object_set_new(a, "type", json_string("S"));
		json_object_set_new(a, "template", json_string(ddbc_strbuf_str(&out)));
	}
	ddbc_strbuf_release(&out);
	return rc;
}

static json_t *projection(const json_t *p)
{
	const char *s = ddbc_import_string_value(p);
	if (!p || (s && !strcmp(s, "all")))
		return json_string("all");
	if (s && !strcmp(s, "keys"))
		return json_string("keys_only");
	if (!json_is_array(p))
		return NULL;
	size_t i;
	const json_t *v;
	json_array_foreach(p, i, v)
		if (!ddbc_import_is_string(v))
			return NULL;
	return json_deep_copy(p);
}

static int table_of(const char *file, const char *tname, const json_t *indexes, json_t **out)
{
	const json_t *primary = json_object_get(indexes, "primary");
	const char *hash = ddbc_import_string_value(json_object_get(primary, "hash"));
	if (!hash)
		return ddbc_import_fail(file, "table '%s': indexes.primary has no `hash` attribute; "
					"name the table's partition key", tname);
	json_t *t = json_pack("{ss}", "partition_key", hash);
	const char *sort = ddbc_import_string_value(json_object_get(primary, "sort"));
	if (sort)
		json_object_set_new(t, "sort_key", json_string(sort));
	const char *k;
	const json_t *ix;
	json_object_foreach((json_t *)indexes, k, ix) {
		if (!strcmp(k, "primary"))
			continue;
		const char *type = ddbc_import_string_value(json_object_get(ix, "type"));
		bool local = type && !strcmp(type, "local");
		const char *h = ddbc_import_string_value(json_object_get(ix, "hash"));
		const char *s = ddbc_import_string_value(json_object_get(ix, "sort"));
		json_t *p = projection(json_object_get(ix, "project"));
		if ((!local && !h) || (local && !s) || !p || (type && !local && strcmp(type, "global"))) {
			json_decref(p);
			json_decref(t);
			return ddbc_import_fail(file, "table '%s' index '%s': %s; give it as "
						"{\"hash\": ..., \"sort\": ..., \"project\": ...}", tname,
						k, !p ? "`project` is no 'all', 'keys' or list"
						: type && !local && strcmp(type, "global")
						? "its type is neither 'global' nor 'local'"
						: "it names no key attribute");
		}
		json_t *x = json_object();
		if (!local)
			json_object_set_new(x, "partition_key", json_string(h));
		if (s)
			json_object_set_new(x, "sort_key", json_string(s));
		json_object_set_new(x, "projection", p);
		const char *group = local ? "lsi" : "gsi";
		if (!json_object_get(t, group))
			json_object_set_new(t, group, json_object());
		json_object_set_new(json_object_get(t, group), k, x);
	}
	*out = t;
	return 0;
}

static int schema(ddbc_import_run *run, const char *file, const char *tname, const json_t *s,
		  json_t *design)
{
	const char *fmt = ddbc_import_string_value(json_object_get(s, "format"));
	if (json_object_get(s, "format") &&
	    (!fmt || (strcmp(fmt, "onetable:1.0.0") && strcmp(fmt, "onetable:1.1.0"))))
		return ddbc_import_fail(file, "table '%s': unknown OneTable schema format '%s'; "
					"ddbc reads onetable:1.0.0 and onetable:1.1.0", tname,
					fmt ? fmt : "(no string)");
	const json_t *indexes = json_object_get(s, "indexes"), *models = json_object_get(s, "models");
	if (!json_is_object(indexes) || !json_is_object(models))
		return ddbc_import_fail(file, "table '%s': no OneTable schema (it needs `indexes` "
					"and `models` objects); print it as docs/import.md shows",
					tname);
	const json_t *params = json_object_get(s, "params");
	bool iso = json_is_true(json_object_get(params, "isoDates"));
	const char *tf = ddbc_import_string_value(json_object_get(params, "typeField"));
	json_t *table = NULL;
	if (table_of(file, tname, indexes, &table) < 0)
		return -1;
	if (ddbc_import_lib_table(file, design, tname, table) < 0)
		return -1;
	json_t *entities = json_object_get(design, "entities");
	struct ot o = { .run = run, .file = file, .type_field = tf ? tf : "_type",
			.what = STRBUF_INIT };
	const char *mname;
	const json_t *m;
	int rc = 0;
	json_object_foreach((json_t *)models, mname, m) {
		if (json_object_get(entities, mname)) {
			rc = ddbc_import_fail(file, "model '%s' is in two tables; rename one", mname);
			break;
		}
		if (!json_is_object(m)) {
			rc = ddbc_import_fail(file, "model '%s' is no object of fields", mname);
			break;
		}
		json_t *attrs = json_object();
		json_object_set_new(entities, mname,
				    json_pack("{ss so}", "table", tname, "attributes", attrs));
		o.model = m;
		o.model_name = mname;
		const char *fname;
		const json_t *f;
		json_object_foreach((json_t *)m, fname, f)
			if ((rc = field(&o, fname, f, iso, attrs)) < 0)
				break;
		if (rc < 0)
			break;
	}
	ddbc_strbuf_release(&o.what);
	return rc;
}

/* A single schema's table is named as the file is. */
static char *file_table(const char *file)
{
	if (!strcmp(file, "-"))
		return strdup("table");
	const char *base = strrchr(file, '/');
	base = base ? base + 1 : file;
	size_t n = strcspn(base, ".");
	return strndup(base, n ? n : strlen(base));
}

int ddbc_import_onetable(ddbc_import_run *run, const char *file, const json_t *root,
			 json_t *design)
{
	if (!json_is_object(root))
		return ddbc_import_fail(file, "no OneTable schema: the file is no JSON object");
	if (json_object_get(root, "models") || json_object_get(root, "indexes")) {
		char *t = file_table(file);
		int rc = schema(run, file, t, root, design);
		free(t);
		return rc;
	}
	if (!json_object_size(root))
		return ddbc_import_fail(file, "no OneTable schema: the object is empty");
	const char *k;
	const json_t *s;
	json_object_foreach((json_t *)root, k, s)
		if (!json_is_object(s) || schema(run, file, k, s, design) < 0)
			return json_is_object(s) ? -1
			       : ddbc_import_fail(file, "no OneTable schema: '%s' is no schema "
						  "object", k);
	return 0;
}
