/*
** pipeline.h: what the graft command's two halves share (pipeline.c):
** the options that say what to do to a model, and the pipeline that does
** it.  driver/graft.c prints or compiles its result; driver/run.c (`graft
** run`) runs it on a backend.  The driver's own names start with drv_
** (graft_ is libgraft's public API, which the driver calls where it can).
*/
#ifndef GRAFT_PIPELINE_H
#define GRAFT_PIPELINE_H

#include "backend.h"
#include "ir.h"
#include "partition.h"
#include "rulesets.h"
#include "safetensors.h"
#include "coverage.h"

enum { GRAFT_MAXSETS = 32 };    /* --rules, and --target's targets */

/* What the pipeline does to a model. */
typedef struct Pipeline {
	const char *model;      /* MODEL.relay */
	const char *params;     /* --params FILE, or NULL */
	/* values for the model's inputs, .npy files: graft --bind NAME=FILE
	** (every one frozen: @main's parameter, or the ONNX graph input,
	** becomes a constant), or graft run's --input (bindneeded: only the
	** ONNX inputs that the importer needs as constants); frozen[i] (the
	** pipeline's) is set for each value that became a constant */
	char **bindname;        /* owned; drv_opt_bind() appends */
	const char **bindfile, **bindarg;
	int nbind;
	int bindneeded;
	uint8_t *frozen;        /* owned, nbind flags */
	const Ruleset *rules[GRAFT_MAXSETS];    /* --rules, in order */
	int nrules;
	const Ruleset *targets[GRAFT_MAXSETS];  /* --target, before the host */
	int ntargets;
	/* a .rules file given where rules[i] or targets[i] is NULL: loaded
	** (interp/) when the pipeline runs; drv_pipeline_free() releases
	** what was loaded */
	const char *rulefile[GRAFT_MAXSETS];
	char *targetfile[GRAFT_MAXSETS];
	/* --target's host part in tvmc's form, "llvm -mtriple=T -mcpu=C
	** -mattr=A -device=D" (owned; NULL for host, llvm or c alone), read
	** by drv_pipeline_host() into host's triple, cpu, attr and device
	** (pointing into hostbuf, owned); hostnative is set when code for it
	** runs on this machine; hostdone is 1 once read, 2 if it was wrong */
	char *hostspec;
	BeOpts host;
	char *hostbuf;
	int hostnative, hostdone;
	PartStop stop;          /* 0 for PS_ALL */
	int verify;             /* run the IR verifier after each step */
	int stats;              /* rule firings and offloads, to stderr */
	int explain;            /* why ops stayed on the host, to stderr */
	int time;               /* --time: each step's wall time, to stderr */
	/* --why-not NAME: the pipeline stops before the ruleset or target that
	** has NAME (whystop set), whose .rules file is whyrules */
	const char *whynot;
	int whystop;
	char whyrules[4096];
	/* --coverage FILE: every ruleset and target runs interpreted and
	** traced (a compiled one by its twin loaded from source, covown);
	** drv_pipeline_save_coverage() adds the counts to FILE */
	/* keep: each ruleset's fired counts (keepfired[i] for rules[i],
	** keepfired[GRAFT_MAXSETS + t] for targets[t]), for graft rules-diff */
	int keep;
	uint64_t *keepfired[2 * GRAFT_MAXSETS];
	const char *coverage;
	CovRun cov[2 * GRAFT_MAXSETS];
	char *covfile[2 * GRAFT_MAXSETS];
	const Ruleset *covown[2 * GRAFT_MAXSETS];
	int ncov;
} Pipeline;

/*
** drv_opt_rules: appends the built-in ruleset called name (--rules
** NAME), or the .rules file name names (one holding '/' or ending in
** ".rules"), to p->rules.  Returns 1, or 0 after printing a usage error.
*/
int drv_opt_rules(Pipeline *p, const char *name);

/*
** drv_opt_target: appends the targets of a --target list "a, b, host"
** (those before the host, named host, llvm or c; each a built-in target
** or a .rules file, as for --rules) to p->targets; a host "llvm -mtriple=
** ..." is kept in p->hostspec.  Returns 1, or 0 after printing a usage
** error.
*/
int drv_opt_target(Pipeline *p, const char *list);

/*
** drv_pipeline_host: reads p->hostspec, if any, into p->host and
** p->hostnative: the options tvmc's llvm target takes (-mtriple, -mcpu,
** -mattr, -device), each at most once, checked by the llvm backend
** (be_llvm_target_check).  drv_pipeline() calls it first; later calls
** give the first one's answer.  Returns 0, or 1 after saying what is
** wrong.
*/
int drv_pipeline_host(Pipeline *p);

/*
** drv_opt_bind: appends the value of option opt (--bind or --input),
** arg: NAME=FILE.npy, NAME perhaps with its '%', to p->bind*.  Returns 1,
** or 0 after printing a usage error (a malformed arg, a NAME given twice).
*/
int drv_opt_bind(Pipeline *p, const char *opt, const char *arg);

/*
** drv_opt_model: a command-line word that is no known option: the model
** (p->model), unless it looks like an option or a model was given already.
** Returns 1, or 0 after printing a usage error.
*/
int drv_opt_model(Pipeline *p, const char *a);

/*
** drv_pipeline: loads the .rules files named, reads p->model into m
** (fresh from ir_module_new(), with d initialised on it), binds p->params
** (read into *params, which the caller frees with ir_st_free() after m),
** infers types, applies p->rules in order and partitions for p->targets.
** Returns 0, or 1 after reporting every error it found through d or to
** stderr.
*/
int drv_pipeline(Pipeline *p, Module *m, Diag *d, StFile *params);

/* drv_pipeline_coverage: --coverage FILE: this run's counts added to
** FILE's.  Returns 0, or 1 after saying why not. */
int drv_pipeline_coverage(Pipeline *p);

/*
** graft --time: each step that ran, in order, as one line on standard
** error, "time: STEP SECONDS s" and then " KEY=N" pairs (bytes=, nodes=,
** rewrites=).  STEP is one word: load (the .rules files given), params
** (reading --params), parse (reading and parsing the model; import for an
** ONNX model), bind, infer, verify, rules.NAME (each ruleset), partition,
** print (the output), save-params, and last total.  drv_time_step:
** with p->time, prints the line of step `step` that began at *t0, with
** the pairs fmt gives (NULL: none), and sets *t0 to now.
*/
double drv_now(void);         /* seconds, monotonic */
void drv_time_step(const Pipeline *p, const char *step, double *t0, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* drv_pipeline_free: releases the rulesets p loaded */
void drv_pipeline_free(Pipeline *p);

#endif
