/* emit_json_queries.c - one DynamoDB request per access pattern
 *
 * `ddbc export --format queries` writes, per pattern, the request exactly as
 * the SDKs and `aws dynamodb query --cli-input-json` take it: Query,
 * GetItem, Scan, PutItem, UpdateItem or DeleteItem. Key condition values
 * are the pattern's templates rendered with parameter values from, in this
 * order: --param NAME=VALUE, the pattern's `example`, the first example item
 * of a matched entity that has an attribute of that name, and that
 * attribute's own `example`. A parameter with none of these is an
 * unresolved-reference error naming it and the pattern, at the condition.
 *
 * Attribute names go into expressions as they are when they match
 * [A-Za-z][A-Za-z0-9]* and are no reserved word; any other name goes
 * through an ExpressionAttributeNames placeholder, in key conditions and in
 * a write's `condition` alike; a ':name' in the condition takes parameter
 * name's value (typed as the matched entity's attribute of that name, else
 * as the YAML value, else S). A read's `returns` becomes its
 * ProjectionExpression, named the same way. PutItem's Item is the matched
 * entity's first example item with the pattern's parameters and keys
 * rendered in, then the keys of every index of the table that the entity
 * has and the example lacks, where its templates can build them (see
 * put_keys); an UpdateItem carries Key (and ConditionExpression): its
 * UpdateExpression is the caller's, since a design does not say what an
 * update changes.
 *
 * Every parameter value is held to the places the pattern puts it
 * (model/params.h) before it is sent: a --param value that does not fit
 * stops the run before anything is written (a usage error of that command
 * line), and a value from the design that does not fit is not exported.
 */
#include "emit/emit.h"
#include "util/error.h"
#include "model/request.h"
#include "emit/emit_json.h"
#include "model/expr_names.h"
#include "model/params.h"
#include "model/semantics.h"
#include "util/utf8.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* One request being built: its expression names and values, and whether a
 * parameter had no value. */
typedef struct request {
	const ddbc_design *g;
	const ddbc_pattern *p;
	const ddbc_request *req;     /* p's, as the model derived it */
	const ddbc_export_opts *o;
	ddbc_diags *d;
	ddbc_arena *arena;
	json_t *names;       /* ExpressionAttributeNames: placeholder -> name */
	json_t *values;      /* ExpressionAttributeValues: placeholder -> value */
	json_t *reported;    /* parameters reported without a value */
	json_t *checked;     /* parameters whose value was found not to fit */
	json_t *refs;        /* when not NULL: each value placeholder, in order */
	bool failed;
	ddbc_query_sent *sent;   /* when not NULL: what the request sends of its key */
} request;

