/* output_clean.c - temporary files removed when a signal ends the run
 *
 * A run killed by SIGTERM, SIGINT or SIGHUP leaves no temporary file or
 * folder behind. The handler only walks a list and calls unlink and rmdir
 * (both async-signal-safe), then dies of the same signal. Nodes are never
 * freed while the run lasts (a node done is reused), so the handler never
 * reads freed memory, whichever thread it runs on.
 */
#include "util/output_int.h"
#include "util/xalloc.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct ddbc_cleanup {
	struct ddbc_cleanup *next;
	char *path;
	bool is_dir;
	volatile sig_atomic_t active;
};

static ddbc_cleanup *head;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static const int signals[] = { SIGTERM, SIGINT, SIGHUP };

static void on_signal(int sig)
{
	/* Files first: they were noted after the folder they are in. */
	for (ddbc_cleanup *c = __atomic_load_n(&head, __ATOMIC_ACQUIRE); c; c = c->next)
		if (c->active && !c->is_dir)
			unlink(c->path);
	for (ddbc_cleanup *c = __atomic_load_n(&head, __ATOMIC_ACQUIRE); c; c = c->next)
		if (c->active && c->is_dir)
			rmdir(c->path);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Once: a signal the run ignores (nohup) stays ignored. */
static void install(void)
{
	for (size_t i = 0; i < sizeof(signals) / sizeof(signals[0]); i++) {
		struct sigaction old, sa;
		if (sigaction(signals[i], NULL, &old) < 0 || old.sa_handler == SIG_IGN)
			continue;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		for (size_t j = 0; j < sizeof(signals) / sizeof(signals[0]); j++)
			sigaddset(&sa.sa_mask, signals[j]);
		sigaction(signals[i], &sa, NULL);
	}
}

static pthread_once_t once = PTHREAD_ONCE_INIT;

void ddbc_cleanup_hold(sigset_t *old)
{
	pthread_once(&once, install);
	sigset_t set;
	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(signals) / sizeof(signals[0]); i++)
		sigaddset(&set, signals[i]);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

void ddbc_cleanup_release(const sigset_t *old)
{
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

ddbc_cleanup *ddbc_cleanup_add(const char *path, bool is_dir)
{
	pthread_once(&once, install);
	pthread_mutex_lock(&mu);
	ddbc_cleanup *c = head;
	while (c && c->active)
		c = c->next;
	char *copy = ddbc_xstrdup(path);
	if (c) {
		char *old = c->path;
		c->path = copy;
		free(old);
		c->is_dir = is_dir;
		__atomic_store_n(&c->active, 1, __ATOMIC_RELEASE);
	} else {
		c = ddbc_xcalloc(1, sizeof(*c));
		c->path = copy;
		c->is_dir = is_dir;
		c->active = 1;
		c->next = head;
		__atomic_store_n(&head, c, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&mu);
	return c;
}

void ddbc_cleanup_done(ddbc_cleanup *c)
{
	if (c)
		c->active = 0;
}

void ddbc_cleanup_done_under(const char *dir)
{
	size_t n = strlen(dir);
	pthread_mutex_lock(&mu);
	for (ddbc_cleanup *c = head; c; c = c->next)
		if (c->active && !strncmp(c->path, dir, n) && (!c->path[n] || c->path[n] == '/'))
			c->active = 0;
	pthread_mutex_unlock(&mu);
}
