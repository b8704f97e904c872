/* import_cfn.h - the evaluator of CloudFormation's intrinsic functions
 *
 * import_cfn.c turns a template's table resources into tables; it asks
 * import_cfn_eval.c for each property's value as the stack would have it,
 * and import_cfn_foreach.c for the resources Fn::ForEach makes. A
 * Serverless Framework service's variables are resolved before any of it
 * (import_sls.c), as the framework resolves them.
 */
#ifndef DDBC_IMPORT_CFN_H
#define DDBC_IMPORT_CFN_H

#include "import/import.h"
#include "import/import_int.h"
#include "util/strbuf.h"

#include <stdbool.h>

typedef struct ddbc_cfn {
	const char *file;
	const json_t *declared;            /* the template's Parameters */
	const json_t *conditions;          /* its Conditions */
	const json_t *mappings;            /* its Mappings */
	const ddbc_import_param *params;
	size_t nparams;
	strbuf why;                        /* what could not be evaluated */
	json_t *novalue;                   /* what Ref AWS::NoValue evaluates to */
	json_t *cond_cache;                /* condition name -> 0/1 (null: being evaluated) */
	size_t steps, bytes;               /* spent on the value being evaluated */
	int depth;
} ddbc_cfn;

void ddbc_cfn_init(ddbc_cfn *c, const char *file, const json_t *root,
		   const ddbc_import_param *params, size_t nparams);
void ddbc_cfn_release(ddbc_cfn *c);

/* The value of v as the stack has it: every intrinsic function evaluated,
 * every AWS::NoValue member removed (v itself may evaluate to c->novalue).
 * NULL when something cannot be decided before deployment, or a bound is
 * passed; c->why says which function and why. A new reference. The _value
 * form starts a new count against the bounds. */
json_t *ddbc_cfn_eval(ddbc_cfn *c, const json_t *v);
json_t *ddbc_cfn_eval_value(ddbc_cfn *c, const json_t *v);

/* Condition name of the template: 1 true, 0 false, -1 undecided (why). */
int ddbc_cfn_condition(ddbc_cfn *c, const char *name);

/* The function v calls ("Ref", "Fn::Sub", ...), or NULL. */
const char *ddbc_cfn_function(const json_t *v);

/* The template's Resources with every Fn::ForEach expanded (Transform
 * AWS::LanguageExtensions); NULL after saying why. A new reference. With
 * a stash (a streamed template, import_cfn_yaml.c) each copy is kept as
 * the other resources are: a table packed, in stash too; any other null. */
json_t *ddbc_cfn_expand_foreach(ddbc_cfn *c, const json_t *resources, json_t *stash);

/* Value v packed into a string of bytes (not text), and the tree that
 * string holds (import_cfn_keep.c): the same tree, kept in a fraction of
 * its memory. New references. */
json_t *ddbc_cfn_pack(const json_t *v);
json_t *ddbc_cfn_unpack(const json_t *packed);
/* What a streamed template keeps of resource res of logical id logical:
 * a table resource packed, and in stash under logical; null for any
 * other. A new reference. */
json_t *ddbc_cfn_keep(json_t *stash, const char *logical, const json_t *res);

/* Whether a resource type makes a table (DynamoDB's two, SAM's one). */
bool ddbc_cfn_table_type(const char *type);

/* Whether a resource type is SAM's AWS::Serverless::SimpleTable. */
bool ddbc_cfn_is_simple_table(const char *type);

/* SimpleTable resource res of template root as SAM's transform makes it:
 * an AWS::DynamoDB::Table resource (import_cfn_sam.c); NULL after saying
 * why SAM would refuse it. A new reference. */
json_t *ddbc_cfn_simple_table(const char *file, const json_t *root, const char *logical,
			      const json_t *res);

/* Whether a table resource can read member k of a template: its
 * Parameters (Ref), Mappings (Fn::FindInMap), Conditions, SAM's Globals
 * and Transform (and Resources). Outputs, Description, Metadata, Rules no
 * table reads: what they hold never refuses a table. */
bool ddbc_cfn_tables_read(const char *k);

/* Writes the reason into why unless one is there (the first stays);
 * returns NULL, for `return fail(...)`. */
json_t *ddbc_cfn_why(strbuf *why, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The Serverless Framework's variables of one service (serverless.yml). */
typedef struct ddbc_sls {
	const json_t *service;             /* the whole service, for self: */
	char *dir;                         /* its folder, where file(...) paths start */
	json_t *files;                     /* what file(...) read, by path */
	json_t *active;                    /* the file(...) values being resolved */
	const ddbc_import_param *params;   /* --param SOURCE:ADDRESS=VALUE */
	size_t nparams;
	strbuf why;                        /* what could not be resolved */
	size_t steps, total;               /* variables resolved: this value, all */
	int depth;
	bool resolved;                     /* some variable was resolved */
} ddbc_sls;

void ddbc_sls_init(ddbc_sls *s, const char *file, const json_t *service,
		   const ddbc_import_param *params, size_t nparams);
void ddbc_sls_release(ddbc_sls *s);

/* v with every ${...} variable in its values resolved as `serverless`
 * resolves them; NULL when one cannot be (s->why says which and why). A
 * new reference. */
json_t *ddbc_sls_resolve(ddbc_sls *s, const json_t *v);

/* The service's `resources`: a list of fragments merged as the framework
 * merges them, a variable standing for a fragment, the Resources mapping
 * or one resource replaced by its value (the variables inside each
 * resource are left for ddbc_sls_resolve, so one that cannot be resolved
 * refuses that resource alone). NULL when they cannot be had (s->why
 * says why). A new reference. */
json_t *ddbc_sls_resources(ddbc_sls *s);

/* The stage the service deploys to (--param opt:stage, provider.stage,
 * else dev); NULL when it cannot be resolved. Malloc'd. */
char *ddbc_sls_stage(ddbc_sls *s);

#endif
