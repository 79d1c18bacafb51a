/*
** acme.h: what the Acme plugin (acme.c) is made of, for a program that
** links it in (acme-run.c) instead of loading it.
*/
#ifndef ACME_H
#define ACME_H

#include <graft/graft.h>

/* graftc's output for acme.rules: acme's rewrite rule and pattern table */
extern const graft_matcher graft_ruleset_acme;

/* acme.rules' extern predicate acme_fits(conv) */
GRAFT_EXPORT int graft_pred_acme_fits(graft_rw *rw, graft_node root, graft_node conv);

/* the plugin's entry point (GRAFT_PLUGIN in acme.c) */
extern const GraftPlugin graft_plugin;

#endif
