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
#include "util/strbuf.h"

#include <stdbool.h>
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

/* The template of key name k: the given one, else the field itself. */
static json_t *key_value(const char *k, const json_t *tmpl)
{
	if (json_is_string(tmpl))
		return json_incref((json_t *)tmpl);
	strbuf b = STRBUF_INIT;
	strbuf_addf(&b, "{%s}", k);
	json_t *v = json_string(strbuf_str(&b));
	strbuf_release(&b);
	return v;
}

/* Adds conditions for key k (a name or a list) with templates tmpl. */
static void add_key(json_t *key, const json_t *k, const json_t *tmpl)
{
	if (json_is_string(k)) {
		json_object_set_new(key, json_string_value(k), key_value(json_string_value(k), tmpl));
		return;
	}
	size_t i;
	const json_t *n;
	json_array_foreach(k, i, n)
		if (json_is_string(n))
			json_object_set_new(key, json_string_value(n),
					    key_value(json_string_value(n),
						      json_array_get(tmpl, i)));
}

/* Whether placeholder ph appears in any condition of key. */
static bool used(const json_t *key, const char *ph)
{
	const char *k;
	const json_t *v;
	json_object_foreach((json_t *)key, k, v)
		if (json_is_string(v) && strstr(json_string_value(v), ph))
			return true;
	return false;
}

/* The parameters of ap that the partition key conditions do not use, as
 * bounds: each after the literal that the sort key's template starts with
 * (a bound compares with whole keys, which all start with it). */
static json_t *range_params(const json_t *ap, const json_t *key, const char *prefix)
{
	json_t *out = json_array();
	size_t i;
	const json_t *p;
	json_array_foreach(json_object_get(ap, "parameters"), i, p) {
		const char *n = json_string_value(json_object_get(p, "name"));
		strbuf ph = STRBUF_INIT, bound = STRBUF_INIT;
		strbuf_addf(&ph, "{%s}", n ? n : "");
		strbuf_addf(&bound, "%s%s", prefix, strbuf_str(&ph));
		if (n && !used(key, strbuf_str(&ph)))
			json_array_append_new(out, json_string(strbuf_str(&bound)));
		strbuf_release(&ph);
		strbuf_release(&bound);
	}
	return out;
}

/* Sets key's sort key condition for range_condition rc; -1 when the
 * parameters do not fit it. */
static int add_range(json_t *key, const json_t *sk, const char *rc, const json_t *ap,
		     const json_t *sk_tmpl)
{
	const char *op = range_op(rc);
	const char *t = json_string_value(sk_tmpl);
	size_t plen = t ? strcspn(t, "{") : 0;
	char prefix[256] = "";
	if (plen < sizeof(prefix) && t && t[plen] == '{')
		memcpy(prefix, t, plen), prefix[plen] = '\0';
	json_t *ps = range_params(ap, key, prefix);
	size_t need = op && !strcmp(op, "between") ? 2 : 1;
	int r = -1;
	if (op && json_is_string(sk) && json_array_size(ps) >= need) {
		json_t *v = need == 2 ? json_pack("[OO]", json_array_get(ps, 0), json_array_get(ps, 1))
				      : json_incref(json_array_get(ps, 0));
		json_t *cond = json_pack("{so}", op, v);
		if (*prefix)
			ddbc_import_set_comment(cond, op, "after the literal the sort key starts with");
		json_object_set_new(key, json_string_value(sk), cond);
		r = 0;
	}
	json_decref(ps);
	return r;
}

static const json_t *find_gsi(const struct mcp_table *t, const json_t *e, const char *index,
			      const json_t **mapping)
{
	size_t i;
	const json_t *g = NULL, *x;
	json_array_foreach(t->gsi_list, i, x)
		if (json_is_string(json_object_get(x, "name")) &&
		    !strcmp(json_string_value(json_object_get(x, "name")), index))
			g = x;
	*mapping = NULL;
	json_array_foreach(json_object_get(e, "gsi_mappings"), i, x)
		if (json_is_string(json_object_get(x, "name")) &&
		    !strcmp(json_string_value(json_object_get(x, "name")), index))
			*mapping = x;
	return g;
}

/* The key conditions of pattern ap; NULL after saying why. */
static json_t *key_of(const struct mcp_table *t, const json_t *e, const json_t *ap,
		      const char *op, const char *id)
{
	const char *index = json_string_value(json_object_get(ap, "index_name"));
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
	const char *rc = json_string_value(json_object_get(ap, "range_condition"));
	if (strcmp(op, "query") && sk)
		add_key(key, sk, json_object_get(tmpls, "sk_template"));
	else if (rc && sk && add_range(key, sk, rc, ap, json_object_get(tmpls, "sk_template")) < 0) {
		ddbc_import_fail(t->file, "pattern '%s': range_condition '%s' with parameters that "
				 "do not fit it", id, rc);
		json_decref(key);
		return NULL;
	}
	return key;
}

static int one_pattern(const struct mcp_table *t, const char *ename, const json_t *e,
		       const json_t *ap, json_t *patterns)
{
	const char *id = json_string_value(json_object_get(ap, "name"));
	const char *opname = json_string_value(json_object_get(ap, "operation"));
	const char *op = operation(opname);
	if (!id)
		return ddbc_import_fail(t->file, "an access pattern of '%s' has no name", ename);
	if (!op) {  /* batch and transaction calls have no pattern of their own */
		fprintf(stderr, "ddbc import: %s: pattern '%s': operation '%s' left out\n",
			t->file, id, opname ? opname : "");
		return 0;
	}
	if (json_object_get(patterns, id))
		return ddbc_import_fail(t->file, "two access patterns are named '%s'", id);
	json_t *p = json_object();
	if (json_is_string(json_object_get(ap, "description")))
		json_object_set(p, "description", json_object_get(ap, "description"));
	json_object_set_new(p, "table", json_string(t->name));
	if (json_is_string(json_object_get(ap, "index_name")))
		json_object_set(p, "index", json_object_get(ap, "index_name"));
	json_object_set_new(p, "operation", json_string(op));
	if (strcmp(op, "scan")) {
		json_t *key = key_of(t, e, ap, op, id);
		if (!key) {
			json_decref(p);
			return -1;
		}
		json_object_set_new(p, "key", key);
	}
	if (json_is_true(json_object_get(ap, "consistent_read")))
		json_object_set_new(p, "consistent_read", json_true());
	json_object_set_new(p, "entities", json_pack("[s]", ename));
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
