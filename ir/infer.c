/*
** infer.c: type inference, the verifier and dead-code elimination.
**
** All three walk the graph iteratively (graphs have millions of nodes, so
** no recursion over operands), in post-order from each global function.
**
** ir_infer_types  sets Node.type of every reachable node from the declared
**                 types of parameters and constants and the op registry's
**                 type relations, then checks the ty= annotations read
**                 from the text.  Preserves: everything but Node.type;
**                 sets Module.typed when it succeeds.
** ir_verify       checks ids, arity, acyclicity, use lists and that every
**                 type equals what inference computes.  Changes nothing.
** ir_dce          kills the nodes no global function reaches.  Preserves:
**                 node ids and the types of live nodes.
*/
#include <stdlib.h>
#include <string.h>

#include "ir.h"

typedef struct Walk {
	struct { NodeId n; uint32_t i; } *st;
	uint32_t nst, cap;
	uint8_t *state;         /* per node: 0 new, 1 on the stack, 2 done */
} Walk;

static void
push(Walk *w, NodeId n)
{
	ir_vgrow(&w->st, &w->cap, w->nst + 1);
	w->st[w->nst].n = n;
	w->st[w->nst].i = 0;
	w->nst++;
	w->state[n] = 1;
}

/* next: advance the post-order walk; returns the next finished node, 0 at
** the end, or sets *cycle to a node found on a cycle.  A call of a value
** visits its arguments before the callee, so that a function literal's
** untyped parameters find their arguments typed (calledwith()) */
static NodeId
next(Module *m, Walk *w, NodeId *cycle)
{
	while (w->nst) {
		NodeId n = w->st[w->nst - 1].n;
		const Node *nd = &m->nodes[n];
		if (w->st[w->nst - 1].i < nd->nargs) {
			uint32_t i = w->st[w->nst - 1].i++;
			NodeId a = ir_arg(m, n, nd->kind == NK_CALLFN ? (i + 1) % nd->nargs : i);
			if (!a || w->state[a] == 2)
				continue;
			if (w->state[a] == 1) {
				*cycle = a;
				return 0;
			}
			push(w, a);
			continue;
		}
		w->nst--;
		w->state[n] = 2;
		return n;
	}
	return 0;
}

static void
walkfree(Walk *w)
{
	free(w->st);
	free(w->state);
}

static char *
tystr(const Module *m, TypeId t, char *buf, size_t n)
{
	return ir_type_str(m, t, buf, n);
}

/* ---------------------------------------------------------------- memo */

/* A type relation's result, remembered.  A relation reads nothing but its
** operand types and the call's attribute values, types are interned and a
** call's AttrId is its interned attributes (ir_call), so (op, AttrId,
** operand types) determines the result.  Only successes are kept. */
enum { MEMO_ARGS = 6 };
struct RelMemo {
	uint32_t h;             /* 0 = empty slot */
	OpId op;
	uint16_t nargs;
	AttrId attrs;
	TypeId ret;
	TypeId args[MEMO_ARGS];
};

/* memohash: the hash of a relation's key, never 0 */
static uint32_t
memohash(OpId op, AttrId attrs, const TypeId *ts, uint32_t k)
{
	uint64_t h = 0xcbf29ce484222325ull;

	h = (h ^ op ^ ((uint64_t)k << 16)) * 0x100000001b3ull;
	h = (h ^ attrs) * 0x100000001b3ull;
	for (uint32_t i = 0; i < k; i++)
		h = (h ^ ts[i]) * 0x100000001b3ull;
	h ^= h >> 29;
	return (uint32_t)h | 1;
}

/* memoslot: the slot holding (op, attrs, ts) with hash h, or the empty
** slot where it goes */
static RelMemo *
memoslot(Module *m, uint32_t h, OpId op, AttrId attrs, const TypeId *ts, uint32_t k)
{
	uint32_t mask = m->relmemocap - 1;

	for (uint32_t i = h & mask;; i = (i + 1) & mask) {
		RelMemo *e = &m->relmemo[i];
		uint32_t j = 0;
		if (!e->h)
			return e;
		if (e->h == h && e->op == op && e->attrs == attrs && e->nargs == k) {
			while (j < k && e->args[j] == ts[j])
				j++;
			if (j == k)
				return e;
		}
	}
}

