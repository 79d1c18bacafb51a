/*
** jit.c: be_llvm, the llvm backend behind backend.h: a module compiled
** in-process by ORC LLJIT (prepare), its entries run with graft's
** thread pool (par.h) sized per program, the constants kept out of
** LLVM's module (Blob) defined at graft's own copies.
*/
#define _POSIX_C_SOURCE 200809L
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>

#include "llvmi.h"
#include "par.h"

struct Program {
	LLVMOrcLLJITRef jit;
	BeEntry *fn;
	BeSig sig;
	BeExt **ext;            /* the partitions codegens run */
	uint32_t next;
	int threads;            /* BeOpts.threads: the pool's size for its runs */
	Blobs blobs;            /* the constants the code reads from here (Blob) */
};

/* freeext: p's partitions */
static void
freeext(Program *p)
{
	for (uint32_t k = 0; k < p->next; k++)
		be_ext_free(p->ext[k]);
	free(p->ext);
	p->ext = NULL;
	p->next = 0;
	for (uint32_t k = 0; k < p->blobs.n; k++)
		free(p->blobs.b[k].data);
	free(p->blobs.b);
	memset(&p->blobs, 0, sizeof p->blobs);
}

/* jiterr: reports an LLVM error; returns NULL */
static void *
jiterr(LLVMErrorRef e, Diag *d)
{
	char *s = LLVMGetErrorMessage(e);
	ir_error(d, (Loc){ 0, 0, 0 }, "llvm: %s", s);
	LLVMDisposeErrorMessage(s);
	return NULL;
}

/* used: whether something uses v other than constant expressions that
** nothing uses */
static int
used(LLVMValueRef v)
{
	for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
		LLVMValueRef user = LLVMGetUser(u);
		if (!LLVMIsAConstantExpr(user) || used(user))
			return 1;
	}
	return 0;
}

/* blobprune: drops the blobs of bl that nothing in mod uses (a plan
** that lowering made and then did not take); their declarations stay,
** unused, so that no constant expression is left dangling */
static void
blobprune(Blobs *bl, LLVMModuleRef mod)
{
	uint32_t n = 0;

	for (uint32_t k = 0; k < bl->n; k++) {
		LLVMValueRef gv = LLVMGetNamedGlobal(mod, bl->b[k].name);
		if (gv && !used(gv)) {
			free(bl->b[k].data);
		} else {
			bl->b[n++] = bl->b[k];
		}
	}
	bl->n = n;
}

