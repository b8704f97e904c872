/* verify_tables.c - the tables created, the items written
 *
 * The tables are created from the CreateTable requests of the
 * create-table export (emit.h), one after the other, each waited for
 * until it and its indexes are ACTIVE (an emulator creates at once, the
 * service in seconds). Items are written with BatchWriteItem, 25 a
 * request as the API allows, and what it leaves unprocessed (throttling)
 * is sent again after a growing pause.
 */
#include "live/verify_int.h"
#include "emit/emit.h"
#include "model/request.h"
#include "util/error.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* How long a table may take to become ACTIVE, and how often to ask. */
#define ACTIVE_WAIT_MS 120000L
#define POLL_MS 100L
/* Rounds of UnprocessedItems sent again before giving up. */
#define UNPROCESSED_ROUNDS 12

static void pause_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

void ddbc_verify_call_error(verify_run *V, const char *what, const ddbc_dynamo_error *e)
{
	if (e->transport)
		V->transport_failed = true;
	ddbc_strbuf_addf(&V->error, "%s: %s%s%s", what, e->type, *e->type ? ": " : "", e->message);
}

/* ---- tables ----------------------------------------------------------------------- */

static json_t *create_requests(const ddbc_design *g)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		ddbc_xalloc_die();
	ddbc_err why = DDBC_ERR_INIT;
	ddbc_export_opts o = { NULL, 0, true, &why };
	ddbc_diags d;
	ddbc_diags_init(&d);
	ddbc_emit_result r = ddbc_emit_create_table(f, g, &o, &d);
	fclose(f);
	ddbc_err_print(&why);
	ddbc_err_release(&why);
	ddbc_diags_release(&d);
	json_t *reqs = r == DDBC_EMIT_OK ? json_loadb(buf, len, 0, NULL) : NULL;
	free(buf);
	return reqs;
}

static bool all_active(const json_t *table)
{
	if (strcmp(json_string_value(json_object_get(table, "TableStatus")) ?: "", "ACTIVE"))
		return false;
	size_t i;
	json_t *gsi;
	json_array_foreach(json_object_get(table, "GlobalSecondaryIndexes"), i, gsi)
		if (strcmp(json_string_value(json_object_get(gsi, "IndexStatus")) ?: "ACTIVE",
			   "ACTIVE"))
			return false;
	return true;
}

static int wait_active(verify_run *V, const char *name)
{
	json_t *req = json_pack("{s:s}", "TableName", name);
	int rc = -1;
	for (long waited = 0; waited <= ACTIVE_WAIT_MS; waited += POLL_MS) {
		json_t *resp = NULL;
		ddbc_dynamo_error e;
		if (ddbc_dynamo_call(V->client, "DescribeTable", req, &resp, &e) < 0) {
			ddbc_verify_call_error(V, "DescribeTable", &e);
			break;
		}
		bool active = all_active(json_object_get(resp, "Table"));
		json_decref(resp);
		if (active) {
			rc = 0;
			break;
		}
		pause_ms(POLL_MS);
	}
	if (rc < 0 && !V->error.len)
		ddbc_strbuf_addf(&V->error, "table '%s' is not ACTIVE after %ld s", name,
			    ACTIVE_WAIT_MS / 1000);
	json_decref(req);
	return rc;
}

int ddbc_verify_create_tables(verify_run *V)
{
	json_t *reqs = create_requests(V->g);
	if (!reqs) {
		ddbc_strbuf_addstr(&V->error, "the design's CreateTable requests cannot be made");
		return -1;
	}
	size_t i;
	json_t *req;
	int rc = 0;
	json_array_foreach(reqs, i, req) {
		json_t *resp = NULL;
		ddbc_dynamo_error e;
		const char *name = json_string_value(json_object_get(req, "TableName"));
		if (ddbc_dynamo_call(V->client, "CreateTable", req, &resp, &e) < 0) {
			if (!strcmp(e.type, "ResourceInUseException"))
				ddbc_strbuf_addf(&V->error, "table '%s' exists already; leave out --create "
					    "to write to it", name);
			else
				ddbc_verify_call_error(V, "CreateTable", &e);
			rc = -1;
			break;
		}
		json_decref(resp);
		if ((rc = wait_active(V, name)) < 0)
			break;
	}
	json_decref(reqs);
	return rc;
}

