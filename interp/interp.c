/*
** interp.c: a .rules file loaded at run time, its decision trees
** interpreted.
**
** interp_load() runs graftc's pipeline up to its C (dsl_parse, dsl_check,
** dsl_compile and dsl_guards, which the emitter runs first, so that every
** error graftc would report is reported), then translates each root op's
** decision tree (compile.h's DNode) into INodes whose variables are slots
** of an array and whose tests have their literals resolved.  match() walks
** an INode tree in a loop, with no recursion, exactly as the generated code
** walks its tree: the same loads, the same tests in the same order, the same
** leaves.  A leaf evaluates the rule's guard and builds its result from the
** AST with the rw_ helpers the generated code calls, in the same order and
** with C's arithmetic (int64 and double, and rw_idiv / rw_imod where both
** sides are integers), so both give the same rewrites.
**
** Rule indices are the rules' places in the file, as in generated code;
** the strings and literals the rules compare with are tables of the
** Ruleset, interned by ir_rw_init() like generated ones.  match() keeps no
** state between calls but a scratch array: one Ruleset is used by one
** thread at a time.
*/
#ifndef _GNU_SOURCE
#define _GNU_SOURCE               /* open_memstream, RTLD_DEFAULT */
#endif
#include <dlfcn.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compile.h"
#include "interp.h"
#include "rules.tab.h"

/* An extern's C function, by its number of node parameters (0 to 6). */
typedef int Pred(Rw *, NodeId, ...);
typedef NodeId Action(Rw *, NodeId, ...);
enum { MAXEXTPARAMS = 6 };

typedef struct ILoad {
	uint32_t slot, from, k;
} ILoad;

/* A decision-tree node (DNode) ready to run. */
typedef struct INode {
	uint8_t kind;           /* DKind */
	ILoad *loads;
	uint32_t nloads;
	/* D_TEST */
	const Step *t;
	uint32_t x, y;          /* the slots of t->v and t->v2 */
	int how;                /* S_ATTR: HOW_* */
	int64_t ival;           /* S_ATTR's literal as an integer or dtype */
	double fval;            /* ... as a float */
	uint32_t idx;           /* ... as a string or literal index */
	int64_t *dims;          /* S_TYPE: dims (-1 any), or NULL */
	uint32_t ndims;
	int dtype;              /* S_TYPE: DT_COUNT for any */
	struct INode *yes, *no; /* D_TEST; D_SHARED: yes */
	/* D_LEAF */
	const Rule *rule;
	const Variant *var;
	uint32_t *bslot;        /* per bind of var: its node's slot */
	const Bind **nb;        /* per name number: its first bind, or NULL */
	uint32_t *nslot;        /* ... and its node's slot */
	uint32_t *inner;        /* targets: the slots of what a match covers */
	uint32_t ninner;
	int ip;                 /* the result may be built in place */
	uint32_t ipd;           /* ... of this slot's node */
	uint32_t *ipchain;      /* ... with these between the root and it */
	uint32_t nipchain;
	const RwPat *rpat;      /* S_RPAT: the recursive pattern as data */
	const RwPat *dparent;   /* dominates(): its parent and path, */
	const RwPat *dpath;
	uint32_t *dslot;        /* ... and the slots of the parent's names */
	uint32_t ndcaps;
	struct INode *next;
} INode;

enum { HOW_INT, HOW_FLOAT, HOW_STR, HOW_LIT };

/* The builtins of guards (A_CALL.id), in the order of their names. */
enum { B_FLOOR, B_LOG2, B_EXP2, B_DTYPE, B_RANK, B_NUMEL, B_VALUE, B_SPLAT, B_ISCONST, B_ISSCALAR, B_ISSPLAT, B_USES, B_PRESENT,
       B_LEN, B_EXTERN };
static const char *const builtins[] = { "floor", "log2", "exp2", "dtype", "rank", "numel", "value", "splat",
                                        "is_const", "is_scalar", "is_splat", "uses", "present", "len" };

typedef struct ITree {
	INode *root;
	uint32_t nslots;
} ITree;

typedef struct IProg {
	Ruleset rs;
	Module *m;              /* the rules' own: names, files, sources */
	Diag d;
	Rules r;
	int parsed;
	RuleInfo *info;
	const char **strs, **lits;
	uint32_t nstrs, nlits, capstrs, caplits;
	NameMap strmap, litmap;
	OpId *roots;
	ITree *byop;            /* per op, IR_MAXOPS of them */
	ITree tuple, getitem, callfn;
	uint32_t maxslots;
	/* per extern of the file (Rules.exts): its C function, found by name
	** among what graft and the plugins it loaded define */
	union Ext { Pred *pred; Action *action; } *ext;
	NameMap names;          /* the names guards and results read, numbered */
	const char **namev;     /* ... by number */
	uint32_t nnames, capnamev;
	InterpTrace *trace;     /* interp_trace() */
	void *tracectx;
	int64_t only;           /* interp_only(): the one rule that may fire, or -1 */
} IProg;

/* ---------------------------------------------------------------- tables */

static uint32_t
strid(IProg *p, const char *s)
{
	uint32_t i = dsl_map_get(&p->strmap, s);

	if (i != UINT32_MAX)
		return i;
	ir_vgrow(&p->strs, &p->capstrs, p->nstrs + 1);
	p->strs[p->nstrs] = s;
	dsl_map_put(&p->strmap, s, p->nstrs);
	return p->nstrs++;
}

/* litid: the index of a literal, kept as Relay text as generated code
** keeps it */
static uint32_t
litid(IProg *p, const Ast *a)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	const char *s;
	uint32_t i;

	if (!f)
		ir_die("open_memstream failed");
	dsl_print(f, a);
	fclose(f);
	s = dsl_strdup(&p->r, buf, len);
	free(buf);
	if ((i = dsl_map_get(&p->litmap, s)) != UINT32_MAX)
		return i;
	ir_vgrow(&p->lits, &p->caplits, p->nlits + 1);
	p->lits[p->nlits] = s;
	dsl_map_put(&p->litmap, s, p->nlits);
	return p->nlits++;
}

/* ---------------------------------------------------------------- leaves */

/* firstbind: the first bind of name in var, its index in *i */
static const Bind *
firstbind(const Variant *var, const char *name, uint32_t *i)
{
	for (uint32_t k = 0; k < var->nbinds; k++)
		if (strcmp(var->binds[k].name, name) == 0) {
			if (i)
				*i = k;
			return &var->binds[k];
		}
	return NULL;
}

