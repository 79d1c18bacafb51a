/*
** ref.c: unit tests of the reference interpreter (ref/).  Each
** case is a small module in Relay text whose @main the ref backend runs;
** the module is freed after prepare (a Program owns what it needs).  The
** expected numbers are worked out by hand in the comment beside each case
** (for float math, to the digits given, with a tolerance); the integer
** semantics are TVM's, as told at the top of ref/ops.c.
*/
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "ref.h"
#include "tap.h"
#include "text.h"

#define W(...) ((const double[]){ __VA_ARGS__ }), (int)(sizeof((const double[]){ __VA_ARGS__ }) / sizeof(double))

static char errs[8192];
static Tensor outs[8];
static uint32_t nouts;

/* clear: frees the outputs of the last run */
static void
clear(void)
{
	for (uint32_t i = 0; i < nouts; i++)
		ir_tensor_free(&outs[i]);
	nouts = 0;
}

/* go: parses src, infers types, prepares it with the ref backend, frees
** the module, and runs @main on in[]; 0 on success, else the messages are
** in errs */
static int
go(const char *src, const Tensor *in)
{
	Module *m = ir_module_new();
	FILE *ef = fmemopen(errs, sizeof errs - 1, "w");
	Diag d;
	BeSig sig;
	BeOpts o = { .opt = 0 };
	Program *p = NULL;
	int bad;

	clear();
	memset(errs, 0, sizeof errs);
	ir_diag_init(&d, ef, m);
	bad = ir_parse(m, &d, "t.relay", src, strlen(src)) || ir_infer_types(m, &d) || be_sig(m, &sig, &d);
	if (!bad) {
		nouts = sig.nout;
		be_sig_free(&sig);
		p = be_ref.prepare(m, &o, &d);
	}
	ir_diag_free(&d);
	ir_module_free(m);
	if (!p) {
		nouts = 0;
		fclose(ef);
		return 1;
	}
	ir_diag_init(&d, ef, NULL);
	bad = be_ref.run(p, in, outs, &d);
	if (bad)
		nouts = 0;
	ir_diag_free(&d);
	be_ref.release(p);
	fclose(ef);
	return bad;
}

/* at: element i of tensor t as a double */
static double
at(const Tensor *t, int64_t i)
{
	const unsigned char *p = t->data + (size_t)i * ir_dtype_bytes[t->dt];

	switch (t->dt) {
	case DT_BOOL: case DT_UINT8: return *p;
	case DT_INT8: return (int8_t)*p;
	case DT_INT16: { int16_t v; memcpy(&v, p, 2); return v; }
	case DT_UINT16: { uint16_t v; memcpy(&v, p, 2); return v; }
	case DT_INT32: { int32_t v; memcpy(&v, p, 4); return v; }
	case DT_UINT32: { uint32_t v; memcpy(&v, p, 4); return v; }
	case DT_INT64: { int64_t v; memcpy(&v, p, 8); return (double)v; }
	case DT_FLOAT16: { uint16_t v; memcpy(&v, p, 2); return ir_f32_from_f16(v); }
	case DT_FLOAT32: { float v; memcpy(&v, p, 4); return v; }
	default: { double v; memcpy(&v, p, 8); return v; }
	}
}

/* same: whether output k holds want[0..n) (within tol, NaN equal NaN) */
static int
same(uint32_t k, double tol, const double *want, int n)
{
	if (k >= nouts || ir_tensor_numel(&outs[k]) != n) {
		printf("#   output %u: %s\n", k, k >= nouts ? "missing" : "wrong size");
		return 0;
	}
	for (int i = 0; i < n; i++) {
		double g = at(&outs[k], i);
		if (isnan(want[i]) ? !isnan(g) : g != want[i] && (!(fabs(g - want[i]) <= tol) || (!tol && signbit(g) != signbit(want[i])))) {
			printf("#   output %u element %d: got %.9g, want %.9g\n", k, i, g, want[i]);
			return 0;
		}
	}
	return 1;
}

/* expect: one test point: src runs and its first output is want */
static void
expect(const char *what, const char *src, double tol, const double *want, int n)
{
	int bad = go(src, NULL);

	if (bad)
		printf("#   %s", errs);
	ok(!bad && same(0, tol, want, n), "%s", what);
}

/* refuses: one test point: src fails (at prepare or run) with a message
** containing each of the two strings */
static void
refuses(const char *what, const char *src, const char *msg, const char *msg2)
{
	int bad = go(src, NULL);

	ok(bad && strstr(errs, msg) && (!msg2 || strstr(errs, msg2)), "%s", what);
	if (!bad || !strstr(errs, msg) || (msg2 && !strstr(errs, msg2)))
		printf("#   messages: %s\n", errs);
}

/* ---------------------------------------------------------------- elementwise */

static void
test_elementwise(void)
{
	/* int8 wraps: 100 + 100 = 200 - 256 = -56, -200 + 256 = 56 */
	expect("add int8 wraps", "def @main() { add(const([100, -100, 3], dtype=\"int8\"), const([100, -100, 4], dtype=\"int8\")) }",
	       0, W(-56, 56, 7));
	/* [[1, 2], [3, 4]] + [10, 20] broadcast along rows */
	expect("add broadcasts", "def @main() { add(const([[1, 2], [3, 4]], dtype=\"float32\"), const([10, 20], dtype=\"float32\")) }",
	       0, W(11, 22, 13, 24));
	/* int32 wraps in run mode: 2147483647 - (-1) = -2147483648 */
	expect("subtract int32 wraps", "def @main() { subtract(const([2147483647, 5], dtype=\"int32\"), const([-1, 7], dtype=\"int32\")) }",
	       0, W(-2147483648.0, -2));
	/* 16 * 17 = 272 = 256 + 16 */
	expect("multiply uint8 wraps", "def @main() { multiply(const([16, 3], dtype=\"uint8\"), const([17, 5], dtype=\"uint8\")) }",
	       0, W(16, 15));
	/* sdiv truncates toward zero */
	expect("divide int32 truncates", "def @main() { divide(const([7, -7, 7, -7], dtype=\"int32\"), const([2, 2, -2, -2], dtype=\"int32\")) }",
	       0, W(3, -3, -3, 3));
	refuses("integer division by zero is a run-time error",
	        "def @main() {\n  divide(const([1, 2], dtype=\"int32\"), const([1, 0], dtype=\"int32\"))\n}",
	        "t.relay:2:3", "integer division by zero");
	refuses("INT_MIN / -1 is a run-time error",
	        "def @main() { divide(const([-2147483648], dtype=\"int32\"), const([-1], dtype=\"int32\")) }",
	        "error", "overflow");
	/* IEEE: 1 / 0 = inf, -1 / 0 = -inf */
	expect("float divide by zero is infinite", "def @main() { divide(const([1, -1], dtype=\"float32\"), const([0, 0], dtype=\"float32\")) }",
	       0, W(INFINITY, -INFINITY));
	/* float16 rounds after the op: 2048 + 1 = 2049 -> 2048 (ties to even) */
	expect("float16 add rounds to half", "def @main() { add(const([2048, 1], dtype=\"float16\"), const([1, 0.5], dtype=\"float16\")) }",
	       0, W(2048, 1.5));
	/* saturating float -> int: 300.5 -> 127, -300 -> -128, 1.9 -> 1, -1.9 -> -1 */
	expect("cast float32 to int8 truncates and saturates", "def @main() { cast(const([300.5, -300, 1.9, -1.9], dtype=\"float32\"), dtype=\"int8\") }",
	       0, W(127, -128, 1, -1));
	/* 0 / 0 = NaN, cast to int32 is 0 here */
	expect("cast NaN to int32 is 0", "def @main() { cast(divide(const([0], dtype=\"float32\"), const([0], dtype=\"float32\")), dtype=\"int32\") }",
	       0, W(0));
	/* keeps the low bits: 257 -> 1, -1 -> 255 */
	expect("cast int32 to uint8 wraps", "def @main() { cast(const([257, -1], dtype=\"int32\"), dtype=\"uint8\") }",
	       0, W(1, 255));
	expect("cast int8 to float32", "def @main() { cast(const([-128, 127], dtype=\"int8\"), dtype=\"float32\") }",
	       0, W(-128, 127));
	expect("cast to bool is != 0", "def @main() { cast(const([0, 0.5, -3], dtype=\"float32\"), dtype=\"bool\") }",
	       0, W(0, 1, 1));
	expect("clip int8", "def @main() { clip(const([-100, 0, 100], dtype=\"int8\"), a_min=-50f, a_max=50f) }",
	       0, W(-50, 0, 50));
	/* bounds truncate toward zero for integers: [-1.5, 2.7] -> [-1, 2] */
	expect("clip int32 truncates its bounds", "def @main() { clip(const([-5, 5], dtype=\"int32\"), a_min=-1.5f, a_max=2.7f) }",
	       0, W(-1, 2));
	expect("clip float32", "def @main() { clip(const([-1.5, 0.25, 9], dtype=\"float32\"), a_min=-1f, a_max=6f) }",
	       0, W(-1, 0.25, 6));
	expect("relu float32 (relu(-0) = +0)", "def @main() { nn.relu(const([-1, -0.0, 2], dtype=\"float32\")) }",
	       0, W(0, 0, 2));
	expect("relu int8", "def @main() { nn.relu(const([-128, 5], dtype=\"int8\")) }", 0, W(0, 5));
	/* x > 0 ? x : 0.5 x */
	expect("leaky_relu", "def @main() { nn.leaky_relu(const([-2, 3], dtype=\"float32\"), alpha=0.5f) }",
	       0, W(-1, 3));
	/* e^0 = 1, e^1 = 2.7182818 */
	expect("exp", "def @main() { exp(const([0, 1], dtype=\"float32\")) }", 1e-6, W(1, 2.7182818));
	/* 1 / (1 + e^0) = 0.5; 1 / (1 + e^-2) = 0.88079708 */
	expect("sigmoid", "def @main() { sigmoid(const([0, 2], dtype=\"float32\")) }", 1e-6, W(0.5, 0.88079708));
	/* tanh(1) = 0.76159416 */
	expect("tanh", "def @main() { tanh(const([0, 1], dtype=\"float32\")) }", 1e-6, W(0, 0.76159416));
	expect("rsqrt", "def @main() { rsqrt(const([4, 0.25], dtype=\"float32\")) }", 1e-6, W(0.5, 2));
	expect("bias_add along axis 1", "def @main() { nn.bias_add(const([[1, 2], [3, 4]], dtype=\"int32\"), const([10, 20], dtype=\"int32\")) }",
	       0, W(11, 22, 13, 24));
	expect("bias_add along axis 0", "def @main() { nn.bias_add(const([[1, 2], [3, 4]], dtype=\"int32\"), const([10, 20], dtype=\"int32\"), axis=0) }",
	       0, W(11, 12, 23, 24));
	expect("annotation.cast_hint and stop_fusion are identities",
	       "def @main() { annotation.stop_fusion(annotation.cast_hint(const([1, 2], dtype=\"int8\"), dtype=\"int8\")) }",
	       0, W(1, 2));
	refuses("exp of integers is refused at prepare time",
	        "def @main() {\n  exp(const([1], dtype=\"int32\"))\n}", "t.relay:2:3", "cannot run exp on integer tensors");
}

