/* migrate_run.c - reading the items, writing or applying their rewrites
 *
 * Items come from a Scan of --table (segments in threads, or the one
 * segment --segment names, so that other machines run the others) or from
 * --items files. Each item is taken to NEW by migrate_item.c; its write is
 * a request line (-o), an applied call (--apply), or a count (--dry-run).
 * An applied write whose condition fails was raced by another writer: the
 * item is read again, consistently, and migrated from what it holds now.
 * The checkpoint records, per segment (per file), the last page (item)
 * whose items are all done, rewritten atomically after each; a resumed run
 * starts after it, and the items of a page cut short are found already in
 * NEW's shape, so nothing is written twice.
 */
#include "items/items_export.h"
#include "items/items_stream.h"
#include "items/items_value.h"
#include "live/migrate_int.h"
#include "util/error.h"
#include "util/xalloc.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Conditional failures of one item in a row before it is given up: each
 * is another writer's change in between. */
#define MAX_RACES 10

/* Items a Scan page holds at most. */
#define SCAN_PAGE 250

typedef struct bucket {
	pthread_mutex_t lock;
	double rate, tokens, last;
} bucket;

typedef struct run {
	const mig_work *w;
	const ddbc_migrate_opts *o;
	ddbc_dynamo *db;
	pthread_mutex_t lock;    /* the counts' messages, the requests, the checkpoint */
	atomic_ulong read, written, skipped, failed, races;
	bucket units;
	json_t *ck;              /* the checkpoint: {"source", "segments", "parts": {NAME: {...}}} */
	long long total;         /* items to read, when known; else -1 */
	double start;
	atomic_int stop, failed_run;
} run;

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Waits until units write units may be spent: --max-units per second,
 * a second's worth at most saved up. */
static void bucket_take(bucket *b, double units)
{
	if (b->rate <= 0)
		return;
	pthread_mutex_lock(&b->lock);
	double t = now();
	b->tokens = fmin(b->rate, b->tokens + (t - b->last) * b->rate);
	b->last = t;
	b->tokens -= units;
	double wait = b->tokens < 0 ? -b->tokens / b->rate : 0;
	pthread_mutex_unlock(&b->lock);
	if (wait > 0) {
		struct timespec ts = { (time_t)wait, (long)((wait - floor(wait)) * 1e9) };
		nanosleep(&ts, NULL);
	}
}

/* ---- the checkpoint ----------------------------------------------------------------------- */

static int checkpoint_write(run *r)
{
	if (!r->o->checkpoint)
		return 0;
	strbuf tmp = STRBUF_INIT;
	ddbc_strbuf_addf(&tmp, "%s.tmp", r->o->checkpoint);
	int rc = json_dump_file(r->ck, ddbc_strbuf_str(&tmp), JSON_INDENT(1) | JSON_SORT_KEYS);
	if (rc == 0 && rename(ddbc_strbuf_str(&tmp), r->o->checkpoint) != 0)
		rc = -1;
	if (rc != 0)
		ddbc_cmd_error("migrate", "cannot write checkpoint '%s': %s",
			       r->o->checkpoint, strerror(errno));
	ddbc_strbuf_release(&tmp);
	return rc;
}

static json_t *ck_part(run *r, const char *name)
{
	json_t *parts = json_object_get(r->ck, "parts");
	json_t *p = json_object_get(parts, name);
	if (!p) {
		p = json_object();
		json_object_set_new(p, "items", json_integer(0));
		json_object_set_new(p, "done", json_false());
		json_object_set_new(parts, name, p);
	}
	return p;
}

/* Loads the checkpoint of an earlier run of the same source, else starts
 * one; 0, or 2 when the file is another run's or unreadable. */
