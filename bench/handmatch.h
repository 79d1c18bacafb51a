/*
** handmatch.h: the benchmark's hand-written matcher (bench/handmatch.c).
*/
#ifndef GRAFT_BENCH_HANDMATCH_H
#define GRAFT_BENCH_HANDMATCH_H

#include "rewrite.h"

NodeId bench_handmatch(Rw *rw, NodeId v, uint32_t *rule);

#endif
