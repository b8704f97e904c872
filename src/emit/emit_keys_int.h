/* emit_keys_int.h - what emit_keys.c shares with the three languages' files
 *
 * `ddbc keys` prints the header's plan (model/header_plan.h) in another
 * language. emit_keys.c walks the plan, decides every name a module gets
 * (the plan's own, plus the few the plan has no use for: parsers' shapes,
 * range-bound helpers, type guards, pattern requests), checks that no two
 * are the same, and calls the language's printer (keys_ops) for each
 * part; emit_keys_ts.c, emit_keys_py.c and emit_keys_go.c print them.
 *
 * Every module holds the same small runtime, written once per language:
 * a builder and a parser that read a key's shape (its literals and
 * parameters, the plan's pieces, as data), and a matcher of key languages
 * (ddbc_attr_lang's runs) for the type guards. Builders and parsers
 * follow the C header's rules exactly (see emit_header.c): a Number is
 * exact decimal text, checked against DynamoDB's digits and range,
 * zero-padded to its :0WIDTH or written as given less a leading '+', and
 * read back as the header's parsers read it; a text value ends where the
 * literal after it first occurs. A
 * builder also refuses a text value that holds the key delimiter, or that
 * its parser would not read back (it holds the literal after it).
 */
#ifndef DDBC_EMIT_KEYS_INT_H
#define DDBC_EMIT_KEYS_INT_H

#include "emit/emit.h"
#include "model/header_plan.h"
#include "util/strbuf.h"
#include "util/strset.h"

#include <jansson.h>
#include <stdio.h>

typedef struct keys_writer keys_writer;
typedef struct keys_guard keys_guard;

/* A range-bound helper of a key (see range-bound-prefix, rules/bounds.c):
 * the key up to the value of piece `piece` and then either the literal
 * after it (a prefix for begins_with, `prefix_func`) or the character
 * after that literal's first one (`after_func`): above every key that
 * continues past those values, so an inclusive upper bound or an
 * exclusive lower bound takes them all in (or leaves them all out). */
typedef struct keys_cut {
	size_t piece;            /* a parameter's piece, followed by a literal */
	size_t nparams;          /* the parameters used up to it: the helper's */
	const char *prefix_func;
	const char *after_func;
	char after[5];           /* UTF-8 of the character after the literal's first */
	size_t after_len;
} keys_cut;

/* One key attribute's names beyond the plan's. */
typedef struct keys_key {
	const ddbc_hattr *ha;
	const char *shape;       /* the shape constant's name (ends in '_') */
	keys_cut *cuts;
	size_t ncuts;
} keys_key;

/* An access pattern's request: the queries export's own, with the values
 * the pattern's parameters make left to builders. */
typedef struct keys_request {
	const ddbc_hpattern *hp;
	const char *func;        /* <prefix>_<pattern>_request */
	const char *op_const;    /* <PREFIX>_<PATTERN>_OPERATION */
	const char *operation;   /* "Query", "GetItem", "Scan" */
	json_t *input;           /* the export's input object */
	const json_t **slots;    /* per value of hp, then per ':name' of a write's
				  * condition: the value in input it replaces, or NULL */
	const char **shapes;     /* per value of hp: its shape constant's name, or NULL */
	ddbc_hparam *params;     /* the function's parameters, first use first */
	size_t nparams;
	/* Per parameter: whether it is a condition's BOOL value (a boolean);
	 * NULL when none is. */
	bool *flag;
	/* Per ':name' of the condition (slot hp->nvalues + i): the parameter
	 * whose value it is, and its type (S, N, B or BOOL, the design's). */
	size_t *cond_param;
	ddbc_type *cond_type;
	/* Per ':name': the width a key of the request pads its parameter to
	 * (ddbc_request_padded), sent so as the export sends it; else 0. */
	unsigned *cond_width;
	size_t ncond;
	/* A PutItem's Item: the pattern's key members, written over the
	 * caller's item (the function's first parameter, item__); else NULL. */
	const json_t *item;
} keys_request;

/* How a language writes a comment and a constant, for the parts every
 * language writes alike (keys_table, keys_entity, keys_attr). */
