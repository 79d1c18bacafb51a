/*
** ops.c: the ONNX op table and its converters, one per ONNX op.
**
** A converter reads its node's attributes (with the ONNX spec's defaults,
** per opset where they changed), checks what graft cannot express (a
** dynamic shape input, an unsupported mode), and builds the Relay calls
** through onnx_mk(), which infers each call's type as it goes, so that a
** later converter can read shapes.  Constant inputs that ONNX passes as
** tensors (Reshape's shape, Slice's starts) must be initializers or
** Constant outputs: graft has no dynamic shapes.
*/
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "onnxi.h"
#include "ref.h"

enum { MAXD = IR_MAXDIMS };     /* the largest rank handled */

/* ---------------------------------------------------------------- attributes */

/* attr: node im->nd's attribute called name, or NULL */
static const OAttr *
attr(const Imp *im, const char *name)
{
	for (size_t i = 0; i < im->nd->n_attribute; i++)
		if (im->nd->attribute[i]->name && strcmp(im->nd->attribute[i]->name, name) == 0)
			return im->nd->attribute[i];
	return NULL;
}

static const char *const atnames[] = {
	"UNDEFINED", "FLOAT", "INT", "STRING", "TENSOR", "GRAPH", "FLOATS", "INTS", "STRINGS", "TENSORS", "GRAPHS",
};

/* attyped: a, checked to be of ONNX attribute type want (a type of 0 is
** accepted, as old exporters wrote no type); NULL after reporting */
static const OAttr *
attyped(Imp *im, const OAttr *a, int want)
{
	if (a->has_type && a->type != want && a->type != 0) {
		onnx_err(im, "attribute '%s' is of type %s, not %s", a->name,
		         a->type > 0 && a->type <= 10 ? atnames[a->type] : "unknown", atnames[want]);
		return NULL;
	}
	return a;
}

/* ai: int attribute name into *v (deflt if absent); 0 or -1 */
static int
ai(Imp *im, const char *name, int64_t deflt, int64_t *v)
{
	const OAttr *a = attr(im, name);
	*v = deflt;
	if (!a)
		return 0;
	if (!attyped(im, a, OA_INT))
		return -1;
	*v = a->i;
	return 0;
}

/* af: float attribute name into *v (deflt if absent); 0 or -1 */
static int
af(Imp *im, const char *name, double deflt, double *v)
{
	const OAttr *a = attr(im, name);
	*v = deflt;
	if (!a)
		return 0;
	if (!attyped(im, a, OA_FLOAT))
		return -1;
	*v = a->f;
	return 0;
}

/* aints: ints attribute name into v[0..max), its length into *n (-1 if
** absent); 0 or -1 */
static int
aints(Imp *im, const char *name, int64_t *v, int max, int *n)
{
	const OAttr *a = attr(im, name);
	*n = -1;
	if (!a)
		return 0;
	if (!attyped(im, a, OA_INTS))
		return -1;
	if (a->n_ints > (size_t)max)
		return onnx_err(im, "attribute '%s' has %zu values; graft takes up to %d", name, a->n_ints, max);
	for (size_t i = 0; i < a->n_ints; i++)
		v[i] = a->ints[i];
	*n = (int)a->n_ints;
	return 0;
}

/* as: string attribute name into buf (deflt if absent); 0 or -1 */
static int
as(Imp *im, const char *name, const char *deflt, char *buf, size_t size)
{
	const OAttr *a = attr(im, name);
	snprintf(buf, size, "%s", deflt);
	if (!a)
		return 0;
	if (!attyped(im, a, OA_STRING))
		return -1;
	snprintf(buf, size, "%.*s", (int)(a->s.len < size ? a->s.len : size - 1), (const char *)a->s.data);
	return 0;
}

/* ---------------------------------------------------------------- Relay attributes */

/* slot: the index of op's field f (which must exist) */
static uint32_t
slot(OpId op, const char *f)
{
	int k = ir_op_attr_index(op, f, strlen(f));
	if (k < 0)
		ir_die("onnx: %s has no attribute %s", ir_ops[op].name, f);
	return (uint32_t)k;
}

static void
seti(Imp *im, OpId op, AttrId at, const char *f, int64_t v)
{
	AttrVal x = { .kind = AV_INT };
	x.u.i = v;
	im->m->attrs[at + slot(op, f)] = x;
}

static void
setb(Imp *im, OpId op, AttrId at, const char *f, int v)
{
	AttrVal x = { .kind = AV_BOOL };
	x.u.i = !!v;
	im->m->attrs[at + slot(op, f)] = x;
}

static void
setf(Imp *im, OpId op, AttrId at, const char *f, double v)
{
	AttrVal x = { .kind = AV_FLOAT };
	x.u.f = v;
	im->m->attrs[at + slot(op, f)] = x;
}

static void
sets(Imp *im, OpId op, AttrId at, const char *f, const char *s)
{
	AttrVal x = { .kind = AV_STR };
	x.u.s = ir_symz(im->m, s);
	im->m->attrs[at + slot(op, f)] = x;
}

static void
setdt(Imp *im, OpId op, AttrId at, const char *f, DType dt)
{
	AttrVal x = { .kind = AV_DTYPE };
	x.u.i = dt;
	im->m->attrs[at + slot(op, f)] = x;
}

/* numsval: an AV_ARRAY of the n ints v, or of the n floats f if f */
static AttrVal
numsval(Imp *im, const int64_t *v, const double *f, int n)
{
	AttrVal e[MAXD * 2], x = { .kind = AV_ARRAY };
	for (int i = 0; i < n; i++) {
		memset(&e[i], 0, sizeof e[i]);
		e[i].kind = f ? AV_FLOAT : AV_INT;
		if (f)
			e[i].u.f = f[i];
		else
			e[i].u.i = v[i];
	}
	x.n = (uint32_t)n;
	x.first = ir_attr_array(im->m, e, (uint32_t)n);
	return x;
}

/* intsval: an AV_ARRAY of the n ints v */
static AttrVal
intsval(Imp *im, const int64_t *v, int n)
{
	return numsval(im, v, NULL, n);
}

static void
setints(Imp *im, OpId op, AttrId at, const char *f, const int64_t *v, int n)
{
	AttrVal x = intsval(im, v, n);
	im->m->attrs[at + slot(op, f)] = x;
}

static void
setfloats(Imp *im, OpId op, AttrId at, const char *f, const double *v, int n)
{
	AttrVal x = numsval(im, NULL, v, n);
	im->m->attrs[at + slot(op, f)] = x;
}

/* ---------------------------------------------------------------- values */

static int
rank(const Imp *im, NodeId n)
{
	return (int)onnx_type(im, n)->n;
}

static DType
dtype(const Imp *im, NodeId n)
{
	return (DType)onnx_type(im, n)->dtype;
}

/* numel of n's dims [from, to), INT64_MAX if that overflows */
static int64_t
prod(const Imp *im, NodeId n, int from, int to)
{
	const int64_t *d = onnx_dims(im, n);
	int64_t p = 1;
	for (int i = from; i < to; i++)
		if (__builtin_mul_overflow(p, d[i], &p))
			return INT64_MAX;       /* more than any tensor graft makes: an error where it matters */
	return p;
}

/* dimsof: n's dims copied into buf (IR_MAXDIMS long); buf.  A pointer
** into the module's dims (onnx_dims) moves when a later call interns a
** type, so a converter that holds dims across calls takes a copy */
static const int64_t *
dimsof(const Imp *im, NodeId n, int64_t *buf)
{
	memcpy(buf, onnx_dims(im, n), (size_t)rank(im, n) * sizeof *buf);
	return buf;
}

/* normax: axis a of a rank-r tensor made non-negative into *a; 0 or -1
** after reporting (what names the attribute) */
static int
normax(Imp *im, int64_t *a, int r, const char *what)
{
	if (*a < -r || *a >= (r ? r : 1))
		return onnx_err(im, "%s %lld is out of range for rank %d", what, (long long)*a, r);
	if (*a < 0)
		*a += r;
	return 0;
}

/* mknode: infers the type of a non-call node n; n, or 0 after reporting */
static NodeId
mknode(Imp *im, NodeId n)
{
	Diag quiet = *im->d;
	TypeId t;
	quiet.out = NULL;
	if (!(t = ir_infer_node(im->m, n, &quiet))) {
		onnx_err(im, "%s", quiet.relmsg[0] ? quiet.relmsg : "type error");
		return 0;
	}
	im->m->nodes[n].type = t;
	return n;
}

/* kconst: a constant of dtype dt and shape dims[0..r) from data */
static NodeId
kconst(Imp *im, DType dt, int r, const int64_t *dims, const void *data)
{
	NodeId n = ir_const(im->m, ir_type_tensor(im->m, dt, r, dims), data, im->loc);
	im->m->nodes[n].type = ir_node_const(im->m, n)->type;
	return n;
}

/* d2i: v as an int64, saturated at +-2^62 (NaN: 0): a size or count
** read from a file, never undefined behaviour, whatever the file holds */
static int64_t
d2i(double v)
{
	const double lim = 4611686018427387904.0;       /* 2^62 */
	return v != v ? 0 : v >= lim ? (int64_t)lim : v <= -lim ? -(int64_t)lim : (int64_t)v;
}

/* putd: v as an element of dtype dt (a float or integer dtype) at b */
static void
putd(void *b, DType dt, double v)
{
	switch (dt) {
	case DT_FLOAT32: { float f = (float)v; memcpy(b, &f, 4); break; }
	case DT_FLOAT64: memcpy(b, &v, 8); break;
	case DT_FLOAT16: { uint16_t h = ir_f16_from_f32((float)v); memcpy(b, &h, 2); break; }
	case DT_INT32: { int32_t i = (int32_t)v; memcpy(b, &i, 4); break; }
	case DT_INT64: { int64_t i = d2i(v); memcpy(b, &i, 8); break; }
	default: { int64_t i = d2i(v); memcpy(b, &i, ir_dtype_bytes[dt]); break; }
	}
}

/* kscalar: a scalar constant v of dtype dt (a float or integer dtype) */
static NodeId
kscalar(Imp *im, DType dt, double v)
{
	unsigned char b[8];
	putd(b, dt, v);
	return kconst(im, dt, 0, NULL, b);
}

/* kconstd: a constant of dtype dt and shape d[0..r) holding v[] (as
** kscalar converts each) */
static NodeId
kconstd(Imp *im, DType dt, int r, const int64_t *d, const double *v)
{
	int64_t n = 1;
	unsigned char *buf;
	NodeId k;
	for (int i = 0; i < r; i++)
		n *= d[i];
	buf = ir_xmalloc((size_t)n * ir_dtype_bytes[dt] + 8);
	for (int64_t i = 0; i < n; i++)
		putd(buf + (size_t)i * ir_dtype_bytes[dt], dt, v[i]);
	k = kconst(im, dt, r, d, buf);
	free(buf);
	return k;
}

/* isconst: whether n is a constant with data */
static int
isconst(Imp *im, NodeId n)
{
	return n && im->m->nodes[n].kind == NK_CONST && ir_node_const(im->m, n)->data;
}

/* konst: n if it is a constant with data, else the constant it folds to
** when it is computed from constants alone (exact folding, ref_fold),
** else 0 */
static NodeId
konst(Imp *im, NodeId n)
{
	if (!n || isconst(im, n))
		return n;
	return im->m->nodes[n].kind == NK_CALL ? ref_fold(im->m, n) : 0;
}

/* elem: element i of constant n as a double */
static double
elem(Imp *im, NodeId n, int64_t i)
{
	const unsigned char *p = ir_node_const(im->m, n)->data;
	DType dt = dtype(im, n);
	size_t sz = ir_dtype_bytes[dt];
	p += (size_t)i * sz;
	switch (dt) {
	case DT_FLOAT32: { float f; memcpy(&f, p, 4); return f; }
	case DT_FLOAT64: { double f; memcpy(&f, p, 8); return f; }
	case DT_FLOAT16: { uint16_t h; memcpy(&h, p, 2); return ir_f32_from_f16(h); }
	case DT_INT8: return (int8_t)p[0];
	case DT_UINT8: case DT_BOOL: return p[0];
	case DT_INT16: { int16_t v; memcpy(&v, p, 2); return v; }
	case DT_UINT16: { uint16_t v; memcpy(&v, p, 2); return v; }
	case DT_INT32: { int32_t v; memcpy(&v, p, 4); return v; }
	case DT_UINT32: { uint32_t v; memcpy(&v, p, 4); return v; }
	case DT_INT64: { int64_t v; memcpy(&v, p, 8); return (double)v; }
	default: return 0;
	}
}

/* cscalar: the value of input k (the what), a constant scalar (of any
** shape of one element), into *v; 0 or -1 after reporting */
static int
cscalar(Imp *im, const NodeId *in, int k, const char *what, double *v)
{
	NodeId c = konst(im, in[k]);
	if (!c || ir_type_numel(im->m, im->m->nodes[c].type) != 1) {
		onnx_needconst(im, in[k]);
		return onnx_err(im, "input %d ('%s', the %s) must be a constant scalar", k, im->nd->input[k], what);
	}
	*v = elem(im, c, 0);
	return 0;
}

/* cints: the values of constant integer input k (named what) into
** v[0..max), their count into *n; 0 or -1 */
static int
cints(Imp *im, const NodeId *in, int k, const char *what, int64_t *v, int max, int *n)
{
	NodeId c = konst(im, in[k]);
	int64_t cnt;
	const unsigned char *p;

	if (!c) {
		onnx_needconst(im, in[k]);
		return onnx_err(im, "input %d ('%s', the %s) must be a constant: graft has no dynamic shapes", k,
		                im->nd->input[k], what);
	}
	if (dtype(im, c) != DT_INT64 && dtype(im, c) != DT_INT32)
		return onnx_err(im, "input %d ('%s', the %s) must be int64, not %s", k, im->nd->input[k], what,
		                ir_dtype_names[dtype(im, c)]);
	if (rank(im, c) > 1 || (cnt = ir_type_numel(im->m, im->m->nodes[c].type)) > max)
		return onnx_err(im, "input %d ('%s', the %s) must be a list of at most %d values", k, im->nd->input[k],
		                what, max);
	p = ir_node_const(im->m, c)->data;
	for (int64_t i = 0; i < cnt; i++) {
		if (dtype(im, c) == DT_INT64)
			memcpy(&v[i], p + 8 * i, 8);
		else {
			int32_t x;
			memcpy(&x, p + 4 * i, 4);
			v[i] = x;
		}
	}
	*n = (int)cnt;
	return 0;
}

/* mkreshape: reshape(x) to shape d[0..r) */
static NodeId
mkreshape(Imp *im, NodeId x, const int64_t *d, int r)
{
	AttrId at = ir_attr_defaults(im->m, OP_RESHAPE);
	setints(im, OP_RESHAPE, at, "newshape", d, r);
	return onnx_mk(im, OP_RESHAPE, &x, 1, at);
}

/* mktranspose: transpose(x, axes) */
static NodeId
mktranspose(Imp *im, NodeId x, const int64_t *axes, int r)
{
	AttrId at = ir_attr_defaults(im->m, OP_TRANSPOSE);
	setints(im, OP_TRANSPOSE, at, "axes", axes, r);
	return onnx_mk(im, OP_TRANSPOSE, &x, 1, at);
}

/* mk2: op(a, b), no attributes */
static NodeId
mk2(Imp *im, OpId op, NodeId a, NodeId b)
{
	NodeId args[2] = { a, b };
	return a && b ? onnx_mk(im, op, args, 2, 0) : 0;
}

/* iota: the int32 constant 0, 1, ..., n - 1 along axis of a rank-r
** tensor whose other dims are 1 (for comparing with an index) */
static NodeId
iota(Imp *im, DType dt, int64_t n, int axis, int r)
{
	int64_t d[MAXD];
	NodeId k;
	void *v;
	size_t sz = ir_dtype_bytes[dt];
	if (n < 0 || !ir_tensor_fits(n, dt)) {
		onnx_err(im, "a range of %lld values is more than graft's limit for one tensor", (long long)n);
		return 0;
	}
	for (int i = 0; i < r; i++)
		d[i] = i == axis ? n : 1;
	v = ir_xmalloc((size_t)n * sz + 1);
	for (int64_t i = 0; i < n; i++) {
		switch (dt) {
		case DT_FLOAT32: { float f = (float)i; memcpy((char *)v + i * 4, &f, 4); break; }
		case DT_FLOAT64: { double f = (double)i; memcpy((char *)v + i * 8, &f, 8); break; }
		case DT_INT64: memcpy((char *)v + i * 8, &i, 8); break;
		default: { int32_t x = (int32_t)i; memcpy((char *)v + i * 4, &x, 4); break; }
		}
	}
	k = kconst(im, dt, r, d, v);
	free(v);
	return k;
}

/* mkreduce: op(x) (sum, max, mean, ...) over axes ax[0..n), all when n is
** not positive, with keepdims keep */
static NodeId
mkreduce(Imp *im, OpId op, NodeId x, const int64_t *ax, int n, int keep)
{
	AttrId at;
	if (!x)
		return 0;
	at = ir_attr_defaults(im->m, op);
	if (n > 0)
		setints(im, op, at, "axis", ax, n);
	setb(im, op, at, "keepdims", keep);
	return onnx_mk(im, op, &x, 1, at);
}

/* mkcast: cast(x) to dt, or x when it is of dt */
static NodeId
mkcast(Imp *im, NodeId x, DType dt)
{
	AttrId at;
	if (!x || dtype(im, x) == dt)
		return x;
	at = ir_attr_defaults(im->m, OP_CAST);
	setdt(im, OP_CAST, at, "dtype", dt);
	return onnx_mk(im, OP_CAST, &x, 1, at);
}

/* mktake: take(x, i, axis, mode "fast"): i in range, else a run-time error,
** as ONNX's Gather */
static NodeId
mktake(Imp *im, NodeId x, NodeId i, int64_t axis)
{
	NodeId a[2] = { x, i };
	AttrId at = ir_attr_defaults(im->m, OP_TAKE);
	if (!x || !i)
		return 0;
	seti(im, OP_TAKE, at, "axis", axis);
	sets(im, OP_TAKE, at, "mode", "fast");
	return onnx_mk(im, OP_TAKE, a, 2, at);
}

/* takeconst: take(x, the constant indices idx[0..n), axis) */
static NodeId
takeconst(Imp *im, NodeId x, const int64_t *idx, int64_t n, int64_t axis)
{
	return mktake(im, x, kconst(im, DT_INT64, 1, &n, idx), axis);
}

/* mkpad: nn.pad of x by p (ONNX's order: every axis's begin, then every
** axis's end; not negative) with constant v of x's dtype */
static NodeId
mkpad(Imp *im, NodeId x, const int64_t *p, double v)
{
	int r = rank(im, x);
	AttrVal rows[MAXD], xv = { .kind = AV_ARRAY };
	AttrId at;
	NodeId args[2];
	if (!x)
		return 0;
	args[0] = x;
	args[1] = kscalar(im, dtype(im, x), v);
	for (int i = 0; i < r; i++) {
		int64_t pr[2] = { p[i], p[i + r] };
		rows[i] = intsval(im, pr, 2);
	}
	xv.n = (uint32_t)r;
	xv.first = ir_attr_array(im->m, rows, (uint32_t)r);
	at = ir_attr_defaults(im->m, OP_NN_PAD);
	im->m->attrs[at + slot(OP_NN_PAD, "pad_width")] = xv;
	return onnx_mk(im, OP_NN_PAD, args, 2, at);
}

/* mkconcat: concatenate of the tuple of parts[0..n) along axis */
static NodeId
mkconcat(Imp *im, const NodeId *parts, int n, int64_t axis)
{
	NodeId t = mknode(im, ir_tuple(im->m, parts, (uint32_t)n, im->loc));
	AttrId at;
	if (!t)
		return 0;
	at = ir_attr_defaults(im->m, OP_CONCATENATE);
	seti(im, OP_CONCATENATE, at, "axis", axis);
	return onnx_mk(im, OP_CONCATENATE, &t, 1, at);
}

/* ---------------------------------------------------------------- elementwise */

static int
unary(Imp *im, OpId op, const NodeId *in, NodeId *out)
{
	return (out[0] = onnx_mk(im, op, in, 1, 0)) ? 0 : -1;
}

/* Relu -> nn.relu */
static int relu(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return unary(im, OP_NN_RELU, in, out); }
/* sigmoid, for QLinearSigmoid (Sigmoid itself, and the other operators
** of ir/scalar.def's rows, are imported by scalarconv() below) */
static int sigm(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return unary(im, OP_SIGMOID, in, out); }
/* Pow: the exponent may be of another dtype than the base, whose dtype the
** result has: it is cast to it (Relay's power takes one dtype) */
static int
pow_(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	NodeId e = in[1];
	if (dtype(im, e) != dtype(im, in[0])) {
		AttrId at = ir_attr_defaults(im->m, OP_CAST);
		setdt(im, OP_CAST, at, "dtype", dtype(im, in[0]));
		if (!(e = onnx_mk(im, OP_CAST, &e, 1, at)))
			return -1;
	}
	return (out[0] = mk2(im, OP_POWER, in[0], e)) ? 0 : -1;
}

/* Identity, and Dropout in inference (its ratio ignored; training_mode
** must be a constant false): the input itself, and Dropout's mask, when
** asked for, a constant of trues of the input's shape (nothing dropped). */
static int
identity(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	return (out[0] = in[0]) ? 0 : -1;
}
static int
dropout(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	if (nin > 2 && in[2]) {
		if (dtype(im, in[2]) != DT_BOOL || !isconst(im, in[2]) || rank(im, in[2]) != 0) {
			onnx_needconst(im, in[2]);
			return onnx_err(im, "input 2 ('%s', the training_mode) must be a constant: graft imports for inference",
			                im->nd->input[2]);
		}
		if (((const unsigned char *)ir_node_const(im->m, in[2])->data)[0]) {
			/* training: the identity only when nothing is dropped */
			double ratio = 0.5;
			if (nin > 1 && in[1] && cscalar(im, in, 1, "ratio", &ratio))
				return -1;
			if (ratio != 0)
				return onnx_err(im, "training_mode is true and the ratio %g: Dropout draws random numbers "
				                "(graft imports for inference)", ratio);
		}
	}
	if (nout > 1) {
		int r = rank(im, in[0]);
		int64_t n = ir_type_numel(im->m, im->m->nodes[in[0]].type);
		unsigned char *ones;
		if (n < 0 || !ir_tensor_fits(n, DT_BOOL))
			return onnx_err(im, "the mask of %lld elements is more than graft's limit for one tensor", (long long)n);
		ones = ir_xmalloc((size_t)n + 1);
		memset(ones, 1, (size_t)n + 1);
		out[1] = kconst(im, DT_BOOL, r, onnx_dims(im, in[0]), ones);
		free(ones);
	}
	return (out[0] = in[0]) ? 0 : -1;
}
/* Reciprocal -> divide(1, x) in x's dtype */
static int
reciprocal(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	return (out[0] = mk2(im, OP_DIVIDE, kscalar(im, dtype(im, in[0]), 1.0), in[0])) ? 0 : -1;
}
/* LeakyRelu(alpha 0.01) -> nn.leaky_relu */
static int
leakyrelu(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	double alpha;
	AttrId at;
	if (af(im, "alpha", 0.01, &alpha))
		return -1;
	at = ir_attr_defaults(im->m, OP_NN_LEAKY_RELU);
	setf(im, OP_NN_LEAKY_RELU, at, "alpha", alpha);
	return (out[0] = onnx_mk(im, OP_NN_LEAKY_RELU, in, 1, at)) ? 0 : -1;
}

/* un: op(x), no attributes */
static NodeId
un(Imp *im, OpId op, NodeId x)
{
	return x ? onnx_mk(im, op, &x, 1, 0) : 0;
}

/* Sum, Mean: the inputs added pairwise from the first (Mean: then divided
** by their number) */
static int
sumop(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	NodeId r = in[0];
	for (int i = 1; i < nin && r; i++)
		r = mk2(im, OP_ADD, r, in[i]);
	return (out[0] = r) ? 0 : -1;
}
static int
meanop(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	if (sumop(im, in, nin, out, nout))
		return -1;
	return (out[0] = nin > 1 ? mk2(im, OP_DIVIDE, out[0], kscalar(im, dtype(im, in[0]), nin)) : out[0]) ? 0 : -1;
}

/* PRelu(x, slope): where(x < 0, x * slope, x), slope broadcast */
static int
prelu(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	NodeId slope = in[1], w[3];
	int r = rank(im, in[0]);

	/* before opset 7 a slope of C values is per channel (axis 1) */
	if (im->opset < 7 && rank(im, slope) == 1 && r > 2 && onnx_dims(im, slope)[0] == onnx_dims(im, in[0])[1] &&
	    onnx_dims(im, slope)[0] != 1) {
		int64_t d[MAXD];
		d[0] = onnx_dims(im, slope)[0];
		for (int i = 1; i < r - 1; i++)
			d[i] = 1;
		if (!(slope = mkreshape(im, slope, d, r - 1)))
			return -1;
	}
	w[0] = mk2(im, OP_LESS, in[0], kscalar(im, dtype(im, in[0]), 0));
	w[1] = mk2(im, OP_MULTIPLY, in[0], slope);
	w[2] = in[0];
	return (out[0] = w[0] && w[1] ? onnx_mk(im, OP_WHERE, w, 3, 0) : 0) ? 0 : -1;
}

/* Elu(alpha 1): where(x < 0, alpha * (exp(x) - 1), x) */
static int
elu(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	double alpha;
	DType dt = dtype(im, in[0]);
	NodeId w[3];
	if (af(im, "alpha", 1.0, &alpha))
		return -1;
	w[0] = mk2(im, OP_LESS, in[0], kscalar(im, dt, 0));
	w[1] = mk2(im, OP_MULTIPLY, kscalar(im, dt, alpha), mk2(im, OP_SUBTRACT, un(im, OP_EXP, in[0]), kscalar(im, dt, 1)));
	w[2] = in[0];
	return (out[0] = w[0] && w[1] ? onnx_mk(im, OP_WHERE, w, 3, 0) : 0) ? 0 : -1;
}

/* Softplus: log(exp(x) + 1); Softsign: x / (1 + |x|) */
static int
softplus(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	return (out[0] = un(im, OP_LOG, mk2(im, OP_ADD, un(im, OP_EXP, in[0]), kscalar(im, dtype(im, in[0]), 1)))) ? 0 : -1;
}
static int
softsign(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	return (out[0] = mk2(im, OP_DIVIDE, in[0], mk2(im, OP_ADD, kscalar(im, dtype(im, in[0]), 1), un(im, OP_ABS, in[0]))))
	       ? 0 : -1;
}

/* BatchNormalization(x, scale, B, mean, var; epsilon 1e-5, momentum 0.9,
** training_mode 0) -> nn.batch_norm(...).0 over axis 1.  In training mode
** (opset 14), the batch's own mean and variance (over every axis but 1)
** normalize, and the running mean and variance come out as
** mean * momentum + the batch's * (1 - momentum) */
static int
batchnorm(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	double eps, mom;
	int64_t training = 0, ax[MAXD];
	int r = rank(im, in[0]), n = 0;
	DType dt = dtype(im, in[0]);
	AttrId at;
	NodeId t, args[5];
	if (af(im, "epsilon", 1e-5, &eps) || af(im, "momentum", 0.9, &mom) ||
	    (im->opset >= 14 && ai(im, "training_mode", 0, &training)))
		return -1;
	if (nout > 1 && !training)
		return onnx_err(im, "the running mean and variance are outputs only in training mode");
	memcpy(args, in, sizeof args);
	if (training) {
		NodeId mu, var, mub, d;
		for (int i = 0; i < r; i++)
			if (i != 1)
				ax[n++] = i;
		mu = mkreduce(im, OP_MEAN, in[0], ax, n, 0);
		mub = mkreduce(im, OP_MEAN, in[0], ax, n, 1);
		d = mk2(im, OP_SUBTRACT, in[0], mub);
		var = mkreduce(im, OP_MEAN, mk2(im, OP_MULTIPLY, d, d), ax, n, 0);
		args[3] = mu;
		args[4] = var;
		if (nout > 1)
			out[1] = mk2(im, OP_ADD, mk2(im, OP_MULTIPLY, in[3], kscalar(im, dt, mom)),
			             mk2(im, OP_MULTIPLY, mu, kscalar(im, dt, 1 - mom)));
		if (nout > 2)
			out[2] = mk2(im, OP_ADD, mk2(im, OP_MULTIPLY, in[4], kscalar(im, dt, mom)),
			             mk2(im, OP_MULTIPLY, var, kscalar(im, dt, 1 - mom)));
		if (!mu || !var)
			return -1;
	}
	at = ir_attr_defaults(im->m, OP_NN_BATCH_NORM);
	setf(im, OP_NN_BATCH_NORM, at, "epsilon", eps);
	if (!(t = onnx_mk(im, OP_NN_BATCH_NORM, args, 5, at)))
		return -1;
	return (out[0] = mknode(im, ir_getitem(im->m, t, 0, im->loc))) ? 0 : -1;
}

/* Max, Min: maximum or minimum of the inputs, pairwise from the first */
static int
fold2(Imp *im, OpId op, const NodeId *in, int nin, NodeId *out)
{
	NodeId r = in[0];
	for (int i = 1; i < nin && r; i++)
		r = mk2(im, op, r, in[i]);
	return (out[0] = r) ? 0 : -1;
}
static int maxop(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return fold2(im, OP_MAXIMUM, in, nin, out); }
static int minop(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return fold2(im, OP_MINIMUM, in, nin, out); }

/* Add, Sub, Mul, Div: numpy broadcasting, as Relay's */
/* legacy: before opset 7, B broadcasts to A only with broadcast=1, and
** with an axis it lines up there rather than at the end: B then gets
** trailing ones so that numpy broadcasting means the same */
static NodeId
legacy(Imp *im, NodeId a, NodeId b)
{
	int64_t bc, axis, d[MAXD];
	int ra = rank(im, a), rb = rank(im, b);
	const OAttr *ax = attr(im, "axis");

	if (im->opset >= 7 || !a || !b)
		return b;
	if (ai(im, "broadcast", 0, &bc))
		return 0;
	if (!bc || !ax || rb == 0)
		return b;
	if (ai(im, "axis", 0, &axis) || normax(im, &axis, ra, "axis"))
		return 0;
	if (axis + rb > ra) {
		onnx_err(im, "B of rank %d does not fit at axis %lld of A's rank %d", rb, (long long)axis, ra);
		return 0;
	}
	for (int i = 0; i < rb; i++)
		d[i] = onnx_dims(im, b)[i];
	for (int i = rb; i < ra - (int)axis; i++)
		d[i] = 1;
	return mkreshape(im, b, d, ra - (int)axis);
}

/* binop: op(A, B) with numpy broadcasting (opset 7 on), or the legacy
** broadcast attributes before */
static int
binop(Imp *im, OpId op, const NodeId *in, NodeId *out)
{
	return (out[0] = mk2(im, op, in[0], legacy(im, in[0], in[1]))) ? 0 : -1;
}
static int add(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return binop(im, OP_ADD, in, out); }
static int sub(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return binop(im, OP_SUBTRACT, in, out); }
static int mul(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return binop(im, OP_MULTIPLY, in, out); }
static int dvd(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return binop(im, OP_DIVIDE, in, out); }

/* Equal, Less, LessOrEqual, Greater, GreaterOrEqual, And, Or: bool
** results with broadcasting, as Relay's */
static int equal(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return (out[0] = mk2(im, OP_EQUAL, in[0], in[1])) ? 0 : -1; }
static int less(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return (out[0] = mk2(im, OP_LESS, in[0], in[1])) ? 0 : -1; }
static int lesseq(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return (out[0] = mk2(im, OP_LESS_EQUAL, in[0], in[1])) ? 0 : -1; }
static int greater(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return (out[0] = mk2(im, OP_GREATER, in[0], in[1])) ? 0 : -1; }
static int greatereq(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return (out[0] = mk2(im, OP_GREATER_EQUAL, in[0], in[1])) ? 0 : -1; }
static int andop(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return (out[0] = mk2(im, OP_LOGICAL_AND, in[0], in[1])) ? 0 : -1; }
static int orop(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return (out[0] = mk2(im, OP_LOGICAL_OR, in[0], in[1])) ? 0 : -1; }
/* Not, Erf, Round (halves to even), Sign -> their Relay ops */
static int notop(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return unary(im, OP_LOGICAL_NOT, in, out); }
/* Where(condition, x, y) -> where */
static int
whereop(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	return (out[0] = in[0] && in[1] && in[2] ? onnx_mk(im, OP_WHERE, in, 3, 0) : 0) ? 0 : -1;
}

/* mkclip: clip(x, lo, hi) */
static NodeId
mkclip(Imp *im, NodeId x, double lo, double hi)
{
	AttrId at = ir_attr_defaults(im->m, OP_CLIP);
	setf(im, OP_CLIP, at, "a_min", lo);
	setf(im, OP_CLIP, at, "a_max", hi);
	return x ? onnx_mk(im, OP_CLIP, &x, 1, at) : 0;
}

/* Clip: min and max are attributes before opset 11, optional constant
** inputs from 11; absent bounds are the float range */
static int
clip(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	double lo = -FLT_MAX, hi = FLT_MAX;

	if (im->opset < 11) {
		if (nin > 1)
			return onnx_err(im, "takes one input before opset 11 (min and max are attributes)");
		if (af(im, "min", lo, &lo) || af(im, "max", hi, &hi))
			return -1;
	} else {
		for (int k = 1; k < nin; k++) {
			if (!in[k])
				continue;
			if (cscalar(im, in, k, k == 1 ? "min" : "max", k == 1 ? &lo : &hi))
				return -1;
		}
	}
	/* absent bounds of an integer input: its dtype's range */
	switch (dtype(im, in[0])) {
	case DT_INT8: lo = fmax(lo, INT8_MIN); hi = fmin(hi, INT8_MAX); break;
	case DT_UINT8: lo = fmax(lo, 0); hi = fmin(hi, UINT8_MAX); break;
	case DT_INT16: lo = fmax(lo, INT16_MIN); hi = fmin(hi, INT16_MAX); break;
	case DT_UINT16: lo = fmax(lo, 0); hi = fmin(hi, UINT16_MAX); break;
	case DT_INT32: lo = fmax(lo, INT32_MIN); hi = fmin(hi, INT32_MAX); break;
	case DT_UINT32: lo = fmax(lo, 0); hi = fmin(hi, UINT32_MAX); break;
	default: break;
	}
	return (out[0] = mkclip(im, in[0], lo, hi)) ? 0 : -1;
}

