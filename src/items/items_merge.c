/* items_merge.c - adding up the JSON results of separate check-items runs
 *
 * A large export is split across machines (docs/scale.md), each running
 * check-items --format json over its share; the results merge into the
 * result one run over all the files would have given: counts added,
 * findings in argument order (so the order of the files) up to the cap,
 * the input's words kept when they agree and "mixed" when not, the first
 * error kept. The merged result is JSON again (--format json) or the
 * text one run writes. Each result is read whole with jansson: it holds at most
 * --max-findings findings when its run was capped.
 */
#include "items/items_run.h"
#include "util/error.h"
#include "util/source.h"

#include "util/strbuf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static unsigned long count_of(const json_t *obj, const char *key)
{
	json_int_t v = json_integer_value(json_object_get(obj, key));
	return v > 0 ? (unsigned long)v : 0;
}

/* The counts of a result's "summary" into t; -1 when it has none. */
static int read_tally(const json_t *summary, ddbc_items_tally *t)
{
	if (!json_is_object(summary) || !json_is_integer(json_object_get(summary, "items")))
		return -1;
	memset(t, 0, sizeof(*t));
	t->items = count_of(summary, "items");
	t->ok = count_of(summary, "ok");
	t->failed = count_of(summary, "failed");
	t->unmatched = count_of(summary, "unmatched");
	t->malformed = count_of(summary, "malformed");
	t->errors = count_of(summary, "errors");
	const json_t *kinds = json_object_get(summary, "kinds");
	for (int k = 0; k < DDBC_ITEM_KIND_COUNT; k++)
		t->kinds[k] = count_of(kinds, ddbc_item_kind_get((ddbc_item_kind)k)->id);
	return 0;
}

/* A merged word: the same in every result, else "mixed". */
static const char *merge_word(const char *have, const json_t *input, const char *key,
			      bool *first)
{
	const char *w = json_string_value(json_object_get(input, key));
	if (*first)
		return w;
	if (!w)
		return have;
	if (!have)
		return w;
	return strcmp(have, w) ? "mixed" : have;
}

/* The member of a result that is not what check-items writes, or NULL:
 * every value is checked before it is used. */
static const char *bad_member(const json_t *root)
{
	size_t i;
	const json_t *v;
	json_array_foreach(json_object_get(root, "findings"), i, v)
		if (!json_is_object(v))
			return "\"findings\" holds something that is not a finding (an object)";
	const json_t *files = json_object_get(root, "files");
	if (files && !json_is_array(files))
		return "\"files\" is not a list";
	json_array_foreach(files, i, v)
		if (!json_is_string(v))
			return "\"files\" holds something that is not a file name (a string)";
	const char *k;
	json_object_foreach((json_t *)json_object_get(root, "summary"), k, v)
		if (strcmp(k, "kinds") && (!json_is_integer(v) || json_integer_value(v) < 0))
			return "a count of \"summary\" is not a whole number of at least 0";
	const json_t *kinds = json_object_get(json_object_get(root, "summary"), "kinds");
	if (kinds && !json_is_object(kinds))
		return "\"summary\".\"kinds\" is not an object";
	json_object_foreach((json_t *)kinds, k, v)
		if (!json_is_integer(v) || json_integer_value(v) < 0)
			return "a count of \"summary\".\"kinds\" is not a whole number of at least 0";
	const json_t *input = json_object_get(root, "input");
	if (input && !json_is_object(input))
		return "\"input\" is not an object";
	json_object_foreach((json_t *)input, k, v)
		if (!json_is_string(v) && !json_is_null(v))
			return "a word of \"input\" is not a string or null";
	return NULL;
}

static json_t *read_result(const char *path)
{
	FILE *f = ddbc_input_fopen(path);
	if (!f) {
		ddbc_file_error(path, 0, 0, "cannot read the result: %s", strerror(errno));
		return NULL;
	}
	json_error_t je;
	json_t *root = json_loadf(f, JSON_DECODE_ANY, &je);
	fclose(f);
	if (!root) {
		/* jansson counts columns from 0 at the end of a file, and has no
		 * position (-1) for an error without one. */
		if (je.line > 0)
			ddbc_file_error(path, (unsigned long)je.line,
					(unsigned long)(je.column > 0 ? je.column : 1),
					"cannot read the result: %s", je.text);
		else
			ddbc_file_error(path, 0, 0, "cannot read the result: %s", je.text);
		return NULL;
	}
	const char *bad = NULL;
	if (!json_is_array(json_object_get(root, "findings")) ||
	    !json_is_object(json_object_get(root, "summary"))) {
		ddbc_file_error(path, 0, 0, "not a result of check-items --format json (it has "
				"no \"findings\" and \"summary\")");
	} else if ((bad = bad_member(root))) {
		ddbc_file_error(path, 0, 0, "not a result of check-items --format json: %s", bad);
	} else {
		return root;
	}
	json_decref(root);
	return NULL;
}

