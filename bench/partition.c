/*
** partition.c: `make bench` for the partitioner.
**
** Times ir_partition(), the whole pipeline (merge composites, annotate,
** merge regions, outline), for the target table bench/partition.rules on
** graphs of about 10k, 100k and 1M nodes of three shapes:
**
**   conv chain     TFLite-style quantized conv blocks (uint8 data, int8
**                  weights, int32 bias, requantize to uint8; every other
**                  block padded explicitly), each followed by a clip: every
**                  block becomes a composite, and the chain one region;
**   alternating    clip, exp, clip, exp, ...: supported and unsupported
**                  ops alternate, so that every clip is a region of its own,
**                  the most regions a graph of this size can have;
**   diamonds       residual blocks y = add(B(x), clip(clip(x))), where the
**                  branch B is exp in every other block and clip in the
**                  others: the region merge at add is refused (it would make
**                  a cycle through exp) in the first kind and made in the
**                  second.
**
** Figures are ns per node of the graph before partitioning, median of
** several runs, each on a freshly built graph; building it and inferring
** its types are not timed.  The runs of each shape and size are made in a
** child process, whose peak resident set is printed with them.  The
** machine is shared, so read the ratios.  Nothing here asserts a time.
*/
#define _DEFAULT_SOURCE         /* wait4, MAP_ANONYMOUS */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "partition.h"

extern const Ruleset graft_ruleset_bench;

enum { CHAIN, ALTERNATING, DIAMONDS, NSHAPES };

static const char *const shapename[NSHAPES] = { "conv chain", "alternating", "diamonds" };

static const int64_t dims4[] = { 1, 4, 4, 4 };

/* chain: @main of about `target` nodes: TFLite-style quantized conv
** blocks with 4 channels on 1x4x4x4 uint8 data, each followed by a clip;
** every op has constants of its own, scales and zero points included, as
** TVM's TFLite frontend and graft's parser make them */
static Module *
chain(uint32_t target)
{
	Module *m = ir_module_new();
	Loc nl = { 0, 0, 0 };
	int64_t w1[] = { 4, 4, 1, 1 }, w3[] = { 4, 4, 3, 3 }, bd[] = { 4 };
	NodeId x = ir_var(m, ir_symz(m, "input"), ir_type_tensor(m, DT_UINT8, 4, dims4), nl);
	NodeId cur = x, fn;
	uint8_t padv = 114;
	static const char *const pad[] = { "pad_width", "[[0, 0], [0, 0], [1, 1], [1, 1]]", NULL };
	static const char *const conv1[] = { "channels", "4", "kernel_size", "[1, 1]", "out_dtype", "\"int32\"", NULL };
	static const char *const conv3[] = { "channels", "4", "kernel_size", "[3, 3]", "out_dtype", "\"int32\"", NULL };
	static const char *const req[] = { "axis", "1", "out_dtype", "\"uint8\"", NULL };
	static const char *const clip[] = { "a_min", "0f", "a_max", "255f", NULL };
	int8_t w[36 * 4];
	int32_t b[4];

	for (int i = 0; i < 36 * 4; i++)
		w[i] = (int8_t)((i * 37) % 255 - 127);
	for (int i = 0; i < 4; i++)
		b[i] = i * 100 - 150;
	for (uint32_t k = 0; m->nnodes < target; k++) {
		int padded = k % 2;
		NodeId wc = ir_const(m, ir_type_tensor(m, DT_INT8, 4, padded ? w3 : w1), w, nl);
		NodeId bc = ir_const(m, ir_type_tensor(m, DT_INT32, 1, bd), b, nl);
		NodeId in = cur, cv, ba, rq;
		if (padded) {
			NodeId pv = ir_const(m, ir_type_scalar(m, DT_UINT8), &padv, nl);
			NodeId a0[] = { cur, pv };
			in = bench_call(m, OP_NN_PAD, a0, 2, pad);
		}
		{
			NodeId z_in = bench_scalari(m, 114), z_w = bench_scalari(m, 0);
			NodeId s_in = bench_scalarf(m, 0.0186579f), s_w = bench_scalarf(m, 0.00288958f);
			NodeId a1[] = { in, wc, z_in, z_w, s_in, s_w };
			cv = bench_call(m, OP_QNN_CONV2D, a1, 6, padded ? conv3 : conv1);
		}
		{
			NodeId a2[] = { cv, bc };
			ba = bench_call(m, OP_NN_BIAS_ADD, a2, 2, NULL);
		}
		{
			NodeId s_b = bench_scalarf(m, 5.39136e-05f), z_b = bench_scalari(m, 0);
			NodeId s_out = bench_scalarf(m, 0.0150183f), z_out = bench_scalari(m, 114);
			NodeId a3[] = { ba, s_b, z_b, s_out, z_out };
			rq = bench_call(m, OP_QNN_REQUANTIZE, a3, 5, req);
		}
		cur = bench_call(m, OP_CLIP, &rq, 1, clip);
	}
	fn = ir_func(m, &x, 1, cur, 0, 0, 0, nl);
	ir_global_add(m, ir_symz(m, "main"), fn);
	return m;
}

