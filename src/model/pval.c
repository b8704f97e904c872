/* pval.c - packing YAML values into byte runs and reading them (pval.h) */
#include "model/pval.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* ---- varints ------------------------------------------------------------------------ */

static size_t varint_len(uint64_t x)
{
	size_t n = 1;
	while (x >= 0x80)
		x >>= 7, n++;
	return n;
}

static uint8_t *put_varint(uint8_t *p, uint64_t x)
{
	while (x >= 0x80) {
		*p++ = (uint8_t)(x | 0x80);
		x >>= 7;
	}
	*p++ = (uint8_t)x;
	return p;
}

/* Most varints of an item are one byte: that path is inline. */
static inline const uint8_t *get_varint(const uint8_t *p, uint64_t *x)
{
	if (!(*p & 0x80)) {
		*x = *p;
		return p + 1;
	}
	uint64_t v = 0;
	for (unsigned shift = 0;; shift += 7) {
		uint8_t b = *p++;
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			break;
	}
	*x = v;
	return p;
}

static inline const uint8_t *skip_varint(const uint8_t *p)
{
	while (*p++ & 0x80)
		;
	return p;
}

/* ---- the header ---------------------------------------------------------------------- */

#define TAG(kind, scalar, plain) ((uint8_t)((kind) | (scalar) << 2 | (plain) << 5))

/* The line is 1 to 4 bytes, little-endian, their number less one in the
 * tag's top bits, so that stepping over a position is an addition and one
 * (mostly one-byte) varint for the column. */
static size_t line_len(unsigned line)
{
	return line < 1u << 8 ? 1 : line < 1u << 16 ? 2 : line < 1u << 24 ? 3 : 4;
}

static inline const uint8_t *skip_loc(uint8_t tag, const uint8_t *p)
{
	return skip_varint(p + (tag >> 6) + 1);
}
#define BYTES(v) ((const uint8_t *)(v))

/* The header's order (tag, n, body size, line, column) puts what a walk
 * needs first: stepping over a value or reaching a scalar's text reads
 * its sizes and skips its position. */
typedef struct header {
	uint32_t n;
	uint64_t body;          /* containers: bytes of the body */
	const uint8_t *loc;     /* the line and column varints */
	const uint8_t *data;    /* the text or the body */
} header;

static inline header read_header(const ddbc_pval *v)
{
	header h;
	uint64_t x;
	const uint8_t *p = get_varint(BYTES(v) + 1, &x);
	h.n = (uint32_t)x;
	h.body = 0;
	if ((BYTES(v)[0] & 3) != DDBC_NODE_SCALAR)
		p = get_varint(p, &h.body);
	h.loc = p;
	h.data = skip_loc(BYTES(v)[0], p);
	return h;
}

/* Where the value after v starts. */
static inline const uint8_t *end_of(const ddbc_pval *v, const header *h)
{
	return h->data + ((BYTES(v)[0] & 3) == DDBC_NODE_SCALAR ? h->n + 1 : h->body);
}

/* The value after the one at p: its sizes read, its position skipped. */
static inline const uint8_t *skip_value(const uint8_t *p)
{
	uint8_t tag = *p;
	uint64_t n, body;
	p = get_varint(p + 1, &n);
	if ((tag & 3) == DDBC_NODE_SCALAR)
		return skip_loc(tag, p) + n + 1;
	p = get_varint(p, &body);
	return skip_loc(tag, p) + body;
}

/* ---- packing --------------------------------------------------------------------------- */

static bool indexed(const ddbc_node *node)
{
	return node->kind == DDBC_NODE_MAP && node->n > DDBC_NODE_INDEX_MIN;
}

static size_t packed_size(const ddbc_node *node);

static size_t body_size(const ddbc_node *node)
{
	size_t sum = 0;
	for (size_t i = 0; i < node->n; i++)
		if (node->kind == DDBC_NODE_SEQ)
			sum += packed_size(node->u.items[i]);
		else
			sum += packed_size(node->u.pairs[i].key) + packed_size(node->u.pairs[i].value);
	return sum + (indexed(node) ? node->n * sizeof(uint32_t) : 0);
}

/* The bytes of node packed, given its body's (containers). */
static size_t size_with(const ddbc_node *node, size_t body)
{
	size_t head = 1 + line_len(node->loc.line) + varint_len(node->loc.column) +
		      varint_len(node->n);
	if (node->kind == DDBC_NODE_SCALAR)
		return head + node->n + 1;
	return head + varint_len(body) + body;
}

