/*
** cops.c: one loop nest per op for the C emitter (cgen.c).
**
** Each emitter reads its operands' Leaves and the call's attributes, and
** appends C lines that fill the result's buffer.  Shapes, strides,
** quantization parameters and fixed-point multipliers are worked out here
** and baked into the code as constants; what needs a table (per-channel
** parameters, rearranged weights) becomes a static const array.  The
** integer semantics are those of ref/ops.c's header (TVM's lowering on
** LLVM), computed with unsigned arithmetic where TVM's would wrap, so that
** the generated code has no undefined behaviour; integer division by zero
** returns 1 from the entry point, an index out of range (take's "fast",
** gather) 2.  float16 data are their bits (uint16_t) and compute in float
** as the reference does (see "float16" below).
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cgen.h"

#define MAXD IR_MAXDIMS

/* ---------------------------------------------------------------- helpers */

static int
isflt(DType dt)
{
	return ir_dtype_kind[dt] == 'f';
}

static const AttrVal *
attr(Gen *g, Inst *i, const char *name)
{
	int k = ir_op_attr_index(g->m->nodes[i->node].op, name, strlen(name));
	return k < 0 ? NULL : &ir_attrs(g->m, i->node)[k];
}

static int64_t
aint(Gen *g, Inst *i, const char *name, int64_t dflt)
{
	const AttrVal *a = attr(g, i, name);
	return a && (a->kind == AV_INT || a->kind == AV_BOOL || a->kind == AV_DTYPE) ? a->u.i : dflt;
}

static const char *
astr(Gen *g, Inst *i, const char *name)
{
	const AttrVal *a = attr(g, i, name);
	return a && a->kind == AV_STR ? ir_symstr(g->m, a->u.s) : "";
}

/* aints: the integers of an array attribute; -1 if it is None or absent */
static int
aints(Gen *g, Inst *i, const char *name, int64_t *out, int max)
{
	const AttrVal *a = attr(g, i, name);
	int n = 0;

	if (!a || a->kind != AV_ARRAY)
		return a && a->kind == AV_INT ? (out[0] = a->u.i, 1) : -1;
	for (uint32_t k = 0; k < a->n && n < max; k++) {
		const AttrVal *e = &g->m->attrs[a->first + k];
		if (e->kind == AV_INT)
			out[n++] = e->u.i;
		else if (e->kind == AV_ARRAY)   /* [[a, b], ...]: flattened */
			for (uint32_t j = 0; j < e->n && n < max; j++)
				out[n++] = g->m->attrs[e->first + j].u.i;
	}
	return n;
}

static int
refuse(Gen *g, Inst *i, const char *why)
{
	const Node *n = &g->m->nodes[i->node];
	ir_error(g->d, g->m->locs[i->node], "the c backend cannot run %s %s", ir_ops[n->op].name, why);
	return 0;
}

static void
strides(const Leaf *l, int64_t *st)
{
	int64_t s = 1;
	for (int k = l->rank - 1; k >= 0; k--) {
		st[k] = s;
		s *= l->dims[k];
	}
}

/* inner: the element count after axis ax of l; outer: before it */
static int64_t
inner(const Leaf *l, int ax)
{
	int64_t n = 1;
	for (int k = ax + 1; k < l->rank; k++)
		n *= l->dims[k];
	return n;
}

static int64_t
outer(const Leaf *l, int ax)
{
	int64_t n = 1;
	for (int k = 0; k < ax; k++)
		n *= l->dims[k];
	return n;
}

/* idxexpr: "i0 * 12 + i2" for the loop variables i0.. with strides st (0 if none) */
static void
idxexpr(int rank, const int64_t *st, int64_t base, char *buf)
{
	int n = 0;

	buf[0] = 0;
	if (base)
		n += sprintf(buf + n, "%lld", (long long)base);
	for (int k = 0; k < rank; k++) {
		if (!st[k])
			continue;
		if (st[k] == 1)
			n += sprintf(buf + n, "%si%d", n ? " + " : "", k);
		else
			n += sprintf(buf + n, "%si%d * %lld", n ? " + " : "", k, (long long)st[k]);
	}
	if (!n)
		strcpy(buf, "0");
}

/* loops: opens a loop per dim (i0, i1, ...); returns the count to close */
static int
loops(Gen *g, Fn *f, int rank, const int64_t *dims)
{
	for (int k = 0; k < rank; k++)
		cg_open(g, f, "for (int64_t i%d = 0; i%d < %lld; i%d++) {", k, k, (long long)dims[k], k);
	return rank;
}

static void
closen(Fn *f, int n)
{
	while (n-- > 0)
		cg_close(f);
}

/* bcast: the strides of l broadcast to o's shape (0 along broadcast dims) */
static void
bcast(const Leaf *l, const Leaf *o, int64_t *st)
{
	int64_t own[MAXD];

	strides(l, own);
	for (int k = 0; k < o->rank; k++) {
		int j = k - (o->rank - l->rank);
		st[k] = j < 0 || l->dims[j] == 1 ? 0 : own[j];
	}
}

/* Elementwise nests: the index expression of each operand, as one flat
** loop over i when every operand is o's shape or a single value, else one
** loop per dim. */
typedef struct Ew {
	char oi[256];
	char ix[3][256];
	int open;
} Ew;

static void
ewopen(Gen *g, Fn *f, const Leaf *o, const Leaf *const *in, int nin, Ew *e)
{
	int flat = 1;
	int64_t ost[MAXD] = { 0 }, st[3][MAXD];

	for (int k = 0; k < nin; k++)
		if (in[k]->n != 1 && (in[k]->n != o->n || in[k]->rank != o->rank))
			flat = 0;
	if (flat) {
		cg_open(g, f, "for (int64_t i = 0; i < %lld; i++) {", (long long)o->n);
		strcpy(e->oi, "i");
		for (int k = 0; k < nin; k++)
			strcpy(e->ix[k], in[k]->n == 1 && o->n != 1 ? "0" : "i");
		e->open = 1;
		return;
	}
	strides(o, ost);
	idxexpr(o->rank, ost, 0, e->oi);
	for (int k = 0; k < nin; k++) {
		bcast(in[k], o, st[k]);
		idxexpr(o->rank, st[k], 0, e->ix[k]);
	}
	e->open = loops(g, f, o->rank, o->dims);
}

/* ---------------------------------------------------------------- float16 */

/* An op on float16 reads each element widened to float (graft_h2f,
** exact), computes in float and stores its result rounded once to half
** (graft_f2h: to nearest even, every NaN 0x7e00), as the reference
** stores a float16 result; a result computed in double is rounded once
** too (graft_d2h).  Sums and products round to half at each step
** (graft_hr), as the reference's do.  Copies move the bits.  The
** functions are in the generated file (cgen.c's helper_f16).  For the
** other dtypes rd(), wr() and hr() give their expression unchanged. */

/* the size of the expression buffers of rd(), wr(), hr() and elem() */
enum { XB = 1024 };

/* xf: printf into buf, of XB bytes; an expression that does not fit is
** an internal error (never truncated into wrong code) */
static const char *xf(char *buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static const char *
xf(char *buf, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, XB, fmt, ap);
	va_end(ap);
	if (n < 0 || n >= XB)
		ir_die("cops: an expression of more than %d bytes", XB - 1);
	return buf;
}

/* cty: the C type an op on dt computes in */
static const char *
cty(DType dt)
{
	return dt == DT_FLOAT16 ? "float" : cg_ctype(dt);
}

/* fsuf: the suffix of the C library's functions in cty(dt) ("f" or "") */
static const char *
fsuf(DType dt)
{
	return dt == DT_FLOAT64 ? "" : "f";
}

/* wrap: fn(x) into buf, with the float16 functions flagged as used */
static const char *
wrap(Gen *g, const char *fn, const char *x, char *buf)
{
	g->helpers |= H_F16;
	return xf(buf, "%s(%s)", fn, x);
}

/* rd: element expression x of dtype dt as a value of cty(dt) */
static const char *
rd(Gen *g, DType dt, const char *x, char *buf)
{
	return dt == DT_FLOAT16 ? wrap(g, "graft_h2f", x, buf) : x;
}

/* wr: value v of cty(dt) (a double with dbl) stored as an element of dt */
static const char *
wr(Gen *g, DType dt, int dbl, const char *v, char *buf)
{
	return dt == DT_FLOAT16 ? wrap(g, dbl ? "graft_d2h" : "graft_f2h", v, buf) : v;
}

/* hr: value v of cty(dt) after one step of a sum or product in dt */
static const char *
hr(Gen *g, DType dt, const char *v, char *buf)
{
	return dt == DT_FLOAT16 ? wrap(g, "graft_hr", v, buf) : v;
}

/* elem: element ix of array name, of dtype dt, as a value of cty(dt) */
static const char *
elem(Gen *g, DType dt, const char *name, const char *ix, char *buf)
{
	if (dt != DT_FLOAT16)
		return xf(buf, "%s[%s]", name, ix);
	g->helpers |= H_F16;
	return xf(buf, "graft_h2f(%s[%s])", name, ix);
}

/* ---------------------------------------------------------------- requantization */

/* A Q31 fixed-point multiplier (ref_fixed()) and the shifts graft_fpm takes. */
typedef struct Fx {
	int32_t mul;
	int ls, total;
} Fx;

static int
fixed(double d, Fx *f)
{
	RefFixed b;

	if (!ref_fixed(d, &b))
		return 0;
	f->mul = b.mul;
	f->ls = b.shift > 0 ? b.shift : 0;
	f->total = (b.shift > 0 ? 0 : -b.shift) + 31;
	return f->total <= 63 && f->ls <= 62;
}

/* Requantization of one value: dst = requantize(src) by TVM's integer
** algorithm; mul NULL skips the multiply (equal scales). */
typedef struct Rq {
	const char *iz, *mul, *ls, *total;  /* C expressions */
	int nearest;
	int64_t oz;
	DType out;          /* clipped to its range unless int32 */
} Rq;

static void
rqline(Gen *g, Fn *f, const char *dst, const char *src, DType srcdt, const Rq *r)
{
	if (ir_dtype_bytes[srcdt] < 4)
		cg_line(g, f, "int32_t v = (int32_t)%s - %s;", src, r->iz);
	else
		cg_line(g, f, "int32_t v = (int32_t)((int64_t)%s - %s);", src, r->iz);
	if (r->mul) {
		g->helpers |= H_FPM;
		cg_line(g, f, "int64_t w = (int64_t)graft_fpm(v, %s, %s, %s, %d) + %lld;", r->mul, r->ls, r->total,
		        r->nearest, (long long)r->oz);
	} else {
		cg_line(g, f, "int64_t w = (int64_t)v + %lld;", (long long)r->oz);
	}
	if (r->out == DT_INT32)
		cg_line(g, f, "%s = (int32_t)w;", dst);
	else
		cg_line(g, f, "%s = (%s)(w < %lld ? %lld : w > %lld ? %lld : w);", dst, cg_ctype(r->out),
		        (long long)ir_dtype_min(r->out), (long long)ir_dtype_min(r->out), (long long)ir_dtype_max(r->out), (long long)ir_dtype_max(r->out));
}

/* rqscalar: a per-tensor Rq from in_scale, in_zp to out_scale, out_zp,
** rounding UPWARD (the requantize inside qnn.add, mul, concatenate) */
static int
rqscalar(Gen *g, Inst *i, double is, int64_t iz, double os, int64_t oz, DType out, Rq *r, char bufs[4][64])
{
	Fx fx;

	memset(r, 0, sizeof *r);
	sprintf(bufs[0], "%lld", (long long)iz);
	r->iz = bufs[0];
	r->oz = oz;
	r->out = out;
	if ((float)is != (float)os) {
		if (!fixed((double)(float)is / (double)(float)os, &fx))
			return refuse(g, i, "with this ratio of scales");
		sprintf(bufs[1], "%d", (int)fx.mul);
		sprintf(bufs[2], "%d", fx.ls);
		sprintf(bufs[3], "%d", fx.total);
		r->mul = bufs[1];
		r->ls = bufs[2];
		r->total = bufs[3];
	}
	return 1;
}

/* kscalar: the float and int scalars of operands of i; 0 if not constant */
static int
kf(Gen *g, Fn *f, Inst *i, uint32_t arg, double *v)
{
	if (!cg_kflt(g, f, i, arg, 0, v))
		return refuse(g, i, "with quantization parameters that are not constants");
	*v = (float)*v;
	return 1;
}

static int
ki(Gen *g, Fn *f, Inst *i, uint32_t arg, int64_t *v)
{
	if (!cg_kint(g, f, i, arg, 0, v))
		return refuse(g, i, "with quantization parameters that are not constants");
	return 1;
}

/* ---------------------------------------------------------------- elementwise */

/* bitwise: bitwise_and, bitwise_or, bitwise_xor, bitwise_not (of bool,
** logical not), left_shift, right_shift (arithmetic for signed dtypes,
** without relying on C's implementation-defined >> of a negative value);
** a shift amount outside [0, bits) gives 0, or -1 for a negative value
** shifted right (the reference's) */
static int
bitwise(Gen *g, Fn *f, Inst *i, OpId op)
{
	int two = op != OP_BITWISE_NOT;
	const Leaf *a = cg_leaf(f, i, 0), *b = two ? cg_leaf(f, i, 1) : NULL, *o = cg_out(f, i);
	const Leaf *in[2] = { a, b };
	const char *t = cg_ctype(o->dt);
	int bits = ir_dtype_bytes[o->dt] * 8, sgn = ir_dtype_kind[o->dt] == 'i';
	char na[64], nb[64] = "", no[64];
	Ew e;

	cg_name(g, f, a, na);
	if (two)
		cg_name(g, f, b, nb);
	cg_name(g, f, o, no);
	ewopen(g, f, o, in, two ? 2 : 1, &e);
	if (op == OP_BITWISE_NOT)
		cg_line(g, f, o->dt == DT_BOOL ? "%s[%s] = (%s)!%s[%s];" : "%s[%s] = (%s)~%s[%s];", no, e.oi, t, na, e.ix[0]);
	else if (op == OP_LEFT_SHIFT || op == OP_RIGHT_SHIFT) {
		cg_line(g, f, "%s x = %s[%s], y = %s[%s];", t, na, e.ix[0], nb, e.ix[1]);
		if (op == OP_LEFT_SHIFT)
			cg_line(g, f, "%s[%s] = (uint64_t)y < %d ? (%s)((uint64_t)x << y) : 0;", no, e.oi, bits, t);
		else if (sgn)
			cg_line(g, f, "%s[%s] = (%s)((uint64_t)y < %d ? (x < 0 ? ~(~x >> y) : x >> y) : (x < 0 ? -1 : 0));", no,
			        e.oi, t, bits);
		else
			cg_line(g, f, "%s[%s] = (uint64_t)y < %d ? (%s)(x >> y) : 0;", no, e.oi, bits, t);
	} else
		cg_line(g, f, "%s[%s] = (%s)(%s[%s] %s %s[%s]);", no, e.oi, t, na, e.ix[0],
		        op == OP_BITWISE_AND ? "&" : op == OP_BITWISE_OR ? "|" : "^", nb, e.ix[1]);
	closen(f, e.open);
	return 1;
}

/* broadcastto: broadcast_to, each element read through broadcast strides */
static int
broadcastto(Gen *g, Fn *f, Inst *i)
{
	const Leaf *a = cg_leaf(f, i, 0), *o = cg_out(f, i);
	const Leaf *in[1] = { a };
	char na[64], no[64];
	Ew e;

	cg_name(g, f, a, na);
	cg_name(g, f, o, no);
	ewopen(g, f, o, in, 1, &e);
	cg_line(g, f, "%s[%s] = %s[%s];", no, e.oi, na, e.ix[0]);
	closen(f, e.open);
	return 1;
}

/* compare: the comparisons, logical_and and logical_or with broadcasting;
** bool results (C's comparisons: a NaN is unequal to everything) */
static int
compare(Gen *g, Fn *f, Inst *i, OpId op)
{
	const Leaf *a = cg_leaf(f, i, 0), *b = cg_leaf(f, i, 1), *o = cg_out(f, i);
	const Leaf *in[2] = { a, b };
	const char *sym = op == OP_EQUAL ? "==" : op == OP_NOT_EQUAL ? "!=" : op == OP_LESS ? "<" :
	                  op == OP_LESS_EQUAL ? "<=" : op == OP_GREATER ? ">" : op == OP_GREATER_EQUAL ? ">=" :
	                  op == OP_LOGICAL_AND ? "&&" : "||";
	char na[64], nb[64], no[64], x[XB], y[XB];
	Ew e;

	cg_name(g, f, a, na);
	cg_name(g, f, b, nb);
	cg_name(g, f, o, no);
	ewopen(g, f, o, in, 2, &e);
	cg_line(g, f, "%s[%s] = (uint8_t)(%s %s %s);", no, e.oi, elem(g, (DType)a->dt, na, e.ix[0], x), sym,
	        elem(g, (DType)b->dt, nb, e.ix[1], y));
	closen(f, e.open);
	return 1;
}

/* where: condition ? x : y with the three broadcast together (a float16
** condition by its value; x and y copied as bits) */
static int
where(Gen *g, Fn *f, Inst *i)
{
	const Leaf *c = cg_leaf(f, i, 0), *x = cg_leaf(f, i, 1), *y = cg_leaf(f, i, 2), *o = cg_out(f, i);
	const Leaf *in[3] = { c, x, y };
	char nc[64], nx[64], ny[64], no[64], v[XB];
	Ew e;

	cg_name(g, f, c, nc);
	cg_name(g, f, x, nx);
	cg_name(g, f, y, ny);
	cg_name(g, f, o, no);
	ewopen(g, f, o, in, 3, &e);
	cg_line(g, f, "%s[%s] = %s ? %s[%s] : %s[%s];", no, e.oi, elem(g, (DType)c->dt, nc, e.ix[0], v), nx, e.ix[1],
	        ny, e.ix[2]);
	closen(f, e.open);
	return 1;
}

