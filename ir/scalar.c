/*
** scalar.c: the elementwise ops' scalar semantics (scalar.def) as data:
** each row's expression is a tree of ScalarExpr nodes in static storage,
** which the backends evaluate, print or build.  Also the one rule of which
** dtypes an op takes (ir_op_accepts).
*/
#include <stdio.h>
#include <string.h>

#include "ir.h"
#include "scalar.h"

/* <graft/opdef.h> gives plugins these by their values */
_Static_assert((int)GRAFT_SX_X == (int)SX_X && (int)GRAFT_SX_K == (int)SX_K && (int)GRAFT_SX_P == (int)SX_P && (int)GRAFT_SX_NEG == (int)SX_NEG &&
               (int)GRAFT_SX_FN == (int)SX_FN && (int)GRAFT_SX_ADD == (int)SX_ADD && (int)GRAFT_SX_SUB == (int)SX_SUB && (int)GRAFT_SX_MUL == (int)SX_MUL &&
               (int)GRAFT_SX_DIV == (int)SX_DIV && (int)GRAFT_SX_MIN == (int)SX_MIN && (int)GRAFT_SX_MAX == (int)SX_MAX && (int)GRAFT_SX_SEL == (int)SX_SEL &&
               (int)GRAFT_SX_GT == (int)SX_GT && (int)GRAFT_SX_LT == (int)SX_LT && (int)GRAFT_SX_Y == (int)SX_Y &&
               (int)GRAFT_SX_FN2 == (int)SX_FN2 && (int)GRAFT_SX_RND == (int)SX_RND && (int)GRAFT_SX_ISNAN == (int)SX_ISNAN,
               "opdef.h's GRAFT_SX_ are ScalarKind's");
_Static_assert((int)GRAFT_SI_NONE == (int)SI_NONE && (int)GRAFT_SI_SAME == (int)SI_SAME && (int)GRAFT_SI_NEG == (int)SI_NEG &&
               (int)GRAFT_SI_ABS == (int)SI_ABS && (int)GRAFT_SI_SIGN == (int)SI_SIGN && (int)GRAFT_SI_ADD == (int)SI_ADD &&
               (int)GRAFT_SI_SUB == (int)SI_SUB && (int)GRAFT_SI_MUL == (int)SI_MUL && (int)GRAFT_SI_DIV == (int)SI_DIV &&
               (int)GRAFT_SI_MOD == (int)SI_MOD && (int)GRAFT_SI_FLOOR_MOD == (int)SI_FLOOR_MOD && (int)GRAFT_SI_POW == (int)SI_POW &&
               (int)GRAFT_SI_MAX == (int)SI_MAX && (int)GRAFT_SI_MIN == (int)SI_MIN && (int)GRAFT_SI_RELU == (int)SI_RELU &&
               (int)GRAFT_SI_CLIP == (int)SI_CLIP, "opdef.h's GRAFT_SI_ are ScalarInts'");

const ScalarDef ir_scalars[] = {
#define SCALAR(id, ints, when, onnx, expr) { OP_##id, ints, when, onnx, expr },
#include "scalar.def"
#undef SCALAR
	{ OP_NONE, 0, NULL, NULL, NULL }
};
const uint32_t ir_nscalars = sizeof ir_scalars / sizeof ir_scalars[0] - 1;

/* The rows registered ops were given (ir_scalar_register), after the
** built-in ones: read-only once plugins are loaded. */
enum { MAXXROWS = 256 };
static ScalarDef xrows[MAXXROWS];
static uint32_t nxrows;

/* row: row i of the built-in rows, then of the registered ones */
static const ScalarDef *
row(uint32_t i)
{
	return i < ir_nscalars ? &ir_scalars[i] : &xrows[i - ir_nscalars];
}

/* rowof[op]: op's first row + 1, 0 for none: built from the built-in
** rows before main() runs (a constructor), and kept by ir_scalar_register
** as it adds rows, so that the backends' questions, asked per call and
** per fusion decision, cost a load; read-only once plugins are loaded */
static uint16_t rowof[IR_MAXOPS];

__attribute__((constructor)) static void
rowsinit(void)
{
	for (uint32_t i = ir_nscalars; i-- > 0;)
		rowof[ir_scalars[i].op] = (uint16_t)(i + 1);
}

/* firstrow: op's first row, or NULL */
static const ScalarDef *
firstrow(OpId op)
{
	return op < IR_MAXOPS && rowof[op] ? row(rowof[op] - 1u) : NULL;
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

	if (op == OP_NONE || op >= IR_MAXOPS || !rowof[op])
		return NULL;
	/* an op's rows are contiguous: scalar.def lists them together, and a
	   registration adds them at once */
	for (uint32_t i = rowof[op] - 1u; i < ir_nscalars + nxrows && row(i)->op == op; i++)
		if (!row(i)->when || whenmet(m, row(i), a))
			return row(i);
	return NULL;
}

const char *
ir_op_accepts(OpId op, DType dt)
{
	const ScalarDef *r;

	if (dt == DT_VOID || dt >= DT_COUNT)
		return NULL;
	if ((r = firstrow(op))) {
		if (dt == DT_BOOL)
			return "on bool tensors";
		if (ir_dtype_kind[dt] != 'f' && r->ints == SI_NONE)
			return "on integer tensors";
		return NULL;
	}
	if (op >= OP_COUNT)
		return NULL;
	switch (op) {
	case OP_NN_BIAS_ADD:
		return dt == DT_BOOL ? "on bool tensors" : NULL;
	case OP_NN_SOFTMAX:
		return ir_dtype_kind[dt] != 'f' ? "on integer tensors" : NULL;
	default:
		return NULL;
	}
}

