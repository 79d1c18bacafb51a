/*
** ops.c: the kernels of the reference interpreter, one per op of
** ir/ops.def, on dense row-major little-endian tensors read byte by byte
** (neither alignment nor the host's byte order matters).
**
** Two modes (RefCtx.exact).  The EXACT mode is graft's fold_const: it
** computes only what TVM defines bit for bit and refuses the rest; the RUN
** mode computes everything and reports run-time errors.  Exactly means
** bit for bit what TVM computes when it runs the Relay op on a CPU
** through LLVM (as Relay's FoldConstant does).  The rules, from TVM's
** sources (apache/tvm, the Relay releases):
**
**   qnn.quantize   src/relay/qnn/op/quantize.cc, QuantizeLower:
**                  cast(clip(round(data / scale) + cast<float32>(zp),
**                  qmin, qmax), out_dtype), all in float32, dividing (not
**                  multiplying by 1/scale); per channel, scale and zero
**                  point are expanded along axis (negative axis + rank).
**                  round is relay `round` -> topi::round -> tir.round, which
**                  src/target/llvm/intrin_rule_llvm.cc lowers to
**                  llvm.round: halves round AWAY FROM ZERO (C's roundf),
**                  not to even.  (tir.round went to llvm.nearbyint only in
**                  2026, apache/tvm#19368, in a tree without Relay; see
**                  apache/tvm#18590.)  PyTorch and ONNX's QuantizeLinear
**                  round halves to even (and PyTorch multiplies by
**                  1/scale), so they differ on ties: tests/data/
**                  fold_vectors.py.  graft's rounding="HALF_TO_EVEN"
**                  (the ONNX importer's) rounds halves to even and adds
**                  the zero point to the rounded integer, saturating, as
**                  QuantizeLinear says.  Run mode: NaN goes to qmax (the
**                  clip's selects).
**   qnn.dequantize src/relay/qnn/op/dequantize.cc: cast<float32>(
**                  cast<int32>(data) - zp) * scale; for float16, clip to
**                  [-65504, 65504] first.
**   qnn.requantize src/relay/qnn/op/requantize.cc (RequantizeLowerInt),
**                  requantize_config.h, src/relay/qnn/utils.cc and the
**                  tir.q_multiply_shift legalization in
**                  src/target/intrin_rule.cc: data - zp in int32; the
**                  double ratio input_scale / output_scale becomes a Q31
**                  multiplier and a shift (frexp, round, 2^31 -> 2^30 with
**                  shift + 1); in int64, x << left shift, times the
**                  multiplier, plus 2^(right shift + 30) (minus 1 for
**                  negative products under TONEAREST), arithmetic shift
**                  right by right shift + 31, truncated to int32; plus the
**                  output zero point in int32; clip and cast unless
**                  out_dtype is int32.  Equal scales skip the multiply.
**                  Newer TVMs lower a per-tensor UPWARD multiplier of
**                  2^30 (a power of two) to an int32 shift instead: same
**                  values, but where its int32 add or shift would
**                  overflow, exact mode refuses and run mode wraps in
**                  int32 as that code does.  rounding "None" is UPWARD.
**                  compute_dtype "None" is computed as "int64": TVM itself
**                  picks float32 there on LLVM targets with SSE4.1, whose
**                  rounding helpers depend on the target, which is why
**                  "float32" and "float64" with TVM's roundings are
**                  refused (both modes).
**                  graft's rounding="HALF_TO_EVEN" (only with
**                  compute_dtype="float32") is PyTorch's QNNPACK
**                  requantization (generate_requantization_scales and the
**                  q8gemm/q8conv kernels' epilogue), all in IEEE float32
**                  rounding to nearest even: per channel c the multiplier
**                  m = fl(input_scale[c] * fl(1 / output_scale)); then
**                  v = x - input_zp[c] in int32, p = fl(fl(v) * m),
**                  y = saturate(roundeven(p) + output_zp) to out_dtype
**                  (int32 too), never skipped for equal scales.  Exactly
**                  defined, so exact mode evaluates it (refusing only
**                  where v overflows int32, as above).
**   qnn.add        src/relay/qnn/op/add.cc: each operand whose scale and
**                  zero point are not those of the output is requantized
**                  to them (UPWARD, to int32, along its lhs_axis/rhs_axis),
**                  else cast to int32; the sum minus the output zero point
**                  (int32), clipped to the input dtype.
**   qnn.mul        src/relay/qnn/op/mul.cc: (lhs - lhs_zp) * (rhs - rhs_zp)
**                  in int32, requantized from the float32 product of the
**                  two scales, zero point 0, to the output parameters.
**   qnn.concatenate src/relay/qnn/op/concatenate.cc: each input whose
**                  parameters differ from the output's is requantized to
**                  them (UPWARD, to the input dtype), then concatenated.
**   qnn.sigmoid, qnn.tanh  dequantize -> float32 op -> quantize to the
**                  input dtype (the canonicalization of
**                  src/relay/qnn/op/unary_elementwise_op.h; TVM's lookup
**                  tables are made by the same computation).
**   qnn.conv2d, qnn.dense, qnn.conv2d_transpose  src/relay/qnn/op/
**                  convolution.cc, dense.cc: the nn op on (data - input_zp)
**                  and (weight - kernel_zp) accumulated in out_dtype
**                  (int32 by default, wrapping); padding is by the input
**                  zero point, so padded taps add nothing; a per-channel
**                  kernel zero point runs along the output channels.
**   arithmetic     src/target/llvm/codegen_llvm.cc: add, subtract and
**                  multiply wrap below 32 bits, and are nsw/nuw (overflow
**                  undefined: exact mode refuses, run mode wraps) on
**                  int32, uint32 and int64; divide is topi `div`, sdiv/
**                  udiv: truncating, undefined for x / 0 and MIN / -1 (run
**                  mode: an error); floats are IEEE (float16 rounded after
**                  each op).
**   mod, floor_mod include/tvm/topi/broadcast.h: mod is truncmod (srem/
**                  urem: the sign of the dividend; floats frem, C's fmod,
**                  exact); floor_mod of integers is floormod (the sign of
**                  the divisor, src/tir/transforms/lower_intrin.cc), of
**                  floats a - floor(a / b) * b, each step rounded to the
**                  dtype in run mode.  That is not numpy.mod: floor_mod(1,
**                  inf) is 1 - 0 * inf = NaN, numpy's 1; and TVM's LLVM
**                  may contract the multiply and subtract into an fma
**                  (llvm_instance.cc allows FP op fusion), a result of the
**                  target: exact mode refuses float floor_mod.  An integer
**                  divisor of 0 is undefined (run mode: an error, as
**                  divide); MIN % -1 overflows srem (exact mode refuses;
**                  run mode gives 0, numpy's).
**   cast           codegen_llvm.cc CreateCast: int -> int keeps the low
**                  bits; to bool is != 0; int -> float rounds to nearest;
**                  float -> int truncates, undefined (poison) when out of
**                  range or NaN: exact mode refuses, run mode SATURATES
**                  to the dtype's range with NaN -> 0 (LLVM's
**                  llvm.fptosi.sat; any value refines poison).
**   clip           python/tvm/topi/math.py: max(min(x, a_max), a_min) with
**                  the bounds made by tir.const in x's dtype: for integers
**                  truncated toward zero (MakeConstScalar in
**                  include/tvm/tir/op.h); min/max are selects on ordered
**                  compares.  Run mode saturates a bound that does not fit.
**   nn.relu        include/tvm/topi/nn.h: max(x, 0), so relu(-0.0) = +0.0.
**   nn.leaky_relu  topi: select(x > 0, x, x * alpha), alpha a constant of
**                  x's dtype (truncated for integers).
**   nn.pad         src/relay/op/nn/pad.cc: the pad value is cast to the
**                  data's dtype as by `cast`; topi::pad's constant, edge
**                  and reflect modes (reflect does not repeat the edge).
**   pools          include/tvm/topi/nn/pooling.h: max pads with the
**                  dtype's lowest value (-inf); avg sums the window in the
**                  data's dtype (integers wrap) and divides (integers:
**                  truncating) by the taps inside the padded input
**                  without the ceil_mode extension (count_include_pad) or
**                  inside the data, at least 1.  global_avg_pool2d and
**                  mean likewise divide the sum by the count.
**   data movement  reshape, squeeze, expand_dims, batch_flatten, broadcast_to,
**                  transpose, strided_slice, concatenate, split +
**                  tuple_get_item, depth_to_space (DCR, CDR), nn.bias_add
**                  (an add along axis) and the annotations.
**   take, gather   include/tvm/topi/transform.h take and gather, TakeRel
**                  and GatherRel in src/relay/op/tensor/transform.cc:
**                  take's "clip" clamps an index to [0, n - 1] (so -1
**                  gives 0), "wrap" is truncmod(truncmod(i, n) + n, n)
**                  (-1 gives n - 1, ONNX's Gather), "fast" reads i as it
**                  is, which TVM leaves undefined out of [0, n): here an
**                  error at run time (exact mode refuses).  gather is
**                  numpy's take_along_axis (ONNX's GatherElements); TVM
**                  reads a negative index out of bounds, here it counts
**                  from the end, and one still out of range is an error.
**
**   bitwise_and, bitwise_or, bitwise_xor, bitwise_not, left_shift,
**                  right_shift  include/tvm/topi/broadcast.h and
**                  elemwise.h: tir's &, |, ^, ~, << and >> (shl; ashr for
**                  signed, lshr for unsigned dtypes, as codegen_llvm.cc);
**                  the left shift drops the bits above the dtype.  An
**                  amount negative or not below the bit width is poison in
**                  LLVM (undefined in C): exact mode refuses it, run mode
**                  gives 0, or -1 for a negative value shifted right (all
**                  the bits shifted out, as numpy's right_shift of a
**                  signed value by an amount that large).  bitwise_not of
**                  bool is logical not.
**
**   cumsum, cumprod  python/tvm/topi/scan.py (ScanopRel in
**                  src/relay/op/tensor/transform.cc): each element cast to
**                  dtype, then accumulated in order along the axis (axis
**                  None: the flattened data); exclusive starts from 0 (1).
**                  Integer steps are TVM's add and multiply (nsw from 32
**                  bits: exact mode refuses an overflow, run mode wraps);
**                  floats only in run mode, as sum.
**
**   isnan, isinf, isfinite  topi's isnan/isinf/isfinite: bool; false,
**                  false, true on integers.
**
** Run mode only (exact mode refuses them, as their float results depend
** on the math library or on the order of a reduction): the trigonometric
** and hyperbolic functions and their inverses (cos, sin, tan, acos, asin,
** atan, cosh, sinh, acosh, asinh, atanh: the C library's, as TVM's
** lowering calls them), exp, sigmoid
** (1 / (1 + exp(-x))), tanh, rsqrt (1 / sqrt(x)), softmax (exp(x - max)
** / sum), the float convolutions, dense, batch_matmul, pools and mean,
** nn.layer_norm, nn.group_norm and nn.instance_norm (SimplifyInference in
** src/relay/transforms/simplify_inference.cc: the mean, the variance as
** the mean of (x - mean)^2, (x - mean) / sqrt(var + epsilon) * gamma +
** beta; here all in double and rounded once, grouped as RefNorm says),
** image.resize2d (topi's image/resize.py: nearest_neighbor with its
** rounding methods, linear, cubic with cubic_alpha and cubic_exclude; the
** coordinate is computed in float32, taps clamped to the edge, the float32
** result cast to out_dtype), and the
** quantized ops built on them.  Float reductions
** accumulate from +0 in one fixed order, each step rounded to the
** dtype: convolutions over input channel, then kernel row, then kernel
** column; dense and batch_matmul over k; pools over window row then
** column; mean and softmax in row-major order of the reduced elements.
** float32 math uses the C library's float functions (expf, tanhf, sqrtf).
**
** float32 arithmetic is done in double and rounded once: for + - * / that
** is exactly IEEE float32 (double carries more than 2 * 24 + 2 bits), and
** likewise for float16.
*/
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <string.h>

#include "refi.h"

#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD < 0 || FLT_EVAL_METHOD > 1
#error "ops.c needs double arithmetic evaluated in double (FLT_EVAL_METHOD 0 or 1)"
#endif

#define MAXD IR_MAXDIMS

typedef RefVal Val;
typedef const RefVal *const *Args;

/* ---------------------------------------------------------------- values */

/* ref_valloc: gives tensor v fresh data of v->n elements, held once (ref.h) */
void
ref_valloc(Val *v)
{
	size_t size = (size_t)v->n * ir_dtype_bytes[v->dt];
	int64_t *h = ir_xmalloc(sizeof(int64_t) * 2 + (size ? size : 1));

	h[0] = 1;
	v->rc = h;
	v->data = (unsigned char *)(h + 2);
}

/* ref_vdrop: releases v's holds, fields included; v is left empty */
void
ref_vdrop(Val *v)
{
	if (v->kind == RV_TUPLE) {
		for (uint32_t i = 0; i < v->nf; i++)
			ref_vdrop(&v->f[i]);
		free(v->f);
	} else if (v->rc && --*v->rc == 0) {
		free(v->rc);
	}
	memset(v, 0, sizeof *v);
}

/* ref_vcopy: dst is src with one more hold on its data (tuples: on each field) */
void
ref_vcopy(Val *dst, const Val *src)
{
	*dst = *src;
	if (src->kind == RV_TUPLE) {
		dst->f = ir_xmalloc((src->nf ? src->nf : 1) * sizeof *dst->f);
		for (uint32_t i = 0; i < src->nf; i++)
			ref_vcopy(&dst->f[i], &src->f[i]);
	} else if (src->rc) {
		++*src->rc;
	}
}

/* ref_vshape: v is an empty tensor of tensor type t (ref.h) */
int
ref_vshape(const Module *m, TypeId t, Val *v)
{
	const Type *ty;
	int64_t n = 1;

	memset(v, 0, sizeof *v);
	if (!t || (ty = ir_type(m, t))->kind != TY_TENSOR || ty->n > MAXD ||
	    ty->dtype == DT_VOID || ty->dtype >= DT_COUNT)
		return 0;
	v->kind = RV_TENSOR;
	v->dt = ty->dtype;
	v->rank = (uint16_t)ty->n;
	for (int k = 0; k < v->rank; k++) {
		int64_t d = ir_type_dims(m, t)[k];
		if (d < 0 || (d > 0 && n > (int64_t)(SIZE_MAX / 8) / d))
			return 0;
		v->dims[k] = d;
		n *= d;
	}
	v->n = n;
	return 1;
}

/* inner: the element count of the axes after axis */
static int64_t
inner(const Val *v, int axis)
{
	int64_t s = 1;

	for (int k = axis + 1; k < v->rank; k++)
		s *= v->dims[k];
	return s;
}

/* outer: the element count of the axes before axis */
static int64_t
outer(const Val *v, int axis)
{
	int64_t s = 1;

	for (int k = 0; k < axis; k++)
		s *= v->dims[k];
	return s;
}

/* step: advances the row-major multi-index idx over dims by one element,
** moving each of the n offsets by its strides st[j] */
static void
step(int rank, const int64_t *dims, int64_t *idx, int n, int64_t *off, int64_t st[][MAXD])
{
	for (int k = rank - 1; k >= 0; k--) {
		for (int j = 0; j < n; j++)
			off[j] += st[j][k];
		if (++idx[k] < dims[k])
			return;
		for (int j = 0; j < n; j++)
			off[j] -= st[j][k] * dims[k];
		idx[k] = 0;
	}
}

/* ---------------------------------------------------------------- elements */

/* ldraw: the nb little-endian bytes at p */
static uint64_t
ldraw(const unsigned char *p, int nb)
{
	uint64_t u = 0;

	for (int k = nb - 1; k >= 0; k--)
		u = u << 8 | p[k];
	return u;
}

/* straw: stores the low nb bytes of u at p, little-endian */
static void
straw(unsigned char *p, int nb, uint64_t u)
{
	for (int k = 0; k < nb; k++, u >>= 8)
		p[k] = (unsigned char)(u & 0xff);
}

/* isint: whether dt is an integer dtype (bool excluded) */
static int
isint(int dt)
{
	return ir_dtype_kind[dt] == 'i' || ir_dtype_kind[dt] == 'u';
}

/* isflt: whether dt is a float dtype */
static int
isflt(int dt)
{
	return ir_dtype_kind[dt] == 'f';
}

/* ldi: element i of integer or bool tensor v */
static int64_t
ldi(const Val *v, int64_t i)
{
	int nb = ir_dtype_bytes[v->dt];
	uint64_t u = ldraw(v->data + (size_t)i * (size_t)nb, nb);

	if (v->dt == DT_BOOL)
		return u != 0;
	if (ir_dtype_kind[v->dt] == 'i' && nb < 8 && (u >> (nb * 8 - 1)) & 1)
		u |= ~(uint64_t)0 << (nb * 8);
	return (int64_t)u;
}

/* ldf: element i of float tensor v */
static double
ldf(const Val *v, int64_t i)
{
	int nb = ir_dtype_bytes[v->dt];
	uint64_t u = ldraw(v->data + (size_t)i * (size_t)nb, nb);

	if (v->dt == DT_FLOAT16)
		return ir_f32_from_f16((uint16_t)u);
	if (v->dt == DT_FLOAT32) {
		uint32_t w = (uint32_t)u;
		float f;
		memcpy(&f, &w, 4);
		return f;
	}
	{
		double d;
		memcpy(&d, &u, 8);
		return d;
	}
}

/* ldd: element i of any tensor as a double (integers converted) */
static double
ldd(const Val *v, int64_t i)
{
	return isflt(v->dt) ? ldf(v, i) : (double)ldi(v, i);
}

/* sti: stores the low bits of x into element i (bool: x != 0) */
static void
sti(Val *v, int64_t i, int64_t x)
{
	int nb = ir_dtype_bytes[v->dt];

	straw(v->data + (size_t)i * (size_t)nb, nb, v->dt == DT_BOOL ? x != 0 : (uint64_t)x);
}

/* f16: d rounded to the nearest half (ties to even), by way of a float
** rounded to odd, which rounds again without error; a NaN is 0x7e00 */
static uint16_t
f16(double d)
{
	float f;

	if (isnan(d))
		return 0x7e00;
	if (fabs(d) >= 65520.0)
		return d < 0 ? 0xfc00 : 0x7c00;
	f = (float)d;
	if ((double)f != d) {
		uint32_t u;
		if (fabs((double)f) > fabs(d))
			f = nextafterf(f, 0.0f);
		memcpy(&u, &f, 4);
		u |= 1;
		memcpy(&f, &u, 4);
	}
	return ir_f16_from_f32(f);
}

/* ref_f16: see ref.h */
uint16_t
ref_f16(double d)
{
	return f16(d);
}

/* stf: stores x, rounded to v's float dtype, into element i */
static void
stf(Val *v, int64_t i, double x)
{
	int nb = ir_dtype_bytes[v->dt];
	unsigned char *p = v->data + (size_t)i * (size_t)nb;

	if (v->dt == DT_FLOAT16) {
		straw(p, 2, f16(x));
	} else if (v->dt == DT_FLOAT32) {
		float f = (float)x;
		uint32_t w;
		memcpy(&w, &f, 4);
		straw(p, 4, w);
	} else {
		uint64_t u;
		memcpy(&u, &x, 8);
		straw(p, 8, u);
	}
}

/* rnd: x rounded to float dtype dt */
static double
rnd(int dt, double x)
{
	if (dt == DT_FLOAT16)
		return ir_f32_from_f16(f16(x));
	if (dt == DT_FLOAT32)
		return (float)x;
	return x;
}