/* memogrow: the memo at twice its size (64 at first) */
static void
memogrow(Module *m)
{
	uint32_t oldcap = m->relmemocap, cap = oldcap ? 2 * oldcap : 64;
	RelMemo *old = m->relmemo;

	m->relmemo = ir_xcalloc(cap, sizeof *m->relmemo);
	m->relmemocap = cap;
	memset(m->oprel, 0, sizeof m->oprel);   /* slots move */
	for (uint32_t i = 0; i < oldcap; i++)
		if (old[i].h)
			*memoslot(m, old[i].h, old[i].op, old[i].attrs, old[i].args, old[i].nargs) = old[i];
	free(old);
}

/* relpub: the result type of the call n of a plugin's op o, from its
** relation in <graft/opdef.h>'s form (OpInfo.prel); 0 after setting why */
static TypeId
relpub(Module *m, NodeId n, const OpInfo *o, const TypeId *ts, uint32_t k, Diag *d)
{
	const Node *nd = &m->nodes[n];
	graft_type *in = ir_xcalloc(k + 1, sizeof *in), out;
	graft_attr *ka = ir_xcalloc((size_t)o->nattrs + 1, sizeof *ka);
	void *mem = nd->aux ? ir_kattrs(m, nd->op, &m->attrs[nd->aux], ka) : NULL;
	char err[256] = "";
	TypeId t = 0;
	int bad;

	for (uint32_t i = 0; i < k; i++) {
		const Type *ty = &m->types[ts[i]];
		if (ty->kind != TY_TENSOR || ty->n > GRAFT_MAX_RANK) {
			in[i].rank = -1;
			continue;
		}
		in[i].dtype = ir_kdtype(ty->dtype);
		in[i].rank = (int32_t)ty->n;
		memcpy(in[i].dims, &m->dims[ty->first], ty->n * sizeof *in[i].dims);
	}
	memset(&out, 0, sizeof out);
	bad = o->prel(in, k, ka, &out, err, sizeof err);
	if (bad)
		ir_rel_error(d, "%s", err[0] ? err : "its type relation refuses these operands");
	else if (out.dtype < GRAFT_DT_BOOL || out.dtype > GRAFT_DT_FLOAT64 || out.rank < 0 || out.rank > GRAFT_MAX_RANK)
		ir_rel_error(d, "its type relation gave no tensor type (dtype %d, rank %d)", (int)out.dtype,
		             (int)out.rank);
	else
		t = ir_type_tensor(m, (DType)out.dtype, out.rank, out.dims);
	free(mem);
	free(ka);
	free(in);
	return t;
}

/* rel: the result type of the call n of op o with operand types ts[0..k),
** from the memo or from o's relation; 0 after reporting an error */
static TypeId
rel(Module *m, NodeId n, const OpInfo *o, const TypeId *ts, uint32_t k, Diag *d)
{
	const Node *nd = &m->nodes[n];
	uint32_t h = 0;
	RelMemo *e = NULL;
	TypeId t;

	if (k <= MEMO_ARGS) {
		if (2 * (m->nrelmemo + 1) > m->relmemocap)
			memogrow(m);
		h = memohash(nd->op, nd->aux, ts, k);
		e = memoslot(m, h, nd->op, nd->aux, ts, k);
		if (e->h)
			return e->ret;
	}
	d->relmsg[0] = 0;
	t = o->prel ? relpub(m, n, o, ts, k, d) : o->rel(m, ts, (int)k, nd->aux ? &m->attrs[nd->aux] : NULL, d);
	if (!t) {
		ir_error(d, m->locs[n], "%s: %s", o->name, d->relmsg[0] ? d->relmsg : "type error");
		return 0;
	}
	if (e) {
		/* the relation may have interned types, never grown the memo */
		e->h = h;
		e->op = nd->op;
		e->nargs = (uint16_t)k;
		e->attrs = nd->aux;
		e->ret = t;
		memcpy(e->args, ts, k * sizeof *ts);
		m->nrelmemo++;
	}
	return t;
}

/* ---------------------------------------------------------------- inference */

/* calledwith: the type of untyped parameter v of a function literal that
** is called where it is made (TVM prints `%0 = fn (%x) {...}; %0(%a)`):
** the type of the argument every call gives it, if they agree and are
** known; else 0 */
static TypeId
calledwith(const Module *m, NodeId v)
{
	TypeId t = 0;

	IR_FOR_USES(m, v, s) {
		NodeId fn = m->uses[s].user;
		uint32_t i = 0, np;
		if (m->nodes[fn].kind != NK_FUNC)
			continue;
		np = ir_func_nparams(m, fn);
		while (i < np && ir_arg(m, fn, i) != v)
			i++;
		if (i == np)
			continue;
		IR_FOR_USES(m, fn, c) {
			NodeId call = m->uses[c].user, a;
			TypeId at;
			if (m->nodes[call].kind != NK_CALLFN || ir_arg(m, call, 0) != fn || m->nodes[call].nargs != np + 1)
				return 0;       /* used otherwise: no one type to take */
			a = ir_arg(m, call, i + 1);
			at = m->nodes[a].type;
			if (!at || (t && at != t))
				return 0;
			t = at;
		}
	}
	return t;
}

