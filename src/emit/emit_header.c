/* emit_header.c - the C header of key builders, parsers and name constants
 *
 * Prints the plan of header_plan.c: a banner, the include guard, <stdio.h>
 * only when there is a builder and <string.h> only when there is a parser,
 * an extern "C" prologue and epilogue, the parsers' helpers, the table and
 * index name constants, then per entity, in file order, each attribute's
 * name constant and, for an attribute with a template, its format (a
 * :0WIDTH Number of up to 18 digits a long long, %0WIDTHlld, which the
 * builder passes too, so the format alone gives its key), literal prefix
 * and builder (a static inline function and a macro calling it; or the
 * constant key) and its parser; then per access pattern its names, its key condition
 * (the queries export's own text, ddbc_query_key_condition) and a builder
 * per key condition value. A Number value is its decimal text, checked and
 * spelt by one helper (<p>_key_number_text_) written before the first
 * builder that takes one, read back by one (<p>_key_number_) before the
 * first parser that reads one. Each entity is planned as it is printed and
 * written out before the next, so neither the plan nor the text of a large
 * design is ever whole in memory. Nothing depends on the time or the
 * directory, so the same design gives the same bytes.
 *
 * Every byte of user text goes through one of two escapers: c_literal for
 * string literals (quotes, backslashes, '?' against trigraphs, '%' in
 * formats, everything outside printable ASCII as octal) and comment_text
 * for comments (no "*" "/" or "/" "*" pair, no "??", no control or bidi
 * characters), so no name or template can end a literal or a comment.
 */
#include "emit/emit.h"
#include "emit/emit_json.h"
#include "model/header_plan.h"
#include "util/strbuf.h"
#include "util/strset.h"
#include "util/utf8.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* before, s, after: what a format of one %s writes, without reading one. */
static void add_around(strbuf *sb, const char *before, const char *s, const char *after)
{
	ddbc_strbuf_addstr(sb, before);
	ddbc_strbuf_addstr(sb, s);
	ddbc_strbuf_addstr(sb, after);
}

/* ---- escaping ---------------------------------------------------------------- */

/* Appends s escaped for a C string literal; format doubles '%' for printf.
 * Bytes that stand as they are go in runs: every name and template of the
 * header comes through here. */
static void c_escape(strbuf *sb, const char *s, size_t len, bool format)
{
	size_t run = 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '?' && c != '%')
			continue;
		ddbc_strbuf_add(sb, s + run, i - run);
		run = i + 1;
		switch (c) {
		case '"': ddbc_strbuf_addstr(sb, "\\\""); continue;
		case '\\': ddbc_strbuf_addstr(sb, "\\\\"); continue;
		case '?': ddbc_strbuf_addstr(sb, "\\?"); continue;
		case '\n': ddbc_strbuf_addstr(sb, "\\n"); continue;
		case '\t': ddbc_strbuf_addstr(sb, "\\t"); continue;
		case '%': ddbc_strbuf_addstr(sb, format ? "%%" : "%"); continue;
		}
		/* Three octal digits always end the escape, whatever follows. */
		ddbc_strbuf_addf(sb, "\\%03o", c);
	}
	ddbc_strbuf_add(sb, s + run, len - run);
}

static void c_literal(strbuf *sb, const char *s, size_t len, bool format)
{
	ddbc_strbuf_addch(sb, '"');
	c_escape(sb, s, len, format);
	ddbc_strbuf_addch(sb, '"');
}

/* Bidirectional controls, which compilers warn about in comments. */
static bool is_bidi(unsigned cp)
{
	return cp == 0x061c || cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}

static void comment_char(strbuf *sb, char c)
{
	char last = sb->len ? sb->buf[sb->len - 1] : ' ';
	/* No comment end, nested comment start or trigraph can form. */
	if ((last == '*' && c == '/') || (last == '/' && c == '*') || (last == '?' && c == '?'))
		ddbc_strbuf_addch(sb, ' ');
	ddbc_strbuf_addch(sb, c);
}

/* Appends s as text inside a block comment: readable, never its end. Runs
 * of printable ASCII go in as they are, but for the bytes that could pair
 * with the one before them (see comment_char). */
static void comment_text(strbuf *sb, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len, *run = p;
	while (p < end) {
		if (*p >= 0x20 && *p < 0x7f && *p != '/' && *p != '*' && *p != '?') {
			p++;
			continue;
		}
		ddbc_strbuf_add(sb, run, (size_t)(p - run));
		if (*p < 0x80) {
			comment_char(sb, *p < 0x20 || *p == 0x7f ? ' ' : (char)*p);
			run = ++p;
			continue;
		}
		unsigned cp;
		size_t n = ddbc_utf8_decode(p, end, &cp);
		if (n == 0 || is_bidi(cp)) {
			comment_char(sb, '?');
			p += n ? n : 1;
		} else {
			ddbc_strbuf_add(sb, p, n);
			p += n;
		}
		run = p;
	}
	ddbc_strbuf_add(sb, run, (size_t)(p - run));
}

static void comment_str(strbuf *sb, const char *s)
{
	comment_text(sb, s, strlen(s));
}

/* ---- parts of the header ------------------------------------------------------------ */

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

