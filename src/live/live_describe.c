/* live_describe.c - DescribeTable, DescribeTimeToLive, DescribeContinuousBackups,
 * ListTagsOfResource, GetResourcePolicy and ListContributorInsights into
 * describe-table files: each answer's members beside "Table", as the
 * importer reads them (docs/import.md) */
#include "live/live_describe.h"
#include "util/error.h"
#include "util/xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void say_error(strbuf *err, const char *op, const char *table,
		      const ddbc_dynamo_error *e)
{
	ddbc_strbuf_addf(err, "%s of table '%s' failed: %s%s%s", op, table, e->type,
		    *e->type ? ": " : "", e->message);
}

/* DescribeTable's answer, or NULL: *missing when the table does not exist. */
static json_t *describe(ddbc_dynamo *c, const char *op, const char *table, bool *missing,
			strbuf *err)
{
	json_t *req = json_pack("{s:s}", "TableName", table), *resp = NULL;
	ddbc_dynamo_error e;
	if (ddbc_dynamo_call(c, op, req, &resp, &e) < 0) {
		*missing = strcmp(e.type, "ResourceNotFoundException") == 0;
		if (!*missing)
			say_error(err, op, table, &e);
	}
	json_decref(req);
	return resp;
}

static bool names_key(const json_t *schema, const char *attr)
{
	size_t i;
	const json_t *k;
	json_array_foreach(schema, i, k) {
		const char *name = json_string_value(json_object_get(k, "AttributeName"));
		if (name && strcmp(name, attr) == 0)
			return true;
	}
	return false;
}

static bool key_of_any(const json_t *t, const char *attr)
{
	if (names_key(json_object_get(t, "KeySchema"), attr))
		return true;
	static const char *const lists[] = { "GlobalSecondaryIndexes", "LocalSecondaryIndexes" };
	for (size_t l = 0; l < 2; l++) {
		size_t i;
		const json_t *ix;
		json_array_foreach(json_object_get(t, lists[l]), i, ix)
			if (names_key(json_object_get(ix, "KeySchema"), attr))
				return true;
	}
	return false;
}

/* An engine may keep a deleted index's key attributes in the table's
 * AttributeDefinitions (moto does); they define no key, and the import
 * would warn that CreateTable refuses them, of a table no one creates. */
static void drop_unused_definitions(json_t *t)
{
	json_t *defs = json_object_get(t, "AttributeDefinitions");
	for (size_t i = json_array_size(defs); i-- > 0;) {
		const char *name = json_string_value(
			json_object_get(json_array_get(defs, i), "AttributeName"));
		if (name && !key_of_any(t, name))
			json_array_remove(defs, i);
	}
}

static char *write_file(const char *dir, const char *table, json_t *doc, strbuf *err)
{
	strbuf path = STRBUF_INIT;
	ddbc_strbuf_addf(&path, "%s/%s.json", dir, table);
	if (json_dump_file(doc, path.buf, JSON_INDENT(2) | JSON_SORT_KEYS) < 0) {
		ddbc_strbuf_addf(err, "cannot write '%s': %s", path.buf, strerror(errno));
		ddbc_strbuf_release(&path);
		return NULL;
	}
	return ddbc_strbuf_detach(&path);
}

/* Point-in-time recovery, beside "Table" as the importer reads it. An
 * engine without the call (dynalite) has no backups to compare: the
 * design's pitr is then compared with nothing, and that is said. */
static void add_backups(ddbc_dynamo *c, const char *deployed, json_t *doc)
{
	json_t *req = json_pack("{s:s}", "TableName", deployed), *resp = NULL;
	ddbc_dynamo_error e;
	if (ddbc_dynamo_call(c, "DescribeContinuousBackups", req, &resp, &e) < 0)
		ddbc_warning("diff", "table '%s': point-in-time recovery not compared: "
			     "DescribeContinuousBackups failed: %s%s%s", deployed, e.type,
			     *e.type && *e.message ? ": " : "", e.message);
	else
		json_object_set(doc, "ContinuousBackupsDescription",
				json_object_get(resp, "ContinuousBackupsDescription"));
	json_decref(resp);
	json_decref(req);
}

/* The answers of op for req, every page (NextToken), merged into doc: the
 * list member `list` appended, the others set. A failure is said and
 * leaves what op tells uncompared, as with the backups; none is the
 * answer when the error is `none` (a table without a policy). */
