/* items_stream.c - splitting a stream of JSON items into single items
 *
 * The reader is a small state machine over the input's structure (where
 * the items are: inside a top-level array, inside a scan result's "Items"
 * array, or one per top-level value) and a byte scanner that finds where
 * one value ends: it counts brackets outside strings and follows escapes,
 * and leaves the grammar of the value itself to jansson. An item's bytes
 * are recorded as the scanner passes them: when the item ends in the
 * chunk it started in, the span points into the chunk; otherwise the
 * pieces are copied into one buffer, whose size the cap bounds.
 *
 * Scan metadata is read as JSON too: every member value the reader skips
 * goes through jansson, so a scan result is JSON from end to end.
 */
#include "items/items_stream.h"
#include "items/items_source.h"
#include "util/xalloc.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK (64u << 10)
#define KEY_MAX 256     /* long enough for every scan metadata key and table name */

typedef enum state {
	ST_START,            /* before the first value */
	ST_ARRAY_FIRST,      /* after '[' of an array of items */
	ST_ARRAY_NEXT,       /* after an item of an array */
	ST_TRAILER,          /* after the top-level array: only whitespace */
	ST_LINES,            /* between top-level values */
	ST_SCAN_FIRST,       /* after '{' of a scan result */
	ST_SCAN_NEXT,        /* after a member of a scan result */
	ST_SCAN_BETWEEN,     /* after a scan result: another, or the end */
	ST_BATCH_FIRST,      /* after '{' of a BatchWriteItem request file */
	ST_BATCH_NEXT,       /* after a table's array of requests */
	ST_BATCH_BETWEEN,    /* after a request file's object: another, or the end */
	ST_DONE
} state;

/* What one step of the reader's state machine did. */
typedef enum advance {
	ADV_ON,                  /* moved to another state: step again */
	ADV_ITEM,                /* read an item */
	ADV_FAILED               /* the input is bad: err says why */
} advance;

struct ddbc_items_reader {
	ddbc_items_source *in;
	unsigned char *chunk;
	size_t pos, len;
	bool eof, read_error;    /* read_error: ddbc_items_source_error says why */
	ddbc_ipos at;            /* position of chunk[pos] */

	/* recording the bytes of the value being scanned */
	bool recording, over;
	size_t mark;             /* where the recording starts in chunk */
	char *rec;
	size_t rec_len, rec_cap, max;

	ddbc_items_shape shape;
	state st;
	bool array_in_scan;      /* the array of items is a scan's "Items" */
	bool array_in_batch;     /* the array of items is a table's requests */
	/* JSON lines whose first item is on one line are taken as one item a
	 * line (as exports are): a line whose brackets do not close ends where
	 * a line starting with '{' follows, a malformed item, and that line is
	 * read on its own. */
	bool line_items;
	char table[KEY_MAX];     /* in a batch: the table of the requests */
	ddbc_ipos array_at;      /* where the current array of items opens */
	ddbc_ipos scan_at;       /* where the current scan result opens */
	unsigned long nitems;
};

ddbc_items_reader *ddbc_items_reader_new(FILE *in, size_t max_item)
{
	ddbc_items_reader *r = ddbc_xcalloc(1, sizeof(*r));
	r->in = ddbc_items_source_new(in);
	r->chunk = ddbc_xmalloc(CHUNK);
	r->at.line = r->at.column = 1;
	r->max = max_item;
	r->st = ST_START;
	return r;
}

void ddbc_items_reader_free(ddbc_items_reader *r)
{
	if (!r)
		return;
	ddbc_items_source_free(r->in);
	free(r->chunk);
	free(r->rec);
	free(r);
}

ddbc_items_shape ddbc_items_shape_of(const ddbc_items_reader *r)
{
	return r->shape;
}

/* Advances pos over n bytes of text. */
static ddbc_ipos advance_pos(ddbc_ipos pos, const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (p[i] == '\n') {
			pos.line++;
			pos.column = 1;
		} else if ((p[i] & 0xC0) != 0x80) {
			pos.column++;
		}
	}
	return pos;
}

ddbc_ipos ddbc_items_offset_pos(const ddbc_item_span *span, size_t off)
{
	if (off > span->len)
		off = span->len;
	return advance_pos(span->pos, (const unsigned char *)span->data, off);
}