/* wrap: x reduced to dtype dt's bits, sign-extended for signed dtypes */
static int64_t
wrap(int dt, int64_t x)
{
	int bits = ir_dtype_bytes[dt] * 8;
	uint64_t u = (uint64_t)x;

	if (bits >= 64)
		return x;
	u &= ((uint64_t)1 << bits) - 1;
	if (ir_dtype_kind[dt] == 'i' && (u >> (bits - 1)) & 1)
		u |= ~(uint64_t)0 << bits;
	return (int64_t)u;
}

/* wrap32: x truncated to int32, as LLVM's trunc does */
static int32_t
wrap32(int64_t x)
{
	return (int32_t)wrap(DT_INT32, x);
}

/* sat: x clamped to integer dtype dt */
static int64_t
sat(int dt, int64_t x)
{
	return x < ir_dtype_min(dt) ? ir_dtype_min(dt) : x > ir_dtype_max(dt) ? ir_dtype_max(dt) : x;
}

/* ---------------------------------------------------------------- integer arithmetic */

/* addov: *r = a + b in int64; 0 on overflow */
static int
addov(int64_t a, int64_t b, int64_t *r)
{
	if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b))
		return 0;
	*r = a + b;
	return 1;
}

/* mulov: *r = a * b in int64; 0 on overflow */
static int
mulov(int64_t a, int64_t b, int64_t *r)
{
	if (a != 0 && b != 0) {
		if (a > 0 ? (b > 0 ? a > INT64_MAX / b : b < INT64_MIN / a)
		          : (b > 0 ? a < INT64_MIN / b : b < INT64_MAX / a))
			return 0;
	}
	*r = a * b;
	return 1;
}

/* wmul, wadd: a * b, a + b wrapping in 64 bits */
static int64_t
wmul(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a * (uint64_t)b);
}

/* wadd: a + b wrapping in 64 bits */
static int64_t
wadd(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a + (uint64_t)b);
}

/* ---------------------------------------------------------------- failing */

/* fail: in run mode, reports fmt at o's location; returns 1 */
static int
fail(RefCtx *c, const RefOp *o, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	if (c->exact || !c->d)
		return 1;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	ir_error(c->d, o->loc, "%s: %s", ir_ops[o->op].name, buf);
	return 1;
}

/* ---------------------------------------------------------------- attributes */

/* attr: the attribute called name of o, NULL if its op has none */
static const AttrVal *
attr(const RefCtx *c, const RefOp *o, const char *name)
{
	int k = ir_op_attr_index(o->op, name, strlen(name));

	if (k < 0 || !o->attrs)
		return NULL;
	return &c->m->attrs[o->attrs + (uint32_t)k];
}

/* aint: the int or bool attribute name; dflt if absent */
static int64_t
aint(const RefCtx *c, const RefOp *o, const char *name, int64_t dflt)
{
	const AttrVal *v = attr(c, o, name);

	return v && (v->kind == AV_INT || v->kind == AV_BOOL) ? v->u.i : dflt;
}

/* aflt: the float attribute name (an int is taken as a float); dflt if absent */
static double
aflt(const RefCtx *c, const RefOp *o, const char *name, double dflt)
{
	const AttrVal *v = attr(c, o, name);

	return v && v->kind == AV_FLOAT ? v->u.f : v && v->kind == AV_INT ? (double)v->u.i : dflt;
}

/* ints: the integer list attribute into out[0..max); the count, -1 for
** None or a missing or malformed attribute */
static int
ints(const RefCtx *c, const RefOp *o, const char *name, int64_t *out, int max)
{
	const AttrVal *v = attr(c, o, name);

	if (!v || v->kind != AV_ARRAY || v->n > (uint32_t)max)
		return -1;
	for (uint32_t k = 0; k < v->n; k++) {
		const AttrVal *x = &c->m->attrs[v->first + k];
		if (x->kind != AV_INT)
			return -1;
		out[k] = x->u.i;
	}
	return (int)v->n;
}

/* astr: the string attribute ("" for None or absent) */
static const char *
astr(const RefCtx *c, const RefOp *o, const char *name)
{
	const AttrVal *v = attr(c, o, name);

	return v && v->kind == AV_STR ? ir_symstr(c->m, v->u.s) : "";
}

/* normaxis: axis counted from the end if negative; whether in [0, rank) */
static int
normaxis(int64_t *axis, int rank)
{
	if (*axis < 0)
		*axis += rank;
	return *axis >= 0 && *axis < rank;
}

/* pad4: a 2-d padding attribute as top, left, bottom, right */
static void
pad4(const RefCtx *c, const RefOp *o, int64_t p[4])
{
	int64_t v[MAXD];
	int n = ints(c, o, "padding", v, MAXD);

	if (n == 1)
		p[0] = p[1] = p[2] = p[3] = v[0];
	else if (n == 2)
		p[0] = p[2] = v[0], p[1] = p[3] = v[1];
	else if (n == 4)
		memcpy(p, v, 4 * sizeof *p);
	else
		p[0] = p[1] = p[2] = p[3] = 0;
}

/* pair: a 2-value attribute, dflt if absent */
static void
pair(const RefCtx *c, const RefOp *o, const char *name, int64_t p[2], int64_t dflt)
{
	if (ints(c, o, name, p, 2) != 2)
		p[0] = p[1] = dflt;
}

/* ---------------------------------------------------------------- elementwise */

/* ibits: a op b for the bitwise ops and shifts on integers of dtype dt,
** before truncation to dt; 0 where undefined (exact mode) */
static int
ibits(OpId op, int dt, int64_t a, int64_t b, int exact, int64_t *r)
{
	int bits = ir_dtype_bytes[dt] * 8;

	if (op == OP_BITWISE_AND || op == OP_BITWISE_OR || op == OP_BITWISE_XOR) {
		*r = op == OP_BITWISE_AND ? a & b : op == OP_BITWISE_OR ? a | b : a ^ b;
		return 1;
	}
	/* an amount outside [0, bits) is poison in LLVM: exact mode refuses;
	   run mode gives 0, or the sign of a signed right shift */
	if (b < 0 || b >= bits) {
		*r = op == OP_RIGHT_SHIFT && a < 0 ? -1 : 0;
		return !exact;
	}
	*r = op == OP_LEFT_SHIFT ? (int64_t)((uint64_t)a << b) : a < 0 ? ~(~a >> b) : a >> b;
	return 1;
}

/* bitwise: bitwise_and, bitwise_or, bitwise_xor (bool too), left_shift
** and right_shift with numpy broadcasting */
static int
bitwise(RefCtx *c, const RefOp *o, Args a, Val *r)
{
	int64_t st[2][MAXD], idx[MAXD] = { 0 }, off[2] = { 0, 0 };
	int dt = r->dt;

	if (a[0]->dt != dt || a[1]->dt != dt || isflt(dt) ||
	    (dt == DT_BOOL && (o->op == OP_LEFT_SHIFT || o->op == OP_RIGHT_SHIFT)) ||
	    !ref_bcast_strides(a[0]->dims, a[0]->rank, r->dims, r->rank, st[0]) ||
	    !ref_bcast_strides(a[1]->dims, a[1]->rank, r->dims, r->rank, st[1]))
		return fail(c, o, "operands do not broadcast");
	ref_valloc(r);
	for (int64_t i = 0; i < r->n; i++) {
		int64_t x;
		if (!ibits(o->op, dt, ldi(a[0], off[0]), ldi(a[1], off[1]), c->exact, &x))
			return 1;
		sti(r, i, x);
		step(r->rank, r->dims, idx, 2, off, st);
	}
	return 0;
}

static int sxint(int ints, int dt, int64_t a, int64_t b, const int64_t *bnd, int exact, int64_t *r);
static int sxrun(RefCtx *c, const RefOp *o, const ScalarDef *sd, const Val *a, const int64_t *ad, int ar,
                 const Val *b, const int64_t *bd, int br, Val *r);

/* biasadd: nn.bias_add, data + bias along axis (add's row) */
static int
biasadd(RefCtx *c, const RefOp *o, Args a, Val *r)
{
	int64_t axis = aint(c, o, "axis", 1), bd[MAXD];

	if (a[1]->rank != 1 || !normaxis(&axis, a[0]->rank))
		return fail(c, o, "bad bias");
	for (int k = 0; k < a[0]->rank; k++)
		bd[k] = k == axis ? a[1]->dims[0] : 1;
	return sxrun(c, o, ir_scalar_of(NULL, OP_ADD, 0), a[0], a[0]->dims, a[0]->rank, a[1], bd, a[0]->rank, r);
}

/* cmpop: the comparison op of a and b, 1 or 0 (a NaN compares unequal to
** everything, itself included) */
static int
cmpop(OpId op, int lt, int eq)
{
	switch (op) {
	case OP_EQUAL: return eq;
	case OP_NOT_EQUAL: return !eq;
	case OP_LESS: return lt;
	case OP_LESS_EQUAL: return lt || eq;
	case OP_GREATER: return !lt && !eq;
	default: return !lt;    /* greater_equal */
	}
}

/* compare: the comparisons and logical_and / logical_or with numpy
** broadcasting, bool results; operands of one dtype */
static int
compare(RefCtx *c, const RefOp *o, Args a, Val *r)
{
	int64_t st[2][MAXD], idx[MAXD] = { 0 }, off[2] = { 0, 0 };
	int dt = a[0]->dt, u = ir_dtype_kind[dt] == 'u';

	if (a[1]->dt != dt || r->dt != DT_BOOL ||
	    !ref_bcast_strides(a[0]->dims, a[0]->rank, r->dims, r->rank, st[0]) ||
	    !ref_bcast_strides(a[1]->dims, a[1]->rank, r->dims, r->rank, st[1]))
		return fail(c, o, "operands do not broadcast");
	ref_valloc(r);
	for (int64_t i = 0; i < r->n; i++) {
		int v;
		if (o->op == OP_LOGICAL_AND || o->op == OP_LOGICAL_OR) {
			int p = ldi(a[0], off[0]) != 0, q = ldi(a[1], off[1]) != 0;
			v = o->op == OP_LOGICAL_AND ? p && q : p || q;
		} else if (isflt(dt)) {
			double p = ldf(a[0], off[0]), q = ldf(a[1], off[1]);
			v = isnan(p) || isnan(q) ? o->op == OP_NOT_EQUAL : cmpop(o->op, p < q, p == q);
		} else {
			int64_t p = ldi(a[0], off[0]), q = ldi(a[1], off[1]);
			v = cmpop(o->op, u ? (uint64_t)p < (uint64_t)q : p < q, p == q);
		}
		sti(r, i, v);
		step(r->rank, r->dims, idx, 2, off, st);
	}
	return 0;
}

/* where: condition ? x : y elementwise, the three broadcast together; a
** condition element is true when it is not zero */
static int
where(RefCtx *c, const RefOp *o, Args a, Val *r)
{
	int64_t st[3][MAXD], idx[MAXD] = { 0 }, off[3] = { 0, 0, 0 };
	size_t nb = ir_dtype_bytes[r->dt];

	for (int k = 0; k < 3; k++)
		if (!ref_bcast_strides(a[k]->dims, a[k]->rank, r->dims, r->rank, st[k]))
			return fail(c, o, "operands do not broadcast");
	if (a[1]->dt != r->dt || a[2]->dt != r->dt)
		return fail(c, o, "x and y are not of the result's dtype");
	ref_valloc(r);
	for (int64_t i = 0; i < r->n; i++) {
		int t = isflt(a[0]->dt) ? ldf(a[0], off[0]) != 0 : ldi(a[0], off[0]) != 0;
		const Val *v = t ? a[1] : a[2];
		memcpy(r->data + (size_t)i * nb, v->data + (size_t)off[t ? 1 : 2] * nb, nb);
		step(r->rank, r->dims, idx, 3, off, st);
	}
	return 0;
}

/* logicalnot: bool data, bool result */
static int
logicalnot(RefCtx *c, const RefOp *o, Args a, Val *r)
{
	if (a[0]->dt != DT_BOOL)
		return fail(c, o, "data is not bool");
	ref_valloc(r);
	for (int64_t i = 0; i < r->n; i++)
		sti(r, i, ldi(a[0], i) == 0);
	return 0;
}

static int conv(int exact, const Val *a, int64_t i, Val *r, int64_t j);

/* scanline: the outer, axis and inner extents of cumsum or cumprod over
** data x (axis None: the flattened data) */
static int
scanline(const RefCtx *c, const RefOp *o, const Val *x, int64_t *outer, int64_t *len, int64_t *inner)
{
	const AttrVal *v = attr(c, o, "axis");
	int64_t axis = v && v->kind == AV_INT ? v->u.i : 0;

	*outer = *inner = 1;
	*len = x->n;
	if (!v || v->kind != AV_INT)
		return 1;
	if (!normaxis(&axis, x->rank))
		return 0;
	*len = x->dims[axis];
	for (int k = 0; k < axis; k++)
		*outer *= x->dims[k];
	for (int k = (int)axis + 1; k < x->rank; k++)
		*inner *= x->dims[k];
	return 1;
}

/* scan: cumsum and cumprod, python/tvm/topi/scan.py: each element cast to
** the result's dtype as by `cast`, then accumulated in order along the
** axis; inclusive starts from the first element, exclusive from 0 (1)
** and never adds the last.  Integer steps are add/multiply (exact mode
** refuses their overflow from 32 bits); floats round each step and
** exact mode refuses them, as it does sum */
static int
scan(RefCtx *c, const RefOp *o, Args a, Val *r)
{
	int64_t outer, len, inner;
	int dt = r->dt, prod = o->op == OP_CUMPROD, excl = (int)aint(c, o, "exclusive", 0);

	if (!scanline(c, o, a[0], &outer, &len, &inner) || dt == DT_BOOL)
		return fail(c, o, "bad axis or dtype");
	if (isflt(dt) && c->exact)
		return 1;
	ref_valloc(r);
	for (int64_t i = 0; i < r->n; i++)
		if (!conv(c->exact, a[0], i, r, i))
			return 1;
	for (int64_t p = 0; p < outer * inner; p++) {
		int64_t base = p / inner * len * inner + p % inner;
		double af = prod;
		int64_t ai = prod;
		for (int64_t k = 0; k < len; k++) {
			int64_t at = base + k * inner, next = 0;
			if (isflt(dt)) {
				double x = ldf(r, at);
				if (excl)
					stf(r, at, af);
				af = excl || k ? rnd(dt, prod ? af * x : af + x) : x;
				if (!excl)
					stf(r, at, af);
			} else {
				int64_t x = ldi(r, at);
				if (excl)
					sti(r, at, ai);
				if ((excl && k + 1 < len) || (!excl && k)) {
					if (!sxint(prod ? SI_MUL : SI_ADD, dt, ai, x, NULL, c->exact, &next))
						return 1;
					ai = wrap(dt, next);
				} else if (!excl)
					ai = x;
				if (!excl)
					sti(r, at, ai);
			}
		}
	}
	return 0;
}

/* broadcastto: broadcast_to, numpy's (topi::broadcast_to): each element
** of the result reads data through broadcast strides */
static int
broadcastto(RefCtx *c, const RefOp *o, Args a, Val *r)
{
	int64_t st[1][MAXD], idx[MAXD] = { 0 }, off[1] = { 0 };
	size_t nb = ir_dtype_bytes[r->dt];

	if (a[0]->dt != r->dt || !ref_bcast_strides(a[0]->dims, a[0]->rank, r->dims, r->rank, st[0]))
		return fail(c, o, "data does not broadcast to the shape");
	ref_valloc(r);
	for (int64_t i = 0; i < r->n; i++) {
		memcpy(r->data + (size_t)i * nb, a[0]->data + (size_t)off[0] * nb, nb);
		step(r->rank, r->dims, idx, 1, off, st);
	}
	return 0;
}

/* bitwisenot: ~x of integers; of bool, logical not (tir's ~ on a 1-bit
** value) */
static int
bitwisenot(RefCtx *c, const RefOp *o, Args a, Val *r)
{
	(void)c;
	(void)o;
	ref_valloc(r);
	for (int64_t i = 0; i < r->n; i++)
		sti(r, i, a[0]->dt == DT_BOOL ? ldi(a[0], i) == 0 : ~ldi(a[0], i));
	return 0;
}

/* ---------------------------------------------------------------- indexing */

/* ref_index_plan: take is topi::take (include/tvm/topi/transform.h, with
** TVM's TakeRel for batch_dims); gather is topi::gather, numpy's
** take_along_axis, with negative indices counted from the end (ref.h) */
int
ref_index_plan(const Module *m, OpId op, const AttrVal *attrs, const int64_t *xd, int xr,
               const int64_t *id, int ir, RefIndex *p)
{
	int k = ir_op_attr_index(op, "axis", 4);
	const AttrVal *av = k < 0 ? NULL : &attrs[k];
	int64_t xst[MAXD], ist[MAXD], axis, bd = 0;

	if (!av || xr > MAXD || ir > MAXD)
		return 0;
	memset(p, 0, sizeof *p);
	ref_strides(xd, xr, xst);
	ref_strides(id, ir, ist);
	if (op == OP_TAKE) {
		const AttrVal *mv = &attrs[ir_op_attr_index(op, "mode", 4)];
		const AttrVal *bv = &attrs[ir_op_attr_index(op, "batch_dims", 10)];
		const char *mode = mv->kind == AV_STR ? ir_symstr(m, mv->u.s) : "clip";
		p->mode = !strcmp(mode, "wrap") ? REF_IX_WRAP : !strcmp(mode, "fast") ? REF_IX_FAST : REF_IX_CLIP;
		bd = bv->kind == AV_INT ? bv->u.i : 0;
		if (av->kind == AV_NONE) {
			/* the flattened data */
			p->rank = ir;
			p->n = 1;
			for (int j = 0; j < xr; j++)
				p->n *= xd[j];
			p->astride = 1;
			memcpy(p->ist, ist, (size_t)ir * sizeof *ist);
			return 1;
		}
	} else {
		p->mode = REF_IX_NEG;
	}
	axis = av->kind == AV_INT ? av->u.i : 0;
	if (axis < 0)
		axis += xr;
	if (bd < 0)
		bd += ir;
	if (axis < 0 || axis >= xr || bd < 0 || bd > ir || bd > axis)
		return 0;
	p->n = xd[axis];
	p->astride = xst[axis];
	if (op == OP_GATHER) {
		if (ir != xr)
			return 0;
		p->rank = xr;
		for (int j = 0; j < xr; j++) {
			p->ist[j] = ist[j];
			p->dst[j] = j == axis ? 0 : xst[j];
		}
		return 1;
	}
	/* data.shape[:axis] + indices.shape[batch_dims:] + data.shape[axis + 1:] */
	p->rank = (int)(xr - 1 + ir - bd);
	if (p->rank > MAXD)
		return 0;
	for (int j = 0; j < axis; j++) {
		p->dst[j] = xst[j];
		p->ist[j] = j < bd ? ist[j] : 0;
	}
	for (int j = (int)bd; j < ir; j++)
		p->ist[axis + j - bd] = ist[j];
	for (int j = (int)axis + 1; j < xr; j++)
		p->dst[j - 1 + ir - bd] = xst[j];
	return 1;
}

/* ref_index: see ref.h */
int64_t
ref_index(const RefIndex *p, int64_t v)
{
	switch (p->mode) {
	case REF_IX_CLIP: return v < 0 ? 0 : v >= p->n ? p->n - 1 : v;
	case REF_IX_WRAP: return (v % p->n + p->n) % p->n;
	case REF_IX_NEG:
		if (v < 0)
			v += p->n;
		break;
	default: break;
	}
	return v >= 0 && v < p->n ? v : -1;
}

