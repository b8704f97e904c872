/* emit_libs.c - what the library exports share: key templates flattened
 * and checked against what the library can write, TypeScript literals
 * and names
 */
#include "emit/emit_libs.h"
#include "emit/emit_keys_int.h"
#include "model/request.h"
#include "model/semantics.h"
#include "util/error.h"

#include <string.h>

/* Appends s for a one-line message: a control character or one that
 * reorders text (bidi controls) as '?'. */
static void shown(strbuf *sb, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x20 || *p == 0x7f) {
			ddbc_strbuf_addch(sb, '?');
		} else if (p[0] == 0xe2 && p[1] == 0x80 &&
			   ((p[2] >= 0x8e && p[2] <= 0x8f) || (p[2] >= 0xaa && p[2] <= 0xae))) {
			ddbc_strbuf_addch(sb, '?');
			p += 2;
		} else if (p[0] == 0xe2 && p[1] == 0x81 && p[2] >= 0xa6 && p[2] <= 0xa9) {
			ddbc_strbuf_addch(sb, '?');
			p += 2;
		} else {
			ddbc_strbuf_addch(sb, (char)*p);
		}
	}
}

void ddbc_lib_refuse(ddbc_err *err, const lib_caps *caps, const ddbc_attr *a, const char *fmt,
		     const char *what)
{
	strbuf why = STRBUF_INIT, e = STRBUF_INIT, n = STRBUF_INIT, t = STRBUF_INIT;
	ddbc_strbuf_addf(&why, fmt, what);
	shown(&e, a->entity->name.s);
	shown(&n, a->name.s);
	shown(&t, a->template.s ? a->template.s : "");
	ddbc_err_add(err, NULL, "cannot export %s: entity '%s' attribute '%s' (template '%s'): "
		     "%s; change the template or use another --format", caps->format,
		     ddbc_strbuf_str(&e), ddbc_strbuf_str(&n), ddbc_strbuf_str(&t),
		     ddbc_strbuf_str(&why));
	ddbc_strbuf_release(&why);
	ddbc_strbuf_release(&e);
	ddbc_strbuf_release(&n);
	ddbc_strbuf_release(&t);
}

typedef struct flatten {
	ddbc_arena *arena;
	const lib_caps *caps;
	const ddbc_attr *key;    /* the key attribute being flattened */
	ddbc_err *err;           /* why it cannot be */
	lib_part *parts;
	size_t n, cap;
	unsigned depth;
} flatten;

static bool refuse(const flatten *f, const char *fmt, const char *what)
{
	ddbc_lib_refuse(f->err, f->caps, f->key, fmt, what);
	return false;
}

static void add(flatten *f, lib_part p)
{
	if (f->n == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 8;
		f->parts = ddbc_arena_resize(f->arena, f->parts, f->cap, sizeof *f->parts);
	}
	f->parts[f->n++] = p;
}

/* A name the library's ${name} syntax reads back as written. */
static bool braced_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!(*s == '_' || (*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'z') ||
		      (*s >= 'A' && *s <= 'Z')))
			return false;
	return true;
}

static bool has_dollar_brace(const char *s, size_t len)
{
	for (size_t i = 0; i + 1 < len; i++)
		if (s[i] == '$' && s[i + 1] == '{')
			return true;
	return false;
}

static bool placeholder(flatten *f, const ddbc_segment *seg, unsigned width);

static bool flatten_tpl(flatten *f, const ddbc_template *t, unsigned width)
{
	if (++f->depth > 32)
		return refuse(f, "%s", "its templates name each other too deeply");
	for (size_t i = 0; i < t->nsegs; i++) {
		const ddbc_segment *seg = &t->segs[i];
		if (seg->kind == DDBC_SEG_PLACEHOLDER) {
			if (!placeholder(f, seg, width))
				return false;
			continue;
		}
		if (f->caps->braced && seg->len && has_dollar_brace(seg->text, seg->len))
			return refuse(f, "%s reads \"${\" in a literal as a placeholder",
				      f->caps->library);
		add(f, (lib_part){ .text = seg->text, .len = seg->len });
	}
	f->depth--;
	return true;
}

