/* header_plan.h - the C names and key builders of a design's header
 *
 * `ddbc header` works in two steps: this plan decides every identifier and
 * every builder (format pieces, typed parameters) from the derived model,
 * checking that each identifier is valid and unique; emit/emit_header.c
 * prints it. The rule header-name (rules/names.c) runs the same check on
 * every command, with the prefix the design's name gives, so a design that
 * lints clean has a header. The test suite reads the same plan to write a
 * C program that calls every builder with the values of the design's
 * example items.
 *
 * Memory. A large design has hundreds of thousands of identifiers, and a
 * collision must stop the command before a line is written, so every one
 * is checked first. The plan keeps the tables' names and each entity's C
 * name only; an entity's attributes and an access pattern's names and
 * builders are planned when asked for, into memory the next entity (or
 * pattern) reuses. The check keeps 64-bit hashes of the identifiers, and
 * plans the entities and patterns again to compare the texts of the few
 * whose hashes met: a real collision is reported, a hash collision is
 * not.
 *
 * Names. An identifier is <PREFIX>_<ENTITY>_<ATTRIBUTE> plus a suffix:
 * each part is the name with camelCase split ("lineUserId" -> LINE_USER_ID),
 * every run of other characters than ASCII letters and digits made one '_',
 * and '_' trimmed at both ends. An entity's c_name replaces its name. Macros
 * are upper case, functions and parameters lower case. A name that gives
 * no identifier, and two things that would get the same identifier, are
 * findings (rule header-name): nothing is silently renamed. The default
 * prefix is the design name's identifier part; --prefix is taken as given
 * (upper and lower cased). Every identifier the plan checks starts with
 * the prefix and '_' (functions with its lower case), so two collide with
 * one prefix exactly when they collide with any other: a check with the
 * default prefix answers for every --prefix (the prefix has a letter, so
 * macros and functions never meet). Parameters are the attribute's part in
 * lower case; one that would be a C or C++ keyword, a lower-case library
 * or GNU predefined macro, or one of the builders' own names (buf, size,
 * snprintf) gets a trailing '_', one that starts with a digit a leading
 * '_'.
 *
 * Patterns. An access pattern X with a table gets P_X_TABLE_NAME, and
 * P_X_INDEX_NAME when it reads a secondary index; a Query its
 * KeyConditionExpression P_X_KEY_CONDITION, exactly as the queries export
 * writes it, and P_X_EXPR_NAMES_JSON, its ExpressionAttributeNames as a
 * JSON object. Each value of its key condition on the index's key
 * attribute A (A_LO and A_HI for a between's bounds) gets P_X_A_VALUE, a
 * constant, or P_X_A_VALUE_FMT, the builder p_x_a_value(buf, size,
 * params...) and its macro P_X_A_VALUE(buf, size, params...), and in a
 * Query P_X_A_PLACEHOLDER, its ':' name in the
 * expression. A parameter is a Number (exact decimal text, see
 * emit_header.c) when it has a :0WIDTH or is the whole value of a Number
 * key, else a string. A read with `returns` has
 * P_X_PROJECTION_EXPRESSION (and its names in P_X_EXPR_NAMES_JSON), a
 * Query with `order` P_X_SCAN_INDEX_FORWARD. An attribute with an enum
 * has P_E_A_ENUM, its values as initialisers of a string array, and
 * P_E_A_ENUM_COUNT; a table with a TTL attribute P_T_TABLE_TTL_ATTRIBUTE.
 * An access pattern whose id
 * gives no identifier gets nothing (it needs none: its requests are the
 * queries export's), and is no finding.
 *
 * Words said twice. A table's part drops leading words equal to the
 * prefix and a last word TABLE; an index's part drops leading words equal
 * to the table's part, then to the prefix, then to the table's shortened
 * part (each when they are there), and a last word
 * INDEX; a part left empty is left out ("InstagramTable" of design
 * "instagram" gives INSTAGRAM_TABLE, index "GameTitleIndex" of table
 * "GameScores" of design "game-scores" GAME_SCORES_GAME_TITLE_INDEX). A
 * shortened table or index name that another table or index name of the
 * design also has goes back to its whole form (P_<TABLE>_TABLE,
 * P_<TABLE>_<INDEX>_INDEX with every word), until none does. An entity's
 * part (not its c_name) and an access pattern's drop leading words equal
 * to the prefix, and are left out when nothing is left (entity "TodoItem"
 * of design "todo" gives TODO_ITEM_..., entity "Forum" of design "forum"
 * FORUM_NAME_NAME for its attribute Name, pattern "orders-between" of
 * design "orders" ORDERS_BETWEEN_...). When the names so shortened have any
 * header-name finding, the whole header is planned again with every
 * word, as names were before, and that plan's findings are reported:
 * leaving words out never makes a finding.
 */
#ifndef DDBC_HEADER_PLAN_H
#define DDBC_HEADER_PLAN_H

#include "model/model.h"
#include "util/error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A parameter of a builder: one attribute that a placeholder of the
 * (expanded) template names. */
