/* rules/templates.c - template-syntax, template-unknown-attribute, template-type,
 * template-cycle, unpadded-number-in-key, key-overlap
 *
 * The templates were parsed and linked by semantics.c; these checks only
 * read what it derived.
 */
#include "rules/checks.h"
#include "model/semantics.h"
#include "util/strbuf.h"
#include "util/strset.h"
#include "util/suggest.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* Calls fn for every attribute of every entity that has a template. */
static void each_templated(const ddbc_design *g, ddbc_diags *d,
			   void (*fn)(const ddbc_entity *, const ddbc_attr *, ddbc_diags *))
{
	for (size_t i = 0; i < g->nentities; i++) {
		const ddbc_entity *e = &g->entities[i];
		for (size_t k = 0; k < e->nattrs; k++)
			if (e->attrs[k].template.s)
				fn(e, &e->attrs[k], d);
	}
}

/* Whether a placeholder of a's template names no attribute. */
static bool has_unknown(const ddbc_attr *a)
{
	for (size_t k = 0; k < a->tpl.nsegs; k++)
		if (a->tpl.segs[k].kind == DDBC_SEG_PLACEHOLDER && !a->tpl.segs[k].ref)
			return true;
	return false;
}

/* ---- template-syntax ------------------------------------------------------- */

static void syntax(const ddbc_entity *e, const ddbc_attr *a, ddbc_diags *d)
{
	if (a->more->tpl_error)
		ddbc_diag_add(d, DDBC_RULE_TEMPLATE_SYNTAX, a->template.loc,
			      "bad template '%s' for '%s' in '%s': %s", a->template.s, a->name.s,
			      e->name.s, a->more->tpl_error);
}

void ddbc_check_template_syntax(const ddbc_design *g, ddbc_diags *d)
{
	each_templated(g, d, syntax);
}

/* ---- template-unknown-attribute ------------------------------------------------ */

/* "Did you mean" compares a name with every attribute of the entity: an
 * entity of thousands of attributes and as many unknown placeholders (a
 * generator gone wrong) would cost their product. The first ones of an
 * entity get a suggestion; the rest are reported without, so the check
 * stays linear in the entity's attributes. */
enum { MAX_SUGGESTED = 64 };

/* Reports a's placeholders that name no attribute; names holds the
 * entity's attribute names, made once per entity, for "did you mean";
 * *suggested counts the suggestions the entity had. */
static void unknown(const ddbc_entity *e, const ddbc_attr *a, const char **names,
		    size_t *suggested, ddbc_strset *seen, ddbc_diags *d)
{
	for (size_t k = 0; a->has_template && k < a->tpl.nsegs; k++) {
		const ddbc_segment *seg = &a->tpl.segs[k];
		if (seg->kind != DDBC_SEG_PLACEHOLDER || seg->ref)
			continue;
		/* One name is one mistake (an attribute misspelt or never
		 * defined): reported at its first use only. */
		size_t len = strlen(seg->text);
		if (ddbc_strset_get(seen, seg->text, len))
			continue;
		ddbc_strset_put(seen, seg->text, len);
		const char *hint = NULL;
		if (*suggested < MAX_SUGGESTED) {
			hint = ddbc_suggest(seg->text, names, e->nattrs);
			++*suggested;
		}
		ddbc_diag_add(d, DDBC_RULE_TEMPLATE_UNKNOWN_ATTRIBUTE, a->template.loc,
			      "placeholder '{%s}' in the template of '%s' names no attribute of "
			      "'%s'%s%s%s", seg->text, a->name.s, e->name.s,
			      hint ? "; did you mean '" : "; define it under 'attributes'",
			      hint ? hint : "", hint ? "'?" : "");
	}
}