/* attrref: for `r.attr`, or a name bound to an attribute, its call's bind
** (in *b, its index in *bi), attribute index and op; 0 if a is not an
** attribute reference (dsl_attrref) */
static int
attrref(const Variant *var, const Ast *a, const Bind **b, uint32_t *bi, int *k, OpId *op)
{
	if (!(*b = dsl_attrref(var, a, k, op)))
		return 0;
	*bi = (uint32_t)(*b - var->binds);
	return 1;
}

static int
isdtypeval(const Variant *var, const Ast *a)
{
	const Bind *b;
	uint32_t bi;
	int k;
	OpId op;

	if (a->kind == A_CALL && strcmp(a->s, "dtype") == 0)
		return 1;
	return attrref(var, a, &b, &bi, &k, &op) && (AT_TYPE(ir_ops[op].attrs[k].type) & ~AT_OPT) == AT_DTYPE;
}

/* prep: the string and literal indices a guard or result needs, put in the
** literal nodes' id (as emit.c's compare() and setattr() pick them) */
static void
prep(IProg *p, const Variant *var, Ast *a)
{
	const Bind *b;
	uint32_t bi;
	int k;
	OpId op;

	if (!a)
		return;
	if ((a->kind == A_NAME || a->kind == A_ATTRS || a->kind == A_REST) && a->s) {
		const char *dot = strchr(a->s, '.');
		const char *base = dot ? dsl_strdup(&p->r, a->s, (size_t)(dot - a->s)) : a->s;
		uint32_t id = dsl_map_get(&p->names, base);
		if (id == UINT32_MAX) {
			ir_vgrow(&p->namev, &p->capnamev, p->nnames + 1);
			p->namev[p->nnames] = base;
			dsl_map_put(&p->names, base, id = p->nnames++);
		}
		a->id = id;
		a->k = -2;
		if (dot) {
			const Bind *bd = firstbind(var, base, NULL);
			a->k = bd && bd->kind == 0 && bd->op ? ir_op_attr_index(bd->op, dot + 1, strlen(dot + 1)) : -1;
		}
	}
	if (a->kind == A_CALL && !a->op) {
		for (a->id = 0; a->id < B_EXTERN && strcmp(builtins[a->id], a->s) != 0; a->id++)
			;
		a->k = -1;
		for (uint32_t i = 0; i < p->r.nexts; i++)
			if (strcmp(p->r.exts[i].name, a->s) == 0)
				a->k = (int32_t)i;
	}
	if (a->kind == A_STR)
		a->k = (int32_t)ir_dtype_parse(a->s, strlen(a->s));
	if (a->kind == A_BINOP && (a->i == T_EQ || a->i == T_NE)) {
		Ast *x = a->kid[0], *y = a->kid[1];
		if (x->kind == A_STR || x->kind == A_LIST || x->kind == A_NONE) {
			Ast *t = x;
			x = y;
			y = t;
		}
		if (y->kind == A_STR && !isdtypeval(var, x) && attrref(var, x, &b, &bi, &k, &op))
			y->id = strid(p, y->s);
	}
	if (a->kind == A_CALL && a->op)
		for (uint32_t i = 0; i < a->nkid; i++) {
			Ast *v;
			int t;
			if (a->kid[i]->kind != A_ATTR)
				continue;
			v = a->kid[i]->kid[0];
			k = ir_op_attr_index(a->op, a->kid[i]->s, strlen(a->kid[i]->s));
			a->kid[i]->k = k;       /* rcall() sets attribute k */
			t = AT_TYPE(ir_ops[a->op].attrs[k].type);
			if (attrref(var, v, &b, &bi, &k, &op) || t == AT_INT || t == AT_BOOL || t == AT_FLOAT ||
			    (t == AT_DTYPE && v->kind == A_STR))
				continue;
			if (t == AT_STR && v->kind == A_STR)
				v->id = strid(p, v->s);
			else if (v->kind == A_INT || v->kind == A_FLOAT || v->kind == A_STR || v->kind == A_BOOL ||
			         v->kind == A_NONE || v->kind == A_LIST)
				v->id = litid(p, v);
		}
	for (uint32_t i = 0; i < a->nkid; i++)
		prep(p, var, a->kid[i]);
}

/* A guard's value, with C's types: an int64 or a double. */
typedef struct Val {
	int isf;
	int64_t i;
	double f;
} Val;

static Val ival(int64_t i) { Val v = { 0, i, 0 }; return v; }
static Val fval(double f) { Val v = { 1, 0, f }; return v; }
static double asf(Val v) { return v.isf ? v.f : (double)v.i; }
static int truth(Val v) { return v.isf ? v.f != 0 : v.i != 0; }

/* asi: v converted to int64 as C converts it (NaN and out of range: 0, with
** the guard failed: C leaves them undefined) */
static int64_t
asi(Rw *rw, Val v)
{
	if (!v.isf)
		return v.i;
	if (!(v.f > -9223372036854775808.0 && v.f < 9223372036854775808.0)) {
		rw->gfail = 1;
		return 0;
	}
	return (int64_t)v.f;
}

/* Env: a leaf being run. */
typedef struct Env {
	IProg *p;
	Rw *rw;
	const INode *leaf;
	const NodeId *vars;
	NodeId root;
} Env;

/* nodeof: the node bound to name a, 0 if unbound (or a is `r.attr`) */
static NodeId
nodeof(const Env *e, const Ast *a)
{
	if (a->kind != A_NAME || a->k != -2 || !e->leaf->nb[a->id])
		return 0;
	return e->vars[e->leaf->nslot[a->id]];
}

/* eattr: attrref(), at run time: the call's node, attribute index and op */
static int
eattr(const Env *e, const Ast *a, NodeId *n, int *k, OpId *op)
{
	const Bind *b;

	if (a->kind != A_NAME || !(b = e->leaf->nb[a->id]))
		return 0;
	if (a->k != -2) {
		if (b->kind != 0 || !b->op || a->k < 0)
			return 0;
		*op = b->op;
		*k = a->k;
	} else if (b->kind == 1) {
		const Ast *at = b->at;
		while (at->kind == A_TYPED || at->kind == A_BIND)
			at = at->kid[0];
		*op = at->op;
		*k = b->attr;
	} else {
		return 0;
	}
	*n = e->vars[e->leaf->nslot[a->id]];
	return 1;
}

