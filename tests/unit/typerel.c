/*
** tests/unit/typerel.c: the type relations of ir/typerel.c, reached through
** the op table as type inference reaches them.  Types are hash-consed, so
** a result is checked by TypeId against the type it must be; a failure is
** checked for a 0 result and the exact message left in Diag.relmsg.  Every
** call also checks that the relation pushed no attributes.  The first
** group replays a quantized MobileNet prologue from a real TVM dump.
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "tap.h"

static Module *M;
static Diag D;

/* bail: stops the run on a broken test */
static _Noreturn void
bail(const char *what, const char *name)
{
	printf("Bail out! %s %s\n", what, name);
	exit(255);
}

/* ten: the tensor type dt of the n dims that follow (-1 for '?') */
static TypeId
ten(DType dt, int n, ...)
{
	int64_t dims[16];
	va_list ap;

	va_start(ap, n);
	for (int i = 0; i < n; i++)
		dims[i] = va_arg(ap, int);
	va_end(ap);
	return ir_type_tensor(M, dt, n, dims);
}

/* tup: the tuple type of the n types that follow */
static TypeId
tup(int n, ...)
{
	TypeId fields[16];
	va_list ap;

	va_start(ap, n);
	for (int i = 0; i < n; i++)
		fields[i] = va_arg(ap, TypeId);
	va_end(ap);
	return ir_type_tuple(M, n, fields);
}

/* attrs: a fresh copy of op's default attributes */
static AttrId
attrs(OpId op)
{
	return ir_attr_defaults(M, op);
}

/* set: overwrites attribute name in the attributes a of op with the value
** of the Relay literal text */
static void
set(OpId op, AttrId a, const char *name, const char *text)
{
	int i = ir_op_attr_index(op, name, strlen(name));
	AttrVal v;

	if (i < 0 || !ir_attr_parse(M, text, &v) || ir_attr_conform(M, ir_ops[op].attrs[i].type, &v))
		bail("bad attribute", name);
	M->attrs[a + (uint32_t)i] = v;
}

/* tystr: t in Relay syntax, for diagnostics */
static char *
tystr(TypeId t, char *buf, size_t size)
{
	const Type *ty = ir_type(M, t);
	size_t k = 0;

	if (!t)
		return snprintf(buf, size, "0"), buf;
	if (ty->kind == TY_TUPLE) {
		k += (size_t)snprintf(buf, size, "(");
		for (uint32_t i = 0; i < ty->n && k < size; i++) {
			char sub[256];
			k += (size_t)snprintf(buf + k, size - k, "%s%s", i ? ", " : "",
			                      tystr(M->tylist[ty->first + i], sub, sizeof sub));
		}
		if (k < size)
			snprintf(buf + k, size - k, ")");
		return buf;
	}
	k += (size_t)snprintf(buf, size, "Tensor[(");
	for (uint32_t i = 0; i < ty->n && k < size; i++) {
		int64_t dim = ir_type_dims(M, t)[i];
		if (dim < 0)
			k += (size_t)snprintf(buf + k, size - k, "%s?", i ? ", " : "");
		else
			k += (size_t)snprintf(buf + k, size - k, "%s%lld", i ? ", " : "", (long long)dim);
	}
	if (k < size)
		snprintf(buf + k, size - k, "), %s]", ir_dtype_names[ty->dtype]);
	return buf;
}

/* call: runs op's relation on args under attributes a; *pushed is set if
** the relation grew Module.attrs */
static TypeId
call(OpId op, AttrId a, const TypeId *args, int n, int *pushed)
{
	uint32_t before = M->nattrs;
	TypeId t;

	if (n != ir_ops[op].nargs)
		bail("wrong operand count for", ir_ops[op].name);
	D.relmsg[0] = 0;
	t = ir_ops[op].rel(M, args, n, &M->attrs[a], &D);
	*pushed = M->nattrs != before;
	return t;
}

/* gives: one test point: op on args gives want */
static void
gives(OpId op, AttrId a, TypeId want, const char *file, int line, const TypeId *args, int n)
{
	char bw[512], bg[512];
	int pushed;
	TypeId got = call(op, a, args, n, &pushed);

	if (!tap_ok(got == want && !pushed, file, line, "%s gives %s", ir_ops[op].name,
	            tystr(want, bw, sizeof bw)))
		printf("#   got %s%s%s%s\n", tystr(got, bg, sizeof bg), D.relmsg[0] ? ", error: " : "",
		       D.relmsg, pushed ? ", and attributes were pushed" : "");
}

/* fails: one test point: op on args fails with message msg */
static void
fails(OpId op, AttrId a, const char *msg, const char *file, int line, const TypeId *args, int n)
{
	char bg[512];
	int pushed;
	TypeId got = call(op, a, args, n, &pushed);

	if (!tap_ok(got == 0 && strcmp(D.relmsg, msg) == 0 && !pushed, file, line, "%s: %s",
	            ir_ops[op].name, msg))
		printf("#   got %s, message \"%s\"%s\n", tystr(got, bg, sizeof bg), D.relmsg,
		       pushed ? ", and attributes were pushed" : "");
}

#define ARGV(...) (const TypeId[]){ __VA_ARGS__ }, \
	(int)(sizeof (TypeId[]){ __VA_ARGS__ } / sizeof (TypeId))
#define GIVES(op, a, want, ...) gives((op), (a), (want), __FILE__, __LINE__, ARGV(__VA_ARGS__))
#define FAILS(op, a, msg, ...) fails((op), (a), (msg), __FILE__, __LINE__, ARGV(__VA_ARGS__))

/* ---------------------------------------------------------------- groups */

/* dump: the quantized prologue of a TVM dump of MobileNet */
static void
dump(void)
{
	TypeId x = ten(DT_FLOAT32, 4, 1, 3, 224, 224);
	TypeId q = ten(DT_UINT8, 4, 1, 3, 224, 224);
	TypeId padded = ten(DT_UINT8, 4, 1, 3, 226, 226);
	TypeId w = ten(DT_INT8, 4, 32, 3, 3, 3);
	TypeId conv = ten(DT_INT32, 4, 1, 32, 112, 112);
	TypeId f32 = ir_type_scalar(M, DT_FLOAT32), i32 = ir_type_scalar(M, DT_INT32);
	TypeId ch32f = ten(DT_FLOAT32, 1, 32);
	AttrId a;

	a = attrs(OP_QNN_QUANTIZE);
	set(OP_QNN_QUANTIZE, a, "out_dtype", "\"uint8\"");
	set(OP_QNN_QUANTIZE, a, "axis", "1");
	GIVES(OP_QNN_QUANTIZE, a, q, x, f32, i32);

	a = attrs(OP_NN_PAD);
	set(OP_NN_PAD, a, "pad_width", "[[0, 0], [0, 0], [1, 1], [1, 1]]");
	GIVES(OP_NN_PAD, a, padded, q, f32);

	a = attrs(OP_QNN_CONV2D);
	set(OP_QNN_CONV2D, a, "strides", "[2, 2]");
	set(OP_QNN_CONV2D, a, "padding", "[0, 0, 0, 0]");
	set(OP_QNN_CONV2D, a, "channels", "32");
	set(OP_QNN_CONV2D, a, "kernel_size", "[3, 3]");
	set(OP_QNN_CONV2D, a, "out_dtype", "\"int32\"");
	GIVES(OP_QNN_CONV2D, a, conv, padded, w, i32, i32, f32, f32);
	GIVES(OP_QNN_CONV2D, a, conv, padded, w, i32, i32, f32, ch32f);

	a = attrs(OP_NN_BIAS_ADD);
	GIVES(OP_NN_BIAS_ADD, a, conv, conv, ten(DT_INT32, 1, 32));

	a = attrs(OP_QNN_REQUANTIZE);
	set(OP_QNN_REQUANTIZE, a, "axis", "1");
	set(OP_QNN_REQUANTIZE, a, "out_dtype", "\"uint8\"");
	GIVES(OP_QNN_REQUANTIZE, a, ten(DT_UINT8, 4, 1, 32, 112, 112), conv, ch32f, i32, f32, i32);

	/* a per-channel weight quantization */
	a = attrs(OP_QNN_QUANTIZE);
	set(OP_QNN_QUANTIZE, a, "out_dtype", "\"int8\"");
	set(OP_QNN_QUANTIZE, a, "axis", "0");
	GIVES(OP_QNN_QUANTIZE, a, ten(DT_INT8, 4, 32, 3, 3, 3), ten(DT_FLOAT32, 4, 32, 3, 3, 3),
	      ch32f, i32);
	FAILS(OP_QNN_QUANTIZE, a, "output_scale must be a scalar or have shape (32), not (16)",
	      ten(DT_FLOAT32, 4, 32, 3, 3, 3), ten(DT_FLOAT32, 1, 16), i32);
}

