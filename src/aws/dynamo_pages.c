/* dynamo_pages.c - Query and Scan page after page, and Scan in segments
 *
 * A page ends with LastEvaluatedKey when there is more: the next request
 * starts there (ExclusiveStartKey). A parallel Scan splits the table into
 * `segments` parts (Segment, TotalSegments), each read page after page by
 * its own thread; the first failure stops the others at their next page.
 */
#include "aws/aws_int.h"

#include "util/xalloc.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

/* What one segment's thread reads, and how it ended. */
typedef struct segment_run {
	ddbc_dynamo *c;
	json_t *req;		/* owned: the segment's own copy */
	int segment;
	ddbc_dynamo_page_fn fn;
	void *ctx;
	atomic_int *stop;
	bool threaded;		/* joined at the end */
	int result;
	ddbc_dynamo_error e;
} segment_run;

static int pages_run(ddbc_dynamo *c, const char *op, json_t *req, int segment,
		     ddbc_dynamo_page_fn fn, void *ctx, atomic_int *stop, ddbc_dynamo_error *e)
{
	for (;;) {
		if (stop && atomic_load(stop))
			return 0;
		json_t *page = NULL;
		if (ddbc_dynamo_call(c, op, req, &page, e) < 0)
			return -1;
		int r = fn(ctx, segment, page);
		json_t *next = json_object_get(page, "LastEvaluatedKey");
		if (r == 0 && json_is_object(next) && json_object_size(next) > 0)
			json_object_set(req, "ExclusiveStartKey", next);
		else
			next = NULL;
		json_decref(page);
		if (r != 0 || !next)
			return r;
	}
}

int ddbc_dynamo_pages(ddbc_dynamo *c, const char *op, json_t *req, ddbc_dynamo_page_fn fn,
		      void *ctx, ddbc_dynamo_error *e)
{
	memset(e, 0, sizeof *e);
	json_t *own = json_deep_copy(req);
	int r = pages_run(c, op, own, 0, fn, ctx, NULL, e);
	json_decref(own);
	return r;
}

static void *segment_main(void *arg)
{
	segment_run *s = arg;
	s->result = pages_run(s->c, "Scan", s->req, s->segment, s->fn, s->ctx, s->stop, &s->e);
	if (s->result != 0)
		atomic_store(s->stop, 1);
	return NULL;
}

/* The first segment that failed decides what the caller hears. */
static int scan_result(segment_run *runs, int n, ddbc_dynamo_error *e)
{
	for (int i = 0; i < n; i++)
		if (runs[i].result != 0) {
			*e = runs[i].e;
			return runs[i].result;
		}
	return 0;
}

int ddbc_dynamo_scan(ddbc_dynamo *c, json_t *req, int segments, ddbc_dynamo_page_fn fn,
		     void *ctx, ddbc_dynamo_error *e)
{
	memset(e, 0, sizeof *e);
	if (segments <= 1)
		return ddbc_dynamo_pages(c, "Scan", req, fn, ctx, e);
	segment_run *runs = ddbc_xcalloc((size_t)segments, sizeof *runs);
	pthread_t *threads = ddbc_xcalloc((size_t)segments, sizeof *threads);
	atomic_int stop = 0;
	for (int i = 0; i < segments; i++) {
		segment_run *s = &runs[i];
		*s = (segment_run){ .c = c, .req = json_deep_copy(req), .segment = i, .fn = fn,
				    .ctx = ctx, .stop = &stop };
		json_object_set_new(s->req, "Segment", json_integer(i));
		json_object_set_new(s->req, "TotalSegments", json_integer(segments));
		s->threaded = pthread_create(&threads[i], NULL, segment_main, s) == 0;
		/* Fewer threads than asked: this segment runs here, in turn. */
		if (!s->threaded)
			segment_main(s);
	}
	for (int i = 0; i < segments; i++)
		if (runs[i].threaded)
			pthread_join(threads[i], NULL);
	int r = scan_result(runs, segments, e);
	for (int i = 0; i < segments; i++)
		json_decref(runs[i].req);
	free(runs);
	free(threads);
	return r;
}