/* hardsig: nn.hard_sigmoid(x, alpha, beta), an RNN's activation (the
** operator HardSigmoid is imported from ir/scalar.def's row) */
static NodeId
hardsig(Imp *im, NodeId x, double alpha, double beta)
{
	AttrId at = ir_attr_defaults(im->m, OP_NN_HARD_SIGMOID);
	setf(im, OP_NN_HARD_SIGMOID, at, "alpha", alpha);
	setf(im, OP_NN_HARD_SIGMOID, at, "beta", beta);
	return x ? onnx_mk(im, OP_NN_HARD_SIGMOID, &x, 1, at) : 0;
}

/* Cast(to) -> cast */
static int
cast(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	int64_t to;
	DType dt;
	AttrId at;
	if (ai(im, "to", 0, &to))
		return -1;
	if (!attr(im, "to"))
		return onnx_err(im, "attribute 'to' is required");
	if ((dt = onnx_dtype(to)) == DT_VOID)
		return onnx_err(im, "casting to %s (%lld) is not supported", onnx_dtype_name(to), (long long)to);
	at = ir_attr_defaults(im->m, OP_CAST);
	setdt(im, OP_CAST, at, "dtype", dt);
	return (out[0] = onnx_mk(im, OP_CAST, in, 1, at)) ? 0 : -1;
}

/* CastLike(x, like) -> cast to like's dtype */
static int
castlike(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	return (out[0] = mkcast(im, in[0], dtype(im, in[1]))) ? 0 : -1;
}

/* Xor -> not_equal of the booleans */
static int xorop(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return (out[0] = mk2(im, OP_NOT_EQUAL, in[0], in[1])) ? 0 : -1; }

/* IsNaN: x != x.  IsInf(detect_negative 1, detect_positive 1): x == +inf
** or x == -inf, as asked */
static int
isnan_(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	return (out[0] = mk2(im, OP_NOT_EQUAL, in[0], in[0])) ? 0 : -1;
}
static int
isinf_(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	int64_t neg, pos;
	DType dt = dtype(im, in[0]);
	NodeId p, n;
	if (ai(im, "detect_negative", 1, &neg) || ai(im, "detect_positive", 1, &pos))
		return -1;
	p = mk2(im, OP_EQUAL, in[0], kscalar(im, dt, INFINITY));
	n = mk2(im, OP_EQUAL, in[0], kscalar(im, dt, -INFINITY));
	if (pos && neg)
		out[0] = mk2(im, OP_LOGICAL_OR, p, n);
	else
		out[0] = pos ? p : neg ? n : mk2(im, OP_LESS, in[0], in[0]);  /* false everywhere */
	return out[0] ? 0 : -1;
}

/* Selu(alpha 1.67326319217681884765625, gamma 1.05070102214813232421875):
** gamma * (x > 0 ? x : alpha * (exp(x) - 1)) */
static int
selu(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	double alpha, gamma;
	DType dt = dtype(im, in[0]);
	NodeId w[3];
	if (af(im, "alpha", 1.67326319217681884765625, &alpha) || af(im, "gamma", 1.05070102214813232421875, &gamma))
		return -1;
	w[0] = mk2(im, OP_GREATER, in[0], kscalar(im, dt, 0));
	w[1] = mk2(im, OP_MULTIPLY, kscalar(im, dt, gamma), in[0]);
	w[2] = mk2(im, OP_MULTIPLY, kscalar(im, dt, gamma * alpha),
	           mk2(im, OP_SUBTRACT, un(im, OP_EXP, in[0]), kscalar(im, dt, 1)));
	return (out[0] = w[0] && w[1] && w[2] ? onnx_mk(im, OP_WHERE, w, 3, 0) : 0) ? 0 : -1;
}

/* Celu(alpha 1): max(0, x) + min(0, alpha * (exp(x / alpha) - 1)) */
static int
celu(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	double alpha;
	DType dt = dtype(im, in[0]);
	NodeId e;
	if (af(im, "alpha", 1.0, &alpha))
		return -1;
	e = un(im, OP_EXP, mk2(im, OP_DIVIDE, in[0], kscalar(im, dt, alpha)));
	e = mk2(im, OP_MULTIPLY, kscalar(im, dt, alpha), mk2(im, OP_SUBTRACT, e, kscalar(im, dt, 1)));
	return (out[0] = mk2(im, OP_ADD, mk2(im, OP_MAXIMUM, kscalar(im, dt, 0), in[0]),
	                     mk2(im, OP_MINIMUM, kscalar(im, dt, 0), e))) ? 0 : -1;
}

/* ThresholdedRelu(alpha 1): x > alpha ? x : 0 */
static int
thresholdedrelu(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	double alpha;
	DType dt = dtype(im, in[0]);
	NodeId w[3];
	if (af(im, "alpha", 1.0, &alpha))
		return -1;
	w[0] = mk2(im, OP_GREATER, in[0], kscalar(im, dt, alpha));
	w[1] = in[0];
	w[2] = kscalar(im, dt, 0);
	return (out[0] = w[0] ? onnx_mk(im, OP_WHERE, w, 3, 0) : 0) ? 0 : -1;
}

/* Shrink(bias 0, lambd 0.5): x < -lambd ? x + bias : x > lambd ? x - bias : 0 */
static int
shrink(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	double bias, lambd;
	DType dt = dtype(im, in[0]);
	NodeId w[3], v[3];
	if (af(im, "bias", 0, &bias) || af(im, "lambd", 0.5, &lambd))
		return -1;
	v[0] = mk2(im, OP_GREATER, in[0], kscalar(im, dt, lambd));
	v[1] = mk2(im, OP_SUBTRACT, in[0], kscalar(im, dt, bias));
	v[2] = kscalar(im, dt, 0);
	w[0] = mk2(im, OP_LESS, in[0], kscalar(im, dt, -lambd));
	w[1] = mk2(im, OP_ADD, in[0], kscalar(im, dt, bias));
	w[2] = v[0] && v[1] ? onnx_mk(im, OP_WHERE, v, 3, 0) : 0;
	return (out[0] = w[0] && w[1] && w[2] ? onnx_mk(im, OP_WHERE, w, 3, 0) : 0) ? 0 : -1;
}

/* Trilu(x, k; upper 1): the elements of the last two dims on and above
** (upper) or on and below the k-th diagonal, zeros elsewhere: where with
** a constant mask */
static int
trilu(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	int64_t upper, k = 0, kv[1], d[2];
	int n, r = rank(im, in[0]);
	unsigned char *mask;
	NodeId w[3];
	if (ai(im, "upper", 1, &upper))
		return -1;
	if (nin > 1 && in[1]) {
		if (cints(im, in, 1, "k", kv, 1, &n))
			return -1;
		if (n == 1)
			k = kv[0];
	}
	if (r < 2)
		return onnx_err(im, "the input must have rank 2 or more, not %d", r);
	d[0] = onnx_dims(im, in[0])[r - 2];
	d[1] = onnx_dims(im, in[0])[r - 1];
	if (!ir_tensor_fits(d[0] * d[1], DT_BOOL))
		return onnx_err(im, "a mask of %lld by %lld is more than graft's limit for one tensor", (long long)d[0],
		                (long long)d[1]);
	mask = ir_xmalloc((size_t)(d[0] * d[1]) + 1);
	for (int64_t i = 0; i < d[0]; i++)
		for (int64_t j = 0; j < d[1]; j++)
			mask[i * d[1] + j] = upper ? j - i >= k : j - i <= k;
	w[0] = kconst(im, DT_BOOL, 2, d, mask);
	free(mask);
	w[1] = in[0];
	w[2] = kscalar(im, dtype(im, in[0]), 0);
	return (out[0] = onnx_mk(im, OP_WHERE, w, 3, 0)) ? 0 : -1;
}

/* Einsum(equation) -> einsum of a tuple */
static int
einsumop(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	char eq[256], sp[256];
	size_t k = 0;
	AttrId at;
	NodeId t;
	if (!attr(im, "equation"))
		return onnx_err(im, "attribute 'equation' is required");
	if (as(im, "equation", "", eq, sizeof eq))
		return -1;
	for (const char *p = eq; *p; p++)       /* ONNX allows spaces */
		if (*p != ' ')
			sp[k++] = *p;
	sp[k] = 0;
	if (!(t = mknode(im, ir_tuple(im->m, in, (uint32_t)nin, im->loc))))
		return -1;
	at = ir_attr_defaults(im->m, OP_EINSUM);
	sets(im, OP_EINSUM, at, "equation", sp);
	return (out[0] = onnx_mk(im, OP_EINSUM, &t, 1, at)) ? 0 : -1;
}

/* blocks: x (N, C, H, W) to or from blocks of b by b: reshape to rank 6,
** transpose by perm, reshape to the result's dims */
static NodeId
blocks(Imp *im, NodeId x, const int64_t *six, const int64_t *perm, const int64_t *four)
{
	return mkreshape(im, mktranspose(im, mkreshape(im, x, six, 6), perm, 6), four, 4);
}

/* DepthToSpace(blocksize; mode DCR or CRD), SpaceToDepth(blocksize):
** reshapes and a transpose, as ONNX defines them */
static int
depthspace(Imp *im, const NodeId *in, NodeId *out, int tospace)
{
	int64_t b, n, c, h, w;
	char mode[8];
	if (ai(im, "blocksize", 0, &b) || (tospace && as(im, "mode", "DCR", mode, sizeof mode)))
		return -1;
	if (rank(im, in[0]) != 4)
		return onnx_err(im, "the input must have rank 4 (NCHW), not %d", rank(im, in[0]));
	n = onnx_dims(im, in[0])[0];
	c = onnx_dims(im, in[0])[1];
	h = onnx_dims(im, in[0])[2];
	w = onnx_dims(im, in[0])[3];
	if (b < 1 || (tospace ? c % (b * b) : h % b || w % b))
		return onnx_err(im, "blocksize %lld does not divide the input's %s", (long long)b,
		                tospace ? "channels by its square" : "height and width");
	if (!tospace) {
		int64_t six[6] = { n, c, h / b, b, w / b, b }, perm[6] = { 0, 3, 5, 1, 2, 4 };
		int64_t four[4] = { n, c * b * b, h / b, w / b };
		return (out[0] = blocks(im, in[0], six, perm, four)) ? 0 : -1;
	}
	if (strcmp(mode, "DCR") == 0) {
		int64_t six[6] = { n, b, b, c / (b * b), h, w }, perm[6] = { 0, 3, 4, 1, 5, 2 };
		int64_t four[4] = { n, c / (b * b), h * b, w * b };
		return (out[0] = blocks(im, in[0], six, perm, four)) ? 0 : -1;
	}
	if (strcmp(mode, "CRD") == 0) {
		int64_t six[6] = { n, c / (b * b), b, b, h, w }, perm[6] = { 0, 1, 4, 2, 5, 3 };
		int64_t four[4] = { n, c / (b * b), h * b, w * b };
		return (out[0] = blocks(im, in[0], six, perm, four)) ? 0 : -1;
	}
	return onnx_err(im, "mode '%s' is not DCR or CRD", mode);
}
static int depthtospace(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return depthspace(im, in, out, 1); }
static int spacetodepth(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return depthspace(im, in, out, 0); }

/* Tile(x, repeats): along each axis, concatenate of repeats copies */
static int
tile(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	int64_t rep[MAXD];
	int n, r = rank(im, in[0]);
	NodeId x = in[0];
	if (cints(im, in, 1, "repeats", rep, MAXD, &n))
		return -1;
	if (n != r)
		return onnx_err(im, "repeats has %d values for an input of rank %d", n, r);
	for (int i = 0; i < r && x; i++) {
		NodeId *parts;
		if (rep[i] < 0 || rep[i] > 4096)
			return onnx_err(im, "repeats[%d] is %lld: graft takes 0 to 4096", i, (long long)rep[i]);
		if (rep[i] == 1)
			continue;
		if (rep[i] == 0) {
			int64_t d[MAXD];
			memcpy(d, onnx_dims(im, x), (size_t)r * sizeof *d);
			d[i] = 0;
			x = kconst(im, dtype(im, x), r, d, "");
			continue;
		}
		parts = ir_xmalloc((size_t)rep[i] * sizeof *parts);
		for (int64_t k = 0; k < rep[i]; k++)
			parts[k] = x;
		x = mkconcat(im, parts, (int)rep[i], i);
		free(parts);
	}
	return (out[0] = x) ? 0 : -1;
}

/* OneHot(indices, depth, values; axis -1): values[1] where the index
** (negative ones counted from depth, as ONNX's reference takes them
** modulo depth) equals the position along the new axis, values[0]
** elsewhere */
static int
onehot(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	int64_t axis, depth;
	int r = rank(im, in[0]);
	DType it = dtype(im, in[0]);
	double dd;
	NodeId idx = in[0], w[3], ax;
	AttrId at;
	if (ai(im, "axis", -1, &axis) || normax(im, &axis, r + 1, "axis"))
		return -1;
	if (cscalar(im, in, 1, "depth", &dd))
		return -1;
	if (ir_type_numel(im->m, im->m->nodes[in[2]].type) != 2)
		return onnx_err(im, "input 2 ('%s', the values) must have 2 elements", im->nd->input[2]);
	depth = d2i(dd);
	if (depth < 1)
		return onnx_err(im, "depth %lld is not positive", (long long)depth);
	/* where(i < 0, i + depth, i) */
	w[0] = mk2(im, OP_LESS, idx, kscalar(im, it, 0));
	w[1] = mk2(im, OP_ADD, idx, kscalar(im, it, (double)depth));
	w[2] = idx;
	if (!w[0] || !w[1] || !(idx = onnx_mk(im, OP_WHERE, w, 3, 0)))
		return -1;
	at = ir_attr_defaults(im->m, OP_EXPAND_DIMS);
	seti(im, OP_EXPAND_DIMS, at, "axis", axis);
	if (!(idx = onnx_mk(im, OP_EXPAND_DIMS, &idx, 1, at)) ||
	    !(ax = mkcast(im, iota(im, DT_INT64, depth, (int)axis, r + 1), it)))
		return -1;
	{
		AttrId s0 = ir_attr_defaults(im->m, OP_STRIDED_SLICE), s1 = ir_attr_defaults(im->m, OP_STRIDED_SLICE);
		int64_t b0 = 0, e0 = 1, b1 = 1, e1 = 2, one = 1;
		NodeId v = in[2];
		if (rank(im, v) != 1 && !(v = mkreshape(im, v, (int64_t[]){ 2 }, 1)))
			return -1;
		setints(im, OP_STRIDED_SLICE, s0, "begin", &b0, 1);
		setints(im, OP_STRIDED_SLICE, s0, "end", &e0, 1);
		setints(im, OP_STRIDED_SLICE, s1, "begin", &b1, 1);
		setints(im, OP_STRIDED_SLICE, s1, "end", &e1, 1);
		setints(im, OP_STRIDED_SLICE, s0, "strides", &one, 1);
		setints(im, OP_STRIDED_SLICE, s1, "strides", &one, 1);
		w[0] = mk2(im, OP_EQUAL, idx, ax);
		w[1] = onnx_mk(im, OP_STRIDED_SLICE, &v, 1, s1);
		w[2] = onnx_mk(im, OP_STRIDED_SLICE, &v, 1, s0);
	}
	return (out[0] = w[0] && w[1] && w[2] ? onnx_mk(im, OP_WHERE, w, 3, 0) : 0) ? 0 : -1;
}

/* Mod(fmod 0): integers as Python's % (floor_mod, the divisor's sign);
** fmod 1: C's fmod and truncating integer % (mod) */
static int
modop(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	int64_t fm;
	if (ai(im, "fmod", 0, &fm))
		return -1;
	if (!fm && ir_dtype_kind[dtype(im, in[0])] == 'f')
		return onnx_err(im, "fmod must be 1 for floats");
	return (out[0] = mk2(im, fm ? OP_MOD : OP_FLOOR_MOD, in[0], in[1])) ? 0 : -1;
}

/* BitShift(direction LEFT or RIGHT) -> left_shift, right_shift */
static int
bitshift(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	char dir[8];
	if (as(im, "direction", "", dir, sizeof dir))
		return -1;
	if (strcmp(dir, "LEFT") && strcmp(dir, "RIGHT"))
		return onnx_err(im, "direction '%s' is not LEFT or RIGHT", dir);
	return (out[0] = mk2(im, dir[0] == 'L' ? OP_LEFT_SHIFT : OP_RIGHT_SHIFT, in[0], in[1])) ? 0 : -1;
}

/* BitwiseAnd, BitwiseOr, BitwiseXor, BitwiseNot (opset 18) */
static int bitand_(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return (out[0] = mk2(im, OP_BITWISE_AND, in[0], in[1])) ? 0 : -1; }
static int bitor_(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return (out[0] = mk2(im, OP_BITWISE_OR, in[0], in[1])) ? 0 : -1; }
static int bitxor_(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return (out[0] = mk2(im, OP_BITWISE_XOR, in[0], in[1])) ? 0 : -1; }
static int bitnot_(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return unary(im, OP_BITWISE_NOT, in, out); }

/* CumSum(x, axis; exclusive 0, reverse 0) -> cumsum (reverse: of the axis
** reversed, reversed back: takes of constant indices) */
static int
cumsumop(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	int64_t ax[1], excl, rev, n, *idx;
	int na, r = rank(im, in[0]);
	NodeId x = in[0];
	AttrId at;
	if (cints(im, in, 1, "axis", ax, 1, &na) || ai(im, "exclusive", 0, &excl) || ai(im, "reverse", 0, &rev))
		return -1;
	if (na != 1 || normax(im, &ax[0], r, "axis"))
		return onnx_err(im, "axis must be one value within the rank");
	n = onnx_dims(im, x)[ax[0]];
	idx = ir_xmalloc((size_t)n * sizeof *idx + 8);
	for (int64_t i = 0; i < n; i++)
		idx[i] = n - 1 - i;
	if (rev)
		x = takeconst(im, x, idx, n, ax[0]);
	at = ir_attr_defaults(im->m, OP_CUMSUM);
	seti(im, OP_CUMSUM, at, "axis", ax[0]);
	setb(im, OP_CUMSUM, at, "exclusive", (int)excl);
	x = x ? onnx_mk(im, OP_CUMSUM, &x, 1, at) : 0;
	if (rev && x)
		x = takeconst(im, x, idx, n, ax[0]);
	free(idx);
	return (out[0] = x) ? 0 : -1;
}

/* Expand(x, shape): broadcast_to the shape x and shape broadcast to (ONNX
** broadcasts both ways) */
static int
expand(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	int64_t sh[MAXD], od[MAXD];
	int ns, r = rank(im, in[0]), ro;
	AttrId at;
	if (cints(im, in, 1, "shape", sh, MAXD, &ns))
		return -1;
	ro = ns > r ? ns : r;
	for (int i = 0; i < ro; i++) {
		int64_t a = i - (ro - r) >= 0 ? onnx_dims(im, in[0])[i - (ro - r)] : 1;
		int64_t b = i - (ro - ns) >= 0 ? sh[i - (ro - ns)] : 1;
		if (a != b && a != 1 && b != 1)
			return onnx_err(im, "the input's dim %lld and the shape's %lld do not broadcast", (long long)a,
			                (long long)b);
		od[i] = a == 1 ? b : a;
	}
	at = ir_attr_defaults(im->m, OP_BROADCAST_TO);
	setints(im, OP_BROADCAST_TO, at, "shape", od, ro);
	return (out[0] = onnx_mk(im, OP_BROADCAST_TO, in, 1, at)) ? 0 : -1;
}

/* ---------------------------------------------------------------- constants */

/* Constant(value | value_float | value_int | value_floats | value_ints) */
static int
constant(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	const OAttr *a;
	char msg[400];
	Tensor t;

	if (im->nd->n_attribute != 1)
		return onnx_err(im, "needs exactly one attribute, not %zu", im->nd->n_attribute);
	a = im->nd->attribute[0];
	if (!a->name)
		return onnx_err(im, "attribute without a name");
	if (strcmp(a->name, "value") == 0) {
		if (!attyped(im, a, OA_TENSOR))
			return -1;
		if (!a->t)
			return onnx_err(im, "attribute 'value' has no tensor");
		if (onnx_tensor_data(a->t, im->dir, &t, msg, sizeof msg) != 0)
			return onnx_err(im, "attribute 'value': %s", msg);
		out[0] = kconst(im, t.dt, (int)t.rank, t.dims, t.data);
		ir_tensor_free(&t);
	} else if (strcmp(a->name, "value_float") == 0) {
		if (!attyped(im, a, OA_FLOAT))
			return -1;
		out[0] = kscalar(im, DT_FLOAT32, a->f);
	} else if (strcmp(a->name, "value_int") == 0) {
		if (!attyped(im, a, OA_INT))
			return -1;
		out[0] = kconst(im, DT_INT64, 0, NULL, &a->i);
	} else if (strcmp(a->name, "value_floats") == 0 || strcmp(a->name, "value_ints") == 0) {
		int fl = a->name[6] == 'f';
		int64_t n;
		if (!attyped(im, a, fl ? OA_FLOATS : OA_INTS))
			return -1;
		n = (int64_t)(fl ? a->n_floats : a->n_ints);
		out[0] = kconst(im, fl ? DT_FLOAT32 : DT_INT64, 1, &n, fl ? (const void *)a->floats : (const void *)a->ints);
	} else {
		return onnx_err(im, "attribute '%s' is not supported (value, value_float(s), value_int(s) are)", a->name);
	}
	return 0;
}

/* ConstantOfShape(shape; value = float 0): a constant */
static int
constantofshape(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	int64_t d[MAXD], numel = 1;
	int r;
	const OAttr *a = attr(im, "value");
	Tensor v = { .dt = DT_FLOAT32 };
	unsigned char zero[8] = { 0 }, *buf;
	const unsigned char *val = zero;
	char msg[400];
	size_t esz;

	if (cints(im, in, 0, "shape", d, MAXD, &r))
		return -1;
	for (int i = 0; i < r; i++) {
		if (d[i] < 0)
			return onnx_err(im, "shape has a negative dim (%lld)", (long long)d[i]);
		if (d[i] && numel > ((int64_t)1 << 32) / d[i])
			return onnx_err(im, "shape has more than 2^32 elements");
		numel *= d[i];
	}
	if (a) {
		if (!attyped(im, a, OA_TENSOR))
			return -1;
		if (!a->t || onnx_tensor_data(a->t, im->dir, &v, msg, sizeof msg) != 0)
			return onnx_err(im, "attribute 'value': %s", a->t ? msg : "no tensor");
		if (ir_tensor_numel(&v) != 1) {
			ir_tensor_free(&v);
			return onnx_err(im, "attribute 'value' must have one element");
		}
		val = v.data;
	}
	esz = ir_dtype_bytes[v.dt];
	if (!ir_tensor_fits(numel, v.dt)) {
		ir_tensor_free(&v);
		return onnx_err(im, "the constant would have %lld elements, %llu bytes, more than graft's limit of %llu "
		                "bytes for one tensor (raise it with --max-tensor-bytes)", (long long)numel,
		                (unsigned long long)numel * esz, (unsigned long long)ir_max_tensor_bytes());
	}
	buf = ir_xmalloc((size_t)numel * esz + 1);
	for (int64_t i = 0; i < numel; i++)
		memcpy(buf + (size_t)i * esz, val, esz);
	out[0] = kconst(im, v.dt, r, d, buf);
	free(buf);
	ir_tensor_free(&v);
	return 0;
}

/* ---------------------------------------------------------------- shapes */

/* Size: the number of elements, an int64 scalar */
static int
size(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	int64_t n = ir_type_numel(im->m, im->m->nodes[in[0]].type);
	out[0] = kconst(im, DT_INT64, 0, NULL, &n);
	return 0;
}

/* EyeLike(x; dtype = x's, k 0): ones on the k-th diagonal of a matrix of
** x's shape */
static int
eyelike(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	int64_t k, et;
	DType dt = dtype(im, in[0]);
	int64_t d_[MAXD];     /* copies: the module's dims move as it grows */
	const int64_t *d = dimsof(im, in[0], d_);
	unsigned char *v;
	size_t sz;
	if (ai(im, "k", 0, &k) || ai(im, "dtype", 0, &et))
		return -1;
	if (attr(im, "dtype") && (dt = onnx_dtype(et)) == DT_VOID)
		return onnx_err(im, "dtype %s (%lld) is not supported", onnx_dtype_name(et), (long long)et);
	if (rank(im, in[0]) != 2)
		return onnx_err(im, "the input must have rank 2, not %d", rank(im, in[0]));
	if (!ir_tensor_fits(d[0] * d[1], dt))
		return onnx_err(im, "a matrix of %lld by %lld is more than graft's limit for one tensor", (long long)d[0],
		                (long long)d[1]);
	sz = ir_dtype_bytes[dt];
	v = ir_xcalloc((size_t)(d[0] * d[1]) + 1, sz);
	for (int64_t i = 0; i < d[0]; i++)
		if (i + k >= 0 && i + k < d[1])
			putd(v + (size_t)(i * d[1] + i + k) * sz, dt, 1);
	out[0] = kconst(im, dt, 2, d, v);
	free(v);
	return 0;
}

/* Range(start, limit, delta): the constant start + i * delta for i from 0
** while below limit (above, for a negative delta); the inputs must be
** constant scalars */
static int
range(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	double v[3];
	int64_t n;
	DType dt = dtype(im, in[0]);
	unsigned char *buf;
	size_t sz = ir_dtype_bytes[dt];
	static const char *const what[] = { "start", "limit", "delta" };
	for (int k = 0; k < 3; k++)
		if (cscalar(im, in, k, what[k], &v[k]))
			return -1;
	if (v[2] == 0)
		return onnx_err(im, "delta is 0");
	n = d2i(fmax(ceil((v[1] - v[0]) / v[2]), 0));
	if (!ir_tensor_fits(n, dt))
		return onnx_err(im, "a range of %lld values is more than graft's limit for one tensor", (long long)n);
	buf = ir_xmalloc((size_t)n * sz + 1);
	for (int64_t i = 0; i < n; i++) {
		if (dt == DT_INT64) {   /* exact beyond 2^53 */
			int64_t s = d2i(v[0]) + i * d2i(v[2]);
			memcpy(buf + i * 8, &s, 8);
			continue;
		}
		putd(buf + (size_t)i * sz, dt,
		     dt == DT_FLOAT32 ? (double)((float)v[0] + (float)i * (float)v[2]) : v[0] + (double)i * v[2]);
	}
	out[0] = kconst(im, dt, 1, &n, buf);
	free(buf);
	return 0;
}

/* Reshape(data, shape; allowzero from 14): 0 copies the input's dim
** (unless allowzero), -1 is inferred; graft gets the computed shape */
static int
reshape(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	int64_t d[MAXD], allowzero = 0, known = 1, total;
	int r, neg = -1;
	int64_t xd_[MAXD];     /* copies: the module's dims move as it grows */
	const int64_t *xd = dimsof(im, in[0], xd_);

	if (cints(im, in, 1, "shape", d, MAXD, &r) || (im->opset >= 14 && ai(im, "allowzero", 0, &allowzero)))
		return -1;
	total = prod(im, in[0], 0, rank(im, in[0]));
	for (int i = 0; i < r; i++) {
		if (d[i] == 0 && !allowzero) {
			if (i >= rank(im, in[0]))
				return onnx_err(im, "shape[%d] is 0 but the input has rank %d", i, rank(im, in[0]));
			d[i] = xd[i];
		}
		if (d[i] == -1) {
			if (neg >= 0)
				return onnx_err(im, "shape has more than one -1");
			neg = i;
		} else if (d[i] < 0) {
			return onnx_err(im, "shape[%d] is %lld", i, (long long)d[i]);
		} else if (__builtin_mul_overflow(known, d[i], &known)) {
			return onnx_err(im, "shape has more than 2^63 elements");
		}
	}
	if (neg >= 0) {
		if (!known || total % known)
			return onnx_err(im, "cannot infer the -1 in the shape: %lld elements", (long long)total);
		d[neg] = total / known;
	}
	if (allowzero) {
		AttrId at = ir_attr_defaults(im->m, OP_RESHAPE);
		setints(im, OP_RESHAPE, at, "newshape", d, r);
		setb(im, OP_RESHAPE, at, "allowzero", 1);
		return (out[0] = onnx_mk(im, OP_RESHAPE, in, 1, at)) ? 0 : -1;
	}
	return (out[0] = mkreshape(im, in[0], d, r)) ? 0 : -1;
}

/* Shape(start = 0, end = rank): the dims of the input's static type, an
** int64 constant (PyTorch's exporter takes the shape of a bias's scale
** for its zero point) */
static int
shape(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	int r = rank(im, in[0]);
	int64_t start, end, n;
	if (ai(im, "start", 0, &start) || ai(im, "end", r, &end))
		return -1;
	if (start < 0)
		start += r;
	if (end < 0)
		end += r;
	start = start < 0 ? 0 : start > r ? r : start;
	end = end < start ? start : end > r ? r : end;
	n = end - start;
	out[0] = kconst(im, DT_INT64, 1, &n, onnx_dims(im, in[0]) + start);
	return 0;
}

/* Flatten(axis = 1) -> reshape to 2-D */
static int
flatten(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	int64_t axis, d[2];
	int r = rank(im, in[0]);
	if (ai(im, "axis", 1, &axis))
		return -1;
	if (axis < -r || axis > r)
		return onnx_err(im, "axis %lld is out of range for rank %d", (long long)axis, r);
	if (axis < 0)
		axis += r;
	d[0] = prod(im, in[0], 0, (int)axis);
	d[1] = prod(im, in[0], (int)axis, r);
	return (out[0] = mkreshape(im, in[0], d, 2)) ? 0 : -1;
}

/* Transpose(perm = reversed axes) */
static int
transpose(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	int64_t p[MAXD];
	int n, r = rank(im, in[0]);
	if (aints(im, "perm", p, MAXD, &n))
		return -1;
	if (n < 0)
		for (n = 0; n < r; n++)
			p[n] = r - 1 - n;
	return (out[0] = mktranspose(im, in[0], p, n)) ? 0 : -1;
}

/* Concat(axis) -> concatenate of a tuple */
static int
concat(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	int64_t axis;
	for (int k = 0; k < nin; k++)
		if (!in[k])
			return onnx_err(im, "input %d is empty", k);
	if (!attr(im, "axis"))
		return onnx_err(im, "attribute 'axis' is required");
	if (ai(im, "axis", 0, &axis))
		return -1;
	return (out[0] = mkconcat(im, in, nin, axis)) ? 0 : -1;
}

/* emptysplit: Split with parts of size 0, which split's ascending
** indices cannot say: one strided_slice per part, ending at end[k] along
** axis */
static int
emptysplit(Imp *im, NodeId x, int axis, const int64_t *end, NodeId *out, int nout)
{
	int r = rank(im, x);
	int64_t b[MAXD], e[MAXD], st[MAXD];

	for (int k = 0; k < nout; k++) {
		AttrId at = ir_attr_defaults(im->m, OP_STRIDED_SLICE);
		for (int i = 0; i < r; i++) {
			b[i] = 0;
			e[i] = onnx_dims(im, x)[i];
			st[i] = 1;
		}
		b[axis] = k ? end[k - 1] : 0;
		e[axis] = end[k];
		setints(im, OP_STRIDED_SLICE, at, "begin", b, r);
		setints(im, OP_STRIDED_SLICE, at, "end", e, r);
		setints(im, OP_STRIDED_SLICE, at, "strides", st, r);
		if (!(out[k] = onnx_mk(im, OP_STRIDED_SLICE, &x, 1, at)))
			return -1;
	}
	return 0;
}

/* Split(axis = 0; split: an attribute before 13, an input from 13) ->
** split + tuple_get_item */
static int
split(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	int64_t axis, s[ONNX_MAXIN], idx[ONNX_MAXIN];
	int n = -1, r = rank(im, in[0]);
	NodeId t;
	AttrId at;

	if (ai(im, "axis", 0, &axis) || normax(im, &axis, r, "axis"))
		return -1;
	if (im->opset < 13) {
		if (nin > 1)
			return onnx_err(im, "takes one input before opset 13 (split is an attribute)");
		if (aints(im, "split", s, ONNX_MAXIN, &n))
			return -1;
	} else if (nin > 1 && in[1]) {
		if (cints(im, in, 1, "split", s, ONNX_MAXIN, &n))
			return -1;
	}
	if (n < 0 && im->opset >= 18 && attr(im, "num_outputs")) {
		/* num_outputs parts of ceil(dim / num_outputs), the last smaller */
		int64_t no, dim = onnx_dims(im, in[0])[axis], c;
		if (ai(im, "num_outputs", 0, &no))
			return -1;
		if (no != nout || no < 1)
			return onnx_err(im, "num_outputs is %lld for %d outputs", (long long)no, nout);
		c = (dim + no - 1) / no;
		for (n = 0; n < nout; n++)
			s[n] = dim - c * n < c ? (dim - c * n > 0 ? dim - c * n : 0) : c;
	}
	at = ir_attr_defaults(im->m, OP_SPLIT);
	seti(im, OP_SPLIT, at, "axis", axis);
	if (n < 0) {
		if (onnx_dims(im, in[0])[axis] % nout)
			return onnx_err(im, "dim %lld of size %lld does not split into %d equal parts", (long long)axis,
			                (long long)onnx_dims(im, in[0])[axis], nout);
		seti(im, OP_SPLIT, at, "indices_or_sections", nout);
	} else {
		int64_t sum = 0;
		AttrVal x;
		if (n != nout)
			return onnx_err(im, "split has %d sizes for %d outputs", n, nout);
		for (int i = 0; i < n; i++) {
			if (s[i] < 0)
				return onnx_err(im, "split size %lld is negative", (long long)s[i]);
			if (__builtin_add_overflow(sum, s[i], &sum))
				return onnx_err(im, "split sizes add up to more than 2^63");
			idx[i] = sum;
		}
		if (sum != onnx_dims(im, in[0])[axis])
			return onnx_err(im, "split sizes add up to %lld, not dim %lld's %lld", (long long)sum,
			                (long long)axis, (long long)onnx_dims(im, in[0])[axis]);
		for (int i = 0; i < n; i++)
			if (!s[i])
				return emptysplit(im, in[0], (int)axis, idx, out, nout);
		x = intsval(im, idx, n - 1);
		im->m->attrs[at + slot(OP_SPLIT, "indices_or_sections")] = x;
	}
	if (!(t = onnx_mk(im, OP_SPLIT, in, 1, at)))
		return -1;
	for (int k = 0; k < nout; k++)
		if (!(out[k] = mknode(im, ir_getitem(im->m, t, (uint32_t)k, im->loc))))
			return -1;
	return 0;
}

