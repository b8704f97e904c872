/* emit_keys_goname.c - the names of `ddbc keys --lang go`, as Go code names things
 *
 * The plan names things the C way (ecommerce_order_sk, ECOMMERCE_USER_PK_NAME,
 * user_id). Go code says EcommerceOrderSK, EcommerceUserPKName and userID
 * (Effective Go's MixedCaps; golint's initialisms in capitals), so the Go
 * module renames every plan name here, and tests/keys/vectors.c calls the
 * same function to know what the module calls each thing.
 *
 * A plan name is split into words at '_', and each word into runs of
 * letters and of digits; a run that is an initialism (golint's list, and
 * DynamoDB's PK, SK, GSI, LSI, ARN) is written in capitals, any other
 * with its first letter so. Two plan names can meet after renaming
 * (user_id and userid do not, user_id and user__id do): emit_keys.c
 * registers the Go name, and a clash is an error naming both.
 */
#include "emit/emit.h"
#include "util/xalloc.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* golint's commonInitialisms, and DynamoDB's own, by length (none is
 * longer than 5). UTF8 is a whole word. A name is renamed each time the
 * module writes it, a few hundred times an entity: a run is compared only
 * with the initialisms of its own length, where a scan of all of them was
 * half of `keys --lang go`. */
static const char *const initialisms2[] = { "id", "ip", "pk", "sk", "ui", "vm", NULL };
static const char *const initialisms3[] = {
	"acl", "api", "arn", "cpu", "css", "dns", "eof", "gsi", "lhs", "lsi", "qps", "ram",
	"rhs", "rpc", "sla", "sql", "ssh", "tcp", "tls", "ttl", "udp", "uid", "uri", "url",
	"xml", "xss", NULL,
};
static const char *const initialisms4[] = {
	"guid", "html", "http", "json", "smtp", "uuid", "xmpp", "xsrf", NULL,
};
static const char *const initialisms5[] = { "ascii", "https", NULL };
static const char *const *const initialisms_of_length[] = {
	NULL, NULL, initialisms2, initialisms3, initialisms4, initialisms5,
};

static bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
static bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static char lower(char c) { return is_upper(c) ? (char)(c - 'A' + 'a') : c; }
static char upper(char c) { return is_lower(c) ? (char)(c - 'a' + 'A') : c; }

static bool initialism(const char *s, size_t n)
{
	if (n >= sizeof(initialisms_of_length) / sizeof(initialisms_of_length[0]) ||
	    !initialisms_of_length[n])
		return false;
	char w[8];
	for (size_t i = 0; i < n; i++)
		w[i] = lower(s[i]);
	for (const char *const *x = initialisms_of_length[n]; *x; x++)
		if (!memcmp(w, *x, n))
			return true;
	return false;
}

/* Writes run s[0..n) (letters, or digits) at out: capitals for an
 * initialism, else the first letter so, but for letters after digits (a
 * word goes on: "1st", "v2beta"); all lower case when `first_lower`.
 * Returns the end of what it wrote. */
static char *run(char *out, const char *s, size_t n, bool first_lower, bool after_digits)
{
	bool caps = !first_lower && initialism(s, n);
	bool cap_first = !first_lower && !after_digits;
	for (size_t i = 0; i < n; i++)
		*out++ = caps || (i == 0 && cap_first) ? upper(s[i]) : lower(s[i]);
	return out;
}

static char *word(char *out, const char *s, size_t n, bool *first_lower)
{
	/* "utf8": one initialism of a letter and a digit run. */
	if (n == 4 && (!strncmp(s, "utf8", 4) || !strncmp(s, "UTF8", 4))) {
		memcpy(out, *first_lower ? "utf8" : "UTF8", 4);
		*first_lower = false;
		return out + 4;
	}
	for (size_t i = 0; i < n;) {
		size_t j = i;
		bool digits = is_digit(s[i]);
		while (j < n && is_digit(s[j]) == digits)
			j++;
		out = run(out, s + i, j - i, *first_lower, i > 0 && is_digit(s[i - 1]));
		*first_lower = false;
		i = j;
	}
	return out;
}

void ddbc_go_name(strbuf *sb, const char *name, bool exported)
{
	/* The Go name is never longer than the plan name ('_' dropped, each
	 * letter kept): it is made on the stack, or in one allocation for a
	 * long name, and added at once. */
	size_t len = strlen(name);
	char small[128];
	char *buf = len < sizeof(small) ? small : ddbc_xmalloc(len + 1);
	char *out = buf;
	bool first_lower = !exported;
	for (const char *p = name; *p;) {
		const char *end = memchr(p, '_', len - (size_t)(p - name));
		size_t n = end ? (size_t)(end - p) : len - (size_t)(p - name);
		if (n)
			out = word(out, p, n, &first_lower);
		p += n;
		if (*p == '_')
			p++;
	}
	/* Nothing but '_', or a first digit: a letter or '_' before it. */
	if (out == buf || is_digit(buf[0]))
		ddbc_strbuf_addstr(sb, exported ? "P" : "_");
	ddbc_strbuf_add(sb, buf, (size_t)(out - buf));
	if (buf != small)
		free(buf);
}
