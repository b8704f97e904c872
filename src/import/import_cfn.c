/* import_cfn.c - tables from CloudFormation, SAM and Serverless templates
 *
 * Every AWS::DynamoDB::Table and AWS::DynamoDB::GlobalTable resource (after
 * Fn::ForEach made its copies), and every AWS::Serverless::SimpleTable as
 * SAM translates it (import_cfn_sam.c), whose Condition holds becomes a
 * table. Its
 * properties are evaluated as the stack would have them (import_cfn_eval.c).
 * A property CreateTable takes that cannot be decided refuses that resource
 * alone, naming the function, the property and the resource; the others
 * are imported. Only the table's own name falls back to the logical id, as
 * CloudFormation itself names a table without one.
 *
 * A streamed template (import_cfn_yaml.c) holds each table resource
 * packed: it is unpacked when its turn comes and freed once its table is
 * made, and the table and its entity are then written to text (settled),
 * so neither the template nor the design is held whole as a tree.
 */
#include "import/import_cfn.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The first number of a GlobalTable's capacity settings: fixed units, or
 * the auto scaling minimum (the capacity a new table starts from). */
static const json_t *units(const json_t *settings, const char *fixed, const char *scaling)
{
	const json_t *u = json_object_get(settings, fixed);
	return u ? u : json_object_get(json_object_get(settings, scaling), "MinCapacity");
}

static json_t *throughput(const json_t *read, const json_t *write)
{
	json_t *pt = json_object();
	if (read)
		json_object_set(pt, "ReadCapacityUnits", (json_t *)read);
	if (write)
		json_object_set(pt, "WriteCapacityUnits", (json_t *)write);
	return pt;
}

/* The read settings of index name in a replica. */
static const json_t *replica_index(const json_t *replica, const char *name)
{
	size_t i;
	const json_t *x;
	json_array_foreach(json_object_get(replica, "GlobalSecondaryIndexes"), i, x)
		if (ddbc_import_is_string(json_object_get(x, "IndexName")) &&
		    !strcmp(ddbc_import_string_value(json_object_get(x, "IndexName")), name))
			return json_object_get(x, "ReadProvisionedThroughputSettings");
	return NULL;
}

/* The replica the stack's own region holds (a GlobalTable's stack is
 * created in one of its replicas' regions: that table is the one the
 * stack describes), else the first. */
static const json_t *stack_replica(const json_t *replicas, const char *region)
{
	size_t i;
	const json_t *r;
	json_array_foreach(replicas, i, r) {
		const char *at = ddbc_import_string_value(json_object_get(r, "Region"));
		if (at && region && !strcmp(at, region))
			return r;
	}
	return json_array_get(replicas, 0);
}

/* Appends to said what auto scaling settings s (CapacityAutoScalingSettings)
 * of what ("writes", "reads of GSI 'byUser'") hold, which a design has no
 * place for: a design holds the capacity a new table has, the minimum.
 * SeedCapacity counts only when an existing table's billing mode turns
 * PROVISIONED (CloudFormation's GlobalTable reference), never on create. */
static void say_scaling(strbuf *said, const char *what, const char *index, const json_t *s)
{
	if (!json_is_object(s))
		return;
	static const char *const parts[][2] = {
		{ "MinCapacity", " from %s" }, { "MaxCapacity", " to %s" }, { NULL, " at %s%%" },
		{ "SeedCapacity", ", seed %s" },
	};
	ddbc_strbuf_addf(said, "%s%s", said->len ? "; " : "", what);
	if (index)
		ddbc_strbuf_addf(said, " of GSI '%s'", index);
	ddbc_strbuf_addstr(said, " auto scaled");
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		const json_t *v = parts[i][0] ? json_object_get(s, parts[i][0])
			: json_object_get(json_object_get(s, "TargetTrackingScalingPolicyConfiguration"),
					  "TargetValue");
		char *t = v ? ddbc_import_scalar_text(v) : NULL;
		if (t)
			ddbc_strbuf_addf(said, parts[i][1], t);
		free(t);
	}
}

