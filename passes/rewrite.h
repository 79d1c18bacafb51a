/*
** rewrite.h: the rewrite driver, and the API that graftc's generated
** matchers call.
**
** A Ruleset (one per .rules file, generated into gen/) offers one entry
** point, match(), that tries every rule rooted at a node in priority order
** and returns the node to replace it with.  ir_rewrite() applies rulesets
** to a module until nothing matches, with a worklist that revisits only
** the users of what changed.
**
** Generated code speaks <graft/rules.h> and <graft/graph.h> (rules.h,
** ir/graph.h): graft_ names, which are the rw_ inline readers and
** builders below (graft's own build maps them here, rwfast.h; a plugin
** calls their exported forms, rules.c).  Builders return 0 (and set
** Rw.gfail) when a result cannot be built; the rule then does not fire.
*/
#ifndef GRAFT_REWRITE_H
#define GRAFT_REWRITE_H

#include <math.h>
#include <string.h>

#include "ir.h"
#include "rules.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The public interface of generated matchers (<graft/rules.h>) is the
** rewrite driver's own: its types under their internal names, its codes
** equal to the internal ones (passes/rules.c asserts it). */
typedef struct graft_rw Rw;
typedef graft_matcher Ruleset;      /* a ruleset, or a target's pattern table */
typedef graft_rule_info RuleInfo;   /* one entry of its table */
typedef graft_rule_op RwOp;         /* an op it names, by local id */
typedef graft_pat RwPat;            /* a pattern as data */

/* What an entry of a generated table is (RuleInfo.kind). */
typedef enum RuleInfoKind {
	RI_RULE = GRAFT_RULE,           /* a rewrite rule */
	RI_COMPOSITE = GRAFT_COMPOSITE, /* a target's composite pattern */
	RI_SUPPORTS = GRAFT_SUPPORTS,   /* a single op a target supports */
} RuleInfoKind;

struct graft_rw {
	Module *m;
	Diag *d;
	const Ruleset *rs;
	Sym *syms;              /* rs->strs interned in m */
	uint8_t *isroot;        /* per op: rs has rules rooted at its calls */
	unsigned rootkinds;     /* rs->rootkinds, or all kinds if rs has no roots */
	AttrVal *lits;          /* rs->lits parsed in m */
	NodeId root;            /* the node being matched */
	int gfail;              /* a guard or builder failed */
	int dry;                /* benchmarks: builders make nothing and return
	                           root, so only matching is measured */
	AttrId scratch;         /* dry: attributes are written here */
	/* a result built in place of a matched node (rw_call_in_place): the
	** node, and its attributes and type before, for the driver to commit
	** or restore */
	NodeId inplace;
	AttrId oldaux;
	TypeId oldtype;
	/* fold_const of the root by ref_fold_data(): its value, for the driver
	** to turn the root into that constant (ir_node_to_const), and whether
	** it is printed inline */
	void *folddata;
	int foldinline;
	/* a scratch stack for tuples built with rest fields */
	NodeId *tb; uint32_t ntb, captb;
	/* target tables: called for each entry (rule, in the table's order)
	** whose pattern matches at root, in priority order, with the nodes
	** the match covers (root first: calls, tuples and projections of the
	** pattern, and the constants it matched with `const`); ok is 0 when
	** the entry's guard is false */
	void (*report)(Rw *rw, uint32_t rule, const NodeId *nodes, uint32_t n, int ok);
	void *ctx;
	/* rs->ops bound: gop[l] is the op here of local id l, 1 .. rs->nops
	** (NULL when rs->nops is 0: the ruleset names ops by their ids here);
	** lop[op] the local id of op here, 0 for an op rs does not name, or
	** lop NULL when every local id is the op's id here */
	OpId *gop;
	OpId *lop;
	/* rw_dominator(): the nodes of the last region it found (path nodes
	** and the parent), and its visited marks */
	NodeId *dom; uint32_t ndom, capdom;
	uint32_t *domseen, capseen, domgen;
	uint32_t patsteps, patdepth;    /* rw_pat()'s budget (RW_PATSTEPS, RW_PATDEPTH) */
	NodeId *domstack; uint32_t capdomstack;
	/* ... and why it found none (RwDomWhy), at which nodes */
	uint8_t domwhy;
	NodeId domat, domother;
	/* `once` rules: per node, the rule (plus one) whose result built it,
	** and whether the rule that just matched is one */
	uint32_t *once, caponce;
	int firedonce;
};

/* Why rw_dominator() found no region: for --why-not. */
typedef enum RwDomWhy {
	RD_NONE,
	RD_TWO,         /* domat and domother both match the parent */
	RD_OFFPATH,     /* domat, above the child, is neither parent nor path */
	RD_NOPARENT,    /* the walk found no parent */
	RD_ESCAPE,      /* domat, in the region, is used by domother outside it */
} RwDomWhy;