/* restof: a rest name's list node, its first field into *start and the
** fields after it into *end */
static NodeId
restof(const Env *e, const Ast *a, uint32_t *start, uint32_t *end)
{
	const Bind *b = e->leaf->nb[a->id];

	*start = b ? b->start : 0;
	*end = b ? b->end : 0;
	return b ? e->vars[e->leaf->nslot[a->id]] : 0;
}

static Val gexpr(const Env *e, const Ast *a);

/* callext: a call of extern a->s (a predicate, or an action if action),
** with the root and the nodes a's arguments name */
static NodeId
callext(const Env *e, const Ast *a, int action)
{
	const Rules *r = &e->p->r;
	NodeId x[MAXEXTPARAMS] = { 0 }, v = e->root;
	const union Ext *f = NULL;
	Rw *rw = e->rw;

	if (a->k < 0 || (uint32_t)a->k >= r->nexts)
		ir_die("interp: extern %s", a->s);
	f = &e->p->ext[a->k];
	for (uint32_t i = 0; i < a->nkid && i < MAXEXTPARAMS; i++)
		x[i] = nodeof(e, a->kid[i]);
	if (action)
		switch (a->nkid) {
		case 0: return f->action(rw, v);
		case 1: return f->action(rw, v, x[0]);
		case 2: return f->action(rw, v, x[0], x[1]);
		case 3: return f->action(rw, v, x[0], x[1], x[2]);
		case 4: return f->action(rw, v, x[0], x[1], x[2], x[3]);
		case 5: return f->action(rw, v, x[0], x[1], x[2], x[3], x[4]);
		default: return f->action(rw, v, x[0], x[1], x[2], x[3], x[4], x[5]);
		}
	switch (a->nkid) {
	case 0: return (NodeId)f->pred(rw, v);
	case 1: return (NodeId)f->pred(rw, v, x[0]);
	case 2: return (NodeId)f->pred(rw, v, x[0], x[1]);
	case 3: return (NodeId)f->pred(rw, v, x[0], x[1], x[2]);
	case 4: return (NodeId)f->pred(rw, v, x[0], x[1], x[2], x[3]);
	case 5: return (NodeId)f->pred(rw, v, x[0], x[1], x[2], x[3], x[4]);
	default: return (NodeId)f->pred(rw, v, x[0], x[1], x[2], x[3], x[4], x[5]);
	}
}

/* compare: emit.c's compare() */
static int
compare(const Env *e, const Ast *x, const Ast *y, int ne)
{
	const Module *m = e->rw->m;
	NodeId n, n2;
	int k, k2, res;
	OpId op, op2;

	if (x->kind == A_STR || x->kind == A_LIST || x->kind == A_NONE) {
		const Ast *t = x;
		x = y;
		y = t;
	}
	if (y->kind == A_STR) {
		if (isdtypeval(e->leaf->var, x))
			res = asi(e->rw, gexpr(e, x)) == (int64_t)y->k;
		else
			res = eattr(e, x, &n, &k, &op) && rw_attr_s(m, n, k) == e->rw->syms[y->id];
	} else if (y->kind == A_NONE) {
		res = eattr(e, x, &n, &k, &op) && rw_attr_isnone(m, n, k);
	} else if (y->kind == A_LIST) {
		int64_t buf[64], *vals = y->nkid <= 64 ? buf : ir_xmalloc(y->nkid * sizeof *vals);
		for (uint32_t i = 0; i < y->nkid; i++)
			vals[i] = asi(e->rw, gexpr(e, y->kid[i]));
		if (x->kind == A_CALL && strcmp(x->s, "shape") == 0)
			res = rw_shape_eq(m, nodeof(e, x->kid[0]), vals, y->nkid);
		else
			res = eattr(e, x, &n, &k, &op) && rw_attr_ints_eq(m, n, k, vals, y->nkid);
		if (vals != buf)
			free(vals);
	} else if (eattr(e, x, &n, &k, &op) && eattr(e, y, &n2, &k2, &op2) &&
	           AT_TYPE(ir_ops[op2].attrs[k2].type) != AT_INT && AT_TYPE(ir_ops[op2].attrs[k2].type) != AT_FLOAT &&
	           AT_TYPE(ir_ops[op2].attrs[k2].type) != AT_BOOL) {
		res = rw_attr_same(m, n, k, n2, k2);
	} else {
		Val a = gexpr(e, x), b = gexpr(e, y);
		res = a.isf || b.isf ? asf(a) == asf(b) : a.i == b.i;
	}
	return ne ? !res : res;
}

