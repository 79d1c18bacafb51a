/*
** interp.c: the reference interpreter's driver.  ref_prepare() compiles a
** function and every function it calls (partitions and composite
** functions alike) into straight-line procedures of value slots; ref_run()
** executes them, op by op, through the kernels of ops.c, freeing each
** value when its last reader has run (a count of readers per slot, fixed
** at prepare time).  ref_evalconst() compiles a constant subtree the same
** way and runs it in exact mode.
**
** A RefProg owns everything it reads at run time: the procedures, copies
** of the constants' data, and a snapshot of the module's attribute, type
** and string tables (kernels read attributes through TypeId and AttrId
** handles, which stay valid in the copy).  Nothing points into the
** module after prepare().
*/
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "refi.h"

#define INPROGRESS UINT32_MAX

enum {
	IK_OP,      /* op: a call of an operator */
	IK_TUPLE,   /* a tuple of the operand slots */
	IK_ITEM,    /* aux = field index of the operand tuple */
	IK_CALL,    /* aux = the procedure called with the operands */
	IK_EXT,     /* aux = the claimed function (RefProg.exts) called */
};

typedef struct Ins {
	uint8_t kind;       /* IK_* */
	uint32_t nargs;
	uint32_t args;      /* the operand slots are Proc.argv[args..] */
	uint32_t out;       /* the result slot */
	uint32_t aux;
	RefOp op;           /* IK_OP; op.loc also locates the others */
} Ins;

/* A function compiled: slots 0..nparams-1 hold the parameters, constant
** slots are preset from init, every instruction fills one slot. */
typedef struct Proc {
	NodeId fn;          /* the NK_FUNC, 0 for a folded subtree */
	uint32_t nparams, nslots, result;
	Ins *ins;    uint32_t nins, capins;
	uint32_t *argv; uint32_t nargv, capargv;
	uint32_t *uses;     /* readers per slot (+1 for the result); nslots */
	RefVal *init;       /* preset constants; nslots */
	uint32_t capslots;
	int ready;          /* compiled (0 while being compiled: recursion) */
} Proc;

/* A map from NodeId to uint32_t by open addressing, with inline room. */
typedef struct Map {
	NodeId *keys;
	uint32_t *vals;
	uint32_t cap, used;
	NodeId keys0[32];
	uint32_t vals0[32];
} Map;

struct graft_ref_prog {
	Module *snap;       /* attribute, type and string tables only */
	Proc *procs;
	uint32_t nprocs, capprocs;
	uint32_t main;
	unsigned char **data;  /* constant copies, owned */
	uint32_t ndata, capdata;
	RefExt ext;         /* who runs claimed functions (ref_prepare_ext) */
	struct { NodeId fn; void *h; } *exts;   /* the functions claimed */
	uint32_t nexts, capexts;
};

/* Compile: the state of compiling procedures from one module. */
typedef struct Comp {
	const Module *m;
	Diag *d;
	RefProg *p;         /* NULL when folding */
	Proc *procs;        /* the procedures (p->procs, or the fold's one) */
	Map fnmap;          /* NK_FUNC -> procedure index */
	int errors;
} Comp;

/* ---------------------------------------------------------------- map */

static uint32_t
mhash(const Map *mp, NodeId n)
{
	return (n * 2654435761u) & (mp->cap - 1);
}

/* mfind: the value of n, or 0 with *found = 0 */
static uint32_t
mfind(const Map *mp, NodeId n, int *found)
{
	*found = 0;
	if (!mp->cap)
		return 0;
	for (uint32_t h = mhash(mp, n); mp->keys[h]; h = (h + 1) & (mp->cap - 1)) {
		if (mp->keys[h] == n) {
			*found = 1;
			return mp->vals[h];
		}
	}
	return 0;
}

