/*
** dotkernels.c: the dot path's code (dotpath.c has the plan): kernels
** shared by the convs of one shape, each reading its conv's sizes and
** buffers from a descriptor; the padding and repacking of their NHWC
** input buffers; the op function of a dot-path conv (ll_dot_root) and
** qnn.dense on sdot (ll_dense_dot).
*/
#define _POSIX_C_SOURCE 200809L
#include "llvmi.h"

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
		ep.fm = LLVMBuildBitCast(g->b, ll_vload(g, kv->p[KD_FM], ob), LLVMVectorType(g->f32, VL), "");
	else if (k->epi && !k->skip) {
		ep.mul = k->uni ? kv->umul : ll_vload(g, kv->p[KD_MUL], ob);
		ep.shift = k->uni ? kv->ush : ll_vload(g, kv->p[KD_SH], ob);
	}
	return ep;
}

/* vrequant: the epilogue on the <VL x i32> x (the bias added and the
** input zero point taken away: KD_START) with ep: ll_fpm() and ll_sat32() lane
** by lane, as ll_ew_requantize; or for float32, ll_ew_requantize_f32's
** product rounded to even, clamped to +-2^30 (beyond, every byte result
** saturates alike: |ozp| <= 2^16) */
static LLVMValueRef
vrequant(G *g, const Kkey *k, const Kv *kv, const Vep *ep, LLVMValueRef x)
{
	LLVMTypeRef v64 = LLVMVectorType(g->i64, VL), v8 = LLVMVectorType(g->i8, VL);
	LLVMTypeRef vf = LLVMVectorType(g->f32, VL), av = LLVMVectorType(g->i32, VL);
	LLVMValueRef zero = ll_vsplat(g->i32, 0), t, ls, rs, total, half;

	if (k->epi == 2) {
		LLVMValueRef a[1], hi[VL], lo[VL];
		for (int i = 0; i < VL; i++) {
			hi[i] = LLVMConstReal(g->f32, 1073741824.0);
			lo[i] = LLVMConstReal(g->f32, -1073741824.0);
		}
		a[0] = LLVMBuildFMul(g->b, LLVMBuildSIToFP(g->b, x, vf, ""), ep->fm, "");
		t = ll_callf(g, "llvm.roundeven.v16f32", vf, a, 1);
		t = LLVMBuildSelect(g->b, LLVMBuildFCmp(g->b, LLVMRealOLT, t, LLVMConstVector(hi, VL), ""), t, LLVMConstVector(hi, VL), "");
		t = LLVMBuildSelect(g->b, LLVMBuildFCmp(g->b, LLVMRealOGT, t, LLVMConstVector(lo, VL), ""), t, LLVMConstVector(lo, VL), "");
		x = LLVMBuildFPToSI(g->b, t, av, "");
	} else if (!k->skip) {
		ls = ll_iminmax(g, ep->shift, zero, 1, 1);
		rs = ll_iminmax(g, LLVMBuildSub(g->b, zero, ep->shift, ""), zero, 1, 1);
		total = LLVMBuildZExt(g->b, LLVMBuildAdd(g->b, rs, ll_vsplat(g->i32, 31), ""), v64, "");
		t = LLVMBuildShl(g->b, LLVMBuildSExt(g->b, x, v64, ""), LLVMBuildZExt(g->b, ls, v64, ""), "");
		t = LLVMBuildMul(g->b, t, LLVMBuildSExt(g->b, ep->mul, v64, ""), "");
		half = LLVMBuildShl(g->b, ll_vsplat(g->i64, 1), LLVMBuildSub(g->b, total, ll_vsplat(g->i64, 1), ""), "");
		if (k->nearest)
			half = LLVMBuildSub(g->b, half, LLVMBuildZExt(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, t, ll_vsplat(g->i64, 0), ""), v64, ""), "");
		t = LLVMBuildAShr(g->b, LLVMBuildAdd(g->b, t, half, ""), total, "");
		x = LLVMBuildTrunc(g->b, t, LLVMVectorType(g->i32, VL), "");
	}
	x = LLVMBuildAdd(g->b, x, kv->ozp, "");
	x = ll_iminmax(g, x, ll_vsplat(g->i32, ir_dtype_max(k->odt)), 1, 0);
	x = ll_iminmax(g, x, ll_vsplat(g->i32, ir_dtype_min(k->odt)), 1, 1);
	return LLVMBuildTrunc(g->b, x, v8, "");
}

