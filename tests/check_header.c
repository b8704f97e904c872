/* check_header.c - `ddbc header`: golden files, and generated code compiled and run
 *
 * For every sample, every test design that checks clean (tests/designs),
 * the hostile design (tests/fixtures/hostile-header.ddb.yaml) and the
 * forum's, whose keys are built from parts it does not store, and the
 * format's example (tests/fixtures/format-example.ddb.yaml: every field):
 *   - the header equals its golden file (DDBC_UPDATE_GOLDEN=1 rewrites it) and
 *     is the same bytes when generated twice;
 *   - it compiles with the system compiler (cc, c++ from PATH) as -std=c99,
 *     -std=c11, -std=gnu11 and C++11 with -Wall -Wextra -pedantic -Werror and
 *     more, included twice and together with the same design's header under
 *     another prefix;
 *   - a C program written here from the header plan calls every builder (an
 *     inline function; tests/header-fmt.test checks its macro and format on
 *     every design) with the values of each example item and checks
 *     that it returns exactly the example's key, parses every example key
 *     back into the item's values (a key whose values the item does not store
 *     is parsed and built again: the same key), and checks every constant key,
 *     literal prefix and name constant, every enum's values and count and every
 *     table's TTL attribute; for every access pattern it checks the names, the
 *     key condition, the projection, the order and each value builder (called with the
 *     parameters the queries export takes) against the queries export's
 *     request. It is compiled as C99, C11 under ASan and UBSan, C++ and C++
 *     under the sanitizers, and each is run.
 * The parsers' edge cases (widths, signs, range, repeated values) and the
 * program of docs/header.md are tested on their own.
 * Expected strings in that program are escaped by this file's own escaper, not
 * the emitter's. Then: all headers in one translation unit; name findings
 * (collisions, names without identifiers) from the library and the CLI,
 * also where two identifiers only share a hash; the hash sets (strset.h)
 * that the check of the names stands on.
 * DDBC_TEST_KEEP=1 keeps the scratch directories (headers, programs).
 */
#define _GNU_SOURCE 1
#include "rules/check.h"          /* ddbc_check */
#include "emit/emit.h"
#include "emit/emit_json.h"      /* ddbc_json_scalar_text */
#include "model/header_plan.h"
#include "model/header_plan_int.h" /* ddbc_hplan_hash */
#include "model/request_rows.h"    /* ddbc_pval_scalar_text */
#include "util/decimal.h"
#include "util/strbuf.h"
#include "util/strset.h"
#include "testutil.h"

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* Every sample and every test design that checks clean (found at
 * start-up, so a new one is covered), then the hostile design and the
 * forum's; as paths relative to the source tree. */
static char **designs;
static size_t ndesigns;

/* Whether the design at path checks without errors: the test designs'
 * broken copies, made to give a finding, have no header. */
static bool checks_clean(const char *path)
{
	ddbc_source *src = ddbc_source_read(path);
	if (!src)
		return false;
	ddbc_settings cli;
	ddbc_settings_init(&cli);
	ddbc_diags d;
	ddbc_diags_init(&d);
	ddbc_design *g = ddbc_check(src, &d, &cli);
	bool clean = g && ddbc_diags_count(&d).errors == 0;
	ddbc_design_free(g);
	ddbc_diags_release(&d);
	ddbc_source_free(src);
	return clean;
}

/* Adds the designs dir/\*.ddb.yaml of the source tree; all of them, or
 * those that check clean. */
static void add_designs(const char *dir, bool only_clean)
{
	strbuf pattern = STRBUF_INIT;
	ddbc_strbuf_addf(&pattern, "%s/*.ddb.yaml", dir);
	char *abs = tu_srcpath(pattern.buf);
	glob_t g;
	if (glob(abs, 0, NULL, &g) != 0) {
		fprintf(stderr, "no designs match %s\n", abs);
		exit(1);
	}
	designs = realloc(designs, (ndesigns + g.gl_pathc + 2) * sizeof(*designs));
	for (size_t i = 0; i < g.gl_pathc; i++) {
		if (only_clean && !checks_clean(g.gl_pathv[i]))
			continue;
		strbuf rel = STRBUF_INIT;
		ddbc_strbuf_addf(&rel, "%s/%s", dir, strrchr(g.gl_pathv[i], '/') + 1);
		designs[ndesigns++] = ddbc_strbuf_detach(&rel);
	}
	globfree(&g);
	free(abs);
	ddbc_strbuf_release(&pattern);
}

static void find_designs(void)
{
	add_designs("samples", false);
	add_designs("tests/designs", true);
	designs[ndesigns++] = strdup("tests/fixtures/hostile-header.ddb.yaml");
	/* Key parts that are not stored are still the builders' parameters. */
	designs[ndesigns++] = strdup("tests/fixtures/stored/forum.ddb.yaml");
	/* Every field of the format: a TTL attribute, `order`, `returns`. */
	designs[ndesigns++] = strdup("tests/fixtures/format-example.ddb.yaml");
}

/* Warnings on top of -Wall -Wextra -pedantic -Werror: what a careful user's
 * build may turn on must not fire in the header either. */
#define C_FLAGS "-Wall", "-Wextra", "-pedantic", "-Werror", "-Wshadow", "-Wstrict-prototypes", \
	"-Wmissing-prototypes", "-Wconversion", "-Wsign-conversion", "-Wundef", "-Wcast-qual"
#define CXX_FLAGS "-Wall", "-Wextra", "-pedantic", "-Werror", "-Wshadow", "-Wconversion", \
	"-Wsign-conversion", "-Wundef", "-Wcast-qual"

/* ---- designs and headers ------------------------------------------------------ */

typedef struct unit {
	ddbc_source *src;
	ddbc_diags d;
	ddbc_design *design;
} unit;

/* Loads and checks a design file or text as `ddbc header` does. */
static void unit_open(unit *u, const char *rel, const char *text)
{
	if (rel) {
		char *path = tu_srcpath(rel);
		u->src = ddbc_source_read(path);
		ck_assert_msg(u->src != NULL, "cannot read %s", path);
		free(path);
		free(u->src->name);
		u->src->name = strdup(rel);
	} else {
		u->src = tu_source(text);
	}
	/* As `ddbc header` checks: the header's names are its plan's to
	 * report (cli.c, run_header). */
	ddbc_settings cli;
	ddbc_settings_init(&cli);
	cli.sev[DDBC_RULE_HEADER_NAME] = DDBC_SEV_OFF;
	ddbc_diags_init(&u->d);
	u->design = ddbc_check(u->src, &u->d, &cli);
	ck_assert_msg(u->design != NULL, "%s: not loaded:\n%s", rel ? rel : "text",
		      tu_diags_dump(&u->d));
	ck_assert_msg(ddbc_diags_count(&u->d).errors == 0, "%s has errors:\n%s",
		      rel ? rel : "text", tu_diags_dump(&u->d));
	/* The emitter's findings start a fresh list, as in cli.c. */
	ddbc_diags_release(&u->d);
	ddbc_diags_init(&u->d);
	ddbc_diags_begin(&u->d, u->src);
}

static void unit_close(unit *u)
{
	ddbc_design_free(u->design);
	ddbc_diags_release(&u->d);
	ddbc_source_free(u->src);
}

/* Runs the emitter; returns its result, the text in *out. */
static int emit(unit *u, const char *prefix, char **out, size_t *len)
{
	ddbc_header_opts o = { prefix, NULL };
	FILE *mem = open_memstream(out, len);
	ck_assert(mem != NULL);
	int r = ddbc_emit_header(mem, u->design, &o, &u->d);
	fclose(mem);
	return r;
}

static char *header_of(const char *rel, const char *prefix, size_t *len)
{
	unit u;
	unit_open(&u, rel, NULL);
	char *text;
	int r = emit(&u, prefix, &text, len);
	ck_assert_msg(r == DDBC_EMIT_OK, "%s: header failed (%d):\n%s", rel, r,
		      tu_diags_dump(&u.d));
	unit_close(&u);
	return text;
}

/* "samples/todo.ddb.yaml" -> "todo", "tests/designs/forum.ddb.yaml" ->
 * "design-forum" (the stored forum fixture is "forum"). */
static char *stem_of(const char *rel)
{
	const char *base = strrchr(rel, '/') ? strrchr(rel, '/') + 1 : rel;
	const char *dot = strstr(base, ".ddb.yaml");
	strbuf sb = STRBUF_INIT;
	if (!strncmp(rel, "tests/designs/", 14))
		ddbc_strbuf_addstr(&sb, "design-");
	ddbc_strbuf_add(&sb, base, dot ? (size_t)(dot - base) : strlen(base));
	return ddbc_strbuf_detach(&sb);
}

/* ---- a scratch directory and the compiler -------------------------------------- */

static char *make_tmpdir(void)
{
	const char *tmp = getenv("TMPDIR");
	strbuf sb = STRBUF_INIT;
	ddbc_strbuf_addf(&sb, "%s/ddbc-header-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	char *dir = ddbc_strbuf_detach(&sb);
	ck_assert_msg(mkdtemp(dir) != NULL, "mkdtemp: %s", strerror(errno));
	return dir;
}

/* Removes dir and the files in it (it has no subdirectories). */
static void remove_tmpdir(char *dir)
{
	const char *keep = getenv("DDBC_TEST_KEEP");
	if (keep && !strcmp(keep, "1")) {
		fprintf(stderr, "kept %s\n", dir);
		free(dir);
		return;
	}
	DIR *dh = opendir(dir);
	struct dirent *de;
	while (dh && (de = readdir(dh)) != NULL) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		strbuf p = STRBUF_INIT;
		ddbc_strbuf_addf(&p, "%s/%s", dir, de->d_name);
		unlink(p.buf);
		ddbc_strbuf_release(&p);
	}
	if (dh)
		closedir(dh);
	rmdir(dir);
	free(dir);
}

static char *path_in(const char *dir, const char *name)
{
	strbuf sb = STRBUF_INIT;
	ddbc_strbuf_addf(&sb, "%s/%s", dir, name);
	return ddbc_strbuf_detach(&sb);
}

static void write_in(const char *dir, const char *name, const char *text, size_t len)
{
	char *p = path_in(dir, name);
	tu_write_file(p, text, len);
	free(p);
}

/* Runs argv (searched in PATH) in dir with stdout and stderr captured;
 * returns the exit status (128 + signal), the output in *log. */
static int run_in(const char *dir, const char *const *argv, char **log)
{
	char *logpath = path_in(dir, "run.log");
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, logpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	char *cwd = getcwd(NULL, 0);
	ck_assert(chdir(dir) == 0);
	pid_t pid;
	int e = posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)argv, environ);
	ck_assert(chdir(cwd) == 0);
	free(cwd);
	posix_spawn_file_actions_destroy(&fa);
	ck_assert_msg(e == 0, "cannot run %s: %s", argv[0], strerror(e));
	int status;
	while (waitpid(pid, &status, 0) < 0)
		ck_assert_msg(errno == EINTR, "waitpid: %s", strerror(errno));
	*log = tu_read_file(logpath, NULL);
	unlink(logpath);
	free(logpath);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void expect_run(const char *dir, const char *const *argv)
{
	char *log;
	int status = run_in(dir, argv, &log);
	strbuf cmd = STRBUF_INIT;
	for (size_t i = 0; argv[i]; i++)
		ddbc_strbuf_addf(&cmd, "%s%s", i ? " " : "", argv[i]);
	if (status != 0)
		fprintf(stderr, "in %s: '%s' exited with %d:\n%s", dir, cmd.buf, status, log);
	/* Check's messages are short: the whole output went to stderr. */
	ck_assert_msg(status == 0, "in %s: '%s' exited with %d:\n%.2000s", dir, cmd.buf,
		      status, log);
	ddbc_strbuf_release(&cmd);
	free(log);
}

/* Compiles src (in dir) to an object file under every language mode. */
static void compile_everywhere(const char *dir, const char *src)
{
	static const char *const stds[] = { "-std=c99", "-std=c11", "-std=gnu11" };
	for (size_t i = 0; i < sizeof(stds) / sizeof(stds[0]); i++) {
		const char *argv[] = { "cc", stds[i], C_FLAGS, "-fsyntax-only", src, NULL };
		expect_run(dir, argv);
	}
	const char *cxx[] = { "c++", "-x", "c++", "-std=c++11", CXX_FLAGS, "-fsyntax-only", src,
			      NULL };
	expect_run(dir, cxx);
}

/* ---- the generated test program ------------------------------------------------- */

/* s as a C string literal, every byte but letters, digits and spaces as
 * octal: independent of the emitter's escaping. */
static void lit(strbuf *sb, const char *s, size_t len)
{
	ddbc_strbuf_addch(sb, '"');
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    c == ' ')
			ddbc_strbuf_addch(sb, (char)c);
		else
			ddbc_strbuf_addf(sb, "\\%03o", c);
	}
	ddbc_strbuf_addch(sb, '"');
}

typedef struct program {
	strbuf text;
	size_t calls;            /* builder calls written */
	size_t checks;           /* string comparisons written */
	size_t parses;           /* parser calls on example keys written */
	strbuf uncalled;         /* builders no example could call */
} program;

static const ddbc_pval *string_value(const ddbc_pval *item, const char *name)
{
	const ddbc_pval *v = ddbc_pval_get(item, name);
	if (!v || ddbc_pval_kind(v) != DDBC_NODE_SCALAR || ddbc_pval_scalar(v) != DDBC_SCALAR_STR ||
	    memchr(ddbc_pval_text(v), '\0', ddbc_pval_n(v)))
		return NULL;
	return v;
}

/* A Number value of item: its scalar's decimal text, or NULL. */
static const ddbc_pval *number_value(const ddbc_pval *item, const char *name)
{
	const ddbc_pval *v = ddbc_pval_get(item, name);
	if (!v || ddbc_pval_kind(v) != DDBC_NODE_SCALAR || !ddbc_decimal_valid(ddbc_pval_text(v), ddbc_pval_n(v)))
		return NULL;
	return v;
}

/* A Number part as a parser reads it back: less a leading '+', and a whole
 * number (a width's digits) without its leading zeros. */
static void number_part(strbuf *sb, const char *s, size_t n)
{
	if (n && s[0] == '+')
		s++, n--;
	size_t sign = n && s[0] == '-';
	bool whole = n > sign;
	for (size_t i = sign; i < n; i++)
		whole &= s[i] >= '0' && s[i] <= '9';
	ddbc_strbuf_add(sb, s, sign);
	s += sign, n -= sign;
	while (whole && n > 1 && s[0] == '0')
		s++, n--;
	ddbc_strbuf_add(sb, s, n);
}

/* The arguments of a builder call from item, after "buf, size"; false when
 * the item lacks a value or has one the parameter type cannot take. */
static bool call_args(strbuf *args, const ddbc_hkey *k, const ddbc_pval *item)
{
	for (size_t i = 0; i < k->nparams; i++) {
		const ddbc_hparam *pm = &k->params[i];
		ddbc_strbuf_addstr(args, ", ");
		if (pm->number) {
			/* A Number is its decimal text, as the item holds it. */
			const ddbc_pval *v = number_value(item, pm->attr->name.s);
			if (!v)
				return false;
			lit(args, ddbc_pval_text(v), ddbc_pval_n(v));
			continue;
		}
		const ddbc_pval *v = string_value(item, pm->attr->name.s);
		if (!v)
			return false;
		lit(args, ddbc_pval_text(v), ddbc_pval_n(v));
	}
	return true;
}