static void
mset(Map *mp, NodeId n, uint32_t v)
{
	uint32_t h;

	if (!mp->cap) {
		mp->keys = mp->keys0;
		mp->vals = mp->vals0;
		mp->cap = 32;
		mp->used = 0;
		memset(mp->keys0, 0, sizeof mp->keys0);
	}
	if (2 * (mp->used + 1) > mp->cap) {
		uint32_t oldcap = mp->cap;
		NodeId *ok = mp->keys;
		uint32_t *ov = mp->vals;
		mp->cap = 2 * oldcap;
		mp->keys = ir_xcalloc(mp->cap, sizeof *mp->keys);
		mp->vals = ir_xcalloc(mp->cap, sizeof *mp->vals);
		mp->used = 0;
		for (uint32_t i = 0; i < oldcap; i++)
			if (ok[i])
				mset(mp, ok[i], ov[i]);
		if (ok != mp->keys0) {
			free(ok);
			free(ov);
		}
	}
	for (h = mhash(mp, n); mp->keys[h] && mp->keys[h] != n; h = (h + 1) & (mp->cap - 1))
		;
	if (!mp->keys[h])
		mp->used++;
	mp->keys[h] = n;
	mp->vals[h] = v;
}

static void
mfree(Map *mp)
{
	if (mp->cap && mp->keys != mp->keys0) {
		free(mp->keys);
		free(mp->vals);
	}
	mp->cap = mp->used = 0;
}

/* ---------------------------------------------------------------- procedures */

/* newslot: a fresh slot of pr */
static uint32_t
newslot(Proc *pr)
{
	uint32_t old = pr->capslots;

	ir_vgrow(&pr->uses, &pr->capslots, pr->nslots + 1);
	if (pr->capslots != old) {
		pr->init = ir_xrealloc(pr->init, pr->capslots * sizeof *pr->init);
		memset(pr->init + old, 0, (pr->capslots - old) * sizeof *pr->init);
		memset(pr->uses + old, 0, (pr->capslots - old) * sizeof *pr->uses);
	}
	return pr->nslots++;
}

static void
procfree(Proc *pr)
{
	free(pr->ins);
	free(pr->argv);
	free(pr->uses);
	free(pr->init);
	memset(pr, 0, sizeof *pr);
}

/* emit: appends an instruction of kind with the operand slots of node n
** (skipping operand 0 for a call of a function); returns it */
static Ins *
emit(Comp *cp, Proc *pr, Map *slots, NodeId n, uint8_t kind, uint32_t first)
{
	const Module *m = cp->m;
	const Node *nd = &m->nodes[n];
	Ins *in;
	int found;

	ir_vgrow(&pr->ins, &pr->capins, pr->nins + 1);
	in = &pr->ins[pr->nins++];
	memset(in, 0, sizeof *in);
	in->kind = kind;
	in->nargs = nd->nargs - first;
	in->args = pr->nargv;
	in->op.loc = m->locs[n];
	ir_vgrow(&pr->argv, &pr->capargv, pr->nargv + in->nargs);
	for (uint32_t i = first; i < nd->nargs; i++) {
		uint32_t s = mfind(slots, ir_arg(m, n, i), &found);
		pr->argv[pr->nargv++] = s;
		pr->uses[s]++;
	}
	in->out = newslot(pr);
	mset(slots, n, in->out);
	return in;
}

static int compilefn(Comp *cp, NodeId fn, uint32_t *idx);

/* CERR: reports at loc when preparing (folding is silent), and counts */
#define CERR(cp, loc, ...) do { \
		if ((cp)->p) ir_error((cp)->d, loc, __VA_ARGS__); \
		(cp)->errors++; \
	} while (0)

