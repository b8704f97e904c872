/* error.c - every message of ddbc that is no finding */
#include "util/error.h"

#include <stdio.h>

/* Writes [FILE[:LINE[:COL]]: ]HEAD[CMD]TAIL MESSAGE\n as one message:
 * stderr is locked across the parts, so no other thread's message lands
 * inside it. Nothing here allocates (xalloc's "out of memory" comes here). */
static void say(const char *file, unsigned long line, unsigned long column, const char *cmd,
		const char *tail, const char *fmt, va_list ap)
{
	flockfile(stderr);
	if (file) {
		fputs(file, stderr);
		if (line)
			fprintf(stderr, ":%lu", line);
		if (line && column)
			fprintf(stderr, ":%lu", column);
		fputs(": ", stderr);
	}
	if (cmd)
		fprintf(stderr, "ddbc %s: ", cmd);
	else if (!file)
		fputs("ddbc: ", stderr);
	fputs(tail, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	funlockfile(stderr);
}

void ddbc_verror(const char *fmt, va_list ap)
{
	say(NULL, 0, 0, NULL, "", fmt, ap);
}

void ddbc_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ddbc_verror(fmt, ap);
	va_end(ap);
}

void ddbc_cmd_verror(const char *cmd, const char *fmt, va_list ap)
{
	say(NULL, 0, 0, cmd, "", fmt, ap);
}

void ddbc_cmd_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ddbc_cmd_verror(cmd, fmt, ap);
	va_end(ap);
}

/* A warning reads as an error does: its text says what was left out. */
void ddbc_warning(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say(NULL, 0, 0, cmd, "", fmt, ap);
	va_end(ap);
}

/* Information goes to stderr too: stdout holds the command's output (a
 * design, a plan), which a pipe may be reading. */
void ddbc_info(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say(NULL, 0, 0, cmd, "", fmt, ap);
	va_end(ap);
}

void ddbc_note(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say(NULL, 0, 0, cmd, "note: ", fmt, ap);
	va_end(ap);
}

void ddbc_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	flockfile(stderr);
	say(NULL, 0, 0, cmd, "", fmt, ap);
	fprintf(stderr, "Try 'ddbc %s%s--help'.\n", cmd ? cmd : "", cmd ? " " : "");
	funlockfile(stderr);
	va_end(ap);
}

void ddbc_file_error(const char *file, unsigned long line, unsigned long column,
		     const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say(file, line, column, NULL, "error: ", fmt, ap);
	va_end(ap);
}

void ddbc_cmd_error_at(const char *cmd, const char *file, unsigned long line,
		       unsigned long column, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say(file, line, column, cmd, "", fmt, ap);
	va_end(ap);
}

void ddbc_progress(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	flockfile(stderr);
	fputc('\r', stderr);
	vfprintf(stderr, fmt, ap);
	fputs("\033[K", stderr);
	fflush(stderr);
	funlockfile(stderr);
	va_end(ap);
}

void ddbc_progress_clear(void)
{
	fputs("\r\033[K", stderr);
	fflush(stderr);
}

/* The line is kept as say() would write it, so that printing it later
 * reads as printing it then would have. e NULL: not kept (error.h). */
void ddbc_err_add(ddbc_err *e, const char *cmd, const char *fmt, ...)
{
	va_list ap;
	if (!e)
		return;
	if (cmd)
		ddbc_strbuf_addf(&e->text, "ddbc %s: ", cmd);
	else
		ddbc_strbuf_addstr(&e->text, "ddbc: ");
	va_start(ap, fmt);
	ddbc_strbuf_vaddf(&e->text, fmt, ap);
	va_end(ap);
	ddbc_strbuf_addch(&e->text, '\n');
}

void ddbc_err_print(const ddbc_err *e)
{
	fputs(ddbc_strbuf_str(&e->text), stderr);
}

void ddbc_err_release(ddbc_err *e)
{
	ddbc_strbuf_release(&e->text);
}
