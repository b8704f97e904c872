/* load_fields.c - the loader's generic field checks */
#include "input/load_int.h"
#include "util/suggest.h"
#include "util/xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- generic field checks ------------------------------------------------ */

/* The message grows to any length: a long bad value keeps its hint. */
void ddbc_load_schema(loader *L, ddbc_loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ddbc_diag_vadd(L->d, DDBC_RULE_SCHEMA, loc, fmt, ap);
	va_end(ap);
}

/* Reports every key of map that is not in known, with a suggestion;
 * returns how many there are. */
size_t ddbc_load_check_known(loader *L, const ddbc_node *map, const char *what,
			     const char *const *known, size_t n)
{
	return ddbc_load_fields(L, map, what, known, n, NULL);
}

size_t ddbc_load_fields(loader *L, const ddbc_node *map, const char *what,
			const char *const *known, size_t n, const ddbc_node **at)
{
	size_t unknown = 0;
	L->hinted = map;
	L->nhints = 0;
	for (size_t k = 0; at && k < n; k++)
		at[k] = NULL;
	for (size_t i = 0; i < map->n; i++) {
		const ddbc_node *key = map->u.pairs[i].key;
		size_t k = 0;
		/* The first byte rules out most names without a call. */
		while (k < n && (key->u.text[0] != known[k][0] || strcmp(key->u.text, known[k])))
			k++;
		if (k < n) {
			/* The first of repeated keys, as ddbc_node_get finds. */
			if (at && !at[k])
				at[k] = map->u.pairs[i].value;
			continue;
		}
		unknown++;
		const char *hint = ddbc_suggest(key->u.text, known, n);
		if (hint && L->nhints < countof(L->hints))
			L->hints[L->nhints++] = hint;
		if (hint)
			ddbc_load_schema(L, key->loc,
					 "unknown field '%s' in %s; did you mean '%s'?",
					 key->u.text, what, hint);
		else
			ddbc_load_schema(L, key->loc, "unknown field '%s' in %s", key->u.text,
					 what);
	}
	return unknown;
}

/* Whether check_known told of map that an unknown field may be key. */
bool ddbc_load_suggested(const loader *L, const ddbc_node *map, const char *key)
{
	for (size_t i = 0; L->hinted == map && i < L->nhints; i++)
		if (!strcmp(L->hints[i], key))
			return true;
	return false;
}

/* The value of a required field; reports it missing, unless an unknown
 * field of map is its misspelling, already reported with its fix. */
const ddbc_node *ddbc_load_require(loader *L, const ddbc_node *map, const char *key,
				   const char *what)
{
	return ddbc_load_require_value(L, map, ddbc_node_get(map, key), key, what);
}

const ddbc_node *ddbc_load_require_value(loader *L, const ddbc_node *map, const ddbc_node *v,
					 const char *key, const char *what)
{
	if (!v && !ddbc_load_suggested(L, map, key))
		ddbc_load_schema(L, map->loc, "missing required field '%s' in %s", key, what);
	return v;
}

bool ddbc_load_expect_kind(loader *L, const ddbc_node *node, ddbc_node_kind kind,
			   const char *field)
{
	static const char *const kinds[] = { "a scalar", "a sequence", "a mapping" };
	if (node->kind == kind)
		return true;
	ddbc_load_schema(L, node->loc, "'%s' must be %s, not %s", field, kinds[kind],
			 ddbc_node_describe(node));
	return false;
}

/* A name or other plain text: any non-null scalar. */
bool ddbc_load_text_node(loader *L, const ddbc_node *node, const char *field)
{
	if (!ddbc_load_expect_kind(L, node, DDBC_NODE_SCALAR, field))
		return false;
	if (node->scalar == DDBC_SCALAR_NULL || node->n == 0) {
		ddbc_load_schema(L, node->loc, "'%s' must not be empty", field);
		return false;
	}
	return true;
}

/* The loader reads each section entry while the composer holds it, and
 * the entry's nodes are gone after that: what the model keeps is copied
 * into the design's arena, by name_of, word_of and keep. */
ddbc_name ddbc_load_name_of(loader *L, const ddbc_node *node)
{
	ddbc_name n = { ddbc_arena_strndup(L->arena, node->u.text, node->n), node->loc };
	return n;
}

/* name_of for the words of an attribute (its name, description, format,
 * template): they recur in entity after entity, and a word met lately
 * shares its copy instead of making another. The latest words are kept in
 * a direct-mapped cache, not all words in a set: most templates are their
 * entity's own, and a set of them all outgrew the processor's caches (its
 * lookups missed them: 3% of lint's time at 10,000 entities, for 0.3% of
 * its instructions) and held 4 MiB at 40,000 entities. A word pushed out
 * by another is copied again when it comes back, rarely. */
#define WORD_SLOTS 2048
ddbc_name ddbc_load_word_of(loader *L, const ddbc_node *node)
{
	if (!L->words)
		L->words = ddbc_xcalloc(WORD_SLOTS, sizeof(*L->words));
	uint64_t h64 = ddbc_hash64(node->u.text, node->n);
	uint32_t h = ddbc_hash32(h64);
	ddbc_strset_entry *e = &L->words[h & (WORD_SLOTS - 1)];
	if (!e->s || e->hash != h || e->len != node->n ||
	    memcmp(e->s, node->u.text, node->n)) {
		e->s = ddbc_arena_strndup(L->arena, node->u.text, node->n);
		e->len = (uint32_t)node->n;
		e->hash = h;
	}
	ddbc_name n = { e->s, node->loc };
	return n;
}

