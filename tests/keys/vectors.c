/* vectors.c - conformance vectors of a design's key builders and parsers
 *
 * usage: keys_vectors DESIGN OUTDIR GOPACKAGE
 *
 * Reads the header's plan of DESIGN (model/header_plan.h) and writes to
 * OUTDIR what tests/keys.test runs in C, TypeScript, Python and Go:
 *   vectors.json   per key its builder, parser and parameters; values to
 *                  build keys from and keys to parse; per pattern its
 *                  request function, arguments (a PutItem's item too) and
 *                  the queries export's request for them
 *   expected.txt   what every language must print for them (the drivers'
 *                  lines: "B id HEX" a built key, "P id t:HEX n:DEC" parsed
 *                  parts, "refused" for either)
 *   vectors.c      a C program printing those lines with the header; it
 *                  also calls each builder's macro (P_E_A) and snprintf
 *                  with its format (P_E_A_FMT) for the same values, and
 *                  every pattern value builder (p_x_a_value, its macro and
 *                  format) with the parameters the queries export takes,
 *                  printing "MISMATCH ..." where one gives another key
 *   registry.go    the Go driver's table of the package's functions
 *   guards.jsonl   the type guards' items for check-items (vectors_guards.c)
 * Values come from every example item (the key the item holds must be the
 * one built), then edge values per parameter: the empty string, Unicode,
 * the delimiter inside a value and the literal after it (both refused),
 * Numbers (decimal text) at their width and above it, negative, beyond 64
 * bits, with fractions and exponents, of 38 significant digits and 39, at
 * DynamoDB's range ends and past them, not numbers at all. Keys to parse
 * are every built one, one whose last text value holds the delimiter (read
 * back whole, as the C parser does), and mutations no parser may accept:
 * another first literal, a number out of shape ("-0", a leading zero or
 * '+', a zero before a full width, too short for its width, out of
 * DynamoDB's range or digits, no digits), text after the end.
 *
 * What a Number builds is decided here from the project's own checks
 * (ddbc_decimal_dynamodb, ddbc_padding_problem), not from the modules: a
 * value of a :0WIDTH field is a non-negative whole number of at most WIDTH
 * digits, written zero-padded; any other a number DynamoDB holds, written
 * as given less a leading '+', except a whole number with a leading zero
 * or "-0" (refused: one whole number, one key).
 */
#include "emit/emit.h"
#include "emit/emit_json.h"
#include "input/load.h"
#include "rules/check.h"
#include "model/header_plan.h"
#include "model/params.h"
#include "model/semantics.h"
#include "model/template.h"
#include "util/decimal.h"
#include "util/strbuf.h"
#include "vectors_guards.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct gen {
	const ddbc_design *g;
	const char *gopkg;
	json_t *keys;            /* vectors.json "keys" */
	strbuf expected, c, go_b, go_p;
	int next_id;
} gen;

/* ---- values -------------------------------------------------------------------- */

typedef struct value {
	char *text;              /* text, or a number's decimal digits */
} value;

static void add_hex(strbuf *sb, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		ddbc_strbuf_addf(sb, "%02x", (unsigned char)s[i]);
}

static void c_lit(strbuf *sb, const char *s, size_t len)
{
	ddbc_strbuf_addch(sb, '"');
	for (size_t i = 0; i < len; i++)
		ddbc_strbuf_addf(sb, "\\%03o", (unsigned char)s[i]);
	ddbc_strbuf_addch(sb, '"');
}

static bool contains(const char *s, size_t len, const char *needle, size_t n)
{
	for (size_t i = 0; n && i + n <= len; i++)
		if (!memcmp(s + i, needle, n))
			return true;
	return false;
}

typedef enum built_as {
	BUILT,
	REFUSED                  /* refused by every language's builder, C's too (-1) */
} built_as;

/* Whether v is a whole number in plain decimal: a sign, digits only. */
static bool plain_whole(const char *v)
{
	const char *d = v + (*v == '+' || *v == '-');
	return *d && strspn(d, "0123456789") == strlen(d);
}

/* A Number part's text as parsed back (and as written, unpadded): a
 * whole number without '+' or leading zeros, any other less a '+'. */
static void number_part(strbuf *out, const char *v)
{
	if (!plain_whole(v)) {
		ddbc_strbuf_addstr(out, v + (*v == '+'));
		return;
	}
	if (*v == '-')
		ddbc_strbuf_addch(out, '-');
	const char *d = v + (*v == '+' || *v == '-');
	while (d[0] == '0' && d[1])
		d++;
	ddbc_strbuf_addstr(out, d);
}

/* Appends Number v as a :0WIDTH field (width) or a free one (0) holds
 * it; false when a builder refuses it. */
static bool number_field(strbuf *key, const char *v, unsigned width)
{
	size_t len = strlen(v);
	if (!ddbc_decimal_valid(v, len) || !ddbc_decimal_dynamodb(v, len, NULL))
		return false;
	strbuf part = STRBUF_INIT;
	number_part(&part, v);
	bool ok = true;
	if (width) {
		ok = !ddbc_padding_problem(v, len, width);
		for (size_t i = part.len; ok && i < width; i++)
			ddbc_strbuf_addch(key, '0');
	} else if (plain_whole(v)) {
		/* "007" and "-0" would be a second key of 7 and of 0. */
		const char *d = v + (*v == '+' || *v == '-');
		ok = !(d[0] == '0' && d[1]) && !(*v == '-' && !strcmp(part.buf, "-0"));
	}
	if (ok)
		ddbc_strbuf_addstr(key, part.buf);
	ddbc_strbuf_release(&part);
	return ok;
}

/* The key the values build, or why a builder refuses them: a number that
 * does not fit its width; a text value that holds the delimiter, or whose
 * next literal first occurs in it (value + literal finds the literal
 * before the value's end). */
