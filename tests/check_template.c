/* check_template.c - template parsing and the exact language reasoning */
#include "model/template.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

static ddbc_arena *arena;

static void setup(void)
{
	arena = ddbc_arena_new();
}

static void teardown(void)
{
	ddbc_arena_free(arena);
}

/* ---- parsing ------------------------------------------------------------------ */

START_TEST(test_parse_segments)
{
	ddbc_template t;
	size_t off;
	ck_assert_ptr_null(ddbc_template_parse(arena, "EVENT#{eventId}#N#{n:05}{{x}}", &t, &off));
	ck_assert_uint_eq(t.nsegs, 5);
	ck_assert_int_eq(t.segs[0].kind, DDBC_SEG_LITERAL);
	ck_assert_str_eq(t.segs[0].text, "EVENT#");
	ck_assert_int_eq(t.segs[1].kind, DDBC_SEG_PLACEHOLDER);
	ck_assert_str_eq(t.segs[1].text, "eventId");
	ck_assert_uint_eq(t.segs[1].width, 0);
	ck_assert_str_eq(t.segs[2].text, "#N#");
	ck_assert_str_eq(t.segs[3].text, "n");
	ck_assert_uint_eq(t.segs[3].width, 5);
	ck_assert_str_eq(t.segs[4].text, "{x}");
	const char *prefix;
	ck_assert_uint_eq(ddbc_template_prefix(&t, &prefix), 6);
	ck_assert(!ddbc_template_is_constant(&t));
}
END_TEST

START_TEST(test_parse_constant)
{
	ddbc_template t;
	size_t off;
	ck_assert_ptr_null(ddbc_template_parse(arena, "PROFILE", &t, &off));
	ck_assert(ddbc_template_is_constant(&t));
	ck_assert_ptr_null(ddbc_template_parse(arena, "", &t, &off));
	ck_assert_uint_eq(t.nsegs, 0);
}
END_TEST

