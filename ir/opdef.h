/*
** opdef.h: a plugin's op: its attribute schema, flags, type relation, and
** (elementwise) its semantics as rows of scalar expressions, the form of
** ir/scalar.def, for graft_plugin_add_op() and _add_scalar_op().
*/
#ifndef GRAFT_OPDEF_H
#define GRAFT_OPDEF_H

#include <stddef.h>
#include <stdint.h>

#include "kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The type of an attribute; GRAFT_AT_OPT or-ed in accepts None too. */
enum {
	GRAFT_AT_INT = 1, GRAFT_AT_FLOAT, GRAFT_AT_BOOL, GRAFT_AT_STR, GRAFT_AT_DTYPE,
	GRAFT_AT_INTS,          /* [int, ...] */
	GRAFT_AT_INTS2,         /* [[int, ...], ...]; not passed to kernels */
	GRAFT_AT_INT_INTS,      /* an int or [int, ...] */
	GRAFT_AT_FLOATS,        /* [float, ...] */
	GRAFT_AT_OPT = 0x100,
};

/* One field of an op's attribute schema: its name, type, and default as
** Relay text ("1", "0.5f", "\"floor\"", "[1, 1]"), or NULL when a call
** must give it. */
typedef struct graft_attr_def {
	const char *name;
	int type;               /* GRAFT_AT_* */
	const char *deflt;
} graft_attr_def;

/* An op's flags.  A plugin's op is opaque to fusion. */
enum {
	GRAFT_OPF_COMM = 1 << 0,        /* commutative in its first two operands */
	GRAFT_OPF_ELEM = 1 << 1,        /* elementwise */
	GRAFT_OPF_BCAST = 1 << 2,       /* broadcasts its operands as numpy does */
};

/* A tensor's type: its dtype (a GRAFT_DT_ code), rank, and dims (-1: not
** known).  An operand that is no tensor has dtype 0 and rank -1. */
typedef struct graft_type {
	int32_t dtype;
	int32_t rank;
	int64_t dims[8];
} graft_type;

/* A type relation: the result type of a call whose operands have types
** in[0..nin) and whose attributes are attrs (one per schema field, in
** order, defaults filled in, as a kernel gets them).  Returns 0 with *out
** set; or nonzero with why in err (graft reports "OP: why" at the call). */
typedef int graft_type_rel(const graft_type *in, uint32_t nin, const graft_attr *attrs, graft_type *out,
                           char *err, size_t nerr);

/* An op: its dotted name ("acme.clip_cast"), fixed operand count, flags,
** type relation (NULL for a scalar op: see plugin.h), and schema. */
typedef struct graft_op_def {
	const char *name;
	int nargs;
	unsigned flags;         /* GRAFT_OPF_* */
	graft_type_rel *rel;
	const graft_attr_def *attrs;
	int nattrs;
} graft_op_def;

/* ---------------------------------------------------------------- scalar semantics */

/* A node of a scalar expression: what one result element is, in terms of
** the operand element x.  <graft/scalar.h>'s words build them. */
enum {
	GRAFT_SX_X, GRAFT_SX_K, /* x, the constant k */
	GRAFT_SX_P,             /* attribute p of the schema (float or int), as a float */
	GRAFT_SX_NEG,           /* -a */
	GRAFT_SX_FN,            /* fn(a), the C library's: fd on double, ff on float */
	GRAFT_SX_ADD, GRAFT_SX_SUB, GRAFT_SX_MUL, GRAFT_SX_DIV,
	GRAFT_SX_MIN, GRAFT_SX_MAX,     /* a < b ? a : b, a > b ? a : b */
	GRAFT_SX_SEL,           /* a ? b : c, a a GT, LT or ISNAN */
	GRAFT_SX_GT, GRAFT_SX_LT,       /* ordered: false with a NaN */
	GRAFT_SX_Y,             /* y, the second operand of an op of two */
	GRAFT_SX_FN2,           /* fn(a, b): fd2 on double, ff2 on float */
	GRAFT_SX_RND, GRAFT_SX_ISNAN,   /* a rounded to the dtype (float16: to half); a != a */
};

typedef struct graft_scalar_expr {
	uint8_t kind;           /* GRAFT_SX_* */
	uint8_t p;
	double k;
	const char *fn;
	double (*fd)(double);
	float (*ff)(float);
	const struct graft_scalar_expr *a, *b, *c;
	double (*fd2)(double, double); float (*ff2)(float, float);
} graft_scalar_expr;

/* What integer operands give: nothing (integers refused), x, -x, |x|,
** sign(x); x op y as graft's add ... minimum; max(x, 0); x clipped to
** attributes 0 and 1 (docs/embedding.md). */
enum { GRAFT_SI_NONE, GRAFT_SI_SAME, GRAFT_SI_NEG, GRAFT_SI_ABS, GRAFT_SI_SIGN, GRAFT_SI_ADD, GRAFT_SI_SUB,
       GRAFT_SI_MUL, GRAFT_SI_DIV, GRAFT_SI_MOD, GRAFT_SI_FLOOR_MOD, GRAFT_SI_POW, GRAFT_SI_MAX, GRAFT_SI_MIN,
       GRAFT_SI_RELU, GRAFT_SI_CLIP };

/* A row: when it applies ("attr=value" of a string attribute; NULL:
** always), what integers give, the expression for floats. */
typedef struct graft_scalar_row {
	const char *when;
	uint8_t ints;           /* GRAFT_SI_* */
	const graft_scalar_expr *expr;
} graft_scalar_row;

#ifdef __cplusplus
}
#endif

#endif
