/* items_table.c - check-items --table: the stored items, read by a parallel Scan
 *
 * The table is read in N Scan segments (N = -j), one thread each
 * (aws/dynamo.h), and each segment is a part of the run, as a file is:
 * its thread writes every item of every page as an export line,
 * {"Item": {...}} in DynamoDB JSON, into a pipe, and a check-items worker
 * (items_files.c) reads the other end. So the items get exactly the
 * checks, report and summary a file of them gets, checking keeps pace
 * with the engine, and neither the table nor a segment is ever held in
 * memory or on disk. Attributes are written in name order, so a report
 * does not depend on the order the engine sends them in.
 *
 * A segment whose Scan fails (the engine stopped answering, after the
 * client's retries) ends its part there: the part is bad, as a truncated
 * file is, and the run ends unreadable (exit 2, nothing written with -o).
 */
#include "items/items_run.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One segment: the pipe's ends and how its Scan ended. */
typedef struct segment {
	FILE *w, *r;
	char *name;
	pthread_mutex_t mu;
	bool complete;           /* its last page was written */
	char *why;               /* why it stopped short, or NULL */
} segment;

typedef struct table_scan {
	ddbc_dynamo *c;
	const char *table;
	segment *segs;
	int n;
	int result;              /* ddbc_dynamo_scan's */
	ddbc_dynamo_error e;
} table_scan;

/* Writes one page's items to the segment's pipe. A reader that is gone
 * (the run is over) stops the Scan. */
static int on_page(void *ctx, int i, json_t *page)
{
	segment *s = &((table_scan *)ctx)->segs[i];
	size_t k;
	json_t *item;
	json_array_foreach(json_object_get(page, "Items"), k, item) {
		fputs("{\"Item\":", s->w);
		json_dumpf(item, s->w, JSON_COMPACT | JSON_SORT_KEYS);
		fputs("}\n", s->w);
	}
	if (ferror(s->w))
		return 1;
	if (json_object_get(page, "LastEvaluatedKey"))
		return 0;
	/* The segment's last page: its reader may finish now. */
	pthread_mutex_lock(&s->mu);
	s->complete = true;
	pthread_mutex_unlock(&s->mu);
	fclose(s->w);
	s->w = NULL;
	return 0;
}

static char *scan_error(const table_scan *T)
{
	const ddbc_dynamo_error *e = &T->e;
	strbuf sb = STRBUF_INIT;
	ddbc_strbuf_addf(&sb, "the Scan of table '%s' stopped before the end of this segment: ",
		    T->table);
	if (*e->type)
		ddbc_strbuf_addf(&sb, "%s: ", e->type);
	ddbc_strbuf_addstr(&sb, e->message);
	return ddbc_strbuf_detach(&sb);
}

/* The Scan, on a thread of its own; each segment left open when it ends
 * gets the reason, then its end of file. */
static void *scan_main(void *arg)
{
	table_scan *T = arg;
	json_t *req = json_pack("{s:s}", "TableName", T->table);
	T->result = ddbc_dynamo_scan(T->c, req, T->n, on_page, T, &T->e);
	json_decref(req);
	for (int i = 0; i < T->n; i++) {
		segment *s = &T->segs[i];
		if (!s->w)
			continue;
		pthread_mutex_lock(&s->mu);
		s->why = scan_error(T);
		pthread_mutex_unlock(&s->mu);
		fclose(s->w);
		s->w = NULL;
	}
	return NULL;
}

/* The part's question once its stream ended: did the segment end too? */
static const char *segment_failed(void *arg)
{
	segment *s = arg;
	pthread_mutex_lock(&s->mu);
	const char *why = s->complete ? NULL : s->why;
	pthread_mutex_unlock(&s->mu);
	return why;
}

static int open_segment(segment *s, const char *table, int i, int n)
{
	int fds[2];
	pthread_mutex_init(&s->mu, NULL);
	if (pipe(fds) < 0)
		return -1;
	/* Not inherited by a credential_process the client may run. */
	fcntl(fds[0], F_SETFD, FD_CLOEXEC);
	fcntl(fds[1], F_SETFD, FD_CLOEXEC);
	s->r = fdopen(fds[0], "r");
	s->w = fdopen(fds[1], "w");
	strbuf name = STRBUF_INIT;
	ddbc_strbuf_addstr(&name, table);
	if (n > 1)
		ddbc_strbuf_addf(&name, "/segment-%d-of-%d", i + 1, n);
	s->name = ddbc_strbuf_detach(&name);
	return s->r && s->w ? 0 : -1;
}