/* gexpr: emit.c's gexpr(), evaluated */
static Val
gexpr(const Env *e, const Ast *a)
{
	Rw *rw = e->rw;
	const Module *m = rw->m;
	NodeId n;
	int k;
	OpId op;

	switch (a->kind) {
	case A_INT: return ival(a->i);
	case A_FLOAT: return fval(a->f);
	case A_BOOL: return ival(a->i != 0);
	case A_NAME:
		if (eattr(e, a, &n, &k, &op)) {
			int t = AT_TYPE(ir_ops[op].attrs[k].type);
			if (t == AT_FLOAT)
				return fval(rw_attr_f(m, n, k));
			if (t == AT_INT || t == AT_BOOL || t == AT_DTYPE)
				return ival(rw_attr_i(m, n, k));
			return fval(rw_attr_num(rw, n, k));
		}
		return ival(nodeof(e, a));
	case A_UNOP: {
		Val v = gexpr(e, a->kid[0]);
		if (a->i == '!')
			return ival(!truth(v));
		return v.isf ? fval(-v.f) : ival((int64_t)(0 - (uint64_t)v.i));
	}
	case A_INDEX:
		if (a->kid[0]->kind == A_CALL && strcmp(a->kid[0]->s, "shape") == 0)
			return ival(rw_dim(rw, nodeof(e, a->kid[0]->kid[0]), asi(rw, gexpr(e, a->kid[1]))));
		if (eattr(e, a->kid[0], &n, &k, &op))
			return ival(rw_attr_ints_at(rw, n, k, asi(rw, gexpr(e, a->kid[1]))));
		rw->gfail = 1;
		return ival(0);
	case A_BINOP: {
		Val x, y;
		if (a->i == T_EQ || a->i == T_NE)
			return ival(compare(e, a->kid[0], a->kid[1], a->i == T_NE));
		if (a->i == T_ANDAND)
			return ival(truth(gexpr(e, a->kid[0])) && truth(gexpr(e, a->kid[1])));
		if (a->i == T_OROR)
			return ival(truth(gexpr(e, a->kid[0])) || truth(gexpr(e, a->kid[1])));
		x = gexpr(e, a->kid[0]);
		y = gexpr(e, a->kid[1]);
		if ((a->i == '/' || a->i == '%') && a->kid[0]->vt == V_INT && a->kid[1]->vt == V_INT)
			return ival(a->i == '/' ? rw_idiv(rw, asi(rw, x), asi(rw, y)) : rw_imod(rw, asi(rw, x), asi(rw, y)));
		if (a->i == '%')
			return fval(fmod(asf(x), asf(y)));
		if (x.isf || y.isf) {
			double p = asf(x), q = asf(y);
			switch (a->i) {
			case '+': return fval(p + q);
			case '-': return fval(p - q);
			case '*': return fval(p * q);
			case '/': return fval(p / q);
			case '<': return ival(p < q);
			case '>': return ival(p > q);
			case T_LE: return ival(p <= q);
			case T_GE: return ival(p >= q);
			}
		} else {
			uint64_t p = (uint64_t)x.i, q = (uint64_t)y.i;
			switch (a->i) {
			case '+': return ival((int64_t)(p + q));
			case '-': return ival((int64_t)(p - q));
			case '*': return ival((int64_t)(p * q));
			case '/': return ival(rw_idiv(rw, x.i, y.i));
			case '<': return ival(x.i < y.i);
			case '>': return ival(x.i > y.i);
			case T_LE: return ival(x.i <= y.i);
			case T_GE: return ival(x.i >= y.i);
			}
		}
		ir_die("interp: operator %d", (int)a->i);
	}
	case A_CALL: {
		uint32_t start, end;
		n = a->nkid && a->id != B_PRESENT ? nodeof(e, a->kid[0]) : 0;
		switch (a->id) {
		case B_FLOOR: return fval(floor(asf(gexpr(e, a->kid[0]))));
		case B_LOG2: return fval(log2(asf(gexpr(e, a->kid[0]))));
		case B_EXP2: return fval(exp2(asf(gexpr(e, a->kid[0]))));
		case B_DTYPE: return ival(rw_dtype(m, n));
		case B_RANK: return ival(rw_rank(rw, n));
		case B_NUMEL: return ival(rw_numel(rw, n));
		case B_VALUE: return fval(rw_value(rw, n));
		case B_SPLAT: return fval(rw_splat(rw, n));
		case B_ISCONST: return ival(rw_kind(m, n) == NK_CONST);
		case B_ISSCALAR: return ival(rw_is_scalar(m, n));
		case B_ISSPLAT: return ival(rw_is_splat(m, n));
		case B_USES: return ival((int64_t)ir_nuses(m, n));
		case B_PRESENT: return ival(e->leaf->nb[a->kid[0]->id] != NULL);
		case B_LEN:
			n = restof(e, a->kid[0], &start, &end);
			return ival((int64_t)rw_nargs(m, n) - start - end);
		}
		return ival(callext(e, a, 0) != 0);
	}
	default:
		ir_die("interp: guard kind %d", a->kind);
	}
}

static NodeId rexpr(const Env *e, const Ast *a);

/* setattr: emit.c's setattr(), run */
static void
setattr(const Env *e, AttrId av, OpId op, int k, const Ast *a)
{
	Rw *rw = e->rw;
	int t = AT_TYPE(ir_ops[op].attrs[k].type), k2;
	NodeId n;
	OpId op2;

	if (eattr(e, a, &n, &k2, &op2)) {
		rw_set_from(rw, av, k, n, k2);
		return;
	}
	switch (t) {
	case AT_INT: rw_set_i(rw, av, k, asi(rw, gexpr(e, a))); return;
	case AT_BOOL: rw_set_b(rw, av, k, (int)asi(rw, gexpr(e, a))); return;
	case AT_FLOAT: rw_set_f(rw, av, k, asf(gexpr(e, a))); return;
	case AT_DTYPE:
		if (a->kind == A_STR) {
			rw_set_dtype(rw, av, k, a->k);
			return;
		}
		break;
	case AT_STR:
		if (a->kind == A_STR) {
			rw_set_sym(rw, av, k, rw->syms[a->id]);
			return;
		}
		break;
	}
	rw_set_lit(rw, av, k, a->id);
}

/* rcall: emit.c's rcall(), run */
static NodeId
rcall(const Env *e, const Ast *a)
{
	Rw *rw = e->rw;
	NodeId buf[16], *args = a->nkid <= 16 ? buf : ir_xmalloc(a->nkid * sizeof *args), r;
	uint32_t n = 0;
	AttrId av = 0;

	for (uint32_t i = 0; i < a->nkid; i++)
		if (a->kid[i]->kind != A_ATTR && a->kid[i]->kind != A_ATTRS)
			args[n++] = rexpr(e, a->kid[i]);
	if (ir_ops[a->op].nattrs) {
		const Ast *from = NULL;
		for (uint32_t i = 0; i < a->nkid; i++)
			if (a->kid[i]->kind == A_ATTRS)
				from = a->kid[i];
		if (from) {
			Ast name = *from;
			name.kind = A_NAME;
			av = rw_attrs_copy(rw, a->op, nodeof(e, &name));
		} else {
			av = rw_attrs(rw, a->op);
		}
		for (uint32_t i = 0; i < a->nkid; i++)
			if (a->kid[i]->kind == A_ATTR)
				setattr(e, av, a->op, a->kid[i]->k, a->kid[i]->kid[0]);
	}
	if (e->leaf->ip && a == e->leaf->rule->result) {
		NodeId cbuf[16], *chain = e->leaf->nipchain <= 16 ? cbuf : ir_xmalloc(e->leaf->nipchain * sizeof *chain);
		for (uint32_t i = 0; i < e->leaf->nipchain; i++)
			chain[i] = e->vars[e->leaf->ipchain[i]];
		r = rw_call_in_place(rw, a->op, args, n, av, e->vars[e->leaf->ipd],
		                     e->leaf->nipchain ? chain : NULL, e->leaf->nipchain);
		if (chain != cbuf)
			free(chain);
	} else {
		r = rw_call(rw, a->op, args, n, av);
	}
	if (args != buf)
		free(args);
	return r;
}

