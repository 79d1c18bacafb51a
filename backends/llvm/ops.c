/*
** ops.c: the llvm backend's lowering of the ops that are neither
** elementwise maps, reductions nor convolutions: quantize, requantize and
** the quantized binary ops, the layout ops (reshape-like aliases,
** transpose, layout_transform), einsum, batch, layer, group and instance
** normalization, strided_slice, take and gather, concatenate, split, pad,
** image.resize2d and bias_add.  call() in nodes.c dispatches to them.
*/
#define _POSIX_C_SOURCE 200809L
#include <math.h>

#include "llvmi.h"

/* scalar accessor of a fresh constant int32 vector (per-channel parameters) */
static Acc
i32vec(G *g, const int32_t *v, int64_t n, int ax, int orank)
{
	Val cv = { 0 };
	cv.p = ll_constbuf(g, v, (size_t)n * 4);
	return ll_along(cv, DT_INT32, n, ax, orank);
}

/* qaxis: the normalized channel axis attribute of a qnn op over rank r */
static int
qaxis(const Module *m, NodeId n, int r)
{
	int64_t ax = ll_aint(m, n, "axis");
	return (int)(ax < 0 ? ax + r : ax);
}

Val
ll_quantize(G *g, Call *c, int deq)
{
	Ew e = { .dt = c->adt[0], .odt = c->odt, .h16 = c->odt == DT_FLOAT16 };
	int ax = qaxis(c->m, c->n, c->ar[0]);
	Val r = ll_tensorbuf(g, c->ot);
	Acc in[3], out = ll_dense_acc(r.p, c->odt, c->od, c->orank);

	if (!deq) {
		const char *rnd = ll_astr(c->m, c->n, "rounding");
		e.even = strcmp(rnd, "HALF_TO_EVEN") == 0;
		if (!e.even && strcmp(rnd, "None") != 0)
			ll_refuse(g, c->n, "unknown rounding mode");
	}

	in[0] = ll_ewacc(g, c, 0);
	in[1] = ll_along(c->a[1], DT_FLOAT32, ir_type_numel(c->m, c->at[1]), ax, c->orank);
	in[2] = ll_along(c->a[2], DT_INT32, ir_type_numel(c->m, c->at[2]), ax, c->orank);
	if (deq && c->odt != DT_FLOAT32 && c->odt != DT_FLOAT16)
		ll_refuse(g, c->n, "only float32 and float16 results are supported");
	if (!deq && (!ll_isint(c->odt) || ir_dtype_bytes[c->odt] > 4))
		ll_refuse(g, c->n, "the result must be an integer of at most 32 bits");
	ll_emit_map(g, c->orank, c->od, &out, 3, in, deq ? ll_ew_dequantize : ll_ew_quantize, &e);
	return r;
}

/* ll_rqparams: the Q31 multiplier and shift of each of requantize c's *ns
** input scales (fresh arrays), *skip when the scales are one and equal
** (no multiply), *nearest for TONEAREST; 0 if c is not supported (refused
** unless quiet), as for rounding "HALF_TO_EVEN" (requantize_f32 and
** epi_f32 take it) */
int
ll_rqparams(G *g, Call *c, int quiet, int32_t **mul, int32_t **sh, int64_t *ns, int *skip, int *nearest)
{
	const Module *m = c->m;
	const char *rnd = ll_astr(m, c->n, "rounding"), *cdt = ll_astr(m, c->n, "compute_dtype"), *why = NULL;
	double os, isc = 0;

	*ns = ll_cnumel(g, c->a[1]);
	if (strcmp(rnd, "None") && strcmp(rnd, "UPWARD") && strcmp(rnd, "TONEAREST"))
		why = "unknown rounding mode";
	else if (strcmp(cdt, "None") && strcmp(cdt, "int64"))
		why = "only compute_dtype \"int64\" is supported";
	else if (*ns < 1 || ll_cnumel(g, c->a[3]) != 1 || !ll_cnum(g, c->a[3], 0, &os) || os == 0 || !isfinite(os))
		why = "the scales must be constants, the output scale one nonzero value";
	else if (!ll_isint(c->adt[0]) || !ll_isint(c->odt) || ir_dtype_bytes[c->odt] > 4)
		why = "integer data and an integer result of at most 32 bits are required";
	if (why) {
		if (!quiet)
			ll_refuse(g, c->n, why);
		return 0;
	}
	*nearest = !strcmp(rnd, "TONEAREST");
	*mul = ir_xcalloc((size_t)*ns, sizeof **mul);
	*sh = ir_xcalloc((size_t)*ns, sizeof **sh);
	for (int64_t k = 0; k < *ns; k++) {
		RefFixed f;
		ll_cnum(g, c->a[1], k, &isc);
		f = ll_fixed((double)(float)isc / (double)(float)os);
		(*mul)[k] = f.mul;
		(*sh)[k] = f.shift;
	}
	*skip = ir_type(m, c->at[1])->n == 0 && (float)isc == (float)os;
	return 1;
}