/* take, gather: the elements of data that indices name (ref_index_plan);
** an out-of-range index of "fast" or gather is a run-time error */
static int
take(RefCtx *c, const RefOp *o, Args a, Val *r)
{
	RefIndex p;
	int64_t idx[MAXD] = { 0 }, off[2] = { 0, 0 }, st[2][MAXD];
	size_t nb = ir_dtype_bytes[r->dt];

	if (!ref_index_plan(c->m, o->op, &c->m->attrs[o->attrs], a[0]->dims, a[0]->rank, a[1]->dims,
	                    a[1]->rank, &p) || p.rank != r->rank || !isint(a[1]->dt) || a[0]->dt != r->dt)
		return fail(c, o, "the operands do not fit");
	if (r->n && p.n == 0)
		return fail(c, o, "takes from an empty axis");
	memcpy(st[0], p.ist, sizeof st[0]);
	memcpy(st[1], p.dst, sizeof st[1]);
	ref_valloc(r);
	for (int64_t i = 0; i < r->n; i++) {
		int64_t v = ldi(a[1], off[0]), j = ref_index(&p, v);
		if (j < 0)
			return fail(c, o, "index %lld is out of range for an axis of %lld", (long long)v, (long long)p.n);
		memcpy(r->data + (size_t)i * nb, a[0]->data + (size_t)(off[1] + j * p.astride) * nb, nb);
		step(r->rank, r->dims, idx, 2, off, st);
	}
	return 0;
}

/* batchnorm: nn.batch_norm in inference: (x - mean) / sqrt(var + eps),
** times gamma (scale), plus beta (center), per channel at axis, computed
** in double and rounded once; the tuple's other fields are the moving
** mean and variance, as TVM gives them */
static int
batchnorm(RefCtx *c, const RefOp *o, Args a, Val *r)
{
	const Module *m = c->m;
	const Type *tt = ir_type(m, o->type);
	const Val *x = a[0];
	int64_t axis = aint(c, o, "axis", 1), in;
	const AttrVal *eps = attr(c, o, "epsilon"), *center = attr(c, o, "center"), *scale = attr(c, o, "scale");

	if (tt->kind != TY_TUPLE || tt->n != 3 || !normaxis(&axis, x->rank) || !isflt(x->dt))
		return fail(c, o, "bad operands");
	for (int i = 1; i < 5; i++)
		if (a[i]->rank != 1 || a[i]->dims[0] != x->dims[axis])
			return fail(c, o, "bad channel vectors");
	in = inner(x, (int)axis);
	r->kind = RV_TUPLE;
	r->nf = 3;
	r->f = ir_xcalloc(3, sizeof *r->f);
	for (uint32_t j = 0; j < 3; j++)
		if (!ref_vshape(m, m->tylist[tt->first + j], &r->f[j]))
			return fail(c, o, "the result is not a tuple of tensors");
	ref_valloc(&r->f[0]);
	for (int64_t i = 0; i < x->n; i++) {
		int64_t ch = (i / in) % x->dims[axis];
		double y = (ldf(x, i) - ldf(a[3], ch)) / sqrt(ldf(a[4], ch) + (eps ? eps->u.f : 1e-5));
		if (!scale || scale->u.i)
			y *= ldf(a[1], ch);
		if (!center || center->u.i)
			y += ldf(a[2], ch);
		stf(&r->f[0], i, y);
	}
	for (uint32_t j = 1; j < 3; j++) {
		ref_valloc(&r->f[j]);
		memcpy(r->f[j].data, a[j + 2]->data, (size_t)a[j + 2]->n * ir_dtype_bytes[a[j + 2]->dt]);
	}
	return 0;
}

/* ref_norm_plan: see ref.h */
int
ref_norm_plan(OpId op, const AttrVal *attrs, const int64_t *xd, int xr, RefNorm *p)
{
	const AttrVal *av, *ev;
	int64_t axis, before = 1, between = 1, after = 1, g;

	if (op != OP_NN_LAYER_NORM && op != OP_NN_GROUP_NORM && op != OP_NN_INSTANCE_NORM)
		return 0;
	av = &attrs[ir_op_attr_index(op, "axis", 4)];
	ev = &attrs[ir_op_attr_index(op, "epsilon", 7)];
	axis = av->kind == AV_INT ? av->u.i : 0;
	if (!normaxis(&axis, xr))
		return 0;
	for (int k = 0; k < axis; k++) {
		before *= xd[k];
		between *= k ? xd[k] : 1;
	}
	for (int k = (int)axis + 1; k < xr; k++)
		after *= xd[k];
	memset(p, 0, sizeof *p);
	p->channels = xd[axis];
	p->cinner = after;
	p->epsilon = ev->kind == AV_FLOAT ? ev->u.f : 1e-5;
	p->scale = attrs[ir_op_attr_index(op, "scale", 5)].u.i != 0;
	p->center = attrs[ir_op_attr_index(op, "center", 6)].u.i != 0;
	p->r2 = 1;
	switch (op) {
	case OP_NN_LAYER_NORM:
		p->outer = before;
		p->r1 = xd[axis];
		p->k = after;
		return 1;
	case OP_NN_GROUP_NORM:
		g = attrs[ir_op_attr_index(op, "num_groups", 10)].u.i;
		if (g < 1 || xd[axis] % g)
			return 0;
		p->outer = before * g;
		p->r1 = xd[axis] / g * after;
		p->k = 1;
		return 1;
	case OP_NN_INSTANCE_NORM:
		p->outer = axis ? xd[0] : 1;
		p->r1 = between;
		p->k = xd[axis];
		p->r2 = after;
		return 1;
	default:
		return 0;
	}
}

/* norm: nn.layer_norm, nn.group_norm and nn.instance_norm as RefNorm
** says: per group the mean, then the variance as the mean of (x -
** mean)^2, each a sum from +0 in row-major order in double; each element
** (x - mean) / sqrt(var + epsilon), times gamma, plus beta, rounded once */
static int
norm(RefCtx *c, const RefOp *o, Args a, Val *r)
{
	const Val *x = a[0];
	RefNorm p;
	int64_t n;

	if (!isflt(x->dt) || !ref_norm_plan(o->op, &c->m->attrs[o->attrs], x->dims, x->rank, &p))
		return fail(c, o, "bad operands");
	n = p.r1 * p.r2;
	ref_valloc(r);
	for (int64_t b = 0; b < p.outer; b++)
		for (int64_t k = 0; k < p.k; k++) {
			int64_t base = b * n * p.k + k * p.r2;
			double sum = 0, var = 0, mean, den;
			for (int64_t i = 0; i < p.r1; i++)
				for (int64_t j = 0; j < p.r2; j++)
					sum += ldf(x, base + i * p.k * p.r2 + j);
			mean = sum / (double)n;
			for (int64_t i = 0; i < p.r1; i++)
				for (int64_t j = 0; j < p.r2; j++) {
					double dv = ldf(x, base + i * p.k * p.r2 + j) - mean;
					var += dv * dv;
				}
			den = sqrt(var / (double)n + p.epsilon);
			for (int64_t i = 0; i < p.r1; i++)
				for (int64_t j = 0; j < p.r2; j++) {
					int64_t at = base + i * p.k * p.r2 + j, ch = at / p.cinner % p.channels;
					double y = (ldf(x, at) - mean) / den;
					if (p.scale)
						y *= ldf(a[1], ch);
					if (p.center)
						y += ldf(a[2], ch);
					stf(r, at, y);
				}
		}
	return 0;
}

/* conv: element i of a converted to r's dtype into element j of r, as
** TVM's cast does; 0 where that is undefined (exact mode only) */
static int
conv(int exact, const Val *a, int64_t i, Val *r, int64_t j)
{
	int from = a->dt, to = r->dt;

	if (!isflt(from)) {
		int64_t x = ldi(a, i);
		if (!isflt(to))
			sti(r, j, x);
		else if (to == DT_FLOAT64)
			stf(r, j, (double)x);
		else if (to == DT_FLOAT32)
			stf(r, j, (float)x);    /* one rounding, integer to float */
		else
			stf(r, j, (double)(float)x);  /* exact below 2^24; inf in half above */
		return 1;
	}
	{
		double x = ldf(a, i), t;
		if (isnan(x) && exact)
			return 0;
		if (isflt(to)) {
			stf(r, j, x);
			return 1;
		}
		if (to == DT_BOOL) {
			sti(r, j, x != 0);
			return 1;
		}
		t = trunc(x);
		if (to == DT_INT64 ? !(t >= -9223372036854775808.0 && t < 9223372036854775808.0)
		                   : !(t >= (double)ir_dtype_min(to) && t <= (double)ir_dtype_max(to))) {
			if (exact)
				return 0;
			sti(r, j, isnan(t) ? 0 : t < 0 ? ir_dtype_min(to) : ir_dtype_max(to));    /* saturating */
			return 1;
		}
		sti(r, j, (int64_t)t);
		return 1;
	}
}

/* cast: dtype conversion, element by element as conv() does */
static int
cast(RefCtx *c, const RefOp *o, Args a, Val *r)
{
	ref_valloc(r);
	if (a[0]->dt == r->dt && !isflt(r->dt)) {
		/* to its own integer dtype: the same bytes (PyTorch's exporter
		   casts every quantized weight to the dtype it has) */
		memcpy(r->data, a[0]->data, (size_t)r->n * ir_dtype_bytes[r->dt]);
		return 0;
	}
	for (int64_t i = 0; i < r->n; i++)
		if (!conv(c->exact, a[0], i, r, i))
			return 1;
	return 0;
}

/* ibound: a clip bound made by tir.const for integer dtype dt; 0 where
** that is not defined (exact mode), else saturated */
static int
ibound(int exact, int dt, double b, int64_t *out)
{
	double t = trunc(b);

	if (isnan(b) || (ir_dtype_kind[dt] == 'u' && b < 0) ||
	    !(t >= (double)ir_dtype_min(dt) && t <= (double)ir_dtype_max(dt))) {
		if (exact)
			return 0;
		*out = isnan(b) ? 0 : b < 0 ? ir_dtype_min(dt) : ir_dtype_max(dt);
		return 1;
	}
	*out = (int64_t)t;
	return 1;
}

/* classify: isnan, isinf, isfinite; an integer is finite, never NaN nor
** infinite (TVM's tir isnan/isinf/isfinite of an integer) */
static int
classify(RefCtx *c, const RefOp *o, Args a, Val *r)
{
	(void)c;
	ref_valloc(r);
	for (int64_t i = 0; i < r->n; i++) {
		double x = isflt(a[0]->dt) ? ldf(a[0], i) : 0.0;
		sti(r, i, o->op == OP_ISNAN ? isnan(x) != 0 : o->op == OP_ISINF ? isinf(x) != 0 : isfinite(x) != 0);
	}
	return 0;
}

/* sxk: constant k in float dtype dt's precision (float16's rounded to
** half, then computed with in float32) */
static double
sxk(int dt, double k)
{
	return dt == DT_FLOAT16 ? ir_f32_from_f16(f16(k)) : dt == DT_FLOAT32 ? (double)(float)k : k;
}

/* SXBLK: the evaluator of scalar.def's expressions in C type T, over a
** block of n elements (n <= SXB) at once: out[i] = e at x[i] and y[i],
** p the op's float attributes, constants k rounded as K rounds them, fn
** and fn2 the ScalarExpr members of T's forms of the C library's
** functions; one IEEE operation in T per node and element, as the c and
** llvm backends compute each element (the operations are pure, so a
** SEL's branches computed for every element give what one element's
** would).  A node of the tree costs a loop over the block, not a call
** per element. */
enum { SXB = 256 };
#define SXBLK(name, T, K, fn, fn2) \
	static void \
	name(const ScalarExpr *e, const T *x, const T *y, const double *p, int dt, int n, T *out) \
	{ \
		T u[SXB], v[SXB]; \
		switch (e->kind) { \
		case SX_X: memcpy(out, x, (size_t)n * sizeof *out); return; \
		case SX_Y: memcpy(out, y, (size_t)n * sizeof *out); return; \
		case SX_K: case SX_P: { \
			T k = e->kind == SX_K ? (T)K(dt, e->k) : (T)p[e->p]; \
			for (int i = 0; i < n; i++) \
				out[i] = k; \
			return; \
		} \
		case SX_SEL: \
			name(e->a, x, y, p, dt, n, u); \
			name(e->b, x, y, p, dt, n, v); \
			name(e->c, x, y, p, dt, n, out); \
			for (int i = 0; i < n; i++) \
				out[i] = u[i] != 0 ? v[i] : out[i]; \
			return; \
		default: \
			break; \
		} \
		name(e->a, x, y, p, dt, n, out); \
		switch (e->kind) { \
		case SX_NEG: for (int i = 0; i < n; i++) out[i] = -out[i]; return; \
		case SX_FN: for (int i = 0; i < n; i++) out[i] = e->fn(out[i]); return; \
		case SX_RND: for (int i = 0; i < n; i++) out[i] = (T)K(dt, (double)out[i]); return; \
		case SX_ISNAN: for (int i = 0; i < n; i++) out[i] = out[i] != out[i]; return; \
		default: break; \
		} \
		name(e->b, x, y, p, dt, n, u); \
		switch (e->kind) { \
		case SX_FN2: for (int i = 0; i < n; i++) out[i] = e->fn2(out[i], u[i]); return; \
		case SX_ADD: for (int i = 0; i < n; i++) out[i] = out[i] + u[i]; return; \
		case SX_SUB: for (int i = 0; i < n; i++) out[i] = out[i] - u[i]; return; \
		case SX_MUL: for (int i = 0; i < n; i++) out[i] = out[i] * u[i]; return; \
		case SX_DIV: for (int i = 0; i < n; i++) out[i] = out[i] / u[i]; return; \
		case SX_MIN: for (int i = 0; i < n; i++) out[i] = out[i] < u[i] ? out[i] : u[i]; return; \
		case SX_MAX: for (int i = 0; i < n; i++) out[i] = out[i] > u[i] ? out[i] : u[i]; return; \
		case SX_GT: for (int i = 0; i < n; i++) out[i] = out[i] > u[i]; return; \
		default: for (int i = 0; i < n; i++) out[i] = out[i] < u[i]; return;    /* SX_LT */ \
		} \
	}

/* sxf: in float32 (float16's arithmetic too); sxd: in float64 */
SXBLK(sxf, float, sxk, ff, ff2)
SXBLK(sxd, double, sxk, fd, fd2)

enum { MAXSXP = 16 };   /* the attributes an elementwise op may have */

/* sxint: what integers a and b of dtype dt give by ints (scalar.def's
** column), before truncation to dt, as TVM's LLVM code computes it (clip
** between bnd[0] and bnd[1]); 0 where that is undefined: a zero divisor,
** or in exact mode a result that wraps */
static int
sxint(int ints, int dt, int64_t a, int64_t b, const int64_t *bnd, int exact, int64_t *r)
{
	int u = ir_dtype_kind[dt] == 'u';

	switch (ints) {
	case SI_SIGN:
		*r = u ? a != 0 : (a > 0) - (a < 0);
		return 1;
	case SI_ABS: case SI_NEG:
		if (ints == SI_ABS && a >= 0) {
			*r = a;
			return 1;
		}
		*r = (int64_t)(0 - (uint64_t)a);
		return !exact || !(u ? a != 0 : a == ir_dtype_min(dt));
	case SI_DIV:
		if (b == 0 || (!u && b == -1 && a == ir_dtype_min(dt)))
			return 0;
		*r = a / b;
		return 1;
	case SI_MOD: case SI_FLOOR_MOD:
		/* MIN % -1 is 0 (srem overflows in LLVM: exact mode refuses) */
		if (b == 0 || (exact && !u && b == -1 && a == ir_dtype_min(dt)))
			return 0;
		*r = b == -1 ? 0 : a % b;
		if (ints == SI_FLOOR_MOD && *r != 0 && (*r < 0) != (b < 0))
			*r += b;
		return 1;
	case SI_POW: {
		uint64_t x = (uint64_t)a, y = 1;
		if (b < 0) {
			*r = a == 1 ? 1 : a == -1 ? (b % 2 ? -1 : 1) : 0;
			return 1;
		}
		for (uint64_t e = (uint64_t)b; e; e >>= 1, x *= x)
			if (e & 1)
				y *= x;
		*r = (int64_t)y;
		return 1;
	}
	case SI_MAX: case SI_MIN: {
		int agt = u ? (uint64_t)a > (uint64_t)b : a > b;
		*r = (ints == SI_MAX) == agt ? a : b;
		return 1;
	}
	case SI_RELU:
		*r = u || a > 0 ? a : 0;
		return 1;
	case SI_CLIP:
		a = a < bnd[1] ? a : bnd[1];
		*r = a > bnd[0] ? a : bnd[0];
		return 1;
	case SI_ADD: case SI_SUB: case SI_MUL:
		if (!exact || ir_dtype_bytes[dt] < 4) {
			*r = ints == SI_ADD ? wadd(a, b) : ints == SI_SUB ? (int64_t)((uint64_t)a - (uint64_t)b) : wmul(a, b);
			return 1;
		}
		if (ints == SI_ADD ? !addov(a, b, r) : ints == SI_SUB ? (b == INT64_MIN || !addov(a, -b, r)) : !mulov(a, b, r))
			return 0;
		return *r >= ir_dtype_min(dt) && *r <= ir_dtype_max(dt);
	default:        /* SI_SAME */
		*r = a;
		return 1;
	}
}

/* sxfloats: expression e on float a and b (NULL: an op of one operand),
** read through broadcast strides st, into r, a block of SXB elements at a
** time: in float64 for float64, else float32, each result rounded to r's
** dtype.  Exact mode refuses a NaN operand or result (1). */
static int
sxfloats(const RefCtx *c, const ScalarExpr *e, const Val *a, const Val *b, const double *p, int64_t st[2][MAXD],
         Val *r)
{
	int64_t idx[MAXD] = { 0 }, off[2] = { 0, 0 };
	int dt = r->dt, two = b != NULL;
	double xd[SXB], yd[SXB] = { 0 }, zd[SXB];
	float xf[SXB], yf[SXB] = { 0 }, zf[SXB];

	for (int64_t i0 = 0; i0 < r->n; i0 += SXB) {
		int n = r->n - i0 < SXB ? (int)(r->n - i0) : SXB;
		if (dt == DT_FLOAT64) {
			for (int i = 0; i < n; i++) {
				xd[i] = ldf(a, off[0]);
				if (two)
					yd[i] = ldf(b, off[1]);
				step(r->rank, r->dims, idx, 1 + two, off, st);
			}
			sxd(e, xd, yd, p, dt, n, zd);
		} else {
			for (int i = 0; i < n; i++) {
				xf[i] = (float)ldf(a, off[0]);
				if (two)
					yf[i] = (float)ldf(b, off[1]);
				step(r->rank, r->dims, idx, 1 + two, off, st);
			}
			sxf(e, xf, yf, p, dt, n, zf);
		}
		for (int i = 0; i < n; i++) {
			double z = dt == DT_FLOAT64 ? zd[i] : (double)zf[i];
			if (c->exact && (isnan(dt == DT_FLOAT64 ? xd[i] : xf[i]) || isnan(dt == DT_FLOAT64 ? yd[i] : yf[i]) ||
			                 isnan(z)))
				return 1;
			stf(r, i0 + i, z);
		}
	}
	return 0;
}

