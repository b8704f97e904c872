/* model.h - a design in memory
 *
 * load.c fills these structs from the YAML, entry by entry as the composer
 * hands the big sections over (compose.h), copying what it keeps; resolve.c
 * links the names (entity -> table, pattern -> table, index, entities).
 * Every part keeps the position of the YAML node it came from, so any later
 * finding can point at it. Everything lives in the design's arena:
 * ddbc_design_free releases all.
 * Collections keep the file's order, which is the order of every output.
 *
 * What could not be read without error is marked incomplete (the loader
 * and resolve.c set the flags, having reported why). A finding that states
 * an absence or a mismatch over a part ("no entity sets ...", "not
 * projected", "does not define ...") is only sound when that part was read
 * whole: the checks skip incomplete parts, so that one mistake gives one
 * finding, its own, and not the findings that follow from it.
 */
#ifndef DDBC_MODEL_H
#define DDBC_MODEL_H

#include "util/arena.h"
#include "diag/diag.h"
#include "model/node.h"
#include "model/pval.h"
#include "model/template.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A name as written, with its position. s is NULL when absent. */
typedef struct ddbc_name {
	const char *s;
	ddbc_loc loc;
} ddbc_name;

typedef enum ddbc_type {
	DDBC_TYPE_NONE = 0,  /* missing or invalid: rules skip it */
	DDBC_TYPE_S,
	DDBC_TYPE_N,
	DDBC_TYPE_B,
	DDBC_TYPE_BOOL,
	DDBC_TYPE_NULL,
	DDBC_TYPE_M,
	DDBC_TYPE_L,
	DDBC_TYPE_SS,
	DDBC_TYPE_NS,
	DDBC_TYPE_BS
} ddbc_type;

/* "S", "N", ... and "String", "Number", ... */
const char *ddbc_type_short(ddbc_type t);
const char *ddbc_type_long(ddbc_type t);
/* Accepts the short forms exactly and the long forms case-insensitively. */
int ddbc_type_parse(const char *s, ddbc_type *out);

typedef enum ddbc_projection {
	DDBC_PROJ_ALL,
	DDBC_PROJ_KEYS_ONLY,
	DDBC_PROJ_INCLUDE
} ddbc_projection;

typedef struct ddbc_capacity {
	bool set;
	long long read, write;
	ddbc_loc loc;
} ddbc_capacity;

/* A throughput figure pair of the table settings (`warm_throughput:`,
 * `on_demand_max:`): read and write units a second, each 0 when not
 * written; set when the mapping was read. */
typedef struct ddbc_throughput {
	bool set;
	long long read, write;
	ddbc_loc loc, read_loc, write_loc;
} ddbc_throughput;

typedef enum ddbc_insights {
	DDBC_INSIGHTS_NONE,
	DDBC_INSIGHTS_ALL,          /* ACCESSED_AND_THROTTLED_KEYS */
	DDBC_INSIGHTS_THROTTLED     /* THROTTLED_KEYS */
} ddbc_insights;

typedef enum ddbc_index_kind {
	DDBC_INDEX_PRIMARY,  /* the table's own key */
	DDBC_INDEX_GSI,
	DDBC_INDEX_LSI
} ddbc_index_kind;

typedef struct ddbc_table ddbc_table;

/* The table's primary key, a GSI or an LSI. An LSI's partition key is the
 * table's (pk holds a copy of the table's name and position). A GSI key may
 * have several attributes (multi-attribute keys), in key order. */
