/* cmark_floor.c - what cmark-gfm alone would cost for the HTML documentation
 *
 * Reads a Markdown file (the output of `ddbc doc`), parses it with
 * cmark-gfm and its table extension in parts (a part ends before a heading
 * once it holds 64 KiB) and renders each to HTML, writing nothing. This is
 * how `ddbc doc --format html` used to make the page; bench.py reports it
 * beside the page's time to show what writing the structure directly
 * saves.
 */
#include "read_file.h"

#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	size_t n;
	char *buf = read_file(argc, argv, "cmark_floor FILE.md", &n);

	cmark_gfm_core_extensions_ensure_registered();
	cmark_syntax_extension *table = cmark_find_syntax_extension("table");
	if (!table)
		return 2;
	size_t total = 0, start = 0;
	while (start < n) {
		/* The part: from start to the first heading line after 64 KiB. */
		size_t end = start;
		for (;;) {
			char *nl = memchr(buf + end, '\n', n - end);
			end = nl ? (size_t)(nl - buf) + 1 : n;
			if (end >= n || (end - start >= 65536 && buf[end] == '#'))
				break;
		}
		cmark_parser *parser = cmark_parser_new(CMARK_OPT_DEFAULT);
		cmark_parser_attach_syntax_extension(parser, table);
		cmark_parser_feed(parser, buf + start, end - start);
		cmark_node *root = cmark_parser_finish(parser);
		char *html = cmark_render_html(root, CMARK_OPT_DEFAULT,
					       cmark_parser_get_syntax_extensions(parser));
		total += strlen(html);
		cmark_get_default_mem_allocator()->free(html);
		cmark_node_free(root);
		cmark_parser_free(parser);
		start = end;
	}
	printf("%zu bytes of HTML\n", total);
	free(buf);
	return 0;
}