START_TEST(test_parse_errors)
{
	static const struct {
		const char *text;
		size_t offset;
		const char *word;
	} cases[] = {
		{ "A#{id", 2, "unbalanced '{'" },
		{ "A#id}", 4, "unbalanced '}'" },
		{ "A#{}", 2, "empty placeholder" },
		{ "{a{b}}", 0, "unbalanced '{'" },
		{ "{n:5}", 0, "bad width" },
		{ "{n:0}", 0, "bad width" },
		{ "{n:00}", 0, "at least 1" },
		{ "{n:0x}", 0, "bad width" },
		{ "{n:099}", 0, "larger than 38" },
		{ "{:03}", 0, "without a name" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ddbc_template t;
		size_t off = 999;
		const char *err = ddbc_template_parse(arena, cases[i].text, &t, &off);
		ck_assert_msg(err && strstr(err, cases[i].word), "'%s': %s", cases[i].text,
			      err ? err : "(no error)");
		ck_assert_uint_eq(off, cases[i].offset);
	}
}
END_TEST

/* ---- languages ------------------------------------------------------------------- */

/* Builds a language from a compact description: literal text, with
 * "%s" a string placeholder, "%n" a number, "%d3" a 3-digit padded number,
 * "%*" anything. */
static void lang(ddbc_lang *l, const char *spec)
{
	ddbc_lang_init(l);
	const char *p = spec;
	while (*p) {
		if (*p != '%') {
			size_t n = strcspn(p, "%");
			ddbc_lang_fixed(l, p, n);
			p += n;
			continue;
		}
		char c = p[1];
		p += 2;
		if (c == 's')
			ddbc_lang_class(l, DDBC_CLASS_NO_DELIM, 1);
		else if (c == 'n')
			ddbc_lang_class(l, DDBC_CLASS_NUMBER, 1);
		else if (c == '*')
			ddbc_lang_class(l, DDBC_CLASS_ANY, 0);
		else if (c == 'd')
			ddbc_lang_digits(l, (size_t)(*p++ - '0'));
	}
}

static bool meets(const char *a, const char *b, const char *delim)
{
	ddbc_lang la, lb;
	lang(&la, a);
	lang(&lb, b);
	bool r = ddbc_lang_intersects(&la, &lb, delim);
	bool r2 = ddbc_lang_intersects(&lb, &la, delim);
	ck_assert_msg(r == r2, "intersection of '%s' and '%s' is not symmetric", a, b);
	ddbc_lang_release(&la);
	ddbc_lang_release(&lb);
	return r;
}

START_TEST(test_intersects)
{
	static const struct {
		const char *a, *b;
		bool meet;
	} cases[] = {
		{ "USER#%s", "USER#%s", true },
		{ "USER#%s", "ORDER#%s", false },
		{ "USER#%s", "USER#%s#X", false },       /* values hold no '#' */
		{ "%s#%s", "USER#%s", true },
		{ "%s#%s", "USER#%s#X", false },         /* one '#' against two */
		{ "PROFILE", "PROFIL%s", true },
		{ "PROFILE", "PROFILE#%s", false },
		{ "STAMP#%d3", "STAMP#%s", true },
		{ "STAMP#%d3", "STAMP#12", false },      /* padding: exactly 3 digits */
		{ "STAMP#%d3", "STAMP#012", true },
		{ "STAMP#%d3", "STAMP#0012", false },    /* a 4th digit would sort wrong */
		{ "%d3", "%d4", false },
		{ "%d3#%s", "%d3%*", true },
		{ "%d2%d2", "%d4", true },
		{ "%d2%d2", "%d3", false },
		{ "N#%n", "N#abc", false },
		{ "N#%n", "N#-1.5", true },
		{ "%*", "anything#at#all", true },
		{ "A%sB", "AB", false },                 /* values are never empty */
		{ "", "", true },
		{ "", "%s", false },
		/* Shapes that line up are decided without the search; meets()
		 * also asks the other way round, which the search decides. */
		{ "E#%s", "E#%n", true },
		{ "E#%d3", "E#%n", true },
		{ "E#%s#%d2", "E#%*", true },
		{ "E#%s#%d2", "E#%s#%*", true },
		{ "E#%s", "F#%*", false },
		{ "E#%s", "E#%s#%*", false },
		{ "E#%s", "E#X%*", true },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		ck_assert_msg(meets(cases[i].a, cases[i].b, "#") == cases[i].meet,
			      "'%s' and '%s' should%s meet", cases[i].a, cases[i].b,
			      cases[i].meet ? "" : " not");
}
END_TEST

START_TEST(test_multibyte_delimiter)
{
	/* With "::" as delimiter a single ':' may stand inside a value. */
	ck_assert(meets("A::%s", "A::x:y", "::"));
	ck_assert(!meets("A::%s", "A::x::y", "::"));
	ck_assert(meets("%s::%s", "a:b::c", "::"));
	/* A delimiter of digits: values hold digits, but not the delimiter. */
	ck_assert(meets("E0%s", "E0%d1", "0"));
	ck_assert(meets("%s", "%d1", "0123456789"));
	ck_assert(!meets("%s", "0123456789", "0123456789"));
}
END_TEST

START_TEST(test_matches)
{
	ddbc_lang l;
	lang(&l, "EVENT#%s#USER#%s");
	ck_assert(ddbc_lang_matches(&l, "EVENT#e1#USER#U1", 16, "#"));
	ck_assert(!ddbc_lang_matches(&l, "EVENT#e1#USER#", 14, "#"));
	ck_assert(!ddbc_lang_matches(&l, "EVENT#e#1#USER#U1", 17, "#"));
	ddbc_lang_release(&l);
}
END_TEST

/* ddbc_lang_matches steps the language's positions over the string; the
 * product search with the string as a fixed language (what
 * ddbc_lang_intersects runs) must agree on every pair, including a
 * language of more runs than the stepping follows. */
START_TEST(test_matches_agrees_with_search)
{
	static const char *const specs[] = {
		"EVENT#%s#USER#%s", "%s", "%*", "%s%s", "A%*B", "%d3", "%d3%s", "%n", "%n#%d2",
		"%s::%s", "X%*%s#%d2", "",
	};
	static const char *const texts[] = {
		"", "A", "AB", "AxyB", "EVENT#e1#USER#U1", "EVENT#e1#USER#", "123", "12", "1234",
		"123abc", "-1.5", "7#05", "a::b", "a:b::c", "a::b::c", "Xq#01", "X#01", "#", "##",
	};
	static const char *const delims[] = { "#", "::" };
	for (size_t d = 0; d < 2; d++) {
		for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
			ddbc_lang l;
			lang(&l, specs[i]);
			for (size_t k = 0; k < sizeof(texts) / sizeof(texts[0]); k++) {
				ddbc_lang f;
				ddbc_lang_init(&f);
				ddbc_lang_fixed(&f, texts[k], strlen(texts[k]));
				bool want = ddbc_lang_intersects(&l, &f, delims[d]);
				ck_assert_msg(ddbc_lang_matches(&l, texts[k], strlen(texts[k]),
								delims[d]) == want,
					      "'%s' against '%s' (delimiter '%s')", texts[k], specs[i],
					      delims[d]);
				ddbc_lang_release(&f);
			}
			ddbc_lang_release(&l);
		}
	}
	/* 80 runs: more than the stepping takes. */
	ddbc_lang l;
	ddbc_lang_init(&l);
	for (int i = 0; i < 40; i++) {
		ddbc_lang_fixed(&l, "a", 1);
		ddbc_lang_class(&l, DDBC_CLASS_ANY, 0);
	}
	char text[81];
	for (int i = 0; i < 80; i++)
		text[i] = 'a';
	text[80] = 0;
	ck_assert(ddbc_lang_matches(&l, text, 40, "#"));
	ck_assert(ddbc_lang_matches(&l, text, 80, "#"));
	ck_assert(!ddbc_lang_matches(&l, text, 39, "#"));
	ddbc_lang_release(&l);
}
END_TEST

static bool in_range(const char *spec, const char *lo, const char *hi, bool open)
{
	ddbc_lang l;
	lang(&l, spec);
	ddbc_bound blo = { lo, lo ? strlen(lo) : 0, true, false };
	ddbc_bound bhi = { hi, hi ? strlen(hi) : 0, true, open };
	bool r = ddbc_lang_in_range(&l, lo ? &blo : NULL, hi ? &bhi : NULL, "#");
	ddbc_lang_release(&l);
	return r;
}

START_TEST(test_range)
{
	/* the stamp-rally article: GSI1SK BETWEEN "2026-05-23" AND "2026-05-23T23:59:59.999Z#~" */
	ck_assert(in_range("%s#%s", "2026-05-23", "2026-05-23T23:59:59.999Z#~", false));
	/* a stamp master's "001" sorts before every date */
	ck_assert(!in_range("%d3", "2026-05-23", "2026-05-23T23:59:59.999Z#~", false));
	ck_assert(!in_range("ORDER#%s", "USER#", NULL, false));
	ck_assert(in_range("ORDER#%s", NULL, "ORDER#2", false));
	ck_assert(!in_range("ORDER#%s", NULL, "ORDER#", false));
	ck_assert(in_range("ORDER#%s", NULL, "ORDER#", true));
	ck_assert(in_range("B", "A", "C", false));
	ck_assert(!in_range("D", "A", "C", false));
	ck_assert(in_range("C", "A", "C", false));
	/* Met by the string that follows the lower bound, or the plainest
	 * one; when neither is, the search decides. */
	ck_assert(in_range("%s#%s", "2026-01-01", "2026-12-31~", false));
	ck_assert(in_range("%n", "5", "6", false));
	ck_assert(in_range("%s", NULL, "1", false));
	ck_assert(!in_range("X%s", "Y", NULL, false));
	ck_assert(!in_range("%s", "a#b", "a#c", false));
	ck_assert(in_range("%s#%s", "a#b", "a#c", false));
	ck_assert(in_range("%s", "zz", NULL, false));
}
END_TEST

/* ---- rendering ---------------------------------------------------------------- */

/* Values by placeholder name, as "name=kind:text" with kind t (text), n
 * (number), i (whole number), m (missing) or u (unusable). */
typedef struct values {
	const char *const *defs;
	size_t n;
} values;

static ddbc_tvalue lookup(void *ctx, const ddbc_segment *seg)
{
	const values *vs = ctx;
	ddbc_tvalue v = { .kind = DDBC_TVALUE_MISSING };
	for (size_t i = 0; i < vs->n; i++) {
		const char *d = vs->defs[i], *eq = strchr(d, '=');
		if ((size_t)(eq - d) != seg->len || memcmp(d, seg->text, seg->len))
			continue;
		char kind = eq[1];
		v.text = eq + 3;
		v.len = strlen(v.text);
		v.source = d;
		v.kind = kind == 't' ? DDBC_TVALUE_TEXT : kind == 'm' ? DDBC_TVALUE_MISSING
			 : kind == 'u' ? DDBC_TVALUE_UNUSABLE : DDBC_TVALUE_NUMBER;
		v.is_int = kind == 'i';
		v.n = v.is_int ? strtoll(v.text, NULL, 10) : 0;
	}
	return v;
}

static ddbc_render_result render(const char *tpl, const values *vs, strbuf *out,
				 ddbc_render_problem *p)
{
	ddbc_template t;
	size_t off;
	ck_assert_ptr_null(ddbc_template_parse(arena, tpl, &t, &off));
	ddbc_strbuf_reset(out);
	return ddbc_template_render(&t, lookup, (void *)vs, out, p);
}

START_TEST(test_render_values)
{
	static const char *const defs[] = { "id=t:a#b", "n=i:-7", "z=i:+0042", "x=n:+1.50",
					    "big=n:123456789012345678901234567890", "lz=n:+007" };
	values vs = { defs, 6 };
	strbuf out = STRBUF_INIT;
	ddbc_render_problem p;
	ck_assert_int_eq(render("U#{id}#{{lit}}", &vs, &out, &p), DDBC_RENDER_OK);
	ck_assert_str_eq(ddbc_strbuf_str(&out), "U#a#b#{lit}");
	/* Whole numbers lose '+' and leading zeros, and are padded to width. */
	ck_assert_int_eq(render("{n}/{z}/{z:06}", &vs, &out, &p), DDBC_RENDER_OK);
	ck_assert_str_eq(ddbc_strbuf_str(&out), "-7/42/000042");
	/* Others are written as they are, less a leading '+'. */
	ck_assert_int_eq(render("{x}|{big}", &vs, &out, &p), DDBC_RENDER_OK);
	ck_assert_str_eq(ddbc_strbuf_str(&out), "1.50|123456789012345678901234567890");
	/* A whole number longer than long long (DynamoDB keeps 38 digits) is
	 * padded from its digits. */
	ck_assert_int_eq(render("{big:032}|{lz:05}", &vs, &out, &p), DDBC_RENDER_OK);
	ck_assert_str_eq(ddbc_strbuf_str(&out), "00123456789012345678901234567890|00007");
	ck_assert_ptr_null(p.seg);
	ddbc_strbuf_release(&out);
}
END_TEST

START_TEST(test_render_problems)
{
	static const char *const defs[] = { "n=i:-7", "x=n:1.5", "bad=u:", "gone=m:" };
	values vs = { defs, 4 };
	strbuf out = STRBUF_INIT;
	ddbc_render_problem p;
	ck_assert_int_eq(render("A#{n:03}", &vs, &out, &p), DDBC_RENDER_UNPADDABLE);
	ck_assert_str_eq(p.seg->text, "n");
	ck_assert_uint_eq(p.seg->width, 3);
	ck_assert_ptr_eq(p.value.source, defs[0]);
	ck_assert_str_eq(ddbc_strbuf_str(&out), "A#");
	ck_assert_int_eq(render("{x:02}", &vs, &out, &p), DDBC_RENDER_UNPADDABLE);
	ck_assert_str_eq(ddbc_padding_problem("1.5", 3, 2), "is not a non-negative whole number");
	/* Wider than the field: DynamoDB's string order would put it first. */
	static const char *const wide[] = { "w=i:1234" };
	values wv = { wide, 1 };
	ck_assert_int_eq(render("{w:03}", &wv, &out, &p), DDBC_RENDER_UNPADDABLE);
	ck_assert_ptr_nonnull(strstr(ddbc_padding_problem("1234", 4, 3), "more digits"));
	ck_assert_ptr_null(ddbc_padding_problem("0999", 4, 3));
	ck_assert_int_eq(render("{w:04}", &wv, &out, &p), DDBC_RENDER_OK);
	ck_assert_int_eq(render("{x}#{bad}", &vs, &out, &p), DDBC_RENDER_UNUSABLE);
	ck_assert_str_eq(p.seg->text, "bad");
	ck_assert_int_eq(render("{gone}#{bad}", &vs, &out, &p), DDBC_RENDER_MISSING);
	ck_assert_str_eq(p.seg->text, "gone");
	ck_assert_int_eq(render("{unknown}", &vs, &out, &p), DDBC_RENDER_MISSING);
	ddbc_strbuf_release(&out);
}
END_TEST

static Suite *template_suite(void)
{
	Suite *s = suite_create("template");
	TCase *tc = tcase_create("parse");
	/* Every case has its own timeout: Check's default (4 s) fails on a
	 * loaded machine (make -j16); these take a second or less alone. */
	tcase_set_timeout(tc, 60);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_parse_segments);
	tcase_add_test(tc, test_parse_constant);
	tcase_add_test(tc, test_parse_errors);
	suite_add_tcase(s, tc);
	tc = tcase_create("language");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_intersects);
	tcase_add_test(tc, test_multibyte_delimiter);
	tcase_add_test(tc, test_matches);
	tcase_add_test(tc, test_matches_agrees_with_search);
	tcase_add_test(tc, test_range);
	suite_add_tcase(s, tc);
	tc = tcase_create("render");
	tcase_set_timeout(tc, 60);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_render_values);
	tcase_add_test(tc, test_render_problems);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(template_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