static built_as build(const gen *G, const ddbc_hkey *k, value *vals, strbuf *key)
{
	const char *delim = G->g->key_delimiter ? G->g->key_delimiter : "";
	ddbc_strbuf_reset(key);
	for (size_t i = 0; i < k->npieces; i++) {
		const ddbc_hpiece *pc = &k->pieces[i];
		if (pc->text) {
			ddbc_strbuf_add(key, pc->text, pc->len);
			continue;
		}
		const char *v = vals[pc->param].text;
		if (k->params[pc->param].number) {
			if (!number_field(key, v, pc->width))
				return REFUSED;
			continue;
		}
		size_t len = strlen(v);
		if (contains(v, len, delim, strlen(delim)))
			return REFUSED;
		const ddbc_hpiece *next = i + 1 < k->npieces ? &k->pieces[i + 1] : NULL;
		if (next && next->text) {
			strbuf both = STRBUF_INIT;
			ddbc_strbuf_addstr(&both, v);
			ddbc_strbuf_add(&both, next->text, next->len);
			bool early = contains(both.buf, len + next->len - 1, next->text, next->len);
			ddbc_strbuf_release(&both);
			if (early)
				return REFUSED;
		}
		ddbc_strbuf_addstr(key, v);
	}
	/* DynamoDB's most bytes of a partition or sort key value. */
	if (k->max_bytes && key->len > k->max_bytes)
		return REFUSED;
	return BUILT;
}

/* ---- output --------------------------------------------------------------------- */

static void parts_line(strbuf *sb, const ddbc_hkey *k, value *vals)
{
	for (size_t i = 0; i < k->nparams; i++) {
		if (k->params[i].number) {
			ddbc_strbuf_addstr(sb, " n:");
			number_part(sb, vals[i].text);
		} else {
			ddbc_strbuf_addstr(sb, " t:");
			add_hex(sb, vals[i].text, strlen(vals[i].text));
		}
	}
}

static void c_call_args(strbuf *sb, const ddbc_hkey *k, value *vals)
{
	for (size_t i = 0; i < k->nparams; i++) {
		ddbc_strbuf_addstr(sb, ", ");
		c_lit(sb, vals[i].text, strlen(vals[i].text));
	}
}

/* The arguments of k's format (P_E_A_FMT) for vals, after the format: a
 * value per piece in order; a :0WIDTH Number of at most 18 digits a long
 * long, a wider one its zero-padded digits, any other Number the text the
 * builder writes, a text value as it is. Only for values the builder
 * takes. */
static void c_format_args(strbuf *sb, const ddbc_hkey *k, value *vals)
{
	for (size_t i = 0; i < k->npieces; i++) {
		const ddbc_hpiece *pc = &k->pieces[i];
		if (pc->text)
			continue;
		const char *v = vals[pc->param].text;
		ddbc_strbuf_addstr(sb, ", ");
		if (!k->params[pc->param].number) {
			c_lit(sb, v, strlen(v));
			continue;
		}
		strbuf part = STRBUF_INIT;
		number_part(&part, v);
		if (pc->width && pc->width <= 18) {
			ddbc_strbuf_addf(sb, "%sLL", part.buf);
		} else {
			strbuf padded = STRBUF_INIT;
			for (size_t w = part.len; w < pc->width; w++)
				ddbc_strbuf_addch(&padded, '0');
			ddbc_strbuf_add(&padded, part.buf, part.len);
			c_lit(sb, padded.buf, padded.len);
			ddbc_strbuf_release(&padded);
		}
		ddbc_strbuf_release(&part);
	}
}

/* The builder's macro (macro) gives what its function gave (in buf, n),
 * and, for values it takes, snprintf with its format (fmt) too; the C
 * program says "MISMATCH" where one differs, which no expected line has. */
static void c_twins(strbuf *c, const char *what, const char *macro, const char *fmt,
		    const ddbc_hkey *k, value *vals, bool built)
{
	ddbc_strbuf_addf(c, "\tm = %s(buf2, sizeof buf2", macro);
	c_call_args(c, k, vals);
	ddbc_strbuf_addf(c, ");\n\tsame(\"%s, macro\", buf, n, buf2, m);\n", what);
	if (!built)
		return;
	ddbc_strbuf_addf(c, "\tm = snprintf(buf2, sizeof buf2, %s", fmt);
	c_format_args(c, k, vals);
	ddbc_strbuf_addf(c, ");\n\tsame(\"%s, format\", buf, n, buf2, m);\n", what);
}

static void add_build(gen *G, const ddbc_hattr *ha, json_t *builds, value *vals)
{
	const ddbc_hkey *k = ha->key;
	int id = G->next_id++;
	json_t *args = json_array();
	for (size_t i = 0; i < k->nparams; i++)
		json_array_append_new(args, json_string(vals[i].text));
	json_t *b = json_object();
	json_object_set_new(b, "id", json_integer(id));
	json_object_set_new(b, "values", args);
	json_array_append_new(builds, b);
	strbuf key = STRBUF_INIT;
	bool ok = build(G, k, vals, &key) == BUILT;
	ddbc_strbuf_addf(&G->expected, "B %d ", id);
	if (ok)
		add_hex(&G->expected, key.buf ? key.buf : "", key.len);
	else
		ddbc_strbuf_addstr(&G->expected, "refused");
	ddbc_strbuf_addch(&G->expected, '\n');
	ddbc_strbuf_addf(&G->c, "\tn = %s(buf, sizeof buf", ha->func);
	c_call_args(&G->c, k, vals);
	ddbc_strbuf_addf(&G->c, ");\n\tbuilt(%d, buf, n);\n", id);
	strbuf what = STRBUF_INIT;
	ddbc_strbuf_addf(&what, "%s, vector %d", ha->func, id);
	c_twins(&G->c, what.buf, ha->builder, ha->fmt_macro, k, vals, ok);
	ddbc_strbuf_release(&what);
	ddbc_strbuf_release(&key);
}

static void c_parts(strbuf *sb, const ddbc_hattr *ha)
{
	const ddbc_hkey *k = ha->key;
	for (size_t i = 0; i < k->nparams; i++) {
		ddbc_strbuf_addf(sb, "\t\t%s(p.%s.ptr, p.%s.len);\n", k->params[i].number ? "num" : "span",
			    k->params[i].name, k->params[i].name);
	}
}

