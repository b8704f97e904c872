/* check_items_scale.c - check-items on real exports: gzip, BatchWriteItem
 * files, export folders, -j, --max-findings, --rule, --merge, the kinds'
 * pages
 *
 * The "done when" of these inputs: every shape gives the results of the
 * same items as plain JSON; -j N gives the output of -j 1; merged results
 * equal one run over all the files. The fixtures (batch.json and
 * export-folder/) are written by tests/fixtures/items/make-shapes.py in
 * AWS's documented layouts; gzip copies are made here with zlib.
 */
#define _GNU_SOURCE 1
#include "items/items_run.h"
#include "diag/item_kinds.h"
#include "util/strbuf.h"
#include "testutil.h"

#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#define STAMP "samples/stamp-rally.ddb.yaml"
#define MULTI "samples/assessment-multi.ddb.yaml"
#define FIX "tests/fixtures/items/"
#define FOLDER FIX "export-folder"
#define EXPORT_DIR FOLDER "/AWSDynamoDB/01717171717171-a1b2c3d4"

/* ---- helpers ------------------------------------------------------------------------ */

static void run_argv(tu_proc *p, const char *const *args)
{
	tu_run_argv(p, NULL, args);
}

/* A gzip copy of the source-tree file rel in /tmp, in `members` members;
 * the path is the caller's. */
static char *gzip_copy(const char *rel, int members)
{
	char *src = tu_srcpath(rel);
	size_t len;
	char *data = tu_read_file(src, &len);
	char *path = strdup("/tmp/ddbc-gz-XXXXXX");
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	FILE *f = fopen(path, "wb");
	size_t cut = len / (size_t)members;
	for (int m = 0; m < members; m++) {
		size_t from = cut * (size_t)m, to = m == members - 1 ? len : cut * (size_t)(m + 1);
		uLongf cap = compressBound(to - from) + 32;
		unsigned char *buf = malloc(cap);
		z_stream z;
		memset(&z, 0, sizeof(z));
		ck_assert_int_eq(deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8,
					      Z_DEFAULT_STRATEGY), Z_OK);
		z.next_in = (unsigned char *)data + from;
		z.avail_in = (uInt)(to - from);
		z.next_out = buf;
		z.avail_out = (uInt)cap;
		ck_assert_int_eq(deflate(&z, Z_FINISH), Z_STREAM_END);
		fwrite(buf, 1, cap - z.avail_out, f);
		deflateEnd(&z);
		free(buf);
	}
	fclose(f);
	free(data);
	free(src);
	return path;
}

/* out with every line's "FILE:L:C: " cut, and "item N" numbers kept: what
 * the findings say, whatever the shape. */
static char *messages(const char *out)
{
	strbuf sb = STRBUF_INIT;
	for (const char *p = out; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p + 1) : strlen(p);
		const char *m = strstr(p, ": error: ");
		if (!m || m > p + len)
			m = strstr(p, ": note: ");
		if (m && m < p + len)
			ddbc_strbuf_add(&sb, m, (size_t)(p + len - m));
		else
			ddbc_strbuf_add(&sb, p, len);
		p += len;
	}
	return ddbc_strbuf_detach(&sb);
}

static json_t *parse_out(const tu_proc *p)
{
	json_error_t je;
	json_t *root = json_loadb(p->out, p->out_len, 0, &je);
	ck_assert_msg(root != NULL, "not JSON (%d:%d: %s):\n%s", je.line, je.column, je.text,
		      p->out);
	return root;
}

static int by_text(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The findings of a JSON result as sorted "kind|entity|attribute|message"
 * lines: what they say, whatever file or item number they are at. */
static char *finding_set(const json_t *root)
{
	size_t n = json_array_size(json_object_get(root, "findings"));
	char **lines = calloc(n + 1, sizeof(char *));
	size_t i;
	const json_t *f;
	json_array_foreach(json_object_get(root, "findings"), i, f) {
		const char *ent = json_string_value(json_object_get(f, "entity"));
		const char *attr = json_string_value(json_object_get(f, "attribute"));
		if (asprintf(&lines[i], "%s|%s|%s|%s",
			     json_string_value(json_object_get(f, "kind")), ent ? ent : "-",
			     attr ? attr : "-", json_string_value(json_object_get(f, "message"))) < 0)
			ck_abort();
	}
	qsort(lines, n, sizeof(char *), by_text);
	strbuf sb = STRBUF_INIT;
	for (i = 0; i < n; i++) {
		ddbc_strbuf_addf(&sb, "%s\n", lines[i]);
		free(lines[i]);
	}
	free(lines);
	return ddbc_strbuf_detach(&sb);
}

/* ---- gzip ------------------------------------------------------------------------------ */

static const char *const shapes[] = { "items.json", "items.jsonl", "typed-array.json",
	"scan.json", "export.json", "batch.json" };

START_TEST(test_gzip_every_shape)
{
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		strbuf rel = STRBUF_INIT;
		ddbc_strbuf_addf(&rel, FIX "%s", shapes[i]);
		for (int members = 1; members <= 3; members += 2) {
			char *gz = gzip_copy(rel.buf, members);
			tu_proc plain, zipped;
			tu_run(&plain, NULL, "check-items", STAMP, rel.buf, (char *)NULL);
			tu_run(&zipped, NULL, "check-items", STAMP, gz, (char *)NULL);
			char *renamed = tu_replace(zipped.out, gz, rel.buf);
			ck_assert_msg(zipped.status == plain.status, "%s", rel.buf);
			ck_assert_msg(!strcmp(renamed, plain.out), "%s gzip (%d members) says\n%s\n"
				      "plain\n%s", rel.buf, members, renamed, plain.out);
			free(renamed);
			tu_proc_free(&plain);
			tu_proc_free(&zipped);
			unlink(gz);
			free(gz);
		}
		ddbc_strbuf_release(&rel);
	}
}
END_TEST

