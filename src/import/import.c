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
#include "import/import_wb.h"
#include "util/json_number.h"
#include "util/strbuf.h"
#include "util/source.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

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
	ddbc_strbuf_release(&marked);
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

/* Reads a file into design in run's format. What the source's load kept
 * beside the tree (its stash, a Workbench model's prepared items) is the
 * file's alone: it is dropped once the file is read. */
static int read_one(ddbc_import_run *run, const char *file, json_t *design)
{
	const ddbc_import_source *src = run->source;
	json_t *root = src->load ? src->load(run, file) : ddbc_import_load_json(file);
	int rc = root ? src->read(run, file, root, design) : -1;
	json_decref(root);
	json_decref(run->stash);
	json_decref(run->prepared);
	run->stash = run->prepared = NULL;
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

/* Every source: a new one is its reader's file and a row here (with its
 * declaration). The command line's --from, --list-sources, help and
 * did-you-mean, the shell completion and the man page all read this
 * table. A row with no load reads its file as JSON, whole
 * (ddbc_import_load_json). */
const ddbc_import_source ddbc_import_sources[] = {
	{ .name = "workbench", .help = "a NoSQL Workbench data model",
	  .load = ddbc_import_wb_load, .read = ddbc_import_workbench },
	{ .name = "cloudformation", .help = "a CloudFormation, SAM or CDK template, or serverless.yml",
	  .load = ddbc_import_cfn_load, .read = ddbc_import_cloudformation },
	{ .name = "describe-table", .help = "aws dynamodb describe-table output, a file per table, or CreateTable requests",
	  .read = ddbc_import_describe },
	{ .name = "mcp", .help = "the schema.json of the DynamoDB MCP server",
	  .read = ddbc_import_mcp },
	{ .name = "onetable", .help = "a OneTable schema (JSON)",
	  .read = ddbc_import_onetable },
	{ .name = "electrodb", .help = "the JSON of ElectroDB entities' schemas (docs/import.md)",
	  .read = ddbc_import_electrodb },
	{ .name = "dynamodb-toolbox", .help = "the JSON of DynamoDB-Toolbox v2 entities (docs/import.md)",
	  .read = ddbc_import_toolbox },
	{ .name = NULL },
};

const ddbc_import_source *ddbc_import_source_named(const char *name)
{
	for (const ddbc_import_source *s = ddbc_import_sources; s->name; s++)
		if (!strcmp(s->name, name))
			return s;
	return NULL;
}

void ddbc_import_run_init(ddbc_import_run *run, const ddbc_import_source *from,
			  const ddbc_import_param *params, size_t nparams)
{
	*run = (ddbc_import_run){ .source = from, .params = params, .nparams = nparams,
				  .why = STRBUF_INIT };
}

void ddbc_import_run_release(ddbc_import_run *run)
{
	ddbc_import_comments_clear(run);
	json_decref(run->stash);
	json_decref(run->prepared);
	if (run->member_mem)
		fclose(run->member_mem);
	free(run->member_text);
	ddbc_strbuf_release(&run->why);
	*run = (ddbc_import_run){ .why = STRBUF_INIT };
}

json_t *ddbc_import_tree(ddbc_import_run *run, char *const *files, size_t nfiles)
{
	json_t *design = json_pack("{sisnso}", "ddbc", 1, "name", "tables", json_object());
	json_object_set_new(design, "entities", json_object());
	for (size_t i = 0; i < nfiles; i++) {
		if (read_one(run, files[i], design) < 0) {
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

int ddbc_import_how(const ddbc_import_source *from, char *const *files, size_t nfiles,
		    const ddbc_import_param *params, size_t nparams, FILE *out, bool whole)
{
	ddbc_import_run run;
	ddbc_import_run_init(&run, from, params, nparams);
	run.settle = !whole;
	run.whole = whole;
	json_t *design = ddbc_import_tree(&run, files, nfiles);
	int rc = design ? 0 : -1;
	if (design)
		ddbc_import_write_yaml(&run, out, design);
	ddbc_import_run_release(&run);
	json_decref(design);
	return rc;
}

int ddbc_import(const ddbc_import_source *from, char *const *files, size_t nfiles,
		const ddbc_import_param *params, size_t nparams, FILE *out)
{
	return ddbc_import_how(from, files, nfiles, params, nparams, out, false);
}
