/* aws_ini.c - one section of the AWS CLI's shared config and credentials
 *
 * The files are INI as botocore reads them: `[section]` lines, `key = value`
 * lines, whole-line comments after '#' or ';', values taken literally (no
 * inline comments). An indented line continues a nested block (`s3 =`
 * followed by its own keys): those keys are not the profile's and are
 * skipped. The last occurrence of a key wins, as in configparser.
 */
#include "aws/aws_int.h"

#include "util/strbuf.h"
#include "util/xalloc.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct kvlist {
	char **kv;
	size_t n, cap;
} kvlist;

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

/* "[  profile   dev ]" and "profile dev" are the same section. */
static bool section_is(const char *line, const char *want)
{
	strbuf norm = STRBUF_INIT;
	bool space = false;
	for (const char *p = line; *p; p++) {
		if (isspace((unsigned char)*p)) {
			space = norm.len > 0;
			continue;
		}
		if (space)
			ddbc_strbuf_addch(&norm, ' ');
		space = false;
		ddbc_strbuf_addch(&norm, *p);
	}
	bool same = strcmp(ddbc_strbuf_str(&norm), want) == 0;
	ddbc_strbuf_release(&norm);
	return same;
}

static void kv_set(kvlist *l, const char *key, const char *value)
{
	for (size_t i = 0; i + 1 < l->n; i += 2)
		if (strcmp(l->kv[i], key) == 0) {
			free(l->kv[i + 1]);
			l->kv[i + 1] = ddbc_xstrdup(value);
			return;
		}
	ddbc_xgrow((void **)&l->kv, &l->cap, l->n + 3, sizeof(char *));
	l->kv[l->n++] = ddbc_xstrdup(key);
	l->kv[l->n++] = ddbc_xstrdup(value);
	l->kv[l->n] = NULL;
}

/* One line inside the wanted section; *nested says an indented block follows. */
static void read_pair(kvlist *l, char *raw, bool *nested)
{
	if (isspace((unsigned char)raw[0]) && *nested)
		return;
	char *line = trim(raw);
	char *eq = strchr(line, '=');
	if (!eq)
		return;
	*eq = '\0';
	char *key = trim(line), *value = trim(eq + 1);
	*nested = *value == '\0';
	if (*key && !*nested)
		kv_set(l, key, value);
}

static void read_lines(FILE *f, const char *section, kvlist *l, bool *found)
{
	char *raw = NULL;
	size_t cap = 0;
	bool inside = false, nested = false;
	while (getline(&raw, &cap, f) != -1) {
		char *line = trim(raw);
		if (*line == '#' || *line == ';' || *line == '\0')
			continue;
		if (*line == '[') {
			char *end = strrchr(line, ']');
			if (end)
				*end = '\0';
			inside = section_is(line + 1, section);
			*found = *found || inside;
			nested = false;
			continue;
		}
		if (inside)
			read_pair(l, raw, &nested);
	}
	free(raw);
}

int ddbc_aws_ini_section(const char *path, const char *section, char ***kv, char **err)
{
	*kv = NULL;
	FILE *f = fopen(path, "r");
	if (!f) {
		if (errno == ENOENT || errno == ENOTDIR)
			return 0;
		*err = ddbc_aws_errf("cannot read '%s': %s", path, strerror(errno));
		return -1;
	}
	kvlist l = { 0 };
	bool found = false;
	read_lines(f, section, &l, &found);
	fclose(f);
	if (!found) {
		ddbc_aws_ini_free(l.kv);
		return 0;
	}
	if (!l.kv)
		l.kv = ddbc_xcalloc(1, sizeof(char *));
	*kv = l.kv;
	return 1;
}

const char *ddbc_aws_ini_get(char **kv, const char *key)
{
	for (size_t i = 0; kv && kv[i]; i += 2)
		if (strcmp(kv[i], key) == 0)
			return kv[i + 1];
	return NULL;
}

void ddbc_aws_ini_free(char **kv)
{
	for (size_t i = 0; kv && kv[i]; i++) {
		/* Values may be secrets: they do not linger in freed memory. */
		explicit_bzero(kv[i], strlen(kv[i]));
		free(kv[i]);
	}
	free(kv);
}
