/* regions.h - the AWS Regions a design may name, in one place
 *
 * `replicas:` and `witness:` (SPEC 8.7) name Regions; a name that is no
 * Region is a schema finding at the value, and multi-Region strong
 * consistency needs its Regions in one of DynamoDB's Region sets.
 */
#ifndef DDBC_REGIONS_H
#define DDBC_REGIONS_H

#include <stdbool.h>
#include <stddef.h>

/* Whether name is an AWS Region (commercial, GovCloud and China). */
bool ddbc_region_known(const char *name);
/* Every Region, comma-separated, for messages and docs. */
const char *ddbc_region_list(void);
/* The nearest Region name to name (a typo), or NULL. */
const char *ddbc_region_suggest(const char *name);
/* The MRSC Region set name belongs to ("US", "EU", "AP"), or NULL when it
 * is in none: a multi-Region strongly consistent global table keeps its
 * replicas and witness in one set (the API reference of
 * CreateGlobalTableWitnessGroupMemberAction). */
const char *ddbc_region_mrsc_set(const char *name);
/* The Regions of set, comma-separated. */
const char *ddbc_region_mrsc_members(const char *set);

#endif
