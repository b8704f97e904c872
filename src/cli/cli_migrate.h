/* cli_migrate.h - `ddbc migrate`: the plan's item steps carried out
 * (src/live/migrate.h) */
#ifndef DDBC_CLI_MIGRATE_H
#define DDBC_CLI_MIGRATE_H

#include "cli/cli_opts.h"

exit_status ddbc_cli_migrate(struct opts *o);

#endif
