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

static Program *
prepare(const Module *m, const BeOpts *o, Diag *d)
{
	Program *p;
	BeSig sig;
	Sym mainsym;
	NodeId fn = 0;
	RefProg *rp;

	(void)o;
	if (be_sig(m, &sig, d))
		return NULL;
	be_sig_free(&sig);
	if (ir_sym_find(m, "main", 4, ir_sym_hash(IR_SYM_HASH0, "main", 4), &mainsym))
		fn = ir_global_find(m, mainsym);
	if (!(rp = ref_prepare(m, fn, d)))
		return NULL;
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
