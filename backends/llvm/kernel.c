/*
** kernel.c: plugin ops' C kernels (ir/kernel.h) in the llvm backend: a
** call of one passes its operands and result as graft_tensors and its
** attributes as a constant graft_attr array, and calls the kernel by its
** symbol, which the JIT binds to the kernel registered in this process
** and an object file leaves to the linker.
*/
#define _POSIX_C_SOURCE 200809L
#include "llvmi.h"
#include "kernel.h"

/* ll_kcall: op call c of a plugin's op with a C kernel (ir/kernel.h): its
** operands and result as graft_tensors on the stack, its attributes
** (ir_kattrs) a constant array, and the kernel called by its symbol,
** which the JIT binds to the loaded kernel (ll_kdefine) and an object file
** leaves to the linker; a nonzero return sets 4 in the entry's error */
Val
ll_kcall(G *g, Call *c)
{
	const Module *m = g->m;
	OpId op = m->nodes[c->n].op;
	const OpInfo *o = &ir_ops[op];
	uint32_t nin = m->nodes[c->n].nargs;
	const char *sym;
	LLVMTypeRef tt = LLVMStructTypeInContext(g->cx, (LLVMTypeRef[]){ g->p8, g->p8, g->i32, g->i32 }, 4, 0);
	LLVMTypeRef at = LLVMStructTypeInContext(g->cx, (LLVMTypeRef[]){ g->i32, g->i32, g->i64, g->f64, g->p8, g->p8,
	                                                                 g->p8 }, 7, 0);
	LLVMTypeRef fty = LLVMFunctionType(g->i32, (LLVMTypeRef[]){ g->p8, g->i32, g->p8, g->i32, g->p8 }, 5, 0);
	LLVMValueRef ins, outs, fn, *av, attrs, rc, err;
	graft_attr *ka;
	void *mem;
	Val r;

	ref_ckernel(op, &sym);
	for (uint32_t i = 0; i < nin && i < 8; i++)
		if (ir_type(m, c->at[i])->kind != TY_TENSOR || !c->a[i].p)
			nin = 9;
	if (ir_type(m, c->ot)->kind != TY_TENSOR || nin > 8) {
		ll_refuse(g, c->n, "its C kernel takes at most 8 tensors and gives one");
		return ir_type(m, c->ot)->kind == TY_TENSOR ? ll_tensorbuf(g, c->ot) : (Val){ 0 };
	}
	r = ll_tensorbuf(g, c->ot);
	/* the tensors: data, a constant shape, rank, GRAFT_DT_ code */
	ins = LLVMBuildAlloca(g->b, LLVMArrayType(tt, nin ? nin : 1), "k.in");
	outs = LLVMBuildAlloca(g->b, tt, "k.out");
	for (uint32_t i = 0; i <= nin; i++) {
		LLVMValueRef p = i < nin ? LLVMBuildInBoundsGEP2(g->b, LLVMArrayType(tt, nin), ins,
		                                                 (LLVMValueRef[]){ ll_c64(g, 0), ll_c64(g, i) }, 2, "") : outs;
		const int64_t *dims = i < nin ? c->ad[i] : c->od;
		int rank = i < nin ? c->ar[i] : c->orank;
		DType dt = i < nin ? c->adt[i] : c->odt;
		LLVMValueRef f[4] = { i < nin ? c->a[i].p : r.p, ll_constbuf(g, dims, (size_t)rank * 8), ll_c32(g, rank),
		                      ll_c32(g, ir_kdtype(dt)) };
		for (unsigned k = 0; k < 4; k++)
			LLVMBuildStore(g->b, f[k], LLVMBuildStructGEP2(g->b, tt, p, k, ""));
	}
	/* the attributes, as the C backend and ref give them */
	ka = ir_xcalloc((size_t)o->nattrs + 1, sizeof *ka);
	mem = ir_kattrs(m, op, ir_attrs(m, c->n), ka);
	av = ir_xcalloc((size_t)o->nattrs + 1, sizeof *av);
	for (int k = 0; k < o->nattrs; k++) {
		const graft_attr *a = &ka[k];
		LLVMValueRef nul = LLVMConstNull(g->p8);
		LLVMValueRef f[7] = { ll_c32(g, a->kind), ll_c32(g, a->n), ll_c64(g, a->i), LLVMConstReal(g->f64, a->f),
		                      a->kind == GRAFT_ATTR_INTS ? ll_constbuf(g, a->ints, (size_t)a->n * 8) : nul,
		                      a->kind == GRAFT_ATTR_FLOATS ? ll_constbuf(g, a->floats, (size_t)a->n * 8) : nul,
		                      a->kind == GRAFT_ATTR_STRING ? ll_constbuf(g, a->s, (size_t)a->n + 1) : nul };
		av[k] = LLVMConstStructInContext(g->cx, f, 7, 0);
	}
	if (!o->nattrs)
		av[0] = LLVMConstNull(at);
	attrs = LLVMAddGlobal(g->mod, LLVMArrayType(at, o->nattrs ? (unsigned)o->nattrs : 1), "k.attrs");
	LLVMSetLinkage(attrs, LLVMInternalLinkage);
	LLVMSetInitializer(attrs, LLVMConstArray(at, av, o->nattrs ? (unsigned)o->nattrs : 1));
	LLVMSetGlobalConstant(attrs, 1);
	free(av);
	free(mem);
	free(ka);
	/* the call, and its error */
	if (!(fn = LLVMGetNamedFunction(g->mod, sym)))
		fn = LLVMAddFunction(g->mod, sym, fty);
	rc = LLVMBuildCall2(g->b, fty, fn, (LLVMValueRef[]){ LLVMBuildBitCast(g->b, ins, g->p8, ""), ll_c32(g, nin),
	                    LLVMBuildBitCast(g->b, outs, g->p8, ""), ll_c32(g, 1), LLVMConstBitCast(attrs, g->p8) }, 5, "");
	err = LLVMBuildLoad2(g->b, g->i32, g->err, "");
	LLVMBuildStore(g->b, LLVMBuildOr(g->b, err, LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntNE, rc, ll_c32(g, 0), ""),
	                                                             ll_c32(g, 4), ll_c32(g, 0), ""), ""), g->err);
	return r;
}

/* ll_kdefine: the JIT's definitions of the C kernels' symbols (ll_kcall), at
** the kernels registered in this process; NULL, or LLVM's error */
LLVMErrorRef
ll_kdefine(LLVMOrcLLJITRef jit)
{
	LLVMJITCSymbolMapPair sym[IR_MAXOPS];
	const char *names[IR_MAXOPS];
	size_t n = 0;

	for (OpId op = OP_COUNT; op < ir_op_count(); op++) {
		const char *name;
		graft_kernel *fn = ref_ckernel(op, &name);
		size_t k = 0;
		while (fn && k < n && strcmp(names[k], name) != 0)
			k++;
		if (!fn || k < n)
			continue;       /* none, or one kernel for two ops */
		names[n] = name;
		sym[n++] = (LLVMJITCSymbolMapPair){ LLVMOrcLLJITMangleAndIntern(jit, name),
		                                    { (LLVMOrcExecutorAddress)(uintptr_t)fn,
		                                      { LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable, 0 } } };
	}
	return n ? LLVMOrcJITDylibDefine(LLVMOrcLLJITGetMainJITDylib(jit), LLVMOrcAbsoluteSymbols(sym, n)) : NULL;
}
