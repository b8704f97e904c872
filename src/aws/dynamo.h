/* dynamo.h - one DynamoDB client: a JSON request in, the JSON answer out
 *
 * The layer just above util/: it knows DynamoDB's wire protocol (JSON 1.0
 * over HTTP, X-Amz-Target) and nothing of designs. libcurl sends and its
 * CURLOPT_AWS_SIGV4 signs every request; credentials, region and endpoint
 * are found as the AWS CLI finds them (environment, then the shared config
 * and credentials files with AWS_PROFILE, credential_process included).
 * Throttling and 5xx answers are retried with exponential backoff and full
 * jitter, at most max_attempts times. No secret ever reaches a message.
 *
 * Ownership: a ddbc_dynamo is the caller's, freed by ddbc_dynamo_close;
 * answers (*resp) are the caller's, freed with json_decref. Calls on one
 * client are safe from several threads at once (each call uses its own
 * curl handle), so Scan segments run in parallel on one client.
 */
#ifndef DDBC_AWS_DYNAMO_H
#define DDBC_AWS_DYNAMO_H

#include <jansson.h>
#include <stdbool.h>

typedef struct ddbc_dynamo ddbc_dynamo;

/* What the command line gives; NULL or 0 means "as the AWS CLI finds it". */
typedef struct ddbc_dynamo_opts {
	const char *endpoint;	/* --endpoint; else AWS_ENDPOINT_URL_DYNAMODB, AWS_ENDPOINT_URL,
				   else https://dynamodb.REGION.amazonaws.com */
	const char *region;	/* --region; else AWS_REGION, AWS_DEFAULT_REGION, the profile's */
	const char *profile;	/* --profile; else AWS_PROFILE, else "default" */
	int max_attempts;	/* --max-attempts; 0: 3, as the SDKs' standard mode */
	long timeout_ms;	/* one request's limit; 0: 30 s */
} ddbc_dynamo_opts;

/* Why a call failed. type is DynamoDB's error type without its namespace
 * ("ConditionalCheckFailedException", "ResourceNotFoundException"), or ""
 * when the request never got an answer (transport is then true). */
typedef struct ddbc_dynamo_error {
	char type[128];
	char message[512];
	long http_status;
	bool transport;
} ddbc_dynamo_error;

/* Resolves credentials, region and endpoint and checks the endpoint (a
 * URL; plain http only to a loopback address). Returns NULL with *err an
 * allocated message (free it) when it cannot. */
ddbc_dynamo *ddbc_dynamo_open(const ddbc_dynamo_opts *o, char **err);
void ddbc_dynamo_close(ddbc_dynamo *c);

/* The endpoint every request goes to, and whether it is on this machine
 * (127.0.0.0/8, ::1, localhost): verify and migrate refuse to write
 * elsewhere without --yes. */
const char *ddbc_dynamo_endpoint(const ddbc_dynamo *c);
bool ddbc_dynamo_is_loopback(const ddbc_dynamo *c);
const char *ddbc_dynamo_region(const ddbc_dynamo *c);

/* One call of operation op ("Query", "PutItem", "DescribeTable", ...) with
 * the request req (not stolen). 0 and *resp the answer, or -1 and *e. */
int ddbc_dynamo_call(ddbc_dynamo *c, const char *op, json_t *req, json_t **resp,
		     ddbc_dynamo_error *e);

/* Each page of a paginated Query or Scan: its answer (borrowed: keep what
 * you need with json_incref). A non-zero return stops the pages and is
 * returned by the caller of fn. */
typedef int (*ddbc_dynamo_page_fn)(void *ctx, int segment, json_t *page);

/* op with req, page after page, following LastEvaluatedKey: 0, -1 with *e
 * on a failed call, or fn's non-zero return. */
int ddbc_dynamo_pages(ddbc_dynamo *c, const char *op, json_t *req, ddbc_dynamo_page_fn fn,
		      void *ctx, ddbc_dynamo_error *e);

/* A Scan of req (TableName and any other member) in `segments` parallel
 * segments, one thread each; fn is called from those threads (serialise
 * what it shares), with the segment number. Returns as ddbc_dynamo_pages. */
int ddbc_dynamo_scan(ddbc_dynamo *c, json_t *req, int segments, ddbc_dynamo_page_fn fn,
		     void *ctx, ddbc_dynamo_error *e);

#endif
