/* emit_keys_request.c - `ddbc keys`: an access pattern's request, as its function sends it
 *
 * A pattern's request (model/request.h) is put together as the queries
 * export writes its input, with the export's own key condition and
 * projection (ddbc_query_key_condition, ddbc_query_projection, which name
 * attributes alike), each key condition value the plan builds (ddbc_hvalue)
 * left to a builder over the function's parameters; tests/keys.test
 * compares the two. Writes too: a DeleteItem's or UpdateItem's Key and
 * ConditionExpression (an update's UpdateExpression is the caller's, as
 * the export leaves it), and a PutItem's Item, which is the caller's item
 * (the function's first parameter) with the pattern's key written over
 * it: the export's Item is an example's, which an application does not
 * put. A write's condition's ':name' values are parameters too, typed as
 * the attribute of that name (ddbc_pattern_named_attr, the type the
 * export and param-value give them); one no attribute is named gets no
 * function, since the export types it from its example value.
 */
#include "emit/emit_keys_int.h"
#include "emit/emit_json.h"
#include "model/params.h"
#include "model/request.h"
#include "model/semantics.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

static void add_param(keys_writer *w, keys_request *r, const ddbc_hparam *pm, size_t *cap)
{
	for (size_t i = 0; i < r->nparams; i++)
		if (!strcmp(r->params[i].name, pm->name))
			return;
	ddbc_xgrow((void **)&r->params, cap, r->nparams + 1, sizeof(ddbc_hparam));
	ddbc_hparam *q = &r->params[r->nparams++];
	*q = *pm;
	/* A pattern's parameter is typed by the attribute it names, as lint
	 * and the export type it. */
	if (!q->attr && !q->number && !q->enum_type)
		q->enum_type = ddbc_header_enum_type(
			w->plan, w->arena,
			ddbc_pattern_named_attr(r->hp->pattern, q->source, strlen(q->source)));
}

const char *ddbc_keys_param_enum(const keys_request *r, const char *name)
{
	for (size_t i = 0; i < r->nparams; i++)
		if (!strcmp(r->params[i].name, name))
			return r->params[i].enum_type;
	return NULL;
}

void ddbc_keys_enum_value(strbuf *sb, const ddbc_hattr *ha, size_t i, bool ts)
{
	strbuf v = STRBUF_INIT;
	ddbc_json_scalar_text(ha->attr->more->enum_values[i], &v);
	ddbc_keys_string(sb, v.buf ? v.buf : "", v.len, ts);
	ddbc_strbuf_release(&v);
}

const char *ddbc_keys_enum_const(keys_writer *w, const ddbc_hattr *ha, size_t i)
{
	/* The plan's, which header-name checks against every other name. */
	const char *name = ha->enum_consts[i];
	ddbc_keys_name(w, name);
	return name;
}

/* The DynamoDB JSON of value i of hp: {"S": text}; a constant's text, or
 * (a slot of r) the builder's result in its place. */
static json_t *value_json(keys_writer *w, keys_request *r, const ddbc_request *req, size_t i,
			  size_t *cap)
{
	const ddbc_hvalue *hv = &r->hp->values[i];
	const ddbc_req_cond *c = ddbc_request_cond(req, hv->cond->attr.s);
	const char *type = ddbc_keys_type_name(c ? c->type : DDBC_TYPE_S);
	strbuf text = STRBUF_INIT;
	for (size_t k = 0; hv->key.constant && k < hv->key.npieces; k++)
		ddbc_strbuf_add(&text, hv->key.pieces[k].text, hv->key.pieces[k].len);
	json_t *v = json_object();
	json_object_set_new(v, type ? type : "S", ddbc_json_strn(text.buf ? text.buf : "", text.len));
	ddbc_strbuf_release(&text);
	if (hv->key.constant)
		return v;
	r->slots[i] = v;
	r->shapes[i] = ddbc_keys_concat(w, hv->value_macro, "_");
	ddbc_keys_name(w, r->shapes[i]);
	for (size_t k = 0; k < hv->key.nparams; k++)
		add_param(w, r, &hv->key.params[k], cap);
	return v;
}