/* rexpr: emit.c's rexpr(), run */
static NodeId
rexpr(const Env *e, const Ast *a)
{
	Rw *rw = e->rw;
	DType dt;

	switch (a->kind) {
	case A_NAME:
		return nodeof(e, a);
	case A_INT: case A_BOOL:
		return rw_scalar_i(rw, a->kind == A_BOOL ? DT_BOOL : a->dtype, a->i);
	case A_FLOAT:
		return rw_scalar_f(rw, a->dtype, a->f);
	case A_FOLD:
		if (a->nkid)
			return rw_fold_new(rw, rexpr(e, a->kid[0]));
		return rw_fold(rw, e->root);
	case A_GETITEM:
		return rw_getitem(rw, rexpr(e, a->kid[0]), (uint32_t)a->i);
	case A_TUPLE: {
		NodeId buf[16], *el = a->nkid <= 16 ? buf : ir_xmalloc(a->nkid * sizeof *el), r;
		uint32_t mark;
		for (uint32_t i = 0; i < a->nkid; i++)
			if (a->kid[i]->kind != A_REST)
				el[i] = rexpr(e, a->kid[i]);
		rw_tb_begin(rw, &mark);
		for (uint32_t i = 0; i < a->nkid; i++)
			if (a->kid[i]->kind == A_REST) {
				uint32_t start, end;
				NodeId t = a->kid[i]->s ? restof(e, a->kid[i], &start, &end) : 0;
				if (t && end)
					rw_tb_rest_to(rw, t, start, end);
				else
					rw_tb_rest(rw, t, t ? start : 0);
			} else {
				rw_tb_add(rw, el[i]);
			}
		r = rw_tb_end(rw, mark);
		if (el != buf)
			free(el);
		return r;
	}
	case A_CALL:
		if (a->op)
			return rcall(e, a);
		if ((dt = dsl_scalar_ctor(a->s)) != DT_COUNT) {
			Val x = gexpr(e, a->kid[0]);
			if (ir_dtype_kind[dt] == 'f')
				return rw_scalar_f(rw, dt, asf(x));
			return rw_scalar_i(rw, dt, asi(rw, x));
		}
		return callext(e, a, 1);
	default:
		ir_die("interp: result kind %d", a->kind);
	}
}

/* leaf: the guard and result of a rule's variant (the generated rule
** function), or a target entry's report */
static NodeId
leaf(IProg *p, Rw *rw, const INode *l, NodeId *vars, NodeId root, uint32_t *rule)
{
	Env e = { p, rw, l, vars, root };
	const Rule *ru = l->rule;
	NodeId r;
	int same;

	rw->gfail = 0;
	if (p->only >= 0 && ru->order != (uint32_t)p->only)
		return 0;
	/* a target table's rewrite rules run when it rewrites (no report),
	** its entries when it partitions */
	if ((ru->kind == RK_RULE) != !rw->report)
		return 0;
	if (l->dparent) {
		/* dominates(): the search, whose captures bind the parent's names */
		NodeId caps[64];
		if (!rw_dominator(rw, root, l->dparent, l->dpath, caps, l->ndcaps))
			return 0;
		for (uint32_t i = 0; i < l->ndcaps; i++)
			vars[l->dslot[i]] = caps[i];
	}
	if (ru->kind != RK_RULE) {
		NodeId buf[32], *in = l->ninner <= 32 ? buf : ir_xmalloc(l->ninner * sizeof *in);
		int ok;
		for (uint32_t i = 0; i < l->ninner; i++)
			in[i] = vars[l->inner[i]];
		ok = !ru->guard || (truth(gexpr(&e, ru->guard)) && !rw->gfail);
		if (p->trace)
			p->trace(p->tracectx, ru->order, (uint32_t)(l->var - ru->variants), ok ? IT_MATCH : IT_GUARD);
		(l->dparent ? rw_report_dom : rw_report)(rw, ru->order, in, l->ninner, ok);
		if (in != buf)
			free(in);
		return 0;
	}
	if (ru->guard && (!truth(gexpr(&e, ru->guard)) || rw->gfail)) {
		if (p->trace)
			p->trace(p->tracectx, ru->order, (uint32_t)(l->var - ru->variants), IT_GUARD);
		return 0;
	}
	if (ru->once && rw_onced(rw, root, ru->order))
		return 0;
	r = rexpr(&e, ru->result);
	same = r && !rw->gfail && dsl_may_unchange(l->var->pat, ru->result) && rw_unchanged(rw, r);
	if (p->trace)
		p->trace(p->tracectx, ru->order, (uint32_t)(l->var - ru->variants),
		         !r || rw->gfail ? IT_RESULT : same ? IT_UNCHANGED : IT_MATCH);
	if (!r || rw->gfail || same)
		return 0;
	if (ru->once)
		rw_once(rw);
	*rule = ru->order;
	return r;
}

/* ---------------------------------------------------------------- trees */

/* run: tree t at node v, as the generated match_OP() runs it */
static NodeId
run(IProg *p, const ITree *t, Rw *rw, NodeId v, uint32_t *rule)
{
	const Module *m = rw->m;
	NodeId buf[256], *vars = t->nslots <= 256 ? buf : ir_xcalloc(t->nslots, sizeof *vars), r = 0;
	const INode *n = t->root;

	vars[0] = v;
	while (n) {
		for (uint32_t i = 0; i < n->nloads; i++)
			vars[n->loads[i].slot] = rw_arg(m, vars[n->loads[i].from], (int32_t)n->loads[i].k >= 0 ? n->loads[i].k :
			                                rw_nargs(m, vars[n->loads[i].from]) - (uint32_t)-(int32_t)n->loads[i].k);
		if (n->kind == D_SHARED) {
			n = n->yes;
			continue;
		}
		if (n->kind == D_LEAF) {
			if ((r = leaf(p, rw, n, vars, v, rule)) != 0)
				break;
			n = n->next;
			continue;
		}
		{
			const Step *s = n->t;
			NodeId x = vars[n->x];
			int yes;
			switch (s->kind) {
			case S_OP: yes = rw_op(m, x) == (OpId)s->n; break;
			case S_KIND: yes = rw_kind(m, x) == s->k; break;
			case S_NARGS: yes = s->atleast ? rw_nargs(m, x) >= s->n : rw_nargs(m, x) == s->n; break;
			case S_INDEX: yes = m->nodes[x].aux == s->n; break;
			case S_OPKIND: yes = ir_op_kind(rw_op(m, x)) == s->n; break;
			case S_VARNAME: yes = m->nodes[x].aux == rw->syms[n->idx]; break;
			case S_FATTR: yes = rw_func_attr_is(rw, x, s->lit->s, n->idx); break;
			case S_RPAT: yes = rw_pat(rw, n->rpat, x, NULL, 0); break;
			case S_CVALUE: yes = rw_const_is(rw, x, n->dtype, n->fval); break;
			case S_SAME: yes = x == vars[n->y]; break;
			case S_ATTREQ: yes = rw_attr_same(m, x, s->k, vars[n->y], s->k2); break;
			case S_TYPE:
				yes = (n->dtype == DT_COUNT || rw_dtype(m, x) == n->dtype) &&
				      (!n->dims || rw_shape_is(m, x, n->ndims, n->dims));
				break;
			case S_ATTR:
				switch (n->how) {
				case HOW_INT: yes = rw_attr_i(m, x, s->k) == n->ival; break;
				case HOW_FLOAT: yes = rw_attr_f(m, x, s->k) == n->fval; break;
				case HOW_STR: yes = rw_attr_s(m, x, s->k) == rw->syms[n->idx]; break;
				default: yes = rw_attr_lit(rw, x, s->k, n->idx); break;
				}
				break;
			default:
				ir_die("interp: step %d", s->kind);
			}
			n = yes ? n->yes : n->no;
		}
	}
	if (vars != buf)
		free(vars);
	return r;
}

