/* read_file.h - the benchmark floors' one way of reading their input
 *
 * The whole file into memory, as ddbc has it before parsing; exits with
 * status 2 on any problem. Only the bench/ programs include it.
 */
#ifndef BENCH_READ_FILE_H
#define BENCH_READ_FILE_H

#include <stdio.h>
#include <stdlib.h>

static char *read_file(int argc, char **argv, const char *usage, size_t *len)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s\n", usage);
		exit(2);
	}
	FILE *f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		exit(2);
	}
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *buf = n < 0 ? NULL : malloc((size_t)n + 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n)
		exit(2);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

#endif
