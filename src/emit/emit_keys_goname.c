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

#include <stdbool.h>
#include <string.h>

/* golint's commonInitialisms, and DynamoDB's own. UTF8 is a whole word. */
static const char *const initialisms[] = {
	"acl", "api", "arn", "ascii", "cpu", "css", "dns", "eof", "gsi", "guid", "html", "http",
	"https", "id", "ip", "json", "lhs", "lsi", "pk", "qps", "ram", "rhs", "rpc", "sk", "sla",
	"smtp", "sql", "ssh", "tcp", "tls", "ttl", "udp", "ui", "uid", "uri", "url", "uuid", "vm",
	"xml", "xmpp", "xsrf", "xss",
};

static bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
static bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static char lower(char c) { return is_upper(c) ? (char)(c - 'A' + 'a') : c; }
static char upper(char c) { return is_lower(c) ? (char)(c - 'a' + 'A') : c; }

static bool initialism(const char *s, size_t n)
{
	char w[8];
	if (n >= sizeof(w))
		return false;
	for (size_t i = 0; i < n; i++)
		w[i] = lower(s[i]);
	w[n] = '\0';
	for (size_t i = 0; i < sizeof(initialisms) / sizeof(initialisms[0]); i++)
		if (!strcmp(w, initialisms[i]))
			return true;
	return false;
}

/* Appends run s[0..n) (letters, or digits): capitals for an initialism,
 * else the first letter so, but for letters after digits (a word goes
 * on: "1st", "v2beta"); all lower case when `first_lower`. */
static void run(strbuf *sb, const char *s, size_t n, bool first_lower, bool after_digits)
{
	bool caps = !first_lower && initialism(s, n);
	bool cap_first = !first_lower && !after_digits;
	for (size_t i = 0; i < n; i++)
		ddbc_strbuf_addch(sb, caps || (i == 0 && cap_first) ? upper(s[i]) : lower(s[i]));
}

static void word(strbuf *sb, const char *s, size_t n, bool *first_lower)
{
	/* "utf8": one initialism of a letter and a digit run. */
	if (n == 4 && (!strncmp(s, "utf8", 4) || !strncmp(s, "UTF8", 4))) {
		ddbc_strbuf_addstr(sb, *first_lower ? "utf8" : "UTF8");
		*first_lower = false;
		return;
	}
	for (size_t i = 0; i < n;) {
		size_t j = i;
		bool digits = is_digit(s[i]);
		while (j < n && is_digit(s[j]) == digits)
			j++;
		run(sb, s + i, j - i, *first_lower, i > 0 && is_digit(s[i - 1]));
		*first_lower = false;
		i = j;
	}
}

void ddbc_go_name(strbuf *sb, const char *name, bool exported)
{
	strbuf w = STRBUF_INIT;
	bool first_lower = !exported;
	for (const char *p = name; *p;) {
		const char *end = strchr(p, '_');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		if (n)
			word(&w, p, n, &first_lower);
		p += n;
		if (*p == '_')
			p++;
	}
	/* Nothing but '_', or a first digit: a letter or '_' before it. */
	if (!w.len || is_digit(w.buf[0]))
		ddbc_strbuf_addstr(sb, exported ? "P" : "_");
	if (w.len)
		ddbc_strbuf_add(sb, w.buf, w.len);
	ddbc_strbuf_release(&w);
}
