/* verify_items.c - the items verify writes, their keys and sizes
 *
 * Sample items come with their entity and the values they were made from;
 * items of --items FILE (DynamoDB JSON: export lines {"Item": {...}}, bare
 * items, or the BatchWriteItem lines of `ddbc sample --format batch`) are
 * assigned their entity by check-items, and an item that is no entity's
 * goes to the table whose key attributes it has (an item the patterns
 * must not return is exactly what such a file can hold). The whole file
 * is read before anything is written. In place (verify.h), the items are
 * what the tables hold: each table of the design read by Scan, or the
 * file, which then says what they hold and is not written.
 */
#include "live/verify_int.h"
#include "model/node.h"
#include "model/pval.h"
#include "util/decimal.h"
#include "util/xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- keys ------------------------------------------------------------------------- */

const char *ddbc_verify_scalar_text(const json_t *typed)
{
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)typed, k, v)
		if (json_is_string(v) && (!strcmp(k, "S") || !strcmp(k, "N") || !strcmp(k, "B")))
			return json_string_value(v);
	return NULL;
}

/* A Number key by its value: the engine gives back 1.5 for a 1.50 written
 * ("N" followed by the sign, the significant digits and the power of the
 * first, so that 1.50, 1.5 and 15e-1 are one key). */
static json_t *key_value(json_t *v)
{
	const char *n = json_string_value(json_object_get(v, "N"));
	bool neg;
	size_t nd;
	long power;
	if (!n || !ddbc_decimal_digits(n, strlen(n), &neg, &nd, &power))
		return json_incref(v);
	strbuf sb = STRBUF_INIT;
	ddbc_strbuf_addstr(&sb, neg && nd ? "-" : "");
	size_t taken = 0;
	bool started = false;
	for (const char *p = n; *p && *p != 'e' && *p != 'E' && taken < nd; p++) {
		if (*p < '0' || *p > '9' || (!started && *p == '0'))
			continue;
		started = true;
		ddbc_strbuf_addch(&sb, *p);
		taken++;
	}
	ddbc_strbuf_addf(&sb, "e%ld", nd ? power : 0L);
	json_t *out = json_pack("{s:s}", "N", ddbc_strbuf_str(&sb));
	ddbc_strbuf_release(&sb);
	return out;
}

