/* doc_escape.c - user text made safe for Markdown and HTML
 *
 * The Markdown escapers keep the document's structure whatever the text
 * holds, and they stay linear on text built to make a naive one quadratic
 * (runs of unmatched backticks, "](" over and over).
 */
#include "emit/doc_escape.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool is_break(char c)
{
	return c == '\n' || c == '\r';
}

/* The length of the run at s of bytes that stop does not mark (it marks
 * NUL): the escapers copy such a run in one go, not byte by byte. */
static size_t run_len(const char *s, const unsigned char stop[256])
{
	const unsigned char *p = (const unsigned char *)s;
	while (!stop[*p])
		p++;
	return (size_t)(p - (const unsigned char *)s);
}

/* Copies the run at s (run_len) and returns the byte that ended it, or
 * NULL at the end of s (or when s is NULL). */
static const char *copy_run(strbuf *sb, const char *s, const unsigned char stop[256])
{
	if (!s)
		return NULL;
	size_t n = run_len(s, stop);
	ddbc_strbuf_add(sb, s, n);
	return s[n] ? s + n : NULL;
}

/* Plain text: every character that could start Markdown is escaped, and
 * line breaks become spaces. */
static void put_text(strbuf *sb, const char *s)
{
	static const unsigned char stop[256] = {
		[0] = 1, ['\n'] = 1, ['\r'] = 1, ['\\'] = 1, ['`'] = 1, ['*'] = 1, ['_'] = 1,
		['['] = 1, [']'] = 1, ['<'] = 1, ['&'] = 1, ['~'] = 1, ['#'] = 1, ['|'] = 1, ['$'] = 1,
	};
	for (; (s = copy_run(sb, s, stop)) != NULL; s++) {
		if (is_break(*s))
			ddbc_strbuf_addch(sb, ' ');
		else
			ddbc_strbuf_addch(sb, '\\'), ddbc_strbuf_addch(sb, *s);
	}
}

static size_t backtick_run(const char *s)
{
	size_t n = 0;
	while (s[n] == '`')
		n++;
	return n;
}

size_t ddbc_doc_longest_backticks(const char *s)
{
	/* strchr skips the text between runs at its own speed: most text
	 * holds no backtick. */
	size_t longest = 0;
	while ((s = strchr(s, '`')) != NULL) {
		size_t r = backtick_run(s);
		if (r > longest)
			longest = r;
		s += r;
	}
	return longest;
}

static void put_backticks(strbuf *sb, size_t n)
{
	static const char ticks[] = "````````````````";
	if (n == 1) {
		/* Nearly every span: one byte is cheaper added as one. */
		ddbc_strbuf_addch(sb, '`');
		return;
	}
	for (; n > sizeof(ticks) - 1; n -= sizeof(ticks) - 1)
		ddbc_strbuf_add(sb, ticks, sizeof(ticks) - 1);
	ddbc_strbuf_add(sb, ticks, n);
}

/* A code span showing s exactly: fenced by more backticks than s holds in a
 * row, padded when a backtick or a space at both ends would be eaten. */
/* put_code of text without a backtick, line break or '|' (most values
 * and templates), short enough to be built in one piece: whether it was. */
static bool put_plain_code(strbuf *sb, const char *s)
{
	static const unsigned char special[256] = {
		[0] = 1, ['`'] = 1, ['\n'] = 1, ['\r'] = 1, ['|'] = 1,
	};
	char span[64];
	size_t len = 0;
	while (!special[(unsigned char)s[len]])
		if (++len > sizeof(span) - 4)
			return false;
	if (s[len])
		return false;
	/* Spaces at both ends are eaten unless the span is all spaces. */
	bool pad = s[0] == ' ' && s[len - 1] == ' ' && strspn(s, " ") != len;
	size_t n = 0;
	span[n++] = '`';
	if (pad)
		span[n++] = ' ';
	memcpy(span + n, s, len);
	n += len;
	if (pad)
		span[n++] = ' ';
	span[n++] = '`';
	ddbc_strbuf_add(sb, span, n);
	return true;
}

static void put_code(strbuf *sb, const char *s, bool cell)
{
	if (!s || !*s || put_plain_code(sb, s))
		return;
	size_t len = strlen(s);
	size_t longest = ddbc_doc_longest_backticks(s);
	bool pad = s[0] == '`' || s[len - 1] == '`';
	/* Spaces at both ends are eaten unless the span is all spaces. */
	if (!pad && (s[0] == ' ' || is_break(s[0])) && (s[len - 1] == ' ' || is_break(s[len - 1])))
		pad = strspn(s, " \n\r") != len;
	put_backticks(sb, longest + 1);
	if (pad)
		ddbc_strbuf_addch(sb, ' ');
	/* strcspn reads many bytes a step: a value is mostly plain text. */
	const char *stop = cell ? "\n\r|" : "\n\r";
	for (const char *p = s;; p++) {
		size_t n = strcspn(p, stop);
		ddbc_strbuf_add(sb, p, n);
		p += n;
		if (!*p)
			break;
		if (is_break(*p))
			ddbc_strbuf_addch(sb, ' ');
		else
			ddbc_strbuf_add(sb, "\\|", 2);
	}
	if (pad)
		ddbc_strbuf_addch(sb, ' ');
	put_backticks(sb, longest + 1);
}

