/*
** reduce.c: the llvm backend's reductions and the ops built on them:
** sum, prod, max, min, argmax, argmin and mean; global_avg_pool2d,
** softmax, cumsum and cumprod, max and avg pool2d, dense and
** batch_matmul.  Integer sums run in int64 and wrap; float ones in source
** order in their dtype, float16 ones in float rounded to half at each
** step (half.c).
*/
#define _POSIX_C_SOURCE 200809L
#include <math.h>

#include "llvmi.h"

/* accdt: the accumulator dtype of a sum over dt (float16 sums in float,
** rounded to half at each step) */
static DType accdt(DType dt) { return ll_isint(dt) ? DT_INT64 : ll_cdt(dt); }

/* wrapsum: an int64 sum of dt values wrapped to dt and widened back: what
** summing in dt gives (TVM's tvm::sum, as ref does) */
static LLVMValueRef
wrapsum(G *g, LLVMValueRef v, DType dt)
{
	return ll_isint(dt) && ir_dtype_bytes[dt] < 8 ? ll_cvt(g, ll_cvt(g, v, DT_INT64, dt), dt, DT_INT64) : v;
}

/* mean_over: out (kept dims, row-major) = the mean of x over the dims
** marked in red; integers sum in their dtype (wrapping) and divide
** truncating; floats divide by the count in their dtype (nothing by 1) */
static void
mean_over(G *g, Val x, DType dt, const int64_t *d, int r, const int *red, LLVMValueRef op, DType odt)
{
	int64_t ist[MAXD], cnt = 1, kst[MAXD], ks = 1;
	Loop l[MAXD];
	LLVMValueRef off = ll_c64(g, 0), ooff = ll_c64(g, 0), acc, v;
	DType adt = accdt(dt);
	LLVMTypeRef at = ll_elty(g, adt);
	int nl = 0;

	ll_strides(d, r, ist);
	for (int k = r - 1; k >= 0; k--) {
		if (red[k])
			cnt *= d[k];
		else {
			kst[k] = ks;
			ks *= d[k];
		}
	}
	acc = ll_entry_alloca(g, at);
	for (int k = 0; k < r; k++)
		if (!red[k]) {
			LLVMValueRef iv = ll_loop_open(g, &l[nl++], 0, d[k], 1);
			off = ll_add64(g, off, ll_mul64(g, iv, ist[k]));
			ooff = ll_add64(g, ooff, ll_mul64(g, iv, kst[k]));
		}
	LLVMBuildStore(g->b, LLVMConstNull(at), acc);
	{
		int nk = nl;
		for (int k = 0; k < r; k++)
			if (red[k]) {
				LLVMValueRef iv = ll_loop_open(g, &l[nl++], 0, d[k], 1);
				off = ll_add64(g, off, ll_mul64(g, iv, ist[k]));
			}
		v = ll_h_cvt(g, ll_ld(g, x.p, dt, off), dt, adt);
		v = ll_isint(dt) ? LLVMBuildAdd(g->b, LLVMBuildLoad2(g->b, at, acc, ""), v, "")
		              : LLVMBuildFAdd(g->b, LLVMBuildLoad2(g->b, at, acc, ""), v, "");
		LLVMBuildStore(g->b, dt == DT_FLOAT16 ? ll_h_rnd(g, v) : v, acc);
		while (nl > nk)
			ll_loop_close(g, &l[--nl]);
	}
	v = wrapsum(g, LLVMBuildLoad2(g->b, at, acc, ""), dt);
	v = ll_isint(dt) ? LLVMBuildSDiv(g->b, v, ll_c64(g, cnt ? cnt : 1), "")
	              : LLVMBuildFDiv(g->b, v, LLVMConstReal(at, dt == DT_FLOAT16 ? ll_h_round((double)(cnt ? cnt : 1))
	                                                                          : (double)(cnt ? cnt : 1)), "");
	ll_st(g, op, odt, ooff, ll_h_cvt(g, v, adt, odt));
	while (nl > 0)
		ll_loop_close(g, &l[--nl]);
}

