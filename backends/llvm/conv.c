/*
** conv.c: the llvm backend's conv2d: the geometry of a convolution
** (ll_convgeom), the generic loops any conv2d runs on (ll_conv_generic),
** and the int8/uint8 qnn.conv2d path on pmaddwd (AVX2, AVX-512BW) that
** ll_conv_fast takes when the machine has no dot product (dotpath.c).
*/
#define _POSIX_C_SOURCE 200809L
#include "llvmi.h"

/* ll_convgeom: reads c's conv2d attributes; 0 after refusing */
int
ll_convgeom(G *g, Call *c, Conv *v, int quiet)
{
	const Module *m = c->m;
	int dp[4], kp[4], op[4], np;
	int64_t s[2] = { 1, 1 }, d[2] = { 1, 1 }, p[4] = { 0, 0, 0, 0 }, ist[4], kst[4], ost[4];
	const char *ol = ll_astr(m, c->n, "out_layout");

	if (c->ar[0] != 4 || c->ar[1] != 4 || !ir_layout_perm(ll_astr(m, c->n, "data_layout"), "NCHW", dp) ||
	    !ir_layout_perm(ll_astr(m, c->n, "kernel_layout"), "OIHW", kp) || !ir_layout_perm(*ol ? ol : ll_astr(m, c->n, "data_layout"), "NCHW", op)) {
		if (!quiet)
			ll_refuse(g, c->n, "only 4-d NCHW-like data and OIHW-like kernel layouts are supported");
		return 0;
	}
	ll_aints(m, c->n, "strides", s, 2);
	ll_aints(m, c->n, "dilation", d, 2);
	np = ll_aints(m, c->n, "padding", p, 4);
	if (np == 1)
		p[1] = p[2] = p[3] = p[0];
	else if (np == 2) {
		p[2] = p[0];
		p[3] = p[1];
	}
	ll_strides(c->ad[0], 4, ist);
	ll_strides(c->ad[1], 4, kst);
	ll_strides(c->od, 4, ost);
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
	v->G = ll_aint(m, c->n, "groups");
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
			ll_refuse(g, c->n, "the channels do not divide into the groups");
		return 0;
	}
	return 1;
}

