/*
** relay.y: the grammar of TVM's Relay text format, as graft reads it.
**
** A pure, reentrant Bison parser with locations.  Actions build the
** Module directly through the helpers in text/parse.c (prefix p_), which
** also check names, ops and attributes, so that one pass reports every
** error it can.  A syntax error skips to the next ';' (inside a function
** body) or '}' (a whole definition), and parsing goes on.
**
** Conflicts are resolved in the grammar, never by raising %expect: keep it
** at 0.
*/
%code requires {
#include <string.h>
#include "parse.h"
}

%code provides {
int ir_lex(YYSTYPE *lval, YYLTYPE *lloc, Parser *p);
}

%code {
#include "pfuncs.h"
#define yylex ir_lex
#define S(t) (&(Str){ p_strp(p, (t)), (t).n })
#define N(i) (&p->nums[(i)])
static void yyerror(YYLTYPE *l, Parser *p, const char *msg);
}

%define api.pure full
%define parse.error detailed
%locations
%expect 0
%param { Parser *p }
%define api.prefix {yy}
%define api.token.prefix {T_}

/* Every member is eight bytes, and written whole: Bison copies values
** whole, and a copy of one written in narrower parts stalls the load.
** Larger things live in the Parser and are named here by index. */
%union {
	uint64_t node;      /* NodeId */
	uint64_t type;      /* TypeId */
	List list;
	uint64_t args;      /* Parser.args[] */
	uint64_t num;       /* Parser.nums[] */
	Tok str;            /* S() makes it a Str */
	uint64_t attr;      /* Parser.avals[] */
}

%token <str> LOCAL "local variable" GLOBAL "global name" IDENT "identifier"
%token <str> STRING "string"
%token <num> INT "integer" FLOAT "float" META "meta reference"
%token DEF "def" FN "fn" LET "let" TENSOR "Tensor" TRUE "True" FALSE "False"
%token NONE "None" CONST "const" VERSION "version header"
%token TYANN "type annotation" TYEND "end of type annotation" ARROW "->"
%token CONSTDATA "constant data"    /* const(...)'s array read whole, into Parser.cdata */

%type <node> expr postfix body fn_lit tuple_expr
%type <list> args attrs exprs
%type <list> scope_open params types dims dims_opt attr_elems
%type <args> call_args fn_params
%type <type> type ret_opt type_opt tyann_opt
%type <attr> attr_val attr_item
%type <node> param

%%

/* module := [version] {definition} | [version] expr */
module
	: version_opt defs
	| version_opt fn_lit tyann_opt   { p_bare(p, p_annotate(p, $2, $3, &@3), &@2); }
	;

version_opt
	: %empty
	| VERSION                        { p->m->has_version = 1; }
	;

defs
	: %empty
	| defs def
	;

/* definition := 'def' @name '(' params ')' ['->' type] '{' body '}' */
def
	: DEF GLOBAL scope_open '(' fn_params ')' ret_opt '{' body '}'
	                                 { p_def(p, S($2), &@2, $3, $5, $7, $9); }
	| DEF error '}'                  { p_scope_reset(p); }
	| error '}'                      { p_scope_reset(p); }
	;

scope_open
	: %empty                         { $$ = p_scope_push(p); }
	;

/* fn_params := [param {',' param}] [{',' attr}] */
fn_params
	: %empty                         { $$ = p_args(p, p_list_empty(p), p_list_empty(p)); }
	| params                         { $$ = p_args(p, $1, p_list_empty(p)); }
	| attrs                          { $$ = p_args(p, p_list_empty(p), $1); }
	| params ',' attrs               { $$ = p_args(p, $1, $3); }
	;

params
	: param                          { $$ = p_node_first(p, $1); }
	| params ',' param               { $$ = p_node_more(p, $1, $3); }
	;

/* param := %name [':' type] [annotation] */
param
	: LOCAL type_opt tyann_opt       { $$ = p_param(p, S($1), $2, $3, &@1); }
	;

type_opt
	: %empty                         { $$ = 0; }
	| ':' type                       { $$ = $2; }
	;

ret_opt
	: %empty                         { $$ = 0; }
	| ARROW type                     { $$ = $2; }
	;

/* body := {binding} expr */
body
	: bindings expr                  { $$ = $2; }
	;

/* binding := %name '=' expr ';' | 'let' %name [':' type] '=' expr ';'
** Each is an alternative of bindings itself: a rule binding would cost
** every line one more reduction. */
bindings
	: %empty
	| bindings LOCAL '=' expr ';'    { p_bind(p, S($2), &@2, $4, 0); }
	| bindings LET LOCAL type_opt '=' expr ';'
	                                 { p_bind(p, S($3), &@3, $6, $4); }
	| bindings LOCAL '=' error ';'   { p_bind(p, S($2), &@2, 0, 0); }
	| bindings error ';'
	;

/* expr := postfix [annotation]; written out, not with tyann_opt, which
** would cost every expression the reduction of an empty annotation */
expr
	: postfix
	| postfix TYANN type TYEND       { $$ = p_annotate(p, $1, $3, &@2); }
	;

tyann_opt
	: %empty                         { $$ = 0; }
	| TYANN type TYEND               { $$ = $2; }
	;

