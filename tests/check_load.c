/* check_load.c - input format v1 to the model (load.c, resolve.c)
 *
 * Every field of docs/format.md reaches the model; every structural problem is
 * reported as schema or unresolved-reference at the node it is about, and
 * one run reports all of them.
 */
#include "testutil.h"
#include "model/semantics.h"
#include "util/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const ddbc_pval *node_get(const ddbc_pval *map, const char *key)
{
	const ddbc_pval *v = ddbc_pval_get(map, key);
	ck_assert_msg(v != NULL, "no key '%s'", key);
	return v;
}

static ddbc_entity *entity(const ddbc_design *g, const char *name)
{
	ddbc_entity *e = ddbc_design_entity(g, name);
	ck_assert_msg(e != NULL, "no entity '%s'", name);
	return e;
}

static ddbc_attr *attr(const ddbc_entity *e, const char *name)
{
	ddbc_attr *a = ddbc_entity_attr(e, name);
	ck_assert_msg(a != NULL, "no attribute '%s' in '%s'", name, e->name.s);
	return a;
}

static ddbc_pattern *pattern(const ddbc_design *g, const char *id)
{
	for (size_t i = 0; i < g->npatterns; i++)
		if (!strcmp(g->patterns[i].id.s, id))
			return &g->patterns[i];
	ck_abort_msg("no access pattern '%s'", id);
	return NULL;
}

#define expect_name(nm, text, l, c)                                                        \
	do {                                                                               \
		ddbc_name n_ = (nm);                                                       \
		ck_assert_ptr_nonnull(n_.s);                                               \
		ck_assert_str_eq(n_.s, (text));                                            \
		ck_assert_msg(n_.loc.line == (l) && n_.loc.column == (c),                  \
			      "'%s' at %u:%u, expected %u:%u", n_.s, n_.loc.line,          \
			      n_.loc.column, (unsigned)(l), (unsigned)(c));                 \
	} while (0)

#define expect_loc(lc, l, c)                                                               \
	do {                                                                               \
		ddbc_loc l_ = (lc);                                                        \
		ck_assert_msg(l_.line == (l) && l_.column == (c), "at %u:%u, expected %u:%u", \
			      l_.line, l_.column, (unsigned)(l), (unsigned)(c));           \
	} while (0)

/* ---- every field reaches the model ------------------------------------------------ */

static const char every_field[] = "tests/fixtures/load-every-field.ddb.yaml";

START_TEST(test_every_field_loads_clean)
{
	tu_design t;
	tu_load_file(&t, every_field);
	ck_assert_ptr_nonnull(t.design);
	ck_assert(!t.d.fatal);
	tu_expect_count(&t.d, 0);
	tu_design_free(&t);
}
END_TEST

START_TEST(test_root_fields)
{
	tu_design t;
	tu_load_file(&t, every_field);
	const ddbc_design *g = t.design;
	ck_assert_ptr_eq(g->src, t.src);
	ck_assert_ptr_nonnull(g->root);
	ck_assert_int_eq(g->version, 1);
	expect_name(g->name, "every-field", 3, 7);
	ck_assert_str_eq(g->description, "All of input format v1.\n");
	ck_assert_str_eq(g->key_delimiter, "|");
	expect_loc(g->key_delimiter_loc, 6, 16);

	/* lint.rules: off written as a word and as YAML's false alike. */
	ck_assert_int_eq(g->settings.sev[DDBC_RULE_GENERIC_KEY_NAMES], DDBC_SEV_OFF);
	ck_assert_int_eq(g->settings.sev[DDBC_RULE_RESERVED_WORD], DDBC_SEV_OFF);
	ck_assert_int_eq(g->settings.sev[DDBC_RULE_MISSING_DESCRIPTION], DDBC_SEV_WARNING);
	ck_assert_int_eq(g->settings.sev[DDBC_RULE_HOT_PARTITION], DDBC_SEV_NOTE);
	ck_assert_int_eq(g->settings.sev[DDBC_RULE_PATTERN_SCAN], DDBC_SEV_ERROR);
	ck_assert_int_eq(g->settings.sev[DDBC_RULE_SCHEMA], DDBC_SEV_DEFAULT);

	ck_assert_uint_eq(g->ntables, 2);
	ck_assert_uint_eq(g->nentities, 2);
	ck_assert_uint_eq(g->npatterns, 11);
	/* File order is kept. */
	ck_assert_str_eq(g->tables[0].name.s, "app-data");
	ck_assert_str_eq(g->tables[1].name.s, "audit-log");
	ck_assert_str_eq(g->entities[0].name.s, "User");
	ck_assert_str_eq(g->entities[1].name.s, "AuditEntry");
	ck_assert_str_eq(g->patterns[0].id.s, "get-user");
	ck_assert_str_eq(g->patterns[10].id.s, "remove-user");
	tu_design_free(&t);
}
END_TEST

START_TEST(test_key_delimiter_default)
{
	tu_design t;
	tu_load_text(&t, "ddbc: 1\nname: x\ntables: {t: {partition_key: PK}}\n");
	tu_expect_count(&t.d, 0);
	ck_assert_str_eq(t.design->key_delimiter, "#");
	ck_assert_ptr_null(t.design->description);
	ck_assert_uint_eq(t.design->nentities, 0);
	ck_assert_uint_eq(t.design->npatterns, 0);
	tu_design_free(&t);
}
END_TEST

START_TEST(test_tables)
{
	tu_design t;
	tu_load_file(&t, every_field);
	const ddbc_design *g = t.design;
	ddbc_table *app = ddbc_design_table(g, "app-data");
	ck_assert_ptr_eq(app, &g->tables[0]);
	expect_name(app->name, "app-data", 16, 3);
	ck_assert_str_eq(app->description, "The main table.");
	ck_assert_int_eq(app->primary.kind, DDBC_INDEX_PRIMARY);
	ck_assert_ptr_eq(app->primary.table, app);
	expect_name(app->primary.name, "app-data", 16, 3);
	ck_assert_uint_eq(app->primary.npk, 1);
	expect_name(app->primary.pk[0], "PK", 18, 20);
	ck_assert_uint_eq(app->primary.nsk, 1);
	expect_name(app->primary.sk[0], "SK", 19, 15);
	expect_name(app->ttl, "expiresAt", 20, 10);
	ck_assert_int_eq(app->billing, DDBC_BILLING_PROVISIONED);
	expect_loc(app->billing_loc, 21, 14);
	ck_assert(app->capacity.set);
	ck_assert_int_eq(app->capacity.read, 5);
	ck_assert_int_eq(app->capacity.write, 7);
	expect_loc(app->capacity.loc, 22, 15);
	ck_assert_uint_eq(app->ngsi, 3);
	ck_assert_uint_eq(app->nlsi, 1);

	ddbc_table *audit = ddbc_design_table(g, "audit-log");
	ck_assert_ptr_eq(audit, &g->tables[1]);
	ck_assert_ptr_null(audit->description);
	ck_assert_uint_eq(audit->primary.npk, 1);
	ck_assert_str_eq(audit->primary.pk[0].s, "logId");
	ck_assert_uint_eq(audit->primary.nsk, 0);
	ck_assert_ptr_null(audit->ttl.s);
	ck_assert_int_eq(audit->billing, DDBC_BILLING_ON_DEMAND);
	ck_assert(!audit->capacity.set);
	ck_assert_uint_eq(audit->ngsi, 0);
	ck_assert_uint_eq(audit->nlsi, 0);
	ck_assert_ptr_null(ddbc_design_table(g, "nope"));
	tu_design_free(&t);
}
END_TEST

START_TEST(test_gsis)
{
	tu_design t;
	tu_load_file(&t, every_field);
	ddbc_table *app = &t.design->tables[0];

	ddbc_index *g1 = ddbc_table_index(app, "GSI1");
	ck_assert_ptr_eq(g1, &app->gsi[0]);
	ck_assert_int_eq(g1->kind, DDBC_INDEX_GSI);
	ck_assert_ptr_eq(g1->table, app);
	expect_name(g1->name, "GSI1", 24, 7);
	ck_assert_str_eq(g1->description, "One-attribute keys.");
	ck_assert_uint_eq(g1->npk, 1);
	expect_name(g1->pk[0], "GSI1PK", 26, 24);
	ck_assert_uint_eq(g1->nsk, 1);
	expect_name(g1->sk[0], "GSI1SK", 27, 19);
	ck_assert_int_eq(g1->projection, DDBC_PROJ_ALL);
	expect_loc(g1->projection_loc, 28, 21);
	ck_assert(g1->capacity.set);
	ck_assert_int_eq(g1->capacity.read, 2);
	ck_assert_int_eq(g1->capacity.write, 3);

	/* A multi-attribute key keeps its attributes in key order. */
	ddbc_index *bt = ddbc_table_index(app, "ByTenant");
	ck_assert_ptr_eq(bt, &app->gsi[1]);
	ck_assert_ptr_null(bt->description);
	ck_assert_uint_eq(bt->npk, 2);
	expect_name(bt->pk[0], "tenantId", 31, 25);
	expect_name(bt->pk[1], "region", 31, 35);
	ck_assert_uint_eq(bt->nsk, 3);
	ck_assert_str_eq(bt->sk[0].s, "kind");
	ck_assert_str_eq(bt->sk[1].s, "createdAt");
	ck_assert_str_eq(bt->sk[2].s, "seq");
	ck_assert_int_eq(bt->projection, DDBC_PROJ_INCLUDE);
	ck_assert_uint_eq(bt->ninclude, 2);
	expect_name(bt->include[0], "nickname", 33, 22);
	expect_name(bt->include[1], "score", 33, 32);
	ck_assert(!bt->capacity.set);

	ddbc_index *ko = ddbc_table_index(app, "KeysOnly");
	ck_assert_uint_eq(ko->npk, 1);
	ck_assert_uint_eq(ko->nsk, 0);
	ck_assert_int_eq(ko->projection, DDBC_PROJ_KEYS_ONLY);
	tu_design_free(&t);
}
END_TEST

START_TEST(test_lsi)
{
	tu_design t;
	tu_load_file(&t, every_field);
	ddbc_table *app = &t.design->tables[0];
	ddbc_index *l = ddbc_table_index(app, "LSI1");
	ck_assert_ptr_eq(l, &app->lsi[0]);
	ck_assert_int_eq(l->kind, DDBC_INDEX_LSI);
	ck_assert_ptr_eq(l->table, app);
	expect_name(l->name, "LSI1", 38, 7);
	ck_assert_str_eq(l->description, "By creation time.");
	/* The partition key is the table's. */
	ck_assert_uint_eq(l->npk, 1);
	ck_assert_ptr_eq(l->pk, app->primary.pk);
	ck_assert_str_eq(l->pk[0].s, "PK");
	ck_assert_uint_eq(l->nsk, 1);
	expect_name(l->sk[0], "createdAt", 40, 19);
	ck_assert_int_eq(l->projection, DDBC_PROJ_KEYS_ONLY);
	tu_design_free(&t);
}
END_TEST