/* ll_conv_generic: direct loops with bounds checks; qnn sums (x - xz)(w - wz)
** in int32, padding contributing nothing; floats sum in out_dtype
** (ll_h_mac), padding reading as 0, as the reference multiplies it */
Val
ll_conv_generic(G *g, Call *c, const Conv *v, int q)
{
	Val r = ll_tensorbuf(g, c->ot);
	DType adt = q ? DT_INT32 : c->odt;
	LLVMTypeRef at = ll_elty(g, ll_cdt(adt));
	Loop l[7];
	int64_t icg = v->C / v->G, ocg = v->O / v->G;
	int64_t nwz = q ? ir_type_numel(c->m, c->at[3]) : 0;
	LLVMValueRef n, o, oh, ow, ic, kh, kw, acc = ll_entry_alloca(g, at), hh, ww, ok, x, w, ci, off;

	n = ll_loop_open(g, &l[0], 0, v->N, 1);
	o = ll_loop_open(g, &l[1], 0, v->O, 1);
	oh = ll_loop_open(g, &l[2], 0, v->OH, 1);
	ow = ll_loop_open(g, &l[3], 0, v->OW, 1);
	LLVMBuildStore(g->b, LLVMConstNull(at), acc);
	ic = ll_loop_open(g, &l[4], 0, icg, 1);
	kh = ll_loop_open(g, &l[5], 0, v->KH, 1);
	kw = ll_loop_open(g, &l[6], 0, v->KW, 1);
	hh = LLVMBuildNSWSub(g->b, ll_add64(g, ll_mul64(g, oh, v->sh), ll_mul64(g, kh, v->dh)), ll_c64(g, v->pt), "");
	ww = LLVMBuildNSWSub(g->b, ll_add64(g, ll_mul64(g, ow, v->sw), ll_mul64(g, kw, v->dw)), ll_c64(g, v->pl), "");
	ok = LLVMBuildAnd(g->b,
		LLVMBuildAnd(g->b, LLVMBuildICmp(g->b, LLVMIntSGE, hh, ll_c64(g, 0), ""), LLVMBuildICmp(g->b, LLVMIntSLT, hh, ll_c64(g, v->H), ""), ""),
		LLVMBuildAnd(g->b, LLVMBuildICmp(g->b, LLVMIntSGE, ww, ll_c64(g, 0), ""), LLVMBuildICmp(g->b, LLVMIntSLT, ww, ll_c64(g, v->W), ""), ""), "");
	hh = LLVMBuildSelect(g->b, ok, hh, ll_c64(g, 0), "");
	ww = LLVMBuildSelect(g->b, ok, ww, ll_c64(g, 0), "");
	ci = ll_add64(g, ll_mul64(g, LLVMBuildSDiv(g->b, o, ll_c64(g, ocg), ""), icg), ic);
	off = ll_add64(g, ll_add64(g, ll_mul64(g, n, v->ist[0]), ll_mul64(g, ci, v->ist[1])), ll_add64(g, ll_mul64(g, hh, v->ist[2]), ll_mul64(g, ww, v->ist[3])));
	x = ll_h_opnd(g, ll_ld(g, c->a[0].p, c->adt[0], off), c->adt[0], adt);
	off = ll_add64(g, ll_add64(g, ll_mul64(g, o, v->kst[0]), ll_mul64(g, ic, v->kst[1])), ll_add64(g, ll_mul64(g, kh, v->kst[2]), ll_mul64(g, kw, v->kst[3])));
	w = ll_h_opnd(g, ll_ld(g, c->a[1].p, c->adt[1], off), c->adt[1], adt);
	if (q) {
		x = LLVMBuildSub(g->b, x, ll_ld(g, c->a[2].p, DT_INT32, ll_c64(g, 0)), "");
		w = LLVMBuildSub(g->b, w, ll_ld(g, c->a[3].p, DT_INT32, nwz > 1 ? o : ll_c64(g, 0)), "");
		x = LLVMBuildSelect(g->b, ok, LLVMBuildMul(g->b, x, w, ""), ll_c32(g, 0), "");
		LLVMBuildStore(g->b, LLVMBuildAdd(g->b, LLVMBuildLoad2(g->b, at, acc, ""), x, ""), acc);
	} else {
		ll_h_mac(g, acc, LLVMBuildSelect(g->b, ok, x, LLVMConstNull(at), ""), w, adt);
	}
	for (int k = 6; k >= 4; k--)
		ll_loop_close(g, &l[k]);
	off = ll_add64(g, ll_add64(g, ll_mul64(g, n, v->ost[0]), ll_mul64(g, o, v->ost[1])), ll_add64(g, ll_mul64(g, oh, v->ost[2]), ll_mul64(g, ow, v->ost[3])));
	ll_st(g, r.p, c->odt, off, ll_h_cvt(g, LLVMBuildLoad2(g->b, at, acc, ""), ll_cdt(adt), c->odt));
	for (int k = 3; k >= 0; k--)
		ll_loop_close(g, &l[k]);
	return r;
}

