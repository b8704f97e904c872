/* items_assign.c - which entity an item is
 *
 * An item belongs to the tables whose key attributes it has; an entity of
 * such a table fits it when the item's partition and sort key values are
 * strings of the languages of the entity's key attributes (ddbc_attr_lang:
 * the templates the linter reasons about, with the design's key
 * delimiter). When several entities fit, what the item says it is comes
 * first: an entity whose constant attributes (a template without
 * placeholders, `entityType: { template: USER }`, or a one-value enum,
 * `ProductCategory: { enum: [Book] }`) the item holds, each with its value,
 * beats the others. Then the one whose key languages hold the most literal bytes wins (PROFILE beats
 * {anything}; "STAMP#{id}" beats "{kind}#{id}"). Then the ones that declare
 * the most of the item's attributes: in a design of several tables whose
 * keys are bare names (Users keyed by userId, AssessmentResults by
 * resultId, both items holding userId), the item's other attributes say
 * which table it came from. Entities still level are ambiguous: the item is reported naming them, never checked against a
 * guess. When none fits with the delimiter excluded from placeholder
 * values, entities are tried again with it allowed, so that an item whose
 * placeholder value holds the delimiter is still assigned and reported
 * for exactly that.
 */
#include "items/items_run.h"
#include "model/semantics.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* DynamoDB's limits on key values: a partition key is at most 2048 bytes,
 * a sort key at most 1024; longer values cannot be keys. */
#define MAX_PK_BYTES 2048
#define MAX_SK_BYTES 1024
/* Templates an unmatched item's message lists. */
#define MAX_LISTED 4

/* A delimiter no UTF-8 text contains: placeholder values may then hold
 * the real one (the second, lenient assignment). */
static const char lenient_delim[] = "\xff";

/* ---- the design ------------------------------------------------------------------ */

static void key_init(ddbc_items_key *k, const ddbc_attr *a)
{
	k->attr = a;
	ddbc_lang_init(&k->lang);
	if (a)
		ddbc_attr_lang(a, &k->lang);
}

static void find_constants(ddbc_items_entity *ei)
{
	const ddbc_entity *e = ei->e;
	for (size_t i = 0; i < e->nattrs; i++) {
		if (!ddbc_attr_is_constant(&e->attrs[i], e->table))
			continue;
		ei->consts = ddbc_xrealloc(ei->consts, (ei->nconsts + 1) * sizeof(*ei->consts));
		ei->consts[ei->nconsts++] = &e->attrs[i];
	}
}

/* More literal bytes first; file order (the order of ents) on a tie. */
static int by_literal(const void *a, const void *b)
{
	const ddbc_items_entity *x = *(const ddbc_items_entity *const *)a;
	const ddbc_items_entity *y = *(const ddbc_items_entity *const *)b;
	if (x->literal != y->literal)
		return x->literal > y->literal ? -1 : 1;
	return x < y ? -1 : x > y;
}

static void prepare_table(ddbc_items_table *ti, const ddbc_table *t)
{
	ti->t = t;
	ti->pk = t->primary.npk ? t->primary.pk[0].s : NULL;
	ti->sk = t->primary.nsk ? t->primary.sk[0].s : NULL;
	ti->ents = ddbc_xcalloc(t->nentities ? t->nentities : 1, sizeof(ddbc_items_entity));
	for (size_t i = 0; i < t->nentities && ti->pk; i++) {
		const ddbc_entity *e = t->entities[i];
		const ddbc_attr *pk = ddbc_entity_attr(e, ti->pk);
		const ddbc_attr *sk = ti->sk ? ddbc_entity_attr(e, ti->sk) : NULL;
		/* An entity without its table's key (entity-missing-key, set off)
		 * can hold no item. */
		if (!pk || (ti->sk && !sk))
			continue;
		ddbc_items_entity *ei = &ti->ents[ti->nents++];
		ei->e = e;
		key_init(&ei->pk, pk);
		key_init(&ei->sk, sk);
		ei->literal = ddbc_lang_literal_bytes(&ei->pk.lang) + ddbc_lang_literal_bytes(&ei->sk.lang);
		find_constants(ei);
	}
	ti->by_literal = ddbc_xcalloc(ti->nents + 1, sizeof(*ti->by_literal));
	for (size_t i = 0; i < ti->nents; i++)
		ti->by_literal[i] = &ti->ents[i];
	qsort(ti->by_literal, ti->nents, sizeof(*ti->by_literal), by_literal);
	const ddbc_lang **pk = ddbc_xcalloc(ti->nents + 1, sizeof(*pk));
	const ddbc_lang **sk = ddbc_xcalloc(ti->nents + 1, sizeof(*sk));
	for (size_t i = 0; i < ti->nents; i++) {
		pk[i] = &ti->by_literal[i]->pk.lang;
		sk[i] = ti->sk ? &ti->by_literal[i]->sk.lang : NULL;
	}
	ddbc_keyindex_build(&ti->index, pk, sk, ti->nents);
	free(pk);
	free(sk);
}

