/*
** acme.c: the graft plugin of the Acme NPU, a made-up accelerator.  It
** brings to graft what a real target's bring-up team would:
**
**   acme.clip_cast   acme's own op (clip, then narrow to 8 bits)
**   acme.chan_scale  another (scale and shift each channel); each with its
**                    type relation and C kernel (acme-kernels.c), which
**                    every backend runs and `--emit c`/`--emit obj` code
**                    links
**   acme.softsign    an elementwise op given as a row in scalar.def's form
**                    (x / (1 + |x|), with a leak below zero): every
**                    backend computes it as graft's own elementwise ops
**   acme.atan2       one of two operands, likewise (atan2(y, x))
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
** It uses graft's public headers alone (<graft/graft.h>).  Built into a
** shared object, it is what `graft --plugin acme.so` loads; linked into a
** program (acme-run.c), graft_register_plugin() takes it.
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

/* ---------------------------------------------------------------- type relations */

/* isint: an integer dtype of at most 32 bits */
static int
isint(int dt)
{
	return dt == GRAFT_DT_INT8 || dt == GRAFT_DT_UINT8 || dt == GRAFT_DT_INT16 || dt == GRAFT_DT_UINT16 ||
	       dt == GRAFT_DT_INT32 || dt == GRAFT_DT_UINT32;
}

/* refuse: why a relation refuses, into err; nonzero */
static int
refuse(char *err, size_t nerr, const char *why)
{
	snprintf(err, nerr, "%s", why);
	return 1;
}

static const graft_attr_def clip_cast_attrs[] = {
	{ "a_min", GRAFT_AT_FLOAT, NULL },
	{ "a_max", GRAFT_AT_FLOAT, NULL },
	{ "dtype", GRAFT_AT_DTYPE, "\"int8\"" },
};

/* clip_cast's type relation: data's shape, dtype's dtype; integers only,
** and whole bounds */
static int
rel_clip_cast(const graft_type *in, uint32_t nin, const graft_attr *attrs, graft_type *out, char *err,
              size_t nerr)
{
	double lo = attrs[ACME_CC_MIN].f, hi = attrs[ACME_CC_MAX].f;
	int64_t dt = attrs[ACME_CC_DTYPE].i;

	(void)nin;
	if (in[0].rank < 0 || !isint(in[0].dtype))
		return refuse(err, nerr, "acme.clip_cast takes a tensor of integers of up to 32 bits");
	if (dt != GRAFT_DT_INT8 && dt != GRAFT_DT_UINT8)
		return refuse(err, nerr, "acme.clip_cast narrows to int8 or uint8");
	if (lo != (double)(int64_t)lo || hi != (double)(int64_t)hi || lo > hi)
		return refuse(err, nerr, "acme.clip_cast clips to whole bounds, a_min <= a_max");
	*out = in[0];
	out->dtype = (int32_t)dt;
	return 0;
}

/* its attributes, in the order of acme-kernels.h's ACME_CS_* */
static const graft_attr_def chan_scale_attrs[] = {
	{ "scale", GRAFT_AT_FLOATS, NULL },
	{ "bias", GRAFT_AT_INTS, NULL },
	{ "axis", GRAFT_AT_INT, "1" },
	{ "rounding", GRAFT_AT_STR, "\"floor\"" },
	{ "dtype", GRAFT_AT_DTYPE, "\"int8\"" },
};