Val
ll_mean(G *g, Call *c)
{
	int64_t axes[MAXD];
	int na = ll_aints(c->m, c->n, "axis", axes, MAXD), red[MAXD] = { 0 }, ex = (int)ll_aint(c->m, c->n, "exclude");
	Val r = ll_tensorbuf(g, c->ot);

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

/* ll_reduce: sum, prod, max, min, argmax, argmin as the reference: sums
** and products in the data's dtype (integers wrapping; float16 in float,
** rounded to half at each step) in row-major order, max and min
** propagating NaN, an arg the row-major index among the reduced elements
** of the first (select_last_index: last) extreme */
Val
ll_reduce(G *g, Call *c)
{
	int64_t axes[MAXD], ist[MAXD], kst[MAXD], ks = 1;
	int na = ll_aints(c->m, c->n, "axis", axes, MAXD), red[MAXD] = { 0 }, ex = (int)ll_aint(c->m, c->n, "exclude");
	int op = c->m->nodes[c->n].op, r = c->ar[0], nl = 0, nk;
	int arg = op == OP_ARGMAX || op == OP_ARGMIN, max = op == OP_MAX || op == OP_ARGMAX;
	int last = arg && ll_aint(c->m, c->n, "select_last_index");
	DType dt = ll_cdt(c->adt[0]);
	LLVMTypeRef t = ll_elty(g, dt);
	Val out = ll_tensorbuf(g, c->ot);
	Loop l[MAXD];
	LLVMValueRef off = ll_c64(g, 0), ooff = ll_c64(g, 0), acc, best, j, v, cur, take, init;

	if (dt == DT_BOOL) {
		ll_refuse(g, c->n, "on bool tensors it is not supported");
		return out;
	}
	for (int k = 0; k < r; k++)
		red[k] = na < 0;
	for (int k = 0; k < na; k++)
		red[axes[k] < 0 ? axes[k] + r : axes[k]] = 1;
	if (ex && na >= 0)
		for (int k = 0; k < r; k++)
			red[k] = !red[k];
	ll_strides(c->ad[0], r, ist);
	for (int k = r - 1; k >= 0; k--)
		if (!red[k]) {
			kst[k] = ks;
			ks *= c->ad[0][k];
		}
	if (op == OP_SUM || op == OP_PROD)
		init = ll_isint(dt) ? LLVMConstInt(t, op == OP_PROD, 0) : LLVMConstReal(t, op == OP_PROD);
	else if (!ll_isint(dt))
		init = LLVMConstReal(t, max ? -INFINITY : INFINITY);
	else
		init = LLVMConstInt(t, (unsigned long long)(max ? ir_dtype_min(dt) : ir_dtype_max(dt)), 1);
	acc = ll_entry_alloca(g, t);
	best = ll_entry_alloca(g, g->i64);
	j = ll_entry_alloca(g, g->i64);
	for (int k = 0; k < r; k++)
		if (!red[k]) {
			LLVMValueRef iv = ll_loop_open(g, &l[nl++], 0, c->ad[0][k], 1);
			off = ll_add64(g, off, ll_mul64(g, iv, ist[k]));
			ooff = ll_add64(g, ooff, ll_mul64(g, iv, kst[k]));
		}
	LLVMBuildStore(g->b, init, acc);
	LLVMBuildStore(g->b, ll_c64(g, 0), best);
	LLVMBuildStore(g->b, ll_c64(g, 0), j);
	nk = nl;
	for (int k = 0; k < r; k++)
		if (red[k]) {
			LLVMValueRef iv = ll_loop_open(g, &l[nl++], 0, c->ad[0][k], 1);
			off = ll_add64(g, off, ll_mul64(g, iv, ist[k]));
		}
	v = ll_h_cvt(g, ll_ld(g, c->a[0].p, c->adt[0], off), c->adt[0], dt);
	cur = LLVMBuildLoad2(g->b, t, acc, "");
	if (op == OP_SUM || op == OP_PROD) {
		if (ll_isint(dt))
			v = op == OP_SUM ? LLVMBuildAdd(g->b, cur, v, "") : LLVMBuildMul(g->b, cur, v, "");
		else
			v = op == OP_SUM ? LLVMBuildFAdd(g->b, cur, v, "") : LLVMBuildFMul(g->b, cur, v, "");
		if (c->adt[0] == DT_FLOAT16)
			v = ll_h_rnd(g, v);
	} else {
		LLVMValueRef jv = LLVMBuildLoad2(g->b, g->i64, j, "");
		if (ll_isint(dt)) {
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
			take = LLVMBuildOr(g->b, take, LLVMBuildICmp(g->b, LLVMIntEQ, jv, ll_c64(g, 0), ""), "");
			LLVMBuildStore(g->b, LLVMBuildSelect(g->b, take, jv, LLVMBuildLoad2(g->b, g->i64, best, ""), ""), best);
			LLVMBuildStore(g->b, ll_add64(g, jv, ll_c64(g, 1)), j);
		}
		v = LLVMBuildSelect(g->b, take, v, cur, "");
	}
	LLVMBuildStore(g->b, v, acc);
	while (nl > nk)
		ll_loop_close(g, &l[--nl]);
	if (arg)
		ll_st(g, out.p, c->odt, ooff, LLVMBuildTrunc(g->b, LLVMBuildLoad2(g->b, g->i64, best, ""), g->i32, ""));
	else
		ll_st(g, out.p, c->odt, ooff, ll_h_cvt(g, LLVMBuildLoad2(g->b, t, acc, ""), dt, c->odt));
	while (nl > 0)
		ll_loop_close(g, &l[--nl]);
	return out;
}

Val
ll_global_avg_pool(G *g, Call *c)
{
	int pos[4], red[MAXD] = { 0 };
	Val r = ll_tensorbuf(g, c->ot);

	if (c->ar[0] != 4 || !ir_layout_perm(ll_astr(c->m, c->n, "layout"), "NCHW", pos)) {
		ll_refuse(g, c->n, "only NCHW-like layouts of rank 4 are supported");
		return r;
	}
	red[pos[2]] = red[pos[3]] = 1;
	mean_over(g, c->a[0], c->adt[0], c->ad[0], 4, red, r.p, c->odt);
	return r;
}

/* ll_softmax over axis: max, sum of exp(x - max), divide, in the dtype
** (float16 as the reference: x - max, its exp, each partial sum and each
** quotient rounded to half, the exp stored as half) */
Val
ll_softmax(G *g, Call *c)
{
	int64_t ax = ll_aint(c->m, c->n, "axis"), outer = 1, n, in = 1;
	Val r = ll_tensorbuf(g, c->ot);
	Loop lo, li, lk;
	LLVMValueRef base, mx, sum, v;
	DType dt = c->odt, ct = ll_cdt(dt);
	LLVMTypeRef t = ll_elty(g, ct);
	int h = dt == DT_FLOAT16;

	if (ll_isint(c->odt)) {
		ll_refuse(g, c->n, "only float tensors are supported");
		return r;
	}
	if (ax < 0)
		ax += c->orank;
	if (ax < 0 || ax >= c->orank) {
		ll_refuse(g, c->n, "the axis is out of range");
		return r;
	}
	n = c->od[ax];
	for (int k = 0; k < ax; k++)
		outer *= c->od[k];
	for (int k = (int)ax + 1; k < c->orank; k++)
		in *= c->od[k];
	mx = ll_entry_alloca(g, t);
	sum = ll_entry_alloca(g, t);
	base = ll_mul64(g, ll_loop_open(g, &lo, 0, outer, 1), n * in);
	base = ll_add64(g, base, ll_loop_open(g, &li, 0, in, 1));
	LLVMBuildStore(g->b, LLVMConstReal(t, -INFINITY), mx);
	LLVMBuildStore(g->b, LLVMConstReal(t, 0), sum);
	v = ll_ld(g, c->a[0].p, dt, ll_add64(g, base, ll_mul64(g, ll_loop_open(g, &lk, 0, n, 1), in)));
	LLVMBuildStore(g->b, ll_fminmax(g, ll_h_cvt(g, v, dt, ct), LLVMBuildLoad2(g->b, t, mx, ""), 1), mx);
	ll_loop_close(g, &lk);
	{
		LLVMValueRef i = ll_mul64(g, ll_loop_open(g, &lk, 0, n, 1), in), e;
		e = LLVMBuildFSub(g->b, ll_h_cvt(g, ll_ld(g, c->a[0].p, dt, ll_add64(g, base, i)), dt, ct),
		                  LLVMBuildLoad2(g->b, t, mx, ""), "");
		e = ll_fcall1(g, "llvm.exp", h ? ll_h_rnd(g, e) : e, ct);
		e = h ? ll_h_rnd(g, e) : e;
		ll_st(g, r.p, dt, ll_add64(g, base, i), ll_h_cvt(g, e, ct, dt));
		e = LLVMBuildFAdd(g->b, LLVMBuildLoad2(g->b, t, sum, ""), e, "");
		LLVMBuildStore(g->b, h ? ll_h_rnd(g, e) : e, sum);
		ll_loop_close(g, &lk);
	}
	{
		LLVMValueRef i = ll_add64(g, base, ll_mul64(g, ll_loop_open(g, &lk, 0, n, 1), in));
		v = LLVMBuildFDiv(g->b, ll_h_cvt(g, ll_ld(g, r.p, dt, i), dt, ct), LLVMBuildLoad2(g->b, t, sum, ""), "");
		ll_st(g, r.p, dt, i, ll_h_cvt(g, v, ct, dt));
		ll_loop_close(g, &lk);
	}
	ll_loop_close(g, &li);
	ll_loop_close(g, &lo);
	return r;
}

/* ll_scan: cumsum and cumprod as the reference: each element cast to the
** result's dtype, accumulated in order along the axis (axis None: the
** flattened data), integers wrapping, floats rounded at each step
** (float16 in float, rounded to half) */
Val
ll_scan(G *g, Call *c)
{
	const AttrVal *av = ll_attr(c->m, c->n, "axis");
	int64_t outer = 1, len = 1, inner = 1, axis;
	int prod = c->m->nodes[c->n].op == OP_CUMPROD, fl = !ll_isint(c->odt), h = c->odt == DT_FLOAT16;
	Val r = ll_tensorbuf(g, c->ot);
	LLVMTypeRef t = ll_elty(g, ll_cdt(c->odt));
	Loop lo, li, lk;
	LLVMValueRef base, acc, k, at, x, a, s;

	if (c->odt == DT_BOOL) {
		ll_refuse(g, c->n, "into bool is not supported");
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
	acc = ll_entry_alloca(g, t);
	base = ll_mul64(g, ll_loop_open(g, &lo, 0, outer, 1), len * inner);
	base = ll_add64(g, base, ll_loop_open(g, &li, 0, inner, 1));
	LLVMBuildStore(g->b, fl ? LLVMConstReal(t, prod) : LLVMConstInt(t, (unsigned long long)prod, 0), acc);
	k = ll_loop_open(g, &lk, 0, len, 1);
	at = ll_add64(g, base, ll_mul64(g, k, inner));
	x = ll_h_opnd(g, ll_ld(g, c->a[0].p, c->adt[0], at), c->adt[0], c->odt);
	a = LLVMBuildLoad2(g->b, t, acc, "");
	s = fl ? (prod ? LLVMBuildFMul(g->b, a, x, "") : LLVMBuildFAdd(g->b, a, x, ""))
	       : (prod ? LLVMBuildMul(g->b, a, x, "") : LLVMBuildAdd(g->b, a, x, ""));
	if (h)
		s = ll_h_rnd(g, s);
	if (ll_aint(c->m, c->n, "exclusive")) {
		ll_st(g, r.p, c->odt, at, ll_h_cvt(g, a, ll_cdt(c->odt), c->odt));
	} else {
		/* inclusive: the first element as it is */
		s = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, k, ll_c64(g, 0), ""), x, s, "");
		ll_st(g, r.p, c->odt, at, ll_h_cvt(g, s, ll_cdt(c->odt), c->odt));
	}
	LLVMBuildStore(g->b, s, acc);
	ll_loop_close(g, &lk);
	ll_loop_close(g, &li);
	ll_loop_close(g, &lo);
	return r;
}

