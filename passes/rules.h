/*
** rules.h: what graftc's generated matchers, and the extern predicates and
** actions their rules call, use of graft: included alone (with graph.h
** and kernel.h) by a matcher compiled outside graft, linked against
** libgraft's exported graft_ functions.  Installed as <graft/rules.h>.
**
** A compiled ruleset or target table is a graft_matcher.  Its match()
** gets a graft_rw, one rewrite's (or partitioning's) state, and a node; it
** reads the graph through <graft/graph.h> (graft_rw_ir()), and asks guard
** questions and builds results with graft_rw_ functions.  Those that
** cannot answer mark the rule failed (graft_rw_failed() until
** graft_rw_clear()).  Ops are named by the matcher's local ids, bound by
** name and schema fingerprint where the code runs: graft may add, remove
** or reorder ops; a matcher whose ops are missing or changed matches
** nothing, and graft says why.
*/
#ifndef GRAFT_RULES_H
#define GRAFT_RULES_H

#include <stdint.h>

#include "graph.h"
#include "kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct graft_rw graft_rw;       /* one rewrite's state */
typedef uint16_t graft_op;              /* an op, by a matcher's local id */
typedef uint32_t graft_attrs;           /* attributes being built */

/* What an entry of a matcher's table is. */
enum {
	GRAFT_RULE,             /* a rewrite rule */
	GRAFT_COMPOSITE,        /* a target's composite pattern */
	GRAFT_SUPPORTS,         /* a single op a target supports */
};

typedef struct graft_rule_info {
	const char *name;       /* its name, or "file:line"; supports: the op */
	const char *file;       /* the .rules file */
	uint32_t line;
	int kind;               /* GRAFT_RULE, GRAFT_COMPOSITE, GRAFT_SUPPORTS */
	int prio;               /* its `priority N` (0 when none): higher first */
} graft_rule_info;

/* An op a matcher names: its name, its local id (1, 2, ... in the order
** of the matcher's ops table), and the fingerprint of the operand count
** and attribute schema it was compiled against (the code reads attributes
** by their index in the schema). */
typedef struct graft_rule_op {
	const char *name;
	graft_op local;
	uint32_t schema;
} graft_rule_op;

/* A ruleset (target 0) or a target's pattern table (target 1), as graftc
** generates it: `const graft_matcher graft_ruleset_NAME`. */
typedef struct graft_matcher {
	const char *name;       /* from `ruleset NAME` or `target "NAME"` */
	const char *source;     /* the .rules file it was generated from */
	uint32_t nrules;
	const graft_rule_info *rules;   /* in file order */
	uint32_t nstrs;         /* strings compared as interned symbols */
	const char *const *strs;
	uint32_t nlits;         /* attribute literals in Relay syntax */
	const char *const *lits;
	/* Tries the rules rooted at n; returns the replacement and sets
	** *rule, or returns 0.  A target table's match() returns 0 and reports
	** every entry whose pattern matches at n (graft_rw_report()). */
	graft_node (*match)(graft_rw *rw, graft_node n, uint32_t *rule);
	int target;
	/* what match() can match at: calls of the ops roots[0..nroots) (local
	** ids), and tuples or projections where rootkinds has
	** 1 << GRAFT_NK_TUPLE or 1 << GRAFT_NK_GETITEM; roots NULL: every
	** call, tuple and projection */
	uint32_t nroots;
	const graft_op *roots;
	unsigned rootkinds;
	const void *impl;       /* graft's own: NULL in generated code */
	/* the ops it names, by local id */
	uint32_t nops;
	const graft_rule_op *ops;
} graft_matcher;

/* ---------------------------------------------------------------- reading */

/* The module being rewritten, for <graft/graph.h>'s questions. */
const graft_ir *graft_rw_ir(const graft_rw *rw);
/* The local id of the op n calls, or 0 (or an id no local id has) when n
** is no call of an op the matcher names; and the op here of local id l,
** for building. */
graft_op graft_rw_lop(const graft_rw *rw, graft_node n);
graft_op graft_rw_gop(const graft_rw *rw, graft_op l);
/* String i of the matcher's strs, interned in the module: what
** graft_attr_s() gives for an attribute of that text. */
graft_sym graft_rw_sym(const graft_rw *rw, uint32_t i);
/* Whether VAR n is named string i of the matcher's strs. */
int graft_rw_name_is(const graft_rw *rw, graft_node n, uint32_t i);
/* Whether attribute k of n equals literal j of the matcher's lits. */
int graft_rw_attr_lit(const graft_rw *rw, graft_node n, int k, uint32_t j);
/* Whether fn is a function or call of one whose attribute key equals literal lit. */
int graft_rw_func_attr_is(graft_rw *rw, graft_node fn, const char *key, uint32_t lit);
/* Whether n is a constant of one element of dtype dt whose value is v. */
int graft_rw_const_is(graft_rw *rw, graft_node n, int dt, double v);

