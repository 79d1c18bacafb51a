/*
** c.h: the C source backend (backends/c).  (Being written: see issue 5.)
*/
#ifndef GRAFT_BE_C_H
#define GRAFT_BE_C_H

#include "backend.h"

#endif