/* sxrun: row sd of op o on a (read through shape ad[ar]) and, for an op
** of two operands, b (bd[br]; bias_add reads its bias as a column),
** broadcast to r: its expression on floats (in float32 for float16 and
** float32, rounded to r's dtype once), its ints column on integers
** (ir_op_accepts refused the rest).  Exact mode refuses a NaN operand,
** attribute or result, and a float floor_mod. */
static int
sxrun(RefCtx *c, const RefOp *o, const ScalarDef *sd, const Val *a, const int64_t *ad, int ar, const Val *b,
      const int64_t *bd, int br, Val *r)
{
	const AttrVal *av = o->attrs ? &c->m->attrs[o->attrs] : NULL;
	int64_t st[2][MAXD], idx[MAXD] = { 0 }, off[2] = { 0, 0 }, bnd[2] = { 0, 0 };
	double p[MAXSXP] = { 0 };
	int dt = r->dt, two = b != NULL;

	if (!sd)
		return fail(c, o, "no row of scalar.def takes these attributes");
	if (dt == DT_BOOL)
		return fail(c, o, "on bool tensors");
	if (a->dt != dt || (two && b->dt != dt) || !ref_bcast_strides(ad, ar, r->dims, r->rank, st[0]) ||
	    (two && !ref_bcast_strides(bd, br, r->dims, r->rank, st[1])))
		return fail(c, o, "operands do not broadcast");
	for (int k = 0; av && k < ir_ops[o->op].nattrs && k < MAXSXP; k++)
		if (av[k].kind == AV_FLOAT || av[k].kind == AV_INT) {
			double v = av[k].kind == AV_FLOAT ? av[k].u.f : (double)av[k].u.i;
			p[k] = isflt(dt) ? sxk(dt, v) : v;
			if (c->exact && isnan(p[k]))
				return 1;
		}
	if (sd->ints == SI_CLIP && !isflt(dt) && (!ibound(c->exact, dt, p[0], &bnd[0]) || !ibound(c->exact, dt, p[1], &bnd[1])))
		return 1;
	if (c->exact && isflt(dt) && o->op == OP_FLOOR_MOD)
		return 1;
	ref_valloc(r);
	if (isflt(dt))
		return sxfloats(c, sd->expr, a, b, p, st, r);
	for (int64_t i = 0; i < r->n; i++) {
		int64_t x = ldi(a, off[0]), y = two ? ldi(b, off[1]) : 0, z;
		if (!sxint(sd->ints, dt, x, y, bnd, c->exact, &z))
			return fail(c, o, y == 0 ? "integer division by zero" : "integer overflow in division");
		sti(r, i, z);
		step(r->rank, r->dims, idx, 1 + two, off, st);
	}
	return 0;
}

/* scalar: an op of scalar.def, of one operand or two */
static int
scalar(RefCtx *c, const RefOp *o, Args a, Val *r)
{
	const ScalarDef *sd = ir_scalar_of(c->m, o->op, o->attrs);
	const Val *b = o->nargs > 1 ? a[1] : NULL;

	return sxrun(c, o, sd, a[0], a[0]->dims, a[0]->rank, b, b ? b->dims : NULL, b ? b->rank : 0, r);
}

/* ---------------------------------------------------------------- quantization */

/* chan: the parameter index of element i of x, a parameter of len values
** along axis ax (in: the element count after ax) */
static int64_t
chan(const Val *x, int64_t ax, int64_t in, int64_t i, int64_t len)
{
	return len == 1 ? 0 : (i / in) % x->dims[ax];
}

/* qparam: whether the scale or zero point p of dtype dt fits data x along
** axis ax: one element, or x's size along ax */
static int
qparam(const Val *p, int dt, const Val *x, int64_t ax)
{
	if (p->dt != dt || p->rank > 1)
		return 0;
	if (p->n == 1)
		return 1;
	return ax >= 0 && ax < x->rank && p->n == x->dims[ax];
}

/* rndaway: v rounded to an integer, halves away from zero, as roundf
** (but +0 for -0.4: the sign of a zero never reaches an integer) */
static inline float
rndaway(float v)
{
	float t, f;

	if (!(fabsf(v) < 8388608.0f))       /* 2^23 and up are integers; NaN, inf */
		return v;
	t = (float)(int32_t)v;              /* toward zero, exact */
	f = v - t;                          /* exact */
	/* without branches: which way a value goes is data, and mispredicts */
	return t + (float)(f >= 0.5f) - (float)(f <= -0.5f);
}

/* The range of an integer dtype in the forms qone() compares with: as
** float32 (int32's top rounds up to 2^31) and exactly, as doubles; hiok
** is the largest float32 not above max (2^31 - 128 for int32). */
typedef struct QRange {
	float lo, hi, hiok;
	double dmin, dmax;
	int64_t min, max;
} QRange;

/* QR: dtype id's QRange, from ir_dtype_min() and ir_dtype_max() spelled
** as constant expressions.  Every max is 2^k - 1 (bool's is 1), so
** clearing the bits below float32's 24 of precision takes 2^(k-24) off
** 2^k. */
#define QRMIN(b, k) ((k) != 'i' ? 0 : (b) == 8 ? INT64_MIN : -((int64_t)1 << (8 * (b) - 1)))
#define QRMAX(id, b, k) \
	(DT_##id == DT_BOOL ? 1 : (k) == 'i' ? ((b) == 8 ? INT64_MAX : ((int64_t)1 << (8 * (b) - 1)) - 1) \
	 : (b) >= 8 ? INT64_MAX : ((int64_t)1 << (8 * (b))) - 1)
#define QRHIOK(max) \
	((max) > 0xffffff ? (float)((max) - (int64_t)(((uint64_t)(max) + 1) >> 24) + 1) : (float)(max))
#define QR(id, name, b, k) [DT_##id] = { (float)QRMIN(b, k), (float)QRMAX(id, b, k), QRHIOK(QRMAX(id, b, k)), \
	(double)QRMIN(b, k), (double)QRMAX(id, b, k), QRMIN(b, k), QRMAX(id, b, k) },
static const QRange qranges[DT_COUNT] = { IR_DTYPES(QR) };
#undef QR
#undef QRHIOK
#undef QRMAX
#undef QRMIN

static const QRange *
qrange(int dt)
{
	return &qranges[dt];
}

/* qone: one element of quantize(): x / scale rounded half away from
** zero, plus the zero point, clipped, all in float32; 0 if not exact.
** With even (rounding="HALF_TO_EVEN", ONNX's QuantizeLinear): halves
** round to even and the zero point is added to the rounded integer, as
** ONNX's saturate(round(x / y_scale) + y_zero_point) says. */
static inline int
qone(int exact, int even, float x, float sc, float z, const QRange *b, int64_t *q)
{
	float qlo = b->lo, qhi = b->hi;
	/* float32 division: the quotient rounded to double and then to float
	   would be the same value (53 >= 2 * 24 + 2 bits) */
	float v = x / sc;

	if (isnan(v) && exact)
		return 0;
	if (even) {
		float r = roundf(v);
		if (fabsf(v - truncf(v)) == 0.5f)
			r = 2.0f * roundf(v * 0.5f);        /* a tie: the even neighbour */
		if (isnan(r)) {
			*q = (int64_t)qhi;
			return 1;
		}
		/* r + z is exact in double: |r| < 2^128, |z| < 2^31 */
		if (!((double)r + (double)z < (double)qhi))
			*q = (int64_t)qhi;
		else if (!((double)r + (double)z > (double)qlo))
			*q = (int64_t)qlo;
		else
			*q = (int64_t)((double)r + (double)z);
		return 1;
	}
	v = rndaway(v);                     /* llvm.round: halves away from zero */
	v = (float)((double)v + (double)z);
	v = v < qhi ? v : qhi;
	v = v > qlo ? v : qlo;
	if (!((double)v >= b->dmin && (double)v <= b->dmax)) {
		if (exact)
			return 0;
		*q = v < 0 ? b->min : b->max;
		return 1;
	}
	*q = (int64_t)v;
	return 1;
}

/* qexact: qone() in exact mode with TVM's rounding for the n floats at x
** (little-endian bytes), each stored at q as the low esz bytes (1, 2 or 4)
** of its integer, which fits dtype dt (b is its range); 0 if one is
** refused, with q partly written.  Four at a time where SSE2 is: the same
** float32 steps, without branches (the way a value rounds is data, and a
** branch on it mispredicts), narrowed by saturating packs, which keep
** every value in range. */
static int
qexact(const unsigned char *x, int64_t n, float sc, float z, int dt, const QRange *b, unsigned char *q)
{
	int64_t i = 0;
	int esz = ir_dtype_bytes[dt];

#ifdef __SSE2__
	if (b->max <= INT32_MAX) {      /* uint32's top half does not convert */
		const __m128 vs = _mm_set1_ps(sc), vz = _mm_set1_ps(z), lo = _mm_set1_ps(b->lo), hi = _mm_set1_ps(b->hi);
		const __m128 hiok = _mm_set1_ps(b->hiok), big = _mm_set1_ps(8388608.0f), one = _mm_set1_ps(1.0f);
		const __m128 half = _mm_set1_ps(0.5f), mhalf = _mm_set1_ps(-0.5f);
		const __m128 absmask = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));
		const __m128i bias = _mm_set1_epi32(dt == DT_UINT16 ? 32768 : 0);
		const __m128i flip = _mm_set1_epi16(dt == DT_UINT16 ? -32768 : 0);
		const int u8 = dt == DT_UINT8;
		__m128 ok = _mm_castsi128_ps(_mm_set1_epi32(-1));
		for (; i + 4 <= n; i += 4) {
			__m128 v = _mm_div_ps(_mm_loadu_ps((const float *)(const void *)(x + 4 * i)), vs);
			/* rndaway(): lanes of 2^23 and up (NaN too) are kept as they are */
			__m128 keep = _mm_cmpnlt_ps(_mm_and_ps(v, absmask), big);
			__m128 t = _mm_cvtepi32_ps(_mm_cvttps_epi32(_mm_andnot_ps(keep, v)));
			__m128 f = _mm_sub_ps(v, t);
			__m128 r;
			__m128i k, h;
			int32_t w;
			t = _mm_add_ps(t, _mm_and_ps(_mm_cmpge_ps(f, half), one));
			t = _mm_sub_ps(t, _mm_and_ps(_mm_cmple_ps(f, mhalf), one));
			r = _mm_or_ps(_mm_and_ps(keep, v), _mm_andnot_ps(keep, t));
			/* the zero point (float addition is (double)r + (double)z
			   rounded once), the clip, and what exact mode refuses */
			r = _mm_max_ps(_mm_min_ps(_mm_add_ps(r, vz), hi), lo);
			ok = _mm_and_ps(ok, _mm_cmpord_ps(v, v));
			ok = _mm_and_ps(ok, _mm_cmple_ps(r, hiok));
			k = _mm_cvttps_epi32(r);
			switch (esz) {
			case 4:
				_mm_storeu_si128((__m128i *)(void *)(q + 4 * i), k);
				break;
			case 2:
				/* uint16 goes through int16 shifted down by 2^15 */
				h = _mm_xor_si128(_mm_packs_epi32(_mm_sub_epi32(k, bias), k), flip);
				_mm_storel_epi64((__m128i *)(void *)(q + 2 * i), h);
				break;
			default:
				h = _mm_packs_epi32(k, k);
				h = u8 ? _mm_packus_epi16(h, h) : _mm_packs_epi16(h, h);
				w = _mm_cvtsi128_si32(h);
				memcpy(q + i, &w, 4);
				break;
			}
		}
		if (_mm_movemask_ps(ok) != 0xf)
			return 0;
	}
#endif
	for (; i < n; i++) {
		float xv;
		int64_t v;
		uint32_t w;
		memcpy(&xv, x + 4 * i, 4);
		if (!qone(1, 0, xv, sc, z, b, &v))
			return 0;
		w = (uint32_t)v;
		switch (esz) {
		case 4: memcpy(q + 4 * i, &w, 4); break;
		case 2: { uint16_t h = (uint16_t)w; memcpy(q + 2 * i, &h, 2); break; }
		default: q[i] = (unsigned char)w; break;
		}
	}
	return 1;
}

/* quantize: qnn.quantize(data, scale, zero_point), per tensor or along axis */
static int
quantize(RefCtx *c, const RefOp *o, Args a, Val *r)
{
	const Val *x = a[0], *s = a[1], *z = a[2];
	int64_t ax = aint(c, o, "axis", -1), in;
	const QRange *b = qrange(r->dt);
	int even = strcmp(astr(c, o, "rounding"), "HALF_TO_EVEN") == 0;

	if (ax < 0)
		ax += x->rank;
	in = ax >= 0 && ax < x->rank ? inner(x, (int)ax) : 1;
	if (x->dt != DT_FLOAT32 || !isint(r->dt) || ir_dtype_bytes[r->dt] > 4 ||
	    !qparam(s, DT_FLOAT32, x, ax) || !qparam(z, DT_INT32, x, ax))
		return fail(c, o, "bad operands");
	ref_valloc(r);
	for (int64_t i = 0; i < r->n; i++) {
		int64_t q;
		if (!qone(c->exact, even, (float)ldf(x, i), (float)ldf(s, chan(x, ax, in, i, s->n)),
		          (float)(int32_t)ldi(z, chan(x, ax, in, i, z->n)), b, &q))
			return 1;
		sti(r, i, q);
	}
	return 0;
}

/* dequantize: qnn.dequantize(data, scale, zero_point) to float32 or float16 */
static int
dequantize(RefCtx *c, const RefOp *o, Args a, Val *r)
{
	const Val *x = a[0], *s = a[1], *z = a[2];
	int64_t ax = aint(c, o, "axis", -1), in;

	if (ax < 0)
		ax += x->rank;
	in = ax >= 0 && ax < x->rank ? inner(x, (int)ax) : 1;
	if (!isint(x->dt) || ir_dtype_bytes[x->dt] > 4 || (r->dt != DT_FLOAT32 && r->dt != DT_FLOAT16) ||
	    !qparam(s, DT_FLOAT32, x, ax) || !qparam(z, DT_INT32, x, ax))
		return fail(c, o, "bad operands");
	ref_valloc(r);
	for (int64_t i = 0; i < r->n; i++) {
		int64_t d = (int64_t)wrap32(ldi(x, i)) - ldi(z, chan(x, ax, in, i, z->n));
		float v;
		if (d < INT32_MIN || d > INT32_MAX) {
			if (c->exact)
				return 1;
			d = wrap32(d);
		}
		v = (float)((double)(float)(int32_t)d * (double)(float)ldf(s, chan(x, ax, in, i, s->n)));
		if (isnan(v) && c->exact)
			return 1;
		if (r->dt == DT_FLOAT16) {
			v = v < 65504.0f ? v : 65504.0f;
			v = v > -65504.0f ? v : -65504.0f;
		}
		stf(r, i, v);
	}
	return 0;
}

/* floorshr: x >> k, arithmetic (rounding down), for 0 <= k < 64 */
static int64_t
floorshr(int64_t x, int k)
{
	return x >= 0 ? x >> k : -((-(x + 1)) >> k) - 1;
}

/* fpm: the fixed-point product of int32 x and f, rounded UPWARD or to
** nearest, truncated to int32.  pow2 marks the per-tensor UPWARD case,
** whose q_multiply_shift lowering for a multiplier of 2^30 works in
** int32.  Exact mode: 0 where an int64 step overflows or a shift is out
** of range; run mode wraps as the generated code does. */
static int
fpm(int exact, int32_t x, RefFixed f, int nearest, int pow2, int32_t *out)
{
	int ls = f.shift > 0 ? f.shift : 0, rs = f.shift > 0 ? 0 : -f.shift, total = rs + 31;
	int64_t t, half;

	if (pow2 && f.mul == (1 << 30)) {
		int ev = f.shift - 1;
		if (ev > 0 ? ev >= 32 : (-ev < 1 || -ev > 31 ||
		                          (int64_t)x + ((int64_t)1 << (-ev - 1)) > INT32_MAX)) {
			if (exact)
				return 0;
			if (ev > 0 && ev < 32) {
				*out = wrap32((int64_t)((uint64_t)(uint32_t)x << ev));
				return 1;
			}
			if (ev <= 0 && -ev >= 1 && -ev <= 31) {
				*out = (int32_t)floorshr(wrap32((int64_t)x + ((int64_t)1 << (-ev - 1))), -ev);
				return 1;
			}
		}
	}
	if (total > 63 || ls > 62) {
		if (exact)
			return 0;
		*out = 0;
		return 1;
	}
	if (!exact) {
		t = wmul(wmul(x, (int64_t)1 << ls), f.mul);
		half = ((int64_t)1 << (total - 1)) - (nearest && t < 0);
		*out = wrap32(floorshr(wadd(t, half), total));
		return 1;
	}
	if (!mulov(x, (int64_t)1 << ls, &t) || !mulov(t, f.mul, &t))
		return 0;
	half = ((int64_t)1 << (total - 1)) - (nearest && t < 0);
	if (!addov(t, half, &t))
		return 0;
	*out = wrap32(floorshr(t, total));
	return 1;
}

/* The requantization modes of rq(). */
enum {
	RQ_UPWARD,      /* TVM's Q31 fixed point, halves toward +inf ("None", "UPWARD") */
	RQ_TONEAREST,   /* TVM's Q31 fixed point, halves away from zero */
	RQ_F32EVEN      /* graft's HALF_TO_EVEN with compute_dtype float32 (QNNPACK's) */
};

/* f32mul: QNNPACK's float32 multiplier of input scale s to output scale
** os, fl(s * fl(1 / os)); the volatiles keep each step a float32 op */
static float
f32mul(float s, float os)
{
	volatile float inv = 1.0f / os, m = s * inv;

	return m;
}

/* f32even: fl(fl(v) * m) rounded half to even (whatever the rounding
** mode), as a double */
static double
f32even(int32_t v, float m)
{
	volatile float f = (float)v, p = f * m;
	float r = roundf(p);

	if (fabsf(p - truncf(p)) == 0.5f)
		r = 2.0f * roundf(p * 0.5f);
	return (double)r;
}

/* rq: requantizes integer x (input scale is and zero point iz along axis,
** as RequantizeLowerInt reads them) to the output scale os and zero point
** oz into r, whose dtype is the out_dtype, by mode (RQ_) */
static int
rq(RefCtx *c, const RefOp *o, const Val *x, const Val *is, const Val *iz, float out_s, int32_t out_z,
   int64_t axis, int mode, Val *r)
{
	int64_t ax, in, chax, ns;
	RefFixed *fx = NULL;
	float *fm = NULL;
	int pertensor, bad = 1, nearest = mode == RQ_TONEAREST;

	if (!isint(x->dt) || x->dt == DT_UINT32 || !isint(r->dt) || ir_dtype_bytes[r->dt] > 4)
		return fail(c, o, "bad operands");
	/* the zero point runs along axis + rank; the scales along axis, with
	** only -1 normalized (RequantizeLowerInt) */
	ax = axis < 0 ? (x->rank > 0 ? x->rank + axis : 0) : axis;
	in = ax >= 0 && ax < x->rank ? inner(x, (int)ax) : 1;
	if (!qparam(iz, DT_INT32, x, ax) || is->dt != DT_FLOAT32 || is->rank > 1)
		return fail(c, o, "bad parameters");
	/* a scalar x takes one zero point (TVM's lowering cannot broadcast a
	   nonzero one to rank 0 and fails; graft subtracts it, as c and llvm
	   do) */
	if (x->rank == 0 && iz->n != 1)
		return fail(c, o, "bad parameters");
	pertensor = is->rank == 0;
	chax = axis == -1 ? x->rank - 1 : axis;
	if (!pertensor && (chax != ax || !qparam(is, DT_FLOAT32, x, ax)))
		return fail(c, o, "bad parameters");
	ns = is->n;
	if (out_s == 0 || !isfinite(out_s))
		return fail(c, o, "output scale %g", (double)out_s);
	fx = ir_xmalloc((size_t)ns * sizeof *fx);
	fm = ir_xmalloc((size_t)ns * sizeof *fm);
	for (int64_t k = 0; k < ns; k++) {
		if (mode == RQ_F32EVEN) {
			fm[k] = f32mul((float)ldf(is, k), out_s);
			if (!isfinite(fm[k])) {
				fail(c, o, "input scale %g", ldf(is, k));
				goto out;
			}
		} else if (!isfinite(ldf(is, k)) || !ref_fixed(ldf(is, k) / (double)out_s, &fx[k])) {
			fail(c, o, "input scale %g", ldf(is, k));
			goto out;
		}
	}
	ref_valloc(r);
	for (int64_t i = 0; i < r->n; i++) {
		int64_t v = (int64_t)wrap32(ldi(x, i)) - ldi(iz, chan(x, ax, in, i, iz->n));
		int32_t y;
		if (v < INT32_MIN || v > INT32_MAX) {
			if (c->exact)
				goto out;
			v = wrap32(v);
		}
		y = (int32_t)v;
		if (mode == RQ_F32EVEN) {
			double t = f32even(y, fm[pertensor ? 0 : chan(x, ax, in, i, ns)]) + out_z;
			int64_t l = ir_dtype_min(r->dt), h = ir_dtype_max(r->dt);
			sti(r, i, !(t > (double)l) ? l : !(t < (double)h) ? h : (int64_t)t);
			continue;
		}
		if (pertensor) {
			if ((float)ldf(is, 0) != out_s && !fpm(c->exact, y, fx[0], nearest, !nearest, &y))
				goto out;
		} else if (!fpm(c->exact, y, fx[chan(x, ax, in, i, ns)], nearest, 0, &y)) {
			goto out;
		}
		v = (int64_t)y + out_z;
		if (v < INT32_MIN || v > INT32_MAX) {
			if (c->exact)
				goto out;
			v = wrap32(v);
		}
		if (r->dt != DT_INT32)
			v = sat(r->dt, v);
		sti(r, i, v);
	}
	bad = 0;
out:
	free(fx);
	free(fm);
	return bad;
}