/* be_llvm_prepare: see llvm.h */
Program *
be_llvm_prepare(const Module *m, const BeOpts *o, BeStats *st, Diag *d)
{
	Program *p;
	Mach mc;
	LLVMTargetMachineRef tm;
	LLVMOrcThreadSafeContextRef tsc;
	LLVMModuleRef mod;
	LLVMOrcLLJITBuilderRef jb;
	LLVMOrcDefinitionGeneratorRef gen;
	LLVMOrcJITTargetAddress addr;
	LLVMErrorRef e;
	double t0;
	char err[512];
	int threads = ll_nparts();

	if (ll_mach_init(&mc, o, err, sizeof err)) {
		ir_error(d, (Loc){ 0, 0, 0 }, "llvm: %s", err);
		return NULL;
	}
	if (!mc.native) {
		ir_error(d, (Loc){ 0, 0, 0 }, "the llvm backend cannot run code for %s on this machine: its JIT runs "
		         "this machine's code; compile with graft --emit obj (or --emit c) and run it there", mc.triple);
		ll_mach_free(&mc);
		return NULL;
	}
	tm = ll_machine(&mc, o ? o->opt : 2);
	p = ir_xcalloc(1, sizeof *p);
	p->threads = o ? o->threads : 0;
	if (be_sig(m, &p->sig, d)) {
		LLVMDisposeTargetMachine(tm);
		ll_mach_free(&mc);
		free(p);
		return NULL;
	}
	tsc = LLVMOrcCreateNewThreadSafeContext();
	mod = ll_build(m, o, LLVMOrcThreadSafeContextGetContext(tsc), tm, &mc, 1, 1, &p->ext, &p->next, &p->blobs, st, d);
	if (mod)
		blobprune(&p->blobs, mod);
	if (!mod) {
		ll_mach_free(&mc);
		LLVMOrcDisposeThreadSafeContext(tsc);
		LLVMDisposeTargetMachine(tm);
		freeext(p);
		be_sig_free(&p->sig);
		free(p);
		return NULL;
	}
	t0 = ll_now();
	jb = LLVMOrcCreateLLJITBuilder();
	LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(jb, LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(tm));
	if ((e = LLVMOrcCreateLLJIT(&p->jit, jb)) != NULL)
		goto fail;
	if ((e = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(&gen, LLVMOrcLLJITGetGlobalPrefix(p->jit), NULL, NULL)) != NULL)
		goto fail;
	LLVMOrcJITDylibAddGenerator(LLVMOrcLLJITGetMainJITDylib(p->jit), gen);
	{
		/* graft_par_run, which split loops call (ll_par_open) */
		LLVMJITCSymbolMapPair sym = { LLVMOrcLLJITMangleAndIntern(p->jit, "graft_par_run"),
		                              { (LLVMOrcExecutorAddress)(uintptr_t)be_par_run,
		                                { LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable, 0 } } };
		if ((e = LLVMOrcJITDylibDefine(LLVMOrcLLJITGetMainJITDylib(p->jit), LLVMOrcAbsoluteSymbols(&sym, 1))) != NULL)
			goto fail;
	}
	if ((e = ll_kdefine(p->jit)) != NULL)   /* plugin ops' C kernels */
		goto fail;
	if (p->blobs.n) {
		/* the blobs, at their data's addresses */
		LLVMJITCSymbolMapPair *sym = ir_xcalloc(p->blobs.n, sizeof *sym);
		for (uint32_t k = 0; k < p->blobs.n; k++)
			sym[k] = (LLVMJITCSymbolMapPair){ LLVMOrcLLJITMangleAndIntern(p->jit, p->blobs.b[k].name),
			                                  { (LLVMOrcExecutorAddress)(uintptr_t)p->blobs.b[k].data,
			                                    { LLVMJITSymbolGenericFlagsExported, 0 } } };
		e = LLVMOrcJITDylibDefine(LLVMOrcLLJITGetMainJITDylib(p->jit), LLVMOrcAbsoluteSymbols(sym, p->blobs.n));
		free(sym);
		if (e)
			goto fail;
	}
	{
		double opt_ns;
		int hit;
		/* a plugin's partitions are called through addresses of this
		   process (callout): such code is not cached */
		e = ll_splitjit(p->jit, mod, &mc, o ? o->opt : 2, threads, !p->next, &p->blobs, &opt_ns, &hit);
		if (st) {
			st->opt_ns = opt_ns;
			st->cached = hit;
		}
		if (e)
			goto fail;
	}
	LLVMOrcDisposeThreadSafeContext(tsc);
	tsc = NULL;
	if ((e = LLVMOrcLLJITLookup(p->jit, &addr, "graft_main")) != NULL)
		goto fail;
	p->fn = (BeEntry *)(uintptr_t)addr;
	if (st)
		st->codegen_ns = ll_now() - t0 - st->opt_ns;
	ll_mach_free(&mc);
	return p;
fail:
	jiterr(e, d);
	ll_mach_free(&mc);
	if (tsc)
		LLVMOrcDisposeThreadSafeContext(tsc);
	if (p->jit)
		LLVMOrcDisposeLLJIT(p->jit);
	freeext(p);
	be_sig_free(&p->sig);
	free(p);
	return NULL;
}

static Program *
prepare(const Module *m, const BeOpts *o, Diag *d)
{
	return be_check_sizes(m, d) ? NULL : be_llvm_prepare(m, o, NULL, d);
}

static int
run(Program *p, const Tensor *in, Tensor *out, Diag *d)
{
	be_par_threads(p->threads > 0 ? p->threads : be_par_cores());
	return be_run_entry_ext(p->fn, &p->sig, in, out, d, p->ext, p->next);
}

/* be_llvm_threads: see llvm.h */
void
be_llvm_threads(Program *p, int n)
{
	p->threads = n;
}

/* be_llvm_cores: see llvm.h */
int
be_llvm_cores(void)
{
	return be_par_cores();
}

static void
release(Program *p)
{
	if (!p)
		return;
	LLVMOrcDisposeLLJIT(p->jit);
	freeext(p);
	be_sig_free(&p->sig);
	free(p);
}

const Backend be_llvm = { "llvm", prepare, run, release };
