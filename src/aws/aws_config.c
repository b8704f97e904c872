/* aws_config.c - credentials, region and endpoint as the AWS CLI finds them
 *
 * Credentials: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (with
 * AWS_SESSION_TOKEN) unless --profile names a profile, as botocore skips
 * the environment for an explicit profile; then the profile's keys in the
 * shared credentials file, its credential_process, its keys in the config
 * file. The profile is --profile, AWS_PROFILE, or "default"; the files are
 * AWS_SHARED_CREDENTIALS_FILE (~/.aws/credentials) and AWS_CONFIG_FILE
 * (~/.aws/config, whose sections are `[profile NAME]` and `[default]`).
 * Region: --region, AWS_REGION, AWS_DEFAULT_REGION, the profile's region.
 * Endpoint: --endpoint, AWS_ENDPOINT_URL_DYNAMODB, AWS_ENDPOINT_URL, the
 * profile's endpoint_url, else DynamoDB's own for the region.
 *
 * Messages name where a value came from, never the value of a secret.
 */
#include "aws/aws_int.h"

#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct profile {
	const char *name;
	bool named;		/* by --profile or AWS_PROFILE: it must exist */
	char *config_path, *creds_path;
	char **config, **creds;	/* their sections, NULL when absent */
} profile;

char *ddbc_aws_errf(const char *fmt, ...)
{
	strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	ddbc_strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	return ddbc_strbuf_detach(&sb);
}

static const char *env(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? v : NULL;
}

/* The file an environment variable names, else ~/.aws/NAME; "~/" expanded. */
static char *aws_file(const char *var, const char *name)
{
	const char *path = env(var);
	const char *home = env("HOME");
	if (path && strncmp(path, "~/", 2) == 0 && home)
		return ddbc_aws_errf("%s/%s", home, path + 2);
	if (path)
		return ddbc_xstrdup(path);
	return ddbc_aws_errf("%s/.aws/%s", home ? home : "", name);
}

static int profile_load(profile *p, const ddbc_dynamo_opts *o, char **err)
{
	p->name = o->profile ? o->profile : env("AWS_PROFILE");
	p->named = p->name != NULL;
	if (!p->name)
		p->name = env("AWS_DEFAULT_PROFILE") ? env("AWS_DEFAULT_PROFILE") : "default";
	p->config_path = aws_file("AWS_CONFIG_FILE", "config");
	p->creds_path = aws_file("AWS_SHARED_CREDENTIALS_FILE", "credentials");
	char *section = ddbc_aws_errf("profile %s", p->name);
	int r = 0;
	if (strcmp(p->name, "default") == 0)
		r = ddbc_aws_ini_section(p->config_path, "default", &p->config, err);
	if (r == 0)
		r = ddbc_aws_ini_section(p->config_path, section, &p->config, err);
	free(section);
	if (r >= 0)
		r = ddbc_aws_ini_section(p->creds_path, p->name, &p->creds, err);
	if (r < 0)
		return -1;
	if (p->named && !p->config && !p->creds) {
		*err = ddbc_aws_errf("profile '%s' not found in '%s' or '%s'; "
				"create it with 'aws configure --profile %s'",
				p->name, p->config_path, p->creds_path, p->name);
		return -1;
	}
	return 0;
}

static void profile_release(profile *p)
{
	free(p->config_path);
	free(p->creds_path);
	ddbc_aws_ini_free(p->config);
	ddbc_aws_ini_free(p->creds);
}

static void creds_set(aws_creds *c, const char *id, const char *secret, const char *token,
		      char *source)
{
	c->key_id = ddbc_xstrdup(id);
	c->secret = ddbc_xstrdup(secret);
	c->token = token ? ddbc_xstrdup(token) : NULL;
	c->source = source;
}

/* 1 when the environment holds keys, 0 when not, -1 when half of them. */
static int creds_from_env(aws_creds *c, char **err)
{
	const char *id = env("AWS_ACCESS_KEY_ID"), *secret = env("AWS_SECRET_ACCESS_KEY");
	if (!id && !secret)
		return 0;
	if (!id || !secret) {
		*err = ddbc_aws_errf("%s is set but %s is not; set both or neither",
				id ? "AWS_ACCESS_KEY_ID" : "AWS_SECRET_ACCESS_KEY",
				id ? "AWS_SECRET_ACCESS_KEY" : "AWS_ACCESS_KEY_ID");
		return -1;
	}
	creds_set(c, id, secret, env("AWS_SESSION_TOKEN"), ddbc_xstrdup("the environment"));
	return 1;
}

/* The same for a profile's section of one file. */
static int creds_from_section(aws_creds *c, char **kv, const char *name, const char *path,
			      char **err)
{
	const char *id = ddbc_aws_ini_get(kv, "aws_access_key_id");
	const char *secret = ddbc_aws_ini_get(kv, "aws_secret_access_key");
	if (!id && !secret)
		return 0;
	if (!id || !secret) {
		*err = ddbc_aws_errf("profile '%s' in '%s' has %s but no %s", name, path,
				id ? "aws_access_key_id" : "aws_secret_access_key",
				id ? "aws_secret_access_key" : "aws_access_key_id");
		return -1;
	}
	creds_set(c, id, secret, ddbc_aws_ini_get(kv, "aws_session_token"),
		  ddbc_aws_errf("profile '%s' in '%s'", name, path));
	return 1;
}

static int creds_from_process(aws_creds *c, profile *p, char **err)
{
	const char *cmd = ddbc_aws_ini_get(p->creds, "credential_process");
	const char *path = p->creds_path;
	if (!cmd) {
		cmd = ddbc_aws_ini_get(p->config, "credential_process");
		path = p->config_path;
	}
	if (!cmd)
		return 0;
	char *source = ddbc_aws_errf("the credential_process of profile '%s' in '%s'", p->name, path);
	int r = ddbc_aws_process_run(cmd, source, c, err);
	free(source);
	return r < 0 ? -1 : 1;
}