ddbc_ipos ddbc_items_json_error_pos(const ddbc_item_span *span, int position)
{
	size_t off = position > 0 ? (size_t)position : 0;
	if (off >= span->len)
		return ddbc_items_offset_pos(span, off > 0 ? off - 1 : 0);
	unsigned char c = (unsigned char)span->data[off];
	bool offending = (c < 0x20 && c != ' ' && c != '\t' && c != '\n' && c != '\r') || c >= 0x80;
	return ddbc_items_offset_pos(span, offending || off == 0 ? off : off - 1);
}

/* ---- recording -------------------------------------------------------------------- */

/* Appends n bytes to the recording; past the cap, sets over instead. */
static void rec_append(ddbc_items_reader *r, const unsigned char *p, size_t n)
{
	if (r->over)
		return;
	if (r->rec_len + n > r->max) {
		n = r->max - r->rec_len;
		r->over = true;
	}
	ddbc_xgrow((void **)&r->rec, &r->rec_cap, r->rec_len + n + 1, 1);
	memcpy(r->rec + r->rec_len, p, n);
	r->rec_len += n;
}

static void begin_record(ddbc_items_reader *r)
{
	r->recording = true;
	r->over = false;
	r->mark = r->pos;
	r->rec_len = 0;
}

/* Moves what the chunk holds of the recording into the buffer. */
static void flush_record(ddbc_items_reader *r)
{
	rec_append(r, r->chunk + r->mark, r->pos - r->mark);
	r->mark = r->pos;
}

/* Ends the recording; *data is the chunk itself when it holds all of it. */
static void end_record(ddbc_items_reader *r, const char **data, size_t *len)
{
	r->recording = false;
	if (r->rec_len == 0 && r->pos - r->mark <= r->max) {
		*data = (const char *)r->chunk + r->mark;
		*len = r->pos - r->mark;
		return;
	}
	flush_record(r);
	*data = r->rec;
	*len = r->rec_len;
}

/* ---- reading bytes ------------------------------------------------------------------ */

/* Reads the next chunk; false at the end of the input, on a read error,
 * or when the recording went over the cap. */
static bool refill(ddbc_items_reader *r)
{
	if (r->eof)
		return false;
	if (r->recording) {
		flush_record(r);
		r->mark = 0;
		if (r->over)
			return false;
	}
	r->pos = 0;
	r->len = ddbc_items_source_read(r->in, r->chunk, CHUNK);
	if (r->len == 0) {
		r->eof = true;
		r->read_error = ddbc_items_source_error(r->in) != NULL;
		return false;
	}
	return true;
}

static int peek(ddbc_items_reader *r)
{
	if (r->pos == r->len && !refill(r))
		return EOF;
	return r->chunk[r->pos];
}

/* Consumes the byte peek returned. */
static void take(ddbc_items_reader *r)
{
	r->at = advance_pos(r->at, r->chunk + r->pos, 1);
	r->pos++;
}

static int skip_ws(ddbc_items_reader *r)
{
	int c;
	while ((c = peek(r)) == ' ' || c == '\t' || c == '\n' || c == '\r')
		take(r);
	return c;
}

/* ---- scanning one value ---------------------------------------------------------------- */

/* The bytes scan_nested stops at, outside strings (bit 1) and inside
 * them (bit 2); every other byte only moves the column. */
#define STOP_OUT 1
#define STOP_IN 2
static const unsigned char stop[256] = {
	['\n'] = STOP_OUT | STOP_IN, ['"'] = STOP_OUT | STOP_IN, ['\\'] = STOP_IN,
	['{'] = STOP_OUT, ['['] = STOP_OUT, ['}'] = STOP_OUT, [']'] = STOP_OUT,
};

/* Consumes an object or array up to its closing bracket, strings and
 * escapes followed, from depth brackets deep (0: at the opening one).
 * Returns 0, or -1 when the input ends first; with line_items set, 1 at a
 * newline directly followed by '{' before the closing bracket (the newline
 * left unconsumed): the line was cut short, the next item begins. (At the
 * end of a chunk the '{' cannot be seen: the item then runs on to the
 * next such line.) The inner loop is the reader's hot path: it keeps the
 * position in locals, and a byte that stops nothing (the table above)
 * costs a column count and one look-up. */
