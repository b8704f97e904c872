/* template.c - key templates: parsing, rendering and exact overlap
 *
 * How overlap is decided. A template renders to the strings of a regular
 * language: literals are fixed strings; a placeholder stands for a value of
 * its attribute's type, a non-empty string without the key delimiter (S),
 * a decimal number (N) or a run of exactly WIDTH digits (N with :0WIDTH:
 * DynamoDB orders keys as strings, so a wider number would sort wrong).
 * A language is kept as a list of runs (fixed strings and repeated
 * character classes), which is a small NFA whose positions are (run,
 * offset-or-count, delimiter-match-state). Two languages share a string iff
 * the product of their NFAs reaches a state where both accept: a depth-
 * first search over pairs of positions, stepping both sides on the same
 * byte (depth first because most questions a design asks are answered yes,
 * and a path to acceptance is found long before the space is exhausted). Bytes only matter through the classes and the literals they could
 * match, so the search tries one representative of each equivalence class
 * of bytes (every byte that occurs in a literal or the delimiter, the
 * digits, '-' and '.', and one byte that occurs nowhere). The same search,
 * with a comparison automaton in place of the second language, decides
 * whether a language has a string inside a key range (between, lt, ...).
 * The number of states is the product of the two templates' lengths, so a
 * check costs microseconds; nothing depends on prefixes alone.
 */
#include "model/template.h"
#include "util/xalloc.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- parsing --------------------------------------------------------------- */

#define MAX_WIDTH 38  /* DynamoDB numbers have up to 38 digits of precision */

/* The segments gather in a stack array of this many before a heap one
 * (most templates have a handful); the arena gets exactly as many as
 * there are (see ddbc_template_parse): a large design has tens of
 * thousands of templates. */
#define SEGS_ON_STACK 16

static void add_seg(ddbc_template *t, size_t *cap, ddbc_segment seg)
{
	if (t->nsegs == *cap) {
		ddbc_segment *old = t->segs;
		bool on_stack = *cap == SEGS_ON_STACK;
		if (on_stack)
			t->segs = NULL;
		ddbc_xgrow((void **)&t->segs, cap, t->nsegs + 1, sizeof(*t->segs));
		if (on_stack)
			memcpy(t->segs, old, t->nsegs * sizeof(*t->segs));
	}
	t->segs[t->nsegs++] = seg;
}

/* How a parse keeps the text of its segments: in arena, or (in_place)
 * pointing into the template where the text stands there as is. */
typedef struct parse_out {
	ddbc_arena *arena;
	bool in_place;
} parse_out;

/* The pending literal is either lit (it had an escaped brace) or the
 * *span bytes of the template at direct, copied from there at once
 * unless the parse is in place. */
static void flush_literal(const parse_out *po, ddbc_template *t, size_t *cap, strbuf *lit,
			  const char *direct, size_t *span, size_t offset)
{
	const char *from = lit->len ? lit->buf : direct;
	size_t len = lit->len ? lit->len : *span;
	if (!len)
		return;
	ddbc_segment seg = { .kind = DDBC_SEG_LITERAL, .len = len, .offset = (uint32_t)offset,
			     .text = po->in_place && !lit->len ? from
							      : ddbc_arena_strndup(po->arena, from, len) };
	add_seg(t, cap, seg);
	ddbc_strbuf_reset(lit);
	*span = 0;
}

/* Parses the inside of "{...}" (without braces) into seg. */
static const char *parse_placeholder(const parse_out *po, const char *in, size_t len,
				     ddbc_segment *seg)
{
	if (len == 0)
		return "empty placeholder '{}'; name an attribute inside the braces";
	const char *colon = memchr(in, ':', len);
	size_t nlen = colon ? (size_t)(colon - in) : len;
	if (nlen == 0)
		return "placeholder without a name before ':'";
	seg->kind = DDBC_SEG_PLACEHOLDER;
	seg->text = po->in_place ? in : ddbc_arena_strndup(po->arena, in, nlen);
	seg->len = nlen;
	if (!colon)
		return NULL;
	const char *w = colon + 1, *end = in + len;
	if (w == end || *w != '0' || w + 1 == end)
		return "bad width; write ':0WIDTH', e.g. '{n:03}'";
	unsigned width = 0;
	for (const char *p = w + 1; p < end; p++) {
		if (*p < '0' || *p > '9')
			return "bad width; write ':0WIDTH', e.g. '{n:03}'";
		width = width * 10 + (unsigned)(*p - '0');
		if (width > MAX_WIDTH)
			return "width larger than 38, the digits a DynamoDB number can have";
	}
	if (width == 0)
		return "bad width ':00'; the width must be at least 1";
	seg->width = width;
	return NULL;
}

