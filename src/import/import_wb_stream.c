/* import_wb_stream.c - a Workbench model read without holding its items
 *
 * A model's sample items (TableData) are most of its bytes, and jansson's
 * tree of a JSON value is some six times its text: a model read whole is
 * held at that size beside the design made of it. So the text is scanned
 * for the TableData lists of DataModel[] and DataModel[].TableFacets[];
 * each item of them is parsed alone, turned into its plain item (or the
 * reason it is left out), kept as compact text until its table is read
 * and freed; then the lists' text is blanked and the rest, the model's
 * skeleton, parsed whole. The design's entities are written to text a
 * table at a time (ddbc_import_wb_settle), so neither the model nor the
 * design is ever held whole as a tree. Blanking keeps every line
 * and column, so the skeleton's errors are said where they are.
 *
 * Anything unexpected (an item that is not an object or does not parse,
 * text the scan cannot follow, a skeleton that does not parse) makes the
 * reader parse the file whole, as any JSON source is read: its errors are
 * then jansson's own, at their own place.
 */
#include "import/import_int.h"
#include "import/import_wb.h"
#include "util/source.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

/* The items read of one TableData list, in its order: a plain item's
 * compact JSON text, or {"why": why that item is left out}. */
struct region {
	size_t start, end;   /* the list's text, between its brackets */
	json_t *items;
	int table, facet;    /* DataModel[table], its TableFacets[facet] or -1;
			      * FACETS: the list is the table's TableFacets,
			      * items its facets read (struct facet_entry) */
};

/* A region's facet value: its TableFacets list read a facet at a time. */
#define FACETS (-2)

struct scan {
	char *s;
	size_t n, i;
	struct region *r;
	size_t nr, cap;
	bool bad;            /* the scan could not follow the text */
};

static void ws(struct scan *sc)
{
	while (sc->i < sc->n && strchr(" \t\r\n", sc->s[sc->i]) && sc->s[sc->i])
		sc->i++;
}

static bool at(struct scan *sc, char c)
{
	ws(sc);
	return sc->i < sc->n && sc->s[sc->i] == c;
}

/* Whether a list or object goes on: not bad, not at its end byte, and the
 * last step moved (from was where it began), so no input loops. */
static bool more(struct scan *sc, char end, size_t *from)
{
	ws(sc);
	if (sc->i >= sc->n || (*from != (size_t)-1 && sc->i == *from))
		sc->bad = true;
	*from = sc->i;
	return !sc->bad && sc->s[sc->i] != end;
}

/* Skips a string at i; its contents (without quotes) in *k, *klen. */
static void string(struct scan *sc, const char **k, size_t *klen)
{
	size_t b = ++sc->i;
	while (sc->i < sc->n && sc->s[sc->i] != '"')
		sc->i += sc->s[sc->i] == '\\' ? 2 : 1;
	if (sc->i >= sc->n) {
		sc->bad = true;
		return;
	}
	*k = sc->s + b;
	*klen = sc->i - b;
	sc->i++;
}

/* Skips any value: strings whole, brackets counted, a scalar to the next
 * delimiter (jansson judges its bytes when it parses the skeleton). */
static void skip(struct scan *sc)
{
	ws(sc);
	int depth = 0;
	while (sc->i < sc->n) {
		char c = sc->s[sc->i];
		if (c == '"') {
			const char *k;
			size_t kl;
			string(sc, &k, &kl);
			if (sc->bad || !depth)
				return;
			continue;
		}
		if (c == '{' || c == '[') {
			depth++;
		} else if (c == '}' || c == ']') {
			if (!depth)   /* the end of the container holding the value */
				return;
			if (!--depth) {
				sc->i++;
				return;
			}
		} else if (!depth && (!c || strchr(", \t\r\n", c))) {
			return;
		}
		sc->i++;
	}
	if (depth)
		sc->bad = true;
}

/* A plain item kept as its compact JSON text until its table is read: a
 * tenth of its tree's size. Takes p. */
static json_t *compact(json_t *p)
{
	char *text = json_dumps(p, JSON_COMPACT);
	json_decref(p);
	json_t *s = json_string_nocheck(text);
	free(text);
	return s;
}

static void grow(struct scan *sc)
{
	if (sc->nr == sc->cap) {
		sc->cap = sc->cap ? 2 * sc->cap : 16;
		sc->r = ddbc_xrealloc(sc->r, sc->cap * sizeof(*sc->r));
	}
}

