/* regions.c - the AWS Regions a design may name (regions.h) */
#include "model/regions.h"
#include "util/suggest.h"

#include <string.h>

/* AWS's Regions as of 2026 (the AWS General Reference, "AWS Regions"). */
static const char *const regions[] = {
	"us-east-1", "us-east-2", "us-west-1", "us-west-2",
	"af-south-1",
	"ap-east-1", "ap-east-2", "ap-south-1", "ap-south-2",
	"ap-southeast-1", "ap-southeast-2", "ap-southeast-3", "ap-southeast-4",
	"ap-southeast-5", "ap-southeast-6", "ap-southeast-7",
	"ap-northeast-1", "ap-northeast-2", "ap-northeast-3",
	"ca-central-1", "ca-west-1",
	"eu-central-1", "eu-central-2", "eu-west-1", "eu-west-2", "eu-west-3",
	"eu-south-1", "eu-south-2", "eu-north-1",
	"il-central-1", "me-south-1", "me-central-1", "mx-central-1", "sa-east-1",
	"us-gov-east-1", "us-gov-west-1", "cn-north-1", "cn-northwest-1",
};

#define NREGIONS (sizeof regions / sizeof regions[0])

/* The Region sets of multi-Region strong consistency, as the API
 * reference lists them: US East (N. Virginia), US East (Ohio), US West
 * (Oregon); Europe (Ireland), (London), (Paris), (Frankfurt); Asia
 * Pacific (Tokyo), (Seoul), (Osaka). */
static const struct {
	const char *set, *members;
} mrsc_sets[] = {
	{ "US", "us-east-1, us-east-2, us-west-2" },
	{ "EU", "eu-west-1, eu-west-2, eu-west-3, eu-central-1" },
	{ "AP", "ap-northeast-1, ap-northeast-2, ap-northeast-3" },
};

bool ddbc_region_known(const char *name)
{
	for (size_t i = 0; i < NREGIONS; i++)
		if (!strcmp(regions[i], name))
			return true;
	return false;
}

const char *ddbc_region_list(void)
{
	return "us-east-1, us-east-2, us-west-1, us-west-2, af-south-1, ap-east-1, ap-east-2, "
	       "ap-south-1, ap-south-2, ap-southeast-1 to ap-southeast-7, ap-northeast-1 to "
	       "ap-northeast-3, ca-central-1, ca-west-1, eu-central-1, eu-central-2, eu-west-1 to "
	       "eu-west-3, eu-south-1, eu-south-2, eu-north-1, il-central-1, me-south-1, "
	       "me-central-1, mx-central-1, sa-east-1, us-gov-east-1, us-gov-west-1, cn-north-1, "
	       "cn-northwest-1";
}

const char *ddbc_region_suggest(const char *name)
{
	return ddbc_suggest(name, regions, NREGIONS);
}

/* Whether name is one of the comma-separated members. */
static bool member(const char *members, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = members; (p = strstr(p, name)); p += n)
		if ((p == members || p[-1] == ' ') && (p[n] == ',' || p[n] == '\0'))
			return true;
	return false;
}

const char *ddbc_region_mrsc_set(const char *name)
{
	for (size_t i = 0; i < sizeof mrsc_sets / sizeof mrsc_sets[0]; i++)
		if (member(mrsc_sets[i].members, name))
			return mrsc_sets[i].set;
	return NULL;
}

const char *ddbc_region_mrsc_members(const char *set)
{
	for (size_t i = 0; i < sizeof mrsc_sets / sizeof mrsc_sets[0]; i++)
		if (!strcmp(mrsc_sets[i].set, set))
			return mrsc_sets[i].members;
	return "";
}