static bool placeholder(flatten *f, const ddbc_segment *seg, unsigned width)
{
	const ddbc_attr *a = seg->ref;
	if (!a)
		return refuse(f, "{%s} names no attribute of the entity", seg->text);
	if (a->has_template) {
		/* An attribute built from others: the library builds the key
		 * from those others, through a's template. */
		if (seg->width || width)
			return refuse(f, "{%s} pads an attribute that has a template", seg->text);
		if (a->in_cycle)
			return refuse(f, "{%s} names an attribute whose template names itself",
				      seg->text);
		return flatten_tpl(f, &a->tpl, 0);
	}
	if (f->caps->braced && !braced_name(a->name.s))
		return refuse(f, "%s templates name attributes of letters, digits and '_' only",
			      f->caps->library);
	if (seg->width) {
		bool num = a->type == DDBC_TYPE_N;
		if ((num && !f->caps->pad_numbers) || (!num && !f->caps->pad_text))
			return refuse(f, num ? "%s cannot zero-pad a Number in a key (:0WIDTH)"
					     : "%s cannot zero-pad a String in a key (:0WIDTH)",
				      f->caps->library);
	}
	add(f, (lib_part){ .attr = a, .width = seg->width });
	return true;
}

bool ddbc_lib_key_of(ddbc_arena *arena, const lib_caps *caps, const ddbc_attr *a, lib_key *k,
		     ddbc_err *err)
{
	memset(k, 0, sizeof *k);
	k->attr = a;
	flatten f = { .arena = arena, .caps = caps, .key = a, .err = err };
	if (a->type == DDBC_TYPE_B && !caps->binary_keys) {
		ddbc_lib_refuse(err, caps, a, "%s keys hold no Binary value", caps->library);
		return false;
	}
	if (!a->has_template) {
		k->plain = true;
		return true;
	}
	if (a->in_cycle)
		return refuse(&f, "%s", "its template names itself");
	if (!flatten_tpl(&f, &a->tpl, 0))
		return false;
	k->parts = f.parts;
	k->nparts = f.n;
	return true;
}

bool ddbc_lib_table_ok(const lib_caps *caps, const ddbc_table *t, ddbc_err *err)
{
	for (size_t i = 0; i < t->nindexes; i++) {
		const ddbc_index *ix = t->indexes[i];
		if ((ix->npk > 1 || ix->nsk > 1) && !caps->multi_keys) {
			strbuf tn = STRBUF_INIT, in = STRBUF_INIT;
			shown(&tn, t->name.s);
			shown(&in, ix->name.s);
			ddbc_err_add(err, NULL, "cannot export %s: table '%s' index '%s' has a "
				     "multi-attribute key, which %s cannot hold; use another "
				     "--format", caps->format, ddbc_strbuf_str(&tn),
				     ddbc_strbuf_str(&in), caps->library);
			ddbc_strbuf_release(&tn);
			ddbc_strbuf_release(&in);
			return false;
		}
	}
	return true;
}

const ddbc_attr *ddbc_lib_key_attr(const ddbc_entity *e, const ddbc_index *ix, size_t i)
{
	return ddbc_entity_stored_attr(e, ddbc_index_key(ix, i));
}

bool ddbc_lib_entity_in(const ddbc_entity *e, const ddbc_index *ix)
{
	return e->in_index && e->in_index[ix->slot];
}

/* Marks with flag every attribute t names, through their templates. An
 * attribute marked had its template walked already: each is walked once
 * per flag, so the marking is linear in the entity's templates. */
static void mark(const ddbc_entity *e, const ddbc_template *t, uint8_t *flags, uint8_t flag)
{
	for (size_t i = 0; i < t->nsegs; i++) {
		const ddbc_attr *r = t->segs[i].ref;
		if (t->segs[i].kind != DDBC_SEG_PLACEHOLDER || !r || r->entity != e)
			continue;
		size_t at = (size_t)(r - e->attrs);
		if (flags[at] & flag)
			continue;
		flags[at] |= flag;
		if (r->has_template && !r->in_cycle)
			mark(e, &r->tpl, flags, flag);
	}
}

