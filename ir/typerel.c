/*
** typerel.c: the type relations named in ops.def.  A relation gets the
** types of a call's operands and the call's attributes, and returns the
** type of the result by the shape rules of TVM Relay's relation for the
** op; or it returns 0 after recording through ir_rel_error() a lower-case
** message that names the offending operand or attribute and the numbers
** involved (the caller adds the location and the op name).
**
** Making a type may move Module.types and Module.dims, so relations first
** copy each operand's shape into a local Shape.  They never push
** attributes: attrs points into Module.attrs.  Attributes are found by
** name through the op schemas, so ops.def may reorder a schema without
** breaking this file.  A dimension of IR_DIM_ANY is unknown; it flows
** through where TVM lets it and skips the checks that would need it.
*/
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "typerel.h"

#define ANY IR_DIM_ANY
#define MAXDIMS 32          /* the largest rank a relation handles */
#define MAXSPLIT 65536      /* the most pieces split may produce */
#define LL(x) ((long long)(x))

typedef struct Shape {
	DType dt;
	int rank;
	int64_t d[MAXDIMS];
} Shape;

/* ---------------------------------------------------------------- helpers */

/* dtn: the name of a dtype, for messages */
static const char *
dtn(DType dt)
{
	return dt == DT_VOID ? "\"\"" : ir_dtype_names[dt];
}

/* kindn: what a non-tensor type is, for messages */
static const char *
kindn(const Module *m, TypeId t)
{
	switch (ir_type(m, t)->kind) {
	case TY_TENSOR: return "a tensor";
	case TY_TUPLE: return "a tuple";
	case TY_FUNC: return "a function";
	}
	return "of unknown type";
}

/* fmtdims: the n dims as "(1, 3, ?)" in buf; returns buf */
static const char *
fmtdims(const int64_t *d, int n, char *buf, size_t size)
{
	size_t k = 0;

	k += (size_t)snprintf(buf, size, "(");
	for (int i = 0; i < n && k < size; i++) {
		const char *sep = i ? ", " : "";
		if (d[i] == ANY)
			k += (size_t)snprintf(buf + k, size - k, "%s?", sep);
		else
			k += (size_t)snprintf(buf + k, size - k, "%s%lld", sep, LL(d[i]));
	}
	if (k < size)
		snprintf(buf + k, size - k, ")");
	return buf;
}

#define SHAPESTR(s, buf) fmtdims((s)->d, (s)->rank, (buf), sizeof (buf))

/* fmtdim: one dim as a number or '?' in buf; returns buf */
static const char *
fmtdim(int64_t v, char *buf, size_t size)
{
	if (v == ANY)
		snprintf(buf, size, "?");
	else
		snprintf(buf, size, "%lld", LL(v));
	return buf;
}

/* load: copies operand t, called what, into s; fails unless t is a tensor
** type of at most MAXDIMS dimensions */
static int
load(const Module *m, TypeId t, const char *what, Shape *s, Diag *d)
{
	const Type *ty = ir_type(m, t);

	if (ty->kind != TY_TENSOR) {
		ir_rel_error(d, "%s must be a tensor, not %s", what, kindn(m, t));
		return 0;
	}
	if (ty->n > MAXDIMS) {
		ir_rel_error(d, "%s has rank %u; at most %d dimensions are supported",
		             what, ty->n, MAXDIMS);
		return 0;
	}
	s->dt = (DType)ty->dtype;
	s->rank = (int)ty->n;
	if (ty->n)
		memcpy(s->d, ir_type_dims(m, t), ty->n * sizeof s->d[0]);
	return 1;
}

/* make: the tensor type of s */
static TypeId
make(Module *m, const Shape *s)
{
	return ir_type_tensor(m, s->dt, s->rank, s->d);
}

/* same: whether two dims may be equal */
static int
same(int64_t a, int64_t b)
{
	return a == b || a == ANY || b == ANY;
}

/* normaxis: turns a negative axis into a positive one; whether it is in
** [0, n) */
static int
normaxis(int64_t *axis, int n)
{
	if (*axis < 0)
		*axis += n;
	return *axis >= 0 && *axis < n;
}

/* floordiv: a / b rounded down, b > 0 */
static int64_t
floordiv(int64_t a, int64_t b)
{
	int64_t q = a / b;
	return (a % b != 0 && a < 0) ? q - 1 : q;
}

/* Checked arithmetic for dims and attribute values, which the text may
** set anywhere in int64: each stores the exact result in *r and returns 1,
** or returns 0 when it does not fit in int64 (never overflows). */
static int
ckadd(int64_t a, int64_t b, int64_t *r)
{
	return !__builtin_add_overflow(a, b, r);
}

static int
cksub(int64_t a, int64_t b, int64_t *r)
{
	return !__builtin_sub_overflow(a, b, r);
}

static int
ckmul(int64_t a, int64_t b, int64_t *r)
{
	return !__builtin_mul_overflow(a, b, r);
}

/* toobig: reports a shape computation whose result does not fit in int64 */
static int
toobig(const char *what, Diag *d)
{
	ir_rel_error(d, "%s does not fit in 64 bits", what);
	return 0;
}

/* oneof: whether dt is among the n dtypes that follow */
static int
oneof(DType dt, int n, ...)
{
	va_list ap;
	int found = 0;

	va_start(ap, n);
	for (int i = 0; i < n; i++)
		if ((DType)va_arg(ap, int) == dt)
			found = 1;
	va_end(ap);
	return found;
}

/* ---------------------------------------------------------------- attributes */

/* field: the attribute `name` of a call whose op has relation rel.  All
** ops sharing rel must hold the field at one index; anything else is a
** mistake in ops.def, hence fatal. */
static const AttrVal *
field(const AttrVal *attrs, TypeRel *rel, const char *name)
{
	/* names are literals here, so (rel, name pointer) keys a cache: the
	** schema never changes, and relations run once per node inferred */
	static struct { TypeRel *rel; const char *name; int at; } cache[256];
	uintptr_t h = ((uintptr_t)rel ^ ((uintptr_t)name >> 3)) * 2654435761u;
	unsigned slot = (unsigned)(h >> 8) & 255;
	size_t n;
	int at = -1;

	if (cache[slot].rel == rel && cache[slot].name == name)
		return &attrs[cache[slot].at];
	n = strlen(name);
	for (OpId op = 1; op < OP_COUNT; op++) {
		int i;
		if (ir_ops[op].rel != rel)
			continue;
		i = ir_op_attr_index(op, name, n);
		if (i < 0 || (at >= 0 && i != at))
			ir_die("ops.def: %s lacks or misplaces attribute %s", ir_ops[op].name, name);
		at = i;
	}
	if (at < 0)
		ir_die("typerel: no op uses the relation that reads attribute %s", name);
	cache[slot].rel = rel;
	cache[slot].name = name;
	cache[slot].at = at;
	return &attrs[at];
}

/* getint: the integer attribute v, called name */
static int
getint(const AttrVal *v, const char *name, int64_t *out, Diag *d)
{
	if (v->kind != AV_INT && v->kind != AV_BOOL) {
		ir_rel_error(d, "%s is required", name);
		return 0;
	}
	*out = v->u.i;
	return 1;
}

/* getints: the integer list attribute v, called name, into out[0..*n),
** with *n = -1 for None; fails beyond max entries */
static int
getints(const Module *m, const AttrVal *v, const char *name, int64_t *out, int max,
        int *n, Diag *d)
{
	if (v->kind == AV_NONE) {
		*n = -1;
		return 1;
	}
	if (v->kind != AV_ARRAY) {
		ir_rel_error(d, "%s must be a list of integers", name);
		return 0;
	}
	if (v->n > (uint32_t)max) {
		ir_rel_error(d, "%s has %u entries; at most %d are supported", name, v->n, max);
		return 0;
	}
	for (uint32_t k = 0; k < v->n; k++) {
		const AttrVal *e = &m->attrs[v->first + k];
		if (e->kind != AV_INT) {
			ir_rel_error(d, "%s must be a list of integers", name);
			return 0;
		}
		out[k] = e->u.i;
	}
	*n = (int)v->n;
	return 1;
}

/* getpair: the attribute v, called name, which must hold two positive
** integers */
static int
getpair(const Module *m, const AttrVal *v, const char *name, int64_t out[2], Diag *d)
{
	int64_t buf[MAXDIMS];
	int n;

	if (!getints(m, v, name, buf, MAXDIMS, &n, d))
		return 0;
	if (n < 0) {
		ir_rel_error(d, "%s is required", name);
		return 0;
	}
	if (n != 2) {
		ir_rel_error(d, "%s must have 2 values, not %d", name, n);
		return 0;
	}
	if (buf[0] <= 0 || buf[1] <= 0) {
		ir_rel_error(d, "%s must be positive, not [%lld, %lld]", name, LL(buf[0]), LL(buf[1]));
		return 0;
	}
	out[0] = buf[0];
	out[1] = buf[1];
	return 1;
}

/* getpad: the total height and width padding of a 2-d padding attribute
** of 1 (all sides), 2 (top/bottom, left/right) or 4 (top, left, bottom,
** right) values */
static int
getpad(const Module *m, const AttrVal *v, const char *name, int64_t *ph, int64_t *pw, Diag *d)
{
	int64_t p[MAXDIMS];
	int n;

	if (!getints(m, v, name, p, MAXDIMS, &n, d))
		return 0;
	switch (n) {
	case 1:
		if (!ckmul(2, p[0], ph))
			break;
		*pw = *ph;
		return 1;
	case 2:
		if (!ckmul(2, p[0], ph) || !ckmul(2, p[1], pw))
			break;
		return 1;
	case 4:
		if (!ckadd(p[0], p[2], ph) || !ckadd(p[1], p[3], pw))
			break;
		return 1;
	}
	if (n == 1 || n == 2 || n == 4)
		ir_rel_error(d, "the total of %s does not fit in 64 bits", name);
	else if (n < 0)
		ir_rel_error(d, "%s is required", name);
	else
		ir_rel_error(d, "%s must have 1, 2 or 4 values, not %d", name, n);
	return 0;
}

/* getdt: the dtype attribute v; DT_VOID for "" or None */
static DType
getdt(const AttrVal *v)
{
	return v->kind == AV_DTYPE ? (DType)v->u.i : DT_VOID;
}

/* getstr: the string attribute v; "" for None */
static const char *
getstr(const Module *m, const AttrVal *v)
{
	return v->kind == AV_STR ? ir_symstr(m, v->u.s) : "";
}

/* getbool: the boolean attribute v; False for None */
static int
getbool(const AttrVal *v)
{
	return (v->kind == AV_BOOL || v->kind == AV_INT) && v->u.i;
}

/* ---------------------------------------------------------------- layouts */

/* ir_layout_perm: see ir.h */
int
ir_layout_perm(const char *layout, const char *ref, int pos[4])
{
	if (strlen(layout) != 4)
		return 0;
	for (int k = 0; k < 4; k++) {
		const char *p = strchr(layout, ref[k]);
		if (!p)
			return 0;
		pos[k] = (int)(p - layout);
	}
	return 1;
}

/* axesof: the axes of a layout such as NCHW or NCHW16c, one letter each,
** into ax; the count, or -1 if the layout is malformed */
static int
axesof(const char *layout, char ax[MAXDIMS])
{
	int n = 0;

	for (const char *p = layout; *p; p++) {
		if (*p >= '0' && *p <= '9') {
			/* a split factor, which must lead a lower-case axis */
			while (p[1] >= '0' && p[1] <= '9')
				p++;
			if (!(p[1] >= 'a' && p[1] <= 'z'))
				return -1;
			continue;
		}
		if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z')) || n == MAXDIMS)
			return -1;
		ax[n++] = *p;
	}
	return n;
}

/* hwof: the positions of H and W in the pooling layout, which must match
** data s */
static int
hwof(const char *layout, const Shape *s, int *hi, int *wi, Diag *d)
{
	char ax[MAXDIMS];
	int n = axesof(layout, ax);

	*hi = *wi = -1;
	for (int i = 0; i < n; i++) {
		if (ax[i] == 'h' || ax[i] == 'w')
			n = -1;
		else if (ax[i] == 'H')
			*hi = i;
		else if (ax[i] == 'W')
			*wi = i;
	}
	if (n < 0 || *hi < 0 || *wi < 0) {
		ir_rel_error(d, "layout \"%s\" must have H and W axes, unsplit", layout);
		return 0;
	}
	if (n != s->rank) {
		ir_rel_error(d, "layout \"%s\" has %d axes but data has rank %d", layout, n, s->rank);
		return 0;
	}
	return 1;
}

/* nchw: the positions of N, C, H and W in the layout attribute called
** name, which must be a permutation of NCHW for data s of rank 4 */
static int
nchw(const char *layout, const char *name, const Shape *s, int pos[4], Diag *d)
{
	if (!ir_layout_perm(layout, "NCHW", pos)) {
		ir_rel_error(d, "%s \"%s\" is not a permutation of NCHW", name, layout);
		return 0;
	}
	if (s->rank != 4) {
		ir_rel_error(d, "data has rank %d but %s %s needs 4", s->rank, name, layout);
		return 0;
	}
	return 1;
}

/* ---------------------------------------------------------------- quantization parameters */