/* Appends to said the read settings of replica r's table and indexes, a
 * replica other than the stack's own, whose reads the design cannot hold. */
static void say_replica(strbuf *said, const json_t *r)
{
	const char *RA = "ReadCapacityAutoScalingSettings";
	const char *at = ddbc_import_string_text(json_object_get(r, "Region"));
	strbuf what = STRBUF_INIT;
	ddbc_strbuf_addf(&what, "reads in %s", at ? at : "another region");
	const json_t *rs = json_object_get(r, "ReadProvisionedThroughputSettings");
	char *units = ddbc_import_scalar_text(json_object_get(rs, "ReadCapacityUnits"));
	if (units)
		ddbc_strbuf_addf(said, "%s%s %s", said->len ? "; " : "", ddbc_strbuf_str(&what), units);
	free(units);
	say_scaling(said, ddbc_strbuf_str(&what), NULL, json_object_get(rs, RA));
	size_t i;
	const json_t *x;
	json_array_foreach(json_object_get(r, "GlobalSecondaryIndexes"), i, x) {
		const char *ix = ddbc_import_string_text(json_object_get(x, "IndexName"));
		const json_t *xs = json_object_get(x, "ReadProvisionedThroughputSettings");
		units = ddbc_import_scalar_text(json_object_get(xs, "ReadCapacityUnits"));
		if (units && ix)
			ddbc_strbuf_addf(said, "%s%s of GSI '%s' %s", said->len ? "; " : "",
				    ddbc_strbuf_str(&what), ix, units);
		free(units);
		if (ix)
			say_scaling(said, ddbc_strbuf_str(&what), ix, json_object_get(xs, RA));
	}
	ddbc_strbuf_release(&what);
}

/* A GlobalTable's properties in CreateTable's shape: write capacity is set
 * for the table, read capacity per replica (that of the stack's region,
 * stack_replica); BillingMode defaults to PROVISIONED. What auto scaling
 * holds beyond its minimum, and the other replicas' reads, are said in
 * scaled. */
static json_t *global_to_api(const json_t *p, const char *region, strbuf *scaled)
{
	static const char *const same[] = { "TableName", "AttributeDefinitions", "KeySchema",
					    "LocalSecondaryIndexes", "BillingMode",
					    "TimeToLiveSpecification" };
	json_t *out = json_object();
	for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++)
		if (json_object_get(p, same[i]))
			json_object_set(out, same[i], json_object_get(p, same[i]));
	const json_t *mode = json_object_get(p, "BillingMode");
	bool prov = !ddbc_import_is_string(mode) ||
		    !strcmp(ddbc_import_string_value(mode), "PROVISIONED");
	const json_t *replica = stack_replica(json_object_get(p, "Replicas"), region);
	const char *R = "ReadCapacityUnits", *RA = "ReadCapacityAutoScalingSettings";
	const char *WA = "WriteCapacityAutoScalingSettings";
	const json_t *rs = json_object_get(replica, "ReadProvisionedThroughputSettings");
	const json_t *ws = json_object_get(p, "WriteProvisionedThroughputSettings");
	if (prov) {
		json_object_set_new(out, "ProvisionedThroughput",
				    throughput(units(rs, R, RA), units(ws, "", WA)));
		say_scaling(scaled, "reads", NULL, json_object_get(rs, RA));
		say_scaling(scaled, "writes", NULL, json_object_get(ws, WA));
	}
	json_t *gsis = json_array();
	size_t i;
	const json_t *g;
	json_array_foreach(json_object_get(p, "GlobalSecondaryIndexes"), i, g) {
		json_t *x = json_deep_copy(g);
		const char *name = ddbc_import_string_value(json_object_get(g, "IndexName"));
		const json_t *grs = name ? replica_index(replica, name) : NULL;
		const json_t *gws = json_object_get(g, "WriteProvisionedThroughputSettings");
		if (prov && name) {
			json_object_set_new(x, "ProvisionedThroughput",
					    throughput(units(grs, R, RA), units(gws, "", WA)));
			say_scaling(scaled, "reads", name, json_object_get(grs, RA));
			say_scaling(scaled, "writes", name, json_object_get(gws, WA));
		}
		json_array_append_new(gsis, x);
	}
	const json_t *r;
	json_array_foreach(json_object_get(p, "Replicas"), i, r)
		if (prov && r != replica)
			say_replica(scaled, r);
	json_object_set_new(out, "GlobalSecondaryIndexes", gsis);
	return out;
}

