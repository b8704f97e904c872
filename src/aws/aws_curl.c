/* aws_curl.c - libcurl, loaded when the first client needs it
 *
 * Linked at build time, libcurl and what it links (OpenSSL, Kerberos,
 * LDAP, HTTP/2, ...) are mapped and initialised by every run of ddbc:
 * about 6.7 MiB of resident memory and a few milliseconds before main,
 * paid by lint on every keystroke and counted against the memory bar
 * (4 x the file + 16 MiB) of every command. Only the commands that talk
 * to DynamoDB need it, so it is opened with dlopen when the first client
 * opens or the first endpoint is checked, and its functions are called
 * through the table below. The headers still come from libcurl's -dev
 * package (configure checks it); the library is the runtime's libcurl.so.4.
 */
#include "aws/aws_int.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>

#define LIBCURL_SONAME "libcurl.so.4"

static aws_curl_api api;
static const char *load_error;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

/* dlsym of name into *slot; false when libcurl lacks it. */
static bool bind_fn(void *lib, const char *name, void *slot)
{
	void *fn = dlsym(lib, name);
	if (!fn)
		return false;
	*(void **)slot = fn;
	return true;
}

static void load(void)
{
	void *lib = dlopen(LIBCURL_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		load_error = dlerror();
		return;
	}
	bool ok = bind_fn(lib, "curl_global_init", &api.global_init) &&
		  bind_fn(lib, "curl_easy_init", &api.easy_init) &&
		  bind_fn(lib, "curl_easy_setopt", &api.easy_setopt) &&
		  bind_fn(lib, "curl_easy_perform", &api.easy_perform) &&
		  bind_fn(lib, "curl_easy_getinfo", &api.easy_getinfo) &&
		  bind_fn(lib, "curl_easy_reset", &api.easy_reset) &&
		  bind_fn(lib, "curl_easy_cleanup", &api.easy_cleanup) &&
		  bind_fn(lib, "curl_easy_strerror", &api.easy_strerror) &&
		  bind_fn(lib, "curl_slist_append", &api.slist_append) &&
		  bind_fn(lib, "curl_slist_free_all", &api.slist_free_all) &&
		  bind_fn(lib, "curl_url", &api.url) &&
		  bind_fn(lib, "curl_url_set", &api.url_set) &&
		  bind_fn(lib, "curl_url_get", &api.url_get) &&
		  bind_fn(lib, "curl_url_cleanup", &api.url_cleanup) &&
		  bind_fn(lib, "curl_free", &api.free);
	if (!ok) {
		load_error = "it lacks a function ddbc calls (libcurl 7.75 or later is needed)";
		return;
	}
	/* Once, before any thread makes a handle (libcurl asks it so). */
	if (api.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		load_error = "curl_global_init failed";
		return;
	}
	api.loaded = true;
	/* The library stays mapped until the process ends. */
}

const aws_curl_api *ddbc_aws_curl(char **err)
{
	pthread_once(&load_once, load);
	if (api.loaded)
		return &api;
	if (err)
		*err = ddbc_aws_errf("cannot load libcurl (%s): %s; install it (Debian: libcurl4)",
				LIBCURL_SONAME, load_error ? load_error : "unknown error");
	return NULL;
}
