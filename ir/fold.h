/*
** fold.h: exact constant evaluation, the fold_const of graft's rules
** language.  ir_fold() computes a subtree whose leaves are constants with
** data and replaces nothing: it returns a new constant node, which the
** caller substitutes where it wants.  What "exact" means, op by op, and
** which TVM sources it follows is told at the top of ir/fold.c.
*/
#ifndef GRAFT_FOLD_H
#define GRAFT_FOLD_H

#include <stdint.h>

#include "ir.h"

/* Evaluates the subtree rooted at n, whose leaves must all be constants with
** data (Const.data != NULL), into one new NK_CONST node with n's inferred type
** (Node.type, already set) and n's location.  Returns 0 and creates no node if
** a leaf is not a constant with data, an op in the subtree is not supported, or
** the result would not be exactly defined (integer overflow where the op does
** not define wrapping, float -> int cast out of range or NaN, division by zero
** in integers).  Nodes are visited iteratively (no recursion over operands). */
NodeId ir_fold(Module *m, NodeId n);

/* ir_fold()'s fast path alone (qnn.quantize of a float32 constant by one
** scale and zero point), with no node: 1 and *data, n's value in
** Module.data for a constant of n's type; 0 if the result would not be
** exact; -1 if n is not that case (ir_fold() may still fold it). */
int ir_fold_data(Module *m, NodeId n, void **data);

/* The row-major strides, in elements, of a tensor of the rank dims:
** strides[rank - 1] = 1.  Used by ir_fold; exported for its unit tests. */
void ir_fold_strides(const int64_t *dims, int rank, int64_t *strides);

/* The strides, in elements, with which an operand of the rank dims is read
** when numpy broadcasting stretches it to the orank odims: the operand's
** axes align with the last ones of the result, and an axis of size 1 (or a
** missing one) reads with stride 0.  Returns 1, or 0 if the shapes do not
** broadcast to odims. */
int ir_fold_bcast_strides(const int64_t *dims, int rank, const int64_t *odims, int orank,
                          int64_t *strides);

#endif
