/* cli_init.c - `ddbc init` (cli_init.h)
 *
 * The starter is a template file compiled into the binary, like the page
 * template, so that init works wherever ddbc stands. It is a real design:
 * tests/init.test lints it and runs every command on it.
 */
#include "cli/cli_init.h"
#include "cli/cli_opts.h"
#include "util/embedded.h"
#include "util/error.h"
#include "util/output.h"
#include "util/strbuf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* NAME_MAX_LEN is the 64 of the usage error's message. */
enum { STATUS_OK = 0, STATUS_USAGE = 2, NAME_MAX_LEN = 64 };

/* A design name init accepts: it also names the file, the header's guard
 * and prefix and the key modules, so ASCII letters, digits, '-' and '_'
 * only, starting with a letter (a name of digits gives no C identifier). */
static int name_ok(const char *name)
{
	size_t len = strlen(name);
	if (len == 0 || len > NAME_MAX_LEN ||
	    !((name[0] >= 'a' && name[0] <= 'z') || (name[0] >= 'A' && name[0] <= 'Z')))
		return 0;
	for (const char *p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '-' || *p == '_'))
			return 0;
	return 1;
}

/* The default name, as cargo init and npm init take it: the current
 * folder's, when that is a design name. */
static void default_name(strbuf *sb)
{
	char *cwd = getcwd(NULL, 0);
	const char *base = cwd ? strrchr(cwd, '/') : NULL;
	base = base ? base + 1 : "";
	ddbc_strbuf_addstr(sb, name_ok(base) ? base : "design");
	free(cwd);
}

/* The starter with its placeholders filled: @NAME@ the design's name,
 * @FILE@ the file it is written to (as the commands in its comment name it). */
static void fill(strbuf *sb, const ddbc_embedded_file *t, const char *name, const char *file)
{
	const char *p = t->data, *end = t->data + t->len;
	while (p < end) {
		const char *at = memchr(p, '@', (size_t)(end - p));
		if (!at) {
			ddbc_strbuf_add(sb, p, (size_t)(end - p));
			break;
		}
		ddbc_strbuf_add(sb, p, (size_t)(at - p));
		if (!strncmp(at, "@NAME@", 6)) {
			ddbc_strbuf_addstr(sb, name);
			p = at + 6;
		} else if (!strncmp(at, "@FILE@", 6)) {
			/* In a comment: a line break would end it. */
			for (const char *f = file; *f; f++)
				ddbc_strbuf_addch(sb, *f == '\n' || *f == '\r' ? '?' : *f);
			p = at + 6;
		} else {
			ddbc_strbuf_addch(sb, '@');
			p = at + 1;
		}
	}
}

int ddbc_cli_init(const char *name, const char *output)
{
	strbuf nm = STRBUF_INIT, path = STRBUF_INIT, text = STRBUF_INIT;
	int status = STATUS_USAGE;
	if (name && !name_ok(name)) {
		/* A command-line mistake: a usage error, naming the help. */
		ddbc_cli_usage_error("init", "'%s' is not a design name; use an ASCII letter, then "
				"letters, digits, '-' and '_' (at most 64 in all)", name);
		goto out;
	}
	if (name)
		ddbc_strbuf_addstr(&nm, name);
	else
		default_name(&nm);
	if (output)
		ddbc_strbuf_addstr(&path, output);
	else
		ddbc_strbuf_addf(&path, "%s.ddb.yaml", nm.buf);
	int to_stdout = !strcmp(path.buf, "-");
	/* Never over a file that is there, whatever it is (a dangling symlink
	 * included): init starts a design, it does not replace one. */
	struct stat st;
	if (!to_stdout && lstat(path.buf, &st) == 0) {
		ddbc_error("'%s' exists; not overwritten (remove it, or name another file "
			   "with -o)", path.buf);
		goto out;
	}
	const ddbc_embedded_file *t = ddbc_embedded_find("templates/starter.ddb.yaml");
	if (!t) {
		ddbc_error("the starter design is missing from this build");
		goto out;
	}
	strbuf file = STRBUF_INIT;
	if (to_stdout)
		ddbc_strbuf_addf(&file, "%s.ddb.yaml", nm.buf);
	else
		ddbc_strbuf_addstr(&file, path.buf);
	fill(&text, t, nm.buf, file.buf);
	ddbc_strbuf_release(&file);
	ddbc_output out;
	if (ddbc_output_open(&out, path.buf) < 0)
		goto out;
	fwrite(text.buf, 1, text.len, out.f);
	if (ddbc_output_commit(&out) < 0)
		goto out;
	if (!to_stdout)
		ddbc_info("init", "wrote %s; check it with: ddbc lint %s", path.buf,
			  path.buf);
	status = STATUS_OK;
out:
	ddbc_strbuf_release(&nm);
	ddbc_strbuf_release(&path);
	ddbc_strbuf_release(&text);
	return status;
}
