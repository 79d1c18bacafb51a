/*
** typerel.h: the type relations named in ops.def, defined in typerel.c.
*/
#ifndef GRAFT_TYPEREL_H
#define GRAFT_TYPEREL_H

#include "ir.h"

#ifdef __cplusplus
extern "C" {
#endif

#define OP(id, name, nargs, flags, rel, attrs) TypeRel rel_##rel;
#include "ops.def"
#undef OP

#ifdef __cplusplus
}
#endif

#endif
