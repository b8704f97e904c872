/* check_export.c - `ddbc export`: the three formats of every sample as golden
 * files, and the facts a request must get right checked one by one
 *
 * The goldens are tests/golden/export/SAMPLE.FORMAT.json (DDBC_UPDATE_GOLDEN=1
 * rewrites them). tests/fixtures/export/edge.ddb.yaml exercises what the
 * samples do not: provisioned throughput, INCLUDE lists naming key
 * attributes, a multi-attribute GSI key, an LSI, every key operator and
 * operation, reserved and non-identifier names, zero-padded parameters.
 * Whether DynamoDB accepts the requests is tests/e2e.test's job.
 */
#include "emit/emit_json.h"
#include "testutil.h"

#include <check.h>
#include <glob.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EDGE "tests/fixtures/export/edge.ddb.yaml"
#define MISSING "tests/fixtures/export/missing-param.ddb.yaml"
#define PUT_KEYS "tests/fixtures/export/put-keys.ddb.yaml"
#define PARAM_GOOD "tests/rules/param-value/good.yaml"
#define PARAM_BAD "tests/rules/param-value/bad.yaml"

static const char *const formats[] = { "create-table", "model", "queries" };
#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

/* The samples' base names (samples/NAME.ddb.yaml), found at start-up. */
static char **samples;
static size_t nsamples;

static void find_samples(void)
{
	char *pattern = tu_srcpath("samples/*.ddb.yaml");
	glob_t g;
	if (glob(pattern, 0, NULL, &g) != 0) {
		fprintf(stderr, "no samples match %s\n", pattern);
		exit(1);
	}
	samples = calloc(g.gl_pathc, sizeof(*samples));
	for (size_t i = 0; i < g.gl_pathc; i++) {
		const char *base = strrchr(g.gl_pathv[i], '/') + 1;
		samples[nsamples++] = strndup(base, strlen(base) - strlen(".ddb.yaml"));
	}
	globfree(&g);
	free(pattern);
}

/* ---- running export ------------------------------------------------------------ */

/* Runs `ddbc export --format FMT [ARGS...] FILE`, expects exit status 0 and
 * returns the parsed output. */
static json_t *export_json(const char *format, const char *file, const char *const *args)
{
	const char *argv[32] = { "export", "--format", format };
	size_t n = 3;
	for (size_t i = 0; args && args[i]; i++)
		argv[n++] = args[i];
	argv[n++] = file;
	argv[n] = NULL;
	tu_proc p;
	tu_run_argv(&p, NULL, argv);
	ck_assert_msg(p.status == 0, "export --format %s %s: status %d\n%s", format, file, p.status,
		      p.err);
	json_error_t err;
	json_t *v = json_loadb(p.out, p.out_len, 0, &err);
	ck_assert_msg(v != NULL, "export --format %s %s: not JSON: %s", format, file, err.text);
	tu_proc_free(&p);
	return v;
}

/* The element of array a whose member key is the string value. */
static json_t *find(json_t *a, const char *key, const char *value)
{
	size_t i;
	json_t *e;
	json_array_foreach(a, i, e) {
		const char *s = json_string_value(json_object_get(e, key));
		if (s && !strcmp(s, value))
			return e;
	}
	ck_abort_msg("no element with %s '%s'", key, value);
	return NULL;
}

/* Asserts that v, dumped compactly with sorted keys, is expected. */
#define expect_json(v, expected)                                                               \
	do {                                                                                   \
		char *got_ = json_dumps((v), JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);   \
		ck_assert_msg(got_ && !strcmp(got_, (expected)), "got %s\nexpected %s",          \
			      got_ ? got_ : "(nothing)", (expected));                          \
		free(got_);                                                                    \
	} while (0)

static json_t *input_of(json_t *queries, const char *pattern)
{
	return json_object_get(find(queries, "pattern", pattern), "input");
}

static const char *str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	ck_assert_msg(s != NULL, "no string '%s'", key);
	return s;
}

/* ---- golden files ---------------------------------------------------------------- */

START_TEST(test_golden)
{
	const char *sample = samples[_i / NFORMATS], *format = formats[_i % NFORMATS];
	char design[256], golden[256];
	snprintf(design, sizeof(design), "samples/%s.ddb.yaml", sample);
	snprintf(golden, sizeof(golden), "tests/golden/export/%s.%s.json", sample, format);
	tu_proc a, b;
	tu_run(&a, NULL, "export", "--format", format, design, NULL);
	ck_assert_msg(a.status == 0, "%s: status %d\n%s", design, a.status, a.err);
	tu_expect_golden(golden, a.out, a.out_len);
	/* The same input gives the same bytes. */
	tu_run(&b, NULL, "export", "--format", format, design, NULL);
	ck_assert(a.out_len == b.out_len && !memcmp(a.out, b.out, a.out_len));
	tu_proc_free(&a);
	tu_proc_free(&b);
}
END_TEST

