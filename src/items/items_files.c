/* items_files.c - a check-items run over its files, by one worker or several
 *
 * The parts (items_export.h) are checked in order by one worker, which
 * writes each finding to the output as it is made; or by -j N workers
 * (threads), each taking the next part and spooling its findings, one
 * line each, to a temporary file. The main thread then takes the parts in
 * order and passes each spooled line to the same sink (items_run.h) a
 * single worker writes through, so the output is byte for byte that of
 * -j 1: the same order, the same cap, the same separators. Memory grows
 * with the number of workers (one design's key languages and one item
 * each), not with the items; spools are on disk, and a worker spools at
 * most --max-findings lines. A worker takes a part only while fewer than
 * two parts per worker wait to be unspooled, so the spools open at once
 * are bounded by the workers, not by the parts (a slow first part would
 * otherwise keep every later part's spool open: "Too many open files").
 */
#include "items/items_export.h"
#include "items/items_run.h"
#include "util/error.h"
#include "util/xalloc.h"
#include "util/source.h"

#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* What checking one part came to. */
typedef struct part_result {
	bool done;
	FILE *spool;             /* -j N: its findings, one a line */
	ddbc_items_tally t;
	const char *shape, *json;
	bool bad;                /* unreadable, or fewer or more items than listed */
	ddbc_items_error err;
} part_result;

/* The run: its parts, their results, the progress line. */
typedef struct files_run {
	const ddbc_design *g;
	const ddbc_items_opts *o;
	const ddbc_items_plan *plan;
	part_result *res;
	ddbc_items_outcome outcome;
	ddbc_items_sink sink;
	bool mixed_shape, mixed_json;

	pthread_mutex_t mu;
	pthread_cond_t cv;
	size_t next;             /* the next part a worker takes */
	size_t unspooled;        /* the parts written to the output */
	size_t window;           /* parts ahead of unspooled a worker may take */

	/* the progress line (under mu) */
	double started, shown_at;
	unsigned long seen;      /* items read, roughly (in steps of DDBC_ITEMS_TICK) */
	long long total;         /* the items the manifests list; -1: unknown */
	size_t finished;         /* parts done */
	bool progress_shown;
} files_run;

/* ---- progress --------------------------------------------------------------------------- */

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void ddbc_items_progress_text(strbuf *out, unsigned long seen, long long total,
			      size_t finished, size_t nfiles, double elapsed)
{
	ddbc_items_progress_parts(out, seen, total, finished, nfiles, "file", elapsed);
}

void ddbc_items_progress_parts(strbuf *out, unsigned long seen, long long total,
			       size_t finished, size_t nparts, const char *noun, double elapsed)
{
	ddbc_strbuf_addf(out, "check-items: %lu", seen);
	if (total > 0) {
		unsigned long done = seen > (unsigned long)total ? (unsigned long)total : seen;
		ddbc_strbuf_addf(out, " of %lld items (%lu%%)", total, done * 100 / (unsigned long)total);
	} else {
		ddbc_strbuf_addf(out, " item%s", seen == 1 ? "" : "s");
	}
	ddbc_strbuf_addf(out, ", %zu of %zu %s%s", finished, nparts, noun, nparts == 1 ? "" : "s");
	/* What is left at the rate so far, once there is a rate to go by. */
	if (total > 0 && seen > 0 && seen < (unsigned long)total && elapsed > 0) {
		double left = elapsed * (double)((unsigned long)total - seen) / (double)seen;
		unsigned long s = (unsigned long)(left + 0.5);
		if (s >= 3600)
			ddbc_strbuf_addf(out, ", %lu:%02lu:%02lu left", s / 3600, s / 60 % 60, s % 60);
		else
			ddbc_strbuf_addf(out, ", %lu:%02lu left", s / 60, s % 60);
	}
}

/* Redraws the progress line, from the first second on, five times a
 * second at most. Called with F->mu held. */
