/* items.c - check-items: real items against the design
 *
 * The items are streamed (items_stream.h): one item's JSON at a time goes
 * through jansson, is typed (items_value.h), assigned to an entity
 * (items_assign.c) and checked (items_check.c), and its findings are
 * written at once (items_report.c), so memory does not grow with the
 * number of items.
 */
#include "items/items_run.h"
#include "util/xalloc.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- one item -------------------------------------------------------------------- */

static int bad_item(ddbc_items_error *err, ddbc_ipos pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int bad_item(ddbc_items_error *err, ddbc_ipos pos, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ddbc_items_error_vset(err, pos, fmt, ap);
	va_end(ap);
	return -1;
}

static bool is_export_line(const json_t *v)
{
	return json_object_size(v) == 1 && json_is_object(json_object_get(v, "Item"));
}

static json_t *parse_item(const ddbc_item_span *sp, ddbc_items_error *err)
{
	json_error_t je;
	size_t flags = JSON_REJECT_DUPLICATES | JSON_DECODE_ANY;
	json_t *root = json_loadb(sp->data, sp->len, flags, &je);
	/* An integer beyond 64 bits is still a DynamoDB number. */
	if (!root && json_error_code(&je) == json_error_numeric_overflow)
		root = json_loadb(sp->data, sp->len, flags | JSON_DECODE_INT_AS_REAL, &je);
	if (!root)
		bad_item(err, ddbc_items_json_error_pos(sp, je.position), "item %lu: %s", sp->index,
			 je.text);
	return root;
}

/* The item object inside root: root itself, or an export line's "Item";
 * decides export lines and DynamoDB JSON on the first items. */
static const json_t *item_object(ddbc_items_run *R, const json_t *root, ddbc_items_error *err)
{
	const ddbc_item_span *sp = R->span;
	if (!json_is_object(root)) {
		bad_item(err, sp->pos, "item %lu is %s; an item is a JSON object", sp->index,
			 ddbc_json_kind(root));
		return NULL;
	}
	if (R->export_lines == DDBC_FACT_UNKNOWN) {
		bool line = R->shape != DDBC_SHAPE_SCAN && is_export_line(root);
		R->export_lines = line ? DDBC_FACT_YES : DDBC_FACT_NO;
	}
	bool exported = R->export_lines == DDBC_FACT_YES;
	const json_t *item = root;
	if (exported) {
		if (!is_export_line(root)) {
			bad_item(err, sp->pos, "item %lu is not an export line {\"Item\": {...}} as "
				 "the first item is", sp->index);
			return NULL;
		}
		item = json_object_get(root, "Item");
	}
	if (R->dynamodb == DDBC_FACT_UNKNOWN && (R->shape == DDBC_SHAPE_SCAN || exported))
		R->dynamodb = DDBC_FACT_YES;
	else if (R->dynamodb == DDBC_FACT_UNKNOWN && json_object_size(item) > 0)
		R->dynamodb = ddbc_ival_looks_typed(item) ? DDBC_FACT_YES : DDBC_FACT_NO;
	R->key_depth = exported ? 2 : 1;
	return item;
}

static int type_values(ddbc_items_run *R, const json_t *item, ddbc_items_error *err)
{
	size_t n = json_object_size(item);
	xgrow((void **)&R->attrs, &R->attrs_cap, n + 1, sizeof(ddbc_ival));
	R->nattrs = 0;
	const char *key;
	const json_t *v;
	strbuf why = STRBUF_INIT;
	json_object_foreach((json_t *)item, key, v) {
		if (!ddbc_ival_make(&R->attrs[R->nattrs], key, v, R->dynamodb == DDBC_FACT_YES,
				    &why)) {
			bad_item(err, ddbc_items_attr_pos(R, key), "item %lu: %s", R->span->index,
				 strbuf_str(&why));
			strbuf_release(&why);
			return -1;
		}
		R->nattrs++;
	}
	return 0;
}

static int check_item(ddbc_items_run *R, const ddbc_item_span *sp, ddbc_items_error *err)
{
	R->span = sp;
	R->ent = NULL;
	R->failed = false;
	R->key_depth = 1;
	json_t *root = parse_item(sp, err);
	if (!root)
		return -1;
	const json_t *item = item_object(R, root, err);
	if (!item || type_values(R, item, err) < 0) {
		json_decref(root);
		return -1;
	}
	R->items++;
	switch (ddbc_items_assign(R)) {
	case DDBC_FIT_NONE:
		ddbc_items_report_unmatched(R);
		R->unmatched++;
		break;
	case DDBC_FIT_SEVERAL:
		/* Checked against a guess, the item would get findings of an
		 * entity it may not be. */
		ddbc_items_report_ambiguous(R);
		R->nfailed++;
		break;
	case DDBC_FIT_ONE:
		ddbc_items_check_entity(R);
		if (R->failed)
			R->nfailed++;
		else
			R->ok++;
		break;
	}
	json_decref(root);
	return 0;
}

/* ---- the command ----------------------------------------------------------------- */

static void release(ddbc_items_run *R)
{
	ddbc_items_tables_release(R);
	free(R->attrs);
	free(R->slot);
	strbuf_release(&R->render);
	ddbc_match_scratch_release(&R->scratch);
}

ddbc_items_result ddbc_check_items(FILE *out, const ddbc_design *g, FILE *in, const char *name,
				   ddbc_items_format format)
{
	ddbc_items_run R;
	memset(&R, 0, sizeof(R));
	R.out = out;
	R.g = g;
	R.name = name;
	R.format = format;
	ddbc_items_tables_prepare(&R);
	ddbc_items_begin_output(&R);

	ddbc_items_reader *reader = ddbc_items_reader_new(in, DDBC_ITEMS_MAX_ITEM);
	ddbc_items_error err = { { 0, 0 }, STRBUF_INIT };
	ddbc_item_span span;
	ddbc_items_step step;
	while ((step = ddbc_items_next(reader, &span, &err)) == DDBC_ITEMS_ITEM) {
		R.shape = ddbc_items_shape_of(reader);
		if (check_item(&R, &span, &err) < 0) {
			step = DDBC_ITEMS_BAD;
			break;
		}
	}
	R.shape = ddbc_items_shape_of(reader);
	ddbc_items_end_output(&R, step == DDBC_ITEMS_BAD ? &err : NULL);
	ddbc_items_reader_free(reader);
	release(&R);
	strbuf_release(&err.message);
	fflush(out);
	if (step == DDBC_ITEMS_BAD)
		return DDBC_ITEMS_UNREADABLE;
	return R.nfailed || R.unmatched ? DDBC_ITEMS_SOME_FAILED : DDBC_ITEMS_ALL_OK;
}
