/*
** rulesets.h: the rulesets the graft command knows by name: shipped,
** its plugins', and its build's own.
*/
#ifndef GRAFT_DRIVER_RULESETS_H
#define GRAFT_DRIVER_RULESETS_H

#include "rewrite.h"

/* Loads the plugins argv names (--plugin FILE, --plugin=FILE; plugins.c), in order,
** before any other option is read, so that their rulesets have names.
** Returns 0, or 1 after printing why one does not load. */
int drv_plugins_load(int argc, char **argv);

/* The ruleset or target table called name: the build's own
** (rulesets.def), or else a shipped or loaded plugin's
** (api_ruleset_find()), or NULL. */
const Ruleset *drv_ruleset_find(const char *name);
/* Prints the names of the shipped, plugin and the build's own rulesets
** (targets: of the target tables), comma-separated ("none" for none). */
void drv_rulesets_list(FILE *f, int targets);

#endif
