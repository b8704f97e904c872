/* emit_electrodb_patterns.c - the design's access patterns as ElectroDB
 * queries (the `patterns` object of `ddbc export --format electrodb`)
 *
 * ElectroDB queries an entity through one of its indexes (its "access
 * patterns") with the composite attributes of the keys: the partition
 * key's all, the sort key's all (equality, gt, between, ...) or a first
 * few (begins_with). A ddbc pattern becomes, per entity it can return
 * (p->matched), that entity's query, when each key condition's value is
 * the entity's key template with the pattern's parameters in place of
 * the attributes (literal for literal, width for width), or, for
 * begins_with, its first parts up to a parameter. A pattern that is not
 * so is left out, a comment saying why. A GetItem is the entity's get, a
 * Scan its scan.
 */
#include "emit/emit_electrodb_int.h"
#include "model/request.h"
#include "model/semantics.h"

#include <string.h>

/* One element of a template with adjacent literals merged. */
typedef struct elem {
	const char *text;        /* a literal, or the placeholder's name */
	size_t len;
	const ddbc_attr *attr;   /* the key's placeholder: the attribute */
	unsigned width;
	bool ph;
} elem;

#define MAX_ELEMS 64

static size_t push(elem *out, size_t n, elem e)
{
	if (!e.ph && n && !out[n - 1].ph && out[n - 1].text + out[n - 1].len == e.text) {
		out[n - 1].len += e.len;
		return n;
	}
	if (!e.ph && !e.len)
		return n;
	if (!e.ph && n && !out[n - 1].ph)
		return MAX_ELEMS + 1; /* literals from two templates: not merged, not aligned */
	return n < MAX_ELEMS ? (out[n] = e, n + 1) : MAX_ELEMS + 1;
}

static size_t key_elems(const lib_key *k, elem *out)
{
	size_t n = 0;
	if (k->plain)
		return push(out, 0, (elem){ .text = k->attr->name.s, .attr = k->attr, .ph = true });
	for (size_t i = 0; i < k->nparts && n <= MAX_ELEMS; i++) {
		const lib_part *p = &k->parts[i];
		n = push(out, n, p->attr ? (elem){ .text = p->attr->name.s, .attr = p->attr,
						   .width = p->width, .ph = true }
					 : (elem){ .text = p->text, .len = p->len });
	}
	return n;
}

static size_t value_elems(ddbc_arena *arena, const ddbc_req_value *v, elem *out)
{
	if (!v->is_template)
		return push(out, 0, (elem){ .text = v->text, .len = v->len });
	size_t n = 0;
	for (size_t i = 0; i < v->tpl.nsegs && n <= MAX_ELEMS; i++) {
		const ddbc_segment *s = &v->tpl.segs[i];
		bool ph = s->kind == DDBC_SEG_PLACEHOLDER;
		/* a placeholder's name: NUL-terminated, for the parameter's */
		n = push(out, n, (elem){ .text = ph ? ddbc_arena_strndup(arena, s->text, s->len)
						   : s->text,
					 .len = s->len, .width = s->width, .ph = ph });
	}
	return n;
}

/* The attributes' values, as parameter names, when value v is key k's
 * template (prefix: its first elements, ending at a parameter or at a
 * literal the key has whole); the number of composites, or -1. */
/* A constant value as TypeScript code, marked by a leading \1 where a
 * parameter's name would be: a Number as a number literal (plain decimal
 * only, which JavaScript reads exactly), else a string literal. */
static const char *constant(ddbc_arena *arena, const ddbc_attr *a, const ddbc_req_value *v)
{
	strbuf sb = STRBUF_INIT;
	ddbc_strbuf_addch(&sb, '\1');
	if (a->type == DDBC_TYPE_N) {
		size_t i = v->len && v->text[0] == '-', digits = 0;
		for (; i < v->len && v->text[i] >= '0' && v->text[i] <= '9'; i++)
			digits++;
		if (!digits || digits > 15 || i != v->len) {
			ddbc_strbuf_release(&sb);
			return NULL;
		}
		ddbc_strbuf_add(&sb, v->text, v->len);
	} else {
		ddbc_lib_ts_string(&sb, v->text, v->len);
	}
	const char *code = ddbc_arena_strdup(arena, ddbc_strbuf_str(&sb));
	ddbc_strbuf_release(&sb);
	return code;
}