/* qparam: checks the quantization parameter t, called name: a tensor of
** dtype dt that is a scalar or a vector of len elements */
static int
qparam(const Module *m, TypeId t, const char *name, DType dt, int64_t len, Diag *d)
{
	const Type *ty = ir_type(m, t);
	char b1[160], b2[32];

	if (ty->kind != TY_TENSOR) {
		ir_rel_error(d, "%s must be a tensor, not %s", name, kindn(m, t));
		return 0;
	}
	if (ty->dtype != dt) {
		ir_rel_error(d, "%s must be %s, not %s", name, dtn(dt), dtn((DType)ty->dtype));
		return 0;
	}
	if (ty->n == 0 || (ty->n == 1 && same(ir_type_dims(m, t)[0], len)))
		return 1;
	ir_rel_error(d, "%s must be a scalar or have shape (%s), not %s", name,
	             fmtdim(len, b2, sizeof b2), fmtdims(ir_type_dims(m, t), (int)ty->n, b1, sizeof b1));
	return 0;
}

/* qscalar: checks that t, called name, is a scalar tensor of dtype dt */
static int
qscalar(const Module *m, TypeId t, const char *name, DType dt, Diag *d)
{
	const Type *ty = ir_type(m, t);
	char buf[160];

	if (ty->kind != TY_TENSOR) {
		ir_rel_error(d, "%s must be a tensor, not %s", name, kindn(m, t));
		return 0;
	}
	if (ty->dtype != dt) {
		ir_rel_error(d, "%s must be %s, not %s", name, dtn(dt), dtn((DType)ty->dtype));
		return 0;
	}
	if (ty->n != 0) {
		ir_rel_error(d, "%s must be a scalar, not %s", name,
		             fmtdims(ir_type_dims(m, t), (int)ty->n, buf, sizeof buf));
		return 0;
	}
	return 1;
}

/* qtuple: checks that t, called name, is a tuple of n scalars of dtype dt */
static int
qtuple(const Module *m, TypeId t, const char *name, DType dt, uint32_t n, Diag *d)
{
	const Type *ty = ir_type(m, t);
	char what[64];

	if (ty->kind != TY_TUPLE) {
		ir_rel_error(d, "%s must be a tuple of scalars, not %s", name, kindn(m, t));
		return 0;
	}
	if (ty->n != n) {
		ir_rel_error(d, "data has %u tensors but %s has %u", n, name, ty->n);
		return 0;
	}
	for (uint32_t i = 0; i < n; i++) {
		snprintf(what, sizeof what, "field %u of %s", i, name);
		if (!qscalar(m, m->tylist[ty->first + i], what, dt, d))
			return 0;
	}
	return 1;
}

/* isscalar: whether t is a tensor of rank 0 */
static int
isscalar(const Module *m, TypeId t)
{
	return ir_type(m, t)->kind == TY_TENSOR && ir_type(m, t)->n == 0;
}

/* ---------------------------------------------------------------- broadcasting */

/* bcast: numpy broadcasting of a and b, called an and bn, into o, which
** takes a's dtype */
static int
bcast(const Shape *a, const Shape *b, const char *an, const char *bn, Shape *o, Diag *d)
{
	int n = a->rank > b->rank ? a->rank : b->rank;
	char sa[160], sb[160];

	o->dt = a->dt;
	o->rank = n;
	for (int i = 1; i <= n; i++) {
		int64_t x = i <= a->rank ? a->d[a->rank - i] : 1;
		int64_t y = i <= b->rank ? b->d[b->rank - i] : 1;
		if (x == 1 || x == ANY)
			o->d[n - i] = y == 1 ? x : y;
		else if (y == 1 || y == ANY || x == y)
			o->d[n - i] = x;
		else {
			ir_rel_error(d, "%s %s and %s %s do not broadcast (axis %d: %lld vs %lld)",
			             an, SHAPESTR(a, sa), bn, SHAPESTR(b, sb), n - i, LL(x), LL(y));
			return 0;
		}
	}
	return 1;
}

/* Elementwise arithmetic: both operands of one dtype, shapes broadcast. */
TypeId
rel_broadcast(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	Shape a, b, o;

	(void)nargs;
	(void)attrs;
	if (!load(m, args[0], "lhs", &a, d) || !load(m, args[1], "rhs", &b, d))
		return 0;
	if (a.dt != b.dt)
		return ir_rel_error(d, "lhs is %s but rhs is %s", dtn(a.dt), dtn(b.dt));
	if (!bcast(&a, &b, "lhs", "rhs", &o, d))
		return 0;
	return make(m, &o);
}

/* broadcast_to(data): the shape attribute, which data must broadcast to
** (TVM's BroadCastToRel takes the shape; topi::broadcast_to checks it). */
TypeId
rel_broadcast_to(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	Shape x, t, o;
	int n;
	char sx[160], st[160];

	(void)nargs;
	if (!load(m, args[0], "data", &x, d) ||
	    !getints(m, field(attrs, rel_broadcast_to, "shape"), "shape", t.d, MAXDIMS, &n, d))
		return 0;
	if (n < 0)
		return ir_rel_error(d, "shape is required");
	t.rank = n;
	t.dt = x.dt;
	for (int k = 0; k < n; k++)
		if (t.d[k] < 0)
			return ir_rel_error(d, "shape dimension %d is negative (%lld)", k, LL(t.d[k]));
	if (!bcast(&x, &t, "data", "shape", &o, d))
		return 0;
	for (int k = 0; k < o.rank; k++)
		if (o.rank != t.rank || !same(o.d[k], t.d[k]))
			return ir_rel_error(d, "data %s does not broadcast to shape %s", SHAPESTR(&x, sx), SHAPESTR(&t, st));
	return make(m, &t);
}

/* retyped: tensor type t (0: a relation's failure) in dtype dt */
static TypeId
retyped(Module *m, TypeId t, DType dt, Diag *d)
{
	Shape o;

	if (!t || !load(m, t, "result", &o, d))
		return 0;
	o.dt = dt;
	return make(m, &o);
}

/* Comparisons: both operands of one dtype, shapes broadcast; bool. */
TypeId
rel_compare(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	return retyped(m, rel_broadcast(m, args, nargs, attrs, d), DT_BOOL, d);
}

/* logical_and, logical_or (shapes broadcast), logical_not: bool. */
TypeId
rel_logical(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	static const char *const names[] = { "lhs", "rhs" };
	Shape s;

	for (int i = 0; i < nargs; i++) {
		if (!load(m, args[i], nargs == 1 ? "data" : names[i], &s, d))
			return 0;
		if (s.dt != DT_BOOL)
			return ir_rel_error(d, "%s must be bool, not %s", nargs == 1 ? "data" : names[i], dtn(s.dt));
	}
	return nargs == 1 ? args[0] : rel_broadcast(m, args, nargs, attrs, d);
}

/* intrel: the bitwise ops (booltoo) and the shifts: operands of integer
** dtypes (tir's bitwise ops take no floats), bool too for the bitwise
** ops; the shapes of two broadcast, as BroadcastRel. */
static TypeId
intrel(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, int booltoo, Diag *d)
{
	static const char *const names[] = { "lhs", "rhs" };
	Shape s;

	for (int i = 0; i < nargs; i++) {
		const char *name = nargs == 1 ? "data" : names[i];
		if (!load(m, args[i], name, &s, d))
			return 0;
		if (ir_dtype_kind[s.dt] != 'i' && ir_dtype_kind[s.dt] != 'u' && !(booltoo && s.dt == DT_BOOL))
			return ir_rel_error(d, "%s must be of an integer dtype%s, not %s", name, booltoo ? " or bool" : "",
			                    dtn(s.dt));
	}
	return nargs == 1 ? args[0] : rel_broadcast(m, args, nargs, attrs, d);
}

/* bitwise_and, bitwise_or, bitwise_xor, bitwise_not: integers or bool. */
TypeId
rel_bitwise(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	return intrel(m, args, nargs, attrs, 1, d);
}

/* left_shift, right_shift: integers. */
TypeId
rel_shift(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	return intrel(m, args, nargs, attrs, 0, d);
}

/* isnan, isinf, isfinite: data's shape, bool (TVM's IdentityCompRel). */
TypeId
rel_classify(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	Shape s;

	(void)nargs;
	(void)attrs;
	if (!load(m, args[0], "data", &s, d))
		return 0;
	s.dt = DT_BOOL;
	return make(m, &s);
}

/* where(condition, x, y): x and y of one dtype; the three shapes
** broadcast together. */
TypeId
rel_where(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	Shape c, x, y, xy, o;

	(void)nargs;
	(void)attrs;
	if (!load(m, args[0], "condition", &c, d) || !load(m, args[1], "x", &x, d) ||
	    !load(m, args[2], "y", &y, d))
		return 0;
	if (x.dt != y.dt)
		return ir_rel_error(d, "x is %s but y is %s", dtn(x.dt), dtn(y.dt));
	if (!bcast(&x, &y, "x", "y", &xy, d) || !bcast(&xy, &c, "x and y", "condition", &o, d))
		return 0;
	o.dt = x.dt;
	return make(m, &o);
}

/* qnn.add, qnn.mul: (lhs, rhs, lhs_scale, lhs_zero_point, rhs_scale,
** rhs_zero_point, output_scale, output_zero_point).  An operand's scale and
** zero point are scalars or vectors along its lhs_axis/rhs_axis; the
** result broadcasts lhs with rhs in lhs's dtype. */
TypeId
rel_qnn_binary(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	static const char *const names[] = {
		"lhs", "rhs", "lhs_scale", "lhs_zero_point", "rhs_scale", "rhs_zero_point",
	};
	Shape s[2], o;
	int64_t axis[2];

	(void)nargs;
	if (!load(m, args[0], "lhs", &s[0], d) || !load(m, args[1], "rhs", &s[1], d))
		return 0;
	if (!getint(field(attrs, rel_qnn_binary, "lhs_axis"), "lhs_axis", &axis[0], d) ||
	    !getint(field(attrs, rel_qnn_binary, "rhs_axis"), "rhs_axis", &axis[1], d))
		return 0;
	for (int k = 0; k < 2; k++) {
		TypeId scale = args[2 + 2 * k], zp = args[3 + 2 * k];
		int64_t len = 1, ax = axis[k];
		int r = s[k].rank;
		if (!isscalar(m, scale) || !isscalar(m, zp)) {
			/* TVM: the channel axis of a rank <= 1 operand is 0 */
			ax = r <= 1 ? 0 : (ax < 0 ? r + ax : ax);
			if (ax < 0 || ax >= (r > 0 ? r : 1))
				return ir_rel_error(d, "%s_axis %lld is out of range for %s of rank %d",
				                    names[k], LL(axis[k]), names[k], r);
			len = r > 0 ? s[k].d[ax] : 1;
		}
		if (!qparam(m, scale, names[2 + 2 * k], DT_FLOAT32, len, d) ||
		    !qparam(m, zp, names[3 + 2 * k], DT_INT32, len, d))
			return 0;
	}
	if (!qscalar(m, args[6], "output_scale", DT_FLOAT32, d) ||
	    !qscalar(m, args[7], "output_zero_point", DT_INT32, d))
		return 0;
	if (s[0].dt != s[1].dt)
		return ir_rel_error(d, "lhs is %s but rhs is %s", dtn(s[0].dt), dtn(s[1].dt));
	if (!bcast(&s[0], &s[1], "lhs", "rhs", &o, d))
		return 0;
	return make(m, &o);
}

/* Elementwise and annotation ops: the result has the type of the operand,
** which must be a tensor (TVM would accept anything here and fail later,
** when it computes the op). */
TypeId
rel_identity(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	(void)nargs;
	(void)attrs;
	if (ir_type(m, args[0])->kind != TY_TENSOR)
		return ir_rel_error(d, "data must be a tensor, not %s", kindn(m, args[0]));
	return args[0];
}

/* ir_rel_same: see ir.h */
TypeId
ir_rel_same(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	return nargs == 2 ? rel_broadcast(m, args, nargs, attrs, d) : rel_identity(m, args, nargs, attrs, d);
}

/* cast: data's shape in the dtype attribute. */
TypeId
rel_cast(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	Shape s;
	DType dt = getdt(field(attrs, rel_cast, "dtype"));

	(void)nargs;
	if (!load(m, args[0], "data", &s, d))
		return 0;
	if (dt == DT_VOID)
		return ir_rel_error(d, "dtype is required");
	s.dt = dt;
	return make(m, &s);
}

/* ---------------------------------------------------------------- convolution */

/* Conv: a 2-d convolution's output and the layout facts qnn needs. */
typedef struct Conv {
	Shape out;          /* in out_layout, dtype unset */
	int64_t oc;         /* output channels */
	int64_t groups;
	int64_t channels;   /* the channels attribute if hasch */
	int hasch;
	int c;              /* position of C in data_layout */
	int o, i;           /* positions of O and I in kernel_layout */
} Conv;

/* window: the extent (k - 1) * dl + 1 of a window of k taps dilated by dl
** into *w, and the padded input n + p less that extent into *num (both
** printed by badext); 0 after reporting an overflow */
static int
window(int64_t n, int64_t p, int64_t k, int64_t dl, int64_t *w, int64_t *num, Diag *d)
{
	int64_t t;

	if (!cksub(k, 1, &t) || !ckmul(t, dl, &t) || !ckadd(t, 1, w) ||
	    !ckadd(n, p, &t) || !cksub(t, *w, num))
		return toobig("the window arithmetic", d);
	return 1;
}

