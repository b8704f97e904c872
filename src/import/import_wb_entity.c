/* import_wb_entity.c - entities from Workbench facets
 *
 * A facet names the attributes of one kind of item and, in older models,
 * holds its sample items; newer models keep the items at the table, so an
 * item goes to the facet with the fewest attributes that names all of the
 * item's. Key templates: a facet's key alias when it is a template, else
 * recovered from the entity's samples and marked as a guess.
 */
#include "import/import_int.h"
#include "import/import_wb.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The attribute names facet f holds: the table keys and its NonKeyAttributes. */
static json_t *facet_names(const json_t *f, const json_t *table)
{
	json_t *names = json_array();
	json_array_append(names, json_object_get(table, "partition_key"));
	if (json_object_get(table, "sort_key"))
		json_array_append(names, json_object_get(table, "sort_key"));
	size_t i;
	const json_t *n;
	json_array_foreach(json_object_get(f, "NonKeyAttributes"), i, n)
		if (json_is_string(n))
			json_array_append(names, (json_t *)n);
	return names;
}

static bool holds(const json_t *names, const char *n)
{
	size_t i;
	const json_t *v;
	json_array_foreach(names, i, v)
		if (!strcmp(json_string_value(v), n))
			return true;
	return false;
}

/* The facet (index into facets' name lists) that item belongs to: the one
 * with fewest attributes among those naming all of the item's; -1 for none. */
static int facet_of(const json_t *item, const json_t *lists)
{
	int best = -1;
	size_t i;
	const json_t *names;
	json_array_foreach(lists, i, names) {
		const char *k;
		const json_t *v;
		bool all = true;
		json_object_foreach((json_t *)item, k, v)
			all = all && holds(names, k);
		if (all && (best < 0 || json_array_size(names) <
				json_array_size(json_array_get(lists, (size_t)best))))
			best = (int)i;
	}
	return best;
}

/* The type of attribute n: the model's, else its first sample value's. */
static const char *type_of(const struct wb_table *w, const char *n, const json_t *examples)
{
	const char *t = json_string_value(json_object_get(w->types, n));
	size_t i;
	const json_t *e;
	json_array_foreach(examples, i, e)
		if (!t && json_object_get(e, n))
			t = ddbc_import_value_type(json_object_get(e, n));
	return t;
}

static json_t *attributes(const struct wb_table *w, const json_t *names,
			  const json_t *examples)
{
	json_t *attrs = json_object();
	size_t i;
	const json_t *n, *e;
	json_array_foreach(names, i, n) {
		const char *t = type_of(w, json_string_value(n), examples);
		if (t)
			json_object_set_new(attrs, json_string_value(n), json_pack("{ss}", "type", t));
	}
	json_array_foreach(examples, i, e) {
		const char *k;
		const json_t *v;
		json_object_foreach((json_t *)e, k, v)
			if (!json_object_get(attrs, k))
				json_object_set_new(attrs, k, json_pack("{ss}", "type",
									type_of(w, k, examples)));
	}
	return attrs;
}

/* Whether every example has attribute k as a string. */
static bool in_every(const json_t *examples, const char *k)
{
	size_t i;
	const json_t *e;
	json_array_foreach(examples, i, e)
		if (!json_is_string(json_object_get(e, k)))
			return false;
	return json_array_size(examples) > 0;
}

/* Whether every example has key k, and it is exactly s. */
static bool every_key_is(const json_t *examples, const char *k, const char *s)
{
	size_t i;
	const json_t *e;
	json_array_foreach(examples, i, e)
		if (!json_is_string(json_object_get(e, k)) ||
		    strcmp(json_string_value(json_object_get(e, k)), s))
			return false;
	return json_array_size(examples) > 0;
}

/* Sets the template of key attribute k: alias when it is one, else a
 * guess from the examples (only when every example has k, since a
 * template makes its attribute required). */
static void key_template(const struct wb_table *w, json_t *attrs, const char *k,
			 bool table_key, const char *alias, const json_t *examples,
			 json_t *templated)
{
	json_t *a = json_object_get(attrs, k);
	const char *t = json_string_value(json_object_get(a, "type"));
	if (!a || !t || strcmp(t, "S"))
		return;
	/* An alias that is a template, or the very key of every sample (a
	 * constant key: Workbench labels carry ddbc's templates so). */
	if (alias && (strchr(alias, '{') || every_key_is(examples, k, alias))) {
		json_object_set_new(a, "template", json_string(alias));
		if (!strchr(alias, '{'))
			ddbc_import_set_comment(a, "template", "the facet's key alias, which "
						"every sample key is");
		json_array_append_new(templated, json_string(k));
		return;
	}
	size_t n = 0;
	/* Never a placeholder of itself or of an attribute that has a template
	 * already: no template can then refer back to itself. */
	json_t *exclude = json_deep_copy(templated);
	json_array_append_new(exclude, json_string(k));
	char *g = in_every(examples, k)
		? ddbc_import_guess_template(examples, k, exclude, "#", &n) : NULL;
	json_decref(exclude);
	/* A constant is a template only for the table's keys: an index key
	 * that all samples share is more likely a plain attribute (a category)
	 * than a fixed value. */
	if (!g || (!table_key && !strchr(g, '{'))) {
		free(g);
		return;
	}
	json_object_set_new(a, "template", json_string(g));
	json_array_append_new(templated, json_string(k));
	ddbc_import_set_comment(a, "template", "guessed from %zu sample key%s", n,
				n == 1 ? "" : "s");
	free(g);
}

