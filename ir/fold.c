/*
** fold.c: exact constant evaluation, the fold_const of graft's rules
** language.  ir_fold() walks the subtree under a node, iteratively and in
** post-order, evaluates each op into a scratch buffer keyed by node, and
** makes one constant of the root's value.  Nothing else is added to the
** module, and a subtree that cannot be evaluated exactly leaves it
** unchanged.
**
** "Exactly" means bit for bit what TVM computes when it runs the Relay op
** on a CPU through LLVM (as Relay's FoldConstant does).  Each rule below
** comes from TVM's sources (apache/tvm, the Relay releases):
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
**                  apache/tvm#18590.)  PyTorch rounds halves to even and
**                  multiplies by 1/scale, so the two differ on ties and,
**                  rarely, next to them: tests/data/fold_vectors.py.
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
**                  overflow the fold is refused.
**                  rounding "None" is UPWARD.  compute_dtype "None" is
**                  folded as "int64": TVM itself picks float32 there on
**                  LLVM targets with SSE4.1, whose rounding helpers depend
**                  on the target, which is why "float32" and "float64"
**                  are not folded.
**   arithmetic     src/target/llvm/codegen_llvm.cc: add, subtract and
**                  multiply wrap below 32 bits, and are nsw/nuw (overflow
**                  undefined, so not folded) on int32, uint32 and int64;
**                  divide is topi `div` (include/tvm/topi/broadcast.h),
**                  sdiv/udiv: truncating, undefined for x / 0 and MIN / -1;
**                  floats are IEEE (float16 rounded after each op).
**   cast           codegen_llvm.cc CreateCast: int -> int keeps the low
**                  bits (sign- or zero-extending by the source's
**                  signedness); to bool is != 0; int -> float rounds to
**                  nearest; float -> int truncates, undefined when out of
**                  range; float -> float rounds to nearest.
**   clip           python/tvm/topi/math.py: max(min(x, a_max), a_min) with
**                  the bounds made by tir.const in x's dtype: for integers
**                  truncated toward zero (MakeConstScalar in
**                  include/tvm/tir/op.h), an error if negative for an
**                  unsigned dtype; min/max are selects on ordered compares.
**   nn.relu        include/tvm/topi/nn.h: max(x, 0), so relu(-0.0) = +0.0.
**   nn.pad         src/relay/op/nn/pad.cc: the pad value is cast to the
**                  data's dtype as by `cast`; topi::pad's constant, edge
**                  and reflect modes (reflect does not repeat the edge).
**   data movement  reshape, squeeze, expand_dims, transpose,
**                  strided_slice, concatenate, split + tuple_get_item,
**                  nn.bias_add (an add along axis) and the annotations
**                  annotation.cast_hint and annotation.stop_fusion.
**
** Everything else is refused: exp, sigmoid, tanh, rsqrt, softmax, the
** convolutions, dense, pools, mean and the other quantized ops.  Their
** float results depend on the math library or on the order of a
** reduction, so a folded value could differ from the one TVM computes.
** Also refused, though TVM would compute something, are results that hang
** on details this file does not want to depend on: any NaN reaching an
** arithmetic op, a cast, clip or relu (TVM's selects send it to a bound,
** and NaN payloads differ between machines), clip bounds that do not fit
** the dtype, and int64 intermediates of requantize that overflow.
**
** Tensors are row-major and little-endian, read byte by byte, so neither
** alignment nor the host's byte order matters.  float32 arithmetic is done
** in double and rounded once: for + - * / that is exactly IEEE float32
** (double carries more than 2 * 24 + 2 bits), and likewise for float16.
*/
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "fold.h"
#include "ir.h"

#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD < 0 || FLT_EVAL_METHOD > 1
#error "fold.c needs double arithmetic evaluated in double (FLT_EVAL_METHOD 0 or 1)"
#endif

#define MAXDIMS 8           /* the largest rank folded (ML tensors have 4-6): keeps
                               values small, and they are copied often */
#define INPROGRESS UINT32_MAX

enum { VK_TENSOR, VK_TUPLE };

/* A value: a tensor, whose data is ours (owned) or borrowed from a
** constant or another value, or a tuple of other values. */
typedef struct Val {
	uint8_t kind;       /* VK_* */
	uint8_t owned;      /* data was allocated here */
	DType dt;
	int rank;
	int64_t dims[MAXDIMS];
	int64_t n;          /* element count */
	unsigned char *data;
	uint32_t nf;        /* VK_TUPLE: field count */
	uint32_t *f;        /* VK_TUPLE: the fields, indices into Eval.vals */
} Val;

/* The evaluation of one subtree: its values, and a map from node to value
** by open addressing (slot INPROGRESS while the node's operands are
** being evaluated). */
typedef struct Eval {
	Module *m;
	Val *vals;
	uint32_t nvals, capvals;
	NodeId *keys;
	uint32_t *slots;
	uint32_t cap, used;
	/* inline room for the usual small subtree, so that most folds make no
	** heap allocation for their bookkeeping */
	NodeId keys0[32];
	uint32_t slots0[32];
	Val vals0[6];
} Eval;

/* ---------------------------------------------------------------- shapes */

void
ir_fold_strides(const int64_t *dims, int rank, int64_t *strides)
{
	int64_t s = 1;

	for (int k = rank - 1; k >= 0; k--) {
		strides[k] = s;
		s *= dims[k];
	}
}

int
ir_fold_bcast_strides(const int64_t *dims, int rank, const int64_t *odims, int orank,
                      int64_t *strides)
{
	int64_t own[MAXDIMS];

	if (rank > orank || rank > MAXDIMS || orank > MAXDIMS)
		return 0;
	ir_fold_strides(dims, rank, own);
	for (int k = 0; k < orank; k++) {
		int j = k - (orank - rank);
		if (j < 0 || dims[j] == 1)
			strides[k] = 0;
		else if (dims[j] == odims[k])
			strides[k] = own[j];
		else
			return 0;
	}
	return 1;
}

/* step: advances the row-major multi-index idx over dims by one element,
** moving each of the n offsets by its strides st[j] */
static void
step(int rank, const int64_t *dims, int64_t *idx, int n, int64_t *off,
     int64_t st[][MAXDIMS])
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

