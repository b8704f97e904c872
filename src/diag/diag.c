/* diag.c - collecting, resolving and sorting findings */
#include "diag/diag.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void ddbc_settings_init(ddbc_settings *s)
{
	for (int i = 0; i < DDBC_RULE_COUNT; i++)
		s->sev[i] = DDBC_SEV_DEFAULT;
}

/* The rule named id, or -1 after saying why there is none. */
static int find_rule(const char *id, ddbc_rule *rule, strbuf *err)
{
	if (ddbc_rule_find(id, rule) == 0)
		return 0;
	const char *hint = ddbc_rule_suggest(id);
	if (hint)
		ddbc_strbuf_addf(err, "unknown rule '%s'; did you mean '%s'?", id, hint);
	else
		ddbc_strbuf_addf(err, "unknown rule '%s'; 'ddbc explain' lists them", id);
	return -1;
}

int ddbc_settings_parse(ddbc_settings *s, const char *arg, strbuf *err)
{
	const char *eq = strchr(arg, '=');
	if (!eq) {
		ddbc_strbuf_addf(err, "expected RULE=off|note|warning|error, got '%s'", arg);
		return -1;
	}
	char *id = ddbc_xstrndup(arg, (size_t)(eq - arg));
	ddbc_rule rule;
	ddbc_severity sev = DDBC_SEV_DEFAULT;
	int rc = find_rule(id, &rule, err);
	if (rc == 0 && ddbc_severity_parse(eq + 1, &sev) < 0) {
		ddbc_strbuf_addf(err, "unknown severity '%s' for rule '%s'; use off, note, warning or "
			    "error", eq + 1, id);
		rc = -1;
	} else if (rc == 0 && ddbc_rule_get(rule)->fixed) {
		ddbc_strbuf_addf(err, "the severity of rule '%s' cannot be changed", id);
		rc = -1;
	}
	if (rc == 0)
		s->sev[rule] = sev;
	free(id);
	return rc;
}

void ddbc_diags_init(ddbc_diags *d)
{
	memset(d, 0, sizeof(*d));
}

static void free_suppressions(ddbc_diags *d)
{
	for (size_t i = 0; i < d->nsupp; i++)
		free(d->supp[i].reason);
	free(d->supp);
	d->supp = NULL;
	d->nsupp = d->supp_cap = 0;
}

static void free_finding(ddbc_diag *g)
{
	free(g->message);
	free(g->reason);
	free(g->subject);
}

void ddbc_diags_release(ddbc_diags *d)
{
	for (size_t i = 0; i < d->n; i++)
		free_finding(&d->items[i]);
	free(d->items);
	free_suppressions(d);
	memset(d, 0, sizeof(*d));
}

void ddbc_diags_begin(ddbc_diags *d, const ddbc_source *src)
{
	d->src = src;
	d->fatal = false;
	free_suppressions(d);
	d->supp_judged = false;
}

void ddbc_diags_clear(ddbc_diags *d)
{
	for (size_t i = 0; i < d->n; i++)
		free_finding(&d->items[i]);
	d->n = d->finished = 0;
}

void ddbc_diags_suppress(ddbc_diags *d, ddbc_rule rule, unsigned line, ddbc_loc at,
			 const char *reason)
{
	ddbc_xgrow((void **)&d->supp, &d->supp_cap, d->nsupp + 1, sizeof(ddbc_suppression));
	ddbc_suppression *s = &d->supp[d->nsupp++];
	s->rule = rule;
	s->line = line;
	s->at = at;
	s->reason = reason ? ddbc_xstrdup(reason) : NULL;
	s->used = false;
}

void ddbc_diag_add(ddbc_diags *d, ddbc_rule rule, ddbc_loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ddbc_diag_vadd(d, rule, loc, fmt, ap);
	va_end(ap);
}

void ddbc_diag_relate(ddbc_diags *d, ddbc_loc loc)
{
	if (d->n)
		d->items[d->n - 1].related = loc;
}

void ddbc_diag_lesser(ddbc_diags *d)
{
	if (d->n)
		d->items[d->n - 1].lesser = true;
}