/* Strings JSON must escape (quotes, backslashes, control characters) and
 * must not (non-ASCII, '/', DEL), written as jansson writes them. */
START_TEST(test_golden_escapes)
{
	tu_proc a;
	tu_run(&a, NULL, "export", "--format", "model", "tests/fixtures/json-strings.ddb.yaml",
	       NULL);
	ck_assert_msg(a.status == 0, "status %d\n%s", a.status, a.err);
	tu_expect_golden("tests/golden/export/json-strings.model.json", a.out, a.out_len);
	json_error_t err;
	json_t *v = json_loadb(a.out, a.out_len, 0, &err);
	ck_assert_msg(v != NULL, "not JSON: %s", err.text);
	ck_assert_str_eq(json_string_value(json_object_get(v, "name")),
			 "we\"ird \\ name\t\001\037/é漢字😀");
	json_decref(v);
	tu_proc_free(&a);
}
END_TEST

START_TEST(test_default_format_is_create_table)
{
	tu_proc a, b;
	tu_run(&a, NULL, "export", "samples/todo.ddb.yaml", NULL);
	tu_run(&b, NULL, "export", "--format", "create-table", "samples/todo.ddb.yaml", NULL);
	ck_assert_int_eq(a.status, 0);
	ck_assert(a.out_len == b.out_len && !memcmp(a.out, b.out, a.out_len));
	ck_assert_msg(a.out_len && a.out[a.out_len - 1] == '\n', "no trailing newline");
	tu_proc_free(&a);
	tu_proc_free(&b);
}
END_TEST

/* ---- create-table ---------------------------------------------------------------- */

START_TEST(test_attribute_definitions_are_the_keys)
{
	json_t *all = export_json("create-table", EDGE, NULL);
	json_t *t = json_array_get(all, 0);
	/* Table, GSIs, LSI: each key attribute once, in order of first use;
	 * note and order_ref are projected, not keys. */
	expect_json(json_object_get(t, "AttributeDefinitions"),
		    "[{\"AttributeName\":\"PK\",\"AttributeType\":\"S\"},"
		    "{\"AttributeName\":\"SK\",\"AttributeType\":\"S\"},"
		    "{\"AttributeName\":\"status\",\"AttributeType\":\"S\"},"
		    "{\"AttributeName\":\"total\",\"AttributeType\":\"N\"},"
		    "{\"AttributeName\":\"shopId\",\"AttributeType\":\"S\"},"
		    "{\"AttributeName\":\"region\",\"AttributeType\":\"S\"},"
		    "{\"AttributeName\":\"day\",\"AttributeType\":\"S\"},"
		    "{\"AttributeName\":\"seq\",\"AttributeType\":\"N\"}]");
	expect_json(json_object_get(t, "KeySchema"),
		    "[{\"AttributeName\":\"PK\",\"KeyType\":\"HASH\"},"
		    "{\"AttributeName\":\"SK\",\"KeyType\":\"RANGE\"}]");
	json_decref(all);
}
END_TEST

START_TEST(test_multi_attribute_key_schema)
{
	json_t *all = export_json("create-table", EDGE, NULL);
	json_t *t = json_array_get(all, 0);
	json_t *gsi = find(json_object_get(t, "GlobalSecondaryIndexes"), "IndexName", "ByShop");
	/* Every HASH element, then every RANGE element, each in key order. */
	expect_json(json_object_get(gsi, "KeySchema"),
		    "[{\"AttributeName\":\"shopId\",\"KeyType\":\"HASH\"},"
		    "{\"AttributeName\":\"region\",\"KeyType\":\"HASH\"},"
		    "{\"AttributeName\":\"day\",\"KeyType\":\"RANGE\"},"
		    "{\"AttributeName\":\"seq\",\"KeyType\":\"RANGE\"}]");
	expect_json(json_object_get(gsi, "Projection"), "{\"ProjectionType\":\"KEYS_ONLY\"}");
	json_decref(all);
}
END_TEST

START_TEST(test_projections)
{
	json_t *all = export_json("create-table", EDGE, NULL);
	json_t *t = json_array_get(all, 0);
	json_t *gsis = json_object_get(t, "GlobalSecondaryIndexes");
	/* Key attributes and repeats leave the INCLUDE list. */
	expect_json(json_object_get(find(gsis, "IndexName", "ByStatus"), "Projection"),
		    "{\"NonKeyAttributes\":[\"note\",\"order_ref\"],\"ProjectionType\":\"INCLUDE\"}");
	/* An INCLUDE of key attributes only stays as written (it projects the
	 * keys only, but a table made from a source that says INCLUDE is the
	 * table this export makes). */
	expect_json(json_object_get(find(gsis, "IndexName", "KeysViaInclude"), "Projection"),
		    "{\"NonKeyAttributes\":[\"SK\",\"shopId\"],\"ProjectionType\":\"INCLUDE\"}");
	json_t *lsi = find(json_object_get(t, "LocalSecondaryIndexes"), "IndexName", "ByDay");
	expect_json(lsi, "{\"IndexName\":\"ByDay\",\"KeySchema\":["
			 "{\"AttributeName\":\"PK\",\"KeyType\":\"HASH\"},"
			 "{\"AttributeName\":\"day\",\"KeyType\":\"RANGE\"}],"
			 "\"Projection\":{\"ProjectionType\":\"KEYS_ONLY\"}}");
	json_decref(all);
}
END_TEST