/* requantize: qnn.requantize(data, input_scale, input_zero_point,
** output_scale, output_zero_point) by TVM's integer algorithm, or
** QNNPACK's float32 one (rounding "HALF_TO_EVEN", compute_dtype
** "float32") */
static int
requantize(RefCtx *c, const RefOp *o, Args a, Val *r)
{
	const char *rounding = astr(c, o, "rounding"), *cdt = astr(c, o, "compute_dtype");
	int even = strcmp(rounding, "HALF_TO_EVEN") == 0;

	if (even ? strcmp(cdt, "float32") != 0 : strcmp(cdt, "None") && strcmp(cdt, "int64") && *cdt)
		return fail(c, o, "compute_dtype \"%s\" with rounding \"%s\" is not run", cdt, rounding);
	if (a[3]->n != 1 || a[4]->n != 1 || a[3]->dt != DT_FLOAT32 || a[4]->dt != DT_INT32)
		return fail(c, o, "bad output parameters");
	return rq(c, o, a[0], a[1], a[2], (float)ldf(a[3], 0), (int32_t)ldi(a[4], 0), aint(c, o, "axis", -1),
	          even ? RQ_F32EVEN : strcmp(rounding, "TONEAREST") == 0 ? RQ_TONEAREST : RQ_UPWARD, r);
}

/* samescalar: whether tensors p and q are one-element and equal (TVM's
** IsEqualScalar) */
static int
samescalar(const Val *p, const Val *q)
{
	if (p->n != 1 || q->n != 1 || p->dt != q->dt)
		return 0;
	return isflt(p->dt) ? ldf(p, 0) == ldf(q, 0) : ldi(p, 0) == ldi(q, 0);
}

/* toi32: x, requantized to scale os and zero point oz (as Requantize to
** int32 along axis) unless its parameters s, z are those, else cast */
static int
toi32(RefCtx *c, const RefOp *o, const Val *x, const Val *s, const Val *z, const Val *os,
      const Val *oz, int64_t axis, Val *r)
{
	memset(r, 0, sizeof *r);
	r->kind = RV_TENSOR;
	r->dt = DT_INT32;
	r->rank = x->rank;
	memcpy(r->dims, x->dims, sizeof r->dims);
	r->n = x->n;
	if (samescalar(s, os) && samescalar(z, oz)) {
		ref_valloc(r);
		for (int64_t i = 0; i < r->n; i++)
			sti(r, i, ldi(x, i));
		return 0;
	}
	if (s->n > 1 || z->n > 1)
		axis = x->rank <= 1 ? 0 : axis;
	return rq(c, o, x, s, z, (float)ldf(os, 0), (int32_t)ldi(oz, 0), axis, RQ_UPWARD, r);
}

/* qbinary: qnn.add and qnn.mul */
static int
qbinary(RefCtx *c, const RefOp *o, Args a, Val *r)
{
	Val l, h, sum, sc, zero;
	int64_t st[2][MAXD], idx[MAXD] = { 0 }, off[2] = { 0, 0 };
	int32_t oz = (int32_t)ldi(a[7], 0);
	int bad = 1;

	memset(&l, 0, sizeof l);
	memset(&h, 0, sizeof h);
	if (!ref_bcast_strides(a[0]->dims, a[0]->rank, r->dims, r->rank, st[0]) ||
	    !ref_bcast_strides(a[1]->dims, a[1]->rank, r->dims, r->rank, st[1]))
		return fail(c, o, "operands do not broadcast");
	if (o->op == OP_QNN_ADD) {
		if (toi32(c, o, a[0], a[2], a[3], a[6], a[7], aint(c, o, "lhs_axis", -1), &l) ||
		    toi32(c, o, a[1], a[4], a[5], a[6], a[7], aint(c, o, "rhs_axis", -1), &h))
			goto out;
		ref_valloc(r);
		for (int64_t i = 0; i < r->n; i++) {
			int64_t v = wrap32(wrap32((int64_t)ldi(&l, off[0]) + ldi(&h, off[1])) - (int64_t)oz);
			sti(r, i, sat(r->dt, v));
			step(r->rank, r->dims, idx, 2, off, st);
		}
		bad = 0;
		goto out;
	}
	/* qnn.mul: the product of the shifted operands, requantized */
	if (a[2]->n != 1 || a[4]->n != 1 || a[3]->n != 1 || a[5]->n != 1) {
		fail(c, o, "per-channel parameters are not run");
		goto out;
	}
	memset(&sum, 0, sizeof sum);
	sum.kind = RV_TENSOR;
	sum.dt = DT_INT32;
	sum.rank = r->rank;
	memcpy(sum.dims, r->dims, sizeof sum.dims);
	sum.n = r->n;
	ref_valloc(&sum);
	for (int64_t i = 0; i < r->n; i++) {
		int64_t p = wrap32(ldi(a[0], off[0]) - ldi(a[3], 0)), q = wrap32(ldi(a[1], off[1]) - ldi(a[5], 0));
		sti(&sum, i, wrap32(wmul(p, q)));
		step(r->rank, r->dims, idx, 2, off, st);
	}
	{
		float prod = (float)ldf(a[2], 0) * (float)ldf(a[4], 0);
		unsigned char sbuf[4], zbuf[4] = { 0, 0, 0, 0 };
		memset(&sc, 0, sizeof sc);
		sc.kind = RV_TENSOR;
		sc.dt = DT_FLOAT32;
		sc.n = 1;
		sc.data = sbuf;
		stf(&sc, 0, prod);
		zero = sc;
		zero.dt = DT_INT32;
		zero.data = zbuf;
		bad = rq(c, o, &sum, &sc, &zero, (float)ldf(a[6], 0), oz, -1, RQ_UPWARD, r);
	}
	ref_vdrop(&sum);
out:
	ref_vdrop(&l);
	ref_vdrop(&h);
	return bad;
}

/* qunary: qnn.sigmoid, qnn.tanh: dequantize, the float32 op, quantize */
static int
qunary(RefCtx *c, const RefOp *o, Args a, Val *r)
{
	float s = (float)ldf(a[1], 0), os = (float)ldf(a[3], 0);
	int32_t z = (int32_t)ldi(a[2], 0), oz = (int32_t)ldi(a[4], 0);
	const QRange *b = qrange(r->dt);

	ref_valloc(r);
	for (int64_t i = 0; i < r->n; i++) {
		float x = (float)(int32_t)wrap32(ldi(a[0], i) - z) * s, y;
		int64_t q;
		y = o->op == OP_QNN_SIGMOID ? 1.0f / (1.0f + expf(-x)) : tanhf(x);
		qone(0, 0, y, os, (float)oz, b, &q);
		sti(r, i, q);
	}
	return 0;
}

/* ---------------------------------------------------------------- data movement */

/* gather: fills r, row-major, with the elements of a at base + sum(idx[k]
** * st[k]) for r's multi-index idx */
static void
gather(Val *r, const Val *a, int64_t base, const int64_t *st)
{
	size_t esz = ir_dtype_bytes[r->dt];
	int64_t idx[MAXD] = { 0 }, off = base, sts[1][MAXD];

	memcpy(sts[0], st, (size_t)r->rank * sizeof st[0]);
	ref_valloc(r);
	for (int64_t i = 0; i < r->n; i++) {
		memcpy(r->data + (size_t)i * esz, a->data + (size_t)off * esz, esz);
		step(r->rank, r->dims, idx, 1, &off, sts);
	}
}

/* alias: r is a's data under r's shape (reshape, squeeze, expand_dims,
** batch_flatten, annotations) */
static int
alias(RefCtx *c, const RefOp *o, Args a, Val *r)
{
	if (a[0]->dt != r->dt || a[0]->n != r->n)
		return fail(c, o, "shape mismatch");
	r->data = a[0]->data;
	r->rc = a[0]->rc;
	if (r->rc)
		++*r->rc;
	return 0;
}

/* permute: r's axis k is a's axis axes[k], for the n axes of a */
static int
permute(RefCtx *c, const RefOp *o, Args a, Val *r, int64_t *axes, int n)
{
	int64_t ast[MAXD], st[MAXD];
	int seen[MAXD] = { 0 };

	if (n != a[0]->rank)
		return fail(c, o, "bad axes");
	ref_strides(a[0]->dims, a[0]->rank, ast);
	for (int k = 0; k < n; k++) {
		if (!normaxis(&axes[k], n) || seen[axes[k]]++ || a[0]->dims[axes[k]] != r->dims[k])
			return fail(c, o, "bad axes");
		st[k] = ast[axes[k]];
	}
	gather(r, a[0], 0, st);
	return 0;
}

/* transpose: axes, a permutation, or None for reversal */
static int
transpose(RefCtx *c, const RefOp *o, Args a, Val *r)
{
	int64_t axes[MAXD];
	int n = ints(c, o, "axes", axes, MAXD);

	if (n < 0) {
		n = a[0]->rank;
		for (int k = 0; k < n; k++)
			axes[k] = n - 1 - k;
	}
	return permute(c, o, a, r, axes, n);
}

/* einsum: every combination of the letters' indices, the product of the
** inputs there summed into the output, in double, rounded once */
static int
einsum(RefCtx *c, const RefOp *o, Args a, Val *r)
{
	const Val *t = a[0];
	int ranks[IR_EINSUM_MAX];
	int64_t size[IR_EINSUM_MAX * IR_EINSUM_RANK], idx[IR_EINSUM_MAX * IR_EINSUM_RANK] = { 0 };
	int64_t st[IR_EINSUM_MAX][IR_EINSUM_MAX * IR_EINSUM_RANK], ost[IR_EINSUM_MAX * IR_EINSUM_RANK];
	double *acc;
	IrEinsum e;
	const char *why;

	if (t->kind != RV_TUPLE || t->nf == 0 || t->nf > IR_EINSUM_MAX || !isflt(r->dt))
		return fail(c, o, "bad operands");
	for (uint32_t i = 0; i < t->nf; i++)
		ranks[i] = t->f[i].rank;
	if (!ir_einsum(astr(c, o, "equation"), t->nf, ranks, &e, &why))
		return fail(c, o, why);
	memset(st, 0, sizeof st);
	memset(ost, 0, sizeof ost);
	for (uint32_t l = 0; l < e.nlet; l++)
		size[l] = 1;
	for (uint32_t i = 0; i < t->nf; i++) {
		int64_t s = 1;
		for (int k = e.rank[i]; k-- > 0;) {
			size[e.in[i][k]] = t->f[i].dims[k];
			st[i][e.in[i][k]] += s;
			s *= t->f[i].dims[k];
		}
	}
	{
		int64_t s = 1;
		for (int k = e.nout; k-- > 0;) {
			ost[e.out[k]] += s;
			s *= r->dims[k];
		}
	}
	acc = ir_xcalloc((size_t)(r->n ? r->n : 1), sizeof *acc);
	for (int done = 0; !done;) {
		double p = 1;
		int64_t off = 0;
		for (uint32_t i = 0; i < t->nf; i++) {
			int64_t fo = 0;
			for (uint32_t l = 0; l < e.nlet; l++)
				fo += idx[l] * st[i][l];
			p *= ldf(&t->f[i], fo);
		}
		for (uint32_t l = 0; l < e.nlet; l++)
			off += idx[l] * ost[l];
		acc[off] += p;
		done = 1;
		for (uint32_t l = e.nlet; l-- > 0;) {
			if (++idx[l] < size[l]) {
				done = 0;
				break;
			}
			idx[l] = 0;
		}
		for (uint32_t l = 0; l < e.nlet; l++)
			if (size[l] == 0)
				done = 1;       /* an empty axis: nothing to sum */
	}
	ref_valloc(r);
	for (int64_t i = 0; i < r->n; i++)
		stf(r, i, acc[i]);
	free(acc);
	return 0;
}

/* layouttransform: layout_transform, a permutation its layouts name */
static int
layouttransform(RefCtx *c, const RefOp *o, Args a, Val *r)
{
	int64_t axes[MAXD];
	const char *why;
	int n = ir_layout_axes(astr(c, o, "src_layout"), astr(c, o, "dst_layout"), axes, MAXD, &why);

	return n < 0 ? fail(c, o, why) : permute(c, o, a, r, axes, n);
}

/* slice: strided_slice with begin, end, strides, axes and slice_mode */
static int
slice(RefCtx *c, const RefOp *o, Args a, Val *r)
{
	const Val *x = a[0];
	const char *mode = astr(c, o, "slice_mode");
	int64_t b[MAXD], en[MAXD], s[MAXD], ax[MAXD], ast[MAXD], st[MAXD], base = 0;
	int nb = ints(c, o, "begin", b, MAXD), ne = ints(c, o, "end", en, MAXD);
	int ns = ints(c, o, "strides", s, MAXD), na = ints(c, o, "axes", ax, MAXD), size;
	int touched[MAXD] = { 0 };

	if (nb < 0 || ne < 0 || x->rank != r->rank)
		return fail(c, o, "bad attributes");
	size = mode[0] == 's';
	if (ns < 0)
		ns = 0;
	if (na >= 0) {
		for (int k = ns; k < na; k++)
			s[k] = 1;
		if (nb != na || ne != na || (ns != na && ns != 0))
			return fail(c, o, "bad attributes");
		for (int k = 0; k < na; k++)
			if (!normaxis(&ax[k], x->rank))
				return fail(c, o, "bad axes");
	} else {
		if (nb > x->rank || ne > x->rank || ns > x->rank)
			return fail(c, o, "bad attributes");
		for (int k = ns; k < x->rank; k++)
			s[k] = 1;
		for (int k = nb; k < x->rank; k++)
			b[k] = s[k] > 0 ? 0 : INT64_MAX;
		for (int k = ne; k < x->rank; k++)
			en[k] = s[k] < 0 ? 0 : INT64_MAX;
		na = x->rank;
		for (int k = 0; k < na; k++)
			ax[k] = k;
	}
	ref_strides(x->dims, x->rank, ast);
	memcpy(st, ast, (size_t)x->rank * sizeof st[0]);
	for (int k = 0; k < na; k++) {
		int64_t stp = size ? 1 : s[k], n = x->dims[ax[k]], end = en[k], l, h, mag;
		if (stp == 0 || stp == INT64_MIN || touched[ax[k]]++)
			return fail(c, o, "bad strides");
		if (size)
			end = end < 0 ? INT64_MAX : (b[k] > 0 && end > INT64_MAX - b[k] ? INT64_MAX : b[k] + end);
		l = ir_slice_index(b[k], n, stp);
		h = ir_slice_index(end, n, stp);
		mag = stp < 0 ? -stp : stp;
		if ((stp < 0 ? h > l : l > h) ||
		    ((l > h ? l - h : h - l) + mag - 1) / mag != r->dims[ax[k]])
			return fail(c, o, "shape mismatch");
		if (r->dims[ax[k]] > 0) {
			base += l * ast[ax[k]];
			st[ax[k]] = stp * ast[ax[k]];
		}
	}
	for (int k = 0; k < x->rank; k++)
		if (!touched[k] && x->dims[k] != r->dims[k])
			return fail(c, o, "shape mismatch");
	gather(r, x, base, st);
	return 0;
}

/* pad: nn.pad(data, pad_value) in constant, edge or reflect mode */
static int
pad(RefCtx *c, const RefOp *o, Args a, Val *r)
{
	const Module *m = c->m;
	const Val *x = a[0], *pv = a[1];
	const AttrVal *pw = attr(c, o, "pad_width");
	const char *mode = astr(c, o, "pad_mode");
	int64_t before[MAXD], ast[MAXD], idx[MAXD] = { 0 }, nost[1][MAXD], none = 0;
	size_t esz = ir_dtype_bytes[x->dt];
	Val fill;
	unsigned char fillbuf[8];
	int md, filled = 0;

	if (pv->n != 1 || x->rank != r->rank || !pw || pw->kind != AV_ARRAY || pw->n != x->rank)
		return fail(c, o, "bad operands");
	md = !strcmp(mode, "edge") ? 1 : !strcmp(mode, "reflect") ? 2 : 0;
	for (int k = 0; k < x->rank; k++) {
		const AttrVal *p = &m->attrs[pw->first + (uint32_t)k];
		int64_t l, h;
		if (p->kind != AV_ARRAY || p->n != 2)
			return fail(c, o, "bad pad_width");
		l = m->attrs[p->first].u.i;
		h = m->attrs[p->first + 1].u.i;
		if (x->dims[k] + l + h != r->dims[k])
			return fail(c, o, "bad pad_width");
		if (md && (l < 0 || h < 0 || (x->dims[k] == 0 && l + h > 0) ||
		           (md == 2 && (l >= x->dims[k] || h >= x->dims[k]) && l + h > 0)))
			return fail(c, o, "pad_width does not fit %s mode", mode);
		before[k] = l;
	}
	memset(&fill, 0, sizeof fill);
	fill.kind = RV_TENSOR;
	fill.dt = x->dt;
	fill.n = 1;
	fill.data = fillbuf;
	ref_strides(x->dims, x->rank, ast);
	memset(nost, 0, sizeof nost);
	ref_valloc(r);
	for (int64_t i = 0; i < r->n; i++) {
		int64_t off = 0;
		int in = 1;
		for (int k = 0; k < x->rank; k++) {
			int64_t s = idx[k] - before[k], n = x->dims[k];
			if (s < 0 || s >= n) {
				if (md == 0)
					in = 0;
				else if (md == 1)
					s = s < 0 ? 0 : n - 1;
				else
					s = s < 0 ? -s : 2 * (n - 1) - s;
			}
			off += s * ast[k];
		}
		if (!in && !filled++ && !conv(c->exact, pv, 0, &fill, 0))
			return 1;
		memcpy(r->data + (size_t)i * esz, in ? x->data + (size_t)off * esz : fillbuf, esz);
		step(r->rank, r->dims, idx, 1, &none, nost);
	}
	return 0;
}