/* take, gather: the elements of data that indices name, read as
** ref_index_plan says; an index out of range (take's "fast", gather)
** returns 2 from the entry point */
static int
take(Gen *g, Fn *f, Inst *i)
{
	const Leaf *x = cg_leaf(f, i, 0), *ix = cg_leaf(f, i, 1), *o = cg_out(f, i);
	RefIndex p;
	int64_t ost[MAXD], n1;
	char nx[64], ni[64], no[64], oe[256], ie[256], de[256];
	int open;

	if (!ref_index_plan(g->m, g->m->nodes[i->node].op, ir_attrs(g->m, i->node), x->dims, x->rank, ix->dims,
	                    ix->rank, &p) || p.rank != o->rank)
		return refuse(g, i, "on these operands");
	if (o->n && p.n == 0)
		return refuse(g, i, "from an empty axis");
	n1 = p.n - 1;
	cg_name(g, f, x, nx);
	cg_name(g, f, ix, ni);
	cg_name(g, f, o, no);
	strides(o, ost);
	idxexpr(o->rank, ost, 0, oe);
	idxexpr(o->rank, p.ist, 0, ie);
	idxexpr(o->rank, p.dst, 0, de);
	open = loops(g, f, o->rank, o->dims);
	cg_line(g, f, "int64_t j = (int64_t)%s[%s];", ni, ie);
	switch (p.mode) {
	case REF_IX_CLIP:
		cg_line(g, f, "j = j < 0 ? 0 : j > %lld ? %lld : j;", (long long)n1, (long long)n1);
		break;
	case REF_IX_WRAP:
		cg_line(g, f, "j = (j %% %lld + %lld) %% %lld;", (long long)p.n, (long long)p.n, (long long)p.n);
		break;
	case REF_IX_NEG:
		cg_line(g, f, "if (j < 0)");
		cg_line(g, f, "\tj += %lld;", (long long)p.n);
		/* fallthrough */
	default:
		cg_line(g, f, "if (j < 0 || j > %lld)", (long long)n1);
		cg_line(g, f, "\treturn 2;");
		break;
	}
	cg_line(g, f, "%s[%s] = %s[%s + j * %lld];", no, oe, nx, de, (long long)p.astride);
	closen(f, open);
	return 1;
}

/* classify: isnan, isinf, isfinite (an integer is finite) */
static int
classify(Gen *g, Fn *f, Inst *i, OpId op)
{
	const Leaf *a = cg_leaf(f, i, 0), *o = cg_out(f, i);
	const Leaf *in[1] = { a };
	const char *fn = op == OP_ISNAN ? "isnan" : op == OP_ISINF ? "isinf" : "isfinite";
	char na[64], no[64], x[XB];
	Ew e;

	cg_name(g, f, a, na);
	cg_name(g, f, o, no);
	ewopen(g, f, o, in, 1, &e);
	if (isflt(a->dt))
		cg_line(g, f, "%s[%s] = (uint8_t)(%s(%s) != 0);", no, e.oi, fn, elem(g, (DType)a->dt, na, e.ix[0], x));
	else
		cg_line(g, f, "%s[%s] = %d;", no, e.oi, op == OP_ISFINITE);
	closen(f, e.open);
	return 1;
}

/* f2iexpr: float x converted to integer dtype to, truncating, saturated,
** NaN -> 0 (graft_f2i; the reference's run mode) */
static void
f2iexpr(Gen *g, DType to, const char *x, char *buf)
{
	int64_t l = ir_dtype_min(to), h = ir_dtype_max(to);
	char ls[32], hs[32];

	g->helpers |= H_F2I;
	/* INT64_MIN has no literal of its own */
	if (l == INT64_MIN)
		strcpy(ls, "(-9223372036854775807LL - 1)");
	else
		sprintf(ls, "%lldLL", (long long)l);
	sprintf(hs, "%lldLL", (long long)h);
	sprintf(buf, "(%s)graft_f2i(%s, %.1f, %.1f, %s, %s)", cg_ctype(to), x, (double)l - 1.0, (double)h + 1.0, ls, hs);
}

/* convexpr: x (of dtype from) converted to dtype to as TVM's cast; from
** float16 widened to float, to float16 by way of a float (a double
** rounded once), as the reference converts them */
static void
convexpr(Gen *g, DType from, DType to, const char *x, char *buf)
{
	char v[XB], w[XB], u[XB];

	if (from == DT_FLOAT16) {
		x = rd(g, from, x, v);
		from = DT_FLOAT32;
	}
	if (to == DT_FLOAT16 && from != DT_FLOAT32 && from != DT_FLOAT64) {
		xf(w, "(float)%s", x);
		x = w;
	}
	if (to == DT_BOOL)
		sprintf(buf, "(uint8_t)(%s != 0)", x);
	else if (isflt(from) && !isflt(to))
		f2iexpr(g, to, x, buf);
	else if (to == DT_FLOAT16)
		strcpy(buf, wr(g, to, from == DT_FLOAT64, x, u));
	else
		sprintf(buf, "(%s)%s", cg_ctype(to), x);
}

/* scanline: the outer, axis and inner extents of cumsum or cumprod over a
** (axis None: the flattened data) */
static void
scanline(Gen *g, Inst *i, const Leaf *a, int64_t *outer, int64_t *len, int64_t *inner)
{
	const AttrVal *av = attr(g, i, "axis");
	int64_t axis = av && av->kind == AV_INT ? av->u.i : -1;

	*outer = *inner = 1;
	*len = a->n;
	if (!av || av->kind != AV_INT)
		return;
	if (axis < 0)
		axis += a->rank;
	*len = a->dims[axis];
	for (int k = 0; k < axis; k++)
		*outer *= a->dims[k];
	for (int k = (int)axis + 1; k < a->rank; k++)
		*inner *= a->dims[k];
}

/* scan: cumsum and cumprod as the reference: each element cast to the
** result's dtype, accumulated in order along the axis, integers wrapping
** (unsigned arithmetic), floats rounded at each step */
static int
scan(Gen *g, Fn *f, Inst *i, OpId op)
{
	const Leaf *a = cg_leaf(f, i, 0), *o = cg_out(f, i);
	const char *t = cty(o->dt), *u = ir_dtype_bytes[o->dt] == 8 ? "uint64_t" : "uint32_t";
	const char *sym = op == OP_CUMPROD ? "*" : "+";
	DType dt = (DType)o->dt;
	int64_t outer, len, inner;
	char na[64], no[64], x[128], cv[XB], cx[XB], sb[XB], v[XB];
	const char *step = sb;

	if (o->dt == DT_BOOL)
		return refuse(g, i, "into bool");
	scanline(g, i, a, &outer, &len, &inner);
	cg_name(g, f, a, na);
	cg_name(g, f, o, no);
	snprintf(x, sizeof x, "%s[at]", na);
	convexpr(g, (DType)a->dt, dt, x, cx);
	if (isflt(o->dt)) {
		xf(v, "acc %s x", sym);
		step = hr(g, dt, v, sb);
	} else {
		xf(sb, "(%s)((%s)acc %s (%s)x)", t, u, sym, u);
	}
	cg_open(g, f, "for (int64_t p = 0; p < %lld; p++) {", (long long)(outer * inner));
	cg_line(g, f, "%s acc = %d;", t, op == OP_CUMPROD);
	cg_open(g, f, "for (int64_t k = 0; k < %lld; k++) {", (long long)len);
	cg_line(g, f, "int64_t at = p / %lld * %lld + p %% %lld + k * %lld;", (long long)inner, (long long)(len * inner),
	        (long long)inner, (long long)inner);
	cg_line(g, f, "%s x = %s;", t, rd(g, dt, cx, cv));
	if (aint(g, i, "exclusive", 0)) {
		cg_line(g, f, "%s[at] = %s;", no, wr(g, dt, 0, "acc", v));
		cg_line(g, f, "acc = %s;", step);
	} else {
		cg_line(g, f, "acc = k ? %s : x;", step);
		cg_line(g, f, "%s[at] = %s;", no, wr(g, dt, 0, "acc", v));
	}
	closen(f, 2);
	return 1;
}

/* hround: d rounded to float16 and widened back, as the reference rounds
** a constant that meets float16 data */
static double
hround(double d)
{
	return ir_f32_from_f16(ref_f16(d));
}

/* flit: constant v as a literal of cty(dt), rounded to dt first */
static const char *
flit(double v, DType dt, char *buf)
{
	return cg_lit(dt == DT_FLOAT16 ? hround(v) : dt == DT_FLOAT32 ? (float)v : v,
	              dt == DT_FLOAT16 ? DT_FLOAT32 : dt, buf);
}

/* ---------------------------------------------------------------- scalar.def */

/* Precedences of the C printed for a row's expression. */
enum { PR_SEL, PR_CMP, PR_ADD, PR_MUL, PR_NEG, PR_PRIM };

/* The printing of one row's expression: the operands' values, the
** constants' dtype, the op's attributes, and the temporaries taken. */
typedef struct Sx {
	Gen *g;
	Fn *f;
	const char *x, *y;      /* the operands' values, in cty(dt) */
	DType dt;
	const AttrVal *attrs;
	int ntmp;
} Sx;

static int sxprint(Sx *s, const ScalarExpr *e, int prec, char *buf);

/* sxleaf: whether e prints without an operator (an operand of MIN, MAX or
** ISNAN that is not is computed once into a temporary, as it appears
** twice) */
static int
sxleaf(const ScalarExpr *e)
{
	return e->kind == SX_X || e->kind == SX_Y || e->kind == SX_K || e->kind == SX_P;
}

/* sxonce: e into buf, as itself when a leaf (a negative constant without
** parentheses: it is an operand of ?: or of a comparison), else as a
** temporary declared by a line of its own */
static void
sxonce(Sx *s, const ScalarExpr *e, char *buf)
{
	char ex[XB];

	if (sxleaf(e)) {
		sxprint(s, e, PR_NEG, buf);
		return;
	}
	sxprint(s, e, PR_SEL, ex);
	cg_line(s->g, s->f, "%s sx%d = %s;", cty(s->dt), s->ntmp, ex);
	sprintf(buf, "sx%d", s->ntmp++);
}

/* sxprint: expression e as C into buf (XB bytes), parenthesized where the
** context's precedence prec binds tighter than e; returns e's own */
static int
sxprint(Sx *s, const ScalarExpr *e, int prec, char *buf)
{
	char l[XB], r[XB], c[XB];
	int own = PR_PRIM;
	const char *op;

	switch (e->kind) {
	case SX_X: xf(buf, "%s", s->x); return PR_PRIM;
	case SX_Y: xf(buf, "%s", s->y); return PR_PRIM;
	case SX_K: flit(e->k, s->dt, buf); own = buf[0] == '-' ? PR_NEG : PR_PRIM; break;
	case SX_P: {
		const AttrVal *v = &s->attrs[e->p];
		flit(v->kind == AV_INT ? (double)v->u.i : v->u.f, s->dt, buf);
		own = buf[0] == '-' ? PR_NEG : PR_PRIM;
		break;
	}
	case SX_NEG:
		sxprint(s, e->a, PR_NEG, l);
		xf(buf, l[0] == '-' ? "-(%s)" : "-%s", l);
		own = PR_NEG;
		break;
	case SX_FN:
		sxprint(s, e->a, PR_SEL, l);
		xf(buf, "%s%s(%s)", e->fn, fsuf(s->dt), l);
		return PR_PRIM;
	case SX_FN2:
		sxprint(s, e->a, PR_SEL, l);
		sxprint(s, e->b, PR_SEL, r);
		xf(buf, "%s%s(%s, %s)", e->fn, fsuf(s->dt), l, r);
		return PR_PRIM;
	case SX_RND:
		if (s->dt != DT_FLOAT16)
			return sxprint(s, e->a, prec, buf);
		sxprint(s, e->a, PR_SEL, l);
		hr(s->g, s->dt, l, buf);
		return PR_PRIM;
	case SX_ISNAN:
		sxonce(s, e->a, l);
		xf(buf, "%s != %s", l, l);
		own = PR_CMP;
		break;
	case SX_MIN: case SX_MAX:
		sxonce(s, e->a, l);
		sxonce(s, e->b, r);
		xf(buf, "%s %s %s ? %s : %s", l, e->kind == SX_MIN ? "<" : ">", r, l, r);
		own = PR_SEL;
		break;
	case SX_SEL:
		sxprint(s, e->a, PR_CMP, c);
		sxprint(s, e->b, PR_CMP, l);
		sxprint(s, e->c, PR_SEL, r);
		xf(buf, "%s ? %s : %s", c, l, r);
		own = PR_SEL;
		break;
	default:
		switch (e->kind) {
		case SX_ADD: op = "+"; own = PR_ADD; break;
		case SX_SUB: op = "-"; own = PR_ADD; break;
		case SX_MUL: op = "*"; own = PR_MUL; break;
		case SX_DIV: op = "/"; own = PR_MUL; break;
		case SX_GT: op = ">"; own = PR_CMP; break;
		default: op = "<"; own = PR_CMP; break;
		}
		/* left to right: the right operand binds tighter */
		sxprint(s, e->a, own, l);
		sxprint(s, e->b, own + 1, r);
		xf(buf, "%s %s %s", l, op, r);
		break;
	}
	if (own < prec) {
		xf(c, "(%s)", buf);
		strcpy(buf, c);
	}
	return own;
}

/* sxuses: how many times e's printing reads operand k (SX_X or SX_Y): as
** an operand of MIN, MAX or ISNAN, twice (sxonce) */
static int
sxuses(const ScalarExpr *e, int k)
{
	int twice;

	if (!e)
		return 0;
	twice = e->kind == SX_MIN || e->kind == SX_MAX || e->kind == SX_ISNAN;
	return (e->kind == k) + sxuses(e->a, k) * (twice && e->a->kind == k ? 2 : 1) +
	       sxuses(e->b, k) * (twice && e->b && e->b->kind == k ? 2 : 1) + sxuses(e->c, k);
}

/* sxints: what row sd's ints column makes of integer operands x (and y)
** of dtype t, as C into ex, after the lines it needs; lo, hi clip's
** bounds */
static void
sxints(Gen *g, Fn *f, const ScalarDef *sd, DType dt, const char *x, const char *y, const char *lo, const char *hi,
       char *ex)
{
	const char *t = cty(dt), *u = ir_dtype_bytes[dt] == 8 ? "uint64_t" : "uint32_t";
	int sgn = ir_dtype_kind[dt] == 'i';

	switch (sd->ints) {
	case SI_NEG: case SI_ABS:
		cg_line(g, f, "%s v = %s;", t, x);
		xf(ex, "%s(%s)(0 - (uint64_t)v)", sd->ints == SI_ABS ? "v >= 0 ? v : " : "", t);
		break;
	case SI_SIGN:
		cg_line(g, f, "%s v = %s;", t, x);
		xf(ex, "(%s)(v > 0 ? 1 : v < 0 ? -1 : 0)", t);
		break;
	case SI_RELU:
		cg_line(g, f, "%s v = %s;", t, x);
		strcpy(ex, "v > 0 ? v : 0");
		break;
	case SI_CLIP:
		cg_line(g, f, "%s v = %s;", t, x);
		cg_line(g, f, "v = v < %s ? v : %s;", hi, hi);
		xf(ex, "v > %s ? v : %s", lo, lo);
		break;
	case SI_ADD: case SI_SUB: case SI_MUL:
		xf(ex, "(%s)((%s)%s %s (%s)%s)", t, u, x, sd->ints == SI_ADD ? "+" : sd->ints == SI_SUB ? "-" : "*", u, y);
		break;
	case SI_MAX: case SI_MIN:
		cg_line(g, f, "%s x = %s, y = %s;", t, x, y);
		xf(ex, "x %s y ? x : y", sd->ints == SI_MAX ? ">" : "<");
		break;
	case SI_POW:
		/* the operands read as int64, as the reference reads them */
		g->helpers |= H_IPOW;
		xf(ex, "(%s)graft_ipow((int64_t)%s, (int64_t)%s)", t, x, y);
		break;
	case SI_DIV:
		cg_line(g, f, "%s x = %s, y = %s;", t, x, y);
		if (sgn)
			cg_line(g, f, "if (y == 0 || (x == %s%lld && y == -1))", dt == DT_INT64 ? "-9223372036854775807 - " : "",
			        dt == DT_INT64 ? 1LL : (long long)ir_dtype_min(dt));
		else
			cg_line(g, f, "if (y == 0)");
		cg_line(g, f, "\treturn 1;");
		xf(ex, "(%s)(x / y)", t);
		break;
	case SI_MOD: case SI_FLOOR_MOD:
		/* C's %, MIN % -1 taken as 0; floor_mod adds the divisor to a
		   remainder whose sign is not the divisor's */
		cg_line(g, f, "%s x = %s, y = %s, r;", t, x, y);
		cg_line(g, f, "if (y == 0)");
		cg_line(g, f, "\treturn 1;");
		if (sgn)
			cg_line(g, f, "r = y == -1 ? 0 : (%s)(x %% y);", t);
		else
			cg_line(g, f, "r = (%s)(x %% y);", t);
		if (sd->ints == SI_FLOOR_MOD && sgn) {
			cg_line(g, f, "if (r != 0 && (r < 0) != (y < 0))");
			cg_line(g, f, "\tr = (%s)(r + y);", t);
		}
		strcpy(ex, "r");
		break;
	default:    /* SI_SAME */
		strcpy(ex, x);
		break;
	}
}

/* cbound: clip's bound b for integer dtype dt: truncated toward zero, as
** tir.const does, and saturated to dt */
static void
cbound(double b, DType dt, char *buf)
{
	double t = isnan(b) ? 0 : trunc(b);

	t = t < (double)ir_dtype_min(dt) ? (double)ir_dtype_min(dt) : t > (double)ir_dtype_max(dt) ? (double)ir_dtype_max(dt) : t;
	sprintf(buf, "%lld", (long long)t);
}

