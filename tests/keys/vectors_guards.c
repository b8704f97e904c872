/* vectors_guards.c - conformance vectors of the type guards (<prefix>_entity_of)
 *
 * Every example item of every entity, as DynamoDB JSON (the attributes its
 * entity stores), and variants of it: its Binary values, at any depth, as
 * the bytes the SDKs return (Uint8Array, bytes, []byte) instead of base64
 * text, each Number constant written another way with the same value ("1"
 * as "1.0"), and each with another value; each constant of any type left
 * out, with another value, of another type, and nested one level down (in
 * a list, in a map); Binary keys at DynamoDB's byte limit and one byte
 * over it; and each key value that holds a Number with that Number written
 * as a fraction, an exponent, a negative or with zeros before it (a
 * :0WIDTH field holds none of those but the zeros, an unpadded one all but
 * those, as check-items decides). Which entity each is comes from `ddbc
 * check-items` itself: tests/keys.test runs it on guards.jsonl, where every
 * item holds one more attribute (PROBE) that its entity does not define,
 * so that check-items names the entity it assigned in an unknown-attribute
 * note (every entity counts that attribute alike, so it changes no
 * choice). A vector says which line of guards.jsonl it is; the bytes
 * variant is the line of its item.
 */
#include "vectors_guards.h"
#include "emit/emit_json.h"
#include "model/semantics.h"
#include "util/xalloc.h"

#include <string.h>

/* The example as DynamoDB JSON: the members its entity stores, typed as
 * the entity says (check-items reads it so), and the probe. */
static json_t *item_json(const ddbc_entity *e, const ddbc_pval *ex)
{
	json_t *item = json_object();
	ddbc_pval_iter it = ddbc_pval_members(ex);
	const ddbc_pval *key, *v;
	while (ddbc_pval_pair(&it, &key, &v)) {
		const char *name = ddbc_pval_text(key);
		const ddbc_attr *a = ddbc_entity_attr(e, name);
		if (a && !ddbc_attr_stored(a))
			continue;
		json_object_set_new(item, name, ddbc_json_attr_value(v, a ? a->type : DDBC_TYPE_NONE));
	}
	json_t *probe = json_object();
	json_object_set_new(probe, "S", json_string("probe"));
	json_object_set_new(item, GUARD_PROBE, probe);
	return item;
}

/* Whether value v (DynamoDB JSON) holds a Binary at any depth: in a map,
 * a list or a set, the SDKs return each as bytes. */
static bool holds_binary(const json_t *v)
{
	if (json_object_get(v, "B") || json_object_get(v, "BS"))
		return true;
	const json_t *inner = json_object_get(v, "M");
	const char *name;
	json_t *x;
	size_t i;
	json_object_foreach((json_t *)(inner ? inner : v), name, x)
		if (json_is_object(x) && holds_binary(x))
			return true;
	json_array_foreach(json_object_get(v, "L"), i, x)
		if (holds_binary(x))
			return true;
	return false;
}

static void add(guard_gen *G, json_t *item, bool bytes, int line)
{
	json_t *v = json_object();
	json_object_set_new(v, "id", json_integer(G->next_id++));
	json_object_set_new(v, "item", json_incref(item));
	json_object_set_new(v, "bytes", json_boolean(bytes));
	json_object_set_new(v, "line", json_integer(line));
	json_array_append_new(G->vectors, v);
}

/* Adds item as a line of guards.jsonl and its vectors; takes item. */
static void add_item(guard_gen *G, json_t *item)
{
	int line = G->lines++;
	char *text = json_dumps(item, JSON_COMPACT | JSON_ENSURE_ASCII | JSON_SORT_KEYS);
	ddbc_strbuf_addstr(&G->jsonl, text);
	ddbc_strbuf_addch(&G->jsonl, '\n');
	free(text);
	add(G, item, false, line);
	if (holds_binary(item))
		add(G, item, true, line);
	json_decref(item);
}

/* The item with constant a's Number written as text. */
static json_t *with_number(const json_t *item, const ddbc_attr *a, const char *text)
{
	json_t *copy = json_deep_copy(item), *n = json_object();
	json_object_set_new(n, "N", json_string(text));
	json_object_set_new(copy, a->name.s, n);
	return copy;
}

