/* check_aws.c - the DynamoDB client's parts that need no server
 *
 * The endpoint rule (a URL; plain http only to this machine), which
 * errors are retried and how long the backoff waits, the shared files'
 * INI as botocore reads it, the order in which credentials, region and
 * endpoint are found, and credential_process's JSON. What goes over the
 * wire is proven against a capturing server (tests/aws-*.test).
 */
#include "aws/aws_int.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char dir[] = "/tmp/check_aws.XXXXXX";

/* A file of text in the test's folder; the path is static until the next call. */
static const char *write_file(const char *name, const char *text)
{
	static char path[256];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	return path;
}

/* No AWS variable of the user's, and files that do not exist. */
static void clean_env(void)
{
	static const char *const vars[] = {
		"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE",
		"AWS_DEFAULT_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_ENDPOINT_URL",
		"AWS_ENDPOINT_URL_DYNAMODB", "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS",
	};
	for (size_t i = 0; i < sizeof vars / sizeof *vars; i++)
		unsetenv(vars[i]);
	setenv("AWS_CONFIG_FILE", "/nonexistent/config", 1);
	setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/credentials", 1);
}

static void setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
	clean_env();
}

static void teardown(void)
{
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
	strcpy(dir, "/tmp/check_aws.XXXXXX");
}

/* ---- endpoints ------------------------------------------------------------------- */

START_TEST(test_endpoint_accepted)
{
	static const struct { const char *url; bool loopback; } ok[] = {
		{ "http://127.0.0.1:8000", true }, { "http://127.45.6.7", true },
		{ "http://localhost:4567/", true }, { "http://LOCALHOST:1", true },
		{ "http://[::1]:8000", true }, { "https://dynamodb.eu-west-1.amazonaws.com", false },
		{ "https://10.0.0.5:8443", false }, { "https://localhost:8000", true },
	};
	for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
		bool loopback = !ok[i].loopback;
		char *err = NULL;
		ck_assert_msg(ddbc_aws_endpoint_check(ok[i].url, &loopback, &err) == 0, "%s: %s",
			      ok[i].url, err ? err : "");
		ck_assert_msg(loopback == ok[i].loopback, "%s", ok[i].url);
	}
}
END_TEST

START_TEST(test_endpoint_refused)
{
	static const char *const bad[] = {
		"http://10.0.0.1:8000", "http://dynamodb.example.com", "http://127.0.0.1.example.com",
		"http://localhost.example.com", "http://[::2]:8000", "http://128.0.0.1",
		"ftp://127.0.0.1/", "127.0.0.1:8000", "", "http://", "http://u:p@127.0.0.1:8000",
		"http://127.0.0.1:8000/?x=1", "file:///etc/passwd",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		bool loopback;
		char *err = NULL;
		ck_assert_msg(ddbc_aws_endpoint_check(bad[i], &loopback, &err) < 0, "%s accepted", bad[i]);
		ck_assert_ptr_nonnull(err);
		ck_assert_msg(!strstr(err, ":p@"), "the URL's password is quoted: %s", err);
		free(err);
	}
}
END_TEST

/* ---- retries ------------------------------------------------------------------------ */

static ddbc_dynamo_error err_of(const char *type, long status, bool transport)
{
	ddbc_dynamo_error e = { .http_status = status, .transport = transport };
	snprintf(e.type, sizeof e.type, "%s", type);
	return e;
}