/* scalar: an op of ir/scalar.def, of one operand or two broadcast to its
** result, its row printed as C: in float (float16's arithmetic too,
** rounded to half once) or double; on integers its ints column */
static int
scalar(Gen *g, Fn *f, Inst *i, OpId op)
{
	int two = ir_ops[op].nargs == 2;
	const Leaf *a = cg_leaf(f, i, 0), *b = two ? cg_leaf(f, i, 1) : NULL, *o = cg_out(f, i);
	const Leaf *in[2] = { a, b };
	NodeId n = i->node;
	const ScalarDef *sd = ir_scalar_of(g->m, op, g->m->nodes[n].aux);
	DType dt = (DType)o->dt;
	const char *t = cty(dt), *why = ir_op_accepts(op, (DType)a->dt);
	char na[64], nb[64], no[64], x[400], y[400], xb[XB], yb[XB], ex[XB], vb[XB], lo[32] = "", hi[32] = "";
	Sx s = { g, f, NULL, NULL, dt, ir_attrs(g->m, n), 0 };
	Ew e;

	if (why)
		return refuse(g, i, why);
	if (!sd)
		return refuse(g, i, "with these attributes (no row of scalar.def takes them)");
	cg_name(g, f, a, na);
	if (two)
		cg_name(g, f, b, nb);
	cg_name(g, f, o, no);
	if (sd->ints == SI_CLIP && !isflt(dt)) {
		cbound(s.attrs[0].kind == AV_INT ? (double)s.attrs[0].u.i : s.attrs[0].u.f, dt, lo);
		cbound(s.attrs[1].kind == AV_INT ? (double)s.attrs[1].u.i : s.attrs[1].u.f, dt, hi);
	}
	ewopen(g, f, o, in, 1 + two, &e);
	snprintf(x, sizeof x, "%s[%s]", na, e.ix[0]);
	if (two)
		snprintf(y, sizeof y, "%s[%s]", nb, e.ix[1]);
	if (!isflt(dt)) {
		sxints(g, f, sd, dt, x, y, lo, hi, ex);
	} else {
		s.x = rd(g, (DType)a->dt, x, xb);
		s.y = two ? rd(g, (DType)b->dt, y, yb) : NULL;
		if (!two && sxuses(sd->expr, SX_X) > 1) {
			cg_line(g, f, "%s v = %s;", t, s.x);
			s.x = "v";
		} else if (two && (sxuses(sd->expr, SX_X) > 1 || sxuses(sd->expr, SX_Y) > 1)) {
			cg_line(g, f, "%s x = %s, y = %s;", t, s.x, s.y);
			s.x = "x";
			s.y = "y";
		}
		sxprint(&s, sd->expr, PR_SEL, ex);
	}
	cg_line(g, f, "%s[%s] = %s;", no, e.oi, wr(g, dt, 0, ex, vb));
	closen(f, e.open);
	return 1;
}

/* unary: cast and logical_not (the ops of scalar.def are scalar()'s) */
static int
unary(Gen *g, Fn *f, Inst *i, OpId op)
{
	const Leaf *a = cg_leaf(f, i, 0), *o = cg_out(f, i);
	const Leaf *in[1] = { a };
	DType dt = (DType)o->dt;
	char na[64], no[64], x[400], ex[XB];
	Ew e;

	cg_name(g, f, a, na);
	cg_name(g, f, o, no);
	ewopen(g, f, o, in, 1, &e);
	snprintf(x, sizeof x, "%s[%s]", na, e.ix[0]);
	if (op == OP_CAST)
		convexpr(g, (DType)a->dt, dt, x, ex);
	else
		xf(ex, "!%s", x);
	cg_line(g, f, "%s[%s] = %s;", no, e.oi, ex);
	closen(f, e.open);
	return 1;
}

/* axis3: opens loops i0 over the elements before axis, c along it and i2
** after it, for a per-channel op; returns the index expression */
static void
axis3(Gen *g, Fn *f, const Leaf *l, int ax, char *ix)
{
	int64_t in = inner(l, ax);

	cg_open(g, f, "for (int64_t i0 = 0; i0 < %lld; i0++) {", (long long)outer(l, ax));
	cg_open(g, f, "for (int64_t c = 0; c < %lld; c++) {", (long long)l->dims[ax]);
	cg_open(g, f, "for (int64_t i2 = 0; i2 < %lld; i2++) {", (long long)in);
	sprintf(ix, "(i0 * %lld + c) * %lld + i2", (long long)l->dims[ax], (long long)in);
}

/* elemloop: opens the loops over o's elements: per channel along ax
** (axis3) when pc, else one flat loop i; ix gets the index expression;
** returns how many loops closen() closes */
static int
elemloop(Gen *g, Fn *f, const Leaf *o, int pc, int ax, char *ix)
{
	if (pc) {
		axis3(g, f, o, ax, ix);
		return 3;
	}
	cg_open(g, f, "for (int64_t i = 0; i < %lld; i++) {", (long long)o->n);
	strcpy(ix, "i");
	return 1;
}

static int
biasadd(Gen *g, Fn *f, Inst *i)
{
	const Leaf *x = cg_leaf(f, i, 0), *b = cg_leaf(f, i, 1), *o = cg_out(f, i);
	int64_t ax = aint(g, i, "axis", 1);
	char nx[64], nb[64], no[64], ix[256], xv[XB], bv[XB], v[XB], w[XB];

	if (ax < 0)
		ax += x->rank;
	cg_name(g, f, x, nx);
	cg_name(g, f, b, nb);
	cg_name(g, f, o, no);
	axis3(g, f, o, (int)ax, ix);
	if (isflt(o->dt)) {
		xf(v, "%s + %s", elem(g, (DType)x->dt, nx, ix, xv), elem(g, (DType)b->dt, nb, "c", bv));
		cg_line(g, f, "%s[%s] = %s;", no, ix, wr(g, (DType)o->dt, 0, v, w));
	} else {
		const char *u = ir_dtype_bytes[o->dt] == 8 ? "uint64_t" : "uint32_t";
		cg_line(g, f, "%s[%s] = (%s)((%s)%s[%s] + (%s)%s[c]);", no, ix, cg_ctype(o->dt), u, nx, ix, u, nb);
	}
	closen(f, 3);
	return 1;
}

/* ---------------------------------------------------------------- quantization */

/* qaxis: the channel axis of a per-channel qnn op, and whether operands
** a, b are per tensor (one value) */
static int
perchan(Gen *g, Fn *f, Inst *i, uint32_t arg)
{
	(void)g;
	return cg_leaf(f, i, arg)->n > 1;
}

/* param: a C expression for parameter operand arg along channel c: a
** literal, or an array k3[c] of its values as dtype dt */
static const char *
param(Gen *g, Fn *f, Inst *i, uint32_t arg, DType dt, int64_t nch, char *buf)
{
	const Leaf *l = cg_leaf(f, i, arg);
	double v;

	if (l->n <= 1) {
		if (!cg_kflt(g, f, i, arg, 0, &v))
			return NULL;
		return cg_lit(dt == DT_FLOAT32 ? (float)v : v, dt, buf);
	}
	if (!cg_kflt(g, f, i, arg, 0, &v))
		return NULL;
	{
		char nb[64];
		void *data = ir_xmalloc((size_t)nch * ir_dtype_bytes[dt]);
		for (int64_t c = 0; c < nch; c++) {
			cg_kflt(g, f, i, arg, c, &v);
			if (dt == DT_FLOAT32)
				((float *)data)[c] = (float)v;
			else
				((int32_t *)data)[c] = (int32_t)v;
		}
		cg_carray(g, dt, nch, data, "a quantization parameter per channel", nb);
		sprintf(buf, "%s[c]", nb);
	}
	return buf;
}

static int
quantize(Gen *g, Fn *f, Inst *i)
{
	const Leaf *x = cg_leaf(f, i, 0), *o = cg_out(f, i);
	int64_t ax = aint(g, i, "axis", -1);
	int pc = perchan(g, f, i, 1) || perchan(g, f, i, 2);
	char nx[64], no[64], ix[256], sb[64], zb[64], qlo[64], qhi[64];
	int nloops;
	const char *s, *z;

	if (x->dt != DT_FLOAT32 || isflt(o->dt) || ir_dtype_bytes[o->dt] > 4)
		return refuse(g, i, "from or to these dtypes");
	if (ax < 0)
		ax += x->rank;
	if (pc && (ax < 0 || ax >= x->rank))
		return refuse(g, i, "with this axis");
	if (!(s = param(g, f, i, 1, DT_FLOAT32, pc ? x->dims[ax] : 1, sb)) ||
	    !(z = param(g, f, i, 2, DT_FLOAT32, pc ? x->dims[ax] : 1, zb)))
		return refuse(g, i, "with quantization parameters that are not constants");
	cg_lit((float)ir_dtype_min(o->dt), DT_FLOAT32, qlo);
	cg_lit((float)ir_dtype_max(o->dt), DT_FLOAT32, qhi);
	cg_name(g, f, x, nx);
	cg_name(g, f, o, no);
	nloops = elemloop(g, f, o, pc, (int)ax, ix);
	if (strcmp(astr(g, i, "rounding"), "HALF_TO_EVEN") == 0) {
		/* ONNX's QuantizeLinear: x / scale rounded half to even, the zero
		   point added to that integer (exactly, in double), saturated */
		cg_line(g, f, "float v = %s[%s] / %s, r = roundf(v);", nx, ix, s);
		cg_open(g, f, "if (fabsf(v - truncf(v)) == 0.5f) {");
		cg_line(g, f, "r = 2.0f * roundf(v * 0.5f);");
		closen(f, 1);
		cg_line(g, f, "double t = (double)r + (double)%s;", z);
		cg_line(g, f, "%s[%s] = (%s)(!(t < %s) ? %s : !(t > %s) ? %s : t);", no, ix, cg_ctype(o->dt), qhi, qhi,
		        qlo, qlo);
		closen(f, nloops);
		return 1;
	}
	/* round(x / scale) + zp, all in float32; llvm.round: halves away from zero */
	cg_line(g, f, "float v = roundf(%s[%s] / %s) + %s;", nx, ix, s, z);
	cg_line(g, f, "v = v < %s ? v : %s;", qhi, qhi);
	cg_line(g, f, "v = v > %s ? v : %s;", qlo, qlo);
	if (o->dt == DT_INT32 || o->dt == DT_UINT32) {
		char ex[200];
		f2iexpr(g, (DType)o->dt, "v", ex);
		cg_line(g, f, "%s[%s] = %s;", no, ix, ex);
	} else {
		cg_line(g, f, "%s[%s] = (%s)v;", no, ix, cg_ctype(o->dt));
	}
	closen(f, nloops);
	return 1;
}

static int
dequantize(Gen *g, Fn *f, Inst *i)
{
	const Leaf *x = cg_leaf(f, i, 0), *o = cg_out(f, i);
	int64_t ax = aint(g, i, "axis", -1);
	int pc = perchan(g, f, i, 1) || perchan(g, f, i, 2);
	char nx[64], no[64], ix[256], sb[64], zb[64], dst[320];
	int nloops;
	const char *s, *z;

	if (isflt(x->dt) || ir_dtype_bytes[x->dt] > 4 || (o->dt != DT_FLOAT32 && o->dt != DT_FLOAT16))
		return refuse(g, i, "from or to these dtypes");
	if (ax < 0)
		ax += x->rank;
	if (pc && (ax < 0 || ax >= x->rank))
		return refuse(g, i, "with this axis");
	if (!(s = param(g, f, i, 1, DT_FLOAT32, pc ? x->dims[ax] : 1, sb)) ||
	    !(z = param(g, f, i, 2, DT_INT32, pc ? x->dims[ax] : 1, zb)))
		return refuse(g, i, "with quantization parameters that are not constants");
	cg_name(g, f, x, nx);
	cg_name(g, f, o, no);
	nloops = elemloop(g, f, o, pc, (int)ax, ix);
	if (o->dt == DT_FLOAT16)
		strcpy(dst, "float v");
	else
		snprintf(dst, sizeof dst, "%s[%s]", no, ix);
	if (ir_dtype_bytes[x->dt] < 4 && !pc)
		cg_line(g, f, "%s = (float)(%s[%s] - %s) * %s;", dst, nx, ix, z, s);
	else
		cg_line(g, f, "%s = (float)(int32_t)((int64_t)%s[%s] - %s) * %s;", dst, nx, ix, z, s);
	if (o->dt == DT_FLOAT16) {
		/* clipped to +-65504 (NaN to 65504), as the reference clips it */
		g->helpers |= H_F16;
		cg_line(g, f, "v = v < 65504.0f ? v : 65504.0f;");
		cg_line(g, f, "%s[%s] = graft_f2h(v > -65504.0f ? v : -65504.0f);", no, ix);
	}
	closen(f, nloops);
	return 1;
}

/* f32mul: QNNPACK's float32 multiplier fl(s * fl(1 / os)) (ref's) */
static float
f32mul(float s, float os)
{
	volatile float inv = 1.0f / os, m = s * inv;

	return m;
}

/* f32line: dst = requantize(src) in QNNPACK's float32 (rounding
** "HALF_TO_EVEN", compute_dtype "float32"): fl(fl(src - iz) * m) rounded
** half to even, plus oz in double, saturated to out */
static void
f32line(Gen *g, Fn *f, const char *dst, const char *src, DType srcdt, const char *iz, const char *m, int64_t oz,
        DType out)
{
	if (ir_dtype_bytes[srcdt] < 4)
		cg_line(g, f, "int32_t v = (int32_t)%s - %s;", src, iz);
	else
		cg_line(g, f, "int32_t v = (int32_t)((int64_t)%s - %s);", src, iz);
	cg_line(g, f, "float p = (float)v * %s, q = roundf(p);", m);
	cg_open(g, f, "if (fabsf(p - truncf(p)) == 0.5f) {");
	cg_line(g, f, "q = 2.0f * roundf(p * 0.5f);");
	closen(f, 1);
	cg_line(g, f, "double t = (double)q + %lld.0;", (long long)oz);
	cg_line(g, f, "%s = (%s)(!(t > %lld.0) ? %lld : !(t < %lld.0) ? %lld : t);", dst, cg_ctype(out),
	        (long long)ir_dtype_min(out), (long long)ir_dtype_min(out), (long long)ir_dtype_max(out), (long long)ir_dtype_max(out));
}

static int
requantize(Gen *g, Fn *f, Inst *i)
{
	const Leaf *x = cg_leaf(f, i, 0), *o = cg_out(f, i);
	const char *rounding = astr(g, i, "rounding"), *cdt = astr(g, i, "compute_dtype");
	int64_t axis = aint(g, i, "axis", -1), ax, oz, ns = cg_leaf(f, i, 1)->n;
	int pcs = ns > 1 || cg_leaf(f, i, 1)->rank == 1, pcz = cg_leaf(f, i, 2)->n > 1;
	int even = strcmp(rounding, "HALF_TO_EVEN") == 0 && strcmp(cdt, "float32") == 0;
	double os, s0;
	char nx[64], no[64], ix[256], zb[64], mb[80], lb[80], tb[80], dst[600], src[600];
	int nloops;
	Rq r;

	if (isflt(x->dt) || x->dt == DT_UINT32 || x->dt == DT_INT64 || isflt(o->dt) || ir_dtype_bytes[o->dt] > 4)
		return refuse(g, i, "from or to these dtypes");
	if (!even && strcmp(rounding, "None") && strcmp(rounding, "UPWARD") && strcmp(rounding, "TONEAREST"))
		return refuse(g, i, "with this rounding");
	if (!even && strcmp(cdt, "None") && strcmp(cdt, "int64"))
		return refuse(g, i, "with a float compute_dtype and TVM's rounding");
	if (!kf(g, f, i, 3, &os) || !ki(g, f, i, 4, &oz) || !kf(g, f, i, 1, &s0))
		return 0;
	ax = axis < 0 ? (x->rank > 0 ? x->rank + axis : 0) : axis;
	if ((pcs || pcz) && (ax < 0 || ax >= x->rank || (pcs && (axis == -1 ? x->rank - 1 : axis) != ax)))
		return refuse(g, i, "with this axis");
	if (os == 0 || !isfinite(os))
		return refuse(g, i, "with this output scale");
	memset(&r, 0, sizeof r);
	r.nearest = strcmp(rounding, "TONEAREST") == 0;
	r.oz = oz;
	r.out = (DType)o->dt;
	if (!(r.iz = param(g, f, i, 2, DT_INT32, pcz ? x->dims[ax] : 1, zb)))
		return refuse(g, i, "with quantization parameters that are not constants");
	if (even) {
		/* one float32 multiplier per channel (or one) */
		float *m = ir_xmalloc((size_t)ns * sizeof *m);
		for (int64_t c = 0; c < ns; c++) {
			double s;
			if (!cg_kflt(g, f, i, 1, c, &s) || !isfinite(m[c] = f32mul((float)s, (float)os))) {
				free(m);
				return refuse(g, i, "with these scales");
			}
		}
		if (pcs) {
			char n1[16];
			cg_carray(g, DT_FLOAT32, ns, m, "float32 multipliers per channel", n1);
			sprintf(mb, "%s[c]", n1);
		} else {
			cg_lit(m[0], DT_FLOAT32, mb);
			free(m);
		}
	} else if (!pcs) {
		Fx fx;
		if (s0 != os) {
			if (!fixed(s0 / os, &fx))
				return refuse(g, i, "with this ratio of scales");
			sprintf(mb, "%d", (int)fx.mul);
			sprintf(lb, "%d", fx.ls);
			sprintf(tb, "%d", fx.total);
			r.mul = mb;
			r.ls = lb;
			r.total = tb;
		}
	} else {
		int32_t *mul = ir_xmalloc((size_t)ns * 4), *ls = ir_xmalloc((size_t)ns * 4), *tot = ir_xmalloc((size_t)ns * 4);
		char n1[16], n2[16], n3[16];
		for (int64_t c = 0; c < ns; c++) {
			double s;
			Fx fx;
			if (!cg_kflt(g, f, i, 1, c, &s) || !isfinite((float)s) || !fixed((double)(float)s / os, &fx)) {
				free(mul);
				free(ls);
				free(tot);
				return refuse(g, i, "with these scales");
			}
			mul[c] = fx.mul;
			ls[c] = fx.ls;
			tot[c] = fx.total;
		}
		cg_carray(g, DT_INT32, ns, mul, "fixed-point multipliers per channel", n1);
		cg_carray(g, DT_INT32, ns, ls, "left shifts per channel", n2);
		cg_carray(g, DT_INT32, ns, tot, "right shifts + 31 per channel", n3);
		sprintf(mb, "%s[c]", n1);
		sprintf(lb, "%s[c]", n2);
		sprintf(tb, "%s[c]", n3);
		r.mul = mb;
		r.ls = lb;
		r.total = tb;
	}
	cg_name(g, f, x, nx);
	cg_name(g, f, o, no);
	nloops = elemloop(g, f, o, pcs || pcz, (int)ax, ix);
	sprintf(dst, "%s[%s]", no, ix);
	sprintf(src, "%s[%s]", nx, ix);
	if (even)
		f32line(g, f, dst, src, (DType)x->dt, r.iz, mb, oz, (DType)o->dt);
	else
		rqline(g, f, dst, src, (DType)x->dt, &r);
	closen(f, nloops);
	return 1;
}

