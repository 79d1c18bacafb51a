/*
** llvmi.h: the llvm backend's internals, shared by its files (not
** installed).  The backend lowers @main and everything it reaches to
** LLVM IR through the LLVM-C API, optimizes it with LLVM's pass pipeline
** for the host CPU, or the machine BeOpts names (tvmc's "llvm
** -mtriple=aarch64-linux-gnu -mcpu=cortex-a55 -mattr=+dotprod":
** machine.c), and either JIT-compiles it in-process (ORC LLJIT: be_llvm's
** prepare/run/release, for the host's architecture only) or writes .ll
** text or an object file (be_llvm_emit).
**
** Every value is a dense row-major buffer.  Intermediate tensors live in
** internal zero-initialised globals (buf.N), constants in internal
** constant globals (const.N); reshape-like ops alias their operand's
** buffer.  Calls of global functions and of composite function literals
** are inlined at lowering time, so each entry point is one straight
** sequence of loop nests.  Names are numbered in lowering order, so the
** IR is the same on every run.
**
** Numerics follow ref/fold.c (TVM's rules) bit for bit on integers:
** requantize in int64 Q31 fixed point, UPWARD or TONEAREST, or with
** graft's rounding "HALF_TO_EVEN" (compute_dtype "float32") QNNPACK's
** float32 product rounded to even (ref/ops.c); quantize in
** float32 dividing by the scale and rounding halves away from zero;
** integer ops wrap; integer division by zero sets the entry's return
** value to 1 (the divisor is replaced by 1, nothing traps), an index out
** of range (take's "fast", gather) to 2 (element 0 is read instead).  Float
** reductions run in source order in their dtype; float16 ones in float,
** rounded to half after every add and multiply, as the reference rounds
** them (half.c).
**
** qnn.conv2d with int8/uint8 data, constant weights and one group takes a
** fast path chosen by the machine's features.  With AVX512-VNNI or Arm's
** dot product (see dotpath.c) the data stay bytes in an NHWC
** buffer, each step is one vpdpbusd (four u8 x s8 products per int32
** lane) or four sdot (s8 x s8), the zero-point term is a per-channel
** constant, and a following bias_add and requantize run in the kernel's
** store, which writes bytes straight into the next conv's input buffer;
** with sdot, qnn.dense runs on it too (dense_dot).  Otherwise (AVX2,
** AVX-512BW) the input is copied once into a zero-padded NHWC buffer of
** int16 (x - x_zp), the weights (w - w_zp) are rearranged at compile time
** into [oc block][kh][kw][ic pair][lane][2] int16, and the kernel keeps
** a block of pixels x output channels in int32 vector accumulators, each
** step one pmaddwd (two exact int16 products summed into int32).  The
** zero-point terms thus cost nothing, and padding needs no bounds checks.
** Every path gives the generic loops' result bit for bit.
**
** nn.conv2d of float32 data and constant weights, one group or
** depthwise, takes "the float path" (see fconv.c) with
** a following bias_add, add and relu or clip fused into its store, and
** nn.dense of float32 with constant weights a kernel of its own: vectors
** of outputs, each summed in ref's order from +0, product by product
** (fmul then fadd, never an FMA), so again the generic loops' result,
** and ref's, bit for bit.
**
** The files, in the order of a lowering's layers:
**   lower.c        helpers, loops, scalar semantics, maps, attributes
**   half.c         float16
**   ew.c           elementwise ops: map functions and the op classifier
**   ops.c          the other ops: quantization, layout, normalization...
**   reduce.c       reductions, pools, softmax, scans, dense, batch_matmul
**   conv.c         conv2d: geometry, generic loops, the pmaddwd path
**   dotpath.c      the dot path's plan (vpdpbusd, sdot)
**   dotkernels.c   the dot path's shared kernels
**   fconv.c        the float path
**   nodes.c        the walk of a module's nodes, entry points
**   machine.c      machines: triple, CPU, features
**   module.c       a module built and optimized; --emit llvm and obj
**   parcodegen.c   the JIT's code generation on several threads
**   jit.c          be_llvm: the JIT
** Shared functions carry the prefix ll_; a file's own are static.
*/
#ifndef GRAFT_LLVMI_H
#define GRAFT_LLVMI_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/TargetMachine.h>

#include "bei.h"
#include "llvm.h"
#include "ref.h"