static int checkpoint_open(run *r, const char *source, int segments)
{
	json_error_t err;
	FILE *f = r->o->checkpoint ? fopen(r->o->checkpoint, "r") : NULL;
	if (f) {
		r->ck = json_loadf(f, 0, &err);
		fclose(f);
		if (!r->ck || !json_is_object(json_object_get(r->ck, "parts"))) {
			ddbc_cmd_error("migrate", "checkpoint '%s' is not one ddbc wrote: %s",
				       r->o->checkpoint, r->ck ? "no parts" : err.text);
			return 2;
		}
		const char *was = json_string_value(json_object_get(r->ck, "source"));
		json_int_t n = json_integer_value(json_object_get(r->ck, "segments"));
		if (!was || strcmp(was, source) || n != segments) {
			ddbc_cmd_error("migrate", "checkpoint '%s' is of another run (%s in %lld "
				       "segments); remove it to start over", r->o->checkpoint,
				       was ? was : "?", (long long)n);
			return 2;
		}
		return 0;
	}
	if (r->o->checkpoint && errno != ENOENT) {
		ddbc_cmd_error("migrate", "cannot read checkpoint '%s': %s", r->o->checkpoint,
			       strerror(errno));
		return 2;
	}
	r->ck = json_object();
	json_object_set_new(r->ck, "source", json_string(source));
	json_object_set_new(r->ck, "segments", json_integer(segments));
	json_object_set_new(r->ck, "parts", json_object());
	return 0;
}

/* ---- one item ----------------------------------------------------------------------------- */

/* An item is named by its key in the table, else by where it was read. */
static void say_failed(run *r, const char *table, const char *where, const json_t *item,
		       const char *why)
{
	const ddbc_table *t = table ? ddbc_design_table(r->w->old, table) : NULL;
	strbuf name = STRBUF_INIT;
	if (t)
		ddbc_migrate_item_name(&name, t, item);
	else if (where)
		ddbc_strbuf_addstr(&name, where);
	/* check-items' own line: its message only */
	const char *msg = strstr(why, "error: item 1: ");
	strbuf w = STRBUF_INIT;
	if (msg) {
		ddbc_strbuf_add(&w, why, (size_t)(strstr(why, "item:1:1: ") ? strstr(why, "item:1:1: ")
					      - why : msg - why));
		ddbc_strbuf_addstr(&w, msg + strlen("error: item 1: "));
		why = ddbc_strbuf_str(&w);
	}
	pthread_mutex_lock(&r->lock);
	if (r->o->progress)
		ddbc_progress_clear();
	ddbc_cmd_error("migrate", "item %s%scannot be migrated: %s", ddbc_strbuf_str(&name),
		       name.len ? " " : "", why);
	ddbc_strbuf_release(&w);
	pthread_mutex_unlock(&r->lock);
	ddbc_strbuf_release(&name);
	r->failed++;
}

static void write_line(run *r, const char *op, json_t *input)
{
	json_t *line = json_object();
	json_object_set_new(line, "operation", json_string(op));
	json_object_set(line, "input", input);
	char *text = json_dumps(line, JSON_COMPACT);
	pthread_mutex_lock(&r->lock);
	fputs(text, r->o->requests);
	fputc('\n', r->o->requests);
	pthread_mutex_unlock(&r->lock);
	free(text);
	json_decref(line);
}

/* The table and key an applied write was for: its item read again. */
static json_t *reread(run *r, const char *op, json_t *input, ddbc_dynamo_error *e)
{
	json_t *req = json_object(), *resp = NULL;
	if (!strcmp(op, "UpdateItem")) {
		json_object_set(req, "TableName", json_object_get(input, "TableName"));
		json_object_set(req, "Key", json_object_get(input, "Key"));
	} else {
		json_t *del = json_object_get(json_array_get(json_object_get(input, "TransactItems"),
							     1), "Delete");
		json_object_set(req, "TableName", json_object_get(del, "TableName"));
		json_object_set(req, "Key", json_object_get(del, "Key"));
	}
	json_object_set_new(req, "ConsistentRead", json_true());
	int rc = ddbc_dynamo_call(r->db, "GetItem", req, &resp, e);
	json_decref(req);
	if (rc < 0)
		return NULL;
	json_t *item = json_incref(json_object_get(resp, "Item"));
	json_decref(resp);
	if (!item)
		item = json_object();  /* gone: deleted, or moved, by someone else */
	return item;
}

