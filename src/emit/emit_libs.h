/* emit_libs.h - what the three library exports share
 *
 * `ddbc export --format electrodb|dynamodb-toolbox|onetable` write the
 * design as the data-access library's own model. Each library builds a
 * key attribute from the item's other attributes, as ddbc's templates do;
 * ddbc_lib_key_of flattens an attribute's parsed template (model/template.h,
 * never parsed again) into literals and the plain attributes they name,
 * through the templates of the attributes it names, and refuses (a
 * message naming the entity, attribute and template, in the export's
 * ddbc_err for the command to print; DDBC_EMIT_FAILED) what the library
 * cannot write exactly as ddbc renders it.
 */
#ifndef DDBC_EMIT_LIBS_H
#define DDBC_EMIT_LIBS_H

#include "emit/emit.h"
#include "util/arena.h"
#include "util/strbuf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a library can write in a key template. */
typedef struct lib_caps {
	const char *library;     /* its name, for messages: "ElectroDB" */
	const char *format;      /* the --format word */
	bool braced;             /* placeholders as ${name} in a string: names of
				  * letters, digits and '_' only, and no "${" in a
				  * literal (the library would read a placeholder) */
	bool pad_numbers;        /* :0WIDTH on a Number attribute */
	bool pad_text;           /* :0WIDTH on a String attribute */
	bool binary_keys;        /* a B key attribute */
	bool multi_keys;         /* multi-attribute GSI keys */
} lib_caps;

/* One piece of a flattened template: a literal (attr NULL) or a plain
 * attribute's value, zero-padded to width when width > 0. */
typedef struct lib_part {
	const char *text;
	size_t len;
	const ddbc_attr *attr;
	unsigned width;
} lib_part;

/* A key attribute of an entity as the library builds it. */
typedef struct lib_key {
	const ddbc_attr *attr;
	lib_part *parts;
	size_t nparts;
	bool plain;              /* no template: the attribute itself is the key */
} lib_key;

/* a's template flattened into *k (parts in arena). false after adding to
 * err (NULL: not kept) a message naming the entity, attribute and template
 * when the library cannot hold it. Attributes without a template are
 * plain. */
bool ddbc_lib_key_of(ddbc_arena *arena, const lib_caps *caps, const ddbc_attr *a, lib_key *k,
		     ddbc_err *err);

/* Adds to err that the library cannot hold a's template, why (fmt with
 * what), naming the entity, attribute and template, their control and
 * bidi characters shown as '?'. */
void ddbc_lib_refuse(ddbc_err *err, const lib_caps *caps, const ddbc_attr *a, const char *fmt,
		     const char *what);

/* Whether the table's indexes are all ones the library can hold: false
 * after adding to err a message naming the table and index otherwise. */
bool ddbc_lib_table_ok(const lib_caps *caps, const ddbc_table *t, ddbc_err *err);

/* The key attribute name of entity e (key position i of ix) as e defines
 * it, or NULL when e does not. */
const ddbc_attr *ddbc_lib_key_attr(const ddbc_entity *e, const ddbc_index *ix, size_t i);

/* Whether the entity's items can be in ix: it sets every key attribute. */
bool ddbc_lib_entity_in(const ddbc_entity *e, const ddbc_index *ix);

/* What the entity's templates make of its attributes, marked once per
 * entity (ddbc_lib_parts_of): a part of a key template (the library takes it
 * as a composite), a part of the template of a required attribute, of
 * the table key's. */
enum { LIB_COMPOSITE = 1, LIB_REQUIRED_PART = 2, LIB_TABLE_KEY_PART = 4 };
typedef struct lib_parts {
	const ddbc_entity *e;
	uint8_t *flags;          /* per attribute of e */
} lib_parts;

void ddbc_lib_parts_of(ddbc_arena *arena, const ddbc_entity *e, lib_parts *out);

/* Whether a key template of a's entity names a (through the templates of
 * the attributes it names). */
bool ddbc_lib_is_composite(const lib_parts *p, const ddbc_attr *a);

/* Appends s as a TypeScript string literal (every character escaped as
 * the key modules do). */
void ddbc_lib_ts_string(strbuf *sb, const char *s, size_t len);
void ddbc_lib_ts_str(strbuf *sb, const char *s);

/* A TypeScript identifier for a thing named name: name + suffix when name
 * is an ASCII identifier, else fallback + n (never a reserved word: the
 * suffix or fallback is not empty). */
const char *ddbc_lib_ts_ident(ddbc_arena *arena, const char *name, const char *suffix,
			 const char *fallback, size_t n);

/* The flattened template as the library's ${name} string: each part's
 * literal, ${name} for a placeholder, and (braced padding, OneTable)
 * ${name:W:0} when pad_inline. */
void ddbc_lib_braced(strbuf *sb, const lib_key *k, bool pad_inline);

/* The flattened template as a TypeScript expression over an item: each
 * literal, String(ITEM[name]) for a placeholder, pad_(ITEM[name], W) for
 * a padded one (then *pads is set: the module needs pad_); "" for none.
 * item is how the item is read: "i[" or, where it may be absent, "i?.[". */
void ddbc_lib_ts_concat(strbuf *sb, const lib_key *k, const char *item, bool *pads);

/* Whether items of a's entity always hold a as the library takes them:
 * ddbc's required (ddbc_attr_required), or a part of the template of an
 * attribute that is. */
bool ddbc_lib_required(const lib_parts *p, const ddbc_attr *a);

/* Whether a is a key attribute with a template that items may lack
 * (`required: false`, a sparse index): the library must leave it out
 * when the item is not in the index. */
bool ddbc_lib_sparse_key(const ddbc_attr *a);

/* The TypeScript of pad_(value, width), a :0WIDTH placeholder's value as
 * ddbc writes it: a non-negative whole number in exactly width digits; any
 * other value throws (ddbc's builders refuse it too). */
extern const char ddbc_lib_ts_pad[];

/* Whether the entity e stores attribute a as items hold it. */
bool ddbc_lib_stored(const ddbc_attr *a);

#endif
