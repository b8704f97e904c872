/* import_mcp_patterns.c - access patterns from the MCP server's schema
 *
 * A schema pattern names its operation (GetItem, Query, ...), its index
 * and its parameters; the key conditions are the entity's key templates
 * for that index, their placeholders being the parameters of the same
 * names. A range_condition applies to the sort key, with the parameters
 * the partition key does not use.
 */
#include "import/import_int.h"
#include "import/import_mcp.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static const char *operation(const char *op)
{
	static const char *const map[][2] = {
		{ "GetItem", "get" }, { "Query", "query" }, { "Scan", "scan" },
		{ "PutItem", "put" }, { "UpdateItem", "update" }, { "DeleteItem", "delete" },
	};
	for (size_t i = 0; op && i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(op, map[i][0]))
			return map[i][1];
	return NULL;
}

static const char *range_op(const char *rc)
{
	static const char *const map[][2] = {
		{ ">=", "ge" }, { ">", "gt" }, { "<=", "le" }, { "<", "lt" }, { "=", "eq" },
		{ "begins_with", "begins_with" }, { "between", "between" },
	};
	for (size_t i = 0; rc && i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(rc, map[i][0]))
			return map[i][1];
	return NULL;
}

/* The key names of k (a name, or a list of names for a multi-attribute key). */
static json_t *key_list(const json_t *k)
{
	if (ddbc_import_is_string(k))
		return json_pack("[O]", k);
	return json_is_array(k) ? json_incref((json_t *)k) : json_array();
}

/* The template of key name k: the given one, else the field itself. */
static json_t *key_value(const char *k, const json_t *tmpl)
{
	if (ddbc_import_is_string(tmpl))
		return json_incref((json_t *)tmpl);
	strbuf b = STRBUF_INIT;
	ddbc_strbuf_addf(&b, "{%s}", k);
	json_t *v = json_string(ddbc_strbuf_str(&b));
	ddbc_strbuf_release(&b);
	return v;
}

/* Adds conditions for key k (a name or a list) with templates tmpl. */
static void add_key(json_t *key, const json_t *k, const json_t *tmpl)
{
	if (ddbc_import_is_string(k)) {
		const char *name = ddbc_import_string_value(k);
		json_object_set_new(key, name, key_value(name, tmpl));
		return;
	}
	size_t i;
	const json_t *n;
	json_array_foreach(k, i, n)
		if (ddbc_import_is_string(n))
			json_object_set_new(key, ddbc_import_string_value(n),
					    key_value(ddbc_import_string_value(n),
						      json_array_get(tmpl, i)));
}

/* Whether placeholder ph appears in any condition of key (or value v). */
static bool used(const json_t *v, const char *ph)
{
	if (ddbc_import_is_string(v))
		return strstr(ddbc_import_string_value(v), ph) != NULL;
	size_t i;
	const json_t *e;
	json_array_foreach(v, i, e)
		if (used(e, ph))
			return true;
	const char *k;
	json_object_foreach((json_t *)v, k, e)
		if (used(e, ph))
			return true;
	return false;
}

/* Whether parameter name of ap is among those left (an array of names). */
static bool left_has(const json_t *left, const char *name)
{
	size_t i;
	const json_t *v;
	json_array_foreach(left, i, v)
		if (!strcmp(ddbc_import_string_value(v), name))
			return true;
	return false;
}

static void take(json_t *left, const char *name)
{
	size_t i;
	const json_t *v;
	json_array_foreach(left, i, v)
		if (!strcmp(ddbc_import_string_value(v), name)) {
			json_array_remove(left, i);
			return;
		}
}

/* Whether every placeholder of template t is a parameter left; takes them. */
static bool covered(const char *t, json_t *left)
{
	json_t *names = json_array();
	bool all = t != NULL;
	for (const char *p = t ? strchr(t, '{') : NULL; p && all; p = strchr(p + 1, '{')) {
		size_t n = strcspn(p + 1, ":}");
		json_t *name = json_stringn(p + 1, n);
		all = left_has(left, ddbc_import_string_value(name));
		json_array_append_new(names, name);
	}
	all = all && json_array_size(names) > 0;
	size_t i;
	const json_t *v;
	if (all)
		json_array_foreach(names, i, v)
			take(left, ddbc_import_string_value(v));
	json_decref(names);
	return all;
}

/* The literal template t starts with ("CERT#" of "CERT#{cert_id}"). */
static size_t literal_prefix(const char *t)
{
	return t ? strcspn(t, "{") : 0;
}

/* A bound over parameter name on a key of template t: the literal the
 * keys start with, then the parameter (a bound compares whole keys). */