START_TEST(test_provisioned_throughput)
{
	json_t *all = export_json("create-table", EDGE, NULL);
	json_t *t = json_array_get(all, 0);
	ck_assert_str_eq(str(t, "BillingMode"), "PROVISIONED");
	expect_json(json_object_get(t, "ProvisionedThroughput"),
		    "{\"ReadCapacityUnits\":5,\"WriteCapacityUnits\":2}");
	json_t *gsis = json_object_get(t, "GlobalSecondaryIndexes");
	/* A GSI's own capacity, else the table's. */
	expect_json(json_object_get(find(gsis, "IndexName", "ByStatus"), "ProvisionedThroughput"),
		    "{\"ReadCapacityUnits\":3,\"WriteCapacityUnits\":1}");
	expect_json(json_object_get(find(gsis, "IndexName", "ByShop"), "ProvisionedThroughput"),
		    "{\"ReadCapacityUnits\":5,\"WriteCapacityUnits\":2}");
	json_decref(all);
}
END_TEST

START_TEST(test_on_demand_has_no_throughput)
{
	json_t *all = export_json("create-table", "samples/stamp-rally.ddb.yaml", NULL);
	json_t *t = json_array_get(all, 0);
	ck_assert_str_eq(str(t, "BillingMode"), "PAY_PER_REQUEST");
	char *text = json_dumps(all, 0);
	ck_assert_ptr_null(strstr(text, "ProvisionedThroughput"));
	free(text);
	json_decref(all);
}
END_TEST

/* ---- queries ----------------------------------------------------------------------- */

START_TEST(test_query_operators_and_names)
{
	json_t *q = export_json("queries", EDGE, NULL);
	json_t *in = input_of(q, "by-status");
	ck_assert_str_eq(str(in, "IndexName"), "ByStatus");
	ck_assert_str_eq(str(in, "KeyConditionExpression"),
			 "#status = :status AND #total BETWEEN :totalLo AND :totalHi");
	expect_json(json_object_get(in, "ExpressionAttributeNames"),
		    "{\"#status\":\"status\",\"#total\":\"total\"}");
	expect_json(json_object_get(in, "ExpressionAttributeValues"),
		    "{\":status\":{\"S\":\"open\"},\":totalHi\":{\"N\":\"20.5\"},"
		    "\":totalLo\":{\"N\":\"10\"}}");
	ck_assert(json_is_false(json_object_get(in, "ScanIndexForward")));

	in = input_of(q, "by-day");
	ck_assert_str_eq(str(in, "KeyConditionExpression"), "PK = :PK AND begins_with(#day, :day)");
	ck_assert(json_is_true(json_object_get(in, "ConsistentRead")));

	in = input_of(q, "orders-after");
	ck_assert_str_eq(str(in, "KeyConditionExpression"), "PK = :PK AND SK >= :SK");
	expect_json(json_object_get(in, "ExpressionAttributeValues"),
		    "{\":PK\":{\"S\":\"SHOP#s1\"},\":SK\":{\"S\":\"ORDER#00042\"}}");
	ck_assert(json_is_true(json_object_get(in, "ScanIndexForward")));
	ck_assert_ptr_null(json_object_get(in, "ExpressionAttributeNames"));
	json_decref(q);
}
END_TEST

START_TEST(test_multi_attribute_query)
{
	json_t *q = export_json("queries", EDGE, NULL);
	json_t *in = input_of(q, "by-shop");
	/* Key order, every attribute by itself; the pattern's example first,
	 * then the entity's example item. */
	ck_assert_str_eq(str(in, "KeyConditionExpression"),
			 "shopId = :shopId AND #region = :region AND #day = :day AND seq >= :seq");
	expect_json(json_object_get(in, "ExpressionAttributeValues"),
		    "{\":day\":{\"S\":\"2026-01-02\"},\":region\":{\"S\":\"us\"},"
		    "\":seq\":{\"N\":\"40\"},\":shopId\":{\"S\":\"s2\"}}");
	json_decref(q);
}
END_TEST

START_TEST(test_zero_padded_parameter)
{
	json_t *q = export_json("queries", EDGE, NULL);
	expect_json(json_object_get(json_object_get(input_of(q, "orders-before"),
						     "ExpressionAttributeValues"), ":SK"),
		    "{\"S\":\"ORDER#00050\"}");
	json_decref(q);
}
END_TEST

