/*
** rewrite.c: the rewrite driver, and the run-time helpers of generated
** matchers.
**
** ir_rewrite() tries the nodes in post-order (operands before users):
** it sweeps the ids in order while they are in operand order, else it
** seeds a worklist, and it tries only nodes some rule is rooted at.  When
** a rule replaces n by r, only r, the nodes the rule built and the users
** of r are queued again; nothing is ever rescanned as a whole.  n and
** whatever only n used are killed on the spot.  Each result is
** type-checked against what it replaces.  Termination: a rewrite whose
** result has the exact structure of something replaced earlier, on a
** chain that leads back to the node being replaced, is a cycle, reported
** with the rules on it; a budget of rewrites proportional to the graph
** stops anything else that never ends (results that keep growing).
**
** Two rewrites keep ids: a result built in place of a matched node
** (rw_call_in_place) is that node with new attributes, undone if the
** rewrite fails; a fold of the root by ref_fold_data() turns the root into
** its constant (ir_node_to_const), except on a chain watched for cycles.
**
** Preserves: node ids of everything not rewritten, the types of all live
** nodes, def-use lists.
*/
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "rewrite.h"

/* ---------------------------------------------------------------- guards */

static const Type *
tensortype(const Module *m, NodeId n)
{
	const Type *t = &m->types[m->nodes[n].type];
	return t->kind == TY_TENSOR ? t : NULL;
}

int64_t
rw_rank(Rw *rw, NodeId n)
{
	const Type *t = tensortype(rw->m, n);
	if (!t) {
		rw->gfail = 1;
		return 0;
	}
	return t->n;
}

int64_t
rw_numel(Rw *rw, NodeId n)
{
	int64_t k;
	if (!tensortype(rw->m, n) || (k = ir_type_numel(rw->m, rw->m->nodes[n].type)) < 0) {
		rw->gfail = 1;
		return 0;
	}
	return k;
}

int64_t
rw_dim(Rw *rw, NodeId n, int64_t i)
{
	const Type *t = tensortype(rw->m, n);
	if (t && i < 0)
		i += t->n;
	if (!t || i < 0 || i >= (int64_t)t->n) {
		rw->gfail = 1;
		return 0;
	}
	return rw->m->dims[t->first + (uint32_t)i];
}

double
rw_value(Rw *rw, NodeId n)
{
	double v;
	if (!ir_const_scalar(rw->m, n, &v)) {
		rw->gfail = 1;
		return 0;
	}
	return v;
}

double
rw_splat(Rw *rw, NodeId n)
{
	double v;
	if (!ir_const_splat(rw->m, n, &v)) {
		rw->gfail = 1;
		return 0;
	}
	return v;
}

int
rw_func_attr_is(Rw *rw, NodeId fn, const char *key, uint32_t lit)
{
	int k = rw->m->nodes[fn].kind;
	const AttrVal *a = k == NK_FUNC || k == NK_CALLFN ? ir_func_attr(rw->m, fn, key) : NULL;
	AttrVal v;
	if (!a)
		return 0;
	v = *a;
	v.key = rw->lits[lit].key;      /* the value, whatever it is called */
	return ir_attr_equal(rw->m, &v, &rw->lits[lit]);
}

int
rw_const_is(Rw *rw, NodeId n, int dt, double v)
{
	double x;
	return rw->m->nodes[n].kind == NK_CONST && rw_dtype(rw->m, n) == dt && ir_const_scalar(rw->m, n, &x) && x == v;
}

int64_t
rw_attr_ints_at(Rw *rw, NodeId n, int k, int64_t i)
{
	const AttrVal *a = rw_attr(rw->m, n, k);
	if (a->kind != AV_ARRAY || i < 0 || i >= (int64_t)a->n || rw->m->attrs[a->first + (uint32_t)i].kind != AV_INT) {
		rw->gfail = 1;
		return 0;
	}
	return rw->m->attrs[a->first + (uint32_t)i].u.i;
}

double
rw_attr_num(Rw *rw, NodeId n, int k)
{
	const AttrVal *a = rw_attr(rw->m, n, k);
	switch (a->kind) {
	case AV_INT: case AV_BOOL: case AV_DTYPE: return (double)a->u.i;
	case AV_FLOAT: return a->u.f;
	default:
		rw->gfail = 1;
		return 0;
	}
}

int64_t
rw_idiv(Rw *rw, int64_t a, int64_t b)
{
	if (b == 0 || (a == INT64_MIN && b == -1)) {
		rw->gfail = 1;
		return 0;
	}
	return a / b;
}

int64_t
rw_imod(Rw *rw, int64_t a, int64_t b)
{
	if (b == 0 || (a == INT64_MIN && b == -1)) {
		rw->gfail = 1;
		return 0;
	}
	return a % b;
}

/* ---------------------------------------------------------------- builders */

static Loc
rootloc(const Rw *rw)
{
	return rw->m->locs[rw->root];
}

AttrId
rw_attrs(Rw *rw, OpId op)
{
	if (rw->dry)
		return rw->scratch;
	return ir_attr_defaults(rw->m, op);
}

AttrId
rw_attrs_copy(Rw *rw, OpId op, NodeId from)
{
	Module *m = rw->m;
	AttrId id;

	if (!from || rw_op(m, from) != op || !ir_ops[op].nattrs) {
		rw->gfail = 1;
		return 0;
	}
	if (rw->dry)
		return rw->scratch;
	id = m->nattrs;
	ir_vgrow(&m->attrs, &m->capattrs, m->nattrs + (uint32_t)ir_ops[op].nattrs);
	memcpy(&m->attrs[id], &m->attrs[m->nodes[from].aux], (size_t)ir_ops[op].nattrs * sizeof *m->attrs);
	m->nattrs += (uint32_t)ir_ops[op].nattrs;
	return id;
}

static AttrVal *
slot(Rw *rw, AttrId a, int k)
{
	if (!a) {
		rw->gfail = 1;
		return NULL;
	}
	return &rw->m->attrs[a + (uint32_t)k];
}

/* setval: attribute k of a to a value of kind: i, f or sym by kind */
static void
setval(Rw *rw, AttrId a, int k, AttrKind kind, int64_t i, double f, Sym sym)
{
	AttrVal *s = slot(rw, a, k);

	if (!s)
		return;
	memset(s, 0, sizeof *s);
	s->kind = (uint8_t)kind;
	if (kind == AV_FLOAT)
		s->u.f = f;
	else if (kind == AV_STR)
		s->u.s = sym;
	else
		s->u.i = i;
}

void
rw_set_i(Rw *rw, AttrId a, int k, int64_t v)
{
	setval(rw, a, k, AV_INT, v, 0, 0);
}

void
rw_set_f(Rw *rw, AttrId a, int k, double v)
{
	setval(rw, a, k, AV_FLOAT, 0, v, 0);
}

void
rw_set_b(Rw *rw, AttrId a, int k, int v)
{
	setval(rw, a, k, AV_BOOL, v != 0, 0, 0);
}