static bool is_alpha(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

static bool is_alnum(char c)
{
	return is_alpha(c) || (c >= '0' && c <= '9');
}

/* ---- parameter values ---------------------------------------------------------------- */

static bool usable(const ddbc_pval *v)
{
	return v && ddbc_pval_kind(v) == DDBC_NODE_SCALAR && !ddbc_pval_is_null(v);
}

/* The value the command line gives parameter name (the last --param of
 * it), or NULL. */
static const char *cli_value(const ddbc_export_opts *o, const char *name, size_t len)
{
	for (size_t i = o ? o->nparams : 0; i-- > 0;)
		if (strlen(o->params[i].name) == len && !memcmp(o->params[i].name, name, len))
			return o->params[i].value;
	return NULL;
}

/* Appends parameter name's value to out; false when it has none. *node
 * (when not NULL) receives the YAML value it came from, NULL for --param. */
static bool param_value(const request *r, const char *name, strbuf *out, const ddbc_pval **node)
{
	if (node)
		*node = NULL;
	/* The last --param of a name wins, as with any repeated option. */
	for (size_t i = r->o ? r->o->nparams : 0; i-- > 0;) {
		if (!strcmp(r->o->params[i].name, name)) {
			ddbc_strbuf_addstr(out, r->o->params[i].value);
			return true;
		}
	}
	/* Then the design's own values, as the rules take them. */
	const ddbc_pval *v = ddbc_pattern_param_node(r->p, name);
	if (!v)
		return false;
	ddbc_pval_scalar_text(v, out);
	if (node)
		*node = v;
	return true;
}

static void report_missing(request *r, const char *name, ddbc_loc loc)
{
	r->failed = true;
	if (json_object_get(r->reported, name))
		return;
	json_object_set_new(r->reported, name, json_true());
	ddbc_diag_add(r->d, DDBC_RULE_UNRESOLVED_REFERENCE, loc,
		      "parameter '%s' of access pattern '%s' has no value; pass --param "
		      "%s=VALUE, or give it in the pattern's example", name, r->p->id.s, name);
}

/* The type of a condition's ':name' value: that of a matched entity's
 * attribute of the name, else what the YAML value is, else S. */
static ddbc_type value_type(const request *r, const char *name, const ddbc_pval *node)
{
	const ddbc_attr *a = ddbc_pattern_named_attr(r->p, name, strlen(name));
	if (a)
		return a->type;
	if (node && (ddbc_pval_scalar(node) == DDBC_SCALAR_INT ||
		     ddbc_pval_scalar(node) == DDBC_SCALAR_FLOAT))
		return DDBC_TYPE_N;
	if (node && ddbc_pval_scalar(node) == DDBC_SCALAR_BOOL)
		return DDBC_TYPE_BOOL;
	return DDBC_TYPE_S;
}

static void padded_value(request *r, const char *name, strbuf *val);

/* Gives the condition's value placeholder ref (":name") the parameter
 * name's value, typed. */
static void condition_value(request *r, const char *ref)
{
	if (json_object_get(r->values, ref))
		return;
	const char *name = ref + 1;
	strbuf val = STRBUF_INIT;
	const ddbc_pval *node;
	if (!param_value(r, name, &val, &node)) {
		report_missing(r, name, r->p->condition_loc);
		ddbc_strbuf_release(&val);
		return;
	}
	ddbc_type t = value_type(r, name, node);
	if (t == DDBC_TYPE_N)
		padded_value(r, name, &val);
	json_t *v;
	if (t == DDBC_TYPE_BOOL) {
		v = json_object();
		json_object_set_new(v, "BOOL", json_boolean(!strcmp(ddbc_strbuf_str(&val), "true")));
	} else {
		v = ddbc_json_key_value(ddbc_strbuf_str(&val), val.len, t);
	}
	json_object_set_new(r->values, ref, v);
	ddbc_strbuf_release(&val);
}

/* A parameter's or an example's text as a placeholder's value
 * (ddbc_param_tvalue), in the request's arena. */
static ddbc_tvalue text_value(request *r, const ddbc_segment *seg, const strbuf *text)
{
	return ddbc_param_tvalue(r->arena, seg, text->len ? text->buf : "", text->len);
}

/* A condition value being rendered: every parameter without a value is
 * reported, and rendering goes on with it empty. */
typedef struct cond_render {
	request *r;
	ddbc_loc loc;
} cond_render;

static ddbc_tvalue param_of(void *ctx, const ddbc_segment *seg)
{
	cond_render *c = ctx;
	char *name = ddbc_arena_strndup(c->r->arena, seg->text, seg->len);
	strbuf val = STRBUF_INIT;
	if (!param_value(c->r, name, &val, NULL))
		report_missing(c->r, name, c->loc);
	ddbc_tvalue v = text_value(c->r, seg, &val);
	ddbc_strbuf_release(&val);
	return v;
}

/* A Number parameter that a key of the request pads ({seq:04}) is sent
 * in a condition as that key writes it ("0003"), whether its value was
 * given as 3 or "0003": one parameter, one text (the key modules send
 * the same). A value the placeholder cannot take is left as it is. */
static void padded_value(request *r, const char *name, strbuf *val)
{
	const ddbc_segment *seg = ddbc_request_padded(r->req, name);
	if (!seg)
		return;
	ddbc_template one = { (ddbc_segment *)seg, 1 };
	cond_render cr = { r, r->p->condition_loc };
	strbuf out = STRBUF_INIT;
	ddbc_render_problem problem;
	if (ddbc_template_render(&one, param_of, &cr, &out, &problem) == DDBC_RENDER_OK) {
		ddbc_strbuf_reset(val);
		ddbc_strbuf_add(val, out.buf, out.len);
	}
	ddbc_strbuf_release(&out);
}

/* Records that the request sends text for value i of key attribute pos. */
static void sent_value(request *r, size_t pos, size_t i, const char *text, size_t len)
{
	if (r->sent)
		ddbc_key_sent_set(&r->sent->key, pos, i, text, len);
}

/* A condition value as a DynamoDB value of its key attribute's type: its
 * template rendered with the parameters' values (each parameter without
 * one reported), or its constant text. */
static json_t *key_value(request *r, const ddbc_req_cond *c, size_t i)
{
	strbuf sb = STRBUF_INIT;
	const ddbc_node *n = c->values[i].node;
	cond_render cr = { r, n->loc };
	ddbc_render_problem problem;
	ddbc_req_value_render(&c->values[i], param_of, &cr, &sb, &problem);
	ddbc_type type = c->type;
	sent_value(r, c->key_pos, i, ddbc_strbuf_str(&sb), sb.len);
	/* A value written without parameters is not checked as a parameter's
	 * is; a Number key must still get a number, never {"N": "abc"}. */
	if (type == DDBC_TYPE_N && !strpbrk(n->u.text, "{}") &&
	    !ddbc_number_text(ddbc_strbuf_str(&sb), sb.len)) {
		ddbc_diag_add(r->d, DDBC_RULE_PATTERN_OPERATOR_TYPE, n->loc,
			      "access pattern '%s' compares Number key '%s' with '%s', which is "
			      "not a number; write a number", r->p->id.s, c->attr, ddbc_strbuf_str(&sb));
		r->failed = true;
	}
	json_t *v = ddbc_json_key_value(ddbc_strbuf_str(&sb), sb.len, type);
	ddbc_strbuf_release(&sb);
	return v;
}

/* ---- expression names and values --------------------------------------------------- */

static const char *unique(request *r, const json_t *taken, const char *base)
{
	const char *cand = base;
	for (unsigned n = 2; json_object_get(taken, cand); n++)
		cand = ddbc_arena_printf(r->arena, "%s%u", base, n);
	return cand;
}

/* How an expression names attribute name: itself, or a '#' placeholder. */
static const char *name_ref(request *r, const char *name)
{
	if (!ddbc_name_needs_placeholder(name))
		return name;
	const char *key;
	json_t *v;
	json_object_foreach(r->names, key, v)
		if (!strcmp(json_string_value(v), name))
			return ddbc_arena_strdup(r->arena, key);
	const char *base = ddbc_name_placeholder_safe(name) ? ddbc_arena_printf(r->arena, "#%s", name) : "#attr";
	const char *ref = unique(r, r->names, base);
	json_object_set_new(r->names, ref, ddbc_json_str(name));
	return ref;
}

/* Adds value under a new ':' placeholder named after attribute attr. */
static const char *value_ref(request *r, const char *attr, const char *suffix, json_t *value)
{
	const char *base = ddbc_arena_printf(r->arena, ":%s%s", ddbc_name_placeholder_safe(attr) ? attr : "v",
					     suffix);
	const char *ref = unique(r, r->values, base);
	json_object_set_new(r->values, ref, value);
	if (r->refs)
		json_array_append_new(r->refs, ddbc_json_str(ref));
	return ref;
}

static bool keyword(const char *s, size_t len)
{
	static const char *const words[] = { "AND", "OR", "NOT", "BETWEEN", "IN" };
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strlen(words[i]) == len && !strncasecmp(s, words[i], len))
			return true;
	return false;
}

