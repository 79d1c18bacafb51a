/*
** acme.c: the graft plugin of the Acme NPU, a made-up accelerator.  It
** brings to graft what a real target's bring-up team would:
**
**   acme.clip_cast   acme's own op (clip, then narrow to 8 bits), with its
**                    type relation and reference kernel (ref backend only)
**   acme.chan_scale  another (scale and shift each channel), with its
**                    type relation and C kernel (acme-kernels.c), which
**                    every backend runs and `--emit c`/`--emit obj` code
**                    links
**   acme.softsign    an elementwise op given as a row in scalar.def's form
**                    (x / (1 + |x|), with a leak below zero): every
**                    backend computes it as graft's own elementwise ops
**   acme_fits        the extern predicate acme.rules calls: whether a
**                    convolution's kernel fits acme's weight buffer
**   acme             the target table of acme.rules, with the rewrite rule
**                    that makes acme.clip_cast, compiled by graftc at
**                    build time
**   a codegen        for acme's partitions: `graft --emit-target acme`
**                    writes acme's command stream; `graft run` runs them
**                    on acme's simulator, which here is graft's own
**                    reference interpreter
**
** Built into a shared object, it is what `graft --plugin acme.so` loads;
** linked into a program (acme-run.c), graft_plugin_register() takes it.
** Two environment variables are for tests: ACME_TRACE has the simulator
** say which partition it runs, ACME_FAIL has it fail.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <graft/graft.h>

#include "acme.h"
#include "acme-kernels.h"

/* ---------------------------------------------------------------- acme.clip_cast */

enum { A_MIN, A_MAX, A_DTYPE };   /* its attributes, in schema order */

static const AttrField clip_cast_attrs[] = {
	{ "a_min", AT_FLOAT, NULL },
	{ "a_max", AT_FLOAT, NULL },
	{ "dtype", AT_DTYPE, "\"int8\"" },
};

/* isint: an integer dtype of at most 32 bits */
static int
isint(int dt)
{
	return (ir_dtype_kind[dt] == 'i' || ir_dtype_kind[dt] == 'u') && ir_dtype_bytes[dt] <= 4 && dt != DT_BOOL;
}

/* clip_cast's type relation: data's shape, dtype's dtype; integers only,
** and whole bounds */
static TypeId
rel_clip_cast(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	const Type *t = ir_type(m, args[0]);
	double lo = attrs[A_MIN].u.f, hi = attrs[A_MAX].u.f;
	int dt = attrs[A_DTYPE].kind == AV_DTYPE ? (int)attrs[A_DTYPE].u.i : DT_VOID;

	(void)nargs;
	if (t->kind != TY_TENSOR || !isint(t->dtype))
		return ir_rel_error(d, "acme.clip_cast takes a tensor of integers of up to 32 bits");
	if (dt != DT_INT8 && dt != DT_UINT8)
		return ir_rel_error(d, "acme.clip_cast narrows to int8 or uint8");
	if (lo != (double)(int64_t)lo || hi != (double)(int64_t)hi || lo > hi)
		return ir_rel_error(d, "acme.clip_cast clips to whole bounds, a_min <= a_max");
	return ir_type_tensor(m, (DType)dt, (int)t->n, ir_type_dims(m, args[0]));
}

/* ld, st: element i of an integer tensor */
static int64_t
ld(const unsigned char *p, int dt, int64_t i)
{
	switch (dt) {
	case DT_INT8: return ((const int8_t *)p)[i];
	case DT_UINT8: return p[i];
	case DT_INT16: { int16_t v; memcpy(&v, p + 2 * i, 2); return v; }
	case DT_UINT16: { uint16_t v; memcpy(&v, p + 2 * i, 2); return v; }
	case DT_INT32: { int32_t v; memcpy(&v, p + 4 * i, 4); return v; }
	default: { uint32_t v; memcpy(&v, p + 4 * i, 4); return v; }
	}
}

/* clip_cast's reference kernel: clip, then truncate to 8 bits as cast does */
static int
kernel_clip_cast(const Module *m, const AttrVal *attrs, const RefVal *const *args, uint32_t nargs,
                 RefVal *out, char *err, size_t nerr)
{
	const RefVal *x = args[0];
	int64_t lo = (int64_t)attrs[A_MIN].u.f, hi = (int64_t)attrs[A_MAX].u.f;

	(void)m, (void)nargs;
	if (!isint(x->dt) || x->n != out->n) {
		snprintf(err, nerr, "acme.clip_cast: an operand of another dtype or size than its type");
		return 1;
	}
	for (int64_t i = 0; i < x->n; i++) {
		int64_t v = ld(x->data, x->dt, i);
		v = v < lo ? lo : v > hi ? hi : v;
		out->data[i] = (unsigned char)(uint64_t)v;     /* int8 and uint8 alike */
	}
	return 0;
}

/* ---------------------------------------------------------------- acme.chan_scale */

