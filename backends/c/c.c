/*
** c.c: the c backend.  (Being written: see issue 5; until then it
** refuses every model.)
*/
#include "c.h"

static Program *
prepare(const Module *m, const BeOpts *o, Diag *d)
{
	(void)o;
	(void)m;
	ir_error(d, (Loc){ 0, 0, 0 }, "the c backend cannot run models yet");
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

const Backend be_c = { "c", prepare, run, release };

int
be_c_emit(const Module *m, const char *target, FILE *c, FILE *h, const char *hname, Diag *d)
{
	(void)m; (void)target; (void)c; (void)h; (void)hname;
	ir_error(d, (Loc){ 0, 0, 0 }, "the c backend cannot emit C yet");
	return 1;
}
