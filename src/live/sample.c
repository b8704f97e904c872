/* sample.c - the items of a design, entity by entity (sample.h)
 *
 * An item is made in four steps: which attributes it holds (the required
 * ones, the others by chance), what those need (a template's
 * placeholders, stored or not), the values of the attributes without a
 * template (sample_value.c, or a value another item of the design already
 * gave an attribute of that name), then the templates rendered by the
 * model's renderer in the order they refer to each other. The item is
 * kept when its table key is new and check-items passes it; else it is
 * drawn again, at last with every attribute it may hold (which tells it
 * best from entities of like keys).
 */
#include "live/sample_int.h"
#include "items/items.h"
#include "model/semantics.h"
#include "util/strset.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Draws of one item before its entity is given up: keys that collide this
 * often mean that the entity's keys can tell no more items apart. */
#define TRIES 40
/* A value that a template interpolates is taken from another item's value
 * of the same name this often. */
#define SHARE_VALUE 0.5

/* The values of an attribute name that keys interpolate, kept as made. */
typedef struct pool {
	char **texts;
	size_t n, cap;
} pool;

typedef struct maker {
	const ddbc_design *g;
	ddbc_rng rng;
	ddbc_item_checker *checker;
	json_t *pools;           /* "NAME\x1fTYPE" -> index into the pools array, as an integer */
	pool *pool_list;
	size_t npools, pools_cap;
	ddbc_strset *keys;       /* per table: the keys made so far */
	ddbc_arena *key_texts;   /* their bytes */
	/* per attribute of the entity being made: a part of its table key
	 * (varied widely), a part of a partition key (shared) */
	bool *unique, *shared;
	strbuf text;             /* scratch */
} maker;

/* The state of one item being made: per attribute of the entity. */
typedef struct draft {
	const ddbc_entity *e;
	unsigned char *state;    /* 0 absent, 1 wanted, 2 made, 3 being rendered */
	json_t **ddb;            /* the DynamoDB value */
	char **text;             /* a scalar's text, or NULL */
	bool all;                /* every attribute it may hold */
} draft;

enum { ABSENT, WANTED, MADE, RENDERING };

/* ---- which attributes ----------------------------------------------------------- */

/* The share of the entity's example items that hold a, at least a fifth
 * and at most four fifths (so that both kinds of item are made); a half
 * without examples. */
static double presence(const ddbc_attr *a)
{
	const ddbc_entity *e = a->entity;
	if (!e->nexamples)
		return 0.5;
	size_t with = 0;
	for (size_t i = 0; i < e->nexamples; i++)
		with += ddbc_pval_get(e->examples[i], a->name.s) != NULL;
	double p = (double)with / (double)e->nexamples;
	return p < 0.2 ? 0.2 : p > 0.8 ? 0.8 : p;
}

static bool usable(const ddbc_attr *a)
{
	return a->type != DDBC_TYPE_NONE && !a->in_cycle && !a->incomplete &&
	       (!a->template.s || a->has_template);
}

/* Marks a wanted, and what its template needs. */
static void want(draft *d, const ddbc_attr *a)
{
	size_t i = (size_t)(a - d->e->attrs);
	if (d->state[i] != ABSENT)
		return;
	d->state[i] = WANTED;
	for (size_t s = 0; a->has_template && s < a->tpl.nsegs; s++)
		if (a->tpl.segs[s].kind == DDBC_SEG_PLACEHOLDER && a->tpl.segs[s].ref)
			want(d, a->tpl.segs[s].ref);
}

static void choose(maker *m, draft *d)
{
	for (size_t i = 0; i < d->e->nattrs; i++) {
		const ddbc_attr *a = &d->e->attrs[i];
		if (!usable(a) || !ddbc_attr_stored(a))
			continue;
		if (ddbc_attr_required(a, NULL) || d->all || ddbc_rng_chance(&m->rng, presence(a)))
			want(d, a);
	}
}