/* maxpool_rows: max pooling of integer, float32 or float64 data in
** two passes per output row, which LLVM vectorizes: the window's rows
** that exist, element by element, into a row buffer t (held at the
** dtype's least value, max's identity, in its padding columns and past
** them), then each output the largest of its window's columns of t.
** Padding is skipped (as the identity), as pool2d skips it; a window
** with nothing in it gives the least value, as pool2d does.  Floats
** compare as pool2d's ll_fminmax: NaN never wins, so the order of the
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
	lo = ll_isint(dt) ? LLVMConstInt(ll_elty(g, dt), (unsigned long long)ir_dtype_min(dt), 1) : LLVMConstReal(ll_elty(g, dt), -INFINITY);
	t = ll_newbuf(g, (size_t)(Wt * ir_dtype_bytes[dt]), 64);
	/* the padding columns of t, once */
	for (int side = 0; side < 2; side++) {
		int64_t a0 = side ? pd[1] + W : 0, a1 = side ? Wt : pd[1];
		if (a0 < a1) {
			LLVMValueRef w = ll_loop_open(g, &li, a0, a1, 1);
			ll_st(g, t, dt, w, lo);
			ll_loop_close(g, &li);
		}
	}
	/* the loops over the axes but the last, in their order */
	ooff = ll_c64(g, 0);
	ioff = ll_c64(g, 0);
	for (int k = 0; k < 4; k++) {
		if (k == pos[3]) {
			iv[k] = NULL;
			continue;
		}
		iv[k] = ll_loop_open(g, &l[k], 0, c->od[k], 1);
		ooff = ll_add64(g, ooff, ll_mul64(g, iv[k], ost[k]));
		if (k != pos[2])
			ioff = ll_add64(g, ioff, ll_mul64(g, iv[k], ist[k]));
	}
	/* vertical: t[pd[1] + w] = max of the window's rows that exist */
	{
		LLVMValueRef w = ll_loop_open(g, &li, 0, W, 1);
		ll_st(g, t, dt, ll_add64(g, w, ll_c64(g, pd[1])), lo);
		ll_loop_close(g, &li);
	}
	for (int64_t kh = 0; kh < ps[0]; kh++) {
		hh = LLVMBuildNSWSub(g->b, ll_add64(g, ll_mul64(g, iv[pos[2]], sd[0]), ll_c64(g, kh * dl[0])), ll_c64(g, pd[0]), "");
		ok = LLVMBuildAnd(g->b, LLVMBuildICmp(g->b, LLVMIntSGE, hh, ll_c64(g, 0), ""),
		                  LLVMBuildICmp(g->b, LLVMIntSLT, hh, ll_c64(g, H), ""), "");
		yes = LLVMAppendBasicBlockInContext(g->cx, g->fn, "row");
		next = LLVMAppendBasicBlockInContext(g->cx, g->fn, "next");
		LLVMBuildCondBr(g->b, ok, yes, next);
		LLVMPositionBuilderAtEnd(g->b, yes);
		{
			LLVMValueRef w = ll_loop_open(g, &li, 0, W, 1), tw = ll_add64(g, w, ll_c64(g, pd[1]));
			x = ll_ld(g, c->a[0].p, dt, ll_add64(g, ll_add64(g, ioff, ll_mul64(g, hh, ist[pos[2]])), ll_mul64(g, w, ist[pos[3]])));
			a = ll_ld(g, t, dt, tw);
			ll_st(g, t, dt, tw, ll_isint(dt) ? ll_iminmax(g, x, a, ir_dtype_kind[dt] == 'i', 1) : ll_fminmax(g, x, a, 1));
			ll_loop_close(g, &li);
		}
		LLVMBuildBr(g->b, next);
		LLVMPositionBuilderAtEnd(g->b, next);
	}
	/* horizontal: each output the largest of its window's columns */
	{
		LLVMValueRef ow = ll_loop_open(g, &lk, 0, OW, 1);
		a = lo;
		for (int64_t kw = 0; kw < ps[1]; kw++) {
			x = ll_ld(g, t, dt, ll_add64(g, ll_mul64(g, ow, sd[1]), ll_c64(g, kw * dl[1])));
			a = ll_isint(dt) ? ll_iminmax(g, x, a, ir_dtype_kind[dt] == 'i', 1) : ll_fminmax(g, x, a, 1);
		}
		ll_st(g, r.p, dt, ll_add64(g, ooff, ll_mul64(g, ow, ost[pos[3]])), a);
		ll_loop_close(g, &lk);
	}
	for (int k = 3; k >= 0; k--)
		if (k != pos[3])
			ll_loop_close(g, &l[k]);
}

