/*
** shipped.h: the rulesets and target tables shipped with graft, compiled
** by graftc from rulesets/ into gen/ and into libgraft: what `graft
** --rules NAME` and `--target NAME` find by name, for a program to apply
** or partition with directly.  Their sources are installed in
** $(datadir)/graft/rulesets, where `include "NAME.rules"` finds them.
*/
#ifndef GRAFT_SHIPPED_H
#define GRAFT_SHIPPED_H

#include "rewrite.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const Ruleset graft_ruleset_algebra;       /* examples/algebra.rules */
extern const Ruleset graft_ruleset_canonicalize;  /* canonicalize.rules */
extern const Ruleset graft_ruleset_ccompiler;     /* ccompiler.rules: target "ccompiler" */
extern const Ruleset graft_ruleset_cmsis_nn;      /* cmsis-nn.rules: target "cmsis-nn" */
extern const Ruleset graft_ruleset_ethos_n;       /* ethos-n.rules: target "ethos-n" */
extern const Ruleset graft_ruleset_qdq;           /* qdq.rules */

/* All of them, for a program that looks them up by name: X(NAME) for each
** graft_ruleset_NAME above.  ORDER: the lines above. */
#define GRAFT_SHIPPED_RULESETS(X) X(algebra) X(canonicalize) X(ccompiler) X(cmsis_nn) X(ethos_n) X(qdq)

#ifdef __cplusplus
}
#endif

#endif
