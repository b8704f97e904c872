/* emit_toolbox.c - `ddbc export --format dynamodb-toolbox`: the design as
 * DynamoDB-Toolbox v2 Table and Entity definitions
 *
 * A TypeScript module: per table a function that returns its Table (its
 * key and indexes, multi-attribute GSI keys as partitionKeys/sortKeys),
 * and one that returns its entities. An entity's schema is item({...}) of
 * its plain attributes (typed, enums, .optional() unless required; the
 * parts of the table key's templates are .key()), and then, through
 * .and(), each attribute with a template as a linked attribute: a
 * function of the others that writes the template exactly, literals as
 * escaped string literals and :0WIDTH as padStart. The table key's
 * linked attributes are .key(). Timestamps are off: items hold what the
 * design says (and Toolbox's entity attribute, _et). Each Query pattern
 * is a TableAccessPattern (<table>Patterns), its key values written as
 * ddbc renders them.
 */
#include "emit/emit_keys_int.h"
#include "emit/emit_libs.h"
#include "model/request.h"
#include "model/semantics.h"
#include "util/error.h"

#include <string.h>

static const lib_caps caps = {
	.library = "DynamoDB-Toolbox", .format = "dynamodb-toolbox", .braced = false,
	.pad_numbers = true, .pad_text = true, .binary_keys = true, .multi_keys = true,
};

typedef struct writer {
	strbuf sb;
	ddbc_arena *arena;
	const ddbc_design *g;
	bool pads;
	ddbc_err *err;           /* why a key cannot be written (NULL: not kept) */
} writer;

static const char *key_type(ddbc_type t)
{
	return t == DDBC_TYPE_N ? "number" : t == DDBC_TYPE_B ? "binary" : "string";
}

static const char *schema_of(ddbc_type t)
{
	switch (t) {
	case DDBC_TYPE_S: return "string()";
	case DDBC_TYPE_N: return "number()";
	case DDBC_TYPE_B: return "binary()";
	case DDBC_TYPE_BOOL: return "boolean()";
	case DDBC_TYPE_NULL: return "nul()";
	case DDBC_TYPE_SS: return "set(string())";
	case DDBC_TYPE_NS: return "set(number())";
	case DDBC_TYPE_BS: return "set(binary())";
	default: return "any()";
	}
}

static void key_def(strbuf *sb, const ddbc_table *t, const char *name)
{
	ddbc_strbuf_addstr(sb, "{ name: ");
	ddbc_lib_ts_str(sb, name);
	ddbc_strbuf_addf(sb, ", type: \"%s\" }", key_type(ddbc_table_key_type(t, name)));
}

static void keys_def(strbuf *sb, const ddbc_table *t, const char *one, const char *many,
		     const ddbc_name *names, size_t n)
{
	if (n == 1) {
		ddbc_strbuf_addf(sb, ", %s: ", one);
		key_def(sb, t, names[0].s);
		return;
	}
	ddbc_strbuf_addf(sb, ", %s: [", many);
	for (size_t i = 0; i < n; i++) {
		ddbc_strbuf_addstr(sb, i ? ", " : "");
		key_def(sb, t, names[i].s);
	}
	ddbc_strbuf_addstr(sb, "]");
}

static void table(writer *w, const ddbc_table *t, const char *fn)
{
	strbuf *sb = &w->sb;
	ddbc_strbuf_addstr(sb, "\n/** The table ");
	ddbc_lib_ts_str(sb, t->name.s);
	ddbc_strbuf_addf(sb, ". */\nexport function %sTable(documentClient?: DynamoDBDocumentClient, "
		    "name: string = ", fn);
	ddbc_lib_ts_str(sb, t->name.s);
	ddbc_strbuf_addstr(sb, ") {\n    return new Table({\n        name, documentClient,\n"
		      "        partitionKey: ");
	key_def(sb, t, t->primary.pk[0].s);
	if (t->primary.nsk) {
		ddbc_strbuf_addstr(sb, ",\n        sortKey: ");
		key_def(sb, t, t->primary.sk[0].s);
	}
	ddbc_strbuf_addstr(sb, ",\n        indexes: {\n");
	for (size_t i = 0; i < t->nindexes; i++) {
		const ddbc_index *ix = t->indexes[i];
		if (ix->kind == DDBC_INDEX_PRIMARY)
			continue;
		ddbc_strbuf_addstr(sb, "            ");
		ddbc_lib_ts_str(sb, ix->name.s);
		if (ix->kind == DDBC_INDEX_LSI) {
			ddbc_strbuf_addstr(sb, ": { type: \"local\"");
		} else {
			ddbc_strbuf_addstr(sb, ": { type: \"global\"");
			keys_def(sb, t, "partitionKey", "partitionKeys", ix->pk, ix->npk);
		}
		if (ix->nsk)
			keys_def(sb, t, "sortKey", "sortKeys", ix->sk, ix->nsk);
		ddbc_strbuf_addstr(sb, " },\n");
	}
	ddbc_strbuf_addstr(sb, "        },\n    });\n}\n");
}