static int align(ddbc_arena *arena, const lib_key *k, const ddbc_req_value *v, bool prefix,
		 const char **params, const ddbc_attr **attrs)
{
	if (k->plain && !v->is_template) {
		/* a constant for an attribute that is the key itself */
		const char *code = constant(arena, k->attr, v);
		if (!code)
			return -1;
		attrs[0] = k->attr;
		params[0] = code;
		return 1;
	}
	elem ke[MAX_ELEMS], ve[MAX_ELEMS];
	size_t nk = key_elems(k, ke), nv = value_elems(arena, v, ve);
	if (nk > MAX_ELEMS || nv > MAX_ELEMS || nv > nk || (!prefix && nv != nk))
		return -1;
	int m = 0;
	for (size_t i = 0; i < nv; i++) {
		if (ke[i].ph != ve[i].ph || ke[i].width != ve[i].width)
			return -1;
		if (!ke[i].ph && (ke[i].len != ve[i].len || memcmp(ke[i].text, ve[i].text, ke[i].len)))
			return -1;
		if (ke[i].ph) {
			attrs[m] = ke[i].attr;
			params[m++] = ve[i].text;
		}
	}
	return m;
}

static void enum_type(strbuf *sb, const ddbc_attr *a)
{
	for (uint32_t i = 0; i < a->more->nenum; i++) {
		const ddbc_node *v = a->more->enum_values[i];
		ddbc_strbuf_addstr(sb, i ? " | " : "");
		if (v->kind == DDBC_NODE_SCALAR)
			ddbc_lib_ts_string(sb, v->u.text, v->n);
		else
			ddbc_strbuf_addstr(sb, "\"\"");
	}
}

static void composites(strbuf *sb, const char **params, const ddbc_attr **attrs, int n)
{
	ddbc_strbuf_addstr(sb, "{ ");
	for (int i = 0; i < n; i++) {
		ddbc_strbuf_addstr(sb, i ? ", " : "");
		ddbc_lib_ts_str(sb, attrs[i]->name.s);
		if (params[i][0] == '\1') {
			ddbc_strbuf_addf(sb, ": %s", params[i] + 1);
			continue;
		}
		ddbc_strbuf_addstr(sb, ": p[");
		ddbc_lib_ts_str(sb, params[i]);
		ddbc_strbuf_addstr(sb, "]");
		/* a parameter of several entities' enums is any of their values */
		if (attrs[i]->type == DDBC_TYPE_S && attrs[i]->more->nenum) {
			ddbc_strbuf_addstr(sb, " as ");
			enum_type(sb, attrs[i]);
		}
	}
	ddbc_strbuf_addstr(sb, " }");
}

static const char *range_method(ddbc_cond_op op)
{
	switch (op) {
	case DDBC_COND_LT: return "lt";
	case DDBC_COND_LE: return "lte";
	case DDBC_COND_GT: return "gt";
	case DDBC_COND_GE: return "gte";
	case DDBC_COND_BETWEEN: return "between";
	case DDBC_COND_BEGINS_WITH: return "begins";
	default: return NULL;
	}
}

/* The parameters' types, from the attributes they stand for. */
typedef struct param_type {
	const char *name;
	const ddbc_attr *attr;
	bool mixed;              /* it stands for attributes of several entities */
} param_type;

static void note(param_type *pt, size_t *npt, const char **params, const ddbc_attr **attrs,
		 int n)
{
	for (int i = 0; i < n; i++) {
		size_t j = 0;
		if (params[i][0] == '\1')
			continue; /* a constant */
		while (j < *npt && strcmp(pt[j].name, params[i]) != 0)
			j++;
		if (j == *npt && j < MAX_ELEMS * 4)
			pt[(*npt)++] = (param_type){ params[i], attrs[i], false };
		else if (j < *npt && pt[j].attr != attrs[i])
			pt[j].mixed = true;
	}
}