START_TEST(test_projection_default_all)
{
	tu_design t;
	tu_load_text(&t, "ddbc: 1\nname: x\ntables:\n  t:\n    partition_key: PK\n"
			 "    gsi: {G: {partition_key: A}}\n    lsi: {L: {sort_key: B}}\n");
	tu_expect_count(&t.d, 0);
	ck_assert_int_eq(t.design->tables[0].gsi[0].projection, DDBC_PROJ_ALL);
	ck_assert_int_eq(t.design->tables[0].lsi[0].projection, DDBC_PROJ_ALL);
	tu_design_free(&t);
}
END_TEST

START_TEST(test_entity_fields)
{
	tu_design t;
	tu_load_file(&t, every_field);
	const ddbc_design *g = t.design;
	ddbc_entity *u = entity(g, "User");
	expect_name(u->name, "User", 47, 3);
	expect_name(u->table_ref, "app-data", 48, 12);
	ck_assert_ptr_eq(u->table, &g->tables[0]);
	ck_assert_str_eq(u->description, "One row per user.");
	expect_name(u->c_name, "AppUser", 50, 13);
	ck_assert_uint_eq(u->nattrs, 13);
	/* Attributes keep file order. */
	ck_assert_str_eq(u->attrs[0].name.s, "PK");
	ck_assert_str_eq(u->attrs[12].name.s, "score");
	for (size_t i = 0; i < u->nattrs; i++)
		ck_assert_ptr_eq(u->attrs[i].entity, u);

	/* The full form: every attribute field. */
	ddbc_attr *pk = attr(u, "PK");
	expect_name(pk->name, "PK", 52, 7);
	ck_assert_int_eq(pk->type, DDBC_TYPE_S);
	expect_loc(ddbc_attr_type_loc(pk), 53, 15);
	expect_name(pk->template, "USER|{userId}", 54, 19);
	ck_assert_str_eq(pk->text->description, "Partition key");
	ck_assert(pk->has_indexes);
	expect_loc(pk->more->indexes_loc, 56, 18);
	ck_assert_uint_eq(pk->more->nindexes, 2);
	expect_name(pk->more->indexes[0].index, "LSI1", 56, 20);
	ck_assert_int_eq(pk->more->indexes[0].role, DDBC_ROLE_PARTITION_KEY);
	expect_loc(pk->more->indexes[0].role_loc, 56, 26);
	expect_name(pk->more->indexes[1].index, "GSI1", 56, 41);
	ck_assert_int_eq(pk->more->indexes[1].role, DDBC_ROLE_PROJECTED);

	ddbc_attr *sk = attr(u, "SK");
	ck_assert_str_eq(sk->template.s, "PROFILE");
	ck_assert(!sk->has_indexes);

	ddbc_attr *uid = attr(u, "userId");
	ck_assert_int_eq(uid->type, DDBC_TYPE_S);
	ck_assert(uid->required);
	ck_assert_ptr_nonnull(uid->more->example);
	ck_assert_str_eq(ddbc_pval_text(uid->more->example), "u-001");
	ck_assert_str_eq(uid->text->format, "UUIDv4");
	ck_assert_str_eq(uid->text->description, "The user");
	ck_assert_ptr_null(uid->template.s);

	ck_assert_str_eq(attr(u, "GSI1SK")->template.s, "{createdAt:010}|{userId}");

	ddbc_attr *kind = attr(u, "kind");
	ck_assert_uint_eq(kind->more->nenum, 2);
	ck_assert_str_eq(kind->more->enum_values[0]->u.text, "admin");
	ck_assert_str_eq(kind->more->enum_values[1]->u.text, "member");
	expect_loc(kind->more->enum_loc, 63, 30);
	ck_assert(!kind->required);

	ddbc_attr *created = attr(u, "createdAt");
	ck_assert_int_eq(created->type, DDBC_TYPE_N);
	ck_assert_str_eq(created->text->format, "epoch seconds");
	ck_assert_uint_eq(created->more->nindexes, 2);
	ck_assert_int_eq(created->more->indexes[0].role, DDBC_ROLE_SORT_KEY);
	ck_assert_str_eq(created->more->indexes[1].index.s, "ByTenant");
	ck_assert_int_eq(created->more->indexes[1].role, DDBC_ROLE_SORT_KEY);

	ddbc_attr *score = attr(u, "score");
	ck_assert_uint_eq(score->more->nenum, 3);
	ck_assert_int_eq(score->more->enum_values[2]->scalar, DDBC_SCALAR_INT);
	ck_assert_str_eq(score->more->enum_values[2]->u.text, "3");
	ck_assert_int_eq(ddbc_pval_scalar(score->more->example), DDBC_SCALAR_INT);
	ck_assert(!score->required);

	/* The shorthand: a type only, its position the type's. */
	ddbc_attr *nick = attr(u, "nickname");
	ck_assert_int_eq(nick->type, DDBC_TYPE_S);
	expect_loc(ddbc_attr_type_loc(nick), 67, 17);
	ck_assert_ptr_null(nick->text->description);
	ck_assert_ptr_null(nick->text->format);
	ck_assert_ptr_null(nick->template.s);
	ck_assert_ptr_null(nick->more->example);
	ck_assert_uint_eq(nick->more->nenum, 0);
	ck_assert(!nick->has_indexes);

	/* Examples are whole items, kept as YAML mappings. */
	ck_assert_uint_eq(u->nexamples, 1);
	const ddbc_pval *ex = u->examples[0];
	ck_assert_int_eq(ddbc_pval_kind(ex), DDBC_NODE_MAP);
	ck_assert_uint_eq(ddbc_pval_n(ex), 5);
	ck_assert_str_eq(ddbc_pval_text(node_get(ex, "PK")), "USER|u-001");
	ck_assert_int_eq(ddbc_pval_scalar(node_get(ex, "createdAt")), DDBC_SCALAR_INT);
	expect_loc(ddbc_pval_loc(ex), 70, 9);

	ddbc_entity *a = entity(g, "AuditEntry");
	ck_assert_ptr_null(a->description);
	ck_assert_ptr_null(a->c_name.s);
	ck_assert_ptr_eq(a->table, &g->tables[1]);
	ck_assert_uint_eq(a->nexamples, 0);
	tu_design_free(&t);
}
END_TEST

START_TEST(test_type_spellings)
{
	static const struct {
		const char *attr;
		ddbc_type type;
	} expect[] = {
		{ "logId", DDBC_TYPE_S },     { "count", DDBC_TYPE_N },
		{ "blob", DDBC_TYPE_B },      { "flag", DDBC_TYPE_BOOL },
		{ "nothing", DDBC_TYPE_NULL }, { "profile", DDBC_TYPE_M },
		{ "history", DDBC_TYPE_L },   { "tags", DDBC_TYPE_SS },
		{ "ranks", DDBC_TYPE_NS },    { "chunks", DDBC_TYPE_BS },
		{ "name", DDBC_TYPE_S },      { "amount", DDBC_TYPE_N },
		{ "thumb", DDBC_TYPE_B },     { "done", DDBC_TYPE_BOOL },
		{ "active", DDBC_TYPE_BOOL }, { "empty", DDBC_TYPE_NULL },
		{ "prefs", DDBC_TYPE_M },     { "items", DDBC_TYPE_L },
		{ "labels", DDBC_TYPE_SS },   { "scores", DDBC_TYPE_NS },
		{ "blobs", DDBC_TYPE_BS },
	};
	tu_design t;
	tu_load_file(&t, every_field);
	ddbc_entity *e = entity(t.design, "AuditEntry");
	ck_assert_uint_eq(e->nattrs, sizeof(expect) / sizeof(expect[0]));
	for (size_t i = 0; i < sizeof(expect) / sizeof(expect[0]); i++) {
		ddbc_attr *a = attr(e, expect[i].attr);
		ck_assert_msg(a->type == expect[i].type, "'%s' has type %s, expected %s",
			      expect[i].attr, ddbc_type_short(a->type),
			      ddbc_type_short(expect[i].type));
	}
	tu_design_free(&t);
}
END_TEST

START_TEST(test_type_parse)
{
	static const struct {
		const char *word;
		int ok;
		ddbc_type type;
	} cases[] = {
		{ "S", 1, DDBC_TYPE_S },          { "BOOL", 1, DDBC_TYPE_BOOL },
		{ "String", 1, DDBC_TYPE_S },     { "STRING", 1, DDBC_TYPE_S },
		{ "number", 1, DDBC_TYPE_N },     { "BiNaRy", 1, DDBC_TYPE_B },
		{ "boolean", 1, DDBC_TYPE_BOOL }, { "BOOL", 1, DDBC_TYPE_BOOL },
		{ "Bool", 1, DDBC_TYPE_BOOL },    { "bool", 1, DDBC_TYPE_BOOL },
		{ "NULL", 1, DDBC_TYPE_NULL },    { "null", 1, DDBC_TYPE_NULL },
		{ "MAP", 1, DDBC_TYPE_M },        { "list", 1, DDBC_TYPE_L },
		{ "STRINGSET", 1, DDBC_TYPE_SS }, { "numberset", 1, DDBC_TYPE_NS },
		{ "BinarySet", 1, DDBC_TYPE_BS },
		/* the short forms are exact */
		{ "s", 0, DDBC_TYPE_NONE },        { "ss", 0, DDBC_TYPE_NONE },
		{ "Str", 0, DDBC_TYPE_NONE },      { "", 0, DDBC_TYPE_NONE },
		{ "String Set", 0, DDBC_TYPE_NONE },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ddbc_type ty = DDBC_TYPE_NONE;
		int r = ddbc_type_parse(cases[i].word, &ty);
		ck_assert_msg((r == 0) == cases[i].ok, "'%s': %d", cases[i].word, r);
		if (cases[i].ok)
			ck_assert_msg(ty == cases[i].type, "'%s' read as %s", cases[i].word,
				      ddbc_type_short(ty));
	}
	ck_assert_str_eq(ddbc_type_long(DDBC_TYPE_SS), "StringSet");
	ck_assert_str_eq(ddbc_type_short(DDBC_TYPE_BOOL), "BOOL");
}
END_TEST