/* shapeof: sets v to an empty tensor of type t; fails unless t is a tensor
** type of known dims, at most MAXDIMS of them, whose size fits in memory */
static int
shapeof(const Module *m, TypeId t, Val *v)
{
	const Type *ty;
	int64_t n = 1;

	memset(v, 0, sizeof *v);
	if (!t || (ty = ir_type(m, t))->kind != TY_TENSOR || ty->n > MAXDIMS ||
	    ty->dtype == DT_VOID || ty->dtype >= DT_COUNT)
		return 0;
	v->kind = VK_TENSOR;
	v->dt = (DType)ty->dtype;
	v->rank = (int)ty->n;
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

/* alloc: gives tensor v a buffer of its own */
static void
alloc(Val *v)
{
	size_t size = (size_t)v->n * ir_dtype_bytes[v->dt];

	v->data = ir_xmalloc(size ? size : 1);
	v->owned = 1;
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
isint(DType dt)
{
	return ir_dtype_kind[dt] == 'i' || ir_dtype_kind[dt] == 'u';
}

/* isflt: whether dt is a float dtype */
static int
isflt(DType dt)
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

/* sti: stores x into element i of integer or bool tensor v, keeping the
** low bits (bool: x != 0) */
static void
sti(Val *v, int64_t i, int64_t x)
{
	int nb = ir_dtype_bytes[v->dt];

	straw(v->data + (size_t)i * (size_t)nb, nb, v->dt == DT_BOOL ? x != 0 : (uint64_t)x);
}

/* f16: d rounded to the nearest half (ties to even), by way of a float
** rounded to odd, which rounds again without error */
static uint16_t
f16(double d)
{
	float f;

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

/* stf: stores x, rounded to v's float dtype, into element i of v */
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

/* rnd: x rounded to v's float dtype */
static double
rnd(DType dt, double x)
{
	if (dt == DT_FLOAT16)
		return ir_f32_from_f16(f16(x));
	if (dt == DT_FLOAT32)
		return (float)x;
	return x;
}

/* lo, hi: the range of integer dtype dt */
static int64_t
lo(DType dt)
{
	int bits = ir_dtype_bytes[dt] * 8;

	if (ir_dtype_kind[dt] != 'i')
		return 0;
	return bits == 64 ? INT64_MIN : -((int64_t)1 << (bits - 1));
}

static int64_t
hi(DType dt)
{
	int bits = ir_dtype_bytes[dt] * 8;

	if (dt == DT_BOOL)
		return 1;
	if (ir_dtype_kind[dt] == 'i')
		return bits == 64 ? INT64_MAX : ((int64_t)1 << (bits - 1)) - 1;
	return ((int64_t)1 << bits) - 1;    /* unsigned: at most 32 bits here */
}

/* wrap32: x truncated to int32, as LLVM's trunc does */
static int32_t
wrap32(int64_t x)
{
	uint32_t u = (uint32_t)((uint64_t)x & 0xffffffffu);

	return u <= INT32_MAX ? (int32_t)u : (int32_t)(u - 0x80000000u) + INT32_MIN;
}

/* ---------------------------------------------------------------- integer arithmetic */

/* addov, mulov: a + b, a * b in int64; 0 on overflow */
static int
addov(int64_t a, int64_t b, int64_t *r)
{
	if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b))
		return 0;
	*r = a + b;
	return 1;
}

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

/* iarith: a op b for the integers a, b of dtype dt as TVM's LLVM code
** computes it; the result may need truncating to dt (below 32 bits,
** where the ops wrap); 0 where the op is undefined */
static int
iarith(OpId op, DType dt, int64_t a, int64_t b, int64_t *r)
{
	int bits = ir_dtype_bytes[dt] * 8, sgn = ir_dtype_kind[dt] == 'i';

	if (op == OP_DIVIDE) {
		if (b == 0 || (sgn && b == -1 && a == lo(dt)))
			return 0;
		*r = a / b;
		return 1;
	}
	if (bits < 32) {
		*r = op == OP_ADD ? a + b : op == OP_SUBTRACT ? a - b : a * b;
		return 1;
	}
	if (op == OP_ADD ? !addov(a, b, r) : op == OP_SUBTRACT ? (b == INT64_MIN || !addov(a, -b, r))
	                                                       : !mulov(a, b, r))
		return 0;
	return *r >= lo(dt) && *r <= hi(dt);
}

/* farith: a op b in double; the caller rounds to the dtype */
static double
farith(OpId op, double a, double b)
{
	switch (op) {
	case OP_ADD: return a + b;
	case OP_SUBTRACT: return a - b;
	case OP_MULTIPLY: return a * b;
	default: return a / b;
	}
}

/* ---------------------------------------------------------------- the value table */

/* hash: the map's home slot of node n */
static uint32_t
hash(const Eval *e, NodeId n)
{
	return (n * 2654435761u) & (e->cap - 1);
}

/* find: the slot bound to node n; *found = 0 (and 0 returned) if none */
static uint32_t
find(const Eval *e, NodeId n, int *found)
{
	uint32_t h;

	*found = 0;
	if (!e->cap)
		return 0;
	for (h = hash(e, n); e->keys[h]; h = (h + 1) & (e->cap - 1)) {
		if (e->keys[h] == n) {
			*found = 1;
			return e->slots[h];
		}
	}
	return 0;
}

/* bind: maps node n to slot (a value index or INPROGRESS) */
static void
bind(Eval *e, NodeId n, uint32_t slot)
{
	uint32_t h;

	if (!e->cap) {
		e->keys = e->keys0;
		e->slots = e->slots0;
		e->cap = 32;
		memset(e->keys0, 0, sizeof e->keys0);
	}
	if (2 * (e->used + 1) > e->cap) {
		uint32_t oldcap = e->cap;
		NodeId *oldkeys = e->keys;
		uint32_t *oldslots = e->slots;
		e->cap = 2 * oldcap;
		e->keys = ir_xcalloc(e->cap, sizeof *e->keys);
		e->slots = ir_xcalloc(e->cap, sizeof *e->slots);
		e->used = 0;
		for (uint32_t i = 0; i < oldcap; i++)
			if (oldkeys[i])
				bind(e, oldkeys[i], oldslots[i]);
		if (oldkeys != e->keys0) {
			free(oldkeys);
			free(oldslots);
		}
	}
	for (h = hash(e, n); e->keys[h] && e->keys[h] != n; h = (h + 1) & (e->cap - 1))
		;
	if (!e->keys[h])
		e->used++;
	e->keys[h] = n;
	e->slots[h] = slot;
}

/* keep: appends v to the values; returns its index */
static uint32_t
keep(Eval *e, const Val *v)
{
	if (!e->capvals) {
		e->vals = e->vals0;
		e->capvals = sizeof e->vals0 / sizeof e->vals0[0];
	} else if (e->nvals == e->capvals && e->vals == e->vals0) {
		Val *heap = ir_xmalloc(2 * e->capvals * sizeof *heap);
		memcpy(heap, e->vals0, e->nvals * sizeof *heap);
		e->vals = heap;
		e->capvals *= 2;
	}
	ir_vgrow(&e->vals, &e->capvals, e->nvals + 1);
	e->vals[e->nvals] = *v;
	return e->nvals++;
}

/* drop: frees what v owns */
static void
drop(Val *v)
{
	if (v->owned)
		free(v->data);
	free(v->f);
	v->data = NULL;
	v->f = NULL;
	v->owned = 0;
}

/* arg: the value of operand i of node id, which has been evaluated */
static const Val *
arg(const Eval *e, NodeId id, uint32_t i)
{
	int found;
	uint32_t s = find(e, ir_arg(e->m, id, i), &found);

	return &e->vals[s];
}

/* targ: operand i of id if it is a tensor, else NULL */
static const Val *
targ(const Eval *e, NodeId id, uint32_t i)
{
	const Val *v = arg(e, id, i);

	return v->kind == VK_TENSOR ? v : NULL;
}

/* ---------------------------------------------------------------- attributes */

/* attr: the attribute name of call id, or NULL */
static const AttrVal *
attr(const Module *m, NodeId id, const char *name)
{
	int k = ir_op_attr_index(m->nodes[id].op, name, strlen(name));

	if (k < 0 || !m->nodes[id].aux)
		return NULL;
	return &m->attrs[m->nodes[id].aux + (uint32_t)k];
}

/* aint: the integer attribute name of id into *out */
static int
aint(const Module *m, NodeId id, const char *name, int64_t *out)
{
	const AttrVal *v = attr(m, id, name);

	if (!v || (v->kind != AV_INT && v->kind != AV_BOOL))
		return 0;
	*out = v->u.i;
	return 1;
}

/* ints: the integer list v into out[0..*n), *n = -1 for None */
static int
ints(const Module *m, const AttrVal *v, int64_t *out, int max, int *n)
{
	if (!v)
		return 0;
	if (v->kind == AV_NONE) {
		*n = -1;
		return 1;
	}
	if (v->kind != AV_ARRAY || v->n > (uint32_t)max)
		return 0;
	for (uint32_t k = 0; k < v->n; k++) {
		const AttrVal *x = &m->attrs[v->first + k];
		if (x->kind != AV_INT)
			return 0;
		out[k] = x->u.i;
	}
	*n = (int)v->n;
	return 1;
}

/* astr: the string attribute name of id ("" for None), or NULL */
static const char *
astr(const Module *m, NodeId id, const char *name)
{
	const AttrVal *v = attr(m, id, name);

	if (!v || (v->kind != AV_STR && v->kind != AV_NONE))
		return NULL;
	return v->kind == AV_STR ? ir_symstr(m, v->u.s) : "";
}

/* normaxis: axis counted from the end if negative; whether in [0, rank) */
static int
normaxis(int64_t *axis, int rank)
{
	if (*axis < 0)
		*axis += rank;
	return *axis >= 0 && *axis < rank;
}

/* ---------------------------------------------------------------- elementwise ops */

/* binop: r = a op b with numpy broadcasting, a and b read through the
** shapes ad[ar] and bd[br] (bias_add reads its bias as a column) */
static int
binop(OpId op, const Val *a, const int64_t *ad, int ar, const Val *b, const int64_t *bd, int br,
      Val *r)
{
	int64_t st[2][MAXDIMS], idx[MAXDIMS] = { 0 }, off[2] = { 0, 0 };
	DType dt = r->dt;

	if (a->dt != dt || b->dt != dt || dt == DT_BOOL ||
	    !ir_fold_bcast_strides(ad, ar, r->dims, r->rank, st[0]) ||
	    !ir_fold_bcast_strides(bd, br, r->dims, r->rank, st[1]))
		return 0;
	alloc(r);
	for (int64_t i = 0; i < r->n; i++) {
		if (isflt(dt)) {
			double x = rnd(dt, farith(op, ldf(a, off[0]), ldf(b, off[1])));
			if (isnan(x))
				return 0;
			stf(r, i, x);
		} else {
			int64_t x;
			if (!iarith(op, dt, ldi(a, off[0]), ldi(b, off[1]), &x))
				return 0;
			sti(r, i, x);
		}
		step(r->rank, r->dims, idx, 2, off, st);
	}
	return 1;
}

/* arith: add, subtract, multiply, divide */
static int
arith(Eval *e, NodeId id, OpId op, Val *r)
{
	const Val *a = targ(e, id, 0), *b = targ(e, id, 1);

	return a && b && binop(op, a, a->dims, a->rank, b, b->dims, b->rank, r);
}

/* biasadd: data + bias along axis */
static int
biasadd(Eval *e, NodeId id, Val *r)
{
	const Val *a = targ(e, id, 0), *b = targ(e, id, 1);
	int64_t axis, bd[MAXDIMS];

	if (!a || !b || b->rank != 1 || !aint(e->m, id, "axis", &axis) || !normaxis(&axis, a->rank))
		return 0;
	for (int k = 0; k < a->rank; k++)
		bd[k] = k == axis ? b->dims[0] : 1;
	return binop(OP_ADD, a, a->dims, a->rank, b, bd, a->rank, r);
}

/* conv: element i of a converted to r's dtype into element j of r, as
** TVM's cast does; 0 where that is undefined */
static int
conv(const Val *a, int64_t i, Val *r, int64_t j)
{
	DType from = a->dt, to = r->dt;

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
		if (isnan(x))
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
		                   : !(t >= (double)lo(to) && t <= (double)hi(to)))
			return 0;
		sti(r, j, (int64_t)t);
		return 1;
	}
}