/* concat: the n tensors f[] along axis into r */
static int
concat(RefCtx *c, const RefOp *o, const Val *const *f, uint32_t n, int64_t axis, Val *r)
{
	int64_t out, in, done = 0;
	size_t esz = ir_dtype_bytes[r->dt];

	if (!n || !normaxis(&axis, r->rank))
		return fail(c, o, "bad axis");
	for (uint32_t j = 0; j < n; j++) {
		if (f[j]->kind != RV_TENSOR || f[j]->dt != r->dt || f[j]->rank != r->rank)
			return fail(c, o, "bad operand");
		for (int k = 0; k < r->rank; k++)
			if (k != axis && f[j]->dims[k] != r->dims[k])
				return fail(c, o, "bad operand");
		done += f[j]->dims[axis];
	}
	if (done != r->dims[axis])
		return fail(c, o, "bad operand");
	out = outer(r, (int)axis);
	in = inner(r, (int)axis);
	ref_valloc(r);
	done = 0;
	for (uint32_t j = 0; j < n; j++) {
		size_t chunk = (size_t)(f[j]->dims[axis] * in) * esz;
		for (int64_t k = 0; k < out; k++)
			memcpy(r->data + (size_t)((k * r->dims[axis] + done) * in) * esz,
			       f[j]->data + (size_t)k * chunk, chunk);
		done += f[j]->dims[axis];
	}
	return 0;
}

/* concatenate: the tensors of the tuple operand along axis */
static int
concatenate(RefCtx *c, const RefOp *o, Args a, Val *r)
{
	const Val *t = a[0];
	const Val **f;
	int bad;

	if (t->kind != RV_TUPLE)
		return fail(c, o, "not a tuple");
	f = ir_xmalloc((t->nf ? t->nf : 1) * sizeof *f);
	for (uint32_t j = 0; j < t->nf; j++)
		f[j] = &t->f[j];
	bad = concat(c, o, f, t->nf, aint(c, o, "axis", 0), r);
	free(f);
	return bad;
}

/* qconcat: qnn.concatenate(data, input_scales, input_zero_points,
** output_scale, output_zero_point) */
static int
qconcat(RefCtx *c, const RefOp *o, Args a, Val *r)
{
	const Val *t = a[0], *ss = a[1], *zs = a[2];
	Val *q;
	const Val **f;
	int bad = 1;
	uint32_t n = t->nf, done = 0;

	if (t->kind != RV_TUPLE || ss->kind != RV_TUPLE || zs->kind != RV_TUPLE || ss->nf != n || zs->nf != n)
		return fail(c, o, "bad operands");
	q = ir_xcalloc(n ? n : 1, sizeof *q);
	f = ir_xmalloc((n ? n : 1) * sizeof *f);
	for (; done < n; done++) {
		const Val *x = &t->f[done];
		if (samescalar(&ss->f[done], a[3]) && samescalar(&zs->f[done], a[4])) {
			ref_vcopy(&q[done], x);
		} else {
			q[done] = *x;
			q[done].data = NULL;
			q[done].rc = NULL;
			if (rq(c, o, x, &ss->f[done], &zs->f[done], (float)ldf(a[3], 0), (int32_t)ldi(a[4], 0), -1, RQ_UPWARD,
			       &q[done]))
				goto out;
		}
		f[done] = &q[done];
	}
	bad = concat(c, o, f, n, aint(c, o, "axis", 0), r);
out:
	for (uint32_t j = 0; j < done; j++)
		ref_vdrop(&q[j]);
	free(q);
	free(f);
	return bad;
}

/* split: the parts of data along axis, a tuple of the call's type */
static int
split(RefCtx *c, const RefOp *o, Args a, Val *r)
{
	const Module *m = c->m;
	const Type *tt = ir_type(m, o->type);
	const Val *x = a[0];
	const AttrVal *ios = attr(c, o, "indices_or_sections");
	int64_t axis = aint(c, o, "axis", 0), out, in, begin = 0;
	size_t esz = ir_dtype_bytes[x->dt];
	uint32_t nf;

	if (!ios || tt->kind != TY_TUPLE || !tt->n || !normaxis(&axis, x->rank))
		return fail(c, o, "bad attributes");
	nf = tt->n;
	if (ios->kind == AV_INT ? ios->u.i != (int64_t)nf : ios->kind != AV_ARRAY || ios->n + 1 != nf)
		return fail(c, o, "bad indices_or_sections");
	out = outer(x, (int)axis);
	in = inner(x, (int)axis);
	r->kind = RV_TUPLE;
	r->nf = nf;
	r->f = ir_xcalloc(nf, sizeof *r->f);
	for (uint32_t j = 0; j < nf; j++) {
		Val *p = &r->f[j];
		int64_t want = ios->kind == AV_INT ? begin + x->dims[axis] / (int64_t)nf
		             : j + 1 < nf ? m->attrs[ios->first + j].u.i : x->dims[axis];
		if (!ref_vshape(m, m->tylist[tt->first + j], p) || p->dt != x->dt || p->rank != x->rank ||
		    p->dims[axis] != want - begin || want > x->dims[axis])
			return fail(c, o, "shape mismatch");
		ref_valloc(p);
		for (int64_t k = 0; k < out; k++)
			memcpy(p->data + (size_t)(k * p->dims[axis] * in) * esz,
			       x->data + (size_t)((k * x->dims[axis] + begin) * in) * esz,
			       (size_t)(p->dims[axis] * in) * esz);
		begin = want;
	}
	return 0;
}

/* depth2space: nn.depth_to_space, DCR or CDR (TVM's name for ONNX's CRD), in any NCHW permutation */
static int
depth2space(RefCtx *c, const RefOp *o, Args a, Val *r)
{
	const Val *x = a[0];
	int64_t b = aint(c, o, "block_size", 1), xs[MAXD], ost[MAXD], cc;
	int pos[4], crd = strcmp(astr(c, o, "mode"), "CDR") == 0;
	size_t esz = ir_dtype_bytes[x->dt];

	if (!ir_layout_perm(astr(c, o, "layout"), "NCHW", pos) || x->rank != 4)
		return fail(c, o, "bad layout");
	ref_strides(x->dims, 4, xs);
	ref_strides(r->dims, 4, ost);
	cc = r->dims[pos[1]];
	ref_valloc(r);
	for (int64_t n = 0; n < r->dims[pos[0]]; n++)
		for (int64_t ch = 0; ch < cc; ch++)
			for (int64_t y = 0; y < r->dims[pos[2]]; y++)
				for (int64_t xx = 0; xx < r->dims[pos[3]]; xx++) {
					int64_t i = y % b, j = xx % b;
					int64_t ic = crd ? ch * b * b + i * b + j : (i * b + j) * cc + ch;
					int64_t src = n * xs[pos[0]] + ic * xs[pos[1]] + (y / b) * xs[pos[2]] +
					              (xx / b) * xs[pos[3]];
					int64_t dst = n * ost[pos[0]] + ch * ost[pos[1]] + y * ost[pos[2]] + xx * ost[pos[3]];
					memcpy(r->data + (size_t)dst * esz, x->data + (size_t)src * esz, esz);
				}
	return 0;
}

/* ---------------------------------------------------------------- convolution */

/* Acc: an accumulator in the dtype of a reduction: integers wrap in 64
** bits (wrapped to the dtype at the end, which is the same modulo 2^bits),
** floats round to the dtype after each step. */
typedef struct Acc {
	int dt;
	int64_t i;
	double f;
} Acc;

/* accmac: a += x * w: floats xf, wf rounded to the dtype, integers xi, wi wrapping */
static void
accmac(Acc *a, double xf, double wf, int64_t xi, int64_t wi)
{
	if (isflt(a->dt))
		a->f = rnd(a->dt, a->f + rnd(a->dt, xf * wf));
	else
		a->i = wadd(a->i, wmul(xi, wi));
}

/* accput: stores accumulator a into element j of r */
static void
accput(Val *r, int64_t j, const Acc *a)
{
	if (isflt(r->dt))
		stf(r, j, a->f);
	else
		sti(r, j, a->i);
}

/* Operand of a product: its value as the accumulator's dtype, less a zero
** point for the quantized ops. */
static double
opf(const Val *v, int64_t i, int dt)
{
	return rnd(dt, ldd(v, i));
}

/* kzp: the kernel zero point of output channel oc (NULL: none) */
static int64_t
kzp(const Val *z, int64_t oc)
{
	return !z ? 0 : z->n == 1 ? ldi(z, 0) : ldi(z, oc);
}

/* Win: a 2-D convolution's window, and the dims and strides of its data
** x, weight w and result r in reference order: N, C, H, W for x and r,
** the kernel reference layout's four letters for w */
typedef struct Win {
	int64_t st[2], dil[2], p[4];
	int64_t xd[4], wd[4], od[4];
	int64_t xs[4], ws[4], os[4];
} Win;

/* win: v for the convolution o of x by w into r, its kernel layout read
** against kref ("OIHW", or "IOHW" for a transposed one); 0, or fail()'s
** value */
static int
win(RefCtx *c, const RefOp *o, const Val *x, const Val *w, const Val *r, const char *kref, Win *v)
{
	const char *ol = astr(c, o, "out_layout");
	int dp[4], kp[4], op[4];
	int64_t xst[MAXD], wst[MAXD], rst[MAXD];

	if (!ir_layout_perm(astr(c, o, "data_layout"), "NCHW", dp) || !ir_layout_perm(astr(c, o, "kernel_layout"), kref, kp) ||
	    !ir_layout_perm(*ol ? ol : astr(c, o, "data_layout"), "NCHW", op))
		return fail(c, o, "bad layout");
	pair(c, o, "strides", v->st, 1);
	pair(c, o, "dilation", v->dil, 1);
	pad4(c, o, v->p);
	ref_strides(x->dims, 4, xst);
	ref_strides(w->dims, 4, wst);
	ref_strides(r->dims, 4, rst);
	for (int k = 0; k < 4; k++) {
		v->xd[k] = x->dims[dp[k]], v->xs[k] = xst[dp[k]];
		v->wd[k] = w->dims[kp[k]], v->ws[k] = wst[kp[k]];
		v->od[k] = r->dims[op[k]], v->os[k] = rst[op[k]];
	}
	return 0;
}

/* conv2d: nn.conv2d and qnn.conv2d (izp, kzv: the zero points, or NULL) */
static int
conv2d(RefCtx *c, const RefOp *o, Args a, Val *r)
{
	const Val *x = a[0], *w = a[1], *kz = o->op == OP_QNN_CONV2D ? a[3] : NULL;
	int64_t izp = o->op == OP_QNN_CONV2D ? ldi(a[2], 0) : 0;
	Win v;
	const int64_t *st = v.st, *dil = v.dil, *p = v.p, *xs = v.xs, *ws = v.ws, *os = v.os;
	int64_t N, C, H, W, OC, OH, OW, KO, KI, KH, KW, groups = aint(c, o, "groups", 1), ocpg, dwm = 0;
	int e;

	if ((e = win(c, o, x, w, r, "OIHW", &v)))
		return e;
	N = v.xd[0], C = v.xd[1], H = v.xd[2], W = v.xd[3];
	KO = v.wd[0], KI = v.wd[1], KH = v.wd[2], KW = v.wd[3];
	OC = v.od[1], OH = v.od[2], OW = v.od[3];
	if (KO != OC) {
		/* depthwise with a multiplier: weight (C, M, kh, kw) */
		if (!(groups == C && KO == C && KO * KI == OC))
			return fail(c, o, "weight shape");
		dwm = KI;
	} else if (groups < 1 || C % groups || OC % groups || KI != C / groups) {
		return fail(c, o, "weight shape");
	}
	ocpg = OC / groups;
	ref_valloc(r);
	for (int64_t n = 0; n < N; n++)
	for (int64_t oc = 0; oc < OC; oc++) {
		int64_t kzero = kzp(kz, oc), ic0, nic, wo, wi0;
		if (dwm) {
			ic0 = oc / dwm, nic = 1, wo = oc / dwm, wi0 = oc % dwm;
		} else {
			ic0 = (oc / ocpg) * KI, nic = KI, wo = oc, wi0 = 0;
		}
		for (int64_t oh = 0; oh < OH; oh++)
		for (int64_t ow = 0; ow < OW; ow++) {
			Acc acc = { r->dt, 0, 0.0 };
			for (int64_t i = 0; i < nic; i++)
			for (int64_t kh = 0; kh < KH; kh++)
			for (int64_t kw = 0; kw < KW; kw++) {
				int64_t ih = oh * st[0] - p[0] + kh * dil[0], iw = ow * st[1] - p[1] + kw * dil[1];
				int64_t wj = wo * ws[0] + (wi0 + i) * ws[1] + kh * ws[2] + kw * ws[3];
				int inside = ih >= 0 && ih < H && iw >= 0 && iw < W;
				int64_t xj = n * xs[0] + (ic0 + i) * xs[1] + ih * xs[2] + iw * xs[3];
				if (isflt(r->dt))
					accmac(&acc, inside ? opf(x, xj, r->dt) : 0.0, opf(w, wj, r->dt), 0, 0);
				else if (inside)
					accmac(&acc, 0, 0, ldi(x, xj) - izp, ldi(w, wj) - kzero);
			}
			accput(r, n * os[0] + oc * os[1] + oh * os[2] + ow * os[3], &acc);
		}
	}
	return 0;
}

/* deconv2d: nn.conv2d_transpose and qnn.conv2d_transpose, as a gather:
** out[y] takes in[(y + pad - k * dil) / stride] where that divides */
static int
deconv2d(RefCtx *c, const RefOp *o, Args a, Val *r)
{
	int q = o->op == OP_QNN_CONV2D_TRANSPOSE;
	const Val *x = a[0], *w = a[1], *kz = q ? a[3] : NULL;
	int64_t izp = q ? ldi(a[2], 0) : 0;
	Win v;
	const int64_t *st = v.st, *dil = v.dil, *p = v.p, *xs = v.xs, *ws = v.ws, *os = v.os;
	int64_t N, C, H, W, OC, OH, OW, KI, KO, KH, KW, groups = aint(c, o, "groups", 1), icpg;
	int e;

	if ((e = win(c, o, x, w, r, "IOHW", &v)))
		return e;
	N = v.xd[0], C = v.xd[1], H = v.xd[2], W = v.xd[3];
	KI = v.wd[0], KO = v.wd[1], KH = v.wd[2], KW = v.wd[3];
	OC = v.od[1], OH = v.od[2], OW = v.od[3];
	if (groups < 1 || KI != C || C % groups || KO * groups != OC)
		return fail(c, o, "weight shape");
	icpg = C / groups;
	ref_valloc(r);
	for (int64_t n = 0; n < N; n++)
	for (int64_t oc = 0; oc < OC; oc++) {
		int64_t g = oc / KO, ol_ = oc % KO, kzero = kzp(kz, oc);
		for (int64_t oh = 0; oh < OH; oh++)
		for (int64_t ow = 0; ow < OW; ow++) {
			Acc acc = { r->dt, 0, 0.0 };
			for (int64_t i = 0; i < icpg; i++)
			for (int64_t kh = 0; kh < KH; kh++)
			for (int64_t kw = 0; kw < KW; kw++) {
				int64_t th = oh + p[0] - kh * dil[0], tw = ow + p[1] - kw * dil[1], ih, iw, ic, xj, wj;
				if (th < 0 || tw < 0 || th % st[0] || tw % st[1])
					continue;
				ih = th / st[0], iw = tw / st[1];
				if (ih >= H || iw >= W)
					continue;
				ic = g * icpg + i;
				xj = n * xs[0] + ic * xs[1] + ih * xs[2] + iw * xs[3];
				wj = ic * ws[0] + ol_ * ws[1] + kh * ws[2] + kw * ws[3];
				if (isflt(r->dt))
					accmac(&acc, opf(x, xj, r->dt), opf(w, wj, r->dt), 0, 0);
				else
					accmac(&acc, 0, 0, ldi(x, xj) - izp, ldi(w, wj) - kzero);
			}
			accput(r, n * os[0] + oc * os[1] + oh * os[2] + ow * os[3], &acc);
		}
	}
	return 0;
}

/* dense: nn.dense and qnn.dense, (..., K) x (N, K) */
static int
dense(RefCtx *c, const RefOp *o, Args a, Val *r)
{
	const Val *x = a[0], *w = a[1], *kz = o->op == OP_QNN_DENSE ? a[3] : NULL;
	int64_t izp = o->op == OP_QNN_DENSE ? ldi(a[2], 0) : 0;
	int64_t K = x->dims[x->rank - 1], U = w->dims[0], rows = K ? x->n / K : r->n / (U ? U : 1);

	ref_valloc(r);
	for (int64_t i = 0; i < rows; i++)
		for (int64_t u = 0; u < U; u++) {
			Acc acc = { r->dt, 0, 0.0 };
			int64_t kzero = kzp(kz, u);
			for (int64_t k = 0; k < K; k++) {
				if (isflt(r->dt))
					accmac(&acc, opf(x, i * K + k, r->dt), opf(w, u * K + k, r->dt), 0, 0);
				else
					accmac(&acc, 0, 0, ldi(x, i * K + k) - izp, ldi(w, u * K + k) - kzero);
			}
			accput(r, i * U + u, &acc);
		}
	return 0;
}

/* batchmatmul: nn.batch_matmul, (B, I, K) x (B, K, J) with the transpose
** flags, a batch of 1 broadcast */
static int
batchmatmul(RefCtx *c, const RefOp *o, Args a, Val *r)
{
	const Val *x = a[0], *y = a[1];
	int ta = aint(c, o, "transpose_a", 0) != 0, tb = aint(c, o, "transpose_b", 0) != 0;
	int64_t B = r->dims[0], I = r->dims[1], J = r->dims[2], K = x->dims[ta ? 1 : 2];

	ref_valloc(r);
	for (int64_t b = 0; b < B; b++) {
		int64_t xb = x->dims[0] == 1 ? 0 : b, yb = y->dims[0] == 1 ? 0 : b;
		for (int64_t i = 0; i < I; i++)
			for (int64_t j = 0; j < J; j++) {
				Acc acc = { r->dt, 0, 0.0 };
				for (int64_t k = 0; k < K; k++) {
					int64_t xi = xb * x->dims[1] * x->dims[2] + (ta ? k * I + i : i * K + k);
					int64_t yi = yb * y->dims[1] * y->dims[2] + (tb ? j * K + k : k * J + j);
					if (isflt(r->dt))
						accmac(&acc, opf(x, xi, r->dt), opf(y, yi, r->dt), 0, 0);
					else
						accmac(&acc, 0, 0, ldi(x, xi), ldi(y, yi));
				}
				accput(r, (b * I + i) * J + j, &acc);
			}
	}
	return 0;
}

/* ---------------------------------------------------------------- pooling and reductions */

/* hwpos: the positions of H and W in a pooling layout such as NCHW16c */
static int
hwpos(const char *layout, int rank, int *hp, int *wp)
{
	int n = 0;

	*hp = *wp = -1;
	for (const char *s = layout; *s; s++) {
		if (*s >= '0' && *s <= '9')
			continue;
		if (*s == 'H')
			*hp = n;
		if (*s == 'W')
			*wp = n;
		n++;
	}
	return n == rank && *hp >= 0 && *wp >= 0;
}

/* avgput: the average of sum over cnt taps in r's dtype (integers wrap
** the sum to the dtype, then divide truncating) */
static void
avgput(Val *r, int64_t j, const Acc *a, int64_t cnt)
{
	if (cnt < 1)
		cnt = 1;
	if (isflt(r->dt))
		stf(r, j, rnd(r->dt, a->f / rnd(r->dt, (double)cnt)));
	else
		sti(r, j, wrap(r->dt, a->i) / cnt);
}