/* A table key attribute, or a part of a table key's template: Toolbox
 * links the key in its key mode, which sees only .key() attributes. */
static bool table_key_part(const lib_parts *parts, const ddbc_entity *e, const ddbc_attr *a)
{
	return ddbc_index_has_key(&e->table->primary, a->name.s) ||
	       (parts->flags[a - e->attrs] & LIB_TABLE_KEY_PART);
}

static void plain(writer *w, const ddbc_entity *e, const lib_parts *parts, const ddbc_attr *a)
{
	strbuf *sb = &w->sb;
	ddbc_strbuf_addstr(sb, "        ");
	ddbc_lib_ts_str(sb, a->name.s);
	ddbc_strbuf_addf(sb, ": %s", schema_of(a->type));
	if (a->type == DDBC_TYPE_S && a->more->nenum) {
		ddbc_strbuf_addstr(sb, ".enum(");
		for (uint32_t i = 0; i < a->more->nenum; i++) {
			const ddbc_node *v = a->more->enum_values[i];
			ddbc_strbuf_addstr(sb, i ? ", " : "");
			if (v->kind == DDBC_NODE_SCALAR)
				ddbc_lib_ts_string(sb, v->u.text, v->n);
			else
				ddbc_strbuf_addstr(sb, "\"\"");
		}
		ddbc_strbuf_addstr(sb, ")");
	}
	bool key = table_key_part(parts, e, a);
	if (key)
		ddbc_strbuf_addstr(sb, ".key()");
	else if (!ddbc_lib_required(parts, a))
		ddbc_strbuf_addstr(sb, ".optional()");
	ddbc_strbuf_addstr(sb, ",\n");
}

/* An item may lack a sparse key attribute: it is written only when the
 * item holds every plain attribute that the keys of its indexes are made
 * of, so that the item is in those indexes whole or not at all. */
static bool sparse_guard(writer *w, const ddbc_entity *e, const ddbc_attr *a)
{
	const ddbc_table *t = e->table;
	size_t n = 0;
	for (size_t i = 0; i < t->nindexes; i++) {
		const ddbc_index *ix = t->indexes[i];
		if (!ddbc_lib_entity_in(e, ix) || !ddbc_index_has_key(ix, a->name.s))
			continue;
		for (size_t j = 0; j < ix->npk + ix->nsk; j++) {
			const ddbc_attr *ka = ddbc_lib_key_attr(e, ix, j);
			lib_key k;
			if (!ddbc_lib_key_of(w->arena, &caps, ka, &k, w->err))
				return false;
			for (size_t p = 0; p < (k.plain ? 1 : k.nparts); p++) {
				const ddbc_attr *leaf = k.plain ? ka : k.parts[p].attr;
				if (!leaf || leaf == a)
					continue;
				ddbc_strbuf_addstr(&w->sb, n++ ? " || i[" : "i[");
				ddbc_lib_ts_str(&w->sb, leaf->name.s);
				ddbc_strbuf_addstr(&w->sb, "] === undefined");
			}
		}
	}
	if (n)
		ddbc_strbuf_addstr(&w->sb, " ? undefined : ");
	return true;
}