/* A profile that needs what ddbc does not do (assume a role, SSO) says how
 * to bridge it: credential_process covers both through the AWS CLI. */
static char *creds_missing(const profile *p)
{
	static const char *const other[] = { "role_arn", "sso_session", "sso_start_url",
					     "web_identity_token_file" };
	for (size_t i = 0; i < sizeof other / sizeof *other; i++)
		if (ddbc_aws_ini_get(p->config, other[i]) || ddbc_aws_ini_get(p->creds, other[i]))
			return ddbc_aws_errf("profile '%s' uses %s, which ddbc does not resolve; add "
					"'credential_process = aws configure export-credentials "
					"--profile %s --format process' to a profile and use it",
					p->name, other[i], p->name);
	return ddbc_aws_errf("no credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or "
			"give profile '%s' keys or a credential_process in '%s' or '%s'",
			p->name, p->creds_path, p->config_path);
}

static int creds_resolve(const ddbc_dynamo_opts *o, profile *p, aws_creds *c, char **err)
{
	int r = o->profile ? 0 : creds_from_env(c, err);
	if (r == 0)
		r = creds_from_section(c, p->creds, p->name, p->creds_path, err);
	if (r == 0)
		r = creds_from_process(c, p, err);
	if (r == 0)
		r = creds_from_section(c, p->config, p->name, p->config_path, err);
	if (r == 0) {
		*err = creds_missing(p);
		r = -1;
	}
	return r < 0 ? -1 : 0;
}

static const char *profile_value(const profile *p, const char *key)
{
	const char *v = ddbc_aws_ini_get(p->config, key);
	return v ? v : ddbc_aws_ini_get(p->creds, key);
}

/* A region goes into a host name: letters, digits and dashes only. */
static bool region_ok(const char *r)
{
	return *r && strspn(r, "abcdefghijklmnopqrstuvwxyz0123456789-") == strlen(r);
}

static int region_resolve(const ddbc_dynamo_opts *o, const profile *p, bool local_endpoint,
			  aws_setup *s, char **err)
{
	const char *r = o->region ? o->region : env("AWS_REGION");
	if (!r)
		r = env("AWS_DEFAULT_REGION");
	if (!r)
		r = profile_value(p, "region");
	/* A local engine ignores the region; the signature still needs one. */
	if (!r && local_endpoint)
		r = "us-east-1";
	if (!r) {
		*err = ddbc_aws_errf("no region: give --region, set AWS_REGION, or set region in "
				"profile '%s' of '%s'", p->name, p->config_path);
		return -1;
	}
	if (!region_ok(r)) {
		*err = ddbc_aws_errf("region '%s' is not a region name (such as 'eu-west-1')", r);
		return -1;
	}
	s->region = ddbc_xstrdup(r);
	return 0;
}

/* The endpoint the user chose, and where from; NULL for DynamoDB's own. */
static const char *endpoint_given(const ddbc_dynamo_opts *o, const profile *p,
				  const char **from)
{
	*from = "--endpoint";
	if (o->endpoint)
		return o->endpoint;
	const char *ignore = env("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS");
	if (ignore && strcmp(ignore, "true") == 0)
		return NULL;
	static const char *const vars[] = { "AWS_ENDPOINT_URL_DYNAMODB", "AWS_ENDPOINT_URL" };
	for (size_t i = 0; i < 2; i++)
		if (env(vars[i])) {
			*from = vars[i];
			return env(vars[i]);
		}
	*from = "the profile's endpoint_url";
	return profile_value(p, "endpoint_url");
}

static int endpoint_resolve(const char *url, const char *from, aws_setup *s, char **err)
{
	char *why = NULL;
	if (ddbc_aws_endpoint_check(url, &s->loopback, &why) < 0) {
		*err = ddbc_aws_errf("endpoint of %s: %s", from, why);
		free(why);
		return -1;
	}
	s->endpoint = ddbc_xstrdup(url);
	return 0;
}

static int setup_resolve(const ddbc_dynamo_opts *o, profile *p, aws_setup *s, char **err)
{
	const char *from;
	const char *url = endpoint_given(o, p, &from);
	if (url && endpoint_resolve(url, from, s, err) < 0)
		return -1;
	if (region_resolve(o, p, url && s->loopback, s, err) < 0)
		return -1;
	if (!url) {
		bool china = strncmp(s->region, "cn-", 3) == 0;
		s->endpoint = ddbc_aws_errf("https://dynamodb.%s.amazonaws.com%s", s->region,
				       china ? ".cn" : "");
		s->loopback = false;
	}
	return creds_resolve(o, p, &s->creds, err);
}

int ddbc_aws_setup_resolve(const ddbc_dynamo_opts *o, aws_setup *s, char **err)
{
	memset(s, 0, sizeof *s);
	profile p = { 0 };
	int r = profile_load(&p, o, err);
	if (r == 0)
		r = setup_resolve(o, &p, s, err);
	profile_release(&p);
	if (r < 0)
		ddbc_aws_setup_release(s);
	return r;
}

static void free_secret(char *s)
{
	if (s)
		explicit_bzero(s, strlen(s));
	free(s);
}

void ddbc_aws_creds_release(aws_creds *c)
{
	free(c->key_id);
	free_secret(c->secret);
	free_secret(c->token);
	free(c->source);
	free(c->process);
	memset(c, 0, sizeof *c);
}

void ddbc_aws_setup_release(aws_setup *s)
{
	ddbc_aws_creds_release(&s->creds);
	free(s->region);
	free(s->endpoint);
	memset(s, 0, sizeof *s);
}