static void check_str(program *p, const char *what, const char *expr, const char *want,
		      size_t len)
{
	ddbc_strbuf_addf(&p->text, "\texpect_str(\"%s\", %s, ", what, expr);
	lit(&p->text, want, len);
	ddbc_strbuf_addstr(&p->text, ");\n");
	p->checks++;
}

/* Wraps text in a string literal with one byte before and after, given
 * as a C character ('\0' for none). */
static void lit_around(strbuf *sb, char before, const ddbc_pval *key, char after)
{
	strbuf k = STRBUF_INIT;
	if (before)
		ddbc_strbuf_addch(&k, before);
	ddbc_strbuf_add(&k, ddbc_pval_text(key), ddbc_pval_n(key));
	if (after)
		ddbc_strbuf_addch(&k, after);
	lit(sb, k.buf, k.len);
	ddbc_strbuf_release(&k);
}

/* The example key parsed back gives the item's values, exactly: with the
 * builder's check, build -> parse -> build gives the key again. A key with
 * a byte more before or after a literal end is another shape. */
static void parse_checks(program *p, const ddbc_hattr *ha, const ddbc_pval *item,
			 const ddbc_pval *want, size_t ex)
{
	strbuf *t = &p->text;
	const ddbc_hkey *k = ha->key;
	ddbc_strbuf_addf(t, "\t{\n\t\tstruct %s parts;\n\t\tmemset(&parts, 0, sizeof parts);\n"
		    "\t\texpect_parsed(\"%s, example %zu\", %s(", ha->parts_struct, ha->parse_func,
		    ex, ha->parse_func);
	lit(t, ddbc_pval_text(want), ddbc_pval_n(want));
	ddbc_strbuf_addstr(t, ", &parts), 0);\n");
	for (size_t i = 0; i < k->nparams; i++) {
		const ddbc_hparam *pm = &k->params[i];
		if (pm->number) {
			const ddbc_pval *v = number_value(item, pm->attr->name.s);
			ck_assert(v != NULL);
			strbuf part = STRBUF_INIT;
			number_part(&part, ddbc_pval_text(v), ddbc_pval_n(v));
			ddbc_strbuf_addf(t, "\t\texpect_span(\"%s.%s\", parts.%s.ptr, parts.%s.len, ",
				    ha->parse_func, pm->name, pm->name, pm->name);
			lit(t, part.buf, part.len);
			ddbc_strbuf_addstr(t, ");\n");
			ddbc_strbuf_release(&part);
		} else {
			const ddbc_pval *v = string_value(item, pm->attr->name.s);
			ddbc_strbuf_addf(t, "\t\texpect_span(\"%s.%s\", parts.%s.ptr, parts.%s.len, ",
				    ha->parse_func, pm->name, pm->name, pm->name);
			lit(t, ddbc_pval_text(v), ddbc_pval_n(v));
			ddbc_strbuf_addstr(t, ");\n");
		}
		p->checks++;
	}
	if (k->pieces[k->npieces - 1].text) {
		ddbc_strbuf_addf(t, "\t\texpect_parsed(\"%s, a byte after\", %s(", ha->parse_func,
			    ha->parse_func);
		lit_around(t, '\0', want, '~');
		ddbc_strbuf_addstr(t, ", &parts), -1);\n");
	}
	if (k->pieces[0].text) {
		ddbc_strbuf_addf(t, "\t\texpect_parsed(\"%s, a byte before\", %s(", ha->parse_func,
			    ha->parse_func);
		lit_around(t, '~', want, '\0');
		ddbc_strbuf_addstr(t, ", &parts), -1);\n");
	}
	ddbc_strbuf_addstr(t, "\t}\n");
	p->checks += 1 + (k->pieces[k->npieces - 1].text != NULL) + (k->pieces[0].text != NULL);
	p->parses++;
}

/* Calls ha's function with item's values; returns whether it could. */
static bool call_builder(program *p, const ddbc_hattr *ha, const ddbc_pval *item, size_t ex)
{
	const ddbc_pval *want = string_value(item, ha->attr->name.s);
	strbuf args = STRBUF_INIT;
	bool ok = want && call_args(&args, ha->key, item);
	if (ok) {
		strbuf *t = &p->text;
		ddbc_strbuf_addf(t, "\tn = %s(buf, sizeof(buf)%s);\n", ha->func, args.buf);
		ddbc_strbuf_addf(t, "\texpect_key(\"%s, example %zu\", buf, n, ", ha->func, ex);
		lit(t, ddbc_pval_text(want), ddbc_pval_n(want));
		ddbc_strbuf_addstr(t, ");\n");
		/* Too small a buffer: cut short, and the length still returned. */
		ddbc_strbuf_addf(t, "\tn = %s(small, small_size%s);\n", ha->func, args.buf);
		ddbc_strbuf_addf(t, "\texpect_cut(\"%s, example %zu\", small, small_size, n, ",
			    ha->func, ex);
		lit(t, ddbc_pval_text(want), ddbc_pval_n(want));
		ddbc_strbuf_addstr(t, ");\n");
		if (ha->prefix_macro)
			ddbc_strbuf_addf(t, "\texpect_prefix(\"%s\", %s, buf);\n", ha->prefix_macro,
				    ha->prefix_macro);
		if (ha->parse_func)
			parse_checks(p, ha, item, want, ex);
		p->calls += 1;
		p->checks += 2 + (ha->prefix_macro != NULL);
	}
	ddbc_strbuf_release(&args);
	return ok;
}

/* The example's key parsed, then built again from its parts: the same
 * key. Text parts are copied out to be NUL-terminated. */
static bool round_trip(program *p, const ddbc_hattr *ha, const ddbc_pval *item, size_t ex)
{
	const ddbc_pval *want = string_value(item, ha->attr->name.s);
	if (!want || !ha->parse_func)
		return false;
	const ddbc_hkey *k = ha->key;
	strbuf *t = &p->text;
	ddbc_strbuf_addf(t, "\t{\n\t\tstruct %s parts;\n\t\tchar text[%zu][1024];\n"
		    "\t\tmemset(&parts, 0, sizeof parts);\n\t\tmemset(text, 0, sizeof text);\n"
		    "\t\texpect_parsed(\"%s, example %zu\", %s(", ha->parts_struct,
		    k->nparams, ha->parse_func, ex, ha->parse_func);
	lit(t, ddbc_pval_text(want), ddbc_pval_n(want));
	ddbc_strbuf_addstr(t, ", &parts), 0);\n");
	strbuf args = STRBUF_INIT;
	for (size_t i = 0; i < k->nparams; i++) {
		const char *m = k->params[i].name;
		if (k->params[i].number) {
			ddbc_strbuf_addf(&args, ", parts.%s", m);
			continue;
		}
		ddbc_strbuf_addf(t, "\t\tif (parts.%s.len < sizeof text[%zu])\n"
			    "\t\t\tmemcpy(text[%zu], parts.%s.ptr, parts.%s.len);\n", m, i, i, m, m);
		ddbc_strbuf_addf(&args, ", text[%zu]", i);
	}
	ddbc_strbuf_addf(t, "\t\tn = %s(buf, sizeof(buf)%s);\n", ha->func, args.buf);
	ddbc_strbuf_addf(t, "\t\texpect_key(\"%s, example %zu read back\", buf, n, ", ha->func, ex);
	lit(t, ddbc_pval_text(want), ddbc_pval_n(want));
	ddbc_strbuf_addstr(t, ");\n\t}\n");
	ddbc_strbuf_release(&args);
	p->checks += 2;
	p->calls++;
	p->parses++;
	return true;
}

static void attr_checks(program *p, const ddbc_hattr *ha, const ddbc_entity *e)
{
	const char *name = ha->attr->name.s;
	check_str(p, ha->name_macro, ha->name_macro, name, strlen(name));
	if (ha->expr_macro) {
		ddbc_strbuf_addf(&p->text, "\texpect_expr_name(\"%s\", %s);\n", ha->expr_macro,
			    ha->expr_macro);
		p->checks++;
	}
	const ddbc_attr *a = ha->attr;
	ck_assert_int_eq(ha->enum_macro != NULL, a->more->nenum > 0);
	if (ha->enum_macro) {
		/* The list initialises an array of as many strings, each the value. */
		ddbc_strbuf_addf(&p->text, "\t{\n\t\tstatic const char *const v[] = { %s };\n"
			    "\t\texpect_num(\"%s\", (long long)(sizeof v / sizeof v[0]), %s);\n"
			    "\t\texpect_num(\"%s\", %s, %uLL);\n", ha->enum_macro,
			    ha->enum_count_macro, ha->enum_count_macro, ha->enum_count_macro,
			    ha->enum_count_macro, a->more->nenum);
		p->checks += 2;
		for (size_t i = 0; i < a->more->nenum; i++) {
			ddbc_strbuf_addf(&p->text, "\t\texpect_str(\"%s[%zu]\", v[%zu], ", ha->enum_macro,
				    i, i);
			lit(&p->text, a->more->enum_values[i]->u.text, a->more->enum_values[i]->n);
			ddbc_strbuf_addstr(&p->text, ");\n");
			p->checks++;
		}
		ddbc_strbuf_addstr(&p->text, "\t}\n");
	}
	const ddbc_hkey *k = ha->key;
	if (!k)
		return;
	if (k->constant) {
		strbuf whole = STRBUF_INIT;
		for (size_t i = 0; i < k->npieces; i++)
			ddbc_strbuf_add(&whole, k->pieces[i].text, k->pieces[i].len);
		check_str(p, ha->builder, ha->builder, whole.buf ? whole.buf : "", whole.len);
		ddbc_strbuf_release(&whole);
		for (size_t x = 0; x < e->nexamples; x++) {
			const ddbc_pval *v = string_value(e->examples[x], name);
			if (v)
				check_str(p, ha->builder, ha->builder, ddbc_pval_text(v), ddbc_pval_n(v));
		}
		return;
	}
	if (ha->prefix_macro)
		check_str(p, ha->prefix_macro, ha->prefix_macro, k->prefix, k->prefix_len);
	bool called = false;
	for (size_t x = 0; x < e->nexamples; x++)
		called |= call_builder(p, ha, e->examples[x], x + 1);
	/* Values not stored: the key read back gives them. */
	for (size_t x = 0; x < e->nexamples && !called; x++)
		called |= round_trip(p, ha, e->examples[x], x + 1);
	if (!called)
		ddbc_strbuf_addf(&p->uncalled, " %s", ha->builder);
}

static const char program_head[] =
	"#include <stdio.h>\n"
	"#include <string.h>\n"
	"\n"
	"static int checks, failed;\n"
	"\n"
	"static void fail(const char *what, const char *got, const char *want)\n"
	"{\n"
	"\tfailed++;\n"
	"\tprintf(\"FAIL %s:\\n  got  [%s]\\n  want [%s]\\n\", what, got, want);\n"
	"}\n"
	"\n"
	"static void expect_str(const char *what, const char *got, const char *want)\n"
	"{\n"
	"\tchecks++;\n"
	"\tif (strcmp(got, want) != 0)\n"
	"\t\tfail(what, got, want);\n"
	"}\n"
	"\n"
	"static void expect_key(const char *what, const char *got, int n, const char *want)\n"
	"{\n"
	"\texpect_str(what, got, want);\n"
	"\tif (n < 0 || (size_t)n != strlen(want))\n"
	"\t\tfail(what, \"(a wrong length)\", want);\n"
	"}\n"
	"\n"
	"static void expect_cut(const char *what, const char *got, size_t size, int n,\n"
	"\t\t       const char *want)\n"
	"{\n"
	"\tchecks++;\n"
	"\tif (n < 0 || (size_t)n != strlen(want) || strlen(got) != (strlen(want) < size ?\n"
	"\t    strlen(want) : size - 1) || strncmp(got, want, strlen(got)) != 0)\n"
	"\t\tfail(what, got, \"(the key cut short)\");\n"
	"}\n"
	"\n"
	"static void expect_prefix(const char *what, const char *prefix, const char *key)\n"
	"{\n"
	"\tchecks++;\n"
	"\tif (prefix[0] == '\\0' || strncmp(key, prefix, strlen(prefix)) != 0)\n"
	"\t\tfail(what, prefix, key);\n"
	"}\n"
	"\n"
	"static void expect_parsed(const char *what, int got, int want)\n"
	"{\n"
	"\tchecks++;\n"
	"\tif (got != want)\n"
	"\t\tfail(what, got ? \"-1\" : \"0\", want ? \"-1\" : \"0\");\n"
	"}\n"
	"\n"
	"static void expect_span(const char *what, const char *ptr, size_t len,\n"
	"\t\t\tconst char *want)\n"
	"{\n"
	"\tchecks++;\n"
	"\tif (len != strlen(want) || strncmp(ptr, want, len) != 0)\n"
	"\t\tfail(what, \"(another value)\", want);\n"
	"}\n"
	"\n"
	"static void expect_num(const char *what, long long got, long long want)\n"
	"{\n"
	"\tchecks++;\n"
	"\tif (got != want)\n"
	"\t\tfail(what, \"(another number)\", \"(the example's)\");\n"
	"}\n"
	"\n"
	"/* '#', then letters, digits and '_': what DynamoDB takes */\n"
	"static void expect_expr_name(const char *what, const char *name)\n"
	"{\n"
	"\tchecks++;\n"
	"\tif (name[0] != '#' || name[1] == '\\0' ||\n"
	"\t    strspn(name + 1, \"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ\"\n"
	"\t\t   \"0123456789_\") != strlen(name + 1))\n"
	"\t\tfail(what, name, \"#name\");\n"
	"}\n"
	"\n"
	"int main(void)\n"
	"{\n"
	"\tchar buf[4096], small[4];\n"
	"\t/* Unknown to the compiler, which would warn of the truncation. */\n"
	"\tvolatile size_t small_size = sizeof(small);\n"
	"\tint n = 0;\n"
	"\t(void)buf, (void)small, (void)small_size, (void)n;\n";

/* ---- access patterns against the queries export ---------------------------------- */

static bool usable_value(const ddbc_pval *v)
{
	return v && ddbc_pval_kind(v) == DDBC_NODE_SCALAR && !ddbc_pval_is_null(v);
}

/* A parameter's value where the queries export takes it without --param:
 * the pattern's example, a matched entity's first example item holding
 * it, that attribute's own example. */
static const ddbc_pval *pattern_param(const ddbc_pattern *pt, const char *name)
{
	const ddbc_pval *v = pt->example ? ddbc_pval_get(pt->example, name) : NULL;
	if (usable_value(v))
		return v;
	for (size_t i = 0; i < pt->nmatched; i++) {
		const ddbc_entity *e = pt->matched[i];
		if (!ddbc_entity_attr(e, name))
			continue;
		for (size_t k = 0; k < e->nexamples; k++)
			if (usable_value(v = ddbc_pval_get(e->examples[k], name)))
				return v;
	}
	for (size_t i = 0; i < pt->nmatched; i++) {
		const ddbc_attr *a = ddbc_entity_attr(pt->matched[i], name);
		if (a && usable_value(a->more->example))
			return a->more->example;
	}
	return NULL;
}