void ddbc_items_tables_prepare(ddbc_items_run *R)
{
	R->ntables = R->g->ntables;
	R->tables = ddbc_xcalloc(R->ntables ? R->ntables : 1, sizeof(ddbc_items_table));
	for (size_t i = 0; i < R->ntables; i++)
		prepare_table(&R->tables[i], &R->g->tables[i]);
}

void ddbc_items_tables_release(ddbc_items_run *R)
{
	for (size_t i = 0; i < R->ntables; i++) {
		for (size_t k = 0; k < R->tables[i].nents; k++) {
			ddbc_lang_release(&R->tables[i].ents[k].pk.lang);
			ddbc_lang_release(&R->tables[i].ents[k].sk.lang);
			free(R->tables[i].ents[k].consts);
		}
		free(R->tables[i].ents);
		free(R->tables[i].by_literal);
		ddbc_keyindex_release(&R->tables[i].index);
	}
	free(R->tables);
	free(R->tied);
	free(R->cand);
}

static const ddbc_ival *item_attr(const ddbc_items_run *R, const char *name)
{
	return ddbc_items_value(R, name);
}

const ddbc_ival *ddbc_items_value(const ddbc_items_run *R, const char *name)
{
	for (size_t i = 0; i < R->nattrs; i++)
		if (!strcmp(R->attrs[i].name, name))
			return &R->attrs[i];
	return NULL;
}

/* ---- assignment ------------------------------------------------------------------ */

/* The text of key value v when it can be a value of key k: of k's type, no
 * longer than DynamoDB allows. */
/* A key value's length as DynamoDB limits it: a Binary value's decoded
 * bytes, not its base64 text. */
static uint64_t key_bytes(const ddbc_ival *v)
{
	return v->type == DDBC_TYPE_B ? ddbc_base64_bytes(v->text, v->len) : v->len;
}

static bool key_text(const ddbc_items_run *R, const ddbc_ival *v, const ddbc_items_key *k,
		     size_t max)
{
	return v && v->text && ddbc_items_type_fits(R, v, k->attr->type) && key_bytes(v) <= max;
}

static bool key_fits(ddbc_items_run *R, const ddbc_ival *v, const ddbc_items_key *k, size_t max,
		     const char *delim)
{
	return key_text(R, v, k, max) &&
	       ddbc_items_lang_matches(&k->lang, v->text, v->len, delim, &R->scratch);
}

static bool entity_fits(ddbc_items_run *R, const ddbc_ival *pk, const ddbc_ival *sk,
			const ddbc_items_entity *ei, const char *delim)
{
	return key_fits(R, pk, &ei->pk, MAX_PK_BYTES, delim) &&
	       (!ei->sk.attr || key_fits(R, sk, &ei->sk, MAX_SK_BYTES, delim));
}

/* Whether the item holds constant attribute a with its one value. */
static bool holds_constant(const ddbc_items_run *R, const ddbc_attr *a)
{
	const ddbc_ival *v = item_attr(R, a->name.s);
	if (!v)
		return false;
	if (!a->has_template)
		return ddbc_items_in_enum(R, a, v);
	size_t n = 0;
	for (size_t i = 0; i < a->tpl.nsegs; i++) {
		const ddbc_segment *s = &a->tpl.segs[i];
		if (v->type != DDBC_TYPE_S || !v->text || n + s->len > v->len ||
		    memcmp(v->text + n, s->text, s->len))
			return false;
		n += s->len;
	}
	return v->type == DDBC_TYPE_S && n == v->len;
}

/* Whether the item's constant attributes name entity ei: it holds some
 * of them, each with its one value. One it lacks says nothing (an
 * optional flag such as `gift: { enum: [true] }` may be left out), and
 * one it holds with another value is not counted against ei either: the
 * check then reports that value, as it does for any item. */