static void banner(strbuf *sb, const ddbc_design *g, const ddbc_header_plan *plan)
{
	const char *P = plan->prefix, *p = plan->prefix_lower;
	ddbc_strbuf_addstr(sb, "/* ");
	comment_str(sb, g->src && g->src->name ? base_name(g->src->name) : "-");
	ddbc_strbuf_addstr(sb, ": C header generated by ddbc from the design '");
	comment_str(sb, g->name.s ? g->name.s : "");
	ddbc_strbuf_addstr(sb, "'; do not edit\n *\n");
	ddbc_strbuf_addf(sb,
		" * For each attribute whose template has values to fill in:\n"
		" *   %s_<ENTITY>_<ATTRIBUTE>_FMT     the printf format of the key: snprintf\n"
		" *                        with it and the values in the template's order\n"
		" *                        (its comment lists them) gives the builder's key\n"
		" *                        for values the builder takes; a :0WIDTH Number of\n"
		" *                        up to 18 digits is a long long (%%0WIDTHlld), any\n"
		" *                        other value text (%%s: a Number as the builder\n"
		" *                        writes it, a wider :0WIDTH one zero-padded)\n"
		" *   %s_<entity>_<attribute>(buf, size, ...)\n"
		" *                        builds the key with snprintf and returns what\n"
		" *                        snprintf returns: the key's length, which is\n"
		" *                        >= size when buf was too small, or -1 for a\n"
		" *                        value its parser would not read back (a text\n"
		" *                        holding the key delimiter or the literal after\n"
		" *                        it, a Number that is no DynamoDB number or\n"
		" *                        does not fit its :0WIDTH); a Number is its\n"
		" *                        decimal text (const char *)\n"
		" *   %s_<ENTITY>_<ATTRIBUTE>(buf, size, ...)\n"
		" *                        the builder as a macro: the function called\n"
		" *                        with the same arguments\n"
		" *   %s_<ENTITY>_<ATTRIBUTE>_PREFIX  the text before the first value (begins_with)\n"
		" * A constant key is the string %s_<ENTITY>_<ATTRIBUTE>. Names:\n"
		" * %s_<TABLE>_TABLE, %s_<TABLE>_<INDEX>_INDEX (a word the prefix or the\n"
		" * table says already left out), %s_<ENTITY>_<ATTRIBUTE>_NAME\n"
		" * and, for a name that is a reserved word or not a plain identifier,\n"
		" * %s_<ENTITY>_<ATTRIBUTE>_EXPR_NAME for ExpressionAttributeNames; an enum's\n"
		" * values %s_<ENTITY>_<ATTRIBUTE>_ENUM (initialisers) and _ENUM_COUNT; a TTL\n"
		" * attribute's name %s_<TABLE>_TABLE_TTL_ATTRIBUTE.\n"
		" * A key a parser reads back exactly also has\n"
		" *   %s_<entity>_<attribute>_parse(key, &parts)  0, or -1 for another shape\n"
		" * An access pattern X has %s_X_TABLE_NAME, %s_X_INDEX_NAME, its\n"
		" * %s_X_KEY_CONDITION, %s_X_PROJECTION_EXPRESSION (returns),\n"
		" * %s_X_SCAN_INDEX_FORWARD (order) and %s_X_EXPR_NAMES_JSON, and per key condition value\n"
		" * %s_X_<ATTRIBUTE>_PLACEHOLDER, %s_X_<ATTRIBUTE>_VALUE (a constant) or\n"
		" * %s_X_<ATTRIBUTE>_VALUE_FMT, %s_x_<attribute>_value(buf, size, ...) and its\n"
		" * macro %s_X_<ATTRIBUTE>_VALUE(buf, size, ...).\n"
		" */\n",
		P, p, P, P, P, P, P, P, P, P, P, p, P, P, P, P, P, P, P, P, P, p, P);
}

static void section(strbuf *sb, const char *what, const char *name, const char *detail)
{
	ddbc_strbuf_addf(sb, "\n/* ---- %s ", what);
	comment_str(sb, name);
	if (detail) {
		ddbc_strbuf_addstr(sb, " (");
		comment_str(sb, detail);
		ddbc_strbuf_addch(sb, ')');
	}
	ddbc_strbuf_addstr(sb, " */\n");
}

static void define_string(strbuf *sb, const char *macro, const char *s, size_t len, bool format)
{
	add_around(sb, "#define ", macro, " ");
	c_literal(sb, s, len, format);
}

static void table_names(strbuf *sb, const ddbc_htable *ht)
{
	const ddbc_table *t = ht->table;
	section(sb, "table", t->name.s, NULL);
	ddbc_strbuf_addch(sb, '\n');
	define_string(sb, ht->macro, t->name.s, strlen(t->name.s), false);
	ddbc_strbuf_addch(sb, '\n');
	for (size_t i = 0; i < ht->nindexes; i++) {
		const ddbc_index *ix = ht->indexes[i].index;
		define_string(sb, ht->indexes[i].macro, ix->name.s, strlen(ix->name.s), false);
		ddbc_strbuf_addstr(sb, ix->kind == DDBC_INDEX_LSI ? " /* LSI */\n" : " /* GSI */\n");
	}
	if (ht->ttl_macro) {
		define_string(sb, ht->ttl_macro, t->ttl.s, strlen(t->ttl.s), false);
		ddbc_strbuf_addstr(sb, " /* TimeToLiveSpecification's AttributeName */\n");
	}
}

static void attr_names(strbuf *sb, const ddbc_hattr *ha)
{
	const char *name = ha->attr->name.s;
	define_string(sb, ha->name_macro, name, strlen(name), false);
	/* Its value is a builder's parameter only: an expression that names
	 * it finds nothing in an item. */
	ddbc_strbuf_addstr(sb, ddbc_attr_stored(ha->attr) ? "\n" : " /* key part, not stored */\n");
	if (ha->expr_macro) {
		define_string(sb, ha->expr_macro, ha->expr_name, strlen(ha->expr_name), false);
		ddbc_strbuf_addstr(sb, " /* ExpressionAttributeNames: { \"");
		ddbc_strbuf_addstr(sb, ha->expr_name);
		ddbc_strbuf_addstr(sb, "\": NAME } */\n");
	}
	if (ha->enum_macro) {
		const ddbc_attr *a = ha->attr;
		add_around(sb, "#define ", ha->enum_macro, " ");
		for (size_t i = 0; i < a->more->nenum; i++) {
			const ddbc_node *v = a->more->enum_values[i];
			ddbc_strbuf_addstr(sb, i ? ", " : "");
			c_literal(sb, v->u.text, v->n, false);
		}
		ddbc_strbuf_addf(sb, " /* its values: const char *v[] = { %s } */\n", ha->enum_macro);
		ddbc_strbuf_addf(sb, "#define %s %u\n", ha->enum_count_macro, a->more->nenum);
	}
}

