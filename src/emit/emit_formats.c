/* emit_formats.c - the export and documentation formats, the one list
 *
 * A new format is its emitter's file and one line here (with its
 * declaration, when nothing else calls it): the command line's --format,
 * --list-formats, help, did-you-mean, the shell completion and the man
 * page all read this table.
 */
#include "emit/emit.h"

const ddbc_export_format ddbc_export_formats[] = {
	{ .name = "create-table", .help = "one CreateTable request per table, for aws dynamodb create-table",
	  .fn = ddbc_emit_create_table },
	{ .name = "model", .help = "the normalized design with every derived fact",
	  .fn = ddbc_emit_model },
	{ .name = "queries", .help = "one API request per access pattern",
	  .fn = ddbc_emit_queries },
	{ .name = "cloudformation", .help = "a CloudFormation template, one AWS::DynamoDB::Table per table",
	  .fn = ddbc_emit_cloudformation },
	{ .name = "terraform", .help = "Terraform JSON (*.tf.json), one aws_dynamodb_table per table",
	  .fn = ddbc_emit_terraform },
	{ .name = "workbench", .help = "a NoSQL Workbench data model, one facet per entity",
	  .fn = ddbc_emit_workbench },
	{ .name = NULL },
};

const ddbc_doc_format ddbc_doc_formats[] = {
	{ .name = "md", .help = "GitHub-flavoured Markdown", .fn = ddbc_emit_md },
	{ .name = "html", .help = "one styled HTML page (with -o DIR/, a site)",
	  .fn = ddbc_emit_html },
	{ .name = NULL },
};