/* Broken gzip data is bad input: exit 2, said where, no summary. */
START_TEST(test_gzip_broken)
{
	char *gz = gzip_copy(FIX "items.jsonl", 1);
	size_t len;
	char *data = tu_read_file(gz, &len);
	static const struct {
		size_t keep;      /* bytes kept; 0: all, with garbage after */
		int flip;         /* a byte inside the data changed */
		const char *error;
	} cases[] = {
		{ 40, 0, "the gzip data ends early (truncated?)" },
		{ 0, 0, "the gzip data is followed by bytes that are not gzip" },
		{ 0, 1, "the gzip data is corrupt" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		strbuf sb = STRBUF_INIT;
		ddbc_strbuf_add(&sb, data, cases[i].keep ? cases[i].keep : len);
		if (!cases[i].keep && !cases[i].flip)
			ddbc_strbuf_addstr(&sb, "garbage");
		if (cases[i].flip)
			sb.buf[len / 2] ^= 0x55;
		tu_write_file(gz, sb.buf, sb.len);
		tu_proc p;
		tu_run(&p, NULL, "check-items", STAMP, gz, (char *)NULL);
		ck_assert_msg(p.status == 2, "case %zu: exit %d", i, p.status);
		ck_assert_msg(tu_contains(p.err, p.err_len, cases[i].error), "case %zu: %s", i,
			      p.err);
		ck_assert(!tu_contains(p.out, p.out_len, " items: "));
		tu_proc_free(&p);
		ddbc_strbuf_release(&sb);
	}
	free(data);
	unlink(gz);
	free(gz);
}
END_TEST

/* A data file of an export in Amazon Ion format, text or binary, gzip or
 * not, is named as such. */
START_TEST(test_ion_named)
{
	static const char *const texts[] = { "$ion_1_0 {Item:{PK:\"a\",SK:\"b\"}}\n",
		"\xE0\x01\x00\xEA\xD3\x8A\x21\x01" };
	static const size_t lens[] = { 32, 8 };
	for (size_t i = 0; i < 2; i++) {
		char path[] = "/tmp/ddbc-ion-XXXXXX";
		close(mkstemp(path));
		gzFile f = gzopen(path, "wb");
		gzwrite(f, texts[i], (unsigned)lens[i]);
		gzclose(f);
		tu_proc p;
		tu_run(&p, NULL, "check-items", STAMP, path, (char *)NULL);
		ck_assert_int_eq(p.status, 2);
		ck_assert_msg(tu_contains(p.err, p.err_len, ":1:1: error: the input is Amazon Ion"),
			      "%s", p.err);
		tu_proc_free(&p);
		unlink(path);
	}
}
END_TEST

/* One item a line (as exports are): a line cut short is one malformed
 * item, not the end of the file, however much follows it; items written
 * over several lines are still read whole. */
START_TEST(test_cut_line)
{
	strbuf sb = STRBUF_INIT;
	for (int i = 0; i < 100000; i++)
		ddbc_strbuf_addf(&sb, i == 10 ? "{\"id\": %d, \"value\": [1,\n"
				: "{\"id\": %d, \"value\": 1}\n", i);
	char path[] = "/tmp/ddbc-cut-XXXXXX";
	close(mkstemp(path));
	tu_write_file(path, sb.buf, sb.len);
	tu_proc p;
	tu_run(&p, NULL, "check-items", "tests/fixtures/items/kinds.ddb.yaml", path, (char *)NULL);
	ck_assert_msg(p.status == 1, "exit %d: %s", p.status, p.err);
	ck_assert(tu_contains(p.out, p.out_len, ":11:24: error: item 11: the line ends before the "
			      "item does (cut short?)"));
	ck_assert_msg(tu_contains(p.out, p.out_len, "100000 items: 99999 ok, 0 failed, 0 unmatched, "
				  "1 malformed\n"), "%s", p.out);
	tu_proc_free(&p);
	static const char pretty[] = "{\n  \"id\": 1,\n  \"value\": 1\n}\n{\n  \"id\": 2,\n"
				     "  \"value\": 2\n}\n";
	tu_write_file(path, pretty, sizeof(pretty) - 1);
	tu_run(&p, NULL, "check-items", "tests/fixtures/items/kinds.ddb.yaml", path, (char *)NULL);
	ck_assert_msg(p.status == 0, "exit %d: %s%s", p.status, p.out, p.err);
	ck_assert(tu_contains(p.out, p.out_len, "2 items: 2 ok, 0 failed, 0 unmatched\n"));
	tu_proc_free(&p);
	unlink(path);
	ddbc_strbuf_release(&sb);
}
END_TEST

/* ---- BatchWriteItem files ------------------------------------------------------------- */

START_TEST(test_batch_same_as_export)
{
	tu_proc a, b;
	tu_run(&a, NULL, "check-items", STAMP, FIX "export.json", (char *)NULL);
	tu_run(&b, NULL, "check-items", "--format", "json", STAMP, FIX "batch.json", (char *)NULL);
	json_t *rb = parse_out(&b);
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(rb, "input"), "shape")),
			 "batch");
	json_decref(rb);
	tu_proc_free(&b);
	tu_run(&b, NULL, "check-items", STAMP, FIX "batch.json", (char *)NULL);
	char *ma = messages(a.out), *mb = messages(b.out);
	ck_assert_int_eq(a.status, b.status);
	ck_assert_str_eq(ma, mb);
	free(ma);
	free(mb);
	tu_proc_free(&a);
	tu_proc_free(&b);
}
END_TEST