/* The value the export's request gives hv: its placeholder's value in a
 * Query, else the key's (or the put item's) member; its text, or NULL. */
static const char *export_value(json_t *input, const ddbc_hpattern *hp, const ddbc_hvalue *hv,
				const char *ref)
{
	json_t *typed;
	if (hp->kce_macro)
		typed = json_object_get(json_object_get(input, "ExpressionAttributeValues"), ref);
	else
		typed = json_object_get(json_object_get(input, hp->pattern->operation == DDBC_OP_PUT ?
							       "Item" : "Key"), hv->cond->attr.s);
	const char *key;
	json_t *v;
	json_object_foreach(typed, key, v)
		return json_string_value(v);
	return NULL;
}

/* The builder of hv called with the pattern's parameter values; false
 * when one has none (or one the parameter type cannot take). */
static bool value_args(strbuf *args, const ddbc_hpattern *hp, const ddbc_hvalue *hv)
{
	for (size_t i = 0; i < hv->key.nparams; i++) {
		const ddbc_hparam *pm = &hv->key.params[i];
		const ddbc_pval *v = pattern_param(hp->pattern, pm->source);
		if (!v)
			return false;
		ddbc_strbuf_addstr(args, ", ");
		/* A Number is its decimal text too. */
		strbuf text = STRBUF_INIT;
		ddbc_pval_scalar_text(v, &text);
		lit(args, text.buf ? text.buf : "", text.len);
		ddbc_strbuf_release(&text);
	}
	return true;
}

static void pattern_value_checks(program *p, const ddbc_hpattern *hp, const ddbc_hvalue *hv,
				 json_t *input, const char *ref)
{
	if (hv->ref_macro) {
		ck_assert_msg(ref != NULL, "%s: no placeholder in the export", hv->ref_macro);
		check_str(p, hv->ref_macro, hv->ref_macro, ref, strlen(ref));
	}
	const char *want = export_value(input, hp, hv, ref);
	if (!want) {
		ddbc_strbuf_addf(&p->uncalled, " %s", hv->value_macro);
		return;
	}
	if (hv->key.constant) {
		check_str(p, hv->value_macro, hv->value_macro, want, strlen(want));
		return;
	}
	strbuf args = STRBUF_INIT;
	if (value_args(&args, hp, hv)) {
		ddbc_strbuf_addf(&p->text, "\tn = %s(buf, sizeof(buf)%s);\n", hv->func, args.buf);
		ddbc_strbuf_addf(&p->text, "\texpect_key(\"%s\", buf, n, ", hv->func);
		lit(&p->text, want, strlen(want));
		ddbc_strbuf_addstr(&p->text, ");\n");
		p->calls++;
		p->checks++;
	} else {
		ddbc_strbuf_addf(&p->uncalled, " %s", hv->func);
	}
	ddbc_strbuf_release(&args);
}

/* Every pattern's names and values against the request the queries
 * export writes for it. */
static void pattern_checks(program *p, ddbc_header_plan *plan, json_t *queries)
{
	for (size_t i = 0; i < plan->g->npatterns; i++) {
		ddbc_hpattern planned;
		if (!ddbc_header_plan_pattern(plan, i, &planned))
			continue;
		const ddbc_hpattern *hp = &planned;
		json_t *req = NULL, *x;
		size_t k;
		json_array_foreach(queries, k, x)
			if (!strcmp(json_string_value(json_object_get(x, "pattern")),
				    hp->pattern->id.s))
				req = x;
		ck_assert_msg(req != NULL, "no request for '%s'", hp->pattern->id.s);
		json_t *input = json_object_get(req, "input");
		const char *table = json_string_value(json_object_get(input, "TableName"));
		check_str(p, hp->table_macro, hp->table_macro, table, strlen(table));
		if (hp->index_macro) {
			const char *ix = json_string_value(json_object_get(input, "IndexName"));
			check_str(p, hp->index_macro, hp->index_macro, ix, strlen(ix));
		}
		json_t *names = json_object_get(input, "ExpressionAttributeNames");
		if (hp->kce_macro) {
			const char *kce =
				json_string_value(json_object_get(input, "KeyConditionExpression"));
			check_str(p, hp->kce_macro, hp->kce_macro, kce, strlen(kce));
		}
		/* The names of the key condition and the projection: the
		 * export's, all of them (a read has no other expression). */
		const char *proj =
			json_string_value(json_object_get(input, "ProjectionExpression"));
		ck_assert_int_eq(hp->projection_macro != NULL, proj != NULL);
		if (proj)
			check_str(p, hp->projection_macro, hp->projection_macro, proj, strlen(proj));
		json_t *forward = json_object_get(input, "ScanIndexForward");
		ck_assert_int_eq(hp->order_macro != NULL, forward != NULL);
		if (forward) {
			ddbc_strbuf_addf(&p->text, "\texpect_num(\"%s\", %s, %d);\n", hp->order_macro,
				    hp->order_macro, json_is_true(forward));
			p->checks++;
		}
		if (json_object_size(names) && hp->names_macro) {
			char *text = json_dumps(names, JSON_COMPACT | JSON_ENSURE_ASCII);
			check_str(p, hp->names_macro, hp->names_macro, text, strlen(text));
			free(text);
		}
		/* The export names the value placeholders in the expression's order. */
		const char *kce = json_string_value(json_object_get(input, "KeyConditionExpression"));
		const char *at = kce;
		for (size_t v = 0; v < hp->nvalues; v++) {
			char ref[256] = "";
			if (at && (at = strchr(at, ':')) != NULL) {
				size_t n = strspn(at + 1, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRS"
						  "TUVWXYZ0123456789_") + 1;
				snprintf(ref, sizeof ref, "%.*s", (int)n, at);
				at += n;
			}
			pattern_value_checks(p, hp, &hp->values[v], input, ref[0] ? ref : NULL);
		}
	}
}

/* Writes the program that includes header (twice) and checks plan. */
static void write_program(program *p, ddbc_header_plan *plan, const char *header,
			  json_t *queries)
{
	strbuf *t = &p->text;
	ddbc_strbuf_addf(t, "#include \"%s\"\n#include \"%s\"\n", header, header);
	ddbc_strbuf_addstr(t, program_head);
	for (size_t i = 0; i < plan->ntables; i++) {
		const ddbc_htable *ht = &plan->tables[i];
		const char *name = ht->table->name.s;
		check_str(p, ht->macro, ht->macro, name, strlen(name));
		for (size_t k = 0; k < ht->nindexes; k++) {
			name = ht->indexes[k].index->name.s;
			check_str(p, ht->indexes[k].macro, ht->indexes[k].macro, name,
				  strlen(name));
		}
		ck_assert_int_eq(ht->ttl_macro != NULL, ht->table->ttl.s != NULL);
		if (ht->ttl_macro)
			check_str(p, ht->ttl_macro, ht->ttl_macro, ht->table->ttl.s,
				  strlen(ht->table->ttl.s));
	}
	for (size_t i = 0; i < plan->g->nentities; i++) {
		ddbc_hentity he;
		ck_assert_int_eq(ddbc_header_plan_entity(plan, i, &he, NULL), 0);
		for (size_t k = 0; k < he.nattrs; k++)
			attr_checks(p, &he.attrs[k], he.entity);
	}
	pattern_checks(p, plan, queries);
	/* Designs without some kind of check leave its function unused. */
	ddbc_strbuf_addstr(t, "\t(void)expect_str, (void)expect_key, (void)expect_cut, "
			 "(void)expect_prefix, (void)expect_expr_name, (void)expect_parsed, "
			 "(void)expect_span, (void)expect_num;\n");
	ddbc_strbuf_addstr(t, "\tprintf(\"%d checks, %d failed\\n\", checks, failed);\n"
			 "\treturn failed != 0;\n}\n");
}

/* ---- tests ----------------------------------------------------------------------------- */

/* Every header equals its golden file, byte for byte, every time. */
START_TEST(test_golden)
{
	const char *rel = designs[_i];
	size_t len, len2;
	char *text = header_of(rel, NULL, &len);
	char *again = header_of(rel, NULL, &len2);
	ck_assert_msg(len == len2 && !memcmp(text, again, len), "%s: not deterministic", rel);
	char *stem = stem_of(rel);
	strbuf golden = STRBUF_INIT;
	ddbc_strbuf_addf(&golden, "tests/golden/header/%s.h", stem);
	tu_expect_golden(golden.buf, text, len);
	ddbc_strbuf_release(&golden);
	free(stem);
	free(text);
	free(again);
}
END_TEST

/* The header compiles everywhere, twice, and beside the same design under
 * another prefix. */
START_TEST(test_compiles)
{
	const char *rel = designs[_i];
	char *dir = make_tmpdir();
	size_t len;
	char *a = header_of(rel, NULL, &len);
	write_in(dir, "a.h", a, len);
	free(a);
	char *b = header_of(rel, "Other", &len);
	ck_assert_msg(tu_contains(b, len, "#ifndef OTHER_DDBC_H"), "%s: prefix not used", rel);
	write_in(dir, "b.h", b, len);
	free(b);
	static const char tu[] = "#include \"a.h\"\n#include \"a.h\"\n#include \"b.h\"\n"
				 "#include \"b.h\"\n#include \"a.h\"\n"
				 "int ddbc_header_test_unit(void);\n"
				 "int ddbc_header_test_unit(void) { return 0; }\n";
	write_in(dir, "unit.c", tu, strlen(tu));
	compile_everywhere(dir, "unit.c");
	remove_tmpdir(dir);
}
END_TEST

/* Every builder, called with each example item's values, gives the item's
 * key; every constant equals what the design says. As C and as C++. */
START_TEST(test_builders_reproduce_examples)
{
	const char *rel = designs[_i];
	unit u;
	unit_open(&u, rel, NULL);
	char *text;
	size_t len;
	ck_assert_int_eq(emit(&u, NULL, &text, &len), DDBC_EMIT_OK);
	ddbc_header_plan plan;
	ck_assert_int_eq(ddbc_header_plan_build(&plan, u.design, NULL, &u.d, NULL), DDBC_PLAN_OK);
	char *qtext;
	size_t qlen;
	FILE *mem = open_memstream(&qtext, &qlen);
	ck_assert_int_eq(ddbc_emit_queries(mem, u.design, NULL, &u.d), DDBC_EMIT_OK);
	fclose(mem);
	json_error_t err;
	json_t *queries = json_loadb(qtext, qlen, 0, &err);
	ck_assert_msg(queries != NULL, "%s: the queries export is no JSON: %s", rel, err.text);
	free(qtext);
	program p = { STRBUF_INIT, 0, 0, 0, STRBUF_INIT };
	write_program(&p, &plan, "design.h", queries);
	json_decref(queries);
	ck_assert_msg(p.uncalled.len == 0, "%s: no example item gives the values of:%s", rel,
		      p.uncalled.buf);

	char *dir = make_tmpdir();
	write_in(dir, "design.h", text, len);
	write_in(dir, "prog.c", p.text.buf, p.text.len);
	/* Optimised, for the warnings of the later passes (format truncation...);
	 * and under the address and undefined-behaviour sanitizers, which stop
	 * at the first error. */
#define SANITIZE "-g", "-fsanitize=address,undefined", "-fno-sanitize-recover=all"
	const char *c99[] = { "cc", "-std=c99", "-O2", C_FLAGS, "prog.c", "-o", "prog", NULL };
	const char *c11[] = { "cc", "-std=c11", "-O1", SANITIZE, C_FLAGS, "prog.c", "-o",
			      "prog11", NULL };
	const char *cxx[] = { "c++", "-x", "c++", "-std=c++11", "-O2", CXX_FLAGS, "prog.c",
			      "-o", "progxx", NULL };
	const char *cxx_san[] = { "c++", "-x", "c++", "-std=c++11", "-O1", SANITIZE, CXX_FLAGS,
				  "prog.c", "-o", "progxx-san", NULL };
#undef SANITIZE
	const char *const *builds[] = { c99, c11, cxx, cxx_san };
	for (size_t i = 0; i < sizeof(builds) / sizeof(builds[0]); i++) {
		expect_run(dir, builds[i]);
		char exe[64];
		const char *const *b = builds[i];
		size_t n = 0;
		while (b[n])
			n++;
		snprintf(exe, sizeof exe, "./%s", b[n - 1]);
		const char *run[] = { exe, NULL };
		char *log;
		int status = run_in(dir, run, &log);
		if (status != 0)
			fprintf(stderr, "%s: %s failed:\n%s", rel, exe, log);
		ck_assert_msg(status == 0, "%s: %s failed (%s kept):\n%.2000s", rel, exe, dir, log);
		strbuf want = STRBUF_INIT;
		ddbc_strbuf_addf(&want, "%zu checks, 0 failed\n", p.checks);
		ck_assert_msg(!strcmp(log, want.buf), "%s: %s: expected '%s', got '%s'", rel, exe,
			      want.buf, log);
		ddbc_strbuf_release(&want);
		free(log);
	}
	remove_tmpdir(dir);
	/* Only designs with templates have builders to call. */
	if (plan.has_builders)
		ck_assert_msg(p.calls > 0, "%s: no builder called", rel);
	if (plan.has_parsers)
		ck_assert_msg(p.parses > 0, "%s: no parser called", rel);
	ddbc_strbuf_release(&p.text);
	ddbc_strbuf_release(&p.uncalled);
	ddbc_header_plan_free(&plan);
	free(text);
	unit_close(&u);
}
END_TEST

/* Every generated header in one translation unit. */
START_TEST(test_all_headers_together)
{
	char *dir = make_tmpdir();
	strbuf tu = STRBUF_INIT;
	for (size_t i = 0; i < ndesigns; i++) {
		size_t len;
		char *text = header_of(designs[i], NULL, &len);
		char *stem = stem_of(designs[i]);
		strbuf name = STRBUF_INIT;
		ddbc_strbuf_addf(&name, "%s.h", stem);
		write_in(dir, name.buf, text, len);
		ddbc_strbuf_addf(&tu, "#include \"%s\"\n", name.buf);
		ddbc_strbuf_release(&name);
		free(stem);
		free(text);
	}
	ddbc_strbuf_addstr(&tu, "int ddbc_header_test_unit(void);\n"
			   "int ddbc_header_test_unit(void) { return 0; }\n");
	write_in(dir, "all.c", tu.buf, tu.len);
	compile_everywhere(dir, "all.c");
	ddbc_strbuf_release(&tu);
	remove_tmpdir(dir);
}
END_TEST

