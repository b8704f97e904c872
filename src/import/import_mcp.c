/* import_mcp.c - designs from the DynamoDB MCP server's schema.json
 *
 * The schema lists tables (table_config, gsi_list) and, per table, its
 * entities: fields with loose types, pk_template / sk_template for the
 * table's keys, gsi_mappings for the indexes' keys, and access patterns.
 * Keys carry no type: a key is N only when its template is exactly one
 * integer or decimal field, S otherwise. A template that is just the key's
 * own name ("{deal_id}" for key deal_id) means the key is that field.
 */
#include "import/import_int.h"
#include "import/import_mcp.h"
#include "util/error.h"
#include "util/strbuf.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The attribute type of a schema field type; NULL for an unknown one. */
static const char *field_type(const char *t)
{
	static const char *const map[][2] = {
		{ "string", "S" }, { "integer", "N" }, { "decimal", "N" }, { "float", "N" },
		{ "number", "N" }, { "boolean", "BOOL" }, { "object", "M" }, { "map", "M" },
		{ "array", "L" }, { "list", "L" }, { "binary", "B" }, { "uuid", "S" },
	};
	for (size_t i = 0; t && i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(t, map[i][0]))
			return map[i][1];
	return NULL;
}

/* The field named by template t when t is exactly one placeholder. */
static const json_t *sole_field(const json_t *attrs, const char *t, strbuf *name)
{
	size_t n = t ? strlen(t) : 0;
	if (n < 3 || t[0] != '{' || t[n - 1] != '}' || strpbrk(t + 1, "{}") != t + n - 1)
		return NULL;
	ddbc_strbuf_reset(name);
	ddbc_strbuf_add(name, t + 1, n - 2);
	return json_object_get(attrs, ddbc_strbuf_str(name));
}

/* Declares key attribute key of an entity from its template tmpl. */
static void key_attr(ddbc_import_run *run, json_t *attrs, const char *key, const char *tmpl)
{
	if (!tmpl && json_object_get(attrs, key))
		return;  /* no template: the key is the field of its name */
	strbuf f = STRBUF_INIT;
	const json_t *field = sole_field(attrs, tmpl, &f);
	const char *ft = ddbc_import_string_value(json_object_get(field, "type"));
	if (field && !strcmp(ddbc_strbuf_str(&f), key)) {
		ddbc_strbuf_release(&f);  /* the key is the field itself */
		return;
	}
	json_t *a = json_object_get(attrs, key);
	if (!a) {
		a = json_object();
		json_object_set_new(attrs, key, a);
	}
	if (field && ft && !strcmp(ft, "N")) {
		json_object_set_new(a, "type", json_string("N"));
		ddbc_import_set_comment(run, a, "type", "the value of %s", ddbc_strbuf_str(&f));
	} else {
		json_object_set_new(a, "type", json_string("S"));
		if (tmpl)
			json_object_set_new(a, "template", json_string(tmpl));
	}
	ddbc_strbuf_release(&f);
}

static int fields(ddbc_import_run *run, const char *file, const char *ename, const json_t *list,
		  json_t *attrs)
{
	size_t i;
	const json_t *f;
	json_array_foreach(list, i, f) {
		const char *n = ddbc_import_string_value(json_object_get(f, "name"));
		const char *st = ddbc_import_string_value(json_object_get(f, "type"));
		const char *t = field_type(st);
		if (!n)
			return ddbc_import_fail(file, "field %zu of entity '%s' has no name", i + 1,
						ename);
		json_t *a = json_pack("{ss}", "type", t ? t : "S");
		if (!t)
			ddbc_import_set_comment(run, a, "type", "'%s' read as a string",
						st ? st : "");
		if (json_is_true(json_object_get(f, "required")))
			json_object_set_new(a, "required", json_true());
		json_object_set_new(attrs, n, a);
	}
	return 0;
}

/* The key names of k (a name, or a list of names for a multi-attribute key). */
static json_t *key_list(const json_t *k)
{
	if (ddbc_import_is_string(k))
		return json_pack("[O]", k);
	return json_is_array(k) ? json_incref((json_t *)k) : json_array();
}

/* Declares the keys of one index (or the table) for an entity: names k,
 * templates pk/sk given as a string or a list alike. */
static void index_keys(ddbc_import_run *run, json_t *attrs, const json_t *k, const json_t *tmpl)
{
	json_t *names = key_list(k), *ts = key_list(tmpl);
	size_t i;
	const json_t *n;
	json_array_foreach(names, i, n)
		key_attr(run, attrs, ddbc_import_string_value(n),
			 ddbc_import_string_value(json_array_get(ts, i)));
	json_decref(names);
	json_decref(ts);
}


static json_t *gsis(const json_t *list)
{
	json_t *out = json_object();
	size_t i;
	const json_t *g;
	json_array_foreach(list, i, g) {
		const char *name = ddbc_import_string_value(json_object_get(g, "name"));
		const char *proj = ddbc_import_string_value(json_object_get(g, "projection"));
		if (!name)
			continue;
		json_t *x = json_object();
		json_object_set(x, "partition_key", json_object_get(g, "partition_key"));
		if (json_object_get(g, "sort_key"))
			json_object_set(x, "sort_key", json_object_get(g, "sort_key"));
		json_t *p = !proj || !strcmp(proj, "ALL") ? json_string("all")
			  : !strcmp(proj, "KEYS_ONLY") ? json_string("keys_only")
			  : json_deep_copy(json_object_get(g, "included_attributes"));
		json_object_set_new(x, "projection", p ? p : json_array());
		json_object_set_new(out, name, x);
	}
	return out;
}