void ddbc_keys_request_params(strbuf *sb, const keys_request *r, const char *sep,
			 const char *const types[3])
{
	for (size_t i = 0; i < r->nparams; i++)
		ddbc_strbuf_addf(sb, "%s%s%s%s", i ? ", " : "", r->params[i].name, sep,
			    r->params[i].enum_type ? r->params[i].enum_type :
			    types[r->flag && r->flag[i] ? 2 : r->params[i].number ? 1 : 0]);
}

/* The parameter of a condition's ':name' value: a parameter of the key
 * of that source (one value, as the export gives it) when it has the
 * type's kind, else a new one named as the plan names parameters; -1
 * when neither can be (a C name another source has, another kind). */
static long cond_param(keys_writer *w, keys_request *r, const char *source, ddbc_type t,
		       size_t *cap)
{
	bool number = t == DDBC_TYPE_N, flag = t == DDBC_TYPE_BOOL;
	const char *name = ddbc_header_param_name(w->arena, source);
	for (size_t i = 0; i < r->nparams; i++) {
		if (strcmp(r->params[i].name, name))
			continue;
		bool same = !strcmp(r->params[i].source, source) && r->params[i].number == number &&
			    (r->flag ? r->flag[i] : false) == flag;
		return same ? (long)i : -1;
	}
	/* source is a member name of the export's values, freed with them:
	 * the parameter keeps its own copy. */
	ddbc_hparam pm = { NULL, name, ddbc_arena_strdup(w->arena, source), number, NULL };
	if (t == DDBC_TYPE_S)
		pm.enum_type = ddbc_header_enum_type(
			w->plan, w->arena, ddbc_pattern_named_attr(r->hp->pattern, source, strlen(source)));
	add_param(w, r, &pm, cap);
	bool *flags = ddbc_arena_alloc(w->arena, r->nparams * sizeof(bool));
	for (size_t i = 0; i + 1 < r->nparams; i++)
		flags[i] = r->flag ? r->flag[i] : false;
	flags[r->nparams - 1] = flag;
	r->flag = flags;
	return (long)(r->nparams - 1);
}

/* Gives each ':name' of a write's condition (cvalues, the export's, with
 * example values) a typed parameter and its slot, and adds them to
 * values. False when one has no type from the design (the export types
 * it from its example value), or no parameter. */
static bool condition_params(keys_writer *w, keys_request *r, json_t *cvalues, json_t *values,
			     size_t *cap)
{
	const ddbc_pattern *p = r->hp->pattern;
	size_t n = json_object_size(cvalues), k = 0;
	if (!n)
		return true;
	r->cond_param = ddbc_arena_alloc(w->arena, n * sizeof(size_t));
	r->cond_type = ddbc_arena_alloc(w->arena, n * sizeof(ddbc_type));
	r->cond_width = ddbc_arena_alloc(w->arena, n * sizeof(unsigned));
	const json_t **slots = ddbc_arena_alloc(w->arena, (r->hp->nvalues + n) * sizeof(*slots));
	memcpy(slots, r->slots, r->hp->nvalues * sizeof(*slots));
	r->slots = slots;
	const char *ref;
	json_t *v;
	json_object_foreach(cvalues, ref, v) {
		const ddbc_attr *a = ddbc_pattern_named_attr(p, ref + 1, strlen(ref + 1));
		if (!a)
			return false;
		long pi = cond_param(w, r, ref + 1, a->type, cap);
		if (pi < 0)
			return false;
		r->cond_param[k] = (size_t)pi;
		r->cond_type[k] = a->type;
		const ddbc_segment *pad = a->type == DDBC_TYPE_N ?
			ddbc_request_padded(ddbc_pattern_request(p), ref + 1) : NULL;
		r->cond_width[k] = pad ? pad->width : 0;
		r->slots[r->hp->nvalues + k] = v;
		r->ncond = ++k;
		json_object_set(values, ref, v);
	}
	return true;
}

/* The request's input, member by member as the queries export writes it
 * (emit_json_queries.c, fill_input): names and values last. */