char *ddbc_verify_item_key(const ddbc_table *t, const json_t *item)
{
	const ddbc_index *ix = &t->primary;
	json_t *key = json_array();
	for (size_t i = 0; i < ix->npk + ix->nsk; i++) {
		const char *name = i < ix->npk ? ix->pk[i].s : ix->sk[i - ix->npk].s;
		json_t *v = json_object_get(item, name);
		if (!v || !ddbc_verify_scalar_text(v)) {
			json_decref(key);
			return NULL;
		}
		json_array_append_new(key, key_value(v));
	}
	char *s = json_dumps(key, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(key);
	return s;
}

static void index_key(verify_run *V, size_t i)
{
	strbuf k = STRBUF_INIT;
	ddbc_strbuf_addf(&k, "%s\x1f%s", V->items[i].table->name.s, V->items[i].key);
	json_object_set_new(V->by_key, ddbc_strbuf_str(&k), json_integer((json_int_t)i));
	ddbc_strbuf_release(&k);
}

const vitem *ddbc_verify_item_find(const verify_run *V, const ddbc_table *t, const char *key)
{
	strbuf k = STRBUF_INIT;
	ddbc_strbuf_addf(&k, "%s\x1f%s", t->name.s, key);
	json_t *at = json_object_get(V->by_key, ddbc_strbuf_str(&k));
	ddbc_strbuf_release(&k);
	return at ? &V->items[json_integer_value(at)] : NULL;
}

/* ---- sizes: an item as the cost model reads it ------------------------------------- */

static ddbc_node *scalar(ddbc_arena *a, ddbc_scalar_kind k, const char *text)
{
	ddbc_node *n = ddbc_arena_alloc(a, sizeof(*n));
	memset(n, 0, sizeof(*n));
	n->kind = DDBC_NODE_SCALAR;
	n->scalar = k;
	n->plain = k != DDBC_SCALAR_STR;
	n->weight = 1;
	n->n = (uint32_t)strlen(text);
	n->u.text = ddbc_arena_strdup(a, text);
	return n;
}

static ddbc_node *typed_node(ddbc_arena *a, const json_t *typed);

static ddbc_node *seq_node(ddbc_arena *a, const json_t *arr, const char *elem_tag)
{
	ddbc_node *n = ddbc_arena_alloc(a, sizeof(*n));
	memset(n, 0, sizeof(*n));
	n->kind = DDBC_NODE_SEQ;
	n->n = (uint32_t)json_array_size(arr);
	n->u.items = ddbc_arena_array(a, n->n ? n->n : 1, sizeof(ddbc_node *));
	uint64_t w = 1;
	for (size_t i = 0; i < n->n; i++) {
		const json_t *v = json_array_get(arr, i);
		json_t *wrapped = elem_tag ? json_pack("{s:O}", elem_tag, v) : NULL;
		n->u.items[i] = typed_node(a, wrapped ? wrapped : v);
		json_decref(wrapped);
		w += n->u.items[i]->weight;
	}
	n->weight = w > DDBC_NODE_WEIGHT_MAX ? DDBC_NODE_WEIGHT_MAX : (unsigned)w;
	return n;
}

static ddbc_node *map_node(ddbc_arena *a, const json_t *obj)
{
	ddbc_node *n = ddbc_arena_alloc(a, sizeof(*n));
	memset(n, 0, sizeof(*n));
	n->kind = DDBC_NODE_MAP;
	n->n = (uint32_t)json_object_size(obj);
	n->u.pairs = ddbc_arena_alloc(a, ddbc_node_pairs_size(n->n ? n->n : 1));
	uint64_t w = 1;
	size_t i = 0;
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)obj, k, v) {
		n->u.pairs[i].key = scalar(a, DDBC_SCALAR_STR, k);
		n->u.pairs[i].value = typed_node(a, v);
		w += 1 + n->u.pairs[i].value->weight;
		i++;
	}
	n->weight = w > DDBC_NODE_WEIGHT_MAX ? DDBC_NODE_WEIGHT_MAX : (unsigned)w;
	ddbc_node_index_pairs(n);
	return n;
}

static bool is_int_text(const char *s)
{
	long long v;
	return ddbc_int_text(s, &v);
}

static ddbc_node *typed_node(ddbc_arena *a, const json_t *typed)
{
	const char *tag = NULL;
	json_t *v = NULL;
	json_object_foreach((json_t *)typed, tag, v)
		break;
	if (!tag)
		return scalar(a, DDBC_SCALAR_NULL, "null");
	if (!strcmp(tag, "N") && json_is_string(v))
		return scalar(a, is_int_text(json_string_value(v)) ? DDBC_SCALAR_INT
								   : DDBC_SCALAR_FLOAT, json_string_value(v));
	if ((!strcmp(tag, "S") || !strcmp(tag, "B")) && json_is_string(v))
		return scalar(a, DDBC_SCALAR_STR, json_string_value(v));
	if (!strcmp(tag, "BOOL"))
		return scalar(a, DDBC_SCALAR_BOOL, json_is_true(v) ? "true" : "false");
	if (!strcmp(tag, "M") && json_is_object(v))
		return map_node(a, v);
	if (!strcmp(tag, "L") && json_is_array(v))
		return seq_node(a, v, NULL);
	if ((!strcmp(tag, "SS") || !strcmp(tag, "NS") || !strcmp(tag, "BS")) && json_is_array(v))
		return seq_node(a, v, tag[0] == 'N' ? "N" : tag[0] == 'B' ? "B" : "S");
	return scalar(a, DDBC_SCALAR_NULL, "null");
}

const ddbc_pval *ddbc_verify_item_pval(ddbc_arena *arena, const json_t *item)
{
	return ddbc_pval_pack(arena, map_node(arena, item));
}

