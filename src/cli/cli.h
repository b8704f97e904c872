/* cli.h - the command line: options only, every phase lives elsewhere */
#ifndef DDBC_CLI_H
#define DDBC_CLI_H

/* Runs `ddbc ARGS...`; returns the exit status: 0 success, 1 error findings
 * (or failed items), 2 a usage error or an input that could not be read. */
int ddbc_cli_main(int argc, char **argv);

#endif
