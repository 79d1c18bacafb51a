/*
** dot.h: a module as a Graphviz picture.
*/
#ifndef GRAFT_DOT_H
#define GRAFT_DOT_H

#include "ir.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes the functions of m that are not partitions as one digraph: ops
** are boxes, each partition (a global with Compiler=...) a cluster filled
** with its target's colour, each composite a rounded box inside it;
** calls of partitions and composites are drawn through, so edges go from
** op to op.  Constants are left out.  The output depends only on m. */
void ir_print_dot(FILE *f, const Module *m);

#ifdef __cplusplus
}
#endif

#endif