/* ---------------------------------------------------------------- quantization */

static void
test_quantize(void)
{
	/* halves away from zero: 0.5 -> 1, 1.5 -> 2, -0.5 -> -1, 2.5 -> 3, -2.5 -> -3 */
	expect("quantize rounds halves away from zero",
	       "def @main() { qnn.quantize(const([0.5, 1.5, -0.5, 2.5, -2.5], dtype=\"float32\"), 1f, 0, out_dtype=\"int8\") }",
	       0, W(1, 2, -1, 3, -3));
	/* ONNX's QuantizeLinear: halves to even, 0.5 -> 0, 1.5 -> 2, -0.5 -> -0,
	   2.5 -> 2, -2.5 -> -2, 3.5 -> 4; 0.49 and 1.51 are no ties */
	expect("quantize with rounding=\"HALF_TO_EVEN\" rounds halves to even",
	       "def @main() { qnn.quantize(const([0.5, 1.5, -0.5, 2.5, -2.5, 3.5, 0.49, 1.51], dtype=\"float32\"), 1f, 0, out_dtype=\"int8\", rounding=\"HALF_TO_EVEN\") }",
	       0, W(0, 2, 0, 2, -2, 4, 0, 2));
	/* integers add the zero point after rounding: 2.5 -> 2 + 3 = 5 (TVM's
	   float route gives the same here); 300 / 1 + 3 saturates at 255;
	   -7.5 -> -8 + 3 = -5 -> 0 */
	expect("quantize with rounding=\"HALF_TO_EVEN\", a zero point and saturation",
	       "def @main() { qnn.quantize(const([2.5, 300, -7.5, 0], dtype=\"float32\"), 1f, 3, out_dtype=\"uint8\", rounding=\"HALF_TO_EVEN\") }",
	       0, W(5, 255, 0, 3));
	refuses("quantize with an unknown rounding is a type error",
	        "def @main() { qnn.quantize(const([1], dtype=\"float32\"), 1f, 0, out_dtype=\"int8\", rounding=\"DOWN\") }",
	        "rounding must be \"None\" or \"HALF_TO_EVEN\", not \"DOWN\"", NULL);
	expect("quantize saturates at -128 and 127",
	       "def @main() { qnn.quantize(const([1000, -1000, 127.4, -128.4], dtype=\"float32\"), 1f, 0, out_dtype=\"int8\") }",
	       0, W(127, -128, 127, -128));
	expect("quantize saturates at 0 and 255",
	       "def @main() { qnn.quantize(const([-5, 300, 254.6], dtype=\"float32\"), 1f, 0, out_dtype=\"uint8\") }",
	       0, W(0, 255, 255));
	/* 0 / 0.5 + (-10) = -10; 1 / 0.5 - 10 = -8; -60 / 0.5 - 10 = -130 -> -128 */
	expect("quantize with a negative zero point",
	       "def @main() { qnn.quantize(const([0, 1, -60], dtype=\"float32\"), 0.5f, -10, out_dtype=\"int8\") }",
	       0, W(-10, -8, -128));
	/* row 0: scale 1, zp 0 -> 1, 1; row 1: scale 0.5, zp 1 -> 3, 3 */
	expect("per-channel quantize along axis 0",
	       "def @main() { qnn.quantize(const([[1, 1], [1, 1]], dtype=\"float32\"), const([1, 0.5], dtype=\"float32\"), const([0, 1], dtype=\"int32\"), out_dtype=\"int8\", axis=0) }",
	       0, W(1, 1, 3, 3));
	/* columns: scale 1 and 0.25 -> [2, 8], [4, 16] */
	expect("per-channel quantize along axis -1",
	       "def @main() { qnn.quantize(const([[2, 2], [4, 4]], dtype=\"float32\"), const([1, 0.25], dtype=\"float32\"), const([0, 0], dtype=\"int32\"), out_dtype=\"int8\") }",
	       0, W(2, 8, 4, 16));
	/* (x + 1) * 0.5: -128 -> -63.5, 0 -> 0.5, 127 -> 64 */
	expect("dequantize int8",
	       "def @main() { qnn.dequantize(const([-128, 0, 127], dtype=\"int8\"), 0.5f, -1) }",
	       0, W(-63.5, 0.5, 64));
	expect("dequantize uint8 with zero point 128",
	       "def @main() { qnn.dequantize(const([0, 128, 255], dtype=\"uint8\"), 0.25f, 128) }",
	       0, W(-32, 0, 31.75));
	/* columns: (x - 0) * 1, (x - 1) * 2 */
	expect("per-channel dequantize along axis 1",
	       "def @main() { qnn.dequantize(const([[1, 2], [3, 4]], dtype=\"int8\"), const([1, 2], dtype=\"float32\"), const([0, 1], dtype=\"int32\"), axis=1) }",
	       0, W(1, 2, 3, 6));
	/* x * 0.5: ties 0.5 -> 1, 1.5 -> 2, -0.5 -> 0, -1.5 -> -1, 2.5 -> 3, -2.5 -> -2 */
	expect("requantize UPWARD rounds ties up",
	       "def @main() { qnn.requantize(const([1, 3, -1, -3, 5, -5], dtype=\"int32\"), 0.5f, 0, 1f, 0, out_dtype=\"int8\") }",
	       0, W(1, 2, 0, -1, 3, -2));
	expect("requantize rounding None is UPWARD",
	       "def @main() { qnn.requantize(const([1, 3, -1, -3, 5, -5], dtype=\"int32\"), 0.5f, 0, 1f, 0, rounding=\"None\", out_dtype=\"int8\") }",
	       0, W(1, 2, 0, -1, 3, -2));
	expect("requantize UPWARD explicit",
	       "def @main() { qnn.requantize(const([1, 3, -1, -3, 5, -5], dtype=\"int32\"), 0.5f, 0, 1f, 0, rounding=\"UPWARD\", out_dtype=\"int8\") }",
	       0, W(1, 2, 0, -1, 3, -2));
	/* TONEAREST: ties away from zero: 1, 2, -1, -2, 3, -3 */
	expect("requantize TONEAREST rounds ties away from zero",
	       "def @main() { qnn.requantize(const([1, 3, -1, -3, 5, -5], dtype=\"int32\"), 0.5f, 0, 1f, 0, rounding=\"TONEAREST\", out_dtype=\"int8\") }",
	       0, W(1, 2, -1, -2, 3, -3));
	/* ratio 2 / 0.5 = 4: 10 -> 40, -10 -> -40, 40 -> 160 -> 127, -40 -> -160 -> -128 */
	expect("requantize with scale ratio > 1 saturates",
	       "def @main() { qnn.requantize(const([10, -10, 40, -40], dtype=\"int32\"), 2f, 0, 0.5f, 0, out_dtype=\"int8\") }",
	       0, W(40, -40, 127, -128));
	/* ratio 0.3f = 0.30000001: 10 -> 3.0000001 -> 3, 5 -> 1.5000001 -> 2,
	** -5 -> -1.5000001 -> -2, 100 -> 30.000001 -> 30 */
	expect("requantize with scale ratio < 1",
	       "def @main() { qnn.requantize(const([10, 5, -5, 100], dtype=\"int32\"), 0.3f, 0, 1f, 0, out_dtype=\"int32\") }",
	       0, W(3, 2, -2, 30));
	/* (13 - 3) * 0.3 = 3, minus 5 -> -2; (3 - 3) -> 0 - 5 = -5 */
	expect("requantize with input and output zero points",
	       "def @main() { qnn.requantize(const([13, 3], dtype=\"int8\"), 0.3f, 3, 1f, -5, out_dtype=\"int8\") }",
	       0, W(-2, -5));
	/* equal scales: x + 128 clamped to uint8 */
	expect("requantize saturates at 0 and 255",
	       "def @main() { qnn.requantize(const([1000, -1000, 10], dtype=\"int32\"), 1f, 0, 1f, 128, out_dtype=\"uint8\") }",
	       0, W(255, 0, 138));
	/* rows: ratio 1 and 0.5 (per channel, UPWARD): 10, 10 | 5, 5; 11 -> 5.5 -> 6 */
	expect("per-channel requantize along axis 0",
	       "def @main() { qnn.requantize(const([[10, 10], [10, 11]], dtype=\"int32\"), const([1, 0.5], dtype=\"float32\"), const([0, 0], dtype=\"int32\"), 1f, 0, axis=0, out_dtype=\"int32\") }",
	       0, W(10, 10, 5, 6));
	/* HALF_TO_EVEN (QNNPACK's float32): m = 0.5 exactly; 0.5 -> 0, 1.5 -> 2,
	** -0.5 -> -0, -1.5 -> -2, 2.5 -> 2, -2.5 -> -2 */
	expect("requantize HALF_TO_EVEN rounds float32 ties to even",
	       "def @main() { qnn.requantize(const([1, 3, -1, -3, 5, -5], dtype=\"int32\"), 0.5f, 0, 1f, 0, rounding=\"HALF_TO_EVEN\", compute_dtype=\"float32\", out_dtype=\"int8\") }",
	       0, W(0, 2, 0, -2, 2, -2));
	/* a near-tie: input scale 0.002532161f, output scale 0.074264534f; the
	** exact ratio is 0.0340965013..., so 4062 x ratio = 138.5000047 and
	** TVM's Q31 (UPWARD or TONEAREST) gives 139, -4062 -> -138.5000047 ->
	** -139; QNNPACK's float32: fl(1 / 0.074264534f) = 13.465383,
	** m = fl(0.002532161f x 13.465383) = 0.034096505 (0x3D0BA854),
	** fl(4062 x m) = 138.5 exactly (138.50000531 rounds to it), a tie: 138;
	** -4062 -> -138; 4063 -> 138.534 -> 139 */
	expect("requantize near-tie: TVM's Q31 rounds the exact ratio's 138.5000047 up",
	       "def @main() { qnn.requantize(const([4062, -4062, 4063], dtype=\"int32\"), 0.002532161f, 0, 0.074264534f, 0, rounding=\"TONEAREST\", out_dtype=\"int32\") }",
	       0, W(139, -139, 139));
	expect("requantize near-tie: HALF_TO_EVEN's float32 product is the tie 138.5 -> 138",
	       "def @main() { qnn.requantize(const([4062, -4062, 4063], dtype=\"int32\"), 0.002532161f, 0, 0.074264534f, 0, rounding=\"HALF_TO_EVEN\", compute_dtype=\"float32\", out_dtype=\"int32\") }",
	       0, W(138, -138, 139));
	/* the accumulator is converted to float32 first: 2^24 + 1 -> 2^24 (to
	** even); m = fl(1 x fl(1 / 1)) = 1: 16777216; 16777219 -> 16777220 */
	expect("requantize HALF_TO_EVEN converts the accumulator to float32",
	       "def @main() { qnn.requantize(const([16777217, 16777219], dtype=\"int32\"), 1f, 0, 1f, 0, rounding=\"HALF_TO_EVEN\", compute_dtype=\"float32\", out_dtype=\"int32\") }",
	       0, W(16777216, 16777220));
	/* input zero point 3, output zero point -5, m = fl(1 x fl(1 / 4)) =
	** 0.25: (13 - 3) x 0.25 = 2.5 -> 2 - 5 = -3; (1003 - 3) / 4 = 250 - 5
	** = 245 -> 127; (-997 - 3) / 4 = -250 - 5 -> -128; (9 - 3) / 4 = 1.5
	** -> 2 - 5 = -3 */
	expect("requantize HALF_TO_EVEN with zero points saturates",
	       "def @main() { qnn.requantize(const([13, 1003, -997, 9], dtype=\"int32\"), 1f, 3, 4f, -5, rounding=\"HALF_TO_EVEN\", compute_dtype=\"float32\", out_dtype=\"int8\") }",
	       0, W(-3, 127, -128, -3));
	/* per channel along axis 0: row scales 1 and 0.5 (m = fl(s x fl(1 /
	** 1))): 5, 7 | 2.5 -> 2, 3.5 -> 4; uint8 with zero point 0 */
	expect("per-channel requantize HALF_TO_EVEN along axis 0",
	       "def @main() { qnn.requantize(const([[5, 7], [5, 7]], dtype=\"int32\"), const([1, 0.5], dtype=\"float32\"), const([0, 0], dtype=\"int32\"), 1f, 0, axis=0, rounding=\"HALF_TO_EVEN\", compute_dtype=\"float32\", out_dtype=\"uint8\") }",
	       0, W(5, 7, 2, 4));
	/* the multiplier is fl(s x fl(1 / os)), not fl(s / os): s = 3, os = 7:
	** fl(1 / 7) x 3 rounds to 0x3EDB6DB8 where fl(3 / 7) is 0x3EDB6DB7;
	** x = 1223342: fl(x m) = 524289.5, a tie -> 524290 (fl(x fl(3 / 7)) =
	** 524289.44 and the exact 524289.43 would give 524289, as TVM's does) */
	expect("requantize HALF_TO_EVEN multiplies by fl(1 / output scale)",
	       "def @main() { qnn.requantize(const([1223342], dtype=\"int32\"), 3f, 0, 7f, 0, rounding=\"HALF_TO_EVEN\", compute_dtype=\"float32\", out_dtype=\"int32\") }",
	       0, W(524290));
	expect("requantize TONEAREST on the same: 524289",
	       "def @main() { qnn.requantize(const([1223342], dtype=\"int32\"), 3f, 0, 7f, 0, rounding=\"TONEAREST\", out_dtype=\"int32\") }",
	       0, W(524289));
	refuses("requantize HALF_TO_EVEN needs compute_dtype float32",
	        "def @main() {\n  qnn.requantize(const([1], dtype=\"int32\"), 0.5f, 0, 1f, 0, rounding=\"HALF_TO_EVEN\", out_dtype=\"int8\")\n}",
	        "rounding \"HALF_TO_EVEN\" needs compute_dtype \"float32\"", NULL);
	refuses("requantize with compute_dtype float32 is refused at prepare time",
	        "def @main() {\n  qnn.requantize(const([1], dtype=\"int32\"), 0.5f, 0, 1f, 0, compute_dtype=\"float32\", out_dtype=\"int8\")\n}",
	        "t.relay:2:3", "compute_dtype \"float32\"");
}

