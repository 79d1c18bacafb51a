/*
** codegen.c: the codegens of targets graft does not drive natively, which
** plugins register (TVM's relay.ext.<target>): a table by target name.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bei.h"

enum { MAXCODEGENS = 64 };

static BeCodegen codegens[MAXCODEGENS];
static uint32_t ncodegens;

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

/* be_ext_call: a partition run by its codegen, from generated code (bei.h) */
int32_t
be_ext_call(void *ctx, const void *const *in, void *const *out)
{
	BeExt *x = ctx;
	Tensor *ti = ir_xcalloc(x->sig.nin + 1, sizeof *ti), *to = ir_xcalloc(x->sig.nout + 1, sizeof *to);
	int bad;

	for (uint32_t i = 0; i < x->sig.nin; i++) {
		ti[i] = x->sig.in[i];
		memcpy(&ti[i].data, &in[i], sizeof ti[i].data);   /* borrowed, not written */
	}
	for (uint32_t j = 0; j < x->sig.nout; j++) {
		to[j] = x->sig.out[j];
		to[j].data = NULL;
	}
	bad = x->cg->run(x->prog, ti, x->sig.nin, to, x->sig.nout, x->d);
	for (uint32_t j = 0; j < x->sig.nout && !bad; j++)
		if (!to[j].data || to[j].dt != x->sig.out[j].dt || to[j].rank != x->sig.out[j].rank ||
		    memcmp(to[j].dims, x->sig.out[j].dims, to[j].rank * sizeof *to[j].dims)) {
			ir_error(x->d, (Loc){ 0, 0, 0 }, "the codegen of target %s gave result %u of @%s no data, or "
			         "another shape or dtype than its type", x->cg->target, j, x->name);
			bad = 1;
		}
	for (uint32_t j = 0; j < x->sig.nout; j++) {
		if (!bad)
			memcpy(out[j], to[j].data, ir_tensor_bytes(&x->sig.out[j]));
		free(to[j].data);
	}
	free(ti);
	free(to);
	x->failed |= bad != 0;
	return bad != 0;
}

