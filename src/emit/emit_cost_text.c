/* emit_cost_text.c - the cost report as JSON, text or Markdown
 *
 * Text and Markdown read the report's JSON (emit_cost.c), so that every
 * format says the same figures; null prints as "unknown".
 */
#include "emit/emit_cost.h"
#include "emit/doc_escape.h"
#include "util/strbuf.h"

#include <stdio.h>
#include <string.h>

/* A figure as the text formats print it. */
static void put_num(FILE *out, json_t *v, const char *unit)
{
	if (json_is_integer(v))
		fprintf(out, "%lld%s", (long long)json_integer_value(v), unit);
	else if (json_is_real(v))
		fprintf(out, "%g%s", json_real_value(v), unit);
	else
		fprintf(out, "unknown%s", unit);
}

static void put_usd(FILE *out, json_t *v)
{
	if (json_is_number(v))
		fprintf(out, "$%.2f", json_number_value(v));
	else
		fputs("unknown", out);
}

/* "table 1, GSI1 0.5" from {"table": U, "indexes": {...}}. */
static void put_slots(FILE *out, json_t *o)
{
	put_num(out, json_object_get(o, "table"), "");
	fputs(" table", out);
	const char *name;
	json_t *v;
	json_object_foreach(json_object_get(o, "indexes"), name, v) {
		fputs(", ", out);
		put_num(out, v, "");
		fprintf(out, " %s", name);
	}
}

/* A Markdown cell's text: the user's names escaped. */
static void md_text(FILE *out, const char *s)
{
	strbuf sb = STRBUF_INIT;
	ddbc_doc_escape(&sb, s, DDBC_ESC_MD_INLINE_CELL);
	fputs(strbuf_str(&sb), out);
	strbuf_release(&sb);
}

static void put_mode(FILE *out, json_t *m, bool md)
{
	put_usd(out, json_object_get(m, "total"));
	fputs(md ? " (" : " (reads ", out);
	if (md)
		fputs("reads ", out);
	put_usd(out, json_object_get(m, "reads"));
	fputs(", writes ", out);
	put_usd(out, json_object_get(m, "writes"));
	fputs(", storage ", out);
	put_usd(out, json_object_get(m, "storage"));
	fputs(")", out);
}

static void put_list(FILE *out, json_t *a)
{
	size_t i;
	json_t *v;
	json_array_foreach(a, i, v) fprintf(out, "%s%s", i ? ", " : "", json_string_value(v));
	if (!json_array_size(a))
		fputs("none", out);
}

static void text_entities(FILE *out, json_t *r, bool md)
{
	size_t i;
	json_t *e;
	fputs(md ? "\n## Entities\n\n| Entity | Table | Item bytes (max, mean, examples) | "
		   "Units of one put | Count | Storage bytes |\n|---|---|---|---|---|---|\n"
		 : "\nentities (units of one put of the largest item):\n", out);
	json_array_foreach(json_object_get(r, "entities"), i, e) {
		json_t *b = json_object_get(e, "item_bytes");
		if (md) {
			fputs("| ", out);
			md_text(out, json_string_value(json_object_get(e, "entity")));
			fputs(" | ", out);
			md_text(out, json_string_value(json_object_get(e, "table")));
			fputs(" | ", out);
		} else {
			fprintf(out, "  %s (%s): item bytes ",
				json_string_value(json_object_get(e, "entity")),
				json_string_value(json_object_get(e, "table")));
		}
		put_num(out, json_object_get(b, "max"), "");
		fputs(md ? ", " : " max, ", out);
		put_num(out, json_object_get(b, "mean"), "");
		fprintf(out, md ? ", %lld | " : " mean, %lld examples; write units ",
			(long long)json_integer_value(json_object_get(b, "examples")));
		put_slots(out, json_object_get(e, "write_units"));
		fputs(md ? " | " : "; count ", out);
		put_num(out, json_object_get(e, "count"), "");
		fputs(md ? " | " : "; storage bytes ", out);
		put_slots(out, json_object_get(e, "storage_bytes"));
		fputs(md ? " |\n" : "\n", out);
	}
}

