/*
** module.c: the llvm backend's modules: ll_build lowers a graft module
** into an LLVM module and runs LLVM's pass pipeline on it; be_llvm_emit
** writes one as .ll text or an object file with a header.
*/
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Target.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "llvmi.h"

/* ll_now: ns of the C11 clock (TIME_UTC: only differences are used, for BeStats) */
double
ll_now(void)
{
	struct timespec t;
	timespec_get(&t, TIME_UTC);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* ll_passes: runs LLVM's default pipeline at level opt on mod */
LLVMErrorRef
ll_passes(LLVMModuleRef mod, LLVMTargetMachineRef tm, int opt)
{
	char pass[32];
	LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
	LLVMErrorRef err;

	snprintf(pass, sizeof pass, "default<O%d>", opt < 0 ? 0 : opt > 3 ? 3 : opt);
	LLVMPassBuilderOptionsSetLoopVectorization(po, opt >= 2);
	LLVMPassBuilderOptionsSetSLPVectorization(po, opt >= 2);
	LLVMPassBuilderOptionsSetLoopUnrolling(po, opt >= 2);
	err = LLVMRunPasses(mod, pass, tm, po);
	LLVMDisposePassBuilderOptions(po);
	return err;
}

/* ll_build: an optimized (unless nopasses) LLVM module in cx with one entry per global function
** (only @main when mainonly); NULL after reporting.  With blobs (the
** JIT), large constants are Blobs added there.  st, if not NULL, gets
** lower_ns and opt_ns. */
LLVMModuleRef
ll_build(const Module *m, const BeOpts *o, LLVMContextRef cx, LLVMTargetMachineRef tm, const Mach *mc, int mainonly,
      int nopasses, BeExt ***ext, uint32_t *next, Blobs *blobs, BeStats *st, Diag *d)
{
	double t0 = ll_now(), t1;
	G g;
	char *msg = NULL;
	LLVMTargetDataRef td;
	LLVMErrorRef err;
	int opt = o ? o->opt : 2;

	memset(&g, 0, sizeof g);
	g.m = m;
	g.d = d;
	g.cx = cx;
	g.lanes = mc->lanes;
	g.dot = mc->dot;
	g.ext = ext;
	g.next = next;
	g.par = ext != NULL;
	g.blobs = blobs;
	g.mod = LLVMModuleCreateWithNameInContext("graft", cx);
	g.b = LLVMCreateBuilderInContext(cx);
	g.i1 = LLVMInt1TypeInContext(cx);
	g.i8 = LLVMInt8TypeInContext(cx);
	g.i16 = LLVMInt16TypeInContext(cx);
	g.i32 = LLVMInt32TypeInContext(cx);
	g.i64 = LLVMInt64TypeInContext(cx);
	g.f16 = LLVMHalfTypeInContext(cx);
	g.f32 = LLVMFloatTypeInContext(cx);
	g.f64 = LLVMDoubleTypeInContext(cx);
	g.p8 = LLVMPointerType(g.i8, 0);
	g.cglob = ir_xcalloc(m->nconsts + 1, sizeof *g.cglob);
	{
		char *triple = LLVMGetTargetMachineTriple(tm);
		LLVMSetTarget(g.mod, triple);
		LLVMDisposeMessage(triple);
	}
	td = LLVMCreateTargetDataLayout(tm);
	LLVMSetModuleDataLayout(g.mod, td);
	LLVMDisposeTargetData(td);
	for (uint32_t i = 0; i < m->nglobals; i++) {
		const char *name = ir_symstr(m, m->globals[i].name);
		const AttrVal *gs = ir_func_attr(m, m->globals[i].fn, "global_symbol");
		char buf[256];
		if (!strcmp(name, "main"))
			snprintf(buf, sizeof buf, "graft_main");
		else if (mainonly)
			continue;
		else if (gs && gs->kind == AV_STR)
			snprintf(buf, sizeof buf, "%s", ir_symstr(m, gs->u.s));
		else {
			snprintf(buf, sizeof buf, "graft_%s", name);
			for (char *p = buf + 6; *p; p++)
				if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
					*p = '_';
		}
		ll_entry(&g, m->globals[i].fn, buf);
	}
	LLVMDisposeBuilder(g.b);
	free(g.cglob);
	ir_arena_free(&g.a);
	if (g.errors) {
		LLVMDisposeModule(g.mod);
		return NULL;
	}
	if (LLVMVerifyModule(g.mod, LLVMReturnStatusAction, &msg))
		ir_die("llvm backend: invalid IR: %s", msg);
	LLVMDisposeMessage(msg);
	/* -mcpu and -mattr in the module, for llc and other tools */
	for (LLVMValueRef f = LLVMGetFirstFunction(g.mod); mc->given && f; f = LLVMGetNextFunction(f))
		if (!LLVMIsDeclaration(f))
			for (int k = 0; k < 2; k++) {
				const char *key = k ? "target-features" : "target-cpu", *val = k ? mc->feat : mc->cpu;
				if (*val)
					LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
					                        LLVMCreateStringAttribute(cx, key, (unsigned)strlen(key), val, (unsigned)strlen(val)));
			}
	t1 = ll_now();
	if (nopasses) {
		if (st)
			st->lower_ns = t1 - t0;
		return g.mod;
	}
	err = ll_passes(g.mod, tm, opt);
	if (st) {
		st->lower_ns = t1 - t0;
		st->opt_ns = ll_now() - t1;
	}
	if (err) {
		char *e = LLVMGetErrorMessage(err);
		ir_error(d, (Loc){ 0, 0, 0 }, "llvm: %s", e);
		LLVMDisposeErrorMessage(e);
		LLVMDisposeModule(g.mod);
		return NULL;
	}
	return g.mod;
}