/* A batch file larger than the reader's chunks, requests across their
 * boundaries, several request files one after the other: every request
 * read whole. */
START_TEST(test_batch_large)
{
	strbuf sb = STRBUF_INIT;
	int n = 0;
	for (int obj = 0; obj < 2; obj++) {
		ddbc_strbuf_addstr(&sb, "{\"Companies\": [");
		for (int i = 0; i < 1500; i++, n++)
			ddbc_strbuf_addf(&sb, "%s\n  {\"PutRequest\": {\"Item\": {\"companyId\": {\"S\": "
				    "\"c%05d\"}, \"name\": {\"S\": \"%0*d\"}}}}", i ? "," : "", n,
				    i % 97, 0);
		ddbc_strbuf_addstr(&sb, "],\n \"Users\": []}\n");
	}
	ck_assert_uint_gt(sb.len, 3 * 65536);
	char path[] = "/tmp/ddbc-batch-XXXXXX";
	close(mkstemp(path));
	tu_write_file(path, sb.buf, sb.len);
	tu_proc p;
	tu_run(&p, NULL, "check-items", MULTI, path, (char *)NULL);
	ck_assert_msg(p.status == 0, "exit %d: %s%s", p.status, p.out, p.err);
	ck_assert_str_eq(p.out, "3000 items: 3000 ok, 0 failed, 0 unmatched\n");
	tu_proc_free(&p);
	unlink(path);
	ddbc_strbuf_release(&sb);
}
END_TEST

/* Items are checked against the table their request names. */
START_TEST(test_batch_tables)
{
	static const char text[] =
		"{\"Companies\": [{\"PutRequest\": {\"Item\": {\"companyId\": {\"S\": \"c001\"}, "
		"\"name\": {\"S\": \"Acme\"}}}}],\n"
		" \"Users\": [{\"PutRequest\": {\"Item\": {\"companyId\": {\"S\": \"c001\"}, "
		"\"name\": {\"S\": \"Acme\"}}}},\n"
		"   {\"DeleteRequest\": {\"Key\": {\"userId\": {\"S\": \"u1\"}}}}],\n"
		" \"Nowhere\": [{\"PutRequest\": {\"Item\": {\"x\": {\"S\": \"1\"}}}}]}\n";
	char path[] = "/tmp/ddbc-batch-XXXXXX";
	close(mkstemp(path));
	tu_write_file(path, text, sizeof(text) - 1);
	tu_proc p;
	tu_run(&p, NULL, "check-items", MULTI, path, (char *)NULL);
	ck_assert_int_eq(p.status, 1);
	char *out = tu_replace(p.out, path, "F");
	ck_assert_msg(!strstr(out, "item 1"), "%s", out);
	ck_assert_msg(strstr(out, "F:2:12: error: item 2: matches no entity: it has no 'userId', "
			      "the partition key of table 'Users'\n") != NULL, "%s", out);
	ck_assert_msg(strstr(out, "F:4:14: error: item 4: matches no entity: the request is for "
			      "table 'Nowhere', which the design does not define\n") != NULL,
		      "%s", out);
	ck_assert_msg(strstr(out, "3 items: 1 ok, 0 failed, 2 unmatched\n") != NULL, "%s", out);
	free(out);
	tu_proc_free(&p);
	unlink(path);
}
END_TEST

