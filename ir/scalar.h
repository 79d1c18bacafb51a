/*
** scalar.h: the words that scalar.def's expressions are written in, for
** the files that write such rows: ir/scalar.c, which expands scalar.def,
** and a plugin that gives its op's semantics as rows of its own
** (graft_plugin_add_scalar_op).  Each word makes a ScalarExpr (ir.h) in
** static storage, so that a row is a constant:
**
**   static const ScalarDef softsign[] = {
**       { 0, SI_NONE, NULL, NULL, DIV(X, ADD(K(1), FN(fabs, X))) },
**   };
**
** The words are short, as the table reads best so: include this header
** last, in a file of rows, and nowhere else.  FN(f, e) needs the C
** library's f and its float form ff.
*/
#ifndef GRAFT_SCALAR_H
#define GRAFT_SCALAR_H

#include <math.h>

#include "ir.h"

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

#define SXN(...) (&(const ScalarExpr){ __VA_ARGS__ })
#define X SXN(.kind = SX_X)
#define K(v) SXN(.kind = SX_K, .k = (v))
#define P(i) SXN(.kind = SX_P, .p = (i))
#define NEG(x) SXN(.kind = SX_NEG, .a = (x))
#define FN(name, x) SXN(.kind = SX_FN, .fn = #name, .fd = name, .ff = name##f, .a = (x))
#define ADD(x, y) SXN(.kind = SX_ADD, .a = (x), .b = (y))
#define SUB(x, y) SXN(.kind = SX_SUB, .a = (x), .b = (y))
#define MUL(x, y) SXN(.kind = SX_MUL, .a = (x), .b = (y))
#define DIV(x, y) SXN(.kind = SX_DIV, .a = (x), .b = (y))
#define MIN(x, y) SXN(.kind = SX_MIN, .a = (x), .b = (y))
#define MAX(x, y) SXN(.kind = SX_MAX, .a = (x), .b = (y))
#define GT(x, y) SXN(.kind = SX_GT, .a = (x), .b = (y))
#define LT(x, y) SXN(.kind = SX_LT, .a = (x), .b = (y))
#define SEL(cond, x, y) SXN(.kind = SX_SEL, .a = (cond), .b = (x), .c = (y))

#endif
