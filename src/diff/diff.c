/* diff.c - the comparison's runner, the design's own fields, the tables
 *
 * Tables are matched by name. A table whose key schema or LSIs changed
 * is replaced as a whole: its GSIs, TTL and billing come with the new
 * table, so they are not reported again one by one.
 */
#include "diff/diff.h"
#include "diff/diff_int.h"
#include "util/strbuf.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Adds the finding; NEW's suppression of rule on ack_line (0: none)
 * acknowledges it. */
static void add(diff_ctx *c, bool in_old, ddbc_rule rule, ddbc_loc loc, unsigned ack_line,
		const char *fmt, va_list ap)
{
	ddbc_diags_begin(c->d, in_old ? c->old->src : c->new->src);
	ddbc_diag_vadd(c->d, rule, loc, fmt, ap);
	const ddbc_suppression *s = c->acks && c->acks->src == c->new->src
				    ? ddbc_diags_suppression(c->acks, rule, ack_line) : NULL;
	if (s)
		ddbc_diag_suppress_last(c->d, s->reason);
}

void ddbc_diff_report(diff_ctx *c, bool in_old, ddbc_rule rule, ddbc_loc loc, const char *fmt,
		      ...)
{
	va_list ap;
	va_start(ap, fmt);
	add(c, in_old, rule, loc, in_old ? 0 : loc.line, fmt, ap);
	va_end(ap);
}

