/*
** dparse.h: state shared by the rules lexer (dsl/lex.re), grammar
** (grammar/rules.y) and its actions (dsl/parse.c).
**
** Semantic values hold no heap memory: AST nodes and lists live in the
** Rules arena, so the grammar needs no %destructor and error recovery
** cannot leak.
*/
#ifndef GRAFT_DPARSE_H
#define GRAFT_DPARSE_H

#include "dsl.h"

/* A list of AST nodes, grown inside the arena. */
typedef struct AList {
	Ast **v;
	uint32_t n, cap;
} AList;

/* A literal as lexed, and a name or string: the token values. */
typedef struct RNum {
	int64_t i;
	double f;
	uint8_t dtype;      /* from the suffix: int32 and float32 by default */
} RNum;

typedef struct RStr {
	const char *p;      /* into the source text */
	uint32_t n;
} RStr;

typedef struct RuleHead {
	const char *name;       /* NULL for an unnamed rule */
	Loc loc;
	int prio;
	double tol;             /* `within TOL`; 0: exact */
	int once;               /* `once` */
	int finite;             /* `finite` */
} RuleHead;

typedef struct DParser {
	Rules *r;
	uint16_t file;
	const char *path;
	const char *src, *end, *cur, *tok, *mark, *linestart;
	uint32_t line;
	int depth;              /* open ( and [ : newlines inside do not end items */
	int last;               /* the last token returned */
} DParser;

/* A location: Bison's four fields, and the byte offsets of its first
** character and past its last one in the file's text (a rule's text is
** quoted from them in generated code). */
typedef struct DLTYPE {
	int first_line, first_column, last_line, last_column;
	uint32_t first_off, last_off;
} DLTYPE;
#define DLTYPE_IS_DECLARED 1
#define DLTYPE_IS_TRIVIAL 1
#define YYLLOC_DEFAULT(cur, rhs, n) do { \
		if (n) { \
			(cur).first_line = YYRHSLOC(rhs, 1).first_line; \
			(cur).first_column = YYRHSLOC(rhs, 1).first_column; \
			(cur).first_off = YYRHSLOC(rhs, 1).first_off; \
			(cur).last_line = YYRHSLOC(rhs, n).last_line; \
			(cur).last_column = YYRHSLOC(rhs, n).last_column; \
			(cur).last_off = YYRHSLOC(rhs, n).last_off; \
		} else { \
			(cur).first_line = (cur).last_line = YYRHSLOC(rhs, 0).last_line; \
			(cur).first_column = (cur).last_column = YYRHSLOC(rhs, 0).last_column; \
			(cur).first_off = (cur).last_off = YYRHSLOC(rhs, 0).last_off; \
		} \
	} while (0)

Loc dsl_loc(const DParser *p, const DLTYPE *l);
AList dsl_list1(DParser *p, Ast *a);
AList dsl_list_add(DParser *p, AList l, Ast *a);

#endif