static void
test_qnn(void)
{
	/* all parameters equal: 1 + 3, 2 + 4, 100 + 100 -> 127 */
	expect("qnn.add with equal parameters saturates",
	       "def @main() { qnn.add(const([1, 2, 100], dtype=\"int8\"), const([3, 4, 100], dtype=\"int8\"), 1f, 0, 1f, 0, 1f, 0) }",
	       0, W(4, 6, 127));
	/* lhs 10 at scale 0.5 -> 5 + 2 = 7; rhs 3 (1, 0) -> 3 + 2 = 5; 7 + 5 - 2 = 10
	** (real: 5 + 3 = 8, quantized 8 + 2 = 10) */
	expect("qnn.add requantizes to the output parameters",
	       "def @main() { qnn.add(const([10], dtype=\"int8\"), const([3], dtype=\"int8\"), 0.5f, 0, 1f, 0, 1f, 2) }",
	       0, W(10));
	/* uint8, zero points 128: (200 - 128) + (100 - 128) + 128 = 172; 0 + 0 -> 0 - 128 - 128 + 128 = -128 -> 0 */
	expect("qnn.add uint8 with zero points",
	       "def @main() { qnn.add(const([200, 0], dtype=\"uint8\"), const([100, 0], dtype=\"uint8\"), 1f, 128, 1f, 128, 1f, 128) }",
	       0, W(172, 0));
	/* lhs [4, -3] * 0.5, rhs ([6, 5] - 1) * 0.25: products 20, -12 at scale
	** 0.125, to scale 0.5: 5, -3 */
	expect("qnn.mul",
	       "def @main() { qnn.mul(const([4, -3], dtype=\"int8\"), const([6, 5], dtype=\"int8\"), 0.5f, 0, 0.25f, 1, 0.5f, 0) }",
	       0, W(5, -3));
	/* 100 * 100 at scale 1 -> 10000 -> 127 */
	expect("qnn.mul saturates",
	       "def @main() { qnn.mul(const([100], dtype=\"int8\"), const([100], dtype=\"int8\"), 1f, 0, 1f, 0, 1f, 0) }",
	       0, W(127));
	/* [10] as is; [20] at scale 0.5 -> 10 */
	expect("qnn.concatenate requantizes inputs",
	       "def @main() { qnn.concatenate((const([10], dtype=\"int8\"), const([20], dtype=\"int8\")), (1f, 0.5f), (0, 0), 1f, 0) }",
	       0, W(10, 10));
	/* sigmoid(0) = 0.5 -> 0.5 * 256 - 128 = 0; sigmoid(12.7) = 0.999997 -> 256 - 128 -> 127;
	** sigmoid(-12.8) = 2.8e-6 -> 0 - 128 */
	expect("qnn.sigmoid",
	       "def @main() { qnn.sigmoid(const([0, 127, -128], dtype=\"int8\"), 0.1f, 0, 0.00390625f, -128) }",
	       0, W(0, 127, -128));
	/* tanh(0) = 0; tanh(1) = 0.7615942 * 128 = 97.48 -> 97; tanh(-1) -> -97 */
	expect("qnn.tanh",
	       "def @main() { qnn.tanh(const([0, 10, -10], dtype=\"int8\"), 0.1f, 0, 0.0078125f, 0) }",
	       0, W(0, 97, -97));
	/* (data - 1) = [[0, 1, 2], [3, 4, 5], [6, 7, 8]], kernel [[1, 0], [0, 1]]:
	** d[i][j] + d[i+1][j+1] = 4, 6, 10, 12 */
	expect("qnn.conv2d subtracts the input zero point",
	       "def @main() { qnn.conv2d(const([[[[1, 2, 3], [4, 5, 6], [7, 8, 9]]]], dtype=\"int8\"), const([[[[1, 0], [0, 1]]]], dtype=\"int8\"), 1, 0, 1f, 1f, kernel_size=[2, 2], channels=1) }",
	       0, W(4, 6, 10, 12));
	/* padding 1, stride 2: the padded taps are the zero point, adding 0:
	** (0,0): d00 = 0; (0,1): d02 = 2; (1,0): d20 = 6; (1,1): d11 + d22 = 4 + 8 */
	expect("qnn.conv2d with padding and stride",
	       "def @main() { qnn.conv2d(const([[[[1, 2, 3], [4, 5, 6], [7, 8, 9]]]], dtype=\"int8\"), const([[[[1, 0], [0, 1]]]], dtype=\"int8\"), 1, 0, 1f, 1f, strides=[2, 2], padding=[1, 1, 1, 1]) }",
	       0, W(0, 2, 6, 12));
	/* depthwise: channel 0 [[1,2],[3,4]] * ones = 10; channel 1 [[5,6],[7,8]] * [[1,0],[0,-1]] = -3 */
	expect("qnn.conv2d depthwise (groups = channels)",
	       "def @main() { qnn.conv2d(const([[[[1, 2], [3, 4]], [[5, 6], [7, 8]]]], dtype=\"int8\"), const([[[[1, 1], [1, 1]]], [[[1, 0], [0, -1]]]], dtype=\"int8\"), 0, 0, 1f, const([1, 1], dtype=\"float32\"), groups=2) }",
	       0, W(10, -3));
	/* per-channel kernel zero points [1, 3]: (5 - 1) * [3, 4] = 12, 16; (6 - 3) * [3, 4] = 9, 12 */
	expect("qnn.conv2d with per-channel kernel zero points",
	       "def @main() { qnn.conv2d(const([[[[3, 4]]]], dtype=\"int8\"), const([[[[5]]], [[[6]]]], dtype=\"int8\"), 0, const([1, 3], dtype=\"int32\"), 1f, const([1, 1], dtype=\"float32\")) }",
	       0, W(12, 16, 9, 12));
	/* NHWC data, HWIO kernel of ones: 1 + 2 + 3 + 4 */
	expect("qnn.conv2d NHWC / HWIO",
	       "def @main() { qnn.conv2d(const([[[[1], [2]], [[3], [4]]]], dtype=\"int8\"), const([[[[1]], [[1]]], [[[1]], [[1]]]], dtype=\"int8\"), 0, 0, 1f, 1f, data_layout=\"NHWC\", kernel_layout=\"HWIO\") }",
	       0, W(10));
	/* 127 * 127 * 4 taps with uint8 zero points 0: int32 accumulation, no saturation */
	expect("qnn.conv2d accumulates in int32",
	       "def @main() { qnn.conv2d(const([[[[255, 255], [255, 255]]]], dtype=\"uint8\"), const([[[[255, 255], [255, 255]]]], dtype=\"uint8\"), 0, 0, 1f, 1f) }",
	       0, W(260100));
	/* (data - 1) = [0, 1, 2]: . [1, 1, 1] = 3; . [2, 0, -1] = -2 */
	expect("qnn.dense",
	       "def @main() { qnn.dense(const([[1, 2, 3]], dtype=\"int8\"), const([[1, 1, 1], [2, 0, -1]], dtype=\"int8\"), 1, 0, 1f, const([1, 1], dtype=\"float32\"), units=2) }",
	       0, W(3, -2));
	/* kernel zero points [0, 1]: unit 1 is [1, -1, -2] . [0, 1, 2] = -5 */
	expect("qnn.dense with per-unit kernel zero points",
	       "def @main() { qnn.dense(const([[1, 2, 3]], dtype=\"int8\"), const([[1, 1, 1], [2, 0, -1]], dtype=\"int8\"), 1, const([0, 1], dtype=\"int32\"), 1f, const([1, 1], dtype=\"float32\"), units=2) }",
	       0, W(3, -5));
	/* stride 2, 2x2 kernel of ones: each input fills a 2x2 block */
	expect("qnn.conv2d_transpose with stride 2",
	       "def @main() { qnn.conv2d_transpose(const([[[[1, 2], [3, 4]]]], dtype=\"int8\"), const([[[[1, 1], [1, 1]]]], dtype=\"int8\"), 0, 0, 1f, 1f, strides=[2, 2]) }",
	       0, W(1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4));
	/* stride 1: the sums of the overlapping 2x2 blocks; zero point 1 on the data */
	expect("qnn.conv2d_transpose with stride 1 and a zero point",
	       "def @main() { qnn.conv2d_transpose(const([[[[2, 3], [4, 5]]]], dtype=\"int8\"), const([[[[1, 1], [1, 1]]]], dtype=\"int8\"), 1, 0, 1f, 1f) }",
	       0, W(1, 3, 2, 4, 10, 6, 3, 7, 4));
}