/* ---- export folders ------------------------------------------------------------------- */

START_TEST(test_export_folder)
{
	static const char *const args[] = { FOLDER, EXPORT_DIR, EXPORT_DIR "/" };
	tu_proc lines;
	tu_run(&lines, NULL, "check-items", "--format", "json", STAMP, FIX "export.json",
	       (char *)NULL);
	json_t *want = parse_out(&lines);
	char *want_set = finding_set(want);
	for (size_t i = 0; i < 3; i++) {
		tu_proc p;
		tu_run(&p, NULL, "check-items", "--format", "json", STAMP, args[i], (char *)NULL);
		ck_assert_msg(p.status == 1, "%s: exit %d: %s", args[i], p.status, p.err);
		json_t *got = parse_out(&p);
		ck_assert(json_equal(json_object_get(got, "summary"),
				     json_object_get(want, "summary")));
		ck_assert(json_equal(json_object_get(got, "input"), json_object_get(want, "input")));
		char *set = finding_set(got);
		ck_assert_str_eq(set, want_set);
		free(set);
		json_decref(got);
		tu_proc_free(&p);
	}
	free(want_set);
	json_decref(want);
	tu_proc_free(&lines);
	tu_proc p;
	tu_run(&p, NULL, "check-items", STAMP, FOLDER, (char *)NULL);
	tu_expect_golden("tests/golden/items/export-folder.txt", p.out, p.out_len);
	tu_proc_free(&p);
}
END_TEST

/* A copy of the export folder in /tmp whose file named rel holds text. */
static char *folder_with(const char *rel, const char *text)
{
	char *dir = strdup("/tmp/ddbc-export-XXXXXX");
	ck_assert(mkdtemp(dir) != NULL);
	strbuf cmd = STRBUF_INIT;
	char *src = tu_srcpath(EXPORT_DIR);
	ddbc_strbuf_addf(&cmd, "cp -R '%s/.' '%s'", src, dir);
	ck_assert_int_eq(system(cmd.buf), 0);
	if (rel) {
		ddbc_strbuf_reset(&cmd);
		ddbc_strbuf_addf(&cmd, "%s/%s", dir, rel);
		if (text)
			tu_write_file(cmd.buf, text, strlen(text));
		else
			unlink(cmd.buf);
	}
	ddbc_strbuf_release(&cmd);
	free(src);
	return dir;
}

static void remove_tree(char *dir)
{
	strbuf cmd = STRBUF_INIT;
	ddbc_strbuf_addf(&cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd.buf), 0);
	ddbc_strbuf_release(&cmd);
	free(dir);
}

static char *manifest_text(const char *from, const char *to)
{
	char *path = tu_srcpath(EXPORT_DIR "/manifest-files.json");
	char *text = tu_read_file(path, NULL);
	char *out = tu_replace(text, from, to);
	free(text);
	free(path);
	return out;
}