typedef struct keys_syntax {
	const char *comment;     /* a line comment: "//" or "#" */
	const char *const_open;  /* before a constant's name: "export const ", "const ", "" */
	const char *const_close; /* after its value: ";" or "" */
	const char *trail;       /* a comment after a value: " //", "  #" */
	const char *gap;         /* before a section's heading: "\n" or "\n\n" */
	bool ts;                 /* ddbc_keys_string's flag */
} keys_syntax;

typedef struct keys_ops {
	const keys_syntax *syntax;
	void (*head)(keys_writer *w);
	void (*key)(keys_writer *w, const keys_key *k);
	/* The type guards of every entity that can hold items (below). */
	void (*guards)(keys_writer *w, const keys_guard *gs, size_t n,
		       const char *entity_of);
	void (*request)(keys_writer *w, const keys_request *r);
	void (*tail)(keys_writer *w);
	/* The type of an S attribute's enum values (ha->enum_macro). */
	void (*enum_type)(keys_writer *w, const ddbc_hattr *ha);
	/* Appends the language's name for a module-level plan name (Go's
	 * MixedCaps); NULL: the plan's name as it is. */
	void (*ident)(strbuf *sb, const char *name);
	const char *lang_name;   /* "Go": for a clash after renaming */
} keys_ops;

struct keys_writer {
	FILE *out;
	strbuf sb;
	const ddbc_design *g;
	ddbc_header_plan *plan;
	const char *module;      /* --module, else the prefix in lower case */
	const keys_ops *ops;
	ddbc_arena *arena;       /* the part being written's names; cleared after it */
	ddbc_strset names;       /* exact: every module-level name, to find a clash */
	bool failed;
	/* Names are checked in two passes (ddbc_emit_keys): the module is
	 * written keeping only each name's 64-bit hash, 8 bytes a name, and
	 * only when two hashes meet is it gone through again, exact, with
	 * every name kept (in names_arena) and a clash reported by name. */
	bool exact;
	uint64_t *hashes;
	size_t nhashes, hashes_cap;
	ddbc_arena *names_arena;
	/* Why the module cannot be written: the emitter prints nothing, the
	 * command says it (ddbc_keys_opts.err). */
	ddbc_err *err;
};

extern const keys_ops ddbc_keys_ts_ops, ddbc_keys_py_ops, ddbc_keys_go_ops;

/* Registers name; false (after a message) when the module has it already
 * (in the exact pass; the first one only notes its hash). */
bool ddbc_keys_name(keys_writer *w, const char *name);
/* The module's name for plan name `name` (ops->ident), in w's arena. */
const char *ddbc_keys_ident(keys_writer *w, const char *name);
const char *ddbc_keys_concat(keys_writer *w, const char *a, const char *b);
const char *ddbc_keys_lower(keys_writer *w, const char *s);

/* Appends s as a double-quoted string literal that TypeScript, Python and
 * Go read alike: \" \\ \n \t, other control and all non-ASCII characters
 * as \uXXXX, and above the BMP as astral (TS: \u{X}, Python and Go:
 * \UXXXXXXXX). */
void ddbc_keys_string(strbuf *sb, const char *s, size_t len, bool ts);
/* Appends s for a one-line comment: a character that cannot stand in
 * one of some language (line breaks, controls, bidi controls, the byte
 * order mark, noncharacters) as '?'. A comment never starts with s: the
 * design's text could make it a directive (TypeScript's "@ts-ignore",
 * Python's coding cookie on the first two lines). */
void ddbc_keys_comment(strbuf *sb, const char *s);
void ddbc_keys_flush(keys_writer *w);

/* The banner's origin: "the design '<name>' (<file's base name>)", both
 * as comment text. */
void ddbc_keys_origin(strbuf *sb, const ddbc_design *g);

/* Guards: the entities that can hold items (their table has a partition
 * key and they have its key attributes), in file order. */
struct keys_guard {
	const ddbc_entity *e;
	const char *func;        /* <prefix>_is_<entity> */
	const ddbc_attr *pk, *sk;  /* the table's key attributes in e; sk may be NULL */
	ddbc_lang pk_lang, sk_lang; /* the key attributes' own (ddbc_attr_key_lang), not owned */
	size_t literal;          /* literal bytes of both languages */
	const ddbc_attr **consts;  /* constant attributes (items_assign.c) */
	size_t nconsts;
};