/* A condition's ':rev' of a parameter the key pads ({rev:04}) is sent as
 * the key writes it, however it is given: the key modules send the same. */
START_TEST(test_condition_of_padded_parameter)
{
	static const char *const file = "tests/fixtures/keys/conditions.ddb.yaml";
	static const char *const args[] = { "--param", "rev=7", NULL };
	json_t *q = export_json("queries", file, NULL);
	json_t *in = input_of(q, "bump-rev");
	expect_json(json_object_get(json_object_get(in, "Key"), "SK"), "{\"S\":\"REV#d1#0002\"}");
	expect_json(json_object_get(in, "ExpressionAttributeValues"), "{\":rev\":{\"N\":\"0002\"}}");
	json_decref(q);
	q = export_json("queries", file, args);
	expect_json(json_object_get(input_of(q, "bump-rev"), "ExpressionAttributeValues"),
		    "{\":rev\":{\"N\":\"0007\"}}");
	/* A Number no key pads is sent as given. */
	expect_json(json_object_get(input_of(q, "drop-doc"), "ExpressionAttributeValues"),
		    "{\":version\":{\"N\":\"3\"}}");
	json_decref(q);
}
END_TEST

START_TEST(test_get_scan_update_delete)
{
	json_t *q = export_json("queries", EDGE, NULL);
	ck_assert_str_eq(str(find(q, "pattern", "get-order"), "operation"), "GetItem");
	expect_json(input_of(q, "get-order"),
		    "{\"ConsistentRead\":true,\"Key\":{\"PK\":{\"S\":\"SHOP#s1\"},"
		    "\"SK\":{\"S\":\"ORDER#00042\"}},\"TableName\":\"orders\"}");
	/* UpdateExpression is the caller's: the design does not say what changes. */
	expect_json(input_of(q, "update-order"),
		    "{\"ConditionExpression\":\"attribute_exists(PK)\",\"Key\":{\"PK\":{\"S\":"
		    "\"SHOP#s1\"},\"SK\":{\"S\":\"ORDER#00042\"}},\"TableName\":\"orders\"}");
	expect_json(input_of(q, "delete-order"),
		    "{\"Key\":{\"PK\":{\"S\":\"SHOP#s1\"},\"SK\":{\"S\":\"ORDER#00042\"}},"
		    "\"TableName\":\"orders\"}");
	ck_assert_str_eq(str(find(q, "pattern", "scan-by-day"), "operation"), "Scan");
	expect_json(input_of(q, "scan-by-day"), "{\"IndexName\":\"ByDay\",\"TableName\":\"orders\"}");
	json_decref(q);
}
END_TEST

START_TEST(test_put_item_and_condition)
{
	json_t *q = export_json("queries", EDGE, NULL);
	json_t *in = input_of(q, "put-order");
	ck_assert_str_eq(str(find(q, "pattern", "put-order"), "operation"), "PutItem");
	/* The entity's first example, in DynamoDB JSON typed by the attributes. */
	expect_json(json_object_get(in, "Item"),
		    "{\"PK\":{\"S\":\"SHOP#s1\"},\"SK\":{\"S\":\"ORDER#00042\"},"
		    "\"day\":{\"S\":\"2026-01-02\"},\"lines\":{\"L\":[{\"M\":{\"qty\":{\"N\":\"2\"},"
		    "\"sku\":{\"S\":\"a\"}}},{\"N\":\"7\"},{\"BOOL\":true},{\"NULL\":true}]},"
		    "\"note\":{\"S\":\"hello\"},\"order_ref\":{\"S\":\"r-1\"},"
		    "\"region\":{\"S\":\"eu\"},\"seq\":{\"N\":\"42\"},\"shopId\":{\"S\":\"s1\"},"
		    "\"status\":{\"S\":\"open\"},\"tags\":{\"SS\":[\"new\",\"gift\"]},"
		    "\"total\":{\"N\":\"12.5\"}}");
	/* Reserved and non-identifier names get placeholders; functions,
	 * keywords and value placeholders stay. */
	ck_assert_str_eq(str(in, "ConditionExpression"),
			 "attribute_not_exists(PK) AND (attribute_not_exists(#status) OR "
			 "#order_ref <> :ref)");
	expect_json(json_object_get(in, "ExpressionAttributeNames"),
		    "{\"#order_ref\":\"order_ref\",\"#status\":\"status\"}");
	/* ':ref' takes parameter ref's value (the pattern's example). */
	expect_json(json_object_get(in, "ExpressionAttributeValues"), "{\":ref\":{\"S\":\"r-0\"}}");
	json_decref(q);
}
END_TEST

/* A put writes what items hold: not the key parts that the example shows
 * but items do not store (the forum's reply keyed by forum and subject). */
