/* main.c - ddbc, the DynamoDB design compiler */
#include "cli.h"

int main(int argc, char **argv)
{
	return ddbc_cli_main(argc, argv);
}