static bool constants_say(const ddbc_items_run *R, const ddbc_items_entity *ei)
{
	size_t held = 0;
	for (size_t i = 0; i < ei->nconsts; i++) {
		if (!item_attr(R, ei->consts[i]->name.s))
			continue;
		if (!holds_constant(R, ei->consts[i]))
			return false;
		held++;
	}
	return held > 0;
}

/* The best fit so far: what an entity with fewer literal bytes must beat. */
typedef struct best {
	size_t literal;          /* the most literal bytes of a fit */
	int says;                /* whether such a fit's constants say it is: -1 unknown */
} best;

/* Whether ei, with fewer literal bytes than the best fit, cannot win: only
 * its constants could lift it, when the best fit's do not. */
static bool cannot_win(const ddbc_items_run *R, const ddbc_items_entity *ei, best *b)
{
	if (!ei->nconsts)
		return true;
	for (size_t i = 0; b->says < 0 && i < R->ntied; i++)
		if (R->tied[i]->literal == b->literal && constants_say(R, R->tied[i]))
			b->says = 1;
	if (b->says < 0)
		b->says = 0;
	return b->says == 1;
}

/* Appends the entities of table ti that fit the item and may win to
 * R->tied, trying them by literal bytes so that most need no match. Only
 * the entities whose key literals the item's keys begin with are tried
 * (items_keyindex.h): no other can fit. */
static void add_fits(ddbc_items_run *R, const ddbc_items_table *ti, const char *delim,
		     best *b)
{
	const ddbc_ival *pk = ti->pk ? item_attr(R, ti->pk) : NULL;
	const ddbc_ival *sk = ti->sk ? item_attr(R, ti->sk) : NULL;
	/* A key value without text fits no key (key_text). */
	if (!pk || !pk->text || (ti->sk && (!sk || !sk->text)))
		return;
	R->ncand = 0;
	ddbc_keyindex_find(&ti->index, pk->text, pk->len, sk ? sk->text : NULL, sk ? sk->len : 0,
			   &R->cand, &R->ncand, &R->cand_cap);
	for (size_t c = 0; c < R->ncand; c++) {
		const ddbc_items_entity *ei = ti->by_literal[R->cand[c]];
		if (R->ntied && ei->literal < b->literal && cannot_win(R, ei, b))
			continue;
		if (!entity_fits(R, pk, sk, ei, delim))
			continue;
		if (!R->ntied || ei->literal > b->literal) {
			b->literal = ei->literal;
			b->says = -1;
		}
		ddbc_xgrow((void **)&R->tied, &R->tied_cap, R->ntied + 1, sizeof(*R->tied));
		R->tied[R->ntied++] = ei;
	}
}

/* Keeps in R->tied the fitting entities that rank first (the order of
 * the file's comment). The constants are looked at only here, when the
 * keys leave a choice. */
static void keep_best(ddbc_items_run *R)
{
	bool any_says = false;
	size_t n = 0, literal = 0;
	for (size_t i = 0; i < R->ntied; i++) {
		const ddbc_items_entity *ei = R->tied[i];
		bool says = constants_say(R, ei);
		if (says && !any_says) {
			any_says = true;
			n = 0;
			literal = 0;
		}
		if (says != any_says || (n && ei->literal < literal))
			continue;
		if (n && ei->literal > literal)
			n = 0;
		literal = ei->literal;
		R->tied[n++] = ei;
	}
	R->ntied = n;
}

/* The item's attributes that entity e does not store. */
static size_t undeclared(const ddbc_items_run *R, const ddbc_entity *e)
{
	size_t n = 0;
	for (size_t i = 0; i < R->nattrs; i++)
		if (!ddbc_entity_stored_attr(e, R->attrs[i].name))
			n++;
	return n;
}

/* Keeps in R->tied the entities that leave the fewest of the item's
 * attributes undeclared. */
static void keep_declaring(ddbc_items_run *R)
{
	size_t n = 0, fewest = (size_t)-1;
	for (size_t i = 0; i < R->ntied; i++) {
		const ddbc_items_entity *ei = R->tied[i];
		size_t u = undeclared(R, ei->e);
		if (u > fewest)
			continue;
		if (u < fewest) {
			fewest = u;
			n = 0;
		}
		R->tied[n++] = ei;
	}
	R->ntied = n;
}

