/*
** ew.c: the llvm backend's elementwise ops: the map functions (ew_*),
** each computing one element of an op's result from its operands'
** elements in the op's numerics (ref/fold.c's, bit for bit on integers),
** with the context Ew; the classifier ll_ewop that picks an op's map
** function and context; ll_ewise, which lowers such an op as one map
** (ll_emit_map) with its fused producers' maps inside (ll_ewacc); and the
** questions the fusion in nodes.c asks of an op (ll_ewin, ll_ewreads,
** ll_nohalf) and the float16 support of every op (ll_h16ok).
*/
#define _POSIX_C_SOURCE 200809L
#include <math.h>

#include "llvmi.h"

static LLVMValueRef fcall2(G *g, const char *base, LLVMValueRef x, LLVMValueRef y, DType dt);

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
	LLVMValueRef x0 = ll_cvt(g, a, dt, DT_INT64), e0 = ll_cvt(g, b, dt, DT_INT64), one = ll_c64(g, 1), zero = ll_c64(g, 0);
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
	odd = LLVMBuildICmp(g->b, LLVMIntNE, LLVMBuildAnd(g->b, ll_cvt(g, b, dt, DT_INT64), one, ""), zero, "");
	r = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, x0, one, ""), one,
	                    LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, x0, ll_c64(g, -1), ""),
	                                    LLVMBuildSelect(g->b, odd, ll_c64(g, -1), one, ""), zero, ""), "");
	return ll_cvt(g, LLVMBuildSelect(g->b, neg, r, y, ""), DT_INT64, dt);
}

/* fcall2: a float math function of two arguments (llvm.NAME or libm) */
static LLVMValueRef
fcall2(G *g, const char *base, LLVMValueRef x, LLVMValueRef y, DType dt)
{
	char name[32];
	LLVMValueRef a[2] = { x, y };

	if (!strncmp(base, "llvm.", 5))
		snprintf(name, sizeof name, "%s.f%d", base, dt == DT_FLOAT64 ? 64 : 32);
	else
		snprintf(name, sizeof name, "%s%s", base, dt == DT_FLOAT64 ? "" : "f");
	return ll_callf(g, name, ll_elty(g, dt), a, 2);
}

/* ll_fcall1: a float math function of one argument (llvm.NAME or libm) */
LLVMValueRef
ll_fcall1(G *g, const char *base, LLVMValueRef x, DType dt)
{
	char name[32];
	LLVMValueRef a[1] = { x };

	if (!strncmp(base, "llvm.", 5))
		snprintf(name, sizeof name, "%s.f%d", base, dt == DT_FLOAT64 ? 64 : 32);
	else
		snprintf(name, sizeof name, "%s%s", base, dt == DT_FLOAT64 ? "" : "f");
	return ll_callf(g, name, ll_elty(g, dt), a, 1);
}

/* sxfn: the function LLVM calls for scalar.def's FN(name): an intrinsic
** where LLVM has one of the C library function's semantics, else it */
static const char *
sxfn(const char *name)
{
	static const char *const intr[][2] = {
		{ "ceil", "llvm.ceil" }, { "exp", "llvm.exp" }, { "fabs", "llvm.fabs" }, { "floor", "llvm.floor" },
		{ "log", "llvm.log" }, { "nearbyint", "llvm.roundeven" }, { "sqrt", "llvm.sqrt" },
	};

	for (size_t i = 0; i < sizeof intr / sizeof intr[0]; i++)
		if (!strcmp(intr[i][0], name))
			return intr[i][1];
	return name;
}

