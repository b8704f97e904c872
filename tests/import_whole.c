/* import_whole.c - `ddbc import --from cloudformation`, the template read whole
 *
 * The streamed reading of templates (import_cfn_yaml.c) must mean exactly
 * what reading the template whole as one tree means, and keeping the
 * design a tree to the end. This program imports the files named as the
 * command does, the old way, for tests/import_cfn_stream.test to compare:
 * the design on standard output, the messages on standard error, exit 2
 * when the import fails.
 *
 *   import_whole [--param NAME=VALUE]... FILE...
 */
#include "import/import_int.h"

#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	ddbc_import_param *params = calloc((size_t)argc, sizeof(*params));
	char **files = calloc((size_t)argc, sizeof(*files));
	size_t nparams = 0, nfiles = 0;
	if (!params || !files)
		return 1;
	for (int i = 1; i < argc; i++) {
		char *eq = i + 1 < argc && !strcmp(argv[i], "--param") ? strchr(argv[i + 1], '=')
								  : NULL;
		if (eq) {
			*eq = '\0';
			params[nparams++] = (ddbc_import_param){ argv[i + 1], eq + 1 };
			i++;
		} else {
			files[nfiles++] = argv[i];
		}
	}
	int rc = ddbc_import_how(ddbc_import_source_named("cloudformation"), files, nfiles, params,
				 nparams,
				 stdout, true);
	free(params);
	free(files);
	return rc < 0 ? 2 : 0;
}
