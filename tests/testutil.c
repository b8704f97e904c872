/* testutil.c - helpers shared by the Check suites */
#define _GNU_SOURCE 1
#include "testutil.h"
#include "util/strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

/* ---- files ---------------------------------------------------------------- */

char *tu_srcpath(const char *rel)
{
	strbuf sb = STRBUF_INIT;
	ddbc_strbuf_addf(&sb, "%s/%s", TEST_SRCDIR, rel);
	return ddbc_strbuf_detach(&sb);
}

char *tu_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		ck_abort_msg("cannot open '%s': %s", path, strerror(errno));
	strbuf sb = STRBUF_INIT;
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		ddbc_strbuf_add(&sb, buf, n);
	if (ferror(f))
		ck_abort_msg("cannot read '%s': %s", path, strerror(errno));
	fclose(f);
	if (len)
		*len = sb.len;
	return ddbc_strbuf_detach(&sb);
}

void tu_write_file(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		ck_abort_msg("cannot create '%s': %s", path, strerror(errno));
	if (fwrite(data, 1, len, f) != len || fclose(f) != 0)
		ck_abort_msg("cannot write '%s': %s", path, strerror(errno));
}

/* ---- designs -------------------------------------------------------------- */

ddbc_source *tu_source(const char *text)
{
	return ddbc_source_from_memory("test.ddb.yaml", text, strlen(text));
}

static void load(tu_design *t)
{
	ddbc_diags_init(&t->d);
	ddbc_diags_begin(&t->d, t->src);
	t->design = ddbc_load(t->src, &t->d);
	ddbc_diags_finish(&t->d, NULL, t->design ? &t->design->settings : NULL);
}

void tu_load_text(tu_design *t, const char *text)
{
	t->src = tu_source(text);
	load(t);
}

void tu_load_file(tu_design *t, const char *rel)
{
	char *path = tu_srcpath(rel);
	t->src = ddbc_source_read(path);
	if (!t->src)
		ck_abort_msg("cannot read '%s': %s", path, strerror(errno));
	free(path);
	/* Messages and goldens name the file as the tests do. */
	free(t->src->name);
	t->src->name = strdup(rel);
	load(t);
}

void tu_design_free(tu_design *t)
{
	ddbc_design_free(t->design);
	ddbc_diags_release(&t->d);
	ddbc_source_free(t->src);
	memset(t, 0, sizeof(*t));
}

char *tu_diags_dump(const ddbc_diags *d)
{
	strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < d->n; i++) {
		const ddbc_diag *g = &d->items[i];
		ddbc_strbuf_addf(&sb, "  %u:%u %s%s [%s] %s\n", g->loc.line, g->loc.column,
			    g->suppressed ? "suppressed " : "", ddbc_severity_name(g->severity),
			    ddbc_rule_get(g->rule)->id, g->message);
	}
	if (!d->n)
		ddbc_strbuf_addstr(&sb, "  (none)\n");
	return ddbc_strbuf_detach(&sb);
}

const ddbc_diag *tu_find_diag(const ddbc_diags *d, ddbc_rule rule, unsigned line,
			      unsigned col, const char *substr)
{
	for (size_t i = 0; i < d->n; i++) {
		const ddbc_diag *g = &d->items[i];
		if (g->rule == rule && g->loc.line == line && g->loc.column == col &&
		    (!substr || strstr(g->message, substr)))
			return g;
	}
	return NULL;
}

/* ---- strings ---------------------------------------------------------------- */

char *tu_replace(const char *s, const char *from, const char *to)
{
	strbuf sb = STRBUF_INIT;
	size_t flen = strlen(from);
	const char *p;
	while (flen && (p = strstr(s, from))) {
		ddbc_strbuf_add(&sb, s, (size_t)(p - s));
		ddbc_strbuf_addstr(&sb, to);
		s = p + flen;
	}
	ddbc_strbuf_addstr(&sb, s);
	return ddbc_strbuf_detach(&sb);
}

/* The end of the JSON array or object starting at p. */
static const char *json_end(const char *p)
{
	int depth = 0;
	bool in_string = false;
	for (; *p; p++) {
		if (in_string) {
			if (*p == '\\' && p[1])
				p++;
			else if (*p == '"')
				in_string = false;
		} else if (*p == '"') {
			in_string = true;
		} else if (*p == '[' || *p == '{') {
			depth++;
		} else if ((*p == ']' || *p == '}') && --depth == 0) {
			return p + 1;
		}
	}
	return p;
}

char *tu_mask_json(const char *s, const char *key)
{
	strbuf pat = STRBUF_INIT;
	ddbc_strbuf_addf(&pat, "\"%s\": ", key);
	const char *at = strstr(s, pat.buf);
	strbuf sb = STRBUF_INIT;
	if (!at || (at[pat.len] != '[' && at[pat.len] != '{')) {
		ddbc_strbuf_addstr(&sb, s);
	} else {
		const char *value = at + pat.len;
		ddbc_strbuf_add(&sb, s, (size_t)(value - s));
		ddbc_strbuf_addstr(&sb, "\"@MASKED@\"");
		ddbc_strbuf_addstr(&sb, json_end(value));
	}
	ddbc_strbuf_release(&pat);
	return ddbc_strbuf_detach(&sb);
}