/* ll_f32mul: QNNPACK's float32 multiplier fl(s * fl(1 / os)) (ref's) */
float
ll_f32mul(float s, float os)
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
	Val r = ll_tensorbuf(g, c->ot), mv = { 0 };
	Acc in[4], out;
	int64_t ns = ll_cnumel(g, c->a[1]);
	double os = 0, s = 0;
	float *m;

	if (strcmp(ll_astr(c->m, c->n, "compute_dtype"), "float32")) {
		ll_refuse(g, c->n, "rounding \"HALF_TO_EVEN\" needs compute_dtype \"float32\"");
		return r;
	}
	if (ns < 1 || ll_cnumel(g, c->a[3]) != 1 || !ll_cnum(g, c->a[3], 0, &os) ||
	    !ll_isint(c->adt[0]) || !ll_isint(c->odt) || ir_dtype_bytes[c->odt] > 4) {
		ll_refuse(g, c->n, "constant scales, integer data and an integer result of at most 32 bits are required");
		return r;
	}
	m = ir_xcalloc((size_t)ns, sizeof *m);
	for (int64_t k = 0; k < ns; k++) {
		ll_cnum(g, c->a[1], k, &s);
		m[k] = ll_f32mul((float)s, (float)os);
		if (!isfinite(m[k])) {
			ll_refuse(g, c->n, "the float32 multiplier is not finite");
			free(m);
			return r;
		}
	}
	mv.p = ll_constbuf(g, m, (size_t)ns * 4);
	free(m);
	out = ll_dense_acc(r.p, c->odt, c->od, c->orank);
	in[0] = ll_ewacc(g, c, 0);
	in[1] = ll_along(c->a[2], DT_INT32, ir_type_numel(c->m, c->at[2]), ax, c->orank);
	in[2] = ll_along(mv, DT_FLOAT32, ns, ax, c->orank);
	in[3] = ll_along(c->a[4], DT_INT32, 1, 0, c->orank);
	ll_emit_map(g, c->orank, c->od, &out, 4, in, ll_ew_requantize_f32, &e);
	return r;
}

Val
ll_requantize(G *g, Call *c)
{
	const Module *m = c->m;
	Ew e = { .dt = c->adt[0], .odt = c->odt };
	int64_t axis = ll_aint(m, c->n, "axis"), ns;
	int ax = (int)(axis < 0 ? (c->ar[0] > 0 ? c->ar[0] + axis : 0) : axis);
	int32_t *mul, *sh;
	Val r;
	Acc in[5], out;

	if (!strcmp(ll_astr(m, c->n, "rounding"), "HALF_TO_EVEN"))
		return requantize_f32(g, c, ax);
	if (!ll_rqparams(g, c, 0, &mul, &sh, &ns, &e.skip[0], &e.nearest))
		return ll_tensorbuf(g, c->ot);
	r = ll_tensorbuf(g, c->ot);
	out = ll_dense_acc(r.p, c->odt, c->od, c->orank);
	in[0] = ll_ewacc(g, c, 0);
	in[1] = ll_along(c->a[2], DT_INT32, ir_type_numel(m, c->at[2]), ax, c->orank);
	in[2] = i32vec(g, mul, ns, ax, c->orank);
	in[3] = i32vec(g, sh, ns, ax, c->orank);
	in[4] = ll_along(c->a[4], DT_INT32, 1, 0, c->orank);
	ll_emit_map(g, c->orank, c->od, &out, 5, in, ll_ew_requantize, &e);
	free(mul);
	free(sh);
	return r;
}

/* ll_qbinary: qnn.add and qnn.mul with per-tensor constant parameters:
** operands lhs, rhs, lhs_scale, lhs_zp, rhs_scale, rhs_zp, out_scale, out_zp */
Val
ll_qbinary(G *g, Call *c)
{
	Ew e = { .op = c->m->nodes[c->n].op, .dt = c->adt[0], .odt = c->odt };
	double ls, lz, rs, rz, os, oz;

	if (!ll_cnum(g, c->a[2], 0, &ls) || !ll_cnum(g, c->a[3], 0, &lz) || !ll_cnum(g, c->a[4], 0, &rs) ||
	    !ll_cnum(g, c->a[5], 0, &rz) || !ll_cnum(g, c->a[6], 0, &os) || !ll_cnum(g, c->a[7], 0, &oz) ||
	    ll_cnumel(g, c->a[2]) != 1 || ll_cnumel(g, c->a[4]) != 1 || c->adt[0] != c->adt[1] || !ll_isint(c->adt[0])) {
		ll_refuse(g, c->n, "scales and zero points must be single constants and the operands integers of one dtype");
		return ll_tensorbuf(g, c->ot);
	}
	e.zp[0] = (int32_t)lz;
	e.zp[1] = (int32_t)rz;
	e.zp[2] = (int32_t)oz;
	if (e.op == OP_QNN_MUL) {
		float ns = (float)ls * (float)rs;
		e.fx[0] = ll_fixed((double)ns / (double)(float)os);
		e.skip[0] = ns == (float)os;
	} else {
		double sc[2] = { ls, rs }, zs[2] = { lz, rz };
		for (int k = 0; k < 2; k++) {
			e.fx[k] = ll_fixed((double)(float)sc[k] / (double)(float)os);
			e.skip[k] = (float)sc[k] == (float)os ? (zs[k] == oz ? 2 : 1) : 0;
		}
	}
	return ll_ewise(g, c, 2, ll_ew_qnn, &e);
}

/* ll_alias: the operand's buffer under the result's shape */
Val
ll_alias(Call *c)
{
	Val v = c->a[0];
	v.cnode = 0;
	return v;
}