/* The literal of the len bytes of text at start, as flush_literal makes
 * one without escaped braces. */
static ddbc_segment plain_literal(const parse_out *po, const char *text, size_t start,
				  size_t len)
{
	const char *from = text + start;
	return (ddbc_segment){ .kind = DDBC_SEG_LITERAL, .len = len, .offset = (uint32_t)start,
			       .text = po->in_place ? from : ddbc_arena_strndup(po->arena, from, len) };
}

/* The parse of a template as most are: no escaped brace, every placeholder
 * closed and well formed, a handful of segments; the same segments as
 * parse makes, in one walk over the text. False (t untouched) for any
 * other, which parse then reads, with its messages. */
static bool parse_plain(const parse_out *po, const char *text, ddbc_template *t)
{
	ddbc_segment segs[SEGS_ON_STACK];
	size_t n = 0, i = 0, start = 0;
	for (;;) {
		char c = text[i];
		if (c && c != '{' && c != '}') {
			i++;
			continue;
		}
		if (c == '}' || (i > start && n == SEGS_ON_STACK) || i > DDBC_TEMPLATE_MAX)
			return false;
		if (i > start)
			segs[n++] = plain_literal(po, text, start, i - start);
		if (!c)
			break;
		size_t j = i + 1;
		while (text[j] && text[j] != '{' && text[j] != '}')
			j++;
		if (text[j] != '}' || n == SEGS_ON_STACK || j > DDBC_TEMPLATE_MAX)
			return false;
		ddbc_segment seg = { .kind = DDBC_SEG_PLACEHOLDER, .offset = (uint32_t)i };
		if (parse_placeholder(po, text + i + 1, j - i - 1, &seg))
			return false;
		segs[n++] = seg;
		i = start = j + 1;
	}
	t->nsegs = n;
	t->segs = ddbc_arena_array(po->arena, n, sizeof(*t->segs));
	if (n)
		memcpy(t->segs, segs, n * sizeof(*t->segs));
	return true;
}

static const char *parse(const parse_out *po, const char *text, ddbc_template *t,
			 size_t *err_offset)
{
	if (parse_plain(po, text, t))
		return NULL;
	ddbc_arena *arena = po->arena;
	/* Built in w, whose segments start on the stack, then copied out. */
	ddbc_template w;
	memset(&w, 0, sizeof(w));
	ddbc_segment stack[SEGS_ON_STACK];
	w.segs = stack;
	size_t cap = SEGS_ON_STACK, n = strlen(text), lit_start = 0;
	if (n > DDBC_TEMPLATE_MAX) {
		memset(t, 0, sizeof(*t));
		*err_offset = 0;
		return "template longer than 32 MiB";
	}
	/* A literal without escaped braces is copied straight from text (span
	 * bytes at lit_start); only one with them is built in lit. */
	strbuf lit = STRBUF_INIT;
	size_t span = 0;
	const char *err = NULL;
	for (size_t i = 0; i < n && !err;) {
		char c = text[i];
		if ((c == '{' || c == '}') && i + 1 < n && text[i + 1] == c) {
			if (!lit.len && !span)
				lit_start = i;
			ddbc_strbuf_add(&lit, text + lit_start, span);
			span = 0;
			ddbc_strbuf_addch(&lit, c);
			i += 2;
			continue;
		}
		if (c == '}') {
			err = "unbalanced '}'; write '}}' for a literal brace";
			*err_offset = i;
			break;
		}
		if (c != '{') {
			/* A run of plain characters at once: every key and
			 * key condition value is parsed on every command. */
			size_t run = strcspn(text + i, "{}");
			if (!lit.len && !span)
				lit_start = i;
			if (lit.len)
				ddbc_strbuf_add(&lit, text + i, run);
			else
				span += run;
			i += run;
			continue;
		}
		const char *close = strchr(text + i + 1, '}');
		const char *open = strchr(text + i + 1, '{');
		if (!close || (open && open < close)) {
			err = "unbalanced '{': the placeholder has no closing '}'";
			*err_offset = i;
			break;
		}
		flush_literal(po, &w, &cap, &lit, text + lit_start, &span, lit_start);
		ddbc_segment seg = { .kind = DDBC_SEG_PLACEHOLDER, .offset = (uint32_t)i };
		err = parse_placeholder(po, text + i + 1, (size_t)(close - text - i - 1), &seg);
		if (err) {
			*err_offset = i;
			break;
		}
		add_seg(&w, &cap, seg);
		i = (size_t)(close - text) + 1;
	}
	if (!err)
		flush_literal(po, &w, &cap, &lit, text + lit_start, &span, lit_start);
	ddbc_strbuf_release(&lit);
	*t = w;
	t->segs = ddbc_arena_array(arena, w.nsegs, sizeof(*t->segs));
	if (w.nsegs)
		memcpy(t->segs, w.segs, w.nsegs * sizeof(*t->segs));
	if (w.segs != stack)
		free(w.segs);
	return err;
}

