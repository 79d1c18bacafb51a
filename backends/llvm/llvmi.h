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
** with sdot, qnn.dense runs on it too (ll_dense_dot).  Otherwise (AVX2,
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
**   kernel.c       plugin ops' C kernels (ir/kernel.h): the call, and the JIT's symbols
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

/* The machine code is compiled for (ll_mach_init), and what its features
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

/* A counted loop (ll_loop_open). */
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
	const ScalarDef *sd;    /* an op of scalar.def: its row */
	double p[16];           /* and its float attributes, in dt's precision */
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

/* The geometry of one conv2d. */
typedef struct Conv {
	int64_t N, C, H, W, O, KH, KW, OH, OW, G;
	int64_t sh, sw, dh, dw, pt, pl, pb, pr;
	int64_t ist[4], kst[4], ost[4];     /* strides of N C H W, O I H W, N C H W */
} Conv;

/* lanes; pixels and channel blocks per kernel step (VPB x VOBB, or
** fewer channel blocks for up to VPBMAX pixels); pixels per depthwise
** step */
enum { VL = 16, VPB = 4, VOBB = 4, VPBMAX = 8, VDW = 8 };

/* A conv the dot path runs. */
typedef struct Vconv {
	NodeId n;
	Conv v;
	DType xdt;              /* data dtype: int8 or uint8 */
	int dw;                 /* depthwise: one channel per group, int32 weights [OB][KH][KW][VL] */
	int flip;               /* the data bytes are flipped (ll_flipped(); never for dw) */
	int64_t C4, OB, Hp, Wp; /* padded channels; output channel blocks of VL; padded rows and columns */
	int xzb;                /* x'z in [0, 255] (vnni) or [-128, 127] (sdot); dw: xz */
	LLVMValueRef w;         /* the weights */
	int32_t *corr;          /* [OB * VL] (g->a): -x'z sum (w - wz) */
} Vconv;

/* The requantize (after a bias_add) in a kernel's epilogue: per-channel
** constant vectors of OB * VL int32. */
typedef struct Epi {
	int32_t *add;           /* [OB * VL] (g->a): the bias minus the input zero point, wrapping */
	LLVMValueRef mul, sh;
	LLVMValueRef fm;        /* f32: OB * VL float32 multipliers */
	int32_t ozp;
	int uni;                /* one multiplier and shift for all channels: umul, ush */
	int32_t umul, ush;
	int skip, nearest;
	int f32;                /* rounding "HALF_TO_EVEN": QNNPACK's float32 (fm), not Q31 */
	DType odt;              /* int8 or uint8 */
} Epi;

/* Where a kernel stores: the dense NCHW result (of dt: int32, or the
** epilogue's dtype), or with nhwc a consumer's input buffer
** [N][Hp][Wp][C4], at row and column offsets pt, pl, bytes flipped by
** 0x80 for consumers whose data are (ll_flipped()). */
typedef struct Sink {
	LLVMValueRef p;
	DType dt;
	int nhwc, flip;
	int64_t Hp, Wp, C4, pt, pl;
} Sink;

/* lower.c: helpers, loops, scalar semantics, maps, attributes and constants */
static inline LLVMValueRef ll_c64(G *g, int64_t v) { return LLVMConstInt(g->i64, (unsigned long long)v, 1); }
static inline LLVMValueRef ll_c32(G *g, int64_t v) { return LLVMConstInt(g->i32, (unsigned long long)v, 1); }
static inline int ll_isint(DType dt) { return ir_dtype_kind[dt] != 'f'; }
LLVMTypeRef ll_elty(G *g, DType dt);
int ll_tdims(const Module *m, TypeId t, int64_t *dims);
static inline DType ll_tdt(const Module *m, TypeId t) { return (DType)ir_type(m, t)->dtype; }
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
static inline LLVMValueRef ll_add64(G *g, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildNSWAdd(g->b, a, b, ""); }
static inline LLVMValueRef ll_mul64(G *g, LLVMValueRef a, int64_t k) { return LLVMBuildNSWMul(g->b, a, ll_c64(g, k), ""); }
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
static inline DType ll_cdt(DType dt) { return dt == DT_FLOAT16 ? DT_FLOAT32 : dt; }
LLVMValueRef ll_h_load(G *g, LLVMValueRef bits);
LLVMValueRef ll_h_store(G *g, LLVMValueRef v);
LLVMValueRef ll_ho_f64(G *g, LLVMValueRef d);
double ll_h_round(double d);
LLVMValueRef ll_h_rnd(G *g, LLVMValueRef v);
LLVMValueRef ll_h_cvt(G *g, LLVMValueRef v, DType from, DType to);
LLVMValueRef ll_h_opnd(G *g, LLVMValueRef v, DType from, DType to);
void ll_h_mac(G *g, LLVMValueRef acc, LLVMValueRef x, LLVMValueRef y, DType dt);

/* ew.c: elementwise ops */
LLVMValueRef ll_ew_scalar(G *g, const void *ctx, LLVMValueRef *x);
/* kernel.c: plugin ops' C kernels */
Val ll_kcall(G *g, Call *c);
LLVMErrorRef ll_kdefine(LLVMOrcLLJITRef jit);
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

/* ops.c: op lowering */
Val ll_quantize(G *g, Call *c, int deq);
int ll_rqparams(G *g, Call *c, int quiet, int32_t **mul, int32_t **sh, int64_t *ns, int *skip, int *nearest);
float ll_f32mul(float s, float os);
Val ll_requantize(G *g, Call *c);
Val ll_qbinary(G *g, Call *c);
Val ll_alias(Call *c);
Val ll_transpose(G *g, Call *c);
Val ll_layout_transform(G *g, Call *c);
Val ll_einsum(G *g, Call *c);
Val ll_batch_norm(G *g, Call *c);
Val ll_norm(G *g, Call *c);
Val ll_slice(G *g, Call *c);
Val ll_take(G *g, Call *c);
Val ll_concat(G *g, Call *c);
Val ll_qconcat(G *g, Call *c);
Val ll_split(G *g, Call *c);
Val ll_pad(G *g, Call *c);
Val ll_resize(G *g, Call *c);
Val ll_bias_add(G *g, Call *c);

/* reduce.c: reductions */
Val ll_mean(G *g, Call *c);
Val ll_reduce(G *g, Call *c);
Val ll_global_avg_pool(G *g, Call *c);
Val ll_softmax(G *g, Call *c);
Val ll_scan(G *g, Call *c);
Val ll_pool2d(G *g, Call *c, int avg);
Val ll_dense(G *g, Call *c, int q);
Val ll_batch_matmul(G *g, Call *c);

/* conv.c: convolution */
int ll_convgeom(G *g, Call *c, Conv *v, int quiet);
Val ll_conv_generic(G *g, Call *c, const Conv *v, int q);
LLVMValueRef ll_splat(G *g, LLVMValueRef x, unsigned n);
int ll_conv_fast(G *g, Call *c, const Conv *v, Val *res);

/* dotpath.c: the dot path */
int ll_obbof(const G *g);
int ll_flipped(const G *g, DType xdt);
static inline int ll_isop(const Module *m, NodeId n, OpId op) { return m->nodes[n].kind == NK_CALL && m->nodes[n].op == op; }
int ll_single(G *g, Scope *s, NodeId n);
LLVMValueRef ll_ci32(G *g, const int32_t *v, int64_t n);
int ll_densenchw(const int64_t *st, int64_t C, int64_t H, int64_t W);
int ll_vconv_plan(G *g, Scope *s, NodeId n, Vconv *pl);
int ll_epi_plan(G *g, Scope *s, NodeId rq, NodeId ba, const Vconv *pl, Epi *e);
LLVMValueRef ll_vsplat(LLVMTypeRef ty, int64_t v);
LLVMValueRef ll_vload(G *g, LLVMValueRef p, LLVMValueRef ix);

/* dotkernels.c: the dot path's shared kernels */
void ll_vtranspose(G *g, const LLVMValueRef *y, int rows, int cols, LLVMValueRef *out);
int ll_dot_root(G *g, Scope *s, NodeId n, Val *res);
int ll_dense_dot(G *g, Call *c, Val *res);

/* fconv.c: float convolution */
int ll_fconv_root(G *g, Scope *s, NodeId n, Val *res);
int ll_fconv_fused(G *g, Scope *s, NodeId n);
int ll_fdense(G *g, Call *c, Val *res);
Val ll_conv2d(G *g, Call *c, int q);

/* nodes.c: nodes */
int ll_callargs(G *g, Scope *s, NodeId n, Call *c, int skip0);
void ll_scope_init(Scope *s, const Module *m);
void ll_scope_free(Scope *s);
NodeId ll_callee(const Module *m, NodeId n);
void ll_relocal(G *g, LLVMValueRef f);
int64_t ll_paramof(const Module *m, const Scope *s, NodeId n);
Val ll_lower(G *g, Scope *s, NodeId n);
void ll_entry(G *g, NodeId fn, const char *name);

/* machine.c: machines */
void ll_mach_free(Mach *mc);
int ll_mach_init(Mach *mc, const BeOpts *o, char *err, size_t nerr);
LLVMTargetMachineRef ll_tmnew(const Mach *mc, int opt);
LLVMTargetMachineRef ll_machine(Mach *mc, int opt);

/* module.c: modules and files */
double ll_now(void);
LLVMErrorRef ll_passes(LLVMModuleRef mod, LLVMTargetMachineRef tm, int opt);
LLVMModuleRef ll_build(const Module *m, const BeOpts *o, LLVMContextRef cx, LLVMTargetMachineRef tm,
	const Mach *mc, int mainonly, int nopasses, BeExt ***ext, uint32_t *next, Blobs *blobs, BeStats *st, Diag *d);

/* parcodegen.c: parallel codegen */
int ll_nparts(void);
LLVMErrorRef ll_splitjit(LLVMOrcLLJITRef jit, LLVMModuleRef mod, const Mach *mc, int opt, int n, int cache,
	const Blobs *bl, double *opt_ns, int *hit);

#endif