/* node: compiles node n of pr, whose operands have slots */
static int
node(Comp *cp, Proc *pr, Map *slots, NodeId n)
{
	const Module *m = cp->m;
	const Node *nd = &m->nodes[n];
	Ins *in;

	switch (nd->kind) {
	case NK_CONST: {
		const Const *k = &m->consts[nd->aux];
		uint32_t s;
		RefVal *v;
		if (!k->data) {
			CERR(cp, m->locs[n], "the ref backend needs the data of this constant (give it with --params)");
			return 0;
		}
		s = newslot(pr);
		v = &pr->init[s];
		if (!ref_vshape(m, nd->type ? nd->type : k->type, v) ||
		    k->nbytes != (size_t)v->n * ir_dtype_bytes[v->dt]) {
			CERR(cp, m->locs[n], "the ref backend cannot run this constant");
			memset(v, 0, sizeof *v);
			return 0;
		}
		if (cp->p) {
			RefProg *p = cp->p;
			ir_vgrow(&p->data, &p->capdata, p->ndata + 1);
			p->data[p->ndata] = ir_xmalloc(k->nbytes ? k->nbytes : 1);
			memcpy(p->data[p->ndata], k->data, k->nbytes);
			v->data = p->data[p->ndata++];
		} else {
			v->data = k->data;
		}
		mset(slots, n, s);
		return 1;
	}
	case NK_CALL:
		if (cp->p ? ref_op_check(m, n, cp->d) : !ref_op_exact(nd->op)) {
			cp->errors++;
			return 0;
		}
		in = emit(cp, pr, slots, n, IK_OP, 0);
		in->op.op = nd->op;
		in->op.nargs = nd->nargs;
		in->op.attrs = nd->aux;
		in->op.type = nd->type;
		return 1;
	case NK_TUPLE:
		emit(cp, pr, slots, n, IK_TUPLE, 0);
		return 1;
	case NK_GETITEM:
		in = emit(cp, pr, slots, n, IK_ITEM, 0);
		in->aux = nd->aux;
		return 1;
	case NK_CALLFN: {
		NodeId callee = ir_arg(m, n, 0), fn = 0;
		uint32_t idx;
		if (m->nodes[callee].kind == NK_FUNC) {
			fn = callee;
		} else if (m->nodes[callee].kind == NK_GLOBAL) {
			fn = ir_global_find(m, m->nodes[callee].aux);
			if (!fn) {
				CERR(cp, m->locs[callee], "no function @%s", ir_symstr(m, m->nodes[callee].aux));
				return 0;
			}
		} else {
			CERR(cp, m->locs[n], "the ref backend calls only global functions and function literals");
			return 0;
		}
		if (ir_func_nparams(m, fn) != nd->nargs - 1) {
			CERR(cp, m->locs[n], "a call with %u arguments of a function of %u parameters",
			     nd->nargs - 1, ir_func_nparams(m, fn));
			return 0;
		}
		if (cp->p && cp->p->ext.claim && m->nodes[callee].kind == NK_GLOBAL) {
			/* a function something else runs: asked once per function */
			RefProg *p = cp->p;
			int failed = 0;
			for (idx = 0; idx < p->nexts && p->exts[idx].fn != fn; idx++)
				;
			if (idx == p->nexts) {
				void *h = p->ext.claim(p->ext.ctx, m, fn, cp->d, &failed);
				if (failed) {
					cp->errors++;
					return 0;
				}
				ir_vgrow(&p->exts, &p->capexts, p->nexts + 1);
				p->exts[p->nexts].fn = fn;
				p->exts[p->nexts++].h = h;
			}
			if (p->exts[idx].h) {
				in = emit(cp, pr, slots, n, IK_EXT, 1);
				in->aux = idx;
				return 1;
			}
		}
		if (!compilefn(cp, fn, &idx))
			return 0;
		in = emit(cp, pr, slots, n, IK_CALL, 1);
		in->aux = idx;
		return 1;
	}
	case NK_VAR:
		CERR(cp, m->locs[n], "%%%s is not a parameter of the function that uses it",
		     ir_symstr(m, nd->aux));
		return 0;
	default:
		CERR(cp, m->locs[n], "the ref backend cannot run a function value here");
		return 0;
	}
}

