/* suppress.c - finding the ddbc-ignore comments of a design
 *
 * libyaml drops comments, so they are found in the text, but not by
 * looking for '#' anywhere: a '#' inside a quoted, plain or block scalar
 * ("ORDER#{id}", a line of a `|` description) is text. The composer hands
 * over every event it reads (ddbc_comments_event); a scalar's or an
 * alias's event spans its text exactly, so the text between them holds no
 * scalar: only indicators, anchors, tags, directives, blanks and comments.
 * There a '#' starts a comment where libyaml's scanner would take it for
 * one: after a blank, a line break, a flow indicator or a closing quote
 * (in an anchor or a tag, '#' is a name's character). Two places inside a
 * scalar's event are not its text: the anchor and tag before it, with any
 * comment after them, and a block scalar's header line (`| # comment`).
 * All this rides on the composer's one pass over the text, and only in a
 * file that holds "ddbc-ignore" at all and only up to the last one: a
 * design without suppressions pays one memmem.
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

/* A comment found, its line to suppress known or waiting for the node
 * after it. */
struct found {
	const char *hash, *eol;   /* its '#' and the end of its line */
	ddbc_loc loc;             /* of the '#' */
	unsigned line;            /* the line it applies to; 0: none */
	bool alone;               /* alone on its line: applies to the next node's */
};

struct ddbc_comments {
	const ddbc_source *src;
	const char *last;         /* the last "ddbc-ignore" of the text */
	/* libyaml's marks count characters, not bytes: the byte of character
	 * index, found by walking on from the last one (marks only grow). */
	const char *byte;
	size_t index;
	const char *after;        /* where the text after the last scalar starts */
	ddbc_loc after_loc;
	struct found *found;
	size_t nfound, cap, pending;  /* found[pending..] wait for a node's line */
	bool done;                /* past the last "ddbc-ignore" */
};

/* The byte where the character at mark starts (the furthest reached, if
 * mark lies behind it). */
static const char *byte_of(ddbc_comments *c, yaml_mark_t mark)
{
	const unsigned char *p = (const unsigned char *)c->byte;
	const unsigned char *end = (const unsigned char *)c->src->text + c->src->len;
	for (; c->index < mark.index && p < end; c->index++) {
		if (*p < 0x80) {
			p++;
			continue;
		}
		unsigned cp;
		size_t n = ddbc_utf8_decode(p, end, &cp);
		p += n ? n : 1;
	}
	c->byte = (const char *)p;
	return c->byte;
}