static bool word_char(char c)
{
	return is_alnum(c) || c == '_';
}

/* The pattern's `condition` with every attribute name that needs one
 * replaced by its placeholder. Function names (a word before '('),
 * keywords, placeholders and numbers stay as written; each ':name' value
 * placeholder gets parameter name's value. */
static char *condition_expr(request *r, const char *cond)
{
	strbuf out = STRBUF_INIT;
	const char *s = cond;
	while (*s) {
		if (!word_char(*s) && *s != '#' && *s != ':') {
			ddbc_strbuf_addch(&out, *s++);
			continue;
		}
		const char *start = s;
		if (*s == '#' || *s == ':')
			s++;
		while (word_char(*s))
			s++;
		size_t len = (size_t)(s - start);
		const char *next = s;
		while (*next == ' ' || *next == '\t' || *next == '\n' || *next == '\r')
			next++;
		bool verbatim = *start == '#' || *start == ':' || !(is_alpha(*start) || *start == '_') ||
				*next == '(' || keyword(start, len);
		if (*start == ':' && len > 1)
			condition_value(r, ddbc_arena_strndup(r->arena, start, len));
		if (verbatim)
			ddbc_strbuf_add(&out, start, len);
		else
			ddbc_strbuf_addstr(&out, name_ref(r, ddbc_arena_strndup(r->arena, start, len)));
	}
	return ddbc_strbuf_detach(&out);
}

/* ---- the parts of a request ------------------------------------------------------------- */

static const char *const op_symbols[] = {
	[DDBC_COND_EQ] = "=", [DDBC_COND_LT] = "<", [DDBC_COND_LE] = "<=",
	[DDBC_COND_GT] = ">", [DDBC_COND_GE] = ">=",
};