bool ddbc_doc_safe_url(const char *url, size_t len)
{
	static const char *const schemes[] = { "http:", "https:", "mailto:" };
	for (size_t i = 0; i < sizeof(schemes) / sizeof(schemes[0]); i++) {
		size_t n = strlen(schemes[i]);
		if (len >= n && !strncasecmp(url, schemes[i], n))
			return true;
	}
	/* Relative: no scheme, and no entity or escape that could spell one. */
	for (size_t i = 0; i < len && !strchr("/?#", url[i]); i++)
		if (url[i] == ':' || url[i] == '&' || url[i] == '\\' || (unsigned char)url[i] < 0x20)
			return false;
	return true;
}

/* Whether the inline link destination at s (after "](") is safe. Only its
 * start decides, so only that is read: text full of "](" stays linear. A
 * start too long to tell is taken as unsafe, which only escapes a '('. */
static bool safe_destination(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '<')
		s++;
	size_t n = 0;
	while (n < 256 && s[n] && !strchr(" \t>)/?#", s[n]))
		n++;
	return n < 256 && ddbc_doc_safe_url(s, n);
}

/* An autolink "<https://...>" that may stay: its length, else 0. */
static size_t safe_autolink(const char *s)
{
	size_t n = strcspn(s + 1, "<> \t");
	if (s[1 + n] != '>' || !n || !memchr(s + 1, ':', n) || !ddbc_doc_safe_url(s + 1, n))
		return 0;
	return n + 2;
}

/* The escape, if any, that keeps the start of a paragraph from opening a
 * block (heading, quote, list, rule, fence, table, link definition):
 * returns how many leading bytes were written. */
static size_t guard_para_start(strbuf *sb, const char *s)
{
	size_t digits = strspn(s, "0123456789");
	if (digits && digits <= 9 && (s[digits] == '.' || s[digits] == ')')) {
		ddbc_strbuf_add(sb, s, digits);
		ddbc_strbuf_addch(sb, '\\');
		ddbc_strbuf_addch(sb, s[digits]);
		return digits + 1;
	}
	bool definition = s[0] == '[' && strstr(s, "]:");
	if ((s[0] && strchr("#>+-*=_~|", s[0])) || backtick_run(s) >= 3 || definition) {
		ddbc_strbuf_addch(sb, '\\');
		ddbc_strbuf_addch(sb, s[0]);
		return 1;
	}
	return 0;
}

char *ddbc_doc_one_line(const char *s)
{
	while (*s == ' ' || *s == '\t' || is_break(*s))
		s++;
	char *t = ddbc_xstrdup(s);
	size_t n = strlen(t);
	while (n && (t[n - 1] == ' ' || t[n - 1] == '\t' || is_break(t[n - 1])))
		t[--n] = '\0';
	for (char *p = t; *p; p++)
		if (is_break(*p))
			*p = ' ';
	return t;
}

/* Where a search for a closing run of each length is known to fail, so
 * that text full of unmatched backticks is still read in linear time. */
enum { MAX_RUN = 64 };
typedef struct runs {
	size_t fails_from[MAX_RUN];
} runs;

/* The code span starting at t + i (a run of r backticks): its whole length
 * when a closing run of exactly r backticks follows, else 0. Longer runs
 * are taken as text, which only escapes more than needed. */
static size_t code_span(const char *t, size_t i, size_t r, runs *known)
{
	if (r >= MAX_RUN || known->fails_from[r] <= i)
		return 0;
	for (const char *p = t + i + r; *p;) {
		size_t n = backtick_run(p);
		if (n == r)
			return (size_t)(p + n - (t + i));
		p += n ? n : 1;
	}
	known->fails_from[r] = i;
	return 0;
}

/* Inline Markdown kept as written, except what could escape its place. */
static void put_inline(strbuf *sb, const char *s, bool cell, bool para)
{
	if (!s)
		return;
	char *t = ddbc_doc_one_line(s);
	size_t i = para ? guard_para_start(sb, t) : 0;
	runs known;
	for (size_t k = 0; k < MAX_RUN; k++)
		known.fails_from[k] = (size_t)-1;
	while (t[i]) {
		char c = t[i];
		size_t r, n;
		if (c == '\\' && t[i + 1] && strchr("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", t[i + 1])) {
			ddbc_strbuf_add(sb, t + i, 2);
			i += 2;
		} else if (c == '`' && (n = code_span(t, i, r = backtick_run(t + i), &known))) {
			for (size_t k = 0; k < n; k++) {
				if (t[i + k] == '|' && cell)
					ddbc_strbuf_addch(sb, '\\');
				ddbc_strbuf_addch(sb, t[i + k]);
			}
			i += n;
		} else if (c == '`') {
			ddbc_strbuf_add(sb, t + i, r);
			i += r;
		} else if (c == '<' && (n = safe_autolink(t + i))) {
			ddbc_strbuf_add(sb, t + i, n);
			i += n;
		} else if (c == '<' || (c == '|' && cell)) {
			ddbc_strbuf_addch(sb, '\\');
			ddbc_strbuf_addch(sb, c);
			i++;
		} else if (c == ']' && t[i + 1] == '(' && !safe_destination(t + i + 2)) {
			ddbc_strbuf_addstr(sb, "]\\(");
			i += 2;
		} else {
			/* c and the bytes after it up to the next that may need
			 * more than a copy. */
			static const unsigned char stop[256] = {
				[0] = 1, ['\\'] = 1, ['`'] = 1, ['<'] = 1, ['|'] = 1, [']'] = 1,
			};
			n = 1 + run_len(t + i + 1, stop);
			ddbc_strbuf_add(sb, t + i, n);
			i += n;
		}
	}
	free(t);
}