/* The properties CreateTable takes, which must be decided. */
static bool wanted(const char *prop)
{
	static const char *const list[] = { "AttributeDefinitions", "KeySchema",
		"GlobalSecondaryIndexes", "LocalSecondaryIndexes", "BillingMode",
		"ProvisionedThroughput", "TimeToLiveSpecification", "Replicas",
		"WriteProvisionedThroughputSettings", NULL };
	for (int i = 0; list[i]; i++)
		if (!strcmp(prop, list[i]))
			return true;
	return false;
}

/* What of a replica (or of its index) CreateTable's shape takes: the
 * rest (a Kinesis stream's ARN, tags, contributor insights) may be known
 * only when the stack is deployed, and is dropped then. */
static bool replica_wanted(const char *prop)
{
	return !strcmp(prop, "Region") || !strcmp(prop, "IndexName") ||
	       !strcmp(prop, "ReadProvisionedThroughputSettings") ||
	       !strcmp(prop, "GlobalSecondaryIndexes");
}

static json_t *eval_replicas(ddbc_cfn *c, const json_t *v, int level);

/* Mapping v member by member, a member replica_wanted does not name
 * dropped when undecided; v whole when it is a function. level counts
 * replicas (1) and their indexes (2). */
static json_t *eval_members(ddbc_cfn *c, const json_t *v, int level)
{
	if (!json_is_object(v) || ddbc_cfn_function(v))
		return ddbc_cfn_eval_value(c, v);
	json_t *out = json_object();
	const char *k;
	const json_t *m;
	json_object_foreach((json_t *)v, k, m) {
		json_t *r = level == 1 && !strcmp(k, "GlobalSecondaryIndexes")
			    ? eval_replicas(c, m, 2) : ddbc_cfn_eval_value(c, m);
		if (!r && replica_wanted(k)) {
			json_decref(out);
			return NULL;
		}
		if (r && r != c->novalue)
			json_object_set(out, k, r);
		json_decref(r);
	}
	ddbc_strbuf_reset(&c->why);
	return out;
}

/* A GlobalTable's Replicas (level 1) or a replica's indexes (level 2):
 * a literal list is evaluated element by element (eval_members). */
static json_t *eval_replicas(ddbc_cfn *c, const json_t *v, int level)
{
	if (!json_is_array(v))
		return ddbc_cfn_eval_value(c, v);
	json_t *out = json_array();
	size_t i;
	const json_t *x;
	json_array_foreach(v, i, x) {
		json_t *r = eval_members(c, x, level);
		if (!r) {
			json_decref(out);
			return NULL;
		}
		if (r != c->novalue)
			json_array_append(out, r);
		json_decref(r);
	}
	return out;
}

/* Resource res's properties as the stack has them. A property CreateTable
 * does not take is dropped when it cannot be decided (a stream's KMS key);
 * one it takes refuses the resource: NULL after saying which. TableName
 * is evaluated later, by table_name. */