void
rw_set_dtype(Rw *rw, AttrId a, int k, int dt)
{
	setval(rw, a, k, AV_DTYPE, dt, 0, 0);
}

void
rw_set_sym(Rw *rw, AttrId a, int k, Sym sym)
{
	setval(rw, a, k, AV_STR, 0, 0, sym);
}

/* rw_set_lit: literal j of the ruleset, as parsed (graftc uses it only for
** fields whose literal needs no conversion: lists, None, optional ints) */
void
rw_set_lit(Rw *rw, AttrId a, int k, uint32_t j)
{
	AttrVal *s = slot(rw, a, k);
	if (s)
		*s = rw->lits[j];
}

void
rw_set_from(Rw *rw, AttrId a, int k, NodeId n, int kn)
{
	AttrVal *s = slot(rw, a, k);
	if (s && n) {
		*s = *rw_attr(rw->m, n, kn);
		s->key = 0;
	}
}

NodeId
rw_call(Rw *rw, OpId op, const NodeId *args, uint32_t nargs, AttrId attrs)
{
	for (uint32_t i = 0; i < nargs; i++)
		if (!args[i])
			rw->gfail = 1;
	if (rw->gfail || (ir_ops[op].nattrs && !attrs)) {
		rw->gfail = 1;
		return 0;
	}
	if (rw->dry)
		return rw->root;
	return ir_call(rw->m, op, args, nargs, attrs, rootloc(rw));
}

/* oneuse: n has exactly one use */
static int
oneuse(const Module *m, NodeId n)
{
	uint32_t s = m->firstuse[n];
	return s && !m->uses[s].next;
}

NodeId
rw_call_in_place(Rw *rw, OpId op, const NodeId *args, uint32_t nargs, AttrId attrs, NodeId d,
                 const NodeId *path, uint32_t npath)
{
	Module *m = rw->m;
	Node *nd;

	if (rw->dry || rw->gfail || rw->inplace || !d || (ir_ops[op].nattrs && !attrs))
		return rw_call(rw, op, args, nargs, attrs);
	nd = &m->nodes[d];
	if (nd->kind != NK_CALL || nd->op != op || nd->nargs != nargs || !oneuse(m, d))
		return rw_call(rw, op, args, nargs, attrs);
	for (uint32_t i = 0; i < nargs; i++)
		if (m->argv[nd->args + i] != args[i])
			return rw_call(rw, op, args, nargs, attrs);
	for (uint32_t i = 0; i < npath; i++)
		if (!oneuse(m, path[i]))
			return rw_call(rw, op, args, nargs, attrs);
	rw->inplace = d;
	rw->oldaux = nd->aux;
	rw->oldtype = nd->type;
	nd->aux = ir_attr_intern_op(m, op, attrs, (uint32_t)ir_ops[op].nattrs);
	nd->type = 0;           /* the driver infers it */
	return d;
}

static int
fits(int dt, int64_t v)
{
	switch (dt) {
	case DT_BOOL: return v == 0 || v == 1;
	case DT_INT8: return v >= INT8_MIN && v <= INT8_MAX;
	case DT_UINT8: return v >= 0 && v <= UINT8_MAX;
	case DT_INT16: return v >= INT16_MIN && v <= INT16_MAX;
	case DT_UINT16: return v >= 0 && v <= UINT16_MAX;
	case DT_INT32: return v >= INT32_MIN && v <= INT32_MAX;
	case DT_UINT32: return v >= 0 && v <= (int64_t)UINT32_MAX;
	case DT_INT64: return 1;
	default: return 0;
	}
}

NodeId
rw_scalar_i(Rw *rw, int dt, int64_t v)
{
	unsigned char buf[8];

	if (ir_dtype_kind[dt] == 'f')
		return rw_scalar_f(rw, dt, (double)v);
	if (!fits(dt, v)) {
		rw->gfail = 1;
		return 0;
	}
	if (rw->dry)
		return rw->root;
	switch (ir_dtype_bytes[dt]) {
	case 1: buf[0] = (unsigned char)v; break;
	case 2: { int16_t x = (int16_t)v; memcpy(buf, &x, 2); break; }
	case 4: { int32_t x = (int32_t)v; memcpy(buf, &x, 4); break; }
	default: memcpy(buf, &v, 8); break;
	}
	return ir_const(rw->m, ir_type_scalar(rw->m, (DType)dt), buf, rootloc(rw));
}

NodeId
rw_scalar_f(Rw *rw, int dt, double v)
{
	unsigned char buf[8];

	if (rw->dry && ir_dtype_kind[dt] == 'f')
		return rw->root;
	switch (dt) {
	case DT_FLOAT16: { uint16_t x = ir_f16_from_f32((float)v); memcpy(buf, &x, 2); break; }
	case DT_FLOAT32: { float x = (float)v; memcpy(buf, &x, 4); break; }
	case DT_FLOAT64: memcpy(buf, &v, 8); break;
	default:
		/* an integer dtype from a float expression: exact values only */
		if (v != v || v < -9.2e18 || v > 9.2e18 || (double)(int64_t)v != v) {
			rw->gfail = 1;
			return 0;
		}
		return rw_scalar_i(rw, dt, (int64_t)v);
	}
	return ir_const(rw->m, ir_type_scalar(rw->m, (DType)dt), buf, rootloc(rw));
}

NodeId
rw_getitem(Rw *rw, NodeId t, uint32_t i)
{
	if (!t || rw->gfail) {
		rw->gfail = 1;
		return 0;
	}
	if (rw->dry)
		return rw->root;
	return ir_getitem(rw->m, t, i, rootloc(rw));
}

void
rw_tb_begin(Rw *rw, uint32_t *mark)
{
	*mark = rw->ntb;
}

void
rw_tb_add(Rw *rw, NodeId n)
{
	if (!n)
		rw->gfail = 1;
	ir_vgrow(&rw->tb, &rw->captb, rw->ntb + 1);
	rw->tb[rw->ntb++] = n;
}

void
rw_tb_rest(Rw *rw, NodeId t, uint32_t start)
{
	if (!t) {
		rw->gfail = 1;
		return;
	}
	for (uint32_t i = start; i < rw->m->nodes[t].nargs; i++)
		rw_tb_add(rw, rw_arg(rw->m, t, i));
}

void
rw_tb_rest_to(Rw *rw, NodeId t, uint32_t start, uint32_t end)
{
	if (!t) {
		rw->gfail = 1;
		return;
	}
	for (uint32_t i = start; i + end < rw->m->nodes[t].nargs; i++)
		rw_tb_add(rw, rw_arg(rw->m, t, i));
}

NodeId
rw_tb_end(Rw *rw, uint32_t mark)
{
	NodeId n = 0;
	if (!rw->gfail)
		n = rw->dry ? rw->root : ir_tuple(rw->m, rw->tb + mark, rw->ntb - mark, rootloc(rw));
	rw->ntb = mark;
	return n;
}

/* inlined: the constant x is printed inline (written so, or a scalar) */
static int
inlined(const Module *m, NodeId x)
{
	const Const *k = &m->consts[m->nodes[x].aux];
	return (k->flags & CF_INLINE) || m->types[k->type].n == 0;
}