/* alternating: @main of about `target` nodes: clip, exp, clip, exp, ...
** on 1x4x4x4 float32 */
static Module *
alternating(uint32_t target)
{
	Module *m = ir_module_new();
	Loc nl = { 0, 0, 0 };
	NodeId x = ir_var(m, ir_symz(m, "input"), ir_type_tensor(m, DT_FLOAT32, 4, dims4), nl);
	NodeId cur = x, fn;
	static const char *const clip[] = { "a_min", "-1f", "a_max", "1f", NULL };

	while (m->nnodes < target) {
		cur = bench_call(m, OP_CLIP, &cur, 1, clip);
		cur = bench_call(m, OP_EXP, &cur, 1, NULL);
	}
	fn = ir_func(m, &x, 1, cur, 0, 0, 0, nl);
	ir_global_add(m, ir_symz(m, "main"), fn);
	return m;
}

/* diamonds: @main of about `target` nodes: blocks
** x -> add(B(x), clip(clip(x))) on 1x4x4x4 float32, B = exp in even
** blocks and clip in odd ones */
static Module *
diamonds(uint32_t target)
{
	Module *m = ir_module_new();
	Loc nl = { 0, 0, 0 };
	NodeId x = ir_var(m, ir_symz(m, "input"), ir_type_tensor(m, DT_FLOAT32, 4, dims4), nl);
	NodeId cur = x, fn;
	static const char *const clip[] = { "a_min", "-1f", "a_max", "1f", NULL };

	/* a supported head, so that the first block's x is in a region */
	cur = bench_call(m, OP_CLIP, &cur, 1, clip);
	for (uint32_t k = 0; m->nnodes < target; k++) {
		NodeId a = bench_call(m, OP_CLIP, &cur, 1, clip);
		NodeId b = bench_call(m, OP_CLIP, &a, 1, clip);
		NodeId e = bench_call(m, k % 2 ? OP_CLIP : OP_EXP, &cur, 1, k % 2 ? clip : NULL);
		NodeId args[] = { e, b };
		cur = bench_call(m, OP_ADD, args, 2, NULL);
	}
	fn = ir_func(m, &x, 1, cur, 0, 0, 0, nl);
	ir_global_add(m, ir_symz(m, "main"), fn);
	return m;
}

static Module *(*const builder[NSHAPES])(uint32_t) = { chain, alternating, diamonds };

/* run: partitions a fresh graph of shape sh and about `target` nodes:
** ns per node; *nodes, *st what it was and what was made; *refused the
** merges refused for cycles when explain is set */
static double
run(int sh, uint32_t target, int explain, uint32_t *nodes, PartStats *st, uint32_t *refused)
{
	Module *m = builder[sh](target);
	const Ruleset *targets[] = { &graft_ruleset_bench };
	Partitioner p = { 0 };
	Diag d;
	double t0, t;

	ir_diag_init(&d, stderr, m);
	if (ir_infer_types(m, &d))
		ir_die("bench: the %s graph does not type-check", shapename[sh]);
	*nodes = m->nnodes - 1;
	p.m = m;
	p.d = &d;
	p.targets = targets;
	p.ntargets = 1;
	p.stop = PS_ALL;
	p.explain = explain;
	t0 = bench_now();
	if (ir_partition(&p))
		ir_die("bench: partitioning the %s graph failed", shapename[sh]);
	t = (bench_now() - t0) / *nodes;
	*st = p.st;
	st->fired = NULL;
	*refused = 0;
	for (uint32_t i = 0; i < p.nwhy; i++)
		*refused += p.why[i].kind == WHY_CYCLE;
	ir_partition_free(&p);
	ir_diag_free(&d);
	ir_module_free(m);
	return t;
}