/* typeof_: compute n's type from its operands' types; 0 after reporting
** an error (or silently when an operand has no type: reported already) */
static TypeId
typeof_(Module *m, NodeId n, Diag *d)
{
	Node *nd = &m->nodes[n];
	char b1[256], b2[256];
	TypeId buf[16], *ts = buf, t = 0;
	uint32_t k = nd->nargs;

	switch (nd->kind) {
	case NK_VAR:
		if (!nd->type)
			nd->type = calledwith(m, n);
		if (!nd->type)
			ir_error(d, m->locs[n], "%%%s has no type; declare it as %%%s: Tensor[(...), dtype]",
			         ir_symstr(m, nd->aux), ir_symstr(m, nd->aux));
		return nd->type;
	case NK_CONST:
		t = ir_node_const(m, n)->type;
		if (!t)
			ir_error(d, m->locs[n], "meta[relay.Constant][%d] has no type; annotate it "
			         "(/* ty=Tensor[...] */) or bind its data with --params",
			         ir_node_const(m, n)->meta);
		return t;
	case NK_GLOBAL: {
		NodeId fn = ir_global_find(m, nd->aux);
		if (fn && !m->nodes[fn].type)
			ir_error(d, m->locs[n], "@%s is used before its type is known "
			         "(recursive functions are not supported)", ir_symstr(m, nd->aux));
		return fn ? m->nodes[fn].type : 0;
	}
	default:
		break;
	}
	if (k > 16)
		ts = ir_xmalloc(k * sizeof *ts);
	for (uint32_t i = 0; i < k; i++) {
		NodeId a = ir_arg(m, n, i);
		ts[i] = a ? m->nodes[a].type : 0;
		if (!ts[i])
			goto out;       /* an operand failed: reported there */
	}
	switch (nd->kind) {
	case NK_CALL:
		t = rel(m, n, &ir_ops[nd->op], ts, k, d);
		break;
	case NK_CALLFN: {
		const Type *ft = &m->types[ts[0]];
		if (ft->kind != TY_FUNC) {
			ir_error(d, m->locs[n], "called value has type %s, not a function type",
			         tystr(m, ts[0], b1, sizeof b1));
			break;
		}
		if (ft->n != k - 1) {
			ir_error(d, m->locs[n], "function takes %u argument%s, not %u", ft->n,
			         ft->n == 1 ? "" : "s", k - 1);
			break;
		}
		for (uint32_t i = 1; i < k; i++)
			if (m->tylist[ft->first + i - 1] != ts[i]) {
				ir_error(d, m->locs[n], "argument %u has type %s, but the function expects %s", i,
				         tystr(m, ts[i], b1, sizeof b1),
				         tystr(m, m->tylist[ft->first + i - 1], b2, sizeof b2));
				goto out;
			}
		t = m->tylist[ft->first + ft->n];
		break;
	}
	case NK_TUPLE:
		t = ir_type_tuple(m, (int)k, ts);
		break;
	case NK_GETITEM: {
		const Type *tt = &m->types[ts[0]];
		if (tt->kind != TY_TUPLE)
			ir_error(d, m->locs[n], "projection .%u of a value of type %s, not a tuple", nd->aux,
			         tystr(m, ts[0], b1, sizeof b1));
		else if (nd->aux >= tt->n)
			ir_error(d, m->locs[n], "projection .%u of a tuple with %u field%s", nd->aux, tt->n,
			         tt->n == 1 ? "" : "s");
		else
			t = m->tylist[tt->first + nd->aux];
		break;
	}
	case NK_FUNC: {
		TypeId ret = ir_node_func(m, n)->ret;
		if (ret && ret != ts[k - 1]) {
			ir_error(d, m->locs[n], "function is declared to return %s, but its body has type %s",
			         tystr(m, ret, b1, sizeof b1), tystr(m, ts[k - 1], b2, sizeof b2));
			break;
		}
		t = ir_type_func(m, (int)k - 1, ts, ts[k - 1]);
		break;
	}
	default:
		ir_die("typeof_: node %u of kind %d", n, nd->kind);
	}
out:
	if (ts != buf)
		free(ts);
	return t;
}

