/*
** partition.c: composites, target annotation, region merging and
** outlining (partition.h, docs/partitioning.md).
**
** Each step works on one function at a time, on the function's graph in
** topological order (operands first; function literals are leaves).  The
** state is a handful of arrays indexed by NodeId, grown with the module:
** nothing here is quadratic in the graph except where docs/partitioning.md
** says so (a merge of two regions walks both regions' inputs).
*/
#include <stdlib.h>
#include <string.h>

#include "partition.h"

/* A composite's match: entry `rule` at the node at position pos, covering
** pool[first .. first + n) (root first). */
typedef struct Cand {
	uint32_t rule, pos, first, n;
} Cand;

/* What regions() keeps per node, together: on a big graph each field in
** an array of its own costs a cache miss of its own. */
typedef struct Rg {
	NodeId parent;          /* union-find over the target's nodes */
	uint32_t minpos, ver;   /* of a representative: its region's first
	                           position and version */
	uint32_t ehead, etail;  /* of a representative: its region's input list */
} Rg;

/* Pool: singly linked lists of nodes, entries 1-based (0 ends a list),
** each list known by its head and tail */
typedef struct Pool {
	NodeId *node; uint32_t *next; uint32_t n, cap;
} Pool;

/* memo: the node reaches no node of region rep at version ver */
typedef struct Memo {
	uint32_t rep, ver;
} Memo;

typedef struct State {
	Partitioner *p;
	Module *m;
	uint16_t ti;            /* the target being partitioned */
	const Ruleset *rs;
	Rw rw;
	uint32_t cap;           /* size of the per-node arrays */
	/* the graph */
	NodeId *order; uint32_t norder, caporder;
	uint32_t *pos;          /* 1 + index in order; 0: not in the graph */
	/* composites */
	Cand *cands; uint32_t ncands, capcands;
	NodeId *pool; uint32_t npool, cappool;
	NodeId *fnodes; uint32_t capfnodes;     /* a match's nodes with its function literals' (withfuncs) */
	uint32_t *supported;    /* 1 + the first supports entry that accepts the node */
	uint32_t *owner;        /* 1 + the candidate that took the node */
	uint32_t *stamp; uint32_t curstamp;
	NodeId *param;          /* outlining: the parameter standing for a node, when stamp says so */
	uint32_t *pstamp;
	uint32_t *nmade;        /* per entry: composites made in this target */
	uint32_t *rank;         /* per entry: its place in priority order */
	/* regions */
	uint8_t *tgt;           /* annotated with this target */
	Rg *rg;                 /* per node: union-find and region state */
	Memo *memo;             /* per node: the cycle search's memo */
	uint32_t gver;
	Pool ent;               /* the regions' input lists */
	Sym k_pattern, k_composite, k_compiler, k_symbol, k_primitive, k_inline, target;
	Sym *compname;          /* per entry: "<target>.<name>", interned on first use */
	NodeId *stack; uint32_t nstack, capstack;
	/* scratch of outlinecomposite, kept from one composite to the next */
	NodeId *body, *params, *args, *pst;
	uint32_t capbody, capparams, capargs, cappst, *pidx, cappidx, *slots, capslots;
	char *pattern; uint32_t cappattern;
} State;

/* ---------------------------------------------------------------- state */

/* GROW: a fresh zeroed array (calloc: pages the walks never reach are
** never touched) with the old contents */
#define GROW(S, field) do { \
		void *fresh = ir_xcalloc(cap, sizeof *(S)->field); \
		if ((S)->cap) \
			memcpy(fresh, (S)->field, (S)->cap * sizeof *(S)->field); \
		free((S)->field); \
		(S)->field = fresh; \
	} while (0)

/* ensure: the per-node arrays cover every node of the module; the first
** time with room for what outlining adds (a few nodes per composite or
** region, at most about two per node) */
static void
ensure(State *S)
{
	uint32_t cap;

	if (S->m->nnodes <= S->cap)
		return;
	cap = S->cap ? S->m->nnodes + S->m->nnodes / 2 + 64 : 3 * S->m->nnodes + 64;
	GROW(S, pos);
	GROW(S, supported);
	GROW(S, owner);
	GROW(S, stamp);
	GROW(S, param);
	GROW(S, pstamp);
	GROW(S, tgt);
	GROW(S, rg);
	GROW(S, memo);
	S->cap = cap;
}

static void
statefree(State *S)
{
	free(S->order); free(S->pos); free(S->cands); free(S->pool); free(S->supported);
	free(S->owner); free(S->stamp); free(S->param); free(S->pstamp); free(S->nmade);
	free(S->tgt); free(S->rg); free(S->memo);
	free(S->ent.node); free(S->ent.next);
	free(S->stack); free(S->compname); free(S->rank);
	free(S->body); free(S->params); free(S->args); free(S->pst); free(S->pidx);
	free(S->slots); free(S->pattern); free(S->fnodes);
}

static void
why(State *S, WhyKind k, NodeId n, uint32_t rule, uint32_t rule2, NodeId other, NodeId via)
{
	Partitioner *p = S->p;
	Why *w;

	if (!p->explain)
		return;
	ir_vgrow(&p->why, &p->capwhy, p->nwhy + 1);
	w = &p->why[p->nwhy++];
	w->node = n;
	w->kind = (uint8_t)k;
	w->target = S->ti;
	w->rule = rule;
	w->rule2 = rule2;
	w->other = other;
	w->via = via;
}

/* isleaf: a node that is never part of a computation: it is copied or
** moved along with whatever uses it */
static int
isleaf(const Module *m, NodeId n)
{
	int k = m->nodes[n].kind;
	return k == NK_VAR || k == NK_CONST || k == NK_FUNC || k == NK_GLOBAL;
}

/* topo: the graph of the function whose body is body, operands first */
static void
topo(State *S, NodeId body)
{
	Module *m = S->m;
	uint32_t *idx = NULL, capidx = 0;

	ensure(S);
	for (uint32_t i = 0; i < S->norder; i++)
		S->pos[S->order[i]] = 0;
	S->norder = 0;
	S->nstack = 0;
	ir_vgrow(&S->stack, &S->capstack, 1);
	ir_vgrow(&idx, &capidx, 1);
	S->stack[S->nstack] = body;
	idx[S->nstack++] = 0;
	S->pos[body] = UINT32_MAX;      /* on the stack */
	while (S->nstack) {
		NodeId n = S->stack[S->nstack - 1];
		uint32_t i = idx[S->nstack - 1];
		if (m->nodes[n].kind != NK_FUNC && i < m->nodes[n].nargs) {
			NodeId a = ir_arg(m, n, i);
			idx[S->nstack - 1] = i + 1;
			if (a && !S->pos[a]) {
				ir_vgrow(&S->stack, &S->capstack, S->nstack + 1);
				ir_vgrow(&idx, &capidx, S->nstack + 1);
				S->pos[a] = UINT32_MAX;
				S->stack[S->nstack] = a;
				idx[S->nstack++] = 0;
			}
			continue;
		}
		S->nstack--;
		ir_vgrow(&S->order, &S->caporder, S->norder + 1);
		S->order[S->norder++] = n;
		S->pos[n] = S->norder;
	}
	free(idx);
}

/* mangle: name with every character that is not a letter or digit as '_' */
static void
mangle(char *out, size_t n, const char *name)
{
	size_t i;
	for (i = 0; name[i] && i + 1 < n; i++) {
		char c = name[i];
		out[i] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ? c : '_';
	}
	out[i] = 0;
}

/* useslots: the operand slots that use n (users outside stamp cur when
** outside is set), into *v */
static uint32_t
useslots(State *S, NodeId n, int outside, uint32_t **v, uint32_t *cap)
{
	uint32_t k = 0;
	IR_FOR_USES(S->m, n, slot) {
		if (outside && S->stamp[S->m->uses[slot].user] == S->curstamp)
			continue;
		ir_vgrow(v, cap, k + 1);
		(*v)[k++] = slot;
	}
	return k;
}

static void
setslot(Module *m, uint32_t slot, NodeId val)
{
	NodeId user = m->uses[slot].user;
	ir_set_arg(m, user, slot - m->nodes[user].args, val);
}