/* ---------------------------------------------------------------- driver */

typedef struct RwStats {
	uint64_t *fired;        /* per rule, in the ruleset's order */
	uint64_t visits;        /* match attempts */
	uint64_t rewrites;
} RwStats;

/* Applies rs to every function of m until no rule matches.  Returns the
** number of errors (a result of the wrong type, rewriting that does not
** terminate).  stats, if not NULL, receives counts (the caller frees
** stats->fired). */
int ir_rewrite(Module *m, const Ruleset *rs, Diag *d, RwStats *stats);

/* Whether the ops rs names (rs->ops) are all here, with the schema rs was
** compiled against, and its plugin ops registered by plugins.  Returns 1,
** or 0 with what is wrong in err. */
int ir_ruleset_ops_ok(const Ruleset *rs, char *err, size_t nerr);

/* A fingerprint of op's operand count and attribute schema (names, types
** and whether each is optional): what a compiled ruleset records of each
** op it names (RwOp.schema). */
uint32_t ir_rw_schema(const OpInfo *op);

/* A rewrite context for rs on m (what ir_rewrite uses; benchmarks call
** rs->match directly with one).  A ruleset whose ops are not
** here as compiled (ir_ruleset_ops_ok) matches nothing in it. */
void ir_rw_init(Rw *rw, Module *m, const Ruleset *rs, Diag *d);
void ir_rw_free(Rw *rw);

/* Whether rs has rules rooted at n, a call, tuple or projection: where
** calling rs->match can find something. */
static inline int
ir_rw_rooted(const Rw *rw, NodeId n)
{
	const Node *nd = &rw->m->nodes[n];
	return nd->kind == NK_CALL ? rw->isroot[nd->op] : (rw->rootkinds >> nd->kind) & 1;
}

/* The indices of rs's rules in priority order (higher `priority` first,
** then file order), into order[0..rs->nrules). */
void ir_rules_by_priority(const Ruleset *rs, uint32_t *order);

/* The indices of the entries of fired[0..rs->nrules) that are not 0, most
** first, ties in priority order, into order; returns how many. */
uint32_t ir_fired_order(const Ruleset *rs, const uint64_t *fired, uint32_t *order);

/* Prints the rules that fired, most first, as "  N  name  (file:line)". */
void ir_rewrite_stats(FILE *f, const Ruleset *rs, const RwStats *st);

/* ---------------------------------------------------------------- reading */

static inline OpId
rw_op(const Module *m, NodeId n)
{
	return m->nodes[n].kind == NK_CALL ? m->nodes[n].op : (OpId)OP_NONE;
}

/* the op of n (in m, rw->m) as generated code compares it: its local id
** (LOP_ or XOP_ constant), or 0 or an id no local id has when n is no call
** of an op the ruleset names */
static inline OpId
rw_lop(const Rw *rw, const Module *m, NodeId n)
{
	/* 0 for a node of another kind, not lop[OP_NONE]: a constant the
	** compiler sees through */
	if (m->nodes[n].kind != NK_CALL)
		return 0;
	return rw->lop ? rw->lop[m->nodes[n].op] : m->nodes[n].op;
}

/* the op here of a local id the generated code names: what it builds */
static inline OpId
rw_gop(const Rw *rw, OpId l)
{
	return rw->gop[l];
}

static inline int
rw_kind(const Module *m, NodeId n)
{
	return m->nodes[n].kind;
}

static inline NodeId
rw_arg(const Module *m, NodeId n, uint32_t i)
{
	return m->argv[m->nodes[n].args + i];
}

static inline uint32_t
rw_nargs(const Module *m, NodeId n)
{
	return m->nodes[n].nargs;
}

static inline const AttrVal *
rw_attr(const Module *m, NodeId n, int k)
{
	return &m->attrs[m->nodes[n].aux + (uint32_t)k];
}

static inline int64_t
rw_attr_i(const Module *m, NodeId n, int k)
{
	return rw_attr(m, n, k)->u.i;
}

static inline double
rw_attr_f(const Module *m, NodeId n, int k)
{
	return rw_attr(m, n, k)->u.f;
}

static inline Sym
rw_attr_s(const Module *m, NodeId n, int k)
{
	return rw_attr(m, n, k)->u.s;
}

/* attribute k of n equals literal j of the ruleset */
static inline int
rw_attr_lit(const Rw *rw, NodeId n, int k, uint32_t j)
{
	return ir_attr_equal(rw->m, rw_attr(rw->m, n, k), &rw->lits[j]);
}

static inline int
rw_attr_same(const Module *m, NodeId a, int ka, NodeId b, int kb)
{
	const AttrVal *x = rw_attr(m, a, ka), *y = rw_attr(m, b, kb);
	AttrVal xx = *x, yy = *y;
	xx.key = yy.key = 0;
	return ir_attr_equal(m, &xx, &yy);
}