typedef struct ddbc_index {
	ddbc_name name;        /* the table's name for DDBC_INDEX_PRIMARY */
	ddbc_index_kind kind;
	const char *description;
	ddbc_name *pk;
	size_t npk;
	ddbc_name *sk;
	size_t nsk;
	ddbc_projection projection;
	ddbc_loc projection_loc;
	ddbc_name *include;    /* DDBC_PROJ_INCLUDE's attributes */
	size_t ninclude;
	ddbc_capacity capacity;
	/* a GSI's own (SPEC 8.7); the table's are in its settings */
	ddbc_throughput warm, on_demand_max;
	ddbc_insights insights;  /* UpdateContributorInsights takes an IndexName */
	ddbc_loc insights_loc;
	ddbc_table *table;
	bool incomplete;         /* its definition, its key above all, had an error */
	/* resolve.c: a key attribute no entity of the table defines (a typo
	 * there, most often): index-unused tells; what queries on the index
	 * would match or need follows from it. */
	bool key_undefined;
	/* resolve.c: its INCLUDE list names an attribute no entity of the table
	 * defines (projection-unknown-attribute tells, with "did you mean"):
	 * an attribute's declared role in it is then judged against what the
	 * file did not mean. What the index projects of the names that are
	 * attributes is still known (pattern-projection judges it). */
	bool include_undefined;

	/* derived by semantics.c */
	size_t slot;           /* position in table->indexes */
	const char **include_sorted; /* include's names in strcmp order */
	bool *key_declared;    /* per key attribute, pk then sk: some entity of the
				* table declares it (all true when the table has no
				* entities, or some entity's table is unresolved) */
	bool key_unknown;      /* some key attribute is not declared: the rules
				* that reason over the index's key leave it to
				* index-key-unknown */
	ddbc_type *key_types;  /* per key attribute, pk then sk: ddbc_table_key_type,
				* resolved once (request.h's ddbc_index_key_type) */
} ddbc_index;

/* A figure of the design's capacity fields (rate, count, item_bytes):
 * set only when written and valid; text is the number as written. Few
 * designs write them, so patterns and entities hold a pointer: to the
 * figure read, in the arena, or to ddbc_figure_none (set false). */
typedef struct ddbc_figure {
	bool set;
	double value;
	const char *text;
	ddbc_loc loc;
} ddbc_figure;

extern const ddbc_figure ddbc_figure_none;

typedef enum ddbc_table_class {
	DDBC_CLASS_STANDARD,
	DDBC_CLASS_STANDARD_IA
} ddbc_table_class;

typedef enum ddbc_billing {
	DDBC_BILLING_ON_DEMAND,
	DDBC_BILLING_PROVISIONED
} ddbc_billing;

typedef enum ddbc_stream {
	DDBC_STREAM_NONE,
	DDBC_STREAM_KEYS_ONLY,
	DDBC_STREAM_NEW_IMAGE,
	DDBC_STREAM_OLD_IMAGE,
	DDBC_STREAM_NEW_AND_OLD_IMAGES
} ddbc_stream;

/* "keys_only" ...: the design's word; "KEYS_ONLY" ...: StreamViewType. */
const char *ddbc_stream_word(ddbc_stream s);
const char *ddbc_stream_view_type(ddbc_stream s);

typedef struct ddbc_tag {
	ddbc_name key;
	const char *value;
} ddbc_tag;

/* The settings a team sets on a production table (SPEC 8.7), each as
 * written; an absent one is DynamoDB's default (unset, false, NONE). */
typedef struct ddbc_table_settings {
	bool has_pitr, pitr;        /* `pitr: { enabled }` */
	int recovery_days;          /* 1..35; 0 when not written (DynamoDB: 35) */
	ddbc_loc pitr_loc, recovery_days_loc;
	bool has_deletion_protection, deletion_protection;
	ddbc_loc deletion_protection_loc;
	ddbc_stream stream;
	ddbc_loc stream_loc;
	ddbc_throughput warm, on_demand_max;
	ddbc_insights insights;
	ddbc_loc insights_loc;
	/* `replicas:` every Region of the global table, its own included;
	 * `consistency: strong` makes it a multi-Region strongly consistent
	 * (MRSC) one, `witness:` its witness Region */
	ddbc_name *replicas;
	size_t nreplicas;
	ddbc_loc replicas_loc;
	/* the table has an unknown field (a misspelt replicas:, consistency:
	 * or witness:) or one of these had an error: what the Region set is
	 * cannot be told, and mrsc-regions says nothing */
	bool regions_incomplete;
	bool strong;
	ddbc_loc consistency_loc;
	ddbc_name witness;
	bool has_sse;               /* `sse:` KMS encryption, kms_key.s NULL: AWS managed key */
	ddbc_name kms_key;
	ddbc_loc sse_loc;
	ddbc_tag *tags;
	size_t ntags;
	ddbc_loc tags_loc;
	/* `resource_policy:` the policy document's text (read from the file
	 * it names, or inline), policy_file the file's name as written */
	const char *policy;
	size_t policy_bytes;
	const char *policy_file;
	ddbc_loc policy_loc;
} ddbc_table_settings;