/* ---------------------------------------------------------------- 1. composites */

/* withfuncs: nodes[0..n) into S->fnodes, and with each function literal
** among them (matched by fn(...) {...}) its parameters and the nodes of
** its body: a composite takes a function literal whole, as TVM's does,
** whatever its body pattern looked at (fn(...) { _ } too).  Returns the
** count. */
static uint32_t
withfuncs(State *S, const NodeId *nodes, uint32_t n)
{
	Module *m = S->m;
	uint32_t k = 0, top = 0, mark = ++S->curstamp;

	ensure(S);
	ir_vgrow(&S->fnodes, &S->capfnodes, n);
	for (uint32_t i = 0; i < n; i++)
		if (S->stamp[nodes[i]] != mark) {
			S->stamp[nodes[i]] = mark;
			S->fnodes[k++] = nodes[i];
		}
	for (uint32_t i = 0; i < k; i++) {
		if (m->nodes[S->fnodes[i]].kind != NK_FUNC)
			continue;
		/* its operands (parameters, then the body), and theirs, down to
		   the leaves: the function's own scope */
		ir_vgrow(&S->stack, &S->capstack, top + 1);
		S->stack[top++] = S->fnodes[i];
		while (top) {
			NodeId x = S->stack[--top];
			for (uint32_t j = 0; j < m->nodes[x].nargs; j++) {
				NodeId a = ir_arg(m, x, j);
				if (!a || S->stamp[a] == mark || m->nodes[a].kind == NK_GLOBAL)
					continue;
				S->stamp[a] = mark;
				ir_vgrow(&S->fnodes, &S->capfnodes, k + 1);
				S->fnodes[k++] = a;
				if (!isleaf(m, a) || m->nodes[a].kind == NK_FUNC) {
					ir_vgrow(&S->stack, &S->capstack, top + 1);
					S->stack[top++] = a;
				}
			}
		}
	}
	return k;
}

/* report: the generated matcher's callback (Rw.report) */
static void
report(Rw *rw, uint32_t rule, const NodeId *nodes, uint32_t n, int ok)
{
	State *S = rw->ctx;
	Module *m = S->m;
	Cand *last = S->ncands ? &S->cands[S->ncands - 1] : NULL;

	if (S->rs->rules[rule].kind == RI_SUPPORTS) {
		if (ok && !S->supported[rw->root])
			S->supported[rw->root] = rule + 1;
		else
			why(S, WHY_SGUARD, rw->root, rule, 0, 0, 0);
		return;
	}
	if (!ok) {
		for (uint32_t i = 0; i < n; i++)
			if (m->nodes[nodes[i]].kind != NK_CONST)
				why(S, WHY_GUARD, nodes[i], rule, 0, rw->root, 0);
		return;
	}
	n = withfuncs(S, nodes, n);
	nodes = S->fnodes;
	/* the first variant of an entry that matches is its match, as with
	   TVM's left-first alternation */
	if (last && last->rule == rule && last->pos == S->pos[rw->root])
		return;
	ir_vgrow(&S->cands, &S->capcands, S->ncands + 1);
	ir_vgrow(&S->pool, &S->cappool, S->npool + n);
	S->cands[S->ncands].rule = rule;
	S->cands[S->ncands].pos = S->pos[rw->root];
	S->cands[S->ncands].first = S->npool;
	S->cands[S->ncands].n = n;
	S->ncands++;
	memcpy(S->pool + S->npool, nodes, n * sizeof *nodes);
	S->npool += n;
}

/* aliasconst: a new constant node for the data of constant c */
static NodeId
aliasconst(Module *m, NodeId c)
{
	Const k = *ir_node_const(m, c);
	NodeId n = ir_const_meta(m, k.type, k.meta, m->locs[c]);
	Const *nc = ir_node_const(m, n);
	nc->flags = k.flags;
	nc->data = k.data;
	nc->nbytes = k.nbytes;
	return n;
}

/* embedconst: operand i of x is the constant c, which goes inside with x:
** x gets its own copy when c has users outside stamp cur */
static void
embedconst(State *S, NodeId x, uint32_t i, NodeId c)
{
	Module *m = S->m;
	IR_FOR_USES(m, c, slot)
		if (S->stamp[m->uses[slot].user] != S->curstamp) {
			ir_set_arg(m, x, i, aliasconst(m, c));
			ensure(S);
			return;
		}
}

/* paramfor: the parameter standing for node a in the function being
** outlined (pstamp == curstamp), made on first use and named prefix and
** number */
static NodeId
paramfor(State *S, NodeId a, const char *prefix, uint32_t number, NodeId **params, uint32_t *np, uint32_t *cap,
         NodeId **args, uint32_t *capargs)
{
	Module *m = S->m;
	char name[160];
	NodeId v;

	if (S->pstamp[a] == S->curstamp)
		return S->param[a];
	/* generated names are unique by construction and only printed: no
	   lookup-table entry (one cache miss each on big graphs) */
	snprintf(name, sizeof name, "%s%u", prefix, number);
	v = ir_var(m, ir_sym_fresh(m, name, strlen(name)), m->nodes[a].type, m->locs[a]);
	ensure(S);
	S->pstamp[a] = S->curstamp;
	S->param[a] = v;
	ir_vgrow(params, cap, *np + 1);
	(*params)[*np] = v;
	ir_vgrow(args, capargs, *np + 1);
	(*args)[*np] = a;
	(*np)++;
	return v;
}

/* postorder: the nodes stamped curstamp that root reaches through
** stamped nodes, operands first, into *out; and, as the walk meets them,
** a parameter (paramfor, named prefix and number, counted in *np) for
** each operand outside the set: depth first from root, operands left to
** right, the order in which TVM's matcher first meets a composite's
** inputs */
static uint32_t
postorder(State *S, NodeId root, NodeId **out, uint32_t *capout, const char *prefix, uint32_t *np)
{
	Module *m = S->m;
	uint32_t n = 0, top = 0;
	uint32_t seen = ++S->curstamp;   /* a second stamp: visited */
#define st S->pst
#define idx S->pidx
#define capst S->cappst
#define capidx S->cappidx

	/* curstamp - 1 marks the set, curstamp marks visited ones: restore
	   the set's stamp on the way out */
	ir_vgrow(&st, &capst, 1);
	ir_vgrow(&idx, &capidx, 1);
	st[0] = root;
	idx[0] = 0;
	top = 1;
	S->stamp[root] = seen;
	while (top) {
		NodeId x = st[top - 1];
		uint32_t i = idx[top - 1];
		if (i < m->nodes[x].nargs) {
			NodeId a = ir_arg(m, x, i);
			idx[top - 1] = i + 1;
			if (a && S->stamp[a] == seen - 1) {
				ir_vgrow(&st, &capst, top + 1);
				ir_vgrow(&idx, &capidx, top + 1);
				S->stamp[a] = seen;
				st[top] = a;
				idx[top++] = 0;
			} else if (a && S->stamp[a] != seen) {
				paramfor(S, a, prefix, *np, &S->params, np, &S->capparams, &S->args, &S->capargs);
			}
			continue;
		}
		top--;
		ir_vgrow(out, capout, n + 1);
		(*out)[n++] = x;
	}
	for (uint32_t i = 0; i < n; i++)
		S->stamp[(*out)[i]] = seen;
#undef st
#undef idx
#undef capst
#undef capidx
	return n;
}