/* ll_pool2d: max or average over windows with padding (layout NCHW-like);
** integer averages sum in their dtype (wrapping) and divide truncating;
** float16 ones sum in float rounded to half at each step, and divide by
** the count as a half */
Val
ll_pool2d(G *g, Call *c, int avg)
{
	const Module *m = c->m;
	int64_t ps[2], sd[2] = { 1, 1 }, dl[2] = { 1, 1 }, pd[4] = { 0, 0, 0, 0 }, ist[4], ost[4];
	int pos[4], np, cip = avg && ll_aint(m, c->n, "count_include_pad");
	Val r = ll_tensorbuf(g, c->ot);
	DType dt = c->adt[0], adt = accdt(dt);
	LLVMTypeRef at = ll_elty(g, adt);
	Loop l[6];
	LLVMValueRef iv[4], acc, cnt, off, ooff = ll_c64(g, 0), v, ok, hh, ww;

	if (c->ar[0] != 4 || !ir_layout_perm(ll_astr(m, c->n, "layout"), "NCHW", pos) ||
	    ll_aints(m, c->n, "pool_size", ps, 2) != 2) {
		ll_refuse(g, c->n, "only NCHW-like layouts of rank 4 are supported");
		return r;
	}
	ll_aints(m, c->n, "strides", sd, 2);
	ll_aints(m, c->n, "dilation", dl, 2);
	np = ll_aints(m, c->n, "padding", pd, 4);
	if (np == 1)
		pd[1] = pd[2] = pd[3] = pd[0];
	else if (np == 2) {
		pd[2] = pd[0];
		pd[3] = pd[1];
	}
	ll_strides(c->ad[0], 4, ist);
	ll_strides(c->od, 4, ost);
	if (!avg && dt != DT_FLOAT16 && dt != DT_BOOL && c->odt == dt && ps[0] > 0 && ps[1] > 0 && c->od[pos[3]] > 0) {
		maxpool_rows(g, c, pos, ps, sd, dl, pd, ist, ost, r);
		return r;
	}
	acc = ll_entry_alloca(g, at);
	cnt = ll_entry_alloca(g, g->i64);
	for (int k = 0; k < 4; k++) {
		iv[k] = ll_loop_open(g, &l[k], 0, c->od[k], 1);
		ooff = ll_add64(g, ooff, ll_mul64(g, iv[k], ost[k]));
	}
	LLVMBuildStore(g->b, avg ? LLVMConstNull(at) : ll_isint(dt) ? LLVMConstInt(at, (unsigned long long)ir_dtype_min(dt), 1)
	                                                         : LLVMConstReal(at, -INFINITY), acc);
	LLVMBuildStore(g->b, ll_c64(g, 0), cnt);
	hh = ll_add64(g, ll_mul64(g, iv[pos[2]], sd[0]), ll_mul64(g, ll_loop_open(g, &l[4], 0, ps[0], 1), dl[0]));
	ww = ll_add64(g, ll_mul64(g, iv[pos[3]], sd[1]), ll_mul64(g, ll_loop_open(g, &l[5], 0, ps[1], 1), dl[1]));
	hh = LLVMBuildNSWSub(g->b, hh, ll_c64(g, pd[0]), "");
	ww = LLVMBuildNSWSub(g->b, ww, ll_c64(g, pd[1]), "");
	{
		int64_t H = c->ad[0][pos[2]], W = c->ad[0][pos[3]];
		LLVMValueRef inh = LLVMBuildAnd(g->b, LLVMBuildICmp(g->b, LLVMIntSGE, hh, ll_c64(g, 0), ""),
		                                LLVMBuildICmp(g->b, LLVMIntSLT, hh, ll_c64(g, H), ""), "");
		LLVMValueRef inw = LLVMBuildAnd(g->b, LLVMBuildICmp(g->b, LLVMIntSGE, ww, ll_c64(g, 0), ""),
		                                LLVMBuildICmp(g->b, LLVMIntSLT, ww, ll_c64(g, W), ""), "");
		LLVMValueRef inp = LLVMBuildAnd(g->b,
			LLVMBuildAnd(g->b, LLVMBuildICmp(g->b, LLVMIntSGE, hh, ll_c64(g, -pd[0]), ""),
			             LLVMBuildICmp(g->b, LLVMIntSLT, hh, ll_c64(g, H + pd[2]), ""), ""),
			LLVMBuildAnd(g->b, LLVMBuildICmp(g->b, LLVMIntSGE, ww, ll_c64(g, -pd[1]), ""),
			             LLVMBuildICmp(g->b, LLVMIntSLT, ww, ll_c64(g, W + pd[3]), ""), ""), "");
		ok = LLVMBuildAnd(g->b, inh, inw, "");
		off = ll_c64(g, 0);
		for (int k = 0; k < 4; k++) {
			LLVMValueRef ix = k == pos[2] ? LLVMBuildSelect(g->b, ok, hh, ll_c64(g, 0), "")
			                : k == pos[3] ? LLVMBuildSelect(g->b, ok, ww, ll_c64(g, 0), "") : iv[k];
			off = ll_add64(g, off, ll_mul64(g, ix, ist[k]));
		}
		v = ll_h_cvt(g, ll_ld(g, c->a[0].p, dt, off), dt, adt);
		if (avg) {
			LLVMValueRef a0 = LLVMBuildLoad2(g->b, at, acc, "");
			v = LLVMBuildSelect(g->b, ok, v, LLVMConstNull(at), "");
			v = ll_isint(dt) ? LLVMBuildAdd(g->b, a0, v, "") : LLVMBuildFAdd(g->b, a0, v, "");
			LLVMBuildStore(g->b, dt == DT_FLOAT16 ? ll_h_rnd(g, v) : v, acc);
			LLVMBuildStore(g->b, LLVMBuildAdd(g->b, LLVMBuildLoad2(g->b, g->i64, cnt, ""),
			                                  LLVMBuildZExt(g->b, cip ? inp : ok, g->i64, ""), ""), cnt);
		} else {
			LLVMValueRef a0 = LLVMBuildLoad2(g->b, at, acc, "");
			LLVMValueRef mx = ll_isint(dt) ? ll_iminmax(g, v, a0, 1, 1) : ll_fminmax(g, v, a0, 1);
			LLVMBuildStore(g->b, LLVMBuildSelect(g->b, ok, mx, a0, ""), acc);
		}
	}
	ll_loop_close(g, &l[5]);
	ll_loop_close(g, &l[4]);
	v = LLVMBuildLoad2(g->b, at, acc, "");
	if (avg) {
		LLVMValueRef n = LLVMBuildLoad2(g->b, g->i64, cnt, "");
		n = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, n, ll_c64(g, 0), ""), ll_c64(g, 1), n, "");
		v = wrapsum(g, v, dt);
		if (ll_isint(dt))
			v = LLVMBuildSDiv(g->b, v, n, "");
		else if (dt == DT_FLOAT16)
			v = LLVMBuildFDiv(g->b, v, ll_h_rnd(g, LLVMBuildSIToFP(g->b, n, at, "")), "");
		else
			v = LLVMBuildFDiv(g->b, v, LLVMBuildSIToFP(g->b, n, at, ""), "");
	}
	ll_st(g, r.p, c->odt, ooff, ll_h_cvt(g, v, adt, c->odt));
	for (int k = 3; k >= 0; k--)
		ll_loop_close(g, &l[k]);
	return r;
}

