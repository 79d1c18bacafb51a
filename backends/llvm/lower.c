/*
** lower.c: the llvm backend's lowering helpers (llvmi.h), which every op's
** lowering builds on: constants, types, element access and buffers;
** counted loops, functions of their own (ll_newfn, ll_fnenter) and the
** loops the JIT splits among threads (ll_par_open); the scalar semantics
** of casts, min/max and fixed-point multiplies; maps, the loop nests of
** elementwise code over accessors (broadcast, along an axis, dense) with
** fused producers computed in place; and reading attributes and constant
** operands.
*/
#define _POSIX_C_SOURCE 200809L
#include "llvmi.h"

/* ---------------------------------------------------------------- helpers */



/* ll_elty: the LLVM type of one element of dt (bool is i8) */
LLVMTypeRef
ll_elty(G *g, DType dt)
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

/* ll_tdims: the rank and dims of tensor type t */
int
ll_tdims(const Module *m, TypeId t, int64_t *dims)
{
	const Type *ty = ir_type(m, t);

	if (ty->n)
		memcpy(dims, ir_type_dims(m, t), ty->n * sizeof *dims);
	return (int)ty->n;
}


/* ll_strides: row-major strides of dims */
void
ll_strides(const int64_t *dims, int rank, int64_t *st)
{
	int64_t s = 1;

	for (int k = rank - 1; k >= 0; k--) {
		st[k] = s;
		s *= dims[k];
	}
}

/* ll_gep: a pointer to element idx (i64) of dtype dt in buffer p (i8*) */
LLVMValueRef
ll_gep(G *g, LLVMValueRef p, DType dt, LLVMValueRef idx)
{
	LLVMTypeRef t = ll_elty(g, dt);
	LLVMValueRef q = LLVMBuildBitCast(g->b, p, LLVMPointerType(t, 0), "");

	return LLVMBuildInBoundsGEP2(g->b, t, q, &idx, 1, "");
}

LLVMValueRef
ll_ld(G *g, LLVMValueRef p, DType dt, LLVMValueRef idx)
{
	return LLVMBuildLoad2(g->b, ll_elty(g, dt), ll_gep(g, p, dt, idx), "");
}

void
ll_st(G *g, LLVMValueRef p, DType dt, LLVMValueRef idx, LLVMValueRef v)
{
	LLVMBuildStore(g->b, v, ll_gep(g, p, dt, idx));
}

/* ll_entry_alloca: an alloca of t at the top of the current function, where
** mem2reg promotes it */
LLVMValueRef
ll_entry_alloca(G *g, LLVMTypeRef t)
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
LLVMValueRef
ll_callf(G *g, const char *name, LLVMTypeRef ret, LLVMValueRef *args, unsigned n)
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

/* ll_newbuf: a fresh zero-initialised internal buffer of nbytes */
LLVMValueRef
ll_newbuf(G *g, size_t nbytes, unsigned align)
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

/* ll_constbuf: an internal constant global holding nbytes of data; in the
** JIT, from BLOBMIN bytes, a blob (Blob) */
LLVMValueRef
ll_constbuf(G *g, const void *data, size_t nbytes)
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

size_t
ll_tbytes(const Module *m, TypeId t)
{
	int64_t n = ir_type_numel(m, t);
	return (size_t)(n < 0 ? 0 : n) * ir_dtype_bytes[ll_tdt(m, t)];
}

/* ll_tensorbuf: a fresh buffer for a tensor of type t */
Val
ll_tensorbuf(G *g, TypeId t)
{
	Val v = { 0 };
	v.p = ll_newbuf(g, ll_tbytes(g->m, t), 64);
	return v;
}

/* ---------------------------------------------------------------- loops */

/* ll_loop_openv: starts for (iv = lo; iv < hi; iv += step) (i64 values)
** and leaves the builder in its body; returns iv */
LLVMValueRef
ll_loop_openv(G *g, Loop *l, LLVMValueRef lo, LLVMValueRef hi, int64_t step)
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