/* Variants of item for each Number constant of e it holds as a plain
 * integer: the same value as a decimal, and another value. */
static void number_variants(guard_gen *G, const ddbc_entity *e, const json_t *item)
{
	for (size_t i = 0; i < e->nattrs; i++) {
		const ddbc_attr *a = &e->attrs[i];
		if (a->type != DDBC_TYPE_N || !e->table || !ddbc_attr_is_constant(a, e->table))
			continue;
		const char *v = json_string_value(json_object_get(json_object_get(item, a->name.s), "N"));
		if (!v || !*v || strspn(v, "0123456789") != strlen(v))
			continue;
		strbuf t = STRBUF_INIT;
		ddbc_strbuf_addf(&t, "%s.0", v);
		add_item(G, with_number(item, a, t.buf));
		ddbc_strbuf_reset(&t);
		ddbc_strbuf_addf(&t, "%s0E-1", v);
		add_item(G, with_number(item, a, t.buf));
		ddbc_strbuf_reset(&t);
		ddbc_strbuf_addf(&t, "%s1", v);
		add_item(G, with_number(item, a, t.buf));
		ddbc_strbuf_release(&t);
	}
}

/* The item with member name set to value (taken), or left out (NULL). */
static json_t *with_member(const json_t *item, const char *name, json_t *value)
{
	json_t *copy = json_deep_copy(item);
	if (value)
		json_object_set_new(copy, name, value);
	else
		json_object_del(copy, name);
	return copy;
}

/* {type: value} */
static json_t *typed(const char *type, json_t *value)
{
	json_t *v = json_object();
	json_object_set_new(v, type, value);
	return v;
}

/* Another value of constant a's type than v (DynamoDB JSON); NULL for a
 * Null, which has one value, and for a Number (number_variants). */
static json_t *other_value(const ddbc_attr *a, const json_t *v)
{
	const char *text = json_string_value(json_object_get(v, ddbc_type_short(a->type)));
	switch (a->type) {
	case DDBC_TYPE_S: {
		strbuf t = STRBUF_INIT;
		ddbc_strbuf_addf(&t, "%sx", text ? text : "");
		json_t *o = typed("S", json_string(t.buf));
		ddbc_strbuf_release(&t);
		return o;
	}
	case DDBC_TYPE_B:
		return typed("B", json_string(text && !strcmp(text, "AAAA") ? "AQID" : "AAAA"));
	case DDBC_TYPE_BOOL:
		return typed("BOOL", json_boolean(!json_is_true(json_object_get(v, "BOOL"))));
	default:
		return NULL;
	}
}

/* Variants of item for each constant attribute of e, of every type the
 * guards compare (S, N, B, BOOL, NULL): left out; another value of its
 * type; another type; and its value one level down, in a list and in a
 * map under its own name, which is no longer the constant (the guards,
 * like check-items, read the top-level member). */
static void constant_variants(guard_gen *G, const ddbc_entity *e, const json_t *item)
{
	for (size_t i = 0; e->table && i < e->nattrs; i++) {
		const ddbc_attr *a = &e->attrs[i];
		const json_t *v = json_object_get(item, a->name.s);
		if (!v || !ddbc_attr_is_constant(a, e->table))
			continue;
		add_item(G, with_member(item, a->name.s, NULL));
		json_t *other = other_value(a, v);
		if (other)
			add_item(G, with_member(item, a->name.s, other));
		add_item(G, with_member(item, a->name.s, a->type == DDBC_TYPE_S
					? typed("N", json_string("1")) : typed("S", json_string("1"))));
		json_t *list = json_array();
		json_array_append_new(list, json_deep_copy(v));
		add_item(G, with_member(item, a->name.s, typed("L", list)));
		json_t *map = json_object();
		json_object_set_new(map, a->name.s, json_deep_copy(v));
		add_item(G, with_member(item, a->name.s, typed("M", map)));
	}
}

