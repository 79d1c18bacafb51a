/*
** typerel.h: the type relations named in ops.def, defined in typerel.c.
*/
#ifndef GRAFT_TYPEREL_H
#define GRAFT_TYPEREL_H

#include "ir.h"

#define OP(id, name, nargs, flags, rel, attrs) TypeRel rel_##rel;
#include "ops.def"
#undef OP

#endif
