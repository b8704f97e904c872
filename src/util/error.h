/* error.h - every message of ddbc that is no finding (git's usage.c)
 *
 * A file that cannot be read or written, a build without its template, an
 * output that cannot hold the design, a bad command line, a progress line:
 * all of it reaches stderr through these functions, and only through them
 * (tests/layers.test holds every other file of src/ to that). How each
 * kind of message looks is decided here, once:
 *
 *   ddbc: MESSAGE                       ddbc_error: what stopped ddbc
 *   ddbc CMD: MESSAGE                   ddbc_cmd_error: the same, where the
 *                                       command's name helps the reader
 *                                       (a script running several)
 *   ddbc CMD: MESSAGE                   ddbc_warning: what the command went on
 *                                       without (an import's table left out)
 *   ddbc CMD: MESSAGE                   ddbc_info: what the command did (a
 *                                       file written, a run's counts)
 *   ddbc CMD: note: MESSAGE             ddbc_note: a remark on the result
 *   ddbc CMD: MESSAGE                   ddbc_usage_error: a bad command line,
 *   Try 'ddbc CMD --help'.              with where help is
 *   FILE:LINE:COL: error: MESSAGE       ddbc_file_error: an input that stops
 *                                       (check-items' inputs, compiler style)
 *   FILE:LINE:COL: ddbc CMD: MESSAGE    ddbc_cmd_error_at: the same for a
 *                                       command that names itself
 *   \rMESSAGE\033[K                     ddbc_progress: a terminal's line,
 *                                       redrawn in place
 *
 * Errors, warnings and information look alike today (their texts say what
 * happened: "left out", "not kept", "wrote"); they are apart so that each
 * call says what it is and a later --quiet can drop one kind in one place.
 *
 * A problem with one of the design's own values is never said here: it is
 * a finding at the value's position (diag.h), which every output format
 * carries, and the diagnostic printers write findings themselves.
 *
 * cmd NULL means no command: "ddbc: MESSAGE". Each message is written
 * under stderr's lock, so threads (check-items' readers, migrate's
 * writers) never mix two messages within one line. None of these
 * allocates memory: xalloc says "out of memory" through ddbc_error.
 */
#ifndef DDBC_ERROR_H
#define DDBC_ERROR_H

#include "util/strbuf.h"

#include <stdarg.h>

#define DDBC_PRINTF(f, a) __attribute__((format(printf, f, a)))

void ddbc_error(const char *fmt, ...) DDBC_PRINTF(1, 2);
void ddbc_verror(const char *fmt, va_list ap);
void ddbc_cmd_error(const char *cmd, const char *fmt, ...) DDBC_PRINTF(2, 3);
void ddbc_cmd_verror(const char *cmd, const char *fmt, va_list ap);
void ddbc_warning(const char *cmd, const char *fmt, ...) DDBC_PRINTF(2, 3);
void ddbc_info(const char *cmd, const char *fmt, ...) DDBC_PRINTF(2, 3);
void ddbc_note(const char *cmd, const char *fmt, ...) DDBC_PRINTF(2, 3);
void ddbc_usage_error(const char *cmd, const char *fmt, ...) DDBC_PRINTF(2, 3);

/* Positions count from 1; 0 leaves the part out: line 0 gives
 * "FILE: error: MESSAGE", column 0 "FILE:LINE: error: MESSAGE". */
void ddbc_file_error(const char *file, unsigned long line, unsigned long column,
		     const char *fmt, ...) DDBC_PRINTF(4, 5);
void ddbc_cmd_error_at(const char *cmd, const char *file, unsigned long line,
		       unsigned long column, const char *fmt, ...) DDBC_PRINTF(5, 6);

/* A progress line for a terminal (the caller knows stderr is one): drawn
 * over the last and flushed. ddbc_progress_clear takes it away, before
 * the command's last words or a message that must stay on screen. */
void ddbc_progress(const char *fmt, ...) DDBC_PRINTF(1, 2);
void ddbc_progress_clear(void);

/* Errors a lower layer hands up for its command to print, for code that
 * must not print itself (an emitter: the command decides whether and when
 * they are said). Each is kept as ddbc_cmd_error would say it, in order;
 * cmd is the command it names, or NULL for "ddbc: ". The caller owns the
 * struct: DDBC_ERR_INIT, then ddbc_err_release. A caller that has no use
 * for the reason (it writes into memory and tells a failure its own way)
 * passes NULL, and ddbc_err_add keeps nothing. */
typedef struct ddbc_err {
	strbuf text;             /* the messages, a line each; empty: none */
} ddbc_err;

#define DDBC_ERR_INIT { STRBUF_INIT }

void ddbc_err_add(ddbc_err *e, const char *cmd, const char *fmt, ...) DDBC_PRINTF(3, 4);
/* Says e's messages on stderr; nothing when it holds none. */
void ddbc_err_print(const ddbc_err *e);
void ddbc_err_release(ddbc_err *e);

#endif