static void add_answer(ddbc_dynamo *c, const char *deployed, const char *op, json_t *req,
		       const char *list, const char *none, const char *what, json_t *doc)
{
	json_t *all = json_array();
	for (int page = 0; page < 1000; page++) {
		json_t *resp = NULL;
		ddbc_dynamo_error e;
		if (ddbc_dynamo_call(c, op, req, &resp, &e) < 0) {
			if (!none || strcmp(e.type, none) != 0)
				ddbc_warning("diff", "table '%s': %s not compared: %s failed: "
					     "%s%s%s", deployed, what, op, e.type,
					     *e.type && *e.message ? ": " : "", e.message);
			break;
		}
		const char *k;
		json_t *v;
		json_object_foreach(resp, k, v) {
			if (list && !strcmp(k, list))
				json_array_extend(all, v);
			else if (strcmp(k, "NextToken") != 0)
				json_object_set(doc, k, v);
		}
		json_t *next = json_object_get(resp, "NextToken");
		bool more = json_is_string(next) && *json_string_value(next);
		if (more)
			json_object_set(req, "NextToken", next);
		json_decref(resp);
		if (!more)
			break;
	}
	if (list && json_array_size(all))
		json_object_set(doc, list, all);
	json_decref(all);
	json_decref(req);
}

/* The settings that are answers of their own: tags and the policy (on the
 * table's ARN), Contributor Insights of the table and its GSIs. */
static void add_settings(ddbc_dynamo *c, const char *table, const char *deployed, json_t *doc)
{
	const char *arn = json_string_value(json_object_get(json_object_get(doc, "Table"),
							    "TableArn"));
	if (arn) {
		add_answer(c, deployed, "ListTagsOfResource", json_pack("{s:s}", "ResourceArn", arn),
			   "Tags", NULL, "tags", doc);
		add_answer(c, deployed, "GetResourcePolicy", json_pack("{s:s}", "ResourceArn", arn),
			   NULL, "PolicyNotFoundException", "the resource policy", doc);
	}
	add_answer(c, deployed, "ListContributorInsights", json_pack("{s:s}", "TableName", deployed),
		   "ContributorInsightsSummaries", NULL, "Contributor Insights", doc);
	/* compared as the design's table, as "Table" is */
	size_t i;
	json_t *sum;
	json_array_foreach(json_object_get(doc, "ContributorInsightsSummaries"), i, sum)
		json_object_set_new(sum, "TableName", json_string(table));
}

/* One table: 1 written to *path, 0 not deployed, -1 failed. */
static int describe_one(ddbc_dynamo *c, const char *table, const char *deployed,
			const char *dir, char **path, strbuf *err)
{
	bool missing = false;
	json_t *doc = describe(c, "DescribeTable", deployed, &missing, err);
	if (!doc) {
		if (missing)
			ddbc_warning("diff", "table '%s' is not deployed at %s", deployed,
				     ddbc_dynamo_endpoint(c));
		return missing ? 0 : -1;
	}
	json_t *ttl = describe(c, "DescribeTimeToLive", deployed, &missing, err);
	int r = -1;
	if (ttl) {
		json_t *t = json_object_get(doc, "Table");
		drop_unused_definitions(t);
		/* compared as the design's table */
		json_object_set_new(t, "TableName", json_string(table));
		json_object_set(doc, "TimeToLiveDescription",
				json_object_get(ttl, "TimeToLiveDescription"));
		add_backups(c, deployed, doc);
		add_settings(c, table, deployed, doc);
		*path = write_file(dir, table, doc, err);
		r = *path ? 1 : -1;
	} else if (missing) {
		/* deleted between the two calls */
		r = 0;
	}
	json_decref(ttl);
	json_decref(doc);
	return r;
}

int ddbc_live_describe(ddbc_dynamo *c, const char *const *tables, const char *const *deployed,
		       size_t n, const char *dir, char ***paths, size_t *npaths, strbuf *err)
{
	*paths = ddbc_xcalloc(n + 1, sizeof(char *));
	*npaths = 0;
	for (size_t i = 0; i < n; i++) {
		char *path = NULL;
		int r = describe_one(c, tables[i], deployed ? deployed[i] : tables[i], dir, &path, err);
		if (r < 0)
			return -1;
		if (r > 0)
			(*paths)[(*npaths)++] = path;
	}
	return 0;
}
