/*
** tests/unit/fold.c: ref_fold, graft's exact constant evaluation.  Each case
** builds a small function by hand, infers its types, folds its body and
** compares the new constant with values worked out by hand in the comment
** beside it.  The semantics are TVM's (see the top of ref/ops.c); where
** PyTorch differs, the comment says so.  The last group replays the
** vectors of tests/unit/fold_vectors.h, made by tests/data/fold_vectors.py
** with PyTorch: every result must equal the TVM reference bit for bit, and
** every difference from PyTorch must be one of the documented kinds.
*/
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "ir.h"
#include "tap.h"

#include "fold_vectors.h"

#define S(...) ((const int64_t[]){ __VA_ARGS__ })
#define V(...) ((const double[]){ __VA_ARGS__ })
#define A(...) ((const NodeId[]){ __VA_ARGS__ })
#define NA(a) (sizeof (a) / sizeof (a)[0])

static Module *M;
static Diag D;
static Loc noloc;
static int nfuncs;
static uint32_t lastnodes;  /* node count before the last fold */

/* bail: stops the run on a broken test */
static _Noreturn void
bail(const char *what, const char *name)
{
	printf("Bail out! %s %s\n", what, name);
	exit(255);
}

/* put: stores v as element i of dtype dt at p, little-endian */
static void
put(unsigned char *p, DType dt, int64_t i, double v)
{
	int nb = ir_dtype_bytes[dt];
	uint64_t u;

	if (dt == DT_FLOAT16) {
		u = ir_f16_from_f32((float)v);
	} else if (dt == DT_FLOAT32) {
		float f = (float)v;
		uint32_t w;
		memcpy(&w, &f, 4);
		u = w;
	} else if (dt == DT_FLOAT64) {
		memcpy(&u, &v, 8);
	} else {
		u = (uint64_t)(int64_t)v;
	}
	for (int k = 0; k < nb; k++, u >>= 8)
		p[(size_t)i * (size_t)nb + (size_t)k] = (unsigned char)(u & 0xff);
}

/* raw: element i of constant c as its bits */
static uint64_t
raw(NodeId c, int64_t i)
{
	const Const *k = ir_node_const(M, c);
	int nb = ir_dtype_bytes[ir_type(M, k->type)->dtype];
	const unsigned char *p = (const unsigned char *)k->data + (size_t)i * (size_t)nb;
	uint64_t u = 0;

	for (int b = nb - 1; b >= 0; b--)
		u = u << 8 | p[b];
	return u;
}

/* get: element i of constant c as a double (integers exactly) */
static double
get(NodeId c, int64_t i)
{
	DType dt = (DType)ir_type(M, ir_node_const(M, c)->type)->dtype;
	int nb = ir_dtype_bytes[dt];
	uint64_t u = raw(c, i);

	if (dt == DT_FLOAT16)
		return ir_f32_from_f16((uint16_t)u);
	if (dt == DT_FLOAT32) {
		uint32_t w = (uint32_t)u;
		float f;
		memcpy(&f, &w, 4);
		return f;
	}
	if (dt == DT_FLOAT64) {
		double d;
		memcpy(&d, &u, 8);
		return d;
	}
	if (ir_dtype_kind[dt] == 'i' && nb < 8 && (u >> (nb * 8 - 1)) & 1)
		u |= ~(uint64_t)0 << (nb * 8);
	return (double)(int64_t)u;
}

/* mk: a constant of dtype dt and the rank dims holding vals */
static NodeId
mk(DType dt, int rank, const int64_t *dims, const double *vals)
{
	TypeId t = ir_type_tensor(M, dt, rank, dims);
	int64_t n = ir_type_numel(M, t);
	unsigned char *buf = malloc((size_t)n * ir_dtype_bytes[dt] + 1);
	NodeId c;

	for (int64_t i = 0; i < n; i++)
		put(buf, dt, i, vals[i]);
	c = ir_const(M, t, buf, noloc);
	free(buf);
	return c;
}

/* sc: a scalar constant */
static NodeId
sc(DType dt, double v)
{
	return mk(dt, 0, NULL, &v);
}

/* call: op applied to the n args, with attributes given as name, Relay
** literal pairs ending in NULL */
static NodeId
call(OpId op, const NodeId *args, uint32_t n, ...)
{
	AttrId a = ir_ops[op].nattrs ? ir_attr_defaults(M, op) : 0;
	const char *name;
	va_list ap;

	va_start(ap, n);
	while ((name = va_arg(ap, const char *)) != NULL) {
		const char *text = va_arg(ap, const char *);
		int i = ir_op_attr_index(op, name, strlen(name));
		AttrVal v;
		if (i < 0 || !ir_attr_parse(M, text, &v) || ir_attr_conform(M, ir_ops[op].attrs[i].type, &v))
			bail("bad attribute", name);
		M->attrs[a + (uint32_t)i] = v;
	}
	va_end(ap);
	return ir_call(M, op, args, n, a, noloc);
}

/* fold: makes body the body of a new global function with the params,
** infers types, and folds body; checks that a fold adds exactly one node,
** a constant of body's type, and that a refusal adds none */
static NodeId
foldp(NodeId body, const NodeId *params, uint32_t np)
{
	char name[32];
	NodeId fn, r;

	snprintf(name, sizeof name, "f%d", nfuncs++);
	fn = ir_func(M, params, np, body, 0, 0, 0, noloc);
	ir_global_add(M, ir_symz(M, name), fn);
	if (ir_infer_types(M, &D))
		bail("type inference failed for", name);
	lastnodes = M->nnodes;
	r = ref_fold(M, body);
	if (r && (M->nnodes != lastnodes + 1 || M->nodes[r].kind != NK_CONST ||
	          M->nodes[r].type != M->nodes[body].type || ir_node_const(M, r)->type != M->nodes[body].type))
		bail("fold made a bad constant for", name);
	if (!r && M->nnodes != lastnodes)
		bail("a refused fold added nodes for", name);
	return r;
}

static NodeId
fold(NodeId body)
{
	return foldp(body, NULL, 0);
}

/* check: one test point: c is a constant of dtype dt whose n elements
** equal want (floats by value and sign) */
static int
check(NodeId c, DType dt, int64_t n, const double *want, const char *what)
{
	int64_t bad = -1;

	if (c && ir_type(M, ir_node_const(M, c)->type)->dtype == dt &&
	    ir_type_numel(M, ir_node_const(M, c)->type) == n) {
		for (int64_t i = 0; i < n && bad < 0; i++)
			if (get(c, i) != want[i] || signbit(get(c, i)) != signbit(want[i]))
				bad = i;
	} else {
		bad = n;
	}
	ok(bad < 0, "%s", what);
	if (bad >= 0 && c && bad < n)
		printf("#   element %lld: got %.9g, want %.9g\n", (long long)bad, get(c, bad), want[bad]);
	else if (bad >= 0)
		printf("#   %s\n", c ? "wrong dtype or size" : "not folded");
	return bad < 0;
}

/* refused: one test point: the fold returned 0 */
static void
refused(NodeId c, const char *what)
{
	ok(c == 0, "%s", what);
}

/* ---------------------------------------------------------------- helpers */

static void
test_strides(void)
{
	int64_t st[8];

	ref_strides(S(2, 3, 4), 3, st);
	ok(st[0] == 12 && st[1] == 4 && st[2] == 1, "strides of (2, 3, 4) are (12, 4, 1)");
	ref_strides(S(5, 1), 2, st);
	ok(st[0] == 1 && st[1] == 1, "strides of (5, 1) are (1, 1)");
	/* (3) read as (2, 3): the row axis is missing, stride 0 */
	ok(ref_bcast_strides(S(3), 1, S(2, 3), 2, st) && st[0] == 0 && st[1] == 1,
	   "(3) broadcast to (2, 3) reads with strides (0, 1)");
	/* (2, 1) read as (2, 3): the column axis is 1, stride 0 */
	ok(ref_bcast_strides(S(2, 1), 2, S(2, 3), 2, st) && st[0] == 1 && st[1] == 0,
	   "(2, 1) broadcast to (2, 3) reads with strides (1, 0)");
	ok(ref_bcast_strides(S(1, 3), 2, S(4, 2, 3), 3, st) && st[0] == 0 && st[1] == 0 && st[2] == 1,
	   "(1, 3) broadcast to (4, 2, 3) reads with strides (0, 0, 1)");
	ok(ref_bcast_strides(S(0), 0, S(2, 2), 2, st) && st[0] == 0 && st[1] == 0,
	   "a scalar broadcasts with all strides 0");
	ok(ref_bcast_strides(S(4, 1, 2), 3, S(4, 3, 2), 3, st) && st[0] == 2 && st[1] == 0 && st[2] == 1,
	   "(4, 1, 2) broadcast to (4, 3, 2) reads with strides (2, 0, 1)");
	ok(!ref_bcast_strides(S(2, 3), 2, S(3, 3), 2, st), "(2, 3) does not broadcast to (3, 3)");
	ok(!ref_bcast_strides(S(2, 3), 2, S(3), 1, st), "a higher rank does not broadcast to a lower one");
}

/* ---------------------------------------------------------------- qnn.quantize */