void ddbc_lib_parts_of(ddbc_arena *arena, const ddbc_entity *e, lib_parts *out)
{
	out->e = e;
	out->flags = ddbc_arena_array(arena, e->nattrs + 1, 1);
	for (size_t i = 0; i < e->nattrs; i++) {
		const ddbc_attr *k = &e->attrs[i];
		if (!k->has_template || k->in_cycle)
			continue;
		if (k->is_key)
			mark(e, &k->tpl, out->flags, LIB_COMPOSITE);
		if (ddbc_attr_required(k, NULL))
			mark(e, &k->tpl, out->flags, LIB_REQUIRED_PART);
		if (e->table && ddbc_index_has_key(&e->table->primary, k->name.s))
			mark(e, &k->tpl, out->flags, LIB_TABLE_KEY_PART);
	}
}

bool ddbc_lib_is_composite(const lib_parts *p, const ddbc_attr *a)
{
	return a->entity == p->e && (p->flags[a - p->e->attrs] & LIB_COMPOSITE);
}

bool ddbc_lib_required(const lib_parts *p, const ddbc_attr *a)
{
	return ddbc_attr_required(a, NULL) ||
	       (a->entity == p->e && (p->flags[a - p->e->attrs] & LIB_REQUIRED_PART));
}

void ddbc_lib_ts_string(strbuf *sb, const char *s, size_t len)
{
	ddbc_keys_string(sb, s, len, true);
}

void ddbc_lib_ts_str(strbuf *sb, const char *s)
{
	ddbc_keys_string(sb, s, strlen(s), true);
}

const char *ddbc_lib_ts_ident(ddbc_arena *arena, const char *name, const char *suffix,
			 const char *fallback, size_t n)
{
	bool ok = *name && !(*name >= '0' && *name <= '9');
	for (const char *p = name; ok && *p; p++)
		ok = *p == '_' || *p == '$' || (*p >= '0' && *p <= '9') ||
		     (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z');
	return ok ? ddbc_arena_printf(arena, "%s%s", name, suffix)
		  : ddbc_arena_printf(arena, "%s%zu", fallback, n);
}

void ddbc_lib_ts_concat(strbuf *sb, const lib_key *k, const char *item, bool *pads)
{
	if (!k->nparts)
		ddbc_strbuf_addstr(sb, "\"\"");
	for (size_t i = 0; i < k->nparts; i++) {
		const lib_part *p = &k->parts[i];
		ddbc_strbuf_addstr(sb, i ? " + " : "");
		if (!p->attr) {
			ddbc_lib_ts_string(sb, p->text, p->len);
			continue;
		}
		ddbc_strbuf_addf(sb, "%s%s", p->width ? "pad_(" : "String(", item);
		ddbc_lib_ts_str(sb, p->attr->name.s);
		if (p->width) {
			ddbc_strbuf_addf(sb, "], %u)", p->width);
			*pads = true;
		} else {
			ddbc_strbuf_addstr(sb, "])");
		}
	}
}

void ddbc_lib_braced(strbuf *sb, const lib_key *k, bool pad_inline)
{
	for (size_t i = 0; i < k->nparts; i++) {
		const lib_part *p = &k->parts[i];
		if (!p->attr)
			ddbc_strbuf_add(sb, p->text, p->len);
		else if (pad_inline && p->width)
			ddbc_strbuf_addf(sb, "${%s:%u:0}", p->attr->name.s, p->width);
		else
			ddbc_strbuf_addf(sb, "${%s}", p->attr->name.s);
	}
}

bool ddbc_lib_stored(const ddbc_attr *a)
{
	return ddbc_attr_stored(a);
}

bool ddbc_lib_sparse_key(const ddbc_attr *a)
{
	return a->is_key && a->has_template && !ddbc_attr_required(a, NULL);
}

const char ddbc_lib_ts_pad[] =
	"\n/* A :0WIDTH placeholder's value: a non-negative whole number in exactly\n"
	" * width digits, as ddbc writes it; any other value is refused. */\n"
	"function pad_(v: unknown, width: number): string {\n"
	"    const s = String(v).replace(/^0+(?=[0-9])/, \"\");\n"
	"    if (!/^[0-9]+$/.test(s) || s.length > width)\n"
	"        throw new RangeError(`${String(v)} is not a non-negative whole number of at most ${width} digits`);\n"
	"    return s.padStart(width, \"0\");\n"
	"}\n";