/* transpose */
Val
ll_transpose(G *g, Call *c)
{
	int64_t axes[MAXD], ist[MAXD];
	int na = ll_aints(c->m, c->n, "axes", axes, MAXD);
	Val r = ll_tensorbuf(g, c->ot);
	Acc in, out = ll_dense_acc(r.p, c->odt, c->od, c->orank);

	ll_strides(c->ad[0], c->ar[0], ist);
	memset(&in, 0, sizeof in);
	in.p = c->a[0].p;
	in.dt = c->adt[0];
	for (int k = 0; k < c->orank; k++) {
		int64_t a = na > 0 ? axes[k] : c->orank - 1 - k;
		if (a < 0)
			a += c->orank;
		in.st[k] = ist[a];
	}
	ll_emit_map(g, c->orank, c->od, &out, 1, &in, NULL, NULL);
	return r;
}

/* ll_layout_transform: the permutation its layouts name, as a transpose */
Val
ll_layout_transform(G *g, Call *c)
{
	int64_t axes[MAXD], ist[MAXD];
	const char *why;
	int n = ir_layout_axes(ll_astr(c->m, c->n, "src_layout"), ll_astr(c->m, c->n, "dst_layout"), axes, MAXD, &why);
	Val r = ll_tensorbuf(g, c->ot);
	Acc in, out = ll_dense_acc(r.p, c->odt, c->od, c->orank);

	if (n != c->orank) {
		ll_refuse(g, c->n, why ? why : "these layouts are not supported");
		return r;
	}
	ll_strides(c->ad[0], c->ar[0], ist);
	memset(&in, 0, sizeof in);
	in.p = c->a[0].p;
	in.dt = c->adt[0];
	for (int k = 0; k < c->orank; k++)
		in.st[k] = ist[axes[k]];
	ll_emit_map(g, c->orank, c->od, &out, 1, &in, NULL, NULL);
	return r;
}