static void
schema(void)
{
	int i;

	i = ir_op_attr_index(OP_NN_BATCH_MATMUL, "transpose_b", 11);
	is_str(ir_ops[OP_NN_BATCH_MATMUL].attrs[i].deflt, "False", "nn.batch_matmul transpose_b defaults to False");
	is_str(ir_ops[OP_QNN_DEQUANTIZE].attrs[0].name, "out_dtype", "qnn.dequantize lists out_dtype first");
	ok((ir_ops[OP_QNN_DEQUANTIZE].attrs[0].type & AT_ALWAYS) && ir_ops[OP_QNN_DEQUANTIZE].attrs[0].deflt &&
	   strcmp(ir_ops[OP_QNN_DEQUANTIZE].attrs[0].deflt, "\"float32\"") == 0,
	   "qnn.dequantize out_dtype is always printed, and older dumps without it get float32");
	ok(ir_ops[OP_NN_DENSE].attrs[0].deflt == NULL, "nn.dense units is required (None allowed)");
	ok(ir_ops[OP_TRANSPOSE].attrs[0].deflt == NULL, "transpose axes is required (None allowed)");
	i = ir_op_attr_index(OP_STRIDED_SLICE, "axes", 4);
	ok(ir_ops[OP_STRIDED_SLICE].attrs[i].deflt == NULL, "strided_slice axes is required (None allowed)");
	i = ir_op_attr_index(OP_QNN_CONV2D_TRANSPOSE, "kernel_layout", 13);
	is_str(ir_ops[OP_QNN_CONV2D_TRANSPOSE].attrs[i].deflt, "\"IOHW\"",
	       "qnn.conv2d_transpose kernel_layout defaults to IOHW");
	is_str(ir_ops[OP_IMAGE_RESIZE2D].attrs[0].name, "size", "image.resize2d lists size first, then roi");
	i = ir_op_attr_index(OP_IMAGE_RESIZE2D, "cubic_alpha", 11);
	is_str(ir_ops[OP_IMAGE_RESIZE2D].attrs[i].deflt, "-0.5f", "image.resize2d cubic_alpha defaults to -0.5");

	/* a list of floats takes integers as floats, in a fresh copy */
	AttrVal v;
	ok(ir_attr_parse(M, "[0, 0.5f, 1]", &v) && ir_attr_conform(M, AT_FLOATS, &v) == NULL &&
	   v.n == 3 && M->attrs[v.first].kind == AV_FLOAT && M->attrs[v.first + 2].u.f == 1.0,
	   "[0, 0.5f, 1] conforms to a list of floats");
	ok(ir_attr_parse(M, "[0, \"a\"]", &v) && ir_attr_conform(M, AT_FLOATS, &v) != NULL &&
	   strcmp(ir_attr_conform(M, AT_FLOATS, &v), "a list of numbers") == 0,
	   "[0, \"a\"] is not a list of numbers");
}

