/*
** dsl.h: graftc, the rules compiler.  One header for its stages:
**
**   dsl_parse    rules text -> Rules (lexer dsl/lex.re, grammar grammar/rules.y)
**   dsl_check    names, ops, arity, attributes, bindings, guards, results,
**                duplicates, hidden rules, result dtypes
**   dsl_compile  rules -> variants (alternation, optional nodes and
**                commutativity expanded) -> one decision tree per root op
**   dsl_guards   each variant's guard and result: what code cannot
**                evaluate (dsl_emit runs it first; interp/ instead of it)
**   dsl_emit     decision trees -> C source, built as data, rendered once
**
** Ownership: a Rules owns everything reachable from it through its arena
** (AST, variants, trees); dsl_rules_free() releases it all at once.  It
** borrows a Module for interned names, file names and attribute literals.
*/
#ifndef GRAFT_DSL_H
#define GRAFT_DSL_H

#include "ir.h"

typedef struct Ast Ast;

/* The type of a guard expression, as dsl_check infers it. */
typedef enum VType {
	V_BAD, V_INT, V_FLOAT, V_BOOL, V_STR, V_LIST, V_NONE,
	V_ANY,          /* an attribute whose type varies (optional, int or list) */
	V_NODE, V_REST
} VType;

typedef enum AstKind {
	/* patterns */
	A_ANY,          /* _ */
	A_CONST,        /* const */
	A_VAR,          /* var */
	A_NAME,         /* s: a name; binds on first use, must be equal after */
	A_BIND,         /* s:kid[0] */
	A_CALL,         /* s(kid...): an op (op != 0), a sub-pattern, a builtin
	                   or extern in expressions; AF_OPTIONAL for op?(...) */
	A_ALT,          /* kid[0] | kid[1] | ... */
	A_TUPLE,        /* (kid...) */
	A_GETITEM,      /* kid[0].i */
	A_TYPED,        /* kid[0]<type>: dtype (DT_COUNT = any), rank and dims
	                   in kid[1] (an A_LIST of A_INT, -1 = any) or none */
	A_REST,         /* ... (s == NULL) or s... in an argument list */
	A_ATTR,         /* s=kid[0] in a call's argument list */
	A_ATTRS,        /* attrs(s) in a result call's argument list */
	/* literals */
	A_INT,          /* i; dtype from the suffix (DT_INT32 when none) */
	A_FLOAT,        /* f; dtype from the suffix (DT_FLOAT32 when none) */
	A_STR,          /* s */
	A_BOOL,         /* i */
	A_NONE,
	A_LIST,         /* [kid...] */
	/* guard and result expressions */
	A_UNOP,         /* i = operator token, kid[0] */
	A_BINOP,        /* i = operator token, kid[0] op kid[1] */
	A_INDEX,        /* kid[0][kid[1]] */
	A_FOLD,         /* fold_const: the match (nkid 0), or kid[0] built
	                   then evaluated (fold_const(R)) */
	/* patterns, made by dsl_check from calls */
	A_ANYCALL,      /* _(kid...): a call of any op; i = the OpKind it must
	                   have (TOpPattern="..."), or -1 */
	A_DOM,          /* dominates(kid[0], kid[1], kid[2]): parent, path,
	                   child; kid[3] is the parent as written (kid[0] is
	                   one of its variants) */
	A_FN,           /* fn(params and attributes) { kid[nkid - 1] }: a
	                   function literal */
	A_CALLFN,       /* call(kid[0], kid[1], ...): a call of a function
	                   value or global kid[0] */
	A_GLOBAL,       /* global("s"): the global function @s */
	A_REC,          /* the named pattern s (no parameters) that uses
	                   itself: kid[0] its body, expanded once, with A_RREF
	                   where it recurs; matched as data (RwPat) */
	A_RREF,         /* s: the enclosing A_REC called s, again, here */
} AstKind;

enum {
	AF_OPTIONAL = 1 << 0,   /* op?(...) */
	AF_TRAILING = 1 << 1,   /* (p,) : a 1-tuple, not a grouping */
	AF_SWAPPED = 1 << 2,    /* a commutative call with its first two
	                           arguments exchanged (a variant) */
	AF_NEGATED = 1 << 3,    /* a literal written with a minus sign */
};

struct Ast {
	uint8_t kind;           /* AstKind */
	uint8_t flags;          /* AF_* */
	uint8_t dtype;          /* literal suffix; A_TYPED: the dtype */
	uint8_t vt;             /* guard expressions: the type dsl_check gave */
	OpId op;                /* A_CALL of an op */
	Loc loc;
	const char *s;          /* name or string, NUL-terminated, in the arena */
	int64_t i;
	double f;
	Ast **kid;
	uint32_t nkid;
	/* what interp/ resolves before running a rule: a name's number
	** (A_NAME, A_ATTRS, A_REST), a string's or literal's index, a
	** builtin's code (A_CALL); and in k, a `name.attr`'s attribute index
	** (-1: none; -2: no '.'), or the dtype a string names */
	uint32_t id;
	int32_t k;
};