static void show_progress(files_run *F)
{
	double t = now();
	if (t - F->started < 1.0 || t - F->shown_at < 0.2)
		return;
	F->shown_at = t;
	F->progress_shown = true;
	strbuf line = STRBUF_INIT;
	ddbc_items_progress_parts(&line, F->seen, F->total, F->finished, F->plan->n,
				  F->plan->noun ? F->plan->noun : "file", t - F->started);
	ddbc_progress("%s", line.buf);
	ddbc_strbuf_release(&line);
}

static void tick(void *arg, unsigned long items)
{
	files_run *F = arg;
	pthread_mutex_lock(&F->mu);
	F->seen += items;
	show_progress(F);
	pthread_mutex_unlock(&F->mu);
}

static void init_progress(files_run *F, ddbc_items_run *R)
{
	if (!F->o->progress)
		return;
	R->tick = tick;
	R->tick_arg = F;
}

static void end_progress(files_run *F)
{
	if (F->progress_shown)
		ddbc_progress_clear();
}

/* Before a finding goes to the terminal the progress line is on: the line
 * is cleared, to be drawn again below the finding. */
static void clear_progress(void *arg)
{
	files_run *F = arg;
	pthread_mutex_lock(&F->mu);
	end_progress(F);
	F->progress_shown = false;
	F->shown_at = 0;
	pthread_mutex_unlock(&F->mu);
}

/* ---- one part ----------------------------------------------------------------------- */

