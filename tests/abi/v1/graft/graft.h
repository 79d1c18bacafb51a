/*
** graft.h: all of graft's C API, for a program that drives graft or a
** plugin that extends it: #include <graft/graft.h>, and link with what
** `pkg-config --libs graft` gives.
**
**   ir.h          the module store: nodes, types, attributes, the op
**                 registry (ops.def), type inference, the verifier,
**                 diagnostics, files
**   text.h        Relay text in and out;  dot.h  Graphviz out
**   safetensors.h, npy.h   tensor files
**   ref.h         the reference semantics: the interpreter, exact folding
**   rewrite.h     the rewrite driver and what generated matchers call;
**   partition.h   the partitioner;  bind.h  parameters bound from files
**   shipped.h     the rulesets and target tables shipped with graft
**   interp.h      .rules files loaded at run time
**   backend.h     the execution backends (ref, c, llvm), target codegens
**   plugin.h      plugins: loading them, and what they register
**   onnx.h        the ONNX importer
**   version.h     GRAFT_VERSION_*
**
** Ownership, as each header states it: a Module owns everything reachable
** from it and ir_module_free() releases it all; functions that make a
** thing for the caller say how it is released.
*/
#ifndef GRAFT_GRAFT_H
#define GRAFT_GRAFT_H

#include "version.h"
#include "ir.h"
#include "text.h"
#include "dot.h"
#include "safetensors.h"
#include "npy.h"
#include "ref.h"
#include "rewrite.h"
#include "partition.h"
#include "shipped.h"
#include "bind.h"
#include "interp.h"
#include "backend.h"
#include "plugin.h"
#include "onnx.h"

#endif
