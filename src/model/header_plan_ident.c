/* header_plan_ident.c - the identifier parts of the header's names
 *
 * How a name becomes an identifier part (see header_plan.h, Names), and
 * the hashing the uniqueness check does over identifiers it never writes
 * out: a design has hundreds of thousands of them.
 */
#include "model/header_plan_int.h"
#include "model/request_rows.h"
#include "util/strset.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- identifiers ------------------------------------------------------------ */

static bool is_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
static bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }

static char to_case(char c, bool upper)
{
	if (upper && is_lower(c))
		return (char)(c - 'a' + 'A');
	if (!upper && is_upper(c))
		return (char)(c - 'A' + 'a');
	return c;
}

/* The identifier part of name (see header_plan.h), or NULL when the name
 * has no ASCII letter or digit. Written straight into the arena: every
 * name of the design comes through here, on every command. */
const char *ddbc_hplan_ident(ddbc_arena *arena, const char *name, bool upper)
{
	size_t len = strlen(name);
	/* Each character gives itself, after at most one '_'. */
	char *r = ddbc_arena_alloc(arena, 2 * len + 1), *end = r;
	bool gap = false;
	for (size_t i = 0; i < len; i++) {
		char c = name[i];
		if (!is_alnum(c)) {
			gap = true;
			continue;
		}
		if (end > r && (gap || (is_upper(c) && is_lower(name[i - 1]))))
			*end++ = '_';
		gap = false;
		*end++ = to_case(c, upper);
	}
	*end = '\0';
	return end > r ? r : NULL;
}

/* The most strings a call joins (join_macro's eight, with room). */
#define CONCAT_MAX 12

/* The strings up to the NULL one, joined, in arena: made for each of the
 * header's names, often enough that printf's parsing of a format, or
 * measuring each string twice, shows. */
const char *ddbc_hplan_concat(ddbc_arena *arena, const char *s, ...)
{
	const char *parts[CONCAT_MAX];
	size_t lens[CONCAT_MAX], n = 0, len = 0;
	va_list ap;
	va_start(ap, s);
	for (const char *t = s; t; t = va_arg(ap, const char *)) {
		if (n == CONCAT_MAX)
			abort();
		parts[n] = t;
		lens[n] = strlen(t);
		len += lens[n++];
	}
	va_end(ap);
	char *r = ddbc_arena_alloc(arena, len + 1), *end = r;
	for (size_t i = 0; i < n; i++) {
		memcpy(end, parts[i], lens[i]);
		end += lens[i];
	}
	*end = '\0';
	return r;
}

/* The n bytes at s, then the m bytes at t, in arena: an identifier and its
 * suffix, without ddbc_hplan_concat's walk of its arguments. */
const char *ddbc_hplan_join(ddbc_arena *arena, const char *s, size_t n, const char *t, size_t m)
{
	char *r = ddbc_arena_alloc(arena, n + m + 1);
	memcpy(r, s, n);
	memcpy(r + n, t, m);
	r[n + m] = '\0';
	return r;
}

static const char *with_case(ddbc_arena *arena, const char *s, bool upper)
{
	size_t n = strlen(s);
	char *r = ddbc_arena_alloc(arena, n + 1);
	for (size_t i = 0; i < n; i++)
		r[i] = to_case(s[i], upper);
	r[n] = '\0';
	return r;
}

const char *ddbc_hplan_lower(ddbc_arena *arena, const char *s)
{
	return with_case(arena, s, false);
}

const char *ddbc_hplan_upper(ddbc_arena *arena, const char *s)
{
	return with_case(arena, s, true);
}

uint64_t ddbc_hplan_hash(uint64_t h, const char *s, size_t n, bool lower)
{
	/* h * B^n + the bytes' polynomial: see DDBC_HPLAN_B. */
	if (!lower) {
		for (size_t i = 0; i < n; i++)
			h = h * DDBC_HPLAN_B + (unsigned char)s[i];
		return h;
	}
	for (size_t i = 0; i < n; i++)
		h = h * DDBC_HPLAN_B + (unsigned char)to_case(s[i], false);
	return h;
}

ddbc_hplan_part ddbc_hplan_part_of(const char *s, size_t n, bool lower)
{
	ddbc_hplan_part r = { 1, ddbc_hplan_hash(0, s, n, lower) };
	for (size_t i = 0; i < n; i++)
		r.mul *= DDBC_HPLAN_B;
	return r;
}

/* A C identifier: a letter or '_', then letters, digits and '_'. */
bool ddbc_hplan_is_c_identifier(const char *s)
{
	if (!*s || is_digit(*s))
		return false;
	for (; *s; s++)
		if (!is_alnum(*s) && *s != '_')
			return false;
	return true;
}

/* Words a parameter may not be: C and C++ keywords (C++ alternative
 * tokens included), lower-case macros of the C library and of GNU
 * compilers, the builders' own names, and what `ddbc keys` modules
 * cannot take as a parameter: TypeScript and JavaScript reserved words,
 * Python keywords (and the builtins str and int, which the parameters'
 * annotations name), Go keywords and predeclared identifiers (and the
 * packages fmt and strings, which Go builders call). One list, so that a
 * parameter has the same name in every language. Sorted, by strcmp. */
