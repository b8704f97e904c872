/* items_export.c - the parts of a run: files, and export folders by their manifests
 *
 * Only the manifests are read here, whole (they are small: one line per
 * data file); the data files are streamed later, part by part.
 */
#include "items/items_export.h"
#include "util/error.h"
#include "util/source.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void add_part(ddbc_items_plan *plan, const char *path, const char *name,
		     long long expect)
{
	ddbc_xgrow((void **)&plan->parts, &plan->cap, plan->n + 1, sizeof(*plan->parts));
	ddbc_items_part *p = &plan->parts[plan->n++];
	*p = (ddbc_items_part){ 0 };
	p->path = path ? ddbc_xstrdup(path) : NULL;
	p->stream = path ? NULL : stdin;
	p->name = ddbc_xstrdup(name);
	p->expect = expect;
	p->existed = path && access(path, F_OK) == 0;
}

void ddbc_items_plan_add_stream(ddbc_items_plan *plan, FILE *stream, const char *name)
{
	add_part(plan, NULL, name, -1);
	plan->parts[plan->n - 1].stream = stream;
}

void ddbc_items_plan_release(ddbc_items_plan *plan)
{
	for (size_t i = 0; i < plan->n; i++) {
		free(plan->parts[i].path);
		free(plan->parts[i].name);
	}
	free(plan->parts);
	memset(plan, 0, sizeof(*plan));
}

static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* A member that is a non-negative integer, or -1. */
static long long count_of(const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);
	return json_is_integer(v) && json_integer_value(v) >= 0 ? json_integer_value(v) : -1;
}

/* The summary's format check: DynamoDB JSON only; Ion is named. */
static int check_format(const char *path, const json_t *summary)
{
	const char *fmt = json_string_value(json_object_get(summary, "outputFormat"));
	const char *type = json_string_value(json_object_get(summary, "exportType"));
	if (fmt && !strcmp(fmt, "ION")) {
		ddbc_file_error(path, 0, 0, "this export is in Amazon Ion format (outputFormat "
				"ION), which check-items does not read; export the table again in "
				"DynamoDB JSON format (ExportFormat DYNAMODB_JSON)");
		return -1;
	}
	if (!fmt || strcmp(fmt, "DYNAMODB_JSON") != 0) {
		ddbc_file_error(path, 0, 0, "unknown outputFormat %s%s%s; check-items reads "
				"exports in DynamoDB JSON format (DYNAMODB_JSON)", fmt ? "'" : "",
				fmt ? fmt : "(none)", fmt ? "'" : "");
		return -1;
	}
	if (type && strcmp(type, "FULL_EXPORT") != 0) {
		ddbc_file_error(path, 0, 0, "this is an %s (its lines hold changes, not items); "
				"check-items reads full exports", type);
		return -1;
	}
	return 0;
}

/* The data file a manifest line names: DIR/data/NAME from
 * "dataFileS3Key": ".../data/NAME". */
static int data_path(const char *dir, const char *mpath, unsigned long line, const json_t *v,
		     strbuf *out)
{
	const char *key = json_string_value(json_object_get(v, "dataFileS3Key"));
	const char *data = key ? strstr(key, "data/") : NULL;
	while (data && strstr(data + 1, "/data/"))
		data = strstr(data + 1, "/data/") + 1;
	if (!data || !data[5] || strstr(data + 5, "..") || strchr(data + 5, '/')) {
		ddbc_file_error(mpath, line, 0, "a line of the manifest is "
				"{\"dataFileS3Key\": \".../data/NAME\", \"itemCount\": N, ...}");
		return -1;
	}
	ddbc_strbuf_reset(out);
	ddbc_strbuf_addf(out, "%s/%s", dir, data);
	return 0;
}

/* Reads manifest-files.json: one part per line; *sum adds their counts. */
static int read_files_manifest(ddbc_items_plan *plan, const char *dir, const char *mpath,
			       long long *sum)
{
	FILE *f = ddbc_input_fopen(mpath);
	if (!f) {
		ddbc_file_error(mpath, 0, 0, "cannot read the export's file manifest: %s",
				strerror(errno));
		return -1;
	}
	char *buf = NULL;
	size_t cap = 0;
	unsigned long line = 0;
	strbuf path = STRBUF_INIT;
	int rc = 0;
	*sum = 0;
	while (rc == 0 && getline(&buf, &cap, f) >= 0) {
		line++;
		if (strspn(buf, " \t\r\n") == strlen(buf))
			continue;
		json_error_t je;
		json_t *v = json_loads(buf, 0, &je);
		long long n = v ? count_of(v, "itemCount") : -1;
		if (!v || n < 0 || data_path(dir, mpath, line, v, &path) < 0) {
			if (!v || n < 0)
				ddbc_file_error(mpath, line, 0, "a line of the manifest is "
						"{\"dataFileS3Key\": \".../data/NAME\", "
						"\"itemCount\": N, ...}%s%s", v ? "" : ": ",
						v ? "" : je.text);
			rc = -1;
		} else if (__builtin_add_overflow(*sum, n, sum)) {
			ddbc_file_error(mpath, line, 0, "the manifest's item counts add up to more "
					"than %lld", LLONG_MAX);
			rc = -1;
		} else {
			add_part(plan, path.buf, path.buf, n);
		}
		json_decref(v);
	}
	free(buf);
	ddbc_strbuf_release(&path);
	fclose(f);
	return rc;
}