void ddbc_check_template_unknown_attribute(const ddbc_design *g, ddbc_diags *d)
{
	for (size_t i = 0; i < g->nentities; i++) {
		const ddbc_entity *e = &g->entities[i];
		const char **names = NULL;
		size_t suggested = 0;
		ddbc_strset seen = DDBC_STRSET_INIT;
		/* An entity read with an error may define the name under a
		 * misspelt field: its error says so. */
		for (size_t k = 0; !e->incomplete && k < e->nattrs; k++) {
			const ddbc_attr *a = &e->attrs[k];
			if (!a->has_template || !has_unknown(a))
				continue;
			if (!names) {
				names = ddbc_xmalloc((e->nattrs + 1) * sizeof(char *));
				for (size_t j = 0; j < e->nattrs; j++)
					names[j] = e->attrs[j].name.s;
			}
			unknown(e, a, names, &suggested, &seen, d);
		}
		ddbc_strset_release(&seen);
		free(names);
	}
}

/* ---- template-type ----------------------------------------------------------------- */

static void placeholder_type(const ddbc_attr *a, const ddbc_segment *seg, ddbc_diags *d)
{
	const ddbc_attr *b = seg->ref;
	if (!b || b->type == DDBC_TYPE_NONE)
		return;
	if (b->type != DDBC_TYPE_S && b->type != DDBC_TYPE_N)
		ddbc_diag_add(d, DDBC_RULE_TEMPLATE_TYPE, a->template.loc,
			      "placeholder '{%s}' in the template of '%s' is %s; placeholders "
			      "must be S or N attributes", seg->text, a->name.s,
			      ddbc_type_long(b->type));
	else if (b->type == DDBC_TYPE_S && seg->width)
		ddbc_diag_add(d, DDBC_RULE_TEMPLATE_TYPE, a->template.loc,
			      "placeholder '{%s:0%u}' pads '%s', which is a String; ':0WIDTH' "
			      "is for Number attributes, remove it", seg->text, seg->width,
			      seg->text);
}

static void types(const ddbc_entity *e, const ddbc_attr *a, ddbc_diags *d)
{
	if (a->type != DDBC_TYPE_S && a->type != DDBC_TYPE_NONE) {
		ddbc_diag_add(d, DDBC_RULE_TEMPLATE_TYPE, a->template.loc,
			      "'%s' in '%s' is %s but has a template; only String attributes "
			      "have templates", a->name.s, e->name.s, ddbc_type_long(a->type));
		return;
	}
	for (size_t k = 0; a->has_template && k < a->tpl.nsegs; k++)
		if (a->tpl.segs[k].kind == DDBC_SEG_PLACEHOLDER)
			placeholder_type(a, &a->tpl.segs[k], d);
}

void ddbc_check_template_type(const ddbc_design *g, ddbc_diags *d)
{
	each_templated(g, d, types);
}

/* ---- template-cycle ------------------------------------------------------------------- */

/* Finds a path of template references from a back to target, appending
 * the names on it to path. */
static bool path_to(const ddbc_attr *a, const ddbc_attr *target, strbuf *path,
		    bool *visited, const ddbc_entity *e)
{
	for (size_t k = 0; k < a->tpl.nsegs; k++) {
		const ddbc_attr *b = a->tpl.segs[k].ref;
		if (!b || !b->in_cycle)
			continue;
		size_t mark = path->len;
		ddbc_strbuf_addf(path, " -> '%s'", b->name.s);
		if (b == target)
			return true;
		size_t j = (size_t)(b - e->attrs);
		if (!visited[j]) {
			visited[j] = true;
			if (path_to(b, target, path, visited, e))
				return true;
		}
		path->len = mark;
		path->buf[mark] = '\0';
	}
	return false;
}

void ddbc_check_template_cycle(const ddbc_design *g, ddbc_diags *d)
{
	for (size_t i = 0; i < g->nentities; i++) {
		const ddbc_entity *e = &g->entities[i];
		bool *reported = ddbc_xcalloc(e->nattrs + 1, sizeof(bool));
		for (size_t k = 0; k < e->nattrs; k++) {
			const ddbc_attr *a = &e->attrs[k];
			if (!a->in_cycle || reported[k])
				continue;
			/* One finding per cycle, at its first attribute in the file. */
			strbuf path = STRBUF_INIT;
			ddbc_strbuf_addf(&path, "'%s'", a->name.s);
			bool *visited = ddbc_xcalloc(e->nattrs + 1, sizeof(bool));
			path_to(a, a, &path, visited, e);
			for (size_t j = 0; j < e->nattrs; j++)
				reported[j] |= visited[j];
			free(visited);
			ddbc_diag_add(d, DDBC_RULE_TEMPLATE_CYCLE, a->template.loc,
				      "the templates of '%s' refer to each other in a cycle (%s); "
				      "build each from attributes without templates",
				      e->name.s, path.buf);
			ddbc_strbuf_release(&path);
		}
		free(reported);
	}
}

