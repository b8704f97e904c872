/* import.c - reads the source files and writes the design
 *
 * Workbench models, describe-table output and the MCP server's schema are
 * JSON, and so are the library models (OneTable, ElectroDB, Toolbox), read
 * with jansson after the number pre-pass (a Workbench model's
 * sample items one at a time, import_wb_stream.c); templates are YAML or
 * JSON, read by import_cfn_yaml.c a resource at a time, each table written
 * to text once made (import_cfn.c). The design is assembled in full
 * before a byte is written, so a bad file leaves nothing behind.
 */
#include "import/import.h"
#include "import/import_int.h"
#include "import/import_libs.h"
#include "import/import_mcp.h"
#include "import/import_wb.h"
#include "util/json_number.h"
#include "util/strbuf.h"
#include "util/source.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

struct run {
	ddbc_import_from from;
	const ddbc_import_param *params;
	size_t nparams;
	bool settle;   /* the design is only for writing (ddbc_import) */
	bool whole;    /* a template read whole (the streamed reader's oracle) */
};

/* Says why jansson refused the text, at its line and column. */
static void parse_fail(const char *file, const json_error_t *err)
{
	/* jansson gives no position (-1) for an error that has none. */
	if (err->line > 0)
		ddbc_import_fail(file, "%d:%d: %s", err->line, err->column > 0 ? err->column : 1,
				 err->text);
	else
		ddbc_import_fail(file, "%s", err->text);
}

/* JSON text of a source, its numbers read as written (util/json_number.h:
 * a capacity of 5.0 stays 5.0, 17 digits stay 17). Integers jansson holds
 * exactly stay integers; names and values that begin with the mark get it
 * twice, so both read alike. Text jansson refuses is read again as
 * written, so the message and its position are those of the file. */
json_t *ddbc_import_parse_json(const char *file, const char *text, size_t len)
{
	strbuf marked = STRBUF_INIT;
	json_error_t err;
	json_t *root = NULL;
	if (ddbc_import_mark_numbers(text, len, &marked))
		root = json_loadb(marked.buf, marked.len, JSON_REJECT_DUPLICATES, &err);
	strbuf_release(&marked);
	if (!root)
		root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
	if (!root)
		parse_fail(file, &err);
	return root;
}

bool ddbc_import_mark_numbers(const char *text, size_t len, strbuf *out)
{
	return ddbc_json_mark_numbers_how(text, len, out,
					  DDBC_JSON_MARK_NAMES | DDBC_JSON_KEEP_INTEGERS);
}

json_t *ddbc_import_load_json(const char *file)
{
	ddbc_source *src = ddbc_source_read(file);
	if (!src) {
		ddbc_import_fail(file, "cannot read: %s", strerror(errno));
		return NULL;
	}
	json_t *root = ddbc_import_parse_json(file, src->text, src->len);
	ddbc_source_free(src);
	return root;
}

static json_t *load(const struct run *r, const char *file, json_t **stash)
{
	if (r->from == DDBC_IMPORT_CLOUDFORMATION)   /* its resources one at a time */
		return r->whole ? ddbc_import_load_template(file)
				: ddbc_import_stream_template(file, stash);
	if (r->from == DDBC_IMPORT_WORKBENCH)   /* its sample items one at a time */
		return ddbc_import_wb_load(file);
	return ddbc_import_load_json(file);
}

static int read_loaded(const struct run *r, const char *file, json_t *design)
{
	json_t *stash = NULL;
	json_t *root = load(r, file, &stash);
	if (!root)
		return -1;
	int rc = -1;
	/* Types first, so no reader meets a value of the wrong type. A schema
	 * of the wrong types is also put to the MCP server's validator
	 * (import_mcp_check.c, which reads any type), so every defect is
	 * said in one pass. */
	if (r->from == DDBC_IMPORT_MCP && ddbc_import_check_mcp(file, root) < 0) {
		ddbc_import_mcp_check(file, root);
		json_decref(root);
		return -1;
	}
	if (r->from == DDBC_IMPORT_WORKBENCH && ddbc_import_check_workbench(file, root) < 0) {
		json_decref(root);
		return -1;
	}
	switch (r->from) {
	case DDBC_IMPORT_WORKBENCH:
		rc = r->settle ? ddbc_import_workbench_settled(file, root, design)
			       : ddbc_import_workbench(file, root, design);
		break;
	case DDBC_IMPORT_CLOUDFORMATION:
		rc = ddbc_import_cloudformation(file, root, stash, design, r->params, r->nparams,
						r->settle);
		break;
	case DDBC_IMPORT_DESCRIBE_TABLE: rc = ddbc_import_describe(file, root, design); break;
	case DDBC_IMPORT_MCP: rc = ddbc_import_mcp(file, root, design); break;
	case DDBC_IMPORT_ONETABLE: rc = ddbc_import_onetable(file, root, design); break;
	case DDBC_IMPORT_ELECTRODB: rc = ddbc_import_electrodb(file, root, design); break;
	case DDBC_IMPORT_TOOLBOX: rc = ddbc_import_toolbox(file, root, design); break;
	}
	json_decref(root);
	json_decref(stash);
	return rc;
}