/* The stamp-rally header of the README, with --prefix SR. */
START_TEST(test_spec_example)
{
	tu_proc p;
	tu_run(&p, NULL, "header", "--prefix", "SR", "samples/stamp-rally.ddb.yaml", NULL);
	ck_assert_msg(p.status == 0, "status %d: %s", p.status, p.err);
	static const char *const lines[] = {
		"#define SR_USER_PK_FMT \"EVENT#%s#USER#%s\" /* snprintf args: event_id, "
		"line_user_id */\n",
		"#define SR_USER_PK(buf, size, event_id, line_user_id) sr_user_pk((buf), (size), "
		"(event_id), (line_user_id))\n",
		"#define SR_USER_SK \"PROFILE\" /* constant key */\n",
		"#define SR_USER_STAMP_SK_PREFIX \"STAMP#\"",
		"static inline int sr_user_pk(char *buf, size_t size, const char *event_id, "
		"const char *line_user_id)\n",
		"#define SR_STAMP_MASTER_GSI1SK_FMT \"%03lld\" /* snprintf args: order (long long, "
		"0 to 999) */\n",
		"static inline int sr_stamp_master_gsi1sk(char *buf, size_t size, const char *order)\n"
		"{\n\tchar pad0__[4];\n\tconst char *t0__ = sr_key_number_text_(order, strlen(order), 3, "
		"pad0__);\n\tif (!t0__)\n\t\treturn -1;\n",
		"#define SR_STAMP_MASTER_ORDER_EXPR_NAME \"#order\"",
		"#define SR_LINE_EVENT_TABLE \"line-event\"\n",
		"#define SR_LINE_EVENT_GSI1_INDEX \"GSI1\"",
		"#ifndef SR_DDBC_H\n#define SR_DDBC_H\n",
		"#ifdef __cplusplus\nextern \"C\" {\n#endif\n",
	};
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		ck_assert_msg(tu_contains(p.out, p.out_len, lines[i]), "missing:\n%s", lines[i]);
	/* No parser declares what it does not use. */
	ck_assert(!tu_contains(p.out, p.out_len, "(void)t"));
	static const char *const added[] = {
		"#define SR_USERS_BY_DATE_PROJECTION_EXPRESSION \"lineUserId, createdAt\"\n",
		"#define SR_USERS_BY_DATE_SCAN_INDEX_FORWARD 1",
	};
	for (size_t i = 0; i < sizeof(added) / sizeof(added[0]); i++)
		ck_assert_msg(tu_contains(p.out, p.out_len, added[i]), "missing:\n%s", added[i]);
	tu_proc_free(&p);
}
END_TEST

START_TEST(test_default_prefix)
{
	size_t len;
	char *text = header_of("samples/stamp-rally.ddb.yaml", NULL, &len);
	ck_assert(tu_contains(text, len, "#define STAMP_RALLY_USER_PK_FMT "));
	ck_assert(tu_contains(text, len, "static inline int stamp_rally_user_pk("));
	ck_assert(tu_contains(text, len, "/* stamp-rally.ddb.yaml: C header generated by ddbc"));
	ck_assert(!tu_contains(text, len, "samples/"));
	free(text);
}
END_TEST

/* <stdio.h> only where a builder needs snprintf, <string.h> where a builder
 * or a parser needs it. */
START_TEST(test_includes_only_what_it_uses)
{
	size_t len;
	unit u;
	unit_open(&u, NULL, "ddbc: 1\nname: demo\ntables:\n  t-1:\n    partition_key: PK\nentities:\n"
		  "  A:\n    attributes: { PK: S, n: N }\n");
	char *plain;
	ck_assert_int_eq(emit(&u, NULL, &plain, &len), DDBC_EMIT_OK);
	ck_assert_msg(!tu_contains(plain, len, "#include"), "%s", plain);
	free(plain);
	unit_close(&u);
	/* A pattern's value builder needs it too, and a builder's check of
	 * its text values <string.h>. */
	char *todo = header_of("samples/todo.ddb.yaml", NULL, &len);
	ck_assert(tu_contains(todo, len, "#include <stdio.h>"));
	ck_assert(tu_contains(todo, len, "#include <string.h>"));
	free(todo);
	char *sr = header_of("samples/stamp-rally.ddb.yaml", NULL, &len);
	ck_assert(tu_contains(sr, len, "#include <stdio.h>"));
	free(sr);
}
END_TEST

/* ---- findings ---------------------------------------------------------------------------- */

#define DESIGN_HEAD                                                                  \
	"ddbc: 1\nname: demo\ntables:\n  t-1:\n    partition_key: PK\nentities:\n"

/* Emits the header of text; returns the result with the findings in *d. */
static int header_findings(const char *text, const char *prefix, unit *u)
{
	unit_open(u, NULL, text);
	char *out;
	size_t len;
	int r = emit(u, prefix, &out, &len);
	if (r != DDBC_EMIT_OK)
		ck_assert_msg(len == 0, "output written despite findings:\n%s", out);
	free(out);
	ddbc_diags_finish(&u->d, NULL, &u->design->settings);
	return r;
}

/* The header-name findings `ddbc lint` gives text, as tu_diags_dump
 * lines. */
static char *lint_header_names(const char *text)
{
	ddbc_source *src = tu_source(text);
	ddbc_settings cli;
	ddbc_settings_init(&cli);
	ddbc_diags d;
	ddbc_diags_init(&d);
	ddbc_design_free(ddbc_check(src, &d, &cli));
	ddbc_diags only;
	ddbc_diags_init(&only);
	ddbc_diags_begin(&only, src);
	for (size_t i = 0; i < d.n; i++)
		if (d.items[i].rule == DDBC_RULE_HEADER_NAME)
			ddbc_diag_add(&only, DDBC_RULE_HEADER_NAME, d.items[i].loc, "%s",
				      d.items[i].message);
	ddbc_diags_finish(&only, &cli, NULL);
	char *dump = tu_diags_dump(&only);
	ddbc_diags_release(&only);
	ddbc_diags_release(&d);
	ddbc_source_free(src);
	return dump;
}

START_TEST(test_attribute_collision)
{
	unit u;
	int r = header_findings(DESIGN_HEAD
				"  User:\n"
				"    attributes:\n"
				"      PK: { type: S, template: \"U#{user-id}\" }\n"
				"      user-id: S\n"
				"      user_id: S\n",
				NULL, &u);
	ck_assert_int_eq(r, DDBC_EMIT_FINDINGS);
	tu_expect_count(&u.d, 1);
	tu_expect_diag(&u.d, DDBC_RULE_HEADER_NAME, 11, 7,
		       "C name 'DEMO_USER_USER_ID_NAME' of attribute 'user_id' of entity 'User' "
		       "is also the C name of attribute 'user-id' of entity 'User' (line 10); "
		       "the header cannot tell them apart: set c_name on one of the attributes");
	ck_assert_int_eq(u.d.items[0].severity, DDBC_SEV_ERROR);
	unit_close(&u);
}
END_TEST

/* Two entities with one C name: one finding, not one per attribute. */
START_TEST(test_entity_collision)
{
	unit u;
	int r = header_findings(DESIGN_HEAD
				"  UserStamp:\n"
				"    attributes: { PK: { type: S, template: \"A#{id}\" }, id: S }\n"
				"  user-stamp:\n"
				"    attributes: { PK: { type: S, template: \"B#{id}\" }, id: S }\n",
				NULL, &u);
	ck_assert_int_eq(r, DDBC_EMIT_FINDINGS);
	tu_expect_count(&u.d, 1);
	tu_expect_diag(&u.d, DDBC_RULE_HEADER_NAME, 9, 3,
		       "C name 'USER_STAMP' of entity 'user-stamp' is also the C name of entity "
		       "'UserStamp' (line 7)");
	tu_expect_diag(&u.d, DDBC_RULE_HEADER_NAME, 9, 3, "set c_name");
	unit_close(&u);

	/* c_name settles it. */
	r = header_findings(DESIGN_HEAD
			    "  UserStamp:\n"
			    "    attributes: { PK: { type: S, template: \"A#{id}\" }, id: S }\n"
			    "  user-stamp:\n"
			    "    c_name: OtherStamp\n"
			    "    attributes: { PK: { type: S, template: \"B#{id}\" }, id: S }\n",
			    NULL, &u);
	ck_assert_int_eq(r, DDBC_EMIT_OK);
	unit_close(&u);
}
END_TEST

/* Different kinds of names meeting: an attribute's constant against
 * another's name constant; an entity + attribute against another entity. */
START_TEST(test_cross_collisions)
{
	unit u;
	int r = header_findings(DESIGN_HEAD
				"  User:\n"
				"    attributes:\n"
				"      PK: { type: S, template: \"U\" }\n"
				"      PK_NAME: { type: S, template: \"V\" }\n"
				"  Other:\n"
				"    attributes: { PK: { type: S, template: \"O\" } }\n",
				NULL, &u);
	ck_assert_int_eq(r, DDBC_EMIT_FINDINGS);
	tu_expect_count(&u.d, 1);
	tu_expect_diag(&u.d, DDBC_RULE_HEADER_NAME, 10, 7,
		       "C name 'DEMO_USER_PK_NAME' of attribute 'PK_NAME' of entity 'User' is "
		       "also the C name of attribute 'PK' of entity 'User' (line 9)");
	unit_close(&u);

	r = header_findings(DESIGN_HEAD
			    "  UserStamp:\n"
			    "    attributes: { PK: { type: S, template: \"S\" } }\n"
			    "  User:\n"
			    "    attributes: { PK: { type: S, template: U }, "
			    "Stamp_PK: { type: S, template: X } }\n",
			    NULL, &u);
	ck_assert_int_eq(r, DDBC_EMIT_FINDINGS);
	/* The constant and the name constant collide: one finding per pair. */
	tu_expect_count(&u.d, 1);
	tu_expect_diag(&u.d, DDBC_RULE_HEADER_NAME, 10, 49,
		       "of attribute 'Stamp_PK' of entity 'User' is also the C name of "
		       "attribute 'PK' of entity 'UserStamp' (line 8)");
	unit_close(&u);
}
END_TEST

/* Three things with one identifier: each later one against the first, none
 * between the later ones; attributes of two entities with one C name are
 * not reported again. The findings, their order and words, exactly. */
START_TEST(test_collisions_with_the_first)
{
	unit u;
	static const char text[] = DESIGN_HEAD
				"  User:\n"
				"    attributes:\n"
				"      PK: { type: S, template: \"U#{user-id}\" }\n"
				"      user-id: S\n"
				"      user_id: S\n"
				"      userId: S\n"
				"  UserX:\n"
				"    c_name: User\n"
				"    attributes: { PK: { type: S, template: \"X#{A}\" }, A: S }\n"
				"  Other:\n"
				"    attributes:\n"
				"      PK: { type: S, template: \"O#{a}\" }\n"
				"      a: S\n"
				"      A: S\n"
				"      a_: { type: S, template: \"Y\" }\n";
	int r = header_findings(text, NULL, &u);
	ck_assert_int_eq(r, DDBC_EMIT_FINDINGS);
	static const char want[] =
		"  11:7 error [header-name] C name 'DEMO_USER_USER_ID_NAME' of attribute 'user_id' of "
		"entity 'User' is also the C name of attribute 'user-id' of entity 'User' (line "
		"10); the header cannot tell them apart: set c_name on one of the attributes\n"
		"  12:7 error [header-name] C name 'DEMO_USER_USER_ID_NAME' of attribute 'userId' of "
		"entity 'User' is also the C name of attribute 'user-id' of entity 'User' (line "
		"10); the header cannot tell them apart: set c_name on one of the attributes\n"
		"  13:3 error [header-name] C name 'USER' of entity 'UserX' is also the C name of "
		"entity 'User' (line 7); the header cannot tell them apart: set c_name on one of "
		"the entities\n"
		"  20:7 error [header-name] C name 'DEMO_OTHER_A_NAME' of attribute 'A' of entity "
		"'Other' is also the C name of attribute 'a' of entity 'Other' (line 19); the "
		"header cannot tell them apart: set c_name on one of the attributes\n"
		"  21:7 error [header-name] C name 'DEMO_OTHER_A_NAME' of attribute 'a_' of entity "
		"'Other' is also the C name of attribute 'a' of entity 'Other' (line 19); the "
		"header cannot tell them apart: set c_name on one of the attributes\n";
	char *got = tu_diags_dump(&u.d);
	ck_assert_msg(!strcmp(got, want), "the findings are:\n%s", got);
	free(got);
	unit_close(&u);
	/* lint finds the same, in the same words. */
	got = lint_header_names(text);
	ck_assert_msg(!strcmp(got, want), "lint's header-name findings are:\n%s", got);
	free(got);
}
END_TEST

/* An attribute whose name gives no identifier, or gives one another
 * attribute has, is named in C by its c_name; a c_name that is no
 * identifier is reported where it is written. */
START_TEST(test_attribute_c_name)
{
	static const char base[] = "ddbc: 1\nname: demo\ntables:\n  t:\n"
				   "    partition_key: PK\nentities:\n  A:\n    attributes:\n"
				   "      PK: S\n";
	strbuf sb = STRBUF_INIT;
	ddbc_strbuf_addf(&sb, "%s      user_id: S\n"
		    "      userId: { type: S, c_name: legacyUserId }\n"
		    "      \xe5\x90\x8d\xe5\x89\x8d: { type: S, c_name: displayName }\n", base);
	char *got = lint_header_names(ddbc_strbuf_str(&sb));
	ck_assert_msg(!strcmp(got, "  (none)\n"), "unexpected findings:\n%s", got);
	free(got);
	ddbc_strbuf_reset(&sb);
	ddbc_strbuf_addf(&sb, "%s      \xe5\x90\x8d\xe5\x89\x8d: S\n"
		    "      x: { type: S, c_name: 2x }\n", base);
	got = lint_header_names(ddbc_strbuf_str(&sb));
	static const char want[] =
		"  10:7 error [header-name] attribute '\xe5\x90\x8d\xe5\x89\x8d' of entity 'A' "
		"gives no C identifier: the header keeps only ASCII letters and digits of names; "
		"set c_name, e.g. 'c_name: displayName'\n"
		"  11:29 error [header-name] c_name '2x' of attribute 'x' of entity 'A' is not a C "
		"identifier; write ASCII letters, digits and '_', not starting with a digit\n";
	ck_assert_msg(!strcmp(got, want), "lint's header-name findings are:\n%s", got);
	free(got);
	ddbc_strbuf_release(&sb);
}
END_TEST

/* lint checks any design, one the header could not be planned for too: a
 * placeholder that names no attribute leaves that builder out, a design
 * name without an identifier still has its collisions checked. */
START_TEST(test_lint_checks_unplannable)
{
	char *got = lint_header_names("ddbc: 1\nname: スタンプ\ntables:\n  t-1:\n"
				      "    partition_key: PK\nentities:\n  A:\n    attributes:\n"
				      "      PK: { type: S, template: \"A#{nope}\" }\n"
				      "      a-b: S\n      a_b: S\n");
	static const char want[] =
		"  2:7 error [header-name] design name 'スタンプ' gives no C identifier for the "
		"header's prefix; put ASCII letters in the name, or pass a prefix to 'ddbc header' "
		"with --prefix ID\n"
		"  11:7 error [header-name] C name 'DDBC_A_A_B_NAME' of attribute 'a_b' of entity "
		"'A' is also the C name of attribute 'a-b' of entity 'A' (line 10); the header "
		"cannot tell them apart: set c_name on one of the attributes\n";
	ck_assert_msg(!strcmp(got, want), "lint's header-name findings are:\n%s", got);
	free(got);
}
END_TEST