/* Slice(data, starts, ends, axes, steps), all constant (before opset 10:
** Slice(data) with attributes starts, ends, axes); positive steps ->
** strided_slice over every axis with the bounds clamped as ONNX does */
static int
slice(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	int64_t st[MAXD], en[MAXD], ax[MAXD], sp[MAXD], b[MAXD], e[MAXD], s[MAXD];
	int ns, ne, na = -1, nsp = -1, r = rank(im, in[0]);
	int64_t d_[MAXD];     /* copies: the module's dims move as it grows */
	const int64_t *d = dimsof(im, in[0], d_);
	AttrId at;

	if (im->opset < 10) {
		/* starts, ends and axes are attributes before opset 10 */
		if (nin != 1)
			return onnx_err(im, "takes one input before opset 10 (starts, ends and axes are attributes)");
		if (aints(im, "starts", st, MAXD, &ns) || aints(im, "ends", en, MAXD, &ne) ||
		    aints(im, "axes", ax, MAXD, &na))
			return -1;
		if (ns < 0 || ne < 0)
			return onnx_err(im, "attributes 'starts' and 'ends' are required");
	} else if (nin < 3) {
		return onnx_err(im, "takes data, starts and ends inputs from opset 10");
	} else if (cints(im, in, 1, "starts", st, MAXD, &ns) || cints(im, in, 2, "ends", en, MAXD, &ne) ||
	           (nin > 3 && in[3] && cints(im, in, 3, "axes", ax, MAXD, &na)) ||
	           (nin > 4 && in[4] && cints(im, in, 4, "steps", sp, MAXD, &nsp))) {
		return -1;
	}
	if (ne != ns || (na >= 0 && na != ns) || (nsp >= 0 && nsp != ns))
		return onnx_err(im, "starts, ends, axes and steps differ in length");
	for (int i = 0; i < r; i++) {
		b[i] = 0;
		e[i] = d[i];
		s[i] = 1;
	}
	for (int i = 0; i < ns; i++) {
		int64_t a = na >= 0 ? ax[i] : i, step = nsp >= 0 ? sp[i] : 1, lo = st[i], hi = en[i];
		if (normax(im, &a, r, "axis"))
			return -1;
		if (step == 0)
			return onnx_err(im, "step 0 on axis %lld", (long long)a);
		if (step < 0)
			continue;       /* below, as a take */
		if (lo < 0)
			lo += d[a];
		if (hi < 0)
			hi += d[a];
		lo = lo < 0 ? 0 : lo > d[a] ? d[a] : lo;
		hi = hi < 0 ? 0 : hi > d[a] ? d[a] : hi;
		b[a] = lo;
		e[a] = hi < lo ? lo : hi;
		s[a] = step;
	}
	at = ir_attr_defaults(im->m, OP_STRIDED_SLICE);
	setints(im, OP_STRIDED_SLICE, at, "begin", b, r);
	setints(im, OP_STRIDED_SLICE, at, "end", e, r);
	setints(im, OP_STRIDED_SLICE, at, "strides", s, r);
	if (!(out[0] = onnx_mk(im, OP_STRIDED_SLICE, in, 1, at)))
		return -1;
	/* a negative step: the indices from the start (clamped to [0, n - 1])
	   down to above the end (clamped to [-1, n - 1]), as a take */
	for (int i = 0; i < ns && out[0]; i++) {
		int64_t a = na >= 0 ? ax[i] : i, step = nsp >= 0 ? sp[i] : 1, lo = st[i], hi = en[i], n = 0, *idx;
		if (step > 0)
			continue;
		normax(im, &a, r, "axis");
		lo = lo < 0 ? lo + d[a] : lo;
		hi = hi < 0 ? hi + d[a] : hi;
		lo = lo < 0 ? -1 : lo > d[a] - 1 ? d[a] - 1 : lo;
		hi = hi < -1 ? -1 : hi > d[a] - 1 ? d[a] - 1 : hi;
		idx = ir_xmalloc((size_t)(lo > hi ? (lo - hi - step - 1) / -step : 0) * sizeof *idx + 8);
		for (int64_t j = lo; j > hi; j += step)
			idx[n++] = j;
		out[0] = takeconst(im, out[0], idx, n, a);
		free(idx);
	}
	return out[0] ? 0 : -1;
}

/* Squeeze(axes: attribute before 13, input from 13; none = every 1) */
static int
squeeze(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	int64_t ax[MAXD];
	int n = -1, r = rank(im, in[0]);
	AttrId at;
	if (im->opset < 13 ? aints(im, "axes", ax, MAXD, &n) : (nin > 1 && in[1] && cints(im, in, 1, "axes", ax, MAXD, &n)))
		return -1;
	at = ir_attr_defaults(im->m, OP_SQUEEZE);
	if (n >= 0) {
		for (int i = 0; i < n; i++)
			if (normax(im, &ax[i], r, "axis"))
				return -1;
		setints(im, OP_SQUEEZE, at, "axis", ax, n);
	}
	return (out[0] = onnx_mk(im, OP_SQUEEZE, in, 1, at)) ? 0 : -1;
}

/* Unsqueeze(axes: attribute before 13, input from 13) -> reshape */
static int
unsqueeze(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	int64_t ax[MAXD], d[MAXD];
	int n, r = rank(im, in[0]), ro;
	uint8_t isnew[MAXD] = { 0 };
	int64_t xd_[MAXD];     /* copies: the module's dims move as it grows */
	const int64_t *xd = dimsof(im, in[0], xd_);
	if (im->opset < 13 ? aints(im, "axes", ax, MAXD, &n) : cints(im, in, 1, "axes", ax, MAXD, &n))
		return -1;
	if (n < 0)
		return onnx_err(im, "attribute 'axes' is required");
	ro = r + n;
	if (ro > MAXD)
		return onnx_err(im, "the result has rank %d; graft handles up to %d", ro, MAXD);
	for (int i = 0; i < n; i++) {
		if (normax(im, &ax[i], ro, "axis"))
			return -1;
		if (isnew[ax[i]]++)
			return onnx_err(im, "axis %lld is given twice", (long long)ax[i]);
	}
	for (int i = 0, j = 0; i < ro; i++)
		d[i] = isnew[i] ? 1 : xd[j++];
	return (out[0] = mkreshape(im, in[0], d, ro)) ? 0 : -1;
}

/* ---------------------------------------------------------------- nn */

/* The softmax family: softmax, its logarithm, and hardmax (1 at the first
** largest value, 0 elsewhere). */
enum { SM_SOFT, SM_LOG, SM_HARD };

/* smax: the softmax kind k of x along axis */
static NodeId
smax(Imp *im, int k, NodeId x, int64_t axis)
{
	AttrId at;
	NodeId t, i;
	DType dt = dtype(im, x);
	switch (k) {
	case SM_SOFT:
		at = ir_attr_defaults(im->m, OP_NN_SOFTMAX);
		seti(im, OP_NN_SOFTMAX, at, "axis", axis);
		return onnx_mk(im, OP_NN_SOFTMAX, &x, 1, at);
	case SM_LOG:
		/* (x - max) - log(sum(exp(x - max))), as ONNX's reference */
		t = mk2(im, OP_SUBTRACT, x, mkreduce(im, OP_MAX, x, &axis, 1, 1));
		return mk2(im, OP_SUBTRACT, t, un(im, OP_LOG, mkreduce(im, OP_SUM, un(im, OP_EXP, t), &axis, 1, 1)));
	default:
		at = ir_attr_defaults(im->m, OP_ARGMAX);
		setints(im, OP_ARGMAX, at, "axis", &axis, 1);
		setb(im, OP_ARGMAX, at, "keepdims", 1);
		if (!(t = onnx_mk(im, OP_ARGMAX, &x, 1, at)) ||
		    !(i = iota(im, DT_INT32, onnx_dims(im, x)[axis], (int)axis, rank(im, x))))
			return 0;
		return mkcast(im, mk2(im, OP_EQUAL, i, t), dt);
	}
}

/* Softmax, LogSoftmax, Hardmax(axis: 1 before opset 13, then -1): before
** 13 over the dims from axis on together (the input seen as 2-D) */
static int
softmaxby(Imp *im, int k, const NodeId *in, NodeId *out)
{
	int r = rank(im, in[0]);
	int64_t axis, d2[2];
	NodeId x = in[0];

	if (ai(im, "axis", im->opset < 13 ? 1 : -1, &axis) || normax(im, &axis, r, "axis"))
		return -1;
	if (im->opset >= 13 || axis == r - 1)
		return (out[0] = smax(im, k, x, im->opset >= 13 || k != SM_SOFT ? axis : -1)) ? 0 : -1;
	/* the old semantics: over the dims from axis on, together */
	d2[0] = prod(im, x, 0, (int)axis);
	d2[1] = prod(im, x, (int)axis, r);
	if (!(x = mkreshape(im, x, d2, 2)) || !(x = smax(im, k, x, k == SM_SOFT ? -1 : 1)))
		return -1;
	return (out[0] = mkreshape(im, x, onnx_dims(im, in[0]), r)) ? 0 : -1;
}
static int softmax(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return softmaxby(im, SM_SOFT, in, out); }
static int logsoftmax(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return softmaxby(im, SM_LOG, in, out); }
static int hardmax(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return softmaxby(im, SM_HARD, in, out); }

/* ---------------------------------------------------------------- indexing */

/* fromend: index i counted from the end where negative, along a dim of n:
** where(i < 0, i + n, i) (a constant folds) */
static NodeId
fromend(Imp *im, NodeId i, int64_t n)
{
	DType it = dtype(im, i);
	NodeId w[3] = { mk2(im, OP_LESS, i, kscalar(im, it, 0)), mk2(im, OP_ADD, i, kscalar(im, it, (double)n)), i };
	return w[0] && w[1] ? onnx_mk(im, OP_WHERE, w, 3, 0) : 0;
}

/* Gather(data, indices; axis 0) -> take, negative indices counted from the
** end (an index out of range is a run-time error) */
static int
gatherop(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	int64_t axis;
	if (ai(im, "axis", 0, &axis) || normax(im, &axis, rank(im, in[0]), "axis"))
		return -1;
	return (out[0] = mktake(im, in[0], fromend(im, in[1], onnx_dims(im, in[0])[axis]), axis)) ? 0 : -1;
}

/* GatherElements(data, indices; axis 0) -> gather (numpy's
** take_along_axis, negative indices from the end) */
static int
gatherelements(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	int64_t axis;
	AttrId at;
	if (ai(im, "axis", 0, &axis) || normax(im, &axis, rank(im, in[0]), "axis"))
		return -1;
	at = ir_attr_defaults(im->m, OP_GATHER);
	seti(im, OP_GATHER, at, "axis", axis);
	return (out[0] = onnx_mk(im, OP_GATHER, in, 2, at)) ? 0 : -1;
}

/* nll: NegativeLogLikelihoodLoss of log-probabilities x (N, C, d...) at
** targets t (N, d...), class weights w (C) or 0, per the node's
** reduction ("mean", "sum", "none") and ignore_index: the loss of each
** element -x[n, t, d] * w[t] (0 where t is ignore_index), summed, or
** summed and divided by the sum of the weights taken */
static NodeId
nll(Imp *im, NodeId x, NodeId t, NodeId w)
{
	char red[8];
	int64_t ii = 0, one = 1;
	int r = rank(im, x), hasii = attr(im, "ignore_index") != NULL;
	DType dt = dtype(im, x), it = dtype(im, t);
	NodeId keep = 0, ts = t, g, wt = 0, loss;
	AttrId at;

	if (as(im, "reduction", "mean", red, sizeof red) || ai(im, "ignore_index", 0, &ii))
		return 0;
	if (strcmp(red, "mean") != 0 && strcmp(red, "sum") != 0 && strcmp(red, "none") != 0) {
		onnx_err(im, "reduction '%s' is not mean, sum or none", red);
		return 0;
	}
	if (r < 2 || rank(im, t) != r - 1) {
		onnx_err(im, "the input must have rank 2 or more (N, C, ...) and the target one less, not %d and %d", r,
		         rank(im, t));
		return 0;
	}
	if (hasii) {
		/* an ignored target takes class 0, then counts for nothing */
		NodeId w3[3];
		keep = mk2(im, OP_NOT_EQUAL, t, kscalar(im, it, (double)ii));
		w3[0] = keep;
		w3[1] = t;
		w3[2] = kscalar(im, it, 0);
		if (!keep || !(ts = onnx_mk(im, OP_WHERE, w3, 3, 0)))
			return 0;
	}
	at = ir_attr_defaults(im->m, OP_EXPAND_DIMS);
	seti(im, OP_EXPAND_DIMS, at, "axis", 1);
	{
		NodeId a[2] = { x, onnx_mk(im, OP_EXPAND_DIMS, &ts, 1, at) };
		AttrId ga = ir_attr_defaults(im->m, OP_GATHER), sa = ir_attr_defaults(im->m, OP_SQUEEZE);
		if (!a[1])
			return 0;
		seti(im, OP_GATHER, ga, "axis", 1);
		setints(im, OP_SQUEEZE, sa, "axis", &one, 1);
		if (!(g = onnx_mk(im, OP_GATHER, a, 2, ga)) || !(g = onnx_mk(im, OP_SQUEEZE, &g, 1, sa)))
			return 0;
	}
	if (w)
		wt = mktake(im, w, ts, 0);
	if (keep) {
		NodeId w3[3] = { keep, wt ? wt : kscalar(im, dt, 1), kscalar(im, dt, 0) };
		wt = onnx_mk(im, OP_WHERE, w3, 3, 0);
	}
	loss = un(im, OP_NEGATIVE, g);
	if (wt)
		loss = mk2(im, OP_MULTIPLY, loss, wt);
	if (!loss || strcmp(red, "none") == 0)
		return loss;
	loss = mkreduce(im, OP_SUM, loss, NULL, 0, 0);
	if (strcmp(red, "sum") == 0)
		return loss;
	if (!wt)
		return mk2(im, OP_DIVIDE, loss, kscalar(im, dt, (double)prod(im, t, 0, r - 1)));
	/* the weights taken, broadcast to the targets' shape, summed */
	wt = mk2(im, OP_MULTIPLY, wt, mk2(im, OP_EQUAL, t, t) ? mkcast(im, mk2(im, OP_EQUAL, t, t), dt) : 0);
	return mk2(im, OP_DIVIDE, loss, mkreduce(im, OP_SUM, wt, NULL, 0, 0));
}

/* NegativeLogLikelihoodLoss(input, target, weight) */
static int
nllloss(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	return (out[0] = nll(im, in[0], in[1], nin > 2 ? in[2] : 0)) ? 0 : -1;
}

/* SoftmaxCrossEntropyLoss(scores, labels, weights): the loss of
** LogSoftmax(scores) along axis 1, and the log-probabilities as the
** second output when asked for */
static int
sceloss(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	NodeId lp;
	if (rank(im, in[0]) < 2)
		return onnx_err(im, "the scores must have rank 2 or more (N, C, ...), not %d", rank(im, in[0]));
	if (!(lp = smax(im, SM_LOG, in[0], 1)))
		return -1;
	if (nout > 1)
		out[1] = lp;
	return (out[0] = nll(im, lp, in[1], nin > 2 ? in[2] : 0)) ? 0 : -1;
}

/* ---------------------------------------------------------------- constant indices */

/* cidx: the values of integer input k (the what) that must be constant, as
** int64 into a malloc'ed *v, their count into *n; 0 or -1 */
static int
cidx(Imp *im, const NodeId *in, int k, const char *what, int64_t **v, int64_t *n)
{
	NodeId c = konst(im, in[k]);
	if (!c || !isconst(im, c)) {
		onnx_needconst(im, in[k]);
		return onnx_err(im, "input %d ('%s', the %s) must be a constant", k, im->nd->input[k], what);
	}
	*n = ir_type_numel(im->m, im->m->nodes[c].type);
	*v = ir_xmalloc((size_t)*n * sizeof **v + 8);
	for (int64_t i = 0; i < *n; i++)
		(*v)[i] = (int64_t)elem(im, c, i);
	return 0;
}

/* flatten1: x as a vector */
static NodeId
flatten1(Imp *im, NodeId x)
{
	int64_t n = ir_type_numel(im->m, im->m->nodes[x].type);
	return x ? mkreshape(im, x, &n, 1) : 0;
}

/* scatterflat: data with the elements of upd (nu of them, row-major) written
** at the flat positions to[] of data, combined by reduction ("none": the
** last write wins; "add", "mul", "max", "min": with what is there), in the
** order ONNX's reference writes them: one where per level of repeated
** positions, each a take of upd at constant indices */
static NodeId
scatterflat(Imp *im, NodeId data, NodeId upd, const int64_t *to, int64_t nu, const char *red)
{
	int64_t nd = ir_type_numel(im->m, im->m->nodes[data].type);
	int64_t *hits = ir_xcalloc((size_t)nd + 1, sizeof *hits), *src = ir_xmalloc((size_t)nd * sizeof *src + 8);
	unsigned char *mask = ir_xmalloc((size_t)nd + 1);
	int r = rank(im, data), none = strcmp(red, "none") == 0;
	NodeId x = data, u = flatten1(im, upd);
	OpId op = red[0] == 'a' ? OP_ADD : red[1] == 'u' ? OP_MULTIPLY : red[1] == 'a' ? OP_MAXIMUM : OP_MINIMUM;
	int64_t levels = 0;

	for (int64_t p = 0; p < nu; p++)
		if (++hits[to[p]] > levels)
			levels = hits[to[p]];
	if (none)
		levels = levels ? 1 : 0;
	for (int64_t l = 0; l < levels && x && u; l++) {
		int64_t seen;
		NodeId w[3], v;
		memset(mask, 0, (size_t)nd);
		for (int64_t i = 0; i < nd; i++)
			src[i] = 0;
		/* level l: the (l + 1)-th write to each position (the last, for none) */
		for (int64_t t = 0; t < nd; t++)
			hits[t] = 0;
		for (int64_t p = 0; p < nu; p++) {
			seen = hits[to[p]]++;
			if (none || seen == l) {
				mask[to[p]] = 1;
				src[to[p]] = p;
			}
		}
		v = mktake(im, u, kconst(im, DT_INT64, r, onnx_dims(im, data), src), 0);
		w[0] = kconst(im, DT_BOOL, r, onnx_dims(im, data), mask);
		w[1] = none ? v : mk2(im, op, x, v);
		w[2] = x;
		x = w[1] ? onnx_mk(im, OP_WHERE, w, 3, 0) : 0;
	}
	free(hits);
	free(src);
	free(mask);
	return x;
}

/* ScatterElements, Scatter(data, indices, updates; axis 0, reduction
** none): indices constant; each update goes where its position, its axis
** coordinate replaced by the index (negative from the end), is */
static int
scatterelements(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	int64_t axis, *ix, n, st[MAXD], ust[MAXD], *to;
	int r = rank(im, in[0]);
	int64_t d_[MAXD], ud_[MAXD];     /* copies: the module's dims move as it grows */
	const int64_t *d = dimsof(im, in[0], d_), *ud = dimsof(im, in[2], ud_);
	char red[8];
	if (ai(im, "axis", 0, &axis) || normax(im, &axis, r, "axis") || as(im, "reduction", "none", red, sizeof red))
		return -1;
	if (strcmp(red, "none") && strcmp(red, "add") && strcmp(red, "mul") && strcmp(red, "max") && strcmp(red, "min"))
		return onnx_err(im, "reduction '%s' is not none, add, mul, max or min", red);
	if (rank(im, in[1]) != r || rank(im, in[2]) != r ||
	    memcmp(onnx_dims(im, in[1]), ud, (size_t)r * sizeof *ud) != 0)
		return onnx_err(im, "indices and updates must have the data's rank and one shape");
	if (cidx(im, in, 1, "indices", &ix, &n))
		return -1;
	ref_strides(d, r, st);
	ref_strides(ud, r, ust);
	to = ir_xmalloc((size_t)n * sizeof *to + 8);
	for (int64_t p = 0; p < n; p++) {
		int64_t t = 0, rem = p, k = ix[p] < 0 ? ix[p] + d[axis] : ix[p];
		if (k < 0 || k >= d[axis]) {
			free(ix);
			free(to);
			return onnx_err(im, "index %lld is out of range for axis %lld of %lld", (long long)ix[p], (long long)axis,
			                (long long)d[axis]);
		}
		for (int i = 0; i < r; i++) {
			int64_t c = rem / ust[i];
			rem %= ust[i];
			t += (i == axis ? k : c) * st[i];
		}
		to[p] = t;
	}
	out[0] = scatterflat(im, in[0], in[2], to, n, red);
	free(ix);
	free(to);
	return out[0] ? 0 : -1;
}

/* ndtargets: for index tuples ix (cnt of them, k values each) into the
** first k dims of d (rank r), the flat offsets of the slices they name
** (each of slice elements) into to[cnt * slice]; 0 or -1 */
static int
ndtargets(Imp *im, const int64_t *ix, int64_t cnt, int k, const int64_t *d, int r, int64_t *to)
{
	int64_t st[MAXD], slice = 1;
	ref_strides(d, r, st);
	for (int i = k; i < r; i++)
		slice *= d[i];
	for (int64_t q = 0; q < cnt; q++) {
		int64_t base = 0;
		for (int i = 0; i < k; i++) {
			int64_t v = ix[q * k + i] < 0 ? ix[q * k + i] + d[i] : ix[q * k + i];
			if (v < 0 || v >= d[i])
				return onnx_err(im, "index %lld is out of range for axis %d of %lld", (long long)ix[q * k + i], i,
				                (long long)d[i]);
			base += v * st[i];
		}
		for (int64_t e = 0; e < slice; e++)
			to[q * slice + e] = base + e;
	}
	return 0;
}

/* ScatterND(data, indices, updates; reduction none): indices constant,
** (..., k), each tuple naming a slice of data's first k dims */
static int
scatternd(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	int64_t *ix, n, *to, cnt, slice = 1;
	int r = rank(im, in[0]), ri = rank(im, in[1]), k;
	int64_t d_[MAXD];     /* copies: the module's dims move as it grows */
	const int64_t *d = dimsof(im, in[0], d_);
	char red[8];
	if (as(im, "reduction", "none", red, sizeof red))
		return -1;
	if (strcmp(red, "none") && strcmp(red, "add") && strcmp(red, "mul") && strcmp(red, "max") && strcmp(red, "min"))
		return onnx_err(im, "reduction '%s' is not none, add, mul, max or min", red);
	if (ri < 1 || (k = (int)onnx_dims(im, in[1])[ri - 1]) > r || k < 1)
		return onnx_err(im, "indices must end in a dim of 1 to the data's rank");
	if (cidx(im, in, 1, "indices", &ix, &n))
		return -1;
	cnt = n / k;
	for (int i = k; i < r; i++)
		slice *= d[i];
	if (ir_type_numel(im->m, im->m->nodes[in[2]].type) != cnt * slice) {
		free(ix);
		return onnx_err(im, "updates must have %lld elements", (long long)(cnt * slice));
	}
	to = ir_xmalloc((size_t)(cnt * slice) * sizeof *to + 8);
	out[0] = ndtargets(im, ix, cnt, k, d, r, to) ? 0 : scatterflat(im, in[0], in[2], to, cnt * slice, red);
	free(ix);
	free(to);
	return out[0] ? 0 : -1;
}

/* GatherND(data, indices; batch_dims 0): indices constant; a take of data
** flattened over its first batch_dims + k dims, at the tuples' offsets */
static int
gathernd(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	int64_t bd, *ix, n, cnt, lead = 1, nb = 1, od[MAXD], fd[MAXD], *flat, *tup;
	int r = rank(im, in[0]), ri = rank(im, in[1]), k, no = 0;
	int64_t d_[MAXD], id_[MAXD];     /* copies: the module's dims move as it grows */
	const int64_t *d = dimsof(im, in[0], d_), *id = dimsof(im, in[1], id_);
	NodeId x;
	if (ai(im, "batch_dims", 0, &bd))
		return -1;
	if (ri < 1 || bd < 0 || bd >= ri || (k = (int)id[ri - 1]) < 1 || bd + k > r)
		return onnx_err(im, "indices (rank %d, last dim %lld) do not fit data of rank %d with batch_dims %lld", ri,
		                ri ? (long long)id[ri - 1] : 0LL, r, (long long)bd);
	for (int i = 0; i < bd; i++) {
		if (id[i] != d[i])
			return onnx_err(im, "the batch dims of indices and data differ");
		nb *= d[i];
	}
	if (cidx(im, in, 1, "indices", &ix, &n))
		return -1;
	cnt = n / k;
	/* tuples with the batch coordinates in front: (batch..., index...) */
	tup = ir_xmalloc((size_t)(cnt * (bd + k)) * sizeof *tup + 8);
	for (int64_t q = 0; q < cnt; q++) {
		int64_t b = q / (cnt / (nb ? nb : 1));
		for (int64_t i = bd - 1; i >= 0; i--) {
			tup[q * (bd + k) + i] = b % d[i];
			b /= d[i];
		}
		memcpy(tup + q * (bd + k) + bd, ix + q * k, (size_t)k * sizeof *ix);
	}
	for (int i = 0; i < bd + k; i++)
		lead *= d[i];
	fd[0] = lead;
	for (int i = (int)bd + k; i < r; i++)
		fd[1 + i - bd - k] = d[i];
	flat = ir_xmalloc((size_t)cnt * sizeof *flat + 8);
	if (ndtargets(im, tup, cnt, (int)bd + k, d, (int)bd + k, flat) != 0) {
		free(ix);
		free(tup);
		free(flat);
		return -1;
	}
	x = mkreshape(im, in[0], fd, 1 + r - (int)bd - k);
	x = takeconst(im, x, flat, cnt, 0);
	for (int i = 0; i < ri - 1; i++)
		od[no++] = id[i];
	for (int i = (int)bd + k; i < r; i++)
		od[no++] = d[i];
	out[0] = x ? mkreshape(im, x, od, no) : 0;
	free(ix);
	free(tup);
	free(flat);
	return out[0] ? 0 : -1;
}

/* Compress(input, condition; axis): condition constant; a take of the
** positions where it holds (of the input flattened, without an axis) */
static int
compress(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	int64_t *c, n, axis = 0, m = 0, *idx;
	NodeId x = in[0];
	int r = rank(im, x);
	if (attr(im, "axis") && (ai(im, "axis", 0, &axis) || normax(im, &axis, r, "axis")))
		return -1;
	if (!attr(im, "axis"))
		x = flatten1(im, x);
	if (!x || cidx(im, in, 1, "condition", &c, &n))
		return -1;
	if (n > onnx_dims(im, x)[axis]) {
		free(c);
		return onnx_err(im, "the condition has %lld values for %lld elements", (long long)n,
		                (long long)onnx_dims(im, x)[axis]);
	}
	idx = ir_xmalloc((size_t)n * sizeof *idx + 8);
	for (int64_t i = 0; i < n; i++)
		if (c[i])
			idx[m++] = i;
	out[0] = takeconst(im, x, idx, m, axis);
	free(c);
	free(idx);
	return out[0] ? 0 : -1;
}

/* NonZero(x): x constant; the int64 (rank, count) coordinates of its
** nonzero elements, row-major, a constant */
static int
nonzero(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	NodeId c = konst(im, in[0]);
	int r = rank(im, in[0]);
	int64_t n, cnt = 0, d[2], st[MAXD], *v;
	if (!c) {
		onnx_needconst(im, in[0]);
		return onnx_err(im, "input 0 ('%s') must be a constant: the result's shape depends on its values",
		                im->nd->input[0]);
	}
	n = ir_type_numel(im->m, im->m->nodes[c].type);
	for (int64_t i = 0; i < n; i++)
		cnt += elem(im, c, i) != 0;
	ref_strides(onnx_dims(im, c), r, st);
	v = ir_xmalloc((size_t)(r * cnt) * sizeof *v + 8);
	for (int64_t i = 0, k = 0; i < n; i++) {
		int64_t rem = i;
		if (elem(im, c, i) == 0)
			continue;
		for (int a = 0; a < r; a++) {
			v[a * cnt + k] = rem / st[a];
			rem %= st[a];
		}
		k++;
	}
	d[0] = r;
	d[1] = cnt;
	out[0] = kconst(im, DT_INT64, 2, d, v);
	free(v);
	return 0;
}

/* HannWindow, HammingWindow, BlackmanWindow(size; periodic 1,
** output_datatype 1): a constant, computed in double as ONNX's reference */
static int
window_(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	double sz, *v;
	int64_t per, odt, n;
	DType dt;
	const char *op = im->nd->op_type;
	if (cscalar(im, in, 0, "size", &sz) || ai(im, "periodic", 1, &per) || ai(im, "output_datatype", 1, &odt))
		return -1;
	if ((dt = onnx_dtype(odt)) == DT_VOID)
		return onnx_err(im, "output_datatype %s (%lld) is not supported", onnx_dtype_name(odt), (long long)odt);
	n = d2i(sz);
	if (n < 0 || !ir_tensor_fits(n, DT_FLOAT64))
		return onnx_err(im, "size %lld is not possible", (long long)n);
	v = ir_xmalloc((size_t)n * sizeof *v + 8);
	for (int64_t i = 0; i < n; i++) {
		double nn = per ? (double)n : (double)(n - 1), t = 2 * 3.14159265358979323846 * (double)i / nn;
		if (op[2] == 'n')                       /* Hann */
			v[i] = 0.5 - 0.5 * cos(t);
		else if (op[2] == 'm')                  /* Hamming */
			v[i] = 25.0 / 46 - (1 - 25.0 / 46) * cos(t);
		else                                    /* Blackman */
			v[i] = 0.42 - 0.5 * cos(t) + 0.08 * cos(2 * t);
	}
	out[0] = kconstd(im, dt, 1, &n, v);
	free(v);
	return 0;
}

/* DynamicQuantizeLinear(x): uint8 y, its scale and zero point, from the
** range of x and 0: scale (max - min) / 255, zero point round(-min /
** scale), y round(x / scale) + zero point, saturated (halves to even) */
static int
dynquant(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	NodeId x = in[0], mn, mx, s, zp;
	DType dt = dtype(im, x);
	mn = mk2(im, OP_MINIMUM, mkreduce(im, OP_MIN, x, NULL, 0, 0), kscalar(im, dt, 0));
	mx = mk2(im, OP_MAXIMUM, mkreduce(im, OP_MAX, x, NULL, 0, 0), kscalar(im, dt, 0));
	s = mk2(im, OP_DIVIDE, mk2(im, OP_SUBTRACT, mx, mn), kscalar(im, dt, 255));
	zp = mkclip(im, un(im, OP_ROUND, mk2(im, OP_DIVIDE, un(im, OP_NEGATIVE, mn), s)), 0, 255);
	out[0] = mkcast(im, mkclip(im, mk2(im, OP_ADD, un(im, OP_ROUND, mk2(im, OP_DIVIDE, x, s)), zp), 0, 255), DT_UINT8);
	if (nout > 1)
		out[1] = s;
	if (nout > 2)
		out[2] = mkcast(im, zp, DT_UINT8);
	return out[0] && s && zp ? 0 : -1;
}

/* LRN(alpha 1e-4, beta 0.75, bias 1, size): x / (bias + alpha / size *
** the sum of squares over the size channels around)^beta: the squares
** padded along the channels, the sum of size slices */
static int
lrn(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	double alpha, beta, bias;
	int64_t size, p[2 * MAXD] = { 0 }, c;
	int r = rank(im, in[0]);
	DType dt = dtype(im, in[0]);
	NodeId sq, sum = 0;
	if (af(im, "alpha", 1e-4, &alpha) || af(im, "beta", 0.75, &beta) || af(im, "bias", 1.0, &bias) ||
	    ai(im, "size", 0, &size))
		return -1;
	if (size < 1 || r < 3)
		return onnx_err(im, "size must be positive and the input of rank 3 or more");
	c = onnx_dims(im, in[0])[1];
	p[1] = (size - 1) / 2;
	p[1 + r] = size - 1 - (size - 1) / 2;
	sq = mkpad(im, mk2(im, OP_MULTIPLY, in[0], in[0]), p, 0);
	for (int64_t k = 0; k < size && sq; k++) {
		int64_t idx_lo = k;
		AttrId at = ir_attr_defaults(im->m, OP_STRIDED_SLICE);
		int64_t b[MAXD] = { 0 }, e[MAXD], st[MAXD];
		NodeId sl;
		for (int i = 0; i < r; i++) {
			e[i] = onnx_dims(im, sq)[i];
			st[i] = 1;
		}
		b[1] = idx_lo;
		e[1] = idx_lo + c;
		setints(im, OP_STRIDED_SLICE, at, "begin", b, r);
		setints(im, OP_STRIDED_SLICE, at, "end", e, r);
		setints(im, OP_STRIDED_SLICE, at, "strides", st, r);
		sl = onnx_mk(im, OP_STRIDED_SLICE, &sq, 1, at);
		sum = sum ? mk2(im, OP_ADD, sum, sl) : sl;
	}
	sum = mk2(im, OP_ADD, kscalar(im, dt, bias), mk2(im, OP_MULTIPLY, kscalar(im, dt, alpha / (double)size), sum));
	return (out[0] = mk2(im, OP_DIVIDE, in[0], mk2(im, OP_POWER, sum, kscalar(im, dt, beta)))) ? 0 : -1;
}

/* ---------------------------------------------------------------- recurrent */

/* The recurrent ops, unrolled over the sequence (its length is static). */
enum { RNN_PLAIN, RNN_GRU, RNN_LSTM };

/* slice1: x[lo:hi] along axis */
static NodeId
slice1(Imp *im, NodeId x, int axis, int64_t lo, int64_t hi)
{
	int r = rank(im, x);
	int64_t b[MAXD], e[MAXD], st[MAXD];
	AttrId at;
	if (!x)
		return 0;
	for (int i = 0; i < r; i++) {
		b[i] = 0;
		e[i] = onnx_dims(im, x)[i];
		st[i] = 1;
	}
	b[axis] = lo;
	e[axis] = hi;
	at = ir_attr_defaults(im->m, OP_STRIDED_SLICE);
	setints(im, OP_STRIDED_SLICE, at, "begin", b, r);
	setints(im, OP_STRIDED_SLICE, at, "end", e, r);
	setints(im, OP_STRIDED_SLICE, at, "strides", st, r);
	return onnx_mk(im, OP_STRIDED_SLICE, &x, 1, at);
}