START_TEST(test_put_leaves_out_unstored_parts)
{
	json_t *q = export_json("queries", "tests/fixtures/stored/forum.ddb.yaml", NULL);
	expect_json(json_object_get(input_of(q, "post-reply"), "Item"),
		    "{\"Id\":{\"S\":\"Amazon S3#S3 Thread 1\"},"
		    "\"Message\":{\"S\":\"DynamoDB Thread 2 Reply 1 text\"},"
		    "\"PostedBy\":{\"S\":\"User A\"},"
		    "\"ReplyDateTime\":{\"S\":\"2015-10-01T00:00:00Z\"}}");
	json_decref(q);

	/* The model export says so, and derives required as the checks do. */
	json_t *m = export_json("model", "tests/fixtures/stored/forum.ddb.yaml", NULL);
	json_t *reply = find(json_object_get(m, "entities"), "name", "Reply");
	json_t *forum = find(json_object_get(reply, "attributes"), "name", "ForumName");
	ck_assert(json_is_false(json_object_get(forum, "stored")));
	ck_assert(json_is_false(json_object_get(forum, "required")));
	ck_assert(json_is_false(json_object_get(forum, "key")));
	json_t *id = find(json_object_get(reply, "attributes"), "name", "Id");
	ck_assert_ptr_null(json_object_get(id, "stored"));
	ck_assert(json_is_true(json_object_get(id, "required")));
	json_decref(m);
}
END_TEST

START_TEST(test_param_overrides)
{
	static const char *const args[] = { "--param", "shopId=s9", "--param", "seq=7",
					    "--param", "seq=8", NULL };
	json_t *q = export_json("queries", EDGE, args);
	/* The last --param of a name wins; the item follows the parameters,
	 * its templates rendered again. */
	json_t *item = json_object_get(input_of(q, "put-order"), "Item");
	expect_json(json_object_get(item, "PK"), "{\"S\":\"SHOP#s9\"}");
	expect_json(json_object_get(item, "SK"), "{\"S\":\"ORDER#00008\"}");
	expect_json(json_object_get(item, "shopId"), "{\"S\":\"s9\"}");
	expect_json(json_object_get(item, "seq"), "{\"N\":\"8\"}");
	expect_json(json_object_get(item, "note"), "{\"S\":\"hello\"}");
	expect_json(json_object_get(input_of(q, "get-order"), "Key"),
		    "{\"PK\":{\"S\":\"SHOP#s9\"},\"SK\":{\"S\":\"ORDER#00008\"}}");
	/* --param wins over the pattern's example too. */
	expect_json(json_object_get(json_object_get(input_of(q, "by-shop"),
						    "ExpressionAttributeValues"), ":shopId"),
		    "{\"S\":\"s9\"}");
	json_decref(q);
}
END_TEST

START_TEST(test_missing_parameter)
{
	tu_proc p;
	tu_run(&p, NULL, "export", "--format", "queries", MISSING, NULL);
	ck_assert_int_eq(p.status, 1);
	ck_assert_uint_eq(p.out_len, 0);
	/* One finding per parameter, at the condition that uses it: the design's
	 * check (lint's param-no-value) says it before the emitter would. */
	ck_assert_msg(tu_contains(p.err, p.err_len,
				  MISSING ":21:11: error: parameter 'day' of access pattern "
				  "'events-in-month' has no value, which `ddbc export --format "
				  "queries` needs to write its request; give it in the pattern's "
				  "example (example: { day: ... }) or an example item of its "
				  "entity, or pass --param day=VALUE to the export [param-no-value]"),
		      "%s", p.err);
	ck_assert_msg(tu_contains(p.err, p.err_len,
				  MISSING ":22:26: error: parameter 'month' of access pattern "
				  "'events-in-month' has no value"),
		      "%s", p.err);
	/* A condition's ':who' is a parameter too, reported at the condition. */
	ck_assert_msg(tu_contains(p.err, p.err_len,
				  MISSING ":26:16: error: parameter 'who' of access pattern "
				  "'close-event' has no value"),
		      "%s", p.err);
	tu_proc_free(&p);

	static const char *const args[] = { "--param", "day=2026-05-01", "--param", "month=2026-05",
					    "--param", "at=t1", "--param", "id=e1", "--param",
					    "who=me", NULL };
	json_t *q = export_json("queries", MISSING, args);
	expect_json(json_object_get(input_of(q, "events-in-month"), "ExpressionAttributeValues"),
		    "{\":PK\":{\"S\":\"DAY#2026-05-01\"},\":SK\":{\"S\":\"EVENT#2026-05\"}}");
	expect_json(input_of(q, "close-event"),
		    "{\"ConditionExpression\":\"attribute_exists(PK) AND closedBy <> :who\","
		    "\"ExpressionAttributeValues\":{\":who\":{\"S\":\"me\"}},"
		    "\"Key\":{\"PK\":{\"S\":\"DAY#2026-05-01\"},\"SK\":{\"S\":\"EVENT#t1#e1\"}},"
		    "\"TableName\":\"events\"}");
	json_decref(q);
	/* The other formats need no parameter. */
	json_decref(export_json("create-table", MISSING, NULL));
	json_decref(export_json("model", MISSING, NULL));
}
END_TEST