START_TEST(test_patterns)
{
	tu_design t;
	tu_load_file(&t, every_field);
	const ddbc_design *g = t.design;
	ddbc_table *app = &g->tables[0];

	ddbc_pattern *p = pattern(g, "get-user");
	expect_name(p->id, "get-user", 101, 3);
	ck_assert_str_eq(p->description, "One user.");
	expect_name(p->table_ref, "app-data", 103, 12);
	ck_assert_ptr_eq(p->table, app);
	ck_assert_ptr_null(p->index_ref.s);
	ck_assert_ptr_eq(p->index, &app->primary);
	ck_assert_int_eq(p->operation, DDBC_OP_GET);
	expect_loc(p->operation_loc, 104, 16);
	ck_assert_uint_eq(p->nconds, 2);
	expect_loc(p->key_loc, 105, 10);
	expect_name(p->conds[0].attr, "PK", 105, 12);
	ck_assert_int_eq(p->conds[0].op, DDBC_COND_EQ);
	ck_assert_uint_eq(p->conds[0].nvalues, 1);
	ck_assert_str_eq(p->conds[0].values[0]->u.text, "USER|{userId}");
	expect_loc(p->conds[0].op_loc, 105, 16);
	ck_assert_str_eq(p->conds[1].attr.s, "SK");
	ck_assert_str_eq(p->conds[1].values[0]->u.text, "PROFILE");
	ck_assert(p->consistent_read);
	expect_loc(p->consistent_loc, 106, 22);
	ck_assert_uint_eq(p->nreturns, 2);
	expect_name(p->returns[0], "nickname", 107, 15);
	expect_name(p->returns[1], "score", 107, 25);
	ck_assert(p->has_entities);
	ck_assert_uint_eq(p->nentities, 1);
	expect_name(p->entities[0], "User", 108, 16);
	expect_loc(p->entities_loc, 108, 15);
	ck_assert_ptr_nonnull(p->example);
	ck_assert_str_eq(ddbc_pval_text(node_get(p->example, "userId")), "u-001");
	ck_assert_int_eq(p->order, 0);
	ck_assert_ptr_null(p->condition);

	p = pattern(g, "users-by-time");
	expect_name(p->index_ref, "GSI1", 112, 12);
	ck_assert_ptr_eq(p->index, &app->gsi[0]);
	ck_assert_int_eq(p->operation, DDBC_OP_QUERY);
	ck_assert_int_eq(p->conds[0].op, DDBC_COND_EQ);
	expect_loc(p->conds[0].op_loc, 115, 17);
	ck_assert_str_eq(p->conds[0].values[0]->u.text, "USERS");
	ck_assert_int_eq(p->conds[1].op, DDBC_COND_BEGINS_WITH);
	ck_assert_str_eq(p->conds[1].values[0]->u.text, "{month}");
	ck_assert_int_eq(p->order, -1);
	ck_assert(!p->consistent_read);
	ck_assert(!p->has_entities);
	ck_assert_ptr_null(p->example);

	p = pattern(g, "by-tenant");
	ck_assert_ptr_eq(p->index, &app->gsi[1]);
	ck_assert_uint_eq(p->nconds, 4);
	ck_assert_str_eq(p->conds[0].values[0]->u.text, "t-1");
	ck_assert_int_eq(p->conds[1].op, DDBC_COND_EQ);
	ck_assert_int_eq(p->conds[2].op, DDBC_COND_EQ);
	ck_assert_int_eq(p->conds[3].op, DDBC_COND_BETWEEN);
	ck_assert_uint_eq(p->conds[3].nvalues, 2);
	ck_assert_str_eq(p->conds[3].values[0]->u.text, "100");
	ck_assert_int_eq(p->conds[3].values[0]->scalar, DDBC_SCALAR_INT);
	ck_assert_str_eq(p->conds[3].values[1]->u.text, "200");
	ck_assert_int_eq(p->order, 1);

	static const struct {
		const char *id;
		ddbc_cond_op op;
	} ranges[] = {
		{ "before", DDBC_COND_LT }, { "until", DDBC_COND_LE },
		{ "after", DDBC_COND_GT },  { "since", DDBC_COND_GE },
	};
	for (size_t i = 0; i < 4; i++) {
		p = pattern(g, ranges[i].id);
		ck_assert_ptr_eq(p->index, &app->lsi[0]);
		ck_assert_uint_eq(p->nconds, 2);
		ck_assert_int_eq(p->conds[1].op, ranges[i].op);
		ck_assert_str_eq(p->conds[1].values[0]->u.text, "100");
	}

	p = pattern(g, "all-logs");
	ck_assert_int_eq(p->operation, DDBC_OP_SCAN);
	ck_assert_ptr_eq(p->table, &g->tables[1]);
	ck_assert_ptr_eq(p->index, &g->tables[1].primary);
	ck_assert_uint_eq(p->nconds, 0);

	p = pattern(g, "register-user");
	ck_assert_int_eq(p->operation, DDBC_OP_PUT);
	ck_assert_str_eq(p->condition, "attribute_not_exists(PK)");
	p = pattern(g, "rename-user");
	ck_assert_int_eq(p->operation, DDBC_OP_UPDATE);
	ck_assert_str_eq(p->condition, "attribute_exists(PK)");
	p = pattern(g, "remove-user");
	ck_assert_int_eq(p->operation, DDBC_OP_DELETE);
	tu_design_free(&t);
}
END_TEST

START_TEST(test_one_table_implied)
{
	/* With one table, entities and patterns need not name it. */
	tu_design t;
	tu_load_text(&t, "ddbc: 1\nname: x\ntables: {t: {partition_key: PK}}\n"
			 "entities: {E: {attributes: {PK: S}}}\n"
			 "access_patterns: {p: {operation: get, key: {PK: a}}}\n");
	tu_expect_count(&t.d, 0);
	ck_assert_ptr_null(t.design->entities[0].table_ref.s);
	ck_assert_ptr_eq(t.design->entities[0].table, &t.design->tables[0]);
	ck_assert_ptr_eq(t.design->patterns[0].table, &t.design->tables[0]);
	ck_assert_ptr_eq(t.design->patterns[0].index, &t.design->tables[0].primary);
	tu_design_free(&t);
}
END_TEST

START_TEST(test_lint_rules_apply)
{
	/* The design's own lint.rules set the severity of its findings. */
	tu_design t;
	tu_load_text(&t, "ddbc: 1\nname: x\nlint: {rules: {schema: warning, "
			 "unresolved-reference: off}}\ntables: {t: {partition_key: PK}}\n"
			 "entities: {E: {table: nope, attributes: {PK: S}}}\nextra: 1\n");
	tu_expect_count(&t.d, 1);
	tu_expect_diag(&t.d, DDBC_RULE_SCHEMA, 6, 1, "unknown field 'extra'");
	ck_assert_int_eq(t.d.items[0].severity, DDBC_SEV_WARNING);
	tu_design_free(&t);
}
END_TEST

START_TEST(test_scan_without_key)
{
	tu_design t;
	tu_load_text(&t, "ddbc: 1\nname: x\ntables: {t: {partition_key: PK}}\n"
			 "access_patterns: {p: {operation: scan}}\n");
	tu_expect_count(&t.d, 0);
	ck_assert_ptr_null(t.design->patterns[0].conds);
	tu_design_free(&t);
}
END_TEST

/* ---- structural errors --------------------------------------------------------------- */

/* A clean design; each case below replaces some of its lines. */
static const char *const base[] = {
	/*  1 */ "ddbc: 1",
	/*  2 */ "name: t",
	/*  3 */ "tables:",
	/*  4 */ "  t1:",
	/*  5 */ "    partition_key: PK",
	/*  6 */ "    sort_key: SK",
	/*  7 */ "    gsi: {GSI1: {partition_key: GSI1PK, sort_key: SK}}",
	/*  8 */ "entities:",
	/*  9 */ "  User:",
	/* 10 */ "    attributes:",
	/* 11 */ "      PK: S",
	/* 12 */ "      SK: S",
	/* 13 */ "      GSI1PK: S",
	/* 14 */ "      nickname: S",
	/* 15 */ "access_patterns:",
	/* 16 */ "  p:",
	/* 17 */ "    operation: query",
	/* 18 */ "    key: {PK: x}",
};

/* base with lines at..at+del-1 replaced by text (NULL: deleted). */
static char *edited_base(unsigned at, unsigned del, const char *text)
{
	strbuf sb = STRBUF_INIT;
	size_t n = sizeof(base) / sizeof(base[0]);
	for (unsigned line = 1; line <= n + 1; line++) {
		if (line == at && text)
			ddbc_strbuf_addf(&sb, "%s\n", text);
		if (line <= n && (line < at || line >= at + del))
			ddbc_strbuf_addf(&sb, "%s\n", base[line - 1]);
	}
	return ddbc_strbuf_detach(&sb);
}

struct error_case {
	unsigned at, del;         /* the lines of base replaced */
	const char *text;         /* by these */
	size_t count;             /* findings in all */
	ddbc_rule rule;           /* the one asserted */
	unsigned line, col;
	const char *msg;          /* a part of its message */
};

#define SCHEMA DDBC_RULE_SCHEMA
#define UNRESOLVED DDBC_RULE_UNRESOLVED_REFERENCE

static const struct error_case unknown_fields[] = {
	/* A misspelt required field is one finding, not "unknown" and "missing". */
	{ 3, 1, "tabels:", 1, SCHEMA, 3, 1,
	  "unknown field 'tabels' in the design; did you mean 'tables'?" },
	{ 19, 0, "whatever: 1", 1, SCHEMA, 19, 1, "unknown field 'whatever' in the design" },
	/* Still reported when the unknown field suggests another. */
	{ 10, 1, "    fields:", 2, SCHEMA, 10, 5,
	  "missing required field 'attributes' in an entity" },
	{ 6, 1, "    sortkey: SK", 1, SCHEMA, 6, 5,
	  "unknown field 'sortkey' in a table; did you mean 'sort_key'?" },
	{ 7, 1, "    gsi: {GSI1: {partition_key: GSI1PK, projecton: all}}", 1, SCHEMA, 7, 41,
	  "unknown field 'projecton' in a global secondary index; did you mean 'projection'?" },
	{ 8, 0, "    lsi: {L1: {sort_key: nickname, partition_key: PK}}", 1, SCHEMA, 8, 36,
	  "unknown field 'partition_key' in a local secondary index" },
	{ 10, 1, "    atributes:", 1, SCHEMA, 10, 5,
	  "unknown field 'atributes' in an entity; did you mean 'attributes'?" },
	{ 14, 1, "      nickname: {tpye: S}", 1, SCHEMA, 14, 18,
	  "unknown field 'tpye' in an attribute; did you mean 'type'?" },
	{ 19, 0, "    ordr: asc", 1, SCHEMA, 19, 5,
	  "unknown field 'ordr' in an access pattern; did you mean 'order'?" },
	{ 7, 0, "    billing: provisioned\n    capacity: {read: 1, write: 1, burst: 2}", 1, SCHEMA,
	  8, 35, "unknown field 'burst' in capacity" },
	{ 3, 0, "lint: {rulez: {}}", 1, SCHEMA, 3, 8,
	  "unknown field 'rulez' in 'lint'; did you mean 'rules'?" },
	{ 13, 1, "      GSI1PK: {type: S, indexs: {GSI1: partition_key}}", 1, SCHEMA, 13, 25,
	  "unknown field 'indexs' in an attribute; did you mean 'indexes'?" },
};

