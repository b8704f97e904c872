/* aws_endpoint.c - an endpoint is a URL, and plain http stays on this machine
 *
 * Requests are signed, not encrypted: over plain http anyone on the path
 * reads the items and may replay a request. So http is for a local engine
 * only (DynamoDB Local, dynalite, moto on 127.0.0.0/8, ::1 or localhost);
 * anything else must be https. curl's own URL parser decides what the host
 * is, so the check and the request cannot read the URL differently.
 */
#include "aws/aws_int.h"

#include <curl/curl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool is_loopback(const char *host)
{
	if (strcasecmp(host, "localhost") == 0 || strcmp(host, "[::1]") == 0)
		return true;
	/* curl normalises an IPv4 address to dotted quads. */
	unsigned a, b, c, d;
	char end;
	return sscanf(host, "%u.%u.%u.%u%c", &a, &b, &c, &d, &end) == 4 && a == 127 &&
	       b < 256 && c < 256 && d < 256;
}

static int check_parts(const aws_curl_api *C, CURLU *u, bool *loopback, char **err)
{
	char *scheme = NULL, *host = NULL, *user = NULL, *query = NULL;
	int r = -1;
	C->url_get(u, CURLUPART_SCHEME, &scheme, 0);
	C->url_get(u, CURLUPART_HOST, &host, 0);
	C->url_get(u, CURLUPART_USER, &user, 0);
	C->url_get(u, CURLUPART_QUERY, &query, 0);
	if (!scheme || (strcmp(scheme, "http") != 0 && strcmp(scheme, "https") != 0))
		*err = ddbc_aws_errf("the scheme must be https (or http to a local engine)");
	else if (!host || !*host)
		*err = ddbc_aws_errf("no host in the URL");
	else if (user)
		*err = ddbc_aws_errf("a user name in the URL; give credentials as the AWS CLI takes them");
	else if (query)
		*err = ddbc_aws_errf("a query in the URL; give the engine's address only");
	else {
		*loopback = is_loopback(host);
		if (strcmp(scheme, "http") == 0 && !*loopback)
			*err = ddbc_aws_errf("plain http to '%s', which is not this machine; use https "
					"(http is for 127.0.0.1, ::1 and localhost only)", host);
		else
			r = 0;
	}
	C->free(scheme);
	C->free(host);
	C->free(user);
	C->free(query);
	return r;
}

int ddbc_aws_endpoint_check(const char *url, bool *loopback, char **err)
{
	const aws_curl_api *C = ddbc_aws_curl(err);
	if (!C)
		return -1;
	CURLU *u = C->url();
	if (!u) {
		*err = ddbc_aws_errf("out of memory");
		return -1;
	}
	int r = -1;
	CURLUcode rc = C->url_set(u, CURLUPART_URL, url, 0);
	/* A URL with '@' may carry a password: it is not quoted back. */
	bool quote = strchr(url, '@') == NULL;
	if (rc != CURLUE_OK || strstr(url, "://") == NULL)
		*err = ddbc_aws_errf("'%s' is not a URL (such as http://127.0.0.1:8000)",
				quote ? url : "...");
	else
		r = check_parts(C, u, loopback, err);
	C->url_cleanup(u);
	return r;
}