typedef struct ddbc_hparam {
	const ddbc_attr *attr;
	const char *name;        /* the C parameter name, lower case */
	const char *source;      /* the attribute's or the pattern parameter's name */
	bool number;             /* N: a Number, decimal text; else a string */
	/* The key modules' type of an S attribute with an enum (its
	 * P_E_A_ENUM, ddbc_header_enum_type); NULL: any text. */
	const char *enum_type;
} ddbc_hparam;

/* A piece of an expanded template: a literal, or a parameter. */
typedef struct ddbc_hpiece {
	const char *text;        /* literal text (braces unescaped); NULL for a parameter */
	size_t len;
	size_t param;            /* index into params */
	unsigned width;          /* :0WIDTH of the placeholder, or 0 */
} ddbc_hpiece;

/* The key of an attribute with a template. Placeholders that name an
 * attribute with a template of its own are expanded, so the parameters are
 * the attributes whose values the key is made of, in order of first use. */
typedef struct ddbc_hkey {
	bool constant;           /* no placeholder: the key is the literal */
	ddbc_hpiece *pieces;
	size_t npieces;
	ddbc_hparam *params;
	size_t nparams;
	const char *prefix;      /* the literal text before the first parameter */
	size_t prefix_len;
	/* DynamoDB's most UTF-8 bytes of the key's value: 1024 when it is a
	 * sort key of its table or an index, else 2048 when it is a partition
	 * key; 0 when it keys nothing. Builders refuse a longer key. */
	size_t max_bytes;
} ddbc_hkey;

typedef struct ddbc_hattr {
	const ddbc_attr *attr;
	const char *name_macro;  /* P_E_A_NAME: the attribute name */
	const char *expr_macro;  /* P_E_A_EXPR_NAME, or NULL when the name needs none */
	const char *expr_name;   /* "#..." placeholder for ExpressionAttributeNames */
	const char *param;       /* the parameter name when a builder takes it */
	ddbc_hkey *key;          /* NULL without a template */
	/* P_E_A: the constant key, or the builder's macro P_E_A(buf, size,
	 * ...), which calls func (so the arguments' types are still
	 * checked). */
	const char *builder;
	const char *func;        /* p_e_a: the inline function; NULL for a constant */
	const char *fmt_macro;   /* P_E_A_FMT; NULL for a constant */
	const char *prefix_macro;  /* P_E_A_PREFIX; NULL when there is no literal prefix */
	const char *parse_func;  /* p_e_a_parse; NULL for a constant, or a key no
				  * parser reads back exactly (see ddbc_hkey_parseable) */
	const char *parts_struct;  /* struct p_e_a_parts, the parser's output */
	const char *enum_macro;  /* P_E_A_ENUM: its enum values as a list of
				  * initialisers ("a", "b"); NULL without an enum */
	const char *enum_count_macro;  /* P_E_A_ENUM_COUNT: how many */
	const char **enum_consts;  /* P_E_A_ENUM_OPEN..., one per value of a String
				    * enum, as the Go module names them; else NULL */
} ddbc_hattr;

typedef struct ddbc_hentity {
	const ddbc_entity *entity;
	const char *ident;       /* ENTITY part, upper case */
	ddbc_hattr *attrs;       /* one per attribute, in file order */
	size_t nattrs;
} ddbc_hentity;

typedef struct ddbc_hindex {
	const ddbc_index *index;
	const char *macro;       /* P_T_I_INDEX, shortened (see Names) */
	const char *full_macro;  /* P_T_I_INDEX with every word */
} ddbc_hindex;

typedef struct ddbc_htable {
	const ddbc_table *table;
	const char *macro;       /* P_T_TABLE, shortened (see Names) */
	const char *full_macro;  /* P_T_TABLE with every word */
	ddbc_hindex *indexes;    /* GSIs, then LSIs */
	size_t nindexes;
	const char *ttl_macro;   /* P_T_TABLE_TTL_ATTRIBUTE: its TTL attribute's name;
				  * NULL without one */
} ddbc_htable;

/* A value of an access pattern's key condition (one of a between's two
 * bounds, or the one value of another condition): a constant, or a
 * template over the pattern's parameters, built like a key. A parameter's
 * attr is NULL; source is the placeholder's name. */
typedef struct ddbc_hvalue {
	const ddbc_key_cond *cond;
	size_t index;            /* which of cond's values */
	const ddbc_node *node;   /* that value */
	ddbc_hkey key;           /* constant when it has no placeholder */
	const char *value_macro; /* P_X_A_VALUE: the constant; P_X_A_VALUE_FMT: the format */
	const char *func;        /* p_x_a_value(buf, size, ...); NULL for a constant */
	const char *macro;       /* P_X_A_VALUE(buf, size, ...), the builder's macro; NULL
				  * for a constant */
	const char *ref_macro;   /* P_X_A_PLACEHOLDER (":A"), for a Query; else NULL */
} ddbc_hvalue;