/* A key to parse; vals NULL: every parser refuses it. */
static void add_parse(gen *G, const ddbc_hattr *ha, json_t *parses, const char *key, size_t len,
		      value *vals)
{
	int id = G->next_id++;
	json_t *p = json_object();
	json_object_set_new(p, "id", json_integer(id));
	json_object_set_new(p, "key", json_stringn(key, len));
	json_array_append_new(parses, p);
	strbuf line = STRBUF_INIT;
	ddbc_strbuf_addf(&line, "P %d", id);
	if (vals)
		parts_line(&line, ha->key, vals);
	else
		ddbc_strbuf_addstr(&line, " refused");
	ddbc_strbuf_addch(&line, '\n');
	ddbc_strbuf_addstr(&G->expected, line.buf);
	ddbc_strbuf_release(&line);
	ddbc_strbuf_addf(&G->c, "\t{\n\t\tstruct %s p;\n\t\tprintf(\"P %d\");\n\t\tif (%s(", ha->parts_struct,
		    id, ha->parse_func);
	c_lit(&G->c, key, len);
	ddbc_strbuf_addstr(&G->c, ", &p) != 0) {\n\t\t\tputs(\" refused\");\n\t\t} else {\n");
	c_parts(&G->c, ha);
	ddbc_strbuf_addstr(&G->c, "\t\t\tputchar('\\n');\n\t\t}\n\t}\n");
}

/* ---- vectors of one key ------------------------------------------------------------- */

static char *scalar_text(const ddbc_pval *v)
{
	strbuf sb = STRBUF_INIT;
	ddbc_pval_scalar_text(v, &sb);
	return ddbc_strbuf_detach(&sb);
}

/* The values of item for k's parameters; false when it lacks one. */
static bool item_values(const ddbc_hkey *k, const ddbc_pval *item, value *vals)
{
	for (size_t i = 0; i < k->nparams; i++) {
		const ddbc_pval *v = ddbc_pval_get(item, k->params[i].source);
		if (!v || ddbc_pval_kind(v) != DDBC_NODE_SCALAR || ddbc_pval_is_null(v))
			return false;
		vals[i].text = scalar_text(v);
		if (k->params[i].number && !ddbc_decimal_valid(vals[i].text, strlen(vals[i].text)))
			return false;
	}
	return true;
}

static void free_values(value *vals, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(vals[i].text);
		vals[i].text = NULL;
	}
}

static void copy_values(value *to, const value *from, size_t n)
{
	for (size_t i = 0; i < n; i++)
		to[i].text = strdup(from[i].text);
}

/* Builds vals, and parses what it built. */
static void vector(gen *G, const ddbc_hattr *ha, json_t *builds, json_t *parses, value *vals)
{
	add_build(G, ha, builds, vals);
	strbuf key = STRBUF_INIT;
	if (ha->parse_func && build(G, ha->key, vals, &key) == BUILT)
		add_parse(G, ha, parses, key.buf ? key.buf : "", key.len, vals);
	ddbc_strbuf_release(&key);
}

/* The values of base with parameter i set to text. */
static void vary(gen *G, const ddbc_hattr *ha, json_t *builds, json_t *parses, const value *base,
		 size_t i, const char *text)
{
	size_t n = ha->key->nparams;
	value *vals = calloc(n + 1, sizeof(value));
	copy_values(vals, base, n);
	free(vals[i].text);
	vals[i].text = strdup(text);
	vector(G, ha, builds, parses, vals);
	free_values(vals, n);
	free(vals);
}

static const ddbc_hpiece *piece_of(const ddbc_hkey *k, size_t param, size_t *at)
{
	for (size_t i = 0; i < k->npieces; i++)
		if (!k->pieces[i].text && k->pieces[i].param == param) {
			*at = i;
			return &k->pieces[i];
		}
	return NULL;
}

/* Numbers every Number parameter is tried with: whole and 64-bit ends and
 * beyond, fractions, exponents, 38 significant digits and 39, DynamoDB's
 * range ends and past them, signs and zeros a key would hold twice, and
 * texts that are no number. */
static const char *const number_edges[] = {
	"0", "7", "-5", "+5", "007", "-0", "0.0", "-0.0",
	"9223372036854775807", "-9223372036854775808", "9223372036854775808",
	"-99999999999999999999999", "9.99", "-0.5", ".5", "5.", "1.50", "6.02E+23", "1e5",
	"-1.5e-7", "12345678901234567890123456789012345678",
	"-1234567890123456789.0123456789012345678", "123456789012345678901234567890123456789",
	"1.23456789012345678901234567890123456789", "10000000000000000000000000000000000000000",
	"1E-130", "1E-131", "9.9999999999999999999999999999999999999E+125", "1E+126",
	"0.00000000000000000000000000000000000000000000000000000000000000000000000000000000001",
	"1e999999999999999999999", "0e999999999999999999999", "", "-", ".", "e5", "1e", "1e+",
	"1.2.3", "1,5", "abc", " 1", "0x10", "Infinity", "NaN",
};

/* The length of the key base builds with parameter i set to text; 0 when
 * a builder refuses it. */
static size_t built_len(gen *G, const ddbc_hkey *k, const value *base, size_t i, const char *text)
{
	value *vals = calloc(k->nparams + 1, sizeof(value));
	copy_values(vals, base, k->nparams);
	free(vals[i].text);
	vals[i].text = strdup(text);
	strbuf key = STRBUF_INIT;
	size_t n = build(G, k, vals, &key) == BUILT ? key.len : 0;
	ddbc_strbuf_release(&key);
	free_values(vals, k->nparams);
	free(vals);
	return n;
}

/* Keys of DynamoDB's most bytes and of one byte more, from parameter i:
 * a text of ASCII filler ending in a two-byte character (bytes, not
 * characters, are counted), or a free Number "1e-00...05" (its exponent's
 * zeros fill the key). */
