/*
** fconv.c: the llvm backend's float path: nn.conv2d of float32 data and
** constant weights, one group or depthwise, with what follows it fused
** into its store, and nn.dense of float32 with constant weights; ll_conv2d
** picks the float path, the dot path, the pmaddwd path or the generic
** loops for a conv2d.
*/
#define _POSIX_C_SOURCE 200809L
#include "llvmi.h"

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
** nn.dense of float32 data and constant weights (ll_fdense) likewise keeps
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
	LLVMValueRef v = LLVMBuildInsertElement(g->b, LLVMGetUndef(vt), x, ll_c32(g, 0), "");

	return LLVMBuildShuffleVector(g->b, v, LLVMGetUndef(vt), LLVMConstNull(LLVMVectorType(g->i32, n)), "");
}

/* fvec: a pointer to the <n x float> at element ix (i64) of the float
** buffer p, alignment 4 */
static LLVMValueRef
fvec(G *g, LLVMValueRef p, LLVMValueRef ix, unsigned n)
{
	return LLVMBuildBitCast(g->b, ll_gep(g, p, DT_FLOAT32, ix), LLVMPointerType(LLVMVectorType(g->f32, n), 0), "");
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
	if ((ll_isop(m, n, OP_NN_RELU) || ll_isop(m, n, OP_CLIP)) && fisf32(m, n, 4)) {
		f->act = n;
		n = ir_arg(m, n, 0);
		if (!ll_single(g, s, n))
			return 0;
	}
	if (ll_isop(m, n, OP_ADD) && fisf32(m, n, 4)) {
		int i;
		for (i = 0; i < 2; i++) {
			NodeId a = ir_arg(m, n, i);
			if ((ll_isop(m, a, OP_NN_BIAS_ADD) || ll_isop(m, a, OP_NN_CONV2D)) && ll_single(g, s, a))
				break;
		}
		if (i == 2)
			return 0;
		f->add = n;
		f->other = ir_arg(m, n, 1 - i);
		f->otherfirst = i == 1;
		/* the residual: a float32 tensor of the result's shape */
		if (!fisf32(m, f->other, 4) || ll_tdims(m, m->nodes[n].type, od) != 4 || ll_tdims(m, m->nodes[f->other].type, xd) != 4 ||
		    memcmp(od, xd, 4 * sizeof *od))
			return 0;
		n = ir_arg(m, n, i);
	}
	if (ll_isop(m, n, OP_NN_BIAS_ADD) && fisf32(m, n, 4)) {
		NodeId b = ir_arg(m, n, 1);
		int64_t ax = ll_aint(m, n, "axis");
		if ((ax != 1 && ax != -3) || m->nodes[b].kind != NK_CONST || !fisf32(m, b, 1))
			return 0;
		f->ba = n;
		n = ir_arg(m, n, 0);
		if (n != root && !ll_single(g, s, n))
			return 0;
	}
	if (!ll_isop(m, n, OP_NN_CONV2D) || m->nodes[ir_arg(m, n, 1)].kind != NK_CONST || !fisf32(m, n, 4) ||
	    !fisf32(m, ir_arg(m, n, 0), 4) || !fisf32(m, ir_arg(m, n, 1), 4))
		return 0;
	f->cv = n;
	if (!ll_callargs(g, s, n, &c, 1) || !ll_convgeom(g, &c, v, 1) || !ll_densenchw(v->ist, v->C, v->H, v->W) ||
	    !ll_densenchw(v->ost, v->O, v->OH, v->OW) || v->KH < 1 || v->KW < 1 || v->sh < 1 || v->sw < 1 || v->dh < 1 ||
	    v->dw < 1 || v->pt < 0 || v->pl < 0 || v->pb < 0 || v->pr < 0 || v->OH < 1 || v->OW < 1 || v->C < 1)
		return 0;
	f->dw = v->G > 1 && v->G == v->C && v->O == v->C;
	if (v->G != 1 && (!f->dw || v->KH * v->KW > 64))
		return 0;
	f->w = c.a[1];
	if (f->ba) {
		f->bias = ll_lower(g, s, ir_arg(m, f->ba, 1));
		if (ir_type_numel(m, m->nodes[ir_arg(m, f->ba, 1)].type) != v->O)
			return 0;
	}
	if (f->act && ll_isop(m, f->act, OP_CLIP)) {
		f->lo = ll_attr(m, f->act, "a_min")->u.f;
		f->hi = ll_attr(m, f->act, "a_max")->u.f;
	}
	return 1;
}

