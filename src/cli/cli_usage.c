/* cli_usage.c - the commands' help texts */
#include "cli/cli_aws.h"
#include "cli/cli_usage.h"
#include "util/strbuf.h"

#include <stdbool.h>
#include <string.h>

#include "config.h"

const char ddbc_usage_main[] =
	"usage: ddbc COMMAND [OPTIONS] FILE...\n"
	"\n"
	"ddbc checks DynamoDB table designs written in YAML and compiles them.\n"
	"\n"
	"commands:\n"
	"  lint         check designs; nothing written\n"
	"  doc          write the design's documentation (Markdown or HTML)\n"
	"  header       write a C header of key builders and name constants\n"
	"  keys         write key builders for TypeScript, Python or Go\n"
	"  export       write CreateTable requests, the model or query requests as JSON\n"
	"  cost         the capacity units and monthly cost of every access pattern\n"
	"  check-items  validate items (a scan or an export) against the design\n"
	"  diff         what a change of a design does to deployed tables and items\n"
	"  sample       write made-up items of every entity, which check-items passes\n"
	"  verify       prove the access patterns on a running DynamoDB or emulator\n"
	"  migrate      carry out the plan's item steps on stored items, resumably\n"
	"  import       write a design from a Workbench model, a CloudFormation\n"
	"               template, described tables or an MCP server schema\n"
	"  explain      list the rules, or show one rule's page\n"
	"  lsp          a language server for editors, on standard input and output\n"
	"  init         write a commented starter design that lints clean\n"
	"\n"
	"options:\n"
	"  -h, --help     show this help ('ddbc COMMAND --help' for a command)\n"
	"      --version  show the version\n"
	"\n"
	"Every command checks the design first and writes nothing when it has an error.\n"
	"exit status: 0 success, 1 errors found (or warnings with --werror, or items\n"
	"that failed), 2 usage error, unreadable file or a file that is no design\n";

#define COMMON_HELP \
	"      --color WHEN        colour the findings: auto (default: on a terminal,\n" \
	"                          unless NO_COLOR is set), always or never\n"       \
	"      --rule RULE=SEV     set a rule's severity: off, note, warning or error\n" \
	"                          (repeatable; wins over the design's lint.rules)\n"  \
	"      --werror            treat warnings as errors\n"                          \
	"      --min-severity SEV  print only findings of SEV (note, warning or error)\n" \
	"                          or worse; the others still count\n"               \
	"  -q, --quiet             print no notes: --min-severity warning\n"          \
	"      --show-suppressed   also print the findings that ddbc-ignore comments\n" \
	"                          suppress, marked (they never count)\n"             \
	"  -h, --help              show this help\n"

#define OUTPUT_HELP \
	"  -o, --output FILE       write to FILE (atomically) instead of standard output\n"

const char ddbc_usage_lint[] =
	"usage: ddbc lint [OPTIONS] FILE...\n"
	"\n"
	"Checks each design and prints every finding, sorted by position.\n"
	"\n"
	"options:\n"
	"      --format FMT        text (default), json, sarif or github\n"
	"      --list-formats      list the formats and what each writes\n"
	"      --target FMT        the design goes to export --format FMT: what that\n"
	"                          format cannot hold or needs is an error: a\n"
	"                          parameter without a value for queries, a\n"
	"                          multi-attribute key for workbench (repeatable)\n"
	COMMON_HELP;

const char ddbc_usage_doc[] =
	"usage: ddbc doc [OPTIONS] FILE\n"
	"\n"
	"Writes the design's documentation: a diagram, per table its keys, indexes,\n"
	"index map and item views, per entity its attribute table and examples, and\n"
	"the access patterns with their requests and the items they return.\n"
	"\n"
	"options:\n"
	"      --format FMT        @FORMATS@\n"
	"      --list-formats      list the formats and what each writes\n"
	"  -o, --output DIR/      html: index.html and one page per table in DIR\n"
	"      --check DOC         exit 1 if DOC is not what this command writes now\n"
	"                          (the format follows DOC's .html or .md name)\n"
	"      --lang LANG         the language of the labels: @LANGS@\n"
	"      --list-langs        list the languages and what each writes\n"
	"      --template DIR      a folder with page.html and style.css for html\n"
	"                          (default: the folder named by the environment\n"
	"                          variable DDBC_TEMPLATE_DIR, else the built-in)\n"
	OUTPUT_HELP COMMON_HELP;

