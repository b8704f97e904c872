/* doc_write.c - the documentation's structure, from the derived model
 *
 * One pass over the design: the title and description, a table of
 * contents, per table its indexes and index map and per entity the
 * attribute table of 「保守しやすいDynamoDBのドキュメントと設計」 and example
 * items, then the access patterns.
 * Every heading's id is computed first (the contents link to all of them),
 * in document order, the way GitHub numbers repeated ids.
 */
#include "emit/doc_writer.h"
#include "emit/doc_diagram.h"
#include "emit/doc_escape.h"
#include "emit/doc_json.h"
#include "emit/doc_labels.h"
#include "emit/doc_request.h"
#include "emit/doc_slug.h"
#include "emit/doc_views.h"
#include "emit/doc_capacity.h"
#include "model/request.h"
#include "model/semantics.h"
#include "util/xalloc.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- ids ------------------------------------------------------------------------------- */

/* The id of a heading "LABEL `name`" (its text is "LABEL name"). */
static const char *named_id(writer *w, const char *label, const char *name)
{
	strbuf heading = STRBUF_INIT;
	ddbc_strbuf_addf(&heading, "%s %s", label, name ? name : "");
	for (size_t i = 0; i < heading.len; i++)
		if (heading.buf[i] == '\n' || heading.buf[i] == '\r')
			heading.buf[i] = ' ';
	const char *id = ddbc_slug(&w->slugs, heading.buf, heading.len);
	ddbc_strbuf_release(&heading);
	return id;
}

static const char *plain_id(writer *w, const char *label)
{
	return ddbc_slug(&w->slugs, label, strlen(label));
}


static bool has_orphans(const ddbc_design *g)
{
	for (size_t i = 0; i < g->nentities; i++)
		if (!g->entities[i].table)
			return true;
	return false;
}

static void table_ids(writer *w)
{
	const ddbc_design *g = w->g;
	ids *id = &w->id;
	for (size_t i = 0; i < g->ntables; i++) {
		const ddbc_table *t = &g->tables[i];
		id->table[i] = named_id(w, w->L->table, t->name.s);
		id->indexes[i] = plain_id(w, w->L->indexes);
		id->map[i] = plain_id(w, w->L->index_map);
		id->views[i] = plain_id(w, w->L->views);
		id->view[i] = ddbc_xcalloc(t->nindexes + 1, sizeof(char *));
		for (size_t s = 0; s < t->nindexes; s++)
			id->view[i][s] = named_id(w, w->L->view, t->indexes[s]->name.s);
		for (size_t k = 0; k < t->nentities; k++)
			id->entity[entity_no(w, t->entities[k])] =
				named_id(w, w->L->entity, t->entities[k]->name.s);
	}
}

/* The group of pattern p in ids.by_table: its table's, or the last. */
static size_t group_of(const writer *w, const ddbc_pattern *p)
{
	return p->table ? table_no(w, p->table) : w->g->ntables;
}

/* ids.by_table: a counting sort of the patterns by table, stable. */
static void group_patterns(writer *w)
{
	const ddbc_design *g = w->g;
	ids *id = &w->id;
	size_t *at = ddbc_xcalloc(g->ntables + 2, sizeof(size_t));
	for (size_t i = 0; i < g->npatterns; i++)
		at[group_of(w, &g->patterns[i]) + 1]++;
	for (size_t k = 0; k <= g->ntables; k++)
		at[k + 1] += at[k];
	size_t *next = ddbc_xmalloc((g->ntables + 1) * sizeof(size_t));
	memcpy(next, at, (g->ntables + 1) * sizeof(size_t));
	id->by_table = ddbc_xmalloc((g->npatterns + 1) * sizeof(size_t));
	for (size_t i = 0; i < g->npatterns; i++)
		id->by_table[next[group_of(w, &g->patterns[i])]++] = i;
	free(next);
	id->by_table_at = at;
}

