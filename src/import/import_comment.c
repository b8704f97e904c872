/* import_comment.c - the comments the importer writes after a member's line
 *
 * A guess is marked by a comment after the line of the member it concerns
 * (a guessed template, a type read as a string). The comments are kept
 * here, beside the design, keyed by the object and the member's name, so
 * no name a source can hold (one ending in '#', say) collides with them.
 * The objects are held until the design is written, so an address names
 * one object for as long as its comments are kept.
 */
#include "import/import_int.h"
#include "util/strbuf.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

static json_t *comments;  /* "ADDRESS\nNAME" -> the comment */
static json_t *held;      /* every object that has a comment */
static json_t *keys;      /* the key of each of held's comments, in its order */
static json_t *written;   /* "ADDRESS" -> a stand-in (held by this) */

/* An object's address as the hex digits of a key. Asked for every member
 * the design's writer writes (does it have a comment, a text made
 * before?), so written without printf. */
static void address_key(strbuf *key, const void *obj)
{
	char hex[2 * sizeof(uintptr_t)];
	uintptr_t a = (uintptr_t)obj;
	for (size_t i = sizeof(hex); i-- > 0; a >>= 4)
		hex[i] = "0123456789abcdef"[a & 0xf];
	strbuf_add(key, hex, sizeof(hex));
}

static void key_of(strbuf *key, const json_t *obj, const char *name)
{
	address_key(key, obj);
	strbuf_addch(key, '\n');
	strbuf_addstr(key, name);
}

void ddbc_import_set_comment(json_t *obj, const char *name, const char *fmt, ...)
{
	if (!comments) {
		comments = json_object();
		held = json_array();
		keys = json_array();
	}
	strbuf key = STRBUF_INIT, text = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&text, fmt, ap);
	va_end(ap);
	key_of(&key, obj, name);
	json_array_append(held, obj);
	json_array_append_new(keys, json_string(strbuf_str(&key)));
	json_object_set_new(comments, strbuf_str(&key), json_string(strbuf_str(&text)));
	strbuf_release(&key);
	strbuf_release(&text);
}

const char *ddbc_import_comment(const json_t *obj, const char *name)
{
	if (!comments)
		return NULL;
	strbuf key = STRBUF_INIT;
	key_of(&key, obj, name);
	const char *c = json_string_value(json_object_get(comments, strbuf_str(&key)));
	strbuf_release(&key);
	return c;
}

size_t ddbc_import_comments_mark(void)
{
	return json_array_size(held);
}

void ddbc_import_comments_forget(size_t mark)
{
	for (size_t i = json_array_size(held); i > mark; i--) {
		json_object_del(comments, json_string_value(json_array_get(keys, i - 1)));
		json_array_remove(keys, i - 1);
		json_array_remove(held, i - 1);
	}
}

void ddbc_import_set_written(json_t *stand_in)
{
	if (!written)
		written = json_object();
	strbuf key = STRBUF_INIT;
	address_key(&key, stand_in);
	json_object_set(written, strbuf_str(&key), stand_in);
	strbuf_release(&key);
}

const char *ddbc_import_written(const json_t *v)
{
	if (!written || !json_is_string(v))
		return NULL;
	strbuf key = STRBUF_INIT;
	address_key(&key, v);
	const char *t = json_object_get(written, strbuf_str(&key)) ? json_string_value(v) : NULL;
	strbuf_release(&key);
	return t;
}

void ddbc_import_comments_clear(void)
{
	json_decref(comments);
	json_decref(held);
	json_decref(keys);
	json_decref(written);
	comments = held = keys = written = NULL;
}