/* ---- unpadded-number-in-key ------------------------------------------------------------ */

static bool is_sort_key(const ddbc_table *t, const char *name)
{
	for (size_t s = 0; s < t->nindexes; s++)
		for (size_t k = 0; k < t->indexes[s]->nsk; k++)
			if (!strcmp(t->indexes[s]->sk[k].s, name))
				return true;
	return false;
}

/* The first N placeholder without a width in a's template, following
 * placeholders that have templates of their own. */
static const ddbc_segment *unpadded(const ddbc_attr *a, unsigned depth)
{
	for (size_t k = 0; a->has_template && !a->in_cycle && k < a->tpl.nsegs; k++) {
		const ddbc_segment *seg = &a->tpl.segs[k];
		const ddbc_attr *b = seg->ref;
		if (!b)
			continue;
		if (b->type == DDBC_TYPE_N && !seg->width)
			return seg;
		const ddbc_segment *inner = depth < 16 ? unpadded(b, depth + 1) : NULL;
		if (inner)
			return inner;
	}
	return NULL;
}

void ddbc_check_unpadded_number_in_key(const ddbc_design *g, ddbc_diags *d)
{
	for (size_t i = 0; i < g->nentities; i++) {
		const ddbc_entity *e = &g->entities[i];
		for (size_t k = 0; e->table && k < e->nattrs; k++) {
			const ddbc_attr *a = &e->attrs[k];
			const ddbc_segment *seg = unpadded(a, 0);
			if (!seg || !is_sort_key(e->table, a->name.s))
				continue;
			ddbc_diag_add(d, DDBC_RULE_UNPADDED_NUMBER_IN_KEY, a->template.loc,
				      "sort key '%s' of '%s' interpolates Number '%s' without "
				      "padding, so '10' sorts before '9'; write '{%s:0N}' with N "
				      "the most digits it can have", a->name.s, e->name.s, seg->text,
				      seg->text);
		}
	}
}

/* ---- key-overlap ------------------------------------------------------------------------ */

/* The literal start of a key's language: its leading fixed runs. One
 * run (the common case) is pointed at; more are joined into own. clen is
 * the length up to the first NUL byte, which the strcmp and strncmp
 * orders of the rule (the prefix as a C string) stop at. */
typedef struct prefix {
	const char *s;
	size_t len, clen;
	strbuf own;
} prefix;

/* One entity's primary key as languages, with the literal prefix of the
 * partition key for pruning. The languages are the ones semantics kept
 * for the key attributes (ddbc_attr_key_lang), built here only for an
 * attribute without one. */
typedef struct keyinfo {
	const ddbc_entity *e;
	const ddbc_lang *pk, *sk;
	ddbc_lang own_pk, own_sk;
	bool has_sk;
	prefix pk_prefix, sk_prefix;
} keyinfo;

static void lang_prefix(const ddbc_lang *l, prefix *out)
{
	size_t n = 0;
	while (n < l->nruns && l->runs[n].fixed)
		n++;
	if (n == 1) {
		out->s = l->runs[0].text;
		out->len = l->runs[0].len;
	} else {
		for (size_t r = 0; r < n; r++)
			ddbc_strbuf_add(&out->own, l->runs[r].text, l->runs[r].len);
		out->s = ddbc_strbuf_str(&out->own);
		out->len = out->own.len;
	}
	out->clen = out->len ? strnlen(out->s, out->len) : 0;
}

static const ddbc_lang *key_lang(const ddbc_attr *a, ddbc_lang *own)
{
	if (a->is_key && a->lang)
		return a->lang;
	ddbc_attr_lang(a, own);
	return own;
}