/* sxbuild: scalar.def's expression x at operands v and w, in e->dt
** (float32 for float16), its operands built left to right */
static LLVMValueRef
sxbuild(G *g, const Ew *e, const ScalarExpr *x, LLVMValueRef v, LLVMValueRef w)
{
	LLVMTypeRef t = ll_elty(g, e->dt);
	LLVMValueRef a, b, c;

	switch (x->kind) {
	case SX_X: return v;
	case SX_Y: return w;
	case SX_K: return LLVMConstReal(t, e->h16 ? ll_h_round(x->k) : x->k);
	case SX_P: return LLVMConstReal(t, e->p[x->p]);
	case SX_NEG: return LLVMBuildFNeg(g->b, sxbuild(g, e, x->a, v, w), "");
	case SX_FN: return ll_fcall1(g, sxfn(x->fn), sxbuild(g, e, x->a, v, w), e->dt);
	case SX_RND:
		a = sxbuild(g, e, x->a, v, w);
		return e->h16 ? ll_h_rnd(g, a) : a;
	case SX_ISNAN:
		a = sxbuild(g, e, x->a, v, w);
		return LLVMBuildFCmp(g->b, LLVMRealUNO, a, a, "");
	case SX_SEL:
		a = sxbuild(g, e, x->a, v, w);
		b = sxbuild(g, e, x->b, v, w);
		c = sxbuild(g, e, x->c, v, w);
		return LLVMBuildSelect(g->b, a, b, c, "");
	default: break;
	}
	a = sxbuild(g, e, x->a, v, w);
	b = sxbuild(g, e, x->b, v, w);
	switch (x->kind) {
	case SX_FN2:    /* C's fmod is LLVM's frem, pow its intrinsic */
		if (!strcmp(x->fn, "fmod"))
			return LLVMBuildFRem(g->b, a, b, "");
		return fcall2(g, !strcmp(x->fn, "pow") ? "llvm.pow" : x->fn, a, b, e->dt);
	case SX_ADD: return LLVMBuildFAdd(g->b, a, b, "");
	case SX_SUB: return LLVMBuildFSub(g->b, a, b, "");
	case SX_MUL: return LLVMBuildFMul(g->b, a, b, "");
	case SX_DIV: return LLVMBuildFDiv(g->b, a, b, "");
	case SX_MIN: return ll_fminmax(g, a, b, 0);
	case SX_MAX: return ll_fminmax(g, a, b, 1);
	case SX_GT: return LLVMBuildFCmp(g->b, LLVMRealOGT, a, b, "");
	default: return LLVMBuildFCmp(g->b, LLVMRealOLT, a, b, "");    /* SX_LT */
	}
}

/* idiv: integer division or remainder of a by b in dtype dt (ints, an
** SI_ code), by zero setting the error (and dividing by 1); x % -1 taken
** as x % 1, so that it never overflows; MIN / -1 sets the error (and
** divides by 1); floor_mod adds b to a nonzero remainder of the other
** sign */
static LLVMValueRef
idiv(G *g, int ints, DType dt, LLVMValueRef a, LLVMValueRef b)
{
	LLVMTypeRef t = LLVMTypeOf(a);
	LLVMValueRef zero = LLVMBuildICmp(g->b, LLVMIntEQ, b, LLVMConstNull(t), ""), e0, r, adj, ov;
	int sgn = ir_dtype_kind[dt] == 'i';

	e0 = LLVMBuildLoad2(g->b, g->i32, g->err, "");
	LLVMBuildStore(g->b, LLVMBuildOr(g->b, e0, LLVMBuildZExt(g->b, zero, g->i32, ""), ""), g->err);
	b = LLVMBuildSelect(g->b, zero, LLVMConstInt(t, 1, 0), b, "");
	if (ints == SI_MOD || ints == SI_FLOOR_MOD) {
		if (!sgn)
			return LLVMBuildURem(g->b, a, b, "");
		b = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, b, LLVMConstAllOnes(t), ""), LLVMConstInt(t, 1, 0), b, "");
		r = LLVMBuildSRem(g->b, a, b, "");
		if (ints == SI_MOD)
			return r;
		adj = LLVMBuildAnd(g->b, LLVMBuildICmp(g->b, LLVMIntNE, r, LLVMConstNull(t), ""),
		                   LLVMBuildICmp(g->b, LLVMIntNE, LLVMBuildICmp(g->b, LLVMIntSLT, r, LLVMConstNull(t), ""),
		                                 LLVMBuildICmp(g->b, LLVMIntSLT, b, LLVMConstNull(t), ""), ""), "");
		return LLVMBuildSelect(g->b, adj, LLVMBuildAdd(g->b, r, b, ""), r, "");
	}
	if (!sgn)
		return LLVMBuildUDiv(g->b, a, b, "");
	/* MIN / -1 overflows: an error too, as ref and c make it */
	ov = LLVMBuildAnd(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, a, LLVMConstInt(t, (unsigned long long)ir_dtype_min(dt), 1), ""),
	                  LLVMBuildICmp(g->b, LLVMIntEQ, b, LLVMConstAllOnes(t), ""), "");
	e0 = LLVMBuildLoad2(g->b, g->i32, g->err, "");
	LLVMBuildStore(g->b, LLVMBuildOr(g->b, e0, LLVMBuildZExt(g->b, ov, g->i32, ""), ""), g->err);
	b = LLVMBuildSelect(g->b, ov, LLVMConstInt(t, 1, 0), b, "");
	return LLVMBuildSDiv(g->b, a, b, "");
}