/* exprok: whether expression e (depth d) is one the backends can run for
** op: every node complete, an attribute a float or integer of op's, no
** deeper than 64; else why into err */
static int
exprok(OpId op, const ScalarExpr *e, int d, char *err, size_t nerr)
{
	const OpInfo *o = &ir_ops[op];

	if (e && e->kind == SX_Y && o->nargs < 2) {
		snprintf(err, nerr, "%s: Y, the second operand, in a row of an op of one operand", o->name);
		return 0;
	}
	if (!e || d > 64 || e->kind > SX_ISNAN) {
		snprintf(err, nerr, "%s: a row's expression is missing, malformed or deeper than 64", o->name);
		return 0;
	}
	switch (e->kind) {
	case SX_X: case SX_Y: case SX_K:
		return 1;
	case SX_P: {
		int t = e->p < o->nattrs ? AT_TYPE(o->attrs[e->p].type) & ~AT_OPT : 0;
		if (t != AT_FLOAT && t != AT_INT) {
			snprintf(err, nerr, "%s: P(%u) is not a float or integer attribute of the op", o->name, e->p);
			return 0;
		}
		return 1;
	}
	case SX_FN:
		if (!e->fn || !e->fd || !e->ff) {
			snprintf(err, nerr, "%s: FN() without its function", o->name);
			return 0;
		}
		/* fall through */
	case SX_NEG: case SX_RND: case SX_ISNAN:
		return exprok(op, e->a, d + 1, err, nerr);
	case SX_FN2:
		if (!e->fn || !e->fd2 || !e->ff2) {
			snprintf(err, nerr, "%s: FN2() without its function", o->name);
			return 0;
		}
		return exprok(op, e->a, d + 1, err, nerr) && exprok(op, e->b, d + 1, err, nerr);
	case SX_SEL:
		if (!e->a || (e->a->kind != SX_GT && e->a->kind != SX_LT && e->a->kind != SX_ISNAN)) {
			snprintf(err, nerr, "%s: SEL()'s condition is not GT(), LT() or ISNAN()", o->name);
			return 0;
		}
		return exprok(op, e->a, d + 1, err, nerr) && exprok(op, e->b, d + 1, err, nerr) &&
		       exprok(op, e->c, d + 1, err, nerr);
	default:
		return exprok(op, e->a, d + 1, err, nerr) && exprok(op, e->b, d + 1, err, nerr);
	}
}

/* intsok: whether ints is an ints column that op o's rows may have: of
** one operand or two as o has, clip's bounds two numeric attributes */
static int
intsok(const OpInfo *o, int ints)
{
	int t0 = o->nattrs > 0 ? AT_TYPE(o->attrs[0].type) & ~AT_OPT : 0;
	int t1 = o->nattrs > 1 ? AT_TYPE(o->attrs[1].type) & ~AT_OPT : 0;

	switch (ints) {
	case SI_NONE: return 1;
	case SI_SAME: case SI_NEG: case SI_ABS: case SI_SIGN: case SI_RELU: return o->nargs == 1;
	case SI_CLIP: return o->nargs == 1 && (t0 == AT_FLOAT || t0 == AT_INT) && (t1 == AT_FLOAT || t1 == AT_INT);
	default: return o->nargs == 2 && ints <= SI_MIN;
	}
}

int
ir_scalar_register(OpId op, const ScalarDef *rows, uint32_t n, char *err, size_t nerr)
{
	const OpInfo *o = op < ir_op_count() ? &ir_ops[op] : NULL;

	if (!o || op < OP_COUNT || firstrow(op)) {
		snprintf(err, nerr, "op %u is not a registered op without rows", (unsigned)op);
		return 0;
	}
	if (o->nargs < 1 || o->nargs > 2 || !n || nxrows + n > MAXXROWS) {
		snprintf(err, nerr, "%s: rows are for an op of one operand or two, one row or more (%u at most in all)",
		         o->name, (unsigned)MAXXROWS);
		return 0;
	}
	for (uint32_t i = 0; i < n; i++) {
		const ScalarDef *r = &rows[i];
		const char *eq = r->when ? strchr(r->when, '=') : NULL;
		int k = eq ? ir_op_attr_index(op, r->when, (size_t)(eq - r->when)) : -1;
		if (r->onnx) {
			snprintf(err, nerr, "%s: a plugin's row imports no ONNX operator (its onnx must be NULL)", o->name);
			return 0;
		}
		if (!intsok(o, r->ints) || (r->when && (k < 0 || (AT_TYPE(o->attrs[k].type) & ~AT_OPT) != AT_STR))) {
			snprintf(err, nerr, "%s: row %u's ints or when (\"attr=value\", a string attribute) is not one graft knows",
			         o->name, i);
			return 0;
		}
		if (!exprok(op, r->expr, 0, err, nerr))
			return 0;
	}
	rowof[op] = (uint16_t)(ir_nscalars + nxrows + 1);
	for (uint32_t i = 0; i < n; i++) {
		xrows[nxrows] = rows[i];
		xrows[nxrows++].op = op;
	}
	return 1;
}