/* outlinecomposite: make candidate c a function literal called in its
** place; k numbers it among its entry's composites.  Returns the call. */
static NodeId
outlinecomposite(State *S, const Cand *c, uint32_t k)
{
	Module *m = S->m;
	const RuleInfo *ri = &S->rs->rules[c->rule];
	NodeId root = S->pool[c->first], fn, call;
	uint32_t nbody, np = 0, nslots;
	char prefix[64];
	size_t plen = 0;
	AttrVal at[2];

	/* the set: the candidate's nodes, constants included */
	S->curstamp++;
	for (uint32_t i = 0; i < c->n; i++)
		S->stamp[S->pool[c->first + i]] = S->curstamp;
	snprintf(prefix, sizeof prefix, "FunctionVar_%u_", k);
	/* the body, and the parameters in TVM's order, which the body's
	   walk below then finds */
	nbody = postorder(S, root, &S->body, &S->capbody, prefix, &np);
	/* the set is now stamped curstamp (postorder moved it on by one) */
	nslots = useslots(S, root, 0, &S->slots, &S->capslots);
	for (uint32_t b = 0; b < nbody; b++) {
		NodeId x = S->body[b];
		const char *piece = NULL;
		char buf[96];
		if (m->nodes[x].kind == NK_CONST || m->nodes[x].kind == NK_VAR)
			continue;       /* constants and a function literal's parameters */
		/* a composite always goes to its target's region */
		S->p->st.offloaded += m->nodes[x].kind == NK_CALL;
		for (uint32_t i = 0; i < m->nodes[x].nargs; i++) {
			NodeId a = ir_arg(m, x, i);
			if (S->stamp[a] == S->curstamp) {
				if (m->nodes[a].kind == NK_CONST)
					embedconst(S, x, i, a);
				continue;
			}
			ir_set_arg(m, x, i, paramfor(S, a, prefix, np, &S->params, &np, &S->capparams, &S->args, &S->capargs));
		}
		/* PartitionedFromPattern: what TVM calls the match, its ops in
		   post-order */
		switch (m->nodes[x].kind) {
		case NK_CALL: piece = ir_ops[m->nodes[x].op].name; break;
		case NK_TUPLE: piece = "Tuple"; break;
		case NK_GETITEM: snprintf(buf, sizeof buf, "TupleGetItem%u", m->nodes[x].aux); piece = buf; break;
		case NK_FUNC: piece = "Function"; break;       /* TVM's: no '_' after it */
		default: piece = "Call"; break;
		}
		ir_vgrow(&S->pattern, &S->cappattern, (uint32_t)(plen + strlen(piece) + 2));
		memcpy(S->pattern + plen, piece, strlen(piece));
		plen += strlen(piece);
		if (m->nodes[x].kind != NK_FUNC)
			S->pattern[plen++] = '_';
		S->pattern[plen] = 0;
	}
	memset(at, 0, sizeof at);
	at[0].kind = AV_STR;
	at[0].key = S->k_pattern;
	at[0].u.s = ir_sym(m, S->pattern ? S->pattern : "", plen);
	if (!S->compname[c->rule]) {
		char name[256];
		snprintf(name, sizeof name, "%s.%s", S->rs->name, ri->name);
		S->compname[c->rule] = ir_symz(m, name);
	}
	at[1].kind = AV_STR;
	at[1].key = S->k_composite;
	at[1].u.s = S->compname[c->rule];
	fn = ir_func(m, S->params, np, root, m->nodes[root].type, ir_attr_push(m, at, 2), 2, m->locs[root]);
	call = ir_callfn(m, fn, S->args, np, m->locs[root]);
	ensure(S);
	m->nodes[fn].type = ir_infer_node(m, fn, S->p->d);
	m->nodes[call].type = m->nodes[root].type;
	for (uint32_t i = 0; i < nslots; i++)
		setslot(m, S->slots[i], call);
	S->p->st.composites++;
	return call;
}

/* composites: MergeComposite on the function with body *body */
static void
composites(State *S, NodeId fnnode)
{
	Module *m = S->m;
	uint32_t nrules = S->rs->nrules, *count, *start;
	Cand *sorted;
	uint32_t *accepted = NULL, nacc = 0, capacc = 0;

	topo(S, ir_func_body(m, fnnode));
	S->ncands = S->npool = 0;
	/* outputs first, as TVM's PatternGrouper visits them */
	for (uint32_t i = S->norder; i-- > 0;) {
		NodeId n = S->order[i];
		int k = m->nodes[n].kind;
		uint32_t rule;
		if (k != NK_CALL && k != NK_TUPLE && k != NK_GETITEM && k != NK_CALLFN)
			continue;
		S->supported[n] = 0;
		if (!ir_rw_rooted(&S->rw, n))
			continue;
		S->rw.root = n;
		S->rw.gfail = 0;
		S->rs->match(&S->rw, n, &rule);
	}
	/* stable sort by priority: each entry's matches stay outputs first */
	count = ir_xcalloc(nrules + 1, sizeof *count);
	start = ir_xcalloc(nrules + 1, sizeof *start);
	for (uint32_t i = 0; i < S->ncands; i++)
		count[S->rank[S->cands[i].rule]]++;
	for (uint32_t r = 1; r <= nrules; r++)
		start[r] = start[r - 1] + count[r - 1];
	sorted = ir_xmalloc((S->ncands ? S->ncands : 1) * sizeof *sorted);
	for (uint32_t i = 0; i < S->ncands; i++)
		sorted[start[S->rank[S->cands[i].rule]]++] = S->cands[i];

	for (uint32_t ci = 0; ci < S->ncands; ci++) {
		const Cand *c = &sorted[ci];
		NodeId root = S->pool[c->first], clash = 0, escape = 0, user = 0;
		S->curstamp++;
		for (uint32_t i = 0; i < c->n; i++)
			S->stamp[S->pool[c->first + i]] = S->curstamp;
		for (uint32_t i = 0; i < c->n && !clash; i++) {
			NodeId x = S->pool[c->first + i];
			if (m->nodes[x].kind != NK_CONST && S->owner[x])
				clash = x;
		}
		/* an inner value used outside would be lost: one output only */
		for (uint32_t i = 1; i < c->n && !clash && !escape; i++) {
			NodeId x = S->pool[c->first + i];
			if (m->nodes[x].kind == NK_CONST || x == root)
				continue;
			IR_FOR_USES(m, x, slot)
				if (S->stamp[m->uses[slot].user] != S->curstamp) {
					escape = x;
					user = m->uses[slot].user;
					break;
				}
		}
		if (clash || escape) {
			for (uint32_t i = 0; i < c->n; i++) {
				NodeId x = S->pool[c->first + i];
				if (m->nodes[x].kind == NK_CONST || S->owner[x])
					continue;
				if (clash) {
					const Cand *o = &sorted[S->owner[clash] - 1];
					why(S, WHY_OVERLAP, x, c->rule, o->rule, S->pool[o->first], 0);
				} else {
					why(S, WHY_ESCAPE, x, c->rule, 0, user, escape);
				}
			}
			continue;
		}
		for (uint32_t i = 0; i < c->n; i++) {
			NodeId x = S->pool[c->first + i];
			if (m->nodes[x].kind != NK_CONST)
				S->owner[x] = ci + 1;
		}
		ir_vgrow(&accepted, &capacc, nacc + 1);
		accepted[nacc++] = ci;
	}
	{
		NodeId *callof = ir_xcalloc(S->ncands ? S->ncands : 1, sizeof *callof), *order;
		uint32_t k = 0;
		for (uint32_t i = 0; i < nacc; i++) {
			const Cand *c = &sorted[accepted[i]];
			callof[accepted[i]] = outlinecomposite(S, c, S->nmade[c->rule]++);
		}
		/* the graph now, without a second walk: each match's nodes are
		   gone and its root is the function literal and its call (the
		   constants moved inside stay listed: they are leaves) */
		order = ir_xmalloc((S->norder + nacc + 1) * sizeof *order);
		for (uint32_t i = 0; i < S->norder; i++) {
			NodeId n = S->order[i];
			uint32_t o = m->nodes[n].kind == NK_CONST ? 0 : S->owner[n];
			if (!o) {
				order[k++] = n;
			} else if (S->pool[sorted[o - 1].first] == n) {
				order[k++] = ir_arg(m, callof[o - 1], 0);
				order[k++] = callof[o - 1];
			}
		}
		for (uint32_t i = 0; i < S->norder; i++)
			S->pos[S->order[i]] = 0;
		free(S->order);
		S->order = order;
		S->norder = k;
		S->caporder = S->norder + nacc + 1;
		for (uint32_t i = 0; i < k; i++)
			S->pos[order[i]] = i + 1;
		free(callof);
	}
	/* owner marks are per function */
	for (uint32_t i = 0; i < S->npool; i++)
		S->owner[S->pool[i]] = 0;
	free(accepted);
	free(sorted);
	free(count);
	free(start);
}

/* ---------------------------------------------------------------- 2. annotate */