/* ---------------------------------------------------------------- nn */

static void
test_nn(void)
{
	expect("nn.conv2d float32",
	       "def @main() { nn.conv2d(const([[[[0, 1, 2], [3, 4, 5], [6, 7, 8]]]], dtype=\"float32\"), const([[[[1, 0], [0, 1]]]], dtype=\"float32\")) }",
	       0, W(4, 6, 10, 12));
	/* dilation 2 on a 3x3 input: the four corners 0 + 2 + 6 + 8 */
	expect("nn.conv2d with dilation",
	       "def @main() { nn.conv2d(const([[[[0, 1, 2], [3, 4, 5], [6, 7, 8]]]], dtype=\"float32\"), const([[[[1, 1], [1, 1]]]], dtype=\"float32\"), dilation=[2, 2]) }",
	       0, W(16));
	/* groups=2 with 2 input channels per group, 1 output channel each:
	** out0 = c0 + c1 = 1 + 2, out1 = c2 - c3 = 3 - 4 */
	expect("nn.conv2d grouped",
	       "def @main() { nn.conv2d(const([[[[1]], [[2]], [[3]], [[4]]]], dtype=\"float32\"), const([[[[1]], [[1]]], [[[1]], [[-1]]]], dtype=\"float32\"), groups=2) }",
	       0, W(3, -1));
	/* int8 data to int32 out */
	expect("nn.conv2d int8 to int32",
	       "def @main() { nn.conv2d(const([[[[100, 100]]]], dtype=\"int8\"), const([[[[100, 100]]]], dtype=\"int8\"), out_dtype=\"int32\") }",
	       0, W(20000));
	expect("nn.conv2d_transpose float32",
	       "def @main() { nn.conv2d_transpose(const([[[[1, 2], [3, 4]]]], dtype=\"float32\"), const([[[[1, 1], [1, 1]]]], dtype=\"float32\")) }",
	       0, W(1, 3, 2, 4, 10, 6, 3, 7, 4));
	/* padding 1 crops the 3x3 result of stride 1 to its centre: 10 */
	expect("nn.conv2d_transpose with padding",
	       "def @main() { nn.conv2d_transpose(const([[[[1, 2], [3, 4]]]], dtype=\"float32\"), const([[[[1, 1], [1, 1]]]], dtype=\"float32\"), padding=[1, 1]) }",
	       0, W(10));
	/* [1, 2] . [3, 4] = 11, . [5, 6] = 17 */
	expect("nn.dense", "def @main() { nn.dense(const([[1, 2]], dtype=\"float32\"), const([[3, 4], [5, 6]], dtype=\"float32\"), units=None) }",
	       0, W(11, 17));
	expect("nn.batch_matmul", "def @main() { nn.batch_matmul(const([[[1, 2], [3, 4]]], dtype=\"float32\"), const([[[5, 6], [7, 8]]], dtype=\"float32\")) }",
	       0, W(19, 22, 43, 50));
	expect("nn.batch_matmul transpose_b", "def @main() { nn.batch_matmul(const([[[1, 2], [3, 4]]], dtype=\"float32\"), const([[[5, 6], [7, 8]]], dtype=\"float32\"), transpose_b=True) }",
	       0, W(17, 23, 39, 53));
	/* batch 2 against batch 1: the second batch of a is [[1, 0], [0, 1]] */
	expect("nn.batch_matmul broadcasts the batch", "def @main() { nn.batch_matmul(const([[[1, 2], [3, 4]], [[1, 0], [0, 1]]], dtype=\"int32\"), const([[[5, 6], [7, 8]]], dtype=\"int32\")) }",
	       0, W(19, 22, 43, 50, 5, 6, 7, 8));
	expect("max_pool2d", "def @main() { nn.max_pool2d(const([[[[0, 1, 2], [3, 4, 5], [6, 7, 8]]]], dtype=\"float32\"), pool_size=[2, 2]) }",
	       0, W(4, 5, 7, 8));
	/* ceil_mode: windows at 0 and 2 with stride 2, the second one cut: 4, 5, 7, 8 */
	expect("max_pool2d ceil_mode", "def @main() { nn.max_pool2d(const([[[[0, 1, 2], [3, 4, 5], [6, 7, 8]]]], dtype=\"float32\"), pool_size=[2, 2], strides=[2, 2], ceil_mode=True) }",
	       0, W(4, 5, 7, 8));
	/* padding is never the max: all negative */
	expect("max_pool2d int8 with padding", "def @main() { nn.max_pool2d(const([[[[-5, -3], [-8, -1]]]], dtype=\"int8\"), pool_size=[2, 2], padding=[1, 1]) }",
	       0, W(-5, -3, -3, -5, -1, -1, -8, -1, -1));
	/* 11 / 4 = 2 (truncating), -11 / 4 = -2 */
	expect("avg_pool2d int32 truncates", "def @main() { nn.avg_pool2d(const([[[[1, 2], [3, 5]], [[-1, -2], [-3, -5]]]], dtype=\"int32\"), pool_size=[2, 2]) }",
	       0, W(2, -2));
	/* 4s with padding 1: corner 4 / 4 = 1 counting the padding */
	expect("avg_pool2d count_include_pad", "def @main() { nn.avg_pool2d(const([[[[4, 4], [4, 4]]]], dtype=\"int32\"), pool_size=[2, 2], padding=[1, 1], count_include_pad=True) }",
	       0, W(1, 2, 1, 2, 4, 2, 1, 2, 1));
	expect("avg_pool2d without count_include_pad", "def @main() { nn.avg_pool2d(const([[[[4, 4], [4, 4]]]], dtype=\"int32\"), pool_size=[2, 2], padding=[1, 1]) }",
	       0, W(4, 4, 4, 4, 4, 4, 4, 4, 4));
	/* ceil_mode: (0+1+3+4)/4 = 2, (2+5)/2, (6+7)/2, 8/1 */
	expect("avg_pool2d ceil_mode float", "def @main() { nn.avg_pool2d(const([[[[0, 1, 2], [3, 4, 5], [6, 7, 8]]]], dtype=\"float32\"), pool_size=[2, 2], strides=[2, 2], ceil_mode=True, count_include_pad=True) }",
	       0, W(2, 3.5, 6.5, 8));
	/* NHWC: channels last */
	expect("avg_pool2d NHWC", "def @main() { nn.avg_pool2d(const([[[[1, 10], [2, 20]], [[3, 30], [4, 40]]]], dtype=\"float32\"), pool_size=[2, 2], layout=\"NHWC\") }",
	       0, W(2.5, 25));
	expect("global_avg_pool2d", "def @main() { nn.global_avg_pool2d(const([[[[1, 2], [3, 4]], [[5, 6], [7, 8]]]], dtype=\"float32\")) }",
	       0, W(2.5, 6.5));
	expect("global_avg_pool2d int32", "def @main() { nn.global_avg_pool2d(const([[[[1, 2], [3, 5]]]], dtype=\"int32\")) }",
	       0, W(2));
	/* e^(x - 3) / sum: 0.09003057, 0.24472847, 0.66524096 */
	expect("softmax", "def @main() { nn.softmax(const([1, 2, 3], dtype=\"float32\")) }", 1e-6,
	       W(0.09003057, 0.24472847, 0.66524096));
	if (go("def @main() { nn.softmax(const([[1, -20, 3, 0.5], [100, 100, 100, 100]], dtype=\"float32\"), axis=1) }", NULL) == 0) {
		double s0 = 0, s1 = 0;
		for (int i = 0; i < 4; i++) {
			s0 += at(&outs[0], i);
			s1 += at(&outs[0], 4 + i);
		}
		ok(fabs(s0 - 1) < 1e-6 && fabs(s1 - 1) < 1e-6 && at(&outs[0], 4) == 0.25, "softmax rows sum to 1");
	} else {
		ok(0, "softmax rows sum to 1");
	}
	expect("softmax axis 0", "def @main() { nn.softmax(const([[0, 5], [0, 5]], dtype=\"float32\"), axis=0) }", 0,
	       W(0.5, 0.5, 0.5, 0.5));
	expect("mean over axis 1", "def @main() { mean(const([[1, 2], [3, 4]], dtype=\"float32\"), axis=[1]) }", 0, W(1.5, 3.5));
	expect("mean over all", "def @main() { mean(const([[1, 2], [3, 4]], dtype=\"float32\")) }", 0, W(2.5));
	expect("mean exclude", "def @main() { mean(const([[1, 2], [3, 4]], dtype=\"float32\"), axis=[1], exclude=True) }", 0, W(2, 3));
	expect("mean keepdims", "def @main() { mean(const([[1, 2], [3, 4]], dtype=\"float32\"), axis=[0], keepdims=True) }", 0, W(2, 3));
	/* int32: 3 / 2 = 1, 8 / 2 = 4 */
	expect("mean int32 truncates", "def @main() { mean(const([[1, 2], [3, 5]], dtype=\"int32\"), axis=[1]) }", 0, W(1, 4));
	/* half_pixel, round: rows 0.5 o - 0.25 -> 0, 0, 1, 1 */
	expect("resize2d nearest", "def @main() { image.resize2d(const([[[[1, 2], [3, 4]]]], dtype=\"float32\"), size=[4, 4], roi=[0f, 0f, 0f, 0f], method=\"nearest_neighbor\") }",
	       0, W(1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4));
	expect("resize2d nearest int8 asymmetric floor", "def @main() { image.resize2d(const([[[[1, 2]]]], dtype=\"int8\"), size=[1, 4], roi=[0f, 0f, 0f, 0f], method=\"nearest_neighbor\", coordinate_transformation_mode=\"asymmetric\", rounding_method=\"floor\") }",
	       0, W(1, 1, 2, 2));
	/* align_corners: 0, 0.5, 1 -> 0, 5, 10 */
	expect("resize2d linear align_corners", "def @main() { image.resize2d(const([[[[0, 10]]]], dtype=\"float32\"), size=[1, 3], roi=[0f, 0f, 0f, 0f], coordinate_transformation_mode=\"align_corners\") }",
	       0, W(0, 5, 10));
	/* half_pixel: 0.5 o - 0.25 -> -0.25 (clamped: 0), 0.25, 0.75, 1.25 (1):
	** 0, 2.5, 7.5, 10 */
	expect("resize2d linear half_pixel", "def @main() { image.resize2d(const([[[[0, 10]]]], dtype=\"float32\"), size=[1, 4], roi=[0f, 0f, 0f, 0f]) }",
	       1e-6, W(0, 2.5, 7.5, 10));
	/* the float32 result cast to out_dtype: truncated, saturated (300 -> 255) */
	expect("resize2d linear into int8", "def @main() { image.resize2d(const([[[[0, 10]]]], dtype=\"float32\"), size=[1, 4], roi=[0f, 0f, 0f, 0f], out_dtype=\"int8\") }",
	       0, W(0, 2, 7, 10));
	expect("resize2d linear into uint8 saturates", "def @main() { image.resize2d(const([[[[-10, 300]]]], dtype=\"float32\"), size=[1, 4], roi=[0f, 0f, 0f, 0f], out_dtype=\"uint8\") }",
	       0, W(0, 67, 222, 255));
	refuses("resize2d of integers other than nearest is refused at prepare time with its location",
	        "def @main() {\n  %0 = add(const([[[[0, 10]]]], dtype=\"int8\"), 1i8);\n  image.resize2d(%0, size=[1, 4], roi=[0f, 0f, 0f, 0f], method=\"cubic\")\n}",
	        "t.relay:3:3", "floats only");
	refuses("resize2d tf_crop_and_resize is refused at prepare time",
	        "def @main() { image.resize2d(const([[[[0, 10]]]], dtype=\"float32\"), size=[1, 4], roi=[0f, 0f, 1f, 1f], coordinate_transformation_mode=\"tf_crop_and_resize\") }",
	        "t.relay:1:15", "tf_crop_and_resize");
	/* cubic, align_corners, alpha -0.5, on a linear ramp [0, 10, 20, 30] to
	** 7 points (step 0.5): the Keys kernel reproduces linear data inside,
	** so 0, 5, 10, ..., 30, except next to the clamped edges: at 0.5 the
	** taps are x[-1] = x[0] (clamped), 0, 10, 20 with weights at t = 0.5
	** of -0.0625, 0.5625, 0.5625, -0.0625: -0 + 0 + 5.625 - 1.25 = 4.375 */
	expect("resize2d cubic", "def @main() { image.resize2d(const([[[[0, 10, 20, 30]]]], dtype=\"float32\"), size=[1, 7], roi=[0f, 0f, 0f, 0f], method=\"cubic\", coordinate_transformation_mode=\"align_corners\") }",
	       1e-5, W(0, 4.375, 10, 15, 20, 25.625, 30));
	/* DCR: out[c][i][j] = in[(2i + j) * 2 + c] */
	expect("depth_to_space DCR", "def @main() { nn.depth_to_space(const([[[[0]], [[1]], [[2]], [[3]], [[4]], [[5]], [[6]], [[7]]]], dtype=\"int8\"), block_size=2) }",
	       0, W(0, 2, 4, 6, 1, 3, 5, 7));
	expect("depth_to_space CDR", "def @main() { nn.depth_to_space(const([[[[0]], [[1]], [[2]], [[3]], [[4]], [[5]], [[6]], [[7]]]], dtype=\"int8\"), block_size=2, mode=\"CDR\") }",
	       0, W(0, 1, 2, 3, 4, 5, 6, 7));
}

