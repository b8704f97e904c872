/* aws_process.c - credentials printed by a credential_process command
 *
 * The command runs through /bin/sh as the AWS CLI runs it; its standard
 * error passes through to the user (a login prompt, an SSO hint), its
 * standard output is JSON: {"Version": 1, "AccessKeyId", "SecretAccessKey",
 * "SessionToken"?, "Expiration"?}. That output holds a secret: no message
 * quotes it, not even jansson's parse error, which cites the text.
 */
#define _GNU_SOURCE /* strptime */
#include "aws/aws_int.h"

#include "util/strbuf.h"
#include "util/xalloc.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#define OUTPUT_MAX (1 << 20)

static int run(const char *command, strbuf *out, int *status)
{
	FILE *f = popen(command, "r");
	if (!f)
		return -1;
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		if (out->len < OUTPUT_MAX)
			ddbc_strbuf_add(out, buf, n);
	*status = pclose(f);
	return 0;
}

/* ISO 8601 in UTC ("2026-12-02T05:00:00Z", fractions and offsets allowed). */
static time_t parse_time(const char *s)
{
	struct tm tm = { 0 };
	const char *rest = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!rest)
		return (time_t)-1;
	time_t t = timegm(&tm);
	if (*rest == '.')
		rest += 1 + strspn(rest + 1, "0123456789");
	int hh, mm;
	if ((*rest == '+' || *rest == '-') && sscanf(rest + 1, "%2d:%2d", &hh, &mm) == 2)
		t -= (*rest == '+' ? 1 : -1) * (hh * 3600 + mm * 60);
	return t;
}

static const char *member(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static int read_json(const char *text, const char *source, aws_creds *c, char **err)
{
	json_t *o = json_loads(text, 0, NULL);
	const char *id = member(o, "AccessKeyId"), *secret = member(o, "SecretAccessKey");
	const char *expiration = member(o, "Expiration");
	int r = -1;
	if (!json_is_object(o))
		*err = ddbc_aws_errf("%s printed no JSON object", source);
	else if (json_integer_value(json_object_get(o, "Version")) != 1)
		*err = ddbc_aws_errf("%s printed no \"Version\": 1", source);
	else if (!id || !secret)
		*err = ddbc_aws_errf("%s printed no AccessKeyId or no SecretAccessKey", source);
	else if (expiration && parse_time(expiration) == (time_t)-1)
		*err = ddbc_aws_errf("%s printed an Expiration that is no ISO 8601 time", source);
	else {
		c->key_id = ddbc_xstrdup(id);
		c->secret = ddbc_xstrdup(secret);
		c->token = member(o, "SessionToken") ? ddbc_xstrdup(member(o, "SessionToken")) : NULL;
		c->expires = expiration ? parse_time(expiration) : 0;
		r = 0;
	}
	json_decref(o);
	return r;
}

int ddbc_aws_process_run(const char *command, const char *source, aws_creds *c, char **err)
{
	strbuf out = STRBUF_INIT;
	int status = 0;
	int r = -1;
	fflush(NULL);
	if (run(command, &out, &status) < 0)
		*err = ddbc_aws_errf("cannot run %s", source);
	else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		*err = ddbc_aws_errf("%s failed (exit status %d); run it yourself to see why", source,
				WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	else
		r = read_json(ddbc_strbuf_str(&out), source, c, err);
	if (out.buf)
		explicit_bzero(out.buf, out.len);
	ddbc_strbuf_release(&out);
	if (r == 0) {
		c->source = ddbc_xstrdup(source);
		c->process = ddbc_xstrdup(command);
	}
	return r;
}

bool ddbc_aws_creds_expiring(const aws_creds *c, time_t now)
{
	return c->process && c->expires && c->expires - 300 <= now;
}
