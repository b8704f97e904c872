/* emit_electrodb.c - `ddbc export --format electrodb`: the design as
 * ElectroDB (3.x) entities, one Service per table
 *
 * A TypeScript module: per table a function that returns the table's
 * Service, its entities inside. Each entity's indexes are the table's
 * indexes it is in, named as ddbc names them (the table key by the
 * table's name), their keys ElectroDB's composite keys: `field` the key
 * attribute, `composite` the plain attributes its template names,
 * `template` the template with ${attr} placeholders, `casing: "none"` so
 * that keys keep their case as ddbc renders them. A key attribute without
 * a template is the attribute itself. :0WIDTH (on Numbers) is refused:
 * ElectroDB's attribute `padding` pads Strings only. Other attributes
 * with a template are computed (`watch` and `set`). Every name the design gives is a string literal, escaped.
 */
#include "emit/emit_electrodb_int.h"
#include "model/request.h"
#include "model/semantics.h"
#include "util/error.h"

#include <string.h>

const lib_caps ddbc_electrodb_caps = {
	.library = "ElectroDB", .format = "electrodb", .braced = true,
	.pad_numbers = false, .pad_text = false,
	.binary_keys = false, .multi_keys = true,
};

/* Code, not a template: computed attributes hold anything. */
static const lib_caps code_caps = {
	.library = "ElectroDB", .format = "electrodb", .pad_numbers = true, .pad_text = true,
	.binary_keys = true, .multi_keys = true,
};

typedef electrodb_writer writer;

static bool index_field(const ddbc_entity *e, const ddbc_attr *a)
{
	const ddbc_table *t = e->table;
	for (size_t i = 0; t && i < t->nindexes; i++)
		if (ddbc_lib_entity_in(e, t->indexes[i]) && ddbc_index_has_key(t->indexes[i], a->name.s))
			return a->has_template;
	return false;
}

static const char *type_of(const ddbc_attr *a)
{
	switch (a->type) {
	case DDBC_TYPE_S: return "\"string\"";
	case DDBC_TYPE_N: return "\"number\"";
	case DDBC_TYPE_BOOL: return "\"boolean\"";
	case DDBC_TYPE_SS: return "\"set\", items: \"string\"";
	case DDBC_TYPE_NS: return "\"set\", items: \"number\"";
	default: return "\"any\"";
	}
}

/* A computed attribute: the flattened template as code over the item. */
static void computed(writer *w, const lib_key *k)
{
	strbuf *sb = &w->sb;
	ddbc_strbuf_addstr(sb, ", watch: [");
	size_t n = 0;
	for (size_t i = 0; i < k->nparts; i++)
		if (k->parts[i].attr) {
			ddbc_strbuf_addstr(sb, n++ ? ", " : "");
			ddbc_lib_ts_str(sb, k->parts[i].attr->name.s);
		}
	ddbc_strbuf_addstr(sb, "], set: (_v?: unknown, i?: any) => ");
	ddbc_lib_ts_concat(sb, k, "i?.[", &w->pads);
}

static bool attribute(writer *w, const ddbc_entity *e, const lib_parts *parts,
		      const ddbc_attr *a)
{
	strbuf *sb = &w->sb;
	bool composite = ddbc_lib_is_composite(parts, a);
	if (index_field(e, a) || (!ddbc_lib_stored(a) && !composite))
		return true;
	ddbc_strbuf_addstr(sb, "                ");
	ddbc_lib_ts_str(sb, a->name.s);
	if (a->type == DDBC_TYPE_S && a->more->nenum) {
		ddbc_strbuf_addstr(sb, ": { type: [");
		for (uint32_t i = 0; i < a->more->nenum; i++) {
			ddbc_strbuf_addstr(sb, i ? ", " : "");
			const ddbc_node *v = a->more->enum_values[i];
			if (v->kind == DDBC_NODE_SCALAR)
				ddbc_lib_ts_string(sb, v->u.text, v->n);
			else
				ddbc_strbuf_addstr(sb, "\"\"");
		}
		ddbc_strbuf_addstr(sb, "] as const");
	} else {
		ddbc_strbuf_addf(sb, ": { type: %s", type_of(a));
	}
	if (ddbc_lib_required(parts, a))
		ddbc_strbuf_addstr(sb, ", required: true");
	if (a->has_template) {
		lib_key k;
		if (!ddbc_lib_key_of(w->arena, &code_caps, a, &k, w->err))
			return false;
		computed(w, &k);
	}
	ddbc_strbuf_addstr(sb, " },\n");
	return true;
}