/* qbinary: qnn.add and qnn.mul as TVM canonicalizes them (src/relay/qnn/op/
** add.cc, mul.cc) */
static int
qbinary(Gen *g, Fn *f, Inst *i, OpId op)
{
	const Leaf *a = cg_leaf(f, i, 0), *b = cg_leaf(f, i, 1), *o = cg_out(f, i);
	const Leaf *in[2] = { a, b };
	double ls, rs, os;
	int64_t lz, rz, oz;
	char na[64], nb[64], no[64], dst[600], src[600], bl[4][64], br[4][64];
	Ew e;
	Rq rl, rr;

	for (uint32_t k = 2; k < 8; k++)
		if (cg_leaf(f, i, k)->n != 1)
			return refuse(g, i, "with per-channel parameters");
	if (isflt(a->dt) || ir_dtype_bytes[a->dt] > 4 || a->dt != b->dt)
		return refuse(g, i, "on these dtypes");
	if (!kf(g, f, i, 2, &ls) || !ki(g, f, i, 3, &lz) || !kf(g, f, i, 4, &rs) || !ki(g, f, i, 5, &rz) ||
	    !kf(g, f, i, 6, &os) || !ki(g, f, i, 7, &oz))
		return 0;
	cg_name(g, f, a, na);
	cg_name(g, f, b, nb);
	cg_name(g, f, o, no);
	if (op == OP_QNN_ADD) {
		/* both sides requantized to the output's parameters in int32 (or
		** just widened when they have them already), added, less the
		** output zero point, clipped */
		int reql = ls != os || lz != oz, reqr = rs != os || rz != oz;
		if ((reql && !rqscalar(g, i, ls, lz, os, oz, DT_INT32, &rl, bl)) ||
		    (reqr && !rqscalar(g, i, rs, rz, os, oz, DT_INT32, &rr, br)))
			return 0;
		ewopen(g, f, o, in, 2, &e);
		cg_line(g, f, "int32_t l, r;");
		sprintf(src, "%s[%s]", na, e.ix[0]);
		if (reql) {
			cg_open(g, f, "{");
			rqline(g, f, "l", src, (DType)a->dt, &rl);
			cg_close(f);
		} else {
			cg_line(g, f, "l = (int32_t)%s;", src);
		}
		sprintf(src, "%s[%s]", nb, e.ix[1]);
		if (reqr) {
			cg_open(g, f, "{");
			rqline(g, f, "r", src, (DType)b->dt, &rr);
			cg_close(f);
		} else {
			cg_line(g, f, "r = (int32_t)%s;", src);
		}
		cg_line(g, f, "int32_t s = (int32_t)((uint32_t)l + (uint32_t)r - (uint32_t)%lld);", (long long)oz);
		if (o->dt == DT_INT32)
			cg_line(g, f, "%s[%s] = s;", no, e.oi);
		else
			cg_line(g, f, "%s[%s] = (%s)(s < %lld ? %lld : s > %lld ? %lld : s);", no, e.oi, cg_ctype(o->dt),
			        (long long)ir_dtype_min(o->dt), (long long)ir_dtype_min(o->dt), (long long)ir_dtype_max(o->dt), (long long)ir_dtype_max(o->dt));
	} else {
		/* (a - za) * (b - zb) in int32, requantized from scale sa * sb
		** (a float32 product) and zero point 0 */
		if (!rqscalar(g, i, (float)((float)ls * (float)rs), 0, os, oz, (DType)o->dt, &rl, bl))
			return 0;
		ewopen(g, f, o, in, 2, &e);
		cg_line(g, f, "int32_t p = (int32_t)((uint32_t)((int64_t)%s[%s] - %lld) * (uint32_t)((int64_t)%s[%s] - %lld));",
		        na, e.ix[0], (long long)lz, nb, e.ix[1], (long long)rz);
		sprintf(dst, "%s[%s]", no, e.oi);
		rqline(g, f, dst, "p", DT_INT32, &rl);
	}
	closen(f, e.open);
	return 1;
}

/* ---------------------------------------------------------------- data movement */

/* concat: the fields of tuple inst t along axis into o; qnn requantizes
** each field whose parameters differ from the output's */
static int
concat(Gen *g, Fn *f, Inst *i, int qnn)
{
	Inst *t = cg_op(f, i, 0);
	const Leaf *o = cg_out(f, i);
	int64_t ax = aint(g, i, "axis", 0), at = 0, oz = 0;
	double os = 0;
	size_t esz = ir_dtype_bytes[o->dt];
	char no[64], nx[64];

	if (ax < 0)
		ax += o->rank;
	if (qnn && (!kf(g, f, i, 3, &os) || !ki(g, f, i, 4, &oz)))
		return 0;
	cg_name(g, f, o, no);
	for (uint32_t k = 0; k < t->nval; k++) {
		const Leaf *x = &f->leaves[t->val + k];
		int64_t chunk = x->dims[ax] * inner(x, (int)ax), ochunk = o->dims[ax] * inner(o, (int)ax);
		int req = 0;
		double s = 0;
		int64_t z = 0;
		Rq r;
		char bufs[4][64];
		if (qnn) {
			Inst *ts = cg_op(f, i, 1), *tz = cg_op(f, i, 2);
			if (ts->nops != t->nval || tz->nops != t->nval ||
			    !cg_kflt(g, f, ts, k, 0, &s) || !cg_kint(g, f, tz, k, 0, &z))
				return refuse(g, i, "with quantization parameters that are not constants");
			s = (float)s;
			req = s != os || z != oz;
			if (req && !rqscalar(g, i, s, z, os, oz, (DType)o->dt, &r, bufs))
				return 0;
		}
		cg_name(g, f, x, nx);
		cg_open(g, f, "for (int64_t i0 = 0; i0 < %lld; i0++) {", (long long)outer(o, (int)ax));
		if (req) {
			char dst[600], src[600];
			cg_open(g, f, "for (int64_t i1 = 0; i1 < %lld; i1++) {", (long long)chunk);
			sprintf(dst, "%s[i0 * %lld + %lld + i1]", no, (long long)ochunk, (long long)at);
			sprintf(src, "%s[i0 * %lld + i1]", nx, (long long)chunk);
			rqline(g, f, dst, src, (DType)x->dt, &r);
			cg_close(f);
		} else {
			cg_line(g, f, "memcpy(%s + i0 * %lld + %lld, %s + i0 * %lld, %lld);", no, (long long)ochunk,
			        (long long)at, nx, (long long)chunk, (long long)(chunk * (int64_t)esz));
		}
		cg_close(f);
		at += chunk;
	}
	return 1;
}

static int
split(Gen *g, Fn *f, Inst *i)
{
	const Leaf *x = cg_leaf(f, i, 0);
	int64_t ax = aint(g, i, "axis", 0), at = 0;
	size_t esz = ir_dtype_bytes[x->dt];
	char no[64], nx[64];

	if (ax < 0)
		ax += x->rank;
	cg_name(g, f, x, nx);
	for (uint32_t k = 0; k < i->nval; k++) {
		const Leaf *o = &f->leaves[i->val + k];
		int64_t chunk = o->dims[ax] * inner(o, (int)ax), xchunk = x->dims[ax] * inner(x, (int)ax);
		cg_name(g, f, o, no);
		cg_line(g, f, "for (int64_t i0 = 0; i0 < %lld; i0++)", (long long)outer(x, (int)ax));
		cg_line(g, f, "\tmemcpy(%s + i0 * %lld, %s + i0 * %lld + %lld, %lld);", no, (long long)chunk, nx,
		        (long long)xchunk, (long long)at, (long long)(chunk * (int64_t)esz));
		at += chunk;
	}
	return 1;
}

/* gather: o[idx] = x[base + sum idx_k * st_k] over o's shape */
static void
gather(Gen *g, Fn *f, const Leaf *o, const Leaf *x, int64_t base, const int64_t *st)
{
	int64_t ost[MAXD];
	char no[64], nx[64], oi[256], xi[256];
	int n;

	strides(o, ost);
	idxexpr(o->rank, ost, 0, oi);
	idxexpr(o->rank, st, base, xi);
	cg_name(g, f, o, no);
	cg_name(g, f, x, nx);
	n = loops(g, f, o->rank, o->dims);
	cg_line(g, f, "%s[%s] = %s[%s];", no, oi, nx, xi);
	closen(f, n);
}

static int
transpose(Gen *g, Fn *f, Inst *i)
{
	const Leaf *x = cg_leaf(f, i, 0), *o = cg_out(f, i);
	int64_t axes[MAXD], xst[MAXD], st[MAXD];
	int n = aints(g, i, "axes", axes, MAXD);

	strides(x, xst);
	for (int k = 0; k < o->rank; k++) {
		int64_t a = n <= 0 ? o->rank - 1 - k : axes[k];
		if (a < 0)
			a += x->rank;
		st[k] = xst[a];
	}
	gather(g, f, o, x, 0, st);
	return 1;
}

/* layouttransform: layout_transform, the permutation its layouts name */
static int
layouttransform(Gen *g, Fn *f, Inst *i)
{
	const Leaf *x = cg_leaf(f, i, 0), *o = cg_out(f, i);
	int64_t axes[MAXD], xst[MAXD], st[MAXD];
	const char *why;
	int n = ir_layout_axes(astr(g, i, "src_layout"), astr(g, i, "dst_layout"), axes, MAXD, &why);

	if (n != o->rank)
		return refuse(g, i, why ? why : "with these layouts");
	strides(x, xst);
	for (int k = 0; k < o->rank; k++)
		st[k] = xst[axes[k]];
	gather(g, f, o, x, 0, st);
	return 1;
}

/* einsum: every letter's loop, the product of the operands' elements
** summed into the output's in double (the reference's order), rounded
** once */
static int
einsum(Gen *g, Fn *f, Inst *i)
{
	Inst *t = cg_op(f, i, 0);
	const Leaf *o = cg_out(f, i);
	int ranks[IR_EINSUM_MAX], open;
	int64_t size[IR_EINSUM_MAX * IR_EINSUM_RANK], st[IR_EINSUM_MAX * IR_EINSUM_RANK], ost[IR_EINSUM_MAX * IR_EINSUM_RANK];
	char acc[64], no[64], idx[256], prod[2048], xb[XB], v[XB], w[XB];
	IrEinsum e;
	const char *why;
	size_t at = 0;

	if (!isflt(o->dt) || t->nval > IR_EINSUM_MAX)
		return refuse(g, i, "on integer tensors");
	for (uint32_t k = 0; k < t->nval; k++)
		ranks[k] = f->leaves[t->val + k].rank;
	if (!ir_einsum(astr(g, i, "equation"), t->nval, ranks, &e, &why))
		return refuse(g, i, why);
	for (uint32_t l = 0; l < e.nlet; l++)
		size[l] = 1, ost[l] = 0;
	for (uint32_t k = 0; k < t->nval; k++) {
		const Leaf *x = &f->leaves[t->val + k];
		for (int d = 0; d < x->rank; d++)
			size[e.in[k][d]] = x->dims[d];
	}
	{
		int64_t s = 1;
		for (int d = e.nout; d-- > 0;) {
			ost[e.out[d]] += s;
			s *= o->dims[d];
		}
	}
	prod[0] = 0;
	for (uint32_t k = 0; k < t->nval; k++) {
		const Leaf *x = &f->leaves[t->val + k];
		char nx[64];
		int64_t s = 1;
		for (uint32_t l = 0; l < e.nlet; l++)
			st[l] = 0;
		for (int d = x->rank; d-- > 0;) {
			st[e.in[k][d]] += s;
			s *= x->dims[d];
		}
		cg_name(g, f, x, nx);
		idxexpr(e.nlet, st, 0, idx);
		at += (size_t)snprintf(prod + at, sizeof prod - at, "%s(double)%s", k ? " * " : "",
		                       elem(g, (DType)x->dt, nx, *idx ? idx : "0", xb));
		if (at >= sizeof prod)
			return refuse(g, i, "with so many operands");
	}
	cg_name(g, f, o, no);
	cg_scratch(g, f, DT_FLOAT64, o->n, acc);
	cg_line(g, f, "for (int64_t i = 0; i < %lld; i++)", (long long)o->n);
	cg_line(g, f, "\t%s[i] = 0;", acc);
	idxexpr(e.nlet, ost, 0, idx);
	open = loops(g, f, e.nlet, size);
	cg_line(g, f, "%s[%s] += %s;", acc, *idx ? idx : "0", prod);
	closen(f, open);
	cg_line(g, f, "for (int64_t i = 0; i < %lld; i++)", (long long)o->n);
	cg_line(g, f, "\t%s[i] = %s;", no, o->dt == DT_FLOAT16 ? wr(g, (DType)o->dt, 1, xf(v, "%s[i]", acc), w)
	                                                       : xf(w, "(%s)%s[i]", cg_ctype(o->dt), acc));
	return 1;
}

/* batchnorm: nn.batch_norm in inference as the reference: per element
** (x - mean) / sqrt(var + epsilon), times gamma, plus beta, in double and
** rounded once; the moving mean and variance copied to fields 1 and 2 */
static int
batchnorm(Gen *g, Fn *f, Inst *i)
{
	const Leaf *x = cg_leaf(f, i, 0), *o = &f->leaves[i->val];
	int64_t ax = aint(g, i, "axis", 1), in;
	const AttrVal *eps = attr(g, i, "epsilon");
	char nx[64], nv[5][64], no[64], e[40], xv[5][XB], y[XB];

	if (!isflt(x->dt))
		return refuse(g, i, "on integer tensors");
	if (ax < 0)
		ax += x->rank;
	in = inner(x, (int)ax);
	for (int k = 1; k < 5; k++)
		cg_name(g, f, cg_leaf(f, i, (uint32_t)k), nv[k]);
	cg_name(g, f, x, nx);
	cg_name(g, f, o, no);
	snprintf(e, sizeof e, "%.17g", eps ? eps->u.f : 1e-5);
	cg_open(g, f, "for (int64_t i = 0; i < %lld; i++) {", (long long)x->n);
	cg_line(g, f, "int64_t c = i / %lld %% %lld;", (long long)in, (long long)x->dims[ax]);
	elem(g, (DType)x->dt, nx, "i", xv[0]);
	for (int k = 1; k < 5; k++)
		elem(g, (DType)cg_leaf(f, i, (uint32_t)k)->dt, nv[k], "c", xv[k]);
	cg_line(g, f, "double y = ((double)%s - (double)%s) / sqrt((double)%s + %s);", xv[0], xv[3], xv[4], e);
	if (aint(g, i, "scale", 1))
		cg_line(g, f, "y *= (double)%s;", xv[1]);
	if (aint(g, i, "center", 1))
		cg_line(g, f, "y += (double)%s;", xv[2]);
	cg_line(g, f, "%s[i] = %s;", no, o->dt == DT_FLOAT16 ? wr(g, (DType)o->dt, 1, "y", y) : xf(y, "(%s)y", cg_ctype(o->dt)));
	cg_close(f);
	for (uint32_t k = 1; k < 3; k++) {
		const Leaf *v = &f->leaves[i->val + k], *src = cg_leaf(f, i, k + 2);
		char nd[64], ns[64];
		cg_name(g, f, v, nd);
		cg_name(g, f, src, ns);
		cg_line(g, f, "memcpy(%s, %s, %lld);", nd, ns, (long long)(v->n * (int64_t)ir_dtype_bytes[v->dt]));
	}
	return 1;
}

/* normloops: opens the loops over the (r1, r2) elements of one group of
** a normalization, whose offset is `at` */
static void
normloops(Gen *g, Fn *f, const RefNorm *p)
{
	cg_open(g, f, "for (int64_t i = 0; i < %lld; i++) {", (long long)p->r1);
	cg_open(g, f, "for (int64_t j = 0; j < %lld; j++) {", (long long)p->r2);
	cg_line(g, f, "int64_t at = base + i * %lld + j;", (long long)(p->k * p->r2));
}

