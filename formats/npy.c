/*
** npy.c: NumPy's .npy tensor files.  (Being written: see issue 5.)
*/
#include "npy.h"