static void assign_ids(writer *w)
{
	const ddbc_design *g = w->g;
	ids *id = &w->id;
	id->table = ddbc_xcalloc(g->ntables + 1, sizeof(char *));
	id->indexes = ddbc_xcalloc(g->ntables + 1, sizeof(char *));
	id->map = ddbc_xcalloc(g->ntables + 1, sizeof(char *));
	id->views = ddbc_xcalloc(g->ntables + 1, sizeof(char *));
	id->view = ddbc_xcalloc(g->ntables + 1, sizeof(char **));
	id->entity = ddbc_xcalloc(g->nentities + 1, sizeof(char *));
	id->pattern = ddbc_xcalloc(g->npatterns + 1, sizeof(char *));
	id->contents = plain_id(w, w->L->contents);
	if (g->ntables)
		id->diagram = plain_id(w, w->L->diagram);
	table_ids(w);
	if (has_orphans(g)) {
		id->orphans = plain_id(w, w->L->orphans);
		for (size_t i = 0; i < g->nentities; i++)
			if (!g->entities[i].table)
				id->entity[i] = named_id(w, w->L->entity, g->entities[i].name.s);
	}
	if (g->npatterns) {
		id->patterns = plain_id(w, w->L->patterns);
		for (size_t i = 0; i < g->npatterns; i++)
			id->pattern[i] = named_id(w, w->L->pattern, g->patterns[i].id.s);
	}
	group_patterns(w);
}

static void free_ids(ids *id, size_t ntables)
{
	for (size_t i = 0; i < ntables; i++)
		free(id->view[i]);
	free(id->views);
	free(id->view);
	free(id->table);
	free(id->indexes);
	free(id->map);
	free(id->entity);
	free(id->pattern);
	free(id->by_table);
	free(id->by_table_at);
}

/* ---- title and contents ---------------------------------------------------------------- */

static void write_title(writer *w, ddbc_doc_desc *desc)
{
	const ddbc_design *g = w->g;
	w->be->heading(w->o, 1, DDBC_DOC_TITLE, w->id.title);
	text(w, g->name.s ? g->name.s : w->L->title_suffix);
	w->be->heading_end(w->o, 1, DDBC_DOC_TITLE, w->id.title);
	if (desc)
		w->be->description(w->o, desc);
	flush(w);
}

static void toc_entity(writer *w, const ddbc_entity *e)
{
	flush(w);
	w->be->item(w->o, 1);
	link_to(w, e->table);
	link(w, w->L->entity, e->name.s, w->id.entity[entity_no(w, e)]);
}

/* "- [Label](#id)" for a section of ddbc's own. */
static void toc_section(writer *w, const char *label, const char *id)
{
	w->be->item(w->o, 0);
	link_to(w, NULL);
	w->be->link(w->o, id);
	words(w, label);
	w->be->link_end(w->o, id);
	w->o->link_file = NULL;
}

/* The access patterns of table t (NULL: of no table), under it. */
static void toc_patterns(writer *w, const ddbc_table *t)
{
	size_t group = t ? table_no(w, t) : w->g->ntables;
	for (size_t k = w->id.by_table_at[group]; k < w->id.by_table_at[group + 1]; k++) {
		size_t i = w->id.by_table[k];
		flush(w);
		w->be->item(w->o, 1);
		link_to(w, t);
		link(w, w->L->pattern, w->g->patterns[i].id.s, w->id.pattern[i]);
	}
}

