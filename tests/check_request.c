/* check_request.c - a pattern's request as data (model/request.h), the one
 * key comparator, and the item checks both item checkers share
 * (model/item_check.h) */
#include "model/item_check.h"
#include "model/request.h"
#include "model/semantics.h"
#include "testutil.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

static const char design[] =
	"ddbc: 1\n"
	"name: shop\n"
	"key_delimiter: '#'\n"
	"tables:\n"
	"  Shop:\n"
	"    partition_key: PK\n"
	"    sort_key: SK\n"
	"    gsi:\n"
	"      ByDay:\n"
	"        partition_key: [region, day]\n"
	"        sort_key: [rank, at]\n"
	"        projection: all\n"
	"entities:\n"
	"  Order:\n"
	"    table: Shop\n"
	"    attributes:\n"
	"      PK: { type: S, template: 'CUSTOMER#{customerId}' }\n"
	"      SK: { type: S, template: 'ORDER#{orderId}' }\n"
	"      customerId: { type: S }\n"
	"      orderId: { type: S }\n"
	"      region: { type: S }\n"
	"      day: { type: S }\n"
	"      rank: { type: N }\n"
	"      at: { type: S }\n"
	"      status: { type: S, enum: [OPEN, DONE] }\n"
	"      size: { type: N, enum: [1, 2] }\n"
	"access_patterns:\n"
	"  orders-of-customer:\n"
	"    table: Shop\n"
	"    operation: query\n"
	"    key: { SK: { begins_with: 'ORDER#' }, PK: 'CUSTOMER#{customerId}' }\n"
	"    order: desc\n"
	"    consistent_read: true\n"
	"    returns: [orderId, status]\n"
	"  best-of-day:\n"
	"    table: Shop\n"
	"    index: ByDay\n"
	"    operation: query\n"
	"    key: { day: '{day}', region: '{region}', rank: { between: [0x10, 100] } }\n"
	"  one-order:\n"
	"    table: Shop\n"
	"    operation: get\n"
	"    key: { PK: 'CUSTOMER#{customerId}', SK: 'ORDER#{orderId}' }\n"
	"  every-order:\n"
	"    table: Shop\n"
	"    operation: scan\n";

static tu_design t;

static void setup(void)
{
	tu_load_text(&t, design);
	ck_assert_msg(t.design, "%s", tu_diags_dump(&t.d));
	ddbc_semantics(t.design);
}

static void teardown(void)
{
	tu_design_free(&t);
}

static const ddbc_pattern *pattern(const char *id)
{
	for (size_t i = 0; i < t.design->npatterns; i++)
		if (!strcmp(t.design->patterns[i].id.s, id))
			return &t.design->patterns[i];
	ck_abort_msg("no pattern %s", id);
	return NULL;
}

/* ---- the request -------------------------------------------------------------------- */

START_TEST(test_query_request)
{
	const ddbc_pattern *p = pattern("orders-of-customer");
	const ddbc_request *r = ddbc_pattern_request(p);
	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(r->op, DDBC_OP_QUERY);
	ck_assert_ptr_eq(r->key, r->index);
	ck_assert(!r->index_named && r->reads && !r->writes);
	ck_assert_int_eq(r->order, -1);
	ck_assert(r->consistent);
	ck_assert_uint_eq(r->nreturns, 2);
	/* In key order, whatever the order written. */
	ck_assert_uint_eq(r->nconds, 2);
	ck_assert_str_eq(r->conds[0].attr, "PK");
	ck_assert_uint_eq(r->conds[0].key_pos, 0);
	ck_assert_int_eq(r->conds[0].op, DDBC_COND_EQ);
	ck_assert_str_eq(r->conds[1].attr, "SK");
	ck_assert_int_eq(r->conds[1].op, DDBC_COND_BEGINS_WITH);
	/* Parsed once: a template over a parameter, and a constant. */
	ck_assert(r->conds[0].values[0].is_template);
	ck_assert_uint_eq(r->conds[0].values[0].tpl.nsegs, 2);
	ck_assert(r->conds[1].values[0].is_template);
	ck_assert_uint_eq(r->nparams, 1);
	ck_assert_uint_eq(r->params[0]->len, strlen("customerId"));
	ck_assert_ptr_eq(ddbc_request_cond(r, "SK"), &r->conds[1]);
	ck_assert_ptr_null(ddbc_request_cond(r, "status"));
}
END_TEST