/* annotate: AnnotateTarget on the graph in S->order.  Counts each call it
** annotates under its supports entry in fired[] (the --stats figures) and
** returns the number of calls it leaves to later targets. */
static uint64_t
annotate(State *S, uint64_t *fired)
{
	Module *m = S->m;
	size_t tl = strlen(S->rs->name);
	uint32_t ntuples = 0, ngetitems = 0;
	uint64_t left = 0;

	for (uint32_t i = 0; i < S->norder; i++) {
		NodeId n = S->order[i];
		uint8_t k = m->nodes[n].kind;
		S->tgt[n] = 0;
		if (k == NK_CALL) {
			uint32_t e = S->supported[n];
			S->tgt[n] = e != 0;
			if (e)
				fired[e - 1]++;
			else
				left++;
		} else if (k == NK_CALLFN) {
			NodeId f = ir_arg(m, n, 0);
			const AttrVal *v = m->nodes[f].kind == NK_FUNC ? ir_func_attr(m, f, "Composite") : NULL;
			const char *s = v && v->kind == AV_STR ? ir_symstr(m, v->u.s) : "";
			S->tgt[n] = strncmp(s, S->rs->name, tl) == 0 && s[tl] == '.';
		} else {
			ntuples += k == NK_TUPLE;
			ngetitems += k == NK_GETITEM;
		}
	}
	/* a tuple goes where all its users go; a projection where its tuple does */
	for (uint32_t i = S->norder; ntuples && i-- > 0;) {
		NodeId n = S->order[i];
		int all = 1, any = 0;
		if (m->nodes[n].kind != NK_TUPLE)
			continue;
		IR_FOR_USES(m, n, slot) {
			NodeId u = m->uses[slot].user;
			any = 1;
			if (!S->pos[u] || !S->tgt[u])
				all = 0;
		}
		S->tgt[n] = (uint8_t)(any && all);
	}
	for (uint32_t i = 0; ngetitems && i < S->norder; i++) {
		NodeId n = S->order[i];
		if (m->nodes[n].kind == NK_GETITEM)
			S->tgt[n] = S->tgt[ir_arg(m, n, 0)];
	}
	return left;
}

/* ---------------------------------------------------------------- 3. regions */

static NodeId
find(State *S, NodeId n)
{
	NodeId r = n;
	while (S->rg[r].parent != r)
		r = S->rg[r].parent;
	while (S->rg[n].parent != r) {
		NodeId next = S->rg[n].parent;
		S->rg[n].parent = r;
		n = next;
	}
	return r;
}

/* inregion: n is a node of the target in region r */
static int
inregion(State *S, NodeId n, NodeId r)
{
	return S->pos[n] && S->tgt[n] && S->rg[n].parent && find(S, n) == r;
}

/* reaches: 1 if some node of region r reaches e (e is outside r); then
** *via is e.  Nodes found not to reach r are remembered until r changes. */
static int
reaches(State *S, NodeId e, NodeId r)
{
	Module *m = S->m;
	uint32_t lo = S->rg[r].minpos, v = S->rg[r].ver;

	if (S->pos[e] < lo || (S->memo[e].rep == r && S->memo[e].ver == v))
		return 0;
	S->nstack = 0;
	ir_vgrow(&S->stack, &S->capstack, 1);
	S->stack[S->nstack++] = e;
	S->memo[e].rep = r;
	S->memo[e].ver = v;
	while (S->nstack) {
		NodeId w = S->stack[--S->nstack];
		for (uint32_t i = 0; i < m->nodes[w].nargs; i++) {
			NodeId a = ir_arg(m, w, i);
			if (!a || !S->pos[a] || S->pos[a] < lo || isleaf(m, a))
				continue;
			if (inregion(S, a, r)) {
				/* the marks of this search are not all true: forget them */
				S->rg[r].ver = ++S->gver;
				return 1;
			}
			if (S->memo[a].rep == r && S->memo[a].ver == v)
				continue;
			S->memo[a].rep = r;
			S->memo[a].ver = v;
			ir_vgrow(&S->stack, &S->capstack, S->nstack + 1);
			S->stack[S->nstack++] = a;
		}
	}
	return 0;
}

/* poolpush: v at the end of the list (*head, *tail) */
static void
poolpush(Pool *p, uint32_t *head, uint32_t *tail, NodeId v)
{
	uint32_t cap = p->cap;

	ir_vgrow(&p->node, &p->cap, p->n + 1);
	if (p->cap != cap || !p->next)
		p->next = ir_xrealloc(p->next, p->cap * sizeof *p->next);
	p->node[p->n] = v;
	p->next[p->n] = 0;
	if (*tail)
		p->next[*tail - 1] = p->n + 1;
	else
		*head = p->n + 1;
	*tail = ++p->n;
}

/* poolcat: the list (head, tail) at the end of the list (*dhead, *dtail) */
static void
poolcat(uint32_t *next, uint32_t *dhead, uint32_t *dtail, uint32_t head, uint32_t tail)
{
	if (!head)
		return;
	if (*dtail)
		next[*dtail - 1] = head;
	else
		*dhead = head;
	*dtail = tail;
}

static void
addinput(State *S, NodeId r, NodeId e)
{
	poolpush(&S->ent, &S->rg[r].ehead, &S->rg[r].etail, e);
}

/* inputsreach: 1 if an input of region a outside a and b is reached from
** b; *via is that input */
static int
inputsreach(State *S, NodeId a, NodeId b, NodeId *via)
{
	for (uint32_t e = S->rg[a].ehead; e; e = S->ent.next[e - 1]) {
		NodeId x = S->ent.node[e - 1];
		if (inregion(S, x, a) || inregion(S, x, b))
			continue;
		if (reaches(S, x, b)) {
			*via = x;
			return 1;
		}
	}
	return 0;
}

/* regions: MergeCompilerRegions on the graph in S->order */
static void
regions(State *S)
{
	Module *m = S->m;

	S->ent.n = 0;
	for (uint32_t i = 0; i < S->norder; i++) {
		NodeId n = S->order[i];
		int single = 1;
		if (!S->tgt[n])
			continue;
		S->rg[n].parent = n;
		S->rg[n].minpos = S->pos[n];
		S->rg[n].ver = ++S->gver;
		S->rg[n].ehead = S->rg[n].etail = 0;
		for (uint32_t k = 0; k < m->nodes[n].nargs; k++) {
			NodeId a = ir_arg(m, n, k);
			if (a && !isleaf(m, a))
				addinput(S, n, a);
		}
		for (uint32_t k = 0; k < m->nodes[n].nargs; k++) {
			NodeId o = ir_arg(m, n, k), a, b, via = 0;
			int cycle = 0;
			if (!o || !S->pos[o] || !S->tgt[o] || isleaf(m, o))
				continue;
			a = find(S, n);
			b = find(S, o);
			if (a == b)
				continue;
			if (single) {
				/* n alone: does an operand outside b hang below b? */
				for (uint32_t j = 0; j < m->nodes[n].nargs && !cycle; j++) {
					NodeId e = ir_arg(m, n, j);
					if (!e || isleaf(m, e) || inregion(S, e, b))
						continue;
					if (reaches(S, e, b)) {
						cycle = 1;
						via = e;
					}
				}
			} else {
				cycle = inputsreach(S, a, b, &via) || inputsreach(S, b, a, &via);
			}
			if (cycle) {
				why(S, WHY_CYCLE, n, 0, 0, o, via);
				continue;
			}
			/* union: the region that starts first is the representative */
			{
				NodeId keep = S->rg[a].minpos <= S->rg[b].minpos ? a : b, gone = keep == a ? b : a;
				S->rg[gone].parent = keep;
				poolcat(S->ent.next, &S->rg[keep].ehead, &S->rg[keep].etail, S->rg[gone].ehead,
				        S->rg[gone].etail);
				S->rg[keep].ver = ++S->gver;
			}
			single = 0;
		}
	}
}

/* ---------------------------------------------------------------- 4. TVM's order */