static json_t *bound(const char *t, const char *name)
{
	strbuf b = STRBUF_INIT;
	size_t n = literal_prefix(t);
	if (t && t[n] == '{')
		ddbc_strbuf_add(&b, t, n);
	ddbc_strbuf_addf(&b, "{%s}", name);
	json_t *v = json_string(ddbc_strbuf_str(&b));
	ddbc_strbuf_release(&b);
	return v;
}

/* Sets key's sort key conditions for range_condition rc over the
 * parameters left. A multi-attribute sort key is equality on the leading
 * attributes the parameters cover, then the range on the next one (the
 * last, when the parameters name them all), as DynamoDB reads left to
 * right. -1 when the parameters do not fit. */
static int add_range(ddbc_import_run *run, json_t *key, const json_t *sk, const char *rc,
		     json_t *left, const json_t *sk_tmpl)
{
	const char *op = range_op(rc);
	json_t *names = key_list(sk), *ts = key_list(sk_tmpl);
	size_t n = json_array_size(names), need = op && !strcmp(op, "between") ? 2 : 1, i;
	int r = -1;
	for (i = 0; op && i + 1 < n; i++) {
		const char *t = ddbc_import_string_value(json_array_get(ts, i));
		json_t *trial = json_deep_copy(left);
		bool cov = covered(t, trial) && json_array_size(trial) >= need;
		json_decref(trial);
		if (!cov)
			break;
		covered(t, left);
		json_object_set(key, ddbc_import_string_value(json_array_get(names, i)),
				json_array_get(ts, i));
	}
	const char *name = ddbc_import_string_value(json_array_get(names, i));
	const char *t = ddbc_import_string_value(json_array_get(ts, i));
	if (op && name && json_array_size(left) >= need) {
		json_t *b0 = bound(t, ddbc_import_string_value(json_array_get(left, 0)));
		json_t *v = need == 2 ? json_pack("[oo]", b0, bound(t, ddbc_import_string_value(
						  json_array_get(left, 1)))) : b0;
		json_t *cond = json_pack("{so}", op, v);
		if (literal_prefix(t) && t[literal_prefix(t)] == '{')
			ddbc_import_set_comment(run, cond, op,
						"after the literal the sort key starts with");
		json_object_set_new(key, name, cond);
		for (size_t k = 0; k < need; k++)
			json_array_remove(left, 0);
		r = 0;
	}
	json_decref(names);
	json_decref(ts);
	return r;
}

/* The part of template t a query can fix: its literals and the
 * placeholders of parameters left, up to the first other placeholder
 * ("LIKE#{post_id}#" of "LIKE#{post_id}#{liker}" given post_id). Takes
 * the parameters it uses. */
static char *fixed_prefix(const char *t, json_t *left)
{
	strbuf b = STRBUF_INIT;
	while (t && *t) {
		if (*t != '{') {
			ddbc_strbuf_addch(&b, *t++);
			continue;
		}
		size_t n = strcspn(t + 1, ":}");
		char *name = ddbc_xstrndup(t + 1, n);
		bool ok = left_has(left, name) && t[1 + n];
		const char *close = strchr(t, '}');
		if (ok && close) {
			take(left, name);
			ddbc_strbuf_add(&b, t, (size_t)(close - t + 1));
		}
		free(name);
		if (!ok || !close)
			break;
		t = close + 1;
	}
	return ddbc_strbuf_detach(&b);
}

/* An item-collection query: a Query on the partition key alone that
 * returns one entity's list reads, in the MCP server's generated code,
 * only the items whose sort key starts with that entity's literal (and
 * the parameters it is given, left to right: equality on the leading
 * attributes of a multi-attribute sort key they cover). */
static void add_collection(ddbc_import_run *run, json_t *key, const json_t *sk,
			   const json_t *sk_tmpl, const char *ename, json_t *left)
{
	json_t *names = key_list(sk), *ts = key_list(sk_tmpl);
	size_t n = json_array_size(names), i;
	for (i = 0; i + 1 < n && covered(ddbc_import_string_value(json_array_get(ts, i)), left); i++)
		json_object_set(key, ddbc_import_string_value(json_array_get(names, i)),
				json_array_get(ts, i));
	const char *t = ddbc_import_string_value(json_array_get(ts, i));
	char *prefix = t ? fixed_prefix(t, left) : NULL;
	bool whole = prefix && !strcmp(prefix, t);
	if (prefix && *prefix && i < n) {
		const char *name = ddbc_import_string_value(json_array_get(names, i));
		if (whole && strchr(t, '{')) {
			json_object_set_new(key, name, json_string(prefix));
		} else {
			json_t *cond = json_pack("{ss}", "begins_with", prefix);
			ddbc_import_set_comment(run, cond, "begins_with",
						"recovered: the schema's query "
						"returns %s items only, which the MCP server's code "
						"reads with begins_with on the sort key's literal",
						ename);
			json_object_set_new(key, name, cond);
		}
	}
	free(prefix);
	json_decref(names);
	json_decref(ts);
}