/* ---- values --------------------------------------------------------------------- */

/* The narrowest :0WIDTH that a template of the entity gives a. */
static unsigned width_of(const ddbc_attr *a)
{
	unsigned w = 0;
	const ddbc_entity *e = a->entity;
	for (size_t i = 0; i < e->nattrs; i++)
		for (size_t s = 0; e->attrs[i].has_template && s < e->attrs[i].tpl.nsegs; s++) {
			const ddbc_segment *seg = &e->attrs[i].tpl.segs[s];
			if (seg->ref == a && seg->width && (!w || seg->width < w))
				w = seg->width;
		}
	return w;
}

/* An example value of a: its own, else that of a random example item that
 * holds it. */
static const ddbc_pval *example_of(maker *m, const ddbc_attr *a)
{
	if (a->more->example)
		return a->more->example;
	const ddbc_entity *e = a->entity;
	if (!e->nexamples)
		return NULL;
	size_t at = ddbc_rng_below(&m->rng, e->nexamples);
	for (size_t k = 0; k < e->nexamples; k++) {
		const ddbc_pval *v = ddbc_pval_get(e->examples[(at + k) % e->nexamples], a->name.s);
		if (v)
			return v;
	}
	return NULL;
}

/* Whether key is a or its template interpolates a, however deep. */
static bool part_of(const ddbc_attr *key, const ddbc_attr *a, int depth)
{
	if (key == a)
		return true;
	for (size_t s = 0; key->has_template && depth < 16 && s < key->tpl.nsegs; s++) {
		const ddbc_attr *ref = key->tpl.segs[s].ref;
		if (key->tpl.segs[s].kind == DDBC_SEG_PLACEHOLDER && ref && part_of(ref, a, depth + 1))
			return true;
	}
	return false;
}

/* The parts of entity e's table key (unique) and of its partition keys
 * on the table and every index (shared). */
static void find_parts(maker *m, const ddbc_entity *e)
{
	const ddbc_table *t = e->table;
	for (size_t i = 0; i < e->nattrs; i++) {
		const ddbc_attr *a = &e->attrs[i];
		m->unique[i] = m->shared[i] = false;
		for (size_t x = 0; x < t->nindexes; x++) {
			const ddbc_index *ix = t->indexes[x];
			for (size_t k = 0; k < ix->npk + ix->nsk; k++) {
				const ddbc_attr *key = ddbc_entity_attr(e, k < ix->npk ? ix->pk[k].s
									: ix->sk[k - ix->npk].s);
				if (!key || !part_of(key, a, 0))
					continue;
				m->unique[i] |= ix->kind == DDBC_INDEX_PRIMARY;
				m->shared[i] |= k < ix->npk;
			}
		}
	}
}

static bool key_part(const maker *m, const ddbc_attr *a)
{
	return m->unique[a - a->entity->attrs];
}

static pool *pool_of(maker *m, const ddbc_attr *a, bool make)
{
	strbuf k = STRBUF_INIT;
	ddbc_strbuf_addf(&k, "%s\x1f%s", a->name.s, ddbc_type_short(a->type));
	json_t *at = json_object_get(m->pools, ddbc_strbuf_str(&k));
	pool *p = NULL;
	if (at) {
		p = &m->pool_list[json_integer_value(at)];
	} else if (make) {
		ddbc_xgrow((void **)&m->pool_list, &m->pools_cap, m->npools + 1, sizeof(pool));
		memset(&m->pool_list[m->npools], 0, sizeof(pool));
		json_object_set_new(m->pools, ddbc_strbuf_str(&k), json_integer((json_int_t)m->npools));
		p = &m->pool_list[m->npools++];
	}
	ddbc_strbuf_release(&k);
	return p;
}