static void one_condition(request *r, const ddbc_req_cond *c, strbuf *expr)
{
	const char *name = name_ref(r, c->attr);
	if (c->op == DDBC_COND_BETWEEN && c->nvalues == 2) {
		const char *lo = value_ref(r, c->attr, "Lo", key_value(r, c, 0));
		const char *hi = value_ref(r, c->attr, "Hi", key_value(r, c, 1));
		ddbc_strbuf_addf(expr, "%s BETWEEN %s AND %s", name, lo, hi);
		return;
	}
	const char *v = value_ref(r, c->attr, "", key_value(r, c, 0));
	if (c->op == DDBC_COND_BEGINS_WITH)
		ddbc_strbuf_addf(expr, "begins_with(%s, %s)", name, v);
	else if (c->op <= DDBC_COND_GE)
		ddbc_strbuf_addf(expr, "%s %s %s", name, op_symbols[c->op], v);
}

/* The key condition, in the index's key order: partition key attributes,
 * then sort key attributes (the request's order). */
static char *key_condition(request *r)
{
	strbuf expr = STRBUF_INIT;
	for (size_t i = 0; i < r->req->nconds; i++) {
		if (expr.len)
			ddbc_strbuf_addstr(&expr, " AND ");
		one_condition(r, &r->req->conds[i], &expr);
	}
	return ddbc_strbuf_detach(&expr);
}

/* The table's primary key as the conditions give it (the request's key
 * is the table's for every operation that sends a Key or an Item). */
static json_t *key_map(request *r)
{
	json_t *key = json_object();
	for (size_t i = 0; i < r->req->nconds; i++) {
		const ddbc_req_cond *c = &r->req->conds[i];
		json_object_set_new(key, c->attr, key_value(r, c, 0));
	}
	return key;
}

/* ---- PutItem's item --------------------------------------------------------------------- */

/* Whether name is a parameter of the pattern: a placeholder of its key
 * condition, or a value its example or the command line gives. */
static bool is_param(request *r, const char *name)
{
	if ((r->p->example && usable(ddbc_pval_get(r->p->example, name))) ||
	    (r->o && cli_value(r->o, name, strlen(name))))
		return true;
	size_t len = strlen(name);
	for (size_t i = 0; i < r->req->nparams; i++)
		if (r->req->params[i]->len == len && !memcmp(name, r->req->params[i]->text, len))
			return true;
	return false;
}

static bool item_text(request *r, const ddbc_entity *e, const ddbc_pval *ex, const char *name,
		      strbuf *out, unsigned depth);

/* An item being put, rendered from its own values: a placeholder's value
 * is that attribute's own text, found the same way. */
typedef struct item_render {
	request *r;
	const ddbc_entity *e;
	const ddbc_pval *ex;
	unsigned depth;
} item_render;

static ddbc_tvalue item_value_of(void *ctx, const ddbc_segment *seg)
{
	item_render *it = ctx;
	char *ref = ddbc_arena_strndup(it->r->arena, seg->text, seg->len);
	strbuf val = STRBUF_INIT;
	ddbc_tvalue v = { DDBC_TVALUE_MISSING, NULL, 0, false, 0, NULL };
	if (item_text(it->r, it->e, it->ex, ref, &val, it->depth + 1))
		v = text_value(it->r, seg, &val);
	ddbc_strbuf_release(&val);
	return v;
}

/* The text of attribute name in the item being put: its template rendered
 * from the item's other values, the pattern's parameter of that name, or the
 * example's value. False when some part is unknown. */
static bool item_text(request *r, const ddbc_entity *e, const ddbc_pval *ex, const char *name,
		      strbuf *out, unsigned depth)
{
	const ddbc_attr *a = ddbc_entity_attr(e, name);
	if (a && a->has_template && !a->in_cycle && depth < 16) {
		item_render it = { r, e, ex, depth };
		ddbc_render_problem problem;
		return ddbc_template_render(&a->tpl, item_value_of, &it, out, &problem) ==
		       DDBC_RENDER_OK;
	}
	if (is_param(r, name)) {
		strbuf val = STRBUF_INIT;
		bool ok = param_value(r, name, &val, NULL);
		if (ok)
			ddbc_strbuf_add(out, val.buf, val.len);
		ddbc_strbuf_release(&val);
		if (ok)
			return true;
	}
	const ddbc_pval *v = ex ? ddbc_pval_get(ex, name) : NULL;
	if (!usable(v))
		return false;
	ddbc_pval_scalar_text(v, out);
	return true;
}