#define MAXD IR_MAXDIMS

/* The dot-product instruction of the conv kernel ("the dot path"). */
typedef enum Dot {
	DOT_NONE,
	DOT_VNNI,               /* AVX512-VNNI vpdpbusd: 16 int32 lanes, each four u8 x s8 products */
	DOT_SDOT,               /* Arm's dot product (+dotprod): sdot, 4 lanes, each four s8 x s8 */
} Dot;

/* The machine code is compiled for (mach_init), and what its features
** choose. */
typedef struct Mach {
	char *triple, *cpu, *feat;      /* LLVM's strings (LLVMDisposeMessage) */
	int native;             /* this machine's architecture and OS: the JIT runs its code */
	int given;              /* -mcpu or -mattr given: functions carry them as attributes */
	int lanes;              /* i32 lanes of the pmaddwd conv kernel: 16 avx512bw, 8 avx2, 0 none */
	Dot dot;                /* the dot path's instruction, or none */
} Mach;

/* The value of a node while lowering. */
typedef struct Val {
	LLVMValueRef p;     /* tensor: i8* to its data; NULL for a tuple */
	NodeId cnode;       /* the NK_CONST it came from, or 0 */
	uint32_t nf;        /* tuple: field count */
	struct Val *f;      /* tuple: fields, in G.a */
} Val;

/* Constant data the JIT's code reads from this process's memory rather
** than from its objects (ll_constbuf): LLVM spends about 25 ns a byte on a
** constant's initializer (ResNet18's 11 MB of weights: a quarter of a
** second), and nothing on a declaration.  Each is the external global
** graft.blob.N, which be_llvm_prepare defines at the address of data. */
typedef struct Blob {
	char name[32];
	void *data;             /* 64-byte aligned, n bytes (free()) */
	size_t n;
} Blob;

typedef struct Blobs {
	Blob *b;
	uint32_t n, cap;
} Blobs;

enum { BLOBMIN = 64 << 10 };     /* the smallest constant made a blob */

/* One lowering: an LLVM module under construction. */
typedef struct G {
	const Module *m;
	Diag *d;
	int errors;
	LLVMContextRef cx;
	LLVMModuleRef mod;
	LLVMBuilderRef b;
	LLVMTypeRef i1, i8, i16, i32, i64, f16, f32, f64, p8;
	LLVMValueRef fn;        /* the function being built: the entry or an op function */
	LLVMValueRef in;        /* fn's in (void **), the entry's or an op function's */
	LLVMValueRef err;       /* fn's i32 *: 1 after an integer division by zero */
	LLVMValueRef *pin;      /* the entry's loads of its parameters, npin of them */
	uint32_t npin, nfn;     /* nfn: op functions so far, numbering them */
	LLVMValueRef *cglob;    /* per Module.consts: its global, or NULL */
	uint32_t nbuf, nconst;
	int lanes;              /* i32 lanes of the conv kernel: 16 avx512bw, 8 avx2, 0 none */
	Dot dot;                /* qnn.conv2d runs the dot path on this instruction */
	Arena a;
	/* JIT only: the partitions a plugin's codegen runs, called out to
	** through be_ext_call (NULL: they are lowered as any function) */
	BeExt ***ext;
	uint32_t *next;
	int par;                /* JIT only: split loops run on the thread pool (par.h) */
	Blobs *blobs;           /* JIT only: constants of BLOBMIN bytes or more go here */
} G;

/* A scope: the values of one function's nodes (an inlined call has its own). */
typedef struct Scope {
	Val *v;
	uint8_t *done;          /* 1: lowered, v set; FUSED: computed in its consumer's loop */
	struct Scope *up;       /* an inlined call's: the caller's scope, */
	NodeId call, fn;        /* the call (in up) and the function called */
} Scope;

enum { FUSED = 2 };      /* Scope.done of a fused elementwise producer */

typedef struct Call Call;

typedef struct Loop {
	LLVMBasicBlockRef head, body, exit;
	LLVMValueRef iv;
	int64_t step;
} Loop;

/* Where the builder was before it went into another function (ll_fnenter):
** the function being built, its in and err, and the block. */
typedef struct Here {
	LLVMValueRef fn, in, err;
	LLVMBasicBlockRef at;
} Here;

