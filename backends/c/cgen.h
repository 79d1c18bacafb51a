/*
** cgen.h: the C emitter's internal interface, shared by cgen.c (the walk
** of functions, buffers, constants and rendering) and cops.c (one loop
** nest per op).
**
** The emitter builds its output as data and renders it once: each C
** function is a list of Lines (an indent depth and a text), constants are
** a list of arrays, and be_c_emit() prints them in order at the end.  A
** Relay function becomes a list of Insts, one per node it evaluates, with
** composite function literals inlined (their parameters stand for the
** arguments); each Inst holds its value as a list of Leaves, the tensors
** of its (flattened) type.
*/
#ifndef GRAFT_CGEN_H
#define GRAFT_CGEN_H

#include <stdarg.h>

#include "c.h"
#include "ref.h"

enum {
	LK_PARAM,       /* in[id] of the function: pN */
	LK_CONST,       /* static const array: kN, id = index in Gen.consts */
	LK_BUF,         /* arena buffer: bN, id = index in Fn.bufs */
};

/* One tensor value. */
typedef struct Leaf {
	uint8_t kind;       /* LK_* */
	uint8_t dt;         /* DType */
	uint8_t rank;
	uint32_t id;        /* see LK_* */
	NodeId node;        /* LK_CONST: the constant's node */
	int64_t dims[IR_MAXDIMS];
	int64_t n;          /* element count */
} Leaf;

/* One node evaluated in a function. */
typedef struct Inst {
	NodeId node;
	uint32_t ops, nops;     /* operand insts at Fn.opnds[ops..] */
	uint32_t val, nval;     /* leaves at Fn.leaves[val..] */
	uint32_t last;          /* the last inst that uses it (UINT32_MAX: a result) */
	int32_t num;            /* %num in comments; -1 for parameters, constants */
} Inst;

typedef struct Line {
	uint32_t depth;
	char *text;
} Line;

typedef struct Buf {
	uint64_t off, size;     /* in the arena */
	uint32_t end;           /* last inst holding it */
	int live;
	DType dt;               /* the type of its elements */
} Buf;

/* One C function being built. */
typedef struct Fn {
	char *name;             /* C name */
	NodeId fn;              /* the NK_FUNC */
	int exported;           /* an entry point (else static) */
	int ext;                /* run by its target's codegen: a stub through graft_ext_call */
	uint32_t extidx;        /* its slot in graft_ext_ctx */
	Inst *insts; uint32_t ninsts, capinsts;
	uint32_t *opnds; uint32_t nopnds, capopnds;
	Leaf *leaves; uint32_t nleaves, capleaves;
	Buf *bufs; uint32_t nbufs, capbufs;
	Line *lines; uint32_t nlines, caplines;
	uint32_t depth;
	uint64_t arena;         /* high-water mark */
	uint32_t cur;           /* inst being emitted */
	int32_t nextnum;
} Fn;

typedef struct CArr {
	NodeId node;            /* the constant, or 0 for a computed array */
	DType dt;
	int64_t n;
	void *data;             /* computed arrays: owned values */
	char *comment;
} CArr;

typedef struct Gen {
	const Module *m;
	Diag *d;
	const char *target;
	Fn **fns; uint32_t nfns, capfns;
	CArr *consts; uint32_t nconsts, capconsts;
	uint32_t *constof;      /* node -> const index + 1 */
	int32_t *memo;          /* node -> inst + 1 in the function being walked */
	uint32_t *globaldone;   /* global index -> fns index + 1 */
	unsigned helpers;       /* H_* used */
	int errors;
	int callout;            /* partitions a codegen runs are called out (be_c_emit_run) */
	NodeId *extfns; uint32_t next, capext;   /* those partitions, by graft_ext_ctx slot */
	uint8_t kused[IR_MAXOPS];   /* plugin ops whose C kernel (ir/kernel.h) the code calls */
} Gen;

enum {
	H_FPM = 1 << 0,         /* graft_fpm: TVM's fixed-point multiply */
	H_F2I = 1 << 1,         /* graft_f2i: float to integer, saturating */
	H_IPOW = 1 << 2,        /* graft_ipow: integer power, wrapping */
	H_F16 = 1 << 3,         /* graft_h2f, graft_f2h, graft_hr, graft_d2h: float16 */
};

/* cgen.c: lines, names, buffers */
void cg_line(Gen *g, Fn *f, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void cg_open(Gen *g, Fn *f, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void cg_close(Fn *f);
/* the C type of one element of dt (float16: uint16_t, its bits) */
const char *cg_ctype(DType dt);
/* the C name of leaf l (p0, k3, b5), making a constant's array on first use */
const char *cg_name(Gen *g, Fn *f, const Leaf *l, char *buf);
/* a scratch buffer of n bytes, live during the current inst only */
const char *cg_scratch(Gen *g, Fn *f, DType dt, int64_t n, char *buf);
/* a computed static const array (data owned by the Gen after the call) */
const char *cg_carray(Gen *g, DType dt, int64_t n, void *data, const char *comment, char *buf);
char *cg_strdup(const char *s);
/* a C literal of v as dtype dt (float, double, or an integer) */
const char *cg_lit(double v, DType dt, char *buf);

/* the operand insts and leaves of inst i */
static inline Inst *cg_op(Fn *f, Inst *i, uint32_t k) { return &f->insts[f->opnds[i->ops + k]]; }
static inline Leaf *cg_leaf(Fn *f, Inst *i, uint32_t k) { return &f->leaves[cg_op(f, i, k)->val]; }
static inline Leaf *cg_out(Fn *f, Inst *i) { return &f->leaves[i->val]; }

/* cops.c: the loop nest of inst i (an op call); returns 0 after an error */
int cg_op_emit(Gen *g, Fn *f, Inst *i);
/* whether op is an alias of its operand (reshape and friends) */
int cg_op_alias(OpId op);

/* constants at emit time: the k-th element of operand `arg` of inst i, if
** it is a constant with data; 0 otherwise */
int cg_kint(Gen *g, Fn *f, Inst *i, uint32_t arg, int64_t k, int64_t *out);
int cg_kflt(Gen *g, Fn *f, Inst *i, uint32_t arg, int64_t k, double *out);

#endif