/* Most nodes of an item are scalars (its keys, most values): they are
 * measured and packed inline, without a call each. */
static inline size_t scalar_size(const ddbc_node *node)
{
	return 1 + line_len(node->loc.line) + varint_len(node->loc.column) + varint_len(node->n) +
	       node->n + 1;
}

static size_t packed_size(const ddbc_node *node)
{
	if (node->kind == DDBC_NODE_SCALAR)
		return scalar_size(node);
	return size_with(node, body_size(node));
}

/* The keys of a mapping in strcmp order, ties in file order (node.c's
 * by_key), as offsets from the body's start. */
typedef struct keyed {
	const char *key;
	uint32_t pos, offset;
} keyed;

static int by_key(const void *pa, const void *pb)
{
	const keyed *a = pa, *b = pb;
	int r = strcmp(a->key, b->key);
	return r ? r : (a->pos > b->pos) - (a->pos < b->pos);
}

static inline uint8_t *pack_scalar(uint8_t *p, const ddbc_node *node)
{
	size_t ll = line_len(node->loc.line);
	*p++ = (uint8_t)(TAG(DDBC_NODE_SCALAR, node->scalar, node->plain) | (ll - 1) << 6);
	p = put_varint(p, node->n);
	for (size_t i = 0; i < ll; i++)
		*p++ = (uint8_t)(node->loc.line >> (8 * i));
	p = put_varint(p, node->loc.column);
	memcpy(p, node->u.text, node->n);
	p[node->n] = '\0';
	return p + node->n + 1;
}

/* known: a container's body size when measured already, else SIZE_MAX. */
static uint8_t *pack(uint8_t *p, const ddbc_node *node, size_t known)
{
	size_t ll = line_len(node->loc.line);
	*p++ = (uint8_t)(TAG(node->kind, node->kind == DDBC_NODE_SCALAR ? node->scalar : 0,
			     node->kind == DDBC_NODE_SCALAR ? node->plain : 0) | (ll - 1) << 6);
	p = put_varint(p, node->n);
	if (node->kind != DDBC_NODE_SCALAR)
		p = put_varint(p, known != SIZE_MAX ? known : body_size(node));
	for (size_t i = 0; i < ll; i++)
		*p++ = (uint8_t)(node->loc.line >> (8 * i));
	p = put_varint(p, node->loc.column);
	if (node->kind == DDBC_NODE_SCALAR) {
		memcpy(p, node->u.text, node->n);
		p[node->n] = '\0';
		return p + node->n + 1;
	}
	uint8_t *body = p;
	if (node->kind == DDBC_NODE_SEQ) {
		for (size_t i = 0; i < node->n; i++)
			p = pack(p, node->u.items[i], SIZE_MAX);
		return p;
	}
	keyed *keys = indexed(node) ? ddbc_xmalloc(node->n * sizeof(*keys)) : NULL;
	for (size_t i = 0; i < node->n; i++) {
		if (keys)
			keys[i] = (keyed){ node->u.pairs[i].key->u.text, (uint32_t)i,
					   (uint32_t)(p - body) };
		const ddbc_node *key = node->u.pairs[i].key, *value = node->u.pairs[i].value;
		p = key->kind == DDBC_NODE_SCALAR ? pack_scalar(p, key) : pack(p, key, SIZE_MAX);
		p = value->kind == DDBC_NODE_SCALAR ? pack_scalar(p, value) : pack(p, value, SIZE_MAX);
	}
	if (keys) {
		qsort(keys, node->n, sizeof(*keys), by_key);
		for (size_t i = 0; i < node->n; i++, p += sizeof(uint32_t))
			memcpy(p, &keys[i].offset, sizeof(uint32_t));
		free(keys);
	}
	return p;
}

const ddbc_pval *ddbc_pval_pack(ddbc_arena *arena, const ddbc_node *node)
{
	if (!node)
		return NULL;
	/* The item's body is measured once, for its allocation and its header. */
	size_t body = node->kind == DDBC_NODE_SCALAR ? SIZE_MAX : body_size(node);
	size_t size = size_with(node, body == SIZE_MAX ? 0 : body);
	if (size > UINT32_MAX)  /* key offsets are 4 bytes; weights keep items far below */
		ddbc_xalloc_die();
	uint8_t *bytes = ddbc_arena_alloc(arena, size);
	pack(bytes, node, body);
	return (const ddbc_pval *)bytes;
}