/* chan_scale's type relation: data's shape, dtype's dtype; int8, int32 or
** float32 data, a scale and a bias per channel of axis, a known rounding */
static int
rel_chan_scale(const graft_type *in, uint32_t nin, const graft_attr *attrs, graft_type *out, char *err,
               size_t nerr)
{
	int64_t axis = attrs[ACME_CS_AXIS].i, dt = attrs[ACME_CS_DTYPE].i;
	const char *r = attrs[ACME_CS_ROUNDING].s ? attrs[ACME_CS_ROUNDING].s : "";
	int d = in[0].dtype;

	(void)nin;
	if (in[0].rank < 0 || (d != GRAFT_DT_INT8 && d != GRAFT_DT_INT32 && d != GRAFT_DT_FLOAT32))
		return refuse(err, nerr, "acme.chan_scale takes a tensor of int8, int32 or float32");
	if (axis < 0 || axis >= in[0].rank || in[0].dims[axis] < 0) {
		snprintf(err, nerr, "acme.chan_scale: axis %lld is not a known axis of the data", (long long)axis);
		return 1;
	}
	if (attrs[ACME_CS_SCALE].n != in[0].dims[axis] || attrs[ACME_CS_BIAS].n != in[0].dims[axis])
		return refuse(err, nerr, "acme.chan_scale: scale and bias need one value per channel");
	if (strcmp(r, "floor") != 0 && strcmp(r, "nearest") != 0)
		return refuse(err, nerr, "acme.chan_scale rounds \"floor\" or \"nearest\"");
	if (dt != GRAFT_DT_INT8 && dt != GRAFT_DT_UINT8 && dt != GRAFT_DT_INT32 && dt != GRAFT_DT_FLOAT32)
		return refuse(err, nerr, "acme.chan_scale gives int8, uint8, int32 or float32");
	*out = in[0];
	out->dtype = (int32_t)dt;
	return 0;
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

/* walk: one acme instruction per op or composite under n, operands first */
static void
walk(const graft_ir *m, graft_node n, unsigned char *seen, FILE *f)
{
	int k = graft_kind(m, n);
	char ty[256];

	if (seen[n])
		return;
	seen[n] = 1;
	if (k != GRAFT_NK_CALL && k != GRAFT_NK_CALLFN && k != GRAFT_NK_TUPLE && k != GRAFT_NK_GETITEM)
		return;
	for (uint32_t i = k == GRAFT_NK_CALLFN; i < graft_nargs(m, n); i++)
		walk(m, graft_arg(m, n, i), seen, f);
	if (k == GRAFT_NK_CALLFN) {
		const char *c = graft_func_attr(m, graft_arg(m, n, 0), "Composite");
		fprintf(f, "  %-22s %s\n", c ? c : "call", graft_type_str(m, n, ty, sizeof ty));
	} else if (k == GRAFT_NK_CALL) {
		fprintf(f, "  %-22s %s\n", graft_op_name(m, n), graft_type_str(m, n, ty, sizeof ty));
	}
}

/* stream: partition fn as acme instructions */
static void
stream(const graft_ir *m, graft_node fn, FILE *f)
{
	uint32_t nparams = graft_nargs(m, fn) - 1;      /* the parameters, then the body */
	graft_node body = graft_arg(m, fn, nparams);
	unsigned char *seen = calloc(graft_nnodes(m), 1);
	char ty[256];

	if (!seen)
		return;
	fprintf(f, "partition @%s: %u input%s -> %s\n", graft_name(m, fn), nparams, nparams == 1 ? "" : "s",
	        graft_type_str(m, body, ty, sizeof ty));
	walk(m, body, seen, f);
	free(seen);
}

static int
emit(const graft_ir *m, const graft_node *fns, uint32_t nfns, FILE *f, graft_diag *d)
{
	(void)d;
	fprintf(f, "# acme command stream, %u partition%s\n", nfns, nfns == 1 ? "" : "s");
	for (uint32_t i = 0; i < nfns; i++)
		stream(m, fns[i], f);
	return ferror(f) ? 1 : 0;
}

/* A partition on acme's simulator: graft's reference interpreter. */
typedef struct Sim {
	graft_ref_prog *prog;
	char name[64];
} Sim;

static void *
prepare(const graft_ir *m, graft_node fn, graft_diag *d)
{
	graft_ref_prog *p = graft_ref_prepare(m, fn, d);
	Sim *s;

	if (!p)
		return NULL;
	if (!(s = calloc(1, sizeof *s))) {
		graft_ref_release(p);
		return NULL;
	}
	s->prog = p;
	snprintf(s->name, sizeof s->name, "%s", graft_name(m, fn));
	return s;
}

static int
run(void *prog, const graft_tensor *in, uint32_t nin, graft_tensor *out, uint32_t nout, graft_diag *d)
{
	Sim *s = prog;
	int bad;

	/* a switch for tests: a codegen that fails reports why and returns nonzero */
	if (getenv("ACME_FAIL")) {
		graft_diag_error(d, "acme's simulator is switched off (ACME_FAIL is set)");
		return 1;
	}
	bad = graft_ref_run(s->prog, in, nin, out, nout, d);
	if (!bad && getenv("ACME_TRACE"))
		fprintf(stderr, "acme: ran @%s\n", s->name);
	return bad;
}

static void
release(void *prog)
{
	Sim *s = prog;

	graft_ref_release(s->prog);
	free(s);
}

/* ---------------------------------------------------------------- acme.softsign */

/* x / (1 + |x|), plus alpha x below zero: its attribute, and its one row
** in <graft/scalar.h>'s words (included here, last, as they are short) */
static const graft_attr_def softsign_attrs[] = {
	{ "alpha", GRAFT_AT_FLOAT, "0f" },
};

#include <graft/scalar.h>

static const graft_scalar_row softsign_rows[] = {
	{ NULL, GRAFT_SI_NONE, ADD(DIV(X, ADD(K(1), FN(fabs, X))), SEL(LT(X, K(0)), MUL(X, P(0)), K(0))) },
};

/* acme.atan2(y, x): the C library's atan2 of two operands, broadcast as
** numpy does; an operand that is a NaN gives it back, as the row says */
static const graft_scalar_row atan2_rows[] = {
	{ NULL, GRAFT_SI_NONE, SEL(ISNAN(X), X, FN2(atan2, X, Y)) },
};

/* ---------------------------------------------------------------- the entry point */

static int
init(graft_plugin_host *h)
{
	static const graft_op_def clip_cast = {
		"acme.clip_cast", 1, GRAFT_OPF_ELEM, rel_clip_cast, clip_cast_attrs,
		(int)(sizeof clip_cast_attrs / sizeof clip_cast_attrs[0])
	};
	static const graft_op_def chan_scale = {
		"acme.chan_scale", 1, 0, rel_chan_scale, chan_scale_attrs,
		(int)(sizeof chan_scale_attrs / sizeof chan_scale_attrs[0])
	};
	static const graft_op_def softsign = {      /* no type relation: its operand's type */
		"acme.softsign", 1, GRAFT_OPF_ELEM, NULL, softsign_attrs,
		(int)(sizeof softsign_attrs / sizeof softsign_attrs[0])
	};
	static const graft_op_def atan2_op = {      /* two operands: their broadcast */
		"acme.atan2", 2, GRAFT_OPF_ELEM | GRAFT_OPF_BCAST, NULL, NULL, 0
	};
	static const graft_codegen codegen = { "acme", emit, prepare, run, release };

	/* the ops first: the matchers use them */
	if (!graft_plugin_add_op(h, &clip_cast, acme_clip_cast, "acme_clip_cast") ||
	    !graft_plugin_add_op(h, &chan_scale, acme_chan_scale, "acme_chan_scale") ||
	    !graft_plugin_add_scalar_op(h, &softsign, softsign_rows, 1) ||
	    !graft_plugin_add_scalar_op(h, &atan2_op, atan2_rows, 1))
		return 1;
	if (!graft_plugin_add_matcher(h, &graft_ruleset_acme) || !graft_plugin_add_codegen(h, &codegen))
		return 1;
	return 0;
}

GRAFT_PLUGIN("acme", "1.0", init);