int
be_llvm_emit(const Module *m, const BeOpts *o, BeLlvmOut kind, FILE *out, FILE *h, Diag *d)
{
	int rc = 0;
	Mach mc;
	LLVMTargetMachineRef tm;
	LLVMContextRef cx;
	LLVMModuleRef mod;
	LLVMMemoryBufferRef buf = NULL;
	char *msg = NULL, err[512];

	if (ll_mach_init(&mc, o, err, sizeof err)) {
		ir_error(d, (Loc){ 0, 0, 0 }, "llvm: %s", err);
		return 1;
	}
	tm = ll_machine(&mc, o ? o->opt : 2);
	cx = LLVMContextCreate();
	mod = ll_build(m, o, cx, tm, &mc, 0, 0, NULL, NULL, NULL, NULL, d);
	if (!mod) {
		rc = 1;
	} else if (kind == BE_LLVM_IR) {
		msg = LLVMPrintModuleToString(mod);
		fputs(msg, out);
	} else if (LLVMTargetMachineEmitToMemoryBuffer(tm, mod, LLVMObjectFile, &msg, &buf)) {
		ir_error(d, (Loc){ 0, 0, 0 }, "LLVM cannot generate an object file: %s", msg);
		rc = 1;
	} else {
		fwrite(LLVMGetBufferStart(buf), 1, LLVMGetBufferSize(buf), out);
		LLVMDisposeMemoryBuffer(buf);
	}
	LLVMDisposeMessage(msg);
	if (!rc && h) {
		fprintf(h, "/* Generated by graft's llvm backend.  DO NOT EDIT.  The calling\n"
		           "** convention is told in graft's backends/c/c.h. */\n");
		/* what the object runs on */
		fprintf(h, "/* for %s, ", mc.triple);
		if (!mc.given)
			fprintf(h, "%s's CPU (%s) and features", mc.native ? "this machine" : "LLVM's generic", *mc.cpu ? mc.cpu : "generic");
		else
			fprintf(h, "-mcpu=%s%s%s", *mc.cpu ? mc.cpu : "generic", o->attr && *o->attr ? " -mattr=" : "", o->attr ? o->attr : "");
		if (o && o->device)
			fprintf(h, " -device=%s", o->device);
		fprintf(h, " */\n#include <stdint.h>\n\n");
		for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f)) {
			size_t n;
			const char *name = LLVMGetValueName2(f, &n);
			if (!LLVMIsDeclaration(f) && LLVMGetLinkage(f) == LLVMExternalLinkage)
				fprintf(h, "int32_t %s(const void *const *in, void *const *out);\n", name);
		}
	}
	if (mod)
		LLVMDisposeModule(mod);
	LLVMContextDispose(cx);
	LLVMDisposeTargetMachine(tm);
	ll_mach_free(&mc);
	return rc;
}