static const char *const param_words[] = {
	"alignas", "alignof", "and", "and_eq", "any", "append", "arguments", "as", "asm", "assert",
	"async", "auto", "await", "bitand", "bitor", "bool", "break", "buf", "byte", "cap", "case",
	"catch", "chan", "char", "char16_t", "char32_t", "char8_t", "class", "clear", "close",
	"co_await", "co_return", "co_yield", "compl", "complex", "complex128", "complex64", "concept",
	"const", "const_cast", "consteval", "constexpr", "constinit", "continue", "copy", "debugger",
	"decltype", "def", "default", "defer", "del", "delete", "do", "double", "dynamic_cast",
	"elif", "else", "enum", "errno", "error", "eval", "except", "explicit", "export", "extends",
	"extern", "fallthrough", "false", "finally", "float", "float32", "float64", "fmt", "for",
	"friend", "from", "func", "function", "global", "go", "goto", "i386", "if", "imag",
	"imaginary", "implements", "import", "in", "inline", "instanceof", "int", "int16", "int32",
	"int64", "int8", "interface", "iota", "is", "lambda", "len", "let", "linux", "long", "make",
	"map", "max", "min", "mutable", "namespace", "new", "nil", "noexcept", "nonlocal", "noreturn",
	"not", "not_eq", "null", "nullptr", "offsetof", "operator", "or", "or_eq", "package", "panic",
	"pass", "print", "println", "private", "protected", "public", "raise", "range", "real",
	"recover", "register", "reinterpret_cast", "requires", "restrict", "return", "rune", "select",
	"short", "signed", "size", "size_t", "sizeof", "snprintf", "static", "static_assert",
	"static_cast", "stderr", "stdin", "stdout", "str", "string", "strings", "struct", "super",
	"switch", "template", "this", "thread_local", "throw", "true", "try", "type", "typedef",
	"typeid", "typename", "typeof", "typeof_unqual", "uint", "uint16", "uint32", "uint64",
	"uint8", "uintptr", "undefined", "union", "unix", "unsigned", "using", "va_arg", "var",
	"virtual", "void", "volatile", "wchar_t", "while", "with", "xor", "xor_eq", "yield",
};

/* A binary search of param_words that compares the first bytes itself:
 * every attribute's parameter is looked up, and bsearch's callback with a
 * strcmp a step cost more than the rest of its name. */
static bool is_param_word(const char *s)
{
	size_t lo = 0, hi = sizeof(param_words) / sizeof(param_words[0]);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const char *w = param_words[mid];
		int c = (unsigned char)s[0] - (unsigned char)w[0];
		if (c == 0 && s[0])
			c = (unsigned char)s[1] - (unsigned char)w[1];
		if (c == 0 && s[0] && s[1])
			c = strcmp(s + 2, w + 2);
		if (c == 0)
			return true;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return false;
}

const char *ddbc_hplan_param(ddbc_arena *arena, const char *member_lower)
{
	if (is_digit(member_lower[0]))
		return ddbc_hplan_concat(arena, "_", member_lower, NULL);
	if (is_param_word(member_lower))
		return ddbc_hplan_concat(arena, member_lower, "_", NULL);
	return member_lower;
}

bool ddbc_header_prefix_usable(const char *s)
{
	size_t n = strlen(s);
	return n && !is_digit(s[0]) && s[0] != '_' && ddbc_hplan_is_c_identifier(s) && s[n - 1] != '_' &&
	       !strstr(s, "__");
}

/* ---- enum values --------------------------------------------------------------- */

/* The parts after P_E_A_ENUM_ of the constants a module names a String
 * enum's values by (Go: SHOP_ORDER_STATUS_ENUM_OPEN): each value's
 * identifier part, or every value's index when a value gives none or two
 * give one, so that no two constants meet. In arena, one per value. */
/* A few values' parts are compared with the earlier ones (a set of them
 * cost an allocation an attribute, and the header check asks every entity's
 * enums); more are kept in seen. Whether ids[k] is one of ids[0..k). */
#define PARTS_SCANNED 16

static bool given_before(const char **ids, size_t k, size_t n, ddbc_strset *seen)
{
	if (n <= PARTS_SCANNED) {
		for (size_t i = 0; i < k; i++)
			if (!strcmp(ids[i], ids[k]))
				return true;
		return false;
	}
	size_t len = strlen(ids[k]);
	if (ddbc_strset_get(seen, ids[k], len))
		return true;
	ddbc_strset_put(seen, ids[k], len);
	return false;
}

const char **ddbc_hplan_enum_parts(ddbc_arena *arena, const ddbc_attr *a)
{
	size_t n = a->more->nenum;
	const char **ids = ddbc_arena_array(arena, n ? n : 1, sizeof(*ids));
	bool named = true;
	ddbc_strset seen = DDBC_STRSET_INIT;
	/* One buffer for every value's text: the check asks this of every
	 * enum of the design. */
	strbuf v = STRBUF_INIT;
	for (size_t k = 0; named && k < n; k++) {
		const ddbc_node *x = a->more->enum_values[k];
		long long i;
		/* A string's own text, as ddbc_scalar_text would copy it (the
		 * identifier stops at a NUL either way); only an integer is
		 * written anew, in decimal. */
		if (x && x->kind == DDBC_NODE_SCALAR && !ddbc_node_int(x, &i)) {
			ids[k] = ddbc_hplan_ident(arena, x->u.text ? x->u.text : "", true);
		} else {
			ddbc_strbuf_reset(&v);
			ddbc_scalar_text(x, &v);
			ids[k] = ddbc_hplan_ident(arena, ddbc_strbuf_str(&v), true);
		}
		named = ids[k] && !given_before(ids, k, n, &seen);
	}
	ddbc_strbuf_release(&v);
	ddbc_strset_release(&seen);
	for (size_t k = 0; !named && k < n; k++) {
		char num[24];
		snprintf(num, sizeof num, "%zu", k);
		ids[k] = ddbc_arena_strdup(arena, num);
	}
	return ids;
}