/* ll_einsum: for each output element, the products of the operands'
** elements over the contracted letters (in letter order, the reference's
** order) summed in double, rounded once */
Val
ll_einsum(G *g, Call *c)
{
	const Module *m = c->m;
	const Type *tt = ir_type(m, c->at[0]);
	Val t = c->a[0], r = ll_tensorbuf(g, c->ot);
	int ranks[IR_EINSUM_MAX], isout[IR_EINSUM_MAX * IR_EINSUM_RANK] = { 0 }, nl = 0;
	int64_t size[IR_EINSUM_MAX * IR_EINSUM_RANK], lst[IR_EINSUM_MAX][IR_EINSUM_MAX * IR_EINSUM_RANK], ost[MAXD];
	int64_t fd[IR_EINSUM_MAX][MAXD];
	DType fdt[IR_EINSUM_MAX];
	LLVMValueRef iv[IR_EINSUM_MAX * IR_EINSUM_RANK], acc, p, ooff = ll_c64(g, 0);
	Loop l[IR_EINSUM_MAX * IR_EINSUM_RANK];
	IrEinsum e;
	const char *why;

	if (ll_isint(c->odt) || t.nf > IR_EINSUM_MAX) {
		ll_refuse(g, c->n, "only float tensors are supported");
		return r;
	}
	for (uint32_t k = 0; k < t.nf; k++) {
		TypeId ft = m->tylist[tt->first + k];
		ranks[k] = ll_tdims(m, ft, fd[k]);
		fdt[k] = ll_tdt(m, ft);
	}
	if (!ir_einsum(ll_astr(m, c->n, "equation"), t.nf, ranks, &e, &why)) {
		ll_refuse(g, c->n, why);
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
	ll_strides(c->od, c->orank, ost);
	for (int d = 0; d < e.nout; d++) {
		iv[e.out[d]] = ll_loop_open(g, &l[nl++], 0, c->od[d], 1);
		isout[e.out[d]] = 1;
		ooff = ll_add64(g, ooff, ll_mul64(g, iv[e.out[d]], ost[d]));
	}
	acc = ll_entry_alloca(g, g->f64);
	LLVMBuildStore(g->b, LLVMConstReal(g->f64, 0), acc);
	for (uint32_t x = 0; x < e.nlet; x++)
		if (!isout[x])
			iv[x] = ll_loop_open(g, &l[nl++], 0, size[x], 1);
	p = LLVMConstReal(g->f64, 1);
	for (uint32_t k = 0; k < t.nf; k++) {
		LLVMValueRef off = ll_c64(g, 0);
		for (uint32_t x = 0; x < e.nlet; x++)
			if (lst[k][x])
				off = ll_add64(g, off, ll_mul64(g, iv[x], lst[k][x]));
		p = LLVMBuildFMul(g->b, p, ll_h_cvt(g, ll_ld(g, t.f[k].p, fdt[k], off), fdt[k], DT_FLOAT64), "");
	}
	LLVMBuildStore(g->b, LLVMBuildFAdd(g->b, LLVMBuildLoad2(g->b, g->f64, acc, ""), p, ""), acc);
	while (nl > e.nout)
		ll_loop_close(g, &l[--nl]);
	ll_st(g, r.p, c->odt, ooff, ll_h_cvt(g, LLVMBuildLoad2(g->b, g->f64, acc, ""), DT_FLOAT64, c->odt));
	while (nl > 0)
		ll_loop_close(g, &l[--nl]);
	return r;
}

Val
ll_batch_norm(G *g, Call *c)
{
	const Module *m = c->m;
	const Type *tt = ir_type(m, c->ot);
	int ax = (int)ll_aint(m, c->n, "axis");
	Ew e = { .dt = ll_cdt(c->adt[0]), .odt = ll_cdt(c->adt[0]), .h16 = c->adt[0] == DT_FLOAT16 };
	Acc in[5], out;
	Val r = { 0 };

	if (ax < 0)
		ax += c->ar[0];
	e.lo = ll_attr(m, c->n, "epsilon")->u.f;
	e.skip[0] = !ll_aint(m, c->n, "scale");
	e.skip[1] = !ll_aint(m, c->n, "center");
	r.nf = tt->n;
	r.f = ir_arena_alloc(&g->a, tt->n * sizeof *r.f);
	for (uint32_t j = 0; j < tt->n; j++)
		r.f[j] = ll_tensorbuf(g, m->tylist[tt->first + j]);
	if (ll_isint(e.dt)) {
		ll_refuse(g, c->n, "on integer operands it is not supported");
		return r;
	}
	in[0] = ll_dense_acc(c->a[0].p, c->adt[0], c->ad[0], c->ar[0]);
	for (int k = 1; k < 5; k++)
		in[k] = ll_along(c->a[k], c->adt[k], c->ad[k][0], ax, c->ar[0]);
	out = ll_dense_acc(r.f[0].p, c->adt[0], c->ad[0], c->ar[0]);
	ll_emit_map(g, c->ar[0], c->ad[0], &out, 5, in, ll_ew_batchnorm, &e);
	for (uint32_t j = 1; j < 3 && j < tt->n; j++) {
		Acc src = ll_dense_acc(c->a[j + 2].p, c->adt[j + 2], c->ad[j + 2], 1);
		out = ll_dense_acc(r.f[j].p, c->adt[j + 2], c->ad[j + 2], 1);
		ll_emit_map(g, 1, c->ad[j + 2], &out, 1, &src, NULL, NULL);
	}
	return r;
}

/* normgroup: opens the loops over the (r1, r2) elements of one group of a
** normalization at base (l[0], l[1]); returns the element's offset */
static LLVMValueRef
normgroup(G *g, const RefNorm *p, LLVMValueRef base, Loop *l)
{
	LLVMValueRef i = ll_loop_open(g, &l[0], 0, p->r1, 1);

	return ll_add64(g, ll_add64(g, base, ll_mul64(g, i, p->k * p->r2)), ll_loop_open(g, &l[1], 0, p->r2, 1));
}

/* ldd: element idx of buffer p of float dtype dt widened to double (a
** float16 through float, exactly) */
static LLVMValueRef
ldd(G *g, LLVMValueRef p, DType dt, LLVMValueRef idx)
{
	LLVMValueRef v = ll_ld(g, p, dt, idx);

	if (dt == DT_FLOAT16)
		return LLVMBuildFPExt(g->b, ll_h_load(g, v), g->f64, "");
	return ll_cvt(g, v, dt, DT_FLOAT64);
}

/* ll_norm: nn.layer_norm, nn.group_norm and nn.instance_norm as the
** reference (ref.h, RefNorm): per group the mean, then the variance as the
** mean of (x - mean)^2, each summed in double in row-major order; each
** element (x - mean) / sqrt(var + epsilon), times gamma, plus beta, in
** double and rounded once (float16: to float to odd, then to half) */
Val
ll_norm(G *g, Call *c)
{
	DType dt = c->adt[0];
	Val r = ll_tensorbuf(g, c->ot);
	RefNorm p;
	Loop lo, lk, l[2];
	LLVMValueRef base, sum, var, mean, den, at, x, y, ch, n;

	if (ll_isint(dt)) {
		ll_refuse(g, c->n, "on integer operands it is not supported");
		return r;
	}
	if (!ref_norm_plan(c->m->nodes[c->n].op, ir_attrs(c->m, c->n), c->ad[0], c->ar[0], &p)) {
		ll_refuse(g, c->n, "its operands do not fit it");
		return r;
	}
	n = LLVMConstReal(g->f64, (double)(p.r1 * p.r2));
	sum = ll_entry_alloca(g, g->f64);
	var = ll_entry_alloca(g, g->f64);
	base = ll_mul64(g, ll_loop_open(g, &lo, 0, p.outer, 1), p.r1 * p.r2 * p.k);
	base = ll_add64(g, base, ll_mul64(g, ll_loop_open(g, &lk, 0, p.k, 1), p.r2));
	LLVMBuildStore(g->b, LLVMConstReal(g->f64, 0), sum);
	LLVMBuildStore(g->b, LLVMConstReal(g->f64, 0), var);
	x = ldd(g, c->a[0].p, dt, normgroup(g, &p, base, l));
	LLVMBuildStore(g->b, LLVMBuildFAdd(g->b, LLVMBuildLoad2(g->b, g->f64, sum, ""), x, ""), sum);
	ll_loop_close(g, &l[1]);
	ll_loop_close(g, &l[0]);
	mean = LLVMBuildFDiv(g->b, LLVMBuildLoad2(g->b, g->f64, sum, ""), n, "");
	x = ldd(g, c->a[0].p, dt, normgroup(g, &p, base, l));
	x = LLVMBuildFSub(g->b, x, mean, "");
	LLVMBuildStore(g->b, LLVMBuildFAdd(g->b, LLVMBuildLoad2(g->b, g->f64, var, ""), LLVMBuildFMul(g->b, x, x, ""), ""),
	               var);
	ll_loop_close(g, &l[1]);
	ll_loop_close(g, &l[0]);
	den = LLVMBuildFDiv(g->b, LLVMBuildLoad2(g->b, g->f64, var, ""), n, "");
	den = ll_fcall1(g, "llvm.sqrt", LLVMBuildFAdd(g->b, den, LLVMConstReal(g->f64, p.epsilon), ""), DT_FLOAT64);
	at = normgroup(g, &p, base, l);
	ch = LLVMBuildURem(g->b, LLVMBuildUDiv(g->b, at, ll_c64(g, p.cinner), ""), ll_c64(g, p.channels), "");
	x = ldd(g, c->a[0].p, dt, at);
	y = LLVMBuildFDiv(g->b, LLVMBuildFSub(g->b, x, mean, ""), den, "");
	if (p.scale)
		y = LLVMBuildFMul(g->b, y, ldd(g, c->a[1].p, dt, ch), "");
	if (p.center)
		y = LLVMBuildFAdd(g->b, y, ldd(g, c->a[2].p, dt, ch), "");
	ll_st(g, r.p, dt, at, dt == DT_FLOAT16 ? ll_h_store(g, ll_ho_f64(g, y)) : ll_cvt(g, y, DT_FLOAT64, dt));
	ll_loop_close(g, &l[1]);
	ll_loop_close(g, &l[0]);
	ll_loop_close(g, &lk);
	ll_loop_close(g, &lo);
	return r;
}

/* strided_slice: begin and strides place each axis (ir_slice_index); the
** result type gives its extent, so end is not read */
Val
ll_slice(G *g, Call *c)
{
	const Module *m = c->m;
	int64_t b[MAXD], s[MAXD], ax[MAXD], ast[MAXD];
	int nb = ll_aints(m, c->n, "begin", b, MAXD);
	int ns = ll_aints(m, c->n, "strides", s, MAXD), na = ll_aints(m, c->n, "axes", ax, MAXD);
	int rank = c->ar[0], size = !strcmp(ll_astr(m, c->n, "slice_mode"), "size");
	Val r = ll_tensorbuf(g, c->ot);
	Acc in, out = ll_dense_acc(r.p, c->odt, c->od, c->orank);

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
	ll_strides(c->ad[0], rank, ast);
	in = ll_dense_acc(c->a[0].p, c->adt[0], c->ad[0], rank);
	for (int k = 0; k < na && k < nb && ax[k] >= 0 && ax[k] < rank; k++) {
		int64_t stp = size ? 1 : s[k], n = c->ad[0][ax[k]];
		if (stp == 0)
			stp = 1;
		if (c->od[ax[k]] > 0) {
			in.base += ir_slice_index(b[k], n, stp) * ast[ax[k]];
			in.st[ax[k]] = stp * ast[ax[k]];
		}
	}
	ll_emit_map(g, c->orank, c->od, &out, 1, &in, NULL, NULL);
	return r;
}

/* ll_take, gather: the elements of data that indices name, read as
** ref_index_plan says; an index out of range (take's "fast", gather)
** sets bit 2 of the entry's return value and reads element 0 instead */
Val
ll_take(G *g, Call *c)
{
	RefIndex p;
	Val r = ll_tensorbuf(g, c->ot);
	Loop l[MAXD];
	int64_t ost[MAXD], numel = 1;
	LLVMValueRef ioff = ll_c64(g, 0), doff = ll_c64(g, 0), ooff = ll_c64(g, 0), j, n, bad, e0;

	if (!ref_index_plan(c->m, c->m->nodes[c->n].op, ir_attrs(c->m, c->n), c->ad[0], c->ar[0], c->ad[1],
	                    c->ar[1], &p) || p.rank != c->orank) {
		ll_refuse(g, c->n, "the operands do not fit");
		return r;
	}
	for (int k = 0; k < c->orank; k++)
		numel *= c->od[k];
	if (numel == 0)
		return r;
	if (p.n == 0) {
		ll_refuse(g, c->n, "it takes from an empty axis");
		return r;
	}
	n = ll_c64(g, p.n);
	ll_strides(c->od, c->orank, ost);
	for (int k = 0; k < c->orank; k++) {
		LLVMValueRef iv = ll_loop_open(g, &l[k], 0, c->od[k], 1);
		ioff = ll_add64(g, ioff, ll_mul64(g, iv, p.ist[k]));
		doff = ll_add64(g, doff, ll_mul64(g, iv, p.dst[k]));
		ooff = ll_add64(g, ooff, ll_mul64(g, iv, ost[k]));
	}
	j = ll_ld(g, c->a[1].p, c->adt[1], ioff);
	if (c->adt[1] != DT_INT64)
		j = LLVMBuildSExt(g->b, j, g->i64, "");
	switch (p.mode) {
	case REF_IX_CLIP:
		j = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, j, ll_c64(g, 0), ""), ll_c64(g, 0), j, "");
		j = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntSGT, j, ll_c64(g, p.n - 1), ""), ll_c64(g, p.n - 1), j, "");
		break;
	case REF_IX_WRAP:
		j = LLVMBuildSRem(g->b, LLVMBuildNSWAdd(g->b, LLVMBuildSRem(g->b, j, n, ""), n, ""), n, "");
		break;
	case REF_IX_NEG:
		j = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, j, ll_c64(g, 0), ""), LLVMBuildAdd(g->b, j, n, ""), j, "");
		/* fallthrough */
	default:
		/* unsigned: a negative index is out of range too */
		bad = LLVMBuildICmp(g->b, LLVMIntUGE, j, n, "");
		e0 = LLVMBuildLoad2(g->b, g->i32, g->err, "");
		LLVMBuildStore(g->b, LLVMBuildOr(g->b, e0, LLVMBuildShl(g->b, LLVMBuildZExt(g->b, bad, g->i32, ""), ll_c32(g, 1), ""), ""),
		               g->err);
		j = LLVMBuildSelect(g->b, bad, ll_c64(g, 0), j, "");
		break;
	}
	doff = ll_add64(g, doff, LLVMBuildNSWMul(g->b, j, ll_c64(g, p.astride), ""));
	ll_st(g, r.p, c->odt, ooff, ll_ld(g, c->a[0].p, c->adt[0], doff));
	for (int k = c->orank - 1; k >= 0; k--)
		ll_loop_close(g, &l[k]);
	return r;
}