/* ---------------------------------------------------------------- guards */

/* Guard helpers: each marks the rule failed when its question has no
** answer (the rank of a tuple, the value of a non-scalar, a division by
** zero), and the guard is then false. */
void graft_rw_clear(graft_rw *rw);
int graft_rw_failed(const graft_rw *rw);
int64_t graft_rw_rank(graft_rw *rw, graft_node n);
int64_t graft_rw_numel(graft_rw *rw, graft_node n);
int64_t graft_rw_dim(graft_rw *rw, graft_node n, int64_t i);
double graft_rw_value(graft_rw *rw, graft_node n);
double graft_rw_splat(graft_rw *rw, graft_node n);
int64_t graft_rw_attr_ints_at(graft_rw *rw, graft_node n, int k, int64_t i);
double graft_rw_attr_num(graft_rw *rw, graft_node n, int k);
int64_t graft_rw_idiv(graft_rw *rw, int64_t a, int64_t b);
int64_t graft_rw_imod(graft_rw *rw, int64_t a, int64_t b);

/* Reports entry rule of a target table as matching at the node being
** matched, covering nodes[0..n) (the root first), its guard ok or not.
** graft_rw_report_dom: the same for an entry with a dominator pattern,
** adding the region graft_rw_dominator() found. */
void graft_rw_report(graft_rw *rw, uint32_t rule, const graft_node *nodes, uint32_t n, int ok);
void graft_rw_report_dom(graft_rw *rw, uint32_t rule, const graft_node *nodes, uint32_t n, int ok);
/* Whether the driver is partitioning (it takes reports) rather than
** rewriting: a table with rewrite rules runs them only when it is not. */
int graft_rw_reporting(const graft_rw *rw);

/* ---------------------------------------------------------------- patterns as data */

/* A pattern as a table, for what a decision tree cannot hold: the parent
** and path of dominates(P, Q, C), a pattern that uses itself.  Prefix
** order: each entry, then its parts; p + p->size is the next sibling. */
enum {
	GRAFT_PAT_ANY,          /* _ */
	GRAFT_PAT_CONST,        /* const */
	GRAFT_PAT_VAR,          /* var */
	GRAFT_PAT_NAME,         /* caps[a] (equal if set); n = 1: of what follows */
	GRAFT_PAT_CALL,         /* local op a: nattr ATTRs, then n operands */
	GRAFT_PAT_ANYCALL,      /* any op (of GRAFT_OPK_ a, or -1), n operands */
	GRAFT_PAT_ATTR,         /* attribute a equals literal b */
	GRAFT_PAT_TUPLE,        /* a tuple of n fields (at least n: REST) */
	GRAFT_PAT_GETITEM,      /* field a (-1: any) of the tuple that follows */
	GRAFT_PAT_TYPED,        /* what follows, of dtype a (GRAFT_DT_OTHER: any) */
	GRAFT_PAT_ALT,          /* any of the n that follow */
	GRAFT_PAT_REF,          /* the entry a (<= 0) entries away, again: recursion */
};
/* CALL: operands 0 and 1 either way round; at least n operands or fields */
enum { GRAFT_PAT_COMM = 1, GRAFT_PAT_REST = 2 };
typedef struct graft_pat {
	uint8_t kind;           /* GRAFT_PAT_* */
	uint8_t flags;          /* GRAFT_PAT_COMM, GRAFT_PAT_REST */
	uint8_t nattr;
	uint16_t n;
	uint32_t size;
	int32_t a;
	uint32_t b;
} graft_pat;

/* Whether pattern p matches x; names captured in caps[0..ncaps). */
int graft_rw_pat(graft_rw *rw, const graft_pat *p, graft_node x, graft_node *caps, uint32_t ncaps);
/* dominates(parent, path, child) at child: walking up from child's
** operands, each is the one node matching parent, or matches path and
** is walked through; child post-dominates the region.  Returns the
** parent, its names in caps; or 0. */
graft_node graft_rw_dominator(graft_rw *rw, graft_node child, const graft_pat *parent, const graft_pat *path,
                              graft_node *caps, uint32_t ncaps);

