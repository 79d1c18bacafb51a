/*
** ref.h: the reference interpreter (backends/ref), graft's numerics
** oracle.  be_ref (backend.h) runs @main of a typed module on tensors;
** ref_fold() is the same interpreter in its exact mode, which ir_fold()
** (ir/fold.c) calls.  What each op computes, and where its numbers come
** from in TVM, is told at the top of backends/ref/ops.c.
**
** The rest of this header is internal to backends/ref: values, the
** interpreter's context and the kernels of ops.c, one per op.
**
** Ownership: a value's tensor data is either borrowed (rc NULL: a
** constant's data, an input tensor) or held through a reference count
** shared by every value that aliases it; ref_vdrop() releases one hold.
*/
#ifndef GRAFT_REF_H
#define GRAFT_REF_H

#include <stdint.h>

#include "backend.h"

/* Evaluates the subtree under n, whose leaves must be constants with data,
** exactly as TVM computes it, into a new constant node (see ir_fold in
** fold.h); 0 when something is not exactly defined. */
NodeId ref_fold(Module *m, NodeId n);
/* The fast path of ir_fold: qnn.quantize of a float32 constant by one
** scale and zero point.  1 and *data (n's value, in Module.data), 0 if
** the result is not exact, -1 if n is not that case. */
int ref_quickquantize_data(Module *m, NodeId n, void **data);

/* ---------------------------------------------------------------- internal */

#define REF_MAXDIMS BE_MAXDIMS

enum {
	RV_NONE,        /* an empty slot */
	RV_TENSOR,      /* dt, rank, dims, n, data (rc: its hold) */
	RV_TUPLE,       /* nf fields at f (owned) */
};

typedef struct RefVal {
	uint8_t kind;       /* RV_* */
	uint8_t dt;         /* DType */
	uint16_t rank;
	uint32_t nf;
	int64_t n;          /* element count */
	int64_t dims[REF_MAXDIMS];
	unsigned char *data;
	int64_t *rc;        /* the hold count of data; NULL when borrowed */
	struct RefVal *f;   /* RV_TUPLE: the fields */
} RefVal;

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

/* Values. */
void ref_vdrop(RefVal *v);                 /* releases v's holds; v empty */
void ref_vcopy(RefVal *dst, const RefVal *src);   /* a new hold on src */
/* Sets v to an empty tensor of tensor type t; 0 unless t is a tensor of
** known dims, at most REF_MAXDIMS of them. */
int ref_vshape(const Module *m, TypeId t, RefVal *v);
void ref_valloc(RefVal *v);                /* gives v fresh data, held once */

#endif