/* The item under key of table (consistent), an empty object when there is
 * none, or NULL when the read failed. */
static json_t *get_item(run *r, json_t *table, json_t *key)
{
	json_t *req = json_pack("{s:O, s:O, s:b}", "TableName", table, "Key", key,
				"ConsistentRead", 1), *resp = NULL;
	ddbc_dynamo_error e;
	int rc = ddbc_dynamo_call(r->db, "GetItem", req, &resp, &e);
	json_decref(req);
	if (rc < 0)
		return NULL;
	json_t *item = json_incref(json_object_get(resp, "Item"));
	json_decref(resp);
	return item ? item : json_object();
}

/* Whether a transaction refused because its new key is taken was in fact
 * done by this run: a request whose answer was lost (a timeout, a 5xx) is
 * sent again by the client, and the first one may have landed. Then the
 * old key holds nothing and the new key exactly the item put. */
static bool landed(run *r, json_t *input)
{
	json_t *items = json_object_get(input, "TransactItems");
	json_t *put = json_object_get(json_array_get(items, 0), "Put");
	json_t *del = json_object_get(json_array_get(items, 1), "Delete");
	json_t *want = json_object_get(put, "Item"), *old_key = json_object_get(del, "Key");
	if (!want || !old_key)
		return false;
	json_t *new_key = json_object();
	const char *name;
	json_t *v;
	json_object_foreach(old_key, name, v)
		json_object_set(new_key, name, json_object_get(want, name));
	json_t *now_new = get_item(r, json_object_get(put, "TableName"), new_key);
	json_t *now_old = now_new ? get_item(r, json_object_get(del, "TableName"), old_key) : NULL;
	bool ours = now_new && now_old && json_equal(now_new, want) && !json_object_size(now_old);
	json_decref(new_key);
	json_decref(now_new);
	json_decref(now_old);
	return ours;
}

/* Whether the engine does not know op at all (dynalite has no
 * TransactWriteItems): then no item can be written, and the run stops
 * with one message instead of failing every item with the same reason. */
static bool unknown_operation(run *r, const char *op, const ddbc_dynamo_error *e)
{
	if (!strstr(e->type, "UnknownOperation"))
		return false;
	pthread_mutex_lock(&r->lock);
	if (!atomic_exchange(&r->failed_run, 1)) {
		if (r->o->progress)
			ddbc_progress_clear();
		ddbc_cmd_error("migrate", "the engine at '%s' does not support %s, which %s "
			       "needs: run the migration on DynamoDB, DynamoDB Local or moto's "
			       "server (dynalite lacks it), or write the requests with -o",
			       ddbc_dynamo_endpoint(r->db), op,
			       strcmp(op, "TransactWriteItems") ? "this migration"
			       : "moving an item to a new primary key");
	}
	pthread_mutex_unlock(&r->lock);
	atomic_store(&r->stop, 1);
	return true;
}

/* Whether the error is a condition that failed: the item changed. For a
 * transaction, *taken says the new key is held by another item already. */
static bool raced(const ddbc_dynamo_error *e, bool *taken)
{
	*taken = false;
	if (!strcmp(e->type, "ConditionalCheckFailedException"))
		return true;
	if (strcmp(e->type, "TransactionCanceledException"))
		return false;
	/* "Transaction cancelled, please refer cancellation reasons for
	 * specific reasons [ConditionalCheckFailed, None]": the Put's first. */
	const char *at = strchr(e->message, '[');
	*taken = at && !strncmp(at + 1, "ConditionalCheckFailed", 22);
	return strstr(e->message, "ConditionalCheckFailed") != NULL;
}