/* argsinlined: every operand of n, all constants, is inlined */
static int
argsinlined(const Module *m, NodeId n)
{
	for (uint32_t i = 0; i < m->nodes[n].nargs; i++)
		if (!inlined(m, rw_arg(m, n, i)))
			return 0;
	return 1;
}

int
rw_unchanged(Rw *rw, NodeId r)
{
	Module *m = rw->m;
	const Node *a = &m->nodes[r], *b = &m->nodes[rw->root];
	uint32_t k = 0;

	if (rw->dry || rw->folddata || rw->inplace || !r)
		return 0;
	if (r != rw->root) {
		if (a->kind != b->kind || a->op != b->op || a->nargs != b->nargs ||
		    ((a->kind == NK_CALL || a->kind == NK_GETITEM) && a->aux != b->aux))
			return 0;
		for (uint32_t i = 0; i < a->nargs; i++)
			if (ir_arg(m, r, i) != ir_arg(m, rw->root, i))
				return 0;
	}
	/* what the rule built is garbage now: newest first, so each node's
	   operands lose their last use before they are looked at */
	if (m->track) {
		for (uint32_t i = m->ncreated; i-- > 0;)
			if (m->nodes[m->created[i]].kind != NK_DEAD && !m->firstuse[m->created[i]] &&
			    m->created[i] != rw->root)
				ir_node_kill(m, m->created[i]);
		for (uint32_t i = 0; i < m->ncreated; i++)
			if (m->nodes[m->created[i]].kind != NK_DEAD)
				m->created[k++] = m->created[i];
		m->ncreated = k;
	}
	return 1;
}

/* ---------------------------------------------------------------- new types */

typedef struct TyLog {
	struct { NodeId node; TypeId type; } *v;
	uint32_t n, cap;
	NodeId why;             /* the user that did not take its operand */
} TyLog;

/* retype: the users at slots[0..n) (operands a rewrite gave a value of
** another type) inferred again, and their users while their types
** change, up to a function's result; TVM lets a rewrite change a type
** where the users take it (a function's body, an op whose relation
** accepts the new operand).  Old types into log; 0, with the user that
** refused in log->why, when a user does not type-check, or a function
** whose type changes is called (a global's callers, or a literal's). */
static int
retype(Module *m, const uint32_t *slots, uint32_t n, TyLog *log)
{
	NodeId *work = NULL;
	uint32_t nw = 0, capw = 0;
	Diag quiet;
	int ok = 1;

	ir_diag_init(&quiet, NULL, m);
	log->n = 0;
	log->why = 0;
	for (uint32_t i = 0; i < n; i++) {
		ir_vgrow(&work, &capw, nw + 1);
		work[nw++] = m->uses[slots[i]].user;
	}
	while (nw && ok) {
		NodeId u = work[--nw];
		TypeId t;
		if (m->nodes[u].kind == NK_DEAD)
			continue;
		if (!(t = ir_infer_node(m, u, &quiet))) {
			log->why = u;
			ok = 0;
			break;
		}
		if (t == m->nodes[u].type)
			continue;
		ir_vgrow(&log->v, &log->cap, log->n + 1);
		log->v[log->n].node = u;
		log->v[log->n++].type = m->nodes[u].type;
		m->nodes[u].type = t;
		if (m->nodes[u].kind == NK_FUNC) {
			/* a global's new type: no caller may hold the old one */
			for (uint32_t g = 0; g < m->nglobals && ok; g++)
				if (m->globals[g].fn == u)
					for (NodeId x = 1; x < m->nnodes && ok; x++)
						if (m->nodes[x].kind == NK_GLOBAL && m->nodes[x].aux == m->globals[g].name &&
						    m->firstuse[x]) {
							log->why = x;
							ok = 0;
						}
		}
		IR_FOR_USES(m, u, slot) {
			ir_vgrow(&work, &capw, nw + 1);
			work[nw++] = m->uses[slot].user;
		}
	}
	free(work);
	ir_diag_free(&quiet);
	return ok;
}

/* ---------------------------------------------------------------- once */

/* oncemark: node x was built by rule (plus one) of a `once` rule, or not */
static void
oncemark(Rw *rw, NodeId x, uint32_t rule)
{
	if (!rule && x >= rw->caponce)
		return;
	if (x >= rw->caponce) {
		uint32_t cap = rw->m->nnodes > x ? rw->m->nnodes : x + 1;
		rw->once = ir_xrealloc(rw->once, cap * sizeof *rw->once);
		memset(rw->once + rw->caponce, 0, (cap - rw->caponce) * sizeof *rw->once);
		rw->caponce = cap;
	}
	rw->once[x] = rule;
}

int
rw_onced(const Rw *rw, NodeId v, uint32_t rule)
{
	return v < rw->caponce && rw->once[v] == rule + 1;
}

void
rw_once(Rw *rw)
{
	rw->firedonce = 1;
}

/* ---------------------------------------------------------------- dominators */

static int pat(Rw *rw, const RwPat *p, NodeId x, NodeId *caps, uint32_t ncaps);

/* operands: rw_pat() of p's n parts, from the one after p, against x's
** operands from 0; the first two either way round when p says so */
static int
operands(Rw *rw, const RwPat *p, NodeId x, NodeId *caps, uint32_t ncaps)
{
	const RwPat *q = p + 1 + p->nattr, *q1;
	NodeId save[16];
	uint32_t ns = ncaps < 16 ? ncaps : 16;

	if (caps)
		memcpy(save, caps, ns * sizeof *caps);
	q1 = p->n > 0 ? q + q->size : q;
	{
		const RwPat *c = q;
		int ok = 1;
		for (uint32_t i = 0; i < p->n && ok; i++, c += c->size)
			ok = pat(rw, c, ir_arg(rw->m, x, i), caps, ncaps);
		if (ok)
			return 1;
	}
	if (!(p->flags & RPF_COMM) || p->n < 2)
		return 0;
	if (caps)
		memcpy(caps, save, ns * sizeof *caps);
	if (!pat(rw, q, ir_arg(rw->m, x, 1), caps, ncaps) || !pat(rw, q1, ir_arg(rw->m, x, 0), caps, ncaps))
		return 0;
	{
		const RwPat *c = q1 + q1->size;
		for (uint32_t i = 2; i < p->n; i++, c += c->size)
			if (!pat(rw, c, ir_arg(rw->m, x, i), caps, ncaps))
				return 0;
	}
	return 1;
}