static const json_t *find_gsi(const struct mcp_table *t, const json_t *e, const char *index,
			      const json_t **mapping)
{
	size_t i;
	const json_t *g = NULL, *x;
	json_array_foreach(t->gsi_list, i, x)
		if (ddbc_import_is_string(json_object_get(x, "name")) &&
		    !strcmp(ddbc_import_string_value(json_object_get(x, "name")), index))
			g = x;
	*mapping = NULL;
	json_array_foreach(json_object_get(e, "gsi_mappings"), i, x)
		if (ddbc_import_is_string(json_object_get(x, "name")) &&
		    !strcmp(ddbc_import_string_value(json_object_get(x, "name")), index))
			*mapping = x;
	return g;
}

/* The parameters of ap (names) that the conditions in key do not use. */
static json_t *params_left(const json_t *ap, const json_t *key)
{
	json_t *left = json_array();
	size_t i;
	const json_t *p;
	json_array_foreach(json_object_get(ap, "parameters"), i, p) {
		const char *n = ddbc_import_string_value(json_object_get(p, "name"));
		strbuf ph = STRBUF_INIT;
		ddbc_strbuf_addf(&ph, "{%s}", n ? n : "");
		const char *type = ddbc_import_string_value(json_object_get(p, "type"));
		if (n && !used(key, ddbc_strbuf_str(&ph)) && !(type && !strcmp(type, "entity")))
			json_array_append_new(left, json_string(n));
		ddbc_strbuf_release(&ph);
	}
	return left;
}

/* The key conditions of pattern ap; NULL after saying why. Sets *left to
 * the parameters no condition uses. */
static json_t *key_of(const struct mcp_table *t, const json_t *e, const json_t *ap,
		      const char *op, const char *id, const char *ename, json_t **left)
{
	const char *index = ddbc_import_string_value(json_object_get(ap, "index_name"));
	const json_t *keys = t->config, *tmpls = e;
	if (index) {
		keys = find_gsi(t, e, index, &tmpls);
		if (!keys) {
			ddbc_import_fail(t->file, "pattern '%s' uses index '%s', which table '%s' "
					 "lacks", id, index, t->name);
			return NULL;
		}
	}
	json_t *key = json_object();
	const json_t *pk = json_object_get(keys, "partition_key");
	const json_t *sk = json_object_get(keys, "sort_key");
	add_key(key, pk, json_object_get(tmpls, "pk_template"));
	*left = params_left(ap, key);
	const char *rc = ddbc_import_string_value(json_object_get(ap, "range_condition"));
	const char *rt = ddbc_import_string_value(json_object_get(ap, "return_type"));
	const json_t *skt = json_object_get(tmpls, "sk_template");
	if (strcmp(op, "query") && sk) {
		add_key(key, sk, skt);
	} else if (rc && sk && add_range(t->run, key, sk, rc, *left, skt) < 0) {
		ddbc_import_fail(t->file, "pattern '%s': range_condition '%s' with parameters that "
				 "do not fit it", id, rc);
		json_decref(key);
		json_decref(*left);
		return NULL;
	} else if (!rc && sk && rt && !strcmp(rt, "entity_list")) {
		add_collection(t->run, key, sk, skt, ename, *left);
	}
	json_decref(*left);
	*left = params_left(ap, key);
	return key;
}

/* The partition key template of entity e in index (NULL: the table). */
static const json_t *pk_template_of(const json_t *e, const char *index)
{
	if (!index)
		return json_object_get(e, "pk_template");
	size_t i;
	const json_t *m;
	json_array_foreach(json_object_get(e, "gsi_mappings"), i, m)
		if (ddbc_import_is_string(json_object_get(m, "name")) &&
		    !strcmp(ddbc_import_string_value(json_object_get(m, "name")), index))
			return json_object_get(m, "pk_template");
	return NULL;
}

/* The entities a mixed_data query reads: every entity of the table whose
 * partition key template in the pattern's index is the pattern entity's. */