START_TEST(test_param_must_be_utf8)
{
	tu_proc p;
	tu_run(&p, NULL, "export", "--format", "queries", "--param", "month=\xff", MISSING, NULL);
	ck_assert_int_eq(p.status, 2);
	ck_assert_uint_eq(p.out_len, 0);
	ck_assert_msg(tu_contains(p.err, p.err_len, "not valid UTF-8"), "%s", p.err);
	tu_proc_free(&p);
}
END_TEST

START_TEST(test_projection_expression)
{
	json_t *q = export_json("queries", PUT_KEYS, NULL);
	/* `returns` in order; a reserved word and a name that is no
	 * identifier through placeholders. */
	json_t *in = input_of(q, "get-book");
	ck_assert_str_eq(str(in, "ProjectionExpression"), "#name, #attr, author");
	expect_json(json_object_get(in, "ExpressionAttributeNames"),
		    "{\"#attr\":\"page-count\",\"#name\":\"name\"}");
	in = input_of(q, "books-by-author");
	ck_assert_str_eq(str(in, "ProjectionExpression"), "#name");
	/* A write returns no attributes: no projection. */
	ck_assert_ptr_null(json_object_get(input_of(q, "lend-book"), "ProjectionExpression"));
	json_decref(q);
}
END_TEST

START_TEST(test_put_writes_every_index_key)
{
	json_t *q = export_json("queries", PUT_KEYS, NULL);
	/* No example item: the table's keys, then the GSI's and the LSI's,
	 * built from the pattern's parameters (due comes from its example). */
	expect_json(json_object_get(input_of(q, "lend-book"), "Item"),
		    "{\"GSI1PK\":{\"S\":\"BOOK#b1\"},\"GSI1SK\":{\"S\":\"DUE#2026-02-01#m1\"},"
		    "\"LSI1SK\":{\"S\":\"DUE#2026-02-01\"},\"PK\":{\"S\":\"MEMBER#m1\"},"
		    "\"SK\":{\"S\":\"LOAN#b1\"}}");
	json_decref(q);
	/* The command line's values build them too. */
	static const char *const args[] = { "--param", "due=2026-03-01", NULL };
	q = export_json("queries", PUT_KEYS, args);
	json_t *item = json_object_get(input_of(q, "lend-book"), "Item");
	expect_json(json_object_get(item, "GSI1SK"), "{\"S\":\"DUE#2026-03-01#m1\"}");
	expect_json(json_object_get(item, "LSI1SK"), "{\"S\":\"DUE#2026-03-01\"}");
	json_decref(q);
}
END_TEST

/* Runs export --format queries with one --param; expects the usage status,
 * no output, and the message. */
static void expect_bad_param(const char *file, const char *param, const char *message)
{
	tu_proc p;
	tu_run(&p, NULL, "export", "--format", "queries", "--param", param, file, NULL);
	ck_assert_msg(p.status == 2, "--param %s: status %d\n%s", param, p.status, p.err);
	ck_assert_uint_eq(p.out_len, 0);
	ck_assert_msg(tu_contains(p.err, p.err_len, message), "%s", p.err);
	tu_proc_free(&p);
}

START_TEST(test_param_value_checked)
{
	expect_bad_param(PARAM_GOOD, "min_score=abc",
			 "ddbc: --param min_score=abc: the value is not a number; access pattern "
			 "'top-scores' puts it in key attribute 'score' (a Number) (" PARAM_GOOD
			 ":25:20)");
	expect_bad_param(EDGE, "seq=123456", "the value has more digits than the placeholder's "
			 "width");
	expect_bad_param(EDGE, "seq=-3", "is not a non-negative whole number");
	expect_bad_param(PUT_KEYS, "memberId=m#1", "the value holds the key delimiter '#'");
	/* A value that fits is taken. */
	static const char *const args[] = { "--param", "min_score=1.5e3", NULL };
	json_decref(export_json("queries", PARAM_GOOD, args));
}
END_TEST