static int
pat1(Rw *rw, const RwPat *p, NodeId x, NodeId *caps, uint32_t ncaps)
{
	const Module *m = rw->m;
	const Node *nd = &m->nodes[x];

	switch (p->kind) {
	case RP_ANY:
		return 1;
	case RP_CONST:
		return nd->kind == NK_CONST;
	case RP_VAR:
		return nd->kind == NK_VAR;
	case RP_NAME:
		if (caps && (uint32_t)p->a < ncaps) {
			if (caps[p->a] && caps[p->a] != x)
				return 0;
			if (p->n && !pat(rw, p + 1, x, caps, ncaps))
				return 0;
			caps[p->a] = x;
			return 1;
		}
		return !p->n || pat(rw, p + 1, x, caps, ncaps);
	case RP_CALL:
	case RP_ANYCALL:
		if (nd->kind != NK_CALL)
			return 0;
		if (p->kind == RP_CALL && (rw->lop ? rw->lop[nd->op] : nd->op) != (OpId)p->a)
			return 0;
		if (p->kind == RP_ANYCALL && p->a >= 0 && ir_op_kind(nd->op) != p->a)
			return 0;
		if ((p->flags & RPF_REST) ? nd->nargs < p->n : nd->nargs != p->n)
			return 0;
		for (uint32_t i = 0; i < p->nattr; i++)
			if (!rw_attr_lit(rw, x, p[1 + i].a, p[1 + i].b))
				return 0;
		return operands(rw, p, x, caps, ncaps);
	case RP_TUPLE:
		if (nd->kind != NK_TUPLE || ((p->flags & RPF_REST) ? nd->nargs < p->n : nd->nargs != p->n))
			return 0;
		return operands(rw, p, x, caps, ncaps);
	case RP_GETITEM:
		if (nd->kind != NK_GETITEM || (p->a >= 0 && nd->aux != (uint32_t)p->a))
			return 0;
		return pat(rw, p + 1, ir_arg(m, x, 0), caps, ncaps);
	case RP_TYPED:
		if (p->a != DT_COUNT && (!nd->type || rw_dtype(m, x) != p->a))
			return 0;
		return pat(rw, p + 1, x, caps, ncaps);
	case RP_ALT: {
		const RwPat *c = p + 1;
		NodeId save[16];
		uint32_t ns = ncaps < 16 ? ncaps : 16;
		if (caps)
			memcpy(save, caps, ns * sizeof *caps);
		for (uint32_t i = 0; i < p->n; i++, c += c->size) {
			if (pat(rw, c, x, caps, ncaps))
				return 1;
			if (caps)
				memcpy(caps, save, ns * sizeof *caps);
		}
		return 0;
	}
	case RP_REF:
		return pat(rw, p + p->a, x, caps, ncaps);
	default:
		return 0;
	}
}

/* pat: pat1() within rw_pat()'s budget */
static int
pat(Rw *rw, const RwPat *p, NodeId x, NodeId *caps, uint32_t ncaps)
{
	int r;

	if (++rw->patsteps > RW_PATSTEPS || rw->patdepth >= RW_PATDEPTH)
		return 0;
	rw->patdepth++;
	r = pat1(rw, p, x, caps, ncaps);
	rw->patdepth--;
	return r;
}

int
rw_pat(Rw *rw, const RwPat *p, NodeId x, NodeId *caps, uint32_t ncaps)
{
	rw->patsteps = 0;
	rw->patdepth = 0;
	return pat(rw, p, x, caps, ncaps);
}

/* domvisit: mark x visited by this search; 1 if it was already */
static int
domvisit(Rw *rw, NodeId x)
{
	if (x >= rw->capseen) {
		uint32_t cap = rw->m->nnodes > x ? rw->m->nnodes : x + 1;
		rw->domseen = ir_xrealloc(rw->domseen, cap * sizeof *rw->domseen);
		memset(rw->domseen + rw->capseen, 0, (cap - rw->capseen) * sizeof *rw->domseen);
		rw->capseen = cap;
	}
	if (rw->domseen[x] == rw->domgen)
		return 1;
	rw->domseen[x] = rw->domgen;
	return 0;
}

NodeId
rw_dominator(Rw *rw, NodeId child, const RwPat *parent, const RwPat *path, NodeId *caps, uint32_t ncaps)
{
	Module *m = rw->m;
	NodeId pd = 0;
	uint32_t sp = 0;

	rw->ndom = 0;
	rw->domwhy = RD_NONE;
	if (++rw->domgen == 0) {
		memset(rw->domseen, 0, rw->capseen * sizeof *rw->domseen);
		rw->domgen = 1;
	}
	domvisit(rw, child);
	for (uint32_t i = m->nodes[child].nargs; i-- > 0;) {
		ir_vgrow(&rw->domstack, &rw->capdomstack, sp + 1);
		rw->domstack[sp++] = ir_arg(m, child, i);
	}
	while (sp) {
		NodeId x = rw->domstack[--sp];
		if (domvisit(rw, x))
			continue;
		if (caps)
			memset(caps, 0, ncaps * sizeof *caps);
		if (rw_pat(rw, parent, x, caps, ncaps)) {
			if (pd && pd != x) {
				rw->domwhy = RD_TWO;    /* one parent, not two */
				rw->domat = x;
				rw->domother = pd;
				return 0;
			}
			pd = x;
		} else if (rw_pat(rw, path, x, NULL, 0)) {
			for (uint32_t i = m->nodes[x].nargs; i-- > 0;) {
				ir_vgrow(&rw->domstack, &rw->capdomstack, sp + 1);
				rw->domstack[sp++] = ir_arg(m, x, i);
			}
		} else {
			rw->domwhy = RD_OFFPATH;
			rw->domat = x;
			return 0;
		}
		ir_vgrow(&rw->dom, &rw->capdom, rw->ndom + 1);
		rw->dom[rw->ndom++] = x;
	}
	if (!pd) {
		rw->domwhy = RD_NOPARENT;
		return 0;
	}
	/* child post-dominates the region: nothing else uses its nodes */
	for (uint32_t i = 0; i < rw->ndom; i++)
		IR_FOR_USES(m, rw->dom[i], s) {
			NodeId u = m->uses[s].user;
			if (u != child && (u >= rw->capseen || rw->domseen[u] != rw->domgen)) {
				rw->domwhy = RD_ESCAPE;
				rw->domat = rw->dom[i];
				rw->domother = u;
				return 0;
			}
		}
	if (caps)
		memset(caps, 0, ncaps * sizeof *caps);
	if (!rw_pat(rw, parent, pd, caps, ncaps))
		return 0;
	return pd;
}

void
rw_report_dom(Rw *rw, uint32_t rule, const NodeId *nodes, uint32_t n, int ok)
{
	NodeId buf[64], *v = n + rw->ndom <= 64 ? buf : ir_xmalloc((n + rw->ndom) * sizeof *v);

	memcpy(v, nodes, n * sizeof *v);
	memcpy(v + n, rw->dom, rw->ndom * sizeof *v);
	rw_report(rw, rule, v, n + rw->ndom, ok);
	if (v != buf)
		free(v);
}

