/*
** rulesets.h: the rulesets built into the graft command.
*/
#ifndef GRAFT_DRIVER_RULESETS_H
#define GRAFT_DRIVER_RULESETS_H

#include "rewrite.h"

/* The built-in ruleset or target table called name, or NULL. */
const Ruleset *graft_ruleset_find(const char *name);
/* Prints the names of the built-in rulesets (targets: of the target
** tables), comma-separated. */
void graft_rulesets_list(FILE *f, int targets);

#endif