static json_t *mixed_entities(const struct mcp_table *t, const json_t *e, const json_t *ap)
{
	const char *index = ddbc_import_string_value(json_object_get(ap, "index_name"));
	const json_t *mine = pk_template_of(e, index);
	json_t *out = json_array();
	const char *name;
	const json_t *other;
	json_object_foreach((json_t *)t->entities, name, other) {
		const json_t *tmpl = pk_template_of(other, index);
		if (other == e || (mine && tmpl && json_equal((json_t *)mine, (json_t *)tmpl)))
			json_array_append_new(out, json_string(name));
	}
	return out;
}

static json_t *all_entities(const struct mcp_table *t)
{
	json_t *out = json_array();
	const char *name;
	const json_t *e;
	json_object_foreach((json_t *)t->entities, name, e)
		json_array_append_new(out, json_string(name));
	return out;
}

/* Notes the parameters no key condition uses (a filter, a value to
 * write): the design has no field for them, the comment keeps them. */
static void keep_params(ddbc_import_run *run, json_t *p, const json_t *left)
{
	if (!json_array_size(left))
		return;
	strbuf b = STRBUF_INIT;
	size_t i;
	const json_t *v;
	json_array_foreach(left, i, v)
		ddbc_strbuf_addf(&b, "%s%s", i ? ", " : "", ddbc_import_string_value(v));
	ddbc_import_set_comment(run, p, "key", "parameter%s %s: in no key condition (a filter or "
				"a value the call writes)", json_array_size(left) == 1 ? "" : "s",
				ddbc_strbuf_str(&b));
	ddbc_strbuf_release(&b);
}

static int one_pattern(const struct mcp_table *t, const char *ename, const json_t *e,
		       const json_t *ap, json_t *patterns)
{
	const char *id = ddbc_import_string_value(json_object_get(ap, "name"));
	const char *opname = ddbc_import_string_value(json_object_get(ap, "operation"));
	const char *op = operation(opname);
	if (!id)
		return ddbc_import_fail(t->file, "an access pattern of '%s' has no name", ename);
	if (!op) {  /* batch and transaction calls have no pattern of their own */
		ddbc_warning("import", "%s: pattern '%s': %s left out: a batch is many "
			     "calls, each one of the design's patterns", t->file, id,
			     opname ? opname : "");
		return 0;
	}
	if (json_object_get(ap, "filter_expression"))
		ddbc_warning("import", "%s: pattern '%s': its filter_expression left out "
			     "(a design's patterns hold key conditions only)", t->file, id);
	if (json_object_get(patterns, id))
		return ddbc_import_fail(t->file, "two access patterns are named '%s'", id);
	json_t *p = json_object();
	if (ddbc_import_is_string(json_object_get(ap, "description")))
		json_object_set(p, "description", json_object_get(ap, "description"));
	json_object_set_new(p, "table", json_string(t->name));
	if (ddbc_import_is_string(json_object_get(ap, "index_name")))
		json_object_set(p, "index", json_object_get(ap, "index_name"));
	json_object_set_new(p, "operation", json_string(op));
	if (strcmp(op, "scan")) {
		json_t *left = NULL;
		json_t *key = key_of(t, e, ap, op, id, ename, &left);
		if (!key) {
			json_decref(p);
			return -1;
		}
		json_object_set_new(p, "key", key);
		keep_params(t->run, p, left);
		json_decref(left);
	}
	if (json_is_true(json_object_get(ap, "consistent_read")))
		json_object_set_new(p, "consistent_read", json_true());
	const char *rt = ddbc_import_string_value(json_object_get(ap, "return_type"));
	bool every = !strcmp(op, "scan") && json_object_size(t->entities) > 1;
	json_object_set_new(p, "entities", rt && !strcmp(rt, "mixed_data")
			    ? mixed_entities(t, e, ap) : every ? all_entities(t)
			    : json_pack("[s]", ename));
	if (every)
		ddbc_import_set_comment(t->run, p, "entities",
					"a scan reads every entity of the table; "
					"the schema's code keeps %s items", ename);
	json_object_set_new(patterns, id, p);
	return 0;
}

int ddbc_import_mcp_patterns(const struct mcp_table *t, const char *ename, const json_t *e,
			     json_t *design)
{
	const json_t *list = json_object_get(e, "access_patterns");
	if (!json_array_size(list))
		return 0;
	json_t *patterns = json_object_get(design, "access_patterns");
	if (!patterns) {
		patterns = json_object();
		json_object_set_new(design, "access_patterns", patterns);
	}
	size_t i;
	const json_t *ap;
	json_array_foreach(list, i, ap)
		if (one_pattern(t, ename, e, ap, patterns) < 0)
			return -1;
	return 0;
}