/* Two identifier parts whose identifiers in entity A of design demo have
 * one hash of the planner's (ddbc_hplan_hash, h * B + byte mod 2^64): the
 * planner keeps only hashes, and must compare the texts before it reports
 * anything. The Thue-Morse word of 1024 letters A and B and its
 * complement have one hash for every odd B: their difference is the
 * product of (B^(2^j) - 1) for j < 10, which 2^64 divides. Equal in
 * length, they keep a stem's and a suffix's hashes equal; lower-cased too.
 * As c_name: a mapping key is at most 1024 characters in YAML. */
#define TWIN_LEN 1024

static void hash_twins(char *t1, char *t2)
{
	for (size_t i = 0; i < TWIN_LEN; i++) {
		bool odd = __builtin_popcount((unsigned)i) & 1;
		t1[i] = odd ? 'B' : 'A';
		t2[i] = odd ? 'A' : 'B';
	}
	t1[TWIN_LEN] = t2[TWIN_LEN] = '\0';
}

START_TEST(test_hash_collision_is_no_collision)
{
	char t1[TWIN_LEN + 1], t2[TWIN_LEN + 1];
	hash_twins(t1, t2);
	/* The twins' identifiers do meet in the hash set. */
	static const char *const suffixes[] = { "", "_NAME", "_FMT", "_PREFIX" };
	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		strbuf a = STRBUF_INIT, b = STRBUF_INIT;
		ddbc_strbuf_addf(&a, "DEMO_A_%s%s", t1, suffixes[i]);
		ddbc_strbuf_addf(&b, "DEMO_A_%s%s", t2, suffixes[i]);
		ck_assert_msg(ddbc_hplan_hash(DDBC_HPLAN_START, a.buf, a.len, false) ==
			      ddbc_hplan_hash(DDBC_HPLAN_START, b.buf, b.len, false) &&
			      ddbc_hplan_hash(0, a.buf, a.len, true) ==
			      ddbc_hplan_hash(0, b.buf, b.len, true),
			      "%s and %s no longer share a hash: find new twins", a.buf, b.buf);
		ddbc_strbuf_release(&a);
		ddbc_strbuf_release(&b);
	}
	strbuf text = STRBUF_INIT;
	ddbc_strbuf_addf(&text, DESIGN_HEAD
			 "  A:\n"
			 "    attributes:\n"
			 "      PK: { type: S, template: \"A#{x}\" }\n"
			 "      x: S\n"
			 "      t1: { type: S, template: \"T1#{x}\", c_name: %s }\n"
			 "      t2: { type: S, template: \"T2#{x}\", c_name: %s }\n", t1, t2);
	unit u;
	unit_open(&u, NULL, ddbc_strbuf_str(&text));
	char *out;
	size_t len;
	ck_assert_msg(emit(&u, NULL, &out, &len) == DDBC_EMIT_OK, "%s", tu_diags_dump(&u.d));
	tu_expect_count(&u.d, 0);
	const char *forms[] = { "#define DEMO_A_%s_NAME \"%s\"", "#define DEMO_A_%s_PREFIX \"%s#\"" };
	for (size_t i = 0; i < 2; i++) {
		for (int k = 1; k <= 2; k++) {
			strbuf want = STRBUF_INIT;
			ddbc_strbuf_addf(&want, forms[i], k == 1 ? t1 : t2,
					 i == 0 ? (k == 1 ? "t1" : "t2") : (k == 1 ? "T1" : "T2"));
			ck_assert_msg(tu_contains(out, len, ddbc_strbuf_str(&want)), "no %s",
				      ddbc_strbuf_str(&want));
			ddbc_strbuf_release(&want);
		}
	}
	free(out);
	unit_close(&u);

	/* Beside a real collision: that one alone is reported. */
	ddbc_strbuf_reset(&text);
	ddbc_strbuf_addf(&text, DESIGN_HEAD
			 "  A:\n"
			 "    attributes:\n"
			 "      PK: { type: S, template: \"A#{x}\" }\n"
			 "      x: S\n"
			 "      t1: { type: S, c_name: %s }\n"
			 "      t2: { type: S, c_name: %s }\n"
			 "      X: S\n", t1, t2);
	int r = header_findings(ddbc_strbuf_str(&text), NULL, &u);
	ck_assert_int_eq(r, DDBC_EMIT_FINDINGS);
	tu_expect_count(&u.d, 1);
	tu_expect_diag(&u.d, DDBC_RULE_HEADER_NAME, 13, 7,
		       "C name 'DEMO_A_X_NAME' of attribute 'X' of entity 'A' is also the C name "
		       "of attribute 'x' of entity 'A' (line 10)");
	unit_close(&u);
	ddbc_strbuf_release(&text);
}
END_TEST

START_TEST(test_table_collision)
{
	unit u;
	int r = header_findings("ddbc: 1\nname: demo\ntables:\n"
				"  line-event:\n    partition_key: PK\n    gsi: { GSI1: { partition_key: G } }\n"
				"  LineEvent:\n    partition_key: PK\n    gsi: { GSI1: { partition_key: G } }\n"
				"entities:\n"
				"  A: { table: line-event, attributes: { PK: S, G: S } }\n"
				"  B: { table: LineEvent, attributes: { PK: S, G: S } }\n",
				NULL, &u);
	ck_assert_int_eq(r, DDBC_EMIT_FINDINGS);
	tu_expect_count(&u.d, 1);
	tu_expect_diag(&u.d, DDBC_RULE_HEADER_NAME, 7, 3,
		       "C name 'DEMO_LINE_EVENT_TABLE' of table 'LineEvent' is also the C name of "
		       "table 'line-event' (line 4)");
	unit_close(&u);
}
END_TEST

/* Words the identifier says already are dropped from table and index
 * names; a shortening that would make two names one is not made. */
/* The key modules' enum type of an attribute is the name the plan gives
 * its values (P_E_A_ENUM), from any entity: the entity's part shortened,
 * a c_name, and only for a String. */
START_TEST(test_enum_type_is_the_plans_name)
{
	unit u;
	int r = header_findings("ddbc: 1\nname: game\ntables:\n  Tab: { partition_key: PK }\n"
				"entities:\n"
				"  GameItem: { table: Tab, attributes: { PK: { type: S, template: "
				"\"G#{id}\" }, id: S, state: { type: S, enum: [a, b] }, rank: { type: N, "
				"enum: [1] } } }\n"
				"  Other: { table: Tab, attributes: { PK: { type: S, template: "
				"\"O#{id}\" }, id: S, mode: { type: S, c_name: playMode, enum: [x] } } }\n",
				NULL, &u);
	ck_assert_int_eq(r, DDBC_EMIT_OK);
	ddbc_header_plan plan;
	ck_assert_int_eq(ddbc_header_plan_build(&plan, u.design, NULL, &u.d, NULL), DDBC_PLAN_OK);
	ddbc_arena *arena = ddbc_arena_new();
	for (size_t i = 0; i < u.design->nentities; i++) {
		ddbc_hentity he;
		ck_assert_int_eq(ddbc_header_plan_entity(&plan, i, &he, NULL), 0);
		for (size_t k = 0; k < he.nattrs; k++) {
			const ddbc_attr *a = he.attrs[k].attr;
			const char *t = ddbc_header_enum_type(&plan, arena, a);
			if (a->type == DDBC_TYPE_S && a->more->nenum)
				ck_assert_str_eq(t, he.attrs[k].enum_macro);
			else
				ck_assert_ptr_null(t);
		}
	}
	const ddbc_entity *other = &u.design->entities[1];
	ck_assert_str_eq(ddbc_header_enum_type(&plan, arena, &other->attrs[2]),
			 "GAME_OTHER_PLAY_MODE_ENUM");
	ck_assert_str_eq(ddbc_header_enum_type(&plan, arena, &u.design->entities[0].attrs[2]),
			 "GAME_ITEM_STATE_ENUM");
	ddbc_arena_free(arena);
	ddbc_header_plan_free(&plan);
	unit_close(&u);
}
END_TEST

START_TEST(test_names_without_stutter)
{
	unit u;
	int r = header_findings("ddbc: 1\nname: game-scores\ntables:\n"
				"  GameScores:\n    partition_key: PK\n"
				"    gsi: { GameTitleIndex: { partition_key: G }, "
				"GameScoresIndex: { partition_key: G } }\n"
				"  GameScoresTable: { partition_key: PK }\n"
				"  Users: { partition_key: PK }\n"
				"  GameUsers: { partition_key: PK }\n"
				"entities:\n"
				"  A: { table: GameScores, attributes: { PK: S, G: S } }\n",
				NULL, &u);
	ck_assert_int_eq(r, DDBC_EMIT_OK);
	ddbc_header_plan plan;
	ck_assert_int_eq(ddbc_header_plan_build(&plan, u.design, NULL, &u.d, NULL), DDBC_PLAN_OK);
	/* GameScores and GameScoresTable would both be GAME_SCORES_TABLE. */
	ck_assert_str_eq(plan.tables[0].macro, "GAME_SCORES_GAME_SCORES_TABLE");
	ck_assert_str_eq(plan.tables[1].macro, "GAME_SCORES_GAME_SCORES_TABLE_TABLE");
	ck_assert_str_eq(plan.tables[0].indexes[0].macro, "GAME_SCORES_GAME_TITLE_INDEX");
	ck_assert_str_eq(plan.tables[0].indexes[1].macro, "GAME_SCORES_INDEX");
	ck_assert_str_eq(plan.tables[2].macro, "GAME_SCORES_USERS_TABLE");
	ck_assert_str_eq(plan.tables[3].macro, "GAME_SCORES_GAME_USERS_TABLE");
	ddbc_header_plan_free(&plan);
	unit_close(&u);

	r = header_findings("ddbc: 1\nname: instagram\ntables:\n"
			    "  InstagramTable:\n    partition_key: PK\n"
			    "    gsi: { InstagramTableGSI1: { partition_key: G } }\n"
			    "entities:\n"
			    "  A: { table: InstagramTable, attributes: { PK: S, G: S } }\n",
			    NULL, &u);
	ck_assert_int_eq(r, DDBC_EMIT_OK);
	ck_assert_int_eq(ddbc_header_plan_build(&plan, u.design, NULL, &u.d, NULL), DDBC_PLAN_OK);
	ck_assert_str_eq(plan.tables[0].macro, "INSTAGRAM_TABLE");
	ck_assert_str_eq(plan.tables[0].indexes[0].macro, "INSTAGRAM_GSI1_INDEX");
	ddbc_header_plan_free(&plan);
	unit_close(&u);

	/* Entities and patterns drop the design's name; an entity named like
	 * the design has no part of its own. */
	static const char game[] =
		"ddbc: 1\nname: game\ntables:\n  t-1:\n    partition_key: PK\nentities:\n"
		"  GameItem: { attributes: { PK: { type: S, template: \"G#{id}\" }, id: S } }\n"
		"  Game: { attributes: { PK: { type: S, template: \"H#{id}\" }, id: S } }\n"
		"access_patterns:\n"
		"  game-item: { table: t-1, operation: get, key: { PK: \"G#{id}\" }, "
		"example: { id: x } }\n";
	char *text;
	size_t len;
	unit_open(&u, NULL, game);
	ck_assert_int_eq(emit(&u, NULL, &text, &len), DDBC_EMIT_OK);
	ck_assert_msg(tu_contains(text, len, "#define GAME_ITEM_PK_FMT ") &&
		      tu_contains(text, len, "#define GAME_PK_FMT ") &&
		      tu_contains(text, len, "#define GAME_ITEM_TABLE_NAME ") &&
		      tu_contains(text, len, "game_item_pk_value("), "%s", text);
	free(text);
	unit_close(&u);

	/* Shortened, GameItem and Item would meet: every name keeps its words,
	 * and there is no finding. */
	static const char both[] =
		"ddbc: 1\nname: game\ntables:\n  t-1:\n    partition_key: PK\nentities:\n"
		"  GameItem: { attributes: { PK: { type: S, template: \"G#{id}\" }, id: S } }\n"
		"  Item: { attributes: { PK: { type: S, template: \"I#{id}\" }, id: S } }\n";
	r = header_findings(both, NULL, &u);
	ck_assert_int_eq(r, DDBC_EMIT_OK);
	unit_close(&u);
	unit_open(&u, NULL, both);
	ck_assert_int_eq(emit(&u, NULL, &text, &len), DDBC_EMIT_OK);
	ck_assert_msg(tu_contains(text, len, "#define GAME_GAME_ITEM_PK_FMT ") &&
		      tu_contains(text, len, "#define GAME_ITEM_PK_FMT ") &&
		      tu_contains(text, len, "#define GAME_T_1_TABLE "), "%s", text);
	free(text);
	unit_close(&u);
	char *got = lint_header_names(both);
	ck_assert_msg(!strstr(got, "[header-name]"), "lint's header-name findings are:\n%s", got);
	free(got);
}
END_TEST

/* An access pattern's names are checked with the rest: one that another
 * name of the header has is a finding on every command. */
START_TEST(test_pattern_collision)
{
	static const char text[] =
		"ddbc: 1\nname: demo\ntables:\n  t-1:\n    partition_key: PK\nentities:\n"
		"  Orders:\n"
		"    attributes: { PK: { type: S, template: \"O#{id}\" }, id: S, TABLE: S }\n"
		"access_patterns:\n"
		"  orders:\n"
		"    table: t-1\n"
		"    operation: get\n"
		"    key: { PK: \"O#{id}\" }\n"
		"    example: { id: x }\n";
	unit u;
	int r = header_findings(text, NULL, &u);
	ck_assert_int_eq(r, DDBC_EMIT_FINDINGS);
	tu_expect_count(&u.d, 1);
	tu_expect_diag(&u.d, DDBC_RULE_HEADER_NAME, 10, 3,
		       "C name 'DEMO_ORDERS_TABLE_NAME' of access pattern 'orders' is also the C "
		       "name of attribute 'TABLE' of entity 'Orders' (line 8)");
	unit_close(&u);
	char *got = lint_header_names(text);
	ck_assert_msg(strstr(got, "10:3 error [header-name] C name 'DEMO_ORDERS_TABLE_NAME'"),
		      "lint's header-name findings are:\n%s", got);
	free(got);

	/* Two parameters of one value that one C parameter name would take. */
	r = header_findings("ddbc: 1\nname: demo\ntables:\n  t-1:\n    partition_key: PK\n"
			    "entities:\n"
			    "  A:\n    attributes: { PK: { type: S, template: \"O#{x}\" }, x: S }\n"
			    "access_patterns:\n"
			    "  get-a:\n"
			    "    table: t-1\n"
			    "    operation: get\n"
			    "    key: { PK: \"O#{aB}#{a_b}\" }\n"
			    "    example: { aB: x, a_b: y }\n", NULL, &u);
	ck_assert_int_eq(r, DDBC_EMIT_FINDINGS);
	tu_expect_diag(&u.d, DDBC_RULE_HEADER_NAME, 13, 16,
		       "two parameters of access pattern 'get-a' give one C name in "
		       "'O#{aB}#{a_b}'");
	unit_close(&u);

	/* Two patterns with one C name: both are planned again, one at a
	 * time, to compare their texts. */
	r = header_findings("ddbc: 1\nname: demo\ntables:\n  t-1:\n    partition_key: PK\n"
			    "entities:\n"
			    "  A:\n    attributes: { PK: { type: S, template: \"O#{id}\" }, id: S }\n"
			    "access_patterns:\n"
			    "  by-id:\n"
			    "    table: t-1\n"
			    "    operation: get\n"
			    "    key: { PK: \"O#{id}\" }\n"
			    "    example: { id: x }\n"
			    "  byId:\n"
			    "    table: t-1\n"
			    "    operation: query\n"
			    "    key: { PK: \"O#{id}\" }\n"
			    "    example: { id: y }\n", NULL, &u);
	ck_assert_int_eq(r, DDBC_EMIT_FINDINGS);
	tu_expect_count(&u.d, 1);
	tu_expect_diag(&u.d, DDBC_RULE_HEADER_NAME, 15, 3,
		       "C name 'DEMO_BY_ID_TABLE_NAME' of access pattern 'byId' is also the C "
		       "name of access pattern 'by-id' (line 10)");
	unit_close(&u);
}
END_TEST