static int scan_nested(ddbc_items_reader *r, int depth)
{
	bool str = false, esc = false;
	unsigned long line = r->at.line, col = r->at.column;
	for (;;) {
		if (r->pos == r->len) {
			r->at.line = line, r->at.column = col;
			if (!refill(r))
				return -1;
		}
		const unsigned char *p = r->chunk + r->pos, *end = r->chunk + r->len;
		if (esc && p < end) {
			/* the byte an escape at the end of the last chunk escapes */
			esc = false;
			if (*p != '\n') {
				col += (*p & 0xC0) != 0x80;
				p++;
			}
		}
		while (p < end) {
			unsigned char c = *p++;
			unsigned char mask = str ? STOP_IN : STOP_OUT;
			if (!(stop[c] & mask)) {
				col += (c & 0xC0) != 0x80;
				continue;
			}
			if (c == '\n') {
				if (r->line_items && p < end && *p == '{') {
					r->pos = (size_t)(p - 1 - r->chunk);
					r->at.line = line, r->at.column = col;
					return 1;
				}
				line++, col = 1;
				continue;
			}
			col++;
			if (str) {
				if (c == '"') {
					str = false;
				} else if (p == end) {
					esc = true;   /* c is '\\': its byte is in the next chunk */
				} else if (*p != '\n') {
					/* a newline after '\\' is still a newline */
					col += (*p & 0xC0) != 0x80;
					p++;
				}
				continue;
			}
			if (c == '"') {
				str = true;
			} else if (c == '{' || c == '[') {
				depth++;
			} else if (--depth == 0) {
				r->pos = (size_t)(p - r->chunk);
				r->at.line = line, r->at.column = col;
				return 0;
			}
		}
		r->pos = r->len;
	}
}

/* Consumes a string scalar. Returns 0, or -1 when the input ends first. */
static int scan_string(ddbc_items_reader *r)
{
	take(r);
	bool esc = false;
	for (int c; (c = peek(r)) != EOF;) {
		take(r);
		if (esc)
			esc = false;
		else if (c == '\\')
			esc = true;
		else if (c == '"')
			return 0;
	}
	return -1;
}

static bool ends_scalar(int c)
{
	return c == EOF || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' ||
	       c == ']' || c == '}' || c == '[' || c == '{' || c == '"' || c == ':';
}

/* Consumes one value starting at the current byte (not whitespace).
 * Returns 0, or -1 when the input ends inside it (1: a line item cut short,
 * see scan_nested). A number, true, false or
 * null ends at the first byte that cannot continue it. */
static int scan_value(ddbc_items_reader *r)
{
	int c = peek(r);
	if (c == '{' || c == '[')
		return scan_nested(r, 0);
	if (c == '"')
		return scan_string(r);
	take(r);
	while (!ends_scalar(peek(r)))
		take(r);
	return r->over || r->read_error ? -1 : 0;
}

/* ---- errors ------------------------------------------------------------------------------ */

void ddbc_items_error_vset(ddbc_items_error *err, ddbc_ipos pos, const char *fmt, va_list ap)
{
	ddbc_strbuf_reset(&err->message);
	ddbc_strbuf_vaddf(&err->message, fmt, ap);
	err->pos = pos;
}

static advance fail(ddbc_items_reader *r, ddbc_items_error *err, ddbc_ipos pos, const char *fmt,
		    ...) __attribute__((format(printf, 4, 5)));

static advance fail(ddbc_items_reader *r, ddbc_items_error *err, ddbc_ipos pos, const char *fmt,
		    ...)
{
	va_list ap;
	va_start(ap, fmt);
	ddbc_items_error_vset(err, pos, fmt, ap);
	va_end(ap);
	r->st = ST_DONE;
	r->recording = false;
	return ADV_FAILED;
}

/* Describes byte c for a message: "'x'", "byte 0x00", "the end of the input". */
static const char *describe_byte(int c, char *buf, size_t size)
{
	if (c == EOF)
		snprintf(buf, size, "the end of the input");
	else if (c > 0x20 && c < 0x7f)
		snprintf(buf, size, "'%c'", c);
	else
		snprintf(buf, size, "byte 0x%02x", (unsigned)c);
	return buf;
}