static int read_one(const struct run *r, const char *file, json_t *design)
{
	int rc = read_loaded(r, file, design);
	ddbc_import_wb_prepared_clear();   /* the items a Workbench model's reader kept */
	return rc;
}

/* A template names no design: its file name does ("stack.yaml" is stack);
 * standard input has none, so the design is named for what it came from. */
static json_t *name_of_file(const char *file)
{
	if (strcmp(file, "-") == 0)
		return json_string("template");
	const char *base = strrchr(file, '/');
	base = base ? base + 1 : file;
	size_t n = strcspn(base, ".");
	return json_stringn(base, n ? n : strlen(base));
}

const ddbc_import_source ddbc_import_sources[] = {
	{ .name = "workbench", .help = "a NoSQL Workbench data model",
	  .from = DDBC_IMPORT_WORKBENCH },
	{ .name = "cloudformation", .help = "a CloudFormation, SAM or CDK template, or serverless.yml",
	  .from = DDBC_IMPORT_CLOUDFORMATION },
	{ .name = "describe-table", .help = "aws dynamodb describe-table output, a file per table, or CreateTable requests",
	  .from = DDBC_IMPORT_DESCRIBE_TABLE },
	{ .name = "mcp", .help = "the schema.json of the DynamoDB MCP server",
	  .from = DDBC_IMPORT_MCP },
	{ .name = "onetable", .help = "a OneTable schema (JSON)",
	  .from = DDBC_IMPORT_ONETABLE },
	{ .name = "electrodb", .help = "the JSON of ElectroDB entities' schemas (docs/import.md)",
	  .from = DDBC_IMPORT_ELECTRODB },
	{ .name = "dynamodb-toolbox", .help = "the JSON of DynamoDB-Toolbox v2 entities (docs/import.md)",
	  .from = DDBC_IMPORT_TOOLBOX },
	{ .name = NULL },
};

static json_t *import_tree(const struct run *r, char *const *files, size_t nfiles)
{
	json_t *design = json_pack("{sisnso}", "ddbc", 1, "name", "tables", json_object());
	json_object_set_new(design, "entities", json_object());
	for (size_t i = 0; i < nfiles; i++) {
		if (read_one(r, files[i], design) < 0) {
			ddbc_import_comments_clear();
			json_decref(design);
			return NULL;
		}
	}
	if (!ddbc_import_is_string(json_object_get(design, "name")))
		json_object_set_new(design, "name", nfiles ? name_of_file(files[0])
						    : json_string("imported"));
	if (!json_object_size(json_object_get(design, "entities")))
		json_object_del(design, "entities");
	return design;
}

json_t *ddbc_import_tree(ddbc_import_from from, char *const *files, size_t nfiles,
			 const ddbc_import_param *params, size_t nparams)
{
	struct run r = { from, params, nparams, false, false };
	return import_tree(&r, files, nfiles);
}

int ddbc_import_how(ddbc_import_from from, char *const *files, size_t nfiles,
		    const ddbc_import_param *params, size_t nparams, FILE *out, bool whole)
{
	struct run r = { from, params, nparams, !whole, whole };
	json_t *design = import_tree(&r, files, nfiles);
	if (!design)
		return -1;
	ddbc_import_write_yaml(out, design);
	ddbc_import_comments_clear();
	json_decref(design);
	return 0;
}

int ddbc_import(ddbc_import_from from, char *const *files, size_t nfiles,
		const ddbc_import_param *params, size_t nparams, FILE *out)
{
	return ddbc_import_how(from, files, nfiles, params, nparams, out, false);
}