/* cast: dtype conversion */
static int
cast(Eval *e, NodeId id, Val *r)
{
	const Val *a = targ(e, id, 0);

	if (!a || a->n != r->n)
		return 0;
	alloc(r);
	for (int64_t i = 0; i < r->n; i++)
		if (!conv(a, i, r, i))
			return 0;
	return 1;
}

/* relu: max(x, 0), a select on x > 0 */
static int
relu(Eval *e, NodeId id, Val *r)
{
	const Val *a = targ(e, id, 0);

	if (!a || a->dt != r->dt || a->n != r->n || a->dt == DT_BOOL)
		return 0;
	alloc(r);
	for (int64_t i = 0; i < r->n; i++) {
		if (isflt(r->dt)) {
			double x = ldf(a, i);
			if (isnan(x))
				return 0;
			stf(r, i, x > 0 ? x : 0.0);
		} else {
			int64_t x = ldi(a, i);
			sti(r, i, x > 0 ? x : 0);
		}
	}
	return 1;
}

/* ibound: a clip bound made by tir.const for integer dtype dt */
static int
ibound(DType dt, double b, int64_t *out)
{
	double t = trunc(b);

	if (isnan(b) || (ir_dtype_kind[dt] == 'u' && b < 0))
		return 0;       /* MakeConstScalar: no negative unsigned constant */
	if (!(t >= (double)lo(dt) && t <= (double)hi(dt)))
		return 0;
	*out = (int64_t)t;
	return 1;
}