const char *ddbc_template_parse(ddbc_arena *arena, const char *text, ddbc_template *t,
				size_t *err_offset)
{
	parse_out po = { arena, false };
	return parse(&po, text, t, err_offset);
}

const char *ddbc_template_parse_in_place(ddbc_arena *arena, const char *text,
					 ddbc_template *t, size_t *err_offset)
{
	parse_out po = { arena, true };
	return parse(&po, text, t, err_offset);
}

size_t ddbc_template_prefix(const ddbc_template *t, const char **prefix)
{
	if (t->nsegs && t->segs[0].kind == DDBC_SEG_LITERAL) {
		*prefix = t->segs[0].text;
		return t->segs[0].len;
	}
	*prefix = "";
	return 0;
}

bool ddbc_template_is_constant(const ddbc_template *t)
{
	for (size_t i = 0; i < t->nsegs; i++)
		if (t->segs[i].kind == DDBC_SEG_PLACEHOLDER)
			return false;
	return true;
}

/* ---- rendering ----------------------------------------------------------------- */

/* The digits of v when it is a non-negative whole number written in plain
 * decimal (a '+' and leading zeros dropped), of any length: DynamoDB's
 * numbers have up to 38 digits, more than long long holds. */
static bool whole_digits(const ddbc_tvalue *v, const char **digits, size_t *len)
{
	const char *s = v->text;
	size_t n = v->len;
	if (n && s[0] == '+')
		s++, n--;
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	while (n > 1 && s[0] == '0')
		s++, n--;
	*digits = s;
	*len = n;
	return true;
}

const char *ddbc_padding_problem(const char *text, size_t len, unsigned width)
{
	ddbc_tvalue v = { DDBC_TVALUE_NUMBER, text, len, false, 0, NULL };
	const char *digits;
	size_t n;
	if (!whole_digits(&v, &digits, &n))
		return "is not a non-negative whole number";
	if (n > width)
		return "has more digits than the placeholder's width, and DynamoDB compares "
		       "keys as strings: it would sort before the keys of fewer digits";
	return NULL;
}

/* Appends number v as a key holds it; false when width asks for a padding
 * that only a non-negative whole number of at most width digits can have:
 * DynamoDB orders keys as strings, so "1000000" sorts before "999999" and
 * a :06 field holds the numbers 0 to 999999 (ddbc_padding_problem). */
static bool render_number(strbuf *out, const ddbc_tvalue *v, unsigned width)
{
	const char *digits;
	size_t len;
	if (width) {
		if (!whole_digits(v, &digits, &len) || len > width)
			return false;
		for (size_t i = len; i < width; i++)
			ddbc_strbuf_addch(out, '0');
		ddbc_strbuf_add(out, digits, len);
		return true;
	}
	if (v->is_int) {
		ddbc_strbuf_addf(out, "%lld", v->n);
		return true;
	}
	size_t plus = v->len && v->text[0] == '+';
	ddbc_strbuf_add(out, v->text + plus, v->len - plus);
	return true;
}

static ddbc_render_result render_placeholder(const ddbc_segment *seg, ddbc_tvalue_fn *value_of,
					     void *ctx, strbuf *out, ddbc_render_problem *problem)
{
	problem->seg = seg;
	problem->value = value_of(ctx, seg);
	const ddbc_tvalue *v = &problem->value;
	switch (v->kind) {
	case DDBC_TVALUE_TEXT:
		ddbc_strbuf_add(out, v->text, v->len);
		return DDBC_RENDER_OK;
	case DDBC_TVALUE_NUMBER:
		return render_number(out, v, seg->width) ? DDBC_RENDER_OK : DDBC_RENDER_UNPADDABLE;
	case DDBC_TVALUE_MISSING:
		return DDBC_RENDER_MISSING;
	case DDBC_TVALUE_UNUSABLE:
		break;
	}
	return DDBC_RENDER_UNUSABLE;
}