/* The value the put item gives attribute name, holding ex's value v: the
 * pattern's key value (kept in key), else a scalar S or N attribute that the
 * parameters change (a parameter itself or a template built from them),
 * rendered, else the example's value as it is. */
static json_t *item_member(request *r, const ddbc_entity *e, const ddbc_pval *ex,
			   const char *name, const ddbc_pval *v, json_t *key)
{
	json_t *k = json_object_get(key, name);
	if (k)
		return json_incref(k);
	const ddbc_attr *a = ddbc_entity_attr(e, name);
	if (a && (a->type == DDBC_TYPE_S || a->type == DDBC_TYPE_N) &&
	    (a->has_template || is_param(r, name))) {
		strbuf sb = STRBUF_INIT;
		json_t *rendered = NULL;
		if (item_text(r, e, ex, name, &sb, 0))
			rendered = ddbc_json_key_value(ddbc_strbuf_str(&sb), sb.len, a->type);
		ddbc_strbuf_release(&sb);
		if (rendered)
			return rendered;
	}
	return ddbc_json_attr_value(v, a ? a->type : DDBC_TYPE_NONE);
}

/* The value the put item gives key attribute a that its example lacks:
 * the pattern's key value, else its template (or the parameter of its
 * name) rendered; NULL when some part is unknown. */
static json_t *built_key(request *r, const ddbc_entity *e, const ddbc_pval *ex,
			 const ddbc_attr *a, json_t *key)
{
	json_t *k = json_object_get(key, a->name.s);
	if (k)
		return json_incref(k);
	if (a->type != DDBC_TYPE_S && a->type != DDBC_TYPE_N && a->type != DDBC_TYPE_B)
		return NULL;
	strbuf sb = STRBUF_INIT;
	json_t *v = NULL;
	if (item_text(r, e, ex, a->name.s, &sb, 0))
		v = ddbc_json_key_value(ddbc_strbuf_str(&sb), sb.len, a->type);
	ddbc_strbuf_release(&sb);
	return v;
}

/* Writes member name of the put item. What it gives an attribute of the
 * table's key is what the request sends of its key: a DynamoDB value
 * whose text is a string ({"S": ...}, {"N": ...}, {"B": ...}). */
static void item_put(request *r, ddbc_json_stream *s, const char *name, json_t *v)
{
	const ddbc_index *key = r->req->key;
	for (size_t i = 0; r->sent && key && v && i < r->sent->key.n; i++) {
		const char *type;
		json_t *text;
		if (strcmp(ddbc_index_key(key, i), name) || r->sent->key.values[i][0].text)
			continue;
		json_object_foreach(v, type, text) {
			if (json_is_string(text)) {
				sent_value(r, i, 0, json_string_value(text), json_string_length(text));
				r->sent->key.types[i] = !strcmp(type, "N") ? DDBC_TYPE_N
									    : DDBC_TYPE_S;
			}
			break;
		}
	}
	if (r->sent && r->sent->item_member && v)
		r->sent->item_member(r->sent->item_ctx, name, v);
	ddbc_json_member(s, name, v);
}

/* Writes the key attributes of every index of the table (the table's
 * first, then its GSIs and LSIs) that entity e has and its example lacks,
 * once each, where they can be built: DynamoDB puts the item in an index
 * only when it holds that index's keys. One that cannot be built (a
 * placeholder no parameter or example value gives) is left out, as a
 * request must hold values, not templates: the item then stays out of
 * that index, as a real item without the value would. */
static void put_keys(request *r, ddbc_json_stream *s, const ddbc_entity *e, const ddbc_pval *ex,
		     json_t *key)
{
	const ddbc_table *t = r->p->table;
	json_t *written = json_object();
	for (size_t i = 0; e && i < t->nindexes; i++) {
		const ddbc_index *ix = t->indexes[i];
		for (size_t k = 0; k < ix->npk + ix->nsk; k++) {
			const char *name = ddbc_index_key(ix, k);
			const ddbc_attr *a = ddbc_entity_attr(e, name);
			if (!a || (ex && ddbc_pval_get(ex, name)) || json_object_get(written, name))
				continue;
			/* An optional key the example lacks is one the item does
			 * not carry: it stays out of that index (a sparse index). */
			if (ex && i > 0 && ddbc_attr_optional(a))
				continue;
			json_object_set_new(written, name, json_true());
			json_t *v = built_key(r, e, ex, a, key);
			if (v)
				item_put(r, s, name, v);
		}
	}
	json_decref(written);
	if (e)
		return;
	/* Without an entity, the pattern's own key is all there is. */
	const char *k;
	json_t *v;
	json_object_foreach(key, k, v)
		item_put(r, s, k, json_incref(v));
}