/* ---- HTML ---------------------------------------------------------------------------- */

/* The characters cmark escapes in text, so text written directly reads
 * the same as text cmark renders. */
static void put_html(strbuf *sb, const char *s, bool one_line)
{
	static const unsigned char stop[256] = {
		[0] = 1, ['&'] = 1, ['<'] = 1, ['>'] = 1, ['"'] = 1, ['\n'] = 1, ['\r'] = 1,
	};
	for (; (s = copy_run(sb, s, stop)) != NULL; s++) {
		switch (*s) {
		case '&': ddbc_strbuf_addstr(sb, "&amp;"); break;
		case '<': ddbc_strbuf_addstr(sb, "&lt;"); break;
		case '>': ddbc_strbuf_addstr(sb, "&gt;"); break;
		case '"': ddbc_strbuf_addstr(sb, "&quot;"); break;
		case '\n': ddbc_strbuf_addch(sb, one_line ? ' ' : '\n'); break;
		case '\r': ddbc_strbuf_addch(sb, one_line ? ' ' : '\r'); break;
		}
	}
}

/* A link target: letters, digits and the punctuation of URLs as they are,
 * every other byte (the UTF-8 of a Japanese id) as %XX. */
static void put_href(strbuf *sb, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    strchr("-_.~#/?:@!$()*+,;=", c)) {
			ddbc_strbuf_addch(sb, (char)c);
		} else {
			ddbc_strbuf_addch(sb, '%');
			ddbc_strbuf_addch(sb, hex[c >> 4]);
			ddbc_strbuf_addch(sb, hex[c & 15]);
		}
	}
}

/* Plain text: a control character as \xNN (a C1 one, U+0080 to U+009F,
 * is C2 80 to C2 9F in UTF-8: its code point is shown). */
static void put_plain(strbuf *sb, const char *s)
{
	static const unsigned char stop[256] = {
		[0] = 1, [1] = 1, [2] = 1, [3] = 1, [4] = 1, [5] = 1, [6] = 1, [7] = 1, [8] = 1,
		[9] = 1, [10] = 1, [11] = 1, [12] = 1, [13] = 1, [14] = 1, [15] = 1, [16] = 1,
		[17] = 1, [18] = 1, [19] = 1, [20] = 1, [21] = 1, [22] = 1, [23] = 1, [24] = 1,
		[25] = 1, [26] = 1, [27] = 1, [28] = 1, [29] = 1, [30] = 1, [31] = 1, [0x7f] = 1,
		[0xC2] = 1,
	};
	while ((s = copy_run(sb, s, stop)) != NULL) {
		unsigned char c = (unsigned char)s[0], next = (unsigned char)s[1];
		if (c == 0xC2 && (next < 0x80 || next > 0x9F)) {
			ddbc_strbuf_addch(sb, (char)c);
			s++;
		} else if (c == 0xC2) {
			ddbc_strbuf_addf(sb, "\\x%02x", next);
			s += 2;
		} else {
			ddbc_strbuf_addf(sb, "\\x%02x", c);
			s++;
		}
	}
}

void ddbc_doc_escape(strbuf *sb, const char *s, ddbc_esc mode)
{
	switch (mode) {
	case DDBC_ESC_MD_TEXT: put_text(sb, s); break;
	case DDBC_ESC_MD_CODE: put_code(sb, s, false); break;
	case DDBC_ESC_MD_CODE_CELL: put_code(sb, s, true); break;
	case DDBC_ESC_MD_INLINE: put_inline(sb, s, false, false); break;
	case DDBC_ESC_MD_INLINE_CELL: put_inline(sb, s, true, false); break;
	case DDBC_ESC_MD_INLINE_PARA: put_inline(sb, s, false, true); break;
	case DDBC_ESC_HTML: put_html(sb, s, false); break;
	case DDBC_ESC_HTML_LINE: put_html(sb, s, true); break;
	case DDBC_ESC_HREF: put_href(sb, s); break;
	case DDBC_ESC_TEXT: put_plain(sb, s); break;
	}
}