/* One size of one shape, measured in a child process so that its peak
** resident set is its own. */
typedef struct Result {
	double ns;              /* median ns per node */
	uint32_t nodes;
	uint64_t composites, regions;
	int done;
} Result;

/* measure: runs of shape sh at `target` nodes into *res; the peak RSS of
** the process that ran them in MB, or -1 on failure */
static double
measure(int sh, uint32_t target, int runs, Result *res)
{
	pid_t pid;
	int status;
	struct rusage ru;

	res->done = 0;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		double t[BENCH_MAXRUNS];
		uint32_t refused;
		PartStats st;
		for (int r = 0; r < runs; r++)
			t[r] = run(sh, target, 0, &res->nodes, &st, &refused);
		res->ns = bench_median(t, runs);
		res->composites = st.composites;
		res->regions = st.regions;
		res->done = 1;
		_exit(0);
	}
	if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status) || !res->done)
		return -1;
	return (double)ru.ru_maxrss / 1024;   /* kB on Linux */
}

int
main(int argc, char **argv)
{
	double ns[BENCH_SIZES][NSHAPES];
	int runs, nsizes = bench_args(argc, argv, &runs);
	/* shared with the children */
	Result *res = mmap(NULL, sizeof *res, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (res == MAP_FAILED)
		ir_die("bench: mmap");
	printf("graft partition benchmark: composite + annotate + merge + outline, target \"bench\"\n");
	printf("median of %d runs; ns per graph node; made: composites/partitions; peak RSS of the runs\n\n", runs);
	printf("%9s", "");
	for (int sh = 0; sh < NSHAPES; sh++)
		printf(sh + 1 < NSHAPES ? "  %-29s" : "  %s", shapename[sh]);
	printf("\n%9s", "nodes");
	for (int sh = 0; sh < NSHAPES; sh++)
		printf("  %8s %13s %6s", "ns/node", "made", "MB");
	printf("\n");
	for (int s = 0; s < nsizes; s++) {
		printf("%9u", bench_sizes[s]);
		for (int sh = 0; sh < NSHAPES; sh++) {
			char made[48];
			double mb = measure(sh, bench_sizes[s], runs, res);
			if (mb < 0) {
				fprintf(stderr, "\nbench: the %s runs of %u nodes failed\n", shapename[sh], bench_sizes[s]);
				return 1;
			}
			ns[s][sh] = res->ns;
			snprintf(made, sizeof made, "%llu/%llu", (unsigned long long)res->composites,
			         (unsigned long long)res->regions);
			printf("  %8.1f %13s %6.0f", res->ns, made, mb);
		}
		printf("\n");
	}
	{
		/* what the diamonds are for, on the smallest graph: not timed */
		uint32_t nodes, refused;
		PartStats st;
		run(DIAMONDS, bench_sizes[0], 1, &nodes, &st, &refused);
		printf("\ndiamonds of %u nodes: %u region merges refused for cycles\n", nodes, refused);
	}
	if (nsizes < BENCH_SIZES)
		return 0;
	printf("per-node cost, 1M against 10k:");
	for (int sh = 0; sh < NSHAPES; sh++)
		printf("%s %s %.2fx", sh ? "," : "", shapename[sh], ns[2][sh] / ns[0][sh]);
	printf("\ngoals: under 1000 ns/node at 1M (");
	for (int sh = 0; sh < NSHAPES; sh++)
		printf("%s%.1f", sh ? ", " : "", ns[2][sh]);
	printf("); 1M within 2x of 10k (");
	for (int sh = 0; sh < NSHAPES; sh++)
		printf("%s%.2fx", sh ? ", " : "", ns[2][sh] / ns[0][sh]);
	printf(")\n");
	return 0;
}
