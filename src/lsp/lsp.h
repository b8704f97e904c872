/* lsp.h - `ddbc lsp`: the language server, a front end beside cli/
 *
 * It speaks the Language Server Protocol (JSON-RPC 2.0 with Content-Length
 * framing) on a pair of file descriptors. Each open design is checked from
 * the editor's buffer through the same loader and rules as `ddbc lint`
 * (rules/check.h); the findings are converted at this edge, positions
 * included (LSP counts UTF-16 code units, the model characters).
 */
#ifndef DDBC_LSP_H
#define DDBC_LSP_H

#include "diag/diag.h"

/* Serves until the client sends `exit` or closes in. Returns the exit
 * status LSP specifies: 0 after `shutdown`, else 1. settings are the
 * command line's --rule settings (the client may change them). */
int ddbc_lsp_serve(int in, int out, const ddbc_settings *settings);

#endif