static void
qnn(void)
{
	TypeId f32 = ir_type_scalar(M, DT_FLOAT32), i32 = ir_type_scalar(M, DT_INT32);
	TypeId u8 = ten(DT_UINT8, 4, 1, 32, 56, 56);
	AttrId a;

	/* qnn.add, qnn.mul */
	a = attrs(OP_QNN_ADD);
	GIVES(OP_QNN_ADD, a, u8, u8, u8, f32, i32, f32, i32, f32, i32);
	FAILS(OP_QNN_ADD, a, "lhs_scale must be float32, not int32", u8, u8, i32, i32, f32, i32, f32, i32);
	FAILS(OP_QNN_ADD, a, "lhs is uint8 but rhs is int8",
	      u8, ten(DT_INT8, 4, 1, 32, 56, 56), f32, i32, f32, i32, f32, i32);
	FAILS(OP_QNN_ADD, a, "output_zero_point must be a scalar, not (1)",
	      u8, u8, f32, i32, f32, i32, f32, ten(DT_INT32, 1, 1));
	set(OP_QNN_ADD, a, "lhs_axis", "4");
	FAILS(OP_QNN_ADD, a, "lhs_axis 4 is out of range for lhs of rank 4",
	      u8, u8, ten(DT_FLOAT32, 1, 32), i32, f32, i32, f32, i32);
	a = attrs(OP_QNN_MUL);
	GIVES(OP_QNN_MUL, a, ten(DT_INT8, 2, 2, 3), ten(DT_INT8, 2, 2, 3), ten(DT_INT8, 1, 3),
	      f32, i32, ten(DT_FLOAT32, 1, 3), i32, f32, i32);
	FAILS(OP_QNN_MUL, a, "lhs (2, 3) and rhs (4, 3) do not broadcast (axis 0: 2 vs 4)",
	      ten(DT_INT8, 2, 2, 3), ten(DT_INT8, 2, 4, 3), f32, i32, f32, i32, f32, i32);

	/* qnn.concatenate */
	a = attrs(OP_QNN_CONCATENATE);
	set(OP_QNN_CONCATENATE, a, "axis", "1");
	TypeId parts = tup(2, ten(DT_UINT8, 4, 1, 16, 8, 8), ten(DT_UINT8, 4, 1, 32, 8, 8));
	GIVES(OP_QNN_CONCATENATE, a, ten(DT_UINT8, 4, 1, 48, 8, 8), parts, tup(2, f32, f32),
	      tup(2, i32, i32), f32, i32);
	FAILS(OP_QNN_CONCATENATE, a, "data has 2 tensors but input_scales has 1",
	      parts, tup(1, f32), tup(2, i32, i32), f32, i32);
	FAILS(OP_QNN_CONCATENATE, a, "field 1 of input_zero_points must be int32, not float32",
	      parts, tup(2, f32, f32), tup(2, i32, f32), f32, i32);
	FAILS(OP_QNN_CONCATENATE, a, "data must be a tuple of tensors, not a tensor",
	      u8, tup(2, f32, f32), tup(2, i32, i32), f32, i32);

	/* qnn.conv2d */
	a = attrs(OP_QNN_CONV2D);
	TypeId x = ten(DT_UINT8, 4, 1, 3, 10, 10), w = ten(DT_INT8, 4, 8, 3, 3, 3);
	GIVES(OP_QNN_CONV2D, a, ten(DT_INT32, 4, 1, 8, 8, 8), x, w, i32, i32, f32, f32);
	FAILS(OP_QNN_CONV2D, a, "data must be int8, uint8 or int16, not float32",
	      ten(DT_FLOAT32, 4, 1, 3, 10, 10), w, i32, i32, f32, f32);
	FAILS(OP_QNN_CONV2D, a, "kernel_scale must be a scalar or have shape (8), not (16)",
	      x, w, i32, i32, f32, ten(DT_FLOAT32, 1, 16));
	FAILS(OP_QNN_CONV2D, a, "input_scale must be a scalar, not (3)",
	      x, w, i32, i32, ten(DT_FLOAT32, 1, 3), f32);
	FAILS(OP_QNN_CONV2D, a, "weight has 4 input channels but data has 3 (groups=1)",
	      x, ten(DT_INT8, 4, 8, 4, 3, 3), i32, i32, f32, f32);
	set(OP_QNN_CONV2D, a, "out_dtype", "\"int8\"");
	FAILS(OP_QNN_CONV2D, a, "out_dtype must be int16, int32 or int64, not int8", x, w, i32, i32, f32, f32);
	/* depthwise: the kernel scale runs along the channels */
	a = attrs(OP_QNN_CONV2D);
	set(OP_QNN_CONV2D, a, "groups", "8");
	set(OP_QNN_CONV2D, a, "channels", "8");
	set(OP_QNN_CONV2D, a, "kernel_size", "[3, 3]");
	set(OP_QNN_CONV2D, a, "padding", "[1, 1]");
	GIVES(OP_QNN_CONV2D, a, ten(DT_INT32, 4, 1, 8, 10, 10), ten(DT_UINT8, 4, 1, 8, 10, 10),
	      ten(DT_INT8, 4, 8, 1, 3, 3), i32, i32, f32, ten(DT_FLOAT32, 1, 8));
	/* grouped, NHWC/HWIO: the kernel scale still runs along the output channels */
	a = attrs(OP_QNN_CONV2D);
	set(OP_QNN_CONV2D, a, "groups", "2");
	set(OP_QNN_CONV2D, a, "data_layout", "\"NHWC\"");
	set(OP_QNN_CONV2D, a, "kernel_layout", "\"HWIO\"");
	GIVES(OP_QNN_CONV2D, a, ten(DT_INT32, 4, 1, 8, 8, 16), ten(DT_INT8, 4, 1, 10, 10, 8),
	      ten(DT_INT8, 4, 3, 3, 4, 16), i32, ten(DT_INT32, 1, 16), f32, ten(DT_FLOAT32, 1, 16));
	FAILS(OP_QNN_CONV2D, a, "kernel_scale must be a scalar or have shape (16), not (8)",
	      ten(DT_INT8, 4, 1, 10, 10, 8), ten(DT_INT8, 4, 3, 3, 4, 16), i32, i32, f32,
	      ten(DT_FLOAT32, 1, 8));

	/* qnn.dense */
	a = attrs(OP_QNN_DENSE);
	set(OP_QNN_DENSE, a, "units", "10");
	GIVES(OP_QNN_DENSE, a, ten(DT_INT32, 2, 1, 10), ten(DT_UINT8, 2, 1, 64), ten(DT_INT8, 2, 10, 64),
	      i32, i32, f32, ten(DT_FLOAT32, 1, 10));
	FAILS(OP_QNN_DENSE, a, "weight has shape (10, 32) but units=10 and data need (10, 64)",
	      ten(DT_UINT8, 2, 1, 64), ten(DT_INT8, 2, 10, 32), i32, i32, f32, f32);
	FAILS(OP_QNN_DENSE, a, "weight must be int8 or uint8, not int16",
	      ten(DT_UINT8, 2, 1, 64), ten(DT_INT16, 2, 10, 64), i32, i32, f32, f32);
	set(OP_QNN_DENSE, a, "out_dtype", "\"int64\"");
	GIVES(OP_QNN_DENSE, a, ten(DT_INT64, 2, 1, 10), ten(DT_UINT8, 2, 1, 64), ten(DT_INT8, 2, 10, 64),
	      i32, i32, f32, f32);

	/* qnn.dequantize */
	a = attrs(OP_QNN_DEQUANTIZE);
	GIVES(OP_QNN_DEQUANTIZE, a, ten(DT_FLOAT32, 2, 1, 1000), ten(DT_UINT8, 2, 1, 1000), f32, i32);
	set(OP_QNN_DEQUANTIZE, a, "out_dtype", "\"float32\"");
	GIVES(OP_QNN_DEQUANTIZE, a, ten(DT_FLOAT32, 2, 1, 1000), ten(DT_UINT8, 2, 1, 1000), f32, i32);
	GIVES(OP_QNN_DEQUANTIZE, a, ten(DT_FLOAT32, 2, 1, 1000), ten(DT_UINT8, 2, 1, 1000),
	      ten(DT_FLOAT32, 1, 1), i32);
	FAILS(OP_QNN_DEQUANTIZE, a, "data must be int8, uint8, int16, uint16 or int32, not float32",
	      ten(DT_FLOAT32, 2, 1, 1000), f32, i32);
	set(OP_QNN_DEQUANTIZE, a, "axis", "0");
	GIVES(OP_QNN_DEQUANTIZE, a, ten(DT_FLOAT32, 4, 32, 3, 3, 3), ten(DT_INT8, 4, 32, 3, 3, 3),
	      ten(DT_FLOAT32, 1, 32), ten(DT_INT32, 1, 32));
	set(OP_QNN_DEQUANTIZE, a, "out_dtype", "\"int8\"");
	FAILS(OP_QNN_DEQUANTIZE, a, "out_dtype must be float16 or float32, not int8",
	      ten(DT_UINT8, 2, 1, 1000), f32, i32);

	/* qnn.quantize */
	a = attrs(OP_QNN_QUANTIZE);
	FAILS(OP_QNN_QUANTIZE, a, "out_dtype is required", ten(DT_FLOAT32, 1, 4), f32, i32);
	set(OP_QNN_QUANTIZE, a, "out_dtype", "\"int8\"");
	GIVES(OP_QNN_QUANTIZE, a, ten(DT_INT8, 1, 4), ten(DT_FLOAT32, 1, 4), f32, i32);
	FAILS(OP_QNN_QUANTIZE, a, "data must be float32, not int8", ten(DT_INT8, 1, 4), f32, i32);
	FAILS(OP_QNN_QUANTIZE, a, "output_zero_point must be int32, not int8",
	      ten(DT_FLOAT32, 1, 4), f32, ir_type_scalar(M, DT_INT8));
	set(OP_QNN_QUANTIZE, a, "out_dtype", "\"float32\"");
	FAILS(OP_QNN_QUANTIZE, a, "out_dtype must be int8, uint8, int16, uint16 or int32, not float32",
	      ten(DT_FLOAT32, 1, 4), f32, i32);

	/* qnn.requantize */
	a = attrs(OP_QNN_REQUANTIZE);
	TypeId acc = ten(DT_INT32, 4, 1, 32, 112, 112);
	FAILS(OP_QNN_REQUANTIZE, a, "out_dtype is required", acc, f32, i32, f32, i32);
	set(OP_QNN_REQUANTIZE, a, "out_dtype", "\"float32\"");
	FAILS(OP_QNN_REQUANTIZE, a, "out_dtype must be int8, uint8, int16 or int32, not float32",
	      acc, f32, i32, f32, i32);
	set(OP_QNN_REQUANTIZE, a, "out_dtype", "\"int8\"");
	GIVES(OP_QNN_REQUANTIZE, a, ten(DT_INT8, 4, 1, 32, 112, 112), acc, f32, i32, f32, i32);
	FAILS(OP_QNN_REQUANTIZE, a, "input_scale must be a scalar or have shape (112), not (32)",
	      acc, ten(DT_FLOAT32, 1, 32), i32, f32, i32);
	FAILS(OP_QNN_REQUANTIZE, a, "output_scale must be a scalar, not (32)",
	      acc, f32, i32, ten(DT_FLOAT32, 1, 32), i32);
	FAILS(OP_QNN_REQUANTIZE, a, "data must be int8, uint8, int16, int32 or int64, not float32",
	      ten(DT_FLOAT32, 1, 4), f32, i32, f32, i32);
	set(OP_QNN_REQUANTIZE, a, "rounding", "\"UPWARD\"");
	GIVES(OP_QNN_REQUANTIZE, a, ten(DT_INT8, 4, 1, 32, 112, 112), acc, f32, i32, f32, i32);
	set(OP_QNN_REQUANTIZE, a, "rounding", "\"UP\"");
	FAILS(OP_QNN_REQUANTIZE, a, "rounding must be \"None\", \"UPWARD\", \"TONEAREST\" or \"HALF_TO_EVEN\", "
	      "not \"UP\"", acc, f32, i32, f32, i32);
	set(OP_QNN_REQUANTIZE, a, "rounding", "\"HALF_TO_EVEN\"");
	FAILS(OP_QNN_REQUANTIZE, a, "rounding \"HALF_TO_EVEN\" needs compute_dtype \"float32\", not \"None\"",
	      acc, f32, i32, f32, i32);
	set(OP_QNN_REQUANTIZE, a, "compute_dtype", "\"float32\"");
	set(OP_QNN_REQUANTIZE, a, "axis", "1");
	GIVES(OP_QNN_REQUANTIZE, a, ten(DT_INT8, 4, 1, 32, 112, 112), acc, ten(DT_FLOAT32, 1, 32), i32, f32, i32);
	a = attrs(OP_QNN_REQUANTIZE);
	set(OP_QNN_REQUANTIZE, a, "out_dtype", "\"int8\"");
	set(OP_QNN_REQUANTIZE, a, "axis", "4");
	FAILS(OP_QNN_REQUANTIZE, a, "axis 4 is out of range for data of rank 4", acc, f32, i32, f32, i32);

	/* qnn.conv2d_transpose: IOHW weights, as nn.conv2d_transpose */
	a = attrs(OP_QNN_CONV2D_TRANSPOSE);
	set(OP_QNN_CONV2D_TRANSPOSE, a, "strides", "[2, 2]");
	set(OP_QNN_CONV2D_TRANSPOSE, a, "padding", "[1, 1]");
	TypeId tx = ten(DT_UINT8, 4, 1, 32, 16, 16), tw = ten(DT_INT8, 4, 32, 16, 4, 4);
	TypeId up = ten(DT_INT32, 4, 1, 16, 32, 32);
	GIVES(OP_QNN_CONV2D_TRANSPOSE, a, up, tx, tw, i32, i32, f32, f32);
	GIVES(OP_QNN_CONV2D_TRANSPOSE, a, up, tx, tw, ten(DT_INT32, 1, 1), ten(DT_INT32, 1, 16),
	      ten(DT_FLOAT32, 1, 1), ten(DT_FLOAT32, 1, 16));
	FAILS(OP_QNN_CONV2D_TRANSPOSE, a, "data must be int8, uint8, int16 or uint16, not float32",
	      ten(DT_FLOAT32, 4, 1, 32, 16, 16), tw, i32, i32, f32, f32);
	FAILS(OP_QNN_CONV2D_TRANSPOSE, a, "weight must be int8 or uint8, not int16",
	      tx, ten(DT_INT16, 4, 32, 16, 4, 4), i32, i32, f32, f32);
	FAILS(OP_QNN_CONV2D_TRANSPOSE, a, "input_zero_point must be a scalar or have shape (1), not (2)",
	      tx, tw, ten(DT_INT32, 1, 2), i32, f32, f32);
	FAILS(OP_QNN_CONV2D_TRANSPOSE, a, "kernel_scale must be a scalar or have shape (16), not (32)",
	      tx, tw, i32, i32, f32, ten(DT_FLOAT32, 1, 32));
	FAILS(OP_QNN_CONV2D_TRANSPOSE, a, "weight has 16 input channels but data has 32",
	      tx, ten(DT_INT8, 4, 16, 16, 4, 4), i32, i32, f32, f32);
	set(OP_QNN_CONV2D_TRANSPOSE, a, "out_dtype", "\"int16\"");
	GIVES(OP_QNN_CONV2D_TRANSPOSE, a, ten(DT_INT16, 4, 1, 16, 32, 32), tx, tw, i32, i32, f32, f32);
	set(OP_QNN_CONV2D_TRANSPOSE, a, "out_dtype", "\"int8\"");
	FAILS(OP_QNN_CONV2D_TRANSPOSE, a, "out_dtype must be int16 or int32, not int8",
	      tx, tw, i32, i32, f32, f32);
	/* grouped: the kernel scale runs along I times O of the weight, as in TVM */
	a = attrs(OP_QNN_CONV2D_TRANSPOSE);
	set(OP_QNN_CONV2D_TRANSPOSE, a, "groups", "2");
	set(OP_QNN_CONV2D_TRANSPOSE, a, "channels", "16");
	set(OP_QNN_CONV2D_TRANSPOSE, a, "kernel_size", "[4, 4]");
	TypeId gw = ten(DT_INT8, 4, 32, 8, 4, 4);
	GIVES(OP_QNN_CONV2D_TRANSPOSE, a, ten(DT_INT32, 4, 1, 16, 19, 19), tx, gw, i32, i32, f32,
	      ten(DT_FLOAT32, 1, 256));
	FAILS(OP_QNN_CONV2D_TRANSPOSE, a, "kernel_scale must be a scalar or have shape (256), not (16)",
	      tx, gw, i32, i32, f32, ten(DT_FLOAT32, 1, 16));

	/* qnn.sigmoid, qnn.tanh */
	a = attrs(OP_QNN_SIGMOID);
	GIVES(OP_QNN_SIGMOID, a, u8, u8, f32, i32, f32, i32);
	FAILS(OP_QNN_SIGMOID, a, "data must be int8 or uint8, not int32", acc, f32, i32, f32, i32);
	FAILS(OP_QNN_SIGMOID, a, "output_scale must be float32, not int32", u8, f32, i32, i32, i32);
	FAILS(OP_QNN_SIGMOID, a, "zero_point must be a scalar, not (1)", u8, f32, ten(DT_INT32, 1, 1), f32, i32);
	a = attrs(OP_QNN_TANH);
	GIVES(OP_QNN_TANH, a, ten(DT_INT8, 2, 1, 10), ten(DT_INT8, 2, 1, 10), f32, i32, f32, i32);
	FAILS(OP_QNN_TANH, a, "data must be a tensor, not a tuple", tup(1, u8), f32, i32, f32, i32);
	FAILS(OP_QNN_TANH, a, "output_zero_point must be int32, not float32", u8, f32, i32, f32, f32);
}