/* convdim: the output extent of a window of k taps dilated by dl, moved
** by stride s > 0 over n elements with p padding in all, into *out; ANY if
** unknown; 0 after reporting an overflow */
static int
convdim(int64_t n, int64_t p, int64_t k, int64_t dl, int64_t s, int64_t *out, Diag *d)
{
	int64_t w, num;

	if (n == ANY || k == ANY) {
		*out = ANY;
		return 1;
	}
	if (!window(n, p, k, dl, &w, &num, d))
		return 0;
	if (!ckadd(floordiv(num, s), 1, out))
		return toobig("the output extent", d);
	return 1;
}

/* badext: reports an output height or width that is not positive */
static int
badext(const char *which, int64_t ext, int64_t n, int64_t p, int64_t k, int64_t dl, int64_t s,
       Diag *d)
{
	ir_rel_error(d, "output %s would be %lld: padded %s %lld, dilated window %lld, stride %lld",
	             which, LL(ext), which, LL(n + p), LL((k - 1) * dl + 1), LL(s));
	return 0;
}

/* convolve: the shape of nn.conv2d of x by w under the attributes of a
** call with relation rel (nn.conv2d or qnn.conv2d), into cv */
static int
convolve(const Module *m, TypeRel *rel, const AttrVal *attrs, const Shape *x, const Shape *w,
         Conv *cv, Diag *d)
{
	const char *dl = getstr(m, field(attrs, rel, "data_layout"));
	const char *kl = getstr(m, field(attrs, rel, "kernel_layout"));
	const char *ol = getstr(m, field(attrs, rel, "out_layout"));
	const AttrVal *chv = field(attrs, rel, "channels");
	int dp[4], kp[4], op[4], nks;
	int64_t st[2], dil[2], ks[MAXDIMS], ph, pw, v[4], wd[4], xc, kh, kw;
	char b1[160], b2[160];

	if (!ir_layout_perm(dl, "NCHW", dp))
		return ir_rel_error(d, "data_layout \"%s\" is not a permutation of NCHW", dl);
	if (!ir_layout_perm(kl, "OIHW", kp))
		return ir_rel_error(d, "kernel_layout \"%s\" is not a permutation of OIHW", kl);
	if (!*ol)
		ol = dl;
	if (!ir_layout_perm(ol, "NCHW", op))
		return ir_rel_error(d, "out_layout \"%s\" is not a permutation of NCHW", ol);
	if (x->rank != 4)
		return ir_rel_error(d, "data has rank %d but data_layout %s needs 4", x->rank, dl);
	if (w->rank != 4)
		return ir_rel_error(d, "weight has rank %d but kernel_layout %s needs 4", w->rank, kl);
	if (!getpair(m, field(attrs, rel, "strides"), "strides", st, d) ||
	    !getpair(m, field(attrs, rel, "dilation"), "dilation", dil, d) ||
	    !getpad(m, field(attrs, rel, "padding"), "padding", &ph, &pw, d) ||
	    !getint(field(attrs, rel, "groups"), "groups", &cv->groups, d) ||
	    !getints(m, field(attrs, rel, "kernel_size"), "kernel_size", ks, MAXDIMS, &nks, d))
		return 0;
	if (cv->groups < 1)
		return ir_rel_error(d, "groups must be positive, not %lld", LL(cv->groups));
	if (nks >= 0 && nks != 2)
		return ir_rel_error(d, "kernel_size must have 2 values, not %d", nks);
	cv->hasch = chv->kind == AV_INT;
	cv->channels = cv->hasch ? chv->u.i : 0;
	cv->c = dp[1];
	cv->o = kp[0];
	cv->i = kp[1];
	for (int k = 0; k < 4; k++)
		wd[k] = w->d[kp[k]];            /* the weight in OIHW order */
	xc = x->d[dp[1]];
	if (nks == 2 && cv->hasch) {
		/* TVM derives the weight from channels and kernel_size */
		int64_t g = cv->groups, e[4], el[4];
		int dw = g > 1 && g == xc && g == wd[0];
		e[0] = dw ? xc : cv->channels;
		e[1] = dw ? cv->channels / xc : (xc == ANY ? ANY : xc / g);
		e[2] = ks[0];
		e[3] = ks[1];
		for (int k = 0; k < 4; k++)
			el[kp[k]] = e[k];
		for (int k = 0; k < 4; k++)
			if (!same(e[k], wd[k]))
				return ir_rel_error(d, "weight has shape %s but channels=%lld, kernel_size=[%lld, %lld] "
				                    "and groups=%lld need %s", SHAPESTR(w, b1), LL(cv->channels),
				                    LL(ks[0]), LL(ks[1]), LL(g), fmtdims(el, 4, b2, sizeof b2));
		cv->oc = cv->channels;
		kh = ks[0];
		kw = ks[1];
	} else {
		if (nks == 2 && (!same(ks[0], wd[2]) || !same(ks[1], wd[3])))
			return ir_rel_error(d, "kernel_size is [%lld, %lld] but weight has a %lldx%lld kernel",
			                    LL(ks[0]), LL(ks[1]), LL(wd[2]), LL(wd[3]));
		if (cv->hasch && !same(cv->channels, wd[0]))
			return ir_rel_error(d, "channels is %lld but weight has %lld output channels",
			                    LL(cv->channels), LL(wd[0]));
		if (xc != ANY && wd[1] != ANY && xc / cv->groups != wd[1])
			return ir_rel_error(d, "weight has %lld input channels but data has %lld (groups=%lld)",
			                    LL(wd[1]), LL(xc), LL(cv->groups));
		cv->oc = wd[0];
		kh = wd[2];
		kw = wd[3];
	}
	v[0] = x->d[dp[0]];
	v[1] = cv->oc;
	if (!convdim(x->d[dp[2]], ph, kh, dil[0], st[0], &v[2], d) ||
	    !convdim(x->d[dp[3]], pw, kw, dil[1], st[1], &v[3], d))
		return 0;
	if (v[2] != ANY && v[2] <= 0)
		return badext("height", v[2], x->d[dp[2]], ph, kh, dil[0], st[0], d);
	if (v[3] != ANY && v[3] <= 0)
		return badext("width", v[3], x->d[dp[3]], pw, kw, dil[1], st[1], d);
	cv->out.rank = 4;
	for (int k = 0; k < 4; k++)
		cv->out.d[op[k]] = v[k];
	return 1;
}

/* nn.conv2d(data, weight): out_dtype "" means data's dtype. */
TypeId
rel_conv2d(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	Shape x, w;
	Conv cv;
	DType dt = getdt(field(attrs, rel_conv2d, "out_dtype"));

	(void)nargs;
	if (!load(m, args[0], "data", &x, d) || !load(m, args[1], "weight", &w, d) ||
	    !convolve(m, rel_conv2d, attrs, &x, &w, &cv, d))
		return 0;
	cv.out.dt = dt == DT_VOID ? x.dt : dt;
	return make(m, &cv.out);
}

/* qnn.conv2d(data, weight, input_zero_point, kernel_zero_point,
** input_scale, kernel_scale): integer data and weight, scalar input
** parameters, kernel parameters scalar or per output channel; out_dtype
** "" means int32. */
TypeId
rel_qnn_conv2d(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	Shape x, w;
	Conv cv;
	DType dt = getdt(field(attrs, rel_qnn_conv2d, "out_dtype"));
	int64_t len;

	(void)nargs;
	if (!load(m, args[0], "data", &x, d) || !load(m, args[1], "weight", &w, d))
		return 0;
	if (!oneof(x.dt, 3, DT_INT8, DT_UINT8, DT_INT16))
		return ir_rel_error(d, "data must be int8, uint8 or int16, not %s", dtn(x.dt));
	if (!oneof(w.dt, 3, DT_INT8, DT_UINT8, DT_INT16))
		return ir_rel_error(d, "weight must be int8, uint8 or int16, not %s", dtn(w.dt));
	if (dt == DT_VOID)
		dt = DT_INT32;
	if (!oneof(dt, 3, DT_INT16, DT_INT32, DT_INT64))
		return ir_rel_error(d, "out_dtype must be int16, int32 or int64, not %s", dtn(dt));
	if (!qscalar(m, args[2], "input_zero_point", DT_INT32, d) ||
	    !qparam(m, args[3], "kernel_zero_point", DT_INT32, ANY, d) ||
	    !qscalar(m, args[4], "input_scale", DT_FLOAT32, d) ||
	    !convolve(m, rel_qnn_conv2d, attrs, &x, &w, &cv, d))
		return 0;
	/* the kernel scale runs along the output channels */
	if (cv.groups == 1)
		len = w.d[cv.o];
	else if (cv.hasch && cv.groups == x.d[cv.c] && cv.channels == w.d[cv.i])
	{
		if (w.d[cv.i] == ANY || w.d[cv.o] == ANY)
			len = ANY;
		else if (!ckmul(w.d[cv.i], w.d[cv.o], &len))
			return toobig("the number of output channels", d);
	}
	else
		len = cv.oc;
	if (!qparam(m, args[5], "kernel_scale", DT_FLOAT32, len, d))
		return 0;
	cv.out.dt = dt;
	return make(m, &cv.out);
}

/* deconvolve: the shape of nn.conv2d_transpose of x by w under the
** attributes of a call with relation rel (nn.conv2d_transpose or
** qnn.conv2d_transpose), into cv; the weight is IOHW by default and
** out = stride * (in - 1) + dilated kernel - padding + output_padding */
static int
deconvolve(const Module *m, TypeRel *rel, const AttrVal *attrs, const Shape *x, const Shape *w,
           Conv *cv, Diag *d)
{
	const char *dl = getstr(m, field(attrs, rel, "data_layout"));
	const char *kl = getstr(m, field(attrs, rel, "kernel_layout"));
	const char *ol = getstr(m, field(attrs, rel, "out_layout"));
	const AttrVal *chv = field(attrs, rel, "channels");
	int dp[4], kp[4], op[4], nks, nop;
	int64_t st[2], dil[2], opad[MAXDIMS], ks[MAXDIMS], ph, pw, g, v[4], wd[4], xc, kh, kw, ch;
	char b1[160], b2[160];

	if (!ir_layout_perm(dl, "NCHW", dp))
		return ir_rel_error(d, "data_layout \"%s\" is not a permutation of NCHW", dl);
	if (!ir_layout_perm(kl, "IOHW", kp))
		return ir_rel_error(d, "kernel_layout \"%s\" is not a permutation of IOHW", kl);
	if (!*ol)
		ol = dl;
	if (!ir_layout_perm(ol, "NCHW", op))
		return ir_rel_error(d, "out_layout \"%s\" is not a permutation of NCHW", ol);
	if (x->rank != 4)
		return ir_rel_error(d, "data has rank %d but data_layout %s needs 4", x->rank, dl);
	if (w->rank != 4)
		return ir_rel_error(d, "weight has rank %d but kernel_layout %s needs 4", w->rank, kl);
	if (!getpair(m, field(attrs, rel, "strides"), "strides", st, d) ||
	    !getpair(m, field(attrs, rel, "dilation"), "dilation", dil, d) ||
	    !getpad(m, field(attrs, rel, "padding"), "padding", &ph, &pw, d) ||
	    !getint(field(attrs, rel, "groups"), "groups", &g, d) ||
	    !getints(m, field(attrs, rel, "output_padding"), "output_padding", opad, MAXDIMS, &nop, d) ||
	    !getints(m, field(attrs, rel, "kernel_size"), "kernel_size", ks, MAXDIMS, &nks, d))
		return 0;
	if (g < 1)
		return ir_rel_error(d, "groups must be positive, not %lld", LL(g));
	if (nop < 0)
		return ir_rel_error(d, "output_padding is required");
	if (nop != 2)
		return ir_rel_error(d, "output_padding must have 2 values, not %d", nop);
	if (nks >= 0 && nks != 2)
		return ir_rel_error(d, "kernel_size must have 2 values, not %d", nks);
	cv->groups = g;
	cv->hasch = chv->kind == AV_INT;
	cv->channels = ch = cv->hasch ? chv->u.i : 0;
	cv->c = dp[1];
	cv->i = kp[0];
	cv->o = kp[1];
	for (int k = 0; k < 4; k++)
		wd[k] = w->d[kp[k]];            /* the weight in IOHW order */
	xc = x->d[dp[1]];
	if (nks == 2 && cv->hasch) {
		int64_t e[4] = { xc, ch / g, ks[0], ks[1] }, el[4];
		for (int k = 0; k < 4; k++)
			el[kp[k]] = e[k];
		for (int k = 0; k < 4; k++)
			if (!same(e[k], wd[k]))
				return ir_rel_error(d, "weight has shape %s but channels=%lld, kernel_size=[%lld, %lld] "
				                    "and groups=%lld need %s", SHAPESTR(w, b1), LL(ch), LL(ks[0]),
				                    LL(ks[1]), LL(g), fmtdims(el, 4, b2, sizeof b2));
		cv->oc = ch;
		kh = ks[0];
		kw = ks[1];
	} else {
		if (nks == 2 && (!same(ks[0], wd[2]) || !same(ks[1], wd[3])))
			return ir_rel_error(d, "kernel_size is [%lld, %lld] but weight has a %lldx%lld kernel",
			                    LL(ks[0]), LL(ks[1]), LL(wd[2]), LL(wd[3]));
		if (cv->hasch && !same(ch / g, wd[1]))
			return ir_rel_error(d, "channels is %lld but weight has %lld output channels per group "
			                    "(groups=%lld)", LL(ch), LL(wd[1]), LL(g));
		if (!same(xc, wd[0]))
			return ir_rel_error(d, "weight has %lld input channels but data has %lld",
			                    LL(wd[0]), LL(xc));
		/* as in TVM, the channels of one group */
		cv->oc = wd[1];
		kh = wd[2];
		kw = wd[3];
	}
	v[0] = x->d[dp[0]];
	v[1] = cv->oc;
	for (int k = 0; k < 2; k++) {
		int64_t n = x->d[dp[2 + k]], kk = k ? kw : kh, p = k ? pw : ph;
		int64_t t, win;
		if (n == ANY || kk == ANY)
			v[2 + k] = ANY;
		else if (!cksub(n, 1, &t) || !ckmul(st[k], t, &t) ||
		         !cksub(kk, 1, &win) || !ckmul(win, dil[k], &win) || !ckadd(t, win, &t) ||
		         !ckadd(t, 1, &t) || !cksub(t, p, &t) || !ckadd(t, opad[k], &v[2 + k]))
			return toobig(k ? "the output width" : "the output height", d);
		if (v[2 + k] != ANY && v[2 + k] <= 0)
			return ir_rel_error(d, "output %s would be %lld", k ? "width" : "height", LL(v[2 + k]));
	}
	cv->out.rank = 4;
	for (int k = 0; k < 4; k++)
		cv->out.d[op[k]] = v[k];
	return 1;
}