/* ll_splat: an <n x i32> of i32 x */
LLVMValueRef
ll_splat(G *g, LLVMValueRef x, unsigned n)
{
	LLVMTypeRef vt = LLVMVectorType(g->i32, n);
	LLVMValueRef v = LLVMBuildInsertElement(g->b, LLVMGetUndef(vt), x, ll_c32(g, 0), "");

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
		acc[p] = ll_entry_alloca(g, av);
		LLVMBuildStore(g->b, LLVMConstNull(av), acc[p]);
	}
	kh = ll_loop_open(g, &l[0], 0, v->KH, 1);
	kw = ll_loop_open(g, &l[1], 0, v->KW, 1);
	icp = ll_loop_open(g, &l[2], 0, ICP, 1);
	wp = ll_add64(g, ll_mul64(g, ll_add64(g, ll_mul64(g, ll_add64(g, ll_mul64(g, ob, v->KH), kh), v->KW), kw), ICP), icp);
	wp = LLVMBuildInBoundsGEP2(g->b, wv16, LLVMBuildBitCast(g->b, Wr, LLVMPointerType(wv16, 0), ""), &wp, 1, "");
	wv = LLVMBuildLoad2(g->b, wv16, wp, "");
	LLVMSetAlignment(wv, 4 * L);
	row = ll_add64(g, ll_mul64(g, n, Hp), ll_add64(g, ll_mul64(g, oh, v->sh), ll_mul64(g, kh, v->dh)));
	for (int p = 0; p < pb; p++) {
		LLVMValueRef col = ll_add64(g, ll_mul64(g, ll_add64(g, ow0, ll_c64(g, p)), v->sw), ll_mul64(g, kw, v->dw));
		LLVMValueRef ix = ll_add64(g, ll_mul64(g, ll_add64(g, ll_mul64(g, row, Wp), col), ICP), icp);
		LLVMValueRef xs = ll_ld(g, P, DT_INT32, ix), a[2];
		a[0] = LLVMBuildBitCast(g->b, ll_splat(g, xs, L), wv16, "");
		a[1] = wv;
		LLVMBuildStore(g->b, LLVMBuildAdd(g->b, LLVMBuildLoad2(g->b, av, acc[p], ""), ll_callf(g, madd, av, a, 2), ""), acc[p]);
	}
	for (int k = 2; k >= 0; k--)
		ll_loop_close(g, &l[k]);
	for (int p = 0; p < pb; p++) {
		LLVMValueRef a = LLVMBuildLoad2(g->b, av, acc[p], "");
		LLVMValueRef base = ll_add64(g, ll_add64(g, ll_mul64(g, n, v->ost[0]), ll_mul64(g, oh, v->ost[2])),
		                          ll_mul64(g, ll_add64(g, ow0, ll_c64(g, p)), v->ost[3]));
		for (unsigned k = 0; k < L; k++) {
			LLVMValueRef o = ll_add64(g, ll_mul64(g, ob, L), ll_c64(g, k)), ptr;
			ptr = ll_gep(g, out, DT_INT32, ll_add64(g, base, ll_mul64(g, o, v->ost[1])));
			if (v->O % L)
				ptr = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, o, ll_c64(g, v->O), ""), ptr,
				                      LLVMBuildBitCast(g->b, scratch, LLVMTypeOf(ptr), ""), "");
			LLVMBuildStore(g->b, LLVMBuildExtractElement(g->b, a, ll_c32(g, (int64_t)k), ""), ptr);
		}
	}
}

