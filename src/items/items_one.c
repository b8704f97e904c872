/* items_one.c - check-items over one item at a time
 *
 * sample checks every item it makes, and verify classifies every item an
 * engine returns, with the run a file's items get (items.c): the item is
 * handed over as the span of an export line's Item, its findings go to a
 * memory stream of which the first line is kept, and the counts say what
 * became of it.
 */
#include "items/items_run.h"
#include "util/xalloc.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ddbc_item_checker {
	ddbc_items_opts opts;
	ddbc_items_run run;
	ddbc_items_sink sink;
	char *buf;               /* the findings' stream's text */
	size_t len;
};

ddbc_item_checker *ddbc_item_checker_new(const ddbc_design *g)
{
	ddbc_item_checker *c = ddbc_xcalloc(1, sizeof(*c));
	ddbc_items_opts_init(&c->opts);
	c->opts.max_findings = 1;
	ddbc_items_run_init(&c->run, g, &c->opts);
	c->sink.out = open_memstream(&c->buf, &c->len);
	if (!c->sink.out)
		ddbc_xalloc_die();
	c->sink.format = DDBC_ITEMS_TEXT;
	c->sink.max = 1;
	c->run.sink = &c->sink;
	c->run.name = "item";
	return c;
}

void ddbc_item_checker_free(ddbc_item_checker *c)
{
	if (!c)
		return;
	ddbc_items_run_release(&c->run);
	fclose(c->sink.out);
	free(c->buf);
	free(c);
}

static ddbc_item_verdict verdict(const ddbc_items_tally *t)
{
	if (t->malformed)
		return DDBC_VERDICT_MALFORMED;
	if (t->unmatched)
		return DDBC_VERDICT_UNMATCHED;
	return t->failed ? DDBC_VERDICT_FAILED : DDBC_VERDICT_OK;
}

ddbc_item_verdict ddbc_item_check_one(ddbc_item_checker *c, const char *text, size_t len,
				      const ddbc_entity **entity, strbuf *why)
{
	ddbc_items_run *R = &c->run;
	/* A DynamoDB JSON item, as the first item of a file decides it. */
	R->shape = DDBC_SHAPE_LINES;
	R->export_lines = DDBC_FACT_NO;
	R->dynamodb = DDBC_FACT_YES;
	memset(&R->t, 0, sizeof(R->t));
	rewind(c->sink.out);
	c->sink.shown = 0;
	ddbc_item_span sp = { .data = text, .len = len, .index = 1, .pos = { 1, 1 } };
	ddbc_items_check_span(R, &sp);
	if (entity)
		*entity = R->ent && !R->t.unmatched && !R->t.malformed ? R->ent->e : NULL;
	fflush(c->sink.out);
	if (why && c->sink.shown)
		ddbc_strbuf_add(why, c->buf, strcspn(c->buf, "\n"));
	return verdict(&R->t);
}