START_TEST(test_example_value_never_exported)
{
	/* Even with the rule off, a value that cannot stand is not sent. */
	tu_proc p;
	tu_run(&p, NULL, "export", "--format", "queries", "--rule", "param-value=off", PARAM_BAD,
	       NULL);
	ck_assert_int_eq(p.status, 1);
	ck_assert_uint_eq(p.out_len, 0);
	ck_assert_msg(tu_contains(p.err, p.err_len,
				  PARAM_BAD ":26:42: error: access pattern 'top-scores' puts parameter "
				  "'min_score' in key attribute 'score' (a Number), but its value 'high' "
				  "is not a number; pass --param min_score=VALUE [param-value]"),
		      "%s", p.err);
	tu_proc_free(&p);
	/* The command line's value replaces it. */
	static const char *const args[] = { "--rule", "param-value=off", "--param",
					    "min_score=900", NULL };
	json_t *q = export_json("queries", PARAM_BAD, args);
	expect_json(json_object_get(json_object_get(input_of(q, "top-scores"),
						    "ExpressionAttributeValues"), ":score"),
		    "{\"N\":\"900\"}");
	json_decref(q);
}
END_TEST

START_TEST(test_number_constant_never_exported)
{
	tu_proc p;
	/* lint reports it (pattern-operator-type) ... */
	tu_run(&p, NULL, "export", "--format", "queries",
	       "tests/fixtures/export/number-constant.ddb.yaml", NULL);
	ck_assert_int_eq(p.status, 1);
	ck_assert_uint_eq(p.out_len, 0);
	ck_assert_msg(tu_contains(p.err, p.err_len, "'ge' compares 'score', a Number, with 'abc', "
				  "which is no number"), "%s", p.err);
	tu_proc_free(&p);
	/* ... and with the rule off the export still refuses to write it. */
	tu_run(&p, NULL, "export", "--format", "queries", "--rule", "pattern-operator-type=off",
	       "tests/fixtures/export/number-constant.ddb.yaml", NULL);
	ck_assert_int_eq(p.status, 1);
	ck_assert_uint_eq(p.out_len, 0);
	ck_assert_msg(tu_contains(p.err, p.err_len,
				  "tests/fixtures/export/number-constant.ddb.yaml:28:20: error: access "
				  "pattern 'top-scores' compares Number key 'score' with 'abc', which is "
				  "not a number; write a number [pattern-operator-type]"),
		      "%s", p.err);
	tu_proc_free(&p);
}
END_TEST

START_TEST(test_design_with_errors_exports_nothing)
{
	tu_proc p;
	tu_run(&p, NULL, "export", "tests/fixtures/many-rules.ddb.yaml", NULL);
	ck_assert_int_eq(p.status, 1);
	ck_assert_uint_eq(p.out_len, 0);
	tu_proc_free(&p);
}
END_TEST

/* ---- model ------------------------------------------------------------------------- */

/* --compact writes every format's document as jansson's JSON_COMPACT
 * would: the same values, one line. */
START_TEST(test_compact)
{
	static const char *const formats[] = { "create-table", "model", "queries",
					       "cloudformation" };
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		tu_proc a, b;
		tu_run(&a, NULL, "export", "--format", formats[i], "samples/stamp-rally.ddb.yaml",
		       NULL);
		tu_run(&b, NULL, "export", "--compact", "--format", formats[i],
		       "samples/stamp-rally.ddb.yaml", NULL);
		ck_assert_int_eq(a.status, 0);
		ck_assert_int_eq(b.status, 0);
		json_error_t err;
		json_t *x = json_loadb(a.out, a.out_len, 0, &err);
		json_t *y = json_loadb(b.out, b.out_len, 0, &err);
		ck_assert_ptr_nonnull(x);
		ck_assert_ptr_nonnull(y);
		ck_assert_msg(json_equal(x, y), "%s: --compact changed the values", formats[i]);
		char *want = json_dumps(x, JSON_COMPACT | JSON_PRESERVE_ORDER |
					       JSON_REAL_PRECISION(15) | JSON_ENCODE_ANY);
		ck_assert_uint_eq(b.out_len, strlen(want) + 1);
		ck_assert(!memcmp(b.out, want, strlen(want)) && b.out[b.out_len - 1] == '\n');
		free(want);
		json_decref(x);
		json_decref(y);
		tu_proc_free(&a);
		tu_proc_free(&b);
	}
}
END_TEST