static int add_entity(const struct wb_table *w, json_t *design, const char *name,
		      const json_t *names, const json_t *alias, json_t *examples)
{
	json_t *entities = json_object_get(design, "entities");
	if (json_object_get(entities, name))
		return ddbc_import_fail(w->file, "two entities are named '%s'", name);
	json_t *attrs = attributes(w, names, examples);
	json_t *templated = json_array();
	size_t i;
	const json_t *k;
	json_array_foreach(w->keys, i, k) {
		const char *kn = json_string_value(k);
		const char *al = NULL;
		bool tk = true;
		if (!strcmp(kn, json_string_value(json_object_get(w->table, "partition_key"))))
			al = json_string_value(json_object_get(alias, "PartitionKeyAlias"));
		else if (json_object_get(w->table, "sort_key") &&
			 !strcmp(kn, json_string_value(json_object_get(w->table, "sort_key"))))
			al = json_string_value(json_object_get(alias, "SortKeyAlias"));
		else
			tk = false;
		key_template(w, attrs, kn, tk, al, examples, templated);
	}
	json_decref(templated);
	json_t *e = json_pack("{sssO}", "table", w->name, "attributes", attrs);
	json_decref(attrs);
	if (json_array_size(examples))
		json_object_set(e, "examples", examples);
	json_object_set_new(entities, name, e);
	return 0;
}

static int plain_facet_items(const struct wb_table *w, const json_t *f, json_t *out)
{
	size_t i;
	const json_t *d;
	json_array_foreach(json_object_get(f, "TableData"), i, d) {
		json_t *p = ddbc_import_plain_item(d);
		if (!p)
			return ddbc_import_fail(w->file, "sample item %zu of facet '%s' is not in "
						"DynamoDB JSON", i + 1,
						json_string_value(json_object_get(f, "FacetName")));
		json_array_append_new(out, p);
	}
	return 0;
}

static int facet_entities(const struct wb_table *w, const json_t *facets, json_t *design)
{
	json_t *lists = json_array(), *per = json_array();
	size_t i, lost = 0;
	const json_t *f, *item;
	int rc = 0;
	json_array_foreach(facets, i, f) {
		json_array_append_new(lists, facet_names(f, w->table));
		json_t *mine = json_array();
		json_array_append_new(per, mine);
		if (rc == 0)
			rc = plain_facet_items(w, f, mine);
	}
	json_array_foreach(w->items, i, item) {
		int k = facet_of(item, lists);
		if (k < 0)
			lost++;
		else
			json_array_append(json_array_get(per, (size_t)k), (json_t *)item);
	}
	json_array_foreach(facets, i, f) {
		const char *fname = json_string_value(json_object_get(f, "FacetName"));
		if (rc == 0 && !fname)
			rc = ddbc_import_fail(w->file, "a facet of table '%s' has no FacetName",
					      w->name);
		if (rc == 0)
			rc = add_entity(w, design, fname, json_array_get(lists, i),
					json_object_get(f, "KeyAttributeAlias"),
					json_array_get(per, i));
	}
	if (rc == 0 && lost)
		fprintf(stderr, "ddbc import: %s: %zu sample item%s of table '%s' fit no facet: "
			"left out\n", w->file, lost, lost == 1 ? "" : "s", w->name);
	json_decref(lists);
	json_decref(per);
	return rc;
}

int ddbc_import_wb_entities(const struct wb_table *w, json_t *design)
{
	const json_t *facets = json_object_get(w->model, "TableFacets");
	if (json_array_size(facets))
		return facet_entities(w, facets, design);
	/* No facets: one entity holds the table's attributes and items. */
	json_t *names = json_array();
	const char *k;
	const json_t *v;
	json_object_foreach((json_t *)w->types, k, v)
		json_array_append_new(names, json_string(k));
	json_t *examples = json_deep_copy(w->items);
	int rc = add_entity(w, design, w->name, names, NULL, examples);
	if (rc == 0)
		ddbc_import_set_comment(json_object_get(design, "entities"), w->name,
					"one entity: the model has no facets");
	json_decref(names);
	json_decref(examples);
	return rc;
}