/* ---------------------------------------------------------------- data movement and structure */

static void
test_movement(void)
{
	expect("reshape", "def @main() { reshape(const([[1, 2, 3], [4, 5, 6]], dtype=\"int8\"), newshape=[3, 2]) }", 0, W(1, 2, 3, 4, 5, 6));
	expect("transpose", "def @main() { transpose(const([[1, 2, 3], [4, 5, 6]], dtype=\"int8\"), axes=[1, 0]) }", 0, W(1, 4, 2, 5, 3, 6));
	expect("expand_dims and squeeze", "def @main() { squeeze(expand_dims(const([1, 2], dtype=\"int8\"), axis=0)) }", 0, W(1, 2));
	expect("batch_flatten", "def @main() { nn.batch_flatten(const([[[1, 2], [3, 4]]], dtype=\"int8\")) }", 0, W(1, 2, 3, 4));
	expect("strided_slice", "def @main() { strided_slice(const([0, 1, 2, 3, 4, 5], dtype=\"int32\"), begin=[1], end=[5], strides=[2], axes=None) }", 0, W(1, 3));
	expect("strided_slice backwards", "def @main() { strided_slice(const([0, 1, 2, 3, 4, 5], dtype=\"int32\"), begin=[-1], end=[0], strides=[-2], axes=None) }", 0, W(5, 3, 1));
	expect("concatenate", "def @main() { concatenate((const([[1], [2]], dtype=\"int8\"), const([[3, 4], [5, 6]], dtype=\"int8\")), axis=1) }",
	       0, W(1, 3, 4, 2, 5, 6));
	expect("pad constant", "def @main() { nn.pad(const([1, 2], dtype=\"int8\"), 9, pad_width=[[1, 2]]) }", 0, W(9, 1, 2, 9, 9));
	expect("pad edge", "def @main() { nn.pad(const([1, 2], dtype=\"int8\"), 0, pad_width=[[2, 1]], pad_mode=\"edge\") }", 0, W(1, 1, 1, 2, 2));
	expect("pad reflect", "def @main() { nn.pad(const([1, 2, 3], dtype=\"int8\"), 0, pad_width=[[2, 2]], pad_mode=\"reflect\") }", 0, W(3, 2, 1, 2, 3, 2, 1));
	expect("split sections and tuple_get_item", "def @main() { %0 = split(const([1, 2, 3, 4], dtype=\"int8\"), indices_or_sections=2); %0.1 }",
	       0, W(3, 4));
	expect("split indices", "def @main() { %0 = split(const([1, 2, 3, 4, 5], dtype=\"int8\"), indices_or_sections=[1, 3]); %0.1 }",
	       0, W(2, 3));
	/* a tuple result: two outputs */
	if (go("def @main() { %0 = split(const([1, 2, 3, 4, 5, 6], dtype=\"int8\"), indices_or_sections=3); (%0.2, %0.0, add(%0.1, %0.1)) }", NULL) == 0)
		ok(nouts == 3 && same(0, 0, W(5, 6)) && same(1, 0, W(1, 2)) && same(2, 0, W(6, 8)), "a tuple result is flattened");
	else
		ok(0, "a tuple result is flattened");
	/* nested tuples flatten depth first */
	if (go("def @main() { ((1i8, (2i8, 3i8)), 4i8) }", NULL) == 0)
		ok(nouts == 4 && same(0, 0, W(1)) && same(1, 0, W(2)) && same(2, 0, W(3)) && same(3, 0, W(4)),
		   "nested tuples flatten depth first");
	else
		ok(0, "nested tuples flatten depth first");
}