Val
ll_dense(G *g, Call *c, int q)
{
	int64_t K = c->ad[0][c->ar[0] - 1], N = c->ad[1][0], M = ir_type_numel(c->m, c->at[0]) / (K ? K : 1);
	Val r;
	DType adt = q ? DT_INT32 : c->odt;
	LLVMTypeRef at = ll_elty(g, ll_cdt(adt));
	Loop lm, ln, lk;
	LLVMValueRef im, in, ik, acc, x, w, v;
	int64_t nwz = q ? ir_type_numel(c->m, c->at[3]) : 0;

	if (q ? ll_dense_dot(g, c, &r) : ll_fdense(g, c, &r))
		return r;
	r = ll_tensorbuf(g, c->ot);
	acc = ll_entry_alloca(g, at);

	im = ll_loop_open(g, &lm, 0, M, 1);
	in = ll_loop_open(g, &ln, 0, N, 1);
	LLVMBuildStore(g->b, LLVMConstNull(at), acc);
	ik = ll_loop_open(g, &lk, 0, K, 1);
	x = ll_h_opnd(g, ll_ld(g, c->a[0].p, c->adt[0], ll_add64(g, ll_mul64(g, im, K), ik)), c->adt[0], adt);
	w = ll_h_opnd(g, ll_ld(g, c->a[1].p, c->adt[1], ll_add64(g, ll_mul64(g, in, K), ik)), c->adt[1], adt);
	if (q) {
		x = LLVMBuildSub(g->b, x, ll_ld(g, c->a[2].p, DT_INT32, ll_c64(g, 0)), "");
		w = LLVMBuildSub(g->b, w, ll_ld(g, c->a[3].p, DT_INT32, nwz > 1 ? in : ll_c64(g, 0)), "");
		v = LLVMBuildAdd(g->b, LLVMBuildLoad2(g->b, at, acc, ""), LLVMBuildMul(g->b, x, w, ""), "");
		LLVMBuildStore(g->b, v, acc);
	} else {
		ll_h_mac(g, acc, x, w, adt);
	}
	ll_loop_close(g, &lk);
	ll_st(g, r.p, c->odt, ll_add64(g, ll_mul64(g, im, N), in), ll_h_cvt(g, LLVMBuildLoad2(g->b, at, acc, ""), ll_cdt(adt), c->odt));
	ll_loop_close(g, &ln);
	ll_loop_close(g, &lm);
	return r;
}