/* A plain key part's value: one made before for the name, by chance. */
static const char *shared_value(maker *m, const ddbc_attr *a)
{
	if (!m->shared[a - a->entity->attrs] || a->template.s || a->more->nenum ||
	    (a->type != DDBC_TYPE_S && a->type != DDBC_TYPE_N))
		return NULL;
	pool *p = pool_of(m, a, false);
	if (!p || !p->n || !ddbc_rng_chance(&m->rng, SHARE_VALUE))
		return NULL;
	return p->texts[ddbc_rng_below(&m->rng, p->n)];
}

/* A value a template interpolates as a plain string never holds the key
 * delimiter (a UUID's '-' under "-"): it is taken out, and a value left
 * empty gets a few digits. Whether it changed text. */
static bool drop_delimiter(maker *m, strbuf *text)
{
	const char *delim = m->g->key_delimiter;
	size_t dl = delim ? strlen(delim) : 0;
	if (!dl || !strstr(ddbc_strbuf_str(text), delim))
		return false;
	strbuf out = STRBUF_INIT;
	for (const char *p = ddbc_strbuf_str(text); *p;) {
		if (!strncmp(p, delim, dl)) {
			p += dl;
			continue;
		}
		ddbc_strbuf_addch(&out, *p++);
	}
	if (!out.len)
		ddbc_strbuf_addf(&out, "%llu", (unsigned long long)ddbc_rng_below(&m->rng, 1000000));
	ddbc_strbuf_reset(text);
	ddbc_strbuf_add(text, out.buf, out.len);
	ddbc_strbuf_release(&out);
	return true;
}

static void make_plain(maker *m, draft *d, size_t i)
{
	const ddbc_attr *a = &d->e->attrs[i];
	const char *shared = shared_value(m, a);
	if (shared) {
		d->text[i] = ddbc_xstrdup(shared);
		d->ddb[i] = json_pack("{s:s}", ddbc_type_short(a->type), shared);
		return;
	}
	ddbc_vspec s = { .a = a, .delim = m->g->key_delimiter, .key_part = key_part(m, a),
			 .width = width_of(a), .example = example_of(m, a) };
	ddbc_sample_value(&m->rng, &s, &d->ddb[i], &m->text);
	if (a->used_by && a->type == DDBC_TYPE_S && drop_delimiter(m, &m->text)) {
		json_decref(d->ddb[i]);
		d->ddb[i] = json_pack("{s:s}", "S", ddbc_strbuf_str(&m->text));
	}
	if (a->type == DDBC_TYPE_S || a->type == DDBC_TYPE_N || a->type == DDBC_TYPE_B ||
	    a->type == DDBC_TYPE_BOOL)
		d->text[i] = ddbc_xstrdup(ddbc_strbuf_str(&m->text));
}

static bool make_value(maker *m, draft *d, size_t i);

typedef struct render_ctx {
	maker *m;
	draft *d;
	bool failed;
} render_ctx;

static ddbc_tvalue placeholder(void *ctx, const ddbc_segment *seg)
{
	render_ctx *rc = ctx;
	ddbc_tvalue v = { .kind = DDBC_TVALUE_MISSING };
	const ddbc_attr *a = seg->ref;
	if (!a || a->entity != rc->d->e)
		return v;
	size_t i = (size_t)(a - rc->d->e->attrs);
	if (!make_value(rc->m, rc->d, i) || !rc->d->text[i]) {
		rc->failed = true;
		return v;
	}
	v.text = rc->d->text[i];
	v.len = strlen(v.text);
	v.kind = a->type == DDBC_TYPE_N ? DDBC_TVALUE_NUMBER : DDBC_TVALUE_TEXT;
	if (a->type == DDBC_TYPE_N)
		v.is_int = ddbc_int_text(v.text, &v.n);
	return v;
}