ddbc_items_fit ddbc_items_assign(ddbc_items_run *R)
{
	const char *delims[2] = { R->g->key_delimiter, lenient_delim };
	R->ent = NULL;
	for (int pass = 0; pass < 2; pass++) {
		R->ntied = 0;
		best b = { 0, -1 };
		for (size_t t = 0; t < R->ntables; t++)
			add_fits(R, &R->tables[t], delims[pass], &b);
		if (R->ntied > 1)
			keep_best(R);
		if (R->ntied > 1)
			keep_declaring(R);
		if (R->ntied > 1)
			return DDBC_FIT_SEVERAL;
		if (R->ntied == 1) {
			R->ent = R->tied[0];
			return DDBC_FIT_ONE;
		}
	}
	return DDBC_FIT_NONE;
}

/* ---- ambiguous items ------------------------------------------------------------- */

/* Appends what the constants of ei ask of an item. */
static void add_constants(strbuf *sb, const ddbc_items_entity *ei)
{
	if (!ei->nconsts) {
		ddbc_strbuf_addstr(sb, "no constant attribute");
		return;
	}
	for (size_t i = 0; i < ei->nconsts && i < MAX_LISTED; i++) {
		const ddbc_attr *a = ei->consts[i];
		ddbc_strbuf_addf(sb, "%s%s ", i ? ", " : "", a->name.s);
		if (a->has_template)
			ddbc_strbuf_addf(sb, "'%s'", a->template.s);
		else
			ddbc_strbuf_addf(sb, "'%s'", a->more->enum_values[0]->u.text);
	}
	if (ei->nconsts > MAX_LISTED)
		ddbc_strbuf_addstr(sb, ", ...");
}

void ddbc_items_report_ambiguous(ddbc_items_run *R)
{
	strbuf why = STRBUF_INIT;
	for (size_t i = 0; i < R->ntied && i < MAX_LISTED; i++) {
		ddbc_strbuf_addf(&why, "%s'%s' (", i ? ", " : "", R->tied[i]->e->name.s);
		add_constants(&why, R->tied[i]);
		ddbc_strbuf_addch(&why, ')');
	}
	if (R->ntied > MAX_LISTED)
		ddbc_strbuf_addstr(&why, ", ...");
	bool all_have = true;
	for (size_t i = 0; i < R->ntied; i++)
		all_have = all_have && R->tied[i]->nconsts;
	ddbc_items_finding(R, DDBC_ITEM_AMBIGUOUS, NULL, R->span->pos,
			   "its keys fit several entities, and its constant attributes do not "
			   "say which it is: %s; %s", ddbc_strbuf_str(&why), all_have
			   ? "give every item the constant attribute of its entity"
			   : "give each entity a constant attribute (such as entityType: "
			     "{ template: NAME }) and every item its value");
	ddbc_strbuf_release(&why);
}

/* ---- unmatched items ------------------------------------------------------------- */

static void add_key_lang(strbuf *sb, const ddbc_items_key *k)
{
	if (k->attr->template.s)
		ddbc_strbuf_addf(sb, "'%s'", k->attr->template.s);
	else
		ddbc_strbuf_addf(sb, "any %s", ddbc_type_short(k->attr->type));
}

/* Lists the distinct languages of the key (pk or sk) of the entities
 * marked in pick. */
static void add_langs(strbuf *sb, const ddbc_items_table *ti, const bool *pick, bool sk)
{
	size_t listed = 0;
	for (size_t i = 0; i < ti->nents; i++) {
		const ddbc_items_key *k = sk ? &ti->ents[i].sk : &ti->ents[i].pk;
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++) {
			const ddbc_items_key *o = sk ? &ti->ents[j].sk : &ti->ents[j].pk;
			seen = pick[j] && o->attr->template.s && k->attr->template.s &&
			       !strcmp(o->attr->template.s, k->attr->template.s);
		}
		if (!pick[i] || seen)
			continue;
		if (listed == MAX_LISTED) {
			ddbc_strbuf_addstr(sb, ", ...");
			break;
		}
		ddbc_strbuf_addstr(sb, listed++ ? ", " : "");
		add_key_lang(sb, k);
	}
}