static inline int
rw_dtype(const Module *m, NodeId n)
{
	const Type *t = &m->types[m->nodes[n].type];
	return t->kind == TY_TENSOR ? (int)t->dtype : (int)DT_COUNT;
}

/* n has a tensor type of this rank whose dims equal dims[] (-1: any) */
static inline int
rw_shape_is(const Module *m, NodeId n, uint32_t rank, const int64_t *dims)
{
	const Type *t = &m->types[m->nodes[n].type];
	if (t->kind != TY_TENSOR || t->n != rank)
		return 0;
	for (uint32_t i = 0; i < rank; i++)
		if (dims[i] >= 0 && m->dims[t->first + i] != dims[i])
			return 0;
	return 1;
}

static inline void
rw_report(Rw *rw, uint32_t rule, const NodeId *nodes, uint32_t n, int ok)
{
	if (rw->report)
		rw->report(rw, rule, nodes, n, ok);
}

/* ---------------------------------------------------------------- once */

/* A `once` rule does not fire at a node its own results built: whether
** v is one (rule is the rule's index); and, as it fires, rw_once() has the
** driver mark what its result builds. */
int rw_onced(const Rw *rw, NodeId v, uint32_t rule);
void rw_once(Rw *rw);

/* ---------------------------------------------------------------- dominators */

/* A pattern as data, for what a decision tree cannot hold: the parent and
** path of a dominator pattern (dominates(P, Q, C)), matched at nodes the
** search finds.  Prefix order: each entry, then the entries of its parts;
** size counts them all, so p + p->size is the next sibling. */
typedef enum RwPatKind {
	RP_ANY = GRAFT_PAT_ANY,         /* _ */
	RP_CONST = GRAFT_PAT_CONST,     /* const */
	RP_VAR = GRAFT_PAT_VAR,         /* var */
	RP_NAME = GRAFT_PAT_NAME,       /* a name, captured in caps[a] (equal if it is
	                                   set); n = 1: then the pattern it names (x:P) */
	RP_CALL = GRAFT_PAT_CALL,       /* a call of op a (as rw_lop() gives it): nattr
	                                   RP_ATTR entries, then its n operands */
	RP_ANYCALL = GRAFT_PAT_ANYCALL, /* a call of any op (a = an OpKind it must
	                                   have, or -1), then its n operands */
	RP_ATTR = GRAFT_PAT_ATTR,       /* attribute a equals literal b of the ruleset */
	RP_TUPLE = GRAFT_PAT_TUPLE,     /* a tuple of n fields (at least n with RPF_REST) */
	RP_GETITEM = GRAFT_PAT_GETITEM, /* field a (-1: any) of the tuple that follows */
	RP_TYPED = GRAFT_PAT_TYPED,     /* the pattern that follows, of dtype a
	                                   (DT_COUNT: any) */
	RP_ALT = GRAFT_PAT_ALT,         /* any of the n that follow */
	RP_REF = GRAFT_PAT_REF,         /* the entry at p + a (a <= 0), of which
	                                   this one is a part: a recursive
	                                   pattern, matched again one node down */
} RwPatKind;

/* How far rw_pat() follows a pattern: entries tried, and nesting (a
** recursive pattern down a chain of nodes); beyond, it does not match. */
enum { RW_PATSTEPS = 1 << 22, RW_PATDEPTH = 10000 };

enum {
	RPF_COMM = GRAFT_PAT_COMM,      /* RP_CALL: operands 0 and 1 either way round */
	RPF_REST = GRAFT_PAT_REST,      /* at least n operands or fields */
};

/* Whether pattern p matches node x; names are captured in caps[0..ncaps)
** (may be NULL when p has none). */
int rw_pat(Rw *rw, const RwPat *p, NodeId x, NodeId *caps, uint32_t ncaps);

/* dominates(parent, path, child), at child (which matched C): walking up
** from child's operands, every operand is the one node that matches
** parent, or matches path and is walked through in turn; and child
** post-dominates that region (every use of its nodes is in it, or is
** child).  Returns the parent, with parent's names captured in caps, and
** the region (path nodes and parent) in rw->dom; or 0. */
NodeId rw_dominator(Rw *rw, NodeId child, const RwPat *parent, const RwPat *path, NodeId *caps, uint32_t ncaps);

/* A target's entry with a dominator pattern: rw_report() of the nodes
** of its match and of the region rw_dominator() found. */
void rw_report_dom(Rw *rw, uint32_t rule, const NodeId *nodes, uint32_t n, int ok);

/* ---------------------------------------------------------------- guards */