/* nn.conv2d_transpose(data, weight): out_dtype "" means data's dtype. */
TypeId
rel_conv2d_transpose(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	Shape x, w;
	Conv cv;
	DType dt = getdt(field(attrs, rel_conv2d_transpose, "out_dtype"));

	(void)nargs;
	if (!load(m, args[0], "data", &x, d) || !load(m, args[1], "weight", &w, d) ||
	    !deconvolve(m, rel_conv2d_transpose, attrs, &x, &w, &cv, d))
		return 0;
	cv.out.dt = dt == DT_VOID ? x.dt : dt;
	return make(m, &cv.out);
}

/* qnn.conv2d_transpose(data, weight, input_zero_point, kernel_zero_point,
** input_scale, kernel_scale): integer data and weight; the input
** parameters are scalars or of shape (1), the kernel zero point is int32
** of any length, the kernel scale scalar or one per output channel (of all
** groups); out_dtype "" means int32, as for qnn.conv2d. */
TypeId
rel_qnn_conv2d_transpose(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	Shape x, w;
	Conv cv;
	DType dt = getdt(field(attrs, rel_qnn_conv2d_transpose, "out_dtype"));
	int64_t len;

	(void)nargs;
	if (!load(m, args[0], "data", &x, d) || !load(m, args[1], "weight", &w, d))
		return 0;
	if (!oneof(x.dt, 4, DT_INT8, DT_UINT8, DT_INT16, DT_UINT16))
		return ir_rel_error(d, "data must be int8, uint8, int16 or uint16, not %s", dtn(x.dt));
	if (!oneof(w.dt, 2, DT_INT8, DT_UINT8))
		return ir_rel_error(d, "weight must be int8 or uint8, not %s", dtn(w.dt));
	if (dt == DT_VOID)
		dt = DT_INT32;
	if (!oneof(dt, 2, DT_INT16, DT_INT32))
		return ir_rel_error(d, "out_dtype must be int16 or int32, not %s", dtn(dt));
	if (!qparam(m, args[2], "input_zero_point", DT_INT32, 1, d) ||
	    !qparam(m, args[3], "kernel_zero_point", DT_INT32, ANY, d) ||
	    !qparam(m, args[4], "input_scale", DT_FLOAT32, 1, d) ||
	    !deconvolve(m, rel_qnn_conv2d_transpose, attrs, &x, &w, &cv, d))
		return 0;
	/* as in TVM: O of the weight, times I when grouped */
	if (cv.groups == 1)
		len = w.d[cv.o];
	else if (w.d[cv.i] == ANY || w.d[cv.o] == ANY)
		len = ANY;
	else if (!ckmul(w.d[cv.i], w.d[cv.o], &len))
		return toobig("the number of output channels", d);
	if (!qparam(m, args[5], "kernel_scale", DT_FLOAT32, len, d))
		return 0;
	cv.out.dt = dt;
	return make(m, &cv.out);
}

/* ---------------------------------------------------------------- matrix products */

/* matmul: the shape of nn.dense of x, (..., K), by w, (N, K), under the
** attributes of a call with relation rel, into o */
static int
matmul(TypeRel *rel, const AttrVal *attrs, const Shape *x, const Shape *w, Shape *o, Diag *d)
{
	const AttrVal *u = field(attrs, rel, "units");
	int64_t k;
	char b1[160], b2[160];

	if (x->rank < 1)
		return ir_rel_error(d, "data must have rank at least 1");
	k = x->d[x->rank - 1];
	*o = *x;
	if (u->kind == AV_INT) {
		int64_t want[2] = { u->u.i, k };
		if (w->rank != 2 || !same(w->d[0], want[0]) || !same(w->d[1], want[1]))
			return ir_rel_error(d, "weight has shape %s but units=%lld and data need %s",
			                    SHAPESTR(w, b1), LL(u->u.i), fmtdims(want, 2, b2, sizeof b2));
		o->d[o->rank - 1] = u->u.i;
		return 1;
	}
	if (w->rank != 2)
		return ir_rel_error(d, "weight must have rank 2, not %d", w->rank);
	if (!same(w->d[1], k))
		return ir_rel_error(d, "weight has %lld input features but data has %lld",
		                    LL(w->d[1]), LL(k));
	o->d[o->rank - 1] = w->d[0];
	return 1;
}

/* nn.dense(data, weight): (..., K) x (N, K) -> (..., N). */
TypeId
rel_dense(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	Shape x, w, o;
	DType dt = getdt(field(attrs, rel_dense, "out_dtype"));

	(void)nargs;
	if (!load(m, args[0], "data", &x, d) || !load(m, args[1], "weight", &w, d) ||
	    !matmul(rel_dense, attrs, &x, &w, &o, d))
		return 0;
	o.dt = dt == DT_VOID ? x.dt : dt;
	return make(m, &o);
}

/* qnn.dense(data, weight, input_zero_point, kernel_zero_point,
** input_scale, kernel_scale): as nn.dense on integers, the kernel scale
** scalar or per unit; out_dtype "" means int32. */
TypeId
rel_qnn_dense(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	Shape x, w, o;
	DType dt = getdt(field(attrs, rel_qnn_dense, "out_dtype"));

	(void)nargs;
	if (!load(m, args[0], "data", &x, d) || !load(m, args[1], "weight", &w, d))
		return 0;
	if (!oneof(x.dt, 4, DT_INT8, DT_UINT8, DT_INT16, DT_UINT16))
		return ir_rel_error(d, "data must be int8, uint8, int16 or uint16, not %s", dtn(x.dt));
	if (!oneof(w.dt, 2, DT_INT8, DT_UINT8))
		return ir_rel_error(d, "weight must be int8 or uint8, not %s", dtn(w.dt));
	if (dt == DT_VOID)
		dt = DT_INT32;
	if (!oneof(dt, 2, DT_INT32, DT_INT64))
		return ir_rel_error(d, "out_dtype must be int32 or int64, not %s", dtn(dt));
	if (!qscalar(m, args[2], "input_zero_point", DT_INT32, d) ||
	    !qparam(m, args[3], "kernel_zero_point", DT_INT32, ANY, d) ||
	    !qscalar(m, args[4], "input_scale", DT_FLOAT32, d) ||
	    !matmul(rel_qnn_dense, attrs, &x, &w, &o, d) ||
	    !qparam(m, args[5], "kernel_scale", DT_FLOAT32, o.d[o.rank - 1], d))
		return 0;
	o.dt = dt;
	return make(m, &o);
}

/* nn.batch_matmul(tensor_a, tensor_b): (B, I, K) x (B, J, K) -> (B, I, J)
** with transpose_b, the batch broadcast when one side is 1. */
TypeId
rel_batch_matmul(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	Shape a, b, o;
	DType dt = getdt(field(attrs, rel_batch_matmul, "out_dtype"));
	int ta = getbool(field(attrs, rel_batch_matmul, "transpose_a"));
	int tb = getbool(field(attrs, rel_batch_matmul, "transpose_b"));
	int64_t ab, ai, ak, bb, bk, bj;

	(void)nargs;
	if (!load(m, args[0], "tensor_a", &a, d) || !load(m, args[1], "tensor_b", &b, d))
		return 0;
	if (a.rank != 3)
		return ir_rel_error(d, "tensor_a must have rank 3, not %d", a.rank);
	if (b.rank != 3)
		return ir_rel_error(d, "tensor_b must have rank 3, not %d", b.rank);
	ab = a.d[0];
	ai = a.d[ta ? 2 : 1];
	ak = a.d[ta ? 1 : 2];
	bb = b.d[0];
	bk = b.d[tb ? 2 : 1];
	bj = b.d[tb ? 1 : 2];
	if (ab != ANY && bb != ANY && ab != bb && ab != 1 && bb != 1)
		return ir_rel_error(d, "batch sizes %lld and %lld do not broadcast", LL(ab), LL(bb));
	if (!same(ak, bk))
		return ir_rel_error(d, "tensor_a has reduction size %lld but tensor_b has %lld "
		                    "(transpose_a=%s, transpose_b=%s)", LL(ak), LL(bk),
		                    ta ? "True" : "False", tb ? "True" : "False");
	o.dt = dt == DT_VOID ? a.dt : dt;
	o.rank = 3;
	o.d[0] = ab == ANY || bb == ANY ? ANY : (ab > bb ? ab : bb);
	o.d[1] = ai;
	o.d[2] = bj;
	return make(m, &o);
}

/* nn.bias_add(data, bias): bias is a vector along axis of data's dtype. */
TypeId
rel_bias_add(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	Shape x, b;
	int64_t axis, ax;
	char buf[160];

	(void)nargs;
	if (!load(m, args[0], "data", &x, d) || !load(m, args[1], "bias", &b, d) ||
	    !getint(field(attrs, rel_bias_add, "axis"), "axis", &axis, d))
		return 0;
	ax = axis;
	if (!normaxis(&ax, x.rank))
		return ir_rel_error(d, "axis %lld is out of range for data of rank %d", LL(axis), x.rank);
	if (b.rank != 1 || !same(b.d[0], x.d[ax]))
		return ir_rel_error(d, "bias has shape %s but data has %lld channels at axis %lld",
		                    SHAPESTR(&b, buf), LL(x.d[ax]), LL(axis));
	if (b.dt != x.dt)
		return ir_rel_error(d, "bias is %s but data is %s", dtn(b.dt), dtn(x.dt));
	return args[0];
}

/* normdata: the data (args[0]) of a normalization whose other n - 1
** operands, called names[1..n), are vectors of data's channels at axis in
** data's dtype, into *x with axis made positive in *ax; 0 after an error */
static int
normdata(Module *m, const TypeId *args, int n, const char *const *names, const AttrVal *axisv, Shape *x,
         int64_t *ax, Diag *d)
{
	Shape v;
	int64_t axis;
	char buf[160];

	if (!load(m, args[0], "data", x, d) || !getint(axisv, "axis", &axis, d))
		return 0;
	*ax = axis;
	if (!normaxis(ax, x->rank))
		return ir_rel_error(d, "axis %lld is out of range for data of rank %d", LL(axis), x->rank);
	for (int i = 1; i < n; i++) {
		if (!load(m, args[i], names[i], &v, d))
			return 0;
		if (v.rank != 1 || !same(v.d[0], x->d[*ax]))
			return ir_rel_error(d, "%s has shape %s but data has %lld channels at axis %lld", names[i],
			                    SHAPESTR(&v, buf), LL(x->d[*ax]), LL(axis));
		if (v.dt != x->dt)
			return ir_rel_error(d, "%s is %s but data is %s", names[i], dtn(v.dt), dtn(x->dt));
	}
	return 1;
}

/* nn.batch_norm(data, gamma, beta, moving_mean, moving_var): data's
** type, and the two statistics' (vectors of the channels at axis), as a
** tuple */
TypeId
rel_batch_norm(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	static const char *const names[] = { "data", "gamma", "beta", "moving_mean", "moving_var" };
	Shape x;
	int64_t ax;
	TypeId f[3];

	(void)nargs;
	if (!normdata(m, args, 5, names, field(attrs, rel_batch_norm, "axis"), &x, &ax, d))
		return 0;
	f[0] = args[0];
	f[1] = args[3];
	f[2] = args[4];
	return ir_type_tuple(m, 3, f);
}

/* The operands of nn.layer_norm, nn.group_norm and nn.instance_norm. */
static const char *const normnames[] = { "data", "gamma", "beta" };

/* nn.layer_norm, nn.instance_norm(data, gamma, beta): data's type (TVM's
** LayerNormRel, InstanceNormRel) */
TypeId
rel_norm(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	Shape x;
	int64_t ax;

	(void)nargs;
	if (!normdata(m, args, 3, normnames, field(attrs, rel_norm, "axis"), &x, &ax, d))
		return 0;
	return args[0];
}

/* nn.group_norm(data, gamma, beta): data's type, num_groups dividing the
** channels at axis (TVM's GroupNormRel, which leaves that to the
** lowering) */
TypeId
rel_group_norm(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	Shape x;
	int64_t ax, g;

	(void)nargs;
	if (!normdata(m, args, 3, normnames, field(attrs, rel_group_norm, "axis"), &x, &ax, d) ||
	    !getint(field(attrs, rel_group_norm, "num_groups"), "num_groups", &g, d))
		return 0;
	if (g < 1)
		return ir_rel_error(d, "num_groups must be positive, not %lld", LL(g));
	if (x.d[ax] != ANY && x.d[ax] % g)
		return ir_rel_error(d, "num_groups %lld does not divide the %lld channels of data at axis %lld", LL(g),
		                    LL(x.d[ax]), LL(field(attrs, rel_group_norm, "axis")->u.i));
	return args[0];
}

