/* cli_cost.c - `ddbc cost` (cli_cost.h) */
#include "cli/cli_cost.h"
#include "emit/emit_cost.h"
#include "util/error.h"
#include "util/strbuf.h"

#include <string.h>

ddbc_emit_result ddbc_cli_cost(FILE *out, const ddbc_design *g, const char *file,
			       const char *prices, const char *format)
{
	const char *region = g->pricing_region.s ? g->pricing_region.s : "us-east-1";
	ddbc_prices pr;
	strbuf err = STRBUF_INIT;
	if (!ddbc_prices_load(prices, region, &pr, &err)) {
		if (g->pricing_region.s && strstr(ddbc_strbuf_str(&err), "has no prices for region"))
			ddbc_file_error(file, g->pricing_region.loc.line,
					g->pricing_region.loc.column, "pricing.region: %s%s",
					ddbc_strbuf_str(&err),
					prices ? "" : "; give its prices with --prices FILE");
		else
			ddbc_cmd_error("cost", "%s", ddbc_strbuf_str(&err));
		ddbc_strbuf_release(&err);
		return DDBC_EMIT_FAILED;
	}
	ddbc_strbuf_release(&err);
	ddbc_cost_format fmt = !strcmp(format, "json") ? DDBC_COST_JSON
			       : !strcmp(format, "md") ? DDBC_COST_MD : DDBC_COST_TEXT;
	ddbc_err why = DDBC_ERR_INIT;
	ddbc_emit_result r = ddbc_emit_cost(out, g, &pr, fmt, &why);
	ddbc_err_print(&why);
	ddbc_err_release(&why);
	ddbc_prices_release(&pr);
	return r;
}