/* quantize with TVM's rounding over 4099 values (four-wide steps and a
** scalar tail) per integer dtype and two scales, against an oracle in
** double: the float32 quotient, C's round() (halves away from zero), the
** zero point added and rounded to float32, the clip */
static void
test_quantize_sweep(void)
{
	static const DType dts[] = { DT_INT8, DT_UINT8, DT_INT16, DT_UINT16, DT_INT32 };
	static const float scales[] = { 0.25f, 0.37f };
	enum { N = 4099 };
	double *x = malloc(N * sizeof *x), *want = malloc(N * sizeof *want);
	uint32_t seed = 12345;
	char what[96];

	for (int d = 0; d < 5; d++)
		for (int k = 0; k < 2; k++) {
			DType dt = dts[d];
			int nb = ir_dtype_bytes[dt], sgn = ir_dtype_kind[dt] == 'i';
			double lo = sgn ? -ldexp(1, 8 * nb - 1) : 0, hi = sgn ? ldexp(1, 8 * nb - 1) - 1 : ldexp(1, 8 * nb) - 1;
			float scale = scales[k];
			int32_t zp = sgn ? -5 : 3;
			/* wide dtypes: magnitudes that stay in range (a value that
			   clips to 2^31 is refused, tested below) */
			int maxexp = nb == 4 ? 28 : 40;
			for (int i = 0; i < N; i++) {
				float f;
				seed = seed * 1664525u + 1013904223u;
				switch (i % 8) {
				case 0: f = ((float)(i / 8 % 601) - 300.0f + 0.5f) * scale; break;  /* ties */
				case 1: f = (float)(seed >> 8) * scale; break;
				case 2: f = i % 16 ? 0.0f : -0.0f; break;
				case 3: f = (8388608.0f + (float)(i / 8 % 5) - 2.0f) * 0.5f; break;
				case 4: f = 1e-40f * (float)(i % 3 - 1); break;          /* denormals */
				default:
					f = ldexpf((float)(seed >> 9) / 8388608.0f, (int)(seed % (uint32_t)(maxexp + 20)) - 20);
					if (seed & 0x80000000u)
						f = -f;
					break;
				}
				x[i] = f;
				{
					double q = (double)(float)((double)f / (double)scale);
					double r = (double)(float)(round(q) + zp);
					r = r < (double)(float)hi ? r : (double)(float)hi;
					r = r > (double)(float)lo ? r : (double)(float)lo;
					want[i] = r;
				}
			}
			{
				NodeId q = call(OP_QNN_QUANTIZE, A(mk(DT_FLOAT32, 1, S(N), x), sc(DT_FLOAT32, scale), sc(DT_INT32, zp)),
				                3, "out_dtype", dt == DT_INT8 ? "\"int8\"" : dt == DT_UINT8 ? "\"uint8\"" :
				                dt == DT_INT16 ? "\"int16\"" : dt == DT_UINT16 ? "\"uint16\"" : "\"int32\"", NULL);
				snprintf(what, sizeof what, "quantize of %d values to %s, scale %g, zero point %d, against the oracle",
				         N, ir_dtype_names[dt], (double)scale, zp);
				check(fold(q), dt, N, want, what);
			}
		}
	free(x);
	free(want);
	/* what exact mode refuses, in a four-wide step: NaN, and a value
	   that clips to 2^31, which int32 cannot hold */
	{
		NodeId q = call(OP_QNN_QUANTIZE, A(mk(DT_FLOAT32, 1, S(8), V(1, 2, NAN, 4, 5, 6, 7, 8)),
		                                    sc(DT_FLOAT32, 1), sc(DT_INT32, 0)), 3, "out_dtype", "\"int8\"", NULL);
		refused(fold(q), "quantize of a NaN is refused (four-wide step)");
		q = call(OP_QNN_QUANTIZE, A(mk(DT_FLOAT32, 1, S(8), V(1, 2, 3, 4, 5, 3e9, 7, 8)),
		                             sc(DT_FLOAT32, 1), sc(DT_INT32, 0)), 3, "out_dtype", "\"int32\"", NULL);
		refused(fold(q), "quantize to int32 of a value that clips to 2^31 is refused (four-wide step)");
		q = call(OP_QNN_QUANTIZE, A(mk(DT_FLOAT32, 1, S(8), V(1, 2, 3, 4, 5, 2147483520.0, -3e9, 8)),
		                             sc(DT_FLOAT32, 1), sc(DT_INT32, 0)), 3, "out_dtype", "\"int32\"", NULL);
		check(fold(q), DT_INT32, 8, V(1, 2, 3, 4, 5, 2147483520.0, -2147483648.0, 8),
		      "quantize to int32 keeps 2^31 - 128 and clips -3e9 to -2^31");
	}
}

static void
test_quantize(void)
{
	NodeId q;

	/* scale 1, zero point 0: round(x) with llvm.round, halves away from
	** zero: 2.5 -> 3, 3.5 -> 4, -2.5 -> -3, 0.5 -> 1, -0.5 -> -1,
	** 1.5 -> 2, -1.5 -> -2, 2.4999998 -> 2.  (PyTorch rounds halves to
	** even: 2, 4, -2, 0, 0, 2, -2.) */
	q = call(OP_QNN_QUANTIZE, A(mk(DT_FLOAT32, 1, S(8), V(2.5, 3.5, -2.5, 0.5, -0.5, 1.5, -1.5, 2.4999998)),
	                            sc(DT_FLOAT32, 1), sc(DT_INT32, 0)), 3,
	         "out_dtype", "\"int8\"", "axis", "0", NULL);
	check(fold(q), DT_INT8, 8, V(3, 4, -3, 1, -1, 2, -2, 2), "quantize ties round away from zero (TVM), not to even");

	/* int8 saturation: 1000 -> 127, -1000 -> -128, 127.4 -> 127,
	** 127.6 -> 128 -> 127, -128.4 -> -128, -128.6 -> -129 -> -128 */
	q = call(OP_QNN_QUANTIZE, A(mk(DT_FLOAT32, 1, S(6), V(1000, -1000, 127.4, 127.6, -128.4, -128.6)),
	                            sc(DT_FLOAT32, 1), sc(DT_INT32, 0)), 3, "out_dtype", "\"int8\"", NULL);
	check(fold(q), DT_INT8, 6, V(127, -128, 127, 127, -128, -128), "quantize saturates at -128 and 127");

	/* uint8 saturation: -3 -> 0, 300 -> 255, 254.5 -> 255 (away from
	** zero), 0.4 -> 0, 0.5 -> 1 */
	q = call(OP_QNN_QUANTIZE, A(mk(DT_FLOAT32, 1, S(5), V(-3, 300, 254.5, 0.4, 0.5)),
	                            sc(DT_FLOAT32, 1), sc(DT_INT32, 0)), 3, "out_dtype", "\"uint8\"", NULL);
	check(fold(q), DT_UINT8, 5, V(0, 255, 255, 0, 1), "quantize saturates at 0 and 255");

	/* scale 0.5, zero point -10: x / 0.5 = 2, -2, 0.5, -0.5, 120;
	** rounded 2, -2, 1, -1, 120; minus 10: -8, -12, -9, -11, 110 */
	q = call(OP_QNN_QUANTIZE, A(mk(DT_FLOAT32, 1, S(5), V(1, -1, 0.25, -0.25, 60)),
	                            sc(DT_FLOAT32, 0.5), sc(DT_INT32, -10)), 3, "out_dtype", "\"int8\"", NULL);
	check(fold(q), DT_INT8, 5, V(-8, -12, -9, -11, 110), "quantize with a negative zero point");

	/* per channel along axis 0 of (2, 3): row 0 scale 0.5 zp 1, row 1
	** scale 0.25 zp -1.  Row 0: 1/0.5 = 2, -0.75/0.5 = -1.5 -> -2,
	** 2/0.5 = 4; plus 1: 3, -1, 5.  Row 1: 1/0.25 = 4, -0.75/0.25 = -3,
	** 0.1/0.25 = 0.4 -> 0; minus 1: 3, -4, -1 */
	q = call(OP_QNN_QUANTIZE, A(mk(DT_FLOAT32, 2, S(2, 3), V(1, -0.75, 2, 1, -0.75, 0.1)),
	                            mk(DT_FLOAT32, 1, S(2), V(0.5, 0.25)), mk(DT_INT32, 1, S(2), V(1, -1))), 3,
	         "out_dtype", "\"int8\"", "axis", "0", NULL);
	check(fold(q), DT_INT8, 6, V(3, -1, 5, 3, -4, -1), "per-channel quantize along axis 0");

	/* per channel along axis 1 of (2, 3), scales 1, 0.5, 0.25 and a
	** scalar zero point 0: row 0: 1.5 -> 2, 1.5/0.5 = 3, 1.5/0.25 = 6;
	** row 1: -2.6 -> -3, 0.3/0.5 = 0.6 -> 1, -0.1/0.25 = -0.4 -> -0 -> 0 */
	q = call(OP_QNN_QUANTIZE, A(mk(DT_FLOAT32, 2, S(2, 3), V(1.5, 1.5, 1.5, -2.6, 0.3, -0.1)),
	                            mk(DT_FLOAT32, 1, S(3), V(1, 0.5, 0.25)), sc(DT_INT32, 0)), 3,
	         "out_dtype", "\"int8\"", "axis", "1", NULL);
	check(fold(q), DT_INT8, 6, V(2, 3, 6, -3, 1, 0), "per-channel quantize along axis 1");
	/* the same with axis -1 */
	q = call(OP_QNN_QUANTIZE, A(mk(DT_FLOAT32, 2, S(2, 3), V(1.5, 1.5, 1.5, -2.6, 0.3, -0.1)),
	                            mk(DT_FLOAT32, 1, S(3), V(1, 0.5, 0.25)), sc(DT_INT32, 0)), 3,
	         "out_dtype", "\"int8\"", "axis", "-1", NULL);
	check(fold(q), DT_INT8, 6, V(2, 3, 6, -3, 1, 0), "per-channel quantize along axis -1");

	/* the seed: qnn.quantize(w, 0.00288958f, 0, out_dtype="int8", axis=0).
	** In float32: 0.1/0.00288958 = 34.607 -> 35; -0.25/... = -86.518 ->
	** -87; 0.2/... = 69.214 -> 69; 0.0014447/... = 0.49997 -> 0;
	** 0.36/... = 124.586 -> 125; -0.37/... = -128.046 -> -128;
	** 0.5/... = 173.04 -> 127 (saturated) */
	q = call(OP_QNN_QUANTIZE, A(mk(DT_FLOAT32, 1, S(7), V(0.1, -0.25, 0.2, 0.0014447, 0.36, -0.37, 0.5)),
	                            sc(DT_FLOAT32, 0.00288958), sc(DT_INT32, 0)), 3,
	         "out_dtype", "\"int8\"", "axis", "0", NULL);
	check(fold(q), DT_INT8, 7, V(35, -87, 69, 0, 125, -128, 127), "the seed's weight quantize");

	/* int32 bias, scale 5.39136e-05: 0.0123/s = 228.143 -> 228;
	** -0.5/s = -9274.098 -> -9274; 1/s = 18548.195 -> 18548;
	** 2e-5/s = 0.371 -> 0 */
	q = call(OP_QNN_QUANTIZE, A(mk(DT_FLOAT32, 1, S(4), V(0.0123, -0.5, 1, 2e-5)),
	                            sc(DT_FLOAT32, 5.39136e-05), sc(DT_INT32, 0)), 3,
	         "out_dtype", "\"int32\"", NULL);
	check(fold(q), DT_INT32, 4, V(228, -9274, 18548, 0), "int32 bias quantize");

	/* 120000/5.39136e-05 = 2225783296 clamps to 2147483647, which is
	** 2147483648 in float32; its cast to int32 is undefined */
	q = call(OP_QNN_QUANTIZE, A(mk(DT_FLOAT32, 1, S(1), V(120000)), sc(DT_FLOAT32, 5.39136e-05),
	                            sc(DT_INT32, 0)), 3, "out_dtype", "\"int32\"", NULL);
	refused(fold(q), "int32 quantize above 2^31 - 128 is not folded (cast of 2^31)");

	/* NaN data is refused */
	q = call(OP_QNN_QUANTIZE, A(mk(DT_FLOAT32, 1, S(2), V(1, NAN)), sc(DT_FLOAT32, 1), sc(DT_INT32, 0)), 3,
	         "out_dtype", "\"int8\"", NULL);
	refused(fold(q), "quantize of NaN is not folded");

	/* infinity: round(inf) + 0 = inf, clipped to 127; -inf to -128 */
	q = call(OP_QNN_QUANTIZE, A(mk(DT_FLOAT32, 1, S(2), V(INFINITY, -INFINITY)), sc(DT_FLOAT32, 1),
	                            sc(DT_INT32, 0)), 3, "out_dtype", "\"int8\"", NULL);
	check(fold(q), DT_INT8, 2, V(127, -128), "quantize of infinities saturates");
}

