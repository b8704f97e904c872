/* import_cfn_keep.c - a template's resource kept small until it is read
 *
 * A streamed template keeps each table resource from its reading until
 * import_cfn.c turns it into a table (import_cfn_yaml.c). jansson's tree
 * of a value is several times its text, and writing it as JSON to read
 * it back costs a lexer's work; so a resource is kept as a packed copy of
 * its tree: each value a type byte, then its length and bytes (a string,
 * an object's member name, NUL-terminated so the tree can name it in
 * place), its count of elements or members, or the 8 bytes of a number.
 * Unpacking makes the same tree, member for member, in the same order.
 */
#include "import/import_cfn.h"
#include "util/strbuf.h"

#include <stdint.h>
#include <string.h>

static void put_size(strbuf *b, size_t n)
{
	/* Seven bits a byte, the high bit saying more follow. */
	while (n >= 0x80) {
		ddbc_strbuf_addch(b, (char)(0x80 | (n & 0x7f)));
		n >>= 7;
	}
	ddbc_strbuf_addch(b, (char)n);
}

static void put_text(strbuf *b, const char *s, size_t n)
{
	put_size(b, n);
	ddbc_strbuf_add(b, s, n);
	ddbc_strbuf_addch(b, '\0');
}

static void pack(strbuf *b, const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: {
		ddbc_strbuf_addch(b, 'o');
		put_size(b, json_object_size(v));
		const char *k;
		const json_t *m;
		json_object_foreach((json_t *)v, k, m) {
			put_text(b, k, strlen(k));
			pack(b, m);
		}
		return;
	}
	case JSON_ARRAY: {
		ddbc_strbuf_addch(b, 'a');
		put_size(b, json_array_size(v));
		size_t i;
		const json_t *e;
		json_array_foreach(v, i, e)
			pack(b, e);
		return;
	}
	case JSON_STRING:
		ddbc_strbuf_addch(b, 's');
		put_text(b, json_string_value(v), json_string_length(v));
		return;
	case JSON_INTEGER: {
		json_int_t i = json_integer_value(v);
		ddbc_strbuf_addch(b, 'i');
		ddbc_strbuf_add(b, &i, sizeof(i));
		return;
	}
	case JSON_REAL: {
		double d = json_real_value(v);
		ddbc_strbuf_addch(b, 'r');
		ddbc_strbuf_add(b, &d, sizeof(d));
		return;
	}
	case JSON_TRUE: ddbc_strbuf_addch(b, 't'); return;
	case JSON_FALSE: ddbc_strbuf_addch(b, 'f'); return;
	case JSON_NULL: ddbc_strbuf_addch(b, 'n'); return;
	}
}

json_t *ddbc_cfn_pack(const json_t *v)
{
	strbuf b = STRBUF_INIT;
	pack(&b, v);
	/* A string of jansson's holds any bytes when told its length. */
	json_t *s = json_stringn_nocheck(b.buf, b.len);
	ddbc_strbuf_release(&b);
	return s;
}

struct cursor {
	const unsigned char *p, *end;
};

static size_t get_size(struct cursor *c)
{
	size_t n = 0;
	for (int shift = 0; c->p < c->end; shift += 7) {
		unsigned char byte = *c->p++;
		n |= (size_t)(byte & 0x7f) << shift;
		if (!(byte & 0x80))
			break;
	}
	return n;
}

static const char *get_text(struct cursor *c, size_t *n)
{
	*n = get_size(c);
	const char *s = (const char *)c->p;
	c->p += *n + 1;
	return s;
}

static json_t *unpack(struct cursor *c)
{
	size_t n;
	switch (*c->p++) {
	case 'o': {
		json_t *o = json_object();
		for (size_t i = get_size(c); i; i--) {
			const char *k = get_text(c, &n);
			json_object_set_new_nocheck(o, k, unpack(c));
		}
		return o;
	}
	case 'a': {
		json_t *a = json_array();
		for (size_t i = get_size(c); i; i--)
			json_array_append_new(a, unpack(c));
		return a;
	}
	case 's': {
		const char *s = get_text(c, &n);
		return json_stringn_nocheck(s, n);
	}
	case 'i': {
		json_int_t i;
		memcpy(&i, c->p, sizeof(i));
		c->p += sizeof(i);
		return json_integer(i);
	}
	case 'r': {
		double d;
		memcpy(&d, c->p, sizeof(d));
		c->p += sizeof(d);
		return json_real(d);
	}
	case 't': return json_true();
	case 'f': return json_false();
	default: return json_null();
	}
}

json_t *ddbc_cfn_unpack(const json_t *packed)
{
	const unsigned char *p = (const unsigned char *)json_string_value(packed);
	struct cursor c = { p, p + json_string_length(packed) };
	return c.p < c.end ? unpack(&c) : NULL;
}

json_t *ddbc_cfn_keep(json_t *stash, const char *logical, const json_t *res)
{
	if (!ddbc_cfn_table_type(ddbc_import_string_value(json_object_get(res, "Type"))))
		return json_null();
	json_t *packed = ddbc_cfn_pack(res);
	json_object_set(stash, logical, packed);
	return packed;
}