static void
conv(void)
{
	TypeId x = ten(DT_FLOAT32, 4, 1, 3, 224, 224);
	AttrId a;

	a = attrs(OP_NN_CONV2D);
	set(OP_NN_CONV2D, a, "strides", "[2, 2]");
	set(OP_NN_CONV2D, a, "padding", "[3, 3]");
	GIVES(OP_NN_CONV2D, a, ten(DT_FLOAT32, 4, 1, 64, 112, 112), x, ten(DT_FLOAT32, 4, 64, 3, 7, 7));
	FAILS(OP_NN_CONV2D, a, "weight has 4 input channels but data has 3 (groups=1)",
	      x, ten(DT_FLOAT32, 4, 64, 4, 7, 7));
	FAILS(OP_NN_CONV2D, a, "weight must be a tensor, not a tuple", x, tup(1, x));
	FAILS(OP_NN_CONV2D, a, "data has rank 3 but data_layout NCHW needs 4",
	      ten(DT_FLOAT32, 3, 3, 224, 224), ten(DT_FLOAT32, 4, 64, 3, 7, 7));
	/* unknown dims flow through */
	GIVES(OP_NN_CONV2D, a, ten(DT_FLOAT32, 4, -1, 64, -1, 112), ten(DT_FLOAT32, 4, -1, 3, -1, 224),
	      ten(DT_FLOAT32, 4, 64, -1, 7, 7));
	set(OP_NN_CONV2D, a, "out_layout", "\"NHWC\"");
	set(OP_NN_CONV2D, a, "out_dtype", "\"float16\"");
	GIVES(OP_NN_CONV2D, a, ten(DT_FLOAT16, 4, 1, 112, 112, 64), x, ten(DT_FLOAT32, 4, 64, 3, 7, 7));

	/* NHWC data with HWIO and OHWI kernels, 4-value padding */
	a = attrs(OP_NN_CONV2D);
	set(OP_NN_CONV2D, a, "data_layout", "\"NHWC\"");
	set(OP_NN_CONV2D, a, "kernel_layout", "\"HWIO\"");
	set(OP_NN_CONV2D, a, "padding", "[1, 1, 1, 1]");
	GIVES(OP_NN_CONV2D, a, ten(DT_FLOAT32, 4, 1, 224, 224, 32), ten(DT_FLOAT32, 4, 1, 224, 224, 3),
	      ten(DT_FLOAT32, 4, 3, 3, 3, 32));
	set(OP_NN_CONV2D, a, "kernel_layout", "\"OHWI\"");
	set(OP_NN_CONV2D, a, "padding", "[0, 0, 1, 1]");
	GIVES(OP_NN_CONV2D, a, ten(DT_FLOAT32, 4, 1, 9, 9, 16), ten(DT_FLOAT32, 4, 1, 10, 10, 8),
	      ten(DT_FLOAT32, 4, 16, 3, 3, 8));
	set(OP_NN_CONV2D, a, "kernel_layout", "\"OHWJ\"");
	FAILS(OP_NN_CONV2D, a, "kernel_layout \"OHWJ\" is not a permutation of OIHW",
	      ten(DT_FLOAT32, 4, 1, 10, 10, 8), ten(DT_FLOAT32, 4, 16, 3, 3, 8));

	/* depthwise, channels and kernel_size given, dilation */
	a = attrs(OP_NN_CONV2D);
	set(OP_NN_CONV2D, a, "groups", "32");
	set(OP_NN_CONV2D, a, "channels", "32");
	set(OP_NN_CONV2D, a, "kernel_size", "[3, 3]");
	set(OP_NN_CONV2D, a, "padding", "[1]");
	TypeId dwx = ten(DT_FLOAT32, 4, 1, 32, 112, 112);
	GIVES(OP_NN_CONV2D, a, dwx, dwx, ten(DT_FLOAT32, 4, 32, 1, 3, 3));
	set(OP_NN_CONV2D, a, "dilation", "[2, 2]");
	GIVES(OP_NN_CONV2D, a, ten(DT_FLOAT32, 4, 1, 32, 110, 110), dwx, ten(DT_FLOAT32, 4, 32, 1, 3, 3));
	FAILS(OP_NN_CONV2D, a, "weight has shape (32, 1, 5, 5) but channels=32, kernel_size=[3, 3] "
	      "and groups=32 need (32, 1, 3, 3)", dwx, ten(DT_FLOAT32, 4, 32, 1, 5, 5));
	/* TVM's depthwise weight with a channel multiplier: (C, channels / C, kh, kw) */
	a = attrs(OP_NN_CONV2D);
	set(OP_NN_CONV2D, a, "groups", "8");
	set(OP_NN_CONV2D, a, "channels", "16");
	set(OP_NN_CONV2D, a, "kernel_size", "[3, 3]");
	GIVES(OP_NN_CONV2D, a, ten(DT_FLOAT32, 4, 1, 16, 8, 8), ten(DT_FLOAT32, 4, 1, 8, 10, 10),
	      ten(DT_FLOAT32, 4, 8, 2, 3, 3));
	set(OP_NN_CONV2D, a, "dilation", "[0, 1]");
	FAILS(OP_NN_CONV2D, a, "dilation must be positive, not [0, 1]", dwx, ten(DT_FLOAT32, 4, 32, 1, 3, 3));

	/* channels or kernel_size alone are checked against the weight */
	a = attrs(OP_NN_CONV2D);
	set(OP_NN_CONV2D, a, "kernel_size", "[5, 5]");
	FAILS(OP_NN_CONV2D, a, "kernel_size is [5, 5] but weight has a 3x3 kernel",
	      ten(DT_FLOAT32, 4, 1, 3, 8, 8), ten(DT_FLOAT32, 4, 4, 3, 3, 3));
	a = attrs(OP_NN_CONV2D);
	set(OP_NN_CONV2D, a, "channels", "64");
	FAILS(OP_NN_CONV2D, a, "channels is 64 but weight has 32 output channels",
	      ten(DT_FLOAT32, 4, 1, 3, 8, 8), ten(DT_FLOAT32, 4, 32, 3, 3, 3));
	a = attrs(OP_NN_CONV2D);
	FAILS(OP_NN_CONV2D, a, "output height would be 0: padded height 2, dilated window 3, stride 1",
	      ten(DT_FLOAT32, 4, 1, 1, 2, 8), ten(DT_FLOAT32, 4, 1, 1, 3, 3));
	set(OP_NN_CONV2D, a, "strides", "[2, 2]");
	FAILS(OP_NN_CONV2D, a, "output height would be 0: padded height 2, dilated window 3, stride 2",
	      ten(DT_FLOAT32, 4, 1, 1, 2, 8), ten(DT_FLOAT32, 4, 1, 1, 3, 3));
	set(OP_NN_CONV2D, a, "padding", "[1, 1, 1]");
	FAILS(OP_NN_CONV2D, a, "padding must have 1, 2 or 4 values, not 3",
	      ten(DT_FLOAT32, 4, 1, 1, 8, 8), ten(DT_FLOAT32, 4, 1, 1, 3, 3));

	/* nn.conv2d_transpose: IOHW weights */
	a = attrs(OP_NN_CONV2D_TRANSPOSE);
	set(OP_NN_CONV2D_TRANSPOSE, a, "strides", "[2, 2]");
	set(OP_NN_CONV2D_TRANSPOSE, a, "padding", "[1, 1]");
	TypeId tx = ten(DT_FLOAT32, 4, 1, 32, 16, 16), tw = ten(DT_FLOAT32, 4, 32, 16, 4, 4);
	GIVES(OP_NN_CONV2D_TRANSPOSE, a, ten(DT_FLOAT32, 4, 1, 16, 32, 32), tx, tw);
	set(OP_NN_CONV2D_TRANSPOSE, a, "output_padding", "[1, 1]");
	GIVES(OP_NN_CONV2D_TRANSPOSE, a, ten(DT_FLOAT32, 4, 1, 16, 33, 33), tx, tw);
	FAILS(OP_NN_CONV2D_TRANSPOSE, a, "weight has 16 input channels but data has 32",
	      tx, ten(DT_FLOAT32, 4, 16, 16, 4, 4));
	set(OP_NN_CONV2D_TRANSPOSE, a, "channels", "16");
	set(OP_NN_CONV2D_TRANSPOSE, a, "kernel_size", "[4, 4]");
	GIVES(OP_NN_CONV2D_TRANSPOSE, a, ten(DT_FLOAT32, 4, 1, 16, 33, 33), tx, tw);
	FAILS(OP_NN_CONV2D_TRANSPOSE, a, "weight has shape (32, 16, 3, 3) but channels=16, "
	      "kernel_size=[4, 4] and groups=1 need (32, 16, 4, 4)", tx, ten(DT_FLOAT32, 4, 32, 16, 3, 3));
	a = attrs(OP_NN_CONV2D_TRANSPOSE);
	set(OP_NN_CONV2D_TRANSPOSE, a, "kernel_layout", "\"OIHW\"");
	GIVES(OP_NN_CONV2D_TRANSPOSE, a, ten(DT_FLOAT32, 4, 1, 16, 19, 19), tx, ten(DT_FLOAT32, 4, 16, 32, 4, 4));
	set(OP_NN_CONV2D_TRANSPOSE, a, "kernel_layout", "\"IOHX\"");
	FAILS(OP_NN_CONV2D_TRANSPOSE, a, "kernel_layout \"IOHX\" is not a permutation of IOHW", tx, tw);
}

