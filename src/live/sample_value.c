/* sample_value.c - one made-up value of an attribute
 *
 * In order of what says most: the enum (a value of it), the `format:`
 * (ddbc_vformat_of), the shape of an example (its digits drawn again, its
 * other characters kept; a date's layout kept), then the type alone. A
 * key part is varied widely so that keys do not collide: at least six
 * random digits (unless a :0WIDTH allows fewer), and never the key
 * delimiter.
 */
#define _GNU_SOURCE 1 /* strcasestr */
#include "live/sample_int.h"
#include "model/request_rows.h"
#include "util/xalloc.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* ---- the generator ---------------------------------------------------------------- */

uint64_t ddbc_rng_next(ddbc_rng *r)
{
	uint64_t z = (r->state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint64_t ddbc_rng_below(ddbc_rng *r, uint64_t n)
{
	return n ? ddbc_rng_next(r) % n : 0;
}

bool ddbc_rng_chance(ddbc_rng *r, double p)
{
	return (double)(ddbc_rng_next(r) >> 11) / 9007199254740992.0 < p;
}

/* ---- formats ---------------------------------------------------------------------- */

static bool has(const char *hay, const char *needle)
{
	return hay && strcasestr(hay, needle);
}

/* A date alone when the format says a date and no time of day. */
static bool date_only(const char *f)
{
	if (has(f, "hh") || has(f, "time") || strstr(f, "dT") || strstr(f, "T0") ||
	    has(f, "milli") || has(f, "second") || has(f, "ミリ秒") || has(f, "秒"))
		return false;
	return has(f, "yyyy-mm-dd") || has(f, "date") || has(f, "日付");
}

static ddbc_vformat time_format(const char *f)
{
	bool ms = has(f, "ms") || has(f, "milli") || has(f, "ミリ");
	if (has(f, "epoch") || has(f, "unix") || has(f, "エポック"))
		return ms ? DDBC_VF_EPOCH_MS : DDBC_VF_EPOCH;
	if (date_only(f))
		return DDBC_VF_DATE;
	return ms ? DDBC_VF_DATETIME_MS : DDBC_VF_DATETIME;
}

ddbc_vformat ddbc_vformat_of(const ddbc_attr *a)
{
	const char *f = a->text->format;
	if (has(f, "ulid"))
		return DDBC_VF_ULID;
	if (has(f, "uuid") || has(f, "guid"))
		return DDBC_VF_UUID;
	if (has(f, "email") || has(f, "e-mail") || has(f, "メール"))
		return DDBC_VF_EMAIL;
	if (has(f, "epoch") || has(f, "unix") || has(f, "エポック") || has(f, "8601") ||
	    has(f, "yyyy") || has(f, "date") || has(f, "timestamp") || has(f, "rfc 3339") ||
	    has(f, "rfc3339") || has(f, "日時") || has(f, "日付"))
		return time_format(f);
	if (!f && (has(a->name.s, "email")))
		return DDBC_VF_EMAIL;
	return DDBC_VF_NONE;
}

static bool starts(const char *s, const char *word)
{
	return !strncasecmp(s, word, strlen(word));
}

/* "U + 3 桁", "C + 6 digits", "P + 32 hex digits", "3 桁の連番", "#rrggbb":
 * a literal prefix and a count of digits, hex digits or letters. */
bool ddbc_format_pattern(const char *f, strbuf *prefix, unsigned *count, const char **alphabet)
{
	if (!f)
		return false;
	ddbc_strbuf_reset(prefix);
	if (has(f, "rrggbb")) {
		ddbc_strbuf_addch(prefix, '#');
		*count = 6;
		*alphabet = "0123456789abcdef";
		return true;
	}
	const char *plus = strchr(f, '+'), *num = plus ? plus + 1 : f;
	if (plus) {
		const char *a = f, *b = plus;
		while (a < b && isspace((unsigned char)*a))
			a++;
		while (b > a && isspace((unsigned char)b[-1]))
			b--;
		for (const char *p = a; p < b; p++)
			if (isspace((unsigned char)*p) || b - a > 16)
				return false;
		ddbc_strbuf_add(prefix, a, (size_t)(b - a));
	}
	num += strspn(num, " ");
	char *end;
	unsigned long n = strtoul(num, &end, 10);
	if (end == num || n < 1 || n > 64)
		return false;
	end += strspn(end, " ");
	if (starts(end, "桁") || starts(end, "digit"))
		*alphabet = "0123456789";
	else if (starts(end, "hex"))
		*alphabet = "0123456789abcdef";
	else if (starts(end, "letter") || starts(end, "char"))
		*alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
	else
		return false;
	*count = (unsigned)n;
	return true;
}

/* ---- strings ---------------------------------------------------------------------- */

static const char crockford[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
static const char base36[] = "0123456789abcdefghijklmnopqrstuvwxyz";

static void add_random(ddbc_rng *r, strbuf *out, const char *alphabet, size_t n)
{
	size_t k = strlen(alphabet);
	for (size_t i = 0; i < n; i++)
		ddbc_strbuf_addch(out, alphabet[ddbc_rng_below(r, k)]);
}

/* A moment between 2020 and 2030, in milliseconds. */
static long long random_ms(ddbc_rng *r)
{
	return 1577836800000LL + (long long)ddbc_rng_below(r, 315360000000ULL);
}

static void add_ulid(ddbc_rng *r, strbuf *out)
{
	unsigned long long ms = (unsigned long long)random_ms(r);
	char t[11];
	for (int i = 9; i >= 0; i--, ms >>= 5)
		t[i] = crockford[ms & 31];
	ddbc_strbuf_add(out, t, 10);
	add_random(r, out, crockford, 16);
}

static void add_uuid(ddbc_rng *r, strbuf *out)
{
	uint64_t hi = ddbc_rng_next(r), lo = ddbc_rng_next(r);
	hi = (hi & ~0xf000ULL) | 0x4000ULL;             /* version 4 */
	lo = (lo & 0x3fffffffffffffffULL) | 0x8000000000000000ULL; /* variant 1 */
	ddbc_strbuf_addf(out, "%08llx-%04llx-%04llx-%04llx-%012llx", (unsigned long long)(hi >> 32),
		    (unsigned long long)(hi >> 16 & 0xffff), (unsigned long long)(hi & 0xffff),
		    (unsigned long long)(lo >> 48), (unsigned long long)(lo & 0xffffffffffffULL));
}

/* ISO 8601 in UTC, to the millisecond: 2025-01-15T10:00:00.000Z. */
static void iso_text(long long ms, char out[48])
{
	time_t s = (time_t)(ms / 1000);
	struct tm tm;
	gmtime_r(&s, &tm);
	snprintf(out, 48, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
		 tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (int)(ms % 1000));
}

/* A date or time in the layout of the example (digits of the same place
 * of the full ISO text, up to the seconds), else the plain layout. */
static void add_time(ddbc_rng *r, ddbc_vformat f, const char *example, strbuf *out)
{
	char iso[48];
	iso_text(random_ms(r), iso);
	if (!example) {
		ddbc_strbuf_add(out, iso, f == DDBC_VF_DATE ? 10 : f == DDBC_VF_DATETIME ? 19 : 23);
		if (f != DDBC_VF_DATE)
			ddbc_strbuf_addch(out, 'Z');
		return;
	}
	for (size_t i = 0; example[i]; i++) {
		bool ours = i < 19 && isdigit((unsigned char)iso[i]);
		ddbc_strbuf_addch(out, ours && isdigit((unsigned char)example[i]) ? iso[i] : example[i]);
	}
}

static void add_email(ddbc_rng *r, strbuf *out)
{
	static const char *const names[] = { "alice", "bob", "carol", "dave", "erin", "frank" };
	ddbc_strbuf_addstr(out, names[ddbc_rng_below(r, 6)]);
	ddbc_strbuf_addch(out, '.');
	add_random(r, out, base36, 8);
	ddbc_strbuf_addstr(out, "@example.com");
}

/* The example's text with its digits drawn again; a key part keeps at
 * least six random digits (its last run of digits widened), and the
 * delimiter's bytes are left out. */
static void add_shaped(ddbc_rng *r, const ddbc_vspec *s, const char *example, strbuf *out)
{
	size_t digits = 0, last_run = 0;
	for (size_t i = 0; example[i]; i++)
		if (isdigit((unsigned char)example[i])) {
			digits++;
			last_run = i;
		}
	size_t start = out->len;
	for (size_t i = 0; example[i]; i++) {
		char c = example[i];
		if (s->delim && *s->delim && strchr(s->delim, c))
			continue;
		if (isdigit((unsigned char)c))
			c = (char)('0' + ddbc_rng_below(r, 10));
		ddbc_strbuf_addch(out, c);
		if (s->key_part && digits < 6 && ((digits && i == last_run) || (!digits && !example[i + 1])))
			add_random(r, out, "0123456789", 6 - digits);
	}
	if (out->len == start)
		add_random(r, out, base36, 10);
}

/* A name-like word and random characters: "userid-..." without a
 * separator the delimiter could be. */
static void add_plain(ddbc_rng *r, const ddbc_vspec *s, strbuf *out)
{
	size_t n = 0;
	for (const char *p = s->a->name.s; *p && n < 12; p++)
		if (isalnum((unsigned char)*p) && !(s->delim && strchr(s->delim, *p))) {
			ddbc_strbuf_addch(out, (char)tolower((unsigned char)*p));
			n++;
		}
	add_random(r, out, "0123456789", s->key_part ? 8 : 4);
}

static void add_string(ddbc_rng *r, const ddbc_vspec *s, strbuf *out)
{
	ddbc_vformat f = ddbc_vformat_of(s->a);
	const char *ex = s->example && ddbc_pval_kind(s->example) == DDBC_NODE_SCALAR
				 ? ddbc_pval_text(s->example) : NULL;
	switch (f) {
	case DDBC_VF_ULID: add_ulid(r, out); return;
	case DDBC_VF_UUID: add_uuid(r, out); return;
	case DDBC_VF_EMAIL: add_email(r, out); return;
	case DDBC_VF_DATE: case DDBC_VF_DATETIME: case DDBC_VF_DATETIME_MS:
		add_time(r, f, ex, out);
		return;
	case DDBC_VF_EPOCH: ddbc_strbuf_addf(out, "%lld", random_ms(r) / 1000); return;
	case DDBC_VF_EPOCH_MS: ddbc_strbuf_addf(out, "%lld", random_ms(r)); return;
	case DDBC_VF_NONE: break;
	}
	strbuf prefix = STRBUF_INIT;
	unsigned count;
	const char *alphabet;
	bool patterned = ddbc_format_pattern(s->a->text->format, &prefix, &count, &alphabet);
	if (patterned) {
		ddbc_strbuf_add(out, prefix.buf, prefix.len);
		add_random(r, out, alphabet, count);
	}
	ddbc_strbuf_release(&prefix);
	if (patterned)
		return;
	if (ex && *ex && !s->key_part)
		ddbc_strbuf_addstr(out, ex);  /* a name, a title: the example reads best as it is */
	else if (ex && *ex)
		add_shaped(r, s, ex, out);
	else
		add_plain(r, s, out);
}

/* ---- numbers ---------------------------------------------------------------------- */

static void add_number(ddbc_rng *r, const ddbc_vspec *s, strbuf *out)
{
	ddbc_vformat f = ddbc_vformat_of(s->a);
	if (f == DDBC_VF_EPOCH || f == DDBC_VF_DATETIME || f == DDBC_VF_DATE ||
	    f == DDBC_VF_DATETIME_MS) {
		ddbc_strbuf_addf(out, "%lld", random_ms(r) / 1000);
		return;
	}
	if (f == DDBC_VF_EPOCH_MS) {
		ddbc_strbuf_addf(out, "%lld", random_ms(r));
		return;
	}
	if (s->width) {
		unsigned w = s->width < 18 ? s->width : 18;
		ddbc_strbuf_addf(out, "%llu", (unsigned long long)ddbc_rng_below(r, (uint64_t)pow(10, w)));
		return;
	}
	const char *ex = s->example && ddbc_pval_is_number(s->example) ? ddbc_pval_text(s->example)
									   : NULL;
	const char *dot = ex ? strchr(ex, '.') : NULL;
	size_t idigits = ex ? strspn(ex + (*ex == '-'), "0123456789") : 3;
	if (s->key_part && idigits < 9)
		idigits = 9;
	if (idigits < 1 || idigits > 15)
		idigits = idigits < 1 ? 1 : 15;
	uint64_t top = 1;
	for (size_t i = 0; i < idigits; i++)
		top *= 10;
	ddbc_strbuf_addf(out, "%llu", (unsigned long long)(1 + ddbc_rng_below(r, top - 1)));
	size_t decimals = dot ? strspn(dot + 1, "0123456789") : 0;
	if (decimals && !s->key_part) {
		ddbc_strbuf_addch(out, '.');
		for (size_t i = 0; i < decimals && i < 6; i++)
			ddbc_strbuf_addch(out, (char)('1' + ddbc_rng_below(r, 9)));
	}
}

/* ---- values by type ---------------------------------------------------------------- */

static void add_base64(ddbc_rng *r, strbuf *out)
{
	static const char b64[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	/* 12 bytes are 16 characters without padding */
	for (int i = 0; i < 16; i++)
		ddbc_strbuf_addch(out, b64[ddbc_rng_below(r, 64)]);
}

/* An enum value's text, drawn. */
static bool add_enum(ddbc_rng *r, const ddbc_attr *a, strbuf *out)
{
	if (!a->more->nenum)
		return false;
	ddbc_scalar_text(a->more->enum_values[ddbc_rng_below(r, a->more->nenum)], out);
	return true;
}

static void add_scalar(ddbc_rng *r, const ddbc_vspec *s, ddbc_type t, strbuf *out)
{
	if (add_enum(r, s->a, out))
		return;
	if (t == DDBC_TYPE_N)
		add_number(r, s, out);
	else if (t == DDBC_TYPE_B)
		add_base64(r, out);
	else
		add_string(r, s, out);
}

/* A random scalar element of the sequence ex, as text. */
static void element_of(ddbc_rng *r, const ddbc_pval *ex, strbuf *out)
{
	uint64_t k = ddbc_rng_below(r, ddbc_pval_n(ex));
	ddbc_pval_iter it = ddbc_pval_members(ex);
	const ddbc_pval *x = NULL;
	while (ddbc_pval_item(&it, &x) && k--)
		;
	if (x && ddbc_pval_kind(x) == DDBC_NODE_SCALAR)
		ddbc_pval_scalar_text(x, out);
	else
		add_random(r, out, base36, 8);
}

/* One to three distinct elements (an enum's as many as it has). */
static json_t *make_set(ddbc_rng *r, const ddbc_vspec *s, ddbc_type t)
{
	ddbc_type et = t == DDBC_TYPE_NS ? DDBC_TYPE_N : t == DDBC_TYPE_BS ? DDBC_TYPE_B
									     : DDBC_TYPE_S;
	size_t want = 1 + ddbc_rng_below(r, 3);
	json_t *set = json_array();
	strbuf v = STRBUF_INIT;
	/* elements of the example's when it lists some */
	const ddbc_pval *ex = s->example && ddbc_pval_kind(s->example) == DDBC_NODE_SEQ &&
			      ddbc_pval_n(s->example) ? s->example : NULL;
	for (size_t tries = 0; json_array_size(set) < want && tries < 12; tries++) {
		ddbc_strbuf_reset(&v);
		if (ex && !s->a->more->nenum)
			element_of(r, ex, &v);
		else
			add_scalar(r, s, et, &v);
		bool dup = false;
		for (size_t i = 0; i < json_array_size(set); i++)
			dup |= !strcmp(json_string_value(json_array_get(set, i)), ddbc_strbuf_str(&v));
		if (!dup)
			json_array_append_new(set, json_string(ddbc_strbuf_str(&v)));
	}
	ddbc_strbuf_release(&v);
	return json_pack("{s:o}", ddbc_type_short(t), set);
}

json_t *ddbc_sample_pval_json(const ddbc_pval *v)
{
	ddbc_pval_iter it = ddbc_pval_members(v);
	const ddbc_pval *k, *x;
	switch (ddbc_pval_kind(v)) {
	case DDBC_NODE_MAP: {
		json_t *m = json_object();
		while (ddbc_pval_pair(&it, &k, &x))
			json_object_set_new(m, ddbc_pval_text(k), ddbc_sample_pval_json(x));
		return json_pack("{s:o}", "M", m);
	}
	case DDBC_NODE_SEQ: {
		json_t *l = json_array();
		while (ddbc_pval_item(&it, &x))
			json_array_append_new(l, ddbc_sample_pval_json(x));
		return json_pack("{s:o}", "L", l);
	}
	default: break;
	}
	bool b;
	if (ddbc_pval_is_null(v))
		return json_pack("{s:b}", "NULL", 1);
	if (ddbc_pval_scalar(v) == DDBC_SCALAR_BOOL && ddbc_pval_bool(v, &b))
		return json_pack("{s:b}", "BOOL", b);
	strbuf t = STRBUF_INIT;
	ddbc_pval_scalar_text(v, &t);
	json_t *out = json_pack("{s:s}", ddbc_pval_is_number(v) ? "N" : "S", ddbc_strbuf_str(&t));
	ddbc_strbuf_release(&t);
	return out;
}

/* A Map or List: the example's shape when there is one (the design's
 * only word on what it nests), else a small one of strings. */
static json_t *make_nested(ddbc_rng *r, const ddbc_vspec *s, ddbc_type t)
{
	ddbc_node_kind want = t == DDBC_TYPE_M ? DDBC_NODE_MAP : DDBC_NODE_SEQ;
	if (s->example && ddbc_pval_kind(s->example) == want)
		return ddbc_sample_pval_json(s->example);
	strbuf v = STRBUF_INIT;
	add_random(r, &v, base36, 8);
	json_t *leaf = json_pack("{s:s}", "S", ddbc_strbuf_str(&v));
	ddbc_strbuf_release(&v);
	if (t == DDBC_TYPE_M)
		return json_pack("{s:{s:o}}", "M", "note", leaf);
	return json_pack("{s:[o]}", "L", leaf);
}

void ddbc_sample_value(ddbc_rng *r, const ddbc_vspec *s, json_t **ddb, strbuf *text)
{
	ddbc_type t = s->a->type;
	ddbc_strbuf_reset(text);
	switch (t) {
	case DDBC_TYPE_S: case DDBC_TYPE_N: case DDBC_TYPE_B:
		add_scalar(r, s, t, text);
		*ddb = json_pack("{s:s}", ddbc_type_short(t), ddbc_strbuf_str(text));
		return;
	case DDBC_TYPE_BOOL: {
		bool b = ddbc_rng_chance(r, 0.5);
		if (s->a->more->nenum) {
			add_enum(r, s->a, text);
			b = !strcmp(ddbc_strbuf_str(text), "true");
		}
		ddbc_strbuf_reset(text);
		ddbc_strbuf_addstr(text, b ? "true" : "false");
		*ddb = json_pack("{s:b}", "BOOL", b);
		return;
	}
	case DDBC_TYPE_NULL: *ddb = json_pack("{s:b}", "NULL", 1); return;
	case DDBC_TYPE_SS: case DDBC_TYPE_NS: case DDBC_TYPE_BS: *ddb = make_set(r, s, t); return;
	case DDBC_TYPE_M: case DDBC_TYPE_L: *ddb = make_nested(r, s, t); return;
	case DDBC_TYPE_NONE: break;
	}
	*ddb = NULL;
}