/* Writes PutItem's Item: the first example of the entity the pattern puts,
 * member by member (an item of 40,000 attributes never exists as one
 * tree), then the key attributes the example lacks. */
static void put_item(request *r, ddbc_json_stream *s)
{
	const ddbc_entity *e = r->p->nmatched ? r->p->matched[0] : NULL;
	const ddbc_pval *ex = e && e->nexamples ? e->examples[0] : NULL;
	/* The key is the pattern's, whatever the example holds. */
	json_t *key = key_map(r);
	ddbc_json_begin(s, "Item", '{');
	ddbc_pval_iter it = ex ? ddbc_pval_members(ex) : (ddbc_pval_iter){ NULL, 0 };
	const ddbc_pval *k, *v;
	while (ddbc_pval_pair(&it, &k, &v)) {
		const char *name = ddbc_pval_text(k);
		/* An example may show a key part that items do not store. */
		const ddbc_attr *a = ddbc_entity_attr(e, name);
		if (a && !ddbc_attr_stored(a))
			continue;
		item_put(r, s, name, item_member(r, e, ex, name, v, key));
	}
	put_keys(r, s, e, ex, key);
	ddbc_json_end(s, '}');
	json_decref(key);
}

/* ---- requests ------------------------------------------------------------------------- */

const char *ddbc_query_operation(ddbc_operation op)
{
	static const char *const names[] = {
		[DDBC_OP_GET] = "GetItem", [DDBC_OP_QUERY] = "Query", [DDBC_OP_SCAN] = "Scan",
		[DDBC_OP_PUT] = "PutItem", [DDBC_OP_UPDATE] = "UpdateItem",
		[DDBC_OP_DELETE] = "DeleteItem",
	};
	return names[op];
}

/* The attributes the pattern returns, each named as an expression must
 * name it (a reserved word or a name that is no identifier through a '#'
 * placeholder): a top-level attribute whose name holds a '.' is one
 * attribute, not a path. */
static char *projection(request *r)
{
	strbuf expr = STRBUF_INIT;
	for (size_t i = 0; i < r->p->nreturns; i++)
		ddbc_strbuf_addf(&expr, "%s%s", i ? ", " : "", name_ref(r, r->p->returns[i].s));
	return ddbc_strbuf_detach(&expr);
}

static void set_expression(ddbc_json_stream *s, const char *key, char *expr)
{
	if (*expr)
		ddbc_json_text(s, key, expr);
	free(expr);
}

/* The request's body; names and values are added at the end. */
static void fill_input(request *r, ddbc_json_stream *s)
{
	const ddbc_request *q = r->req;
	ddbc_json_text(s, "TableName", q->table->name.s);
	if (q->index_named)
		ddbc_json_text(s, "IndexName", q->index->name.s);
	switch (q->op) {
	case DDBC_OP_QUERY:
		set_expression(s, "KeyConditionExpression", key_condition(r));
		if (q->order)
			ddbc_json_bool(s, "ScanIndexForward", q->order > 0);
		break;
	case DDBC_OP_PUT:
		put_item(r, s);
		break;
	case DDBC_OP_GET:
	case DDBC_OP_UPDATE:
	case DDBC_OP_DELETE:
		ddbc_json_member(s, "Key", key_map(r));
		break;
	case DDBC_OP_SCAN:
		break;
	}
	if (q->nreturns)
		set_expression(s, "ProjectionExpression", projection(r));
	if (q->condition)
		set_expression(s, "ConditionExpression", condition_expr(r, q->condition));
	if (q->limit)
		ddbc_json_int(s, "Limit", q->limit);
	if (q->consistent)
		ddbc_json_bool(s, "ConsistentRead", true);
}

/* Holds the value a parameter takes from the design (the pattern's or an
 * entity's example) to one place the pattern puts it. A value that cannot
 * stand there is the param-value rule's finding when linting; whatever
 * that rule's severity, the request is not written with it, and the run
 * says why. --param values were checked before anything was written. */