ddbc_render_result ddbc_template_render(const ddbc_template *t, ddbc_tvalue_fn *value_of,
					void *ctx, strbuf *out, ddbc_render_problem *problem)
{
	for (size_t k = 0; k < t->nsegs; k++) {
		const ddbc_segment *seg = &t->segs[k];
		if (seg->kind == DDBC_SEG_LITERAL) {
			ddbc_strbuf_add(out, seg->text, seg->len);
			continue;
		}
		ddbc_render_result r = render_placeholder(seg, value_of, ctx, out, problem);
		if (r != DDBC_RENDER_OK)
			return r;
	}
	memset(problem, 0, sizeof(*problem));
	return DDBC_RENDER_OK;
}

/* ---- languages ----------------------------------------------------------------- */

void ddbc_lang_init(ddbc_lang *l)
{
	memset(l, 0, sizeof(*l));
}

void ddbc_lang_release(ddbc_lang *l)
{
	free(l->runs);
	memset(l, 0, sizeof(*l));
}

static ddbc_run *new_run(ddbc_lang *l)
{
	ddbc_xgrow((void **)&l->runs, &l->cap, l->nruns + 1, sizeof(ddbc_run));
	ddbc_run *r = &l->runs[l->nruns++];
	memset(r, 0, sizeof(*r));
	return r;
}

void ddbc_lang_fixed(ddbc_lang *l, const char *text, size_t len)
{
	if (len == 0)
		return;
	if (len > UINT32_MAX)
		ddbc_xalloc_die();
	ddbc_run *r = new_run(l);
	r->fixed = true;
	r->text = text;
	r->len = (uint32_t)len;
}

void ddbc_lang_class(ddbc_lang *l, ddbc_class cls, size_t min)
{
	if (min > UINT32_MAX)
		ddbc_xalloc_die();
	ddbc_run *r = new_run(l);
	r->cls = cls;
	r->min = (uint32_t)min;
	r->max = 0;
}

void ddbc_lang_digits(ddbc_lang *l, size_t width)
{
	ddbc_lang_class(l, DDBC_CLASS_DIGITS, width);
	l->runs[l->nruns - 1].max = (uint32_t)width;
}

/* A position in a language's NFA. */
typedef struct pos {
	uint32_t r;   /* run; nruns = the end */
	uint32_t k;   /* fixed: next byte; class: bytes so far, capped at min
		       * (at max when the run has one) */
	uint32_t m;   /* NO_DELIM: how much of the delimiter the value ends with */
} pos;

static uint64_t pos_key(pos p)
{
	return ((uint64_t)p.r << 44) ^ ((uint64_t)p.k << 12) ^ p.m;
}

bool ddbc_class_has(ddbc_class cls, unsigned char ch)
{
	switch (cls) {
	case DDBC_CLASS_ANY:
	case DDBC_CLASS_NO_DELIM: return true;
	case DDBC_CLASS_NUMBER:
		return (ch >= '0' && ch <= '9') || ch == '-' || ch == '.' || ch == 'e' || ch == 'E' ||
		       ch == '+';
	case DDBC_CLASS_DIGITS: return ch >= '0' && ch <= '9';
	}
	return false;
}

/* The key delimiter, measured once per search. */
typedef struct delimiter {
	const char *s;
	size_t len;
} delimiter;

/* The delimiter-match state after ch: the longest prefix of delim that the
 * value now ends with (naive KMP; delimiters are a few bytes, most often
 * one). */
static uint32_t delim_step(const delimiter *dl, uint32_t m, unsigned char ch)
{
	const char *delim = dl->s;
	size_t dlen = dl->len;
	if (dlen == 1)
		return (unsigned char)delim[0] == ch;
	char buf[64];
	if (dlen >= sizeof(buf))
		return 0;
	memcpy(buf, delim, m);
	buf[m] = (char)ch;
	for (size_t len = m + 1; len > 0; len--)
		if (memcmp(buf + m + 1 - len, delim, len) == 0)
			return (uint32_t)len;
	return 0;
}