/* TVM numbers a partition, orders its parameters and orders the fields of
** a multi-output partition by walking its annotated graph: one
** compiler_begin on every edge into a region, one compiler_end on every
** edge out of one (and on the function's result).  Graft has no annotation
** nodes, so order() walks the graph as TVM's two walks do and records
** what they would make of each region:
**
**  1. AnnotatedRegionSet: a post-order walk, operands left to right.  Each
**     compiler_begin is visited after its operand and starts a region
**     numbered by a counter; a node joins the region of its first operand
**     and merges the others' into it (the merged-into region keeps its
**     number, inputs and outputs first).  Each compiler_end visited
**     appends its operand to its region's outputs.
**  2. PartitionGraph: the same walk, except that a region's first
**     compiler_end visits all of the region's outputs, in order, before
**     going on.  Each compiler_begin visited appends its operand to the
**     region's parameters unless already there; the parameter is named by
**     that compiler_begin's place among the region's inputs.
**
** A constant operand's compiler_begin counts (TVM binds the constant into
** the function later); a function literal (a composite) is no operand. */

typedef struct Tvm {
	NodeId *cls;            /* per node in a region: 1 + a walk-1 region (a begin number) */
	uint32_t *begin;        /* per operand slot: 1 + its compiler_begin's number */
	uint32_t *up;           /* per begin number: union-find parent */
	uint32_t *ihead, *itail, *inext;    /* per begin number: the region's inputs, in order */
	uint32_t *ohead, *otail;            /* per begin number: the region's outputs */
	Pool out;
	uint32_t nbegin, capbegin;
	uint32_t *ipos;         /* per begin number: its place among its region's inputs */
	NodeId body;            /* the function's result: the operand of the walk's first frame */
} Tvm;

/* regionof: the representative of n's region in this target, or 0 */
static NodeId
regionof(State *S, NodeId n)
{
	return S->pos[n] && S->tgt[n] && S->rg[n].parent ? find(S, n) : 0;
}

static uint32_t
tvmfind(Tvm *T, uint32_t b)
{
	while (T->up[b] != b) {
		T->up[b] = T->up[T->up[b]];
		b = T->up[b];
	}
	return b;
}

/* tvmbegin: a new walk-1 region, started by a compiler_begin */
static uint32_t
tvmbegin(Tvm *T)
{
	uint32_t b = T->nbegin++, cap = T->capbegin;
	if (T->nbegin > cap) {
		cap = 2 * T->nbegin + 16;
		T->up = ir_xrealloc(T->up, cap * sizeof *T->up);
		T->ihead = ir_xrealloc(T->ihead, cap * sizeof *T->ihead);
		T->itail = ir_xrealloc(T->itail, cap * sizeof *T->itail);
		T->inext = ir_xrealloc(T->inext, cap * sizeof *T->inext);
		T->ohead = ir_xrealloc(T->ohead, cap * sizeof *T->ohead);
		T->otail = ir_xrealloc(T->otail, cap * sizeof *T->otail);
		T->capbegin = cap;
	}
	T->up[b] = b;
	T->ihead[b] = T->itail[b] = b + 1;
	T->inext[b] = 0;
	T->ohead[b] = T->otail[b] = 0;
	return b;
}

/* tvmmerge: walk-1 region src into dest (MergeRegions) */
static void
tvmmerge(Tvm *T, uint32_t src, uint32_t dest)
{
	if (src == dest)
		return;
	T->up[src] = dest;
	poolcat(T->inext, &T->ihead[dest], &T->itail[dest], T->ihead[src], T->itail[src]);
	poolcat(T->out.next, &T->ohead[dest], &T->otail[dest], T->ohead[src], T->otail[src]);
}

static void
tvmout(Tvm *T, uint32_t c, NodeId n)
{
	poolpush(&T->out, &T->ohead[c], &T->otail[c], n);
}

/* A walk's frame: a node whose operands are being walked (reg 0; node 0
** stands for the function, whose one operand is its result), or a region
** (1 + its index) whose outputs walk 2 visits at its first end. */
typedef struct Frame {
	NodeId x;
	uint32_t reg, i, e;     /* operands (outputs) gone down into; half-edges done */
} Frame;

/* What order() found per region (indexed as outline numbers them). */
typedef struct Order {
	uint32_t *id;                                   /* TVM's number */
	uint32_t *fstart; NodeId *fnode;                /* outputs: fnode[fstart[j] .. fstart[j + 1]) */
	uint32_t *pstart; NodeId *pnode; uint32_t *pidx; /* parameters, and the numbers in their names */
	uint8_t *made;                                  /* walk 2: the region's function is made */
	uint32_t *pend;                                 /* region j's parameters end at pend[j] */
	NodeId *now;                                    /* per node: what stands for it once outlined */
	uint32_t np, capp, *pj;                         /* walk 2: each parameter's region, unsorted */
} Order;

static uint32_t
nopnds(const Module *m, NodeId x)
{
	return !x ? 1 : m->nodes[x].kind == NK_FUNC ? 0 : m->nodes[x].nargs;
}

static NodeId
opnd(const Module *m, const Tvm *T, NodeId x, uint32_t k)
{
	return x ? ir_arg(m, x, k) : T->body;
}

/* halfedge: walk w (1 or 2) at half e of the edge from x to its operand:
** e even is the edge's compiler_end, e odd its compiler_begin.  Returns a
** region whose outputs walk 2 visits now, as 1 + its index, or 0. */
static uint32_t
halfedge(State *S, Tvm *T, Order *O, int w, NodeId x, uint32_t e)
{
	Module *m = S->m;
	uint32_t k = e / 2, slot = x ? m->nodes[x].args + k : 0;
	NodeId a = opnd(m, T, x, k), rx, ra;

	if (!a || m->nodes[a].kind == NK_FUNC)
		return 0;
	rx = x ? regionof(S, x) : 0;
	ra = regionof(S, a);
	if (ra == rx)
		return 0;
	if (e % 2 == 0) {
		uint32_t j;
		if (!ra)
			return 0;
		if (w == 1) {
			tvmout(T, tvmfind(T, T->cls[a] - 1), a);
			return 0;
		}
		j = S->owner[ra] - 1;
		if (O->made[j])
			return 0;
		O->made[j] = 1;
		return j + 1;
	}
	if (!rx)
		return 0;
	if (w == 1) {
		T->begin[slot] = tvmbegin(T) + 1;
	} else if (m->nodes[a].kind != NK_CONST && T->begin[slot]) {
		uint32_t cap = O->capp;
		ir_vgrow(&O->pnode, &O->capp, O->np + 1);
		if (O->capp != cap || !O->pidx) {
			O->pidx = ir_xrealloc(O->pidx, O->capp * sizeof *O->pidx);
			O->pj = ir_xrealloc(O->pj, O->capp * sizeof *O->pj);
		}
		O->pnode[O->np] = a;
		O->pidx[O->np] = T->ipos[T->begin[slot] - 1];
		O->pj[O->np++] = S->owner[rx] - 1;
	}
	return 0;
}

/* join: walk 1 leaves x, a node of a region: x joins the region of its
** first operand, and the regions of the others merge into that one */
static void
join(State *S, Tvm *T, NodeId x)
{
	Module *m = S->m;
	NodeId rx = regionof(S, x);
	uint32_t dest = UINT32_MAX;

	for (uint32_t k = 0; k < m->nodes[x].nargs; k++) {
		NodeId a = ir_arg(m, x, k);
		uint32_t b, c;
		if (!a || m->nodes[a].kind == NK_FUNC)
			continue;
		b = regionof(S, a) == rx ? T->cls[a] : T->begin[m->nodes[x].args + k];
		if (!b)
			continue;
		c = tvmfind(T, b - 1);
		if (dest == UINT32_MAX)
			dest = c;
		else
			tvmmerge(T, c, dest);
	}
	if (dest == UINT32_MAX)
		dest = tvmbegin(T);     /* no operand: a region of its own */
	T->cls[x] = dest + 1;
}