/* ll_loop_open: ll_loop_openv on constant bounds */
LLVMValueRef
ll_loop_open(G *g, Loop *l, int64_t lo, int64_t hi, int64_t step)
{
	return ll_loop_openv(g, l, ll_c64(g, lo), ll_c64(g, hi), step);
}

/* ll_loop_close: ends the loop opened by ll_loop_open; the builder goes after it */
void
ll_loop_close(G *g, Loop *l)
{
	LLVMValueRef nx = LLVMBuildNSWAdd(g->b, l->iv, ll_c64(g, l->step), "");
	LLVMBasicBlockRef cur = LLVMGetInsertBlock(g->b);

	LLVMAddIncoming(l->iv, &nx, &cur, 1);
	LLVMBuildBr(g->b, l->head);
	LLVMPositionBuilderAtEnd(g->b, l->exit);
}

/* ll_newfn: a new internal nounwind function name of type ft, noinline if
** asked (op functions and shared kernels: called from several places,
** or kept apart for the optimizer's sake) */
LLVMValueRef
ll_newfn(G *g, const char *name, LLVMTypeRef ft, int noinline)
{
	LLVMValueRef f = LLVMAddFunction(g->mod, name, ft);

	LLVMSetLinkage(f, LLVMInternalLinkage);
	LLVMAddAttributeAtIndex(f, (unsigned)-1, LLVMCreateEnumAttribute(g->cx, LLVMGetEnumAttributeKindForName("nounwind", 8), 0));
	if (noinline)
		LLVMAddAttributeAtIndex(f, (unsigned)-1, LLVMCreateEnumAttribute(g->cx, LLVMGetEnumAttributeKindForName("noinline", 8), 0));
	return f;
}

/* ll_fnenter: saves in *h where the builder is, then builds f (its in and
** err: its parameters 0 and 1) from a new entry block */
void
ll_fnenter(G *g, LLVMValueRef f, Here *h)
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

/* ll_fnleave: ends the function ll_fnenter started with a return, and goes
** back to where the builder was */
void
ll_fnleave(G *g, const Here *h)
{
	LLVMBuildRetVoid(g->b);
	g->fn = h->fn;
	g->in = h->in;
	g->err = h->err;
	LLVMPositionBuilderAtEnd(g->b, h->at);
}

/* ll_parbody: the type of a split loop's function, void (in, err, lo, hi) */
LLVMTypeRef
ll_parbody(G *g)
{
	LLVMTypeRef pt[4] = { LLVMPointerType(g->p8, 0), LLVMPointerType(g->i32, 0), g->i64, g->i64 };

	return LLVMFunctionType(LLVMVoidTypeInContext(g->cx), pt, 4, 0);
}

/* ll_parrun: runs body (ll_parbody()) on [0, n) with in and g->err: through
** graft_par_run (be_par_run, par.h: the JIT defines the symbol) when
** g->par and n > 1, else by a plain call */
void
ll_parrun(G *g, LLVMValueRef body, LLVMValueRef in, int64_t n)
{
	LLVMTypeRef ft = ll_parbody(g), rt;
	LLVMValueRef args[4] = { body, in, g->err, ll_c64(g, n) }, run;

	if (!g->par || n < 2) {
		LLVMValueRef a[4] = { in, g->err, ll_c64(g, 0), ll_c64(g, n) };
		LLVMBuildCall2(g->b, ft, body, a, 4, "");
		return;
	}
	rt = LLVMFunctionType(LLVMVoidTypeInContext(g->cx),
	                      (LLVMTypeRef[]){ LLVMPointerType(ft, 0), LLVMPointerType(g->p8, 0), LLVMPointerType(g->i32, 0), g->i64 }, 4, 0);
	if (!(run = LLVMGetNamedFunction(g->mod, "graft_par_run")))
		run = LLVMAddFunction(g->mod, "graft_par_run", rt);
	LLVMBuildCall2(g->b, rt, run, args, 4, "");
}

