/* semantics.h - the derived model every rule and output reads
 *
 * Run once per design after loading: parses every template and links its
 * placeholders, finds template cycles, lists each table's indexes and
 * entities, derives each attribute's role in each index (partition/sort
 * key, projected, absent), each entity's index membership (sparse
 * indexes), and the entities each access pattern's key condition can
 * return. It reports nothing: the rules turn what it derived into findings.
 * After it, the model is read-only.
 */
#ifndef DDBC_SEMANTICS_H
#define DDBC_SEMANTICS_H

#include "model/model.h"
#include "util/strbuf.h"

void ddbc_semantics(ddbc_design *design);

/* The strings attribute a can hold as a key: its template expanded through
 * templated placeholders, else its type's values. Appends to out. */
void ddbc_attr_lang(const ddbc_attr *a, ddbc_lang *out);
/* The language semantics.c keeps for key attribute a (a->lang); the empty
 * language, of no run, for an attribute that is no key. */
const ddbc_lang *ddbc_attr_key_lang(const ddbc_attr *a);

/* Whether a is a constant attribute of its entity in table t: stored, no
 * key attribute of t (the key languages weigh those already), and of one
 * value only (a template without placeholders, or a one-value enum of a
 * scalar type). check-items and the type guards of `ddbc keys` tell
 * entities apart by them. */
bool ddbc_attr_is_constant(const ddbc_attr *a, const ddbc_table *t);

/* The strings a's template can give for one item, for an item that lacks
 * a key part that is not stored: a placeholder value_of has a value for
 * is that value rendered; one without stands for every value it could
 * hold, as in ddbc_attr_lang. The fixed runs of out point into texts
 * (reset here), which the caller keeps as long as out. Appends to out. */
void ddbc_attr_item_lang(const ddbc_attr *a, ddbc_tvalue_fn *value_of, void *ctx,
			 strbuf *texts, ddbc_lang *out);

/* Whether attribute a (of the entity c is tried on) can hold a value that
 * satisfies condition c, given the design's key delimiter. */
bool ddbc_cond_matches(const ddbc_design *design, const ddbc_key_cond *c, const ddbc_attr *a);

/* The role of attribute a in index ix, derived. */
ddbc_role ddbc_attr_role(const ddbc_attr *a, const ddbc_index *ix);

/* The type a table gives key attribute name: the type of the first entity
 * of the table that defines it; DDBC_TYPE_NONE when none does. */
ddbc_type ddbc_table_key_type(const ddbc_table *t, const char *name);

/* Whether a's entity says its items may lack a: `required: false` written
 * (a templated attribute is otherwise required). On a key attribute of
 * the entity's table it cannot hold (optional-table-key tells) and is
 * read as required. */
bool ddbc_attr_optional(const ddbc_attr *a);

/* Which of e's items index ix holds: all (nby 0), or only those that
 * have the optional key attributes by[] (a sparse index), with the share
 * of the items that cost counts. Meaningful when e->in_index[ix->slot]. */
const ddbc_membership *ddbc_entity_membership(const ddbc_entity *e, const ddbc_index *ix);

/* Whether example item (a packed mapping of e) is in ix: e is in ix and
 * the item has every key attribute of ix (the optional ones of a sparse
 * index among them), as the item views show it. */
bool ddbc_example_in_index(const ddbc_entity *e, const ddbc_index *ix, const ddbc_pval *item);

/* Whether every item of a's entity must hold a: it is a key attribute of
 * the entity's table, it has a template (unless `required: false`), or it
 * says required: true. When
 * it must and why is not NULL, appends the reason to why. The example
 * rule and check-items share this one answer. */
bool ddbc_attr_required(const ddbc_attr *a, strbuf *why);

/* Whether name is a key attribute of ix (partition or sort). */
bool ddbc_index_has_key(const ddbc_index *ix, const char *name);

#endif
