/* lsp_complete.c - completion
 *
 * What is offered depends on where the cursor is, read from the line and
 * the keys above it (the buffer may not parse while it is typed): the
 * attributes inside a template's `{`, the key attributes under a
 * pattern's `key:`, index, table and entity names after `index:`,
 * `table:` and `entities:`, rule ids after `ddbc-ignore:`, and the
 * format's field names where a field goes (the loader's own lists,
 * input/load.h). The names come from the model of the last text checked.
 */
#include "lsp/lsp_int.h"
#include "input/load.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* LSP's CompletionItemKind. */
enum { KIND_FIELD = 5, KIND_CLASS = 7, KIND_MODULE = 9, KIND_PROPERTY = 10, KIND_VALUE = 12,
       KIND_VARIABLE = 6 };

typedef struct items {
	json_t *list;
	const char *prefix;      /* what is typed of the name already */
	size_t nprefix;
} items;

static void offer(items *it, const char *label, int kind, const char *detail)
{
	if (!label || strncmp(label, it->prefix, it->nprefix))
		return;
	size_t n = json_array_size(it->list);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(json_string_value(json_object_get(json_array_get(it->list, i), "label")),
			    label))
			return;
	json_t *one = json_pack("{s:s, s:i}", "label", label, "kind", kind);
	if (detail)
		json_object_set_new(one, "detail", json_string(detail));
	json_array_append_new(it->list, one);
}

static void offer_entity_attrs(items *it, const ddbc_entity *e)
{
	for (size_t i = 0; i < e->nattrs; i++)
		offer(it, e->attrs[i].name.s, KIND_PROPERTY, ddbc_type_long(e->attrs[i].type));
}

/* The attributes of what a line is in: its entity, or the entities its
 * pattern (or table) holds. */
static void offer_scope_attrs(items *it, const lsp_scope *sc)
{
	if (sc->entity) {
		offer_entity_attrs(it, sc->entity);
		return;
	}
	for (size_t i = 0; sc->pattern && i < sc->pattern->nmatched; i++)
		offer_entity_attrs(it, sc->pattern->matched[i]);
	for (size_t i = 0; sc->table && i < sc->table->nentities; i++)
		offer_entity_attrs(it, sc->table->entities[i]);
}

static void offer_key_attrs(items *it, const lsp_scope *sc)
{
	const ddbc_pattern *p = sc->pattern;
	const ddbc_index *ix = p && p->index ? p->index : sc->table ? &sc->table->primary : NULL;
	for (size_t i = 0; ix && i < ix->npk; i++)
		offer(it, ix->pk[i].s, KIND_PROPERTY, "partition key");
	for (size_t i = 0; ix && i < ix->nsk; i++)
		offer(it, ix->sk[i].s, KIND_PROPERTY, "sort key");
}

static void offer_indexes(items *it, const ddbc_design *g, const ddbc_table *only)
{
	for (size_t t = 0; t < g->ntables; t++) {
		const ddbc_table *tb = &g->tables[t];
		if (only && tb != only)
			continue;
		for (size_t i = 0; i < tb->ngsi; i++)
			offer(it, tb->gsi[i].name.s, KIND_MODULE, "global secondary index");
		for (size_t i = 0; i < tb->nlsi; i++)
			offer(it, tb->lsi[i].name.s, KIND_MODULE, "local secondary index");
	}
}

static void offer_entities(items *it, const ddbc_design *g)
{
	for (size_t i = 0; i < g->nentities; i++)
		offer(it, g->entities[i].name.s, KIND_CLASS, "entity");
}

static void offer_rules(items *it)
{
	for (int i = 0; i < DDBC_RULE_COUNT; i++) {
		const ddbc_rule_info *r = ddbc_rule_get((ddbc_rule)i);
		if (!r->fixed && r->kind != DDBC_RULE_KIND_DIFF)
			offer(it, r->id, KIND_VALUE, r->summary);
	}
}

static void offer_fields(items *it, const char *where)
{
	for (const ddbc_field_list *f = ddbc_design_fields; f->where; f++)
		if (!strcmp(f->where, where))
			for (size_t i = 0; i < f->n; i++)
				offer(it, f->names[i], KIND_FIELD, NULL);
}

/* ---- reading the lines ---- */

static size_t indent_of(const char *text, size_t len)
{
	size_t i = 0;
	while (i < len && (text[i] == ' ' || text[i] == '-'))
		i++;
	return i;
}

/* The key a line sets ("name" of "  name: ..."), copied into out. */
static bool key_of(const char *text, size_t len, strbuf *out)
{
	size_t i = indent_of(text, len), s = i;
	if (i < len && (text[i] == '"' || text[i] == '\''))
		s = ++i;
	while (i < len && text[i] != ':' && text[i] != '"' && text[i] != '\'' && text[i] != '#')
		i++;
	size_t e = i;
	if (i < len && (text[i] == '"' || text[i] == '\''))
		i++;
	if (i >= len || text[i] != ':' || e == s)
		return false;
	ddbc_strbuf_reset(out);
	ddbc_strbuf_add(out, text + s, e - s);
	return true;
}

/* The keys of the mappings that enclose a place at indentation indent on
 * line, innermost first, up to depth of them. */
static size_t parents(const lsp_doc *doc, unsigned line, size_t indent, strbuf *keys,
		      size_t depth)
{
	size_t n = 0;
	for (unsigned l = line; l > 1 && n < depth && indent > 0; l--) {
		size_t len;
		const char *text = ddbc_lsp_doc_line(doc, l - 1, &len);
		if (!text)
			break;
		size_t in = indent_of(text, len);
		if (in >= len || text[in] == '#' || in >= indent)
			continue;
		if (key_of(text, len, &keys[n])) {
			n++;
			indent = in;
		}
	}
	return n;
}