/* ll_ew_scalar: an op of scalar.def: its row on floats, its ints column
** on integers (abs wraps at the minimum, as negation does) */
LLVMValueRef
ll_ew_scalar(G *g, const void *ctx, LLVMValueRef *x)
{
	const Ew *e = ctx;
	LLVMValueRef v = x[0], w = e->sd->op < IR_MAXOPS && ir_ops[e->sd->op].nargs == 2 ? x[1] : NULL, pos, neg;
	LLVMTypeRef t = ll_elty(g, e->dt);
	int sgn = ir_dtype_kind[e->dt] == 'i';

	if (!ll_isint(e->dt))
		return sxbuild(g, e, e->sd->expr, v, w);
	switch (e->sd->ints) {
	case SI_NEG: return LLVMBuildNeg(g->b, v, "");
	case SI_ABS:
		return !sgn ? v : LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, v, LLVMConstInt(t, 0, 0), ""),
		                                  LLVMBuildNeg(g->b, v, ""), v, "");
	case SI_SIGN:
		pos = LLVMBuildICmp(g->b, sgn ? LLVMIntSGT : LLVMIntUGT, v, LLVMConstNull(t), "");
		neg = sgn ? LLVMBuildICmp(g->b, LLVMIntSLT, v, LLVMConstNull(t), "") : LLVMConstInt(g->i1, 0, 0);
		return LLVMBuildSelect(g->b, pos, LLVMConstInt(t, 1, 0),
		                       LLVMBuildSelect(g->b, neg, LLVMConstAllOnes(t), LLVMConstNull(t), ""), "");
	case SI_RELU: return ll_iminmax(g, v, LLVMConstNull(t), sgn, 1);
	case SI_CLIP:
		v = ll_iminmax(g, v, LLVMConstInt(t, (unsigned long long)(int64_t)e->hi, 1), sgn, 0);
		return ll_iminmax(g, v, LLVMConstInt(t, (unsigned long long)(int64_t)e->lo, 1), sgn, 1);
	case SI_ADD: return LLVMBuildAdd(g->b, v, w, "");
	case SI_SUB: return LLVMBuildSub(g->b, v, w, "");
	case SI_MUL: return LLVMBuildMul(g->b, v, w, "");
	case SI_MAX: case SI_MIN: return ll_iminmax(g, v, w, sgn, e->sd->ints == SI_MAX);
	case SI_POW: return ipow(g, v, w, e->dt);
	case SI_DIV: case SI_MOD: case SI_FLOOR_MOD: return idiv(g, e->sd->ints, e->dt, v, w);
	default: return v;      /* SI_SAME */
	}
}