static void add_key_value(strbuf *sb, const char *name, const ddbc_ival *v)
{
	ddbc_strbuf_addf(sb, "'%s' ", name);
	if (v->text)
		ddbc_add_quoted(sb, v->text, v->len);
	else
		ddbc_strbuf_addf(sb, "(%s)", ddbc_type_short(v->type));
}

/* ---- the near miss: a number not padded as its field is ------------------------ */

typedef struct padded {
	const char *name;
	unsigned width;
} padded;

/* The padded placeholders of a's template into out (at most max), in the
 * order their runs stand in the key's language (semantics.c builds it the
 * same way, nested templates expanded in place). */
static size_t padded_fields(const ddbc_attr *a, padded *out, size_t n, size_t max,
			    unsigned depth)
{
	for (size_t k = 0; k < a->tpl.nsegs && n < max; k++) {
		const ddbc_segment *seg = &a->tpl.segs[k];
		const ddbc_attr *b = seg->ref;
		if (seg->kind != DDBC_SEG_PLACEHOLDER || !b)
			continue;
		if (b->has_template && !b->in_cycle && depth < 16)
			n = padded_fields(b, out, n, max, depth + 1);
		else if (seg->width && b->type == DDBC_TYPE_N)
			out[n++] = (padded){ b->name.s, seg->width };
	}
	return n;
}

/* Whether v fits k once the r-th run of exactly WIDTH digits takes any
 * number of them. */
static bool fits_unpadded(ddbc_items_run *R, const ddbc_ival *v, const ddbc_items_key *k,
			  size_t r, size_t max_len)
{
	if (!key_text(R, v, k, max_len))
		return false;
	ddbc_lang l;
	ddbc_lang_init(&l);
	size_t seen = 0;
	bool relaxed = false;
	for (size_t i = 0; i < k->lang.nruns; i++) {
		const ddbc_run *run = &k->lang.runs[i];
		if (run->fixed) {
			ddbc_lang_fixed(&l, run->text, run->len);
			continue;
		}
		ddbc_lang_class(&l, (ddbc_class)run->cls, run->min);
		if (run->max && seen++ == r) {
			l.runs[l.nruns - 1].min = 1;
			relaxed = true;
		} else {
			l.runs[l.nruns - 1].max = run->max;
		}
	}
	bool fits = relaxed && ddbc_items_lang_matches(&l, v->text, v->len, R->g->key_delimiter,
						       &R->scratch);
	ddbc_lang_release(&l);
	return fits;
}

/* Says the first entity of ti the item would be if one number of its keys
 * were padded as the template pads it: "an 'Issue' whose 'issueNumber' is
 * not padded to 6 digits", the commonest slip of a hand-written item. */
static void near_miss(ddbc_items_run *R, const ddbc_items_table *ti, const ddbc_ival *pk,
		      const ddbc_ival *sk, strbuf *why)
{
	for (size_t i = 0; i < ti->nents; i++) {
		const ddbc_items_entity *ei = &ti->ents[i];
		for (int side = 0; side < 2; side++) {
			const ddbc_items_key *k = side ? &ei->sk : &ei->pk;
			const ddbc_items_key *other = side ? &ei->pk : &ei->sk;
			const ddbc_ival *v = side ? sk : pk, *ov = side ? pk : sk;
			size_t vmax = side ? MAX_SK_BYTES : MAX_PK_BYTES;
			if (!k->attr || !k->attr->has_template || !v ||
			    (other->attr && !key_fits(R, ov, other, side ? MAX_PK_BYTES : MAX_SK_BYTES,
						      R->g->key_delimiter)))
				continue;
			padded f[8];
			size_t n = padded_fields(k->attr, f, 0, 8, 0);
			for (size_t r = 0; r < n; r++) {
				if (!fits_unpadded(R, v, k, r, vmax))
					continue;
				ddbc_strbuf_addf(why, "; it is close to '%s', but its '%s' in '%s' is not "
					    "the %u digit%s '%s' pads it to", ei->e->name.s, f[r].name,
					    k->attr->name.s, f[r].width, f[r].width == 1 ? "" : "s",
					    k->attr->template.s);
				return;
			}
		}
	}
}

