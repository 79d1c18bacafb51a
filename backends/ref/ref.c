/*
** ref.c: the ref backend: @main run by the reference interpreter (ref/),
** graft's numerics oracle, behind the Backend interface.  It adds only
** the signature check and the conversion between Tensors and the
** interpreter's values.
*/
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "ref.h"

struct Program {
	RefProg *rp;
};

static void
release(Program *p)
{
	if (!p)
		return;
	ref_release(p->rp);
	free(p);
}

/* ---------------------------------------------------------------- partitions a codegen runs */

/* A partition claimed for its target's codegen: the codegen's program and
** the shapes of the result's tensors. */
typedef struct Ext {
	const BeCodegen *cg;
	void *prog;
	uint32_t nout;
	Tensor out[16];
	int tuple;
} Ext;

/* claim: the partitions whose target has a codegen that runs them */
static void *
claim(void *ctx, const Module *m, NodeId fn, Diag *d, int *failed)
{
	const BeCodegen *cg = be_codegen_of(m, fn);
	TypeId rt = m->nodes[ir_func_body(m, fn)].type;
	const Type *t = ir_type(m, rt);
	Ext *x;

	(void)ctx;
	if (!cg || !cg->run)
		return NULL;
	x = ir_xcalloc(1, sizeof *x);
	x->cg = cg;
	x->tuple = t->kind == TY_TUPLE;
	x->nout = x->tuple ? t->n : 1;
	for (uint32_t i = 0; i < x->nout && x->nout <= 16; i++) {
		TypeId ft = x->tuple ? m->tylist[t->first + i] : rt;
		const Type *f = ir_type(m, ft);
		if (f->kind != TY_TENSOR || f->n > IR_MAXDIMS) {
			x->nout = 99;
			break;
		}
		x->out[i].dt = (DType)f->dtype;
		x->out[i].rank = f->n;
		memcpy(x->out[i].dims, ir_type_dims(m, ft), f->n * sizeof *x->out[i].dims);
	}
	if (x->nout > 16) {
		ir_error(d, m->locs[fn], "the codegen of target %s runs partitions whose result is a tensor or a tuple "
		         "of at most 16 tensors", cg->target);
		free(x);
		*failed = 1;
		return NULL;
	}
	if (!(x->prog = cg->prepare(m, fn, d))) {
		free(x);
		*failed = 1;
		return NULL;
	}
	return x;
}

/* extrun: runs a claimed partition through its codegen, its results
** written into values of the partition's type (codegen.h) */
static int
extrun(void *ctx, void *h, const RefVal *const *args, uint32_t nargs, RefVal *res, Diag *d)
{
	Ext *x = h;
	graft_tensor in[64], out[16];
	int bad;

	(void)ctx;
	if (nargs > 64) {
		ir_error(d, (Loc){ 0, 0, 0 }, "a partition of target %s takes more than 64 operands", x->cg->target);
		return 1;
	}
	for (uint32_t i = 0; i < nargs; i++) {
		if (args[i]->kind != RV_TENSOR) {
			ir_error(d, (Loc){ 0, 0, 0 }, "operand %u of a partition of target %s is not a tensor", i,
			         x->cg->target);
			return 1;
		}
		in[i] = (graft_tensor){ args[i]->data, args[i]->dims, args[i]->rank, ir_kdtype((DType)args[i]->dt) };
	}
	if (x->tuple) {
		res->kind = RV_TUPLE;
		res->nf = x->nout;
		res->f = ir_xcalloc(x->nout, sizeof *res->f);
	}
	for (uint32_t i = 0; i < x->nout; i++) {
		RefVal *v = x->tuple ? &res->f[i] : res;
		v->kind = RV_TENSOR;
		v->dt = (uint8_t)x->out[i].dt;
		v->rank = (uint16_t)x->out[i].rank;
		memcpy(v->dims, x->out[i].dims, sizeof v->dims);
		v->n = ir_tensor_numel(&x->out[i]);
		ref_valloc(v);
		out[i] = (graft_tensor){ v->data, v->dims, v->rank, ir_kdtype((DType)v->dt) };
	}
	bad = x->cg->run(x->prog, in, nargs, out, x->nout, d);
	if (bad)
		ref_vdrop(res);
	return bad != 0;
}

static void
extrelease(void *ctx, void *h)
{
	Ext *x = h;

	(void)ctx;
	if (x->cg->release)
		x->cg->release(x->prog);
	free(x);
}

static Program *
prepare(const Module *m, const BeOpts *o, Diag *d)
{
	Program *p;
	BeSig sig;
	Sym mainsym;
	NodeId fn = 0;
	RefProg *rp;

	(void)o;
	if (be_check_sizes(m, d))
		return NULL;
	if (be_sig(m, &sig, d))
		return NULL;
	be_sig_free(&sig);
	if (ir_sym_find(m, "main", 4, ir_sym_hash(IR_SYM_HASH0, "main", 4), &mainsym))
		fn = ir_global_find(m, mainsym);
	{
		RefExt ext = { claim, extrun, extrelease, NULL };
		if (!(rp = ref_prepare_ext(m, fn, &ext, d)))
			return NULL;
	}
	p = ir_xcalloc(1, sizeof *p);
	p->rp = rp;
	return p;
}

/* flatten: appends the tensors of v, depth first, to out[*n..] as fresh
** copies */
static void
flatten(const RefVal *v, Tensor *out, uint32_t *n)
{
	Tensor *t;
	size_t nb;

	if (v->kind == RV_TUPLE) {
		for (uint32_t i = 0; i < v->nf; i++)
			flatten(&v->f[i], out, n);
		return;
	}
	t = &out[(*n)++];
	nb = (size_t)v->n * ir_dtype_bytes[v->dt];
	memset(t, 0, sizeof *t);
	t->dt = (DType)v->dt;
	t->rank = v->rank;
	memcpy(t->dims, v->dims, sizeof t->dims);
	t->data = ir_xmalloc(nb ? nb : 1);
	memcpy(t->data, v->data, nb);
}

static int
run(Program *p, const Tensor *in, Tensor *out, Diag *d)
{
	uint32_t np = ref_nparams(p->rp), n = 0;
	RefVal *args = ir_xcalloc(np ? np : 1, sizeof *args);
	const RefVal **ap = ir_xmalloc((np ? np : 1) * sizeof *ap);
	RefVal res;
	int bad;

	for (uint32_t i = 0; i < np; i++) {
		args[i].kind = RV_TENSOR;
		args[i].dt = (uint8_t)in[i].dt;
		args[i].rank = (uint16_t)in[i].rank;
		memcpy(args[i].dims, in[i].dims, sizeof args[i].dims);
		args[i].n = ir_tensor_numel(&in[i]);
		args[i].data = in[i].data;
		ap[i] = &args[i];
	}
	memset(&res, 0, sizeof res);
	bad = ref_run(p->rp, ap, &res, d);
	free(args);
	free(ap);
	if (bad)
		return 1;
	/* be_sig() fixed the result's tensors at prepare time: out has room */
	flatten(&res, out, &n);
	ref_vdrop(&res);
	return 0;
}

const Backend be_ref = { "ref", prepare, run, release };