void ddbc_diag_vadd(ddbc_diags *d, ddbc_rule rule, ddbc_loc loc, const char *fmt, va_list ap)
{
	strbuf sb = STRBUF_INIT;
	ddbc_strbuf_vaddf(&sb, fmt, ap);

	ddbc_xgrow((void **)&d->items, &d->cap, d->n + 1, sizeof(ddbc_diag));
	ddbc_diag *g = &d->items[d->n++];
	g->rule = rule;
	g->severity = ddbc_rule_get(rule)->default_severity;
	g->src = d->src;
	g->loc = loc;
	g->message = ddbc_strbuf_detach(&sb);
	g->seq = d->seq++;
	g->suppressed = false;
	g->reason = NULL;
	g->lesser = false;
	g->subject = NULL;
	g->related = (ddbc_loc){ 0, 0 };
	if (ddbc_rule_get(rule)->fixed)
		d->fatal = true;
}

void ddbc_diag_add_about(ddbc_diags *d, ddbc_rule rule, ddbc_loc loc, const char *subject,
			 const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ddbc_diag_vadd(d, rule, loc, fmt, ap);
	va_end(ap);
	d->items[d->n - 1].subject = ddbc_xstrdup(subject);
}

static int by_position(const void *pa, const void *pb)
{
	const ddbc_diag *a = pa, *b = pb;
	if (a->loc.line != b->loc.line)
		return a->loc.line < b->loc.line ? -1 : 1;
	if (a->loc.column != b->loc.column)
		return a->loc.column < b->loc.column ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Whether items[0..n) are already in by_position's order: the findings
 * of a check that walks the design in the file's order arrive so (the
 * 10,000 reserved-word notes of a large design), and one pass over them
 * costs less than qsort's n log n comparisons, with the same result. */
static bool in_position_order(const ddbc_diag *items, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (by_position(&items[i - 1], &items[i]) > 0)
			return false;
	return true;
}

static ddbc_severity resolve(ddbc_rule rule, const ddbc_settings *cli,
			     const ddbc_settings *design)
{
	const ddbc_rule_info *info = ddbc_rule_get(rule);
	if (info->fixed)
		return info->default_severity;
	if (cli && cli->sev[rule] != DDBC_SEV_DEFAULT)
		return cli->sev[rule];
	if (design && design->sev[rule] != DDBC_SEV_DEFAULT)
		return design->sev[rule];
	return info->default_severity;
}

void ddbc_diags_drop(ddbc_diags *d, size_t from, ddbc_rule rule)
{
	size_t out = from;
	for (size_t i = from; i < d->n; i++) {
		if (d->items[i].rule == rule) {
			free_finding(&d->items[i]);
			continue;
		}
		d->items[out++] = d->items[i];
	}
	d->n = out;
}

/* ---- suppressions ---------------------------------------------------------- */

static int by_line(const void *pa, const void *pb)
{
	const ddbc_suppression *a = pa, *b = pb;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->at.line != b->at.line)
		return a->at.line < b->at.line ? -1 : 1;
	return a->at.column < b->at.column ? -1 : a->at.column > b->at.column;
}

/* The index of the first suppression of line, or d->nsupp when none;
 * d->supp is sorted by line. */