static void migrate_one(run *r, mig_scratch *s, const char *table, const char *where,
			json_t *item)
{
	r->read++;
	json_incref(item);
	for (int attempt = 0;; attempt++) {
		const char *op = NULL;
		json_t *input = NULL;
		double units = 0;
		strbuf why = STRBUF_INIT;
		mig_verdict v = json_object_size(item) ? ddbc_migrate_item(r->w, s, table, item, &op, &input,
								  &units, &why) : MIG_SKIP;
		if (v != MIG_WRITE) {
			if (v == MIG_SKIP)
				r->skipped++;
			else
				say_failed(r, table, where, item, ddbc_strbuf_str(&why));
			ddbc_strbuf_release(&why);
			break;
		}
		ddbc_strbuf_release(&why);
		if (r->o->requests)
			write_line(r, op, input);
		if (r->o->dry_run || !r->o->apply) {
			r->written++;
			json_decref(input);
			break;
		}
		bucket_take(&r->units, units);
		ddbc_dynamo_error e;
		json_t *resp = NULL;
		if (ddbc_dynamo_call(r->db, op, input, &resp, &e) == 0) {
			json_decref(resp);
			json_decref(input);
			r->written++;
			break;
		}
		if (unknown_operation(r, op, &e)) {
			json_decref(input);
			break;
		}
		bool taken;
		if (raced(&e, &taken) && taken && landed(r, input)) {
			json_decref(input);
			r->written++;
			break;
		}
		if (!raced(&e, &taken) || taken || attempt + 1 >= MAX_RACES) {
			strbuf msg = STRBUF_INIT;
			if (taken)
				ddbc_strbuf_addstr(&msg, "an item already holds its new primary key");
			else if (attempt + 1 >= MAX_RACES)
				ddbc_strbuf_addf(&msg, "it changed under every one of %d attempts", MAX_RACES);
			else
				ddbc_strbuf_addf(&msg, "%s failed: %s%s%s", op, e.type, *e.type ? ": " : "",
					    e.message);
			say_failed(r, table, where, item, ddbc_strbuf_str(&msg));
			ddbc_strbuf_release(&msg);
			json_decref(input);
			break;
		}
		r->races++;
		json_t *again = reread(r, op, input, &e);
		json_decref(input);
		if (!again) {
			strbuf msg = STRBUF_INIT;
			ddbc_strbuf_addf(&msg, "reading it again failed: %s %s", e.type, e.message);
			say_failed(r, table, where, item, ddbc_strbuf_str(&msg));
			ddbc_strbuf_release(&msg);
			break;
		}
		json_decref(item);
		item = again;
	}
	json_decref(item);
}

/* ---- the Scan ----------------------------------------------------------------------------- */

typedef struct seg_run {
	run *r;
	int segment;
	char name[32];
	pthread_t thread;
	int result;
	ddbc_dynamo_error e;
	mig_scratch s;           /* this segment's check-items runs */
} seg_run;

static int page_done(void *ctx, int segment, json_t *page)
{
	seg_run *sr = ctx;
	run *r = sr->r;
	(void)segment;
	size_t i;
	json_t *item;
	json_array_foreach(json_object_get(page, "Items"), i, item) {
		if (atomic_load(&r->stop))
			break;
		migrate_one(r, &sr->s, r->o->table, NULL, item);
	}
	if (atomic_load(&r->stop))
		return 1;
	pthread_mutex_lock(&r->lock);
	json_t *p = ck_part(r, sr->name);
	json_t *next = json_object_get(page, "LastEvaluatedKey");
	json_object_set_new(p, "items", json_integer(json_integer_value(json_object_get(p, "items"))
						      + (json_int_t)i));
	if (json_is_object(next) && json_object_size(next))
		json_object_set(p, "key", next);
	else
		json_object_set_new(p, "done", json_true());
	int rc = checkpoint_write(r);
	pthread_mutex_unlock(&r->lock);
	if (rc)
		atomic_store(&r->stop, 1);
	return rc ? 1 : 0;
}