static advance unexpected(ddbc_items_reader *r, ddbc_items_error *err, int c, const char *expected)
{
	char what[32];
	return fail(r, err, r->at, "expected %s, found %s", expected,
		    describe_byte(c, what, sizeof(what)));
}

/* Reports a value the input ended inside of (or that went over the cap,
 * or could not be read), which started at pos. jansson reads what was
 * recorded first: a syntax error inside it (a truncated line followed by
 * the next one, say) is the better message. */
static advance fail_in_value(ddbc_items_reader *r, ddbc_items_error *err, ddbc_ipos pos,
			     const char *what)
{
	if (r->read_error)
		return fail(r, err, r->at, "%s", ddbc_items_source_error(r->in));
	if (!r->recording && !r->over)
		return fail(r, err, r->at, "the input ends inside %s, which starts at %lu:%lu "
			    "(truncated?)", what, pos.line, pos.column);
	if (r->recording && !r->over)
		flush_record(r);
	json_error_t je;
	json_t *v = json_loadb(r->rec ? r->rec : "", r->rec_len, JSON_DECODE_ANY, &je);
	json_decref(v);
	if (v == NULL && json_error_code(&je) != json_error_premature_end_of_input) {
		ddbc_item_span span = { r->rec, r->rec_len, 0, pos, NULL, false };
		return fail(r, err, ddbc_items_json_error_pos(&span, je.position), "%s: %s", what,
			    je.text);
	}
	if (r->over)
		return fail(r, err, pos, "%s is larger than %zu bytes; DynamoDB items are at "
			    "most 400 KB (is a bracket missing?)", what, r->max);
	return fail(r, err, r->at, "the input ends inside %s, which starts at %lu:%lu "
		    "(truncated?)", what, pos.line, pos.column);
}

/* Parses the recorded bytes of a skipped value, so that they are JSON. */
static advance check_skipped(ddbc_items_reader *r, ddbc_items_error *err, const char *data,
			     size_t len, ddbc_ipos pos, const char *key)
{
	json_error_t je;
	json_t *v = json_loadb(data, len, JSON_DECODE_ANY, &je);
	if (v) {
		json_decref(v);
		return ADV_ON;
	}
	ddbc_item_span span = { data, len, 0, pos, NULL, false };
	return fail(r, err, ddbc_items_json_error_pos(&span, je.position),
		    "the scan result's '%s': %s", key, je.text);
}

/* ---- the structure ------------------------------------------------------------------------- */

/* Consumes a member name; key receives up to KEY_MAX - 1 bytes of it as
 * written (a longer one is cut, which no metadata key is). Returns 0 or -1
 * when the input ends. */
static int read_key(ddbc_items_reader *r, char *key)
{
	size_t n = 0;
	bool esc = false;
	take(r);
	for (int c; (c = peek(r)) != EOF;) {
		take(r);
		if (!esc && c == '"') {
			key[n] = '\0';
			return 0;
		}
		esc = !esc && c == '\\';
		if (n + 1 < KEY_MAX)
			key[n++] = (char)c;
	}
	key[n] = '\0';
	return -1;
}

static bool is_scan_metadata(const char *key)
{
	static const char *const keys[] = { "Count", "ScannedCount", "LastEvaluatedKey",
		"ConsumedCapacity", "NextToken", "ResponseMetadata", NULL };
	for (size_t i = 0; keys[i]; i++)
		if (!strcmp(key, keys[i]))
			return true;
	return false;
}

/* Reads one item starting at the current byte into span. */
static advance read_item(ddbc_items_reader *r, ddbc_item_span *span, ddbc_items_error *err,
			 state next)
{
	ddbc_ipos pos = r->at;
	begin_record(r);
	int rc = scan_value(r);
	if (rc >= 0)
		end_record(r, &span->data, &span->len);
	if (rc < 0 || r->over) {
		char what[48];
		snprintf(what, sizeof(what), "item %lu", r->nitems + 1);
		return fail_in_value(r, err, pos, what);
	}
	span->pos = pos;
	span->index = ++r->nitems;
	span->cut = rc == 1;
	r->st = next;
	return ADV_ITEM;
}