START_TEST(test_retryable)
{
	static const char *const again[] = { "ThrottlingException",
		"ProvisionedThroughputExceededException", "RequestLimitExceeded",
		"TransactionInProgressException", "LimitExceededException" };
	for (size_t i = 0; i < sizeof again / sizeof *again; i++) {
		ddbc_dynamo_error e = err_of(again[i], 400, false);
		ck_assert_msg(ddbc_aws_retryable(&e), "%s", again[i]);
	}
	static const char *const never[] = { "ConditionalCheckFailedException",
		"ValidationException", "ResourceNotFoundException", "AccessDeniedException",
		"UnrecognizedClientException", "" };
	for (size_t i = 0; i < sizeof never / sizeof *never; i++) {
		ddbc_dynamo_error e = err_of(never[i], 400, false);
		ck_assert_msg(!ddbc_aws_retryable(&e), "%s", never[i]);
	}
	ddbc_dynamo_error e500 = err_of("", 500, false), e503 = err_of("", 503, false),
			  e501 = err_of("", 501, false), e429 = err_of("", 429, false),
			  eio = err_of("", 0, true);
	ck_assert(ddbc_aws_retryable(&e500) && ddbc_aws_retryable(&e503) && ddbc_aws_retryable(&e429));
	ck_assert(ddbc_aws_retryable(&eio));
	ck_assert(!ddbc_aws_retryable(&e501));
}
END_TEST

/* Full jitter: uniform in [0, min(20 s, 100 ms * 2^(attempt-1))]. */
START_TEST(test_backoff)
{
	unsigned seed = 42;
	for (int attempt = 1; attempt <= 30; attempt++) {
		long ceiling = attempt <= 9 ? 100L << (attempt - 1) : 20000;
		if (ceiling > 20000)
			ceiling = 20000;
		long lo = ceiling, hi = 0;
		for (int i = 0; i < 2000; i++) {
			long ms = ddbc_aws_backoff_ms(attempt, &seed);
			ck_assert_msg(ms >= 0 && ms <= ceiling, "attempt %d: %ld ms", attempt, ms);
			lo = ms < lo ? ms : lo;
			hi = ms > hi ? ms : hi;
		}
		/* spread over the whole range, not a fixed delay */
		ck_assert_msg(lo < ceiling / 10 && hi > ceiling * 9 / 10, "attempt %d: %ld..%ld",
			      attempt, lo, hi);
	}
}
END_TEST

/* ---- the shared files ---------------------------------------------------------------- */

START_TEST(test_ini)
{
	const char *path = write_file("config",
		"# a comment\n"
		"[default]\n"
		"region = eu-west-1\n"
		"\n"
		"[  profile   dev  ]\n"
		"; another comment\n"
		"region=us-east-2\n"
		"s3 =\n"
		"  region = ap-south-1\n"
		"  max_concurrent_requests = 20\n"
		"output = json # not a comment\n"
		"region = us-west-2\n"
		"[profile other]\n"
		"region = sa-east-1\n");
	char **kv = NULL, *err = NULL;
	ck_assert_int_eq(ddbc_aws_ini_section(path, "profile dev", &kv, &err), 1);
	ck_assert_str_eq(ddbc_aws_ini_get(kv, "region"), "us-west-2");
	ck_assert_str_eq(ddbc_aws_ini_get(kv, "output"), "json # not a comment");
	ck_assert_ptr_null(ddbc_aws_ini_get(kv, "max_concurrent_requests"));
	ck_assert_ptr_null(ddbc_aws_ini_get(kv, "s3"));
	ddbc_aws_ini_free(kv);
	ck_assert_int_eq(ddbc_aws_ini_section(path, "default", &kv, &err), 1);
	ck_assert_str_eq(ddbc_aws_ini_get(kv, "region"), "eu-west-1");
	ddbc_aws_ini_free(kv);
	ck_assert_int_eq(ddbc_aws_ini_section(path, "profile nope", &kv, &err), 0);
	ck_assert_ptr_null(kv);
	ck_assert_int_eq(ddbc_aws_ini_section("/nonexistent/x", "default", &kv, &err), 0);
}
END_TEST

/* ---- the chain ----------------------------------------------------------------------- */

static aws_setup resolve_ok(const ddbc_dynamo_opts *o)
{
	aws_setup s;
	char *err = NULL;
	ck_assert_msg(ddbc_aws_setup_resolve(o, &s, &err) == 0, "%s", err ? err : "");
	return s;
}

static char *resolve_fails(const ddbc_dynamo_opts *o)
{
	aws_setup s;
	char *err = NULL;
	ck_assert_int_eq(ddbc_aws_setup_resolve(o, &s, &err), -1);
	ck_assert_ptr_nonnull(err);
	return err;
}

