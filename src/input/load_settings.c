/* load_settings.c - reading a table's settings (SPEC 8.7): PITR, deletion
 * protection, streams, warm and maximum throughput, Contributor Insights,
 * replicas, encryption, tags and the resource policy
 *
 * Each value DynamoDB would refuse is a schema finding at the value; what
 * holds only across fields or against the access patterns (an MRSC set,
 * a policy's size, the rates) is left to the rules (rules/settings.c).
 */
#include "input/load_int.h"
#include "model/regions.h"
#include "util/source.h"
#include "util/strbuf.h"
#include "util/suggest.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The default table-level throughput quota, per table, of on-demand and
 * provisioned tables alike ("Quotas in Amazon DynamoDB": 40,000 read and
 * 40,000 write units): warm throughput cannot be raised past it without a
 * quota increase. */
#define TABLE_QUOTA 40000

/* The most recovery days PITR keeps (RecoveryPeriodInDays: 1 to 35). */
#define RECOVERY_DAYS_MAX 35

/* One figure of a throughput mapping: a whole number from 1 to max. */
static bool units_of(loader *L, const ddbc_node *u, const char *field, const char *key,
		     long long max, long long *out)
{
	long long n;
	if (ddbc_node_int(u, &n) && n >= 1 && n <= max) {
		*out = n;
		return true;
	}
	if (max < TABLE_QUOTA + 1)
		ddbc_load_schema(L, u->loc,
				 "'%s' of %s must be a whole number of units a second from 1 to "
				 "%lld (DynamoDB's default table quota; ask AWS to raise the quota "
				 "first), not %s%s%s%s", key, field, max, ddbc_node_describe(u),
				 u->kind == DDBC_NODE_SCALAR ? " '" : "",
				 u->kind == DDBC_NODE_SCALAR ? u->u.text : "",
				 u->kind == DDBC_NODE_SCALAR ? "'" : "");
	else
		ddbc_load_schema(L, u->loc,
				 "'%s' of %s must be a whole number of units a second, at least 1, "
				 "not %s%s%s%s", key, field, ddbc_node_describe(u),
				 u->kind == DDBC_NODE_SCALAR ? " '" : "",
				 u->kind == DDBC_NODE_SCALAR ? u->u.text : "",
				 u->kind == DDBC_NODE_SCALAR ? "'" : "");
	return false;
}

/* `warm_throughput:` or `on_demand_max:` { read, write }, one of them at least. */
static void load_throughput(loader *L, const ddbc_node *v, const char *field, long long max,
			    ddbc_throughput *out)
{
	static const char *const fields[] = { "read", "write" };
	if (!v)
		return;
	out->loc = v->loc;
	if (!ddbc_load_expect_kind(L, v, DDBC_NODE_MAP, field))
		return;
	ddbc_load_check_known(L, v, field, fields, countof(fields));
	const ddbc_node *r = ddbc_node_get(v, "read"), *w = ddbc_node_get(v, "write");
	if (!r && !w) {
		ddbc_load_schema(L, v->loc, "'%s' must give read, write or both, such as "
			       "{ read: 20000, write: 8000 }", field);
		return;
	}
	bool ok = true;
	if (r && (ok &= units_of(L, r, field, "read", max, &out->read)))
		out->read_loc = r->loc;
	if (w && (ok &= units_of(L, w, field, "write", max, &out->write)))
		out->write_loc = w->loc;
	out->set = ok;
}

void ddbc_load_gsi_settings(loader *L, const ddbc_node *m, ddbc_index *ix)
{
	load_throughput(L, ddbc_node_get(m, "warm_throughput"), "warm_throughput", TABLE_QUOTA,
			&ix->warm);
	load_throughput(L, ddbc_node_get(m, "on_demand_max"), "on_demand_max", LLONG_MAX,
			&ix->on_demand_max);
	static const char *const insights[] = { "all", "throttled" };
	size_t w;
	if (ddbc_load_get_word(L, m, "contributor_insights", insights, countof(insights), &w)) {
		ix->insights = w ? DDBC_INSIGHTS_THROTTLED : DDBC_INSIGHTS_ALL;
		ix->insights_loc = ddbc_node_get(m, "contributor_insights")->loc;
	}
}