/* norm: nn.layer_norm, nn.group_norm and nn.instance_norm as the
** reference (ref.h, RefNorm): per group the mean, then the variance as the
** mean of (x - mean)^2, each summed in double in row-major order; each
** element (x - mean) / sqrt(var + epsilon), times gamma, plus beta, in
** double and rounded once */
static int
norm(Gen *g, Fn *f, Inst *i)
{
	const Leaf *x = cg_leaf(f, i, 0), *o = cg_out(f, i);
	RefNorm p;
	long long n;
	DType dt = (DType)x->dt;
	char nx[64], ng[64], nb[64], no[64], xe[80], e[80], v[XB], w[XB];
	const char *xv;

	if (!isflt(x->dt))
		return refuse(g, i, "on integer tensors");
	if (!ref_norm_plan(g->m->nodes[i->node].op, ir_attrs(g->m, i->node), x->dims, x->rank, &p))
		return refuse(g, i, "with these operands");
	n = p.r1 * p.r2;
	cg_name(g, f, x, nx);
	cg_name(g, f, cg_leaf(f, i, 1), ng);
	cg_name(g, f, cg_leaf(f, i, 2), nb);
	cg_name(g, f, o, no);
	cg_open(g, f, "for (int64_t o = 0; o < %lld; o++) {", (long long)p.outer);
	cg_open(g, f, "for (int64_t q = 0; q < %lld; q++) {", (long long)p.k);
	cg_line(g, f, "int64_t base = o * %lld + q * %lld;", n * p.k, (long long)p.r2);
	cg_line(g, f, "double sum = 0, var = 0, mean, den;");
	normloops(g, f, &p);
	snprintf(xe, sizeof xe, "%s[at]", nx);
	xv = rd(g, dt, xe, v);
	cg_line(g, f, "sum += (double)%s;", xv);
	closen(f, 2);
	cg_line(g, f, "mean = sum / (double)%lld;", n);
	normloops(g, f, &p);
	cg_line(g, f, "double d = (double)%s - mean;", xv);
	cg_line(g, f, "var += d * d;");
	closen(f, 2);
	cg_line(g, f, "den = sqrt(var / (double)%lld + %.17g);", n, p.epsilon);
	normloops(g, f, &p);
	cg_line(g, f, "int64_t c = at / %lld %% %lld;", (long long)p.cinner, (long long)p.channels);
	cg_line(g, f, "double y = ((double)%s - mean) / den;", xv);
	if (p.scale) {
		snprintf(e, sizeof e, "%s[c]", ng);
		cg_line(g, f, "y *= (double)%s;", rd(g, dt, e, w));
	}
	if (p.center) {
		snprintf(e, sizeof e, "%s[c]", nb);
		cg_line(g, f, "y += (double)%s;", rd(g, dt, e, w));
	}
	if (dt == DT_FLOAT16)
		cg_line(g, f, "%s[at] = %s;", no, wr(g, dt, 1, "y", w));
	else
		cg_line(g, f, "%s[at] = (%s)y;", no, cg_ctype(o->dt));
	closen(f, 4);
	return 1;
}

static int
slice(Gen *g, Fn *f, Inst *i)
{
	const Leaf *x = cg_leaf(f, i, 0), *o = cg_out(f, i);
	int64_t begin[MAXD], end[MAXD], sv[MAXD], axes[MAXD], xst[MAXD], st[MAXD], base = 0;
	int nb = aints(g, i, "begin", begin, MAXD), ne = aints(g, i, "end", end, MAXD);
	int ns = aints(g, i, "strides", sv, MAXD), na = aints(g, i, "axes", axes, MAXD);
	int size = strcmp(astr(g, i, "slice_mode"), "size") == 0;

	(void)ne;
	strides(x, xst);
	for (int k = 0; k < x->rank; k++) {
		int j = -1;     /* the attribute position of axis k */
		int64_t b, s = 1, d = x->dims[k];
		if (na > 0) {
			for (int q = 0; q < na; q++)
				if ((axes[q] < 0 ? axes[q] + x->rank : axes[q]) == k)
					j = q;
		} else if (k < nb) {
			j = k;
		}
		if (j >= 0 && !size && ns > 0)
			s = sv[j < ns ? j : ns - 1];
		b = j >= 0 && j < nb ? begin[j] : (s > 0 ? 0 : d - 1);
		if (b < 0)
			b += d;
		if (s > 0)
			b = b < 0 ? 0 : b > d ? d : b;
		else
			b = b < -1 ? -1 : b > d - 1 ? d - 1 : b;
		base += b * xst[k];
		st[k] = s * xst[k];
	}
	if (o->n)
		gather(g, f, o, x, base, st);
	return 1;
}

static int
pad(Gen *g, Fn *f, Inst *i)
{
	const Leaf *x = cg_leaf(f, i, 0), *pv = cg_leaf(f, i, 1), *o = cg_out(f, i);
	int64_t pw[2 * MAXD], xst[MAXD], ost[MAXD], base = 0;
	int n = aints(g, i, "pad_width", pw, 2 * MAXD);
	char no[64], nx[64], np[64], v[XB], pvx[64], oi[256], xi[256];
	int open;

	if (strcmp(astr(g, i, "pad_mode"), "constant"))
		return refuse(g, i, "in this pad_mode");
	if (n != 2 * x->rank)
		return refuse(g, i, "with this pad_width");
	cg_name(g, f, o, no);
	cg_name(g, f, x, nx);
	{
		double pval;
		if (cg_kflt(g, f, i, 1, 0, &pval) && !isflt(pv->dt)) {
			int64_t iv;
			cg_kint(g, f, i, 1, 0, &iv);
			pval = (double)iv;
		}
		if (cg_kflt(g, f, i, 1, 0, &pval)) {
			/* a float16 value as the float literal of its value */
			DType pdt = pv->dt == DT_FLOAT16 ? DT_FLOAT32 : (DType)pv->dt;
			cg_lit(pval, pdt, pvx);
			if (isflt(pv->dt) && !isflt(o->dt)) {
				/* saturating, NaN -> 0, as graft_f2i */
				double t = pval != pval ? 0 : trunc(pval);
				t = t < (double)ir_dtype_min(o->dt) ? (double)ir_dtype_min(o->dt) : t > (double)ir_dtype_max(o->dt) ? (double)ir_dtype_max(o->dt) : t;
				sprintf(v, "(%s)%lld", cg_ctype(o->dt), (long long)t);
			} else {
				convexpr(g, pdt, (DType)o->dt, pvx, v);
			}
		} else {
			sprintf(pvx, "%s[0]", cg_name(g, f, pv, np));
			convexpr(g, (DType)pv->dt, (DType)o->dt, pvx, v);
		}
	}
	cg_line(g, f, "for (int64_t i = 0; i < %lld; i++)", (long long)o->n);
	cg_line(g, f, "\t%s[i] = %s;", no, v);
	strides(o, ost);
	strides(x, xst);
	for (int k = 0; k < x->rank; k++)
		base += pw[2 * k] * ost[k];
	idxexpr(x->rank, ost, base, oi);
	idxexpr(x->rank, xst, 0, xi);
	open = loops(g, f, x->rank, x->dims);
	cg_line(g, f, "%s[%s] = %s[%s];", no, oi, nx, xi);
	closen(f, open);
	return 1;
}

/* resize: image.resize2d through the taps of ref_resize_taps() (ref.h),
** baked into tables: per output row and column, the input offsets of its
** taps (index times stride) and their float32 weights.  Nearest converts
** its one tap as cast does; linear and cubic sum each row's taps along W,
** then the rows by H's weights, in float32 in the reference's order (cubic
** from +0), and cast the sum to the result's dtype; float16 read
** widened to float */
static int
resize(Gen *g, Fn *f, Inst *i)
{
	const Leaf *x = cg_leaf(f, i, 0), *o = cg_out(f, i);
	RefResize p;
	const char *bad = ref_resize_mode(g->m, ir_attrs(g->m, i->node), &p), *xt = cg_ctype(x->dt);
	int64_t xst[MAXD], ost[MAXD];
	char nx[64], no[64], oe[256], ko[2][16], kw[2][16], cv[400], why[160];
	int open, nt;

	if (bad) {
		snprintf(why, sizeof why, "with %s \"%s\"", bad, astr(g, i, bad));
		return refuse(g, i, why);
	}
	nt = p.taps;
	if (p.method != REF_RS_NEAREST && !isflt(x->dt))
		return refuse(g, i, "other than nearest_neighbor on integers");
	if (!o->n)
		return 1;
	if (!x->n)
		return refuse(g, i, "of an empty image");
	strides(x, xst);
	strides(o, ost);
	for (int a = 0; a < 2; a++) {
		int ax = p.pos[2 + a];
		int64_t cnt = o->dims[ax] * nt, *off = ir_xmalloc((size_t)cnt * sizeof *off);
		float *w = ir_xmalloc((size_t)cnt * sizeof *w);
		ref_resize_taps(&p, x->dims[ax], o->dims[ax], off, w);
		for (int64_t k = 0; k < cnt; k++)
			off[k] *= xst[ax];
		cg_carray(g, DT_INT64, cnt, off, a ? "resize: the input offsets of each column's taps"
		                                   : "resize: the input offsets of each row's taps", ko[a]);
		if (p.method == REF_RS_NEAREST)
			free(w);
		else
			cg_carray(g, DT_FLOAT32, cnt, w, a ? "resize: the weights of each column's taps"
			                                   : "resize: the weights of each row's taps", kw[a]);
	}
	cg_name(g, f, x, nx);
	cg_name(g, f, o, no);
	idxexpr(4, ost, 0, oe);
	open = loops(g, f, 4, o->dims);
	cg_line(g, f, "const %s *xb = %s + i%d * %lld + i%d * %lld;", xt, nx, p.pos[0], (long long)xst[p.pos[0]], p.pos[1],
	        (long long)xst[p.pos[1]]);
	cg_line(g, f, "const int64_t *oy = %s + i%d * %d, *ox = %s + i%d * %d;", ko[0], p.pos[2], nt, ko[1], p.pos[3], nt);
	if (p.method == REF_RS_NEAREST) {
		convexpr(g, (DType)x->dt, (DType)o->dt, "xb[oy[0] + ox[0]]", cv);
		cg_line(g, f, "%s[%s] = %s;", no, oe, cv);
		closen(f, open);
		return 1;
	}
	cg_line(g, f, "const float *wy = %s + i%d * %d, *wx = %s + i%d * %d;", kw[0], p.pos[2], nt, kw[1], p.pos[3], nt);
	if (p.method == REF_RS_CUBIC) {
		cg_line(g, f, "float v = 0;");
		cg_open(g, f, "for (int j = 0; j < 4; j++) {");
		cg_line(g, f, "float r = 0;");
		cg_line(g, f, "for (int k = 0; k < 4; k++)");
		cg_line(g, f, "\tr += (float)%s * wx[k];", rd(g, (DType)x->dt, "xb[oy[j] + ox[k]]", cv));
		cg_line(g, f, "v += r * wy[j];");
		cg_close(f);
	} else {
		char t0[XB], t1[XB], e0[64], e1[64];
		for (int j = 0; j < 2; j++) {
			snprintf(e0, sizeof e0, "xb[oy[%d] + ox[0]]", j);
			snprintf(e1, sizeof e1, "xb[oy[%d] + ox[1]]", j);
			cg_line(g, f, "float r%d = (float)%s * wx[0] + (float)%s * wx[1];", j, rd(g, (DType)x->dt, e0, t0),
			        rd(g, (DType)x->dt, e1, t1));
		}
		cg_line(g, f, "float v = r0 * wy[0] + r1 * wy[1];");
	}
	convexpr(g, DT_FLOAT32, (DType)o->dt, "v", cv);
	cg_line(g, f, "%s[%s] = %s;", no, oe, cv);
	closen(f, open);
	return 1;
}

/* ---------------------------------------------------------------- reductions */

/* softmax: exp(x - max) / sum along axis, as the reference: the max
** ignores NaN; float16 rounds x - max, its exp (stored as half), each
** partial sum and each quotient to half */
static int
softmax(Gen *g, Fn *f, Inst *i)
{
	const Leaf *x = cg_leaf(f, i, 0), *o = cg_out(f, i);
	int64_t ax = aint(g, i, "axis", -1), in, a;
	DType dt = (DType)o->dt;
	char nx[64], no[64], ix[64], v[XB], w[XB], y[XB];
	const char *t = cty(dt), *st = cg_ctype(dt), *fs = fsuf(dt);

	if (!isflt(o->dt))
		return refuse(g, i, "on integer tensors");
	if (ax < 0)
		ax += x->rank;
	if (ax < 0 || ax >= x->rank)
		return refuse(g, i, "with this axis");
	in = inner(x, (int)ax);
	a = x->dims[ax];
	cg_name(g, f, x, nx);
	cg_name(g, f, o, no);
	cg_open(g, f, "for (int64_t i0 = 0; i0 < %lld; i0++) {", (long long)outer(x, (int)ax));
	cg_open(g, f, "for (int64_t i2 = 0; i2 < %lld; i2++) {", (long long)in);
	sprintf(ix, "c * %lld", (long long)in);
	cg_line(g, f, "const %s *x = %s + i0 * %lld + i2;", st, nx, (long long)(a * in));
	cg_line(g, f, "%s *y = %s + i0 * %lld + i2;", st, no, (long long)(a * in));
	cg_line(g, f, "%s m = -INFINITY, s = 0;", t);
	cg_open(g, f, "for (int64_t c = 0; c < %lld; c++) {", (long long)a);
	cg_line(g, f, "%s v = %s;", t, elem(g, dt, "x", ix, v));
	cg_line(g, f, "m = v > m ? v : m;");
	cg_close(f);
	cg_open(g, f, "for (int64_t c = 0; c < %lld; c++) {", (long long)a);
	cg_line(g, f, "%s e = %s;", t, hr(g, dt, xf(w, "exp%s(%s)", fs, hr(g, dt, xf(y, "%s - m", elem(g, dt, "x", ix, v)), v)), y));
	cg_line(g, f, "y[%s] = %s;", ix, wr(g, dt, 0, "e", v));
	cg_line(g, f, "s = %s;", hr(g, dt, "s + e", v));
	cg_close(f);
	cg_line(g, f, "for (int64_t c = 0; c < %lld; c++)", (long long)a);
	cg_line(g, f, "\ty[%s] = %s;", ix, wr(g, dt, 0, xf(y, "%s / s", elem(g, dt, "y", ix, v)), w));
	closen(f, 2);
	return 1;
}

static int
mean(Gen *g, Fn *f, Inst *i)
{
	const Leaf *x = cg_leaf(f, i, 0), *o = cg_out(f, i);
	int64_t axes[MAXD], xst[MAXD], st[MAXD], cnt = 1, s = 1;
	int n = aints(g, i, "axis", axes, MAXD), ex = (int)aint(g, i, "exclude", 0), red[MAXD], open;
	DType dt = (DType)x->dt;
	char nx[64], no[64], acc[64], oi[256], xi[256], v[XB], w[XB], y[XB];

	for (int k = 0; k < x->rank; k++)
		red[k] = n < 0;
	for (int q = 0; q < n; q++)
		red[axes[q] < 0 ? axes[q] + x->rank : axes[q]] = 1;
	for (int k = 0; k < x->rank; k++)
		if (ex && n >= 0)       /* no axis: all of them, as TVM */
			red[k] = !red[k];
	/* the output index of each input dim: the kept dims in order */
	for (int k = x->rank - 1; k >= 0; k--) {
		if (red[k]) {
			st[k] = 0;
			cnt *= x->dims[k];
		} else {
			st[k] = s;
			s *= x->dims[k];
		}
	}
	strides(x, xst);
	cg_name(g, f, x, nx);
	cg_name(g, f, o, no);
	/* floats sum in double (float16 in float, rounded to half at each
	** step, as the reference, and divided by the count as a half);
	** integers in int64 (wrapping), then wrap to the data's dtype as
	** tvm::sum does and divide truncating */
	cg_scratch(g, f, dt == DT_FLOAT16 ? DT_FLOAT32 : isflt(o->dt) ? DT_FLOAT64 : DT_INT64, o->n, acc);
	cg_line(g, f, "for (int64_t i = 0; i < %lld; i++)", (long long)o->n);
	cg_line(g, f, "\t%s[i] = 0;", acc);
	idxexpr(x->rank, st, 0, oi);
	idxexpr(x->rank, xst, 0, xi);
	open = loops(g, f, x->rank, x->dims);
	/* integers of at most 32 bits: fewer than 2^31 of them cannot overflow
	   int64, so a plain sum (gcc 12.2 at -O2 miscompiles the vectorized
	   form of the unsigned, wrapping one: tests/backends/randgraph.py seed
	   299) */
	if (dt == DT_FLOAT16)
		cg_line(g, f, "%s[%s] = %s;", acc, oi, hr(g, dt, xf(y, "%s[%s] + %s", acc, oi, elem(g, dt, nx, xi, v)), w));
	else if (isflt(o->dt) || (ir_dtype_bytes[x->dt] <= 4 && cnt < ((int64_t)1 << 31)))
		cg_line(g, f, "%s[%s] += %s[%s];", acc, oi, nx, xi);
	else
		cg_line(g, f, "%s[%s] = (int64_t)((uint64_t)%s[%s] + (uint64_t)(int64_t)%s[%s]);", acc, oi, acc, oi, nx, xi);
	closen(f, open);
	cg_line(g, f, "for (int64_t i = 0; i < %lld; i++)", (long long)o->n);
	if (dt == DT_FLOAT16)
		cg_line(g, f, "\t%s[i] = %s;", no, wr(g, dt, 0, xf(y, "%s[i] / %s", acc, flit((double)(cnt ? cnt : 1), dt, v)), w));
	else if (isflt(o->dt))
		cg_line(g, f, "\t%s[i] = (%s)(%s[i] / %lld);", no, cg_ctype(o->dt), acc, (long long)cnt);
	else
		cg_line(g, f, "\t%s[i] = (%s)((int64_t)(%s)%s[i] / %lld);", no, cg_ctype(o->dt), cg_ctype(o->dt), acc,
		        (long long)cnt);
	return 1;
}