enum { VTMAX = 16 };     /* most rows and columns of ll_vtranspose */

/* ll_vtranspose: out[0..cols) (<rows x T>) the columns of the rows
** y[0..rows) (<cols x T>) */
void
ll_vtranspose(G *g, const LLVMValueRef *y, int rows, int cols, LLVMValueRef *out)
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
				mask[i] = ll_c32(g, i);
			cat[p] = LLVMBuildShuffleVector(g->b, cat[2 * p], cat[2 * p + 1], LLVMConstVector(mask, 2 * len), "");
		}
	}
	for (int c = 0; c < cols; c++)
		for (int p = 0; p < rows; p++)
			mask[c * rows + p] = ll_c32(g, p * cols + c);
	all = LLVMBuildShuffleVector(g->b, cat[0], LLVMGetUndef(LLVMTypeOf(cat[0])), LLVMConstVector(mask, (unsigned)(rows * cols)), "");
	for (int c = 0; c < cols; c++) {
		for (int p = 0; p < rows; p++)
			mask[p] = ll_c32(g, c * rows + p);
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
	LLVMTypeRef pv = LLVMVectorType(ll_elty(g, k->sdt), (unsigned)k->pb);
	LLVMValueRef col[VL], base;

	ll_vtranspose(g, y, k->pb, VL, col);
	base = ll_add64(g, ll_add64(g, kmul(g, n, kv->i[KD_OST0]), kmul(g, oh, kv->i[KD_OST2])), ow0);
	for (int c = 0; c < VL; c++) {
		LLVMValueRef o = ll_add64(g, ll_mul64(g, ob, VL), ll_c64(g, c)), ptr, st_;
		ptr = LLVMBuildBitCast(g->b, ll_gep(g, kv->p[KD_OUT], k->sdt, ll_add64(g, base, kmul(g, o, kv->i[KD_OST1]))),
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
		return ll_callf(g, "llvm.x86.avx512.vpdpbusd.512", LLVMTypeOf(acc), a, 3);
	for (int q = 0; q < VL / 4; q++) {
		for (int i = 0; i < 4; i++)
			mask[i] = ll_c32(g, 4 * q + i);
		a[0] = LLVMBuildShuffleVector(g->b, acc, acc, LLVMConstVector(mask, 4), "");
		a[1] = LLVMBuildBitCast(g->b, LLVMBuildShuffleVector(g->b, wv, wv, LLVMConstVector(mask, 4), ""), q8, "");
		a[2] = LLVMBuildBitCast(g->b, LLVMBuildShuffleVector(g->b, xs, xs, LLVMConstVector(mask, 4), ""), q8, "");
		part[q] = ll_callf(g, "llvm.aarch64.neon.sdot.v4i32.v16i8", q32, a, 3);
	}
	for (int i = 0; i < VL; i++)
		mask[i] = ll_c32(g, i);
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
		LLVMValueRef row = ll_add64(g, kmul(g, n, kv->i[KD_SHP]), ll_add64(g, oh, kv->i[KD_SPT]));
		LLVMValueRef px = ll_add64(g, ll_add64(g, ow0, ll_c64(g, p)), kv->i[KD_SPL]), q, s_;
		LLVMValueRef ix = ll_add64(g, kmul(g, ll_add64(g, kmul(g, row, kv->i[KD_SWP]), px), kv->i[KD_SC4]), ll_mul64(g, ob, VL));
		q = LLVMBuildBitCast(g->b, ll_gep(g, kv->p[KD_OUT], DT_UINT8, ix), LLVMPointerType(LLVMTypeOf(y[p]), 0), "");
		s_ = LLVMBuildStore(g->b, k->flip ? LLVMBuildXor(g->b, y[p], ll_vsplat(g->i8, 0x80), "") : y[p], q);
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
		LLVMValueRef c0 = ll_vload(g, kv->p[KD_START], ll_add64(g, ob, ll_c64(g, j)));
		for (int p = 0; p < k->pb; p++) {
			acc[j][p] = ll_entry_alloca(g, av);
			LLVMBuildStore(g->b, c0, acc[j][p]);
		}
	}
	kh = ll_loop_open(g, &l[0], 0, k->KH, 1);
	kw = ll_loop_open(g, &l[1], 0, k->KW, 1);
	i4 = ll_loop_openv(g, &l[2], ll_c64(g, 0), I4, 1);
	for (int j = 0; j < obb; j++)
		wv[j] = ll_vload(g, kv->p[KD_W], ll_add64(g, kmul(g, ll_add64(g, ll_mul64(g, ll_add64(g, ll_mul64(g, ll_add64(g, ob, ll_c64(g, j)), k->KH), kh), k->KW), kw), I4), i4));
	row = ll_add64(g, kmul(g, n, kv->i[KD_HP]), ll_add64(g, ll_mul64(g, oh, k->sh), ll_mul64(g, kh, k->dh)));
	for (int p = 0; p < k->pb; p++) {
		LLVMValueRef col = ll_add64(g, ll_mul64(g, ll_add64(g, ow0, ll_c64(g, p)), k->sw), ll_mul64(g, kw, k->dl));
		LLVMValueRef xs = ll_splat(g, ll_ld(g, kv->p[KD_P], DT_INT32, ll_add64(g, kmul(g, ll_add64(g, kmul(g, row, kv->i[KD_WP]), col), I4), i4)), VL);
		for (int j = 0; j < obb; j++)
			LLVMBuildStore(g->b, dotstep(g, LLVMBuildLoad2(g->b, av, acc[j][p], ""), xs, wv[j]), acc[j][p]);
	}
	for (int d = 2; d >= 0; d--)
		ll_loop_close(g, &l[d]);
	for (int j = 0; j < obb; j++) {
		for (int p = 0; p < k->pb; p++)
			y[p] = LLVMBuildLoad2(g->b, av, acc[j][p], "");
		vconv_store(g, k, kv, n, oh, ll_add64(g, ob, ll_c64(g, j)), ow0, y);
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
		acc[p] = ll_entry_alloca(g, av);
		LLVMBuildStore(g->b, ll_vload(g, kv->p[KD_START], ob), acc[p]);
	}
	kh = ll_loop_open(g, &l, 0, k->KH, 1);
	base = ll_add64(g, kmul(g, ll_add64(g, kmul(g, ll_add64(g, kmul(g, n, kv->i[KD_HP]), ll_add64(g, ll_mul64(g, oh, k->sh), ll_mul64(g, kh, k->dh))),
	                                          kv->i[KD_WP]), ll_mul64(g, ow0, k->sw)), kv->i[KD_C4]), ll_mul64(g, ob, VL));
	for (int p = 0; p < k->pb; p++)
		y[p] = LLVMBuildLoad2(g->b, av, acc[p], "");
	for (int64_t kw = 0; kw < k->KW; kw++) {
		wv = ll_vload(g, kv->p[KD_W], ll_add64(g, ll_mul64(g, ll_add64(g, ll_mul64(g, ob, k->KH), kh), k->KW), ll_c64(g, kw)));
		for (int p = 0; p < k->pb; p++) {
			int64_t c = p * k->sw + kw * k->dl;
			if (!col[c]) {
				q = ll_gep(g, kv->p[KD_P], DT_UINT8, ll_add64(g, base, kmul(g, ll_c64(g, c), kv->i[KD_C4])));
				col[c] = LLVMBuildLoad2(g->b, bv, LLVMBuildBitCast(g->b, q, LLVMPointerType(bv, 0), ""), "");
				LLVMSetAlignment(col[c], 16);
				col[c] = k->sx ? LLVMBuildSExt(g->b, col[c], av, "") : LLVMBuildZExt(g->b, col[c], av, "");
			}
			y[p] = LLVMBuildAdd(g->b, y[p], LLVMBuildMul(g->b, col[c], wv, ""), "");
		}
	}
	for (int p = 0; p < k->pb; p++)
		LLVMBuildStore(g->b, y[p], acc[p]);
	ll_loop_close(g, &l);
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
		fv[i] = i < ni ? ll_c64(g, iv[i]) : pv[i - ni];
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
	d = ll_entry_alloca(g, dt);
	for (int i = 0; i < ni + np; i++)
		LLVMBuildStore(g->b, fv[i], LLVMBuildStructGEP2(g->b, dt, d, (unsigned)i, ""));
	return LLVMBuildBitCast(g->b, d, LLVMPointerType(g->p8, 0), "");
}

/* kopen: starts the kernel name, void (desc, err, lo, hi) (ll_parbody()),
** into *f, saving in *h where the builder was (ll_fnleave() ends it); 0
** if it is built already (in *f then) */
static int
kopen(G *g, const char *name, Here *h, LLVMValueRef *f)
{
	if ((*f = LLVMGetNamedFunction(g->mod, name)))
		return 0;
	*f = ll_newfn(g, name, ll_parbody(g), 1);
	ll_fnenter(g, *f, h);
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
** ll_parbody()'s type, running the output rows [lo, hi) of all images;
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
	kv.ozp = ll_splat(g, LLVMBuildTrunc(g->b, kv.i[KD_OZP], g->i32, ""), VL);
	kv.umul = ll_splat(g, LLVMBuildTrunc(g->b, kv.i[KD_UMUL], g->i32, ""), VL);
	kv.ush = ll_splat(g, LLVMBuildTrunc(g->b, kv.i[KD_USH], g->i32, ""), VL);
	kv.scratch = ll_newbuf(g, VDW * 4, 64);
	owl = LLVMBuildNSWSub(g->b, kv.i[KD_OW], ll_c64(g, k->pb), "");
	row = ll_loop_openv(g, &l[0], LLVMGetParam(f, 2), LLVMGetParam(f, 3), 1);
	n = LLVMBuildUDiv(g->b, row, kv.i[KD_OH], "");
	oh = LLVMBuildURem(g->b, row, kv.i[KD_OH], "");
	/* channel blocks by obb, then the rest one by one */
	obb = k->obb;
	obf = obb > 1 ? LLVMBuildNSWSub(g->b, kv.i[KD_OB], LLVMBuildURem(g->b, kv.i[KD_OB], ll_c64(g, obb), ""), "") : kv.i[KD_OB];
	for (int part = 0; part < (obb > 1 ? 2 : 1); part++) {
		ob = ll_loop_openv(g, &l[1], part ? obf : ll_c64(g, 0), part ? kv.i[KD_OB] : obf, part ? 1 : obb);
		ow = ll_loop_openv(g, &l[2], ll_c64(g, 0), kv.i[KD_OW], k->pb);
		ow0 = ll_iminmax(g, ow, owl, 1, 0);
		if (k->dw)
			vdw_block(g, k, &kv, n, oh, ob, ow0);
		else
			vconv_block(g, k, &kv, n, oh, ob, ow0, part ? 1 : obb);
		ll_loop_close(g, &l[2]);
		ll_loop_close(g, &l[1]);
	}
	ll_loop_close(g, &l[0]);
	ll_fnleave(g, &o);
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
	obb = pl->dw ? 1 : ll_obbof(g);
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
	pv[KD_START] = ll_ci32(g, sv, nst);
	pv[KD_MUL] = e && e->mul ? e->mul : null;
	pv[KD_SH] = e && e->sh ? e->sh : null;
	pv[KD_FM] = e && e->fm ? e->fm : null;
	pv[KD_OUT] = sk->p;
	free(sv);
	ll_parrun(g, kernel(g, &k), kdesc(g, KD_NI, iv, KD_NP, pv), v->N * v->OH);
}

/* vrepack's descriptor: int64 ... */
enum { KR_H, KR_W, KR_C, KR_IST0, KR_IST1, KR_IST2, KR_IST3, KR_HP, KR_WP, KR_C4, KR_PT, KR_PL, KR_NI };
/* ... then pointers */
enum { KR_X, KR_P, KR_NP };

/* vrepack: copies the data x (NCHW-like) into the input buffer P of pl,
** bytes flipped where ll_flipped(), the rows of all images split among
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
		k[KR_IST3] = ll_c64(g, 1);
	if (small) {
		k[KR_C] = ll_c64(g, v->C);
		k[KR_C4] = ll_c64(g, pl->C4);
		blocks = 0;
	}
	c16 = blocks ? LLVMBuildNSWSub(g->b, k[KR_C], LLVMBuildURem(g->b, k[KR_C], ll_c64(g, BC), ""), "") : ll_c64(g, 0);
	w8 = blocks ? LLVMBuildNSWSub(g->b, k[KR_W], LLVMBuildURem(g->b, k[KR_W], ll_c64(g, BW), ""), "") : ll_c64(g, 0);
	row = ll_loop_openv(g, &l[2], LLVMGetParam(f, 2), LLVMGetParam(f, 3), 1);
	ix[0] = LLVMBuildUDiv(g->b, row, k[KR_H], "");
	ix[2] = LLVMBuildURem(g->b, row, k[KR_H], "");
	/* the blocks */
	if (blocks) {
		LLVMValueRef rows[BC], px[BW];
		ix[3] = ll_loop_openv(g, &l[0], ll_c64(g, 0), w8, BW);
		ix[1] = ll_loop_openv(g, &l[1], ll_c64(g, 0), c16, BC);
		src = ll_add64(g, ll_add64(g, kmul(g, ix[0], k[KR_IST0]), kmul(g, ix[1], k[KR_IST1])), ll_add64(g, kmul(g, ix[2], k[KR_IST2]), ix[3]));
		for (int r = 0; r < BC; r++) {
			LLVMValueRef q = ll_gep(g, p[KR_X], DT_UINT8, ll_add64(g, src, kmul(g, ll_c64(g, r), k[KR_IST1])));
			rows[r] = LLVMBuildLoad2(g->b, rt, LLVMBuildBitCast(g->b, q, LLVMPointerType(rt, 0), ""), "");
			LLVMSetAlignment(rows[r], 1);
		}
		ll_vtranspose(g, rows, BC, BW, px);
		dst = ll_add64(g, kmul(g, ll_add64(g, kmul(g, ll_add64(g, kmul(g, ix[0], k[KR_HP]), ll_add64(g, ix[2], k[KR_PT])), k[KR_WP]),
		                                ll_add64(g, ix[3], k[KR_PL])), k[KR_C4]), ix[1]);
		for (int q = 0; q < BW; q++) {
			LLVMValueRef d = ll_gep(g, p[KR_P], DT_UINT8, ll_add64(g, dst, kmul(g, ll_c64(g, q), k[KR_C4]))), s_;
			if (pl->flip)
				px[q] = LLVMBuildXor(g->b, px[q], ll_vsplat(g->i8, 0x80), "");
			s_ = LLVMBuildStore(g->b, px[q], LLVMBuildBitCast(g->b, d, LLVMPointerType(pt, 0), ""));
			LLVMSetAlignment(s_, 1);
		}
		ll_loop_close(g, &l[1]);
		ll_loop_close(g, &l[0]);
	}
	/* the rest: channels from c16 at every column, then columns from w8 */
	for (int part = 0; part < (blocks ? 2 : 1); part++) {
		/* channels [clo, chi) at columns [wlo, W), by channel; few
		   channels by column, their loop then unrolled */
		LLVMValueRef clo = part ? ll_c64(g, 0) : c16, chi = part ? c16 : k[KR_C], wlo = part ? w8 : ll_c64(g, 0);
		ix[small ? 3 : 1] = ll_loop_openv(g, &l[0], small ? wlo : clo, small ? k[KR_W] : chi, 1);
		ix[small ? 1 : 3] = ll_loop_openv(g, &l[1], small ? clo : wlo, small ? chi : k[KR_W], 1);
		src = ll_c64(g, 0);
		for (int d = 0; d < 4; d++)
			src = ll_add64(g, src, kmul(g, ix[d], k[KR_IST0 + d]));
		dst = ll_add64(g, kmul(g, ll_add64(g, kmul(g, ll_add64(g, kmul(g, ix[0], k[KR_HP]), ll_add64(g, ix[2], k[KR_PT])), k[KR_WP]),
		                                ll_add64(g, ix[3], k[KR_PL])), k[KR_C4]), ix[1]);
		b = ll_ld(g, p[KR_X], DT_UINT8, src);
		if (pl->flip)
			b = LLVMBuildXor(g->b, b, LLVMConstInt(g->i8, 0x80, 0), "");
		ll_st(g, p[KR_P], DT_UINT8, dst, b);
		ll_loop_close(g, &l[1]);
		ll_loop_close(g, &l[0]);
	}
	ll_loop_close(g, &l[2]);
	ll_fnleave(g, &o);
run:
	if (v->N * v->H > 0)
		ll_parrun(g, f, kdesc(g, KR_NI, iv, KR_NP, pv), v->N * v->H);
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
		n = ll_loop_openv(g, &l[0], ll_c64(g, 0), k[KF_N], 1);
		row = kmul(g, n, k[KF_HP]);
		LLVMBuildMemSet(g->b, ll_gep(g, p[KF_P], DT_UINT8, kmul(g, row, rowb)), xz, kmul(g, k[KF_PT], rowb), 1);
		LLVMBuildMemSet(g->b, ll_gep(g, p[KF_P], DT_UINT8, kmul(g, ll_add64(g, row, ll_add64(g, k[KF_PT], k[KF_H])), rowb)), xz,
		                kmul(g, k[KF_PB], rowb), 1);
		h = ll_loop_openv(g, &l[1], ll_c64(g, 0), k[KF_H], 1);
		row = kmul(g, ll_add64(g, row, ll_add64(g, h, k[KF_PT])), rowb);
		LLVMBuildMemSet(g->b, ll_gep(g, p[KF_P], DT_UINT8, row), xz, kmul(g, k[KF_PL], k[KF_C4]), 1);
		LLVMBuildMemSet(g->b, ll_gep(g, p[KF_P], DT_UINT8, ll_add64(g, row, kmul(g, ll_add64(g, k[KF_PL], k[KF_W]), k[KF_C4]))), xz,
		                kmul(g, k[KF_PR], k[KF_C4]), 1);
		ll_loop_close(g, &l[1]);
		ll_loop_close(g, &l[0]);
		ll_fnleave(g, &o);
	}
	flag = ll_newbuf(g, 1, 1);
	fill = LLVMAppendBasicBlockInContext(g->cx, g->fn, "pad");
	done = LLVMAppendBasicBlockInContext(g->cx, g->fn, "padded");
	LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, LLVMBuildLoad2(g->b, g->i8, flag, ""), LLVMConstInt(g->i8, 0, 0), ""),
	                fill, done);
	LLVMPositionBuilderAtEnd(g->b, fill);
	ll_parrun(g, f, kdesc(g, KF_NI, iv, KF_NP, &P), 1);
	LLVMBuildStore(g->b, LLVMConstInt(g->i8, 1, 0), flag);
	LLVMBuildBr(g->b, done);
	LLVMPositionBuilderAtEnd(g->b, done);
}

