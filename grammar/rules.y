/*
** rules.y: the grammar of graft's rules language (docs/rules.md).
**
** A pure, reentrant Bison parser with locations.  Actions build AST nodes
** in the Rules arena through dsl/parse.c (prefix r_); names, ops and
** types are resolved later by dsl_check, so this file is only syntax.
** A syntax error skips to the end of the item and parsing goes on.
**
** Guards and results share one expression grammar; which forms are legal
** where is checked in dsl/check.c.  Keep %expect at 0: resolve conflicts
** with precedence or by restructuring, never by raising it.
*/
%code top {
/* Bison initialises the default location with its four fields alone;
   DLTYPE's offsets start at zero */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
}

%code requires {
#include "dparse.h"
}

%code provides {
int dsl_lex(DSTYPE *lval, DLTYPE *lloc, DParser *p);
}

%code {
#include <string.h>

#include "rfuncs.h"
#define dlex dsl_lex
static void derror(DLTYPE *l, DParser *p, const char *msg);
}

%define api.pure full
%define parse.error detailed
%define api.prefix {d}
%define api.token.prefix {T_}
%locations
%expect 0
%param { DParser *p }

%union {
	RNum num;
	RStr str;
	Ast *ast;
	AList list;
	RuleHead head;
	int ival;
}

%token <str> IDENT "identifier" STRING "string"
%token <num> INT "integer" FLOAT "float"
%token END "end of line"
%token RULESET "ruleset" INCLUDE "include" PATTERN "pattern" EXTERN "extern"
%token PRED "pred" ACTION "action" RULE "rule" PRIORITY "priority" IF "if" WITHIN "within" ONCE "once" FINITE "finite"
%token CONST "const" VAR "var" FOLD "fold_const" ATTRS "attrs"
%token TRUE "True" FALSE "False" NONE "None"
%token ARROW "=>" ELLIPSIS "..." EQ "==" NE "!=" LE "<=" GE ">="
%token ANDAND "&&" OROR "||"
%token TARGET "target" COMPOSITE "composite" SUPPORTS "supports"

%type <ast> pat alt prim post atom parg pelem lit attrval tcons tdim guard_opt expr primary earg result
%type <ast> xparam xdefault_opt within_opt
%type <list> spats pargs pargs_opt pelems lits lits_opt names names_opt eargs eargs_opt tdims
%type <list> xparams xparams_opt
%type <head> head
%type <ival> prio_opt sint once_opt finite_opt

%left OROR
%left ANDAND
%nonassoc EQ NE
%nonassoc '<' '>' LE GE
%left '+' '-'
%left '*' '/' '%'
%precedence '!' UMINUS

%%

/* file := {item}
** item := ruleset NAME | target "NAME" | include "FILE" | pattern ... | extern ...
**       | extern op NAME '(' xparams ')' 
**       | rule | composite NAME [priority N] ':' pat [if guard] | supports pats [if guard] */
file
	: %empty
	| file item
	;

item
	: RULESET IDENT END              { r_ruleset(p, &$2, &@2); }
	| INCLUDE STRING END             { r_include(p, &$2, &@2); }
	| PATTERN IDENT '(' names_opt ')' '=' pat END
	                                 { r_subpat(p, &$2, &@2, $4, $7); }
	| EXTERN PRED IDENT '(' names_opt ')' END
	                                 { r_extern(p, &$3, &@3, $5, 0); }
	| EXTERN ACTION IDENT '(' names_opt ')' END
	                                 { r_extern(p, &$3, &@3, $5, 1); }
	| EXTERN IDENT IDENT '(' xparams_opt ')' END
	                                 { r_xop(p, &$2, &@2, &$3, &@3, $5); }
	| head pat guard_opt ARROW result END
	                                 { r_rule(p, &$1, $2, $3, $5, &@2, &@3, &@5); }
	| TARGET STRING END              { r_target(p, &$2, &@2); }
	| COMPOSITE IDENT prio_opt ':' pat guard_opt END
	                                 { r_composite(p, &$2, &@2, $3, $5, $6, &@5, &@6); }
	| SUPPORTS spats guard_opt END   { r_supports(p, $2, $3, &@1, &@3); }
	| error END                      { yyerrok; }
	;