static const struct error_case wrong_kinds[] = {
	{ 3, 5, "tables: [t1]", 1, SCHEMA, 3, 9, "'tables' must be a mapping, not a sequence" },
	{ 4, 4, "  t1: PK", 1, SCHEMA, 4, 7, "'t1' must be a mapping, not a string" },
	{ 3, 5, "tables: {}", 1, SCHEMA, 3, 9, "'tables' must define at least one table" },
	{ 8, 7, "entities: []", 1, SCHEMA, 8, 11, "'entities' must be a mapping, not a sequence" },
	{ 9, 6, "  User: [PK]", 1, SCHEMA, 9, 9, "'User' must be a mapping, not a sequence" },
	{ 10, 5, "    attributes: S", 1, SCHEMA, 10, 17,
	  "'attributes' must be a mapping, not a string" },
	{ 14, 1, "      nickname: [S]", 1, SCHEMA, 14, 17,
	  "attribute 'nickname' must be a type or a mapping, not a sequence" },
	{ 11, 1, "      PK: {type: [S]}", 1, SCHEMA, 11, 18, "'type' must be a scalar, not a sequence" },
	{ 14, 1, "      nickname: {type: S, required: yes}", 1, SCHEMA, 14, 37,
	  "'required' must be true or false, not a string" },
	{ 14, 1, "      nickname: {type: S, enum: admin}", 1, SCHEMA, 14, 33,
	  "'enum' must be a sequence, not a string" },
	{ 14, 1, "      nickname: {type: S, enum: [[1]]}", 1, SCHEMA, 14, 34,
	  "enum values must be scalars, not a sequence" },
	{ 14, 1, "      nickname: {type: S, enum: []}", 1, SCHEMA, 14, 33,
	  "'enum' must list at least one value" },
	{ 14, 1, "      nickname: {type: S, template: {a: 1}}", 1, SCHEMA, 14, 37,
	  "'template' must be a scalar, not a mapping" },
	{ 11, 1, "      PK: {type: S, indexes: [GSI1]}", 1, SCHEMA, 11, 30,
	  "'indexes' must be a mapping, not a sequence" },
	{ 5, 1, "    partition_key: [PK, X]", 1, SCHEMA, 5, 20,
	  "'partition_key' must be one attribute name, not a sequence" },
	{ 6, 1, "    sort_key: {a: b}", 1, SCHEMA, 6, 15,
	  "'sort_key' must be an attribute name, not a mapping" },
	{ 7, 1, "    gsi: {GSI1: {partition_key: {a: b}}}", 1, SCHEMA, 7, 33,
	  "'partition_key' must be an attribute name or a list of names, not a mapping" },
	{ 7, 1, "    gsi: {GSI1: {partition_key: []}}", 1, SCHEMA, 7, 33,
	  "'partition_key' must name at least one attribute" },
	{ 7, 1, "    gsi: {GSI1: {partition_key: [a, [b]]}}", 1, SCHEMA, 7, 37,
	  "'partition_key' must be a scalar, not a sequence" },
	{ 7, 1, "    gsi: [GSI1]", 1, SCHEMA, 7, 10, "'gsi' must be a mapping, not a sequence" },
	{ 7, 0, "    lsi: {L1: {sort_key: [a, b]}}", 1, SCHEMA, 7, 26,
	  "'sort_key' must be one attribute name, not a sequence" },
	{ 7, 1, "    gsi: {GSI1: {partition_key: GSI1PK, projection: {a: 1}}}", 1, SCHEMA, 7, 53,
	  "'projection' must be all, keys_only or a list of attribute names, not a mapping" },
	{ 2, 0, "description: [x]", 1, SCHEMA, 2, 14, "'description' must be a scalar, not a sequence" },
	{ 2, 1, "name: ''", 1, SCHEMA, 2, 7, "'name' must not be empty" },
	{ 2, 1, "name: ~", 1, SCHEMA, 2, 7, "'name' must not be empty" },
	{ 15, 0, "    examples: {a: 1}", 1, SCHEMA, 15, 15,
	  "'examples' must be a sequence, not a mapping" },
	{ 15, 0, "    examples: [1, {PK: x}]", 1, SCHEMA, 15, 16,
	  "an example item must be a mapping of attributes, not a number" },
	{ 15, 0, "    c_name: [A]", 1, SCHEMA, 15, 13, "'c_name' must be a scalar, not a sequence" },
	{ 15, 4, "access_patterns: [p]", 1, SCHEMA, 15, 18,
	  "'access_patterns' must be a mapping, not a sequence" },
	{ 16, 3, "  p: scan", 1, SCHEMA, 16, 6, "'p' must be a mapping, not a string" },
	{ 18, 1, "    key: [a]", 1, SCHEMA, 18, 10, "'key' must be a mapping, not a sequence" },
	{ 19, 0, "    returns: nickname", 1, SCHEMA, 19, 14,
	  "'returns' must be a sequence, not a string" },
	{ 19, 0, "    entities: User", 1, SCHEMA, 19, 15, "'entities' must be a sequence, not a string" },
	{ 19, 0, "    example: 5", 1, SCHEMA, 19, 14, "'example' must be a mapping, not a number" },
	{ 19, 0, "    consistent_read: \"true\"", 1, SCHEMA, 19, 22,
	  "'consistent_read' must be true or false, not a string" },
	{ 19, 0, "    order: [asc]", 1, SCHEMA, 19, 12, "'order' must be a scalar, not a sequence" },
	{ 18, 1, "    key: {PK: x, SK: {begins_with: a, lt: b}}", 1, SCHEMA, 18, 22,
	  "the condition on 'SK' must be a value or a mapping with one operator" },
	{ 18, 1, "    key: {PK: x, SK: [a]}", 1, SCHEMA, 18, 22,
	  "the condition on 'SK' must be a value or a mapping with one operator" },
	{ 18, 1, "    key: {PK: x, SK: {eq: {x: 1}}}", 1, SCHEMA, 18, 27,
	  "a key condition value must be a scalar, not a mapping" },
	{ 18, 1, "    key: {PK: x, SK: {between: [a, [b]]}}", 1, SCHEMA, 18, 36,
	  "a key condition value must be a scalar, not a sequence" },
	{ 7, 0, "    billing: provisioned\n    capacity: {read: 0, write: x}", 2, SCHEMA, 8, 22,
	  "'read' capacity must be a whole number of at least 1" },
	{ 7, 0, "    billing: provisioned\n    capacity: {read: 0, write: x}", 2, SCHEMA, 8, 32,
	  "'write' capacity must be a whole number of at least 1" },
	{ 7, 0, "    capacity: 5", 1, SCHEMA, 7, 15, "'capacity' must be a mapping, not a number" },
	{ 3, 0, "key_delimiter: 1", 1, SCHEMA, 3, 16, "'key_delimiter' must be a non-empty string" },
	{ 3, 0, "key_delimiter: ''", 1, SCHEMA, 3, 16, "'key_delimiter' must be a non-empty string" },
	{ 3, 0, "key_delimiter: [a]", 1, SCHEMA, 3, 16,
	  "'key_delimiter' must be a scalar, not a sequence" },
	{ 1, 1, "ddbc: \"1\"", 1, SCHEMA, 1, 7, "'ddbc' must be the format version 1, not a string" },
	{ 1, 1, "ddbc: 1.0", 1, SCHEMA, 1, 7, "'ddbc' must be the format version 1, not a number" },
	{ 3, 0, "lint: [a]", 1, SCHEMA, 3, 7, "'lint' must be a mapping, not a sequence" },
	{ 3, 0, "lint: {rules: [a]}", 1, SCHEMA, 3, 15, "'rules' must be a mapping, not a sequence" },
};

static const struct error_case missing_fields[] = {
	{ 1, 1, NULL, 1, SCHEMA, 1, 1, "missing required field 'ddbc' in the design" },
	{ 2, 1, NULL, 1, SCHEMA, 1, 1, "missing required field 'name' in the design" },
	{ 3, 5, NULL, 1, SCHEMA, 1, 1, "missing required field 'tables' in the design" },
	{ 5, 1, NULL, 1, SCHEMA, 5, 5, "missing required field 'partition_key' in a table" },
	{ 7, 1, "    gsi: {GSI1: {sort_key: SK}}", 1, SCHEMA, 7, 17,
	  "missing required field 'partition_key' in a global secondary index" },
	{ 7, 0, "    lsi: {L1: {projection: all}}", 1, SCHEMA, 7, 15,
	  "missing required field 'sort_key' in a local secondary index" },
	{ 10, 5, "    description: A user.", 1, SCHEMA, 10, 5,
	  "missing required field 'attributes' in an entity" },
	{ 14, 1, "      nickname: {description: x}", 1, SCHEMA, 14, 17,
	  "missing required field 'type' in an attribute" },
	{ 7, 0, "    capacity: {read: 1}", 1, SCHEMA, 7, 15, "missing required field 'write' in capacity" },
	{ 17, 1, NULL, 1, SCHEMA, 17, 5, "missing required field 'operation' in an access pattern" },
	{ 18, 1, NULL, 1, SCHEMA, 17, 5,
	  "missing required field 'key' in access pattern 'p' (a query needs a key condition)" },
	{ 17, 2, "    operation: get", 1, SCHEMA, 17, 5,
	  "missing required field 'key' in access pattern 'p' (a get needs a key condition)" },
	{ 17, 2, "    operation: delete", 1, SCHEMA, 17, 5, "(a delete needs a key condition)" },
};

static const struct error_case bad_words[] = {
	{ 7, 0, "    billing: ondemand", 1, SCHEMA, 7, 14,
	  "unknown billing 'ondemand'; expected one of on_demand, provisioned (did you mean 'on_demand'?)" },
	{ 17, 1, "    operation: fetch", 1, SCHEMA, 17, 16,
	  "unknown operation 'fetch'; expected one of get, query, scan, put, update, delete" },
	{ 17, 1, "    operation: Query", 1, SCHEMA, 17, 16, "(did you mean 'query'?)" },
	{ 19, 0, "    order: decs", 1, SCHEMA, 19, 12,
	  "unknown order 'decs'; expected one of asc, desc (did you mean 'desc'?)" },
	{ 7, 1, "    gsi: {GSI1: {partition_key: GSI1PK, projection: key_only}}", 1, SCHEMA, 7, 53,
	  "unknown projection 'key_only'; expected one of all, keys_only (did you mean 'keys_only'?)" },
	{ 14, 1, "      nickname: Strng", 1, SCHEMA, 14, 17,
	  "unknown type 'Strng' for attribute 'nickname'; did you mean 'String'?" },
	{ 14, 1, "      nickname: Text", 1, SCHEMA, 14, 17,
	  "unknown type 'Text' for attribute 'nickname'; expected S, N, B, BOOL, NULL, M, L, SS, NS or BS" },
	{ 14, 1, "      nickname: {type: ns}", 1, SCHEMA, 14, 24,
	  "unknown type 'ns' for attribute 'nickname'; did you mean 'NS'?" },
	{ 13, 1, "      GSI1PK: {type: S, indexes: {GSI1: pk}}", 1, SCHEMA, 13, 41,
	  "unknown role 'pk' for index 'GSI1'; expected partition_key, sort_key or projected" },
	{ 18, 1, "    key: {PK: x, SK: {begin_with: a}}", 1, SCHEMA, 18, 23,
	  "unknown operator 'begin_with' on 'SK'; did you mean 'begins_with'?" },
	{ 3, 0, "lint: {rules: {schema: loud}}", 1, SCHEMA, 3, 24,
	  "unknown severity for rule 'schema'; use off, note, warning or error" },
	{ 3, 0, "lint: {rules: {schema: no}}", 1, SCHEMA, 3, 24, "unknown severity for rule 'schema'" },
	{ 3, 0, "lint: {rules: {schema: true}}", 1, SCHEMA, 3, 24, "unknown severity for rule 'schema'" },
	{ 3, 0, "lint: {rules: {shcema: off}}", 1, SCHEMA, 3, 16,
	  "unknown rule 'shcema'; did you mean 'schema'?" },
	{ 3, 0, "lint: {rules: {no-such-thing: off}}", 1, SCHEMA, 3, 16,
	  "unknown rule 'no-such-thing'; 'ddbc explain' lists the rules" },
	{ 3, 0, "lint: {rules: {yaml-syntax: off}}", 1, SCHEMA, 3, 16,
	  "the severity of rule 'yaml-syntax' cannot be changed" },
	{ 1, 1, "ddbc: 2", 1, SCHEMA, 1, 7, "unsupported format version 2; this ddbc reads version 1" },
	{ 1, 1, "ddbc: 0", 1, SCHEMA, 1, 7, "unsupported format version 0" },
};