/* The positions reachable from p without reading a byte (p included). */
static size_t closure(const ddbc_lang *l, pos p, pos *out)
{
	size_t n = 0;
	for (;;) {
		if (p.r >= l->nruns) {
			out[n++] = p;
			return n;
		}
		const ddbc_run *run = &l->runs[p.r];
		if (run->fixed) {
			if (p.k < run->len) {
				out[n++] = p;
				return n;
			}
		} else {
			out[n++] = p;
			if (p.k < run->min)
				return n;
		}
		p.r++, p.k = 0, p.m = 0;
	}
}

static bool step(const ddbc_lang *l, pos p, unsigned char ch, const delimiter *delim, pos *out)
{
	if (p.r >= l->nruns)
		return false;
	const ddbc_run *run = &l->runs[p.r];
	*out = p;
	if (run->fixed) {
		if ((unsigned char)run->text[p.k] != ch)
			return false;
		out->k++;
		return true;
	}
	if (!ddbc_class_has(run->cls, ch))
		return false;
	if (run->cls == DDBC_CLASS_NO_DELIM) {
		out->m = delim_step(delim, p.m, ch);
		if (out->m == delim->len)
			return false;
	}
	if (run->max && p.k >= run->max)
		return false;
	if (out->k < (run->max ? run->max : run->min))
		out->k++;
	return true;
}

/* The byte a position inside a literal must read next. */
static bool fixed_byte(const ddbc_lang *l, pos p, unsigned char *out)
{
	if (p.r >= l->nruns || !l->runs[p.r].fixed)
		return false;
	*out = (unsigned char)l->runs[p.r].text[p.k];
	return true;
}

static bool accepting(const ddbc_lang *l, pos p)
{
	return p.r >= l->nruns;
}

/* ---- the product search --------------------------------------------------------- */

/* The comparison automaton of a range: lo is how much of the lower bound the
 * string equals so far (or GT once it is greater), hi likewise (or LT). */
#define CMP_DONE UINT32_MAX

typedef struct range {
	const ddbc_bound *lower, *upper;
} range;

typedef struct state {
	pos a, b;
	uint32_t lo, hi;
} state;

typedef struct seen {
	uint64_t *keys;  /* 3 words a key; all-ones = empty */
	size_t cap, n;
} seen;