/* pick: x[k] of its first axis, that axis dropped */
static NodeId
pick(Imp *im, NodeId x, int64_t k)
{
	NodeId y = slice1(im, x, 0, k, k + 1);
	return y ? mkreshape(im, y, onnx_dims(im, x) + 1, rank(im, x) - 1) : 0;
}

/* Activation k of a recurrent node (attribute activations, with
** activation_alpha and activation_beta), or the default def. */
typedef struct Act {
	char name[24];
	double alpha, beta;
} Act;

/* actapply: act(x) */
static NodeId
actapply(Imp *im, const Act *a, NodeId x)
{
	DType dt = dtype(im, x);
	if (strcmp(a->name, "Sigmoid") == 0)
		return un(im, OP_SIGMOID, x);
	if (strcmp(a->name, "Tanh") == 0)
		return un(im, OP_TANH, x);
	if (strcmp(a->name, "Relu") == 0)
		return un(im, OP_NN_RELU, x);
	if (strcmp(a->name, "HardSigmoid") == 0)
		return hardsig(im, x, a->alpha, a->beta);
	if (strcmp(a->name, "LeakyRelu") == 0) {
		NodeId w[3] = { mk2(im, OP_LESS, x, kscalar(im, dt, 0)), mk2(im, OP_MULTIPLY, x, kscalar(im, dt, a->alpha)), x };
		return w[0] && w[1] ? onnx_mk(im, OP_WHERE, w, 3, 0) : 0;
	}
	if (strcmp(a->name, "Affine") == 0)
		return mk2(im, OP_ADD, mk2(im, OP_MULTIPLY, x, kscalar(im, dt, a->alpha)), kscalar(im, dt, a->beta));
	if (strcmp(a->name, "ScaledTanh") == 0)
		return mk2(im, OP_MULTIPLY, kscalar(im, dt, a->alpha), un(im, OP_TANH, mk2(im, OP_MULTIPLY, x, kscalar(im, dt, a->beta))));
	if (strcmp(a->name, "Softsign") == 0)
		return mk2(im, OP_DIVIDE, x, mk2(im, OP_ADD, kscalar(im, dt, 1), un(im, OP_ABS, x)));
	if (strcmp(a->name, "Softplus") == 0)
		return un(im, OP_LOG, mk2(im, OP_ADD, un(im, OP_EXP, x), kscalar(im, dt, 1)));
	onnx_err(im, "activation '%s' is not supported", a->name);
	return 0;
}

/* mkdense: nn.dense(a, w): a (M, K) times w (N, K) transposed */
static NodeId
mkdense(Imp *im, NodeId a, NodeId w)
{
	NodeId args[2] = { a, w };
	AttrId at;
	if (!a || !w)
		return 0;
	at = ir_attr_defaults(im->m, OP_NN_DENSE);
	seti(im, OP_NN_DENSE, at, "units", onnx_dims(im, w)[0]);
	return onnx_mk(im, OP_NN_DENSE, args, 2, at);
}

/* zeros: a constant of zeros of dtype dt and shape d[0..r) */
static NodeId
zeros(Imp *im, DType dt, int r, const int64_t *d)
{
	int64_t n = 1;
	void *z;
	NodeId k;
	for (int i = 0; i < r; i++)
		n *= d[i];
	z = ir_xcalloc((size_t)n + 1, ir_dtype_bytes[dt]);
	k = kconst(im, dt, r, d, z);
	free(z);
	return k;
}

/* clipgate: x clipped to [-clip, clip] when clip is positive */
static NodeId
clipgate(Imp *im, NodeId x, double clip)
{
	return clip > 0 ? mkclip(im, x, -clip, clip) : x;
}

/* rnn: RNN, GRU and LSTM (kind) unrolled: for each direction and time
** step, the gates from nn.dense of the step's input and of the last
** hidden state; outputs Y (seq, dirs, batch, hidden), Y_h and (LSTM) Y_c,
** batch first with layout 1.  Entries of sequence_lens (constant) short of
** the sequence keep their state and give zeros past their length. */
static int
rnn(Imp *im, int kind, const NodeId *in, int nin, NodeId *out, int nout)
{
	static const int gates[] = { 1, 3, 4 }, nact[] = { 1, 2, 3 };
	int G = gates[kind], nd, na = nact[kind], varlen = 0;
	int64_t hs, layout, lbr = 0, infg = 0, seq, batch, *lens = NULL, nlens = 0;
	double clip = 0;
	char dir[16];
	Act act[6];
	NodeId x = in[0], Y[2] = { 0, 0 }, Yh[2] = { 0, 0 }, Yc[2] = { 0, 0 };
	DType dt = dtype(im, x);
	const OAttr *aa;

	if (ai(im, "hidden_size", 0, &hs) || ai(im, "layout", 0, &layout) || as(im, "direction", "forward", dir, sizeof dir) ||
	    af(im, "clip", 0, &clip) || (kind == RNN_GRU && ai(im, "linear_before_reset", 0, &lbr)) ||
	    (kind == RNN_LSTM && ai(im, "input_forget", 0, &infg)))
		return -1;
	nd = strcmp(dir, "bidirectional") == 0 ? 2 : 1;
	if (strcmp(dir, "forward") && strcmp(dir, "reverse") && nd == 1)
		return onnx_err(im, "direction '%s' is not forward, reverse or bidirectional", dir);
	if (rank(im, x) != 3)
		return onnx_err(im, "X must have rank 3, not %d", rank(im, x));
	if (infg)
		return onnx_err(im, "input_forget is not supported");
	if (hs < 1 || onnx_dims(im, in[1])[1] != G * hs)
		return onnx_err(im, "W must have %d * hidden_size rows", G);
	/* activations: the node's, or the defaults (f Sigmoid, g and h Tanh;
	   RNN's Tanh), per direction */
	for (int k = 0; k < na * nd; k++) {
		snprintf(act[k].name, sizeof act[k].name, "%s", kind != RNN_PLAIN && k % na == 0 ? "Sigmoid" : "Tanh");
		act[k].alpha = act[k].beta = 0;
	}
	if ((aa = attr(im, "activations"))) {
		if (!attyped(im, aa, OA_STRINGS))
			return -1;
		if ((int)aa->n_strings != na * nd)
			return onnx_err(im, "activations has %zu names, not %d", aa->n_strings, na * nd);
		for (int k = 0; k < na * nd; k++)
			snprintf(act[k].name, sizeof act[k].name, "%.*s", (int)aa->strings[k].len, (const char *)aa->strings[k].data);
	}
	if ((aa = attr(im, "activation_alpha")) && attyped(im, aa, OA_FLOATS))
		for (int k = 0; k < na * nd && k < (int)aa->n_floats; k++)
			act[k].alpha = aa->floats[k];
	if ((aa = attr(im, "activation_beta")) && attyped(im, aa, OA_FLOATS))
		for (int k = 0; k < na * nd && k < (int)aa->n_floats; k++)
			act[k].beta = aa->floats[k];
	if (layout) {
		static const int64_t p[3] = { 1, 0, 2 };
		x = mktranspose(im, x, p, 3);
	}
	seq = onnx_dims(im, x)[0];
	batch = onnx_dims(im, x)[1];
	if (nin > 4 && in[4]) {
		if (cidx(im, in, 4, "sequence_lens", &lens, &nlens))
			return -1;
		for (int64_t b = 0; b < nlens; b++)
			varlen |= lens[b] != seq;
		if (varlen && (nd == 2 || strcmp(dir, "reverse") == 0)) {
			free(lens);
			return onnx_err(im, "sequence lengths that differ are supported forward only");
		}
	}
	for (int d = 0; d < nd && x; d++) {
		int rev = nd == 2 ? d == 1 : strcmp(dir, "reverse") == 0;
		NodeId W = pick(im, in[1], d), R = pick(im, in[2], d), Wb = 0, Rb = 0, P = 0, H, C = 0;
		NodeId *ys = ir_xcalloc((size_t)seq + 1, sizeof *ys);
		const Act *f = &act[d * na], *g = &act[d * na + (na > 1)], *h = &act[d * na + (na > 2 ? 2 : 0)];
		int64_t hd[2] = { batch, hs };
		if (nin > 3 && in[3]) {
			NodeId b = pick(im, in[3], d);
			Wb = slice1(im, b, 0, 0, G * hs);
			Rb = slice1(im, b, 0, G * hs, 2 * G * hs);
		}
		if (kind == RNN_LSTM && nin > 7 && in[7])
			P = pick(im, in[7], d);
		H = nin > 5 && in[5] ? pick(im, in[5], d) : zeros(im, dt, 2, hd);
		if (kind == RNN_LSTM)
			C = nin > 6 && in[6] ? pick(im, in[6], d) : zeros(im, dt, 2, hd);
		for (int64_t s = 0; s < seq && H; s++) {
			int64_t t = rev ? seq - 1 - s : s;
			NodeId gx = mkdense(im, pick(im, x, t), W), Hn, Cn = 0;
			if (Wb)
				gx = mk2(im, OP_ADD, gx, kind == RNN_GRU ? Wb : mk2(im, OP_ADD, Wb, Rb));
			if (kind == RNN_PLAIN) {
				Hn = actapply(im, f, clipgate(im, mk2(im, OP_ADD, gx, mkdense(im, H, R)), clip));
			} else if (kind == RNN_GRU) {
				NodeId gh = mkdense(im, H, slice1(im, R, 0, 0, 2 * hs)), Rh = slice1(im, R, 0, 2 * hs, 3 * hs), z, rr, hh;
				if (Rb)
					gh = mk2(im, OP_ADD, gh, slice1(im, Rb, 0, 0, 2 * hs));
				z = actapply(im, f, clipgate(im, mk2(im, OP_ADD, slice1(im, gx, 1, 0, hs), slice1(im, gh, 1, 0, hs)), clip));
				rr = actapply(im, f, clipgate(im, mk2(im, OP_ADD, slice1(im, gx, 1, hs, 2 * hs), slice1(im, gh, 1, hs, 2 * hs)), clip));
				if (lbr) {
					hh = mkdense(im, H, Rh);
					if (Rb)
						hh = mk2(im, OP_ADD, hh, slice1(im, Rb, 0, 2 * hs, 3 * hs));
					hh = mk2(im, OP_MULTIPLY, rr, hh);
				} else {
					hh = mkdense(im, mk2(im, OP_MULTIPLY, rr, H), Rh);
					if (Rb)
						hh = mk2(im, OP_ADD, hh, slice1(im, Rb, 0, 2 * hs, 3 * hs));
				}
				hh = actapply(im, g, clipgate(im, mk2(im, OP_ADD, slice1(im, gx, 1, 2 * hs, 3 * hs), hh), clip));
				Hn = mk2(im, OP_ADD, mk2(im, OP_MULTIPLY, mk2(im, OP_SUBTRACT, kscalar(im, dt, 1), z), hh),
				         mk2(im, OP_MULTIPLY, z, H));
			} else {
				NodeId gh = mk2(im, OP_ADD, gx, mkdense(im, H, R)), gi, go, gf, gc, it, ft, ct, ot;
				gi = slice1(im, gh, 1, 0, hs);
				go = slice1(im, gh, 1, hs, 2 * hs);
				gf = slice1(im, gh, 1, 2 * hs, 3 * hs);
				gc = slice1(im, gh, 1, 3 * hs, 4 * hs);
				if (P) {
					gi = mk2(im, OP_ADD, gi, mk2(im, OP_MULTIPLY, slice1(im, P, 0, 0, hs), C));
					gf = mk2(im, OP_ADD, gf, mk2(im, OP_MULTIPLY, slice1(im, P, 0, 2 * hs, 3 * hs), C));
				}
				it = actapply(im, f, clipgate(im, gi, clip));
				ft = actapply(im, f, clipgate(im, gf, clip));
				ct = actapply(im, g, clipgate(im, gc, clip));
				Cn = mk2(im, OP_ADD, mk2(im, OP_MULTIPLY, ft, C), mk2(im, OP_MULTIPLY, it, ct));
				if (P)
					go = mk2(im, OP_ADD, go, mk2(im, OP_MULTIPLY, slice1(im, P, 0, hs, 2 * hs), Cn));
				ot = actapply(im, f, clipgate(im, go, clip));
				Hn = mk2(im, OP_MULTIPLY, ot, actapply(im, h, Cn));
			}
			ys[t] = Hn;
			if (varlen && Hn) {
				/* a batch entry past its length keeps its state and gives 0 */
				unsigned char *mk = ir_xmalloc((size_t)batch + 1);
				int64_t md[2] = { batch, 1 };
				NodeId w3[3];
				for (int64_t b = 0; b < batch; b++)
					mk[b] = b < nlens && t < lens[b];
				w3[0] = kconst(im, DT_BOOL, 2, md, mk);
				free(mk);
				w3[1] = Hn;
				w3[2] = kscalar(im, dt, 0);
				ys[t] = onnx_mk(im, OP_WHERE, w3, 3, 0);
				w3[2] = H;
				Hn = onnx_mk(im, OP_WHERE, w3, 3, 0);
				if (Cn) {
					w3[1] = Cn;
					w3[2] = C;
					Cn = onnx_mk(im, OP_WHERE, w3, 3, 0);
				}
			}
			H = Hn;
			C = Cn;
		}
		if (H) {
			int64_t yd[4] = { 1, 1, batch, hs };
			for (int64_t t = 0; t < seq && H; t++)
				if (!(ys[t] = mkreshape(im, ys[t], yd, 4)))
					H = 0;
			Y[d] = H ? mkconcat(im, ys, (int)seq, 0) : 0;
			Yh[d] = H ? mkreshape(im, H, yd + 1, 3) : 0;
			Yc[d] = C ? mkreshape(im, C, yd + 1, 3) : 0;
		}
		free(ys);
		if (!Y[d])
			x = 0;
	}
	free(lens);
	if (!x)
		return -1;
	if (nd == 2) {
		Y[0] = mkconcat(im, Y, 2, 1);
		Yh[0] = mkconcat(im, Yh, 2, 0);
		if (Yc[0])
			Yc[0] = mkconcat(im, Yc, 2, 0);
	}
	if (layout) {
		static const int64_t p4[4] = { 2, 0, 1, 3 }, p3[3] = { 1, 0, 2 };
		Y[0] = mktranspose(im, Y[0], p4, 4);
		Yh[0] = mktranspose(im, Yh[0], p3, 3);
		if (Yc[0])
			Yc[0] = mktranspose(im, Yc[0], p3, 3);
	}
	out[0] = Y[0];
	if (nout > 1)
		out[1] = Yh[0];
	if (nout > 2)
		out[2] = Yc[0];
	return Y[0] && Yh[0] ? 0 : -1;
}
static int rnnop(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return rnn(im, RNN_PLAIN, in, nin, out, nout); }
static int gruop(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return rnn(im, RNN_GRU, in, nin, out, nout); }
static int lstmop(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return rnn(im, RNN_LSTM, in, nin, out, nout); }

/* TopK(X, K; axis -1, largest 1, sorted 1): K constant; K rounds of
** argmax (argmin for the smallest), each taking the value and its index
** and masking it out, so ties go to the lower index as ONNX says */
static int
topk(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	int64_t axis, largest, sorted, *kv, nk, k, n;
	int r = rank(im, in[0]);
	DType dt = dtype(im, in[0]);
	NodeId x = in[0], *vals, *idxs, iot;
	OpId arg;
	AttrId at;
	if (ai(im, "axis", -1, &axis) || ai(im, "largest", 1, &largest) || ai(im, "sorted", 1, &sorted) ||
	    normax(im, &axis, r, "axis"))
		return -1;
	if (im->opset < 10) {           /* k an attribute before opset 10 */
		if (ai(im, "k", -1, &k))
			return -1;
	} else {
		if (nin < 2 || cidx(im, in, 1, "K", &kv, &nk))
			return nin < 2 ? onnx_err(im, "input K is required from opset 10") : -1;
		k = nk == 1 ? kv[0] : -1;
		free(kv);
	}
	n = onnx_dims(im, x)[axis];
	if (k < 0 || k > n || k > 256)
		return onnx_err(im, "K %lld is not in [0, %lld] (graft takes up to 256)", (long long)k, (long long)n);
	arg = largest ? OP_ARGMAX : OP_ARGMIN;
	vals = ir_xcalloc((size_t)k + 1, sizeof *vals);
	idxs = ir_xcalloc((size_t)k + 1, sizeof *idxs);
	iot = iota(im, DT_INT32, n, (int)axis, r);
	for (int64_t j = 0; j < k && x; j++) {
		NodeId i, w[3], a2[2];
		at = ir_attr_defaults(im->m, arg);
		setints(im, arg, at, "axis", &axis, 1);
		setb(im, arg, at, "keepdims", 1);
		i = onnx_mk(im, arg, &x, 1, at);
		a2[0] = x;
		a2[1] = i;
		at = ir_attr_defaults(im->m, OP_GATHER);
		seti(im, OP_GATHER, at, "axis", axis);
		vals[j] = i ? onnx_mk(im, OP_GATHER, a2, 2, at) : 0;
		idxs[j] = mkcast(im, i, DT_INT64);
		w[0] = mk2(im, OP_EQUAL, iot, i);
		w[1] = kscalar(im, dt, largest ? -INFINITY : INFINITY);
		w[2] = x;
		x = w[0] && vals[j] ? onnx_mk(im, OP_WHERE, w, 3, 0) : 0;
	}
	if (x || k == 0) {
		if (k == 0) {
			int64_t d[MAXD];
			memcpy(d, onnx_dims(im, in[0]), (size_t)r * sizeof *d);
			d[axis] = 0;
			out[0] = zeros(im, dt, r, d);
			if (nout > 1)
				out[1] = zeros(im, DT_INT64, r, d);
		} else {
			out[0] = mkconcat(im, vals, (int)k, axis);
			if (nout > 1)
				out[1] = mkconcat(im, idxs, (int)k, axis);
		}
	}
	free(vals);
	free(idxs);
	return out[0] && (nout < 2 || out[1]) ? 0 : -1;
}

/* iou: whether boxes a and b (4 values each; corners in any order, or
** center and size with cpb) overlap by more than thr, as ONNX's
** reference decides (no area, no overlap) */
static int
iou(const double *a, const double *b, int cpb, double thr)
{
	double ax1, ay1, ax2, ay2, bx1, by1, bx2, by2, ix, iy, inter, ua, aa, ab;
	if (cpb) {
		ax1 = a[0] - a[2] / 2, ax2 = a[0] + a[2] / 2, ay1 = a[1] - a[3] / 2, ay2 = a[1] + a[3] / 2;
		bx1 = b[0] - b[2] / 2, bx2 = b[0] + b[2] / 2, by1 = b[1] - b[3] / 2, by2 = b[1] + b[3] / 2;
	} else {
		ay1 = fmin(a[0], a[2]), ay2 = fmax(a[0], a[2]), ax1 = fmin(a[1], a[3]), ax2 = fmax(a[1], a[3]);
		by1 = fmin(b[0], b[2]), by2 = fmax(b[0], b[2]), bx1 = fmin(b[1], b[3]), bx2 = fmax(b[1], b[3]);
	}
	ix = fmin(ax2, bx2) - fmax(ax1, bx1);
	iy = fmin(ay2, by2) - fmax(ay1, by1);
	if (ix <= 0 || iy <= 0)
		return 0;
	inter = ix * iy;
	aa = (ax2 - ax1) * (ay2 - ay1);
	ab = (bx2 - bx1) * (by2 - by1);
	ua = aa + ab - inter;
	if (aa <= 0 || ab <= 0 || ua <= 0)
		return 0;
	return inter / ua > thr;
}

/* NonMaxSuppression(boxes, scores, max_output_boxes_per_class,
** iou_threshold, score_threshold; center_point_box 0): every input
** constant; the selected (batch, class, box) triples, a constant, by
** greedy selection in order of score (ties to the lower box) */
static int
nms(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	NodeId bx = konst(im, in[0]), sc = konst(im, in[1]);
	int64_t cpb, nb, nc, ns, maxo = 0, nsel = 0, cap = 64, *sel, *ord, *pick_;
	double thr = 0, sthr = -INFINITY, v;
	int hasst = 0;
	if (ai(im, "center_point_box", 0, &cpb))
		return -1;
	if (!bx || !sc) {
		onnx_needconst(im, in[0]);
		onnx_needconst(im, in[1]);
		return onnx_err(im, "inputs 0 and 1 (the boxes and scores) must be constants: the result's shape depends on "
		                "their values");
	}
	if (nin > 2 && in[2]) {
		if (cscalar(im, in, 2, "max_output_boxes_per_class", &v))
			return -1;
		maxo = d2i(v);
	}
	if (nin > 3 && in[3] && cscalar(im, in, 3, "iou_threshold", &thr))
		return -1;
	if (nin > 4 && in[4]) {
		if (cscalar(im, in, 4, "score_threshold", &sthr))
			return -1;
		hasst = 1;
	}
	if (rank(im, bx) != 3 || rank(im, sc) != 3 || onnx_dims(im, bx)[2] != 4 ||
	    onnx_dims(im, bx)[0] != onnx_dims(im, sc)[0] || onnx_dims(im, bx)[1] != onnx_dims(im, sc)[2])
		return onnx_err(im, "boxes must be (batches, boxes, 4) and scores (batches, classes, boxes)");
	nb = onnx_dims(im, sc)[0];
	nc = onnx_dims(im, sc)[1];
	ns = onnx_dims(im, sc)[2];
	sel = ir_xmalloc((size_t)cap * 3 * sizeof *sel);
	ord = ir_xmalloc((size_t)ns * sizeof *ord + 8);
	pick_ = ir_xmalloc((size_t)ns * sizeof *pick_ + 8);
	for (int64_t b = 0; b < nb; b++)
		for (int64_t c = 0; c < nc; c++) {
			int64_t m = 0, np = 0;
			for (int64_t i = 0; i < ns; i++)
				if (!hasst || elem(im, sc, (b * nc + c) * ns + i) > sthr)
					ord[m++] = i;
			/* insertion sort by score, descending, stable */
			for (int64_t i = 1; i < m; i++) {
				int64_t t = ord[i], j = i;
				double st = elem(im, sc, (b * nc + c) * ns + t);
				for (; j > 0 && elem(im, sc, (b * nc + c) * ns + ord[j - 1]) < st; j--)
					ord[j] = ord[j - 1];
				ord[j] = t;
			}
			for (int64_t i = 0; i < m && np < maxo; i++) {
				double a[4], q[4];
				int keep = 1;
				for (int e = 0; e < 4; e++)
					a[e] = elem(im, bx, (b * ns + ord[i]) * 4 + e);
				for (int64_t j = 0; j < np && keep; j++) {
					for (int e = 0; e < 4; e++)
						q[e] = elem(im, bx, (b * ns + pick_[j]) * 4 + e);
					keep = !iou(a, q, (int)cpb, thr);
				}
				if (!keep)
					continue;
				pick_[np++] = ord[i];
				if (nsel == cap)
					sel = ir_xrealloc(sel, (size_t)(cap *= 2) * 3 * sizeof *sel);
				sel[nsel * 3] = b;
				sel[nsel * 3 + 1] = c;
				sel[nsel * 3 + 2] = ord[i];
				nsel++;
			}
		}
	{
		int64_t d[2] = { nsel, 3 };
		out[0] = kconst(im, DT_INT64, 2, d, sel);
	}
	free(sel);
	free(ord);
	free(pick_);
	return 0;
}

/* ReverseSequence(input, sequence_lens; batch_axis 1, time_axis 0): the
** first sequence_lens[b] steps of each batch entry reversed: a gather of
** constant indices along the time axis */
static int
reversesequence(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	int64_t ba, ta, *lens, nl, n, st[MAXD], *ix;
	int r = rank(im, in[0]);
	int64_t d_[MAXD];     /* copies: the module's dims move as it grows */
	const int64_t *d = dimsof(im, in[0], d_);
	AttrId at;
	NodeId a2[2];
	if (ai(im, "batch_axis", 1, &ba) || ai(im, "time_axis", 0, &ta) || normax(im, &ba, r, "batch_axis") ||
	    normax(im, &ta, r, "time_axis") || cidx(im, in, 1, "sequence_lens", &lens, &nl))
		return -1;
	if (nl != d[ba]) {
		free(lens);
		return onnx_err(im, "sequence_lens has %lld values for a batch of %lld", (long long)nl, (long long)d[ba]);
	}
	n = ir_type_numel(im->m, im->m->nodes[in[0]].type);
	ref_strides(d, r, st);
	ix = ir_xmalloc((size_t)n * sizeof *ix + 8);
	for (int64_t i = 0; i < n; i++) {
		int64_t t = i / st[ta] % d[ta], b = i / st[ba] % d[ba], l = lens[b] < d[ta] ? lens[b] : d[ta];
		ix[i] = t < l ? l - 1 - t : t;
	}
	a2[0] = in[0];
	a2[1] = kconst(im, DT_INT64, r, d, ix);
	at = ir_attr_defaults(im->m, OP_GATHER);
	seti(im, OP_GATHER, at, "axis", ta);
	out[0] = onnx_mk(im, OP_GATHER, a2, 2, at);
	free(lens);
	free(ix);
	return out[0] ? 0 : -1;
}

/* MaxUnpool(X, I, output_shape; kernel_shape, pads, strides): zeros of
** the output's shape with X's elements at the flat positions I (constant) */
static int
maxunpool(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	int64_t ks[MAXD], pd[2 * MAXD] = { 0 }, sd[MAXD], od[MAXD], id[MAXD], ist[MAXD], ost[MAXD], *ix, n, on = 1;
	int nks, npd, nsd, r = rank(im, in[0]), sp = r - 2;
	if (aints(im, "kernel_shape", ks, MAXD, &nks) || aints(im, "pads", pd, 2 * MAXD, &npd) ||
	    aints(im, "strides", sd, MAXD, &nsd))
		return -1;
	if (nks != sp)
		return onnx_err(im, "attribute 'kernel_shape' must have %d values", sp);
	/* the indices are positions in the inferred shape, whose elements go to
	   the same coordinates of output_shape */
	id[0] = onnx_dims(im, in[0])[0];
	id[1] = onnx_dims(im, in[0])[1];
	for (int i = 0; i < sp; i++)
		id[2 + i] = (onnx_dims(im, in[0])[2 + i] - 1) * (nsd == sp ? sd[i] : 1) + ks[i] -
		            (npd == 2 * sp ? pd[i] + pd[sp + i] : 0);
	memcpy(od, id, sizeof id);
	if (nin > 2 && in[2]) {
		int64_t *o, no;
		if (cidx(im, in, 2, "output_shape", &o, &no))
			return -1;
		if (no != r) {
			free(o);
			return onnx_err(im, "output_shape has %lld values for rank %d", (long long)no, r);
		}
		memcpy(od, o, (size_t)r * sizeof *od);
		free(o);
	}
	ref_strides(id, r, ist);
	ref_strides(od, r, ost);
	for (int i = 0; i < r; i++)
		on *= od[i];
	if (on < 0 || !ir_tensor_fits(on, dtype(im, in[0])))
		return onnx_err(im, "an output of %lld elements is more than graft's limit", (long long)on);
	if (cidx(im, in, 1, "indices", &ix, &n))
		return -1;
	for (int64_t i = 0; i < n; i++) {
		int64_t rem = ix[i], to = 0;
		for (int a = 0; a < r && rem >= 0; a++) {
			int64_t c = rem / ist[a];
			rem %= ist[a];
			if (c >= od[a])
				rem = -1;
			to += c * ost[a];
		}
		if (ix[i] < 0 || rem < 0 || to >= on) {
			free(ix);
			return onnx_err(im, "index %lld is outside the output", (long long)ix[i]);
		}
		ix[i] = to;
	}
	out[0] = scatterflat(im, zeros(im, dtype(im, in[0]), r, od), in[0], ix, n, "none");
	free(ix);
	return out[0] ? 0 : -1;
}

/* Unique(X; axis, sorted 1): X constant; its unique elements (or slices
** along axis), sorted or in order of first occurrence, with the first
** occurrences, the inverse indices and the counts, all constants */
static int
unique(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	NodeId c = konst(im, in[0]);
	int64_t axis = 0, sorted, pre = 1, post = 1, n, *first, *inv, *cnt, *ord, nu = 0, *uo;
	int r = rank(im, in[0]), hasaxis = attr(im, "axis") != NULL;
	int64_t d_[MAXD];     /* copies: the module's dims move as it grows */
	const int64_t *d = dimsof(im, in[0], d_);
	size_t sz = ir_dtype_bytes[dtype(im, in[0])];
	const unsigned char *data;
	if (ai(im, "sorted", 1, &sorted) || (hasaxis && (ai(im, "axis", 0, &axis) || normax(im, &axis, r, "axis"))))
		return -1;
	if (!c) {
		onnx_needconst(im, in[0]);
		return onnx_err(im, "input 0 ('%s') must be a constant: the result's shape depends on its values",
		                im->nd->input[0]);
	}
	data = ir_node_const(im->m, c)->data;
	if (hasaxis) {
		for (int i = 0; i < axis; i++)
			pre *= d[i];
		for (int i = (int)axis + 1; i < r; i++)
			post *= d[i];
		n = d[axis];
	} else {
		n = ir_type_numel(im->m, im->m->nodes[c].type);
	}
	first = ir_xmalloc((size_t)n * sizeof *first + 8);
	inv = ir_xmalloc((size_t)n * sizeof *inv + 8);
	cnt = ir_xcalloc((size_t)n + 1, sizeof *cnt);
	ord = ir_xmalloc((size_t)n * sizeof *ord + 8);
	uo = ir_xmalloc((size_t)n * sizeof *uo + 8);
	/* slice j's element e (e in [0, pre * post)): as a double, compared
	   lexicographically in row-major order */
#define UELEM(j, e) (hasaxis ? elem(im, c, ((e) / post * n + (j)) * post + (e) % post) : elem(im, c, (j)))
	for (int64_t j = 0; j < n; j++) {
		int64_t u;
		for (u = 0; u < nu; u++) {
			int64_t e;
			for (e = 0; e < pre * post && UELEM(first[u], e) == UELEM(j, e); e++)
				;
			if (e == pre * post)
				break;
		}
		if (u == nu)
			first[nu++] = j;
		inv[j] = u;
		cnt[u]++;
	}
	/* the order of the outputs: first occurrence, or sorted */
	for (int64_t u = 0; u < nu; u++)
		ord[u] = u;
	for (int64_t i = 1; sorted && i < nu; i++) {
		int64_t t = ord[i], j = i;
		for (; j > 0; j--) {
			int64_t e, a = first[ord[j - 1]], b = first[t];
			for (e = 0; e < pre * post && UELEM(a, e) == UELEM(b, e); e++)
				;
			if (e == pre * post || UELEM(a, e) < UELEM(b, e))
				break;
			ord[j] = ord[j - 1];
		}
		ord[j] = t;
	}
	for (int64_t u = 0; u < nu; u++)
		uo[ord[u]] = u;         /* unique u's place in the output */
	{
		int64_t od[MAXD], k1 = nu, *fo = ir_xmalloc((size_t)nu * sizeof *fo + 8), *co = ir_xmalloc((size_t)nu * sizeof *co + 8);
		int64_t *io = ir_xmalloc((size_t)n * sizeof *io + 8);
		unsigned char *y;
		int orank = hasaxis ? r : 1;
		if (hasaxis) {
			memcpy(od, d, (size_t)r * sizeof *od);
			od[axis] = nu;
		} else {
			od[0] = nu;
		}
		y = ir_xmalloc((size_t)(nu * pre * post) * sz + 8);
		for (int64_t u = 0; u < nu; u++) {
			int64_t src = first[ord[u]];
			fo[u] = src;
			co[u] = cnt[ord[u]];
			for (int64_t e = 0; e < pre * post; e++) {
				int64_t from = hasaxis ? ((e / post) * n + src) * post + e % post : src;
				int64_t to = hasaxis ? ((e / post) * nu + u) * post + e % post : u;
				memcpy(y + (size_t)to * sz, data + (size_t)from * sz, sz);
			}
		}
		for (int64_t j = 0; j < n; j++)
			io[j] = uo[inv[j]];
		out[0] = kconst(im, dtype(im, in[0]), orank, od, y);
		if (nout > 1)
			out[1] = kconst(im, DT_INT64, 1, &k1, fo);
		if (nout > 2)
			out[2] = kconst(im, DT_INT64, 1, &n, io);
		if (nout > 3)
			out[3] = kconst(im, DT_INT64, 1, &k1, co);
		free(y);
		free(fo);
		free(co);
		free(io);
	}
#undef UELEM
	free(first);
	free(inv);
	free(cnt);
	free(ord);
	free(uo);
	return 0;
}

/* ---------------------------------------------------------------- spectra */