/* body: compiles the subtree under root into pr (after its parameters,
** bound in slots), post-order with an explicit stack; sets pr->result */
static int
body(Comp *cp, Proc *pr, Map *slots, NodeId root)
{
	const Module *m = cp->m;
	struct { NodeId n; int open; } *st = NULL;
	uint32_t nst = 0, cap = 0;
	int found, ok = 0;
	uint32_t s;

	ir_vgrow(&st, &cap, 1);
	st[nst].n = root;
	st[nst++].open = 0;
	while (nst) {
		NodeId n = st[nst - 1].n;
		const Node *nd;
		s = mfind(slots, n, &found);
		if (found && s != INPROGRESS) {
			nst--;
			continue;
		}
		if (!n || n >= m->nnodes)
			goto out;
		if (st[nst - 1].open) {
			if (!node(cp, pr, slots, n))
				goto out;
			nst--;
			continue;
		}
		nd = &m->nodes[n];
		st[nst - 1].open = 1;
		if (nd->kind == NK_VAR || nd->kind == NK_FUNC || nd->kind == NK_GLOBAL || nd->kind == NK_CONST)
			continue;
		if (!cp->p && nd->kind != NK_CALL && nd->kind != NK_TUPLE && nd->kind != NK_GETITEM)
			goto out;
		mset(slots, n, INPROGRESS);
		for (uint32_t i = nd->nargs; i-- > (nd->kind == NK_CALLFN);) {
			NodeId a = ir_arg(m, n, i);
			s = mfind(slots, a, &found);
			if (found && s == INPROGRESS)
				goto out;       /* a cycle */
			if (found)
				continue;
			ir_vgrow(&st, &cap, nst + 1);
			st[nst].n = a;
			st[nst++].open = 0;
		}
	}
	pr->result = mfind(slots, root, &found);
	pr->uses[pr->result]++;
	ok = 1;
out:
	free(st);
	return ok;
}

/* compilefn: the procedure of function literal fn, compiled on first use,
** into *idx */
static int
compilefn(Comp *cp, NodeId fn, uint32_t *idx)
{
	const Module *m = cp->m;
	RefProg *p = cp->p;
	Proc *pr;
	Map slots;
	int found, ok;
	uint32_t i = mfind(&cp->fnmap, fn, &found);

	if (found) {
		if (!p->procs[i].ready) {
			CERR(cp, m->locs[fn], "the ref backend cannot run recursive functions");
			return 0;
		}
		*idx = i;
		return 1;
	}
	ir_vgrow(&p->procs, &p->capprocs, p->nprocs + 1);
	i = p->nprocs++;
	memset(&p->procs[i], 0, sizeof p->procs[i]);
	p->procs[i].fn = fn;
	mset(&cp->fnmap, fn, i);
	memset(&slots, 0, offsetof(Map, keys0));
	{
		Proc tmp = p->procs[i];
		tmp.nparams = ir_func_nparams(m, fn);
		for (uint32_t k = 0; k < tmp.nparams; k++)
			mset(&slots, ir_arg(m, fn, k), newslot(&tmp));
		/* compiling may add procedures (and move p->procs) */
		ok = body(cp, &tmp, &slots, ir_func_body(m, fn));
		pr = &p->procs[i];
		*pr = tmp;
	}
	mfree(&slots);
	pr->ready = 1;
	*idx = i;
	return ok;
}

/* ---------------------------------------------------------------- running */

static int runproc(const RefProg *p, const Proc *pr, RefCtx *c, const RefVal *const *args, RefVal *out);