/* A loop whose iterations may run on several threads (ll_par_open). */
typedef struct Par {
	Loop l;
	LLVMValueRef body;              /* its function, or NULL: a plain loop */
	Here h;                         /* the enclosing function's */
} Par;

enum { MAXIN = 6, MAXLEAF = 16 };     /* inputs of a map function; memory read by one loop */

/* An accessor of a tensor inside a loop nest: element offset base +
** sum(iv[k] * st[k]). */
typedef struct Acc {
	LLVMValueRef p;
	DType dt;
	int64_t base;
	int64_t st[MAXD];
	const struct Fu *fu;    /* not NULL: the element is computed, not read (p unused) */
} Acc;

/* MapFn: the output element from the loaded inputs x[] */
typedef LLVMValueRef MapFn(G *g, const void *ctx, LLVMValueRef *x);

/* A fused elementwise producer: its result, element by element, is
** computed inside its consumer's loop (ll_emit_map) by f from its inputs,
** which read memory or are producers of their own; its result has the
** consumer's dims (ewmark). */
typedef struct Fu {
	MapFn *f;
	const void *ctx;
	int nin;
	Acc in[MAXIN];
} Fu;

/* The context of the elementwise map functions. */
typedef struct Ew {
	OpId op;
	DType dt, odt;          /* operand and result dtypes */
	double lo, hi;          /* clip bounds; leaky_relu alpha in lo */
	int nearest;            /* requantize: TONEAREST */
	int even;               /* quantize: rounding="HALF_TO_EVEN" (ONNX) */
	int h16;                /* the result is float16 (dt and odt are then float32) */
	int skip[2];            /* requantize: no multiply (equal scales); qnn.add: cast only */
	RefFixed fx[2];            /* qnn.add, qnn.mul: per-tensor multipliers */
	int32_t zp[3];          /* qnn.add, qnn.mul: lhs, rhs, output zero points */
} Ew;

/* The operands of one call while lowering it. */
struct Call {
	NodeId n;
	const Module *m;
	Scope *s;               /* the scope its operands are lowered in (NULL: none) */
	TypeId ot;              /* result type */
	int orank;
	int64_t od[MAXD];       /* result dims */
	DType odt;
	Val a[8];
	TypeId at[8];
	int ar[8];
	int64_t ad[8][MAXD];
	DType adt[8];
};

/* lower.c: helpers, loops, scalar semantics, maps, attributes and constants */
LLVMValueRef ll_c64(G *g, int64_t v);
LLVMValueRef ll_c32(G *g, int64_t v);
int ll_isint(DType dt);
LLVMTypeRef ll_elty(G *g, DType dt);
int ll_tdims(const Module *m, TypeId t, int64_t *dims);
DType ll_tdt(const Module *m, TypeId t);
void ll_strides(const int64_t *dims, int rank, int64_t *st);
LLVMValueRef ll_gep(G *g, LLVMValueRef p, DType dt, LLVMValueRef idx);
LLVMValueRef ll_ld(G *g, LLVMValueRef p, DType dt, LLVMValueRef idx);
void ll_st(G *g, LLVMValueRef p, DType dt, LLVMValueRef idx, LLVMValueRef v);
LLVMValueRef ll_entry_alloca(G *g, LLVMTypeRef t);
LLVMValueRef ll_callf(G *g, const char *name, LLVMTypeRef ret, LLVMValueRef *args, unsigned n);
LLVMValueRef ll_newbuf(G *g, size_t nbytes, unsigned align);
LLVMValueRef ll_constbuf(G *g, const void *data, size_t nbytes);
size_t ll_tbytes(const Module *m, TypeId t);
Val ll_tensorbuf(G *g, TypeId t);
LLVMValueRef ll_loop_openv(G *g, Loop *l, LLVMValueRef lo, LLVMValueRef hi, int64_t step);
LLVMValueRef ll_loop_open(G *g, Loop *l, int64_t lo, int64_t hi, int64_t step);
void ll_loop_close(G *g, Loop *l);
LLVMValueRef ll_newfn(G *g, const char *name, LLVMTypeRef ft, int noinline);
void ll_fnenter(G *g, LLVMValueRef f, Here *h);
void ll_fnleave(G *g, const Here *h);
LLVMTypeRef ll_parbody(G *g);
void ll_parrun(G *g, LLVMValueRef body, LLVMValueRef in, int64_t n);
LLVMValueRef ll_par_open(G *g, Par *p, int64_t n);
void ll_par_close(G *g, Par *p);
LLVMValueRef ll_add64(G *g, LLVMValueRef a, LLVMValueRef b);
LLVMValueRef ll_mul64(G *g, LLVMValueRef a, int64_t k);
LLVMValueRef ll_cvt(G *g, LLVMValueRef v, DType from, DType to);
LLVMValueRef ll_cvt_in(G *g, LLVMValueRef v, DType to);
LLVMValueRef ll_iminmax(G *g, LLVMValueRef a, LLVMValueRef b, int sgn, int max);
LLVMValueRef ll_fminmax(G *g, LLVMValueRef a, LLVMValueRef b, int max);
LLVMValueRef ll_sat32(G *g, LLVMValueRef v, DType to);
RefFixed ll_fixed(double d);
LLVMValueRef ll_fpm(G *g, LLVMValueRef x, LLVMValueRef mul, LLVMValueRef shift, int nearest);
void ll_emit_map(G *g, int rank, const int64_t *dims, Acc *out, int nin, const Acc *in, MapFn *f, const void *ctx);
Acc ll_bcast(G *g, Val v, DType dt, const int64_t *adims, int ar, int orank);
Acc ll_along(Val v, DType dt, int64_t n, int ax, int orank);
Acc ll_dense_acc(LLVMValueRef p, DType dt, const int64_t *dims, int rank);
const AttrVal *ll_attr(const Module *m, NodeId n, const char *name);
int64_t ll_aint(const Module *m, NodeId n, const char *name);
const char *ll_astr(const Module *m, NodeId n, const char *name);
int ll_aints(const Module *m, NodeId n, const char *name, int64_t *out, int max);
const void *ll_cdata(const G *g, Val v, TypeId *t);
int ll_cnum(const G *g, Val v, int64_t i, double *out);
int64_t ll_cnumel(const G *g, Val v);
void ll_refuse(G *g, NodeId n, const char *why);

