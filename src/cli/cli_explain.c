/* cli_explain.c - `ddbc explain`: the list of rules and kinds, and their pages
 *
 * The pages are compiled into the binary (util/embedded.h), so explain
 * works wherever ddbc stands; DDBC_RULES_DIR reads them from a folder
 * instead, for whoever is writing one.
 */
#include "cli/cli_explain.h"
#include "diag/diag.h"
#include "diag/item_kinds.h"
#include "util/embedded.h"
#include "util/error.h"
#include "util/source.h"
#include "util/strbuf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { STATUS_OK = 0, STATUS_USAGE = 2 };

static int list_rules(void)
{
	for (int i = 0; i < DDBC_RULE_COUNT; i++) {
		const ddbc_rule_info *r = ddbc_rule_get((ddbc_rule)i);
		printf("%-29s %-8s %s\n", r->id, ddbc_severity_name(r->default_severity),
		       r->summary);
	}
	printf("\nkinds of check-items findings:\n");
	for (int i = 0; i < DDBC_ITEM_KIND_COUNT; i++) {
		const ddbc_item_kind_info *k = ddbc_item_kind_get((ddbc_item_kind)i);
		printf("%-29s %-8s %s\n", k->id, ddbc_severity_name(k->default_severity),
		       k->summary);
	}
	return STATUS_OK;
}

/* Prints the page of rule or kind id: from $DDBC_RULES_DIR when set (to
 * read pages being written), else the copy compiled into the binary. */
static int print_page(const char *id)
{
	const char *dir = getenv("DDBC_RULES_DIR");
	if (dir && *dir) {
		strbuf path = STRBUF_INIT;
		ddbc_strbuf_addf(&path, "%s/%s.md", dir, id);
		ddbc_source *page = ddbc_source_read(path.buf);
		if (!page)
			ddbc_cmd_error("explain", "cannot read '%s' (DDBC_RULES_DIR): %s",
				       path.buf, strerror(errno));
		else
			fwrite(page->text, 1, page->len, stdout);
		ddbc_strbuf_release(&path);
		ddbc_source_free(page);
		return page ? STATUS_OK : STATUS_USAGE;
	}
	strbuf name = STRBUF_INIT;
	ddbc_strbuf_addf(&name, "rules/%s.md", id);
	const ddbc_embedded_file *f = ddbc_embedded_find(name.buf);
	ddbc_strbuf_release(&name);
	if (!f) {
		/* Every rule and kind is embedded by the build: a miss is a bug. */
		ddbc_cmd_error("explain", "this build lacks the page of '%s'", id);
		return STATUS_USAGE;
	}
	fwrite(f->data, 1, f->len, stdout);
	return STATUS_OK;
}

int ddbc_cli_explain(const char *id)
{
	if (!id)
		return list_rules();
	ddbc_rule rule;
	ddbc_item_kind kind;
	if (ddbc_rule_find(id, &rule) < 0 && ddbc_item_kind_find(id, &kind) < 0) {
		const char *hint = ddbc_rule_suggest(id);
		if (hint)
			ddbc_cmd_error("explain", "unknown rule '%s'; did you mean '%s'?", id,
				       hint);
		else
			ddbc_cmd_error("explain", "unknown rule '%s'; 'ddbc explain' lists "
					       "them", id);
		return STATUS_USAGE;
	}
	return print_page(id);
}