/* rw_fold: fold_const; the result is printed inline when every constant
** it was computed from was written inline */
NodeId
rw_fold(Rw *rw, NodeId n)
{
	Module *m = rw->m;
	NodeId c;
	uint32_t sp = 0, mark = rw->ntb;
	int inl = 1;

	if (rw->dry)
		return rw->root;
	if (n == rw->root && !rw->folddata && !rw->gfail) {
		/* the fast path's folds make the root itself the constant */
		void *data;
		int st = ref_fold_data(m, n, &data);
		if (st == 0)
			return 0;
		if (st > 0) {
			rw->folddata = data;
			rw->foldinline = argsinlined(m, n);
			return n;
		}
	}
	if (!(c = ref_fold(m, n)))
		return 0;
	/* the usual case, an op of constants (qnn.quantize(const, const,
	   const)): look at them directly */
	if (m->nodes[n].kind == NK_CALL) {
		const NodeId *a = &m->argv[m->nodes[n].args];
		uint32_t i, na = m->nodes[n].nargs;
		for (i = 0; i < na && m->nodes[a[i]].kind == NK_CONST; i++)
			;
		if (i == na) {
			if (argsinlined(m, n))
				ir_node_const(m, c)->flags |= CF_INLINE;
			return c;
		}
	}
	/* else walk the subtree with the tuple builder's stack as scratch */
	rw_tb_add(rw, n);
	for (sp = rw->ntb; sp > mark && inl; sp = rw->ntb) {
		NodeId x = rw->tb[--rw->ntb];
		if (m->nodes[x].kind == NK_CONST) {
			inl = inlined(m, x);
			continue;
		}
		for (uint32_t i = 0; i < m->nodes[x].nargs; i++)
			rw_tb_add(rw, rw_arg(m, x, i));
	}
	rw->ntb = mark;
	if (inl)
		ir_node_const(m, c)->flags |= CF_INLINE;
	return c;
}

/* rw_fold_new: the nodes of the template n that have no type yet are the
** ones the rule built; they are typed operands first, n is folded, and they
** are killed (root first) once nothing uses them */
NodeId
rw_fold_new(Rw *rw, NodeId n)
{
	Module *m = rw->m;
	NodeId *built = NULL, *st = NULL, c = 0;
	uint32_t nbuilt = 0, capbuilt = 0, nst = 0, capst = 0;

	if (!n || rw->gfail) {
		rw->gfail = 1;
		return 0;
	}
	if (rw->dry)
		return rw->root;
	/* post-order over the untyped nodes: a node is pushed once with its
	   high bit clear (expand), once with it set (emit) */
	ir_vgrow(&st, &capst, 1);
	st[nst++] = n;
	while (nst) {
		NodeId x = st[--nst];
		if (x & 0x80000000u) {
			x &= 0x7fffffffu;
			if (m->nodes[x].type)
				continue;   /* reached twice */
			if (!(m->nodes[x].type = ir_infer_node(m, x, rw->d)))
				goto out;
			ir_vgrow(&built, &capbuilt, nbuilt + 1);
			built[nbuilt++] = x;
			continue;
		}
		if (m->nodes[x].type)
			continue;
		ir_vgrow(&st, &capst, nst + 1 + m->nodes[x].nargs);
		st[nst++] = x | 0x80000000u;
		for (uint32_t i = 0; i < m->nodes[x].nargs; i++)
			st[nst++] = rw_arg(m, x, i);
	}
	c = rw_fold(rw, n);
out:
	/* and the constants only the template used (matched nodes have users) */
	for (uint32_t i = nbuilt; i-- > 0;)
		if (m->nodes[built[i]].kind != NK_DEAD)
			ir_reap(m, built[i], &st, &capst);
	if (!c)
		rw->gfail = 1;
	free(built);
	free(st);
	return c;
}

/* ---------------------------------------------------------------- signatures */

/* sig: the structure of node n: kind, op, attributes and operand ids */
static uint64_t
sig(const Module *m, NodeId n)
{
	const Node *nd = &m->nodes[n];
	uint64_t h = 0xcbf29ce484222325ull;

	h = (h ^ nd->kind) * 0x100000001b3ull;
	h = (h ^ nd->op) * 0x100000001b3ull;
	if (nd->kind == NK_GETITEM || nd->kind == NK_VAR || nd->kind == NK_GLOBAL)
		h = (h ^ nd->aux) * 0x100000001b3ull;
	if (nd->kind == NK_CONST)
		h = (h ^ n) * 0x100000001b3ull;     /* constants: by identity */
	if (nd->kind == NK_CALL && nd->aux)
		for (int k = 0; k < ir_ops[nd->op].nattrs; k++)
			h = ir_attr_hash(m, &m->attrs[nd->aux + (uint32_t)k], h);
	for (uint32_t i = 0; i < nd->nargs; i++)
		h = (h ^ rw_arg(m, n, i)) * 0x100000001b3ull;
	return h | 1;   /* 0 marks an empty slot */
}

/* The rewrite log: for each signature replaced, what replaced it and how. */
typedef struct LogEntry {
	uint64_t old, new;
	uint32_t rule;
} LogEntry;

typedef struct Log {
	LogEntry *v;
	uint32_t n, cap;
	uint32_t *idx;          /* open addressing: index + 1 by old signature */
	uint32_t idxcap;
} Log;

/* slotof: where signature s starts probing (signatures are odd: use the
** high bits) */
static uint32_t
slotof(uint64_t s, uint32_t cap)
{
	return (uint32_t)(s >> 33) & (cap - 1);
}

static uint32_t
logfind(const Log *l, uint64_t s)
{
	if (!l->idxcap)
		return 0;
	for (uint32_t i = slotof(s, l->idxcap); l->idx[i]; i = (i + 1) & (l->idxcap - 1))
		if (l->v[l->idx[i] - 1].old == s)
			return l->idx[i];
	return 0;
}

static void
logadd(Log *l, uint64_t old, uint64_t new, uint32_t rule)
{
	if (2 * (l->n + 1) > l->idxcap) {
		uint32_t cap = l->idxcap ? 2 * l->idxcap : 1024;
		free(l->idx);
		l->idx = ir_xcalloc(cap, sizeof *l->idx);
		l->idxcap = cap;
		for (uint32_t k = 0; k < l->n; k++) {
			uint32_t i = slotof(l->v[k].old, cap);
			while (l->idx[i])
				i = (i + 1) & (cap - 1);
			l->idx[i] = k + 1;
		}
	}
	ir_vgrow(&l->v, &l->cap, l->n + 1);
	l->v[l->n].old = old;
	l->v[l->n].new = new;
	l->v[l->n].rule = rule;
	l->n++;
	{
		uint32_t i = slotof(old, l->idxcap);
		while (l->idx[i])
			i = (i + 1) & (l->idxcap - 1);
		l->idx[i] = l->n;
	}
}

/* ---------------------------------------------------------------- driver */

/* ir_rw_schema: FNV-1a over the operand count and each attribute's name,
** type and optionality (rewrite.h) */
uint32_t
ir_rw_schema(const OpInfo *op)
{
	uint32_t h = 2166136261u;
	unsigned char b[2];

#define MIX(c) (h = (h ^ (unsigned char)(c)) * 16777619u)
	MIX(op->nargs & 0xff);
	MIX(op->nattrs & 0xff);
	for (int k = 0; k < op->nattrs; k++) {
		for (const char *s = op->attrs[k].name; *s; s++)
			MIX(*s);
		b[0] = (unsigned char)AT_TYPE(op->attrs[k].type);
		b[1] = (op->attrs[k].type & AT_OPT) != 0;
		MIX(0);
		MIX(b[0]);
		MIX(b[1]);
	}
#undef MIX
	return h;
}

