/* import_libs.c - what the readers of library models share
 *
 * OneTable, ElectroDB and DynamoDB-Toolbox describe a table's items in
 * code; `ddbc import` reads the JSON of their schema objects. Each builds
 * a key from the item's attributes with a template of its own syntax:
 * ${name} (OneTable's ${name:WIDTH:0} padded). ddbc_import_braced turns
 * one into a ddbc template exactly, or says which entity and field hold
 * what ddbc cannot; tables that several entities name are merged here.
 */
#include "import/import_int.h"
#include "import/import_libs.h"
#include "util/strbuf.h"

#include <stdlib.h>
#include <string.h>

/* Appends literal text, its braces doubled (ddbc's literal braces). */
void ddbc_import_literal(strbuf *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '{' || s[i] == '}')
			ddbc_strbuf_addch(out, s[i]);
		ddbc_strbuf_addch(out, s[i]);
	}
}

/* One ${...}: its name (and, OneTable's, :WIDTH:PAD) mapped by the
 * reader. */
static int placeholder(const lib_braced_how *how, const char *body, size_t n, strbuf *out)
{
	strbuf name = STRBUF_INIT;
	const char *colon = memchr(body, ':', n);
	size_t nlen = colon ? (size_t)(colon - body) : n;
	ddbc_strbuf_add(&name, body, nlen);
	unsigned width = 0;
	int rc = 0;
	if (colon) {
		char *end = NULL;
		unsigned long w = strtoul(colon + 1, &end, 10);
		if (!how->pad || end == colon + 1 || w == 0 || w > 64 ||
		    end + 2 != body + n || end[0] != ':' || end[1] != '0') {
			rc = ddbc_import_fail(how->file, "%s: '${%.*s}' is no placeholder ddbc "
					      "holds (only ${name} and ${name:WIDTH:0}); "
					      "change the template", how->what, (int)n, body);
			goto done;
		}
		width = (unsigned)w;
	}
	if (!name.len) {
		rc = ddbc_import_fail(how->file, "%s: '${}' names no attribute; change the template",
				      how->what);
		goto done;
	}
	rc = how->name(how->ctx, ddbc_strbuf_str(&name), width, out);
done:
	ddbc_strbuf_release(&name);
	return rc;
}

int ddbc_import_braced(const lib_braced_how *how, const char *tpl, strbuf *out)
{
	const char *p = tpl;
	for (;;) {
		const char *open = strstr(p, "${");
		if (!open) {
			ddbc_import_literal(out, p, strlen(p));
			return 0;
		}
		ddbc_import_literal(out, p, (size_t)(open - p));
		const char *close = strchr(open + 2, '}');
		if (!close)
			return ddbc_import_fail(how->file, "%s: template '%s' has a '${' that no '}' "
						"closes; close it", how->what, tpl);
		if (placeholder(how, open + 2, (size_t)(close - open - 2), out) < 0)
			return -1;
		p = close + 1;
	}
}

/* Whether two index definitions (tree objects) are the same. */
static bool same_index(const json_t *a, const json_t *b)
{
	return json_equal((json_t *)a, (json_t *)b);
}

static int merge_group(const char *file, const char *tname, json_t *have, const json_t *add,
		       const char *kind)
{
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)add, k, v) {
		const json_t *old = json_object_get(have, k);
		if (old && !same_index(old, v))
			return ddbc_import_fail(file, "table '%s': two entities define %s '%s' with "
						"other keys; give the index one definition", tname,
						kind, k);
		if (!old)
			json_object_set(have, k, v);
	}
	return 0;
}

int ddbc_import_lib_table(const char *file, json_t *design, const char *name, json_t *table)
{
	json_t *tables = json_object_get(design, "tables");
	json_t *have = json_object_get(tables, name);
	if (!have) {
		json_object_set_new(tables, name, table);
		return 0;
	}
	int rc = 0;
	static const char *const keys[] = { "partition_key", "sort_key" };
	for (size_t i = 0; i < 2; i++)
		if (!json_equal(json_object_get(have, keys[i]) ? json_object_get(have, keys[i])
							       : json_null(),
				json_object_get(table, keys[i]) ? json_object_get(table, keys[i])
								: json_null()))
			rc = ddbc_import_fail(file, "table '%s': entities give it two different %s "
					      "attributes; give every entity the table's key", name,
					      keys[i]);
	static const char *const groups[] = { "gsi", "lsi" };
	for (size_t i = 0; rc == 0 && i < 2; i++) {
		json_t *add = json_object_get(table, groups[i]);
		if (!add)
			continue;
		json_t *g = json_object_get(have, groups[i]);
		if (!g) {
			g = json_object();
			json_object_set_new(have, groups[i], g);
		}
		rc = merge_group(file, name, g, add, groups[i] == groups[0] ? "GSI" : "LSI");
	}
	json_decref(table);
	return rc;
}

int ddbc_import_lib_version(const char *file, const json_t *v, const char *library,
			    const char *known)
{
	if (!v)
		return 0;
	const char *s = ddbc_import_string_value(v);
	if (!s)
		return ddbc_import_fail(file, "the %s version is no string; give it as \"%s\"", library,
					known);
	size_t n = strcspn(s, ".");
	for (const char *k = known; *k; ) {
		size_t m = strcspn(k, ",");
		if (m == n && strncmp(s, k, n) == 0 && (s[n] == '.' || s[n] == '\0'))
			return 0;
		k += m + (k[m] == ',');
	}
	return ddbc_import_fail(file, "unknown %s version '%s'; ddbc reads major versions %s: "
				"print the JSON with a supported version", library, s, known);
}

json_t *ddbc_import_lib_enum(const json_t *values)
{
	if (!json_is_array(values) || !json_array_size(values))
		return NULL;
	size_t i;
	const json_t *v;
	json_array_foreach(values, i, v)
		if (!json_is_string(v) && !json_is_integer(v) && !json_is_real(v))
			return NULL;
	return json_deep_copy(values);
}

int ddbc_import_lib_entities(ddbc_import_run *run, const char *file, const json_t *root,
			     const char *key, const char *lib, const char *versions,
			     const char *none, ddbc_lib_entity_fn *fn, json_t *design)
{
	const json_t *list = root;
	if (json_is_object(root) && json_object_get(root, "entities")) {
		if (ddbc_import_lib_version(file, json_object_get(root, key), lib, versions) < 0)
			return -1;
		list = json_object_get(root, "entities");
	}
	if (json_is_object(list))
		return fn(run, file, list, 0, design);
	if (!json_is_array(list) || !json_array_size(list))
		return ddbc_import_fail(file, "%s", none);
	size_t i;
	const json_t *e;
	json_array_foreach(list, i, e)
		if (!json_is_object(e) || fn(run, file, e, i, design) < 0)
			return json_is_object(e) ? -1 : ddbc_import_fail(file, "entity %zu is no "
									 "object", i + 1);
	return 0;
}
