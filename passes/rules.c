/*
** rules.c: <graft/rules.h>, the rewrite driver as a matcher compiled
** outside graft (a plugin's) calls it.  Each graft_rw_ function is the
** driver's rw_ one (rewrite.c, rewrite.h) under its public name and
** types, which are the driver's own: a graft_rw is the Rw, a
** graft_matcher the Ruleset.  graft's own matchers do not come here: with
** GRAFT_BUILDING, rwfast.h maps these names to the rw_ code inline, so the
** definitions are written `T (name)(...)`, out of the macros' reach.
*/
#include "rewrite.h"

/* the codes of two enums, compared */
#define SAME(a, b) ((int)(a) == (int)(b))
_Static_assert(SAME(DT_BOOL, GRAFT_DT_BOOL) && SAME(DT_INT8, GRAFT_DT_INT8) && SAME(DT_UINT8, GRAFT_DT_UINT8) &&
               SAME(DT_INT16, GRAFT_DT_INT16) && SAME(DT_UINT16, GRAFT_DT_UINT16) &&
               SAME(DT_INT32, GRAFT_DT_INT32) && SAME(DT_UINT32, GRAFT_DT_UINT32) &&
               SAME(DT_INT64, GRAFT_DT_INT64) && SAME(DT_FLOAT16, GRAFT_DT_FLOAT16) &&
               SAME(DT_FLOAT32, GRAFT_DT_FLOAT32) && SAME(DT_FLOAT64, GRAFT_DT_FLOAT64),
               "ir.h's dtypes are kernel.h's GRAFT_DT_ codes");
_Static_assert(sizeof(OpId) == sizeof(graft_op) && sizeof(AttrId) == sizeof(graft_attrs),
               "rules.h's handles are ir.h's");
#undef SAME

/* ---------------------------------------------------------------- reading */

const graft_ir *(graft_rw_ir)(const graft_rw *rw)
{
	return rw->m;
}

graft_op (graft_rw_lop)(const graft_rw *rw, graft_node n)
{
	return rw_lop(rw, rw->m, n);
}

graft_op (graft_rw_gop)(const graft_rw *rw, graft_op l)
{
	return rw->gop ? rw->gop[l] : l;
}

graft_sym (graft_rw_sym)(const graft_rw *rw, uint32_t i)
{
	return rw->syms[i];
}

int (graft_rw_name_is)(const graft_rw *rw, graft_node n, uint32_t i)
{
	return rw->m->nodes[n].kind == NK_VAR && rw->m->nodes[n].aux == rw->syms[i];
}

int (graft_rw_attr_lit)(const graft_rw *rw, graft_node n, int k, uint32_t j)
{
	return rw_attr_lit(rw, n, k, j);
}

int (graft_rw_func_attr_is)(graft_rw *rw, graft_node fn, const char *key, uint32_t lit)
{
	return rw_func_attr_is(rw, fn, key, lit);
}

int (graft_rw_const_is)(graft_rw *rw, graft_node n, int dt, double v)
{
	return rw_const_is(rw, n, dt, v);
}

/* ---------------------------------------------------------------- guards */

void (graft_rw_clear)(graft_rw *rw)
{
	rw->gfail = 0;
}

int (graft_rw_failed)(const graft_rw *rw)
{
	return rw->gfail;
}

int64_t (graft_rw_rank)(graft_rw *rw, graft_node n)
{
	return rw_rank(rw, n);
}

int64_t (graft_rw_numel)(graft_rw *rw, graft_node n)
{
	return rw_numel(rw, n);
}

int64_t (graft_rw_dim)(graft_rw *rw, graft_node n, int64_t i)
{
	return rw_dim(rw, n, i);
}

double (graft_rw_value)(graft_rw *rw, graft_node n)
{
	return rw_value(rw, n);
}

double (graft_rw_splat)(graft_rw *rw, graft_node n)
{
	return rw_splat(rw, n);
}

int64_t (graft_rw_attr_ints_at)(graft_rw *rw, graft_node n, int k, int64_t i)
{
	return rw_attr_ints_at(rw, n, k, i);
}

double (graft_rw_attr_num)(graft_rw *rw, graft_node n, int k)
{
	return rw_attr_num(rw, n, k);
}

int64_t (graft_rw_idiv)(graft_rw *rw, int64_t a, int64_t b)
{
	return rw_idiv(rw, a, b);
}

int64_t (graft_rw_imod)(graft_rw *rw, int64_t a, int64_t b)
{
	return rw_imod(rw, a, b);
}

/* ---------------------------------------------------------------- target tables */

void (graft_rw_report)(graft_rw *rw, uint32_t rule, const graft_node *nodes, uint32_t n, int ok)
{
	rw_report(rw, rule, nodes, n, ok);
}

