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

/* The offset just past the line break at at (\r\n is one break). */
static size_t past_break(const char *text, size_t len, size_t at)
{
	if (text[at] == '\r' && at + 1 < len && text[at + 1] == '\n')
		return at + 2;
	return at + 1;
}

/* The offset where line (0-based) starts, or len. A large document is
 * edited near its end as often as near its start: the breaks are found
 * with memchr, a \n at a time, and a \r (rare in a design) is looked for
 * again only once the scan has passed the last one found. */
static size_t line_start(const char *text, size_t len, size_t line)
{
	size_t at = 0;
	const char *cr = memchr(text, '\r', len);
	for (size_t l = 0; l < line && at < len; l++) {
		const char *nl = memchr(text + at, '\n', len - at);
		if (cr && cr < text + at)
			cr = memchr(text + at, '\r', len - at);
		const char *brk = cr && (!nl || cr < nl) ? cr : nl;
		if (!brk)
			return len;
		at = past_break(text, len, (size_t)(brk - text));
	}
	return at;
}

/* The offset of character (UTF-16 units) on the line starting at at; the
 * line's end when it is shorter. */
static size_t offset_in_line(const char *text, size_t len, size_t at, size_t character)
{
	size_t units = 0;
	while (at < len && !is_break(text[at]) && units < character) {
		size_t u;
		at += char_at(text + at, text + len, &u);
		units += u;
	}
	return at;
}

size_t ddbc_lsp_offset(const char *text, size_t len, size_t line, size_t character)
{
	return offset_in_line(text, len, line_start(text, len, line), character);
}

size_t ddbc_lsp_utf16_of_bytes(const char *line_text, size_t nbytes)
{
	size_t units = 0;
	for (size_t at = 0; at < nbytes;) {
		size_t u;
		at += char_at(line_text + at, line_text + nbytes, &u);
		units += u;
	}
	return units;
}

size_t ddbc_lsp_bytes_of_column(const char *line_text, size_t line_len, unsigned column)
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

/* A change's range: 1 with its ends set, 0 when it has none (the whole
 * text), -1 when it is malformed (or its end is before its start). */
static int range_of(const json_t *change, size_t *l0, size_t *c0, size_t *l1, size_t *c1)
{
	const json_t *range = json_object_get(change, "range");
	if (!range)
		return 0;
	if (position_of(json_object_get(range, "start"), l0, c0) < 0 ||
	    position_of(json_object_get(range, "end"), l1, c1) < 0)
		return -1;
	return *l1 < *l0 || (*l1 == *l0 && *c1 < *c0) ? -1 : 1;
}

int ddbc_lsp_change_valid(const json_t *change)
{
	size_t l0, c0, l1, c1;
	if (!json_is_string(json_object_get(change, "text")))
		return -1;
	return range_of(change, &l0, &c0, &l1, &c1) < 0 ? -1 : 0;
}

/* Replaces bytes [from, to) of buf with len bytes of text, in place: a
 * keystroke in a 20 MB buffer moves its tail, it does not copy it all. */
static void splice(strbuf *buf, size_t from, size_t to, const char *text, size_t len)
{
	size_t tail = buf->len - to;
	if (len > to - from)
		ddbc_strbuf_add(buf, text, len - (to - from));   /* room; overwritten below */
	memmove(buf->buf + from + len, buf->buf + to, tail);
	memcpy(buf->buf + from, text, len);
	buf->len = from + len + tail;
	buf->buf[buf->len] = '\0';
}

int ddbc_lsp_apply_change(strbuf *buf, const json_t *change)
{
	const json_t *text = json_object_get(change, "text");
	size_t l0, c0, l1, c1;
	int ranged = range_of(change, &l0, &c0, &l1, &c1);
	if (!json_is_string(text) || ranged < 0)
		return -1;
	if (!ranged) {
		ddbc_strbuf_reset(buf);
		ddbc_strbuf_add(buf, json_string_value(text), json_string_length(text));
		return 0;
	}
	const char *t = ddbc_strbuf_str(buf);
	/* The end is found from the start's line, not from the top again. */
	size_t start = line_start(t, buf->len, l0);
	size_t from = offset_in_line(t, buf->len, start, c0);
	size_t to = offset_in_line(t, buf->len,
				   start + line_start(t + start, buf->len - start, l1 - l0), c1);
	splice(buf, from, to, json_string_value(text), json_string_length(text));
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

size_t ddbc_lsp_token_end(const char *line, size_t len, size_t at)
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