bool tu_contains(const char *s, size_t len, const char *needle)
{
	return memmem(s, len, needle, strlen(needle)) != NULL;
}

/* ---- running ddbc ------------------------------------------------------------ */

/* A pseudo-terminal's two ends; the child's stdout is the terminal end,
 * set raw so the bytes read are the bytes written. */
static void open_pty(int *master, int *slave)
{
	*master = posix_openpt(O_RDWR | O_NOCTTY);
	if (*master < 0 || grantpt(*master) < 0 || unlockpt(*master) < 0)
		ck_abort_msg("cannot open a pseudo-terminal: %s", strerror(errno));
	const char *name = ptsname(*master);
	*slave = name ? open(name, O_RDWR | O_NOCTTY) : -1;
	if (*slave < 0)
		ck_abort_msg("cannot open the pseudo-terminal's other end: %s", strerror(errno));
	struct termios t;
	if (tcgetattr(*slave, &t) == 0) {
		cfmakeraw(&t);
		tcsetattr(*slave, TCSANOW, &t);
	}
}

static void run_child(const tu_run_opts *o, int out, int err, const char *const *args)
{
	dup2(out, STDOUT_FILENO);
	dup2(err, STDERR_FILENO);
	const char *cwd = o && o->cwd ? o->cwd : TEST_SRCDIR;
	if (chdir(cwd) < 0)
		_exit(126);
	int in = open(o && o->stdin_file ? o->stdin_file : "/dev/null", O_RDONLY);
	if (in < 0 || dup2(in, STDIN_FILENO) < 0)
		_exit(126);
	if (o && o->no_color)
		setenv("NO_COLOR", o->no_color, 1);
	else
		unsetenv("NO_COLOR");
	size_t n = 0;
	while (args[n])
		n++;
	char **argv = calloc(n + 2, sizeof(char *));
	argv[0] = (char *)"ddbc";
	for (size_t i = 0; i < n; i++)
		argv[i + 1] = (char *)args[i];
	execv(TEST_BUILDDIR "/ddbc", argv);
	_exit(127);
}

/* Reads both streams to their end; a pseudo-terminal reports its end as
 * EIO once the child has closed it. */
static void drain(int out, int err, strbuf *sout, strbuf *serr)
{
	struct pollfd fds[2] = { { out, POLLIN, 0 }, { err, POLLIN, 0 } };
	strbuf *bufs[2] = { sout, serr };
	int open_fds = 2;
	while (open_fds > 0) {
		if (poll(fds, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			ck_abort_msg("poll: %s", strerror(errno));
		}
		for (int i = 0; i < 2; i++) {
			if (fds[i].fd < 0 || !fds[i].revents)
				continue;
			char buf[65536];
			ssize_t r = read(fds[i].fd, buf, sizeof(buf));
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				fds[i].fd = -1;
				open_fds--;
				continue;
			}
			ddbc_strbuf_add(bufs[i], buf, (size_t)r);
		}
	}
}

