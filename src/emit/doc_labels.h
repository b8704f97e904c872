/* doc_labels.h - the words the documentation writes itself, per language
 *
 * The document's headings, column names and fixed sentences come from one
 * table per language, so a language is added in one place.
 */
#ifndef DDBC_DOC_LABELS_H
#define DDBC_DOC_LABELS_H

#include "emit/emit.h"

/* Every word the document writes itself, per language. The Japanese column
 * names are those of 「保守しやすいDynamoDBのドキュメントと設計」 where it has
 * them (属性名, データ型, 説明). */
typedef struct ddbc_doc_labels {
	const char *title_suffix, *contents, *table, *entity, *pattern, *patterns;
	const char *indexes, *index_map, *orphans;
	const char *attr_cols[6], *index_cols[6], *pattern_cols[6], *map_first;
	const char *kind[3];              /* by ddbc_index_kind */
	const char *role[4];              /* by ddbc_role */
	const char *sep, *open, *close;   /* list separator, parentheses */
	const char *map_intro, *no_entities, *example, *examples;
	/* an index that holds only the entity's items that have its optional
	 * key attributes: before and after their names */
	const char *map_have, *map_have_end;
	const char *billing, *on_demand, *provisioned, *capacity, *ttl;
	const char *d_table, *d_index, *d_operation, *d_key, *d_order, *asc, *desc;
	const char *d_consistent, *yes, *d_returns, *d_condition, *d_entities, *d_params;
	const char *base_table, *no_key;
	const char *not_stored;           /* the Format cell of a `stored: false` attribute */
	/* item views and what an access pattern returns */
	const char *views, *views_intro, *view, *view_entity, *view_attrs, *legend, *view_empty;
	const char *all_tables;
	/* n_entities: printf with one %zu; example_n: with two (number, lines) */
	const char *diagram, *n_entities, *example_n;
	const char *d_request, *d_no_request, *d_items, *d_no_items, *d_required;
	/* capacity (doc_capacity.c): c_items printf with two %s (items, size),
	 * c_reads_pages with one (requests), c_rate with three (rate, on
	 * demand, provisioned), c_largest with one (size), c_month with four
	 * (on demand, provisioned, region, date), c_storage with one (size);
	 * c_bytes is the word of a size under 1 KiB ("740 bytes") */
	const char *d_capacity, *c_reads, *c_reads_pages, *c_writes, *c_items, *c_rate, *c_table;
	const char *c_unknown, *c_bytes;
	const char *d_one_write, *c_largest, *d_month, *c_month, *c_storage;
	/* d_items of a write: what its key addresses among the example items */
	const char *d_items_put, *d_items_update, *d_items_delete;
} ddbc_doc_labels;

/* The labels of lang; static, never NULL. */
const ddbc_doc_labels *ddbc_doc_labels_for(ddbc_lang_id lang);

#endif