static NodeId
match(Rw *rw, NodeId v, uint32_t *rule)
{
	IProg *p = (IProg *)rw->rs->impl;
	const Node *nd = &rw->m->nodes[v];
	const ITree *t = nd->kind == NK_CALL ? &p->byop[nd->op] : nd->kind == NK_TUPLE ? &p->tuple :
	                 nd->kind == NK_GETITEM ? &p->getitem : nd->kind == NK_CALLFN ? &p->callfn : NULL;
	int call = nd->kind == NK_CALL;         /* nd moves when a rule builds nodes */
	NodeId r = t && t->root ? run(p, t, rw, v, rule) : 0;

	/* a target table's composites rooted at any op (byop[OP_NONE]):
	   every match is reported, the op's then these (a table's run()
	   builds nothing) */
	if (call && p->byop[OP_NONE].root)
		return run(p, &p->byop[OP_NONE], rw, v, rule);
	return r;
}

/* Translating a tree: variables become slots, literals are resolved. */
typedef struct Tr {
	IProg *p;
	const Tree *t;
	NameMap slots;
	uint32_t nslots;
	const DNode **from;     /* shared subtrees translated, and to what */
	INode **to;
	uint32_t nshared, capshared;
} Tr;

static uint32_t
slot(Tr *tr, const char *v)
{
	uint32_t s = dsl_map_get(&tr->slots, v);

	if (s == UINT32_MAX) {
		s = tr->nslots++;
		dsl_map_put(&tr->slots, v, s);
	}
	return s;
}

static INode *translate(Tr *tr, const DNode *d);

/* patlits: pattern table d's attribute literals as the program's */
static void
patlits(Tr *tr, DomPat *d)
{
	for (uint32_t i = 0; i < d->n; i++)
		if (d->v[i].kind == RP_ATTR)
			d->v[i].b = litid(tr->p, d->lits[i]);
}

/* tnode: one node of the tree, its subtrees not yet */
static INode *
tnode(Tr *tr, const DNode *d)
{
	Rules *r = &tr->p->r;
	INode *n = ir_arena_alloc(&r->arena, sizeof *n);

	n->kind = d->kind;
	if (d->nloads)
		n->loads = ir_arena_alloc(&r->arena, d->nloads * sizeof *n->loads);
	for (uint32_t i = 0; i < d->nloads; i++) {
		n->loads[i].from = slot(tr, d->loads[i]->v2);
		n->loads[i].slot = slot(tr, d->loads[i]->v);
		n->loads[i].k = (uint32_t)d->loads[i]->k;
	}
	n->nloads = d->nloads;
	if (d->kind == D_TEST) {
		const Step *s = d->test;
		n->t = s;
		n->x = slot(tr, s->v);
		n->y = s->v2 ? slot(tr, s->v2) : 0;
		if (s->kind == S_ATTR) {
			const AttrField *f = &ir_ops[s->op].attrs[s->k];
			const Ast *l = s->lit;
			switch (AT_TYPE(f->type)) {
			case AT_INT: case AT_BOOL: n->how = HOW_INT; n->ival = l->i; break;
			case AT_FLOAT: n->how = HOW_FLOAT; n->fval = l->kind == A_INT ? (double)l->i : l->f; break;
			case AT_DTYPE: n->how = HOW_INT; n->ival = ir_dtype_parse(l->s, strlen(l->s)); break;
			case AT_STR: n->how = HOW_STR; n->idx = strid(tr->p, l->s); break;
			default: n->how = HOW_LIT; n->idx = litid(tr->p, l); break;
			}
		} else if (s->kind == S_VARNAME) {
			n->idx = strid(tr->p, s->lit->s);
		} else if (s->kind == S_FATTR) {
			n->idx = litid(tr->p, s->lit->kid[0]);
		} else if (s->kind == S_RPAT) {
			/* the pattern as data, its literals the program's */
			DomPat rp;
			NameMap none = { 0 };
			RwPat *v;
			memset(&rp, 0, sizeof rp);
			dsl_rwpat(r, s->lit, &rp, &none);
			patlits(tr, &rp);
			v = ir_arena_alloc(&r->arena, (rp.n ? rp.n : 1) * sizeof *v);
			memcpy(v, rp.v, rp.n * sizeof *v);
			n->rpat = v;
			free(rp.v);
			free(rp.lits);
			dsl_map_free(&none);
		} else if (s->kind == S_CVALUE) {
			const Ast *l = s->lit;
			n->dtype = l->kind == A_BOOL ? DT_BOOL : l->dtype;
			n->fval = l->kind == A_FLOAT ? l->f : (double)l->i;
		} else if (s->kind == S_TYPE) {
			const Ast *ty = s->lit;
			n->dtype = ty->dtype;
			if (ty->kid[1]) {
				n->ndims = ty->kid[1]->nkid;
				n->dims = ir_arena_alloc(&r->arena, (n->ndims ? n->ndims : 1) * sizeof *n->dims);
				for (uint32_t i = 0; i < n->ndims; i++)
					n->dims[i] = ty->kid[1]->kid[i]->kind == A_INT ? ty->kid[1]->kid[i]->i : -1;
			}
		}
	} else if (d->kind == D_LEAF) {
		const Rule *ru = d->rule;
		const Variant *var = &ru->variants[d->variant];
		const Row *row = NULL;
		const char *dv, *chain[64];
		int np;
		n->rule = ru;
		n->var = var;
		n->bslot = ir_arena_alloc(&r->arena, (var->nbinds ? var->nbinds : 1) * sizeof *n->bslot);
		for (uint32_t i = 0; i < var->nbinds; i++)
			n->bslot[i] = slot(tr, var->binds[i].var);
		n->nb = ir_arena_alloc(&r->arena, (tr->p->nnames ? tr->p->nnames : 1) * sizeof *n->nb);
		n->nslot = ir_arena_alloc(&r->arena, (tr->p->nnames ? tr->p->nnames : 1) * sizeof *n->nslot);
		for (uint32_t k = 0; k < tr->p->nnames; k++) {
			uint32_t bi;
			if ((n->nb[k] = firstbind(var, tr->p->namev[k], &bi)))
				n->nslot[k] = n->bslot[bi];
		}
		n->ninner = var->ninner;
		n->inner = ir_arena_alloc(&r->arena, (var->ninner ? var->ninner : 1) * sizeof *n->inner);
		for (uint32_t i = 0; i < var->ninner; i++)
			n->inner[i] = slot(tr, var->inner[i]);
		for (uint32_t i = 0; i < tr->t->nrows && !row; i++)
			if (tr->t->rows[i].rule == ru && tr->t->rows[i].variant == d->variant)
				row = &tr->t->rows[i];
		if (var->pat->kind == A_DOM) {
			DomPat pp, qq;
			RwPat *v;
			uint32_t ncaps = dsl_domparts(r, var->pat, &pp, &qq);
			patlits(tr, &pp);
			patlits(tr, &qq);
			v = ir_arena_alloc(&r->arena, (pp.n + qq.n) * sizeof *v);
			memcpy(v, pp.v, pp.n * sizeof *v);
			memcpy(v + pp.n, qq.v, qq.n * sizeof *v);
			n->dparent = v;
			n->dpath = v + pp.n;
			n->ndcaps = ncaps < 64 ? ncaps : 64;
			n->dslot = ir_arena_alloc(&r->arena, (ncaps ? ncaps : 1) * sizeof *n->dslot);
			for (uint32_t i = 0; i < n->ndcaps; i++) {
				char nm[32];
				snprintf(nm, sizeof nm, "dom[%u]", i);
				n->dslot[i] = slot(tr, dsl_strdup(r, nm, strlen(nm)));
			}
			dsl_domfree(&pp, &qq);
		}
		if (ru->kind == RK_RULE && row && (np = dsl_inplace(ru, var, row, &dv, chain, 64)) >= 0) {
			n->ip = 1;
			n->ipd = slot(tr, dv);
			n->nipchain = (uint32_t)np;
			n->ipchain = ir_arena_alloc(&r->arena, (np ? (uint32_t)np : 1) * sizeof *n->ipchain);
			for (int i = 0; i < np; i++)
				n->ipchain[i] = slot(tr, chain[i]);
		}
	}
	return n;
}