/* A :0WIDTH Number of at most this many digits is a long long in the
 * key's format (%0WIDTHlld): every such number fits one (LLONG_MAX has 19
 * digits). A wider one is its zero-padded decimal text (%s). */
#define LL_DIGITS 18

static bool long_long_piece(const ddbc_hkey *k, const ddbc_hpiece *pc)
{
	return !pc->text && k->params[pc->param].number && pc->width && pc->width <= LL_DIGITS;
}

/* The key's format: literals with '%' doubled, %0WIDTHlld for a
 * long_long_piece, %s for every other value (a Number's as
 * <p>_key_number_text_ writes it). */
static void key_format(strbuf *sb, const ddbc_hkey *k)
{
	ddbc_strbuf_addch(sb, '"');
	for (size_t i = 0; i < k->npieces; i++) {
		const ddbc_hpiece *pc = &k->pieces[i];
		if (pc->text)
			c_escape(sb, pc->text, pc->len, true);
		else if (long_long_piece(k, pc))
			ddbc_strbuf_addf(sb, "%%0%ulld", pc->width);
		else
			ddbc_strbuf_addstr(sb, "%s");
	}
	ddbc_strbuf_addch(sb, '"');
}

/* The format's arguments in order, as a comment after its #define: which
 * are long long, which decimal text. */
static void format_args(strbuf *sb, const ddbc_hkey *k)
{
	ddbc_strbuf_addstr(sb, " /* snprintf args: ");
	bool first = true;
	for (size_t i = 0; i < k->npieces; i++) {
		const ddbc_hpiece *pc = &k->pieces[i];
		if (pc->text)
			continue;
		add_around(sb, first ? "" : ", ", k->params[pc->param].name, "");
		first = false;
		if (long_long_piece(k, pc)) {
			ddbc_strbuf_addstr(sb, " (long long, 0 to ");
			for (unsigned w = 0; w < pc->width; w++)
				ddbc_strbuf_addch(sb, '9');
			ddbc_strbuf_addch(sb, ')');
		}
		else if (k->params[pc->param].number && pc->width)
			ddbc_strbuf_addf(sb, " (text: %u digits, zero-padded)", pc->width);
		else if (k->params[pc->param].number)
			ddbc_strbuf_addstr(sb, " (text: a DynamoDB number)");
	}
	ddbc_strbuf_addstr(sb, " */");
}

/* The builder as a macro: P_E_A(buf, size, params...) calls p_e_a, so the
 * arguments are still checked. A parameter named as the function would be
 * replaced in the expansion: then the macro passes its arguments on as
 * they come (...). */
static void builder_macro(strbuf *sb, const char *macro, const char *func, const ddbc_hkey *k)
{
	bool named = true;
	for (size_t i = 0; i < k->nparams; i++)
		named &= strcmp(k->params[i].name, func) != 0;
	add_around(sb, "#define ", macro, "(buf, size");
	if (!named) {
		ddbc_strbuf_addf(sb, ", ...) %s((buf), (size), __VA_ARGS__)\n", func);
		return;
	}
	for (size_t i = 0; i < k->nparams; i++)
		add_around(sb, ", ", k->params[i].name, "");
	add_around(sb, ") ", func, "((buf), (size)");
	for (size_t i = 0; i < k->nparams; i++)
		add_around(sb, ", (", k->params[i].name, ")");
	ddbc_strbuf_addstr(sb, ")\n");
}

/* Each Number value is checked and written as its text first
 * (<p>_key_number_text_): a :0WIDTH field holds 0 to 10^WIDTH - 1, as
 * DynamoDB compares keys as strings and a number of more digits would sort
 * before the others; any other a number DynamoDB holds. The builder
 * refuses any other (-1, as snprintf's own failure). */
/* The first piece that writes piece i's Number at its width: one text
 * serves every use of a value in one field width. */
static size_t number_piece(const ddbc_hkey *k, size_t i)
{
	const ddbc_hpiece *pc = &k->pieces[i];
	for (size_t j = 0; j < i; j++)
		if (!k->pieces[j].text && k->pieces[j].param == pc->param &&
		    k->pieces[j].width == pc->width)
			return j;
	return i;
}

static void number_texts(strbuf *sb, const ddbc_hkey *k, const char *p)
{
	for (size_t i = 0; i < k->npieces; i++) {
		const ddbc_hpiece *pc = &k->pieces[i];
		if (pc->text || !k->params[pc->param].number || number_piece(k, i) != i)
			continue;
		const char *name = k->params[pc->param].name;
		if (pc->width)
			ddbc_strbuf_addf(sb, "\tchar pad%zu__[%u];\n", i, pc->width + 1);
		ddbc_strbuf_addf(sb, "\tconst char *t%zu__ = %s_key_number_text_(%s, strlen(%s), %u, ", i,
			    p, name, name, pc->width);
		if (pc->width)
			ddbc_strbuf_addf(sb, "pad%zu__);\n", i);
		else
			ddbc_strbuf_addstr(sb, "NULL);\n");
		ddbc_strbuf_addf(sb, "\tif (!t%zu__)\n\t\treturn -1;\n", i);
	}
}

/* A text value that holds the key delimiter, or in which the literal after
 * it would be found first (value + literal finds the literal before the
 * value's end), makes a key its parser does not read back: the builder
 * refuses it (-1), as the TypeScript, Python and Go builders do. */
/* Whether an earlier use of piece i's value has the same literal after it
 * (a value used twice is checked once per literal that follows it). */
static bool checked_before(const ddbc_hkey *k, size_t i)
{
	const ddbc_hpiece *pc = &k->pieces[i];
	const ddbc_hpiece *next = i + 1 < k->npieces && k->pieces[i + 1].text ? pc + 1 : NULL;
	for (size_t j = 0; j < i; j++) {
		const ddbc_hpiece *q = &k->pieces[j];
		const ddbc_hpiece *qn = k->pieces[j + 1].text ? q + 1 : NULL;
		if (q->text || q->param != pc->param)
			continue;
		if (!next && !qn)
			return true;
		if (next && qn && next->len == qn->len && !memcmp(next->text, qn->text, qn->len))
			return true;
	}
	return false;
}

