/*
** rfuncs.h: the grammar actions of rules.y, defined in dsl/parse.c.
*/
#ifndef GRAFT_RFUNCS_H
#define GRAFT_RFUNCS_H

#include "dparse.h"

void r_ruleset(DParser *p, const RStr *name, const DLTYPE *l);
void r_include(DParser *p, const RStr *file, const DLTYPE *l);
void r_subpat(DParser *p, const RStr *name, const DLTYPE *l, AList params, Ast *body);
void r_extern(DParser *p, const RStr *name, const DLTYPE *l, AList params, int action);
void r_xop(DParser *p, const RStr *kw, const DLTYPE *kl, const RStr *name, const DLTYPE *l, AList params);
Ast *r_xattr(DParser *p, const RStr *name, const DLTYPE *l, const RStr *type, const DLTYPE *tl, int opt,
             Ast *deflt);
int r_prio(DParser *p, const RNum *n, int neg, const DLTYPE *l);
RuleHead r_head(DParser *p, const RStr *name, const DLTYPE *l, int prio, const Ast *tol, int once, int finite);
void r_rule(DParser *p, const RuleHead *h, Ast *pat, Ast *guard, Ast *result, const DLTYPE *l,
            const DLTYPE *lguard, const DLTYPE *lresult);
void r_target(DParser *p, const RStr *name, const DLTYPE *l);
void r_composite(DParser *p, const RStr *name, const DLTYPE *l, int prio, Ast *pat, Ast *guard,
                 const DLTYPE *lpat, const DLTYPE *lguard);
void r_supports(DParser *p, AList pats, Ast *guard, const DLTYPE *l, const DLTYPE *lguard);

AList r_list0(void);
AList r_prepend(DParser *p, Ast *a, AList l);

Ast *r_leaf(DParser *p, AstKind k, const DLTYPE *l);
Ast *r_name(DParser *p, const RStr *name, const DLTYPE *l);
Ast *r_bind(DParser *p, const RStr *name, const DLTYPE *l, Ast *sub);
Ast *r_call(DParser *p, const RStr *name, const DLTYPE *l, AList args, int flags);
Ast *r_constval(DParser *p, Ast *lit, const DLTYPE *l);
Ast *r_fn(DParser *p, const RStr *name, const DLTYPE *l, AList params, Ast *body);
Ast *r_tuple(DParser *p, AList elems, const DLTYPE *l, int flags);
Ast *r_getitem(DParser *p, Ast *a, int64_t i, const DLTYPE *l);
Ast *r_typed(DParser *p, Ast *a, Ast *t, const DLTYPE *l);
Ast *r_rest(DParser *p, const RStr *name, const DLTYPE *l);
Ast *r_attr(DParser *p, const RStr *name, const DLTYPE *l, Ast *val);
Ast *r_attrs(DParser *p, const RStr *name, const DLTYPE *l);
Ast *r_alt(DParser *p, Ast *a, Ast *b, const DLTYPE *l);
Ast *r_int(DParser *p, const RNum *num, const DLTYPE *l);
Ast *r_float(DParser *p, const RNum *num, const DLTYPE *l);
Ast *r_str(DParser *p, const RStr *s, const DLTYPE *l);
Ast *r_bool(DParser *p, int v, const DLTYPE *l);
Ast *r_list(DParser *p, AList elems, const DLTYPE *l);
Ast *r_tcons(DParser *p, const RStr *dtype, const DLTYPE *l, AList *dims);
Ast *r_tensor(DParser *p, const RStr *kw, const DLTYPE *l, AList dims, const RStr *dtype, const DLTYPE *dl);
Ast *r_unop(DParser *p, int op, Ast *a, const DLTYPE *l);
Ast *r_binop(DParser *p, int op, Ast *a, Ast *b, const DLTYPE *l);
Ast *r_index(DParser *p, Ast *a, Ast *i, const DLTYPE *l);
Ast *r_fold(DParser *p, Ast *a, const DLTYPE *l);

#endif