static bool ends_in_param(const ddbc_req_value *v)
{
	return v->is_template && v->tpl.nsegs &&
	       v->tpl.segs[v->tpl.nsegs - 1].kind == DDBC_SEG_PLACEHOLDER;
}

/* Entity e's query for r, appended to q; NULL, or why not (a key the
 * library cannot hold is said in err too). */
static const char *query(ddbc_arena *arena, strbuf *q, const ddbc_entity *e, const ddbc_request *r,
			 param_type *pt, size_t *npt, ddbc_err *err)
{
	const ddbc_index *ix = r->index;
	const char *params[2 * MAX_ELEMS];
	const ddbc_attr *attrs[2 * MAX_ELEMS];
	ddbc_strbuf_addstr(q, "svc.entities[");
	ddbc_lib_ts_str(q, e->name.s);
	if (r->op == DDBC_OP_SCAN) {
		ddbc_strbuf_addstr(q, "].scan.go({ pages: \"all\", data: \"includeKeys\" })");
		return NULL;
	}
	if (!ddbc_lib_entity_in(e, ix))
		return "the entity is not in its index";
	if (ix->npk != 1 || ix->nsk > 1)
		return "its index has a multi-attribute key (ElectroDB's composite index: its "
		       "query is not written here)";
	lib_key pk, sk;
	if (!ddbc_lib_key_of(arena, &ddbc_electrodb_caps, ddbc_lib_key_attr(e, ix, 0), &pk, err) ||
	    (ix->nsk && !ddbc_lib_key_of(arena, &ddbc_electrodb_caps, ddbc_lib_key_attr(e, ix, 1),
					 &sk, err)))
		return "a key ElectroDB cannot hold";
	/* ElectroDB tells its entities' items apart by attributes of its own,
	 * which an index that does not project all leaves out: there it
	 * must not look for them, and so can query one entity only. */
	const char *own = "";
	if (ix->kind != DDBC_INDEX_PRIMARY && ix->projection != DDBC_PROJ_ALL) {
		if (r->pattern->nmatched > 1)
			return "its index does not project ElectroDB's entity attributes, and it "
			       "returns items of several entities";
		own = ", ignoreOwnership: true";
	}
	const ddbc_req_cond *pc = ddbc_request_cond(r, ix->pk[0].s);
	const ddbc_req_cond *sc = ix->nsk ? ddbc_request_cond(r, ix->sk[0].s) : NULL;
	if (!pc || pc->op != DDBC_COND_EQ || pc->nvalues != 1)
		return "no equality on the partition key";
	int n = align(arena, &pk, &pc->values[0], false, params, attrs);
	if (n < 0)
		return "its partition key value is not the entity's template";
	int ns = 0, ns2 = -1;
	const char *method = NULL;
	if (sc) {
		method = sc->op == DDBC_COND_EQ ? NULL : range_method(sc->op);
		bool prefix = sc->op == DDBC_COND_BEGINS_WITH;
		ns = sc->nvalues ? align(arena, &sk, &sc->values[0], prefix, params + n, attrs + n) : -1;
		if (sc->op == DDBC_COND_BETWEEN)
			ns2 = sc->nvalues == 2 ? align(arena, &sk, &sc->values[1], false, params + n + ns,
							attrs + n + ns) : -1;
		if (ns < 0 || (sc->op == DDBC_COND_BETWEEN && ns2 < 0))
			return "its sort key value is not the entity's template (or a first part of it)";
	}
	note(pt, npt, params, attrs, n + ns + (ns2 > 0 ? ns2 : 0));
	if (r->op == DDBC_OP_GET) {
		if (!sc && ix->nsk)
			return "a GetItem without the sort key";
		ddbc_strbuf_addstr(q, "].get(");
		composites(q, params, attrs, n + ns);
		ddbc_strbuf_addf(q, ").go({ data: \"includeKeys\"%s })", own);
		return NULL;
	}
	ddbc_strbuf_addstr(q, "].query[");
	ddbc_lib_ts_str(q, ix->name.s);
	ddbc_strbuf_addstr(q, "](");
	/* begins_with on the first few composites whole (the value ends in
	 * a literal): ElectroDB's own partial sort key; else (the last
	 * parameter is the start of a value) and a range: the partition
	 * key's composites, then the method with the sort key's. */
	if (!method || (sc->op == DDBC_COND_BEGINS_WITH && !ends_in_param(&sc->values[0]))) {
		composites(q, params, attrs, n + ns);
		ddbc_strbuf_addf(q, ").go({ pages: \"all\", data: \"includeKeys\"%s })", own);
		return NULL;
	}
	composites(q, params, attrs, n);
	ddbc_strbuf_addf(q, ").%s(", method);
	composites(q, params + n, attrs + n, ns);
	if (ns2 >= 0) {
		ddbc_strbuf_addstr(q, ", ");
		composites(q, params + n + ns, attrs + n + ns, ns2);
	}
	ddbc_strbuf_addf(q, ").go({ pages: \"all\", data: \"includeKeys\"%s })", own);
	return NULL;
}

