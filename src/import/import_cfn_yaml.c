/* import_cfn_yaml.c - a CloudFormation template as a jansson tree
 *
 * Templates are YAML (with the short intrinsic tags !Ref, !Sub, !GetAtt,
 * ...) or JSON, which YAML reads too. The design's own reader keeps no
 * tags, so this one turns each tag into the long form CloudFormation
 * defines for it: !Ref X is {"Ref": X}, !GetAtt A.B is {"Fn::GetAtt":
 * [A, B]}, !Condition X is {"Condition": X}, any other !Name is
 * {"Fn::Name": ...}.
 *
 * jansson's tree of a template is some six times its text, and a design
 * of thousands of tables is built beside it. So a template is read
 * streamed: its Resources are read one at a time, each whole (every error
 * the whole reading gives, at its place), and a table resource is kept
 * packed (import_cfn_keep.c) until import_cfn.c turns it into a table; any
 * other resource is kept as null, its logical id alone (Fn::ForEach
 * checks its copies' ids against the others'), an Fn::ForEach as its
 * tree. What a resource may refer to (Parameters, Mappings, Conditions,
 * Transform, Globals) is read whole wherever it stands in the file.
 */
#include "import/import_cfn.h"
#include "import/import_int.h"
#include "util/decimal.h"
#include "util/xalloc.h"
#include "util/output.h"
#include "util/source.h"

#include <ctype.h>
#include <math.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <yaml.h>

struct reader {
	yaml_parser_t p;
	const char *file;
	int depth;
	json_t *stash;   /* logical id -> a table resource's text; NULL: read whole */
};

/* How a mapping is read: the template itself (whose Resources may be
 * streamed), its Resources (streamed), or any other. */
enum level { TOP, RESOURCES, OTHER };

static json_t *node(struct reader *r, yaml_event_t *ev, enum level level);

static int next(struct reader *r, yaml_event_t *ev)
{
	if (yaml_parser_parse(&r->p, ev))
		return 0;
	return ddbc_import_fail(r->file, "%zu:%zu: %s", r->p.problem_mark.line + 1,
				r->p.problem_mark.column + 1,
				r->p.problem ? r->p.problem : "not YAML");
}

