/*
** llvm.h: the LLVM backend (backends/llvm).  (Being written: see issue 5.)
*/
#ifndef GRAFT_BE_LLVM_H
#define GRAFT_BE_LLVM_H

#include "backend.h"

#endif