/* An access pattern's names: P_<PATTERN>_... (see Patterns above). */
typedef struct ddbc_hpattern {
	const ddbc_pattern *pattern;
	const char *table_macro;    /* P_X_TABLE_NAME */
	const char *index_macro;    /* P_X_INDEX_NAME, a read of a secondary index; else NULL */
	const char *kce_macro;      /* P_X_KEY_CONDITION, for a Query; else NULL */
	const char *names_macro;    /* P_X_EXPR_NAMES_JSON, for a Query or a read
				     * with a projection */
	const char *projection_macro;  /* P_X_PROJECTION_EXPRESSION, a read with
					* `returns`; else NULL */
	const char *order_macro;    /* P_X_SCAN_INDEX_FORWARD (1 or 0), a Query
				     * with `order`; else NULL */
	ddbc_hvalue *values;     /* in the index's key order, lower bound first */
	size_t nvalues;
} ddbc_hpattern;

typedef struct ddbc_header_plan {
	ddbc_arena *arena;       /* owns everything below */
	ddbc_arena *scratch;     /* the entity planned last, cleared for the next */
	ddbc_arena *pattern_scratch;  /* the access pattern planned last */
	const ddbc_design *g;
	const char *prefix;      /* upper case */
	const char *prefix_lower;
	uint64_t prefix_hash;    /* ddbc_hplan_hash of prefix and of prefix_lower: the */
	uint64_t prefix_lower_hash;  /* start of every name the name check hashes */
	const char *guard;
	ddbc_htable *tables;
	size_t ntables;
	const char **entity_idents;  /* per entity: the ENTITY part, NULL when it has none */
	bool has_builders;       /* some key has a parameter: the header needs <stdio.h> */
	bool has_parsers;        /* some key has a parser: <string.h> and its helpers */
	bool whole_names;        /* no word left out (see Words said twice) */
	bool shortened;          /* some name has words left out */
} ddbc_header_plan;

/* Whether s can prefix the header's names: a C identifier that starts
 * with a letter, without a trailing '_' or a '__'. */
bool ddbc_header_prefix_usable(const char *s);

typedef enum ddbc_plan_result {
	DDBC_PLAN_OK,            /* the plan is whole and its names unique */
	DDBC_PLAN_FINDINGS,      /* header-name findings were added */
	DDBC_PLAN_FAILED         /* it cannot be planned; why is in the caller's ddbc_err */
} ddbc_plan_result;

/* Plans the header of g with prefix (NULL: the design name's) and checks
 * every identifier. Returns DDBC_PLAN_OK with *plan filled,
 * DDBC_PLAN_FINDINGS after adding header-name findings to d (names that
 * give no identifier, collisions), or DDBC_PLAN_FAILED after adding why to
 * err (NULL: not kept) for the command to print (a prefix that is no
 * identifier; a template placeholder that names no attribute). Release
 * *plan with ddbc_header_plan_free whatever the result. */
ddbc_plan_result ddbc_header_plan_build(ddbc_header_plan *plan, const ddbc_design *g,
					const char *prefix, ddbc_diags *d, ddbc_err *err);

/* The check of header-name on any design, checked or not: what
 * ddbc_header_plan_build would report with the design name's prefix,
 * without keeping the plan. A template placeholder that names no attribute
 * (template-unknown-attribute's) leaves that key's builder unchecked; a
 * design name without an identifier is reported, and the rest checked with
 * a stand-in prefix. */
void ddbc_header_names_check(const ddbc_design *g, ddbc_diags *d);
/* Plans entity i of the design (of a plan that was built DDBC_PLAN_OK)
 * into *he, which holds until the next call or ddbc_header_plan_free.
 * Returns 0, or -1 (why added to err, as above) on a template placeholder
 * that names no attribute, which a checked design does not have. */
int ddbc_header_plan_entity(ddbc_header_plan *plan, size_t i, ddbc_hentity *he, ddbc_err *err);
/* Plans access pattern i of the design (of a plan that was built
 * DDBC_PLAN_OK) into *hp, which holds until the next call or
 * ddbc_header_plan_free. Returns false when the pattern gets no names
 * (see Patterns above): the header has nothing for it. */
bool ddbc_header_plan_pattern(ddbc_header_plan *plan, size_t i, ddbc_hpattern *hp);
void ddbc_header_plan_free(ddbc_header_plan *plan);

/* Whether a parser reads k back exactly, each value where the builder
 * wrote it: a text value ends where the next literal first occurs (values
 * never hold the literal after them) or at the end of the key, a number
 * where its digits (a padded one) or its decimal end. So no value may
 * follow another without a literal between them, and no literal after a
 * number may start with a digit, nor after an unpadded one with '.', 'e'
 * or 'E'. */
bool ddbc_hkey_parseable(const ddbc_hkey *k);

/* The name the plan gives the values of attribute a (P_E_A_ENUM, of the
 * entity that has a), which the key modules make a type of: NULL unless
 * a is a String with an enum (a Number's values are the number type's,
 * which the builders take as any number). In arena. */
const char *ddbc_header_enum_type(const ddbc_header_plan *plan, ddbc_arena *arena,
				  const ddbc_attr *a);

/* The parameter name the plan gives a pattern parameter named source:
 * its identifier in lower case, with a trailing '_' where a language
 * reserves it (as every builder's parameters); in arena. */
const char *ddbc_header_param_name(ddbc_arena *arena, const char *source);

#endif