static void key(writer *w, const char *role, const lib_key *k)
{
	strbuf *sb = &w->sb;
	ddbc_strbuf_addf(sb, "                    %s: { field: ", role);
	ddbc_lib_ts_str(sb, k->attr->name.s);
	ddbc_strbuf_addstr(sb, ", composite: [");
	if (k->plain) {
		ddbc_lib_ts_str(sb, k->attr->name.s);
		ddbc_strbuf_addstr(sb, "]");
		if (k->attr->type == DDBC_TYPE_N)
			ddbc_strbuf_addstr(sb, ", cast: \"number\"");
	} else {
		size_t n = 0;
		for (size_t i = 0; i < k->nparts; i++) {
			const ddbc_attr *a = k->parts[i].attr;
			bool seen = false;
			for (size_t j = 0; a && j < i; j++)
				seen |= k->parts[j].attr == a;
			if (!a || seen)
				continue;
			ddbc_strbuf_addstr(sb, n++ ? ", " : "");
			ddbc_lib_ts_str(sb, a->name.s);
		}
		ddbc_strbuf_addstr(sb, "], template: ");
		strbuf tpl = STRBUF_INIT;
		ddbc_lib_braced(&tpl, k, false);
		ddbc_lib_ts_string(sb, ddbc_strbuf_str(&tpl), tpl.len);
		ddbc_strbuf_release(&tpl);
	}
	ddbc_strbuf_addstr(sb, ", casing: \"none\" },\n");
}

/* A multi-attribute GSI key: ElectroDB's "composite" index, whose key
 * attributes are the item's own (no key fields of its making). */
static void multi_key(writer *w, const ddbc_index *ix, const lib_key *keys)
{
	strbuf *sb = &w->sb;
	ddbc_strbuf_addstr(sb, "                    type: \"composite\",\n");
	for (int role = 0; role < 2; role++) {
		size_t from = role ? ix->npk : 0, n = role ? ix->nsk : ix->npk;
		if (!n)
			continue;
		ddbc_strbuf_addf(sb, "                    %s: { composite: [", role ? "sk" : "pk");
		for (size_t i = 0; i < n; i++) {
			ddbc_strbuf_addstr(sb, i ? ", " : "");
			ddbc_lib_ts_str(sb, keys[from + i].attr->name.s);
		}
		ddbc_strbuf_addstr(sb, "] },\n");
	}
}

static bool entity(writer *w, const ddbc_entity *e)
{
	lib_parts parts;
	ddbc_lib_parts_of(w->arena, e, &parts);
	strbuf *sb = &w->sb;
	const ddbc_table *t = e->table;
	size_t nkeys = 0;
	lib_key *keys = ddbc_arena_array(w->arena, 2 * t->nindexes + 1, sizeof *keys);
	for (size_t i = 0; i < t->nindexes; i++) {
		const ddbc_index *ix = t->indexes[i];
		if (!ddbc_lib_entity_in(e, ix))
			continue;
		for (size_t j = 0; j < ix->npk + ix->nsk; j++) {
			const ddbc_attr *a = ddbc_lib_key_attr(e, ix, j);
			if (ddbc_lib_sparse_key(a)) {
				ddbc_lib_refuse(w->err, &ddbc_electrodb_caps, a, "%s", "items may "
						"lack it (required: false), but ElectroDB writes a "
						"key whenever its composite attributes are there");
				return false;
			}
			if ((ix->npk > 1 || ix->nsk > 1) && a->has_template) {
				ddbc_lib_refuse(w->err, &ddbc_electrodb_caps, a, "%s", "ElectroDB's "
						"multi-attribute keys are the item's attributes as "
						"they are, without a template");
				return false;
			}
			if (!ddbc_lib_key_of(w->arena, &ddbc_electrodb_caps, a, &keys[nkeys], w->err))
				return false;
			nkeys++;
		}
	}
	ddbc_strbuf_addstr(sb, "        ");
	ddbc_lib_ts_str(sb, e->name.s);
	ddbc_strbuf_addstr(sb, ": new Entity({\n            model: { entity: ");
	ddbc_lib_ts_str(sb, e->name.s);
	ddbc_strbuf_addstr(sb, ", version: \"1\", service: ");
	ddbc_lib_ts_str(sb, w->g->name.s ? w->g->name.s : "ddbc");
	ddbc_strbuf_addstr(sb, " },\n            attributes: {\n");
	for (size_t i = 0; i < e->nattrs; i++) {
		const ddbc_attr *a = &e->attrs[i];
		if (!attribute(w, e, &parts, a))
			return false;
	}
	ddbc_strbuf_addstr(sb, "            },\n            indexes: {\n");
	size_t at = 0;
	for (size_t i = 0; i < t->nindexes; i++) {
		const ddbc_index *ix = t->indexes[i];
		if (!ddbc_lib_entity_in(e, ix))
			continue;
		ddbc_strbuf_addstr(sb, "                ");
		ddbc_lib_ts_str(sb, ix->name.s);
		ddbc_strbuf_addstr(sb, ": {\n");
		if (ix->kind != DDBC_INDEX_PRIMARY) {
			ddbc_strbuf_addstr(sb, "                    index: ");
			ddbc_lib_ts_str(sb, ix->name.s);
			ddbc_strbuf_addstr(sb, ",\n");
		}
		if (ix->npk > 1 || ix->nsk > 1) {
			multi_key(w, ix, &keys[at]);
		} else {
			key(w, "pk", &keys[at]);
			if (ix->nsk)
				key(w, "sk", &keys[at + 1]);
		}
		at += ix->npk + ix->nsk;
		ddbc_strbuf_addstr(sb, "                },\n");
	}
	ddbc_strbuf_addstr(sb, "            },\n        }, { client, table }),\n");
	return true;
}