/* One export folder (it holds manifest-summary.json). */
static int add_export(ddbc_items_plan *plan, const char *dir)
{
	strbuf sp = STRBUF_INIT, fp = STRBUF_INIT;
	ddbc_strbuf_addf(&sp, "%s/manifest-summary.json", dir);
	json_error_t je;
	FILE *sf = ddbc_input_fopen(sp.buf);
	json_t *summary = sf ? json_loadf(sf, 0, &je) : NULL;
	if (sf)
		fclose(sf);
	else
		snprintf(je.text, sizeof(je.text), "%s", strerror(errno));
	size_t before = plan->n;
	long long listed = 0, total = summary ? count_of(summary, "itemCount") : -1;
	int rc = -1;
	if (!summary && sf && je.line > 0)
		ddbc_file_error(sp.buf, (unsigned long)je.line,
				(unsigned long)(je.column > 0 ? je.column : 1),
				"cannot read the export's summary manifest: %s", je.text);
	else if (!summary)
		ddbc_file_error(sp.buf, 0, 0, "cannot read the export's summary manifest: %s",
				je.text);
	else if (check_format(sp.buf, summary) == 0) {
		/* manifestFilesS3Key names the file manifest; it lies beside the summary. */
		const char *key = json_string_value(json_object_get(summary, "manifestFilesS3Key"));
		const char *base = key && strrchr(key, '/') ? strrchr(key, '/') + 1 : key;
		ddbc_strbuf_addf(&fp, "%s/%s", dir, base && *base ? base : "manifest-files.json");
		rc = read_files_manifest(plan, dir, fp.buf, &listed);
	}
	if (rc == 0 && total >= 0 && listed != total) {
		ddbc_file_error(sp.buf, 0, 0, "the summary manifest counts %lld item%s, the file "
				"manifest %s lists %lld", total, total == 1 ? "" : "s", fp.buf,
				listed);
		rc = -1;
	}
	for (size_t i = before; rc < 0 && i < plan->n; i++) {
		free(plan->parts[i].path);
		free(plan->parts[i].name);
	}
	if (rc < 0)
		plan->n = before;
	json_decref(summary);
	ddbc_strbuf_release(&sp);
	ddbc_strbuf_release(&fp);
	return rc;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* A folder above exports: every DIR/AWSDynamoDB/ID that is one, in name order. */
static int add_exports_below(ddbc_items_plan *plan, const char *dir)
{
	strbuf top = STRBUF_INIT, sub = STRBUF_INIT;
	ddbc_strbuf_addf(&top, "%s/AWSDynamoDB", dir);
	struct dirent **list = NULL;
	int n = is_dir(top.buf) ? scandir(top.buf, &list, NULL, by_name) : -1;
	int found = 0, rc = 0;
	for (int i = 0; i < n; i++) {
		ddbc_strbuf_reset(&sub);
		ddbc_strbuf_addf(&sub, "%s/%s/manifest-summary.json", top.buf, list[i]->d_name);
		if (list[i]->d_name[0] != '.' && is_file(sub.buf)) {
			ddbc_strbuf_reset(&sub);
			ddbc_strbuf_addf(&sub, "%s/%s", top.buf, list[i]->d_name);
			found++;
			if (add_export(plan, sub.buf) < 0)
				rc = -1;
		}
		free(list[i]);
	}
	free(list);
	if (found == 0) {
		ddbc_file_error(dir, 0, 0, "a folder of items is the folder of a DynamoDB export "
				"to S3, with manifest-summary.json, manifest-files.json and data/");
		rc = -1;
	}
	ddbc_strbuf_release(&top);
	ddbc_strbuf_release(&sub);
	return rc;
}

int ddbc_items_plan_add(ddbc_items_plan *plan, const char *arg)
{
	if (!strcmp(arg, "-")) {
		add_part(plan, NULL, "-", -1);
		return 0;
	}
	if (!is_dir(arg)) {
		add_part(plan, arg, arg, -1);
		return 0;
	}
	size_t len = strlen(arg);
	while (len > 1 && arg[len - 1] == '/')
		len--;
	char *dir = ddbc_xstrndup(arg, len);
	strbuf sp = STRBUF_INIT;
	ddbc_strbuf_addf(&sp, "%s/manifest-summary.json", dir);
	int rc = is_file(sp.buf) ? add_export(plan, dir) : add_exports_below(plan, dir);
	ddbc_strbuf_release(&sp);
	free(dir);
	return rc;
}