/* producer: the conv, its bias_add (or 0) and its requantize whose
** result is the data x of a conv in scope s, each used once and not yet
** lowered, seen through what has no code: a parameter of an inlined
** call (to its argument, in the caller's scope), a ll_clip_whole, and the
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
		if (m->nodes[x].kind == NK_VAR && !s->done[x] && ir_nuses(m, x) == 2 && (i = ll_paramof(m, s, x)) >= 0) {
			x = ir_arg(m, s->call, (uint32_t)i + 1);
			s = s->up;
		} else if (ll_isop(m, x, OP_CLIP) && ll_single(g, s, x) && ll_clip_whole(m, x)) {
			x = ir_arg(m, x, 0);
		} else {
			break;
		}
	}
	if (m->nodes[x].kind == NK_CALLFN && !s->done[x] && ir_nuses(m, x) == 1 && (f = ll_callee(m, x)) &&
	    m->nodes[ir_arg(m, x, 0)].kind == NK_FUNC && ll_isop(m, ir_func_body(m, f), OP_QNN_REQUANTIZE)) {
		ll_scope_init(inner, m);
		inner->up = s;
		inner->call = x;
		inner->fn = f;
		*own = 1;
		s = inner;
		x = ir_func_body(m, f);
	} else if (!ll_isop(m, x, OP_QNN_REQUANTIZE) || !ll_single(g, s, x)) {
		return 0;
	}
	*ps = s;
	*rq = x;
	*ba = 0;
	*cv = ir_arg(m, x, 0);
	if (ll_isop(m, *cv, OP_NN_BIAS_ADD) && ll_single(g, s, *cv)) {
		*ba = *cv;
		*cv = ir_arg(m, *ba, 0);
	}
	return ll_isop(m, *cv, OP_QNN_CONV2D) && ll_single(g, s, *cv);
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
	LLVMValueRef P = ll_newbuf(g, (size_t)bytes, 64);
	NodeId x = ir_arg(m, pl->n, 0), rq = 0, ba = 0, pc = 0;
	Scope *ps = s, inner;
	int own = 0, run = 1;
	Vconv pp;
	Epi pe;

	if (!(pl->C4 % VL == 0 && ll_densenchw(v->ist, v->C, v->H, v->W) && producer(g, s, x, &ps, &inner, &own, &rq, &ba, &pc) &&
	      ll_vconv_plan(g, ps, pc, &pp) && ll_epi_plan(g, ps, rq, ba, &pp, &pe) && pe.odt == pl->xdt && pp.v.O == v->C))
		pc = 0;
	vpadfill(g, pl, P);
	if (pc) {
		Sink ps_ = { .p = P, .dt = pl->xdt, .nhwc = 1, .flip = pl->flip,
		             .Hp = pl->Hp, .Wp = pl->Wp, .C4 = pl->C4, .pt = v->pt, .pl = v->pl };
		vconv_emit(g, ps, &pp, &pe, &ps_);
	} else {
		Val xv = ll_lower(g, s, x);
		if (xv.p)
			vrepack(g, pl, xv.p, P);
		run = xv.p != NULL;
	}
	if (own)
		ll_scope_free(&inner);
	if (run)
		vconv_kernel(g, pl, P, e, sk);
}

/* ll_dot_root: lowers n, a qnn.conv2d or a requantize (of a bias_add) of
** one, on the dot path if it applies; 0 if not (nothing emitted but
** the lowering of operands) */
int
ll_dot_root(G *g, Scope *s, NodeId n, Val *res)
{
	const Module *m = g->m;
	NodeId rq = 0, ba = 0, cv = n;
	Vconv pl;
	Epi e;
	Sink sk = { 0 };

	if (ll_isop(m, n, OP_QNN_REQUANTIZE)) {
		rq = n;
		cv = ir_arg(m, rq, 0);
		if (ll_isop(m, cv, OP_NN_BIAS_ADD) && ll_single(g, s, cv)) {
			ba = cv;
			cv = ir_arg(m, ba, 0);
		}
		if (!ll_single(g, s, cv))
			return 0;
	}
	if (!ll_vconv_plan(g, s, cv, &pl) || pl.v.ost[3] != 1 || (rq && !ll_epi_plan(g, s, rq, ba, &pl, &e)))
		return 0;
	*res = ll_tensorbuf(g, m->nodes[n].type);
	sk.p = res->p;
	sk.dt = rq ? e.odt : DT_INT32;
	vconv_emit(g, s, &pl, rq ? &e : NULL, &sk);
	return 1;
}