static void limit_values(gen *G, const ddbc_hattr *ha, json_t *builds, json_t *parses,
			 const value *base, size_t i, const ddbc_hpiece *pc)
{
	const ddbc_hkey *k = ha->key;
	bool number = k->params[i].number;
	if (!k->max_bytes || (number && pc && pc->width))
		return;
	const char *stub = number ? "1e-5" : "\xc3\xa9";
	size_t len = built_len(G, k, base, i, stub);
	if (!len || len >= k->max_bytes)
		return;
	/* A filler byte in no literal and not the delimiter, so that the value
	 * never meets them. */
	const char *delim = G->g->key_delimiter ? G->g->key_delimiter : "";
	char fill = 'a';
	for (bool met = true; met && fill < 'z'; fill += met) {
		met = strchr(delim, fill) != NULL;
		for (size_t p = 0; !met && p < k->npieces; p++)
			met = k->pieces[p].text && memchr(k->pieces[p].text, fill, k->pieces[p].len);
	}
	for (size_t extra = 0; extra < 2; extra++) {
		strbuf t = STRBUF_INIT;
		size_t room = k->max_bytes - len + extra;
		if (number) {
			ddbc_strbuf_addstr(&t, "1e-");
			for (size_t z = 0; z < room; z++)
				ddbc_strbuf_addch(&t, '0');
			ddbc_strbuf_addch(&t, '5');
		} else {
			for (size_t z = 0; z < room; z++)
				ddbc_strbuf_addch(&t, fill);
			ddbc_strbuf_addstr(&t, stub);
		}
		vary(G, ha, builds, parses, base, i, t.buf);
		ddbc_strbuf_release(&t);
	}
}

static void edge_values(gen *G, const ddbc_hattr *ha, json_t *builds, json_t *parses,
			const value *base)
{
	const ddbc_hkey *k = ha->key;
	const char *delim = G->g->key_delimiter ? G->g->key_delimiter : "#";
	for (size_t i = 0; i < k->nparams; i++) {
		size_t at;
		const ddbc_hpiece *pc = piece_of(k, i, &at);
		limit_values(G, ha, builds, parses, base, i, pc);
		if (k->params[i].number) {
			for (size_t f = 0; f < sizeof(number_edges) / sizeof(number_edges[0]); f++)
				vary(G, ha, builds, parses, base, i, number_edges[f]);
			/* An exponent of more digits than a language reads at once. */
			strbuf x = STRBUF_INIT;
			ddbc_strbuf_addstr(&x, "1e-");
			for (int z = 0; z < 5000; z++)
				ddbc_strbuf_addch(&x, '0');
			ddbc_strbuf_addch(&x, '5');
			vary(G, ha, builds, parses, base, i, x.buf);
			ddbc_strbuf_release(&x);
			unsigned w = pc ? pc->width : 0;
			if (w) {
				strbuf t = STRBUF_INIT;
				for (unsigned d = 0; d < w; d++)  /* at its width: all nines */
					ddbc_strbuf_addch(&t, '9');
				vary(G, ha, builds, parses, base, i, t.buf);
				ddbc_strbuf_reset(&t);
				ddbc_strbuf_addstr(&t, "+000");  /* a sign and zeros before it */
				for (unsigned d = 0; d < w; d++)
					ddbc_strbuf_addch(&t, '9');
				vary(G, ha, builds, parses, base, i, t.buf);
				ddbc_strbuf_reset(&t);
				ddbc_strbuf_addch(&t, '1');  /* above it */
				for (unsigned d = 0; d < w; d++)
					ddbc_strbuf_addch(&t, '0');
				vary(G, ha, builds, parses, base, i, t.buf);
				ddbc_strbuf_release(&t);
			}
			continue;
		}
		vary(G, ha, builds, parses, base, i, "");
		vary(G, ha, builds, parses, base, i, "\xc3\xa9\xe6\x97\xa5\xe6\x9c\xac\xf0\x9f\x8e\x89");
		strbuf t = STRBUF_INIT;
		ddbc_strbuf_addf(&t, "a%sb", delim);
		vary(G, ha, builds, parses, base, i, t.buf);
		const ddbc_hpiece *next = pc && at + 1 < k->npieces ? &k->pieces[at + 1] : NULL;
		if (next && next->text) {
			ddbc_strbuf_reset(&t);
			ddbc_strbuf_addch(&t, 'x');
			ddbc_strbuf_add(&t, next->text, next->len);
			ddbc_strbuf_addch(&t, 'y');
			vary(G, ha, builds, parses, base, i, t.buf);
		}
		ddbc_strbuf_release(&t);
	}
}

/* The key of base with piece `at` (a number) written as text instead. */
static void number_mutation(gen *G, const ddbc_hattr *ha, json_t *parses, const value *base,
			    size_t at, const char *text)
{
	const ddbc_hkey *k = ha->key;
	strbuf key = STRBUF_INIT;
	for (size_t i = 0; i < k->npieces; i++) {
		const ddbc_hpiece *pc = &k->pieces[i];
		if (pc->text)
			ddbc_strbuf_add(&key, pc->text, pc->len);
		else if (i == at)
			ddbc_strbuf_addstr(&key, text);
		else if (k->params[pc->param].number)
			number_field(&key, base[pc->param].text, pc->width);
		else
			ddbc_strbuf_addstr(&key, base[pc->param].text);
	}
	add_parse(G, ha, parses, key.buf, key.len, NULL);
	ddbc_strbuf_release(&key);
}