static void text_checks(strbuf *sb, const ddbc_hkey *k, const char *delim, const char *p)
{
	for (size_t i = 0; i < k->npieces; i++) {
		const ddbc_hpiece *pc = &k->pieces[i], *next = i + 1 < k->npieces ? pc + 1 : NULL;
		if (pc->text || k->params[pc->param].number || checked_before(k, i))
			continue;
		ddbc_strbuf_addf(sb, "\tif (%s_key_bad_text_(%s, ", p, k->params[pc->param].name);
		c_literal(sb, delim, strlen(delim), false);
		ddbc_strbuf_addstr(sb, ", ");
		if (next && next->text)
			c_literal(sb, next->text, next->len, false);
		else
			ddbc_strbuf_addstr(sb, "\"\"");
		ddbc_strbuf_addstr(sb, "))\n\t\treturn -1;\n");
	}
}

static void number_helper(strbuf *sb, const char *p);

/* What the header has written once: a helper goes before the first key
 * that needs it, a parser shape's before its first parser. */
typedef struct written {
	ddbc_strset shapes;      /* the parser shapes whose helpers are written */
	bool number_text;        /* <p>_key_number_text_ */
	bool digits;             /* <p>_key_digits_ */
	bool fit;                /* <p>_key_fit_ */
	bool number_reader;      /* <p>_key_number_ */
} written;

/* Whether the helper *done stands for is still to be written (it is, next). */
static bool first_use(bool *done)
{
	bool first = !*done;
	*done = true;
	return first;
}

static void builder_function(strbuf *sb, const char *func, const char *fmt_macro,
			     const ddbc_hkey *k, const ddbc_header_plan *plan,
			     written *w)
{
	bool numbers = false;
	for (size_t i = 0; i < k->nparams; i++)
		numbers |= k->params[i].number;
	if (numbers && first_use(&w->number_text))
		number_helper(sb, plan->prefix_lower);
	bool digits = false;
	for (size_t i = 0; i < k->npieces; i++)
		digits |= long_long_piece(k, &k->pieces[i]);
	if (digits && first_use(&w->digits))
		ddbc_strbuf_addf(sb,
			"/* The value of a zero-padded field's digits (at most %d), for %%0WIDTHlld. */\n"
			"static inline long long %s_key_digits_(const char *t)\n"
			"{\n\tlong long n = 0;\n\tfor (; *t; t++)\n\t\tn = n * 10 + (*t - '0');\n"
			"\treturn n;\n}\n\n", LL_DIGITS, plan->prefix_lower);
	if (k->max_bytes && first_use(&w->fit))
		ddbc_strbuf_addf(sb,
			"/* A key longer than DynamoDB takes (n bytes, max at most) is refused. */\n"
			"static inline int %s_key_fit_(int n, int max)\n"
			"{\n\treturn n > max ? -1 : n;\n}\n\n", plan->prefix_lower);
	/* A Number is its decimal text: 38 digits and exponents, exactly. */
	add_around(sb, "static inline int ", func, "(char *buf, size_t size");
	for (size_t i = 0; i < k->nparams; i++)
		add_around(sb, ", const char *", k->params[i].name, "");
	ddbc_strbuf_addstr(sb, ")\n{\n");
	number_texts(sb, k, plan->prefix_lower);
	text_checks(sb, k, plan->g->key_delimiter ? plan->g->key_delimiter : "",
		    plan->prefix_lower);
	if (k->max_bytes)
		ddbc_strbuf_addf(sb, "\treturn %s_key_fit_(snprintf(buf, size, %s", plan->prefix_lower,
			    fmt_macro);
	else
		add_around(sb, "\treturn snprintf(buf, size, ", fmt_macro, "");
	for (size_t i = 0; i < k->npieces; i++) {
		const ddbc_hpiece *pc = &k->pieces[i];
		if (pc->text)
			continue;
		if (long_long_piece(k, pc))
			ddbc_strbuf_addf(sb, ", %s_key_digits_(t%zu__)", plan->prefix_lower,
				    number_piece(k, i));
		else if (k->params[pc->param].number)
			ddbc_strbuf_addf(sb, ", t%zu__", number_piece(k, i));
		else
			add_around(sb, ", ", k->params[pc->param].name, "");
	}
	if (k->max_bytes)
		ddbc_strbuf_addf(sb, "), %zu", k->max_bytes);
	ddbc_strbuf_addstr(sb, ");\n}\n");
}

/* The check every builder of a text value calls, once per header: whether
 * v holds delim (not "") or meets next (not "") before its end, next's
 * first occurrence in v followed by next. */
static void build_helpers(strbuf *sb, const char *p)
{
	ddbc_strbuf_addf(sb,
		"\n/* ---- building keys: a builder returns -1 for a value its parser would not\n"
		" * read back (a text value holding the key delimiter or the literal after it;\n"
		" * a Number that is no DynamoDB number or does not fit its width). A Number\n"
		" * is its decimal text (\"9.99\", \"6.02E+23\", 38 digits), a parsed one a span\n"
		" * of the key. */\n\n"
		"static inline int %s_key_bad_text_(const char *v, const char *delim, const char *next)\n"
		"{\n"
		"\tsize_t n = strlen(v), m = strlen(next);\n"
		"\tif (delim[0] && strstr(v, delim))\n\t\treturn 1;\n"
		"\tfor (size_t i = 0; m && i < n; i++) {\n"
		"\t\tsize_t j = 0;\n"
		"\t\twhile (j < m && (i + j < n ? v[i + j] : next[i + j - n]) == next[j])\n"
		"\t\t\tj++;\n"
		"\t\tif (j == m)\n\t\t\treturn 1;\n"
		"\t}\n"
		"\treturn 0;\n"
		"}\n", p);
}

/* The check and spelling of a Number value, once per header, before the
 * first builder that takes one. */
