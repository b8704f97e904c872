/* dynamo.c - one DynamoDB call: JSON 1.0 over HTTP, signed by libcurl
 *
 * Each thread that calls has a curl easy handle of its own (a thread-
 * specific value of the client), reset before each call, so calls on one
 * client run from several threads at once, and page after page of one
 * thread reuses its connection. Connections are not shared between
 * threads: libcurl does not support a connection cache shared by
 * concurrent threads (CURLSHOPT_SHARE, CURL_LOCK_DATA_CONNECT).
 * libcurl's CURLOPT_AWS_SIGV4 signs every request: ddbc never computes a
 * signature itself.
 */
#include "config.h"

#include "aws/aws_int.h"

#include "util/strbuf.h"
#include "util/xalloc.h"

#include <curl/curl.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DEFAULT_ATTEMPTS 3
#define DEFAULT_TIMEOUT_MS 30000L
#define CONNECT_TIMEOUT_MS 10000L

struct ddbc_dynamo {
	aws_setup s;
	int max_attempts;
	long timeout_ms;
	char *sigv4;
	pthread_key_t handle;    /* the calling thread's CURL * */
	bool handle_made;
	pthread_mutex_t creds_lock;
	atomic_uint calls;
};

/* One request's copy of the credentials, taken under the lock. */
typedef struct call_creds {
	char *key_id, *secret, *token;
} call_creds;

/* libcurl's functions; loaded by ddbc_dynamo_open before any call. */
static const aws_curl_api *lib(void)
{
	return ddbc_aws_curl(NULL);
}

/* A thread's handle goes when the thread ends (its connections with it). */
static void handle_free(void *h)
{
	lib()->easy_cleanup(h);
}

/* The calling thread's handle (reset after each call); NULL when out of
 * memory. */
static CURL *handle_get(ddbc_dynamo *c)
{
	CURL *h = pthread_getspecific(c->handle);
	if (h)
		return h;
	h = lib()->easy_init();
	if (h && pthread_setspecific(c->handle, h) != 0) {
		lib()->easy_cleanup(h);
		h = NULL;
	}
	return h;
}

ddbc_dynamo *ddbc_dynamo_open(const ddbc_dynamo_opts *o, char **err)
{
	*err = NULL;
	if (!ddbc_aws_curl(err))
		return NULL;
	ddbc_dynamo *c = ddbc_xcalloc(1, sizeof *c);
	if (ddbc_aws_setup_resolve(o, &c->s, err) < 0) {
		free(c);
		return NULL;
	}
	c->max_attempts = o->max_attempts > 0 ? o->max_attempts : DEFAULT_ATTEMPTS;
	c->timeout_ms = o->timeout_ms > 0 ? o->timeout_ms : DEFAULT_TIMEOUT_MS;
	c->sigv4 = ddbc_aws_errf("aws:amz:%s:dynamodb", c->s.region);
	pthread_mutex_init(&c->creds_lock, NULL);
	if (pthread_key_create(&c->handle, handle_free) != 0) {
		*err = ddbc_aws_errf("cannot make a thread key for the client");
		ddbc_dynamo_close(c);
		return NULL;
	}
	c->handle_made = true;
	return c;
}

void ddbc_dynamo_close(ddbc_dynamo *c)
{
	if (!c)
		return;
	/* This thread's handle; other threads' went when they ended. */
	if (c->handle_made) {
		CURL *h = pthread_getspecific(c->handle);
		lib()->easy_cleanup(h);
		pthread_setspecific(c->handle, NULL);
		pthread_key_delete(c->handle);
	}
	pthread_mutex_destroy(&c->creds_lock);
	ddbc_aws_setup_release(&c->s);
	free(c->sigv4);
	free(c);
}

const char *ddbc_dynamo_endpoint(const ddbc_dynamo *c)
{
	return c->s.endpoint;
}

bool ddbc_dynamo_is_loopback(const ddbc_dynamo *c)
{
	return c->s.loopback;
}

const char *ddbc_dynamo_region(const ddbc_dynamo *c)
{
	return c->s.region;
}

static void error_set(ddbc_dynamo_error *e, const char *type, long status, bool transport,
		      const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void error_set(ddbc_dynamo_error *e, const char *type, long status, bool transport,
		      const char *fmt, ...)
{
	snprintf(e->type, sizeof e->type, "%s", type);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->message, sizeof e->message, fmt, ap);
	va_end(ap);
	e->http_status = status;
	e->transport = transport;
}