static void check_use(void *ctx, const ddbc_param_use *use)
{
	request *r = ctx;
	char *name = ddbc_arena_strndup(r->arena, use->name, use->len);
	strbuf val = STRBUF_INIT, why = STRBUF_INIT, where = STRBUF_INIT;
	const ddbc_pval *node;
	if (!json_object_get(r->checked, name) && param_value(r, name, &val, &node) && node &&
	    !ddbc_param_fits(r->g, use, ddbc_strbuf_str(&val), val.len, &why)) {
		json_object_set_new(r->checked, name, json_true());
		ddbc_param_place_text(use, &where);
		ddbc_diag_add(r->d, DDBC_RULE_PARAM_VALUE, ddbc_pval_loc(node),
			      "access pattern '%s' puts parameter '%s' in %s, but its value '%s' %s; "
			      "pass --param %s=VALUE", r->p->id.s, name, where.buf, ddbc_strbuf_str(&val),
			      why.buf, name);
		r->failed = true;
	}
	ddbc_strbuf_release(&val);
	ddbc_strbuf_release(&why);
	ddbc_strbuf_release(&where);
}

static request request_new(const ddbc_design *g, const ddbc_pattern *p,
			   const ddbc_export_opts *o, ddbc_diags *d)
{
	return (request){ .g = g, .p = p, .req = ddbc_pattern_request(p), .o = o, .d = d,
			  .arena = ddbc_arena_new(), .names = json_object(),
			  .values = json_object(), .reported = json_object(),
			  .checked = json_object() };
}

static void request_release(request *r)
{
	json_decref(r->names);
	json_decref(r->values);
	json_decref(r->reported);
	json_decref(r->checked);
	json_decref(r->refs);
	ddbc_arena_free(r->arena);
}

/* Writes the request's input, an object named "input" (NULL at the top
 * of a document), member by member. */
static void write_input(ddbc_json_stream *s, request *r, const char *key)
{
	ddbc_pattern_param_uses(r->p, check_use, r);
	ddbc_json_begin(s, key, '{');
	fill_input(r, s);
	if (json_object_size(r->names))
		ddbc_json_member(s, "ExpressionAttributeNames", json_incref(r->names));
	if (json_object_size(r->values))
		ddbc_json_member(s, "ExpressionAttributeValues", json_incref(r->values));
	ddbc_json_end(s, '}');
}

/* Writes the request of pattern p, member by member. */
static void write_request(ddbc_json_stream *s, const ddbc_design *g, const ddbc_pattern *p,
			  const ddbc_export_opts *o, ddbc_diags *d, bool *failed)
{
	request r = request_new(g, p, o, d);
	ddbc_json_begin(s, NULL, '{');
	ddbc_json_text(s, "pattern", p->id.s);
	ddbc_json_text(s, "operation", ddbc_query_operation(p->operation));
	write_input(s, &r, "input");
	ddbc_json_end(s, '}');
	*failed |= r.failed;
	request_release(&r);
}

char *ddbc_query_key_condition(const ddbc_design *g, const ddbc_pattern *p, json_t **names,
			       json_t **refs)
{
	ddbc_diags quiet;
	ddbc_diags_init(&quiet);
	request r = request_new(g, p, NULL, &quiet);
	r.refs = json_array();
	/* Values without a parameter value are rendered empty: only their
	 * placeholders are wanted. */
	char *expr = key_condition(&r);
	*names = json_incref(r.names);
	*refs = json_incref(r.refs);
	request_release(&r);
	ddbc_diags_release(&quiet);
	return expr;
}

char *ddbc_query_projection(const ddbc_design *g, const ddbc_pattern *p, json_t *names)
{
	ddbc_diags quiet;
	ddbc_diags_init(&quiet);
	request r = request_new(g, p, NULL, &quiet);
	/* The caller's names, so the projection's join the key condition's. */
	json_decref(r.names);
	r.names = json_incref(names);
	char *expr = projection(&r);
	request_release(&r);
	ddbc_diags_release(&quiet);
	return expr;
}

char *ddbc_query_condition(const ddbc_design *g, const ddbc_pattern *p, json_t *names,
			   json_t *values)
{
	const ddbc_request *req = ddbc_pattern_request(p);
	if (!req || !req->condition)
		return strdup("");
	ddbc_diags quiet;
	ddbc_diags_init(&quiet);
	request r = request_new(g, p, NULL, &quiet);
	json_decref(r.names);
	r.names = json_incref(names);
	json_decref(r.values);
	r.values = json_incref(values);
	char *expr = condition_expr(&r, req->condition);
	if (r.failed) {
		free(expr);
		expr = NULL;
	}
	request_release(&r);
	ddbc_diags_release(&quiet);
	return expr;
}

/* Parameter values become JSON strings: they must be UTF-8. */
static bool utf8(const char *s)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + strlen(s);
	unsigned cp;
	for (size_t n; p < end; p += n)
		if (!(n = ddbc_utf8_decode(p, end, &cp)))
			return false;
	return true;
}