/* its attributes, in the order of acme-kernels.h's ACME_CS_* */
static const AttrField chan_scale_attrs[] = {
	{ "scale", AT_FLOATS, NULL },
	{ "bias", AT_INTS, NULL },
	{ "axis", AT_INT, "1" },
	{ "rounding", AT_STR, "\"floor\"" },
	{ "dtype", AT_DTYPE, "\"int8\"" },
};

/* chan_scale's type relation: data's shape, dtype's dtype; int8, int32 or
** float32 data, a scale and a bias per channel of axis, a known rounding */
static TypeId
rel_chan_scale(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	const Type *t = ir_type(m, args[0]);
	int64_t axis = attrs[ACME_CS_AXIS].u.i;
	int dt = attrs[ACME_CS_DTYPE].kind == AV_DTYPE ? (int)attrs[ACME_CS_DTYPE].u.i : DT_VOID;
	const char *r = attrs[ACME_CS_ROUNDING].kind == AV_STR ? ir_symstr(m, attrs[ACME_CS_ROUNDING].u.s) : "";

	(void)nargs;
	if (t->kind != TY_TENSOR || (t->dtype != DT_INT8 && t->dtype != DT_INT32 && t->dtype != DT_FLOAT32))
		return ir_rel_error(d, "acme.chan_scale takes a tensor of int8, int32 or float32");
	if (axis < 0 || axis >= (int64_t)t->n || ir_type_dims(m, args[0])[axis] < 0)
		return ir_rel_error(d, "acme.chan_scale: axis %lld is not a known axis of the data", (long long)axis);
	if (attrs[ACME_CS_SCALE].n != ir_type_dims(m, args[0])[axis] ||
	    attrs[ACME_CS_BIAS].n != ir_type_dims(m, args[0])[axis])
		return ir_rel_error(d, "acme.chan_scale: scale and bias need one value per channel");
	if (strcmp(r, "floor") != 0 && strcmp(r, "nearest") != 0)
		return ir_rel_error(d, "acme.chan_scale rounds \"floor\" or \"nearest\"");
	if (dt != DT_INT8 && dt != DT_UINT8 && dt != DT_INT32 && dt != DT_FLOAT32)
		return ir_rel_error(d, "acme.chan_scale gives int8, uint8, int32 or float32");
	return ir_type_tensor(m, (DType)dt, (int)t->n, ir_type_dims(m, args[0]));
}

/* ---------------------------------------------------------------- acme_fits */

enum { WEIGHT_BUFFER = 64 * 1024 };  /* bytes of int8 weights acme holds */

/* acme_fits(conv): the convolution's weight (operand 1) fits acme's buffer */
GRAFT_EXPORT int
graft_pred_acme_fits(graft_rw *rw, graft_node root, graft_node conv)
{
	const graft_ir *m = graft_rw_ir(rw);
	int64_t n = graft_numel(m, graft_arg(m, conv, 1));

	(void)root;
	return n >= 0 && n <= WEIGHT_BUFFER;
}

/* ---------------------------------------------------------------- the codegen */

/* name: a global function's name */
static const char *
name(const Module *m, NodeId fn)
{
	for (uint32_t k = 0; k < m->nglobals; k++)
		if (m->globals[k].fn == fn)
			return ir_symstr(m, m->globals[k].name);
	return "?";
}

/* walk: one acme instruction per op or composite under n, operands first */
static void
walk(const Module *m, NodeId n, unsigned char *seen, FILE *f)
{
	const Node *nd = &m->nodes[n];
	char ty[256];

	if (seen[n])
		return;
	seen[n] = 1;
	if (nd->kind != NK_CALL && nd->kind != NK_CALLFN && nd->kind != NK_TUPLE && nd->kind != NK_GETITEM)
		return;
	for (uint32_t i = nd->kind == NK_CALLFN; i < nd->nargs; i++)
		walk(m, rw_arg(m, n, i), seen, f);
	if (nd->kind == NK_CALLFN) {
		NodeId callee = rw_arg(m, n, 0);
		const AttrVal *c = m->nodes[callee].kind == NK_FUNC ? ir_func_attr(m, callee, "Composite") : NULL;
		fprintf(f, "  %-22s %s\n", c && c->kind == AV_STR ? ir_symstr(m, c->u.s) : "call",
		        ir_type_str(m, nd->type, ty, sizeof ty));
	} else if (nd->kind == NK_CALL) {
		fprintf(f, "  %-22s %s\n", ir_ops[nd->op].name, ir_type_str(m, nd->type, ty, sizeof ty));
	}
}

/* stream: partition fn as acme instructions */
static void
stream(const Module *m, NodeId fn, FILE *f)
{
	NodeId body = ir_func_body(m, fn);
	unsigned char *seen = calloc(m->nnodes, 1);
	char ty[256];

	if (!seen)
		return;
	fprintf(f, "partition @%s: %u input%s -> %s\n", name(m, fn), ir_func_nparams(m, fn),
	        ir_func_nparams(m, fn) == 1 ? "" : "s", ir_type_str(m, m->nodes[body].type, ty, sizeof ty));
	walk(m, body, seen, f);
	free(seen);
}