static void
matrix(void)
{
	AttrId a;

	/* nn.dense */
	a = attrs(OP_NN_DENSE);
	GIVES(OP_NN_DENSE, a, ten(DT_FLOAT32, 2, 1, 1000), ten(DT_FLOAT32, 2, 1, 2048),
	      ten(DT_FLOAT32, 2, 1000, 2048));
	GIVES(OP_NN_DENSE, a, ten(DT_FLOAT32, 3, 2, 5, 10), ten(DT_FLOAT32, 3, 2, 5, 64),
	      ten(DT_FLOAT32, 2, 10, 64));
	GIVES(OP_NN_DENSE, a, ten(DT_FLOAT32, 2, -1, 10), ten(DT_FLOAT32, 2, -1, 64),
	      ten(DT_FLOAT32, 2, 10, -1));
	FAILS(OP_NN_DENSE, a, "weight has 32 input features but data has 64",
	      ten(DT_FLOAT32, 2, 1, 64), ten(DT_FLOAT32, 2, 10, 32));
	FAILS(OP_NN_DENSE, a, "weight must have rank 2, not 3",
	      ten(DT_FLOAT32, 2, 1, 64), ten(DT_FLOAT32, 3, 1, 10, 64));
	set(OP_NN_DENSE, a, "units", "10");
	GIVES(OP_NN_DENSE, a, ten(DT_FLOAT32, 2, 1, 10), ten(DT_FLOAT32, 2, 1, 64),
	      ten(DT_FLOAT32, 2, 10, 64));
	FAILS(OP_NN_DENSE, a, "weight has shape (12, 64) but units=10 and data need (10, 64)",
	      ten(DT_FLOAT32, 2, 1, 64), ten(DT_FLOAT32, 2, 12, 64));

	/* nn.batch_matmul */
	a = attrs(OP_NN_BATCH_MATMUL);
	GIVES(OP_NN_BATCH_MATMUL, a, ten(DT_FLOAT32, 3, 2, 3, 5), ten(DT_FLOAT32, 3, 2, 3, 4),
	      ten(DT_FLOAT32, 3, 2, 4, 5));
	FAILS(OP_NN_BATCH_MATMUL, a, "tensor_a has reduction size 4 but tensor_b has 6 "
	      "(transpose_a=False, transpose_b=False)", ten(DT_FLOAT32, 3, 2, 3, 4), ten(DT_FLOAT32, 3, 2, 6, 5));
	FAILS(OP_NN_BATCH_MATMUL, a, "batch sizes 2 and 3 do not broadcast",
	      ten(DT_FLOAT32, 3, 2, 3, 4), ten(DT_FLOAT32, 3, 3, 4, 5));
	FAILS(OP_NN_BATCH_MATMUL, a, "tensor_b must have rank 3, not 2",
	      ten(DT_FLOAT32, 3, 2, 3, 4), ten(DT_FLOAT32, 2, 4, 5));
	set(OP_NN_BATCH_MATMUL, a, "transpose_b", "True");
	GIVES(OP_NN_BATCH_MATMUL, a, ten(DT_FLOAT32, 3, 8, 3, 5), ten(DT_FLOAT32, 3, 1, 3, 4),
	      ten(DT_FLOAT32, 3, 8, 5, 4));
	set(OP_NN_BATCH_MATMUL, a, "transpose_a", "True");
	set(OP_NN_BATCH_MATMUL, a, "out_dtype", "\"float16\"");
	GIVES(OP_NN_BATCH_MATMUL, a, ten(DT_FLOAT16, 3, -1, 3, 5), ten(DT_FLOAT32, 3, -1, 4, 3),
	      ten(DT_FLOAT32, 3, 2, 5, 4));

	/* nn.bias_add */
	a = attrs(OP_NN_BIAS_ADD);
	FAILS(OP_NN_BIAS_ADD, a, "bias has shape (16) but data has 32 channels at axis 1",
	      ten(DT_INT32, 4, 1, 32, 4, 4), ten(DT_INT32, 1, 16));
	FAILS(OP_NN_BIAS_ADD, a, "bias is float32 but data is int32",
	      ten(DT_INT32, 4, 1, 32, 4, 4), ten(DT_FLOAT32, 1, 32));
	set(OP_NN_BIAS_ADD, a, "axis", "-1");
	GIVES(OP_NN_BIAS_ADD, a, ten(DT_FLOAT32, 2, 1, 10), ten(DT_FLOAT32, 2, 1, 10), ten(DT_FLOAT32, 1, 10));
	set(OP_NN_BIAS_ADD, a, "axis", "4");
	FAILS(OP_NN_BIAS_ADD, a, "axis 4 is out of range for data of rank 4",
	      ten(DT_INT32, 4, 1, 32, 4, 4), ten(DT_INT32, 1, 32));
}

