/*
** ref.h: the reference interpreter (backends/ref), graft's numerics
** oracle.  (Being written: see issue 5.)
*/
#ifndef GRAFT_REF_H
#define GRAFT_REF_H

#include "backend.h"

#endif