struct ddbc_table {
	ddbc_name name;
	const char *description;
	ddbc_index primary;
	ddbc_name ttl;
	ddbc_billing billing;
	ddbc_loc billing_loc;
	ddbc_capacity capacity;
	ddbc_table_class table_class;
	bool has_table_class;    /* `table_class:` written */
	ddbc_loc table_class_loc;
	ddbc_table_settings settings;
	ddbc_index *gsi;
	size_t ngsi;
	ddbc_index *lsi;
	size_t nlsi;
	bool incomplete;         /* its definition (its primary key, ...) had an error */
	bool indexes_incomplete; /* an unknown field may be its gsi or lsi misspelt */

	/* derived by resolve.c */
	/* An entity that may belong to the table could not be read or placed
	 * whole (an unknown table, an error in its attributes, a table key it
	 * lacks): what no entity of the table has cannot be told. */
	bool members_incomplete;
	/* derived by semantics.c: a key attribute of an entity was read with
	 * an error, or an example item holds a key value that its entity's
	 * template cannot produce (example-mismatch tells: either is wrong);
	 * what a key condition matches is then not known. */
	bool keys_disputed;
	struct ddbc_entity **entities;  /* the table's entities, in file order */
	size_t nentities;
	/* derived by semantics.c */
	ddbc_index **indexes;  /* the primary key, then the GSIs, then the LSIs */
	size_t nindexes;
};

typedef enum ddbc_role {
	DDBC_ROLE_NONE,
	DDBC_ROLE_PARTITION_KEY,
	DDBC_ROLE_SORT_KEY,
	DDBC_ROLE_PROJECTED
} ddbc_role;

const char *ddbc_role_name(ddbc_role r);

/* One entry of an attribute's declared `indexes:`. */
typedef struct ddbc_index_decl {
	ddbc_name index;
	ddbc_role role;
	ddbc_loc role_loc;
} ddbc_index_decl;

typedef struct ddbc_entity ddbc_entity;

/* What few attributes have: a C name, an enum, a list of `indexes:`, an
 * example of its own, a template that does not parse. An attribute
 * without any points at ddbc_attr_more_none, so readers need no test:
 * `a->more->nenum`. */
typedef struct ddbc_attr_more {
	const ddbc_name *c_name; /* the header's name for it; NULL without one */
	ddbc_node **enum_values;
	ddbc_index_decl *indexes; /* the readable entries, then those whose role is not */
	const char *tpl_error;   /* semantics.c: template-syntax message, or NULL */
	const ddbc_pval *example; /* the attribute's own `example:`, packed */
	/* `present:` the share of the entity's items that hold it (0 to 1),
	 * for cost; never NULL (ddbc_figure_none, set false, when not written) */
	const ddbc_figure *present;
	ddbc_loc optional_loc;   /* `required: false` as written: its value's position
				  * (line 0 when not written) */
	ddbc_loc enum_loc;
	ddbc_loc indexes_loc;
	ddbc_loc type_loc;       /* ddbc_attr_type_loc's, when it is far from the name */
	uint32_t nenum;
	uint32_t nindexes;       /* readable entries */
	uint32_t ndeclared;      /* all entries */
} ddbc_attr_more;

extern const ddbc_attr_more ddbc_attr_more_none;

/* An attribute's words for its reader: its description and its format,
 * each NULL when not written. A pair recurs over a design's entities, and
 * attributes share it (the loader's); an attribute with neither points at
 * ddbc_attr_text_none, so readers need no test: `a->text->format`. */
typedef struct ddbc_attr_text {
	const char *description;
	const char *format;
} ddbc_attr_text;

extern const ddbc_attr_text ddbc_attr_text_none;

/* A large design has a hundred thousand attributes: the fields are
 * ordered so that the struct has no holes, what few attributes have is
 * behind one pointer (ddbc_attr_more), and the words they share behind
 * another (ddbc_attr_text): 96 bytes in all. */