/* xparams := xparam {',' xparam}: an extern op's operands, then its
** attributes;  xparam := NAME | NAME ':' TYPE ['?'] ['=' lit] */
xparams_opt
	: %empty                         { $$ = r_list0(); }
	| xparams
	;

xparams
	: xparam                         { $$ = dsl_list1(p, $1); }
	| xparams ',' xparam             { $$ = dsl_list_add(p, $1, $3); }
	;

xparam
	: IDENT                          { $$ = r_name(p, &$1, &@1); }
	| IDENT ':' IDENT xdefault_opt   { $$ = r_xattr(p, &$1, &@1, &$3, &@3, 0, $4); }
	| IDENT ':' IDENT '?' xdefault_opt
	                                 { $$ = r_xattr(p, &$1, &@1, &$3, &@3, 1, $5); }
	;

xdefault_opt
	: %empty                         { $$ = NULL; }
	| '=' lit                        { $$ = $2; }
	;

/* spats := pattern {',' pattern}: a bare op name stands for op(...) */
spats
	: pat                            { $$ = dsl_list1(p, $1); }
	| spats ',' pat                  { $$ = dsl_list_add(p, $1, $3); }
	;

/* head := ['rule' NAME ['once'] ['priority' N] ['within' TOL] ['finite'] ':'] */
head
	: %empty                         { $$ = r_head(p, NULL, NULL, 0, NULL, 0, 0); }
	| RULE IDENT once_opt prio_opt within_opt finite_opt ':'
	                                 { $$ = r_head(p, &$2, &@2, $4, $5, $3, $6); }
	;

/* finite: graftc verify gives the rule finite floats only (no NaN, no
** infinities): the author's claim holds for those */
finite_opt
	: %empty                         { $$ = 0; }
	| FINITE                         { $$ = 1; }
	;

/* once: the rule does not fire at what its own results built (TVM's
** rewrite_once) */
once_opt
	: %empty                         { $$ = 0; }
	| ONCE                           { $$ = 1; }
	;

/* within TOL: how far graftc verify lets the rewritten graph's outputs be
** from the original's (0 when none: exact) */
within_opt
	: %empty                         { $$ = NULL; }
	| WITHIN INT                     { $$ = r_int(p, &$2, &@2); }
	| WITHIN FLOAT                   { $$ = r_float(p, &$2, &@2); }
	;

prio_opt
	: %empty                         { $$ = 0; }
	| PRIORITY sint                  { $$ = $2; }
	;

sint
	: INT                            { $$ = r_prio(p, &$1, 0, &@1); }
	| '-' INT                        { $$ = r_prio(p, &$2, 1, &@1); }
	;

names_opt
	: %empty                         { $$ = r_list0(); }
	| names
	;

names
	: IDENT                          { $$ = dsl_list1(p, r_name(p, &$1, &@1)); }
	| names ',' IDENT                { $$ = dsl_list_add(p, $1, r_name(p, &$3, &@3)); }
	;

guard_opt
	: %empty                         { $$ = NULL; }
	| IF expr                        { $$ = $2; }
	;

/* ---------------------------------------------------------------- patterns */

/* pattern := alt {'|' alt} */
pat
	: alt
	;

alt
	: prim
	| alt '|' prim                   { $$ = r_alt(p, $1, $3, &@2); }
	;

/* prim := name ':' prim | post;  post := atom | post '.' N | post '<' type '>' */
prim
	: post
	| IDENT ':' prim                 { $$ = r_bind(p, &$1, &@1, $3); }
	;

post
	: atom
	| post '.' INT                   { $$ = r_getitem(p, $1, $3.i, &@3); }
	| post '.' '_'                   { $$ = r_getitem(p, $1, -1, &@3); }
	| post '<' tcons '>'             { $$ = r_typed(p, $1, $3, &@2); }
	;

