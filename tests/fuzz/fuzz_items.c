/* fuzz_items.c - libFuzzer target: arbitrary bytes as check-items input
 *
 * The design is samples/stamp-rally.ddb.yaml (read once; its path comes
 * from DDBC_FUZZ_DESIGN); the bytes are the items, in any of the shapes
 * check-items detects, gzip or not. Built by `make fuzz`; run by `make fuzz-items-run`.
 */
#include "rules/check.h"
#include "items/items.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static ddbc_source *src;
static ddbc_design *design;

static void load_design(void)
{
	const char *path = getenv("DDBC_FUZZ_DESIGN");
	src = ddbc_source_read(path ? path : "samples/stamp-rally.ddb.yaml");
	if (!src)
		abort();
	ddbc_settings cli;
	ddbc_settings_init(&cli);
	ddbc_diags d;
	ddbc_diags_init(&d);
	design = ddbc_check(src, &d, &cli);
	ddbc_diags_release(&d);
	if (!design)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!design)
		load_design();
	FILE *in = fmemopen((void *)data, size ? size : 1, "rb");
	if (!in)
		return 0;
	if (!size)
		fgetc(in);
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	FILE *err = fopen("/dev/null", "w");
	FILE *saved = stderr;
	stderr = err;
	ddbc_items_opts o;
	ddbc_items_opts_init(&o);
	ddbc_check_items_stream(out, design, in, "fuzz.json", &o);
	rewind(in);
	o.format = DDBC_ITEMS_JSON;
	o.max_findings = 3;
	ddbc_check_items_stream(out, design, in, "fuzz.json", &o);
	stderr = saved;
	fclose(err);
	fclose(out);
	fclose(in);
	free(buf);
	return 0;
}