typedef struct ddbc_attr {
	ddbc_name name;
	const ddbc_attr_text *text; /* never NULL (ddbc_attr_text_none) */
	ddbc_name template;      /* s is NULL without a template */
	const ddbc_attr_more *more; /* never NULL (ddbc_attr_more_none); the loader and
				  * semantics.c write it through ddbc_attr_more_of */
	ddbc_entity *entity;
	/* A byte for the type and one for the flags. */
	ddbc_type type : 8;
	bool required : 1;       /* as written; key attributes are required anyway */
	bool incomplete : 1;     /* its definition had an error */
	bool has_indexes : 1;
	bool indexes_is_map : 1; /* `indexes:` was a mapping */
	bool not_stored : 1;     /* `stored: false`: a part of key templates that
				  * items never hold; never required, in no index */

	/* derived by semantics.c */
	bool has_template : 1;   /* template parsed without error */
	bool in_cycle : 1;       /* its template refers back to itself */
	bool is_key : 1;         /* a key attribute of the table or one of its indexes */
	/* The position of its type (its name's in the shorthand `name: S`),
	 * read by ddbc_attr_type_loc: lines after the name's and column, in
	 * what the flags leave of 8 bytes; type_far: in more->type_loc. */
	uint16_t type_dline, type_column;
	bool type_far : 1;
	ddbc_template tpl;       /* placeholders' ref: the ddbc_attr they name, or NULL */
	const ddbc_lang *lang;   /* is_key: the strings it can hold (ddbc_attr_lang), in the
				  * arena; NULL for the others */
	const struct ddbc_attr *used_by; /* the first attribute whose template names it */
} ddbc_attr;

/* The position of a's type (a `type:` value), or of its name when the
 * type was written as its value alone. */
ddbc_loc ddbc_attr_type_loc(const ddbc_attr *a);
/* Sets it, in arena when it does not pack (ddbc_attr_more_of). */
void ddbc_attr_set_type_loc(ddbc_arena *arena, ddbc_attr *a, ddbc_loc loc);

/* a's role in each slot of its table's indexes (a ddbc_role a byte), or
 * NULL when its entity has no table. */
uint8_t *ddbc_attr_roles(const ddbc_attr *a);

/* a's own ddbc_attr_more, made in arena on the first call, to write into. */
ddbc_attr_more *ddbc_attr_more_of(ddbc_arena *arena, ddbc_attr *a);

/* Which items of an entity an index of its table holds. DynamoDB leaves
 * out of an index an item that lacks one of the index's key attributes:
 * when the entity says its items may lack one (`required: false`), only
 * the items that have it are in the index (a sparse index). */
typedef enum ddbc_share_source {
	DDBC_SHARE_ALL,          /* every item: the index's key attributes are required */
	DDBC_SHARE_PRESENT,      /* `present:` of the optional key attributes */
	DDBC_SHARE_EXAMPLES,     /* the share of the entity's examples that have them */
	DDBC_SHARE_ASSUMED       /* neither written nor shown: every item is assumed */
} ddbc_share_source;

typedef struct ddbc_membership {
	const struct ddbc_attr **by; /* the optional key attributes, in key order */
	uint32_t nby;            /* 0: every item of the entity is in the index */
	ddbc_share_source source;
	double share;            /* the share of the entity's items in the index, 0 to 1 */
} ddbc_membership;

struct ddbc_entity {
	ddbc_name name;
	ddbc_name table_ref;     /* as written; s is NULL when implied */
	ddbc_table *table;       /* resolved; NULL when unresolved */
	const char *description;
	ddbc_name c_name;
	ddbc_attr *attrs;
	/* ddbc_entity_attr's hash table: open addressing over a power-of-two
	 * number of slots, each 0 (empty) or an attribute's position + 1. */
	uint32_t *attr_slots;
	/* Counts of 32 bits (a mapping's are: ddbc_node's n), beside what
	 * leaves no hole: 144 bytes an entity. */
	uint32_t nattrs;
	uint32_t attr_mask;      /* the number of slots - 1 */
	const ddbc_pval **examples; /* each a mapping (checked by the loader), packed */
	const ddbc_figure *count;      /* `count:` items stored; never NULL */
	const ddbc_figure *item_bytes; /* `item_bytes:` a typical item's size; never NULL */
	uint32_t nexamples;
	bool incomplete;         /* its own fields had an error: it may have more attributes */
	bool lacks_key;          /* resolve.c: it lacks a key attribute of its table */

