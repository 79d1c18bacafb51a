/*
** verify.c: `graftc verify FILE.rules`, differential verification of a
** ruleset's rewrite rules and a target's composites.  For each pattern
** variant of each rule, random instances are built from the pattern:
** parameters and constants of random shapes and dtypes at its leaves, the
** pattern's ops with its attribute literals and random values for the
** attributes it leaves free.  Those that type-check and where the rule
** fires (its guard holds) are kept: the rule is applied alone (until it
** no longer matches; a composite: the target's partitioning), and both
** graphs run on the reference interpreter on the same random inputs,
** edge values among them.  Outputs must agree bit for bit, or within the
** rule's `within TOL`; a difference is a counterexample, written as a
** Relay module and its inputs as .npy files.  Deterministic for a seed,
** bounded by a number of tries per variant.
*/
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsl.h"
#include "interp.h"
#include "npy.h"
#include "partition.h"
#include "ref.h"
#include "text.h"
#include "verify.h"

enum { MAXPARAMS = 32, MAXNAMES = 64 };

typedef struct Rng {
	uint64_t s;
} Rng;

static uint64_t
next(Rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static int
pick(Rng *r, int n)
{
	return (int)(next(r) % (uint64_t)n);
}

/* One instance being built. */
typedef struct Inst {
	Module *m;
	Rng *r;
	int rank;               /* the instance's tensors: this rank ... */
	int64_t dims[4];        /* ... these dims ... */
	DType dt;               /* ... mostly this dtype */
	NodeId params[MAXPARAMS];
	uint32_t nparams;
	struct { const char *name; NodeId n; } b[MAXNAMES];
	uint32_t nb;
	int bad;
} Inst;

static const DType dtypes[] = { DT_FLOAT32, DT_INT8, DT_UINT8, DT_INT32, DT_INT16 };

/* ttype: a tensor type of the instance: its shape, or a scalar */
static TypeId
ttype(Inst *in, DType dt, int scalar)
{
	return scalar ? ir_type_scalar(in->m, dt) : ir_type_tensor(in->m, dt, in->rank, in->dims);
}

static NodeId
param(Inst *in)
{
	char name[16];
	DType dt = pick(in->r, 4) ? in->dt : dtypes[pick(in->r, 5)];
	NodeId n;

	if (in->nparams == MAXPARAMS) {
		in->bad = 1;
		return 0;
	}
	snprintf(name, sizeof name, "p%u", in->nparams);
	n = ir_var(in->m, ir_sym(in->m, name, strlen(name)), ttype(in, dt, 0), (Loc){ 1, 1, 1 });
	in->m->nodes[n].type = ttype(in, dt, 0);
	in->params[in->nparams++] = n;
	return n;
}

/* fput: f as an element of float dtype dt into p */
static void
fput(DType dt, float f, unsigned char *p)
{
	if (dt == DT_FLOAT32) {
		memcpy(p, &f, 4);
	} else if (dt == DT_FLOAT64) {
		double d = f;
		memcpy(p, &d, 8);
	} else {
		uint16_t h = ir_f16_from_f32(f);
		memcpy(p, &h, 2);
	}
}

/* value: a random element of dtype dt into p */
static void
value(Rng *r, DType dt, unsigned char *p)
{
	if (ir_dtype_kind[dt] == 'f') {
		fput(dt, (float)((int)(next(r) % 2001) - 1000) / 500.0f, p);     /* [-2, 2] in steps */
	} else {
		int64_t lo = ir_dtype_min(dt), hi = ir_dtype_max(dt), v;
		if (lo < -100)
			lo = -100;
		if (hi > 100)
			hi = 100;
		v = lo + (int64_t)(next(r) % (uint64_t)(hi - lo + 1));
		memcpy(p, &v, ir_dtype_bytes[dt]);
	}
}

static NodeId
constant(Inst *in)
{
	int shape = pick(in->r, 3);     /* a scalar, the instance's shape, or a vector of its channels */
	int scalar = shape == 0;
	DType dt = pick(in->r, 3) ? in->dt : dtypes[pick(in->r, 5)];
	int64_t ch = in->rank >= 2 ? in->dims[1] : in->dims[0];
	TypeId t = shape == 2 ? ir_type_tensor(in->m, dt, 1, &ch) : ttype(in, dt, scalar);
	int64_t n = ir_type_numel(in->m, t);
	unsigned char *data = ir_xcalloc((size_t)n + 1, ir_dtype_bytes[dt]);
	NodeId c;

	for (int64_t i = 0; i < n; i++)
		value(in->r, dt, data + (size_t)i * ir_dtype_bytes[dt]);
	/* a scale is positive: a scalar float constant, mostly */
	if (scalar && dt == DT_FLOAT32 && pick(in->r, 4)) {
		float f = (float)(1 + pick(in->r, 64)) / 128.0f;
		memcpy(data, &f, 4);
	}
	c = ir_const(in->m, t, data, (Loc){ 1, 1, 1 });
	free(data);
	return c;
}

/* litconst: const(LIT)'s constant, a scalar of the literal's dtype and
** value */
static NodeId
litconst(Inst *in, const Ast *l)
{
	DType dt = l->kind == A_BOOL ? DT_BOOL : (DType)l->dtype;
	double v = l->kind == A_FLOAT ? l->f : (double)l->i;
	unsigned char data[8] = { 0 };

	if (dt == DT_FLOAT64) {
		memcpy(data, &v, 8);
	} else if (ir_dtype_kind[dt] == 'f') {
		fput(dt, (float)v, data);
	} else {
		int64_t x = (int64_t)v;
		memcpy(data, &x, ir_dtype_bytes[dt]);   /* little-endian: the low bytes */
	}
	return ir_const(in->m, ir_type_tensor(in->m, dt, 0, NULL), data, (Loc){ 1, 1, 1 });
}

/* freeattr: a random value for free attribute name of type t, as Relay text */
static const char *
freeattr(Inst *in, const char *name, int t, char *buf, size_t n)
{
	if (!strcmp(name, "newshape")) {
		snprintf(buf, n, "[-1]");       /* a reshape any tensor takes */
		return buf;
	}
	if (!strcmp(name, "axis") && (AT_TYPE(t) & 0xff) == AT_INTS) {
		/* the axes of a reduction: one, which any rank has */
		snprintf(buf, n, "%s", pick(in->r, 2) ? "[-1]" : "[0]");
		return buf;
	}
	switch (AT_TYPE(t) & 0xff) {
	case AT_INTS: snprintf(buf, n, "%s", pick(in->r, 2) ? "[1, 1]" : "[2, 2]"); break;
	case AT_INT: snprintf(buf, n, "%d", pick(in->r, 3) - 1); break;
	case AT_FLOAT: snprintf(buf, n, "%gf", (double)(pick(in->r, 9) - 4) * 32); break;
	case AT_BOOL: snprintf(buf, n, "%s", pick(in->r, 2) ? "True" : "False"); break;
	case AT_DTYPE: snprintf(buf, n, "\"%s\"", ir_dtype_names[dtypes[pick(in->r, 5)]]); break;
	default: return NULL;
	}
	return buf;
}

static NodeId build(Inst *in, const Ast *a);

/* The quantization parameters of the QNN ops, by operand: 's' a scale
** (a positive float32 scalar), 'z' a zero point (an int32 scalar). */
static const struct { const char *op, *roles; } qroles[] = {
	{ "qnn.quantize", "-sz" }, { "qnn.dequantize", "-sz" }, { "qnn.requantize", "-szsz" },
	{ "qnn.conv2d", "--zzss" }, { "qnn.conv2d_transpose", "--zzss" }, { "qnn.dense", "--zzss" },
	{ "qnn.add", "--szszsz" }, { "qnn.mul", "--szszsz" }, { "qnn.sigmoid", "-szsz" }, { "qnn.tanh", "-szsz" },
};

/* qparam: a quantization parameter of role 's' or 'z' */
static NodeId
qparam(Inst *in, char role)
{
	if (role == 's') {
		float f = (float)(1 + pick(in->r, 64)) / 256.0f;
		return ir_const(in->m, ir_type_scalar(in->m, DT_FLOAT32), &f, (Loc){ 1, 1, 1 });
	} else {
		int32_t z = pick(in->r, 3) ? 0 : pick(in->r, 21) - 10;
		return ir_const(in->m, ir_type_scalar(in->m, DT_INT32), &z, (Loc){ 1, 1, 1 });
	}
}

/* role: operand i of op's role ('s', 'z'), or 0 */
static char
role(OpId op, uint32_t i)
{
	for (size_t k = 0; k < sizeof qroles / sizeof *qroles; k++)
		if (!strcmp(ir_ops[op].name, qroles[k].op))
			return i < strlen(qroles[k].roles) && qroles[k].roles[i] != '-' ? qroles[k].roles[i] : 0;
	return 0;
}

/* operand: operand i of op, from pattern k: a quantization parameter
** where k leaves it free */
static NodeId
operand(Inst *in, OpId op, uint32_t i, const Ast *k)
{
	const Ast *leaf = k;
	char ro = role(op, i);

	while (leaf && leaf->kind == A_BIND)
		leaf = leaf->kid[0];
	if (ro && leaf && (leaf->kind == A_ANY || leaf->kind == A_CONST || leaf->kind == A_NAME)) {
		NodeId n;
		if (leaf->kind == A_NAME)
			for (uint32_t b = 0; b < in->nb; b++)
				if (!strcmp(in->b[b].name, leaf->s))
					return in->b[b].n;
		n = qparam(in, ro);
		for (const Ast *a = k; a && a->kind == A_BIND; a = a->kid[0])
			if (in->nb < MAXNAMES)
				in->b[in->nb].name = a->s, in->b[in->nb++].n = n;
		if (leaf->kind == A_NAME && in->nb < MAXNAMES)
			in->b[in->nb].name = leaf->s, in->b[in->nb++].n = n;
		return n;
	}
	return k ? build(in, k) : (ro ? qparam(in, ro) : param(in));
}

/* call: the op of a with its operands and attributes */
static NodeId
call(Inst *in, const Ast *a)
{
	Module *m = in->m;
	const OpInfo *o = &ir_ops[a->op];
	NodeId args[64];
	uint32_t n = 0;
	AttrId av = ir_attr_defaults(m, a->op);
	DType outer = in->dt;

	/* a comparison's bool comes from operands of any dtype */
	if ((a->op == OP_EQUAL || a->op == OP_NOT_EQUAL || a->op == OP_LESS || a->op == OP_LESS_EQUAL ||
	     a->op == OP_GREATER || a->op == OP_GREATER_EQUAL) && in->dt == DT_BOOL)
		in->dt = dtypes[pick(in->r, 5)];
	for (uint32_t i = 0; i < a->nkid && !in->bad; i++) {
		const Ast *k = a->kid[i];
		if (k->kind == A_ATTR || k->kind == A_REST)
			continue;
		if (n == 64) {
			in->bad = 1;
			break;
		}
		{
			/* a QNN op's data operands are quantized: 8-bit integers */
			DType saved = in->dt;
			if ((o->flags & OPF_QNN) && !role(a->op, n) && strcmp(o->name, "qnn.quantize") &&
			    in->dt != DT_INT8 && in->dt != DT_UINT8)
				in->dt = pick(in->r, 2) ? DT_INT8 : DT_UINT8;
			if ((o->flags & OPF_QNN) && n == 1 && (!strcmp(o->name, "qnn.conv2d") || !strcmp(o->name, "qnn.dense") ||
			                                      !strcmp(o->name, "qnn.conv2d_transpose")))
				in->dt = DT_INT8;       /* weights */
			if (a->op == OP_LOGICAL_AND || a->op == OP_LOGICAL_OR || a->op == OP_LOGICAL_NOT ||
			    (a->op == OP_WHERE && n == 0))
				in->dt = DT_BOOL;       /* logic, and where's condition */

			args[n] = operand(in, a->op, n, k);
			in->dt = saved;
		}
		n++;
	}
	while ((int)n < o->nargs && !in->bad) {
		args[n] = operand(in, a->op, n, NULL);     /* `...`: the rest, free */
		n++;
	}
	in->dt = outer;
	/* attributes: the pattern's literals; the required ones it leaves free
	   random; the rest their defaults */
	for (int k = 0; k < o->nattrs && !in->bad; k++) {
		const char *text = NULL;
		char buf[256];
		AttrVal v;
		for (uint32_t i = 0; i < a->nkid; i++)
			if (a->kid[i]->kind == A_ATTR && !strcmp(a->kid[i]->s, o->attrs[k].name) &&
			    a->kid[i]->kid[0]->kind != A_NAME) {
				dsl_littext(a->kid[i]->kid[0], buf, sizeof buf);
				text = buf;
			}
		if (!text) {
			/* free: required, or bound by name in the pattern (its value
			   is the rule's business); the others keep their defaults */
			int named = !o->attrs[k].deflt || (AT_TYPE(o->attrs[k].type) == AT_DTYPE &&
			                                   !strcmp(o->attrs[k].deflt, "\"\"") && pick(in->r, 2));
			for (uint32_t i = 0; i < a->nkid; i++)
				if (a->kid[i]->kind == A_ATTR && !strcmp(a->kid[i]->s, o->attrs[k].name) &&
				    a->kid[i]->kid[0]->kind == A_NAME)
					named = 1;
			if (named)
				text = freeattr(in, o->attrs[k].name, o->attrs[k].type, buf, sizeof buf);
		}
		if (!text)
			continue;
		if (ir_attr_parse(m, text, &v) && !ir_attr_conform(m, o->attrs[k].type, &v))
			m->attrs[av + (uint32_t)k] = v;
	}
	if (in->bad)
		return 0;
	return ir_call(m, a->op, args, n, av, (Loc){ 1, 1, 1 });
}

static NodeId build(Inst *in, const Ast *a);

/* named: n bound to a name no pattern uses, returned as that name's A_NAME */
static Ast *
named(Inst *in, const Ast *at, NodeId n, Ast *buf, char *name, size_t size)
{
	snprintf(name, size, "\001%u", in->nb);
	memset(buf, 0, sizeof *buf);
	buf->kind = A_NAME;
	buf->s = name;
	buf->loc = at->loc;
	if (in->nb < MAXNAMES)
		in->b[in->nb].name = name, in->b[in->nb++].n = n;
	else
		in->bad = 1;
	return buf;
}

/* withoperands: an instance of call or tuple pattern a (its A_ANY operands
** given by from(), the others built) */
static NodeId
withoperands(Inst *in, const Ast *a, NodeId (*from)(Inst *, void *), void *ctx)
{
	Ast copy = *a, names[16], *kids[64];
	char text[16][16];
	uint32_t k = 0;

	if (a->nkid > 64)
		return build(in, a);
	for (uint32_t i = 0; i < a->nkid; i++) {
		kids[i] = a->kid[i];
		if (a->kid[i]->kind == A_ANY && k < 16) {
			kids[i] = named(in, a->kid[i], from(in, ctx), &names[k], text[k], sizeof text[k]);
			k++;
		}
	}
	copy.kid = kids;
	return build(in, &copy);
}

/* anyop: an op for _(...) with n operands and OpKind kind (-1: any),
** drawn from the registry; OP_NONE if none */
static OpId
anyop(Inst *in, uint32_t n, int kind)
{
	OpId ops[IR_MAXOPS];
	uint32_t k = 0;

	for (OpId op = 1; op < OP_COUNT; op++)
		if ((uint32_t)ir_ops[op].nargs == n && !(ir_ops[op].flags & (OPF_QNN | OPF_TUPLE | OPF_ANNOT)) &&
		    (kind < 0 || ir_op_kind(op) == kind))
			ops[k++] = op;
	return k ? ops[pick(in->r, k)] : OP_NONE;
}

typedef struct DomInst {
	const Ast *path;
	NodeId parent;
} DomInst;

/* dompath: an operand of a dominator's child or path node: the parent, or
** a node of the path over it */
static NodeId
dompath(Inst *in, void *ctx)
{
	DomInst *d = ctx;
	const Ast *p = d->path;

	if (pick(in->r, 2) || in->bad)
		return d->parent;
	while (p->kind == A_ALT)
		p = p->kid[pick(in->r, p->nkid)];
	if (p->kind == A_TYPED) {
		DType saved = in->dt;
		NodeId n;
		if (p->dtype != DT_COUNT)
			in->dt = (DType)p->dtype;
		n = p->kid[0]->kind == A_ANYCALL || p->kid[0]->kind == A_CALL ?
		    withoperands(in, p->kid[0], dompath, d) : build(in, p->kid[0]);
		in->dt = saved;
		return n;
	}
	if (p->kind == A_ANYCALL || p->kind == A_CALL)
		return withoperands(in, p, dompath, d);
	return d->parent;
}

/* build: a random instance of pattern a */
static NodeId
build(Inst *in, const Ast *a)
{
	switch (a->kind) {
	case A_REC: case A_RREF:
		in->bad = 1;    /* a pattern that uses itself: not built */
		return 0;
	case A_DOM: {
		/* the parent, then the child whose free operands reach it
		   through the path */
		DomInst d = { a->kid[1], build(in, a->kid[0]) };
		const Ast *c = a->kid[2];
		if (in->bad)
			return 0;
		while (c->kind == A_BIND || c->kind == A_TYPED)
			c = c->kid[0];
		if (c != a->kid[2] || (c->kind != A_CALL && c->kind != A_ANYCALL)) {
			in->bad = 1;    /* a named or typed child: built as written */
			return 0;
		}
		return withoperands(in, c, dompath, &d);
	}
	case A_ANYCALL: {
		Ast copy = *a;
		uint32_t n = 0;
		for (uint32_t i = 0; i < a->nkid; i++)
			n += a->kid[i]->kind != A_REST;
		if (!(copy.op = anyop(in, n, (int)a->i))) {
			in->bad = 1;
			return 0;
		}
		copy.kind = A_CALL;
		copy.s = ir_ops[copy.op].name;
		return call(in, &copy);
	}
	case A_ANY:
	case A_VAR:
		return param(in);
	case A_CONST:
		return a->nkid ? litconst(in, a->kid[0]) : constant(in);
	case A_NAME:
		for (uint32_t i = 0; i < in->nb; i++)
			if (!strcmp(in->b[i].name, a->s))
				return in->b[i].n;
		/* a name matches anything: a parameter, or now and then a constant */
		{
			NodeId n = pick(in->r, 4) ? param(in) : constant(in);
			if (in->nb < MAXNAMES)
				in->b[in->nb].name = a->s, in->b[in->nb++].n = n;
			return n;
		}
	case A_BIND: {
		NodeId n = build(in, a->kid[0]);
		if (in->nb < MAXNAMES)
			in->b[in->nb].name = a->s, in->b[in->nb++].n = n;
		return n;
	}
	case A_TYPED: {
		/* the constraint's dtype for this part of the instance */
		DType saved = in->dt;
		NodeId n;
		if (a->dtype != DT_COUNT)
			in->dt = (DType)a->dtype;
		n = build(in, a->kid[0]);
		in->dt = saved;
		return n;
	}
	case A_CALL:
		return call(in, a);
	case A_TUPLE: {
		NodeId f[64];
		uint32_t n = 0;
		for (uint32_t i = 0; i < a->nkid && n < 64 && !in->bad; i++)
			f[n++] = a->kid[i]->kind == A_REST ? param(in) : build(in, a->kid[i]);
		return in->bad ? 0 : ir_tuple(in->m, f, n, (Loc){ 1, 1, 1 });
	}
	case A_GETITEM: {
		NodeId t = build(in, a->kid[0]);
		uint32_t i = a->i >= 0 ? (uint32_t)a->i : 0;      /* P._: field 0 will do */
		return in->bad ? 0 : ir_getitem(in->m, t, i, (Loc){ 1, 1, 1 });
	}
	default:
		in->bad = 1;
		return 0;
	}
}

/* layouts: whether pattern a has an op with a data layout (4-d data) */
static int
layouts(const Ast *a)
{
	if (a->kind == A_CALL && a->op && (ir_op_attr_index(a->op, "data_layout", 11) >= 0 ||
	                                   ir_op_attr_index(a->op, "layout", 6) >= 0))
		return 1;
	for (uint32_t i = 0; i < a->nkid; i++)
		if (a->kid[i] && layouts(a->kid[i]))
			return 1;
	return 0;
}

/* instance: module m holding @main, an instance of pattern pat, from
** seed; 0, or 1 if it does not type-check */
static int
instance(Module *m, const Ast *pat, uint64_t seed, Inst *in)
{
	Rng r = { seed };
	static const int ranks[] = { 4, 2, 1, 4 };
	Diag d;
	NodeId body, fn;
	int bad;

	memset(in, 0, sizeof *in);
	in->m = m;
	in->r = &r;
	in->rank = layouts(pat) ? 4 : ranks[pick(&r, 4)];
	for (int i = 0; i < in->rank; i++)
		in->dims[i] = i == 0 && in->rank == 4 ? 1 : 1 + pick(&r, 4);
	in->dt = dtypes[pick(&r, 5)];
	body = build(in, pat);
	if (in->bad || !body)
		return 1;
	fn = ir_func(m, in->params, in->nparams, body, 0, 0, 0, (Loc){ 1, 1, 1 });
	ir_global_add(m, ir_sym(m, "main", 4), fn);
	ir_diag_init(&d, getenv("GRAFT_VERIFY_DEBUG") ? stderr : NULL, m);
	bad = ir_infer_types(m, &d) != 0;
	ir_diag_free(&d);
	return bad;
}

/* ---------------------------------------------------------------- running */

/* inputs: random values for m's @main parameters, edges now and then: an
** integer's bounds, zero, and a float's NaN, infinities and -0 (not when
** finite) */
static void
inputs(const Module *m, const Inst *in, RefVal *v, uint64_t seed, int finite)
{
	Rng r = { seed ^ 0x5eedull };

	for (uint32_t i = 0; i < in->nparams; i++) {
		TypeId t = m->nodes[in->params[i]].type;
		memset(&v[i], 0, sizeof v[i]);
		ref_vshape(m, t, &v[i]);
		ref_valloc(&v[i]);
		for (int64_t k = 0; k < v[i].n; k++) {
			unsigned char *p = v[i].data + (size_t)k * ir_dtype_bytes[v[i].dt];
			int e = pick(&r, 8);
			if (ir_dtype_kind[v[i].dt] != 'f' && e == 0) {
				int64_t x = pick(&r, 2) ? ir_dtype_min((DType)v[i].dt) : ir_dtype_max((DType)v[i].dt);
				memcpy(p, &x, ir_dtype_bytes[v[i].dt]);
			} else if (ir_dtype_kind[v[i].dt] == 'f' && (e == 0 || e == 2 || e == 4)) {
				/* a float's edges, NaN most: a rule wrong only for
				   NaN shows in a few instances */
				static const float edge[] = { -0.0f, INFINITY, -INFINITY, NAN, NAN, NAN };
				fput((DType)v[i].dt, edge[finite ? 0 : pick(&r, 6)], p);
			} else if (e == 1) {
				memset(p, 0, ir_dtype_bytes[v[i].dt]);
			} else {
				value(&r, (DType)v[i].dt, p);
			}
		}
	}
}

/* deep: a copy of v that owns its data (a result may borrow a constant of
** the program that made it) */
static void
deep(const RefVal *v, RefVal *out)
{
	memset(out, 0, sizeof *out);
	if (v->kind == RV_TUPLE) {
		out->kind = RV_TUPLE;
		out->nf = v->nf;
		out->f = ir_xcalloc(v->nf + 1, sizeof *out->f);
		for (uint32_t i = 0; i < v->nf; i++)
			deep(&v->f[i], &out->f[i]);
		return;
	}
	if (v->kind != RV_TENSOR)
		return;
	*out = *v;
	out->data = NULL;
	out->rc = NULL;
	out->f = NULL;
	ref_valloc(out);
	memcpy(out->data, v->data, (size_t)v->n * ir_dtype_bytes[v->dt]);
}

/* run: @main of m on args into res; 0, or 1 if it does not run */
static int
run(const Module *m, const RefVal *args, uint32_t n, RefVal *res)
{
	Sym s;
	NodeId fn = 0;
	RefProg *p;
	Diag d;
	const RefVal *ap[MAXPARAMS];
	int bad = 1;

	memset(res, 0, sizeof *res);
	ir_diag_init(&d, NULL, m);
	if (ir_sym_find(m, "main", 4, ir_sym_hash(IR_SYM_HASH0, "main", 4), &s))
		fn = ir_global_find(m, s);
	if (fn && (p = ref_prepare(m, fn, &d))) {
		RefVal got;
		memset(&got, 0, sizeof got);
		for (uint32_t i = 0; i < n; i++)
			ap[i] = &args[i];
		bad = ref_run(p, ap, &got, &d) != 0;
		if (!bad)
			deep(&got, res);
		ref_vdrop(&got);
		ref_release(p);
	}
	ir_diag_free(&d);
	return bad;
}

/* what differ() gives for -0 against 0: the bits differ, not the values */
#define ZEROSIGN 1e-300

/* differ: how far results a and b are apart: 0 the same bits, -1 of
** another shape or dtype, else the largest difference (inf for NaN
** against a number) */
static double
differ(const RefVal *a, const RefVal *b)
{
	double worst = 0;

	if (a->kind != b->kind || a->nf != b->nf)
		return -1;
	if (a->kind == RV_TUPLE) {
		for (uint32_t i = 0; i < a->nf; i++) {
			double d = differ(&a->f[i], &b->f[i]);
			if (d < 0)
				return -1;
			worst = d > worst ? d : worst;
		}
		return worst;
	}
	if (a->dt != b->dt || a->rank != b->rank || memcmp(a->dims, b->dims, a->rank * sizeof *a->dims))
		return -1;
	for (int64_t k = 0; k < a->n; k++) {
		size_t esz = ir_dtype_bytes[a->dt];
		Tensor ta = { (DType)a->dt, a->rank, { 0 }, a->data }, tb = { (DType)b->dt, b->rank, { 0 }, b->data };
		double x, y;
		if (!memcmp(a->data + (size_t)k * esz, b->data + (size_t)k * esz, esz))
			continue;
		x = ir_tensor_get(&ta, k);
		y = ir_tensor_get(&tb, k);
		if (isnan(x) && isnan(y))
			continue;       /* NaN is NaN, whatever its bits */
		if (isnan(x) || isnan(y))
			return INFINITY;
		if (fabs(x - y) > worst)
			worst = fabs(x - y);
		if (worst == 0)
			worst = ZEROSIGN;   /* -0 against 0: bits differ */
	}
	return worst;
}

/* ---------------------------------------------------------------- rules */

typedef struct Fired {
	uint32_t rule;
	int hit;
} Fired;

static void
traced(void *ctx, uint32_t rule, uint32_t variant, int what)
{
	Fired *f = ctx;
	(void)variant;
	if (rule == f->rule && what == IT_MATCH)
		f->hit = 1;
}

/* counterexample: module a and its inputs written under o->out */
static void
counterexample(const VerifyOpts *o, Module *a, const Inst *in, const RefVal *args, const char *name, FILE *out)
{
	char path[4096], err[256];
	FILE *f;

	if (!o->out)
		return;
	snprintf(path, sizeof path, "%s/%s.relay", o->out, name);
	if ((f = fopen(path, "w"))) {
		ir_print(f, a, &(PrintOpts){ 0 }, NULL);
		fclose(f);
		fprintf(out, "  written: %s\n", path);
	}
	for (uint32_t i = 0; i < in->nparams; i++) {
		Tensor t = { (DType)args[i].dt, args[i].rank, { 0 }, args[i].data };
		memcpy(t.dims, args[i].dims, sizeof t.dims);
		snprintf(path, sizeof path, "%s/%s.p%u.npy", o->out, name, i);
		if (npy_write(path, &t, err, sizeof err) == 0)
			fprintf(out, "  written: %s\n", path);
	}
}

int
verify_file(const char *path, const VerifyOpts *o, FILE *out, FILE *errs)
{
	const Ruleset *rs = interp_load(path, errs);
	const Rules *r;
	uint32_t counter = 0;

	if (!rs)
		return 2;
	r = interp_rules(rs);
	fprintf(out, "%s %s (%s): seed %llu, up to %u instances of each variant in %u tries\n",
	        rs->target ? "target" : "ruleset", rs->name, path, (unsigned long long)o->seed, o->instances, o->tries);
	for (uint32_t order = 0; order < rs->nrules; order++) {
		const Rule *ru = NULL;
		uint32_t kept = 0, tried = 0, illtyped = 0, unfired = 0, unrun = 0;
		int found = 0;
		for (uint32_t i = 0; i < r->nrules; i++)
			if (r->rules[i].order == order)
				ru = &r->rules[i];
		if (!ru || ru->kind == RK_SUPPORTS)
			continue;
		for (uint32_t v = 0; v < ru->nvariants && !found; v++) {
			uint32_t vk = 0;
			for (uint32_t t = 0; t < o->tries && vk < o->instances && !found; t++) {
				uint64_t seed = o->seed * 1000003ull + order * 7919ull + v * 104729ull + t;
				Module *a = ir_module_new(), *b = ir_module_new();
				Inst ia, ib;
				RefVal args[MAXPARAMS], ra, rb;
				double dist;
				tried++;
				if (instance(a, ru->variants[v].pat, seed, &ia) || instance(b, ru->variants[v].pat, seed, &ib)) {
					illtyped++;
					goto next;
				}
				/* the rule, applied where it fires */
				{
					Fired fired = { order, 0 };
					Diag d;
					int bad;
					char *msgs = NULL;
					size_t nmsgs = 0;
					FILE *mf = open_memstream(&msgs, &nmsgs);
					ir_diag_init(&d, mf, b);
					interp_trace(rs, traced, &fired);
					interp_only(rs, order);         /* this rule alone */
					if (rs->target) {
						const Ruleset *tg[1] = { rs };
						Partitioner p;
						memset(&p, 0, sizeof p);
						p.m = b;
						p.d = &d;
						p.targets = tg;
						p.ntargets = 1;
						p.stop = PS_ALL;
						bad = ir_partition(&p) != 0;
						ir_partition_free(&p);
					} else {
						RwStats st;
						bad = ir_rewrite(b, rs, &d, &st) != 0;
						free(st.fired);
					}
					interp_trace(rs, NULL, NULL);
					interp_only(rs, -1);
					bad |= ir_infer_types(b, &d) != 0;
					ir_diag_free(&d);
					fclose(mf);
					if (bad && fired.hit) {
						/* the rule fired, and the rewrite went wrong: a
						   result of the wrong type, a rewrite that does
						   not end */
						fprintf(out, "%s:%u: %s %s: COUNTEREXAMPLE: applying it fails: %.*s\n",
						        r->m->files[ru->loc.file], ru->loc.line, ru->kind == RK_RULE ? "rule" : "composite",
						        ru->name, (int)strcspn(msgs ? msgs : "", "\n"), msgs ? msgs : "");
						inputs(a, &ia, args, seed, ru->finite);
						counterexample(o, a, &ia, args, ru->name, out);
						for (uint32_t i = 0; i < ia.nparams; i++)
							ref_vdrop(&args[i]);
						free(msgs);
						found = 1;
						goto next;
					}
					free(msgs);
					if (bad || !fired.hit) {
						unfired++;
						goto next;
					}
				}
				inputs(a, &ia, args, seed, ru->finite);
				if (run(a, args, ia.nparams, &ra)) {
					unrun++;
					for (uint32_t i = 0; i < ia.nparams; i++)
						ref_vdrop(&args[i]);
					goto next;
				}
				if (run(b, args, ia.nparams, &rb)) {
					fprintf(out, "%s:%u: %s %s: COUNTEREXAMPLE: the rewritten graph does not run\n",
					        r->m->files[ru->loc.file], ru->loc.line, ru->kind == RK_RULE ? "rule" : "composite", ru->name);
					counterexample(o, a, &ia, args, ru->name, out);
					found = 1;
				} else if ((dist = differ(&ra, &rb)) != 0 && (dist < 0 || !(dist <= ru->tol))) {
					fprintf(out, "%s:%u: %s %s: COUNTEREXAMPLE: outputs differ", r->m->files[ru->loc.file], ru->loc.line,
					        ru->kind == RK_RULE ? "rule" : "composite", ru->name);
					if (dist < 0)
						fprintf(out, " in shape or dtype\n");
					else if (dist == ZEROSIGN)
						fprintf(out, " in the sign of a zero (-0 against 0)\n");
					else
						fprintf(out, " by %g%s\n", dist, ru->tol > 0 ? " (beyond its tolerance)" : "");
					counterexample(o, a, &ia, args, ru->name, out);
					found = 1;
				} else {
					kept++;
					vk++;
				}
				ref_vdrop(&ra);
				ref_vdrop(&rb);
				for (uint32_t i = 0; i < ia.nparams; i++)
					ref_vdrop(&args[i]);
			next:
				ir_module_free(a);
				ir_module_free(b);
			}
		}
		if (found) {
			counter++;
			continue;
		}
		if (kept)
			fprintf(out, "  %s %s: %u instance%s agree%s (%u tries)\n", ru->kind == RK_RULE ? "rule" : "composite",
			        ru->name, kept, kept == 1 ? "" : "s", ru->tol > 0 ? " within its tolerance" : " bit for bit",
			        tried);
		else
			fprintf(out, "  %s %s: not instantiated in %u tries (%u ill-typed, %u where it did not fire, %u that "
			        "did not run)\n", ru->kind == RK_RULE ? "rule" : "composite", ru->name, tried, illtyped, unfired,
			        unrun);
	}
	interp_free(rs);
	fprintf(out, "%s: %u counterexample%s\n", path, counter, counter == 1 ? "" : "s");
	return counter ? 1 : 0;
}