static json_t *evaluated(ddbc_cfn *c, const char *logical, const json_t *props)
{
	json_t *out = json_object();
	const char *k;
	const json_t *v;
	json_object_foreach((json_t *)props, k, v) {
		if (!strcmp(k, "TableName")) {
			json_object_set(out, k, (json_t *)v);
			continue;
		}
		json_t *r = !strcmp(k, "Replicas") ? eval_replicas(c, v, 1)
						   : ddbc_cfn_eval_value(c, v);
		if (!r && wanted(k)) {
			ddbc_import_fail(c->file, "resource '%s': property %s: %s", logical, k,
					 ddbc_strbuf_str(&c->why));
			json_decref(out);
			return NULL;
		}
		if (r && r != c->novalue)
			json_object_set(out, k, r);
		json_decref(r);
	}
	return out;
}

/* The table's name: TableName evaluated, else the logical id (commented). */
static char *table_name(ddbc_cfn *c, const char *logical, const json_t *props,
			strbuf *comment)
{
	const json_t *tn = json_object_get(props, "TableName");
	json_t *r = tn ? ddbc_cfn_eval_value(c, tn) : NULL;
	char *name = ddbc_import_is_string(r) ? ddbc_xstrdup(ddbc_import_string_value(r)) : NULL;
	bool novalue = r && r == c->novalue;
	json_decref(r);
	if (name)
		return name;
	if (comment->len)
		ddbc_strbuf_addstr(comment, "; ");
	if (tn && !novalue)
		ddbc_strbuf_addf(comment, "TableName unresolved (%s): the logical id",
			    c->why.len ? ddbc_strbuf_str(&c->why) : "not a string");
	else
		ddbc_strbuf_addstr(comment, "no TableName: the logical id (a stack names it "
			      "STACK-LogicalId-SUFFIX)");
	return ddbc_xstrdup(logical);
}

static void add_ttl(const json_t *r, json_t *table, json_t *attrs)
{
	const json_t *ttl = json_object_get(r, "TimeToLiveSpecification");
	const json_t *on = json_object_get(ttl, "Enabled");
	const char *a = ddbc_import_string_value(json_object_get(ttl, "AttributeName"));
	if (!a || !(json_is_true(on) || (ddbc_import_is_string(on) &&
					 !strcmp(ddbc_import_string_value(on), "true"))))
		return;
	json_object_set_new(table, "ttl", json_string(a));
	if (!json_object_get(attrs, a))  /* DynamoDB expires items only by a Number */
		json_object_set_new(attrs, a, json_string("N"));
}

static const json_t *table_or_null(const json_t *design, const char *name, int rc)
{
	return rc == 0 ? json_object_get(json_object_get(design, "tables"), name) : NULL;
}

/* Whether resource res is created: its Condition holds (1), does not (0),
 * or cannot be decided (-1, said in comment: the table is imported). */
static int created(ddbc_cfn *c, const char *logical, const json_t *res, strbuf *comment)
{
	const char *cond = ddbc_import_string_value(json_object_get(res, "Condition"));
	if (!cond)
		return 1;
	ddbc_strbuf_reset(&c->why);
	int r = ddbc_cfn_condition(c, cond);
	if (r == 0)
		ddbc_warning("import", "%s: resource '%s': condition %s is false: not "
			     "created, left out", c->file, logical, cond);
	else if (r < 0)
		ddbc_strbuf_addf(comment, "created only when condition %s holds (%s)", cond,
			    ddbc_strbuf_str(&c->why));
	else
		ddbc_strbuf_addf(comment, "condition %s holds with these parameters", cond);
	return r;
}

/* Member name of obj written to text (at the design's indent for a
 * table or an entity): the text is a fraction of the tree's size. */
static void settle(ddbc_import_run *run, json_t *obj, const char *name)
{
	json_t *text = ddbc_import_yaml_member(run, obj, name, 2);
	if (!text)
		return;
	ddbc_import_set_written(run, text);
	json_object_set_new(obj, name, text);
}