START_TEST(test_names_without_identifier)
{
	unit u;
	int r = header_findings(DESIGN_HEAD
				"  ユーザー:\n"
				"    attributes: { PK: { type: S, template: A } }\n"
				"  Item:\n"
				"    attributes: { 名前: S, PK: { type: S, template: B } }\n"
				"  Bad:\n"
				"    c_name: 9lives\n"
				"    attributes: { PK: { type: S, template: C } }\n"
				"  Worse:\n"
				"    c_name: a-b\n"
				"    attributes: { PK: { type: S, template: D } }\n",
				NULL, &u);
	ck_assert_int_eq(r, DDBC_EMIT_FINDINGS);
	tu_expect_count(&u.d, 4);
	tu_expect_diag(&u.d, DDBC_RULE_HEADER_NAME, 7, 3,
		       "entity 'ユーザー' gives no C identifier");
	tu_expect_diag(&u.d, DDBC_RULE_HEADER_NAME, 7, 3, "set c_name");
	tu_expect_diag(&u.d, DDBC_RULE_HEADER_NAME, 10, 19,
		       "attribute '名前' of entity 'Item' gives no C identifier");
	tu_expect_diag(&u.d, DDBC_RULE_HEADER_NAME, 12, 13,
		       "c_name '9lives' of entity 'Bad' is not a C identifier");
	tu_expect_diag(&u.d, DDBC_RULE_HEADER_NAME, 15, 13,
		       "c_name 'a-b' of entity 'Worse' is not a C identifier");
	unit_close(&u);

	/* With c_name the Japanese name is fine, and shown in a comment. */
	unit_open(&u, NULL, DESIGN_HEAD "  ユーザー:\n    c_name: User\n"
			    "    attributes: { PK: { type: S, template: \"U#{id}\" }, id: S }\n");
	char *out;
	size_t len;
	ck_assert_int_eq(emit(&u, NULL, &out, &len), DDBC_EMIT_OK);
	ck_assert(tu_contains(out, len, "/* ---- entity ユーザー (c_name User, table t-1) */"));
	ck_assert(tu_contains(out, len, "static inline int demo_user_pk(char *buf, size_t size, "
				       "const char *id)"));
	free(out);
	unit_close(&u);
}
END_TEST

START_TEST(test_prefix)
{
	unit u;
	/* A design name without an identifier asks for --prefix. */
	int r = header_findings("ddbc: 1\nname: スタンプ\ntables:\n  t-1:\n    partition_key: PK\n"
				"entities:\n  A:\n    attributes: { PK: S }\n", NULL, &u);
	ck_assert_int_eq(r, DDBC_EMIT_FINDINGS);
	tu_expect_count(&u.d, 1);
	tu_expect_diag(&u.d, DDBC_RULE_HEADER_NAME, 2, 7,
		       "pass a prefix to 'ddbc header' with --prefix ID");
	unit_close(&u);
	r = header_findings("ddbc: 1\nname: 2026-rally\ntables:\n  t-1:\n    partition_key: PK\n"
			    "entities:\n  A:\n    attributes: { PK: S }\n", NULL, &u);
	ck_assert_int_eq(r, DDBC_EMIT_FINDINGS);
	unit_close(&u);
	r = header_findings("ddbc: 1\nname: スタンプ\ntables:\n  t-1:\n    partition_key: PK\n"
			    "entities:\n  A:\n    attributes: { PK: S }\n", "sr", &u);
	ck_assert_int_eq(r, DDBC_EMIT_OK);
	unit_close(&u);

	/* An --prefix that is no usable identifier is a usage error. */
	static const char *const bad[] = { "", "1x", "a-b", "_x", "x_", "a__b", "a b" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		r = header_findings(DESIGN_HEAD "  A:\n    attributes: { PK: S }\n", bad[i], &u);
		ck_assert_msg(r == DDBC_EMIT_FAILED, "--prefix '%s' accepted", bad[i]);
		unit_close(&u);
	}

	/* The emitter says nothing itself: why is handed up, worded as the
	 * command prints it. */
	unit_open(&u, NULL, DESIGN_HEAD "  A:\n    attributes: { PK: S }\n");
	ddbc_err why = DDBC_ERR_INIT;
	ddbc_header_opts o = { "a-b", &why };
	char *out;
	size_t len;
	FILE *mem = open_memstream(&out, &len);
	ck_assert_ptr_nonnull(mem);
	ck_assert_int_eq(ddbc_emit_header(mem, u.design, &o, &u.d), DDBC_EMIT_FAILED);
	fclose(mem);
	ck_assert_uint_eq(len, 0);
	ck_assert_str_eq(ddbc_strbuf_str(&why.text),
			 "ddbc: the header prefix 'a-b' is not a usable C identifier\n");
	free(out);
	ddbc_err_release(&why);
	unit_close(&u);
}
END_TEST

/* Nested templates expand into one format whose parameters are the inner
 * attributes; a placeholder used twice is one parameter passed twice. */
START_TEST(test_nested_templates)
{
	unit u;
	unit_open(&u, NULL, DESIGN_HEAD
		  "  A:\n"
		  "    attributes:\n"
		  "      PK: { type: S, template: \"{inner}|{inner}|{n:04}\" }\n"
		  "      inner: { type: S, template: \"IN#{x}#{n:04}\" }\n"
		  "      x: S\n"
		  "      n: N\n");
	char *out;
	size_t len;
	ck_assert_int_eq(emit(&u, NULL, &out, &len), DDBC_EMIT_OK);
	ck_assert_msg(tu_contains(out, len,
				  "#define DEMO_A_PK_FMT \"IN#%s#%04lld|IN#%s#%04lld|%04lld\" /* snprintf "
				  "args: x, n (long long, 0 to 9999), x, n (long long, 0 to 9999), "
				  "n (long long, 0 to 9999) */\n"
				  "#define DEMO_A_PK_PREFIX \"IN#\""), "%s", out);
	/* One check and text per Number and width, however often it is used. */
	ck_assert_msg(tu_contains(out, len,
				  "static inline int demo_a_pk(char *buf, size_t size, const char *x, "
				  "const char *n)\n{\n\tchar pad3__[5];\n"
				  "\tconst char *t3__ = demo_key_number_text_(n, strlen(n), 4, pad3__);\n"
				  "\tif (!t3__)\n\t\treturn -1;\n"
				  "\tif (demo_key_bad_text_(x, \"#\", \"#\"))\n\t\treturn -1;\n"
				  "\treturn demo_key_fit_(snprintf(buf, size, DEMO_A_PK_FMT, x, "
				  "demo_key_digits_(t3__), x, demo_key_digits_(t3__), "
				  "demo_key_digits_(t3__)), 2048);\n}\n"
				  "#define DEMO_A_PK(buf, size, x, n) demo_a_pk((buf), (size), (x), (n))\n"),
		      "%s", out);
	free(out);
	unit_close(&u);
}
END_TEST

/* A parser takes exactly the keys its builder makes: Numbers as the
 * builders write them (width, sign, zeros, DynamoDB's digits and range,
 * fractions and exponents), a value used twice the same twice, a literal
 * where it belongs; and no parser where values meet without a literal
 * between them, or where a literal after a Number would continue it. */
START_TEST(test_parsers_exact)
{
	unit u;
	unit_open(&u, NULL, DESIGN_HEAD
		  "  A:\n"
		  "    attributes:\n"
		  "      PK: { type: S, template: \"N#{n:03}#{s}\" }\n"
		  "      twice: { type: S, template: \"{s}|{s}|{m}\" }\n"
		  "      adjacent: { type: S, template: \"X#{s}{m}\" }\n"
		  "      digit: { type: S, template: \"{m}5\" }\n"
		  "      dec: { type: S, template: \"D#{m}#{s}\" }\n"
		  "      exp: { type: S, template: \"E#{m}e\" }\n"
		  "      dot: { type: S, template: \"P#{m}.x\" }\n"
		  "      wide: { type: S, template: \"W#{n:03}.x\" }\n"
		  "      s: S\n"
		  "      n: N\n"
		  "      m: N\n");
	char *text;
	size_t len;
	ck_assert_int_eq(emit(&u, NULL, &text, &len), DDBC_EMIT_OK);
	ck_assert(tu_contains(text, len, "demo_a_pk_parse("));
	ck_assert(tu_contains(text, len, "demo_a_twice_parse("));
	ck_assert(!tu_contains(text, len, "demo_a_adjacent_parse"));
	ck_assert(!tu_contains(text, len, "demo_a_digit_parse"));
	ck_assert(tu_contains(text, len, "demo_a_dec_parse("));
	ck_assert(!tu_contains(text, len, "demo_a_exp_parse"));
	ck_assert(!tu_contains(text, len, "demo_a_dot_parse"));
	ck_assert(tu_contains(text, len, "demo_a_wide_parse("));
	char *dir = make_tmpdir();
	write_in(dir, "demo.h", text, len);
	free(text);
	static const char prog[] =
		"#include \"demo.h\"\n"
		"#include <stdio.h>\n"
		"static int failed;\n"
		"static int same(struct demo_key_span_ v, const char *s)\n"
		"{\n"
		"\treturn v.len == strlen(s) && strncmp(v.ptr, s, v.len) == 0;\n"
		"}\n"
		"static void pk(const char *key, int want, const char *n, const char *s)\n"
		"{\n"
		"\tstruct demo_a_pk_parts parts;\n"
		"\tint r = demo_a_pk_parse(key, &parts);\n"
		"\tif (r != want || (r == 0 && (!same(parts.n, n) || !same(parts.s, s)))) {\n"
		"\t\tprintf(\"FAIL pk %s\\n\", key);\n"
		"\t\tfailed++;\n"
		"\t}\n"
		"}\n"
		"static void dec(const char *key, int want, const char *m)\n"
		"{\n"
		"\tstruct demo_a_dec_parts parts;\n"
		"\tint r = demo_a_dec_parse(key, &parts);\n"
		"\tif (r != want || (r == 0 && !same(parts.m, m))) {\n"
		"\t\tprintf(\"FAIL dec %s\\n\", key);\n"
		"\t\tfailed++;\n"
		"\t}\n"
		"}\n"
		"static void build(const char *m, int want, const char *key)\n"
		"{\n"
		"\tchar buf[256];\n"
		"\tint r = demo_a_dec(buf, sizeof buf, m, \"x\");\n"
		"\tif ((r < 0) != (want < 0) || (r >= 0 && strcmp(buf, key) != 0)) {\n"
		"\t\tprintf(\"FAIL build %s\\n\", m);\n"
		"\t\tfailed++;\n"
		"\t}\n"
		"}\n"
		"static void twice(const char *key, int want)\n"
		"{\n"
		"\tstruct demo_a_twice_parts parts;\n"
		"\tif (demo_a_twice_parse(key, &parts) != want) {\n"
		"\t\tprintf(\"FAIL twice %s\\n\", key);\n"
		"\t\tfailed++;\n"
		"\t}\n"
		"}\n"
		"int main(void)\n"
		"{\n"
		"\tpk(\"N#007#x\", 0, \"7\", \"x\");\n"
		"\tpk(\"N#000#y\", 0, \"0\", \"y\");\n"
		"\tpk(\"N#999#a#b\", 0, \"999\", \"a#b\");\n"
		/* A :03 field is exactly 3 digits: the builder writes no others. */
		"\tpk(\"N#1234#\", -1, \"\", \"\");\n"
		"\tpk(\"N#-01#a#b\", -1, \"\", \"\");\n"
		"\tpk(\"N#-100#y\", -1, \"\", \"\");\n"
		"\tpk(\"N#9223372036854775807#y\", -1, \"\", \"\");\n"
		"\tpk(\"N#9223372036854775808#y\", -1, \"\", \"\");\n"
		"\tpk(\"N#7#x\", -1, \"\", \"\");\n"
		"\tpk(\"N#0007#x\", -1, \"\", \"\");\n"
		"\tpk(\"N#-001#x\", -1, \"\", \"\");\n"
		"\tpk(\"N#-00#x\", -1, \"\", \"\");\n"
		"\tpk(\"N#+07#x\", -1, \"\", \"\");\n"
		"\tpk(\"N#007x\", -1, \"\", \"\");\n"
		"\tpk(\"M#007#x\", -1, \"\", \"\");\n"
		"\tpk(\"N#\", -1, \"\", \"\");\n"
		"\tpk(\"\", -1, \"\", \"\");\n"
		"\tdec(\"D#9.99#x\", 0, \"9.99\");\n"
		"\tdec(\"D#-0.5#x\", 0, \"-0.5\");\n"
		"\tdec(\"D#6.02E+23#x\", 0, \"6.02E+23\");\n"
		"\tdec(\"D#1e-7#x\", 0, \"1e-7\");\n"
		"\tdec(\"D#12345678901234567890123456789012345678#x\", 0, "
		"\"12345678901234567890123456789012345678\");\n"
		"\tdec(\"D#123456789012345678901234567890123456789#x\", -1, \"\");\n"
		"\tdec(\"D#9.9999999999999999999999999999999999999E+125#x\", 0, "
		"\"9.9999999999999999999999999999999999999E+125\");\n"
		"\tdec(\"D#1E+126#x\", -1, \"\");\n"
		"\tdec(\"D#1E-130#x\", 0, \"1E-130\");\n"
		"\tdec(\"D#1E-131#x\", -1, \"\");\n"
		"\tdec(\"D#007#x\", -1, \"\");\n"
		"\tdec(\"D#+5#x\", -1, \"\");\n"
		"\tdec(\"D#-0#x\", -1, \"\");\n"
		"\tdec(\"D#1e#x\", -1, \"\");\n"
		"\tdec(\"D#.#x\", -1, \"\");\n"
		"\tbuild(\"9.99\", 0, \"D#9.99#x\");\n"
		"\tbuild(\"+5\", 0, \"D#5#x\");\n"
		"\tbuild(\"1.50\", 0, \"D#1.50#x\");\n"
		"\tbuild(\"6.02E+23\", 0, \"D#6.02E+23#x\");\n"
		"\tbuild(\"007\", -1, \"\");\n"
		"\tbuild(\"-0\", -1, \"\");\n"
		"\tbuild(\"1E+126\", -1, \"\");\n"
		"\tbuild(\"123456789012345678901234567890123456789\", -1, \"\");\n"
		"\tbuild(\"abc\", -1, \"\");\n"
		"\tbuild(\"\", -1, \"\");\n"
		"\ttwice(\"a|a|0\", 0);\n"
		"\ttwice(\"|||12\", -1);\n"
		"\ttwice(\"||12\", 0);\n"
		"\ttwice(\"a|b|0\", -1);\n"
		"\ttwice(\"a|a|00\", -1);\n"
		"\ttwice(\"a|a|-0\", -1);\n"
		"\ttwice(\"a|a|1x\", -1);\n"
		"\ttwice(\"a|a|\", -1);\n"
		"\tprintf(\"%d failed\\n\", failed);\n"
		"\treturn failed != 0;\n"
		"}\n";
	write_in(dir, "prog.c", prog, strlen(prog));
	const char *cc[] = { "cc", "-std=c99", "-O2", C_FLAGS, "-Wno-missing-prototypes",
			     "prog.c", "-o", "prog", NULL };
	const char *cxx[] = { "c++", "-x", "c++", "-std=c++11", "-O2", CXX_FLAGS, "prog.c",
			      "-o", "progxx", NULL };
	const char *run[] = { "./prog", NULL }, *runxx[] = { "./progxx", NULL };
	expect_run(dir, cc);
	expect_run(dir, run);
	expect_run(dir, cxx);
	expect_run(dir, runxx);
	remove_tmpdir(dir);
	unit_close(&u);
}
END_TEST