/* The guard helpers set rw->gfail when their question has no answer (the
** rank of a tuple, the value of a non-scalar); the guard is then false. */
int64_t rw_rank(Rw *rw, NodeId n);
int64_t rw_numel(Rw *rw, NodeId n);
int64_t rw_dim(Rw *rw, NodeId n, int64_t i);
double rw_value(Rw *rw, NodeId n);
/* the value every element of constant n has (a splat; a scalar is one) */
double rw_splat(Rw *rw, NodeId n);
/* fn is a function literal whose attribute key equals literal lit of the
** ruleset (a pattern's fn(..., Composite="add") { ... }) */
int rw_func_attr_is(Rw *rw, NodeId fn, const char *key, uint32_t lit);
/* n is a constant of one element, of dtype dt, whose value is v (a
** pattern's const(LIT)) */
int rw_const_is(Rw *rw, NodeId n, int dt, double v);
int64_t rw_attr_ints_at(Rw *rw, NodeId n, int k, int64_t i);
double rw_attr_num(Rw *rw, NodeId n, int k);
/* graph.h's answers (ir/graph.c), under the names the driver knows */
static inline int rw_is_scalar(const Module *m, NodeId n) { return graft_is_scalar(m, n); }
static inline int rw_is_splat(const Module *m, NodeId n) { return graft_is_splat(m, n); }
static inline int
rw_shape_eq(const Module *m, NodeId n, const int64_t *dims, uint32_t rank)
{
	return graft_shape_eq(m, n, dims, rank);
}
static inline int
rw_attr_ints_eq(const Module *m, NodeId n, int k, const int64_t *v, uint32_t len)
{
	return graft_attr_ints_eq(m, n, k, v, len);
}
static inline int rw_attr_isnone(const Module *m, NodeId n, int k) { return graft_attr_isnone(m, n, k); }
int64_t rw_idiv(Rw *rw, int64_t a, int64_t b);
int64_t rw_imod(Rw *rw, int64_t a, int64_t b);

/* ---------------------------------------------------------------- building */

/* Builders return 0 and set rw->gfail when an operand is 0 or a value
** cannot be represented; new nodes take the location of rw->root. */
AttrId rw_attrs(Rw *rw, OpId op);                     /* the defaults */
AttrId rw_attrs_copy(Rw *rw, OpId op, NodeId from);   /* from's attributes */
void rw_set_i(Rw *rw, AttrId a, int k, int64_t v);
void rw_set_f(Rw *rw, AttrId a, int k, double v);
void rw_set_b(Rw *rw, AttrId a, int k, int v);
void rw_set_dtype(Rw *rw, AttrId a, int k, int dt);
void rw_set_sym(Rw *rw, AttrId a, int k, Sym s);
void rw_set_lit(Rw *rw, AttrId a, int k, uint32_t j);
void rw_set_from(Rw *rw, AttrId a, int k, NodeId n, int kn);
NodeId rw_call(Rw *rw, OpId op, const NodeId *args, uint32_t nargs, AttrId attrs);
/* rw_call(), for a result whose operands are those of d, a matched call
** of the same op, in order: while only the match uses d (d and each node
** of path, the matched nodes between the root and d, have one use), d
** itself takes the attributes and is returned; the root's replacement
** then leaves d alive and kills the rest.  Otherwise as rw_call(). */
NodeId rw_call_in_place(Rw *rw, OpId op, const NodeId *args, uint32_t nargs, AttrId attrs, NodeId d,
                        const NodeId *path, uint32_t npath);
NodeId rw_scalar_i(Rw *rw, int dt, int64_t v);
NodeId rw_scalar_f(Rw *rw, int dt, double v);
NodeId rw_getitem(Rw *rw, NodeId t, uint32_t i);
void rw_tb_begin(Rw *rw, uint32_t *mark);
void rw_tb_add(Rw *rw, NodeId n);
void rw_tb_rest(Rw *rw, NodeId t, uint32_t start);
/* rw_tb_rest, but for the last end fields of t: a rest before fields */
void rw_tb_rest_to(Rw *rw, NodeId t, uint32_t start, uint32_t end);
NodeId rw_tb_end(Rw *rw, uint32_t mark);
NodeId rw_fold(Rw *rw, NodeId n);
/* Whether r, the result a rule built for rw->root, is the root itself or a
** new node of the same kind, op, attributes and operands: no rewrite (TVM's
** callback returning its match), so the rule declines and matching goes
** on with the next.  The nodes built for r are deleted then.  A dry run's
** or a fold's result is never unchanged. */
int rw_unchanged(Rw *rw, NodeId r);
/* fold_const(R): n is a result R just built; its new nodes are typed, it is
** evaluated as rw_fold() does, and those nodes are deleted again */
NodeId rw_fold_new(Rw *rw, NodeId n);

#ifdef __cplusplus
}
#endif

#endif