static void
test_functions(void)
{
	Tensor in[2];
	float x[2] = { 1.5f, -2 };
	int8_t y[3] = { 1, 2, 3 };

	memset(in, 0, sizeof in);
	in[0].dt = DT_FLOAT32;
	in[0].rank = 1;
	in[0].dims[0] = 2;
	in[0].data = (unsigned char *)x;
	in[1].dt = DT_INT8;
	in[1].rank = 1;
	in[1].dims[0] = 3;
	in[1].data = (unsigned char *)y;
	/* (x + x) * (x + x): 3 * 3 = 9, -4 * -4 = 16 */
	ok(go("def @f(%a: Tensor[(2), float32], %b: Tensor[(2), float32]) -> Tensor[(2), float32] { add(%a, %b) }\n"
	      "def @main(%x: Tensor[(2), float32]) {\n"
	      "  %0 = @f(%x, %x);\n"
	      "  %1 = fn (%p: Tensor[(2), float32], Composite=\"sq\") { multiply(%p, %p) };\n"
	      "  %1(%0)\n}\n", in) == 0 && same(0, 0, W(9, 16)), "a global function and a composite function");
	if (errs[0])
		printf("#   %s", errs);
	/* a partition with a Compiler attribute runs as ordinary code */
	ok(go("def @tvmgen_default_ccompiler_main_0(%i: Tensor[(3), int8], Compiler=\"ccompiler\", global_symbol=\"tvmgen_default_ccompiler_main_0\", Primitive=1, Inline=1) -> Tensor[(3), int8] {\n"
	      "  %0 = fn (%q: Tensor[(3), int8], Composite=\"ccompiler.sub\") { subtract(%q, 1i8) };\n"
	      "  %0(%i)\n}\n"
	      "def @main(%x: Tensor[(2), float32], %y: Tensor[(3), int8]) {\n"
	      "  %1 = @tvmgen_default_ccompiler_main_0(%y);\n"
	      "  (%1, %x)\n}\n", in) == 0 && nouts == 2 && same(0, 0, W(0, 1, 2)) && same(1, 0, W(1.5, -2)),
	   "a partition with a Compiler attribute and two inputs");
	if (errs[0])
		printf("#   %s", errs);
	/* one function called twice, and a value read by several users */
	ok(go("def @g(%a: Tensor[(3), int8]) -> Tensor[(3), int8] { multiply(%a, 2i8) }\n"
	      "def @main(%y: Tensor[(3), int8]) {\n"
	      "  %0 = @g(%y); %1 = @g(%0); %2 = add(%0, %1); (%2, %0)\n}\n", in + 1) == 0 &&
	   same(0, 0, W(6, 12, 18)) && same(1, 0, W(2, 4, 6)),
	   "a function called twice and a value with several users");
	refuses("recursion is refused",
	        "def @r(%a: Tensor[(1), int8]) -> Tensor[(1), int8] { @r(%a) }\ndef @main() { @r(const([1], dtype=\"int8\")) }",
	        "recursive", NULL);
	refuses("a constant without data is refused",
	        "def @main() {\n  add(meta[relay.Constant][0] /* ty=Tensor[(2), float32] */, 1f)\n}",
	        "t.relay:2:7", "data");
	/* a long chain: every intermediate is freed when used (ASan checks leaks) */
	{
		char src[20000];
		size_t n = (size_t)snprintf(src, sizeof src, "def @main(%%x: Tensor[(2), float32]) {\n  %%0 = add(%%x, 1f);\n");
		for (int i = 1; i < 200; i++)
			n += (size_t)snprintf(src + n, sizeof src - n, "  %%%d = add(%%%d, 1f);\n", i, i - 1);
		snprintf(src + n, sizeof src - n, "  %%199\n}\n");
		ok(go(src, in) == 0 && same(0, 0, W(201.5, 198)), "a chain of 200 adds");
	}
}