/* ---- the items -------------------------------------------------------------------- */

static json_t *values_of(const json_t *item)
{
	json_t *values = json_object();
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)item, k, v) {
		const char *text = ddbc_verify_scalar_text(v);
		if (text)
			json_object_set_new(values, k, json_string(text));
	}
	return values;
}

/* Adds an item; a later one of the same key replaces the earlier one (the
 * engine would keep the later). */
static void add_item(verify_run *V, const ddbc_entity *e, const ddbc_table *t, json_t *item,
		     json_t *values)
{
	char *key = ddbc_verify_item_key(t, item);
	const vitem *old = ddbc_verify_item_find(V, t, key);
	vitem it = { e, t, item, values, key, ddbc_verify_item_pval(V->arena, item) };
	if (old) {
		vitem *slot = &V->items[old - V->items];
		json_decref(slot->item);
		json_decref(slot->values);
		free(slot->key);
		*slot = it;
		return;
	}
	V->items = ddbc_xrealloc(V->items, (V->n + 1) * sizeof(vitem));
	V->items[V->n] = it;
	index_key(V, V->n++);
}

/* The table an item of no entity goes to: the first whose key it has. */
static const ddbc_table *table_by_key(const ddbc_design *g, const json_t *item)
{
	for (size_t i = 0; i < g->ntables; i++) {
		char *key = ddbc_verify_item_key(&g->tables[i], item);
		free(key);
		if (key)
			return &g->tables[i];
	}
	return NULL;
}

/* One item of the file, of table (a batch line's) or any. */
static int file_item(verify_run *V, json_t *item, const char *table, unsigned long line)
{
	char *text = json_dumps(item, JSON_COMPACT);
	const ddbc_entity *e = NULL;
	ddbc_item_verdict v = ddbc_item_check_one(V->checker, text, strlen(text), &e, NULL);
	free(text);
	if (v == DDBC_VERDICT_MALFORMED) {
		ddbc_strbuf_addf(&V->error, "%s:%lu: not an item in DynamoDB JSON", V->source, line);
		return -1;
	}
	const ddbc_table *t = table ? ddbc_design_table(V->g, table) : e ? e->table
									   : table_by_key(V->g, item);
	if (!t || !(text = ddbc_verify_item_key(t, item))) {
		ddbc_strbuf_addf(&V->error, "%s:%lu: the item has the key attributes of no table of the "
			    "design", V->source, line);
		return -1;
	}
	free(text);
	add_item(V, e && e->table == t ? e : NULL, t, json_incref(item), values_of(item));
	return 0;
}

/* A line: {"Item": {...}}, {"TABLE": [{"PutRequest": {"Item": ...}}]} or an item. */
static int file_line(verify_run *V, json_t *v, unsigned long line)
{
	json_t *inner = json_object_get(v, "Item");
	if (json_object_size(v) == 1 && json_is_object(inner))
		return file_item(V, inner, NULL, line);
	const char *table;
	json_t *reqs;
	json_object_foreach(v, table, reqs) {
		if (!json_is_array(reqs))
			return file_item(V, v, NULL, line);
		size_t i;
		json_t *r;
		json_array_foreach(reqs, i, r) {
			json_t *it = json_object_get(json_object_get(r, "PutRequest"), "Item");
			if (!json_is_object(it)) {
				ddbc_strbuf_addf(&V->error, "%s:%lu: a request that is no PutRequest",
					    V->o->items_file, line);
				return -1;
			}
			if (file_item(V, it, table, line) < 0)
				return -1;
		}
	}
	return 0;
}