/* A finding of a JSON result as text check-items writes it. */
static char *finding_text(const json_t *f)
{
	strbuf l = STRBUF_INIT;
	const char *ent = json_string_value(json_object_get(f, "entity"));
	ddbc_strbuf_addf(&l, "%s:%lu:%lu: %s: item %lu", json_string_value(json_object_get(f, "file")),
		    count_of(f, "line"), count_of(f, "column"),
		    json_string_value(json_object_get(f, "severity")), count_of(f, "item"));
	if (ent)
		ddbc_strbuf_addf(&l, " (%s)", ent);
	ddbc_strbuf_addf(&l, ": %s", json_string_value(json_object_get(f, "message")));
	const char *name;
	json_t *v;
	const char *sep = " [";
	json_object_foreach(json_object_get(f, "key"), name, v) {
		ddbc_strbuf_addf(&l, "%s%s ", sep, name);
		ddbc_add_quoted(&l, json_string_value(v), json_string_length(v));
		sep = ", ";
	}
	if (*sep == ',')
		ddbc_strbuf_addch(&l, ']');
	return ddbc_strbuf_detach(&l);
}

/* Adds one result to the outcome and writes its findings. The words it
 * returns point into root, which the caller keeps until the end. */
static int add_result(const json_t *root, ddbc_items_sink *sink, ddbc_items_outcome *o,
		      bool *first)
{
	ddbc_items_tally t;
	if (read_tally(json_object_get(root, "summary"), &t) < 0)
		return -1;
	size_t i;
	const json_t *f;
	json_array_foreach(json_object_get(root, "findings"), i, f) {
		char *line = sink->format == DDBC_ITEMS_JSON
			     ? json_dumps(f, JSON_COMPACT | JSON_PRESERVE_ORDER) : finding_text(f);
		ddbc_items_sink_line(sink, line, strlen(line));
		free(line);
	}
	ddbc_items_tally_add(&o->t, &t);
	const json_t *input = json_object_get(root, "input");
	o->shape = merge_word(o->shape, input, "shape", first);
	o->json = merge_word(o->json, input, "json", first);
	*first = false;
	const json_t *err = json_object_get(root, "error");
	if (err) {
		o->failed_input = true;
		if (!o->error)
			o->error = json_incref((json_t *)err);
	}
	return 0;
}

/* The files the results name, for the merged "files". */
static void add_files(json_t *files, const json_t *root)
{
	size_t i;
	const json_t *f;
	json_array_foreach(json_object_get(root, "files"), i, f)
		json_array_append(files, (json_t *)f);
}

ddbc_items_result ddbc_items_merge(FILE *out, const char *const *paths, size_t npaths,
				   const ddbc_items_opts *opts)
{
	json_t **roots = calloc(npaths ? npaths : 1, sizeof(*roots));
	json_t *files = json_array();
	bool ok = true;
	for (size_t i = 0; i < npaths; i++) {
		roots[i] = read_result(paths[i]);
		ok &= roots[i] != NULL;
		if (roots[i])
			add_files(files, roots[i]);
	}
	ddbc_items_result result = DDBC_ITEMS_UNREADABLE;
	if (ok) {
		size_t nf = json_array_size(files);
		const char **names = calloc(nf ? nf : 1, sizeof(*names));
		for (size_t i = 0; i < nf; i++)
			names[i] = json_string_value(json_array_get(files, i));
		ddbc_items_begin_output(out, opts->format, names, nf);
		free(names);
		ddbc_items_sink sink = { out, opts->format, opts->max_findings, 0, NULL, NULL };
		ddbc_items_outcome o;
		memset(&o, 0, sizeof(o));
		bool first = true;
		for (size_t i = 0; i < npaths; i++) {
			if (add_result(roots[i], &sink, &o, &first) < 0) {
				ddbc_file_error(paths[i], 0, 0,
						"the result's summary has no counts");
				o.failed_input = true;
			}
		}
		o.shown = sink.shown;
		ddbc_items_end_output(out, opts->format, &o);
		json_decref(o.error);
		result = o.failed_input ? DDBC_ITEMS_UNREADABLE
			 : o.t.errors ? DDBC_ITEMS_SOME_FAILED : DDBC_ITEMS_ALL_OK;
	}
	for (size_t i = 0; i < npaths; i++)
		json_decref(roots[i]);
	free(roots);
	json_decref(files);
	fflush(out);
	return result;
}