static bool linked(writer *w, const ddbc_entity *e, const lib_parts *parts, const lib_key *k,
		   const char *id)
{
	strbuf *sb = &w->sb;
	ddbc_strbuf_addstr(sb, "        ");
	ddbc_lib_ts_str(sb, k->attr->name.s);
	ddbc_strbuf_addf(sb, ": %s", schema_of(k->attr->type == DDBC_TYPE_NONE ? DDBC_TYPE_S :
					   k->attr->type));
	if (table_key_part(parts, e, k->attr))
		ddbc_strbuf_addstr(sb, ".key()");
	ddbc_strbuf_addf(sb, "%s.link<typeof %s_base>((i) => ", ddbc_lib_sparse_key(k->attr) ?
		    ".optional()" : "", id);
	if (ddbc_lib_sparse_key(k->attr) && !sparse_guard(w, e, k->attr))
		return false;
	ddbc_lib_ts_concat(sb, k, "i[", &w->pads);
	ddbc_strbuf_addstr(sb, "),\n");
	return true;
}

static bool entity(writer *w, const ddbc_entity *e, size_t n)
{
	lib_parts parts;
	ddbc_lib_parts_of(w->arena, e, &parts);
	strbuf *sb = &w->sb;
	const char *id = ddbc_lib_ts_ident(w->arena, e->name.s, "Entity", "entity", n);
	ddbc_strbuf_addf(sb, "    const %s_base = item({\n", id);
	for (size_t i = 0; i < e->nattrs; i++) {
		const ddbc_attr *a = &e->attrs[i];
		if (!a->has_template && (ddbc_lib_stored(a) || ddbc_lib_is_composite(&parts, a)))
			plain(w, e, &parts, a);
	}
	ddbc_strbuf_addf(sb, "    });\n    const %s = new Entity({\n        name: ", id);
	ddbc_lib_ts_str(sb, e->name.s);
	size_t nlinked = 0;
	for (size_t i = 0; i < e->nattrs; i++)
		nlinked += e->attrs[i].has_template && ddbc_lib_stored(&e->attrs[i]);
	/* .and({}) would widen the schema's type to an index signature */
	if (!nlinked) {
		ddbc_strbuf_addf(sb, ", table, timestamps: false,\n        schema: %s_base,\n    });\n",
			    id);
		return true;
	}
	ddbc_strbuf_addf(sb, ", table, timestamps: false,\n        schema: %s_base.and({\n",
		    id);
	for (size_t i = 0; i < e->nattrs; i++) {
		const ddbc_attr *a = &e->attrs[i];
		lib_key k;
		if (!a->has_template || !ddbc_lib_stored(a))
			continue;
		if (!ddbc_lib_key_of(w->arena, &caps, a, &k, w->err))
			return false;
		ddbc_strbuf_addstr(sb, "    ");
		if (!linked(w, e, &parts, &k, id))
			return false;
	}
	ddbc_strbuf_addstr(sb, "        }),\n    });\n");
	return true;
}

static bool entities(writer *w, const ddbc_table *t, const char *fn)
{
	strbuf *sb = &w->sb;
	ddbc_strbuf_addf(sb, "\n/** The entities of the table %sTable returns. */\n"
		    "export function %sEntities(table: ReturnType<typeof %sTable>) {\n", fn, fn, fn);
	for (size_t i = 0; i < t->nentities; i++)
		if (!entity(w, t->entities[i], i))
			return false;
	ddbc_strbuf_addstr(sb, "    return {\n");
	for (size_t i = 0; i < t->nentities; i++) {
		ddbc_strbuf_addstr(sb, "        ");
		ddbc_lib_ts_str(sb, t->entities[i]->name.s);
		ddbc_strbuf_addf(sb, ": %s,\n",
			    ddbc_lib_ts_ident(w->arena, t->entities[i]->name.s, "Entity", "entity", i));
	}
	ddbc_strbuf_addstr(sb, "    };\n}\n");
	return true;
}

/* ---- access patterns: Toolbox's AccessPattern, a named query ------------- */

/* A parameter of the pattern: its name and whether the schema takes a
 * number (it fills a :0WIDTH or is a Number key's whole value). */
typedef struct tparam {
	const char *name;
	bool number;
} tparam;

static size_t param_at(ddbc_arena *arena, tparam *ps, size_t *n, const ddbc_segment *seg)
{
	for (size_t i = 0; i < *n; i++)
		if (strlen(ps[i].name) == seg->len && memcmp(ps[i].name, seg->text, seg->len) == 0)
			return i;
	ps[*n] = (tparam){ ddbc_arena_strndup(arena, seg->text, seg->len), false };
	return (*n)++;
}

