/*
** bench.c: the helpers of bench.h.
*/
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"

const uint32_t bench_sizes[BENCH_SIZES] = { 10000, 100000, 1000000 };

int
bench_args(int argc, char **argv, int *runs)
{
	int nsizes = BENCH_SIZES;

	*runs = argc > 1 ? atoi(argv[1]) : 7;
	if (*runs < 1)
		*runs = 1;
	if (*runs > BENCH_MAXRUNS)
		*runs = BENCH_MAXRUNS;
	/* MAXNODES: smaller graphs only, for profiling runs */
	if (argc > 2)
		while (nsizes > 1 && bench_sizes[nsizes - 1] > (uint32_t)atol(argv[2]))
			nsizes--;
	return nsizes;
}

double
bench_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int
dblcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

double
bench_median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, dblcmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

NodeId
bench_scalarf(Module *m, float v)
{
	return ir_const(m, ir_type_scalar(m, DT_FLOAT32), &v, (Loc){ 0, 0, 0 });
}

NodeId
bench_scalari(Module *m, int32_t v)
{
	return ir_const(m, ir_type_scalar(m, DT_INT32), &v, (Loc){ 0, 0, 0 });
}

/* setattr: field `name` of attribute record a to the Relay literal lit */
static void
setattr(Module *m, OpId op, AttrId a, const char *name, const char *lit)
{
	int k = ir_op_attr_index(op, name, strlen(name));
	AttrVal v;
	if (k < 0 || !ir_attr_parse(m, lit, &v) || ir_attr_conform(m, ir_ops[op].attrs[k].type, &v))
		ir_die("bench: %s=%s", name, lit);
	m->attrs[a + (uint32_t)k] = v;
}

NodeId
bench_call(Module *m, OpId op, const NodeId *args, uint32_t n, const char *const *kv)
{
	AttrId a = ir_attr_defaults(m, op);
	for (; kv && kv[0]; kv += 2)
		setattr(m, op, a, kv[0], kv[1]);
	return ir_call(m, op, args, n, a, (Loc){ 0, 0, 0 });
}

int
bench_torch_ns(const char *dir, char (*engine)[64], double *ns, int max)
{
	char path[4096], line[256];
	FILE *f;
	int n = 0;

	snprintf(path, sizeof path, "%s/torch.txt", dir);
	if (!(f = fopen(path, "r")))
		return 0;
	while (n < max && fgets(line, sizeof line, f))
		if (sscanf(line, "torch_ns %63s %lf", engine[n], &ns[n]) == 2)
			n++;
	fclose(f);
	return n;
}
