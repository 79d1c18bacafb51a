/*
** npy.h: NumPy's .npy tensor files.  (Being written: see issue 5.)
*/
#ifndef GRAFT_NPY_H
#define GRAFT_NPY_H

#include "backend.h"

#endif