/* ---------------------------------------------------------------- edge cases */

static void
test_edges(void)
{
	/* 1.5 * 2 = 3; 70000 saturates int16; uint16 max; int32 */
	expect("quantize to int16 saturates", "def @main() { qnn.quantize(const([1.5, 70000, -70000], dtype=\"float32\"), 0.5f, 0, out_dtype=\"int16\") }",
	       0, W(3, 32767, -32768));
	expect("quantize to uint16", "def @main() { qnn.quantize(const([-1, 65535.4, 7], dtype=\"float32\"), 1f, 0, out_dtype=\"uint16\") }",
	       0, W(0, 65535, 7));
	/* 100000 clips to 65504; 3 * 0.1f = 0.30000001 -> the half 0.300048828125 */
	expect("dequantize to float16 clips and rounds", "def @main() { qnn.dequantize(const([100000, 3], dtype=\"int32\"), const([1, 0.1], dtype=\"float32\"), const([0, 0], dtype=\"int32\"), out_dtype=\"float16\", axis=0) }",
	       0, W(65504, 0.300048828125));
	/* equal scales: x + 128 */
	expect("requantize int8 to uint8 with a negative input zero point", "def @main() { qnn.requantize(const([-128, 127], dtype=\"int8\"), 1f, -128, 1f, 0, out_dtype=\"uint8\") }",
	       0, W(0, 255));
	/* per channel, ratio 0.5: 1.5 and -1.5 */
	expect("per-channel requantize TONEAREST", "def @main() { qnn.requantize(const([[3], [-3]], dtype=\"int32\"), const([0.5, 0.5], dtype=\"float32\"), const([0, 0], dtype=\"int32\"), 1f, 0, axis=0, rounding=\"TONEAREST\", out_dtype=\"int32\") }",
	       0, W(2, -2));
	expect("per-channel requantize UPWARD", "def @main() { qnn.requantize(const([[3], [-3]], dtype=\"int32\"), const([0.5, 0.5], dtype=\"float32\"), const([0, 0], dtype=\"int32\"), 1f, 0, axis=0, out_dtype=\"int32\") }",
	       0, W(2, -1));
	/* rows of lhs at scales 1 and 0.5 along lhs_axis 0: 10, 10 | 5, 5 */
	expect("qnn.add with a per-channel lhs", "def @main() { qnn.add(const([[10, 10], [10, 10]], dtype=\"int8\"), const([[0, 0], [0, 0]], dtype=\"int8\"), const([1, 0.5], dtype=\"float32\"), const([0, 0], dtype=\"int32\"), 1f, 0, 1f, 0, lhs_axis=0) }",
	       0, W(10, 10, 5, 5));
	/* (0 - 128) -> 0 saturated, 255 - 128 = 127; [7] as is */
	expect("qnn.concatenate with zero points saturates", "def @main() { qnn.concatenate((const([0, 255], dtype=\"uint8\"), const([7], dtype=\"uint8\")), (1f, 1f), (128, 0), 1f, 0) }",
	       0, W(0, 127, 7));
	/* weight (C=2, M=2, 1, 1): out channel c * 2 + m = x[c] * w[c][m] */
	expect("conv2d depthwise with a channel multiplier", "def @main() { nn.conv2d(const([[[[1]], [[2]]]], dtype=\"float32\"), const([[[[1]], [[2]]], [[[3]], [[4]]]], dtype=\"float32\"), groups=2, channels=4, kernel_size=[1, 1]) }",
	       0, W(1, 2, 6, 8));
	/* tvm::sum in int8: 400 wraps to -112, / 4 = -28 */
	expect("avg_pool2d int8 sums in int8 (wrapping)", "def @main() { nn.avg_pool2d(const([[[[100, 100], [100, 100]]]], dtype=\"int8\"), pool_size=[2, 2]) }",
	       0, W(-28));
	expect("max_pool2d with dilation", "def @main() { nn.max_pool2d(const([[[[0, 1, 2], [3, 4, 5], [6, 7, 8]]]], dtype=\"int32\"), pool_size=[2, 2], dilation=[2, 2]) }",
	       0, W(8));
	/* leaky_relu takes floats (ir/scalar.def), on every backend alike */
	refuses("leaky_relu of integers is refused at prepare time",
	        "def @main() {\n  nn.leaky_relu(const([-4, 4], dtype=\"int32\"), alpha=0.5f)\n}", "t.relay:2:3",
	        "cannot run nn.leaky_relu on integer tensors");
	expect("clip uint8 saturates its bounds", "def @main() { clip(const([0, 255, 7], dtype=\"uint8\"), a_min=-5f, a_max=300f) }", 0, W(0, 255, 7));
	expect("relu of NaN is 0", "def @main() { nn.relu(divide(const([0], dtype=\"float32\"), const([0], dtype=\"float32\"))) }", 0, W(0));
	expect("strided_slice with axes", "def @main() { strided_slice(const([[0, 1, 2, 3], [4, 5, 6, 7]], dtype=\"int8\"), begin=[1], end=[3], strides=[1], axes=[1]) }",
	       0, W(1, 2, 5, 6));
	expect("strided_slice size mode", "def @main() { strided_slice(const([0, 1, 2, 3, 4, 5], dtype=\"int8\"), begin=[1], end=[2], strides=[1], slice_mode=\"size\", axes=None) }",
	       0, W(1, 2));
	expect("transpose reverses without axes", "def @main() { transpose(const([[1, 2, 3], [4, 5, 6]], dtype=\"int8\"), axes=None) }", 0, W(1, 4, 2, 5, 3, 6));
	expect("split along axis 1", "def @main() { %0 = split(const([[1, 2, 3, 4], [5, 6, 7, 8]], dtype=\"int8\"), indices_or_sections=2, axis=1); %0.1 }",
	       0, W(3, 4, 7, 8));
	/* e = 2.71828 is the half 2.71875 */
	expect("exp in float16", "def @main() { exp(const([0, 1], dtype=\"float16\")) }", 0, W(1, 2.71875));
	/* 2049 ties to even 2048; 70000 overflows half */
	expect("cast int32 to float16", "def @main() { cast(const([2049, 70000], dtype=\"int32\"), dtype=\"float16\") }", 0, W(2048, INFINITY));
	/* align_corners: 0, 0.5, 1 rounded half away: 0, 1, 1 */
	expect("resize2d nearest align_corners", "def @main() { image.resize2d(const([[[[1, 2]]]], dtype=\"float32\"), size=[1, 3], roi=[0f, 0f, 0f, 0f], method=\"nearest_neighbor\", coordinate_transformation_mode=\"align_corners\") }",
	       0, W(1, 2, 2));
	/* NHWC nearest doubling */
	expect("resize2d NHWC", "def @main() { image.resize2d(const([[[[1, 10], [2, 20]]]], dtype=\"float32\"), size=[1, 4], roi=[0f, 0f, 0f, 0f], layout=\"NHWC\", method=\"nearest_neighbor\", coordinate_transformation_mode=\"asymmetric\", rounding_method=\"floor\") }",
	       0, W(1, 10, 1, 10, 2, 20, 2, 20));
	/* 4 * 5 = 20 */
	expect("batch_matmul int8 to int32", "def @main() { nn.batch_matmul(const([[[100, 100]]], dtype=\"int8\"), const([[[100], [100]]], dtype=\"int8\"), out_dtype=\"int32\") }",
	       0, W(20000));
	/* a float dense with out_dtype float32 over K = 3 in order: (0.1 + 0.2) + 0.3 in float32 */
	expect("dense accumulates in float32 in order", "def @main() { nn.dense(const([[1, 1, 1]], dtype=\"float32\"), const([[0.1, 0.2, 0.3]], dtype=\"float32\"), units=1) }",
	       0, W((double)((0.1f + 0.2f) + 0.3f)));
}