/* clip: max(min(x, a_max), a_min) with the bounds in x's dtype */
static int
clip(Eval *e, NodeId id, Val *r)
{
	const Val *a = targ(e, id, 0);
	const AttrVal *amin = attr(e->m, id, "a_min"), *amax = attr(e->m, id, "a_max");

	if (!a || a->dt != r->dt || a->n != r->n || a->dt == DT_BOOL || !amin || !amax ||
	    amin->kind != AV_FLOAT || amax->kind != AV_FLOAT)
		return 0;
	alloc(r);
	if (isflt(r->dt)) {
		double l = rnd(r->dt, amin->u.f), h = rnd(r->dt, amax->u.f);
		if (isnan(l) || isnan(h))
			return 0;
		for (int64_t i = 0; i < r->n; i++) {
			double x = ldf(a, i);
			if (isnan(x))
				return 0;
			x = x < h ? x : h;
			stf(r, i, x > l ? x : l);
		}
	} else {
		int64_t l, h;
		if (!ibound(r->dt, amin->u.f, &l) || !ibound(r->dt, amax->u.f, &h))
			return 0;
		for (int64_t i = 0; i < r->n; i++) {
			int64_t x = ldi(a, i);
			x = x < h ? x : h;
			sti(r, i, x > l ? x : l);
		}
	}
	return 1;
}

/* ---------------------------------------------------------------- quantization */

/* qparam: checks the scale or zero point p of dtype dt against data x
** along axis ax: a tensor of one element, or of x's size along ax; sets
** *len to the element count */
static int
qparam(const Val *p, DType dt, const Val *x, int64_t ax, int64_t *len)
{
	if (!p || p->dt != dt || p->rank > 1)
		return 0;
	*len = p->n;
	if (p->rank == 0)
		return 1;
	return ax >= 0 && ax < x->rank && (p->n == 1 || p->n == x->dims[ax]);
}

/* qaxis: the channel of each element of x runs along the normalized axis
** attribute of id; sets *ax and *in, the element count after it */
static int
qaxis(const Eval *e, NodeId id, const Val *x, int64_t *ax, int64_t *in)
{
	if (!aint(e->m, id, "axis", ax))
		return 0;
	if (*ax < 0)
		*ax += x->rank;
	*in = *ax >= 0 && *ax < x->rank ? inner(x, (int)*ax) : 1;
	return 1;
}

/* chan: the parameter index of element i for a parameter of len values */
static int64_t
chan(const Val *x, int64_t ax, int64_t in, int64_t i, int64_t len)
{
	return len == 1 ? 0 : (i / in) % x->dims[ax];
}

/* f32: a float32 value of element i of float32 tensor p */
static float
f32(const Val *p, int64_t i)
{
	return (float)ldf(p, i);
}

/* quantize: qnn.quantize(data, scale, zero_point) */
static int
quantize(Eval *e, NodeId id, Val *r)
{
	const Val *x = targ(e, id, 0), *s = targ(e, id, 1), *z = targ(e, id, 2);
	int64_t ax, in, ns, nz;
	float qlo, qhi;

	if (!x || x->dt != DT_FLOAT32 || x->n != r->n || !isint(r->dt) || ir_dtype_bytes[r->dt] > 4 ||
	    !qaxis(e, id, x, &ax, &in) ||
	    !qparam(s, DT_FLOAT32, x, ax, &ns) || !qparam(z, DT_INT32, x, ax, &nz))
		return 0;
	qlo = (float)lo(r->dt);
	qhi = (float)hi(r->dt);     /* 2147483648 for int32: a cast of it fails */
	alloc(r);
	if (ns == 1 && nz == 1) {
		/* per tensor, the common case: the same arithmetic as below with
		** the parameters loaded once and the data read directly */
		float sc = f32(s, 0), zp = (float)(int32_t)ldi(z, 0);
		const unsigned char *src = x->data;
		for (int64_t i = 0; i < r->n; i++) {
			float xv, v;
			memcpy(&xv, src + (size_t)i * 4, 4);
			v = (float)((double)xv / (double)sc);
			if (isnan(v))
				return 0;
			v = roundf(v);
			v = (float)((double)v + (double)zp);
			v = v < qhi ? v : qhi;
			v = v > qlo ? v : qlo;
			if (!((double)v >= (double)lo(r->dt) && (double)v <= (double)hi(r->dt)))
				return 0;
			sti(r, i, (int64_t)v);
		}
		return 1;
	}
	for (int64_t i = 0; i < r->n; i++) {
		float v = (float)((double)f32(x, i) / (double)f32(s, chan(x, ax, in, i, ns)));
		float zp = (float)(int32_t)ldi(z, chan(x, ax, in, i, nz));
		if (isnan(v))
			return 0;
		v = roundf(v);                      /* llvm.round: halves away from zero */
		v = (float)((double)v + (double)zp);
		v = v < qhi ? v : qhi;
		v = v > qlo ? v : qlo;
		if (!((double)v >= (double)lo(r->dt) && (double)v <= (double)hi(r->dt)))
			return 0;
		sti(r, i, (int64_t)v);
	}
	return 1;
}

/* dequantize: qnn.dequantize(data, scale, zero_point) */
static int
dequantize(Eval *e, NodeId id, Val *r)
{
	const Val *x = targ(e, id, 0), *s = targ(e, id, 1), *z = targ(e, id, 2);
	int64_t ax, in, ns, nz;

	if (!x || !isint(x->dt) || ir_dtype_bytes[x->dt] > 4 || x->n != r->n ||
	    (r->dt != DT_FLOAT32 && r->dt != DT_FLOAT16) || !qaxis(e, id, x, &ax, &in) ||
	    !qparam(s, DT_FLOAT32, x, ax, &ns) || !qparam(z, DT_INT32, x, ax, &nz))
		return 0;
	alloc(r);
	for (int64_t i = 0; i < r->n; i++) {
		int64_t d = (int64_t)wrap32(ldi(x, i)) - ldi(z, chan(x, ax, in, i, nz));
		float v;
		if (d < INT32_MIN || d > INT32_MAX)
			return 0;
		v = (float)((double)(float)(int32_t)d * (double)f32(s, chan(x, ax, in, i, ns)));
		if (isnan(v))
			return 0;
		if (r->dt == DT_FLOAT16) {
			v = v < 65504.0f ? v : 65504.0f;
			v = v > -65504.0f ? v : -65504.0f;
		}
		stf(r, i, v);
	}
	return 1;
}

/* A Q31 fixed-point multiplier. */
typedef struct Fixed {
	int32_t mul;
	int shift;
} Fixed;

/* fixed: TVM's GetFixedPointMultiplierShift of the double multiplier d */
static int
fixed(double d, Fixed *f)
{
	int exp;
	double sig;
	int64_t q;

	if (!isfinite(d))
		return 0;
	if (d == 0) {
		f->mul = 0;
		f->shift = 0;
		return 1;
	}
	sig = frexp(d, &exp);
	q = (int64_t)round(sig * 2147483648.0);
	if (q == ((int64_t)1 << 31)) {
		q /= 2;
		exp++;
	}
	f->mul = (int32_t)q;
	f->shift = exp;
	return 1;
}