START_TEST(test_multi_attribute_request)
{
	const ddbc_request *r = ddbc_pattern_request(pattern("best-of-day"));
	ck_assert(r->index_named);
	ck_assert_str_eq(ddbc_index_key(r->index, 0), "region");
	ck_assert_str_eq(ddbc_index_key(r->index, 3), "at");
	ck_assert_int_eq(ddbc_index_key_type(r->index, 2), DDBC_TYPE_N);
	ck_assert_uint_eq(r->nconds, 3);
	ck_assert_str_eq(r->conds[0].attr, "region");
	ck_assert_str_eq(r->conds[1].attr, "day");
	ck_assert_str_eq(r->conds[2].attr, "rank");
	ck_assert_int_eq(r->conds[2].type, DDBC_TYPE_N);
	ck_assert_uint_eq(r->conds[2].nvalues, 2);
	/* A YAML integer is the decimal text DynamoDB gets. */
	ck_assert(!r->conds[2].values[0].is_template);
	ck_assert_str_eq(r->conds[2].values[0].text, "16");
	strbuf sb = STRBUF_INIT;
	ddbc_render_problem pb;
	ck_assert_int_eq(ddbc_req_value_render(&r->conds[2].values[1], NULL, NULL, &sb, &pb),
			 DDBC_RENDER_OK);
	ck_assert_str_eq(ddbc_strbuf_str(&sb), "100");
	ddbc_strbuf_release(&sb);
}
END_TEST

START_TEST(test_item_and_scan_requests)
{
	const ddbc_request *get = ddbc_pattern_request(pattern("one-order"));
	ck_assert_ptr_eq(get->key, &t.design->tables[0].primary);
	ck_assert_uint_eq(get->nconds, 2);
	ck_assert(get->reads);
	const ddbc_request *scan = ddbc_pattern_request(pattern("every-order"));
	ck_assert_ptr_null(scan->key);
	ck_assert_uint_eq(scan->nconds, 0);
}
END_TEST

START_TEST(test_pattern_cond)
{
	const ddbc_pattern *p = pattern("orders-of-customer");
	ck_assert_str_eq(ddbc_pattern_cond(p, "SK")->attr.s, "SK");
	ck_assert_ptr_null(ddbc_pattern_cond(p, "rank"));
	ck_assert_ptr_null(ddbc_pattern_cond(p, NULL));
	ck_assert_ptr_eq(ddbc_pattern_cond_written(p, "PK"), ddbc_pattern_cond(p, "PK"));
}
END_TEST

/* ---- the key comparator --------------------------------------------------------------- */

START_TEST(test_key_compare)
{
	/* Numbers by value, strings and binary by their bytes. */
	ck_assert_int_gt(ddbc_key_compare(DDBC_TYPE_N, "10", 2, "9", 1), 0);
	ck_assert_int_lt(ddbc_key_compare(DDBC_TYPE_S, "10", 2, "9", 1), 0);
	ck_assert_int_eq(ddbc_key_compare(DDBC_TYPE_N, "1.0", 3, "1", 1), 0);
	ck_assert_int_lt(ddbc_key_compare(DDBC_TYPE_S, "ab", 2, "abc", 3), 0);
	ck_assert_int_gt(ddbc_key_compare(DDBC_TYPE_B, "b", 1, "aaaa", 4), 0);
	/* UTF-8 bytes: 'é' (C3 A9) sorts after 'z'. */
	ck_assert_int_gt(ddbc_key_compare(DDBC_TYPE_S, "\xc3\xa9", 2, "z", 1), 0);
	/* Exact decimals: 38 digits apart in the last one (a double ties them),
	 * and one number however it is written. */
	static const char lo[] = "12345678901234567890123456789012345678";
	static const char hi[] = "12345678901234567890123456789012345679";
	ck_assert_int_lt(ddbc_key_compare(DDBC_TYPE_N, lo, 38, hi, 38), 0);
	ck_assert_int_gt(ddbc_key_compare(DDBC_TYPE_N, hi, 38, lo, 38), 0);
	ck_assert_int_eq(ddbc_key_compare(DDBC_TYPE_N, "1e2", 3, "100.00", 6), 0);
	ck_assert_int_lt(ddbc_key_compare(DDBC_TYPE_N, "-0.5", 4, ".25", 3), 0);
	ck_assert_int_gt(ddbc_key_compare(DDBC_TYPE_N, "0.1000000000000000000000000000000000001",
					  39, "0.1", 3), 0);
}
END_TEST

