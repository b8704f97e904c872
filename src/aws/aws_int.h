/* aws_int.h - what the client's files share: the resolved setup
 *
 * dynamo.c asks aws_config.c once, at open, for credentials, region and
 * endpoint (aws_setup); the credentials of a credential_process may expire
 * and are asked again (aws_creds_refresh). Private to src/aws/.
 */
#ifndef DDBC_AWS_INT_H
#define DDBC_AWS_INT_H

#include "aws/dynamo.h"

#include <curl/curl.h>
#include <stdbool.h>
#include <time.h>

/* aws_curl.c: libcurl's functions, from the library loaded at first use
 * (every run of ddbc would otherwise map it and all it links). */
typedef struct aws_curl_api {
	bool loaded;
	CURLcode (*global_init)(long flags);
	CURL *(*easy_init)(void);
	CURLcode (*easy_setopt)(CURL *h, CURLoption option, ...);
	CURLcode (*easy_perform)(CURL *h);
	CURLcode (*easy_getinfo)(CURL *h, CURLINFO info, ...);
	void (*easy_reset)(CURL *h);
	void (*easy_cleanup)(CURL *h);
	const char *(*easy_strerror)(CURLcode code);
	struct curl_slist *(*slist_append)(struct curl_slist *list, const char *s);
	void (*slist_free_all)(struct curl_slist *list);
	CURLU *(*url)(void);
	CURLUcode (*url_set)(CURLU *u, CURLUPart what, const char *part, unsigned int flags);
	CURLUcode (*url_get)(const CURLU *u, CURLUPart what, char **part, unsigned int flags);
	void (*url_cleanup)(CURLU *u);
	void (*free)(void *p);
} aws_curl_api;

/* The loaded library's functions, loading it on the first call; NULL and
 * *err allocated (when err is not NULL) when it cannot be loaded. */
const aws_curl_api *ddbc_aws_curl(char **err);

/* One set of credentials and where it came from. source names the place
 * for messages ("the environment", "profile 'dev' in /home/u/.aws/config"),
 * never a value. expires is 0 when they do not. */
typedef struct aws_creds {
	char *key_id;
	char *secret;
	char *token;		/* NULL without a session token */
	char *source;
	char *process;		/* the credential_process command, to run again */
	time_t expires;
} aws_creds;

typedef struct aws_setup {
	aws_creds creds;
	char *region;
	char *endpoint;
	bool loopback;
} aws_setup;

/* aws_config.c: the chain of the AWS CLI. 0, or -1 and *err allocated. */
int ddbc_aws_setup_resolve(const ddbc_dynamo_opts *o, aws_setup *s, char **err);
void ddbc_aws_setup_release(aws_setup *s);
void ddbc_aws_creds_release(aws_creds *c);

/* aws_ini.c: one section of a shared config or credentials file. *kv is a
 * NULL-terminated list of key, value, key, value... (free with
 * ddbc_aws_ini_free). 1 when found, 0 when the file or section is absent, -1
 * with *err when the file cannot be read. */
int ddbc_aws_ini_section(const char *path, const char *section, char ***kv, char **err);
const char *ddbc_aws_ini_get(char **kv, const char *key);
void ddbc_aws_ini_free(char **kv);

/* aws_process.c: runs a credential_process command through /bin/sh and
 * reads its JSON (Version 1). source names the profile for messages. */
int ddbc_aws_process_run(const char *command, const char *source, aws_creds *c, char **err);
/* Whether credentials from a process are about to expire (5 minutes). */
bool ddbc_aws_creds_expiring(const aws_creds *c, time_t now);

/* aws_endpoint.c: checks an endpoint URL; *loopback says whether its host
 * is this machine. 0, or -1 and *err. */
int ddbc_aws_endpoint_check(const char *url, bool *loopback, char **err);

/* aws_retry.c: whether an error is worth another attempt, and how long to
 * wait before attempt number `attempt` (1 for the first retry). */
bool ddbc_aws_retryable(const ddbc_dynamo_error *e);
long ddbc_aws_backoff_ms(int attempt, unsigned *seed);

char *ddbc_aws_errf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