static const struct error_case unresolved[] = {
	{ 10, 0, "    table: t9", 1, UNRESOLVED, 10, 12, "table 't9' is not defined; did you mean 't1'?" },
	{ 19, 0, "    table: nowhere", 1, UNRESOLVED, 19, 12, "table 'nowhere' is not defined" },
	{ 19, 0, "    index: GSI2", 1, UNRESOLVED, 19, 12,
	  "index 'GSI2' is not defined on table 't1'; did you mean 'GSI1'?" },
	{ 19, 0, "    entities: [User, Usr]", 1, UNRESOLVED, 19, 22,
	  "entity 'Usr' is not defined; did you mean 'User'?" },
	{ 19, 0, "    returns: [nickname, nope]", 1, UNRESOLVED, 19, 25,
	  "attribute 'nope' is not defined on any entity of table 't1'" },
	{ 7, 0, "    ttl: expires", 1, UNRESOLVED, 7, 10,
	  "attribute 'expires' is not defined on any entity of table 't1' (it is the TTL attribute)" },
	{ 13, 1, "      GSI1PK: {type: S, indexes: {GSI9: projected}}", 1, UNRESOLVED, 13, 35,
	  "index 'GSI9' is not defined on table 't1'; did you mean 'GSI1'?" },
};

/* `stored: false` contradicts required: true and indexes; the attribute
 * is then read as stored, so nothing else follows. */
static const struct error_case stored_conflicts[] = {
	{ 14, 1, "      nickname: {type: S, stored: false, required: true}", 1, SCHEMA, 14, 35,
	  "attribute 'nickname' has 'stored: false' and 'required: true'; items never hold a "
	  "key part that is not stored: remove one of them" },
	{ 13, 1, "      GSI1PK: {type: S, stored: false, indexes: {GSI1: partition_key}}", 1,
	  SCHEMA, 13, 33, "attribute 'GSI1PK' has 'stored: false' and 'indexes'; an index holds "
	  "only stored attributes: remove one of them" },
	{ 14, 1, "      nickname: {type: S, stored: no}", 1, SCHEMA, 14, 35,
	  "'stored' must be true or false, not" },
};

static void run_case(const struct error_case *c)
{
	char *text = edited_base(c->at, c->del, c->text);
	tu_design t;
	tu_load_text(&t, text);
	/* Structural problems never stop the loader. */
	ck_assert_msg(t.design != NULL && !t.d.fatal, "the design did not load:\n%s", text);
	ck_assert_msg(t.d.n == c->count, "expected %zu findings, got %zu, for:\n%s\n%s", c->count,
		      t.d.n, text, tu_diags_dump(&t.d));
	tu_expect_diag(&t.d, c->rule, c->line, c->col, c->msg);
	const ddbc_diag *g = tu_find_diag(&t.d, c->rule, c->line, c->col, c->msg);
	ck_assert_int_eq(g->severity, DDBC_SEV_ERROR);
	tu_design_free(&t);
	free(text);
}

START_TEST(test_base_is_clean)
{
	char *text = edited_base(0, 0, NULL);
	tu_design t;
	tu_load_text(&t, text);
	tu_expect_count(&t.d, 0);
	tu_design_free(&t);
	free(text);
}
END_TEST

START_TEST(test_unknown_field) { run_case(&unknown_fields[_i]); }
END_TEST

START_TEST(test_wrong_kind) { run_case(&wrong_kinds[_i]); }
END_TEST

START_TEST(test_missing_field) { run_case(&missing_fields[_i]); }
END_TEST

START_TEST(test_bad_word) { run_case(&bad_words[_i]); }
END_TEST

START_TEST(test_unresolved) { run_case(&unresolved[_i]); }
END_TEST
START_TEST(test_stored_conflict) { run_case(&stored_conflicts[_i]); }
END_TEST

/* stored: false reaches the model; stored: true is the default. A TTL or
 * a returned attribute that only such parts answer is named as not
 * stored (it is defined, so "not defined" would mislead). */
START_TEST(test_stored_field)
{
	tu_design t;
	tu_load_file(&t, "tests/fixtures/stored/forum.ddb.yaml");
	tu_expect_count(&t.d, 0);
	const ddbc_entity *reply = entity(t.design, "Reply");
	ck_assert(attr(reply, "ForumName")->not_stored);
	ck_assert(attr(reply, "Subject")->not_stored);
	ck_assert(!attr(reply, "Id")->not_stored);
	ck_assert(!attr(entity(t.design, "Thread"), "ForumName")->not_stored);
	tu_design_free(&t);

	char *text = edited_base(14, 1, "      nickname: {type: N, stored: false}\n"
				 "      other: {type: S, stored: true}");
	char *with = tu_replace(text, "    sort_key: SK\n", "    sort_key: SK\n    ttl: nickname\n");
	char *both = tu_replace(with, "    key: {PK: x}\n", "    key: {PK: x}\n    returns: [nickname]\n");
	tu_load_text(&t, both);
	tu_expect_count(&t.d, 2);
	tu_expect_diag(&t.d, UNRESOLVED, 7, 10, "attribute 'nickname' is not stored by any entity "
		       "of table 't1' (it is the TTL attribute); it is declared 'stored: false', "
		       "a key part items never hold");
	tu_expect_diag(&t.d, UNRESOLVED, 21, 15, "attribute 'nickname' is not stored by any "
		       "entity of table 't1'; it is declared 'stored: false'");
	ck_assert(!attr(entity(t.design, "User"), "other")->not_stored);
	tu_design_free(&t);
	free(both);
	free(with);
	free(text);
}
END_TEST

/* A message is not cut at any length: the hint after a long bad value stays. */
START_TEST(test_long_bad_value_keeps_hint)
{
	strbuf line = STRBUF_INIT;
	ddbc_strbuf_addstr(&line, "    billing: ");
	for (int i = 0; i < 3000; i++)
		ddbc_strbuf_addch(&line, (char)('a' + i % 26));
	char *text = edited_base(7, 0, ddbc_strbuf_str(&line));
	tu_design t;
	tu_load_text(&t, text);
	tu_expect_count(&t.d, 1);
	const char *msg = t.d.items[0].message;
	ck_assert_uint_gt(strlen(msg), 3000);
	ck_assert_str_eq(msg + strlen(msg) - strlen("; expected one of on_demand, provisioned"),
			 "; expected one of on_demand, provisioned");
	tu_design_free(&t);
	free(text);
	ddbc_strbuf_release(&line);
}
END_TEST

/* Unresolved references name their table however long its name is. */
START_TEST(test_long_table_name_in_reference)
{
	strbuf name = STRBUF_INIT, table = STRBUF_INIT, want = STRBUF_INIT;
	for (int i = 0; i < 700; i++)
		ddbc_strbuf_addch(&name, (char)('a' + i % 26));
	ddbc_strbuf_addf(&table, "  %s:\n    ttl: nope\n", name.buf);
	char *text = edited_base(0, 0, NULL);
	char *edited = tu_replace(text, "  t1:\n", table.buf);
	ddbc_strbuf_addf(&want, "attribute 'nope' is not defined on any entity of table '%s' (it is "
		    "the TTL attribute)", name.buf);
	tu_design t;
	tu_load_text(&t, edited);
	tu_expect_diag(&t.d, DDBC_RULE_UNRESOLVED_REFERENCE, 5, 10, want.buf);
	tu_design_free(&t);
	free(edited);
	free(text);
	ddbc_strbuf_release(&name);
	ddbc_strbuf_release(&table);
	ddbc_strbuf_release(&want);
}
END_TEST

START_TEST(test_unknown_field_without_suggestion)
{
	char *text = edited_base(19, 0, "whatever: 1");
	tu_design t;
	tu_load_text(&t, text);
	tu_expect_count(&t.d, 1);
	ck_assert_str_eq(t.d.items[0].message, "unknown field 'whatever' in the design");
	tu_design_free(&t);
	free(text);
}
END_TEST

START_TEST(test_table_required_with_several_tables)
{
	char *text = edited_base(8, 0, "  t2:\n    partition_key: PK");
	tu_design t;
	tu_load_text(&t, text);
	tu_expect_count(&t.d, 2);
	tu_expect_diag(&t.d, SCHEMA, 11, 3,
		       "missing required field 'table' in entity 'User'; the design has 2 tables");
	tu_expect_diag(&t.d, SCHEMA, 18, 3,
		       "missing required field 'table' in access pattern 'p'; the design has 2 tables");
	/* Nothing is guessed: both stay unresolved, and nothing more is said. */
	ck_assert_ptr_null(t.design->entities[0].table);
	ck_assert_ptr_null(t.design->patterns[0].table);
	tu_design_free(&t);
	free(text);
}
END_TEST

START_TEST(test_sections_in_any_order)
{
	/* Entities and patterns may come before the tables they name. */
	tu_design t;
	tu_load_text(&t, "ddbc: 1\nname: d\n"
			 "access_patterns:\n  p:\n    operation: scan\n"
			 "entities:\n  User:\n    attributes:\n      PK: S\n"
			 "tables:\n  t1:\n    partition_key: PK\n  t2:\n    partition_key: PK\n");
	tu_expect_count(&t.d, 2);
	tu_expect_diag(&t.d, SCHEMA, 4, 3,
		       "missing required field 'table' in access pattern 'p'; the design has 2 tables");
	tu_expect_diag(&t.d, SCHEMA, 7, 3,
		       "missing required field 'table' in entity 'User'; the design has 2 tables");
	ck_assert_uint_eq(t.design->ntables, 2);
	ck_assert_ptr_eq(t.design->tables[1].primary.table, &t.design->tables[1]);
	ck_assert_ptr_eq(t.design->entities[0].attrs[0].entity, &t.design->entities[0]);
	tu_design_free(&t);
}
END_TEST

START_TEST(test_syntax_error_hides_schema_findings)
{
	/* The loader reads entries before the parser reaches the error; a file
	 * that is not YAML still gets its syntax error alone. */
	tu_design t;
	tu_load_text(&t, "ddbc: 1\nname: d\ntables:\n  t1:\n    partition_key: [a, b]\n"
			 "entities:\n  E: {bogus: 1}\n  F: [unclosed\n");
	ck_assert_ptr_null(t.design);
	ck_assert(t.d.fatal);
	tu_expect_count(&t.d, 1);
	ck_assert_uint_eq(t.d.items[0].rule, DDBC_RULE_YAML_SYNTAX);
	tu_design_free(&t);
}
END_TEST