/* The builder's macro calls the function, and snprintf with the key's
 * format gives the builder's key: a :0WIDTH Number of up to 18 digits is
 * a long long (%0WIDTHlld), a wider one its zero-padded text, any other
 * Number its decimal text; a pattern value's format alike. A parameter
 * named as the function makes the macro pass its arguments on (...). */
START_TEST(test_format_and_macro)
{
	unit u;
	unit_open(&u, NULL, DESIGN_HEAD
		  "  A:\n"
		  "    attributes:\n"
		  "      PK: { type: S, template: \"SEAT#{block}#{row:03}#{seat}\" }\n"
		  "      SK: { type: S, template: \"W#{wide:020}#{top:018}#{n}\" }\n"
		  "      block: S\n"
		  "      row: N\n"
		  "      seat: S\n"
		  "      wide: N\n"
		  "      top: N\n"
		  "      n: N\n"
		  "  B:\n"
		  "    attributes:\n"
		  "      PK: { type: S, template: \"B#{demo_b_pk}\" }\n"
		  "      demo_b_pk: S\n"
		  "access_patterns:\n"
		  "  row-seats:\n"
		  "    table: t-1\n"
		  "    operation: get\n"
		  "    key: { PK: \"SEAT#{block}#{row:03}#{seat}\" }\n"
		  "    example: { block: C, row: 42, seat: \"1\" }\n");
	char *text;
	size_t len;
	ck_assert_int_eq(emit(&u, NULL, &text, &len), DDBC_EMIT_OK);
	static const char *const lines[] = {
		"#define DEMO_A_PK_FMT \"SEAT#%s#%03lld#%s\" /* snprintf args: block, row (long "
		"long, 0 to 999), seat */\n",
		"#define DEMO_A_PK(buf, size, block, row, seat) demo_a_pk((buf), (size), (block), "
		"(row), (seat))\n",
		"#define DEMO_A_SK_FMT \"W#%s#%018lld#%s\" /* snprintf args: wide (text: 20 "
		"digits, zero-padded), top (long long, 0 to 999999999999999999), n (text: a "
		"DynamoDB number) */\n",
		"#define DEMO_B_PK(buf, size, ...) demo_b_pk((buf), (size), __VA_ARGS__)\n",
		"#define DEMO_ROW_SEATS_PK_VALUE_FMT \"SEAT#%s#%03lld#%s\"",
		"#define DEMO_ROW_SEATS_PK_VALUE(buf, size, block, row, seat) "
		"demo_row_seats_pk_value((buf), (size), (block), (row), (seat))\n",
	};
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		ck_assert_msg(tu_contains(text, len, lines[i]), "missing:\n%s\nin:\n%s", lines[i],
			      text);
	char *dir = make_tmpdir();
	write_in(dir, "demo.h", text, len);
	free(text);
	static const char prog[] =
		"#include \"demo.h\"\n"
		"#include <stdio.h>\n"
		"static int failed;\n"
		"static void same(const char *what, const char *got, int n, const char *want)\n"
		"{\n"
		"\tif (n != (int)strlen(want) || strcmp(got, want) != 0) {\n"
		"\t\tprintf(\"FAIL %s: %d '%s', want '%s'\\n\", what, n, got, want);\n"
		"\t\tfailed++;\n"
		"\t}\n"
		"}\n"
		"int main(void)\n"
		"{\n"
		"\tchar buf[128];\n"
		"\tsame(\"format\", buf, snprintf(buf, sizeof buf, DEMO_A_PK_FMT, \"B\", 7LL, "
		"\"12\"), \"SEAT#B#007#12\");\n"
		"\tsame(\"function\", buf, demo_a_pk(buf, sizeof buf, \"B\", \"7\", \"12\"), "
		"\"SEAT#B#007#12\");\n"
		"\tsame(\"macro\", buf, DEMO_A_PK(buf, sizeof buf, \"B\", \"7\", \"12\"), "
		"\"SEAT#B#007#12\");\n"
		"\tsame(\"format, 18 digits\", buf, snprintf(buf, sizeof buf, DEMO_A_SK_FMT, "
		"\"00000000000000000042\", 999999999999999999LL, \"-1.5\"), "
		"\"W#00000000000000000042#999999999999999999#-1.5\");\n"
		"\tsame(\"macro, 18 digits\", buf, DEMO_A_SK(buf, sizeof buf, \"42\", "
		"\"999999999999999999\", \"-1.5\"), "
		"\"W#00000000000000000042#999999999999999999#-1.5\");\n"
		"\tsame(\"macro, ...\", buf, DEMO_B_PK(buf, sizeof buf, \"x\"), \"B#x\");\n"
		"\tsame(\"value format\", buf, snprintf(buf, sizeof buf, DEMO_ROW_SEATS_PK_VALUE_FMT, "
		"\"C\", 42LL, \"1\"), \"SEAT#C#042#1\");\n"
		"\tsame(\"value macro\", buf, DEMO_ROW_SEATS_PK_VALUE(buf, sizeof buf, \"C\", \"42\", "
		"\"1\"), \"SEAT#C#042#1\");\n"
		"\tif (DEMO_A_PK(buf, sizeof buf, \"B\", \"1000\", \"12\") != -1) {\n"
		"\t\tputs(\"FAIL the macro takes 1000 for {row:03}\");\n"
		"\t\tfailed++;\n"
		"\t}\n"
		"\tprintf(\"%d failed\\n\", failed);\n"
		"\treturn failed != 0;\n"
		"}\n";
	write_in(dir, "prog.c", prog, strlen(prog));
	const char *cc[] = { "cc", "-std=c99", "-O2", C_FLAGS, "-Wno-missing-prototypes",
			     "prog.c", "-o", "prog", NULL };
	const char *cxx[] = { "c++", "-x", "c++", "-std=c++11", "-O2", CXX_FLAGS, "prog.c",
			      "-o", "prog", NULL };
	const char *run[] = { "./prog", NULL };
	expect_run(dir, cc);
	expect_run(dir, run);
	expect_run(dir, cxx);
	expect_run(dir, run);
	remove_tmpdir(dir);
	unit_close(&u);
}
END_TEST

/* A builder refuses (-1) a text value its parser would not read back: one
 * holding the key delimiter, or in which the literal after it is found
 * first (also across the value's end: "a#" before "##"); it builds any
 * other, the last value included, as the TypeScript, Python and Go ones. */
START_TEST(test_builders_refuse_text)
{
	unit u;
	unit_open(&u, NULL, DESIGN_HEAD
		  "  A:\n"
		  "    attributes:\n"
		  "      PK: { type: S, template: \"T#{s}||{t}|{s}\" }\n"
		  "      s: S\n"
		  "      t: S\n");
	char *text;
	size_t len;
	ck_assert_int_eq(emit(&u, NULL, &text, &len), DDBC_EMIT_OK);
	char *dir = make_tmpdir();
	write_in(dir, "demo.h", text, len);
	free(text);
	static const char prog[] =
		"#include \"demo.h\"\n"
		"#include <stdio.h>\n"
		"static int failed;\n"
		"static void pk(const char *s, const char *t, const char *want)\n"
		"{\n"
		"\tchar buf[64];\n"
		"\tint n = demo_a_pk(buf, sizeof buf, s, t);\n"
		"\tif (want ? n < 0 || strcmp(buf, want) != 0 : n != -1) {\n"
		"\t\tprintf(\"FAIL %s %s\\n\", s, t);\n"
		"\t\tfailed++;\n"
		"\t}\n"
		"}\n"
		"int main(void)\n"
		"{\n"
		"\tpk(\"a\", \"b\", \"T#a||b|a\");\n"
		"\tpk(\"\", \"\", \"T#|||\");\n"
		/* "a|b" + "||" meets "||" only at the value's end. */
		"\tpk(\"a|b\", \"c\", \"T#a|b||c|a|b\");\n"
		"\tpk(\"a#b\", \"c\", NULL);\n"
		"\tpk(\"a\", \"c#d\", NULL);\n"
		"\tpk(\"a|\", \"c\", NULL);\n"
		"\tpk(\"a||b\", \"c\", NULL);\n"
		"\tpk(\"a\", \"c|d\", NULL);\n"
		"\tprintf(\"%d failed\\n\", failed);\n"
		"\treturn failed != 0;\n"
		"}\n";
	write_in(dir, "prog.c", prog, strlen(prog));
	const char *cc[] = { "cc", "-std=c99", "-O2", C_FLAGS, "-Wno-missing-prototypes",
			     "prog.c", "-o", "prog", NULL };
	const char *run[] = { "./prog", NULL };
	expect_run(dir, cc);
	expect_run(dir, run);
	remove_tmpdir(dir);
	unit_close(&u);
}
END_TEST

/* The block after the line "```lang" in doc, up to the next "```", or NULL. */
static char *doc_block(const char *doc, const char *lang)
{
	strbuf fence = STRBUF_INIT;
	ddbc_strbuf_addf(&fence, "\n```%s\n", lang);
	const char *start = strstr(doc, fence.buf);
	char *r = NULL;
	if (start) {
		start += fence.len;
		const char *end = strstr(start, "\n```");
		if (end)
			r = strndup(start, (size_t)(end - start) + 1);
	}
	ddbc_strbuf_release(&fence);
	return r;
}

/* docs/header.md's program compiles against the header it names, as C and
 * C++, and prints what the page says. */
START_TEST(test_doc_program)
{
	char *path = tu_srcpath("docs/header.md");
	char *doc = tu_read_file(path, NULL);
	char *code = doc_block(doc, "c"), *want = doc_block(doc, "text");
	ck_assert_msg(code && want, "docs/header.md lacks its program or its output");
	char *dir = make_tmpdir();
	size_t len;
	char *h = header_of("samples/stamp-rally.ddb.yaml", "SR", &len);
	write_in(dir, "stamp_rally.h", h, len);
	write_in(dir, "query.c", code, strlen(code));
	const char *cc[] = { "cc", "-std=c99", C_FLAGS, "query.c", "-o", "query", NULL };
	const char *cxx[] = { "c++", "-x", "c++", "-std=c++11", CXX_FLAGS, "query.c", "-o",
			      "queryxx", NULL };
	expect_run(dir, cc);
	expect_run(dir, cxx);
	const char *run[] = { "./query", NULL }, *runxx[] = { "./queryxx", NULL };
	for (int i = 0; i < 2; i++) {
		char *log;
		ck_assert_int_eq(run_in(dir, i ? runxx : run, &log), 0);
		ck_assert_msg(!strcmp(log, want), "the page's program printed:\n%s", log);
		free(log);
	}
	remove_tmpdir(dir);
	free(h);
	free(code);
	free(want);
	free(doc);
	free(path);
}
END_TEST

/* The CLI: a collision is exit status 1 with both names, and no file. */
START_TEST(test_cli_collision)
{
	char *dir = make_tmpdir();
	static const char design[] = DESIGN_HEAD
		"  User:\n"
		"    attributes:\n"
		"      PK: { type: S, template: \"U#{user-id}\" }\n"
		"      user-id: S\n"
		"      user_id: S\n";
	write_in(dir, "c.ddb.yaml", design, strlen(design));
	tu_run_opts o = { .cwd = dir };
	tu_proc p;
	tu_run(&p, &o, "header", "-o", "out.h", "c.ddb.yaml", NULL);
	ck_assert_int_eq(p.status, 1);
	ck_assert_msg(strstr(p.err, "c.ddb.yaml:11:7: error:") &&
		      strstr(p.err, "'user_id'") && strstr(p.err, "'user-id'"), "%s", p.err);
	ck_assert_int_eq(p.out_len, 0);
	char *out = path_in(dir, "out.h");
	ck_assert_msg(access(out, F_OK) != 0, "out.h was written");
	free(out);
	tu_proc_free(&p);

	/* Nothing on stdout either. */
	tu_run(&p, &o, "header", "c.ddb.yaml", NULL);
	ck_assert_int_eq(p.status, 1);
	ck_assert_int_eq(p.out_len, 0);
	tu_proc_free(&p);

	/* A bad --prefix is a usage error. */
	tu_run(&p, NULL, "header", "--prefix", "no-good", "samples/todo.ddb.yaml", NULL);
	ck_assert_int_eq(p.status, 2);
	ck_assert_msg(strstr(p.err, "--prefix 'no-good'"), "%s", p.err);
	ck_assert_int_eq(p.out_len, 0);
	tu_proc_free(&p);
	remove_tmpdir(dir);
}
END_TEST

/* The header's rules on the command line: `lint` finds what `header`
 * would; `header` reports its names as errors even where the design turns
 * the rule off, and with --prefix a design name without an identifier is
 * no finding. */