/* ir_ruleset_ops_ok: rs's ops are here as it was compiled (rewrite.h) */
int
ir_ruleset_ops_ok(const Ruleset *rs, char *err, size_t nerr)
{
	for (uint32_t i = 0; i < rs->nops; i++) {
		const RwOp *x = &rs->ops[i];
		OpId op = ir_op_lookup(x->name, strlen(x->name));
		if (!op) {
			snprintf(err, nerr, "ruleset %s uses op %s, which no loaded plugin registers and this graft "
			         "does not have", rs->name, x->name);
			return 0;
		}
		if (ir_rw_schema(&ir_ops[op]) != x->schema) {
			snprintf(err, nerr, "ruleset %s was compiled for another op %s than this graft's (its operands "
			         "or attributes differ): compile it again with this graft's graftc", rs->name, x->name);
			return 0;
		}
	}
	return 1;
}

void
ir_rw_init(Rw *rw, Module *m, const Ruleset *rs, Diag *d)
{
	memset(rw, 0, sizeof *rw);
	rw->m = m;
	rw->d = d;
	rw->rs = rs;
	rw->syms = ir_xcalloc(rs->nstrs ? rs->nstrs : 1, sizeof *rw->syms);
	rw->lits = ir_xcalloc(rs->nlits ? rs->nlits : 1, sizeof *rw->lits);
	for (uint32_t i = 0; i < rs->nstrs; i++)
		rw->syms[i] = ir_symz(m, rs->strs[i]);
	for (uint32_t i = 0; i < rs->nlits; i++)
		if (!ir_attr_parse(m, rs->lits[i], &rw->lits[i]))
			ir_die("ruleset %s: bad literal %s", rs->name, rs->lits[i]);
	rw->isroot = ir_xcalloc(IR_MAXOPS, 1);
	if (rs->nops) {
		/* bound by name, local ids 1 .. nops (or, compiled into graft,
		   the ops' ids here); an op here the ruleset does not name is
		   local 0, which its code never compares with; and where every
		   op here has its local id, no translation at all (lop NULL) */
		char err[512];
		int same = 1;
		uint32_t maxl = 0;
		for (uint32_t i = 0; i < rs->nops; i++)
			maxl = rs->ops[i].local > maxl ? rs->ops[i].local : maxl;
		rw->gop = ir_xcalloc(maxl + 1, sizeof *rw->gop);
		rw->lop = ir_xcalloc(IR_MAXOPS, sizeof *rw->lop);
		if (!ir_ruleset_ops_ok(rs, err, sizeof err)) {
			/* nothing is rooted: the ruleset matches nothing */
			if (d)
				ir_error(d, (Loc){ 0, 0, 0 }, "%s", err);
			goto scratch;
		}
		for (uint32_t i = 0; i < rs->nops; i++) {
			OpId l = rs->ops[i].local, op = ir_op_lookup(rs->ops[i].name, strlen(rs->ops[i].name));
			if (l == 0 || rw->gop[l])
				ir_die("ruleset %s: bad local id %u of op %s", rs->name, l, rs->ops[i].name);
			rw->gop[l] = op;
			rw->lop[op] = l;
			same &= op == l;
		}
		if (same) {
			free(rw->lop);
			rw->lop = NULL;
		}
	}
	if (rs->roots) {
		for (uint32_t i = 0; i < rs->nroots; i++)
			rw->isroot[rs->nops ? rw_gop(rw, rs->roots[i]) : rs->roots[i]] = 1;
		rw->rootkinds = rs->rootkinds;
	} else {
		memset(rw->isroot, 1, IR_MAXOPS);
		rw->rootkinds = 1u << NK_TUPLE | 1u << NK_GETITEM | 1u << NK_CALLFN;
	}
scratch:
	{
		/* scratch attributes for dry runs: room for any op's */
		AttrVal none[32];
		memset(none, 0, sizeof none);
		rw->scratch = ir_attr_push(m, none, 32);
	}
}

void
ir_rw_free(Rw *rw)
{
	free(rw->once);
	free(rw->dom);
	free(rw->domseen);
	free(rw->domstack);
	free(rw->syms);
	free(rw->lits);
	free(rw->isroot);
	free(rw->tb);
	free(rw->gop);
	free(rw->lop);
}

typedef struct Work {
	NodeId *v;
	uint32_t n, cap;
	uint8_t *in;            /* per node: queued */
	uint8_t *gen;           /* per node: rewrites in the chain that made it */
	uint32_t capin;
	NodeId next, end;       /* ids next..end-1 are pending in id order */
} Work;

/* A chain of this many rewrites at one place is watched for cycles. */
enum { WATCH = 8 };

/* grow: make room in the per-node arrays for node n */
static void
grow(Work *w, const Module *m, NodeId n)
{
	uint32_t old = w->capin, cap = m->capnodes > n ? m->capnodes : n + 1;

	w->in = ir_xrealloc(w->in, cap);
	w->gen = ir_xrealloc(w->gen, cap);
	memset(w->in + old, 0, cap - old);
	memset(w->gen + old, 0, cap - old);
	w->capin = cap;
}

static void queuex(Work *w, const Module *m, NodeId n);

static inline void
queue(Work *w, const Module *m, NodeId n)
{
	if (n < w->next || n >= w->end)
		queuex(w, m, n);    /* else the id-order sweep is still to reach it */
}

/* queuex: queue() of a node the sweep has passed */
static void
queuex(Work *w, const Module *m, NodeId n)
{
	if (n >= w->capin)
		grow(w, m, n);
	if (w->in[n])
		return;
	w->in[n] = 1;
	ir_vgrow(&w->v, &w->cap, w->n + 1);
	w->v[w->n++] = n;
}

/* seeddfs: seed() for a module whose operands are not all older than
** their users: a depth-first walk from the globals */
static void
seeddfs(Module *m, Work *w, uint8_t *seen)
{
	struct { NodeId n; uint32_t i; } *st = NULL;
	uint32_t nst = 0, cap = 0, first = w->n;

	for (uint32_t g = 0; g < m->nglobals; g++) {
		ir_vgrow(&st, &cap, nst + 1);
		st[nst].n = m->globals[g].fn;
		st[nst].i = 0;
		nst++;
		seen[m->globals[g].fn] = 1;
		while (nst) {
			NodeId n = st[nst - 1].n;
			if (st[nst - 1].i < m->nodes[n].nargs) {
				NodeId a = rw_arg(m, n, st[nst - 1].i++);
				if (a && !seen[a]) {
					seen[a] = 1;
					ir_vgrow(&st, &cap, nst + 1);
					st[nst].n = a;
					st[nst].i = 0;
					nst++;
				}
				continue;
			}
			nst--;
			queue(w, m, n);     /* post-order, reversed below */
		}
	}
	for (uint32_t i = first, j = w->n; i + 1 < j; i++, j--) {
		NodeId t = w->v[i];
		w->v[i] = w->v[j - 1];
		w->v[j - 1] = t;
	}
	free(st);
}

