/* cli_init.h - `ddbc init`: a commented starter design */
#ifndef DDBC_CLI_INIT_H
#define DDBC_CLI_INIT_H

/* Writes the starter design (templates/starter.ddb.yaml, compiled in) named
 * name (NULL: the current folder's name when it is a design name, else
 * "design") to output: a file that must not exist yet, "-" for standard
 * output, NULL for NAME.ddb.yaml. Returns the exit status: 0, or 2 with
 * the reason on stderr and nothing written. */
int ddbc_cli_init(const char *name, const char *output);

#endif