static bool render(maker *m, draft *d, size_t i)
{
	const ddbc_attr *a = &d->e->attrs[i];
	render_ctx rc = { m, d, false };
	strbuf out = STRBUF_INIT;
	ddbc_render_problem problem;
	ddbc_render_result r = ddbc_template_render(&a->tpl, placeholder, &rc, &out, &problem);
	bool ok = r == DDBC_RENDER_OK && !rc.failed && a->type == DDBC_TYPE_S;
	if (ok) {
		d->text[i] = ddbc_strbuf_detach(&out);
		d->ddb[i] = json_pack("{s:s}", "S", d->text[i]);
	}
	ddbc_strbuf_release(&out);
	return ok;
}

/* Makes attribute i's value (once). False when it cannot be made. */
static bool make_value(maker *m, draft *d, size_t i)
{
	if (d->state[i] == MADE)
		return true;
	if (d->state[i] == RENDERING)
		return false;
	d->state[i] = RENDERING;
	bool ok = true;
	if (d->e->attrs[i].has_template)
		ok = render(m, d, i);
	else
		make_plain(m, d, i);
	d->state[i] = ok ? MADE : WANTED;
	return ok;
}

/* ---- one item --------------------------------------------------------------------- */

static void draft_init(draft *d, const ddbc_entity *e, bool all)
{
	d->e = e;
	d->state = ddbc_xcalloc(e->nattrs + 1, 1);
	d->ddb = ddbc_xcalloc(e->nattrs + 1, sizeof(json_t *));
	d->text = ddbc_xcalloc(e->nattrs + 1, sizeof(char *));
	d->all = all;
}

static void draft_release(draft *d)
{
	for (size_t i = 0; i < d->e->nattrs; i++) {
		json_decref(d->ddb[i]);
		free(d->text[i]);
	}
	free(d->state);
	free(d->ddb);
	free(d->text);
}

/* The item of a made draft, and the texts of its values. */
static bool assemble(maker *m, draft *d, json_t **item, json_t **values)
{
	for (size_t i = 0; i < d->e->nattrs; i++)
		if (d->state[i] == WANTED && !make_value(m, d, i))
			return false;
	*item = json_object();
	*values = json_object();
	for (size_t i = 0; i < d->e->nattrs; i++) {
		const ddbc_attr *a = &d->e->attrs[i];
		if (d->state[i] != MADE)
			continue;
		if (ddbc_attr_stored(a) && d->ddb[i])
			json_object_set(*item, a->name.s, d->ddb[i]);
		if (d->text[i])
			json_object_set_new(*values, a->name.s, json_string(d->text[i]));
	}
	return true;
}

/* The table key of an item: its key attributes' texts, joined. */
static void table_key(const ddbc_table *t, const json_t *values, strbuf *out)
{
	ddbc_strbuf_reset(out);
	for (size_t i = 0; i < t->primary.npk + t->primary.nsk; i++) {
		const char *name = i < t->primary.npk ? t->primary.pk[i].s
						       : t->primary.sk[i - t->primary.npk].s;
		const char *v = json_string_value(json_object_get(values, name));
		ddbc_strbuf_addstr(out, v ? v : "");
		ddbc_strbuf_addch(out, '\x1f');
	}
}

/* Whether check-items takes item as one of e. */
static bool passes(maker *m, const ddbc_entity *e, const json_t *item)
{
	char *s = json_dumps(item, JSON_COMPACT);
	const ddbc_entity *got = NULL;
	ddbc_item_verdict v = ddbc_item_check_one(m->checker, s, strlen(s), &got, NULL);
	free(s);
	return v == DDBC_VERDICT_OK && got == e;
}

static void remember(maker *m, const ddbc_entity *e, const json_t *values)
{
	for (size_t i = 0; i < e->nattrs; i++) {
		const ddbc_attr *a = &e->attrs[i];
		const char *v = json_string_value(json_object_get(values, a->name.s));
		if (!v || !m->shared[i] || a->template.s || a->more->nenum ||
		    (a->type != DDBC_TYPE_S && a->type != DDBC_TYPE_N))
			continue;
		pool *p = pool_of(m, a, true);
		ddbc_xgrow((void **)&p->texts, &p->cap, p->n + 1, sizeof(char *));
		p->texts[p->n++] = ddbc_xstrdup(v);
	}
}

