/*
** codegen.c: the codegens of targets graft does not drive natively, which
** plugins register (TVM's relay.ext.<target>): a table by target name.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bei.h"
#include "ref.h"

enum { MAXCODEGENS = 64 };

static BeCodegen codegens[MAXCODEGENS];
static uint32_t ncodegens;

/* kten: t, with data at p, as a kernel and a codegen see it (kernel.h) */
static graft_tensor
kten(const Tensor *t, void *p)
{
	return (graft_tensor){ p, t->dims, (int32_t)t->rank, ir_kdtype(t->dt) };
}

/* be_codegen_register: adds cg (backend.h) */
int
be_codegen_register(const BeCodegen *cg, char *err, size_t nerr)
{
	size_t n;
	char *t;

	if (!cg->target || !*cg->target) {
		snprintf(err, nerr, "a codegen must name its target");
		return 0;
	}
	if (!cg->prepare != !cg->run || (!cg->run && !cg->emit)) {
		snprintf(err, nerr, "the codegen of target %s must give emit(), or prepare() and run(), or all three",
		         cg->target);
		return 0;
	}
	if (be_codegen_find(cg->target)) {
		snprintf(err, nerr, "target %s has a codegen already", cg->target);
		return 0;
	}
	if (ncodegens == MAXCODEGENS) {
		snprintf(err, nerr, "target %s: no room for more than %d codegens", cg->target, MAXCODEGENS);
		return 0;
	}
	n = strlen(cg->target) + 1;
	t = memcpy(ir_xcalloc(n, 1), cg->target, n);
	codegens[ncodegens] = *cg;
	codegens[ncodegens++].target = t;
	return 1;
}

/* be_codegen_find: the codegen of target, or NULL (backend.h) */
const BeCodegen *
be_codegen_find(const char *target)
{
	for (uint32_t i = 0; i < ncodegens; i++)
		if (strcmp(codegens[i].target, target) == 0)
			return &codegens[i];
	return NULL;
}

/* be_codegen_of: the codegen that runs global function fn of m (backend.h) */
const BeCodegen *
be_codegen_of(const Module *m, NodeId fn)
{
	const AttrVal *cc;

	if (!ncodegens || !fn || m->nodes[fn].kind != NK_FUNC)
		return NULL;
	cc = ir_func_attr(m, fn, "Compiler");
	if (!cc || cc->kind != AV_STR)
		return NULL;
	return be_codegen_find(ir_symstr(m, cc->u.s));
}

/* be_ext_new: partition fn, prepared by its codegen (bei.h) */
BeExt *
be_ext_new(const Module *m, NodeId fn, Diag *d)
{
	const BeCodegen *cg = be_codegen_of(m, fn);
	BeExt *x;

	if (!cg || !cg->run)
		return NULL;
	x = ir_xcalloc(1, sizeof *x);
	x->cg = cg;
	x->fn = fn;
	for (uint32_t k = 0; k < m->nglobals; k++)
		if (m->globals[k].fn == fn)
			snprintf(x->name, sizeof x->name, "%s", ir_symstr(m, m->globals[k].name));
	if (be_sig_of(m, fn, &x->sig, d) || !(x->prog = cg->prepare(m, fn, d))) {
		be_sig_free(&x->sig);
		free(x);
		return NULL;
	}
	return x;
}

void
be_ext_free(BeExt *x)
{
	if (!x)
		return;
	if (x->cg->release)
		x->cg->release(x->prog);
	be_sig_free(&x->sig);
	free(x);
}

/* be_ext_call: a partition run by its codegen, from generated code (bei.h):
** its results written in place, as a kernel's are */
int32_t
be_ext_call(void *ctx, const void *const *in, void *const *out)
{
	BeExt *x = ctx;
	graft_tensor *ti = ir_xcalloc(x->sig.nin + 1, sizeof *ti), *to = ir_xcalloc(x->sig.nout + 1, sizeof *to);
	int bad;

	for (uint32_t i = 0; i < x->sig.nin; i++)
		ti[i] = kten(&x->sig.in[i], (void *)(uintptr_t)in[i]);  /* borrowed, not written */
	for (uint32_t j = 0; j < x->sig.nout; j++)
		to[j] = kten(&x->sig.out[j], out[j]);
	bad = x->cg->run(x->prog, ti, x->sig.nin, to, x->sig.nout, x->d);
	free(ti);
	free(to);
	x->failed |= bad != 0;
	return bad != 0;
}

/* ---------------------------------------------------------------- the reference interpreter for codegens */

/* graft_ref_prepare: see codegen.h; a graft_ref_prog is ref.h's RefProg */
graft_ref_prog *
graft_ref_prepare(const graft_ir *m, graft_node fn, graft_diag *d)
{
	return ref_prepare(m, fn, d);
}

/* refout: copies tensor v into o, whose dtype and shape must be v's */
static int
refout(const RefVal *v, graft_tensor *o, graft_diag *d)
{
	if (v->kind != RV_TENSOR || ir_kdtype((DType)v->dt) != o->dtype || v->rank != o->rank ||
	    memcmp(v->dims, o->shape, (size_t)v->rank * sizeof *v->dims)) {
		ir_error(d, (Loc){ 0, 0, 0 }, "graft_ref_run: a result of another dtype or shape than its room");
		return 1;
	}
	memcpy(o->data, v->data, (size_t)v->n * ir_dtype_bytes[v->dt]);
	return 0;
}

/* graft_ref_run: see codegen.h */
int
graft_ref_run(graft_ref_prog *p, const graft_tensor *in, uint32_t nin, graft_tensor *out, uint32_t nout,
              graft_diag *d)
{
	RefVal *args, res;
	const RefVal **ap;
	int bad;

	if (nin != ref_nparams(p)) {
		ir_error(d, (Loc){ 0, 0, 0 }, "graft_ref_run: %u operands for a partition of %u parameters", nin,
		         ref_nparams(p));
		return 1;
	}
	args = ir_xcalloc(nin + 1, sizeof *args);
	ap = ir_xcalloc(nin + 1, sizeof *ap);
	for (uint32_t i = 0; i < nin; i++) {
		if (in[i].dtype < GRAFT_DT_BOOL || in[i].dtype > GRAFT_DT_FLOAT64 || in[i].rank < 0 ||
		    in[i].rank > IR_MAXDIMS) {
			ir_error(d, (Loc){ 0, 0, 0 }, "graft_ref_run: operand %u is no tensor graft knows", i);
			free(args), free(ap);
			return 1;
		}
		args[i].kind = RV_TENSOR;
		args[i].dt = (uint8_t)in[i].dtype;     /* GRAFT_DT_ codes are DType's */
		args[i].rank = (uint16_t)in[i].rank;
		args[i].n = 1;
		for (int32_t k = 0; k < in[i].rank; k++)
			args[i].n *= args[i].dims[k] = in[i].shape[k];
		args[i].data = in[i].data;
		ap[i] = &args[i];
	}
	memset(&res, 0, sizeof res);
	bad = ref_run(p, ap, &res, d);
	for (uint32_t j = 0; j < nout && !bad; j++)
		bad = refout(res.kind == RV_TUPLE && j < res.nf ? &res.f[j] : &res, &out[j], d);
	ref_vdrop(&res);
	free(args);
	free(ap);
	return bad;
}

/* graft_ref_release: see codegen.h */
void
graft_ref_release(graft_ref_prog *p)
{
	ref_release(p);
}