static void write_contents(writer *w)
{
	const ddbc_design *g = w->g;
	const ddbc_doc_labels *L = w->L;
	w->be->nav(w->o);
	plain_heading(w, 2, DDBC_DOC_CONTENTS, w->id.contents, L->contents);
	if (w->page && w->page->table)
		toc_section(w, L->all_tables, w->id.contents);
	for (size_t i = 0; i < g->ntables; i++) {
		const ddbc_table *t = &g->tables[i];
		if (w->page && w->page->table && w->page->table != t)
			continue;
		w->be->item(w->o, 0);
		link_to(w, t);
		link(w, L->table, t->name.s, w->id.table[i]);
		/* The index page lists each table's sections too, on its page:
		 * the way in to every entity and pattern of the site. */
		flush(w);
		w->be->item(w->o, 1);
		link_to(w, t);
		link(w, NULL, L->views, w->id.views[i]);
		for (size_t k = 0; k < t->nentities; k++)
			toc_entity(w, t->entities[k]);
		toc_patterns(w, t);
	}
	if (w->page && w->page->table) {
		w->be->list_end(w->o);
		w->be->nav_end(w->o);
		flush(w);
		return;
	}
	if (w->id.orphans) {
		toc_section(w, L->orphans, w->id.orphans);
		for (size_t i = 0; i < g->nentities; i++)
			if (!g->entities[i].table)
				toc_entity(w, &g->entities[i]);
	}
	if (w->id.patterns && !w->page) {
		toc_section(w, L->patterns, w->id.patterns);
		toc_patterns(w, NULL);
	}
	w->be->list_end(w->o);
	w->be->nav_end(w->o);
	flush(w);
}

/* ---- tables: keys, indexes, index map ------------------------------------------------------- */

/* "PK (String)", or the names of a multi-attribute key in order. */
static void put_key(writer *w, const ddbc_table *t, const ddbc_name *names, size_t n)
{
	if (!n) {
		words(w, w->L->no_key);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (i)
			words(w, w->L->sep);
		text(w, names[i].s);
		ddbc_type ty = names[i].s ? ddbc_table_key_type(t, names[i].s) : DDBC_TYPE_NONE;
		if (ty != DDBC_TYPE_NONE)
			ddbc_doc_wordsf(w, "%s%s%s", w->L->open, ddbc_type_long(ty), w->L->close);
	}
}

static void put_projection(writer *w, const ddbc_index *ix)
{
	if (ix->kind == DDBC_INDEX_PRIMARY) {
		words(w, w->L->no_key);
	} else if (ix->projection == DDBC_PROJ_ALL) {
		words(w, "ALL");
	} else if (ix->projection == DDBC_PROJ_KEYS_ONLY) {
		text(w, "KEYS_ONLY");
	} else {
		words(w, "INCLUDE: ");
		for (size_t i = 0; i < ix->ninclude; i++) {
			if (i)
				words(w, w->L->sep);
			text(w, ix->include[i].s);
		}
	}
}

/* "read 5, write 2" in parentheses. */
static void put_capacity(writer *w, const ddbc_capacity *c)
{
	words(w, w->L->open);
	ddbc_doc_wordsf(w, w->L->capacity, c->read, c->write);
	words(w, w->L->close);
}

/* "(read 15000, write 6000)": the figures of th that are given. */
static void put_throughput(writer *w, const ddbc_throughput *th)
{
	words(w, w->L->open);
	if (th->read)
		ddbc_doc_wordsf(w, w->L->s_read, th->read);
	if (th->read && th->write)
		words(w, w->L->sep);
	if (th->write)
		ddbc_doc_wordsf(w, w->L->s_write, th->write);
	words(w, w->L->close);
}

/* A GSI's warm and maximum throughput and Contributor Insights, after its kind. */
static void put_index_throughput(writer *w, const ddbc_index *ix)
{
	if (ix->warm.set) {
		words(w, " · ");
		words(w, w->L->s_warm);
		put_throughput(w, &ix->warm);
	}
	if (ix->on_demand_max.set) {
		words(w, " · ");
		words(w, w->L->s_max);
		put_throughput(w, &ix->on_demand_max);
	}
	if (ix->insights) {
		words(w, " · ");
		words(w, w->L->s_insights);
		words(w, w->L->open);
		words(w, w->L->s_insights_mode[ix->insights]);
		words(w, w->L->close);
	}
}