static void
pooling(void)
{
	AttrId a;

	/* nn.max_pool2d, nn.avg_pool2d */
	a = attrs(OP_NN_MAX_POOL2D);
	set(OP_NN_MAX_POOL2D, a, "pool_size", "[3, 3]");
	set(OP_NN_MAX_POOL2D, a, "strides", "[2, 2]");
	set(OP_NN_MAX_POOL2D, a, "padding", "[1, 1]");
	GIVES(OP_NN_MAX_POOL2D, a, ten(DT_FLOAT32, 4, 1, 64, 56, 56), ten(DT_FLOAT32, 4, 1, 64, 112, 112));
	GIVES(OP_NN_MAX_POOL2D, a, ten(DT_FLOAT32, 4, 1, 64, -1, 56), ten(DT_FLOAT32, 4, 1, 64, -1, 112));
	set(OP_NN_MAX_POOL2D, a, "padding", "[1, 1, 1]");
	FAILS(OP_NN_MAX_POOL2D, a, "padding must have 1, 2 or 4 values, not 3",
	      ten(DT_FLOAT32, 4, 1, 64, 112, 112));
	a = attrs(OP_NN_MAX_POOL2D);
	FAILS(OP_NN_MAX_POOL2D, a, "pool_size is required", ten(DT_FLOAT32, 4, 1, 1, 5, 5));
	set(OP_NN_MAX_POOL2D, a, "pool_size", "[2, 2]");
	set(OP_NN_MAX_POOL2D, a, "strides", "[2, 2]");
	GIVES(OP_NN_MAX_POOL2D, a, ten(DT_FLOAT32, 4, 1, 1, 2, 2), ten(DT_FLOAT32, 4, 1, 1, 5, 5));
	/* the window may overhang by less than a stride: TVM truncates */
	GIVES(OP_NN_MAX_POOL2D, a, ten(DT_FLOAT32, 4, 1, 1, 1, 1), ten(DT_FLOAT32, 4, 1, 1, 1, 1));
	set(OP_NN_MAX_POOL2D, a, "ceil_mode", "True");
	GIVES(OP_NN_MAX_POOL2D, a, ten(DT_FLOAT32, 4, 1, 1, 3, 3), ten(DT_FLOAT32, 4, 1, 1, 5, 5));
	set(OP_NN_MAX_POOL2D, a, "layout", "\"NCH\"");
	FAILS(OP_NN_MAX_POOL2D, a, "layout \"NCH\" must have H and W axes, unsplit",
	      ten(DT_FLOAT32, 4, 1, 1, 5, 5));
	set(OP_NN_MAX_POOL2D, a, "layout", "\"NCHW4c\"");
	GIVES(OP_NN_MAX_POOL2D, a, ten(DT_FLOAT32, 5, 1, 2, 3, 3, 4), ten(DT_FLOAT32, 5, 1, 2, 5, 5, 4));
	a = attrs(OP_NN_AVG_POOL2D);
	set(OP_NN_AVG_POOL2D, a, "pool_size", "[7, 7]");
	set(OP_NN_AVG_POOL2D, a, "layout", "\"NHWC\"");
	set(OP_NN_AVG_POOL2D, a, "count_include_pad", "True");
	GIVES(OP_NN_AVG_POOL2D, a, ten(DT_FLOAT32, 4, 1, 1, 1, 512), ten(DT_FLOAT32, 4, 1, 7, 7, 512));
	FAILS(OP_NN_AVG_POOL2D, a, "output height would be -1: padded height 5, dilated window 7, stride 1",
	      ten(DT_FLOAT32, 4, 1, 5, 7, 512));

	/* nn.global_avg_pool2d */
	a = attrs(OP_NN_GLOBAL_AVG_POOL2D);
	GIVES(OP_NN_GLOBAL_AVG_POOL2D, a, ten(DT_FLOAT32, 4, 1, 2048, 1, 1), ten(DT_FLOAT32, 4, 1, 2048, 7, 7));
	FAILS(OP_NN_GLOBAL_AVG_POOL2D, a, "layout \"NCHW\" has 4 axes but data has rank 3",
	      ten(DT_FLOAT32, 3, 2048, 7, 7));
	FAILS(OP_NN_GLOBAL_AVG_POOL2D, a, "data must have rank at least 2, not 1", ten(DT_FLOAT32, 1, 7));
	set(OP_NN_GLOBAL_AVG_POOL2D, a, "layout", "\"NHWC\"");
	GIVES(OP_NN_GLOBAL_AVG_POOL2D, a, ten(DT_FLOAT32, 4, -1, 1, 1, 64), ten(DT_FLOAT32, 4, -1, -1, -1, 64));

	/* nn.batch_flatten */
	GIVES(OP_NN_BATCH_FLATTEN, 0, ten(DT_FLOAT32, 2, 1, 25088), ten(DT_FLOAT32, 4, 1, 512, 7, 7));
	GIVES(OP_NN_BATCH_FLATTEN, 0, ten(DT_FLOAT32, 2, 4, -1), ten(DT_FLOAT32, 3, 4, 3, -1));
	GIVES(OP_NN_BATCH_FLATTEN, 0, ten(DT_INT8, 2, 5, 1), ten(DT_INT8, 1, 5));
	FAILS(OP_NN_BATCH_FLATTEN, 0, "data must have rank at least 1", ir_type_scalar(M, DT_FLOAT32));

	/* nn.pad */
	a = attrs(OP_NN_PAD);
	TypeId f32 = ir_type_scalar(M, DT_FLOAT32);
	FAILS(OP_NN_PAD, a, "pad_width is required", ten(DT_FLOAT32, 2, 2, 2), f32);
	set(OP_NN_PAD, a, "pad_width", "[[0, 0], [1, 1], [1, 1]]");
	FAILS(OP_NN_PAD, a, "pad_width has 3 entries but data has rank 4", ten(DT_FLOAT32, 4, 1, 3, 8, 8), f32);
	GIVES(OP_NN_PAD, a, ten(DT_FLOAT32, 3, -1, 10, 10), ten(DT_FLOAT32, 3, -1, 8, 8), f32);
	FAILS(OP_NN_PAD, a, "pad_value must be a scalar, not (1)",
	      ten(DT_FLOAT32, 3, 3, 8, 8), ten(DT_FLOAT32, 1, 1));
	set(OP_NN_PAD, a, "pad_width", "[[0, 0], [-2, -3]]");
	FAILS(OP_NN_PAD, a, "padding axis 1 of size 4 by [-2, -3] leaves -1 elements",
	      ten(DT_FLOAT32, 2, 1, 4), f32);
	GIVES(OP_NN_PAD, a, ten(DT_FLOAT32, 2, 1, 0), ten(DT_FLOAT32, 2, 1, 5), f32);
	set(OP_NN_PAD, a, "pad_mode", "\"mirror\"");
	FAILS(OP_NN_PAD, a, "pad_mode must be \"constant\", \"edge\" or \"reflect\", not \"mirror\"",
	      ten(DT_FLOAT32, 2, 1, 5), f32);
}

static void
elementwise(void)
{
	TypeId x = ten(DT_FLOAT32, 4, 1, 3, 224, 224);
	AttrId a;

	/* add, subtract, multiply, divide */
	GIVES(OP_ADD, 0, x, x, ten(DT_FLOAT32, 3, 3, 1, 1));
	GIVES(OP_MULTIPLY, 0, x, ir_type_scalar(M, DT_FLOAT32), x);
	GIVES(OP_SUBTRACT, 0, ten(DT_INT32, 2, -1, 3), ten(DT_INT32, 2, -1, 3), ten(DT_INT32, 2, 1, 3));
	GIVES(OP_DIVIDE, 0, ten(DT_INT32, 2, 4, 3), ten(DT_INT32, 2, -1, 3), ten(DT_INT32, 2, 4, 1));
	FAILS(OP_ADD, 0, "lhs (2, 3) and rhs (4, 3) do not broadcast (axis 0: 2 vs 4)",
	      ten(DT_FLOAT32, 2, 2, 3), ten(DT_FLOAT32, 2, 4, 3));
	FAILS(OP_DIVIDE, 0, "lhs is float32 but rhs is int32", x, ten(DT_INT32, 1, 1));
	FAILS(OP_ADD, 0, "rhs must be a tensor, not a tuple", x, tup(2, x, x));

	/* cast */
	a = attrs(OP_CAST);
	FAILS(OP_CAST, a, "dtype is required", ten(DT_FLOAT32, 2, 2, 3));
	set(OP_CAST, a, "dtype", "\"int8\"");
	GIVES(OP_CAST, a, ten(DT_INT8, 2, 2, 3), ten(DT_FLOAT32, 2, 2, 3));
	FAILS(OP_CAST, a, "data must be a tensor, not a tuple", tup(1, x));

	/* the identity relation */
	GIVES(OP_NN_RELU, 0, x, x);
	a = attrs(OP_NN_SOFTMAX);
	GIVES(OP_NN_SOFTMAX, a, ten(DT_FLOAT32, 2, 1, 1000), ten(DT_FLOAT32, 2, 1, 1000));
	a = attrs(OP_CLIP);
	set(OP_CLIP, a, "a_min", "0");
	set(OP_CLIP, a, "a_max", "6");
	GIVES(OP_CLIP, a, ten(DT_UINT8, 1, 4), ten(DT_UINT8, 1, 4));
	GIVES(OP_ANNOTATION_STOP_FUSION, 0, x, x);
	FAILS(OP_NN_RELU, 0, "data must be a tensor, not a tuple", tup(2, x, x));
}