/* walk: TVM's walk w (1 or 2, above) over the function whose result is
** T->body */
static void
walk(State *S, Tvm *T, Order *O, int w)
{
	Module *m = S->m;
	uint32_t seen = ++S->curstamp, n = 0, cap = 0;
	Frame *st = NULL;

	ir_vgrow(&st, &cap, 1);
	st[n++] = (Frame){0, 0, 0, 0};
	while (n) {
		Frame *f = &st[n - 1];
		NodeId next = 0;
		if (f->reg) {
			uint32_t j = f->reg - 1;
			if (O->fstart[j] + f->i < O->fstart[j + 1])
				next = O->fnode[O->fstart[j] + f->i++];
			else
				n--;
		} else if (f->e < 2 * f->i) {
			uint32_t r = halfedge(S, T, O, w, f->x, f->e++);
			if (r) {
				ir_vgrow(&st, &cap, n + 1);
				st[n++] = (Frame){0, r, 0, 0};
			}
			continue;
		} else if (f->i < nopnds(m, f->x)) {
			next = opnd(m, T, f->x, f->i++);
		} else {
			if (w == 1 && f->x && regionof(S, f->x))
				join(S, T, f->x);
			n--;
		}
		if (next && S->stamp[next] != seen) {
			S->stamp[next] = seen;
			ir_vgrow(&st, &cap, n + 1);
			st[n++] = (Frame){next, 0, 0, 0};
		}
	}
	free(st);
}

/* order: TVM's numbers, output order and parameter order for the nreg
** regions whose representatives are reps[] (S->owner[rep] = 1 + index),
** of the function whose result is body */
static void
order(State *S, NodeId body, const NodeId *reps, uint32_t nreg, Order *O)
{
	Module *m = S->m;
	Tvm T;
	uint32_t cur;

	memset(&T, 0, sizeof T);
	memset(O, 0, sizeof *O);
	T.body = body;
	T.cls = ir_xcalloc(m->nnodes, sizeof *T.cls);
	O->now = ir_xcalloc(m->nnodes, sizeof *O->now);
	T.begin = ir_xcalloc(m->nuses + 1, sizeof *T.begin);
	walk(S, &T, O, 1);
	/* each region's number, and its outputs without repeats */
	O->id = ir_xcalloc(nreg + 1, sizeof *O->id);
	O->fstart = ir_xcalloc(nreg + 1, sizeof *O->fstart);
	O->fnode = ir_xmalloc((T.out.n ? T.out.n : 1) * sizeof *O->fnode);
	cur = ++S->curstamp;
	for (uint32_t j = 0; j < nreg; j++) {
		uint32_t c = T.cls[reps[j]] ? tvmfind(&T, T.cls[reps[j]] - 1) : UINT32_MAX;
		O->fstart[j + 1] = O->fstart[j];
		if (c == UINT32_MAX)
			continue;
		O->id[j] = c;
		for (uint32_t o = T.ohead[c]; o; o = T.out.next[o - 1])
			if (S->stamp[T.out.node[o - 1]] != cur) {
				S->stamp[T.out.node[o - 1]] = cur;
				O->fnode[O->fstart[j + 1]++] = T.out.node[o - 1];
			}
	}
	/* each compiler_begin's place among its region's inputs */
	T.ipos = ir_xcalloc(T.nbegin + 1, sizeof *T.ipos);
	for (uint32_t b = 0; b < T.nbegin; b++)
		if (tvmfind(&T, b) == b) {
			uint32_t k = 0;
			for (uint32_t i = T.ihead[b]; i; i = T.inext[i - 1])
				T.ipos[i - 1] = k++;
		}
	O->made = ir_xcalloc(nreg + 1, 1);
	walk(S, &T, O, 2);
	/* parameters by region, in the order walk 2 met them, without repeats */
	O->pstart = ir_xcalloc(nreg + 2, sizeof *O->pstart);
	for (uint32_t i = 0; i < O->np; i++)
		O->pstart[O->pj[i] + 2]++;
	for (uint32_t j = 0; j < nreg; j++)
		O->pstart[j + 2] += O->pstart[j + 1];
	{
		NodeId *pn = ir_xmalloc((O->np ? O->np : 1) * sizeof *pn);
		uint32_t *pi = ir_xmalloc((O->np ? O->np : 1) * sizeof *pi);
		for (uint32_t i = 0; i < O->np; i++) {
			uint32_t at = O->pstart[O->pj[i] + 1]++;
			pn[at] = O->pnode[i];
			pi[at] = O->pidx[i];
		}
		free(O->pnode);
		free(O->pidx);
		O->pnode = pn;
		O->pidx = pi;
	}
	/* pstart[j] .. pstart[j + 1]: region j's */
	O->pend = ir_xcalloc(nreg + 1, sizeof *O->pend);
	for (uint32_t j = 0; j < nreg; j++) {
		uint32_t to = O->pstart[j];
		cur = ++S->curstamp;
		for (uint32_t i = O->pstart[j]; i < O->pstart[j + 1]; i++)
			if (S->stamp[O->pnode[i]] != cur) {
				S->stamp[O->pnode[i]] = cur;
				O->pnode[to] = O->pnode[i];
				O->pidx[to++] = O->pidx[i];
			}
		O->pend[j] = to;        /* the repeats' slots stay, unused */
	}
	free(T.cls); free(T.begin); free(T.up); free(T.ihead); free(T.itail); free(T.inext);
	free(T.ohead); free(T.otail); free(T.out.node); free(T.out.next); free(T.ipos);
}

static void
orderfree(Order *O)
{
	free(O->id); free(O->fstart); free(O->fnode); free(O->pstart); free(O->pnode);
	free(O->pidx); free(O->made); free(O->pend); free(O->pj); free(O->now);
}

/* ---------------------------------------------------------------- 5. outline */