/* ---------------------------------------------------------------- qnn.dequantize */

static void
test_dequantize(void)
{
	NodeId q;

	/* (x - (-1)) * 0.5: -128 -> -63.5, 0 -> 0.5, 127 -> 64 */
	q = call(OP_QNN_DEQUANTIZE, A(mk(DT_INT8, 1, S(3), V(-128, 0, 127)), sc(DT_FLOAT32, 0.5),
	                              sc(DT_INT32, -1)), 3, "out_dtype", "\"float32\"", NULL);
	check(fold(q), DT_FLOAT32, 3, V(-63.5, 0.5, 64), "dequantize int8");

	/* per channel along axis 1 of (2, 2): scales 0.5, 2, zero points 0, 10:
	** row 0: 4 * 0.5 = 2, (4 - 10) * 2 = -12; row 1: 1 * 0.5 = 0.5,
	** (11 - 10) * 2 = 2 */
	q = call(OP_QNN_DEQUANTIZE, A(mk(DT_UINT8, 2, S(2, 2), V(4, 4, 1, 11)), mk(DT_FLOAT32, 1, S(2), V(0.5, 2)),
	                              mk(DT_INT32, 1, S(2), V(0, 10))), 3,
	         "out_dtype", "\"float32\"", "axis", "1", NULL);
	check(fold(q), DT_FLOAT32, 4, V(2, -12, 0.5, 2), "per-channel dequantize along axis 1");

	/* float16: 200000 * 1 clips to 65504 first; 3 * 0.1f = 0.30000001
	** in float32, whose nearest half is 1229 * 2^-12 = 0.300048828125 */
	q = call(OP_QNN_DEQUANTIZE, A(mk(DT_INT32, 1, S(3), V(200000, -200000, 3)), sc(DT_FLOAT32, 1),
	                              sc(DT_INT32, 0)), 3, "out_dtype", "\"float16\"", NULL);
	check(fold(q), DT_FLOAT16, 3, V(65504, -65504, 3), "dequantize to float16 clips to +-65504");
	q = call(OP_QNN_DEQUANTIZE, A(mk(DT_INT32, 1, S(1), V(3)), sc(DT_FLOAT32, 0.1), sc(DT_INT32, 0)), 3,
	         "out_dtype", "\"float16\"", NULL);
	check(fold(q), DT_FLOAT16, 1, V(0.300048828125), "dequantize to float16 rounds to the nearest half");

	/* int32 data - zero point overflows int32: -2147483648 - 1 */
	q = call(OP_QNN_DEQUANTIZE, A(mk(DT_INT32, 1, S(1), V(-2147483648.0)), sc(DT_FLOAT32, 1),
	                              sc(DT_INT32, 1)), 3, "out_dtype", "\"float32\"", NULL);
	refused(fold(q), "dequantize whose int32 subtraction overflows is not folded");
}

/* ---------------------------------------------------------------- qnn.requantize */

/* rq: qnn.requantize of data with the given parameters */
static NodeId
rq(NodeId data, NodeId is, double iz, double os, double oz, const char *rounding, const char *out,
   const char *axis)
{
	return call(OP_QNN_REQUANTIZE, A(data, is, sc(DT_INT32, iz), sc(DT_FLOAT32, os), sc(DT_INT32, oz)), 5,
	            "rounding", rounding, "out_dtype", out, "axis", axis, NULL);
}

static void
test_requantize(void)
{
	const double odd[] = { 3, 5, -3, -5, 4, -4, 1, -1 };
	NodeId q;

	/* input_scale / output_scale = 0.5: multiplier 2^30, shift 0 (frexp
	** 0.5 = 0.5 * 2^0).  UPWARD, q_multiply_shift's power-of-two case:
	** (x + 1) >> 1: 3 -> 2, 5 -> 3, -3 -> -1, -5 -> -2, 4 -> 2, -4 -> -2,
	** 1 -> 1, -1 -> 0 (halves toward +inf) */
	q = rq(mk(DT_INT32, 1, S(8), odd), sc(DT_FLOAT32, 0.5), 0, 1, 0, "\"UPWARD\"", "\"int8\"", "-1");
	check(fold(q), DT_INT8, 8, V(2, 3, -1, -2, 2, -2, 1, 0), "requantize UPWARD rounds halves up");
	/* rounding "None" is UPWARD */
	q = rq(mk(DT_INT32, 1, S(8), odd), sc(DT_FLOAT32, 0.5), 0, 1, 0, "\"None\"", "\"int8\"", "-1");
	check(fold(q), DT_INT8, 8, V(2, 3, -1, -2, 2, -2, 1, 0), "requantize rounding None is UPWARD");
	/* TONEAREST: (x * 2^30 + 2^30 - (x < 0)) >> 31: -3 -> (-2^31 - 1) >> 31
	** = -2, -5 -> (-2^32 - 1) >> 31 = -3, -1 -> -1 (halves away from zero) */
	q = rq(mk(DT_INT32, 1, S(8), odd), sc(DT_FLOAT32, 0.5), 0, 1, 0, "\"TONEAREST\"", "\"int8\"", "-1");
	check(fold(q), DT_INT8, 8, V(2, 3, -2, -3, 2, -2, 1, -1), "requantize TONEAREST rounds halves away from zero");

	/* ratio 1.5: frexp = 0.75 * 2^1, multiplier 0.75 * 2^31 = 1610612736,
	** shift 1.  x = 1: (2 * 1610612736 + 2^30) >> 31 = 2 (1.5 -> 2);
	** x = -1: UPWARD (-3221225472 + 2^30) >> 31 = -1, TONEAREST -2;
	** x = 3: 4.5 -> 5 both; x = -3: -4.5 -> -4 UPWARD, -5 TONEAREST */
	q = rq(mk(DT_INT32, 1, S(4), V(1, -1, 3, -3)), sc(DT_FLOAT32, 1.5), 0, 1, 0, "\"UPWARD\"", "\"int32\"", "-1");
	check(fold(q), DT_INT32, 4, V(2, -1, 5, -4), "requantize by 1.5, UPWARD");
	q = rq(mk(DT_INT32, 1, S(4), V(1, -1, 3, -3)), sc(DT_FLOAT32, 1.5), 0, 1, 0, "\"TONEAREST\"", "\"int32\"", "-1");
	check(fold(q), DT_INT32, 4, V(2, -2, 5, -5), "requantize by 1.5, TONEAREST");

	/* per channel along axis 0 of (2, 2), input scales 0.5 and 2, output
	** scale 1: row 0 by 0.5 (no power-of-two shortcut per channel, same
	** values): 3 -> 2, -3 -> -1 (UPWARD) or -2 (TONEAREST); row 1 by 2:
	** multiplier 2^30, shift 2: 3 -> 6, -3 -> -6 */
	q = rq(mk(DT_INT32, 2, S(2, 2), V(3, -3, 3, -3)), mk(DT_FLOAT32, 1, S(2), V(0.5, 2)), 0, 1, 0,
	       "\"UPWARD\"", "\"int8\"", "0");
	check(fold(q), DT_INT8, 4, V(2, -1, 6, -6), "per-channel requantize, UPWARD");
	q = rq(mk(DT_INT32, 2, S(2, 2), V(3, -3, 3, -3)), mk(DT_FLOAT32, 1, S(2), V(0.5, 2)), 0, 1, 0,
	       "\"TONEAREST\"", "\"int8\"", "0");
	check(fold(q), DT_INT8, 4, V(2, -2, 6, -6), "per-channel requantize, TONEAREST");
	/* the same along axis 1 of the transposed data */
	q = rq(mk(DT_INT32, 2, S(2, 2), V(3, 3, -3, -3)), mk(DT_FLOAT32, 1, S(2), V(0.5, 2)), 0, 1, 0,
	       "\"TONEAREST\"", "\"int8\"", "1");
	check(fold(q), DT_INT8, 4, V(2, 6, -2, -6), "per-channel requantize along axis 1");

	/* saturation: ratio 1/0.01f = 100.0000022, output zero point 10:
	** 2 -> 200 + 10 -> 127, -2 -> -190 -> -128, 1 -> 110, -1 -> -90 */
	q = rq(mk(DT_INT32, 1, S(4), V(2, -2, 1, -1)), sc(DT_FLOAT32, 1), 0, 0.01, 10, "\"UPWARD\"", "\"int8\"", "-1");
	check(fold(q), DT_INT8, 4, V(127, -128, 110, -90), "requantize saturates to int8");
	q = rq(mk(DT_INT32, 1, S(2), V(3, -1)), sc(DT_FLOAT32, 1), 0, 0.01, 0, "\"UPWARD\"", "\"uint8\"", "-1");
	check(fold(q), DT_UINT8, 2, V(255, 0), "requantize saturates to uint8");

	/* input zero point 100 on uint8 data, equal scales (the multiply is
	** skipped): 228 - 100 = 128, + 5 -> 133 */
	q = rq(mk(DT_UINT8, 1, S(2), V(228, 0)), sc(DT_FLOAT32, 0.25), 100, 0.25, 5, "\"UPWARD\"", "\"int32\"", "-1");
	check(fold(q), DT_INT32, 2, V(133, -95), "requantize subtracts and adds zero points in int32");

	/* int32 out is not clipped: 1000000 * 3 = 3000000 */
	q = rq(mk(DT_INT32, 1, S(1), V(1000000)), sc(DT_FLOAT32, 3), 0, 1, 0, "\"UPWARD\"", "\"int32\"", "-1");
	check(fold(q), DT_INT32, 1, V(3000000), "requantize to int32 does not clip");

	/* compute_dtype: "int64" is the algorithm folded; float32 depends on
	** the target and is refused */
	q = call(OP_QNN_REQUANTIZE, A(mk(DT_INT32, 1, S(1), V(5)), sc(DT_FLOAT32, 0.5), sc(DT_INT32, 0),
	                              sc(DT_FLOAT32, 1), sc(DT_INT32, 0)), 5,
	         "compute_dtype", "\"int64\"", "out_dtype", "\"int8\"", NULL);
	check(fold(q), DT_INT8, 1, V(3), "requantize with compute_dtype int64");
	q = call(OP_QNN_REQUANTIZE, A(mk(DT_INT32, 1, S(1), V(5)), sc(DT_FLOAT32, 0.5), sc(DT_INT32, 0),
	                              sc(DT_FLOAT32, 1), sc(DT_INT32, 0)), 5,
	         "compute_dtype", "\"float32\"", "out_dtype", "\"int8\"", NULL);
	refused(fold(q), "requantize with compute_dtype float32 is not folded");

	/* a tiny ratio needs a right shift past 63 bits: 2^-40 */
	q = rq(mk(DT_INT32, 1, S(1), V(5)), sc(DT_FLOAT32, ldexp(1, -40)), 0, 1, 0, "\"UPWARD\"", "\"int8\"", "-1");
	refused(fold(q), "requantize by 2^-40 (shift out of range) is not folded");
	/* zero output scale is an error in TVM */
	q = rq(mk(DT_INT32, 1, S(1), V(5)), sc(DT_FLOAT32, 1), 0, 0, 0, "\"UPWARD\"", "\"int8\"", "-1");
	refused(fold(q), "requantize with output scale 0 is not folded");
}