static void invalid_keys(gen *G, const ddbc_hattr *ha, json_t *parses, const value *base)
{
	const ddbc_hkey *k = ha->key;
	strbuf key = STRBUF_INIT;
	if (build(G, k, (value *)base, &key) != BUILT) {
		ddbc_strbuf_release(&key);
		return;
	}
	const ddbc_hpiece *first = &k->pieces[0], *last = &k->pieces[k->npieces - 1];
	if (first->text) {
		/* The first character replaced whole, so the key stays UTF-8. */
		size_t skip = 1;
		while (skip < key.len && ((unsigned char)key.buf[skip] & 0xC0) == 0x80)
			skip++;
		strbuf m = STRBUF_INIT;
		ddbc_strbuf_addch(&m, key.buf[0] == 'X' ? 'Y' : 'X');
		ddbc_strbuf_add(&m, key.buf + skip, key.len - skip);
		add_parse(G, ha, parses, m.buf, m.len, NULL);
		ddbc_strbuf_release(&m);
	}
	if (last->text || k->params[last->param].number) {
		strbuf m = STRBUF_INIT;
		ddbc_strbuf_add(&m, key.buf, key.len);
		ddbc_strbuf_addch(&m, 'x');
		add_parse(G, ha, parses, m.buf, m.len, NULL);
		ddbc_strbuf_release(&m);
	}
	for (size_t i = 0; i < k->npieces; i++) {
		const ddbc_hpiece *pc = &k->pieces[i];
		if (pc->text || !k->params[pc->param].number)
			continue;
		static const char *const bad[] = { "-0", "", "+5", "1E+126", "1E-131", "-", ".",
			"123456789012345678901234567890123456789" };
		for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++)
			number_mutation(G, ha, parses, base, i, bad[b]);
		strbuf z = STRBUF_INIT;
		ddbc_strbuf_addch(&z, '0');
		for (unsigned d = 0; d < (pc->width ? pc->width : 1); d++)
			ddbc_strbuf_addch(&z, '1');
		number_mutation(G, ha, parses, base, i, z.buf);
		if (pc->width > 1) {
			/* One digit short of the width, and a single digit. */
			ddbc_strbuf_reset(&z);
			for (unsigned d = 0; d + 1 < pc->width; d++)
				ddbc_strbuf_addch(&z, '1');
			number_mutation(G, ha, parses, base, i, z.buf);
			number_mutation(G, ha, parses, base, i, "1");
		}
		ddbc_strbuf_release(&z);
	}
	/* The last value, a text, holds the delimiter: read back whole. */
	if (!last->text && !k->params[last->param].number && G->g->key_delimiter) {
		strbuf m = STRBUF_INIT;
		ddbc_strbuf_add(&m, key.buf, key.len);
		ddbc_strbuf_addstr(&m, G->g->key_delimiter);
		ddbc_strbuf_addstr(&m, "z");
		value *vals = calloc(k->nparams + 1, sizeof(value));
		copy_values(vals, base, k->nparams);
		size_t p = last->param;
		strbuf v = STRBUF_INIT;
		ddbc_strbuf_addf(&v, "%s%sz", vals[p].text, G->g->key_delimiter);
		free(vals[p].text);
		vals[p].text = ddbc_strbuf_detach(&v);
		/* Only when the parameter is used once: it must read the same. */
		size_t uses = 0;
		for (size_t i = 0; i < k->npieces; i++)
			uses += !k->pieces[i].text && k->pieces[i].param == p;
		if (uses == 1)
			add_parse(G, ha, parses, m.buf, m.len, vals);
		free_values(vals, k->nparams);
		free(vals);
		ddbc_strbuf_release(&m);
	}
	ddbc_strbuf_release(&key);
}

/* A Go name as emit_keys_go.c exports it (emit_keys_goname.c). */
static void go_name(strbuf *sb, const char *name)
{
	ddbc_go_name(sb, name, true);
}

static void go_entry(gen *G, const ddbc_hattr *ha)
{
	const ddbc_hkey *k = ha->key;
	ddbc_strbuf_addf(&G->go_b, "\t\"%s\": func(a []string) (string, error) { return k.", ha->func);
	go_name(&G->go_b, ha->func);
	ddbc_strbuf_addch(&G->go_b, '(');
	for (size_t i = 0; i < k->nparams; i++) {
		ddbc_strbuf_addstr(&G->go_b, i ? ", " : "");
		if (k->params[i].enum_type) {  /* any text, as the other languages take it */
			ddbc_strbuf_addstr(&G->go_b, "k.");
			go_name(&G->go_b, k->params[i].enum_type);
			ddbc_strbuf_addf(&G->go_b, "(a[%zu])", i);
		}
		else
			ddbc_strbuf_addf(&G->go_b, k->params[i].number ? "num(a[%zu])" : "a[%zu]", i);
	}
	ddbc_strbuf_addstr(&G->go_b, ") },\n");
	if (!ha->parse_func)
		return;
	ddbc_strbuf_addf(&G->go_p, "\t\"%s\": func(s string) ([]string, bool) {\n\t\tp, ok := k.",
		    ha->parse_func);
	go_name(&G->go_p, ha->parse_func);
	ddbc_strbuf_addstr(&G->go_p, "(s)\n\t\treturn []string{");
	for (size_t i = 0; i < k->nparams; i++) {
		ddbc_strbuf_addstr(&G->go_p, i ? ", " : "");
		ddbc_strbuf_addstr(&G->go_p, k->params[i].number ? "n(p." : "t(p.");
		go_name(&G->go_p, k->params[i].name);
		ddbc_strbuf_addch(&G->go_p, ')');
	}
	ddbc_strbuf_addstr(&G->go_p, "}, ok\n\t},\n");
}

static void key_vectors(gen *G, const ddbc_hentity *he, const ddbc_hattr *ha)
{
	const ddbc_hkey *k = ha->key;
	const ddbc_entity *e = he->entity;
	json_t *kj = json_object(), *params = json_array();
	json_t *builds = json_array(), *parses = json_array();
	json_object_set_new(kj, "builder", json_string(ha->func));
	json_object_set_new(kj, "parser", ha->parse_func ? json_string(ha->parse_func) : json_null());
	for (size_t i = 0; i < k->nparams; i++) {
		json_t *p = json_object();
		json_object_set_new(p, "name", json_string(k->params[i].name));
		json_object_set_new(p, "number", json_boolean(k->params[i].number));
		json_array_append_new(params, p);
	}
	value *base = calloc(k->nparams + 1, sizeof(value));
	bool have_base = false;
	for (size_t x = 0; x < e->nexamples; x++) {
		value *vals = calloc(k->nparams + 1, sizeof(value));
		if (item_values(k, e->examples[x], vals)) {
			strbuf key = STRBUF_INIT;
			const ddbc_pval *held = ddbc_pval_get(e->examples[x], ha->attr->name.s);
			if (held && ddbc_pval_kind(held) == DDBC_NODE_SCALAR && build(G, k, vals, &key) == BUILT &&
			    (ddbc_pval_n(held) != key.len || memcmp(ddbc_pval_text(held), key.buf, key.len))) {
				fprintf(stderr, "example %zu of %s holds %s '%s', built '%s'\n", x + 1,
					e->name.s, ha->attr->name.s, ddbc_pval_text(held), key.buf);
				exit(1);
			}
			ddbc_strbuf_release(&key);
			vector(G, ha, builds, parses, vals);
			if (!have_base) {
				copy_values(base, vals, k->nparams);
				have_base = true;
			}
		}
		free_values(vals, k->nparams);
		free(vals);
	}
	if (!have_base)
		for (size_t i = 0; i < k->nparams; i++)
			base[i].text = strdup(k->params[i].number ? "1" : "a");
	edge_values(G, ha, builds, parses, base);
	if (ha->parse_func)
		invalid_keys(G, ha, parses, base);
	free_values(base, k->nparams);
	free(base);
	json_object_set_new(kj, "params", params);
	json_object_set_new(kj, "build", builds);
	json_object_set_new(kj, "parse", parses);
	json_array_append_new(G->keys, kj);
	go_entry(G, ha);
}

