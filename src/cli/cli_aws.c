/* cli_aws.c - the DynamoDB client as a command's options ask for it */
#include "cli/cli_aws.h"
#include "util/error.h"

#include <stdlib.h>

ddbc_dynamo *ddbc_cli_dynamo_open(const struct opts *o)
{
	ddbc_dynamo_opts d = {
		.endpoint = o->endpoint,
		.region = o->region,
		.profile = o->profile,
		.max_attempts = (int)o->max_attempts,
	};
	char *err = NULL;
	ddbc_dynamo *c = ddbc_dynamo_open(&d, &err);
	if (!c) {
		ddbc_error("%s", err);
		free(err);
	}
	return c;
}
