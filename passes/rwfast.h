/*
** rwfast.h: <graft/graph.h>'s and <graft/rules.h>'s questions as graft's
** own build asks them.  rules.h includes this header when GRAFT_BUILDING
** is defined (Makefile.am defines it for graft's objects, never for a
** plugin's): each function-like macro below maps a public reader to the
** rewrite driver's inline one (rewrite.h), or a helper to its rw_
** function directly, so the matchers compiled into libgraft read the
** graph as fast as they did through the internal names.  The exported
** functions (ir/graph.c, passes/rules.c) are defined as `T (name)(...)`,
** which no macro here touches; a name missing here is simply called.
**
** A macro that forwards its arguments as they are takes them as `...`:
** generated code passes compound literals, whose commas would split them.
** Each evaluates its arguments once, but graft_rw_lop, graft_rw_name_is,
** graft_index read theirs twice: generated code passes names.
*/
#ifndef GRAFT_RWFAST_H
#define GRAFT_RWFAST_H

#include "rewrite.h"

/* graph.h */
#define graft_kind(...) rw_kind(__VA_ARGS__)
#define graft_nargs(...) rw_nargs(__VA_ARGS__)
#define graft_arg(...) rw_arg(__VA_ARGS__)
#define graft_index(m, n) ((m)->nodes[n].kind == NK_GETITEM ? (m)->nodes[n].aux : 0u)
#define graft_nuses(...) ir_nuses(__VA_ARGS__)
#define graft_op_kind(m, n) ir_op_kind(rw_op(m, n))
#define graft_dtype(...) rw_dtype(__VA_ARGS__)
#define graft_shape_is(...) rw_shape_is(__VA_ARGS__)
#define graft_attr_i(...) rw_attr_i(__VA_ARGS__)
#define graft_attr_f(...) rw_attr_f(__VA_ARGS__)
#define graft_attr_s(...) rw_attr_s(__VA_ARGS__)
#define graft_attr_same(...) rw_attr_same(__VA_ARGS__)

/* rules.h: reading */
#define graft_rw_ir(rw) ((const Module *)(rw)->m)
#define graft_rw_lop(rw, n) rw_lop(rw, (rw)->m, n)
#define graft_rw_gop(...) rw_gop(__VA_ARGS__)
#define graft_rw_sym(rw, i) ((rw)->syms[i])
#define graft_rw_name_is(rw, n, i) ((rw)->m->nodes[n].aux == (rw)->syms[i])
#define graft_rw_attr_lit(...) rw_attr_lit(__VA_ARGS__)
#define graft_rw_func_attr_is(...) rw_func_attr_is(__VA_ARGS__)
#define graft_rw_const_is(...) rw_const_is(__VA_ARGS__)

/* guards */
#define graft_rw_clear(rw) ((void)((rw)->gfail = 0))
#define graft_rw_failed(rw) ((rw)->gfail)
#define graft_rw_rank(...) rw_rank(__VA_ARGS__)
#define graft_rw_numel(...) rw_numel(__VA_ARGS__)
#define graft_rw_dim(...) rw_dim(__VA_ARGS__)
#define graft_rw_value(...) rw_value(__VA_ARGS__)
#define graft_rw_splat(...) rw_splat(__VA_ARGS__)
#define graft_rw_attr_ints_at(...) rw_attr_ints_at(__VA_ARGS__)
#define graft_rw_attr_num(...) rw_attr_num(__VA_ARGS__)
#define graft_rw_idiv(...) rw_idiv(__VA_ARGS__)
#define graft_rw_imod(...) rw_imod(__VA_ARGS__)

/* target tables, patterns, once */
#define graft_rw_report(...) rw_report(__VA_ARGS__)
#define graft_rw_report_dom(...) rw_report_dom(__VA_ARGS__)
#define graft_rw_reporting(rw) ((rw)->report != 0)
#define graft_rw_pat(...) rw_pat(__VA_ARGS__)
#define graft_rw_dominator(...) rw_dominator(__VA_ARGS__)
#define graft_rw_onced(...) rw_onced(__VA_ARGS__)
#define graft_rw_once(...) rw_once(__VA_ARGS__)

/* building */
#define graft_rw_attrs(...) rw_attrs(__VA_ARGS__)
#define graft_rw_attrs_copy(...) rw_attrs_copy(__VA_ARGS__)
#define graft_rw_set_i(...) rw_set_i(__VA_ARGS__)
#define graft_rw_set_f(...) rw_set_f(__VA_ARGS__)
#define graft_rw_set_b(...) rw_set_b(__VA_ARGS__)
#define graft_rw_set_dtype(...) rw_set_dtype(__VA_ARGS__)
#define graft_rw_set_sym(...) rw_set_sym(__VA_ARGS__)
#define graft_rw_set_lit(...) rw_set_lit(__VA_ARGS__)
#define graft_rw_set_from(...) rw_set_from(__VA_ARGS__)
#define graft_rw_call(...) rw_call(__VA_ARGS__)
#define graft_rw_call_in_place(...) rw_call_in_place(__VA_ARGS__)
#define graft_rw_scalar_i(...) rw_scalar_i(__VA_ARGS__)
#define graft_rw_scalar_f(...) rw_scalar_f(__VA_ARGS__)
#define graft_rw_getitem(...) rw_getitem(__VA_ARGS__)
#define graft_rw_tb_begin(...) rw_tb_begin(__VA_ARGS__)
#define graft_rw_tb_add(...) rw_tb_add(__VA_ARGS__)
#define graft_rw_tb_rest(...) rw_tb_rest(__VA_ARGS__)
#define graft_rw_tb_rest_to(...) rw_tb_rest_to(__VA_ARGS__)
#define graft_rw_tb_end(...) rw_tb_end(__VA_ARGS__)
#define graft_rw_fold(...) rw_fold(__VA_ARGS__)
#define graft_rw_fold_new(...) rw_fold_new(__VA_ARGS__)
#define graft_rw_unchanged(...) rw_unchanged(__VA_ARGS__)

#endif
