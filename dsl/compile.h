/*
** compile.h: decision trees, shared by dsl/compile.c (which builds them)
** and dsl/emit.c (which renders them as C).
*/
#ifndef GRAFT_COMPILE_H
#define GRAFT_COMPILE_H

#include "dsl.h"
#include "rewrite.h"

typedef enum StepKind {
	S_LOAD,         /* v = operand k of v2 (k = -1: its last, a function's
	                   body) */
	S_OP,           /* v is a call of op n */
	S_KIND,         /* v is a node of kind k (NK_CONST, NK_VAR, NK_TUPLE, NK_GETITEM) */
	S_NARGS,        /* v has n operands (at least n if atleast) */
	S_INDEX,        /* the projection v takes field n */
	S_ATTR,         /* attribute k of the call v (of op) equals the literal lit */
	S_ATTREQ,       /* attribute k of v equals attribute k2 of v2 */
	S_SAME,         /* v and v2 are the same node */
	S_TYPE,         /* v's type meets the constraint lit (an A_TYPED) */
	S_OPKIND,       /* the call v's op has OpKind n */
	S_VARNAME,      /* the graph input v is named lit->s (an A_VAR) */
	S_CVALUE,       /* the constant v is a scalar of lit's dtype and value */
	S_FATTR,        /* the function literal v has attribute lit->s equal
	                   to lit->kid[0] (lit an A_ATTR) */
	S_RPAT,         /* v matches the recursive pattern lit (an A_REC), as
	                   data (rw_pat) */
	S_LEAF,         /* run the guard and result of a rule's variant */
} StepKind;

typedef struct Step {
	uint8_t kind;           /* StepKind */
	uint8_t atleast;
	int k, k2;
	int64_t n;
	const char *v, *v2;     /* C variables named by operand path */
	const Ast *lit;
	OpId op;
} Step;

/* One variant as a row of the decision tree: its steps in order (loads
** before the tests that need them), then its leaf. */
typedef struct Row {
	const Step **steps;     /* pending steps, in order */
	uint32_t nsteps;
	Rule *rule;
	uint32_t variant;
	uint32_t prio;          /* the row's place in priority order */
} Row;

typedef enum DKind {
	D_TEST,         /* loads, then test: yes when it holds, else no */
	D_LEAF,         /* loads, then the variant's guard and result; next when
	                   they do not return (a target's leaves never do) */
	D_SHARED,       /* what is left is the subtree yes, which other paths
	                   reach too: it loads all it needs itself */
} DKind;

/* A node of a decision tree.  A NULL subtree means nothing more can match:
** the matcher returns. */
typedef struct DNode {
	uint8_t kind;           /* DKind */
	const Step **loads;     /* variables loaded first, none loaded before */
	uint32_t nloads;
	const Step *test;       /* D_TEST */
	struct DNode *yes, *no; /* D_TEST; D_SHARED: yes */
	Rule *rule;             /* D_LEAF */
	uint32_t variant;
	struct DNode *next;     /* D_LEAF */
	uint32_t prio;          /* the first row under this node */
	uint32_t hash;          /* of what is left to decide at this node, by
	                           content: names the functions a tree is split
	                           into, the same whatever else the file holds */
} DNode;

/* The tree of one root: a call of op, or a tuple or projection. */
typedef struct Tree {
	int kind;               /* NK_CALL, NK_TUPLE or NK_GETITEM */
	OpId op;
	Row *rows;              /* every variant rooted here, in priority order */
	uint32_t nrows, caprows;
	DNode *root;            /* NULL: no rows */
	uint32_t nnodes;
} Tree;

/* When the result of variant var of rule ru (its steps: row r) is a call
** of the same op as a matched node d below the root, whose operands are
** d's operands 0..n-1 in order, the driver may build it in place of d
** (rw_call_in_place): *d, and the matched nodes between the root and d
** into chain[0..max), nearest the root first; returns their count, or -1
** if the result cannot be built in place. */
int dsl_inplace(const Rule *ru, const Variant *var, const Row *r, const char **d, const char **chain, uint32_t max);

/* A dominator's parent or path (rw_pat() data) as the arena holds it:
** n entries; lits[i] the literal of entry i when it is an RP_ATTR; the
** parent's names are numbered in caps, first use first, their capture
** slots. */
typedef struct DomPat {
	RwPat *v;
	const Ast **lits;
	uint32_t n, cap;
	/* the recursive patterns (A_REC) being written, for their A_RREFs */
	const char *rec[16];
	uint32_t recat[16], nrec;
} DomPat;
void dsl_rwpat(Rules *r, const Ast *a, DomPat *out, NameMap *caps);
/* The parent and path of dominator pattern dom (an A_DOM) as rw_pat()
** data; returns how many names the parent captures.  dsl_domfree()
** frees both. */
uint32_t dsl_domparts(Rules *r, const Ast *dom, DomPat *parent, DomPat *path);
void dsl_domfree(DomPat *parent, DomPat *path);

#endif