/* Why the item fits no entity of table ti, whose key attributes it has. */
static void explain_table(ddbc_items_run *R, const ddbc_items_table *ti, strbuf *why)
{
	const ddbc_ival *pk = item_attr(R, ti->pk);
	const ddbc_ival *sk = ti->sk ? item_attr(R, ti->sk) : NULL;
	bool *pk_fits = ddbc_xcalloc(ti->nents + 1, sizeof(bool));
	bool *all = ddbc_xcalloc(ti->nents + 1, sizeof(bool));
	size_t npk = 0;
	for (size_t i = 0; i < ti->nents; i++) {
		all[i] = true;
		/* Only as the design reads keys: a fit that needs the delimiter
		 * inside a value is no entity the item could be. */
		pk_fits[i] = key_fits(R, pk, &ti->ents[i].pk, MAX_PK_BYTES, R->g->key_delimiter);
		npk += pk_fits[i];
	}
	size_t typed = 0;
	for (size_t i = 0; i < ti->nents; i++)
		typed += key_text(R, pk, &ti->ents[i].pk, MAX_PK_BYTES);
	ddbc_strbuf_addf(why, "of table '%s': ", ti->t->name.s);
	if (ti->nents == 0) {
		ddbc_strbuf_addstr(why, "the table has no entity");
	} else if (!typed && pk->text && key_bytes(pk) > MAX_PK_BYTES) {
		ddbc_strbuf_addf(why, "its '%s' is longer than %d bytes, DynamoDB's limit for a partition "
			    "key", ti->pk, MAX_PK_BYTES);
	} else if (!typed) {
		ddbc_strbuf_addf(why, "its '%s' is %s, but the table's entities give it type %s", ti->pk,
			    ddbc_type_short(pk->type), ddbc_type_short(ti->ents[0].pk.attr->type));
	} else if (npk && sk) {
		ddbc_strbuf_addstr(why, "its ");
		add_key_value(why, ti->pk, pk);
		ddbc_strbuf_addstr(why, " fits ");
		for (size_t i = 0, n = 0; i < ti->nents; i++)
			if (pk_fits[i])
				ddbc_strbuf_addf(why, "%s'%s'", n++ ? ", " : "", ti->ents[i].e->name.s);
		ddbc_strbuf_addstr(why, ", but its ");
		add_key_value(why, ti->sk, sk);
		ddbc_strbuf_addf(why, " fits none of %s: ", npk > 1 ? "their sort keys" : "its sort key");
		add_langs(why, ti, pk_fits, true);
	} else {
		ddbc_strbuf_addstr(why, "its ");
		add_key_value(why, ti->pk, pk);
		ddbc_strbuf_addstr(why, " fits none of their partition keys: ");
		add_langs(why, ti, all, false);
	}
	free(pk_fits);
	free(all);
	near_miss(R, ti, pk, sk, why);
}

void ddbc_items_report_unmatched(ddbc_items_run *R)
{
	strbuf why = STRBUF_INIT;
	for (size_t t = 0; t < R->ntables && !why.len; t++) {
		const ddbc_items_table *ti = &R->tables[t];
		if (ti->pk && item_attr(R, ti->pk) && (!ti->sk || item_attr(R, ti->sk)))
			explain_table(R, ti, &why);
	}
	if (!why.len && R->ntables == 1 && R->tables[0].pk) {
		const ddbc_items_table *ti = &R->tables[0];
		bool no_pk = !item_attr(R, ti->pk);
		ddbc_strbuf_addf(&why, ": it has no '%s', the %s key of table '%s'",
			    no_pk ? ti->pk : ti->sk, no_pk ? "partition" : "sort", ti->t->name.s);
	} else if (!why.len && R->ntables == 0) {
		ddbc_strbuf_addstr(&why, ": the design has no table");
	} else if (!why.len) {
		ddbc_strbuf_addstr(&why, ": it lacks the key attributes of every table (");
		for (size_t t = 0; t < R->ntables; t++) {
			const ddbc_items_table *ti = &R->tables[t];
			ddbc_strbuf_addf(&why, "%s'%s'%s%s%s of '%s'", t ? "; " : "", ti->pk ? ti->pk : "",
				    ti->sk ? " and '" : "", ti->sk ? ti->sk : "", ti->sk ? "'" : "",
				    ti->t->name.s);
		}
		ddbc_strbuf_addch(&why, ')');
	}
	const char *sep = why.len && why.buf[0] != ':' ? " " : "";
	ddbc_items_finding(R, DDBC_ITEM_UNMATCHED, NULL, R->span->pos, "matches no entity%s%s", sep,
			   ddbc_strbuf_str(&why));
	ddbc_strbuf_release(&why);
}

