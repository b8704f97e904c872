/* import_sls_file.c - what ${file(...)} reads, and `resources` given as a list
 *
 * The framework's file source (v3's lib/configuration/variables/sources/
 * file.js, v4's resolvers/providers/file/file.js) reads a path relative
 * to the service's folder: .yml/.yaml as YAML with CloudFormation's short
 * tags, .json/.tfstate as JSON, anything else as its text; a file that
 * does not exist gives no value (the next source, or a fallback,
 * decides); an address is a dotted path into the content, a list by
 * index (v4 also writes `list[0]`). JavaScript and TypeScript modules are
 * run by the framework, so what they give is undecided here.
 *
 * `resources` may be a list of fragments (often one ${file(...)} each);
 * the framework merges them in order with lodash's merge (Service
 * .mergeArrays, the same in v3 and v4): mappings member by member, lists
 * element by element, any other value replaced by the later one. (A
 * mapping over a list replaces it here; lodash would set the mapping's
 * members on the list, which JSON cannot hold.)
 */
#include "import/import_int.h"
#include "import/import_sls.h"
#include "util/source.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define fail(s, ...) ddbc_cfn_why(&(s)->why, __VA_ARGS__)

/* The extension of path's last component, without its dot ("" for none). */
static const char *extension(const char *path)
{
	const char *base = strrchr(path, '/');
	const char *dot = strrchr(base ? base + 1 : path, '.');
	return dot ? dot + 1 : "";
}

static bool is_ext(const char *ext, const char *const *list)
{
	for (; *list; list++)
		if (!strcasecmp(ext, *list))
			return true;
	return false;
}

/* The most a file read by ${file(...)} may hold: a value is bounded to
 * 1 MiB of text (import_cfn_eval.c), and so is the text it comes from. */
#define MAX_FILE ((size_t)1 << 20)

/* The content of src (read from path), parsed as its extension says; NULL
 * after saying why. */
static json_t *content_of(ddbc_sls *s, const char *var, const char *path, const ddbc_source *src)
{
	static const char *const yaml[] = { "yml", "yaml", NULL };
	static const char *const json[] = { "json", "tfstate", NULL };
	const char *ext = extension(path);
	if (!is_ext(ext, yaml) && !is_ext(ext, json))
		return json_stringn_nocheck(src->text, src->len);
	/* The reader says on stderr where the file is broken. */
	json_t *v = is_ext(ext, yaml) ? ddbc_import_parse_template(path, src->text, src->len)
				      : ddbc_import_parse_json(path, src->text, src->len);
	return v ? v : fail(s, "'%s': %s is no %s the framework reads (said above)", var, path,
			    is_ext(ext, yaml) ? "YAML" : "JSON");
}

/* What file path gives: json null when there is none (the framework's
 * ENOENT; an empty document), else its content; NULL after saying why.
 * It is read as the design is, bounded (util/source.h): a FIFO, a device
 * or a folder is refused at once, and so is a file too large or holding
 * a NUL. */
static json_t *read_file(ddbc_sls *s, const char *var, const char *path)
{
	char *why = NULL;
	ddbc_source *src = ddbc_source_read_bounded(path, MAX_FILE, &why);
	json_t *v;
	if (!src && errno == ENOENT)
		v = json_null();
	else if (!src)
		v = fail(s, "'%s': %s %s", var, path, why);
	else if (src->len == 0)
		v = json_null();  /* an empty YAML or JSON document is no value */
	else
		v = content_of(s, var, path, src);
	free(why);
	ddbc_source_free(src);
	return v;
}

const json_t *ddbc_sls_file(ddbc_sls *s, const char *var, const char *written)
{
	static const char *const code[] = { "js", "cjs", "mjs", "ts", "mts", "cts", NULL };
	if (is_ext(extension(written), code))
		return fail(s, "'%s' runs %s, which ddbc does not: give --param '%.*s=VALUE'",
			    var, written, (int)strlen(var) - 3, var + 2);
	strbuf path = STRBUF_INIT;
	if (written[0] != '/' && s->dir && *s->dir) {
		ddbc_strbuf_addf(&path, "%s/", s->dir);
		while (!strncmp(written, "./", 2))
			written += 2;
	}
	ddbc_strbuf_addstr(&path, written);
	if (!s->files)
		s->files = json_object();
	json_t *cached = json_object_get(s->files, ddbc_strbuf_str(&path));
	if (cached) {
		ddbc_strbuf_release(&path);
		/* [content], or the reason it could not be read. */
		return json_is_array(cached) ? json_array_get(cached, 0)
					     : fail(s, "%s", json_string_value(cached));
	}
	json_t *v = read_file(s, var, ddbc_strbuf_str(&path));
	json_object_set_new(s->files, ddbc_strbuf_str(&path),
			    v ? json_pack("[o]", v) : json_stringn_nocheck(s->why.buf, s->why.len));
	ddbc_strbuf_release(&path);
	return v;
}

/* Member or element part of v (a list by its decimal index); NULL if none. */
static const json_t *step(const json_t *v, const char *part, size_t n)
{
	if (json_is_array(v)) {
		size_t k = 0;
		for (size_t i = 0; i < n; i++) {
			if (!isdigit((unsigned char)part[i]) || k > 1000000000)
				return NULL;
			k = k * 10 + (size_t)(part[i] - '0');
		}
		return n ? json_array_get(v, k) : NULL;
	}
	if (!json_is_object(v))
		return NULL;
	char *key = ddbc_xstrndup(part, n);
	const json_t *r = json_object_get(v, key);
	free(key);
	return r;
}

const json_t *ddbc_sls_at(const json_t *v, const char *address)
{
	const char *p = address;
	while (v && *p) {
		size_t n = strcspn(p, ".[");
		if (n)
			v = step(v, p, n);
		p += n;
		if (*p == '[') {  /* v4's list[0] */
			size_t m = strcspn(p + 1, "]");
			if (p[1 + m] != ']')
				return NULL;
			v = v ? step(v, p + 1, m) : NULL;
			p += m + 2;
		}
		if (*p == '.')
			p++;
	}
	return v && !json_is_null(v) ? v : NULL;
}

json_t *ddbc_sls_merge(json_t *into, const json_t *from)
{
	if (json_is_array(from)) {
		/* A list merges into a list element by element, else into a new one. */
		json_t *r = json_is_array(into) ? into : json_array();
		if (r != into)
			json_decref(into);
		for (size_t i = 0; i < json_array_size(from); i++) {
			json_t *old = i < json_array_size(r) ? json_incref(json_array_get(r, i)) : NULL;
			json_t *m = ddbc_sls_merge(old, json_array_get(from, i));
			if (i < json_array_size(r))
				json_array_set_new(r, i, m);
			else
				json_array_append_new(r, m);
		}
		return r;
	}
	if (json_is_object(from)) {
		json_t *r = json_is_object(into) ? into : json_object();
		if (r != into)
			json_decref(into);
		const char *k;
		json_t *e;
		json_object_foreach((json_t *)from, k, e) {
			json_t *old = json_object_get(r, k);
			json_object_set_new(r, k, ddbc_sls_merge(old ? json_incref(old) : NULL, e));
		}
		return r;
	}
	json_decref(into);
	return json_incref((json_t *)from);
}