/* Credentials of a credential_process are run again when they expire
 * within five minutes (a long Scan outlives an SSO session's hour). */
static int creds_take(ddbc_dynamo *c, call_creds *cc, ddbc_dynamo_error *e)
{
	int r = 0;
	pthread_mutex_lock(&c->creds_lock);
	aws_creds *k = &c->s.creds;
	if (ddbc_aws_creds_expiring(k, time(NULL))) {
		aws_creds fresh = { 0 };
		char *err = NULL;
		if (ddbc_aws_process_run(k->process, k->source, &fresh, &err) < 0) {
			error_set(e, "", 0, false, "credentials expired: %s", err);
			free(err);
			r = -1;
		} else {
			ddbc_aws_creds_release(k);
			*k = fresh;
		}
	}
	if (r == 0) {
		cc->key_id = ddbc_xstrdup(k->key_id);
		cc->secret = ddbc_xstrdup(k->secret);
		cc->token = k->token ? ddbc_xstrdup(k->token) : NULL;
	}
	pthread_mutex_unlock(&c->creds_lock);
	return r;
}

static void creds_drop(call_creds *cc)
{
	free(cc->key_id);
	if (cc->secret)
		explicit_bzero(cc->secret, strlen(cc->secret));
	free(cc->secret);
	if (cc->token)
		explicit_bzero(cc->token, strlen(cc->token));
	free(cc->token);
}

/* A server may quote the request back (SignatureDoesNotMatch cites the
 * canonical request, session token included): secrets become "***". */
static void scrub(char *msg, const char *secret)
{
	size_t n = secret ? strlen(secret) : 0;
	if (n < 4)
		return;
	for (char *p = strstr(msg, secret); p; p = strstr(p + 3, secret)) {
		memcpy(p, "***", 3);
		memmove(p + 3, p + n, strlen(p + n) + 1);
	}
}

static size_t on_body(char *data, size_t size, size_t n, void *u)
{
	ddbc_strbuf_add(u, data, size * n);
	return size * n;
}

static struct curl_slist *headers(const char *op, const call_creds *cc)
{
	char line[256];
	struct curl_slist *h = NULL;
	h = lib()->slist_append(h, "Content-Type: application/x-amz-json-1.0");
	snprintf(line, sizeof line, "X-Amz-Target: DynamoDB_20120810.%s", op);
	h = lib()->slist_append(h, line);
	/* No "Expect: 100-continue" round trip before a large BatchWriteItem. */
	h = lib()->slist_append(h, "Expect:");
	if (cc->token) {
		strbuf t = STRBUF_INIT;
		ddbc_strbuf_addf(&t, "X-Amz-Security-Token: %s", cc->token);
		h = lib()->slist_append(h, t.buf);
		explicit_bzero(t.buf, t.len);
		ddbc_strbuf_release(&t);
	}
	return h;
}

static void set_options(ddbc_dynamo *c, CURL *h, const char *body, const call_creds *cc,
			strbuf *answer, char *errbuf)
{
	lib()->easy_setopt(h, CURLOPT_URL, c->s.endpoint);
	lib()->easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	lib()->easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
	lib()->easy_setopt(h, CURLOPT_POSTFIELDS, body);
	lib()->easy_setopt(h, CURLOPT_POSTFIELDSIZE, (long)strlen(body));
	lib()->easy_setopt(h, CURLOPT_AWS_SIGV4, c->sigv4);
	lib()->easy_setopt(h, CURLOPT_USERNAME, cc->key_id);
	lib()->easy_setopt(h, CURLOPT_PASSWORD, cc->secret);
	lib()->easy_setopt(h, CURLOPT_USERAGENT, "ddbc/" PACKAGE_VERSION);
	lib()->easy_setopt(h, CURLOPT_TIMEOUT_MS, c->timeout_ms);
	lib()->easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS,
			 c->timeout_ms < CONNECT_TIMEOUT_MS ? c->timeout_ms : CONNECT_TIMEOUT_MS);
	lib()->easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
	lib()->easy_setopt(h, CURLOPT_WRITEDATA, answer);
	lib()->easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
}