/* ---- readers ------------------------------------------------------------------------------ */

ddbc_node_kind ddbc_pval_kind(const ddbc_pval *v)
{
	return (ddbc_node_kind)(BYTES(v)[0] & 3);
}

ddbc_scalar_kind ddbc_pval_scalar(const ddbc_pval *v)
{
	return (ddbc_scalar_kind)(BYTES(v)[0] >> 2 & 7);
}

bool ddbc_pval_plain(const ddbc_pval *v)
{
	return BYTES(v)[0] >> 5 & 1;
}

uint32_t ddbc_pval_n(const ddbc_pval *v)
{
	return read_header(v).n;
}

ddbc_loc ddbc_pval_loc(const ddbc_pval *v)
{
	uint64_t line, column;
	const uint8_t *p = read_header(v).loc;
	size_t ll = (size_t)(BYTES(v)[0] >> 6) + 1;
	line = 0;
	for (size_t i = 0; i < ll; i++)
		line |= (uint64_t)p[i] << (8 * i);
	get_varint(p + ll, &column);
	return (ddbc_loc){ (unsigned)line, (unsigned)column };
}

const char *ddbc_pval_text(const ddbc_pval *v)
{
	return ddbc_pval_kind(v) == DDBC_NODE_SCALAR ? (const char *)read_header(v).data : NULL;
}

const char *ddbc_pval_str(const ddbc_pval *v, uint32_t *len)
{
	header h = read_header(v);
	*len = h.n;
	return ddbc_pval_kind(v) == DDBC_NODE_SCALAR ? (const char *)h.data : NULL;
}

size_t ddbc_pval_bytes(const ddbc_pval *v)
{
	header h = read_header(v);
	return (size_t)(end_of(v, &h) - BYTES(v));
}

const ddbc_pval *ddbc_pval_next(const ddbc_pval *v)
{
	return (const ddbc_pval *)skip_value(BYTES(v));
}

const ddbc_pval *ddbc_pval_first(const ddbc_pval *v)
{
	if (ddbc_pval_kind(v) == DDBC_NODE_SCALAR)
		return NULL;
	header h = read_header(v);
	return h.n ? (const ddbc_pval *)h.data : NULL;
}

ddbc_pval_iter ddbc_pval_members(const ddbc_pval *v)
{
	ddbc_pval_iter it = { NULL, 0 };
	if (v && ddbc_pval_kind(v) != DDBC_NODE_SCALAR) {
		header h = read_header(v);
		it.at = (const ddbc_pval *)h.data;
		it.left = h.n;
	}
	return it;
}

/* Stepping past the last member points right behind its container: still
 * inside (or one past) the item's bytes, never read. */
bool ddbc_pval_item(ddbc_pval_iter *it, const ddbc_pval **item)
{
	if (!it->left)
		return false;
	*item = it->at;
	it->at = (const ddbc_pval *)skip_value(BYTES(it->at));
	it->left--;
	return true;
}

bool ddbc_pval_pair(ddbc_pval_iter *it, const ddbc_pval **key, const ddbc_pval **value)
{
	if (!it->left)
		return false;
	*key = it->at;
	*value = (const ddbc_pval *)skip_value(BYTES(it->at));
	it->at = (const ddbc_pval *)skip_value(BYTES(*value));
	it->left--;
	return true;
}