/* Parses the items of the list whose '[' is at i into a new region. */
static void items(struct scan *sc, int table, int facet)
{
	grow(sc);
	struct region *r = &sc->r[sc->nr++];
	*r = (struct region){ ++sc->i, 0, json_array(), table, facet };
	strbuf why = STRBUF_INIT;
	size_t from = (size_t)-1;
	while (more(sc, ']', &from)) {
		if (json_array_size(r->items)) {   /* a comma before every item but the first */
			if (!at(sc, ','))
				break;
			sc->i++;
		}
		if (!at(sc, '{')) {
			sc->bad = true;
			break;
		}
		json_error_t err;
		json_t *d = json_loadb(sc->s + sc->i, sc->n - sc->i,
				       JSON_DISABLE_EOF_CHECK | JSON_REJECT_DUPLICATES, &err);
		if (!d) {
			sc->bad = true;
			break;
		}
		sc->i += (size_t)err.position;
		json_t *p = ddbc_import_plain_item_why(d, &why);
		/* A malformed item: why, and what it still shows (import_wb.h). */
		json_t *part = p ? NULL : ddbc_import_plain_part(d);
		json_decref(d);
		json_array_append_new(r->items, p ? compact(p) : json_pack("{ssso*}", "why",
									 ddbc_strbuf_str(&why),
									 "part", part));
	}
	ddbc_strbuf_release(&why);
	sc->bad = sc->bad || !at(sc, ']');
	r->end = sc->i;
	sc->i++;
}

static bool key_is(const char *k, size_t kl, const char *name)
{
	return kl == strlen(name) && !memcmp(k, name, kl);
}

/* Reads a member's name (after a comma, but for the first) and its colon;
 * false when the text is not that. */
static bool member(struct scan *sc, const char **k, size_t *kl)
{
	if (at(sc, ','))
		sc->i++;
	if (!at(sc, '"')) {
		sc->bad = true;
		return false;
	}
	string(sc, k, kl);
	if (sc->bad || !at(sc, ':')) {
		sc->bad = true;
		return false;
	}
	sc->i++;
	return true;
}

/* What the object being walked is: the model, a table of DataModel, a facet. */
enum level { MODEL, TABLE, FACET };

static void walk(struct scan *sc, enum level level, int table, int facet);
static void facet_list(struct scan *sc, int table);

/* Walks each object of the list at i at level (DataModel's tables, a
 * table's facets). */
static void list(struct scan *sc, enum level level, int table)
{
	sc->i++;
	size_t from = (size_t)-1;
	for (int j = 0; more(sc, ']', &from); j++) {
		if (j && at(sc, ','))
			sc->i++;
		walk(sc, level, level == TABLE ? j : table, level == FACET ? j : -1);
	}
	sc->i++;
}

/* Facet j of a table, as its text s[start, end) without the items of its
 * TableData (regions from first on, read already), parsed alone: the
 * entry [compact text, items or null] of a FACETS region (import_wb.h),
 * or NULL when it is not an object of the model's shape (the facets then
 * stay in the skeleton, checked and read as they are). */
/* Copies s[0, n) to out without the whitespace between JSON tokens: the
 * same value in fewer bytes, made without a parse and a print of it.
 * *in_string carries whether the text so far ends inside a string.
 * Returns the end of what it wrote. */
static char *copy_compact(char *out, const char *s, size_t n, bool *in_string)
{
	bool in = *in_string;
	for (size_t i = 0; i < n; i++) {
		char ch = s[i];
		if (in) {
			if (ch == '\\' && i + 1 < n)
				*out++ = s[i++];
			else if (ch == '"')
				in = false;
		} else if (ch == '"') {
			in = true;
		} else if (ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t') {
			continue;
		}
		*out++ = s[i];
	}
	*in_string = in;
	return out;
}

static json_t *facet_entry(struct scan *sc, size_t start, size_t end, size_t first)
{
	if (sc->s[start] != '{' || sc->nr - first > 1)
		return NULL;
	char *text = ddbc_xmalloc(end - start + 1), *w = text;
	size_t from = start;
	bool in_string = false;
	for (size_t k = first; k < sc->nr; k++) {
		w = copy_compact(w, sc->s + from, sc->r[k].start - from, &in_string);
		from = sc->r[k].end;
	}
	w = copy_compact(w, sc->s + from, end - from, &in_string);
	size_t len = (size_t)(w - text);
	json_error_t err;
	json_t *f = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
	bool fits = f && ddbc_import_wb_facet_fits(f);
	json_decref(f);
	/* Kept as the text it was read from, compacted: its parse, done again
	 * when its entity is made, gives the same tree. */
	json_t *c = fits ? json_stringn_nocheck(text, len) : NULL;
	free(text);
	if (!c)
		return NULL;
	return sc->nr > first ? json_pack("[o,O]", c, sc->r[first].items) : c;
}