/* An answer other than 200: DynamoDB's {"__type": "ns#Type", "message"}. */
static void read_error(const char *op, long status, const strbuf *answer,
		       ddbc_dynamo_error *e)
{
	json_t *j = json_loadb(answer->buf ? answer->buf : "", answer->len, 0, NULL);
	const char *type = json_string_value(json_object_get(j, "__type"));
	const char *msg = json_string_value(json_object_get(j, "message"));
	if (!msg)
		msg = json_string_value(json_object_get(j, "Message"));
	if (type) {
		const char *hash = strrchr(type, '#');
		error_set(e, hash ? hash + 1 : type, status, false, "%s", msg ? msg : "");
	} else {
		error_set(e, "", status, false, "%s answered HTTP %ld without a DynamoDB error",
			  op, status);
	}
	json_decref(j);
}

static int read_answer(CURL *h, const char *op, const strbuf *answer, json_t **resp,
		       ddbc_dynamo_error *e)
{
	long status = 0;
	lib()->easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
	if (status != 200) {
		read_error(op, status, answer, e);
		return -1;
	}
	*resp = json_loadb(answer->buf ? answer->buf : "", answer->len, 0, NULL);
	if (!json_is_object(*resp)) {
		json_decref(*resp);
		*resp = NULL;
		error_set(e, "", status, true, "the answer to %s is no JSON object", op);
		return -1;
	}
	return 0;
}

static int attempt(ddbc_dynamo *c, const char *op, const char *body, json_t **resp,
		   ddbc_dynamo_error *e, CURLcode *code)
{
	call_creds cc = { 0 };
	if (creds_take(c, &cc, e) < 0)
		return -1;
	CURL *h = handle_get(c);
	if (!h) {
		creds_drop(&cc);
		error_set(e, "", 0, true, "cannot start a request: out of memory");
		return -1;
	}
	struct curl_slist *hdr = headers(op, &cc);
	strbuf answer = STRBUF_INIT;
	char errbuf[CURL_ERROR_SIZE] = "";
	set_options(c, h, body, &cc, &answer, errbuf);
	lib()->easy_setopt(h, CURLOPT_HTTPHEADER, hdr);
	*code = lib()->easy_perform(h);
	int r = -1;
	if (*code != CURLE_OK)
		error_set(e, "", 0, true, "%s", *errbuf ? errbuf : lib()->easy_strerror(*code));
	else
		r = read_answer(h, op, &answer, resp, e);
	if (r < 0) {
		scrub(e->message, cc.secret);
		scrub(e->message, cc.token);
	}
	/* The handle keeps its connection, not pointers to what goes now
	 * (the headers, the body, the error buffer) nor the secret. */
	lib()->easy_reset(h);
	lib()->slist_free_all(hdr);
	ddbc_strbuf_release(&answer);
	creds_drop(&cc);
	return r;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* An operation name goes into a header: letters only. */
static bool op_ok(const char *op)
{
	return *op && strspn(op, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") ==
			      strlen(op);
}

static void note_attempts(ddbc_dynamo_error *e, int n)
{
	size_t len = strlen(e->message);
	if (n > 1)
		snprintf(e->message + len, sizeof e->message - len, " (%d attempts)", n);
}

int ddbc_dynamo_call(ddbc_dynamo *c, const char *op, json_t *req, json_t **resp,
		     ddbc_dynamo_error *e)
{
	*resp = NULL;
	memset(e, 0, sizeof *e);
	if (!op_ok(op)) {
		error_set(e, "", 0, false, "'%s' is no DynamoDB operation", op);
		return -1;
	}
	char *body = json_dumps(req, JSON_COMPACT);
	if (!body) {
		error_set(e, "", 0, false, "the request of %s is no JSON object", op);
		return -1;
	}
	unsigned seed = (unsigned)time(NULL) ^ (unsigned)(uintptr_t)&seed ^
			atomic_fetch_add(&c->calls, 1) * 2654435761u;
	int n = 0, r = -1;
	for (;;) {
		CURLcode code = CURLE_OK;
		r = attempt(c, op, body, resp, e, &code);
		n++;
		/* A host that does not resolve will not resolve in 100 ms. */
		bool again = r < 0 && ddbc_aws_retryable(e) && code != CURLE_COULDNT_RESOLVE_HOST;
		if (!again || n >= c->max_attempts)
			break;
		sleep_ms(ddbc_aws_backoff_ms(n, &seed));
	}
	if (r < 0)
		note_attempts(e, n);
	free(body);
	return r;
}
