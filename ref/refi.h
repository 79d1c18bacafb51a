/*
** refi.h: inside ref/: the kernel interface between the interpreter
** (interp.c) and the kernels of ops.c, one per op.
*/
#ifndef GRAFT_REFI_H
#define GRAFT_REFI_H

#include "ref.h"

/* The context of a kernel: the module its attributes and types are read
** from (a Program's own snapshot when running), and the mode.  In exact
** mode a kernel refuses, silently, whatever TVM does not define bit for
** bit; in run mode it computes everything and reports run-time errors
** through d. */
typedef struct RefCtx {
	const Module *m;
	Diag *d;
	int exact;
} RefCtx;

/* One op to run: the call's op, attributes, result type and location. */
typedef struct RefOp {
	OpId op;
	uint32_t nargs;
	AttrId attrs;
	TypeId type;
	Loc loc;
} RefOp;

/* Runs op o on the values a[0..o->nargs) into *r (RV_NONE on entry).
** Returns 0, or 1 after refusing (exact mode) or reporting (run mode). */
int ref_op(RefCtx *c, const RefOp *o, const RefVal *const *a, RefVal *r);
/* Whether op is evaluated by the exact mode at all (ops whose results
** depend on libm or a reduction order are not). */
int ref_op_exact(OpId op);
/* Checks, before running, that the call n of m uses only attribute
** values and dtypes the interpreter runs; reports through d and returns
** 1 if not. */
int ref_op_check(const Module *m, NodeId n, Diag *d);

/* The subtree under n evaluated by the interpreter in exact mode into a
** new constant node, or 0 (ref_fold() without its fast path). */
NodeId ref_evalconst(Module *m, NodeId n);
/* ref_fold_data()'s work: the fast path of qnn.quantize. */
int ref_quickquantize_data(Module *m, NodeId n, void **data);

#endif