/* ---------------------------------------------------------------- cast, clip, relu */

static void
test_cast(void)
{
	NodeId c, r;

	/* int32 -> int8 keeps the low byte: 300 = 0x12c -> 0x2c = 44,
	** -129 = ...ff7f -> 0x7f = 127, 127, -1 */
	c = call(OP_CAST, A(mk(DT_INT32, 1, S(4), V(300, -129, 127, -1))), 1, "dtype", "\"int8\"", NULL);
	check(fold(c), DT_INT8, 4, V(44, 127, 127, -1), "cast int32 -> int8 wraps");
	/* int8 -1 -> uint8 255; uint8 255 -> int32 255 (zero-extended) */
	c = call(OP_CAST, A(mk(DT_INT8, 1, S(2), V(-1, -128))), 1, "dtype", "\"uint8\"", NULL);
	check(fold(c), DT_UINT8, 2, V(255, 128), "cast int8 -> uint8 reinterprets");
	c = call(OP_CAST, A(mk(DT_UINT8, 1, S(1), V(255))), 1, "dtype", "\"int32\"", NULL);
	check(fold(c), DT_INT32, 1, V(255), "cast uint8 -> int32 zero-extends");
	/* to the dtype it has (PyTorch's exported weights): the same values */
	c = call(OP_CAST, A(mk(DT_INT8, 1, S(5), V(-128, -1, 0, 1, 127))), 1, "dtype", "\"int8\"", NULL);
	check(fold(c), DT_INT8, 5, V(-128, -1, 0, 1, 127), "cast int8 -> int8 keeps every value");
	c = call(OP_CAST, A(mk(DT_INT32, 1, S(3), V(-2147483648.0, -7, 2147483647.0))), 1, "dtype", "\"int32\"", NULL);
	check(fold(c), DT_INT32, 3, V(-2147483648.0, -7, 2147483647.0), "cast int32 -> int32 keeps every value");
	c = call(OP_CAST, A(mk(DT_FLOAT32, 1, S(2), V(NAN, 1))), 1, "dtype", "\"float32\"", NULL);
	refused(fold(c), "cast float32 -> float32 of a NaN is still refused (exact mode)");
	/* float -> int truncates toward zero: 2.7 -> 2, -2.7 -> -2, 0.5 -> 0,
	** -0.9 -> 0, 2147483520 (the largest float32 below 2^31) stays */
	c = call(OP_CAST, A(mk(DT_FLOAT32, 1, S(5), V(2.7, -2.7, 0.5, -0.9, 2147483520.0))), 1,
	         "dtype", "\"int32\"", NULL);
	check(fold(c), DT_INT32, 5, V(2, -2, 0, 0, 2147483520.0), "cast float32 -> int32 truncates");
	/* -0.9 -> uint8 truncates to 0, which is in range; 255.9 -> 255 */
	c = call(OP_CAST, A(mk(DT_FLOAT32, 1, S(2), V(-0.9, 255.9))), 1, "dtype", "\"uint8\"", NULL);
	check(fold(c), DT_UINT8, 2, V(0, 255), "cast float32 -> uint8 truncates");
	c = call(OP_CAST, A(mk(DT_FLOAT32, 1, S(2), V(1, NAN))), 1, "dtype", "\"int32\"", NULL);
	refused(fold(c), "cast of NaN to int32 is not folded");
	c = call(OP_CAST, A(mk(DT_FLOAT32, 1, S(1), V(128))), 1, "dtype", "\"int8\"", NULL);
	refused(fold(c), "cast of 128.0 to int8 (out of range) is not folded");
	c = call(OP_CAST, A(mk(DT_FLOAT32, 1, S(1), V(2147483648.0))), 1, "dtype", "\"int32\"", NULL);
	refused(fold(c), "cast of 2^31 to int32 is not folded");
	c = call(OP_CAST, A(mk(DT_FLOAT32, 1, S(1), V(-1))), 1, "dtype", "\"uint8\"", NULL);
	refused(fold(c), "cast of -1.0 to uint8 is not folded");
	/* int -> float rounds to nearest even: 16777217 -> 16777216,
	** 16777219 -> 16777220 */
	c = call(OP_CAST, A(mk(DT_INT32, 1, S(2), V(16777217, 16777219))), 1, "dtype", "\"float32\"", NULL);
	check(fold(c), DT_FLOAT32, 2, V(16777216, 16777220), "cast int32 -> float32 rounds to nearest even");
	/* float64 -> float32 rounds to nearest: 0.1 -> 0x3dcccccd */
	c = call(OP_CAST, A(mk(DT_FLOAT64, 1, S(1), V(0.1))), 1, "dtype", "\"float32\"", NULL);
	r = fold(c);
	ok(r && raw(r, 0) == 0x3dcccccd, "cast float64 0.1 -> float32 0x3dcccccd");
	/* float64 -> float16 in one rounding: 1 + 2^-11 + 2^-40 lies just
	** above the tie between 1 (0x3c00) and 1 + 2^-10 (0x3c01), so it
	** rounds up; by way of float32 it would meet the tie and go to even */
	c = call(OP_CAST, A(mk(DT_FLOAT64, 1, S(2), V(1 + ldexp(1, -11) + ldexp(1, -40), 1 + ldexp(1, -11)))), 1,
	         "dtype", "\"float16\"", NULL);
	r = fold(c);
	ok(r && raw(r, 0) == 0x3c01 && raw(r, 1) == 0x3c00,
	   "cast float64 -> float16 rounds once (0x3c01 above the tie, 0x3c00 on it)");
	/* float32 -> float16: 65520 overflows to infinity, 65504 stays */
	c = call(OP_CAST, A(mk(DT_FLOAT32, 1, S(2), V(65520, 65504))), 1, "dtype", "\"float16\"", NULL);
	check(fold(c), DT_FLOAT16, 2, V(INFINITY, 65504), "cast float32 -> float16 overflows to infinity");
	/* to bool: != 0; -0.0 is false */
	c = call(OP_CAST, A(mk(DT_FLOAT32, 1, S(3), V(0, -0.0, 2.5))), 1, "dtype", "\"bool\"", NULL);
	check(fold(c), DT_BOOL, 3, V(0, 0, 1), "cast float32 -> bool is != 0");
	c = call(OP_CAST, A(mk(DT_INT32, 1, S(3), V(0, 256, -1))), 1, "dtype", "\"bool\"", NULL);
	check(fold(c), DT_BOOL, 3, V(0, 1, 1), "cast int32 -> bool is != 0 (256 is true)");
	c = call(OP_CAST, A(mk(DT_BOOL, 1, S(2), V(1, 0))), 1, "dtype", "\"float32\"", NULL);
	check(fold(c), DT_FLOAT32, 2, V(1, 0), "cast bool -> float32");
}