static int
emit(const Module *m, const NodeId *fns, uint32_t nfns, FILE *f, Diag *d)
{
	(void)d;
	fprintf(f, "# acme command stream, %u partition%s\n", nfns, nfns == 1 ? "" : "s");
	for (uint32_t i = 0; i < nfns; i++)
		stream(m, fns[i], f);
	return ferror(f) ? 1 : 0;
}

/* A partition on acme's simulator: graft's reference interpreter. */
typedef struct Sim {
	RefProg *prog;
	char name[64];
	unsigned long runs;
} Sim;

static void *
prepare(const Module *m, NodeId fn, Diag *d)
{
	Sim *s;
	RefProg *p = ref_prepare(m, fn, d);

	if (!p)
		return NULL;
	s = calloc(1, sizeof *s);
	if (!s) {
		ref_release(p);
		return NULL;
	}
	s->prog = p;
	snprintf(s->name, sizeof s->name, "%s", name(m, fn));
	return s;
}

static int
run(void *prog, const Tensor *in, uint32_t nin, Tensor *out, uint32_t nout, Diag *d)
{
	Sim *s = prog;
	RefVal args[16];
	const RefVal *ap[16];
	RefVal res;
	int bad;

	if (nin > 16 || nin != ref_nparams(s->prog))
		return 1;
	/* a switch for tests: a codegen that fails reports why and returns nonzero */
	if (getenv("ACME_FAIL")) {
		ir_error(d, (Loc){ 0, 0, 0 }, "acme's simulator is switched off (ACME_FAIL is set)");
		return 1;
	}
	for (uint32_t i = 0; i < nin; i++) {
		memset(&args[i], 0, sizeof args[i]);
		args[i].kind = RV_TENSOR;
		args[i].dt = (uint8_t)in[i].dt;
		args[i].rank = (uint16_t)in[i].rank;
		memcpy(args[i].dims, in[i].dims, sizeof args[i].dims);
		args[i].n = ir_tensor_numel(&in[i]);
		args[i].data = in[i].data;
		ap[i] = &args[i];
	}
	memset(&res, 0, sizeof res);
	if ((bad = ref_run(s->prog, ap, &res, d)))
		return bad;
	for (uint32_t i = 0; i < nout; i++) {
		const RefVal *v = res.kind == RV_TUPLE ? &res.f[i] : &res;
		size_t nb = ir_tensor_bytes(&out[i]);
		out[i].data = malloc(nb ? nb : 1);
		if (!out[i].data || v->kind != RV_TENSOR) {
			bad = 1;
			break;
		}
		memcpy(out[i].data, v->data, nb);
	}
	ref_vdrop(&res);
	s->runs++;
	if (getenv("ACME_TRACE"))
		fprintf(stderr, "acme: ran @%s\n", s->name);
	return bad;
}

static void
release(void *prog)
{
	Sim *s = prog;

	ref_release(s->prog);
	free(s);
}

/* ---------------------------------------------------------------- acme.softsign */

/* x / (1 + |x|), plus alpha x below zero: its attribute, and its one row
** of scalar.def's form, written in <graft/scalar.h>'s words (included
** here, last, as they are short) */
static const AttrField softsign_attrs[] = {
	{ "alpha", AT_FLOAT, "0f" },
};

#include <graft/scalar.h>

static const ScalarDef softsign_rows[] = {
	{ 0, SI_NONE, NULL, NULL, ADD(DIV(X, ADD(K(1), FN(fabs, X))), SEL(LT(X, K(0)), MUL(X, P(0)), K(0))) },
};

/* ---------------------------------------------------------------- the entry point */

static int
init(GraftPluginHost *h)
{
	static const OpInfo clip_cast = {
		"acme.clip_cast", 1, OPF_ELEM, rel_clip_cast, clip_cast_attrs,
		(int)(sizeof clip_cast_attrs / sizeof clip_cast_attrs[0])
	};
	static const OpInfo chan_scale = {
		"acme.chan_scale", 1, 0, rel_chan_scale, chan_scale_attrs,
		(int)(sizeof chan_scale_attrs / sizeof chan_scale_attrs[0])
	};
	static const OpInfo softsign = {    /* no type relation: its operand's type */
		"acme.softsign", 1, OPF_ELEM | OPF_ELEMWISE, NULL, softsign_attrs,
		(int)(sizeof softsign_attrs / sizeof softsign_attrs[0])
	};
	static const BeCodegen codegen = { "acme", emit, prepare, run, release };

	/* the ops first: the rulesets use them */
	if (!graft_plugin_add_op(h, &clip_cast, kernel_clip_cast) ||
	    !graft_plugin_add_kernel_op(h, &chan_scale, acme_chan_scale, "acme_chan_scale") ||
	    !graft_plugin_add_scalar_op(h, &softsign, softsign_rows, 1))
		return 1;
	if (!graft_plugin_add_ruleset(h, &graft_ruleset_acme) ||
	    !graft_plugin_add_codegen(h, &codegen))
		return 1;
	return 0;
}

GRAFT_PLUGIN("acme", "1.0", init);
