/*
** bind.c: a value bound to a model's input, as `graft --bind NAME=FILE`
** binds it: what graft_module_bind() (api.c) and graft's pipeline
** (driver/pipeline.c) share, on its own so that a program linking this
** alone pulls in nothing else of api/.
*/
#include <string.h>

#include "apii.h"
#include "bind.h"
#include "npy.h"

/* isparam: whether @main of m has a parameter name */
static int
isparam(Module *m, const char *name)
{
	NodeId mainfn = ir_global_find(m, ir_symz(m, "main"));
	uint32_t np = mainfn ? ir_func_nparams(m, mainfn) : 0, k;

	for (k = 0; k < np && strcmp(ir_symstr(m, m->nodes[ir_arg(m, mainfn, k)].aux), name) != 0; k++)
		;
	return k < np;
}

/* api_bind_tensor: see apii.h */
int
api_bind_tensor(Module *m, const char *name, const Tensor *t, const char *path, Diag *d)
{
	StTensor st = { name, t->dt, (int)t->rank, (int64_t *)t->dims, t->data, ir_tensor_bytes(t) };
	StFile f;

	if (!isparam(m, name))
		return -1;
	memset(&f, 0, sizeof f);
	f.t = &st;
	f.n = 1;
	return ir_bind_params(m, &f, path, d) != 0;
}

/* api_bind_npy: see apii.h */
int
api_bind_npy(Module *m, const char *name, const char *path, Diag *d)
{
	char msg[512];
	Tensor t;
	int r;

	if (!isparam(m, name))
		return -1;
	if (npy_read(path, &t, msg, sizeof msg) != 0) {
		ir_error_file(d, path, msg);
		return 1;
	}
	r = api_bind_tensor(m, name, &t, path, d);
	ir_tensor_free(&t);
	return r;
}