/* How a language writes a guard's data (ddbc_keys_guard_data): each element is
 * followed by ", ", which every language takes. */
typedef struct keys_data_style {
	const char *entity_open, *keys_open, *key_open, *key_close;
	const char *runs_open, *runs_close, *fixed_open, *fixed_close, *class_fmt;
	const char *literal_fmt;  /* %zu: the literal bytes; opens the constants */
	const char *const_open, *const_close, *stored_open, *stored_item, *entity_close;
} keys_data_style;

/* Appends guard kg as data: its entity's name, its keys (name, type, most
 * bytes, runs), literal bytes, constants (name, type, value) and the
 * names its items hold. */
void ddbc_keys_guard_data(strbuf *sb, const keys_guard *kg, const keys_data_style *st, bool ts);

/* How a language writes JSON data as a literal (ddbc_keys_json). */
typedef struct keys_json_style {
	const char *obj_open, *obj_close, *arr_open, *arr_close;
	const char *yes, *no, *null;
	bool ts;                 /* ddbc_keys_string's flag */
	/* Around a Binary's base64 text ({"B": ...}) to make the bytes the
	 * language's SDK takes; NULL: the text as it is (the API's JSON). */
	const char *bytes_open, *bytes_close;
	/* Around a PutItem's key members (an object) to put them over item__. */
	const char *item_open, *item_close;
} keys_json_style;

/* Appends v as a literal; a value that is one of r's slots ({"S": ...})
 * gets its builder's result instead: value_expr(sb, r, i) appends it. */
/* A slot i at or past hp->nvalues is a condition's ':name' value: the
 * name of its parameter (*number: an N value, which the language writes
 * in decimal, zero-padded to *width digits when a key pads it; any other
 * is the parameter as it is); NULL for a key value's slot. */
static inline const char *keys_cond_value(const keys_request *r, size_t i, bool *number,
					  unsigned *width)
{
	if (i < r->hp->nvalues)
		return NULL;
	*number = r->cond_type[i - r->hp->nvalues] == DDBC_TYPE_N;
	*width = r->cond_width[i - r->hp->nvalues];
	return r->params[r->cond_param[i - r->hp->nvalues]].name;
}
void ddbc_keys_json(strbuf *sb, const json_t *v, const keys_json_style *st, const keys_request *r,
	       void (*value_expr)(strbuf *sb, const keys_request *r, size_t i), int depth);

/* Plans the request of access pattern hp into r (emit_keys_request.c):
 * its input as the queries export writes it, its parameters and slots,
 * its names registered in w. False when the pattern gets no function. */
bool ddbc_keys_plan_request(keys_writer *w, const ddbc_hpattern *hp, keys_request *r);

/* Appends r's parameters as "name<sep>type, ...", type the language's
 * for a string, a number and a boolean (a condition's BOOL value). */
void ddbc_keys_request_params(strbuf *sb, const keys_request *r, const char *sep,
			 const char *const types[3]);

/* The enum type of r's parameter named name (ddbc_hparam.enum_type), or
 * NULL. */
const char *ddbc_keys_param_enum(const keys_request *r, const char *name);

/* The name of enum value i of ha's attribute as a constant: <ENUM>_<VALUE>
 * when every value gives a distinct identifier, else <ENUM>_<i>; in w's
 * arena, registered. */
const char *ddbc_keys_enum_const(keys_writer *w, const ddbc_hattr *ha, size_t i);

/* Appends enum value i of ha's attribute as a string literal. */
void ddbc_keys_enum_value(strbuf *sb, const ddbc_hattr *ha, size_t i, bool ts);

/* The type letter of a DynamoDB type as JSON names it ("S", "N", "B",
 * "BOOL", "NULL"), or NULL. */
const char *ddbc_keys_type_name(ddbc_type t);

/* Appends the one value of constant attribute a (keys_guard's consts) as
 * a string literal: the template's text, or the enum value as written. */
void ddbc_keys_const_value(strbuf *sb, const ddbc_attr *a, bool ts);

#endif
