/* cli_live.c - `ddbc sample` and `ddbc verify` (cli_live.h) */
#include "cli/cli_live.h"
#include "cli/cli_aws.h"
#include "live/sample.h"
#include "live/verify.h"
#include "util/output.h"
#include "util/error.h"
#include "util/strbuf.h"

#include <string.h>
#include <unistd.h>

/* Items in all when --count is not given. */
#define DEFAULT_COUNT 100

const ddbc_word ddbc_sample_formats[] = {
	{ "jsonl", "DynamoDB JSON lines {\"Item\": {...}}, as an export to S3" },
	{ "batch", "BatchWriteItem request items, 25 puts a line: {\"TABLE\": [...]}" },
	{ NULL, NULL },
};

ddbc_emit_result ddbc_cli_sample(FILE *out, const ddbc_design *g, const struct opts *o)
{
	ddbc_sample_opts so = { o->count_given ? o->count : DEFAULT_COUNT, o->seed };
	ddbc_sample s;
	strbuf err = STRBUF_INIT;
	ddbc_emit_result r = DDBC_EMIT_OK;
	if (ddbc_sample_make(g, &so, &s, &err) < 0) {
		ddbc_error("%s", ddbc_strbuf_str(&err));
		r = DDBC_EMIT_FAILED;
	} else {
		/* one line a note */
		for (const char *at = ddbc_strbuf_str(&s.notes); *at; at += strcspn(at, "\n") + 1)
			ddbc_note("sample", "%.*s", (int)strcspn(at, "\n"), at);
		if (ddbc_sample_write(out, &s, strcmp(o->format, "batch") ? DDBC_SAMPLE_JSONL
									     : DDBC_SAMPLE_BATCH) < 0)
			r = DDBC_EMIT_FAILED;
	}
	ddbc_sample_release(&s);
	ddbc_strbuf_release(&err);
	return r;
}

const ddbc_word ddbc_verify_formats[] = {
	{ "text", "a line per difference, then a line per pattern" },
	{ "json", "one JSON document" },
	{ "sarif", "SARIF 2.1.0, for code scanning" },
	{ NULL, NULL },
};

exit_status ddbc_cli_verify(const ddbc_design *g, const char *file, const struct opts *o)
{
	if (o->items_file && (o->count_given || o->seed)) {
		ddbc_cli_usage_error("verify", "%s", "--items writes the file's items: leave out --count "
				"and --seed");
		return EXIT_USAGE;
	}
	if (o->in_place && (o->create || o->count_given || o->seed)) {
		ddbc_cli_usage_error("verify", "%s", "--in-place checks the items the tables hold: leave "
				"out --create, --count and --seed");
		return EXIT_USAGE;
	}
	ddbc_verify_opts vo = {
		.create = o->create, .capacity = o->capacity,
		.yes = o->yes, .items_file = o->items_file,
		.count = o->count_given ? o->count : DEFAULT_COUNT, .seed = o->seed,
		.format = !strcmp(o->format, "json") ? DDBC_VERIFY_JSON
			  : !strcmp(o->format, "sarif") ? DDBC_VERIFY_SARIF : DDBC_VERIFY_TEXT,
		.progress = isatty(STDERR_FILENO),
		.in_place = o->in_place,
		.patterns = o->npatterns ? o->patterns : NULL, .npatterns = o->npatterns,
	};
	ddbc_dynamo *c = ddbc_cli_dynamo_open(o);
	ddbc_output out;
	if (!c || ddbc_output_open(&out, o->output) < 0) {
		ddbc_dynamo_close(c);
		return EXIT_USAGE;
	}
	ddbc_verify_result r = ddbc_verify(out.f, c, g, file, &vo);
	ddbc_dynamo_close(c);
	if (r == DDBC_VERIFY_FAILED) {
		/* JSON and SARIF still say why on standard output; a named output
		 * is not written. */
		if (!o->output && vo.format != DDBC_VERIFY_TEXT)
			ddbc_output_commit(&out);
		else
			ddbc_output_abort(&out);
		return EXIT_USAGE;
	}
	if (ddbc_output_commit(&out) < 0)
		return EXIT_USAGE;
	return r == DDBC_VERIFY_DIFFERS ? EXIT_FINDINGS : EXIT_OK;
}