static void close_segment(segment *s)
{
	if (s->r)
		fclose(s->r);
	if (s->w)
		fclose(s->w);
	pthread_mutex_destroy(&s->mu);
	free(s->name);
	free(s->why);
}

/* Why the table cannot be read (it does not exist, the credentials are
 * refused, the engine does not answer), or NULL: asked before the Scan,
 * for one clear error rather than one per segment. */
static char *table_unreadable(ddbc_dynamo *c, const char *table)
{
	json_t *req = json_pack("{s:s}", "TableName", table), *resp = NULL;
	ddbc_dynamo_error e;
	char *why = NULL;
	if (ddbc_dynamo_call(c, "DescribeTable", req, &resp, &e) < 0) {
		strbuf sb = STRBUF_INIT;
		ddbc_strbuf_addf(&sb, "cannot read table '%s' at %s: %s%s%s", table,
			    ddbc_dynamo_endpoint(c), e.type, *e.type ? ": " : "", e.message);
		why = ddbc_strbuf_detach(&sb);
	}
	json_decref(req);
	json_decref(resp);
	return why;
}

static const char *say_why(void *arg)
{
	return arg;
}

/* A table that cannot be read is reported as an unreadable file is: on
 * stderr, in the JSON result's "error", exit status 2. */
static ddbc_items_result run_unreadable(FILE *out, const ddbc_design *g, const char *table,
					char *why, const ddbc_items_opts *o)
{
	FILE *empty = tmpfile();
	if (!empty) {
		ddbc_error("%s", why);
		return DDBC_ITEMS_UNREADABLE;
	}
	ddbc_items_plan plan = { NULL, 0, 0, NULL };
	ddbc_items_plan_add_stream(&plan, empty, table);
	plan.parts[0].failed = say_why;
	plan.parts[0].failed_arg = why;
	ddbc_items_result r = ddbc_items_run_plan(out, g, &plan, &table, 1, o);
	ddbc_items_plan_release(&plan);
	fclose(empty);
	return r;
}

static ddbc_items_result run_segments(FILE *out, const ddbc_design *g, table_scan *T,
				      const ddbc_items_opts *o)
{
	ddbc_items_plan plan = { .noun = "segment" };
	for (int i = 0; i < T->n; i++) {
		ddbc_items_plan_add_stream(&plan, T->segs[i].r, T->segs[i].name);
		plan.parts[i].failed = segment_failed;
		plan.parts[i].failed_arg = &T->segs[i];
	}
	/* jansson's process-wide settings, before the Scan's threads use it. */
	json_object_seed(0);
	ddbc_jalloc_install();
	pthread_t th;
	if (pthread_create(&th, NULL, scan_main, T) != 0) {
		ddbc_error("cannot start the Scan of table '%s'", T->table);
		ddbc_jalloc_uninstall();
		ddbc_items_plan_release(&plan);
		return DDBC_ITEMS_UNREADABLE;
	}
	ddbc_items_result r = ddbc_items_run_plan(out, g, &plan, &T->table, 1, o);
	/* A part the run stopped reading (bad input) must not hold its
	 * writer: closed readers end the Scan (on_page sees EPIPE). */
	for (int i = 0; i < T->n; i++) {
		fclose(T->segs[i].r);
		T->segs[i].r = NULL;
	}
	pthread_join(th, NULL);
	ddbc_jalloc_uninstall();
	ddbc_items_plan_release(&plan);
	return r;
}

ddbc_items_result ddbc_check_items_table(FILE *out, const ddbc_design *g, ddbc_dynamo *c,
					 const char *table, const ddbc_items_opts *o)
{
	char *why = table_unreadable(c, table);
	if (why) {
		ddbc_items_result r = run_unreadable(out, g, table, why, o);
		free(why);
		return r;
	}
	table_scan T = { .c = c, .table = table };
	T.n = o->jobs > 1 ? (int)o->jobs : 1;
	T.segs = ddbc_xcalloc((size_t)T.n, sizeof(*T.segs));
	ddbc_items_result r = DDBC_ITEMS_UNREADABLE;
	int opened = 0;
	while (opened < T.n && open_segment(&T.segs[opened], table, opened, T.n) == 0)
		opened++;
	/* A segment that failed to open still has its lock to destroy. */
	int made = opened < T.n ? opened + 1 : T.n;
	/* A reader gone must fail a write, not kill the run. */
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	sigaction(SIGPIPE, &ign, &old);
	if (opened == T.n)
		r = run_segments(out, g, &T, o);
	else
		ddbc_error("cannot make a pipe for the Scan of table '%s'", table);
	sigaction(SIGPIPE, &old, NULL);
	for (int i = 0; i < made; i++)
		close_segment(&T.segs[i]);
	free(T.segs);
	return r;
}