/* Whether v was built by the result of `once` rule rule; and, as such a
** rule fires, graft_rw_once() has the driver mark what it builds. */
int graft_rw_onced(const graft_rw *rw, graft_node v, uint32_t rule);
void graft_rw_once(graft_rw *rw);

/* ---------------------------------------------------------------- building */

/* Builders return 0 and mark the rule failed when an operand is 0 or a
** value cannot be represented; new nodes take the root's location.  Ops
** are what graft_rw_gop() gives; dtypes GRAFT_DT_ codes. */
graft_attrs graft_rw_attrs(graft_rw *rw, graft_op op);              /* the defaults */
graft_attrs graft_rw_attrs_copy(graft_rw *rw, graft_op op, graft_node from);
void graft_rw_set_i(graft_rw *rw, graft_attrs a, int k, int64_t v);
void graft_rw_set_f(graft_rw *rw, graft_attrs a, int k, double v);
void graft_rw_set_b(graft_rw *rw, graft_attrs a, int k, int v);
void graft_rw_set_dtype(graft_rw *rw, graft_attrs a, int k, int dt);
void graft_rw_set_sym(graft_rw *rw, graft_attrs a, int k, graft_sym s);
void graft_rw_set_lit(graft_rw *rw, graft_attrs a, int k, uint32_t j);
void graft_rw_set_from(graft_rw *rw, graft_attrs a, int k, graft_node n, int kn);
graft_node graft_rw_call(graft_rw *rw, graft_op op, const graft_node *args, uint32_t nargs, graft_attrs attrs);
/* graft_rw_call() of a result whose operands are those of d, a matched
** call of the same op: d itself is reused while only the match (d and
** path[0..npath)) uses it. */
graft_node graft_rw_call_in_place(graft_rw *rw, graft_op op, const graft_node *args, uint32_t nargs,
                                  graft_attrs attrs, graft_node d, const graft_node *path, uint32_t npath);
graft_node graft_rw_scalar_i(graft_rw *rw, int dt, int64_t v);
graft_node graft_rw_scalar_f(graft_rw *rw, int dt, double v);
graft_node graft_rw_getitem(graft_rw *rw, graft_node t, uint32_t i);
/* a tuple: begin, add fields (or the fields start .. of t, or those but
** the last end), end */
void graft_rw_tb_begin(graft_rw *rw, uint32_t *mark);
void graft_rw_tb_add(graft_rw *rw, graft_node n);
void graft_rw_tb_rest(graft_rw *rw, graft_node t, uint32_t start);
void graft_rw_tb_rest_to(graft_rw *rw, graft_node t, uint32_t start, uint32_t end);
graft_node graft_rw_tb_end(graft_rw *rw, uint32_t mark);
/* fold_const: the root evaluated; n, a result just built, evaluated */
graft_node graft_rw_fold(graft_rw *rw, graft_node n);
graft_node graft_rw_fold_new(graft_rw *rw, graft_node n);
/* Whether r, the result built for the root, is the root unchanged: the
** rule then declines, and what was built for r is deleted. */
int graft_rw_unchanged(graft_rw *rw, graft_node r);

/* ---------------------------------------------------------------- extern predicates and actions */

/* A rule's extern predicate NAME(a, b, ...) and action NAME(...) are the
** program's or plugin's functions
**
**   int graft_pred_NAME(graft_rw *rw, graft_node root, graft_node a, ...);
**   graft_node graft_action_NAME(graft_rw *rw, graft_node root, graft_node a, ...);
**
** exported (GRAFT_EXPORT) when the plugin hides its symbols, as rules
** loaded at run time find them by name. */
#ifndef GRAFT_EXPORT
#if defined(__GNUC__)
#define GRAFT_EXPORT __attribute__((visibility("default")))
#else
#define GRAFT_EXPORT
#endif
#endif

#ifdef __cplusplus
}
#endif

/* graft's own build (GRAFT_BUILDING, Makefile.am) reads through inline
** code instead: the generated matchers compiled into libgraft lose
** nothing to calls.  A plugin calls the functions above. */
#ifdef GRAFT_BUILDING
#include "rwfast.h"
#endif

#endif