static ddbc_loc loc_of(yaml_mark_t m)
{
	ddbc_loc loc = { (unsigned)m.line + 1, (unsigned)m.column + 1 };
	return loc;
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

/* Where the comments' findings and suppressions go. */
struct parse {
	ddbc_diags *d;
};

/* Takes one rule id of a comment, at loc, suppressing it on line. */
static void take_rule(struct parse *s, const char *id, size_t len, ddbc_loc loc, unsigned line,
		      const char *reason)
{
	char *name = ddbc_xstrndup(id, len);
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
static int take_rules(struct parse *s, const char *p, const char *end, ddbc_loc loc,
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
static void comment(struct parse *s, const char *hash, const char *eol, ddbc_loc loc,
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
			reason = ddbc_xstrndup(r, (size_t)(r_end - r));
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

/* Whether a '#' after c, outside scalars, starts a comment. libyaml's
 * scanner takes any '#' where a token could start for one: after a blank,
 * a flow indicator, a closing quote, or the ':' and '?' that flow context
 * takes as indicators even without a blank ({"a":#c}). An anchor, alias
 * or tag cannot hold a '#'. */
static bool comment_may_follow(char c)
{
	return is_blank(c) || strchr(",[]{}\"':?", c) != NULL;
}

static void add_found(ddbc_comments *c, const char *hash, const char *eol, ddbc_loc loc)
{
	ddbc_xgrow((void **)&c->found, &c->cap, c->nfound + 1, sizeof(struct found));
	struct found *f = &c->found[c->nfound++];
	f->hash = hash;
	f->eol = eol;
	f->loc = loc;
	f->alone = alone_on_line(c->src->text, hash);
	f->line = f->alone ? 0 : loc.line;
}

/* The comments alone on their line found so far apply to line. */
static void settle(ddbc_comments *c, unsigned line)
{
	for (; c->pending < c->nfound; c->pending++)
		if (c->found[c->pending].alone)
			c->found[c->pending].line = line;
}

/* Collects the comments of [p, to), p being at *loc, which it moves to
 * to. Only text that is no scalar's may be given. */
static void between(ddbc_comments *c, const char *p, ddbc_loc *loc, const char *to)
{
	const char *text = c->src->text, *end = text + c->src->len;
	while (p < to) {
		/* Most of this text is indentation: one test per such byte. */
		unsigned char ch = (unsigned char)*p;
		if (ch < 0x80 && ch != '#' && ch != '\n' && ch != '\r') {
			p++;
			loc->column++;
			continue;
		}
		size_t br = ddbc_break_len(p, end);
		if (br) {
			p += br;
			loc->line++;
			loc->column = 1;
			continue;
		}
		if (*p == '#' && (starts_line(text, p) || comment_may_follow(p[-1]))) {
			const char *eol = line_end(p, end);
			add_found(c, p, eol, *loc);
			*loc = advance(*loc, p, eol);
			p = eol;
			continue;
		}
		unsigned cp;
		size_t n = ddbc_utf8_decode((const unsigned char *)p, (const unsigned char *)to, &cp);
		p += n ? n : 1;
		loc->column++;
	}
}

/* Skips the anchor and tag at the start of a scalar's event, collecting
 * the comments after them; returns where the scalar's text starts. */
static const char *properties(ddbc_comments *c, const char *p, ddbc_loc *loc, const char *to)
{
	const char *end = c->src->text + c->src->len;
	while (p < to && (*p == '&' || *p == '!')) {
		const char *q = p;
		while (q < to && !is_blank(*q) && !ddbc_break_len(q, end))
			q++;
		*loc = advance(*loc, p, q);
		p = q;
		q = p;
		while (q < to && (is_blank(*q) || ddbc_break_len(q, end) || *q == '#')) {
			if (*q == '#')
				q = line_end(q, end);
			else
				q += ddbc_break_len(q, end) ? ddbc_break_len(q, end) : 1;
		}
		between(c, p, loc, q);
		p = q;
	}
	return p;
}

/* A block scalar's header line, `| # comment` or `>-2 # comment`, is part
 * of its event: a comment there is one of that line. */
static void block_header(ddbc_comments *c, const char *p, ddbc_loc loc)
{
	const char *end = c->src->text + c->src->len;
	while (p < end && *p && strchr("|>+-0123456789 \t", *p))
		p++, loc.column++;
	if (p < end && *p == '#')
		add_found(c, p, line_end(p, end), loc);
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

ddbc_comments *ddbc_comments_new(const ddbc_source *src)
{
	const char *last = last_keyword(src);
	if (!last)
		return NULL;
	ddbc_comments *c = ddbc_xcalloc(1, sizeof(*c));
	c->src = src;
	c->last = last;
	c->byte = c->after = src->text;
	c->after_loc.line = c->after_loc.column = 1;
	return c;
}

/* A scalar's or an alias's event: the text before it, then its own
 * anchor, tag and block header. */
static void node_event(ddbc_comments *c, const yaml_event_t *ev)
{
	const char *start = byte_of(c, ev->start_mark);
	between(c, c->after, &c->after_loc, start);
	ddbc_loc loc = loc_of(ev->start_mark);
	const char *p = start, *stop = byte_of(c, ev->end_mark);
	if (ev->type == YAML_SCALAR_EVENT && (ev->data.scalar.anchor || ev->data.scalar.tag))
		p = properties(c, p, &loc, stop);
	settle(c, loc.line);
	if (ev->type == YAML_SCALAR_EVENT && (ev->data.scalar.style == YAML_LITERAL_SCALAR_STYLE ||
					      ev->data.scalar.style == YAML_FOLDED_SCALAR_STYLE))
		block_header(c, p, loc);
	if (stop > c->after) {
		c->after = stop;
		c->after_loc = loc_of(ev->end_mark);
	}
	/* No comment after the last "ddbc-ignore" matters. */
	c->done = start > c->last;
}

void ddbc_comments_event(ddbc_comments *c, const yaml_event_t *ev)
{
	if (c->done)
		return;
	if (ev->type == YAML_SCALAR_EVENT || ev->type == YAML_ALIAS_EVENT) {
		node_event(c, ev);
	} else if (ev->type == YAML_STREAM_END_EVENT) {
		/* What follows the last node applies to no line. */
		between(c, c->after, &c->after_loc, c->src->text + c->src->len);
		settle(c, 0);
		c->done = true;
	}
}

void ddbc_comments_read(ddbc_comments *c, ddbc_diags *d)
{
	struct parse s = { d };
	for (size_t i = 0; i < c->nfound; i++)
		comment(&s, c->found[i].hash, c->found[i].eol, c->found[i].loc, c->found[i].line);
}

void ddbc_comments_free(ddbc_comments *c)
{
	if (!c)
		return;
	free(c->found);
	free(c);
}