static void *segment_main(void *arg)
{
	seg_run *sr = arg;
	run *r = sr->r;
	int total = r->o->segments ? r->o->segments : r->o->jobs;
	json_t *req = json_object();
	json_object_set_new(req, "TableName", json_string(r->o->table));
	/* Pages of a few hundred items: the checkpoint's grain, so that a
	 * stopped run reads again little of what it did. */
	json_object_set_new(req, "Limit", json_integer(SCAN_PAGE));
	if (total > 1) {
		json_object_set_new(req, "Segment", json_integer(sr->segment));
		json_object_set_new(req, "TotalSegments", json_integer(total));
	}
	pthread_mutex_lock(&r->lock);
	json_t *p = ck_part(r, sr->name);
	bool done = json_is_true(json_object_get(p, "done"));
	if (json_object_get(p, "key"))
		json_object_set(req, "ExclusiveStartKey", json_object_get(p, "key"));
	pthread_mutex_unlock(&r->lock);
	if (!done) {
		ddbc_migrate_scratch_init(&sr->s, r->w);
		sr->result = ddbc_dynamo_pages(r->db, "Scan", req, page_done, sr, &sr->e);
		ddbc_migrate_scratch_release(&sr->s);
	}
	json_decref(req);
	return NULL;
}

static void scan_table(run *r)
{
	int total = r->o->segments ? r->o->segments : r->o->jobs;
	int first = r->o->segments ? r->o->segment : 0;
	int n = r->o->segments ? 1 : total;
	seg_run *v = ddbc_xcalloc((size_t)n, sizeof(*v));
	for (int i = 0; i < n; i++) {
		v[i].r = r;
		v[i].segment = first + i;
		snprintf(v[i].name, sizeof(v[i].name), "segment %d", first + i);
		if (n == 1 || pthread_create(&v[i].thread, NULL, segment_main, &v[i]) != 0) {
			segment_main(&v[i]);
			v[i].thread = 0;
		}
	}
	for (int i = 0; i < n; i++) {
		if (v[i].thread)
			pthread_join(v[i].thread, NULL);
		if (v[i].result < 0) {
			ddbc_cmd_error("migrate", "Scan of table '%s' (%s) failed: %s%s%s",
				       r->o->table, v[i].name, v[i].e.type,
				       *v[i].e.type ? ": " : "", v[i].e.message);
			atomic_store(&r->failed_run, 1);
		}
	}
	free(v);
}

/* ---- items files -------------------------------------------------------------------------- */

/* The DynamoDB JSON item of one span: bare, or an export line's Item. */
static json_t *span_item(const ddbc_item_span *sp, strbuf *why)
{
	json_error_t err;
	json_t *j = json_loadb(sp->data, sp->len, 0, &err);
	if (!json_is_object(j)) {
		ddbc_strbuf_addf(why, "not a JSON object: %s", j ? "another value" : err.text);
		json_decref(j);
		return NULL;
	}
	json_t *in = json_object_get(j, "Item");
	if (json_object_size(j) == 1 && json_is_object(in)) {
		json_incref(in);
		json_decref(j);
		j = in;
	}
	if (json_object_size(j) && !ddbc_ival_looks_typed(j)) {
		ddbc_strbuf_addstr(why, "not DynamoDB JSON (migrate reads items as an export or a Scan "
			      "holds them: {\"A\": {\"S\": \"...\"}})");
		json_decref(j);
		return NULL;
	}
	return j;
}