/* The member "Items" of a scan result: an array of items to stream. */
static advance enter_items(ddbc_items_reader *r, ddbc_items_error *err)
{
	if (skip_ws(r) != '[')
		return unexpected(r, err, peek(r), "'[': a scan result's \"Items\" is an array");
	r->array_at = r->at;
	take(r);
	r->array_in_scan = true;
	r->st = ST_ARRAY_FIRST;
	return ADV_ON;
}

/* The first member of the first object is an array: a BatchWriteItem
 * request file ({"Table": [{"PutRequest": ...}, ...], ...}) when the
 * array's first element is an object whose first member is PutRequest or
 * DeleteRequest; then its first request is read into span. Otherwise *depth
 * says how many brackets deep the scan stopped, for the item to go on. */
static advance maybe_batch(ddbc_items_reader *r, ddbc_item_span *span, ddbc_items_error *err,
			   const char *table, int *depth)
{
	ddbc_ipos array_at = r->at;
	take(r);
	*depth = 2;
	if (skip_ws(r) != '{')
		return ADV_ON;
	ddbc_ipos pos = r->at;
	flush_record(r);
	size_t start = r->rec_len;
	take(r);
	*depth = 3;
	char key[KEY_MAX];
	if (skip_ws(r) != '"' || read_key(r, key) < 0 ||
	    (strcmp(key, "PutRequest") != 0 && strcmp(key, "DeleteRequest") != 0))
		return ADV_ON;
	r->shape = DDBC_SHAPE_BATCH;
	memcpy(r->table, table, KEY_MAX);
	r->array_in_batch = true;
	r->array_at = array_at;
	if (scan_nested(r, 1) < 0)
		return fail_in_value(r, err, pos, "item 1");
	flush_record(r);
	r->recording = false;
	if (r->over)
		return fail_in_value(r, err, pos, "item 1");
	span->data = r->rec + start;
	span->len = r->rec_len - start;
	span->pos = pos;
	span->index = ++r->nitems;
	r->st = ST_ARRAY_NEXT;
	return ADV_ITEM;
}

/* The first value is an object: a scan result when its "Items" array comes
 * before any member that is not scan metadata, else the first of JSON
 * lines. Its bytes are recorded while deciding, for the item it may be. */
static advance first_object(ddbc_items_reader *r, ddbc_item_span *span, ddbc_items_error *err)
{
	ddbc_ipos pos = r->at;
	bool metadata_only = true;
	int depth = 1;
	begin_record(r);
	take(r);
	for (size_t n = 0;; n++) {
		int c = skip_ws(r);
		if (n > 0 && c == ',') {
			take(r);
			c = skip_ws(r);
		} else if (n > 0) {
			break;
		}
		char key[KEY_MAX];
		if (c != '"' || read_key(r, key) < 0 || skip_ws(r) != ':')
			break;
		take(r);
		c = skip_ws(r);
		if (metadata_only && !strcmp(key, "Items")) {
			r->recording = false;
			r->shape = DDBC_SHAPE_SCAN;
			return enter_items(r, err);
		}
		if (n == 0 && c == '[') {
			advance a = maybe_batch(r, span, err, key, &depth);
			if (a != ADV_ON)
				return a;
			break;
		}
		metadata_only = metadata_only && is_scan_metadata(key);
		ddbc_ipos vpos = r->at;
		flush_record(r);
		size_t start = r->rec_len;
		if (c == EOF || scan_value(r) < 0)
			break;
		flush_record(r);
		if (r->over)
			break;
		if (metadata_only && check_skipped(r, err, r->rec + start, r->rec_len - start, vpos,
						   key) == ADV_FAILED)
			return ADV_FAILED;
	}
	/* An item (or no JSON, which jansson will tell): the rest of it, one
	 * bracket deep and outside any string. */
	r->shape = DDBC_SHAPE_LINES;
	if (scan_nested(r, depth) < 0)
		return fail_in_value(r, err, pos, "item 1");
	end_record(r, &span->data, &span->len);
	if (r->over)
		return fail_in_value(r, err, pos, "item 1");
	r->line_items = !memchr(span->data, '\n', span->len);
	span->pos = pos;
	span->index = ++r->nitems;
	r->st = ST_LINES;
	return ADV_ITEM;
}