static void index_row(writer *w, const ddbc_table *t, const ddbc_index *ix)
{
	w->be->row(w->o);
	cell(w);
	text(w, ix->name.s);
	cell_end(w);
	cell(w);
	words(w, w->L->kind[ix->kind]);
	if (ix->capacity.set)
		put_capacity(w, &ix->capacity);
	put_index_throughput(w, ix);
	cell_end(w);
	cell(w);
	put_key(w, t, ix->pk, ix->npk);
	cell_end(w);
	cell(w);
	put_key(w, t, ix->sk, ix->nsk);
	cell_end(w);
	cell(w);
	put_projection(w, ix);
	cell_end(w);
	cell(w);
	if (ix->kind != DDBC_INDEX_PRIMARY)
		w->be->span(w->o, ix->description, DDBC_SPAN_MARKDOWN);
	cell_end(w);
	row_end(w);
}

/* "Billing: on demand · TTL: `expiresAt`" */
static void table_facts(writer *w, const ddbc_table *t)
{
	const ddbc_doc_labels *L = w->L;
	w->be->para(w->o);
	w->be->strong(w->o, L->billing);
	words(w, ": ");
	if (t->billing == DDBC_BILLING_PROVISIONED) {
		words(w, L->provisioned);
		if (t->capacity.set)
			put_capacity(w, &t->capacity);
	} else {
		words(w, L->on_demand);
	}
	if (t->ttl.s) {
		words(w, " · ");
		w->be->strong(w->o, L->ttl);
		words(w, ": ");
		code(w, t->ttl.s);
	}
	w->be->para_end(w->o);
}

/* Starts the next item of the settings line: the label first, the
 * separator before every item but the first. */
static void setting(writer *w, bool *first, const char *label)
{
	if (*first) {
		w->be->para(w->o);
		w->be->strong(w->o, w->L->settings);
		words(w, ": ");
	} else {
		words(w, " · ");
	}
	*first = false;
	words(w, label);
}

static void put_replicas(writer *w, const ddbc_table_settings *s, bool *first)
{
	const ddbc_doc_labels *L = w->L;
	setting(w, first, L->s_replicas);
	words(w, " ");
	for (size_t i = 0; i < s->nreplicas; i++) {
		if (i)
			words(w, L->sep);
		code(w, s->replicas[i].s);
	}
	words(w, L->open);
	words(w, s->strong ? L->s_strong : L->s_eventual);
	if (s->witness.s) {
		words(w, L->sep);
		words(w, L->s_witness);
		words(w, " ");
		code(w, s->witness.s);
	}
	words(w, L->close);
}

/* "Settings: point-in-time recovery (14 days) · deletion protection · ...":
 * the table's settings (SPEC 8.7) as written; nothing when it has none. */
static void table_settings(writer *w, const ddbc_table *t)
{
	const ddbc_doc_labels *L = w->L;
	const ddbc_table_settings *s = &t->settings;
	bool first = true;
	if (s->has_pitr) {
		setting(w, &first, L->s_pitr);
		if (!s->pitr) {
			words(w, " ");
			words(w, L->s_off);
		} else if (s->recovery_days) {
			words(w, L->open);
			ddbc_doc_wordsf(w, L->s_days, s->recovery_days);
			words(w, L->close);
		}
	}
	if (s->has_deletion_protection) {
		setting(w, &first, L->s_deletion);
		if (!s->deletion_protection) {
			words(w, " ");
			words(w, L->s_off);
		}
	}
	if (s->stream) {
		setting(w, &first, L->s_stream);
		words(w, " ");
		code(w, ddbc_stream_view_type(s->stream));
	}
	if (s->warm.set) {
		setting(w, &first, L->s_warm);
		put_throughput(w, &s->warm);
	}
	if (s->on_demand_max.set) {
		setting(w, &first, L->s_max);
		put_throughput(w, &s->on_demand_max);
	}
	if (s->insights) {
		setting(w, &first, L->s_insights);
		words(w, L->open);
		words(w, L->s_insights_mode[s->insights]);
		words(w, L->close);
	}
	if (s->nreplicas)
		put_replicas(w, s, &first);
	if (s->has_sse) {
		setting(w, &first, L->s_kms);
		if (s->kms_key.s)
			words(w, " ");
		if (s->kms_key.s) {
			code(w, s->kms_key.s);
		} else {
			words(w, L->open);
			words(w, L->s_kms_managed);
			words(w, L->close);
		}
	}
	if (s->ntags) {
		setting(w, &first, L->s_tags);
		words(w, " ");
		for (size_t i = 0; i < s->ntags; i++) {
			if (i)
				words(w, L->sep);
			code(w, s->tags[i].key.s);
			words(w, "=");
			text(w, s->tags[i].value);
		}
	}
	if (s->policy) {
		setting(w, &first, L->s_policy);
		words(w, L->open);
		if (s->policy_file) {
			code(w, s->policy_file);
			words(w, L->sep);
		}
		ddbc_doc_wordsf(w, L->s_bytes, s->policy_bytes);
		words(w, L->close);
	}
	if (!first)
		w->be->para_end(w->o);
}

