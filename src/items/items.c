/* items.c - check-items: real items against the design
 *
 * The items are streamed (items_stream.h): one item's JSON at a time is
 * read into a jansson tree (items_jparse.h, else jansson), is typed (items_value.h), assigned to an entity
 * (items_assign.c) and checked (items_check.c), and its findings are
 * written at once (items_report.c), so memory does not grow with the
 * number of items. An item that cannot be read as one (not JSON, not an
 * object, invalid DynamoDB JSON) is a malformed-item finding and the
 * file goes on; only a broken stream (items_stream.h) stops it.
 */
#include "items/items_jparse.h"
#include "items/items_run.h"
#include "util/xalloc.h"

#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- one item -------------------------------------------------------------------- */

/* An item that cannot be read as one is a finding; the run goes on. */
static int malformed(ddbc_items_run *R, ddbc_ipos pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int malformed(ddbc_items_run *R, ddbc_ipos pos, const char *fmt, ...)
{
	strbuf msg = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	ddbc_strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	ddbc_items_finding(R, DDBC_ITEM_MALFORMED, NULL, pos, "%s", ddbc_strbuf_str(&msg));
	ddbc_strbuf_release(&msg);
	return -1;
}

static bool is_export_line(const json_t *v)
{
	return json_object_size(v) == 1 && json_is_object(json_object_get(v, "Item"));
}

/* An item's tree, its memory in the run's region (items_jalloc.h):
 * dropped with the item by done_with, never walked to be freed. The text
 * goes to jansson when the quick reader (items_jparse.h) leaves it, so
 * what jansson refuses it refuses with jansson's message. */
static json_t *load(ddbc_items_run *R, const char *s, size_t len, size_t flags,
		    json_error_t *je)
{
	ddbc_jalloc_begin(&R->jalloc);
	json_t *root = ddbc_items_jparse(s, len);
	if (!root)
		root = json_loadb(s, len, flags, je);
	ddbc_jalloc_end();
	return root;
}

static void done_with(ddbc_items_run *R)
{
	ddbc_jalloc_clear(&R->jalloc);
}

static json_t *parse_as_written(ddbc_items_run *R, const ddbc_item_span *sp)
{
	json_error_t je;
	size_t flags = JSON_REJECT_DUPLICATES | JSON_DECODE_ANY;
	json_t *root = load(R, sp->data, sp->len, flags, &je);
	/* An integer beyond 64 bits is still a DynamoDB number, unless it has
	 * more digits than DynamoDB keeps (the double it is decoded to would
	 * hide them). */
	if (!root && json_error_code(&je) == json_error_numeric_overflow) {
		strbuf why = STRBUF_INIT;
		long at = ddbc_items_bad_number_at(sp->data, sp->len, &why);
		if (at >= 0) {
			malformed(R, ddbc_items_offset_pos(sp, (size_t)at), "%s", ddbc_strbuf_str(&why));
			ddbc_strbuf_release(&why);
			return NULL;
		}
		root = load(R, sp->data, sp->len, flags | JSON_DECODE_INT_AS_REAL, &je);
	}
	if (!root && sp->cut && json_error_code(&je) == json_error_premature_end_of_input)
		malformed(R, ddbc_items_offset_pos(sp, sp->len), "the line ends before the item "
			  "does (cut short?)");
	else if (!root)
		malformed(R, ddbc_items_json_error_pos(sp, je.position), "%s", je.text);
	return root;
}

/* Whether the item may be plain JSON, whose bare numbers keep their digits
 * only when marked (util/json_number.c); DynamoDB JSON writes numbers as
 * strings, and is read as it is. */
static bool may_be_plain(const ddbc_items_run *R)
{
	return R->dynamodb != DDBC_FACT_YES && R->export_lines != DDBC_FACT_YES &&
	       R->shape != DDBC_SHAPE_SCAN && R->shape != DDBC_SHAPE_BATCH;
}

/* The item's JSON; *marked when its numbers were marked. Text jansson
 * refuses is read again as written, so the message and its position are
 * those of the input. */
static json_t *parse_item(ddbc_items_run *R, const ddbc_item_span *sp, bool *marked)
{
	*marked = false;
	if (may_be_plain(R) && ddbc_json_mark_numbers(sp->data, sp->len, &R->marked)) {
		json_error_t je;
		json_t *root = load(R, R->marked.buf, R->marked.len,
				    JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &je);
		if (root) {
			*marked = true;
			return root;
		}
	}
	return parse_as_written(R, sp);
}

/* A BatchWriteItem request's item: {"PutRequest": {"Item": {...}}}. A
 * DeleteRequest names a key to delete, no item: *item stays NULL. */
static int batch_item(ddbc_items_run *R, const json_t *root, const json_t **item)
{
	const json_t *put = json_object_get(root, "PutRequest");
	*item = NULL;
	if (json_object_size(root) == 1 && json_is_object(json_object_get(root, "DeleteRequest")))
		return 0;
	if (json_object_size(root) != 1 || !json_is_object(put) ||
	    !json_is_object(json_object_get(put, "Item")))
		return malformed(R, R->span->pos, "a request of a BatchWriteItem file is "
				 "{\"PutRequest\": {\"Item\": {...}}} or {\"DeleteRequest\": "
				 "{\"Key\": {...}}}");
	*item = json_object_get(put, "Item");
	R->dynamodb = DDBC_FACT_YES;
	R->key_depth = 3;
	return 0;
}

/* The item object inside root: root itself, an export line's "Item" or a
 * batch request's; decides export lines and DynamoDB JSON on the first
 * items. Returns -1 for a malformed item (reported), 0 with *item NULL
 * for a request that holds no item. */
static int item_object(ddbc_items_run *R, const json_t *root, const json_t **item)
{
	const ddbc_item_span *sp = R->span;
	if (!json_is_object(root))
		return malformed(R, sp->pos, "it is %s; an item is a JSON object",
				 ddbc_json_kind(root));
	if (R->shape == DDBC_SHAPE_BATCH)
		return batch_item(R, root, item);
	if (R->export_lines == DDBC_FACT_UNKNOWN) {
		bool line = R->shape != DDBC_SHAPE_SCAN && is_export_line(root);
		R->export_lines = line ? DDBC_FACT_YES : DDBC_FACT_NO;
	}
	bool exported = R->export_lines == DDBC_FACT_YES;
	*item = root;
	if (exported) {
		if (!is_export_line(root))
			return malformed(R, sp->pos, "it is not an export line {\"Item\": {...}} "
					 "as the first item is");
		*item = json_object_get(root, "Item");
	}
	if (R->dynamodb == DDBC_FACT_UNKNOWN && (R->shape == DDBC_SHAPE_SCAN || exported))
		R->dynamodb = DDBC_FACT_YES;
	else if (R->dynamodb == DDBC_FACT_UNKNOWN && json_object_size(*item) > 0)
		R->dynamodb = ddbc_ival_looks_typed(*item) ? DDBC_FACT_YES : DDBC_FACT_NO;
	R->key_depth = exported ? 2 : 1;
	return 0;
}

static int type_values(ddbc_items_run *R, const json_t *item)
{
	size_t n = json_object_size(item);
	ddbc_xgrow((void **)&R->attrs, &R->attrs_cap, n + 1, sizeof(ddbc_ival));
	R->nattrs = 0;
	const char *key;
	const json_t *v;
	strbuf why = STRBUF_INIT;
	json_object_foreach((json_t *)item, key, v) {
		if (!ddbc_ival_make(&R->attrs[R->nattrs], key, v, R->dynamodb == DDBC_FACT_YES,
				    &why)) {
			malformed(R, ddbc_items_attr_pos(R, key), "%s", ddbc_strbuf_str(&why));
			ddbc_strbuf_release(&why);
			return -1;
		}
		R->nattrs++;
	}
	return 0;
}

/* Assigns the current item to R->ent, or reports why it has none; in a
 * batch file, among the entities of the table the request names only. */
static ddbc_items_fit assign(ddbc_items_run *R)
{
	const char *table = R->span->table;
	ddbc_items_table *all = R->tables;
	size_t n = R->ntables;
	if (table) {
		size_t i = 0;
		while (i < n && strcmp(all[i].t->name.s, table))
			i++;
		if (i == n) {
			ddbc_items_finding(R, DDBC_ITEM_UNMATCHED, NULL, R->span->pos,
					   "matches no entity: the request is for table '%s', "
					   "which the design does not define", table);
			return DDBC_FIT_NONE;
		}
		R->tables = &all[i];
		R->ntables = 1;
	}
	ddbc_items_fit fit = ddbc_items_assign(R);
	if (fit == DDBC_FIT_NONE)
		ddbc_items_report_unmatched(R);
	else if (fit == DDBC_FIT_SEVERAL)
		ddbc_items_report_ambiguous(R);
	R->tables = all;
	R->ntables = n;
	return fit;
}

void ddbc_items_check_span(ddbc_items_run *R, const ddbc_item_span *sp)
{
	R->span = sp;
	R->ent = NULL;
	R->failed = false;
	/* No values yet: a finding before they are typed names no key. */
	R->nattrs = 0;
	R->key_depth = 1;
	bool marked;
	json_t *root = parse_item(R, sp, &marked);
	const json_t *item = NULL;
	int rc = root ? item_object(R, root, &item) : -1;
	if (rc == 0 && marked && R->dynamodb == DDBC_FACT_YES) {
		/* This first item made the file DynamoDB JSON: read it as written
		 * (the marked tree stays in the region until the item is done). */
		root = parse_as_written(R, sp);
		rc = root ? item_object(R, root, &item) : -1;
	}
	if (rc == 0 && !item) {
		done_with(R);
		return;
	}
	R->t.items++;
	if (rc < 0 || type_values(R, item) < 0) {
		R->t.malformed++;
		done_with(R);
		return;
	}
	switch (assign(R)) {
	case DDBC_FIT_NONE:
		R->t.unmatched++;
		break;
	case DDBC_FIT_SEVERAL:
		/* Checked against a guess, the item would get findings of an
		 * entity it may not be. */
		R->t.failed++;
		break;
	case DDBC_FIT_ONE:
		ddbc_items_check_entity(R);
		if (R->failed)
			R->t.failed++;
		else
			R->t.ok++;
		break;
	}
	done_with(R);
}

/* ---- a worker and a file ---------------------------------------------------------- */

void ddbc_items_opts_init(ddbc_items_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->format = DDBC_ITEMS_TEXT;
	o->jobs = 1;
	o->max_findings = ULONG_MAX;
	o->min_severity = DDBC_SEV_NOTE;
	for (int k = 0; k < DDBC_ITEM_KIND_COUNT; k++)
		o->sev[k] = DDBC_SEV_DEFAULT;
}

void ddbc_items_run_init(ddbc_items_run *R, const ddbc_design *g, const ddbc_items_opts *o)
{
	memset(R, 0, sizeof(*R));
	R->g = g;
	R->opts = o;
	for (int k = 0; k < DDBC_ITEM_KIND_COUNT; k++)
		R->sev[k] = o->sev[k] == DDBC_SEV_DEFAULT
				    ? ddbc_item_kind_get((ddbc_item_kind)k)->default_severity
				    : o->sev[k];
	ddbc_items_tables_prepare(R);
	ddbc_jalloc_install();
}

void ddbc_items_run_release(ddbc_items_run *R)
{
	ddbc_items_tables_release(R);
	ddbc_jalloc_release(&R->jalloc);
	/* The run's trees went with its region: jansson's own functions
	 * can come back (items_jalloc.h). */
	ddbc_jalloc_uninstall();
	free(R->attrs);
	free(R->slot);
	free(R->found);
	ddbc_strbuf_release(&R->marked);
	ddbc_strbuf_release(&R->render);
	ddbc_strbuf_release(&R->line);
	ddbc_match_scratch_release(&R->scratch);
}

int ddbc_items_check_stream(ddbc_items_run *R, FILE *in, const char *name,
			    ddbc_items_error *err)
{
	R->name = name;
	R->shape = DDBC_SHAPE_UNKNOWN;
	R->export_lines = R->dynamodb = DDBC_FACT_UNKNOWN;
	memset(&R->t, 0, sizeof(R->t));
	ddbc_items_reader *reader = ddbc_items_reader_new(in, DDBC_ITEMS_MAX_ITEM);
	ddbc_item_span span;
	ddbc_items_step step;
	while ((step = ddbc_items_next(reader, &span, err)) == DDBC_ITEMS_ITEM) {
		R->shape = ddbc_items_shape_of(reader);
		ddbc_items_check_span(R, &span);
		if (R->tick && span.index % DDBC_ITEMS_TICK == 0)
			R->tick(R->tick_arg, DDBC_ITEMS_TICK);
	}
	R->shape = ddbc_items_shape_of(reader);
	ddbc_items_reader_free(reader);
	return step == DDBC_ITEMS_BAD ? -1 : 0;
}
