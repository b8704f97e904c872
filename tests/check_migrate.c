/* check_migrate.c - migrate's work on one item (src/live/migrate_item.c):
 * key parts not stored split back out of OLD's keys, NEW's keys rendered,
 * the write conditional on what was read, items already migrated skipped,
 * values that cannot be migrated refused with why */
#include "live/migrate_int.h"
#include "rules/check.h"
#include "testutil.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

typedef struct checked {
	ddbc_source *src;
	ddbc_diags d;
	ddbc_design *g;
} checked;

static void check_text(checked *c, const char *text)
{
	c->src = tu_source(text);
	ddbc_diags_init(&c->d);
	ddbc_settings s;
	ddbc_settings_init(&s);
	c->g = ddbc_check(c->src, &c->d, &s);
	ck_assert_msg(c->g && !ddbc_diags_count(&c->d).errors, "%s", tu_diags_dump(&c->d));
}

static void checked_free(checked *c)
{
	ddbc_design_free(c->g);
	ddbc_diags_release(&c->d);
	ddbc_source_free(c->src);
}

/* OLD's sort key holds a day that no attribute stores; NEW puts the step
 * number first, and keys its GSI by owner under a new prefix. */
#define DESIGN(SK, GSIPK, NTYPE) \
	"ddbc: 1\n" \
	"name: runs\n" \
	"tables:\n" \
	"  Runs:\n" \
	"    partition_key: pk\n" \
	"    sort_key: sk\n" \
	"    gsi:\n" \
	"      ByOwner: { partition_key: gpk, sort_key: sk }\n" \
	"entities:\n" \
	"  Run:\n" \
	"    table: Runs\n" \
	"    attributes:\n" \
	"      pk: { type: S, template: \"RUN#{runId}\" }\n" \
	"      sk: { type: S, template: \"" SK "\" }\n" \
	"      gpk: { type: S, template: \"" GSIPK "\" }\n" \
	"      runId: { type: S }\n" \
	"      day: { type: S, stored: false }\n" \
	"      n: { type: N }\n" \
	"      owner: { type: S }\n" \
	"      size: { type: " NTYPE " }\n"

static const char old_text[] = DESIGN("STEP#{day}#{n:06}", "OWNER#{owner}", "S");
static const char new_text[] = DESIGN("S#{n:06}#{day}", "O#{owner}", "N");

typedef struct fixture {
	checked old, new;
	mig_work w;
	mig_scratch s;
} fixture;

static void setup(fixture *f)
{
	check_text(&f->old, old_text);
	check_text(&f->new, new_text);
	ck_assert_int_eq(ddbc_migrate_work_build(&f->w, f->old.g, f->new.g, 0), 0);
	ddbc_migrate_scratch_init(&f->s, &f->w);
}

static void teardown(fixture *f)
{
	ddbc_migrate_scratch_release(&f->s);
	ddbc_migrate_work_release(&f->w);
	checked_free(&f->new);
	checked_free(&f->old);
}

static json_t *item(const char *sk, const char *gpk, const char *size)
{
	json_t *i = json_pack("{s:{s:s}, s:{s:s}, s:{s:s}, s:{s:s}, s:{s:s}, s:{s:s}}",
			      "pk", "S", "RUN#r1", "sk", "S", sk, "gpk", "S", gpk, "runId", "S", "r1",
			      "n", "N", "42", "owner", "S", "ann");
	if (size)
		json_object_set_new(i, "size", json_pack("{s:s}", "S", size));
	return i;
}

static mig_verdict migrate(fixture *f, json_t *it, const char **op, json_t **in, strbuf *why)
{
	double units;
	*in = NULL;
	return ddbc_migrate_item(&f->w, &f->s, "Runs", it, op, in, &units, why);
}

START_TEST(test_new_key_from_a_part_not_stored)
{
	fixture f;
	setup(&f);
	json_t *it = item("STEP#2024-01-02#000042", "OWNER#ann", "7"), *in;
	const char *op = NULL;
	strbuf why = STRBUF_INIT;
	ck_assert_int_eq(migrate(&f, it, &op, &in, &why), MIG_WRITE);
	ck_assert_str_eq(op, "TransactWriteItems");
	json_t *items = json_object_get(in, "TransactItems");
	json_t *put = json_object_get(json_array_get(items, 0), "Put");
	json_t *del = json_object_get(json_array_get(items, 1), "Delete");
	json_t *after = json_object_get(put, "Item");
	/* the day came out of OLD's key, the number was padded again */
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(after, "sk"), "S")),
			 "S#000042#2024-01-02");
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(after, "gpk"), "S")),
			 "O#ann");
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(after, "size"), "N")),
			 "7");
	ck_assert_str_eq(json_string_value(json_object_get(put, "ConditionExpression")),
			 "attribute_not_exists(#pk)");
	/* the old item goes only as it was read: every attribute */
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(json_object_get(del,
			 "Key"), "sk"), "S")), "STEP#2024-01-02#000042");
	ck_assert_int_eq(json_object_size(json_object_get(del, "ExpressionAttributeValues")), 7);
	json_decref(in);
	json_decref(it);
	ddbc_strbuf_release(&why);
	teardown(&f);
}
END_TEST