static void number_helper(strbuf *sb, const char *p)
{
	ddbc_strbuf_addf(sb,
		"\n"
		"/* A Number is decimal text: an optional sign, digits with at most one '.',\n"
		" * an optional exponent; DynamoDB holds 38 significant digits, zero or\n"
		" * 1E-130 to 9.99...E+125. A part is written as the len bytes of v are,\n"
		" * less a leading '+' (a whole number without leading zeros or \"-0\", so one\n"
		" * whole number has one key), or with a width as a non-negative whole\n"
		" * number zero-padded to exactly width digits, into pad (width + 1 bytes).\n"
		" * Returns that text, or NULL for a value none of these. */\n"
		"static inline const char *%s_key_number_text_(const char *v, size_t len, unsigned width,\n"
		"\t\t\t\t\t      char *pad)\n"
		"{\n"
		"\tconst char *end = v + len, *s = v + (len && (*v == '+' || *v == '-')), *e = s;\n"
		"\tsize_t lead = 0, sig = 0, zeros = 0, whole;\n"
		"\tlong exp = 0, at = 0;\n"
		"\tfor (; e < end && ((*e >= '0' && *e <= '9') || (*e == '.' && !at)); e++) {\n"
		"\t\tif (*e == '.') {\n"
		"\t\t\tat = e - s + 1;\n"
		"\t\t\tcontinue;\n"
		"\t\t}\n"
		"\t\tif (*e != '0') {\n"
		"\t\t\tsig += zeros + 1;\n"
		"\t\t\tzeros = 0;\n"
		"\t\t} else {\n"
		"\t\t\tzeros += sig != 0;\n"
		"\t\t\tlead += sig == 0;\n"
		"\t\t}\n"
		"\t}\n"
		"\twhole = at ? (size_t)at - 1 : (size_t)(e - s);\n"
		"\tif (e - s == (at != 0))\n"
		"\t\treturn NULL;\n"
		"\tint plain = !at && e == end;\n"
		"\tif (e < end && (*e == 'e' || *e == 'E')) {\n"
		"\t\tint neg = ++e < end && *e == '-';\n"
		"\t\te += e < end && (*e == '+' || *e == '-');\n"
		"\t\tif (e == end)\n"
		"\t\t\treturn NULL;\n"
		"\t\tfor (; e < end && *e >= '0' && *e <= '9'; e++)\n"
		"\t\t\tif (exp < 100000000L)\n"
		"\t\t\t\texp = exp * 10 + (*e - '0');\n"
		"\t\texp = neg ? -exp : exp;\n"
		"\t}\n"
		"\tif (e != end || sig > 38 ||\n"
		"\t    (sig && (exp + (long)whole - (long)lead - 1 > 125 ||\n"
		"\t\t     exp + (long)whole - (long)lead - 1 < -130)))\n"
		"\t\treturn NULL;\n"
		"\tif (width) {\n"
		"\t\tif (!plain || *v == '-')\n"
		"\t\t\treturn NULL;\n"
		"\t\twhile (whole > 1 && *s == '0')\n"
		"\t\t\ts++, whole--;\n"
		"\t\tif (whole > width)\n"
		"\t\t\treturn NULL;\n"
		"\t\tmemset(pad, '0', width - whole);\n"
		"\t\tmemcpy(pad + width - whole, s, whole);\n"
		"\t\tpad[width] = '\\0';\n"
		"\t\treturn pad;\n"
		"\t}\n"
		"\tif (plain && (whole > 1 ? *s == '0' : *v == '-' && !sig))\n"
		"\t\treturn NULL;\n"
		"\treturn v + (*v == '+');\n"
		"}\n\n"
		, p);
}

/* ---- parsers ------------------------------------------------------------------ */

/* The helpers every parser calls, once per header. Their names end in '_',
 * which no name of the plan does, so they meet none. */
static void parse_helpers(strbuf *sb, const char *p)
{
	ddbc_strbuf_addf(sb,
		"\n/* ---- reading keys back: %s_<entity>_<attribute>_parse(key, &parts)\n"
		" * fills the values a key was built from and returns 0, or -1 when the key has\n"
		" * another shape. A text value points into the key (ptr, len): it ends\n"
		" * where the literal after it first occurs. */\n\n"
		"struct %s_key_span_ {\n\tconst char *ptr;\n\tsize_t len;\n};\n\n"
		"static inline int %s_key_literal_(const char **p, const char *lit, size_t n)\n"
		"{\n\tif (strncmp(*p, lit, n) != 0)\n\t\treturn -1;\n\t*p += n;\n\treturn 0;\n}\n\n",
		p, p, p);
	ddbc_strbuf_addf(sb,
		"/* Up to the first \"until\", or to the end when until is \"\". */\n"
		"static inline int %s_key_text_(const char **p, const char *until,\n"
		"\t\t\t\tstruct %s_key_span_ *out)\n"
		"{\n"
		"\tconst char *end = until[0] ? strstr(*p, until) : *p + strlen(*p);\n"
		"\tif (!end)\n\t\treturn -1;\n"
		"\tout->ptr = *p;\n\tout->len = (size_t)(end - *p);\n\t*p = end;\n\treturn 0;\n"
		"}\n\n"
		"static inline int %s_key_same_text_(struct %s_key_span_ a, struct %s_key_span_ b)\n"
		"{\n\treturn a.len == b.len && strncmp(a.ptr, b.ptr, a.len) == 0;\n}\n\n",
		p, p, p, p, p);
}

/* The reader of a Number value, once per header, before the first parser
 * that reads one. */
