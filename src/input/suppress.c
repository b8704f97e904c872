/* suppress.c - finding the ddbc-ignore comments of a design
 *
 * Comments are found with libyaml's scanner, not by looking for '#' in the
 * text: a '#' inside a quoted or block scalar ("ORDER#{id}", a `|`
 * description) is text, and only a scanner knows where scalars end.
 * libyaml drops comments, but every comment lies in a gap between two
 * tokens, or in a block scalar's header line (`key: | # comment`), which
 * that scalar's token spans; so the gaps between the tokens' marks, and
 * those header lines, are searched. The composer's events would not do:
 * a node's event also spans its anchor and tag and any comment after
 * them, and an event's marks say nothing of the tokens in between. So
 * this is a pass of its own, made only over a file that holds
 * "ddbc-ignore" at all, and only as far as the last one: a design without
 * suppressions pays a memmem over its text.
 */
#define _GNU_SOURCE /* memmem */
#include "input/suppress.h"
#include "util/utf8.h"
#include "util/xalloc.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

static const char keyword[] = "ddbc-ignore";

struct scan {
	const ddbc_source *src;
	ddbc_diags *d;
	/* libyaml's marks count characters, not bytes: the byte of character
	 * index, found by walking on from the last one (marks only grow). */
	const char *byte;
	size_t index;
};

/* The byte where the character at mark starts. */
static const char *byte_of(struct scan *s, yaml_mark_t mark)
{
	const unsigned char *p = (const unsigned char *)s->byte;
	const unsigned char *end = (const unsigned char *)s->src->text + s->src->len;
	for (; s->index < mark.index && p < end; s->index++) {
		if (*p < 0x80) {
			p++;
			continue;
		}
		unsigned cp;
		size_t n = ddbc_utf8_decode(p, end, &cp);
		p += n ? n : 1;
	}
	s->byte = (const char *)p;
	return s->byte;
}

/* The position column characters after loc on its line, counting the
 * characters of [from, to). */
static ddbc_loc advance(ddbc_loc loc, const char *from, const char *to)
{
	const unsigned char *p = (const unsigned char *)from, *end = (const unsigned char *)to;
	while (p < end) {
		unsigned cp;
		size_t n = ddbc_utf8_decode(p, end, &cp);
		p += n ? n : 1;
		loc.column++;
	}
	return loc;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* [*s, *e) without the blanks around it. */
static void trim(const char **s, const char **e)
{
	while (*s < *e && is_blank(**s))
		(*s)++;
	while (*e > *s && is_blank((*e)[-1]))
		(*e)--;
}

/* Whether p starts its line (a YAML line break, \n, \r, NEL, LS or PS,
 * or the start of the text, is just before it). */
static bool starts_line(const char *text, const char *p)
{
	const unsigned char *u = (const unsigned char *)p;
	if (p == text || p[-1] == '\n' || p[-1] == '\r')
		return true;
	if (p - text >= 2 && u[-2] == 0xC2 && u[-1] == 0x85)
		return true;
	return p - text >= 3 && u[-3] == 0xE2 && u[-2] == 0x80 && (u[-1] == 0xA8 || u[-1] == 0xA9);
}

/* Whether only blanks stand between the start of its line and p. */
static bool alone_on_line(const char *text, const char *p)
{
	while (p > text && is_blank(p[-1]))
		p--;
	return starts_line(text, p);
}

/* Takes one rule id of a comment, at loc, suppressing it on line. */
static void take_rule(struct scan *s, const char *id, size_t len, ddbc_loc loc, unsigned line,
		      const char *reason)
{
	char *name = xstrndup(id, len);
	ddbc_rule rule;
	if (ddbc_rule_find(name, &rule) < 0) {
		const char *hint = ddbc_rule_suggest(name);
		if (hint)
			ddbc_diag_add(s->d, DDBC_RULE_UNUSED_SUPPRESSION, loc,
				      "unknown rule '%s' in ddbc-ignore; did you mean '%s'?", name,
				      hint);
		else
			ddbc_diag_add(s->d, DDBC_RULE_UNUSED_SUPPRESSION, loc,
				      "unknown rule '%s' in ddbc-ignore; 'ddbc explain' lists the "
				      "rules", name);
	} else if (ddbc_rule_get(rule)->fixed) {
		/* Its findings mean the file is no YAML: no comment of it counts. */
		ddbc_diag_add(s->d, DDBC_RULE_UNUSED_SUPPRESSION, loc,
			      "'%s' cannot be suppressed: a file with that error is not read as "
			      "a design", name);
	} else if (rule == DDBC_RULE_UNUSED_SUPPRESSION) {
		/* A suppression of the finding about suppressions would judge
		 * itself. */
		ddbc_diag_add(s->d, DDBC_RULE_UNUSED_SUPPRESSION, loc,
			      "'%s' cannot be suppressed by a comment; turn it off with --rule "
			      "or lint.rules", name);
	} else {
		ddbc_diags_suppress(s->d, rule, line, loc, reason);
	}
	free(name);
}

/* Whether the list of rule ids [p, end) names one at least and has no
 * empty item ("a,,b", "a,"). */
static bool well_formed(const char *p, const char *end)
{
	for (;;) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		const char *id = p, *id_end = comma ? comma : end;
		trim(&id, &id_end);
		if (id == id_end)
			return false;
		if (!comma)
			return true;
		p = comma + 1;
	}
}

/* Takes the list of rule ids [p, end), which starts at loc; returns 0, or
 * -1, having taken none, when the list is malformed. */