/* The value an entity writes into key attribute name: its template, or
 * "{name}" for the attribute's own value. */
static void put_key_value(writer *w, const ddbc_entity *e, const char *name)
{
	const ddbc_attr *a = name ? ddbc_entity_attr(e, name) : NULL;
	if (a && a->template.s) {
		code(w, a->template.s);
		return;
	}
	strbuf value = STRBUF_INIT;
	ddbc_strbuf_addf(&value, "{%s}", name ? name : "");
	code(w, value.buf);
	ddbc_strbuf_release(&value);
}

static void map_cell(writer *w, const ddbc_entity *e, const ddbc_index *ix)
{
	if (!e->in_index || !e->in_index[ix->slot]) {
		words(w, "—");
		return;
	}
	for (size_t i = 0; i < ix->npk + ix->nsk; i++) {
		if (i)
			words(w, i == ix->npk ? " · " : ", ");
		put_key_value(w, e, ddbc_index_key(ix, i));
	}
	/* A sparse index: only the items that have its optional keys. */
	const ddbc_membership *m = ddbc_entity_membership(e, ix);
	if (!m->nby)
		return;
	words(w, w->L->open);
	words(w, w->L->map_have);
	for (uint32_t i = 0; i < m->nby; i++) {
		if (i)
			words(w, w->L->sep);
		text(w, m->by[i]->name.s);
	}
	words(w, w->L->map_have_end);
	words(w, w->L->close);
}

static void map_header(writer *w, const ddbc_table *t)
{
	w->be->table(w->o, DDBC_DOC_MAP_TABLE, t->nindexes + 1);
	w->be->row(w->o);
	cell(w);
	words(w, w->L->map_first);
	cell_end(w);
	for (size_t s = 0; s < t->nindexes; s++) {
		cell(w);
		text(w, t->indexes[s]->name.s);
		cell_end(w);
	}
	w->be->row_end(w->o);
}

static void write_index_map(writer *w, const ddbc_table *t)
{
	plain_heading(w, 3, DDBC_DOC_INDEX_MAP, w->id.map[table_no(w, t)], w->L->index_map);
	if (!t->nentities) {
		paragraph(w, w->L->no_entities);
		return;
	}
	paragraph(w, w->L->map_intro);
	map_header(w, t);
	for (size_t k = 0; k < t->nentities; k++) {
		const ddbc_entity *e = t->entities[k];
		w->be->row(w->o);
		cell(w);
		link(w, NULL, e->name.s, w->id.entity[entity_no(w, e)]);
		cell_end(w);
		for (size_t s = 0; s < t->nindexes; s++) {
			cell(w);
			map_cell(w, e, t->indexes[s]);
			cell_end(w);
		}
		row_end(w);
	}
	w->be->table_end(w->o);
}

/* ---- item views ---------------------------------------------------------------------- */


