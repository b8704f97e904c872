/* item_size.c - DynamoDB's item size rules over example items (item_size.h) */
#include "model/item_size.h"
#include "model/item_check.h"
#include "model/semantics.h"
#include "util/decimal.h"
#include "util/xalloc.h"

#include <string.h>

/* DynamoDB stores a Number as base-100 digits aligned on the decimal
 * point, one byte each, after one byte of sign and exponent; a negative
 * number ends with one more byte. Zero takes one byte. */
uint64_t ddbc_number_size(const char *text, size_t len)
{
	bool neg;
	size_t n;
	long power;
	if (!ddbc_decimal_digits(text, len, &neg, &n, &power))
		return 0;
	if (n == 0)
		return 1;
	bool aligned = n % 2 != 0 || power % 2 != 0;
	return 1 + (n + 1) / 2 + (aligned ? 0 : 1) + (neg ? 1 : 0);
}

static ddbc_type shape_type(const ddbc_pval *v)
{
	if (ddbc_pval_kind(v) == DDBC_NODE_SEQ)
		return DDBC_TYPE_L;
	if (ddbc_pval_kind(v) == DDBC_NODE_MAP)
		return DDBC_TYPE_M;
	switch (ddbc_pval_scalar(v)) {
	case DDBC_SCALAR_INT:
	case DDBC_SCALAR_FLOAT: return DDBC_TYPE_N;
	case DDBC_SCALAR_BOOL: return DDBC_TYPE_BOOL;
	case DDBC_SCALAR_NULL: return DDBC_TYPE_NULL;
	default: return DDBC_TYPE_S;
	}
}

static uint64_t set_size(const ddbc_pval *v, ddbc_type element)
{
	uint64_t sum = 0;
	ddbc_pval_iter it = ddbc_pval_members(v);
	const ddbc_pval *x;
	while (ddbc_pval_item(&it, &x))
		sum += ddbc_value_size(x, element);
	return sum;
}

uint64_t ddbc_value_size(const ddbc_pval *v, ddbc_type t)
{
	/* A value whose shape is not its declared type (example-mismatch tells)
	 * counts as what it is. */
	ddbc_node_kind want = t == DDBC_TYPE_M ? DDBC_NODE_MAP
			      : t == DDBC_TYPE_L || t == DDBC_TYPE_SS || t == DDBC_TYPE_NS ||
					t == DDBC_TYPE_BS ? DDBC_NODE_SEQ : DDBC_NODE_SCALAR;
	if (t == DDBC_TYPE_NONE || ddbc_pval_kind(v) != want)
		t = shape_type(v);
	uint64_t sum = 3;
	ddbc_pval_iter it;
	const ddbc_pval *key, *x;
	switch (t) {
	case DDBC_TYPE_S: return ddbc_pval_n(v);
	case DDBC_TYPE_N: return ddbc_number_size(ddbc_pval_text(v), ddbc_pval_n(v));
	case DDBC_TYPE_B: return ddbc_base64_bytes(ddbc_pval_text(v), ddbc_pval_n(v));
	case DDBC_TYPE_SS: return set_size(v, DDBC_TYPE_S);
	case DDBC_TYPE_NS: return set_size(v, DDBC_TYPE_N);
	case DDBC_TYPE_BS: return set_size(v, DDBC_TYPE_B);
	case DDBC_TYPE_L:
		/* The members are read only here: most values are scalars. */
		it = ddbc_pval_members(v);
		while (ddbc_pval_item(&it, &x))
			sum += 1 + ddbc_value_size(x, DDBC_TYPE_NONE);
		return sum;
	case DDBC_TYPE_M:
		it = ddbc_pval_members(v);
		while (ddbc_pval_pair(&it, &key, &x))
			sum += 1 + ddbc_pval_n(key) + ddbc_value_size(x, DDBC_TYPE_NONE);
		return sum;
	default: return 1;    /* BOOL, NULL */
	}
}

/* The declared type of item's attribute called name; NONE when the entity
 * does not declare it. Sets *stored to whether items hold it. */
static ddbc_type declared(const ddbc_entity *e, ddbc_attr_walk *w, const char *name,
			  bool *stored)
{
	const ddbc_attr *a = e ? ddbc_entity_attr_next(e, w, name) : NULL;
	*stored = !a || ddbc_attr_stored(a);
	return a ? a->type : DDBC_TYPE_NONE;
}

/* A projection as a test of attribute names: ix's own, or keys plus a
 * list (names, n) that ix might project instead. */
typedef struct keeper {
	bool (*keep)(const ddbc_index *ix, const char *name);
	const ddbc_name *names;
	size_t n;
} keeper;

static bool in_names(const ddbc_name *names, size_t n, const char *name);

static bool keeps(const keeper *k, const ddbc_index *ix, const char *name)
{
	return !k || k->keep(ix, name) || in_names(k->names, k->n, name);
}