static bool all_digits(const char *s)
{
	if (*s == '-' || *s == '+')
		s++;
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* A plain scalar's value under YAML's core schema (what CloudFormation reads). */
static json_t *plain(const char *s)
{
	if (!strcmp(s, "true") || !strcmp(s, "True") || !strcmp(s, "TRUE"))
		return json_true();
	if (!strcmp(s, "false") || !strcmp(s, "False") || !strcmp(s, "FALSE"))
		return json_false();
	if (!*s || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null"))
		return json_null();
	if (all_digits(s) && strlen(s) < 18)
		return json_integer(strtoll(s, NULL, 10));
	/* Any other decimal keeps its own digits (a double would make 0.1 of
	 * 0.1000000000000000055511151231257827 and 38 digits of 17). */
	if (ddbc_decimal_valid(s, strlen(s)))
		return ddbc_import_number(s);
	char *end;
	double d = strtod(s, &end);
	/* What is left of strtod's numbers is YAML 1.1's hex (0x10), read
	 * as CloudFormation reads it; one past a double's range stays its
	 * text, for the reader to refuse by name (jansson holds no infinity). */
	json_t *r = !*end && (isdigit((unsigned char)*s) || *s == '-' || *s == '.') && isfinite(d)
		  ? json_real(d) : NULL;
	return r ? r : ddbc_import_str(s);
}

/* Wraps v in the long form of short tag tag ("!Ref"). */
static json_t *long_form(const char *tag, json_t *v)
{
	const char *name = tag + 1;
	if (!strcmp(name, "Ref") || !strcmp(name, "Condition"))
		return json_pack("{so}", name, v);
	char key[64];
	snprintf(key, sizeof(key), "Fn::%s", name);
	if (!strcmp(name, "GetAtt") && ddbc_import_is_string(v)) {
		const char *s = ddbc_import_string_value(v), *dot = strchr(s, '.');
		json_t *parts = dot ? json_pack("[s#s]", s, (int)(dot - s), dot + 1)
				    : json_pack("[O]", v);
		json_decref(v);
		v = parts;
	}
	return json_pack("{so}", key, v);
}

static json_t *tagged(const yaml_char_t *tag, json_t *v)
{
	const char *t = (const char *)tag;
	if (!v || !t || t[0] != '!' || t[1] == '!' || !t[1])
		return v;
	return long_form(t, v);
}

static json_t *sequence(struct reader *r)
{
	json_t *a = json_array();
	for (;;) {
		yaml_event_t ev;
		if (next(r, &ev) < 0)
			break;
		if (ev.type == YAML_SEQUENCE_END_EVENT) {
			yaml_event_delete(&ev);
			return a;
		}
		json_t *v = node(r, &ev, OTHER);
		yaml_event_delete(&ev);
		if (!v)
			break;
		json_array_append_new(a, v);
	}
	json_decref(a);
	return NULL;
}

/* What Resources keeps of resource res (taken) of logical id logical. */
static json_t *kept(struct reader *r, const char *logical, json_t *res)
{
	if (!strncmp(logical, "Fn::ForEach::", 13))
		return res;
	json_t *k = ddbc_cfn_keep(r->stash, logical, res);
	json_decref(res);
	return k;
}

static json_t *mapping(struct reader *r, enum level level)
{
	json_t *m = json_object();
	for (;;) {
		yaml_event_t ev;
		if (next(r, &ev) < 0)
			break;
		if (ev.type == YAML_MAPPING_END_EVENT) {
			yaml_event_delete(&ev);
			return m;
		}
		if (ev.type != YAML_SCALAR_EVENT) {
			ddbc_import_fail(r->file, "%zu:%zu: a mapping key that is not a scalar",
					 ev.start_mark.line + 1, ev.start_mark.column + 1);
			yaml_event_delete(&ev);
			break;
		}
		/* Names read as the JSON sources read them (import_int.h). */
		json_t *k = ddbc_import_str((const char *)ev.data.scalar.value);
		char *key = ddbc_xstrdup(k ? ddbc_import_string_value(k) : "");
		json_decref(k);
		/* A second resource of one logical id would drop the first
		 * silently: refused, as the JSON reader refuses it. */
		if (json_object_get(m, key)) {
			ddbc_import_fail(r->file, "%zu:%zu: '%s' appears twice in one mapping",
					 ev.start_mark.line + 1, ev.start_mark.column + 1, key);
			yaml_event_delete(&ev);
			free(key);
			break;
		}
		yaml_event_delete(&ev);
		if (next(r, &ev) < 0) {
			free(key);
			break;
		}
		bool streamed = level == TOP && r->stash && !strcmp(key, "Resources");
		json_t *v = node(r, &ev, streamed ? RESOURCES : OTHER);
		yaml_event_delete(&ev);
		if (v && level == RESOURCES)
			v = kept(r, key, v);
		if (v)
			json_object_set_new(m, key, v);
		free(key);
		if (!v)
			break;
	}
	json_decref(m);
	return NULL;
}

static json_t *node(struct reader *r, yaml_event_t *ev, enum level level)
{
	if (++r->depth > 256) {
		ddbc_import_fail(r->file, "nested too deeply");
		return NULL;
	}
	json_t *v = NULL;
	switch (ev->type) {
	case YAML_SCALAR_EVENT: {
		const char *s = (const char *)ev->data.scalar.value;
		v = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE && !ev->data.scalar.tag
			? plain(s) : ddbc_import_str(s);
		v = tagged(ev->data.scalar.tag, v);
		break;
	}
	case YAML_SEQUENCE_START_EVENT:
		v = tagged(ev->data.sequence_start.tag, sequence(r));
		break;
	case YAML_MAPPING_START_EVENT:
		/* A tagged mapping is a function's argument: read whole. */
		v = tagged(ev->data.mapping_start.tag,
			   mapping(r, ev->data.mapping_start.tag ? OTHER : level));
		break;
	default:
		ddbc_import_fail(r->file, "%zu:%zu: aliases are not read in templates",
				 ev->start_mark.line + 1, ev->start_mark.column + 1);
	}
	r->depth--;
	return v;
}

/* Skips events up to the document's root node and reads it. */
static json_t *document(struct reader *r)
{
	for (;;) {
		yaml_event_t ev;
		if (next(r, &ev) < 0)
			return NULL;
		yaml_event_type_t t = ev.type;
		if (t == YAML_STREAM_START_EVENT || t == YAML_DOCUMENT_START_EVENT) {
			yaml_event_delete(&ev);
			continue;
		}
		json_t *v = NULL;
		if (t == YAML_STREAM_END_EVENT)
			ddbc_import_fail(r->file, "the file is empty");
		else
			v = node(r, &ev, TOP);
		yaml_event_delete(&ev);
		return v;
	}
}

static json_t *load(const char *file, json_t *stash)
{
	bool in = strcmp(file, "-") == 0;  /* standard input, as every import reads it */
	if (in)
		ddbc_output_note_input_fd(STDIN_FILENO, "-");
	FILE *f = in ? stdin : ddbc_input_fopen(file);
	if (!f) {
		ddbc_import_fail(file, "cannot read: %s", strerror(errno));
		return NULL;
	}
	struct reader r = { .file = file, .stash = stash };
	yaml_parser_initialize(&r.p);
	yaml_parser_set_input_file(&r.p, f);
	json_t *root = document(&r);
	yaml_parser_delete(&r.p);
	if (!in)
		fclose(f);
	return root;
}

json_t *ddbc_import_parse_template(const char *file, const char *text, size_t len)
{
	struct reader r = { .file = file };
	yaml_parser_initialize(&r.p);
	yaml_parser_set_input_string(&r.p, (const unsigned char *)text, len);
	json_t *root = document(&r);
	yaml_parser_delete(&r.p);
	return root;
}

json_t *ddbc_import_load_template(const char *file)
{
	return load(file, NULL);
}

json_t *ddbc_import_stream_template(const char *file, json_t **stash)
{
	*stash = json_object();
	json_t *root = load(file, *stash);
	if (!root) {
		json_decref(*stash);
		*stash = NULL;
	}
	return root;
}