/* concatenate: operand 0 is a tuple */
Val
ll_concat(G *g, Call *c)
{
	const Module *m = c->m;
	int64_t axis = ll_aint(m, c->n, "axis"), at = 0, ost[MAXD];
	Val t = c->a[0], r = ll_tensorbuf(g, c->ot);
	TypeId tt = c->at[0];

	if (axis < 0)
		axis += c->orank;
	ll_strides(c->od, c->orank, ost);
	for (uint32_t j = 0; j < t.nf; j++) {
		TypeId ft = m->tylist[ir_type(m, tt)->first + j];
		int64_t fd[MAXD];
		int fr = ll_tdims(m, ft, fd);
		Acc in = ll_dense_acc(t.f[j].p, ll_tdt(m, ft), fd, fr), out = ll_dense_acc(r.p, c->odt, c->od, c->orank);
		out.base = at * ost[axis];
		ll_emit_map(g, fr, fd, &out, 1, &in, NULL, NULL);
		at += fd[axis];
	}
	return r;
}

/* ll_qconcat: qnn.concatenate(data, input_scales, input_zero_points,
** output_scale, output_zero_point): each input whose scale and zero point
** are not the output's is requantized to them (per tensor, UPWARD, in its
** own dtype, as ref and TVM's canonicalization do), then concatenated */
Val
ll_qconcat(G *g, Call *c)
{
	const Module *m = c->m;
	Val t = c->a[0], ss = c->a[1], zs = c->a[2], q = t;
	const Type *tt = ir_type(m, c->at[0]);
	double os, oz;
	Call cc = *c;

	if (ll_cnumel(g, c->a[3]) != 1 || ll_cnumel(g, c->a[4]) != 1 || !ll_cnum(g, c->a[3], 0, &os) ||
	    !ll_cnum(g, c->a[4], 0, &oz) || ss.nf != t.nf || zs.nf != t.nf) {
		ll_refuse(g, c->n, "the output scale and zero point must be single constants");
		return ll_tensorbuf(g, c->ot);
	}
	q.f = ir_arena_alloc(&g->a, (t.nf ? t.nf : 1) * sizeof *q.f);
	for (uint32_t j = 0; j < t.nf; j++) {
		TypeId ft = m->tylist[tt->first + j];
		int64_t fd[MAXD];
		int fr = ll_tdims(m, ft, fd);
		double s, z;
		Ew e = { .dt = ll_tdt(m, ft), .odt = ll_tdt(m, ft) };
		RefFixed f;
		int32_t iz, mul, sh, ozi = (int32_t)oz;
		Acc in[5], out;

		if (ll_cnumel(g, ss.f[j]) != 1 || ll_cnumel(g, zs.f[j]) != 1 || !ll_cnum(g, ss.f[j], 0, &s) ||
		    !ll_cnum(g, zs.f[j], 0, &z)) {
			ll_refuse(g, c->n, "the input scales and zero points must be single constants");
			return ll_tensorbuf(g, c->ot);
		}
		if ((float)s == (float)os && z == oz) {
			q.f[j] = t.f[j];
			continue;
		}
		f = ll_fixed((double)(float)s / (double)(float)os);
		iz = (int32_t)z;
		mul = f.mul;
		sh = f.shift;
		e.skip[0] = (float)s == (float)os;
		q.f[j] = ll_tensorbuf(g, ft);
		out = ll_dense_acc(q.f[j].p, e.odt, fd, fr);
		in[0] = ll_dense_acc(t.f[j].p, e.dt, fd, fr);
		in[1] = i32vec(g, &iz, 1, 0, fr);
		in[2] = i32vec(g, &mul, 1, 0, fr);
		in[3] = i32vec(g, &sh, 1, 0, fr);
		in[4] = i32vec(g, &ozi, 1, 0, fr);
		ll_emit_map(g, fr, fd, &out, 5, in, ll_ew_requantize, &e);
	}
	cc.a[0] = q;
	return ll_concat(g, &cc);
}