/* A name for the table's function: its name in camelCase when that is an
 * ASCII identifier, else table<N>; "Service" follows. */
static const char *service_name(writer *w, const ddbc_table *t, size_t n)
{
	strbuf id = STRBUF_INIT;
	bool up = false;
	for (const char *p = t->name.s; *p; p++) {
		char c = *p;
		bool alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
		if (!alnum) {
			up = true;
			continue;
		}
		if (up && id.len && c >= 'a' && c <= 'z')
			c = (char)(c - 'a' + 'A');
		ddbc_strbuf_addch(&id, c);
		up = false;
	}
	const char *s = ddbc_lib_ts_ident(w->arena, ddbc_strbuf_str(&id), "Service", "table", n);
	ddbc_strbuf_release(&id);
	if (strncmp(s, "table", 5) == 0 && strcmp(s + strlen(s) - 7, "Service") != 0)
		s = ddbc_arena_printf(w->arena, "%sService", s);
	return s;
}

static bool head(writer *w)
{
	strbuf *sb = &w->sb;
	ddbc_strbuf_addstr(sb, "// ElectroDB (3.x) entities and services of the design ");
	ddbc_lib_ts_str(sb, w->g->name.s ? w->g->name.s : "");
	ddbc_strbuf_addstr(sb, ",\n// written by `ddbc export --format electrodb`: edit the design, "
		      "not this file.\n");
	ddbc_strbuf_addstr(sb, "import { Entity, Service } from \"electrodb\";\n"
		      "import type { EntityConfiguration } from \"electrodb\";\n\n"
		      "/** The client ElectroDB takes: a DynamoDBDocumentClient "
		      "(@aws-sdk/lib-dynamodb). */\n"
		      "export type Client = NonNullable<EntityConfiguration[\"client\"]>;\n");
	return true;
}

ddbc_emit_result ddbc_emit_electrodb(FILE *out, const ddbc_design *g, const ddbc_export_opts *o,
				     ddbc_diags *d)
{
	(void)d;
	writer w = { .sb = STRBUF_INIT, .arena = ddbc_arena_new(), .g = g,
		     .err = o ? o->err : NULL };
	bool ok = head(&w);
	const char **names = ddbc_arena_array(w.arena, g->ntables + 1, sizeof *names);
	for (size_t i = 0; ok && i < g->ntables; i++) {
		const ddbc_table *t = &g->tables[i];
		ok = ddbc_lib_table_ok(&ddbc_electrodb_caps, t, w.err);
		if (!ok || !t->nentities)
			continue;
		const char *name = service_name(&w, t, i);
		for (size_t j = 0; j < i; j++)
			if (names[j] && strcmp(names[j], name) == 0)
				name = ddbc_arena_printf(w.arena, "table%zuService", i);
		names[i] = name;
		ddbc_strbuf_addstr(&w.sb, "\n/** The table ");
		ddbc_lib_ts_str(&w.sb, t->name.s);
		ddbc_strbuf_addf(&w.sb, " and its entities. */\nexport function %s(client?: Client, "
			    "table: string = ", name);
		ddbc_lib_ts_str(&w.sb, t->name.s);
		ddbc_strbuf_addstr(&w.sb, ") {\n    return new Service({\n");
		for (size_t j = 0; ok && j < t->nentities; j++)
			ok = entity(&w, t->entities[j]);
		ddbc_strbuf_addstr(&w.sb, "    }, { client, table });\n}\n");
	}
	if (ok)
		ddbc_electrodb_patterns(&w, names);
	/* Every table's function by the table's name: one entry point. */
	ddbc_strbuf_addstr(&w.sb, "\n/** Each table's function, by the table's name. */\n"
		      "export const services = {\n");
	for (size_t i = 0; ok && i < g->ntables; i++) {
		if (!names[i])
			continue;
		ddbc_strbuf_addstr(&w.sb, "    ");
		ddbc_lib_ts_str(&w.sb, g->tables[i].name.s);
		ddbc_strbuf_addf(&w.sb, ": %s,\n", names[i]);
	}
	ddbc_strbuf_addstr(&w.sb, "};\n");
	if (ok && w.pads)
		ddbc_strbuf_addstr(&w.sb, ddbc_lib_ts_pad);
	if (ok)
		fwrite(w.sb.buf, 1, w.sb.len, out);
	ddbc_strbuf_release(&w.sb);
	ddbc_arena_free(w.arena);
	if (!ok)
		return DDBC_EMIT_FAILED;
	/* A write error is the output's to say, with its reason (util/output.h). */
	return DDBC_EMIT_OK;
}
