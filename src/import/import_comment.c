/* import_comment.c - the comments the importer writes after a member's line
 *
 * A guess is marked by a comment after the line of the member it concerns
 * (a guessed template, a type read as a string). The comments are kept in
 * the import's run, beside the design, keyed by the object and the
 * member's name, so
 * no name a source can hold (one ending in '#', say) collides with them.
 * The objects are held until the design is written, so an address names
 * one object for as long as its comments are kept.
 */
#include "import/import_int.h"
#include "util/strbuf.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

/* The object's address in hex: the writer asks for every member it
 * writes, so no printf. */
static void address_of(strbuf *key, const void *obj)
{
	char hex[2 * sizeof(uintptr_t)];
	size_t n = 0;
	for (uintptr_t a = (uintptr_t)obj; a || !n; a >>= 4)
		hex[n++] = "0123456789abcdef"[a & 15];
	while (n)
		ddbc_strbuf_addch(key, hex[--n]);
}

static void key_of(strbuf *key, const json_t *obj, const char *name)
{
	address_of(key, obj);
	ddbc_strbuf_addch(key, '\n');
	ddbc_strbuf_addstr(key, name);
}

void ddbc_import_set_comment(ddbc_import_run *run, json_t *obj, const char *name,
			     const char *fmt, ...)
{
	if (!run->comments) {
		run->comments = json_object();
		run->held = json_array();
		run->keys = json_array();
	}
	strbuf key = STRBUF_INIT, text = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	ddbc_strbuf_vaddf(&text, fmt, ap);
	va_end(ap);
	key_of(&key, obj, name);
	json_array_append(run->held, obj);
	json_array_append_new(run->keys, json_string(ddbc_strbuf_str(&key)));
	json_object_set_new(run->comments, ddbc_strbuf_str(&key), json_string(ddbc_strbuf_str(&text)));
	ddbc_strbuf_release(&key);
	ddbc_strbuf_release(&text);
}

const char *ddbc_import_comment(const ddbc_import_run *run, const json_t *obj, const char *name)
{
	if (!run->comments)
		return NULL;
	strbuf key = STRBUF_INIT;
	key_of(&key, obj, name);
	const char *c = json_string_value(json_object_get(run->comments, ddbc_strbuf_str(&key)));
	ddbc_strbuf_release(&key);
	return c;
}

size_t ddbc_import_comments_mark(const ddbc_import_run *run)
{
	return json_array_size(run->held);
}

void ddbc_import_comments_forget(ddbc_import_run *run, size_t mark)
{
	for (size_t i = json_array_size(run->held); i > mark; i--) {
		json_object_del(run->comments, json_string_value(json_array_get(run->keys, i - 1)));
		json_array_remove(run->keys, i - 1);
		json_array_remove(run->held, i - 1);
	}
}

void ddbc_import_set_written(ddbc_import_run *run, json_t *stand_in)
{
	if (!run->written)
		run->written = json_object();
	strbuf key = STRBUF_INIT;
	address_of(&key, stand_in);
	json_object_set(run->written, ddbc_strbuf_str(&key), stand_in);
	ddbc_strbuf_release(&key);
}

const char *ddbc_import_written(const ddbc_import_run *run, const json_t *v)
{
	if (!run->written || !json_is_string(v))
		return NULL;
	strbuf key = STRBUF_INIT;
	address_of(&key, v);
	const char *t = json_object_get(run->written,
					ddbc_strbuf_str(&key)) ? json_string_value(v) : NULL;
	ddbc_strbuf_release(&key);
	return t;
}

void ddbc_import_comments_clear(ddbc_import_run *run)
{
	json_decref(run->comments);
	json_decref(run->held);
	json_decref(run->keys);
	json_decref(run->written);
	run->comments = run->held = run->keys = run->written = NULL;
}