/* exec: runs instruction in of pr over the frame fr */
static int
exec(const RefProg *p, const Proc *pr, const Ins *in, RefCtx *c, RefVal *fr)
{
	const RefVal *small[8], **a = in->nargs <= 8 ? small : ir_xmalloc(in->nargs * sizeof *a);
	RefVal *r = &fr[in->out];
	int bad = 0;

	for (uint32_t i = 0; i < in->nargs; i++)
		a[i] = &fr[pr->argv[in->args + i]];
	switch (in->kind) {
	case IK_OP:
		bad = ref_op(c, &in->op, a, r);
		break;
	case IK_TUPLE:
		memset(r, 0, sizeof *r);
		r->kind = RV_TUPLE;
		r->nf = in->nargs;
		r->f = ir_xmalloc((in->nargs ? in->nargs : 1) * sizeof *r->f);
		for (uint32_t i = 0; i < in->nargs; i++)
			ref_vcopy(&r->f[i], a[i]);
		break;
	case IK_ITEM:
		if (a[0]->kind != RV_TUPLE || in->aux >= a[0]->nf) {
			if (!c->exact)
				ir_error(c->d, in->op.loc, "tuple_get_item of a value that has no field %u", in->aux);
			bad = 1;
			break;
		}
		ref_vcopy(r, &a[0]->f[in->aux]);
		break;
	case IK_CALL:
		bad = runproc(p, &p->procs[in->aux], c, a, r);
		break;
	case IK_EXT:
		memset(r, 0, sizeof *r);
		bad = p->ext.run(p->ext.ctx, p->exts[in->aux].h, a, in->nargs, r, c->d);
		if (bad)
			ref_vdrop(r);
		break;
	}
	if (a != small)
		free((void *)a);
	return bad;
}

/* runproc: runs pr on args (copied in) into *out */
static int
runproc(const RefProg *p, const Proc *pr, RefCtx *c, const RefVal *const *args, RefVal *out)
{
	RefVal *fr = ir_xcalloc(pr->nslots ? pr->nslots : 1, sizeof *fr);
	uint32_t *cnt = ir_xmalloc((pr->nslots ? pr->nslots : 1) * sizeof *cnt);
	int bad = 0;

	memcpy(cnt, pr->uses, pr->nslots * sizeof *cnt);
	for (uint32_t i = 0; i < pr->nparams; i++)
		ref_vcopy(&fr[i], args[i]);
	for (uint32_t i = pr->nparams; i < pr->nslots; i++)
		if (pr->init[i].kind)
			fr[i] = pr->init[i];        /* borrowed: rc is NULL */
	for (uint32_t k = 0; k < pr->nins && !bad; k++) {
		const Ins *in = &pr->ins[k];
		bad = exec(p, pr, in, c, fr);
		for (uint32_t i = 0; i < in->nargs; i++) {
			uint32_t s = pr->argv[in->args + i];
			if (--cnt[s] == 0)
				ref_vdrop(&fr[s]);
		}
	}
	memset(out, 0, sizeof *out);
	if (!bad) {
		*out = fr[pr->result];
		memset(&fr[pr->result], 0, sizeof fr[pr->result]);
	}
	for (uint32_t i = 0; i < pr->nslots; i++)
		ref_vdrop(&fr[i]);
	free(fr);
	free(cnt);
	return bad;
}

/* ---------------------------------------------------------------- programs */

/* snapshot: a module holding copies of m's attribute, type and string
** tables, all that kernels read */
static Module *
snapshot(const Module *m)
{
	Module *s = ir_xcalloc(1, sizeof *s);

#define COPY(f, nf) do { \
		s->f = ir_xmalloc((m->nf ? m->nf : 1) * sizeof *m->f); \
		if (m->nf) memcpy(s->f, m->f, m->nf * sizeof *m->f); \
		s->nf = m->nf; \
	} while (0)
	COPY(attrs, nattrs);
	COPY(types, ntypes);
	COPY(dims, ndims);
	COPY(tylist, ntylist);
	COPY(symoff, nsyms);
	COPY(strbuf, nstr);
#undef COPY
	s->files = ir_xcalloc(m->nfiles ? m->nfiles : 1, sizeof *s->files);
	for (uint32_t i = 0; i < m->nfiles; i++)
		if (m->files[i]) {
			size_t n = strlen(m->files[i]) + 1;
			char *f = ir_xmalloc(n);
			memcpy(f, m->files[i], n);
			s->files[i] = f;
		}
	s->nfiles = m->nfiles;
	return s;
}