static void number_reader(strbuf *sb, const char *p)
{
	ddbc_strbuf_addf(sb,
		"/* A Number as the builders write it (%s_key_number_text_): with a width,\n"
		" * exactly width digits, read without their leading zeros; without, the\n"
		" * longest decimal there, which a builder writes as it is. */\n"
		"static inline int %s_key_number_(const char **p, unsigned width, struct %s_key_span_ *out)\n"
		"{\n"
		"\tstatic const char digits[] = \"0123456789\";\n"
		"\tconst char *s = *p, *e = s + (*s == '-');\n"
		"\tsize_t n;\n"
		"\tif (width) {\n"
		"\t\tn = strspn(s, digits);\n"
		"\t\tif (n != width)\n"
		"\t\t\treturn -1;\n"
		"\t\t*p += width;\n"
		"\t\twhile (n > 1 && *s == '0')\n"
		"\t\t\ts++, n--;\n"
		"\t} else {\n"
		"\t\te += strspn(e, digits);\n"
		"\t\tif (*e == '.')\n"
		"\t\t\te += 1 + strspn(e + 1, digits);\n"
		"\t\tif (*e == 'e' || *e == 'E') {\n"
		"\t\t\tconst char *x = e + 1 + (e[1] == '+' || e[1] == '-');\n"
		"\t\t\tif (strspn(x, digits))\n"
		"\t\t\t\te = x + strspn(x, digits);\n"
		"\t\t}\n"
		"\t\tn = (size_t)(e - s);\n"
		"\t\tif (%s_key_number_text_(s, n, 0, NULL) != s)\n"
		"\t\t\treturn -1;\n"
		"\t\t*p = e;\n"
		"\t}\n"
		"\tout->ptr = s;\n"
		"\tout->len = n;\n"
		"\treturn 0;\n"
		"}\n\n"
		, p, p, p, p);
}

/* The parts struct: a span per value, a Number's decimal text or a text. */
static void parts_struct(strbuf *sb, const ddbc_hattr *ha, const char *p)
{
	const ddbc_hkey *k = ha->key;
	add_around(sb, "struct ", ha->parts_struct, " {\n");
	for (size_t i = 0; i < k->nparams; i++)
		ddbc_strbuf_addf(sb, "\tstruct %s_key_span_ %s;\n", p, k->params[i].name);
	ddbc_strbuf_addstr(sb, "};\n");
}

/* ---- parser shapes ------------------------------------------------------------
 *
 * Parsers of keys of one shape (the same sequence of literals, text and
 * number values, and values used again) share one helper, written before
 * the first parser that calls it: a design of 10,000 entities has 40,000
 * parsers of a handful of shapes. A shape's letters name it: l a literal,
 * s a text value, S one used before, n a number, N one used before. Each
 * parser is then one call, its literals and its parts' members the
 * helper's arguments. */

/* What each piece of k is in the shape: shape[i] for piece i. */
static void shape_of(const ddbc_hkey *k, char *shape)
{
	/* Which parameters were met: on the stack for any key of a few. */
	bool few[32];
	bool *seen = k->nparams <= 32 ? few : ddbc_xmalloc(k->nparams * sizeof(bool));
	memset(seen, 0, k->nparams * sizeof(bool));
	for (size_t i = 0; i < k->npieces; i++) {
		const ddbc_hpiece *pc = &k->pieces[i];
		if (pc->text) {
			shape[i] = 'l';
			continue;
		}
		bool number = k->params[pc->param].number, again = seen[pc->param];
		seen[pc->param] = true;
		shape[i] = number ? (again ? 'N' : 'n') : (again ? 'S' : 's');
	}
	shape[k->npieces] = '\0';
	if (seen != few)
		free(seen);
}

/* The helper's parameter list for shape. */
static void shape_params(strbuf *sb, const char *shape, const char *p)
{
	ddbc_strbuf_addstr(sb, "const char *key");
	for (size_t i = 0; shape[i]; i++) {
		switch (shape[i]) {
		case 'l': ddbc_strbuf_addf(sb, ", const char *l%zu, size_t n%zu", i, i); break;
		case 's': ddbc_strbuf_addf(sb, ", struct %s_key_span_ *v%zu", p, i); break;
		case 'S': ddbc_strbuf_addf(sb, ", const struct %s_key_span_ *v%zu", p, i); break;
		case 'n': ddbc_strbuf_addf(sb, ", unsigned w%zu, struct %s_key_span_ *v%zu", i, p, i); break;
		default:
			ddbc_strbuf_addf(sb, ", unsigned w%zu, const struct %s_key_span_ *v%zu", i, p, i);
			break;
		}
	}
}

/* One step of the helper, for piece i: a literal matched, a value read
 * (a text up to the literal after it, or to the end), or read again and
 * compared with its first reading. */
static void shape_step(strbuf *sb, const char *shape, size_t i, const char *p)
{
	ddbc_strbuf_addstr(sb, i ? "\t    || " : "\treturn (");
	char until[32] = "\"\"";
	if (shape[i + 1] == 'l')
		snprintf(until, sizeof until, "l%zu", i + 1);
	switch (shape[i]) {
	case 'l': ddbc_strbuf_addf(sb, "%s_key_literal_(&p, l%zu, n%zu) != 0\n", p, i, i); break;
	case 's': ddbc_strbuf_addf(sb, "%s_key_text_(&p, %s, v%zu) != 0\n", p, until, i); break;
	case 'S':
		ddbc_strbuf_addf(sb, "%s_key_text_(&p, %s, &t) != 0 || !%s_key_same_text_(t, *v%zu)\n",
			    p, until, p, i);
		break;
	case 'n': ddbc_strbuf_addf(sb, "%s_key_number_(&p, w%zu, v%zu) != 0\n", p, i, i); break;
	default:
		ddbc_strbuf_addf(sb, "%s_key_number_(&p, w%zu, &t) != 0 || !%s_key_same_text_(t, *v%zu)\n",
			    p, i, p, i);
	}
}

static void shape_helper(strbuf *sb, const char *shape, const char *p)
{
	ddbc_strbuf_addf(sb, "static inline int %s_key_parse_%s_(", p, shape);
	shape_params(sb, shape, p);
	ddbc_strbuf_addstr(sb, ")\n{\n\tconst char *p = key;\n");
	/* What a value used a second time is read into, declared only for a
	 * shape that has one. */
	if (strchr(shape, 'S') || strchr(shape, 'N'))
		ddbc_strbuf_addf(sb, "\tstruct %s_key_span_ t;\n", p);
	for (size_t i = 0; shape[i]; i++)
		shape_step(sb, shape, i, p);
	ddbc_strbuf_addstr(sb, "\t    || *p != '\\0') ? -1 : 0;\n}\n\n");
}