/* One new item of e into *out; false when TRIES draws made none. */
static bool make_item(maker *m, const ddbc_entity *e, ddbc_strset *keys, ddbc_sample_item *out)
{
	for (int t = 0; t < TRIES; t++) {
		draft d;
		draft_init(&d, e, t >= TRIES / 2);
		choose(m, &d);
		json_t *item = NULL, *values = NULL;
		bool ok = assemble(m, &d, &item, &values);
		draft_release(&d);
		if (ok) {
			table_key(e->table, values, &m->text);
			ok = !ddbc_strset_get(keys, m->text.buf, m->text.len) && passes(m, e, item);
		}
		if (ok) {
			ddbc_strset_put(keys, ddbc_arena_strndup(m->key_texts, m->text.buf,
								 m->text.len), m->text.len);
			remember(m, e, values);
			*out = (ddbc_sample_item){ e, item, values };
			return true;
		}
		json_decref(item);
		json_decref(values);
	}
	return false;
}

/* ---- how many of each ------------------------------------------------------------- */

static bool sampled(const ddbc_entity *e)
{
	return e->table && !e->incomplete && !e->lacks_key && !e->table->incomplete;
}

/* The entities' shares of total, by their `count:` (largest remainders). */
static void shares(const ddbc_design *g, unsigned long total, unsigned long *n)
{
	double least = 0, sum = 0;
	size_t k = 0;
	for (size_t i = 0; i < g->nentities; i++) {
		const ddbc_figure *c = g->entities[i].count;
		if (sampled(&g->entities[i]) && c->set && c->value > 0 && (!least || c->value < least))
			least = c->value;
	}
	double *w = ddbc_xcalloc(g->nentities + 1, sizeof(double));
	for (size_t i = 0; i < g->nentities; i++) {
		const ddbc_figure *c = g->entities[i].count;
		if (!sampled(&g->entities[i]))
			continue;
		w[i] = least ? (c->set && c->value > 0 ? c->value : least) : 1;
		sum += w[i];
		k++;
	}
	unsigned long given = 0;
	for (size_t i = 0; i < g->nentities; i++) {
		n[i] = sum > 0 ? (unsigned long)floor((double)total * w[i] / sum) : 0;
		if (w[i] > 0 && !n[i] && total >= k)
			n[i] = 1;
		given += n[i];
	}
	/* the rest to the largest weights, in file order on a tie */
	while (given < total && sum > 0) {
		size_t best = 0;
		double most = -1;
		for (size_t i = 0; i < g->nentities; i++) {
			double rest = (double)total * w[i] / sum - (double)n[i];
			if (w[i] > 0 && rest > most) {
				most = rest;
				best = i;
			}
		}
		n[best]++;
		given++;
	}
	free(w);
}

/* ---- the run ---------------------------------------------------------------------- */

static size_t table_slot(const ddbc_design *g, const ddbc_table *t)
{
	return (size_t)(t - g->tables);
}

static void maker_release(maker *m)
{
	ddbc_item_checker_free(m->checker);
	json_decref(m->pools);
	for (size_t i = 0; i < m->npools; i++) {
		for (size_t k = 0; k < m->pool_list[i].n; k++)
			free(m->pool_list[i].texts[k]);
		free(m->pool_list[i].texts);
	}
	free(m->pool_list);
	for (size_t i = 0; i < m->g->ntables; i++)
		ddbc_strset_release(&m->keys[i]);
	free(m->keys);
	ddbc_arena_free(m->key_texts);
	ddbc_strbuf_release(&m->text);
}