static size_t first_of_line(const ddbc_diags *d, unsigned line)
{
	size_t lo = 0, hi = d->nsupp;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (d->supp[mid].line < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < d->nsupp && d->supp[lo].line == line ? lo : d->nsupp;
}

const ddbc_suppression *ddbc_diags_suppression(const ddbc_diags *d, ddbc_rule rule,
					       unsigned line)
{
	if (!line)
		return NULL;
	for (size_t i = first_of_line(d, line); i < d->nsupp && d->supp[i].line == line; i++)
		if (d->supp[i].rule == rule)
			return &d->supp[i];
	return NULL;
}

void ddbc_diag_suppress_last(ddbc_diags *d, const char *reason)
{
	if (!d->n)
		return;
	ddbc_diag *g = &d->items[d->n - 1];
	g->suppressed = true;
	free(g->reason);
	g->reason = reason ? ddbc_xstrdup(reason) : NULL;
}

/* Marks the new findings of the current source that a suppression of their
 * line names; every suppression that names one is used, so naming a rule
 * twice is not "unused" the second time. */
static void apply_suppressions(ddbc_diags *d)
{
	if (!d->nsupp)
		return;
	qsort(d->supp, d->nsupp, sizeof(ddbc_suppression), by_line);
	for (size_t i = d->finished; i < d->n; i++) {
		ddbc_diag *g = &d->items[i];
		size_t k = g->src == d->src ? first_of_line(d, g->loc.line) : d->nsupp;
		for (; k < d->nsupp && d->supp[k].line == g->loc.line; k++) {
			ddbc_suppression *s = &d->supp[k];
			if (s->rule != g->rule)
				continue;
			s->used = true;
			if (!g->suppressed && s->reason)
				g->reason = ddbc_xstrdup(s->reason);
			g->suppressed = true;
		}
	}
}

/* Reports each suppression that suppressed nothing, unless its rule is off
 * here: then nothing was checked, and the comment may serve a run that
 * turns the rule on. A diff rule's suppression acknowledges a change that
 * only `ddbc diff` sees, and stays as its record once the change is
 * deployed: it is judged only when it applies to no line at all. */
static void report_unused(ddbc_diags *d, const ddbc_settings *cli, const ddbc_settings *design)
{
	for (size_t i = 0; i < d->nsupp; i++) {
		const ddbc_suppression *s = &d->supp[i];
		if (s->used || resolve(s->rule, cli, design) == DDBC_SEV_OFF)
			continue;
		if (s->line && ddbc_rule_get(s->rule)->kind == DDBC_RULE_KIND_DIFF)
			continue;
		const char *id = ddbc_rule_get(s->rule)->id;
		if (!s->line)
			ddbc_diag_add(d, DDBC_RULE_UNUSED_SUPPRESSION, s->at,
				      "'%s' suppresses nothing: no line of YAML follows the "
				      "comment; remove it", id);
		else if (s->line == s->at.line)
			ddbc_diag_add(d, DDBC_RULE_UNUSED_SUPPRESSION, s->at,
				      "'%s' suppresses nothing: no such finding on this line; "
				      "remove it", id);
		else
			ddbc_diag_add(d, DDBC_RULE_UNUSED_SUPPRESSION, s->at,
				      "'%s' suppresses nothing: no such finding on line %u, the "
				      "next line of YAML; remove it", id, s->line);
	}
}

void ddbc_diags_finish(ddbc_diags *d, const ddbc_settings *cli, const ddbc_settings *design)
{
	apply_suppressions(d);
	if (!d->supp_judged && !d->fatal)
		report_unused(d, cli, design);
	d->supp_judged = true;
	size_t out = d->finished;
	for (size_t i = d->finished; i < d->n; i++) {
		ddbc_diag g = d->items[i];
		g.severity = resolve(g.rule, cli, design);
		if (g.lesser && g.severity > DDBC_SEV_NOTE)
			g.severity--;
		if (g.severity == DDBC_SEV_OFF) {
			free_finding(&g);
			continue;
		}
		d->items[out++] = g;
	}
	d->n = out;
	/* qsort's array must not be NULL, even for no elements. */
	if (d->n > d->finished && !in_position_order(d->items + d->finished, d->n - d->finished))
		qsort(d->items + d->finished, d->n - d->finished, sizeof(ddbc_diag), by_position);
	d->finished = d->n;
}

ddbc_counts ddbc_diags_count(const ddbc_diags *d)
{
	ddbc_counts c = { 0, 0, 0, 0 };
	for (size_t i = 0; i < d->n; i++) {
		if (d->items[i].suppressed) {
			c.suppressed++;
			continue;
		}
		switch (d->items[i].severity) {
		case DDBC_SEV_ERROR: c.errors++; break;
		case DDBC_SEV_WARNING: c.warnings++; break;
		case DDBC_SEV_NOTE: c.notes++; break;
		default: break;
		}
	}
	return c;
}

int ddbc_diag_format_parse(const char *s, ddbc_diag_format *out)
{
	static const char *const names[] = { "text", "json", "sarif", "github" };
	for (int i = 0; i < 4; i++) {
		if (strcmp(s, names[i]) == 0) {
			*out = (ddbc_diag_format)i;
			return 0;
		}
	}
	return -1;
}