TypeId
ir_infer_node(Module *m, NodeId n, Diag *d)
{
	const Node *nd = &m->nodes[n];

	/* the rewrite driver's usual case: a call whose relation is
	   remembered; everything else, and errors, the general way */
	if (nd->kind == NK_CALL && nd->nargs <= MEMO_ARGS && m->nrelmemo) {
		TypeId ts[MEMO_ARGS];
		const NodeId *a = &m->argv[nd->args];
		uint32_t k = nd->nargs, j = 0, last = m->oprel[nd->op];
		const RelMemo *e;
		/* first the entry this op found last time (its operand types are
		   never 0) */
		if (last) {
			e = &m->relmemo[last - 1];
			if (e->op == nd->op && e->attrs == nd->aux && e->nargs == k) {
				while (j < k && e->args[j] == m->nodes[a[j]].type)
					j++;
				if (j == k)
					return e->ret;
			}
		}
		for (uint32_t i = 0; i < k; i++)
			if (!(ts[i] = m->nodes[a[i]].type))
				return typeof_(m, n, d);
		e = memoslot(m, memohash(nd->op, nd->aux, ts, k), nd->op, nd->aux, ts, k);
		if (e->h) {
			m->oprel[nd->op] = (uint32_t)(e - m->relmemo) + 1;
			return e->ret;
		}
	}
	return typeof_(m, n, d);
}

/* globaltype: the type of a reference @g; a g whose inference failed has
** been reported already, so only a g still being inferred (recursion) is */
static TypeId
globaltype(Module *m, NodeId n, const uint8_t *gstate, Diag *d)
{
	uint32_t g = ir_global_index(m, m->nodes[n].aux);

	if (g && gstate[g - 1] == 2)
		return m->nodes[m->globals[g - 1].fn].type;
	return typeof_(m, n, d);
}

/* inferfn: infer the types of everything global g reaches, the globals it
** refers to first.  Iterative: a chain of globals each calling the next
** is as long as the input, so it gets a frame on the heap, not the C stack. */
static void
inferfn(Module *m, uint32_t g, uint8_t *state, uint8_t *gstate, Diag *d)
{
	struct Frame {
		Walk w;
		uint32_t g;         /* the global being inferred */
		NodeId pending;     /* a reference waiting for its callee's type */
		NodeId cycle;
	} *fr = NULL;
	uint32_t nfr = 0, capfr = 0;

	for (;;) {
		struct Frame *f;
		NodeId n;

		if (g != UINT32_MAX) {
			/* start inferring global g */
			ir_vgrow(&fr, &capfr, nfr + 1);
			f = &fr[nfr++];
			memset(f, 0, sizeof *f);
			f->w.state = state;
			f->g = g;
			gstate[g] = 1;
			push(&f->w, m->globals[g].fn);
			g = UINT32_MAX;
		}
		if (!nfr)
			break;
		f = &fr[nfr - 1];
		if (!(n = next(m, &f->w, &f->cycle))) {
			/* global f->g is done */
			if (f->cycle)
				ir_error(d, m->locs[f->cycle], "the graph has a cycle through this node");
			gstate[f->g] = 2;
			free(f->w.st);
			if (!--nfr)
				break;
			f = &fr[nfr - 1];
			if ((n = f->pending)) {
				f->pending = 0;
				m->nodes[n].type = globaltype(m, n, gstate, d);
			}
			continue;
		}
		if (m->nodes[n].kind == NK_GLOBAL) {
			/* infer the callee's function first */
			uint32_t callee = ir_global_index(m, m->nodes[n].aux);
			if (callee && gstate[callee - 1] == 0) {
				f->pending = n;
				g = callee - 1;
				continue;
			}
			m->nodes[n].type = globaltype(m, n, gstate, d);
			continue;
		}
		m->nodes[n].type = typeof_(m, n, d);
	}
	free(fr);
}

int
ir_infer_types(Module *m, Diag *d)
{
	Walk w = { NULL, 0, 0, ir_xcalloc(m->nnodes, 1) };
	uint8_t *gstate = ir_xcalloc(m->nglobals ? m->nglobals : 1, 1);
	int before = d->errors;
	char b1[256], b2[256];

	for (uint32_t g = 0; g < m->nglobals; g++)
		if (!gstate[g])
			inferfn(m, g, w.state, gstate, d);
	for (uint32_t i = 0; i < m->nanns; i++) {
		const TypeAnn *a = &m->anns[i];
		TypeId t = m->nodes[a->node].type;
		if (t && t != a->type)
			ir_error(d, a->loc, "the annotation says %s, but the inferred type is %s",
			         tystr(m, a->type, b1, sizeof b1), tystr(m, t, b2, sizeof b2));
	}
	free(gstate);
	walkfree(&w);
	m->typed = d->errors == before;
	return d->errors - before;
}