static void
test_clip_relu(void)
{
	NodeId c;

	/* int8 bounds truncate toward zero: -10.7 -> -10, 20.9 -> 20 */
	c = call(OP_CLIP, A(mk(DT_INT8, 1, S(4), V(-100, -10, 0, 100))), 1, "a_min", "-10.7f", "a_max", "20.9f", NULL);
	check(fold(c), DT_INT8, 4, V(-10, -10, 0, 20), "clip int8 with truncated bounds");
	c = call(OP_CLIP, A(mk(DT_UINT8, 1, S(1), V(5))), 1, "a_min", "-1f", "a_max", "20f", NULL);
	refused(fold(c), "clip of uint8 with a negative bound is not folded (TVM rejects the constant)");
	c = call(OP_CLIP, A(mk(DT_INT8, 1, S(1), V(5))), 1, "a_min", "-1000f", "a_max", "20f", NULL);
	refused(fold(c), "clip of int8 with a bound outside int8 is not folded");
	c = call(OP_CLIP, A(mk(DT_FLOAT32, 1, S(4), V(-5.5, 0.25, 7, -0.0))), 1, "a_min", "-1f", "a_max", "1f", NULL);
	check(fold(c), DT_FLOAT32, 4, V(-1, 0.25, 1, -0.0), "clip float32");
	c = call(OP_CLIP, A(mk(DT_FLOAT32, 1, S(1), V(NAN))), 1, "a_min", "-1f", "a_max", "1f", NULL);
	refused(fold(c), "clip of NaN is not folded");
	c = call(OP_CLIP, A(mk(DT_INT32, 1, S(3), V(-7, 3, 9))), 1, "a_min", "0f", "a_max", "6f", NULL);
	check(fold(c), DT_INT32, 3, V(0, 3, 6), "clip int32 as relu6");

	/* relu = x > 0 ? x : 0: -1 -> 0, 2.5, -0.0 -> +0.0 */
	c = call(OP_NN_RELU, A(mk(DT_FLOAT32, 1, S(4), V(-1, 0, 2.5, -0.0))), 1, NULL);
	check(fold(c), DT_FLOAT32, 4, V(0, 0, 2.5, 0), "relu float32, -0.0 becomes +0.0");
	c = call(OP_NN_RELU, A(mk(DT_INT8, 1, S(3), V(-5, 5, -128))), 1, NULL);
	check(fold(c), DT_INT8, 3, V(0, 5, 0), "relu int8");
}

/* ---------------------------------------------------------------- arithmetic */

static void
test_arith(void)
{
	NodeId c;

	/* (2, 1) + (3) broadcasts to (2, 3): [[1], [2]] + [10, 20, 30] */
	c = call(OP_ADD, A(mk(DT_FLOAT32, 2, S(2, 1), V(1, 2)), mk(DT_FLOAT32, 1, S(3), V(10, 20, 30))), 2, NULL);
	check(fold(c), DT_FLOAT32, 6, V(11, 21, 31, 12, 22, 32), "broadcast add (2, 1) + (3)");
	c = call(OP_SUBTRACT, A(mk(DT_INT32, 1, S(3), V(10, 20, 30)), mk(DT_INT32, 2, S(2, 1), V(1, 2))), 2, NULL);
	check(fold(c), DT_INT32, 6, V(9, 19, 29, 8, 18, 28), "broadcast subtract (3) - (2, 1)");
	c = call(OP_MULTIPLY, A(mk(DT_FLOAT32, 2, S(2, 2), V(1, 2, 3, 4)), sc(DT_FLOAT32, 0.5)), 2, NULL);
	check(fold(c), DT_FLOAT32, 4, V(0.5, 1, 1.5, 2), "multiply by a scalar");

	/* below 32 bits the ops wrap: 100 + 100 = 200 -> -56; 16 * 16 = 256
	** -> 0; uint8 0 - 1 -> 255 */
	c = call(OP_ADD, A(mk(DT_INT8, 1, S(1), V(100)), mk(DT_INT8, 1, S(1), V(100))), 2, NULL);
	check(fold(c), DT_INT8, 1, V(-56), "int8 add wraps");
	c = call(OP_MULTIPLY, A(mk(DT_INT8, 1, S(1), V(16)), mk(DT_INT8, 1, S(1), V(16))), 2, NULL);
	check(fold(c), DT_INT8, 1, V(0), "int8 multiply wraps");
	c = call(OP_SUBTRACT, A(mk(DT_UINT8, 1, S(1), V(0)), mk(DT_UINT8, 1, S(1), V(1))), 2, NULL);
	check(fold(c), DT_UINT8, 1, V(255), "uint8 subtract wraps");
	/* from 32 bits they are nsw/nuw: overflow is not folded */
	c = call(OP_ADD, A(mk(DT_INT32, 1, S(1), V(2147483647)), mk(DT_INT32, 1, S(1), V(1))), 2, NULL);
	refused(fold(c), "int32 add overflow is not folded");
	c = call(OP_SUBTRACT, A(mk(DT_UINT32, 1, S(1), V(0)), mk(DT_UINT32, 1, S(1), V(1))), 2, NULL);
	refused(fold(c), "uint32 subtract below 0 is not folded");
	c = call(OP_MULTIPLY, A(mk(DT_INT64, 1, S(1), V(4294967296.0)), mk(DT_INT64, 1, S(1), V(4294967296.0))), 2, NULL);
	refused(fold(c), "int64 multiply overflow is not folded");
	c = call(OP_MULTIPLY, A(mk(DT_INT64, 1, S(1), V(4294967296.0)), mk(DT_INT64, 1, S(1), V(-3))), 2, NULL);
	check(fold(c), DT_INT64, 1, V(-12884901888.0), "int64 multiply");

	/* integer divide truncates: 7/2 = 3, -7/2 = -3, 7/-2 = -3, -7/-2 = 3 */
	c = call(OP_DIVIDE, A(mk(DT_INT32, 1, S(4), V(7, -7, 7, -7)), mk(DT_INT32, 1, S(4), V(2, 2, -2, -2))), 2, NULL);
	check(fold(c), DT_INT32, 4, V(3, -3, -3, 3), "int32 divide truncates toward zero");
	c = call(OP_DIVIDE, A(mk(DT_INT32, 1, S(2), V(7, 1)), mk(DT_INT32, 1, S(2), V(1, 0))), 2, NULL);
	refused(fold(c), "int32 divide by zero is not folded");
	c = call(OP_DIVIDE, A(mk(DT_INT8, 1, S(1), V(-128)), mk(DT_INT8, 1, S(1), V(-1))), 2, NULL);
	refused(fold(c), "int8 -128 / -1 is not folded");
	c = call(OP_DIVIDE, A(mk(DT_FLOAT32, 1, S(2), V(1, -1)), mk(DT_FLOAT32, 1, S(2), V(0, 0))), 2, NULL);
	check(fold(c), DT_FLOAT32, 2, V(INFINITY, -INFINITY), "float32 divide by zero is infinity");
	c = call(OP_DIVIDE, A(mk(DT_FLOAT32, 1, S(1), V(0)), mk(DT_FLOAT32, 1, S(1), V(0))), 2, NULL);
	refused(fold(c), "float32 0 / 0 (NaN) is not folded");
	/* float32: 0.1f + 0.2f = 0.30000001192092896 (one rounding) */
	c = call(OP_ADD, A(mk(DT_FLOAT32, 1, S(1), V(0.1)), mk(DT_FLOAT32, 1, S(1), V(0.2))), 2, NULL);
	check(fold(c), DT_FLOAT32, 1, V(0.30000001192092896), "float32 0.1 + 0.2");
	/* float16: 1 + 2^-11 is a tie, to even 1; (1 + 2^-10) + 2^-11 is a
	** tie, to even 1 + 2^-9 */
	c = call(OP_ADD, A(mk(DT_FLOAT16, 1, S(2), V(1, 1 + ldexp(1, -10))),
	                   mk(DT_FLOAT16, 1, S(2), V(ldexp(1, -11), ldexp(1, -11)))), 2, NULL);
	check(fold(c), DT_FLOAT16, 2, V(1, 1 + ldexp(1, -9)), "float16 add rounds ties to even");

	/* mod truncates (the dividend's sign), floor_mod floors (the divisor's):
	** 7, -7, 7, -7 by 2, 2, -2, -2 */
	c = call(OP_MOD, A(mk(DT_INT32, 1, S(4), V(7, -7, 7, -7)), mk(DT_INT32, 1, S(4), V(2, 2, -2, -2))), 2, NULL);
	check(fold(c), DT_INT32, 4, V(1, -1, 1, -1), "int32 mod has the dividend's sign");
	c = call(OP_FLOOR_MOD, A(mk(DT_INT32, 1, S(4), V(7, -7, 7, -7)), mk(DT_INT32, 1, S(4), V(2, 2, -2, -2))), 2, NULL);
	check(fold(c), DT_INT32, 4, V(1, 1, -1, -1), "int32 floor_mod has the divisor's sign");
	c = call(OP_FLOOR_MOD, A(mk(DT_UINT8, 1, S(2), V(200, 255)), sc(DT_UINT8, 7)), 2, NULL);
	check(fold(c), DT_UINT8, 2, V(4, 3), "uint8 floor_mod");
	c = call(OP_MOD, A(mk(DT_INT32, 1, S(2), V(7, 1)), mk(DT_INT32, 1, S(2), V(1, 0))), 2, NULL);
	refused(fold(c), "int32 mod by zero is not folded");
	c = call(OP_FLOOR_MOD, A(mk(DT_INT8, 1, S(1), V(-128)), mk(DT_INT8, 1, S(1), V(-1))), 2, NULL);
	refused(fold(c), "int8 -128 floor_mod -1 (srem overflows) is not folded");
	c = call(OP_MOD, A(mk(DT_FLOAT32, 1, S(3), V(5.5, -5.5, 1e8)), mk(DT_FLOAT32, 1, S(3), V(-2, 2, 3))), 2, NULL);
	check(fold(c), DT_FLOAT32, 3, V(1.5, -1.5, 1), "float32 mod is fmod (exact)");
	c = call(OP_FLOOR_MOD, A(mk(DT_FLOAT32, 1, S(1), V(5.5)), mk(DT_FLOAT32, 1, S(1), V(2))), 2, NULL);
	refused(fold(c), "float32 floor_mod is not folded (TVM's LLVM may contract it to an fma)");

	/* the shifts: int8 -128 << 1 drops the high bit, -5 >> 2 is
	** arithmetic (-2), uint8 255 >> 4 logical; an amount outside [0, 8)
	** is poison in LLVM and not folded */
	c = call(OP_LEFT_SHIFT, A(mk(DT_INT8, 1, S(3), V(-128, 127, 3)), mk(DT_INT8, 1, S(3), V(1, 7, 2))), 2, NULL);
	check(fold(c), DT_INT8, 3, V(0, -128, 12), "int8 left_shift keeps the low bits");
	c = call(OP_RIGHT_SHIFT, A(mk(DT_INT8, 1, S(2), V(-5, 5)), sc(DT_INT8, 2)), 2, NULL);
	check(fold(c), DT_INT8, 2, V(-2, 1), "int8 right_shift is arithmetic");
	c = call(OP_RIGHT_SHIFT, A(mk(DT_UINT8, 1, S(1), V(255)), sc(DT_UINT8, 4)), 2, NULL);
	check(fold(c), DT_UINT8, 1, V(15), "uint8 right_shift is logical");
	c = call(OP_LEFT_SHIFT, A(mk(DT_INT32, 1, S(1), V(1)), sc(DT_INT32, 32)), 2, NULL);
	refused(fold(c), "int32 left_shift by 32 is not folded");
	c = call(OP_RIGHT_SHIFT, A(mk(DT_INT32, 1, S(1), V(-8)), sc(DT_INT32, -1)), 2, NULL);
	refused(fold(c), "int32 right_shift by -1 is not folded");
	/* bitwise ops on int16 and bool */
	c = call(OP_BITWISE_XOR, A(mk(DT_INT16, 1, S(2), V(-1, 0x0f0f)), sc(DT_INT16, 0x00ff)), 2, NULL);
	check(fold(c), DT_INT16, 2, V(-256, 0x0ff0), "int16 bitwise_xor");
	c = call(OP_BITWISE_AND, A(mk(DT_BOOL, 1, S(4), V(0, 0, 1, 1)), mk(DT_BOOL, 1, S(4), V(0, 1, 0, 1))), 2, NULL);
	check(fold(c), DT_BOOL, 4, V(0, 0, 0, 1), "bool bitwise_and");
	c = call(OP_BITWISE_NOT, A(mk(DT_BOOL, 1, S(2), V(0, 1))), 1, NULL);
	check(fold(c), DT_BOOL, 2, V(1, 0), "bool bitwise_not is logical not");
	c = call(OP_BITWISE_NOT, A(mk(DT_UINT8, 1, S(2), V(0, 16))), 1, NULL);
	check(fold(c), DT_UINT8, 2, V(255, 239), "uint8 bitwise_not");

	/* cumsum, cumprod: integers fold (wrapping below 32 bits), an int32
	** overflow and floats do not */
	c = call(OP_CUMSUM, A(mk(DT_INT32, 2, S(2, 2), V(1, 2, 3, 4))), 1, "axis", "1", NULL);
	check(fold(c), DT_INT32, 4, V(1, 3, 3, 7), "int32 cumsum along axis 1");
	c = call(OP_CUMPROD, A(mk(DT_INT32, 2, S(2, 2), V(1, 2, 3, 4))), 1, "exclusive", "True", NULL);
	check(fold(c), DT_INT32, 4, V(1, 1, 2, 6), "int32 exclusive cumprod of the flattened data");
	c = call(OP_CUMSUM, A(mk(DT_INT8, 1, S(3), V(100, 100, 1))), 1, NULL);
	check(fold(c), DT_INT8, 3, V(100, -56, -55), "int8 cumsum wraps");
	c = call(OP_CUMSUM, A(mk(DT_INT32, 1, S(2), V(2147483647, 1))), 1, NULL);
	refused(fold(c), "int32 cumsum overflow is not folded");
	c = call(OP_CUMSUM, A(mk(DT_INT32, 1, S(2), V(1, 2147483647))), 1, "exclusive", "True", NULL);
	check(fold(c), DT_INT32, 2, V(0, 1), "int32 exclusive cumsum never adds the last element");
	c = call(OP_CUMSUM, A(mk(DT_FLOAT32, 1, S(2), V(1, 2))), 1, NULL);
	refused(fold(c), "float32 cumsum is not folded (as sum)");

	/* nn.bias_add along axis 1 of (1, 2, 2): [[1, 2], [3, 4]] + [10, 20] */
	c = call(OP_NN_BIAS_ADD, A(mk(DT_FLOAT32, 3, S(1, 2, 2), V(1, 2, 3, 4)), mk(DT_FLOAT32, 1, S(2), V(10, 20))), 2,
	         NULL);
	check(fold(c), DT_FLOAT32, 4, V(11, 12, 23, 24), "bias_add along axis 1");
	c = call(OP_NN_BIAS_ADD, A(mk(DT_INT32, 2, S(2, 2), V(1, 2, 3, 4)), mk(DT_INT32, 1, S(2), V(10, 20))), 2,
	         "axis", "-1", NULL);
	check(fold(c), DT_INT32, 4, V(11, 22, 13, 24), "bias_add along axis -1");
}