/* dftaxis: the DFT of x along axis, x's last dim holding the real part
** (1) or the real and imaginary parts (2): the signal cut or padded with
** zeros to n, multiplied by constant cos and sin matrices (nn.dense), K
** bins kept (n, or n / 2 + 1 one-sided); inverse divides by n.  The result
** ends in (K, ..., 2) as ONNX's: the axis holds the K bins. */
static NodeId
dftaxis(Imp *im, NodeId x, int axis, int64_t n, int onesided, int inverse)
{
	int r = rank(im, x), c = (int)onnx_dims(im, x)[r - 1];
	int64_t len = onnx_dims(im, x)[axis], k = onesided ? n / 2 + 1 : n, perm[MAXD], inv[MAXD], m = 1, d2[2];
	int64_t xd[MAXD];
	DType dt = dtype(im, x);
	NodeId parts[2], re, im_ = 0, yre, yim, out[2];
	double *cs, *sn;

	if (c != 1 && c != 2) {
		onnx_err(im, "the last dim must be 1 (real) or 2 (complex), not %d", c);
		return 0;
	}
	if (n < 1 || !ir_tensor_fits(n * k, DT_FLOAT64)) {
		onnx_err(im, "a DFT of length %lld is more than graft takes", (long long)n);
		return 0;
	}
	/* the signal cut, or padded with zeros, to n */
	if (len > n)
		x = slice1(im, x, axis, 0, n);
	else if (len < n) {
		int64_t zd[MAXD];
		memcpy(zd, onnx_dims(im, x), (size_t)r * sizeof *zd);
		zd[axis] = n - len;
		parts[0] = x;
		parts[1] = zeros(im, dt, r, zd);
		x = mkconcat(im, parts, 2, axis);
	}
	if (!x)
		return 0;
	/* the axis last but for the parts: (..., n) per part */
	for (int i = 0, j = 0; i < r - 1; i++)
		if (i != axis)
			perm[j++] = i;
	perm[r - 2] = axis;
	perm[r - 1] = r - 1;
	for (int i = 0; i < r; i++)
		inv[perm[i]] = i;
	x = mktranspose(im, x, perm, r);
	if (!x)
		return 0;
	memcpy(xd, onnx_dims(im, x), (size_t)r * sizeof *xd);
	for (int i = 0; i < r - 2; i++)
		m *= xd[i];
	d2[0] = m;
	d2[1] = n;
	re = mkreshape(im, slice1(im, x, r - 1, 0, 1), d2, 2);
	if (c == 2)
		im_ = mkreshape(im, slice1(im, x, r - 1, 1, 2), d2, 2);
	cs = ir_xmalloc((size_t)(k * n) * sizeof *cs);
	sn = ir_xmalloc((size_t)(k * n) * sizeof *sn);
	for (int64_t b = 0; b < k; b++)
		for (int64_t t = 0; t < n; t++) {
			/* e^(-+ 2 pi i b t / n), the product reduced mod n first */
			double th = 2 * 3.14159265358979323846 * (double)((b * t) % n) / (double)n, sc = inverse ? 1.0 / (double)n : 1;
			cs[b * n + t] = cos(th) * sc;
			sn[b * n + t] = (inverse ? sin(th) : -sin(th)) * sc;
		}
	{
		int64_t kd[2] = { k, n };
		NodeId C = kconstd(im, dt, 2, kd, cs), S = kconstd(im, dt, 2, kd, sn);
		/* (re + i im)(cos + i sin) */
		yre = mkdense(im, re, C);
		yim = mkdense(im, re, S);
		if (im_) {
			yre = mk2(im, OP_SUBTRACT, yre, mkdense(im, im_, S));
			yim = mk2(im, OP_ADD, yim, mkdense(im, im_, C));
		}
	}
	free(cs);
	free(sn);
	xd[r - 2] = k;
	xd[r - 1] = 1;
	out[0] = mkreshape(im, yre, xd, r);
	out[1] = mkreshape(im, yim, xd, r);
	x = out[0] && out[1] ? mkconcat(im, out, 2, r - 1) : 0;
	return x ? mktranspose(im, x, inv, r) : 0;
}

/* DFT(input, dft_length; axis 1, inverse 0, onesided 0) */
static int
dft(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	int64_t axis, inverse, onesided, n;
	int r = rank(im, in[0]);
	if (ai(im, "axis", 1, &axis) || ai(im, "inverse", 0, &inverse) || ai(im, "onesided", 0, &onesided))
		return -1;
	if (im->opset >= 20) {
		/* the axis an input, -2 (the signal's last) by default, counted
		   over every dim */
		double av = -2;
		if (nin > 2 && in[2] && cscalar(im, in, 2, "axis", &av))
			return -1;
		axis = d2i(av);
		if (axis < 0)
			axis += r;
	}
	if (normax(im, &axis, r - 1, "axis"))
		return -1;
	n = onnx_dims(im, in[0])[axis];
	if (nin > 1 && in[1]) {
		double v;
		if (cscalar(im, in, 1, "dft_length", &v))
			return -1;
		n = d2i(v);
	}
	if (onesided && inverse)
		return onnx_err(im, "onesided and inverse together are not supported");
	return (out[0] = dftaxis(im, in[0], (int)axis, n, (int)onesided, (int)inverse)) ? 0 : -1;
}

/* STFT(signal, frame_step, window, frame_length; onesided 1): the frames
** (a take of constant indices), times the window, through dftaxis */
static int
stft(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	int64_t onesided, step, fl = -1, len, nf, *idx, b;
	double v;
	NodeId x = in[0], f;
	if (ai(im, "onesided", 1, &onesided) || cscalar(im, in, 1, "frame_step", &v))
		return -1;
	step = d2i(v);
	if (nin > 3 && in[3]) {
		if (cscalar(im, in, 3, "frame_length", &v))
			return -1;
		fl = d2i(v);
	} else if (nin > 2 && in[2]) {
		fl = onnx_dims(im, in[2])[0];
	}
	if (rank(im, x) != 3 || fl < 1 || step < 1)
		return onnx_err(im, "the signal must be (batch, length, 1 or 2) and the frame length and step positive");
	b = onnx_dims(im, x)[0];
	len = onnx_dims(im, x)[1];
	if (len < fl)
		return onnx_err(im, "the frame length %lld is more than the signal's %lld", (long long)fl, (long long)len);
	nf = (len - fl) / step + 1;
	idx = ir_xmalloc((size_t)(nf * fl) * sizeof *idx + 8);
	for (int64_t i = 0; i < nf; i++)
		for (int64_t j = 0; j < fl; j++)
			idx[i * fl + j] = i * step + j;
	f = takeconst(im, x, idx, nf * fl, 1);
	free(idx);
	{
		int64_t d4[4] = { b, nf, fl, onnx_dims(im, x)[2] };
		f = mkreshape(im, f, d4, 4);
	}
	if (f && nin > 2 && in[2]) {
		int64_t wd[4] = { 1, 1, fl, 1 };
		f = mk2(im, OP_MULTIPLY, f, mkreshape(im, in[2], wd, 4));
	}
	return f && (out[0] = dftaxis(im, f, 2, fl, (int)onesided, 0)) ? 0 : -1;
}

/* ---------------------------------------------------------------- sampling */

/* Computed coordinates of GridSample, as PyTorch's grid_sampler (whose
** results ONNX's tests hold), built of Relay ops on the grid's float
** values. */
typedef struct Gs {
	int align;              /* align_corners */
	int pad;                /* 'z' zeros, 'b' border, 'r' reflection */
} Gs;

/* gsreflect: coordinate x reflected into [lo2 / 2, hi2 / 2] */
static NodeId
gsreflect(Imp *im, NodeId x, double lo2, double hi2)
{
	DType dt = dtype(im, x);
	double mn = lo2 / 2, span = (hi2 - lo2) / 2;
	NodeId in, flips, extra, odd, w[3];
	if (span <= 0)
		return mk2(im, OP_MULTIPLY, x, kscalar(im, dt, 0));
	in = un(im, OP_ABS, mk2(im, OP_SUBTRACT, x, kscalar(im, dt, mn)));
	flips = un(im, OP_FLOOR, mk2(im, OP_DIVIDE, in, kscalar(im, dt, span)));
	extra = mk2(im, OP_SUBTRACT, in, mk2(im, OP_MULTIPLY, flips, kscalar(im, dt, span)));
	/* flips odd: flips - 2 floor(flips / 2) is 1 */
	odd = mk2(im, OP_SUBTRACT, flips, mk2(im, OP_MULTIPLY, kscalar(im, dt, 2),
	                                      un(im, OP_FLOOR, mk2(im, OP_DIVIDE, flips, kscalar(im, dt, 2)))));
	w[0] = mk2(im, OP_EQUAL, odd, kscalar(im, dt, 0));
	w[1] = mk2(im, OP_ADD, extra, kscalar(im, dt, mn));
	w[2] = mk2(im, OP_ADD, mk2(im, OP_SUBTRACT, kscalar(im, dt, span), extra), kscalar(im, dt, mn));
	return w[0] && w[1] && w[2] ? onnx_mk(im, OP_WHERE, w, 3, 0) : 0;
}

/* gspad: coordinate x of an axis of n padded as z says: clipped to
** [0, n - 1] for border, reflected then clipped for reflection */
static NodeId
gspad(Imp *im, const Gs *z, NodeId x, int64_t n)
{
	if (z->pad == 'z')
		return x;
	if (z->pad == 'r')
		x = z->align ? gsreflect(im, x, 0, 2.0 * (double)(n - 1)) : gsreflect(im, x, -1, 2.0 * (double)n - 1);
	return mkclip(im, x, 0, (double)(n - 1));
}

/* gstap: the values of xt (N, H * W, C) at integer coordinates (ix, iy)
** (float tensors (N, Ho * Wo)), times weight wt, 0 outside the image:
** (N, Ho * Wo, C) */
static NodeId
gstap(Imp *im, NodeId xt, int64_t h, int64_t w, NodeId ix, NodeId iy, NodeId wt)
{
	DType dt = dtype(im, ix);
	NodeId inb, idx, v, a2[2], w3[3];
	AttrId at;
	int64_t one = 1;
	inb = mk2(im, OP_LOGICAL_AND,
	          mk2(im, OP_LOGICAL_AND, mk2(im, OP_GREATER_EQUAL, ix, kscalar(im, dt, 0)),
	              mk2(im, OP_LESS_EQUAL, ix, kscalar(im, dt, (double)(w - 1)))),
	          mk2(im, OP_LOGICAL_AND, mk2(im, OP_GREATER_EQUAL, iy, kscalar(im, dt, 0)),
	              mk2(im, OP_LESS_EQUAL, iy, kscalar(im, dt, (double)(h - 1)))));
	idx = mk2(im, OP_ADD, mk2(im, OP_MULTIPLY, mkclip(im, iy, 0, (double)(h - 1)), kscalar(im, dt, (double)w)),
	          mkclip(im, ix, 0, (double)(w - 1)));
	idx = mkcast(im, idx, DT_INT32);
	w3[0] = inb;
	w3[1] = wt;
	w3[2] = kscalar(im, dt, 0);
	wt = inb && wt ? onnx_mk(im, OP_WHERE, w3, 3, 0) : 0;
	a2[0] = xt;
	a2[1] = idx;
	if (!idx || !wt)
		return 0;
	at = ir_attr_defaults(im->m, OP_TAKE);
	seti(im, OP_TAKE, at, "axis", 1);
	seti(im, OP_TAKE, at, "batch_dims", 1);
	sets(im, OP_TAKE, at, "mode", "clip");
	v = onnx_mk(im, OP_TAKE, a2, 2, at);
	at = ir_attr_defaults(im->m, OP_EXPAND_DIMS);
	seti(im, OP_EXPAND_DIMS, at, "axis", 2);
	(void)one;
	return v ? mk2(im, OP_MULTIPLY, v, onnx_mk(im, OP_EXPAND_DIMS, &wt, 1, at)) : 0;
}

/* gscubic: the cubic convolution weights (A -0.75) of the four taps at
** distance t from the first's floor: into w[0..4) */
static void
gscubic(Imp *im, NodeId t, NodeId *w)
{
	DType dt = dtype(im, t);
	double A = -0.75;
	NodeId one = kscalar(im, dt, 1), x1 = mk2(im, OP_ADD, t, one), x2 = mk2(im, OP_SUBTRACT, one, t);
	NodeId x3 = mk2(im, OP_ADD, x2, one);
	/* |x| <= 1: ((A + 2) x - (A + 3)) x x + 1; 1 < |x| < 2: ((A x - 5A) x + 8A) x - 4A */
#define CC1(x) mk2(im, OP_ADD, mk2(im, OP_MULTIPLY, mk2(im, OP_MULTIPLY, mk2(im, OP_SUBTRACT, \
	mk2(im, OP_MULTIPLY, kscalar(im, dt, A + 2), x), kscalar(im, dt, A + 3)), x), x), one)
#define CC2(x) mk2(im, OP_SUBTRACT, mk2(im, OP_MULTIPLY, mk2(im, OP_ADD, mk2(im, OP_MULTIPLY, \
	mk2(im, OP_SUBTRACT, mk2(im, OP_MULTIPLY, kscalar(im, dt, A), x), kscalar(im, dt, 5 * A)), x), \
	kscalar(im, dt, 8 * A)), x), kscalar(im, dt, 4 * A))
	w[0] = CC2(x1);
	w[1] = CC1(t);
	w[2] = CC1(x2);
	w[3] = CC2(x3);
#undef CC1
#undef CC2
}

/* GridSample(X, grid; mode bilinear, padding_mode zeros, align_corners
** 0): X (N, C, H, W) sampled at the grid's (x, y) in [-1, 1] (N, Ho, Wo,
** 2): nearest (halves to even), bilinear or bicubic, as PyTorch's
** grid_sampler: each tap a take of X's pixels at computed indices */
static int
gridsample(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	char mode[16], pm[16];
	int64_t align, n, c, h, w, ho, wo;
	Gs z;
	NodeId x = in[0], g = in[1], xt, gx, gy, acc = 0;
	DType dt = dtype(im, g);
	if (as(im, "mode", "bilinear", mode, sizeof mode) || as(im, "padding_mode", "zeros", pm, sizeof pm) ||
	    ai(im, "align_corners", 0, &align))
		return -1;
	if (rank(im, x) != 4 || rank(im, g) != 4 || onnx_dims(im, g)[3] != 2)
		return onnx_err(im, "graft takes 2-D sampling: X (N, C, H, W) and grid (N, Ho, Wo, 2)");
	if (strcmp(pm, "zeros") && strcmp(pm, "border") && strcmp(pm, "reflection"))
		return onnx_err(im, "padding_mode '%s' is not zeros, border or reflection", pm);
	/* opset 20 names them linear and cubic */
	if (strcmp(mode, "linear") == 0)
		strcpy(mode, "bilinear");
	else if (strcmp(mode, "cubic") == 0)
		strcpy(mode, "bicubic");
	if (strcmp(mode, "bilinear") && strcmp(mode, "nearest") && strcmp(mode, "bicubic"))
		return onnx_err(im, "mode '%s' is not bilinear (linear), nearest or bicubic (cubic)", mode);
	z.align = align != 0;
	z.pad = pm[0];
	n = onnx_dims(im, x)[0];
	c = onnx_dims(im, x)[1];
	h = onnx_dims(im, x)[2];
	w = onnx_dims(im, x)[3];
	ho = onnx_dims(im, g)[1];
	wo = onnx_dims(im, g)[2];
	{
		int64_t d3[3] = { n, c, h * w }, d2[2] = { n, ho * wo };
		static const int64_t p3[3] = { 0, 2, 1 };
		xt = mktranspose(im, mkreshape(im, x, d3, 3), p3, 3);
		gx = mkreshape(im, slice1(im, g, 3, 0, 1), d2, 2);
		gy = mkreshape(im, slice1(im, g, 3, 1, 2), d2, 2);
	}
	/* unnormalized: align_corners (g + 1) / 2 (n - 1), else ((g + 1) n - 1) / 2 */
	if (z.align) {
		gx = mk2(im, OP_MULTIPLY, mk2(im, OP_ADD, gx, kscalar(im, dt, 1)), kscalar(im, dt, (double)(w - 1) / 2));
		gy = mk2(im, OP_MULTIPLY, mk2(im, OP_ADD, gy, kscalar(im, dt, 1)), kscalar(im, dt, (double)(h - 1) / 2));
	} else {
		gx = mk2(im, OP_DIVIDE, mk2(im, OP_SUBTRACT, mk2(im, OP_MULTIPLY, mk2(im, OP_ADD, gx, kscalar(im, dt, 1)),
		                                              kscalar(im, dt, (double)w)), kscalar(im, dt, 1)), kscalar(im, dt, 2));
		gy = mk2(im, OP_DIVIDE, mk2(im, OP_SUBTRACT, mk2(im, OP_MULTIPLY, mk2(im, OP_ADD, gy, kscalar(im, dt, 1)),
		                                              kscalar(im, dt, (double)h)), kscalar(im, dt, 1)), kscalar(im, dt, 2));
	}
	if (mode[1] != 'i' || mode[2] != 'c') {         /* nearest, bilinear: padded first */
		gx = gspad(im, &z, gx, w);
		gy = gspad(im, &z, gy, h);
	}
	if (mode[0] == 'n') {
		acc = gstap(im, xt, h, w, un(im, OP_ROUND, gx), un(im, OP_ROUND, gy), kscalar(im, dt, 1));
	} else if (strcmp(mode, "bilinear") == 0) {
		NodeId x0 = un(im, OP_FLOOR, gx), y0 = un(im, OP_FLOOR, gy), one = kscalar(im, dt, 1);
		NodeId x1 = mk2(im, OP_ADD, x0, one), y1 = mk2(im, OP_ADD, y0, one);
		NodeId tx = mk2(im, OP_SUBTRACT, gx, x0), ty = mk2(im, OP_SUBTRACT, gy, y0);
		NodeId ux = mk2(im, OP_SUBTRACT, one, tx), uy = mk2(im, OP_SUBTRACT, one, ty);
		NodeId t[4];
		t[0] = gstap(im, xt, h, w, x0, y0, mk2(im, OP_MULTIPLY, ux, uy));
		t[1] = gstap(im, xt, h, w, x1, y0, mk2(im, OP_MULTIPLY, tx, uy));
		t[2] = gstap(im, xt, h, w, x0, y1, mk2(im, OP_MULTIPLY, ux, ty));
		t[3] = gstap(im, xt, h, w, x1, y1, mk2(im, OP_MULTIPLY, tx, ty));
		acc = mk2(im, OP_ADD, mk2(im, OP_ADD, t[0], t[1]), mk2(im, OP_ADD, t[2], t[3]));
	} else {
		/* bicubic: 16 taps, each coordinate padded on its own */
		NodeId x0 = un(im, OP_FLOOR, gx), y0 = un(im, OP_FLOOR, gy), wx[4], wy[4];
		gscubic(im, mk2(im, OP_SUBTRACT, gx, x0), wx);
		gscubic(im, mk2(im, OP_SUBTRACT, gy, y0), wy);
		for (int j = 0; j < 4; j++)
			for (int i = 0; i < 4; i++) {
				NodeId tx = gspad(im, &z, mk2(im, OP_ADD, x0, kscalar(im, dt, i - 1)), w);
				NodeId ty = gspad(im, &z, mk2(im, OP_ADD, y0, kscalar(im, dt, j - 1)), h);
				NodeId t = gstap(im, xt, h, w, tx, ty, mk2(im, OP_MULTIPLY, wx[i], wy[j]));
				acc = acc ? mk2(im, OP_ADD, acc, t) : t;
			}
	}
	{
		int64_t d4[4] = { n, c, ho, wo };
		static const int64_t p3[3] = { 0, 2, 1 };
		out[0] = acc ? mkreshape(im, mktranspose(im, acc, p3, 3), d4, 4) : 0;
	}
	return out[0] ? 0 : -1;
}

/* ---------------------------------------------------------------- control flow */

/* attrgraph: the subgraph in attribute name, decoded now (onnx.proto
** leaves graphs undeclared, so that decoding a model is not recursive:
** the attribute's bytes are among its unknown fields); NULL after
** reporting.  The caller frees it with graft_onnx__graph_proto__free_unpacked. */
static GraftOnnx__GraphProto *
attrgraph(Imp *im, const char *name)
{
	const OAttr *a = attr(im, name);
	GraftOnnx__GraphProto *g = NULL;
	if (!a) {
		onnx_err(im, "attribute '%s' (a graph) is required", name);
		return NULL;
	}
	for (unsigned i = 0; i < a->base.n_unknown_fields && !g; i++) {
		const ProtobufCMessageUnknownField *f = &a->base.unknown_fields[i];
		/* the field's bytes start with their length, a varint */
		size_t k = 0, len = 0;
		int sh = 0;
		if (f->tag != 6 || f->wire_type != PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED)
			continue;
		while (k < f->len && k < 10 && (f->data[k] & 0x80))
			len |= (size_t)(f->data[k++] & 0x7f) << sh, sh += 7;
		if (k < f->len && k < 10)
			len |= (size_t)(f->data[k++] & 0x7f) << sh;
		if (k < 10 && len == f->len - k)
			g = graft_onnx__graph_proto__unpack(NULL, len, f->data + k);
	}
	if (!g)
		onnx_err(im, "attribute '%s' holds no graph that decodes", name);
	return g;
}

/* If(cond; then_branch, else_branch): the branch a constant condition
** takes; else both, each output where(cond, then's, else's) */
static int
ifop(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	GraftOnnx__GraphProto *t = attrgraph(im, "then_branch"), *e = t ? attrgraph(im, "else_branch") : NULL;
	NodeId c = konst(im, in[0]), *to, *eo;
	int r = -1;
	if (!t || !e)
		goto done;
	to = ir_xcalloc((size_t)nout + 1, sizeof *to);
	eo = ir_xcalloc((size_t)nout + 1, sizeof *eo);
	if (c && ir_type_numel(im->m, im->m->nodes[c].type) == 1) {
		r = onnx_subgraph(im, elem(im, c, 0) != 0 ? t : e, NULL, 0, out, nout);
	} else if (onnx_subgraph(im, t, NULL, 0, to, nout) == 0 && onnx_subgraph(im, e, NULL, 0, eo, nout) == 0) {
		r = 0;
		for (int k = 0; k < nout && !r; k++) {
			NodeId w3[3] = { in[0], to[k], eo[k] };
			r = (out[k] = onnx_mk(im, OP_WHERE, w3, 3, 0)) ? 0 : -1;
		}
	}
	free(to);
	free(eo);
done:
	if (t)
		graft_onnx__graph_proto__free_unpacked(t, NULL);
	if (e)
		graft_onnx__graph_proto__free_unpacked(e, NULL);
	return r;
}

/* stack: parts[0..n) stacked along a new axis (expand_dims, concatenate) */
static NodeId
stack(Imp *im, NodeId *parts, int64_t n, int64_t axis)
{
	for (int64_t i = 0; i < n; i++) {
		AttrId at = ir_attr_defaults(im->m, OP_EXPAND_DIMS);
		seti(im, OP_EXPAND_DIMS, at, "axis", axis);
		if (!parts[i] || !(parts[i] = onnx_mk(im, OP_EXPAND_DIMS, &parts[i], 1, at)))
			return 0;
	}
	return mkconcat(im, parts, (int)n, axis);
}

enum { LOOP_MAX = 4096 };       /* iterations a Loop or Scan unrolls */

/* Loop(M, cond, v...; body): unrolled while the trip count and the
** condition (constants, or computed from constants each iteration) allow;
** the carried values' last, and each scan output stacked */
static int
loop(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	GraftOnnx__GraphProto *b = attrgraph(im, "body");
	int nc = nin > 2 ? nin - 2 : 0, ns = nout - nc, r = -1, go = 1;
	int64_t max = LOOP_MAX + 1, it;
	NodeId *ins, *outs, **scans;
	double v;
	if (!b)
		return -1;
	if (nc < 0 || ns < 0) {
		graft_onnx__graph_proto__free_unpacked(b, NULL);
		return onnx_err(im, "has %d outputs for %d loop-carried values", nout, nc);
	}
	if (in[0]) {
		if (cscalar(im, in, 0, "trip count M", &v)) {
			graft_onnx__graph_proto__free_unpacked(b, NULL);
			return -1;
		}
		max = d2i(v);
	}
	ins = ir_xcalloc((size_t)nin + 1, sizeof *ins);
	outs = ir_xcalloc((size_t)nout + 2, sizeof *outs);
	scans = ir_xcalloc((size_t)ns + 1, sizeof *scans);
	for (int k = 0; k < ns; k++)
		scans[k] = ir_xcalloc(LOOP_MAX + 1, sizeof **scans);
	ins[1] = nin > 1 && in[1] ? in[1] : kconst(im, DT_BOOL, 0, NULL, "\1");
	for (int k = 0; k < nc; k++)
		ins[2 + k] = in[2 + k];
	for (it = 0; it < max && go; it++) {
		NodeId c = konst(im, ins[1]);
		if (!c) {
			onnx_needconst(im, ins[1]);
			onnx_err(im, "the condition of iteration %lld depends on data: graft unrolls loops whose trip count is "
			         "known", (long long)it);
			goto done;
		}
		if (elem(im, c, 0) == 0)
			break;
		if (it == LOOP_MAX) {
			onnx_err(im, "more than %d iterations: graft unrolls loops up to that", LOOP_MAX);
			goto done;
		}
		ins[0] = kconst(im, DT_INT64, 0, NULL, &it);
		if (onnx_subgraph(im, b, ins, nc + 2, outs, 1 + nc + ns) != 0)
			goto done;
		ins[1] = outs[0];
		for (int k = 0; k < nc; k++)
			ins[2 + k] = outs[1 + k];
		for (int k = 0; k < ns; k++)
			scans[k][it] = outs[1 + nc + k];
	}
	for (int k = 0; k < nc; k++)
		out[k] = ins[2 + k];
	for (int k = 0; k < ns; k++)
		if (!it || !(out[nc + k] = stack(im, scans[k], it, 0))) {
			if (!it)
				onnx_err(im, "the loop runs no iteration, so its scan output %d has no shape", k);
			goto done;
		}
	r = 0;
done:
	for (int k = 0; k < ns; k++)
		free(scans[k]);
	free(scans);
	free(ins);
	free(outs);
	graft_onnx__graph_proto__free_unpacked(b, NULL);
	return r;
}

/* Scan(states..., scans...; body, num_scan_inputs, axes and directions),
** opset 9 on: unrolled over the scan inputs' axis */
static int
scan(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	GraftOnnx__GraphProto *b;
	int64_t m, ia[MAXD] = { 0 }, id[MAXD] = { 0 }, oa[MAXD] = { 0 }, od[MAXD] = { 0 }, len = -1;
	int nia = -1, nid = -1, noa = -1, nod = -1, nst, nso, r = -1;
	NodeId *ins, *outs, **scans;
	if (im->opset < 9)
		return onnx_err(im, "Scan of opset 8 (with a batch axis) is not supported");
	if (ai(im, "num_scan_inputs", 0, &m) || aints(im, "scan_input_axes", ia, MAXD, &nia) ||
	    aints(im, "scan_input_directions", id, MAXD, &nid) || aints(im, "scan_output_axes", oa, MAXD, &noa) ||
	    aints(im, "scan_output_directions", od, MAXD, &nod))
		return -1;
	nst = nin - (int)m;
	nso = nout - nst;
	if (m < 1 || nst < 0 || nso < 0 || m > MAXD || nso > MAXD)
		return onnx_err(im, "num_scan_inputs %lld does not fit %d inputs and %d outputs", (long long)m, nin, nout);
	for (int j = 0; j < m; j++) {
		int rk = rank(im, in[nst + j]);
		if (normax(im, &ia[j], rk, "scan_input_axes"))
			return -1;
		if (len >= 0 && onnx_dims(im, in[nst + j])[ia[j]] != len)
			return onnx_err(im, "the scan inputs differ in length");
		len = onnx_dims(im, in[nst + j])[ia[j]];
	}
	if (len > LOOP_MAX)
		return onnx_err(im, "more than %d iterations: graft unrolls scans up to that", LOOP_MAX);
	if (!(b = attrgraph(im, "body")))
		return -1;
	ins = ir_xcalloc((size_t)nin + 1, sizeof *ins);
	outs = ir_xcalloc((size_t)nout + 1, sizeof *outs);
	scans = ir_xcalloc((size_t)nso + 1, sizeof *scans);
	for (int k = 0; k < nso; k++)
		scans[k] = ir_xcalloc((size_t)len + 1, sizeof **scans);
	for (int k = 0; k < nst; k++)
		ins[k] = in[k];
	for (int64_t t = 0; t < len; t++) {
		for (int j = 0; j < m; j++) {
			NodeId x = in[nst + j];
			int64_t at = id[j] ? len - 1 - t : t, d[MAXD];
			int rk = rank(im, x), n = 0;
			for (int i = 0; i < rk; i++)
				if (i != ia[j])
					d[n++] = onnx_dims(im, x)[i];
			ins[nst + j] = mkreshape(im, slice1(im, x, (int)ia[j], at, at + 1), d, n);
		}
		if (onnx_subgraph(im, b, ins, nin, outs, nout) != 0)
			goto done;
		for (int k = 0; k < nst; k++)
			ins[k] = outs[k];
		for (int k = 0; k < nso; k++)
			scans[k][t] = outs[nst + k];
	}
	for (int k = 0; k < nst; k++)
		out[k] = ins[k];
	for (int k = 0; k < nso; k++) {
		int64_t ax = oa[k];
		if (!len) {
			onnx_err(im, "the scan runs no iteration, so its output %d has no shape", k);
			goto done;
		}
		if (od[k])      /* reversed: the last iteration's first */
			for (int64_t i = 0; i < len / 2; i++) {
				NodeId tmp = scans[k][i];
				scans[k][i] = scans[k][len - 1 - i];
				scans[k][len - 1 - i] = tmp;
			}
		if (normax(im, &ax, rank(im, scans[k][0]) + 1, "scan_output_axes") ||
		    !(out[nst + k] = stack(im, scans[k], len, ax)))
			goto done;
	}
	r = 0;
done:
	for (int k = 0; k < nso; k++)
		free(scans[k]);
	free(scans);
	free(ins);
	free(outs);
	graft_onnx__graph_proto__free_unpacked(b, NULL);
	return r;
}

/* detof: the determinant of x (..., n, n) by cofactors along the first
** row, each element a take of constant indices of the last two dims */
static NodeId
detof(Imp *im, NodeId x, int n)
{
	int r = rank(im, x);
	NodeId sum = 0;
	if (!x)
		return 0;
	if (n == 1) {
		int64_t z = 0;
		return takeconst(im, takeconst(im, x, &z, 1, r - 2), &z, 1, r - 1);
	}
	for (int j = 0; j < n; j++) {
		int64_t row0 = 0, rows[8], cols[8], k = 0, d[MAXD];
		NodeId e, minor, t;
		for (int i = 1; i < n; i++)
			rows[i - 1] = i;
		for (int i = 0; i < n; i++)
			if (i != j)
				cols[k++] = i;
		/* x[..., 0, j] kept as (..., 1, 1); the minor (..., n - 1, n - 1) */
		e = takeconst(im, takeconst(im, x, &row0, 1, r - 2), (int64_t[]){ j }, 1, r - 1);
		minor = takeconst(im, takeconst(im, x, rows, n - 1, r - 2), cols, n - 1, r - 1);
		t = mk2(im, OP_MULTIPLY, e, detof(im, minor, n - 1));
		if (!t)
			return 0;
		(void)d;
		sum = !sum ? t : mk2(im, j % 2 ? OP_SUBTRACT : OP_ADD, sum, t);
	}
	return sum;
}

/* Det(X (..., n, n)): the determinant by cofactor expansion (n up to 6) */
static int
det(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	int r = rank(im, in[0]);
	int64_t n, d[MAXD];
	NodeId y;
	if (r < 2 || (n = onnx_dims(im, in[0])[r - 1]) != onnx_dims(im, in[0])[r - 2] || n < 1 || n > 6)
		return onnx_err(im, "the input must end in a square matrix of 1 to 6 rows (graft expands cofactors)");
	memcpy(d, onnx_dims(im, in[0]), (size_t)(r - 2) * sizeof *d);
	if (!(y = detof(im, in[0], (int)n)))
		return -1;
	return (out[0] = mkreshape(im, y, d, r - 2)) ? 0 : -1;
}

/* MelWeightMatrix(num_mel_bins, dft_length, sample_rate, lower_edge_hertz,
** upper_edge_hertz; output_datatype 1): a constant, the triangular
** filters computed in double as ONNX's test computes them */
static int
melweight(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	double v[5], lo, hi, step;
	int64_t nm, dl, sr, ns, *fb, odt, d[2];
	double *w;
	DType dt;
	static const char *const what[] = { "num_mel_bins", "dft_length", "sample_rate", "lower_edge_hertz",
		                            "upper_edge_hertz" };
	for (int k = 0; k < 5; k++)
		if (cscalar(im, in, k, what[k], &v[k]))
			return -1;
	if (ai(im, "output_datatype", 1, &odt))
		return -1;
	if ((dt = onnx_dtype(odt)) == DT_VOID)
		return onnx_err(im, "output_datatype %s (%lld) is not supported", onnx_dtype_name(odt), (long long)odt);
	nm = d2i(v[0]);
	dl = d2i(v[1]);
	sr = d2i(v[2]);
	if (nm < 1 || dl < 1 || sr < 1 || nm > 4096 || dl > 1 << 20)
		return onnx_err(im, "num_mel_bins, dft_length and sample_rate must be positive (and not huge)");
	ns = dl / 2 + 1;
	lo = 2595 * log10(1 + v[3] / 700);
	hi = 2595 * log10(1 + v[4] / 700);
	step = (hi - lo) / (double)(nm + 2);
	fb = ir_xmalloc((size_t)(nm + 2) * sizeof *fb);
	for (int64_t i = 0; i < nm + 2; i++) {
		double f = 700 * (pow(10, ((double)i * step + lo) / 2595) - 1);
		fb[i] = (int64_t)floor((double)(dl + 1) * f / (double)sr);
	}
	w = ir_xcalloc((size_t)(ns * nm) + 1, sizeof *w);
	for (int64_t i = 0; i < nm; i++) {
		int64_t l = fb[i], c = fb[i + 1], h = fb[i + 2];
		if (c - l == 0 && c >= 0 && c < ns)
			w[c * nm + i] = 1;
		for (int64_t j = l; c - l != 0 && j <= c; j++)
			if (j >= 0 && j < ns)
				w[j * nm + i] = (double)(j - l) / (double)(c - l);
		for (int64_t j = c; h - c > 0 && j < h; j++)
			if (j >= 0 && j < ns)
				w[j * nm + i] = (double)(h - j) / (double)(h - c);
	}
	d[0] = ns;
	d[1] = nm;
	out[0] = kconstd(im, dt, 2, d, w);
	free(fb);
	free(w);
	return 0;
}

/* ---------------------------------------------------------------- resizing */

/* cvals: the values of constant input k (the what; folded if computed from
** constants) as doubles into v[0..max), their count into *n; 0 or -1 */
static int
cvals(Imp *im, const NodeId *in, int k, const char *what, double *v, int max, int *n)
{
	NodeId c = konst(im, in[k]);
	int64_t cnt;
	if (!c) {
		onnx_needconst(im, in[k]);
		return onnx_err(im, "input %d ('%s', the %s) must be a constant", k, im->nd->input[k], what);
	}
	if ((cnt = ir_type_numel(im->m, im->m->nodes[c].type)) > max)
		return onnx_err(im, "input %d ('%s', the %s) has %lld values, more than %d", k, im->nd->input[k], what,
		                (long long)cnt, max);
	for (int64_t i = 0; i < cnt; i++)
		v[i] = elem(im, c, i);
	*n = (int)cnt;
	return 0;
}