/* reduce: sum, prod, max, min, argmax and argmin as the reference:
** sums and products in the data's dtype (integers wrapping; float16 in
** float, rounded to half at each step) in row-major order, max and min
** propagating NaN, an arg the row-major index among the reduced elements
** of the first (select_last_index: last) extreme */
static int
reduce(Gen *g, Fn *f, Inst *i, OpId op)
{
	const Leaf *x = cg_leaf(f, i, 0), *o = cg_out(f, i);
	int64_t axes[MAXD], xst[MAXD], st[MAXD], rst[MAXD], s = 1, r = 1;
	int n = aints(g, i, "axis", axes, MAXD), ex = (int)aint(g, i, "exclude", 0), red[MAXD], open;
	int arg = op == OP_ARGMAX || op == OP_ARGMIN, max = op == OP_MAX || op == OP_ARGMAX;
	int last = arg && aint(g, i, "select_last_index", 0), h = x->dt == DT_FLOAT16;
	DType dt = (DType)x->dt;
	const char *t = cty(dt);
	char nx[64], no[64], acc[64], oi[256], xi[256], ji[256], init[64], v[XB], w[XB];

	if (x->dt == DT_BOOL)
		return refuse(g, i, "on bool tensors");
	for (int k = 0; k < x->rank; k++)
		red[k] = n < 0;
	for (int q = 0; q < n; q++)
		red[axes[q] < 0 ? axes[q] + x->rank : axes[q]] = 1;
	for (int k = 0; k < x->rank; k++)
		if (ex && n >= 0)
			red[k] = !red[k];
	for (int k = x->rank - 1; k >= 0; k--) {
		st[k] = red[k] ? 0 : s;
		rst[k] = red[k] ? r : 0;
		s *= red[k] ? 1 : x->dims[k];
		r *= red[k] ? x->dims[k] : 1;
	}
	strides(x, xst);
	cg_name(g, f, x, nx);
	cg_name(g, f, o, no);
	if (arg || h)
		cg_scratch(g, f, h ? DT_FLOAT32 : dt, o->n, acc);
	else
		strcpy(acc, no);
	if (op == OP_SUM || op == OP_PROD)
		strcpy(init, op == OP_SUM ? "0" : "1");
	else if (isflt(x->dt))
		strcpy(init, max ? "-INFINITY" : "INFINITY");
	else if (x->dt == DT_INT64)
		strcpy(init, max ? "(-9223372036854775807LL - 1)" : "9223372036854775807LL");
	else
		sprintf(init, "%lld", (long long)(max ? ir_dtype_min(x->dt) : ir_dtype_max(x->dt)));
	cg_line(g, f, "for (int64_t i = 0; i < %lld; i++)", (long long)o->n);
	cg_line(g, f, "\t%s[i] = %s;", acc, init);
	idxexpr(x->rank, st, 0, oi);
	idxexpr(x->rank, xst, 0, xi);
	idxexpr(x->rank, rst, 0, ji);
	if (!*oi)
		strcpy(oi, "0");
	if (!*ji)
		strcpy(ji, "0");
	open = loops(g, f, x->rank, x->dims);
	if (op == OP_SUM || op == OP_PROD) {
		const char *sym = op == OP_SUM ? "+" : "*";
		if (isflt(x->dt)) {
			xf(w, "%s[%s] %s %s", acc, oi, sym, elem(g, dt, nx, xi, v));
			cg_line(g, f, "%s[%s] = %s;", acc, oi, hr(g, dt, w, v));
		} else {
			const char *u = ir_dtype_bytes[x->dt] == 8 ? "uint64_t" : "uint32_t";
			cg_line(g, f, "%s[%s] = (%s)((%s)%s[%s] %s (%s)%s[%s]);", acc, oi, t, u, acc, oi, sym, u, nx, xi);
		}
	} else {
		const char *gt = max ? ">" : "<";
		char cond[160];
		cg_line(g, f, "%s v = %s, c = %s[%s];", t, elem(g, dt, nx, xi, v), acc, oi);
		if (isflt(x->dt))
			snprintf(cond, sizeof cond, "(c == c && (v != v || v %s c%s))", gt, last ? " || v == c" : "");
		else
			snprintf(cond, sizeof cond, "(v %s c%s)", gt, last ? " || v == c" : "");
		/* an arg takes the first element of each reduction whatever it is */
		if (arg)
			cg_open(g, f, "if (%s == 0 || %s) {", ji, cond);
		else
			cg_open(g, f, "if %s {", cond);
		cg_line(g, f, "%s[%s] = v;", acc, oi);
		if (arg)
			cg_line(g, f, "%s[%s] = (int32_t)(%s);", no, oi, ji);
		cg_close(f);
	}
	closen(f, open);
	if (h && !arg) {
		cg_line(g, f, "for (int64_t i = 0; i < %lld; i++)", (long long)o->n);
		cg_line(g, f, "\t%s[i] = %s;", no, wr(g, dt, 0, xf(w, "%s[i]", acc), v));
	}
	return 1;
}

/* hw: the positions of N, C, H, W in a 4-d data layout; 0 if not NCHW/NHWC */
static int
hw(const char *layout, int *pn, int *pc, int *ph, int *pw)
{
	if (strcmp(layout, "NCHW") == 0) {
		*pn = 0, *pc = 1, *ph = 2, *pw = 3;
		return 1;
	}
	if (strcmp(layout, "NHWC") == 0) {
		*pn = 0, *ph = 1, *pw = 2, *pc = 3;
		return 1;
	}
	return 0;
}

/* pads: top, left, bottom, right from a padding attribute */
static int
pads(Gen *g, Inst *i, int64_t *p)
{
	int64_t v[4];
	int n = aints(g, i, "padding", v, 4);

	if (n == 1)
		p[0] = p[1] = p[2] = p[3] = v[0];
	else if (n == 2)
		p[0] = p[2] = v[0], p[1] = p[3] = v[1];
	else if (n == 4)
		memcpy(p, v, sizeof v);
	else
		return 0;
	return 1;
}

static int
pool(Gen *g, Fn *f, Inst *i, OpId op)
{
	const Leaf *x = cg_leaf(f, i, 0), *o = cg_out(f, i);
	int pn, pc, ph, pw, open = 0;
	int64_t ps[2], st[2], dl[2], p[4], xst[MAXD], ost[MAXD];
	int incl = (int)aint(g, i, "count_include_pad", 0), gl = op == OP_NN_GLOBAL_AVG_POOL2D;
	DType dt = (DType)o->dt;
	const char *t = cty(dt);
	char nx[64], no[64], lit[64], xi[128], e1[XB], e2[XB], e3[XB];

	if (x->rank != 4 || !hw(astr(g, i, "layout"), &pn, &pc, &ph, &pw) ||
	    (*astr(g, i, "out_layout") && strcmp(astr(g, i, "out_layout"), astr(g, i, "layout"))))
		return refuse(g, i, "in this layout");
	if (gl) {
		ps[0] = x->dims[ph], ps[1] = x->dims[pw];
		st[0] = st[1] = dl[0] = dl[1] = 1;
		memset(p, 0, sizeof p);
	} else if (aints(g, i, "pool_size", ps, 2) != 2 || aints(g, i, "strides", st, 2) != 2 ||
	           aints(g, i, "dilation", dl, 2) != 2 || !pads(g, i, p)) {
		return refuse(g, i, "with these attributes");
	}
	strides(x, xst);
	strides(o, ost);
	cg_name(g, f, x, nx);
	cg_name(g, f, o, no);
	/* loops in the layout's order, the window inside */
	for (int k = 0; k < 4; k++) {
		const char *v = k == pn ? "n" : k == pc ? "c" : k == ph ? "oh" : "ow";
		cg_open(g, f, "for (int64_t %s = 0; %s < %lld; %s++) {", v, v, (long long)o->dims[k], v);
		open++;
	}
	cg_line(g, f, "const %s *x = %s + n * %lld + c * %lld;", cg_ctype(dt), nx, (long long)xst[pn], (long long)xst[pc]);
	if (op == OP_NN_MAX_POOL2D) {
		cg_line(g, f, "%s m = %s;", t, isflt(o->dt) ? "-INFINITY" : cg_lit((double)ir_dtype_min(o->dt), (DType)o->dt, lit));
	} else {
		cg_line(g, f, "%s s = 0;", isflt(o->dt) ? t : "int64_t");
		cg_line(g, f, "int64_t cnt = 0;");
	}
	cg_open(g, f, "for (int64_t kh = 0; kh < %lld; kh++) {", (long long)ps[0]);
	cg_line(g, f, "int64_t ih = oh * %lld - %lld + kh * %lld;", (long long)st[0], (long long)p[0], (long long)dl[0]);
	if (!gl) {
		cg_line(g, f, "if (ih < 0 || ih >= %lld)", (long long)x->dims[ph]);
		cg_line(g, f, "\tcontinue;");
	}
	cg_open(g, f, "for (int64_t kw = 0; kw < %lld; kw++) {", (long long)ps[1]);
	cg_line(g, f, "int64_t iw = ow * %lld - %lld + kw * %lld;", (long long)st[1], (long long)p[1], (long long)dl[1]);
	if (!gl) {
		cg_line(g, f, "if (iw < 0 || iw >= %lld)", (long long)x->dims[pw]);
		cg_line(g, f, "\tcontinue;");
	}
	sprintf(xi, "ih * %lld + iw * %lld", (long long)xst[ph], (long long)xst[pw]);
	cg_line(g, f, "%s v = %s;", t, elem(g, dt, "x", xi, e1));
	if (op == OP_NN_MAX_POOL2D) {
		cg_line(g, f, "m = v > m ? v : m;");
	} else {
		if (dt == DT_FLOAT16)
			cg_line(g, f, "s = %s;", hr(g, dt, "s + v", e1));
		else
			cg_line(g, f, "s += v;");
		cg_line(g, f, "cnt++;");
	}
	closen(f, 2);
	if (op == OP_NN_MAX_POOL2D) {
		cg_line(g, f, "%s[n * %lld + c * %lld + oh * %lld + ow * %lld] = %s;", no, (long long)ost[pn],
		        (long long)ost[pc], (long long)ost[ph], (long long)ost[pw], wr(g, dt, 0, "m", e1));
	} else {
		if (incl) {
			/* the window within the padded input */
			cg_line(g, f, "int64_t h0 = oh * %lld - %lld, w0 = ow * %lld - %lld;", (long long)st[0],
			        (long long)p[0], (long long)st[1], (long long)p[1]);
			cg_line(g, f, "int64_t h1 = h0 + %lld, w1 = w0 + %lld;", (long long)((ps[0] - 1) * dl[0] + 1),
			        (long long)((ps[1] - 1) * dl[1] + 1));
			cg_line(g, f, "h1 = h1 < %lld ? h1 : %lld;", (long long)(x->dims[ph] + p[2]), (long long)(x->dims[ph] + p[2]));
			cg_line(g, f, "w1 = w1 < %lld ? w1 : %lld;", (long long)(x->dims[pw] + p[3]), (long long)(x->dims[pw] + p[3]));
			cg_line(g, f, "cnt = (h1 - h0) * (w1 - w0);");
		}
		if (isflt(o->dt))
			/* float16: the count as a half, as the reference divides */
			cg_line(g, f, "%s[n * %lld + c * %lld + oh * %lld + ow * %lld] = %s;", no,
			        (long long)ost[pn], (long long)ost[pc], (long long)ost[ph], (long long)ost[pw],
			        wr(g, dt, 0, xf(e2, "cnt ? s / %s : 0", hr(g, dt, xf(e1, "(%s)cnt", t), e3)), e1));
		else
			/* tvm::sum in the data's dtype: the sum wraps, then divides truncating */
			cg_line(g, f, "%s[n * %lld + c * %lld + oh * %lld + ow * %lld] = (%s)(cnt ? (int64_t)(%s)s / cnt : 0);",
			        no, (long long)ost[pn], (long long)ost[pc], (long long)ost[ph], (long long)ost[pw], t, t);
	}
	closen(f, open);
	return 1;
}

/* ---------------------------------------------------------------- dense */

/* opnd: element x of dtype from read into an accumulator of float dtype
** to, as the reference reads it: converted to to (a float16 accumulator
** holds halves in a float) */
static const char *
opnd(Gen *g, DType from, DType to, const char *x, char *buf)
{
	char v[XB];

	if (to == DT_FLOAT16 && from != DT_FLOAT16) {
		convexpr(g, from, to, x, v);
		x = v;
	}
	if (to == DT_FLOAT16 || from == DT_FLOAT16)
		return wrap(g, "graft_h2f", x, buf);
	return xf(buf, "(%s)%s", cg_ctype(to), x);
}

/* macline: acc += x * y in float dtype dt (float16: both steps rounded
** to half, as the reference rounds them) */
static void
macline(Gen *g, Fn *f, DType dt, const char *x, const char *y)
{
	char p[XB], q[XB], s[XB];

	if (dt != DT_FLOAT16) {
		cg_line(g, f, "acc += %s * %s;", x, y);
		return;
	}
	xf(s, "acc + %s", hr(g, dt, xf(p, "%s * %s", x, y), q));
	cg_line(g, f, "acc = %s;", hr(g, dt, s, p));
}

static int
dense(Gen *g, Fn *f, Inst *i, int qnn)
{
	const Leaf *x = cg_leaf(f, i, 0), *w = cg_leaf(f, i, 1), *o = cg_out(f, i);
	int64_t K = x->dims[x->rank - 1], N = w->dims[0], M = x->n / (K ? K : 1), xz = 0;
	const char *acc = cty(o->dt), *wz = "0";
	char nx[64], nw[64], no[64], zb[64], xv[XB], wv[XB];

	if (w->rank != 2 || w->dims[1] != K)
		return refuse(g, i, "with this weight shape");
	if (qnn) {
		if (!ki(g, f, i, 2, &xz))
			return 0;
		if (!(wz = param(g, f, i, 3, DT_INT32, N, zb)))
			return refuse(g, i, "with quantization parameters that are not constants");
	}
	cg_name(g, f, x, nx);
	cg_name(g, f, w, nw);
	cg_name(g, f, o, no);
	cg_open(g, f, "for (int64_t m = 0; m < %lld; m++) {", (long long)M);
	cg_line(g, f, "const %s *x = %s + m * %lld;", cg_ctype(x->dt), nx, (long long)K);
	if (qnn) {
		cg_line(g, f, "int32_t xs = 0;");
		cg_line(g, f, "for (int64_t k = 0; k < %lld; k++)", (long long)K);
		cg_line(g, f, "\txs += x[k];");
	}
	cg_open(g, f, "for (int64_t c = 0; c < %lld; c++) {", (long long)N);
	cg_line(g, f, "const %s *w = %s + c * %lld;", cg_ctype(w->dt), nw, (long long)K);
	cg_line(g, f, "%s acc = 0;", qnn ? "int32_t" : acc);
	if (qnn)
		cg_line(g, f, "int32_t ws = 0;");
	cg_open(g, f, "for (int64_t k = 0; k < %lld; k++) {", (long long)K);
	if (qnn) {
		cg_line(g, f, "acc += (int32_t)x[k] * (int32_t)w[k];");
		cg_line(g, f, "ws += w[k];");
	} else {
		macline(g, f, (DType)o->dt, opnd(g, (DType)x->dt, (DType)o->dt, "x[k]", xv),
		        opnd(g, (DType)w->dt, (DType)o->dt, "w[k]", wv));
	}
	cg_close(f);
	if (qnn) {
		/* sum (x - xz)(w - wz) = sum xw - wz sum x - xz sum w + K xz wz */
		cg_line(g, f, "%s[m * %lld + c] = (int32_t)((uint32_t)acc - (uint32_t)%s * (uint32_t)xs - (uint32_t)%lld * (uint32_t)ws + (uint32_t)%lld * (uint32_t)%s);",
		        no, (long long)N, wz, (long long)xz, (long long)(K * xz), wz);
	} else {
		cg_line(g, f, "%s[m * %lld + c] = %s;", no, (long long)N, wr(g, (DType)o->dt, 0, "acc", xv));
	}
	closen(f, 2);
	return 1;
}

/* batchmatmul: nn.batch_matmul, a[B, I, K] (a[B, K, I] with transpose_a)
** times b[B, K, J] (b[B, J, K] with transpose_b), a batch of 1
** broadcast; the operands converted to out_dtype and summed over k from 0,
** integers in uint64 (wrapping), as the reference does */
static int
batchmatmul(Gen *g, Fn *f, Inst *i)
{
	const Leaf *x = cg_leaf(f, i, 0), *w = cg_leaf(f, i, 1), *o = cg_out(f, i);
	int ta = aint(g, i, "transpose_a", 0) != 0, tb = aint(g, i, "transpose_b", 0) != 0;
	long long B = o->dims[0], I = o->dims[1], J = o->dims[2], K = x->dims[ta ? 1 : 2];
	long long xs = x->dims[0] == 1 ? 0 : I * K, ws = w->dims[0] == 1 ? 0 : K * J;
	const char *t = cty(o->dt), *acc = isflt(o->dt) ? t : "uint64_t";
	char nx[64], nw[64], no[64], ix[64], iw[64], xe[XB], we[XB], xv[XB], wv[XB];

	if (isflt(o->dt) != isflt(x->dt) || isflt(o->dt) != isflt(w->dt) || o->dt == DT_BOOL)
		return refuse(g, i, "from these dtypes to out_dtype");
	cg_name(g, f, x, nx);
	cg_name(g, f, w, nw);
	cg_name(g, f, o, no);
	if (ta)
		snprintf(ix, sizeof ix, "k * %lld + i", I);
	else
		snprintf(ix, sizeof ix, "i * %lld + k", K);
	if (tb)
		snprintf(iw, sizeof iw, "j * %lld + k", K);
	else
		snprintf(iw, sizeof iw, "k * %lld + j", J);
	cg_open(g, f, "for (int64_t b = 0; b < %lld; b++) {", B);
	cg_open(g, f, "for (int64_t i = 0; i < %lld; i++) {", I);
	cg_open(g, f, "for (int64_t j = 0; j < %lld; j++) {", J);
	cg_line(g, f, "%s acc = 0;", acc);
	cg_open(g, f, "for (int64_t k = 0; k < %lld; k++) {", K);
	xf(xe, "%s[b * %lld + %s]", nx, xs, ix);
	xf(we, "%s[b * %lld + %s]", nw, ws, iw);
	if (isflt(o->dt))
		macline(g, f, (DType)o->dt, opnd(g, (DType)x->dt, (DType)o->dt, xe, xv), opnd(g, (DType)w->dt, (DType)o->dt, we, wv));
	else
		cg_line(g, f, "acc += (%s)%s * (%s)%s;", acc, xe, acc, we);
	cg_close(f);
	cg_line(g, f, "%s[(b * %lld + i) * %lld + j] = %s;", no, I, J,
	        o->dt == DT_FLOAT16 ? wr(g, (DType)o->dt, 0, "acc", xv) : xf(xv, "(%s)acc", t));
	closen(f, 3);
	return 1;
}