/* ---------------------------------------------------------------- folding */

static void
test_fold(void)
{
	Module *m = ir_module_new();
	Diag d;
	const char *src =
		"def @main() {\n"
		"  %0 = add(const([1, 2], dtype=\"int32\"), const([3, 4], dtype=\"int32\"));\n"
		"  %1 = exp(const([0], dtype=\"float32\"));\n"
		"  %2 = divide(const([1], dtype=\"int32\"), const([0], dtype=\"int32\"));\n"
		"  %3 = add(const([2147483647], dtype=\"int32\"), const([1], dtype=\"int32\"));\n"
		"  %4 = cast(const([300], dtype=\"float32\"), dtype=\"int8\");\n"
		"  %5 = qnn.requantize(const([4062, 5], dtype=\"int32\"), 0.002532161f, 0, 0.074264534f, 0, "
		"rounding=\"HALF_TO_EVEN\", compute_dtype=\"float32\", out_dtype=\"int32\");\n"
		"  (%0, %1, %2, %3, %4, %5)\n}\n";
	NodeId body, c;

	ir_diag_init(&d, stderr, m);
	if (ir_parse(m, &d, "f.relay", src, strlen(src)) || ir_infer_types(m, &d)) {
		ok(0, "the fold module parses");
		ir_diag_free(&d);
		ir_module_free(m);
		return;
	}
	body = ir_func_body(m, ir_global_find(m, ir_symz(m, "main")));
	c = ref_fold(m, ir_arg(m, body, 0));
	ok(c && m->nodes[c].kind == NK_CONST && ((int32_t *)ir_node_const(m, c)->data)[1] == 6,
	   "fold runs the interpreter in exact mode");
	ok(!ref_fold(m, ir_arg(m, body, 1)), "fold refuses exp (libm)");
	ok(!ref_fold(m, ir_arg(m, body, 2)), "fold refuses integer division by zero");
	ok(!ref_fold(m, ir_arg(m, body, 3)), "fold refuses int32 overflow");
	ok(!ref_fold(m, ir_arg(m, body, 4)), "fold refuses an out-of-range float to int cast");
	ok(!ref_fold(m, body), "fold refuses a tuple root");
	c = ref_fold(m, ir_arg(m, body, 5));
	ok(c && m->nodes[c].kind == NK_CONST && ((int32_t *)ir_node_const(m, c)->data)[0] == 138,
	   "fold evaluates requantize HALF_TO_EVEN (exactly defined in float32)");
	ir_diag_free(&d);
	ir_module_free(m);
}

int
main(void)
{
	plan_lazy();
	ok(be_find("ref") == &be_ref && !be_find("nosuch"), "the backend table has ref and nothing unknown");
	test_elementwise();
	test_quantize();
	test_qnn();
	test_nn();
	test_movement();
	test_functions();
	test_edges();
	test_fold();
	clear();
	return done_testing();
}
