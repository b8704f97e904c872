/* dynamo_call.c - one DynamoDB call through ddbc's client, for the tests
 *
 *   dynamo_call [--endpoint URL] [--region R] [--profile P] [--max-attempts N]
 *               [--scan SEGMENTS] OP JSON
 *   dynamo_call [options] --put-items TABLE FILE
 *
 * Sends OP with the request JSON and prints the answer (or, with --scan N,
 * every item of a parallel Scan, one a line, sorted by the caller). With
 * --put-items, writes the export lines ({"Item": {...}}) of FILE to TABLE by
 * BatchWriteItem, 25 a request, sending unprocessed items again. Exit 0,
 * or 2 with "dynamo_call: TYPE: MESSAGE" on stderr, as ddbc says errors.
 * The shell tests use it to create tables, write items and prove what the
 * client sends (credentials, signature, retries) before the commands do.
 */
#include "aws/dynamo.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

static int print_items(void *ctx, int segment, json_t *page)
{
	(void)ctx;
	(void)segment;
	size_t i;
	json_t *item;
	pthread_mutex_lock(&out_lock);
	json_array_foreach(json_object_get(page, "Items"), i, item) {
		json_dumpf(item, stdout, JSON_COMPACT | JSON_SORT_KEYS);
		putchar('\n');
	}
	pthread_mutex_unlock(&out_lock);
	return 0;
}

/* One BatchWriteItem of the puts in reqs, until none is left unprocessed. */
static int put_batch(ddbc_dynamo *c, const char *table, json_t *reqs, ddbc_dynamo_error *e)
{
	json_t *ri = json_pack("{s:O}", table, reqs);
	for (int tries = 0; json_object_size(ri) > 0; tries++) {
		json_t *req = json_pack("{s:O}", "RequestItems", ri), *resp = NULL;
		int r = ddbc_dynamo_call(c, "BatchWriteItem", req, &resp, e);
		json_decref(req);
		json_decref(ri);
		if (r < 0)
			return -1;
		ri = json_incref(json_object_get(resp, "UnprocessedItems"));
		json_decref(resp);
		if (!ri)
			return 0;
		if (tries > 20) {
			snprintf(e->message, sizeof e->message, "items stay unprocessed");
			json_decref(ri);
			return -1;
		}
	}
	json_decref(ri);
	return 0;
}

static int put_items(ddbc_dynamo *c, const char *table, const char *path, ddbc_dynamo_error *e)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(e->message, sizeof e->message, "cannot read '%s'", path);
		return -1;
	}
	char *line = NULL;
	size_t cap = 0;
	int r = 0;
	json_t *reqs = json_array();
	while (r == 0 && getline(&line, &cap, f) > 0) {
		json_t *item = json_loads(line, 0, NULL);
		json_array_append_new(reqs, json_pack("{s:{s:O}}", "PutRequest", "Item",
						      json_object_get(item, "Item")));
		json_decref(item);
		if (json_array_size(reqs) == 25) {
			r = put_batch(c, table, reqs, e);
			json_array_clear(reqs);
		}
	}
	if (r == 0 && json_array_size(reqs))
		r = put_batch(c, table, reqs, e);
	json_decref(reqs);
	free(line);
	fclose(f);
	return r;
}

static int fail(const char *what, const char *msg)
{
	fprintf(stderr, "dynamo_call: %s%s%s\n", what, *what ? ": " : "", msg);
	return 2;
}

int main(int argc, char **argv)
{
	ddbc_dynamo_opts o = { 0 };
	int segments = 0, i = 1;
	const char *put_table = NULL;
	for (; i + 1 < argc && strncmp(argv[i], "--", 2) == 0; i += 2) {
		const char *v = argv[i + 1];
		if (strcmp(argv[i], "--endpoint") == 0) o.endpoint = v;
		else if (strcmp(argv[i], "--region") == 0) o.region = v;
		else if (strcmp(argv[i], "--profile") == 0) o.profile = v;
		else if (strcmp(argv[i], "--max-attempts") == 0) o.max_attempts = atoi(v);
		else if (strcmp(argv[i], "--timeout-ms") == 0) o.timeout_ms = atol(v);
		else if (strcmp(argv[i], "--scan") == 0) segments = atoi(v);
		else if (strcmp(argv[i], "--put-items") == 0) put_table = v;
		else return fail("", "unknown option");
	}
	if (argc - i != (put_table ? 1 : 2))
		return fail("", "usage: dynamo_call [options] OP JSON");
	json_error_t je;
	json_t *req = put_table ? json_object() : json_loads(argv[i + 1], 0, &je);
	if (!req)
		return fail("request", je.text);
	char *err = NULL;
	ddbc_dynamo *c = ddbc_dynamo_open(&o, &err);
	if (!c) {
		int r = fail("", err);
		free(err);
		json_decref(req);
		return r;
	}
	ddbc_dynamo_error e;
	json_t *resp = NULL;
	int r;
	if (put_table)
		r = put_items(c, put_table, argv[i], &e);
	else if (segments > 0)
		r = ddbc_dynamo_scan(c, req, segments, print_items, NULL, &e);
	else if ((r = ddbc_dynamo_call(c, argv[i], req, &resp, &e)) == 0) {
		json_dumpf(resp, stdout, JSON_COMPACT | JSON_SORT_KEYS);
		putchar('\n');
	}
	json_decref(resp);
	json_decref(req);
	ddbc_dynamo_close(c);
	return r == 0 ? 0 : fail(e.type, e.message);
}