/* dense_block: out[m][n] for the 16 n of block nb (nl of them stored,
** the rest past N) of ll_dense_dot's data P ([M][K4] bytes) and weights W
** ([NB][K4 / 4][VL][4]), the accumulators starting at corr[nb] */
static void
dense_block(G *g, LLVMValueRef P, LLVMValueRef W, LLVMValueRef corr, LLVMValueRef out, LLVMValueRef m,
            LLVMValueRef nb, int64_t K4, int64_t N, int nl)
{
	LLVMTypeRef av = LLVMVectorType(g->i32, VL);
	LLVMValueRef acc = ll_entry_alloca(g, av), k4, xs, base;
	Loop l;

	LLVMBuildStore(g->b, ll_vload(g, corr, nb), acc);
	k4 = ll_loop_open(g, &l, 0, K4 / 4, 1);
	xs = ll_splat(g, ll_ld(g, P, DT_INT32, ll_add64(g, ll_mul64(g, m, K4 / 4), k4)), VL);
	LLVMBuildStore(g->b, dotstep(g, LLVMBuildLoad2(g->b, av, acc, ""), xs, ll_vload(g, W, ll_add64(g, ll_mul64(g, nb, K4 / 4), k4))), acc);
	ll_loop_close(g, &l);
	base = ll_add64(g, ll_mul64(g, m, N), ll_mul64(g, nb, VL));
	if (nl == VL) {
		LLVMValueRef q = LLVMBuildBitCast(g->b, ll_gep(g, out, DT_INT32, base), LLVMPointerType(av, 0), "");
		LLVMSetAlignment(LLVMBuildStore(g->b, LLVMBuildLoad2(g->b, av, acc, ""), q), 4);
		return;
	}
	for (int k = 0; k < nl; k++)
		ll_st(g, out, DT_INT32, ll_add64(g, base, ll_c64(g, k)),
		   LLVMBuildExtractElement(g->b, LLVMBuildLoad2(g->b, av, acc, ""), ll_c32(g, k), ""));
}