/* The parser of ha: its parts struct, its shape's helper when this is the
 * first key of the shape (w->shapes holds those written), and one call. */
static void parser(strbuf *sb, const ddbc_hattr *ha, const char *p, written *w)
{
	const ddbc_hkey *k = ha->key;
	char few[64];
	char *shape = k->npieces < sizeof few ? few : ddbc_xmalloc(k->npieces + 1);
	shape_of(k, shape);
	if ((strchr(shape, 'n') || strchr(shape, 'N')) && first_use(&w->number_reader))
		number_reader(sb, p);
	if (!ddbc_strset_get(&w->shapes, shape, k->npieces)) {
		ddbc_strset_put(&w->shapes, ddbc_xstrndup(shape, k->npieces), k->npieces);
		shape_helper(sb, shape, p);
	}
	parts_struct(sb, ha, p);
	ddbc_strbuf_addf(sb, "static inline int %s(const char *key, struct %s *out)\n{\n"
		    "\treturn %s_key_parse_%s_(key", ha->parse_func, ha->parts_struct, p, shape);
	if (shape != few)
		free(shape);
	for (size_t i = 0; i < k->npieces; i++) {
		const ddbc_hpiece *pc = &k->pieces[i];
		if (pc->text) {
			ddbc_strbuf_addstr(sb, ", ");
			c_literal(sb, pc->text, pc->len, false);
			ddbc_strbuf_addf(sb, ", %zu", pc->len);
			continue;
		}
		const ddbc_hparam *pm = &k->params[pc->param];
		if (pm->number)
			ddbc_strbuf_addf(sb, ", %u", pc->width);
		add_around(sb, ", &out->", pm->name, "");
	}
	ddbc_strbuf_addstr(sb, ");\n}\n");
}

static void key(strbuf *sb, const ddbc_hattr *ha, const ddbc_header_plan *plan,
		written *w)
{
	const char *p = plan->prefix_lower;
	const ddbc_hkey *k = ha->key;
	ddbc_strbuf_addstr(sb, "/* ");
	comment_str(sb, ha->attr->name.s);
	ddbc_strbuf_addstr(sb, ": ");
	comment_str(sb, ha->attr->template.s);
	ddbc_strbuf_addstr(sb, " */\n");
	attr_names(sb, ha);
	if (k->constant) {
		strbuf lit = STRBUF_INIT;
		for (size_t i = 0; i < k->npieces; i++)
			ddbc_strbuf_add(&lit, k->pieces[i].text, k->pieces[i].len);
		define_string(sb, ha->builder, ddbc_strbuf_str(&lit), lit.len, false);
		ddbc_strbuf_addstr(sb, " /* constant key */\n");
		ddbc_strbuf_release(&lit);
		return;
	}
	add_around(sb, "#define ", ha->fmt_macro, " ");
	key_format(sb, k);
	format_args(sb, k);
	ddbc_strbuf_addch(sb, '\n');
	if (ha->prefix_macro) {
		define_string(sb, ha->prefix_macro, k->prefix, k->prefix_len, false);
		ddbc_strbuf_addstr(sb, " /* literal prefix, for begins_with */\n");
	}
	builder_function(sb, ha->func, ha->fmt_macro, ha->key, plan, w);
	builder_macro(sb, ha->builder, ha->func, k);
	if (ha->parse_func) {
		ddbc_strbuf_addch(sb, '\n');
		parser(sb, ha, p, w);
	}
}

/* ---- access patterns --------------------------------------------------------- */

static void pattern_value(strbuf *sb, const ddbc_hvalue *hv, json_t *refs, size_t i,
			  const ddbc_header_plan *plan, written *w)
{
	const ddbc_node *n = hv->node;
	ddbc_strbuf_addstr(sb, "\n/* ");
	comment_str(sb, hv->cond->attr.s);
	ddbc_strbuf_addf(sb, " %s ", ddbc_cond_op_name(hv->cond->op));
	if (hv->cond->op == DDBC_COND_BETWEEN)
		ddbc_strbuf_addstr(sb, hv->index ? "(upper) " : "(lower) ");
	comment_text(sb, n->u.text, n->n);
	ddbc_strbuf_addstr(sb, " */\n");
	const char *ref = refs ? json_string_value(json_array_get(refs, i)) : NULL;
	if (hv->ref_macro && ref) {
		define_string(sb, hv->ref_macro, ref, strlen(ref), false);
		ddbc_strbuf_addstr(sb, " /* in ExpressionAttributeValues */\n");
	}
	const ddbc_hkey *k = &hv->key;
	if (k->constant) {
		define_string(sb, hv->value_macro, k->pieces[0].text, k->pieces[0].len, false);
		ddbc_strbuf_addch(sb, '\n');
		return;
	}
	add_around(sb, "#define ", hv->value_macro, " ");
	key_format(sb, k);
	format_args(sb, k);
	ddbc_strbuf_addch(sb, '\n');
	builder_function(sb, hv->func, hv->value_macro, k, plan, w);
	builder_macro(sb, hv->macro, hv->func, k);
}

/* A pattern's names, its key condition as the queries export writes it,
 * and a builder per value. */