/* How Resize maps an output coordinate to the input's and weighs the
** input's elements around it (ONNX's Resize, as its reference computes
** it: onnx/reference/ops/op_resize.py). */
enum { RS_NEAREST, RS_LINEAR, RS_CUBIC };
enum { RZ_TAPS = 4 };

typedef struct Rsz {
	int mode;               /* RS_* */
	char coord[32];         /* coordinate_transformation_mode */
	char nearest[32];       /* nearest_mode */
	double a;               /* cubic_coeff_a */
	int exclude;            /* exclude_outside */
	double extrap;          /* extrapolation_value */
} Rsz;

/* rztaps: for output j of an axis of n inputs and out outputs (scale, the
** float scale; roi0, roi1 the axis's region for tf_crop_and_resize), the
** ntaps input indices (clamped) and weights into idx[], w[]; returns the
** number of taps, or 0 where the point lies outside the region (the
** extrapolation value) */
static int
rztaps(const Rsz *z, int64_t n, int64_t out, double scale, double roi0, double roi1, int64_t j, int64_t *idx,
       double *w)
{
	double x, ow = scale * (double)n, ratio, c[RZ_TAPS];
	int64_t nt, base;
	const char *m = z->coord;

	if (strcmp(m, "align_corners") == 0)
		x = ow == 1 ? 0 : (double)j * (double)(n - 1) / (ow - 1);
	else if (strcmp(m, "asymmetric") == 0)
		x = (double)j / scale;
	else if (strcmp(m, "tf_crop_and_resize") == 0) {
		x = out == 1 ? (roi1 - roi0) * (double)(n - 1) / 2 : (double)j * (roi1 - roi0) * (double)(n - 1) / (double)(out - 1);
		x += roi0 * (double)(n - 1);
		if (x < 0 || x > (double)(n - 1))
			return 0;
	} else if (strcmp(m, "pytorch_half_pixel") == 0)
		x = ow == 1 ? -0.5 : ((double)j + 0.5) / scale - 0.5;
	else if (strcmp(m, "tf_half_pixel_for_nn") == 0)
		x = ((double)j + 0.5) / scale;
	else if (strcmp(m, "half_pixel_symmetric") == 0) {
		double adj = (double)out / ow, center = (double)n / 2;
		x = center * (1 - adj) + ((double)j + 0.5) / scale - 0.5;
	} else
		x = ((double)j + 0.5) / scale - 0.5;   /* half_pixel */
	ratio = x == floor(x) ? 1 : x - floor(x);
	switch (z->mode) {
	case RS_NEAREST:
		nt = 2;
		if (ratio == 1)
			c[0] = 0, c[1] = 1;
		else if (strcmp(z->nearest, "round_prefer_ceil") == 0)
			c[0] = ratio < 0.5, c[1] = ratio >= 0.5;
		else if (strcmp(z->nearest, "floor") == 0)
			c[0] = 1, c[1] = 0;
		else if (strcmp(z->nearest, "ceil") == 0)
			c[0] = 0, c[1] = 1;
		else
			c[0] = ratio <= 0.5, c[1] = ratio > 0.5;
		break;
	case RS_LINEAR:
		nt = 2;
		c[0] = 1 - ratio;
		c[1] = ratio;
		break;
	default: {
		double a = z->a, r1 = ratio + 1, s = 1 - ratio, s1 = s + 1;
		nt = 4;
		c[0] = ((a * r1 - 5 * a) * r1 + 8 * a) * r1 - 4 * a;
		c[1] = ((a + 2) * ratio - (a + 3)) * ratio * ratio + 1;
		c[2] = ((a + 2) * s - (a + 3)) * s * s + 1;
		c[3] = ((a * s1 - 5 * a) * s1 + 8 * a) * s1 - 4 * a;
		break;
	}
	}
	/* the nt indices nearest x, ties to the smaller: floor(x) - nt/2 + 1
	** on (the reference's neighbours; x integral counts as ratio 1) */
	base = (int64_t)floor(x) - nt / 2 + (ratio == 1 ? 0 : 1);
	if (z->exclude) {
		double sum = 0;
		for (int64_t t = 0; t < nt; t++) {
			if (base + t < 0 || base + t >= n)
				c[t] = 0;
			sum += c[t];
		}
		for (int64_t t = 0; t < nt; t++)
			c[t] /= sum;
	}
	for (int64_t t = 0; t < nt; t++) {
		int64_t i = base + t;
		idx[t] = i < 0 ? 0 : i >= n ? n - 1 : i;
		w[t] = c[t];
	}
	return (int)nt;
}

/* rzaxis: x resized along axis to out elements: the sum over taps of
** take(x, the tap's indices) times its weights, the extrapolation value
** where a point is outside the region */
static NodeId
rzaxis(Imp *im, const Rsz *z, NodeId x, int axis, int64_t out, double scale, double roi0, double roi1)
{
	int r = rank(im, x), nt = 0;
	int64_t n = onnx_dims(im, x)[axis], d[MAXD], *idx, ti[RZ_TAPS];
	double *w, tw[RZ_TAPS];
	unsigned char *in = NULL;
	int anyout = 0, trivial = out == n;
	DType dt = dtype(im, x);
	NodeId y = 0;

	if (out < 0 || out > INT64_MAX / RZ_TAPS || !ir_tensor_fits(out * RZ_TAPS, DT_INT64))
		return onnx_err(im, "an output of %lld elements along axis %d is more than graft's limit", (long long)out,
		                axis), 0;
	idx = ir_xcalloc((size_t)(out * RZ_TAPS) + 1, sizeof *idx);
	w = ir_xcalloc((size_t)(out * RZ_TAPS) + 1, sizeof *w);
	in = ir_xcalloc((size_t)out + 1, 1);
	for (int64_t j = 0; j < out; j++) {
		int k = rztaps(z, n, out, scale, roi0, roi1, j, ti, tw);
		in[j] = k > 0;
		anyout |= !k;
		nt = k > nt ? k : nt;
		for (int t = 0; t < k; t++) {
			idx[t * out + j] = ti[t];
			w[t * out + j] = tw[t];
			trivial &= tw[t] == (ti[t] == j);
		}
	}
	if (trivial && !anyout) {
		y = x;
		goto done;
	}
	for (int i = 0; i < r; i++)
		d[i] = i == axis ? out : 1;
	for (int t = 0; t < nt; t++) {
		NodeId tk, wt;
		int zero = 1, one = 1;
		for (int64_t j = 0; j < out; j++) {
			zero &= w[t * out + j] == 0;
			one &= w[t * out + j] == 1;
		}
		if (zero)
			continue;
		tk = mktake(im, x, kconst(im, DT_INT64, 1, &out, idx + t * out), axis);
		wt = one ? tk : mk2(im, OP_MULTIPLY, tk, kconstd(im, dt, r, d, w + t * out));
		y = y ? mk2(im, OP_ADD, y, wt) : wt;
		if (!y)
			goto done;
	}
	if (!y)         /* every weight zero: every point outside */
		y = mktake(im, x, kconst(im, DT_INT64, 1, &out, idx), axis);
	if (anyout && y) {
		NodeId w3[3] = { kconst(im, DT_BOOL, r, d, in), y, kscalar(im, dt, z->extrap) };
		y = onnx_mk(im, OP_WHERE, w3, 3, 0);
	}
done:
	free(idx);
	free(w);
	free(in);
	return y;
}

/* rzkeeps: whether Resize z leaves an axis of n elements as it is when it
** resizes it to out with scale: each output index maps to itself, as in
** every coordinate mode at scale 1 but tf_crop_and_resize (a region) and
** tf_half_pixel_for_nn (half an element on).  An axis that axes does not
** list is never resized. */
static int
rzkeeps(const Rsz *z, int64_t n, int64_t out, double scale)
{
	return out == n && scale == 1 && strcmp(z->coord, "tf_crop_and_resize") != 0 &&
	       strcmp(z->coord, "tf_half_pixel_for_nn") != 0;
}

/* rzsame: whether image.resize2d under p reads each output of an axis
** of n elements resized to out as Resize z does with scale (rztaps; an
** axis keep says is left as it is, out == n, reads each output's own
** element): for nearest, the same element; for linear and cubic, each
** element with the same weight but for the rounding of image.resize2d's
** float32 coordinate (at most 1e-6 (n + 1)) */
static int
rzsame(const Rsz *z, const RefResize *p, int keep, int64_t n, int64_t out, double scale)
{
	int64_t *idx = ir_xcalloc((size_t)(out * p->taps) + 1, sizeof *idx), ti[RZ_TAPS];
	float *w = ir_xcalloc((size_t)(out * p->taps) + 1, sizeof *w);
	double tw[RZ_TAPS], tol = z->mode == RS_NEAREST ? 0 : 1e-6 * (double)(n + 1);
	int same = !keep || out == n;

	ref_resize_taps(p, n, out, idx, w);
	for (int64_t j = 0; j < out && same; j++) {
		const int64_t *pi = idx + j * p->taps;
		const float *pw = w + j * p->taps;
		int k = keep ? 1 : rztaps(z, n, out, scale, 0, 1, j, ti, tw);
		if (keep)
			ti[0] = j, tw[0] = 1;
		/* every element either side reads: its weights summed on each */
		for (int e = 0; e < k + p->taps && same; e++) {
			int64_t at = e < k ? ti[e] : pi[e - k];
			double a = 0, b = 0;
			for (int t = 0; t < k; t++)
				a += ti[t] == at ? tw[t] : 0;
			for (int t = 0; t < p->taps; t++)
				b += pi[t] == at ? (double)pw[t] : 0;
			same = fabs(a - b) <= tol;
		}
	}
	free(idx);
	free(w);
	return same;
}

/* rz2d: Resize z of x to outd (scale[], per axis; keep[], the axes it
** leaves as they are) as one image.resize2d into *y, if that gives
** Resize's result: x 4-D with N and C kept, a coordinate mode and
** nearest_mode image.resize2d has (half_pixel_symmetric as half_pixel),
** float32 or float16 data for linear and cubic (which image.resize2d
** computes in float32), and each axis read alike (rzsame: N and C read
** whole by any mode, of one element, or by the identity).  Returns 0 if
** not (no error: rzaxis's takes then), else 1 and *y (0 after an error) */
static int
rz2d(Imp *im, const Rsz *z, NodeId x, const int64_t *outd, const double *scale, const int *keep, NodeId *y)
{
	static const char *const modes[] = { "half_pixel", "align_corners", "asymmetric", "pytorch_half_pixel",
		"tf_half_pixel_for_nn", "half_pixel_symmetric" };
	static const char *const nearest[] = { "round_prefer_floor", "round_prefer_ceil", "floor", "ceil" };
	RefResize p = { .method = z->mode == RS_NEAREST ? REF_RS_NEAREST : z->mode == RS_LINEAR ? REF_RS_LINEAR
	                                                                                    : REF_RS_CUBIC,
	                .alpha = (float)z->a, .exclude = z->exclude, .pos = { 0, 1, 2, 3 } };
	RefResize whole;
	DType dt = dtype(im, x);
	int64_t d[MAXD];
	AttrId at;

	if (rank(im, x) != 4 || (p.method != REF_RS_NEAREST && dt != DT_FLOAT32 && dt != DT_FLOAT16))
		return 0;
	dimsof(im, x, d);
	if (outd[0] != d[0] || outd[1] != d[1])
		return 0;
	for (int i = 2; i < 4; i++)
		if (outd[i] <= 0 || outd[i] > INT64_MAX / RZ_TAPS || !ir_tensor_fits(outd[i] * RZ_TAPS, DT_INT64))
			return 0;       /* no empty image; too large, rzaxis says */
	for (size_t k = 0; k < sizeof modes / sizeof *modes; k++)
		if (strcmp(z->coord, modes[k]) == 0)
			p.coord = k == 5 ? modes[0] : modes[k];
	for (size_t k = 0; k < sizeof nearest / sizeof *nearest; k++)
		if (strcmp(z->nearest, nearest[k]) == 0)
			p.rounding = nearest[k];
	if (!p.coord || (p.method == REF_RS_NEAREST && !p.rounding))
		return 0;
	p.taps = p.method == REF_RS_NEAREST ? 1 : p.method == REF_RS_LINEAR ? 2 : 4;
	/* N and C as image.resize2d reads them: whole, each element itself */
	whole = (RefResize){ .method = REF_RS_NEAREST, .taps = 1, .coord = "asymmetric", .rounding = "floor" };
	for (int i = 0; i < 4; i++)
		if (!rzsame(z, i < 2 ? &whole : &p, keep[i], d[i], outd[i], scale[i]))
			return 0;
	at = ir_attr_defaults(im->m, OP_IMAGE_RESIZE2D);
	setints(im, OP_IMAGE_RESIZE2D, at, "size", outd + 2, 2);
	setfloats(im, OP_IMAGE_RESIZE2D, at, "roi", (const double[4]){ 0, 0, 0, 0 }, 4);
	sets(im, OP_IMAGE_RESIZE2D, at, "method", p.method == REF_RS_NEAREST ? "nearest_neighbor"
	                                          : p.method == REF_RS_LINEAR ? "linear" : "cubic");
	sets(im, OP_IMAGE_RESIZE2D, at, "coordinate_transformation_mode", p.coord);
	if (p.method == REF_RS_NEAREST)
		sets(im, OP_IMAGE_RESIZE2D, at, "rounding_method", p.rounding);
	if (p.method == REF_RS_CUBIC) {
		setf(im, OP_IMAGE_RESIZE2D, at, "cubic_alpha", p.alpha);
		seti(im, OP_IMAGE_RESIZE2D, at, "cubic_exclude", p.exclude);
	}
	*y = onnx_mk(im, OP_IMAGE_RESIZE2D, &x, 1, at);
	return 1;
}

/* Resize(X, roi, scales, sizes) (opset 10: X, scales) and Upsample(X,
** scales) (scales an attribute before opset 9): one image.resize2d where
** that gives the same result (rz2d), else resized along each axis whose
** size or scale is not 1, in turn (rzaxis).  Opset 10 and Upsample map
** coordinates as asymmetric, nearest by floor. */
static int
resize(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	Rsz z;
	char mode[16];
	int r = rank(im, in[0]), ns = 0, nz = 0, nroi = 0, naxes = -1, up = strcmp(im->nd->op_type, "Upsample") == 0;
	int64_t axes[MAXD], anti = 0, outd[MAXD];
	int listed[MAXD] = { 0 }, keep[MAXD];
	double sc[MAXD], sz[MAXD], roi[2 * MAXD], scale[MAXD];
	NodeId x = in[0];
	char pol[16];

	memset(&z, 0, sizeof z);
	if (as(im, "mode", "nearest", mode, sizeof mode) || aints(im, "axes", axes, MAXD, &naxes) ||
	    ai(im, "antialias", 0, &anti) || af(im, "cubic_coeff_a", -0.75, &z.a) ||
	    af(im, "extrapolation_value", 0, &z.extrap) || as(im, "keep_aspect_ratio_policy", "stretch", pol, sizeof pol))
		return -1;
	{
		int64_t ex;
		if (ai(im, "exclude_outside", 0, &ex))
			return -1;
		z.exclude = ex != 0;
	}
	if (up || im->opset < 11) {
		strcpy(z.coord, "asymmetric");
		strcpy(z.nearest, "floor");
	} else if (as(im, "coordinate_transformation_mode", "half_pixel", z.coord, sizeof z.coord) ||
	           as(im, "nearest_mode", "round_prefer_floor", z.nearest, sizeof z.nearest))
		return -1;
	z.mode = strcmp(mode, "nearest") == 0 ? RS_NEAREST : strcmp(mode, "linear") == 0 || strcmp(mode, "bilinear") == 0
	         ? RS_LINEAR : strcmp(mode, "cubic") == 0 ? RS_CUBIC : -1;
	if (z.mode < 0)
		return onnx_err(im, "mode '%s' is not nearest, linear or cubic", mode);
	if (anti)
		return onnx_err(im, "antialias is not supported");
	if (strcmp(pol, "stretch") && strcmp(pol, "not_larger") && strcmp(pol, "not_smaller"))
		return onnx_err(im, "keep_aspect_ratio_policy '%s' is not stretch, not_larger or not_smaller", pol);
	if (naxes < 0)
		for (naxes = 0; naxes < r; naxes++)
			axes[naxes] = naxes;
	for (int i = 0; i < naxes; i++) {
		if (normax(im, &axes[i], r, "axis"))
			return -1;
		listed[axes[i]] = 1;
	}
	/* the scales, or the sizes */
	if (up && im->opset < 9) {
		int64_t dummy;
		const OAttr *a = attr(im, "scales");
		(void)dummy;
		if (!a || !attyped(im, a, OA_FLOATS))
			return onnx_err(im, "attribute 'scales' is required");
		ns = (int)a->n_floats;
		for (int i = 0; i < ns && i < MAXD; i++)
			sc[i] = a->floats[i];
	} else {
		int ks = up || im->opset < 11 ? 1 : 2;
		if (nin > ks && in[ks] && cvals(im, in, ks, "scales", sc, MAXD, &ns))
			return -1;
		if (!up && im->opset >= 11) {
			if (nin > 1 && in[1] && cvals(im, in, 1, "roi", roi, 2 * MAXD, &nroi))
				return -1;
			if (nin > 3 && in[3] && cvals(im, in, 3, "sizes", sz, MAXD, &nz))
				return -1;
		}
	}
	if ((ns > 0) == (nz > 0))
		return onnx_err(im, "exactly one of scales and sizes must be given");
	if ((ns && ns != naxes) || (nz && nz != naxes))
		return onnx_err(im, "%s has %d values for %d axes", ns ? "scales" : "sizes", ns ? ns : nz, naxes);
	for (int i = 0; i < r; i++) {
		outd[i] = onnx_dims(im, x)[i];
		scale[i] = 1;
	}
	if (nz && strcmp(pol, "stretch") != 0) {
		/* one scale for the axes: the smallest (not_larger) or largest of
		   size / dim, each size then dim * scale rounded */
		double k = pol[4] == 'l' ? INFINITY : 0;
		for (int i = 0; i < naxes; i++) {
			double q = sz[i] / (double)onnx_dims(im, x)[axes[i]];
			k = pol[4] == 'l' ? fmin(k, q) : fmax(k, q);
		}
		for (int i = 0; i < naxes; i++)
			sz[i] = nearbyint(k * (double)onnx_dims(im, x)[axes[i]]);
		for (int i = 0; i < naxes; i++) {
			outd[axes[i]] = d2i(sz[i]);
			scale[axes[i]] = k;
		}
	}
	for (int i = 0; i < naxes && !(nz && strcmp(pol, "stretch") != 0); i++) {
		int64_t a = axes[i], n = onnx_dims(im, x)[a];
		if (ns) {
			if (!(sc[i] > 0))
				return onnx_err(im, "scale %g of axis %lld is not positive", sc[i], (long long)a);
			scale[a] = (double)(float)sc[i];
			outd[a] = d2i(floor(scale[a] * (double)n));
		} else {
			if (sz[i] < 0 || n == 0)
				return onnx_err(im, "size %g of axis %lld is not possible", sz[i], (long long)a);
			outd[a] = d2i(sz[i]);
			scale[a] = sz[i] / (double)n;
		}
	}
	if (nroi && nroi != 2 * naxes && nroi != 2 * r)
		return onnx_err(im, "roi has %d values, not %d", nroi, 2 * r);
	for (int i = 0; i < r; i++)
		keep[i] = !listed[i] || rzkeeps(&z, onnx_dims(im, x)[i], outd[i], scale[i]);
	if (r == 4 && !(keep[2] && keep[3])) {
		NodeId y;
		if (rz2d(im, &z, x, outd, scale, keep, &y))
			return (out[0] = y) ? 0 : -1;
	}
	for (int i = 0; i < r && x; i++) {
		double r0 = 0, r1 = 1;
		if (nroi == 2 * r) {
			r0 = roi[i];
			r1 = roi[r + i];
		}
		if (keep[i])
			continue;
		x = rzaxis(im, &z, x, i, outd[i], scale[i], r0, r1);
	}
	return (out[0] = x) ? 0 : -1;
}

/* Mish (opset 18): x * tanh(softplus(x)) */
static int
mish(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	DType dt = dtype(im, in[0]);
	NodeId sp = un(im, OP_LOG, mk2(im, OP_ADD, un(im, OP_EXP, in[0]), kscalar(im, dt, 1)));
	return (out[0] = mk2(im, OP_MULTIPLY, in[0], un(im, OP_TANH, sp))) ? 0 : -1;
}

/* CenterCropPad (opset 18): each axis (axes, or all) cropped around its
** center or padded with zeros around it to shape's size: a take of
** constant indices, then a constant pad (the extra on the end, as ONNX's
** reference puts it) */
static int
centercroppad(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	int64_t ax[MAXD], sh[MAXD], pb[2 * MAXD] = { 0 };
	int na = -1, ns, r = rank(im, in[0]), pad = 0;
	NodeId x = in[0];
	if (aints(im, "axes", ax, MAXD, &na) || cints(im, in, 1, "shape", sh, MAXD, &ns))
		return -1;
	if (na < 0)
		for (na = 0; na < r; na++)
			ax[na] = na;
	if (ns != na)
		return onnx_err(im, "shape has %d values for %d axes", ns, na);
	for (int i = 0; i < na && x; i++) {
		int64_t a = ax[i], n;
		if (normax(im, &a, r, "axis"))
			return -1;
		n = onnx_dims(im, x)[a];
		if (sh[i] < 0 || !ir_tensor_fits(sh[i], DT_INT8))
			return onnx_err(im, "shape value %lld for axis %lld is not a size graft takes", (long long)sh[i],
			                (long long)a);
		if (sh[i] < n) {                /* crop: the middle, the extra from the end */
			int64_t lo = (n - sh[i]) / 2;
			x = slice1(im, x, (int)a, lo, lo + sh[i]);
		} else if (sh[i] > n) {
			pb[a] = (sh[i] - n) / 2;
			pb[a + r] = sh[i] - n - pb[a];
			pad = 1;
		}
	}
	if (x && pad)
		x = mkpad(im, x, pb, 0);
	return (out[0] = x) ? 0 : -1;
}

/* ---------------------------------------------------------------- normalizations */

/* normalize: (x - mean) / sqrt(var + eps) over axes ax[0..n) (keepdims),
** the mean into *mean and 1 / sqrt(var + eps) into *inv when asked */
static NodeId
normalize(Imp *im, NodeId x, const int64_t *ax, int n, double eps, NodeId *mean, NodeId *inv)
{
	DType dt = dtype(im, x);
	NodeId mu = mkreduce(im, OP_MEAN, x, ax, n, 1), d = mk2(im, OP_SUBTRACT, x, mu);
	NodeId var = mkreduce(im, OP_MEAN, mk2(im, OP_MULTIPLY, d, d), ax, n, 1);
	NodeId r = mk2(im, OP_DIVIDE, kscalar(im, dt, 1), un(im, OP_SQRT, mk2(im, OP_ADD, var, kscalar(im, dt, eps))));
	if (mean)
		*mean = mu;
	if (inv)
		*inv = r;
	return mk2(im, OP_MULTIPLY, d, r);
}

/* mknorm: the normalization op (nn.layer_norm, nn.group_norm or
** nn.instance_norm, groups num_groups) of x along axis, scaled by gamma
** and shifted by beta, or not shifted when beta is 0 (center=False, with
** zeros in its place) */
static NodeId
mknorm(Imp *im, OpId op, NodeId x, NodeId gamma, NodeId beta, int64_t axis, int64_t groups, double eps)
{
	AttrId at = ir_attr_defaults(im->m, op);
	NodeId args[3] = { x, gamma, beta };

	seti(im, op, at, "axis", axis);
	setf(im, op, at, "epsilon", eps);
	if (op == OP_NN_GROUP_NORM)
		seti(im, op, at, "num_groups", groups);
	if (!beta && gamma) {
		int64_t n = onnx_dims(im, gamma)[0];
		double *z = ir_xcalloc((size_t)(n ? n : 1), sizeof *z);
		setb(im, op, at, "center", 0);
		args[2] = kconstd(im, dtype(im, gamma), 1, &n, z);
		free(z);
	}
	return x && gamma && args[2] ? onnx_mk(im, op, args, 3, at) : 0;
}

/* vec: n reshaped to a vector of len elements, folded when n is a
** constant, so that constants stay constants */
static NodeId
vec(Imp *im, NodeId n, int64_t len)
{
	NodeId k;

	if (!n || (rank(im, n) == 1 && onnx_dims(im, n)[0] == len))
		return n;
	n = mkreshape(im, n, &len, 1);
	k = konst(im, n);
	return k ? k : n;
}

/* sameshape: whether n's shape is dims[0..r) */
static int
sameshape(Imp *im, NodeId n, const int64_t *dims, int r)
{
	return rank(im, n) == r && memcmp(onnx_dims(im, n), dims, (size_t)r * sizeof *dims) == 0;
}

/* LayerNormalization(x, scale, B; axis -1, epsilon 1e-5, stash_type 1):
** normalized over the dims from axis on, then scaled and shifted.
** Unless Mean or InvStdDev is asked for, or scale or B is of another
** shape than those dims (ONNX broadcasts them), nn.layer_norm over the
** last axis of x reshaped to end in those dims' product (computed in
** double, at least stash_type's float32).  Else the composition, in
** float32 when stash_type is 1 (ONNX's U), with Mean and InvStdDev in that
** type with the normalized dims kept as 1 */
static int
layernorm(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	int64_t axis, stash, ax[MAXD], d[MAXD], n = 1;
	double eps;
	int r = rank(im, in[0]), k = 0;
	DType dt = dtype(im, in[0]);
	NodeId x, y, mu, inv, b = nin > 2 ? in[2] : 0;

	if (ai(im, "axis", -1, &axis) || af(im, "epsilon", 1e-5, &eps) || ai(im, "stash_type", 1, &stash) ||
	    normax(im, &axis, r, "axis"))
		return -1;
	if (stash != 1 && onnx_dtype(stash) != dt)
		return onnx_err(im, "stash_type %lld: graft computes in float32 (1) or the input's type", (long long)stash);
	if ((nout < 2 || !*im->nd->output[1]) && (nout < 3 || !*im->nd->output[2]) &&
	    sameshape(im, in[1], onnx_dims(im, in[0]) + axis, r - (int)axis) &&
	    (!b || sameshape(im, b, onnx_dims(im, in[0]) + axis, r - (int)axis))) {
		memcpy(d, onnx_dims(im, in[0]), (size_t)axis * sizeof *d);
		d[axis] = n = prod(im, in[0], (int)axis, r);
		x = axis == r - 1 ? in[0] : mkreshape(im, in[0], d, (int)axis + 1);
		y = mknorm(im, OP_NN_LAYER_NORM, x, vec(im, in[1], n), vec(im, b, n), -1, 0, eps);
		return (out[0] = axis == r - 1 || !y ? y : mkreshape(im, y, onnx_dims(im, in[0]), r)) ? 0 : -1;
	}
	for (int64_t i = axis; i < r; i++)
		ax[k++] = i;
	x = stash == 1 ? mkcast(im, in[0], DT_FLOAT32) : in[0];
	y = normalize(im, x, ax, k, eps, &mu, &inv);
	y = mk2(im, OP_MULTIPLY, mkcast(im, y, dt), in[1]);
	if (b)
		y = mk2(im, OP_ADD, y, b);
	out[0] = y;
	if (nout > 1)
		out[1] = mu;
	if (nout > 2)
		out[2] = inv;
	return y && mu && inv ? 0 : -1;
}

/* GroupNormalization(x, scale, bias; epsilon 1e-5, num_groups,
** stash_type 1): nn.group_norm over axis 1 (computed in double, at least
** stash_type's float32); scale and bias per channel from opset 21, per
** group at 18, where each group's value is repeated over its channels
** (folded when they are constants) */
static int
groupnorm(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	double eps;
	int64_t g, stash = 1, c, g1[2], gd[2];
	int r = rank(im, in[0]);
	NodeId sb[2] = { in[1], in[2] };
	if (af(im, "epsilon", 1e-5, &eps) || ai(im, "num_groups", 0, &g) || ai(im, "stash_type", 1, &stash))
		return -1;
	if (r < 2 || g < 1 || onnx_dims(im, in[0])[1] % g)
		return onnx_err(im, "num_groups %lld must divide the channels of an input of rank 2 or more", (long long)g);
	c = onnx_dims(im, in[0])[1];
	g1[0] = gd[0] = g;
	g1[1] = 1;
	gd[1] = c / g;
	for (int i = 0; i < 2 && im->opset < 21 && g != c; i++) {
		AttrId at = ir_attr_defaults(im->m, OP_BROADCAST_TO);
		NodeId v = mkreshape(im, sb[i], g1, 2);
		setints(im, OP_BROADCAST_TO, at, "shape", gd, 2);
		sb[i] = vec(im, v ? onnx_mk(im, OP_BROADCAST_TO, &v, 1, at) : 0, c);
	}
	return (out[0] = mknorm(im, OP_NN_GROUP_NORM, in[0], sb[0], sb[1], 1, g, eps)) ? 0 : -1;
}

/* GlobalMaxPool: max over the spatial dims, kept */
static int
globalmaxpool(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	int64_t ax[MAXD];
	int r = rank(im, in[0]), n = 0;
	for (int i = 2; i < r; i++)
		ax[n++] = i;
	if (n == 0)
		return onnx_err(im, "the input must have spatial dims");
	return (out[0] = mkreduce(im, OP_MAX, in[0], ax, n, 1)) ? 0 : -1;
}

/* LpNormalization(axis -1, p 2): x / the p-norm along the axis */
static int
lpnorm(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	int64_t axis, p;
	NodeId nrm;
	if (ai(im, "axis", -1, &axis) || ai(im, "p", 2, &p) || normax(im, &axis, rank(im, in[0]), "axis"))
		return -1;
	if (p == 1)
		nrm = mkreduce(im, OP_SUM, un(im, OP_ABS, in[0]), &axis, 1, 1);
	else if (p == 2)
		nrm = un(im, OP_SQRT, mkreduce(im, OP_SUM, mk2(im, OP_MULTIPLY, in[0], in[0]), &axis, 1, 1));
	else
		return onnx_err(im, "p %lld is not 1 or 2", (long long)p);
	return (out[0] = mk2(im, OP_DIVIDE, in[0], nrm)) ? 0 : -1;
}

/* InstanceNormalization(x, scale, B; epsilon 1e-5): nn.instance_norm over
** axis 1, normalized over the spatial dims of each image and channel */
static int
instancenorm(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	double eps;
	int r = rank(im, in[0]);
	if (af(im, "epsilon", 1e-5, &eps))
		return -1;
	if (r < 3)
		return onnx_err(im, "the input must have rank 3 or more (N, C, D1, ...), not %d", r);
	return (out[0] = mknorm(im, OP_NN_INSTANCE_NORM, in[0], in[1], in[2], 1, 0, eps)) ? 0 : -1;
}

/* MeanVarianceNormalization(axes [0, 2, 3]): ONNX's function, (x - E[x]) /
** (sqrt(E[x^2] - E[x]^2) + 1e-9) */
static int
mvn(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	int64_t ax[MAXD] = { 0, 2, 3 };
	int n, r = rank(im, in[0]);
	DType dt = dtype(im, in[0]);
	NodeId x = in[0], mu, ex2, sd;
	if (aints(im, "axes", ax, MAXD, &n))
		return -1;
	if (n < 0)
		n = 3;
	for (int i = 0; i < n; i++)
		if (normax(im, &ax[i], r, "axis"))
			return -1;
	mu = mkreduce(im, OP_MEAN, x, ax, n, 1);
	ex2 = mkreduce(im, OP_MEAN, mk2(im, OP_MULTIPLY, x, x), ax, n, 1);
	sd = un(im, OP_SQRT, mk2(im, OP_SUBTRACT, ex2, mk2(im, OP_MULTIPLY, mu, mu)));
	return (out[0] = mk2(im, OP_DIVIDE, mk2(im, OP_SUBTRACT, x, mu), mk2(im, OP_ADD, sd, kscalar(im, dt, 1e-9)))) ? 0
	                                                                                                              : -1;
}

/* Spatial attributes of Conv and the pools, for 2-D (NCHW) inputs. */
typedef struct Win {
	int64_t k[2], s[2], dil[2], pad[4];
	/* a 3-D window's depth (NCDHW): kernel, stride, dilation, pads,
	   output size; kd 0 for 1-D and 2-D */
	int64_t kd, sd, dd, pd[2], od;
} Win;