START_TEST(test_model_derived_facts)
{
	json_t *m = export_json("model", EDGE, NULL);
	json_t *table = json_array_get(json_object_get(m, "tables"), 0);
	json_t *ix = find(json_object_get(table, "indexes"), "name", "ByShop");
	expect_json(json_object_get(ix, "partition_key"), "[\"shopId\",\"region\"]");
	expect_json(json_object_get(ix, "sort_key"), "[\"day\",\"seq\"]");
	expect_json(json_object_get(ix, "entities"), "[\"Order\"]");
	ck_assert_str_eq(str(json_array_get(json_object_get(table, "indexes"), 0), "kind"), "table");

	json_t *order = find(json_object_get(m, "entities"), "name", "Order");
	expect_json(json_object_get(order, "indexes"),
		    "[\"orders\",\"ByStatus\",\"ByShop\",\"KeysViaInclude\",\"ByDay\"]");
	json_t *status = find(json_object_get(order, "attributes"), "name", "status");
	expect_json(json_object_get(status, "roles"),
		    "[{\"index\":\"orders\",\"role\":\"projected\"},"
		    "{\"index\":\"ByStatus\",\"role\":\"partition_key\"}]");
	json_t *sk = find(json_object_get(order, "attributes"), "name", "SK");
	expect_json(json_object_get(sk, "placeholders"), "[\"seq\"]");
	ck_assert(json_is_true(json_object_get(sk, "required")));

	json_t *p = find(json_object_get(m, "access_patterns"), "id", "by-shop");
	expect_json(json_object_get(p, "parameters"), "[\"shopId\",\"region\",\"day\"]");
	expect_json(json_object_get(p, "matched"), "[\"Order\"]");
	ck_assert_str_eq(str(p, "index"), "ByShop");
	json_decref(m);
}
END_TEST

/* Exact numbers travel through jansson marked (ddbc_json_number) and come
 * out as their digits; a design string that starts with the mark's bytes
 * comes out as that string, whatever follows the mark. */
START_TEST(test_number_marks)
{
	json_t *o = json_object();
	json_object_set_new(o, "n", ddbc_json_number("1.10", 4));
	json_object_set_new(o, "big", ddbc_json_number("-12345678901234567890123456789012345678e-3", 42));
	json_object_set_new(o, "s", ddbc_json_str("\x01\x02" "abc"));
	json_object_set_new(o, "d", ddbc_json_str("\x01\x02" "12"));
	json_object_set_new(o, "dd", ddbc_json_str("\x01\x02\x01\x02" "7"));
	char *text = json_dumps(o, JSON_PRESERVE_ORDER | JSON_COMPACT);
	text[ddbc_json_unmark(text, strlen(text))] = '\0';
	ck_assert_str_eq(text, "{\"n\":1.10,\"big\":-12345678901234567890123456789012345678e-3,"
			 "\"s\":\"\\u0001\\u0002abc\",\"d\":\"\\u0001\\u000212\","
			 "\"dd\":\"\\u0001\\u0002\\u0001\\u00027\"}");
	free(text);
	json_decref(o);
}
END_TEST

static Suite *export_suite(void)
{
	Suite *s = suite_create("export");
	TCase *golden = tcase_create("golden");
	tcase_set_timeout(golden, 60);
	tcase_add_loop_test(golden, test_golden, 0, (int)(nsamples * NFORMATS));
	tcase_add_test(golden, test_default_format_is_create_table);
	tcase_add_test(golden, test_golden_escapes);
	tcase_add_test(golden, test_number_marks);
	suite_add_tcase(s, golden);

	TCase *ct = tcase_create("create-table");
	/* Every case has its own timeout: Check's default (4 s) fails on a
	 * loaded machine (make -j16); these take a second or less alone. */
	tcase_set_timeout(ct, 60);
	tcase_add_test(ct, test_attribute_definitions_are_the_keys);
	tcase_add_test(ct, test_multi_attribute_key_schema);
	tcase_add_test(ct, test_projections);
	tcase_add_test(ct, test_provisioned_throughput);
	tcase_add_test(ct, test_on_demand_has_no_throughput);
	suite_add_tcase(s, ct);

	TCase *q = tcase_create("queries");
	tcase_set_timeout(q, 60);
	tcase_add_test(q, test_query_operators_and_names);
	tcase_add_test(q, test_multi_attribute_query);
	tcase_add_test(q, test_zero_padded_parameter);
	tcase_add_test(q, test_condition_of_padded_parameter);
	tcase_add_test(q, test_get_scan_update_delete);
	tcase_add_test(q, test_put_item_and_condition);
	tcase_add_test(q, test_put_leaves_out_unstored_parts);
	tcase_add_test(q, test_param_overrides);
	tcase_add_test(q, test_missing_parameter);
	tcase_add_test(q, test_param_must_be_utf8);
	tcase_add_test(q, test_design_with_errors_exports_nothing);
	tcase_add_test(q, test_projection_expression);
	tcase_add_test(q, test_put_writes_every_index_key);
	tcase_add_test(q, test_param_value_checked);
	tcase_add_test(q, test_example_value_never_exported);
	tcase_add_test(q, test_number_constant_never_exported);
	suite_add_tcase(s, q);

	TCase *m = tcase_create("model");
	tcase_set_timeout(m, 60);
	tcase_add_test(m, test_model_derived_facts);
	tcase_add_test(m, test_compact);
	suite_add_tcase(s, m);
	return s;
}

int main(void)
{
	find_samples();
	SRunner *sr = srunner_create(export_suite());
	srunner_run_all(sr, CK_ENV);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	for (size_t i = 0; i < nsamples; i++)
		free(samples[i]);
	free(samples);
	return failed ? 1 : 0;
}