static const json_t *mapping_of(const json_t *entity, const char *index)
{
	size_t i;
	const json_t *m;
	json_array_foreach(json_object_get(entity, "gsi_mappings"), i, m)
		if (!strcmp(ddbc_import_string_value(json_object_get(m, "name")) ?
			    ddbc_import_string_value(json_object_get(m, "name")) : "", index))
			return m;
	return NULL;
}

static int entity(const struct mcp_table *t, const char *ename, const json_t *e,
		  json_t *design)
{
	json_t *entities = json_object_get(design, "entities");
	if (json_object_get(entities, ename))
		return ddbc_import_fail(t->file, "two entities are named '%s'", ename);
	json_t *attrs = json_object();
	if (fields(t->run, t->file, ename, json_object_get(e, "fields"), attrs) < 0) {
		json_decref(attrs);
		return -1;
	}
	index_keys(t->run, attrs, json_object_get(t->config, "partition_key"),
		   json_object_get(e, "pk_template"));
	index_keys(t->run, attrs, json_object_get(t->config, "sort_key"),
		   json_object_get(e, "sk_template"));
	size_t i;
	const json_t *g;
	json_array_foreach(t->gsi_list, i, g) {
		const char *gn = ddbc_import_string_value(json_object_get(g, "name"));
		const json_t *m = mapping_of(e, gn ? gn : "");
		if (!m)
			continue;  /* the entity is not in this index */
		index_keys(t->run, attrs, json_object_get(g, "partition_key"),
			   json_object_get(m, "pk_template"));
		index_keys(t->run, attrs, json_object_get(g, "sort_key"),
			   json_object_get(m, "sk_template"));
	}
	json_object_set_new(entities, ename, json_pack("{sssO}", "table", t->name, "attributes",
						       attrs));
	json_decref(attrs);
	return ddbc_import_mcp_patterns(t, ename, e, design);
}

static int table(ddbc_import_run *run, const char *file, const json_t *tj, json_t *design)
{
	const json_t *cfg = json_object_get(tj, "table_config");
	const char *name = ddbc_import_string_value(json_object_get(cfg, "table_name"));
	if (!name || !json_object_get(cfg, "partition_key"))
		return ddbc_import_fail(file, "a table without table_config's table_name and "
					"partition_key");
	json_t *tables = json_object_get(design, "tables");
	if (json_object_get(tables, name))
		return ddbc_import_fail(file, "table '%s' appears twice", name);
	json_t *t = json_object();
	json_object_set(t, "partition_key", json_object_get(cfg, "partition_key"));
	if (json_object_get(cfg, "sort_key"))
		json_object_set(t, "sort_key", json_object_get(cfg, "sort_key"));
	const json_t *gl = json_object_get(tj, "gsi_list");
	if (json_array_size(gl))
		json_object_set_new(t, "gsi", gsis(gl));
	json_object_set_new(tables, name, t);
	struct mcp_table mt = { run, file, name, cfg, gl, t, json_object_get(tj, "entities") };
	const char *en;
	const json_t *e;
	json_object_foreach(json_object_get(tj, "entities"), en, e)
		if (entity(&mt, en, e, design) < 0)
			return -1;
	return 0;
}

int ddbc_import_mcp(ddbc_import_run *run, const char *file, const json_t *root,
		    json_t *design)
{
	/* Types first, so no reader meets a value of the wrong type. A schema
	 * of the wrong types is also put to the MCP server's validator
	 * (import_mcp_check.c, which reads any type), so every defect is
	 * said in one pass. */
	if (ddbc_import_check_mcp(file, root) < 0) {
		ddbc_import_mcp_check(file, root);
		return -1;
	}
	const json_t *tables = json_object_get(root, "tables");
	if (!json_is_array(tables))
		return ddbc_import_fail(file, "expected the MCP server's schema, an object with "
					"a tables list");
	if (ddbc_import_mcp_check(file, root) < 0)
		return -1;
	size_t i;
	const json_t *t;
	json_array_foreach(tables, i, t)
		if (table(run, file, t, design) < 0)
			return -1;
	/* A transaction spans tables: no pattern of the design holds it. */
	json_array_foreach(json_object_get(root, "cross_table_access_patterns"), i, t) {
		strbuf who = STRBUF_INIT;
		size_t j;
		const json_t *x;
		json_array_foreach(json_object_get(t, "entities_involved"), j, x)
			ddbc_strbuf_addf(&who, "%s%s %s", j ? ", " : "",
				    ddbc_import_string_value(json_object_get(x, "action")),
				    ddbc_import_string_value(json_object_get(x, "entity")));
		ddbc_warning("import", "%s: pattern '%s': %s (%s) left out: a design's "
			     "patterns are one call on one table", file,
			     ddbc_import_string_value(json_object_get(t, "name")),
			     ddbc_import_string_value(json_object_get(t, "operation")),
			     ddbc_strbuf_str(&who));
		ddbc_strbuf_release(&who);
	}
	return 0;
}