static void write_views(writer *w, const ddbc_table *t)
{
	size_t no = table_no(w, t);
	plain_heading(w, 3, DDBC_DOC_VIEW, w->id.views[no], w->L->views);
	if (!t->nentities) {
		paragraph(w, w->L->no_entities);
		return;
	}
	paragraph(w, w->L->views_intro);
	ddbc_view_out v = view_out(w);
	ddbc_view_legend(&v, t);
	for (size_t s = 0; s < t->nindexes; s++) {
		const ddbc_index *ix = t->indexes[s];
		named_heading(w, 4, DDBC_DOC_VIEW, w->id.view[no][s], w->L->view, ix->name.s);
		const ddbc_view *view = ddbc_views_get(w->views, ix);
		size_t n;
		ddbc_view_items(view, &n);
		if (n)
			ddbc_view_write(&v, view, NULL, n, NULL);
		else
			paragraph(w, w->L->view_empty);
	}
	/* Only the patterns' section, at the end, reads views again: the
	 * others need not stay for the rest of the document. */
	ddbc_views_release(w->views, t);
}

/* ---- entities -------------------------------------------------------------------------- */

/* "sort key", or "sort key 2/3" in a multi-attribute key. */
static void put_role(writer *w, const ddbc_attr *a, const ddbc_index *ix, ddbc_role role)
{
	words(w, w->L->role[role]);
	const ddbc_name *names = role == DDBC_ROLE_PARTITION_KEY ? ix->pk : ix->sk;
	size_t n = role == DDBC_ROLE_PARTITION_KEY ? ix->npk : ix->nsk;
	if (role == DDBC_ROLE_PROJECTED || n < 2)
		return;
	for (size_t i = 0; i < n; i++)
		if (names[i].s && !strcmp(names[i].s, a->name.s))
			ddbc_doc_wordsf(w, " %zu/%zu", i + 1, n);
}

/* "GSI1 (partition key), GSI2 (projected)": the derived roles. */
static void inclusion_cell(writer *w, const ddbc_attr *a, ddbc_index_kind kind)
{
	const ddbc_table *t = a->entity->table;
	cell(w);
	bool first = true;
	const uint8_t *roles = ddbc_attr_roles(a);
	for (size_t s = 0; t && roles && s < t->nindexes; s++) {
		const ddbc_index *ix = t->indexes[s];
		if (ix->kind != kind || roles[s] == DDBC_ROLE_NONE)
			continue;
		if (!first)
			words(w, w->L->sep);
		first = false;
		text(w, ix->name.s);
		words(w, w->L->open);
		put_role(w, a, ix, roles[s]);
		words(w, w->L->close);
	}
	cell_end(w);
}

/* Format: whether items hold it, the template, then the free-text
 * format, then the enum. */
static void format_cell(writer *w, const ddbc_attr *a)
{
	const char *sep = "";
	cell(w);
	if (!ddbc_attr_stored(a)) {
		words(w, w->L->not_stored);
		sep = "; ";
	}
	if (a->template.s && *a->template.s) {
		code(w, a->template.s);
		sep = "; ";
	}
	if (a->text->format && *a->text->format) {
		words(w, sep);
		text(w, a->text->format);
		sep = "; ";
	}
	if (a->more->nenum) {
		words(w, sep);
		for (size_t i = 0; i < a->more->nenum; i++) {
			if (i)
				text(w, " | ");   /* shown as a '|', escaped in a cell */
			scalar_code(w, a->more->enum_values[i]);
		}
	}
	cell_end(w);
}

static void attr_row(writer *w, const ddbc_attr *a)
{
	w->be->row(w->o);
	cell(w);
	text(w, a->name.s);
	cell_end(w);
	cell(w);
	words(w, a->type != DDBC_TYPE_NONE ? ddbc_type_long(a->type) : "");
	if (ddbc_attr_required(a, NULL)) {
		words(w, w->L->open);
		words(w, w->L->d_required);
		words(w, w->L->close);
	}
	cell_end(w);
	cell(w);
	w->be->span(w->o, a->text->description, DDBC_SPAN_MARKDOWN);
	cell_end(w);
	format_cell(w, a);
	inclusion_cell(w, a, DDBC_INDEX_GSI);
	inclusion_cell(w, a, DDBC_INDEX_LSI);
	row_end(w);
}

/* An example item longer than this many lines is folded, so that the
 * page shows the entity's attributes and items without a screen of JSON. */