START_TEST(test_type_loc_far)
{
	/* An attribute keeps its type's position in four bytes, as lines
	 * after its name's and a column; one that does not fit (a type past
	 * column 65535, or 65536 lines below the name) is kept whole. */
	strbuf y = STRBUF_INIT;
	ddbc_strbuf_addstr(&y, "ddbc: 1\nname: d\ntables:\n  t1: {partition_key: PK}\n"
			       "entities:\n  A:\n    table: t1\n    attributes:\n"
			       "      PK: {description: \"");
	for (int i = 0; i < 70000; i++)
		ddbc_strbuf_addch(&y, 'x');
	ddbc_strbuf_addstr(&y, "\", type: S}\n      far:\n        description: |\n");
	for (int i = 0; i < 70000; i++)
		ddbc_strbuf_addstr(&y, "          x\n");
	ddbc_strbuf_addstr(&y, "        type: N\n      near: {type: S}\n");
	tu_design t;
	tu_load_text(&t, ddbc_strbuf_str(&y));
	tu_expect_count(&t.d, 0);
	const ddbc_entity *a = entity(t.design, "A");
	expect_loc(ddbc_attr_type_loc(attr(a, "PK")), 9, 70035);
	expect_loc(ddbc_attr_type_loc(attr(a, "far")), 70012, 15);
	expect_loc(ddbc_attr_type_loc(attr(a, "near")), 70013, 20);
	ck_assert(attr(a, "PK")->type_far && attr(a, "far")->type_far);
	ck_assert(!attr(a, "near")->type_far);
	tu_design_free(&t);
	ddbc_strbuf_release(&y);
}
END_TEST

START_TEST(test_streamed_attributes)
{
	/* An entity's attributes are read one by one as the file is parsed:
	 * each reaches the model in file order with its entity, a repeated one
	 * is reported and the first kept, merged ones come behind, and an
	 * attributes mapping that an alias uses serves both entities. */
	tu_design t;
	tu_load_text(&t, "ddbc: 1\nname: d\ntables:\n  t1: {partition_key: PK}\n"
			 "entities:\n"
			 "  A:\n    attributes: &common\n      PK: S\n      at: N\n"
			 "  B:\n    description: b\n    attributes:\n"
			 "      <<: *common\n      PK: {type: S, template: \"B#{id}\"}\n"
			 "      id: S\n      id: N\n      x: {type: Q}\n"
			 "    bogus: 1\n"
			 "  C:\n    attributes: *common\n");
	tu_expect_count(&t.d, 3);
	tu_expect_diag(&t.d, DDBC_RULE_DUPLICATE_KEY, 16, 7,
		       "duplicate key 'id' (first defined at 15:7)");
	tu_expect_diag(&t.d, SCHEMA, 17, 17, "unknown type 'Q' for attribute 'x'");
	tu_expect_diag(&t.d, SCHEMA, 18, 5, "unknown field 'bogus' in an entity");
	const ddbc_entity *b = entity(t.design, "B");
	static const char *const order[] = { "PK", "id", "x", "at" };
	ck_assert_uint_eq(b->nattrs, 4);
	for (size_t i = 0; i < b->nattrs; i++) {
		ck_assert_str_eq(b->attrs[i].name.s, order[i]);
		ck_assert_ptr_eq(b->attrs[i].entity, b);
	}
	ck_assert_str_eq(b->description, "b");
	expect_name(attr(b, "PK")->template, "B#{id}", 14, 31);
	ck_assert_uint_eq(attr(b, "id")->type, DDBC_TYPE_S);
	expect_loc(ddbc_attr_type_loc(attr(b, "at")), 9, 11);
	const ddbc_entity *c = entity(t.design, "C");
	ck_assert_uint_eq(c->nattrs, 2);
	ck_assert_ptr_eq(attr(c, "at")->entity, c);
	ck_assert_uint_eq(entity(t.design, "A")->nattrs, 2);
	tu_design_free(&t);
}
END_TEST

START_TEST(test_example_items_kept)
{
	/* Example items are kept whole: whether written in the entity, merged
	 * into it, or shared through an alias. */
	tu_design t;
	tu_load_text(&t, "ddbc: 1\nname: d\ntables:\n  t1: {partition_key: PK}\n"
			 "entities:\n"
			 "  A:\n    attributes: {PK: S}\n    examples: &ex [{PK: a}]\n"
			 "  B:\n    <<: {examples: [{PK: b}]}\n    attributes: {PK: S}\n"
			 "  C:\n    attributes: {PK: S}\n    examples: *ex\n"
			 "  D:\n    attributes: {PK: S}\n    examples: [{PK: d, <<: {PK: x}}]\n");
	static const char *const names[] = { "A", "B", "C", "D" };
	static const char *const pks[] = { "a", "b", "a", "d" };
	static const unsigned lines[] = { 8, 10, 8, 17 };
	for (size_t i = 0; i < 4; i++) {
		const ddbc_entity *e = entity(t.design, names[i]);
		ck_assert_uint_eq(e->nexamples, 1);
		const ddbc_pval *pk = node_get(e->examples[0], "PK");
		ck_assert_str_eq(ddbc_pval_text(pk), pks[i]);
		ck_assert_uint_eq(ddbc_pval_loc(pk).line, lines[i]);
	}
	tu_design_free(&t);
}
END_TEST

START_TEST(test_example_items_packed)
{
	/* A packed item gives back every fact of its tree: kinds, scalar
	 * kinds, plainness, texts with NULs, positions past one and two
	 * varint bytes, nested members in order, and lookups in a mapping
	 * small (a scan) and wide (the key index; a NUL-differing duplicate
	 * finds the first). */
	enum { WIDE = 40 };
	strbuf text = STRBUF_INIT;
	ddbc_strbuf_addstr(&text, "ddbc: 1\nname: p\ntables:\n  t1: {partition_key: PK}\n"
			     "entities:\n  E:\n    attributes: {PK: S}\n    examples:\n");
	for (int i = 0; i < 20000; i++)
		ddbc_strbuf_addstr(&text, "#\n");
	ddbc_strbuf_addstr(&text, "      - PK: \"a\\0b\"\n        n: 0x1F\n        f: 1.5\n"
			     "        b: true\n        z: ~\n        q: \"12\"\n"
			     "        l: [1, [x], {k: v}]\n        m: {}\n        s: []\n"
			     "      -");
	for (int i = WIDE - 1; i >= 0; i--)
		ddbc_strbuf_addf(&text, " k%02d: %d\n       ", i, i);
	ddbc_strbuf_addstr(&text, " \"k07\\0\": dup\n");
	tu_design t;
	tu_load_text(&t, ddbc_strbuf_str(&text));
	ddbc_strbuf_release(&text);
	const ddbc_entity *e = entity(t.design, "E");
	ck_assert_uint_eq(e->nexamples, 2);
	const ddbc_pval *it = e->examples[0];
	ck_assert_int_eq(ddbc_pval_kind(it), DDBC_NODE_MAP);
	ck_assert_uint_eq(ddbc_pval_n(it), 9);
	expect_loc(ddbc_pval_loc(it), 20009, 9);
	const ddbc_pval *pk = node_get(it, "PK");
	ck_assert_uint_eq(ddbc_pval_n(pk), 3);
	ck_assert_int_eq(memcmp(ddbc_pval_text(pk), "a\0b", 4), 0);
	ck_assert(!ddbc_pval_plain(pk));
	expect_loc(ddbc_pval_loc(pk), 20009, 13);
	long long n;
	ck_assert(ddbc_pval_int(node_get(it, "n"), &n));
	ck_assert_int_eq(n, 31);
	ck_assert(ddbc_pval_plain(node_get(it, "n")));
	ck_assert(ddbc_pval_is_number(node_get(it, "f")));
	bool b = false;
	ck_assert(ddbc_pval_bool(node_get(it, "b"), &b) && b);
	ck_assert(ddbc_pval_is_null(node_get(it, "z")));
	ck_assert_int_eq(ddbc_pval_scalar(node_get(it, "q")), DDBC_SCALAR_STR);
	ck_assert_str_eq(ddbc_pval_describe(node_get(it, "q")), "a string");
	const ddbc_pval *l = node_get(it, "l");
	ck_assert_uint_eq(ddbc_pval_n(l), 3);
	ddbc_pval_iter li = ddbc_pval_members(l);
	const ddbc_pval *x, *key, *v;
	ck_assert(ddbc_pval_item(&li, &x) && !strcmp(ddbc_pval_text(x), "1"));
	ck_assert(ddbc_pval_item(&li, &x) && ddbc_pval_kind(x) == DDBC_NODE_SEQ);
	ck_assert_str_eq(ddbc_pval_text(ddbc_pval_first(x)), "x");
	ck_assert(ddbc_pval_item(&li, &x) && !strcmp(ddbc_pval_text(node_get(x, "k")), "v"));
	ck_assert(!ddbc_pval_item(&li, &x));
	ck_assert_ptr_null(ddbc_pval_first(node_get(it, "m")));
	ck_assert_uint_eq(ddbc_pval_n(node_get(it, "s")), 0);
	ck_assert_ptr_null(ddbc_pval_get(it, "absent"));
	ck_assert_ptr_null(ddbc_pval_get(pk, "PK"));
	/* The wide item: its pairs in file order, found by the key index. */
	const ddbc_pval *w = e->examples[1];
	ck_assert_uint_eq(ddbc_pval_n(w), WIDE + 1);
	ddbc_pval_iter wi = ddbc_pval_members(w);
	for (int i = WIDE - 1; i >= 0; i--) {
		char name[8];
		snprintf(name, sizeof name, "k%02d", i);
		ck_assert(ddbc_pval_pair(&wi, &key, &v));
		ck_assert_str_eq(ddbc_pval_text(key), name);
		ck_assert_ptr_eq(ddbc_pval_get(w, name), v);
		ck_assert_uint_eq(ddbc_pval_loc(key).line, 20018 + (unsigned)(WIDE - 1 - i));
	}
	ck_assert_str_eq(ddbc_pval_text(node_get(w, "k07")), "7");
	ck_assert_ptr_null(ddbc_pval_get(w, "k40"));
	ck_assert_ptr_null(ddbc_pval_get(w, "a"));
	/* Unpacked, it is the tree again. */
	ddbc_arena *arena = ddbc_arena_new();
	ddbc_node *tree = ddbc_pval_unpack(arena, it);
	ck_assert_uint_eq(tree->n, 9);
	ck_assert_str_eq(ddbc_node_get(ddbc_node_get(tree, "l")->u.items[2], "k")->u.text, "v");
	ck_assert_uint_eq(ddbc_node_get(tree, "PK")->loc.column, 13);
	ck_assert_uint_eq(ddbc_pval_bytes(ddbc_pval_pack(arena, tree)), ddbc_pval_bytes(it));
	ddbc_arena_free(arena);
	tu_design_free(&t);
}
END_TEST

