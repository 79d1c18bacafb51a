/*
** bind.c: binds a parameter file's tensors to a module, as TVM's
** bind_params_by_name does.  A tensor named meta[relay.Constant][N] gives
** the data of the constants parsed from that reference; any other name
** binds the parameter of @main with that name, which becomes a constant
** and leaves @main's parameter list.  Types must agree where the text
** declares them.  Preserves: node ids of everything not bound.
*/
#include <stdlib.h>
#include <string.h>

#include "bind.h"

static const char META[] = "meta[relay.Constant][";

/* metaindex: N of "meta[relay.Constant][N]", or -1 */
static long
metaindex(const char *s)
{
	char *end;
	long n;

	if (strncmp(s, META, sizeof META - 1) != 0)
		return -1;
	s += sizeof META - 1;
	if (*s < '0' || *s > '9')
		return -1;
	n = strtol(s, &end, 10);
	return strcmp(end, "]") == 0 ? n : -1;
}

static TypeId
tensortype(Module *m, const StTensor *t)
{
	return ir_type_tensor(m, t->dtype, t->rank, t->dims);
}

/* agree: check that the declared type of what `what` names matches */
static int
agree(Module *m, Diag *d, Loc at, const char *what, TypeId declared, TypeId given, const char *fname)
{
	char b1[256], b2[256];

	if (!declared || declared == given)
		return 1;
	ir_error(d, at, "%s is declared %s, but %s gives %s", what,
	         ir_type_str(m, declared, b1, sizeof b1), fname, ir_type_str(m, given, b2, sizeof b2));
	return 0;
}

int
ir_bind_params(Module *m, const StFile *f, const char *fname, Diag *d)
{
	Sym mainsym = ir_symz(m, "main");
	NodeId mainfn = ir_global_find(m, mainsym);
	uint32_t np = mainfn ? ir_func_nparams(m, mainfn) : 0;
	uint8_t *bound = ir_xcalloc(np ? np : 1, 1);
	Loc fileloc = { 0, 0, ir_file(m, fname) };
	int before = d->errors, nbound = 0;
	int32_t maxmeta = -1;
	uint32_t *bymeta;       /* const index + 1 by meta index; the parser
	                           makes one constant per reference index */

	for (uint32_t c = 0; c < m->nconsts; c++)
		if (m->consts[c].meta > maxmeta)
			maxmeta = m->consts[c].meta;
	bymeta = ir_xcalloc((size_t)maxmeta + 2, sizeof *bymeta);
	for (uint32_t c = 0; c < m->nconsts; c++)
		if (m->consts[c].meta >= 0)
			bymeta[m->consts[c].meta] = c + 1;

	for (uint32_t i = 0; i < f->n; i++) {
		const StTensor *t = &f->t[i];
		TypeId tt = tensortype(m, t);
		long meta = metaindex(t->name);
		int hit = 0;

		if (meta >= 0 && meta <= maxmeta && bymeta[meta]) {
			Const *k = &m->consts[bymeta[meta] - 1];
			char what[64];
			hit = 1;
			snprintf(what, sizeof what, "meta[relay.Constant][%ld]", meta);
			if (agree(m, d, fileloc, what, k->type, tt, fname)) {
				k->type = tt;
				k->data = ir_arena_alloc(&m->data, t->nbytes);
				k->nbytes = t->nbytes;
				if (t->nbytes)
					memcpy(k->data, t->data, t->nbytes);
			}
		} else if (meta < 0) {
			for (uint32_t p = 0; p < np; p++) {
				NodeId v = ir_arg(m, mainfn, p);
				char what[300];
				/* a parameter bound already is a constant in its slot now */
				if (bound[p] || strcmp(ir_symstr(m, m->nodes[v].aux), t->name) != 0)
					continue;
				hit = 1;
				snprintf(what, sizeof what, "parameter %%%s", t->name);
				if (!agree(m, d, m->locs[v], what, m->nodes[v].type, tt, fname))
					break;
				ir_replace_uses(m, v, ir_const(m, tt, t->data, m->locs[v]));
				bound[p] = 1;
				nbound++;
				break;
			}
		}
		if (!hit)
			ir_warning(d, fileloc, "tensor '%s' matches no parameter of @main and no meta constant", t->name);
	}
	/* a constant node's type follows its constant's (so the module is to
	   be inferred again) */
	m->typed = 0;
	for (NodeId n = 1; n < m->nnodes; n++)
		if (m->nodes[n].kind == NK_CONST)
			m->nodes[n].type = ir_node_const(m, n)->type;
	if (nbound) {
		/* rebuild @main without the bound parameters */
		NodeId *keep = ir_xmalloc(np * sizeof *keep), fn;
		Func fu = *ir_node_func(m, mainfn);
		uint32_t nk = 0;
		for (uint32_t p = 0; p < np; p++)
			if (!bound[p])
				keep[nk++] = ir_arg(m, mainfn, p);
		fn = ir_func(m, keep, nk, ir_func_body(m, mainfn), fu.ret, fu.attrs, fu.nattrs, m->locs[mainfn]);
		for (uint32_t g = 0; g < m->nglobals; g++)
			if (m->globals[g].fn == mainfn)
				m->globals[g].fn = fn;
		ir_node_kill(m, mainfn);
		free(keep);
	}
	free(bound);
	free(bymeta);
	return d->errors - before;
}

int
ir_save_params(Module *m, const MetaList *meta, const char *path, char *err, size_t errsz)
{
	StTensor *ts = ir_xcalloc(meta->n ? meta->n : 1, sizeof *ts);
	char *names = ir_xmalloc((size_t)(meta->n ? meta->n : 1) * 48);
	uint32_t n = 0;
	int rc;

	for (uint32_t i = 0; i < meta->n; i++) {
		Const *c = ir_node_const(m, meta->consts[i]);
		const Type *ty = &m->types[c->type];
		if (!c->data)
			continue;   /* known by type only: nothing to save */
		snprintf(names + 48 * i, 48, "%s%u]", META, i);
		ts[n].name = names + 48 * i;
		ts[n].dtype = (DType)ty->dtype;
		ts[n].rank = (int)ty->n;
		ts[n].dims = &m->dims[ty->first];
		ts[n].data = c->data;
		ts[n].nbytes = c->nbytes;
		n++;
	}
	rc = ir_st_write(path, ts, n, err, errsz);
	free(ts);
	free(names);
	return rc;
}