/* atom := '_' | const ['(' lit ')'] | var ['(' string ')'] | name | fn '(' params ')' '{' pat '}' | op ['?'] '(' args ')' | '_' '(' args ')' | '(' elems ')' */
atom
	: '_'                            { $$ = r_leaf(p, A_ANY, &@1); }
	| CONST                          { $$ = r_leaf(p, A_CONST, &@1); }
	| VAR                            { $$ = r_leaf(p, A_VAR, &@1); }
	| VAR '(' STRING ')'             { $$ = r_leaf(p, A_VAR, &@1); $$->s = r_str(p, &$3, &@3)->s; }
	| CONST '(' lit ')'              { $$ = r_constval(p, $3, &@1); }
	| IDENT                          { $$ = r_name(p, &$1, &@1); }
	| IDENT '(' pargs_opt ')'        { $$ = r_call(p, &$1, &@1, $3, 0); }
	| IDENT '(' pargs_opt ')' '{' pat '}' { $$ = r_fn(p, &$1, &@1, $3, $6); }
	| IDENT '?' '(' pargs_opt ')'    { $$ = r_call(p, &$1, &@1, $4, AF_OPTIONAL); }
	| '_' '(' pargs_opt ')'          { RStr any = { "_", 1 }; $$ = r_call(p, &any, &@1, $3, 0); }
	| '(' ')'                        { $$ = r_tuple(p, r_list0(), &@1, AF_TRAILING); }
	| '(' pelems ')'                 { $$ = r_tuple(p, $2, &@1, 0); }
	| '(' pelems ',' ')'             { $$ = r_tuple(p, $2, &@1, AF_TRAILING); }
	;

pelems
	: pelem                          { $$ = dsl_list1(p, $1); }
	| pelems ',' pelem               { $$ = dsl_list_add(p, $1, $3); }
	;

pelem
	: pat
	| ELLIPSIS                       { $$ = r_rest(p, NULL, &@1); }
	| IDENT ELLIPSIS                 { $$ = r_rest(p, &$1, &@1); }
	;

pargs_opt
	: %empty                         { $$ = r_list0(); }
	| pargs
	;

pargs
	: parg                           { $$ = dsl_list1(p, $1); }
	| pargs ',' parg                 { $$ = dsl_list_add(p, $1, $3); }
	;

parg
	: pelem
	| IDENT '=' attrval              { $$ = r_attr(p, &$1, &@1, $3); }
	;

attrval
	: lit
	| IDENT                          { $$ = r_name(p, &$1, &@1); }
	;

/* lit := number | string | True | False | None | '[' lits ']' */
lit
	: INT                            { $$ = r_int(p, &$1, &@1); }
	| '-' INT                        { $2.i = -$2.i; $$ = r_int(p, &$2, &@1); }
	| FLOAT                          { $$ = r_float(p, &$1, &@1); }
	| '-' FLOAT                      { $2.f = -$2.f; $$ = r_float(p, &$2, &@1); }
	| STRING                         { $$ = r_str(p, &$1, &@1); }
	| TRUE                           { $$ = r_bool(p, 1, &@1); }
	| FALSE                          { $$ = r_bool(p, 0, &@1); }
	| NONE                           { $$ = r_leaf(p, A_NONE, &@1); }
	| '[' lits_opt ']'               { $$ = r_list(p, $2, &@1); }
	;

lits_opt
	: %empty                         { $$ = r_list0(); }
	| lits
	;

lits
	: lit                            { $$ = dsl_list1(p, $1); }
	| lits ',' lit                   { $$ = dsl_list_add(p, $1, $3); }
	;

/* type := dtype | '_' | Tensor '[' '(' dims ')' ',' (dtype | '_') ']' */
tcons
	: IDENT                          { $$ = r_tcons(p, &$1, &@1, NULL); }
	| '_'                            { $$ = r_tcons(p, NULL, &@1, NULL); }
	| IDENT '[' '(' tdims ')' ',' IDENT ']'
	                                 { $$ = r_tensor(p, &$1, &@1, $4, &$7, &@7); }
	| IDENT '[' '(' tdims ')' ',' '_' ']'
	                                 { $$ = r_tensor(p, &$1, &@1, $4, NULL, &@7); }
	;

tdims
	: %empty                         { $$ = r_list0(); }
	| tdim                           { $$ = dsl_list1(p, $1); }
	| tdims ',' tdim                 { $$ = dsl_list_add(p, $1, $3); }
	;

tdim
	: INT                            { $$ = r_int(p, &$1, &@1); }
	| '_'                            { $$ = r_leaf(p, A_ANY, &@1); }
	| '?'                            { $$ = r_leaf(p, A_ANY, &@1); }
	;

/* ---------------------------------------------------------------- expressions */

result
	: FOLD                           { $$ = r_leaf(p, A_FOLD, &@1); }
	| expr
	;