/* ---- items ------------------------------------------------------------------------ */

/* Sends one BatchWriteItem and then what it leaves unprocessed. */
static int write_batch(verify_run *V, json_t *request_items)
{
	json_t *pending = json_incref(request_items);
	for (int round = 0; json_object_size(pending) > 0; round++) {
		if (round == UNPROCESSED_ROUNDS) {
			ddbc_strbuf_addf(&V->error, "BatchWriteItem leaves items unprocessed after %d "
				    "rounds", UNPROCESSED_ROUNDS);
			json_decref(pending);
			return -1;
		}
		if (round)
			pause_ms(50L << (round < 6 ? round : 6));
		json_t *req = json_pack("{s:O}", "RequestItems", pending);
		json_t *resp = NULL;
		ddbc_dynamo_error e;
		int rc = ddbc_dynamo_call(V->client, "BatchWriteItem", req, &resp, &e);
		json_decref(req);
		json_decref(pending);
		if (rc < 0 && !strcmp(e.type, "ResourceNotFoundException")) {
			const char *t;
			json_t *reqs;
			json_object_foreach(request_items, t, reqs)
				break;
			ddbc_strbuf_addf(&V->error, "table '%s' is not there; give --create to create "
				    "the design's tables", t);
			return -1;
		}
		if (rc < 0) {
			ddbc_verify_call_error(V, "BatchWriteItem", &e);
			return -1;
		}
		pending = json_incref(json_object_get(resp, "UnprocessedItems"));
		json_decref(resp);
		if (!pending)
			break;
	}
	json_decref(pending);
	return 0;
}

int ddbc_verify_write_items(verify_run *V)
{
	size_t i = 0;
	while (i < V->n) {
		const ddbc_table *t = V->items[i].table;
		json_t *puts = json_array();
		for (; i < V->n && V->items[i].table == t && json_array_size(puts) < DDBC_BATCH_MAX;
		     i++)
			json_array_append_new(puts, json_pack("{s:{s:O}}", "PutRequest", "Item",
							      V->items[i].item));
		json_t *request_items = json_pack("{s:o}", t->name.s, puts);
		int rc = write_batch(V, request_items);
		json_decref(request_items);
		if (rc < 0)
			return -1;
		if (V->o->progress)
			ddbc_progress("verify: %zu of %zu items written", i, V->n);
	}
	if (V->o->progress)
		ddbc_progress_clear();
	return 0;
}

/* The key of item in t, as a DeleteRequest names it. */
static json_t *key_of(const ddbc_table *t, const json_t *item)
{
	json_t *key = json_object();
	for (size_t i = 0; i < t->primary.npk + t->primary.nsk; i++) {
		const char *name = ddbc_index_key(&t->primary, i);
		json_object_set(key, name, json_object_get(item, name));
	}
	return key;
}

static int delete_batch(verify_run *V, const ddbc_table *t, json_t *dels)
{
	json_t *request_items = json_pack("{s:O}", t->name.s, dels);
	int rc = write_batch(V, request_items);
	json_decref(request_items);
	json_array_clear(dels);
	return rc;
}

int ddbc_verify_delete_items(verify_run *V)
{
	json_t *dels = json_array();
	const ddbc_table *t = NULL;
	int rc = 0;
	size_t n = V->n + json_array_size(V->puts);
	for (size_t i = 0; i < n && rc == 0; i++) {
		const json_t *put = i >= V->n ? json_array_get(V->puts, i - V->n) : NULL;
		const ddbc_table *it = put ? ddbc_design_table(V->g, json_string_value(
						     json_object_get(put, "table")))
					   : V->items[i].table;
		const json_t *item = put ? json_object_get(put, "item") : V->items[i].item;
		if ((it != t || json_array_size(dels) == DDBC_BATCH_MAX) && json_array_size(dels))
			rc = delete_batch(V, t, dels);
		t = it;
		json_array_append_new(dels, json_pack("{s:{s:o}}", "DeleteRequest", "Key",
						      key_of(it, item)));
	}
	if (rc == 0 && json_array_size(dels))
		rc = delete_batch(V, t, dels);
	json_decref(dels);
	return rc;
}