/* One alternation-free form of a rule's pattern, and what it binds. */
typedef struct Variant {
	Ast *pat;
	struct Bind *binds;     /* after dsl_compile */
	uint32_t nbinds;
	/* target tables, after dsl_compile: the C variables of the nodes the
	** variant matches by structure (calls, tuples, projections) and by
	** `const`, root first: what a composite outlines */
	const char **inner;
	uint32_t ninner;
} Variant;

/* A name bound by a variant, as generated code reaches it. */
typedef struct Bind {
	const char *name;
	int kind;               /* 0 node, 1 attribute of a call, 2 rest of a tuple */
	const char *var;        /* the C variable of the node (or call, or tuple) */
	int attr;               /* kind 1: the attribute index */
	uint32_t start;         /* kind 2: the first field in the rest */
	uint32_t end;           /* kind 2: the fields after the rest */
	OpId op;                /* kind 0: the op if the node is a matched call */
	const Ast *at;          /* the pattern that bound it */
	int used;               /* the guard or result reads it */
} Bind;

/* What an item of a .rules file is: a rewrite rule (a ruleset's), or an
** entry of a target's pattern table. */
typedef enum RuleKind {
	RK_RULE,                /* PATTERN [if GUARD] => RESULT */
	RK_COMPOSITE,           /* composite NAME: PATTERN [if GUARD] */
	RK_SUPPORTS,            /* supports PATTERN [if GUARD]: a single op */
} RuleKind;

typedef struct Rule {
	const char *name;       /* given, or "file:line"; supports: the op */
	Loc loc;
	int named;
	int prio;
	uint32_t order;         /* position in the file (includes first) */
	int kind;               /* RuleKind */
	Ast *pat, *guard, *result;   /* result: NULL in a target table */
	/* the pattern, guard and result as the author wrote them, on one
	** line (for comments in generated code); NULL where absent */
	const char *qpat, *qguard, *qresult;
	uint32_t nvariants;
	Variant *variants;
	uint32_t index;         /* in priority order: the id in generated code */
	double tol;             /* `within TOL`: graftc verify's tolerance; 0 exact */
	int once;               /* `once`: fires at no node its own results built */
	int finite;             /* `finite`: graftc verify gives it finite floats only */
} Rule;

typedef struct SubPat {
	const char *name;
	Loc loc;
	const char **params;
	uint32_t nparams;
	Ast *body;
	int expanding;          /* cycle check */
	int recursive;          /* it used itself while expanding (A_RREF) */
	int used;               /* a rule or pattern names it */
} SubPat;

typedef struct Extern {
	const char *name;
	Loc loc;
	uint32_t nparams;
	int action;             /* 1 action, 0 predicate */
	int used;               /* a guard or result calls it */
} Extern;

/* An `include "FILE"`: where it is, and the file it read. */
typedef struct Include {
	Loc loc;                /* the include item */
	uint16_t file;          /* the file it read (Module.files) */
} Include;

/* `extern op NAME(operands, attributes)`: an op a plugin registers (a
** target's fused op), declared so that graftc can check and compile rules
** that use it without the plugin.  The declaration and the registered op
** must agree on operands and attribute schema. */
typedef struct XOp {
	OpInfo info;            /* name, nargs, attrs (rel NULL) */
	Loc loc;
	OpId op;                /* the registered op it names */
} XOp;

typedef struct Rules {
	Module *m;
	Diag *d;
	Arena arena;
	const char *name;       /* from `ruleset NAME` or `target "NAME"` */
	int target;             /* 1: a target's pattern table */
	Loc nameloc;
	const char *path;       /* the top file, as given */
	Rule *rules;     uint32_t nrules, caprules;
	SubPat *pats;    uint32_t npats, cappats;
	Extern *exts;    uint32_t nexts, capexts;
	XOp *xops;       uint32_t nxops, capxops;
	Include *includes; uint32_t nincludes, capincludes;
	/* 1 (graftc): an `extern op` the registry lacks is registered from its
	** declaration, with no type relation; 0 (rules loaded at run time): a
	** plugin must have registered it */
	int declops;
	const char **incs; uint32_t nincs, capincs;   /* files read, for cycles */
	const char **incdirs; uint32_t nincdirs, capincdirs;  /* where includes are looked for */
	/* the top file's text when it is not read from disk (graftc lsp: an
	** editor's buffer); NULL: read the file */
	const char *overtext;
	size_t overlen;
	unsigned warn;          /* the W_ warnings reported (dsl_warning_flag) */
	int werror;             /* -Werror */
	struct Tree *trees;     /* per root op, after dsl_compile */
	uint32_t ntrees;
} Rules;

