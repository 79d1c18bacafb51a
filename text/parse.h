/*
** parse.h: the state shared by the Relay text lexer (text/relay_lex.re) and
** grammar (grammar/relay.y).  Not for use outside those two and parse.c.
**
** Semantic values hold no heap memory: nodes, types and attributes go
** straight into the Module, and lists live on the Parser's stacks, named
** by (start, count).  So the grammar needs no %destructor, and error
** recovery cannot leak.
*/
#ifndef GRAFT_PARSE_H
#define GRAFT_PARSE_H

#include "ir.h"

/* A list on one of the Parser's stacks: nodes, types, dims or attribute
** values.  For scope_open, start is Parser.nscope and n the fnbase to
** restore. */
typedef struct List {
	uint32_t start, n;
} List;

/* A call's operands or a function's parameters, and their attributes:
** two ranges, kept on Parser.args and named by index in the grammar. */
typedef struct Args {
	uint32_t start, n;      /* on Parser.nodes */
	uint32_t astart, an;    /* on Parser.avals */
} Args;

/* a literal as lexed: value and dtype from its suffix */
typedef struct Num {
	union {
		int64_t i;
		double f;
	} v;
	uint8_t dtype;      /* DType: int32 and float32 when unsuffixed */
	uint8_t isfloat;
} Num;

typedef struct Str {
	const char *p;
	uint32_t n;
} Str;

/* A name or string token: off is into the source, or, with TOK_ESC set,
** into Parser.esc for a string with escapes.  p_strp() gives the text. */
typedef struct Tok {
	uint32_t off, n;
} Tok;
#define TOK_ESC 0x80000000u

/* An inline constant's data as the lexer read it whole (CONSTDATA; see
** relay_lex.re's constdata()): its numbers, row-major, and its shape.
** While the token is pending, [start, end) is its text, '[' to ']'. */
typedef struct ConstData {
	Num *v; uint32_t n, cap;
	int rank;
	int64_t dims[8];
	const char *start, *end;    /* end is NULL when no token is pending */
} ConstData;

/* Parser.nums is a ring: a number token is reduced at most one lookahead
** token after it is read. */
#define NNUMS 4

/* A name in scope.  A graph temporary %N as the printer makes them (see
** parse.c's numname()) is kept by its number, in Parser.numbind, and not
** interned; any other name by its Sym, in Parser.symbind. */
typedef struct Binding {
	Sym name;           /* 0 when num is set */
	uint32_t num;       /* N + 1 for %N; 0 for a Sym */
	NodeId node;        /* 0 if its value had an error */
	uint8_t isparam;
	Loc loc;
	uint32_t shadowed;  /* Parser.symbind[name] (numbind[N]) before this binding */
} Binding;

typedef struct Parser {
	Module *m;
	Diag *d;
	uint16_t file;
	const char *src, *end;      /* the text, NUL-terminated copy */
	const char *cur, *tok;      /* re2c cursor and token start */
	const char *mark;           /* re2c backtracking marker */
	const char *linestart;
	uint32_t line;
	int in_ann;                 /* inside a ty= annotation comment */
	int stopped;                /* saw #[metadata]: report end of input */
	int atbind;                 /* the last token was ';' or '{' (see relay_lex.re's fastlines()) */
	int syntaxerr;              /* yyerror() was called: the fast path is off for good */
	int depth;                  /* brackets ( [ { lexed and not yet closed */
	/* stacks named by List values */
	NodeId *nodes; uint32_t nnodes, capnodes;
	AttrVal *avals; uint32_t navals, capavals;
	Loc *alocs; uint32_t capalocs;          /* parallel to avals */
	TypeId *types; uint32_t ntypes, captypes;
	int64_t *dims; uint32_t ndims, capdims;
	/* scopes: bindings visible now, innermost last */
	Binding *scope; uint32_t nscope, capscope;
	uint32_t *symbind; uint32_t capsymbind;  /* Sym -> innermost binding + 1 */
	uint32_t *numbind; uint32_t capnumbind;  /* N of %N -> innermost binding + 1 */
	uint32_t fnbase;            /* first binding of the innermost function */
	NodeId *metas; uint32_t capmetas;       /* meta[relay.Constant][N] nodes by N */
	uint32_t *keyseen; uint32_t capkeyseen; /* Sym -> stamp of the attribute list that has it */
	uint32_t keystamp;
	char *esc; uint32_t nesc, capesc;       /* unescaped strings */
	Num nums[NNUMS]; uint32_t nnums;        /* number tokens, by Tok index */
	Args *args; uint32_t nargs, capargs;    /* Args values of the grammar */
	const char *constend;       /* just after the last 'const' lexed, or NULL */
	ConstData cdata;            /* the last CONSTDATA token's */
	OpId opcache[256];          /* ops looked up, by name hash; see lookupop() */
} Parser;

/* Bison's location type: where a symbol starts, as diagnostics give it
** (Loc, with the file).  Eight bytes, written whole by the lexer and
** copied whole: Bison copies one per shift and per reduction.  Nothing
** reads where a symbol ends, so a rule's location is its first symbol's,
** or for an empty rule the start of the symbol before it
** (YYLLOC_DEFAULT); the actions read tyann_opt's location, the one empty
** rule's they read, only when it is not empty. */
typedef Loc YYLTYPE;
#define YYLTYPE_IS_DECLARED 1
#define YYLLOC_DEFAULT(cur, rhs, n) ((cur) = YYRHSLOC((rhs), (n) ? 1 : 0))

/* ir_parse_loc: the Loc of a grammar location */
static inline Loc
ir_parse_loc(const Parser *p, const YYLTYPE *l)
{
	(void)p;
	return *l;
}

static inline const char *
p_strp(const Parser *p, Tok t)
{
	return t.off & TOK_ESC ? p->esc + (t.off & ~TOK_ESC) : p->src + t.off;
}

#endif