static void read_part(run *r, const ddbc_items_part *part)
{
	FILE *f = part->path ? fopen(part->path, "rb") : part->stream;
	if (!f) {
		ddbc_cmd_error("migrate", "cannot read '%s': %s", part->name, strerror(errno));
		atomic_store(&r->failed_run, 1);
		return;
	}
	pthread_mutex_lock(&r->lock);
	json_t *p = ck_part(r, part->name);
	json_int_t skip = json_integer_value(json_object_get(p, "items"));
	pthread_mutex_unlock(&r->lock);
	ddbc_items_reader *rd = ddbc_items_reader_new(f, DDBC_ITEMS_MAX_ITEM);
	mig_scratch s;
	ddbc_migrate_scratch_init(&s, r->w);
	ddbc_item_span sp;
	ddbc_items_error err = { { 0, 0 }, STRBUF_INIT };
	ddbc_items_step st;
	json_int_t seen = 0;
	while ((st = ddbc_items_next(rd, &sp, &err)) == DDBC_ITEMS_ITEM) {
		if (seen++ < skip)
			continue;
		strbuf why = STRBUF_INIT;
		json_t *item = span_item(&sp, &why);
		if (item) {
			char where[64];
			snprintf(where, sizeof(where), "%lu (line %lu)", sp.index, sp.pos.line);
			strbuf at = STRBUF_INIT;
			ddbc_strbuf_addf(&at, "%s of '%s'", where, part->name);
			migrate_one(r, &s, NULL, ddbc_strbuf_str(&at), item);
			ddbc_strbuf_release(&at);
		} else {
			r->read++;
			r->failed++;
			ddbc_cmd_error_at("migrate", part->name, sp.pos.line, sp.pos.column,
					  "item %lu is %s", sp.index, ddbc_strbuf_str(&why));
		}
		json_decref(item);
		ddbc_strbuf_release(&why);
		pthread_mutex_lock(&r->lock);
		json_object_set_new(p, "items", json_integer(seen));
		/* Every 100 items: the file is rewritten, not the item. */
		int rc = seen % 100 ? 0 : checkpoint_write(r);
		pthread_mutex_unlock(&r->lock);
		if (rc || atomic_load(&r->stop))
			break;
	}
	if (st == DDBC_ITEMS_BAD) {
		ddbc_cmd_error_at("migrate", part->name, err.pos.line, err.pos.column, "%s",
				  ddbc_strbuf_str(&err.message));
		atomic_store(&r->failed_run, 1);
	} else if (st == DDBC_ITEMS_END) {
		pthread_mutex_lock(&r->lock);
		json_object_set_new(p, "done", json_true());
		checkpoint_write(r);
		pthread_mutex_unlock(&r->lock);
	}
	ddbc_strbuf_release(&err.message);
	ddbc_migrate_scratch_release(&s);
	ddbc_items_reader_free(rd);
	if (part->path)
		fclose(f);
}

static void read_items(run *r, const ddbc_items_plan *plan)
{
	for (size_t i = 0; i < plan->n && !atomic_load(&r->stop); i++)
		read_part(r, &plan->parts[i]);
}

/* ---- progress and summary ----------------------------------------------------------------- */

static void line(run *r, strbuf *sb)
{
	double t = now() - r->start;
	unsigned long read = r->read;
	double rate = t > 0 ? (double)read / t : 0;
	ddbc_strbuf_addf(sb, "%lu read, %lu %s, %lu skipped, %lu failed", read,
		    (unsigned long)r->written, r->o->apply && !r->o->dry_run ? "written" :
		    "to write", (unsigned long)r->skipped, (unsigned long)r->failed);
	ddbc_strbuf_addf(sb, " in %.1f s, %.0f items/s", t, rate);
	if (r->total > (long long)read && rate > 0)
		ddbc_strbuf_addf(sb, ", about %.0f s left", (double)(r->total - (long long)read) / rate);
}

static void *progress_main(void *arg)
{
	run *r = arg;
	while (!atomic_load(&r->stop)) {
		for (int i = 0; i < 10 && !atomic_load(&r->stop); i++)
			usleep(100000);
		if (atomic_load(&r->stop))
			break;
		strbuf sb = STRBUF_INIT;
		line(r, &sb);
		pthread_mutex_lock(&r->lock);
		ddbc_progress("ddbc migrate: %s", ddbc_strbuf_str(&sb));
		pthread_mutex_unlock(&r->lock);
		ddbc_strbuf_release(&sb);
	}
	return NULL;
}

/* The table's item count, as DescribeTable gives it (updated every few
 * hours by DynamoDB): the progress line's estimate of what is left. */
static long long item_count(run *r)
{
	json_t *req = json_object(), *resp = NULL;
	json_object_set_new(req, "TableName", json_string(r->o->table));
	ddbc_dynamo_error e;
	long long n = -1;
	if (ddbc_dynamo_call(r->db, "DescribeTable", req, &resp, &e) == 0)
		n = (long long)json_integer_value(json_object_get(json_object_get(resp, "Table"),
								  "ItemCount"));
	json_decref(req);
	json_decref(resp);
	int total = r->o->segments ? r->o->segments : r->o->jobs;
	return n > 0 && r->o->segments && total > 0 ? n / total : n > 0 ? n : -1;
}