void
ref_release(RefProg *p)
{
	if (!p)
		return;
	for (uint32_t i = 0; i < p->nexts; i++)
		if (p->exts[i].h && p->ext.release)
			p->ext.release(p->ext.ctx, p->exts[i].h);
	free(p->exts);
	for (uint32_t i = 0; i < p->nprocs; i++)
		procfree(&p->procs[i]);
	free(p->procs);
	for (uint32_t i = 0; i < p->ndata; i++)
		free(p->data[i]);
	free(p->data);
	if (p->snap) {
		free(p->snap->attrs);
		free(p->snap->types);
		free(p->snap->dims);
		free(p->snap->tylist);
		free(p->snap->symoff);
		free(p->snap->strbuf);
		for (uint32_t i = 0; i < p->snap->nfiles; i++)
			free((void *)p->snap->files[i]);
		free(p->snap->files);
		free(p->snap);
	}
	free(p);
}

RefProg *
ref_prepare(const Module *m, NodeId fn, Diag *d)
{
	return ref_prepare_ext(m, fn, NULL, d);
}

RefProg *
ref_prepare_ext(const Module *m, NodeId fn, const RefExt *ext, Diag *d)
{
	RefProg *p = ir_xcalloc(1, sizeof *p);
	Comp cp;
	int ok;

	if (ext)
		p->ext = *ext;
	memset(&cp, 0, offsetof(Comp, fnmap));
	memset(&cp.fnmap, 0, offsetof(Map, keys0));
	cp.errors = 0;
	cp.m = m;
	cp.d = d;
	cp.p = p;
	ok = compilefn(&cp, fn, &p->main);
	mfree(&cp.fnmap);
	if (!ok || cp.errors) {
		ref_release(p);
		return NULL;
	}
	p->snap = snapshot(m);
	return p;
}

uint32_t
ref_nparams(const RefProg *p)
{
	return p->procs[p->main].nparams;
}

int
ref_run(RefProg *p, const RefVal *const *args, RefVal *res, Diag *d)
{
	const Proc *pr = &p->procs[p->main];
	RefCtx c = { p->snap, d, 0 };
	Diag own;
	int bad;

	/* run-time errors name their files from the snapshot (the module may
	** be gone); the caller's sources, if any, are still quoted, through a
	** line index of this copy's own */
	own = *d;
	own.m = p->snap;
	own.lines = NULL;
	own.nlines = own.caplines = 0;
	own.lscan = 0;
	own.lfile = 0;
	c.d = &own;
	bad = runproc(p, pr, &c, args, res);
	d->errors = own.errors;
	d->warnings = own.warnings;
	free(own.lines);
	return bad;
}

/* ---------------------------------------------------------------- folding */

NodeId
ref_evalconst(Module *m, NodeId n)
{
	Comp cp;
	Proc pr;
	Map slots;
	RefCtx c = { m, NULL, 1 };
	RefVal v, want;
	NodeId out = 0;

	if (!n || n >= m->nnodes || !m->nodes[n].type)
		return 0;
	memset(&cp, 0, offsetof(Comp, fnmap));
	cp.errors = 0;
	cp.m = m;
	memset(&pr, 0, sizeof pr);
	memset(&slots, 0, offsetof(Map, keys0));
	if (body(&cp, &pr, &slots, n) && !cp.errors && !runproc(NULL, &pr, &c, NULL, &v)) {
		if (v.kind == RV_TENSOR && ref_vshape(m, m->nodes[n].type, &want) && want.dt == v.dt &&
		    want.rank == v.rank && !memcmp(want.dims, v.dims, (size_t)v.rank * sizeof v.dims[0]))
			out = ir_const(m, m->nodes[n].type, v.data, m->locs[n]);
		ref_vdrop(&v);
	}
	mfree(&slots);
	procfree(&pr);
	return out;
}