START_TEST(test_export_folder_errors)
{
	char *summary_path = tu_srcpath(EXPORT_DIR "/manifest-summary.json");
	char *summary = tu_read_file(summary_path, NULL);
	char *ion = tu_replace(summary, "\"DYNAMODB_JSON\"", "\"ION\"");
	char *wrong_total = tu_replace(summary, "\"itemCount\": 10", "\"itemCount\": 11");
	/* the same total, spread otherwise */
	char *shifted = manifest_text("{\"itemCount\": 4", "{\"itemCount\": 5");
	char *wrong_file = tu_replace(shifted, "{\"itemCount\": 6", "{\"itemCount\": 5");
	free(shifted);
	char *no_key = manifest_text("dataFileS3Key", "dataFile");
	static const char *const data0 = "data/kx4ft3vnhy6pzkd7ahx3rm0.json.gz";
	struct {
		const char *rel, *text, *error;
		bool before;  /* found before any item is read: nothing on stdout */
	} cases[] = {
		{ "manifest-summary.json", ion, "this export is in Amazon Ion format", true },
		{ "manifest-summary.json", wrong_total, "the summary manifest counts 11 items, the "
		  "file manifest", true },
		{ "manifest-files.json", no_key, ":1: error: a line of the manifest is", true },
		{ "manifest-summary.json", NULL, "a folder of items is the folder of a DynamoDB "
		  "export", true },
		{ "manifest-files.json", wrong_file, "kx4ft3vnhy6pzkd7ahx3rm0.json.gz:1:1: error: "
		  "the export's manifest lists 5 items in this file, it holds 4", false },
		{ data0, NULL, "kx4ft3vnhy6pzkd7ahx3rm0.json.gz:1:1: error: cannot read the file: "
		  "No such file or directory", false },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *dir = folder_with(cases[i].rel, cases[i].text);
		tu_proc p;
		tu_run(&p, NULL, "check-items", STAMP, dir, (char *)NULL);
		ck_assert_msg(p.status == 2, "case %zu: exit %d", i, p.status);
		ck_assert_msg(tu_contains(p.err, p.err_len, cases[i].error), "case %zu: %s", i,
			      p.err);
		if (cases[i].before)
			ck_assert_msg(p.out_len == 0, "case %zu: %s", i, p.out);
		ck_assert(!tu_contains(p.out, p.out_len, " items: "));
		tu_proc_free(&p);
		remove_tree(dir);
	}
	free(ion);
	free(wrong_total);
	free(wrong_file);
	free(no_key);
	free(summary);
	free(summary_path);
}
END_TEST

/* ---- -j, --max-findings, --rule --------------------------------------------------------- */

START_TEST(test_jobs_same_output)
{
	static const char *const caps[] = { NULL, "0", "1", "5" };
	for (int json = 0; json < 2; json++) {
		for (size_t c = 0; c < sizeof(caps) / sizeof(caps[0]); c++) {
			char *first = NULL;
			int status = -1;
			for (const char *j = "1"; j; j = !strcmp(j, "1") ? "2" : !strcmp(j, "2")
								   ? "4" : NULL) {
				const char *args[16] = { "check-items", "-j", j, "--format",
					json ? "json" : "text", STAMP, FOLDER, FIX "items.json",
					FIX "bad/syntax.json", FIX "batch.json", FIX "scan.json" };
				size_t n = 11;
				if (caps[c]) {
					args[n++] = "--max-findings";
					args[n++] = caps[c];
				}
				args[n] = NULL;
				tu_proc p;
				run_argv(&p, args);
				if (!first) {
					first = strdup(p.out);
					status = p.status;
				} else {
					ck_assert_msg(!strcmp(first, p.out), "-j %s differs:\n%s\n-j 1:\n%s",
						      j, p.out, first);
					ck_assert_int_eq(p.status, status);
				}
				tu_proc_free(&p);
			}
			free(first);
		}
	}
}
END_TEST

/* The progress line says how far and how long when the total is known. */
START_TEST(test_progress_text)
{
	strbuf sb = STRBUF_INIT;
	ddbc_items_progress_text(&sb, 1200, 5000, 1, 8, 3.0);
	ck_assert_str_eq(sb.buf, "check-items: 1200 of 5000 items (24%), 1 of 8 files, 0:10 left");
	ddbc_strbuf_reset(&sb);
	ddbc_items_progress_text(&sb, 1000, 1000000, 0, 1, 40.0);
	ck_assert_str_eq(sb.buf, "check-items: 1000 of 1000000 items (0%), 0 of 1 file, "
				 "11:06:00 left");
	ddbc_strbuf_reset(&sb);
	/* No manifest: no total to measure against. */
	ddbc_items_progress_text(&sb, 1, -1, 0, 1, 2.0);
	ck_assert_str_eq(sb.buf, "check-items: 1 item, 0 of 1 file");
	ddbc_strbuf_release(&sb);
}
END_TEST

