/* check.h - the whole check of one design: load, resolve, rules
 *
 * Every command starts here: `lint` prints the findings, the other
 * commands write their output only when there is no error.
 */
#ifndef DDBC_CHECK_H
#define DDBC_CHECK_H

#include "model/model.h"

#include <stddef.h>

/* Loads and checks src, adding every finding to d and resolving their
 * severities (cli's settings over the design's lint.rules). Returns the
 * design, or NULL when the file could not be loaded (d->fatal). When src's
 * stop (util/source.h) says so, the check ends early: its findings and
 * model are incomplete, and the caller that set stop drops them. */
ddbc_design *ddbc_check(const ddbc_source *src, ddbc_diags *d, const ddbc_settings *cli);

/* The number of entities in each block the checks run on (check.c says
 * why); 0 restores the default. For tests, which hold the findings equal
 * whatever the blocks. */
void ddbc_check_block_entities(size_t n);

#endif
