/*
** codegen.h: a target's codegen, which writes the partitions graft makes
** for it as the target's code (`--emit-target`) and runs them when a run
** meets one; a plugin registers it.  Installed as <graft/codegen.h>.
*/
#ifndef GRAFT_CODEGEN_H
#define GRAFT_CODEGEN_H

#include <stdint.h>
#include <stdio.h>

#include "graph.h"
#include "kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* emit() alone, prepare() and run() alone, or all; release() may be NULL. */
typedef struct graft_codegen {
	const char *target;     /* the target's name: its partitions' Compiler */
	/* writes partitions fns[0..n) of m (global functions) as the
	** target's code to f; returns 0, or nonzero after reporting why */
	int (*emit)(const graft_ir *m, const graft_node *fns, uint32_t n, FILE *f, graft_diag *d);
	/* makes partition fn of m runnable, returning what run() gets, or
	** NULL after reporting why; m is valid during the call only */
	void *(*prepare)(const graft_ir *m, graft_node fn, graft_diag *d);
	/* runs it: in[0..nin) the partition's parameters, out[0..nout) its
	** results (one, or a tuple's fields), their dtypes, shapes and room
	** for data given, as a kernel's are; returns 0, or nonzero after
	** reporting why */
	int (*run)(void *prog, const graft_tensor *in, uint32_t nin, graft_tensor *out, uint32_t nout,
	           graft_diag *d);
	void (*release)(void *prog);
} graft_codegen;

/* graft's reference interpreter, for a codegen without hardware at hand
** (a simulator): partition fn of m prepared, then run as graft_codegen's
** run() is, then released.  NULL or nonzero after reporting why. */
typedef struct graft_ref_prog graft_ref_prog;
graft_ref_prog *graft_ref_prepare(const graft_ir *m, graft_node fn, graft_diag *d);
int graft_ref_run(graft_ref_prog *p, const graft_tensor *in, uint32_t nin, graft_tensor *out, uint32_t nout,
                  graft_diag *d);
void graft_ref_release(graft_ref_prog *p);

#ifdef __cplusplus
}
#endif

#endif
