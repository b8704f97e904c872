/* import.c - reads the source files and writes the design
 *
 * Every source here is JSON (Workbench models, describe-table output, the
 * MCP server's schema), read whole with jansson: such files are small. The
 * design is assembled in full before a byte is written, so a bad file
 * leaves nothing behind.
 */
#include "import/import.h"
#include "import/import_int.h"

typedef int (*reader)(const char *file, const json_t *root, json_t *design);

static const reader readers[] = {
	[DDBC_IMPORT_WORKBENCH] = ddbc_import_workbench,
	[DDBC_IMPORT_DESCRIBE_TABLE] = ddbc_import_describe,
};

static int read_one(reader r, const char *file, json_t *design)
{
	json_error_t err;
	json_t *root = json_load_file(file, JSON_REJECT_DUPLICATES, &err);
	if (!root)
		return ddbc_import_fail(file, "%d:%d: %s", err.line, err.column, err.text);
	int rc = r(file, root, design);
	json_decref(root);
	return rc;
}

int ddbc_import(ddbc_import_from from, char *const *files, size_t nfiles, FILE *out)
{
	json_t *design = json_pack("{sisnso}", "ddbc", 1, "name", "tables", json_object());
	json_object_set_new(design, "entities", json_object());
	for (size_t i = 0; i < nfiles; i++) {
		if (read_one(readers[from], files[i], design) < 0) {
			json_decref(design);
			return -1;
		}
	}
	if (!json_is_string(json_object_get(design, "name")))
		json_object_set_new(design, "name", json_string("imported"));
	if (!json_object_size(json_object_get(design, "entities")))
		json_object_del(design, "entities");
	ddbc_import_write_yaml(out, design);
	json_decref(design);
	return 0;
}
