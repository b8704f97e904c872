/* aws_retry.c - which failures are tried again, and after how long
 *
 * As the SDKs' standard retry mode: throttling errors, transient errors
 * (5xx, a timeout, a connection that failed or broke) are retried, after a
 * delay drawn uniformly from [0, min(cap, base * 2^attempt)] ("full
 * jitter"), so that clients throttled together do not retry together.
 * Anything else (a validation error, a missing table, a failed condition)
 * would fail the same way again and is returned at once.
 */
#include "aws/aws_int.h"

#include <stdlib.h>
#include <string.h>

#define BACKOFF_BASE_MS 100
#define BACKOFF_CAP_MS 20000

/* The SDKs' list of throttling and transient error codes. */
static const char *const retry_types[] = {
	"Throttling", "ThrottlingException", "ThrottledException",
	"RequestThrottledException", "TooManyRequestsException",
	"ProvisionedThroughputExceededException", "TransactionInProgressException",
	"RequestLimitExceeded", "BandwidthLimitExceeded", "LimitExceededException",
	"RequestThrottled", "SlowDown", "PriorRequestNotComplete", "EC2ThrottledException",
	"RequestTimeout", "RequestTimeoutException", "InternalServerError",
	"ServiceUnavailable",
};

bool ddbc_aws_retryable(const ddbc_dynamo_error *e)
{
	if (e->transport)
		return true;
	if (e->http_status >= 500 && e->http_status != 501)
		return true;
	if (e->http_status == 429)
		return true;
	for (size_t i = 0; i < sizeof retry_types / sizeof *retry_types; i++)
		if (strcmp(e->type, retry_types[i]) == 0)
			return true;
	return false;
}

long ddbc_aws_backoff_ms(int attempt, unsigned *seed)
{
	long ceiling = BACKOFF_CAP_MS;
	int shift = attempt > 0 ? attempt - 1 : 0;
	if (shift < 16 && (long)BACKOFF_BASE_MS << shift < ceiling)
		ceiling = (long)BACKOFF_BASE_MS << shift;
	return (long)((double)rand_r(seed) / ((double)RAND_MAX + 1.0) * (double)(ceiling + 1));
}