/* ---- requests ------------------------------------------------------------------------ */

/* A pattern parameter's value as the queries export finds it: the
 * pattern's example, else a matched entity's first example item holding
 * it, else that attribute's own example. */
static const ddbc_pval *param_node(const ddbc_pattern *p, const char *name)
{
	const ddbc_pval *v = p->example ? ddbc_pval_get(p->example, name) : NULL;
	if (v && ddbc_pval_kind(v) == DDBC_NODE_SCALAR && !ddbc_pval_is_null(v))
		return v;
	for (size_t i = 0; i < p->nmatched; i++) {
		const ddbc_entity *e = p->matched[i];
		if (!ddbc_entity_attr(e, name))
			continue;
		for (size_t k = 0; k < e->nexamples; k++) {
			v = ddbc_pval_get(e->examples[k], name);
			if (v && ddbc_pval_kind(v) == DDBC_NODE_SCALAR && !ddbc_pval_is_null(v))
				return v;
		}
	}
	for (size_t i = 0; i < p->nmatched; i++) {
		const ddbc_attr *a = ddbc_entity_attr(p->matched[i], name);
		if (a && a->more->example && ddbc_pval_kind(a->more->example) == DDBC_NODE_SCALAR)
			return a->more->example;
	}
	return NULL;
}

/* Each value builder of pattern hp (p_x_a_value) with the parameters the
 * queries export takes: its key as build() makes it (or -1), and the
 * same from its macro and, for a key it builds, from its format. Only the
 * C program runs these: a line "MISMATCH" where one differs. */
static void value_checks(gen *G, const ddbc_hpattern *hp)
{
	for (size_t i = 0; i < hp->nvalues; i++) {
		const ddbc_hvalue *hv = &hp->values[i];
		const ddbc_hkey *k = &hv->key;
		if (!hv->func)
			continue;
		value *vals = calloc(k->nparams + 1, sizeof(value));
		bool have = true;
		for (size_t j = 0; j < k->nparams && have; j++) {
			const ddbc_pval *v = param_node(hp->pattern, k->params[j].source);
			have = v != NULL;
			if (have)
				vals[j].text = scalar_text(v);
			have = have && (!k->params[j].number ||
					ddbc_decimal_valid(vals[j].text, strlen(vals[j].text)));
		}
		if (have) {
			strbuf key = STRBUF_INIT;
			bool ok = build(G, k, vals, &key) == BUILT;
			ddbc_strbuf_addf(&G->c, "\tn = %s(buf, sizeof buf", hv->func);
			c_call_args(&G->c, k, vals);
			ddbc_strbuf_addf(&G->c, ");\n\tsame(\"%s, the pattern's parameters\", buf, n, ",
				    hv->func);
			c_lit(&G->c, key.buf ? key.buf : "", ok ? key.len : 0);
			ddbc_strbuf_addf(&G->c, ", %d);\n", ok ? (int)key.len : -1);
			c_twins(&G->c, hv->func, hv->macro, hv->value_macro, k, vals, ok);
			ddbc_strbuf_release(&key);
		}
		free_values(vals, k->nparams);
		free(vals);
	}
}

static json_t *export_input(const ddbc_design *g, const ddbc_pattern *p)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	ddbc_diags d;
	ddbc_diags_init(&d);
	ddbc_query_sent sent;
	memset(&sent, 0, sizeof(sent));
	ddbc_emit_result r = ddbc_emit_query_input(mem, g, p, &d, &sent);
	ddbc_query_sent_release(&sent);
	fclose(mem);
	ddbc_diags_release(&d);
	json_t *input = r == DDBC_EMIT_OK ? json_loadb(text, len, 0, NULL) : NULL;
	free(text);
	return input;
}

/* The Go arguments of a request's function from the driver's strings
 * a[i]: an enum's type, a Number's text, a boolean; after ", " when put. */
static void go_args(strbuf *sb, const json_t *args, bool put)
{
	for (size_t a = 0; a < json_array_size(args); a++) {
		json_t *arg = json_array_get(args, a);
		const char *et = json_string_value(json_object_get(arg, "enum"));
		ddbc_strbuf_addstr(sb, a || put ? ", " : "");
		if (et) {
			ddbc_strbuf_addstr(sb, "k.");
			go_name(sb, et);
			ddbc_strbuf_addf(sb, "(a[%zu])", a);
		} else {
			ddbc_strbuf_addf(sb, json_is_true(json_object_get(arg, "number")) ? "num(a[%zu])"
				    : json_is_true(json_object_get(arg, "bool"))
				    ? "a[%zu] == \"true\"" : "a[%zu]", a);
		}
	}
}

/* Whether every ':name' value of a write's condition (the export's
 * ExpressionAttributeValues) has its type from an attribute. */
static bool typed_condition(const ddbc_pattern *p, const json_t *cvals)
{
	const char *ref;
	json_t *v;
	json_object_foreach((json_t *)cvals, ref, v)
		if (!ddbc_pattern_named_attr(p, ref + 1, strlen(ref + 1)))
			return false;
	return true;
}

/* An argument of an S attribute with an enum names its Go type: the Go
 * driver converts the text to it (ddbc_header_enum_type). */
static void enum_arg(ddbc_header_plan *plan, ddbc_arena *arena, const ddbc_attr *a, json_t *arg)
{
	const char *t = ddbc_header_enum_type(plan, arena, a);
	if (t)
		json_object_set_new(arg, "enum", json_string(t));
}

/* The arguments a write's ':name' values add, after the key's: the
 * export's value for each whose parameter the key does not take. */