/* floorshr: x >> k, arithmetic (rounding down), for 0 <= k < 64 */
static int64_t
floorshr(int64_t x, int k)
{
	return x >= 0 ? x >> k : -((-(x + 1)) >> k) - 1;
}

/* fpm: the fixed-point product of int32 x and f, rounded UPWARD or to
** nearest, truncated to int32; 0 where an int64 step overflows or a shift
** is out of range.  pow2 marks the per-tensor UPWARD case, whose
** q_multiply_shift lowering for a multiplier of 2^30 works in int32. */
static int
fpm(int32_t x, Fixed f, int nearest, int pow2, int32_t *out)
{
	int ls = f.shift > 0 ? f.shift : 0, rs = f.shift > 0 ? 0 : -f.shift, total = rs + 31;
	int64_t t, half;

	if (total > 63 || ls > 62)
		return 0;
	if (pow2 && f.mul == (1 << 30)) {
		int ev = f.shift - 1;
		if (ev > 0 ? ev >= 32 : (-ev < 1 || -ev > 31 ||
		                          (int64_t)x + ((int64_t)1 << (-ev - 1)) > INT32_MAX))
			return 0;
	}
	if (!mulov(x, (int64_t)1 << ls, &t) || !mulov(t, f.mul, &t))
		return 0;
	half = ((int64_t)1 << (total - 1)) - (nearest && t < 0);
	if (!addov(t, half, &t))
		return 0;
	*out = wrap32(floorshr(t, total));
	return 1;
}

/* requantize: qnn.requantize(data, input_scale, input_zero_point,
** output_scale, output_zero_point) by TVM's integer algorithm */
static int
requantize(Eval *e, NodeId id, Val *r)
{
	const Val *x = targ(e, id, 0), *is = targ(e, id, 1), *iz = targ(e, id, 2);
	const Val *os = targ(e, id, 3), *oz = targ(e, id, 4);
	const char *rounding = astr(e->m, id, "rounding"), *cdt = astr(e->m, id, "compute_dtype");
	int64_t axis, ax, in, nz, ns, chax;
	Fixed *fx = NULL;
	float out_s;
	int32_t out_z;
	int nearest, pertensor, ok = 0;

	if (!x || !isint(x->dt) || x->dt == DT_UINT32 || x->n != r->n || !isint(r->dt) ||
	    ir_dtype_bytes[r->dt] > 4 ||
	    !rounding || !cdt || !os || !oz || os->rank != 0 || oz->rank != 0 ||
	    os->dt != DT_FLOAT32 || oz->dt != DT_INT32 || !aint(e->m, id, "axis", &axis))
		return 0;
	if (strcmp(rounding, "None") && strcmp(rounding, "UPWARD") && strcmp(rounding, "TONEAREST"))
		return 0;
	if (strcmp(cdt, "None") && strcmp(cdt, "int64"))
		return 0;
	nearest = strcmp(rounding, "TONEAREST") == 0;
	/* the zero point runs along axis + rank; the scales along axis, with
	** only -1 normalized (RequantizeLowerInt) */
	ax = axis < 0 ? (x->rank > 0 ? x->rank + axis : 0) : axis;
	in = ax >= 0 && ax < x->rank ? inner(x, (int)ax) : 1;
	if (!qparam(iz, DT_INT32, x, ax, &nz) || !is || is->dt != DT_FLOAT32 || is->rank > 1)
		return 0;
	if (x->rank == 0 && (iz->rank != 0 || ldi(iz, 0) != 0))
		return 0;
	pertensor = is->rank == 0;
	chax = axis == -1 ? x->rank - 1 : axis;
	if (!pertensor && (chax != ax || !qparam(is, DT_FLOAT32, x, ax, &ns)))
		return 0;
	ns = is->n;     /* one scale, or one per channel */
	out_s = f32(os, 0);
	out_z = (int32_t)ldi(oz, 0);
	if (out_s == 0 || !isfinite(out_s))
		return 0;
	fx = ir_xmalloc((size_t)ns * sizeof *fx);
	for (int64_t c = 0; c < ns; c++)
		if (!isfinite(f32(is, c)) || !fixed((double)f32(is, c) / (double)out_s, &fx[c]))
			goto out;
	alloc(r);
	for (int64_t i = 0; i < r->n; i++) {
		int64_t v = (int64_t)wrap32(ldi(x, i)) - ldi(iz, chan(x, ax, in, i, nz));
		int32_t y;
		if (v < INT32_MIN || v > INT32_MAX)
			goto out;
		y = (int32_t)v;
		if (pertensor) {
			if (f32(is, 0) != out_s && !fpm(y, fx[0], nearest, !nearest, &y))
				goto out;
		} else if (!fpm(y, fx[chan(x, ax, in, i, ns)], nearest, 0, &y)) {
			goto out;
		}
		v = (int64_t)y + out_z;
		if (v < INT32_MIN || v > INT32_MAX)
			goto out;
		if (r->dt != DT_INT32)
			v = v < lo(r->dt) ? lo(r->dt) : v > hi(r->dt) ? hi(r->dt) : v;
		sti(r, i, v);
	}
	ok = 1;
out:
	free(fx);
	return ok;
}

/* ---------------------------------------------------------------- data movement */

/* gather: fills r, in row-major order, with the elements of a at offset
** base + sum(idx[k] * st[k]) for r's multi-index idx */
static void
gather(Val *r, const Val *a, int64_t base, const int64_t *st)
{
	size_t esz = ir_dtype_bytes[r->dt];
	int64_t idx[MAXDIMS] = { 0 }, off = base, sts[1][MAXDIMS];

	memcpy(sts[0], st, (size_t)r->rank * sizeof st[0]);
	alloc(r);
	for (int64_t i = 0; i < r->n; i++) {
		memcpy(r->data + (size_t)i * esz, a->data + (size_t)off * esz, esz);
		step(r->rank, r->dims, idx, 1, &off, sts);
	}
}

/* alias: r is a's data under r's shape (reshape, squeeze, expand_dims,
** annotations) */
static int
alias(Eval *e, NodeId id, Val *r)
{
	const Val *a = targ(e, id, 0);

	if (!a || a->dt != r->dt || a->n != r->n)
		return 0;
	r->data = a->data;
	r->owned = 0;
	return 1;
}

