/* cli_diff.c - `ddbc diff`: the two designs, their check, and the output
 *
 * Both designs are checked as `ddbc lint` would. OLD only has to load: a
 * design deployed long ago may break rules added since. An error in NEW
 * stops the diff, as it stops every command. With --against, OLD is
 * FILE as git holds it at the revision (git show), named "REV:FILE".
 * With --live, OLD is the tables deployed at the client's endpoint,
 * described into files (live/live_describe.h) and read as --from
 * describe-table reads them.
 */
#include "cli/cli_diff.h"
#include "diff/diff.h"
#include "import/import.h"
#include "live/live_describe.h"
#include "rules/check.h"
#include "util/error.h"
#include "util/output.h"
#include "util/repo_path.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { STATUS_OK = 0, STATUS_FINDINGS = 1, STATUS_USAGE = 2 };

/* ---- git ------------------------------------------------------------------------------ */

/* Runs git with argv (argv[0] is "git") in dir, its standard output into
 * out (when not NULL), its standard error thrown away. Returns git's exit
 * status, or -1 with errno saying why git could not be run (the child
 * sends the errno of its failed chdir or exec back through a pipe that
 * closes on exec, so no errno left over from elsewhere is shown). */
static int run_git(const char *dir, char *const argv[], strbuf *out)
{
	int fds[2], errs[2];
	if (pipe(fds) < 0)
		return -1;
	if (pipe(errs) < 0 || fcntl(errs[1], F_SETFD, FD_CLOEXEC) < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		close(fds[0]);
		close(fds[1]);
		close(errs[0]);
		close(errs[1]);
		errno = e;
		return -1;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		dup2(fds[1], STDOUT_FILENO);
		if (null >= 0)
			dup2(null, STDERR_FILENO);
		close(fds[0]);
		close(errs[0]);
		if (chdir(dir) == 0)
			execvp("git", argv);
		int e = errno;
		if (write(errs[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(fds[1]);
	close(errs[1]);
	int child_errno = 0;
	ssize_t got;
	while ((got = read(errs[0], &child_errno, sizeof(child_errno))) < 0 && errno == EINTR)
		;
	close(errs[0]);
	if (got != (ssize_t)sizeof(child_errno))
		child_errno = 0;
	char buf[65536];
	ssize_t n;
	while ((n = read(fds[0], buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
		if (n > 0 && out)
			ddbc_strbuf_add(out, buf, (size_t)n);
	close(fds[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (child_errno) {
		errno = child_errno;
		return -1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) == 127) {
		errno = ENOENT;  /* git ran, but a shell or wrapper said git is not found */
		return -1;
	}
	return WEXITSTATUS(status);
}

/* What reading FILE at a revision gave. */
typedef enum rev_result {
	REV_OK,                  /* *out is FILE as git holds it there */
	REV_NEW_FILE,            /* FILE did not exist at rev, or rev is a commit
				  * still to come (a repository's first): *out is
				  * an empty design, so everything in FILE is added */
	REV_FAILED               /* no git, no checkout, unknown rev, untracked: said */
} rev_result;

/* The design before there was one: no tables, no entities, no patterns. */
static ddbc_source *empty_design(const char *name)
{
	static const char text[] = "ddbc: 1\nname: empty\ntables: {}\nentities: {}\n";
	return ddbc_source_from_memory(name, text, sizeof(text) - 1);
}

/* FILE as git holds it at rev, as a source named "REV:FILE". */
static rev_result source_at_rev(const char *path, const char *rev, ddbc_source **out)
{
	char *dcopy = ddbc_xstrdup(path), *bcopy = ddbc_xstrdup(path);
	const char *dir = dirname(dcopy);
	strbuf spec = STRBUF_INIT, revc = STRBUF_INIT, text = STRBUF_INIT;
	ddbc_strbuf_addf(&spec, "%s:./%s", rev, basename(bcopy));
	ddbc_strbuf_addf(&revc, "%s^{commit}", rev);
	char *inside[] = { "git", "rev-parse", "--is-inside-work-tree", NULL };
	char *verify[] = { "git", "rev-parse", "--verify", "--quiet", (char *)ddbc_strbuf_str(&revc),
			   NULL };
	char *tracked[] = { "git", "ls-files", "--error-unmatch", "--", basename(bcopy), NULL };
	char *show[] = { "git", "show", (char *)ddbc_strbuf_str(&spec), NULL };
	char *head[] = { "git", "rev-parse", "--verify", "--quiet", "HEAD^{commit}", NULL };
	rev_result result = REV_FAILED;
	/* Named as git names it: REV:PATH from the repository's root. */
	char *from_root = ddbc_repo_path(path);
	strbuf name = STRBUF_INIT;
	ddbc_strbuf_addf(&name, "%s:%s", rev, from_root ? from_root : path);
	free(from_root);
	*out = NULL;
	int rc = run_git(dir, inside, NULL);
	if (rc < 0)
		ddbc_cmd_error("diff", "cannot run git for --against: %s%s", strerror(errno),
			       errno == ENOENT ? " (is git installed and on PATH?)" : "");
	else if (rc != 0)
		ddbc_cmd_error("diff", "'%s' is not in a git checkout; compare two files "
				       "instead: ddbc diff OLD NEW", path);
	else if (run_git(dir, verify, NULL) != 0 && run_git(dir, head, NULL) == 0)
		ddbc_cmd_error("diff", "unknown revision '%s'", rev);
	else if (run_git(dir, tracked, NULL) != 0)
		ddbc_cmd_error("diff", "'%s' is not under git (git add it, or compare two "
				       "files: ddbc diff OLD NEW)", path);
	else if (run_git(dir, show, &text) != 0) {
		/* Not at rev, or no commit at all yet: nothing was deployed. */
		*out = empty_design(ddbc_strbuf_str(&name));
		result = REV_NEW_FILE;
	} else {
		*out = ddbc_source_from_memory(ddbc_strbuf_str(&name), ddbc_strbuf_str(&text), text.len);
		result = REV_OK;
	}
	ddbc_strbuf_release(&name);
	ddbc_strbuf_release(&spec);
	ddbc_strbuf_release(&revc);
	ddbc_strbuf_release(&text);
	free(dcopy);
	free(bcopy);
	return result;
}

/* ---- the two designs ------------------------------------------------------------------ */

typedef struct side {
	ddbc_source *src;
	ddbc_design *design;
	ddbc_diags d;
	int read_errno;          /* why a file could not be read, or 0 */
} side;

/* Reads and checks one design (at rev when not NULL). Returns REV_OK when
 * it loaded, REV_NEW_FILE when it did not exist at rev, else REV_FAILED
 * (said). */
static rev_result open_side(side *s, const char *path, const char *rev,
			    const ddbc_diff_request *r)
{
	memset(s, 0, sizeof(*s));
	ddbc_diags_init(&s->d);
	rev_result got = REV_OK;
	if (rev) {
		got = source_at_rev(path, rev, &s->src);
		if (got == REV_FAILED)
			return got;
	} else if (!(s->src = ddbc_source_read(path))) {
		s->read_errno = errno;
		ddbc_error("cannot read '%s': %s", path, strerror(errno));
		return REV_FAILED;
	}
	s->design = ddbc_check(s->src, &s->d, r->settings);
	return s->d.fatal ? REV_FAILED : got;
}

/* OLD as the live tables of r->live_paths, imported to a design named
 * "live tables" in messages. Returns REV_OK or REV_FAILED (said). */
static rev_result open_live(side *s, const ddbc_diff_request *r)
{
	memset(s, 0, sizeof(*s));
	ddbc_diags_init(&s->d);
	if (r->nlive == 0) {
		/* --live, and none of the tables is deployed */
		s->src = empty_design("live tables");
		s->design = ddbc_check(s->src, &s->d, r->settings);
		return s->d.fatal ? REV_FAILED : REV_OK;
	}
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	if (!mem)
		return REV_FAILED;
	int rc = ddbc_import(ddbc_import_source_named("describe-table"), r->live_paths, r->nlive,
			     NULL, 0, mem);
	fclose(mem);
	if (rc == 0)
		s->src = ddbc_source_from_memory("live tables", text, len);
	free(text);
	if (rc < 0)
		return REV_FAILED;
	s->design = ddbc_check(s->src, &s->d, r->settings);
	return s->d.fatal ? REV_FAILED : REV_OK;
}

/* Against live tables, only what a described table holds is compared: its
 * entities, templates, patterns and TTL (describe-table leaves TTL to
 * describe-time-to-live, which --live reads too) are the design's alone.
 * With --table, the tables not named are not described: not "added". */
static void live_settings(ddbc_settings *s, const ddbc_diff_request *r)
{
	if (r->ntables && s->sev[DDBC_RULE_TABLE_ADDED] == DDBC_SEV_DEFAULT)
		s->sev[DDBC_RULE_TABLE_ADDED] = DDBC_SEV_OFF;
	static const ddbc_rule design_only[] = {
		DDBC_RULE_KEY_TEMPLATE_CHANGED, DDBC_RULE_ATTRIBUTE_TYPE_CHANGED,
		DDBC_RULE_ATTRIBUTE_REMOVED, DDBC_RULE_KEY_DELIMITER_CHANGED,
		DDBC_RULE_ENTITY_REMOVED, DDBC_RULE_INDEX_KEY_TEMPLATE_CHANGED,
		DDBC_RULE_TTL_CHANGED, DDBC_RULE_ATTRIBUTE_REQUIRED, DDBC_RULE_PATTERN_REMOVED,
		DDBC_RULE_PATTERN_MOVED, DDBC_RULE_ENTITY_ADDED, DDBC_RULE_ATTRIBUTE_ADDED,
		DDBC_RULE_PATTERN_ADDED, DDBC_RULE_DOC_CHANGED, DDBC_RULE_ENUM_VALUE_REMOVED,
		DDBC_RULE_REQUIRED_REMOVED, DDBC_RULE_PROJECTION_NARROWED,
	};
	for (size_t i = 0; i < sizeof(design_only) / sizeof(design_only[0]); i++)
		if (s->sev[design_only[i]] == DDBC_SEV_DEFAULT &&
		    !(design_only[i] == DDBC_RULE_TTL_CHANGED && r->live_ttl))
			s->sev[design_only[i]] = DDBC_SEV_OFF;
}

static void close_side(side *s)
{
	ddbc_design_free(s->design);
	ddbc_diags_release(&s->d);
	ddbc_source_free(s->src);
}

/* Whether the findings are text for a person (text, or the plan's stderr):
 * the machine formats carry a design's errors in their own failure report. */
static bool text_format(const ddbc_diff_request *r)
{
	return !strcmp(r->format, "text") || !strcmp(r->format, "plan");
}

/* Prints a design's own findings at error level to stderr, in text
 * formats only. */
static void print_errors(const side *s, const ddbc_diff_request *r)
{
	if (!text_format(r))
		return;
	ddbc_print_opts print = { DDBC_DIAG_TEXT, r->color, 1, DDBC_SEV_ERROR, false, NULL };
	ddbc_diags_print(stderr, &s->d, &print);
	fflush(stderr);
}

static bool has_errors(const ddbc_diags *d)
{
	return ddbc_diags_count(d).errors > 0;
}

/* A diff that could not be made still speaks the format asked for on
 * standard output (a file named by -o is not written): JSON's "error",
 * SARIF's unsuccessful invocation, github's ::error, with the findings
 * that stopped it. */
static void print_failure(const side *s, const char *path, const ddbc_diff_request *r)
{
	ddbc_diag_format format;
	if (r->output || ddbc_diag_format_parse(r->format, &format) < 0 ||
	    format == DDBC_DIAG_TEXT)
		return;
	strbuf why = STRBUF_INIT;
	if (!s->src && s->read_errno)
		ddbc_strbuf_addf(&why, "cannot read: %s", strerror(s->read_errno));
	else if (!s->src)
		ddbc_strbuf_addf(&why, "cannot read at revision '%s'", r->against);
	else
		ddbc_strbuf_addstr(&why, s->design ? "the design has errors" : "not a design");
	ddbc_failure failure = { path, ddbc_strbuf_str(&why), has_errors(&s->d) };
	ddbc_print_opts print = { format, false, 2, DDBC_SEV_ERROR, false, &failure };
	ddbc_diags_print(stdout, &s->d, &print);
	fflush(stdout);
	ddbc_strbuf_release(&why);
}

/* ---- output ---------------------------------------------------------------------------- */

/* The last line of a text diff, as lint's: "no changes" on standard
 * output when there are none at all (a person, a hook's log, must see that
 * the diff ran), else what was found, counted; on a terminal after the
 * findings, else on standard error, so that a pipe gets the findings alone,
 * one to a line, and a pre-commit or CI log still ends with the count. */
static void print_tail(FILE *out, const ddbc_diags *d, const ddbc_diff_request *r,
		       ddbc_severity min)
{
	ddbc_counts n = ddbc_diags_count(d);
	size_t total = n.errors + n.warnings + n.notes;
	bool terminal = !r->output && isatty(STDOUT_FILENO);
	FILE *to = !total && !n.suppressed ? out : terminal ? stdout : stderr;
	fflush(out);
	if (r->against)
		fprintf(to, "%s: ", r->new_path);
	if (!total && !n.suppressed) {
		fprintf(to, "no changes%s%s\n", r->against ? " since " : "",
			r->against ? r->against : "");
		return;
	}
	if (!total)
		fputs("no changes to act on", to);
	else
		fprintf(to, "%zu change%s: %zu error%s, %zu warning%s, %zu note%s", total,
			total == 1 ? "" : "s", n.errors, n.errors == 1 ? "" : "s", n.warnings,
			n.warnings == 1 ? "" : "s", n.notes, n.notes == 1 ? "" : "s");
	if (n.suppressed)
		fprintf(to, " (%zu acknowledged by ddbc-ignore%s)", n.suppressed,
			r->show_suppressed ? "" : ", --show-suppressed shows them");
	size_t hidden = (min > DDBC_SEV_NOTE ? n.notes : 0) +
			(min > DDBC_SEV_WARNING ? n.warnings : 0);
	if (hidden)
		fprintf(to, "; %zu below --min-severity not shown", hidden);
	fputc('\n', to);
	fflush(to);
}

/* What a design added since the revision holds, in one line instead of a
 * note per table, entity and pattern (--all lists those). */
static void print_added(FILE *out, const ddbc_design *g, const ddbc_diff_request *r)
{
	fprintf(out, "%s: new since %s: %zu table%s, %zu entit%s, %zu access pattern%s added "
		"(--all lists them)\n", r->new_path, r->against, g->ntables,
		g->ntables == 1 ? "" : "s", g->nentities, g->nentities == 1 ? "y" : "ies",
		g->npatterns, g->npatterns == 1 ? "" : "s");
}

static int write_findings(FILE *out, const ddbc_diags *d, const side *n,
			  const ddbc_diff_request *r, bool added)
{
	ddbc_print_opts print = { DDBC_DIAG_TEXT, r->color && !r->output, 2,
				  r->min_severity == DDBC_SEV_DEFAULT ? DDBC_SEV_OFF : r->min_severity,
				  r->show_suppressed, NULL };
	ddbc_diag_format_parse(r->format, &print.format);
	ddbc_counts c = ddbc_diags_count(d);
	if (print.format == DDBC_DIAG_TEXT && added && !r->all && !c.errors && !c.warnings) {
		print_added(out, n->design, r);
		return 0;
	}
	ddbc_diags_print(out, d, &print);
	if (print.format == DDBC_DIAG_TEXT)
		print_tail(out, d, r, print.min_severity);
	/* A write error is the output's to say, with its reason (util/output.h). */
	return 0;
}

/* The command that carries out the plan's item steps (`ddbc migrate`, as
 * this diff was asked for; --step N is added per step), or NULL for live
 * tables, which migrate does not read. Paths are quoted for a shell. */
static char *migrate_command(const ddbc_diff_request *r)
{
	if (r->live_paths)
		return NULL;
	strbuf sb = STRBUF_INIT;
	ddbc_strbuf_addstr(&sb, "ddbc migrate");
	const char *args[] = { r->against ? "--against" : NULL, r->against ? r->against
			       : r->old_path, r->new_path };
	for (size_t i = 0; i < 3; i++) {
		if (!args[i])
			continue;
		ddbc_strbuf_addch(&sb, ' ');
		if (args[i][strspn(args[i], "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
				   "0123456789_./:@%+=,^~-")] == '\0' && args[i][0]) {
			ddbc_strbuf_addstr(&sb, args[i]);
			continue;
		}
		ddbc_strbuf_addch(&sb, '\'');
		for (const char *p = args[i]; *p; p++)
			if (*p == '\'')
				ddbc_strbuf_addstr(&sb, "'\\''");
			else
				ddbc_strbuf_addch(&sb, *p);
		ddbc_strbuf_addch(&sb, '\'');
	}
	return ddbc_strbuf_detach(&sb);
}

/* Writes the findings, or the plan with the findings on stderr. */
static int write_result(const side *o, const side *n, const ddbc_diags *d,
			const ddbc_diff_request *r, bool added)
{
	ddbc_output out;
	if (ddbc_output_open(&out, r->output) < 0)
		return -1;
	int rc;
	if (!strcmp(r->format, "plan")) {
		ddbc_print_opts print = { DDBC_DIAG_TEXT, r->color, 2, DDBC_SEV_WARNING,
					  r->show_suppressed, NULL };
		ddbc_diags_print(stderr, d, &print);
		char *migrate = migrate_command(r);
		ddbc_err err = DDBC_ERR_INIT;
		rc = ddbc_diff_plan_for(out.f, o->design, n->design, migrate, &err) == DDBC_EMIT_OK
			     ? 0 : -1;
		ddbc_err_print(&err);
		ddbc_err_release(&err);
		free(migrate);
	} else {
		rc = write_findings(out.f, d, n, r, added);
	}
	if (rc < 0) {
		ddbc_output_abort(&out);
		return -1;
	}
	return ddbc_output_commit(&out);
}

/* added: OLD is the empty design of a FILE new since the revision. */
static int compare(const side *o, const side *n, const ddbc_diff_request *r, bool added)
{
	ddbc_diags d;
	ddbc_diags_init(&d);
	ddbc_settings cli = *r->settings;
	/* --all turns the documentation class on, unless --rule said otherwise. */
	if (r->all && cli.sev[DDBC_RULE_DOC_CHANGED] == DDBC_SEV_DEFAULT)
		cli.sev[DDBC_RULE_DOC_CHANGED] = DDBC_SEV_NOTE;
	if (r->live_paths || r->live)
		live_settings(&cli, r);
	/* Against a revision, OLD is no file of the checkout: what NEW lost
	 * is shown where NEW lost it. */
	if (r->against)
		ddbc_diff_in_tree(o->design, n->design, &n->d, &d, r->all);
	else
		ddbc_diff(o->design, n->design, &n->d, &d, r->all);
	ddbc_diags_finish(&d, &cli, &n->design->settings);
	ddbc_diff_sort(&d);
	int status = STATUS_USAGE;
	if (write_result(o, n, &d, r, added) == 0) {
		ddbc_counts c = ddbc_diags_count(&d);
		status = c.errors || (r->werror && c.warnings) ? STATUS_FINDINGS : STATUS_OK;
	}
	ddbc_diags_release(&d);
	return status;
}

/* ---- --live ----------------------------------------------------------------------------- */

/* The tables to describe: --table's, else every table of the design.
 * --table NAME=DEPLOYED reads the design's NAME from the table DEPLOYED;
 * names[] and deployed[] are the caller's (*text holds their strings). */
static void live_tables(const ddbc_diff_request *r, const ddbc_design *g, char ***names,
			char ***deployed, size_t *n)
{
	*n = r->ntables ? r->ntables : g->ntables;
	*names = ddbc_xcalloc(*n + 1, sizeof(**names));
	*deployed = ddbc_xcalloc(*n + 1, sizeof(**deployed));
	for (size_t i = 0; i < *n; i++) {
		const char *arg = r->ntables ? r->tables[i] : g->tables[i].name.s;
		const char *eq = strchr(arg, '=');
		(*names)[i] = eq ? ddbc_xstrndup(arg, (size_t)(eq - arg)) : ddbc_xstrdup(arg);
		(*deployed)[i] = ddbc_xstrdup(eq ? eq + 1 : arg);
	}
}

static void free_list(char **list)
{
	for (size_t i = 0; list && list[i]; i++)
		free(list[i]);
	free(list);
}

static void remove_described(char *dir, char **paths, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unlink(paths[i]);
		free(paths[i]);
	}
	free(paths);
	rmdir(dir);
}

/* OLD is the deployed tables, described into a temporary folder. */
static int compare_live(const side *n, const ddbc_diff_request *r)
{
	const char *tmp = getenv("TMPDIR");
	strbuf dir = STRBUF_INIT, err = STRBUF_INIT;
	ddbc_strbuf_addf(&dir, "%s/ddbc-live-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir.buf)) {
		ddbc_cmd_error("diff", "cannot make a temporary folder: %s", strerror(errno));
		ddbc_strbuf_release(&dir);
		return STATUS_USAGE;
	}
	size_t ntables, nlive = 0;
	char **tables, **deployed;
	live_tables(r, n->design, &tables, &deployed, &ntables);
	char **paths = NULL;
	int status = STATUS_USAGE;
	const char *unknown = NULL;
	for (size_t i = 0; i < ntables && !unknown; i++)
		if (!ddbc_design_table(n->design, tables[i]))
			unknown = tables[i];
	if (unknown) {
		ddbc_cmd_error("diff", "--table '%s': '%s' has no such table; name a table "
			       "of the design (NAME, or NAME=DEPLOYED when deployed under "
			       "another name)", unknown, r->new_path);
	} else if (ddbc_live_describe(r->live, (const char *const *)tables, (const char *const *)deployed,
			       ntables, dir.buf, &paths, &nlive, &err) < 0) {
		ddbc_cmd_error("diff", "%s", ddbc_strbuf_str(&err));
	} else {
		ddbc_diff_request lr = *r;
		lr.live_paths = paths;
		lr.nlive = nlive;
		lr.live_ttl = true;
		side o;
		if (open_live(&o, &lr) == REV_OK)
			status = compare(&o, n, &lr, false);
		else
			print_errors(&o, &lr);
		close_side(&o);
	}
	remove_described(dir.buf, paths, nlive);
	free_list(tables);
	free_list(deployed);
	ddbc_strbuf_release(&dir);
	ddbc_strbuf_release(&err);
	return status;
}

/* --live: NEW first, as its tables are the ones to describe. */
static int diff_live(const ddbc_diff_request *r)
{
	side n;
	int status = STATUS_USAGE;
	rev_result rn = open_side(&n, r->new_path, NULL, r);
	if (rn != REV_OK || has_errors(&n.d)) {
		print_errors(&n, r);
		print_failure(&n, r->new_path, r);
		if (rn == REV_OK)
			status = STATUS_FINDINGS;
	} else {
		status = compare_live(&n, r);
	}
	close_side(&n);
	return status;
}

int ddbc_cli_diff(const ddbc_diff_request *r)
{
	if (r->live)
		return diff_live(r);
	side o, n;
	int status = STATUS_USAGE;
	rev_result ro = r->live_paths ? open_live(&o, r)
			: open_side(&o, r->against ? r->new_path : r->old_path, r->against, r);
	rev_result rn = ro != REV_FAILED ? open_side(&n, r->new_path, NULL, r) : REV_FAILED;
	if (ro == REV_NEW_FILE && text_format(r) && (r->all || strcmp(r->format, "text")))
		/* A design added since REV (or a repository's first commit): what
		 * it holds is all added, nothing deployed can break. Text without
		 * --all says so in its one line (print_added). */
		ddbc_info("diff", "'%s' is new since '%s': everything in it is added",
			  r->new_path, r->against);
	if (ro == REV_FAILED) {
		if (o.src)
			print_errors(&o, r);
		print_failure(&o, r->against ? r->new_path : r->old_path, r);
	} else if (rn != REV_OK || has_errors(&n.d)) {
		print_errors(&n, r);
		print_failure(&n, r->new_path, r);
		if (rn == REV_OK)
			status = STATUS_FINDINGS;
	} else {
		status = compare(&o, &n, r, ro == REV_NEW_FILE);
	}
	close_side(&o);
	if (ro != REV_FAILED)
		close_side(&n);
	return status;
}

int ddbc_cli_diff_designs(const ddbc_diff_request *r, ddbc_diff_designs_fn fn, void *ctx)
{
	side o, n;
	const char *old_path = r->against ? r->new_path : r->old_path;
	rev_result ro = open_side(&o, old_path, r->against, r);
	rev_result rn = ro != REV_FAILED ? open_side(&n, r->new_path, NULL, r) : REV_FAILED;
	int status = STATUS_USAGE;
	if (ro == REV_NEW_FILE)
		ddbc_error("'%s' is new since '%s': no stored item can be of OLD",
			   r->new_path, r->against);
	else if (ro == REV_FAILED || has_errors(&o.d))
		print_errors(&o, r);
	else if (rn != REV_OK || has_errors(&n.d))
		print_errors(&n, r);
	else
		status = fn(ctx, o.design, n.design);
	if (ro == REV_OK && has_errors(&o.d))
		ddbc_error("OLD has errors: its items cannot be matched to its entities");
	close_side(&o);
	if (ro != REV_FAILED)
		close_side(&n);
	return status;
}
