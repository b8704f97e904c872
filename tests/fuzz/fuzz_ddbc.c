/* fuzz_ddbc.c - libFuzzer target: arbitrary bytes through every phase
 *
 * The bytes are a design file: loaded, checked by every rule (all rules on,
 * missing-description included), then, whatever the findings, sent through
 * every printer and every emitter into memory. Nothing may crash, hang,
 * leak or trip a sanitizer. Built by `make fuzz`; run by `make fuzz-run`.
 */
#include "rules/check.h"
#include "emit/emit.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static void print_all(const ddbc_diags *d)
{
	for (int f = DDBC_DIAG_TEXT; f <= DDBC_DIAG_GITHUB; f++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *out = open_memstream(&buf, &len);
		ddbc_print_opts opts = { (ddbc_diag_format)f, f == DDBC_DIAG_TEXT, 1, DDBC_SEV_OFF };
		ddbc_diags_print(out, d, &opts);
		fclose(out);
		free(buf);
	}
}

static void emit_all(const ddbc_design *g, ddbc_diags *d)
{
	static const ddbc_param params[] = { { "id", "1" } };
	ddbc_doc_opts en = { DDBC_LANG_EN, NULL }, ja = { DDBC_LANG_JA, NULL };
	ddbc_header_opts h = { NULL };
	ddbc_export_opts x = { params, 1 };
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	FILE *err = fopen("/dev/null", "w");
	FILE *saved = stderr;
	stderr = err;
	ddbc_emit_md(out, g, &en, d);
	ddbc_emit_md(out, g, &ja, d);
	ddbc_emit_html(out, g, &en, d);
	ddbc_emit_header(out, g, &h, d);
	ddbc_emit_create_table(out, g, &x, d);
	ddbc_emit_model(out, g, &x, d);
	ddbc_emit_queries(out, g, &x, d);
	stderr = saved;
	fclose(err);
	fclose(out);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ddbc_source *src = ddbc_source_from_memory("fuzz.ddb.yaml", (const char *)data, size);
	ddbc_settings cli;
	ddbc_settings_init(&cli);
	cli.sev[DDBC_RULE_MISSING_DESCRIPTION] = DDBC_SEV_NOTE;
	ddbc_diags d;
	ddbc_diags_init(&d);
	ddbc_design *g = ddbc_check(src, &d, &cli);
	print_all(&d);
	if (g)
		emit_all(g, &d);
	ddbc_design_free(g);
	ddbc_diags_release(&d);
	ddbc_source_free(src);
	return 0;
}
