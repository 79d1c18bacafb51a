/*
** rulesets.h: the rulesets built into the graft command, and those of the
** plugins it loads.
*/
#ifndef GRAFT_DRIVER_RULESETS_H
#define GRAFT_DRIVER_RULESETS_H

#include "rewrite.h"

/* Loads the plugins argv names (--plugin FILE, --plugin=FILE; plugins.c), in order,
** before any other option is read, so that their rulesets have names.
** Returns 0, or 1 after printing why one does not load. */
int drv_plugins_load(int argc, char **argv);

/* The built-in ruleset or target table called name, or else a loaded
** plugin's, or NULL. */
const Ruleset *drv_ruleset_find(const char *name);
/* Prints the names of the built-in and plugin rulesets (targets: of the
** target tables), comma-separated. */
void drv_rulesets_list(FILE *f, int targets);

#endif