/* cast: cast and annotation.cast_hint (the ops of scalar.def are
** ll_ew_scalar()'s) */
static LLVMValueRef
ew_cast(G *g, const void *ctx, LLVMValueRef *x)
{
	const Ew *e = ctx;

	if (e->h16 && e->dt == DT_FLOAT64)
		return ll_ho_f64(g, x[0]);
	return ll_cvt(g, x[0], e->dt, e->odt);
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
	} else if (!ll_isint(e->dt)) {
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
	LLVMTypeRef t = ll_elty(g, e->dt);
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
	LLVMValueRef t = ll_isint(e->dt) ? LLVMBuildICmp(g->b, LLVMIntNE, x[0], LLVMConstNull(LLVMTypeOf(x[0])), "")
	                              : LLVMBuildFCmp(g->b, LLVMRealUNE, x[0], LLVMConstNull(LLVMTypeOf(x[0])), "");

	return LLVMBuildSelect(g->b, t, x[1], x[2], "");
}

/* isnan, isinf, isfinite and logical_not */
static LLVMValueRef
ew_more(G *g, const void *ctx, LLVMValueRef *x)
{
	const Ew *e = ctx;
	LLVMValueRef v = x[0], r, a;
	LLVMTypeRef t = ll_elty(g, e->dt);

	if (e->op == OP_LOGICAL_NOT)
		return LLVMBuildZExt(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, v, LLVMConstNull(t), ""), g->i8, "");
	/* an integer is finite */
	if (ll_isint(e->dt))
		return LLVMConstInt(g->i8, e->op == OP_ISFINITE, 0);
	a = ll_fcall1(g, "llvm.fabs", v, e->dt);
	r = e->op == OP_ISNAN ? LLVMBuildFCmp(g->b, LLVMRealUNO, v, v, "")
	  : LLVMBuildFCmp(g->b, e->op == OP_ISINF ? LLVMRealOEQ : LLVMRealONE, a, LLVMConstReal(t, INFINITY), "");
	return LLVMBuildZExt(g->b, r, g->i8, "");
}

/* quantize: x[0] data (float32), x[1] scale, x[2] zero point */
LLVMValueRef
ll_ew_quantize(G *g, const void *ctx, LLVMValueRef *x)
{
	const Ew *e = ctx;
	LLVMValueRef v = LLVMBuildFDiv(g->b, x[0], x[1], ""), a[1];

	a[0] = v;
	if (e->even) {
		/* ONNX: halves to even, then the zero point added exactly (in
		   double) and saturated; NaN goes to the top, as in ref */
		LLVMValueRef t, hi = LLVMConstReal(g->f64, (double)ir_dtype_max(e->odt)), lo = LLVMConstReal(g->f64, (double)ir_dtype_min(e->odt));
		v = ll_callf(g, "llvm.roundeven.f32", g->f32, a, 1);
		t = LLVMBuildFAdd(g->b, LLVMBuildFPExt(g->b, v, g->f64, ""), LLVMBuildSIToFP(g->b, x[2], g->f64, ""), "");
		t = LLVMBuildSelect(g->b, LLVMBuildFCmp(g->b, LLVMRealOLT, t, hi, ""), t, hi, "");
		t = LLVMBuildSelect(g->b, LLVMBuildFCmp(g->b, LLVMRealOGT, t, lo, ""), t, lo, "");
		return ll_cvt_in(g, t, e->odt);
	}
	v = ll_callf(g, "llvm.round.f32", g->f32, a, 1);
	v = LLVMBuildFAdd(g->b, v, LLVMBuildSIToFP(g->b, x[2], g->f32, ""), "");
	v = ll_fminmax(g, v, LLVMConstReal(g->f32, (double)(float)ir_dtype_max(e->odt)), 0);
	v = ll_fminmax(g, v, LLVMConstReal(g->f32, (double)(float)ir_dtype_min(e->odt)), 1);
	return ll_cvt_in(g, v, e->odt);
}