const char *ddbc_load_get_attr_word(loader *L, const ddbc_node *map, const char *key)
{
	return ddbc_load_attr_word_of(L, ddbc_node_get(map, key), key);
}

const char *ddbc_load_attr_word_of(loader *L, const ddbc_node *v, const char *key)
{
	return v && ddbc_load_text_node(L, v, key) ? ddbc_load_word_of(L, v).s : NULL;
}

ddbc_node *ddbc_load_keep(loader *L, const ddbc_node *node)
{
	return node ? ddbc_node_copy(L->arena, node) : NULL;
}

ddbc_name ddbc_load_get_name(loader *L, const ddbc_node *map, const char *key)
{
	return ddbc_load_name_field(L, map, ddbc_node_get(map, key), key);
}

ddbc_name ddbc_load_name_field(loader *L, const ddbc_node *map, const ddbc_node *v,
			       const char *key)
{
	ddbc_name n = { NULL, map->loc };
	if (v && ddbc_load_text_node(L, v, key))
		n = ddbc_load_name_of(L, v);
	return n;
}

const char *ddbc_load_get_text(loader *L, const ddbc_node *map, const char *key)
{
	return ddbc_load_get_name(L, map, key).s;
}

bool ddbc_load_get_bool(loader *L, const ddbc_node *map, const char *key, bool *out,
			ddbc_loc *loc)
{
	return ddbc_load_bool_of(L, ddbc_node_get(map, key), key, out, loc);
}

bool ddbc_load_bool_of(loader *L, const ddbc_node *v, const char *key, bool *out, ddbc_loc *loc)
{
	if (!v)
		return false;
	if (loc)
		*loc = v->loc;
	if (ddbc_node_bool(v, out))
		return true;
	ddbc_load_schema(L, v->loc, "'%s' must be true or false, not %s", key,
			 ddbc_node_describe(v));
	return false;
}

/* Whether map's key holds one of words, *index then saying which. A
 * value that is no such word is reported; an absent key is not. */
bool ddbc_load_get_word(loader *L, const ddbc_node *map, const char *key,
			const char *const *words, size_t n, size_t *index)
{
	return ddbc_load_word_in(L, ddbc_node_get(map, key), key, words, n, index);
}

bool ddbc_load_word_in(loader *L, const ddbc_node *v, const char *key,
		       const char *const *words, size_t n, size_t *index)
{
	if (!v || !ddbc_load_expect_kind(L, v, DDBC_NODE_SCALAR, key))
		return false;
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(v->u.text, words[i])) {
			*index = i;
			return true;
		}
	}
	strbuf list = STRBUF_INIT;
	for (size_t i = 0; i < n; i++)
		ddbc_strbuf_addf(&list, "%s%s", i ? ", " : "", words[i]);
	const char *hint = ddbc_suggest(v->u.text, words, n);
	if (hint)
		ddbc_load_schema(L, v->loc,
				 "unknown %s '%s'; expected one of %s (did you mean '%s'?)", key,
				 v->u.text, ddbc_strbuf_str(&list), hint);
	else
		ddbc_load_schema(L, v->loc, "unknown %s '%s'; expected one of %s", key, v->u.text,
				 ddbc_strbuf_str(&list));
	ddbc_strbuf_release(&list);
	return false;
}

/* A list of names: each a non-empty scalar. */
size_t ddbc_load_get_names(loader *L, const ddbc_node *seq, const char *field, ddbc_name **out)
{
	*out = ddbc_arena_array(L->arena, seq->n, sizeof(ddbc_name));
	size_t n = 0;
	for (size_t i = 0; i < seq->n; i++)
		if (ddbc_load_text_node(L, seq->u.items[i], field))
			(*out)[n++] = ddbc_load_name_of(L, seq->u.items[i]);
	return n;
}

/* A name, or (when many is set) a list of names. */
size_t ddbc_load_get_key_names(loader *L, const ddbc_node *v, const char *field, bool many,
			       ddbc_name **out)
{
	if (v->kind == DDBC_NODE_SEQ && many) {
		if (v->n == 0)
			ddbc_load_schema(L, v->loc, "'%s' must name at least one attribute", field);
		return ddbc_load_get_names(L, v, field, out);
	}
	if (v->kind == DDBC_NODE_SEQ) {
		ddbc_load_schema(L, v->loc, "'%s' must be one attribute name, not a sequence",
				 field);
		return 0;
	}
	if (v->kind == DDBC_NODE_MAP) {
		ddbc_load_schema(L, v->loc, "'%s' must be an attribute name%s, not a mapping",
				 field,
				 many ? " or a list of names" : "");
		return 0;
	}
	if (!ddbc_load_text_node(L, v, field))
		return 0;
	*out = ddbc_arena_alloc(L->arena, sizeof(ddbc_name));
	**out = ddbc_load_name_of(L, v);
	return 1;
}

