/*
** c.h: the C source backend (backends/c).
**
** Generated code, here and from backends/llvm, has one entry point per
** function it compiles, all with the same calling convention:
**
**   int32_t NAME(const void *const *in, void *const *out);
**
** in[i] points at parameter i's data and out[j] at room for result j
** (results as be_sig() flattens them), dense row-major tensors of the
** types the module gives.  The return value is 0, or 1 after an integer
** division by zero, or 2 after an index out of range (take's "fast",
** gather), or 3 after both, or with 4 set after the C kernel of a
** plugin's op (ir/kernel.h) returned nonzero (the outputs are then
** unspecified).  @main is
** graft_main; a partition keeps its global_symbol
** (tvmgen_default_ccompiler_main_0); other globals are graft_<name>, with
** every character that is not a letter or digit as '_'.
*/
#ifndef GRAFT_BE_C_H
#define GRAFT_BE_C_H

#include <stdio.h>

#include "backend.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes m as one self-contained C99 file to c (and its header, which c
** includes as hname, to h): every global function, or with target set,
** only the partitions whose Compiler attribute is target (TVM's
** "ccompiler" flow).  Returns 0, or reports through d and returns the
** number of errors. */
int be_c_emit(const Module *m, const char *target, FILE *c, FILE *h, const char *hname, Diag *d);

/* be_c_emit() of the whole module for running in-process: the partitions
** a plugin's codegen runs (be_codegen_of) become stubs that call
** graft_ext_call(graft_ext_ctx[K], in, out), two symbols of the file the
** loader sets; *ext receives those partitions (NK_FUNC nodes) by slot K,
** *next their count (the caller frees *ext). */
int be_c_emit_run(const Module *m, FILE *c, FILE *h, const char *hname, NodeId **ext, uint32_t *next, Diag *d);

#ifdef __cplusplus
}
#endif

#endif