static void
shapes(void)
{
	TypeId x234 = ten(DT_FLOAT32, 3, 2, 3, 4);
	AttrId a;

	/* concatenate */
	a = attrs(OP_CONCATENATE);
	set(OP_CONCATENATE, a, "axis", "1");
	GIVES(OP_CONCATENATE, a, ten(DT_FLOAT32, 3, 1, 6, 3),
	      tup(2, ten(DT_FLOAT32, 3, 1, 2, 3), ten(DT_FLOAT32, 3, 1, 4, 3)));
	FAILS(OP_CONCATENATE, a, "field 1 of data has 5 at axis 2 but field 0 has 3",
	      tup(2, ten(DT_FLOAT32, 3, 1, 2, 3), ten(DT_FLOAT32, 3, 1, 4, 5)));
	FAILS(OP_CONCATENATE, a, "field 1 of data is int8 but field 0 is float32",
	      tup(2, ten(DT_FLOAT32, 3, 1, 2, 3), ten(DT_INT8, 3, 1, 4, 3)));
	FAILS(OP_CONCATENATE, a, "field 1 of data has rank 2 but field 0 has rank 3",
	      tup(2, ten(DT_FLOAT32, 3, 1, 2, 3), ten(DT_FLOAT32, 2, 4, 3)));
	FAILS(OP_CONCATENATE, a, "data must be a tuple of tensors, not a tensor", x234);
	FAILS(OP_CONCATENATE, a, "data is an empty tuple", ir_type_tuple(M, 0, NULL));
	set(OP_CONCATENATE, a, "axis", "-3");
	FAILS(OP_CONCATENATE, a, "axis -3 is out of range for tensors of rank 2",
	      tup(2, ten(DT_FLOAT32, 2, 1, 3), ten(DT_FLOAT32, 2, 1, 3)));
	set(OP_CONCATENATE, a, "axis", "0");
	GIVES(OP_CONCATENATE, a, ten(DT_FLOAT32, 2, -1, 3),
	      tup(2, ten(DT_FLOAT32, 2, -1, 3), ten(DT_FLOAT32, 2, -1, -1)));
	GIVES(OP_CONCATENATE, a, ten(DT_FLOAT32, 2, 2, -1),
	      tup(2, ten(DT_FLOAT32, 2, 1, 3), ten(DT_FLOAT32, 2, 1, -1)));
	set(OP_CONCATENATE, a, "axis", "-1");
	GIVES(OP_CONCATENATE, a, ten(DT_FLOAT32, 2, 1, 7),
	      tup(3, ten(DT_FLOAT32, 2, 1, 3), ten(DT_FLOAT32, 2, 1, 1), ten(DT_FLOAT32, 2, 1, 3)));

	/* expand_dims */
	a = attrs(OP_EXPAND_DIMS);
	FAILS(OP_EXPAND_DIMS, a, "axis is required", x234);
	set(OP_EXPAND_DIMS, a, "axis", "1");
	GIVES(OP_EXPAND_DIMS, a, ten(DT_FLOAT32, 4, 2, 1, 3, 4), x234);
	set(OP_EXPAND_DIMS, a, "axis", "-1");
	set(OP_EXPAND_DIMS, a, "num_newaxis", "2");
	GIVES(OP_EXPAND_DIMS, a, ten(DT_FLOAT32, 5, 2, 3, 4, 1, 1), x234);
	set(OP_EXPAND_DIMS, a, "axis", "0");
	GIVES(OP_EXPAND_DIMS, a, ten(DT_FLOAT32, 2, 1, 1), ir_type_scalar(M, DT_FLOAT32));
	set(OP_EXPAND_DIMS, a, "axis", "4");
	FAILS(OP_EXPAND_DIMS, a, "axis 4 is out of range [-4, 3] for data of rank 3", x234);

	/* mean */
	a = attrs(OP_MEAN);
	TypeId feat = ten(DT_FLOAT32, 4, 1, 64, 7, 7);
	GIVES(OP_MEAN, a, ir_type_scalar(M, DT_FLOAT32), feat);
	set(OP_MEAN, a, "axis", "[]");
	GIVES(OP_MEAN, a, ir_type_scalar(M, DT_FLOAT32), feat);
	set(OP_MEAN, a, "axis", "[2, 3]");
	GIVES(OP_MEAN, a, ten(DT_FLOAT32, 2, 1, 64), feat);
	set(OP_MEAN, a, "keepdims", "True");
	GIVES(OP_MEAN, a, ten(DT_FLOAT32, 4, 1, 64, 1, 1), feat);
	set(OP_MEAN, a, "axis", "[-3]");
	set(OP_MEAN, a, "keepdims", "False");
	set(OP_MEAN, a, "exclude", "True");
	GIVES(OP_MEAN, a, ten(DT_FLOAT32, 1, 64), feat);
	set(OP_MEAN, a, "axis", "[4]");
	FAILS(OP_MEAN, a, "axis 4 is out of range for data of rank 4", feat);
	set(OP_MEAN, a, "axis", "[1, -3]");
	FAILS(OP_MEAN, a, "axis -3 is listed twice", feat);

	/* reshape */
	a = attrs(OP_RESHAPE);
	FAILS(OP_RESHAPE, a, "newshape is required", x234);
	set(OP_RESHAPE, a, "newshape", "[6, -1]");
	GIVES(OP_RESHAPE, a, ten(DT_FLOAT32, 2, 6, 4), x234);
	set(OP_RESHAPE, a, "newshape", "[0, -1]");
	GIVES(OP_RESHAPE, a, ten(DT_FLOAT32, 2, 2, 12), x234);
	GIVES(OP_RESHAPE, a, ten(DT_FLOAT32, 2, -1, 12), ten(DT_FLOAT32, 3, -1, 3, 4));
	set(OP_RESHAPE, a, "newshape", "[-1]");
	GIVES(OP_RESHAPE, a, ten(DT_FLOAT32, 1, 24), x234);
	set(OP_RESHAPE, a, "newshape", "[-2, 1, 1]");
	GIVES(OP_RESHAPE, a, ten(DT_FLOAT32, 5, 2, 3, 4, 1, 1), x234);
	set(OP_RESHAPE, a, "newshape", "[-3, -2]");
	GIVES(OP_RESHAPE, a, ten(DT_FLOAT32, 2, 6, 4), x234);
	set(OP_RESHAPE, a, "newshape", "[-4, 1, 2, -2]");
	GIVES(OP_RESHAPE, a, ten(DT_FLOAT32, 4, 1, 2, 3, 4), x234);
	set(OP_RESHAPE, a, "newshape", "[2, -4, -1, 3, -2]");
	GIVES(OP_RESHAPE, a, ten(DT_FLOAT32, 4, 2, 1, 3, 4), x234);
	set(OP_RESHAPE, a, "newshape", "[-4, 2, -1, 0]");
	GIVES(OP_RESHAPE, a, x234, ten(DT_FLOAT32, 2, 6, 4));
	set(OP_RESHAPE, a, "newshape", "[-1, 4]");
	GIVES(OP_RESHAPE, a, ten(DT_FLOAT32, 2, -1, 4), ten(DT_FLOAT32, 3, -1, 3, 4));
	set(OP_RESHAPE, a, "newshape", "[5, -1]");
	FAILS(OP_RESHAPE, a, "cannot reshape (2, 3, 4) of 24 elements into (5, 4) of 20 elements", x234);
	set(OP_RESHAPE, a, "newshape", "[-1, -1]");
	FAILS(OP_RESHAPE, a, "newshape has more than one -1", x234);
	set(OP_RESHAPE, a, "newshape", "[0, 0, 0, 0]");
	FAILS(OP_RESHAPE, a, "newshape has 0 at position 3 but data has only 3 dimensions", x234);
	set(OP_RESHAPE, a, "newshape", "[-5]");
	FAILS(OP_RESHAPE, a, "newshape has unsupported value -5 at position 0", x234);
	set(OP_RESHAPE, a, "newshape", "[0, 3]");
	set(OP_RESHAPE, a, "allowzero", "True");
	GIVES(OP_RESHAPE, a, ten(DT_FLOAT32, 2, 0, 3), ten(DT_FLOAT32, 2, 3, 0));

	/* split */
	a = attrs(OP_SPLIT);
	TypeId x26 = ten(DT_FLOAT32, 2, 2, 6);
	FAILS(OP_SPLIT, a, "indices_or_sections is required", x26);
	set(OP_SPLIT, a, "indices_or_sections", "3");
	set(OP_SPLIT, a, "axis", "1");
	TypeId p22 = ten(DT_FLOAT32, 2, 2, 2);
	GIVES(OP_SPLIT, a, tup(3, p22, p22, p22), x26);
	set(OP_SPLIT, a, "indices_or_sections", "4");
	FAILS(OP_SPLIT, a, "indices_or_sections 4 does not divide axis 1 of size 6", x26);
	GIVES(OP_SPLIT, a, tup(4, ten(DT_FLOAT32, 2, 2, -1), ten(DT_FLOAT32, 2, 2, -1),
	      ten(DT_FLOAT32, 2, 2, -1), ten(DT_FLOAT32, 2, 2, -1)), ten(DT_FLOAT32, 2, 2, -1));
	set(OP_SPLIT, a, "indices_or_sections", "[1, 4]");
	set(OP_SPLIT, a, "axis", "-1");
	GIVES(OP_SPLIT, a, tup(3, ten(DT_FLOAT32, 2, 2, 1), ten(DT_FLOAT32, 2, 2, 3), p22), x26);
	set(OP_SPLIT, a, "indices_or_sections", "[4, 1]");
	FAILS(OP_SPLIT, a, "indices_or_sections must ascend from above 0: 1 after 4", x26);
	set(OP_SPLIT, a, "indices_or_sections", "[2, 6]");
	FAILS(OP_SPLIT, a, "split index 6 is not below axis -1 of size 6", x26);

	/* squeeze */
	a = attrs(OP_SQUEEZE);
	TypeId x1312 = ten(DT_FLOAT32, 4, 1, 3, 1, 2);
	GIVES(OP_SQUEEZE, a, ten(DT_FLOAT32, 2, 3, 2), x1312);
	FAILS(OP_SQUEEZE, a, "axis must be given when data has unknown dimensions",
	      ten(DT_FLOAT32, 2, 1, -1));
	set(OP_SQUEEZE, a, "axis", "[0]");
	GIVES(OP_SQUEEZE, a, ten(DT_FLOAT32, 3, 3, 1, 2), x1312);
	GIVES(OP_SQUEEZE, a, ten(DT_FLOAT32, 1, 1), ten(DT_FLOAT32, 2, -1, 1));
	set(OP_SQUEEZE, a, "axis", "[-2, 0]");
	GIVES(OP_SQUEEZE, a, ten(DT_FLOAT32, 2, 3, 2), x1312);
	set(OP_SQUEEZE, a, "axis", "[1]");
	FAILS(OP_SQUEEZE, a, "cannot squeeze axis 1 of size 3", x1312);

	/* strided_slice */
	a = attrs(OP_STRIDED_SLICE);
	TypeId img = ten(DT_FLOAT32, 4, 1, 3, 224, 224), v10 = ten(DT_FLOAT32, 1, 10);
	set(OP_STRIDED_SLICE, a, "begin", "[0, 0, 10]");
	set(OP_STRIDED_SLICE, a, "end", "[1, 3, 20]");
	FAILS(OP_STRIDED_SLICE, a, "strides is required", img);
	set(OP_STRIDED_SLICE, a, "strides", "[1]");
	GIVES(OP_STRIDED_SLICE, a, ten(DT_FLOAT32, 4, 1, 3, 10, 224), img);
	GIVES(OP_STRIDED_SLICE, a, ten(DT_FLOAT32, 4, 1, 3, 10, -1), ten(DT_FLOAT32, 4, 1, 3, 224, -1));
	set(OP_STRIDED_SLICE, a, "begin", "[-3]");
	set(OP_STRIDED_SLICE, a, "end", "[100]");
	GIVES(OP_STRIDED_SLICE, a, ten(DT_FLOAT32, 1, 3), v10);
	set(OP_STRIDED_SLICE, a, "begin", "[9]");
	set(OP_STRIDED_SLICE, a, "end", "[0]");
	set(OP_STRIDED_SLICE, a, "strides", "[-2]");
	GIVES(OP_STRIDED_SLICE, a, ten(DT_FLOAT32, 1, 5), v10);
	set(OP_STRIDED_SLICE, a, "begin", "[-1]");
	set(OP_STRIDED_SLICE, a, "end", "[-11]");
	set(OP_STRIDED_SLICE, a, "strides", "[-1]");
	GIVES(OP_STRIDED_SLICE, a, v10, v10);
	set(OP_STRIDED_SLICE, a, "begin", "[5]");
	set(OP_STRIDED_SLICE, a, "end", "[2]");
	set(OP_STRIDED_SLICE, a, "strides", "[1]");
	FAILS(OP_STRIDED_SLICE, a, "on axis 0, begin 5 is past end 2 for stride 1", v10);
	set(OP_STRIDED_SLICE, a, "strides", "[0]");
	FAILS(OP_STRIDED_SLICE, a, "stride 0 on axis 0 is invalid", v10);
	set(OP_STRIDED_SLICE, a, "begin", "[2, 3]");
	set(OP_STRIDED_SLICE, a, "end", "[4, -1]");
	set(OP_STRIDED_SLICE, a, "slice_mode", "\"size\"");
	GIVES(OP_STRIDED_SLICE, a, ten(DT_FLOAT32, 2, 4, 7), ten(DT_FLOAT32, 2, 10, 10));
	set(OP_STRIDED_SLICE, a, "slice_mode", "\"span\"");
	FAILS(OP_STRIDED_SLICE, a, "slice_mode must be \"end\" or \"size\", not \"span\"",
	      ten(DT_FLOAT32, 2, 10, 10));
	a = attrs(OP_STRIDED_SLICE);
	set(OP_STRIDED_SLICE, a, "begin", "[1]");
	set(OP_STRIDED_SLICE, a, "end", "[3]");
	set(OP_STRIDED_SLICE, a, "strides", "[1]");
	set(OP_STRIDED_SLICE, a, "axes", "[-1]");
	GIVES(OP_STRIDED_SLICE, a, ten(DT_FLOAT32, 3, 4, 5, 2), ten(DT_FLOAT32, 3, 4, 5, 6));
	set(OP_STRIDED_SLICE, a, "axes", "[2, 0]");
	FAILS(OP_STRIDED_SLICE, a, "axes, begin, end and strides must have the same length, "
	      "not 2, 1, 1 and 1", ten(DT_FLOAT32, 3, 4, 5, 6));

	/* transpose */
	a = attrs(OP_TRANSPOSE);
	GIVES(OP_TRANSPOSE, a, ten(DT_FLOAT32, 4, 224, 224, 3, 1), img);
	set(OP_TRANSPOSE, a, "axes", "[0, 2, 3, 1]");
	GIVES(OP_TRANSPOSE, a, ten(DT_FLOAT32, 4, 1, 224, 224, 3), img);
	set(OP_TRANSPOSE, a, "axes", "[-1, 0]");
	GIVES(OP_TRANSPOSE, a, ten(DT_INT8, 2, 3, -1), ten(DT_INT8, 2, -1, 3));
	set(OP_TRANSPOSE, a, "axes", "[0, 2, 1]");
	FAILS(OP_TRANSPOSE, a, "axes has 3 entries but data has rank 4", img);
	set(OP_TRANSPOSE, a, "axes", "[0, -3, 1]");
	FAILS(OP_TRANSPOSE, a, "axis 0 appears twice in axes", x234);
}