/* A --param value tried against every place a pattern puts it. */
typedef struct cli_check {
	const ddbc_design *g;
	const ddbc_pattern *p;
	const ddbc_export_opts *o;
	json_t *reported;    /* names already reported */
	bool failed;
} cli_check;

static void check_cli_use(void *ctx, const ddbc_param_use *use)
{
	cli_check *c = ctx;
	const char *value = cli_value(c->o, use->name, use->len);
	char *name = strndup(use->name, use->len);
	strbuf why = STRBUF_INIT, where = STRBUF_INIT;
	if (value && !json_object_get(c->reported, name) &&
	    !ddbc_param_fits(c->g, use, value, strlen(value), &why)) {
		json_object_set_new(c->reported, name, json_true());
		ddbc_param_place_text(use, &where);
		ddbc_err_add(c->o->err, NULL, "--param %s=%s: the value %s; access pattern '%s' "
			     "puts it in %s (%s:%u:%u)", name, value, why.buf, c->p->id.s,
			     where.buf, c->g->src->name, use->loc.line, use->loc.column);
		c->failed = true;
	}
	ddbc_strbuf_release(&why);
	ddbc_strbuf_release(&where);
	free(name);
}

/* Parameter values become JSON strings: they must be UTF-8. And each must
 * fit every place a pattern puts it: a value that does not is a mistake
 * of this command line, so the run stops before anything is written. */
static bool params_valid(const ddbc_design *g, const ddbc_export_opts *o)
{
	for (size_t i = 0; o && i < o->nparams; i++) {
		if (!utf8(o->params[i].name) || !utf8(o->params[i].value)) {
			ddbc_err_add(o->err, NULL, "--param '%s': not valid UTF-8 text",
				     o->params[i].name);
			return false;
		}
	}
	cli_check c = { g, NULL, o, json_object(), false };
	for (size_t i = 0; o && o->nparams && i < g->npatterns; i++) {
		c.p = &g->patterns[i];
		if (c.p->table && c.p->index)
			ddbc_pattern_param_uses(c.p, check_cli_use, &c);
	}
	json_decref(c.reported);
	return !c.failed;
}

ddbc_emit_result ddbc_emit_queries(FILE *out, const ddbc_design *g, const ddbc_export_opts *o,
				   ddbc_diags *d)
{
	if (!params_valid(g, o))
		return DDBC_EMIT_FAILED;
	ddbc_json_stream s;
	ddbc_json_stream_init(&s, out);
	ddbc_json_stream_layout(&s, o);
	ddbc_json_begin(&s, NULL, '[');
	bool failed = false;
	for (size_t i = 0; i < g->npatterns; i++) {
		const ddbc_pattern *p = &g->patterns[i];
		/* Only a design with errors has an unresolved pattern. */
		if (p->table && p->index)
			write_request(&s, g, p, o, d, &failed);
	}
	ddbc_json_end(&s, ']');
	int r = ddbc_json_stream_finish(&s, o ? o->err : NULL);
	/* The command line discards the output of an emitter with findings. */
	return failed ? DDBC_EMIT_FINDINGS : r;
}

ddbc_emit_result ddbc_emit_query_input(FILE *out, const ddbc_design *g, const ddbc_pattern *p,
				       ddbc_diags *d, ddbc_query_sent *sent)
{
	return ddbc_emit_query_input_with(out, g, p, NULL, d, sent);
}

ddbc_emit_result ddbc_emit_query_input_with(FILE *out, const ddbc_design *g,
					    const ddbc_pattern *p, const ddbc_export_opts *o,
					    ddbc_diags *d, ddbc_query_sent *sent)
{
	ddbc_query_item_fn *on_member = sent->item_member;
	void *item_ctx = sent->item_ctx;
	memset(sent, 0, sizeof(*sent));
	sent->item_member = on_member;
	sent->item_ctx = item_ctx;
	if (!p->table || !p->index || !ddbc_pattern_request(p))
		return DDBC_EMIT_FAILED;
	request r = request_new(g, p, o, d);
	ddbc_key_sent_init(&sent->key, r.req);
	r.sent = sent;
	ddbc_json_stream s;
	ddbc_json_stream_init(&s, out);
	write_input(&s, &r, NULL);
	int res = ddbc_json_stream_finish(&s, o ? o->err : NULL);
	bool failed = r.failed;
	request_release(&r);
	return failed ? DDBC_EMIT_FINDINGS : res;
}

void ddbc_query_sent_release(ddbc_query_sent *sent)
{
	ddbc_key_sent_release(&sent->key);
	memset(sent, 0, sizeof(*sent));
}
