/* emit_formats.c - the export and documentation formats and the languages,
 * the one list
 *
 * A new format is its emitter's file and one line here (with its
 * declaration, when nothing else calls it): the command line's --format,
 * --list-formats, help, did-you-mean, the shell completion and the man
 * page all read this table. The --lang words of doc and keys are tables
 * the same way (--list-langs).
 */
#include "emit/emit.h"

const ddbc_export_format ddbc_export_formats[] = {
	{ .name = "create-table", .help = "one CreateTable request per table, for aws dynamodb create-table",
	  .fn = ddbc_emit_create_table },
	{ .name = "model", .help = "the normalized design with every derived fact",
	  .fn = ddbc_emit_model },
	{ .name = "queries", .help = "one API request per access pattern",
	  .fn = ddbc_emit_queries, .limited = true, .limit = DDBC_RULE_PARAM_NO_VALUE },
	{ .name = "cloudformation", .help = "a CloudFormation template, one AWS::DynamoDB::Table per table",
	  .fn = ddbc_emit_cloudformation },
	{ .name = "terraform", .help = "Terraform JSON (*.tf.json), one aws_dynamodb_table per table",
	  .fn = ddbc_emit_terraform },
	{ .name = "workbench", .help = "a NoSQL Workbench data model, one facet per entity",
	  .fn = ddbc_emit_workbench, .limited = true, .limit = DDBC_RULE_WORKBENCH_MULTI_KEY },
	{ .name = "electrodb", .help = "ElectroDB entities and a Service per table (TypeScript)",
	  .fn = ddbc_emit_electrodb },
	{ .name = "dynamodb-toolbox", .help = "DynamoDB-Toolbox v2 Table and Entity definitions (TypeScript)",
	  .fn = ddbc_emit_toolbox },
	{ .name = "onetable", .help = "a OneTable schema (JSON)",
	  .fn = ddbc_emit_onetable },
	{ .name = NULL },
};

const ddbc_doc_format ddbc_doc_formats[] = {
	{ .name = "md", .help = "GitHub-flavoured Markdown", .fn = ddbc_emit_md },
	{ .name = "html", .help = "one styled HTML page (with -o DIR/, a site)",
	  .fn = ddbc_emit_html },
	{ .name = NULL },
};

const ddbc_doc_language ddbc_doc_langs[] = {
	{ .name = "en", .help = "English labels", .lang = DDBC_LANG_EN },
	{ .name = "ja", .help = "Japanese labels", .lang = DDBC_LANG_JA },
	{ .name = NULL },
};

const ddbc_keys_language ddbc_keys_langs[] = {
	{ .name = "ts", .help = "a TypeScript module", .lang = DDBC_KEYS_TS },
	{ .name = "python", .help = "a Python module, typed for mypy", .lang = DDBC_KEYS_PYTHON },
	{ .name = "go", .help = "a Go package", .lang = DDBC_KEYS_GO },
	{ .name = NULL },
};