static void set_error(ddbc_items_error *err, ddbc_ipos pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void set_error(ddbc_items_error *err, ddbc_ipos pos, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ddbc_items_error_vset(err, pos, fmt, ap);
	va_end(ap);
}

static void check_part(ddbc_items_run *R, const ddbc_items_part *p, part_result *res)
{
	FILE *in = p->path ? ddbc_input_fopen(p->path) : p->stream;
	ddbc_ipos start = { 1, 1 };
	if (!in && errno == ENOENT && p->existed) {
		/* The file was there when the plan was made (a folder's, an
		 * export's): deleted since, it is a finding about that file,
		 * and the run goes on to say what the others hold. */
		ddbc_items_file_finding(R, DDBC_ITEM_VANISHED, p->name,
					"the file is no longer there: it was deleted during the run");
		res->t = R->t;
		return;
	}
	if (!in) {
		set_error(&res->err, start, "cannot read the file: %s", strerror(errno));
		res->bad = true;
		return;
	}
	res->bad = ddbc_items_check_stream(R, in, p->name, &res->err) < 0;
	const char *why = !res->bad && p->failed ? p->failed(p->failed_arg) : NULL;
	if (why) {
		/* The items read are checked; the ones never sent are not. */
		set_error(&res->err, (ddbc_ipos){ R->t.items + 1, 1 }, "%s", why);
		res->bad = true;
	}
	res->t = R->t;
	res->shape = ddbc_items_shape_word(R);
	res->json = ddbc_items_json_word(R);
	if (!res->bad && p->expect >= 0 && (long long)R->t.items != p->expect) {
		set_error(&res->err, start, "the export's manifest lists %lld item%s in this file, "
			  "it holds %lu", p->expect, p->expect == 1 ? "" : "s", R->t.items);
		res->bad = true;
	}
	if (p->path)
		fclose(in);
}

/* Adds a checked part to the outcome, in part order. */
static void finish_part(files_run *F, size_t i)
{
	part_result *res = &F->res[i];
	const char *name = F->plan->parts[i].name;
	ddbc_items_outcome *o = &F->outcome;
	ddbc_items_tally_add(&o->t, &res->t);
	if (res->shape) {
		F->mixed_shape |= o->shape && strcmp(o->shape, res->shape) != 0;
		o->shape = F->mixed_shape ? "mixed" : res->shape;
	}
	if (res->json) {
		F->mixed_json |= o->json && strcmp(o->json, res->json) != 0;
		o->json = F->mixed_json ? "mixed" : res->json;
	}
	pthread_mutex_lock(&F->mu);
	F->finished++;
	if (res->bad) {
		/* the error gets a line of its own */
		end_progress(F);
		F->progress_shown = false;
	}
	pthread_mutex_unlock(&F->mu);
	if (res->bad) {
		ddbc_file_error(name, res->err.pos.line, res->err.pos.column, "%s",
				ddbc_strbuf_str(&res->err.message));
		if (!o->error)
			o->error = ddbc_items_error_json(name, &res->err);
		o->failed_input = true;
	}
	ddbc_strbuf_release(&res->err.message);
}

/* ---- workers ----------------------------------------------------------------------------- */

static void *worker(void *arg)
{
	files_run *F = arg;
	ddbc_items_run R;
	ddbc_items_run_init(&R, F->g, F->o);
	init_progress(F, &R);
	for (;;) {
		pthread_mutex_lock(&F->mu);
		while (F->next < F->plan->n && F->next >= F->unspooled + F->window)
			pthread_cond_wait(&F->cv, &F->mu);
		size_t i = F->next++;
		pthread_mutex_unlock(&F->mu);
		if (i >= F->plan->n)
			break;
		part_result *res = &F->res[i];
		res->spool = tmpfile();
		if (!res->spool) {
			set_error(&res->err, (ddbc_ipos){ 1, 1 }, "cannot make a temporary file: %s",
				  strerror(errno));
			res->bad = true;
		} else {
			R.spool = res->spool;
			R.spooled = 0;
			check_part(&R, &F->plan->parts[i], res);
		}
		pthread_mutex_lock(&F->mu);
		res->done = true;
		pthread_cond_broadcast(&F->cv);
		pthread_mutex_unlock(&F->mu);
	}
	ddbc_items_run_release(&R);
	return NULL;
}

/* Writes part i's spooled findings through the sink. */
static void unspool(files_run *F, size_t i)
{
	FILE *f = F->res[i].spool;
	if (!f)
		return;
	rewind(f);
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	while ((len = getline(&line, &cap, f)) > 0)
		ddbc_items_sink_line(&F->sink, line, (size_t)(line[len - 1] == '\n' ? len - 1 : len));
	free(line);
	fclose(f);
}

static void run_serial(files_run *F)
{
	ddbc_items_run R;
	ddbc_items_run_init(&R, F->g, F->o);
	init_progress(F, &R);
	R.sink = &F->sink;
	for (size_t i = 0; i < F->plan->n; i++) {
		check_part(&R, &F->plan->parts[i], &F->res[i]);
		finish_part(F, i);
	}
	ddbc_items_run_release(&R);
}

/* Each worker allocates from a malloc arena of its own, and per item it
 * builds and frees many small strings (key templates rendered into a
 * growing buffer). glibc keeps such freed chunks in "fast bins",
 * uncoalesced and reused only for a request of the same size, and in a
 * worker's arena they pile up between consolidations: each arena's
 * resident pages grew with the length of the run (2 workers: 5.2 MiB at
 * 48k items, 11.7 MiB at 240k, 19 MiB at 480k), while the memory in use
 * stayed under 1 MiB. With fast bins off every free coalesces at once and
 * each arena stays at the few hundred KiB the worker uses, at no
 * measurable cost in CPU. One arena for all (M_ARENA_MAX 1) does not
 * help: the same chunks then pile up in the shared arena. */
static void small_chunks_coalesce(void)
{
#ifdef M_MXFAST
	mallopt(M_MXFAST, 0);
#endif
}

static void run_parallel(files_run *F, unsigned long jobs)
{
	size_t n = F->plan->n;
	if (jobs > n)
		jobs = n;
	F->window = 2 * jobs;
	small_chunks_coalesce();
	pthread_t *th = ddbc_xcalloc(jobs, sizeof(*th));
	unsigned long started = 0;
	for (; started < jobs; started++)
		if (pthread_create(&th[started], NULL, worker, F) != 0)
			break;
	if (started == 0) {
		/* No thread: the parts are checked here, one after another. */
		free(th);
		run_serial(F);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		pthread_mutex_lock(&F->mu);
		while (!F->res[i].done)
			pthread_cond_wait(&F->cv, &F->mu);
		pthread_mutex_unlock(&F->mu);
		unspool(F, i);
		finish_part(F, i);
		pthread_mutex_lock(&F->mu);
		F->unspooled = i + 1;
		pthread_cond_broadcast(&F->cv);
		pthread_mutex_unlock(&F->mu);
	}
	for (unsigned long j = 0; j < started; j++)
		pthread_join(th[j], NULL);
	free(th);
}

/* ---- the command ----------------------------------------------------------------------- */

ddbc_items_result ddbc_items_run_plan(FILE *out, const ddbc_design *g,
				      const ddbc_items_plan *plan, const char *const *paths,
				      size_t npaths, const ddbc_items_opts *o)
{
	files_run F;
	memset(&F, 0, sizeof(F));
	F.g = g;
	F.o = o;
	F.plan = plan;
	F.res = ddbc_xcalloc(plan->n ? plan->n : 1, sizeof(*F.res));
	F.sink = (ddbc_items_sink){ out, o->format, o->max_findings, 0, NULL, NULL };
	if (o->progress && isatty(fileno(out))) {
		F.sink.before = clear_progress;
		F.sink.before_arg = &F;
	}
	pthread_mutex_init(&F.mu, NULL);
	pthread_cond_init(&F.cv, NULL);
	F.started = now();
	/* An export's manifests list every file's items: then the line can
	 * say how far the run is, and how long it has to go. */
	F.total = plan->n ? 0 : -1;
	for (size_t i = 0; i < plan->n && F.total >= 0; i++)
		F.total = plan->parts[i].expect >= 0 ? F.total + plan->parts[i].expect : -1;
	/* jansson seeds its hash function once; do it before any thread,
	 * and open the allocator's scope (items_jalloc.h) before them too, so
	 * that the workers' runs, which nest in it, never change jansson's
	 * functions while another thread uses jansson. */
	json_object_seed(0);
	ddbc_jalloc_install();

	ddbc_items_begin_output(out, o->format, paths, npaths);
	if (o->jobs > 1 && plan->n > 1)
		run_parallel(&F, o->jobs);
	else
		run_serial(&F);
	end_progress(&F);
	F.outcome.shown = F.sink.shown;
	ddbc_items_end_output(out, o->format, &F.outcome);
	fflush(out);

	json_decref(F.outcome.error);
	ddbc_jalloc_uninstall();
	pthread_mutex_destroy(&F.mu);
	pthread_cond_destroy(&F.cv);
	free(F.res);
	if (F.outcome.failed_input)
		return DDBC_ITEMS_UNREADABLE;
	return F.outcome.t.errors ? DDBC_ITEMS_SOME_FAILED : DDBC_ITEMS_ALL_OK;
}

ddbc_items_result ddbc_check_items(FILE *out, const ddbc_design *g, const char *const *paths,
				   size_t npaths, const ddbc_items_opts *o)
{
	ddbc_items_plan plan = { NULL, 0, 0, NULL };
	bool planned = true;
	for (size_t i = 0; i < npaths; i++)
		planned &= ddbc_items_plan_add(&plan, paths[i]) == 0;
	ddbc_items_result r = planned ? ddbc_items_run_plan(out, g, &plan, paths, npaths, o)
				      : DDBC_ITEMS_UNREADABLE;
	ddbc_items_plan_release(&plan);
	return r;
}

ddbc_items_result ddbc_check_items_stream(FILE *out, const ddbc_design *g, FILE *in,
					  const char *name, const ddbc_items_opts *o)
{
	ddbc_items_plan plan = { NULL, 0, 0, NULL };
	ddbc_items_plan_add_stream(&plan, in, name);
	ddbc_items_result r = ddbc_items_run_plan(out, g, &plan, &name, 1, o);
	ddbc_items_plan_release(&plan);
	return r;
}