static void text_patterns(FILE *out, json_t *r, bool md)
{
	size_t i;
	json_t *p;
	fputs(md ? "\n## Access patterns\n\n| Pattern | Operation | Index | Items | Bytes | "
		   "Read units | Write units | Rate (/s) | On-demand a month | Provisioned a "
		   "month |\n|---|---|---|---|---|---|---|---|---|---|\n"
		 : "\naccess patterns (units per request):\n", out);
	json_array_foreach(json_object_get(r, "patterns"), i, p) {
		json_t *ix = json_object_get(p, "index"), *m = json_object_get(p, "monthly_usd");
		const char *id = json_string_value(json_object_get(p, "pattern"));
		const char *op = json_string_value(json_object_get(p, "operation"));
		const char *tn = json_string_value(json_object_get(p, "table"));
		const char *in = json_is_string(ix) ? json_string_value(ix) : "";
		if (md) {
			fputs("| ", out);
			md_text(out, id);
			fprintf(out, " | %s | ", op);
			md_text(out, *in ? in : tn);
			fputs(" | ", out);
		} else {
			fprintf(out, "  %s: %s %s%s%s, ", id, op, tn, *in ? "." : "", in);
		}
		put_num(out, json_object_get(p, "items"), md ? " | " : " items, ");
		bool read = !strcmp(op, "GetItem") || !strcmp(op, "Query") || !strcmp(op, "Scan");
		put_num(out, json_object_get(p, "bytes"),
			md ? " | " : read ? " bytes; read units " : " bytes; write units ");
		if (md || read)
			put_slots(out, json_object_get(p, "read_units"));
		if (md)
			fputs(" | ", out);
		if (md || !read)
			put_slots(out, json_object_get(p, "write_units"));
		fputs(md ? " | " : "; rate ", out);
		put_num(out, json_object_get(p, "rate"), md ? " | " : "/s: on-demand ");
		put_usd(out, json_object_get(m, "on_demand"));
		fputs(md ? " | " : ", provisioned ", out);
		put_usd(out, json_object_get(m, "provisioned"));
		fputs(md ? " |\n" : " a month\n", out);
	}
}

static void text_tables(FILE *out, json_t *r, bool md)
{
	size_t i;
	json_t *t;
	fputs(md ? "\n## Tables, a month\n\n| Table | Class | Storage bytes | On-demand | "
		   "Provisioned |\n|---|---|---|---|---|\n"
		 : "\ntables, a month:\n", out);
	json_array_foreach(json_object_get(r, "tables"), i, t) {
		json_t *m = json_object_get(t, "monthly_usd");
		const char *name = json_string_value(json_object_get(t, "table"));
		const char *cls = json_string_value(json_object_get(t, "table_class"));
		if (md) {
			fputs("| ", out);
			md_text(out, name);
			fprintf(out, " | %s | ", cls);
		} else {
			fprintf(out, "  %s (%s): storage ", name, cls);
		}
		put_num(out, json_object_get(t, "storage_bytes"), md ? " | " : " bytes; on-demand ");
		put_mode(out, json_object_get(m, "on_demand"), md);
		fputs(md ? " | " : "; provisioned ", out);
		put_mode(out, json_object_get(m, "provisioned"), md);
		fputs(md ? " |\n" : "\n", out);
	}
}

static void write_text(FILE *out, json_t *r, bool md)
{
	json_t *pr = json_object_get(r, "prices"), *a = json_object_get(r, "assumptions");
	json_t *m = json_object_get(r, "monthly_usd");
	const char *design = json_string_value(json_object_get(r, "design"));
	if (md) {
		fputs("# Capacity and cost: ", out);
		md_text(out, design);
		fputs("\n\n", out);
	} else {
		fprintf(out, "%s: capacity and cost\n", design);
	}
	fprintf(out, "%sprices: %s, %s, from %s%s%s\n", md ? "- " : "",
		json_string_value(json_object_get(pr, "region")),
		json_string_value(json_object_get(pr, "date")),
		json_string_value(json_object_get(pr, "source")),
		json_is_string(json_object_get(pr, "file")) ? " in " : "",
		json_is_string(json_object_get(pr, "file"))
			? json_string_value(json_object_get(pr, "file")) : "");
	static const char *const keys[] = { "item_size", "items_read", "consistency", "writes",
					    "storage", "provisioned", "not_included" };
	fprintf(out, "%sa month is 2592000 s (30 days); a GB is 2^30 bytes\n", md ? "- " : "");
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		fprintf(out, "%s%s\n", md ? "- " : "",
			json_string_value(json_object_get(a, keys[i])));
	fputs(md ? "- patterns without a rate (not priced): " : "patterns without a rate: ", out);
	put_list(out, json_object_get(a, "patterns_without_rate"));
	fputs(md ? "\n- entities without a count (storage unknown): "
		 : "\nentities without a count: ", out);
	put_list(out, json_object_get(a, "entities_without_count"));
	fputs("\n", out);
	text_entities(out, r, md);
	text_patterns(out, r, md);
	text_tables(out, r, md);
	fputs(md ? "\n**Total a month:** on-demand " : "\ntotal a month: on-demand ", out);
	put_mode(out, json_object_get(m, "on_demand"), md);
	fputs("; provisioned ", out);
	put_mode(out, json_object_get(m, "provisioned"), md);
	fputs("\n", out);
}

ddbc_emit_result ddbc_emit_cost(FILE *out, const ddbc_design *g, const ddbc_prices *pr,
				ddbc_cost_format fmt)
{
	json_t *r = ddbc_cost_report(g, pr);
	if (fmt == DDBC_COST_JSON) {
		json_dumpf(r, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
		fputc('\n', out);
	} else {
		write_text(out, r, fmt == DDBC_COST_MD);
	}
	json_decref(r);
	return DDBC_EMIT_OK;
}