START_TEST(test_cli_header_name)
{
	char *dir = make_tmpdir();
	static const char design[] = DESIGN_HEAD
		"  User:\n"
		"    attributes:\n"
		"      PK: { type: S, template: \"U#{user-id}\" }\n"
		"      user-id: S\n"
		"      user_id: S\n";
	write_in(dir, "c.ddb.yaml", design, strlen(design));
	char *off = tu_replace(design, "entities:", "lint: { rules: { header-name: off } }\nentities:");
	write_in(dir, "off.ddb.yaml", off, strlen(off));
	static const char japanese[] = "ddbc: 1\nname: スタンプ\ntables:\n  t-1:\n"
				       "    partition_key: PK\nentities:\n  A:\n"
				       "    attributes: { PK: S }\n";
	write_in(dir, "ja.ddb.yaml", japanese, strlen(japanese));
	tu_run_opts o = { .cwd = dir };
	tu_proc p;
	tu_run(&p, &o, "lint", "c.ddb.yaml", NULL);
	ck_assert_int_eq(p.status, 1);
	ck_assert_msg(strstr(p.out, "c.ddb.yaml:11:7: error: C name 'DEMO_USER_USER_ID_NAME'") &&
		      strstr(p.out, "[header-name]"), "%s", p.out);
	tu_proc_free(&p);

	/* Off for lint, still an error for header, reported once. */
	tu_run(&p, &o, "lint", "off.ddb.yaml", NULL);
	ck_assert_msg(p.status == 0, "%s", p.err);
	tu_proc_free(&p);
	tu_run(&p, &o, "header", "off.ddb.yaml", NULL);
	ck_assert_int_eq(p.status, 1);
	ck_assert_int_eq(p.out_len, 0);
	const char *first = strstr(p.err, "error: C name 'DEMO_USER_USER_ID_NAME'");
	ck_assert_msg(first && !strstr(first + 1, "error: C name 'DEMO_USER_USER_ID_NAME'"),
		      "%s", p.err);
	tu_proc_free(&p);

	tu_run(&p, &o, "lint", "ja.ddb.yaml", NULL);
	ck_assert_int_eq(p.status, 1);
	ck_assert_msg(strstr(p.out, "ja.ddb.yaml:2:7: error: design name 'スタンプ' gives no C "
				    "identifier"), "%s", p.out);
	tu_proc_free(&p);
	tu_run(&p, &o, "header", "--prefix", "SR", "ja.ddb.yaml", NULL);
	ck_assert_msg(p.status == 0 && tu_contains(p.out, p.out_len, "#define SR_T_1_TABLE"),
		      "%s", p.err);
	tu_proc_free(&p);
	tu_run(&p, &o, "header", "ja.ddb.yaml", NULL);
	ck_assert_int_eq(p.status, 1);
	ck_assert_msg(strstr(p.err, "[header-name]"), "%s", p.err);
	tu_proc_free(&p);
	free(off);
	remove_tmpdir(dir);
}
END_TEST

/* Every design file of the tree: lint finds the header's names with the
 * design name's prefix, header plans them with the prefix it is given.
 * Where lint passes, header passes, with and without --prefix. */
static size_t lint_then_header(const char *pattern)
{
	char *pat = tu_srcpath(pattern);
	glob_t gl;
	size_t passed = 0;
	if (glob(pat, 0, NULL, &gl) == 0) {
		for (size_t i = 0; i < gl.gl_pathc; i++) {
			const char *f = gl.gl_pathv[i];
			tu_proc p;
			tu_run(&p, NULL, "lint", f, NULL);
			int linted = p.status;
			tu_proc_free(&p);
			if (linted != 0)
				continue;
			passed++;
			tu_run(&p, NULL, "header", f, NULL);
			ck_assert_msg(p.status == 0, "lint passes %s, header fails:\n%s", f, p.err);
			tu_proc_free(&p);
			tu_run(&p, NULL, "header", "--prefix", "Zz9", f, NULL);
			ck_assert_msg(p.status == 0, "lint passes %s, header --prefix fails:\n%s", f,
				      p.err);
			tu_proc_free(&p);
		}
		globfree(&gl);
	}
	free(pat);
	return passed;
}

START_TEST(test_header_passes_where_lint_passes)
{
	static const char *const patterns[] = {
		"samples/*.yaml", "tests/fixtures/*.yaml", "tests/fixtures/*/*.yaml",
		"tests/rules/*/*.yaml", "tests/fuzz/seeds/*.yaml",
	};
	size_t passed = 0;
	for (size_t i = 0; i < sizeof(patterns) / sizeof(patterns[0]); i++)
		passed += lint_then_header(patterns[i]);
	/* The samples and every rule's good.yaml at least. */
	ck_assert_uint_ge(passed, 40);
}
END_TEST

/* The CLI writes what the library emits, to -o atomically. */
START_TEST(test_cli_output)
{
	char *dir = make_tmpdir();
	char *design = tu_srcpath("samples/ecommerce.ddb.yaml");
	char *out = path_in(dir, "ecommerce.h");
	tu_proc p;
	tu_run(&p, NULL, "header", "-o", out, design, NULL);
	ck_assert_msg(p.status == 0, "%s", p.err);
	size_t len, glen;
	char *text = tu_read_file(out, &len);
	char *golden_path = tu_srcpath("tests/golden/header/ecommerce.h");
	char *golden = tu_read_file(golden_path, &glen);
	ck_assert_msg(len == glen && !memcmp(text, golden, len), "CLI output differs from golden");
	free(golden);
	free(golden_path);
	free(text);
	free(out);
	free(design);
	tu_proc_free(&p);
	remove_tmpdir(dir);
}
END_TEST

/* ---- the hash sets the planner stands on (util/strset.h) ---------------------------- */

START_TEST(test_hash64)
{
	/* FNV-1a's published values. */
	ck_assert_uint_eq(ddbc_hash64("", 0), 0xcbf29ce484222325u);
	ck_assert_uint_eq(ddbc_hash64("a", 1), 0xaf63dc4c8601ec8cu);
	ck_assert_uint_eq(ddbc_hash64("foobar", 6), 0x85944171f73967e8u);
}
END_TEST

START_TEST(test_hashes_repeated)
{
	/* Hashes that differ in one byte each, with repeats, in no order:
	 * exactly the repeated ones are found, once each, and the array ends
	 * sorted. */
	enum { N = 5000 };
	uint64_t *h = malloc(N * sizeof(*h));
	for (uint64_t i = 0; i < N; i++)
		h[i] = ddbc_hash64(&i, sizeof(i)) ^ ((i % 7) << 56);
	h[10] = h[4000];
	h[11] = h[4000];
	h[12] = 0;
	h[13] = 0;
	h[14] = (uint64_t)1 << 63;
	h[4999] = (uint64_t)1 << 63;
	ddbc_hashset twice = DDBC_HASHSET_INIT;
	ddbc_hashes_repeated(h, N, &twice);
	ck_assert_uint_eq(twice.n, 3);
	ck_assert(ddbc_hashset_has(&twice, 0));
	ck_assert(ddbc_hashset_has(&twice, (uint64_t)1 << 63));
	for (size_t i = 1; i < N; i++)
		ck_assert(h[i - 1] <= h[i]);
	ddbc_hashset_release(&twice);
	/* Nothing repeated, nothing found; one hash or none is no work. */
	for (uint64_t i = 0; i < N; i++)
		h[i] = i << 32;
	ddbc_hashes_repeated(h, N, &twice);
	ddbc_hashes_repeated(h, 1, &twice);
	ddbc_hashes_repeated(h, 0, &twice);
	ck_assert_uint_eq(twice.n, 0);
	free(h);
}
END_TEST

START_TEST(test_hashes32_repeated)
{
	/* Folded hashes: exactly the repeated ones, once each, the array
	 * sorted; 64-bit hashes that differ only where folding cancels out
	 * meet folded (the names' check walks again to tell them apart). */
	enum { N = 5000 };
	uint32_t *h = malloc(N * sizeof(*h));
	for (uint64_t i = 0; i < N; i++)
		h[i] = ddbc_hash32(ddbc_hash64(&i, sizeof(i)));
	h[10] = h[4000];
	h[11] = h[4000];
	h[12] = 0;
	h[13] = 0;
	h[14] = 1u << 31;
	h[4999] = 1u << 31;
	ddbc_hashset twice = DDBC_HASHSET_INIT;
	ddbc_hashes32_repeated(h, N, &twice);
	ck_assert_uint_eq(twice.n, 3);
	ck_assert(ddbc_hashset_has(&twice, 0));
	ck_assert(ddbc_hashset_has(&twice, 1u << 31));
	for (size_t i = 1; i < N; i++)
		ck_assert(h[i - 1] <= h[i]);
	ddbc_hashset_release(&twice);
	uint64_t x = 0x123456789abcdef0u, y = x ^ 0x0000000100000001u;
	ck_assert_uint_ne(x, y);
	ck_assert_uint_eq(ddbc_hash32(x), ddbc_hash32(y));
	free(h);
}
END_TEST

START_TEST(test_hashset)
{
	ddbc_hashset set = DDBC_HASHSET_INIT;
	ck_assert(!ddbc_hashset_has(&set, 42));
	ck_assert(!ddbc_hashset_has(&set, 0));
	/* 0 is a member like any other. */
	ck_assert(ddbc_hashset_add(&set, 0));
	ck_assert(!ddbc_hashset_add(&set, 0));
	ck_assert(ddbc_hashset_has(&set, 0));
	ck_assert(!ddbc_hashset_has(&set, 1));
	/* Hashes that share their low bits probe past each other. */
	for (uint64_t i = 1; i <= 2000; i++)
		ck_assert(ddbc_hashset_add(&set, i << 40));
	for (uint64_t i = 1; i <= 2000; i++) {
		ck_assert(!ddbc_hashset_add(&set, i << 40));
		ck_assert(ddbc_hashset_has(&set, i << 40));
		ck_assert(!ddbc_hashset_has(&set, (i << 40) + 1));
	}
	/* Growing keeps every member. */
	for (uint64_t i = 0; i < 100000; i++)
		ck_assert(ddbc_hashset_add(&set, ddbc_hash64(&i, sizeof(i))));
	for (uint64_t i = 0; i < 100000; i++)
		ck_assert(ddbc_hashset_has(&set, ddbc_hash64(&i, sizeof(i))));
	for (uint64_t i = 1; i <= 2000; i++)
		ck_assert(ddbc_hashset_has(&set, i << 40));
	ck_assert_uint_eq(set.n, 102001);
	ddbc_hashset_release(&set);
	ck_assert(!ddbc_hashset_has(&set, 0));

	/* Reserved room is not outgrown. */
	ddbc_hashset_reserve(&set, 1000);
	size_t cap = set.cap;
	for (uint64_t i = 0; i < 1000; i++)
		ck_assert(ddbc_hashset_add(&set, ddbc_hash64(&i, sizeof(i))));
	ck_assert_uint_eq(set.cap, cap);
	ck_assert(set.n * 4 <= set.cap * 3);
	ddbc_hashset_release(&set);
}
END_TEST

START_TEST(test_strset)
{
	ddbc_strset set = DDBC_STRSET_INIT;
	static const char text[] = "user-id user_id userId user-id";
	ck_assert_ptr_null(ddbc_strset_get(&set, text, 7));
	ddbc_strset_put(&set, text, 7);
	ddbc_strset_put(&set, text + 8, 7);
	ck_assert_ptr_eq(ddbc_strset_get(&set, text + 23, 7), text);
	ck_assert_ptr_eq(ddbc_strset_get(&set, "user_id", 7), text + 8);
	ck_assert_ptr_null(ddbc_strset_get(&set, text + 16, 6));
	ck_assert_ptr_null(ddbc_strset_get(&set, text, 6));
	ddbc_strset_release(&set);
}
END_TEST

/* `ddbc keys --lang go` names (emit_keys_goname.c): MixedCaps with Go's
 * initialisms, exported or not, whatever case the plan's name has. */
START_TEST(test_go_names)
{
	static const struct { const char *plan, *exported, *local; } cases[] = {
		{ "helpdesk_comment_sk", "HelpdeskCommentSK", "helpdeskCommentSK" },
		{ "HD_HELPDESK_TABLE", "HdHelpdeskTable", "hdHelpdeskTable" },
		{ "ECOMMERCE_ORDER_GSI1PK_NAME", "EcommerceOrderGSI1PKName", "ecommerceOrderGSI1PKName" },
		{ "user_id", "UserID", "userID" },
		{ "id", "ID", "id" },
		{ "image_url_ttl", "ImageURLTTL", "imageURLTTL" },
		{ "api_json_http", "APIJSONHTTP", "apiJSONHTTP" },
		{ "utf8_text", "UTF8Text", "utf8Text" },
		{ "sku2name", "Sku2name", "sku2name" },
		{ "gsi1pk", "GSI1PK", "gsi1PK" },
		{ "order__day", "OrderDay", "orderDay" },
		{ "_1st", "P1st", "_1st" },
		{ "type_", "Type", "type" },   /* the Go printer keeps a plan's escape */
		{ "_", "P", "_" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		strbuf e = STRBUF_INIT, l = STRBUF_INIT;
		ddbc_go_name(&e, cases[i].plan, true);
		ddbc_go_name(&l, cases[i].plan, false);
		ck_assert_str_eq(e.buf, cases[i].exported);
		ck_assert_str_eq(l.buf, cases[i].local);
		ddbc_strbuf_release(&e);
		ddbc_strbuf_release(&l);
	}
}
END_TEST

static Suite *header_suite(void)
{
	Suite *s = suite_create("header");
	TCase *tc = tcase_create("golden");
	/* Every case has its own timeout: Check's default (4 s) fails on a
	 * loaded machine (make -j16); these take a second or less alone. */
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_golden, 0, ndesigns);
	tcase_add_test(tc, test_default_prefix);
	tcase_add_test(tc, test_includes_only_what_it_uses);
	tcase_add_test(tc, test_nested_templates);
	suite_add_tcase(s, tc);

	tc = tcase_create("compiled");
	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, test_compiles, 0, ndesigns);
	tcase_add_loop_test(tc, test_builders_reproduce_examples, 0, ndesigns);
	tcase_add_test(tc, test_all_headers_together);
	tcase_add_test(tc, test_parsers_exact);
	tcase_add_test(tc, test_builders_refuse_text);
	tcase_add_test(tc, test_format_and_macro);
	tcase_add_test(tc, test_doc_program);
	suite_add_tcase(s, tc);

	tc = tcase_create("names");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_attribute_collision);
	tcase_add_test(tc, test_entity_collision);
	tcase_add_test(tc, test_cross_collisions);
	tcase_add_test(tc, test_collisions_with_the_first);
	tcase_add_test(tc, test_hash_collision_is_no_collision);
	tcase_add_test(tc, test_table_collision);
	tcase_add_test(tc, test_names_without_stutter);
	tcase_add_test(tc, test_enum_type_is_the_plans_name);
	tcase_add_test(tc, test_pattern_collision);
	tcase_add_test(tc, test_names_without_identifier);
	tcase_add_test(tc, test_prefix);
	tcase_add_test(tc, test_lint_checks_unplannable);
	tcase_add_test(tc, test_attribute_c_name);
	tcase_add_test(tc, test_go_names);
	suite_add_tcase(s, tc);

	tc = tcase_create("hash sets");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_hash64);
	tcase_add_test(tc, test_hashset);
	tcase_add_test(tc, test_hashes_repeated);
	tcase_add_test(tc, test_hashes32_repeated);
	tcase_add_test(tc, test_strset);
	suite_add_tcase(s, tc);

	tc = tcase_create("cli");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_spec_example);
	tcase_add_test(tc, test_cli_collision);
	tcase_add_test(tc, test_cli_header_name);
	tcase_add_test(tc, test_header_passes_where_lint_passes);
	tcase_add_test(tc, test_cli_output);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	find_designs();
	SRunner *sr = srunner_create(header_suite());
	srunner_run_all(sr, CK_ENV);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	for (size_t i = 0; i < ndesigns; i++)
		free(designs[i]);
	free(designs);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
