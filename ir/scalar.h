/*
** scalar.h: the words of scalar expressions (<graft/opdef.h>), for a file
** of rows: ir/scalar.c's (scalar.def) and a plugin's
** (graft_plugin_add_scalar_op()).  Each word is a graft_scalar_expr in
** static storage, so a row is a constant; FN(f, e) needs f and fF (FN2
** likewise).  The words are short: include this header last, and
** nowhere else.  { NULL, GRAFT_SI_NONE, DIV(X, ADD(K(1), FN(fabs, X))) }
** is a row (softsign). */
#ifndef GRAFT_SCALAR_H
#define GRAFT_SCALAR_H

#include <math.h>

#include "opdef.h"

#undef X
#undef K
#undef P
#undef NEG
#undef FN
#undef ADD
#undef SUB
#undef MUL
#undef DIV
#undef MIN
#undef MAX
#undef GT
#undef LT
#undef SEL
#undef Y
#undef FN2
#undef RND
#undef ISNAN

#define GRAFT_SXN(...) (&(const graft_scalar_expr){ __VA_ARGS__ })
#define X GRAFT_SXN(.kind = GRAFT_SX_X)
#define K(v) GRAFT_SXN(.kind = GRAFT_SX_K, .k = (v))
#define P(i) GRAFT_SXN(.kind = GRAFT_SX_P, .p = (i))
#define NEG(x) GRAFT_SXN(.kind = GRAFT_SX_NEG, .a = (x))
#define FN(name, x) GRAFT_SXN(.kind = GRAFT_SX_FN, .fn = #name, .fd = name, .ff = name##f, .a = (x))
#define ADD(x, y) GRAFT_SXN(.kind = GRAFT_SX_ADD, .a = (x), .b = (y))
#define SUB(x, y) GRAFT_SXN(.kind = GRAFT_SX_SUB, .a = (x), .b = (y))
#define MUL(x, y) GRAFT_SXN(.kind = GRAFT_SX_MUL, .a = (x), .b = (y))
#define DIV(x, y) GRAFT_SXN(.kind = GRAFT_SX_DIV, .a = (x), .b = (y))
#define MIN(x, y) GRAFT_SXN(.kind = GRAFT_SX_MIN, .a = (x), .b = (y))
#define MAX(x, y) GRAFT_SXN(.kind = GRAFT_SX_MAX, .a = (x), .b = (y))
#define GT(x, y) GRAFT_SXN(.kind = GRAFT_SX_GT, .a = (x), .b = (y))
#define LT(x, y) GRAFT_SXN(.kind = GRAFT_SX_LT, .a = (x), .b = (y))
#define SEL(cond, x, y) GRAFT_SXN(.kind = GRAFT_SX_SEL, .a = (cond), .b = (x), .c = (y))
#define Y GRAFT_SXN(.kind = GRAFT_SX_Y)
#define FN2(name, x, y) GRAFT_SXN(.kind = GRAFT_SX_FN2, .fn = #name, .fd2 = name, .ff2 = name##f, .a = (x), .b = (y))
#define RND(x) GRAFT_SXN(.kind = GRAFT_SX_RND, .a = (x))
#define ISNAN(x) GRAFT_SXN(.kind = GRAFT_SX_ISNAN, .a = (x))

#endif