/* ---- the run ------------------------------------------------------------------------------ */

static int open_client(run *r)
{
	const ddbc_migrate_opts *o = r->o;
	if (!o->table && !(o->apply && !o->dry_run))
		return 0;
	char *err = NULL;
	r->db = ddbc_dynamo_open(&o->dynamo, &err);
	if (!r->db) {
		ddbc_cmd_error("migrate", "%s", err ? err : "cannot reach DynamoDB");
		free(err);
		return 2;
	}
	if (o->apply && !o->dry_run && !o->yes && !ddbc_dynamo_is_loopback(r->db)) {
		ddbc_cmd_error("migrate", "--apply would write to '%s', which is not on this "
			       "machine; add --yes to write there", ddbc_dynamo_endpoint(r->db));
		return 2;
	}
	return 0;
}

static void source_name(strbuf *sb, const ddbc_migrate_opts *o)
{
	if (o->table) {
		ddbc_strbuf_addf(sb, "table %s", o->table);
		return;
	}
	ddbc_strbuf_addstr(sb, "items");
	for (size_t i = 0; i < o->nitems; i++)
		ddbc_strbuf_addf(sb, " %s", o->items[i]);
}

static int run_source(run *r)
{
	const ddbc_migrate_opts *o = r->o;
	ddbc_items_plan plan = { 0 };
	for (size_t i = 0; i < o->nitems; i++)
		if (ddbc_items_plan_add(&plan, o->items[i]) < 0) {
			ddbc_items_plan_release(&plan);
			return 2;
		}
	strbuf src = STRBUF_INIT;
	source_name(&src, o);
	int total = o->table ? (o->segments ? o->segments : o->jobs) : 1;
	int rc = checkpoint_open(r, ddbc_strbuf_str(&src), total);
	ddbc_strbuf_release(&src);
	if (rc) {
		ddbc_items_plan_release(&plan);
		return rc;
	}
	r->total = o->table && o->progress ? item_count(r) : -1;
	r->start = now();
	pthread_t progress;
	bool shown = o->progress && pthread_create(&progress, NULL, progress_main, r) == 0;
	if (o->table)
		scan_table(r);
	else
		read_items(r, &plan);
	atomic_store(&r->stop, 1);
	if (shown) {
		pthread_join(progress, NULL);
		ddbc_progress_clear();
	}
	ddbc_items_plan_release(&plan);
	return 0;
}

int ddbc_migrate(const ddbc_design *old, const ddbc_design *new, const ddbc_migrate_opts *o)
{
	mig_work w;
	int status = ddbc_migrate_work_build(&w, old, new, o->step);
	run r = { .w = &w, .o = o, .total = -1 };
	pthread_mutex_init(&r.lock, NULL);
	pthread_mutex_init(&r.units.lock, NULL);
	r.units.rate = o->max_units;
	r.units.tokens = o->max_units;
	r.units.last = now();
	if (status == 0)
		status = open_client(&r);
	if (status == 0 && w.ntargets == 0)
		ddbc_warning("migrate", "no item step of the plan rewrites items%s",
			     o->step ? " of this step" : "");
	if (status == 0)
		status = run_source(&r);
	if (status == 0) {
		strbuf sb = STRBUF_INIT;
		line(&r, &sb);
		ddbc_info("migrate", "%s", ddbc_strbuf_str(&sb));
		if (r.races)
			ddbc_info("migrate", "%lu writes raced another writer and were "
				  "made again from the item read anew", (unsigned long)r.races);
		ddbc_strbuf_release(&sb);
		status = atomic_load(&r.failed_run) ? 2 : r.failed ? 1 : 0;
	}
	if (r.db)
		ddbc_dynamo_close(r.db);
	json_decref(r.ck);
	pthread_mutex_destroy(&r.lock);
	pthread_mutex_destroy(&r.units.lock);
	ddbc_migrate_work_release(&w);
	return status;
}
