/* import_yaml.c - the imported design as block YAML
 *
 * Mappings are written in block style in their members' order, lists of
 * scalars in flow style, strings quoted whenever a plain scalar could be
 * read as something else, with every character YAML would not read back
 * as it was escaped. Comments (import_comment.c) go through the same
 * escaper, so no source text reaches the design raw.
 */
#include "import/import_int.h"
#include "util/json_number.h"
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
	const char *p = s;
	for (; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("_-.", *p))
			return false;
	/* Longer than any of the words, or beginning as none does. */
	if (p - s > 5 || !strchr("tfnyoTFNYO", s[0]))
		return true;
	for (int i = 0; words[i]; i++)
		if (!strcasecmp(s, words[i]))
			return false;
	return true;
}

/* Whether the character at p (of n bytes) must be escaped: a control
 * character, C1 (U+0085 among them), a line or paragraph separator, or a
 * byte order mark. YAML reads U+0085, U+2028 and U+2029 as line breaks,
 * so even inside quotes they would not come back as they were. */
static unsigned escaped_char(const unsigned char *p, int *len)
{
	*len = 1;
	if (p[0] < 0x20 || p[0] == 0x7f)
		return p[0];
	if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
		*len = 2;
		return p[1];
	}
	if (p[0] == 0xe2 && p[1] == 0x80 && (p[2] == 0xa8 || p[2] == 0xa9)) {
		*len = 3;
		return 0x2000u | (p[2] & 0x3fu);
	}
	if (p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf) {
		*len = 3;
		return 0xfeff;
	}
	return 0;
}

/* Writes s with every character escaped_char names as \uXXXX (\n, \t as
 * themselves), and quote and backslash escaped: the one escaper of the
 * scalars (quote '"') and the comments (quote 0) the importer writes. */
static void write_escaped(FILE *out, const char *s, char quote)
{
	const unsigned char *run = (const unsigned char *)s;   /* bytes kept as they are */
	for (const unsigned char *p = run; *p;) {
		int len;
		unsigned c = escaped_char(p, &len);
		bool slash = !c && (*p == '\\' || (quote && *p == (unsigned char)quote));
		if (!c && !slash) {
			p += len;
			continue;
		}
		fwrite(run, 1, (size_t)(p - run), out);
		if (c == '\n')
			fputs("\\n", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c)
			fprintf(out, "\\u%04X", c);
		else {
			fputc('\\', out);
			fputc(*p, out);
		}
		p += len;
		run = p;
	}
	fwrite(run, 1, strlen((const char *)run), out);
}

/* indent spaces, without printf: every line the writer writes starts so. */
static void write_indent(FILE *out, int indent)
{
	static const char spaces[] = "                                ";
	for (; indent > 0; indent -= (int)sizeof(spaces) - 1)
		fwrite(spaces, 1, indent < (int)sizeof(spaces) - 1 ? (size_t)indent
								    : sizeof(spaces) - 1, out);
}

static void write_string(FILE *out, const char *s)
{
	/* A source string that begins with the number mark holds it twice
	 * (import_int.h): written as the source wrote it. */
	s = ddbc_json_source_text(s);
	if (plain_ok(s)) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	write_escaped(out, s, '"');
	fputc('"', out);
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

static void write_value(const ddbc_import_run *run, FILE *out, const json_t *v, int indent);

/* Writes the comment of member k of obj, if it has one, and ends the line. */
static void end_line(const ddbc_import_run *run, FILE *out, const json_t *obj, const char *k)
{
	const char *c = ddbc_import_comment(run, obj, k);
	if (c) {
		fputs("  # ", out);
		write_escaped(out, c, 0);
	}
	fputc('\n', out);
}

/* The longest key written as an implicit one: its escaped text stays
 * under YAML's 1024-character limit on implicit keys. */
#define LONG_KEY 160

/* Writes member k (value v) of obj; the key is indented unless inline. */
static void write_member(const ddbc_import_run *run, FILE *out, const json_t *obj,
			 const char *k, const json_t *v, int indent, bool inline_key)
{
	const char *made = ddbc_import_written(run, v);
	if (made) {   /* the member's whole text, made before */
		fputs(made, out);
		return;
	}
	if (!inline_key)
		write_indent(out, indent);
	if (strlen(k) > LONG_KEY) {
		/* YAML reads an implicit key of at most 1024 characters:
		 * a longer one (escaped, up to 6 bytes a character) is
		 * written as an explicit key, "? key" then ": value". */
		fputs("? ", out);
		write_string(out, k);
		fputc('\n', out);
		write_indent(out, indent);
	} else {
		write_string(out, k);
	}
	fputc(':', out);
	bool nested = (json_is_object(v) && json_object_size(v) &&
		       !ddbc_import_number_text(v)) ||
		      (json_is_array(v) && !all_scalars(v));
	if (!nested) {
		fputc(' ', out);
		write_value(run, out, v, indent);
		end_line(run, out, obj, k);
		return;
	}
	end_line(run, out, obj, k);
	write_value(run, out, v, indent + 2);
}

static void write_mapping(const ddbc_import_run *run, FILE *out, const json_t *obj, int indent,
			  bool first_inline)
{
	const char *k;
	const json_t *v;
	bool first = true;
	json_object_foreach((json_t *)obj, k, v) {
		write_member(run, out, obj, k, v, indent, first && first_inline);
		first = false;
	}
}

static void write_value(const ddbc_import_run *run, FILE *out, const json_t *v, int indent)
{
	if (json_is_object(v) && !ddbc_import_number_text(v)) {
		if (!json_object_size(v))
			fputs("{}", out);
		else
			write_mapping(run, out, v, indent, false);
	} else if (json_is_array(v)) {
		if (all_scalars(v)) {
			write_flow_list(out, v);
			return;
		}
		size_t i;
		const json_t *e;
		json_array_foreach(v, i, e) {
			write_indent(out, indent);
			fputs("- ", out);
			if (json_is_object(e) && json_object_size(e) && !ddbc_import_number_text(e)) {
				write_mapping(run, out, e, indent + 2, true);
			} else {
				write_scalar(out, e);
				fputc('\n', out);
			}
		}
	} else {
		write_scalar(out, v);
	}
}

/* One memory stream for every member written to text: opening one costs
 * some 14,000 instructions (its buffer is calloc'ed), more than writing a
 * small entity. Each member is written from the start; fflush then sets
 * len to the bytes written. Kept open to the end of the run. */
json_t *ddbc_import_yaml_member(ddbc_import_run *run, const json_t *obj, const char *k,
				int indent)
{
	if (!run->member_mem &&
	    !(run->member_mem = open_memstream(&run->member_text, &run->member_len)))
		return NULL;
	rewind(run->member_mem);
	write_member(run, run->member_mem, obj, k, json_object_get(obj, k), indent, false);
	if (fflush(run->member_mem) != 0)
		return NULL;
	return json_stringn_nocheck(run->member_text, run->member_len);
}

void ddbc_import_write_yaml(ddbc_import_run *run, FILE *out, const json_t *design)
{
	const char *k;
	const json_t *v;
	/* Blank lines between the top-level sections, as hand-written designs have. */
	json_object_foreach((json_t *)design, k, v) {
		if (json_is_object(v) || json_is_array(v))
			fputc('\n', out);
		write_member(run, out, design, k, v, 0, false);
	}
}