/* ---------------------------------------------------------------- verifier */

int
ir_verify(Module *m, Diag *d)
{
	Walk w = { NULL, 0, 0, ir_xcalloc(m->nnodes, 1) };
	int before = d->errors;
	uint64_t listed = 0, slots = 0;

	for (NodeId n = 1; n < m->nnodes; n++) {
		const Node *nd = &m->nodes[n];
		if (nd->kind == NK_DEAD)
			continue;
		if (nd->args + (uint64_t)nd->nargs > m->nuses)
			ir_error(d, m->locs[n], "verify: node %u has operands outside the use table", n);
		if (nd->kind == NK_CALL && (nd->op == OP_NONE || nd->op >= ir_op_count() || (int)nd->nargs != ir_ops[nd->op].nargs))
			ir_error(d, m->locs[n], "verify: call node %u has %u operands for op %u", n, nd->nargs, nd->op);
		else if (nd->kind == NK_CALLFN && nd->aux > m->nfuncs)
			ir_error(d, m->locs[n], "verify: call node %u names attributes %u of %u", n, nd->aux, m->nfuncs);
		else if (nd->kind == NK_CALL && (nd->aux + (uint64_t)ir_ops[nd->op].nattrs > m->nattrs ||
		                                 !ir_attr_interned(m, nd->aux, (uint32_t)ir_ops[nd->op].nattrs)))
			ir_error(d, m->locs[n], "verify: the attributes of call node %u are not interned", n);
		for (uint32_t i = 0; i < nd->nargs; i++) {
			const Use *u = &m->uses[nd->args + i];
			NodeId a = m->argv[nd->args + i];
			if (u->user != n)
				ir_error(d, m->locs[n], "verify: operand %u of node %u names user %u", i, n, u->user);
			if (!a || a >= m->nnodes || m->nodes[a].kind == NK_DEAD)
				ir_error(d, m->locs[n], "verify: operand %u of node %u is a dead or missing node", i, n);
			else
				slots++;
		}
		if (nd->kind == NK_FUNC)
			for (uint32_t i = 0; i + 1 < nd->nargs; i++)
				if (m->nodes[ir_arg(m, n, i)].kind != NK_VAR)
					ir_error(d, m->locs[n], "verify: parameter %u of function node %u is not a variable", i, n);
		for (uint32_t s = m->firstuse[n], prev = 0; s; prev = s, s = m->uses[s].next) {
			if (s >= m->nuses || m->argv[s] != n || m->uses[s].prev != prev) {
				ir_error(d, m->locs[n], "verify: use list of node %u is corrupt", n);
				break;
			}
			listed++;
		}
	}
	if (listed != slots)
		ir_error(d, (Loc){ 0, 0, 0 }, "verify: %llu operand slots but %llu listed uses",
		         (unsigned long long)slots, (unsigned long long)listed);
	if (d->errors != before)
		goto done;
	/* acyclic, and every type is what inference computes */
	for (uint32_t g = 0; g < m->nglobals; g++) {
		NodeId n, cycle = 0;
		push(&w, m->globals[g].fn);
		while ((n = next(m, &w, &cycle))) {
			Diag quiet = *d;
			TypeId t;
			quiet.out = NULL;
			t = typeof_(m, n, &quiet);
			if (t != m->nodes[n].type) {
				char b1[256], b2[256];
				ir_error(d, m->locs[n], "verify: node %u has type %s but its operands give %s", n,
				         tystr(m, m->nodes[n].type, b1, sizeof b1), tystr(m, t, b2, sizeof b2));
			}
		}
		if (cycle) {
			ir_error(d, m->locs[cycle], "verify: the graph has a cycle through node %u", cycle);
			break;
		}
	}
done:
	walkfree(&w);
	return d->errors - before;
}

/* ---------------------------------------------------------------- dce */

uint32_t
ir_dce(Module *m)
{
	Walk w = { NULL, 0, 0, ir_xcalloc(m->nnodes, 1) };
	NodeId n, cycle = 0;
	uint32_t killed = 0;

	for (uint32_t g = 0; g < m->nglobals; g++) {
		push(&w, m->globals[g].fn);
		while ((n = next(m, &w, &cycle)))
			;
		if (cycle)
			ir_die("ir_dce: cyclic graph");
	}
	/* kill users before their operands so use counts stay exact */
	for (n = m->nnodes; n-- > 1;)
		if (!w.state[n] && m->nodes[n].kind != NK_DEAD) {
			ir_node_kill(m, n);
			killed++;
		}
	walkfree(&w);
	return killed;
}