static uint64_t hash3(const uint64_t *k)
{
	uint64_t h = k[0] * 0x9E3779B97F4A7C15ull;
	h ^= (k[1] + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
	h ^= (k[2] + 0x165667B19E3779F9ull) * 0x27D4EB2F165667C5ull;
	return h ^ (h >> 31);
}

static bool seen_add(seen *s, const uint64_t *k);

static void seen_grow(seen *s)
{
	seen old = *s;
	s->cap = old.cap ? old.cap * 2 : 16;
	s->keys = ddbc_xmalloc(s->cap * 3 * sizeof(uint64_t));
	memset(s->keys, 0xFF, s->cap * 3 * sizeof(uint64_t));
	s->n = 0;
	for (size_t i = 0; i < old.cap; i++)
		if (old.keys[i * 3] != UINT64_MAX || old.keys[i * 3 + 1] != UINT64_MAX)
			seen_add(s, &old.keys[i * 3]);
	free(old.keys);
}

/* Adds k; returns false when it was there already. */
static bool seen_add(seen *s, const uint64_t *k)
{
	if ((s->n + 1) * 2 > s->cap)
		seen_grow(s);
	size_t mask = s->cap - 1, i = hash3(k) & mask;
	for (;; i = (i + 1) & mask) {
		uint64_t *slot = &s->keys[i * 3];
		if (slot[0] == UINT64_MAX && slot[1] == UINT64_MAX && slot[2] == UINT64_MAX) {
			memcpy(slot, k, 3 * sizeof(uint64_t));
			s->n++;
			return true;
		}
		if (!memcmp(slot, k, 3 * sizeof(uint64_t)))
			return false;
	}
}

static void state_key(const state *st, uint64_t *k)
{
	k[0] = pos_key(st->a);
	k[1] = pos_key(st->b);
	k[2] = ((uint64_t)st->lo << 32) | st->hi;
}

static bool lo_step(const ddbc_bound *b, uint32_t lo, unsigned char ch, uint32_t *out)
{
	if (!b || lo == CMP_DONE || lo == b->len) {
		*out = CMP_DONE;
		return true;
	}
	unsigned char c = (unsigned char)b->text[lo];
	if (ch < c)
		return false;
	*out = ch > c ? CMP_DONE : lo + 1;
	return true;
}

static bool hi_step(const ddbc_bound *b, uint32_t hi, unsigned char ch, uint32_t *out)
{
	if (!b || hi == CMP_DONE) {
		*out = CMP_DONE;
		return true;
	}
	if (hi == b->len) {
		*out = CMP_DONE;
		return b->open;
	}
	unsigned char c = (unsigned char)b->text[hi];
	if (ch > c)
		return false;
	*out = ch < c ? CMP_DONE : hi + 1;
	return true;
}

static bool range_accepts(const range *rg, uint32_t lo, uint32_t hi)
{
	const ddbc_bound *l = rg->lower, *u = rg->upper;
	bool lo_ok = !l || lo == CMP_DONE || (lo == l->len && l->inclusive);
	bool hi_ok = !u || hi == CMP_DONE || hi < u->len || (hi == u->len &&
							     (u->inclusive || u->open));
	return lo_ok && hi_ok;
}

/* The bytes worth trying: see the comment at the top of the file. */
static size_t alphabet(const ddbc_lang *a, const ddbc_lang *b, const range *rg,
		       const char *delim, unsigned char *out)
{
	bool mark[256] = { false };
	const ddbc_lang *langs[2] = { a, b };
	for (int i = 0; i < 2; i++)
		for (size_t r = 0; langs[i] && r < langs[i]->nruns; r++)
			for (size_t k = 0; langs[i]->runs[r].fixed && k < langs[i]->runs[r].len; k++)
				mark[(unsigned char)langs[i]->runs[r].text[k]] = true;
	for (const char *p = delim; *p; p++)
		mark[(unsigned char)*p] = true;
	for (int c = '0'; c <= '9'; c++)
		mark[c] = true;
	mark['-'] = mark['.'] = true;
	const ddbc_bound *bounds[2] = { rg ? rg->lower : NULL, rg ? rg->upper : NULL };
	for (int i = 0; i < 2; i++)
		for (size_t k = 0; bounds[i] && k < bounds[i]->len; k++)
			mark[(unsigned char)bounds[i]->text[k]] = true;
	/* With a range, a byte's order matters too: add the neighbours of
	 * every marked byte, so every interval between them is tried. */
	bool extra[256] = { false };
	for (int c = 0; c < 256 && rg; c++) {
		if (!mark[c])
			continue;
		if (c > 1)
			extra[c - 1] = true;
		if (c < 255)
			extra[c + 1] = true;
	}
	size_t n = 0;
	bool other = false;
	for (int c = 1; c < 256; c++) {
		if (mark[c] || extra[c])
			out[n++] = (unsigned char)c;
		else if (!other && !rg)
			out[n++] = (unsigned char)c, other = true;
	}
	if (rg && !extra[1] && !mark[1])
		out[n++] = 1;
	return n;
}

typedef struct queue {
	state *items;
	size_t n, cap;
} queue;

static void push_state(queue *q, seen *s, state st)
{
	uint64_t k[3];
	state_key(&st, k);
	if (!seen_add(s, k))
		return;
	ddbc_xgrow((void **)&q->items, &q->cap, q->n + 1, sizeof(state));
	q->items[q->n++] = st;
}

/* Searches the product of a, b (or, when b is NULL, a lone fixed-free
 * side that always accepts) and the range rg (or none). */
static bool search(const ddbc_lang *a, const ddbc_lang *b, const range *rg, const char *delim)
{
	static const ddbc_lang empty = { NULL, 0, 0 };
	const ddbc_lang *lb = b ? b : &empty;
	/* The alphabet is worked out only when both sides stand in a class;
	 * most searches never get there. */
	unsigned char sigma[256];
	size_t nsigma = 0;
	queue q = { NULL, 0, 0 };
	seen s = { NULL, 0, 0 };
	state start = { { 0, 0, 0 }, { 0, 0, 0 }, 0, 0 };
	push_state(&q, &s, start);
	bool found = false;
	delimiter dl = { delim, strlen(delim) };
	size_t cap = (a->nruns + lb->nruns + 2) * 2;
	pos *ca = ddbc_xmalloc(cap * sizeof(pos)), *cb = ddbc_xmalloc(cap * sizeof(pos));
	while (q.n && !found) {
		state st = q.items[--q.n];
		size_t na = closure(a, st.a, ca);
		size_t nb = b ? closure(lb, st.b, cb) : 1;
		if (!b)
			cb[0] = st.b;
		for (size_t i = 0; i < na && !found; i++) {
			for (size_t j = 0; j < nb && !found; j++) {
				bool acc_b = !b || accepting(lb, cb[j]);
				if (accepting(a, ca[i]) && acc_b &&
				    (!rg || range_accepts(rg, st.lo, st.hi))) {
					found = true;
					break;
				}
				/* A side inside a literal can read only its next
				 * byte: try that one instead of the whole alphabet. */
				unsigned char only;
				const unsigned char *try = sigma;
				size_t ntry = nsigma;
				if (fixed_byte(a, ca[i], &only) ||
				    (b && fixed_byte(lb, cb[j], &only))) {
					try = &only, ntry = 1;
				} else if (!nsigma) {
					nsigma = alphabet(a, b, rg, delim, sigma);
					ntry = nsigma;
				}
				for (size_t c = 0; c < ntry; c++) {
					state nx = st;
					if (!step(a, ca[i], try[c], &dl, &nx.a))
						continue;
					if (b && !step(lb, cb[j], try[c], &dl, &nx.b))
						continue;
					if (rg && (!lo_step(rg->lower, st.lo, try[c], &nx.lo) ||
						   !hi_step(rg->upper, st.hi, try[c], &nx.hi)))
						continue;
					push_state(&q, &s, nx);
				}
			}
		}
	}
	free(ca);
	free(cb);
	free(q.items);
	free(s.keys);
	return found;
}

/* A byte that values of both classes may hold (repeated, it never spells
 * the delimiter), or 0 when the few candidates tried do not serve. */
static unsigned char common_byte(const ddbc_run *x, const ddbc_run *y, const char *delim)
{
	static const char candidates[] = "0a1bZ_";
	bool no_delim = x->cls == DDBC_CLASS_NO_DELIM || y->cls == DDBC_CLASS_NO_DELIM;
	for (const char *c = candidates; *c; c++)
		if (ddbc_class_has(x->cls, (unsigned char)*c) &&
		    ddbc_class_has(y->cls, (unsigned char)*c) && !(no_delim && strchr(delim, *c)))
			return (unsigned char)*c;
	return 0;
}

/* Whether the first n runs of a and b line up: the same literals, and
 * classes that share a value at each place. Their concatenation is then a
 * string both start with, and (every run being non-empty) a can finish it. */
/* Whether two class runs can take the same number of bytes. */
static bool counts_meet(const ddbc_run *x, const ddbc_run *y)
{
	return (!x->max || x->max >= y->min) && (!y->max || y->max >= x->min);
}

static bool runs_line_up(const ddbc_lang *a, const ddbc_lang *b, size_t n, const char *delim)
{
	for (size_t i = 0; i < n; i++) {
		const ddbc_run *x = &a->runs[i], *y = &b->runs[i];
		if (x->fixed != y->fixed)
			return false;
		if (x->fixed ? x->len != y->len || memcmp(x->text, y->text, x->len)
			     : !common_byte(x, y, delim) || !counts_meet(x, y))
			return false;
	}
	return true;
}

size_t ddbc_lang_literal_bytes(const ddbc_lang *l)
{
	size_t n = 0;
	for (size_t i = 0; i < l->nruns; i++)
		if (l->runs[i].fixed)
			n += l->runs[i].len;
	return n;
}

bool ddbc_lang_intersects(const ddbc_lang *a, const ddbc_lang *b, const char *delim)
{
	/* Most key conditions are written in the shape of the key's template
	 * ("E#{id}" against "E#{id}"), or are such a shape followed by
	 * anything (begins_with): a witness is then at hand without the
	 * search. Whatever else is decided by the search. */
	if (a->nruns == b->nruns && runs_line_up(a, b, a->nruns, delim))
		return true;
	const ddbc_run *last = b->nruns ? &b->runs[b->nruns - 1] : NULL;
	if (last && !last->fixed && last->cls == DDBC_CLASS_ANY && last->min == 0 &&
	    b->nruns - 1 <= a->nruns && runs_line_up(a, b, b->nruns - 1, delim))
		return true;
	return search(a, b, NULL, delim);
}

/* The most positions ddbc_lang_matches follows at once, and the most runs
 * it takes; beyond, it leaves the string to the search. */
#define MATCH_MAX 64

/* Adds p to the n positions of set unless it is there; false when the set
 * is full. */
static bool add_pos(pos *set, size_t *n, pos p)
{
	for (size_t i = 0; i < *n; i++)
		if (set[i].r == p.r && set[i].k == p.k && set[i].m == p.m)
			return true;
	if (*n == MATCH_MAX)
		return false;
	set[(*n)++] = p;
	return true;
}

/* Whether l holds s, by stepping the set of l's positions over s's bytes:
 * 1 or 0, or -1 when the set outgrew MATCH_MAX. The search with a fixed
 * side does the same, through its queue and hash set, at ten times the
 * cost; every example value and item key is matched so. */
static int match_positions(const ddbc_lang *l, const char *s, size_t len, const char *delim)
{
	if (l->nruns + 1 > MATCH_MAX)
		return -1;
	delimiter dl = { delim, strlen(delim) };
	pos cur[MATCH_MAX], next[MATCH_MAX], cl[MATCH_MAX];
	size_t n = 1;
	cur[0] = (pos){ 0, 0, 0 };
	for (size_t i = 0;; i++) {
		size_t m = 0;
		for (size_t j = 0; j < n; j++) {
			size_t nc = closure(l, cur[j], cl);
			for (size_t c = 0; c < nc; c++) {
				if (i == len) {
					if (accepting(l, cl[c]))
						return 1;
					continue;
				}
				pos nx;
				if (step(l, cl[c], (unsigned char)s[i], &dl, &nx) &&
				    !add_pos(next, &m, nx))
					return -1;
			}
		}
		if (i == len || !m)
			return 0;
		memcpy(cur, next, m * sizeof(pos));
		n = m;
	}
}

bool ddbc_lang_matches(const ddbc_lang *l, const char *s, size_t len, const char *delim)
{
	int quick = match_positions(l, s, len, delim);
	if (quick >= 0)
		return quick == 1;
	ddbc_lang fixed;
	ddbc_lang_init(&fixed);
	ddbc_lang_fixed(&fixed, s, len);
	bool r = search(l, &fixed, NULL, delim);
	ddbc_lang_release(&fixed);
	return r;
}

/* Whether the string s lies in the range: the comparison automaton of the
 * search, run over s. */
static bool in_range(const range *rg, const char *s, size_t len)
{
	uint32_t lo = 0, hi = 0;
	for (size_t i = 0; i < len; i++)
		if (!lo_step(rg->lower, lo, (unsigned char)s[i], &lo) ||
		    !hi_step(rg->upper, hi, (unsigned char)s[i], &hi))
			return false;
	return range_accepts(rg, lo, hi);
}

/* A string of l built along guide: each class takes the guide's next bytes
 * while they fit it, and at least its minimum, padded with a byte of the
 * class. A candidate only: the caller checks it. */
static void guided_string(const ddbc_lang *l, const char *guide, size_t glen, const char *delim,
			  strbuf *out)
{
	size_t g = 0;
	for (size_t r = 0; r < l->nruns; r++) {
		const ddbc_run *run = &l->runs[r];
		if (run->fixed) {
			ddbc_strbuf_add(out, run->text, run->len);
			g += run->len;
			continue;
		}
		size_t n = 0;
		for (; g < glen && (!run->max || n < run->max) && ddbc_class_has(run->cls, (unsigned char)guide[g]) &&
		       !(run->cls == DDBC_CLASS_NO_DELIM && strchr(delim, guide[g]));
		     g++, n++)
			ddbc_strbuf_addch(out, guide[g]);
		for (; n < run->min || (n == 0 && run->cls != DDBC_CLASS_ANY); n++)
			ddbc_strbuf_addch(out, '0');
	}
}

bool ddbc_lang_in_range(const ddbc_lang *l, const ddbc_bound *lower, const ddbc_bound *upper,
			const char *delim)
{
	range rg = { lower, upper };
	/* A range on a sort key is usually met by the string that follows the
	 * lower bound through the template, or by the plainest one: each is
	 * tried, and checked, before the search. */
	for (int k = 0; k < 2; k++) {
		if (k == 0 && !lower)
			continue;
		strbuf w = STRBUF_INIT;
		guided_string(l, k == 0 ? lower->text : "", k == 0 ? lower->len : 0, delim, &w);
		bool found = in_range(&rg, ddbc_strbuf_str(&w), w.len) &&
			     ddbc_lang_matches(l, ddbc_strbuf_str(&w), w.len, delim);
		ddbc_strbuf_release(&w);
		if (found)
			return true;
	}
	return search(l, NULL, &rg, delim);
}