/* Standard base64 of n bytes (all 0xAB): long key values. */
static char *base64_of(size_t n)
{
	static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char *out = ddbc_xmalloc((n + 2) / 3 * 4 + 1), *o = out;
	for (size_t i = 0; i < n; i += 3) {
		unsigned v = 0xABu << 16 | (i + 1 < n ? 0xABu << 8 : 0) | (i + 2 < n ? 0xABu : 0);
		*o++ = abc[v >> 18 & 63];
		*o++ = abc[v >> 12 & 63];
		*o++ = i + 1 < n ? abc[v >> 6 & 63] : '=';
		*o++ = i + 2 < n ? abc[v & 63] : '=';
	}
	*o = '\0';
	return out;
}

/* Variants of item for each Binary primary-key attribute of e: a value of
 * DynamoDB's most bytes for that key (2048 for a partition key, 1024 for a
 * sort key), counted decoded, and one byte more. Its base64 text is longer
 * than the limit either way, so a guard counting the text refuses both. */
static void binary_variants(guard_gen *G, const ddbc_entity *e, const json_t *item)
{
	const ddbc_index *pk = e->table ? &e->table->primary : NULL;
	for (size_t k = 0; pk && k < 2; k++) {
		const ddbc_name *key = k ? (pk->nsk ? pk->sk : NULL) : pk->pk;
		const ddbc_attr *a = key ? ddbc_entity_attr(e, key->s) : NULL;
		if (!a || a->type != DDBC_TYPE_B || a->has_template)
			continue;
		size_t most = k ? 1024 : 2048;
		for (size_t n = most; n <= most + 1; n++) {
			char *text = base64_of(n);
			json_t *copy = json_deep_copy(item), *b = json_object();
			json_object_set_new(b, "B", json_string(text));
			json_object_set_new(copy, a->name.s, b);
			add_item(G, copy);
			free(text);
		}
	}
}

/* Whether key's template holds a Number placeholder. */
static bool holds_number(const ddbc_attr *key)
{
	for (size_t i = 0; key->has_template && i < key->tpl.nsegs; i++) {
		const ddbc_segment *seg = &key->tpl.segs[i];
		const ddbc_attr *b = seg->ref;
		if (seg->kind != DDBC_SEG_LITERAL && b && b->type == DDBC_TYPE_N)
			return true;
	}
	return false;
}

/* Variants of item for each S key of e whose template holds a Number: the
 * key's first run of digits written other ways. */
static void key_number_variants(guard_gen *G, const ddbc_entity *e, const json_t *item)
{
	static const char *const others[] = { "12.5", "1E3", "-4", "6.02E+23", "0012" };
	const ddbc_index *pk = e->table ? &e->table->primary : NULL;
	for (size_t k = 0; pk && k < 2; k++) {
		const ddbc_name *key = k ? (pk->nsk ? pk->sk : NULL) : pk->pk;
		const ddbc_attr *a = key ? ddbc_entity_attr(e, key->s) : NULL;
		if (!a || a->type != DDBC_TYPE_S || !holds_number(a))
			continue;
		const char *v = json_string_value(json_object_get(json_object_get(item, a->name.s), "S"));
		size_t at = v ? strcspn(v, "0123456789") : 0;
		if (!v || !v[at])
			continue;
		size_t run = strspn(v + at, "0123456789");
		for (size_t o = 0; o < sizeof(others) / sizeof(others[0]); o++) {
			strbuf t = STRBUF_INIT;
			ddbc_strbuf_add(&t, v, at);
			ddbc_strbuf_addstr(&t, others[o]);
			ddbc_strbuf_addstr(&t, v + at + run);
			json_t *copy = json_deep_copy(item), *sv = json_object();
			json_object_set_new(sv, "S", json_string(t.buf));
			json_object_set_new(copy, a->name.s, sv);
			add_item(G, copy);
			ddbc_strbuf_release(&t);
		}
	}
}

void guard_vectors(guard_gen *G, const ddbc_design *g)
{
	for (size_t i = 0; i < g->nentities; i++) {
		const ddbc_entity *e = &g->entities[i];
		for (size_t x = 0; x < e->nexamples; x++) {
			if (ddbc_pval_kind(e->examples[x]) != DDBC_NODE_MAP)
				continue;
			json_t *item = item_json(e, e->examples[x]);
			number_variants(G, e, item);
			constant_variants(G, e, item);
			binary_variants(G, e, item);
			key_number_variants(G, e, item);
			add_item(G, item);
		}
	}
}