/* translate: the tree d, its chains of failed tests and leaves in a loop,
** its yes branches by recursion (as deep as build() recursed), a shared
** subtree once */
static INode *
translate(Tr *tr, const DNode *d)
{
	INode *root = NULL, **slotp = &root;

	while (d) {
		INode *n = tnode(tr, d);
		*slotp = n;
		if (d->kind == D_SHARED) {
			uint32_t i;
			for (i = 0; i < tr->nshared && tr->from[i] != d->yes; i++)
				;
			if (i == tr->nshared) {
				ir_vgrow(&tr->from, &tr->capshared, tr->nshared + 1);
				tr->to = ir_xrealloc(tr->to, tr->capshared * sizeof *tr->to);
				tr->from[tr->nshared] = d->yes;
				tr->to[tr->nshared++] = NULL;
				{
					/* translating may grow tr->to */
					INode *sub = translate(tr, d->yes);
					tr->to[i] = sub;
				}
			}
			n->yes = tr->to[i];
			break;
		}
		if (d->kind == D_LEAF) {
			slotp = &n->next;
			d = d->next;
		} else {
			n->yes = translate(tr, d->yes);
			slotp = &n->no;
			d = d->no;
		}
	}
	return root;
}

/* ---------------------------------------------------------------- loading */

/* interp_load: see interp.h */
const Ruleset *
interp_load(const char *path, FILE *errs)
{
	return interp_load_text(path, NULL, 0, errs);
}