/* Walks the table's TableFacets list at i. A facet's tree is some four
 * times its text and every facet waits for the table's items: so each is
 * read alone and kept as its compact text, the list's text blanked as an
 * item list's is. */
static void facet_list(struct scan *sc, int table)
{
	size_t open = sc->i++, first = sc->nr, from = (size_t)-1;
	json_t *entries = json_array();
	for (int j = 0; more(sc, ']', &from); j++) {
		if (j && at(sc, ','))
			sc->i++;
		ws(sc);
		size_t start = sc->i, mark = sc->nr;
		walk(sc, FACET, table, j);
		json_t *e = entries && !sc->bad ? facet_entry(sc, start, sc->i, mark) : NULL;
		if (!e) {
			json_decref(entries);
			entries = NULL;
		} else {
			json_array_append_new(entries, e);
		}
	}
	if (!sc->bad && entries && at(sc, ']')) {
		for (size_t k = first; k < sc->nr; k++)   /* the entries hold them now */
			json_decref(sc->r[k].items);
		sc->nr = first;
		grow(sc);
		sc->r[sc->nr++] = (struct region){ open + 1, sc->i, entries, table, FACETS };
		entries = NULL;
	}
	json_decref(entries);
	sc->i++;
}

/* Walks the members of the object at i: the model's DataModel list, a
 * table's TableFacets, and the TableData lists of tables and facets. */
static void walk(struct scan *sc, enum level level, int table, int facet)
{
	if (!at(sc, '{')) {
		if (level == MODEL)
			sc->bad = true;
		else
			skip(sc);
		return;
	}
	sc->i++;
	size_t from = (size_t)-1;
	while (more(sc, '}', &from)) {
		const char *k = NULL;
		size_t kl = 0;
		if (!member(sc, &k, &kl))
			return;
		if (level == MODEL && key_is(k, kl, "DataModel") && at(sc, '['))
			list(sc, TABLE, -1);
		else if (level == TABLE && key_is(k, kl, "TableFacets") && at(sc, '['))
			facet_list(sc, table);
		else if (level != MODEL && key_is(k, kl, "TableData") && at(sc, '['))
			items(sc, table, facet);
		else
			skip(sc);
	}
	sc->i++;
}

/* Blanks the regions' text: a space for each character (UTF-8 sequences
 * shrink to one byte, as jansson counts columns in characters), newlines
 * kept. Returns the new length. */
static size_t blank(struct scan *sc)
{
	size_t w = 0, r = 0;
	for (size_t k = 0; k < sc->nr; k++) {
		memmove(sc->s + w, sc->s + r, sc->r[k].start - r);
		w += sc->r[k].start - r;
		for (r = sc->r[k].start; r < sc->r[k].end; r++)
			if (((unsigned char)sc->s[r] & 0xc0) != 0x80)
				sc->s[w++] = sc->s[r] == '\n' ? '\n' : ' ';
	}
	memmove(sc->s + w, sc->s + r, sc->n - r);
	return w + sc->n - r;
}

/* The skeleton's array of region r: DataModel[table](.TableFacets[facet]).TableData. */
static json_t *region_array(json_t *root, const struct region *r)
{
	json_t *t = json_array_get(json_object_get(root, "DataModel"), (size_t)r->table);
	if (r->facet >= 0)
		t = json_array_get(json_object_get(t, "TableFacets"), (size_t)r->facet);
	json_t *a = json_object_get(t, r->facet == FACETS ? "TableFacets" : "TableData");
	return json_is_array(a) && !json_array_size(a) ? a : NULL;
}

static void address(strbuf *b, const json_t *a)
{
	ddbc_strbuf_reset(b);
	ddbc_strbuf_addf(b, "%p", (const void *)a);
}

/* Registers each region's items under its skeleton array; false when a
 * region has none (the skeleton is not what the scan saw). */
