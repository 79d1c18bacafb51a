/*
** graft.h: all of graft's C API, every name graft_ or GRAFT_ prefixed:
** #include <graft/graft.h>, link with `pkg-config --libs graft`.  api.h
** drives graft from a program; graph.h reads a module's graph; rules.h is
** what generated matchers and extern predicates call; plugin.h, opdef.h,
** kernel.h, codegen.h and scalar.h (its words: include it last, alone)
** are a plugin's; version.h GRAFT_VERSION_*.  docs/embedding.md says how
** they are used, who owns what, and when versions are bumped.
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