/* pool2d: nn.max_pool2d and nn.avg_pool2d over H and W of any layout */
static int
pool2d(RefCtx *c, const RefOp *o, Args a, Val *r)
{
	const Val *x = a[0];
	int hp, wp, avg = o->op == OP_NN_AVG_POOL2D, incl = (int)aint(c, o, "count_include_pad", 0);
	int64_t ps[2], st[2], dil[2], p[4], xst[MAXD], idx[MAXD] = { 0 }, H, W;

	if (!hwpos(astr(c, o, "layout"), x->rank, &hp, &wp))
		return fail(c, o, "bad layout");
	pair(c, o, "pool_size", ps, 1);
	pair(c, o, "strides", st, 1);
	pair(c, o, "dilation", dil, 1);
	pad4(c, o, p);
	H = x->dims[hp], W = x->dims[wp];
	ref_strides(x->dims, x->rank, xst);
	ref_valloc(r);
	for (int64_t i = 0; i < r->n; i++) {
		int64_t base = 0, cnt = 0;
		Acc acc = { x->dt, 0, 0.0 };
		double mf = -INFINITY;
		int64_t mi = ir_dtype_min(x->dt);
		for (int k = 0; k < x->rank; k++)
			if (k != hp && k != wp)
				base += idx[k] * xst[k];
		for (int64_t kh = 0; kh < ps[0]; kh++)
		for (int64_t kw = 0; kw < ps[1]; kw++) {
			int64_t ih = idx[hp] * st[0] - p[0] + kh * dil[0], iw = idx[wp] * st[1] - p[1] + kw * dil[1];
			int inside = ih >= 0 && ih < H && iw >= 0 && iw < W, j;
			if (incl ? ih < H + p[2] && iw < W + p[3] : inside)
				cnt++;
			if (!inside)
				continue;
			j = base + ih * xst[hp] + iw * xst[wp];
			if (!avg && isflt(x->dt)) {
				double v = ldf(x, j);
				mf = v > mf ? v : mf;
			} else if (!avg) {
				int64_t v = ldi(x, j);
				mi = v > mi ? v : mi;
			} else if (isflt(x->dt)) {
				acc.f = rnd(x->dt, acc.f + ldf(x, j));
			} else {
				acc.i = wadd(acc.i, ldi(x, j));
			}
		}
		if (avg)
			avgput(r, i, &acc, cnt);
		else if (isflt(x->dt))
			stf(r, i, mf);
		else
			sti(r, i, mi);
		for (int k = r->rank - 1; k >= 0; k--) {
			if (++idx[k] < r->dims[k])
				break;
			idx[k] = 0;
		}
	}
	return 0;
}

/* globalpool: nn.global_avg_pool2d, the mean over H and W */
static int
globalpool(RefCtx *c, const RefOp *o, Args a, Val *r)
{
	const Val *x = a[0];
	int hp, wp;
	int64_t xst[MAXD], idx[MAXD] = { 0 };

	if (!hwpos(astr(c, o, "layout"), x->rank, &hp, &wp))
		return fail(c, o, "bad layout");
	ref_strides(x->dims, x->rank, xst);
	ref_valloc(r);
	for (int64_t i = 0; i < r->n; i++) {
		int64_t base = 0;
		Acc acc = { x->dt, 0, 0.0 };
		for (int k = 0; k < x->rank; k++)
			if (k != hp && k != wp)
				base += idx[k] * xst[k];
		for (int64_t h = 0; h < x->dims[hp]; h++)
			for (int64_t w = 0; w < x->dims[wp]; w++) {
				int64_t j = base + h * xst[hp] + w * xst[wp];
				if (isflt(x->dt))
					acc.f = rnd(x->dt, acc.f + ldf(x, j));
				else
					acc.i = wadd(acc.i, ldi(x, j));
			}
		avgput(r, i, &acc, x->dims[hp] * x->dims[wp]);
		for (int k = r->rank - 1; k >= 0; k--) {
			if (++idx[k] < r->dims[k])
				break;
			idx[k] = 0;
		}
	}
	return 0;
}

/* better: whether x replaces the running max (min) cur of an argmax
** (argmin) or max (min): a NaN wins and stays, the first of equals stays
** unless last (select_last_index) */
static int
better(int dt, int max, int last, const Val *v, int64_t off, const Acc *cur)
{
	if (isflt(dt)) {
		double x = ldf(v, off);
		if (isnan(cur->f))
			return 0;
		return isnan(x) || (max ? x > cur->f : x < cur->f) || (last && x == cur->f);
	} else {
		int64_t x = ldi(v, off);
		int gt = ir_dtype_kind[dt] == 'u' ? (uint64_t)x > (uint64_t)cur->i : x > cur->i;
		return (max ? gt : x != cur->i && !gt) || (last && x == cur->i);
	}
}

/* reduce: mean, sum, prod, max, min, argmax and argmin over axis (None:
** all), or all but axis with exclude, as TVM's: sums and products in the
** data's dtype (floats rounded at each step, integers wrapping), in
** row-major order of the reduced elements; an argmax or argmin is the
** row-major index among the reduced elements (int32), the first of equal
** ones unless select_last_index; max and min of nothing are the dtype's
** lowest and highest values */
static int
reduce(RefCtx *c, const RefOp *o, Args a, Val *r)
{
	const Val *x = a[0];
	int64_t ax[MAXD], xst[MAXD], kdims[MAXD], kst[MAXD], cnt = 1, idx[MAXD] = { 0 };
	int red[MAXD] = { 0 }, na = ints(c, o, "axis", ax, MAXD), nk = 0, exclude = (int)aint(c, o, "exclude", 0);
	int64_t rdims[MAXD], rst[MAXD];
	int nr = 0, op = o->op, dt = x->dt, arg = op == OP_ARGMAX || op == OP_ARGMIN;
	int max = op == OP_MAX || op == OP_ARGMAX, last = arg && aint(c, o, "select_last_index", 0);

	for (int k = 0; k < (na < 0 ? x->rank : na); k++) {
		int64_t v = na < 0 ? k : ax[k];
		if (!normaxis(&v, x->rank))
			return fail(c, o, "bad axis");
		red[v] = 1;
	}
	if (exclude && na >= 0)         /* no axis: all of them, as TVM */
		for (int k = 0; k < x->rank; k++)
			red[k] = !red[k];
	ref_strides(x->dims, x->rank, xst);
	for (int k = 0; k < x->rank; k++) {
		if (red[k]) {
			rdims[nr] = x->dims[k];
			rst[nr++] = xst[k];
			cnt *= x->dims[k];
		} else {
			kdims[nk] = x->dims[k];
			kst[nk++] = xst[k];
		}
	}
	ref_valloc(r);
	for (int64_t i = 0; i < r->n; i++) {
		int64_t base = 0, ridx[MAXD] = { 0 }, best = 0;
		Acc acc = { dt, op == OP_PROD, op == OP_PROD ? 1.0 : 0.0 };
		if (op == OP_MAX || op == OP_MIN) {
			if (isflt(dt))
				acc.f = op == OP_MAX ? -INFINITY : INFINITY;
			else
				acc.i = op == OP_MAX ? ir_dtype_min(dt) : ir_dtype_max(dt);
		}
		for (int k = 0; k < nk; k++)
			base += idx[k] * kst[k];
		for (int64_t j = 0; j < cnt; j++) {
			int64_t off = base;
			for (int k = 0; k < nr; k++)
				off += ridx[k] * rst[k];
			if (op == OP_MEAN || op == OP_SUM) {
				if (isflt(dt))
					acc.f = rnd(dt, acc.f + ldf(x, off));
				else
					acc.i = wadd(acc.i, ldi(x, off));
			} else if (op == OP_PROD) {
				if (isflt(dt))
					acc.f = rnd(dt, acc.f * ldf(x, off));
				else
					acc.i = wmul(acc.i, ldi(x, off));
			} else if (j == 0 || better(dt, max, last, x, off, &acc)) {
				acc.f = isflt(dt) ? ldf(x, off) : 0;
				acc.i = isflt(dt) ? 0 : ldi(x, off);
				best = j;
			}
			for (int k = nr - 1; k >= 0; k--) {
				if (++ridx[k] < rdims[k])
					break;
				ridx[k] = 0;
			}
		}
		if (op == OP_MEAN)
			avgput(r, i, &acc, cnt);
		else if (arg)
			sti(r, i, best);
		else if (isflt(dt))
			stf(r, i, acc.f);
		else
			sti(r, i, acc.i);
		for (int k = nk - 1; k >= 0; k--) {
			if (++idx[k] < kdims[k])
				break;
			idx[k] = 0;
		}
	}
	return 0;
}

/* softmax: exp(x - max) / sum along axis */
static int
softmax(RefCtx *c, const RefOp *o, Args a, Val *r)
{
	const Val *x = a[0];
	int64_t axis = aint(c, o, "axis", -1), out, in, len;

	if (!normaxis(&axis, x->rank))
		return fail(c, o, "bad axis");
	out = outer(x, (int)axis);
	in = inner(x, (int)axis);
	len = x->dims[axis];
	ref_valloc(r);
	for (int64_t b = 0; b < out; b++)
		for (int64_t j = 0; j < in; j++) {
			int64_t base = b * len * in + j;
			double mx = -INFINITY, sum = 0;
			for (int64_t k = 0; k < len; k++) {
				double v = ldf(x, base + k * in);
				mx = v > mx ? v : mx;
			}
			for (int64_t k = 0; k < len; k++) {
				double e = r->dt == DT_FLOAT64 ? exp(ldf(x, base + k * in) - mx)
				         : rnd(r->dt, expf((float)rnd(r->dt, ldf(x, base + k * in) - mx)));
				stf(r, base + k * in, e);
				sum = rnd(r->dt, sum + e);
			}
			for (int64_t k = 0; k < len; k++)
				stf(r, base + k * in, ldf(r, base + k * in) / sum);
		}
	return 0;
}

/* ---------------------------------------------------------------- resize */

/* srcpos: the input coordinate of output index i under mode */
static float
srcpos(const char *mode, int64_t i, int64_t in, int64_t out)
{
	float scale = (float)in / (float)out;

	if (!strcmp(mode, "align_corners"))
		return out > 1 ? (float)i * ((float)(in - 1) / (float)(out - 1)) : 0.0f;
	if (!strcmp(mode, "asymmetric"))
		return (float)i * scale;
	if (!strcmp(mode, "pytorch_half_pixel"))
		return out > 1 ? ((float)i + 0.5f) * scale - 0.5f : 0.0f;
	if (!strcmp(mode, "tf_half_pixel_for_nn"))
		return ((float)i + 0.5f) * scale;
	return ((float)i + 0.5f) * scale - 0.5f;     /* half_pixel */
}

/* clampi: v clamped to [0, n) */
static int64_t
clampi(int64_t v, int64_t n)
{
	return v < 0 ? 0 : v >= n ? n - 1 : v;
}

/* cubicw: TVM's cubic convolution weights of the 4 taps around fraction t
** (idx: the taps' indices; with exclude, taps outside [0, n) weigh 0 and
** the rest are renormalized) */
static void
cubicw(float t, float alpha, int exclude, int64_t idx0, int64_t n, float w[4])
{
	float t2 = t * t, t3 = t * t * t, sum = 0;

	w[0] = alpha * (t3 - 2 * t2 + t);
	w[1] = (alpha + 2) * t3 - (3 + alpha) * t2 + 1;
	w[2] = -(alpha + 2) * t3 + (3 + 2 * alpha) * t2 - alpha * t;
	w[3] = -alpha * t3 + alpha * t2;
	if (!exclude)
		return;
	for (int k = 0; k < 4; k++) {
		if (idx0 + k < 0 || idx0 + k > n - 1)
			w[k] = 0;
		sum += w[k];
	}
	for (int k = 0; k < 4; k++)
		w[k] = w[k] / sum;
}

/* ref_resize_mode: see ref.h */
const char *
ref_resize_mode(const Module *m, const AttrVal *attrs, RefResize *p)
{
	static const char *const modes[] = { "half_pixel", "align_corners", "asymmetric", "pytorch_half_pixel",
		"tf_half_pixel_for_nn" };
	static const char *const rms[] = { "", "round", "floor", "ceil", "round_prefer_floor", "round_prefer_ceil" };
	RefCtx c = { m, NULL, 0 };
	RefOp o = { OP_IMAGE_RESIZE2D, 1, (uint32_t)(attrs - m->attrs), 0, { 0 } };
	const char *method = astr(&c, &o, "method");
	int okm = 0, okr = 0;

	memset(p, 0, sizeof *p);
	p->coord = astr(&c, &o, "coordinate_transformation_mode");
	p->rounding = astr(&c, &o, "rounding_method");
	for (size_t k = 0; k < sizeof modes / sizeof *modes; k++)
		okm |= !strcmp(p->coord, modes[k]);
	for (size_t k = 0; k < sizeof rms / sizeof *rms; k++)
		okr |= !strcmp(p->rounding, rms[k]);
	if (!okm)
		return "coordinate_transformation_mode";
	if (!okr)
		return "rounding_method";
	if (!ir_layout_perm(astr(&c, &o, "layout"), "NCHW", p->pos))
		return "layout";
	if (!*p->rounding)
		p->rounding = !strcmp(p->coord, "align_corners") ? "round" : "floor";
	p->method = !strcmp(method, "nearest_neighbor") ? REF_RS_NEAREST : !strcmp(method, "cubic") ? REF_RS_CUBIC
	                                                                                            : REF_RS_LINEAR;
	p->taps = p->method == REF_RS_NEAREST ? 1 : p->method == REF_RS_CUBIC ? 4 : 2;
	p->alpha = (float)aflt(&c, &o, "cubic_alpha", -0.5);
	p->exclude = aint(&c, &o, "cubic_exclude", 0) != 0;
	return NULL;
}

/* ref_resize_taps: see ref.h.  The coordinate is srcpos()'s; nearest
** rounds it in float32 (round: halves away from zero; round_prefer_floor
** ceil(x - 0.5); round_prefer_ceil floor(x + 0.5)) */
void
ref_resize_taps(const RefResize *p, int64_t n, int64_t out, int64_t *idx, float *w)
{
	const char *rm = p->rounding;

	for (int64_t o = 0; o < out; o++, idx += p->taps, w += p->taps) {
		float f = srcpos(p->coord, o, n, out), x0 = floorf(f), t = f - x0;
		if (p->method == REF_RS_NEAREST) {
			float r = !strcmp(rm, "round") ? roundf(f) : !strcmp(rm, "round_prefer_floor") ? ceilf(f - 0.5f)
			        : !strcmp(rm, "round_prefer_ceil") ? floorf(f + 0.5f) : !strcmp(rm, "ceil") ? ceilf(f) : x0;
			idx[0] = clampi((int64_t)r, n);
			w[0] = 1;
		} else if (p->method == REF_RS_CUBIC) {
			cubicw(t, p->alpha, p->exclude, (int64_t)x0 - 1, n, w);
			for (int k = 0; k < 4; k++)
				idx[k] = clampi((int64_t)x0 + k - 1, n);
		} else {
			idx[0] = clampi((int64_t)x0, n);
			idx[1] = clampi((int64_t)x0 + 1, n);
			w[0] = 1.0f - t;
			w[1] = t;
		}
	}
}

/* stcast: float32 v into element i of r, converted to r's dtype as cast
** converts a float32 (topi's resize casts its float result to out_dtype) */
static void
stcast(Val *r, int64_t i, float v)
{
	unsigned char b[4];
	Val t = { .kind = RV_TENSOR, .dt = DT_FLOAT32, .n = 1, .data = b };

	stf(&t, 0, v);
	conv(0, &t, 0, r, i);
}

/* resize: image.resize2d, nearest_neighbor, linear or cubic, in any NCHW
** permutation, through the taps of ref_resize_taps() (ref.h); floats
** interpolate in float32, and the result is cast to out_dtype */
static int
resize(RefCtx *c, const RefOp *o, Args a, Val *r)
{
	const Val *x = a[0];
	RefResize p;
	int64_t xst[4], rst[4], *iy, *ix;
	int64_t H, W, OH, OW;
	float *wy, *wx;

	if (x->rank != 4 || ref_resize_mode(c->m, &c->m->attrs[o->attrs], &p))
		return fail(c, o, "bad layout");
	H = x->dims[p.pos[2]], W = x->dims[p.pos[3]], OH = r->dims[p.pos[2]], OW = r->dims[p.pos[3]];
	iy = ir_xcalloc((size_t)(OH * p.taps) + 1, sizeof *iy);
	ix = ir_xcalloc((size_t)(OW * p.taps) + 1, sizeof *ix);
	wy = ir_xcalloc((size_t)(OH * p.taps) + 1, sizeof *wy);
	wx = ir_xcalloc((size_t)(OW * p.taps) + 1, sizeof *wx);
	ref_resize_taps(&p, H, OH, iy, wy);
	ref_resize_taps(&p, W, OW, ix, wx);
	ref_strides(x->dims, 4, xst);
	ref_strides(r->dims, 4, rst);
	ref_valloc(r);
	for (int64_t n = 0; n < r->dims[p.pos[0]]; n++)
	for (int64_t ch = 0; ch < r->dims[p.pos[1]]; ch++)
	for (int64_t y = 0; y < OH; y++)
	for (int64_t xx = 0; xx < OW; xx++) {
		const int64_t *ty = iy + y * p.taps, *tx = ix + xx * p.taps;
		const float *vy = wy + y * p.taps, *vx = wx + xx * p.taps;
		int64_t base = n * xst[p.pos[0]] + ch * xst[p.pos[1]];
		int64_t dst = n * rst[p.pos[0]] + ch * rst[p.pos[1]] + y * rst[p.pos[2]] + xx * rst[p.pos[3]];
		float row[4], acc;
		if (p.method == REF_RS_NEAREST) {
			conv(0, x, base + ty[0] * xst[p.pos[2]] + tx[0] * xst[p.pos[3]], r, dst);
			continue;
		}
		for (int j = 0; j < p.taps; j++) {
			int64_t at = base + ty[j] * xst[p.pos[2]];
			if (p.method == REF_RS_CUBIC) {
				row[j] = 0;
				for (int i = 0; i < 4; i++)
					row[j] += (float)ldd(x, at + tx[i] * xst[p.pos[3]]) * vx[i];
			} else {
				row[j] = (float)ldd(x, at + tx[0] * xst[p.pos[3]]) * vx[0] +
				         (float)ldd(x, at + tx[1] * xst[p.pos[3]]) * vx[1];
			}
		}
		if (p.method == REF_RS_CUBIC) {
			acc = 0;
			for (int j = 0; j < 4; j++)
				acc += row[j] * vy[j];
		} else {
			acc = row[0] * vy[0] + row[1] * vy[1];
		}
		stcast(r, dst, acc);
	}
	free(iy);
	free(ix);
	free(wy);
	free(wx);
	return 0;
}

/* ---------------------------------------------------------------- the fold fast path */

/* scalarconst: the data of n if it is a one-element constant of dtype dt */
static inline const void *
scalarconst(const Module *m, NodeId n, DType dt)
{
	const Const *c;

	if (m->nodes[n].kind != NK_CONST)
		return NULL;
	c = &m->consts[m->nodes[n].aux];
	if (!c->data || m->types[c->type].dtype != dt || ir_type_numel(m, c->type) != 1)
		return NULL;
	return c->data;
}