/* add() with its own arguments, for a message made here. */
static void add_text(diff_ctx *c, bool in_old, ddbc_rule rule, ddbc_loc loc, unsigned ack_line,
		     const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static void add_text(diff_ctx *c, bool in_old, ddbc_rule rule, ddbc_loc loc, unsigned ack_line,
		     const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	add(c, in_old, rule, loc, ack_line, fmt, ap);
	va_end(ap);
}

void ddbc_diff_removed(diff_ctx *c, ddbc_rule rule, ddbc_loc old_loc, ddbc_loc new_loc,
		       const char *fmt, ...)
{
	strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	ddbc_strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (c->removed_in_new)
		add_text(c, false, rule, new_loc, new_loc.line, "%s (it was at %s:%u:%u)",
			 ddbc_strbuf_str(&sb), c->old->src->name, old_loc.line, old_loc.column);
	else
		add_text(c, true, rule, old_loc, new_loc.line, "%s", ddbc_strbuf_str(&sb));
	ddbc_strbuf_release(&sb);
}

ddbc_loc ddbc_diff_section_loc(const ddbc_design *g, const char *section)
{
	const ddbc_node *root = g->root;
	for (uint32_t i = 0; root && root->kind == DDBC_NODE_MAP && i < root->n; i++) {
		const ddbc_node *k = root->u.pairs[i].key;
		if (k->kind == DDBC_NODE_SCALAR && !strcmp(k->u.text, section))
			return k->loc;
	}
	return (ddbc_loc){ 1, 1 };
}

ddbc_loc ddbc_diff_field_loc(const ddbc_design *g, ddbc_loc owner, const char *field)
{
	/* The block of the mapping whose key is at owner: the lines below it
	 * indented deeper. Its field is a key of its own there, written in
	 * block style; a flow mapping ({ gsi: ... }) is answered by owner. */
	size_t flen = strlen(field), len;
	unsigned indent = owner.column ? owner.column - 1 : 0;
	for (unsigned line = owner.line + 1;; line++) {
		const char *text = ddbc_source_line(g->src, line, &len);
		if (!text)
			break;
		size_t lead = 0;
		while (lead < len && text[lead] == ' ')
			lead++;
		if (lead == len || text[lead] == '#')
			continue;
		if (lead <= indent)
			break;
		if (len - lead > flen && !memcmp(text + lead, field, flen) && text[lead + flen] == ':')
			return (ddbc_loc){ line, (unsigned)lead + 1 };
	}
	return owner;
}

/* Where key name of NEW's mapping at owner (line 0: the root) is, into
 * *at; false when NEW has no such key there. */
static bool new_key_loc(const diff_ctx *c, ddbc_loc owner, const char *name, ddbc_loc *at)
{
	if (owner.line == 0) {
		const ddbc_node *root = c->new->root;
		for (uint32_t i = 0; root && root->kind == DDBC_NODE_MAP && i < root->n; i++) {
			const ddbc_node *k = root->u.pairs[i].key;
			if (k->kind == DDBC_NODE_SCALAR && !strcmp(k->u.text, name)) {
				*at = k->loc;
				return true;
			}
		}
		return false;
	}
	*at = ddbc_diff_field_loc(c->new, owner, name);
	return at->line != owner.line || at->column != owner.column;
}

/* The indentation of line in src when it holds YAML (not blank, not only
 * a comment), else -1; *text and *len the line. */
static int yaml_indent(const ddbc_source *src, unsigned line, const char **text, size_t *len)
{
	*text = ddbc_source_line(src, line, len);
	if (!*text)
		return -2;
	size_t lead = 0;
	while (lead < *len && (*text)[lead] == ' ')
		lead++;
	return lead == *len || (*text)[lead] == '#' ? -1 : (int)lead;
}

/* Whether the sibling key on line (at indent) of OLD is one NEW's block
 * still has; *at its position in NEW. */
static bool sibling_kept(const diff_ctx *c, const char *text, size_t len, size_t indent,
			 ddbc_loc owner, ddbc_loc *at)
{
	size_t end = indent;
	while (end < len && text[end] != ':' && text[end] != ' ')
		end++;
	if (end == indent || end >= len || text[end] != ':' || end - indent >= 128)
		return false;
	char name[128];
	memcpy(name, text + indent, end - indent);
	name[end - indent] = '\0';
	return new_key_loc(c, owner, name, at);
}

ddbc_loc ddbc_diff_gap_loc(const diff_ctx *c, ddbc_loc old_at, const char *field,
			   ddbc_loc new_owner)
{
	const ddbc_source *src = c->old->src;
	const char *text;
	size_t len, flen = strlen(field);
	int indent = yaml_indent(src, old_at.line, &text, &len);
	/* A flow mapping ({ ttl: x }) has no lines of its own to follow. */
	if (indent < 0 || len - (size_t)indent <= flen ||
	    memcmp(text + indent, field, flen) || text[indent + flen] != ':')
		return new_owner;
	ddbc_loc at;
	for (unsigned line = old_at.line + 1;; line++) {
		int lead = yaml_indent(src, line, &text, &len);
		if (lead == -2 || (lead >= 0 && lead < indent))
			break;
		if (lead == indent && sibling_kept(c, text, len, (size_t)lead, new_owner, &at))
			return at;
	}
	for (unsigned line = old_at.line; line-- > 1;) {
		int lead = yaml_indent(src, line, &text, &len);
		if (lead >= 0 && lead < indent)
			break;
		if (lead == indent && sibling_kept(c, text, len, (size_t)lead, new_owner, &at))
			return at;
	}
	return new_owner;
}

ddbc_loc ddbc_diff_lost_loc(const diff_ctx *c, ddbc_loc old_owner, ddbc_loc new_owner,
			    const char *field)
{
	ddbc_loc at;
	if (new_key_loc(c, new_owner, field, &at))
		return at;
	ddbc_loc old_at = old_owner.line ? ddbc_diff_field_loc(c->old, old_owner, field)
					 : ddbc_diff_section_loc(c->old, field);
	at = ddbc_diff_gap_loc(c, old_at, field, new_owner);
	return at.line ? at : c->new->name.loc;
}

/* ---- the design's own fields ------------------------------------------------------- */

static void diff_design(diff_ctx *c)
{
	const char *d0 = ddbc_diff_delimiter(c->old), *d1 = ddbc_diff_delimiter(c->new);
	if (strcmp(d0, d1)) {
		const char *fmt = "the key delimiter changed from '%s' to '%s': stored keys are "
				  "joined with '%s', and key conditions and check-items now split "
				  "them at '%s'; rewrite the stored keys or keep '%s'";
		/* NEW without the field (back to '#', positioned at the root by
		 * the loader) lost it: where OLD set it, or the line in its place. */
		ddbc_loc root = { 0, 0 }, gap;
		if (!new_key_loc(c, root, "key_delimiter", &gap)) {
			gap = ddbc_diff_gap_loc(c, c->old->key_delimiter_loc, "key_delimiter", root);
			ddbc_diff_removed(c, DDBC_RULE_KEY_DELIMITER_CHANGED, c->old->key_delimiter_loc,
					  gap.line ? gap : c->new->name.loc, fmt, d0, d1, d0, d1, d0);
		} else
			ddbc_diff_report(c, false, DDBC_RULE_KEY_DELIMITER_CHANGED,
					 c->new->key_delimiter_loc, fmt, d0, d1, d0, d1, d0);
	}
	if (c->all && !ddbc_diff_str_same(c->old->description, c->new->description))
		ddbc_diff_report(c, false, DDBC_RULE_DOC_CHANGED, c->new->name.loc,
				 "the design's description changed");
}

/* ---- indexes of a table kept ------------------------------------------------------- */

/* A projection as the design writes it: all, keys_only, or the INCLUDE
 * list's names ("include [status, total]"). */
static void projection_text(const ddbc_index *ix, strbuf *out)
{
	if (ix->projection != DDBC_PROJ_INCLUDE) {
		ddbc_strbuf_addstr(out, ix->projection == DDBC_PROJ_ALL ? "all" : "keys_only");
		return;
	}
	ddbc_strbuf_addstr(out, "include [");
	for (size_t i = 0; i < ix->ninclude; i++)
		ddbc_strbuf_addf(out, "%s%s", i ? ", " : "", ix->include[i].s ? ix->include[i].s : "?");
	ddbc_strbuf_addch(out, ']');
}

/* Each access pattern of OLD on g0 that returns what g1 no longer
 * projects: the pattern's callers break once the index is created again. */
static void diff_narrowed(diff_ctx *c, const ddbc_index *g0, const ddbc_index *g1)
{
	const ddbc_name *attr;
	const ddbc_pattern *p;
	for (size_t from = 0; (p = ddbc_diff_narrowed_pattern(c->old, g0, g1, &from, &attr));)
		ddbc_diff_report(c, false, DDBC_RULE_PROJECTION_NARROWED,
				 g1->projection_loc.line ? g1->projection_loc : g1->name.loc,
				 "GSI '%s' of table '%s' no longer projects '%s', which access "
				 "pattern '%s' returns: deployed code that runs it gets items without "
				 "'%s' once the index is created again; change its callers to read "
				 "'%s' from the table first, or keep it projected", g1->name.s,
				 g1->table->name.s, attr->s, p->id.s, attr->s, attr->s);
}

static void diff_gsi_pair(diff_ctx *c, const ddbc_index *g0, const ddbc_index *g1)
{
	if (c->all && !ddbc_diff_str_same(g0->description, g1->description))
		ddbc_diff_report(c, false, DDBC_RULE_DOC_CHANGED, g1->name.loc,
				 "the description of GSI '%s' changed", g1->name.s);
	if (ddbc_diff_index_same(g0, g1))
		return;
	bool key = !ddbc_diff_keys_same(g0, g1);
	strbuf detail = STRBUF_INIT;
	if (!key) {
		ddbc_strbuf_addstr(&detail, " (");
		projection_text(g1, &detail);
		ddbc_strbuf_addstr(&detail, ", was ");
		projection_text(g0, &detail);
		ddbc_strbuf_addch(&detail, ')');
	}
	ddbc_diff_report(c, false, DDBC_RULE_GSI_CHANGED, g1->name.loc,
			 "the %s of GSI '%s' on table '%s' changed%s: DynamoDB cannot change an "
			 "index in place, so it is deleted and created again in two deployments "
			 "and queries on it fail in between; create it under a new name first if "
			 "callers cannot wait", key ? "key" : "projection", g1->name.s,
			 g1->table->name.s, ddbc_strbuf_str(&detail));
	ddbc_strbuf_release(&detail);
	diff_narrowed(c, g0, g1);
}

/* Counts the GSI creations and deletions going from t0 to t1 and reports
 * each added or removed GSI. */
static void diff_gsis(diff_ctx *c, const ddbc_table *t0, const ddbc_table *t1)
{
	size_t ops = 0, changed = 0;
	for (size_t i = 0; i < t0->ngsi; i++) {
		const ddbc_index *g0 = &t0->gsi[i], *g1 = ddbc_diff_gsi(t1, g0->name.s);
		if (!g1) {
			ops++;
			ddbc_diff_removed(c, DDBC_RULE_GSI_REMOVED, g0->name.loc,
					  ddbc_diff_lost_loc(c, t0->name.loc, t1->name.loc, "gsi"),
					 "GSI '%s' is deleted from table '%s': queries on it fail from "
					 "then on, and creating it again rebuilds it from every item; "
					 "remove its callers first", g0->name.s, t0->name.s);
		} else if (!ddbc_diff_index_same(g0, g1)) {
			ops += 2;
			changed++;
		}
	}
	for (size_t i = 0; i < t1->ngsi; i++) {
		const ddbc_index *g1 = &t1->gsi[i], *g0 = ddbc_diff_gsi(t0, g1->name.s);
		if (g0) {
			diff_gsi_pair(c, g0, g1);
			continue;
		}
		ops++;
		ddbc_diff_report(c, false, DDBC_RULE_GSI_ADDED, g1->name.loc,
				 "GSI '%s' is added to table '%s'; DynamoDB backfills it from the "
				 "stored items before it can be queried", g1->name.s, t1->name.s);
	}
	/* One changed GSI alone is already reported as two deployments. */
	if (ops > 1 && !(changed == 1 && ops == 2))
		ddbc_diff_report(c, false, DDBC_RULE_GSI_SEVERAL, t1->name.loc,
				 "table '%s' needs %zu GSI creations and deletions: one UpdateTable "
				 "call may create or delete only one, and each must wait until the "
				 "last is done; deploy them in that many steps (ddbc diff --format "
				 "plan lists them)", t1->name.s, ops);
}

static const char *billing_word(ddbc_billing b)
{
	return b == DDBC_BILLING_PROVISIONED ? "provisioned" : "on_demand";
}

static void diff_ttl_billing(diff_ctx *c, const ddbc_table *t0, const ddbc_table *t1)
{
	if (!ddbc_diff_str_same(t0->ttl.s, t1->ttl.s)) {
		if (!t1->ttl.s)
			ddbc_diff_removed(c, DDBC_RULE_TTL_CHANGED, t0->ttl.loc,
					  ddbc_diff_gap_loc(c, t0->ttl.loc, "ttl", t1->name.loc),
					 "TTL on '%s' is removed from table '%s': expired items are "
					 "kept from then on; disable it with UpdateTimeToLive",
					 t0->ttl.s, t0->name.s);
		else if (!t0->ttl.s)
			ddbc_diff_report(c, false, DDBC_RULE_TTL_CHANGED, t1->ttl.loc,
					 "TTL on '%s' is enabled for table '%s': every stored item "
					 "whose '%s' is in the past will be deleted; check the stored "
					 "values before enabling it", t1->ttl.s, t1->name.s, t1->ttl.s);
		else
			ddbc_diff_report(c, false, DDBC_RULE_TTL_CHANGED, t1->ttl.loc,
					 "the TTL attribute of table '%s' changed from '%s' to '%s': "
					 "TTL must be disabled, then enabled on the new attribute "
					 "(DynamoDB may refuse the second call for up to an hour), and "
					 "stored items need '%s' to expire", t1->name.s, t0->ttl.s,
					 t1->ttl.s, t1->ttl.s);
	}
	if (t0->billing != t1->billing) {
		ddbc_loc loc = t1->billing_loc.line ? t1->billing_loc : t1->name.loc;
		/* NEW dropped the field (the loader then gives the table's
		 * position): the line in its place. */
		if (loc.line == t1->name.loc.line && loc.column == t1->name.loc.column &&
		    (t0->billing_loc.line != t0->name.loc.line ||
		     t0->billing_loc.column != t0->name.loc.column))
			loc = ddbc_diff_gap_loc(c, t0->billing_loc, "billing", t1->name.loc);
		bool to_provisioned = t1->billing == DDBC_BILLING_PROVISIONED;
		ddbc_diff_report(c, false, DDBC_RULE_BILLING_CHANGED, loc,
				 "the billing mode of table '%s' changes from %s to %s: %s",
				 t1->name.s, billing_word(t0->billing), billing_word(t1->billing),
				 to_provisioned ? "the switch must state the throughput of the table "
				 "and of every GSI, which must carry the traffic from then on; check "
				 "the capacity against the consumed capacity first" :
				 "DynamoDB allows this switch at most four times in a rolling 24 hours; "
				 "deploy it once");
	}
}

/* ---- settings (SPEC 8.7) ------------------------------------------------------------ */

static void diff_consistency(diff_ctx *c, const ddbc_table *t0, const ddbc_table *t1)
{
	if (!ddbc_diff_consistency_changed(t0, t1))
		return;
	const ddbc_table_settings *s1 = &t1->settings;
	ddbc_loc loc = s1->consistency_loc.line ? s1->consistency_loc
		       : s1->replicas_loc.line ? s1->replicas_loc : t1->name.loc;
	if (t0->settings.strong && s1->strong) {
		ddbc_diff_report(c, false, DDBC_RULE_CONSISTENCY_CHANGED,
				 s1->replicas_loc.line ? s1->replicas_loc : loc,
				 "the Regions of multi-Region strongly consistent table '%s' change: "
				 "DynamoDB sets an MRSC table's replicas and witness only as it makes "
				 "it MRSC, from an empty table; this needs a new table and a copy of "
				 "every item (the plan's replace-table step)", t1->name.s);
		return;
	}
	ddbc_diff_report(c, false, DDBC_RULE_CONSISTENCY_CHANGED, loc,
			 "table '%s' changes from %s to %s: a global table's consistency mode "
			 "cannot change, and DynamoDB makes a multi-Region strongly consistent "
			 "table only from an empty one; this needs a new table and a copy of "
			 "every item (the plan's replace-table step)", t1->name.s,
			 t0->settings.strong ? "multi-Region strong consistency"
			 : t0->settings.nreplicas ? "eventual consistency" : "a single-Region table",
			 s1->strong ? "multi-Region strong consistency" : "eventual consistency");
}

/* What the change is about: "table 'T'" or "GSI 'G' of table 'T'". */
static void subject(strbuf *out, const diff_setting *s, const ddbc_table *t1)
{
	if (s->g1)
		ddbc_strbuf_addf(out, "GSI '%s' of table '%s'", s->g1->name.s, t1->name.s);
	else
		ddbc_strbuf_addf(out, "table '%s'", t1->name.s);
}

static void figure(strbuf *out, const char *what, long long n)
{
	if (n)
		ddbc_strbuf_addf(out, "%s %lld", what, n);
	else
		ddbc_strbuf_addf(out, "no %s limit", what);
}

static const char *insights_words(ddbc_insights i)
{
	return i == DDBC_INSIGHTS_THROTTLED ? "throttled keys" : "accessed and throttled keys";
}

/* Warm throughput lowered: DynamoDB refuses it (UpdateTable's
 * WarmThroughput: "the value can't be decreased"). */
static void warm_lowered(strbuf *m, const diff_setting *s, const ddbc_throughput *w0,
			 const ddbc_throughput *w1, const char *what)
{
	bool read = w1->read && w0->read > w1->read;
	ddbc_strbuf_addf(m, "the warm %s throughput of %s is lowered from %lld to %lld units a second: "
		    "DynamoDB only raises warm throughput, and refuses a lower figure; keep %lld "
		    "(the %s keeps it anyway)", read ? "read" : "write", what,
		    read ? w0->read : w0->write, read ? w1->read : w1->write,
		    read ? w0->read : w0->write, s->g1 ? "index" : "table");
}

static void warm_message(strbuf *m, const diff_setting *s, const ddbc_throughput *w0,
			 const ddbc_throughput *w1, const char *what)
{
	ddbc_strbuf_addf(m, "the warm throughput of %s is raised to", what);
	if (w1->read > w0->read)
		ddbc_strbuf_addf(m, " read %lld", w1->read);
	if (w1->write > w0->write)
		ddbc_strbuf_addf(m, "%s write %lld", w1->read > w0->read ? "," : "", w1->write);
	ddbc_strbuf_addf(m, " units a second: DynamoDB charges the raise once and never lowers it "
		    "again; keep it at what the %s needs at once", s->g1 ? "index" : "table");
}

static void tags_message(strbuf *m, const ddbc_table_settings *s0,
			 const ddbc_table_settings *s1, const char *what)
{
	ddbc_strbuf_addf(m, "the tags of %s change:", what);
	const char *sep = " set ";
	for (size_t i = 0; i < s1->ntags; i++) {
		bool same = false;
		for (size_t k = 0; k < s0->ntags && !same; k++)
			same = ddbc_diff_str_same(s0->tags[k].key.s, s1->tags[i].key.s) &&
			       ddbc_diff_str_same(s0->tags[k].value, s1->tags[i].value);
		if (!same) {
			ddbc_strbuf_addf(m, "%s'%s'", sep, s1->tags[i].key.s);
			sep = ", ";
		}
	}
	const char *rm = sep[0] == ',' ? "; remove " : " remove ";
	for (size_t i = 0; i < s0->ntags; i++) {
		bool kept = false;
		for (size_t k = 0; k < s1->ntags && !kept; k++)
			kept = ddbc_diff_str_same(s0->tags[i].key.s, s1->tags[k].key.s);
		if (!kept) {
			ddbc_strbuf_addf(m, "%s'%s'", rm, s0->tags[i].key.s);
			rm = ", ";
		}
	}
	ddbc_strbuf_addstr(m, " (TagResource and UntagResource on its ARN); cost allocation and "
		      "tag-based IAM conditions follow the new tags");
}

/* The message of the setting-changed finding for s, a change DynamoDB
 * makes in place. */
static void setting_message(strbuf *m, const diff_setting *s, const ddbc_table *t0,
			    const ddbc_table *t1, const char *what)
{
	const ddbc_table_settings *s0 = &t0->settings, *s1 = &t1->settings;
	const ddbc_throughput *a = s->g1 ? &s->g0->on_demand_max : &s0->on_demand_max;
	const ddbc_throughput *b = s->g1 ? &s->g1->on_demand_max : &s1->on_demand_max;
	switch (s->kind) {
	case DIFF_SET_TABLE_CLASS:
		ddbc_strbuf_addf(m, "the table class of %s changes to %s: %s; the table stays "
			    "available while DynamoDB switches it (ddbc cost prices each class)",
			    what, s->on ? "standard_ia" : "standard",
			    s->on ? "storage costs less, reads and writes cost more, and reserved "
			    "capacity no longer applies" : "storage costs more, reads and writes "
			    "cost less");
		break;
	case DIFF_SET_DELETION_PROTECTION:
		ddbc_strbuf_addf(m, s->on ? "deletion protection of %s is turned on: DeleteTable fails "
			    "until an UpdateTable turns it off" : "deletion protection of %s is "
			    "turned off: whoever IAM allows DeleteTable can delete it; keep "
			    "'deletion_protection: true' while it holds data that matters", what);
		break;
	case DIFF_SET_STREAM:
		if (!s0->stream)
			ddbc_strbuf_addf(m, "%s gets a stream of %s: consumers see the changes made "
				    "from then on, each kept 24 hours", what,
				    ddbc_stream_word(s1->stream));
		else if (!s1->stream)
			ddbc_strbuf_addf(m, "the stream of %s is disabled: its consumers (triggers, "
				    "pipes) receive no more changes; move them first", what);
		else
			ddbc_strbuf_addf(m, "the stream of %s changes from %s to %s: DynamoDB disables "
				    "the stream and enables a new one with a new ARN; point its "
				    "consumers at the new stream", what, ddbc_stream_word(s0->stream),
				    ddbc_stream_word(s1->stream));
		break;
	case DIFF_SET_SSE:
		ddbc_strbuf_addf(m, "the encryption of %s changes to ", what);
		if (s1->kms_key.s)
			ddbc_strbuf_addf(m, "the KMS key '%s'", s1->kms_key.s);
		else
			ddbc_strbuf_addstr(m, s1->has_sse ? "the AWS managed KMS key"
				      : "the key DynamoDB owns");
		ddbc_strbuf_addstr(m, ": the table stays available while DynamoDB switches keys; "
			      "whoever reads it needs the new key's kms:Decrypt");
		break;
	case DIFF_SET_ON_DEMAND_MAX:
		ddbc_strbuf_addf(m, "the maximum on-demand throughput of %s changes to ", what);
		figure(m, "read", b->read);
		ddbc_strbuf_addstr(m, ", ");
		figure(m, "write", b->write);
		ddbc_strbuf_addstr(m, " (was ");
		figure(m, "read", a->read);
		ddbc_strbuf_addstr(m, ", ");
		figure(m, "write", a->write);
		ddbc_strbuf_addstr(m, "): requests above it are throttled (MaxOnDemandThroughputExceeded)");
		break;
	case DIFF_SET_WARM:
		warm_message(m, s, s->g1 ? &s->g0->warm : &s0->warm,
			     s->g1 ? &s->g1->warm : &s1->warm, what);
		break;
	case DIFF_SET_REPLICA:
		if (s->on)
			ddbc_strbuf_addf(m, "%s gets a replica in %s: DynamoDB copies every item there "
				    "and replicates every write to it from then on (ddbc cost prices "
				    "it)", what, s->region);
		else
			ddbc_strbuf_addf(m, "the replica of %s in %s is deleted, with its items: readers "
				    "and writers in that Region fail from then on; move them first",
				    what, s->region);
		break;
	case DIFF_SET_WITNESS:   /* a kept MRSC table's, save its removal, is a consistency change */
		if (s->on)
			ddbc_strbuf_addf(m, "the witness of %s is %s", what, s->region);
		else
			ddbc_strbuf_addf(m, "the witness of %s in %s is deleted together with the other "
				    "replicas: the table is a single-Region table again, no longer "
				    "strongly consistent across Regions", what, s->region);
		break;
	case DIFF_SET_PITR:
		if (s->on && !(s0->has_pitr && s0->pitr))
			ddbc_strbuf_addf(m, "point-in-time recovery of %s is turned on: it can be restored "
				    "to any second of the last %d days from then on, billed by its "
				    "size", what, ddbc_diff_recovery_days(s1));
		else
			ddbc_strbuf_addf(m, "the point-in-time recovery period of %s changes from %d to "
				    "%d days: restores reach back %d days from then on", what,
				    ddbc_diff_recovery_days(s0), ddbc_diff_recovery_days(s1),
				    ddbc_diff_recovery_days(s1));
		break;
	case DIFF_SET_INSIGHTS: {
		ddbc_insights i0 = s->g1 ? (s->g0 ? s->g0->insights : DDBC_INSIGHTS_NONE)
				   : s0->insights;
		ddbc_insights i1 = s->g1 ? s->g1->insights : s1->insights;
		if (!s->on)
			ddbc_strbuf_addf(m, "Contributor Insights of %s is turned off: CloudWatch no "
				    "longer shows its most used keys", what);
		else if (!i0)
			ddbc_strbuf_addf(m, "Contributor Insights of %s is turned on for %s: CloudWatch "
				    "shows its top keys, billed per event", what, insights_words(i1));
		else
			ddbc_strbuf_addf(m, "Contributor Insights of %s changes from %s to %s", what,
				    insights_words(i0), insights_words(i1));
		break;
	}
	case DIFF_SET_TAGS:
		tags_message(m, s0, s1, what);
		break;
	case DIFF_SET_POLICY:
		ddbc_strbuf_addf(m, "the resource policy of %s is %s: who may use the table changes "
			    "with it; DynamoDB takes one policy update on a resource at a time, "
			    "about 15 seconds apart", what, !s->on ? "deleted" : s0->policy ?
			    "changed" : "added");
		break;
	}
}

/* Reports one change of a setting: at NEW's field, else (NEW no longer
 * writes it) at OLD's, or the line of NEW in its place. */
static void report_setting(diff_ctx *c, ddbc_rule rule, const diff_setting *s,
			   const ddbc_table *t1, const char *text)
{
	ddbc_loc owner = s->g1 ? s->g1->name.loc : t1->name.loc;
	if (s->new_loc.line)
		ddbc_diff_report(c, false, rule, s->new_loc, "%s", text);
	else if (s->old_loc.line)
		ddbc_diff_removed(c, rule, s->old_loc,
				  ddbc_diff_gap_loc(c, s->old_loc, s->field, owner), "%s", text);
	else
		ddbc_diff_report(c, false, rule, owner, "%s", text);
}

/* PITR on in OLD, off or no longer written in NEW: DynamoDB deletes the
 * continuous backups when it is disabled; what could be restored is gone. */
static void pitr_disabled(diff_ctx *c, const diff_setting *s, const ddbc_table *t0,
			  const ddbc_table *t1)
{
	strbuf m = STRBUF_INIT;
	if (s->new_loc.line)
		ddbc_strbuf_addf(&m, "point-in-time recovery of table '%s' is turned off: its "
			    "continuous backups are deleted and the table can no longer be "
			    "restored to a point in the last %d days; take an on-demand backup "
			    "first if it may be needed", t1->name.s,
			    ddbc_diff_recovery_days(&t0->settings));
	else
		ddbc_strbuf_addf(&m, "point-in-time recovery of table '%s' is no longer in the design: "
			    "deploying NEW turns it off and deletes its continuous backups; keep "
			    "'pitr: { enabled: true }' or take an on-demand backup first",
			    t1->name.s);
	report_setting(c, DDBC_RULE_PITR_DISABLED, s, t1, ddbc_strbuf_str(&m));
	ddbc_strbuf_release(&m);
}

/* Every change of the settings the plan acts on, one finding each; what
 * DynamoDB refuses or what loses data in its own change class. */
static void diff_table_settings(diff_ctx *c, const ddbc_table *t0, const ddbc_table *t1)
{
	diff_settings changes = { NULL, 0, 0 };
	ddbc_diff_settings(t0, t1, &changes);
	strbuf what = STRBUF_INIT, m = STRBUF_INIT;
	for (size_t i = 0; i < changes.n; i++) {
		const diff_setting *s = &changes.v[i];
		ddbc_strbuf_reset(&what);
		ddbc_strbuf_reset(&m);
		subject(&what, s, t1);
		if (s->kind == DIFF_SET_PITR && !s->on) {
			pitr_disabled(c, s, t0, t1);
			continue;
		}
		if (s->kind == DIFF_SET_WARM && s->lowered) {
			warm_lowered(&m, s, s->g1 ? &s->g0->warm : &t0->settings.warm,
				     s->g1 ? &s->g1->warm : &t1->settings.warm, ddbc_strbuf_str(&what));
			report_setting(c, DDBC_RULE_WARM_THROUGHPUT_LOWERED, s, t1, ddbc_strbuf_str(&m));
			if (!s->on)
				continue;
			ddbc_strbuf_reset(&m);
		}
		setting_message(&m, s, t0, t1, ddbc_strbuf_str(&what));
		report_setting(c, DDBC_RULE_SETTING_CHANGED, s, t1, ddbc_strbuf_str(&m));
	}
	ddbc_strbuf_release(&what);
	ddbc_strbuf_release(&m);
	ddbc_diff_settings_release(&changes);
}

/* ---- tables ------------------------------------------------------------------------- */

static void diff_lsis(diff_ctx *c, const ddbc_table *t0, const ddbc_table *t1)
{
	for (size_t i = 0; i < t0->nlsi; i++) {
		const ddbc_index *l0 = &t0->lsi[i];
		if (!ddbc_table_index(t1, l0->name.s) || ddbc_table_index(t1, l0->name.s)->kind !=
		    DDBC_INDEX_LSI)
			ddbc_diff_removed(c, DDBC_RULE_LSI_CHANGED, l0->name.loc,
					  ddbc_diff_lost_loc(c, t0->name.loc, t1->name.loc, "lsi"),
					 "LSI '%s' is removed from table '%s': an LSI can only be "
					 "dropped with its table, so this needs a new table and a copy "
					 "of every item", l0->name.s, t0->name.s);
	}
	for (size_t i = 0; i < t1->nlsi; i++) {
		const ddbc_index *l1 = &t1->lsi[i], *l0 = ddbc_table_index(t0, l1->name.s);
		if (l0 && l0->kind == DDBC_INDEX_LSI && ddbc_diff_index_same(l0, l1))
			continue;
		ddbc_diff_report(c, false, DDBC_RULE_LSI_CHANGED, l1->name.loc,
				 "LSI '%s' is %s table '%s': LSIs are made only by CreateTable, so "
				 "this needs a new table and a copy of every item; a GSI can be "
				 "added to the existing table instead", l1->name.s,
				 l0 && l0->kind == DDBC_INDEX_LSI ? "changed on" : "added to",
				 t1->name.s);
	}
}

/* Where NEW's key schema first differs from OLD's: the partition key, else
 * the sort key, else (a sort key dropped) the line in its place. */
static ddbc_loc key_change_loc(const diff_ctx *c, const ddbc_table *t0, const ddbc_table *t1)
{
	ddbc_index pk0 = t0->primary, pk1 = t1->primary;
	pk0.nsk = pk1.nsk = 0;
	if (!ddbc_diff_keys_same(&pk0, &pk1) && t1->primary.npk)
		return t1->primary.pk[0].loc;
	if (t1->primary.nsk)
		return t1->primary.sk[0].loc;
	return t0->primary.nsk ? ddbc_diff_gap_loc(c, t0->primary.sk[0].loc, "sort_key",
						   t1->name.loc) : t1->name.loc;
}

static void diff_table_pair(diff_ctx *c, const ddbc_table *t0, const ddbc_table *t1)
{
	if (c->all && !ddbc_diff_str_same(t0->description, t1->description))
		ddbc_diff_report(c, false, DDBC_RULE_DOC_CHANGED, t1->name.loc,
				 "the description of table '%s' changed", t1->name.s);
	diff_consistency(c, t0, t1);
	if (!ddbc_diff_keys_same(&t0->primary, &t1->primary)) {
		ddbc_diff_report(c, false, DDBC_RULE_TABLE_KEY_CHANGED, key_change_loc(c, t0, t1),
				 "the key schema of table '%s' changed: DynamoDB cannot change a "
				 "table's key, so this needs a new table and a copy of every item "
				 "with new keys; keep the key and add a GSI if only a new lookup is "
				 "needed", t1->name.s);
		return;
	}
	diff_lsis(c, t0, t1);
	if (ddbc_diff_lsis_differ(t0, t1))
		return;
	diff_gsis(c, t0, t1);
	diff_ttl_billing(c, t0, t1);
	if (!ddbc_diff_consistency_changed(t0, t1))
		diff_table_settings(c, t0, t1);
}

static void diff_tables(diff_ctx *c)
{
	for (size_t i = 0; i < c->old->ntables; i++) {
		const ddbc_table *t0 = &c->old->tables[i];
		const ddbc_table *t1 = ddbc_design_table(c->new, t0->name.s);
		if (t1)
			diff_table_pair(c, t0, t1);
		else
			ddbc_diff_removed(c, DDBC_RULE_TABLE_REMOVED, t0->name.loc,
					  ddbc_diff_lost_loc(c, (ddbc_loc){ 0, 0 }, (ddbc_loc){ 0, 0 },
							     "tables"),
					 "table '%s' is removed from the design: ddbc never deletes a "
					 "table, and its items stay until it is deleted by hand; move "
					 "what is still needed first", t0->name.s);
	}
	for (size_t i = 0; i < c->new->ntables; i++) {
		const ddbc_table *t1 = &c->new->tables[i];
		if (!ddbc_design_table(c->old, t1->name.s))
			ddbc_diff_report(c, false, DDBC_RULE_TABLE_ADDED, t1->name.loc,
					 "table '%s' is added", t1->name.s);
	}
}

static void diff_run(diff_ctx *c)
{
	diff_design(c);
	diff_tables(c);
	ddbc_diff_entities(c);
	ddbc_diff_patterns(c);
	ddbc_diags_begin(c->d, c->new->src);
}

void ddbc_diff_in_tree(const ddbc_design *old, const ddbc_design *new, const ddbc_diags *acks,
		       ddbc_diags *d, bool all)
{
	diff_ctx c = { old, new, d, all, true, acks };
	diff_run(&c);
}

void ddbc_diff(const ddbc_design *old, const ddbc_design *new, const ddbc_diags *acks,
	       ddbc_diags *d, bool all)
{
	diff_ctx c = { old, new, d, all, false, acks };
	diff_run(&c);
}

static int by_file_position(const void *pa, const void *pb)
{
	const ddbc_diag *a = pa, *b = pb;
	int r = strcmp(a->src->name, b->src->name);
	if (r)
		return r;
	if (a->loc.line != b->loc.line)
		return a->loc.line < b->loc.line ? -1 : 1;
	if (a->loc.column != b->loc.column)
		return a->loc.column < b->loc.column ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

void ddbc_diff_sort(ddbc_diags *d)
{
	if (d->n)
		qsort(d->items, d->n, sizeof(ddbc_diag), by_file_position);
}