/* ---------------------------------------------------------------- pooling and shape ops */

/* nn.max_pool2d, nn.avg_pool2d(data): H and W of layout shrink as
** (in + padding - dilated window (+ stride - 1 with ceil_mode)) / stride + 1,
** the division truncating as in TVM. */
TypeId
rel_pool2d(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	Shape x;
	int64_t ps[2], st[2], dil[2], pad[2];
	int pos[2];
	int ceil = getbool(field(attrs, rel_pool2d, "ceil_mode"));

	(void)nargs;
	if (!load(m, args[0], "data", &x, d))
		return 0;
	if (x.rank < 2)
		return ir_rel_error(d, "data must have rank at least 2, not %d", x.rank);
	if (!hwof(getstr(m, field(attrs, rel_pool2d, "layout")), &x, &pos[0], &pos[1], d) ||
	    !getpair(m, field(attrs, rel_pool2d, "pool_size"), "pool_size", ps, d) ||
	    !getpair(m, field(attrs, rel_pool2d, "strides"), "strides", st, d) ||
	    !getpair(m, field(attrs, rel_pool2d, "dilation"), "dilation", dil, d) ||
	    !getpad(m, field(attrs, rel_pool2d, "padding"), "padding", &pad[0], &pad[1], d))
		return 0;
	for (int k = 0; k < 2; k++) {
		int64_t n = x.d[pos[k]], num, ext;
		if (n == ANY)
			continue;
		int64_t w;
		if (!window(n, pad[k], ps[k], dil[k], &w, &num, d))
			return 0;
		if (ceil && !ckadd(num, st[k] - 1, &num))
			return toobig("the window arithmetic", d);
		if (!ckadd(num / st[k], 1, &ext))
			return toobig("the output extent", d);
		if (ext <= 0)
			return badext(k ? "width" : "height", ext, n, pad[k], ps[k], dil[k], st[k], d);
		x.d[pos[k]] = ext;
	}
	return make(m, &x);
}

/* nn.global_avg_pool2d(data): H and W of layout become 1. */
TypeId
rel_global_pool2d(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	Shape x;
	int hi, wi;

	(void)nargs;
	if (!load(m, args[0], "data", &x, d))
		return 0;
	if (x.rank < 2)
		return ir_rel_error(d, "data must have rank at least 2, not %d", x.rank);
	if (!hwof(getstr(m, field(attrs, rel_global_pool2d, "layout")), &x, &hi, &wi, d))
		return 0;
	x.d[hi] = x.d[wi] = 1;
	return make(m, &x);
}

/* nn.batch_flatten(data): (d0, d1 * d2 * ...). */
TypeId
rel_batch_flatten(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	Shape x;
	int64_t p = 1;

	(void)nargs;
	(void)attrs;
	if (!load(m, args[0], "data", &x, d))
		return 0;
	if (x.rank < 1)
		return ir_rel_error(d, "data must have rank at least 1");
	for (int i = 1; i < x.rank && p != ANY; i++) {
		if (x.d[i] == ANY)
			p = ANY;
		else if (!ckmul(p, x.d[i], &p))
			return toobig("the flattened size", d);
	}
	x.d[1] = p;
	x.rank = 2;
	return make(m, &x);
}

/* nn.pad(data, pad_value): each axis grows by its pad_width pair; the pad
** value is a scalar of any dtype (TVM casts it). */
TypeId
rel_pad(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	const AttrVal *pw = field(attrs, rel_pad, "pad_width");
	const char *mode = getstr(m, field(attrs, rel_pad, "pad_mode"));
	Shape x, v;
	char buf[160];

	(void)nargs;
	if (!load(m, args[0], "data", &x, d) || !load(m, args[1], "pad_value", &v, d))
		return 0;
	if (v.rank != 0)
		return ir_rel_error(d, "pad_value must be a scalar, not %s", SHAPESTR(&v, buf));
	if (strcmp(mode, "constant") != 0 && strcmp(mode, "edge") != 0 && strcmp(mode, "reflect") != 0)
		return ir_rel_error(d, "pad_mode must be \"constant\", \"edge\" or \"reflect\", not \"%s\"", mode);
	if (pw->kind != AV_ARRAY)
		return ir_rel_error(d, "pad_width is required");
	if (pw->n != (uint32_t)x.rank)
		return ir_rel_error(d, "pad_width has %u entries but data has rank %d", pw->n, x.rank);
	for (int i = 0; i < x.rank; i++) {
		const AttrVal *e = &m->attrs[pw->first + (uint32_t)i];
		int64_t lo, hi;
		if (e->kind != AV_ARRAY || e->n != 2)
			return ir_rel_error(d, "pad_width entry %d must be a pair of integers", i);
		if (m->attrs[e->first].kind != AV_INT || m->attrs[e->first + 1].kind != AV_INT)
			return ir_rel_error(d, "pad_width entry %d must be a pair of integers", i);
		lo = m->attrs[e->first].u.i;
		hi = m->attrs[e->first + 1].u.i;
		int64_t n;
		if (x.d[i] == ANY)
			continue;
		if (!ckadd(x.d[i], lo, &n) || !ckadd(n, hi, &n))
			return toobig("the padded size", d);
		if (n < 0)
			return ir_rel_error(d, "padding axis %d of size %lld by [%lld, %lld] leaves %lld elements",
			                    i, LL(x.d[i]), LL(lo), LL(hi), LL(n));
		x.d[i] = n;
	}
	return make(m, &x);
}

/* nn.depth_to_space(data): C shrinks by block_size squared, H and W grow
** by block_size, in a permutation of NCHW.  TVM floors the division of C;
** here C must be a multiple, as the op would otherwise drop channels. */
TypeId
rel_depth_to_space(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	const char *layout = getstr(m, field(attrs, rel_depth_to_space, "layout"));
	const char *mode = getstr(m, field(attrs, rel_depth_to_space, "mode"));
	Shape x;
	int pos[4];
	int64_t b, bb;

	(void)nargs;
	if (!load(m, args[0], "data", &x, d) ||
	    !getint(field(attrs, rel_depth_to_space, "block_size"), "block_size", &b, d) ||
	    !nchw(layout, "layout", &x, pos, d))
		return 0;
	if (strcmp(mode, "DCR") != 0 && strcmp(mode, "CDR") != 0)
		return ir_rel_error(d, "mode must be \"DCR\" or \"CDR\", not \"%s\"", mode);
	if (b < 1)
		return ir_rel_error(d, "block_size must be positive, not %lld", LL(b));
	if (!ckmul(b, b, &bb))
		return toobig("block_size squared", d);
	if (x.d[pos[1]] != ANY) {
		if (x.d[pos[1]] % bb != 0)
			return ir_rel_error(d, "data has %lld channels, not a multiple of block_size %lld squared",
			                    LL(x.d[pos[1]]), LL(b));
		x.d[pos[1]] /= bb;
	}
	for (int k = 2; k < 4; k++)
		if (x.d[pos[k]] != ANY && !ckmul(x.d[pos[k]], b, &x.d[pos[k]]))
			return toobig(k == 2 ? "the output height" : "the output width", d);
	return make(m, &x);
}

/* image.resize2d(data): H and W of layout, a permutation of NCHW, become
** size; roi has 4 values; out_dtype "" means data's dtype.  Of the string
** attributes only method is checked, since TVM computes by it alone. */
TypeId
rel_resize2d(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	const char *layout = getstr(m, field(attrs, rel_resize2d, "layout"));
	const char *method = getstr(m, field(attrs, rel_resize2d, "method"));
	const AttrVal *roi = field(attrs, rel_resize2d, "roi");
	DType dt = getdt(field(attrs, rel_resize2d, "out_dtype"));
	Shape x;
	int pos[4];
	int64_t size[2];

	(void)nargs;
	if (!load(m, args[0], "data", &x, d) ||
	    !nchw(layout, "layout", &x, pos, d) ||
	    !getpair(m, field(attrs, rel_resize2d, "size"), "size", size, d))
		return 0;
	if (roi->kind != AV_ARRAY)
		return ir_rel_error(d, "roi is required");
	if (roi->n != 4)
		return ir_rel_error(d, "roi must have 4 values, not %u", roi->n);
	if (strcmp(method, "nearest_neighbor") != 0 && strcmp(method, "linear") != 0 &&
	    strcmp(method, "cubic") != 0)
		return ir_rel_error(d, "method must be \"nearest_neighbor\", \"linear\" or \"cubic\", "
		                    "not \"%s\"", method);
	x.d[pos[2]] = size[0];
	x.d[pos[3]] = size[1];
	if (dt != DT_VOID)
		x.dt = dt;
	return make(m, &x);
}

/* concat: the concatenation along axis of the tensors in tuple t, called
** name, into o; unknown dims along other axes yield to known ones only
** when the result is unknown along axis, as in TVM */
static int
concat(const Module *m, TypeId t, const char *name, int64_t axis, Shape *o, Diag *d)
{
	const Type *tt = ir_type(m, t);
	int64_t known[MAXDIMS], ax = axis;
	uint32_t from[MAXDIMS];
	int nany[MAXDIMS] = { 0 };
	char what[64];
	Shape f;

	if (tt->kind != TY_TUPLE)
		return ir_rel_error(d, "%s must be a tuple of tensors, not %s", name, kindn(m, t));
	if (tt->n == 0)
		return ir_rel_error(d, "%s is an empty tuple", name);
	for (uint32_t i = 0; i < tt->n; i++) {
		snprintf(what, sizeof what, "field %u of %s", i, name);
		if (!load(m, m->tylist[tt->first + i], what, &f, d))
			return 0;
		if (i == 0) {
			*o = f;
			if (!normaxis(&ax, f.rank))
				return ir_rel_error(d, "axis %lld is out of range for tensors of rank %d",
				                    LL(axis), f.rank);
			for (int j = 0; j < f.rank; j++) {
				known[j] = f.d[j];
				from[j] = 0;
				nany[j] = f.d[j] == ANY;
			}
			continue;
		}
		if (f.rank != o->rank)
			return ir_rel_error(d, "%s has rank %d but field 0 has rank %d", what, f.rank, o->rank);
		if (f.dt != o->dt)
			return ir_rel_error(d, "%s is %s but field 0 is %s", what, dtn(f.dt), dtn(o->dt));
		for (int j = 0; j < f.rank; j++) {
			if (j == ax) {
				if (o->d[j] == ANY || f.d[j] == ANY)
					o->d[j] = ANY;
				else if (!ckadd(o->d[j], f.d[j], &o->d[j]))
					return toobig("the concatenated size", d);
			} else if (f.d[j] == ANY) {
				nany[j]++;
			} else if (known[j] == ANY) {
				known[j] = f.d[j];
				from[j] = i;
			} else if (known[j] != f.d[j]) {
				return ir_rel_error(d, "%s has %lld at axis %d but field %u has %lld",
				                    what, LL(f.d[j]), j, from[j], LL(known[j]));
			}
		}
	}
	for (int j = 0; j < o->rank; j++)
		if (j != ax)
			o->d[j] = nany[j] == 0 || o->d[ax] == ANY ? known[j] : ANY;
	return 1;
}

/* concatenate(data): data is a tuple of tensors of one dtype and rank. */
TypeId
rel_concatenate(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	Shape o;
	int64_t axis;

	(void)nargs;
	if (!getint(field(attrs, rel_concatenate, "axis"), "axis", &axis, d) ||
	    !concat(m, args[0], "data", axis, &o, d))
		return 0;
	return make(m, &o);
}

/* qnn.concatenate(data, input_scales, input_zero_points, output_scale,
** output_zero_point): scalar parameters, one per tensor of data. */
TypeId
rel_qnn_concatenate(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	Shape o;
	int64_t axis;

	(void)nargs;
	if (!getint(field(attrs, rel_qnn_concatenate, "axis"), "axis", &axis, d) ||
	    !concat(m, args[0], "data", axis, &o, d))
		return 0;
	if (!qtuple(m, args[1], "input_scales", DT_FLOAT32, ir_type(m, args[0])->n, d) ||
	    !qtuple(m, args[2], "input_zero_points", DT_INT32, ir_type(m, args[0])->n, d) ||
	    !qscalar(m, args[3], "output_scale", DT_FLOAT32, d) ||
	    !qscalar(m, args[4], "output_zero_point", DT_INT32, d))
		return 0;
	return make(m, &o);
}

/* expand_dims(data): num_newaxis 1s inserted at axis, in [-rank-1, rank]. */
TypeId
rel_expand_dims(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	Shape x, o;
	int64_t axis, n, pivot;

	(void)nargs;
	if (!load(m, args[0], "data", &x, d) ||
	    !getint(field(attrs, rel_expand_dims, "axis"), "axis", &axis, d) ||
	    !getint(field(attrs, rel_expand_dims, "num_newaxis"), "num_newaxis", &n, d))
		return 0;
	if (n < 0)
		return ir_rel_error(d, "num_newaxis must not be negative, not %lld", LL(n));
	if (axis < -x.rank - 1 || axis > x.rank)
		return ir_rel_error(d, "axis %lld is out of range [%d, %d] for data of rank %d",
		                    LL(axis), -x.rank - 1, x.rank, x.rank);
	if (n > MAXDIMS - x.rank)
		return ir_rel_error(d, "the result would have rank %llu; at most %d dimensions are supported",
		                    (unsigned long long)x.rank + (unsigned long long)n, MAXDIMS);
	pivot = axis < 0 ? x.rank + axis + 1 : axis;
	o.dt = x.dt;
	o.rank = 0;
	for (int i = 0; i < pivot; i++)
		o.d[o.rank++] = x.d[i];
	for (int64_t i = 0; i < n; i++)
		o.d[o.rank++] = 1;
	for (int64_t i = pivot; i < x.rank; i++)
		o.d[o.rank++] = x.d[i];
	return make(m, &o);
}

