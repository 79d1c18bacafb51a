/*
** scalar.c: the elementwise ops' scalar semantics (scalar.def) as data:
** each row's expression is a tree of ScalarExpr nodes in static storage,
** which the backends evaluate, print or build.  Also the one rule of which
** dtypes an op takes (ir_op_accepts).
*/
#include <math.h>
#include <string.h>

#include "ir.h"

/* scalar.def's expression words, as static compound literals */
#define SXN(...) (&(const ScalarExpr){ __VA_ARGS__ })
#define X SXN(.kind = SX_X)
#define K(c) SXN(.kind = SX_K, .k = (c))
#define P(i) SXN(.kind = SX_P, .p = (i))
#define NEG(x) SXN(.kind = SX_NEG, .a = (x))
#define FN(name, x) SXN(.kind = SX_FN, .fn = #name, .fd = name, .ff = name##f, .a = (x))
#define ADD(x, y) SXN(.kind = SX_ADD, .a = (x), .b = (y))
#define SUB(x, y) SXN(.kind = SX_SUB, .a = (x), .b = (y))
#define MUL(x, y) SXN(.kind = SX_MUL, .a = (x), .b = (y))
#define DIV(x, y) SXN(.kind = SX_DIV, .a = (x), .b = (y))
#define MIN(x, y) SXN(.kind = SX_MIN, .a = (x), .b = (y))
#define MAX(x, y) SXN(.kind = SX_MAX, .a = (x), .b = (y))
#define GT(x, y) SXN(.kind = SX_GT, .a = (x), .b = (y))
#define LT(x, y) SXN(.kind = SX_LT, .a = (x), .b = (y))
#define SEL(cond, x, y) SXN(.kind = SX_SEL, .a = (cond), .b = (x), .c = (y))

const ScalarDef ir_scalars[] = {
#define SCALAR(id, ints, when, onnx, expr) { OP_##id, ints, when, onnx, expr },
#include "scalar.def"
#undef SCALAR
	{ OP_NONE, 0, NULL, NULL, NULL }
};
const uint32_t ir_nscalars = sizeof ir_scalars / sizeof ir_scalars[0] - 1;

/* firstrow: op's first row of ir_scalars, or NULL (a scan: the table is
** small, and read-only, so any thread may call this) */
static const ScalarDef *
firstrow(OpId op)
{
	for (uint32_t i = 0; i < ir_nscalars; i++)
		if (ir_scalars[i].op == op)
			return &ir_scalars[i];
	return NULL;
}

int
ir_op_is_scalar(OpId op)
{
	return op != OP_NONE && firstrow(op) != NULL;
}

/* whenmet: whether row r's `when` holds for attributes a of op (NULL: the
** defaults) */
static int
whenmet(const Module *m, const ScalarDef *r, const AttrVal *a)
{
	const char *eq = strchr(r->when, '='), *v;
	int k = ir_op_attr_index(r->op, r->when, (size_t)(eq - r->when));
	size_t n;

	if (k < 0)
		return 0;
	if (a) {
		if (a[k].kind != AV_STR)
			return 0;
		v = ir_symstr(m, a[k].u.s);
		return strcmp(v, eq + 1) == 0;
	}
	/* the default, a Relay string literal */
	v = ir_ops[r->op].attrs[k].deflt;
	n = strlen(eq + 1);
	return v && v[0] == '"' && strncmp(v + 1, eq + 1, n) == 0 && v[n + 1] == '"' && !v[n + 2];
}

const ScalarDef *
ir_scalar_of(const Module *m, OpId op, AttrId attrs)
{
	const AttrVal *a = attrs && m ? &m->attrs[attrs] : NULL;

	if (op == OP_NONE)
		return NULL;
	for (uint32_t i = 0; i < ir_nscalars; i++)
		if (ir_scalars[i].op == op && (!ir_scalars[i].when || whenmet(m, &ir_scalars[i], a)))
			return &ir_scalars[i];
	return NULL;
}

const char *
ir_op_accepts(OpId op, DType dt)
{
	const ScalarDef *r;

	if (dt == DT_VOID || dt >= DT_COUNT || op >= OP_COUNT)
		return NULL;
	if ((r = firstrow(op))) {
		if (dt == DT_BOOL)
			return "on bool tensors";
		if (ir_dtype_kind[dt] != 'f' && r->ints == SI_NONE)
			return "on integer tensors";
		return NULL;
	}
	switch (op) {
	case OP_ADD: case OP_SUBTRACT: case OP_MULTIPLY: case OP_DIVIDE: case OP_POWER:
	case OP_MOD: case OP_FLOOR_MOD: case OP_MAXIMUM: case OP_MINIMUM:
	case OP_NN_BIAS_ADD: case OP_CLIP: case OP_NN_RELU:
		return dt == DT_BOOL ? "on bool tensors" : NULL;
	case OP_NN_SOFTMAX:
		return ir_dtype_kind[dt] != 'f' ? "on integer tensors" : NULL;
	default:
		return NULL;
	}
}