START_TEST(test_region_and_endpoint)
{
	setenv("AWS_ACCESS_KEY_ID", "AKID", 1);
	setenv("AWS_SECRET_ACCESS_KEY", "SECRETSECRET", 1);
	setenv("AWS_DEFAULT_REGION", "us-west-1", 1);
	ddbc_dynamo_opts o = { 0 };
	aws_setup s = resolve_ok(&o);
	ck_assert_str_eq(s.region, "us-west-1");
	ck_assert_str_eq(s.endpoint, "https://dynamodb.us-west-1.amazonaws.com");
	ck_assert(!s.loopback);
	ddbc_aws_setup_release(&s);

	setenv("AWS_REGION", "cn-north-1", 1);
	s = resolve_ok(&o);
	ck_assert_str_eq(s.endpoint, "https://dynamodb.cn-north-1.amazonaws.com.cn");
	ddbc_aws_setup_release(&s);

	o.region = "eu-central-1";
	setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:9000", 1);
	setenv("AWS_ENDPOINT_URL_DYNAMODB", "http://localhost:8000", 1);
	s = resolve_ok(&o);
	ck_assert_str_eq(s.region, "eu-central-1");
	ck_assert_str_eq(s.endpoint, "http://localhost:8000");
	ck_assert(s.loopback);
	ddbc_aws_setup_release(&s);

	o.endpoint = "http://[::1]:7000";
	s = resolve_ok(&o);
	ck_assert_str_eq(s.endpoint, "http://[::1]:7000");
	ddbc_aws_setup_release(&s);

	setenv("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "true", 1);
	o.endpoint = NULL;
	s = resolve_ok(&o);
	ck_assert_str_eq(s.endpoint, "https://dynamodb.eu-central-1.amazonaws.com");
	ddbc_aws_setup_release(&s);

	o.region = "eu-west-1.evil.example/";
	free(resolve_fails(&o));
}
END_TEST

START_TEST(test_no_region)
{
	setenv("AWS_ACCESS_KEY_ID", "AKID", 1);
	setenv("AWS_SECRET_ACCESS_KEY", "SECRETSECRET", 1);
	ddbc_dynamo_opts o = { .endpoint = "http://127.0.0.1:8000" };
	aws_setup s = resolve_ok(&o);
	ck_assert_str_eq(s.region, "us-east-1");  /* a local engine ignores it */
	ddbc_aws_setup_release(&s);
	o.endpoint = NULL;
	char *err = resolve_fails(&o);
	ck_assert_msg(strstr(err, "no region: give --region"), "%s", err);
	free(err);
}
END_TEST

START_TEST(test_profiles)
{
	setenv("AWS_SHARED_CREDENTIALS_FILE", write_file("credentials",
		"[dev]\naws_access_key_id = AKIDDEV\naws_secret_access_key = SECRETDEV\n"
		"aws_session_token = TOKENDEV\n"), 1);
	setenv("AWS_CONFIG_FILE", write_file("config",
		"[default]\nregion = eu-west-1\n"
		"[profile dev]\nregion = ap-south-1\n"
		"[profile keys]\nregion = ca-central-1\naws_access_key_id = AKIDCFG\n"
		"aws_secret_access_key = SECRETCFG\nendpoint_url = http://127.0.0.1:8001\n"
		"[profile half]\nregion = us-east-1\naws_access_key_id = AKIDHALF\n"
		"[profile role]\nregion = us-east-1\nrole_arn = arn:aws:iam::1:role/x\nsource_profile = dev\n"), 1);
	setenv("AWS_ACCESS_KEY_ID", "AKIDENV", 1);
	setenv("AWS_SECRET_ACCESS_KEY", "SECRETENV", 1);
	setenv("AWS_PROFILE", "dev", 1);
	ddbc_dynamo_opts o = { 0 };
	/* AWS_PROFILE does not hide keys in the environment ... */
	aws_setup s = resolve_ok(&o);
	ck_assert_str_eq(s.creds.key_id, "AKIDENV");
	ck_assert_str_eq(s.region, "ap-south-1");
	ck_assert_str_eq(s.creds.source, "the environment");
	ddbc_aws_setup_release(&s);
	/* ... --profile does */
	o.profile = "dev";
	s = resolve_ok(&o);
	ck_assert_str_eq(s.creds.key_id, "AKIDDEV");
	ck_assert_str_eq(s.creds.token, "TOKENDEV");
	ck_assert(strstr(s.creds.source, "profile 'dev'"));
	ddbc_aws_setup_release(&s);
	o.profile = "keys";
	s = resolve_ok(&o);
	ck_assert_str_eq(s.creds.key_id, "AKIDCFG");
	ck_assert_ptr_null(s.creds.token);
	ck_assert_str_eq(s.endpoint, "http://127.0.0.1:8001");
	ddbc_aws_setup_release(&s);

	static const struct { const char *profile, *says; } bad[] = {
		{ "half", "has aws_access_key_id but no aws_secret_access_key" },
		{ "role", "uses role_arn, which ddbc does not resolve" },
		{ "absent", "profile 'absent' not found" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		o.profile = bad[i].profile;
		char *err = resolve_fails(&o);
		ck_assert_msg(strstr(err, bad[i].says), "%s", err);
		ck_assert_msg(!strstr(err, "SECRET"), "a secret in: %s", err);
		free(err);
	}
}
END_TEST

/* ---- credential_process ------------------------------------------------------------ */

START_TEST(test_process)
{
	aws_creds c = { 0 };
	char *err = NULL;
	ck_assert_int_eq(ddbc_aws_process_run(
		"printf '{\"Version\": 1, \"AccessKeyId\": \"AKIDP\", \"SecretAccessKey\": "
		"\"SECRETP\", \"SessionToken\": \"TOKP\", \"Expiration\": "
		"\"2030-01-01T01:00:00.123+01:00\"}'", "the test", &c, &err), 0);
	ck_assert_str_eq(c.key_id, "AKIDP");
	ck_assert_str_eq(c.secret, "SECRETP");
	ck_assert_str_eq(c.token, "TOKP");
	ck_assert_int_eq((long long)c.expires, 1893456000LL);  /* 2030-01-01T00:00:00Z */
	ck_assert(!ddbc_aws_creds_expiring(&c, 1893456000 - 301));
	ck_assert(ddbc_aws_creds_expiring(&c, 1893456000 - 299));
	ddbc_aws_creds_release(&c);

	static const struct { const char *cmd, *says; } bad[] = {
		{ "exit 4", "failed (exit status 4)" },
		{ "echo '{\"AccessKeyId\": \"A\", \"SecretAccessKey\": \"SECRETX\"}'", "no \"Version\": 1" },
		{ "echo 'SECRETX is not JSON'", "printed no JSON object" },
		{ "echo '{\"Version\": 1, \"AccessKeyId\": \"A\"}'", "no SecretAccessKey" },
		{ "echo '{\"Version\": 1, \"AccessKeyId\": \"A\", \"SecretAccessKey\": \"SECRETX\", "
		  "\"Expiration\": \"soon\"}'", "no ISO 8601 time" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		err = NULL;
		ck_assert_int_eq(ddbc_aws_process_run(bad[i].cmd, "the test", &c, &err), -1);
		ck_assert_msg(strstr(err, bad[i].says), "%s: %s", bad[i].cmd, err);
		ck_assert_msg(!strstr(err, "SECRETX"), "a secret in: %s", err);
		free(err);
	}
}
END_TEST

static Suite *aws_suite(void)
{
	Suite *s = suite_create("aws");
	TCase *tc = tcase_create("aws");
	tcase_set_timeout(tc, 60);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_endpoint_accepted);
	tcase_add_test(tc, test_endpoint_refused);
	tcase_add_test(tc, test_retryable);
	tcase_add_test(tc, test_backoff);
	tcase_add_test(tc, test_ini);
	tcase_add_test(tc, test_region_and_endpoint);
	tcase_add_test(tc, test_no_region);
	tcase_add_test(tc, test_profiles);
	tcase_add_test(tc, test_process);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(aws_suite());
	srunner_run_all(sr, CK_ENV);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