/* cumsum, cumprod (TVM's ScanopRel): data's shape, or its size as one
** axis when axis is None; in dtype, or data's when dtype is "". */
TypeId
rel_scan(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	Shape x;
	const AttrVal *av = field(attrs, rel_scan, "axis");
	DType dt = getdt(field(attrs, rel_scan, "dtype"));
	int64_t axis, n = 1;

	(void)nargs;
	if (!load(m, args[0], "data", &x, d))
		return 0;
	if (av->kind == AV_NONE) {
		for (int k = 0; k < x.rank && n != ANY; k++)
			if (x.d[k] == ANY)
				n = ANY;
			else if (!ckmul(n, x.d[k], &n))
				return toobig("the size of data", d);
		x.rank = 1;
		x.d[0] = n;
	} else {
		if (!getint(av, "axis", &axis, d))
			return 0;
		if (!normaxis(&axis, x.rank))
			return ir_rel_error(d, "axis %lld is out of range for data of rank %d", LL(av->u.i), x.rank);
	}
	if (dt != DT_VOID)
		x.dt = dt;
	return make(m, &x);
}

/* mean(data): axis None or [] reduces every axis; exclude reduces the
** others; keepdims leaves reduced axes as 1. */
TypeId
rel_reduce(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	Shape x, o;
	int64_t ax[MAXDIMS];
	int n, red[MAXDIMS] = { 0 };
	int keep = getbool(field(attrs, rel_reduce, "keepdims"));
	int excl = getbool(field(attrs, rel_reduce, "exclude"));

	(void)nargs;
	if (!load(m, args[0], "data", &x, d) ||
	    !getints(m, field(attrs, rel_reduce, "axis"), "axis", ax, MAXDIMS, &n, d))
		return 0;
	for (int i = 0; i < n; i++) {
		int64_t a = ax[i];
		if (!normaxis(&a, x.rank))
			return ir_rel_error(d, "axis %lld is out of range for data of rank %d", LL(ax[i]), x.rank);
		if (red[a])
			return ir_rel_error(d, "axis %lld is listed twice", LL(ax[i]));
		red[a] = 1;
	}
	for (int i = 0; i < x.rank; i++)
		red[i] = n <= 0 ? 1 : (excl ? !red[i] : red[i]);
	o.dt = x.dt;
	o.rank = 0;
	for (int i = 0; i < x.rank; i++)
		if (!red[i])
			o.d[o.rank++] = x.d[i];
		else if (keep)
			o.d[o.rank++] = 1;
	return make(m, &o);
}

/* argmax, argmin: reduce's shape, int32. */
TypeId
rel_argreduce(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	return retyped(m, rel_reduce(m, args, nargs, attrs, d), DT_INT32, d);
}

/* push: appends v to o, which must have room */
static int
push(Shape *o, int64_t v, Diag *d)
{
	if (o->rank == MAXDIMS) {
		ir_rel_error(d, "newshape gives more than %d dimensions", MAXDIMS);
		return 0;
	}
	o->d[o->rank++] = v;
	return 1;
}

/* reshape(data): newshape with TVM's special values: 0 copies a dim (a
** literal 0 with allowzero), -1 infers one dim, -2 copies the rest, -3
** merges two dims, -4 splits one into the next two values. */
TypeId
rel_reshape(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	Shape x, o;
	int64_t ns[4 * MAXDIMS], ni, no = 1;
	int n, src = 0, infer = -1, uin[MAXDIMS] = { 0 }, uout[MAXDIMS] = { 0 };
	int zero = getbool(field(attrs, rel_reshape, "allowzero"));
	char b1[160], b2[160];

	(void)nargs;
	if (!load(m, args[0], "data", &x, d) ||
	    !getints(m, field(attrs, rel_reshape, "newshape"), "newshape", ns, 4 * MAXDIMS, &n, d))
		return 0;
	if (n < 0)
		return ir_rel_error(d, "newshape is required");
	o.dt = x.dt;
	o.rank = 0;
	for (int i = 0; i < n; i++) {
		int64_t v = ns[i];
		if (v > 0 || (v == 0 && zero)) {
			if (!push(&o, v, d))
				return 0;
			src++;
		} else if (v == 0) {
			if (src >= x.rank)
				return ir_rel_error(d, "newshape has 0 at position %d but data has only %d dimensions",
				                    i, x.rank);
			uin[src] = 1;
			uout[o.rank] = 1;
			if (!push(&o, x.d[src++], d))
				return 0;
		} else if (v == -1) {
			if (infer >= 0)
				return ir_rel_error(d, "newshape has more than one -1");
			infer = o.rank;
			if (!push(&o, 1, d))
				return 0;
			src++;
		} else if (v == -2) {
			while (src < x.rank) {
				uin[src] = 1;
				uout[o.rank] = 1;
				if (!push(&o, x.d[src++], d))
					return 0;
			}
		} else if (v == -3) {
			int64_t d1, d2;
			if (src + 1 >= x.rank)
				return ir_rel_error(d, "newshape has -3 at position %d but data has no two dimensions "
				                    "left to merge", i);
			d1 = x.d[src];
			d2 = x.d[src + 1];
			uin[src] = uin[src + 1] = 1;
			src += 2;
			uout[o.rank] = 1;
			if (d1 != ANY && d2 != ANY && !ckmul(d1, d2, &d1))
				return toobig("the merged dimension", d);
			if (!push(&o, d2 == ANY ? ANY : d1, d))
				return 0;
		} else if (v == -4) {
			int64_t d0, d1, d2;
			if (i + 2 >= n)
				return ir_rel_error(d, "newshape has -4 at position %d without two values after it", i);
			if (src >= x.rank)
				return ir_rel_error(d, "newshape has -4 at position %d but data has no dimension "
				                    "left to split", i);
			d1 = ns[i + 1];
			d2 = ns[i + 2];
			if ((d1 <= 0 && d1 != -1) || (d2 <= 0 && d2 != -1) || (d1 == -1 && d2 == -1))
				return ir_rel_error(d, "newshape has -4 at position %d followed by %lld, %lld; "
				                    "expected two sizes, at most one of them -1", i, LL(d1), LL(d2));
			i += 2;
			uin[src] = 1;
			d0 = x.d[src++];
			if (d1 == -1)
				d1 = d0 == ANY ? ANY : floordiv(d0, d2);
			else if (d2 == -1)
				d2 = d0 == ANY ? ANY : floordiv(d0, d1);
			uout[o.rank] = 1;
			if (!push(&o, d1, d))
				return 0;
			uout[o.rank] = 1;
			if (!push(&o, d2, d))
				return 0;
		} else {
			return ir_rel_error(d, "newshape has unsupported value %lld at position %d", LL(v), i);
		}
	}
	if (infer >= 0) {
		int64_t p = 1;
		for (int i = 0; i < x.rank && p != ANY; i++)
			if (!uin[i]) {
				if (x.d[i] == ANY)
					p = ANY;
				else if (!ckmul(p, x.d[i], &p))
					return toobig("the number of elements", d);
			}
		for (int i = 0; i < o.rank && p != ANY; i++) {
			if (uout[i] || i == infer)
				continue;
			if (o.d[i] == ANY)
				p = ANY;
			else if (o.d[i] == 0)
				return ir_rel_error(d, "newshape cannot infer -1 beside a 0 dimension");
			else
				p = floordiv(p, o.d[i]);
		}
		o.d[infer] = p;
	}
	ni = ir_type_numel(m, args[0]);
	if (ni < 0) {
		/* -1: a '?' dimension, or more elements than int64 counts */
		int any = 0;
		for (int i = 0; i < x.rank; i++)
			any |= x.d[i] == ANY;
		if (!any)
			return toobig("the number of elements", d);
	}
	for (int i = 0; i < o.rank && no >= 0; i++) {
		if (o.d[i] == ANY)
			no = -1;
		else if (!ckmul(no, o.d[i], &no))
			return toobig("the number of elements", d);
	}
	if (ni >= 0 && no >= 0 && ni != no)
		return ir_rel_error(d, "cannot reshape %s of %lld elements into %s of %lld elements",
		                    SHAPESTR(&x, b1), LL(ni), SHAPESTR(&o, b2), LL(no));
	return make(m, &o);
}

/* split(data): a tuple of indices_or_sections equal parts along axis, or
** the parts between ascending indices. */
TypeId
rel_split(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	const AttrVal *ios = field(attrs, rel_split, "indices_or_sections");
	Shape x;
	int64_t axis, ax, n, dim;
	TypeId *fields, t;

	(void)nargs;
	if (!load(m, args[0], "data", &x, d) ||
	    !getint(field(attrs, rel_split, "axis"), "axis", &axis, d))
		return 0;
	if (x.rank < 1)
		return ir_rel_error(d, "data must have rank at least 1");
	ax = axis;
	if (!normaxis(&ax, x.rank))
		return ir_rel_error(d, "axis %lld is out of range for data of rank %d", LL(axis), x.rank);
	dim = x.d[ax];
	if (ios->kind == AV_INT) {
		n = ios->u.i;
		if (n <= 0 || n > MAXSPLIT)
			return ir_rel_error(d, "indices_or_sections must be in [1, %d], not %lld", MAXSPLIT, LL(n));
		if (dim != ANY && dim % n != 0)
			return ir_rel_error(d, "indices_or_sections %lld does not divide axis %lld of size %lld",
			                    LL(n), LL(axis), LL(dim));
		fields = ir_xmalloc((size_t)n * sizeof *fields);
		x.d[ax] = dim == ANY ? ANY : dim / n;
		t = make(m, &x);
		for (int64_t i = 0; i < n; i++)
			fields[i] = t;
	} else if (ios->kind == AV_ARRAY) {
		int64_t begin = 0;
		n = (int64_t)ios->n + 1;
		if (n > MAXSPLIT)
			return ir_rel_error(d, "indices_or_sections has %u indices; at most %d are supported",
			                    ios->n, MAXSPLIT - 1);
		for (uint32_t i = 0; i < ios->n; i++) {
			const AttrVal *e = &m->attrs[ios->first + i];
			if (e->kind != AV_INT)
				return ir_rel_error(d, "indices_or_sections must be an integer or a list of integers");
			if (e->u.i <= begin)
				return ir_rel_error(d, "indices_or_sections must ascend from above 0: %lld after %lld",
				                    LL(e->u.i), LL(begin));
			begin = e->u.i;
		}
		if (dim != ANY && begin >= dim)
			return ir_rel_error(d, "split index %lld is not below axis %lld of size %lld",
			                    LL(begin), LL(axis), LL(dim));
		fields = ir_xmalloc((size_t)n * sizeof *fields);
		begin = 0;
		for (int64_t i = 0; i < n; i++) {
			int64_t end = i < n - 1 ? m->attrs[ios->first + (uint32_t)i].u.i : dim;
			x.d[ax] = end == ANY ? ANY : end - begin;
			fields[i] = make(m, &x);
			begin = end;
		}
	} else {
		return ir_rel_error(d, "indices_or_sections is required");
	}
	t = ir_type_tuple(m, (int)n, fields);
	free(fields);
	return t;
}

/* squeeze(data): drops the named axes, which must be 1, or with axis None
** every dim that is 1. */
TypeId
rel_squeeze(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	Shape x, o;
	int64_t ax[MAXDIMS];
	int n, drop[MAXDIMS] = { 0 };

	(void)nargs;
	if (!load(m, args[0], "data", &x, d) ||
	    !getints(m, field(attrs, rel_squeeze, "axis"), "axis", ax, MAXDIMS, &n, d))
		return 0;
	for (int i = 0; i < n; i++) {
		int64_t a = ax[i];
		if (!normaxis(&a, x.rank))
			return ir_rel_error(d, "axis %lld is out of range for data of rank %d", LL(ax[i]), x.rank);
		if (x.d[a] != ANY && x.d[a] != 1)
			return ir_rel_error(d, "cannot squeeze axis %lld of size %lld", LL(ax[i]), LL(x.d[a]));
		drop[a] = 1;
	}
	if (n < 0) {
		for (int i = 0; i < x.rank; i++) {
			if (x.d[i] == ANY)
				return ir_rel_error(d, "axis must be given when data has unknown dimensions");
			drop[i] = x.d[i] == 1;
		}
	}
	o.dt = x.dt;
	o.rank = 0;
	for (int i = 0; i < x.rank; i++)
		if (!drop[i])
			o.d[o.rank++] = x.d[i];
	return make(m, &o);
}

/* ir_slice_index: see ir.h */
int64_t
ir_slice_index(int64_t i, int64_t n, int64_t s)
{
	int64_t lo = s < 0 ? -1 : 0, hi = s < 0 ? n - 1 : n;

	if (i < 0)
		i += n;
	return i < lo ? lo : (i > hi ? hi : i);
}

