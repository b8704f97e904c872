/* load_int.h - what the loader's files share (load.c, load_fields.c)
 *
 * The loader's state, and the generic field checks every reader of a
 * mapping uses: each reports what is wrong as a schema finding and hands
 * back what it could read.
 */
#ifndef DDBC_LOAD_INT_H
#define DDBC_LOAD_INT_H

#include "input/load.h"
#include "util/strset.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct entries {
	void *items;
	size_t n, cap;
	/* A section's array grows in an arena of its own (ddbc_arena_resize
	 * in place, no copy), which the design's adopts once it is settled;
	 * NULL for the lists of positions. */
	ddbc_arena *arena;
} entries;

typedef struct loader {
	ddbc_design *design;
	ddbc_arena *arena;
	ddbc_diags *d;
	/* Attribute names, descriptions, formats and templates recur in
	 * entity after entity: the latest, by hash, share their copies
	 * (ddbc_load_word_of); NULL until the first. */
	ddbc_strset_entry *words;
	/* Attributes' (description, format) pairs, shared alike (attr_text). */
	ddbc_attr_text **texts;
	entries tables, entities, patterns;
	/* Entities and patterns without a `table:`, checked once the number
	 * of tables is known (a file may list entities before tables). */
	entries untabled_entities, untabled_patterns;
	/* The attributes of the entity being read, as they stream in; the
	 * array becomes the entity's (ddbc_arena_resize: no copy). */
	ddbc_attr *attrs;
	size_t nattrs, attrs_cap;
	/* What check_known last suggested for unknown fields of hinted: a
	 * missing required field among them is that typo, reported once. */
	const ddbc_node *hinted;
	const char *hints[16];
	size_t nhints;
} loader;

#define countof(a) (sizeof(a) / sizeof((a)[0]))

/* The message grows to any length: a long bad value keeps its hint. */
void ddbc_load_schema(loader *L, ddbc_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Reports every key of map that is not in known, with a suggestion;
 * returns how many there are. */
size_t ddbc_load_check_known(loader *L, const ddbc_node *map, const char *what,
			     const char *const *known, size_t n);
/* check_known, which also sets at[k] to the value of known[k] (its first
 * occurrence; NULL if absent): a mapping of many known fields read in
 * one pass instead of one lookup per field. at may be NULL. */
size_t ddbc_load_fields(loader *L, const ddbc_node *map, const char *what,
			const char *const *known, size_t n, const ddbc_node **at);
/* Whether check_known told of map that an unknown field may be key. */
bool ddbc_load_suggested(const loader *L, const ddbc_node *map, const char *key);
/* The value of a required field; reports it missing, unless an unknown
 * field of map is its misspelling, already reported with its fix. */
const ddbc_node *ddbc_load_require(loader *L, const ddbc_node *map, const char *key,
				   const char *what);
/* require, for the value v of map's key already looked up (NULL: absent). */
const ddbc_node *ddbc_load_require_value(loader *L, const ddbc_node *map, const ddbc_node *v,
					 const char *key, const char *what);
bool ddbc_load_expect_kind(loader *L, const ddbc_node *node, ddbc_node_kind kind,
			   const char *field);
/* A name or other plain text: any non-null scalar. */
bool ddbc_load_text_node(loader *L, const ddbc_node *node, const char *field);
/* The loader reads each section entry while the composer holds it, and
 * the entry's nodes are gone after that: what the model keeps is copied
 * into the design's arena, by name_of, word_of and keep. */
ddbc_name ddbc_load_name_of(loader *L, const ddbc_node *node);
/* name_of for the words of an attribute: the recurring ones share a copy. */
ddbc_name ddbc_load_word_of(loader *L, const ddbc_node *node);
const char *ddbc_load_get_attr_word(loader *L, const ddbc_node *map, const char *key);
/* The _of and _field forms take the value v of key, already looked up
 * (ddbc_load_fields), instead of finding it in the map. */
const char *ddbc_load_attr_word_of(loader *L, const ddbc_node *v, const char *key);
ddbc_node *ddbc_load_keep(loader *L, const ddbc_node *node);
ddbc_name ddbc_load_get_name(loader *L, const ddbc_node *map, const char *key);
ddbc_name ddbc_load_name_field(loader *L, const ddbc_node *map, const ddbc_node *v,
			       const char *key);
const char *ddbc_load_get_text(loader *L, const ddbc_node *map, const char *key);
bool ddbc_load_get_bool(loader *L, const ddbc_node *map, const char *key, bool *out,
			ddbc_loc *loc);
bool ddbc_load_bool_of(loader *L, const ddbc_node *v, const char *key, bool *out, ddbc_loc *loc);
/* Whether map's key holds one of words, *index then saying which. A
 * value that is no such word is reported; an absent key is not. */
bool ddbc_load_get_word(loader *L, const ddbc_node *map, const char *key,
			const char *const *words, size_t n, size_t *index);
bool ddbc_load_word_in(loader *L, const ddbc_node *v, const char *key,
		       const char *const *words, size_t n, size_t *index);
/* A list of names: each a non-empty scalar. */
size_t ddbc_load_get_names(loader *L, const ddbc_node *seq, const char *field, ddbc_name **out);
/* A name, or (when many is set) a list of names. */
size_t ddbc_load_get_key_names(loader *L, const ddbc_node *v, const char *field, bool many,
			       ddbc_name **out);

/* A table's settings (SPEC 8.7) and a GSI's (load_settings.c). */
void ddbc_load_table_settings(loader *L, const ddbc_node *m, ddbc_table *t);
void ddbc_load_gsi_settings(loader *L, const ddbc_node *m, ddbc_index *ix);

#endif
