/* verify_report.c - verify's report: text, JSON or SARIF
 *
 * text   a line per difference in the style of the findings (FILE:LINE:COL
 *        of the pattern's id: error: pattern 'ID' (Op): what differs), the
 *        request sent below it; then a line per pattern; then the sum
 * json   {"design", "endpoint", "items", "patterns": [{"pattern",
 *        "operation", "line", "column", "status": "ok"|"differs"|"skipped",
 *        "requests", "items", "differences": [{"message", "sent", ...}],
 *        "note"}], "summary": {"patterns", "ok", "differs", "skipped",
 *        "differences"}}
 * sarif  2.1.0, a result per difference (rule "verify-pattern") at the
 *        pattern's id, as lint's SARIF places findings
 * A run that cannot finish says why in the format asked for: an "error"
 * member in JSON, an unsuccessful invocation in SARIF (text: stderr only).
 */
#include "live/verify_int.h"

#include "config.h"

#include <stdlib.h>
#include <string.h>

static const char *status(const json_t *e)
{
	return json_string_value(json_object_get(e, "status"));
}

static json_t *summary(const verify_run *V)
{
	size_t ok = 0, differs = 0, skipped = 0, diffs = 0, i;
	json_t *e;
	json_array_foreach(V->report, i, e) {
		ok += !strcmp(status(e), "ok");
		differs += !strcmp(status(e), "differs");
		skipped += !strcmp(status(e), "skipped");
		diffs += json_array_size(json_object_get(e, "differences"));
	}
	return json_pack("{s:I, s:I, s:I, s:I, s:I}", "patterns",
			 (json_int_t)json_array_size(V->report), "ok", (json_int_t)ok, "differs",
			 (json_int_t)differs, "skipped", (json_int_t)skipped, "differences",
			 (json_int_t)diffs);
}

static int print_text(FILE *out, const verify_run *V)
{
	size_t i, k;
	json_t *e, *d;
	json_array_foreach(V->report, i, e) {
		json_array_foreach(json_object_get(e, "differences"), k, d) {
			fprintf(out, "%s:%d:%d: error: pattern '%s' (%s): %s\n", V->file,
				(int)json_integer_value(json_object_get(e, "line")),
				(int)json_integer_value(json_object_get(e, "column")),
				json_string_value(json_object_get(e, "pattern")),
				json_string_value(json_object_get(e, "operation")),
				json_string_value(json_object_get(d, "message")));
			char *sent = json_dumps(json_object_get(d, "sent"), JSON_COMPACT);
			fprintf(out, "    sent: %s\n", sent ? sent : "null");
			free(sent);
		}
	}
	json_array_foreach(V->report, i, e) {
		const json_t *note = json_object_get(e, "note");
		fprintf(out, "pattern '%s' (%s): %s, %d request%s, %d item%s%s%s\n",
			json_string_value(json_object_get(e, "pattern")),
			json_string_value(json_object_get(e, "operation")), status(e),
			(int)json_integer_value(json_object_get(e, "requests")),
			json_integer_value(json_object_get(e, "requests")) == 1 ? "" : "s",
			(int)json_integer_value(json_object_get(e, "items")),
			json_integer_value(json_object_get(e, "items")) == 1 ? "" : "s",
			note ? "; " : "", note ? json_string_value(note) : "");
	}
	json_t *s = summary(V);
	int patterns = (int)json_integer_value(json_object_get(s, "patterns"));
	int differ = (int)json_integer_value(json_object_get(s, "differs"));
	fprintf(out, "%zu item%s %s %s; %d pattern%s: %d ok, %d differ%s, %d skipped\n",
		V->n, V->n == 1 ? "" : "s", V->o->in_place ? "in place on" : "written to",
		ddbc_dynamo_endpoint(V->client), patterns,
		patterns == 1 ? "" : "s", (int)json_integer_value(json_object_get(s, "ok")), differ,
		differ == 1 ? "s" : "", (int)json_integer_value(json_object_get(s, "skipped")));
	json_decref(s);
	return ferror(out) ? -1 : 0;
}