START_TEST(test_key_op_holds)
{
	const ddbc_key_text five[] = { { "5", 1 }, { "20", 2 } };
	ck_assert(ddbc_key_op_holds(DDBC_COND_EQ, DDBC_TYPE_N, "5.0", 3, five));
	ck_assert(!ddbc_key_op_holds(DDBC_COND_EQ, DDBC_TYPE_S, "5.0", 3, five));
	ck_assert(ddbc_key_op_holds(DDBC_COND_LT, DDBC_TYPE_N, "4", 1, five));
	ck_assert(ddbc_key_op_holds(DDBC_COND_LE, DDBC_TYPE_N, "5", 1, five));
	ck_assert(!ddbc_key_op_holds(DDBC_COND_GT, DDBC_TYPE_N, "5", 1, five));
	ck_assert(ddbc_key_op_holds(DDBC_COND_GE, DDBC_TYPE_N, "5", 1, five));
	ck_assert(ddbc_key_op_holds(DDBC_COND_BETWEEN, DDBC_TYPE_N, "10", 2, five));
	ck_assert(!ddbc_key_op_holds(DDBC_COND_BETWEEN, DDBC_TYPE_N, "21", 2, five));
	/* As strings, "10" sorts before "5". */
	ck_assert(!ddbc_key_op_holds(DDBC_COND_BETWEEN, DDBC_TYPE_S, "10", 2, five));
	/* A bound one in the 38th digit away is outside, exactly. */
	const ddbc_key_text wide[] = { { "1", 1 }, { "1.0000000000000000000000000000000000001", 39 } };
	ck_assert(!ddbc_key_op_holds(DDBC_COND_BETWEEN, DDBC_TYPE_N,
				     "1.0000000000000000000000000000000000002", 39, wide));
	ck_assert(ddbc_key_op_holds(DDBC_COND_BETWEEN, DDBC_TYPE_N,
				    "1.0000000000000000000000000000000000001", 39, wide));
	const ddbc_key_text order[] = { { "ORDER#", 6 } };
	ck_assert(ddbc_key_op_holds(DDBC_COND_BEGINS_WITH, DDBC_TYPE_S, "ORDER#1", 7, order));
	ck_assert(!ddbc_key_op_holds(DDBC_COND_BEGINS_WITH, DDBC_TYPE_S, "ORDER", 5, order));
}
END_TEST

/* ---- the item checks ------------------------------------------------------------------ */

/* A view over fixed values: name=value pairs, every value a string. */
typedef struct fixed {
	const char *const *pairs;
} fixed;

static void fixed_get(const ddbc_item_view *iv, const ddbc_attr *a, ddbc_value *out)
{
	const fixed *f = iv->item;
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; f->pairs[i]; i += 2) {
		if (strcmp(f->pairs[i], a->name.s))
			continue;
		out->kind = a->type == DDBC_TYPE_N ? DDBC_V_NUMBER : DDBC_V_STRING;
		out->fits = true;
		out->text = f->pairs[i + 1];
		out->len = strlen(out->text);
		out->is_int = a->type == DDBC_TYPE_N;
		out->n = atoll(out->text);
	}
}

static const ddbc_entity *order(void)
{
	return ddbc_design_entity(t.design, "Order");
}