static int load_file(verify_run *V)
{
	bool is_stdin = !strcmp(V->o->items_file, "-");
	FILE *f = is_stdin ? stdin : fopen(V->o->items_file, "r");
	if (!f) {
		ddbc_strbuf_addf(&V->error, "cannot read '%s': %s", V->o->items_file, strerror(errno));
		return -1;
	}
	char *line = NULL;
	size_t cap = 0;
	unsigned long no = 0;
	int rc = 0;
	while (rc == 0 && getline(&line, &cap, f) > 0) {
		no++;
		if (!line[strspn(line, " \t\r\n")])
			continue;
		json_error_t je;
		json_t *v = json_loads(line, JSON_REJECT_DUPLICATES, &je);
		if (!json_is_object(v)) {
			ddbc_strbuf_addf(&V->error, "%s:%lu:%d: %s", V->o->items_file, no, je.column,
				    v ? "expected an item, a JSON object" : je.text);
			rc = -1;
		} else {
			rc = file_line(V, v, no);
		}
		json_decref(v);
	}
	free(line);
	if (!is_stdin)
		fclose(f);
	if (rc == 0 && !V->n) {
		ddbc_strbuf_addf(&V->error, "'%s' holds no item", V->o->items_file);
		rc = -1;
	}
	return rc;
}

typedef struct scan_ctx {
	verify_run *V;
	const char *table;
	unsigned long n;         /* items read so far: an item's number in messages */
} scan_ctx;

static int scanned_page(void *ctx, int segment, json_t *page)
{
	(void)segment;
	scan_ctx *s = ctx;
	size_t i;
	json_t *item;
	json_array_foreach(json_object_get(page, "Items"), i, item)
		if (file_item(s->V, item, s->table, ++s->n) < 0)
			return -1;
	return 0;
}

/* In place without a file: every table of the design, read by Scan. */
static int load_tables(verify_run *V)
{
	for (size_t i = 0; i < V->g->ntables; i++) {
		const char *name = V->g->tables[i].name.s;
		strbuf where = STRBUF_INIT;
		ddbc_strbuf_addf(&where, "Scan of '%s'", name);
		V->source = ddbc_strbuf_str(&where);
		scan_ctx s = { V, name, 0 };
		json_t *req = json_pack("{s:s, s:b}", "TableName", name, "ConsistentRead", 1);
		ddbc_dynamo_error e;
		int rc = ddbc_dynamo_pages(V->client, "Scan", req, scanned_page, &s, &e);
		json_decref(req);
		if (rc < 0 && !V->error.len)
			ddbc_verify_call_error(V, "Scan", &e);
		V->source = NULL;
		ddbc_strbuf_release(&where);
		if (rc)
			return -1;
	}
	return 0;
}

static int load_sample(verify_run *V)
{
	ddbc_sample s;
	ddbc_sample_opts so = { V->o->count, V->o->seed };
	if (ddbc_sample_make(V->g, &so, &s, &V->error) < 0) {
		ddbc_sample_release(&s);
		return -1;
	}
	for (size_t i = 0; i < s.n; i++)
		add_item(V, s.items[i].entity, s.items[i].entity->table,
			 json_incref(s.items[i].item), json_incref(s.items[i].values));
	ddbc_sample_release(&s);
	return 0;
}

int ddbc_verify_items_load(verify_run *V)
{
	V->by_key = json_object();
	V->source = V->o->items_file;
	int rc = V->o->items_file ? load_file(V) : V->o->in_place ? load_tables(V) : load_sample(V);
	if (rc < 0)
		return -1;
	/* Items no written key can be: what the puts write, another seed's. */
	ddbc_sample_opts fresh = { V->g->nentities * 4 + 8, V->o->seed ^ 0x5eed5eed5eed5eedULL };
	strbuf ignored = STRBUF_INIT;
	if (ddbc_sample_make(V->g, &fresh, &V->fresh, &ignored) < 0)
		ddbc_sample_release(&V->fresh);
	ddbc_strbuf_release(&ignored);
	return 0;
}

void ddbc_verify_items_release(verify_run *V)
{
	for (size_t i = 0; i < V->n; i++) {
		json_decref(V->items[i].item);
		json_decref(V->items[i].values);
		free(V->items[i].key);
	}
	free(V->items);
	json_decref(V->by_key);
	ddbc_sample_release(&V->fresh);
}