/* Whether the input starts with an Amazon Ion version marker, text
 * ($ion_1_0) or binary (E0 01 00 EA), as the data files of an export in
 * Ion format do: named, rather than reported as a stray byte. */
static bool is_ion(const ddbc_items_reader *r)
{
	static const char text[] = "$ion_1_0", binary[] = "\xE0\x01\x00\xEA";
	const unsigned char *p = r->chunk + r->pos;
	size_t n = r->len - r->pos;
	return (n >= 8 && !memcmp(p, text, 8)) || (n >= 4 && !memcmp(p, binary, 4));
}

static advance start(ddbc_items_reader *r, ddbc_item_span *span, ddbc_items_error *err)
{
	static const char bom[] = "\xEF\xBB\xBF";
	if (peek(r) == 0xEF && r->len - r->pos >= 3 && !memcmp(r->chunk + r->pos, bom, 3))
		r->pos += 3;
	int c = skip_ws(r);
	if (is_ion(r))
		return fail(r, err, r->at, "the input is Amazon Ion (the data file of an export in "
			    "Ion format), which check-items does not read; export the table in "
			    "DynamoDB JSON format");
	if (c == '[') {
		r->shape = DDBC_SHAPE_ARRAY;
		r->array_at = r->at;
		take(r);
		r->st = ST_ARRAY_FIRST;
		return ADV_ON;
	}
	if (c == '{') {
		r->scan_at = r->at;
		return first_object(r, span, err);
	}
	if (c == EOF) {
		r->st = ST_DONE;
		return r->read_error ? fail_in_value(r, err, r->at, "the input") : ADV_ON;
	}
	return unexpected(r, err, c, "a JSON array of items, JSON lines, a scan result "
			  "({\"Items\": [...]}) or export lines ({\"Item\": {...}})");
}

static advance after_array(ddbc_items_reader *r)
{
	r->st = r->array_in_scan ? ST_SCAN_NEXT : r->array_in_batch ? ST_BATCH_NEXT : ST_TRAILER;
	return ADV_ON;
}

static advance array_item(ddbc_items_reader *r, ddbc_item_span *span, ddbc_items_error *err,
			  bool first)
{
	int c = skip_ws(r);
	const char *closing = r->array_in_scan ? "the scan result's \"Items\" array"
			      : r->array_in_batch ? "a table's array of requests"
						  : "the array of items";
	if (c == EOF)
		return fail(r, err, r->at, "the input ends inside %s, which opens at %lu:%lu "
			    "(truncated?)", closing, r->array_at.line, r->array_at.column);
	if (c == ']' && first) {
		take(r);
		return after_array(r);
	}
	if (!first) {
		if (c == ']') {
			take(r);
			return after_array(r);
		}
		if (c != ',')
			return unexpected(r, err, c, "',' or ']' after an item");
		take(r);
		c = skip_ws(r);
		if (c == ']' || c == EOF)
			return unexpected(r, err, c, "an item after ','");
	}
	return read_item(r, span, err, ST_ARRAY_NEXT);
}

/* A member of a scan result: "Items" is streamed, the rest skipped. */
static advance scan_member(ddbc_items_reader *r, ddbc_items_error *err, bool first)
{
	int c = skip_ws(r);
	if (c == EOF)
		return fail(r, err, r->at, "the input ends inside the scan result that opens "
			    "at %lu:%lu (truncated?)", r->scan_at.line, r->scan_at.column);
	if (c == '}') {
		take(r);
		r->st = ST_SCAN_BETWEEN;
		return ADV_ON;
	}
	if (!first) {
		if (c != ',')
			return unexpected(r, err, c, "',' or '}' after a member of the scan result");
		take(r);
		c = skip_ws(r);
	}
	char key[KEY_MAX];
	if (c != '"')
		return unexpected(r, err, c, "a member name of the scan result");
	ddbc_ipos kpos = r->at;
	if (read_key(r, key) < 0)
		return fail_in_value(r, err, kpos, "a member name");
	if ((c = skip_ws(r)) != ':')
		return unexpected(r, err, c, "':' after a member name");
	take(r);
	if (!strcmp(key, "Items"))
		return enter_items(r, err);
	c = skip_ws(r);
	ddbc_ipos vpos = r->at;
	const char *data;
	size_t len;
	begin_record(r);
	if (c == EOF || scan_value(r) < 0)
		return fail_in_value(r, err, vpos, "the scan result");
	end_record(r, &data, &len);
	if (r->over)
		return fail(r, err, vpos, "the scan result's '%s' is larger than %zu bytes", key,
			    r->max);
	r->st = ST_SCAN_NEXT;
	return check_skipped(r, err, data, len, vpos, key);
}