/* ll_split: a tuple of slices along axis */
Val
ll_split(G *g, Call *c)
{
	const Module *m = c->m;
	const Type *tt = ir_type(m, c->ot);
	int64_t axis = ll_aint(m, c->n, "axis"), at = 0, ist[MAXD];
	Val r = { 0 };

	if (axis < 0)
		axis += c->ar[0];
	ll_strides(c->ad[0], c->ar[0], ist);
	r.nf = tt->n;
	r.f = ir_arena_alloc(&g->a, tt->n * sizeof *r.f);
	for (uint32_t j = 0; j < tt->n; j++) {
		TypeId ft = m->tylist[tt->first + j];
		int64_t fd[MAXD];
		int fr = ll_tdims(m, ft, fd);
		Acc in = ll_dense_acc(c->a[0].p, c->adt[0], c->ad[0], c->ar[0]), out;
		r.f[j] = ll_tensorbuf(g, ft);
		out = ll_dense_acc(r.f[j].p, ll_tdt(m, ft), fd, fr);
		in.base = at * ist[axis];
		ll_emit_map(g, fr, fd, &out, 1, &in, NULL, NULL);
		at += fd[axis];
	}
	return r;
}

/* ll_pad: nn.pad(data, pad_value) in constant, edge or reflect mode, one
** gather loop: per dim, the source index is clamped or reflected, or the
** element is the pad value */
Val
ll_pad(G *g, Call *c)
{
	const Module *m = c->m;
	const AttrVal *pw = ll_attr(m, c->n, "pad_width");
	const char *mode = ll_astr(m, c->n, "pad_mode");
	int md = !strcmp(mode, "constant") ? 0 : !strcmp(mode, "edge") ? 1 : !strcmp(mode, "reflect") ? 2 : -1;
	int64_t before[MAXD] = { 0 }, ist[MAXD], ost[MAXD];
	Val r = ll_tensorbuf(g, c->ot);
	Loop l[MAXD];
	LLVMValueRef in = LLVMConstInt(g->i1, 1, 0), off = ll_c64(g, 0), ooff = ll_c64(g, 0), v, fill;
	int rank = c->orank;

	if (md < 0 || !pw || pw->kind != AV_ARRAY) {
		ll_refuse(g, c->n, "unknown pad mode");
		return r;
	}
	for (int k = 0; k < rank && (uint32_t)k < pw->n; k++) {
		const AttrVal *p = &m->attrs[pw->first + (uint32_t)k];
		if (p->kind == AV_ARRAY && p->n == 2)
			before[k] = m->attrs[p->first].u.i;
	}
	if (ir_type_numel(m, c->ot) == 0)
		return r;
	ll_strides(c->ad[0], rank, ist);
	ll_strides(c->od, rank, ost);
	fill = ll_h_cvt(g, ll_ld(g, c->a[1].p, c->adt[1], ll_c64(g, 0)), c->adt[1], c->odt);
	for (int k = 0; k < rank; k++) {
		LLVMValueRef iv = ll_loop_open(g, &l[k], 0, c->od[k], 1), s;
		int64_t n = c->ad[0][k];
		ooff = ll_add64(g, ooff, ll_mul64(g, iv, ost[k]));
		s = LLVMBuildNSWSub(g->b, iv, ll_c64(g, before[k]), "");
		if (md == 0) {
			LLVMValueRef ok = LLVMBuildAnd(g->b, LLVMBuildICmp(g->b, LLVMIntSGE, s, ll_c64(g, 0), ""),
			                               LLVMBuildICmp(g->b, LLVMIntSLT, s, ll_c64(g, n), ""), "");
			in = LLVMBuildAnd(g->b, in, ok, "");
			s = LLVMBuildSelect(g->b, ok, s, ll_c64(g, 0), "");
		} else if (md == 1) {
			s = ll_iminmax(g, ll_iminmax(g, s, ll_c64(g, 0), 1, 1), ll_c64(g, n - 1), 1, 0);
		} else {
			LLVMValueRef neg = LLVMBuildICmp(g->b, LLVMIntSLT, s, ll_c64(g, 0), "");
			s = LLVMBuildSelect(g->b, neg, LLVMBuildNSWNeg(g->b, s, ""), s, "");
			s = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntSGE, s, ll_c64(g, n), ""),
			                    LLVMBuildNSWSub(g->b, ll_c64(g, 2 * (n - 1)), s, ""), s, "");
		}
		off = ll_add64(g, off, ll_mul64(g, s, ist[k]));
	}
	v = ll_ld(g, c->a[0].p, c->adt[0], off);
	ll_st(g, r.p, c->odt, ooff, md ? v : LLVMBuildSelect(g->b, in, v, fill, ""));
	for (int k = rank - 1; k >= 0; k--)
		ll_loop_close(g, &l[k]);
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
		return ll_cvt(g, v, from, to);
	return ll_h_store(g, from == DT_FLOAT64 ? ll_ho_f64(g, v) : ll_cvt(g, v, from, DT_FLOAT32));
}

