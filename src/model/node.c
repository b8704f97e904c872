/* node.c - copying and reading YAML values */
#include "model/node.h"
#include "util/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

size_t ddbc_node_pairs_size(size_t n)
{
	size_t index = n > DDBC_NODE_INDEX_MIN ? n * sizeof(uint32_t) : 0;
	if (n > (SIZE_MAX - index) / sizeof(ddbc_pair))
		ddbc_xalloc_die();
	return n * sizeof(ddbc_pair) + index;
}

static uint32_t *pair_index(const ddbc_node *map)
{
	return map->n > DDBC_NODE_INDEX_MIN ? (uint32_t *)(map->u.pairs + map->n) : NULL;
}

/* Keys compare as C strings, as ddbc_node_get's argument is one; keys
 * that only differ after a NUL (a quoted "\0") stay in file order, so the
 * search finds the first of them, as a scan would. */
static int by_key(const void *pa, const void *pb)
{
	const ddbc_pair *a = *(const ddbc_pair *const *)pa, *b = *(const ddbc_pair *const *)pb;
	int r = strcmp(a->key->u.text, b->key->u.text);
	return r ? r : (a > b) - (a < b);
}

void ddbc_node_index_pairs(ddbc_node *map)
{
	uint32_t *index = pair_index(map);
	if (!index)
		return;
	const ddbc_pair **order = ddbc_xmalloc(map->n * sizeof(*order));
	for (size_t i = 0; i < map->n; i++)
		order[i] = &map->u.pairs[i];
	qsort(order, map->n, sizeof(*order), by_key);
	for (size_t i = 0; i < map->n; i++)
		index[i] = (uint32_t)(order[i] - map->u.pairs);
	free(order);
}

ddbc_node *ddbc_node_copy(ddbc_arena *arena, const ddbc_node *node)
{
	ddbc_node *copy = ddbc_arena_alloc(arena, sizeof(*copy));
	*copy = *node;
	switch (node->kind) {
	case DDBC_NODE_SCALAR:
		copy->u.text = ddbc_arena_strndup(arena, node->u.text, node->n);
		break;
	case DDBC_NODE_SEQ:
		copy->u.items = ddbc_arena_array(arena, node->n, sizeof(ddbc_node *));
		for (size_t i = 0; i < node->n; i++)
			copy->u.items[i] = ddbc_node_copy(arena, node->u.items[i]);
		break;
	case DDBC_NODE_MAP:
		copy->u.pairs = ddbc_arena_alloc(arena, ddbc_node_pairs_size(node->n));
		for (size_t i = 0; i < node->n; i++) {
			copy->u.pairs[i].key = ddbc_node_copy(arena, node->u.pairs[i].key);
			copy->u.pairs[i].value = ddbc_node_copy(arena, node->u.pairs[i].value);
		}
		if (pair_index(node))
			memcpy(pair_index(copy), pair_index(node), node->n * sizeof(uint32_t));
		break;
	}
	return copy;
}

/* ---- readers ------------------------------------------------------------------- */

ddbc_node *ddbc_node_get(const ddbc_node *map, const char *key)
{
	if (!map || map->kind != DDBC_NODE_MAP)
		return NULL;
	const uint32_t *index = pair_index(map);
	if (!index) {
		/* The loader asks for every known field of every mapping: the
		 * first byte rules out most keys without a call. */
		for (size_t i = 0; i < map->n; i++) {
			const char *k = map->u.pairs[i].key->u.text;
			if (k[0] == key[0] && !strcmp(k, key))
				return map->u.pairs[i].value;
		}
		return NULL;
	}
	/* The first position whose key is not below key. */
	size_t lo = 0, hi = map->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(map->u.pairs[index[mid]].key->u.text, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == map->n || strcmp(map->u.pairs[index[lo]].key->u.text, key) != 0)
		return NULL;
	return map->u.pairs[index[lo]].value;
}

bool ddbc_node_bool(const ddbc_node *node, bool *out)
{
	if (!node || node->kind != DDBC_NODE_SCALAR || node->scalar != DDBC_SCALAR_BOOL)
		return false;
	*out = node->u.text[0] == 't' || node->u.text[0] == 'T';
	return true;
}

bool ddbc_node_int(const ddbc_node *node, long long *out)
{
	if (!node || node->kind != DDBC_NODE_SCALAR || node->scalar != DDBC_SCALAR_INT)
		return false;
	return ddbc_int_text(node->u.text, out);
}

bool ddbc_node_number(const ddbc_node *node, double *out)
{
	if (!ddbc_node_is_number(node))
		return false;
	long long i;
	if (ddbc_node_int(node, &i)) {
		*out = (double)i;
		return true;
	}
	const char *s = node->u.text;
	const char *t = *s == '+' || *s == '-' ? s + 1 : s;
	/* strtod reads "inf" and "nan", not YAML's ".inf" and ".nan". */
	if (t[0] == '.' && (t[1] == 'i' || t[1] == 'I'))
		*out = *s == '-' ? -INFINITY : INFINITY;
	else if (t[0] == '.' && (t[1] == 'n' || t[1] == 'N'))
		*out = NAN;
	else
		*out = strtod(s, NULL);
	return true;
}

bool ddbc_int_text(const char *s, long long *out)
{
	int base = 10;
	if (!strncmp(s, "0x", 2))
		s += 2, base = 16;
	else if (!strncmp(s, "0o", 2))
		s += 2, base = 8;
	errno = 0;
	char *end;
	long long v = strtoll(s, &end, base);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

bool ddbc_node_is_null(const ddbc_node *node)
{
	return node && node->kind == DDBC_NODE_SCALAR && node->scalar == DDBC_SCALAR_NULL;
}

bool ddbc_node_is_number(const ddbc_node *node)
{
	return node && node->kind == DDBC_NODE_SCALAR &&
	       (node->scalar == DDBC_SCALAR_INT || node->scalar == DDBC_SCALAR_FLOAT);
}

const char *ddbc_node_describe(const ddbc_node *node)
{
	return node ? ddbc_kind_describe(node->kind, node->scalar) : "nothing";
}

const char *ddbc_kind_describe(ddbc_node_kind kind, ddbc_scalar_kind scalar)
{
	switch (kind) {
	case DDBC_NODE_SEQ: return "a sequence";
	case DDBC_NODE_MAP: return "a mapping";
	case DDBC_NODE_SCALAR: break;
	}
	switch (scalar) {
	case DDBC_SCALAR_INT:
	case DDBC_SCALAR_FLOAT: return "a number";
	case DDBC_SCALAR_BOOL: return "a boolean";
	case DDBC_SCALAR_NULL: return "null";
	case DDBC_SCALAR_STR: break;
	}
	return "a string";
}
