/*
** codegen.c: the codegens of targets graft does not drive natively, which
** plugins register (TVM's relay.ext.<target>): a table by target name.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

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

/* be_codegen_check: refuses m if a codegen must run some of it (backend.h) */
int
be_codegen_check(const Module *m, const char *backend, Diag *d)
{
	int errs = d->errors;

	for (uint32_t k = 0; k < m->nglobals; k++) {
		const BeCodegen *cg = be_codegen_of(m, m->globals[k].fn);
		if (cg && cg->run)
			ir_error(d, m->locs[m->globals[k].fn], "the %s backend cannot hand @%s to the codegen of target %s; "
			         "run it with --backend ref", backend, ir_symstr(m, m->globals[k].name), cg->target);
	}
	return d->errors - errs;
}