const ddbc_pval *ddbc_pval_get(const ddbc_pval *map, const char *key)
{
	if (!map || ddbc_pval_kind(map) != DDBC_NODE_MAP)
		return NULL;
	header h = read_header(map);
	if (h.n <= DDBC_NODE_INDEX_MIN) {
		/* A key is a scalar: tag, length, position, text. */
		const uint8_t *p = h.data;
		for (uint32_t i = 0; i < h.n; i++) {
			uint64_t len;
			const uint8_t *text = skip_loc(*p, get_varint(p + 1, &len));
			const uint8_t *v = text + len + 1;
			if (text[0] == (uint8_t)key[0] && !strcmp((const char *)text, key))
				return (const ddbc_pval *)v;
			p = skip_value(v);
		}
		return NULL;
	}
	/* The first position whose key is not below key. */
	const uint8_t *index = h.data + h.body - (size_t)h.n * sizeof(uint32_t);
	size_t lo = 0, hi = h.n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint32_t off;
		memcpy(&off, index + mid * sizeof(uint32_t), sizeof(off));
		if (strcmp(ddbc_pval_text((const ddbc_pval *)(h.data + off)), key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == h.n)
		return NULL;
	uint32_t off;
	memcpy(&off, index + lo * sizeof(uint32_t), sizeof(off));
	const ddbc_pval *k = (const ddbc_pval *)(h.data + off);
	return strcmp(ddbc_pval_text(k), key) ? NULL : ddbc_pval_next(k);
}

bool ddbc_pval_same_text(const ddbc_pval *a, const ddbc_pval *b)
{
	uint32_t na = 0, nb = 0;
	const char *ta = a ? ddbc_pval_str(a, &na) : NULL, *tb = b ? ddbc_pval_str(b, &nb) : NULL;
	return ta && tb && na == nb && !memcmp(ta, tb, na);
}

bool ddbc_pval_bool(const ddbc_pval *v, bool *out)
{
	if (!v || ddbc_pval_kind(v) != DDBC_NODE_SCALAR || ddbc_pval_scalar(v) != DDBC_SCALAR_BOOL)
		return false;
	const char *t = ddbc_pval_text(v);
	*out = t[0] == 't' || t[0] == 'T';
	return true;
}

bool ddbc_pval_int(const ddbc_pval *v, long long *out)
{
	if (!v || ddbc_pval_kind(v) != DDBC_NODE_SCALAR || ddbc_pval_scalar(v) != DDBC_SCALAR_INT)
		return false;
	return ddbc_int_text(ddbc_pval_text(v), out);
}

bool ddbc_pval_is_null(const ddbc_pval *v)
{
	return v && ddbc_pval_kind(v) == DDBC_NODE_SCALAR && ddbc_pval_scalar(v) == DDBC_SCALAR_NULL;
}

bool ddbc_pval_is_number(const ddbc_pval *v)
{
	return v && ddbc_pval_kind(v) == DDBC_NODE_SCALAR &&
	       (ddbc_pval_scalar(v) == DDBC_SCALAR_INT || ddbc_pval_scalar(v) == DDBC_SCALAR_FLOAT);
}

const char *ddbc_pval_describe(const ddbc_pval *v)
{
	if (!v)
		return "nothing";
	return ddbc_kind_describe(ddbc_pval_kind(v), ddbc_pval_scalar(v));
}

ddbc_node *ddbc_pval_unpack(ddbc_arena *arena, const ddbc_pval *v)
{
	ddbc_node *node = ddbc_arena_alloc(arena, sizeof(*node));
	memset(node, 0, sizeof(*node));
	header h = read_header(v);
	node->kind = ddbc_pval_kind(v);
	node->n = h.n;
	node->loc = ddbc_pval_loc(v);
	node->weight = 1;
	if (node->kind == DDBC_NODE_SCALAR) {
		node->scalar = ddbc_pval_scalar(v);
		node->plain = ddbc_pval_plain(v);
		node->u.text = ddbc_arena_strndup(arena, (const char *)h.data, h.n);
		return node;
	}
	ddbc_pval_iter it = ddbc_pval_members(v);
	if (node->kind == DDBC_NODE_SEQ) {
		node->u.items = ddbc_arena_array(arena, h.n, sizeof(ddbc_node *));
		const ddbc_pval *item;
		for (size_t i = 0; ddbc_pval_item(&it, &item); i++)
			node->u.items[i] = ddbc_pval_unpack(arena, item);
	} else {
		node->u.pairs = ddbc_arena_alloc(arena, ddbc_node_pairs_size(h.n));
		const ddbc_pval *key, *value;
		for (size_t i = 0; ddbc_pval_pair(&it, &key, &value); i++) {
			node->u.pairs[i].key = ddbc_pval_unpack(arena, key);
			node->u.pairs[i].value = ddbc_pval_unpack(arena, value);
		}
		ddbc_node_index_pairs(node);
	}
	uint64_t weight = 1;
	for (size_t i = 0; i < h.n; i++)
		weight += node->kind == DDBC_NODE_SEQ ? node->u.items[i]->weight
			: (uint64_t)node->u.pairs[i].key->weight + node->u.pairs[i].value->weight;
	node->weight = weight < DDBC_NODE_WEIGHT_MAX ? (unsigned)weight : DDBC_NODE_WEIGHT_MAX;
	return node;
}