static int one_table(ddbc_import_run *run, ddbc_cfn *c, const char *logical, const json_t *res,
		     bool global, json_t *design)
{
	strbuf comment = STRBUF_INIT, scaled = STRBUF_INIT;
	size_t mark = ddbc_import_comments_mark(run);
	if (created(c, logical, res, &comment) == 0) {
		ddbc_strbuf_release(&comment);
		return 0;
	}
	json_t *props = evaluated(c, logical, json_object_get(res, "Properties"));
	if (!props) {
		ddbc_strbuf_release(&comment);
		return -1;
	}
	/* The resource's own properties, for its settings (SPEC 8.7). */
	json_t *source = json_incref(props);
	char *stack_region = NULL;
	if (global) {
		json_t *ref = json_pack("{s:s}", "Ref", "AWS::Region");
		json_t *region = ddbc_cfn_eval_value(c, ref);
		json_t *api = global_to_api(props, ddbc_import_string_value(region), &scaled);
		if (ddbc_import_string_value(region))
			stack_region = ddbc_xstrdup(ddbc_import_string_value(region));
		json_decref(region);
		json_decref(ref);
		json_decref(props);
		props = api;
	}
	char *name = table_name(c, logical, props, &comment);
	/* The name is decided: what remains is CreateTable's shape, whose
	 * types ddbc_import_api_table checks (an unresolved TableName is no
	 * string, and need not be one). */
	json_object_del(props, "TableName");
	json_t *attrs = NULL;
	json_t *table = ddbc_import_api_table(run, c->file, props, &attrs);
	int rc = -1;
	if (table && json_object_get(json_object_get(design, "tables"), name)) {
		ddbc_import_fail(c->file, "resource '%s': two resources create table '%s'",
				 logical, name);
		json_decref(table);
	} else if (table) {
		add_ttl(props, table, attrs);
		strbuf lost = STRBUF_INIT;
		ddbc_import_cfn_settings(source, global, stack_region, table, &lost);
		if (lost.len)
			ddbc_strbuf_addf(&comment, "%snot kept (unresolved): %s", comment.len ? "; " : "",
				    ddbc_strbuf_str(&lost));
		ddbc_strbuf_release(&lost);
		rc = ddbc_import_add_key_table(run, c->file, design, name, table, attrs,
					       "a template");
	}
	if (global)
		ddbc_strbuf_addf(&comment, "%sa global table%s", comment.len ? "; " : "",
			    json_object_get(table_or_null(design, name, rc), "capacity")
			    ? " (capacity: the reads of the replica in the stack's region, the "
			      "least writes auto scaling keeps)" : "");
	/* Nothing dropped silently: the design holds fixed capacity only. */
	if (rc == 0 && scaled.len) {
		ddbc_warning("import", "%s: table '%s': not kept, a design holds one fixed "
			     "capacity (the stack region's replica's, auto scaling's minimum): %s",
			     c->file, name, ddbc_strbuf_str(&scaled));
		ddbc_strbuf_addf(&comment, "; not kept: %s", ddbc_strbuf_str(&scaled));
	}
	if (rc == 0 && comment.len)
		ddbc_import_set_comment(run, json_object_get(design, "tables"), name, "%s",
					ddbc_strbuf_str(&comment));
	/* The table and its entity are complete: nothing reads them again
	 * but the writer (the comments set since mark are theirs). */
	if (rc == 0 && run->settle) {
		settle(run, json_object_get(design, "tables"), name);
		settle(run, json_object_get(design, "entities"), name);
		ddbc_import_comments_forget(run, mark);
	}
	ddbc_strbuf_release(&comment);
	ddbc_strbuf_release(&scaled);
	free(name);
	free(stack_region);
	json_decref(source);
	json_decref(attrs);
	json_decref(props);
	return rc;
}

bool ddbc_cfn_table_type(const char *type)
{
	return type && (!strcmp(type, "AWS::DynamoDB::Table") ||
			!strcmp(type, "AWS::DynamoDB::GlobalTable") ||
			ddbc_cfn_is_simple_table(type));
}

