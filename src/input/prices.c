/* prices.c - the price table (prices.h): an input of `ddbc cost` */
#include "input/prices.h"
#include "util/source.h"
#include "util/xalloc.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The compiled-in table: the same shape as a --prices file. */
static const char builtin[] =
	"{\"date\": \"2024-11-01\","
	" \"source\": \"https://aws.amazon.com/dynamodb/pricing/\","
	" \"regions\": {\"us-east-1\": {"
	"  \"standard\": {\"write_request_million\": 0.625, \"read_request_million\": 0.125,"
	"   \"wcu_hour\": 0.00065, \"rcu_hour\": 0.00013, \"storage_gb_month\": 0.25},"
	"  \"standard_ia\": {\"write_request_million\": 0.78125, \"read_request_million\": 0.15625,"
	"   \"wcu_hour\": 0.0008125, \"rcu_hour\": 0.0001625, \"storage_gb_month\": 0.1}}}}";

const char *ddbc_prices_builtin_regions(void)
{
	return "us-east-1";
}

static const char *const class_names[] = { "standard", "standard_ia" };
static const char *const figure_names[] = { "write_request_million", "read_request_million",
					    "wcu_hour", "rcu_hour", "storage_gb_month" };

static bool read_class(json_t *c, const char *where, const char *region, const char *cls,
		       ddbc_class_prices *out, strbuf *err)
{
	double *fig[] = { &out->write_request_million, &out->read_request_million,
			  &out->wcu_hour, &out->rcu_hour, &out->storage_gb_month };
	if (!json_is_object(c)) {
		ddbc_strbuf_addf(err, "%s: regions.%s.%s must be an object of prices", where, region,
			    cls);
		return false;
	}
	for (size_t i = 0; i < sizeof fig / sizeof fig[0]; i++) {
		json_t *v = json_object_get(c, figure_names[i]);
		if (!json_is_number(v) || !isfinite(json_number_value(v)) ||
		    json_number_value(v) < 0) {
			ddbc_strbuf_addf(err, "%s: regions.%s.%s.%s must be a price in US dollars of "
					 "at least 0%s",
				    where, region, cls, figure_names[i], v ? "" : " (it is missing)");
			return false;
		}
		*fig[i] = json_number_value(v);
	}
	return true;
}

static char *text_or(json_t *root, const char *key, const char *dflt)
{
	json_t *v = json_object_get(root, key);
	return ddbc_xstrdup(json_is_string(v) ? json_string_value(v) : dflt);
}

/* The region's entry, or a message listing the regions there are. */
static json_t *find_region(json_t *regions, const char *where, const char *region, strbuf *err)
{
	json_t *r = json_object_get(regions, region);
	if (r)
		return r;
	ddbc_strbuf_addf(err, "%s has no prices for region '%s' (regions:", where, region);
	const char *name;
	json_t *v;
	const char *sep = " ";
	json_object_foreach(regions, name, v) {
		ddbc_strbuf_addf(err, "%s%s", sep, name);
		sep = ", ";
	}
	ddbc_strbuf_addstr(err, ")");
	return NULL;
}

bool ddbc_prices_load(const char *file, const char *region, ddbc_prices *out, strbuf *err)
{
	memset(out, 0, sizeof *out);
	json_error_t je;
	/* Read as an input (util/source.h), so -o naming the price file is refused. */
	json_t *root;
	if (file) {
		FILE *f = ddbc_input_fopen(file);
		if (!f) {
			ddbc_strbuf_addf(err, "%s: %s", file, strerror(errno));
			return false;
		}
		root = json_loadf(f, JSON_REJECT_DUPLICATES, &je);
		fclose(f);
	} else {
		root = json_loads(builtin, 0, &je);
	}
	const char *where = file ? file : "the compiled-in price table";
	if (!root) {
		if (je.line > 0)
			ddbc_strbuf_addf(err, "%s:%d:%d: not a price file: %s", where, je.line, je.column,
				    je.text);
		else
			ddbc_strbuf_addf(err, "%s: %s", where, je.text);
		return false;
	}
	bool ok = false;
	json_t *regions = json_object_get(root, "regions");
	json_t *r;
	if (!json_is_object(root) || !json_is_object(regions))
		ddbc_strbuf_addf(err, "%s: field 'regions' must be an object of regions", where);
	else if ((r = find_region(regions, where, region, err))) {
		ok = true;
		for (size_t c = 0; ok && c < 2; c++)
			ok = read_class(json_object_get(r, class_names[c]), where, region,
					class_names[c], &out->cls[c], err);
	}
	if (ok) {
		out->region = ddbc_xstrdup(region);
		out->date = text_or(root, "date", "unknown");
		out->source = text_or(root, "source", "unknown");
		out->file = file ? ddbc_xstrdup(file) : NULL;
	}
	json_decref(root);
	return ok;
}

void ddbc_prices_release(ddbc_prices *p)
{
	free(p->region);
	free(p->date);
	free(p->source);
	free(p->file);
	memset(p, 0, sizeof *p);
}
