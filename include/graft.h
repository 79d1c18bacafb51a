/*
** graft.h: all of graft's C API, for a program that drives graft or a
** plugin that extends it: #include <graft/graft.h>, and link with what
** `pkg-config --libs graft` gives.  Every name it declares starts with
** graft_ or GRAFT_.
**
**   api.h      a program's: load a model, bind, rewrite, partition,
**              print, compile and run it, through opaque handles
**   graph.h    reading a module's graph (plugins, generated matchers)
**   rules.h    what graftc's generated matchers and extern predicates call
**   codegen.h  a target's codegen, and the reference run for simulators
**   plugin.h   a plugin's: its entry point, and what it registers (ops,
**              matchers, codegens)
**   opdef.h    an op's definition: schema, type relation, scalar rows
**   kernel.h   the C kernel of a plugin's op (stands alone: no libgraft)
**   scalar.h   the words scalar rows are written in (include it last,
**              alone: its words are short)
**   version.h  GRAFT_VERSION_*
**
** docs/embedding.md says how they are used, who owns what, and which
** changes bump libgraft's version and GRAFT_PLUGIN_ABI.
*/
#ifndef GRAFT_GRAFT_H
#define GRAFT_GRAFT_H

#include "version.h"
#include "api.h"
#include "graph.h"
#include "kernel.h"
#include "opdef.h"
#include "rules.h"
#include "codegen.h"
#include "plugin.h"

#endif