START_TEST(test_max_findings)
{
	tu_proc p;
	tu_run(&p, NULL, "check-items", "--max-findings", "2", STAMP, FIX "items.json",
	       (char *)NULL);
	ck_assert_int_eq(p.status, 1);
	tu_expect_golden("tests/golden/items/max-findings.txt", p.out, p.out_len);
	ck_assert(tu_contains(p.out, p.out_len, "; 10 not shown (--max-findings)\n"));
	tu_proc_free(&p);
	tu_run(&p, NULL, "check-items", "--max-findings", "2", "--format", "json", STAMP,
	       FIX "items.json", (char *)NULL);
	json_t *root = parse_out(&p);
	ck_assert_int_eq(json_array_size(json_object_get(root, "findings")), 2);
	json_t *sum = json_object_get(root, "summary");
	ck_assert_int_eq(json_integer_value(json_object_get(sum, "findings")), 12);
	ck_assert_int_eq(json_integer_value(json_object_get(sum, "shown")), 2);
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(sum, "kinds"),
							    "key-mismatch")), 3);
	json_decref(root);
	tu_proc_free(&p);
	/* 0 writes none (as grep -m 0), and counts all. */
	tu_run(&p, NULL, "check-items", "--max-findings", "0", STAMP, FIX "items.json",
	       (char *)NULL);
	ck_assert_int_eq(p.status, 1);
	ck_assert(!tu_contains(p.out, p.out_len, ": error: "));
	ck_assert(tu_contains(p.out, p.out_len, "; 12 not shown (--max-findings)\n"));
	tu_proc_free(&p);
	/* --min-severity error: the unknown-attribute notes are counted, not written. */
	tu_run(&p, NULL, "check-items", "--min-severity", "error", STAMP, FIX "items.json",
	       (char *)NULL);
	ck_assert_int_eq(p.status, 1);
	ck_assert(!tu_contains(p.out, p.out_len, ": note: "));
	ck_assert(tu_contains(p.out, p.out_len, " unknown-attribute"));
	tu_proc_free(&p);
	static const char *const bad[] = { "-1", "x", "" };
	for (size_t i = 0; i < 3; i++) {
		tu_run(&p, NULL, "check-items", "--max-findings", bad[i], STAMP, FIX "items.json",
		       (char *)NULL);
		ck_assert_int_eq(p.status, 2);
		ck_assert(tu_contains(p.err, p.err_len, "--max-findings takes a number"));
		tu_proc_free(&p);
	}
}
END_TEST

START_TEST(test_rule_kinds)
{
	tu_proc p;
	/* Off: gone from the output and the counts; the item is ok again. */
	tu_run(&p, NULL, "check-items", "--rule", "unknown-attribute=off", "--rule",
	       "wrong-type=warning", STAMP, FIX "items.json", (char *)NULL);
	ck_assert_int_eq(p.status, 1);
	ck_assert(!tu_contains(p.out, p.out_len, "note:"));
	ck_assert(tu_contains(p.out, p.out_len, "items.json:43:5: warning: item 4 (UserStamp): "
			      "'stampId' is S (String), but the item gives N"));
	ck_assert(tu_contains(p.out, p.out_len, "10 items: 4 ok, 3 failed, 3 unmatched\n"
			      "findings: 2 wrong-type, 2 missing-required"));
	tu_proc_free(&p);
	/* Every error kind lowered: exit 0. */
	const char *args[32] = { "check-items" };
	size_t n = 1;
	for (int k = 0; k < DDBC_ITEM_KIND_COUNT; k++) {
		args[n++] = "--rule";
		if (asprintf((char **)&args[n++], "%s=note",
			     ddbc_item_kind_get((ddbc_item_kind)k)->id) < 0)
			ck_abort();
	}
	args[n++] = STAMP;
	args[n++] = FIX "items.json";
	args[n] = NULL;
	run_argv(&p, args);
	ck_assert_msg(p.status == 0, "exit %d: %s", p.status, p.err);
	ck_assert(tu_contains(p.out, p.out_len, "10 items: 7 ok, 0 failed, 3 unmatched\n"));
	tu_proc_free(&p);
	for (size_t i = 2; i < n - 2; i += 2)
		free((char *)args[i]);
	/* A kind with a bad severity, a kind given to lint: usage errors. */
	tu_run(&p, NULL, "check-items", "--rule", "wrong-type=loud", STAMP, FIX "items.json",
	       (char *)NULL);
	ck_assert_int_eq(p.status, 2);
	ck_assert(tu_contains(p.err, p.err_len, "expected --rule KIND=off|note|warning|error"));
	tu_proc_free(&p);
	tu_run(&p, NULL, "lint", "--rule", "wrong-type=off", STAMP, (char *)NULL);
	ck_assert_int_eq(p.status, 2);
	ck_assert(tu_contains(p.err, p.err_len, "'wrong-type=off' is a kind of check-items "
			      "finding"));
	tu_proc_free(&p);
}
END_TEST

/* ---- memory ------------------------------------------------------------------------------ */

/* A gzip file of n counters items of kinds.ddb.yaml, half of them failing. */
static char *counters_gz(size_t n)
{
	char *path = strdup("/tmp/ddbc-scale-XXXXXX");
	close(mkstemp(path));
	gzFile f = gzopen(path, "wb1");
	ck_assert(f != NULL);
	for (size_t i = 0; i < n; i++)
		gzprintf(f, i % 2 ? "{\"id\": %zu, \"value\": \"x\"}\n"
				  : "{\"id\": %zu, \"value\": 1}\n", i);
	gzclose(f);
	return path;
}