bool ddbc_cfn_tables_read(const char *k)
{
	static const char *const read[] = { "Parameters", "Mappings", "Conditions", "Globals",
					    "Transform", "Resources" };
	for (size_t i = 0; i < sizeof(read) / sizeof(read[0]); i++)
		if (!strcmp(k, read[i]))
			return true;
	return false;
}

/* Member e (a mapping) of the template with each entry resolved alone: one
 * that cannot be is left out (a parameter keeps what resolves without its
 * Default, so a Ref asks for --param), so only a table that uses it is
 * touched, as the template's evaluation treats what is missing (refused,
 * or named in a comment); the others are imported. Said on stderr. NULL
 * when e is no mapping. */
static json_t *sls_entries(const char *file, ddbc_sls *v, const char *k, const json_t *e)
{
	if (!json_is_object(e))
		return NULL;
	json_t *out = json_object();
	const char *name;
	const json_t *x;
	json_object_foreach((json_t *)e, name, x) {
		json_t *r = ddbc_sls_resolve(v, x);
		if (r) {
			json_object_set_new(out, name, r);
			continue;
		}
		ddbc_warning("import", "%s: resources.%s.%s: %s: left out (a table that "
			     "uses it says what that leaves undecided)", file, k, name,
			     ddbc_strbuf_str(&v->why));
		if (strcmp(k, "Parameters") || !json_is_object(x) || !json_object_get(x, "Default"))
			continue;
		json_t *bare = json_deep_copy(x);
		json_object_del(bare, "Default");
		r = ddbc_sls_resolve(v, bare);
		json_decref(bare);
		if (r)   /* a Ref to it then asks for --param NAME=VALUE */
			json_object_set_new(out, name, r);
	}
	return out;
}

/* The template under a Serverless Framework service's `resources`, its
 * variables resolved as the framework resolves them before CloudFormation
 * sees it (import_sls.c). Only what the tables need must resolve: a
 * resource whose variables cannot be resolved is left out, a table said
 * on stderr and counted in *found, *refused and lost; so is an entry of
 * the Parameters, Mappings, Conditions or Globals (sls_entries), and a
 * member no table reads (Outputs: ${git:branch} of the deploying
 * checkout) is dropped unread. NULL (said) when a Transform cannot be
 * resolved. A new reference. */
static json_t *sls_template(const char *file, ddbc_sls *v, const json_t *tpl, size_t *found,
			    size_t *refused, strbuf *lost)
{
	json_t *out = json_object();
	const char *k;
	const json_t *e;
	json_object_foreach((json_t *)tpl, k, e) {
		if (!strcmp(k, "Resources"))
			continue;
		json_t *r = ddbc_sls_resolve(v, e);
		if (!r && ddbc_cfn_tables_read(k))
			r = sls_entries(file, v, k, e);
		if (!r && ddbc_cfn_tables_read(k)) {
			ddbc_import_fail(file, "resources.%s: %s", k, ddbc_strbuf_str(&v->why));
			json_decref(out);
			return NULL;
		}
		if (r)
			json_object_set_new(out, k, r);
	}
	json_t *resources = json_object();
	json_object_foreach(json_object_get(tpl, "Resources"), k, e) {
		json_t *r = ddbc_sls_resolve(v, e);
		if (r) {
			json_object_set_new(resources, k, r);
			continue;
		}
		if (json_is_object(e) &&  /* a variable for a resource may be a table */
		    !ddbc_cfn_table_type(ddbc_import_string_value(json_object_get(e, "Type"))) &&
		    strncmp(k, "Fn::ForEach::", 13))
			continue;  /* no table: what it needs is no matter */
		(*found)++;
		(*refused)++;
		ddbc_warning("import", "%s: resource '%s': %s", file, k, ddbc_strbuf_str(&v->why));
		ddbc_warning("import", "%s: resource '%s' left out", file, k);
		ddbc_strbuf_addf(lost, "%s%s", lost->len ? ", " : "", k);
	}
	json_object_set_new(out, "Resources", resources);
	return out;
}