/* A member of a BatchWriteItem request file: a table's array of requests. */
static advance batch_member(ddbc_items_reader *r, ddbc_items_error *err, bool first)
{
	int c = skip_ws(r);
	if (c == EOF)
		return fail(r, err, r->at, "the input ends inside the request file's object that "
			    "opens at %lu:%lu (truncated?)", r->scan_at.line, r->scan_at.column);
	if (c == '}') {
		take(r);
		r->st = ST_BATCH_BETWEEN;
		return ADV_ON;
	}
	if (!first) {
		if (c != ',')
			return unexpected(r, err, c, "',' or '}' after a table's requests");
		take(r);
		c = skip_ws(r);
	}
	if (c != '"')
		return unexpected(r, err, c, "a table name");
	ddbc_ipos kpos = r->at;
	if (read_key(r, r->table) < 0)
		return fail_in_value(r, err, kpos, "a table name");
	if ((c = skip_ws(r)) != ':')
		return unexpected(r, err, c, "':' after a table name");
	take(r);
	if (skip_ws(r) != '[')
		return unexpected(r, err, peek(r), "'[': a table's requests are an array");
	r->array_at = r->at;
	take(r);
	r->st = ST_ARRAY_FIRST;
	return ADV_ON;
}

/* After a scan result or request file object: another, or the end. */
static advance between(ddbc_items_reader *r, ddbc_items_error *err, const char *what,
		       state next)
{
	int c = skip_ws(r);
	if (c == EOF) {
		r->st = ST_DONE;
		return ADV_ON;
	}
	if (c != '{')
		return unexpected(r, err, c, what);
	r->scan_at = r->at;
	take(r);
	r->st = next;
	return ADV_ON;
}

ddbc_items_step ddbc_items_next(ddbc_items_reader *r, ddbc_item_span *span, ddbc_items_error *err)
{
	span->cut = false;
	for (;;) {
		advance rc = ADV_ON;
		int c;
		switch (r->st) {
		case ST_START: rc = start(r, span, err); break;
		case ST_ARRAY_FIRST: rc = array_item(r, span, err, true); break;
		case ST_ARRAY_NEXT: rc = array_item(r, span, err, false); break;
		case ST_SCAN_FIRST: rc = scan_member(r, err, true); break;
		case ST_SCAN_NEXT: rc = scan_member(r, err, false); break;
		case ST_TRAILER:
			c = skip_ws(r);
			if (c != EOF)
				rc = unexpected(r, err, c, "the end of the input after the array of "
						"items");
			else
				r->st = ST_DONE;
			break;
		case ST_LINES:
			if (skip_ws(r) == EOF) {
				r->st = ST_DONE;
				break;
			}
			rc = read_item(r, span, err, ST_LINES);
			break;
		case ST_SCAN_BETWEEN:
			rc = between(r, err, "another scan result or the end of the input",
				     ST_SCAN_FIRST);
			break;
		case ST_BATCH_FIRST: rc = batch_member(r, err, true); break;
		case ST_BATCH_NEXT: rc = batch_member(r, err, false); break;
		case ST_BATCH_BETWEEN:
			rc = between(r, err, "another request file's object or the end of the "
				     "input", ST_BATCH_FIRST);
			break;
		case ST_DONE:
			if (!r->read_error)
				return DDBC_ITEMS_END;
			rc = fail(r, err, r->at, "%s", ddbc_items_source_error(r->in));
			break;
		}
		if (rc == ADV_ITEM)
			span->table = r->shape == DDBC_SHAPE_BATCH ? r->table : NULL;
		if (rc != ADV_ON)
			return rc == ADV_ITEM ? DDBC_ITEMS_ITEM : DDBC_ITEMS_BAD;
	}
}
