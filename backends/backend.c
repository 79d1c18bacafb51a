/*
** backend.c: what the backends share: tensors and @main's signature.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bei.h"

int
be_run_entry(BeEntry *fn, const BeSig *sig, const Tensor *in, Tensor *out, Diag *d)
{
	return be_run_entry_ext(fn, sig, in, out, d, NULL, 0);
}

/* be_run_entry_ext: be_run_entry, with the partitions codegens run (bei.h) */
int
be_run_entry_ext(BeEntry *fn, const BeSig *sig, const Tensor *in, Tensor *out, Diag *d, BeExt *const *ext,
                 uint32_t next)
{
	int failed = 0;

	const void **ip = ir_xcalloc(sig->nin + 1, sizeof *ip);
	void **op = ir_xcalloc(sig->nout + 1, sizeof *op);
	int32_t rc;

	for (uint32_t i = 0; i < sig->nin; i++)
		ip[i] = in[i].data;
	for (uint32_t j = 0; j < sig->nout; j++) {
		out[j] = sig->out[j];
		out[j].data = ir_xmalloc(ir_tensor_bytes(&out[j]) + 1);
		op[j] = out[j].data;
	}
	for (uint32_t k = 0; k < next; k++) {
		ext[k]->d = d;
		ext[k]->failed = 0;
	}
	rc = fn(ip, op);
	free(ip);
	free(op);
	for (uint32_t k = 0; k < next; k++)
		failed |= ext[k]->failed;
	if (rc) {
		for (uint32_t j = 0; j < sig->nout; j++)
			ir_tensor_free(&out[j]);
		/* a codegen that failed has said why */
		if (!failed && (rc & 1))
			ir_error(d, (Loc){ 0, 0, 0 }, "integer division by zero (or the minimum divided by -1)");
		if (!failed && (rc & 2))
			ir_error(d, (Loc){ 0, 0, 0 }, "an index is out of range (take with mode \"fast\", or gather)");
		if (!failed && (rc & 4))
			ir_error(d, (Loc){ 0, 0, 0 }, "the C kernel of a plugin's op reported an error");
		return 1;
	}
	return 0;
}

/* flatten: appends the tensors of type t (a tensor, or a tuple of them,
** depth first) to sig->out; 0 if t holds anything else or a dynamic dim */
static int
flatten(const Module *m, TypeId t, BeSig *sig, uint32_t *cap)
{
	const Type *ty = &m->types[t];

	if (ty->kind == TY_TUPLE) {
		for (uint32_t i = 0; i < ty->n; i++)
			if (!flatten(m, m->tylist[ty->first + i], sig, cap))
				return 0;
		return 1;
	}
	if (ty->kind != TY_TENSOR || ty->n > IR_MAXDIMS || ir_type_numel(m, t) < 0)
		return 0;
	ir_vgrow(&sig->out, cap, sig->nout + 1);
	memset(&sig->out[sig->nout], 0, sizeof *sig->out);
	sig->out[sig->nout].dt = (DType)ty->dtype;
	sig->out[sig->nout].rank = ty->n;
	if (ty->n)
		memcpy(sig->out[sig->nout].dims, ir_type_dims(m, t), ty->n * sizeof(int64_t));
	sig->nout++;
	return 1;
}

int
be_sig(const Module *m, BeSig *sig, Diag *d)
{
	Sym mainsym;
	NodeId fn = 0;

	memset(sig, 0, sizeof *sig);
	if (ir_sym_find(m, "main", 4, ir_sym_hash(IR_SYM_HASH0, "main", 4), &mainsym))
		fn = ir_global_find(m, mainsym);
	if (!fn) {
		ir_error(d, (Loc){ 0, 0, 0 }, "the model has no @main function to run");
		return 1;
	}
	return be_sig_of(m, fn, sig, d);
}

/* be_check_sizes: see backend.h */
int
be_check_sizes(const Module *m, Diag *d)
{
	int errs = 0;

	for (NodeId n = 1; n < m->nnodes && errs < 10; n++) {
		const Type *t = m->nodes[n].type ? ir_type(m, m->nodes[n].type) : NULL;
		int64_t numel;
		char dims[160];
		if (!t || t->kind != TY_TENSOR || (numel = ir_type_numel(m, m->nodes[n].type)) < 0 ||
		    ir_tensor_fits(numel, (DType)t->dtype))
			continue;
		ir_type_str(m, m->nodes[n].type, dims, sizeof dims);
		ir_error(d, m->locs[n], "a value of type %s: %lld elements, more than graft's limit of %llu bytes for "
		         "one tensor (raise it with --max-tensor-bytes)", dims, (long long)numel,
		         (unsigned long long)ir_max_tensor_bytes());
		errs++;
	}
	return errs;
}

int
be_sig_of(const Module *m, NodeId fn, BeSig *sig, Diag *d)
{
	NodeId body;
	uint32_t cap = 0;
	char buf[256];
	const char *name = "a function";

	memset(sig, 0, sizeof *sig);
	for (uint32_t k = 0; k < m->nglobals; k++)
		if (m->globals[k].fn == fn)
			name = ir_symstr(m, m->globals[k].name);
	sig->nin = ir_func_nparams(m, fn);
	sig->in = ir_xcalloc(sig->nin ? sig->nin : 1, sizeof *sig->in);
	sig->inname = ir_xcalloc(sig->nin ? sig->nin : 1, sizeof *sig->inname);
	for (uint32_t i = 0; i < sig->nin; i++) {
		NodeId p = ir_arg(m, fn, i);
		TypeId t = m->nodes[p].type;
		const Type *ty = &m->types[t];
		sig->inname[i] = m->nodes[p].aux;
		if (ty->kind != TY_TENSOR || ty->n > IR_MAXDIMS || ir_type_numel(m, t) < 0) {
			ir_error(d, m->locs[p], "parameter %%%s of @%s is a %s; graft runs only tensors of known shape",
			         ir_symstr(m, sig->inname[i]), name, ir_type_str(m, t, buf, sizeof buf));
			be_sig_free(sig);
			return 1;
		}
		sig->in[i].dt = (DType)ty->dtype;
		sig->in[i].rank = ty->n;
		if (ty->n)
			memcpy(sig->in[i].dims, ir_type_dims(m, t), ty->n * sizeof(int64_t));
	}
	body = ir_func_body(m, fn);
	if (!flatten(m, m->nodes[body].type, sig, &cap)) {
		ir_error(d, m->locs[fn], "@%s returns a %s; graft runs only tensors of known shape, or tuples of them",
		         name, ir_type_str(m, m->nodes[body].type, buf, sizeof buf));
		be_sig_free(sig);
		return 1;
	}
	return 0;
}

void
be_sig_free(BeSig *sig)
{
	free(sig->in);
	free(sig->out);
	free(sig->inname);
	memset(sig, 0, sizeof *sig);
}