/* The attribute's type in ElectroDB: its enum's values, as the entity
 * declares them. */
static void param_type_of(strbuf *sb, const ddbc_attr *a, bool mixed)
{
	if (a->type == DDBC_TYPE_N) {
		ddbc_strbuf_addstr(sb, ": number");
		return;
	}
	if (!a->more->nenum || mixed) {
		ddbc_strbuf_addstr(sb, ": string");
		return;
	}
	ddbc_strbuf_addstr(sb, ": ");
	enum_type(sb, a);
}

static void pattern(electrodb_writer *w, const ddbc_pattern *p, const char *service)
{
	strbuf *sb = &w->sb;
	const ddbc_request *r = ddbc_pattern_request(p);
	strbuf q = STRBUF_INIT;
	param_type pt[MAX_ELEMS * 4];
	size_t npt = 0;
	const char *why = NULL;
	if (!r || !r->reads)
		return; /* a write is no query */
	if (!p->nmatched)
		why = "it returns no entity's items";
	for (uint32_t i = 0; !why && i < p->nmatched; i++) {
		ddbc_strbuf_addstr(&q, i ? ",\n        ...items_(await " : "        ...items_(await ");
		why = query(w->arena, &q, p->matched[i], r, pt, &npt, w->err);
		ddbc_strbuf_addstr(&q, ")");
	}
	if (why) {
		ddbc_strbuf_addstr(sb, "    // ");
		ddbc_keys_comment(sb, p->id.s);
		ddbc_strbuf_addf(sb, ": left out, %s\n", why);
		ddbc_strbuf_release(&q);
		return;
	}
	ddbc_strbuf_addstr(sb, "    ");
	ddbc_lib_ts_str(sb, p->id.s);
	ddbc_strbuf_addf(sb, ": async (svc: ReturnType<typeof %s>, p: { ", service);
	for (size_t i = 0; i < npt; i++) {
		ddbc_strbuf_addstr(sb, i ? ", " : "");
		ddbc_lib_ts_str(sb, pt[i].name);
		param_type_of(sb, pt[i].attr, pt[i].mixed);
	}
	ddbc_strbuf_addf(sb, "%s}): Promise<unknown[]> => [\n%s,\n    ],\n", npt ? " " : "",
		    ddbc_strbuf_str(&q));
	ddbc_strbuf_release(&q);
}

void ddbc_electrodb_patterns(electrodb_writer *w, const char **services)
{
	const ddbc_design *g = w->g;
	ddbc_strbuf_addstr(&w->sb, "\n/* What a query returns: its items, each with its key fields. */\n"
		      "function items_(r: { data: unknown }): unknown[] {\n"
		      "    return Array.isArray(r.data) ? r.data : r.data == null ? [] : [r.data];\n"
		      "}\n"
		      "\n/** Each read access pattern: ElectroDB's query of each entity it "
		      "returns, every page,\n * the items joined. */\n"
		      "export const patterns = {\n");
	for (size_t i = 0; i < g->npatterns; i++) {
		const ddbc_pattern *p = &g->patterns[i];
		if (!p->analysed || !p->table)
			continue;
		const char *service = services[p->table - g->tables];
		if (service)
			pattern(w, p, service);
	}
	ddbc_strbuf_addstr(&w->sb, "};\n");
}