static bool register_regions(json_t *prepared, json_t *root, struct scan *sc)
{
	strbuf b = STRBUF_INIT;
	bool ok = true;
	for (size_t k = 0; k < sc->nr && ok; k++) {
		json_t *a = region_array(root, &sc->r[k]);
		address(&b, a);
		ok = a && !json_object_get(prepared, ddbc_strbuf_str(&b));
		if (ok)
			json_object_set(prepared, ddbc_strbuf_str(&b), sc->r[k].items);
	}
	ddbc_strbuf_release(&b);
	return ok;
}

/* The text the scan works on: the source's, its numbers marked
 * (util/json_number.h), in a copy the scan may blank. */
static char *working_text(const ddbc_source *src, size_t *len)
{
	strbuf marked = STRBUF_INIT;
	if (!ddbc_import_mark_numbers(src->text, src->len, &marked))
		ddbc_strbuf_add(&marked, src->text, src->len);
	*len = marked.len;
	return ddbc_strbuf_detach(&marked);
}

json_t *ddbc_import_wb_load(ddbc_import_run *run, const char *file)
{
	ddbc_source *src = ddbc_source_read(file);
	if (!src) {
		ddbc_import_fail(file, "cannot read: %s", strerror(errno));
		return NULL;
	}
	size_t len = 0;
	char *text = working_text(src, &len);
	/* The source is read again only if the scan gives up: its pages need
	 * not stay in memory beside the copy. */
	ddbc_source_evict(src, src->len);
	struct scan sc = { text, len, 0, NULL, 0, 0, false };
	walk(&sc, MODEL, -1, -1);
	json_t *root = NULL;
	if (!sc.bad && sc.nr) {
		json_error_t err;
		root = json_loadb(text, blank(&sc), JSON_REJECT_DUPLICATES, &err);
	}
	free(text);
	/* Prepared lists by the address of their (empty) skeleton array. */
	if (!run->prepared)
		run->prepared = json_object();
	if (root && !register_regions(run->prepared, root, &sc)) {
		json_decref(root);
		root = NULL;
		json_object_clear(run->prepared);
	}
	for (size_t k = 0; k < sc.nr; k++)
		json_decref(sc.r[k].items);
	free(sc.r);
	/* Read whole from the text as it is (standard input is read once). */
	if (!root)
		root = ddbc_import_parse_json(file, src->text, src->len);
	ddbc_source_free(src);
	return root;
}

json_t *ddbc_import_wb_take(ddbc_import_run *run, const json_t *data)
{
	json_t *prepared = run->prepared;
	if (!prepared)
		return NULL;
	strbuf b = STRBUF_INIT;
	address(&b, data);
	json_t *items = json_incref(json_object_get(prepared, ddbc_strbuf_str(&b)));
	json_object_del(prepared, ddbc_strbuf_str(&b));
	ddbc_strbuf_release(&b);
	return items;
}

json_t *ddbc_import_wb_facet(ddbc_import_run *run, const json_t *f)
{
	if (json_is_object(f))
		return json_incref((json_t *)f);
	const json_t *text = json_is_array(f) ? json_array_get(f, 0) : f;
	const json_t *items = json_array_get(f, 1);
	json_t *tree = json_loadb(json_string_value(text), json_string_length(text), 0, NULL);
	json_t *data = json_object_get(tree, "TableData");
	if (json_is_array(items) && json_is_array(data)) {
		strbuf b = STRBUF_INIT;
		address(&b, data);
		json_object_set(run->prepared, ddbc_strbuf_str(&b), (json_t *)items);
		ddbc_strbuf_release(&b);
	}
	return tree;
}

void ddbc_import_wb_settle(ddbc_import_run *run, json_t *design, char **last, size_t mark)
{
	json_t *entities = json_object_get(design, "entities");
	void *it = *last ? json_object_iter_next(entities, json_object_iter_at(entities, *last))
			 : json_object_iter(entities);
	for (; it; it = json_object_iter_next(entities, it)) {
		const char *name = json_object_iter_key(it);
		if (ddbc_import_written(run, json_object_iter_value(it)))
			continue;
		/* Members of the design's entities are written at indent 2. */
		json_t *text = ddbc_import_yaml_member(run, entities, name, 2);
		if (!text)
			return;
		ddbc_import_set_written(run, text);
		json_object_iter_set_new(entities, it, text);
		free(*last);
		*last = ddbc_xstrdup(name);
	}
	/* The comments set since mark were on the entities just written. */
	ddbc_import_comments_forget(run, mark);
}