static void condition_args(ddbc_header_plan *plan, const ddbc_pattern *p, const json_t *cvals,
			   json_t *args, json_t *seen)
{
	ddbc_arena *arena = ddbc_arena_new();
	const char *ref;
	json_t *v;
	json_object_foreach((json_t *)cvals, ref, v) {
		const char *name = ddbc_header_param_name(arena, ref + 1);
		if (json_object_get(seen, name))
			continue;
		json_object_set_new(seen, name, json_true());
		const ddbc_attr *a = ddbc_pattern_named_attr(p, ref + 1, strlen(ref + 1));
		const char *type;
		json_t *x;
		json_object_foreach(v, type, x) {
			json_t *arg = json_object();
			json_object_set_new(arg, "value", json_is_boolean(x)
					    ? json_string(json_is_true(x) ? "true" : "false")
					    : json_incref(x));
			json_object_set_new(arg, "number", json_boolean(a->type == DDBC_TYPE_N));
			json_object_set_new(arg, "bool", json_boolean(a->type == DDBC_TYPE_BOOL));
			enum_arg(plan, arena, a, arg);
			json_array_append_new(args, arg);
			break;
		}
	}
	ddbc_arena_free(arena);
}

static json_t *requests(const ddbc_design *g, ddbc_header_plan *plan)
{
	json_t *out = json_array(), *input;
	ddbc_arena *names = ddbc_arena_new();
	for (size_t i = 0; i < g->npatterns; i++) {
		ddbc_hpattern hp;
		const ddbc_pattern *p = &g->patterns[i];
		if (!ddbc_header_plan_pattern(plan, i, &hp) || !(input = export_input(g, p)))
			continue;
		/* A write's ':name' values are parameters typed from the design
		 * (ddbc_pattern_named_attr); one only its example types gets no
		 * function (emit_keys.c). */
		json_t *cvals = p->operation == DDBC_OP_PUT || p->operation == DDBC_OP_UPDATE ||
				p->operation == DDBC_OP_DELETE
				? json_object_get(input, "ExpressionAttributeValues") : NULL;
		if (!typed_condition(p, cvals)) {
			json_decref(input);
			continue;
		}
		size_t n = strlen(hp.table_macro) - strlen("_TABLE_NAME");
		strbuf func = STRBUF_INIT;
		for (size_t c = 0; c < n; c++)
			ddbc_strbuf_addch(&func, (char)(hp.table_macro[c] >= 'A' && hp.table_macro[c] <= 'Z'
					       ? hp.table_macro[c] - 'A' + 'a' : hp.table_macro[c]));
		ddbc_strbuf_addstr(&func, "_request");
		json_t *args = json_array(), *seen = json_object();
		for (size_t v = 0; v < hp.nvalues; v++) {
			const ddbc_hkey *k = &hp.values[v].key;
			for (size_t a = 0; !k->constant && a < k->nparams; a++) {
				if (json_object_get(seen, k->params[a].name))
					continue;
				json_object_set_new(seen, k->params[a].name, json_true());
				const ddbc_pval *node = param_node(p, k->params[a].source);
				char *text = node ? scalar_text(node) : strdup("");
				json_t *arg = json_object();
				json_object_set_new(arg, "value", json_string(text));
				json_object_set_new(arg, "number", json_boolean(k->params[a].number));
				if (!k->params[a].number)
					enum_arg(plan, names, ddbc_pattern_named_attr(
						 p, k->params[a].source, strlen(k->params[a].source)), arg);
				json_array_append_new(args, arg);
				free(text);
			}
		}
		condition_args(plan, p, cvals, args, seen);
		json_t *r = json_object();
		json_object_set_new(r, "pattern", json_string(p->id.s));
		json_object_set_new(r, "func", json_string(func.buf));
		json_object_set_new(r, "args", args);
		json_object_set_new(r, "operation", json_string(ddbc_query_operation(p->operation)));
		/* A PutItem's function takes the item: the export's, whose key
		 * it must write over it as the export did. */
		if (p->operation == DDBC_OP_PUT)
			json_object_set(r, "item", json_object_get(input, "Item"));
		json_object_set_new(r, "input", input);
		json_t *ents = json_array();
		for (size_t m = 0; m < p->nentities; m++)
			json_array_append_new(ents, json_string(p->entities[m].s));
		for (size_t m = 0; !p->nentities && m < p->nmatched; m++)
			json_array_append_new(ents, json_string(p->matched[m]->name.s));
		json_object_set_new(r, "entities", ents);
		json_array_append_new(out, r);
		json_decref(seen);
		ddbc_strbuf_release(&func);
	}
	ddbc_arena_free(names);
	return out;
}

/* ---- main ------------------------------------------------------------------------------ */

static void write_file(const char *dir, const char *name, const char *text, size_t len)
{
	strbuf path = STRBUF_INIT;
	ddbc_strbuf_addf(&path, "%s/%s", dir, name);
	FILE *f = fopen(path.buf, "w");
	/* An empty part has no buffer at all: fwrite must not see NULL. */
	if (!f || (len && fwrite(text, 1, len, f) != len) || fclose(f) != 0) {
		perror(path.buf);
		exit(1);
	}
	ddbc_strbuf_release(&path);
}

