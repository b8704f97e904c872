/* lsp_text.c - the editor's buffer: edits, and positions in UTF-16
 *
 * LSP counts a line's characters in UTF-16 code units (a character past
 * U+FFFF is two) and breaks lines at \n, \r\n and \r; the model counts
 * characters (code points) from 1, as libyaml does. The conversions live
 * here, at the server's edge, and nowhere else. A byte that is not valid
 * UTF-8 counts as one character, as the YAML reader would have refused
 * the file before counting further (utf8.h).
 */
#include "lsp/lsp_int.h"
#include "util/utf8.h"

#include <string.h>

/* The length of the character at p in bytes, and its UTF-16 units. */
static size_t char_at(const char *p, const char *end, size_t *units)
{
	unsigned cp;
	size_t n = ddbc_utf8_decode((const unsigned char *)p, (const unsigned char *)end, &cp);
	if (!n) {
		*units = 1;
		return 1;
	}
	*units = cp >= 0x10000 ? 2 : 1;
	return n;
}

static bool is_break(char c)
{
	return c == '\n' || c == '\r';
}

size_t lsp_offset(const char *text, size_t len, size_t line, size_t character)
{
	size_t at = 0;
	for (size_t l = 0; l < line && at < len; l++) {
		while (at < len && !is_break(text[at]))
			at++;
		if (at < len && text[at] == '\r' && at + 1 < len && text[at + 1] == '\n')
			at++;
		if (at < len)
			at++;
	}
	size_t units = 0;
	while (at < len && !is_break(text[at]) && units < character) {
		size_t u;
		at += char_at(text + at, text + len, &u);
		units += u;
	}
	return at;
}

size_t lsp_utf16_of_bytes(const char *line_text, size_t nbytes)
{
	size_t units = 0;
	for (size_t at = 0; at < nbytes;) {
		size_t u;
		at += char_at(line_text + at, line_text + nbytes, &u);
		units += u;
	}
	return units;
}

size_t lsp_bytes_of_column(const char *line_text, size_t line_len, unsigned column)
{
	size_t at = 0;
	for (unsigned c = 1; c < column && at < line_len; c++) {
		size_t u;
		at += char_at(line_text + at, line_text + line_len, &u);
	}
	return at;
}

static int position_of(const json_t *pos, size_t *line, size_t *character)
{
	json_int_t l, c;
	if (json_unpack((json_t *)pos, "{s:I, s:I}", "line", &l, "character", &c) < 0 || l < 0 ||
	    c < 0)
		return -1;
	*line = (size_t)l;
	*character = (size_t)c;
	return 0;
}

int lsp_apply_change(strbuf *buf, const json_t *change)
{
	const json_t *text = json_object_get(change, "text");
	if (!json_is_string(text))
		return -1;
	const json_t *range = json_object_get(change, "range");
	if (!range) {
		strbuf_reset(buf);
		strbuf_add(buf, json_string_value(text), json_string_length(text));
		return 0;
	}
	size_t l0, c0, l1, c1;
	if (position_of(json_object_get(range, "start"), &l0, &c0) < 0 ||
	    position_of(json_object_get(range, "end"), &l1, &c1) < 0)
		return -1;
	const char *t = strbuf_str(buf);
	size_t from = lsp_offset(t, buf->len, l0, c0), to = lsp_offset(t, buf->len, l1, c1);
	if (to < from)
		return -1;
	strbuf out = STRBUF_INIT;
	strbuf_add(&out, t, from);
	strbuf_add(&out, json_string_value(text), json_string_length(text));
	strbuf_add(&out, t + to, buf->len - to);
	strbuf_release(buf);
	*buf = out;
	return 0;
}

/* The end of a quoted scalar starting at at (past its closing quote). */
static size_t quoted_end(const char *line, size_t len, size_t at)
{
	char q = line[at];
	for (size_t i = at + 1; i < len; i++) {
		if (q == '"' && line[i] == '\\')
			i++;
		else if (line[i] == q && q == '\'' && i + 1 < len && line[i + 1] == '\'')
			i++;
		else if (line[i] == q)
			return i + 1;
	}
	return len;
}

/* The end of a flow collection starting at at, on this line. */
static size_t flow_end(const char *line, size_t len, size_t at)
{
	int depth = 0;
	for (size_t i = at; i < len; i++) {
		if (line[i] == '"' || line[i] == '\'') {
			i = quoted_end(line, len, i) - 1;
			continue;
		}
		depth += line[i] == '{' || line[i] == '[';
		depth -= line[i] == '}' || line[i] == ']';
		if (!depth)
			return i + 1;
	}
	return len;
}

size_t lsp_token_end(const char *line, size_t len, size_t at)
{
	if (at >= len)
		return len;
	if (line[at] == '"' || line[at] == '\'')
		return quoted_end(line, len, at);
	if (line[at] == '{' || line[at] == '[')
		return flow_end(line, len, at);
	size_t i = at;
	while (i < len && !strchr(",]}", line[i]) && !(line[i] == ':' && (i + 1 == len ||
	       line[i + 1] == ' ')) && !(line[i] == '#' && i > at && line[i - 1] == ' '))
		i++;
	while (i > at && line[i - 1] == ' ')
		i--;
	return i > at ? i : at + 1;
}