START_TEST(test_syntax_error_in_attributes)
{
	/* Attributes read before the parser fails are not reported either. */
	tu_design t;
	tu_load_text(&t, "ddbc: 1\nname: d\ntables:\n  t1: {partition_key: PK}\n"
			 "entities:\n  E:\n    attributes:\n      PK: Q\n      x: [unclosed\n");
	ck_assert_ptr_null(t.design);
	tu_expect_count(&t.d, 1);
	ck_assert_uint_eq(t.d.items[0].rule, DDBC_RULE_YAML_SYNTAX);
	tu_design_free(&t);
}
END_TEST

/* Writes a design padded with a comment to exactly size bytes, after an
 * optional byte order mark, and reads it back from the file. */
static ddbc_source *source_of_size(const char *path, size_t size, bool bom)
{
	static const char head[] = "ddbc: 1\nname: d\ntables:\n  t:\n    partition_key: PK\n#";
	FILE *f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	size_t n = bom ? 3 : 0;
	if (bom)
		fputs("\xEF\xBB\xBF", f);
	fputs(head, f);
	for (n += strlen(head); n + 1 < size; n++)
		fputc('x', f);
	fputc('\n', f);
	fclose(f);
	ddbc_source *src = ddbc_source_read(path);
	ck_assert_ptr_nonnull(src);
	return src;
}

START_TEST(test_source_mapped_and_read)
{
	/* A file of whole pages is read; any other is mapped. Both end in a
	 * NUL, lose their byte order mark, and quote their lines. */
	static const struct { size_t size; bool bom; } cases[] = {
		{ 4096, false }, { 4097, false }, { 5000, true }, { 8192, true },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ddbc_source *src = source_of_size("check_load.size.yaml", cases[i].size,
						  cases[i].bom);
		ck_assert_uint_eq(src->len, cases[i].size - (cases[i].bom ? 3 : 0));
		ck_assert_int_eq(src->text[src->len], '\0');
		ck_assert(!strncmp(src->text, "ddbc: 1\n", 8));
		ddbc_diags d;
		ddbc_diags_init(&d);
		ddbc_diags_begin(&d, src);
		ddbc_design *g = ddbc_load(src, &d);
		ck_assert_ptr_nonnull(g);
		ck_assert_uint_eq(d.n, 0);
		size_t len;
		const char *line = ddbc_source_line(src, 3, &len);
		ck_assert_uint_eq(len, 7);
		ck_assert(!strncmp(line, "tables:", 7));
		ddbc_design_free(g);
		ddbc_diags_release(&d);
		ddbc_source_free(src);
	}
	remove("check_load.size.yaml");
}
END_TEST

START_TEST(test_source_line_breaks)
{
	/* A quoted line never holds its break, whichever of YAML's it is. */
	static const char text[] = "a\nbb\r\nccc\rd\xc2\x85" "e\xe2\x80\xa8" "ff\xe2\x80\xa9\r\nlast";
	static const char *const lines[] = { "a", "bb", "ccc", "d", "e", "ff", "", "last" };
	ddbc_source *src = ddbc_source_from_memory("x.yaml", text, sizeof(text) - 1);
	for (unsigned i = 0; i < 8; i++) {
		size_t len;
		const char *line = ddbc_source_line(src, i + 1, &len);
		ck_assert_ptr_nonnull(line);
		ck_assert_msg(len == strlen(lines[i]) && !strncmp(line, lines[i], len),
			      "line %u is '%.*s'", i + 1, (int)len, line);
	}
	size_t len;
	ck_assert_ptr_null(ddbc_source_line(src, 9, &len));
	ck_assert_ptr_null(ddbc_source_line(src, 0, &len));
	ddbc_source_free(src);
}
END_TEST

/* The resident kilobytes of the mapping that holds p (/proc/self/smaps),
 * or -1 when that cannot be told. */
static long mapping_rss_kib(const void *p)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	if (!f)
		return -1;
	char line[512];
	bool inside = false;
	long rss = -1;
	while (fgets(line, sizeof line, f)) {
		unsigned long lo, hi;
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2) {
			inside = (unsigned long)p >= lo && (unsigned long)p < hi;
			continue;
		}
		if (inside && sscanf(line, "Rss: %ld kB", &rss) == 1)
			break;
	}
	fclose(f);
	return rss;
}

START_TEST(test_source_lines_evicted)
{
	/* Quoting every line of a mapped file in order (a diff that reports
	 * every reworded description) gives its pages back behind the scan:
	 * 7.3 MiB of lines leave at most a few MiB resident, and a line quoted
	 * again after its page went is read back whole. */
	enum { LINES = 120000, WIDTH = 64 };  /* "line 0000000 ...\n" */
	const char *path = "check_load.evict.yaml";
	strbuf text = STRBUF_INIT;
	for (unsigned i = 0; i < LINES; i++)
		ddbc_strbuf_addf(&text, "line %07u %*s\n", i, WIDTH - 14, "");
	ddbc_strbuf_addstr(&text, "end");
	FILE *f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(text.buf, 1, text.len, f), text.len);
	fclose(f);
	ddbc_strbuf_release(&text);
	ddbc_source *src = ddbc_source_read(path);
	ck_assert_ptr_nonnull(src);
	ck_assert(src->mapped);
	char want[16];
	size_t len;
	for (unsigned i = 0; i < LINES; i++) {
		const char *line = ddbc_source_line(src, i + 1, &len);
		snprintf(want, sizeof want, "line %07u", i);
		ck_assert_msg(line && len == WIDTH - 1 && !memcmp(line, want, 12), "line %u",
			      i + 1);
	}
	long rss = mapping_rss_kib(src->text);
	if (rss >= 0)
		ck_assert_msg(rss <= 3 * 1024, "%ld KiB of the 7.3 MiB file resident", rss);
	const unsigned again[] = { 1, LINES / 2, LINES };
	for (size_t k = 0; k < sizeof(again) / sizeof(again[0]); k++) {
		const char *line = ddbc_source_line(src, again[k], &len);
		snprintf(want, sizeof want, "line %07u", again[k] - 1);
		ck_assert_msg(line && len == WIDTH - 1 && !memcmp(line, want, 12), "line %u",
			      again[k]);
	}
	const char *last = ddbc_source_line(src, LINES + 1, &len);
	ck_assert(last && len == 3 && !memcmp(last, "end", 3));
	ddbc_source_free(src);
	remove(path);
}
END_TEST

START_TEST(test_arena_large)
{
	/* A large arena's memory is zeroed as a small one's, whether its
	 * blocks came from calloc or straight from the system, again after a
	 * clear, beside arrays resized in it; then all of it is given back. */
	ddbc_arena *a = ddbc_arena_new();
	for (int round = 0; round < 2; round++) {
		unsigned char *big = NULL;
		for (size_t i = 0; i < 200000; i++) {
			size_t size = 8 + i % 120;
			unsigned char *p = ddbc_arena_alloc(a, size);
			unsigned char any = 0;
			for (size_t k = 0; k < size; k++)
				any |= p[k];
			if (any)
				ck_abort_msg("allocation %zu of round %d is not zeroed", i, round);
			memset(p, 0xA5, size);
			if (i % 50000 == 0) {
				big = ddbc_arena_resize(a, big, i + 1, 1);
				memset(big, 0x5A, i + 1);
			}
			if (i % 70000 == 1) {
				unsigned char *huge = ddbc_arena_alloc(a, 300000);
				ck_assert(huge[0] == 0 && huge[299999] == 0);
				memset(huge, 1, 300000);
			}
		}
		ck_assert_int_eq(big[0], 0x5A);
		ddbc_arena_clear(a);
	}
	ddbc_arena_free(a);
}
END_TEST

START_TEST(test_wide_entity_lookups)
{
	/* Attributes are found by name however many there are and in
	 * whatever order the file lists them; each attribute knows the first
	 * template that names it. */
	enum { N = 303 };  /* prime to 7: every name once, scattered */
	strbuf text = STRBUF_INIT;
	ddbc_strbuf_addstr(&text, "ddbc: 1\nname: wide\ntables:\n  t1: { partition_key: PK }\n"
			     "entities:\n  Wide:\n    attributes:\n"
			     "      PK: { type: S, template: \"W#{a007}#{a100}\" }\n"
			     "      L1: { type: S, template: \"{a100}\" }\n");
	for (int i = 0; i < N; i++)
		ddbc_strbuf_addf(&text, "      a%03d: S\n", (i * 7) % N);
	ddbc_strbuf_addstr(&text, "      L2: { type: S, template: \"{a007}{a200}\" }\n");
	tu_design t;
	tu_load_text(&t, ddbc_strbuf_str(&text));
	tu_expect_count(&t.d, 0);
	ddbc_semantics(t.design);
	const ddbc_entity *e = entity(t.design, "Wide");
	ck_assert_uint_eq(e->nattrs, N + 3);
	for (int i = 0; i < N; i++) {
		char name[16];
		snprintf(name, sizeof(name), "a%03d", i);
		ck_assert_str_eq(attr(e, name)->name.s, name);
		snprintf(name, sizeof(name), "a%03d_", i);
		ck_assert_ptr_null(ddbc_entity_attr(e, name));
	}
	ck_assert_ptr_null(ddbc_entity_attr(e, ""));
	ck_assert_ptr_null(ddbc_entity_attr(e, "b"));
	ck_assert_ptr_eq(attr(e, "a007")->used_by, attr(e, "PK"));
	ck_assert_ptr_eq(attr(e, "a100")->used_by, attr(e, "PK"));
	ck_assert_ptr_eq(attr(e, "a200")->used_by, attr(e, "L2"));
	ck_assert_ptr_null(attr(e, "a001")->used_by);
	ck_assert_ptr_null(attr(e, "PK")->used_by);
	tu_design_free(&t);
	ddbc_strbuf_release(&text);
}
END_TEST

/* What was read with an error is marked, and so is what follows from it;
 * what was read whole is not. */
START_TEST(test_incomplete_parts)
{
	tu_design t;
	tu_load_text(&t, "ddbc: 1\nname: n\ntables:\n"
			 "  t1:\n    partition_key: PK\n    sort_ky: SK\n"
			 "  t2:\n    partition_key: PK\n    gsi: {G: {partition_key: GPK, "
			 "projection: [nope]}}\n"
			 "  t3:\n    partition_key: PK\n"
			 "entities:\n"
			 "  A:\n    table: t1\n    attributes: {PK: S, SK: {type: S, tempate: x}}\n"
			 "  B:\n    table: t2\n    attributes: {Pk: S, GPK: S}\n"
			 "  C:\n    table: t3\n    attributes: {PK: S}\n"
			 "access_patterns:\n"
			 "  p1: {table: t2, index: H, operation: query, key: {GPK: x}}\n"
			 "  p2: {table: t3, operation: get, key: {PK: x}, entities: [D]}\n"
			 "  p3: {table: t3, operation: get, key: {PK: x}}\n");
	const ddbc_design *g = t.design;
	ck_assert(g->tables[0].incomplete && g->tables[0].primary.incomplete);
	ck_assert(!g->tables[1].incomplete && !g->tables[2].incomplete);
	ck_assert(g->tables[1].members_incomplete);      /* B lacks PK */
	ck_assert(!g->tables[2].members_incomplete);
	ck_assert(g->tables[1].gsi[0].include_undefined);
	ck_assert(!g->tables[1].gsi[0].key_undefined);
	const ddbc_entity *a = entity(g, "A"), *b = entity(g, "B"), *c = entity(g, "C");
	ck_assert(!a->incomplete && attr(a, "SK")->incomplete && !attr(a, "PK")->incomplete);
	ck_assert(b->lacks_key && !b->incomplete);
	ck_assert(!c->lacks_key && !c->incomplete);
	ck_assert(pattern(g, "p1")->incomplete);
	ck_assert(!pattern(g, "p2")->incomplete && pattern(g, "p2")->entities_unresolved);
	ck_assert(!pattern(g, "p3")->incomplete && !pattern(g, "p3")->entities_unresolved);
	tu_design_free(&t);
}
END_TEST

