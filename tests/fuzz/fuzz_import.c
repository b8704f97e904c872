/* fuzz_import.c - libFuzzer target: arbitrary bytes as an import source
 *
 * The first byte picks the source (workbench, cloudformation,
 * describe-table, mcp, onetable, electrodb, dynamodb-toolbox); the rest is
 * the file. When the importer takes it,
 * the design it writes must load (no fatal finding), and the YAML it wrote
 * must read back as exactly the tree it wrote (import_int.h): a member
 * planted, lost or changed (a newline or U+2028 in a name written raw, a
 * comment escaping its line) aborts. Built by `make fuzz`; run by
 * `make fuzz-import-run`, seeded with every import fixture.
 *
 * The file is serverless.yml in a folder of its own, beside the files a
 * Serverless ${file(...)} may name (tests/fuzz/sls seeds name them): a
 * resources fragment, a name, text with a NUL, a sparse file over the
 * 1 MiB bound, a folder, and the service itself. No FIFO: a run must not
 * wait on one (nolose.test proves a FIFO is refused at once).
 */
#include "import/import_int.h"
#include "rules/check.h"
#include "util/decimal.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64], path[96];

static const char *const include_names[] = { "inc.yml", "inc.json", "name.txt", "nul.txt",
					      "empty.yml", "big.txt", "serverless.yml" };

/* The folder goes when the fuzzer ends. */
static void remove_includes(void)
{
	char p[160];
	for (size_t i = 0; i < sizeof(include_names) / sizeof(include_names[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, include_names[i]);
		unlink(p);
	}
	snprintf(p, sizeof(p), "%s/sub", dir);
	rmdir(p);
	rmdir(dir);
}

/* The files beside the input that ${file(...)} reads. */
static void make_includes(void)
{
	static const char fragment[] =
		"Resources:\n  Inc:\n    Type: AWS::DynamoDB::Table\n    Properties:\n"
		"      TableName: inc\n      BillingMode: PAY_PER_REQUEST\n"
		"      AttributeDefinitions: [{AttributeName: pk, AttributeType: S}]\n"
		"      KeySchema: [{AttributeName: pk, KeyType: HASH}]\n";
	static const struct { const char *name, *text; size_t len; } files[] = {
		{ "inc.yml", fragment, 0 },
		{ "inc.json", "{\"table\": {\"name\": \"fromjson\"}}", 0 },
		{ "name.txt", "Orders", 0 },
		{ "nul.txt", "abc\0def", 7 },   /* the one with a length: it holds a NUL */
		{ "empty.yml", "", 0 },
	};
	char p[160];
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, files[i].name);
		size_t n = files[i].len ? files[i].len : strlen(files[i].text);
		FILE *f = fopen(p, "wb");
		if (!f || fwrite(files[i].text, 1, n, f) != n || fclose(f))
			abort();
	}
	snprintf(p, sizeof(p), "%s/big.txt", dir);
	if (truncate(p, 0) < 0) {
		FILE *f = fopen(p, "wb");
		if (f)
			fclose(f);
	}
	if (truncate(p, (1 << 20) + 1) < 0)
		abort();
	snprintf(p, sizeof(p), "%s/sub", dir);
	mkdir(p, 0700);
}

/* Whether a and b are the same tree, numbers by value (the YAML reader
 * holds a decimal, and an integer of 18 digits or more, as its text). */
static int same(const json_t *a, const json_t *b)
{
	/* A number held as its own text (141.96, 38 digits) is written as
	 * that text: the reader gives it back as that text, or as an integer
	 * of that value (+5). */
	const char *text = ddbc_import_number_text(a), *back = ddbc_import_number_text(b);
	if (text && back)
		return !ddbc_decimal_cmp(text, strlen(text), back, strlen(back));
	if (text)
		return json_is_number(b) ? strtod(text, NULL) == json_number_value(b)
		       : json_is_string(b) && !strcmp(json_string_value(b), text);
	if (json_is_number(a) && json_is_number(b))
		return json_number_value(a) == json_number_value(b) ||
		       (isnan(json_number_value(a)) && isnan(json_number_value(b)));
	if (json_typeof(a) != json_typeof(b))
		return 0;
	if (json_is_string(a))
		return json_string_length(a) == json_string_length(b) &&
		       !memcmp(json_string_value(a), json_string_value(b), json_string_length(a));
	if (json_is_array(a)) {
		if (json_array_size(a) != json_array_size(b))
			return 0;
		for (size_t i = 0; i < json_array_size(a); i++)
			if (!same(json_array_get(a, i), json_array_get(b, i)))
				return 0;
		return 1;
	}
	if (json_is_object(a)) {
		if (json_object_size(a) != json_object_size(b))
			return 0;
		const char *k;
		const json_t *v;
		json_object_foreach((json_t *)a, k, v) {
			const json_t *w = json_object_get(b, k);
			if (!w || !same(v, w))
				return 0;
		}
	}
	return 1;
}

/* The design text must load as a design. */
static void check_loads(const char *text, size_t len)
{
	ddbc_source *src = ddbc_source_from_memory("imported.ddb.yaml", text, len);
	ddbc_settings cli;
	ddbc_settings_init(&cli);
	ddbc_diags d;
	ddbc_diags_init(&d);
	ddbc_design *g = ddbc_check(src, &d, &cli);
	int fatal = d.fatal || !g;
	if (fatal) {
		fprintf(stdout, "the imported design does not load:\n%.*s\n", (int)len, text);
		abort();
	}
	ddbc_design_free(g);
	ddbc_diags_release(&d);
	ddbc_source_free(src);
}

/* The YAML read back (by the template reader: YAML's core schema) must
 * be the tree that was written. */
static void check_reads_back(const json_t *tree, const char *text, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0)
		abort();
	json_t *back = ddbc_import_load_template(path);
	if (!back || !same(tree, back)) {
		char *want = json_dumps(tree, JSON_COMPACT);
		fprintf(stdout, "the written design reads back as another tree:\n%.*s\nwas:\n%s\n",
			(int)len, text, want ? want : "?");
		abort();
	}
	json_decref(back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static size_t nsources;
	if (!nsources)
		while (ddbc_import_sources[nsources].name)
			nsources++;
	if (size < 1)
		return 0;
	if (!path[0]) {
		snprintf(dir, sizeof(dir), "/tmp/ddbc-fuzz-import.%ld", (long)getpid());
		mkdir(dir, 0700);
		snprintf(path, sizeof(path), "%s/serverless.yml", dir);
		make_includes();
		atexit(remove_includes);
	}
	FILE *f = fopen(path, "wb");
	if (!f)
		abort();
	fwrite(data + 1, 1, size - 1, f);
	fclose(f);
	FILE *err = fopen("/dev/null", "w"), *saved = stderr;
	stderr = err;
	char *files[] = { path, NULL };
	/* The first byte chooses the source, a row of the table. */
	ddbc_import_run run;
	ddbc_import_run_init(&run, &ddbc_import_sources[data[0] % nsources], NULL, 0);
	json_t *tree = ddbc_import_tree(&run, files, 1);
	if (tree) {
		char *text = NULL;
		size_t len = 0;
		FILE *out = open_memstream(&text, &len);
		ddbc_import_write_yaml(&run, out, tree);
		fclose(out);
		check_loads(text, len);
		check_reads_back(tree, text, len);
		free(text);
		json_decref(tree);
	}
	ddbc_import_run_release(&run);
	stderr = saved;
	fclose(err);
	unlink(path);
	return 0;
}