/* ll_par_open: starts a loop over [0, n) that, in the JIT, becomes a
** function of its own, "void NAME.par(in, err, lo, hi)" running
** [lo, hi), which the enclosing function runs through graft_par_run
** (be_par_run, par.h: the JIT defines the symbol); elsewhere
** (--emit obj, a loop of fewer than two iterations) a plain loop.  The
** builder is left in the loop's body; returns its iv.  What the body
** uses must be defined inside it: constants, globals, the entry's
** parameters (ll_relocal), and values it computes. */
LLVMValueRef
ll_par_open(G *g, Par *p, int64_t n)
{
	char name[128];

	memset(p, 0, sizeof *p);
	if (!g->par || n < 2)
		return ll_loop_open(g, &p->l, 0, n, 1);
	snprintf(name, sizeof name, "%s.par", LLVMGetValueName(g->fn));
	p->body = ll_newfn(g, name, ll_parbody(g), 0);
	ll_parrun(g, p->body, g->in, n);
	ll_fnenter(g, p->body, &p->h);
	return ll_loop_openv(g, &p->l, LLVMGetParam(p->body, 2), LLVMGetParam(p->body, 3), 1);
}

/* ll_par_close: ends the loop ll_par_open started; the builder goes after it
** in the enclosing function */
void
ll_par_close(G *g, Par *p)
{
	ll_loop_close(g, &p->l);
	if (!p->body)
		return;
	ll_fnleave(g, &p->h);
	ll_relocal(g, p->body);
}


/* ---------------------------------------------------------------- scalar semantics */

/* ll_cvt: v of dtype from converted to dtype to as TVM's cast does */
LLVMValueRef
ll_cvt(G *g, LLVMValueRef v, DType from, DType to)
{
	LLVMTypeRef t = ll_elty(g, to);
	int fs = ir_dtype_kind[from] == 'i', fromf = !ll_isint(from), tof = !ll_isint(to);

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
		return ll_callf(g, name, t, a, 1);
	}
	return ir_dtype_bytes[to] > ir_dtype_bytes[from] ? LLVMBuildFPExt(g->b, v, t, "") : LLVMBuildFPTrunc(g->b, v, t, "");
}

/* ll_cvt_in: float v, already clipped to the range of integer dtype to
** (no NaN), converted to it: as ll_cvt, but for dtypes of one or two
** bytes with a plain conversion through int32, which LLVM vectorizes
** (its saturating conversions it does not) */
LLVMValueRef
ll_cvt_in(G *g, LLVMValueRef v, DType to)
{
	if (ir_dtype_bytes[to] > 2)
		return ll_cvt(g, v, LLVMTypeOf(v) == g->f32 ? DT_FLOAT32 : DT_FLOAT64, to);
	return LLVMBuildTrunc(g->b, LLVMBuildFPToSI(g->b, v, g->i32, ""), ll_elty(g, to), "");
}

/* imin, imax, fmin_, fmax_: selects on ordered compares, as TVM's min/max */
LLVMValueRef
ll_iminmax(G *g, LLVMValueRef a, LLVMValueRef b, int sgn, int max)
{
	LLVMIntPredicate p = max ? (sgn ? LLVMIntSGT : LLVMIntUGT) : (sgn ? LLVMIntSLT : LLVMIntULT);
	return LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, p, a, b, ""), a, b, "");
}

LLVMValueRef
ll_fminmax(G *g, LLVMValueRef a, LLVMValueRef b, int max)
{
	return LLVMBuildSelect(g->b, LLVMBuildFCmp(g->b, max ? LLVMRealOGT : LLVMRealOLT, a, b, ""), a, b, "");
}