/* window: kernel (given, or from the attribute kernel_shape), strides,
** dilations, pads and auto_pad of the node on input x; 0 or -1.  A 1-D
** window (x of rank 3, NCW) is the 2-D window of height 1 on the input
** seen as NC1W: its attributes have one value each (pads two). */
static int
window(Imp *im, NodeId x, const int64_t *kernel, Win *w)
{
	int64_t v[8];
	int n, sp = rank(im, x) - 2;    /* spatial dims */
	char ap[32];
	int64_t d_[MAXD];     /* copies: the module's dims move as it grows */
	const int64_t *d = dimsof(im, x, d_);
	/* all three dims (D, H, W), a 1-D or 2-D window's leading ones 1 */
	int64_t k[3] = { 1, 1, 1 }, s[3] = { 1, 1, 1 }, dl[3] = { 1, 1, 1 }, pb[3] = { 0 }, pe[3] = { 0 }, dd[3] = { 1, 1, 1 };
	int o = 3 - sp;

	if (sp < 1 || sp > 3)
		return onnx_err(im, "graft takes 1-D, 2-D and 3-D windows: the input must have rank 3 (NCW), 4 (NCHW) or 5 "
		                "(NCDHW), not %d", rank(im, x));
	for (int i = 0; i < sp; i++)
		dd[o + i] = d[2 + i];
	if (kernel) {
		for (int i = 0; i < sp; i++)
			k[o + i] = kernel[i];
	} else {
		if (aints(im, "kernel_shape", v, 8, &n))
			return -1;
		if (n != sp)
			return onnx_err(im, "attribute 'kernel_shape' must have %d value%s", sp, sp == 1 ? "" : "s");
		for (int i = 0; i < sp; i++)
			k[o + i] = v[i];
	}
	if (aints(im, "strides", v, 8, &n))
		return -1;
	if (n >= 0 && n != sp)
		return onnx_err(im, "attribute 'strides' must have %d value%s", sp, sp == 1 ? "" : "s");
	for (int i = 0; i < n; i++)
		s[o + i] = v[i];
	if (aints(im, "dilations", v, 8, &n))
		return -1;
	if (n >= 0 && n != sp)
		return onnx_err(im, "attribute 'dilations' must have %d value%s", sp, sp == 1 ? "" : "s");
	for (int i = 0; i < n; i++)
		dl[o + i] = v[i];
	if (aints(im, "pads", v, 8, &n))
		return -1;
	if (n >= 0 && n != 2 * sp)
		return onnx_err(im, "attribute 'pads' must have %d values", 2 * sp);
	for (int i = 0; i < sp && n > 0; i++) {
		pb[o + i] = v[i];
		pe[o + i] = v[sp + i];
	}
	for (int i = 0; i < 3; i++)
		if (k[i] < 1 || s[i] < 1 || dl[i] < 1 || pb[i] < 0 || pe[i] < 0)
			return onnx_err(im, "kernel, strides and dilations must be positive and pads not negative");
	if (as(im, "auto_pad", "NOTSET", ap, sizeof ap))
		return -1;
	if (strcmp(ap, "SAME_UPPER") == 0 || strcmp(ap, "SAME_LOWER") == 0) {
		for (int i = o; i < 3; i++) {
			int64_t out = (dd[i] + s[i] - 1) / s[i];
			int64_t tot = (out - 1) * s[i] + (k[i] - 1) * dl[i] + 1 - dd[i];
			if (tot < 0)
				tot = 0;
			pb[i] = ap[5] == 'U' ? tot / 2 : tot - tot / 2;
			pe[i] = tot - pb[i];
		}
	} else if (strcmp(ap, "VALID") == 0) {
		memset(pb, 0, sizeof pb);
		memset(pe, 0, sizeof pe);
	} else if (strcmp(ap, "NOTSET") != 0) {
		return onnx_err(im, "auto_pad '%s' is not one of NOTSET, SAME_UPPER, SAME_LOWER, VALID", ap);
	}
	for (int i = 0; i < 2; i++) {
		w->k[i] = k[1 + i];
		w->s[i] = s[1 + i];
		w->dil[i] = dl[1 + i];
		w->pad[i] = pb[1 + i];
		w->pad[2 + i] = pe[1 + i];
	}
	w->kd = sp == 3 ? k[0] : 0;
	w->sd = s[0];
	w->dd = dl[0];
	w->pd[0] = pb[0];
	w->pd[1] = pe[0];
	w->od = (dd[0] + pb[0] + pe[0] - (k[0] - 1) * dl[0] - 1) / s[0] + 1;
	return 0;
}

/* depthtaps: x (N, C, D, H, W) padded in depth by w's pads (with value
** pv), then, for depth tap kd, the slices at od * sd + kd * dd for each
** output depth od, as (N, C * OD, H, W): what a 2-D op then runs on */
static NodeId
depthtap(Imp *im, NodeId xp, const Win *w, int64_t kd)
{
	int64_t *idx = ir_xmalloc((size_t)w->od * sizeof *idx + 8), d4[4];
	const int64_t *d;
	NodeId t;
	for (int64_t o = 0; o < w->od; o++)
		idx[o] = o * w->sd + kd * w->dd;
	t = takeconst(im, xp, idx, w->od, 2);
	free(idx);
	if (!t)
		return 0;
	d = onnx_dims(im, t);
	d4[0] = d[0];
	d4[1] = d[1] * d[2];
	d4[2] = d[3];
	d4[3] = d[4];
	return mkreshape(im, t, d4, 4);
}

/* depthpad: x padded in depth (axis 2) by w's pads, with value v */
static NodeId
depthpad(Imp *im, NodeId x, const Win *w, double v)
{
	int64_t p[10] = { 0 };
	if (!w->pd[0] && !w->pd[1])
		return x;
	p[2] = w->pd[0];
	p[7] = w->pd[1];
	return mkpad(im, x, p, v);
}

/* undepth: y (N, C * OD, OH, OW) back to (N, C, OD, OH, OW) */
static NodeId
undepth(Imp *im, NodeId y, int64_t od)
{
	int64_t d5[5];
	if (!y)
		return 0;
	d5[0] = onnx_dims(im, y)[0];
	d5[1] = onnx_dims(im, y)[1] / od;
	d5[2] = od;
	d5[3] = onnx_dims(im, y)[2];
	d5[4] = onnx_dims(im, y)[3];
	return mkreshape(im, y, d5, 5);
}

/* to2d: x of rank 3 (NCW, OIW) as rank 4 with a height of 1; x itself
** otherwise */
static NodeId
to2d(Imp *im, NodeId x)
{
	int64_t d[4];
	if (!x || rank(im, x) != 3)
		return x;
	d[0] = onnx_dims(im, x)[0];
	d[1] = onnx_dims(im, x)[1];
	d[2] = 1;
	d[3] = onnx_dims(im, x)[2];
	return mkreshape(im, x, d, 4);
}

/* from2d: y (rank 4, height 1) back to rank 3 when the node's input x was */
static NodeId
from2d(Imp *im, NodeId x, NodeId y)
{
	int64_t d[3];
	if (!y || rank(im, x) != 3)
		return y;
	d[0] = onnx_dims(im, y)[0];
	d[1] = onnx_dims(im, y)[1];
	d[2] = onnx_dims(im, y)[3];
	return mkreshape(im, y, d, 3);
}

/* convattrs: the attributes of op (nn.conv2d or qnn.conv2d) for weight w */
static AttrId
convattrs(Imp *im, OpId op, NodeId w, const Win *win, int64_t group, DType out)
{
	AttrId at = ir_attr_defaults(im->m, op);
	setints(im, op, at, "strides", win->s, 2);
	setints(im, op, at, "padding", win->pad, 4);
	setints(im, op, at, "dilation", win->dil, 2);
	seti(im, op, at, "groups", group);
	seti(im, op, at, "channels", onnx_dims(im, w)[0]);
	setints(im, op, at, "kernel_size", win->k, 2);
	if (out != DT_VOID)
		setdt(im, op, at, "out_dtype", out);
	return at;
}

/* convwin: the window of a conv node on x with weight w, and its group */
static int
convwin(Imp *im, NodeId x, NodeId w, Win *win, int64_t *group)
{
	if (rank(im, w) < 3 || rank(im, w) > 5)
		return onnx_err(im, "graft takes 1-D, 2-D and 3-D convolutions: the weight must have rank 3 (OIW), 4 (OIHW) "
		                "or 5 (OIDHW), not %d", rank(im, w));
	if (rank(im, x) != rank(im, w))
		return onnx_err(im, "the input has rank %d and the weight rank %d", rank(im, x), rank(im, w));
	return ai(im, "group", 1, group) || window(im, x, onnx_dims(im, w) + 2, win);
}

/* conv3: the 3-D convolution of x (N, C, D, H, W) by w (O, C / group, KD,
** KH, KW) with window win: for each depth tap, the taps' slices of every
** output depth batched as images (N * OD, C, H, W) through a 2-D
** convolution by that tap's kernel, summed; (N, O, OD, OH, OW) */
static NodeId
conv3(Imp *im, NodeId x, NodeId w, const Win *win, int64_t group)
{
	NodeId xp = depthpad(im, x, win, 0), sum = 0, a[2];
	static const int64_t p5[5] = { 0, 2, 1, 3, 4 };
	int64_t xd[5], wd[5], n, c, k4[4], o5[5];
	memcpy(xd, onnx_dims(im, x), sizeof xd);        /* the module's dims move as it grows */
	memcpy(wd, onnx_dims(im, w), sizeof wd);
	n = xd[0];
	c = xd[1];
	k4[0] = wd[0], k4[1] = wd[1], k4[2] = wd[3], k4[3] = wd[4];
	for (int64_t kd = 0; kd < win->kd && xp; kd++) {
		NodeId t = depthtap(im, xp, win, kd), y2;
		int64_t d5[5] = { n, c, win->od, xd[3], xd[4] }, d4[4] = { n * win->od, c, xd[3], xd[4] };
		t = mkreshape(im, mktranspose(im, mkreshape(im, t, d5, 5), p5, 5), d4, 4);
		a[0] = t;
		a[1] = mkreshape(im, slice1(im, w, 2, kd, kd + 1), k4, 4);
		y2 = a[0] && a[1] ? onnx_mk(im, OP_NN_CONV2D, a, 2, convattrs(im, OP_NN_CONV2D, a[1], win, group, DT_VOID)) : 0;
		sum = sum ? mk2(im, OP_ADD, sum, y2) : y2;
		if (!sum)
			return 0;
	}
	if (!sum)
		return 0;
	o5[0] = n;
	o5[1] = win->od;
	o5[2] = onnx_dims(im, sum)[1];
	o5[3] = onnx_dims(im, sum)[2];
	o5[4] = onnx_dims(im, sum)[3];
	return mktranspose(im, mkreshape(im, sum, o5, 5), p5, 5);
}

/* convwin2: a convolution of x by w (1-D, 2-D or 3-D by their rank) with
** window win and group: nn.conv2d, of height 1 for 1-D, over depth taps
** for 3-D */
static NodeId
convwin2(Imp *im, NodeId x, NodeId w, const Win *win, int64_t group)
{
	NodeId a[2];
	if (!x || !w)
		return 0;
	if (win->kd)
		return conv3(im, x, w, win, group);
	if (!(a[0] = to2d(im, x)) || !(a[1] = to2d(im, w)))
		return 0;
	return from2d(im, x, onnx_mk(im, OP_NN_CONV2D, a, 2, convattrs(im, OP_NN_CONV2D, a[1], win, group, DT_VOID)));
}

/* Conv(x, w, b) -> nn.conv2d (+ nn.bias_add): 1-D, 2-D and 3-D
** (convwin2) */
static int
conv(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	Win win;
	int64_t group;
	NodeId y;
	if (convwin(im, in[0], in[1], &win, &group) || !(y = convwin2(im, in[0], in[1], &win, group)))
		return -1;
	if (nin > 2 && in[2])
		y = mk2(im, OP_NN_BIAS_ADD, y, in[2]);
	return (out[0] = y) ? 0 : -1;
}

/* ConvTranspose(x, w, b; strides, dilations, pads, output_padding,
** output_shape, auto_pad, group): the convolution, stride 1, of x with
** strides - 1 zeros between its elements, padded by dilation * (k - 1)
** less the pads (cropped where negative; output_padding more at the end),
** by w with input and output channels swapped per group and its window
** flipped.  Works on every backend: pads, reshapes, takes, a conv2d */
static int
convtranspose(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	int r = rank(im, in[0]), sp = r - 2, nv, g5;
	int64_t k[3], s[3] = { 1, 1, 1 }, d[3] = { 1, 1, 1 }, pb[3] = { 0 }, pe[3] = { 0 }, op[3] = { 0 }, os[3], v[8];
	int64_t group, xd[MAXD], wd[MAXD], nos = -1, pads[2 * MAXD] = { 0 };
	char ap[16];
	NodeId x = in[0], w = in[1], y;
	Win win;

	if (sp < 1 || sp > 3 || rank(im, w) != r)
		return onnx_err(im, "graft takes 1-D, 2-D and 3-D transposed convolutions, the weight of the input's rank");
	memcpy(xd, onnx_dims(im, x), (size_t)r * sizeof *xd);
	memcpy(wd, onnx_dims(im, w), (size_t)r * sizeof *wd);
	if (ai(im, "group", 1, &group) || as(im, "auto_pad", "NOTSET", ap, sizeof ap))
		return -1;
	if (group < 1 || xd[1] != wd[0] || wd[0] % group)
		return onnx_err(im, "the weight (%lld, ...) does not fit %lld input channels in %lld groups", (long long)wd[0],
		                (long long)xd[1], (long long)group);
	for (int i = 0; i < sp; i++)
		k[i] = wd[2 + i];
#define SPATTR(name, arr, cnt) do { \
		if (aints(im, name, v, 8, &nv)) \
			return -1; \
		if (nv >= 0 && nv != (cnt)) \
			return onnx_err(im, "attribute '%s' must have %d values", name, (cnt)); \
		for (int i = 0; i < nv; i++) \
			(arr)[i] = v[i]; \
	} while (0)
	SPATTR("kernel_shape", k, sp);
	SPATTR("strides", s, sp);
	SPATTR("dilations", d, sp);
	SPATTR("output_padding", op, sp);
	SPATTR("pads", pads, 2 * sp);
	if (aints(im, "output_shape", v, 8, &nv))
		return -1;
#undef SPATTR
	for (int i = 0; i < sp; i++) {
		pb[i] = pads[i];
		pe[i] = pads[sp + i];
		if (s[i] < 1 || d[i] < 1 || k[i] < 1 || op[i] < 0 || s[i] > 1 << 16 || d[i] > 1 << 16 || k[i] > 1 << 16 ||
		    op[i] > 1 << 16 || pb[i] < -(1 << 16) || pb[i] > 1 << 16 || pe[i] < -(1 << 16) || pe[i] > 1 << 16)
			return onnx_err(im, "strides, dilations and kernel must be positive and output_padding not negative "
			                "(and all below 2^16)");
	}
	if (nv >= 0) {          /* output_shape: its spatial dims (the last sp values) */
		if (nv < sp)
			return onnx_err(im, "output_shape has %d values for %d spatial dims", nv, sp);
		nos = nv;
		for (int i = 0; i < sp; i++) {
			os[i] = v[nv - sp + i];
			if (os[i] < 0 || os[i] > (int64_t)1 << 40)
				return onnx_err(im, "output_shape value %lld is not a size graft takes", (long long)os[i]);
		}
	} else if (strcmp(ap, "SAME_UPPER") == 0 || strcmp(ap, "SAME_LOWER") == 0) {
		nos = sp;
		for (int i = 0; i < sp; i++)
			os[i] = xd[2 + i] * s[i];
	}
	if (nos >= 0) {
		for (int i = 0; i < sp; i++) {
			/* halves by floor division, as ONNX's formula in Python: a
			   negative total (output_shape larger) extends the end */
			int64_t tot = s[i] * (xd[2 + i] - 1) + op[i] + (k[i] - 1) * d[i] + 1 - os[i];
			int64_t half = tot >= 0 ? tot / 2 : -((-tot + 1) / 2);
			int upper = strcmp(ap, "SAME_UPPER") == 0;
			pb[i] = upper ? half : tot - half;
			pe[i] = tot - pb[i];
		}
	} else if (strcmp(ap, "VALID") == 0) {
		memset(pb, 0, sizeof pb);
		memset(pe, 0, sizeof pe);
	}
	/* x with strides - 1 zeros between elements, then padded (or cropped) */
	for (int i = 0; i < sp && x; i++) {
		int a = 2 + i;
		int64_t lo = d[i] * (k[i] - 1) - pb[i], hi = d[i] * (k[i] - 1) - pe[i] + op[i], n, p2[2 * MAXD] = { 0 };
		if (s[i] > 1) {
			int64_t e[MAXD + 1], e2[MAXD], pz[2 * (MAXD + 1)] = { 0 };
			int rr = rank(im, x);
			memcpy(e, onnx_dims(im, x), (size_t)(a + 1) * sizeof *e);
			e[a + 1] = 1;
			memcpy(e + a + 2, onnx_dims(im, x) + a + 1, (size_t)(rr - a - 1) * sizeof *e);
			if (rr + 1 > MAXD)
				return onnx_err(im, "rank %d is too large", rr);
			pz[a + 1 + rr + 1] = s[i] - 1;
			x = mkpad(im, mkreshape(im, x, e, rr + 1), pz, 0);
			memcpy(e2, onnx_dims(im, in[0]), (size_t)rr * sizeof *e2);
			for (int j = 0; j < rr; j++)
				e2[j] = x ? onnx_dims(im, x)[j < a ? j : j + 1] : 0;
			e2[a] = x ? onnx_dims(im, x)[a] * s[i] : 0;
			x = x ? mkreshape(im, x, e2, rr) : 0;
			x = x ? slice1(im, x, a, 0, s[i] * (onnx_dims(im, x)[a] / s[i] - 1) + 1) : 0;
		}
		if (!x)
			return -1;
		n = onnx_dims(im, x)[a];
		if (lo < 0)
			x = slice1(im, x, a, -lo, n), lo = 0;
		if (x && hi < 0)
			x = slice1(im, x, a, 0, onnx_dims(im, x)[a] + hi), hi = 0;
		p2[a] = lo;
		p2[a + r] = hi;
		if (x && (lo || hi))
			x = mkpad(im, x, p2, 0);
	}
	if (!x)
		return -1;
	/* w: (C_in, C_out / g, k...) to (C_out, C_in / g, k...), flipped */
	{
		int64_t e[MAXD + 1], perm[MAXD + 1], o[MAXD];
		g5 = r + 1;
		e[0] = group;
		e[1] = wd[0] / group;
		e[2] = wd[1];
		for (int i = 0; i < sp; i++)
			e[3 + i] = wd[2 + i];
		perm[0] = 0, perm[1] = 2, perm[2] = 1;
		for (int i = 3; i < g5; i++)
			perm[i] = i;
		o[0] = wd[1] * group;
		o[1] = wd[0] / group;
		for (int i = 0; i < sp; i++)
			o[2 + i] = wd[2 + i];
		w = mkreshape(im, mktranspose(im, mkreshape(im, w, e, g5), perm, g5), o, r);
		for (int i = 0; i < sp && w; i++) {
			int64_t *idx = ir_xmalloc((size_t)k[i] * sizeof *idx + 8);
			for (int64_t j = 0; j < k[i]; j++)
				idx[j] = k[i] - 1 - j;
			w = takeconst(im, w, idx, k[i], 2 + i);
			free(idx);
		}
		if (w && konst(im, w))          /* a constant weight: transformed once, here */
			w = konst(im, w);
	}
	/* the window: stride 1, dilation d, no pads */
	memset(&win, 0, sizeof win);
	for (int i = 0; i < 2; i++) {
		int j = i - (2 - (sp < 3 ? sp : 2));    /* H, W from the last two (or one) spatial dims */
		win.k[i] = sp == 3 ? k[1 + i] : j >= 0 ? k[j] : 1;
		win.dil[i] = sp == 3 ? d[1 + i] : j >= 0 ? d[j] : 1;
		win.s[i] = 1;
	}
	if (sp == 3) {
		win.kd = k[0];
		win.sd = 1;
		win.dd = d[0];
		win.od = onnx_dims(im, x)[2] - d[0] * (k[0] - 1);
	}
	if (!(y = convwin2(im, x, w, &win, group)))
		return -1;
	if (nin > 2 && in[2])
		y = mk2(im, OP_NN_BIAS_ADD, y, in[2]);
	return (out[0] = y) ? 0 : -1;
}

/* pool: AveragePool and MaxPool -> nn.avg_pool2d, nn.max_pool2d */
static int
pool(Imp *im, OpId op, const NodeId *in, NodeId *out)
{
	Win win;
	int64_t ceil, cip = 0;
	AttrId at;
	NodeId x;
	if (window(im, in[0], NULL, &win) || ai(im, "ceil_mode", 0, &ceil) ||
	    (op == OP_NN_AVG_POOL2D && ai(im, "count_include_pad", 0, &cip)))
		return -1;
	if (op == OP_NN_MAX_POOL2D) {
		int64_t order;
		if (ai(im, "storage_order", 0, &order))
			return -1;
	}
	at = ir_attr_defaults(im->m, op);
	setints(im, op, at, "pool_size", win.k, 2);
	setints(im, op, at, "strides", win.s, 2);
	setints(im, op, at, "dilation", win.dil, 2);
	setints(im, op, at, "padding", win.pad, 4);
	setb(im, op, at, "ceil_mode", (int)ceil);
	if (op == OP_NN_AVG_POOL2D)
		setb(im, op, at, "count_include_pad", (int)cip);
	if (win.kd) {
		/* 3-D: the 2-D pool of each depth tap's slices, then their maximum,
		   or their mean over the taps inside the input (all of them with
		   count_include_pad) */
		NodeId xp = depthpad(im, in[0], &win, op == OP_NN_MAX_POOL2D ? -INFINITY : 0), acc = 0;
		int64_t D = onnx_dims(im, in[0])[2];
		if (ceil)
			return onnx_err(im, "ceil_mode is not supported in 3-D");
		for (int64_t kd = 0; kd < win.kd && xp; kd++) {
			NodeId t = depthtap(im, xp, &win, kd);
			t = t ? onnx_mk(im, op, &t, 1, at) : 0;
			acc = !acc ? t : mk2(im, op == OP_NN_MAX_POOL2D ? OP_MAXIMUM : OP_ADD, acc, t);
			if (!acc)
				return -1;
		}
		acc = undepth(im, acc, win.od);
		if (op == OP_NN_AVG_POOL2D && acc) {
			/* divided by the number of depth taps counted, per output depth */
			DType dt = dtype(im, acc);
			int64_t d5[5] = { 1, 1, win.od, 1, 1 };
			double *dv = ir_xmalloc((size_t)win.od * sizeof *dv + 8);
			for (int64_t o = 0; o < win.od; o++) {
				int64_t cnt = 0;
				for (int64_t kd = 0; kd < win.kd; kd++) {
					int64_t z = o * win.sd + kd * win.dd - win.pd[0];
					cnt += cip || (z >= 0 && z < D);
				}
				dv[o] = cnt ? 1.0 / (double)cnt : 0;
			}
			acc = mk2(im, OP_MULTIPLY, acc, kconstd(im, dt, 5, d5, dv));
			free(dv);
		}
		return (out[0] = acc) ? 0 : -1;
	}
	x = to2d(im, in[0]);
	return (out[0] = x ? from2d(im, in[0], onnx_mk(im, op, &x, 1, at)) : 0) ? 0 : -1;
}

static int avgpool(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return pool(im, OP_NN_AVG_POOL2D, in, out); }
static int maxpool(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return pool(im, OP_NN_MAX_POOL2D, in, out); }

/* GlobalAveragePool -> nn.global_avg_pool2d (rank 4) */
static int
gap(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	if (rank(im, in[0]) != 4)
		return onnx_err(im, "graft takes rank 4 (NCHW), not %d", rank(im, in[0]));
	return (out[0] = onnx_mk(im, OP_NN_GLOBAL_AVG_POOL2D, in, 1, 0)) ? 0 : -1;
}

/* padtake: x padded by p (ONNX's begins then ends; negative crops) in
** mode reflect (mirrored at the edge, the edge once), edge (the edge
** repeated) or wrap (from the other end): a take of constant indices
** along each axis padded */
static NodeId
padtake(Imp *im, NodeId x, const int64_t *p, const char *mode)
{
	int r = rank(im, x);
	for (int i = 0; i < r && x; i++) {
		int64_t n = onnx_dims(im, x)[i], b = p[i], e = p[i + r], m = n + b + e, *idx;
		if (!b && !e)
			continue;
		if (n == 0 || m < 0 || !ir_tensor_fits(m, DT_INT64)) {
			onnx_err(im, "pads (%lld, %lld) on axis %d of %lld elements", (long long)b, (long long)e, i, (long long)n);
			return 0;
		}
		idx = ir_xmalloc((size_t)m * sizeof *idx + 8);
		for (int64_t j = 0; j < m; j++) {
			int64_t k = j - b;
			if (mode[0] == 'e')
				k = k < 0 ? 0 : k > n - 1 ? n - 1 : k;
			else if (mode[0] == 'w')
				k = ((k % n) + n) % n;
			else if (n == 1)
				k = 0;
			else {
				int64_t per = 2 * (n - 1);
				k = ((k % per) + per) % per;
				k = k < n ? k : per - k;
			}
			idx[j] = k;
		}
		x = takeconst(im, x, idx, m, i);
		free(idx);
	}
	return x;
}

/* Pad(mode = constant; pads and value: attributes before 11, inputs from
** 11) -> nn.pad */
static int
pad(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	int64_t p[2 * MAXD];
	int n, r = rank(im, in[0]);
	double value = 0;
	char mode[32];
	NodeId v;
	AttrVal rows[MAXD], x = { .kind = AV_ARRAY };
	AttrId at;

	if (as(im, "mode", "constant", mode, sizeof mode))
		return -1;
	if (strcmp(mode, "constant") != 0 && strcmp(mode, "reflect") != 0 && strcmp(mode, "edge") != 0 &&
	    strcmp(mode, "wrap") != 0)
		return onnx_err(im, "mode '%s' is not constant, reflect, edge or wrap", mode);
	if (im->opset < 11) {
		if (aints(im, "pads", p, 2 * MAXD, &n) || af(im, "value", 0, &value))
			return -1;
		v = kscalar(im, dtype(im, in[0]), value);
	} else {
		if (nin < 2)
			return onnx_err(im, "input 'pads' is required from opset 11");
		if (cints(im, in, 1, "pads", p, 2 * MAXD, &n))
			return -1;
		if (nin > 3 && in[3]) {
			/* axes (opset 18): pads for those axes only */
			int64_t ax[MAXD], q[2 * MAXD] = { 0 };
			int na;
			if (cints(im, in, 3, "axes", ax, MAXD, &na))
				return -1;
			if (n != 2 * na)
				return onnx_err(im, "pads has %d values for %d axes", n, na);
			for (int i = 0; i < na; i++) {
				if (normax(im, &ax[i], r, "axis"))
					return -1;
				q[ax[i]] = p[i];
				q[ax[i] + r] = p[na + i];
			}
			memcpy(p, q, sizeof q);
			n = 2 * r;
		}
		if (nin > 2 && in[2]) {
			double pv;
			if (cscalar(im, in, 2, "value", &pv))
				return -1;
			v = kscalar(im, dtype(im, in[0]), pv);
		} else {
			v = kscalar(im, dtype(im, in[0]), 0);
		}
	}
	if (n != 2 * r)
		return onnx_err(im, "pads has %d values for rank %d", n, r);
	if (strcmp(mode, "constant") != 0)
		return (out[0] = padtake(im, in[0], p, mode)) ? 0 : -1;
	for (int i = 0; i < n; i++)
		if (p[i] < 0)
			return onnx_err(im, "negative pads are not supported in constant mode");
	for (int i = 0; i < r; i++) {
		int64_t pr[2] = { p[i], p[i + r] };
		rows[i] = intsval(im, pr, 2);
	}
	x.n = (uint32_t)r;
	x.first = ir_attr_array(im->m, rows, (uint32_t)r);
	at = ir_attr_defaults(im->m, OP_NN_PAD);
	im->m->attrs[at + slot(OP_NN_PAD, "pad_width")] = x;
	{
		NodeId args[2] = { in[0], v };
		return (out[0] = onnx_mk(im, OP_NN_PAD, args, 2, at)) ? 0 : -1;
	}
}

/* The reductions that ONNX composes: what is applied to each element
** first, and to each sum after. */
enum { RD_PLAIN, RD_L1, RD_L2, RD_LOGSUM, RD_LOGSUMEXP, RD_SUMSQUARE };

/* reduceby: ReduceMean, ReduceSum, ReduceMax, ReduceMin, ReduceProd ->
** op; ReduceL1, ReduceL2, ReduceLogSum, ReduceLogSumExp, ReduceSumSquare
** -> sum of |x|, x * x or exp(x), then sqrt or log (kind).  axes are an
** attribute before opset from, input 1 since; none (or an empty list) is
** all axes, or no reduction with noop_with_empty_axes (the elementwise
** parts still applied); keepdims (1) */
static int
reduceby(Imp *im, OpId op, int kind, int from, const NodeId *in, int nin, NodeId *out)
{
	int64_t ax[MAXD], keep, noop = 0;
	int n = -1, r = rank(im, in[0]);
	NodeId x = in[0];
	if (im->opset < from ? aints(im, "axes", ax, MAXD, &n)
	                     : (nin > 1 && in[1] && cints(im, in, 1, "axes", ax, MAXD, &n)))
		return -1;
	if (ai(im, "keepdims", 1, &keep) || (im->opset >= from && ai(im, "noop_with_empty_axes", 0, &noop)))
		return -1;
	for (int i = 0; i < n; i++)
		if (normax(im, &ax[i], r, "axis"))
			return -1;
	switch (kind) {
	case RD_L1: x = un(im, OP_ABS, x); break;
	case RD_L2: case RD_SUMSQUARE: x = mk2(im, OP_MULTIPLY, x, x); break;
	case RD_LOGSUMEXP: x = un(im, OP_EXP, x); break;
	default: break;
	}
	if (n > 0 || !noop)
		x = mkreduce(im, op, x, ax, n, (int)keep);
	switch (kind) {
	case RD_L2: x = un(im, OP_SQRT, x); break;
	case RD_LOGSUM: case RD_LOGSUMEXP: x = un(im, OP_LOG, x); break;
	default: break;
	}
	return (out[0] = x) ? 0 : -1;
}
static int reducemean(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return reduceby(im, OP_MEAN, RD_PLAIN, 18, in, nin, out); }
static int reducesum(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return reduceby(im, OP_SUM, RD_PLAIN, 13, in, nin, out); }
static int reducemax(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return reduceby(im, OP_MAX, RD_PLAIN, 18, in, nin, out); }
static int reducemin(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return reduceby(im, OP_MIN, RD_PLAIN, 18, in, nin, out); }
static int reduceprod(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return reduceby(im, OP_PROD, RD_PLAIN, 18, in, nin, out); }
static int reducel1(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return reduceby(im, OP_SUM, RD_L1, 18, in, nin, out); }
static int reducel2(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return reduceby(im, OP_SUM, RD_L2, 18, in, nin, out); }
static int reducelogsum(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return reduceby(im, OP_SUM, RD_LOGSUM, 18, in, nin, out); }
static int reducelogsumexp(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return reduceby(im, OP_SUM, RD_LOGSUMEXP, 18, in, nin, out); }
static int reducesumsquare(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return reduceby(im, OP_SUM, RD_SUMSQUARE, 18, in, nin, out); }

/* ArgMax, ArgMin(axis 0, keepdims 1, select_last_index 0) -> argmax or
** argmin (int32, as Relay's) cast to int64 */
static int
argby(Imp *im, OpId op, const NodeId *in, NodeId *out)
{
	int64_t axis, keep, last;
	AttrId at;
	NodeId a;
	if (ai(im, "axis", 0, &axis) || ai(im, "keepdims", 1, &keep) || ai(im, "select_last_index", 0, &last) ||
	    normax(im, &axis, rank(im, in[0]), "axis"))
		return -1;
	at = ir_attr_defaults(im->m, op);
	setints(im, op, at, "axis", &axis, 1);
	setb(im, op, at, "keepdims", (int)keep);
	setb(im, op, at, "select_last_index", (int)last);
	if (!(a = onnx_mk(im, op, in, 1, at)))
		return -1;
	at = ir_attr_defaults(im->m, OP_CAST);
	setdt(im, OP_CAST, at, "dtype", DT_INT64);
	return (out[0] = onnx_mk(im, OP_CAST, &a, 1, at)) ? 0 : -1;
}
static int argmax(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return argby(im, OP_ARGMAX, in, out); }
static int argmin(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return argby(im, OP_ARGMIN, in, out); }

/* ---------------------------------------------------------------- matrix products */

/* dense: a (M, K) times b (K, N) as op (nn.dense, qnn.dense: b is
** transposed to (N, K)) with the extra qnn operands q[0..nq) and out_dtype */
static NodeId
dense(Imp *im, OpId op, NodeId a, NodeId b, const NodeId *q, int nq, DType outdt)
{
	static const int64_t t10[2] = { 1, 0 };
	NodeId args[6];
	AttrId at;
	if (!(b = mktranspose(im, b, t10, 2)))
		return 0;
	args[0] = a;
	args[1] = b;
	for (int i = 0; i < nq; i++)
		args[2 + i] = q[i];
	at = ir_attr_defaults(im->m, op);
	seti(im, op, at, "units", onnx_dims(im, b)[0]);
	if (outdt != DT_VOID)
		setdt(im, op, at, "out_dtype", outdt);
	return onnx_mk(im, op, args, (uint32_t)(2 + nq), at);
}

/* matmul: ONNX MatMul semantics for op: b must be 2-D for qnn; a of rank
** > 2 is flattened to 2-D and back; both of rank 3 (or more, equal batch
** dims) go to nn.batch_matmul */
static NodeId
matmul(Imp *im, OpId op, NodeId a, NodeId b, const NodeId *q, int nq, DType outdt)
{
	int ra = rank(im, a), rb = rank(im, b);
	int64_t da[MAXD], db[MAXD], d[MAXD], k;

	/* copies: making nodes may move the module's dims */
	memcpy(da, onnx_dims(im, a), (size_t)ra * sizeof *da);
	memcpy(db, onnx_dims(im, b), (size_t)rb * sizeof *db);

	if (ra < 2 || rb < 2) {
		onnx_err(im, "graft takes matrices of rank 2 or more, not %d and %d", ra, rb);
		return 0;
	}
	if (rb == 2) {
		NodeId a2 = a, y;
		if (ra > 2) {
			int64_t d2[2] = { prod(im, a, 0, ra - 1), da[ra - 1] };
			if (!(a2 = mkreshape(im, a, d2, 2)))
				return 0;
		}
		if (!(y = dense(im, op, a2, b, q, nq, outdt)) || ra == 2)
			return y;
		memcpy(d, da, (size_t)(ra - 1) * sizeof *d);
		d[ra - 1] = db[1];
		return mkreshape(im, y, d, ra);
	}
	if (op != OP_NN_DENSE || ra != rb) {
		onnx_err(im, "graft takes a batched product of equal ranks and float operands only (%d and %d)", ra, rb);
		return 0;
	}
	for (int i = 0; i < ra - 2; i++)
		if (da[i] != db[i]) {
			onnx_err(im, "batch dims differ (%lld and %lld): broadcasting is not supported",
			         (long long)da[i], (long long)db[i]);
			return 0;
		}
	{
		int64_t bt = prod(im, a, 0, ra - 2);
		int64_t sa[3] = { bt, da[ra - 2], da[ra - 1] }, sb[3] = { bt, db[rb - 2], db[rb - 1] };
		NodeId a3 = ra == 3 ? a : mkreshape(im, a, sa, 3), b3 = ra == 3 ? b : mkreshape(im, b, sb, 3), y;
		AttrId at = ir_attr_defaults(im->m, OP_NN_BATCH_MATMUL);
		if (!a3 || !b3)
			return 0;
		setb(im, OP_NN_BATCH_MATMUL, at, "transpose_a", 0);
		setb(im, OP_NN_BATCH_MATMUL, at, "transpose_b", 0);
		{
			NodeId args[2] = { a3, b3 };
			if (!(y = onnx_mk(im, OP_NN_BATCH_MATMUL, args, 2, at)) || ra == 3)
				return y;
		}
		memcpy(d, da, (size_t)(ra - 1) * sizeof *d);
		k = db[rb - 1];
		d[ra - 1] = k;
		return mkreshape(im, y, d, ra);
	}
}