/* fepi: the residual add (of the n elements at q, or none) and the
** clamp of f on the <n x float> y, as ll_ew_scalar does them */
static LLVMValueRef
fepi(G *g, const Fconv *f, LLVMValueRef y, LLVMValueRef q)
{
	LLVMTypeRef vt = LLVMTypeOf(y);
	unsigned n = LLVMGetVectorSize(vt);

	if (q) {
		LLVMValueRef o = fld(g, q, n);
		y = f->otherfirst ? LLVMBuildFAdd(g->b, o, y, "") : LLVMBuildFAdd(g->b, y, o, "");
	}
	if (f->act && ll_isop(g->m, f->act, OP_NN_RELU))
		y = LLVMBuildSelect(g->b, LLVMBuildFCmp(g->b, LLVMRealOGT, y, LLVMConstNull(vt), ""), y, LLVMConstNull(vt), "");
	else if (f->act) {
		y = ll_fminmax(g, y, fsplat(g, LLVMConstReal(g->f32, (double)(float)f->hi), n), 0);
		y = ll_fminmax(g, y, fsplat(g, LLVMConstReal(g->f32, (double)(float)f->lo), n), 1);
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
			acc[j][p] = ll_entry_alloca(g, fv);
			LLVMBuildStore(g->b, LLVMConstNull(fv), acc[j][p]);
		}
	ic = ll_loop_open(g, &l[0], 0, v->C, 1);
	kh = ll_loop_open(g, &l[1], 0, v->KH, 1);
	if (v->KW > FKW)
		kw = ll_loop_open(g, &l[2], 0, v->KW, 1);
	for (int64_t u = 0; u < (v->KW > FKW ? 1 : v->KW); u++) {    /* the kernel columns, unrolled up to FKW */
		if (v->KW <= FKW)
			kw = ll_c64(g, u);
		for (int j = 0; j < obb; j++) {
			LLVMValueRef wi = ll_add64(g, ll_mul64(g, ll_add64(g, ll_mul64(g, ll_add64(g, ll_mul64(g, ll_add64(g, ob, ll_c64(g, j)), v->C), ic), v->KH), kh), v->KW), kw);
			wv[j] = LLVMBuildLoad2(g->b, fv, LLVMBuildInBoundsGEP2(g->b, fv, LLVMBuildBitCast(g->b, W, LLVMPointerType(fv, 0), ""), &wi, 1, ""), "");
			LLVMSetAlignment(wv[j], 64);
		}
		row = ll_add64(g, ll_mul64(g, ll_add64(g, ll_mul64(g, ll_add64(g, ll_mul64(g, n, v->C), ic), Hp), ll_add64(g, ll_mul64(g, oh, v->sh), ll_mul64(g, kh, v->dh))), Wp),
		            ll_mul64(g, kw, v->dw));
		for (int p = 0; p < pb; p++) {
			x = fsplat(g, ll_ld(g, P, DT_FLOAT32, ll_add64(g, row, ll_mul64(g, ll_add64(g, ow0, ll_c64(g, p)), v->sw))), VL);
			for (int j = 0; j < obb; j++)
				LLVMBuildStore(g->b, LLVMBuildFAdd(g->b, LLVMBuildLoad2(g->b, fv, acc[j][p], ""), LLVMBuildFMul(g->b, x, wv[j], ""), ""),
				               acc[j][p]);
		}
	}
	for (int k = v->KW > FKW ? 2 : 1; k >= 0; k--)
		ll_loop_close(g, &l[k]);
	base = ll_add64(g, ll_add64(g, ll_mul64(g, n, v->ost[0]), ll_mul64(g, oh, v->ost[2])), ow0);
	for (int j = 0; j < obb; j++) {
		LLVMValueRef obj = ll_add64(g, ob, ll_c64(g, j));
		for (int p = 0; p < pb; p++) {
			y[p] = LLVMBuildLoad2(g->b, fv, acc[j][p], "");
			if (B)
				y[p] = LLVMBuildFAdd(g->b, y[p], fld(g, fvec(g, B, ll_mul64(g, obj, VL), VL), VL), "");
		}
		ll_vtranspose(g, y, pb, VL, col);
		for (int k = 0; k < VL; k++) {
			LLVMValueRef o = ll_add64(g, ll_mul64(g, obj, VL), ll_c64(g, k)), off = ll_add64(g, base, ll_mul64(g, o, v->ost[1]));
			LLVMValueRef q = LLVMBuildBitCast(g->b, ll_gep(g, out, DT_FLOAT32, off), pv, "");
			LLVMValueRef rq = res ? LLVMBuildBitCast(g->b, ll_gep(g, res, DT_FLOAT32, off), pv, "") : NULL, in;
			if (v->O % VL) {
				in = LLVMBuildICmp(g->b, LLVMIntSLT, o, ll_c64(g, v->O), "");
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
	P = ll_newbuf(g, (size_t)((v->N * v->C * Hp * ph * Wq + slack) * 4), 64);
	nc = ll_loop_open(g, &l[0], 0, v->N * v->C, 1);
	h = ll_loop_open(g, &l[1], 0, v->H, 1);
	src = ll_mul64(g, ll_add64(g, ll_mul64(g, nc, v->H), h), v->W);
	dst = ll_mul64(g, ll_add64(g, ll_mul64(g, nc, Hp), ll_add64(g, h, ll_c64(g, v->pt))), ph * Wq);
	if (ph == 1) {
		LLVMBuildMemCpy(g->b, ll_gep(g, P, DT_FLOAT32, ll_add64(g, dst, ll_c64(g, v->pl))), 4,
		                ll_gep(g, x, DT_FLOAT32, src), 4, ll_c64(g, v->W * 4));
	} else {
		/* phase r holds the padded columns j * ph + r: data column j * ph + r - pl */
		for (int64_t r = 0; r < ph; r++) {
			int64_t jlo = (v->pl - r + ph - 1) / ph, jhi = (v->pl + v->W - 1 - r) / ph + 1;
			if (jlo < 0)
				jlo = 0;
			if (v->pl + v->W - 1 - r < 0 || jlo >= jhi)
				continue;
			j = ll_loop_open(g, &l[2], jlo, jhi, 1);
			ll_st(g, P, DT_FLOAT32, ll_add64(g, dst, ll_add64(g, ll_c64(g, r * Wq), j)),
			   ll_ld(g, x, DT_FLOAT32, ll_add64(g, src, ll_add64(g, ll_mul64(g, j, ph), ll_c64(g, r - v->pl)))));
			ll_loop_close(g, &l[2]);
		}
	}
	ll_loop_close(g, &l[1]);
	ll_loop_close(g, &l[0]);
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
	LLVMValueRef P = fpad(g, v, x, 1, 0), W, B = NULL, scratch = ll_newbuf(g, FPB * 4, 64), n, ob, oh, ow, t;
	Loop l[4];
	Par pr;

	wd = ll_cdata(g, f->w, &wt);
	for (int64_t o = 0; o < v->O; o++)
		for (int64_t ic = 0; ic < v->C; ic++)
			for (int64_t kh = 0; kh < v->KH; kh++)
				for (int64_t kw = 0; kw < v->KW; kw++)
					memcpy(&wr[((((o / VL) * v->C + ic) * v->KH + kh) * v->KW + kw) * VL + o % VL],
					       wd + 4 * (o * v->kst[0] + ic * v->kst[1] + kh * v->kst[2] + kw * v->kst[3]), 4);
	W = ll_constbuf(g, wr, (size_t)nw * 4);
	if ((bd = ll_cdata(g, f->bias, &wt))) {
		memset(wr, 0, (size_t)(OB * VL) * sizeof *wr);
		memcpy(wr, bd, (size_t)v->O * sizeof *wr);
		B = ll_constbuf(g, wr, (size_t)(OB * VL) * sizeof *wr);
	}
	free(wr);
	for (int part = 0; part < 2; part++) {
		int obb = part ? 1 : obm;
		int64_t ob0 = part ? obf : 0, nb = ((part ? OB : obf) - ob0) / obb;
		if (nb == 0)
			continue;
		/* image, channel block and row in one index, split among threads
		   (consecutive indices: the rows of one block, as before) */
		t = ll_par_open(g, &pr, v->N * nb * v->OH);
		n = LLVMBuildUDiv(g->b, t, ll_c64(g, nb * v->OH), "");
		ob = ll_add64(g, ll_mul64(g, LLVMBuildURem(g->b, LLVMBuildUDiv(g->b, t, ll_c64(g, v->OH), ""), ll_c64(g, nb), ""), obb), ll_c64(g, ob0));
		oh = LLVMBuildURem(g->b, t, ll_c64(g, v->OH), "");
		if (owf > 0) {
			ow = ll_loop_open(g, &l[3], 0, owf, pbm);
			fconv_block(g, f, P, W, B, res, out, scratch, n, ob, oh, ow, pbm, obb, Hp, Wp);
			ll_loop_close(g, &l[3]);
		}
		if (owf < v->OW)
			fconv_block(g, f, P, W, B, res, out, scratch, n, ob, oh, ll_c64(g, owf), (int)(v->OW - owf), obb, Hp, Wp);
		ll_par_close(g, &pr);
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
		LLVMValueRef row = ll_mul64(g, ll_add64(g, ll_mul64(g, nc, Hp), ll_add64(g, ll_mul64(g, oh, v->sh), ll_c64(g, kh * v->dh))), s * Wq);
		for (int64_t kw = 0; kw < v->KW; kw++) {
			int64_t t = kw * v->dw;
			LLVMValueRef ix = ll_add64(g, ll_add64(g, row, ll_c64(g, (t % s) * Wq + t / s)), ow0), wk;
			wk = fsplat(g, ll_ld(g, f->w.p, DT_FLOAT32, ll_add64(g, ll_mul64(g, c, v->kst[0]), ll_c64(g, kh * v->kst[2] + kw * v->kst[3]))), VL);
			for (int q = 0; q < nv; q++)
				acc[q] = LLVMBuildFAdd(g->b, acc[q], LLVMBuildFMul(g->b, fld(g, fvec(g, P, ll_add64(g, ix, ll_c64(g, q * VL)), VL), VL), wk, ""), "");
		}
	}
	if (f->bias.p)
		b = fsplat(g, ll_ld(g, f->bias.p, DT_FLOAT32, c), VL);
	base = ll_add64(g, ll_add64(g, ll_mul64(g, nc, v->OH * v->OW), ll_mul64(g, oh, v->OW)), ow0);
	for (int i = 0; i < VL; i++)
		mask[i] = ll_c32(g, i);
	for (int q = 0; q < nv; q++) {
		unsigned n = q == nv - 1 ? (unsigned)nl : VL;
		LLVMValueRef y = b ? LLVMBuildFAdd(g->b, acc[q], b, "") : acc[q], off = ll_add64(g, base, ll_c64(g, q * VL));
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

	nc = ll_par_open(g, &pr, v->N * v->C);    /* the channel planes, split among threads */
	c = LLVMBuildSRem(g->b, nc, ll_c64(g, v->C), "");
	oh = ll_loop_open(g, &l[1], 0, v->OH, 1);
	if (fb) {
		ow = ll_loop_open(g, &l[2], 0, fb, bw);
		fdw_block(g, f, P, res, out, nc, c, oh, ow, FDV, VL);
		ll_loop_close(g, &l[2]);
	}
	if (rest)
		fdw_block(g, f, P, res, out, nc, c, oh, ll_c64(g, fb), (int)((rest + VL - 1) / VL), (int)(rest - (rest - 1) / VL * VL));
	ll_loop_close(g, &l[1]);
	ll_par_close(g, &pr);
}

/* ll_fconv_root: lowers n, an nn.conv2d or the end of a chain after one
** (fconv_plan), on the float path if it applies; 0 if not (nothing
** emitted but constants) */
int
ll_fconv_root(G *g, Scope *s, NodeId n, Val *res)
{
	const Module *m = g->m;
	Fconv f;
	Val x, o = { 0 };

	if (!fconv_plan(g, s, n, &f))
		return 0;
	x = ll_lower(g, s, ir_arg(m, f.cv, 0));
	if (f.add)
		o = ll_lower(g, s, f.other);
	*res = ll_tensorbuf(g, m->nodes[n].type);
	if (!x.p || (f.add && !o.p))
		return 1;       /* after an error */
	if (f.dw)
		fconv_dw(g, &f, x.p, o.p, res->p);
	else
		fconv_dense(g, &f, x.p, o.p, res->p);
	return 1;
}

/* ll_fconv_fused: the operand of n that the float path lowers inside n's
** own kernel (fconv_plan), which opfn must not lower first; -1 if none */
int
ll_fconv_fused(G *g, Scope *s, NodeId n)
{
	Fconv f;

	if (!fconv_plan(g, s, n, &f) || n == f.cv)
		return -1;
	return n == f.add ? f.otherfirst : 0;
}

/* fdense_block: out[m][nb * 16 ..] for nv vectors of outputs from
** block nb (the last with nl lanes stored) of ll_fdense's data x ([M][K])
** and weights W ([N / 16][K][16]) */
static void
fdense_block(G *g, LLVMValueRef x, LLVMValueRef W, LLVMValueRef out, LLVMValueRef m, LLVMValueRef nb, int nv, int nl,
             int64_t K, int64_t N)
{
	LLVMTypeRef fv = LLVMVectorType(g->f32, VL);
	LLVMValueRef acc[FDV], mask[VL], k, xs, wi, w, base;
	Loop l;

	for (int j = 0; j < nv; j++) {
		acc[j] = ll_entry_alloca(g, fv);
		LLVMBuildStore(g->b, LLVMConstNull(fv), acc[j]);
	}
	k = ll_loop_open(g, &l, 0, K, 1);
	xs = fsplat(g, ll_ld(g, x, DT_FLOAT32, ll_add64(g, ll_mul64(g, m, K), k)), VL);
	for (int j = 0; j < nv; j++) {
		wi = ll_add64(g, ll_mul64(g, ll_add64(g, nb, ll_c64(g, j)), K), k);
		w = LLVMBuildLoad2(g->b, fv, LLVMBuildInBoundsGEP2(g->b, fv, LLVMBuildBitCast(g->b, W, LLVMPointerType(fv, 0), ""), &wi, 1, ""), "");
		LLVMSetAlignment(w, 64);
		LLVMBuildStore(g->b, LLVMBuildFAdd(g->b, LLVMBuildLoad2(g->b, fv, acc[j], ""), LLVMBuildFMul(g->b, xs, w, ""), ""), acc[j]);
	}
	ll_loop_close(g, &l);
	base = ll_add64(g, ll_mul64(g, m, N), ll_mul64(g, nb, VL));
	for (int i = 0; i < VL; i++)
		mask[i] = ll_c32(g, i);
	for (int j = 0; j < nv; j++) {
		unsigned n = j == nv - 1 ? (unsigned)nl : VL;
		LLVMValueRef y = LLVMBuildLoad2(g->b, fv, acc[j], "");
		if (n < VL)
			y = LLVMBuildShuffleVector(g->b, y, y, LLVMConstVector(mask, n), "");
		fst(g, fvec(g, out, ll_add64(g, base, ll_c64(g, j * VL)), n), y);
	}
}

/* ll_fdense: nn.dense of float32 data x[..., K] and constant float32
** weights w[N, K] into float32, on the float path: the weights
** rearranged at compile time into [N / 16][K][16], 16 outputs to a
** vector and FDV vectors a step, each output summed over k from +0
** (fmul, fadd), as ll_dense() and ref sum it; 0 if it does not apply
** (nothing emitted) */
int
ll_fdense(G *g, Call *c, Val *res)
{
	int64_t K = c->ar[0] ? c->ad[0][c->ar[0] - 1] : 0, N = c->ad[1][0], M, NB, NF;
	const unsigned char *wd;
	TypeId wt;
	float *wr;
	LLVMValueRef W, m, nb;
	Loop l[2];

	if (c->odt != DT_FLOAT32 || c->adt[0] != DT_FLOAT32 || c->adt[1] != DT_FLOAT32 || c->ar[1] != 2 ||
	    c->ad[1][1] != K || K < 1 || N < 1 || !(wd = ll_cdata(g, c->a[1], &wt)))
		return 0;
	M = ir_type_numel(c->m, c->at[0]) / K;
	NB = (N + VL - 1) / VL;
	NF = N / VL / FDV * FDV;
	wr = ir_xcalloc((size_t)(NB * K * VL), sizeof *wr);
	for (int64_t n = 0; n < N; n++)
		for (int64_t k = 0; k < K; k++)
			memcpy(&wr[((n / VL) * K + k) * VL + n % VL], wd + 4 * (n * K + k), 4);
	W = ll_constbuf(g, wr, (size_t)(NB * K * VL) * sizeof *wr);
	free(wr);
	*res = ll_tensorbuf(g, c->ot);
	m = ll_loop_open(g, &l[0], 0, M, 1);
	if (NF) {
		nb = ll_loop_open(g, &l[1], 0, NF, FDV);
		fdense_block(g, c->a[0].p, W, res->p, m, nb, FDV, VL, K, N);
		ll_loop_close(g, &l[1]);
	}
	for (int64_t b = NF; b < NB; b += FDV) {
		int nv = (int)(NB - b < FDV ? NB - b : FDV);
		fdense_block(g, c->a[0].p, W, res->p, m, ll_c64(g, b), nv, b + nv == NB && N % VL ? (int)(N % VL) : VL, K, N);
	}
	ll_loop_close(g, &l[0]);
	return 1;
}

Val
ll_conv2d(G *g, Call *c, int q)
{
	Conv v;
	Val r;

	if (!ll_convgeom(g, c, &v, 0))
		return ll_tensorbuf(g, c->ot);
	if (q && ll_conv_fast(g, c, &v, &r))
		return r;
	return ll_conv_generic(g, c, &v, q);
}