static bool keyinfo_init(keyinfo *ki, const ddbc_entity *e)
{
	const ddbc_index *ix = &e->table->primary;
	memset(ki, 0, sizeof(*ki));
	if (ix->npk != 1)
		return false;
	const ddbc_attr *pk = ddbc_entity_stored_attr(e, ix->pk[0].s);
	const ddbc_attr *sk = ix->nsk == 1 ? ddbc_entity_stored_attr(e, ix->sk[0].s) : NULL;
	/* A key attribute read with an error (a misspelt template) may have
	 * told the entity apart. */
	if (!pk || (ix->nsk == 1 && !sk) || pk->incomplete || (sk && sk->incomplete))
		return false;
	ki->e = e;
	ki->pk = key_lang(pk, &ki->own_pk);
	lang_prefix(ki->pk, &ki->pk_prefix);
	if (sk) {
		ki->has_sk = true;
		ki->sk = key_lang(sk, &ki->own_sk);
		lang_prefix(ki->sk, &ki->sk_prefix);
	}
	return true;
}

static void keyinfo_release(keyinfo *ki)
{
	ddbc_lang_release(&ki->own_pk);
	ddbc_lang_release(&ki->own_sk);
	ddbc_strbuf_release(&ki->pk_prefix.own);
	ddbc_strbuf_release(&ki->sk_prefix.own);
}

/* Whether one prefix is a prefix of the other: otherwise the literal
 * starts already differ and the templates cannot meet. */
static bool prefixes_compatible(const prefix *a, const prefix *b)
{
	size_t n = a->len < b->len ? a->len : b->len;
	return n == 0 || memcmp(a->s, b->s, n) == 0;
}

/* strcmp of the prefixes as C strings. */
static int prefix_cmp(const prefix *a, const prefix *b)
{
	size_t n = a->clen < b->clen ? a->clen : b->clen;
	int r = n ? memcmp(a->s, b->s, n) : 0;
	return r ? r : (a->clen > b->clen) - (a->clen < b->clen);
}

/* Whether strncmp(b, a, a->len) of the prefixes as C strings is 0: b
 * starts with a, and when a stops at a NUL byte, b stops there too. */
static bool prefix_extends(const prefix *b, const prefix *a)
{
	if (b->clen < a->clen || (a->clen && memcmp(b->s, a->s, a->clen)))
		return false;
	return a->clen == a->len || b->clen == a->clen;
}

static int by_pk_prefix(const void *pa, const void *pb)
{
	const keyinfo *a = *(keyinfo *const *)pa, *b = *(keyinfo *const *)pb;
	int r = prefix_cmp(&a->pk_prefix, &b->pk_prefix);
	return r ? r : (a->e < b->e ? -1 : a->e > b->e);
}

/* The key attribute of b that can carry a literal of the entity's own:
 * a String one (the partition key first), or NULL when every key
 * attribute is a Number or Binary. *both says whether both are Strings. */
static const ddbc_attr *prefixable_key(const ddbc_entity *e, bool *both)
{
	const ddbc_index *ix = &e->table->primary;
	const ddbc_attr *pk = ddbc_entity_attr(e, ix->pk[0].s);
	const ddbc_attr *sk = ix->nsk ? ddbc_entity_attr(e, ix->sk[0].s) : NULL;
	bool pk_s = pk && pk->type == DDBC_TYPE_S, sk_s = sk && sk->type == DDBC_TYPE_S;
	*both = pk_s && (sk_s || !sk);
	return pk_s ? pk : sk_s ? sk : NULL;
}

static bool has_template(const ddbc_entity *e, const char *name)
{
	const ddbc_attr *a = name ? ddbc_entity_attr(e, name) : NULL;
	return a && a->template.s;
}

/* What the user can do about the overlap, as the key's types allow: a
 * literal of the entity's own where a key attribute is a String; where
 * none is, a Number or Binary cannot hold one, so a String key instead.
 * Natural keys (no template on either side) may be right as they are,
 * when the application takes the ids from one sequence: the suppression
 * says so. */