	/* derived by semantics.c */
	bool *in_index;          /* per slot of table->indexes: sets all its key attributes */
	/* Per attribute, a row of a byte per slot of table->indexes: its
	 * ddbc_role there (ddbc_attr_roles); NULL without a table. One array
	 * for the entity, not a pointer in each attribute: 8 bytes of every
	 * attribute of the design. */
	uint8_t *roles;
	/* per slot of table->indexes, which of its items the index holds
	 * (ddbc_entity_membership reads it); NULL when every index it is in
	 * holds all its items, as in most designs */
	const ddbc_membership *membership;
};

typedef enum ddbc_operation {
	DDBC_OP_GET,
	DDBC_OP_QUERY,
	DDBC_OP_SCAN,
	DDBC_OP_PUT,
	DDBC_OP_UPDATE,
	DDBC_OP_DELETE
} ddbc_operation;

const char *ddbc_operation_name(ddbc_operation op);

typedef enum ddbc_cond_op {
	DDBC_COND_EQ,
	DDBC_COND_LT,
	DDBC_COND_LE,
	DDBC_COND_GT,
	DDBC_COND_GE,
	DDBC_COND_BETWEEN,
	DDBC_COND_BEGINS_WITH
} ddbc_cond_op;

const char *ddbc_cond_op_name(ddbc_cond_op op);

/* A condition on one key attribute. values are scalars: templates over
 * the pattern's parameters, or numbers. between holds what was written
 * (the pattern-operator-type rule checks that it is two values). */
typedef struct ddbc_key_cond {
	ddbc_name attr;
	ddbc_loc op_loc;
	ddbc_node **values;
	uint32_t nvalues;
	ddbc_cond_op op;

	/* derived by semantics.c, once per condition */
	bool on_key;             /* attr is a key attribute of the pattern's index */
	bool has_lang;           /* eq and begins_with: lang is what the value allows */
	bool has_bound[2];
	const ddbc_lang *lang;   /* in the design's arena, when has_lang; else NULL */
	ddbc_bound bounds[2];    /* lt..between: lower and upper, when has_bound[] */
} ddbc_key_cond;

typedef struct ddbc_pattern {
	/* Tens of thousands in a large design: the fields are ordered so
	 * that the struct has no holes, with 32-bit counts. */
	ddbc_name id;
	const char *description;
	ddbc_name table_ref;
	ddbc_table *table;
	ddbc_name index_ref;     /* s is NULL for the base table */
	ddbc_index *index;       /* resolved: &table->primary, a GSI or an LSI */
	ddbc_loc operation_loc;
	ddbc_key_cond *conds;
	ddbc_loc key_loc;
	ddbc_loc order_loc;      /* the order's value, when set */
	ddbc_loc consistent_loc;
	ddbc_name *returns;
	ddbc_name *entities;
	ddbc_loc entities_loc;
	const ddbc_pval *example; /* a mapping of parameter values, packed, or NULL */
	const char *condition;
	ddbc_loc condition_loc;
	const ddbc_figure *rate; /* `rate:` requests per second; never NULL */
	/* A query's or scan's `items:` (the items one use returns, over as
	 * many pages as it takes) and `limit:` (its page size, the request's
	 * Limit); never NULL */
	const ddbc_figure *items;
	const ddbc_figure *limit;
	uint32_t nconds;
	uint32_t nreturns;
	uint32_t nentities;
	ddbc_operation operation;
	int8_t order;            /* 0 unset, 1 asc, -1 desc */
	bool consistent_read;
	bool has_entities;
	/* Its definition had an error, or its table or index did not resolve. */
	bool incomplete;
	bool entities_unresolved; /* a name of `entities:` is no entity */

	/* derived by semantics.c */
	bool analysed;           /* table and index resolved: matched is meaningful */
	uint32_t nmatched;
	ddbc_entity **matched;   /* entities the key condition can return, file order */
	struct ddbc_request *request; /* what it asks DynamoDB for (request.h), once */
} ddbc_pattern;

