/*
** llvm.c: the llvm backend.  (Being written: see issue 5; until then it
** refuses every model.)
*/
#include "llvm.h"

static Program *
prepare(const Module *m, const BeOpts *o, Diag *d)
{
	(void)o;
	(void)m;
	ir_error(d, (Loc){ 0, 0, 0 }, "the llvm backend cannot run models yet");
	return NULL;
}

static int
run(Program *p, const Tensor *in, Tensor *out, Diag *d)
{
	(void)p; (void)in; (void)out; (void)d;
	return 1;
}

static void
release(Program *p)
{
	(void)p;
}

const Backend be_llvm = { "llvm", prepare, run, release };

int
be_llvm_emit(const Module *m, const BeOpts *o, BeLlvmOut kind, const char *path, const char *hpath, Diag *d)
{
	(void)m; (void)o; (void)kind; (void)path; (void)hpath;
	ir_error(d, (Loc){ 0, 0, 0 }, "the llvm backend cannot emit code yet");
	return 1;
}