/* outline: PartitionGraph: each region of the graph in S->order becomes a
** global function, called from global g: named, its parameters and its
** outputs ordered as TVM's would be (order()) */
static void
outline(State *S, uint32_t g)
{
	Module *m = S->m;
	uint32_t nreg = 0, *regof, *count, *start;
	NodeId *members, *reps = NULL;
	uint32_t capreps = 0;
	char tname[128], fname[128];
	Order O;

	mangle(tname, sizeof tname, S->rs->name);
	mangle(fname, sizeof fname, ir_symstr(m, m->globals[g].name));
	/* regions, numbered by their first node in graph order */
	regof = ir_xcalloc(S->norder + 1, sizeof *regof);
	for (uint32_t i = 0; i < S->norder; i++) {
		NodeId n = S->order[i], r;
		uint32_t j;
		if (!S->tgt[n])
			continue;
		r = find(S, n);
		j = S->owner[r] ? S->owner[r] - 1 : nreg;
		if (j == nreg) {
			/* the first node of a region is its representative */
			j = nreg++;
			ir_vgrow(&reps, &capreps, nreg);
			reps[j] = r;
			S->owner[r] = j + 1;
		}
		regof[i] = S->owner[r];
	}
	count = ir_xcalloc(nreg + 1, sizeof *count);
	start = ir_xcalloc(nreg + 1, sizeof *start);
	for (uint32_t i = 0; i < S->norder; i++)
		if (regof[i])
			count[regof[i] - 1]++;
	for (uint32_t r = 1; r <= nreg; r++)
		start[r] = start[r - 1] + count[r - 1];
	members = ir_xmalloc((start[nreg] ? start[nreg] : 1) * sizeof *members);
	{
		uint32_t *fill = ir_xcalloc(nreg + 1, sizeof *fill);
		for (uint32_t i = 0; i < S->norder; i++)
			if (regof[i]) {
				uint32_t r = regof[i] - 1;
				members[start[r] + fill[r]++] = S->order[i];
			}
		free(fill);
	}
	order(S, ir_func_body(m, m->globals[g].fn), reps, nreg, &O);
	for (uint32_t r = 0; r < nreg; r++)
		S->owner[reps[r]] = 0;

	for (uint32_t r = 0; r < nreg; r++) {
		NodeId *mem = members + start[r], *params = NULL, *args = NULL, *outs = NULL, body, fn, gref, call;
		uint32_t nmem = count[r], np = 0, capp = 0, capa = 0, nouts = 0, capouts = 0;
		uint32_t **slots = NULL, *nslots = NULL, capslots = 0;
		char gname[320], prefix[160];
		AttrVal at[4];
		Sym gsym;
		Loc loc = m->locs[mem[0]];

		/* TVM's name; a fresh one if an earlier run took it */
		snprintf(gname, sizeof gname, "tvmgen_default_%s_%s_%u", tname, fname, O.id[r]);
		gsym = ir_symz(m, gname);
		for (uint32_t k = 1; ir_global_index(m, gsym); k++) {
			snprintf(gname, sizeof gname, "tvmgen_default_%s_%s_%u_%u", tname, fname, O.id[r], k);
			gsym = ir_symz(m, gname);
		}
		snprintf(prefix, sizeof prefix, "%s_%u_i", tname, O.id[r]);
		S->curstamp++;
		for (uint32_t i = 0; i < nmem; i++) {
			S->stamp[mem[i]] = S->curstamp;
			S->p->st.offloaded += m->nodes[mem[i]].kind == NK_CALL;
		}
		/* outputs: members used outside (the function's body is used by
		   the function), with the slots that use them; in TVM's order,
		   then any the walk did not meet */
		for (uint32_t i = 0; i < O.fstart[r + 1] - O.fstart[r] + nmem; i++) {
			NodeId x = i < O.fstart[r + 1] - O.fstart[r] ? O.fnode[O.fstart[r] + i] : mem[i - (O.fstart[r + 1] - O.fstart[r])];
			uint32_t *v = NULL, cap = 0, k;
			if (S->stamp[x] != S->curstamp || S->pstamp[x] == S->curstamp)
				continue;       /* not a member, or already an output */
			k = useslots(S, x, 1, &v, &cap);
			if (!k) {
				free(v);
				continue;
			}
			S->pstamp[x] = S->curstamp;
			ir_vgrow(&outs, &capouts, nouts + 1);
			outs[nouts] = x;
			if (nouts + 1 > capslots) {
				capslots = 2 * (nouts + 1);
				slots = ir_xrealloc(slots, capslots * sizeof *slots);
				nslots = ir_xrealloc(nslots, capslots * sizeof *nslots);
			}
			slots[nouts] = v;
			nslots[nouts++] = k;
		}
		/* inputs become parameters, first in TVM's order; constants and
		   function literals move in with their users */
		for (uint32_t i = O.pstart[r]; i < O.pend[r]; i++) {
			NodeId a = O.now[O.pnode[i]] ? O.now[O.pnode[i]] : O.pnode[i];
			if (S->stamp[a] != S->curstamp)
				paramfor(S, a, prefix, O.pidx[i], &params, &np, &capp, &args, &capa);
		}
		for (uint32_t i = 0; i < nmem; i++) {
			NodeId x = mem[i];
			for (uint32_t k = 0; k < m->nodes[x].nargs; k++) {
				NodeId a = ir_arg(m, x, k);
				if (!a || S->stamp[a] == S->curstamp)
					continue;
				if (m->nodes[a].kind == NK_CONST) {
					embedconst(S, x, k, a);
					continue;
				}
				if (m->nodes[a].kind == NK_FUNC)
					continue;
				ir_set_arg(m, x, k, paramfor(S, a, prefix, np, &params, &np, &capp, &args, &capa));
			}
		}
		if (nouts == 1) {
			body = outs[0];
		} else {
			body = ir_tuple(m, outs, nouts, loc);
			ensure(S);
			m->nodes[body].type = ir_infer_node(m, body, S->p->d);
		}
		memset(at, 0, sizeof at);
		at[0].kind = AV_STR;
		at[0].key = S->k_compiler;
		at[0].u.s = S->target;
		at[1].kind = AV_STR;
		at[1].key = S->k_symbol;
		at[1].u.s = gsym;
		at[2].kind = AV_INT;
		at[2].key = S->k_primitive;
		at[2].u.i = 1;
		at[3].kind = AV_INT;
		at[3].key = S->k_inline;
		at[3].u.i = 1;
		fn = ir_func(m, params, np, body, m->nodes[body].type, ir_attr_push(m, at, 4), 4, loc);
		m->nodes[fn].type = ir_infer_node(m, fn, S->p->d);
		ir_global_add(m, gsym, fn);
		gref = ir_global_ref(m, gsym, loc);
		m->nodes[gref].type = m->nodes[fn].type;
		call = ir_callfn(m, gref, args, np, loc);
		ensure(S);
		m->nodes[call].type = m->nodes[body].type;
		for (uint32_t o = 0; o < nouts; o++) {
			NodeId val = call;
			if (nouts > 1) {
				val = ir_getitem(m, call, o, loc);
				ensure(S);
				m->nodes[val].type = m->nodes[outs[o]].type;
			}
			for (uint32_t s = 0; s < nslots[o]; s++)
				setslot(m, slots[o][s], val);
			O.now[outs[o]] = val;
			free(slots[o]);
		}
		S->p->st.regions++;
		free(params);
		free(args);
		free(outs);
		free(slots);
		free(nslots);
	}
	orderfree(&O);
	free(regof);
	free(count);
	free(start);
	free(members);
	free(reps);
}

/* ---------------------------------------------------------------- driver */

/* partitionable: the functions to partition, as indices in m->globals:
** every global that is not a partition itself, in the module's order */
static uint32_t
partitionable(Module *m, uint32_t **out)
{
	uint32_t n = 0;
	*out = ir_xmalloc((m->nglobals ? m->nglobals : 1) * sizeof **out);
	for (uint32_t g = 0; g < m->nglobals; g++)
		if (!ir_func_attr(m, m->globals[g].fn, "Compiler"))
			(*out)[n++] = g;
	return n;
}

int
ir_partition(Partitioner *p)
{
	Module *m = p->m;
	int before = p->d->errors;
	size_t nfired = 0;
	uint64_t *base;

	for (uint32_t t = 0; t < p->ntargets; t++)
		nfired += p->targets[t]->nrules;
	p->st.fired = ir_xcalloc(nfired ? nfired : 1, sizeof *p->st.fired);
	/* a target table's rewrite rules (its lowering) first: all of them,
	   in target order, before any target takes a node */
	base = p->st.fired;
	for (uint32_t t = 0; t < p->ntargets; t++) {
		const Ruleset *rs = p->targets[t];
		uint32_t r = 0;
		while (r < rs->nrules && rs->rules[r].kind != RI_RULE)
			r++;
		if (r < rs->nrules) {
			RwStats st;
			int errs = ir_rewrite(m, rs, p->d, &st);
			for (r = 0; r < rs->nrules; r++)
				base[r] += st.fired[r];
			p->st.lowered += st.rewrites;
			free(st.fired);
			if (errs)
				return p->d->errors - before;
		}
		base += rs->nrules;
	}
	base = p->st.fired;
	for (uint32_t t = 0; t < p->ntargets; t++) {
		State S;
		uint32_t *fns;
		uint32_t nfns;

		memset(&S, 0, sizeof S);
		S.p = p;
		S.m = m;
		S.ti = (uint16_t)t;
		S.rs = p->targets[t];
		S.nmade = ir_xcalloc(S.rs->nrules ? S.rs->nrules : 1, sizeof *S.nmade);
		S.compname = ir_xcalloc(S.rs->nrules ? S.rs->nrules : 1, sizeof *S.compname);
		S.rank = ir_xmalloc((S.rs->nrules ? S.rs->nrules : 1) * sizeof *S.rank);
		{
			uint32_t *order = ir_xmalloc((S.rs->nrules ? S.rs->nrules : 1) * sizeof *order);
			ir_rules_by_priority(S.rs, order);
			for (uint32_t r = 0; r < S.rs->nrules; r++)
				S.rank[order[r]] = r;
			free(order);
		}
		S.k_pattern = ir_symz(m, "PartitionedFromPattern");
		S.k_composite = ir_symz(m, "Composite");
		S.k_compiler = ir_symz(m, "Compiler");
		S.k_symbol = ir_symz(m, "global_symbol");
		S.k_primitive = ir_symz(m, "Primitive");
		S.k_inline = ir_symz(m, "Inline");
		S.target = ir_symz(m, S.rs->name);
		ir_rw_init(&S.rw, m, S.rs, p->d);
		S.rw.report = report;
		S.rw.ctx = &S;
		ensure(&S);
		nfns = partitionable(m, &fns);
		for (uint32_t f = 0; f < nfns; f++) {
			uint64_t left;
			composites(&S, m->globals[fns[f]].fn);
			if (p->stop < PS_ANNOTATE)
				continue;
			left = annotate(&S, base);
			if (p->stop < PS_REGIONS)
				continue;
			regions(&S);
			if (p->stop < PS_ALL)
				continue;
			outline(&S, fns[f]);
			/* what the last target leaves is the host's: the calls of
			   the graph that went to no region */
			if (t + 1 == p->ntargets)
				p->st.host += left;
		}
		for (uint32_t r = 0; r < S.rs->nrules; r++)
			if (S.rs->rules[r].kind == RI_COMPOSITE)
				base[r] += S.nmade[r];
		base += S.rs->nrules;
		free(fns);
		ir_rw_free(&S.rw);
		statefree(&S);
	}
	return p->d->errors - before;
}