/* ll_sat32: int32 v clipped to the range of integer dtype to and cast */
LLVMValueRef
ll_sat32(G *g, LLVMValueRef v, DType to)
{
	if (to == DT_INT32 || to == DT_UINT32 || ir_dtype_bytes[to] > 4)
		return ll_cvt(g, v, DT_INT32, to);
	v = ll_iminmax(g, v, ll_c32(g, ir_dtype_max(to)), 1, 0);
	v = ll_iminmax(g, v, ll_c32(g, ir_dtype_min(to)), 1, 1);
	return LLVMBuildTrunc(g->b, v, ll_elty(g, to), "");
}

/* ll_fixed: ref_fixed(d), zero for a d that is not finite (refused earlier) */
RefFixed
ll_fixed(double d)
{
	RefFixed f;
	ref_fixed(d, &f);
	return f;
}

/* ll_fpm: int32 x times the fixed multiplier (mul, shift: i32 values),
** rounded UPWARD or to nearest, in int64 (wrapping), truncated to int32 */
LLVMValueRef
ll_fpm(G *g, LLVMValueRef x, LLVMValueRef mul, LLVMValueRef shift, int nearest)
{
	LLVMValueRef zero = ll_c32(g, 0), ls, rs, total, t, half;

	ls = ll_iminmax(g, shift, zero, 1, 1);
	rs = ll_iminmax(g, LLVMBuildSub(g->b, zero, shift, ""), zero, 1, 1);
	total = LLVMBuildZExt(g->b, LLVMBuildAdd(g->b, rs, ll_c32(g, 31), ""), g->i64, "");
	t = LLVMBuildShl(g->b, LLVMBuildSExt(g->b, x, g->i64, ""), LLVMBuildZExt(g->b, ls, g->i64, ""), "");
	t = LLVMBuildMul(g->b, t, LLVMBuildSExt(g->b, mul, g->i64, ""), "");
	half = LLVMBuildShl(g->b, ll_c64(g, 1), LLVMBuildSub(g->b, total, ll_c64(g, 1), ""), "");
	if (nearest)
		half = LLVMBuildSub(g->b, half, LLVMBuildZExt(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, t, ll_c64(g, 0), ""), g->i64, ""), "");
	t = LLVMBuildAShr(g->b, LLVMBuildAdd(g->b, t, half, ""), total, "");
	return LLVMBuildTrunc(g->b, t, g->i32, "");
}

/* ---------------------------------------------------------------- maps */

enum { PARMAP = 1 << 15 };      /* elements of a map worth splitting among threads */

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
			LLVMValueRef v = ll_ld(g, a->p, a->dt, off[k]);
			return h && a->dt == DT_FLOAT16 ? ll_h_load(g, v) : v;
		}
	return NULL;
}

/* ll_emit_map: for every multi-index over dims, out = f(in...) (a copy of
** in[0] when f is NULL).  Dims that are contiguous for every accessor
** are merged first, so that plain elementwise ops run one flat loop.
** Inputs that are fused producers (Acc.fu) are computed in the loop
** from what they read, at most MAXLEAF accessors in all (ewmark). */
void
ll_emit_map(G *g, int rank, const int64_t *dims, Acc *out, int nin, const Acc *in, MapFn *f, const void *ctx)
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
		off[j] = ll_c64(g, acc[j]->base);
	for (int k = 0; k < r; k++) {
		LLVMValueRef iv = k == 0 && split ? ll_par_open(g, &pr, d[0]) : ll_loop_open(g, &l[k], 0, d[k], 1);
		for (int j = 0; j <= nl; j++)
			if (s[j][k])
				off[j] = ll_add64(g, off[j], ll_mul64(g, iv, s[j][k]));
	}
	for (int j = 0; j < nin; j++)
		x[j] = accval(g, &in[j], acc, off, nl, f != NULL);
	ll_st(g, out->p, out->dt, off[nl], !f ? x[0] : out->dt == DT_FLOAT16 ? ll_h_store(g, f(g, ctx, x)) : f(g, ctx, x));
	for (int k = r - 1; k >= 0; k--)
		if (k == 0 && split)
			ll_par_close(g, &pr);
		else
			ll_loop_close(g, &l[k]);
}