START_TEST(test_nul_names_find_the_first)
{
	/* Names that differ only after a NUL read as one C string: a lookup
	 * finds the first in file order, whatever the hash table's order. */
	tu_design t;
	tu_load_text(&t, "ddbc: 1\nname: n\ntables:\n  t1: { partition_key: PK }\n"
			 "entities:\n  E:\n    attributes:\n      PK: S\n"
			 "      \"x\\0b\": N\n      \"x\\0a\": S\n      x: B\n");
	ddbc_semantics(t.design);
	const ddbc_entity *e = entity(t.design, "E");
	ck_assert_uint_eq(e->nattrs, 4);
	ck_assert_ptr_eq(ddbc_entity_attr(e, "x"), &e->attrs[1]);
	ck_assert_ptr_eq(ddbc_entity_attr(e, "PK"), &e->attrs[0]);
	tu_design_free(&t);
}
END_TEST

START_TEST(test_long_include_projection)
{
	/* An index that projects many attributes gives each of them, and no
	 * other, the role projected. */
	enum { N = 202 };
	strbuf text = STRBUF_INIT;
	ddbc_strbuf_addstr(&text, "ddbc: 1\nname: wide\ntables:\n  tbl:\n    partition_key: PK\n"
			     "    gsi:\n      G1:\n        partition_key: G\n        projection: [");
	for (int i = 0; i < N; i += 2)
		ddbc_strbuf_addf(&text, "%sa%03d", i ? ", " : "", (i * 7) % N);
	ddbc_strbuf_addstr(&text, "]\nentities:\n  Wide:\n    attributes:\n      PK: S\n      G: S\n");
	for (int i = 0; i < N; i++)
		ddbc_strbuf_addf(&text, "      a%03d: S\n", i);
	tu_design t;
	tu_load_text(&t, ddbc_strbuf_str(&text));
	tu_expect_count(&t.d, 0);
	ddbc_semantics(t.design);
	const ddbc_entity *e = entity(t.design, "Wide");
	const ddbc_index *g1 = &t.design->tables[0].gsi[0];
	for (int i = 0; i < N; i++) {
		char name[16];
		snprintf(name, sizeof(name), "a%03d", (i * 7) % N);
		ck_assert_int_eq(ddbc_attr_roles(attr(e, name))[g1->slot],
				 (i % 2 ? DDBC_ROLE_NONE : DDBC_ROLE_PROJECTED));
	}
	ck_assert_int_eq(ddbc_attr_roles(attr(e, "G"))[g1->slot], DDBC_ROLE_PARTITION_KEY);
	ck_assert_int_eq(ddbc_attr_roles(attr(e, "PK"))[g1->slot], DDBC_ROLE_PROJECTED);
	tu_design_free(&t);
	ddbc_strbuf_release(&text);
}
END_TEST

START_TEST(test_every_error_in_one_run)
{
	static const struct {
		ddbc_rule rule;
		unsigned line, col;
		const char *msg;
	} expect[] = {
		{ SCHEMA, 1, 7, "unsupported format version 2" },
		{ SCHEMA, 3, 1, "unknown field 'descripton' in the design; did you mean 'description'?" },
		{ SCHEMA, 6, 20, "'partition_key' must be one attribute name, not a sequence" },
		{ SCHEMA, 7, 14, "unknown billing 'ondemand'" },
		{ SCHEMA, 9, 11, "missing required field 'partition_key' in a global secondary index" },
		{ SCHEMA, 9, 38, "unknown projection 'some'; expected one of all, keys_only" },
		{ SCHEMA, 12, 22, "'read' capacity must be a whole number of at least 1" },
		{ SCHEMA, 14, 3, "missing required field 'table' in entity 'User'; the design has 2 tables" },
		{ SCHEMA, 16, 11, "unknown type 'Strng' for attribute 'PK'; did you mean 'String'?" },
		{ SCHEMA, 17, 31, "'required' must be true or false, not a string" },
		{ SCHEMA, 18, 35, "unknown role 'key' for index 'G1'; expected partition_key, sort_key or projected" },
		{ UNRESOLVED, 20, 12, "table 't3' is not defined; did you mean 't1'?" },
		{ SCHEMA, 21, 17, "'attributes' must be a mapping, not a sequence" },
		{ UNRESOLVED, 25, 12, "index 'G2' is not defined on table 't1'; did you mean 'G1'?" },
		{ SCHEMA, 26, 16, "unknown operation 'fetch'" },
		{ SCHEMA, 27, 16, "unknown operator 'btw' on 'PK'" },
		{ SCHEMA, 28, 3, "missing required field 'table' in access pattern 'p2'; the design has 2 tables" },
		{ SCHEMA, 29, 5, "missing required field 'key' in access pattern 'p2' (a get needs a key condition)" },
		{ SCHEMA, 30, 14, "'returns' must be a sequence, not a string" },
	};
	tu_design t;
	tu_load_file(&t, "tests/fixtures/load-many-errors.ddb.yaml");
	ck_assert_ptr_nonnull(t.design);
	ck_assert(!t.d.fatal);
	size_t n = sizeof(expect) / sizeof(expect[0]);
	tu_expect_count(&t.d, n);
	/* Sorted by position, so item i is expectation i. */
	for (size_t i = 0; i < n; i++) {
		const ddbc_diag *g = &t.d.items[i];
		ck_assert_msg(g->rule == expect[i].rule && g->loc.line == expect[i].line &&
			      g->loc.column == expect[i].col && strstr(g->message, expect[i].msg),
			      "finding %zu: expected [%s] %u:%u \"%s\"; the findings are:\n%s", i,
			      ddbc_rule_get(expect[i].rule)->id, expect[i].line, expect[i].col,
			      expect[i].msg, tu_diags_dump(&t.d));
		ck_assert_ptr_eq(g->src, t.src);
	}
	tu_design_free(&t);
}
END_TEST

/* ---- the samples ------------------------------------------------------------------------ */

static const char *const samples[] = {
	"samples/assessment-multi.ddb.yaml", "samples/assessment-single.ddb.yaml",
	"samples/ecommerce.ddb.yaml",        "samples/stamp-rally.ddb.yaml",
	"samples/todo.ddb.yaml",
};

START_TEST(test_sample_loads_clean)
{
	tu_design t;
	tu_load_file(&t, samples[_i]);
	ck_assert_msg(t.design != NULL, "%s did not load", samples[_i]);
	ck_assert_msg(t.d.n == 0, "%s: %zu findings:\n%s", samples[_i], t.d.n, tu_diags_dump(&t.d));
	ck_assert_uint_gt(t.design->ntables, 0);
	ck_assert_uint_gt(t.design->nentities, 0);
	ck_assert_uint_gt(t.design->npatterns, 0);
	/* Every entity and pattern found its table, and every pattern its index. */
	for (size_t i = 0; i < t.design->nentities; i++)
		ck_assert_ptr_nonnull(t.design->entities[i].table);
	for (size_t i = 0; i < t.design->npatterns; i++)
		ck_assert_ptr_nonnull(t.design->patterns[i].index);
	tu_design_free(&t);
}
END_TEST

static Suite *load_suite(void)
{
	Suite *s = suite_create("load");
	TCase *tc = tcase_create("fields");
	/* Every case has its own timeout: Check's default (4 s) fails on a
	 * loaded machine (make -j16); these take a second or less alone. */
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_every_field_loads_clean);
	tcase_add_test(tc, test_root_fields);
	tcase_add_test(tc, test_key_delimiter_default);
	tcase_add_test(tc, test_tables);
	tcase_add_test(tc, test_gsis);
	tcase_add_test(tc, test_lsi);
	tcase_add_test(tc, test_projection_default_all);
	tcase_add_test(tc, test_entity_fields);
	tcase_add_test(tc, test_type_spellings);
	tcase_add_test(tc, test_type_parse);
	tcase_add_test(tc, test_patterns);
	tcase_add_test(tc, test_one_table_implied);
	tcase_add_test(tc, test_lint_rules_apply);
	tcase_add_test(tc, test_scan_without_key);
	suite_add_tcase(s, tc);

#define LOOP(tc, fn, cases) tcase_add_loop_test(tc, fn, 0, (int)(sizeof(cases) / sizeof(cases[0])))
	tc = tcase_create("errors");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_base_is_clean);
	LOOP(tc, test_unknown_field, unknown_fields);
	LOOP(tc, test_wrong_kind, wrong_kinds);
	LOOP(tc, test_missing_field, missing_fields);
	LOOP(tc, test_bad_word, bad_words);
	LOOP(tc, test_unresolved, unresolved);
	LOOP(tc, test_stored_conflict, stored_conflicts);
	tcase_add_test(tc, test_stored_field);
	tcase_add_test(tc, test_unknown_field_without_suggestion);
	tcase_add_test(tc, test_long_bad_value_keeps_hint);
	tcase_add_test(tc, test_long_table_name_in_reference);
	tcase_add_test(tc, test_table_required_with_several_tables);
	tcase_add_test(tc, test_sections_in_any_order);
	tcase_add_test(tc, test_source_mapped_and_read);
	tcase_add_test(tc, test_source_line_breaks);
	tcase_add_test(tc, test_source_lines_evicted);
	tcase_add_test(tc, test_arena_large);
	tcase_add_test(tc, test_syntax_error_hides_schema_findings);
	tcase_add_test(tc, test_streamed_attributes);
	tcase_add_test(tc, test_type_loc_far);
	tcase_add_test(tc, test_syntax_error_in_attributes);
	tcase_add_test(tc, test_example_items_kept);
	tcase_add_test(tc, test_example_items_packed);
	tcase_add_test(tc, test_every_error_in_one_run);
	tcase_add_test(tc, test_wide_entity_lookups);
	tcase_add_test(tc, test_nul_names_find_the_first);
	tcase_add_test(tc, test_incomplete_parts);
	tcase_add_test(tc, test_long_include_projection);
	suite_add_tcase(s, tc);

	tc = tcase_create("samples");
	tcase_set_timeout(tc, 60);
	LOOP(tc, test_sample_loads_clean, samples);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(load_suite());
	srunner_run_all(sr, CK_ENV);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
