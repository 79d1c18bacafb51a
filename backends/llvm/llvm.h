/*
** llvm.h: the LLVM backend (backends/llvm).  The entry points it compiles
** follow the calling convention told in backends/c/c.h.
*/
#ifndef GRAFT_BE_LLVM_H
#define GRAFT_BE_LLVM_H

#include "backend.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum BeLlvmOut {
	BE_LLVM_IR,             /* --emit llvm: LLVM IR text (.ll) */
	BE_LLVM_OBJ,            /* --emit obj: a native object file (.o) */
} BeLlvmOut;

/* Compiles m (every global function) at o->opt for the machine o names
** (the host's when o->triple, cpu and attr are NULL) and writes it to out as
** kind, with, for BE_LLVM_OBJ, a header declaring its entry points to h
** (NULL for none).  Returns 0, or reports through d and returns the
** number of errors; the caller checks out and h for write errors. */
int be_llvm_emit(const Module *m, const BeOpts *o, BeLlvmOut kind, FILE *out, FILE *h, Diag *d);

/* Checks the machine o->triple, o->cpu and o->attr name (BeOpts): a
** triple LLVM has a target for, a CPU and features LLVM knows for it
** (each "+name" or "-name"), little-endian.  Returns 0, with *native
** (unless NULL) set when the machine is this one's architecture and OS,
** whose code be_llvm can run; or 1 with why in err, LLVM's message where
** LLVM gives one. */
int be_llvm_target_check(const BeOpts *o, int *native, char *err, size_t nerr);

/* be_llvm.prepare, with where its time went in *st (see BeStats); the
** Program is be_llvm's, for be_llvm.run and be_llvm.release. */
Program *be_llvm_prepare(const Module *m, const BeOpts *o, BeStats *st, Diag *d);

/* Sets the threads be_llvm.run runs p's code on from now on, as
** BeOpts.threads does (0: the machine's cores); the results do not depend
** on them.  be_llvm_cores: the machine's cores. */
void be_llvm_threads(Program *p, int n);
int be_llvm_cores(void);

#ifdef __cplusplus
}
#endif

#endif