/* quickquantize: the common fold, qnn.quantize of a float32 constant with
** a per-tensor scale and zero point, computed straight into the module's
** data with quantize()'s arithmetic.  Returns 1 with *data, 0 if the
** result is not exact (as quantize() would), or -1 if this is not that
** case (the general evaluator then takes it). */
int
ref_quickquantize_data(Module *m, NodeId n, void **data)
{
	const Node *nd = &m->nodes[n];
	const Node *xn;
	const Const *cx;
	const void *sp, *zp;
	int dt;
	float sc, z;
	int32_t zi;
	int64_t count;
	size_t nbytes;
	unsigned char *dst;

	if (nd->kind != NK_CALL || nd->op != OP_QNN_QUANTIZE || !nd->type)
		return -1;
	{
		/* TVM's rounding only; ONNX's goes the general way.  The op table
		   never changes: look the attribute's slot up once */
		static int at = -1;
		const AttrVal *rd;
		if (at < 0)
			at = ir_op_attr_index(OP_QNN_QUANTIZE, "rounding", 8);
		rd = &m->attrs[nd->aux + (uint32_t)at];
		if (rd->kind == AV_STR && rd->u.s != SYM_None)
			return -1;
	}
	xn = &m->nodes[ir_arg(m, n, 0)];
	if (xn->kind != NK_CONST || !(sp = scalarconst(m, ir_arg(m, n, 1), DT_FLOAT32)) ||
	    !(zp = scalarconst(m, ir_arg(m, n, 2), DT_INT32)))
		return -1;
	cx = &m->consts[xn->aux];
	dt = (DType)m->types[nd->type].dtype;
	count = ir_type_numel(m, nd->type);
	if (!cx->data || m->types[cx->type].dtype != DT_FLOAT32 || ir_type_numel(m, cx->type) != count ||
	    count < 0 || !isint(dt) || ir_dtype_bytes[dt] > 4)
		return -1;
	memcpy(&sc, sp, 4);
	memcpy(&zi, zp, 4);
	z = (float)zi;
	/* straight into the module's data; a refused fold gives it back */
	nbytes = (size_t)count * ir_dtype_bytes[dt];
	dst = ir_arena_raw(&m->data, nbytes);
	if (!qexact(cx->data, count, sc, z, dt, qrange(dt), dst)) {
		ir_arena_giveback(&m->data, dst, nbytes);
		return 0;
	}
	*data = dst;
	return 1;
}


/* ---------------------------------------------------------------- dispatch */

/* ref_op_exact: whether exact mode evaluates op (ref.h) */
int
ref_op_exact(OpId op)
{
	switch (op) {
	case OP_ADD: case OP_SUBTRACT: case OP_MULTIPLY: case OP_DIVIDE: case OP_MOD: case OP_FLOOR_MOD:
	case OP_NN_BIAS_ADD: case OP_CAST: case OP_CLIP: case OP_NN_RELU:
	case OP_QNN_QUANTIZE: case OP_QNN_DEQUANTIZE: case OP_QNN_REQUANTIZE:
	case OP_RESHAPE: case OP_SQUEEZE: case OP_EXPAND_DIMS:
	case OP_ANNOTATION_CAST_HINT: case OP_ANNOTATION_STOP_FUSION:
	case OP_TRANSPOSE: case OP_STRIDED_SLICE: case OP_NN_PAD: case OP_CONCATENATE: case OP_SPLIT:
	/* exact in every dtype (integer negative and abs refuse where they
	   wrap), so shape computations fold */
	case OP_NEGATIVE: case OP_ABS: case OP_FLOOR: case OP_CEIL: case OP_ROUND: case OP_SIGN:
	case OP_MAXIMUM: case OP_MINIMUM: case OP_WHERE:
	case OP_EQUAL: case OP_NOT_EQUAL: case OP_LESS: case OP_LESS_EQUAL: case OP_GREATER: case OP_GREATER_EQUAL:
	case OP_LOGICAL_AND: case OP_LOGICAL_OR: case OP_LOGICAL_NOT:
	case OP_MAX: case OP_MIN: case OP_ARGMAX: case OP_ARGMIN:
	case OP_TAKE: case OP_GATHER: case OP_ISNAN: case OP_ISINF: case OP_ISFINITE:
	case OP_BITWISE_AND: case OP_BITWISE_OR: case OP_BITWISE_XOR: case OP_BITWISE_NOT:
	case OP_LEFT_SHIFT: case OP_RIGHT_SHIFT:
	case OP_CUMSUM: case OP_CUMPROD:        /* integers: floats are refused */
	case OP_BROADCAST_TO:
		return 1;
	}
	return 0;
}

/* the C kernels of registered ops (kernel.h), by op - OP_COUNT */
static struct {
	graft_kernel *fn;
	char *sym;
} ckernels[IR_MAXOPS - OP_COUNT];

/* ref_ckernel_register: op's C kernel (ref.h) */
int
ref_ckernel_register(OpId op, graft_kernel *fn, const char *symbol, char *err, size_t nerr)
{
	const OpInfo *o;
	size_t n;

	if (op < OP_COUNT || op >= ir_op_count() || !fn) {
		snprintf(err, nerr, "a C kernel for an op that is not registered, or no kernel");
		return 0;
	}
	o = &ir_ops[op];
	if (ckernels[op - OP_COUNT].fn) {
		snprintf(err, nerr, "op %s has a kernel already", o->name);
		return 0;
	}
	n = symbol ? strspn(symbol, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") : 0;
	if (!n || symbol[n] || (symbol[0] >= '0' && symbol[0] <= '9') || strncmp(symbol, "graft_", 6) == 0) {
		snprintf(err, nerr, "op %s: its kernel's symbol '%s' is not a C identifier outside graft's own "
		         "graft_ names", o->name, symbol ? symbol : "");
		return 0;
	}
	for (int k = 0; k < o->nattrs; k++)
		if ((AT_TYPE(o->attrs[k].type) & ~AT_OPT) == AT_INTS2) {
			snprintf(err, nerr, "op %s: attribute %s is ints2, which C kernels are not passed", o->name,
			         o->attrs[k].name);
			return 0;
		}
	if (o->flags & OPF_TUPLE) {
		snprintf(err, nerr, "op %s returns a tuple: a C kernel computes one tensor", o->name);
		return 0;
	}
	ckernels[op - OP_COUNT].fn = fn;
	ckernels[op - OP_COUNT].sym = memcpy(ir_xmalloc(n + 1), symbol, n + 1);
	return 1;
}

/* ref_ckernel: op's C kernel and symbol (ref.h) */
graft_kernel *
ref_ckernel(OpId op, const char **symbol)
{
	if (op < OP_COUNT || op >= ir_op_count() || !ckernels[op - OP_COUNT].fn)
		return NULL;
	if (symbol)
		*symbol = ckernels[op - OP_COUNT].sym;
	return ckernels[op - OP_COUNT].fn;
}

/* ckernel: runs registered op o with its C kernel k */
static int
ckernel(RefCtx *c, const RefOp *o, graft_kernel *k, const RefVal *const *a, RefVal *r)
{
	graft_tensor *in = ir_xcalloc(o->nargs + 1, sizeof *in), out;
	graft_attr *ka = ir_xcalloc((size_t)ir_ops[o->op].nattrs + 1, sizeof *ka);
	void *mem = ir_kattrs(c->m, o->op, &c->m->attrs[o->attrs], ka);
	int rc;

	for (uint32_t i = 0; i < o->nargs; i++)
		in[i] = (graft_tensor){ a[i]->data, a[i]->dims, a[i]->rank, ir_kdtype((DType)a[i]->dt) };
	out = (graft_tensor){ r->data, r->dims, r->rank, ir_kdtype((DType)r->dt) };
	rc = k(in, o->nargs, &out, 1, ka);
	free(mem);
	free(ka);
	free(in);
	if (rc)
		return fail(c, o, "its kernel reported an error (it returned %d)", rc);
	return 0;
}

/* plugin: runs registered op o with its C kernel */
static int
plugin(RefCtx *c, const RefOp *o, const RefVal *const *a, RefVal *r)
{
	graft_kernel *k = ref_ckernel(o->op, NULL);

	if (!k)
		return fail(c, o, "no kernel");
	ref_valloc(r);
	return ckernel(c, o, k, a, r);
}

/* ref_op: runs op o on a[] into r (ref.h); r gets the shape of o's type first */
int
ref_op(RefCtx *c, const RefOp *o, const RefVal *const *a, RefVal *r)
{
	int bad;

	memset(r, 0, sizeof *r);
	for (uint32_t i = 0; i < o->nargs; i++)
		if (a[i]->kind != RV_TENSOR && o->op != OP_CONCATENATE && o->op != OP_QNN_CONCATENATE && o->op != OP_EINSUM)
			return fail(c, o, "operand %u is not a tensor", i);
	if (o->op != OP_SPLIT && o->op != OP_NN_BATCH_NORM && !ref_vshape(c->m, o->type, r))
		return fail(c, o, "the result is not a tensor of known shape");
	switch (o->op) {
	case OP_BITWISE_AND: case OP_BITWISE_OR: case OP_BITWISE_XOR: case OP_LEFT_SHIFT: case OP_RIGHT_SHIFT:
		bad = bitwise(c, o, a, r);
		break;
	case OP_BITWISE_NOT: bad = bitwisenot(c, o, a, r); break;
	case OP_CUMSUM: case OP_CUMPROD: bad = scan(c, o, a, r); break;
	case OP_BROADCAST_TO: bad = broadcastto(c, o, a, r); break;
	case OP_NN_BIAS_ADD: bad = biasadd(c, o, a, r); break;
	case OP_CAST: bad = cast(c, o, a, r); break;
	case OP_ISNAN: case OP_ISINF: case OP_ISFINITE: bad = classify(c, o, a, r); break;
	case OP_QNN_QUANTIZE: bad = quantize(c, o, a, r); break;
	case OP_QNN_DEQUANTIZE: bad = dequantize(c, o, a, r); break;
	case OP_QNN_REQUANTIZE: bad = requantize(c, o, a, r); break;
	case OP_QNN_ADD: case OP_QNN_MUL: bad = qbinary(c, o, a, r); break;
	case OP_QNN_SIGMOID: case OP_QNN_TANH: bad = qunary(c, o, a, r); break;
	case OP_QNN_CONCATENATE: bad = qconcat(c, o, a, r); break;
	case OP_QNN_CONV2D: case OP_NN_CONV2D: bad = conv2d(c, o, a, r); break;
	case OP_QNN_CONV2D_TRANSPOSE: case OP_NN_CONV2D_TRANSPOSE: bad = deconv2d(c, o, a, r); break;
	case OP_QNN_DENSE: case OP_NN_DENSE: bad = dense(c, o, a, r); break;
	case OP_NN_BATCH_MATMUL: bad = batchmatmul(c, o, a, r); break;
	case OP_NN_MAX_POOL2D: case OP_NN_AVG_POOL2D: bad = pool2d(c, o, a, r); break;
	case OP_NN_GLOBAL_AVG_POOL2D: bad = globalpool(c, o, a, r); break;
	case OP_MEAN: case OP_SUM: case OP_PROD: case OP_MAX: case OP_MIN: case OP_ARGMAX: case OP_ARGMIN:
		bad = reduce(c, o, a, r);
		break;
	case OP_EQUAL: case OP_NOT_EQUAL: case OP_LESS: case OP_LESS_EQUAL: case OP_GREATER:
	case OP_GREATER_EQUAL: case OP_LOGICAL_AND: case OP_LOGICAL_OR:
		bad = compare(c, o, a, r);
		break;
	case OP_LOGICAL_NOT: bad = logicalnot(c, o, a, r); break;
	case OP_WHERE: bad = where(c, o, a, r); break;
	case OP_TAKE: case OP_GATHER: bad = take(c, o, a, r); break;
	case OP_NN_SOFTMAX: bad = softmax(c, o, a, r); break;
	case OP_TRANSPOSE: bad = transpose(c, o, a, r); break;
	case OP_LAYOUT_TRANSFORM: bad = layouttransform(c, o, a, r); break;
	case OP_EINSUM: bad = einsum(c, o, a, r); break;
	case OP_STRIDED_SLICE: bad = slice(c, o, a, r); break;
	case OP_NN_PAD: bad = pad(c, o, a, r); break;
	case OP_CONCATENATE: bad = concatenate(c, o, a, r); break;
	case OP_SPLIT: bad = split(c, o, a, r); break;
	case OP_NN_BATCH_NORM: bad = batchnorm(c, o, a, r); break;
	case OP_NN_LAYER_NORM: case OP_NN_GROUP_NORM: case OP_NN_INSTANCE_NORM: bad = norm(c, o, a, r); break;
	case OP_NN_DEPTH_TO_SPACE: bad = depth2space(c, o, a, r); break;
	case OP_IMAGE_RESIZE2D: bad = resize(c, o, a, r); break;
	default:
		if (ir_op_is_scalar(o->op))
			bad = scalar(c, o, a, r);
		else if (o->op >= OP_COUNT)
			bad = plugin(c, o, a, r);
		else if (ir_ops[o->op].flags & OPF_VIEW)
			bad = alias(c, o, a, r);
		else
			bad = fail(c, o, "no kernel");
		break;
	}
	if (bad)
		ref_vdrop(r);
	return bad;
}

/* ---------------------------------------------------------------- prepare-time checks */

/* tyof: the dtype of operand i of call n */
static int
tyof(const Module *m, NodeId n, uint32_t i)
{
	const Type *t = ir_type(m, m->nodes[ir_arg(m, n, i)].type);

	return t->kind == TY_TENSOR ? t->dtype : DT_VOID;
}

/* ref_op_check: refuses, at prepare time and at the call's location, the
** attribute values and dtypes the kernels do not run (ref.h) */
int
ref_op_check(const Module *m, NodeId n, Diag *d)
{
	const Node *nd = &m->nodes[n];
	RefCtx cx = { m, d, 0 };
	RefOp o = { nd->op, nd->nargs, nd->aux, nd->type, m->locs[n] };
	const char *name = ir_ops[nd->op].name;
	int dt = ir_type(m, nd->type)->kind == TY_TENSOR ? ir_type(m, nd->type)->dtype : DT_VOID;
	int in = nd->nargs ? tyof(m, n, 0) : DT_VOID;
	const char *why;

#define REFUSE(...) do { ir_error(d, m->locs[n], __VA_ARGS__); return 1; } while (0)
	if ((why = ir_op_accepts(nd->op, (DType)(nd->op == OP_NN_BIAS_ADD ? dt : in))))
		REFUSE("the ref backend cannot run %s %s", name, why);
	switch (nd->op) {
	case OP_CUMSUM: case OP_CUMPROD:
		if (dt == DT_BOOL)
			REFUSE("the ref backend cannot run %s into bool", name);
		break;
	case OP_NN_BATCH_NORM: case OP_NN_LAYER_NORM: case OP_NN_GROUP_NORM: case OP_NN_INSTANCE_NORM:
		if (!isflt(in))
			REFUSE("the ref backend runs %s on floats only, not %s", name, ir_dtype_names[in]);
		break;
	case OP_EINSUM:
		if (!isflt(dt))
			REFUSE("the ref backend runs %s on floats only, not %s", name, ir_dtype_names[dt]);
		break;
	case OP_SUM: case OP_PROD: case OP_MAX: case OP_MIN:
	case OP_ARGMAX: case OP_ARGMIN:
		if (in == DT_BOOL)
			REFUSE("the ref backend cannot run %s on bool tensors", name);
		break;
	case OP_QNN_REQUANTIZE: {
		const char *cdt = astr(&cx, &o, "compute_dtype");
		if (strcmp(astr(&cx, &o, "rounding"), "HALF_TO_EVEN") == 0)
			break;  /* compute_dtype "float32", checked by the type relation */
		if (strcmp(cdt, "None") && strcmp(cdt, "int64"))
			REFUSE("the ref backend cannot run qnn.requantize with compute_dtype \"%s\" "
			       "(its rounding depends on the target); use \"int64\" or \"None\", or "
			       "rounding \"HALF_TO_EVEN\" for QNNPACK's float32 requantization", cdt);
		break;
	}
	case OP_QNN_MUL:
		if (ir_type_numel(m, m->nodes[ir_arg(m, n, 2)].type) != 1 ||
		    ir_type_numel(m, m->nodes[ir_arg(m, n, 4)].type) != 1)
			REFUSE("the ref backend cannot run qnn.mul with per-channel scales");
		break;
	case OP_NN_CONV2D: case OP_NN_CONV2D_TRANSPOSE: case OP_NN_DENSE: case OP_NN_BATCH_MATMUL:
		if (isflt(dt) != isflt(in) || dt == DT_BOOL)
			REFUSE("the ref backend cannot run %s from %s to %s", name, ir_dtype_names[in],
			       ir_dtype_names[dt]);
		if (nd->op == OP_NN_CONV2D_TRANSPOSE || nd->op == OP_NN_CONV2D) {
			/* fallthrough to the channel checks below */
		} else {
			break;
		}
		/* fallthrough */
	case OP_QNN_CONV2D: case OP_QNN_CONV2D_TRANSPOSE: {
		int tr = nd->op == OP_NN_CONV2D_TRANSPOSE || nd->op == OP_QNN_CONV2D_TRANSPOSE;
		const char *ol = astr(&cx, &o, "out_layout");
		int dp[4], kp[4], op[4];
		const int64_t *wd = ir_type_dims(m, m->nodes[ir_arg(m, n, 1)].type);
		const int64_t *xd = ir_type_dims(m, m->nodes[ir_arg(m, n, 0)].type);
		const int64_t *od = ir_type_dims(m, nd->type);
		int64_t g = aint(&cx, &o, "groups", 1), C, OC, KO, KI;
		ir_layout_perm(astr(&cx, &o, "data_layout"), "NCHW", dp);
		ir_layout_perm(astr(&cx, &o, "kernel_layout"), tr ? "IOHW" : "OIHW", kp);
		ir_layout_perm(*ol ? ol : astr(&cx, &o, "data_layout"), "NCHW", op);
		C = xd[dp[1]], OC = od[op[1]];
		KO = wd[kp[tr ? 1 : 0]], KI = wd[kp[tr ? 0 : 1]];
		if (tr && KO * g != OC)
			REFUSE("the ref backend cannot run %s with groups=%lld whose result has %lld channels, "
			       "the weight's of one group (TVM's type relation; give channels)",
			       name, (long long)g, (long long)OC);
		if (!tr && KO != OC && !(g == C && KO == C && KO * KI == OC))
			REFUSE("the ref backend cannot run %s with this weight layout", name);
		if ((nd->op == OP_QNN_CONV2D || nd->op == OP_QNN_CONV2D_TRANSPOSE)) {
			int64_t kzn = ir_type_numel(m, m->nodes[ir_arg(m, n, 3)].type);
			if (kzn != 1 && kzn != OC)
				REFUSE("the ref backend cannot run %s with %lld kernel zero points for %lld channels",
				       name, (long long)kzn, (long long)OC);
		}
		break;
	}
	case OP_QNN_DENSE: {
		int64_t kzn = ir_type_numel(m, m->nodes[ir_arg(m, n, 3)].type);
		const int64_t *od = ir_type_dims(m, nd->type);
		int64_t U = od[ir_type(m, nd->type)->n - 1];
		if (kzn != 1 && kzn != U)
			REFUSE("the ref backend cannot run qnn.dense with %lld kernel zero points for %lld units",
			       (long long)kzn, (long long)U);
		break;
	}
	case OP_NN_AVG_POOL2D: case OP_NN_MAX_POOL2D: case OP_NN_GLOBAL_AVG_POOL2D: case OP_MEAN:
		if (dt == DT_BOOL)
			REFUSE("the ref backend cannot run %s on bool tensors", name);
		break;
	case OP_IMAGE_RESIZE2D: {
		RefResize p;
		const char *bad = ref_resize_mode(m, ir_attrs(m, n), &p);
		if (bad)
			REFUSE("the ref backend cannot run image.resize2d with %s \"%s\"", bad,
			       astr(&cx, &o, bad));
		if (p.method != REF_RS_NEAREST && !isflt(in))
			REFUSE("the ref backend runs %s image.resize2d on floats only, not %s",
			       astr(&cx, &o, "method"), ir_dtype_names[in]);
		break;
	}
	default:
		if (nd->op >= OP_COUNT && !ir_op_is_scalar(nd->op) && !ckernels[nd->op - OP_COUNT].fn)
			REFUSE("the ref backend has no kernel for %s: the plugin that registers it gives none", name);
		break;
	}
#undef REFUSE
	return 0;
}