/* ll_conv_fast: qnn.conv2d of int8/uint8 data and constant weights, one
** group, int32 result (see llvmi.h); 0 if it does not apply */
int
ll_conv_fast(G *g, Call *c, const Conv *v, Val *res)
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
	    (c->adt[1] != DT_INT8 && c->adt[1] != DT_UINT8) || !(w = ll_cdata(g, c->a[1], &wt)) ||
	    ll_cnumel(g, c->a[2]) != 1 || !ll_cnum(g, c->a[2], 0, &xz) || !ll_cnum(g, c->a[3], 0, &wz) ||
	    (ll_cnumel(g, c->a[3]) != 1 && ll_cnumel(g, c->a[3]) != v->O))
		return 0;
	Cp = (v->C + 1) & ~(int64_t)1;
	ICP = Cp / 2;
	OB = (v->O + L - 1) / L;
	Hp = v->H + v->pt + v->pb;
	Wp = v->W + v->pl + v->pr;
	/* the weights, (w - wz) in int16, in the order the kernel reads them */
	nw = OB * v->KH * v->KW * ICP * L * 2;
	wr = ir_xcalloc((size_t)nw, sizeof *wr);
	{
		/* the geometry in locals: v is the caller's, and the loop calls
		** out (ll_cnum), after which *v would be read again */
		const int64_t O = v->O, C = v->C, KH = v->KH, KW = v->KW;
		const int64_t k0 = v->kst[0], k1 = v->kst[1], k2 = v->kst[2], k3 = v->kst[3];
		const int s8 = c->adt[1] == DT_INT8;
		for (int64_t o = 0; o < O; o++) {
			double z;
			ll_cnum(g, c->a[3], o, &z);
			for (int64_t ic = 0; ic < C; ic++)
				for (int64_t kh = 0; kh < KH; kh++)
					for (int64_t kw = 0; kw < KW; kw++) {
						int64_t si = o * k0 + ic * k1 + kh * k2 + kw * k3;
						int x = s8 ? (int8_t)w[si] : w[si];
						int64_t di = ((((o / L) * KH + kh) * KW + kw) * ICP + ic / 2) * L * 2 + (o % L) * 2 + ic % 2;
						wr[di] = (int16_t)(x - (int)z);
					}
		}
	}
	Wr = ll_constbuf(g, wr, (size_t)nw * 2);
	free(wr);
	/* the input, (x - xz) in int16, zero-padded NHWC */
	P = ll_newbuf(g, (size_t)(v->N * Hp * Wp * Cp * 2), 64);
	scratch = ll_newbuf(g, 4, 4);
	LLVMBuildMemSet(g->b, P, LLVMConstInt(g->i8, 0, 0), ll_c64(g, v->N * Hp * Wp * Cp * 2), 64);
	{
		LLVMValueRef iv[4], src = ll_c64(g, 0), dst, x;
		int64_t dims[4] = { v->N, v->C, v->H, v->W };
		for (int k = 0; k < 4; k++) {
			iv[k] = ll_loop_open(g, &l[k], 0, dims[k], 1);
			src = ll_add64(g, src, ll_mul64(g, iv[k], v->ist[k]));
		}
		dst = ll_add64(g, ll_mul64(g, ll_add64(g, ll_mul64(g, ll_add64(g, ll_mul64(g, iv[0], Hp), ll_add64(g, iv[2], ll_c64(g, v->pt))), Wp),
		                                  ll_add64(g, iv[3], ll_c64(g, v->pl))), Cp), iv[1]);
		x = ll_cvt(g, ll_ld(g, c->a[0].p, c->adt[0], src), c->adt[0], DT_INT16);
		ll_st(g, P, DT_INT16, dst, LLVMBuildSub(g->b, x, LLVMConstInt(g->i16, (unsigned long long)(int64_t)xz, 1), ""));
		for (int k = 3; k >= 0; k--)
			ll_loop_close(g, &l[k]);
	}
	r = ll_tensorbuf(g, c->ot);
	{
		LLVMValueRef n = ll_loop_open(g, &l[0], 0, v->N, 1);
		LLVMValueRef ob = ll_loop_open(g, &l[1], 0, OB, 1);
		LLVMValueRef oh = ll_loop_open(g, &l[2], 0, v->OH, 1);
		owf = v->OW - v->OW % pb;
		if (owf > 0) {
			LLVMValueRef ow = ll_loop_open(g, &l[3], 0, owf, pb);
			conv_block(g, v, P, Wr, r.p, scratch, n, ob, oh, ow, pb, Hp, Wp, ICP);
			ll_loop_close(g, &l[3]);
		}
		if (owf < v->OW) {
			LLVMValueRef ow = ll_loop_open(g, &l[3], owf, v->OW, 1);
			conv_block(g, v, P, Wr, r.p, scratch, n, ob, oh, ow, 1, Hp, Wp, ICP);
			ll_loop_close(g, &l[3]);
		}
		for (int k = 2; k >= 0; k--)
			ll_loop_close(g, &l[k]);
	}
	*res = r;
	return 1;
}