/* transpose: axes, a permutation, or None for reversal */
static int
transpose(Eval *e, NodeId id, Val *r)
{
	const Val *a = targ(e, id, 0);
	int64_t axes[MAXDIMS], ast[MAXDIMS], st[MAXDIMS];
	int n, seen[MAXDIMS] = { 0 };

	if (!a || a->dt != r->dt || a->rank != r->rank ||
	    !ints(e->m, attr(e->m, id, "axes"), axes, MAXDIMS, &n))
		return 0;
	if (n < 0) {
		n = a->rank;
		for (int k = 0; k < n; k++)
			axes[k] = n - 1 - k;
	}
	if (n != a->rank)
		return 0;
	ir_fold_strides(a->dims, a->rank, ast);
	for (int k = 0; k < n; k++) {
		if (!normaxis(&axes[k], n) || seen[axes[k]]++ || a->dims[axes[k]] != r->dims[k])
			return 0;
		st[k] = ast[axes[k]];
	}
	gather(r, a, 0, st);
	return 1;
}

/* canon: a slice index into an axis of n elements, from the end if
** negative, clamped for stride s as TVM's strided_slice does */
static int64_t
canon(int64_t i, int64_t n, int64_t s)
{
	int64_t l = s < 0 ? -1 : 0, h = s < 0 ? n - 1 : n;

	if (i < 0)
		i += n;
	return i < l ? l : (i > h ? h : i);
}

/* slice: strided_slice(data) with begin, end, strides, axes, slice_mode */
static int
slice(Eval *e, NodeId id, Val *r)
{
	const Module *m = e->m;
	const Val *a = targ(e, id, 0);
	const char *mode = astr(m, id, "slice_mode");
	int64_t b[MAXDIMS], en[MAXDIMS], s[MAXDIMS], ax[MAXDIMS], ast[MAXDIMS], st[MAXDIMS], base = 0;
	int nb, ne, ns, na, size;

	if (!a || a->dt != r->dt || a->rank != r->rank || !mode ||
	    !ints(m, attr(m, id, "begin"), b, MAXDIMS, &nb) ||
	    !ints(m, attr(m, id, "end"), en, MAXDIMS, &ne) ||
	    !ints(m, attr(m, id, "strides"), s, MAXDIMS, &ns) ||
	    !ints(m, attr(m, id, "axes"), ax, MAXDIMS, &na) || nb < 0 || ne < 0 || ns < 0)
		return 0;
	if (strcmp(mode, "end") && strcmp(mode, "size"))
		return 0;
	size = mode[0] == 's';
	if (na >= 0) {
		if (nb != na || ne != na || ns != na)
			return 0;
		for (int k = 0; k < na; k++)
			if (!normaxis(&ax[k], a->rank))
				return 0;
	} else {
		if (nb > a->rank || ne > a->rank || ns > a->rank)
			return 0;
		for (int k = ns; k < a->rank; k++)
			s[k] = 1;
		for (int k = nb; k < a->rank; k++)
			b[k] = s[k] > 0 ? 0 : INT64_MAX;
		for (int k = ne; k < a->rank; k++)
			en[k] = s[k] < 0 ? 0 : INT64_MAX;
		na = a->rank;
		for (int k = 0; k < na; k++)
			ax[k] = k;
	}
	ir_fold_strides(a->dims, a->rank, ast);
	memcpy(st, ast, (size_t)a->rank * sizeof st[0]);
	{
		int touched[MAXDIMS] = { 0 };
		for (int k = 0; k < na; k++) {
			int64_t stp = size ? 1 : s[k], n = a->dims[ax[k]], end = en[k], l, h, mag;
			if (stp == 0 || stp == INT64_MIN || touched[ax[k]]++)
				return 0;
			if (size)
				end = end < 0 ? INT64_MAX : (b[k] > 0 && end > INT64_MAX - b[k] ? INT64_MAX : b[k] + end);
			l = canon(b[k], n, stp);
			h = canon(end, n, stp);
			mag = stp < 0 ? -stp : stp;
			if ((stp < 0 ? h > l : l > h) ||
			    ((l > h ? l - h : h - l) + mag - 1) / mag != r->dims[ax[k]])
				return 0;
			if (r->dims[ax[k]] > 0) {
				base += l * ast[ax[k]];
				st[ax[k]] = stp * ast[ax[k]];
			}
		}
		for (int k = 0; k < a->rank; k++)
			if (!touched[k] && a->dims[k] != r->dims[k])
				return 0;
	}
	gather(r, a, base, st);
	return 1;
}