/* ll_dense_dot: qnn.dense of int8/uint8 data x[M, K] (any leading dims) and
** constant int8/uint8 weights w[N, K] whose w - wz fit in s8, scalar
** constant data zero point, int32 result, on sdot as the dot path runs a
** 1x1 conv: x' (ll_flipped()) copied into rows of K4 (K rounded up to 4)
** bytes, the weights (w - wz) rearranged into [N/16][K4/4][16][4], the
** accumulators of 16 outputs started at -x'z sum (w - wz).  0 if it does
** not apply (nothing emitted) */
int
ll_dense_dot(G *g, Call *c, Val *res)
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
	    (c->adt[1] != DT_INT8 && c->adt[1] != DT_UINT8) || c->ar[1] != 2 || !K || !(w = ll_cdata(g, c->a[1], &wt)) ||
	    ll_cnumel(g, c->a[2]) != 1 || !ll_cnum(g, c->a[2], 0, &xz) || !ll_cnum(g, c->a[3], 0, &wz) ||
	    (ll_cnumel(g, c->a[3]) != 1 && ll_cnumel(g, c->a[3]) != N))
		return 0;
	xz += ll_flipped(g, c->adt[0]) ? -128 : 0;
	if (xz < -128 || xz > 127)
		return 0;
	wr = ir_xcalloc((size_t)nw, 1);
	corr = ir_xcalloc((size_t)(NB * VL), sizeof *corr);
	for (int64_t n = 0; ok && n < N; n++) {
		int64_t sum = 0;
		ll_cnum(g, c->a[3], n, &wz);
		for (int64_t k = 0; k < K; k++) {
			int64_t v = (c->adt[1] == DT_INT8 ? (int8_t)w[n * K + k] : w[n * K + k]) - (int64_t)wz;
			ok &= v >= -128 && v <= 127;
			wr[((n / VL) * (K4 / 4) + k / 4) * VL * 4 + (n % VL) * 4 + k % 4] = (int8_t)v;
			sum += v;
		}
		corr[n] = (int32_t)(uint32_t)(-(uint64_t)(sum * (int64_t)xz));
	}
	if (ok) {
		W = ll_constbuf(g, wr, (size_t)nw);
		C = ll_ci32(g, corr, NB * VL);
	}
	free(wr);
	free(corr);
	if (!ok)
		return 0;
	/* the data, flipped where the instruction needs it, in rows of K4 */
	P = ll_newbuf(g, (size_t)(M * K4), 64);
	m = ll_loop_open(g, &l[0], 0, M, 1);
	ik = ll_loop_open(g, &l[1], 0, K, 1);
	x = ll_ld(g, c->a[0].p, c->adt[0], ll_add64(g, ll_mul64(g, m, K), ik));
	if (ll_flipped(g, c->adt[0]))
		x = LLVMBuildXor(g->b, x, LLVMConstInt(g->i8, 0x80, 0), "");
	ll_st(g, P, DT_UINT8, ll_add64(g, ll_mul64(g, m, K4), ik), x);
	ll_loop_close(g, &l[1]);
	ll_loop_close(g, &l[0]);
	*res = ll_tensorbuf(g, c->ot);
	m = ll_loop_open(g, &l[0], 0, M, 1);
	if (N / VL) {
		nb = ll_loop_open(g, &l[1], 0, N / VL, 1);
		dense_block(g, P, W, C, res->p, m, nb, K4, N, VL);
		ll_loop_close(g, &l[1]);
	}
	if (N % VL)
		dense_block(g, P, W, C, res->p, m, ll_c64(g, N / VL), K4, N, (int)(N % VL));
	ll_loop_close(g, &l[0]);
	return 1;
}
