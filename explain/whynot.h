/*
** whynot.h: `graft --why-not NAME`: why a rule or composite does not
** match, node by node, for rule authors (whynot.c).
*/
#ifndef GRAFT_WHYNOT_H
#define GRAFT_WHYNOT_H

#include <stdio.h>

#include "rewrite.h"

/* What to explain: the rule or composite called name (or given as
** FILE:LINE), of the rules file path (loaded with interp_load), in module
** m as it stands (dm: its diagnostics, which quote its source); atline
** (and atcol) not 0: only the node there.  Writes to out, each place with its source line and a caret: for each node of
** the rule's root op, where matching stopped (the pattern part or guard,
** what was expected and what was found, the values of the guard's terms),
** or that it matches, and then whether another rule is tried first.
** Returns 0, or 1 after an error to errs (no such rule, the file does not
** load). */
typedef struct WhyNot {
	const char *name;
	const char *rules;      /* the .rules file NAME is in */
	uint32_t atline, atcol; /* --at; 0: every node */
	FILE *out, *errs;
} WhyNot;

int whynot(Module *m, Diag *dm, const WhyNot *w);

/* Whether rs has a rule or entry called name, or given as FILE:LINE. */
int whynot_has(const Ruleset *rs, const char *name);

#endif