/* A service's stack is deployed in its region and named by it (provider
 * .stackName, else SERVICE-STAGE): the pseudo parameters take those
 * values unless --param gives them. params extended in *out (malloc'd
 * names and values in *own, freed by the caller). */
static size_t sls_pseudo(ddbc_sls *v, const ddbc_import_param *params, size_t nparams,
			 ddbc_import_param **out, json_t **own)
{
	static const char *const pseudo[][2] = {
		{ "AWS::Region", "${aws:region}" },
		{ "AWS::StackName", "${self:provider.stackName, self:service}" },
	};
	*out = ddbc_xcalloc(nparams + 2, sizeof(**out));
	if (nparams)   /* params may be NULL then (the fuzzer's import) */
		memcpy(*out, params, nparams * sizeof(*params));
	*own = json_array();
	size_t n = nparams;
	for (size_t i = 0; i < 2; i++) {
		bool have = false;
		for (size_t j = 0; j < nparams; j++)
			have |= !strcmp(params[j].name, pseudo[i][0]);
		json_t *expr = json_string(pseudo[i][1]);
		json_t *r = have ? NULL : ddbc_sls_resolve(v, expr);
		json_decref(expr);
		char *st = r && i == 1 && !json_object_get(json_object_get(v->service, "provider"),
							     "stackName") ? ddbc_sls_stage(v) : NULL;
		if (json_is_string(r)) {
			json_t *text = st ? json_sprintf("%s-%s", json_string_value(r), st)
					  : json_incref(r);
			json_array_append_new(*own, text);
			(*out)[n++] = (ddbc_import_param){ pseudo[i][0], json_string_value(text) };
		}
		free(st);
		json_decref(r);
	}
	return n;
}

/* When resource res of logical id logical is what stash kept of a table
 * resource (import_cfn_yaml.c): its tree, what was kept freed; else NULL. */
static json_t *unstashed(json_t *stash, const char *logical,
			 const json_t *res)
{
	json_t *text = json_object_get(stash, logical);
	if (!text || text != res)   /* one of Fn::ForEach's copies, or read whole */
		return NULL;
	json_t *tree = ddbc_cfn_unpack(text);
	/* Resources and the expansion hold this string too: emptied in place. */
	json_string_set(text, "");
	return tree;
}

json_t *ddbc_import_cfn_load(ddbc_import_run *run, const char *file)
{
	/* Streamed, its resources one at a time; whole, the oracle the
	 * streamed reading is compared with (tests/import_whole.c). */
	return run->whole ? ddbc_import_load_template(file)
			  : ddbc_import_stream_template(file, &run->stash);
}

