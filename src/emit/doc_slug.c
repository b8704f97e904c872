/* doc_slug.c - GitHub's heading ids */
#include "emit/doc_slug.h"
#include "util/utf8.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* An id as stored: the text the set points to, after the number of times
 * a heading asked for it (github-slugger's "occurrences"). */
typedef struct slug {
	unsigned asked;
	char text[];
} slug;

static slug *slug_of(const char *text)
{
	return (slug *)(void *)(text - offsetof(slug, text));
}

void ddbc_slugger_init(ddbc_slugger *s)
{
	memset(s, 0, sizeof(*s));
	s->arena = ddbc_arena_new();
}

void ddbc_slugger_release(ddbc_slugger *s)
{
	ddbc_strset_release(&s->ids);
	ddbc_arena_free(s->arena);
	ddbc_strbuf_release(&s->base);
	ddbc_strbuf_release(&s->id);
	memset(s, 0, sizeof(*s));
}

void ddbc_slugger_seal(ddbc_slugger *s)
{
	ddbc_strset_release(&s->ids);
	ddbc_strbuf_release(&s->base);
	ddbc_strbuf_release(&s->id);
}

/* Adds id (which must be absent) and returns the stored text. */
static const char *add(ddbc_slugger *s, const char *id, size_t len)
{
	slug *sl = ddbc_arena_alloc(s->arena, sizeof(slug) + len + 1);
	memcpy(sl->text, id, len);
	ddbc_strset_put(&s->ids, sl->text, len);
	return sl->text;
}

void ddbc_slug_reserve(ddbc_slugger *s, const char *id)
{
	size_t len = strlen(id);
	if (!ddbc_strset_get(&s->ids, id, len))
		add(s, id, len);
}

/* Code points github-slugger keeps besides ASCII letters, digits, '-', '_'
 * and ' ': letters, marks, numbers and connector punctuation. Without
 * Unicode tables, the blocks of punctuation and symbols that headings
 * realistically hold are dropped and everything else is kept. */
static bool slug_keeps(unsigned cp)
{
	static const struct { unsigned lo, hi; } drop[] = {
		{ 0x80, 0xA9 }, { 0xAB, 0xB1 }, { 0xB4, 0xB4 }, { 0xB6, 0xB8 }, { 0xBB, 0xBB },
		{ 0xBF, 0xBF }, { 0xD7, 0xD7 }, { 0xF7, 0xF7 }, { 0x2000, 0x203E },
		{ 0x2041, 0x2053 }, { 0x2055, 0x206F }, { 0x20A0, 0x20CF },
		{ 0x2100, 0x2101 }, { 0x2190, 0x2BFF }, { 0x3000, 0x3004 },
		{ 0x3008, 0x3020 }, { 0x3030, 0x3030 }, { 0x303D, 0x303F },
		{ 0x30A0, 0x30A0 }, { 0x30FB, 0x30FB }, { 0xFE10, 0xFE1F },
		{ 0xFE30, 0xFE4C }, { 0xFE50, 0xFE6F }, { 0xFEFF, 0xFEFF },
		{ 0xFF01, 0xFF0F }, { 0xFF1A, 0xFF20 }, { 0xFF3B, 0xFF3E }, { 0xFF40, 0xFF40 },
		{ 0xFF5B, 0xFF65 }, { 0xFFE0, 0xFFEF }, { 0x1F000, 0x1FAFF },
	};
	for (size_t i = 0; i < sizeof(drop) / sizeof(drop[0]); i++)
		if (cp >= drop[i].lo && cp <= drop[i].hi)
			return false;
	return true;
}

static void slugify(strbuf *out, const char *text, size_t len)
{
	const unsigned char *p = (const unsigned char *)text, *end = p + len;
	while (p < end) {
		unsigned cp;
		size_t n = ddbc_utf8_decode(p, end, &cp);
		if (!n) {
			/* Not UTF-8 (the loader lets none through): dropped, so an
			 * id is never invalid text. */
			p++;
			continue;
		}
		if (cp < 0x80) {
			if ((cp >= 'a' && cp <= 'z') || (cp >= '0' && cp <= '9') || cp == '-' ||
			    cp == '_')
				ddbc_strbuf_addch(out, (char)cp);
			else if (cp >= 'A' && cp <= 'Z')
				ddbc_strbuf_addch(out, (char)(cp - 'A' + 'a'));
			else if (cp == ' ')
				ddbc_strbuf_addch(out, '-');
		} else if (slug_keeps(cp)) {
			ddbc_strbuf_add(out, p, n);
		}
		p += n;
	}
}

const char *ddbc_slug(ddbc_slugger *s, const char *text, size_t len)
{
	ddbc_strbuf_reset(&s->base);
	slugify(&s->base, text, len);
	const char *base = ddbc_strbuf_str(&s->base);
	const char *taken = ddbc_strset_get(&s->ids, base, s->base.len);
	if (!taken)
		return add(s, base, s->base.len);
	/* As github-slugger: count on from the base's own counter until an
	 * id is free (a heading may have taken "x-1" itself). */
	slug *sl = slug_of(taken);
	do {
		ddbc_strbuf_reset(&s->id);
		ddbc_strbuf_addf(&s->id, "%s-%u", base, ++sl->asked);
	} while (ddbc_strset_get(&s->ids, s->id.buf, s->id.len));
	return add(s, s->id.buf, s->id.len);
}