const char ddbc_usage_header[] =
	"usage: ddbc header [OPTIONS] FILE\n"
	"\n"
	"Writes a C header with a builder for every key template and constants for\n"
	"table, index and attribute names.\n"
	"\n"
	"options:\n"
	"      --prefix ID         the prefix of every name (default: from the design\n"
	"                          name)\n"
	OUTPUT_HELP COMMON_HELP;

const char ddbc_usage_keys[] =
	"usage: ddbc keys --lang LANG [OPTIONS] FILE\n"
	"\n"
	"Writes a TypeScript, Python or Go module with the C header's names: per key\n"
	"a builder, a parser, its begins_with prefix and range-bound helpers; type\n"
	"guards that tell items apart as check-items does; and per access pattern,\n"
	"read or write, a function returning the request export --format queries\n"
	"writes. Numbers are exact decimals, an enum's values a type, and a key over\n"
	"DynamoDB's length limits is refused.\n"
	"\n"
	"options:\n"
	"      --lang LANG         @LANGS@\n"
	"      --list-langs        list the languages and what each writes\n"
	"      --module NAME       the module's name, the Go package (default: from the\n"
	"                          design name)\n"
	OUTPUT_HELP COMMON_HELP;

const char ddbc_usage_export[] =
	"usage: ddbc export [OPTIONS] FILE\n"
	"\n"
	"Writes JSON: CreateTable requests, the normalized model, one request per\n"
	"access pattern, a CloudFormation template or Terraform JSON (*.tf.json)\n"
	"that create the tables, or a NoSQL Workbench data model.\n"
	"\n"
	"options:\n"
	"      --format FMT        @FORMATS@\n"
	"      --list-formats      list the formats and what each writes\n"
	"      --param NAME=VALUE  a value for a query parameter (repeatable)\n"
	"      --compact           JSON on one line, without indentation\n"
	OUTPUT_HELP COMMON_HELP;

const char ddbc_usage_cost[] =
	"usage: ddbc cost [OPTIONS] FILE\n"
	"\n"
	"Writes the read and write units of every access pattern on the table and\n"
	"each index (a query's or scan's over the pages of its items: and limit:),\n"
	"the units of one write of every entity, storage, and with the patterns'\n"
	"rate and the entities' count the monthly cost, on demand and provisioned,\n"
	"with the assumptions it makes. Sizes print in KiB, MiB, GiB; JSON keeps bytes.\n"
	"\n"
	"options:\n"
	"      --format FMT        @FORMATS@\n"
	"      --list-formats      list the formats and what each writes\n"
	"      --prices FILE       a JSON price table instead of the compiled-in one\n"
	"                          (us-east-1; its shape in the format documentation)\n"
	OUTPUT_HELP COMMON_HELP;

const char ddbc_usage_items[] =
	"usage: ddbc check-items [OPTIONS] FILE ITEMS...\n"
	"       ddbc check-items [OPTIONS] --table NAME FILE\n"
	"       ddbc check-items --merge RESULT.json...\n"
	"\n"
	"Validates items against the design. ITEMS is a JSON array, JSON lines, a\n"
	"scan result ({\"Items\": [...]}), DynamoDB export lines ({\"Item\": {...}}), a\n"
	"BatchWriteItem request file ({\"Table\": [{\"PutRequest\": ...}]}), any of\n"
	"them gzip-compressed, or the folder of a DynamoDB export to S3; \"-\" reads\n"
	"standard input; with --table, the items stored in the table, read by a\n"
	"Scan in -j parallel segments. Prints one line per finding, then 'N items:\n"
	"N ok, N failed, N unmatched' and the findings by kind. The shapes, the\n"
	"matching of items to entities and the JSON output are described in\n"
	"check-items.md, installed in\n"
	/* On a line of its own: an install folder may be of any length. */
	"  " DDBC_DOCDIR "\n"
	"\n"
	"options:\n"
	"      --format FMT        text (default) or json\n"
	"      --list-formats      list the formats and what each writes\n"
	"  -j, --jobs N            check N files at once (the output is the same);\n"
	"                          with --table, scan the table in N segments\n"
	"      --table NAME        check the items stored in table NAME\n"
	"      --max-findings N    write at most N findings, 0: none (all are counted)\n"
	"      --rule KIND=SEV     off, note, warning or error for a kind of item\n"
	"                          finding (ddbc explain lists them) or a rule\n"
	"      --merge             add up --format json results of separate runs\n"
	"                          (text or json out)\n"
	AWS_HELP OUTPUT_HELP COMMON_HELP;

