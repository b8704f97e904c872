/* yaml_floor.c - the floor of any loader built on libyaml
 *
 * Reads a file and pulls every event out of libyaml's parser, doing nothing
 * with them. ddbc's commands are measured as a ratio to this.
 */
#include <stdio.h>
#include <stdlib.h>
#include <yaml.h>

int main(int argc, char **argv)
{
	if (argc != 2) {
		fputs("usage: yaml_floor FILE\n", stderr);
		return 2;
	}
	FILE *f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 2;
	}
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	unsigned char *buf = malloc((size_t)n + 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n)
		return 2;
	fclose(f);

	yaml_parser_t parser;
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, buf, (size_t)n);
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
