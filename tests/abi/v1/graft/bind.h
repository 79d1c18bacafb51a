/*
** bind.h: parameter files (safetensors) bound to and saved from a module.
*/
#ifndef GRAFT_BIND_H
#define GRAFT_BIND_H

#include "ir.h"
#include "safetensors.h"
#include "text.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Binds f's tensors to m (see bind.c).  Returns the number of errors. */
int ir_bind_params(Module *m, const StFile *f, const char *fname, Diag *d);

/* Writes the data of the constants printed as meta[relay.Constant][k] to
** path, named that way.  Returns 0, or -1 with err set. */
int ir_save_params(Module *m, const MetaList *meta, const char *path, char *err, size_t errsz);

#ifdef __cplusplus
}
#endif

#endif
