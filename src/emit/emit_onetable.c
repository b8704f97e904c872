/* emit_onetable.c - `ddbc export --format onetable`: the design as a
 * OneTable schema
 *
 * The JSON OneTable's Table takes as `schema`: format, version, indexes
 * (the table key as "primary", GSIs with their projection, LSIs of type
 * "local"), models (one per entity: every stored attribute typed, enums,
 * required, and each attribute with a template as a `value` template,
 * ${attr} placeholders and :0WIDTH as OneTable's ${attr:WIDTH:0}), and
 * params. A OneTable schema is one table's: a design of several tables
 * becomes an object of schemas by table name. OneTable has no named
 * queries: access patterns are left out (docs/libraries.md).
 */
#include "emit/emit_libs.h"
#include "emit/emit_json.h"
#include "model/request.h"
#include "model/semantics.h"
#include "util/error.h"

#include <jansson.h>
#include <string.h>

static const lib_caps caps = {
	.library = "OneTable", .format = "onetable", .braced = true,
	.pad_numbers = true, .pad_text = true, .binary_keys = false, .multi_keys = false,
};

static const char *type_of(ddbc_type t)
{
	switch (t) {
	case DDBC_TYPE_S: return "string";
	case DDBC_TYPE_N: return "number";
	case DDBC_TYPE_B: return "binary";
	case DDBC_TYPE_BOOL: return "boolean";
	case DDBC_TYPE_L: return "array";
	case DDBC_TYPE_SS: case DDBC_TYPE_NS: case DDBC_TYPE_BS: return "set";
	default: return "object";
	}
}

static json_t *index_of(const ddbc_index *ix)
{
	json_t *j = json_object();
	if (ix->kind == DDBC_INDEX_LSI)
		json_object_set_new(j, "type", json_string("local"));
	json_object_set_new(j, "hash", ddbc_json_str(ix->pk[0].s));
	if (ix->nsk)
		json_object_set_new(j, "sort", ddbc_json_str(ix->sk[0].s));
	if (ix->kind == DDBC_INDEX_PRIMARY)
		return j;
	if (ix->projection == DDBC_PROJ_INCLUDE) {
		json_t *p = json_array();
		for (size_t i = 0; i < ix->ninclude; i++)
			json_array_append_new(p, ddbc_json_str(ix->include[i].s));
		json_object_set_new(j, "project", p);
	} else {
		json_object_set_new(j, "project", json_string(ix->projection == DDBC_PROJ_ALL ?
							      "all" : "keys"));
	}
	return j;
}

static json_t *indexes(const ddbc_table *t)
{
	json_t *j = json_object();
	for (size_t i = 0; i < t->nindexes; i++) {
		const ddbc_index *ix = t->indexes[i];
		json_object_set_new(j, ix->kind == DDBC_INDEX_PRIMARY ? "primary" : ix->name.s,
				    index_of(ix));
	}
	return j;
}

static bool field(ddbc_arena *arena, json_t *model, const lib_parts *parts, const ddbc_attr *a,
		  ddbc_err *err)
{
	if (!ddbc_lib_stored(a) && !ddbc_lib_is_composite(parts, a))
		return true;
	json_t *f = json_object();
	json_object_set_new(model, a->name.s, f);
	json_object_set_new(f, "type", json_string(type_of(a->type)));
	if (a->more->nenum) {
		json_t *en = json_array();
		for (uint32_t i = 0; i < a->more->nenum; i++)
			json_array_append_new(en, ddbc_json_plain(a->more->enum_values[i]));
		json_object_set_new(f, "enum", en);
	}
	if (ddbc_lib_required(parts, a))
		json_object_set_new(f, "required", json_true());
	if (!a->has_template)
		return true;
	if (ddbc_lib_sparse_key(a)) {
		ddbc_lib_refuse(err, &caps, a, "%s", "items may lack it (required: false), but "
				"OneTable writes a value template whenever its values are there");
		return false;
	}
	lib_key k;
	if (!ddbc_lib_key_of(arena, &caps, a, &k, err))
		return false;
	strbuf tpl = STRBUF_INIT;
	ddbc_lib_braced(&tpl, &k, true);
	json_object_set_new(f, "value", ddbc_json_strn(tpl.buf ? tpl.buf : "", tpl.len));
	ddbc_strbuf_release(&tpl);
	return true;
}

static json_t *schema(ddbc_arena *arena, const ddbc_table *t, ddbc_err *err)
{
	for (size_t i = 0; i < t->nindexes; i++)
		if (t->indexes[i]->kind != DDBC_INDEX_PRIMARY &&
		    strcmp(t->indexes[i]->name.s, "primary") == 0) {
			ddbc_err_add(err, NULL, "cannot export onetable: table '%s' has an index "
				     "named 'primary', OneTable's name for the table key; rename "
				     "the index or use another --format", t->name.s);
			return NULL;
		}
	json_t *s = json_object(), *models = json_object();
	json_object_set_new(s, "format", json_string("onetable:1.1.0"));
	json_object_set_new(s, "version", json_string("0.0.1"));
	json_object_set_new(s, "indexes", indexes(t));
	json_object_set_new(s, "models", models);
	for (size_t i = 0; i < t->nentities; i++) {
		const ddbc_entity *e = t->entities[i];
		json_t *m = json_object();
		json_object_set_new(models, e->name.s, m);
		lib_parts parts;
		ddbc_lib_parts_of(arena, e, &parts);
		for (size_t j = 0; j < e->nattrs; j++)
			if (!field(arena, m, &parts, &e->attrs[j], err)) {
				json_decref(s);
				return NULL;
			}
	}
	json_object_set_new(s, "params", json_pack("{s:s,s:b}", "typeField", "_type",
						   "timestamps", 0));
	return s;
}

ddbc_emit_result ddbc_emit_onetable(FILE *out, const ddbc_design *g, const ddbc_export_opts *o,
				    ddbc_diags *d)
{
	(void)d;
	ddbc_err *err = o ? o->err : NULL;
	ddbc_arena *arena = ddbc_arena_new();
	json_t *all = json_object();
	bool ok = true;
	for (size_t i = 0; ok && i < g->ntables; i++) {
		json_t *s = NULL;
		ok = ddbc_lib_table_ok(&caps, &g->tables[i], err) &&
		     (s = schema(arena, &g->tables[i], err));
		if (ok)
			json_object_set_new(all, g->tables[i].name.s, s);
	}
	ddbc_arena_free(arena);
	if (!ok) {
		json_decref(all);
		return DDBC_EMIT_FAILED;
	}
	/* One table: its schema, as OneTable takes it. */
	json_t *doc = g->ntables == 1 ? json_incref(json_object_iter_value(json_object_iter(all)))
				      : json_incref(all);
	json_decref(all);
	size_t flags = o && o->compact ? JSON_COMPACT | JSON_PRESERVE_ORDER
				       : JSON_INDENT(2) | JSON_PRESERVE_ORDER;
	int r = json_dumpf(doc, out, flags);
	json_decref(doc);
	fputc('\n', out);
	/* A write error is the output's to say, with its reason (util/output.h). */
	return r != 0 ? DDBC_EMIT_FAILED : DDBC_EMIT_OK;
}