/* The warnings of dsl_check(), named as graftc's -W options take them. */
enum {
	W_UNUSED_BINDING = 1 << 0,      /* -Wunused-binding: a name bound and never read */
	W_UNUSED_PATTERN = 1 << 1,      /* -Wunused-pattern: a named pattern no rule uses */
	W_CONSTANT_GUARD = 1 << 2,      /* -Wconstant-guard: a guard whose value is known */
	W_UNUSED_INCLUDE = 1 << 3,      /* -Wunused-include: an include nothing of is used */
	W_SHADOWED_DTYPE = 1 << 4,      /* -Wshadowed-dtype: a rule an earlier one hides for some dtypes */
	W_ALL = (1 << 5) - 1,
};

/* Applies a -W option to r->warn and r->werror: -Wall, -Wno-all, -Werror,
** -Wno-error, -Wname, -Wno-name.  Returns 1, or 0 if arg is none of them. */
int dsl_warning_flag(Rules *r, const char *arg);

/* Parses path (and what it includes) into r.  Returns the error count.
** `include "F"` reads F relative to the including file; where there is no
** such file, in the folders given with dsl_include_dir(), in order, then
** in the shipped rulesets' folder (GRAFT_RULESDIR, where `make install`
** puts them). */
int dsl_parse(Rules *r, const char *path);
/* Adds dir (borrowed) to where includes are looked for. */
void dsl_include_dir(Rules *r, const char *dir);
/* Checks r; returns the error count (warnings are counted in r->d). */
int dsl_check(Rules *r);
/* Builds the variants and decision trees.  Returns the error count. */
int dsl_compile(Rules *r);
/* After dsl_compile: reports what in each variant's guard or result the
** generated code cannot evaluate (dsl/guards.c).  Returns the error count. */
int dsl_guards(Rules *r);
/* For `r.attr` of a call var matched, or a name var binds to an attribute
** of a call: the (first) bind of its call's name, with the op and the
** attribute's index in *op and *k; NULL if a is no attribute reference. */
const Bind *dsl_attrref(const Variant *var, const Ast *a, int *k, OpId *op);

typedef struct EmitOpts {
	const char *out;        /* the C file's name, for #line; NULL: stdout */
	const char *header;     /* the header's name, or NULL */
	int lines;              /* emit #line directives */
} EmitOpts;
/* Writes the C matcher (and header) for r. Returns 0, or -1 after a message. */
int dsl_emit(Rules *r, FILE *c, FILE *h, const EmitOpts *o);

/* The dtype of a scalar constructor name (float32, int8, ...), or DT_COUNT. */
DType dsl_scalar_ctor(const char *name);
/* Writes a pattern, guard or result in rules syntax. */
void dsl_print(FILE *f, const Ast *a);
/* The field of projection a as patterns write it: ".N", or "._" for any. */
void dsl_print_field(FILE *f, const Ast *a);

void dsl_rules_init(Rules *r, Module *m, Diag *d);
/* graftc fmt: text (len bytes) in canonical layout into *out (malloc'ed,
** *outlen bytes).  Returns 0, or -1 with why (a string or comment that
** does not end). */
int dsl_fmt(const char *text, size_t len, char **out, size_t *outlen, const char **why);

/* graftc lsp: a language server on in and out until the client exits;
** incdirs are graftc's -I folders.  Returns 0 after a shutdown request,
** else 1 (the protocol's exit code). */
int dsl_lsp(FILE *in, FILE *out, const char *const *incdirs, uint32_t ninc);

/* A literal (A_INT, A_FLOAT, A_STR, A_BOOL, A_NONE, A_LIST) as Relay text. */
void dsl_littext(const Ast *a, char *buf, size_t n);
/* Whether result res of a rule with pattern pat can be the node it
** matched, unchanged: res names pat's root, or is a call (tuple,
** projection) of the same op (kind) as pat's root.  Such a rule checks its
** result with rw_unchanged(). */
int dsl_may_unchange(const Ast *pat, const Ast *res);
/* The part of pattern a that a match is rooted at: a without names,
** type constraints and a dominator's parent and path. */
const Ast *dsl_root(const Ast *a);
void dsl_rules_free(Rules *r);

/* A map from names to indices, hashed: lookups by name stay constant-time
** however many names a rule or file has.  Keys are borrowed (they must
** outlive the map); a zeroed NameMap is empty. */
typedef struct NameMap {
	const char **key;
	uint32_t *val;
	uint32_t n, cap;        /* cap: 0 or a power of two, at least 2n */
} NameMap;

/* dsl_map_get: the value of name, or UINT32_MAX when it is absent. */
uint32_t dsl_map_get(const NameMap *m, const char *name);
/* dsl_map_put: give name the value val (a new name, or a new value). */
void dsl_map_put(NameMap *m, const char *name, uint32_t val);
/* dsl_map_clear: empty m, keeping its memory; dsl_map_free: release it. */
void dsl_map_clear(NameMap *m);
void dsl_map_free(NameMap *m);

Ast *dsl_ast(Rules *r, AstKind k, Loc loc);
const char *dsl_strdup(Rules *r, const char *s, size_t n);

#endif