enum { FOLD_LINES = 12 };

static void example_block(writer *w, size_t no, const char *json)
{
	size_t lines = 1;
	for (const char *p = json; (p = strchr(p, '\n')); p++)
		lines++;
	if (lines <= FOLD_LINES) {
		w->be->code_block(w->o, "json", json);
		return;
	}
	strbuf summary = STRBUF_INIT;
	ddbc_strbuf_addf(&summary, w->L->example_n, no + 1, lines);
	w->be->fold(w->o, summary.buf);
	w->be->code_block(w->o, "json", json);
	w->be->fold_end(w->o);
	ddbc_strbuf_release(&summary);
}

static void write_entity(writer *w, const ddbc_entity *e)
{
	named_heading(w, 3, DDBC_DOC_ENTITY, w->id.entity[entity_no(w, e)], w->L->entity,
		      e->name.s);
	paragraph(w, e->description);
	table_header(w, DDBC_DOC_ATTR_TABLE, w->L->attr_cols, 6);
	for (size_t i = 0; i < e->nattrs; i++)
		attr_row(w, &e->attrs[i]);
	w->be->table_end(w->o);
	if (!e->nexamples) {
		ddbc_doc_entity_capacity(w, e);
		return;
	}
	paragraph(w, e->nexamples > 1 ? w->L->examples : w->L->example);
	for (size_t i = 0; i < e->nexamples; i++) {
		char *json = ddbc_doc_example_json(e->examples[i]);
		if (json)
			example_block(w, i, json);
		free(json);
		flush(w);
	}
	ddbc_doc_entity_capacity(w, e);
}

static void write_table(writer *w, const ddbc_table *t)
{
	size_t no = table_no(w, t);
	named_heading(w, 2, DDBC_DOC_TABLE, w->id.table[no], w->L->table, t->name.s);
	paragraph(w, t->description);
	table_facts(w, t);
	table_settings(w, t);
	ddbc_doc_table_capacity(w, t);
	plain_heading(w, 3, DDBC_DOC_INDEXES, w->id.indexes[no], w->L->indexes);
	table_header(w, DDBC_DOC_INDEX_TABLE, w->L->index_cols, 6);
	for (size_t s = 0; s < t->nindexes; s++)
		index_row(w, t, t->indexes[s]);
	w->be->table_end(w->o);
	write_index_map(w, t);
	write_views(w, t);
	for (size_t k = 0; k < t->nentities; k++)
		write_entity(w, t->entities[k]);
}

/* ---- the document ---------------------------------------------------------------------- */

static void write_orphans(writer *w)
{
	if (!w->id.orphans)
		return;
	plain_heading(w, 2, DDBC_DOC_OTHER, w->id.orphans, w->L->orphans);
	for (size_t i = 0; i < w->g->nentities; i++)
		if (!w->g->entities[i].table)
			write_entity(w, &w->g->entities[i]);
}

/* The address of entity e's section, for the diagram's links: on this
 * page, or on its table's page of a site. */
typedef struct entity_links {
	writer *w;
	strbuf href;
} entity_links;

static const char *entity_href(void *ctx, const ddbc_entity *e)
{
	entity_links *el = ctx;
	writer *w = el->w;
	ddbc_strbuf_reset(&el->href);
	if (w->page && e->table && !on_page(w, e->table))
		ddbc_strbuf_addstr(&el->href, w->files[e->table - w->g->tables]);
	ddbc_strbuf_addf(&el->href, "#%s", w->id.entity[entity_no(w, e)]);
	return el->href.buf;
}

static void write_diagram(writer *w, const ddbc_table *only)
{
	entity_links el = { w, STRBUF_INIT };
	ddbc_diagram_links links = { entity_href, &el };
	plain_heading(w, 2, DDBC_DOC_DIAGRAM, w->id.diagram, w->L->diagram);
	w->be->diagram(w->o, only ? only : w->g->tables, only ? 1 : w->g->ntables, w->L, &links);
	ddbc_strbuf_release(&el.href);
	flush(w);
}