/* ---------------------------------------------------------------- conv2d */

/* Conv: the geometry of one conv2d. */
typedef struct Conv {
	int nchw, dw;           /* data layout NCHW (else NHWC); depthwise NHWC path */
	int64_t N, C, H, W, OC, OH, OW, KH, KW, ICG, OCG, G, K;
	int64_t sh, sw, dh, dwl, p[4], HP, WP;
	int64_t wo, wi, wh, ww; /* kernel strides of O, I, H, W */
} Conv;

/* warrange: the weights in the order the loops read them: NCHW
** [oc][ic][kh][kw]; NHWC [g][kh][kw][ic][og]; depthwise NHWC [kh][kw][c].
** Sets cd (dims) and cs (strides into the kernel), returns the rank. */
static int
warrange(const Conv *c, int64_t *cd, int64_t *cs)
{
	if (c->nchw) {
		int64_t d[4] = { c->OC, c->ICG, c->KH, c->KW }, s[4] = { c->wo, c->wi, c->wh, c->ww };
		memcpy(cd, d, sizeof d), memcpy(cs, s, sizeof s);
		return 4;
	}
	if (c->dw) {
		int64_t d[3] = { c->KH, c->KW, c->OC }, s[3] = { c->wh, c->ww, c->wo };
		memcpy(cd, d, sizeof d), memcpy(cs, s, sizeof s);
		return 3;
	}
	{
		int64_t d[5] = { c->G, c->KH, c->KW, c->ICG, c->OCG };
		int64_t s[5] = { c->OCG * c->wo, c->wh, c->ww, c->wi, c->wo };
		memcpy(cd, d, sizeof d), memcpy(cs, s, sizeof s);
		return 5;
	}
}

/* wsum_oc: the output channel of element e of the arranged weights */
static int64_t
woc(const Conv *c, int64_t e)
{
	if (c->nchw)
		return e / c->K;
	if (c->dw)
		return e % c->OC;
	return (e / (c->K * c->OCG)) * c->OCG + e % c->OCG;
}

/* convref: conv2d c of x by w into o, any of them float16, as the
** reference sums it: per output element, over (ic, kh, kw) in order, a
** padded tap reading 0, each product and sum rounded to out_dtype */
static int
convref(Gen *g, Fn *f, Inst *i, const Conv *c, const int *pos)
{
	const Leaf *x = cg_leaf(f, i, 0), *w = cg_leaf(f, i, 1), *o = cg_out(f, i);
	DType dt = (DType)o->dt;
	int64_t xst[MAXD], ost[MAXD];
	char nx[64], nw[64], no[64], xe[XB], we[XB], xv[XB], wv[XB];

	strides(x, xst);
	strides(o, ost);
	cg_name(g, f, x, nx);
	cg_name(g, f, w, nw);
	cg_name(g, f, o, no);
	cg_open(g, f, "for (int64_t n = 0; n < %lld; n++) {", (long long)c->N);
	cg_open(g, f, "for (int64_t oc = 0; oc < %lld; oc++) {", (long long)c->OC);
	cg_line(g, f, "const int64_t g = oc / %lld;", (long long)c->OCG);
	cg_open(g, f, "for (int64_t oh = 0; oh < %lld; oh++) {", (long long)c->OH);
	cg_open(g, f, "for (int64_t ow = 0; ow < %lld; ow++) {", (long long)c->OW);
	cg_line(g, f, "%s acc = 0;", cty(dt));
	cg_open(g, f, "for (int64_t ic = 0; ic < %lld; ic++) {", (long long)c->ICG);
	cg_open(g, f, "for (int64_t kh = 0; kh < %lld; kh++) {", (long long)c->KH);
	cg_line(g, f, "int64_t ih = oh * %lld - %lld + kh * %lld;", (long long)c->sh, (long long)c->p[0], (long long)c->dh);
	cg_open(g, f, "for (int64_t kw = 0; kw < %lld; kw++) {", (long long)c->KW);
	cg_line(g, f, "int64_t iw = ow * %lld - %lld + kw * %lld;", (long long)c->sw, (long long)c->p[1], (long long)c->dwl);
	xf(xe, "%s[n * %lld + (g * %lld + ic) * %lld + ih * %lld + iw * %lld]", nx, (long long)xst[pos[0]],
	   (long long)c->ICG, (long long)xst[pos[1]], (long long)xst[pos[2]], (long long)xst[pos[3]]);
	cg_line(g, f, "%s xv = ih >= 0 && ih < %lld && iw >= 0 && iw < %lld ? %s : 0;", cty(dt), (long long)c->H,
	        (long long)c->W, opnd(g, (DType)x->dt, dt, xe, xv));
	xf(we, "%s[oc * %lld + ic * %lld + kh * %lld + kw * %lld]", nw, (long long)c->wo, (long long)c->wi,
	   (long long)c->wh, (long long)c->ww);
	macline(g, f, dt, "xv", opnd(g, (DType)w->dt, dt, we, wv));
	closen(f, 3);
	cg_line(g, f, "%s[n * %lld + oc * %lld + oh * %lld + ow * %lld] = %s;", no, (long long)ost[pos[0]],
	        (long long)ost[pos[1]], (long long)ost[pos[2]], (long long)ost[pos[3]], wr(g, dt, 0, "acc", xv));
	closen(f, 4);
	return 1;
}

static int
conv2d(Gen *g, Fn *f, Inst *i, int qnn)
{
	const Leaf *x = cg_leaf(f, i, 0), *w = cg_leaf(f, i, 1), *o = cg_out(f, i);
	const char *kl = astr(g, i, "kernel_layout"), *ol = astr(g, i, "out_layout");
	const char *xt = cg_ctype(x->dt), *wt = cg_ctype(w->dt), *ot = cg_ctype(o->dt);
	const char *at = qnn ? "int32_t" : ot;
	int pn, pc, ph, pw, rank;
	int64_t v[2], xz = 0, *wzv = NULL, cd[5], cs[5], wst[MAXD];
	int anywz = 0, kconst;
	Conv c;
	char nx[64], nw[64], no[64], xp[64], wr[64], corr[64] = "", xs[64] = "", wzs[64] = "", padv[64];

	memset(&c, 0, sizeof c);
	if (x->rank != 4 || w->rank != 4 || !hw(astr(g, i, "data_layout"), &pn, &pc, &ph, &pw) ||
	    (*ol && strcmp(ol, astr(g, i, "data_layout"))))
		return refuse(g, i, "in this data layout");
	if (strlen(kl) != 4 || !strchr(kl, 'O') || !strchr(kl, 'I') || !strchr(kl, 'H') || !strchr(kl, 'W'))
		return refuse(g, i, "in this kernel layout");
	if (isflt(x->dt) != isflt(o->dt) || (qnn && (isflt(x->dt) || ir_dtype_bytes[x->dt] > 2 ||
	    ir_dtype_bytes[w->dt] > 2 || o->dt != DT_INT32)))
		return refuse(g, i, "on these dtypes");
	c.nchw = pc == 1;
	c.N = x->dims[pn], c.C = x->dims[pc], c.H = x->dims[ph], c.W = x->dims[pw];
	c.OC = o->dims[pc], c.OH = o->dims[ph], c.OW = o->dims[pw];
	strides(w, wst);
	c.KH = w->dims[strchr(kl, 'H') - kl], c.KW = w->dims[strchr(kl, 'W') - kl];
	c.ICG = w->dims[strchr(kl, 'I') - kl];
	c.wo = wst[strchr(kl, 'O') - kl], c.wi = wst[strchr(kl, 'I') - kl];
	c.wh = wst[strchr(kl, 'H') - kl], c.ww = wst[strchr(kl, 'W') - kl];
	c.G = aint(g, i, "groups", 1);
	if (c.G < 1 || c.OC % c.G || c.C != c.ICG * c.G || w->dims[strchr(kl, 'O') - kl] != c.OC)
		return refuse(g, i, "with these groups");
	c.OCG = c.OC / c.G;
	c.K = c.ICG * c.KH * c.KW;
	c.dw = !c.nchw && c.ICG == 1 && c.OCG == 1;
	if (aints(g, i, "strides", v, 2) != 2)
		return refuse(g, i, "with these strides");
	c.sh = v[0], c.sw = v[1];
	if (aints(g, i, "dilation", v, 2) != 2)
		return refuse(g, i, "with this dilation");
	c.dh = v[0], c.dwl = v[1];
	if (!pads(g, i, c.p))
		return refuse(g, i, "with this padding");
	c.HP = c.H + c.p[0] + c.p[2], c.WP = c.W + c.p[1] + c.p[3];
	if (x->dt == DT_FLOAT16 || w->dt == DT_FLOAT16 || o->dt == DT_FLOAT16) {
		int pos[4] = { pn, pc, ph, pw };
		return convref(g, f, i, &c, pos);
	}
	if (qnn) {
		if (!ki(g, f, i, 2, &xz))
			return 0;
		wzv = ir_xmalloc((size_t)c.OC * sizeof *wzv);
		for (int64_t k = 0; k < c.OC; k++) {
			if (!cg_kint(g, f, i, 3, k, &wzv[k])) {
				free(wzv);
				return refuse(g, i, "with quantization parameters that are not constants");
			}
			anywz |= wzv[k] != 0;
		}
	}
	cg_name(g, f, x, nx);
	cg_name(g, f, o, no);
	rank = warrange(&c, cd, cs);
	kconst = g->m->nodes[cg_op(f, i, 1)->node].kind == NK_CONST;

	/* the weights in loop order, and the zero-point terms that do not
	** depend on the data: corr[oc] = xz * sum w - K * xz * wz[oc] */
	if (kconst) {
		const Const *k = &g->m->consts[g->m->nodes[cg_op(f, i, 1)->node].aux];
		size_t esz = ir_dtype_bytes[w->dt];
		unsigned char *data = ir_xmalloc((size_t)w->n * esz);
		int64_t idx[5] = { 0 }, off = 0, *ws = ir_xcalloc((size_t)c.OC, sizeof *ws);
		for (int64_t e = 0; e < w->n; e++) {
			int64_t val;
			memcpy(data + (size_t)e * esz, (unsigned char *)k->data + (size_t)off * esz, esz);
			if (qnn && cg_kint(g, f, i, 1, off, &val))
				ws[woc(&c, e)] += val;
			for (int q = rank - 1; q >= 0; q--) {
				off += cs[q];
				if (++idx[q] < cd[q])
					break;
				off -= cs[q] * cd[q];
				idx[q] = 0;
			}
		}
		cg_carray(g, (DType)w->dt, w->n, data, "weights in loop order", wr);
		if (qnn && xz) {
			int32_t *cv = ir_xmalloc((size_t)c.OC * 4);
			for (int64_t oc = 0; oc < c.OC; oc++)
				cv[oc] = (int32_t)(uint32_t)((uint64_t)(xz * ws[oc]) - (uint64_t)(c.K * xz * wzv[oc]));
			cg_carray(g, DT_INT32, c.OC, cv, "zero-point terms per output channel", corr);
		}
		free(ws);
	} else {
		int open;
		char wi[256], oi[256];
		int64_t ost[5], s = 1;
		cg_name(g, f, w, nw);
		cg_line(g, f, "/* the weights in loop order */");
		cg_scratch(g, f, (DType)w->dt, w->n, wr);
		for (int q = rank - 1; q >= 0; q--)
			ost[q] = s, s *= cd[q];
		idxexpr(rank, ost, 0, oi);
		idxexpr(rank, cs, 0, wi);
		open = loops(g, f, rank, cd);
		cg_line(g, f, "%s[%s] = %s[%s];", wr, oi, nw, wi);
		closen(f, open);
		if (qnn && xz) {
			char wzl[64];
			cg_scratch(g, f, DT_INT32, c.OC, corr);
			cg_line(g, f, "for (int64_t oc = 0; oc < %lld; oc++)", (long long)c.OC);
			cg_line(g, f, "\t%s[oc] = 0;", corr);
			cg_line(g, f, "for (int64_t e = 0; e < %lld; e++)", (long long)w->n);
			if (c.nchw)
				cg_line(g, f, "\t%s[e / %lld] += %s[e];", corr, (long long)c.K, wr);
			else if (c.dw)
				cg_line(g, f, "\t%s[e %% %lld] += %s[e];", corr, (long long)c.OC, wr);
			else
				cg_line(g, f, "\t%s[e / %lld * %lld + e %% %lld] += %s[e];", corr, (long long)(c.K * c.OCG),
				        (long long)c.OCG, (long long)c.OCG, wr);
			cg_line(g, f, "for (int64_t oc = 0; oc < %lld; oc++)", (long long)c.OC);
			if (anywz) {
				int32_t *wzc = ir_xmalloc((size_t)c.OC * 4);
				for (int64_t k = 0; k < c.OC; k++)
					wzc[k] = (int32_t)wzv[k];
				cg_carray(g, DT_INT32, c.OC, wzc, "kernel zero points", wzl);
				cg_line(g, f, "\t%s[oc] = (int32_t)((uint32_t)%lld * (uint32_t)%s[oc] - (uint32_t)%lld * (uint32_t)%s[oc]);",
				        corr, (long long)xz, corr, (long long)(c.K * xz), wzl);
			} else {
				cg_line(g, f, "\t%s[oc] = (int32_t)((uint32_t)%lld * (uint32_t)%s[oc]);", corr, (long long)xz, corr);
			}
		}
	}
	if (anywz) {
		int32_t *wzc = ir_xmalloc((size_t)c.OC * 4);
		for (int64_t k = 0; k < c.OC; k++)
			wzc[k] = (int32_t)wzv[k];
		cg_carray(g, DT_INT32, c.OC, wzc, "kernel zero points", wzs);
	}
	free(wzv);

	/* the input padded (with the input zero point for qnn) */
	if (c.p[0] || c.p[1] || c.p[2] || c.p[3]) {
		int64_t rowl = c.nchw ? c.W : c.W * c.C;
		cg_line(g, f, "/* the input padded with %s */", qnn ? "its zero point" : "zeros");
		cg_scratch(g, f, (DType)x->dt, c.N * c.C * c.HP * c.WP, xp);
		cg_line(g, f, "for (int64_t i = 0; i < %lld; i++)", (long long)(c.N * c.C * c.HP * c.WP));
		cg_line(g, f, "\t%s[i] = %s;", xp, qnn ? (sprintf(padv, "%lld", (long long)xz), padv) : "0");
		cg_open(g, f, "for (int64_t r = 0; r < %lld; r++) {", (long long)(c.nchw ? c.N * c.C : c.N));
		cg_line(g, f, "for (int64_t h = 0; h < %lld; h++)", (long long)c.H);
		cg_line(g, f, "\tmemcpy(%s + (r * %lld + h + %lld) * %lld + %lld, %s + (r * %lld + h) * %lld, %lld);", xp,
		        (long long)c.HP, (long long)c.p[0], (long long)(c.nchw ? c.WP : c.WP * c.C),
		        (long long)(c.nchw ? c.p[1] : c.p[1] * c.C), nx, (long long)c.H, (long long)rowl,
		        (long long)(rowl * ir_dtype_bytes[x->dt]));
		cg_close(f);
	} else {
		strcpy(xp, nx);
	}
	/* NCHW: the window sums of the input for the kernel zero points */
	if (anywz && c.nchw) {
		cg_line(g, f, "/* the input's window sums, for the kernel zero points */");
		cg_scratch(g, f, DT_INT32, c.N * c.G * c.OH * c.OW, xs);
		cg_open(g, f, "for (int64_t n = 0; n < %lld; n++) {", (long long)c.N);
		cg_open(g, f, "for (int64_t g = 0; g < %lld; g++) {", (long long)c.G);
		cg_open(g, f, "for (int64_t oh = 0; oh < %lld; oh++) {", (long long)c.OH);
		cg_open(g, f, "for (int64_t ow = 0; ow < %lld; ow++) {", (long long)c.OW);
		cg_line(g, f, "int32_t s = 0;");
		cg_line(g, f, "for (int64_t ic = 0; ic < %lld; ic++)", (long long)c.ICG);
		cg_line(g, f, "\tfor (int64_t kh = 0; kh < %lld; kh++)", (long long)c.KH);
		cg_line(g, f, "\t\tfor (int64_t kw = 0; kw < %lld; kw++)", (long long)c.KW);
		cg_line(g, f, "\t\t\ts += %s[((n * %lld + g * %lld + ic) * %lld + oh * %lld + kh * %lld) * %lld + ow * %lld + kw * %lld];",
		        xp, (long long)c.C, (long long)c.ICG, (long long)c.HP, (long long)c.sh, (long long)c.dh,
		        (long long)c.WP, (long long)c.sw, (long long)c.dwl);
		cg_line(g, f, "%s[((n * %lld + g) * %lld + oh) * %lld + ow] = s;", xs, (long long)c.G, (long long)c.OH,
		        (long long)c.OW);
		closen(f, 4);
	}

	if (c.nchw) {
		/* for each output row, accumulate over (ic, kh, kw) a whole row of
		** outputs at once: the innermost loop runs along the row */
		cg_open(g, f, "for (int64_t n = 0; n < %lld; n++) {", (long long)c.N);
		cg_open(g, f, "for (int64_t oc = 0; oc < %lld; oc++) {", (long long)c.OC);
		cg_line(g, f, "const int64_t g = oc / %lld;", (long long)c.OCG);
		cg_line(g, f, "const %s *wo = %s + oc * %lld;", wt, wr, (long long)c.K);
		cg_open(g, f, "for (int64_t oh = 0; oh < %lld; oh++) {", (long long)c.OH);
		cg_line(g, f, "%s acc[%lld];", at, (long long)c.OW);
		cg_line(g, f, "for (int64_t ow = 0; ow < %lld; ow++)", (long long)c.OW);
		cg_line(g, f, "\tacc[ow] = 0;");
		cg_open(g, f, "for (int64_t ic = 0; ic < %lld; ic++) {", (long long)c.ICG);
		cg_open(g, f, "for (int64_t kh = 0; kh < %lld; kh++) {", (long long)c.KH);
		cg_line(g, f, "const %s *xr = %s + ((n * %lld + g * %lld + ic) * %lld + oh * %lld + kh * %lld) * %lld;", xt,
		        xp, (long long)c.C, (long long)c.ICG, (long long)c.HP, (long long)c.sh, (long long)c.dh,
		        (long long)c.WP);
		cg_open(g, f, "for (int64_t kw = 0; kw < %lld; kw++) {", (long long)c.KW);
		cg_line(g, f, "const %s wv = wo[(ic * %lld + kh) * %lld + kw];", at, (long long)c.KH, (long long)c.KW);
		cg_line(g, f, "const %s *xk = xr + kw * %lld;", xt, (long long)c.dwl);
		cg_line(g, f, "for (int64_t ow = 0; ow < %lld; ow++)", (long long)c.OW);
		if (c.sw == 1)
			cg_line(g, f, "\tacc[ow] += (%s)xk[ow] * wv;", at);
		else
			cg_line(g, f, "\tacc[ow] += (%s)xk[ow * %lld] * wv;", at, (long long)c.sw);
		closen(f, 3);
		cg_line(g, f, "%s *orow = %s + ((n * %lld + oc) * %lld + oh) * %lld;", ot, no, (long long)c.OC,
		        (long long)c.OH, (long long)c.OW);
		cg_line(g, f, "for (int64_t ow = 0; ow < %lld; ow++)", (long long)c.OW);
		if (anywz)
			cg_line(g, f, "\torow[ow] = (int32_t)((uint32_t)acc[ow] - (uint32_t)%s[oc] * (uint32_t)%s[((n * %lld + g) * %lld + oh) * %lld + ow]%s%s%s);",
			        wzs, xs, (long long)c.G, (long long)c.OH, (long long)c.OW, *corr ? " - (uint32_t)" : "",
			        corr, *corr ? "[oc]" : "");
		else if (*corr)
			cg_line(g, f, "\torow[ow] = (int32_t)((uint32_t)acc[ow] - (uint32_t)%s[oc]);", corr);
		else
			cg_line(g, f, "\torow[ow] = acc[ow];");
		closen(f, 3);
		return 1;
	}
	/* NHWC: for each output pixel, accumulate the output channels of a
	** group at once: the innermost loop runs along them */
	{
		int64_t na = c.dw ? c.OC : c.OCG;
		cg_open(g, f, "for (int64_t n = 0; n < %lld; n++) {", (long long)c.N);
		cg_open(g, f, "for (int64_t oh = 0; oh < %lld; oh++) {", (long long)c.OH);
		cg_open(g, f, "for (int64_t ow = 0; ow < %lld; ow++) {", (long long)c.OW);
		cg_line(g, f, "%s *opix = %s + ((n * %lld + oh) * %lld + ow) * %lld;", ot, no, (long long)c.OH,
		        (long long)c.OW, (long long)c.OC);
		if (!c.dw)
			cg_open(g, f, "for (int64_t g = 0; g < %lld; g++) {", (long long)c.G);
		cg_line(g, f, "%s acc[%lld];", at, (long long)na);
		if (anywz)
			cg_line(g, f, "int32_t xs[%lld];", (long long)(c.dw ? c.OC : 1));
		cg_line(g, f, "for (int64_t og = 0; og < %lld; og++)", (long long)na);
		cg_line(g, f, "\tacc[og] = 0;");
		if (anywz)
			cg_line(g, f, "for (int64_t og = 0; og < %lld; og++)", (long long)(c.dw ? c.OC : 1)),
			cg_line(g, f, "\txs[og] = 0;");
		cg_open(g, f, "for (int64_t kh = 0; kh < %lld; kh++) {", (long long)c.KH);
		cg_open(g, f, "for (int64_t kw = 0; kw < %lld; kw++) {", (long long)c.KW);
		cg_line(g, f, "const %s *xr = %s + ((n * %lld + oh * %lld + kh * %lld) * %lld + ow * %lld + kw * %lld) * %lld%s;",
		        xt, xp, (long long)c.HP, (long long)c.sh, (long long)c.dh, (long long)c.WP, (long long)c.sw,
		        (long long)c.dwl, (long long)c.C, c.dw ? "" : (sprintf(padv, " + g * %lld", (long long)c.ICG), padv));
		if (c.dw) {
			cg_line(g, f, "const %s *wk = %s + (kh * %lld + kw) * %lld;", wt, wr, (long long)c.KW, (long long)c.OC);
			cg_open(g, f, "for (int64_t og = 0; og < %lld; og++) {", (long long)c.OC);
			cg_line(g, f, "acc[og] += (%s)xr[og] * (%s)wk[og];", at, at);
			if (anywz)
				cg_line(g, f, "xs[og] += xr[og];");
			cg_close(f);
		} else {
			cg_line(g, f, "const %s *wk = %s + ((g * %lld + kh) * %lld + kw) * %lld;", wt, wr, (long long)c.KH,
			        (long long)c.KW, (long long)(c.ICG * c.OCG));
			cg_open(g, f, "for (int64_t ic = 0; ic < %lld; ic++) {", (long long)c.ICG);
			cg_line(g, f, "const %s xv = xr[ic];", at);
			if (anywz)
				cg_line(g, f, "xs[0] += xv;");
			cg_line(g, f, "for (int64_t og = 0; og < %lld; og++)", (long long)c.OCG);
			cg_line(g, f, "\tacc[og] += xv * (%s)wk[ic * %lld + og];", at, (long long)c.OCG);
			cg_close(f);
		}
		closen(f, 2);
		{
			const char *oc = c.dw ? "og" : (sprintf(padv, "g * %lld + og", (long long)c.OCG), padv);
			char ocb[64];
			snprintf(ocb, sizeof ocb, "%s", oc);
			cg_line(g, f, "for (int64_t og = 0; og < %lld; og++)", (long long)na);
			if (anywz)
				cg_line(g, f, "\topix[%s] = (int32_t)((uint32_t)acc[og] - (uint32_t)%s[%s] * (uint32_t)xs[%s]%s%s%s%s%s);",
				        ocb, wzs, ocb, c.dw ? "og" : "0", *corr ? " - (uint32_t)" : "", corr, *corr ? "[" : "",
				        *corr ? ocb : "", *corr ? "]" : "");
			else if (*corr)
				cg_line(g, f, "\topix[%s] = (int32_t)((uint32_t)acc[og] - (uint32_t)%s[%s]);", ocb, corr, ocb);
			else
				cg_line(g, f, "\topix[%s] = acc[og];", ocb);
		}
		closen(f, c.dw ? 3 : 4);
	}
	return 1;
}