/* The value as TypeScript over the parameters p; false when Toolbox's
 * query cannot take it (a Number key's value other than a plain number or
 * one parameter, a Binary key). */
static bool value_code(writer *w, strbuf *sb, const ddbc_req_value *v, ddbc_type type,
		       tparam *ps, size_t *np)
{
	if (type == DDBC_TYPE_B)
		return false;
	if (!v->is_template) {
		if (type != DDBC_TYPE_N) {
			ddbc_lib_ts_string(sb, v->text, v->len);
			return true;
		}
		size_t i = v->len && v->text[0] == '-', digits = 0;
		for (; i < v->len && v->text[i] >= '0' && v->text[i] <= '9'; i++)
			digits++;
		if (!digits || digits > 15 || i != v->len)
			return false;
		ddbc_strbuf_add(sb, v->text, v->len);
		return true;
	}
	if (type == DDBC_TYPE_N) {
		if (v->tpl.nsegs != 1 || v->tpl.segs[0].kind != DDBC_SEG_PLACEHOLDER ||
		    v->tpl.segs[0].width)
			return false;
		size_t at = param_at(w->arena, ps, np, &v->tpl.segs[0]);
		ps[at].number = true;
		ddbc_strbuf_addstr(sb, "p[");
		ddbc_lib_ts_str(sb, ps[at].name);
		ddbc_strbuf_addstr(sb, "]");
		return true;
	}
	if (!v->tpl.nsegs)
		ddbc_strbuf_addstr(sb, "\"\"");
	for (size_t i = 0; i < v->tpl.nsegs; i++) {
		const ddbc_segment *seg = &v->tpl.segs[i];
		ddbc_strbuf_addstr(sb, i ? " + " : "");
		if (seg->kind != DDBC_SEG_PLACEHOLDER) {
			ddbc_lib_ts_string(sb, seg->text, seg->len);
			continue;
		}
		size_t at = param_at(w->arena, ps, np, seg);
		if (seg->width) {
			ps[at].number = true;
			w->pads = true;
		}
		ddbc_strbuf_addstr(sb, seg->width ? "pad_(p[" : "String(p[");
		ddbc_lib_ts_str(sb, ps[at].name);
		if (seg->width)
			ddbc_strbuf_addf(sb, "], %u)", seg->width);
		else
			ddbc_strbuf_addstr(sb, "])");
	}
	return true;
}

static const char *range_op(ddbc_cond_op op)
{
	switch (op) {
	case DDBC_COND_EQ: return "eq";
	case DDBC_COND_LT: return "lt";
	case DDBC_COND_LE: return "lte";
	case DDBC_COND_GT: return "gt";
	case DDBC_COND_GE: return "gte";
	case DDBC_COND_BETWEEN: return "between";
	default: return "beginsWith";
	}
}

/* The pattern's query object (its index, partition and range), or why
 * Toolbox's access pattern cannot be it. */
static const char *query_of(writer *w, strbuf *q, const ddbc_request *r, tparam *ps, size_t *np)
{
	const ddbc_index *ix = r->index;
	if (r->op != DDBC_OP_QUERY)
		return NULL; /* not a query: no access pattern, nothing to say */
	if (ix->npk != 1 || ix->nsk > 1)
		return "its index has a multi-attribute key";
	if (r->pattern->nconds != r->nconds)
		return "a condition on an attribute that is not its index's key";
	const ddbc_req_cond *pc = ddbc_request_cond(r, ix->pk[0].s);
	const ddbc_req_cond *sc = ix->nsk ? ddbc_request_cond(r, ix->sk[0].s) : NULL;
	if (!pc || pc->op != DDBC_COND_EQ || pc->nvalues != 1)
		return "no equality on the partition key";
	ddbc_strbuf_addstr(q, "({ ");
	if (ix->kind != DDBC_INDEX_PRIMARY) {
		ddbc_strbuf_addstr(q, "index: ");
		ddbc_lib_ts_str(q, ix->name.s);
		ddbc_strbuf_addstr(q, ", ");
	}
	ddbc_strbuf_addstr(q, "partition: ");
	if (!value_code(w, q, &pc->values[0], pc->type, ps, np))
		return "a partition key value Toolbox's query cannot take";
	if (sc) {
		ddbc_strbuf_addf(q, ", range: { %s: ", range_op(sc->op));
		if (sc->op == DDBC_COND_BETWEEN) {
			ddbc_strbuf_addstr(q, "[");
			if (sc->nvalues != 2 || !value_code(w, q, &sc->values[0], sc->type, ps, np))
				return "a sort key value Toolbox's query cannot take";
			ddbc_strbuf_addstr(q, ", ");
			if (!value_code(w, q, &sc->values[1], sc->type, ps, np))
				return "a sort key value Toolbox's query cannot take";
			ddbc_strbuf_addstr(q, "]");
		} else if (sc->nvalues != 1 || !value_code(w, q, &sc->values[0], sc->type, ps, np)) {
			return "a sort key value Toolbox's query cannot take";
		}
		ddbc_strbuf_addstr(q, " }");
	}
	ddbc_strbuf_addstr(q, " })");
	return NULL;
}