const char ddbc_usage_sample[] =
	"usage: ddbc sample [OPTIONS] FILE\n"
	"\n"
	"Writes made-up items of every entity of the design: keys rendered from\n"
	"their templates, values of each attribute's type, enum and format (ULID,\n"
	"UUID, ISO 8601, epoch seconds, email), optional attributes in some items\n"
	"only, the entities' count: figures scaled down to --count. Every item\n"
	"passes check-items; the same seed gives the same items.\n"
	"\n"
	"options:\n"
	"      --count N           items in all (default 100)\n"
	"      --seed S            the random seed (default 0)\n"
	"      --format FMT        @FORMATS@\n"
	"      --list-formats      list the formats and what each writes\n"
	OUTPUT_HELP COMMON_HELP;

const char ddbc_usage_verify[] =
	"usage: ddbc verify [OPTIONS] --endpoint URL FILE\n"
	"\n"
	"Writes items to the design's tables on a running engine and sends every\n"
	"access pattern's request with values from them: a query must return\n"
	"exactly the items the design says, of the entities the pattern names, a\n"
	"get its item, a conditional put or delete must fail the second time;\n"
	"with --capacity the consumed capacity must equal ddbc cost's units. The\n"
	"items are deleted at the end. Reports each pattern; exit status 1 on any\n"
	"difference.\n"
	"\n"
	"options:\n"
	"      --create            create the tables first, and wait for them\n"
	"      --items FILE        write these items (DynamoDB JSON lines, or sample\n"
	"                          --format batch lines; - reads standard input)\n"
	"                          instead of sample items\n"
	"      --count N           sample items to write (default 100)\n"
	"      --seed S            the sample's random seed (default 0)\n"
	"      --capacity          compare ConsumedCapacity with ddbc cost's units\n"
	"      --yes               write to an endpoint that is not on this machine\n"
	"      --in-place          the tables already hold the items (read by Scan,\n"
	"                          or --items says what they hold): write nothing,\n"
	"                          send only the reads; each must also find the item\n"
	"                          its values came from\n"
	"      --pattern ID        only this access pattern (repeatable)\n"
	"      --format FMT        @FORMATS@\n"
	"      --list-formats      list the formats and what each writes\n"
	AWS_HELP OUTPUT_HELP COMMON_HELP;