static void pattern(strbuf *sb, const ddbc_header_plan *plan, const ddbc_hpattern *hp,
		    written *w)
{
	const ddbc_design *g = plan->g;
	const ddbc_pattern *p = hp->pattern;
	strbuf detail = STRBUF_INIT;
	ddbc_strbuf_addf(&detail, "%s, table %s", ddbc_operation_name(p->operation), p->table->name.s);
	if (hp->index_macro)
		ddbc_strbuf_addf(&detail, ", index %s", p->index->name.s);
	section(sb, "access pattern", p->id.s, detail.buf);
	ddbc_strbuf_release(&detail);
	ddbc_strbuf_addch(sb, '\n');
	define_string(sb, hp->table_macro, p->table->name.s, strlen(p->table->name.s), false);
	ddbc_strbuf_addch(sb, '\n');
	if (hp->index_macro) {
		define_string(sb, hp->index_macro, p->index->name.s, strlen(p->index->name.s), false);
		ddbc_strbuf_addch(sb, '\n');
	}
	json_t *names = NULL, *refs = NULL;
	if (hp->kce_macro) {
		char *kce = ddbc_query_key_condition(g, p, &names, &refs);
		define_string(sb, hp->kce_macro, kce, strlen(kce), false);
		ddbc_strbuf_addch(sb, '\n');
		free(kce);
		if (json_array_size(refs) != hp->nvalues) {
			json_decref(refs);
			refs = NULL;
		}
	}
	if (hp->projection_macro) {
		if (!names)
			names = json_object();
		char *proj = ddbc_query_projection(g, p, names);
		define_string(sb, hp->projection_macro, proj, strlen(proj), false);
		ddbc_strbuf_addch(sb, '\n');
		free(proj);
	}
	if (hp->order_macro)
		ddbc_strbuf_addf(sb, "#define %s %d /* ScanIndexForward: order %s */\n", hp->order_macro,
			    p->order > 0, p->order > 0 ? "asc" : "desc");
	if (hp->names_macro && names && json_object_size(names)) {
		char *text = json_dumps(names, JSON_COMPACT | JSON_ENSURE_ASCII);
		define_string(sb, hp->names_macro, text, strlen(text), false);
		ddbc_strbuf_addstr(sb, " /* ExpressionAttributeNames */\n");
		free(text);
	}
	for (size_t i = 0; i < hp->nvalues; i++)
		pattern_value(sb, &hp->values[i], refs, i, plan, w);
	json_decref(names);
	json_decref(refs);
}

/* Writes and empties sb: the header goes out in pieces, never whole in memory. */
static void flush(strbuf *sb, FILE *out)
{
	fwrite(sb->buf, 1, sb->len, out);
	ddbc_strbuf_reset(sb);
}

/* An entity of 40,000 attributes has megabytes of names: they go out in
 * pieces of about this size. */
#define FLUSH_AT (64 * 1024)

static void entity(strbuf *sb, const ddbc_hentity *he, const ddbc_header_plan *plan,
		   written *w, FILE *out)
{
	const ddbc_entity *e = he->entity;
	strbuf detail = STRBUF_INIT;
	if (e->c_name.s)
		ddbc_strbuf_addf(&detail, "c_name %s", e->c_name.s);
	if (e->table)
		ddbc_strbuf_addf(&detail, "%stable %s", detail.len ? ", " : "", e->table->name.s);
	section(sb, "entity", e->name.s, detail.len ? detail.buf : NULL);
	ddbc_strbuf_release(&detail);
	/* A blank line around each key, none between plain names. */
	bool after_key = true;
	for (size_t i = 0; i < he->nattrs; i++) {
		const ddbc_hattr *ha = &he->attrs[i];
		if (ha->key || after_key)
			ddbc_strbuf_addch(sb, '\n');
		if (ha->key)
			key(sb, ha, plan, w);
		else
			attr_names(sb, ha);
		after_key = ha->key != NULL;
		if (sb->len >= FLUSH_AT)
			flush(sb, out);
	}
}

/* Prints the header; each entity is planned as it is printed. Returns 0, or
 * -1 when an entity cannot be planned (why is in err). */
static int header(FILE *out, const ddbc_design *g, ddbc_header_plan *plan, ddbc_err *err)
{
	strbuf sb = STRBUF_INIT;
	banner(&sb, g, plan);
	ddbc_strbuf_addf(&sb, "#ifndef %s\n#define %s\n", plan->guard, plan->guard);
	if (plan->has_builders)
		ddbc_strbuf_addstr(&sb, "\n#include <stdio.h> /* snprintf, size_t */\n");
	if (plan->has_builders || plan->has_parsers)
		ddbc_strbuf_addstr(&sb, "#include <string.h> /* strncmp, strstr, strlen */\n");
	ddbc_strbuf_addstr(&sb, "\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n");
	if (plan->has_builders)
		build_helpers(&sb, plan->prefix_lower);
	if (plan->has_parsers)
		parse_helpers(&sb, plan->prefix_lower);
	for (size_t i = 0; i < plan->ntables; i++) {
		table_names(&sb, &plan->tables[i]);
		flush(&sb, out);
	}
	int r = 0;
	written w = { DDBC_STRSET_INIT, false, false, false, false };
	for (size_t i = 0; i < g->nentities && r == 0; i++) {
		ddbc_hentity he;
		r = ddbc_header_plan_entity(plan, i, &he, err);
		if (r == 0)
			entity(&sb, &he, plan, &w, out);
		flush(&sb, out);
	}
	for (size_t i = 0; i < g->npatterns && r == 0; i++) {
		ddbc_hpattern hp;
		if (!ddbc_header_plan_pattern(plan, i, &hp))
			continue;
		pattern(&sb, plan, &hp, &w);
		flush(&sb, out);
	}
	ddbc_strbuf_addstr(&sb, "\n#ifdef __cplusplus\n}\n#endif\n");
	ddbc_strbuf_addf(&sb, "\n#endif /* %s */\n", plan->guard);
	flush(&sb, out);
	ddbc_strbuf_release(&sb);
	for (size_t i = 0; i < w.shapes.cap; i++)
		free((char *)w.shapes.slots[i].s);
	ddbc_strset_release(&w.shapes);
	return r;
}

ddbc_emit_result ddbc_emit_header(FILE *out, const ddbc_design *g, const ddbc_header_opts *o,
				  ddbc_diags *d)
{
	ddbc_header_plan plan;
	ddbc_emit_result r = DDBC_EMIT_FAILED;
	ddbc_err *err = o ? o->err : NULL;
	switch (ddbc_header_plan_build(&plan, g, o ? o->prefix : NULL, d, err)) {
	case DDBC_PLAN_OK:
		r = header(out, g, &plan, err) == 0 ? DDBC_EMIT_OK : DDBC_EMIT_FAILED;
		break;
	case DDBC_PLAN_FINDINGS:
		r = DDBC_EMIT_FINDINGS;
		break;
	case DDBC_PLAN_FAILED:
		break;
	}
	ddbc_header_plan_free(&plan);
	return r;
}