static void write_body(writer *w, ddbc_doc_desc *desc)
{
	const ddbc_design *g = w->g;
	const ddbc_table *only = w->page ? w->page->table : NULL;
	write_title(w, only ? NULL : desc);
	write_contents(w);
	if (w->id.diagram)
		write_diagram(w, only);
	for (size_t i = 0; i < g->ntables; i++)
		if (!w->page || only == &g->tables[i])
			write_table(w, &g->tables[i]);
	if (!only)
		write_orphans(w);
	ddbc_doc_write_patterns(w);
}

char *ddbc_doc_page_file(const ddbc_table *t)
{
	if (!t)
		return ddbc_xstrdup("index.html");
	strbuf file = STRBUF_INIT;
	ddbc_strbuf_addstr(&file, "table-");
	/* DynamoDB's table names are safe in a file name; anything else
	 * (only a design with errors has it) becomes '_'. */
	for (const char *p = t->name.s ? t->name.s : ""; *p; p++)
		ddbc_strbuf_addch(&file, strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					   "0123456789_.-", *p) ? *p : '_');
	ddbc_strbuf_addstr(&file, ".html");
	return ddbc_strbuf_detach(&file);
}

void ddbc_doc_write(const ddbc_doc_backend *be, FILE *file, strbuf *whole,
		    const ddbc_design *g, ddbc_lang_id lang)
{
	ddbc_doc_write_page(be, file, whole, g, lang, NULL);
}

void ddbc_doc_write_page(const ddbc_doc_backend *be, FILE *file, strbuf *whole,
			 const ddbc_design *g, ddbc_lang_id lang, const ddbc_doc_page *page)
{
	ddbc_doc_out o = { .sb = STRBUF_INIT, .file = file, .depth = -1, .heads = STRBUF_INIT };
	writer w = { .be = be, .o = &o, .g = g, .L = ddbc_doc_labels_for(lang), .page = page,
		     .views = ddbc_views_new(g) };
	ddbc_slugger_init(&w.slugs);
	if (page) {
		w.files = ddbc_xcalloc(g->ntables + 1, sizeof(char *));
		for (size_t i = 0; i < g->ntables; i++)
			w.files[i] = ddbc_doc_page_file(&g->tables[i]);
	}

	/* Ids in document order: the title, the description's headings,
	 * then ddbc's own. */
	char *name_line = ddbc_doc_one_line(g->name.s ? g->name.s : "");
	w.id.title = ddbc_slug(&w.slugs, name_line, strlen(name_line));
	free(name_line);
	ddbc_doc_desc desc;
	if (g->description)
		ddbc_doc_desc_parse(&desc, g->description, &w.slugs);
	assign_ids(&w);
	/* Every id is given: a large design's table of them (a slot an
	 * entity, attribute and pattern) need not last the whole page. */
	ddbc_slugger_seal(&w.slugs);

	write_body(&w, g->description ? &desc : NULL);
	if (be->page_end)
		be->page_end(&o);

	if (g->description)
		ddbc_doc_desc_release(&desc);
	free_ids(&w.id, g->ntables);
	ddbc_doc_capacity_release(&w);
	ddbc_views_free(w.views);
	for (size_t i = 0; page && i < g->ntables; i++)
		free(w.files[i]);
	free(w.files);
	ddbc_strbuf_release(&o.heads);
	ddbc_slugger_release(&w.slugs);
	if (file) {
		fwrite(ddbc_strbuf_str(&o.sb), 1, o.sb.len, file);
		ddbc_strbuf_release(&o.sb);
	} else {
		*whole = o.sb;
	}
}

char *ddbc_doc_title(const ddbc_design *g, ddbc_lang_id lang)
{
	strbuf title = STRBUF_INIT;
	ddbc_strbuf_addf(&title, "%s — %s", g->name.s ? g->name.s : "",
		    ddbc_doc_labels_for(lang)->title_suffix);
	return ddbc_strbuf_detach(&title);
}
