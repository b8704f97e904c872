/* cost_items.c - the example items each request reads or writes, for
 * `ddbc cost` (emit_cost.h): what the documentation shows it returning
 * (doc_request.h, one key comparator in the model), and for a put the
 * Item its request writes, member by member as the queries export makes
 * it (emit.h's ddbc_query_sent.item_member): no output is read back. */
#define _GNU_SOURCE 1  /* fopencookie */
#include "emit/cost_items.h"
#include "emit/doc_request.h"
#include "util/xalloc.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ddbc_node *new_node(ddbc_arena *arena, ddbc_node_kind kind, size_t n)
{
	ddbc_node *v = ddbc_arena_alloc(arena, sizeof *v);
	memset(v, 0, sizeof *v);
	v->kind = kind;
	v->n = (uint32_t)n;
	if (kind == DDBC_NODE_SEQ)
		v->u.items = ddbc_arena_array(arena, n + 1, sizeof(ddbc_node *));
	else if (kind == DDBC_NODE_MAP)
		v->u.pairs = ddbc_arena_alloc(arena, ddbc_node_pairs_size(n));
	return v;
}

static ddbc_node *scalar_node(ddbc_arena *arena, const char *text, ddbc_scalar_kind kind)
{
	ddbc_node *v = new_node(arena, DDBC_NODE_SCALAR, strlen(text));
	v->scalar = kind;
	v->u.text = ddbc_arena_strndup(arena, text, v->n);
	return v;
}

static ddbc_node *from_attr(ddbc_arena *arena, json_t *attr);

/* A DynamoDB JSON item ({"name": {"S": ...}, ...}) as the mapping an
 * example item is, so that the size rules read it the same way. */
static ddbc_node *from_item(ddbc_arena *arena, json_t *item)
{
	ddbc_node *m = new_node(arena, DDBC_NODE_MAP, json_object_size(item));
	const char *name;
	json_t *v;
	size_t i = 0;
	json_object_foreach(item, name, v) {
		m->u.pairs[i].key = scalar_node(arena, name, DDBC_SCALAR_STR);
		m->u.pairs[i++].value = from_attr(arena, v);
	}
	ddbc_node_index_pairs(m);
	return m;
}

static ddbc_node *from_attr(ddbc_arena *arena, json_t *attr)
{
	const char *tag;
	json_t *v;
	json_object_foreach(attr, tag, v) {
		if (json_is_string(v))
			return scalar_node(arena, json_string_value(v),
					   !strcmp(tag, "N") ? DDBC_SCALAR_FLOAT : DDBC_SCALAR_STR);
		if (json_is_boolean(v))
			return scalar_node(arena, json_is_true(v) ? "true" : "false",
					   !strcmp(tag, "NULL") ? DDBC_SCALAR_NULL : DDBC_SCALAR_BOOL);
		if (json_is_object(v))
			return from_item(arena, v);
		if (json_is_array(v)) {
			ddbc_node *s = new_node(arena, DDBC_NODE_SEQ, json_array_size(v));
			bool set = strcmp(tag, "L") != 0;
			for (size_t i = 0; i < s->n; i++) {
				json_t *e = json_array_get(v, i);
				s->u.items[i] = set && json_is_string(e)
					? scalar_node(arena, json_string_value(e),
						      !strcmp(tag, "NS") ? DDBC_SCALAR_FLOAT
									 : DDBC_SCALAR_STR)
					: from_attr(arena, e);
			}
			return s;
		}
	}
	return scalar_node(arena, "", DDBC_SCALAR_NULL);
}

/* The entity a put's Item is made from (emit_json_queries.c): the first
 * the pattern matches, whose attributes type its values. */
static const ddbc_entity *put_entity(const ddbc_pattern *p)
{
	return p->nmatched ? p->matched[0] : NULL;
}

static ssize_t discard_write(void *cookie, const char *buf, size_t size)
{
	(void)cookie, (void)buf;
	return (ssize_t)size;
}

/* A stream that drops what is written to it. */
static FILE *discard(void)
{
	static const cookie_io_functions_t io = { NULL, discard_write, NULL, NULL };
	return fopencookie(NULL, "w", io);
}

/* A put's Item as its request writes it, member by member. */
typedef struct put_members {
	ddbc_arena *arena;
	ddbc_pair *pairs;
	size_t n, cap;
} put_members;

static void on_item_member(void *ctx, const char *name, const json_t *value)
{
	put_members *m = ctx;
	if (m->n == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 16;
		m->pairs = ddbc_xrealloc(m->pairs, m->cap * sizeof *m->pairs);
	}
	m->pairs[m->n].key = scalar_node(m->arena, name, DDBC_SCALAR_STR);
	m->pairs[m->n++].value = from_attr(m->arena, (json_t *)value);
}

static ddbc_node *put_item(put_members *m)
{
	ddbc_node *item = new_node(m->arena, DDBC_NODE_MAP, m->n);
	if (m->n)
		memcpy(item->u.pairs, m->pairs, m->n * sizeof *m->pairs);
	ddbc_node_index_pairs(item);
	return item;
}

size_t ddbc_cost_items(ddbc_arena *arena, ddbc_views *views, const ddbc_design *g,
		       const ddbc_pattern *p, ddbc_cap_item **out)
{
	*out = NULL;
	if (!p->analysed || !p->index || !ddbc_pattern_request(p))
		return 0;
	size_t n = 0;
	ddbc_query_sent sent = { 0 };
	put_members members = { arena, NULL, 0, 0 };
	bool put_op = p->operation == DDBC_OP_PUT;
	if (put_op) {
		sent.item_member = on_item_member;
		sent.item_ctx = &members;
	}
	/* A put's request is needed for its Item (the text itself is not);
	 * the others' only for what they send of their key, which the model
	 * gives without writing the request (and refuses where the export
	 * would). */
	ddbc_emit_result r;
	if (put_op)
		r = ddbc_doc_request_input(discard(), g, p, &sent);
	else
		r = ddbc_request_key_sent(g, p, &sent.key) ? DDBC_EMIT_OK : DDBC_EMIT_FINDINGS;
	ddbc_node *put = r == DDBC_EMIT_OK && put_op ? put_item(&members) : NULL;
	free(members.pairs);
	if (put) {
		/* A put writes its request's Item, whatever the examples hold. */
		*out = ddbc_xcalloc(1, sizeof **out);
		(*out)->entity = put_entity(p);
		(*out)->item = ddbc_pval_pack(arena, put);
		n = 1;
	} else if (r == DDBC_EMIT_OK) {
		n = ddbc_request_items(p, &sent.key, views, out);
	}
	ddbc_query_sent_release(&sent);
	return n;
}
