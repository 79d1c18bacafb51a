/*
** bench.h: what the programs of `make bench` share: the clock, medians,
** their command line, and builders of calls with attributes given as
** Relay text.  Every figure is a median of runs; nothing here asserts a
** time.
*/
#ifndef GRAFT_BENCH_H
#define GRAFT_BENCH_H

#include "ir.h"

#define BENCH_MAXRUNS 64

/* BENCH_SIZES graph sizes: 10k, 100k, 1M nodes */
#define BENCH_SIZES 3
extern const uint32_t bench_sizes[BENCH_SIZES];

/* PROG [RUNS [MAXNODES]]: *runs in 1 .. BENCH_MAXRUNS (default 7); returns
** how many of bench_sizes are at most MAXNODES (at least one) */
int bench_args(int argc, char **argv, int *runs);

double bench_now(void);                 /* ns, monotonic */

/* PyTorch's timings as the benchmarks' python scripts write them to
** dir/torch.txt, lines "torch_ns ENGINE NS": at most max of them into
** engine[] and ns[]; returns how many (0 without the file) */
enum { BENCH_ENGINES = 8 };
int bench_torch_ns(const char *dir, char (*engine)[64], double *ns, int max);
double bench_median(double *v, int n);  /* sorts v */

NodeId bench_scalarf(Module *m, float v);
NodeId bench_scalari(Module *m, int32_t v);

/* bench_call: a call of op with attributes kv, pairs of field name and
** Relay literal ending with NULL (or kv NULL: the defaults) */
NodeId bench_call(Module *m, OpId op, const NodeId *args, uint32_t n, const char *const *kv);

#endif