void
ir_partition_free(Partitioner *p)
{
	free(p->why);
	free(p->st.fired);
	p->why = NULL;
	p->st.fired = NULL;
	p->nwhy = p->capwhy = 0;
}

/* ---------------------------------------------------------------- reports */

static const char *
where(const Module *m, Loc l, char *buf, size_t n)
{
	if (!l.file)
		snprintf(buf, n, "<no location>");
	else
		snprintf(buf, n, "%s:%u:%u", m->files[l.file], l.line, l.col);
	return buf;
}

/* what: a node named for a reader: its op (or kind) and where it is */
static const char *
what(const Module *m, NodeId n, char *buf, size_t size)
{
	const Node *x = &m->nodes[n];
	const char *name = x->kind == NK_CALL ? ir_ops[x->op].name : x->kind == NK_CALLFN ? "a call" :
	                   x->kind == NK_TUPLE ? "a tuple" : x->kind == NK_GETITEM ? "a projection" : "a value";
	if (!m->locs[n].file)
		snprintf(buf, size, "%s", name);
	else
		snprintf(buf, size, "%s at %u:%u", name, m->locs[n].line, m->locs[n].col);
	return buf;
}

static int
whycmp(const void *x, const void *y)
{
	const Why *a = x, *b = y;
	if (a->node != b->node)
		return a->node < b->node ? -1 : 1;
	if (a->target != b->target)
		return a->target - b->target;
	if (a->kind != b->kind)
		return a->kind - b->kind;
	if (a->rule != b->rule)
		return a->rule < b->rule ? -1 : 1;
	return a->rule2 < b->rule2 ? -1 : a->rule2 > b->rule2;
}

/* firstwhy: the index of the first reason about node n in sorted v[0..k) */
static uint32_t
firstwhy(const Why *v, uint32_t k, NodeId n)
{
	uint32_t lo = 0, hi = k;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (v[mid].node < n)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void
entryname(const Partitioner *p, uint16_t t, uint32_t rule, char *buf, size_t n)
{
	const Ruleset *rs = p->targets[t];
	snprintf(buf, n, "%s.%s (%s:%u)", rs->name, rs->rules[rule].name, rs->rules[rule].file, rs->rules[rule].line);
}

void
ir_partition_explain(FILE *f, const Partitioner *p)
{
	Module *m = p->m;
	Why *v = ir_xmalloc((p->nwhy ? p->nwhy : 1) * sizeof *v);
	State S;
	uint32_t *fns;
	uint32_t nfns;
	char targets[512] = "";

	if (p->nwhy)
		memcpy(v, p->why, p->nwhy * sizeof *v);
	qsort(v, p->nwhy, sizeof *v, whycmp);
	for (uint32_t t = 0; t < p->ntargets; t++) {
		size_t l = strlen(targets);
		snprintf(targets + l, sizeof targets - l, "%s%s", t ? (t + 1 == p->ntargets ? " or " : ", ") : "",
		         p->targets[t]->name);
	}
	memset(&S, 0, sizeof S);
	S.m = m;
	nfns = partitionable(m, &fns);
	for (uint32_t g = 0; g < nfns; g++) {
		topo(&S, ir_func_body(m, m->globals[fns[g]].fn));
		for (uint32_t i = 0; i < S.norder; i++) {
			NodeId n = S.order[i];
			uint32_t k = firstwhy(v, p->nwhy, n);
			char loc[256], b1[256], b2[256], b3[256], e1[300], e2[300];
			const char *op;
			int said = 0;
			if (m->nodes[n].kind != NK_CALL)
				continue;
			op = ir_ops[m->nodes[n].op].name;
			where(m, m->locs[n], loc, sizeof loc);
			for (; k < p->nwhy && v[k].node == n; k++) {
				const Why *w = &v[k];
				if (w->kind == WHY_CYCLE)
					continue;
				/* commuted variants of one entry say the same thing once */
				if (said && w[-1].kind == w->kind && w[-1].target == w->target && w[-1].rule == w->rule &&
				    w[-1].rule2 == w->rule2)
					continue;
				said = 1;
				entryname(p, w->target, w->rule, e1, sizeof e1);
				switch (w->kind) {
				case WHY_GUARD:
					fprintf(f, "%s: %s stays on the host: composite %s matches here, but its guard is false\n",
					        loc, op, e1);
					break;
				case WHY_SGUARD:
					fprintf(f, "%s: %s stays on the host: %s accepts %s only where its guard holds, and here it does not\n",
					        loc, op, e1, op);
					break;
				case WHY_OVERLAP:
					entryname(p, w->target, w->rule2, e2, sizeof e2);
					fprintf(f, "%s: %s stays on the host: composite %s matches here, but overlaps composite %s "
					        "rooted at %s, which was taken first\n", loc, op, e1, e2, what(m, w->other, b1, sizeof b1));
					break;
				case WHY_ESCAPE:
					fprintf(f, "%s: %s stays on the host: composite %s matches here, but would hide the value of "
					        "%s, which %s also uses\n", loc, op, e1, what(m, w->via, b2, sizeof b2),
					        what(m, w->other, b3, sizeof b3));
					break;
				default:
					break;
				}
			}
			if (!said)
				fprintf(f, "%s: %s stays on the host: no pattern of %s matches it\n", loc, op, targets);
		}
	}
	/* refused merges, in node order */
	for (uint32_t k = 0; k < p->nwhy; k++) {
		const Why *w = &v[k];
		char loc[256], b1[256], b2[256], b3[256];
		if (w->kind != WHY_CYCLE)
			continue;
		fprintf(f, "%s: %s was kept out of the %s region of %s: merging them would make a cycle through %s\n",
		        where(m, m->locs[w->node], loc, sizeof loc), what(m, w->node, b1, sizeof b1),
		        p->targets[w->target]->name, what(m, w->other, b2, sizeof b2), what(m, w->via, b3, sizeof b3));
	}
	free(fns);
	free(v);
	statefree(&S);
}

void
ir_partition_stats(FILE *f, const Partitioner *p)
{
	const uint64_t *fired = p->st.fired;

	if (p->st.lowered)
		fprintf(f, "partition: the targets' rewrite rules rewrote %llu time%s first\n",
		        (unsigned long long)p->st.lowered, p->st.lowered == 1 ? "" : "s");
	fprintf(f, "partition: %llu composite%s, %llu partition%s; %llu op%s offloaded, %llu on the host\n",
	        (unsigned long long)p->st.composites, p->st.composites == 1 ? "" : "s",
	        (unsigned long long)p->st.regions, p->st.regions == 1 ? "" : "s",
	        (unsigned long long)p->st.offloaded, p->st.offloaded == 1 ? "" : "s",
	        (unsigned long long)p->st.host);
	for (uint32_t t = 0; t < p->ntargets; t++) {
		const Ruleset *rs = p->targets[t];
		uint32_t *idx = ir_xmalloc((rs->nrules ? rs->nrules : 1) * sizeof *idx);
		uint32_t n = fired ? ir_fired_order(rs, fired, idx) : 0;
		for (uint32_t i = 0; i < n; i++)
			fprintf(f, "  %8llu  %s %s.%s  (%s:%u)\n", (unsigned long long)fired[idx[i]],
			        rs->rules[idx[i]].kind == RI_COMPOSITE ? "composite" :
			        rs->rules[idx[i]].kind == RI_RULE ? "rule     " : "op       ", rs->name,
			        rs->rules[idx[i]].name, rs->rules[idx[i]].file, rs->rules[idx[i]].line);
		if (fired)
			fired += rs->nrules;
		free(idx);
	}
}