/* Peak resident set in KiB of check-items -j 2 over the two files. */
static long peak_rss_kib(const char *a, const char *b)
{
	fflush(NULL);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		if (chdir(TEST_SRCDIR) != 0)
			_exit(126);
		setenv("ASAN_OPTIONS", "quarantine_size_mb=1:detect_leaks=0", 1);
		execl(TEST_BUILDDIR "/ddbc", "ddbc", "check-items", "-j", "2", "--format", "json",
		      "tests/fixtures/items/kinds.ddb.yaml", a, b, (char *)NULL);
		_exit(127);
	}
	int status;
	struct rusage ru;
	ck_assert_int_eq(wait4(pid, &status, 0, &ru), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 1, "status %d", status);
	return ru.ru_maxrss;
}

/* Two workers on gzip files: memory does not grow with the items (the
 * findings are spooled to disk, not kept). */
START_TEST(test_jobs_memory)
{
	char *s1 = counters_gz(1000), *s2 = counters_gz(1000);
	char *l1 = counters_gz(200000), *l2 = counters_gz(200000);
	long base = peak_rss_kib(s1, s2), peak = peak_rss_kib(l1, l2);
	ck_assert_msg(peak - base < 4096, "peak RSS %ld KiB for 2 x 200k items, %ld KiB for "
		      "2 x 1k", peak, base);
	char *files[] = { s1, s2, l1, l2 };
	for (int i = 0; i < 4; i++) {
		unlink(files[i]);
		free(files[i]);
	}
}
END_TEST

/* ---- --merge ------------------------------------------------------------------------------ */

static char *json_run_to_file(const char *const *items, size_t n, const char *cap)
{
	const char *args[16] = { "check-items", "--format", "json" };
	size_t k = 3;
	if (cap) {
		args[k++] = "--max-findings";
		args[k++] = cap;
	}
	args[k++] = STAMP;
	for (size_t i = 0; i < n; i++)
		args[k++] = items[i];
	args[k] = NULL;
	tu_proc p;
	run_argv(&p, args);
	char *path = strdup("/tmp/ddbc-result-XXXXXX");
	close(mkstemp(path));
	tu_write_file(path, p.out, p.out_len);
	tu_proc_free(&p);
	return path;
}

START_TEST(test_merge)
{
	static const char *const files[] = { FOLDER, FIX "items.json", FIX "bad/syntax.json",
		FIX "batch.json" };
	for (int capped = 0; capped < 2; capped++) {
		const char *cap = capped ? "3" : NULL;
		char *whole = json_run_to_file(files, 4, cap);
		char *a = json_run_to_file(files, 2, cap), *b = json_run_to_file(files + 2, 2, cap);
		const char *args[10] = { "check-items", "--merge", "--format", "json", a, b };
		size_t n = 6;
		if (cap) {
			args[n++] = "--max-findings";
			args[n++] = cap;
		}
		args[n] = NULL;
		tu_proc p;
		run_argv(&p, args);
		ck_assert_msg(p.status == 1, "exit %d: %s", p.status, p.err);
		char *want = tu_read_file(whole, NULL);
		/* The merge equals one run over all the files, byte for byte. */
		ck_assert_str_eq(p.out, want);
		free(want);
		tu_proc_free(&p);
		unlink(whole);
		unlink(a);
		unlink(b);
		free(whole);
		free(a);
		free(b);
	}
	tu_proc p;
	tu_run(&p, NULL, "check-items", "--merge", "--format", "json", FIX "items.json",
	       (char *)NULL);
	ck_assert_int_eq(p.status, 2);
	ck_assert(tu_contains(p.err, p.err_len, "not a result of check-items --format json"));
	tu_proc_free(&p);
	tu_run(&p, NULL, "check-items", "--merge", FIX "items.json", (char *)NULL);
	ck_assert_int_eq(p.status, 2);
	ck_assert(tu_contains(p.err, p.err_len, "not a result of check-items --format json"));
	tu_proc_free(&p);
	/* Without --format json (SPEC 6.6's `--merge A.json B.json`) the merge
	 * is the text one run over all the files writes. */
	char *a = json_run_to_file(files, 2, NULL), *b = json_run_to_file(files + 2, 2, NULL);
	const char *whole[] = { "check-items", STAMP, files[0], files[1], files[2], files[3], NULL };
	run_argv(&p, whole);
	tu_proc m;
	tu_run(&m, NULL, "check-items", "--merge", a, b, (char *)NULL);
	ck_assert_int_eq(m.status, 1);
	ck_assert_str_eq(m.out, p.out);
	tu_proc_free(&m);
	tu_proc_free(&p);
	unlink(a);
	unlink(b);
	free(a);
	free(b);
}
END_TEST

/* ---- the kinds in the catalogue ------------------------------------------------------------------ */

/* The file a kind's page names: a path of the source tree, or the name
 * of an example file of tests/fixtures/items/ or its bad/. */
