/* import_mcp_check.c - what the MCP server's own validator refuses
 *
 * The DynamoDB MCP server generates code only from a schema its validator
 * accepts; a schema it refuses (its invalid_schemas fixtures) must not
 * become a clean design. Every defect is said, with its path in the
 * schema, before the schema is refused: the user fixes them in one pass.
 * The rules are the server's: its operations, return types, parameter and
 * field types, range conditions, projections, 1 to 4 attributes per key,
 * unique names and pattern ids, references that resolve, filters on
 * attributes that are no key, transactions' actions.
 */
#include "import/import_int.h"
#include "import/import_mcp.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct check {
	const char *file;
	size_t defects;
	json_t *pattern_ids;      /* "N" -> true */
	json_t *entity_names;     /* every table's */
};

static void defect(struct check *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void defect(struct check *k, const char *fmt, ...)
{
	va_list ap;
	strbuf msg = STRBUF_INIT;
	va_start(ap, fmt);
	ddbc_strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	ddbc_cmd_error("import", "%s: %s", k->file, msg.buf);
	ddbc_strbuf_release(&msg);
	k->defects++;
}

static bool one_of(const char *s, const char *const *set)
{
	for (; s && *set; set++)
		if (!strcmp(s, *set))
			return true;
	return false;
}

static const char *const field_types[] = { "string", "integer", "decimal", "boolean", "array",
					   "object", "uuid", NULL };
static const char *const param_types[] = { "string", "integer", "decimal", "boolean", "array",
					   "object", "uuid", "entity", NULL };
static const char *const operations[] = { "GetItem", "PutItem", "DeleteItem", "Query", "Scan",
					  "UpdateItem", "BatchGetItem", "BatchWriteItem", NULL };
static const char *const return_types[] = { "single_entity", "entity_list", "success_flag",
					    "mixed_data", "void", NULL };
static const char *const ranges[] = { "begins_with", "between", ">", "<", ">=", "<=", NULL };
static const char *const projections[] = { "ALL", "KEYS_ONLY", "INCLUDE", NULL };
static const char *const comparisons[] = { "=", "<>", "<", "<=", ">", ">=", "between", "in",
					   NULL };
static const char *const functions[] = { "contains", "begins_with", "attribute_exists",
					 "attribute_not_exists", "size", NULL };

/* A key: a name, or a list of 1 to 4 names. */
static void key(struct check *k, const char *path, const json_t *v, bool required)
{
	if (!v && !required)
		return;
	bool ok = ddbc_import_is_string(v) && *ddbc_import_string_value(v);
	if (json_is_array(v)) {
		size_t i;
		const json_t *n;
		ok = json_array_size(v) >= 1 && json_array_size(v) <= 4;
		json_array_foreach(v, i, n)
			ok = ok && ddbc_import_is_string(n) && *ddbc_import_string_value(n);
	}
	if (!ok)
		defect(k, "%s: expected an attribute name or a list of 1 to 4 names", path);
}

static const json_t *named(const json_t *list, const char *name)
{
	size_t i;
	const json_t *x;
	json_array_foreach(list, i, x)
		if (name && ddbc_import_is_string(json_object_get(x, "name")) &&
		    !strcmp(ddbc_import_string_value(json_object_get(x, "name")), name))
			return x;
	return NULL;
}

static void gsis(struct check *k, const char *tp, const json_t *list)
{
	size_t i;
	const json_t *g;
	json_array_foreach(list, i, g) {
		const char *name = ddbc_import_string_value(json_object_get(g, "name"));
		strbuf p = STRBUF_INIT;
		ddbc_strbuf_addf(&p, "%s.gsi_list[%zu]", tp, i);
		if (!name)
			defect(k, "%s: no name", ddbc_strbuf_str(&p));
		else if (named(list, name) != g)
			defect(k, "%s: a second index named '%s'", ddbc_strbuf_str(&p), name);
		key(k, ddbc_strbuf_str(&p), json_object_get(g, "partition_key"), true);
		key(k, ddbc_strbuf_str(&p), json_object_get(g, "sort_key"), false);
		const char *proj = ddbc_import_string_value(json_object_get(g, "projection"));
		if (json_object_get(g, "projection") && !one_of(proj, projections))
			defect(k, "%s: projection '%s' is none of ALL, KEYS_ONLY, INCLUDE",
			       ddbc_strbuf_str(&p), proj ? proj : "");
		if (proj && !strcmp(proj, "INCLUDE") &&
		    !json_array_size(json_object_get(g, "included_attributes")))
			defect(k, "%s: an INCLUDE projection without included_attributes",
			       ddbc_strbuf_str(&p));
		ddbc_strbuf_release(&p);
	}
}

static bool has_field(const json_t *e, const char *name)
{
	return named(json_object_get(e, "fields"), name) != NULL;
}

static void parameters(struct check *k, const char *pp, const json_t *list,
		       const json_t *entities)
{
	size_t i;
	const json_t *p;
	json_array_foreach(list, i, p) {
		const char *n = ddbc_import_string_value(json_object_get(p, "name"));
		const char *t = ddbc_import_string_value(json_object_get(p, "type"));
		if (!n)
			defect(k, "%s.parameters[%zu]: no name", pp, i);
		else if (named(list, n) != p)
			defect(k, "%s.parameters[%zu]: a second parameter named '%s'", pp, i, n);
		if (!one_of(t, param_types))
			defect(k, "%s.parameters[%zu]: type '%s' is no parameter type", pp, i,
			       t ? t : "");
		const char *et = ddbc_import_string_value(json_object_get(p, "entity_type"));
		if (t && !strcmp(t, "entity") && (!et || !json_object_get(entities, et)))
			defect(k, "%s.parameters[%zu]: entity_type '%s' is no entity of this table or "
			       "one before it", pp, i, et ? et : "");
	}
}

static void filter(struct check *k, const char *pp, const json_t *fe, const json_t *e,
		   const json_t *keys, const char *op)
{
	const json_t *conds = json_object_get(fe, "conditions");
	if (!op || (strcmp(op, "Query") && strcmp(op, "Scan")))
		defect(k, "%s.filter_expression: only Query and Scan take a filter", pp);
	if (!json_array_size(conds))
		defect(k, "%s.filter_expression: no conditions", pp);
	const char *lo = ddbc_import_string_value(json_object_get(fe, "logical_operator"));
	if (json_object_get(fe, "logical_operator") && !one_of(lo, (const char *const[]){ "AND",
							      "OR", NULL }))
		defect(k, "%s.filter_expression: logical_operator '%s' is neither AND nor OR", pp,
		       lo ? lo : "");
	size_t i;
	const json_t *c;
	json_array_foreach(conds, i, c) {
		const char *f = ddbc_import_string_value(json_object_get(c, "field"));
		const char *o = ddbc_import_string_value(json_object_get(c, "operator"));
		const char *fn = ddbc_import_string_value(json_object_get(c, "function"));
		strbuf p = STRBUF_INIT;
		ddbc_strbuf_addf(&p, "%s.filter_expression.conditions[%zu]", pp, i);
		const char *ps = ddbc_strbuf_str(&p);
		if (!f || !has_field(e, f))
			defect(k, "%s: field '%s' is no field of the entity", ps, f ? f : "");
		else if (json_object_get(keys, f))
			defect(k, "%s: field '%s' is a key attribute (a key condition, not a filter)",
			       ps, f);
		bool size = fn && !strcmp(fn, "size");  /* size() compares: it takes both */
		if ((o != NULL) == (fn != NULL) && !(size && o))
			defect(k, "%s: give an operator or a function, not %s", ps, o ? "both" : "none");
		else if (o && !one_of(o, comparisons))
			defect(k, "%s: operator '%s' is no comparison", ps, o);
		else if (fn && !one_of(fn, functions))
			defect(k, "%s: function '%s' is no filter function", ps, fn);
		bool one = ddbc_import_is_string(json_object_get(c, "param"));
		bool exists = fn && strstr(fn, "attribute_");
		if (o && !strcmp(o, "between") && !(one && json_object_get(c, "param2")))
			defect(k, "%s: between needs param and param2", ps);
		else if (o && !strcmp(o, "in") && !json_array_size(json_object_get(c, "params")))
			defect(k, "%s: in needs a non-empty params list", ps);
		else if (((o && strcmp(o, "in")) || (fn && !exists)) && !one)
			defect(k, "%s: no param", ps);
		ddbc_strbuf_release(&p);
	}
}

/* The names of the table's key attributes, and its indexes'. */
static json_t *key_names(const json_t *cfg, const json_t *gl)
{
	json_t *out = json_object();
	const json_t *srcs[] = { json_object_get(cfg, "partition_key"),
				 json_object_get(cfg, "sort_key") };
	for (int i = 0; i < 2; i++)
		if (ddbc_import_is_string(srcs[i]))
			json_object_set_new(out, ddbc_import_string_value(srcs[i]), json_true());
	(void)gl;
	return out;
}

/* The text of pattern_id id when it is an integer as the validator
 * (Python) reads one, of any number of digits (its JSON text is kept:
 * util/json_number.h); NULL for anything else (1.0 is a float there).
 * Malloc'd. */
static char *id_text(const json_t *id)
{
	const char *n = ddbc_import_number_text(id);
	if (!n)
		return json_is_integer(id) ? ddbc_import_scalar_text(id) : NULL;
	const char *p = *n == '-' ? n + 1 : n;
	if (!*p || p[strspn(p, "0123456789")])
		return NULL;
	return ddbc_xstrdup(strcmp(n, "-0") ? n : "0");
}

static void pattern(struct check *k, const char *ep, size_t i, const json_t *ap,
		    const json_t *e, const json_t *entities, const json_t *gl, const json_t *keys)
{
	strbuf p = STRBUF_INIT;
	ddbc_strbuf_addf(&p, "%s.access_patterns[%zu]", ep, i);
	const char *ps = ddbc_strbuf_str(&p);
	char *id = id_text(json_object_get(ap, "pattern_id"));
	if (id) {
		if (json_object_get(k->pattern_ids, id))
			defect(k, "%s: pattern_id %s is used twice", ps, id);
		json_object_set_new(k->pattern_ids, id, json_true());
		free(id);
	} else {
		defect(k, "%s: no integer pattern_id", ps);
	}
	if (!ddbc_import_is_string(json_object_get(ap, "name")))
		defect(k, "%s: no name", ps);
	const char *op = ddbc_import_string_value(json_object_get(ap, "operation"));
	if (!one_of(op, operations))
		defect(k, "%s: operation '%s' is no DynamoDB operation the server generates", ps,
		       op ? op : "");
	const char *rt = ddbc_import_string_value(json_object_get(ap, "return_type"));
	if (!one_of(rt, return_types))
		defect(k, "%s: return_type '%s' is none the server knows", ps, rt ? rt : "");
	const char *ix = ddbc_import_string_value(json_object_get(ap, "index_name"));
	if (json_object_get(ap, "index_name") && !named(gl, ix))
		defect(k, "%s: index_name '%s' is no index of the table", ps, ix ? ix : "");
	const char *rc = ddbc_import_string_value(json_object_get(ap, "range_condition"));
	if (json_object_get(ap, "range_condition") && !one_of(rc, ranges))
		defect(k, "%s: range_condition '%s' is none of begins_with, between, >, <, >=, <=",
		       ps, rc ? rc : "");
	parameters(k, ps, json_object_get(ap, "parameters"), entities);
	if (json_object_get(ap, "filter_expression"))
		filter(k, ps, json_object_get(ap, "filter_expression"), e, keys, op);
	ddbc_strbuf_release(&p);
}

static void entity(struct check *k, const char *tp, const char *en, const json_t *e,
		   const json_t *entities, const json_t *gl, const json_t *keys)
{
	strbuf p = STRBUF_INIT;
	ddbc_strbuf_addf(&p, "%s.entities.%s", tp, en);
	const char *ps = ddbc_strbuf_str(&p);
	size_t i;
	const json_t *f;
	json_array_foreach(json_object_get(e, "fields"), i, f) {
		const char *t = ddbc_import_string_value(json_object_get(f, "type"));
		if (!ddbc_import_is_string(json_object_get(f, "name")))
			defect(k, "%s.fields[%zu]: no name", ps, i);
		if (!one_of(t, field_types))
			defect(k, "%s.fields[%zu]: type '%s' is no field type", ps, i, t ? t : "");
	}
	if (!ddbc_import_is_string(json_object_get(e, "pk_template")))
		defect(k, "%s: no pk_template", ps);
	json_array_foreach(json_object_get(e, "gsi_mappings"), i, f) {
		const char *n = ddbc_import_string_value(json_object_get(f, "name"));
		if (!named(gl, n))
			defect(k, "%s.gsi_mappings[%zu]: '%s' is no index of the table", ps, i,
			       n ? n : "");
	}
	json_array_foreach(json_object_get(e, "access_patterns"), i, f)
		pattern(k, ps, i, f, e, entities, gl, keys);
	ddbc_strbuf_release(&p);
}

static void cross(struct check *k, const json_t *root)
{
	static const char *const write_actions[] = { "Put", "Update", "Delete", "ConditionCheck",
						     NULL };
	size_t i, j;
	const json_t *ap, *x;
	json_array_foreach(json_object_get(root, "cross_table_access_patterns"), i, ap) {
		strbuf p = STRBUF_INIT;
		ddbc_strbuf_addf(&p, "cross_table_access_patterns[%zu]", i);
		const char *ps = ddbc_strbuf_str(&p);
		const char *op = ddbc_import_string_value(json_object_get(ap, "operation"));
		bool write = op && !strcmp(op, "TransactWrite"), get = op && !strcmp(op, "TransactGet");
		if (!write && !get)
			defect(k, "%s: operation '%s' is neither TransactWrite nor TransactGet", ps,
			       op ? op : "");
		const char *rt = ddbc_import_string_value(json_object_get(ap, "return_type"));
		if (!one_of(rt, (const char *const[]){ "boolean", "object", "array", NULL }))
			defect(k, "%s: return_type '%s' is none of boolean, object, array", ps,
			       rt ? rt : "");
		json_array_foreach(json_object_get(ap, "entities_involved"), j, x) {
			const char *t = ddbc_import_string_value(json_object_get(x, "table"));
			const char *en = ddbc_import_string_value(json_object_get(x, "entity"));
			const char *act = ddbc_import_string_value(json_object_get(x, "action"));
			const json_t *tj = NULL;
			size_t n;
			const json_t *tt;
			json_array_foreach(json_object_get(root, "tables"), n, tt) {
				const char *tn = ddbc_import_string_value(json_object_get(
					json_object_get(tt, "table_config"), "table_name"));
				if (t && tn && !strcmp(t, tn))
					tj = tt;
			}
			if (!tj)
				defect(k, "%s.entities_involved[%zu]: '%s' is no table", ps, j, t ? t : "");
			else if (!en || !json_object_get(json_object_get(tj, "entities"), en))
				defect(k, "%s.entities_involved[%zu]: '%s' is no entity of table '%s'",
				       ps, j, en ? en : "", t);
			if ((write && !one_of(act, write_actions)) ||
			    (get && !one_of(act, (const char *const[]){ "Get", NULL })))
				defect(k, "%s.entities_involved[%zu]: action '%s' is not one %s takes",
				       ps, j, act ? act : "", op);
		}
		json_t *ids = k->pattern_ids;
		char *id = id_text(json_object_get(ap, "pattern_id"));
		if (id && json_object_get(ids, id))
			defect(k, "%s: pattern_id %s is used twice", ps, id);
		if (id)
			json_object_set_new(ids, id, json_true());
		free(id);
		parameters(k, ps, json_object_get(ap, "parameters"), k->entity_names);
		ddbc_strbuf_release(&p);
	}
}

int ddbc_import_mcp_check(const char *file, const json_t *root)
{
	struct check k = { file, 0, json_object(), json_object() };
	json_t *tnames = json_object();
	size_t i;
	const json_t *t;
	json_array_foreach(json_object_get(root, "tables"), i, t) {
		strbuf p = STRBUF_INIT;
		ddbc_strbuf_addf(&p, "tables[%zu]", i);
		const json_t *cfg = json_object_get(t, "table_config");
		const char *name = ddbc_import_string_value(json_object_get(cfg, "table_name"));
		if (!name)
			defect(&k, "%s.table_config: no table_name", ddbc_strbuf_str(&p));
		else if (json_object_get(tnames, name))
			defect(&k, "%s: a second table named '%s'", ddbc_strbuf_str(&p), name);
		else
			json_object_set_new(tnames, name, json_true());
		key(&k, ddbc_strbuf_str(&p), json_object_get(cfg, "partition_key"), true);
		if (json_is_array(json_object_get(cfg, "partition_key")) ||
		    json_is_array(json_object_get(cfg, "sort_key")))
			defect(&k, "%s.table_config: a table's key is one attribute each (lists are "
			       "for GSIs)", ddbc_strbuf_str(&p));
		const json_t *gl = json_object_get(t, "gsi_list");
		gsis(&k, ddbc_strbuf_str(&p), gl);
		json_t *keys = key_names(cfg, gl);
		const char *en;
		const json_t *e;
		/* As the server's validator: a table's entities are known, with those
		 * of the tables before it, when its patterns are checked. */
		json_object_foreach(json_object_get(t, "entities"), en, e) {
			if (json_object_get(k.entity_names, en))
				defect(&k, "%s.entities.%s: a second entity named '%s'", ddbc_strbuf_str(&p),
				       en, en);
			json_object_set_new(k.entity_names, en, json_true());
		}
		json_object_foreach(json_object_get(t, "entities"), en, e)
			entity(&k, ddbc_strbuf_str(&p), en, e, k.entity_names, gl, keys);
		json_decref(keys);
		ddbc_strbuf_release(&p);
	}
	cross(&k, root);
	json_decref(tnames);
	json_decref(k.pattern_ids);
	json_decref(k.entity_names);
	if (k.defects)
		return ddbc_import_fail(file, "%zu defect%s: the MCP server's validator refuses "
					"this schema, and so does ddbc", k.defects,
					k.defects == 1 ? "" : "s");
	return 0;
}
