/*
** interp.h: rules loaded at run time.  interp_load() reads a .rules file
** with graftc's own front end (dsl/: the same parser, checks and
** diagnostics) into the same decision trees graftc writes C from, and
** gives a Ruleset whose match() interprets them: what `graft --rules
** FILE.rules` and `--target "FILE.rules, host"` run, with no C compiler.
** An interpreted ruleset and the generated one of the same file give the
** same rewrites, in the same order, with the same rule indices.
**
** Ownership: the Ruleset owns everything it reads (the parsed rules, their
** trees, the tables); interp_free() releases it all.
*/
#ifndef GRAFT_INTERP_H
#define GRAFT_INTERP_H

#include <stdio.h>

#include "rewrite.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Loads path.  Errors are reported to errs as graftc reports them
** (file:line:col: error: ..., with the source line and a caret); returns
** NULL then.  An `extern pred NAME` or `extern action NAME` is the
** function graft_pred_NAME or graft_action_NAME that the program, or a
** shared library loaded into it, defines (found with dlsym); one that none
** defines is an error naming it. */
const Ruleset *interp_load(const char *path, FILE *errs);
void interp_free(const Ruleset *rs);

#ifdef __cplusplus
}
#endif

#endif
