/* yaml_floor.c - the floor of any loader built on libyaml
 *
 * Reads a file and pulls every event out of libyaml's parser, doing nothing
 * with them. ddbc's commands are measured as a ratio to this.
 */
#include "read_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <yaml.h>

int main(int argc, char **argv)
{
	size_t n;
	unsigned char *buf = (unsigned char *)read_file(argc, argv, "yaml_floor FILE", &n);

	yaml_parser_t parser;
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, buf, n);
	size_t events = 0;
	for (;;) {
		yaml_event_t ev;
		if (!yaml_parser_parse(&parser, &ev)) {
			fprintf(stderr, "yaml error: %s\n", parser.problem);
			return 1;
		}
		int done = ev.type == YAML_STREAM_END_EVENT;
		yaml_event_delete(&ev);
		events++;
		if (done)
			break;
	}
	yaml_parser_delete(&parser);
	free(buf);
	printf("%zu events\n", events);
	return 0;
}