static void overlap_advice(const ddbc_entity *e, bool natural, strbuf *sb)
{
	bool both;
	const ddbc_attr *s = prefixable_key(e, &both);
	const ddbc_attr *pk = ddbc_entity_attr(e, e->table->primary.pk[0].s);
	if (s && !both)
		ddbc_strbuf_addf(sb, "give each entity a literal of its own in its '%s'", s->name.s);
	/* Key types that are not S, N or B are key-attribute-type's finding. */
	else if (s || (pk->type != DDBC_TYPE_N && pk->type != DDBC_TYPE_B))
		ddbc_strbuf_addstr(sb, "give each entity a literal of its own in its key");
	else
		ddbc_strbuf_addf(sb, "a %s key cannot hold a literal of the entity's own, so make "
			    "'%s' a String with one (e.g. '%s#...')", ddbc_type_long(pk->type),
			    pk->name.s, e->name.s);
	if (natural)
		ddbc_strbuf_addstr(sb, ", or, when the ids come from one sequence, add '# ddbc-ignore: "
			      "key-overlap -- ids come from one sequence' to this line");
}

static void report_overlap(const keyinfo *a, const keyinfo *b, ddbc_diags *d)
{
	/* Report at the later entity, naming the earlier one. */
	if (a->e > b->e) {
		const keyinfo *t = a;
		a = b;
		b = t;
	}
	const ddbc_index *ix = &b->e->table->primary;
	const char *sk = ix->nsk ? ix->sk[0].s : NULL;
	bool templated = has_template(a->e, ix->pk[0].s) || has_template(b->e, ix->pk[0].s) ||
			 has_template(a->e, sk) || has_template(b->e, sk);
	strbuf advice = STRBUF_INIT;
	overlap_advice(b->e, !templated, &advice);
	ddbc_diag_add(d, DDBC_RULE_KEY_OVERLAP, b->e->name.loc,
		      "'%s' and '%s' (line %u) can produce the same primary key in table '%s': "
		      "their '%s'%s%s%s %s overlap; %s", b->e->name.s, a->e->name.s,
		      a->e->name.loc.line, b->e->table->name.s, ix->pk[0].s, sk ? " and '" : "",
		      sk ? sk : "", sk ? "'" : "", templated ? "templates" : "values",
		      ddbc_strbuf_str(&advice));
	ddbc_diag_relate(d, a->e->name.loc);
	ddbc_strbuf_release(&advice);
}

static bool keys_overlap(const ddbc_design *g, const keyinfo *a, const keyinfo *b)
{
	if (a->has_sk && !prefixes_compatible(&a->sk_prefix, &b->sk_prefix))
		return false;
	if (!ddbc_lang_intersects(a->pk, b->pk, g->key_delimiter))
		return false;
	return !a->has_sk || ddbc_lang_intersects(a->sk, b->sk, g->key_delimiter);
}

/* Entities whose partition-key prefixes are compatible form, in prefix
 * order, the run of entries that extend a given prefix plus the entries
 * equal to one of its own prefixes; only those pairs are compared. */
static void overlap_table(const ddbc_design *g, const ddbc_table *t, ddbc_diags *d)
{
	/* A key read with an error may have told the entities apart. */
	if (t->primary.incomplete)
		return;
	keyinfo *infos = ddbc_xcalloc(t->nentities + 1, sizeof(keyinfo));
	keyinfo **order = ddbc_xcalloc(t->nentities + 1, sizeof(keyinfo *));
	size_t n = 0;
	for (size_t i = 0; i < t->nentities; i++)
		if (keyinfo_init(&infos[n], t->entities[i]))
			order[n] = &infos[n], n++;
	qsort(order, n, sizeof(*order), by_pk_prefix);
	for (size_t i = 0; i < n; i++) {
		const keyinfo *a = order[i];
		/* Later entries that extend a's prefix are contiguous after it. */
		for (size_t j = i + 1; j < n; j++) {
			const keyinfo *b = order[j];
			if (!prefix_extends(&b->pk_prefix, &a->pk_prefix))
				break;
			if (keys_overlap(g, a, b))
				report_overlap(a, b, d);
		}
	}
	for (size_t i = 0; i < n; i++)
		keyinfo_release(&infos[i]);
	free(order);
	free(infos);
}

void ddbc_check_key_overlap(const ddbc_design *g, ddbc_diags *d)
{
	for (size_t i = 0; i < g->ntables; i++)
		overlap_table(g, &g->tables[i], d);
}