/* Where a field name goes, from the keys above: which part it is in. */
static const char *part_of(const strbuf *k, size_t n)
{
	static const char *const by_grandparent[][2] = {
		{ "tables", "table" }, { "gsi", "gsi" }, { "lsi", "lsi" },
		{ "entities", "entity" }, { "attributes", "attribute" },
		{ "access_patterns", "access_pattern" },
	};
	if (n == 0)
		return "root";
	for (size_t i = 0; n >= 2 && i < sizeof by_grandparent / sizeof by_grandparent[0]; i++)
		if (!strcmp(k[1].buf, by_grandparent[i][0]))
			return by_grandparent[i][1];
	return NULL;
}

/* The unclosed `{` of a template before the cursor: its offset, or -1.
 * A flow mapping's `{` is followed by a space; a placeholder's by its
 * name. */
static long open_placeholder(const char *text, size_t byte)
{
	for (size_t i = byte; i > 0; i--) {
		char c = text[i - 1];
		if (c == '}' || c == ' ' || c == ',' || c == ':' || c == '\'' || c == '"')
			return -1;
		if (c == '{')
			return (long)(i - 1);
	}
	return -1;
}

/* Whether a name typed at start is a key of a flow mapping ("{ " or ", "
 * before it). */
static bool flow_key(const char *text, size_t start)
{
	while (start > 0 && text[start - 1] == ' ')
		start--;
	return start > 0 && (text[start - 1] == '{' || text[start - 1] == ',') &&
	       memchr(text, '{', start);
}

/* Completion after "key: " on the line: the value of field key. */
static bool complete_value(items *it, const lsp_doc *doc, const lsp_scope *sc, const char *key)
{
	const ddbc_design *g = ddbc_lsp_doc_model(doc);
	if (!strcmp(key, "index"))
		offer_indexes(it, g, sc->table);
	else if (!strcmp(key, "table"))
		for (size_t i = 0; i < g->ntables; i++)
			offer(it, g->tables[i].name.s, KIND_MODULE, "table");
	else if (!strcmp(key, "entities"))
		offer_entities(it, g);
	else if (!strcmp(key, "returns") || !strcmp(key, "partition_key") ||
		 !strcmp(key, "sort_key") || !strcmp(key, "projection") || !strcmp(key, "ttl"))
		offer_scope_attrs(it, sc);
	else
		return false;
	return true;
}

static void complete(items *it, const lsp_at *at, size_t word_start)
{
	const lsp_doc *doc = at->doc;
	const ddbc_design *g = ddbc_lsp_doc_model(doc);
	lsp_scope sc = g ? ddbc_lsp_scope_of(g, at->line) : (lsp_scope){ NULL, NULL, NULL };
	const char *hash = memchr(at->text, '#', at->byte);
	const char *ignore = hash ? strstr(hash, "ddbc-ignore:") : NULL;
	if (ignore && (size_t)(ignore - at->text) < at->byte) {
		offer_rules(it);
		return;
	}
	if (!g)
		return;
	if (open_placeholder(at->text, at->byte) >= 0) {
		offer_scope_attrs(it, &sc);
		return;
	}
	strbuf keys[4] = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT };
	strbuf own = STRBUF_INIT;
	size_t colon = 0;
	if (key_of(at->text, at->len, &own))
		colon = (size_t)((const char *)memchr(at->text, ':', at->len) - at->text);
	bool value = own.len && word_start > colon;
	bool flow = value && flow_key(at->text, word_start);
	if (flow || !value || !complete_value(it, doc, &sc, own.buf)) {
		size_t n;
		if (flow) {
			/* "PK: { type: S, te": a field of PK, whose parents are the line's. */
			ddbc_strbuf_add(&keys[0], own.buf, own.len);
			n = 1 + parents(doc, at->line, indent_of(at->text, at->len), keys + 1, 3);
			value = false;
		} else {
			n = parents(doc, at->line, indent_of(at->text, word_start), keys, 4);
		}
		const char *part = part_of(keys, n);
		if (n && !strcmp(keys[0].buf, "key"))
			offer_key_attrs(it, &sc);
		else if (n && (!strcmp(keys[0].buf, "returns") || !strcmp(keys[0].buf, "projection")))
			offer_scope_attrs(it, &sc);
		else if (n && !strcmp(keys[0].buf, "entities") && n >= 2 &&
			 strcmp(keys[1].buf, "access_patterns") != 0 && sc.pattern)
			offer_entities(it, g);
		else if (part && !value)
			offer_fields(it, part);
	}
	for (size_t i = 0; i < 4; i++)
		ddbc_strbuf_release(&keys[i]);
	ddbc_strbuf_release(&own);
}

json_t *ddbc_lsp_completion(lsp_server *s, const json_t *params, const char **why)
{
	lsp_at at;
	if (ddbc_lsp_at_of(s, params, &at, why) < 0)
		return NULL;
	size_t start = at.byte;
	while (start > 0 && !strchr(" \t{[,:\"'", at.text[start - 1]))
		start--;
	char *prefix = ddbc_xstrndup(at.text + start, at.byte - start);
	items it = { json_array(), prefix, strlen(prefix) };
	complete(&it, &at, start);
	free(prefix);
	return json_pack("{s:b, s:o}", "isIncomplete", 0, "items", it.list);
}