int ddbc_import_cloudformation(ddbc_import_run *run, const char *file, const json_t *root,
			       json_t *design)
{
	json_t *stash = run->stash;
	const ddbc_import_param *params = run->params;
	size_t nparams = run->nparams;
	/* A Serverless Framework service (serverless.yml) holds the template
	 * the framework adds to its own under `resources`. */
	bool sls = !json_object_get(root, "Resources") && json_object_get(root, "service") &&
		   json_object_get(root, "resources");
	if (!sls && !json_is_object(json_object_get(root, "Resources")))
		return ddbc_import_fail(file, "expected a CloudFormation template, a mapping "
					"with Resources");
	size_t found = 0, refused = 0;
	strbuf lost = STRBUF_INIT;
	json_t *own = NULL;  /* a service's template, its variables resolved */
	char *stage = NULL;
	ddbc_import_param *sls_params = NULL;
	json_t *pseudo = NULL;  /* the texts sls_params points at */
	if (sls) {
		ddbc_sls vars;
		ddbc_sls_init(&vars, file, root, params, nparams);
		/* resources as the framework merges them (a list, file(...)) */
		json_t *tpl = ddbc_sls_resources(&vars);
		if (!tpl)
			ddbc_import_fail(file, "%s", ddbc_strbuf_str(&vars.why));
		else if (!json_is_object(json_object_get(tpl, "Resources")))
			ddbc_import_fail(file, "a Serverless Framework service whose resources "
					 "hold no Resources mapping");
		else
			own = sls_template(file, &vars, tpl, &found, &refused, &lost);
		json_decref(tpl);
		if (vars.resolved)
			stage = ddbc_sls_stage(&vars);
		if (own)
			nparams = sls_pseudo(&vars, params, nparams, &sls_params, &pseudo);
		ddbc_sls_release(&vars);
		if (!own) {
			/* The stage is found even when no resource is (a service
			 * that includes itself): it is not wanted then. */
			free(stage);
			ddbc_strbuf_release(&lost);
			return -1;
		}
		root = own;
		params = sls_params;
	}
	ddbc_cfn c;
	ddbc_cfn_init(&c, file, root, params, nparams);
	json_t *resources = ddbc_cfn_expand_foreach(&c, json_object_get(root, "Resources"),
						    stash);
	const char *logical;
	const json_t *res;
	json_object_foreach(resources, logical, res) {
		json_t *tree = unstashed(stash, logical, res);
		if (tree)
			res = tree;
		const char *type = ddbc_import_string_value(json_object_get(res, "Type"));
		if (!ddbc_cfn_table_type(type)) {
			json_decref(tree);
			continue;
		}
		bool global = !strcmp(type, "AWS::DynamoDB::GlobalTable");
		bool simple = ddbc_cfn_is_simple_table(type);
		found++;
		json_t *sam = simple ? ddbc_cfn_simple_table(file, root, logical, res) : NULL;
		int rc = simple && !sam ? -1 : one_table(run, &c, logical, sam ? sam : res, global,
							 design);
		json_decref(sam);
		json_decref(tree);
		if (rc < 0) {
			refused++;
			ddbc_warning("import", "%s: resource '%s' left out", file, logical);
			ddbc_strbuf_addf(&lost, "%s%s", lost.len ? ", " : "", logical);
		}
	}
	/* The design says it too, where its tables are, naming the template
	 * by its file name only: the design is the same wherever it was made. */
	const char *slash = strrchr(file, '/');
	strbuf note = STRBUF_INIT;
	if (stage)
		ddbc_strbuf_addf(&note, "Serverless Framework variables resolved for stage '%s' "
			    "(--param opt:stage=NAME for another)", stage);
	if (lost.len && refused < found)
		ddbc_strbuf_addf(&note, "%sleft out of %s: %s (undecided before deployment: see "
			    "import's messages)", note.len ? "; " : "", slash ? slash + 1 : file,
			    ddbc_strbuf_str(&lost));
	if (note.len && refused < found)
		ddbc_import_set_comment(run, design, "tables", "%s", ddbc_strbuf_str(&note));
	ddbc_strbuf_release(&note);
	ddbc_strbuf_release(&lost);
	free(stage);
	json_decref(resources);
	ddbc_cfn_release(&c);
	json_decref(own);
	json_decref(pseudo);
	free(sls_params);
	if (!resources)
		return -1;
	if (!found)
		return ddbc_import_fail(file, "the template has no AWS::DynamoDB::Table, "
					"AWS::DynamoDB::GlobalTable or AWS::Serverless::SimpleTable "
					"resource");
	if (refused == found)
		return ddbc_import_fail(file, "no table resource could be imported");
	if (refused)
		ddbc_warning("import", "%s: %zu table resource%s refused, the others "
			     "imported", file, refused, refused == 1 ? "" : "s");
	return 0;
}