static const char c_head[] =
	"#include <stdio.h>\n#include <string.h>\n#include \"keys.h\"\n\n"
	"static void hex(const char *s, size_t n)\n{\n\tfor (size_t i = 0; i < n; i++)\n"
	"\t\tprintf(\"%02x\", (unsigned char)s[i]);\n}\n\n"
	"static void built(int id, const char *buf, int n)\n{\n"
	"\tprintf(\"B %d \", id);\n\tif (n < 0)\n\t\tprintf(\"refused\");\n\telse\n"
	"\t\thex(buf, (size_t)n);\n\tputchar('\\n');\n}\n\n"
	"static void span(const char *p, size_t n)\n{\n\tprintf(\" t:\");\n\thex(p, n);\n}\n\n"
	"static void num(const char *p, size_t n)\n{\n\tprintf(\" n:%.*s\", (int)n, p);\n}\n\n"
	"/* The builder's macro and its format give the function's key. */\n"
	"static void same(const char *what, const char *buf, int n, const char *buf2, int m)\n{\n"
	"\tif (n != m || (n >= 0 && strcmp(buf, buf2) != 0))\n"
	"\t\tprintf(\"MISMATCH %s: %d '%s', %d '%s'\\n\", what, n, n >= 0 ? buf : \"\", m,\n"
	"\t\t       m >= 0 ? buf2 : \"\");\n}\n\n"
	"int main(void)\n{\n\tchar buf[8192], buf2[8192];\n\tint n, m;\n"
	"\t(void)buf, (void)n, (void)buf2, (void)m, (void)span, (void)num, (void)built, (void)same;\n";

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: keys_vectors DESIGN OUTDIR GOPACKAGE\n");
		return 2;
	}
	ddbc_source *src = ddbc_source_read(argv[1]);
	ddbc_settings cli;
	ddbc_settings_init(&cli);
	ddbc_diags d;
	ddbc_diags_init(&d);
	ddbc_design *g = src ? ddbc_check(src, &d, &cli) : NULL;
	if (!g || ddbc_diags_count(&d).errors) {
		fprintf(stderr, "%s: not a clean design\n", argv[1]);
		return 2;
	}
	ddbc_header_plan plan;
	if (ddbc_header_plan_build(&plan, g, NULL, &d, NULL) != DDBC_PLAN_OK) {
		fprintf(stderr, "%s: no header plan\n", argv[1]);
		return 2;
	}
	gen G = { g, argv[3], json_array(), STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT,
		  0 };
	ddbc_strbuf_addstr(&G.c, c_head);
	for (size_t i = 0; i < g->nentities; i++) {
		ddbc_hentity he;
		if (ddbc_header_plan_entity(&plan, i, &he, NULL) != 0)
			return 2;
		for (size_t a = 0; a < he.nattrs; a++)
			if (he.attrs[a].key && !he.attrs[a].key->constant)
				key_vectors(&G, &he, &he.attrs[a]);
	}
	for (size_t i = 0; i < g->npatterns; i++) {
		ddbc_hpattern hp;
		if (ddbc_header_plan_pattern(&plan, i, &hp))
			value_checks(&G, &hp);
	}
	ddbc_strbuf_addstr(&G.c, "\treturn 0;\n}\n");
	guard_gen gg = { json_array(), STRBUF_INIT, 0, G.next_id };
	guard_vectors(&gg, g);
	write_file(argv[2], "guards.jsonl", gg.jsonl.buf, gg.jsonl.len);
	ddbc_strbuf_release(&gg.jsonl);
	json_t *all = json_object();
	json_object_set_new(all, "keys", G.keys);
	json_object_set_new(all, "guards", gg.vectors);
	json_object_set_new(all, "requests", requests(g, &plan));
	strbuf eo = STRBUF_INIT;
	ddbc_strbuf_addf(&eo, "%s_entity_of", plan.prefix_lower);
	json_object_set_new(all, "entity_of", json_string(eo.buf));
	char *text = json_dumps(all, JSON_INDENT(1) | JSON_ENSURE_ASCII);
	write_file(argv[2], "vectors.json", text, strlen(text));
	free(text);
	write_file(argv[2], "expected.txt", G.expected.buf, G.expected.len);
	write_file(argv[2], "vectors.c", G.c.buf, G.c.len);
	strbuf go = STRBUF_INIT;
	ddbc_strbuf_addf(&go, "package main\n\nimport k \"ddbckeys/%s\"\n\n"
		    "var _ = k.KeyBuildError{}\n\n"
		    "var builders = map[string]func([]string) (string, error){\n%s}\n\n"
		    "var parsers = map[string]func(string) ([]string, bool){\n%s}\n",
		    G.gopkg, G.go_b.buf ? G.go_b.buf : "", G.go_p.buf ? G.go_p.buf : "");
	ddbc_strbuf_addstr(&go, "\nvar requestFuncs = map[string]func(k.Item, []string) (map[string]any, "
		      "error){\n");
	/* inputs.go, for tests/keys/engine.go: each pattern's SDK input. */
	strbuf in = STRBUF_INIT;
	ddbc_strbuf_addf(&in, "package main\n\nimport k \"ddbckeys/%s\"\n\n"
		    "var inputFuncs = map[string]func(k.Item, []string) (any, error){\n", G.gopkg);
	json_t *reqs = json_object_get(all, "requests");
	for (size_t i = 0; i < json_array_size(reqs); i++) {
		json_t *r = json_array_get(reqs, i);
		const char *func = json_string_value(json_object_get(r, "func"));
		bool put = json_object_get(r, "item") != NULL;
		strbuf args = STRBUF_INIT;
		go_args(&args, json_object_get(r, "args"), put);
		ddbc_strbuf_addf(&go, "\t\"%s\": func(%s k.Item, a []string) (map[string]any, error) "
			    "{ return k.", func, put ? "item" : "_");
		go_name(&go, func);
		ddbc_strbuf_addf(&go, "(%s%s) },\n", put ? "item" : "", args.buf ? args.buf : "");
		/* <prefix>_<pattern>_input: a PutItem's takes the SDK's item. */
		strbuf input = STRBUF_INIT;
		ddbc_strbuf_add(&input, func, strlen(func) - strlen("request"));
		ddbc_strbuf_addstr(&input, "input");
		ddbc_strbuf_addf(&in, "\t\"%s\": func(%s k.Item, a []string) (any, error) {\n", func,
			    put ? "item" : "_");
		if (put)
			ddbc_strbuf_addstr(&in, "\t\tav, err := attrs(item)\n\t\tif err != nil {\n"
				      "\t\t\treturn nil, err\n\t\t}\n");
		ddbc_strbuf_addstr(&in, "\t\treturn k.");
		go_name(&in, input.buf);
		ddbc_strbuf_addf(&in, "(%s%s)\n\t},\n", put ? "av" : "", args.buf ? args.buf : "");
		ddbc_strbuf_release(&input);
		ddbc_strbuf_release(&args);
	}
	ddbc_strbuf_addstr(&in, "}\n");
	write_file(argv[2], "inputs.go", in.buf, in.len);
	ddbc_strbuf_release(&in);
	ddbc_strbuf_addstr(&go, "}\n\nvar entityOf = k.");
	go_name(&go, eo.buf);
	ddbc_strbuf_addstr(&go, "\n");
	ddbc_strbuf_release(&eo);
	write_file(argv[2], "registry.go", go.buf, go.len);
	ddbc_strbuf_release(&go);
	json_decref(all);
	ddbc_strbuf_release(&G.expected);
	ddbc_strbuf_release(&G.c);
	ddbc_strbuf_release(&G.go_b);
	ddbc_strbuf_release(&G.go_p);
	ddbc_header_plan_free(&plan);
	ddbc_design_free(g);
	ddbc_diags_release(&d);
	ddbc_source_free(src);
	return 0;
}