static void load_pitr(loader *L, const ddbc_node *v, ddbc_table_settings *s)
{
	static const char *const fields[] = { "enabled", "recovery_days" };
	if (!v)
		return;
	s->pitr_loc = v->loc;
	if (!ddbc_load_expect_kind(L, v, DDBC_NODE_MAP, "pitr"))
		return;
	ddbc_load_check_known(L, v, "pitr", fields, countof(fields));
	s->has_pitr = ddbc_load_get_bool(L, v, "enabled", &s->pitr, NULL);
	if (!ddbc_node_get(v, "enabled"))
		ddbc_load_require(L, v, "enabled", "pitr");
	const ddbc_node *d = ddbc_node_get(v, "recovery_days");
	long long n;
	if (!d)
		return;
	if (!ddbc_node_int(d, &n) || n < 1 || n > RECOVERY_DAYS_MAX) {
		ddbc_load_schema(L, d->loc,
				 "'recovery_days' must be a whole number of days from 1 to 35 "
				 "(PITR's RecoveryPeriodInDays), not %s%s%s%s", ddbc_node_describe(d),
				 d->kind == DDBC_NODE_SCALAR ? " '" : "",
				 d->kind == DDBC_NODE_SCALAR ? d->u.text : "",
				 d->kind == DDBC_NODE_SCALAR ? "'" : "");
		return;
	}
	if (s->has_pitr && !s->pitr) {
		ddbc_load_schema(L, d->loc, "'recovery_days' with 'enabled: false': a table without "
			       "PITR keeps no recovery period; remove it or enable PITR");
		return;
	}
	s->recovery_days = (int)n;
	s->recovery_days_loc = d->loc;
}

/* A Region name: known, else a finding with the nearest name. */
static bool region_of(loader *L, const ddbc_node *v, const char *field, ddbc_name *out)
{
	if (!ddbc_load_text_node(L, v, field))
		return false;
	if (!ddbc_region_known(v->u.text)) {
		const char *hint = ddbc_region_suggest(v->u.text);
		if (hint)
			ddbc_load_schema(L, v->loc, "unknown Region '%s' in %s (did you mean '%s'?)",
					 v->u.text, field, hint);
		else
			ddbc_load_schema(L, v->loc, "unknown Region '%s' in %s; expected one of %s",
					 v->u.text, field, ddbc_region_list());
		return false;
	}
	*out = ddbc_load_name_of(L, v);
	return true;
}

static void load_replicas(loader *L, const ddbc_node *m, ddbc_table_settings *s)
{
	size_t before = L->d->n;
	const ddbc_node *v = ddbc_node_get(m, "replicas");
	if (v && ddbc_load_expect_kind(L, v, DDBC_NODE_SEQ, "replicas")) {
		s->replicas_loc = v->loc;
		s->replicas = ddbc_arena_array(L->arena, v->n + 1, sizeof(ddbc_name));
		for (size_t i = 0; i < v->n; i++) {
			ddbc_name r;
			if (!region_of(L, v->u.items[i], "replicas", &r))
				continue;
			bool twice = false;
			for (size_t k = 0; k < s->nreplicas && !twice; k++)
				twice = !strcmp(s->replicas[k].s, r.s);
			if (twice)
				ddbc_load_schema(L, r.loc, "Region '%s' is listed twice in replicas; "
					       "remove one", r.s);
			else
				s->replicas[s->nreplicas++] = r;
		}
	}
	static const char *const modes[] = { "eventual", "strong" };
	size_t mode;
	const ddbc_node *c = ddbc_node_get(m, "consistency");
	/* Whether replicas: is missing or consistency: unread is only known
	 * when no unknown field of the table may be it misspelt. */
	bool replicas_read = L->d->n == before;
	if (ddbc_load_get_word(L, m, "consistency", modes, countof(modes), &mode)) {
		s->strong = mode == 1;
		s->consistency_loc = c->loc;
		if (!v && !s->regions_incomplete)
			ddbc_load_schema(L, c->loc, "'consistency' is a global table's; add "
				       "'replicas:' with its Regions or remove it");
	}
	bool consistency_read = L->d->n == before && replicas_read;
	const ddbc_node *w = ddbc_node_get(m, "witness");
	if (w && region_of(L, w, "witness", &s->witness) && !s->strong) {
		if (consistency_read && !s->regions_incomplete)
			ddbc_load_schema(L, w->loc, "'witness' serves only a multi-Region strongly "
				       "consistent table; add 'consistency: strong' or remove it");
		s->witness.s = NULL;
	}
	s->regions_incomplete |= L->d->n > before;
}

static void load_sse(loader *L, const ddbc_node *v, ddbc_table_settings *s)
{
	static const char *const fields[] = { "kms_key" };
	if (!v)
		return;
	s->sse_loc = v->loc;
	if (!ddbc_load_expect_kind(L, v, DDBC_NODE_MAP, "sse"))
		return;
	ddbc_load_check_known(L, v, "sse", fields, countof(fields));
	s->has_sse = true;
	s->kms_key = ddbc_load_get_name(L, v, "kms_key");
}

static void load_tags(loader *L, const ddbc_node *v, ddbc_table_settings *s)
{
	if (!v)
		return;
	s->tags_loc = v->loc;
	if (!ddbc_load_expect_kind(L, v, DDBC_NODE_MAP, "tags"))
		return;
	s->tags = ddbc_arena_array(L->arena, v->n + 1, sizeof(ddbc_tag));
	for (size_t i = 0; i < v->n; i++) {
		const ddbc_pair *p = &v->u.pairs[i];
		if (!ddbc_load_text_node(L, p->value, p->key->u.text))
			continue;
		ddbc_tag *t = &s->tags[s->ntags++];
		t->key = ddbc_load_name_of(L, p->key);
		t->value = ddbc_load_name_of(L, p->value).s;
	}
}