/* seed: every node reachable from the globals onto the worklist, so that
** popping visits operands before users.  Nodes are nearly always created
** operands first.  While the module says so (Module.unordered clear), the
** worklist holds nothing: the driver sweeps the ids in order, skipping the
** calls nothing uses (unreachable ones).  Otherwise one backward sweep over
** the ids marks what is reachable and finds whether id order still puts
** operands first; if an operand is newer than its user, seeddfs() does it. */
static void
seed(Module *m, Work *w)
{
	uint8_t *seen;
	NodeId n;

	if (!m->unordered) {
		w->next = 1;
		w->end = m->nnodes;
		return;
	}
	seen = ir_xcalloc(m->nnodes, 1);

	for (uint32_t g = 0; g < m->nglobals; g++)
		seen[m->globals[g].fn] = 1;
	for (n = m->nnodes; n-- > 1;) {
		const Node *nd = &m->nodes[n];
		if (!seen[n])
			continue;
		for (uint32_t i = 0; i < nd->nargs; i++) {
			NodeId a = m->argv[nd->args + i];
			if (a >= n)
				goto dfs;
			seen[a] = 1;
		}
	}
	if (m->nnodes > w->capin)
		grow(w, m, m->nnodes - 1);
	ir_vgrow(&w->v, &w->cap, w->n + m->nnodes);
	for (n = m->nnodes; n-- > 1;)
		if (seen[n]) {
			w->in[n] = 1;
			w->v[w->n++] = n;
		}
	free(seen);
	return;
dfs:
	memset(seen, 0, m->nnodes);
	seeddfs(m, w, seen);
	free(seen);
}

/* undo: the node a failed rewrite built in place of a matched one gets
** its attributes and type back */
static void
undo(Rw *rw)
{
	rw->m->nodes[rw->inplace].aux = rw->oldaux;
	rw->m->nodes[rw->inplace].type = rw->oldtype;
	rw->inplace = 0;
}

static void
rulename(char *buf, size_t n, const Ruleset *rs, uint32_t rule)
{
	const RuleInfo *ri = &rs->rules[rule];
	snprintf(buf, n, "'%s' (%s:%u)", ri->name, ri->file, rs->rules[rule].line);
}

/* cycle: if replacing n (signature sn) by r (signature sr) with rule closes a
** chain of rewrites back to sn, report the rules on it; returns 1 then */
static int
cycle(Rw *rw, const Log *log, uint64_t sn, uint64_t sr, uint32_t rule)
{
	uint32_t chain[64], nchain = 0, e = logfind(log, sr);
	uint64_t s = sr;
	char buf[512];

	for (int steps = 0; e && steps < 64; steps++) {
		chain[nchain++] = log->v[e - 1].rule;
		s = log->v[e - 1].new;
		if (s == sn)
			break;
		e = logfind(log, s);
	}
	if (s != sn || !nchain)
		return 0;
	ir_error(rw->d, rw->m->locs[rw->root],
	         "rewriting does not terminate: rules of ruleset %s undo each other's results here", rw->rs->name);
	for (uint32_t i = 0; i < nchain; i++) {
		rulename(buf, sizeof buf, rw->rs, chain[i]);
		ir_note(rw->d, (Loc){ 0, 0, 0 }, "rule %s rewrote it%s", buf, i ? ", then" : "");
	}
	rulename(buf, sizeof buf, rw->rs, rule);
	ir_note(rw->d, (Loc){ 0, 0, 0 }, "rule %s rewrites it back to what it was", buf);
	return 1;
}