void tu_run_argv(tu_proc *p, const tu_run_opts *o, const char *const *args)
{
	int out[2], err[2];
	if (o && o->tty)
		open_pty(&out[0], &out[1]);
	else if (pipe(out) < 0)
		ck_abort_msg("pipe: %s", strerror(errno));
	if (pipe(err) < 0)
		ck_abort_msg("pipe: %s", strerror(errno));
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		ck_abort_msg("fork: %s", strerror(errno));
	if (pid == 0) {
		close(out[0]);
		close(err[0]);
		run_child(o, out[1], err[1], args);
	}
	close(out[1]);
	close(err[1]);
	strbuf sout = STRBUF_INIT, serr = STRBUF_INIT;
	drain(out[0], err[0], &sout, &serr);
	close(out[0]);
	close(err[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			ck_abort_msg("waitpid: %s", strerror(errno));
	p->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	p->out_len = sout.len;
	p->out = ddbc_strbuf_detach(&sout);
	p->err_len = serr.len;
	p->err = ddbc_strbuf_detach(&serr);
}

void tu_run(tu_proc *p, const tu_run_opts *o, ...)
{
	const char *args[64];
	size_t n = 0;
	va_list ap;
	va_start(ap, o);
	const char *a;
	while ((a = va_arg(ap, const char *)) != NULL) {
		ck_assert_msg(n + 1 < sizeof(args) / sizeof(args[0]), "too many arguments");
		args[n++] = a;
	}
	va_end(ap);
	args[n] = NULL;
	tu_run_argv(p, o, args);
}

void tu_proc_free(tu_proc *p)
{
	free(p->out);
	free(p->err);
	memset(p, 0, sizeof(*p));
}

/* ---- golden files ---------------------------------------------------------------- */

struct lines {
	const char **at;         /* start of each line */
	size_t *len;             /* its length without the newline */
	size_t n;
};

static void split_lines(const char *s, size_t len, struct lines *l)
{
	size_t cap = 16;
	l->at = malloc(cap * sizeof(*l->at));
	l->len = malloc(cap * sizeof(*l->len));
	l->n = 0;
	const char *end = s + len;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *stop = nl ? nl : end;
		if (l->n == cap) {
			cap *= 2;
			l->at = realloc(l->at, cap * sizeof(*l->at));
			l->len = realloc(l->len, cap * sizeof(*l->len));
		}
		l->at[l->n] = s;
		l->len[l->n++] = (size_t)(stop - s);
		s = nl ? nl + 1 : end;
	}
}

static bool same_line(const struct lines *a, size_t i, const struct lines *b, size_t j)
{
	return a->len[i] == b->len[j] && !memcmp(a->at[i], b->at[j], a->len[i]);
}

/* One line of the edit script: ' ' kept, '-' golden only, '+' actual only. */
struct edit {
	char op;
	const char *at;
	size_t len;
};

/* The shortest edit script by longest common subsequence; goldens are
 * small, so the quadratic table is fine. */
static size_t edit_script(const struct lines *a, const struct lines *b, struct edit *out)
{
	size_t w = b->n + 1;
	unsigned *lcs = calloc((a->n + 1) * w, sizeof(unsigned));
	for (size_t i = a->n; i-- > 0;)
		for (size_t j = b->n; j-- > 0;)
			lcs[i * w + j] = same_line(a, i, b, j)
				? lcs[(i + 1) * w + j + 1] + 1
				: (lcs[(i + 1) * w + j] > lcs[i * w + j + 1] ? lcs[(i + 1) * w + j]
									     : lcs[i * w + j + 1]);
	size_t i = 0, j = 0, n = 0;
	while (i < a->n || j < b->n) {
		if (i < a->n && j < b->n && same_line(a, i, b, j)) {
			out[n++] = (struct edit){ ' ', a->at[i], a->len[i] };
			i++, j++;
		} else if (i < a->n && (j == b->n || lcs[(i + 1) * w + j] >= lcs[i * w + j + 1])) {
			out[n++] = (struct edit){ '-', a->at[i], a->len[i] };
			i++;
		} else {
			out[n++] = (struct edit){ '+', b->at[j], b->len[j] };
			j++;
		}
	}
	free(lcs);
	return n;
}

/* Prints the changed lines with three lines of context around each, under
 * "@@ -GOLDEN_LINE +ACTUAL_LINE @@" headers. */
static void print_diff(const char *rel, const struct edit *e, size_t n)
{
	enum { CONTEXT = 3 };
	fprintf(stderr, "--- %s (golden)\n+++ %s (actual)\n", rel, rel);
	size_t line_a = 1, line_b = 1, next = 0;
	for (size_t i = 0; i < n; i++) {
		bool near = false;
		for (size_t k = i >= CONTEXT ? i - CONTEXT : 0; k < n && k <= i + CONTEXT; k++)
			near |= e[k].op != ' ';
		if (near) {
			if (i == 0 || i != next)
				fprintf(stderr, "@@ -%zu +%zu @@\n", line_a, line_b);
			fprintf(stderr, "%c%.*s\n", e[i].op, (int)e[i].len, e[i].at);
			next = i + 1;
		}
		line_a += e[i].op != '+';
		line_b += e[i].op != '-';
	}
}

static void make_parent_dirs(const char *path)
{
	char *dir = strdup(path);
	for (char *p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(dir, 0777);
		*p = '/';
	}
	free(dir);
}

bool tu_golden_match(const char *rel, const char *actual, size_t len)
{
	char *path = tu_srcpath(rel);
	const char *update = getenv("DDBC_UPDATE_GOLDEN");
	if (update && !strcmp(update, "1")) {
		make_parent_dirs(path);
		tu_write_file(path, actual, len);
		fprintf(stderr, "updated %s\n", rel);
		free(path);
		return true;
	}
	if (access(path, F_OK) != 0) {
		fprintf(stderr, "%s: no golden file; run with DDBC_UPDATE_GOLDEN=1 to create it\n",
			rel);
		free(path);
		return false;
	}
	size_t glen;
	char *golden = tu_read_file(path, &glen);
	free(path);
	bool same = glen == len && !memcmp(golden, actual, len);
	if (!same) {
		struct lines a, b;
		split_lines(golden, glen, &a);
		split_lines(actual, len, &b);
		struct edit *e = malloc((a.n + b.n + 1) * sizeof(*e));
		size_t n = edit_script(&a, &b, e);
		print_diff(rel, e, n);
		if (glen && len && (golden[glen - 1] == '\n') != (actual[len - 1] == '\n'))
			fprintf(stderr, "(the files differ in their final newline)\n");
		free(e);
		free(a.at), free(a.len), free(b.at), free(b.len);
	}
	free(golden);
	return same;
}
