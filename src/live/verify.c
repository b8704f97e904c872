/* verify.c - verify's phases in order (verify.h)
 *
 * Nothing is sent before everything that can be checked here is: the
 * endpoint (http only to this machine, writes elsewhere only with --yes)
 * and the items (a file read whole). Then the tables (--create), the
 * items, the reads of every pattern, and last the writes, which change
 * what the reads would return. In place, the items are the tables' own:
 * none is written, none deleted, and the writes are not sent.
 */
#include "live/verify_int.h"
#include "util/error.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

static int check_endpoint(verify_run *V)
{
	if (!ddbc_dynamo_is_loopback(V->client) && !V->o->yes && !V->o->in_place) {
		ddbc_strbuf_addf(&V->error, "refusing to write to '%s', which is not on this machine; "
			    "verify creates tables and writes items: give --yes to do it there",
			    ddbc_dynamo_endpoint(V->client));
		return -1;
	}
	return 0;
}

static int by_order(const void *a, const void *b)
{
	json_int_t x = json_integer_value(json_object_get(*(json_t *const *)a, "order"));
	json_int_t y = json_integer_value(json_object_get(*(json_t *const *)b, "order"));
	return (x > y) - (x < y);
}

/* The entries in the design's order (the writes were sent last). */
static void sort_report(verify_run *V)
{
	size_t n = json_array_size(V->report);
	json_t **e = ddbc_xcalloc(n + 1, sizeof(json_t *));
	for (size_t i = 0; i < n; i++)
		e[i] = json_incref(json_array_get(V->report, i));
	qsort(e, n, sizeof(json_t *), by_order);
	json_array_clear(V->report);
	for (size_t i = 0; i < n; i++) {
		json_object_del(e[i], "order");
		json_array_append_new(V->report, e[i]);
	}
	free(e);
}

/* Whether the caller asked for pattern p (every one when it named none). */
static bool asked(const verify_run *V, const ddbc_pattern *p)
{
	if (!V->o->patterns)
		return true;
	for (size_t i = 0; i < V->o->npatterns; i++)
		if (!strcmp(V->o->patterns[i], p->id.s))
			return true;
	return false;
}

/* Each pattern asked for is one of the design's. */
static int check_patterns(verify_run *V)
{
	for (size_t i = 0; i < V->o->npatterns; i++) {
		size_t k = 0;
		while (k < V->g->npatterns && strcmp(V->o->patterns[i], V->g->patterns[k].id.s))
			k++;
		if (k == V->g->npatterns) {
			ddbc_strbuf_addf(&V->error, "'%s' has no access pattern '%s'", V->file,
				    V->o->patterns[i]);
			return -1;
		}
	}
	return 0;
}

static void run_patterns(verify_run *V)
{
	for (int writes = 0; writes < 2; writes++) {
		for (size_t i = 0; i < V->g->npatterns && !V->transport_failed; i++) {
			if (!asked(V, &V->g->patterns[i]))
				continue;
			if (V->o->progress)
				ddbc_progress("verify: pattern %zu of %zu", i + 1,
					      V->g->npatterns);
			size_t before = json_array_size(V->report);
			ddbc_verify_pattern(V, &V->g->patterns[i], writes);
			if (json_array_size(V->report) > before)
				json_object_set_new(json_array_get(V->report, before), "order",
						    json_integer((json_int_t)i));
		}
	}
	if (V->o->progress)
		ddbc_progress_clear();
	sort_report(V);
}

static bool differs(const verify_run *V)
{
	size_t i;
	json_t *e;
	json_array_foreach(V->report, i, e)
		if (json_array_size(json_object_get(e, "differences")))
			return true;
	return false;
}

ddbc_verify_result ddbc_verify(FILE *out, ddbc_dynamo *c, const ddbc_design *g, const char *file,
			       const ddbc_verify_opts *o)
{
	verify_run V = { .g = g, .file = file, .o = o, .client = c, .report = json_array(),
			 .puts = json_array() };
	V.arena = ddbc_arena_new();
	V.checker = ddbc_item_checker_new(g);
	ddbc_verify_result r = DDBC_VERIFY_FAILED;
	bool in_place = o->in_place;
	if (check_endpoint(&V) == 0 && check_patterns(&V) == 0 && ddbc_verify_items_load(&V) == 0 &&
	    (!o->create || ddbc_verify_create_tables(&V) == 0) &&
	    (in_place || ddbc_verify_write_items(&V) == 0)) {
		run_patterns(&V);
		if (!V.transport_failed && (in_place || ddbc_verify_delete_items(&V) == 0))
			r = differs(&V) ? DDBC_VERIFY_DIFFERS : DDBC_VERIFY_OK;
	}
	if (r == DDBC_VERIFY_FAILED) {
		ddbc_error("verify: %s", ddbc_strbuf_str(&V.error));
		ddbc_verify_print_failure(out, &V);
	}
	else
		ddbc_verify_print(out, &V);   /* a write error is the output's to say (util/output.h) */
	ddbc_verify_items_release(&V);
	ddbc_item_checker_free(V.checker);
	ddbc_arena_free(V.arena);
	json_decref(V.report);
	json_decref(V.puts);
	ddbc_strbuf_release(&V.error);
	return r;
}