/* The items of entity e: want of them, fewer when its keys run out. */
static int make_entity(maker *m, const ddbc_entity *e, unsigned long want, ddbc_sample *out,
		       strbuf *err)
{
	unsigned long made = 0;
	ddbc_strset *keys = &m->keys[table_slot(m->g, e->table)];
	m->unique = ddbc_xcalloc(e->nattrs + 1, sizeof(bool));
	m->shared = ddbc_xcalloc(e->nattrs + 1, sizeof(bool));
	find_parts(m, e);
	for (; made < want; made++) {
		out->items = ddbc_xrealloc(out->items, (out->n + 1) * sizeof(*out->items));
		if (!make_item(m, e, keys, &out->items[out->n]))
			break;
		out->n++;
	}
	free(m->unique);
	free(m->shared);
	if (made == 0 && want > 0) {
		ddbc_strbuf_addf(err, "entity '%s' gets no item that check-items accepts; run "
			    "'ddbc lint' on the design", e->name.s);
		return -1;
	}
	if (made < want)
		ddbc_strbuf_addf(&out->notes, "entity '%s' has %lu items, not %lu: its keys tell no "
			    "more apart\n", e->name.s, made, want);
	return 0;
}

int ddbc_sample_make(const ddbc_design *g, const ddbc_sample_opts *o, ddbc_sample *out,
		     strbuf *err)
{
	memset(out, 0, sizeof(*out));
	maker m = { .g = g, .rng = { o->seed }, .pools = json_object() };
	m.checker = ddbc_item_checker_new(g);
	m.keys = ddbc_xcalloc(g->ntables + 1, sizeof(ddbc_strset));
	m.key_texts = ddbc_arena_new();
	unsigned long *n = ddbc_xcalloc(g->nentities + 1, sizeof(unsigned long));
	shares(g, o->count, n);
	int rc = 0;
	for (size_t i = 0; i < g->nentities && rc == 0; i++)
		if (n[i])
			rc = make_entity(&m, &g->entities[i], n[i], out, err);
	free(n);
	maker_release(&m);
	return rc;
}

void ddbc_sample_release(ddbc_sample *s)
{
	for (size_t i = 0; i < s->n; i++) {
		json_decref(s->items[i].item);
		json_decref(s->items[i].values);
	}
	free(s->items);
	ddbc_strbuf_release(&s->notes);
	memset(s, 0, sizeof(*s));
}

/* ---- output ----------------------------------------------------------------------- */

json_t *ddbc_sample_batch(const ddbc_sample *s, size_t from, size_t *next)
{
	const ddbc_table *t = s->items[from].entity->table;
	json_t *puts = json_array();
	size_t i = from;
	for (; i < s->n && json_array_size(puts) < DDBC_BATCH_MAX; i++) {
		if (s->items[i].entity->table != t)
			break;
		json_array_append_new(puts, json_pack("{s:{s:O}}", "PutRequest", "Item",
						      s->items[i].item));
	}
	*next = i;
	return json_pack("{s:{s:o}}", "RequestItems", t->name.s, puts);
}

static int write_line(FILE *out, json_t *v)
{
	int rc = json_dumpf(v, out, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(v);
	return rc < 0 || fputc('\n', out) == EOF ? -1 : 0;
}

int ddbc_sample_write(FILE *out, const ddbc_sample *s, ddbc_sample_format f)
{
	if (f == DDBC_SAMPLE_JSONL) {
		for (size_t i = 0; i < s->n; i++)
			if (write_line(out, json_pack("{s:O}", "Item", s->items[i].item)) < 0)
				return -1;
		return 0;
	}
	/* The file `aws dynamodb batch-write-item --request-items` takes,
	 * and check-items reads: RequestItems' member, a request a line. */
	for (size_t i = 0, next; i < s->n; i = next) {
		json_t *req = ddbc_sample_batch(s, i, &next);
		json_t *items = json_incref(json_object_get(req, "RequestItems"));
		json_decref(req);
		if (write_line(out, items) < 0)
			return -1;
	}
	return 0;
}