const char ddbc_usage_migrate[] =
	"usage: ddbc migrate [OPTIONS] (--table NAME | --items PATH) OLD NEW\n"
	"       ddbc migrate [OPTIONS] (--table NAME | --items PATH) --against REV FILE\n"
	"\n"
	"Carries out the item steps of the plan from OLD to NEW (ddbc diff --format\n"
	"plan): each stored item is matched to its OLD entity as check-items does,\n"
	"and the attributes NEW needs are rendered from its own values through NEW's\n"
	"templates (key parts that are not stored are split out of its OLD keys).\n"
	"Each write is conditional on the values read (an item changed meanwhile is\n"
	"read again); a new primary key is a TransactWriteItems of a Put and a\n"
	"Delete. Items already in NEW's shape are left alone: a second run writes\n"
	"nothing. Without --apply the requests are written (-o), one JSON object a\n"
	"line. exit status 1 when an item cannot be migrated (each named, with\n"
	"why); 2 when NEW is not reached by rewriting items (a new table).\n"
	"\n"
	"options:\n"
	"      --against REV       OLD is FILE as git holds it at revision REV\n"
	"      --step N            only item step N of the plan\n"
	"      --table NAME        read the items by Scan of table NAME\n"
	"      --items PATH        read the items of an export folder or a file of\n"
	"                          DynamoDB JSON lines ('-': standard input)\n"
	"      --apply             write to the table (conditional writes)\n"
	"      --dry-run           count what would be written; write nothing\n"
	"  -o, --output FILE       write the requests there, one JSON object a line\n"
	"      --checkpoint FILE   record progress there and resume from it\n"
	"      --max-units N       write units per second at most\n"
	"  -j, --jobs N            Scan segments run at once (default 1)\n"
	"      --segment I         run only Scan segment I (from 0) ...\n"
	"      --segments N        ... of N: machines share one migration\n"
	"      --yes               write to an endpoint that is not on this machine\n"
	AWS_HELP COMMON_HELP;

const char ddbc_usage_diff[] =
	"usage: ddbc diff [OPTIONS] OLD NEW\n"
	"       ddbc diff [OPTIONS] --against REV FILE...\n"
	"       ddbc diff [OPTIONS] --from describe-table LIVE.json... NEW\n"
	"       ddbc diff [OPTIONS] --live [--table NAME]... NEW\n"
	"\n"
	"Reports each change from OLD to NEW as a finding of its change class:\n"
	"errors break deployed tables or stored items, warnings need a plan, notes\n"
	"are safe. With --against, OLD is FILE as git holds it at revision REV\n"
	"(in a FILE added since REV, or in a first commit, everything is added).\n"
	"With --format plan, the steps to deploy the change, each with what it\n"
	"needs done before it and what it makes true. With --from, OLD is the\n"
	"deployed tables as 'aws dynamodb describe-table' gave them: only what\n"
	"they hold (keys, indexes, billing) is compared. With --live, OLD is the\n"
	"tables deployed at the endpoint, described (TTL too) and compared so.\n"
	"Both designs are checked first; an error in NEW stops the diff.\n"
	"A change made on purpose is acknowledged in NEW by a comment on the line\n"
	"it points at: # ddbc-ignore: RULE -- reason (it then does not count).\n"
	"\n"
	"options:\n"
	"      --against REV       compare FILE with FILE at git revision REV\n"
	"      --from describe-table  OLD is the described live tables (drift)\n"
	"      --live              OLD is the tables deployed at the endpoint (drift)\n"
	"      --table NAME[=DEPLOYED]  with --live: describe only this table\n"
	"                          (repeatable), deployed as DEPLOYED if given\n"
	"      --all               also report description and format changes\n"
	"      --format FMT        text (default), json, sarif, github, or plan: the\n"
	"                          deployment steps as JSON (findings go to stderr)\n"
	"      --list-formats      list the formats and what each writes\n"
	AWS_HELP OUTPUT_HELP COMMON_HELP;

const char ddbc_usage_import[] =
	"usage: ddbc import --from SOURCE [OPTIONS] FILE...\n"
	"\n"
	"Writes a design from other descriptions of the tables: a NoSQL Workbench\n"
	"data model (workbench), a CloudFormation, SAM or CDK-synthesized template or\n"
	"a Serverless Framework service in YAML or JSON (cloudformation), the output\n"
	"of 'aws dynamodb describe-table', one file per table, or CreateTable requests\n"
	"(--cli-input-json files, or the array export writes) (describe-table), or\n"
	"the schema.json of the DynamoDB MCP server (mcp), or a data-access\n"
	"library's model: a OneTable schema (onetable), or the JSON of ElectroDB or\n"
	"DynamoDB-Toolbox v2 entities that docs/import.md's node command prints\n"
	"(electrodb, dynamodb-toolbox).\n"
	"Key templates that only sample items show are recovered where every sample\n"
	"agrees and marked by a comment. A FILE of - is read from standard input.\n"
	"\n"
	"options:\n"
	"      --from SOURCE       @SOURCES@\n"
	"      --list-sources      list the sources and what each reads\n"
	"      --param NAME=VALUE  a template parameter's value, or a Serverless\n"
	"                          Framework variable's (opt:stage=prod; repeatable)\n"
	OUTPUT_HELP
	"  -h, --help              show this help\n";