/* half.c: float16 */
DType ll_cdt(DType dt);
LLVMValueRef ll_h_load(G *g, LLVMValueRef bits);
LLVMValueRef ll_h_store(G *g, LLVMValueRef v);
LLVMValueRef ll_ho_f64(G *g, LLVMValueRef d);
double ll_h_round(double d);
LLVMValueRef ll_h_rnd(G *g, LLVMValueRef v);
LLVMValueRef ll_h_cvt(G *g, LLVMValueRef v, DType from, DType to);
LLVMValueRef ll_h_opnd(G *g, LLVMValueRef v, DType from, DType to);
void ll_h_mac(G *g, LLVMValueRef acc, LLVMValueRef x, LLVMValueRef y, DType dt);

/* ew.c: elementwise ops */
LLVMValueRef ll_ew_binary(G *g, const void *ctx, LLVMValueRef *x);
LLVMValueRef ll_fcall1(G *g, const char *base, LLVMValueRef x, DType dt);
LLVMValueRef ll_ew_quantize(G *g, const void *ctx, LLVMValueRef *x);
LLVMValueRef ll_ew_dequantize(G *g, const void *ctx, LLVMValueRef *x);
LLVMValueRef ll_ew_requantize(G *g, const void *ctx, LLVMValueRef *x);
LLVMValueRef ll_ew_requantize_f32(G *g, const void *ctx, LLVMValueRef *x);
LLVMValueRef ll_ew_qnn(G *g, const void *ctx, LLVMValueRef *x);
int ll_clip_whole(const Module *m, NodeId n);
int ll_ewop(Call *c, Ew *e, MapFn **f, int *nin);
Acc ll_ewacc(G *g, const Call *c, int j);
Val ll_ewise(G *g, Call *c, int nin, MapFn *f, const Ew *e);
LLVMValueRef ll_ew_batchnorm(G *g, const void *ctx, LLVMValueRef *x);
int ll_h16ok(const Call *c);
int ll_ewin(const Call *c);
int ll_ewreads(const Call *c);
int ll_nohalf(const Call *c);

/* llvm.c: op lowering to the JIT */
Val ll_split(G *g, Call *c);
int ll_callargs(G *g, Scope *s, NodeId n, Call *c, int skip0);
void ll_relocal(G *g, LLVMValueRef f);

#endif