/* The entity's attributes that index ix projects: what Toolbox formats
 * of the items it returns (it would refuse the others' absence). */
static void projected(writer *w, const ddbc_entity *e, const ddbc_index *ix)
{
	const ddbc_table *t = e->table;
	strbuf *sb = &w->sb;
	size_t n = 0;
	ddbc_strbuf_addstr(sb, ", attributes: [");
	for (size_t i = 0; i < e->nattrs; i++) {
		const ddbc_attr *a = &e->attrs[i];
		bool in = ddbc_index_has_key(&t->primary, a->name.s) ||
			  ddbc_index_has_key(ix, a->name.s);
		for (size_t j = 0; !in && ix->projection == DDBC_PROJ_INCLUDE && j < ix->ninclude; j++)
			in = strcmp(ix->include[j].s, a->name.s) == 0;
		if (!in || !ddbc_lib_stored(a))
			continue;
		ddbc_strbuf_addstr(sb, n++ ? ", " : "");
		ddbc_lib_ts_str(sb, a->name.s);
	}
	ddbc_strbuf_addstr(sb, "]");
}

static void pattern(writer *w, const ddbc_pattern *p)
{
	strbuf *sb = &w->sb;
	const ddbc_request *r = ddbc_pattern_request(p);
	if (!r || r->op != DDBC_OP_QUERY)
		return; /* Toolbox's access patterns are queries */
	strbuf q = STRBUF_INIT;
	tparam *ps = ddbc_arena_array(w->arena, 2 * (size_t)r->nparams + 8, sizeof *ps);
	size_t np = 0;
	const char *why = p->nmatched ? query_of(w, &q, r, ps, &np) : "it returns no entity's items";
	const ddbc_index *ix = r->index;
	/* Toolbox tells entities apart by _et, which an index that does not
	 * project all leaves out: there it queries one entity, unfiltered. */
	bool unfiltered = ix->kind != DDBC_INDEX_PRIMARY && ix->projection != DDBC_PROJ_ALL;
	if (!why && unfiltered && p->nmatched > 1)
		why = "its index does not project Toolbox's entity attribute, and it returns "
		      "items of several entities";
	if (why) {
		ddbc_strbuf_addstr(sb, "        // ");
		ddbc_keys_comment(sb, p->id.s);
		ddbc_strbuf_addf(sb, ": left out, %s\n", why);
		ddbc_strbuf_release(&q);
		return;
	}
	ddbc_strbuf_addstr(sb, "        ");
	ddbc_lib_ts_str(sb, p->id.s);
	ddbc_strbuf_addstr(sb, ": table.build(TableAccessPattern).entities(");
	for (uint32_t i = 0; i < p->nmatched; i++) {
		ddbc_strbuf_addstr(sb, i ? ", " : "");
		ddbc_strbuf_addstr(sb, "entities[");
		ddbc_lib_ts_str(sb, p->matched[i]->name.s);
		ddbc_strbuf_addstr(sb, "]");
	}
	ddbc_strbuf_addstr(sb, ")");
	if (np) {
		ddbc_strbuf_addstr(sb, "\n            .schema(map({ ");
		for (size_t i = 0; i < np; i++) {
			ddbc_strbuf_addstr(sb, i ? ", " : "");
			ddbc_lib_ts_str(sb, ps[i].name);
			/* a template's text takes a string or a number alike */
			ddbc_strbuf_addstr(sb, ps[i].number ? ": number()" : ": anyOf(string(), number())");
		}
		ddbc_strbuf_addstr(sb, " }))");
	}
	ddbc_strbuf_addf(sb, "\n            .pattern((%s) => %s)\n            .options({ maxPages: Infinity%s%s",
		    np ? "p" : "", ddbc_strbuf_str(&q), unfiltered ? ", entityAttrFilter: false" : "",
		    r->order < 0 ? ", reverse: true" : "");
	if (unfiltered)
		projected(w, p->matched[0], ix);
	ddbc_strbuf_addstr(sb, " }),\n");
	ddbc_strbuf_release(&q);
}

