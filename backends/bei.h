/*
** bei.h: what the backends share beyond backend.h: the partitions that a
** plugin's codegen runs (BeCodegen), called from the code the c and llvm
** backends generate, through be_ext_call() with a BeExt as context.
*/
#ifndef GRAFT_BEI_H
#define GRAFT_BEI_H

#include "backend.h"

/* A partition its target's codegen runs: the codegen's program, and the
** partition's signature.  d and failed are set for each run. */
typedef struct BeExt {
	const BeCodegen *cg;
	void *prog;
	NodeId fn;              /* the partition (NK_FUNC) */
	BeSig sig;
	char name[128];         /* the partition's global name */
	Diag *d;                /* where run() reports */
	int failed;             /* run() failed and said why */
} BeExt;

/* The codegen of global function fn of m (be_codegen_of) prepared to run
** it, or NULL after reporting through d. */
BeExt *be_ext_new(const Module *m, NodeId fn, Diag *d);
void be_ext_free(BeExt *x);

/* The entry point generated code calls a partition through, in its
** calling convention (c.h) with the BeExt as context: runs the codegen
** on in[], copies its results to out[]; 0, or 1 with x->failed set. */
int32_t be_ext_call(void *x, const void *const *in, void *const *out);

/* be_run_entry() with the partitions ext[0..next) the entry may call:
** an error their codegen reported is not taken for a division by zero. */
int be_run_entry_ext(BeEntry *fn, const BeSig *sig, const Tensor *in, Tensor *out, Diag *d,
                     BeExt *const *ext, uint32_t next);

#endif
