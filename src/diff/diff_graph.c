/* diff_graph.c - the plan's steps, ordered by what each needs
 *
 * Kahn's algorithm over the steps, always taking the earliest-added step
 * whose needs are done, an early one before the others: the steps' order
 * is the one they were added in wherever their needs allow it. The builder (diff_plan.c) only adds
 * needs that point from a later stage to an earlier one of the same table
 * or entity, so the graph has no cycle; should one appear, the steps left
 * are written in the order they were added, after the rest.
 */
#include "diff/diff_graph.h"
#include "emit/emit_json.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

size_t ddbc_diff_plan_add(plan_graph *g, json_t *body, const char *makes_fmt, ...)
{
	if (g->n == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 16;
		g->v = ddbc_xrealloc(g->v, g->cap * sizeof(*g->v));
	}
	strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, makes_fmt);
	ddbc_strbuf_vaddf(&sb, makes_fmt, ap);
	va_end(ap);
	g->v[g->n] = (plan_step){ body, ddbc_strbuf_detach(&sb), NULL, 0, 0, false, false, PLAN_NONE };
	return g->n++;
}

void ddbc_diff_plan_need(plan_graph *g, size_t step, size_t before)
{
	if (step == PLAN_NONE || before == PLAN_NONE || step == before)
		return;
	plan_step *s = &g->v[step];
	for (size_t i = 0; i < s->nneeds; i++)
		if (s->needs[i] == before)
			return;
	if (s->nneeds == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 4;
		s->needs = ddbc_xrealloc(s->needs, s->cap * sizeof(*s->needs));
	}
	s->needs[s->nneeds++] = before;
}

/* The order to write the steps in: order[k] is the k-th step to write. */
static size_t *topological(const plan_graph *g)
{
	size_t *order = ddbc_xcalloc(g->n + 1, sizeof(*order));
	bool *done = ddbc_xcalloc(g->n + 1, sizeof(*done));
	size_t k = 0;
	/* n is small (a few steps per change): the quadratic scan is clearer
	 * than a heap and takes no time. */
	for (bool progress = true; progress && k < g->n;) {
		progress = false;
		size_t pick = SIZE_MAX;
		for (size_t i = 0; i < g->n; i++) {
			if (done[i] || (pick != SIZE_MAX && !g->v[i].early))
				continue;
			bool ready = true;
			for (size_t j = 0; j < g->v[i].nneeds && ready; j++)
				ready = done[g->v[i].needs[j]];
			if (!ready)
				continue;
			pick = i;
			if (g->v[i].early)
				break;
		}
		if (pick != SIZE_MAX) {
			done[pick] = true;
			order[k++] = pick;
			progress = true;
		}
	}
	for (size_t i = 0; i < g->n; i++)
		if (!done[i])
			order[k++] = i;
	free(done);
	return order;
}

static int by_number(const void *pa, const void *pb)
{
	json_int_t a = json_integer_value(*(json_t *const *)pa);
	json_int_t b = json_integer_value(*(json_t *const *)pb);
	return a < b ? -1 : a > b;
}

static json_t *needs_of(const plan_step *s, const size_t *number)
{
	json_t **v = ddbc_xcalloc(s->nneeds + 1, sizeof(*v));
	for (size_t i = 0; i < s->nneeds; i++)
		v[i] = json_integer((json_int_t)number[s->needs[i]]);
	qsort(v, s->nneeds, sizeof(*v), by_number);
	json_t *a = json_array();
	for (size_t i = 0; i < s->nneeds; i++)
		json_array_append_new(a, v[i]);
	free(v);
	return a;
}

/* The manual text of st as written: "@STEP@" numbered, and the command
 * that carries it out named. */
static void finish_manual(json_t *o, const plan_step *st, const size_t *number,
			  const char *migrate, size_t n)
{
	const char *text = json_string_value(json_object_get(o, "manual"));
	if (!text)
		return;
	strbuf sb = STRBUF_INIT, cmd = STRBUF_INIT;
	const char *at = st->refers != PLAN_NONE ? strstr(text, "@STEP@") : NULL;
	if (at) {
		ddbc_strbuf_add(&sb, text, (size_t)(at - text));
		ddbc_strbuf_addf(&sb, "%zu", number[st->refers]);
		ddbc_strbuf_addstr(&sb, at + strlen("@STEP@"));
	} else {
		ddbc_strbuf_addstr(&sb, text);
	}
	if (st->migrate && migrate) {
		ddbc_strbuf_addf(&cmd, "%s --step %zu", migrate, n);
		ddbc_strbuf_addf(&sb, "; `%s` does it", ddbc_strbuf_str(&cmd));
		json_object_set_new(o, "command", ddbc_json_str(ddbc_strbuf_str(&cmd)));
	}
	json_object_set_new(o, "manual", ddbc_json_str(ddbc_strbuf_str(&sb)));
	ddbc_strbuf_release(&sb);
	ddbc_strbuf_release(&cmd);
}

ddbc_emit_result ddbc_diff_plan_write(plan_graph *g, FILE *out, const char *migrate,
				      ddbc_err *err)
{
	size_t *order = topological(g);
	size_t *number = ddbc_xcalloc(g->n + 1, sizeof(*number));
	for (size_t k = 0; k < g->n; k++)
		number[order[k]] = k + 1;
	ddbc_json_stream s;
	ddbc_json_stream_init(&s, out);
	ddbc_json_begin(&s, NULL, '[');
	for (size_t k = 0; k < g->n; k++) {
		plan_step *st = &g->v[order[k]];
		json_t *o = json_object();
		json_object_set_new(o, "step", json_integer((json_int_t)(k + 1)));
		json_object_set_new(o, "needs", needs_of(st, number));
		json_object_set_new(o, "makes", ddbc_json_str(st->makes));
		json_object_update(o, st->body);
		finish_manual(o, st, number, migrate, k + 1);
		ddbc_json_member(&s, NULL, o);
	}
	ddbc_json_end(&s, ']');
	for (size_t i = 0; i < g->n; i++) {
		json_decref(g->v[i].body);
		free(g->v[i].makes);
		free(g->v[i].needs);
	}
	free(g->v);
	free(order);
	free(number);
	*g = (plan_graph){ NULL, 0, 0 };
	return (ddbc_emit_result)ddbc_json_stream_finish(&s, err);
}
