/* template.h - key templates: parsing, rendering and exact overlap
 *
 *   template    := ( literal | placeholder )*
 *   placeholder := "{" NAME [ ":0" WIDTH ] "}"
 *   literal     := any text; "{{" and "}}" stand for literal braces
 *
 * A parsed template is a list of segments. For reasoning about which
 * strings a template can produce, each segment is lowered to a run: a fixed
 * string, or a character class repeated at least min times (see
 * ddbc_lang). Two languages built from runs are regular, and
 * ddbc_lang_intersects decides exactly whether they share a string, by a
 * search of the product of their automata (see template.c).
 */
#ifndef DDBC_TEMPLATE_H
#define DDBC_TEMPLATE_H

#include "util/arena.h"
#include "util/source.h"
#include "util/strbuf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum ddbc_seg_kind {
	DDBC_SEG_LITERAL,
	DDBC_SEG_PLACEHOLDER
} ddbc_seg_kind;

/* A design has hundreds of thousands of segments: 24 bytes each, the
 * length, width and kind in one word (a template is at most
 * DDBC_TEMPLATE_MAX bytes, ddbc_template_parse says so). */
#define DDBC_TEMPLATE_MAX ((1u << 25) - 1)
typedef struct ddbc_segment {
	const char *text;        /* the literal (braces unescaped) or the NAME */
	void *ref;               /* what NAME resolves to (an attribute), set by the caller */
	uint32_t offset;         /* byte offset of the segment in the template text */
	unsigned len : 25;       /* bytes of text */
	unsigned width : 6;      /* :0WIDTH (at most 38), or 0 */
	unsigned kind : 1;       /* ddbc_seg_kind */
} ddbc_segment;

/* The text as written is the caller's (an attribute's template, a
 * condition value's scalar): a design has a template per key attribute
 * and per condition value, and a copy of the pointer in each was 8 bytes
 * of every one of them. */
typedef struct ddbc_template {
	ddbc_segment *segs;
	size_t nsegs;
} ddbc_template;

/* Parses text into t (segments in arena). Returns NULL on success, else a
 * static message for template-syntax, with *err_offset set to the byte
 * offset of the problem. */
const char *ddbc_template_parse(ddbc_arena *arena, const char *text, ddbc_template *t,
				size_t *err_offset);

/* ddbc_template_parse without copying what text holds as is: the
 * placeholders' names and the literals without an escaped brace point
 * into text, which must outlive t, and are not NUL-terminated (a literal
 * is read by its len; the caller points each placeholder's text at a
 * NUL-terminated copy of its name before anyone reads t): a design has a
 * template per key attribute, and copies of their pieces were a page in
 * twenty of the model. */
const char *ddbc_template_parse_in_place(ddbc_arena *arena, const char *text,
					 ddbc_template *t, size_t *err_offset);

/* The literal text before the first placeholder. */
size_t ddbc_template_prefix(const ddbc_template *t, const char **prefix);
bool ddbc_template_is_constant(const ddbc_template *t);

/* ---- rendering: a template filled in from one item's values -------------- */

/* What a placeholder stands for in the item being rendered, as the
 * caller's value callback finds it. */
typedef enum ddbc_tvalue_kind {
	DDBC_TVALUE_TEXT,        /* a string: written as it is */
	DDBC_TVALUE_NUMBER,      /* a number: written as a key template writes it */
	DDBC_TVALUE_MISSING,     /* the item has no value for the placeholder */
	DDBC_TVALUE_UNUSABLE     /* the placeholder names no S or N attribute, or
				  * the value is of another type: the caller
				  * reports that elsewhere */
} ddbc_tvalue_kind;

typedef struct ddbc_tvalue {
	ddbc_tvalue_kind kind;
	const char *text;        /* TEXT, NUMBER: the value as written */
	size_t len;
	bool is_int;             /* NUMBER: a whole number that fits in n */
	long long n;
	const void *source;      /* the caller's own value (a YAML node, a JSON
				  * value), handed back in a problem */
} ddbc_tvalue;

/* The placeholder seg's value (seg->text names it, seg->ref is what the
 * caller resolved it to) in the item that ctx stands for. */
typedef ddbc_tvalue ddbc_tvalue_fn(void *ctx, const ddbc_segment *seg);

typedef enum ddbc_render_result {
	DDBC_RENDER_OK,          /* out holds the rendered key */
	DDBC_RENDER_MISSING,     /* a placeholder has no value */
	DDBC_RENDER_UNPADDABLE,  /* a number that is not a non-negative whole
				  * number of at most WIDTH digits meets a
				  * :0WIDTH (ddbc_padding_problem says which) */
	DDBC_RENDER_UNUSABLE     /* a value the callback called unusable */
} ddbc_render_result;

