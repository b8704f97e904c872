/* import_yaml.c - the imported design as block YAML
 *
 * Mappings are written in block style in their members' order, lists of
 * scalars in flow style, strings quoted whenever a plain scalar could be
 * read as something else. Double-quoted YAML is JSON's string syntax, so
 * jansson escapes them. A member "NAME#" is NAME's comment (import_int.h).
 */
#include "import/import_int.h"
#include "util/xalloc.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Whether s can be written unquoted and read back as the same string. */
static bool plain_ok(const char *s)
{
	static const char *const words[] = { "true", "false", "null", "yes", "no", "on", "off",
					     "~", NULL };
	if (!isalpha((unsigned char)s[0]) && s[0] != '_')
		return false;
	for (const char *p = s; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("_-.", *p))
			return false;
	for (int i = 0; words[i]; i++)
		if (!strcasecmp(s, words[i]))
			return false;
	return true;
}

static void write_string(FILE *out, const char *s)
{
	if (plain_ok(s)) {
		fputs(s, out);
		return;
	}
	json_t *j = json_string(s);
	json_dumpf(j, out, JSON_ENCODE_ANY);
	json_decref(j);
}

static void write_scalar(FILE *out, const json_t *v)
{
	if (ddbc_import_number_text(v))  /* a number's own digits */
		fputs(ddbc_import_number_text(v), out);
	else if (json_is_string(v))
		write_string(out, json_string_value(v));
	else
		json_dumpf(v, out, JSON_ENCODE_ANY | JSON_COMPACT);
}

static bool all_scalars(const json_t *a)
{
	size_t i;
	const json_t *v;
	json_array_foreach(a, i, v)
		if ((json_is_object(v) && !ddbc_import_number_text(v)) || json_is_array(v))
			return false;
	return true;
}

static void write_flow_list(FILE *out, const json_t *a)
{
	size_t i;
	const json_t *v;
	fputc('[', out);
	json_array_foreach(a, i, v) {
		fputs(i ? ", " : "", out);
		write_scalar(out, v);
	}
	fputc(']', out);
}

static void write_value(FILE *out, const json_t *v, int indent);

static bool is_comment_key(const char *k)
{
	size_t n = strlen(k);
	return n > 1 && k[n - 1] == '#';
}

/* Writes the comment of member k of obj, if it has one, and ends the line. */
static void end_line(FILE *out, const json_t *obj, const char *k)
{
	size_t n = strlen(k);
	char *ck = xmalloc(n + 2);
	memcpy(ck, k, n);
	memcpy(ck + n, "#", 2);
	const json_t *c = json_object_get(obj, ck);
	free(ck);
	if (json_is_string(c))
		fprintf(out, "  # %s", json_string_value(c));
	fputc('\n', out);
}

static void write_mapping(FILE *out, const json_t *obj, int indent, bool first_inline)
{
	const char *k;
	const json_t *v;
	bool first = true;
	json_object_foreach((json_t *)obj, k, v) {
		if (is_comment_key(k))
			continue;
		if (!(first && first_inline))
			fprintf(out, "%*s", indent, "");
		first = false;
		write_string(out, k);
		fputc(':', out);
		bool nested = (json_is_object(v) && json_object_size(v) &&
			       !ddbc_import_number_text(v)) ||
			      (json_is_array(v) && !all_scalars(v));
		if (!nested) {
			fputc(' ', out);
			write_value(out, v, indent);
			end_line(out, obj, k);
			continue;
		}
		end_line(out, obj, k);
		write_value(out, v, indent + 2);
	}
}

static void write_value(FILE *out, const json_t *v, int indent)
{
	if (json_is_object(v) && !ddbc_import_number_text(v)) {
		if (!json_object_size(v))
			fputs("{}", out);
		else
			write_mapping(out, v, indent, false);
	} else if (json_is_array(v)) {
		if (all_scalars(v)) {
			write_flow_list(out, v);
			return;
		}
		size_t i;
		const json_t *e;
		json_array_foreach(v, i, e) {
			fprintf(out, "%*s- ", indent, "");
			if (json_is_object(e) && json_object_size(e) && !ddbc_import_number_text(e)) {
				write_mapping(out, e, indent + 2, true);
			} else {
				write_scalar(out, e);
				fputc('\n', out);
			}
		}
	} else {
		write_scalar(out, v);
	}
}

void ddbc_import_write_yaml(FILE *out, const json_t *design)
{
	const char *k;
	const json_t *v;
	/* Blank lines between the top-level sections, as hand-written designs have. */
	json_object_foreach((json_t *)design, k, v) {
		if (is_comment_key(k))
			continue;
		if (json_is_object(v) || json_is_array(v))
			fputc('\n', out);
		json_t *one = json_object();
		json_object_set((json_t *)one, k, (json_t *)v);
		char ck[64];
		snprintf(ck, sizeof(ck), "%s#", k);
		if (json_object_get(design, ck))
			json_object_set(one, ck, json_object_get(design, ck));
		write_mapping(out, one, 0, false);
		json_decref(one);
	}
}