START_TEST(test_item_template)
{
	static const char *const good[] = { "PK", "CUSTOMER#c1", "customerId", "c1", NULL };
	static const char *const bad[] = { "PK", "CUSTOMER#c2", "customerId", "c1", NULL };
	static const char *const lacks[] = { "PK", "CUSTOMER#c1", NULL };
	const ddbc_attr *pk = ddbc_entity_attr(order(), "PK");
	const struct {
		const char *const *pairs;
		ddbc_tcheck want;
		const char *msg;
	} cases[] = {
		{ good, DDBC_TCHECK_OK, "" },
		{ bad, DDBC_TCHECK_MISMATCH, "'PK' is 'CUSTOMER#c2', but its template "
		  "'CUSTOMER#{customerId}' gives 'CUSTOMER#c1' from this item's values" },
		{ lacks, DDBC_TCHECK_LACKS, "'PK' cannot be checked against its template "
		  "'CUSTOMER#{customerId}': the item has no 'customerId'" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fixed f = { cases[i].pairs };
		ddbc_item_view iv = { order(), fixed_get, &f, "#" };
		ddbc_value v, at;
		fixed_get(&iv, pk, &v);
		strbuf msg = STRBUF_INIT;
		const ddbc_attr *gone;
		ck_assert_int_eq(ddbc_item_check_template(&iv, pk, &v, &msg, &at, &gone),
				 cases[i].want);
		ck_assert_str_eq(ddbc_strbuf_str(&msg), cases[i].msg);
		ddbc_strbuf_release(&msg);
	}
}
END_TEST

START_TEST(test_item_delimiter_and_enum)
{
	static const char *const pairs[] = { "customerId", "c#1", "status", "LOST", NULL };
	fixed f = { pairs };
	ddbc_item_view iv = { order(), fixed_get, &f, "#" };
	const ddbc_attr *cid = ddbc_entity_attr(order(), "customerId");
	ddbc_value v;
	fixed_get(&iv, cid, &v);
	strbuf msg = STRBUF_INIT;
	ck_assert_ptr_eq(ddbc_item_delimiter(&iv, cid, &v, &msg), ddbc_entity_attr(order(), "PK"));
	ck_assert(tu_contains(msg.buf, msg.len, "which holds the key delimiter '#'"));
	ddbc_strbuf_reset(&msg);
	const ddbc_attr *status = ddbc_entity_attr(order(), "status");
	fixed_get(&iv, status, &v);
	ck_assert(!ddbc_enum_has(status, DDBC_TYPE_S, &v));
	ddbc_enum_message(status, &v, &msg);
	ck_assert_str_eq(ddbc_strbuf_str(&msg), "'status' is 'LOST', which is not one of its enum "
			 "values (OPEN, DONE)");
	/* Numbers by value: 2.0 is the enum's 2. */
	const ddbc_attr *size = ddbc_entity_attr(order(), "size");
	ddbc_value two = { .kind = DDBC_V_NUMBER, .fits = true, .text = "2.0", .len = 3 };
	ck_assert(ddbc_enum_has(size, DDBC_TYPE_N, &two));
	two.text = "2e0";
	two.len = 3;
	ck_assert(ddbc_enum_has(size, DDBC_TYPE_N, &two));
	/* 2 and a 38-digit neighbour of it are two numbers (a double ties them). */
	ddbc_value near = { .kind = DDBC_V_NUMBER, .fits = true,
			    .text = "2.000000000000000000000000000000000001", .len = 38 };
	ck_assert(!ddbc_enum_has(size, DDBC_TYPE_N, &near));
	ddbc_strbuf_release(&msg);
	/* A required attribute the item lacks, in the same words everywhere. */
	msg = (strbuf)STRBUF_INIT;
	ck_assert(ddbc_item_lacks(&iv, ddbc_entity_attr(order(), "SK"), &msg));
	ck_assert(tu_contains(msg.buf, msg.len, "'SK' is missing ("));
	ck_assert(!ddbc_item_lacks(&iv, status, &msg));
	ddbc_strbuf_release(&msg);
}
END_TEST

START_TEST(test_quoting)
{
	strbuf sb = STRBUF_INIT;
	ddbc_add_quoted(&sb, "a\nb\tc\x01", 6);
	ck_assert_str_eq(ddbc_strbuf_str(&sb), "'a\\nb\\tc\\x01'");
	ddbc_strbuf_reset(&sb);
	char big[200];
	memset(big, 'x', sizeof big);
	ddbc_add_quoted(&sb, big, sizeof big);
	ck_assert_uint_eq(sb.len, 120 + 5);
	ddbc_strbuf_release(&sb);
	ck_assert(ddbc_is_base64("AAE=", 4));
	ck_assert(!ddbc_is_base64("AAE", 3));
	ck_assert(!ddbc_is_base64("A=AE", 4));
}
END_TEST

static Suite *request_suite(void)
{
	Suite *s = suite_create("request");
	TCase *tc = tcase_create("request");
	/* Every case has its own timeout: Check's default (4 s) fails on a
	 * loaded machine (make -j16); these take a second or less alone. */
	tcase_set_timeout(tc, 60);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_query_request);
	tcase_add_test(tc, test_multi_attribute_request);
	tcase_add_test(tc, test_item_and_scan_requests);
	tcase_add_test(tc, test_pattern_cond);
	suite_add_tcase(s, tc);
	tc = tcase_create("keys");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_key_compare);
	tcase_add_test(tc, test_key_op_holds);
	suite_add_tcase(s, tc);
	tc = tcase_create("items");
	tcase_set_timeout(tc, 60);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_item_template);
	tcase_add_test(tc, test_item_delimiter_and_enum);
	tcase_add_test(tc, test_quoting);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(request_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