static int take_rules(struct scan *s, const char *p, const char *end, ddbc_loc loc,
		      unsigned line, const char *reason)
{
	if (!well_formed(p, end))
		return -1;
	for (;;) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		const char *id = p, *id_end = comma ? comma : end;
		trim(&id, &id_end);
		take_rule(s, id, (size_t)(id_end - id), advance(loc, p, id), line, reason);
		if (!comma)
			return 0;
		loc = advance(loc, p, comma + 1);
		p = comma + 1;
	}
}

/* Reads the comment [hash, eol) at loc, hash pointing at its '#'; line is
 * the line it applies to. */
static void comment(struct scan *s, const char *hash, const char *eol, ddbc_loc loc,
		    unsigned line)
{
	const char *p = hash + 1;
	while (p < eol && is_blank(*p))
		p++;
	size_t n = sizeof(keyword) - 1;
	if ((size_t)(eol - p) < n || memcmp(p, keyword, n) != 0)
		return;
	p += n;
	/* "ddbc-ignored" is some other word; "ddbc-ignore rule" lacks its colon. */
	if (p < eol && *p != ':' && !is_blank(*p))
		return;
	const char *dashes = p < eol ? memmem(p, (size_t)(eol - p), "--", 2) : NULL;
	const char *list_end = dashes ? dashes : eol;
	char *reason = NULL;
	if (dashes) {
		const char *r = dashes + 2, *r_end = eol;
		trim(&r, &r_end);
		if (r < r_end)
			reason = xstrndup(r, (size_t)(r_end - r));
	}
	if (p == eol || *p != ':' ||
	    take_rules(s, p + 1, list_end, advance(loc, hash, p + 1), line, reason) < 0)
		ddbc_diag_add(s->d, DDBC_RULE_UNUSED_SUPPRESSION, loc,
			      "malformed ddbc-ignore comment; write '# ddbc-ignore: RULE[, "
			      "RULE...] [-- reason]'");
	free(reason);
}

/* The end of the line p is on. */
static const char *line_end(const char *p, const char *end)
{
	while (p < end && !ddbc_break_len(p, end))
		p++;
	return p;
}

/* Reads the comments of the gap [p, to) between two tokens, p being at
 * mark. A comment
 * alone on its line applies to next_line, the line of the token after the
 * gap. Only blanks, line breaks and comments fill a gap. */
static void gap(struct scan *s, const char *p, yaml_mark_t mark, const char *to,
		unsigned next_line)
{
	const char *text = s->src->text, *end = text + s->src->len;
	ddbc_loc loc = { (unsigned)mark.line + 1, (unsigned)mark.column + 1 };
	while (p < to) {
		size_t br = ddbc_break_len(p, end);
		if (br) {
			p += br;
			loc.line++;
			loc.column = 1;
			continue;
		}
		if (*p != '#') {
			p++;
			loc.column++;
			continue;
		}
		const char *eol = line_end(p, end);
		comment(s, p, eol, loc, alone_on_line(text, p) ? next_line : loc.line);
		loc = advance(loc, p, eol);
		p = eol;
	}
}

/* A block scalar's header line, `| # comment` or `>-2 # comment`, is part
 * of its token: the comment there applies to that line. */
static void block_header(struct scan *s, yaml_mark_t mark)
{
	const char *end = s->src->text + s->src->len;
	const char *p = byte_of(s, mark);
	ddbc_loc loc = { (unsigned)mark.line + 1, (unsigned)mark.column + 1 };
	while (p < end && *p && strchr("|>+-0123456789 \t", *p))
		p++, loc.column++;
	if (p < end && *p == '#')
		comment(s, p, line_end(p, end), loc, loc.line);
}

static bool is_block_scalar(const yaml_token_t *t)
{
	return t->type == YAML_SCALAR_TOKEN && (t->data.scalar.style == YAML_LITERAL_SCALAR_STYLE ||
						t->data.scalar.style == YAML_FOLDED_SCALAR_STYLE);
}

/* Where the last "ddbc-ignore" of the text starts, or NULL if none. */
static const char *last_keyword(const ddbc_source *src)
{
	const char *end = src->text + src->len, *last = NULL;
	size_t n = sizeof(keyword) - 1;
	for (const char *p = src->text; p < end; p = last + n) {
		const char *hit = memmem(p, (size_t)(end - p), keyword, n);
		if (!hit)
			break;
		last = hit;
	}
	return last;
}

void ddbc_suppressions_read(const ddbc_source *src, ddbc_diags *d)
{
	/* No comment after the last "ddbc-ignore" matters, and a file without
	 * one is not scanned at all. */
	const char *last = last_keyword(src);
	if (!last)
		return;
	struct scan s = { src, d, src->text, 0 };
	yaml_parser_t parser;
	if (!yaml_parser_initialize(&parser))
		xalloc_die();
	yaml_parser_set_input_string(&parser, (const unsigned char *)src->text, src->len);
	yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING);
	yaml_mark_t after = { 0, 0, 0 };
	bool done = false;
	/* The composer read this text without an error, so the scanner does
	 * too; should it not, the comments before the error still count. */
	while (!done) {
		yaml_token_t tok;
		if (!yaml_parser_scan(&parser, &tok))
			break;
		const char *from = byte_of(&s, after), *to = byte_of(&s, tok.start_mark);
		/* The tokens that close the stream stand at its end, on no line. */
		unsigned next_line = to == src->text + src->len ? 0
			: (unsigned)tok.start_mark.line + 1;
		if (to > from)
			gap(&s, from, after, to, next_line);
		if (is_block_scalar(&tok))
			block_header(&s, tok.start_mark);
		if (tok.end_mark.index > after.index)
			after = tok.end_mark;
		done = tok.type == YAML_STREAM_END_TOKEN || to > last;
		yaml_token_delete(&tok);
	}
	yaml_parser_delete(&parser);
}