static json_t *request_input(keys_writer *w, keys_request *r, const ddbc_request *req)
{
	const ddbc_pattern *p = r->hp->pattern;
	json_t *in = json_object(), *names = json_object(), *values = json_object(), *refs = NULL;
	size_t cap = 0;
	json_object_set_new(in, "TableName", ddbc_json_str(req->table->name.s));
	if (req->index_named)
		json_object_set_new(in, "IndexName", ddbc_json_str(req->index->name.s));
	if (req->op == DDBC_OP_QUERY) {
		json_decref(names);
		char *kce = ddbc_query_key_condition(w->g, p, &names, &refs);
		if (*kce)
			json_object_set_new(in, "KeyConditionExpression", ddbc_json_str(kce));
		free(kce);
		if (req->order)
			json_object_set_new(in, "ScanIndexForward", json_boolean(req->order > 0));
		if (json_array_size(refs) != r->hp->nvalues)
			goto unplanned;
		for (size_t i = 0; i < r->hp->nvalues && i < json_array_size(refs); i++)
			json_object_set_new(values, json_string_value(json_array_get(refs, i)),
					    value_json(w, r, req, i, &cap));
	} else if (req->op != DDBC_OP_SCAN) {
		if (r->hp->nvalues != req->nconds)
			goto unplanned;
		json_t *key = json_object();
		for (size_t i = 0; i < r->hp->nvalues; i++)
			json_object_set_new(key, r->hp->values[i].cond->attr.s,
					    value_json(w, r, req, i, &cap));
		if (req->op == DDBC_OP_PUT)
			r->item = key;
		json_object_set_new(in, req->op == DDBC_OP_PUT ? "Item" : "Key", key);
	}
	char *proj = ddbc_query_projection(w->g, p, names);
	if (*proj)
		json_object_set_new(in, "ProjectionExpression", ddbc_json_str(proj));
	free(proj);
	json_t *cvalues = json_object();
	char *cond = ddbc_query_condition(w->g, p, names, cvalues);
	if (!cond || !condition_params(w, r, cvalues, values, &cap)) {
		free(cond);
		json_decref(cvalues);
		goto unplanned;
	}
	json_decref(cvalues);
	if (*cond)
		json_object_set_new(in, "ConditionExpression", ddbc_json_str(cond));
	free(cond);
	if (req->limit)
		json_object_set_new(in, "Limit", json_integer(req->limit));
	if (req->consistent)
		json_object_set_new(in, "ConsistentRead", json_true());
	if (json_object_size(names))
		json_object_set(in, "ExpressionAttributeNames", names);
	if (json_object_size(values))
		json_object_set(in, "ExpressionAttributeValues", values);
	json_decref(names);
	json_decref(values);
	json_decref(refs);
	return in;
unplanned:
	/* A value the plan left out (its placeholders give one C name,
	 * header-name's finding) has no builder, and a condition's ':name'
	 * that no attribute is named no type: no function either. */
	r->item = NULL;
	json_decref(in);
	json_decref(names);
	json_decref(values);
	json_decref(refs);
	return NULL;
}

bool ddbc_keys_plan_request(keys_writer *w, const ddbc_hpattern *hp, keys_request *r)
{
	const ddbc_request *req = ddbc_pattern_request(hp->pattern);
	memset(r, 0, sizeof(*r));
	if (!req || (!req->reads && !req->writes))
		return false;
	r->hp = hp;
	r->operation = ddbc_query_operation(req->op);
	size_t n = strlen(hp->table_macro) - strlen("_TABLE_NAME");
	char *stem = ddbc_arena_strndup(w->arena, hp->table_macro, n);
	r->func = ddbc_keys_concat(w, ddbc_keys_lower(w, stem), "_request");
	r->op_const = ddbc_keys_concat(w, stem, "_OPERATION");
	ddbc_keys_name(w, r->func);
	ddbc_keys_name(w, r->op_const);
	r->slots = ddbc_arena_alloc(w->arena, (hp->nvalues + 1) * sizeof(*r->slots));
	r->shapes = ddbc_arena_alloc(w->arena, (hp->nvalues + 1) * sizeof(*r->shapes));
	for (size_t i = 0; i < hp->nvalues; i++) {
		r->slots[i] = NULL;
		r->shapes[i] = NULL;
	}
	r->input = request_input(w, r, req);
	return r->input != NULL;
}