/* ---------------------------------------------------------------- plugin kernels */

/* ilit: v as an int64_t literal (INT64_MIN has none of its own) */
static const char *
ilit(int64_t v, char *buf)
{
	if (v == INT64_MIN)
		return strcpy(buf, "(-INT64_C(9223372036854775807) - 1)");
	sprintf(buf, "INT64_C(%lld)", (long long)v);
	return buf;
}

/* cstr: n bytes at s to o as a C string literal (printable ASCII as is,
** but for '?', no trigraphs; the rest in octal) */
static void
cstr(FILE *o, const char *s, int32_t n)
{
	fputc('"', o);
	for (int32_t k = 0; k < n; k++) {
		unsigned char ch = (unsigned char)s[k];
		if (ch == '"' || ch == '\\')
			fprintf(o, "\\%c", ch);
		else if (ch >= 32 && ch < 127 && ch != '?')
			fputc(ch, o);
		else
			fprintf(o, "\\%03o", ch);
	}
	fputc('"', o);
}

/* kernel: a call of a plugin's op with a C kernel (ir/kernel.h): its
** operands and result as graft_tensors, its attributes (ir_kattrs) as
** static const data, the kernel called by its symbol (through the
** pointer graft_kfn_SYMBOL that graft sets, when the code is for running
** in-process: be_c_emit_run); a nonzero return returns 4 */
static int
kernel(Gen *g, Fn *f, Inst *i, OpId op, const char *sym)
{
	const Module *m = g->m;
	const OpInfo *o = &ir_ops[op];
	graft_attr *ka;
	void *mem;
	uint32_t nin = 0;
	char nb[32], lit[64], *line = NULL;
	size_t len = 0;
	FILE *s;

	for (uint32_t k = 0; k < i->nops; k++)
		if (cg_op(f, i, k)->nval != 1)
			return refuse(g, i, "with a C kernel: an operand is not a tensor");
	if (i->nval != 1)
		return refuse(g, i, "with a C kernel: its result is not one tensor");
	ka = ir_xcalloc((size_t)o->nattrs + 1, sizeof *ka);
	mem = ir_kattrs(m, op, ir_attrs(m, i->node), ka);
	g->kused[op] = 1;
	cg_open(g, f, "{");
	/* the shapes: the operands', then the result's */
	for (uint32_t k = 0; k <= i->nops; k++) {
		const Leaf *l = k < i->nops ? cg_leaf(f, i, k) : cg_out(f, i);
		s = open_memstream(&line, &len);
		fprintf(s, "static const int64_t shape%u[%d] = {", k, l->rank ? l->rank : 1);
		for (int d = 0; d < l->rank; d++)
			fprintf(s, "%s %lld", d ? "," : "", (long long)l->dims[d]);
		fprintf(s, "%s };", l->rank ? "" : " 0");
		fclose(s);
		cg_line(g, f, "%s", line);
		free(line);
		line = NULL;
	}
	/* the attributes' arrays, then the attributes */
	for (int k = 0; k < o->nattrs; k++) {
		const graft_attr *a = &ka[k];
		if (a->kind != GRAFT_ATTR_INTS && a->kind != GRAFT_ATTR_FLOATS)
			continue;
		s = open_memstream(&line, &len);
		fprintf(s, "static const %s attr%d[%d] = {", a->kind == GRAFT_ATTR_INTS ? "int64_t" : "double", k,
		        a->n ? a->n : 1);
		for (int32_t j = 0; j < a->n; j++)
			fprintf(s, "%s %s", j ? "," : "", a->kind == GRAFT_ATTR_INTS ? ilit(a->ints[j], lit) :
			        cg_lit(a->floats[j], DT_FLOAT64, lit));
		fprintf(s, "%s };", a->n ? "" : " 0");
		fclose(s);
		cg_line(g, f, "%s", line);
		free(line);
		line = NULL;
	}
	cg_open(g, f, "static const graft_attr attrs[%d] = {", o->nattrs ? o->nattrs : 1);
	for (int k = 0; k < o->nattrs; k++) {
		const graft_attr *a = &ka[k];
		s = open_memstream(&line, &len);
		fprintf(s, "{ %d, %d, %s, ", (int)a->kind, (int)a->n, ilit(a->i, lit));
		fprintf(s, "%s, ", cg_lit(a->f, DT_FLOAT64, lit));
		fprintf(s, a->kind == GRAFT_ATTR_INTS ? "attr%d, 0, " : a->kind == GRAFT_ATTR_FLOATS ? "0, attr%d, " :
		        "0, 0, ", k);
		if (a->kind == GRAFT_ATTR_STRING)
			cstr(s, a->s, a->n);
		else
			fputc('0', s);
		fprintf(s, " },   /* %s */", o->attrs[k].name);
		fclose(s);
		cg_line(g, f, "%s", line);
		free(line);
		line = NULL;
	}
	if (!o->nattrs)
		cg_line(g, f, "{ 0, 0, 0, 0.0, 0, 0, 0 }");
	f->depth--;
	cg_line(g, f, "};");
	cg_open(g, f, "graft_tensor kin[%u] = {", i->nops ? i->nops : 1);
	for (uint32_t k = 0; k < i->nops; k++, nin++) {
		const Leaf *l = cg_leaf(f, i, k);
		cg_line(g, f, "{ (void *)%s, shape%u, %d, %d },", cg_name(g, f, l, nb), k, l->rank,
		        (int)ir_kdtype((DType)l->dt));
	}
	if (!i->nops)
		cg_line(g, f, "{ 0, 0, 0, 0 }");
	f->depth--;
	cg_line(g, f, "};");
	cg_line(g, f, "graft_tensor kout = { %s, shape%u, %d, %d };", cg_name(g, f, cg_out(f, i), nb), i->nops,
	        cg_out(f, i)->rank, (int)ir_kdtype((DType)cg_out(f, i)->dt));
	cg_line(g, f, "if (%s%s(kin, %u, &kout, 1, attrs) != 0)", g->callout ? "graft_kfn_" : "", sym, nin);
	cg_line(g, f, "\treturn 4;");
	cg_close(f);
	free(mem);
	free(ka);
	return 1;
}

/* ---------------------------------------------------------------- dispatch */

int
cg_op_alias(OpId op)
{
	return op < OP_COUNT && (ir_ops[op].flags & OPF_VIEW);
}

int
cg_op_emit(Gen *g, Fn *f, Inst *i)
{
	OpId op = g->m->nodes[i->node].op;

	switch (op) {
	case OP_CAST: case OP_LOGICAL_NOT:
		return unary(g, f, i, op);
	case OP_ISNAN: case OP_ISINF: case OP_ISFINITE: return classify(g, f, i, op);
	case OP_BITWISE_AND: case OP_BITWISE_OR: case OP_BITWISE_XOR: case OP_BITWISE_NOT:
	case OP_LEFT_SHIFT: case OP_RIGHT_SHIFT:
		return bitwise(g, f, i, op);
	case OP_CUMSUM: case OP_CUMPROD: return scan(g, f, i, op);
	case OP_BROADCAST_TO: return broadcastto(g, f, i);
	case OP_EQUAL: case OP_NOT_EQUAL: case OP_LESS: case OP_LESS_EQUAL: case OP_GREATER:
	case OP_GREATER_EQUAL: case OP_LOGICAL_AND: case OP_LOGICAL_OR:
		return compare(g, f, i, op);
	case OP_WHERE: return where(g, f, i);
	case OP_TAKE: case OP_GATHER: return take(g, f, i);
	case OP_SUM: case OP_PROD: case OP_MAX: case OP_MIN: case OP_ARGMAX: case OP_ARGMIN:
		return reduce(g, f, i, op);
	case OP_NN_BIAS_ADD: return biasadd(g, f, i);
	case OP_QNN_QUANTIZE: return quantize(g, f, i);
	case OP_QNN_DEQUANTIZE: return dequantize(g, f, i);
	case OP_QNN_REQUANTIZE: return requantize(g, f, i);
	case OP_QNN_ADD: case OP_QNN_MUL: return qbinary(g, f, i, op);
	case OP_CONCATENATE: return concat(g, f, i, 0);
	case OP_QNN_CONCATENATE: return concat(g, f, i, 1);
	case OP_SPLIT: return split(g, f, i);
	case OP_TRANSPOSE: return transpose(g, f, i);
	case OP_LAYOUT_TRANSFORM: return layouttransform(g, f, i);
	case OP_EINSUM: return einsum(g, f, i);
	case OP_NN_BATCH_NORM: return batchnorm(g, f, i);
	case OP_NN_LAYER_NORM: case OP_NN_GROUP_NORM: case OP_NN_INSTANCE_NORM: return norm(g, f, i);
	case OP_STRIDED_SLICE: return slice(g, f, i);
	case OP_NN_PAD: return pad(g, f, i);
	case OP_IMAGE_RESIZE2D: return resize(g, f, i);
	case OP_NN_SOFTMAX: return softmax(g, f, i);
	case OP_MEAN: return mean(g, f, i);
	case OP_NN_MAX_POOL2D: case OP_NN_AVG_POOL2D: case OP_NN_GLOBAL_AVG_POOL2D: return pool(g, f, i, op);
	case OP_NN_DENSE: return dense(g, f, i, 0);
	case OP_NN_BATCH_MATMUL: return batchmatmul(g, f, i);
	case OP_QNN_DENSE: return dense(g, f, i, 1);
	case OP_NN_CONV2D: return conv2d(g, f, i, 0);
	case OP_QNN_CONV2D: return conv2d(g, f, i, 1);
	default: {
		const char *sym;
		if (ir_op_is_scalar(op))
			return scalar(g, f, i, op);
		if (ref_ckernel(op, &sym))
			return kernel(g, f, i, op, sym);
		ir_error(g->d, g->m->locs[i->node], "the c backend cannot run %s yet%s", ir_ops[op].name,
		         op >= OP_COUNT ? ": the plugin that registers it gives it no C kernel (graft_plugin_add_op)" : "");
		return 0;
	}
	}
}