int
ir_rewrite(Module *m, const Ruleset *rs, Diag *d, RwStats *stats)
{
	Rw rw;
	Work w = { 0 };
	Log log = { 0 };
	NodeId *stack = NULL;
	uint32_t capstack = 0, rule = 0;
	int before = d->errors;
	uint64_t budget = 64 * (uint64_t)m->nnodes + 100000, visits = 0, rewrites = 0;
	/* the budget is of rewrites: with ids reused the node count stays flat */
	uint64_t *fired = ir_xcalloc(rs->nrules ? rs->nrules : 1, sizeof *fired);
	char b1[256], b2[256];
	uint32_t *kept = NULL, nkept = 0, capkept = 0, *moved = NULL, nmoved = 0, capmoved = 0;
	TyLog tylog = { 0 };
	int newtype;

	ir_rw_init(&rw, m, rs, d);
	seed(m, &w);
	/* dead nodes' slots are reused, and new nodes listed, while rewriting */
	m->reuse = 1;
	m->track = 1;
	for (;;) {
		NodeId n, r, *made;
		uint32_t nmade;

		/* only calls, tuples and projections are ever rooted at */
		if (w.n) {
			n = w.v[--w.n];
			w.in[n] = 0;
			if (!ir_rw_rooted(&rw, n))
				continue;
		} else if (w.next < w.end) {
			n = w.next++;
			if (!ir_rw_rooted(&rw, n) || !m->firstuse[n])
				continue;       /* nothing to try, or unreachable */
		} else {
			break;
		}
		visits++;
		rule = 0;
		m->ncreated = 0;
		rw.root = n;
		rw.gfail = 0;
		rw.firedonce = 0;
		r = rs->match(&rw, n, &rule);
		if (rw.folddata) {
			void *data = rw.folddata;
			rw.folddata = NULL;
			if (r == n && (n >= w.capin || w.gen[n] < WATCH)) {
				/* the root becomes the constant it folds to: its
				   users are queued, its operands reaped */
				if (++rewrites > budget)
					goto overbudget;
				fired[rule]++;
				ir_node_to_const(m, n, data, &stack, &capstack);
				if (rw.foldinline)
					ir_node_const(m, n)->flags |= CF_INLINE;
				IR_FOR_USES(m, n, s)
					queue(&w, m, m->uses[s].user);
				continue;
			}
			if (r == n) {
				/* a long chain, watched for cycles: a new node */
				r = ir_const_own(m, m->nodes[n].type, data, m->locs[n]);
				if (rw.foldinline)
					ir_node_const(m, r)->flags |= CF_INLINE;
			}
		}
		made = m->created;
		nmade = m->ncreated;
		if (!r) {
			/* a rule that failed half-way may have built nodes */
			for (uint32_t i = nmade; i-- > 0;)
				if (m->nodes[made[i]].kind != NK_DEAD && !m->firstuse[made[i]])
					ir_node_kill(m, made[i]);
			if (rw.inplace)
				undo(&rw);
			continue;
		}
		for (uint32_t i = 0; i < nmade; i++) {
			NodeId x = made[i];
			uint8_t xk = m->nodes[x].kind;
			if (xk == NK_DEAD || xk == NK_CONST)
				continue;       /* a constant is made with its type */
			if (!(m->nodes[x].type = ir_infer_node(m, x, d)))
				goto badresult;
		}
		if (rw.inplace && !(m->nodes[rw.inplace].type = ir_infer_node(m, rw.inplace, d)))
			goto badresult;
		newtype = m->nodes[r].type != m->nodes[n].type;   /* its users decide, below */
		/* what the rule built is one rewrite further down n's chain; only
		   long chains pay for the signatures that find cycles */
		if (m->nnodes > w.capin)
			grow(&w, m, m->nnodes - 1);
		{
			uint8_t g = w.gen[n] < 255 ? (uint8_t)(w.gen[n] + 1) : 255;
			int rnew = 0;
			for (uint32_t i = 0; i < nmade; i++) {
				w.gen[made[i]] = g;
				rnew |= made[i] == r;
			}
			if (rw.inplace) {
				w.gen[rw.inplace] = g;
				rnew |= rw.inplace == r;
			}
			if (w.gen[n] >= WATCH || (!rnew && w.gen[r] >= WATCH)) {
				uint64_t sn = sig(m, n), sr = sig(m, r);
				if (cycle(&rw, &log, sn, sr, rule))
					goto undo;
				logadd(&log, sn, sr, rule);
				/* signatures name operands by id: ids must not be reused now */
				m->reuse = 0;
			}
		}
		if (++rewrites > budget)
			goto overbudget;
		fired[rule]++;
		/* a result that holds the node it replaces (nn.relu(s) for the
		   matched s) keeps those uses: the others move to the result */
		nkept = 0;
		for (uint32_t i = 0; i <= nmade; i++) {
			NodeId x = i < nmade ? made[i] : rw.inplace;
			if (!x || m->nodes[x].kind == NK_DEAD)
				continue;
			for (uint32_t k = 0; k < m->nodes[x].nargs; k++)
				if (ir_arg(m, x, k) == n) {
					ir_vgrow(&kept, &capkept, nkept + 2);
					kept[nkept++] = x;
					kept[nkept++] = k;
					ir_set_arg(m, x, k, 0);
				}
		}
		nmoved = 0;
		IR_FOR_USES(m, n, slot) {
			ir_vgrow(&moved, &capmoved, nmoved + 1);
			moved[nmoved++] = slot;
		}
		ir_replace_uses(m, n, r);
		for (uint32_t i = 0; i < nkept; i += 2)
			ir_set_arg(m, kept[i], kept[i + 1], n);
		if (newtype && !retype(m, moved, nmoved, &tylog)) {
			/* a user does not take the new type: put the graph back */
			for (uint32_t i = tylog.n; i-- > 0;)
				m->nodes[tylog.v[i].node].type = tylog.v[i].type;
			for (uint32_t i = 0; i < nmoved; i++)
				ir_set_arg(m, m->uses[moved[i]].user, moved[i] - m->nodes[m->uses[moved[i]].user].args, n);
			ir_error(d, m->locs[n], "rule '%s' (%s:%u) replaced a %s with a %s", rs->rules[rule].name,
			         rs->rules[rule].file, rs->rules[rule].line,
			         ir_type_str(m, m->nodes[n].type, b1, sizeof b1), ir_type_str(m, m->nodes[r].type, b2, sizeof b2));
			if (tylog.why)
				ir_note(d, m->locs[tylog.why], "which this %s does not take", rw_op(m, tylog.why) ?
				        ir_ops[rw_op(m, tylog.why)].name : "node");
			goto undo;
		}
		tylog.n = 0;
		for (uint32_t i = 0; i < nmade; i++)
			if (m->nodes[made[i]].kind != NK_DEAD)
				oncemark(&rw, made[i], rw.firedonce ? rule + 1 : 0);
		if (rw.inplace)
			oncemark(&rw, rw.inplace, rw.firedonce ? rule + 1 : 0);
		rw.firedonce = 0;
		/* queue what changed, before reaping can reuse any id: the result,
		   the nodes built for it, its users */
		IR_FOR_USES(m, r, s)
			queue(&w, m, m->uses[s].user);
		for (uint32_t i = 0; i < nmade; i++) {
			uint8_t xk = m->nodes[made[i]].kind;
			if (xk == NK_CALL || xk == NK_TUPLE || xk == NK_GETITEM || xk == NK_CALLFN)
				queue(&w, m, made[i]);      /* what a rule can match */
		}
		if (rw.inplace) {
			queue(&w, m, rw.inplace);
			rw.inplace = 0;
		}
		queue(&w, m, r);
		ir_reap(m, n, &stack, &capstack);
	}
	goto out;
overbudget:
	ir_error(d, m->locs[rw.root], "rewriting did not finish after %llu rewrites; the last rule to fire was '%s' (%s:%u)",
	         (unsigned long long)rewrites, rs->rules[rule].name, rs->rules[rule].file, rs->rules[rule].line);
	goto undo;
badresult:
	ir_note(d, m->locs[rw.root], "in the result of rule '%s' (%s:%u)", rs->rules[rule].name,
	        rs->rules[rule].file, rs->rules[rule].line);
undo:
	if (rw.inplace)
		undo(&rw);
out:
	free(kept);
	free(moved);
	free(tylog.v);
	m->reuse = 0;
	m->track = 0;
	m->ncreated = 0;
	if (stats) {
		stats->fired = fired;
		stats->visits = visits;
		stats->rewrites = rewrites;
	} else {
		free(fired);
	}
	free(w.v);
	free(w.in);
	free(w.gen);
	free(log.v);
	free(log.idx);
	free(stack);
	ir_rw_free(&rw);
	return d->errors - before;
}

void
ir_rules_by_priority(const Ruleset *rs, uint32_t *order)
{
	/* insertion sort, stable: tables are small */
	for (uint32_t i = 0; i < rs->nrules; i++) {
		uint32_t j = i;
		for (; j > 0 && rs->rules[order[j - 1]].prio < rs->rules[i].prio; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
}

uint32_t
ir_fired_order(const Ruleset *rs, const uint64_t *fired, uint32_t *order)
{
	uint32_t k = 0;

	ir_rules_by_priority(rs, order);
	for (uint32_t i = 0; i < rs->nrules; i++)
		if (fired[order[i]])
			order[k++] = order[i];
	/* insertion sort, stable: tables are small */
	for (uint32_t i = 1; i < k; i++)
		for (uint32_t j = i; j > 0 && fired[order[j]] > fired[order[j - 1]]; j--) {
			uint32_t t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	return k;
}

void
ir_rewrite_stats(FILE *f, const Ruleset *rs, const RwStats *st)
{
	uint32_t *order = ir_xmalloc((rs->nrules ? rs->nrules : 1) * sizeof *order);
	uint32_t n = ir_fired_order(rs, st->fired, order);
	fprintf(f, "ruleset %s: %llu rewrite%s in %llu match attempt%s\n", rs->name,
	        (unsigned long long)st->rewrites, st->rewrites == 1 ? "" : "s", (unsigned long long)st->visits,
	        st->visits == 1 ? "" : "s");
	for (uint32_t i = 0; i < n; i++)
		fprintf(f, "  %8llu  %s  (%s:%u)\n", (unsigned long long)st->fired[order[i]],
		        rs->rules[order[i]].name, rs->rules[order[i]].file, rs->rules[order[i]].line);
	free(order);
}