/* pad: nn.pad(data, pad_value) in constant, edge or reflect mode */
static int
pad(Eval *e, NodeId id, Val *r)
{
	const Module *m = e->m;
	const Val *a = targ(e, id, 0), *pv = targ(e, id, 1);
	const AttrVal *pw = attr(m, id, "pad_width");
	const char *mode = astr(m, id, "pad_mode");
	int64_t before[MAXDIMS], ast[MAXDIMS], idx[MAXDIMS] = { 0 }, nost[1][MAXDIMS], none = 0;
	size_t esz;
	Val fill;
	unsigned char fillbuf[8];
	int md, filled = 0;

	if (!a || !pv || pv->n != 1 || a->dt != r->dt || a->rank != r->rank || !pw || !mode ||
	    pw->kind != AV_ARRAY || pw->n != (uint32_t)a->rank)
		return 0;
	md = !strcmp(mode, "constant") ? 0 : !strcmp(mode, "edge") ? 1 : !strcmp(mode, "reflect") ? 2 : -1;
	if (md < 0)
		return 0;
	for (int k = 0; k < a->rank; k++) {
		const AttrVal *p = &m->attrs[pw->first + (uint32_t)k];
		int64_t l, h;
		if (p->kind != AV_ARRAY || p->n != 2 || m->attrs[p->first].kind != AV_INT ||
		    m->attrs[p->first + 1].kind != AV_INT)
			return 0;
		l = m->attrs[p->first].u.i;
		h = m->attrs[p->first + 1].u.i;
		if (a->dims[k] + l + h != r->dims[k])
			return 0;
		if (md && (l < 0 || h < 0 || (a->dims[k] == 0 && l + h > 0) ||
		           (md == 2 && (l >= a->dims[k] || h >= a->dims[k]) && l + h > 0)))
			return 0;
		before[k] = l;
	}
	/* the pad value, cast to the data's dtype when first needed */
	memset(&fill, 0, sizeof fill);
	fill.kind = VK_TENSOR;
	fill.dt = a->dt;
	fill.n = 1;
	fill.data = fillbuf;
	esz = ir_dtype_bytes[a->dt];
	ir_fold_strides(a->dims, a->rank, ast);
	memset(nost, 0, sizeof nost);
	alloc(r);
	for (int64_t i = 0; i < r->n; i++) {
		int64_t off = 0;
		int in = 1;
		for (int k = 0; k < a->rank; k++) {
			int64_t s = idx[k] - before[k], n = a->dims[k];
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
		if (!in && !filled++ && !conv(pv, 0, &fill, 0))
			return 0;
		memcpy(r->data + (size_t)i * esz, in ? a->data + (size_t)off * esz : fillbuf, esz);
		step(r->rank, r->dims, idx, 1, &none, nost);
	}
	return 1;
}

/* concatenate: the tensors of the tuple operand along axis */
static int
concatenate(Eval *e, NodeId id, Val *r)
{
	const Val *t = arg(e, id, 0);
	int64_t axis, outer = 1, in, done = 0;
	size_t esz = ir_dtype_bytes[r->dt];

	if (t->kind != VK_TUPLE || !t->nf || !aint(e->m, id, "axis", &axis) || !normaxis(&axis, r->rank))
		return 0;
	for (uint32_t j = 0; j < t->nf; j++) {
		const Val *f = &e->vals[t->f[j]];
		if (f->kind != VK_TENSOR || f->dt != r->dt || f->rank != r->rank)
			return 0;
		for (int k = 0; k < r->rank; k++)
			if (k != axis && f->dims[k] != r->dims[k])
				return 0;
		done += f->dims[axis];
	}
	if (done != r->dims[axis])
		return 0;
	for (int k = 0; k < axis; k++)
		outer *= r->dims[k];
	in = inner(r, (int)axis);
	alloc(r);
	done = 0;
	for (uint32_t j = 0; j < t->nf; j++) {
		const Val *f = &e->vals[t->f[j]];
		size_t chunk = (size_t)(f->dims[axis] * in) * esz;
		for (int64_t o = 0; o < outer; o++)
			memcpy(r->data + (size_t)((o * r->dims[axis] + done) * in) * esz,
			       f->data + (size_t)o * chunk, chunk);
		done += f->dims[axis];
	}
	return 1;
}

/* split: the parts of data along axis, a tuple value bound to id */
static int
split(Eval *e, NodeId id)
{
	const Module *m = e->m;
	const Type *tt = ir_type(m, m->nodes[id].type);
	const Val *a = targ(e, id, 0);
	const AttrVal *ios = attr(m, id, "indices_or_sections");
	int64_t axis, outer = 1, in, begin = 0;
	size_t esz;
	Val *parts, tup;
	uint32_t nf;

	if (!a || !ios || !m->nodes[id].type || tt->kind != TY_TUPLE || !tt->n ||
	    !aint(m, id, "axis", &axis) || !normaxis(&axis, a->rank))
		return 0;
	nf = tt->n;
	if (ios->kind == AV_INT ? ios->u.i != (int64_t)nf : ios->kind != AV_ARRAY || ios->n + 1 != nf)
		return 0;
	for (int k = 0; k < axis; k++)
		outer *= a->dims[k];
	in = inner(a, (int)axis);
	esz = ir_dtype_bytes[a->dt];
	parts = ir_xcalloc(nf, sizeof *parts);
	for (uint32_t j = 0; j < nf; j++) {
		Val *p = &parts[j];
		int64_t want = ios->kind == AV_INT ? begin + a->dims[axis] / (int64_t)nf
		             : j + 1 < nf ? m->attrs[ios->first + j].u.i : a->dims[axis];
		if ((ios->kind == AV_ARRAY && j + 1 < nf && m->attrs[ios->first + j].kind != AV_INT) ||
		    !shapeof(m, m->tylist[tt->first + j], p) || p->dt != a->dt || p->rank != a->rank ||
		    p->dims[axis] != want - begin || want > a->dims[axis]) {
			for (uint32_t k = 0; k < j; k++)
				drop(&parts[k]);
			free(parts);
			return 0;
		}
		alloc(p);
		for (int64_t o = 0; o < outer; o++)
			memcpy(p->data + (size_t)(o * p->dims[axis] * in) * esz,
			       a->data + (size_t)((o * a->dims[axis] + begin) * in) * esz,
			       (size_t)(p->dims[axis] * in) * esz);
		begin = want;
	}
	memset(&tup, 0, sizeof tup);
	tup.kind = VK_TUPLE;
	tup.nf = nf;
	tup.f = ir_xmalloc(nf * sizeof *tup.f);
	for (uint32_t j = 0; j < nf; j++)
		tup.f[j] = keep(e, &parts[j]);
	free(parts);
	bind(e, id, keep(e, &tup));
	return 1;
}

/* ---------------------------------------------------------------- evaluation */

/* call: evaluates the call id, whose operands have values, and binds it */
static int
call(Eval *e, NodeId id)
{
	Module *m = e->m;
	OpId op = m->nodes[id].op;
	Val r;
	int ok;

	for (uint32_t i = 0; i < m->nodes[id].nargs; i++)
		if (op != OP_CONCATENATE && !targ(e, id, i))
			return 0;
	if (op == OP_SPLIT)
		return split(e, id);
	if (!shapeof(m, m->nodes[id].type, &r))
		return 0;
	switch (op) {
	case OP_ADD: case OP_SUBTRACT: case OP_MULTIPLY: case OP_DIVIDE:
		ok = arith(e, id, op, &r);
		break;
	case OP_NN_BIAS_ADD: ok = biasadd(e, id, &r); break;
	case OP_CAST: ok = cast(e, id, &r); break;
	case OP_CLIP: ok = clip(e, id, &r); break;
	case OP_NN_RELU: ok = relu(e, id, &r); break;
	case OP_QNN_QUANTIZE: ok = quantize(e, id, &r); break;
	case OP_QNN_DEQUANTIZE: ok = dequantize(e, id, &r); break;
	case OP_QNN_REQUANTIZE: ok = requantize(e, id, &r); break;
	case OP_RESHAPE: case OP_SQUEEZE: case OP_EXPAND_DIMS:
	case OP_ANNOTATION_CAST_HINT: case OP_ANNOTATION_STOP_FUSION:
		ok = alias(e, id, &r);
		break;
	case OP_TRANSPOSE: ok = transpose(e, id, &r); break;
	case OP_STRIDED_SLICE: ok = slice(e, id, &r); break;
	case OP_NN_PAD: ok = pad(e, id, &r); break;
	case OP_CONCATENATE: ok = concatenate(e, id, &r); break;
	default: ok = 0; break;
	}
	if (!ok) {
		drop(&r);
		return 0;
	}
	bind(e, id, keep(e, &r));
	return 1;
}

/* node: evaluates node id, whose operands have values, and binds it */
static int
node(Eval *e, NodeId id)
{
	Module *m = e->m;
	const Node *nd = &m->nodes[id];
	Val v;

	switch (nd->kind) {
	case NK_CONST: {
		const Const *c = ir_node_const(m, id);
		if (!c->data || !shapeof(m, nd->type ? nd->type : c->type, &v) ||
		    c->nbytes != (size_t)v.n * ir_dtype_bytes[v.dt])
			return 0;
		v.data = c->data;
		bind(e, id, keep(e, &v));
		return 1;
	}
	case NK_TUPLE:
		memset(&v, 0, sizeof v);
		v.kind = VK_TUPLE;
		v.nf = nd->nargs;
		v.f = ir_xmalloc((nd->nargs ? nd->nargs : 1) * sizeof *v.f);
		for (uint32_t i = 0; i < nd->nargs; i++)
			v.f[i] = (uint32_t)(arg(e, id, i) - e->vals);
		bind(e, id, keep(e, &v));
		return 1;
	case NK_GETITEM: {
		const Val *t = arg(e, id, 0);
		if (t->kind != VK_TUPLE || nd->aux >= t->nf)
			return 0;
		bind(e, id, t->f[nd->aux]);
		return 1;
	}
	case NK_CALL:
		return call(e, id);
	}
	return 0;
}

/* evaluate: evaluates the subtree under root in post-order with an
** explicit stack; returns the root's value index, or -1 */
static int64_t
evaluate(Eval *e, NodeId root)
{
	Module *m = e->m;
	struct { NodeId n; int open; } *st = NULL;
	uint32_t nst = 0, cap = 0;
	int64_t res = -1;
	int found;
	uint32_t slot;

	ir_vgrow(&st, &cap, 1);
	st[nst].n = root;
	st[nst++].open = 0;
	while (nst) {
		NodeId n = st[nst - 1].n;
		const Node *nd;
		slot = find(e, n, &found);
		if (found && slot != INPROGRESS) {
			nst--;
			continue;
		}
		if (st[nst - 1].open) {
			if (!node(e, n))
				goto out;
			nst--;
			continue;
		}
		if (!n || n >= m->nnodes)
			goto out;
		nd = &m->nodes[n];
		if (nd->kind != NK_CONST && nd->kind != NK_CALL && nd->kind != NK_TUPLE &&
		    nd->kind != NK_GETITEM)
			goto out;
		st[nst - 1].open = 1;
		bind(e, n, INPROGRESS);
		for (uint32_t i = nd->nargs; i-- > 0;) {
			NodeId a = ir_arg(m, n, i);
			slot = find(e, a, &found);
			if (found && slot == INPROGRESS)
				goto out;       /* a cycle */
			if (found)
				continue;
			ir_vgrow(&st, &cap, nst + 1);
			st[nst].n = a;
			st[nst++].open = 0;
		}
	}
	slot = find(e, root, &found);
	res = found ? (int64_t)slot : -1;
out:
	free(st);
	return res;
}

/* scalarconst: the data of n if it is a one-element constant of dtype dt */
static const void *
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

/* qone: one element of quantize(): *q from x, or 0 if it is not exact */
static inline int
qone(float x, float sc, float z, float qlo, float qhi, DType dt, int64_t *q)
{
	float v = (float)((double)x / (double)sc);

	if (isnan(v))
		return 0;
	v = roundf(v);                      /* llvm.round: halves away from zero */
	v = (float)((double)v + (double)z);
	v = v < qhi ? v : qhi;
	v = v > qlo ? v : qlo;
	if (!((double)v >= (double)lo(dt) && (double)v <= (double)hi(dt)))
		return 0;
	*q = (int64_t)v;
	return 1;
}

/* quickquantize: the common fold, qnn.quantize of a float32 constant with
** a per-tensor scale and zero point, computed straight into the new
** constant with quantize()'s arithmetic.  Returns the constant, 0 if the
** result is not exact (as quantize() would), or -1 if this is not that
** case (the general evaluator then takes it). */
static int64_t
quickquantize(Module *m, NodeId n)
{
	const Node *nd = &m->nodes[n];
	NodeId x, out;
	const Const *cx;
	const void *sp, *zp;
	DType dt;
	float sc, qlo, qhi, z;
	int32_t zi;
	int64_t count;
	unsigned char *dst;
	const unsigned char *src;

	if (nd->kind != NK_CALL || nd->op != OP_QNN_QUANTIZE || !nd->type)
		return -1;
	x = ir_arg(m, n, 0);
	if (m->nodes[x].kind != NK_CONST || !(sp = scalarconst(m, ir_arg(m, n, 1), DT_FLOAT32)) ||
	    !(zp = scalarconst(m, ir_arg(m, n, 2), DT_INT32)))
		return -1;
	cx = &m->consts[m->nodes[x].aux];
	dt = (DType)m->types[nd->type].dtype;
	count = ir_type_numel(m, nd->type);
	if (!cx->data || m->types[cx->type].dtype != DT_FLOAT32 || ir_type_numel(m, cx->type) != count ||
	    count < 0 || !isint(dt) || ir_dtype_bytes[dt] > 4)
		return -1;
	memcpy(&sc, sp, 4);
	memcpy(&zi, zp, 4);
	z = (float)zi;
	qlo = (float)lo(dt);
	qhi = (float)hi(dt);
	/* into scratch first: a refused fold adds nothing to the module */
	src = cx->data;
	{
		unsigned char small[1024];
		size_t nbytes = (size_t)count * ir_dtype_bytes[dt];
		dst = nbytes <= sizeof small ? small : ir_xmalloc(nbytes);
		for (int64_t i = 0; i < count; i++) {
			float xv;
			int64_t q;
			memcpy(&xv, src + (size_t)i * 4, 4);
			if (!qone(xv, sc, z, qlo, qhi, dt, &q)) {
				if (dst != small)
					free(dst);
				return 0;
			}
			switch (ir_dtype_bytes[dt]) {
			case 1: dst[i] = (unsigned char)q; break;
			case 2: { uint16_t h = (uint16_t)q; memcpy(dst + 2 * i, &h, 2); break; }
			default: { uint32_t w = (uint32_t)q; memcpy(dst + 4 * i, &w, 4); break; }
			}
		}
		out = ir_const(m, nd->type, dst, nd->loc);
		if (dst != small)
			free(dst);
	}
	return out;
}

NodeId
ir_fold(Module *m, NodeId n)
{
	Eval e;
	int64_t at;
	NodeId out = 0;

	if (n && n < m->nnodes && (at = quickquantize(m, n)) >= 0)
		return (NodeId)at;

	/* only the bookkeeping, not the inline room */
	memset(&e, 0, offsetof(Eval, keys0));
	e.m = m;
	if (n && n < m->nnodes && m->nodes[n].type) {
		at = evaluate(&e, n);
		if (at >= 0) {
			const Val *v = &e.vals[at];
			Val want;
			if (v->kind == VK_TENSOR && shapeof(m, m->nodes[n].type, &want) && want.dt == v->dt &&
			    want.rank == v->rank &&
			    !memcmp(want.dims, v->dims, (size_t)v->rank * sizeof v->dims[0])) {
				Loc loc = m->nodes[n].loc;
				out = ir_const(m, m->nodes[n].type, v->data, loc);
			}
		}
	}
	for (uint32_t i = 0; i < e.nvals; i++)
		drop(&e.vals[i]);
	if (e.vals != e.vals0)
		free(e.vals);
	if (e.keys != e.keys0) {
		free(e.keys);
		free(e.slots);
	}
	return out;
}
