/*
** llvm.c: the llvm backend.  Lowers @main and everything it reaches to
** LLVM IR through the LLVM-C API, optimizes it with LLVM's pass pipeline
** for the host CPU, or the machine BeOpts names (tvmc's "llvm
** -mtriple=aarch64-linux-gnu -mcpu=cortex-a55 -mattr=+dotprod": "machines"
** below), and either JIT-compiles it in-process (ORC LLJIT: be_llvm's
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
** them ("float16" below).
**
** qnn.conv2d with int8/uint8 data, constant weights and one group takes a
** fast path chosen by the machine's features.  With AVX512-VNNI or Arm's
** dot product (see "the dot path" below) the data stay bytes in an NHWC
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
** depthwise, takes "the float path" (see "float convolution" below) with
** a following bias_add, add and relu or clip fused into its store, and
** nn.dense of float32 with constant weights a kernel of its own: vectors
** of outputs, each summed in ref's order from +0, product by product
** (fmul then fadd, never an FMA), so again the generic loops' result,
** and ref's, bit for bit.
*/
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <llvm/Config/llvm-config.h>    /* LLVM_VERSION_STRING, for the object cache's key */
#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/Disassembler.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "bei.h"
#include "llvm.h"
#include "objcache.h"
#include "par.h"
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
** than from its objects (constbuf): LLVM spends about 25 ns a byte on a
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

static Val lower(G *g, Scope *s, NodeId n);
typedef struct Call Call;
static int callargs(G *g, Scope *s, NodeId n, Call *c, int skip0);
static int64_t paramof(const Module *m, const Scope *s, NodeId n);
static void scope_init(Scope *s, const Module *m);
static void scope_free(Scope *s);
static NodeId callee(const Module *m, NodeId n);
static int clip_whole(const Module *m, NodeId n);
static Val opfn(G *g, Scope *s, NodeId n);
static void flattypes(const Module *m, TypeId t, TypeId *out, uint32_t *n, uint32_t max);

/* ---------------------------------------------------------------- helpers */

/* c64, c32: integer constants */
static LLVMValueRef c64(G *g, int64_t v) { return LLVMConstInt(g->i64, (unsigned long long)v, 1); }
static LLVMValueRef c32(G *g, int64_t v) { return LLVMConstInt(g->i32, (unsigned long long)v, 1); }

/* isint: an integer (or bool) dtype */
static int isint(DType dt) { return ir_dtype_kind[dt] != 'f'; }

/* elty: the LLVM type of one element of dt (bool is i8) */
static LLVMTypeRef
elty(G *g, DType dt)
{
	switch (dt) {
	case DT_FLOAT32: return g->f32;
	case DT_FLOAT64: return g->f64;
	default: break;
	}
	switch (ir_dtype_bytes[dt]) {
	case 1: return g->i8;
	case 2: return g->i16;
	case 4: return g->i32;
	default: return g->i64;
	}
}

/* tdims: the rank and dims of tensor type t */
static int
tdims(const Module *m, TypeId t, int64_t *dims)
{
	const Type *ty = ir_type(m, t);

	if (ty->n)
		memcpy(dims, ir_type_dims(m, t), ty->n * sizeof *dims);
	return (int)ty->n;
}

static DType tdt(const Module *m, TypeId t) { return (DType)ir_type(m, t)->dtype; }

/* strides: row-major strides of dims */
static void
strides(const int64_t *dims, int rank, int64_t *st)
{
	int64_t s = 1;

	for (int k = rank - 1; k >= 0; k--) {
		st[k] = s;
		s *= dims[k];
	}
}

/* gep: a pointer to element idx (i64) of dtype dt in buffer p (i8*) */
static LLVMValueRef
gep(G *g, LLVMValueRef p, DType dt, LLVMValueRef idx)
{
	LLVMTypeRef t = elty(g, dt);
	LLVMValueRef q = LLVMBuildBitCast(g->b, p, LLVMPointerType(t, 0), "");

	return LLVMBuildInBoundsGEP2(g->b, t, q, &idx, 1, "");
}

static LLVMValueRef
ld(G *g, LLVMValueRef p, DType dt, LLVMValueRef idx)
{
	return LLVMBuildLoad2(g->b, elty(g, dt), gep(g, p, dt, idx), "");
}

static void
st(G *g, LLVMValueRef p, DType dt, LLVMValueRef idx, LLVMValueRef v)
{
	LLVMBuildStore(g->b, v, gep(g, p, dt, idx));
}

/* entry_alloca: an alloca of t at the top of the current function, where
** mem2reg promotes it */
static LLVMValueRef
entry_alloca(G *g, LLVMTypeRef t)
{
	LLVMBuilderRef b = LLVMCreateBuilderInContext(g->cx);
	LLVMBasicBlockRef e = LLVMGetEntryBasicBlock(g->fn);
	LLVMValueRef first = LLVMGetFirstInstruction(e), a;

	if (first)
		LLVMPositionBuilderBefore(b, first);
	else
		LLVMPositionBuilderAtEnd(b, e);
	a = LLVMBuildAlloca(b, t, "");
	LLVMDisposeBuilder(b);
	return a;
}

/* intrinsic: declares (once) and calls the function name of type
** ret(args) */
static LLVMValueRef
callf(G *g, const char *name, LLVMTypeRef ret, LLVMValueRef *args, unsigned n)
{
	LLVMTypeRef pt[4];
	LLVMTypeRef ft;
	LLVMValueRef f;

	for (unsigned i = 0; i < n; i++)
		pt[i] = LLVMTypeOf(args[i]);
	ft = LLVMFunctionType(ret, pt, n, 0);
	f = LLVMGetNamedFunction(g->mod, name);
	if (!f)
		f = LLVMAddFunction(g->mod, name, ft);
	return LLVMBuildCall2(g->b, ft, f, args, n, "");
}

/* newbuf: a fresh zero-initialised internal buffer of nbytes */
static LLVMValueRef
newbuf(G *g, size_t nbytes, unsigned align)
{
	char name[32];
	LLVMTypeRef t = LLVMArrayType(g->i8, (unsigned)(nbytes ? nbytes : 1));
	LLVMValueRef gv;

	snprintf(name, sizeof name, "buf.%u", g->nbuf++);
	gv = LLVMAddGlobal(g->mod, t, name);
	LLVMSetLinkage(gv, LLVMInternalLinkage);
	LLVMSetInitializer(gv, LLVMConstNull(t));
	LLVMSetAlignment(gv, align);
	return LLVMConstBitCast(gv, g->p8);
}

/* constbuf: an internal constant global holding nbytes of data; in the
** JIT, from BLOBMIN bytes, a blob (Blob) */
static LLVMValueRef
constbuf(G *g, const void *data, size_t nbytes)
{
	char name[32];
	LLVMValueRef init, gv;

	if (g->blobs && nbytes >= BLOBMIN) {
		Blobs *bl = g->blobs;
		Blob *b;
		if (bl->n == bl->cap)
			ir_vgrow(&bl->b, &bl->cap, bl->n + 1);
		b = &bl->b[bl->n];
		snprintf(b->name, sizeof b->name, "graft.blob.%u", bl->n);
		if (posix_memalign(&b->data, 64, nbytes))
			ir_die("out of memory");
		memcpy(b->data, data, nbytes);
		b->n = nbytes;
		bl->n++;
		gv = LLVMAddGlobal(g->mod, LLVMArrayType(g->i8, (unsigned)nbytes), b->name);
		LLVMSetGlobalConstant(gv, 1);
		LLVMSetAlignment(gv, 64);
		return LLVMConstBitCast(gv, g->p8);
	}
	snprintf(name, sizeof name, "const.%u", g->nconst++);
	init = LLVMConstStringInContext(g->cx, nbytes ? data : "", (unsigned)(nbytes ? nbytes : 1), 1);
	gv = LLVMAddGlobal(g->mod, LLVMTypeOf(init), name);
	LLVMSetLinkage(gv, LLVMInternalLinkage);
	LLVMSetInitializer(gv, init);
	LLVMSetGlobalConstant(gv, 1);
	LLVMSetAlignment(gv, 64);
	return LLVMConstBitCast(gv, g->p8);
}

static size_t
tbytes(const Module *m, TypeId t)
{
	int64_t n = ir_type_numel(m, t);
	return (size_t)(n < 0 ? 0 : n) * ir_dtype_bytes[tdt(m, t)];
}

/* tensorbuf: a fresh buffer for a tensor of type t */
static Val
tensorbuf(G *g, TypeId t)
{
	Val v = { 0 };
	v.p = newbuf(g, tbytes(g->m, t), 64);
	return v;
}

/* ---------------------------------------------------------------- loops */

typedef struct Loop {
	LLVMBasicBlockRef head, body, exit;
	LLVMValueRef iv;
	int64_t step;
} Loop;

/* loop_openv: starts for (iv = lo; iv < hi; iv += step) (i64 values)
** and leaves the builder in its body; returns iv */
static LLVMValueRef
loop_openv(G *g, Loop *l, LLVMValueRef lo, LLVMValueRef hi, int64_t step)
{
	LLVMBasicBlockRef pre = LLVMGetInsertBlock(g->b);
	LLVMValueRef z = lo;

	l->head = LLVMAppendBasicBlockInContext(g->cx, g->fn, "loop");
	l->body = LLVMAppendBasicBlockInContext(g->cx, g->fn, "body");
	l->exit = LLVMAppendBasicBlockInContext(g->cx, g->fn, "done");
	l->step = step;
	LLVMBuildBr(g->b, l->head);
	LLVMPositionBuilderAtEnd(g->b, l->head);
	l->iv = LLVMBuildPhi(g->b, g->i64, "i");
	LLVMAddIncoming(l->iv, &z, &pre, 1);
	LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, l->iv, hi, ""), l->body, l->exit);
	LLVMPositionBuilderAtEnd(g->b, l->body);
	return l->iv;
}

/* loop_open: loop_openv on constant bounds */
static LLVMValueRef
loop_open(G *g, Loop *l, int64_t lo, int64_t hi, int64_t step)
{
	return loop_openv(g, l, c64(g, lo), c64(g, hi), step);
}

/* loop_close: ends the loop opened by loop_open; the builder goes after it */
static void
loop_close(G *g, Loop *l)
{
	LLVMValueRef nx = LLVMBuildNSWAdd(g->b, l->iv, c64(g, l->step), "");
	LLVMBasicBlockRef cur = LLVMGetInsertBlock(g->b);

	LLVMAddIncoming(l->iv, &nx, &cur, 1);
	LLVMBuildBr(g->b, l->head);
	LLVMPositionBuilderAtEnd(g->b, l->exit);
}

/* Where the builder was before it went into another function (fnenter):
** the function being built, its in and err, and the block. */
typedef struct Here {
	LLVMValueRef fn, in, err;
	LLVMBasicBlockRef at;
} Here;

/* A loop whose iterations may run on several threads (par_open). */
typedef struct Par {
	Loop l;
	LLVMValueRef body;              /* its function, or NULL: a plain loop */
	Here h;                         /* the enclosing function's */
} Par;

static void relocal(G *g, LLVMValueRef f);

/* newfn: a new internal nounwind function name of type ft, noinline if
** asked (op functions and shared kernels: called from several places,
** or kept apart for the optimizer's sake) */
static LLVMValueRef
newfn(G *g, const char *name, LLVMTypeRef ft, int noinline)
{
	LLVMValueRef f = LLVMAddFunction(g->mod, name, ft);

	LLVMSetLinkage(f, LLVMInternalLinkage);
	LLVMAddAttributeAtIndex(f, (unsigned)-1, LLVMCreateEnumAttribute(g->cx, LLVMGetEnumAttributeKindForName("nounwind", 8), 0));
	if (noinline)
		LLVMAddAttributeAtIndex(f, (unsigned)-1, LLVMCreateEnumAttribute(g->cx, LLVMGetEnumAttributeKindForName("noinline", 8), 0));
	return f;
}

/* fnenter: saves in *h where the builder is, then builds f (its in and
** err: its parameters 0 and 1) from a new entry block */
static void
fnenter(G *g, LLVMValueRef f, Here *h)
{
	h->fn = g->fn;
	h->in = g->in;
	h->err = g->err;
	h->at = LLVMGetInsertBlock(g->b);
	g->fn = f;
	g->in = LLVMGetParam(f, 0);
	g->err = LLVMGetParam(f, 1);
	LLVMPositionBuilderAtEnd(g->b, LLVMAppendBasicBlockInContext(g->cx, f, "entry"));
}

/* fnleave: ends the function fnenter started with a return, and goes
** back to where the builder was */
static void
fnleave(G *g, const Here *h)
{
	LLVMBuildRetVoid(g->b);
	g->fn = h->fn;
	g->in = h->in;
	g->err = h->err;
	LLVMPositionBuilderAtEnd(g->b, h->at);
}

/* parbody: the type of a split loop's function, void (in, err, lo, hi) */
static LLVMTypeRef
parbody(G *g)
{
	LLVMTypeRef pt[4] = { LLVMPointerType(g->p8, 0), LLVMPointerType(g->i32, 0), g->i64, g->i64 };

	return LLVMFunctionType(LLVMVoidTypeInContext(g->cx), pt, 4, 0);
}

/* parrun: runs body (parbody()) on [0, n) with in and g->err: through
** graft_par_run (be_par_run, par.h: the JIT defines the symbol) when
** g->par and n > 1, else by a plain call */
static void
parrun(G *g, LLVMValueRef body, LLVMValueRef in, int64_t n)
{
	LLVMTypeRef ft = parbody(g), rt;
	LLVMValueRef args[4] = { body, in, g->err, c64(g, n) }, run;

	if (!g->par || n < 2) {
		LLVMValueRef a[4] = { in, g->err, c64(g, 0), c64(g, n) };
		LLVMBuildCall2(g->b, ft, body, a, 4, "");
		return;
	}
	rt = LLVMFunctionType(LLVMVoidTypeInContext(g->cx),
	                      (LLVMTypeRef[]){ LLVMPointerType(ft, 0), LLVMPointerType(g->p8, 0), LLVMPointerType(g->i32, 0), g->i64 }, 4, 0);
	if (!(run = LLVMGetNamedFunction(g->mod, "graft_par_run")))
		run = LLVMAddFunction(g->mod, "graft_par_run", rt);
	LLVMBuildCall2(g->b, rt, run, args, 4, "");
}

/* par_open: starts a loop over [0, n) that, in the JIT, becomes a
** function of its own, "void NAME.par(in, err, lo, hi)" running
** [lo, hi), which the enclosing function runs through graft_par_run
** (be_par_run, par.h: the JIT defines the symbol); elsewhere
** (--emit obj, a loop of fewer than two iterations) a plain loop.  The
** builder is left in the loop's body; returns its iv.  What the body
** uses must be defined inside it: constants, globals, the entry's
** parameters (relocal), and values it computes. */
static LLVMValueRef
par_open(G *g, Par *p, int64_t n)
{
	char name[128];

	memset(p, 0, sizeof *p);
	if (!g->par || n < 2)
		return loop_open(g, &p->l, 0, n, 1);
	snprintf(name, sizeof name, "%s.par", LLVMGetValueName(g->fn));
	p->body = newfn(g, name, parbody(g), 0);
	parrun(g, p->body, g->in, n);
	fnenter(g, p->body, &p->h);
	return loop_openv(g, &p->l, LLVMGetParam(p->body, 2), LLVMGetParam(p->body, 3), 1);
}

/* par_close: ends the loop par_open started; the builder goes after it
** in the enclosing function */
static void
par_close(G *g, Par *p)
{
	loop_close(g, &p->l);
	if (!p->body)
		return;
	fnleave(g, &p->h);
	relocal(g, p->body);
}

/* add64, mul64: i64 arithmetic on indices, with constants folded */
static LLVMValueRef add64(G *g, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildNSWAdd(g->b, a, b, ""); }
static LLVMValueRef mul64(G *g, LLVMValueRef a, int64_t k) { return LLVMBuildNSWMul(g->b, a, c64(g, k), ""); }

/* ---------------------------------------------------------------- scalar semantics */

/* cvt: v of dtype from converted to dtype to as TVM's cast does */
static LLVMValueRef
cvt(G *g, LLVMValueRef v, DType from, DType to)
{
	LLVMTypeRef t = elty(g, to);
	int fs = ir_dtype_kind[from] == 'i', fromf = !isint(from), tof = !isint(to);

	if (from == to)
		return v;
	if (to == DT_BOOL) {
		LLVMValueRef c = fromf ? LLVMBuildFCmp(g->b, LLVMRealUNE, v, LLVMConstNull(LLVMTypeOf(v)), "")
		                       : LLVMBuildICmp(g->b, LLVMIntNE, v, LLVMConstNull(LLVMTypeOf(v)), "");
		return LLVMBuildZExt(g->b, c, g->i8, "");
	}
	if (!fromf && !tof) {
		unsigned fw = ir_dtype_bytes[from] * 8, tw = ir_dtype_bytes[to] * 8;
		if (fw == tw)
			return v;
		if (fw > tw)
			return LLVMBuildTrunc(g->b, v, t, "");
		return fs ? LLVMBuildSExt(g->b, v, t, "") : LLVMBuildZExt(g->b, v, t, "");
	}
	if (!fromf)
		return fs ? LLVMBuildSIToFP(g->b, v, t, "") : LLVMBuildUIToFP(g->b, v, t, "");
	if (!tof) {
		/* out of range is undefined in TVM; saturate rather than poison */
		char name[40];
		LLVMValueRef a[1] = { v };
		snprintf(name, sizeof name, "llvm.fpto%si.sat.i%u.f%u", ir_dtype_kind[to] == 'i' ? "s" : "u",
		         ir_dtype_bytes[to] * 8, ir_dtype_bytes[from] * 8);
		return callf(g, name, t, a, 1);
	}
	return ir_dtype_bytes[to] > ir_dtype_bytes[from] ? LLVMBuildFPExt(g->b, v, t, "") : LLVMBuildFPTrunc(g->b, v, t, "");
}

/* cvt_in: float v, already clipped to the range of integer dtype to
** (no NaN), converted to it: as cvt, but for dtypes of one or two
** bytes with a plain conversion through int32, which LLVM vectorizes
** (its saturating conversions it does not) */
static LLVMValueRef
cvt_in(G *g, LLVMValueRef v, DType to)
{
	if (ir_dtype_bytes[to] > 2)
		return cvt(g, v, LLVMTypeOf(v) == g->f32 ? DT_FLOAT32 : DT_FLOAT64, to);
	return LLVMBuildTrunc(g->b, LLVMBuildFPToSI(g->b, v, g->i32, ""), elty(g, to), "");
}

/* imin, imax, fmin_, fmax_: selects on ordered compares, as TVM's min/max */
static LLVMValueRef
iminmax(G *g, LLVMValueRef a, LLVMValueRef b, int sgn, int max)
{
	LLVMIntPredicate p = max ? (sgn ? LLVMIntSGT : LLVMIntUGT) : (sgn ? LLVMIntSLT : LLVMIntULT);
	return LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, p, a, b, ""), a, b, "");
}

static LLVMValueRef
fminmax(G *g, LLVMValueRef a, LLVMValueRef b, int max)
{
	return LLVMBuildSelect(g->b, LLVMBuildFCmp(g->b, max ? LLVMRealOGT : LLVMRealOLT, a, b, ""), a, b, "");
}

/* sat32: int32 v clipped to the range of integer dtype to and cast */
static LLVMValueRef
sat32(G *g, LLVMValueRef v, DType to)
{
	if (to == DT_INT32 || to == DT_UINT32 || ir_dtype_bytes[to] > 4)
		return cvt(g, v, DT_INT32, to);
	v = iminmax(g, v, c32(g, ir_dtype_max(to)), 1, 0);
	v = iminmax(g, v, c32(g, ir_dtype_min(to)), 1, 1);
	return LLVMBuildTrunc(g->b, v, elty(g, to), "");
}

/* fixed: ref_fixed(d), zero for a d that is not finite (refused earlier) */
static RefFixed
fixed(double d)
{
	RefFixed f;
	ref_fixed(d, &f);
	return f;
}

/* fpm: int32 x times the fixed multiplier (mul, shift: i32 values),
** rounded UPWARD or to nearest, in int64 (wrapping), truncated to int32 */
static LLVMValueRef
fpm(G *g, LLVMValueRef x, LLVMValueRef mul, LLVMValueRef shift, int nearest)
{
	LLVMValueRef zero = c32(g, 0), ls, rs, total, t, half;

	ls = iminmax(g, shift, zero, 1, 1);
	rs = iminmax(g, LLVMBuildSub(g->b, zero, shift, ""), zero, 1, 1);
	total = LLVMBuildZExt(g->b, LLVMBuildAdd(g->b, rs, c32(g, 31), ""), g->i64, "");
	t = LLVMBuildShl(g->b, LLVMBuildSExt(g->b, x, g->i64, ""), LLVMBuildZExt(g->b, ls, g->i64, ""), "");
	t = LLVMBuildMul(g->b, t, LLVMBuildSExt(g->b, mul, g->i64, ""), "");
	half = LLVMBuildShl(g->b, c64(g, 1), LLVMBuildSub(g->b, total, c64(g, 1), ""), "");
	if (nearest)
		half = LLVMBuildSub(g->b, half, LLVMBuildZExt(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, t, c64(g, 0), ""), g->i64, ""), "");
	t = LLVMBuildAShr(g->b, LLVMBuildAdd(g->b, t, half, ""), total, "");
	return LLVMBuildTrunc(g->b, t, g->i32, "");
}

/* ---------------------------------------------------------------- float16 */

/* float16 data are i16 in buffers (copies move their bits untouched); an
** op's map function computes in float on the exactly widened values, and
** the result is rounded once to half (to nearest even, every NaN 0x7e00),
** as the reference stores a float16 result.  For + - * / and sqrt that
** is the correctly rounded half result (float has more than 2 * 11 + 2
** bits); a double is first rounded to an odd float (ho_f64), which then
** rounds to half without error. */

/* cdt: the dtype an op on dt computes in: float for float16 */
static DType cdt(DType dt) { return dt == DT_FLOAT16 ? DT_FLOAT32 : dt; }

/* h_load: float16 bits (i16) widened to float */
static LLVMValueRef
h_load(G *g, LLVMValueRef bits)
{
	return LLVMBuildFPExt(g->b, LLVMBuildBitCast(g->b, bits, g->f16, ""), g->f32, "");
}

/* h_store: float v rounded to float16 bits (i16); NaN is 0x7e00 */
static LLVMValueRef
h_store(G *g, LLVMValueRef v)
{
	LLVMValueRef h = LLVMBuildBitCast(g->b, LLVMBuildFPTrunc(g->b, v, g->f16, ""), g->i16, "");

	return LLVMBuildSelect(g->b, LLVMBuildFCmp(g->b, LLVMRealUNO, v, v, ""), LLVMConstInt(g->i16, 0x7e00, 0), h, "");
}

/* ho_f64: double d rounded to float, to odd (an inexact result gets its
** last bit set, toward zero first), so that rounding it to half rounds d */
static LLVMValueRef
ho_f64(G *g, LLVMValueRef d)
{
	LLVMValueRef f = LLVMBuildFPTrunc(g->b, d, g->f32, ""), back = LLVMBuildFPExt(g->b, f, g->f64, "");
	LLVMValueRef u = LLVMBuildBitCast(g->b, f, g->i32, ""), a[1], big, inexact;

	a[0] = back;
	big = callf(g, "llvm.fabs.f64", g->f64, a, 1);
	a[0] = d;
	big = LLVMBuildFCmp(g->b, LLVMRealOGT, big, callf(g, "llvm.fabs.f64", g->f64, a, 1), "");
	inexact = LLVMBuildFCmp(g->b, LLVMRealONE, back, d, "");
	u = LLVMBuildSub(g->b, u, LLVMBuildZExt(g->b, big, g->i32, ""), "");
	u = LLVMBuildOr(g->b, u, LLVMBuildZExt(g->b, inexact, g->i32, ""), "");
	return LLVMBuildBitCast(g->b, u, g->f32, "");
}

/* h_round: d rounded to float16 and widened back to double, as the
** reference rounds a constant that meets float16 data */
static double h_round(double d) { return ir_f32_from_f16(ref_f16(d)); }

/* h_rnd: float v rounded to half and widened back: one step of a float16
** accumulator, which the reference rounds after every add and multiply
** (a NaN stays a NaN; h_store makes it 0x7e00) */
static LLVMValueRef
h_rnd(G *g, LLVMValueRef v)
{
	return LLVMBuildFPExt(g->b, LLVMBuildFPTrunc(g->b, v, g->f16, ""), g->f32, "");
}

/* h_cvt: v of dtype from converted to dtype to as the reference's cast
** does, float16 on either side as its bits (i16): widened exactly from
** half; to half through a float (a double through one rounded to odd),
** rounded once, as cvt() converts to float */
static LLVMValueRef
h_cvt(G *g, LLVMValueRef v, DType from, DType to)
{
	if (from == DT_FLOAT16) {
		v = h_load(g, v);
		from = DT_FLOAT32;
	}
	if (to != DT_FLOAT16)
		return cvt(g, v, from, to);
	return h_store(g, from == DT_FLOAT64 ? ho_f64(g, v) : cvt(g, v, from, DT_FLOAT32));
}

/* h_val: v of dtype from cast to float16, as a float: how the reference
** reads an operand into a float16 accumulator */
static LLVMValueRef
h_val(G *g, LLVMValueRef v, DType from)
{
	return h_load(g, from == DT_FLOAT16 ? v : h_cvt(g, v, from, DT_FLOAT16));
}

/* h_opnd: v of dtype from read into an accumulator of dtype to (for
** float16, a float holding a half: h_val) */
static LLVMValueRef
h_opnd(G *g, LLVMValueRef v, DType from, DType to)
{
	return to == DT_FLOAT16 ? h_val(g, v, from) : h_cvt(g, v, from, to);
}

/* h_mac: *acc + x * y in the accumulator dtype dt, stored to acc (a
** float, for float16 rounded to half at each step as the reference
** rounds it) */
static void
h_mac(G *g, LLVMValueRef acc, LLVMValueRef x, LLVMValueRef y, DType dt)
{
	LLVMValueRef p = LLVMBuildFMul(g->b, x, y, ""), v;
	LLVMTypeRef t = LLVMTypeOf(p);

	if (dt == DT_FLOAT16)
		p = h_rnd(g, p);
	v = LLVMBuildFAdd(g->b, LLVMBuildLoad2(g->b, t, acc, ""), p, "");
	LLVMBuildStore(g->b, dt == DT_FLOAT16 ? h_rnd(g, v) : v, acc);
}

/* ---------------------------------------------------------------- maps */

enum { MAXIN = 6, MAXLEAF = 16 };     /* inputs of a map function; memory read by one loop */
enum { PARMAP = 1 << 15 };      /* elements of a map worth splitting among threads */

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
** computed inside its consumer's loop (emit_map) by f from its inputs,
** which read memory or are producers of their own; its result has the
** consumer's dims (ewmark). */
typedef struct Fu {
	MapFn *f;
	const void *ctx;
	int nin;
	Acc in[MAXIN];
} Fu;

/* leaves: appends to L (at most MAXLEAF) the accessors under a that read
** memory: a itself, or its producer's inputs' leaves; the new count */
static int
leaves(const Acc *a, const Acc **L, int n)
{
	if (!a->fu) {
		if (n < MAXLEAF)
			L[n] = a;
		return n + 1;
	}
	for (int j = 0; j < a->fu->nin; j++)
		n = leaves(&a->fu->in[j], L, n);
	return n;
}

/* accval: the element of a at the loop's offsets off[] of the leaves
** L[0..nl): a leaf's load (float16 widened when h), or its producer's
** result from theirs */
static LLVMValueRef
accval(G *g, const Acc *a, const Acc *const *L, const LLVMValueRef *off, int nl, int h)
{
	LLVMValueRef x[MAXIN];

	if (a->fu) {
		for (int j = 0; j < a->fu->nin; j++)
			x[j] = accval(g, &a->fu->in[j], L, off, nl, h);
		return a->fu->f(g, a->fu->ctx, x);
	}
	for (int k = 0; k < nl; k++)
		if (L[k] == a) {
			LLVMValueRef v = ld(g, a->p, a->dt, off[k]);
			return h && a->dt == DT_FLOAT16 ? h_load(g, v) : v;
		}
	return NULL;
}


/* emit_map: for every multi-index over dims, out = f(in...) (a copy of
** in[0] when f is NULL).  Dims that are contiguous for every accessor
** are merged first, so that plain elementwise ops run one flat loop.
** Inputs that are fused producers (Acc.fu) are computed in the loop
** from what they read, at most MAXLEAF accessors in all (ewmark). */
static void
emit_map(G *g, int rank, const int64_t *dims, Acc *out, int nin, const Acc *in, MapFn *f, const void *ctx)
{
	int64_t d[MAXD + 1], s[MAXLEAF + 1][MAXD + 1], total = 1;
	int r = 0, nl = 0, split;
	Loop l[MAXD + 1];
	Par pr;
	LLVMValueRef x[MAXIN], off[MAXLEAF + 1];
	const Acc *acc[MAXLEAF + 1];

	for (int j = 0; j < nin; j++)
		nl = leaves(&in[j], acc, nl);
	if (nl > MAXLEAF)
		ir_die("llvm: a fused elementwise loop reads more than %d tensors", MAXLEAF);
	acc[nl] = out;
	for (int k = 0; k < rank; k++) {
		int merge = r > 0;
		if (dims[k] == 0)
			return;
		if (dims[k] == 1)
			continue;
		for (int j = 0; j <= nl && merge; j++)
			merge = s[j][r - 1] == acc[j]->st[k] * dims[k];
		if (merge) {
			d[r - 1] *= dims[k];
			for (int j = 0; j <= nl; j++)
				s[j][r - 1] = acc[j]->st[k];
			continue;
		}
		d[r] = dims[k];
		for (int j = 0; j <= nl; j++)
			s[j][r] = acc[j]->st[k];
		r++;
	}
	for (int k = 0; k < r; k++)
		total *= d[k];
	/* a large map is split among threads by its outermost loop; one flat
	   loop first becomes rows of a length that divides it (1K to 8K
	   elements), or stays whole */
	if (r == 1 && total >= PARMAP) {
		int64_t len = 8192;
		while (len >= 1024 && d[0] % len)
			len--;
		if (len >= 1024) {
			d[1] = len;
			d[0] /= len;
			for (int j = 0; j <= nl; j++) {
				s[j][1] = s[j][0];
				s[j][0] *= len;
			}
			r = 2;
		}
	}
	split = r > 1 && total >= PARMAP;
	for (int j = 0; j <= nl; j++)
		off[j] = c64(g, acc[j]->base);
	for (int k = 0; k < r; k++) {
		LLVMValueRef iv = k == 0 && split ? par_open(g, &pr, d[0]) : loop_open(g, &l[k], 0, d[k], 1);
		for (int j = 0; j <= nl; j++)
			if (s[j][k])
				off[j] = add64(g, off[j], mul64(g, iv, s[j][k]));
	}
	for (int j = 0; j < nin; j++)
		x[j] = accval(g, &in[j], acc, off, nl, f != NULL);
	st(g, out->p, out->dt, off[nl], !f ? x[0] : out->dt == DT_FLOAT16 ? h_store(g, f(g, ctx, x)) : f(g, ctx, x));
	for (int k = r - 1; k >= 0; k--)
		if (k == 0 && split)
			par_close(g, &pr);
		else
			loop_close(g, &l[k]);
}

/* bcast: an accessor reading a (dims adims, rank ar) broadcast to the
** output dims od of rank orank (numpy rules: aligned at the right) */
static Acc
bcast(G *g, Val v, DType dt, const int64_t *adims, int ar, int orank)
{
	Acc a;
	int64_t own[MAXD];

	memset(&a, 0, sizeof a);
	a.p = v.p;
	a.dt = dt;
	strides(adims, ar, own);
	for (int k = 0; k < orank; k++) {
		int j = k - (orank - ar);
		a.st[k] = j < 0 || adims[j] == 1 ? 0 : own[j];
	}
	return a;
}

/* along: an accessor reading a vector of n elements (or a scalar) along
** axis ax of an output of rank orank */
static Acc
along(Val v, DType dt, int64_t n, int ax, int orank)
{
	Acc a;

	memset(&a, 0, sizeof a);
	a.p = v.p;
	a.dt = dt;
	if (n > 1 && ax >= 0 && ax < orank)
		a.st[ax] = 1;
	return a;
}

/* dense_acc: the row-major accessor of a tensor of dims */
static Acc
dense_acc(LLVMValueRef p, DType dt, const int64_t *dims, int rank)
{
	Acc a;

	memset(&a, 0, sizeof a);
	a.p = p;
	a.dt = dt;
	strides(dims, rank, a.st);
	return a;
}

/* ---------------------------------------------------------------- attributes and constants */

static const AttrVal *
attr(const Module *m, NodeId n, const char *name)
{
	int i = ir_op_attr_index(m->nodes[n].op, name, strlen(name));
	return i < 0 ? NULL : &ir_attrs(m, n)[i];
}

static int64_t
aint(const Module *m, NodeId n, const char *name)
{
	const AttrVal *v = attr(m, n, name);
	return v && (v->kind == AV_INT || v->kind == AV_BOOL) ? v->u.i : 0;
}

static const char *
astr(const Module *m, NodeId n, const char *name)
{
	const AttrVal *v = attr(m, n, name);
	return v && v->kind == AV_STR ? ir_symstr(m, v->u.s) : "";
}

/* aints: the integers of an int-list attribute; -1 if None or not a list */
static int
aints(const Module *m, NodeId n, const char *name, int64_t *out, int max)
{
	const AttrVal *v = attr(m, n, name);
	int k = 0;

	if (!v || v->kind != AV_ARRAY)
		return -1;
	for (uint32_t i = 0; i < v->n && k < max; i++)
		if (m->attrs[v->first + i].kind == AV_INT)
			out[k++] = m->attrs[v->first + i].u.i;
	return k;
}

/* cdata: the data of the constant behind v (NULL if v is not a constant) */
static const void *
cdata(const G *g, Val v, TypeId *t)
{
	const Const *c;

	if (!v.cnode)
		return NULL;
	c = &g->m->consts[g->m->nodes[v.cnode].aux];
	*t = c->type;
	return c->data;
}

/* cnum: element i of constant v as a double (i clamped to its size) */
static int
cnum(const G *g, Val v, int64_t i, double *out)
{
	TypeId t;
	const unsigned char *p = cdata(g, v, &t);
	int64_t n;
	DType dt;

	if (!p)
		return 0;
	n = ir_type_numel(g->m, t);
	dt = tdt(g->m, t);
	if (i >= n)
		i = n - 1;
	if (dt == DT_FLOAT32) {
		float f;
		memcpy(&f, p + i * 4, 4);
		*out = f;
	} else if (dt == DT_INT32) {
		int32_t x;
		memcpy(&x, p + i * 4, 4);
		*out = x;
	} else if (dt == DT_INT8) {
		*out = (int8_t)p[i];
	} else if (dt == DT_UINT8) {
		*out = p[i];
	} else {
		return 0;
	}
	return 1;
}

/* cnumel: the element count of constant v */
static int64_t
cnumel(const G *g, Val v)
{
	TypeId t;
	if (!cdata(g, v, &t))
		return -1;
	return ir_type_numel(g->m, t);
}

static void
refuse(G *g, NodeId n, const char *why)
{
	ir_error(g->d, g->m->locs[n], "the llvm backend cannot run %s: %s",
	         g->m->nodes[n].kind == NK_CALL ? ir_ops[g->m->nodes[n].op].name : "this expression", why);
	g->errors++;
}

/* ---------------------------------------------------------------- elementwise ops */

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

static LLVMValueRef fcall2(G *g, const char *base, LLVMValueRef x, LLVMValueRef y, DType dt);
static LLVMValueRef fcall1(G *g, const char *base, LLVMValueRef x, DType dt);

/* ipow: integer a ** b in dtype dt as ref computes it: in int64 (the
** operands widened as ref reads them) by squaring, wrapping, truncated
** to dt; a negative exponent gives 0 but for a base of 1 (1) or -1 (-1
** or 1 by the exponent's parity), as integer division would */
static LLVMValueRef
ipow(G *g, LLVMValueRef a, LLVMValueRef b, DType dt)
{
	LLVMBasicBlockRef pre = LLVMGetInsertBlock(g->b);
	LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(g->cx, g->fn, "pow");
	LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(g->cx, g->fn, "pow.step");
	LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->cx, g->fn, "pow.done");
	LLVMValueRef x0 = cvt(g, a, dt, DT_INT64), e0 = cvt(g, b, dt, DT_INT64), one = c64(g, 1), zero = c64(g, 0);
	LLVMValueRef neg = LLVMBuildICmp(g->b, LLVMIntSLT, e0, zero, ""), x, y, e, x1, y1, e1, odd, r;
	LLVMBasicBlockRef step;

	/* uint64 reads as int64 in ref, so an exponent of 2^63 and up is negative there too */
	if (ir_dtype_kind[dt] == 'u' && ir_dtype_bytes[dt] < 8)
		neg = LLVMConstInt(g->i1, 0, 0);
	e0 = LLVMBuildSelect(g->b, neg, zero, e0, "");
	LLVMBuildBr(g->b, head);
	LLVMPositionBuilderAtEnd(g->b, head);
	x = LLVMBuildPhi(g->b, g->i64, "");
	y = LLVMBuildPhi(g->b, g->i64, "");
	e = LLVMBuildPhi(g->b, g->i64, "");
	LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntNE, e, zero, ""), body, done);
	LLVMPositionBuilderAtEnd(g->b, body);
	odd = LLVMBuildICmp(g->b, LLVMIntNE, LLVMBuildAnd(g->b, e, one, ""), zero, "");
	y1 = LLVMBuildSelect(g->b, odd, LLVMBuildMul(g->b, y, x, ""), y, "");
	x1 = LLVMBuildMul(g->b, x, x, "");
	e1 = LLVMBuildLShr(g->b, e, one, "");
	step = LLVMGetInsertBlock(g->b);
	LLVMBuildBr(g->b, head);
	LLVMAddIncoming(x, (LLVMValueRef[]){ x0, x1 }, (LLVMBasicBlockRef[]){ pre, step }, 2);
	LLVMAddIncoming(y, (LLVMValueRef[]){ one, y1 }, (LLVMBasicBlockRef[]){ pre, step }, 2);
	LLVMAddIncoming(e, (LLVMValueRef[]){ e0, e1 }, (LLVMBasicBlockRef[]){ pre, step }, 2);
	LLVMPositionBuilderAtEnd(g->b, done);
	/* a negative exponent: 1 ** b = 1, (-1) ** b = +-1, else 0 */
	odd = LLVMBuildICmp(g->b, LLVMIntNE, LLVMBuildAnd(g->b, cvt(g, b, dt, DT_INT64), one, ""), zero, "");
	r = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, x0, one, ""), one,
	                    LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, x0, c64(g, -1), ""),
	                                    LLVMBuildSelect(g->b, odd, c64(g, -1), one, ""), zero, ""), "");
	return cvt(g, LLVMBuildSelect(g->b, neg, r, y, ""), DT_INT64, dt);
}

/* binary: add, subtract, multiply, divide, maximum, minimum, power, mod,
** floor_mod (integer division by zero sets the error) */
static LLVMValueRef
ew_binary(G *g, const void *ctx, LLVMValueRef *x)
{
	const Ew *e = ctx;
	LLVMValueRef a = x[0], b = x[1];

	if (!isint(e->dt)) {
		switch (e->op) {
		case OP_ADD: return LLVMBuildFAdd(g->b, a, b, "");
		case OP_SUBTRACT: return LLVMBuildFSub(g->b, a, b, "");
		case OP_MULTIPLY: return LLVMBuildFMul(g->b, a, b, "");
		case OP_MAXIMUM: case OP_MINIMUM: {
			/* NaN in, NaN out, as the reference */
			LLVMValueRef an = LLVMBuildFCmp(g->b, LLVMRealUNO, a, a, ""), bn = LLVMBuildFCmp(g->b, LLVMRealUNO, b, b, "");
			LLVMValueRef gt = LLVMBuildFCmp(g->b, e->op == OP_MAXIMUM ? LLVMRealOGT : LLVMRealOLT, a, b, "");
			return LLVMBuildSelect(g->b, an, a, LLVMBuildSelect(g->b, bn, b, LLVMBuildSelect(g->b, gt, a, b, ""), ""), "");
		}
		case OP_POWER:
			if (e->h16)     /* in double, as the reference */
				return ho_f64(g, fcall2(g, "llvm.pow", LLVMBuildFPExt(g->b, a, g->f64, ""),
				                        LLVMBuildFPExt(g->b, b, g->f64, ""), DT_FLOAT64));
			return fcall2(g, "llvm.pow", a, b, e->dt);
		case OP_MOD: return LLVMBuildFRem(g->b, a, b, "");      /* C's fmod */
		case OP_FLOOR_MOD: {    /* a - floor(a / b) * b, as topi, each step rounded to the dtype */
			LLVMValueRef q = LLVMBuildFDiv(g->b, a, b, ""), p;
			if (e->h16)
				q = h_rnd(g, q);
			p = LLVMBuildFMul(g->b, fcall1(g, "llvm.floor", q, e->dt), b, "");
			return LLVMBuildFSub(g->b, a, e->h16 ? h_rnd(g, p) : p, "");
		}
		default: return LLVMBuildFDiv(g->b, a, b, "");
		}
	}
	if (e->op == OP_POWER)
		return ipow(g, a, b, e->dt);
	if (e->op == OP_MAXIMUM || e->op == OP_MINIMUM) {
		int sgn = ir_dtype_kind[e->dt] == 'i';
		LLVMValueRef gt = LLVMBuildICmp(g->b, e->op == OP_MAXIMUM ? (sgn ? LLVMIntSGT : LLVMIntUGT) :
		                                (sgn ? LLVMIntSLT : LLVMIntULT), a, b, "");
		return LLVMBuildSelect(g->b, gt, a, b, "");
	}
	switch (e->op) {
	case OP_ADD: return LLVMBuildAdd(g->b, a, b, "");
	case OP_SUBTRACT: return LLVMBuildSub(g->b, a, b, "");
	case OP_MULTIPLY: return LLVMBuildMul(g->b, a, b, "");
	default: {
		LLVMTypeRef t = LLVMTypeOf(a);
		LLVMValueRef zero = LLVMBuildICmp(g->b, LLVMIntEQ, b, LLVMConstNull(t), ""), e0;
		int sgn = ir_dtype_kind[e->dt] == 'i';
		e0 = LLVMBuildLoad2(g->b, g->i32, g->err, "");
		LLVMBuildStore(g->b, LLVMBuildOr(g->b, e0, LLVMBuildZExt(g->b, zero, g->i32, ""), ""), g->err);
		b = LLVMBuildSelect(g->b, zero, LLVMConstInt(t, 1, 0), b, "");
		if (e->op == OP_MOD || e->op == OP_FLOOR_MOD) {
			/* x % -1 is 0: take it as x % 1, so MIN % -1 never overflows */
			LLVMValueRef r, adj;
			if (!sgn)
				return LLVMBuildURem(g->b, a, b, "");
			b = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, b, LLVMConstAllOnes(t), ""), LLVMConstInt(t, 1, 0), b, "");
			r = LLVMBuildSRem(g->b, a, b, "");
			if (e->op == OP_MOD)
				return r;
			/* floor_mod: a nonzero remainder of the other sign than b gets b added */
			adj = LLVMBuildAnd(g->b, LLVMBuildICmp(g->b, LLVMIntNE, r, LLVMConstNull(t), ""),
			                   LLVMBuildICmp(g->b, LLVMIntNE, LLVMBuildICmp(g->b, LLVMIntSLT, r, LLVMConstNull(t), ""),
			                                 LLVMBuildICmp(g->b, LLVMIntSLT, b, LLVMConstNull(t), ""), ""), "");
			return LLVMBuildSelect(g->b, adj, LLVMBuildAdd(g->b, r, b, ""), r, "");
		}
		if (sgn) {
			/* MIN / -1 overflows: give MIN, as wrapping would */
			LLVMValueRef ov = LLVMBuildAnd(g->b,
				LLVMBuildICmp(g->b, LLVMIntEQ, a, LLVMConstInt(t, (unsigned long long)ir_dtype_min(e->dt), 1), ""),
				LLVMBuildICmp(g->b, LLVMIntEQ, b, LLVMConstAllOnes(t), ""), "");
			b = LLVMBuildSelect(g->b, ov, LLVMConstInt(t, 1, 0), b, "");
			return LLVMBuildSDiv(g->b, a, b, "");
		}
		return LLVMBuildUDiv(g->b, a, b, "");
	}
	}
}

/* fcall2: llvm.NAME of two float arguments */
static LLVMValueRef
fcall2(G *g, const char *base, LLVMValueRef x, LLVMValueRef y, DType dt)
{
	char name[32];
	LLVMValueRef a[2] = { x, y };

	snprintf(name, sizeof name, "%s.f%d", base, dt == DT_FLOAT64 ? 64 : 32);
	return callf(g, name, elty(g, dt), a, 2);
}

/* fcall1: a float math function of one argument (llvm.NAME or libm) */
static LLVMValueRef
fcall1(G *g, const char *base, LLVMValueRef x, DType dt)
{
	char name[32];
	LLVMValueRef a[1] = { x };

	if (!strncmp(base, "llvm.", 5))
		snprintf(name, sizeof name, "%s.f%d", base, dt == DT_FLOAT64 ? 64 : 32);
	else
		snprintf(name, sizeof name, "%s%s", base, dt == DT_FLOAT64 ? "" : "f");
	return callf(g, name, elty(g, dt), a, 1);
}

/* unary: exp, rsqrt, sigmoid, tanh, relu, leaky_relu, clip, cast */
static LLVMValueRef
ew_unary(G *g, const void *ctx, LLVMValueRef *x)
{
	const Ew *e = ctx;
	LLVMValueRef v = x[0];
	LLVMTypeRef t = elty(g, e->dt);
	LLVMValueRef one = isint(e->dt) ? NULL : LLVMConstReal(t, 1.0);

	switch (e->op) {
	case OP_EXP: return fcall1(g, "llvm.exp", v, e->dt);
	case OP_RSQRT: return LLVMBuildFDiv(g->b, one, fcall1(g, "llvm.sqrt", v, e->dt), "");
	case OP_SQRT: return fcall1(g, "llvm.sqrt", v, e->dt);
	case OP_FLOOR: return isint(e->dt) ? v : fcall1(g, "llvm.floor", v, e->dt);
	case OP_CEIL: return isint(e->dt) ? v : fcall1(g, "llvm.ceil", v, e->dt);
	case OP_LOG: return fcall1(g, "llvm.log", v, e->dt);
	case OP_ABS:
		if (isint(e->dt))       /* wraps at the minimum, as negation does */
			return ir_dtype_kind[e->dt] == 'u' ? v
			       : LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, v, LLVMConstInt(t, 0, 0), ""),
			                         LLVMBuildNeg(g->b, v, ""), v, "");
		return fcall1(g, "llvm.fabs", v, e->dt);
	case OP_NEGATIVE: return isint(e->dt) ? LLVMBuildNeg(g->b, v, "") : LLVMBuildFNeg(g->b, v, "");
	case OP_TANH: return fcall1(g, "tanh", v, e->dt);
	case OP_SIGMOID:
		return LLVMBuildFDiv(g->b, one, LLVMBuildFAdd(g->b, one, fcall1(g, "llvm.exp", LLVMBuildFNeg(g->b, v, ""), e->dt), ""), "");
	case OP_NN_RELU:
		if (isint(e->dt))
			return iminmax(g, v, LLVMConstNull(t), ir_dtype_kind[e->dt] == 'i', 1);
		return LLVMBuildSelect(g->b, LLVMBuildFCmp(g->b, LLVMRealOGT, v, LLVMConstNull(t), ""), v, LLVMConstNull(t), "");
	case OP_NN_LEAKY_RELU:
		return LLVMBuildSelect(g->b, LLVMBuildFCmp(g->b, LLVMRealOGT, v, LLVMConstNull(t), ""), v,
		                       LLVMBuildFMul(g->b, v, LLVMConstReal(t, e->lo), ""), "");
	case OP_CLIP:
		if (isint(e->dt)) {
			int sgn = ir_dtype_kind[e->dt] == 'i';
			v = iminmax(g, v, LLVMConstInt(t, (unsigned long long)(int64_t)e->hi, 1), sgn, 0);
			return iminmax(g, v, LLVMConstInt(t, (unsigned long long)(int64_t)e->lo, 1), sgn, 1);
		}
		v = fminmax(g, v, LLVMConstReal(t, e->dt == DT_FLOAT32 ? (double)(float)e->hi : e->hi), 0);
		return fminmax(g, v, LLVMConstReal(t, e->dt == DT_FLOAT32 ? (double)(float)e->lo : e->lo), 1);
	default: /* cast and annotation.cast_hint */
		if (e->h16 && e->dt == DT_FLOAT64)
			return ho_f64(g, v);
		return cvt(g, v, e->dt, e->odt);
	}
}

/* compare: the comparisons, logical_and and logical_or; a bool (i8) of
** 0 or 1; a NaN is unequal to everything */
static LLVMValueRef
ew_compare(G *g, const void *ctx, LLVMValueRef *x)
{
	const Ew *e = ctx;
	LLVMValueRef a = x[0], b = x[1], r;
	int u = ir_dtype_kind[e->dt] != 'i';

	if (e->op == OP_LOGICAL_AND || e->op == OP_LOGICAL_OR) {
		a = LLVMBuildICmp(g->b, LLVMIntNE, a, LLVMConstNull(g->i8), "");
		b = LLVMBuildICmp(g->b, LLVMIntNE, b, LLVMConstNull(g->i8), "");
		r = e->op == OP_LOGICAL_AND ? LLVMBuildAnd(g->b, a, b, "") : LLVMBuildOr(g->b, a, b, "");
	} else if (!isint(e->dt)) {
		static const LLVMRealPredicate fp[] = { LLVMRealOEQ, LLVMRealUNE, LLVMRealOLT, LLVMRealOLE, LLVMRealOGT,
		                                        LLVMRealOGE };
		r = LLVMBuildFCmp(g->b, fp[(int)e->lo], a, b, "");
	} else {
		static const LLVMIntPredicate sp[] = { LLVMIntEQ, LLVMIntNE, LLVMIntSLT, LLVMIntSLE, LLVMIntSGT, LLVMIntSGE };
		static const LLVMIntPredicate up[] = { LLVMIntEQ, LLVMIntNE, LLVMIntULT, LLVMIntULE, LLVMIntUGT, LLVMIntUGE };
		r = LLVMBuildICmp(g->b, (u ? up : sp)[(int)e->lo], a, b, "");
	}
	return LLVMBuildZExt(g->b, r, g->i8, "");
}

/* bitwise: bitwise_and, bitwise_or, bitwise_xor, bitwise_not (of bool, an
** i8 of 0 or 1, logical not), left_shift, right_shift (ashr for signed
** dtypes, lshr for unsigned); an amount outside [0, bits), poison in
** LLVM, is replaced by 0 and the result by 0, or by the sign for a
** signed right shift (the reference's) */
static LLVMValueRef
ew_bitwise(G *g, const void *ctx, LLVMValueRef *x)
{
	const Ew *e = ctx;
	LLVMValueRef a = x[0], b = x[1], ok, sh, fill;
	LLVMTypeRef t = elty(g, e->dt);
	unsigned bits = ir_dtype_bytes[e->dt] * 8;
	int sgn = ir_dtype_kind[e->dt] == 'i';

	switch (e->op) {
	case OP_BITWISE_AND: return LLVMBuildAnd(g->b, a, b, "");
	case OP_BITWISE_OR: return LLVMBuildOr(g->b, a, b, "");
	case OP_BITWISE_XOR: return LLVMBuildXor(g->b, a, b, "");
	case OP_BITWISE_NOT:
		return LLVMBuildXor(g->b, a, e->dt == DT_BOOL ? LLVMConstInt(t, 1, 0) : LLVMConstAllOnes(t), "");
	default: break;
	}
	/* unsigned, a negative amount is out of range too */
	ok = LLVMBuildICmp(g->b, LLVMIntULT, b, LLVMConstInt(t, bits, 0), "");
	b = LLVMBuildSelect(g->b, ok, b, LLVMConstNull(t), "");
	if (e->op == OP_LEFT_SHIFT) {
		sh = LLVMBuildShl(g->b, a, b, "");
		fill = LLVMConstNull(t);
	} else if (sgn) {
		sh = LLVMBuildAShr(g->b, a, b, "");
		fill = LLVMBuildAShr(g->b, a, LLVMConstInt(t, bits - 1, 0), "");
	} else {
		sh = LLVMBuildLShr(g->b, a, b, "");
		fill = LLVMConstNull(t);
	}
	return LLVMBuildSelect(g->b, ok, sh, fill, "");
}

/* copy: broadcast_to, x[0] read through broadcast strides */
static LLVMValueRef
ew_copy(G *g, const void *ctx, LLVMValueRef *x)
{
	(void)g;
	(void)ctx;
	return x[0];
}

/* where: x[0] the condition (true when not zero), x[1] x, x[2] y */
static LLVMValueRef
ew_where(G *g, const void *ctx, LLVMValueRef *x)
{
	const Ew *e = ctx;
	LLVMValueRef t = isint(e->dt) ? LLVMBuildICmp(g->b, LLVMIntNE, x[0], LLVMConstNull(LLVMTypeOf(x[0])), "")
	                              : LLVMBuildFCmp(g->b, LLVMRealUNE, x[0], LLVMConstNull(LLVMTypeOf(x[0])), "");

	return LLVMBuildSelect(g->b, t, x[1], x[2], "");
}

/* sign (0 for zeros and NaN, as TVM), round (halves to even; integers
** unchanged), erf, the trigonometric and hyperbolic functions and their
** inverses (libm's), isnan, isinf, isfinite and logical_not */
static LLVMValueRef
ew_more(G *g, const void *ctx, LLVMValueRef *x)
{
	const Ew *e = ctx;
	LLVMValueRef v = x[0];
	LLVMTypeRef t = elty(g, e->dt);

	switch (e->op) {
	case OP_LOGICAL_NOT:
		return LLVMBuildZExt(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, v, LLVMConstNull(t), ""), g->i8, "");
	case OP_ERF: return fcall1(g, "erf", v, e->dt);
	case OP_ACOS: case OP_ACOSH: case OP_ASIN: case OP_ASINH: case OP_ATAN: case OP_ATANH: case OP_COS: case OP_COSH: case OP_SIN: case OP_SINH: case OP_TAN:
		/* the C library's function of the op's name, as TVM calls it */
		return fcall1(g, ir_ops[e->op].name, v, e->dt);
	case OP_ISNAN: case OP_ISINF: case OP_ISFINITE: {
		/* an integer is finite */
		LLVMValueRef r, a;
		if (isint(e->dt))
			return LLVMConstInt(g->i8, e->op == OP_ISFINITE, 0);
		a = fcall1(g, "llvm.fabs", v, e->dt);
		r = e->op == OP_ISNAN ? LLVMBuildFCmp(g->b, LLVMRealUNO, v, v, "")
		  : LLVMBuildFCmp(g->b, e->op == OP_ISINF ? LLVMRealOEQ : LLVMRealONE, a, LLVMConstReal(t, INFINITY), "");
		return LLVMBuildZExt(g->b, r, g->i8, "");
	}
	case OP_ROUND: return isint(e->dt) ? v : fcall1(g, "llvm.roundeven", v, e->dt);
	default: {
		LLVMValueRef pos, neg, one, mone;
		if (isint(e->dt)) {
			int sgn = ir_dtype_kind[e->dt] == 'i';
			pos = LLVMBuildICmp(g->b, sgn ? LLVMIntSGT : LLVMIntUGT, v, LLVMConstNull(t), "");
			neg = sgn ? LLVMBuildICmp(g->b, LLVMIntSLT, v, LLVMConstNull(t), "") : LLVMConstInt(g->i1, 0, 0);
			one = LLVMConstInt(t, 1, 0);
			mone = LLVMConstAllOnes(t);
		} else {
			pos = LLVMBuildFCmp(g->b, LLVMRealOGT, v, LLVMConstNull(t), "");
			neg = LLVMBuildFCmp(g->b, LLVMRealOLT, v, LLVMConstNull(t), "");
			one = LLVMConstReal(t, 1.0);
			mone = LLVMConstReal(t, -1.0);
		}
		return LLVMBuildSelect(g->b, pos, one, LLVMBuildSelect(g->b, neg, mone, LLVMConstNull(t), ""), "");
	}
	}
}

/* quantize: x[0] data (float32), x[1] scale, x[2] zero point */
static LLVMValueRef
ew_quantize(G *g, const void *ctx, LLVMValueRef *x)
{
	const Ew *e = ctx;
	LLVMValueRef v = LLVMBuildFDiv(g->b, x[0], x[1], ""), a[1];

	a[0] = v;
	if (e->even) {
		/* ONNX: halves to even, then the zero point added exactly (in
		   double) and saturated; NaN goes to the top, as in ref */
		LLVMValueRef t, hi = LLVMConstReal(g->f64, (double)ir_dtype_max(e->odt)), lo = LLVMConstReal(g->f64, (double)ir_dtype_min(e->odt));
		v = callf(g, "llvm.roundeven.f32", g->f32, a, 1);
		t = LLVMBuildFAdd(g->b, LLVMBuildFPExt(g->b, v, g->f64, ""), LLVMBuildSIToFP(g->b, x[2], g->f64, ""), "");
		t = LLVMBuildSelect(g->b, LLVMBuildFCmp(g->b, LLVMRealOLT, t, hi, ""), t, hi, "");
		t = LLVMBuildSelect(g->b, LLVMBuildFCmp(g->b, LLVMRealOGT, t, lo, ""), t, lo, "");
		return cvt_in(g, t, e->odt);
	}
	v = callf(g, "llvm.round.f32", g->f32, a, 1);
	v = LLVMBuildFAdd(g->b, v, LLVMBuildSIToFP(g->b, x[2], g->f32, ""), "");
	v = fminmax(g, v, LLVMConstReal(g->f32, (double)(float)ir_dtype_max(e->odt)), 0);
	v = fminmax(g, v, LLVMConstReal(g->f32, (double)(float)ir_dtype_min(e->odt)), 1);
	return cvt_in(g, v, e->odt);
}

/* dequantize: x[0] data, x[1] scale, x[2] zero point; a float16 result
** is first clipped to +-65504 (a NaN to 65504), as the reference clips it */
static LLVMValueRef
ew_dequantize(G *g, const void *ctx, LLVMValueRef *x)
{
	const Ew *e = ctx;
	LLVMValueRef d = LLVMBuildSub(g->b, cvt(g, x[0], e->dt, DT_INT32), x[2], ""), v, big;

	v = LLVMBuildFMul(g->b, LLVMBuildSIToFP(g->b, d, g->f32, ""), x[1], "");
	if (!e->h16)
		return v;
	big = LLVMConstReal(g->f32, 65504.0);
	v = LLVMBuildSelect(g->b, LLVMBuildFCmp(g->b, LLVMRealOLT, v, big, ""), v, big, "");
	big = LLVMConstReal(g->f32, -65504.0);
	return LLVMBuildSelect(g->b, LLVMBuildFCmp(g->b, LLVMRealOGT, v, big, ""), v, big, "");
}

/* requantize: x[0] data, x[1] input zero point, x[2] multiplier, x[3]
** shift (int32), x[4] output zero point */
static LLVMValueRef
ew_requantize(G *g, const void *ctx, LLVMValueRef *x)
{
	const Ew *e = ctx;
	LLVMValueRef v = LLVMBuildSub(g->b, cvt(g, x[0], e->dt, DT_INT32), x[1], "");

	if (!e->skip[0])
		v = fpm(g, v, x[2], x[3], e->nearest);
	return sat32(g, LLVMBuildAdd(g->b, v, x[4], ""), e->odt);
}

/* requantize in QNNPACK's float32 (rounding "HALF_TO_EVEN"): x[0] data,
** x[1] input zero point, x[2] the float32 multiplier, x[3] output zero
** point: roundeven(fl(sitofp(x - izp) * m)) + ozp in double, saturated */
static LLVMValueRef
ew_requantize_f32(G *g, const void *ctx, LLVMValueRef *x)
{
	const Ew *e = ctx;
	LLVMValueRef v = LLVMBuildSub(g->b, cvt(g, x[0], e->dt, DT_INT32), x[1], ""), a[1], t;
	LLVMValueRef hi = LLVMConstReal(g->f64, (double)ir_dtype_max(e->odt)), lo = LLVMConstReal(g->f64, (double)ir_dtype_min(e->odt));

	a[0] = LLVMBuildFMul(g->b, LLVMBuildSIToFP(g->b, v, g->f32, ""), x[2], "");
	t = LLVMBuildFPExt(g->b, callf(g, "llvm.roundeven.f32", g->f32, a, 1), g->f64, "");
	t = LLVMBuildFAdd(g->b, t, LLVMBuildSIToFP(g->b, x[3], g->f64, ""), "");
	t = LLVMBuildSelect(g->b, LLVMBuildFCmp(g->b, LLVMRealOLT, t, hi, ""), t, hi, "");
	t = LLVMBuildSelect(g->b, LLVMBuildFCmp(g->b, LLVMRealOGT, t, lo, ""), t, lo, "");
	return cvt_in(g, t, e->odt);
}

/* qnn.add, qnn.mul: x[0], x[1] (per-tensor parameters in the context) */
static LLVMValueRef
ew_qnn(G *g, const void *ctx, LLVMValueRef *x)
{
	const Ew *e = ctx;
	LLVMValueRef a = cvt(g, x[0], e->dt, DT_INT32), b = cvt(g, x[1], e->dt, DT_INT32), v;

	if (e->op == OP_QNN_MUL) {
		v = LLVMBuildMul(g->b, LLVMBuildSub(g->b, a, c32(g, e->zp[0]), ""), LLVMBuildSub(g->b, b, c32(g, e->zp[1]), ""), "");
		if (!e->skip[0])
			v = fpm(g, v, c32(g, e->fx[0].mul), c32(g, e->fx[0].shift), 0);
		return sat32(g, LLVMBuildAdd(g->b, v, c32(g, e->zp[2]), ""), e->odt);
	}
	/* requantize (or upcast) each side to the output parameters */
	for (int k = 0; k < 2; k++) {
		LLVMValueRef *s = k ? &b : &a;
		if (e->skip[k] == 2)
			continue;
		*s = LLVMBuildSub(g->b, *s, c32(g, e->zp[k]), "");
		if (!e->skip[k])
			*s = fpm(g, *s, c32(g, e->fx[k].mul), c32(g, e->fx[k].shift), 0);
		*s = LLVMBuildAdd(g->b, *s, c32(g, e->zp[2]), "");
	}
	v = LLVMBuildAdd(g->b, a, b, "");
	v = LLVMBuildSub(g->b, v, c32(g, e->zp[2]), "");
	return sat32(g, v, e->odt);
}

/* ibound: clip bound b for integer dtype dt (truncated toward zero) */
static int
ibound(DType dt, double b, double *out)
{
	double t = trunc(b);

	if (isnan(b) || (ir_dtype_kind[dt] == 'u' && b < 0) || !(t >= (double)ir_dtype_min(dt) && t <= (double)ir_dtype_max(dt)))
		return 0;
	*out = t;
	return 1;
}

/* clip_whole: n is a clip of integer data whose bounds (as ibound
** reads them) hold every value of its dtype: no code, an alias of its
** operand (the quantized ReLU6 that a requantize to uint8 has already
** clipped: clip(x, 0, 255)) */
static int
clip_whole(const Module *m, NodeId n)
{
	DType dt = (DType)ir_type(m, m->nodes[ir_arg(m, n, 0)].type)->dtype;
	double lo, hi;

	return isint(dt) && dt != DT_BOOL && ibound(dt, attr(m, n, "a_min")->u.f, &lo) && ibound(dt, attr(m, n, "a_max")->u.f, &hi) &&
	       lo == (double)ir_dtype_min(dt) && hi == (double)ir_dtype_max(dt);
}

/* ---------------------------------------------------------------- op lowering */

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

/* ewop: whether call c is an elementwise op that ewise() lowers as it
** is: then its map function *f, context *e and elementwise operands
** *nin (the first ones, broadcast to the result); else 0 (call() lowers
** it, or refuses it).  Sets c's dtypes for float16 as the op copies it. */
static int
ewop(Call *c, Ew *e, MapFn **f, int *nin)
{
	const Module *m = c->m;
	OpId op = m->nodes[c->n].op;

	memset(e, 0, sizeof *e);
	e->op = op;
	e->dt = cdt(c->adt[0]);
	e->odt = cdt(c->odt);
	e->h16 = c->odt == DT_FLOAT16;
	*nin = 1;
	switch (op) {
	case OP_ADD: case OP_SUBTRACT: case OP_MULTIPLY: case OP_DIVIDE: case OP_MAXIMUM: case OP_MINIMUM:
	case OP_MOD: case OP_FLOOR_MOD:
		*nin = 2;
		*f = ew_binary;
		return 1;
	case OP_POWER:
		*nin = 2;
		*f = ew_binary;
		return e->dt != DT_BOOL;
	case OP_EXP: case OP_RSQRT: case OP_SIGMOID: case OP_TANH: case OP_SQRT: case OP_LOG:
		*f = ew_unary;
		return !isint(e->dt);
	case OP_ABS: case OP_NEGATIVE: case OP_FLOOR: case OP_CEIL:     /* integers too */
		*f = ew_unary;
		return e->dt != DT_BOOL;
	case OP_NN_LEAKY_RELU:
		e->lo = attr(m, c->n, "alpha")->u.f;
		if (e->h16)
			e->lo = h_round(e->lo);
		*f = ew_unary;
		return !isint(e->dt);
	case OP_NN_RELU: case OP_CAST:
		*f = ew_unary;
		return 1;
	case OP_CLIP:
		e->lo = attr(m, c->n, "a_min")->u.f;
		e->hi = attr(m, c->n, "a_max")->u.f;
		if (isint(e->dt) && (!ibound(e->dt, e->lo, &e->lo) || !ibound(e->dt, e->hi, &e->hi)))
			return 0;       /* call() refuses it */
		if (e->h16) {
			e->lo = h_round(e->lo);
			e->hi = h_round(e->hi);
		}
		*f = ew_unary;
		return !clip_whole(m, c->n);
	case OP_EQUAL: case OP_NOT_EQUAL: case OP_LESS: case OP_LESS_EQUAL: case OP_GREATER: case OP_GREATER_EQUAL:
		e->lo = op == OP_EQUAL ? 0 : op == OP_NOT_EQUAL ? 1 : op == OP_LESS ? 2 : op == OP_LESS_EQUAL ? 3 : op == OP_GREATER ? 4 : 5;
		/* fall through */
	case OP_LOGICAL_AND: case OP_LOGICAL_OR:
		*nin = 2;
		*f = ew_compare;
		return 1;
	case OP_WHERE:
		if (e->h16)      /* float16 x and y are copied as bits, as the reference copies them */
			c->adt[1] = c->adt[2] = c->odt = DT_INT16;
		*nin = 3;
		*f = ew_where;
		return 1;
	case OP_BITWISE_AND: case OP_BITWISE_OR: case OP_BITWISE_XOR: case OP_LEFT_SHIFT: case OP_RIGHT_SHIFT:
		*nin = 2;
		/* fall through */
	case OP_BITWISE_NOT:
		*f = ew_bitwise;
		return 1;
	case OP_BROADCAST_TO:
		if (e->h16)      /* float16 bits copied, as the reference copies them */
			c->adt[0] = c->odt = DT_INT16;
		*f = ew_copy;
		return 1;
	case OP_ERF:
	case OP_ACOS: case OP_ACOSH: case OP_ASIN: case OP_ASINH: case OP_ATAN: case OP_ATANH: case OP_COS: case OP_COSH: case OP_SIN: case OP_SINH: case OP_TAN:
		*f = ew_more;
		return !isint(e->dt);
	case OP_ISNAN: case OP_ISINF: case OP_ISFINITE:
		*f = ew_more;
		return 1;
	case OP_ROUND: case OP_SIGN: case OP_LOGICAL_NOT:
		*f = ew_more;
		return !(e->dt == DT_BOOL && op != OP_LOGICAL_NOT);
	default:
		return 0;
	}
}

/* ewacc: the accessor of call c's operand j, broadcast to c's result: a
** fused producer (FUSED in c's scope: its own operands' accessors under
** it, built alike) or a read of its buffer */
static Acc
ewacc(G *g, const Call *c, int j)
{
	NodeId a = ir_arg(c->m, c->n, (uint32_t)j);

	if (c->s && c->s->done[a] == FUSED) {
		Fu *fu = ir_arena_alloc(&g->a, sizeof *fu);
		Ew *e = ir_arena_alloc(&g->a, sizeof *e);
		Call *pc = ir_arena_alloc(&g->a, sizeof *pc);
		Acc r = { 0 };
		callargs(g, c->s, a, pc, 0);
		ewop(pc, e, &fu->f, &fu->nin);
		fu->ctx = e;
		for (int k = 0; k < fu->nin; k++)
			fu->in[k] = ewacc(g, pc, k);
		r.dt = pc->odt;
		r.fu = fu;
		return r;
	}
	return bcast(g, c->a[j], c->adt[j], c->ad[j], c->ar[j], c->orank);
}

/* ewise: an elementwise op whose first nin operands broadcast to the result */
static Val
ewise(G *g, Call *c, int nin, MapFn *f, const Ew *e)
{
	Val r = tensorbuf(g, c->ot);
	Acc in[MAXIN], out = dense_acc(r.p, c->odt, c->od, c->orank);

	for (int j = 0; j < nin; j++)
		in[j] = ewacc(g, c, j);
	emit_map(g, c->orank, c->od, &out, nin, in, f, e);
	return r;
}

/* scalar accessor of a fresh constant int32 vector (per-channel parameters) */
static Acc
i32vec(G *g, const int32_t *v, int64_t n, int ax, int orank)
{
	Val cv = { 0 };
	cv.p = constbuf(g, v, (size_t)n * 4);
	return along(cv, DT_INT32, n, ax, orank);
}

/* qaxis: the normalized channel axis attribute of a qnn op over rank r */
static int
qaxis(const Module *m, NodeId n, int r)
{
	int64_t ax = aint(m, n, "axis");
	return (int)(ax < 0 ? ax + r : ax);
}

static Val
quantize(G *g, Call *c, int deq)
{
	Ew e = { .dt = c->adt[0], .odt = c->odt, .h16 = c->odt == DT_FLOAT16 };
	int ax = qaxis(c->m, c->n, c->ar[0]);
	Val r = tensorbuf(g, c->ot);
	Acc in[3], out = dense_acc(r.p, c->odt, c->od, c->orank);

	if (!deq) {
		const char *rnd = astr(c->m, c->n, "rounding");
		e.even = strcmp(rnd, "HALF_TO_EVEN") == 0;
		if (!e.even && strcmp(rnd, "None") != 0)
			refuse(g, c->n, "unknown rounding mode");
	}

	in[0] = ewacc(g, c, 0);
	in[1] = along(c->a[1], DT_FLOAT32, ir_type_numel(c->m, c->at[1]), ax, c->orank);
	in[2] = along(c->a[2], DT_INT32, ir_type_numel(c->m, c->at[2]), ax, c->orank);
	if (deq && c->odt != DT_FLOAT32 && c->odt != DT_FLOAT16)
		refuse(g, c->n, "only float32 and float16 results are supported");
	if (!deq && (!isint(c->odt) || ir_dtype_bytes[c->odt] > 4))
		refuse(g, c->n, "the result must be an integer of at most 32 bits");
	emit_map(g, c->orank, c->od, &out, 3, in, deq ? ew_dequantize : ew_quantize, &e);
	return r;
}

/* rqparams: the Q31 multiplier and shift of each of requantize c's *ns
** input scales (fresh arrays), *skip when the scales are one and equal
** (no multiply), *nearest for TONEAREST; 0 if c is not supported (refused
** unless quiet), as for rounding "HALF_TO_EVEN" (requantize_f32 and
** epi_f32 take it) */
static int
rqparams(G *g, Call *c, int quiet, int32_t **mul, int32_t **sh, int64_t *ns, int *skip, int *nearest)
{
	const Module *m = c->m;
	const char *rnd = astr(m, c->n, "rounding"), *cdt = astr(m, c->n, "compute_dtype"), *why = NULL;
	double os, isc = 0;

	*ns = cnumel(g, c->a[1]);
	if (strcmp(rnd, "None") && strcmp(rnd, "UPWARD") && strcmp(rnd, "TONEAREST"))
		why = "unknown rounding mode";
	else if (strcmp(cdt, "None") && strcmp(cdt, "int64"))
		why = "only compute_dtype \"int64\" is supported";
	else if (*ns < 1 || cnumel(g, c->a[3]) != 1 || !cnum(g, c->a[3], 0, &os) || os == 0 || !isfinite(os))
		why = "the scales must be constants, the output scale one nonzero value";
	else if (!isint(c->adt[0]) || !isint(c->odt) || ir_dtype_bytes[c->odt] > 4)
		why = "integer data and an integer result of at most 32 bits are required";
	if (why) {
		if (!quiet)
			refuse(g, c->n, why);
		return 0;
	}
	*nearest = !strcmp(rnd, "TONEAREST");
	*mul = ir_xcalloc((size_t)*ns, sizeof **mul);
	*sh = ir_xcalloc((size_t)*ns, sizeof **sh);
	for (int64_t k = 0; k < *ns; k++) {
		RefFixed f;
		cnum(g, c->a[1], k, &isc);
		f = fixed((double)(float)isc / (double)(float)os);
		(*mul)[k] = f.mul;
		(*sh)[k] = f.shift;
	}
	*skip = ir_type(m, c->at[1])->n == 0 && (float)isc == (float)os;
	return 1;
}

/* f32mul: QNNPACK's float32 multiplier fl(s * fl(1 / os)) (ref's) */
static float
f32mul(float s, float os)
{
	volatile float inv = 1.0f / os, m = s * inv;

	return m;
}

/* requantize_f32: requantize c with rounding "HALF_TO_EVEN" and
** compute_dtype "float32", one float32 multiplier per input scale */
static Val
requantize_f32(G *g, Call *c, int ax)
{
	Ew e = { .dt = c->adt[0], .odt = c->odt };
	Val r = tensorbuf(g, c->ot), mv = { 0 };
	Acc in[4], out;
	int64_t ns = cnumel(g, c->a[1]);
	double os = 0, s = 0;
	float *m;

	if (strcmp(astr(c->m, c->n, "compute_dtype"), "float32")) {
		refuse(g, c->n, "rounding \"HALF_TO_EVEN\" needs compute_dtype \"float32\"");
		return r;
	}
	if (ns < 1 || cnumel(g, c->a[3]) != 1 || !cnum(g, c->a[3], 0, &os) ||
	    !isint(c->adt[0]) || !isint(c->odt) || ir_dtype_bytes[c->odt] > 4) {
		refuse(g, c->n, "constant scales, integer data and an integer result of at most 32 bits are required");
		return r;
	}
	m = ir_xcalloc((size_t)ns, sizeof *m);
	for (int64_t k = 0; k < ns; k++) {
		cnum(g, c->a[1], k, &s);
		m[k] = f32mul((float)s, (float)os);
		if (!isfinite(m[k])) {
			refuse(g, c->n, "the float32 multiplier is not finite");
			free(m);
			return r;
		}
	}
	mv.p = constbuf(g, m, (size_t)ns * 4);
	free(m);
	out = dense_acc(r.p, c->odt, c->od, c->orank);
	in[0] = ewacc(g, c, 0);
	in[1] = along(c->a[2], DT_INT32, ir_type_numel(c->m, c->at[2]), ax, c->orank);
	in[2] = along(mv, DT_FLOAT32, ns, ax, c->orank);
	in[3] = along(c->a[4], DT_INT32, 1, 0, c->orank);
	emit_map(g, c->orank, c->od, &out, 4, in, ew_requantize_f32, &e);
	return r;
}

static Val
requantize(G *g, Call *c)
{
	const Module *m = c->m;
	Ew e = { .dt = c->adt[0], .odt = c->odt };
	int64_t axis = aint(m, c->n, "axis"), ns;
	int ax = (int)(axis < 0 ? (c->ar[0] > 0 ? c->ar[0] + axis : 0) : axis);
	int32_t *mul, *sh;
	Val r;
	Acc in[5], out;

	if (!strcmp(astr(m, c->n, "rounding"), "HALF_TO_EVEN"))
		return requantize_f32(g, c, ax);
	if (!rqparams(g, c, 0, &mul, &sh, &ns, &e.skip[0], &e.nearest))
		return tensorbuf(g, c->ot);
	r = tensorbuf(g, c->ot);
	out = dense_acc(r.p, c->odt, c->od, c->orank);
	in[0] = ewacc(g, c, 0);
	in[1] = along(c->a[2], DT_INT32, ir_type_numel(m, c->at[2]), ax, c->orank);
	in[2] = i32vec(g, mul, ns, ax, c->orank);
	in[3] = i32vec(g, sh, ns, ax, c->orank);
	in[4] = along(c->a[4], DT_INT32, 1, 0, c->orank);
	emit_map(g, c->orank, c->od, &out, 5, in, ew_requantize, &e);
	free(mul);
	free(sh);
	return r;
}

/* qbinary: qnn.add and qnn.mul with per-tensor constant parameters:
** operands lhs, rhs, lhs_scale, lhs_zp, rhs_scale, rhs_zp, out_scale, out_zp */
static Val
qbinary(G *g, Call *c)
{
	Ew e = { .op = c->m->nodes[c->n].op, .dt = c->adt[0], .odt = c->odt };
	double ls, lz, rs, rz, os, oz;

	if (!cnum(g, c->a[2], 0, &ls) || !cnum(g, c->a[3], 0, &lz) || !cnum(g, c->a[4], 0, &rs) ||
	    !cnum(g, c->a[5], 0, &rz) || !cnum(g, c->a[6], 0, &os) || !cnum(g, c->a[7], 0, &oz) ||
	    cnumel(g, c->a[2]) != 1 || cnumel(g, c->a[4]) != 1 || c->adt[0] != c->adt[1] || !isint(c->adt[0])) {
		refuse(g, c->n, "scales and zero points must be single constants and the operands integers of one dtype");
		return tensorbuf(g, c->ot);
	}
	e.zp[0] = (int32_t)lz;
	e.zp[1] = (int32_t)rz;
	e.zp[2] = (int32_t)oz;
	if (e.op == OP_QNN_MUL) {
		float ns = (float)ls * (float)rs;
		e.fx[0] = fixed((double)ns / (double)(float)os);
		e.skip[0] = ns == (float)os;
	} else {
		double sc[2] = { ls, rs }, zs[2] = { lz, rz };
		for (int k = 0; k < 2; k++) {
			e.fx[k] = fixed((double)(float)sc[k] / (double)(float)os);
			e.skip[k] = (float)sc[k] == (float)os ? (zs[k] == oz ? 2 : 1) : 0;
		}
	}
	return ewise(g, c, 2, ew_qnn, &e);
}

/* alias: the operand's buffer under the result's shape */
static Val
alias(Call *c)
{
	Val v = c->a[0];
	v.cnode = 0;
	return v;
}

/* transpose */
static Val
transpose(G *g, Call *c)
{
	int64_t axes[MAXD], ist[MAXD];
	int na = aints(c->m, c->n, "axes", axes, MAXD);
	Val r = tensorbuf(g, c->ot);
	Acc in, out = dense_acc(r.p, c->odt, c->od, c->orank);

	strides(c->ad[0], c->ar[0], ist);
	memset(&in, 0, sizeof in);
	in.p = c->a[0].p;
	in.dt = c->adt[0];
	for (int k = 0; k < c->orank; k++) {
		int64_t a = na > 0 ? axes[k] : c->orank - 1 - k;
		if (a < 0)
			a += c->orank;
		in.st[k] = ist[a];
	}
	emit_map(g, c->orank, c->od, &out, 1, &in, NULL, NULL);
	return r;
}

/* layout_transform: the permutation its layouts name, as a transpose */
static Val
layout_transform(G *g, Call *c)
{
	int64_t axes[MAXD], ist[MAXD];
	const char *why;
	int n = ir_layout_axes(astr(c->m, c->n, "src_layout"), astr(c->m, c->n, "dst_layout"), axes, MAXD, &why);
	Val r = tensorbuf(g, c->ot);
	Acc in, out = dense_acc(r.p, c->odt, c->od, c->orank);

	if (n != c->orank) {
		refuse(g, c->n, why ? why : "these layouts are not supported");
		return r;
	}
	strides(c->ad[0], c->ar[0], ist);
	memset(&in, 0, sizeof in);
	in.p = c->a[0].p;
	in.dt = c->adt[0];
	for (int k = 0; k < c->orank; k++)
		in.st[k] = ist[axes[k]];
	emit_map(g, c->orank, c->od, &out, 1, &in, NULL, NULL);
	return r;
}

/* einsum: for each output element, the products of the operands'
** elements over the contracted letters (in letter order, the reference's
** order) summed in double, rounded once */
static Val
einsum(G *g, Call *c)
{
	const Module *m = c->m;
	const Type *tt = ir_type(m, c->at[0]);
	Val t = c->a[0], r = tensorbuf(g, c->ot);
	int ranks[IR_EINSUM_MAX], isout[IR_EINSUM_MAX * IR_EINSUM_RANK] = { 0 }, nl = 0;
	int64_t size[IR_EINSUM_MAX * IR_EINSUM_RANK], lst[IR_EINSUM_MAX][IR_EINSUM_MAX * IR_EINSUM_RANK], ost[MAXD];
	int64_t fd[IR_EINSUM_MAX][MAXD];
	DType fdt[IR_EINSUM_MAX];
	LLVMValueRef iv[IR_EINSUM_MAX * IR_EINSUM_RANK], acc, p, ooff = c64(g, 0);
	Loop l[IR_EINSUM_MAX * IR_EINSUM_RANK];
	IrEinsum e;
	const char *why;

	if (isint(c->odt) || t.nf > IR_EINSUM_MAX) {
		refuse(g, c->n, "only float tensors are supported");
		return r;
	}
	for (uint32_t k = 0; k < t.nf; k++) {
		TypeId ft = m->tylist[tt->first + k];
		ranks[k] = tdims(m, ft, fd[k]);
		fdt[k] = tdt(m, ft);
	}
	if (!ir_einsum(astr(m, c->n, "equation"), t.nf, ranks, &e, &why)) {
		refuse(g, c->n, why);
		return r;
	}
	memset(lst, 0, sizeof lst);
	for (uint32_t x = 0; x < e.nlet; x++)
		size[x] = 1;
	for (uint32_t k = 0; k < t.nf; k++) {
		int64_t s = 1;
		for (int d = ranks[k]; d-- > 0;) {
			size[e.in[k][d]] = fd[k][d];
			lst[k][e.in[k][d]] += s;
			s *= fd[k][d];
		}
	}
	strides(c->od, c->orank, ost);
	for (int d = 0; d < e.nout; d++) {
		iv[e.out[d]] = loop_open(g, &l[nl++], 0, c->od[d], 1);
		isout[e.out[d]] = 1;
		ooff = add64(g, ooff, mul64(g, iv[e.out[d]], ost[d]));
	}
	acc = entry_alloca(g, g->f64);
	LLVMBuildStore(g->b, LLVMConstReal(g->f64, 0), acc);
	for (uint32_t x = 0; x < e.nlet; x++)
		if (!isout[x])
			iv[x] = loop_open(g, &l[nl++], 0, size[x], 1);
	p = LLVMConstReal(g->f64, 1);
	for (uint32_t k = 0; k < t.nf; k++) {
		LLVMValueRef off = c64(g, 0);
		for (uint32_t x = 0; x < e.nlet; x++)
			if (lst[k][x])
				off = add64(g, off, mul64(g, iv[x], lst[k][x]));
		p = LLVMBuildFMul(g->b, p, h_cvt(g, ld(g, t.f[k].p, fdt[k], off), fdt[k], DT_FLOAT64), "");
	}
	LLVMBuildStore(g->b, LLVMBuildFAdd(g->b, LLVMBuildLoad2(g->b, g->f64, acc, ""), p, ""), acc);
	while (nl > e.nout)
		loop_close(g, &l[--nl]);
	st(g, r.p, c->odt, ooff, h_cvt(g, LLVMBuildLoad2(g->b, g->f64, acc, ""), DT_FLOAT64, c->odt));
	while (nl > 0)
		loop_close(g, &l[--nl]);
	return r;
}

/* batch_norm: x[0] data, x[1..4] gamma, beta, mean, var along the axis:
** (x - mean) / sqrt(var + epsilon) * gamma + beta in double, rounded once
** (skip[0]: no gamma, skip[1]: no beta) */
static LLVMValueRef
ew_batchnorm(G *g, const void *ctx, LLVMValueRef *x)
{
	const Ew *e = ctx;
	LLVMValueRef d[5], y;

	for (int k = 0; k < 5; k++)
		d[k] = cvt(g, x[k], e->dt, DT_FLOAT64);
	y = LLVMBuildFDiv(g->b, LLVMBuildFSub(g->b, d[0], d[3], ""),
	                  fcall1(g, "llvm.sqrt", LLVMBuildFAdd(g->b, d[4], LLVMConstReal(g->f64, e->lo), ""), DT_FLOAT64), "");
	if (!e->skip[0])
		y = LLVMBuildFMul(g->b, y, d[1], "");
	if (!e->skip[1])
		y = LLVMBuildFAdd(g->b, y, d[2], "");
	return e->h16 ? ho_f64(g, y) : cvt(g, y, DT_FLOAT64, e->dt);
}

static Val
batch_norm(G *g, Call *c)
{
	const Module *m = c->m;
	const Type *tt = ir_type(m, c->ot);
	int ax = (int)aint(m, c->n, "axis");
	Ew e = { .dt = cdt(c->adt[0]), .odt = cdt(c->adt[0]), .h16 = c->adt[0] == DT_FLOAT16 };
	Acc in[5], out;
	Val r = { 0 };

	if (ax < 0)
		ax += c->ar[0];
	e.lo = attr(m, c->n, "epsilon")->u.f;
	e.skip[0] = !aint(m, c->n, "scale");
	e.skip[1] = !aint(m, c->n, "center");
	r.nf = tt->n;
	r.f = ir_arena_alloc(&g->a, tt->n * sizeof *r.f);
	for (uint32_t j = 0; j < tt->n; j++)
		r.f[j] = tensorbuf(g, m->tylist[tt->first + j]);
	if (isint(e.dt)) {
		refuse(g, c->n, "on integer operands it is not supported");
		return r;
	}
	in[0] = dense_acc(c->a[0].p, c->adt[0], c->ad[0], c->ar[0]);
	for (int k = 1; k < 5; k++)
		in[k] = along(c->a[k], c->adt[k], c->ad[k][0], ax, c->ar[0]);
	out = dense_acc(r.f[0].p, c->adt[0], c->ad[0], c->ar[0]);
	emit_map(g, c->ar[0], c->ad[0], &out, 5, in, ew_batchnorm, &e);
	for (uint32_t j = 1; j < 3 && j < tt->n; j++) {
		Acc src = dense_acc(c->a[j + 2].p, c->adt[j + 2], c->ad[j + 2], 1);
		out = dense_acc(r.f[j].p, c->adt[j + 2], c->ad[j + 2], 1);
		emit_map(g, 1, c->ad[j + 2], &out, 1, &src, NULL, NULL);
	}
	return r;
}

/* normgroup: opens the loops over the (r1, r2) elements of one group of a
** normalization at base (l[0], l[1]); returns the element's offset */
static LLVMValueRef
normgroup(G *g, const RefNorm *p, LLVMValueRef base, Loop *l)
{
	LLVMValueRef i = loop_open(g, &l[0], 0, p->r1, 1);

	return add64(g, add64(g, base, mul64(g, i, p->k * p->r2)), loop_open(g, &l[1], 0, p->r2, 1));
}

/* ldd: element idx of buffer p of float dtype dt widened to double (a
** float16 through float, exactly) */
static LLVMValueRef
ldd(G *g, LLVMValueRef p, DType dt, LLVMValueRef idx)
{
	LLVMValueRef v = ld(g, p, dt, idx);

	if (dt == DT_FLOAT16)
		return LLVMBuildFPExt(g->b, h_load(g, v), g->f64, "");
	return cvt(g, v, dt, DT_FLOAT64);
}

/* norm: nn.layer_norm, nn.group_norm and nn.instance_norm as the
** reference (ref.h, RefNorm): per group the mean, then the variance as the
** mean of (x - mean)^2, each summed in double in row-major order; each
** element (x - mean) / sqrt(var + epsilon), times gamma, plus beta, in
** double and rounded once (float16: to float to odd, then to half) */
static Val
norm(G *g, Call *c)
{
	DType dt = c->adt[0];
	Val r = tensorbuf(g, c->ot);
	RefNorm p;
	Loop lo, lk, l[2];
	LLVMValueRef base, sum, var, mean, den, at, x, y, ch, n;

	if (isint(dt)) {
		refuse(g, c->n, "on integer operands it is not supported");
		return r;
	}
	if (!ref_norm_plan(c->m->nodes[c->n].op, ir_attrs(c->m, c->n), c->ad[0], c->ar[0], &p)) {
		refuse(g, c->n, "its operands do not fit it");
		return r;
	}
	n = LLVMConstReal(g->f64, (double)(p.r1 * p.r2));
	sum = entry_alloca(g, g->f64);
	var = entry_alloca(g, g->f64);
	base = mul64(g, loop_open(g, &lo, 0, p.outer, 1), p.r1 * p.r2 * p.k);
	base = add64(g, base, mul64(g, loop_open(g, &lk, 0, p.k, 1), p.r2));
	LLVMBuildStore(g->b, LLVMConstReal(g->f64, 0), sum);
	LLVMBuildStore(g->b, LLVMConstReal(g->f64, 0), var);
	x = ldd(g, c->a[0].p, dt, normgroup(g, &p, base, l));
	LLVMBuildStore(g->b, LLVMBuildFAdd(g->b, LLVMBuildLoad2(g->b, g->f64, sum, ""), x, ""), sum);
	loop_close(g, &l[1]);
	loop_close(g, &l[0]);
	mean = LLVMBuildFDiv(g->b, LLVMBuildLoad2(g->b, g->f64, sum, ""), n, "");
	x = ldd(g, c->a[0].p, dt, normgroup(g, &p, base, l));
	x = LLVMBuildFSub(g->b, x, mean, "");
	LLVMBuildStore(g->b, LLVMBuildFAdd(g->b, LLVMBuildLoad2(g->b, g->f64, var, ""), LLVMBuildFMul(g->b, x, x, ""), ""),
	               var);
	loop_close(g, &l[1]);
	loop_close(g, &l[0]);
	den = LLVMBuildFDiv(g->b, LLVMBuildLoad2(g->b, g->f64, var, ""), n, "");
	den = fcall1(g, "llvm.sqrt", LLVMBuildFAdd(g->b, den, LLVMConstReal(g->f64, p.epsilon), ""), DT_FLOAT64);
	at = normgroup(g, &p, base, l);
	ch = LLVMBuildURem(g->b, LLVMBuildUDiv(g->b, at, c64(g, p.cinner), ""), c64(g, p.channels), "");
	x = ldd(g, c->a[0].p, dt, at);
	y = LLVMBuildFDiv(g->b, LLVMBuildFSub(g->b, x, mean, ""), den, "");
	if (p.scale)
		y = LLVMBuildFMul(g->b, y, ldd(g, c->a[1].p, dt, ch), "");
	if (p.center)
		y = LLVMBuildFAdd(g->b, y, ldd(g, c->a[2].p, dt, ch), "");
	st(g, r.p, dt, at, dt == DT_FLOAT16 ? h_store(g, ho_f64(g, y)) : cvt(g, y, DT_FLOAT64, dt));
	loop_close(g, &l[1]);
	loop_close(g, &l[0]);
	loop_close(g, &lk);
	loop_close(g, &lo);
	return r;
}

/* strided_slice: begin and strides place each axis (ir_slice_index); the
** result type gives its extent, so end is not read */
static Val
slice(G *g, Call *c)
{
	const Module *m = c->m;
	int64_t b[MAXD], s[MAXD], ax[MAXD], ast[MAXD];
	int nb = aints(m, c->n, "begin", b, MAXD);
	int ns = aints(m, c->n, "strides", s, MAXD), na = aints(m, c->n, "axes", ax, MAXD);
	int rank = c->ar[0], size = !strcmp(astr(m, c->n, "slice_mode"), "size");
	Val r = tensorbuf(g, c->ot);
	Acc in, out = dense_acc(r.p, c->odt, c->od, c->orank);

	if (nb < 0)
		nb = 0;
	if (ns < 0)
		ns = 0;
	if (na < 0) {
		for (int k = ns; k < rank; k++)
			s[k] = 1;
		for (int k = nb; k < rank; k++)
			b[k] = s[k] > 0 ? 0 : INT64_MAX;
		na = rank;
		for (int k = 0; k < na; k++)
			ax[k] = k;
	} else {
		for (int k = 0; k < na; k++) {
			if (ax[k] < 0)
				ax[k] += rank;
			if (k >= ns)
				s[k] = 1;
		}
	}
	strides(c->ad[0], rank, ast);
	in = dense_acc(c->a[0].p, c->adt[0], c->ad[0], rank);
	for (int k = 0; k < na && k < nb && ax[k] >= 0 && ax[k] < rank; k++) {
		int64_t stp = size ? 1 : s[k], n = c->ad[0][ax[k]];
		if (stp == 0)
			stp = 1;
		if (c->od[ax[k]] > 0) {
			in.base += ir_slice_index(b[k], n, stp) * ast[ax[k]];
			in.st[ax[k]] = stp * ast[ax[k]];
		}
	}
	emit_map(g, c->orank, c->od, &out, 1, &in, NULL, NULL);
	return r;
}

/* take, gather: the elements of data that indices name, read as
** ref_index_plan says; an index out of range (take's "fast", gather)
** sets bit 2 of the entry's return value and reads element 0 instead */
static Val
take(G *g, Call *c)
{
	RefIndex p;
	Val r = tensorbuf(g, c->ot);
	Loop l[MAXD];
	int64_t ost[MAXD], numel = 1;
	LLVMValueRef ioff = c64(g, 0), doff = c64(g, 0), ooff = c64(g, 0), j, n, bad, e0;

	if (!ref_index_plan(c->m, c->m->nodes[c->n].op, ir_attrs(c->m, c->n), c->ad[0], c->ar[0], c->ad[1],
	                    c->ar[1], &p) || p.rank != c->orank) {
		refuse(g, c->n, "the operands do not fit");
		return r;
	}
	for (int k = 0; k < c->orank; k++)
		numel *= c->od[k];
	if (numel == 0)
		return r;
	if (p.n == 0) {
		refuse(g, c->n, "it takes from an empty axis");
		return r;
	}
	n = c64(g, p.n);
	strides(c->od, c->orank, ost);
	for (int k = 0; k < c->orank; k++) {
		LLVMValueRef iv = loop_open(g, &l[k], 0, c->od[k], 1);
		ioff = add64(g, ioff, mul64(g, iv, p.ist[k]));
		doff = add64(g, doff, mul64(g, iv, p.dst[k]));
		ooff = add64(g, ooff, mul64(g, iv, ost[k]));
	}
	j = ld(g, c->a[1].p, c->adt[1], ioff);
	if (c->adt[1] != DT_INT64)
		j = LLVMBuildSExt(g->b, j, g->i64, "");
	switch (p.mode) {
	case REF_IX_CLIP:
		j = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, j, c64(g, 0), ""), c64(g, 0), j, "");
		j = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntSGT, j, c64(g, p.n - 1), ""), c64(g, p.n - 1), j, "");
		break;
	case REF_IX_WRAP:
		j = LLVMBuildSRem(g->b, LLVMBuildNSWAdd(g->b, LLVMBuildSRem(g->b, j, n, ""), n, ""), n, "");
		break;
	case REF_IX_NEG:
		j = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, j, c64(g, 0), ""), LLVMBuildAdd(g->b, j, n, ""), j, "");
		/* fallthrough */
	default:
		/* unsigned: a negative index is out of range too */
		bad = LLVMBuildICmp(g->b, LLVMIntUGE, j, n, "");
		e0 = LLVMBuildLoad2(g->b, g->i32, g->err, "");
		LLVMBuildStore(g->b, LLVMBuildOr(g->b, e0, LLVMBuildShl(g->b, LLVMBuildZExt(g->b, bad, g->i32, ""), c32(g, 1), ""), ""),
		               g->err);
		j = LLVMBuildSelect(g->b, bad, c64(g, 0), j, "");
		break;
	}
	doff = add64(g, doff, LLVMBuildNSWMul(g->b, j, c64(g, p.astride), ""));
	st(g, r.p, c->odt, ooff, ld(g, c->a[0].p, c->adt[0], doff));
	for (int k = c->orank - 1; k >= 0; k--)
		loop_close(g, &l[k]);
	return r;
}

/* concatenate: operand 0 is a tuple */
static Val
concat(G *g, Call *c)
{
	const Module *m = c->m;
	int64_t axis = aint(m, c->n, "axis"), at = 0, ost[MAXD];
	Val t = c->a[0], r = tensorbuf(g, c->ot);
	TypeId tt = c->at[0];

	if (axis < 0)
		axis += c->orank;
	strides(c->od, c->orank, ost);
	for (uint32_t j = 0; j < t.nf; j++) {
		TypeId ft = m->tylist[ir_type(m, tt)->first + j];
		int64_t fd[MAXD];
		int fr = tdims(m, ft, fd);
		Acc in = dense_acc(t.f[j].p, tdt(m, ft), fd, fr), out = dense_acc(r.p, c->odt, c->od, c->orank);
		out.base = at * ost[axis];
		emit_map(g, fr, fd, &out, 1, &in, NULL, NULL);
		at += fd[axis];
	}
	return r;
}

/* qconcat: qnn.concatenate(data, input_scales, input_zero_points,
** output_scale, output_zero_point): each input whose scale and zero point
** are not the output's is requantized to them (per tensor, UPWARD, in its
** own dtype, as ref and TVM's canonicalization do), then concatenated */
static Val
qconcat(G *g, Call *c)
{
	const Module *m = c->m;
	Val t = c->a[0], ss = c->a[1], zs = c->a[2], q = t;
	const Type *tt = ir_type(m, c->at[0]);
	double os, oz;
	Call cc = *c;

	if (cnumel(g, c->a[3]) != 1 || cnumel(g, c->a[4]) != 1 || !cnum(g, c->a[3], 0, &os) ||
	    !cnum(g, c->a[4], 0, &oz) || ss.nf != t.nf || zs.nf != t.nf) {
		refuse(g, c->n, "the output scale and zero point must be single constants");
		return tensorbuf(g, c->ot);
	}
	q.f = ir_arena_alloc(&g->a, (t.nf ? t.nf : 1) * sizeof *q.f);
	for (uint32_t j = 0; j < t.nf; j++) {
		TypeId ft = m->tylist[tt->first + j];
		int64_t fd[MAXD];
		int fr = tdims(m, ft, fd);
		double s, z;
		Ew e = { .dt = tdt(m, ft), .odt = tdt(m, ft) };
		RefFixed f;
		int32_t iz, mul, sh, ozi = (int32_t)oz;
		Acc in[5], out;

		if (cnumel(g, ss.f[j]) != 1 || cnumel(g, zs.f[j]) != 1 || !cnum(g, ss.f[j], 0, &s) ||
		    !cnum(g, zs.f[j], 0, &z)) {
			refuse(g, c->n, "the input scales and zero points must be single constants");
			return tensorbuf(g, c->ot);
		}
		if ((float)s == (float)os && z == oz) {
			q.f[j] = t.f[j];
			continue;
		}
		f = fixed((double)(float)s / (double)(float)os);
		iz = (int32_t)z;
		mul = f.mul;
		sh = f.shift;
		e.skip[0] = (float)s == (float)os;
		q.f[j] = tensorbuf(g, ft);
		out = dense_acc(q.f[j].p, e.odt, fd, fr);
		in[0] = dense_acc(t.f[j].p, e.dt, fd, fr);
		in[1] = i32vec(g, &iz, 1, 0, fr);
		in[2] = i32vec(g, &mul, 1, 0, fr);
		in[3] = i32vec(g, &sh, 1, 0, fr);
		in[4] = i32vec(g, &ozi, 1, 0, fr);
		emit_map(g, fr, fd, &out, 5, in, ew_requantize, &e);
	}
	cc.a[0] = q;
	return concat(g, &cc);
}

/* split: a tuple of slices along axis */
static Val
split(G *g, Call *c)
{
	const Module *m = c->m;
	const Type *tt = ir_type(m, c->ot);
	int64_t axis = aint(m, c->n, "axis"), at = 0, ist[MAXD];
	Val r = { 0 };

	if (axis < 0)
		axis += c->ar[0];
	strides(c->ad[0], c->ar[0], ist);
	r.nf = tt->n;
	r.f = ir_arena_alloc(&g->a, tt->n * sizeof *r.f);
	for (uint32_t j = 0; j < tt->n; j++) {
		TypeId ft = m->tylist[tt->first + j];
		int64_t fd[MAXD];
		int fr = tdims(m, ft, fd);
		Acc in = dense_acc(c->a[0].p, c->adt[0], c->ad[0], c->ar[0]), out;
		r.f[j] = tensorbuf(g, ft);
		out = dense_acc(r.f[j].p, tdt(m, ft), fd, fr);
		in.base = at * ist[axis];
		emit_map(g, fr, fd, &out, 1, &in, NULL, NULL);
		at += fd[axis];
	}
	return r;
}

/* pad: nn.pad(data, pad_value) in constant, edge or reflect mode, one
** gather loop: per dim, the source index is clamped or reflected, or the
** element is the pad value */
static Val
pad(G *g, Call *c)
{
	const Module *m = c->m;
	const AttrVal *pw = attr(m, c->n, "pad_width");
	const char *mode = astr(m, c->n, "pad_mode");
	int md = !strcmp(mode, "constant") ? 0 : !strcmp(mode, "edge") ? 1 : !strcmp(mode, "reflect") ? 2 : -1;
	int64_t before[MAXD] = { 0 }, ist[MAXD], ost[MAXD];
	Val r = tensorbuf(g, c->ot);
	Loop l[MAXD];
	LLVMValueRef in = LLVMConstInt(g->i1, 1, 0), off = c64(g, 0), ooff = c64(g, 0), v, fill;
	int rank = c->orank;

	if (md < 0 || !pw || pw->kind != AV_ARRAY) {
		refuse(g, c->n, "unknown pad mode");
		return r;
	}
	for (int k = 0; k < rank && (uint32_t)k < pw->n; k++) {
		const AttrVal *p = &m->attrs[pw->first + (uint32_t)k];
		if (p->kind == AV_ARRAY && p->n == 2)
			before[k] = m->attrs[p->first].u.i;
	}
	if (ir_type_numel(m, c->ot) == 0)
		return r;
	strides(c->ad[0], rank, ist);
	strides(c->od, rank, ost);
	fill = h_cvt(g, ld(g, c->a[1].p, c->adt[1], c64(g, 0)), c->adt[1], c->odt);
	for (int k = 0; k < rank; k++) {
		LLVMValueRef iv = loop_open(g, &l[k], 0, c->od[k], 1), s;
		int64_t n = c->ad[0][k];
		ooff = add64(g, ooff, mul64(g, iv, ost[k]));
		s = LLVMBuildNSWSub(g->b, iv, c64(g, before[k]), "");
		if (md == 0) {
			LLVMValueRef ok = LLVMBuildAnd(g->b, LLVMBuildICmp(g->b, LLVMIntSGE, s, c64(g, 0), ""),
			                               LLVMBuildICmp(g->b, LLVMIntSLT, s, c64(g, n), ""), "");
			in = LLVMBuildAnd(g->b, in, ok, "");
			s = LLVMBuildSelect(g->b, ok, s, c64(g, 0), "");
		} else if (md == 1) {
			s = iminmax(g, iminmax(g, s, c64(g, 0), 1, 1), c64(g, n - 1), 1, 0);
		} else {
			LLVMValueRef neg = LLVMBuildICmp(g->b, LLVMIntSLT, s, c64(g, 0), "");
			s = LLVMBuildSelect(g->b, neg, LLVMBuildNSWNeg(g->b, s, ""), s, "");
			s = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntSGE, s, c64(g, n), ""),
			                    LLVMBuildNSWSub(g->b, c64(g, 2 * (n - 1)), s, ""), s, "");
		}
		off = add64(g, off, mul64(g, s, ist[k]));
	}
	v = ld(g, c->a[0].p, c->adt[0], off);
	st(g, r.p, c->odt, ooff, md ? v : LLVMBuildSelect(g->b, in, v, fill, ""));
	for (int k = rank - 1; k >= 0; k--)
		loop_close(g, &l[k]);
	return r;
}

/* castto: v of dtype from (float16 data widened to float) converted to
** dtype to as cast converts it; a float16 result is its bits (i16) */
static LLVMValueRef
castto(G *g, LLVMValueRef v, DType from, DType to)
{
	if (from == DT_FLOAT16)
		from = DT_FLOAT32;
	if (to != DT_FLOAT16)
		return cvt(g, v, from, to);
	return h_store(g, from == DT_FLOAT64 ? ho_f64(g, v) : cvt(g, v, from, DT_FLOAT32));
}

/* resize: image.resize2d through the taps of ref_resize_taps() (ref.h),
** held in constant tables: per output row and column, the input offsets
** of its taps (index times stride) and their float32 weights.  Nearest
** converts its one tap as cast does; linear and cubic read each tap as
** float32, sum each row's taps along W, then the rows by H's weights,
** in the reference's order (cubic from +0), and cast the sum */
static Val
resize(G *g, Call *c)
{
	RefResize p;
	const char *bad = ref_resize_mode(c->m, ir_attrs(c->m, c->n), &p);
	DType dt = c->adt[0];
	Val r = tensorbuf(g, c->ot);
	int64_t xst[4], ost[4], xn = 1, on = 1;
	LLVMValueRef koff[2], kw[2], iv[4], base = c64(g, 0), ooff = c64(g, 0), oy[4], ox[4], wy[4], wx[4], v = NULL;
	Loop l[4];
	char why[160];

	if (bad) {
		snprintf(why, sizeof why, "%s \"%s\" is not supported", bad, astr(c->m, c->n, bad));
		refuse(g, c->n, why);
		return r;
	}
	if (p.method != REF_RS_NEAREST && isint(dt)) {
		refuse(g, c->n, "only nearest_neighbor resizes integers");
		return r;
	}
	for (int k = 0; k < 4; k++) {
		xn *= c->ad[0][k];
		on *= c->od[k];
	}
	if (!on)
		return r;
	if (!xn) {
		refuse(g, c->n, "an empty image cannot be resized");
		return r;
	}
	strides(c->ad[0], 4, xst);
	strides(c->od, 4, ost);
	for (int a = 0; a < 2; a++) {
		int ax = p.pos[2 + a];
		int64_t cnt = c->od[ax] * p.taps, *off = ir_xmalloc((size_t)cnt * sizeof *off);
		float *w = ir_xmalloc((size_t)cnt * sizeof *w);
		ref_resize_taps(&p, c->ad[0][ax], c->od[ax], off, w);
		for (int64_t k = 0; k < cnt; k++)
			off[k] *= xst[ax];
		koff[a] = constbuf(g, off, (size_t)cnt * sizeof *off);
		kw[a] = p.method == REF_RS_NEAREST ? NULL : constbuf(g, w, (size_t)cnt * sizeof *w);
		free(off);
		free(w);
	}
	for (int k = 0; k < 4; k++) {
		iv[k] = loop_open(g, &l[k], 0, c->od[k], 1);
		ooff = add64(g, ooff, mul64(g, iv[k], ost[k]));
	}
	base = add64(g, mul64(g, iv[p.pos[0]], xst[p.pos[0]]), mul64(g, iv[p.pos[1]], xst[p.pos[1]]));
	for (int t = 0; t < p.taps; t++) {
		LLVMValueRef ty = add64(g, mul64(g, iv[p.pos[2]], p.taps), c64(g, t));
		LLVMValueRef tx = add64(g, mul64(g, iv[p.pos[3]], p.taps), c64(g, t));
		oy[t] = add64(g, base, ld(g, koff[0], DT_INT64, ty));
		ox[t] = ld(g, koff[1], DT_INT64, tx);
		if (kw[0]) {
			wy[t] = ld(g, kw[0], DT_FLOAT32, ty);
			wx[t] = ld(g, kw[1], DT_FLOAT32, tx);
		}
	}
	if (p.method == REF_RS_NEAREST) {
		v = ld(g, c->a[0].p, dt, add64(g, oy[0], ox[0]));
		st(g, r.p, c->odt, ooff, castto(g, dt == DT_FLOAT16 ? h_load(g, v) : v, dt, c->odt));
	} else {
		LLVMValueRef zero = LLVMConstReal(g->f32, 0.0), row[4];
		for (int j = 0; j < p.taps; j++) {
			row[j] = p.method == REF_RS_CUBIC ? zero : NULL;
			for (int i = 0; i < p.taps; i++) {
				LLVMValueRef e = ld(g, c->a[0].p, dt, add64(g, oy[j], ox[i]));
				e = dt == DT_FLOAT16 ? h_load(g, e) : cvt(g, e, dt, DT_FLOAT32);
				e = LLVMBuildFMul(g->b, e, wx[i], "");
				row[j] = row[j] ? LLVMBuildFAdd(g->b, row[j], e, "") : e;
			}
			row[j] = LLVMBuildFMul(g->b, row[j], wy[j], "");
			v = j || p.method == REF_RS_CUBIC ? LLVMBuildFAdd(g->b, v ? v : zero, row[j], "") : row[j];
		}
		st(g, r.p, c->odt, ooff, castto(g, v, DT_FLOAT32, c->odt));
	}
	for (int k = 3; k >= 0; k--)
		loop_close(g, &l[k]);
	return r;
}

/* bias_add: an add of a vector along axis */
static Val
bias_add(G *g, Call *c)
{
	Ew e = { .op = OP_ADD, .dt = cdt(c->odt) };
	int64_t ax = aint(c->m, c->n, "axis");
	Val r = tensorbuf(g, c->ot);
	Acc in[2], out = dense_acc(r.p, c->odt, c->od, c->orank);

	if (ax < 0)
		ax += c->orank;
	in[0] = dense_acc(c->a[0].p, c->adt[0], c->ad[0], c->ar[0]);
	in[1] = along(c->a[1], c->adt[1], c->ad[1][0], (int)ax, c->orank);
	emit_map(g, c->orank, c->od, &out, 2, in, ew_binary, &e);
	return r;
}

/* ---------------------------------------------------------------- reductions */

/* accdt: the accumulator dtype of a sum over dt (float16 sums in float,
** rounded to half at each step) */
static DType accdt(DType dt) { return isint(dt) ? DT_INT64 : cdt(dt); }

/* wrapsum: an int64 sum of dt values wrapped to dt and widened back: what
** summing in dt gives (TVM's tvm::sum, as ref does) */
static LLVMValueRef
wrapsum(G *g, LLVMValueRef v, DType dt)
{
	return isint(dt) && ir_dtype_bytes[dt] < 8 ? cvt(g, cvt(g, v, DT_INT64, dt), dt, DT_INT64) : v;
}

/* mean_over: out (kept dims, row-major) = the mean of x over the dims
** marked in red; integers sum in their dtype (wrapping) and divide
** truncating; floats divide by the count in their dtype (nothing by 1) */
static void
mean_over(G *g, Val x, DType dt, const int64_t *d, int r, const int *red, LLVMValueRef op, DType odt)
{
	int64_t ist[MAXD], cnt = 1, kst[MAXD], ks = 1;
	Loop l[MAXD];
	LLVMValueRef off = c64(g, 0), ooff = c64(g, 0), acc, v;
	DType adt = accdt(dt);
	LLVMTypeRef at = elty(g, adt);
	int nl = 0;

	strides(d, r, ist);
	for (int k = r - 1; k >= 0; k--) {
		if (red[k])
			cnt *= d[k];
		else {
			kst[k] = ks;
			ks *= d[k];
		}
	}
	acc = entry_alloca(g, at);
	for (int k = 0; k < r; k++)
		if (!red[k]) {
			LLVMValueRef iv = loop_open(g, &l[nl++], 0, d[k], 1);
			off = add64(g, off, mul64(g, iv, ist[k]));
			ooff = add64(g, ooff, mul64(g, iv, kst[k]));
		}
	LLVMBuildStore(g->b, LLVMConstNull(at), acc);
	{
		int nk = nl;
		for (int k = 0; k < r; k++)
			if (red[k]) {
				LLVMValueRef iv = loop_open(g, &l[nl++], 0, d[k], 1);
				off = add64(g, off, mul64(g, iv, ist[k]));
			}
		v = h_cvt(g, ld(g, x.p, dt, off), dt, adt);
		v = isint(dt) ? LLVMBuildAdd(g->b, LLVMBuildLoad2(g->b, at, acc, ""), v, "")
		              : LLVMBuildFAdd(g->b, LLVMBuildLoad2(g->b, at, acc, ""), v, "");
		LLVMBuildStore(g->b, dt == DT_FLOAT16 ? h_rnd(g, v) : v, acc);
		while (nl > nk)
			loop_close(g, &l[--nl]);
	}
	v = wrapsum(g, LLVMBuildLoad2(g->b, at, acc, ""), dt);
	v = isint(dt) ? LLVMBuildSDiv(g->b, v, c64(g, cnt ? cnt : 1), "")
	              : LLVMBuildFDiv(g->b, v, LLVMConstReal(at, dt == DT_FLOAT16 ? h_round((double)(cnt ? cnt : 1))
	                                                                          : (double)(cnt ? cnt : 1)), "");
	st(g, op, odt, ooff, h_cvt(g, v, adt, odt));
	while (nl > 0)
		loop_close(g, &l[--nl]);
}

static Val
mean(G *g, Call *c)
{
	int64_t axes[MAXD];
	int na = aints(c->m, c->n, "axis", axes, MAXD), red[MAXD] = { 0 }, ex = (int)aint(c->m, c->n, "exclude");
	Val r = tensorbuf(g, c->ot);

	for (int k = 0; k < c->ar[0]; k++)
		red[k] = na < 0;
	for (int k = 0; k < na; k++)
		red[axes[k] < 0 ? axes[k] + c->ar[0] : axes[k]] = 1;
	if (ex && na >= 0)      /* no axis: all of them, as TVM */
		for (int k = 0; k < c->ar[0]; k++)
			red[k] = !red[k];
	mean_over(g, c->a[0], c->adt[0], c->ad[0], c->ar[0], red, r.p, c->odt);
	return r;
}

/* reduce: sum, prod, max, min, argmax, argmin as the reference: sums
** and products in the data's dtype (integers wrapping; float16 in float,
** rounded to half at each step) in row-major order, max and min
** propagating NaN, an arg the row-major index among the reduced elements
** of the first (select_last_index: last) extreme */
static Val
reduce(G *g, Call *c)
{
	int64_t axes[MAXD], ist[MAXD], kst[MAXD], ks = 1;
	int na = aints(c->m, c->n, "axis", axes, MAXD), red[MAXD] = { 0 }, ex = (int)aint(c->m, c->n, "exclude");
	int op = c->m->nodes[c->n].op, r = c->ar[0], nl = 0, nk;
	int arg = op == OP_ARGMAX || op == OP_ARGMIN, max = op == OP_MAX || op == OP_ARGMAX;
	int last = arg && aint(c->m, c->n, "select_last_index");
	DType dt = cdt(c->adt[0]);
	LLVMTypeRef t = elty(g, dt);
	Val out = tensorbuf(g, c->ot);
	Loop l[MAXD];
	LLVMValueRef off = c64(g, 0), ooff = c64(g, 0), acc, best, j, v, cur, take, init;

	if (dt == DT_BOOL) {
		refuse(g, c->n, "on bool tensors it is not supported");
		return out;
	}
	for (int k = 0; k < r; k++)
		red[k] = na < 0;
	for (int k = 0; k < na; k++)
		red[axes[k] < 0 ? axes[k] + r : axes[k]] = 1;
	if (ex && na >= 0)
		for (int k = 0; k < r; k++)
			red[k] = !red[k];
	strides(c->ad[0], r, ist);
	for (int k = r - 1; k >= 0; k--)
		if (!red[k]) {
			kst[k] = ks;
			ks *= c->ad[0][k];
		}
	if (op == OP_SUM || op == OP_PROD)
		init = isint(dt) ? LLVMConstInt(t, op == OP_PROD, 0) : LLVMConstReal(t, op == OP_PROD);
	else if (!isint(dt))
		init = LLVMConstReal(t, max ? -INFINITY : INFINITY);
	else
		init = LLVMConstInt(t, (unsigned long long)(max ? ir_dtype_min(dt) : ir_dtype_max(dt)), 1);
	acc = entry_alloca(g, t);
	best = entry_alloca(g, g->i64);
	j = entry_alloca(g, g->i64);
	for (int k = 0; k < r; k++)
		if (!red[k]) {
			LLVMValueRef iv = loop_open(g, &l[nl++], 0, c->ad[0][k], 1);
			off = add64(g, off, mul64(g, iv, ist[k]));
			ooff = add64(g, ooff, mul64(g, iv, kst[k]));
		}
	LLVMBuildStore(g->b, init, acc);
	LLVMBuildStore(g->b, c64(g, 0), best);
	LLVMBuildStore(g->b, c64(g, 0), j);
	nk = nl;
	for (int k = 0; k < r; k++)
		if (red[k]) {
			LLVMValueRef iv = loop_open(g, &l[nl++], 0, c->ad[0][k], 1);
			off = add64(g, off, mul64(g, iv, ist[k]));
		}
	v = h_cvt(g, ld(g, c->a[0].p, c->adt[0], off), c->adt[0], dt);
	cur = LLVMBuildLoad2(g->b, t, acc, "");
	if (op == OP_SUM || op == OP_PROD) {
		if (isint(dt))
			v = op == OP_SUM ? LLVMBuildAdd(g->b, cur, v, "") : LLVMBuildMul(g->b, cur, v, "");
		else
			v = op == OP_SUM ? LLVMBuildFAdd(g->b, cur, v, "") : LLVMBuildFMul(g->b, cur, v, "");
		if (c->adt[0] == DT_FLOAT16)
			v = h_rnd(g, v);
	} else {
		LLVMValueRef jv = LLVMBuildLoad2(g->b, g->i64, j, "");
		if (isint(dt)) {
			int sgn = ir_dtype_kind[dt] == 'i';
			take = LLVMBuildICmp(g->b, max ? (sgn ? LLVMIntSGT : LLVMIntUGT) : (sgn ? LLVMIntSLT : LLVMIntULT),
			                     v, cur, "");
			if (last)
				take = LLVMBuildOr(g->b, take, LLVMBuildICmp(g->b, LLVMIntEQ, v, cur, ""), "");
		} else {
			take = LLVMBuildFCmp(g->b, max ? LLVMRealOGT : LLVMRealOLT, v, cur, "");
			if (last)
				take = LLVMBuildOr(g->b, take, LLVMBuildFCmp(g->b, LLVMRealOEQ, v, cur, ""), "");
			take = LLVMBuildOr(g->b, take, LLVMBuildFCmp(g->b, LLVMRealUNO, v, v, ""), "");
			take = LLVMBuildAnd(g->b, take, LLVMBuildFCmp(g->b, LLVMRealORD, cur, cur, ""), "");
		}
		if (arg) {
			/* the first element of each reduction is taken whatever it is */
			take = LLVMBuildOr(g->b, take, LLVMBuildICmp(g->b, LLVMIntEQ, jv, c64(g, 0), ""), "");
			LLVMBuildStore(g->b, LLVMBuildSelect(g->b, take, jv, LLVMBuildLoad2(g->b, g->i64, best, ""), ""), best);
			LLVMBuildStore(g->b, add64(g, jv, c64(g, 1)), j);
		}
		v = LLVMBuildSelect(g->b, take, v, cur, "");
	}
	LLVMBuildStore(g->b, v, acc);
	while (nl > nk)
		loop_close(g, &l[--nl]);
	if (arg)
		st(g, out.p, c->odt, ooff, LLVMBuildTrunc(g->b, LLVMBuildLoad2(g->b, g->i64, best, ""), g->i32, ""));
	else
		st(g, out.p, c->odt, ooff, h_cvt(g, LLVMBuildLoad2(g->b, t, acc, ""), dt, c->odt));
	while (nl > 0)
		loop_close(g, &l[--nl]);
	return out;
}

static Val
global_avg_pool(G *g, Call *c)
{
	int pos[4], red[MAXD] = { 0 };
	Val r = tensorbuf(g, c->ot);

	if (c->ar[0] != 4 || !ir_layout_perm(astr(c->m, c->n, "layout"), "NCHW", pos)) {
		refuse(g, c->n, "only NCHW-like layouts of rank 4 are supported");
		return r;
	}
	red[pos[2]] = red[pos[3]] = 1;
	mean_over(g, c->a[0], c->adt[0], c->ad[0], 4, red, r.p, c->odt);
	return r;
}

/* softmax over axis: max, sum of exp(x - max), divide, in the dtype
** (float16 as the reference: x - max, its exp, each partial sum and each
** quotient rounded to half, the exp stored as half) */
static Val
softmax(G *g, Call *c)
{
	int64_t ax = aint(c->m, c->n, "axis"), outer = 1, n, in = 1;
	Val r = tensorbuf(g, c->ot);
	Loop lo, li, lk;
	LLVMValueRef base, mx, sum, v;
	DType dt = c->odt, ct = cdt(dt);
	LLVMTypeRef t = elty(g, ct);
	int h = dt == DT_FLOAT16;

	if (isint(c->odt)) {
		refuse(g, c->n, "only float tensors are supported");
		return r;
	}
	if (ax < 0)
		ax += c->orank;
	if (ax < 0 || ax >= c->orank) {
		refuse(g, c->n, "the axis is out of range");
		return r;
	}
	n = c->od[ax];
	for (int k = 0; k < ax; k++)
		outer *= c->od[k];
	for (int k = (int)ax + 1; k < c->orank; k++)
		in *= c->od[k];
	mx = entry_alloca(g, t);
	sum = entry_alloca(g, t);
	base = mul64(g, loop_open(g, &lo, 0, outer, 1), n * in);
	base = add64(g, base, loop_open(g, &li, 0, in, 1));
	LLVMBuildStore(g->b, LLVMConstReal(t, -INFINITY), mx);
	LLVMBuildStore(g->b, LLVMConstReal(t, 0), sum);
	v = ld(g, c->a[0].p, dt, add64(g, base, mul64(g, loop_open(g, &lk, 0, n, 1), in)));
	LLVMBuildStore(g->b, fminmax(g, h_cvt(g, v, dt, ct), LLVMBuildLoad2(g->b, t, mx, ""), 1), mx);
	loop_close(g, &lk);
	{
		LLVMValueRef i = mul64(g, loop_open(g, &lk, 0, n, 1), in), e;
		e = LLVMBuildFSub(g->b, h_cvt(g, ld(g, c->a[0].p, dt, add64(g, base, i)), dt, ct),
		                  LLVMBuildLoad2(g->b, t, mx, ""), "");
		e = fcall1(g, "llvm.exp", h ? h_rnd(g, e) : e, ct);
		e = h ? h_rnd(g, e) : e;
		st(g, r.p, dt, add64(g, base, i), h_cvt(g, e, ct, dt));
		e = LLVMBuildFAdd(g->b, LLVMBuildLoad2(g->b, t, sum, ""), e, "");
		LLVMBuildStore(g->b, h ? h_rnd(g, e) : e, sum);
		loop_close(g, &lk);
	}
	{
		LLVMValueRef i = add64(g, base, mul64(g, loop_open(g, &lk, 0, n, 1), in));
		v = LLVMBuildFDiv(g->b, h_cvt(g, ld(g, r.p, dt, i), dt, ct), LLVMBuildLoad2(g->b, t, sum, ""), "");
		st(g, r.p, dt, i, h_cvt(g, v, ct, dt));
		loop_close(g, &lk);
	}
	loop_close(g, &li);
	loop_close(g, &lo);
	return r;
}

/* scan: cumsum and cumprod as the reference: each element cast to the
** result's dtype, accumulated in order along the axis (axis None: the
** flattened data), integers wrapping, floats rounded at each step
** (float16 in float, rounded to half) */
static Val
scan(G *g, Call *c)
{
	const AttrVal *av = attr(c->m, c->n, "axis");
	int64_t outer = 1, len = 1, inner = 1, axis;
	int prod = c->m->nodes[c->n].op == OP_CUMPROD, fl = !isint(c->odt), h = c->odt == DT_FLOAT16;
	Val r = tensorbuf(g, c->ot);
	LLVMTypeRef t = elty(g, cdt(c->odt));
	Loop lo, li, lk;
	LLVMValueRef base, acc, k, at, x, a, s;

	if (c->odt == DT_BOOL) {
		refuse(g, c->n, "into bool is not supported");
		return r;
	}
	for (int q = 0; q < c->ar[0]; q++)
		len *= c->ad[0][q];
	if (av && av->kind == AV_INT) {
		axis = av->u.i < 0 ? av->u.i + c->ar[0] : av->u.i;
		len = c->ad[0][axis];
		for (int q = 0; q < axis; q++)
			outer *= c->ad[0][q];
		for (int q = (int)axis + 1; q < c->ar[0]; q++)
			inner *= c->ad[0][q];
	}
	acc = entry_alloca(g, t);
	base = mul64(g, loop_open(g, &lo, 0, outer, 1), len * inner);
	base = add64(g, base, loop_open(g, &li, 0, inner, 1));
	LLVMBuildStore(g->b, fl ? LLVMConstReal(t, prod) : LLVMConstInt(t, (unsigned long long)prod, 0), acc);
	k = loop_open(g, &lk, 0, len, 1);
	at = add64(g, base, mul64(g, k, inner));
	x = h_opnd(g, ld(g, c->a[0].p, c->adt[0], at), c->adt[0], c->odt);
	a = LLVMBuildLoad2(g->b, t, acc, "");
	s = fl ? (prod ? LLVMBuildFMul(g->b, a, x, "") : LLVMBuildFAdd(g->b, a, x, ""))
	       : (prod ? LLVMBuildMul(g->b, a, x, "") : LLVMBuildAdd(g->b, a, x, ""));
	if (h)
		s = h_rnd(g, s);
	if (aint(c->m, c->n, "exclusive")) {
		st(g, r.p, c->odt, at, h_cvt(g, a, cdt(c->odt), c->odt));
	} else {
		/* inclusive: the first element as it is */
		s = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, k, c64(g, 0), ""), x, s, "");
		st(g, r.p, c->odt, at, h_cvt(g, s, cdt(c->odt), c->odt));
	}
	LLVMBuildStore(g->b, s, acc);
	loop_close(g, &lk);
	loop_close(g, &li);
	loop_close(g, &lo);
	return r;
}

/* maxpool_rows: max pooling of integer, float32 or float64 data in
** two passes per output row, which LLVM vectorizes: the window's rows
** that exist, element by element, into a row buffer t (held at the
** dtype's least value, max's identity, in its padding columns and past
** them), then each output the largest of its window's columns of t.
** Padding is skipped (as the identity), as pool2d skips it; a window
** with nothing in it gives the least value, as pool2d does.  Floats
** compare as pool2d's fminmax: NaN never wins, so the order of the
** comparisons changes at most the sign of a zero. */
static void
maxpool_rows(G *g, Call *c, const int *pos, const int64_t *ps, const int64_t *sd, const int64_t *dl, const int64_t *pd,
             const int64_t *ist, const int64_t *ost, Val r)
{
	DType dt = c->adt[0];
	int64_t H = c->ad[0][pos[2]], W = c->ad[0][pos[3]], OW = c->od[pos[3]];
	int64_t Wt = (OW - 1) * sd[1] + (ps[1] - 1) * dl[1] + 1;
	LLVMValueRef lo, t, iv[4], ooff, ioff, hh, x, a, ok;
	LLVMBasicBlockRef yes, next;
	Loop l[4], li, lk;

	Wt = Wt > pd[1] + W ? Wt : pd[1] + W;
	lo = isint(dt) ? LLVMConstInt(elty(g, dt), (unsigned long long)ir_dtype_min(dt), 1) : LLVMConstReal(elty(g, dt), -INFINITY);
	t = newbuf(g, (size_t)(Wt * ir_dtype_bytes[dt]), 64);
	/* the padding columns of t, once */
	for (int side = 0; side < 2; side++) {
		int64_t a0 = side ? pd[1] + W : 0, a1 = side ? Wt : pd[1];
		if (a0 < a1) {
			LLVMValueRef w = loop_open(g, &li, a0, a1, 1);
			st(g, t, dt, w, lo);
			loop_close(g, &li);
		}
	}
	/* the loops over the axes but the last, in their order */
	ooff = c64(g, 0);
	ioff = c64(g, 0);
	for (int k = 0; k < 4; k++) {
		if (k == pos[3]) {
			iv[k] = NULL;
			continue;
		}
		iv[k] = loop_open(g, &l[k], 0, c->od[k], 1);
		ooff = add64(g, ooff, mul64(g, iv[k], ost[k]));
		if (k != pos[2])
			ioff = add64(g, ioff, mul64(g, iv[k], ist[k]));
	}
	/* vertical: t[pd[1] + w] = max of the window's rows that exist */
	{
		LLVMValueRef w = loop_open(g, &li, 0, W, 1);
		st(g, t, dt, add64(g, w, c64(g, pd[1])), lo);
		loop_close(g, &li);
	}
	for (int64_t kh = 0; kh < ps[0]; kh++) {
		hh = LLVMBuildNSWSub(g->b, add64(g, mul64(g, iv[pos[2]], sd[0]), c64(g, kh * dl[0])), c64(g, pd[0]), "");
		ok = LLVMBuildAnd(g->b, LLVMBuildICmp(g->b, LLVMIntSGE, hh, c64(g, 0), ""),
		                  LLVMBuildICmp(g->b, LLVMIntSLT, hh, c64(g, H), ""), "");
		yes = LLVMAppendBasicBlockInContext(g->cx, g->fn, "row");
		next = LLVMAppendBasicBlockInContext(g->cx, g->fn, "next");
		LLVMBuildCondBr(g->b, ok, yes, next);
		LLVMPositionBuilderAtEnd(g->b, yes);
		{
			LLVMValueRef w = loop_open(g, &li, 0, W, 1), tw = add64(g, w, c64(g, pd[1]));
			x = ld(g, c->a[0].p, dt, add64(g, add64(g, ioff, mul64(g, hh, ist[pos[2]])), mul64(g, w, ist[pos[3]])));
			a = ld(g, t, dt, tw);
			st(g, t, dt, tw, isint(dt) ? iminmax(g, x, a, ir_dtype_kind[dt] == 'i', 1) : fminmax(g, x, a, 1));
			loop_close(g, &li);
		}
		LLVMBuildBr(g->b, next);
		LLVMPositionBuilderAtEnd(g->b, next);
	}
	/* horizontal: each output the largest of its window's columns */
	{
		LLVMValueRef ow = loop_open(g, &lk, 0, OW, 1);
		a = lo;
		for (int64_t kw = 0; kw < ps[1]; kw++) {
			x = ld(g, t, dt, add64(g, mul64(g, ow, sd[1]), c64(g, kw * dl[1])));
			a = isint(dt) ? iminmax(g, x, a, ir_dtype_kind[dt] == 'i', 1) : fminmax(g, x, a, 1);
		}
		st(g, r.p, dt, add64(g, ooff, mul64(g, ow, ost[pos[3]])), a);
		loop_close(g, &lk);
	}
	for (int k = 3; k >= 0; k--)
		if (k != pos[3])
			loop_close(g, &l[k]);
}

/* pool2d: max or average over windows with padding (layout NCHW-like);
** integer averages sum in their dtype (wrapping) and divide truncating;
** float16 ones sum in float rounded to half at each step, and divide by
** the count as a half */
static Val
pool2d(G *g, Call *c, int avg)
{
	const Module *m = c->m;
	int64_t ps[2], sd[2] = { 1, 1 }, dl[2] = { 1, 1 }, pd[4] = { 0, 0, 0, 0 }, ist[4], ost[4];
	int pos[4], np, cip = avg && aint(m, c->n, "count_include_pad");
	Val r = tensorbuf(g, c->ot);
	DType dt = c->adt[0], adt = accdt(dt);
	LLVMTypeRef at = elty(g, adt);
	Loop l[6];
	LLVMValueRef iv[4], acc, cnt, off, ooff = c64(g, 0), v, ok, hh, ww;

	if (c->ar[0] != 4 || !ir_layout_perm(astr(m, c->n, "layout"), "NCHW", pos) ||
	    aints(m, c->n, "pool_size", ps, 2) != 2) {
		refuse(g, c->n, "only NCHW-like layouts of rank 4 are supported");
		return r;
	}
	aints(m, c->n, "strides", sd, 2);
	aints(m, c->n, "dilation", dl, 2);
	np = aints(m, c->n, "padding", pd, 4);
	if (np == 1)
		pd[1] = pd[2] = pd[3] = pd[0];
	else if (np == 2) {
		pd[2] = pd[0];
		pd[3] = pd[1];
	}
	strides(c->ad[0], 4, ist);
	strides(c->od, 4, ost);
	if (!avg && dt != DT_FLOAT16 && dt != DT_BOOL && c->odt == dt && ps[0] > 0 && ps[1] > 0 && c->od[pos[3]] > 0) {
		maxpool_rows(g, c, pos, ps, sd, dl, pd, ist, ost, r);
		return r;
	}
	acc = entry_alloca(g, at);
	cnt = entry_alloca(g, g->i64);
	for (int k = 0; k < 4; k++) {
		iv[k] = loop_open(g, &l[k], 0, c->od[k], 1);
		ooff = add64(g, ooff, mul64(g, iv[k], ost[k]));
	}
	LLVMBuildStore(g->b, avg ? LLVMConstNull(at) : isint(dt) ? LLVMConstInt(at, (unsigned long long)ir_dtype_min(dt), 1)
	                                                         : LLVMConstReal(at, -INFINITY), acc);
	LLVMBuildStore(g->b, c64(g, 0), cnt);
	hh = add64(g, mul64(g, iv[pos[2]], sd[0]), mul64(g, loop_open(g, &l[4], 0, ps[0], 1), dl[0]));
	ww = add64(g, mul64(g, iv[pos[3]], sd[1]), mul64(g, loop_open(g, &l[5], 0, ps[1], 1), dl[1]));
	hh = LLVMBuildNSWSub(g->b, hh, c64(g, pd[0]), "");
	ww = LLVMBuildNSWSub(g->b, ww, c64(g, pd[1]), "");
	{
		int64_t H = c->ad[0][pos[2]], W = c->ad[0][pos[3]];
		LLVMValueRef inh = LLVMBuildAnd(g->b, LLVMBuildICmp(g->b, LLVMIntSGE, hh, c64(g, 0), ""),
		                                LLVMBuildICmp(g->b, LLVMIntSLT, hh, c64(g, H), ""), "");
		LLVMValueRef inw = LLVMBuildAnd(g->b, LLVMBuildICmp(g->b, LLVMIntSGE, ww, c64(g, 0), ""),
		                                LLVMBuildICmp(g->b, LLVMIntSLT, ww, c64(g, W), ""), "");
		LLVMValueRef inp = LLVMBuildAnd(g->b,
			LLVMBuildAnd(g->b, LLVMBuildICmp(g->b, LLVMIntSGE, hh, c64(g, -pd[0]), ""),
			             LLVMBuildICmp(g->b, LLVMIntSLT, hh, c64(g, H + pd[2]), ""), ""),
			LLVMBuildAnd(g->b, LLVMBuildICmp(g->b, LLVMIntSGE, ww, c64(g, -pd[1]), ""),
			             LLVMBuildICmp(g->b, LLVMIntSLT, ww, c64(g, W + pd[3]), ""), ""), "");
		ok = LLVMBuildAnd(g->b, inh, inw, "");
		off = c64(g, 0);
		for (int k = 0; k < 4; k++) {
			LLVMValueRef ix = k == pos[2] ? LLVMBuildSelect(g->b, ok, hh, c64(g, 0), "")
			                : k == pos[3] ? LLVMBuildSelect(g->b, ok, ww, c64(g, 0), "") : iv[k];
			off = add64(g, off, mul64(g, ix, ist[k]));
		}
		v = h_cvt(g, ld(g, c->a[0].p, dt, off), dt, adt);
		if (avg) {
			LLVMValueRef a0 = LLVMBuildLoad2(g->b, at, acc, "");
			v = LLVMBuildSelect(g->b, ok, v, LLVMConstNull(at), "");
			v = isint(dt) ? LLVMBuildAdd(g->b, a0, v, "") : LLVMBuildFAdd(g->b, a0, v, "");
			LLVMBuildStore(g->b, dt == DT_FLOAT16 ? h_rnd(g, v) : v, acc);
			LLVMBuildStore(g->b, LLVMBuildAdd(g->b, LLVMBuildLoad2(g->b, g->i64, cnt, ""),
			                                  LLVMBuildZExt(g->b, cip ? inp : ok, g->i64, ""), ""), cnt);
		} else {
			LLVMValueRef a0 = LLVMBuildLoad2(g->b, at, acc, "");
			LLVMValueRef mx = isint(dt) ? iminmax(g, v, a0, 1, 1) : fminmax(g, v, a0, 1);
			LLVMBuildStore(g->b, LLVMBuildSelect(g->b, ok, mx, a0, ""), acc);
		}
	}
	loop_close(g, &l[5]);
	loop_close(g, &l[4]);
	v = LLVMBuildLoad2(g->b, at, acc, "");
	if (avg) {
		LLVMValueRef n = LLVMBuildLoad2(g->b, g->i64, cnt, "");
		n = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, n, c64(g, 0), ""), c64(g, 1), n, "");
		v = wrapsum(g, v, dt);
		if (isint(dt))
			v = LLVMBuildSDiv(g->b, v, n, "");
		else if (dt == DT_FLOAT16)
			v = LLVMBuildFDiv(g->b, v, h_rnd(g, LLVMBuildSIToFP(g->b, n, at, "")), "");
		else
			v = LLVMBuildFDiv(g->b, v, LLVMBuildSIToFP(g->b, n, at, ""), "");
	}
	st(g, r.p, c->odt, ooff, h_cvt(g, v, adt, c->odt));
	for (int k = 3; k >= 0; k--)
		loop_close(g, &l[k]);
	return r;
}

/* dense: x[..., K] times w[N, K]^T; qnn.dense sums (x - xz)(w - wz) in
** int32 (on sdot where dense_dot() applies); floats sum in out_dtype
** (h_mac) */
static int dense_dot(G *g, Call *c, Val *res);
static int fdense(G *g, Call *c, Val *res);

static Val
dense(G *g, Call *c, int q)
{
	int64_t K = c->ad[0][c->ar[0] - 1], N = c->ad[1][0], M = ir_type_numel(c->m, c->at[0]) / (K ? K : 1);
	Val r;
	DType adt = q ? DT_INT32 : c->odt;
	LLVMTypeRef at = elty(g, cdt(adt));
	Loop lm, ln, lk;
	LLVMValueRef im, in, ik, acc, x, w, v;
	int64_t nwz = q ? ir_type_numel(c->m, c->at[3]) : 0;

	if (q ? dense_dot(g, c, &r) : fdense(g, c, &r))
		return r;
	r = tensorbuf(g, c->ot);
	acc = entry_alloca(g, at);

	im = loop_open(g, &lm, 0, M, 1);
	in = loop_open(g, &ln, 0, N, 1);
	LLVMBuildStore(g->b, LLVMConstNull(at), acc);
	ik = loop_open(g, &lk, 0, K, 1);
	x = h_opnd(g, ld(g, c->a[0].p, c->adt[0], add64(g, mul64(g, im, K), ik)), c->adt[0], adt);
	w = h_opnd(g, ld(g, c->a[1].p, c->adt[1], add64(g, mul64(g, in, K), ik)), c->adt[1], adt);
	if (q) {
		x = LLVMBuildSub(g->b, x, ld(g, c->a[2].p, DT_INT32, c64(g, 0)), "");
		w = LLVMBuildSub(g->b, w, ld(g, c->a[3].p, DT_INT32, nwz > 1 ? in : c64(g, 0)), "");
		v = LLVMBuildAdd(g->b, LLVMBuildLoad2(g->b, at, acc, ""), LLVMBuildMul(g->b, x, w, ""), "");
		LLVMBuildStore(g->b, v, acc);
	} else {
		h_mac(g, acc, x, w, adt);
	}
	loop_close(g, &lk);
	st(g, r.p, c->odt, add64(g, mul64(g, im, N), in), h_cvt(g, LLVMBuildLoad2(g->b, at, acc, ""), cdt(adt), c->odt));
	loop_close(g, &ln);
	loop_close(g, &lm);
	return r;
}

/* batch_matmul: a[B, I, K] (a[B, K, I] with transpose_a) times b[B, K, J]
** (b[B, J, K] with transpose_b), a batch of 1 broadcast; the operands
** converted to out_dtype, summed over k from 0 (integers wrapping), as ref */
static Val
batch_matmul(G *g, Call *c)
{
	int ta = aint(c->m, c->n, "transpose_a") != 0, tb = aint(c->m, c->n, "transpose_b") != 0;
	int64_t B = c->od[0], I = c->od[1], J = c->od[2], K = c->ad[0][ta ? 1 : 2];
	int64_t as = c->ad[0][0] == 1 ? 0 : I * K, bs = c->ad[1][0] == 1 ? 0 : K * J;
	DType dt = c->odt;
	LLVMTypeRef at = elty(g, cdt(dt));
	Val r = tensorbuf(g, c->ot);
	Loop lb, li, lj, lk;
	LLVMValueRef ib, ii, ij, ik, acc, x, w, v;

	if (isint(dt) != isint(c->adt[0]) || isint(dt) != isint(c->adt[1]) || dt == DT_BOOL) {
		refuse(g, c->n, "from these dtypes to out_dtype it is not supported");
		return r;
	}
	acc = entry_alloca(g, at);
	ib = loop_open(g, &lb, 0, B, 1);
	ii = loop_open(g, &li, 0, I, 1);
	ij = loop_open(g, &lj, 0, J, 1);
	LLVMBuildStore(g->b, LLVMConstNull(at), acc);
	ik = loop_open(g, &lk, 0, K, 1);
	x = add64(g, mul64(g, ib, as), ta ? add64(g, mul64(g, ik, I), ii) : add64(g, mul64(g, ii, K), ik));
	w = add64(g, mul64(g, ib, bs), tb ? add64(g, mul64(g, ij, K), ik) : add64(g, mul64(g, ik, J), ij));
	x = h_opnd(g, ld(g, c->a[0].p, c->adt[0], x), c->adt[0], dt);
	w = h_opnd(g, ld(g, c->a[1].p, c->adt[1], w), c->adt[1], dt);
	if (isint(dt)) {
		v = LLVMBuildLoad2(g->b, at, acc, "");
		LLVMBuildStore(g->b, LLVMBuildAdd(g->b, v, LLVMBuildMul(g->b, x, w, ""), ""), acc);
	} else {
		h_mac(g, acc, x, w, dt);
	}
	loop_close(g, &lk);
	st(g, r.p, dt, add64(g, mul64(g, add64(g, mul64(g, ib, I), ii), J), ij),
	   h_cvt(g, LLVMBuildLoad2(g->b, at, acc, ""), cdt(dt), dt));
	loop_close(g, &lj);
	loop_close(g, &li);
	loop_close(g, &lb);
	return r;
}

/* ---------------------------------------------------------------- convolution */

/* The geometry of one conv2d. */
typedef struct Conv {
	int64_t N, C, H, W, O, KH, KW, OH, OW, G;
	int64_t sh, sw, dh, dw, pt, pl, pb, pr;
	int64_t ist[4], kst[4], ost[4];     /* strides of N C H W, O I H W, N C H W */
} Conv;

/* convgeom: reads c's conv2d attributes; 0 after refusing */
static int
convgeom(G *g, Call *c, Conv *v, int quiet)
{
	const Module *m = c->m;
	int dp[4], kp[4], op[4], np;
	int64_t s[2] = { 1, 1 }, d[2] = { 1, 1 }, p[4] = { 0, 0, 0, 0 }, ist[4], kst[4], ost[4];
	const char *ol = astr(m, c->n, "out_layout");

	if (c->ar[0] != 4 || c->ar[1] != 4 || !ir_layout_perm(astr(m, c->n, "data_layout"), "NCHW", dp) ||
	    !ir_layout_perm(astr(m, c->n, "kernel_layout"), "OIHW", kp) || !ir_layout_perm(*ol ? ol : astr(m, c->n, "data_layout"), "NCHW", op)) {
		if (!quiet)
			refuse(g, c->n, "only 4-d NCHW-like data and OIHW-like kernel layouts are supported");
		return 0;
	}
	aints(m, c->n, "strides", s, 2);
	aints(m, c->n, "dilation", d, 2);
	np = aints(m, c->n, "padding", p, 4);
	if (np == 1)
		p[1] = p[2] = p[3] = p[0];
	else if (np == 2) {
		p[2] = p[0];
		p[3] = p[1];
	}
	strides(c->ad[0], 4, ist);
	strides(c->ad[1], 4, kst);
	strides(c->od, 4, ost);
	for (int k = 0; k < 4; k++) {
		v->ist[k] = ist[dp[k]];
		v->kst[k] = kst[kp[k]];
		v->ost[k] = ost[op[k]];
	}
	v->N = c->ad[0][dp[0]];
	v->C = c->ad[0][dp[1]];
	v->H = c->ad[0][dp[2]];
	v->W = c->ad[0][dp[3]];
	v->O = c->ad[1][kp[0]];
	v->KH = c->ad[1][kp[2]];
	v->KW = c->ad[1][kp[3]];
	v->OH = c->od[op[2]];
	v->OW = c->od[op[3]];
	v->G = aint(m, c->n, "groups");
	v->sh = s[0];
	v->sw = s[1];
	v->dh = d[0];
	v->dw = d[1];
	v->pt = p[0];
	v->pl = p[1];
	v->pb = p[2];
	v->pr = p[3];
	if (v->G < 1 || v->C % v->G || v->O % v->G || c->ad[1][kp[1]] * v->G != v->C) {
		if (!quiet)
			refuse(g, c->n, "the channels do not divide into the groups");
		return 0;
	}
	return 1;
}

/* conv_generic: direct loops with bounds checks; qnn sums (x - xz)(w - wz)
** in int32, padding contributing nothing; floats sum in out_dtype
** (h_mac), padding reading as 0, as the reference multiplies it */
static Val
conv_generic(G *g, Call *c, const Conv *v, int q)
{
	Val r = tensorbuf(g, c->ot);
	DType adt = q ? DT_INT32 : c->odt;
	LLVMTypeRef at = elty(g, cdt(adt));
	Loop l[7];
	int64_t icg = v->C / v->G, ocg = v->O / v->G;
	int64_t nwz = q ? ir_type_numel(c->m, c->at[3]) : 0;
	LLVMValueRef n, o, oh, ow, ic, kh, kw, acc = entry_alloca(g, at), hh, ww, ok, x, w, ci, off;

	n = loop_open(g, &l[0], 0, v->N, 1);
	o = loop_open(g, &l[1], 0, v->O, 1);
	oh = loop_open(g, &l[2], 0, v->OH, 1);
	ow = loop_open(g, &l[3], 0, v->OW, 1);
	LLVMBuildStore(g->b, LLVMConstNull(at), acc);
	ic = loop_open(g, &l[4], 0, icg, 1);
	kh = loop_open(g, &l[5], 0, v->KH, 1);
	kw = loop_open(g, &l[6], 0, v->KW, 1);
	hh = LLVMBuildNSWSub(g->b, add64(g, mul64(g, oh, v->sh), mul64(g, kh, v->dh)), c64(g, v->pt), "");
	ww = LLVMBuildNSWSub(g->b, add64(g, mul64(g, ow, v->sw), mul64(g, kw, v->dw)), c64(g, v->pl), "");
	ok = LLVMBuildAnd(g->b,
		LLVMBuildAnd(g->b, LLVMBuildICmp(g->b, LLVMIntSGE, hh, c64(g, 0), ""), LLVMBuildICmp(g->b, LLVMIntSLT, hh, c64(g, v->H), ""), ""),
		LLVMBuildAnd(g->b, LLVMBuildICmp(g->b, LLVMIntSGE, ww, c64(g, 0), ""), LLVMBuildICmp(g->b, LLVMIntSLT, ww, c64(g, v->W), ""), ""), "");
	hh = LLVMBuildSelect(g->b, ok, hh, c64(g, 0), "");
	ww = LLVMBuildSelect(g->b, ok, ww, c64(g, 0), "");
	ci = add64(g, mul64(g, LLVMBuildSDiv(g->b, o, c64(g, ocg), ""), icg), ic);
	off = add64(g, add64(g, mul64(g, n, v->ist[0]), mul64(g, ci, v->ist[1])), add64(g, mul64(g, hh, v->ist[2]), mul64(g, ww, v->ist[3])));
	x = h_opnd(g, ld(g, c->a[0].p, c->adt[0], off), c->adt[0], adt);
	off = add64(g, add64(g, mul64(g, o, v->kst[0]), mul64(g, ic, v->kst[1])), add64(g, mul64(g, kh, v->kst[2]), mul64(g, kw, v->kst[3])));
	w = h_opnd(g, ld(g, c->a[1].p, c->adt[1], off), c->adt[1], adt);
	if (q) {
		x = LLVMBuildSub(g->b, x, ld(g, c->a[2].p, DT_INT32, c64(g, 0)), "");
		w = LLVMBuildSub(g->b, w, ld(g, c->a[3].p, DT_INT32, nwz > 1 ? o : c64(g, 0)), "");
		x = LLVMBuildSelect(g->b, ok, LLVMBuildMul(g->b, x, w, ""), c32(g, 0), "");
		LLVMBuildStore(g->b, LLVMBuildAdd(g->b, LLVMBuildLoad2(g->b, at, acc, ""), x, ""), acc);
	} else {
		h_mac(g, acc, LLVMBuildSelect(g->b, ok, x, LLVMConstNull(at), ""), w, adt);
	}
	for (int k = 6; k >= 4; k--)
		loop_close(g, &l[k]);
	off = add64(g, add64(g, mul64(g, n, v->ost[0]), mul64(g, o, v->ost[1])), add64(g, mul64(g, oh, v->ost[2]), mul64(g, ow, v->ost[3])));
	st(g, r.p, c->odt, off, h_cvt(g, LLVMBuildLoad2(g->b, at, acc, ""), cdt(adt), c->odt));
	for (int k = 3; k >= 0; k--)
		loop_close(g, &l[k]);
	return r;
}

/* splat: an <n x i32> of i32 x */
static LLVMValueRef
splat(G *g, LLVMValueRef x, unsigned n)
{
	LLVMTypeRef vt = LLVMVectorType(g->i32, n);
	LLVMValueRef v = LLVMBuildInsertElement(g->b, LLVMGetUndef(vt), x, c32(g, 0), "");

	return LLVMBuildShuffleVector(g->b, v, LLVMGetUndef(vt), LLVMConstNull(LLVMVectorType(g->i32, n)), "");
}

/* conv_block: the fast kernel for pb pixels from ow0 of row oh, output
** channel block ob: accumulate, then store the lanes that exist */
static void
conv_block(G *g, const Conv *v, LLVMValueRef P, LLVMValueRef Wr, LLVMValueRef out, LLVMValueRef scratch,
           LLVMValueRef n, LLVMValueRef ob, LLVMValueRef oh, LLVMValueRef ow0, int pb, int64_t Hp, int64_t Wp, int64_t ICP)
{
	unsigned L = (unsigned)g->lanes;
	LLVMTypeRef av = LLVMVectorType(g->i32, L), wv16 = LLVMVectorType(g->i16, 2 * L);
	LLVMValueRef acc[16], kh, kw, icp, wv, wp, row;
	Loop l[3];
	const char *madd = L == 16 ? "llvm.x86.avx512.pmaddw.d.512" : "llvm.x86.avx2.pmadd.wd";

	for (int p = 0; p < pb; p++) {
		acc[p] = entry_alloca(g, av);
		LLVMBuildStore(g->b, LLVMConstNull(av), acc[p]);
	}
	kh = loop_open(g, &l[0], 0, v->KH, 1);
	kw = loop_open(g, &l[1], 0, v->KW, 1);
	icp = loop_open(g, &l[2], 0, ICP, 1);
	wp = add64(g, mul64(g, add64(g, mul64(g, add64(g, mul64(g, ob, v->KH), kh), v->KW), kw), ICP), icp);
	wp = LLVMBuildInBoundsGEP2(g->b, wv16, LLVMBuildBitCast(g->b, Wr, LLVMPointerType(wv16, 0), ""), &wp, 1, "");
	wv = LLVMBuildLoad2(g->b, wv16, wp, "");
	LLVMSetAlignment(wv, 4 * L);
	row = add64(g, mul64(g, n, Hp), add64(g, mul64(g, oh, v->sh), mul64(g, kh, v->dh)));
	for (int p = 0; p < pb; p++) {
		LLVMValueRef col = add64(g, mul64(g, add64(g, ow0, c64(g, p)), v->sw), mul64(g, kw, v->dw));
		LLVMValueRef ix = add64(g, mul64(g, add64(g, mul64(g, row, Wp), col), ICP), icp);
		LLVMValueRef xs = ld(g, P, DT_INT32, ix), a[2];
		a[0] = LLVMBuildBitCast(g->b, splat(g, xs, L), wv16, "");
		a[1] = wv;
		LLVMBuildStore(g->b, LLVMBuildAdd(g->b, LLVMBuildLoad2(g->b, av, acc[p], ""), callf(g, madd, av, a, 2), ""), acc[p]);
	}
	for (int k = 2; k >= 0; k--)
		loop_close(g, &l[k]);
	for (int p = 0; p < pb; p++) {
		LLVMValueRef a = LLVMBuildLoad2(g->b, av, acc[p], "");
		LLVMValueRef base = add64(g, add64(g, mul64(g, n, v->ost[0]), mul64(g, oh, v->ost[2])),
		                          mul64(g, add64(g, ow0, c64(g, p)), v->ost[3]));
		for (unsigned k = 0; k < L; k++) {
			LLVMValueRef o = add64(g, mul64(g, ob, L), c64(g, k)), ptr;
			ptr = gep(g, out, DT_INT32, add64(g, base, mul64(g, o, v->ost[1])));
			if (v->O % L)
				ptr = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, o, c64(g, v->O), ""), ptr,
				                      LLVMBuildBitCast(g->b, scratch, LLVMTypeOf(ptr), ""), "");
			LLVMBuildStore(g->b, LLVMBuildExtractElement(g->b, a, c32(g, (int64_t)k), ""), ptr);
		}
	}
}

/* conv_fast: qnn.conv2d of int8/uint8 data and constant weights, one
** group, int32 result (see the top of the file); 0 if it does not apply */
static int
conv_fast(G *g, Call *c, const Conv *v, Val *res)
{
	int64_t L = g->lanes, Cp, ICP, OB, Hp, Wp, nw, owf;
	int pb = g->lanes == 16 ? 8 : 4;
	double xz, wz;
	TypeId wt;
	const unsigned char *w;
	int16_t *wr;
	LLVMValueRef P, Wr, scratch;
	Loop l[6];
	Val r;

	if (!L || v->G != 1 || c->odt != DT_INT32 || (c->adt[0] != DT_INT8 && c->adt[0] != DT_UINT8) ||
	    (c->adt[1] != DT_INT8 && c->adt[1] != DT_UINT8) || !(w = cdata(g, c->a[1], &wt)) ||
	    cnumel(g, c->a[2]) != 1 || !cnum(g, c->a[2], 0, &xz) || !cnum(g, c->a[3], 0, &wz) ||
	    (cnumel(g, c->a[3]) != 1 && cnumel(g, c->a[3]) != v->O))
		return 0;
	Cp = (v->C + 1) & ~(int64_t)1;
	ICP = Cp / 2;
	OB = (v->O + L - 1) / L;
	Hp = v->H + v->pt + v->pb;
	Wp = v->W + v->pl + v->pr;
	/* the weights, (w - wz) in int16, in the order the kernel reads them */
	nw = OB * v->KH * v->KW * ICP * L * 2;
	wr = ir_xcalloc((size_t)nw, sizeof *wr);
	for (int64_t o = 0; o < v->O; o++) {
		double z;
		cnum(g, c->a[3], o, &z);
		for (int64_t ic = 0; ic < v->C; ic++)
			for (int64_t kh = 0; kh < v->KH; kh++)
				for (int64_t kw = 0; kw < v->KW; kw++) {
					int64_t si = o * v->kst[0] + ic * v->kst[1] + kh * v->kst[2] + kw * v->kst[3];
					int x = c->adt[1] == DT_INT8 ? (int8_t)w[si] : w[si];
					int64_t di = ((((o / L) * v->KH + kh) * v->KW + kw) * ICP + ic / 2) * L * 2 + (o % L) * 2 + ic % 2;
					wr[di] = (int16_t)(x - (int)z);
				}
	}
	Wr = constbuf(g, wr, (size_t)nw * 2);
	free(wr);
	/* the input, (x - xz) in int16, zero-padded NHWC */
	P = newbuf(g, (size_t)(v->N * Hp * Wp * Cp * 2), 64);
	scratch = newbuf(g, 4, 4);
	LLVMBuildMemSet(g->b, P, LLVMConstInt(g->i8, 0, 0), c64(g, v->N * Hp * Wp * Cp * 2), 64);
	{
		LLVMValueRef iv[4], src = c64(g, 0), dst, x;
		int64_t dims[4] = { v->N, v->C, v->H, v->W };
		for (int k = 0; k < 4; k++) {
			iv[k] = loop_open(g, &l[k], 0, dims[k], 1);
			src = add64(g, src, mul64(g, iv[k], v->ist[k]));
		}
		dst = add64(g, mul64(g, add64(g, mul64(g, add64(g, mul64(g, iv[0], Hp), add64(g, iv[2], c64(g, v->pt))), Wp),
		                                  add64(g, iv[3], c64(g, v->pl))), Cp), iv[1]);
		x = cvt(g, ld(g, c->a[0].p, c->adt[0], src), c->adt[0], DT_INT16);
		st(g, P, DT_INT16, dst, LLVMBuildSub(g->b, x, LLVMConstInt(g->i16, (unsigned long long)(int64_t)xz, 1), ""));
		for (int k = 3; k >= 0; k--)
			loop_close(g, &l[k]);
	}
	r = tensorbuf(g, c->ot);
	{
		LLVMValueRef n = loop_open(g, &l[0], 0, v->N, 1);
		LLVMValueRef ob = loop_open(g, &l[1], 0, OB, 1);
		LLVMValueRef oh = loop_open(g, &l[2], 0, v->OH, 1);
		owf = v->OW - v->OW % pb;
		if (owf > 0) {
			LLVMValueRef ow = loop_open(g, &l[3], 0, owf, pb);
			conv_block(g, v, P, Wr, r.p, scratch, n, ob, oh, ow, pb, Hp, Wp, ICP);
			loop_close(g, &l[3]);
		}
		if (owf < v->OW) {
			LLVMValueRef ow = loop_open(g, &l[3], owf, v->OW, 1);
			conv_block(g, v, P, Wr, r.p, scratch, n, ob, oh, ow, 1, Hp, Wp, ICP);
			loop_close(g, &l[3]);
		}
		for (int k = 2; k >= 0; k--)
			loop_close(g, &l[k]);
	}
	*res = r;
	return 1;
}

/* ---------------------------------------------------------------- the dot path */

/*
** With a dot-product instruction, qnn.conv2d of int8/uint8 data and
** constant weights with one group runs on it: AVX512-VNNI's vpdpbusd, in
** which each of 16 int32 lanes adds four u8 x s8 products, or Arm's sdot
** (+dotprod), four lanes of four s8 x s8 products, four of them to a
** block of 16 lanes.  The data stay bytes x' in an NHWC buffer
** [N][Hp][Wp][C4] (C4: C rounded up to 4), of the signedness the
** instruction takes: x' = x, or x ^ 0x80 (x + 128 from int8 for vnni,
** x - 128 from uint8 for sdot); its padding holds x'z = xz (+- 128), so
** that it contributes like the zero point; the weights (w - wz), which
** must fit in s8, are rearranged at compile time into
** [oc/16][kh][kw][ic/4][16][4].  Then
**   sum (x - xz)(w - wz) = sum x'(w - wz) - x'z sum (w - wz)
** and the second term, per output channel, initialises the accumulators.
** Both sides wrap modulo 2^32 like the generic loops, so the result is
** theirs bit for bit.
**
** A depthwise qnn.conv2d (groups = channels = output channels) of such
** data and constant weights runs on the same buffers with C4 rounded up
** to 16, bytes not flipped and any weights: each tap's 16 channels of
** data, widened to int32, times the tap's (w - wz) of those channels,
** with the same correction -xz sum (w - wz) per channel.
**
** The kernel's epilogue can carry a requantize (with a bias_add before
** it) and store bytes; and a conv whose data is such a requantize of
** another conv, each used once, has it store straight into its own
** NHWC buffer, so that between consecutive convs nothing goes through
** NCHW.
*/

/* lanes; pixels and channel blocks per kernel step (VPB x VOBB, or
** fewer channel blocks for up to VPBMAX pixels); pixels per depthwise
** step */
enum { VL = 16, VPB = 4, VOBB = 4, VPBMAX = 8, VDW = 8 };

/* obbof: the channel blocks per kernel step of g's instruction: sdot
** keeps 4 pixels x 16 channels in 16 of Arm's 32 vector registers */
static int obbof(const G *g) { return g->dot == DOT_SDOT ? 1 : VOBB; }

/* flipped: whether data of dtype xdt is flipped (x ^ 0x80) into the
** bytes g's instruction takes: u8 for vnni, s8 for sdot */
static int flipped(const G *g, DType xdt) { return xdt == (g->dot == DOT_SDOT ? DT_UINT8 : DT_INT8); }

/* A conv the dot path runs. */
typedef struct Vconv {
	NodeId n;
	Conv v;
	DType xdt;              /* data dtype: int8 or uint8 */
	int dw;                 /* depthwise: one channel per group, int32 weights [OB][KH][KW][VL] */
	int flip;               /* the data bytes are flipped (flipped(); never for dw) */
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
** 0x80 for consumers whose data are (flipped()). */
typedef struct Sink {
	LLVMValueRef p;
	DType dt;
	int nhwc, flip;
	int64_t Hp, Wp, C4, pt, pl;
} Sink;


/* isop: n is a call of op */
static int isop(const Module *m, NodeId n, OpId op) { return m->nodes[n].kind == NK_CALL && m->nodes[n].op == op; }

/* single: n is a call not lowered yet in s, used once */
static int
single(G *g, Scope *s, NodeId n)
{
	return g->m->nodes[n].kind == NK_CALL && !s->done[n] && ir_nuses(g->m, n) == 1;
}

/* ci32: a constant <VL x i32> vector global of n int32 */
static LLVMValueRef
ci32(G *g, const int32_t *v, int64_t n)
{
	return constbuf(g, v, (size_t)n * 4);
}

/* densenchw: st are the row-major strides of an N C H W tensor */
static int
densenchw(const int64_t *st, int64_t C, int64_t H, int64_t W)
{
	return st[3] == 1 && st[2] == W && st[1] == H * W && st[0] == C * H * W;
}

/* vdw_weights: pl's depthwise weights, (w - wz) in int32 in the order
** [OB][KH][KW][VL] (zero past O), and its correction; the weights w
** of dtype wdt, the zero points from constant wzv */
static void
vdw_weights(G *g, Vconv *pl, const unsigned char *w, DType wdt, Val wzv)
{
	const Conv *v = &pl->v;
	int64_t nw = pl->OB * v->KH * v->KW * VL;
	int32_t *wr = ir_xcalloc((size_t)nw, sizeof *wr), *corr = ir_arena_alloc(&g->a, (size_t)(pl->OB * VL) * sizeof *corr);
	double wz;

	for (int64_t o = 0; o < v->O; o++) {
		uint32_t sum = 0;
		cnum(g, wzv, o, &wz);
		for (int64_t kh = 0; kh < v->KH; kh++)
			for (int64_t kw = 0; kw < v->KW; kw++) {
				int64_t si = o * v->kst[0] + kh * v->kst[2] + kw * v->kst[3];
				int32_t x = (int32_t)((wdt == DT_INT8 ? (int8_t)w[si] : w[si]) - (int64_t)wz);
				wr[(((o / VL) * v->KH + kh) * v->KW + kw) * VL + o % VL] = x;
				sum += (uint32_t)x;
			}
		corr[o] = (int32_t)(0u - sum * (uint32_t)pl->xzb);
	}
	pl->w = ci32(g, wr, nw);
	pl->corr = corr;
	free(wr);
}

/* vconv_plan: pl for the qnn.conv2d n if the dot path can run it (one
** group, or depthwise), its operands but the data lowered and its
** weights rearranged; else 0 */
static int
vconv_plan(G *g, Scope *s, NodeId n, Vconv *pl)
{
	const Module *m = g->m;
	Call c;
	Conv *v = &pl->v;
	TypeId wt;
	const unsigned char *w;
	double xz, wz;
	int8_t *wr;
	int32_t *corr;
	int64_t nw, I4;

	memset(pl, 0, sizeof *pl);
	pl->n = n;
	if (!isop(m, n, OP_QNN_CONV2D) || !callargs(g, s, n, &c, 1) || !convgeom(g, &c, v, 1))
		return 0;
	pl->dw = v->G > 1 && v->G == v->C && v->O == v->C;
	if ((v->G != 1 && !pl->dw) || c.odt != DT_INT32 || (c.adt[0] != DT_INT8 && c.adt[0] != DT_UINT8) ||
	    (c.adt[1] != DT_INT8 && c.adt[1] != DT_UINT8) || !(w = cdata(g, c.a[1], &wt)) ||
	    c.adt[2] != DT_INT32 || c.adt[3] != DT_INT32 || cnumel(g, c.a[2]) != 1 || !cnum(g, c.a[2], 0, &xz) ||
	    !cnum(g, c.a[3], 0, &wz) || (cnumel(g, c.a[3]) != 1 && cnumel(g, c.a[3]) != v->O))
		return 0;
	pl->xdt = c.adt[0];
	pl->flip = !pl->dw && flipped(g, pl->xdt);
	xz += pl->flip ? (pl->xdt == DT_INT8 ? 128 : -128) : 0;
	if (!pl->dw && (g->dot == DOT_SDOT ? xz < -128 || xz > 127 : xz < 0 || xz > 255))
		return 0;
	pl->xzb = (int)xz;
	pl->OB = (v->O + VL - 1) / VL;
	pl->C4 = pl->dw ? pl->OB * VL : (v->C + 3) & ~(int64_t)3;
	pl->Hp = v->H + v->pt + v->pb;
	pl->Wp = v->W + v->pl + v->pr;
	if (pl->dw) {
		vdw_weights(g, pl, w, c.adt[1], c.a[3]);
		return 1;
	}
	I4 = pl->C4 / 4;
	nw = pl->OB * v->KH * v->KW * I4 * VL * 4;
	wr = ir_xcalloc((size_t)nw, 1);
	corr = ir_arena_alloc(&g->a, (size_t)(pl->OB * VL) * sizeof *corr);
	for (int64_t o = 0; o < v->O; o++) {
		int64_t sum = 0;
		cnum(g, c.a[3], o, &wz);
		for (int64_t ic = 0; ic < v->C; ic++)
			for (int64_t kh = 0; kh < v->KH; kh++)
				for (int64_t kw = 0; kw < v->KW; kw++) {
					int64_t si = o * v->kst[0] + ic * v->kst[1] + kh * v->kst[2] + kw * v->kst[3];
					int64_t x = (c.adt[1] == DT_INT8 ? (int8_t)w[si] : w[si]) - (int64_t)wz;
					int64_t di = ((((o / VL) * v->KH + kh) * v->KW + kw) * I4 + ic / 4) * VL * 4 + (o % VL) * 4 + ic % 4;
					if (x < -128 || x > 127) {
						free(wr);
						return 0;
					}
					wr[di] = (int8_t)x;
					sum += x;
				}
		corr[o] = (int32_t)(uint32_t)(-(uint64_t)(sum * pl->xzb));
	}
	pl->w = constbuf(g, wr, (size_t)nw);
	pl->corr = corr;
	free(wr);
	return 1;
}

/* epi_f32: e->fm for requantize c with rounding "HALF_TO_EVEN" (QNNPACK's
** float32 multipliers fl(s * fl(1 / os)), n = OB * VL of them, O used);
** 0 if it cannot: a non-constant or non-finite multiplier, or an output
** zero point beyond 2^16 (vrequant clamps the rounded product to 2^30) */
static int
epi_f32(G *g, Call *c, int64_t O, int64_t n, int64_t *ns, Epi *e)
{
	double os = 0, s = 0, z = 0;
	float *m;

	*ns = cnumel(g, c->a[1]);
	if (strcmp(astr(c->m, c->n, "compute_dtype"), "float32") || *ns < 1 || cnumel(g, c->a[3]) != 1 ||
	    !cnum(g, c->a[3], 0, &os) || !cnum(g, c->a[4], 0, &z) || fabs(z) > 65536)
		return 0;
	m = ir_xcalloc((size_t)n, sizeof *m);
	for (int64_t o = 0; o < O; o++) {
		cnum(g, c->a[1], *ns > 1 ? o : 0, &s);
		m[o] = f32mul((float)s, (float)os);
		if (!isfinite(m[o])) {
			free(m);
			return 0;
		}
	}
	e->fm = constbuf(g, m, (size_t)n * 4);
	e->f32 = 1;
	free(m);
	return 1;
}

/* epi_plan: e for the requantize rq (of the bias_add ba, or 0) of the
** conv pl, if the epilogue can do it: per-channel parameters along the
** channels of a dense NCHW result, constants, a byte result, TVM's
** fixed point or QNNPACK's float32 ("HALF_TO_EVEN"); else 0 */
static int
epi_plan(G *g, Scope *s, NodeId rq, NodeId ba, const Vconv *pl, Epi *e)
{
	const Module *m = g->m;
	const Conv *v = &pl->v;
	Call c;
	int64_t n = pl->OB * VL, ns = 0, nz = 0, axis;
	int32_t *mul = NULL, *sh = NULL, *vec[3];   /* bias, input zero point, multiplier */
	double x = 0;
	int ok = 1;

	memset(e, 0, sizeof *e);
	if (!densenchw(v->ost, v->O, v->OH, v->OW))
		return 0;
	for (int k = 0; k < 3; k++)
		vec[k] = ir_xcalloc((size_t)n, sizeof **vec);
	if (ba) {
		TypeId bt;
		const unsigned char *b = NULL;
		axis = aint(m, ba, "axis");
		if (!callargs(g, s, ba, &c, 1) || axis + (axis < 0 ? c.orank : 0) != 1 || c.odt != DT_INT32 ||
		    c.adt[1] != DT_INT32 || c.ar[1] != 1 || !(b = cdata(g, c.a[1], &bt)) || (c.ad[1][0] != 1 && c.ad[1][0] != v->O))
			ok = 0;
		for (int64_t o = 0; ok && o < v->O; o++)
			memcpy(&vec[0][o], b + (c.ad[1][0] > 1 ? o : 0) * 4, 4);
	}
	if (ok && (!callargs(g, s, rq, &c, 1) || c.adt[0] != DT_INT32 || (c.odt != DT_INT8 && c.odt != DT_UINT8) ||
	           c.adt[2] != DT_INT32 || c.adt[4] != DT_INT32 || cnumel(g, c.a[4]) < 1 || !cnum(g, c.a[4], 0, &x)))
		ok = 0;
	if (ok && (!strcmp(astr(m, rq, "rounding"), "HALF_TO_EVEN")
	           ? !epi_f32(g, &c, v->O, n, &ns, e)
	           : !rqparams(g, &c, 1, &mul, &sh, &ns, &e->skip, &e->nearest)))
		ok = 0;
	if (ok) {
		axis = aint(m, rq, "axis");
		axis = axis < 0 ? (c.ar[0] > 0 ? c.ar[0] + axis : 0) : axis;
		nz = cnumel(g, c.a[2]);
		e->ozp = (int32_t)x;
		e->odt = c.odt;
		if ((ns > 1 && (axis != 1 || ns != v->O)) || nz < 1 || (nz > 1 && (axis != 1 || nz != v->O)))
			ok = 0;
	}
	for (int64_t o = 0; ok && o < v->O; o++) {
		cnum(g, c.a[2], nz > 1 ? o : 0, &x);
		vec[1][o] = (int32_t)x;
	}
	if (ok) {
		e->add = ir_arena_alloc(&g->a, (size_t)n * sizeof *e->add);
		for (int64_t o = 0; o < n; o++)
			e->add[o] = (int32_t)((uint32_t)vec[0][o] - (uint32_t)vec[1][o]);
	}
	if (ok && !e->f32) {
		int32_t *sv = ir_xcalloc((size_t)n, sizeof *sv);
		for (int64_t o = 0; o < v->O; o++) {
			vec[2][o] = mul[ns > 1 ? o : 0];
			sv[o] = sh[ns > 1 ? o : 0];
		}
		e->uni = ns == 1;
		e->umul = mul[0];
		e->ush = sh[0];
		e->mul = ci32(g, vec[2], n);
		e->sh = ci32(g, sv, n);
		free(sv);
	}
	free(mul);
	free(sh);
	for (int k = 0; k < 3; k++)
		free(vec[k]);
	return ok;
}

/* vsplat: a <VL x ty> constant of v */
static LLVMValueRef
vsplat(LLVMTypeRef ty, int64_t v)
{
	LLVMValueRef k[VL];

	for (int i = 0; i < VL; i++)
		k[i] = LLVMConstInt(ty, (unsigned long long)v, 1);
	return LLVMConstVector(k, VL);
}

/* vload: the <VL x i32> at index ix (in vectors) of the vector array p */
static LLVMValueRef
vload(G *g, LLVMValueRef p, LLVMValueRef ix)
{
	LLVMTypeRef av = LLVMVectorType(g->i32, VL);
	LLVMValueRef q = LLVMBuildBitCast(g->b, p, LLVMPointerType(av, 0), ""), l;

	l = LLVMBuildLoad2(g->b, av, LLVMBuildInBoundsGEP2(g->b, av, q, &ix, 1, ""), "");
	LLVMSetAlignment(l, 64);
	return l;
}

/* ------------------------------------------- the dot path's shared kernels */

/* The dot path's kernels are functions shared by the convs they fit:
** one per Kkey, which compiles in what the code's shape depends on (the
** taps, strides and dilations, the pixels per step, the kinds of
** epilogue and sink), and reads the rest (sizes, buffers, the
** epilogue's parameters) from a descriptor: a constant global of KD_NI
** int64 then KD_NP pointers, which the conv's op function passes it
** (vconv_kernel).  The 52 convs of MobileNetV2 run on a handful. */

/* The descriptor's fields: int64 ... */
enum {
	KD_OH, KD_OW, KD_OB, KD_I4, KD_C4, KD_HP, KD_WP, KD_O,  /* the conv's sizes (Vconv) */
	KD_OST0, KD_OST1, KD_OST2,                              /* a dense NCHW sink's strides of N, C, H */
	KD_SHP, KD_SWP, KD_SC4, KD_SPT, KD_SPL,                 /* an NHWC sink's buffer (Sink) */
	KD_OZP, KD_UMUL, KD_USH,                                /* the epilogue's scalars (Epi) */
	KD_NI
};
/* ... then pointers */
enum { KD_P, KD_W, KD_START, KD_MUL, KD_SH, KD_FM, KD_OUT, KD_NP };

/* What a kernel compiles in. */
typedef struct Kkey {
	int dw, sx;                     /* depthwise; its data signed */
	int64_t KH, KW, sh, sw, dh, dl; /* taps, strides, dilations */
	int pb, obb;                    /* pixels and channel blocks per step (vconv_kernel) */
	int epi;                        /* epilogue: 0 none, 1 fixed point, 2 float32 (Epi) */
	int uni, skip, nearest;
	DType odt;
	int nhwc, flip;                 /* the sink (Sink) */
	DType sdt;
} Kkey;

/* A kernel's descriptor, loaded in its entry block: the fields, and
** the epilogue's scalars splat into <VL x i32>. */
typedef struct Kv {
	LLVMValueRef i[KD_NI], p[KD_NP];
	LLVMValueRef ozp, umul, ush, scratch;
} Kv;

/* kmul: a * b, i64 values */
static LLVMValueRef kmul(G *g, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildNSWMul(g->b, a, b, ""); }

/* The epilogue's per-channel vectors of one channel block (vepload). */
typedef struct Vep {
	LLVMValueRef fm, mul, shift;
} Vep;

/* vepload: the epilogue's vectors of channel block ob */
static Vep
vepload(G *g, const Kkey *k, const Kv *kv, LLVMValueRef ob)
{
	Vep ep = { 0 };

	if (k->epi == 2)
		ep.fm = LLVMBuildBitCast(g->b, vload(g, kv->p[KD_FM], ob), LLVMVectorType(g->f32, VL), "");
	else if (k->epi && !k->skip) {
		ep.mul = k->uni ? kv->umul : vload(g, kv->p[KD_MUL], ob);
		ep.shift = k->uni ? kv->ush : vload(g, kv->p[KD_SH], ob);
	}
	return ep;
}

/* vrequant: the epilogue on the <VL x i32> x (the bias added and the
** input zero point taken away: KD_START) with ep: fpm() and sat32() lane
** by lane, as ew_requantize; or for float32, ew_requantize_f32's
** product rounded to even, clamped to +-2^30 (beyond, every byte result
** saturates alike: |ozp| <= 2^16) */
static LLVMValueRef
vrequant(G *g, const Kkey *k, const Kv *kv, const Vep *ep, LLVMValueRef x)
{
	LLVMTypeRef v64 = LLVMVectorType(g->i64, VL), v8 = LLVMVectorType(g->i8, VL);
	LLVMTypeRef vf = LLVMVectorType(g->f32, VL), av = LLVMVectorType(g->i32, VL);
	LLVMValueRef zero = vsplat(g->i32, 0), t, ls, rs, total, half;

	if (k->epi == 2) {
		LLVMValueRef a[1], hi[VL], lo[VL];
		for (int i = 0; i < VL; i++) {
			hi[i] = LLVMConstReal(g->f32, 1073741824.0);
			lo[i] = LLVMConstReal(g->f32, -1073741824.0);
		}
		a[0] = LLVMBuildFMul(g->b, LLVMBuildSIToFP(g->b, x, vf, ""), ep->fm, "");
		t = callf(g, "llvm.roundeven.v16f32", vf, a, 1);
		t = LLVMBuildSelect(g->b, LLVMBuildFCmp(g->b, LLVMRealOLT, t, LLVMConstVector(hi, VL), ""), t, LLVMConstVector(hi, VL), "");
		t = LLVMBuildSelect(g->b, LLVMBuildFCmp(g->b, LLVMRealOGT, t, LLVMConstVector(lo, VL), ""), t, LLVMConstVector(lo, VL), "");
		x = LLVMBuildFPToSI(g->b, t, av, "");
	} else if (!k->skip) {
		ls = iminmax(g, ep->shift, zero, 1, 1);
		rs = iminmax(g, LLVMBuildSub(g->b, zero, ep->shift, ""), zero, 1, 1);
		total = LLVMBuildZExt(g->b, LLVMBuildAdd(g->b, rs, vsplat(g->i32, 31), ""), v64, "");
		t = LLVMBuildShl(g->b, LLVMBuildSExt(g->b, x, v64, ""), LLVMBuildZExt(g->b, ls, v64, ""), "");
		t = LLVMBuildMul(g->b, t, LLVMBuildSExt(g->b, ep->mul, v64, ""), "");
		half = LLVMBuildShl(g->b, vsplat(g->i64, 1), LLVMBuildSub(g->b, total, vsplat(g->i64, 1), ""), "");
		if (k->nearest)
			half = LLVMBuildSub(g->b, half, LLVMBuildZExt(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, t, vsplat(g->i64, 0), ""), v64, ""), "");
		t = LLVMBuildAShr(g->b, LLVMBuildAdd(g->b, t, half, ""), total, "");
		x = LLVMBuildTrunc(g->b, t, LLVMVectorType(g->i32, VL), "");
	}
	x = LLVMBuildAdd(g->b, x, kv->ozp, "");
	x = iminmax(g, x, vsplat(g->i32, ir_dtype_max(k->odt)), 1, 0);
	x = iminmax(g, x, vsplat(g->i32, ir_dtype_min(k->odt)), 1, 1);
	return LLVMBuildTrunc(g->b, x, v8, "");
}

enum { VTMAX = 16 };     /* most rows and columns of vtranspose */

/* vtranspose: out[0..cols) (<rows x T>) the columns of the rows
** y[0..rows) (<cols x T>) */
static void
vtranspose(G *g, const LLVMValueRef *y, int rows, int cols, LLVMValueRef *out)
{
	LLVMValueRef cat[VTMAX], all, mask[VTMAX * VTMAX];
	int np = 1;

	while (np < rows)
		np *= 2;
	for (int p = 0; p < np; p++)
		cat[p] = p < rows ? y[p] : LLVMGetUndef(LLVMTypeOf(y[0]));
	for (int w = np; w > 1; w /= 2) {
		for (int p = 0; p < w / 2; p++) {
			unsigned len = (unsigned)(np / w * cols);
			for (unsigned i = 0; i < 2 * len; i++)
				mask[i] = c32(g, i);
			cat[p] = LLVMBuildShuffleVector(g->b, cat[2 * p], cat[2 * p + 1], LLVMConstVector(mask, 2 * len), "");
		}
	}
	for (int c = 0; c < cols; c++)
		for (int p = 0; p < rows; p++)
			mask[c * rows + p] = c32(g, p * cols + c);
	all = LLVMBuildShuffleVector(g->b, cat[0], LLVMGetUndef(LLVMTypeOf(cat[0])), LLVMConstVector(mask, (unsigned)(rows * cols)), "");
	for (int c = 0; c < cols; c++) {
		for (int p = 0; p < rows; p++)
			mask[p] = c32(g, c * rows + p);
		out[c] = LLVMBuildShuffleVector(g->b, all, all, LLVMConstVector(mask, (unsigned)rows), "");
	}
}

/* vstore_nchw: stores y[0..pb) (<VL x T>, pixels ow0.. of row oh,
** channels ob * VL..) into the dense NCHW result: per channel pb
** contiguous elements; channels past O go to the scratch buffer */
static void
vstore_nchw(G *g, const Kkey *k, const Kv *kv, LLVMValueRef *y, LLVMValueRef n, LLVMValueRef oh, LLVMValueRef ow0,
            LLVMValueRef ob)
{
	LLVMTypeRef pv = LLVMVectorType(elty(g, k->sdt), (unsigned)k->pb);
	LLVMValueRef col[VL], base;

	vtranspose(g, y, k->pb, VL, col);
	base = add64(g, add64(g, kmul(g, n, kv->i[KD_OST0]), kmul(g, oh, kv->i[KD_OST2])), ow0);
	for (int c = 0; c < VL; c++) {
		LLVMValueRef o = add64(g, mul64(g, ob, VL), c64(g, c)), ptr, st_;
		ptr = LLVMBuildBitCast(g->b, gep(g, kv->p[KD_OUT], k->sdt, add64(g, base, kmul(g, o, kv->i[KD_OST1]))),
		                       LLVMPointerType(pv, 0), "");
		ptr = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, o, kv->i[KD_O], ""), ptr,
		                      LLVMBuildBitCast(g->b, kv->scratch, LLVMTypeOf(ptr), ""), "");
		st_ = LLVMBuildStore(g->b, col[c], ptr);
		LLVMSetAlignment(st_, 1);
	}
}

/* dotstep: acc (<VL x i32>) plus, in each lane, the four products of
** its four weight bytes in wv (<VL x i32>) and the four data bytes of
** xs (<VL x i32>, one i32 splat), on g's instruction: one vpdpbusd, or
** an sdot on each quarter */
static LLVMValueRef
dotstep(G *g, LLVMValueRef acc, LLVMValueRef xs, LLVMValueRef wv)
{
	LLVMTypeRef q32 = LLVMVectorType(g->i32, 4), q8 = LLVMVectorType(g->i8, 16);
	LLVMValueRef a[3] = { acc, xs, wv }, part[VL / 4], mask[VL];

	if (g->dot == DOT_VNNI)
		return callf(g, "llvm.x86.avx512.vpdpbusd.512", LLVMTypeOf(acc), a, 3);
	for (int q = 0; q < VL / 4; q++) {
		for (int i = 0; i < 4; i++)
			mask[i] = c32(g, 4 * q + i);
		a[0] = LLVMBuildShuffleVector(g->b, acc, acc, LLVMConstVector(mask, 4), "");
		a[1] = LLVMBuildBitCast(g->b, LLVMBuildShuffleVector(g->b, wv, wv, LLVMConstVector(mask, 4), ""), q8, "");
		a[2] = LLVMBuildBitCast(g->b, LLVMBuildShuffleVector(g->b, xs, xs, LLVMConstVector(mask, 4), ""), q8, "");
		part[q] = callf(g, "llvm.aarch64.neon.sdot.v4i32.v16i8", q32, a, 3);
	}
	for (int i = 0; i < VL; i++)
		mask[i] = c32(g, i);
	a[0] = LLVMBuildShuffleVector(g->b, part[0], part[1], LLVMConstVector(mask, 8), "");
	a[1] = LLVMBuildShuffleVector(g->b, part[2], part[3], LLVMConstVector(mask, 8), "");
	return LLVMBuildShuffleVector(g->b, a[0], a[1], LLVMConstVector(mask, VL), "");
}

/* vconv_store: the epilogue (if any) and the stores of y[0..pb) (<VL x
** i32>: pixels ow0.. of row oh, channel block ob) into the sink: every
** load before the first store, which may alias them */
static void
vconv_store(G *g, const Kkey *k, const Kv *kv, LLVMValueRef n, LLVMValueRef oh, LLVMValueRef ob, LLVMValueRef ow0,
            LLVMValueRef *y)
{
	Vep ep = vepload(g, k, kv, ob);

	for (int p = 0; k->epi && p < k->pb; p++)
		y[p] = vrequant(g, k, kv, &ep, y[p]);
	for (int p = 0; k->nhwc && p < k->pb; p++) {
		LLVMValueRef row = add64(g, kmul(g, n, kv->i[KD_SHP]), add64(g, oh, kv->i[KD_SPT]));
		LLVMValueRef px = add64(g, add64(g, ow0, c64(g, p)), kv->i[KD_SPL]), q, s_;
		LLVMValueRef ix = add64(g, kmul(g, add64(g, kmul(g, row, kv->i[KD_SWP]), px), kv->i[KD_SC4]), mul64(g, ob, VL));
		q = LLVMBuildBitCast(g->b, gep(g, kv->p[KD_OUT], DT_UINT8, ix), LLVMPointerType(LLVMTypeOf(y[p]), 0), "");
		s_ = LLVMBuildStore(g->b, k->flip ? LLVMBuildXor(g->b, y[p], vsplat(g->i8, 0x80), "") : y[p], q);
		LLVMSetAlignment(s_, 16);
	}
	if (!k->nhwc)
		vstore_nchw(g, k, kv, y, n, oh, ow0, ob);
}

/* vconv_block: the kernel on pb pixels from ow0 of row oh and obb
** channel blocks from ob, its epilogue and its stores */
static void
vconv_block(G *g, const Kkey *k, const Kv *kv, LLVMValueRef n, LLVMValueRef oh, LLVMValueRef ob, LLVMValueRef ow0, int obb)
{
	LLVMTypeRef av = LLVMVectorType(g->i32, VL);
	LLVMValueRef acc[VOBB][VPBMAX], wv[VOBB], kh, kw, i4, row, y[VPBMAX], I4 = kv->i[KD_I4];
	Loop l[3];

	for (int j = 0; j < obb; j++) {
		LLVMValueRef c0 = vload(g, kv->p[KD_START], add64(g, ob, c64(g, j)));
		for (int p = 0; p < k->pb; p++) {
			acc[j][p] = entry_alloca(g, av);
			LLVMBuildStore(g->b, c0, acc[j][p]);
		}
	}
	kh = loop_open(g, &l[0], 0, k->KH, 1);
	kw = loop_open(g, &l[1], 0, k->KW, 1);
	i4 = loop_openv(g, &l[2], c64(g, 0), I4, 1);
	for (int j = 0; j < obb; j++)
		wv[j] = vload(g, kv->p[KD_W], add64(g, kmul(g, add64(g, mul64(g, add64(g, mul64(g, add64(g, ob, c64(g, j)), k->KH), kh), k->KW), kw), I4), i4));
	row = add64(g, kmul(g, n, kv->i[KD_HP]), add64(g, mul64(g, oh, k->sh), mul64(g, kh, k->dh)));
	for (int p = 0; p < k->pb; p++) {
		LLVMValueRef col = add64(g, mul64(g, add64(g, ow0, c64(g, p)), k->sw), mul64(g, kw, k->dl));
		LLVMValueRef xs = splat(g, ld(g, kv->p[KD_P], DT_INT32, add64(g, kmul(g, add64(g, kmul(g, row, kv->i[KD_WP]), col), I4), i4)), VL);
		for (int j = 0; j < obb; j++)
			LLVMBuildStore(g->b, dotstep(g, LLVMBuildLoad2(g->b, av, acc[j][p], ""), xs, wv[j]), acc[j][p]);
	}
	for (int d = 2; d >= 0; d--)
		loop_close(g, &l[d]);
	for (int j = 0; j < obb; j++) {
		for (int p = 0; p < k->pb; p++)
			y[p] = LLVMBuildLoad2(g->b, av, acc[j][p], "");
		vconv_store(g, k, kv, n, oh, add64(g, ob, c64(g, j)), ow0, y);
	}
}

/* vdw_block: the depthwise kernel on pb pixels from ow0 of row oh and
** channel block ob: for each row of taps, each column of data it reads
** loaded once and widened (by the data's signedness), times the taps'
** weights; then vconv_store */
static void
vdw_block(G *g, const Kkey *k, const Kv *kv, LLVMValueRef n, LLVMValueRef oh, LLVMValueRef ob, LLVMValueRef ow0)
{
	LLVMTypeRef av = LLVMVectorType(g->i32, VL), bv = LLVMVectorType(g->i8, VL);
	int64_t ncol = (k->pb - 1) * k->sw + (k->KW - 1) * k->dl + 1;
	LLVMValueRef acc[VDW], y[VDW], *col = ir_xcalloc((size_t)ncol, sizeof *col), kh, base, wv, q;
	Loop l;

	for (int p = 0; p < k->pb; p++) {
		acc[p] = entry_alloca(g, av);
		LLVMBuildStore(g->b, vload(g, kv->p[KD_START], ob), acc[p]);
	}
	kh = loop_open(g, &l, 0, k->KH, 1);
	base = add64(g, kmul(g, add64(g, kmul(g, add64(g, kmul(g, n, kv->i[KD_HP]), add64(g, mul64(g, oh, k->sh), mul64(g, kh, k->dh))),
	                                          kv->i[KD_WP]), mul64(g, ow0, k->sw)), kv->i[KD_C4]), mul64(g, ob, VL));
	for (int p = 0; p < k->pb; p++)
		y[p] = LLVMBuildLoad2(g->b, av, acc[p], "");
	for (int64_t kw = 0; kw < k->KW; kw++) {
		wv = vload(g, kv->p[KD_W], add64(g, mul64(g, add64(g, mul64(g, ob, k->KH), kh), k->KW), c64(g, kw)));
		for (int p = 0; p < k->pb; p++) {
			int64_t c = p * k->sw + kw * k->dl;
			if (!col[c]) {
				q = gep(g, kv->p[KD_P], DT_UINT8, add64(g, base, kmul(g, c64(g, c), kv->i[KD_C4])));
				col[c] = LLVMBuildLoad2(g->b, bv, LLVMBuildBitCast(g->b, q, LLVMPointerType(bv, 0), ""), "");
				LLVMSetAlignment(col[c], 16);
				col[c] = k->sx ? LLVMBuildSExt(g->b, col[c], av, "") : LLVMBuildZExt(g->b, col[c], av, "");
			}
			y[p] = LLVMBuildAdd(g->b, y[p], LLVMBuildMul(g->b, col[c], wv, ""), "");
		}
	}
	for (int p = 0; p < k->pb; p++)
		LLVMBuildStore(g->b, y[p], acc[p]);
	loop_close(g, &l);
	free(col);
	for (int p = 0; p < k->pb; p++)
		y[p] = LLVMBuildLoad2(g->b, av, acc[p], "");
	vconv_store(g, k, kv, n, oh, ob, ow0, y);
}

/* kdtype: the type of a descriptor of ni int64 then np pointers */
static LLVMTypeRef
kdtype(G *g, int ni, int np)
{
	LLVMTypeRef t[KD_NI + KD_NP];

	for (int i = 0; i < ni + np; i++)
		t[i] = i < ni ? g->i64 : g->p8;
	return LLVMStructTypeInContext(g->cx, t, (unsigned)(ni + np), 0);
}

/* kdload: loads the ni int64 (into iv) and np pointers (into pv) of the
** descriptor that the kernel being built (g->fn) gets as its in */
static void
kdload(G *g, int ni, int np, LLVMValueRef *iv, LLVMValueRef *pv)
{
	LLVMTypeRef dt = kdtype(g, ni, np);
	LLVMValueRef d = LLVMBuildBitCast(g->b, g->in, LLVMPointerType(dt, 0), "");

	for (int i = 0; i < ni + np; i++) {
		LLVMValueRef v = LLVMBuildLoad2(g->b, i < ni ? g->i64 : g->p8, LLVMBuildStructGEP2(g->b, dt, d, (unsigned)i, ""), "");
		if (i < ni)
			iv[i] = v;
		else
			pv[i - ni] = v;
	}
}

/* kdesc: a descriptor of the ni int64 iv and the np pointers pv, as the
** in of a kernel: a constant global when pv are constants, else filled
** in on the stack of the function being built */
static LLVMValueRef
kdesc(G *g, int ni, const int64_t *iv, int np, const LLVMValueRef *pv)
{
	LLVMTypeRef dt = kdtype(g, ni, np);
	LLVMValueRef fv[KD_NI + KD_NP], d;
	int cst = 1;
	char name[32];

	for (int i = 0; i < ni + np; i++) {
		fv[i] = i < ni ? c64(g, iv[i]) : pv[i - ni];
		cst &= LLVMIsConstant(fv[i]) != 0;
	}
	if (cst) {
		snprintf(name, sizeof name, "kd.%u", g->nconst++);
		d = LLVMAddGlobal(g->mod, dt, name);
		LLVMSetLinkage(d, LLVMInternalLinkage);
		LLVMSetInitializer(d, LLVMConstStructInContext(g->cx, fv, (unsigned)(ni + np), 0));
		LLVMSetGlobalConstant(d, 1);
		return LLVMConstBitCast(d, LLVMPointerType(g->p8, 0));
	}
	d = entry_alloca(g, dt);
	for (int i = 0; i < ni + np; i++)
		LLVMBuildStore(g->b, fv[i], LLVMBuildStructGEP2(g->b, dt, d, (unsigned)i, ""));
	return LLVMBuildBitCast(g->b, d, LLVMPointerType(g->p8, 0), "");
}

/* kopen: starts the kernel name, void (desc, err, lo, hi) (parbody()),
** into *f, saving in *h where the builder was (fnleave() ends it); 0
** if it is built already (in *f then) */
static int
kopen(G *g, const char *name, Here *h, LLVMValueRef *f)
{
	if ((*f = LLVMGetNamedFunction(g->mod, name)))
		return 0;
	*f = newfn(g, name, parbody(g), 1);
	fnenter(g, *f, h);
	return 1;
}

/* kname: the name of k's kernel, which tells its key */
static void
kname(const Kkey *k, char *buf, size_t n)
{
	snprintf(buf, n, "kconv.%s%s.k%" PRId64 "x%" PRId64 ".s%" PRId64 "x%" PRId64 ".d%" PRId64 "x%" PRId64 ".p%dx%d.%s%s%s%s.%s.%s%s.%s",
	         k->dw ? "dw" : "dot", k->dw ? (k->sx ? "-s8" : "-u8") : "", k->KH, k->KW, k->sh, k->sw, k->dh,
	         k->dl, k->pb, k->obb, k->epi == 2 ? "f32" : k->epi ? "fix" : "none", k->epi == 1 && k->uni ? "-uni" : "",
	         k->epi == 1 && k->skip ? "-skip" : "", k->epi == 1 && k->nearest ? "-near" : "", k->epi ? ir_dtype_names[k->odt] : "-",
	         k->nhwc ? "nhwc" : "nchw", k->flip ? "-flip" : "", ir_dtype_names[k->sdt]);
}

/* kernel: k's kernel, built on first use: void (desc, err, lo, hi),
** parbody()'s type, running the output rows [lo, hi) of all images;
** in each, pixel steps of pb from ow0 = min(ow, OW - pb), so that the
** last step of a row overlaps the one before and computes some pixels
** again, alike, rather than a step of fewer pixels (key pb = OW when
** OW is less than a step) */
static LLVMValueRef
kernel(G *g, const Kkey *k)
{
	LLVMValueRef f, row, n, oh, ob, ow, ow0, owl, obf;
	Loop l[3];
	Here o;
	Kv kv;
	int obb;
	char name[160];

	kname(k, name, sizeof name);
	if (!kopen(g, name, &o, &f))
		return f;
	kdload(g, KD_NI, KD_NP, kv.i, kv.p);
	kv.ozp = splat(g, LLVMBuildTrunc(g->b, kv.i[KD_OZP], g->i32, ""), VL);
	kv.umul = splat(g, LLVMBuildTrunc(g->b, kv.i[KD_UMUL], g->i32, ""), VL);
	kv.ush = splat(g, LLVMBuildTrunc(g->b, kv.i[KD_USH], g->i32, ""), VL);
	kv.scratch = newbuf(g, VDW * 4, 64);
	owl = LLVMBuildNSWSub(g->b, kv.i[KD_OW], c64(g, k->pb), "");
	row = loop_openv(g, &l[0], LLVMGetParam(f, 2), LLVMGetParam(f, 3), 1);
	n = LLVMBuildUDiv(g->b, row, kv.i[KD_OH], "");
	oh = LLVMBuildURem(g->b, row, kv.i[KD_OH], "");
	/* channel blocks by obb, then the rest one by one */
	obb = k->obb;
	obf = obb > 1 ? LLVMBuildNSWSub(g->b, kv.i[KD_OB], LLVMBuildURem(g->b, kv.i[KD_OB], c64(g, obb), ""), "") : kv.i[KD_OB];
	for (int part = 0; part < (obb > 1 ? 2 : 1); part++) {
		ob = loop_openv(g, &l[1], part ? obf : c64(g, 0), part ? kv.i[KD_OB] : obf, part ? 1 : obb);
		ow = loop_openv(g, &l[2], c64(g, 0), kv.i[KD_OW], k->pb);
		ow0 = iminmax(g, ow, owl, 1, 0);
		if (k->dw)
			vdw_block(g, k, &kv, n, oh, ob, ow0);
		else
			vconv_block(g, k, &kv, n, oh, ob, ow0, part ? 1 : obb);
		loop_close(g, &l[2]);
		loop_close(g, &l[1]);
	}
	loop_close(g, &l[0]);
	fnleave(g, &o);
	return f;
}

/* vconv_kernel: the whole conv pl on the filled input P, with
** epilogue e (or none), into the sink sk: its kernel() called with a
** descriptor of its own */
static void
vconv_kernel(G *g, const Vconv *pl, LLVMValueRef P, const Epi *e, const Sink *sk)
{
	const Conv *v = &pl->v;
	int64_t pb = pl->dw ? VDW : VPB, nst = pl->OB * VL, iv[KD_NI];
	int32_t *sv;
	int obb;
	LLVMValueRef null = LLVMConstNull(g->p8), pv[KD_NP];
	Kkey k;

	if (v->OW < 1 || v->N * v->OH < 1)
		return;
	/* a step of pixels that divides the width if one does, none then
	   computed again: depthwise, 8 down to 5 (MobileNetV2's 28 and 14
	   columns: 7); vpdpbusd, 4 pixels x 4 channel blocks, else 7 down
	   to 5 pixels x as many blocks as fit in 16 accumulators (its 14 and
	   7 columns: 7 x 2) */
	obb = pl->dw ? 1 : obbof(g);
	if (pl->dw) {
		for (int64_t d = VDW; v->OW > VDW && d > VDW / 2; d--)
			if (v->OW % d == 0) {
				pb = d;
				break;
			}
	} else if (obb == VOBB && v->OW % VPB) {
		for (int64_t d = VPBMAX - 1; d > VPB; d--)
			if (v->OW % d == 0) {
				pb = d;
				obb = (int)(VPB * VOBB / d);
				break;
			}
	}
	k = (Kkey){ .dw = pl->dw, .sx = pl->xdt == DT_INT8, .KH = v->KH, .KW = v->KW, .sh = v->sh, .sw = v->sw,
	            .dh = v->dh, .dl = v->dw, .pb = (int)(v->OW < pb ? v->OW : pb), .obb = obb, .epi = e ? (e->f32 ? 2 : 1) : 0,
	            .uni = e && !e->f32 && e->uni, .skip = e && !e->f32 && e->skip, .nearest = e && !e->f32 && e->nearest,
	            .odt = e ? e->odt : DT_INT8, .nhwc = sk->nhwc, .flip = sk->nhwc && sk->flip, .sdt = sk->dt };
	memcpy(iv, (int64_t[KD_NI]){
		[KD_OH] = v->OH, [KD_OW] = v->OW, [KD_OB] = pl->OB, [KD_I4] = pl->C4 / 4, [KD_C4] = pl->C4, [KD_HP] = pl->Hp,
		[KD_WP] = pl->Wp, [KD_O] = v->O, [KD_OST0] = v->ost[0], [KD_OST1] = v->ost[1], [KD_OST2] = v->ost[2],
		[KD_SHP] = sk->Hp, [KD_SWP] = sk->Wp, [KD_SC4] = sk->C4, [KD_SPT] = sk->pt, [KD_SPL] = sk->pl,
		[KD_OZP] = e ? e->ozp : 0, [KD_UMUL] = e ? e->umul : 0, [KD_USH] = e ? e->ush : 0 }, sizeof iv);
	/* the accumulators start at corr, plus the bias minus the input
	   zero point that the epilogue would add (int32, wrapping alike) */
	sv = ir_xcalloc((size_t)nst, sizeof *sv);
	for (int64_t o = 0; o < nst; o++)
		sv[o] = (int32_t)((uint32_t)pl->corr[o] + (e ? (uint32_t)e->add[o] : 0u));
	pv[KD_P] = P;
	pv[KD_W] = pl->w;
	pv[KD_START] = ci32(g, sv, nst);
	pv[KD_MUL] = e && e->mul ? e->mul : null;
	pv[KD_SH] = e && e->sh ? e->sh : null;
	pv[KD_FM] = e && e->fm ? e->fm : null;
	pv[KD_OUT] = sk->p;
	free(sv);
	parrun(g, kernel(g, &k), kdesc(g, KD_NI, iv, KD_NP, pv), v->N * v->OH);
}

/* vrepack's descriptor: int64 ... */
enum { KR_H, KR_W, KR_C, KR_IST0, KR_IST1, KR_IST2, KR_IST3, KR_HP, KR_WP, KR_C4, KR_PT, KR_PL, KR_NI };
/* ... then pointers */
enum { KR_X, KR_P, KR_NP };

/* vrepack: copies the data x (NCHW-like) into the input buffer P of pl,
** bytes flipped where flipped(), the rows of all images split among
** threads, on a kernel shared by the convs of the same flip and
** whether their columns are contiguous (krepack.*); in each row, blocks
** of 16 channels x 8 columns are loaded by channel and stored by pixel
** when the columns are, the rest element by element */
static void
vrepack(G *g, const Vconv *pl, LLVMValueRef x, LLVMValueRef P)
{
	const Conv *v = &pl->v;
	enum { BC = 16, BW = 8 };
	int blocks = v->ist[3] == 1, small = v->C < BC;
	int64_t iv[KR_NI] = { v->H, v->W, v->C, v->ist[0], v->ist[1], v->ist[2], v->ist[3], pl->Hp, pl->Wp, pl->C4, v->pt, v->pl };
	LLVMValueRef pv[KR_NP] = { x, P }, f, k[KR_NI], p[KR_NP], c16, w8, ix[4], src, dst, b, row;
	LLVMTypeRef rt = LLVMVectorType(g->i8, BW), pt = LLVMVectorType(g->i8, BC);
	Loop l[3];
	Here o;
	char name[64];

	/* the key: whether columns are contiguous; for fewer channels than
	   a block, their count and the buffer's (C, C4: a network's first
	   conv, whose copy is then one loop of a constant stride) */
	if (small)
		snprintf(name, sizeof name, "krepack.c%" PRId64 "in%" PRId64 "%s%s", v->C, pl->C4, blocks ? ".unit" : "",
		         pl->flip ? ".flip" : "");
	else
		snprintf(name, sizeof name, "krepack%s%s", blocks ? ".unit" : "", pl->flip ? ".flip" : "");
	if (!kopen(g, name, &o, &f))
		goto run;
	kdload(g, KR_NI, KR_NP, k, p);
	if (blocks)
		k[KR_IST3] = c64(g, 1);
	if (small) {
		k[KR_C] = c64(g, v->C);
		k[KR_C4] = c64(g, pl->C4);
		blocks = 0;
	}
	c16 = blocks ? LLVMBuildNSWSub(g->b, k[KR_C], LLVMBuildURem(g->b, k[KR_C], c64(g, BC), ""), "") : c64(g, 0);
	w8 = blocks ? LLVMBuildNSWSub(g->b, k[KR_W], LLVMBuildURem(g->b, k[KR_W], c64(g, BW), ""), "") : c64(g, 0);
	row = loop_openv(g, &l[2], LLVMGetParam(f, 2), LLVMGetParam(f, 3), 1);
	ix[0] = LLVMBuildUDiv(g->b, row, k[KR_H], "");
	ix[2] = LLVMBuildURem(g->b, row, k[KR_H], "");
	/* the blocks */
	if (blocks) {
		LLVMValueRef rows[BC], px[BW];
		ix[3] = loop_openv(g, &l[0], c64(g, 0), w8, BW);
		ix[1] = loop_openv(g, &l[1], c64(g, 0), c16, BC);
		src = add64(g, add64(g, kmul(g, ix[0], k[KR_IST0]), kmul(g, ix[1], k[KR_IST1])), add64(g, kmul(g, ix[2], k[KR_IST2]), ix[3]));
		for (int r = 0; r < BC; r++) {
			LLVMValueRef q = gep(g, p[KR_X], DT_UINT8, add64(g, src, kmul(g, c64(g, r), k[KR_IST1])));
			rows[r] = LLVMBuildLoad2(g->b, rt, LLVMBuildBitCast(g->b, q, LLVMPointerType(rt, 0), ""), "");
			LLVMSetAlignment(rows[r], 1);
		}
		vtranspose(g, rows, BC, BW, px);
		dst = add64(g, kmul(g, add64(g, kmul(g, add64(g, kmul(g, ix[0], k[KR_HP]), add64(g, ix[2], k[KR_PT])), k[KR_WP]),
		                                add64(g, ix[3], k[KR_PL])), k[KR_C4]), ix[1]);
		for (int q = 0; q < BW; q++) {
			LLVMValueRef d = gep(g, p[KR_P], DT_UINT8, add64(g, dst, kmul(g, c64(g, q), k[KR_C4]))), s_;
			if (pl->flip)
				px[q] = LLVMBuildXor(g->b, px[q], vsplat(g->i8, 0x80), "");
			s_ = LLVMBuildStore(g->b, px[q], LLVMBuildBitCast(g->b, d, LLVMPointerType(pt, 0), ""));
			LLVMSetAlignment(s_, 1);
		}
		loop_close(g, &l[1]);
		loop_close(g, &l[0]);
	}
	/* the rest: channels from c16 at every column, then columns from w8 */
	for (int part = 0; part < (blocks ? 2 : 1); part++) {
		/* channels [clo, chi) at columns [wlo, W), by channel; few
		   channels by column, their loop then unrolled */
		LLVMValueRef clo = part ? c64(g, 0) : c16, chi = part ? c16 : k[KR_C], wlo = part ? w8 : c64(g, 0);
		ix[small ? 3 : 1] = loop_openv(g, &l[0], small ? wlo : clo, small ? k[KR_W] : chi, 1);
		ix[small ? 1 : 3] = loop_openv(g, &l[1], small ? clo : wlo, small ? chi : k[KR_W], 1);
		src = c64(g, 0);
		for (int d = 0; d < 4; d++)
			src = add64(g, src, kmul(g, ix[d], k[KR_IST0 + d]));
		dst = add64(g, kmul(g, add64(g, kmul(g, add64(g, kmul(g, ix[0], k[KR_HP]), add64(g, ix[2], k[KR_PT])), k[KR_WP]),
		                                add64(g, ix[3], k[KR_PL])), k[KR_C4]), ix[1]);
		b = ld(g, p[KR_X], DT_UINT8, src);
		if (pl->flip)
			b = LLVMBuildXor(g->b, b, LLVMConstInt(g->i8, 0x80, 0), "");
		st(g, p[KR_P], DT_UINT8, dst, b);
		loop_close(g, &l[1]);
		loop_close(g, &l[0]);
	}
	loop_close(g, &l[2]);
	fnleave(g, &o);
run:
	if (v->N * v->H > 0)
		parrun(g, f, kdesc(g, KR_NI, iv, KR_NP, pv), v->N * v->H);
}

/* vpadfill's descriptor: int64 ... */
enum { KF_N, KF_H, KF_W, KF_HP, KF_WP, KF_C4, KF_PT, KF_PB, KF_PL, KF_PR, KF_XZ, KF_NI };
/* ... then the buffer */
enum { KF_P, KF_NP };

/* vpadfill: fills the padding of pl's input buffer P (the rows above
** and below the data, the columns left and right of it) with x'z, so
** that it contributes like the zero point, on the first run only (a
** flag of its own): nothing else writes there; the data's pixels are
** written by the producer or vrepack, and the channels past C meet
** zero weights (or are never stored: dw).  All convs share the kernel,
** kpadfill, which fills with memset of sizes it reads. */
static void
vpadfill(G *g, const Vconv *pl, LLVMValueRef P)
{
	const Conv *v = &pl->v;
	int64_t iv[KF_NI] = { v->N, v->H, v->W, pl->Hp, pl->Wp, pl->C4, v->pt, v->pb, v->pl, v->pr, (uint8_t)pl->xzb };
	LLVMValueRef k[KF_NI], p[KF_NP], f, xz, n, h, row, rowb, flag;
	LLVMBasicBlockRef fill, done;
	Loop l[2];
	Here o;

	if (!v->pt && !v->pb && !v->pl && !v->pr)
		return;
	if (kopen(g, "kpadfill", &o, &f)) {
		kdload(g, KF_NI, KF_NP, k, p);
		xz = LLVMBuildTrunc(g->b, k[KF_XZ], g->i8, "");
		rowb = kmul(g, k[KF_WP], k[KF_C4]);
		n = loop_openv(g, &l[0], c64(g, 0), k[KF_N], 1);
		row = kmul(g, n, k[KF_HP]);
		LLVMBuildMemSet(g->b, gep(g, p[KF_P], DT_UINT8, kmul(g, row, rowb)), xz, kmul(g, k[KF_PT], rowb), 1);
		LLVMBuildMemSet(g->b, gep(g, p[KF_P], DT_UINT8, kmul(g, add64(g, row, add64(g, k[KF_PT], k[KF_H])), rowb)), xz,
		                kmul(g, k[KF_PB], rowb), 1);
		h = loop_openv(g, &l[1], c64(g, 0), k[KF_H], 1);
		row = kmul(g, add64(g, row, add64(g, h, k[KF_PT])), rowb);
		LLVMBuildMemSet(g->b, gep(g, p[KF_P], DT_UINT8, row), xz, kmul(g, k[KF_PL], k[KF_C4]), 1);
		LLVMBuildMemSet(g->b, gep(g, p[KF_P], DT_UINT8, add64(g, row, kmul(g, add64(g, k[KF_PL], k[KF_W]), k[KF_C4]))), xz,
		                kmul(g, k[KF_PR], k[KF_C4]), 1);
		loop_close(g, &l[1]);
		loop_close(g, &l[0]);
		fnleave(g, &o);
	}
	flag = newbuf(g, 1, 1);
	fill = LLVMAppendBasicBlockInContext(g->cx, g->fn, "pad");
	done = LLVMAppendBasicBlockInContext(g->cx, g->fn, "padded");
	LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, LLVMBuildLoad2(g->b, g->i8, flag, ""), LLVMConstInt(g->i8, 0, 0), ""),
	                fill, done);
	LLVMPositionBuilderAtEnd(g->b, fill);
	parrun(g, f, kdesc(g, KF_NI, iv, KF_NP, &P), 1);
	LLVMBuildStore(g->b, LLVMConstInt(g->i8, 1, 0), flag);
	LLVMBuildBr(g->b, done);
	LLVMPositionBuilderAtEnd(g->b, done);
}

/* producer: the conv, its bias_add (or 0) and its requantize whose
** result is the data x of a conv in scope s, each used once and not yet
** lowered, seen through what has no code: a parameter of an inlined
** call (to its argument, in the caller's scope), a clip_whole, and the
** call of a function literal (a composite) whose body is the
** requantize, which gets a scope of its own in *inner (*own set: the
** caller frees it).  *ps is the scope of the three; 0 if x is no such
** producer. */
static int
producer(G *g, Scope *s, NodeId x, Scope **ps, Scope *inner, int *own, NodeId *rq, NodeId *ba, NodeId *cv)
{
	const Module *m = g->m;
	int64_t i;
	NodeId f;

	*own = 0;
	for (;;) {
		/* a parameter's uses count its function's list of them */
		if (m->nodes[x].kind == NK_VAR && !s->done[x] && ir_nuses(m, x) == 2 && (i = paramof(m, s, x)) >= 0) {
			x = ir_arg(m, s->call, (uint32_t)i + 1);
			s = s->up;
		} else if (isop(m, x, OP_CLIP) && single(g, s, x) && clip_whole(m, x)) {
			x = ir_arg(m, x, 0);
		} else {
			break;
		}
	}
	if (m->nodes[x].kind == NK_CALLFN && !s->done[x] && ir_nuses(m, x) == 1 && (f = callee(m, x)) &&
	    m->nodes[ir_arg(m, x, 0)].kind == NK_FUNC && isop(m, ir_func_body(m, f), OP_QNN_REQUANTIZE)) {
		scope_init(inner, m);
		inner->up = s;
		inner->call = x;
		inner->fn = f;
		*own = 1;
		s = inner;
		x = ir_func_body(m, f);
	} else if (!isop(m, x, OP_QNN_REQUANTIZE) || !single(g, s, x)) {
		return 0;
	}
	*ps = s;
	*rq = x;
	*ba = 0;
	*cv = ir_arg(m, x, 0);
	if (isop(m, *cv, OP_NN_BIAS_ADD) && single(g, s, *cv)) {
		*ba = *cv;
		*cv = ir_arg(m, *ba, 0);
	}
	return isop(m, *cv, OP_QNN_CONV2D) && single(g, s, *cv);
}

/* vconv_emit: conv pl into sk, with epilogue e (or none): fills its
** input buffer, from a producer conv fused into it when its data is one
** (producer()), else by copying the data; then runs the kernel */
static void
vconv_emit(G *g, Scope *s, const Vconv *pl, const Epi *e, const Sink *sk)
{
	const Module *m = g->m;
	const Conv *v = &pl->v;
	int64_t bytes = v->N * pl->Hp * pl->Wp * pl->C4;
	LLVMValueRef P = newbuf(g, (size_t)bytes, 64);
	NodeId x = ir_arg(m, pl->n, 0), rq = 0, ba = 0, pc = 0;
	Scope *ps = s, inner;
	int own = 0, run = 1;
	Vconv pp;
	Epi pe;

	if (!(pl->C4 % VL == 0 && densenchw(v->ist, v->C, v->H, v->W) && producer(g, s, x, &ps, &inner, &own, &rq, &ba, &pc) &&
	      vconv_plan(g, ps, pc, &pp) && epi_plan(g, ps, rq, ba, &pp, &pe) && pe.odt == pl->xdt && pp.v.O == v->C))
		pc = 0;
	vpadfill(g, pl, P);
	if (pc) {
		Sink ps_ = { .p = P, .dt = pl->xdt, .nhwc = 1, .flip = pl->flip,
		             .Hp = pl->Hp, .Wp = pl->Wp, .C4 = pl->C4, .pt = v->pt, .pl = v->pl };
		vconv_emit(g, ps, &pp, &pe, &ps_);
	} else {
		Val xv = lower(g, s, x);
		if (xv.p)
			vrepack(g, pl, xv.p, P);
		run = xv.p != NULL;
	}
	if (own)
		scope_free(&inner);
	if (run)
		vconv_kernel(g, pl, P, e, sk);
}

/* dot_root: lowers n, a qnn.conv2d or a requantize (of a bias_add) of
** one, on the dot path if it applies; 0 if not (nothing emitted but
** the lowering of operands) */
static int
dot_root(G *g, Scope *s, NodeId n, Val *res)
{
	const Module *m = g->m;
	NodeId rq = 0, ba = 0, cv = n;
	Vconv pl;
	Epi e;
	Sink sk = { 0 };

	if (isop(m, n, OP_QNN_REQUANTIZE)) {
		rq = n;
		cv = ir_arg(m, rq, 0);
		if (isop(m, cv, OP_NN_BIAS_ADD) && single(g, s, cv)) {
			ba = cv;
			cv = ir_arg(m, ba, 0);
		}
		if (!single(g, s, cv))
			return 0;
	}
	if (!vconv_plan(g, s, cv, &pl) || pl.v.ost[3] != 1 || (rq && !epi_plan(g, s, rq, ba, &pl, &e)))
		return 0;
	*res = tensorbuf(g, m->nodes[n].type);
	sk.p = res->p;
	sk.dt = rq ? e.odt : DT_INT32;
	vconv_emit(g, s, &pl, rq ? &e : NULL, &sk);
	return 1;
}

/* dense_block: out[m][n] for the 16 n of block nb (nl of them stored,
** the rest past N) of dense_dot's data P ([M][K4] bytes) and weights W
** ([NB][K4 / 4][VL][4]), the accumulators starting at corr[nb] */
static void
dense_block(G *g, LLVMValueRef P, LLVMValueRef W, LLVMValueRef corr, LLVMValueRef out, LLVMValueRef m,
            LLVMValueRef nb, int64_t K4, int64_t N, int nl)
{
	LLVMTypeRef av = LLVMVectorType(g->i32, VL);
	LLVMValueRef acc = entry_alloca(g, av), k4, xs, base;
	Loop l;

	LLVMBuildStore(g->b, vload(g, corr, nb), acc);
	k4 = loop_open(g, &l, 0, K4 / 4, 1);
	xs = splat(g, ld(g, P, DT_INT32, add64(g, mul64(g, m, K4 / 4), k4)), VL);
	LLVMBuildStore(g->b, dotstep(g, LLVMBuildLoad2(g->b, av, acc, ""), xs, vload(g, W, add64(g, mul64(g, nb, K4 / 4), k4))), acc);
	loop_close(g, &l);
	base = add64(g, mul64(g, m, N), mul64(g, nb, VL));
	if (nl == VL) {
		LLVMValueRef q = LLVMBuildBitCast(g->b, gep(g, out, DT_INT32, base), LLVMPointerType(av, 0), "");
		LLVMSetAlignment(LLVMBuildStore(g->b, LLVMBuildLoad2(g->b, av, acc, ""), q), 4);
		return;
	}
	for (int k = 0; k < nl; k++)
		st(g, out, DT_INT32, add64(g, base, c64(g, k)),
		   LLVMBuildExtractElement(g->b, LLVMBuildLoad2(g->b, av, acc, ""), c32(g, k), ""));
}

/* dense_dot: qnn.dense of int8/uint8 data x[M, K] (any leading dims) and
** constant int8/uint8 weights w[N, K] whose w - wz fit in s8, scalar
** constant data zero point, int32 result, on sdot as the dot path runs a
** 1x1 conv: x' (flipped()) copied into rows of K4 (K rounded up to 4)
** bytes, the weights (w - wz) rearranged into [N/16][K4/4][16][4], the
** accumulators of 16 outputs started at -x'z sum (w - wz).  0 if it does
** not apply (nothing emitted) */
static int
dense_dot(G *g, Call *c, Val *res)
{
	int64_t K = c->ad[0][c->ar[0] - 1], N = c->ad[1][0], M = ir_type_numel(c->m, c->at[0]) / (K ? K : 1);
	int64_t K4 = (K + 3) & ~(int64_t)3, NB = (N + VL - 1) / VL, nw = NB * K4 * VL;
	const unsigned char *w;
	TypeId wt;
	double xz, wz;
	int8_t *wr;
	int32_t *corr;
	LLVMValueRef P, W = NULL, C = NULL, m, nb, ik, x;
	Loop l[2];
	int ok = 1;

	if (g->dot != DOT_SDOT || c->odt != DT_INT32 || (c->adt[0] != DT_INT8 && c->adt[0] != DT_UINT8) ||
	    (c->adt[1] != DT_INT8 && c->adt[1] != DT_UINT8) || c->ar[1] != 2 || !K || !(w = cdata(g, c->a[1], &wt)) ||
	    cnumel(g, c->a[2]) != 1 || !cnum(g, c->a[2], 0, &xz) || !cnum(g, c->a[3], 0, &wz) ||
	    (cnumel(g, c->a[3]) != 1 && cnumel(g, c->a[3]) != N))
		return 0;
	xz += flipped(g, c->adt[0]) ? -128 : 0;
	if (xz < -128 || xz > 127)
		return 0;
	wr = ir_xcalloc((size_t)nw, 1);
	corr = ir_xcalloc((size_t)(NB * VL), sizeof *corr);
	for (int64_t n = 0; ok && n < N; n++) {
		int64_t sum = 0;
		cnum(g, c->a[3], n, &wz);
		for (int64_t k = 0; k < K; k++) {
			int64_t v = (c->adt[1] == DT_INT8 ? (int8_t)w[n * K + k] : w[n * K + k]) - (int64_t)wz;
			ok &= v >= -128 && v <= 127;
			wr[((n / VL) * (K4 / 4) + k / 4) * VL * 4 + (n % VL) * 4 + k % 4] = (int8_t)v;
			sum += v;
		}
		corr[n] = (int32_t)(uint32_t)(-(uint64_t)(sum * (int64_t)xz));
	}
	if (ok) {
		W = constbuf(g, wr, (size_t)nw);
		C = ci32(g, corr, NB * VL);
	}
	free(wr);
	free(corr);
	if (!ok)
		return 0;
	/* the data, flipped where the instruction needs it, in rows of K4 */
	P = newbuf(g, (size_t)(M * K4), 64);
	m = loop_open(g, &l[0], 0, M, 1);
	ik = loop_open(g, &l[1], 0, K, 1);
	x = ld(g, c->a[0].p, c->adt[0], add64(g, mul64(g, m, K), ik));
	if (flipped(g, c->adt[0]))
		x = LLVMBuildXor(g->b, x, LLVMConstInt(g->i8, 0x80, 0), "");
	st(g, P, DT_UINT8, add64(g, mul64(g, m, K4), ik), x);
	loop_close(g, &l[1]);
	loop_close(g, &l[0]);
	*res = tensorbuf(g, c->ot);
	m = loop_open(g, &l[0], 0, M, 1);
	if (N / VL) {
		nb = loop_open(g, &l[1], 0, N / VL, 1);
		dense_block(g, P, W, C, res->p, m, nb, K4, N, VL);
		loop_close(g, &l[1]);
	}
	if (N % VL)
		dense_block(g, P, W, C, res->p, m, c64(g, N / VL), K4, N, (int)(N % VL));
	loop_close(g, &l[0]);
	return 1;
}

/* ---------------------------------------------------------------- float convolution */

/*
** nn.conv2d of float32 data (dense NCHW) and constant float32 weights
** (any OIHW-like layout), with one group or depthwise (groups == channels
** == output channels), takes "the float path", with what follows it in
** the graph fused into the kernel's store: an nn.bias_add of a constant
** along the channels, then an add of a tensor of the result's shape
** (another branch: a residual), then nn.relu or clip, each optional, each
** but the last used once.
**
** One group: the data are copied once into a zero-padded buffer
** [N][C][Hp][Wp] (no copy without padding), the weights rearranged at
** compile time into [O / 16][C][KH][KW][16] (channels past O zero), and
** the kernel keeps up to 8 pixels of a row x 32 output channels in
** <16 x float> accumulators (fpb x fobb blocks: fewer without AVX-512),
** each step one broadcast data element times a vector of weights.  Its
** store adds the bias vector, transposes the block into rows of pixels,
** adds the residual and clamps.  Loops: n, channel block, row, pixels, so
** that one block's weights stay in cache for the whole image.
**
** Depthwise: the data are copied into [N][C][Hp][sw][Wq], each padded row
** split into its sw column phases (column c at phase c % sw, index c /
** sw), so that the taps of 16 neighbouring outputs are 16 neighbouring
** elements for any stride and dilation; the kernel keeps up to 4 vectors of
** 16 pixels of a row, each step a vector of data times one broadcast
** weight; of a row's last partial vector only the lanes of the row are
** stored (its other lanes read past the row: slack ends the buffer).
**
** nn.dense of float32 data and constant weights (fdense) likewise keeps
** vectors of 16 outputs, its weights rearranged into [N / 16][K][16].
**
** Numerics: each output is the generic loops' and the reference's bit for
** bit.  It sums its products from +0 in ref's order (input channel, kernel
** row, kernel column), each product rounded to float32 and then added
** (fmul, fadd: never contracted into an FMA); padding reads as 0 and is
** multiplied as the reference multiplies it (0 * inf is NaN); the bias,
** the residual and the clamp are the ops' own float32 operations, in
** their order.  Vectors only compute many outputs at once.
*/

/* A float conv and what its store does. */
typedef struct Fconv {
	Conv v;
	int dw;                 /* depthwise: groups == C == O, one input channel each */
	NodeId cv, ba, add, act;    /* the nn.conv2d; the bias_add, add, relu or clip after it, or 0 */
	NodeId other;           /* add's other operand */
	int otherfirst;         /* it is add's operand 0 */
	Val w, bias;            /* the constant weights and bias (bias.p NULL: none) */
	double lo, hi;          /* clip's bounds */
} Fconv;

/* fsplat: an <n x T> of the scalar x of type T */
static LLVMValueRef
fsplat(G *g, LLVMValueRef x, unsigned n)
{
	LLVMTypeRef vt = LLVMVectorType(LLVMTypeOf(x), n);
	LLVMValueRef v = LLVMBuildInsertElement(g->b, LLVMGetUndef(vt), x, c32(g, 0), "");

	return LLVMBuildShuffleVector(g->b, v, LLVMGetUndef(vt), LLVMConstNull(LLVMVectorType(g->i32, n)), "");
}

/* fvec: a pointer to the <n x float> at element ix (i64) of the float
** buffer p, alignment 4 */
static LLVMValueRef
fvec(G *g, LLVMValueRef p, LLVMValueRef ix, unsigned n)
{
	return LLVMBuildBitCast(g->b, gep(g, p, DT_FLOAT32, ix), LLVMPointerType(LLVMVectorType(g->f32, n), 0), "");
}

/* fld, fst: a load and a store of the <n x float> at q (fvec), alignment 4 */
static LLVMValueRef
fld(G *g, LLVMValueRef q, unsigned n)
{
	LLVMValueRef l = LLVMBuildLoad2(g->b, LLVMVectorType(g->f32, n), q, "");

	LLVMSetAlignment(l, 4);
	return l;
}

static void
fst(G *g, LLVMValueRef q, LLVMValueRef x)
{
	LLVMSetAlignment(LLVMBuildStore(g->b, x, q), 4);
}

/* fisf32: node n's type is a float32 tensor of rank r (or any rank, r < 0) */
static int
fisf32(const Module *m, NodeId n, int r)
{
	const Type *t = ir_type(m, m->nodes[n].type);

	return t->kind == TY_TENSOR && t->dtype == DT_FLOAT32 && (r < 0 || (int)t->n == r);
}

/* fconv_plan: f for the chain ending at root (the nn.conv2d itself, or
** the bias_add, add, relu or clip after it), if the float path runs it;
** else 0.  Lowers nothing but the constant weights and bias. */
static int
fconv_plan(G *g, Scope *s, NodeId root, Fconv *f)
{
	const Module *m = g->m;
	NodeId n = root;
	Call c;
	Conv *v = &f->v;
	int64_t od[MAXD], xd[MAXD];

	memset(f, 0, sizeof *f);
	if ((isop(m, n, OP_NN_RELU) || isop(m, n, OP_CLIP)) && fisf32(m, n, 4)) {
		f->act = n;
		n = ir_arg(m, n, 0);
		if (!single(g, s, n))
			return 0;
	}
	if (isop(m, n, OP_ADD) && fisf32(m, n, 4)) {
		int i;
		for (i = 0; i < 2; i++) {
			NodeId a = ir_arg(m, n, i);
			if ((isop(m, a, OP_NN_BIAS_ADD) || isop(m, a, OP_NN_CONV2D)) && single(g, s, a))
				break;
		}
		if (i == 2)
			return 0;
		f->add = n;
		f->other = ir_arg(m, n, 1 - i);
		f->otherfirst = i == 1;
		/* the residual: a float32 tensor of the result's shape */
		if (!fisf32(m, f->other, 4) || tdims(m, m->nodes[n].type, od) != 4 || tdims(m, m->nodes[f->other].type, xd) != 4 ||
		    memcmp(od, xd, 4 * sizeof *od))
			return 0;
		n = ir_arg(m, n, i);
	}
	if (isop(m, n, OP_NN_BIAS_ADD) && fisf32(m, n, 4)) {
		NodeId b = ir_arg(m, n, 1);
		int64_t ax = aint(m, n, "axis");
		if ((ax != 1 && ax != -3) || m->nodes[b].kind != NK_CONST || !fisf32(m, b, 1))
			return 0;
		f->ba = n;
		n = ir_arg(m, n, 0);
		if (n != root && !single(g, s, n))
			return 0;
	}
	if (!isop(m, n, OP_NN_CONV2D) || m->nodes[ir_arg(m, n, 1)].kind != NK_CONST || !fisf32(m, n, 4) ||
	    !fisf32(m, ir_arg(m, n, 0), 4) || !fisf32(m, ir_arg(m, n, 1), 4))
		return 0;
	f->cv = n;
	if (!callargs(g, s, n, &c, 1) || !convgeom(g, &c, v, 1) || !densenchw(v->ist, v->C, v->H, v->W) ||
	    !densenchw(v->ost, v->O, v->OH, v->OW) || v->KH < 1 || v->KW < 1 || v->sh < 1 || v->sw < 1 || v->dh < 1 ||
	    v->dw < 1 || v->pt < 0 || v->pl < 0 || v->pb < 0 || v->pr < 0 || v->OH < 1 || v->OW < 1 || v->C < 1)
		return 0;
	f->dw = v->G > 1 && v->G == v->C && v->O == v->C;
	if (v->G != 1 && (!f->dw || v->KH * v->KW > 64))
		return 0;
	f->w = c.a[1];
	if (f->ba) {
		f->bias = lower(g, s, ir_arg(m, f->ba, 1));
		if (ir_type_numel(m, m->nodes[ir_arg(m, f->ba, 1)].type) != v->O)
			return 0;
	}
	if (f->act && isop(m, f->act, OP_CLIP)) {
		f->lo = attr(m, f->act, "a_min")->u.f;
		f->hi = attr(m, f->act, "a_max")->u.f;
	}
	return 1;
}

/* fepi: the residual add (of the n elements at q, or none) and the
** clamp of f on the <n x float> y, as ew_binary and ew_unary do them */
static LLVMValueRef
fepi(G *g, const Fconv *f, LLVMValueRef y, LLVMValueRef q)
{
	LLVMTypeRef vt = LLVMTypeOf(y);
	unsigned n = LLVMGetVectorSize(vt);

	if (q) {
		LLVMValueRef o = fld(g, q, n);
		y = f->otherfirst ? LLVMBuildFAdd(g->b, o, y, "") : LLVMBuildFAdd(g->b, y, o, "");
	}
	if (f->act && isop(g->m, f->act, OP_NN_RELU))
		y = LLVMBuildSelect(g->b, LLVMBuildFCmp(g->b, LLVMRealOGT, y, LLVMConstNull(vt), ""), y, LLVMConstNull(vt), "");
	else if (f->act) {
		y = fminmax(g, y, fsplat(g, LLVMConstReal(g->f32, (double)(float)f->hi), n), 0);
		y = fminmax(g, y, fsplat(g, LLVMConstReal(g->f32, (double)(float)f->lo), n), 1);
	}
	return y;
}

/* fpbof, fobbof: pixels and channel blocks per step of the one-group
** kernel: 8 x 2 vectors in AVX-512's 32 registers, else 4 x 1 */
static int fpbof(const G *g) { return g->lanes == 16 ? 8 : 4; }
static int fobbof(const G *g) { return g->lanes == 16 ? 2 : 1; }

enum { FPB = 8, FOBB = 2, FDV = 4, FKW = 8 };   /* most of fpbof, fobbof; vectors per depthwise step; kernel columns unrolled */

/* fconv_block: the one-group kernel of f on pb pixels from ow0 of row oh
** and obb channel blocks from ob, on the padded data P ([N][C][Hp][Wp]),
** the weights W and the bias B ([O / 16][16], or NULL); stores into out,
** with the residual from res (or NULL), channels past O to and from
** scratch */
static void
fconv_block(G *g, const Fconv *f, LLVMValueRef P, LLVMValueRef W, LLVMValueRef B, LLVMValueRef res, LLVMValueRef out,
            LLVMValueRef scratch, LLVMValueRef n, LLVMValueRef ob, LLVMValueRef oh, LLVMValueRef ow0, int pb, int obb,
            int64_t Hp, int64_t Wp)
{
	const Conv *v = &f->v;
	LLVMTypeRef fv = LLVMVectorType(g->f32, VL), pv = LLVMPointerType(LLVMVectorType(g->f32, (unsigned)pb), 0);
	LLVMValueRef acc[FOBB][FPB], wv[FOBB], y[FPB], col[VL], ic, kh, kw = NULL, row, x, base;
	Loop l[3];

	for (int j = 0; j < obb; j++)
		for (int p = 0; p < pb; p++) {
			acc[j][p] = entry_alloca(g, fv);
			LLVMBuildStore(g->b, LLVMConstNull(fv), acc[j][p]);
		}
	ic = loop_open(g, &l[0], 0, v->C, 1);
	kh = loop_open(g, &l[1], 0, v->KH, 1);
	if (v->KW > FKW)
		kw = loop_open(g, &l[2], 0, v->KW, 1);
	for (int64_t u = 0; u < (v->KW > FKW ? 1 : v->KW); u++) {    /* the kernel columns, unrolled up to FKW */
		if (v->KW <= FKW)
			kw = c64(g, u);
		for (int j = 0; j < obb; j++) {
			LLVMValueRef wi = add64(g, mul64(g, add64(g, mul64(g, add64(g, mul64(g, add64(g, ob, c64(g, j)), v->C), ic), v->KH), kh), v->KW), kw);
			wv[j] = LLVMBuildLoad2(g->b, fv, LLVMBuildInBoundsGEP2(g->b, fv, LLVMBuildBitCast(g->b, W, LLVMPointerType(fv, 0), ""), &wi, 1, ""), "");
			LLVMSetAlignment(wv[j], 64);
		}
		row = add64(g, mul64(g, add64(g, mul64(g, add64(g, mul64(g, n, v->C), ic), Hp), add64(g, mul64(g, oh, v->sh), mul64(g, kh, v->dh))), Wp),
		            mul64(g, kw, v->dw));
		for (int p = 0; p < pb; p++) {
			x = fsplat(g, ld(g, P, DT_FLOAT32, add64(g, row, mul64(g, add64(g, ow0, c64(g, p)), v->sw))), VL);
			for (int j = 0; j < obb; j++)
				LLVMBuildStore(g->b, LLVMBuildFAdd(g->b, LLVMBuildLoad2(g->b, fv, acc[j][p], ""), LLVMBuildFMul(g->b, x, wv[j], ""), ""),
				               acc[j][p]);
		}
	}
	for (int k = v->KW > FKW ? 2 : 1; k >= 0; k--)
		loop_close(g, &l[k]);
	base = add64(g, add64(g, mul64(g, n, v->ost[0]), mul64(g, oh, v->ost[2])), ow0);
	for (int j = 0; j < obb; j++) {
		LLVMValueRef obj = add64(g, ob, c64(g, j));
		for (int p = 0; p < pb; p++) {
			y[p] = LLVMBuildLoad2(g->b, fv, acc[j][p], "");
			if (B)
				y[p] = LLVMBuildFAdd(g->b, y[p], fld(g, fvec(g, B, mul64(g, obj, VL), VL), VL), "");
		}
		vtranspose(g, y, pb, VL, col);
		for (int k = 0; k < VL; k++) {
			LLVMValueRef o = add64(g, mul64(g, obj, VL), c64(g, k)), off = add64(g, base, mul64(g, o, v->ost[1]));
			LLVMValueRef q = LLVMBuildBitCast(g->b, gep(g, out, DT_FLOAT32, off), pv, "");
			LLVMValueRef rq = res ? LLVMBuildBitCast(g->b, gep(g, res, DT_FLOAT32, off), pv, "") : NULL, in;
			if (v->O % VL) {
				in = LLVMBuildICmp(g->b, LLVMIntSLT, o, c64(g, v->O), "");
				q = LLVMBuildSelect(g->b, in, q, LLVMBuildBitCast(g->b, scratch, pv, ""), "");
				if (rq)
					rq = LLVMBuildSelect(g->b, in, rq, LLVMBuildBitCast(g->b, scratch, pv, ""), "");
			}
			fst(g, q, fepi(g, f, col[k], rq));
		}
	}
}

/* fpad: P, the data x copied into the interior of a zero buffer
** [N][C][Hp][ph][Wq] (+ slack elements), each padded row split into its
** ph column phases (column c at phase c % ph, index c / ph); x itself
** where that is the same (no padding, one phase, no slack) */
static LLVMValueRef
fpad(G *g, const Conv *v, LLVMValueRef x, int64_t ph, int64_t slack)
{
	int64_t Hp = v->H + v->pt + v->pb, Wp = v->W + v->pl + v->pr, Wq = (Wp + ph - 1) / ph;
	LLVMValueRef P, nc, h, j, src, dst;
	Loop l[3];

	if (!v->pt && !v->pl && !v->pb && !v->pr && ph == 1 && !slack)
		return x;
	P = newbuf(g, (size_t)((v->N * v->C * Hp * ph * Wq + slack) * 4), 64);
	nc = loop_open(g, &l[0], 0, v->N * v->C, 1);
	h = loop_open(g, &l[1], 0, v->H, 1);
	src = mul64(g, add64(g, mul64(g, nc, v->H), h), v->W);
	dst = mul64(g, add64(g, mul64(g, nc, Hp), add64(g, h, c64(g, v->pt))), ph * Wq);
	if (ph == 1) {
		LLVMBuildMemCpy(g->b, gep(g, P, DT_FLOAT32, add64(g, dst, c64(g, v->pl))), 4,
		                gep(g, x, DT_FLOAT32, src), 4, c64(g, v->W * 4));
	} else {
		/* phase r holds the padded columns j * ph + r: data column j * ph + r - pl */
		for (int64_t r = 0; r < ph; r++) {
			int64_t jlo = (v->pl - r + ph - 1) / ph, jhi = (v->pl + v->W - 1 - r) / ph + 1;
			if (jlo < 0)
				jlo = 0;
			if (v->pl + v->W - 1 - r < 0 || jlo >= jhi)
				continue;
			j = loop_open(g, &l[2], jlo, jhi, 1);
			st(g, P, DT_FLOAT32, add64(g, dst, add64(g, c64(g, r * Wq), j)),
			   ld(g, x, DT_FLOAT32, add64(g, src, add64(g, mul64(g, j, ph), c64(g, r - v->pl)))));
			loop_close(g, &l[2]);
		}
	}
	loop_close(g, &l[1]);
	loop_close(g, &l[0]);
	return P;
}

/* fconv_dense: the one-group conv f of x into out (residual res, or NULL) */
static void
fconv_dense(G *g, const Fconv *f, LLVMValueRef x, LLVMValueRef res, LLVMValueRef out)
{
	const Conv *v = &f->v;
	int64_t OB = (v->O + VL - 1) / VL, nw = OB * v->C * v->KH * v->KW * VL, Hp = v->H + v->pt + v->pb, Wp = v->W + v->pl + v->pr;
	int pbm = fpbof(g), obm = fobbof(g);
	int64_t obf = OB - OB % obm, owf = v->OW - v->OW % pbm;
	const unsigned char *wd, *bd;
	TypeId wt;
	float *wr = ir_xcalloc((size_t)nw, sizeof *wr);
	LLVMValueRef P = fpad(g, v, x, 1, 0), W, B = NULL, scratch = newbuf(g, FPB * 4, 64), n, ob, oh, ow, t;
	Loop l[4];
	Par pr;

	wd = cdata(g, f->w, &wt);
	for (int64_t o = 0; o < v->O; o++)
		for (int64_t ic = 0; ic < v->C; ic++)
			for (int64_t kh = 0; kh < v->KH; kh++)
				for (int64_t kw = 0; kw < v->KW; kw++)
					memcpy(&wr[((((o / VL) * v->C + ic) * v->KH + kh) * v->KW + kw) * VL + o % VL],
					       wd + 4 * (o * v->kst[0] + ic * v->kst[1] + kh * v->kst[2] + kw * v->kst[3]), 4);
	W = constbuf(g, wr, (size_t)nw * 4);
	if ((bd = cdata(g, f->bias, &wt))) {
		memset(wr, 0, (size_t)(OB * VL) * sizeof *wr);
		memcpy(wr, bd, (size_t)v->O * sizeof *wr);
		B = constbuf(g, wr, (size_t)(OB * VL) * sizeof *wr);
	}
	free(wr);
	for (int part = 0; part < 2; part++) {
		int obb = part ? 1 : obm;
		int64_t ob0 = part ? obf : 0, nb = ((part ? OB : obf) - ob0) / obb;
		if (nb == 0)
			continue;
		/* image, channel block and row in one index, split among threads
		   (consecutive indices: the rows of one block, as before) */
		t = par_open(g, &pr, v->N * nb * v->OH);
		n = LLVMBuildUDiv(g->b, t, c64(g, nb * v->OH), "");
		ob = add64(g, mul64(g, LLVMBuildURem(g->b, LLVMBuildUDiv(g->b, t, c64(g, v->OH), ""), c64(g, nb), ""), obb), c64(g, ob0));
		oh = LLVMBuildURem(g->b, t, c64(g, v->OH), "");
		if (owf > 0) {
			ow = loop_open(g, &l[3], 0, owf, pbm);
			fconv_block(g, f, P, W, B, res, out, scratch, n, ob, oh, ow, pbm, obb, Hp, Wp);
			loop_close(g, &l[3]);
		}
		if (owf < v->OW)
			fconv_block(g, f, P, W, B, res, out, scratch, n, ob, oh, c64(g, owf), (int)(v->OW - owf), obb, Hp, Wp);
		par_close(g, &pr);
	}
}

/* fdw_block: the depthwise kernel of f on nv vectors of 16 pixels from
** ow0 of row oh of channel c of image and channel nc (n * C + c), the
** last with nl lanes stored, on the phase-split data P (fpad, sw
** phases); stores into out, with the residual from res (or NULL) */
static void
fdw_block(G *g, const Fconv *f, LLVMValueRef P, LLVMValueRef res, LLVMValueRef out, LLVMValueRef nc, LLVMValueRef c,
          LLVMValueRef oh, LLVMValueRef ow0, int nv, int nl)
{
	const Conv *v = &f->v;
	int64_t Hp = v->H + v->pt + v->pb, Wp = v->W + v->pl + v->pr, s = v->sw, Wq = (Wp + s - 1) / s;
	LLVMTypeRef fv = LLVMVectorType(g->f32, VL);
	LLVMValueRef acc[FDV], mask[VL], base, b = NULL;

	for (int q = 0; q < nv; q++)
		acc[q] = LLVMConstNull(fv);
	for (int64_t kh = 0; kh < v->KH; kh++) {
		LLVMValueRef row = mul64(g, add64(g, mul64(g, nc, Hp), add64(g, mul64(g, oh, v->sh), c64(g, kh * v->dh))), s * Wq);
		for (int64_t kw = 0; kw < v->KW; kw++) {
			int64_t t = kw * v->dw;
			LLVMValueRef ix = add64(g, add64(g, row, c64(g, (t % s) * Wq + t / s)), ow0), wk;
			wk = fsplat(g, ld(g, f->w.p, DT_FLOAT32, add64(g, mul64(g, c, v->kst[0]), c64(g, kh * v->kst[2] + kw * v->kst[3]))), VL);
			for (int q = 0; q < nv; q++)
				acc[q] = LLVMBuildFAdd(g->b, acc[q], LLVMBuildFMul(g->b, fld(g, fvec(g, P, add64(g, ix, c64(g, q * VL)), VL), VL), wk, ""), "");
		}
	}
	if (f->bias.p)
		b = fsplat(g, ld(g, f->bias.p, DT_FLOAT32, c), VL);
	base = add64(g, add64(g, mul64(g, nc, v->OH * v->OW), mul64(g, oh, v->OW)), ow0);
	for (int i = 0; i < VL; i++)
		mask[i] = c32(g, i);
	for (int q = 0; q < nv; q++) {
		unsigned n = q == nv - 1 ? (unsigned)nl : VL;
		LLVMValueRef y = b ? LLVMBuildFAdd(g->b, acc[q], b, "") : acc[q], off = add64(g, base, c64(g, q * VL));
		if (n < VL)
			y = LLVMBuildShuffleVector(g->b, y, y, LLVMConstVector(mask, n), "");
		fst(g, fvec(g, out, off, n), fepi(g, f, y, res ? fvec(g, res, off, n) : NULL));
	}
}

/* fconv_dw: the depthwise conv f of x into out (residual res, or NULL):
** blocks of FDV vectors along each output row, then the rest */
static void
fconv_dw(G *g, const Fconv *f, LLVMValueRef x, LLVMValueRef res, LLVMValueRef out)
{
	const Conv *v = &f->v;
	int64_t bw = FDV * VL, fb = v->OW / bw * bw, rest = v->OW - fb;
	LLVMValueRef P = fpad(g, v, x, v->sw, VL), nc, c, oh, ow;
	Loop l[3];
	Par pr;

	nc = par_open(g, &pr, v->N * v->C);    /* the channel planes, split among threads */
	c = LLVMBuildSRem(g->b, nc, c64(g, v->C), "");
	oh = loop_open(g, &l[1], 0, v->OH, 1);
	if (fb) {
		ow = loop_open(g, &l[2], 0, fb, bw);
		fdw_block(g, f, P, res, out, nc, c, oh, ow, FDV, VL);
		loop_close(g, &l[2]);
	}
	if (rest)
		fdw_block(g, f, P, res, out, nc, c, oh, c64(g, fb), (int)((rest + VL - 1) / VL), (int)(rest - (rest - 1) / VL * VL));
	loop_close(g, &l[1]);
	par_close(g, &pr);
}

/* fconv_root: lowers n, an nn.conv2d or the end of a chain after one
** (fconv_plan), on the float path if it applies; 0 if not (nothing
** emitted but constants) */
static int
fconv_root(G *g, Scope *s, NodeId n, Val *res)
{
	const Module *m = g->m;
	Fconv f;
	Val x, o = { 0 };

	if (!fconv_plan(g, s, n, &f))
		return 0;
	x = lower(g, s, ir_arg(m, f.cv, 0));
	if (f.add)
		o = lower(g, s, f.other);
	*res = tensorbuf(g, m->nodes[n].type);
	if (!x.p || (f.add && !o.p))
		return 1;       /* after an error */
	if (f.dw)
		fconv_dw(g, &f, x.p, o.p, res->p);
	else
		fconv_dense(g, &f, x.p, o.p, res->p);
	return 1;
}

/* fconv_fused: the operand of n that the float path lowers inside n's
** own kernel (fconv_plan), which opfn must not lower first; -1 if none */
static int
fconv_fused(G *g, Scope *s, NodeId n)
{
	Fconv f;

	if (!fconv_plan(g, s, n, &f) || n == f.cv)
		return -1;
	return n == f.add ? f.otherfirst : 0;
}

/* fdense_block: out[m][nb * 16 ..] for nv vectors of outputs from
** block nb (the last with nl lanes stored) of fdense's data x ([M][K])
** and weights W ([N / 16][K][16]) */
static void
fdense_block(G *g, LLVMValueRef x, LLVMValueRef W, LLVMValueRef out, LLVMValueRef m, LLVMValueRef nb, int nv, int nl,
             int64_t K, int64_t N)
{
	LLVMTypeRef fv = LLVMVectorType(g->f32, VL);
	LLVMValueRef acc[FDV], mask[VL], k, xs, wi, w, base;
	Loop l;

	for (int j = 0; j < nv; j++) {
		acc[j] = entry_alloca(g, fv);
		LLVMBuildStore(g->b, LLVMConstNull(fv), acc[j]);
	}
	k = loop_open(g, &l, 0, K, 1);
	xs = fsplat(g, ld(g, x, DT_FLOAT32, add64(g, mul64(g, m, K), k)), VL);
	for (int j = 0; j < nv; j++) {
		wi = add64(g, mul64(g, add64(g, nb, c64(g, j)), K), k);
		w = LLVMBuildLoad2(g->b, fv, LLVMBuildInBoundsGEP2(g->b, fv, LLVMBuildBitCast(g->b, W, LLVMPointerType(fv, 0), ""), &wi, 1, ""), "");
		LLVMSetAlignment(w, 64);
		LLVMBuildStore(g->b, LLVMBuildFAdd(g->b, LLVMBuildLoad2(g->b, fv, acc[j], ""), LLVMBuildFMul(g->b, xs, w, ""), ""), acc[j]);
	}
	loop_close(g, &l);
	base = add64(g, mul64(g, m, N), mul64(g, nb, VL));
	for (int i = 0; i < VL; i++)
		mask[i] = c32(g, i);
	for (int j = 0; j < nv; j++) {
		unsigned n = j == nv - 1 ? (unsigned)nl : VL;
		LLVMValueRef y = LLVMBuildLoad2(g->b, fv, acc[j], "");
		if (n < VL)
			y = LLVMBuildShuffleVector(g->b, y, y, LLVMConstVector(mask, n), "");
		fst(g, fvec(g, out, add64(g, base, c64(g, j * VL)), n), y);
	}
}

/* fdense: nn.dense of float32 data x[..., K] and constant float32
** weights w[N, K] into float32, on the float path: the weights
** rearranged at compile time into [N / 16][K][16], 16 outputs to a
** vector and FDV vectors a step, each output summed over k from +0
** (fmul, fadd), as dense() and ref sum it; 0 if it does not apply
** (nothing emitted) */
static int
fdense(G *g, Call *c, Val *res)
{
	int64_t K = c->ar[0] ? c->ad[0][c->ar[0] - 1] : 0, N = c->ad[1][0], M, NB, NF;
	const unsigned char *wd;
	TypeId wt;
	float *wr;
	LLVMValueRef W, m, nb;
	Loop l[2];

	if (c->odt != DT_FLOAT32 || c->adt[0] != DT_FLOAT32 || c->adt[1] != DT_FLOAT32 || c->ar[1] != 2 ||
	    c->ad[1][1] != K || K < 1 || N < 1 || !(wd = cdata(g, c->a[1], &wt)))
		return 0;
	M = ir_type_numel(c->m, c->at[0]) / K;
	NB = (N + VL - 1) / VL;
	NF = N / VL / FDV * FDV;
	wr = ir_xcalloc((size_t)(NB * K * VL), sizeof *wr);
	for (int64_t n = 0; n < N; n++)
		for (int64_t k = 0; k < K; k++)
			memcpy(&wr[((n / VL) * K + k) * VL + n % VL], wd + 4 * (n * K + k), 4);
	W = constbuf(g, wr, (size_t)(NB * K * VL) * sizeof *wr);
	free(wr);
	*res = tensorbuf(g, c->ot);
	m = loop_open(g, &l[0], 0, M, 1);
	if (NF) {
		nb = loop_open(g, &l[1], 0, NF, FDV);
		fdense_block(g, c->a[0].p, W, res->p, m, nb, FDV, VL, K, N);
		loop_close(g, &l[1]);
	}
	for (int64_t b = NF; b < NB; b += FDV) {
		int nv = (int)(NB - b < FDV ? NB - b : FDV);
		fdense_block(g, c->a[0].p, W, res->p, m, c64(g, b), nv, b + nv == NB && N % VL ? (int)(N % VL) : VL, K, N);
	}
	loop_close(g, &l[0]);
	return 1;
}

static Val
conv2d(G *g, Call *c, int q)
{
	Conv v;
	Val r;

	if (!convgeom(g, c, &v, 0))
		return tensorbuf(g, c->ot);
	if (q && conv_fast(g, c, &v, &r))
		return r;
	return conv_generic(g, c, &v, q);
}

/* ---------------------------------------------------------------- plugin ops' C kernels */

/* kcall: op call c of a plugin's op with a C kernel (ref/kernel.h): its
** operands and result as graft_tensors on the stack, its attributes
** (ref_kattrs) a constant array, and the kernel called by its symbol,
** which the JIT binds to the loaded kernel (kdefine) and an object file
** leaves to the linker; a nonzero return sets 4 in the entry's error */
static Val
kcall(G *g, Call *c)
{
	const Module *m = g->m;
	OpId op = m->nodes[c->n].op;
	const OpInfo *o = &ir_ops[op];
	uint32_t nin = m->nodes[c->n].nargs;
	const char *sym;
	LLVMTypeRef tt = LLVMStructTypeInContext(g->cx, (LLVMTypeRef[]){ g->p8, g->p8, g->i32, g->i32 }, 4, 0);
	LLVMTypeRef at = LLVMStructTypeInContext(g->cx, (LLVMTypeRef[]){ g->i32, g->i32, g->i64, g->f64, g->p8, g->p8,
	                                                                 g->p8 }, 7, 0);
	LLVMTypeRef fty = LLVMFunctionType(g->i32, (LLVMTypeRef[]){ g->p8, g->i32, g->p8, g->i32, g->p8 }, 5, 0);
	LLVMValueRef ins, outs, fn, *av, attrs, rc, err;
	graft_attr *ka;
	void *mem;
	Val r;

	ref_ckernel(op, &sym);
	for (uint32_t i = 0; i < nin && i < 8; i++)
		if (ir_type(m, c->at[i])->kind != TY_TENSOR || !c->a[i].p)
			nin = 9;
	if (ir_type(m, c->ot)->kind != TY_TENSOR || nin > 8) {
		refuse(g, c->n, "its C kernel takes at most 8 tensors and gives one");
		return ir_type(m, c->ot)->kind == TY_TENSOR ? tensorbuf(g, c->ot) : (Val){ 0 };
	}
	r = tensorbuf(g, c->ot);
	/* the tensors: data, a constant shape, rank, GRAFT_DT_ code */
	ins = LLVMBuildAlloca(g->b, LLVMArrayType(tt, nin ? nin : 1), "k.in");
	outs = LLVMBuildAlloca(g->b, tt, "k.out");
	for (uint32_t i = 0; i <= nin; i++) {
		LLVMValueRef p = i < nin ? LLVMBuildInBoundsGEP2(g->b, LLVMArrayType(tt, nin), ins,
		                                                 (LLVMValueRef[]){ c64(g, 0), c64(g, i) }, 2, "") : outs;
		const int64_t *dims = i < nin ? c->ad[i] : c->od;
		int rank = i < nin ? c->ar[i] : c->orank;
		DType dt = i < nin ? c->adt[i] : c->odt;
		LLVMValueRef f[4] = { i < nin ? c->a[i].p : r.p, constbuf(g, dims, (size_t)rank * 8), c32(g, rank),
		                      c32(g, ref_kdtype(dt)) };
		for (unsigned k = 0; k < 4; k++)
			LLVMBuildStore(g->b, f[k], LLVMBuildStructGEP2(g->b, tt, p, k, ""));
	}
	/* the attributes, as the C backend and ref give them */
	ka = ir_xcalloc((size_t)o->nattrs + 1, sizeof *ka);
	mem = ref_kattrs(m, op, ir_attrs(m, c->n), ka);
	av = ir_xcalloc((size_t)o->nattrs + 1, sizeof *av);
	for (int k = 0; k < o->nattrs; k++) {
		const graft_attr *a = &ka[k];
		LLVMValueRef nul = LLVMConstNull(g->p8);
		LLVMValueRef f[7] = { c32(g, a->kind), c32(g, a->n), c64(g, a->i), LLVMConstReal(g->f64, a->f),
		                      a->kind == GRAFT_ATTR_INTS ? constbuf(g, a->ints, (size_t)a->n * 8) : nul,
		                      a->kind == GRAFT_ATTR_FLOATS ? constbuf(g, a->floats, (size_t)a->n * 8) : nul,
		                      a->kind == GRAFT_ATTR_STRING ? constbuf(g, a->s, (size_t)a->n + 1) : nul };
		av[k] = LLVMConstStructInContext(g->cx, f, 7, 0);
	}
	if (!o->nattrs)
		av[0] = LLVMConstNull(at);
	attrs = LLVMAddGlobal(g->mod, LLVMArrayType(at, o->nattrs ? (unsigned)o->nattrs : 1), "k.attrs");
	LLVMSetLinkage(attrs, LLVMInternalLinkage);
	LLVMSetInitializer(attrs, LLVMConstArray(at, av, o->nattrs ? (unsigned)o->nattrs : 1));
	LLVMSetGlobalConstant(attrs, 1);
	free(av);
	free(mem);
	free(ka);
	/* the call, and its error */
	if (!(fn = LLVMGetNamedFunction(g->mod, sym)))
		fn = LLVMAddFunction(g->mod, sym, fty);
	rc = LLVMBuildCall2(g->b, fty, fn, (LLVMValueRef[]){ LLVMBuildBitCast(g->b, ins, g->p8, ""), c32(g, nin),
	                    LLVMBuildBitCast(g->b, outs, g->p8, ""), c32(g, 1), LLVMConstBitCast(attrs, g->p8) }, 5, "");
	err = LLVMBuildLoad2(g->b, g->i32, g->err, "");
	LLVMBuildStore(g->b, LLVMBuildOr(g->b, err, LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntNE, rc, c32(g, 0), ""),
	                                                             c32(g, 4), c32(g, 0), ""), ""), g->err);
	return r;
}

/* kdefine: the JIT's definitions of the C kernels' symbols (kcall), at
** the kernels registered in this process; NULL, or LLVM's error */
static LLVMErrorRef
kdefine(LLVMOrcLLJITRef jit)
{
	LLVMJITCSymbolMapPair sym[IR_MAXOPS];
	const char *names[IR_MAXOPS];
	size_t n = 0;

	for (OpId op = OP_COUNT; op < ir_op_count(); op++) {
		const char *name;
		graft_kernel *fn = ref_ckernel(op, &name);
		size_t k = 0;
		while (fn && k < n && strcmp(names[k], name) != 0)
			k++;
		if (!fn || k < n)
			continue;       /* none, or one kernel for two ops */
		names[n] = name;
		sym[n++] = (LLVMJITCSymbolMapPair){ LLVMOrcLLJITMangleAndIntern(jit, name),
		                                    { (LLVMOrcExecutorAddress)(uintptr_t)fn,
		                                      { LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable, 0 } } };
	}
	return n ? LLVMOrcJITDylibDefine(LLVMOrcLLJITGetMainJITDylib(jit), LLVMOrcAbsoluteSymbols(sym, n)) : NULL;
}

/* ---------------------------------------------------------------- nodes */

/* callargs: c for the op call n, its operands lowered (all but operand 0
** with skip0, and those FUSED, whose types are still filled in; none
** with s NULL); 0 if an operand failed (after an error) */
static int
callargs(G *g, Scope *s, NodeId n, Call *c, int skip0)
{
	const Module *m = g->m;
	const Node *nd = &m->nodes[n];

	memset(c, 0, sizeof *c);
	c->n = n;
	c->m = m;
	c->s = s;
	c->ot = nd->type;
	for (uint32_t i = 0; i < nd->nargs && i < 8; i++) {
		NodeId a = ir_arg(m, n, i);
		int low = s && (i || !skip0) && s->done[a] != FUSED;
		if (low)
			c->a[i] = lower(g, s, a);
		c->at[i] = m->nodes[a].type;
		if (ir_type(m, c->at[i])->kind == TY_TENSOR) {
			c->ar[i] = tdims(m, c->at[i], c->ad[i]);
			c->adt[i] = tdt(m, c->at[i]);
			if (!c->a[i].p && low)
				return 0;
		}
	}
	if (ir_type(m, c->ot)->kind == TY_TENSOR) {
		c->orank = tdims(m, c->ot, c->od);
		c->odt = tdt(m, c->ot);
	}
	return 1;
}

/* h16ok: whether call c's float16 operands and result, if any, are
** supported: elementwise ops (computed in float, rounded to half once),
** data movement, reductions, pools, softmax, dense, batch_matmul and
** conv2d (summed in float, rounded to half at each step as the
** reference rounds them) and dequantize */
static int
h16ok(const Call *c)
{
	int any = c->odt == DT_FLOAT16;

	for (int i = 0; i < 8; i++)
		any |= c->adt[i] == DT_FLOAT16;
	if (!any)
		return 1;
	switch (c->m->nodes[c->n].op) {
	case OP_ADD: case OP_SUBTRACT: case OP_MULTIPLY: case OP_DIVIDE: case OP_MAXIMUM: case OP_MINIMUM: case OP_POWER:
	case OP_EXP: case OP_RSQRT: case OP_SIGMOID: case OP_TANH: case OP_SQRT: case OP_LOG:
	case OP_ABS: case OP_NEGATIVE: case OP_FLOOR: case OP_CEIL: case OP_NN_LEAKY_RELU: case OP_NN_RELU: case OP_CAST:
	case OP_EQUAL: case OP_NOT_EQUAL: case OP_LESS: case OP_LESS_EQUAL: case OP_GREATER: case OP_GREATER_EQUAL:
	case OP_WHERE: case OP_ERF: case OP_ISNAN: case OP_ISINF: case OP_ISFINITE: case OP_ROUND: case OP_SIGN:
	case OP_ACOS: case OP_ACOSH: case OP_ASIN: case OP_ASINH: case OP_ATAN: case OP_ATANH: case OP_COS: case OP_COSH: case OP_SIN: case OP_SINH: case OP_TAN:
	case OP_CLIP: case OP_NN_BIAS_ADD: case OP_MOD: case OP_FLOOR_MOD:
	case OP_ANNOTATION_CAST_HINT: case OP_ANNOTATION_STOP_FUSION:
	case OP_RESHAPE: case OP_SQUEEZE: case OP_EXPAND_DIMS: case OP_NN_BATCH_FLATTEN:
	case OP_TRANSPOSE: case OP_LAYOUT_TRANSFORM: case OP_STRIDED_SLICE: case OP_TAKE: case OP_GATHER:
	case OP_CONCATENATE: case OP_SPLIT: case OP_BROADCAST_TO: case OP_NN_PAD: case OP_IMAGE_RESIZE2D:
	case OP_SUM: case OP_PROD: case OP_MAX: case OP_MIN: case OP_ARGMAX: case OP_ARGMIN: case OP_MEAN:
	case OP_CUMSUM: case OP_CUMPROD: case OP_NN_SOFTMAX: case OP_EINSUM: case OP_NN_BATCH_NORM:
	case OP_NN_LAYER_NORM: case OP_NN_GROUP_NORM: case OP_NN_INSTANCE_NORM:
	case OP_NN_MAX_POOL2D: case OP_NN_AVG_POOL2D: case OP_NN_GLOBAL_AVG_POOL2D:
	case OP_NN_DENSE: case OP_NN_BATCH_MATMUL: case OP_NN_CONV2D: case OP_QNN_DEQUANTIZE:
		return 1;
	default:
		return 0;
	}
}

/* call: lowers the op call n whose operands are lowered */
static Val
call(G *g, Scope *s, NodeId n)
{
	const Module *m = g->m;
	const Node *nd = &m->nodes[n];
	Call c;
	Ew e;
	MapFn *f;
	int nin;
	Val fused;

	if (g->dot && (nd->op == OP_QNN_REQUANTIZE || nd->op == OP_QNN_CONV2D) && dot_root(g, s, n, &fused))
		return fused;
	if ((nd->op == OP_NN_CONV2D || nd->op == OP_NN_BIAS_ADD || nd->op == OP_ADD || nd->op == OP_NN_RELU ||
	     nd->op == OP_CLIP) && fconv_root(g, s, n, &fused))
		return fused;
	if (!callargs(g, s, n, &c, 0))
		return tensorbuf(g, c.ot);   /* after an error */
	if (ir_type(m, c.ot)->kind == TY_TENSOR && !h16ok(&c)) {
		refuse(g, n, "float16 is not supported");
		return tensorbuf(g, c.ot);
	}
	if (ewop(&c, &e, &f, &nin))
		return ewise(g, &c, nin, f, &e);
	switch (nd->op) {
	case OP_SUM: case OP_PROD: case OP_MAX: case OP_MIN: case OP_ARGMAX: case OP_ARGMIN:
		return reduce(g, &c);
	case OP_CLIP:       /* the rest ewop() took */
		if (clip_whole(m, n))
			return alias(&c);
		refuse(g, n, "a bound does not fit the dtype");
		return tensorbuf(g, c.ot);
	case OP_ANNOTATION_CAST_HINT: case OP_ANNOTATION_STOP_FUSION:
	case OP_RESHAPE: case OP_SQUEEZE: case OP_EXPAND_DIMS: case OP_NN_BATCH_FLATTEN:
		return alias(&c);
	case OP_QNN_QUANTIZE: return quantize(g, &c, 0);
	case OP_QNN_DEQUANTIZE: return quantize(g, &c, 1);
	case OP_QNN_REQUANTIZE: return requantize(g, &c);
	case OP_QNN_ADD: case OP_QNN_MUL: return qbinary(g, &c);
	case OP_NN_BIAS_ADD: return bias_add(g, &c);
	case OP_NN_PAD: return pad(g, &c);
	case OP_IMAGE_RESIZE2D: return resize(g, &c);
	case OP_TRANSPOSE: return transpose(g, &c);
	case OP_LAYOUT_TRANSFORM: return layout_transform(g, &c);
	case OP_EINSUM: return einsum(g, &c);
	case OP_NN_BATCH_NORM: return batch_norm(g, &c);
	case OP_NN_LAYER_NORM: case OP_NN_GROUP_NORM: case OP_NN_INSTANCE_NORM: return norm(g, &c);
	case OP_STRIDED_SLICE: return slice(g, &c);
	case OP_TAKE: case OP_GATHER: return take(g, &c);
	case OP_CONCATENATE: return concat(g, &c);
	case OP_QNN_CONCATENATE: return qconcat(g, &c);
	case OP_SPLIT: return split(g, &c);
	case OP_MEAN: return mean(g, &c);
	case OP_CUMSUM: case OP_CUMPROD: return scan(g, &c);
	case OP_NN_SOFTMAX: return softmax(g, &c);
	case OP_NN_GLOBAL_AVG_POOL2D: return global_avg_pool(g, &c);
	case OP_NN_MAX_POOL2D: return pool2d(g, &c, 0);
	case OP_NN_AVG_POOL2D: return pool2d(g, &c, 1);
	case OP_NN_DENSE: return dense(g, &c, 0);
	case OP_NN_BATCH_MATMUL: return batch_matmul(g, &c);
	case OP_QNN_DENSE: return dense(g, &c, 1);
	case OP_NN_CONV2D: return conv2d(g, &c, 0);
	case OP_QNN_CONV2D: return conv2d(g, &c, 1);
	default:
		if (ref_ckernel(nd->op, NULL))
			return kcall(g, &c);
		if (nd->op >= OP_COUNT) {
			refuse(g, n, "the plugin that registers it gives it no C kernel (graft_plugin_add_kernel_op)");
			return tensorbuf(g, c.ot);
		}
		break;
	}
	refuse(g, n, isint(e.dt) && nd->op != OP_NONE && (ir_ops[nd->op].flags & OPF_ELEM) ? "on integer operands it is not supported"
	                                                                                   : "the op is not supported");
	return ir_type(m, c.ot)->kind == TY_TENSOR ? tensorbuf(g, c.ot) : (Val){ 0 };
}

static void
scope_init(Scope *s, const Module *m)
{
	s->v = ir_xcalloc(m->nnodes, sizeof *s->v);
	s->done = ir_xcalloc(m->nnodes, 1);
	s->up = NULL;
	s->call = s->fn = 0;
}

static void
scope_free(Scope *s)
{
	free(s->v);
	free(s->done);
}

/* callee: the function literal that NK_CALLFN n calls, or 0 */
static NodeId
callee(const Module *m, NodeId n)
{
	NodeId f = ir_arg(m, n, 0);

	if (m->nodes[f].kind == NK_GLOBAL)
		return ir_global_find(m, m->nodes[f].aux);
	return m->nodes[f].kind == NK_FUNC ? f : 0;
}

/* unflat: the Val of type t whose tensors are bufs[*k...], depth first */
static Val
unflat(G *g, TypeId t, const LLVMValueRef *bufs, uint32_t *k)
{
	const Type *ty = ir_type(g->m, t);
	Val v = { 0 };

	if (ty->kind != TY_TUPLE) {
		v.p = bufs[(*k)++];
		return v;
	}
	v.nf = ty->n;
	v.f = ir_arena_alloc(&g->a, (ty->n ? ty->n : 1) * sizeof *v.f);
	for (uint32_t i = 0; i < ty->n; i++)
		v.f[i] = unflat(g, g->m->tylist[ty->first + i], bufs, k);
	return v;
}

/* callout: call n of partition f, which its target's codegen runs: the
** operands' and fresh results' addresses in two arrays, passed to
** be_ext_call with the partition's BeExt, whose address (like
** be_ext_call's) is a constant of this in-process code; a failure sets
** the entry's error flag */
static Val
callout(G *g, Scope *s, NodeId n, NodeId f)
{
	const Module *m = g->m;
	uint32_t nin = m->nodes[n].nargs - 1, nout = 0, k = 0;
	LLVMTypeRef pp = LLVMPointerType(g->p8, 0), fty;
	LLVMValueRef ina, outa, *bufs, args[3], rc, err;
	TypeId *tys;
	BeExt *x = NULL;
	Val v = { 0 };

	for (uint32_t i = 0; i < *g->next; i++)
		if ((*g->ext)[i]->fn == f)
			x = (*g->ext)[i];
	if (!x) {
		if (!(x = be_ext_new(m, f, g->d))) {
			g->errors++;
			return v;
		}
		*g->ext = ir_xrealloc(*g->ext, (*g->next + 1) * sizeof **g->ext);
		(*g->ext)[(*g->next)++] = x;
	}
	ina = LLVMBuildAlloca(g->b, LLVMArrayType(g->p8, nin ? nin : 1), "ext.in");
	for (uint32_t i = 0; i < nin; i++) {
		Val a = lower(g, s, ir_arg(m, n, i + 1));
		LLVMValueRef ix[2] = { c64(g, 0), c64(g, i) };
		if (!a.p) {
			ir_error(g->d, m->locs[n], "the llvm backend passes only tensors to @%s's codegen", x->name);
			g->errors++;
			return v;
		}
		LLVMBuildStore(g->b, a.p, LLVMBuildInBoundsGEP2(g->b, LLVMArrayType(g->p8, nin), ina, ix, 2, ""));
	}
	flattypes(m, m->nodes[n].type, NULL, &nout, 0);
	tys = ir_xcalloc(nout + 1, sizeof *tys);
	bufs = ir_xcalloc(nout + 1, sizeof *bufs);
	flattypes(m, m->nodes[n].type, tys, &k, nout);
	outa = LLVMBuildAlloca(g->b, LLVMArrayType(g->p8, nout ? nout : 1), "ext.out");
	for (uint32_t j = 0; j < nout; j++) {
		LLVMValueRef ix[2] = { c64(g, 0), c64(g, j) };
		bufs[j] = tensorbuf(g, tys[j]).p;
		LLVMBuildStore(g->b, bufs[j], LLVMBuildInBoundsGEP2(g->b, LLVMArrayType(g->p8, nout), outa, ix, 2, ""));
	}
	fty = LLVMFunctionType(g->i32, (LLVMTypeRef[]){ g->p8, pp, pp }, 3, 0);
	args[0] = LLVMConstIntToPtr(c64(g, (int64_t)(uintptr_t)x), g->p8);
	args[1] = LLVMBuildBitCast(g->b, ina, pp, "");
	args[2] = LLVMBuildBitCast(g->b, outa, pp, "");
	rc = LLVMBuildCall2(g->b, fty, LLVMConstIntToPtr(c64(g, (int64_t)(uintptr_t)be_ext_call),
	                                                 LLVMPointerType(fty, 0)), args, 3, "");
	err = LLVMBuildLoad2(g->b, g->i32, g->err, "");
	LLVMBuildStore(g->b, LLVMBuildOr(g->b, err, LLVMBuildZExt(g->b, LLVMBuildICmp(g->b, LLVMIntNE, rc, c32(g, 0), ""),
	                                                           g->i32, ""), ""), g->err);
	k = 0;
	v = unflat(g, m->nodes[n].type, bufs, &k);
	free(tys);
	free(bufs);
	return v;
}

/* relocal: makes op function f use its own loads of the entry's
** parameters (g->pin, which lowering put in Vals), loaded from its in */
static void
relocal(G *g, LLVMValueRef f)
{
	LLVMValueRef *mine = ir_xcalloc(g->npin + 1, sizeof *mine), in = LLVMGetParam(f, 0);
	LLVMBuilderRef b = LLVMCreateBuilderInContext(g->cx);
	LLVMValueRef top = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(f));

	LLVMPositionBuilderBefore(b, top);
	for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
		for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
			for (int k = 0, nk = LLVMGetNumOperands(i); k < nk; k++) {
				LLVMValueRef o = LLVMGetOperand(i, k);
				uint32_t j = 0;
				if (!o || !LLVMIsAInstruction(o) || LLVMGetBasicBlockParent(LLVMGetInstructionParent(o)) == f)
					continue;
				while (j < g->npin && g->pin[j] != o)
					j++;
				if (j == g->npin)
					ir_die("llvm backend: an op function uses a value of another function");
				if (!mine[j]) {
					LLVMValueRef ix = c64(g, j);
					mine[j] = LLVMBuildLoad2(b, g->p8, LLVMBuildInBoundsGEP2(b, g->p8, in, &ix, 1, ""), "");
				}
				LLVMSetOperand(i, k, mine[j]);
			}
	LLVMDisposeBuilder(b);
	free(mine);
}

/* fusable: the dot path may take n, a requantize (of a bias_add) of
** a qnn.conv2d, together with the conv */
static int
fusable(const Module *m, NodeId n)
{
	NodeId x;

	if (!isop(m, n, OP_QNN_REQUANTIZE))
		return 0;
	x = ir_arg(m, n, 0);
	if (isop(m, x, OP_NN_BIAS_ADD))
		x = ir_arg(m, x, 0);
	return isop(m, x, OP_QNN_CONV2D);
}

/* ewin: the operands of op call c (its types: callargs without a
** scope) that an elementwise loop reads (the first ones): ewop()'s, or
** the data of a quantize, dequantize or requantize; 0 for other ops */
static int
ewin(const Call *c)
{
	Call t = *c;            /* ewop may retype float16 operands */
	Ew e;
	MapFn *f;
	int nin;

	switch (c->m->nodes[c->n].op) {
	case OP_QNN_QUANTIZE: case OP_QNN_DEQUANTIZE: case OP_QNN_REQUANTIZE:
		return 1;
	default:
		return ir_type(c->m, c->ot)->kind == TY_TENSOR && ewop(&t, &e, &f, &nin) ? nin : 0;
	}
}

/* ewreads: the accessors the loop of op call c reads: ewin(), and the
** parameters of a quantize (2), dequantize (2) or requantize (4) */
static int
ewreads(const Call *c)
{
	switch (c->m->nodes[c->n].op) {
	case OP_QNN_QUANTIZE: case OP_QNN_DEQUANTIZE: return 3;
	case OP_QNN_REQUANTIZE: return 5;
	default: return ewin(c);
	}
}

/* nohalf: no operand of call c nor its result is float16 */
static int
nohalf(const Call *c)
{
	for (int i = 0; i < 8; i++)
		if (c->adt[i] == DT_FLOAT16)
			return 0;
	return c->odt != DT_FLOAT16;
}

/* ewmark: lowers the operands of op call cn (its types: callargs
** without a scope) in s, but marks FUSED (and recurses into) each
** elementwise operand that its loop can compute in place (ewacc): an
** ewop() call used once, not lowered yet, with cn's result dims, neither
** of them touching float16 (so ewop retypes nothing), while the loop
** reads at most MAXLEAF tensors (*room: how many more it may read) */
static void
ewmark(G *g, Scope *s, const Call *cn, int *room)
{
	const Module *m = g->m;
	int nin = ewin(cn);
	Call ca;
	Ew e;
	MapFn *f;
	int k;

	for (uint32_t i = 0; i < m->nodes[cn->n].nargs; i++) {
		NodeId a = ir_arg(m, cn->n, i);
		if ((int)i < nin && single(g, s, a) && nohalf(cn) && callargs(g, NULL, a, &ca, 0) &&
		    ir_type(m, ca.ot)->kind == TY_TENSOR && nohalf(&ca) && ewop(&ca, &e, &f, &k) && k - 1 <= *room &&
		    ca.orank == cn->orank && !memcmp(ca.od, cn->od, (size_t)cn->orank * sizeof *cn->od)) {
			*room -= k - 1;
			s->done[a] = FUSED;
			ewmark(g, s, &ca, room);
		} else {
			lower(g, s, a);
		}
	}
}

/* opfn: lowers the op call n into a function of its own, internal and
** never inlined, "void op.N.name(void **in, i32 *err)", called where n
** runs; its operands are lowered first where they are, but those the
** dot path or the float path may fuse (lowered inside, maybe into
** functions of their own).  The optimizer and the code generator, superlinear in a
** function's size, then work on one op at a time.  Aliasing ops (no
** code) are lowered in place. */
static Val
opfn(G *g, Scope *s, NodeId n)
{
	const Module *m = g->m;
	const Node *nd = &m->nodes[n];
	LLVMTypeRef pt[2] = { LLVMPointerType(g->p8, 0), LLVMPointerType(g->i32, 0) }, ft;
	LLVMValueRef f, args[2] = { g->in, g->err };
	Here h;
	char name[96];
	Val v;
	int fused;

	switch (nd->op) {
	case OP_ANNOTATION_CAST_HINT: case OP_ANNOTATION_STOP_FUSION:
	case OP_RESHAPE: case OP_SQUEEZE: case OP_EXPAND_DIMS: case OP_NN_BATCH_FLATTEN:
		return call(g, s, n);
	case OP_CLIP:
		if (clip_whole(m, n))
			return call(g, s, n);
		break;
	default:
		break;
	}
	fused = nd->op == OP_NN_BIAS_ADD || nd->op == OP_ADD || nd->op == OP_NN_RELU || nd->op == OP_CLIP ? fconv_fused(g, s, n) : -1;
	if (fused >= 0) {
		for (uint32_t i = 0; i < nd->nargs; i++)
			if ((int)i != fused)
				lower(g, s, ir_arg(m, n, i));
	} else if (!(g->dot && (fusable(m, n) || (nd->op == OP_QNN_CONV2D && fusable(m, ir_arg(m, n, 0)))))) {
		Call c;
		int room;
		callargs(g, NULL, n, &c, 0);
		room = MAXLEAF - ewreads(&c);
		ewmark(g, s, &c, &room);
	} else {
		for (uint32_t i = 1; i < nd->nargs; i++)
			lower(g, s, ir_arg(m, n, i));
	}
	snprintf(name, sizeof name, "op.%u.%s", g->nfn++, ir_ops[nd->op].name);
	ft = LLVMFunctionType(LLVMVoidTypeInContext(g->cx), pt, 2, 0);
	f = newfn(g, name, ft, 1);
	LLVMSetFunctionCallConv(f, LLVMFastCallConv);
	fnenter(g, f, &h);
	v = call(g, s, n);
	fnleave(g, &h);
	relocal(g, f);
	LLVMSetInstructionCallConv(LLVMBuildCall2(g->b, ft, f, args, 2, ""), LLVMFastCallConv);
	return v;
}

/* paramof: the index of n among the parameters of s's function that its
** call binds, or -1 (n is no such parameter, or s is not an inlined call) */
static int64_t
paramof(const Module *m, const Scope *s, NodeId n)
{
	if (!s->up)
		return -1;
	for (uint32_t i = 0; i < ir_func_nparams(m, s->fn); i++)
		if (ir_arg(m, s->fn, i) == n)
			return i + 1 < m->nodes[s->call].nargs ? (int64_t)i : -1;
	return -1;
}

/* lower: the value of node n in scope s, lowering it (and its operands)
** on first use */
static Val
lower(G *g, Scope *s, NodeId n)
{
	const Module *m = g->m;
	const Node *nd = &m->nodes[n];
	Val v = { 0 };

	if (s->done[n])
		return s->v[n];
	switch (nd->kind) {
	case NK_CONST: {
		const Const *k = &m->consts[nd->aux];
		if (!k->data) {
			ir_error(g->d, m->locs[n], "the llvm backend needs the data of this constant (--params)");
			g->errors++;
			v = tensorbuf(g, k->type);
		} else {
			if (!g->cglob[nd->aux])
				g->cglob[nd->aux] = constbuf(g, k->data, k->nbytes);
			v.p = g->cglob[nd->aux];
		}
		v.cnode = n;
		break;
	}
	case NK_CALL:
		v = opfn(g, s, n);
		break;
	case NK_VAR: {
		int64_t i = paramof(g->m, s, n);
		if (i < 0) {
			ir_error(g->d, m->locs[n], "the llvm backend cannot run this expression");
			g->errors++;
		} else {
			v = lower(g, s->up, ir_arg(m, s->call, (uint32_t)i + 1));
		}
		break;
	}
	case NK_TUPLE:
		v.nf = nd->nargs;
		v.f = ir_arena_alloc(&g->a, (nd->nargs + 1) * sizeof *v.f);
		for (uint32_t i = 0; i < nd->nargs; i++)
			v.f[i] = lower(g, s, ir_arg(m, n, i));
		break;
	case NK_GETITEM: {
		Val t = lower(g, s, ir_arg(m, n, 0));
		if (nd->aux < t.nf)
			v = t.f[nd->aux];
		else
			v = tensorbuf(g, nd->type);
		break;
	}
	case NK_CALLFN: {
		NodeId f = callee(m, n);
		Scope in;
		if (f && g->ext && m->nodes[ir_arg(m, n, 0)].kind == NK_GLOBAL && be_codegen_of(m, f) &&
		    be_codegen_of(m, f)->run) {
			v = callout(g, s, n, f);
			break;
		}
		if (!f) {
			ir_error(g->d, m->locs[n], "the llvm backend cannot run this call: its callee is not a known function");
			g->errors++;
			break;
		}
		/* the parameters are bound lazily (lower's NK_VAR): an argument
		   is lowered where the callee first needs it, unless the dot path
		   fuses its producer into its consumer (vconv_emit) */
		scope_init(&in, m);
		in.up = s;
		in.call = n;
		in.fn = f;
		v = lower(g, &in, ir_func_body(m, f));
		scope_free(&in);
		break;
	}
	default:
		ir_error(g->d, m->locs[n], "the llvm backend cannot run this expression");
		g->errors++;
		break;
	}
	s->v[n] = v;
	s->done[n] = 1;
	return v;
}

/* flat: appends the tensors of v (depth first) to out */
static void
flat(Val v, Val *out, uint32_t *n, uint32_t max)
{
	if (v.p) {
		if (*n < max)
			out[*n] = v;
		(*n)++;
		return;
	}
	for (uint32_t i = 0; i < v.nf; i++)
		flat(v.f[i], out, n, max);
}

/* flattypes: appends the tensor types of t (depth first) to out */
static void
flattypes(const Module *m, TypeId t, TypeId *out, uint32_t *n, uint32_t max)
{
	const Type *ty = ir_type(m, t);

	if (ty->kind == TY_TUPLE) {
		for (uint32_t i = 0; i < ty->n; i++)
			flattypes(m, m->tylist[ty->first + i], out, n, max);
		return;
	}
	if (*n < max)
		out[*n] = t;
	(*n)++;
}

/* entry: int32_t name(const void *const *in, void *const *out) running fn */
static void
entry(G *g, NodeId fn, const char *name)
{
	const Module *m = g->m;
	LLVMTypeRef pp = LLVMPointerType(g->p8, 0), pt[2] = { pp, pp };
	LLVMValueRef in, out;
	Scope s;
	uint32_t np = ir_func_nparams(m, fn), nout = 0, ntys = 0;
	Val *res;
	TypeId *tys;
	NodeId body = ir_func_body(m, fn);

	g->fn = LLVMAddFunction(g->mod, name, LLVMFunctionType(g->i32, pt, 2, 0));
	LLVMAddAttributeAtIndex(g->fn, (unsigned)-1, LLVMCreateEnumAttribute(g->cx, LLVMGetEnumAttributeKindForName("nounwind", 8), 0));
	LLVMPositionBuilderAtEnd(g->b, LLVMAppendBasicBlockInContext(g->cx, g->fn, "entry"));
	g->err = LLVMBuildAlloca(g->b, g->i32, "err");
	LLVMBuildStore(g->b, c32(g, 0), g->err);
	in = g->in = LLVMGetParam(g->fn, 0);
	out = LLVMGetParam(g->fn, 1);
	scope_init(&s, m);
	g->npin = np;
	g->pin = ir_xcalloc(np + 1, sizeof *g->pin);
	for (uint32_t i = 0; i < np; i++) {
		NodeId p = ir_arg(m, fn, i);
		LLVMValueRef ix = c64(g, i);
		if (ir_type(m, m->nodes[p].type)->kind != TY_TENSOR) {
			ir_error(g->d, m->locs[p], "the llvm backend takes only tensor parameters");
			g->errors++;
			continue;
		}
		s.v[p].p = g->pin[i] = LLVMBuildLoad2(g->b, g->p8, LLVMBuildInBoundsGEP2(g->b, g->p8, in, &ix, 1, ""), "");
		s.done[p] = 1;
	}
	lower(g, &s, body);
	flattypes(m, m->nodes[body].type, NULL, &ntys, 0);
	tys = ir_xcalloc(ntys + 1, sizeof *tys);
	res = ir_xcalloc(ntys + 1, sizeof *res);
	ntys = 0;
	flattypes(m, m->nodes[body].type, tys, &ntys, UINT32_MAX);
	flat(s.v[body], res, &nout, ntys);
	for (uint32_t j = 0; j < nout && j < ntys && !g->errors; j++) {
		LLVMValueRef ix = c64(g, j), dst;
		dst = LLVMBuildLoad2(g->b, g->p8, LLVMBuildInBoundsGEP2(g->b, g->p8, out, &ix, 1, ""), "");
		if (ir_type(m, tys[j])->kind == TY_TENSOR && tbytes(m, tys[j]))
			LLVMBuildMemCpy(g->b, dst, 1, res[j].p, 1, c64(g, (int64_t)tbytes(m, tys[j])));
	}
	LLVMBuildRet(g->b, LLVMBuildLoad2(g->b, g->i32, g->err, ""));
	for (uint32_t i = 0; i < np; i++)   /* the loads the op functions do themselves */
		if (g->pin[i] && !LLVMGetFirstUse(g->pin[i])) {
			LLVMValueRef a = LLVMGetOperand(g->pin[i], 0);
			LLVMInstructionEraseFromParent(g->pin[i]);
			LLVMInstructionEraseFromParent(a);
		}
	free(tys);
	free(res);
	free(g->pin);
	g->pin = NULL;
	g->npin = 0;
	scope_free(&s);
}

/* ---------------------------------------------------------------- modules */

/* ---------------------------------------------------------------- machines */

/* inittargets: every target LLVM was built with, once: the host's, or
** the one --target's -mtriple names (Debian's libLLVM has AArch64, ARM
** and X86 among others), with their disassemblers for decodes() */
static void
inittargets(void)
{
	static int inited;

	if (inited++)
		return;
	LLVMInitializeAllTargetInfos();
	LLVMInitializeAllTargets();
	LLVMInitializeAllTargetMCs();
	LLVMInitializeAllAsmPrinters();
	LLVMInitializeAllDisassemblers();
}

/* field: the k-th '-'-separated field of triple t (0 arch, 2 OS of a
** normalized triple) into buf, "" past the last */
static const char *
field(const char *t, int k, char *buf, size_t n)
{
	size_t len;

	for (; k > 0 && t; k--)
		if ((t = strchr(t, '-')))
			t++;
	len = t ? strcspn(t, "-") : 0;
	len = len < n ? len : n - 1;
	memcpy(buf, t ? t : "", len);
	buf[len] = 0;
	return buf;
}

/* hasfeat: whether LLVM feature string f (comma-separated "+x" and "-x")
** turns feature x on: its last mention is "+x" */
static int
hasfeat(const char *f, const char *x)
{
	size_t n = strlen(x);
	int on = 0;

	for (const char *p = f; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if ((*p == '+' || *p == '-') && strncmp(p + 1, x, n) == 0 && (p[n + 1] == ',' || !p[n + 1]))
			on = *p == '+';
	return on;
}

/* decodes: whether LLVM's disassembler for mc's triple, CPU and features
** takes the n bytes at code as one instruction; the AArch64 one checks
** the instruction's feature, so this is how the LLVM-C API tells what a
** CPU named by -mcpu has (cortex-a55: dot product) */
static int
decodes(const Mach *mc, const uint8_t *code, size_t n)
{
	LLVMDisasmContextRef dc = LLVMCreateDisasmCPUFeatures(mc->triple, mc->cpu, mc->feat, NULL, 0, NULL, NULL);
	uint8_t buf[16];
	char text[128];
	size_t k;

	if (!dc)
		return 0;
	memcpy(buf, code, n);
	k = LLVMDisasmInstruction(dc, buf, n, 0, text, sizeof text);
	LLVMDisasmDispose(dc);
	return k == n;
}

/* mach_free: releases mc's strings */
static void
mach_free(Mach *mc)
{
	LLVMDisposeMessage(mc->triple);
	LLVMDisposeMessage(mc->cpu);
	LLVMDisposeMessage(mc->feat);
	memset(mc, 0, sizeof *mc);
}

/* mach_init: mc for the machine o names (o NULL: the host): the triple
** normalized; the host's CPU and features when the triple is the host's
** and no -mcpu is given (-mattr then added to them), else -mcpu (native:
** the host's) and -mattr alone.  Returns 0, or 1 with why in err (a
** triple LLVM has no target for: its message) */
static int
mach_init(Mach *mc, const BeOpts *o, char *err, size_t nerr)
{
	char *host = LLVMGetDefaultTargetTriple(), *hn = LLVMNormalizeTargetTriple(host), a[64], b[64];
	const char *cpu = o && o->cpu ? o->cpu : NULL, *attr = o && o->attr ? o->attr : "";
	int given = cpu && strcmp(cpu, "native") != 0;
	LLVMTargetRef t;
	char *msg = NULL;

	inittargets();
	memset(mc, 0, sizeof *mc);
	mc->triple = o && o->triple ? LLVMNormalizeTargetTriple(o->triple) : LLVMCreateMessage(hn);
	mc->native = !strcmp(field(mc->triple, 0, a, sizeof a), field(hn, 0, b, sizeof b)) &&
	             !strcmp(field(mc->triple, 2, a, sizeof a), field(hn, 2, b, sizeof b));
	mc->given = (o && (o->cpu || (o->attr && *o->attr)));
	LLVMDisposeMessage(host);
	LLVMDisposeMessage(hn);
	if (LLVMGetTargetFromTriple(mc->triple, &t, &msg)) {
		snprintf(err, nerr, "%s", msg);
		LLVMDisposeMessage(msg);
		mach_free(mc);
		return 1;
	}
	if (cpu && !given && !mc->native) {
		snprintf(err, nerr, "-mcpu=native names this machine's CPU, and %s is not this machine's target", mc->triple);
		mach_free(mc);
		return 1;
	}
	if (mc->native && !given) {
		char *hf = LLVMGetHostCPUFeatures();
		size_t n = strlen(hf) + strlen(attr) + 2;
		char *f = ir_xmalloc(n);
		snprintf(f, n, "%s%s%s", hf, *hf && *attr ? "," : "", attr);
		mc->cpu = LLVMGetHostCPUName();
		mc->feat = LLVMCreateMessage(f);
		LLVMDisposeMessage(hf);
		free(f);
	} else {
		mc->cpu = LLVMCreateMessage(cpu ? cpu : "");
		mc->feat = LLVMCreateMessage(attr);
	}
	return 0;
}

/* tmnew: the target machine of mc at opt level opt, or NULL */
static LLVMTargetMachineRef
tmnew(const Mach *mc, int opt)
{
	LLVMTargetRef t;
	char *msg = NULL;

	if (LLVMGetTargetFromTriple(mc->triple, &t, &msg)) {
		LLVMDisposeMessage(msg);
		return NULL;
	}
	return LLVMCreateTargetMachine(t, mc->triple, mc->cpu, mc->feat,
	                               opt <= 0 ? LLVMCodeGenLevelNone : opt == 1 ? LLVMCodeGenLevelLess
	                               : opt == 2 ? LLVMCodeGenLevelDefault : LLVMCodeGenLevelAggressive,
	                               LLVMRelocPIC, LLVMCodeModelDefault);
}

/* be_llvm_target_check: see llvm.h */
int
be_llvm_target_check(const BeOpts *o, int *native, char *err, size_t nerr)
{
	Mach mc;
	LLVMTargetMachineRef tm;
	LLVMTargetDataRef td;
	FILE *f = tmpfile();
	int fd = -1, big;
	size_t n = 0;

	if (o->attr)
		for (const char *p = o->attr; *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : p + strlen(p))
			if (*p != '+' && *p != '-') {
				snprintf(err, nerr, "-mattr=%s: each feature starts with + (on) or - (off): +%.*s", o->attr,
				         (int)strcspn(p, ","), p);
				if (f)
					fclose(f);
				return 1;
			}
	if (mach_init(&mc, o, err, nerr)) {
		if (f)
			fclose(f);
		return 1;
	}
	/* a CPU or feature LLVM does not know is a warning it prints as it
	   makes the machine's subtarget: caught here, it is an error */
	fflush(stderr);
	if (f && (fd = dup(2)) >= 0)
		dup2(fileno(f), 2);
	tm = tmnew(&mc, 0);
	if (fd >= 0) {
		dup2(fd, 2);
		close(fd);
		rewind(f);
		n = fread(err, 1, nerr - 1, f);
		err[n] = 0;
		err[strcspn(err, "\n")] = 0;
		if (strstr(err, " (ignoring "))
			*strstr(err, " (ignoring ") = 0;     /* graft does not ignore it */
	}
	if (f)
		fclose(f);
	td = LLVMCreateTargetDataLayout(tm);
	big = LLVMByteOrder(td) == LLVMBigEndian;
	LLVMDisposeTargetData(td);
	LLVMDisposeTargetMachine(tm);
	if (!n && big)
		snprintf(err, nerr, "%s is big-endian: graft lays out constants in this machine's byte order", mc.triple);
	if (native)
		*native = mc.native;
	mach_free(&mc);
	return n || big;
}

/* machine: the target machine of mc at opt level opt; chooses mc's conv
** kernels from its features (x86: those of the host or named by -mattr;
** AArch64: whatever decodes() says of sdot) */
static LLVMTargetMachineRef
machine(Mach *mc, int opt)
{
	static const uint8_t sdot[4] = { 0x20, 0x94, 0x82, 0x4e };      /* sdot v0.4s, v1.16b, v2.16b */
	char arch[64];
	const char *f = mc->feat;

	field(mc->triple, 0, arch, sizeof arch);
	if (!strcmp(arch, "x86_64")) {
		mc->lanes = getenv("GRAFT_LLVM_AVX2") && hasfeat(f, "avx2") ? 8 : getenv("GRAFT_LLVM_NOFAST") ? 0
		            : hasfeat(f, "avx512bw") ? 16 : hasfeat(f, "avx2") ? 8 : 0;
		if (mc->lanes == 16 && hasfeat(f, "avx512vnni") && !getenv("GRAFT_LLVM_NOVNNI"))
			mc->dot = DOT_VNNI;
	} else if ((!strcmp(arch, "aarch64") || !strcmp(arch, "arm64")) && !getenv("GRAFT_LLVM_NOFAST") &&
	           decodes(mc, sdot, sizeof sdot)) {
		mc->dot = DOT_SDOT;
	}
	return tmnew(mc, opt);
}

/* now: ns of the C11 clock (TIME_UTC: only differences are used, for BeStats) */
static double
now(void)
{
	struct timespec t;
	timespec_get(&t, TIME_UTC);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* passes: runs LLVM's default pipeline at level opt on mod */
static LLVMErrorRef
passes(LLVMModuleRef mod, LLVMTargetMachineRef tm, int opt)
{
	char pass[32];
	LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
	LLVMErrorRef err;

	snprintf(pass, sizeof pass, "default<O%d>", opt < 0 ? 0 : opt > 3 ? 3 : opt);
	LLVMPassBuilderOptionsSetLoopVectorization(po, opt >= 2);
	LLVMPassBuilderOptionsSetSLPVectorization(po, opt >= 2);
	LLVMPassBuilderOptionsSetLoopUnrolling(po, opt >= 2);
	err = LLVMRunPasses(mod, pass, tm, po);
	LLVMDisposePassBuilderOptions(po);
	return err;
}

/* build: an optimized (unless nopasses) LLVM module in cx with one entry per global function
** (only @main when mainonly); NULL after reporting.  With blobs (the
** JIT), large constants are Blobs added there.  st, if not NULL, gets
** lower_ns and opt_ns. */
static LLVMModuleRef
build(const Module *m, const BeOpts *o, LLVMContextRef cx, LLVMTargetMachineRef tm, const Mach *mc, int mainonly,
      int nopasses, BeExt ***ext, uint32_t *next, Blobs *blobs, BeStats *st, Diag *d)
{
	double t0 = now(), t1;
	G g;
	char *msg = NULL;
	LLVMTargetDataRef td;
	LLVMErrorRef err;
	int opt = o ? o->opt : 2;

	memset(&g, 0, sizeof g);
	g.m = m;
	g.d = d;
	g.cx = cx;
	g.lanes = mc->lanes;
	g.dot = mc->dot;
	g.ext = ext;
	g.next = next;
	g.par = ext != NULL;
	g.blobs = blobs;
	g.mod = LLVMModuleCreateWithNameInContext("graft", cx);
	g.b = LLVMCreateBuilderInContext(cx);
	g.i1 = LLVMInt1TypeInContext(cx);
	g.i8 = LLVMInt8TypeInContext(cx);
	g.i16 = LLVMInt16TypeInContext(cx);
	g.i32 = LLVMInt32TypeInContext(cx);
	g.i64 = LLVMInt64TypeInContext(cx);
	g.f16 = LLVMHalfTypeInContext(cx);
	g.f32 = LLVMFloatTypeInContext(cx);
	g.f64 = LLVMDoubleTypeInContext(cx);
	g.p8 = LLVMPointerType(g.i8, 0);
	g.cglob = ir_xcalloc(m->nconsts + 1, sizeof *g.cglob);
	{
		char *triple = LLVMGetTargetMachineTriple(tm);
		LLVMSetTarget(g.mod, triple);
		LLVMDisposeMessage(triple);
	}
	td = LLVMCreateTargetDataLayout(tm);
	LLVMSetModuleDataLayout(g.mod, td);
	LLVMDisposeTargetData(td);
	for (uint32_t i = 0; i < m->nglobals; i++) {
		const char *name = ir_symstr(m, m->globals[i].name);
		const AttrVal *gs = ir_func_attr(m, m->globals[i].fn, "global_symbol");
		char buf[256];
		if (!strcmp(name, "main"))
			snprintf(buf, sizeof buf, "graft_main");
		else if (mainonly)
			continue;
		else if (gs && gs->kind == AV_STR)
			snprintf(buf, sizeof buf, "%s", ir_symstr(m, gs->u.s));
		else {
			snprintf(buf, sizeof buf, "graft_%s", name);
			for (char *p = buf + 6; *p; p++)
				if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
					*p = '_';
		}
		entry(&g, m->globals[i].fn, buf);
	}
	LLVMDisposeBuilder(g.b);
	free(g.cglob);
	ir_arena_free(&g.a);
	if (g.errors) {
		LLVMDisposeModule(g.mod);
		return NULL;
	}
	if (LLVMVerifyModule(g.mod, LLVMReturnStatusAction, &msg))
		ir_die("llvm backend: invalid IR: %s", msg);
	LLVMDisposeMessage(msg);
	/* -mcpu and -mattr in the module, for llc and other tools */
	for (LLVMValueRef f = LLVMGetFirstFunction(g.mod); mc->given && f; f = LLVMGetNextFunction(f))
		if (!LLVMIsDeclaration(f))
			for (int k = 0; k < 2; k++) {
				const char *key = k ? "target-features" : "target-cpu", *val = k ? mc->feat : mc->cpu;
				if (*val)
					LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
					                        LLVMCreateStringAttribute(cx, key, (unsigned)strlen(key), val, (unsigned)strlen(val)));
			}
	t1 = now();
	if (nopasses) {
		if (st)
			st->lower_ns = t1 - t0;
		return g.mod;
	}
	err = passes(g.mod, tm, opt);
	if (st) {
		st->lower_ns = t1 - t0;
		st->opt_ns = now() - t1;
	}
	if (err) {
		char *e = LLVMGetErrorMessage(err);
		ir_error(d, (Loc){ 0, 0, 0 }, "llvm: %s", e);
		LLVMDisposeErrorMessage(e);
		LLVMDisposeModule(g.mod);
		return NULL;
	}
	return g.mod;
}

/* ------------------------------------------------- parallel codegen */

enum { MAXPARTS = 8 };

/* One part of the module compiled on a thread of its own (splitjit):
** the functions of part k, optimized and made into an object. */
typedef struct Part {
	const char *bc;                 /* the whole module's bitcode, nbc bytes */
	size_t nbc;
	const uint8_t *owner;           /* per function of the module, in order: its part */
	const Mach *mc;
	int k, opt;
	LLVMMemoryBufferRef obj;        /* out: the object, or NULL */
	char *err;                      /* out: why not (LLVMDisposeMessage) */
	double opt_ns;                  /* out: LLVMRunPasses's time */
} Part;

/* unbody: makes f a declaration (the C API has no deleteBody) */
static void
unbody(LLVMValueRef f)
{
	LLVMBasicBlockRef bb, next;
	LLVMValueRef i, in;

	for (bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
		for (i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
			if (LLVMGetTypeKind(LLVMTypeOf(i)) != LLVMVoidTypeKind)
				LLVMReplaceAllUsesWith(i, LLVMGetUndef(LLVMTypeOf(i)));
	for (bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
		for (i = LLVMGetFirstInstruction(bb); i; i = in) {
			in = LLVMGetNextInstruction(i);
			LLVMInstructionEraseFromParent(i);
		}
	for (bb = LLVMGetFirstBasicBlock(f); bb; bb = next) {
		next = LLVMGetNextBasicBlock(bb);
		LLVMDeleteBasicBlock(bb);
	}
	LLVMSetLinkage(f, LLVMExternalLinkage);
}

/* partrun: a thread's work: parses the module into a context of its own,
** keeps the bodies of part k's functions and the data of part 0 only
** (the others' data stays available_externally, for folding), then
** optimizes it and generates its object */
static void *
partrun(void *arg)
{
	Part *pt = arg;
	LLVMContextRef cx = LLVMContextCreate();
	LLVMMemoryBufferRef mb = LLVMCreateMemoryBufferWithMemoryRange(pt->bc, pt->nbc, "graft", 0);
	LLVMModuleRef mod = NULL;
	LLVMTargetMachineRef tm = tmnew(pt->mc, pt->opt);
	LLVMErrorRef e;
	uint32_t i = 0;
	double t0;

	if (!tm || LLVMParseBitcodeInContext2(cx, mb, &mod)) {
		pt->err = LLVMCreateMessage("cannot read back the module's bitcode");
		goto out;
	}
	for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f), i++)
		if (!LLVMIsDeclaration(f) && pt->owner[i] != pt->k)
			unbody(f);
	for (LLVMValueRef v = LLVMGetFirstGlobal(mod); v && pt->k; v = LLVMGetNextGlobal(v))
		if (!LLVMIsDeclaration(v))
			LLVMSetLinkage(v, LLVMAvailableExternallyLinkage);
	t0 = now();
	if ((e = passes(mod, tm, pt->opt)) != NULL) {
		pt->err = LLVMGetErrorMessage(e);
		goto out;
	}
	pt->opt_ns = now() - t0;
	if (LLVMTargetMachineEmitToMemoryBuffer(tm, mod, LLVMObjectFile, &pt->err, &pt->obj))
		pt->obj = NULL;
out:
	if (mod)
		LLVMDisposeModule(mod);
	LLVMDisposeMemoryBuffer(mb);
	if (tm)
		LLVMDisposeTargetMachine(tm);
	LLVMContextDispose(cx);
	return NULL;
}

/* nparts: how many threads compile the module: one per core, at most
** MAXPARTS; GRAFT_LLVM_THREADS overrides */
static int
nparts(void)
{
	const char *env = getenv("GRAFT_LLVM_THREADS");
	long n = env ? strtol(env, NULL, 10) : sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > MAXPARTS ? MAXPARTS : (int)n;
}

/* cached: adds the n parts of entry key in dir (objcache.h) to jit, if
** all are there; 1 then (with *e the JIT's error, if any), else 0 */
static int
cached(LLVMOrcLLJITRef jit, const char *dir, const ObjKey *key, int n, LLVMErrorRef *e)
{
	void *data[MAXPARTS];
	size_t size[MAXPARTS];
	int k = 0;

	while (k < n && be_objcache_load(dir, key, k, n, &data[k], &size[k]) == 0)
		k++;
	for (int j = 0; j < k; j++) {
		if (k == n && !*e)
			*e = LLVMOrcLLJITAddObjectFile(jit, LLVMOrcLLJITGetMainJITDylib(jit),
			                               LLVMCreateMemoryBufferWithMemoryRangeCopy(data[j], size[j], "graft-cached"));
		free(data[j]);
	}
	return k == n;
}

/* splitjit: optimizes and compiles mod (unoptimized; consumed) in n parts
** on as many threads, its functions spread by size, and adds their
** objects to jit; its internal functions and data become external, each
** defined in one part.  opt_ns is the slowest part's optimization.  With
** cache, the objects are first looked up in the object cache (objcache.h;
** *hit set when they were there, and nothing is compiled), and stored
** there after. */
static LLVMErrorRef
splitjit(LLVMOrcLLJITRef jit, LLVMModuleRef mod, const Mach *mc, int opt, int n, int cache, const Blobs *bl, double *opt_ns,
         int *hit)
{
	Part pt[MAXPARTS];
	pthread_t th[MAXPARTS];
	int started[MAXPARTS] = { 0 };
	uint64_t load[MAXPARTS] = { 0 };
	uint32_t nf = 0, i = 0;
	uint8_t *owner;
	LLVMMemoryBufferRef bc;
	LLVMErrorRef e = NULL;
	char *dir = cache ? be_objcache_dir() : NULL, extra[1024];
	ObjKey key;

	*hit = 0;
	for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f))
		nf++;
	owner = ir_xcalloc(nf + 1, 1);
	for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f), i++) {
		uint64_t size = 0;
		int k = 0;
		if (LLVMIsDeclaration(f))
			continue;
		for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
			for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
				size++;
		for (int j = 1; j < n; j++)
			if (load[j] < load[k])
				k = j;
		owner[i] = (uint8_t)k;
		load[k] += size;
		if (LLVMGetLinkage(f) == LLVMInternalLinkage) {
			LLVMSetLinkage(f, LLVMExternalLinkage);
			LLVMSetVisibility(f, LLVMHiddenVisibility);
		}
	}
	for (LLVMValueRef v = LLVMGetFirstGlobal(mod); v; v = LLVMGetNextGlobal(v))
		if (LLVMGetLinkage(v) == LLVMInternalLinkage) {
			LLVMSetLinkage(v, LLVMExternalLinkage);
			LLVMSetVisibility(v, LLVMHiddenVisibility);
		}
	bc = LLVMWriteBitcodeToMemoryBuffer(mod);
	LLVMDisposeModule(mod);
	*opt_ns = 0;
	if (dir) {
		/* the blobs' sizes and data, hashed one after another */
		ObjKey bk = { { 0, 0 } };
		for (uint32_t k = 0; k < bl->n; k++) {
			snprintf(extra, sizeof extra, "%016" PRIx64 "%016" PRIx64 " %zu", bk.h[0], bk.h[1], bl->b[k].n);
			be_objcache_key(&bk, bl->b[k].data, bl->b[k].n, extra);
		}
		snprintf(extra, sizeof extra, "graft-objcache-2 LLVM %s %s %s %s O%d parts %d blobs %u %016" PRIx64 "%016" PRIx64,
		         LLVM_VERSION_STRING, mc->triple, mc->cpu, mc->feat, opt, n, bl->n, bk.h[0], bk.h[1]);
		be_objcache_key(&key, LLVMGetBufferStart(bc), LLVMGetBufferSize(bc), extra);
		if ((*hit = cached(jit, dir, &key, n, &e))) {
			LLVMDisposeMemoryBuffer(bc);
			free(owner);
			free(dir);
			return e;
		}
	}
	for (int k = 0; k < n; k++) {
		memset(&pt[k], 0, sizeof pt[k]);
		pt[k].bc = LLVMGetBufferStart(bc);
		pt[k].nbc = LLVMGetBufferSize(bc);
		pt[k].owner = owner;
		pt[k].mc = mc;
		pt[k].k = k;
		pt[k].opt = opt;
		started[k] = k && !pthread_create(&th[k], NULL, partrun, &pt[k]);
	}
	for (int k = 0; k < n; k++)
		if (!started[k])
			partrun(&pt[k]);
	for (int k = 0; k < n; k++) {
		if (started[k])
			pthread_join(th[k], NULL);
		if (pt[k].opt_ns > *opt_ns)
			*opt_ns = pt[k].opt_ns;
		if (!e && pt[k].err)
			e = LLVMCreateStringError(pt[k].err);
		else if (!e && pt[k].obj) {
			if (dir)
				be_objcache_store(dir, &key, k, n, LLVMGetBufferStart(pt[k].obj), LLVMGetBufferSize(pt[k].obj));
			e = LLVMOrcLLJITAddObjectFile(jit, LLVMOrcLLJITGetMainJITDylib(jit), pt[k].obj), pt[k].obj = NULL;
		}
		if (pt[k].obj)
			LLVMDisposeMemoryBuffer(pt[k].obj);
		if (pt[k].err)
			LLVMDisposeMessage(pt[k].err);
	}
	LLVMDisposeMemoryBuffer(bc);
	free(owner);
	free(dir);
	return e;
}

/* ---------------------------------------------------------------- the JIT */


struct Program {
	LLVMOrcLLJITRef jit;
	BeEntry *fn;
	BeSig sig;
	BeExt **ext;            /* the partitions codegens run */
	uint32_t next;
	int threads;            /* BeOpts.threads: the pool's size for its runs */
	Blobs blobs;            /* the constants the code reads from here (Blob) */
};

/* freeext: p's partitions */
static void
freeext(Program *p)
{
	for (uint32_t k = 0; k < p->next; k++)
		be_ext_free(p->ext[k]);
	free(p->ext);
	p->ext = NULL;
	p->next = 0;
	for (uint32_t k = 0; k < p->blobs.n; k++)
		free(p->blobs.b[k].data);
	free(p->blobs.b);
	memset(&p->blobs, 0, sizeof p->blobs);
}

/* jiterr: reports an LLVM error; returns NULL */
static void *
jiterr(LLVMErrorRef e, Diag *d)
{
	char *s = LLVMGetErrorMessage(e);
	ir_error(d, (Loc){ 0, 0, 0 }, "llvm: %s", s);
	LLVMDisposeErrorMessage(s);
	return NULL;
}

/* used: whether something uses v other than constant expressions that
** nothing uses */
static int
used(LLVMValueRef v)
{
	for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
		LLVMValueRef user = LLVMGetUser(u);
		if (!LLVMIsAConstantExpr(user) || used(user))
			return 1;
	}
	return 0;
}

/* blobprune: drops the blobs of bl that nothing in mod uses (a plan
** that lowering made and then did not take); their declarations stay,
** unused, so that no constant expression is left dangling */
static void
blobprune(Blobs *bl, LLVMModuleRef mod)
{
	uint32_t n = 0;

	for (uint32_t k = 0; k < bl->n; k++) {
		LLVMValueRef gv = LLVMGetNamedGlobal(mod, bl->b[k].name);
		if (gv && !used(gv)) {
			free(bl->b[k].data);
		} else {
			bl->b[n++] = bl->b[k];
		}
	}
	bl->n = n;
}

/* be_llvm_prepare: see llvm.h */
Program *
be_llvm_prepare(const Module *m, const BeOpts *o, BeStats *st, Diag *d)
{
	Program *p;
	Mach mc;
	LLVMTargetMachineRef tm;
	LLVMOrcThreadSafeContextRef tsc;
	LLVMModuleRef mod;
	LLVMOrcLLJITBuilderRef jb;
	LLVMOrcDefinitionGeneratorRef gen;
	LLVMOrcJITTargetAddress addr;
	LLVMErrorRef e;
	double t0;
	char err[512];
	int threads = nparts();

	if (mach_init(&mc, o, err, sizeof err)) {
		ir_error(d, (Loc){ 0, 0, 0 }, "llvm: %s", err);
		return NULL;
	}
	if (!mc.native) {
		ir_error(d, (Loc){ 0, 0, 0 }, "the llvm backend cannot run code for %s on this machine: its JIT runs "
		         "this machine's code; compile with graft --emit obj (or --emit c) and run it there", mc.triple);
		mach_free(&mc);
		return NULL;
	}
	tm = machine(&mc, o ? o->opt : 2);
	p = ir_xcalloc(1, sizeof *p);
	p->threads = o ? o->threads : 0;
	if (be_sig(m, &p->sig, d)) {
		LLVMDisposeTargetMachine(tm);
		mach_free(&mc);
		free(p);
		return NULL;
	}
	tsc = LLVMOrcCreateNewThreadSafeContext();
	mod = build(m, o, LLVMOrcThreadSafeContextGetContext(tsc), tm, &mc, 1, 1, &p->ext, &p->next, &p->blobs, st, d);
	if (mod)
		blobprune(&p->blobs, mod);
	if (!mod) {
		mach_free(&mc);
		LLVMOrcDisposeThreadSafeContext(tsc);
		LLVMDisposeTargetMachine(tm);
		freeext(p);
		be_sig_free(&p->sig);
		free(p);
		return NULL;
	}
	t0 = now();
	jb = LLVMOrcCreateLLJITBuilder();
	LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(jb, LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(tm));
	if ((e = LLVMOrcCreateLLJIT(&p->jit, jb)) != NULL)
		goto fail;
	if ((e = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(&gen, LLVMOrcLLJITGetGlobalPrefix(p->jit), NULL, NULL)) != NULL)
		goto fail;
	LLVMOrcJITDylibAddGenerator(LLVMOrcLLJITGetMainJITDylib(p->jit), gen);
	{
		/* graft_par_run, which split loops call (par_open) */
		LLVMJITCSymbolMapPair sym = { LLVMOrcLLJITMangleAndIntern(p->jit, "graft_par_run"),
		                              { (LLVMOrcExecutorAddress)(uintptr_t)be_par_run,
		                                { LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable, 0 } } };
		if ((e = LLVMOrcJITDylibDefine(LLVMOrcLLJITGetMainJITDylib(p->jit), LLVMOrcAbsoluteSymbols(&sym, 1))) != NULL)
			goto fail;
	}
	if ((e = kdefine(p->jit)) != NULL)      /* plugin ops' C kernels */
		goto fail;
	if (p->blobs.n) {
		/* the blobs, at their data's addresses */
		LLVMJITCSymbolMapPair *sym = ir_xcalloc(p->blobs.n, sizeof *sym);
		for (uint32_t k = 0; k < p->blobs.n; k++)
			sym[k] = (LLVMJITCSymbolMapPair){ LLVMOrcLLJITMangleAndIntern(p->jit, p->blobs.b[k].name),
			                                  { (LLVMOrcExecutorAddress)(uintptr_t)p->blobs.b[k].data,
			                                    { LLVMJITSymbolGenericFlagsExported, 0 } } };
		e = LLVMOrcJITDylibDefine(LLVMOrcLLJITGetMainJITDylib(p->jit), LLVMOrcAbsoluteSymbols(sym, p->blobs.n));
		free(sym);
		if (e)
			goto fail;
	}
	{
		double opt_ns;
		int hit;
		/* a plugin's partitions are called through addresses of this
		   process (callout): such code is not cached */
		e = splitjit(p->jit, mod, &mc, o ? o->opt : 2, threads, !p->next, &p->blobs, &opt_ns, &hit);
		if (st) {
			st->opt_ns = opt_ns;
			st->cached = hit;
		}
		if (e)
			goto fail;
	}
	LLVMOrcDisposeThreadSafeContext(tsc);
	tsc = NULL;
	if ((e = LLVMOrcLLJITLookup(p->jit, &addr, "graft_main")) != NULL)
		goto fail;
	p->fn = (BeEntry *)(uintptr_t)addr;
	if (st)
		st->codegen_ns = now() - t0 - st->opt_ns;
	mach_free(&mc);
	return p;
fail:
	jiterr(e, d);
	mach_free(&mc);
	if (tsc)
		LLVMOrcDisposeThreadSafeContext(tsc);
	if (p->jit)
		LLVMOrcDisposeLLJIT(p->jit);
	freeext(p);
	be_sig_free(&p->sig);
	free(p);
	return NULL;
}

static Program *
prepare(const Module *m, const BeOpts *o, Diag *d)
{
	return be_check_sizes(m, d) ? NULL : be_llvm_prepare(m, o, NULL, d);
}

static int
run(Program *p, const Tensor *in, Tensor *out, Diag *d)
{
	be_par_threads(p->threads > 0 ? p->threads : be_par_cores());
	return be_run_entry_ext(p->fn, &p->sig, in, out, d, p->ext, p->next);
}

/* be_llvm_threads: see llvm.h */
void
be_llvm_threads(Program *p, int n)
{
	p->threads = n;
}

/* be_llvm_cores: see llvm.h */
int
be_llvm_cores(void)
{
	return be_par_cores();
}

static void
release(Program *p)
{
	if (!p)
		return;
	LLVMOrcDisposeLLJIT(p->jit);
	freeext(p);
	be_sig_free(&p->sig);
	free(p);
}

const Backend be_llvm = { "llvm", prepare, run, release };

/* ---------------------------------------------------------------- files */

int
be_llvm_emit(const Module *m, const BeOpts *o, BeLlvmOut kind, FILE *out, FILE *h, Diag *d)
{
	int rc = 0;
	Mach mc;
	LLVMTargetMachineRef tm;
	LLVMContextRef cx;
	LLVMModuleRef mod;
	LLVMMemoryBufferRef buf = NULL;
	char *msg = NULL, err[512];

	if (mach_init(&mc, o, err, sizeof err)) {
		ir_error(d, (Loc){ 0, 0, 0 }, "llvm: %s", err);
		return 1;
	}
	tm = machine(&mc, o ? o->opt : 2);
	cx = LLVMContextCreate();
	mod = build(m, o, cx, tm, &mc, 0, 0, NULL, NULL, NULL, NULL, d);
	if (!mod) {
		rc = 1;
	} else if (kind == BE_LLVM_IR) {
		msg = LLVMPrintModuleToString(mod);
		fputs(msg, out);
	} else if (LLVMTargetMachineEmitToMemoryBuffer(tm, mod, LLVMObjectFile, &msg, &buf)) {
		ir_error(d, (Loc){ 0, 0, 0 }, "LLVM cannot generate an object file: %s", msg);
		rc = 1;
	} else {
		fwrite(LLVMGetBufferStart(buf), 1, LLVMGetBufferSize(buf), out);
		LLVMDisposeMemoryBuffer(buf);
	}
	LLVMDisposeMessage(msg);
	if (!rc && h) {
		fprintf(h, "/* Generated by graft's llvm backend.  DO NOT EDIT.  The calling\n"
		           "** convention is told in graft's backends/c/c.h. */\n");
		/* what the object runs on */
		fprintf(h, "/* for %s, ", mc.triple);
		if (!mc.given)
			fprintf(h, "%s's CPU (%s) and features", mc.native ? "this machine" : "LLVM's generic", *mc.cpu ? mc.cpu : "generic");
		else
			fprintf(h, "-mcpu=%s%s%s", *mc.cpu ? mc.cpu : "generic", o->attr && *o->attr ? " -mattr=" : "", o->attr ? o->attr : "");
		if (o && o->device)
			fprintf(h, " -device=%s", o->device);
		fprintf(h, " */\n#include <stdint.h>\n\n");
		for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f)) {
			size_t n;
			const char *name = LLVMGetValueName2(f, &n);
			if (!LLVMIsDeclaration(f) && LLVMGetLinkage(f) == LLVMExternalLinkage)
				fprintf(h, "int32_t %s(const void *const *in, void *const *out);\n", name);
		}
	}
	if (mod)
		LLVMDisposeModule(mod);
	LLVMContextDispose(cx);
	LLVMDisposeTargetMachine(tm);
	mach_free(&mc);
	return rc;
}
