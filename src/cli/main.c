/* main.c - ddbc, the DynamoDB design compiler */
#include "cli/cli.h"

#include <malloc.h>

int main(int argc, char **argv)
{
	/* ddbc builds one large model and frees it at the end: keep the heap
	 * rather than trimming and regrowing it between phases. */
	mallopt(M_TRIM_THRESHOLD, 256 * 1024 * 1024);
	mallopt(M_TOP_PAD, 16 * 1024 * 1024);
	return ddbc_cli_main(argc, argv);
}