/* ---------------------------------------------------------------- data movement */

static void
test_movement(void)
{
	const double six[] = { 1, 2, 3, 4, 5, 6 }, ten[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	NodeId c, s;

	c = call(OP_RESHAPE, A(mk(DT_INT16, 2, S(2, 3), six)), 1, "newshape", "[3, -1]", NULL);
	check(fold(c), DT_INT16, 6, six, "reshape keeps the data");
	c = call(OP_EXPAND_DIMS, A(mk(DT_INT8, 1, S(3), six)), 1, "axis", "0", NULL);
	check(fold(c), DT_INT8, 3, six, "expand_dims keeps the data");
	c = call(OP_SQUEEZE, A(mk(DT_INT8, 2, S(1, 3), six)), 1, NULL);
	check(fold(c), DT_INT8, 3, six, "squeeze keeps the data");
	/* integer negative and abs fold exactly, and not where they wrap */
	c = call(OP_NEGATIVE, A(mk(DT_INT64, 1, S(3), V(-1, 0, 5))), 1, NULL);
	check(fold(c), DT_INT64, 3, V(1, 0, -5), "negative of int64");
	c = call(OP_ABS, A(mk(DT_INT8, 1, S(3), V(-1, 0, 127))), 1, NULL);
	check(fold(c), DT_INT8, 3, V(1, 0, 127), "abs of int8");
	c = call(OP_NEGATIVE, A(mk(DT_INT8, 1, S(2), V(1, -128))), 1, NULL);
	refused(fold(c), "negative of int8 -128 is not folded (it wraps)");
	c = call(OP_ABS, A(mk(DT_INT8, 1, S(2), V(1, -128))), 1, NULL);
	refused(fold(c), "abs of int8 -128 is not folded (it wraps)");
	c = call(OP_ANNOTATION_STOP_FUSION, A(mk(DT_FLOAT32, 1, S(2), V(1.5, -2))), 1, NULL);
	check(fold(c), DT_FLOAT32, 2, V(1.5, -2), "annotation.stop_fusion is the identity");
	c = call(OP_ANNOTATION_CAST_HINT, A(mk(DT_FLOAT32, 1, S(2), V(1.5, -2))), 1, "dtype", "\"int8\"", NULL);
	check(fold(c), DT_FLOAT32, 2, V(1.5, -2), "annotation.cast_hint is the identity");

	/* transpose of [[1, 2, 3], [4, 5, 6]]: [[1, 4], [2, 5], [3, 6]] */
	c = call(OP_TRANSPOSE, A(mk(DT_INT32, 2, S(2, 3), six)), 1, NULL);
	check(fold(c), DT_INT32, 6, V(1, 4, 2, 5, 3, 6), "transpose with axes None reverses");
	/* (2, 1, 3) with axes [2, 0, 1] -> (3, 2, 1): out[k][i][0] = in[i][0][k] */
	c = call(OP_TRANSPOSE, A(mk(DT_INT32, 3, S(2, 1, 3), six)), 1, "axes", "[2, 0, 1]", NULL);
	check(fold(c), DT_INT32, 6, V(1, 4, 2, 5, 3, 6), "transpose (2, 1, 3) by [2, 0, 1]");
	c = call(OP_TRANSPOSE, A(mk(DT_INT32, 3, S(2, 1, 3), six)), 1, "axes", "[-1, 1, 0]", NULL);
	check(fold(c), DT_INT32, 6, V(1, 4, 2, 5, 3, 6), "transpose with negative axes");

	/* nn.pad of [[1, 2], [3, 4]] by [[1, 0], [0, 2]] with 9:
	** [[9, 9, 9, 9], [1, 2, 9, 9], [3, 4, 9, 9]] */
	c = call(OP_NN_PAD, A(mk(DT_INT8, 2, S(2, 2), V(1, 2, 3, 4)), sc(DT_INT8, 9)), 2,
	         "pad_width", "[[1, 0], [0, 2]]", NULL);
	check(fold(c), DT_INT8, 12, V(9, 9, 9, 9, 1, 2, 9, 9, 3, 4, 9, 9), "pad, constant mode");
	/* a float32 pad value is cast to int8 by truncation: 7.9 -> 7 */
	c = call(OP_NN_PAD, A(mk(DT_INT8, 1, S(2), V(1, 2)), sc(DT_FLOAT32, 7.9)), 2, "pad_width", "[[1, 1]]", NULL);
	check(fold(c), DT_INT8, 4, V(7, 1, 2, 7), "pad value float32 7.9 becomes int8 7");
	c = call(OP_NN_PAD, A(mk(DT_INT8, 1, S(2), V(1, 2)), sc(DT_FLOAT32, NAN)), 2, "pad_width", "[[1, 1]]", NULL);
	refused(fold(c), "pad of int8 with a NaN pad value is not folded");
	/* edge: [1, 2, 3] by [2, 1]: [1, 1, 1, 2, 3, 3] */
	c = call(OP_NN_PAD, A(mk(DT_FLOAT32, 1, S(3), V(1, 2, 3)), sc(DT_FLOAT32, 0)), 2,
	         "pad_width", "[[2, 1]]", "pad_mode", "\"edge\"", NULL);
	check(fold(c), DT_FLOAT32, 6, V(1, 1, 1, 2, 3, 3), "pad, edge mode");
	/* reflect: [1, 2, 3] by [2, 2]: [3, 2, 1, 2, 3, 2, 1] */
	c = call(OP_NN_PAD, A(mk(DT_FLOAT32, 1, S(3), V(1, 2, 3)), sc(DT_FLOAT32, 0)), 2,
	         "pad_width", "[[2, 2]]", "pad_mode", "\"reflect\"", NULL);
	check(fold(c), DT_FLOAT32, 7, V(3, 2, 1, 2, 3, 2, 1), "pad, reflect mode");
	c = call(OP_NN_PAD, A(mk(DT_FLOAT32, 1, S(3), V(1, 2, 3)), sc(DT_FLOAT32, 0)), 2,
	         "pad_width", "[[3, 0]]", "pad_mode", "\"reflect\"", NULL);
	refused(fold(c), "reflect padding as wide as the axis is not folded");

	/* concatenate (1, 2) and (2, 2) along axis 0; (2, 1) and (2, 2) along 1 */
	c = call(OP_CONCATENATE, A(ir_tuple(M, A(mk(DT_INT32, 2, S(1, 2), V(1, 2)),
	                                         mk(DT_INT32, 2, S(2, 2), V(3, 4, 5, 6))), 2, noloc)), 1, NULL);
	check(fold(c), DT_INT32, 6, V(1, 2, 3, 4, 5, 6), "concatenate along axis 0");
	c = call(OP_CONCATENATE, A(ir_tuple(M, A(mk(DT_INT32, 2, S(2, 1), V(1, 2)),
	                                         mk(DT_INT32, 2, S(2, 2), V(3, 4, 5, 6))), 2, noloc)), 1,
	         "axis", "-1", NULL);
	check(fold(c), DT_INT32, 6, V(1, 3, 4, 2, 5, 6), "concatenate along axis -1");

	/* strided_slice of 0..9: [1:8:3] = 1, 4, 7; [-1:0:-2] = 9, 7, 5, 3, 1 */
	c = call(OP_STRIDED_SLICE, A(mk(DT_INT32, 1, S(10), ten)), 1, "begin", "[1]", "end", "[8]", "strides", "[3]", NULL);
	check(fold(c), DT_INT32, 3, V(1, 4, 7), "strided_slice [1:8:3]");
	c = call(OP_STRIDED_SLICE, A(mk(DT_INT32, 1, S(10), ten)), 1, "begin", "[-1]", "end", "[0]", "strides", "[-2]", NULL);
	check(fold(c), DT_INT32, 5, V(9, 7, 5, 3, 1), "strided_slice [-1:0:-2]");
	/* size mode: begin 2, size 3: 2, 3, 4 */
	c = call(OP_STRIDED_SLICE, A(mk(DT_INT32, 1, S(10), ten)), 1, "begin", "[2]", "end", "[3]", "strides", "[1]",
	         "slice_mode", "\"size\"", NULL);
	check(fold(c), DT_INT32, 3, V(2, 3, 4), "strided_slice in size mode");
	/* (2, 5) rows 0..1, columns 1..3 through axes [1]: [[1, 2], [6, 7]] */
	c = call(OP_STRIDED_SLICE, A(mk(DT_INT32, 2, S(2, 5), ten)), 1, "begin", "[1]", "end", "[3]", "strides", "[1]",
	         "axes", "[1]", NULL);
	check(fold(c), DT_INT32, 4, V(1, 2, 6, 7), "strided_slice through axes");
	/* begin past the end of the axis clamps: [5:100] of (2, 5) along 1 is empty */
	c = call(OP_STRIDED_SLICE, A(mk(DT_INT32, 2, S(2, 5), ten)), 1, "begin", "[0, 5]", "end", "[2, 100]",
	         "strides", "[1, 1]", NULL);
	check(fold(c), DT_INT32, 0, V(0), "strided_slice to an empty tensor");

	/* split 0..5 in 3: (0, 1), (2, 3), (4, 5); field 1 */
	s = call(OP_SPLIT, A(mk(DT_INT32, 1, S(6), ten)), 1, "indices_or_sections", "3", NULL);
	check(fold(ir_getitem(M, s, 1, noloc)), DT_INT32, 2, V(2, 3), "split in sections, field 1");
	/* split 0..5 at [1, 4]: (0), (1, 2, 3), (4, 5) */
	s = call(OP_SPLIT, A(mk(DT_INT32, 1, S(6), ten)), 1, "indices_or_sections", "[1, 4]", NULL);
	check(fold(ir_getitem(M, s, 1, noloc)), DT_INT32, 3, V(1, 2, 3), "split at indices, field 1");
	check(fold(ir_getitem(M, s, 2, noloc)), DT_INT32, 2, V(4, 5), "split at indices, last field");
	/* (2, 4) in 2 along axis 1: field 1 is [[2, 3], [6, 7]] */
	s = call(OP_SPLIT, A(mk(DT_INT32, 2, S(2, 4), ten)), 1, "indices_or_sections", "2", "axis", "1", NULL);
	check(fold(ir_getitem(M, s, 1, noloc)), DT_INT32, 4, V(2, 3, 6, 7), "split along axis 1");
	refused(fold(s), "a split itself (a tuple) does not fold to one constant");
	/* take from the shape [1, 3, 224, 224] (int64), as the ONNX importer
	** folds Shape -> Gather: index -1 wraps to 224, clips to 1 */
	c = call(OP_TAKE, A(mk(DT_INT64, 1, S(4), V(1, 3, 224, 224)), sc(DT_INT64, -1)), 2, "axis", "0", "mode",
	         "\"wrap\"", NULL);
	check(fold(c), DT_INT64, 1, V(224), "take, wrap mode: -1 is the last");
	c = call(OP_TAKE, A(mk(DT_INT64, 1, S(4), V(1, 3, 224, 224)), mk(DT_INT32, 1, S(3), V(-1, 2, 9))), 2,
	         "axis", "0", NULL);
	check(fold(c), DT_INT64, 3, V(1, 224, 224), "take, clip mode: -1 clips to 0, 9 to 3");
	/* (2, 3) 1..6 along axis 1 with [[2, 0]]: [[[3, 1]], [[6, 4]]]; flattened, [5, 0]: [6, 1] */
	c = call(OP_TAKE, A(mk(DT_INT32, 2, S(2, 3), six), mk(DT_INT64, 2, S(1, 2), V(2, 0))), 2, "axis", "1", NULL);
	check(fold(c), DT_INT32, 4, V(3, 1, 6, 4), "take along axis 1");
	c = call(OP_TAKE, A(mk(DT_INT32, 2, S(2, 3), six), mk(DT_INT64, 1, S(2), V(5, 0))), 2, NULL);
	check(fold(c), DT_INT32, 2, V(6, 1), "take from the flattened data");
	c = call(OP_TAKE, A(mk(DT_INT32, 1, S(3), six), sc(DT_INT64, 3)), 2, "axis", "0", "mode", "\"fast\"", NULL);
	refused(fold(c), "take in fast mode with an index out of range is not folded");

	/* gather of (2, 3) 1..6 along axis 1 by [[2, -1], [0, -3]]: [[3, 3], [4, 4]] */
	c = call(OP_GATHER, A(mk(DT_INT32, 2, S(2, 3), six), mk(DT_INT64, 2, S(2, 2), V(2, -1, 0, -3))), 2, "axis",
	         "1", NULL);
	check(fold(c), DT_INT32, 4, V(3, 3, 4, 4), "gather along axis 1, negative indices from the end");
	c = call(OP_GATHER, A(mk(DT_INT32, 1, S(3), six), mk(DT_INT64, 1, S(1), V(-4))), 2, "axis", "0", NULL);
	refused(fold(c), "gather with an index out of range is not folded");

	/* broadcast_to: (2, 1) to (2, 3) */
	c = call(OP_BROADCAST_TO, A(mk(DT_INT64, 2, S(2, 1), V(5, -6))), 1, "shape", "[2, 3]", NULL);
	check(fold(c), DT_INT64, 6, V(5, 5, 5, -6, -6, -6), "broadcast_to (2, 1) to (2, 3)");

	/* a getitem of a tuple of constants */
	check(fold(ir_getitem(M, ir_tuple(M, A(sc(DT_INT8, 1), sc(DT_INT8, 2)), 2, noloc), 1, noloc)), DT_INT8, 1,
	      V(2), "tuple_get_item of a tuple");
}

/* ---------------------------------------------------------------- subtrees */

static void
test_subtrees(void)
{
	NodeId x, y, z, c, p;
	Loc here = { 7, 3, 0 };

	/* a DAG: x = [1, 2]; y = x + x; z = y * y = [4, 16]; one node made */
	x = mk(DT_INT32, 1, S(2), V(1, 2));
	y = call(OP_ADD, A(x, x), 2, NULL);
	z = call(OP_MULTIPLY, A(y, y), 2, NULL);
	check(fold(z), DT_INT32, 2, V(4, 16), "a DAG with shared operands folds once");

	/* dequantize(quantize(x)) chain, then relu: the seed's round trip:
	** 0.1 -> 35 -> 35 * 0.00288958 = 0.1011353; -0.25 -> -87 -> relu 0 */
	c = call(OP_QNN_QUANTIZE, A(mk(DT_FLOAT32, 1, S(2), V(0.1, -0.25)), sc(DT_FLOAT32, 0.00288958), sc(DT_INT32, 0)),
	         3, "out_dtype", "\"int8\"", NULL);
	c = call(OP_QNN_DEQUANTIZE, A(c, sc(DT_FLOAT32, 0.00288958), sc(DT_INT32, 0)), 3, "out_dtype", "\"float32\"", NULL);
	c = call(OP_NN_RELU, A(c), 1, NULL);
	check(fold(c), DT_FLOAT32, 2, V((float)(35 * (double)0.00288958f), 0), "quantize, dequantize, relu chain");

	/* a chain of 50000 ops is walked without recursion: 25000 times
	** relu(x - 1) takes 40000 to 15000, and 7 to 0, where it stays */
	c = mk(DT_INT32, 1, S(2), V(40000, 7));
	x = sc(DT_INT32, 1);
	for (int i = 0; i < 25000; i++)
		c = call(OP_NN_RELU, A(call(OP_SUBTRACT, A(c, x), 2, NULL)), 1, NULL);
	check(fold(c), DT_INT32, 2, V(15000, 0), "a chain of 50000 ops folds (iteratively)");

	/* the location and type are the root's */
	c = ir_call(M, OP_NN_RELU, A(mk(DT_FLOAT32, 1, S(1), V(-1))), 1, 0, here);
	z = fold(c);
	ok(z && M->locs[z].line == 7 && M->locs[z].col == 3, "the constant takes the root's location");

	/* a parameter leaf: not folded, nothing added */
	p = ir_var(M, ir_symz(M, "p"), ir_type_tensor(M, DT_FLOAT32, 1, S(2)), noloc);
	c = call(OP_ADD, A(p, mk(DT_FLOAT32, 1, S(2), V(1, 2))), 2, NULL);
	refused(foldp(c, &p, 1), "a non-constant leaf is not folded");
	/* a constant without data (meta[relay.Constant][0] with no params) */
	c = call(OP_NN_RELU, A(ir_const_meta(M, ir_type_tensor(M, DT_FLOAT32, 1, S(2)), 0, noloc)), 1, NULL);
	refused(fold(c), "a constant without data is not folded");
	/* unsupported ops: exp depends on the math library */
	c = call(OP_EXP, A(mk(DT_FLOAT32, 1, S(1), V(1))), 1, NULL);
	refused(fold(c), "exp is not folded");
	c = call(OP_NN_SOFTMAX, A(mk(DT_FLOAT32, 1, S(2), V(1, 2))), 1, NULL);
	refused(fold(c), "softmax is not folded");
	/* a constant alone folds to a copy */
	check(fold(mk(DT_UINT8, 1, S(2), V(7, 8))), DT_UINT8, 2, V(7, 8), "a constant folds to a copy of itself");
}

/* ---------------------------------------------------------------- PyTorch vectors */

/* bitsf: the float32 with bits u */
static float
bitsf(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

/* fvals: n float32 values from their bits, as doubles */
static double *
fvals(const uint32_t *u, int n)
{
	double *d = malloc((size_t)(n ? n : 1) * sizeof *d);

	for (int i = 0; i < n; i++)
		d[i] = bitsf(u[i]);
	return d;
}

/* ivals: n int32 values as doubles */
static double *
ivals(const int32_t *v, int n)
{
	double *d = malloc((size_t)(n ? n : 1) * sizeof *d);

	for (int i = 0; i < n; i++)
		d[i] = v[i];
	return d;
}

/* dtstr: a dtype as a Relay string literal */
static const char *
dtstr(DType dt, char *buf, size_t size)
{
	snprintf(buf, size, "\"%s\"", ir_dtype_names[dt]);
	return buf;
}

static void
test_torch_quantize(void)
{
	int ties = 0, recips = 0, zpadds = 0;

	for (size_t k = 0; k < NA(fold_qcases); k++) {
		const FoldQCase *qc = &fold_qcases[k];
		double *x = fvals(qc->x, qc->n), *s = fvals(qc->scale, qc->nscale), *z = ivals(qc->zp, qc->nzp);
		char dtb[32], axb[16];
		NodeId q, r;
		int exact = 0, unexplained = 0;

		snprintf(axb, sizeof axb, "%d", qc->axis);
		q = call(OP_QNN_QUANTIZE,
		         A(mk(DT_FLOAT32, qc->rank, qc->dims, x),
		           qc->nscale == 1 ? sc(DT_FLOAT32, s[0]) : mk(DT_FLOAT32, 1, S(qc->nscale), s),
		           qc->nzp == 1 ? sc(DT_INT32, z[0]) : mk(DT_INT32, 1, S(qc->nzp), z)), 3,
		         "out_dtype", dtstr(qc->dt, dtb, sizeof dtb), "axis", axb, NULL);
		r = fold(q);
		for (int i = 0; r && i < qc->n; i++) {
			int64_t c = qc->rank == 2 && (qc->nscale > 1 || qc->nzp > 1)
			            ? (qc->axis == 0 ? i / qc->dims[1] : i % qc->dims[1]) : 0;
			float sv = (float)s[qc->nscale > 1 ? c : 0];
			int32_t zv = (int32_t)z[qc->nzp > 1 ? c : 0];
			float xv = (float)x[i];
			float d = (float)((double)xv / (double)sv);            /* TVM's quotient */
			float p = (float)((double)xv * (double)(1.0f / sv));   /* PyTorch's */
			double got = get(r, i);
			if (got == qc->tvm[i])
				exact++;
			if (got == qc->torch[i])
				continue;
			/* a documented difference from PyTorch */
			if (fabsf(d - truncf(d)) == 0.5f)
				ties++;
			else if (nearbyintf(p) != roundf(d))
				recips++;
			else if (fabs((double)roundf(d) + zv) >= 16777216.0)
				zpadds++;
			else
				unexplained++;
		}
		ok(r && exact == qc->n, "quantize vectors \"%s\": %d of %d equal TVM's reference", qc->name, exact, qc->n);
		ok(r && unexplained == 0, "quantize vectors \"%s\": every difference from PyTorch is documented",
		   qc->name);
		free(x);
		free(s);
		free(z);
	}
	printf("# differences from PyTorch: %d ties, %d reciprocal roundings, %d float32 zero-point adds\n",
	       ties, recips, zpadds);
	ok(ties > 0, "the vectors hold ties, where TVM rounds away from zero and PyTorch to even");
	ok(recips > 0, "the vectors hold quotients PyTorch rounds differently through 1/scale");
}

static void
test_torch_requantize(void)
{
	int off = 0;

	for (size_t k = 0; k < NA(fold_rcases); k++) {
		const FoldRCase *rc = &fold_rcases[k];
		double *x = ivals(rc->x, rc->n), *s = fvals(rc->in_scale, rc->nscale);
		char dtb[32], axb[16], rb[32];
		NodeId q, r;
		int exact = 0, near = 0;

		snprintf(axb, sizeof axb, "%d", rc->axis);
		snprintf(rb, sizeof rb, "\"%s\"", rc->rounding);
		q = rq(mk(rc->in_dt, rc->rank, rc->dims, x),
		       rc->nscale == 1 ? sc(DT_FLOAT32, s[0]) : mk(DT_FLOAT32, 1, S(rc->nscale), s),
		       rc->in_zp, bitsf(rc->out_scale), rc->out_zp, rb, dtstr(rc->out_dt, dtb, sizeof dtb), axb);
		r = fold(q);
		for (int i = 0; r && i < rc->n; i++) {
			double got = get(r, i);
			exact += got == rc->tvm[i];
			near += fabs(got - rc->torch[i]) <= 1;
			off += got != rc->torch[i];
		}
		ok(r && exact == rc->n, "requantize vectors \"%s\": %d of %d equal TVM's reference", rc->name, exact,
		   rc->n);
		ok(r && near == rc->n, "requantize vectors \"%s\": within 1 of PyTorch's float route", rc->name);
		free(x);
		free(s);
	}
	printf("# requantize results one off PyTorch's float route: %d\n", off);
}

int
main(void)
{
	plan_lazy();
	M = ir_module_new();
	ir_diag_init(&D, stderr, M);
	test_strides();
	test_quantize();
	test_quantize_sweep();
	test_dequantize();
	test_requantize();
	test_cast();
	test_clip_relu();
	test_arith();
	test_movement();
	test_subtrees();
	test_torch_quantize();
	test_torch_requantize();
	ir_diag_free(&D);
	ir_module_free(M);
	return done_testing();
}
