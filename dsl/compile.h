/*
** compile.h: decision trees, shared by dsl/compile.c (which builds them)
** and dsl/emit.c (which renders them as C).
*/
#ifndef GRAFT_COMPILE_H
#define GRAFT_COMPILE_H

#include "dsl.h"

typedef enum StepKind {
	S_LOAD,         /* v = operand k of v2 */
	S_OP,           /* v is a call of op n */
	S_KIND,         /* v is a node of kind k (NK_CONST, NK_VAR, NK_TUPLE, NK_GETITEM) */
	S_NARGS,        /* v has n operands (at least n if atleast) */
	S_INDEX,        /* the projection v takes field n */
	S_ATTR,         /* attribute k of the call v (of op) equals the literal lit */
	S_ATTREQ,       /* attribute k of v equals attribute k2 of v2 */
	S_SAME,         /* v and v2 are the same node */
	S_TYPE,         /* v's type meets the constraint lit (an A_TYPED) */
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

typedef struct TNode {
	Step step;
	struct TNode **kids;    /* tried in order */
	uint32_t nkids, capkids;
	Rule *rule;             /* S_LEAF */
	uint32_t variant;
} TNode;

/* The tree of one root: a call of op, or a tuple or projection. */
typedef struct Tree {
	int kind;               /* NK_CALL, NK_TUPLE or NK_GETITEM */
	OpId op;
	TNode root;             /* its kids are the first steps */
} Tree;

#endif