typedef struct ddbc_rule_setting {
	ddbc_rule rule;
	ddbc_severity severity;
	ddbc_loc loc;
} ddbc_rule_setting;

typedef struct ddbc_design {
	ddbc_arena *arena;
	const ddbc_source *src;  /* not owned */
	ddbc_node *root;         /* the tree; the big sections hold only their keys (compose.h) */
	long long version;
	ddbc_name name;
	const char *description;
	const char *key_delimiter;
	ddbc_loc key_delimiter_loc;
	ddbc_settings settings;  /* from lint.rules */
	ddbc_name pricing_region; /* `pricing: { region }`; s is NULL without one */
	ddbc_table *tables;
	size_t ntables;
	ddbc_entity *entities;
	size_t nentities;
	ddbc_pattern *patterns;
	size_t npatterns;
	ddbc_entity **entities_by_name;  /* sorted, for ddbc_design_entity; see model.c */
	/* ddbc_design_table's hash table, as an entity's attr_slots */
	uint32_t *table_slots;
	uint32_t table_mask;
	/* The root had an unknown field or an unreadable section: a whole
	 * section may hide under a misspelt name, so no name is known absent. */
	bool incomplete;
} ddbc_design;

void ddbc_design_free(ddbc_design *design);

/* Sorts the entities by name, so that an entity is found in logarithmic
 * time, and gives the tables and each entity's attributes a hash table, so
 * that a table or an attribute is found in constant time: a design can
 * hold thousands of tables and entities, and an entity tens of thousands
 * of attributes, each looked up by every rule and for every entity and
 * pattern. Called once the tables and entities are loaded. */
void ddbc_design_index_entities(ddbc_design *design);

/* Lookups by name; NULL when there is none. */
ddbc_table *ddbc_design_table(const ddbc_design *design, const char *name);
ddbc_entity *ddbc_design_entity(const ddbc_design *design, const char *name);
ddbc_attr *ddbc_entity_attr(const ddbc_entity *entity, const char *name);
/* ddbc_entity_attr of the len bytes at name (no NUL among them), which
 * need not be NUL-terminated: a placeholder's name inside its template. */
ddbc_attr *ddbc_entity_attr_n(const ddbc_entity *entity, const char *name, size_t len);
/* ddbc_entity_attr of each key of an item (a mapping: its keys differ), in
 * the item's order: an item that lists the entity's attributes in their
 * order, as most do, costs one comparison a key.
 *   ddbc_attr_walk w = DDBC_ATTR_WALK_INIT;
 *   while (...next key...) a = ddbc_entity_attr_next(e, &w, key); */
typedef struct ddbc_attr_walk {
	size_t pairs;            /* keys looked up so far */
	size_t run;              /* how many of them were the entity's first attributes */
} ddbc_attr_walk;
#define DDBC_ATTR_WALK_INIT { 0, 0 }
ddbc_attr *ddbc_entity_attr_next(const ddbc_entity *entity, ddbc_attr_walk *w, const char *name);
/* Whether a's entity's items hold a: not when it is marked `stored:
 * false`, unless it is a key attribute of the entity's table. That
 * contradiction is reported once (entity-missing-key); the attribute is
 * read as stored so that nothing else follows from it. */
bool ddbc_attr_stored(const ddbc_attr *a);
/* The attribute name that entity's items hold (ddbc_attr_stored), or NULL. */
ddbc_attr *ddbc_entity_stored_attr(const ddbc_entity *entity, const char *name);
/* Whether an entity of table t stores an attribute called name. */
bool ddbc_table_stores(const ddbc_table *t, const char *name);
/* Whether an entity of table t declares name with `stored: false`. */
bool ddbc_table_declares_unstored(const ddbc_table *t, const char *name);
/* The primary key, GSI or LSI of table called name; NULL when none. */
ddbc_index *ddbc_table_index(const ddbc_table *table, const char *name);

#endif
