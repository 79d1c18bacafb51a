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
/* The same for rules text[0..len) given as the file path (a name its
** diagnostics give, and its includes are found from): nothing is read
** from path itself. */
const Ruleset *interp_load_text(const char *path, const char *text, size_t len, FILE *errs);
void interp_free(const Ruleset *rs);

/* What a rule's leaf came to, each time matching reaches it: its pattern
** matched and its guard held (and, for a rule, its result was built), its
** guard was false, its result could not be built, or its result was the
** node it matched (rw_unchanged: no rewrite). */
enum { IT_MATCH, IT_GUARD, IT_RESULT, IT_UNCHANGED };
typedef void InterpTrace(void *ctx, uint32_t rule, uint32_t variant, int what);

/* Has matching with rs (loaded by interp_load) call fn with ctx for each
** leaf it reaches: rule is the index in rs->rules, variant the index of
** the rule's pattern variant (interp_variants()); NULL stops it.  For the
** rule authors' tools (graft --why-not, --coverage). */
void interp_trace(const Ruleset *rs, InterpTrace *fn, void *ctx);

/* Lets only rule (an index in rs->rules) match, or every rule again for
** -1: for checking one rule alone (graftc verify). */
void interp_only(const Ruleset *rs, int64_t rule);

/* The parsed and checked rules rs was loaded from (dsl/dsl.h), for tools
** that read the rules' source: valid until interp_free(). */
struct Rules;
const struct Rules *interp_rules(const Ruleset *rs);

/* The number of pattern variants of rule (an index in rs->rules): its
** alternatives, optional nodes present and absent, and commutative
** operands both ways, each a pattern without alternatives.  Into text (if
** not NULL), variant's pattern as Relay-like text. */
uint32_t interp_variants(const Ruleset *rs, uint32_t rule);
void interp_variant_text(const Ruleset *rs, uint32_t rule, uint32_t variant, char *text, size_t size);

#ifdef __cplusplus
}
#endif

#endif
