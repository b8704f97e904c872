/* items_bench.c - check-items throughput against jansson's own parse speed
 *
 *   items_bench floor-file FILE        json_loadf of the whole file (one tree)
 *   items_bench floor-lines FILE       json_loadb of each line (JSON lines,
 *                                      export lines): the per-item floor;
 *                                      FILE "-" reads standard input (zcat |)
 *   items_bench run FILE -- CMD ARG... runs CMD (check-items on FILE), output
 *                                      to /dev/null
 *   items_bench run-as LABEL BYTES -- CMD ARG...
 *                                      the same, reported as LABEL over BYTES
 *                                      (a pipeline, a folder); CPU time counts
 *                                      the children CMD waits for too
 *
 * Each prints one line: what, items (floors: values parsed; run: "-"),
 * bytes, CPU seconds (user + system), wall seconds, MB/s on CPU time, and
 * the peak resident set (getrusage ru_maxrss). CPU time is the figure to
 * compare: on a shared machine, wall time measures the neighbours too.
 * Not part of `make check`; bench/items.sh drives it.
 */
#define _GNU_SOURCE
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double cpu_of(const struct rusage *ru)
{
	return (double)ru->ru_utime.tv_sec + (double)ru->ru_utime.tv_usec / 1e6 +
	       (double)ru->ru_stime.tv_sec + (double)ru->ru_stime.tv_usec / 1e6;
}

static long long file_size(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

static void report(const char *what, long long items, long long bytes, double cpu,
		   double wall, long maxrss_kb)
{
	char n[32];
	if (items >= 0)
		snprintf(n, sizeof(n), "%lld", items);
	else
		snprintf(n, sizeof(n), "-");
	printf("%-12s items %-9s bytes %lld cpu %.3f s wall %.3f s  %.1f MB/s (cpu)  "
	       "peak RSS %.1f MiB\n", what, n, bytes, cpu, wall,
	       cpu > 0 ? (double)bytes / 1048576.0 / cpu : 0.0, (double)maxrss_kb / 1024.0);
}

static int floor_file(const char *path)
{
	double t0 = now();
	json_error_t err;
	json_t *root = json_load_file(path, 0, &err);
	if (!root) {
		fprintf(stderr, "%s:%d:%d: %s\n", path, err.line, err.column, err.text);
		return 1;
	}
	long long items = 0;
	json_t *list = json_is_array(root) ? root : json_object_get(root, "Items");
	if (json_is_array(list))
		items = (long long)json_array_size(list);
	json_decref(root);
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	report("jansson-file", items, file_size(path), cpu_of(&ru), now() - t0, ru.ru_maxrss);
	return 0;
}

static int floor_lines(const char *path)
{
	double t0 = now();
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	if (!f) {
		perror(path);
		return 1;
	}
	long long bytes = 0;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	long long items = 0, lineno = 0;
	while ((n = getline(&line, &cap, f)) > 0) {
		lineno++;
		json_error_t err;
		json_t *v = json_loadb(line, (size_t)n, 0, &err);
		if (!v) {
			fprintf(stderr, "%s:%lld: %s\n", path, lineno, err.text);
			return 1;
		}
		json_decref(v);
		items++;
		bytes += n;
	}
	free(line);
	if (f != stdin)
		fclose(f);
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	report("jansson-lines", items, bytes, cpu_of(&ru), now() - t0, ru.ru_maxrss);
	return 0;
}

static int run_as(const char *what, long long bytes, char **argv)
{
	double t0 = now();
	pid_t pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);
		if (fd >= 0) {
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	int status;
	struct rusage ru;
	if (wait4(pid, &status, 0, &ru) < 0) {
		perror("wait4");
		return 1;
	}
	double wall = now() - t0;
	if (!WIFEXITED(status) || WEXITSTATUS(status) > 1) {
		fprintf(stderr, "items_bench: '%s' failed (status %d)\n", argv[0], status);
		return 1;
	}
	report(what, -1, bytes, cpu_of(&ru), wall, ru.ru_maxrss);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "floor-file"))
		return floor_file(argv[2]);
	if (argc >= 3 && !strcmp(argv[1], "floor-lines"))
		return floor_lines(argv[2]);
	if (argc >= 5 && !strcmp(argv[1], "run") && !strcmp(argv[3], "--"))
		return run_as("check-items", file_size(argv[2]), argv + 4);
	if (argc >= 6 && !strcmp(argv[1], "run-as") && !strcmp(argv[4], "--"))
		return run_as(argv[2], atoll(argv[3]), argv + 5);
	fprintf(stderr, "usage: items_bench floor-file FILE | floor-lines FILE | "
		"run FILE -- CMD ARG... | run-as LABEL BYTES -- CMD ARG...\n");
	return 2;
}