/* ll_batch_matmul: a[B, I, K] (a[B, K, I] with transpose_a) times b[B, K, J]
** (b[B, J, K] with transpose_b), a batch of 1 broadcast; the operands
** converted to out_dtype, summed over k from 0 (integers wrapping), as ref */
Val
ll_batch_matmul(G *g, Call *c)
{
	int ta = ll_aint(c->m, c->n, "transpose_a") != 0, tb = ll_aint(c->m, c->n, "transpose_b") != 0;
	int64_t B = c->od[0], I = c->od[1], J = c->od[2], K = c->ad[0][ta ? 1 : 2];
	int64_t as = c->ad[0][0] == 1 ? 0 : I * K, bs = c->ad[1][0] == 1 ? 0 : K * J;
	DType dt = c->odt;
	LLVMTypeRef at = ll_elty(g, ll_cdt(dt));
	Val r = ll_tensorbuf(g, c->ot);
	Loop lb, li, lj, lk;
	LLVMValueRef ib, ii, ij, ik, acc, x, w, v;

	if (ll_isint(dt) != ll_isint(c->adt[0]) || ll_isint(dt) != ll_isint(c->adt[1]) || dt == DT_BOOL) {
		ll_refuse(g, c->n, "from these dtypes to out_dtype it is not supported");
		return r;
	}
	acc = ll_entry_alloca(g, at);
	ib = ll_loop_open(g, &lb, 0, B, 1);
	ii = ll_loop_open(g, &li, 0, I, 1);
	ij = ll_loop_open(g, &lj, 0, J, 1);
	LLVMBuildStore(g->b, LLVMConstNull(at), acc);
	ik = ll_loop_open(g, &lk, 0, K, 1);
	x = ll_add64(g, ll_mul64(g, ib, as), ta ? ll_add64(g, ll_mul64(g, ik, I), ii) : ll_add64(g, ll_mul64(g, ii, K), ik));
	w = ll_add64(g, ll_mul64(g, ib, bs), tb ? ll_add64(g, ll_mul64(g, ij, K), ik) : ll_add64(g, ll_mul64(g, ik, J), ij));
	x = ll_h_opnd(g, ll_ld(g, c->a[0].p, c->adt[0], x), c->adt[0], dt);
	w = ll_h_opnd(g, ll_ld(g, c->a[1].p, c->adt[1], w), c->adt[1], dt);
	if (ll_isint(dt)) {
		v = LLVMBuildLoad2(g->b, at, acc, "");
		LLVMBuildStore(g->b, LLVMBuildAdd(g->b, v, LLVMBuildMul(g->b, x, w, ""), ""), acc);
	} else {
		ll_h_mac(g, acc, x, w, dt);
	}
	ll_loop_close(g, &lk);
	ll_st(g, r.p, dt, ll_add64(g, ll_mul64(g, ll_add64(g, ll_mul64(g, ib, I), ii), J), ij),
	   ll_h_cvt(g, LLVMBuildLoad2(g->b, at, acc, ""), ll_cdt(dt), dt));
	ll_loop_close(g, &lj);
	ll_loop_close(g, &li);
	ll_loop_close(g, &lb);
	return r;
}