START_TEST(test_half_migrated_item_fails)
{
	fixture f;
	setup(&f);
	/* NEW's sort key with OLD's gpk: of neither design, so refused; OLD's
	 * keys with NEW's gpk: OLD's, migrated */
	json_t *it = item("S#000042#2024-01-02", "OWNER#ann", "7"), *in;
	const char *op = NULL;
	strbuf why = STRBUF_INIT;
	ck_assert_int_eq(migrate(&f, it, &op, &in, &why), MIG_FAIL);
	/* the item no longer matches OLD's sort key, nor NEW's gpk */
	ck_assert_ptr_nonnull(strstr(ddbc_strbuf_str(&why), "matches no entity of OLD"));
	json_decref(it);
	ddbc_strbuf_reset(&why);
	it = item("STEP#2024-01-02#000042", "O#ann", NULL);
	ck_assert_int_eq(migrate(&f, it, &op, &in, &why), MIG_WRITE);
	json_decref(in);
	json_decref(it);
	ddbc_strbuf_release(&why);
	teardown(&f);
}
END_TEST

START_TEST(test_migrated_item_is_skipped)
{
	fixture f;
	setup(&f);
	json_t *it = item("S#000042#2024-01-02", "O#ann", NULL), *in;
	json_object_set_new(it, "size", json_pack("{s:s}", "N", "7"));
	const char *op = NULL;
	strbuf why = STRBUF_INIT;
	ck_assert_int_eq(migrate(&f, it, &op, &in, &why), MIG_SKIP);
	ck_assert_ptr_null(in);
	json_decref(it);
	ddbc_strbuf_release(&why);
	teardown(&f);
}
END_TEST

START_TEST(test_value_that_is_no_number)
{
	fixture f;
	setup(&f);
	json_t *it = item("STEP#2024-01-02#000042", "OWNER#ann", "seven"), *in;
	const char *op = NULL;
	strbuf why = STRBUF_INIT;
	ck_assert_int_eq(migrate(&f, it, &op, &in, &why), MIG_FAIL);
	ck_assert_msg(strstr(ddbc_strbuf_str(&why), "'size' ('seven') cannot become a Number"), "%s",
		      ddbc_strbuf_str(&why));
	ck_assert_ptr_null(in);
	json_decref(it);
	ddbc_strbuf_release(&why);
	teardown(&f);
}
END_TEST

START_TEST(test_update_in_place_names_what_it_read)
{
	checked o, n;
	check_text(&o, old_text);
	/* NEW changes only the GSI key's prefix */
	check_text(&n, DESIGN("STEP#{day}#{n:06}", "O#{owner}", "S"));
	mig_work w;
	mig_scratch s;
	ck_assert_int_eq(ddbc_migrate_work_build(&w, o.g, n.g, 0), 0);
	ddbc_migrate_scratch_init(&s, &w);
	json_t *it = item("STEP#2024-01-02#000042", "OWNER#ann", NULL), *in = NULL;
	const char *op = NULL;
	double units;
	strbuf why = STRBUF_INIT;
	ck_assert_int_eq(ddbc_migrate_item(&w, &s, "Runs", it, &op, &in, &units, &why), MIG_WRITE);
	ck_assert_str_eq(op, "UpdateItem");
	ck_assert_str_eq(json_string_value(json_object_get(in, "UpdateExpression")), "SET #n0 = :v0");
	/* the key, owner (read), gpk (changed): each as it was read */
	ck_assert_str_eq(json_string_value(json_object_get(in, "ConditionExpression")),
			 "#n1 = :c1 AND #n2 = :c2 AND #n3 = :c3 AND #n0 = :c4");
	json_t *names = json_object_get(in, "ExpressionAttributeNames");
	ck_assert_str_eq(json_string_value(json_object_get(names, "#n3")), "owner");
	json_decref(in);
	json_decref(it);
	ddbc_strbuf_release(&why);
	ddbc_migrate_scratch_release(&s);
	ddbc_migrate_work_release(&w);
	checked_free(&n);
	checked_free(&o);
}
END_TEST

START_TEST(test_new_table_is_refused)
{
	checked o, n;
	check_text(&o, old_text);
	static const char other_key[] =
		"ddbc: 1\nname: runs\ntables:\n  Runs:\n    partition_key: runId\n"
		"entities:\n  Run:\n    table: Runs\n    attributes:\n      runId: { type: S }\n";
	check_text(&n, other_key);
	mig_work w;
	ck_assert_int_eq(ddbc_migrate_work_build(&w, o.g, n.g, 0), 2);
	ddbc_migrate_work_release(&w);
	checked_free(&n);
	checked_free(&o);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("migrate");
	TCase *tc = tcase_create("item");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_new_key_from_a_part_not_stored);
	tcase_add_test(tc, test_half_migrated_item_fails);
	tcase_add_test(tc, test_migrated_item_is_skipped);
	tcase_add_test(tc, test_value_that_is_no_number);
	tcase_add_test(tc, test_update_in_place_names_what_it_read);
	tcase_add_test(tc, test_new_table_is_refused);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