/* strided_slice(data): begin, end and strides per axis of axes (all axes
** when axes is None, the lists padded to full slices); slice_mode "size"
** reads end as sizes (-1: to the end) and ignores strides. */
TypeId
rel_strided_slice(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	const char *mode = getstr(m, field(attrs, rel_strided_slice, "slice_mode"));
	Shape x;
	int64_t b[MAXDIMS], e[MAXDIMS], s[MAXDIMS], ax[MAXDIMS];
	int nb, ne, ns, na, size;

	(void)nargs;
	if (!load(m, args[0], "data", &x, d) ||
	    !getints(m, field(attrs, rel_strided_slice, "begin"), "begin", b, MAXDIMS, &nb, d) ||
	    !getints(m, field(attrs, rel_strided_slice, "end"), "end", e, MAXDIMS, &ne, d) ||
	    !getints(m, field(attrs, rel_strided_slice, "strides"), "strides", s, MAXDIMS, &ns, d) ||
	    !getints(m, field(attrs, rel_strided_slice, "axes"), "axes", ax, MAXDIMS, &na, d))
		return 0;
	if (strcmp(mode, "end") != 0 && strcmp(mode, "size") != 0)
		return ir_rel_error(d, "slice_mode must be \"end\" or \"size\", not \"%s\"", mode);
	size = mode[0] == 's';
	if (nb < 0)
		return ir_rel_error(d, "begin is required");
	if (ne < 0)
		return ir_rel_error(d, "end is required");
	if (ns < 0)
		return ir_rel_error(d, "strides is required");
	if (na >= 0) {
		if (nb != na || ne != na || ns != na)
			return ir_rel_error(d, "axes, begin, end and strides must have the same length, "
			                    "not %d, %d, %d and %d", na, nb, ne, ns);
		for (int k = 0; k < na; k++) {
			int64_t a = ax[k];
			if (!normaxis(&a, x.rank))
				return ir_rel_error(d, "axis %lld in axes is out of range for data of rank %d",
				                    LL(ax[k]), x.rank);
			ax[k] = a;
		}
	} else {
		if (nb > x.rank || ne > x.rank || ns > x.rank)
			return ir_rel_error(d, "%s has %d entries but data has rank %d",
			                    nb > x.rank ? "begin" : ne > x.rank ? "end" : "strides",
			                    nb > x.rank ? nb : ne > x.rank ? ne : ns, x.rank);
		for (int k = ns; k < x.rank; k++)
			s[k] = 1;
		for (int k = nb; k < x.rank; k++)
			b[k] = s[k] > 0 ? 0 : INT64_MAX;
		for (int k = ne; k < x.rank; k++)
			e[k] = s[k] < 0 ? 0 : INT64_MAX;
		na = x.rank;
		for (int k = 0; k < na; k++)
			ax[k] = k;
	}
	for (int k = 0; k < na; k++) {
		int64_t st = size ? 1 : s[k], n = x.d[ax[k]], end = e[k], lo, hi, mag, len;
		if (st == 0 || st == INT64_MIN)
			return ir_rel_error(d, "stride %lld on axis %lld is invalid", LL(st), LL(ax[k]));
		if (size)
			end = end < 0 ? INT64_MAX : (b[k] > 0 && end > INT64_MAX - b[k] ? INT64_MAX : b[k] + end);
		if (n == ANY)
			continue;
		lo = ir_slice_index(b[k], n, st);
		hi = ir_slice_index(end, n, st);
		if (st < 0 ? hi > lo : lo > hi)
			return ir_rel_error(d, "on axis %lld, begin %lld is past end %lld for stride %lld",
			                    LL(ax[k]), LL(b[k]), LL(e[k]), LL(st));
		mag = st < 0 ? -st : st;
		/* ceil(len / mag), without overflowing len + mag - 1 */
		len = lo > hi ? lo - hi : hi - lo;
		x.d[ax[k]] = len ? (len - 1) / mag + 1 : 0;
	}
	return make(m, &x);
}

/* transpose(data): axes, a permutation, or None for reversal. */
int
ir_layout_axes(const char *src, const char *dst, int64_t *axes, int max, const char **why)
{
	int n = (int)strlen(src);

	for (int w = 0; w < 2; w++)
		for (const char *p = w ? dst : src; *p; p++)
			if (*p < 'A' || *p > 'Z') {
				*why = "graft takes layouts of one capital letter per axis (no sub-axes such as 4c)";
				return -1;
			}
	if ((int)strlen(dst) != n || n > max) {
		*why = "the layouts have different numbers of axes";
		return -1;
	}
	for (int i = 0; i < n; i++) {
		const char *at = strchr(src, dst[i]);
		if (!at || strchr(at + 1, dst[i]) || strchr(dst + i + 1, dst[i])) {
			*why = "the layouts do not name the same axes once each";
			return -1;
		}
		axes[i] = at - src;
	}
	return n;
}

/* einsumterm: reads the term at *pp (letters and spaces, with one "..."
** at most) into lets (its letters, n of them), *ell the letter count
** before its "..." (-1: none); advances *pp.  0 with why on a malformed
** term */
static int
einsumterm(const char **pp, char *lets, int *n, int *ell, const char **why)
{
	const char *p = *pp;

	*n = 0;
	*ell = -1;
	for (;; p++) {
		if (*p == ' ')
			continue;
		if (p[0] == '.') {
			if (p[1] != '.' || p[2] != '.' || *ell >= 0) {
				*why = "a term has a '.' that is not one '...'";
				return 0;
			}
			*ell = *n;
			p += 2;
			continue;
		}
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
			break;
		if (*n >= IR_EINSUM_RANK) {
			*why = "a term of the equation has too many axes";
			return 0;
		}
		lets[(*n)++] = *p;
	}
	*pp = p;
	return 1;
}

int
ir_einsum(const char *eq, uint32_t nin, const int *ranks, IrEinsum *e, const char **why)
{
	int letter[128], count[128] = { 0 }, n[IR_EINSUM_MAX + 1], ell[IR_EINSUM_MAX + 1], lmax = 0, eid = -1;
	char lets[IR_EINSUM_MAX + 1][IR_EINSUM_RANK];
	uint32_t k = 0;
	const char *p = eq;

	memset(e, 0, sizeof *e);
	for (int i = 0; i < 128; i++)
		letter[i] = -1;
	if (nin == 0 || nin > IR_EINSUM_MAX) {
		*why = "einsum takes 1 to 8 tensors";
		return 0;
	}
	e->nin = (uint8_t)nin;
	/* the input terms; "..." stands for the axes its tensor has beyond
	   the term's letters, aligned to the right across the inputs (numpy's
	   broadcast, the axes equal in size) */
	for (;;) {
		if (k == nin) {
			*why = "the equation's terms and the tensors differ in number";
			return 0;
		}
		if (!einsumterm(&p, lets[k], &n[k], &ell[k], why))
			return 0;
		if (ell[k] >= 0 && ranks[k] - n[k] > lmax)
			lmax = ranks[k] - n[k];
		k++;
		if (*p != ',')
			break;
		p++;
	}
	if (k != nin) {
		*why = "the equation's terms and the tensors differ in number";
		return 0;
	}
	for (uint32_t i = 0; i < nin; i++) {
		int l = ell[i] >= 0 ? ranks[i] - n[i] : 0, r = 0;
		if (ranks[i] > IR_EINSUM_RANK || n[i] + l != ranks[i] || l < 0) {
			*why = ell[i] >= 0 ? "a term has more letters than its tensor has axes"
			                   : "a term of the equation and its tensor differ in rank";
			return 0;
		}
		/* letters number in order of first appearance, "..." as its axes */
		for (int j = 0; j <= n[i]; j++) {
			if (j == ell[i]) {
				if (eid < 0) {
					eid = e->nlet;
					e->nlet = (uint8_t)(e->nlet + lmax);
				}
				for (int x = lmax - l; x < lmax; x++)
					e->in[i][r++] = (uint8_t)(eid + x);
			}
			if (j == n[i])
				break;
			if (letter[(int)lets[i][j]] < 0)
				letter[(int)lets[i][j]] = e->nlet++;
			e->in[i][r++] = (uint8_t)letter[(int)lets[i][j]];
			count[(int)lets[i][j]]++;
		}
		e->rank[i] = (uint8_t)r;
	}
	if (e->nlet > IR_EINSUM_RANK * IR_EINSUM_MAX) {
		*why = "the equation has too many axes";
		return 0;
	}
	if (p[0] == '-' && p[1] == '>') {
		char out[IR_EINSUM_RANK];
		int no, oell;
		p += 2;
		if (!einsumterm(&p, out, &no, &oell, why))
			return 0;
		if (*p) {
			*why = "the equation does not read as terms, ',' and '->'";
			return 0;
		}
		if (oell < 0 && eid >= 0 && lmax > 0) {
			*why = "the output must place the axes of '...'";
			return 0;
		}
		if (no + (oell >= 0 ? lmax : 0) > IR_EINSUM_RANK) {
			*why = "the output has too many axes";
			return 0;
		}
		for (int j = 0; j <= no; j++) {
			if (j == oell)
				for (int x = 0; x < lmax; x++)
					e->out[e->nout++] = (uint8_t)(eid + x);
			if (j == no)
				break;
			if (letter[(int)out[j]] < 0) {
				*why = "the output names a letter no input has";
				return 0;
			}
			for (uint32_t q = 0; q < e->nout; q++)
				if (e->out[q] == letter[(int)out[j]]) {
					*why = "the output names a letter twice";
					return 0;
				}
			e->out[e->nout++] = (uint8_t)letter[(int)out[j]];
		}
	} else if (*p) {
		*why = "the equation does not read as terms, ',' and '->'";
		return 0;
	} else {
		/* the axes of "..." first, then the letters that appear once */
		for (int x = 0; x < lmax; x++)
			e->out[e->nout++] = (uint8_t)(eid + x);
		for (int c = 'A'; c <= 'z'; c++)
			if (count[c] == 1 && e->nout < IR_EINSUM_RANK)
				e->out[e->nout++] = (uint8_t)letter[c];
	}
	return 1;
}

/* einsum(data): the tuple's tensors summed over as the equation says */
TypeId
rel_einsum(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	const Type *tt = ir_type(m, args[0]);
	const AttrVal *eq = field(attrs, rel_einsum, "equation");
	int ranks[IR_EINSUM_MAX];
	int64_t size[IR_EINSUM_MAX * IR_EINSUM_RANK];
	Shape x[IR_EINSUM_MAX], o;
	IrEinsum e;
	const char *why;

	(void)nargs;
	if (tt->kind != TY_TUPLE || tt->n == 0 || tt->n > IR_EINSUM_MAX)
		return ir_rel_error(d, "data must be a tuple of 1 to 8 tensors");
	if (eq->kind != AV_STR)
		return ir_rel_error(d, "equation is required");
	for (uint32_t i = 0; i < tt->n; i++) {
		if (!load(m, m->tylist[tt->first + i], "a field of data", &x[i], d))
			return 0;
		if (x[i].dt != x[0].dt)
			return ir_rel_error(d, "the tensors are of different dtypes (%s, %s)", dtn(x[0].dt), dtn(x[i].dt));
		ranks[i] = x[i].rank;
	}
	if (!ir_einsum(ir_symstr(m, eq->u.s), tt->n, ranks, &e, &why))
		return ir_rel_error(d, "equation \"%s\": %s", ir_symstr(m, eq->u.s), why);
	for (uint32_t l = 0; l < e.nlet; l++)
		size[l] = -1;
	for (uint32_t i = 0; i < tt->n; i++)
		for (uint32_t k = 0; k < e.rank[i]; k++) {
			int64_t *s = &size[e.in[i][k]];
			if (*s >= 0 && *s != x[i].d[k])
				return ir_rel_error(d, "equation \"%s\": a letter (or an axis of '...') stands for axes of %lld and %lld",
				                    ir_symstr(m, eq->u.s), LL(*s), LL(x[i].d[k]));
			*s = x[i].d[k];
		}
	o.dt = x[0].dt;
	o.rank = e.nout;
	for (uint32_t k = 0; k < e.nout; k++)
		o.d[k] = size[e.out[k]];
	return make(m, &o);
}

/* layout_transform: data's axes in dst_layout's order */
TypeId
rel_layout_transform(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	Shape x, o;
	int64_t ax[MAXDIMS];
	const AttrVal *s = field(attrs, rel_layout_transform, "src_layout"), *t = field(attrs, rel_layout_transform, "dst_layout");
	const char *why = NULL;
	int n;

	(void)nargs;
	if (!load(m, args[0], "data", &x, d))
		return 0;
	if (s->kind != AV_STR || t->kind != AV_STR)
		return ir_rel_error(d, "src_layout and dst_layout are required");
	if ((n = ir_layout_axes(ir_symstr(m, s->u.s), ir_symstr(m, t->u.s), ax, MAXDIMS, &why)) < 0)
		return ir_rel_error(d, "%s to %s: %s", ir_symstr(m, s->u.s), ir_symstr(m, t->u.s), why);
	if (n != x.rank)
		return ir_rel_error(d, "layout %s has %d axes but data has rank %d", ir_symstr(m, s->u.s), n, x.rank);
	o.dt = x.dt;
	o.rank = x.rank;
	for (int i = 0; i < n; i++)
		o.d[i] = x.d[ax[i]];
	return make(m, &o);
}