static void
image(void)
{
	AttrId a;

	/* nn.depth_to_space */
	a = attrs(OP_NN_DEPTH_TO_SPACE);
	TypeId x = ten(DT_UINT8, 4, 1, 16, 4, 4);
	GIVES(OP_NN_DEPTH_TO_SPACE, a, x, x);
	set(OP_NN_DEPTH_TO_SPACE, a, "block_size", "2");
	GIVES(OP_NN_DEPTH_TO_SPACE, a, ten(DT_UINT8, 4, 1, 4, 8, 8), x);
	GIVES(OP_NN_DEPTH_TO_SPACE, a, ten(DT_UINT8, 4, 1, -1, 8, -1), ten(DT_UINT8, 4, 1, -1, 4, -1));
	FAILS(OP_NN_DEPTH_TO_SPACE, a, "data has rank 3 but layout NCHW needs 4", ten(DT_UINT8, 3, 16, 4, 4));
	set(OP_NN_DEPTH_TO_SPACE, a, "layout", "\"NHWC\"");
	set(OP_NN_DEPTH_TO_SPACE, a, "mode", "\"CDR\"");
	GIVES(OP_NN_DEPTH_TO_SPACE, a, ten(DT_INT8, 4, 1, 8, 8, 4), ten(DT_INT8, 4, 1, 4, 4, 16));
	set(OP_NN_DEPTH_TO_SPACE, a, "block_size", "3");
	FAILS(OP_NN_DEPTH_TO_SPACE, a, "data has 16 channels, not a multiple of block_size 3 squared",
	      ten(DT_INT8, 4, 1, 4, 4, 16));
	set(OP_NN_DEPTH_TO_SPACE, a, "block_size", "0");
	FAILS(OP_NN_DEPTH_TO_SPACE, a, "block_size must be positive, not 0", x);
	set(OP_NN_DEPTH_TO_SPACE, a, "mode", "\"RDC\"");
	FAILS(OP_NN_DEPTH_TO_SPACE, a, "mode must be \"DCR\" or \"CDR\", not \"RDC\"", x);
	set(OP_NN_DEPTH_TO_SPACE, a, "layout", "\"NCHW4c\"");
	FAILS(OP_NN_DEPTH_TO_SPACE, a, "layout \"NCHW4c\" is not a permutation of NCHW", x);

	/* image.resize2d: as printed by TVM, roi=[0f, 0f, 0f, 0f] */
	a = attrs(OP_IMAGE_RESIZE2D);
	TypeId img = ten(DT_UINT8, 4, 1, 3, 4, 4);
	FAILS(OP_IMAGE_RESIZE2D, a, "size is required", img);
	set(OP_IMAGE_RESIZE2D, a, "size", "[8, 6]");
	FAILS(OP_IMAGE_RESIZE2D, a, "roi is required", img);
	set(OP_IMAGE_RESIZE2D, a, "roi", "[0f, 0f, 0f, 0f]");
	GIVES(OP_IMAGE_RESIZE2D, a, ten(DT_UINT8, 4, 1, 3, 8, 6), img);
	GIVES(OP_IMAGE_RESIZE2D, a, ten(DT_UINT8, 4, -1, 3, 8, 6), ten(DT_UINT8, 4, -1, 3, -1, -1));
	set(OP_IMAGE_RESIZE2D, a, "layout", "\"NHWC\"");
	set(OP_IMAGE_RESIZE2D, a, "method", "\"nearest_neighbor\"");
	set(OP_IMAGE_RESIZE2D, a, "out_dtype", "\"float32\"");
	GIVES(OP_IMAGE_RESIZE2D, a, ten(DT_FLOAT32, 4, 1, 8, 6, 3), ten(DT_UINT8, 4, 1, 4, 4, 3));
	FAILS(OP_IMAGE_RESIZE2D, a, "data has rank 2 but layout NHWC needs 4", ten(DT_UINT8, 2, 4, 4));
	set(OP_IMAGE_RESIZE2D, a, "method", "\"bilinear\"");
	FAILS(OP_IMAGE_RESIZE2D, a, "method must be \"nearest_neighbor\", \"linear\" or \"cubic\", "
	      "not \"bilinear\"", img);
	set(OP_IMAGE_RESIZE2D, a, "roi", "[0, 0]");
	FAILS(OP_IMAGE_RESIZE2D, a, "roi must have 4 values, not 2", img);
	set(OP_IMAGE_RESIZE2D, a, "size", "[8]");
	FAILS(OP_IMAGE_RESIZE2D, a, "size must have 2 values, not 1", img);
	set(OP_IMAGE_RESIZE2D, a, "size", "[8, 0]");
	FAILS(OP_IMAGE_RESIZE2D, a, "size must be positive, not [8, 0]", img);
	set(OP_IMAGE_RESIZE2D, a, "layout", "\"HWC\"");
	FAILS(OP_IMAGE_RESIZE2D, a, "layout \"HWC\" is not a permutation of NCHW", img);
}

int
main(void)
{
	plan_lazy();
	M = ir_module_new();
	ir_diag_init(&D, NULL, M);
	dump();
	schema();
	qnn();
	conv();
	matrix();
	pooling();
	elementwise();
	shapes();
	image();
	ir_diag_free(&D);
	ir_module_free(M);
	return done_testing();
}