/* path as written, relative to the design's directory (the working
 * directory for standard input). */
static char *policy_path(loader *L, const char *path)
{
	const char *design = L->design->src ? L->design->src->name : "-";
	const char *slash = strrchr(design, '/');
	strbuf out = STRBUF_INIT;
	if (path[0] != '/' && slash && strcmp(design, "-"))
		ddbc_strbuf_add(&out, design, (size_t)(slash - design) + 1);
	ddbc_strbuf_addstr(&out, path);
	return ddbc_strbuf_detach(&out);
}

/* The policy document read from file, in the arena; NULL with a finding.
 * It goes through the reader of files that inputs name: a regular file
 * only (a FIFO cannot hang the run), of at most 1 MiB, with no NUL byte;
 * the resource-policy-size rule then measures it against DynamoDB's 20 KB. */
static char *read_policy(loader *L, const ddbc_node *v, size_t *len)
{
	char *path = policy_path(L, v->u.text);
	char *why = NULL;
	ddbc_source *f = ddbc_source_read_bounded(path, (size_t)1 << 20, &why);
	if (!f) {
		ddbc_load_schema(L, v->loc, "cannot read resource_policy file '%s': %s; give the "
			       "path of a JSON policy document, relative to the design", path,
			       why ? why : strerror(errno));
		free(why);
		free(path);
		return NULL;
	}
	free(path);
	*len = f->len;
	char *out = ddbc_arena_strndup(L->arena, f->text, f->len);
	ddbc_source_free(f);
	return out;
}

/* `resource_policy:` inline JSON (a string that starts with '{') or the
 * path of a file holding it; either must be a JSON object. Its size is
 * resource-policy-size's to judge, so an oversized one is kept. */
static void load_policy(loader *L, const ddbc_node *v, ddbc_table_settings *s)
{
	if (!v || !ddbc_load_text_node(L, v, "resource_policy"))
		return;
	const char *text = v->u.text;
	while (*text == ' ' || *text == '\t' || *text == '\n')
		text++;
	size_t len = 0;
	const char *doc;
	if (*text == '{') {
		doc = ddbc_arena_strndup(L->arena, v->u.text, v->n);
		len = v->n;
	} else {
		doc = read_policy(L, v, &len);
		if (!doc)
			return;
		s->policy_file = ddbc_arena_strndup(L->arena, v->u.text, v->n);
	}
	json_error_t err;
	json_t *j = json_loadb(doc, len, 0, &err);
	bool object = j && json_is_object(j);
	json_decref(j);
	if (!object) {
		ddbc_load_schema(L, v->loc, "resource_policy %s is not a JSON object%s%s; write "
			       "an IAM policy document such as {\"Version\": \"2012-10-17\", "
			       "\"Statement\": [...]}", s->policy_file ? "file" : "text",
			       j ? "" : ": ", j ? "" : err.text);
		s->policy_file = NULL;
		return;
	}
	s->policy = doc;
	s->policy_bytes = len;
	s->policy_loc = v->loc;
}

void ddbc_load_table_settings(loader *L, const ddbc_node *m, ddbc_table *t)
{
	static const char *const streams[] = { "keys_only", "new_image", "old_image",
					       "new_and_old_images" };
	static const char *const insights[] = { "all", "throttled" };
	ddbc_table_settings *s = &t->settings;
	size_t w;
	load_pitr(L, ddbc_node_get(m, "pitr"), s);
	s->has_deletion_protection = ddbc_load_get_bool(L, m, "deletion_protection",
							&s->deletion_protection,
							&s->deletion_protection_loc);
	if (ddbc_load_get_word(L, m, "stream", streams, countof(streams), &w)) {
		s->stream = (ddbc_stream)(w + DDBC_STREAM_KEYS_ONLY);
		s->stream_loc = ddbc_node_get(m, "stream")->loc;
	}
	load_throughput(L, ddbc_node_get(m, "warm_throughput"), "warm_throughput", TABLE_QUOTA,
			&s->warm);
	load_throughput(L, ddbc_node_get(m, "on_demand_max"), "on_demand_max", LLONG_MAX,
			&s->on_demand_max);
	if (s->on_demand_max.set && t->billing == DDBC_BILLING_PROVISIONED)
		ddbc_load_schema(L, s->on_demand_max.loc, "'on_demand_max' limits an on-demand "
			       "table, but '%s' has provisioned billing; remove it or its "
			       "'billing: provisioned'", t->name.s);
	if (ddbc_load_get_word(L, m, "contributor_insights", insights, countof(insights), &w)) {
		s->insights = w ? DDBC_INSIGHTS_THROTTLED : DDBC_INSIGHTS_ALL;
		s->insights_loc = ddbc_node_get(m, "contributor_insights")->loc;
	}
	load_replicas(L, m, s);
	load_sse(L, ddbc_node_get(m, "sse"), s);
	load_tags(L, ddbc_node_get(m, "tags"), s);
	load_policy(L, ddbc_node_get(m, "resource_policy"), s);
}