void (graft_rw_report_dom)(graft_rw *rw, uint32_t rule, const graft_node *nodes, uint32_t n, int ok)
{
	rw_report_dom(rw, rule, nodes, n, ok);
}

int (graft_rw_reporting)(const graft_rw *rw)
{
	return rw->report != NULL;
}

/* ---------------------------------------------------------------- patterns, once */

int (graft_rw_pat)(graft_rw *rw, const graft_pat *p, graft_node x, graft_node *caps, uint32_t ncaps)
{
	return rw_pat(rw, p, x, caps, ncaps);
}

graft_node (graft_rw_dominator)(graft_rw *rw, graft_node child, const graft_pat *parent, const graft_pat *path,
                                graft_node *caps, uint32_t ncaps)
{
	return rw_dominator(rw, child, parent, path, caps, ncaps);
}

int (graft_rw_onced)(const graft_rw *rw, graft_node v, uint32_t rule)
{
	return rw_onced(rw, v, rule);
}

void (graft_rw_once)(graft_rw *rw)
{
	rw_once(rw);
}

/* ---------------------------------------------------------------- building */

graft_attrs (graft_rw_attrs)(graft_rw *rw, graft_op op)
{
	return rw_attrs(rw, op);
}

graft_attrs (graft_rw_attrs_copy)(graft_rw *rw, graft_op op, graft_node from)
{
	return rw_attrs_copy(rw, op, from);
}

void (graft_rw_set_i)(graft_rw *rw, graft_attrs a, int k, int64_t v)
{
	rw_set_i(rw, a, k, v);
}

void (graft_rw_set_f)(graft_rw *rw, graft_attrs a, int k, double v)
{
	rw_set_f(rw, a, k, v);
}

void (graft_rw_set_b)(graft_rw *rw, graft_attrs a, int k, int v)
{
	rw_set_b(rw, a, k, v);
}

void (graft_rw_set_dtype)(graft_rw *rw, graft_attrs a, int k, int dt)
{
	rw_set_dtype(rw, a, k, dt);
}

void (graft_rw_set_sym)(graft_rw *rw, graft_attrs a, int k, graft_sym s)
{
	rw_set_sym(rw, a, k, s);
}

void (graft_rw_set_lit)(graft_rw *rw, graft_attrs a, int k, uint32_t j)
{
	rw_set_lit(rw, a, k, j);
}

void (graft_rw_set_from)(graft_rw *rw, graft_attrs a, int k, graft_node n, int kn)
{
	rw_set_from(rw, a, k, n, kn);
}

graft_node (graft_rw_call)(graft_rw *rw, graft_op op, const graft_node *args, uint32_t nargs, graft_attrs attrs)
{
	return rw_call(rw, op, args, nargs, attrs);
}

graft_node (graft_rw_call_in_place)(graft_rw *rw, graft_op op, const graft_node *args, uint32_t nargs,
                                    graft_attrs attrs, graft_node d, const graft_node *path, uint32_t npath)
{
	return rw_call_in_place(rw, op, args, nargs, attrs, d, path, npath);
}

graft_node (graft_rw_scalar_i)(graft_rw *rw, int dt, int64_t v)
{
	return rw_scalar_i(rw, dt, v);
}

graft_node (graft_rw_scalar_f)(graft_rw *rw, int dt, double v)
{
	return rw_scalar_f(rw, dt, v);
}

graft_node (graft_rw_getitem)(graft_rw *rw, graft_node t, uint32_t i)
{
	return rw_getitem(rw, t, i);
}

void (graft_rw_tb_begin)(graft_rw *rw, uint32_t *mark)
{
	rw_tb_begin(rw, mark);
}

void (graft_rw_tb_add)(graft_rw *rw, graft_node n)
{
	rw_tb_add(rw, n);
}

void (graft_rw_tb_rest)(graft_rw *rw, graft_node t, uint32_t start)
{
	rw_tb_rest(rw, t, start);
}

void (graft_rw_tb_rest_to)(graft_rw *rw, graft_node t, uint32_t start, uint32_t end)
{
	rw_tb_rest_to(rw, t, start, end);
}

graft_node (graft_rw_tb_end)(graft_rw *rw, uint32_t mark)
{
	return rw_tb_end(rw, mark);
}

graft_node (graft_rw_fold)(graft_rw *rw, graft_node n)
{
	return rw_fold(rw, n);
}

graft_node (graft_rw_fold_new)(graft_rw *rw, graft_node n)
{
	return rw_fold_new(rw, n);
}

int (graft_rw_unchanged)(graft_rw *rw, graft_node r)
{
	return rw_unchanged(rw, r);
}