/* An item's attributes its entity stores, one at a time: what an item's
 * size and each of its index entries add up. */
typedef struct stored_walk {
	const ddbc_entity *e;
	ddbc_pval_iter it;
	ddbc_attr_walk w;
} stored_walk;

/* One attribute: its name and the bytes it takes (its name's and, by
 * attr_bytes, its value's, read only for the attributes that count). */
typedef struct stored_attr {
	const char *name;
	uint32_t len;
	const ddbc_pval *value;
	ddbc_type type;
} stored_attr;

static stored_walk stored_attrs(const ddbc_entity *e, const ddbc_pval *item)
{
	stored_walk s = { e, { NULL, 0 }, DDBC_ATTR_WALK_INIT };
	if (ddbc_pval_kind(item) == DDBC_NODE_MAP)
		s.it = ddbc_pval_members(item);
	return s;
}

static bool next_stored(stored_walk *s, stored_attr *a)
{
	const ddbc_pval *key;
	while (ddbc_pval_pair(&s->it, &key, &a->value)) {
		a->name = ddbc_pval_str(key, &a->len);
		bool stored;
		a->type = declared(s->e, &s->w, a->name, &stored);
		if (stored)
			return true;
	}
	return false;
}

static uint64_t attr_bytes(const stored_attr *a)
{
	return a->len + ddbc_value_size(a->value, a->type);
}

/* The bytes of item's attributes that k keeps (NULL: all). */
static uint64_t sum_attrs(const ddbc_index *ix, const ddbc_entity *e, const ddbc_pval *item,
			  const keeper *k)
{
	uint64_t sum = 0;
	stored_attr a;
	stored_walk s = stored_attrs(e, item);
	while (next_stored(&s, &a))
		if (keeps(k, ix, a.name))
			sum += attr_bytes(&a);
	return sum;
}

size_t ddbc_item_attr_bytes(const ddbc_entity *e, const ddbc_pval *item, ddbc_attr_bytes **out,
			    size_t *cap)
{
	size_t n = 0;
	stored_attr a;
	stored_walk s = stored_attrs(e, item);
	while (next_stored(&s, &a)) {
		ddbc_xgrow((void **)out, cap, n + 1, sizeof(**out));
		(*out)[n].name = a.name;
		(*out)[n].bytes = attr_bytes(&a);
		n++;
	}
	return n;
}

uint64_t ddbc_entry_size_of(const ddbc_index *ix, const ddbc_attr_bytes *a, size_t n)
{
	uint64_t sum = 0;
	for (size_t i = 0; i < n; i++)
		if (ddbc_index_projects(ix, a[i].name))
			sum += a[i].bytes;
	return sum;
}

uint64_t ddbc_item_size(const ddbc_entity *e, const ddbc_pval *item)
{
	return sum_attrs(NULL, e, item, NULL);
}

static bool in_names(const ddbc_name *names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (names[i].s && !strcmp(names[i].s, name))
			return true;
	return false;
}

bool ddbc_index_holds(const ddbc_index *ix, const ddbc_pval *item)
{
	if (ix->kind == DDBC_INDEX_PRIMARY)
		return true;
	for (size_t i = 0; i < ix->npk + ix->nsk; i++) {
		const ddbc_name *k = i < ix->npk ? &ix->pk[i] : &ix->sk[i - ix->npk];
		const ddbc_pval *v = k->s ? ddbc_pval_get(item, k->s) : NULL;
		if (!v || ddbc_pval_is_null(v))
			return false;
	}
	return true;
}

bool ddbc_index_projects(const ddbc_index *ix, const char *name)
{
	if (ix->kind == DDBC_INDEX_PRIMARY || ix->projection == DDBC_PROJ_ALL)
		return true;
	if (ddbc_index_has_key(ix, name) || ddbc_index_has_key(&ix->table->primary, name))
		return true;
	return ix->projection == DDBC_PROJ_INCLUDE && in_names(ix->include, ix->ninclude, name);
}

uint64_t ddbc_entry_size(const ddbc_index *ix, const ddbc_entity *e, const ddbc_pval *item)
{
	keeper k = { ddbc_index_projects, NULL, 0 };
	return sum_attrs(ix, e, item, &k);
}

static bool is_key_of(const ddbc_index *ix, const char *name)
{
	return ddbc_index_has_key(ix, name) || ddbc_index_has_key(&ix->table->primary, name);
}

uint64_t ddbc_keys_entry_size(const ddbc_index *ix, const ddbc_entity *e, const ddbc_pval *item)
{
	keeper k = { is_key_of, NULL, 0 };
	return sum_attrs(ix, e, item, &k);
}

uint64_t ddbc_include_entry_size(const ddbc_index *ix, const ddbc_entity *e,
				 const ddbc_pval *item, const ddbc_name *names, size_t n)
{
	keeper k = { is_key_of, names, n };
	return sum_attrs(ix, e, item, &k);
}