expr
	: primary
	| '!' expr                       { $$ = r_unop(p, '!', $2, &@1); }
	| '-' expr %prec UMINUS          { $$ = r_unop(p, '-', $2, &@1); }
	| expr OROR expr                 { $$ = r_binop(p, T_OROR, $1, $3, &@2); }
	| expr ANDAND expr               { $$ = r_binop(p, T_ANDAND, $1, $3, &@2); }
	| expr EQ expr                   { $$ = r_binop(p, T_EQ, $1, $3, &@2); }
	| expr NE expr                   { $$ = r_binop(p, T_NE, $1, $3, &@2); }
	| expr '<' expr                  { $$ = r_binop(p, '<', $1, $3, &@2); }
	| expr '>' expr                  { $$ = r_binop(p, '>', $1, $3, &@2); }
	| expr LE expr                   { $$ = r_binop(p, T_LE, $1, $3, &@2); }
	| expr GE expr                   { $$ = r_binop(p, T_GE, $1, $3, &@2); }
	| expr '+' expr                  { $$ = r_binop(p, '+', $1, $3, &@2); }
	| expr '-' expr                  { $$ = r_binop(p, '-', $1, $3, &@2); }
	| expr '*' expr                  { $$ = r_binop(p, '*', $1, $3, &@2); }
	| expr '/' expr                  { $$ = r_binop(p, '/', $1, $3, &@2); }
	| expr '%' expr                  { $$ = r_binop(p, '%', $1, $3, &@2); }
	;

primary
	: INT                            { $$ = r_int(p, &$1, &@1); }
	| FLOAT                          { $$ = r_float(p, &$1, &@1); }
	| STRING                         { $$ = r_str(p, &$1, &@1); }
	| TRUE                           { $$ = r_bool(p, 1, &@1); }
	| FALSE                          { $$ = r_bool(p, 0, &@1); }
	| NONE                           { $$ = r_leaf(p, A_NONE, &@1); }
	| IDENT                          { $$ = r_name(p, &$1, &@1); }
	| IDENT '(' eargs_opt ')'        { $$ = r_call(p, &$1, &@1, $3, 0); }
	| FOLD '(' expr ')'              { $$ = r_fold(p, $3, &@1); }
	| '(' expr ')'                   { $$ = $2; }
	| '(' ')'                        { $$ = r_tuple(p, r_list0(), &@1, AF_TRAILING); }
	| '(' expr ',' ')'               { $$ = r_tuple(p, dsl_list1(p, $2), &@1, AF_TRAILING); }
	| '(' expr ',' eargs ')'         { $$ = r_tuple(p, r_prepend(p, $2, $4), &@1, AF_TRAILING); }
	| '(' IDENT ELLIPSIS ')'         { $$ = r_tuple(p, dsl_list1(p, r_rest(p, &$2, &@2)), &@1, AF_TRAILING); }
	| '(' IDENT ELLIPSIS ',' eargs ')' { $$ = r_tuple(p, r_prepend(p, r_rest(p, &$2, &@2), $5), &@1, AF_TRAILING); }
	| '[' eargs_opt ']'              { $$ = r_list(p, $2, &@1); }
	| primary '[' expr ']'           { $$ = r_index(p, $1, $3, &@2); }
	| primary '.' INT                { $$ = r_getitem(p, $1, $3.i, &@3); }
	;

eargs_opt
	: %empty                         { $$ = r_list0(); }
	| eargs
	;

eargs
	: earg                           { $$ = dsl_list1(p, $1); }
	| eargs ',' earg                 { $$ = dsl_list_add(p, $1, $3); }
	;

earg
	: expr
	| IDENT '=' expr                 { $$ = r_attr(p, &$1, &@1, $3); }
	| ATTRS '(' IDENT ')'            { $$ = r_attrs(p, &$3, &@1); }
	| IDENT ELLIPSIS                 { $$ = r_rest(p, &$1, &@1); }
	;

%%

static void
derror(DLTYPE *l, DParser *p, const char *msg)
{
	/* Bison's stack is full (YYMAXDEPTH): say what in the input did it */
	if (strcmp(msg, "memory exhausted") == 0)
		msg = "too deeply nested (the parser's stack is full)";
	ir_error(p->r->d, dsl_loc(p, l), "%s", msg);
	/* an unbalanced '(' must not hold the rest of the file in one item:
	   the next newline ends the broken one */
	p->depth = 0;
}
