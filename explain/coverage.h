/*
** coverage.h: rule coverage (coverage.c): `graft --coverage FILE.json`
** counts, run after run into one file, how often each rule, composite and
** supports entry, and each of their pattern variants (alternatives,
** optional nodes present or absent, commutative operands either way),
** matched (its pattern matched and its guard held) and fired (rewrote,
** or was taken by the partitioner); `graft coverage FILE.json` reports
** what never fired, with its place.
**
** The file is JSON, written whole (ir_out), sorted by ruleset and rule so
** that it diffs well:
**   { "graft-coverage": 1, "runs": N,
**     "rulesets": [ { "name": ..., "file": ..., "rules": [
**       { "name": ..., "kind": "rule", "line": L, "matched": M, "fired": F,
**         "variants": [ { "pattern": ..., "matched": M, "fired": F } ] } ] } ] }
*/
#ifndef GRAFT_COVERAGE_H
#define GRAFT_COVERAGE_H

#include <stdint.h>
#include <stdio.h>

#include "rewrite.h"

typedef struct CovVar {
	char *pattern;
	uint64_t matched, fired;
} CovVar;

typedef struct CovRule {
	char *name, *kind;
	uint32_t line;
	uint64_t matched, fired;
	CovVar *vars;
	uint32_t nvars;
} CovRule;

typedef struct CovSet {
	char *name, *file;
	CovRule *rules;
	uint32_t nrules;
} CovSet;

typedef struct Coverage {
	uint64_t runs;
	CovSet *sets;
	uint32_t nsets;
} Coverage;

/* Reads path into c (empty if there is no such file).  Returns 0, or 1
** after a message FILE:LINE:COL: error: ... to errs. */
int cov_read(const char *path, Coverage *c, FILE *errs);
/* Writes c to path, whole or not at all.  Returns 0, or 1 after a message. */
int cov_write(const char *path, const Coverage *c, FILE *errs);
void cov_free(Coverage *c);

/* One run's counts for a ruleset loaded with interp_load: give cov_trace
** and the CovRun to interp_trace(); add the rewrite or partition stats'
** fired counts to fired[] (per rule, in rs->rules order); then cov_add. */
typedef struct CovRun {
	const Ruleset *rs;
	const char *file;       /* its source */
	uint64_t *matched, *fired;      /* per rule */
	uint32_t *first;        /* per rule: its first variant's slot */
	uint64_t *vmatched, *vfired;    /* per variant */
} CovRun;

void cov_run_init(CovRun *r, const Ruleset *rs, const char *file);
void cov_run_free(CovRun *r);
void cov_trace(void *ctx, uint32_t rule, uint32_t variant, int what);
void cov_add(Coverage *c, const CovRun *r);

/* Writes what never fired, with its place, and a summary per ruleset. */
void cov_report(FILE *f, const Coverage *c);

#endif