static char *example_path(const char *name)
{
	static const char *const dirs[] = { "", "tests/fixtures/items/", "tests/fixtures/items/bad/" };
	for (size_t i = 0; i < 3; i++) {
		strbuf rel = STRBUF_INIT;
		ddbc_strbuf_addf(&rel, "%s%s", dirs[i], name);
		char *path = tu_srcpath(rel.buf);
		bool found = access(path, R_OK) == 0;
		free(path);
		if (found)
			return ddbc_strbuf_detach(&rel);
		ddbc_strbuf_release(&rel);
	}
	ck_abort_msg("no example file '%s'", name);
	return NULL;
}

/* Each kind: listed by explain, a page that explain prints and whose
 * failing example quotes what ddbc prints, word for word. */
START_TEST(test_kind_pages)
{
	tu_proc list;
	tu_run(&list, NULL, "explain", (char *)NULL);
	char *index_path = tu_srcpath("docs/rules/README.md.in");
	char *index = tu_read_file(index_path, NULL);
	for (int k = 0; k < DDBC_ITEM_KIND_COUNT; k++) {
		const char *id = ddbc_item_kind_get((ddbc_item_kind)k)->id;
		/* A file deleted during the run has no example file to run:
		 * tests/nolose.test deletes one. */
		bool runs = k != DDBC_ITEM_VANISHED;
		strbuf want = STRBUF_INIT, rel = STRBUF_INIT;
		ddbc_strbuf_addf(&want, "\n%-29s ", id);
		ck_assert_msg(tu_contains(list.out, list.out_len, want.buf), "explain lacks %s", id);
		ddbc_strbuf_reset(&want);
		ddbc_strbuf_addf(&want, "[`%s`](%s.md)", id, id);
		ck_assert_msg(strstr(index, want.buf), "the rule index lacks %s", id);
		ddbc_strbuf_addf(&rel, "docs/rules/%s.md", id);
		char *path = tu_srcpath(rel.buf);
		char *page = tu_read_file(path, NULL);
		const char *cmd = strstr(page, "\n$ ddbc check-items ");
		ck_assert_msg(cmd != NULL, "%s has no failing example", rel.buf);
		tu_proc p;
		if (runs) {
			char design[256], items[256], quote[1024];
			ck_assert(sscanf(cmd, "\n$ ddbc check-items %255s %255s\n%1023[^\n]", design,
					 items, quote) == 3);
			/* The page names an example file by its name alone. */
			char *design_path = example_path(design), *items_path = example_path(items);
			tu_run(&p, NULL, "check-items", design_path, items_path, (char *)NULL);
			char *out = tu_replace(p.out, items_path, items);
			ddbc_strbuf_reset(&want);
			ddbc_strbuf_addf(&want, "%s\n", quote);
			ck_assert_msg(tu_contains(out, strlen(out), want.buf),
				      "%s quotes\n%sddbc prints\n%s", rel.buf, want.buf, out);
			free(out);
			free(design_path);
			free(items_path);
			tu_proc_free(&p);
		}
		tu_run(&p, NULL, "explain", id, (char *)NULL);
		ck_assert_int_eq(p.status, 0);
		ck_assert_str_eq(p.out, page);
		tu_proc_free(&p);
		free(page);
		free(path);
		ddbc_strbuf_release(&want);
		ddbc_strbuf_release(&rel);
	}
	free(index);
	free(index_path);
	tu_proc_free(&list);
}
END_TEST

static Suite *scale_suite(void)
{
	Suite *s = suite_create("items-scale");
	TCase *tc = tcase_create("inputs");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_gzip_every_shape);
	tcase_add_test(tc, test_gzip_broken);
	tcase_add_test(tc, test_ion_named);
	tcase_add_test(tc, test_cut_line);
	tcase_add_test(tc, test_batch_same_as_export);
	tcase_add_test(tc, test_batch_tables);
	tcase_add_test(tc, test_batch_large);
	tcase_add_test(tc, test_export_folder);
	tcase_add_test(tc, test_export_folder_errors);
	suite_add_tcase(s, tc);

	tc = tcase_create("runs");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_jobs_same_output);
	tcase_add_test(tc, test_max_findings);
	tcase_add_test(tc, test_progress_text);
	tcase_add_test(tc, test_rule_kinds);
	tcase_add_test(tc, test_merge);
	tcase_add_test(tc, test_kind_pages);
	suite_add_tcase(s, tc);

	tc = tcase_create("memory");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_jobs_memory);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	/* explain reads the pages of the source tree */
	char *pages = tu_srcpath("docs/rules");
	setenv("DDBC_RULES_DIR", pages, 1);
	free(pages);
	SRunner *sr = srunner_create(scale_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