/* Where rendering stopped, unless it succeeded: the placeholder and the
 * value the callback gave for it. */
typedef struct ddbc_render_problem {
	const ddbc_segment *seg;
	ddbc_tvalue value;
} ddbc_render_problem;

/* Why the number text cannot stand in a :0WIDTH placeholder, as a phrase
 * that follows the value ("is not a non-negative whole number"), or NULL
 * when it can. A :0WIDTH placeholder holds exactly WIDTH digits: DynamoDB
 * compares keys as strings, so a wider number sorts before narrower ones
 * ("1000000" < "999999"), and one meaning holds for every command. */
const char *ddbc_padding_problem(const char *text, size_t len, unsigned width);

/* Appends t rendered from the values value_of gives to out. Numbers are
 * written as DynamoDB keeps them: a whole number in decimal without a '+'
 * or leading zeros (zero-padded to the placeholder's width), any other
 * without a leading '+'. On a result other than DDBC_RENDER_OK out holds
 * a partial key and *problem says where it stopped. */
ddbc_render_result ddbc_template_render(const ddbc_template *t, ddbc_tvalue_fn *value_of,
					void *ctx, strbuf *out, ddbc_render_problem *problem);

/* ---- languages: what strings a template can render to ------------------- */

typedef enum ddbc_class {
	DDBC_CLASS_ANY,          /* any character */
	DDBC_CLASS_NO_DELIM,     /* any string that does not contain the delimiter */
	DDBC_CLASS_NUMBER,       /* a decimal number: digits, '-', '.', and an
	                          * exponent's 'e', 'E', '+' (DynamoDB takes 1E5,
	                          * and a key holds the number as written) */
	DDBC_CLASS_DIGITS        /* a zero-padded number: digits only */
} ddbc_class;

/* Whether a value of class cls may hold the byte ch (the delimiter rule of
 * DDBC_CLASS_NO_DELIM aside: it spans several bytes). */
bool ddbc_class_has(ddbc_class cls, unsigned char ch);

/* A design keeps a language per key attribute: 24 bytes a run. A run's
 * text is a literal of a template and min a width or a count of classes,
 * both far below 2^32 (ddbc_lang_fixed and ddbc_lang_class check). */
typedef struct ddbc_run {
	const char *text;        /* fixed: the string */
	uint32_t len;
	uint32_t min;            /* !fixed: cls repeated at least min times */
	uint32_t max;            /* !fixed: and at most max times; 0 = no limit */
	unsigned char cls;       /* ddbc_class */
	bool fixed;
} ddbc_run;

typedef struct ddbc_lang {
	ddbc_run *runs;
	size_t nruns, cap;
} ddbc_lang;

void ddbc_lang_init(ddbc_lang *l);
void ddbc_lang_release(ddbc_lang *l);
void ddbc_lang_fixed(ddbc_lang *l, const char *text, size_t len);
void ddbc_lang_class(ddbc_lang *l, ddbc_class cls, size_t min);
/* Exactly width digits: a :0WIDTH placeholder's values. */
void ddbc_lang_digits(ddbc_lang *l, size_t width);

/* The bytes of its literal runs: how much of a key it fixes, the measure
 * by which check-items and the type guards prefer one entity over another. */
size_t ddbc_lang_literal_bytes(const ddbc_lang *l);

/* Whether some string belongs to both a and b, where delim is the key
 * delimiter that DDBC_CLASS_NO_DELIM values never contain. */
bool ddbc_lang_intersects(const ddbc_lang *a, const ddbc_lang *b, const char *delim);

/* Whether the concrete string s belongs to l. */
bool ddbc_lang_matches(const ddbc_lang *l, const char *s, size_t len, const char *delim);

/* Whether some string of l lies in the range the bounds give, comparing
 * bytes as DynamoDB compares S keys. A NULL bound is no bound. A bound
 * marked open (an upper bound that holds parameters, of which only the
 * literal prefix is known) also admits every string that starts with it. */
/* Two per range condition: 16 bytes each (a bound is a key value, at most
 * 2,048 bytes). */
typedef struct ddbc_bound {
	const char *text;
	uint32_t len;
	bool inclusive;
	bool open;
} ddbc_bound;

bool ddbc_lang_in_range(const ddbc_lang *l, const ddbc_bound *lower, const ddbc_bound *upper,
			const char *delim);

#endif