const char ddbc_usage_explain[] =
	"usage: ddbc explain [RULE]\n"
	"\n"
	"Without RULE, lists every rule with its default severity and summary, then\n"
	"the kinds of check-items findings. With RULE (or KIND), prints its page: what\n"
	"it checks, why, a failing and a passing example.\n"
	"The pages are part of ddbc; the environment variable DDBC_RULES_DIR names\n"
	"a folder to read them from instead.\n"
	"\n"
	"options:\n"
	"  -h, --help              show this help\n";

const char ddbc_usage_lsp[] =
	"usage: ddbc lsp [OPTIONS]\n"
	"\n"
	"Serves the Language Server Protocol on standard input and output: the\n"
	"findings of every open design as it is typed (the same as 'ddbc lint'),\n"
	"the rule page on hover, go to definition, completion and quick fixes.\n"
	"docs/editors.md sets it up in Neovim, VS Code, Helix and Emacs.\n"
	"exit status: 0 after the client's shutdown, else 1\n"
	"\n"
	"options:\n"
	"      --rule RULE=SEV     set a rule's severity: off, note, warning or error\n"
	"                          (repeatable; the client's settings may add more)\n";

const char ddbc_usage_init[] =
	"usage: ddbc init [NAME] [-o FILE]\n"
	"\n"
	"Writes a commented starter design named NAME (default: the current folder's\n"
	"name, else 'design'): a table, a GSI, a sparse index, two entities with\n"
	"example items and three access patterns, which lints clean and which every\n"
	"command takes. It goes to NAME.ddb.yaml, or FILE ('-': standard output); a\n"
	"file that exists is never overwritten (exit status 2, nothing written).\n"
	"NAME: a letter, then letters, digits, '-' and '_', at most 64 in all.\n"
	"\n"
	"options:\n"
	"  -o, --output FILE       write to FILE instead of NAME.ddb.yaml\n"
	"  -h, --help              show this help\n";

/* Appends words, wrapped at 80 columns after the option column. */
static void put_words(strbuf *out, ddbc_words w, const char *note, size_t *col)
{
	strbuf all = STRBUF_INIT;
	ddbc_words_join(&all, w, note);
	const char *s = ddbc_strbuf_str(&all);
	while (*s) {
		size_t len = strcspn(s, " ");
		if (*col + len > 79) {
			/* the trailing blank before the break goes */
			if (out->len && out->buf[out->len - 1] == ' ')
				out->buf[--out->len] = '\0';
			ddbc_strbuf_addstr(out, "\n                          ");
			*col = 26;
		}
		ddbc_strbuf_add(out, s, len);
		*col += len;
		s += len;
		if (*s == ' ') {
			ddbc_strbuf_addch(out, ' ');
			(*col)++;
			s++;
		}
	}
	ddbc_strbuf_release(&all);
}

void ddbc_usage_print(FILE *out, const char *usage, ddbc_words formats, ddbc_words sources,
		      ddbc_words langs)
{
	strbuf sb = STRBUF_INIT;
	size_t col = 0;
	for (const char *s = usage; *s;) {
		bool f = !strncmp(s, "@FORMATS@", 9), src = !strncmp(s, "@SOURCES@", 9);
		bool lang = !strncmp(s, "@LANGS@", 7);
		if ((f && formats.rows) || (src && sources.rows)) {
			put_words(&sb, f ? formats : sources, f ? " (default)" : NULL, &col);
			s += 9;
			continue;
		}
		if (lang && langs.rows) {
			put_words(&sb, langs, " (default)", &col);
			s += 7;
			continue;
		}
		ddbc_strbuf_addch(&sb, *s);
		col = *s == '\n' ? 0 : col + 1;
		s++;
	}
	fputs(ddbc_strbuf_str(&sb), out);
	ddbc_strbuf_release(&sb);
}