/* ll_bcast: an accessor reading a (dims adims, rank ar) broadcast to the
** output dims od of rank orank (numpy rules: aligned at the right) */
Acc
ll_bcast(G *g, Val v, DType dt, const int64_t *adims, int ar, int orank)
{
	Acc a;
	int64_t own[MAXD];

	memset(&a, 0, sizeof a);
	a.p = v.p;
	a.dt = dt;
	ll_strides(adims, ar, own);
	for (int k = 0; k < orank; k++) {
		int j = k - (orank - ar);
		a.st[k] = j < 0 || adims[j] == 1 ? 0 : own[j];
	}
	return a;
}

/* ll_along: an accessor reading a vector of n elements (or a scalar) along
** axis ax of an output of rank orank */
Acc
ll_along(Val v, DType dt, int64_t n, int ax, int orank)
{
	Acc a;

	memset(&a, 0, sizeof a);
	a.p = v.p;
	a.dt = dt;
	if (n > 1 && ax >= 0 && ax < orank)
		a.st[ax] = 1;
	return a;
}

/* ll_dense_acc: the row-major accessor of a tensor of dims */
Acc
ll_dense_acc(LLVMValueRef p, DType dt, const int64_t *dims, int rank)
{
	Acc a;

	memset(&a, 0, sizeof a);
	a.p = p;
	a.dt = dt;
	ll_strides(dims, rank, a.st);
	return a;
}

/* ---------------------------------------------------------------- attributes and constants */

const AttrVal *
ll_attr(const Module *m, NodeId n, const char *name)
{
	int i = ir_op_attr_index(m->nodes[n].op, name, strlen(name));
	return i < 0 ? NULL : &ir_attrs(m, n)[i];
}

int64_t
ll_aint(const Module *m, NodeId n, const char *name)
{
	const AttrVal *v = ll_attr(m, n, name);
	return v && (v->kind == AV_INT || v->kind == AV_BOOL) ? v->u.i : 0;
}

const char *
ll_astr(const Module *m, NodeId n, const char *name)
{
	const AttrVal *v = ll_attr(m, n, name);
	return v && v->kind == AV_STR ? ir_symstr(m, v->u.s) : "";
}

/* ll_aints: the integers of an int-list attribute; -1 if None or not a list */
int
ll_aints(const Module *m, NodeId n, const char *name, int64_t *out, int max)
{
	const AttrVal *v = ll_attr(m, n, name);
	int k = 0;

	if (!v || v->kind != AV_ARRAY)
		return -1;
	for (uint32_t i = 0; i < v->n && k < max; i++)
		if (m->attrs[v->first + i].kind == AV_INT)
			out[k++] = m->attrs[v->first + i].u.i;
	return k;
}

/* ll_cdata: the data of the constant behind v (NULL if v is not a constant) */
const void *
ll_cdata(const G *g, Val v, TypeId *t)
{
	const Const *c;

	if (!v.cnode)
		return NULL;
	c = &g->m->consts[g->m->nodes[v.cnode].aux];
	*t = c->type;
	return c->data;
}

/* ll_cnum: element i of constant v as a double (i clamped to its size) */
int
ll_cnum(const G *g, Val v, int64_t i, double *out)
{
	TypeId t;
	const unsigned char *p = ll_cdata(g, v, &t);
	int64_t n;
	DType dt;

	if (!p)
		return 0;
	n = ir_type_numel(g->m, t);
	dt = ll_tdt(g->m, t);
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

/* ll_cnumel: the element count of constant v */
int64_t
ll_cnumel(const G *g, Val v)
{
	TypeId t;
	if (!ll_cdata(g, v, &t))
		return -1;
	return ir_type_numel(g->m, t);
}

void
ll_refuse(G *g, NodeId n, const char *why)
{
	ir_error(g->d, g->m->locs[n], "the llvm backend cannot run %s: %s",
	         g->m->nodes[n].kind == NK_CALL ? ir_ops[g->m->nodes[n].op].name : "this expression", why);
	g->errors++;
}