/* MatMul -> nn.dense / nn.batch_matmul */
static int
matmulf(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	return (out[0] = matmul(im, OP_NN_DENSE, in[0], in[1], NULL, 0, DT_VOID)) ? 0 : -1;
}

/* Gemm(alpha = 1, beta = 1, transA = 0, transB = 0): alpha A' B' + beta C
** -> nn.dense, multiply, add */
static int
gemm(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	static const int64_t t10[2] = { 1, 0 };
	double alpha, beta;
	int64_t ta, tb;
	NodeId a = in[0], b = in[1], y;
	AttrId at;

	if (af(im, "alpha", 1, &alpha) || af(im, "beta", 1, &beta) || ai(im, "transA", 0, &ta) ||
	    ai(im, "transB", 0, &tb))
		return -1;
	if (rank(im, a) != 2 || rank(im, b) != 2)
		return onnx_err(im, "A and B must be matrices");
	if (ta && !(a = mktranspose(im, a, t10, 2)))
		return -1;
	if (!tb && !(b = mktranspose(im, b, t10, 2)))
		return -1;
	at = ir_attr_defaults(im->m, OP_NN_DENSE);
	seti(im, OP_NN_DENSE, at, "units", onnx_dims(im, b)[0]);
	{
		NodeId args[2] = { a, b };
		if (!(y = onnx_mk(im, OP_NN_DENSE, args, 2, at)))
			return -1;
	}
	if (alpha != 1 && !(y = mk2(im, OP_MULTIPLY, y, kscalar(im, dtype(im, y), alpha))))
		return -1;
	if (nin > 2 && in[2] && beta != 0) {
		NodeId c = in[2];
		if (beta != 1 && !(c = mk2(im, OP_MULTIPLY, c, kscalar(im, dtype(im, c), beta))))
			return -1;
		y = mk2(im, OP_ADD, y, c);
	}
	return (out[0] = y) ? 0 : -1;
}

/* ---------------------------------------------------------------- quantized */

/* zp32: zero point z (0: absent, a zero scalar) as an int32 constant of
** its shape.  With computed set (QuantizeLinear, DequantizeLinear), a zero
** point that is not a constant (PyTorch's exporter writes
** Cast(ConstantOfShape(...)) for a bias's) is z itself when it is int32,
** else a cast of it to int32, for the rules to fold (qdq's fold_cast);
** without, it is an error.  0 after reporting */
static NodeId
zp32(Imp *im, NodeId z, int k, int computed)
{
	int64_t n;
	int32_t *v;
	NodeId c;
	if (!z)
		return kscalar(im, DT_INT32, 0);
	if (!isconst(im, z) && !computed) {
		onnx_needconst(im, z);
		onnx_err(im, "input %d ('%s', a zero point) must be a constant", k, im->nd->input[k]);
		return 0;
	}
	if (!isconst(im, z)) {
		AttrId at;
		if (dtype(im, z) == DT_INT32)
			return z;
		at = ir_attr_defaults(im->m, OP_CAST);
		setdt(im, OP_CAST, at, "dtype", DT_INT32);
		return onnx_mk(im, OP_CAST, &z, 1, at);
	}
	n = ir_type_numel(im->m, im->m->nodes[z].type);
	v = ir_xmalloc((size_t)n * 4 + 4);
	for (int64_t i = 0; i < n; i++)
		v[i] = (int32_t)elem(im, z, i);
	/* one value of rank 1 is a per-tensor zero point: a scalar */
	c = n == 1 && rank(im, z) == 1 ? kconst(im, DT_INT32, 0, NULL, v)
	                               : kconst(im, DT_INT32, rank(im, z), onnx_dims(im, z), v);
	free(v);
	return c;
}

/* zpscalar: zero point z, which must be one value repeated, as an int32
** scalar (qnn.conv2d and qnn.dense take one kernel zero point) */
static NodeId
zpscalar(Imp *im, NodeId z, int k)
{
	int64_t n;
	if (!z)
		return kscalar(im, DT_INT32, 0);
	if (!isconst(im, z)) {
		onnx_needconst(im, z);
		onnx_err(im, "input %d ('%s', a zero point) must be a constant", k, im->nd->input[k]);
		return 0;
	}
	n = ir_type_numel(im->m, im->m->nodes[z].type);
	for (int64_t i = 1; i < n; i++)
		if (elem(im, z, i) != elem(im, z, 0)) {
			onnx_err(im, "input %d ('%s'): graft takes one zero point for all channels", k, im->nd->input[k]);
			return 0;
		}
	return kscalar(im, DT_INT32, n ? elem(im, z, 0) : 0);
}

/* qaxis: the axis of quantization parameter s for x (-1 when s is one
** value), from the attribute axis (default 1); 0 or -1 */
static int
qaxis(Imp *im, NodeId x, NodeId s, int64_t *axis)
{
	if (ai(im, "axis", 1, axis))
		return -1;
	if (ir_type_numel(im->m, im->m->nodes[s].type) == 1 && rank(im, s) <= 1) {
		*axis = -1;
		return 0;
	}
	return normax(im, axis, rank(im, x), "axis");
}

/* QuantizeLinear(x, y_scale, y_zero_point = uint8 0) -> qnn.quantize,
** rounding halves to even */
static int
quantize(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	NodeId z = nin > 2 ? in[2] : 0, args[3];
	int64_t axis;
	AttrId at;
	if (qaxis(im, in[0], in[1], &axis) || !(args[2] = zp32(im, z, 2, 1)))
		return -1;
	args[0] = in[0];
	args[1] = in[1];
	/* PyTorch's exporter writes the outputs of qint8 layers as uint8 with
	   their zero point 0: counted to warn of the mix (onnx.c) */
	if (im->pytorch && im->depth == 0 && !isconst(im, in[0]) && z) {
		if (dtype(im, z) == DT_INT8)
			im->qs8++;
		else if (dtype(im, z) == DT_UINT8) {
			NodeId c = konst(im, z);
			im->qu8z0 += c && ir_type_numel(im->m, im->m->nodes[c].type) == 1 && elem(im, c, 0) == 0;
		}
	}
	at = ir_attr_defaults(im->m, OP_QNN_QUANTIZE);
	setdt(im, OP_QNN_QUANTIZE, at, "out_dtype", z ? dtype(im, z) : DT_UINT8);
	seti(im, OP_QNN_QUANTIZE, at, "axis", axis);
	sets(im, OP_QNN_QUANTIZE, at, "rounding", "HALF_TO_EVEN");
	return (out[0] = onnx_mk(im, OP_QNN_QUANTIZE, args, 3, at)) ? 0 : -1;
}

/* DequantizeLinear(x, x_scale, x_zero_point = 0) -> qnn.dequantize */
static int
dequantize(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	NodeId args[3];
	int64_t axis;
	AttrId at;
	if (qaxis(im, in[0], in[1], &axis) || !(args[2] = zp32(im, nin > 2 ? in[2] : 0, 2, 1)))
		return -1;
	/* PyTorch's exporter quantizes a bias as Cast(Div(b, scale), int32),
	   which truncates; with constant folding only that integer is left */
	if (im->pytorch && im->depth == 0 && isconst(im, in[0]) && dtype(im, in[0]) == DT_INT32)
		im->intbias++;
	args[0] = in[0];
	args[1] = in[1];
	at = ir_attr_defaults(im->m, OP_QNN_DEQUANTIZE);
	seti(im, OP_QNN_DEQUANTIZE, at, "axis", axis);
	return (out[0] = onnx_mk(im, OP_QNN_DEQUANTIZE, args, 3, at)) ? 0 : -1;
}

/* ONNX Runtime's QOperator ops (com.microsoft), as ORT defines them: the
** inputs dequantized, the float op, the result quantized (QuantizeLinear,
** halves to even, saturated).  The qdq ruleset brings these QDQ forms to
** QNN ops as it does PyTorch's. */

/* deq3: DequantizeLinear of in[k], in[k + 1], in[k + 2] */
static NodeId
deq3(Imp *im, const NodeId *in, int k)
{
	NodeId o;
	return dequantize(im, in + k, 3, &o, 1) == 0 ? o : 0;
}

/* quant: QuantizeLinear of x by scale s and zero point z */
static NodeId
quant(Imp *im, NodeId x, NodeId s, NodeId z)
{
	NodeId a[3] = { x, s, z }, o;
	return x && quantize(im, a, 3, &o, 1) == 0 ? o : 0;
}

/* QLinearAdd, QLinearMul(A, As, Az, B, Bs, Bz, Cs, Cz) */
static int
qlinearbin(Imp *im, OpId op, const NodeId *in, NodeId *out)
{
	return (out[0] = quant(im, mk2(im, op, deq3(im, in, 0), deq3(im, in, 3)), in[6], in[7])) ? 0 : -1;
}
static int qlinearadd(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return qlinearbin(im, OP_ADD, in, out); }
static int qlinearmul(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return qlinearbin(im, OP_MULTIPLY, in, out); }

/* QLinearSigmoid, QLinearLeakyRelu, QLinearSoftmax, QLinearAveragePool,
** QLinearGlobalAveragePool(X, Xs, Xz, Ys, Yz): the float op between */
static int
qlinearun(Imp *im, OpConv *f, const NodeId *in, NodeId *out)
{
	NodeId x = deq3(im, in, 0), y;
	if (!x || f(im, &x, 1, &y, 1) != 0)
		return -1;
	return (out[0] = quant(im, y, in[3], in[4])) ? 0 : -1;
}
static int qlinearsigmoid(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return qlinearun(im, sigm, in, out); }
static int qlinearleakyrelu(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return qlinearun(im, leakyrelu, in, out); }
static int qlinearsoftmax(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return qlinearun(im, softmax, in, out); }
static int qlinearavgpool(Imp *im, const NodeId *in, int nin, NodeId *out, int nout) { return qlinearun(im, avgpool, in, out); }
/* QLinearGlobalAveragePool(channels_last 0): the mean over the spatial
** dims, kept (channels last: dims 1 to rank - 2) */
static int
qgap(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	int64_t cl, ax[MAXD];
	int r = rank(im, in[0]), n = 0;
	NodeId x;
	if (ai(im, "channels_last", 0, &cl))
		return -1;
	for (int i = cl ? 1 : 2; i < (cl ? r - 1 : r); i++)
		ax[n++] = i;
	if (!(x = deq3(im, in, 0)) || n == 0)
		return n ? -1 : onnx_err(im, "the input has no spatial dims");
	return (out[0] = quant(im, mkreduce(im, OP_MEAN, x, ax, n, 1), in[3], in[4])) ? 0 : -1;
}

/* QLinearConcat(Ys, Yz, X0, X0s, X0z, ...; axis) */
static int
qlinearconcat(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	NodeId parts[ONNX_MAXIN], y;
	int n = 0;
	if ((nin - 2) % 3 || nin < 5)
		return onnx_err(im, "takes Y_scale, Y_zero_point and triples of X, its scale and zero point, not %d inputs",
		                nin);
	for (int k = 2; k < nin; k += 3)
		if (!(parts[n++] = deq3(im, in, k)))
			return -1;
	if (concat(im, parts, n, &y, 1) != 0)
		return -1;
	return (out[0] = quant(im, y, in[0], in[1])) ? 0 : -1;
}

/* QGemm(A, As, Az, B, Bs, Bz, C, Ys, Yz; alpha, transA, transB): Gemm of
** the dequantized A and B plus C (int32, of scale As * Bs), quantized
** when Ys is given, else float */
static int
qgemm(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	NodeId g[3] = { deq3(im, in, 0), deq3(im, in, 3), 0 }, y;
	if (!g[0] || !g[1])
		return -1;
	if (nin > 6 && in[6]) {
		NodeId s = mk2(im, OP_MULTIPLY, in[1], in[4]);
		g[2] = s ? mk2(im, OP_MULTIPLY, mkcast(im, in[6], DT_FLOAT32), s) : 0;
		if (!g[2])
			return -1;
	}
	if (gemm(im, g, g[2] ? 3 : 2, &y, 1) != 0)
		return -1;
	out[0] = nin > 7 && in[7] ? quant(im, y, in[7], nin > 8 ? in[8] : 0) : y;
	return out[0] ? 0 : -1;
}

/* The com.microsoft ops graft imports, sorted by name. */
static const OpEntry ms_ops[] = {
	{ "DequantizeLinear", 2, 3, 1, 1, dequantize },
	{ "QGemm", 6, 9, 1, 1, qgemm },
	{ "QLinearAdd", 8, 8, 1, 1, qlinearadd },
	{ "QLinearAveragePool", 5, 5, 1, 1, qlinearavgpool },
	{ "QLinearConcat", 5, ONNX_MAXIN, 1, 1, qlinearconcat },
	{ "QLinearGlobalAveragePool", 5, 5, 1, 1, qgap },
	{ "QLinearLeakyRelu", 5, 5, 1, 1, qlinearleakyrelu },
	{ "QLinearMul", 8, 8, 1, 1, qlinearmul },
	{ "QLinearSigmoid", 5, 5, 1, 1, qlinearsigmoid },
	{ "QLinearSoftmax", 5, 5, 1, 1, qlinearsoftmax },
	{ "QuantizeLinear", 2, 3, 1, 1, quantize },
};

/* scaleprod: the constant a_scale * b_scale (b perhaps per channel), a
** float32 scalar or vector; 0 after reporting */
static NodeId
scaleprod(Imp *im, const NodeId *in, int ka, int kb)
{
	NodeId a = in[ka], b = in[kb], c;
	int64_t n;
	float *v;
	if (!isconst(im, a) || !isconst(im, b) || ir_type_numel(im->m, im->m->nodes[a].type) != 1) {
		onnx_needconst(im, a);
		onnx_needconst(im, b);
		onnx_err(im, "inputs %d and %d (the scales) must be constants, the first a scalar", ka, kb);
		return 0;
	}
	n = ir_type_numel(im->m, im->m->nodes[b].type);
	v = ir_xmalloc((size_t)n * 4 + 4);
	for (int64_t i = 0; i < n; i++)
		v[i] = (float)(elem(im, a, 0) * elem(im, b, i));
	c = n == 1 ? kconst(im, DT_FLOAT32, 0, NULL, v) : kconst(im, DT_FLOAT32, 1, &n, v);
	free(v);
	return c;
}

/* scalarof: n as a scalar when it has one element and rank 1 (ONNX lets
** per-tensor parameters be [1]; graft's QNN ops take scalars): a
** constant's data, or a reshape of a value computed; else n itself */
static NodeId
scalarof(Imp *im, NodeId n)
{
	const Node *nd = &im->m->nodes[n];

	if (!n || rank(im, n) != 1 || ir_type_numel(im->m, nd->type) != 1)
		return n;
	if (nd->kind != NK_CONST || !ir_node_const(im->m, n)->data)
		return mkreshape(im, n, NULL, 0);
	return kconst(im, dtype(im, n), 0, NULL, ir_node_const(im->m, n)->data);
}

/* requant: qnn.requantize(y, s, 0, ys, yz) to yz's dtype along axis */
static NodeId
requant(Imp *im, NodeId y, NodeId s, NodeId ys, NodeId yzin, int kz, int axis)
{
	NodeId args[5] = { y, s, kscalar(im, DT_INT32, 0), scalarof(im, ys), zp32(im, yzin, kz, 0) };
	AttrId at;
	if (!y || !s || !args[4])
		return 0;
	at = ir_attr_defaults(im->m, OP_QNN_REQUANTIZE);
	seti(im, OP_QNN_REQUANTIZE, at, "axis", axis);
	setdt(im, OP_QNN_REQUANTIZE, at, "out_dtype", yzin ? dtype(im, yzin) : DT_UINT8);
	return onnx_mk(im, OP_QNN_REQUANTIZE, args, 5, at);
}

/* QLinearConv(x, xs, xz, w, ws, wz, ys, yz, B) -> qnn.conv2d (+
** nn.bias_add, int32) + qnn.requantize */
static int
qlinearconv(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	Win win;
	int64_t group;
	NodeId args[6], y, s;
	if (convwin(im, in[0], in[3], &win, &group))
		return -1;
	if (win.kd)
		return onnx_err(im, "graft takes 1-D and 2-D quantized convolutions, not 3-D");
	if (!(args[0] = to2d(im, in[0])) || !(args[1] = to2d(im, in[3])))
		return -1;
	if (!(args[2] = zpscalar(im, in[2], 2)) || !(args[3] = zpscalar(im, in[5], 5)))
		return -1;
	args[4] = in[1];
	args[5] = in[4];
	if (!(y = onnx_mk(im, OP_QNN_CONV2D, args, 6, convattrs(im, OP_QNN_CONV2D, args[1], &win, group, DT_INT32))))
		return -1;
	if (nin > 8 && in[8] && !(y = mk2(im, OP_NN_BIAS_ADD, y, in[8])))
		return -1;
	if (!(s = scaleprod(im, in, 1, 4)))
		return -1;
	return (out[0] = from2d(im, in[0], requant(im, y, s, in[6], in[7], 7, 1))) ? 0 : -1;
}

/* QLinearMatMul(a, as, az, b, bs, bz, ys, yz) -> qnn.dense (b transposed)
** + qnn.requantize */
static int
qlinearmatmul(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	NodeId q[4], y, s;
	if (rank(im, in[3]) != 2)
		return onnx_err(im, "graft takes a matrix b (rank 2), not rank %d", rank(im, in[3]));
	if (!(q[0] = zpscalar(im, in[2], 2)) || !(q[1] = zpscalar(im, in[5], 5)))
		return -1;
	q[2] = scalarof(im, in[1]);
	q[3] = scalarof(im, in[4]);
	/* the scales first: their product must be known (constants) */
	if (!(s = scaleprod(im, in, 1, 4)) || !(y = matmul(im, OP_QNN_DENSE, in[0], in[3], q, 4, DT_INT32)))
		return -1;
	return (out[0] = requant(im, y, s, in[6], in[7], 7, rank(im, y) - 1)) ? 0 : -1;
}

/* ConvInteger(x, w, xz, wz) -> qnn.conv2d to int32, scales 1 */
static int
convinteger(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	Win win;
	int64_t group;
	NodeId args[6];
	if (convwin(im, in[0], in[1], &win, &group))
		return -1;
	if (win.kd)
		return onnx_err(im, "graft takes 1-D and 2-D quantized convolutions, not 3-D");
	if (!(args[0] = to2d(im, in[0])) || !(args[1] = to2d(im, in[1])))
		return -1;
	if (!(args[2] = zpscalar(im, nin > 2 ? in[2] : 0, 2)) || !(args[3] = zpscalar(im, nin > 3 ? in[3] : 0, 3)))
		return -1;
	args[4] = kscalar(im, DT_FLOAT32, 1);
	args[5] = kscalar(im, DT_FLOAT32, 1);
	return (out[0] = from2d(im, in[0], onnx_mk(im, OP_QNN_CONV2D, args, 6,
	                         convattrs(im, OP_QNN_CONV2D, args[1], &win, group, DT_INT32)))) ? 0 : -1;
}

/* MatMulInteger(a, b, az, bz) -> qnn.dense to int32, scales 1 */
static int
matmulinteger(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	NodeId q[4];
	if (rank(im, in[1]) != 2)
		return onnx_err(im, "graft takes a matrix b (rank 2), not rank %d", rank(im, in[1]));
	if (!(q[0] = zpscalar(im, nin > 2 ? in[2] : 0, 2)) || !(q[1] = zpscalar(im, nin > 3 ? in[3] : 0, 3)))
		return -1;
	q[2] = kscalar(im, DT_FLOAT32, 1);
	q[3] = kscalar(im, DT_FLOAT32, 1);
	return (out[0] = matmul(im, OP_QNN_DENSE, in[0], in[1], q, 4, DT_INT32)) ? 0 : -1;
}

/* ---------------------------------------------------------------- the ops of scalar.def */

/* scalarconv: the op of ir/scalar.def whose row names this node's
** operator: its input the operand, the attributes its schema shares with
** the node by name (ONNX's defaults are the schema's) */
static int
scalarconv(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	const ScalarDef *sd = NULL;
	const OpInfo *oi;
	AttrId at;
	char buf[256];

	(void)nin;
	(void)nout;
	for (uint32_t i = 0; i < ir_nscalars && !sd; i++)
		if (ir_scalars[i].onnx && strcmp(ir_scalars[i].onnx, im->nd->op_type) == 0)
			sd = &ir_scalars[i];
	if (!sd)
		ir_die("onnx: no row of scalar.def imports %s", im->nd->op_type);
	oi = &ir_ops[sd->op];
	at = ir_attr_defaults(im->m, sd->op);
	for (int k = 0; k < oi->nattrs; k++) {
		const char *f = oi->attrs[k].name;
		double d;
		int64_t v;
		if (!attr(im, f))
			continue;
		switch (AT_TYPE(oi->attrs[k].type) & ~AT_OPT) {
		case AT_FLOAT:
			if (af(im, f, 0, &d))
				return -1;
			setf(im, sd->op, at, f, d);
			break;
		case AT_INT: case AT_BOOL:
			if (ai(im, f, 0, &v))
				return -1;
			seti(im, sd->op, at, f, v);
			break;
		case AT_STR:
			if (as(im, f, "", buf, sizeof buf))
				return -1;
			sets(im, sd->op, at, f, buf);
			break;
		default:
			ir_die("onnx: scalar.def's %s has an attribute of a kind it does not import", oi->name);
		}
	}
	if (!ir_scalar_of(im->m, sd->op, at))
		return onnx_err(im, "graft's %s takes none of these attribute values", oi->name);
	return (out[0] = onnx_mk(im, sd->op, in, 1, at)) ? 0 : -1;
}

/* The ONNX operators of scalar.def, in its order (a row without one has a
** NULL name); looked up after the table below, which must not name them
** too (a row that names an operator takes its converter's place) */
static const OpEntry sc_ops[] = {
#define SCALAR(id, ints, when, onnx, expr) { onnx, 1, 1, 1, 1, scalarconv },
#include "scalar.def"
#undef SCALAR
};

/* ---------------------------------------------------------------- table */

/* ORDER by name (strcmp): onnx_op_find searches it by halves */
const OpEntry onnx_ops[] = {
	{ "Add", 2, 2, 1, 1, add },
	{ "And", 2, 2, 1, 1, andop },
	{ "ArgMax", 1, 1, 1, 1, argmax },
	{ "ArgMin", 1, 1, 1, 1, argmin },
	{ "AveragePool", 1, 1, 1, 1, avgpool },
	{ "BatchNormalization", 5, 5, 1, 5, batchnorm },
	{ "BitShift", 2, 2, 1, 1, bitshift },
	{ "BitwiseAnd", 2, 2, 1, 1, bitand_ },
	{ "BitwiseNot", 1, 1, 1, 1, bitnot_ },
	{ "BitwiseOr", 2, 2, 1, 1, bitor_ },
	{ "BitwiseXor", 2, 2, 1, 1, bitxor_ },
	{ "BlackmanWindow", 1, 1, 1, 1, window_ },
	{ "Cast", 1, 1, 1, 1, cast },
	{ "CastLike", 2, 2, 1, 1, castlike },
	{ "Celu", 1, 1, 1, 1, celu },
	{ "CenterCropPad", 2, 2, 1, 1, centercroppad },
	{ "Clip", 1, 3, 1, 1, clip },
	{ "Compress", 2, 2, 1, 1, compress },
	{ "Concat", 1, ONNX_MAXIN, 1, 1, concat },
	{ "Constant", 0, 0, 1, 1, constant },
	{ "ConstantOfShape", 1, 1, 1, 1, constantofshape },
	{ "Conv", 2, 3, 1, 1, conv },
	{ "ConvInteger", 2, 4, 1, 1, convinteger },
	{ "ConvTranspose", 2, 3, 1, 1, convtranspose },
	{ "CumSum", 2, 2, 1, 1, cumsumop },
	{ "DFT", 1, 3, 1, 1, dft },
	{ "DepthToSpace", 1, 1, 1, 1, depthtospace },
	{ "DequantizeLinear", 2, 3, 1, 1, dequantize },
	{ "Det", 1, 1, 1, 1, det },
	{ "Div", 2, 2, 1, 1, dvd },
	{ "Dropout", 1, 3, 1, 2, dropout },
	{ "DynamicQuantizeLinear", 1, 1, 1, 3, dynquant },
	{ "Einsum", 1, ONNX_MAXIN, 1, 1, einsumop },
	{ "Elu", 1, 1, 1, 1, elu },
	{ "Equal", 2, 2, 1, 1, equal },
	{ "Expand", 2, 2, 1, 1, expand },
	{ "EyeLike", 1, 1, 1, 1, eyelike },
	{ "Flatten", 1, 1, 1, 1, flatten },
	{ "GRU", 3, 6, 0, 2, gruop },
	{ "Gather", 2, 2, 1, 1, gatherop },
	{ "GatherElements", 2, 2, 1, 1, gatherelements },
	{ "GatherND", 2, 2, 1, 1, gathernd },
	{ "Gemm", 2, 3, 1, 1, gemm },
	{ "GlobalAveragePool", 1, 1, 1, 1, gap },
	{ "GlobalMaxPool", 1, 1, 1, 1, globalmaxpool },
	{ "Greater", 2, 2, 1, 1, greater },
	{ "GreaterOrEqual", 2, 2, 1, 1, greatereq },
	{ "GridSample", 2, 2, 1, 1, gridsample },
	{ "GroupNormalization", 3, 3, 1, 1, groupnorm },
	{ "HammingWindow", 1, 1, 1, 1, window_ },
	{ "HannWindow", 1, 1, 1, 1, window_ },
	{ "Hardmax", 1, 1, 1, 1, hardmax },
	{ "Identity", 1, 1, 1, 1, identity },
	{ "If", 1, 1, 1, ONNX_MAXIN, ifop },
	{ "InstanceNormalization", 3, 3, 1, 1, instancenorm },
	{ "IsInf", 1, 1, 1, 1, isinf_ },
	{ "IsNaN", 1, 1, 1, 1, isnan_ },
	{ "LRN", 1, 1, 1, 1, lrn },
	{ "LSTM", 3, 8, 0, 3, lstmop },
	{ "LayerNormalization", 2, 3, 1, 3, layernorm },
	{ "LeakyRelu", 1, 1, 1, 1, leakyrelu },
	{ "Less", 2, 2, 1, 1, less },
	{ "LessOrEqual", 2, 2, 1, 1, lesseq },
	{ "LogSoftmax", 1, 1, 1, 1, logsoftmax },
	{ "Loop", 1, ONNX_MAXIN, 1, ONNX_MAXIN, loop },
	{ "LpNormalization", 1, 1, 1, 1, lpnorm },
	{ "MatMul", 2, 2, 1, 1, matmulf },
	{ "MatMulInteger", 2, 4, 1, 1, matmulinteger },
	{ "Max", 1, ONNX_MAXIN, 1, 1, maxop },
	{ "MaxPool", 1, 1, 1, 1, maxpool },
	{ "MaxUnpool", 2, 3, 1, 1, maxunpool },
	{ "Mean", 1, ONNX_MAXIN, 1, 1, meanop },
	{ "MeanVarianceNormalization", 1, 1, 1, 1, mvn },
	{ "MelWeightMatrix", 5, 5, 1, 1, melweight },
	{ "Min", 1, ONNX_MAXIN, 1, 1, minop },
	{ "Mish", 1, 1, 1, 1, mish },
	{ "Mod", 2, 2, 1, 1, modop },
	{ "Mul", 2, 2, 1, 1, mul },
	{ "NegativeLogLikelihoodLoss", 2, 3, 1, 1, nllloss },
	{ "NonMaxSuppression", 2, 5, 1, 1, nms },
	{ "NonZero", 1, 1, 1, 1, nonzero },
	{ "Not", 1, 1, 1, 1, notop },
	{ "OneHot", 3, 3, 1, 1, onehot },
	{ "Or", 2, 2, 1, 1, orop },
	{ "PRelu", 2, 2, 1, 1, prelu },
	{ "Pad", 1, 4, 1, 1, pad },
	{ "Pow", 2, 2, 1, 1, pow_ },
	{ "QLinearConv", 8, 9, 1, 1, qlinearconv },
	{ "QLinearMatMul", 8, 8, 1, 1, qlinearmatmul },
	{ "QuantizeLinear", 2, 3, 1, 1, quantize },
	{ "RNN", 3, 6, 0, 2, rnnop },
	{ "Range", 3, 3, 1, 1, range },
	{ "Reciprocal", 1, 1, 1, 1, reciprocal },
	{ "ReduceL1", 1, 2, 1, 1, reducel1 },
	{ "ReduceL2", 1, 2, 1, 1, reducel2 },
	{ "ReduceLogSum", 1, 2, 1, 1, reducelogsum },
	{ "ReduceLogSumExp", 1, 2, 1, 1, reducelogsumexp },
	{ "ReduceMax", 1, 2, 1, 1, reducemax },
	{ "ReduceMean", 1, 2, 1, 1, reducemean },
	{ "ReduceMin", 1, 2, 1, 1, reducemin },
	{ "ReduceProd", 1, 2, 1, 1, reduceprod },
	{ "ReduceSum", 1, 2, 1, 1, reducesum },
	{ "ReduceSumSquare", 1, 2, 1, 1, reducesumsquare },
	{ "Relu", 1, 1, 1, 1, relu },
	{ "Reshape", 2, 2, 1, 1, reshape },
	{ "Resize", 1, 4, 1, 1, resize },
	{ "ReverseSequence", 2, 2, 1, 1, reversesequence },
	{ "STFT", 2, 4, 1, 1, stft },
	{ "Scan", 1, ONNX_MAXIN, 1, ONNX_MAXIN, scan },
	{ "Scatter", 3, 3, 1, 1, scatterelements },
	{ "ScatterElements", 3, 3, 1, 1, scatterelements },
	{ "ScatterND", 3, 3, 1, 1, scatternd },
	{ "Selu", 1, 1, 1, 1, selu },
	{ "Shape", 1, 1, 1, 1, shape },
	{ "Shrink", 1, 1, 1, 1, shrink },
	{ "Size", 1, 1, 1, 1, size },
	{ "Slice", 1, 5, 1, 1, slice },
	{ "Softmax", 1, 1, 1, 1, softmax },
	{ "SoftmaxCrossEntropyLoss", 2, 3, 1, 2, sceloss },
	{ "Softplus", 1, 1, 1, 1, softplus },
	{ "Softsign", 1, 1, 1, 1, softsign },
	{ "SpaceToDepth", 1, 1, 1, 1, spacetodepth },
	{ "Split", 1, 2, 1, ONNX_MAXIN, split },
	{ "Squeeze", 1, 2, 1, 1, squeeze },
	{ "Sub", 2, 2, 1, 1, sub },
	{ "Sum", 1, ONNX_MAXIN, 1, 1, sumop },
	{ "ThresholdedRelu", 1, 1, 1, 1, thresholdedrelu },
	{ "Tile", 2, 2, 1, 1, tile },
	{ "TopK", 1, 2, 1, 2, topk },
	{ "Transpose", 1, 1, 1, 1, transpose },
	{ "Trilu", 1, 2, 1, 1, trilu },
	{ "Unique", 1, 1, 1, 4, unique },
	{ "Unsqueeze", 1, 2, 1, 1, unsqueeze },
	{ "Upsample", 1, 2, 1, 1, resize },
	{ "Where", 3, 3, 1, 1, whereop },
	{ "Xor", 2, 2, 1, 1, xorop },
};
const int onnx_nops = (int)(sizeof onnx_ops / sizeof onnx_ops[0]);

static int
cmpop(const void *key, const void *e)
{
	return strcmp((const char *)key, ((const OpEntry *)e)->name);
}

/* sc_find: the first entry of sc_ops for ONNX operator name, or NULL */
static const OpEntry *
sc_find(const char *name)
{
	for (size_t i = 0; name && i < sizeof sc_ops / sizeof *sc_ops; i++)
		if (sc_ops[i].name && strcmp(sc_ops[i].name, name) == 0)
			return &sc_ops[i];
	return NULL;
}

/* onnx_op_lookup: see onnxi.h */
const OpEntry *
onnx_op_lookup(const char *domain, const char *name)
{
	if (!domain || !*domain || strcmp(domain, "ai.onnx") == 0)
		return onnx_op_find(name);
	if (strcmp(domain, "com.microsoft") == 0 && name)
		return bsearch(name, ms_ops, sizeof ms_ops / sizeof *ms_ops, sizeof *ms_ops, cmpop);
	return NULL;
}

/* onnx_op_index, onnx_op_at: see onnxi.h */
int
onnx_op_index(const OpEntry *e)
{
	int nms = (int)(sizeof ms_ops / sizeof *ms_ops);

	if (e >= onnx_ops && e < onnx_ops + onnx_nops)
		return (int)(e - onnx_ops);
	if (e >= sc_ops && e < sc_ops + sizeof sc_ops / sizeof *sc_ops)
		return onnx_nops + nms + (int)(e - sc_ops);
	return onnx_nops + (int)(e - ms_ops);
}
const OpEntry *
onnx_op_at(int i)
{
	int nms = (int)(sizeof ms_ops / sizeof *ms_ops);

	return i < onnx_nops ? &onnx_ops[i] : i < onnx_nops + nms ? &ms_ops[i - onnx_nops] : &sc_ops[i - onnx_nops - nms];
}
const int onnx_nops_all = (int)(sizeof onnx_ops / sizeof onnx_ops[0] + sizeof ms_ops / sizeof *ms_ops +
                                sizeof sc_ops / sizeof *sc_ops);

/* onnx_op_after: see onnxi.h */
int
onnx_op_after(int a, int b)
{
	int nms = (int)(sizeof ms_ops / sizeof *ms_ops);
	int ma = a >= onnx_nops && a < onnx_nops + nms, mb = b >= onnx_nops && b < onnx_nops + nms, c;

	if (ma != mb)
		return ma;
	c = strcmp(onnx_op_at(a)->name, onnx_op_at(b)->name);
	return c > 0 || (c == 0 && a > b);
}

/* onnx_op_find: see onnxi.h */
const OpEntry *
onnx_op_find(const char *name)
{
	const OpEntry *e = name ? bsearch(name, onnx_ops, (size_t)onnx_nops, sizeof *onnx_ops, cmpop) : NULL;

	return e ? e : sc_find(name);
}
