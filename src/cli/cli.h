/* cli.h - the command line: options only, every phase lives elsewhere */
#ifndef DDBC_CLI_H
#define DDBC_CLI_H

/* Runs `ddbc ARGS...`; returns the exit status (0, 1 or 2, SPEC §2). */
int ddbc_cli_main(int argc, char **argv);

#endif