TypeId
rel_transpose(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	Shape x, o;
	int64_t ax[MAXDIMS];
	int n, seen[MAXDIMS] = { 0 };

	(void)nargs;
	if (!load(m, args[0], "data", &x, d) ||
	    !getints(m, field(attrs, rel_transpose, "axes"), "axes", ax, MAXDIMS, &n, d))
		return 0;
	o.dt = x.dt;
	o.rank = x.rank;
	if (n < 0) {
		for (int i = 0; i < x.rank; i++)
			o.d[i] = x.d[x.rank - 1 - i];
		return make(m, &o);
	}
	if (n != x.rank)
		return ir_rel_error(d, "axes has %d entries but data has rank %d", n, x.rank);
	for (int i = 0; i < n; i++) {
		int64_t a = ax[i];
		if (!normaxis(&a, x.rank))
			return ir_rel_error(d, "axis %lld in axes is out of range for data of rank %d",
			                    LL(ax[i]), x.rank);
		if (seen[a])
			return ir_rel_error(d, "axis %lld appears twice in axes", LL(a));
		seen[a] = 1;
		o.d[i] = x.d[a];
	}
	return make(m, &o);
}

/* indexdt: checks that indices (a loaded shape) is int32 or int64 */
static int
indexdt(const Shape *ix, Diag *d)
{
	if (ix->dt != DT_INT32 && ix->dt != DT_INT64) {
		ir_rel_error(d, "indices must be int32 or int64, not %s", dtn(ix->dt));
		return 0;
	}
	return 1;
}

/* take(data, indices): axis None takes from the flattened data (the
** result has the indices' shape); else data.shape[:axis] +
** indices.shape[batch_dims:] + data.shape[axis + 1:], the first
** batch_dims dims of indices those of data.  mode is "clip", "wrap" or
** "fast" (TVM's TakeRel and topi::take). */
TypeId
rel_take(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	Shape x, ix, o;
	const AttrVal *av = field(attrs, rel_take, "axis");
	const char *mode = getstr(m, field(attrs, rel_take, "mode"));
	int64_t axis, bd;
	char sx[160], si[160];

	(void)nargs;
	if (!load(m, args[0], "data", &x, d) || !load(m, args[1], "indices", &ix, d) || !indexdt(&ix, d) ||
	    !getint(field(attrs, rel_take, "batch_dims"), "batch_dims", &bd, d))
		return 0;
	if (strcmp(mode, "clip") && strcmp(mode, "wrap") && strcmp(mode, "fast"))
		return ir_rel_error(d, "mode must be \"clip\", \"wrap\" or \"fast\", not \"%s\"", mode);
	if (av->kind == AV_NONE) {
		ix.dt = x.dt;
		return make(m, &ix);
	}
	if (!getint(av, "axis", &axis, d))
		return 0;
	if (!normaxis(&axis, x.rank))
		return ir_rel_error(d, "axis %lld is out of range for data of rank %d", LL(av->u.i), x.rank);
	if (bd < -ix.rank || bd > ix.rank)
		return ir_rel_error(d, "batch_dims %lld is out of range for indices of rank %d", LL(bd), ix.rank);
	if (bd < 0)
		bd += ix.rank;
	if (bd > axis)
		return ir_rel_error(d, "batch_dims %lld is greater than axis %lld", LL(bd), LL(axis));
	for (int k = 0; k < bd; k++)
		if (!same(x.d[k], ix.d[k]))
			return ir_rel_error(d, "indices %s and data %s differ in batch dim %d", SHAPESTR(&ix, si),
			                    SHAPESTR(&x, sx), k);
	if (x.rank - 1 + ix.rank - bd > MAXDIMS)
		return ir_rel_error(d, "the result would have rank %lld; at most %d dimensions are supported",
		                    LL(x.rank - 1 + ix.rank - bd), MAXDIMS);
	o.dt = x.dt;
	o.rank = 0;
	for (int k = 0; k < axis; k++)
		o.d[o.rank++] = x.d[k];
	for (int k = (int)bd; k < ix.rank; k++)
		o.d[o.rank++] = ix.d[k];
	for (int k = (int)axis + 1; k < x.rank; k++)
		o.d[o.rank++] = x.d[k];
	return make(m, &o);
}

/* gather(data, indices): numpy's take_along_axis; indices of data's rank,
** no larger than data but along axis; the result has the indices' shape
** (TVM's GatherRel, which leaves the bounds unchecked). */
TypeId
rel_gather(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	Shape x, ix;
	int64_t axis, a;
	char sx[160], si[160];

	(void)nargs;
	if (!load(m, args[0], "data", &x, d) || !load(m, args[1], "indices", &ix, d) || !indexdt(&ix, d) ||
	    !getint(field(attrs, rel_gather, "axis"), "axis", &axis, d))
		return 0;
	if (x.rank == 0)
		return ir_rel_error(d, "data must have rank 1 or more, not 0");
	a = axis;
	if (!normaxis(&a, x.rank))
		return ir_rel_error(d, "axis %lld is out of range for data of rank %d", LL(axis), x.rank);
	if (ix.rank != x.rank)
		return ir_rel_error(d, "indices has rank %d but data has rank %d", ix.rank, x.rank);
	for (int k = 0; k < x.rank; k++)
		if (k != a && x.d[k] != ANY && ix.d[k] != ANY && ix.d[k] > x.d[k])
			return ir_rel_error(d, "indices %s is larger than data %s in dim %d", SHAPESTR(&ix, si),
			                    SHAPESTR(&x, sx), k);
	ix.dt = x.dt;
	return make(m, &ix);
}

/* ---------------------------------------------------------------- quantization */


/* channels: the length a per-channel scale or zero point must have, the
** dim at axis (negative counts from the end; a scalar's "axis" is 0) */
static int
channels(const Shape *x, int64_t axis, int64_t *len, Diag *d)
{
	int64_t ax = axis < 0 ? (x->rank > 0 ? x->rank + axis : 0) : axis;

	if (ax < 0 || ax >= (x->rank > 0 ? x->rank : 1)) {
		ir_rel_error(d, "axis %lld is out of range for data of rank %d", LL(axis), x->rank);
		return 0;
	}
	*len = x->rank > 0 ? x->d[ax] : 1;
	return 1;
}

/* qnn.quantize(data, output_scale, output_zero_point): float32 data to
** out_dtype; the parameters are scalars or vectors along axis.  rounding
** is graft's own attribute: "None" rounds halves away from zero (TVM),
** "HALF_TO_EVEN" to even (ONNX's QuantizeLinear). */
TypeId
rel_qnn_quantize(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	DType dt = getdt(field(attrs, rel_qnn_quantize, "out_dtype"));
	const char *rounding = getstr(m, field(attrs, rel_qnn_quantize, "rounding"));
	Shape x;
	int64_t axis, len = 1;

	if (strcmp(rounding, "None") != 0 && strcmp(rounding, "HALF_TO_EVEN") != 0)
		return ir_rel_error(d, "rounding must be \"None\" or \"HALF_TO_EVEN\", not \"%s\"", rounding);

	(void)nargs;
	if (!load(m, args[0], "data", &x, d) ||
	    !getint(field(attrs, rel_qnn_quantize, "axis"), "axis", &axis, d))
		return 0;
	if (x.dt != DT_FLOAT32)
		return ir_rel_error(d, "data must be float32, not %s", dtn(x.dt));
	if ((!isscalar(m, args[1]) || !isscalar(m, args[2])) && !channels(&x, axis, &len, d))
		return 0;
	if (!qparam(m, args[1], "output_scale", DT_FLOAT32, len, d) ||
	    !qparam(m, args[2], "output_zero_point", DT_INT32, len, d))
		return 0;
	if (dt == DT_VOID)
		return ir_rel_error(d, "out_dtype is required");
	if (!oneof(dt, 5, DT_INT8, DT_UINT8, DT_INT16, DT_UINT16, DT_INT32))
		return ir_rel_error(d, "out_dtype must be int8, uint8, int16, uint16 or int32, not %s", dtn(dt));
	x.dt = dt;
	return make(m, &x);
}

/* qscalarish: whether t is a tensor of one element, as TVM's dequantize
** counts a scalar */
static int
qscalarish(const Module *m, TypeId t)
{
	return ir_type(m, t)->kind == TY_TENSOR && ir_type_numel(m, t) == 1;
}

/* qnn.dequantize(data, input_scale, input_zero_point): integer data to
** out_dtype, float16 or float32. */
TypeId
rel_qnn_dequantize(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	DType dt = getdt(field(attrs, rel_qnn_dequantize, "out_dtype"));
	Shape x;
	int64_t axis, len = 1;

	(void)nargs;
	if (!load(m, args[0], "data", &x, d) ||
	    !getint(field(attrs, rel_qnn_dequantize, "axis"), "axis", &axis, d))
		return 0;
	if (!oneof(x.dt, 5, DT_INT8, DT_UINT8, DT_INT16, DT_UINT16, DT_INT32))
		return ir_rel_error(d, "data must be int8, uint8, int16, uint16 or int32, not %s", dtn(x.dt));
	if ((!qscalarish(m, args[1]) || !qscalarish(m, args[2])) && !channels(&x, axis, &len, d))
		return 0;
	if (!qparam(m, args[1], "input_scale", DT_FLOAT32, len, d) ||
	    !qparam(m, args[2], "input_zero_point", DT_INT32, len, d))
		return 0;
	if (dt == DT_VOID)
		return ir_rel_error(d, "out_dtype is required");
	if (!oneof(dt, 2, DT_FLOAT16, DT_FLOAT32))
		return ir_rel_error(d, "out_dtype must be float16 or float32, not %s", dtn(dt));
	x.dt = dt;
	return make(m, &x);
}

/* qnn.requantize(data, input_scale, input_zero_point, output_scale,
** output_zero_point): integer data to an integer out_dtype; the input
** parameters run along axis, the output ones are scalars.  rounding is
** TVM's "None", "UPWARD" or "TONEAREST", or graft's "HALF_TO_EVEN"
** (QNNPACK's float32 requantization, ref/ops.c), which needs
** compute_dtype "float32". */
TypeId
rel_qnn_requantize(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	DType dt = getdt(field(attrs, rel_qnn_requantize, "out_dtype"));
	const char *rounding = getstr(m, field(attrs, rel_qnn_requantize, "rounding"));
	const char *cdt = getstr(m, field(attrs, rel_qnn_requantize, "compute_dtype"));
	Shape x;
	int64_t axis, len;

	(void)nargs;
	if (!load(m, args[0], "data", &x, d) ||
	    !getint(field(attrs, rel_qnn_requantize, "axis"), "axis", &axis, d))
		return 0;
	if (!oneof(x.dt, 5, DT_INT8, DT_UINT8, DT_INT16, DT_INT32, DT_INT64))
		return ir_rel_error(d, "data must be int8, uint8, int16, int32 or int64, not %s", dtn(x.dt));
	if (!channels(&x, axis, &len, d))
		return 0;
	if (!qparam(m, args[1], "input_scale", DT_FLOAT32, len, d) ||
	    !qparam(m, args[2], "input_zero_point", DT_INT32, len, d) ||
	    !qscalar(m, args[3], "output_scale", DT_FLOAT32, d) ||
	    !qscalar(m, args[4], "output_zero_point", DT_INT32, d))
		return 0;
	if (strcmp(rounding, "None") != 0 && strcmp(rounding, "UPWARD") != 0 &&
	    strcmp(rounding, "TONEAREST") != 0 && strcmp(rounding, "HALF_TO_EVEN") != 0)
		return ir_rel_error(d, "rounding must be \"None\", \"UPWARD\", \"TONEAREST\" or "
		                    "\"HALF_TO_EVEN\", not \"%s\"", rounding);
	if (strcmp(cdt, "None") != 0 && strcmp(cdt, "int64") != 0 && strcmp(cdt, "float32") != 0 &&
	    strcmp(cdt, "float64") != 0)
		return ir_rel_error(d, "compute_dtype must be \"None\", \"int64\", \"float32\" or "
		                    "\"float64\", not \"%s\"", cdt);
	if (strcmp(rounding, "HALF_TO_EVEN") == 0 && strcmp(cdt, "float32") != 0)
		return ir_rel_error(d, "rounding \"HALF_TO_EVEN\" needs compute_dtype \"float32\", not \"%s\"",
		                    cdt);
	if (dt == DT_VOID)
		return ir_rel_error(d, "out_dtype is required");
	if (!oneof(dt, 4, DT_INT8, DT_UINT8, DT_INT16, DT_INT32))
		return ir_rel_error(d, "out_dtype must be int8, uint8, int16 or int32, not %s", dtn(dt));
	x.dt = dt;
	return make(m, &x);
}

/* qnn.sigmoid, qnn.tanh(data, scale, zero_point, output_scale,
** output_zero_point): int8 or uint8 data, scalar parameters; the result
** has data's type. */
TypeId
rel_qnn_unary(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	Shape x;

	(void)nargs;
	(void)attrs;
	if (!load(m, args[0], "data", &x, d))
		return 0;
	if (!oneof(x.dt, 2, DT_INT8, DT_UINT8))
		return ir_rel_error(d, "data must be int8 or uint8, not %s", dtn(x.dt));
	if (!qscalar(m, args[1], "scale", DT_FLOAT32, d) ||
	    !qscalar(m, args[2], "zero_point", DT_INT32, d) ||
	    !qscalar(m, args[3], "output_scale", DT_FLOAT32, d) ||
	    !qscalar(m, args[4], "output_zero_point", DT_INT32, d))
		return 0;
	return args[0];
}