/* dequantize: x[0] data, x[1] scale, x[2] zero point; a float16 result
** is first clipped to +-65504 (a NaN to 65504), as the reference clips it */
LLVMValueRef
ll_ew_dequantize(G *g, const void *ctx, LLVMValueRef *x)
{
	const Ew *e = ctx;
	LLVMValueRef d = LLVMBuildSub(g->b, ll_cvt(g, x[0], e->dt, DT_INT32), x[2], ""), v, big;

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
LLVMValueRef
ll_ew_requantize(G *g, const void *ctx, LLVMValueRef *x)
{
	const Ew *e = ctx;
	LLVMValueRef v = LLVMBuildSub(g->b, ll_cvt(g, x[0], e->dt, DT_INT32), x[1], "");

	if (!e->skip[0])
		v = ll_fpm(g, v, x[2], x[3], e->nearest);
	return ll_sat32(g, LLVMBuildAdd(g->b, v, x[4], ""), e->odt);
}

/* requantize in QNNPACK's float32 (rounding "HALF_TO_EVEN"): x[0] data,
** x[1] input zero point, x[2] the float32 multiplier, x[3] output zero
** point: roundeven(fl(sitofp(x - izp) * m)) + ozp in double, saturated */
LLVMValueRef
ll_ew_requantize_f32(G *g, const void *ctx, LLVMValueRef *x)
{
	const Ew *e = ctx;
	LLVMValueRef v = LLVMBuildSub(g->b, ll_cvt(g, x[0], e->dt, DT_INT32), x[1], ""), a[1], t;
	LLVMValueRef hi = LLVMConstReal(g->f64, (double)ir_dtype_max(e->odt)), lo = LLVMConstReal(g->f64, (double)ir_dtype_min(e->odt));

	a[0] = LLVMBuildFMul(g->b, LLVMBuildSIToFP(g->b, v, g->f32, ""), x[2], "");
	t = LLVMBuildFPExt(g->b, ll_callf(g, "llvm.roundeven.f32", g->f32, a, 1), g->f64, "");
	t = LLVMBuildFAdd(g->b, t, LLVMBuildSIToFP(g->b, x[3], g->f64, ""), "");
	t = LLVMBuildSelect(g->b, LLVMBuildFCmp(g->b, LLVMRealOLT, t, hi, ""), t, hi, "");
	t = LLVMBuildSelect(g->b, LLVMBuildFCmp(g->b, LLVMRealOGT, t, lo, ""), t, lo, "");
	return ll_cvt_in(g, t, e->odt);
}

/* qnn.add, qnn.mul: x[0], x[1] (per-tensor parameters in the context) */
LLVMValueRef
ll_ew_qnn(G *g, const void *ctx, LLVMValueRef *x)
{
	const Ew *e = ctx;
	LLVMValueRef a = ll_cvt(g, x[0], e->dt, DT_INT32), b = ll_cvt(g, x[1], e->dt, DT_INT32), v;

	if (e->op == OP_QNN_MUL) {
		v = LLVMBuildMul(g->b, LLVMBuildSub(g->b, a, ll_c32(g, e->zp[0]), ""), LLVMBuildSub(g->b, b, ll_c32(g, e->zp[1]), ""), "");
		if (!e->skip[0])
			v = ll_fpm(g, v, ll_c32(g, e->fx[0].mul), ll_c32(g, e->fx[0].shift), 0);
		return ll_sat32(g, LLVMBuildAdd(g->b, v, ll_c32(g, e->zp[2]), ""), e->odt);
	}
	/* requantize (or upcast) each side to the output parameters */
	for (int k = 0; k < 2; k++) {
		LLVMValueRef *s = k ? &b : &a;
		if (e->skip[k] == 2)
			continue;
		*s = LLVMBuildSub(g->b, *s, ll_c32(g, e->zp[k]), "");
		if (!e->skip[k])
			*s = ll_fpm(g, *s, ll_c32(g, e->fx[k].mul), ll_c32(g, e->fx[k].shift), 0);
		*s = LLVMBuildAdd(g->b, *s, ll_c32(g, e->zp[2]), "");
	}
	v = LLVMBuildAdd(g->b, a, b, "");
	v = LLVMBuildSub(g->b, v, ll_c32(g, e->zp[2]), "");
	return ll_sat32(g, v, e->odt);
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

/* ll_clip_whole: n is a clip of integer data whose bounds (as ibound
** reads them) hold every value of its dtype: no code, an alias of its
** operand (the quantized ReLU6 that a requantize to uint8 has already
** clipped: clip(x, 0, 255)) */
int
ll_clip_whole(const Module *m, NodeId n)
{
	DType dt = (DType)ir_type(m, m->nodes[ir_arg(m, n, 0)].type)->dtype;
	double lo, hi;

	return ll_isint(dt) && dt != DT_BOOL && ibound(dt, ll_attr(m, n, "a_min")->u.f, &lo) && ibound(dt, ll_attr(m, n, "a_max")->u.f, &hi) &&
	       lo == (double)ir_dtype_min(dt) && hi == (double)ir_dtype_max(dt);
}

/* ll_ewop: whether call c is an elementwise op that ll_ewise() lowers as it
** is: then its map function *f, context *e and elementwise operands
** *nin (the first ones, broadcast to the result); else 0 (call() lowers
** it, or refuses it).  Sets c's dtypes for float16 as the op copies it. */
int
ll_ewop(Call *c, Ew *e, MapFn **f, int *nin)
{
	const Module *m = c->m;
	OpId op = m->nodes[c->n].op;

	memset(e, 0, sizeof *e);
	e->op = op;
	e->dt = ll_cdt(c->adt[0]);
	e->odt = ll_cdt(c->odt);
	e->h16 = c->odt == DT_FLOAT16;
	*nin = 1;
	switch (op) {
	case OP_CAST:
		*f = ew_cast;
		return 1;
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
	case OP_ISNAN: case OP_ISINF: case OP_ISFINITE: case OP_LOGICAL_NOT:
		*f = ew_more;
		return 1;
	default:
		if (!(e->sd = ir_scalar_of(m, op, m->nodes[c->n].aux)) || ir_op_accepts(op, e->dt))
			return 0;       /* call() refuses it */
		for (int k = 0; k < ir_ops[op].nattrs && k < (int)(sizeof e->p / sizeof e->p[0]); k++) {
			const AttrVal *v = &ir_attrs(m, c->n)[k];
			double d = v->kind == AV_FLOAT ? v->u.f : v->kind == AV_INT ? (double)v->u.i : 0;
			e->p[k] = e->h16 ? ll_h_round(d) : d;
		}
		*nin = ir_ops[op].nargs;
		*f = ll_ew_scalar;
		if (e->sd->ints != SI_CLIP || !ll_isint(e->dt))
			return 1;
		/* integer bounds: call() refuses those that do not fit; one that
		   holds the whole dtype is no code (an alias) */
		return ibound(e->dt, e->p[0], &e->lo) && ibound(e->dt, e->p[1], &e->hi) &&
		       !(e->lo == (double)ir_dtype_min(e->dt) && e->hi == (double)ir_dtype_max(e->dt));
	}
}

/* ll_ewacc: the accessor of call c's operand j, broadcast to c's result: a
** fused producer (FUSED in c's scope: its own operands' accessors under
** it, built alike) or a read of its buffer */
Acc
ll_ewacc(G *g, const Call *c, int j)
{
	NodeId a = ir_arg(c->m, c->n, (uint32_t)j);

	if (c->s && c->s->done[a] == FUSED) {
		Fu *fu = ir_arena_alloc(&g->a, sizeof *fu);
		Ew *e = ir_arena_alloc(&g->a, sizeof *e);
		Call *pc = ir_arena_alloc(&g->a, sizeof *pc);
		Acc r = { 0 };
		ll_callargs(g, c->s, a, pc, 0);
		ll_ewop(pc, e, &fu->f, &fu->nin);
		fu->ctx = e;
		for (int k = 0; k < fu->nin; k++)
			fu->in[k] = ll_ewacc(g, pc, k);
		r.dt = pc->odt;
		r.fu = fu;
		return r;
	}
	return ll_bcast(g, c->a[j], c->adt[j], c->ad[j], c->ar[j], c->orank);
}

/* ll_ewise: an elementwise op whose first nin operands broadcast to the result */
Val
ll_ewise(G *g, Call *c, int nin, MapFn *f, const Ew *e)
{
	Val r = ll_tensorbuf(g, c->ot);
	Acc in[MAXIN], out = ll_dense_acc(r.p, c->odt, c->od, c->orank);

	for (int j = 0; j < nin; j++)
		in[j] = ll_ewacc(g, c, j);
	ll_emit_map(g, c->orank, c->od, &out, nin, in, f, e);
	return r;
}

/* batch_norm: x[0] data, x[1..4] gamma, beta, mean, var along the axis:
** (x - mean) / sqrt(var + epsilon) * gamma + beta in double, rounded once
** (skip[0]: no gamma, skip[1]: no beta) */
LLVMValueRef
ll_ew_batchnorm(G *g, const void *ctx, LLVMValueRef *x)
{
	const Ew *e = ctx;
	LLVMValueRef d[5], y;

	for (int k = 0; k < 5; k++)
		d[k] = ll_cvt(g, x[k], e->dt, DT_FLOAT64);
	y = LLVMBuildFDiv(g->b, LLVMBuildFSub(g->b, d[0], d[3], ""),
	                  ll_fcall1(g, "llvm.sqrt", LLVMBuildFAdd(g->b, d[4], LLVMConstReal(g->f64, e->lo), ""), DT_FLOAT64), "");
	if (!e->skip[0])
		y = LLVMBuildFMul(g->b, y, d[1], "");
	if (!e->skip[1])
		y = LLVMBuildFAdd(g->b, y, d[2], "");
	return e->h16 ? ll_ho_f64(g, y) : ll_cvt(g, y, DT_FLOAT64, e->dt);
}

/* ll_h16ok: whether call c's float16 operands and result, if any, are
** supported: elementwise ops (computed in float, rounded to half once),
** data movement, reductions, pools, softmax, dense, batch_matmul and
** conv2d (summed in float, rounded to half at each step as the
** reference rounds them) and dequantize */
int
ll_h16ok(const Call *c)
{
	int any = c->odt == DT_FLOAT16;

	for (int i = 0; i < 8; i++)
		any |= c->adt[i] == DT_FLOAT16;
	if (!any)
		return 1;
	if (ir_op_is_scalar(c->m->nodes[c->n].op) || (ir_ops[c->m->nodes[c->n].op].flags & OPF_VIEW))
		return 1;
	switch (c->m->nodes[c->n].op) {
	case OP_CAST:
	case OP_EQUAL: case OP_NOT_EQUAL: case OP_LESS: case OP_LESS_EQUAL: case OP_GREATER: case OP_GREATER_EQUAL:
	case OP_WHERE: case OP_ISNAN: case OP_ISINF: case OP_ISFINITE:
	case OP_NN_BIAS_ADD:
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

/* ll_ewin: the operands of op call c (its types: ll_callargs without a
** scope) that an elementwise loop reads (the first ones): ll_ewop()'s, or
** the data of a quantize, dequantize or requantize; 0 for other ops */
int
ll_ewin(const Call *c)
{
	Call t = *c;            /* ll_ewop may retype float16 operands */
	Ew e;
	MapFn *f;
	int nin;

	switch (c->m->nodes[c->n].op) {
	case OP_QNN_QUANTIZE: case OP_QNN_DEQUANTIZE: case OP_QNN_REQUANTIZE:
		return 1;
	default:
		return ir_type(c->m, c->ot)->kind == TY_TENSOR && ll_ewop(&t, &e, &f, &nin) ? nin : 0;
	}
}

/* ll_ewreads: the accessors the loop of op call c reads: ll_ewin(), and the
** parameters of a quantize (2), dequantize (2) or requantize (4) */
int
ll_ewreads(const Call *c)
{
	switch (c->m->nodes[c->n].op) {
	case OP_QNN_QUANTIZE: case OP_QNN_DEQUANTIZE: return 3;
	case OP_QNN_REQUANTIZE: return 5;
	default: return ll_ewin(c);
	}
}

/* ll_nohalf: no operand of call c nor its result is float16 */
int
ll_nohalf(const Call *c)
{
	for (int i = 0; i < 8; i++)
		if (c->adt[i] == DT_FLOAT16)
			return 0;
	return c->odt != DT_FLOAT16;
}
