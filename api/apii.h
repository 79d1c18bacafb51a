/*
** apii.h: what api/ gives the layers above it (driver/) beside the public
** <graft/api.h> (api.h): the steps graft's commands and the API
** share, on the internal types.
*/
#ifndef GRAFT_APII_H
#define GRAFT_APII_H

#include "api.h"
#include "rewrite.h"

/* api_ruleset_find: the ruleset or target table shipped with graft
** (shipped.h) called name, or else a loaded plugin's, or NULL. */
const Ruleset *api_ruleset_find(const char *name);
/* api_rulesets_list: prints to f the names of the shipped rulesets, then
** the loaded plugins' (target: of the target tables), comma-separated;
** returns how many. */
int api_rulesets_list(FILE *f, int target);

/* api_bind_tensor: binds @main's parameter name of m to the tensor t, read
** from path (named in diagnostics), as `graft --bind name=path` does
** (ir_bind_params(): m's uses of it become a constant, its data copied).
** Returns 0; 1 after reporting an error through d; -1, reporting nothing,
** when @main has no parameter name.  api_bind_npy: the same, t read from
** the .npy file at path (1 after reporting that it cannot be read). */
int api_bind_tensor(Module *m, const char *name, const Tensor *t, const char *path, Diag *d);
int api_bind_npy(Module *m, const char *name, const char *path, Diag *d);

#endif