/* postfix := atom {'(' [args] [{',' attr}] ')' | '.' INT}
** atom := local | global | literal | meta | const | call | tuple | fn
** call := op '(' [args] [{',' attr}] ')'
** The atoms and the call are postfix's own alternatives: as rules of their
** own, each operand would cost a reduction or two more. */
postfix
	: LOCAL                          { $$ = p_local(p, S($1), &@1); }
	| GLOBAL                         { $$ = p_global(p, S($1), &@1); }
	| INT                            { $$ = p_scalar(p, N($1), &@1); }
	| FLOAT                          { $$ = p_scalar(p, N($1), &@1); }
	| TRUE                           { $$ = p_bool(p, 1, &@1); }
	| FALSE                          { $$ = p_bool(p, 0, &@1); }
	| META                           { $$ = p_meta(p, N($1), &@1); }
	| CONST '(' attr_val ',' IDENT '=' STRING ')'
	                                 { $$ = p_inline_const(p, $3, &@3, S($5), S($7), &@7); }
	| CONST '(' CONSTDATA ',' IDENT '=' STRING ')'
	                                 { $$ = p_const_data(p, &@3, S($5), S($7), &@7); }
	| IDENT '(' call_args ')'        { $$ = p_call(p, S($1), &@1, $3); }
	| tuple_expr
	| fn_lit
	| postfix '(' call_args ')'      { $$ = p_callfn(p, $1, $3, &@2); }
	| postfix '.' INT                { $$ = p_getitem(p, $1, N($3), &@3); }
	;

call_args
	: %empty                         { $$ = p_args(p, p_list_empty(p), p_list_empty(p)); }
	| args                           { $$ = p_args(p, $1, p_list_empty(p)); }
	| attrs                          { $$ = p_args(p, p_list_empty(p), $1); }
	| args ',' attrs                 { $$ = p_args(p, $1, $3); }
	;

args
	: expr                           { $$ = p_node_first(p, $1); }
	| args ',' expr                  { $$ = p_node_more(p, $1, $3); }
	;

/* tuple := '(' ')' | '(' expr ',' ')' | '(' expr {',' expr} ')' */
tuple_expr
	: '(' ')'                        { $$ = p_tuple(p, p_list_empty(p), &@1); }
	| '(' expr ')'                   { $$ = $2; }
	| '(' expr ',' ')'               { $$ = p_tuple(p, p_node_first(p, $2), &@1); }
	| '(' expr ',' exprs ')'         { $$ = p_tuple(p, p_node_prepend(p, $2, $4), &@1); }
	;

exprs
	: expr                           { $$ = p_node_first(p, $1); }
	| exprs ',' expr                 { $$ = p_node_more(p, $1, $3); }
	;

/* fn := 'fn' '(' fn_params ')' ['->' type] '{' body '}' */
fn_lit
	: FN scope_open '(' fn_params ')' ret_opt '{' body '}'
	                                 { $$ = p_fn(p, $2, $4, $6, $8, &@1); }
	;

/* attrs := attr {',' attr};  attr := name '=' value */
attrs
	: attr_item                      { $$ = p_attr_first(p, $1); }
	| attrs ',' attr_item            { $$ = p_attr_more(p, $1, $3); }
	;

attr_item
	: IDENT '=' attr_val             { $$ = p_attr_key(p, S($1), $3, &@1); }
	;

attr_val
	: INT                            { $$ = p_attr_num(p, N($1), &@1); }
	| FLOAT                          { $$ = p_attr_num(p, N($1), &@1); }
	| STRING                         { $$ = p_attr_str(p, S($1), &@1); }
	| TRUE                           { $$ = p_attr_bool(p, 1, &@1); }
	| FALSE                          { $$ = p_attr_bool(p, 0, &@1); }
	| NONE                           { $$ = p_attr_none(p, &@1); }
	| '[' ']'                        { $$ = p_attr_array(p, p_list_empty(p), &@1); }
	| '[' attr_elems ']'             { $$ = p_attr_array(p, $2, &@1); }
	;

attr_elems
	: attr_val                       { $$ = p_attr_first(p, $1); }
	| attr_elems ',' attr_val        { $$ = p_attr_more(p, $1, $3); }
	;

/* type := dtype | 'Tensor' '[' '(' dims ')' ',' dtype ']' | tuple | fn type */
type
	: IDENT                          { $$ = p_type_scalar(p, S($1), &@1); }
	| TENSOR '[' '(' dims_opt ')' ',' IDENT ']'
	                                 { $$ = p_type_tensor(p, $4, S($7), &@7); }
	| '(' ')'                        { $$ = p_type_tuple(p, p_list_empty(p)); }
	| '(' type ',' ')'               { $$ = p_type_tuple(p, p_type_first(p, $2)); }
	| '(' type ',' types ')'         { $$ = p_type_tuple(p, p_type_prepend(p, $2, $4)); }
	| FN '(' ')' ARROW type          { $$ = p_type_fn(p, p_list_empty(p), $5); }
	| FN '(' types ')' ARROW type    { $$ = p_type_fn(p, $3, $6); }
	;

types
	: type                           { $$ = p_type_first(p, $1); }
	| types ',' type                 { $$ = p_type_more(p, $1, $3); }
	;

dims_opt
	: %empty                         { $$ = p_list_empty(p); }
	| dims
	| dims ','                       { $$ = $1; }
	;

dims
	: INT                            { $$ = p_dim_first(p, N($1)->v.i, &@1); }
	| '?'                            { $$ = p_dim_first(p, IR_DIM_ANY, &@1); }
	| dims ',' INT                   { $$ = p_dim_more(p, $1, N($3)->v.i, &@3); }
	| dims ',' '?'                   { $$ = p_dim_more(p, $1, IR_DIM_ANY, &@3); }
	;

%%

static void
yyerror(YYLTYPE *l, Parser *p, const char *msg)
{
	/* error recovery counts shifted tokens, which the fast path would not */
	p->syntaxerr = 1;
	/* Bison's stack is full (YYMAXDEPTH): say what in the input did it */
	if (strcmp(msg, "memory exhausted") == 0)
		msg = "too deeply nested (the parser's stack is full)";
	ir_error(p->d, ir_parse_loc(p, l), "%s", msg);
}