static void patterns(writer *w, const ddbc_table *t, const char *fn)
{
	ddbc_strbuf_addf(&w->sb, "\n/** The read access patterns on the table that are queries, as Toolbox's "
		    "AccessPattern:\n * patterns.NAME.query(parameters).send(). */\n"
		    "export function %sPatterns(table: ReturnType<typeof %sTable>, "
		    "entities: ReturnType<typeof %sEntities>) {\n    return {\n", fn, fn, fn);
	for (size_t i = 0; i < w->g->npatterns; i++) {
		const ddbc_pattern *p = &w->g->patterns[i];
		if (p->analysed && p->table == t)
			pattern(w, p);
	}
	ddbc_strbuf_addstr(&w->sb, "    };\n}\n");
}

/* The table's functions' stem: its name in camelCase when that is an
 * ASCII identifier, else table<N>. */
static const char *stem(writer *w, const ddbc_table *t, size_t n)
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
	if (id.len && id.buf[0] >= 'A' && id.buf[0] <= 'Z')
		id.buf[0] = (char)(id.buf[0] - 'A' + 'a');
	const char *s = ddbc_lib_ts_ident(w->arena, ddbc_strbuf_str(&id), "", "table", n);
	ddbc_strbuf_release(&id);
	return s;
}

ddbc_emit_result ddbc_emit_toolbox(FILE *out, const ddbc_design *g, const ddbc_export_opts *o,
				   ddbc_diags *d)
{
	(void)d;
	writer w = { .sb = STRBUF_INIT, .arena = ddbc_arena_new(), .g = g,
		     .err = o ? o->err : NULL };
	ddbc_strbuf_addstr(&w.sb, "// DynamoDB-Toolbox (v2) tables and entities of the design ");
	ddbc_lib_ts_str(&w.sb, g->name.s ? g->name.s : "");
	ddbc_strbuf_addstr(&w.sb, ",\n// written by `ddbc export --format dynamodb-toolbox`: edit the "
		      "design, not this file.\n"
		      "import { Table, Entity, TableAccessPattern, item, map, anyOf, string, number, binary, boolean, "
		      "nul, set, any }\n    from \"dynamodb-toolbox\";\n"
		      "import type { DynamoDBDocumentClient } from \"@aws-sdk/lib-dynamodb\";\n");
	const char **stems = ddbc_arena_array(w.arena, g->ntables + 1, sizeof *stems);
	bool ok = true;
	for (size_t i = 0; ok && i < g->ntables; i++) {
		const ddbc_table *t = &g->tables[i];
		const char *s = stem(&w, t, i);
		for (size_t j = 0; j < i; j++)
			if (strcmp(stems[j], s) == 0)
				s = ddbc_arena_printf(w.arena, "table%zu", i);
		stems[i] = s;
		table(&w, t, s);
		ok = entities(&w, t, s);
		if (ok)
			patterns(&w, t, s);
	}
	ddbc_strbuf_addstr(&w.sb, "\n/** Each table's functions, by the table's name. */\n"
		      "export const tables = {\n");
	for (size_t i = 0; ok && i < g->ntables; i++) {
		ddbc_strbuf_addstr(&w.sb, "    ");
		ddbc_lib_ts_str(&w.sb, g->tables[i].name.s);
		ddbc_strbuf_addf(&w.sb, ": { table: %sTable, entities: %sEntities, patterns: %sPatterns },\n",
			    stems[i], stems[i], stems[i]);
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