/* interp_load_text: see interp.h */
const Ruleset *
interp_load_text(const char *path, const char *text, size_t len, FILE *errs)
{
	IProg *p = ir_xcalloc(1, sizeof *p);
	Rules *r = &p->r;
	uint32_t nroots = 0;
	int anyop = 0;          /* a tree of calls of any op */

	p->m = ir_module_new();
	ir_diag_init(&p->d, errs, p->m);
	p->d.prog = "graft";
	dsl_rules_init(r, p->m, &p->d);
	r->overtext = text;     /* NULL: path's own */
	r->overlen = len;
	p->parsed = 1;
	/* graftc's pipeline but its C, so that every error it reports is
	   reported here too */
	dsl_parse(r, path);
	if (r->name)
		dsl_check(r);
	if (p->d.errors || dsl_compile(r))
		goto fail;
	/* the externs: C functions graft, or a plugin it loaded, defines */
	p->ext = ir_xcalloc(r->nexts ? r->nexts : 1, sizeof *p->ext);
	for (uint32_t i = 0; i < r->nexts; i++) {
		const Extern *x = &r->exts[i];
		char sym[256];
		void *fn;
		snprintf(sym, sizeof sym, "graft_%s_%s", x->action ? "action" : "pred", x->name);
		if (x->nparams > MAXEXTPARAMS) {
			ir_error(&p->d, x->loc, "extern %s: a ruleset loaded at run time calls externs of at most %d "
			         "parameters", x->name, MAXEXTPARAMS);
			continue;
		}
		dlerror();
		if (!(fn = dlsym(RTLD_DEFAULT, sym))) {
			ir_error(&p->d, x->loc, "extern %s %s: no function %s is loaded (define it in a plugin "
			         "loaded with --plugin, or link it into the program)", x->action ? "action" : "pred",
			         x->name, sym);
			continue;
		}
		/* POSIX: a function's address from dlsym() */
		if (x->action)
			memcpy(&p->ext[i].action, &fn, sizeof fn);
		else
			memcpy(&p->ext[i].pred, &fn, sizeof fn);
	}
	/* what generated code could not evaluate, as dsl_emit reports it */
	if (p->d.errors || dsl_guards(r))
		goto fail;

	/* the tables: rules in file order (their indices), strings and
	   literals as the trees and rules use them */
	p->info = ir_xcalloc(r->nrules ? r->nrules : 1, sizeof *p->info);
	for (uint32_t i = 0; i < r->nrules; i++) {
		const Rule *ru = &r->rules[i];
		RuleInfo *ri = &p->info[ru->order];
		ri->name = ru->name;
		ri->file = p->m->files[ru->loc.file];
		ri->line = ru->loc.line;
		ri->kind = ru->kind == RK_COMPOSITE ? RI_COMPOSITE : ru->kind == RK_SUPPORTS ? RI_SUPPORTS : RI_RULE;
		ri->prio = ru->prio;
		prep(p, &ru->variants[0], ru->guard);
		prep(p, &ru->variants[0], ru->result);
	}
	p->byop = ir_xcalloc(IR_MAXOPS, sizeof *p->byop);
	p->roots = ir_xcalloc(r->ntrees + 1, sizeof *p->roots);
	for (uint32_t i = 0; i < r->ntrees; i++) {
		const Tree *t = &r->trees[i];
		ITree *it = t->kind == NK_CALL ? &p->byop[t->op] : t->kind == NK_TUPLE ? &p->tuple :
		            t->kind == NK_CALLFN ? &p->callfn : &p->getitem;
		Tr tr;
		memset(&tr, 0, sizeof tr);
		tr.p = p;
		tr.t = t;
		slot(&tr, "v");
		it->root = translate(&tr, t->root);
		it->nslots = tr.nslots;
		if (t->kind == NK_CALL && t->op)
			p->roots[nroots++] = t->op;
		else if (t->kind == NK_CALL)
			anyop = 1;
		else
			p->rs.rootkinds |= 1u << t->kind;
		dsl_map_free(&tr.slots);
		free(tr.from);
		free(tr.to);
	}
	p->rs.name = r->name;
	p->rs.source = r->path;
	p->rs.nrules = r->nrules;
	p->rs.rules = p->info;
	p->rs.nstrs = p->nstrs;
	p->rs.strs = p->strs;
	p->rs.nlits = p->nlits;
	p->rs.lits = p->lits;
	p->rs.match = match;
	p->rs.target = r->target;
	p->rs.nroots = anyop ? 0 : nroots;
	p->rs.roots = anyop ? NULL : p->roots;    /* NULL: every call */
	p->rs.impl = p;
	p->only = -1;
	return &p->rs;
fail:
	interp_free(&p->rs);
	return NULL;
}

void
interp_trace(const Ruleset *rs, InterpTrace *fn, void *ctx)
{
	IProg *p = (IProg *)rs->impl;

	p->trace = fn;
	p->tracectx = ctx;
}

void
interp_only(const Ruleset *rs, int64_t rule)
{
	((IProg *)rs->impl)->only = rule;
}

const Rules *
interp_rules(const Ruleset *rs)
{
	return &((const IProg *)rs->impl)->r;
}

/* byorder: the rule of p with file order k */
static const Rule *
byorder(const IProg *p, uint32_t k)
{
	for (uint32_t i = 0; i < p->r.nrules; i++)
		if (p->r.rules[i].order == k)
			return &p->r.rules[i];
	return NULL;
}

uint32_t
interp_variants(const Ruleset *rs, uint32_t rule)
{
	const Rule *ru = byorder(rs->impl, rule);
	return ru ? ru->nvariants : 0;
}

/* pattext: pattern a as text onto f */
static void
pattext(FILE *f, const Ast *a)
{
	switch (a->kind) {
	case A_ANY: fputc('_', f); return;
	case A_CONST: fputs(a->nkid ? "const(...)" : "const", f); return;
	case A_VAR: fprintf(f, a->s ? "var(\"%s\")" : "var", a->s); return;
	case A_NAME: fputs(a->s, f); return;
	case A_REST: fprintf(f, "%s...", a->s ? a->s : ""); return;
	case A_BIND: fprintf(f, "%s:", a->s); pattext(f, a->kid[0]); return;
	case A_GETITEM:
		pattext(f, a->kid[0]);
		dsl_print_field(f, a);
		return;
	case A_TYPED: pattext(f, a->kid[0]); fputs("<...>", f); return;
	case A_FN: case A_CALLFN: case A_GLOBAL: case A_DOM: case A_ANYCALL: case A_REC: case A_RREF: dsl_print(f, a); return;
	case A_ATTR: {
		char lit[256];
		if (a->kid[0]->kind == A_NAME)
			fprintf(f, "%s=%s", a->s, a->kid[0]->s);
		else {
			dsl_littext(a->kid[0], lit, sizeof lit);
			fprintf(f, "%s=%s", a->s, lit);
		}
		return;
	}
	case A_CALL: case A_TUPLE:
		if (a->kind == A_CALL)
			fputs(ir_ops[a->op].name, f);
		fputc('(', f);
		for (uint32_t i = 0; i < a->nkid; i++) {
			if (i)
				fputs(", ", f);
			pattext(f, a->kid[i]);
		}
		fputc(')', f);
		return;
	default:
		fputc('?', f);
	}
}

void
interp_variant_text(const Ruleset *rs, uint32_t rule, uint32_t variant, char *text, size_t size)
{
	const Rule *ru = byorder(rs->impl, rule);
	char *s = NULL;
	size_t len = 0;
	FILE *f;

	if (!size)
		return;
	*text = 0;
	if (!ru || variant >= ru->nvariants || !(f = open_memstream(&s, &len)))
		return;
	pattext(f, ru->variants[variant].pat);
	fclose(f);
	snprintf(text, size, "%s", s ? s : "");
	free(s);
}

void
interp_free(const Ruleset *rs)
{
	IProg *p = (IProg *)rs;

	if (!p)
		return;
	free(p->info);
	free(p->strs);
	free(p->lits);
	free(p->roots);
	free(p->byop);
	free(p->ext);
	free(p->namev);
	dsl_map_free(&p->names);
	dsl_map_free(&p->strmap);
	dsl_map_free(&p->litmap);
	if (p->parsed)
		dsl_rules_free(&p->r);
	ir_diag_free(&p->d);
	ir_module_free(p->m);
	free(p);
}