/* ll_resize: image.resize2d through the taps of ref_resize_taps() (ref.h),
** held in constant tables: per output row and column, the input offsets
** of its taps (index times stride) and their float32 weights.  Nearest
** converts its one tap as cast does; linear and cubic read each tap as
** float32, sum each row's taps along W, then the rows by H's weights,
** in the reference's order (cubic from +0), and cast the sum */
Val
ll_resize(G *g, Call *c)
{
	RefResize p;
	const char *bad = ref_resize_mode(c->m, ir_attrs(c->m, c->n), &p);
	DType dt = c->adt[0];
	Val r = ll_tensorbuf(g, c->ot);
	int64_t xst[4], ost[4], xn = 1, on = 1;
	LLVMValueRef koff[2], kw[2], iv[4], base = ll_c64(g, 0), ooff = ll_c64(g, 0), oy[4], ox[4], wy[4], wx[4], v = NULL;
	Loop l[4];
	char why[160];

	if (bad) {
		snprintf(why, sizeof why, "%s \"%s\" is not supported", bad, ll_astr(c->m, c->n, bad));
		ll_refuse(g, c->n, why);
		return r;
	}
	if (p.method != REF_RS_NEAREST && ll_isint(dt)) {
		ll_refuse(g, c->n, "only nearest_neighbor resizes integers");
		return r;
	}
	for (int k = 0; k < 4; k++) {
		xn *= c->ad[0][k];
		on *= c->od[k];
	}
	if (!on)
		return r;
	if (!xn) {
		ll_refuse(g, c->n, "an empty image cannot be resized");
		return r;
	}
	ll_strides(c->ad[0], 4, xst);
	ll_strides(c->od, 4, ost);
	for (int a = 0; a < 2; a++) {
		int ax = p.pos[2 + a];
		int64_t cnt = c->od[ax] * p.taps, *off = ir_xmalloc((size_t)cnt * sizeof *off);
		float *w = ir_xmalloc((size_t)cnt * sizeof *w);
		ref_resize_taps(&p, c->ad[0][ax], c->od[ax], off, w);
		for (int64_t k = 0; k < cnt; k++)
			off[k] *= xst[ax];
		koff[a] = ll_constbuf(g, off, (size_t)cnt * sizeof *off);
		kw[a] = p.method == REF_RS_NEAREST ? NULL : ll_constbuf(g, w, (size_t)cnt * sizeof *w);
		free(off);
		free(w);
	}
	for (int k = 0; k < 4; k++) {
		iv[k] = ll_loop_open(g, &l[k], 0, c->od[k], 1);
		ooff = ll_add64(g, ooff, ll_mul64(g, iv[k], ost[k]));
	}
	base = ll_add64(g, ll_mul64(g, iv[p.pos[0]], xst[p.pos[0]]), ll_mul64(g, iv[p.pos[1]], xst[p.pos[1]]));
	for (int t = 0; t < p.taps; t++) {
		LLVMValueRef ty = ll_add64(g, ll_mul64(g, iv[p.pos[2]], p.taps), ll_c64(g, t));
		LLVMValueRef tx = ll_add64(g, ll_mul64(g, iv[p.pos[3]], p.taps), ll_c64(g, t));
		oy[t] = ll_add64(g, base, ll_ld(g, koff[0], DT_INT64, ty));
		ox[t] = ll_ld(g, koff[1], DT_INT64, tx);
		if (kw[0]) {
			wy[t] = ll_ld(g, kw[0], DT_FLOAT32, ty);
			wx[t] = ll_ld(g, kw[1], DT_FLOAT32, tx);
		}
	}
	if (p.method == REF_RS_NEAREST) {
		v = ll_ld(g, c->a[0].p, dt, ll_add64(g, oy[0], ox[0]));
		ll_st(g, r.p, c->odt, ooff, castto(g, dt == DT_FLOAT16 ? ll_h_load(g, v) : v, dt, c->odt));
	} else {
		LLVMValueRef zero = LLVMConstReal(g->f32, 0.0), row[4];
		for (int j = 0; j < p.taps; j++) {
			row[j] = p.method == REF_RS_CUBIC ? zero : NULL;
			for (int i = 0; i < p.taps; i++) {
				LLVMValueRef e = ll_ld(g, c->a[0].p, dt, ll_add64(g, oy[j], ox[i]));
				e = dt == DT_FLOAT16 ? ll_h_load(g, e) : ll_cvt(g, e, dt, DT_FLOAT32);
				e = LLVMBuildFMul(g->b, e, wx[i], "");
				row[j] = row[j] ? LLVMBuildFAdd(g->b, row[j], e, "") : e;
			}
			row[j] = LLVMBuildFMul(g->b, row[j], wy[j], "");
			v = j || p.method == REF_RS_CUBIC ? LLVMBuildFAdd(g->b, v ? v : zero, row[j], "") : row[j];
		}
		ll_st(g, r.p, c->odt, ooff, castto(g, v, DT_FLOAT32, c->odt));
	}
	for (int k = 3; k >= 0; k--)
		ll_loop_close(g, &l[k]);
	return r;
}

/* ll_bias_add: an add of a vector along axis */
Val
ll_bias_add(G *g, Call *c)
{
	Ew e = { .op = OP_ADD, .dt = ll_cdt(c->odt), .sd = ir_scalar_of(NULL, OP_ADD, 0) };
	int64_t ax = ll_aint(c->m, c->n, "axis");
	Val r = ll_tensorbuf(g, c->ot);
	Acc in[2], out = ll_dense_acc(r.p, c->odt, c->od, c->orank);

	if (ax < 0)
		ax += c->orank;
	in[0] = ll_dense_acc(c->a[0].p, c->adt[0], c->ad[0], c->ar[0]);
	in[1] = ll_along(c->a[1], c->adt[1], c->ad[1][0], (int)ax, c->orank);
	ll_emit_map(g, c->orank, c->od, &out, 2, in, ll_ew_scalar, &e);
	return r;
}
