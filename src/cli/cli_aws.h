/* cli_aws.h - the DynamoDB client as a command's options ask for it
 *
 * --endpoint, --region, --profile and --max-attempts (OPT_AWS) go to the
 * client; what they leave open is found as the AWS CLI finds it
 * (aws/dynamo.h). AWS_HELP is their part of a command's help.
 */
#ifndef DDBC_CLI_AWS_H
#define DDBC_CLI_AWS_H

#include "aws/dynamo.h"
#include "cli/cli_opts.h"

#define AWS_HELP \
	"      --endpoint URL      the engine (default: AWS_ENDPOINT_URL_DYNAMODB,\n"   \
	"                          AWS_ENDPOINT_URL, else DynamoDB in the region);\n"   \
	"                          plain http only to 127.0.0.1, ::1 or localhost\n"    \
	"      --region R          the region (default: AWS_REGION, AWS_DEFAULT_REGION,\n" \
	"                          the profile's)\n"                                    \
	"      --profile P         the profile of ~/.aws/config and ~/.aws/credentials\n" \
	"                          (default: AWS_PROFILE, else default)\n"             \
	"      --max-attempts N    tries of a throttled or failed request (default 3)\n"

/* The client, or NULL after saying on stderr why not (exit status 2). */
ddbc_dynamo *ddbc_cli_dynamo_open(const struct opts *o);

#endif