static int dump(FILE *out, json_t *root)
{
	int rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(root);
	return rc < 0 || fputc('\n', out) == EOF ? -1 : 0;
}

static int print_json(FILE *out, const verify_run *V)
{
	return dump(out, json_pack("{s:s, s:s, s:I, s:b, s:O, s:o}", "design", V->file,
				   "endpoint", ddbc_dynamo_endpoint(V->client), "items",
				   (json_int_t)V->n, "in_place", V->o->in_place, "patterns",
				   V->report, "summary", summary(V)));
}

static json_t *sarif_result(const verify_run *V, const json_t *e, const json_t *d)
{
	strbuf msg = STRBUF_INIT;
	ddbc_strbuf_addf(&msg, "pattern '%s' (%s): %s", json_string_value(json_object_get(e, "pattern")),
		    json_string_value(json_object_get(e, "operation")),
		    json_string_value(json_object_get(d, "message")));
	json_t *r = json_pack("{s:s, s:i, s:s, s:{s:s}, s:[{s:{s:{s:s}, s:{s:I, s:I}}}], "
			      "s:{s:O}}",
			      "ruleId", "verify-pattern", "ruleIndex", 0, "level", "error",
			      "message", "text", ddbc_strbuf_str(&msg), "locations", "physicalLocation",
			      "artifactLocation", "uri", V->file, "region", "startLine",
			      json_integer_value(json_object_get(e, "line")), "startColumn",
			      json_integer_value(json_object_get(e, "column")), "properties", "sent",
			      json_object_get(d, "sent"));
	ddbc_strbuf_release(&msg);
	return r;
}

static int print_sarif(FILE *out, const verify_run *V)
{
	json_t *results = json_array();
	size_t i, k;
	json_t *e, *d;
	json_array_foreach(V->report, i, e)
		json_array_foreach(json_object_get(e, "differences"), k, d)
			json_array_append_new(results, sarif_result(V, e, d));
	json_t *rule = json_pack("{s:s, s:{s:s}, s:{s:s}}", "id", "verify-pattern",
				 "shortDescription", "text", "an access pattern's request does on "
				 "the engine what the design says", "defaultConfiguration", "level",
				 "error");
	return dump(out, json_pack("{s:s, s:s, s:[{s:{s:{s:s, s:s, s:[o]}}, s:[{s:b}], s:s, "
				   "s:o}]}",
				   "$schema", "https://json.schemastore.org/sarif-2.1.0.json",
				   "version", "2.1.0", "runs", "tool", "driver", "name", "ddbc",
				   "version", PACKAGE_VERSION, "rules", rule, "invocations",
				   "executionSuccessful", 1, "columnKind", "unicodeCodePoints",
				   "results", results));
}

int ddbc_verify_print(FILE *out, const verify_run *V)
{
	switch (V->o->format) {
	case DDBC_VERIFY_JSON: return print_json(out, V);
	case DDBC_VERIFY_SARIF: return print_sarif(out, V);
	case DDBC_VERIFY_TEXT: break;
	}
	return print_text(out, V);
}

int ddbc_verify_print_failure(FILE *out, const verify_run *V)
{
	const char *why = ddbc_strbuf_str(&V->error);
	if (V->o->format == DDBC_VERIFY_JSON)
		return dump(out, json_pack("{s:s, s:s}", "design", V->file, "error", why));
	if (V->o->format != DDBC_VERIFY_SARIF)
		return 0;
	return dump(out, json_pack("{s:s, s:s, s:[{s:{s:{s:s, s:s}}, s:[{s:b, s:[{s:s, s:{s:s}}]}], "
				   "s:[]}]}",
				   "$schema", "https://json.schemastore.org/sarif-2.1.0.json",
				   "version", "2.1.0", "runs", "tool", "driver", "name", "ddbc",
				   "version", PACKAGE_VERSION, "invocations", "executionSuccessful", 0,
				   "toolExecutionNotifications", "level", "error", "message", "text",
				   why, "results"));
}
