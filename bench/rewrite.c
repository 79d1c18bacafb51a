/*
** rewrite.c: `make bench` for the rules compiler and the rewrite driver.
**
** Builds graphs of 10k, 100k and 1M nodes made of the quantized conv block
** that TVM imports from PyTorch (seed 000: float weights and bias quantized
** in the graph, requantize to int32, clip, cast), and measures, in ns per
** node of the graph:
**
**   generated      one call of canonicalize's generated matcher per node,
**                  in post-order, with builders in dry-run mode (they make
**                  nothing), so that only matching is timed;
**   hand-written   the same, with a matcher written by hand in C that makes
**                  the same matches on the same IR (bench/handmatch.c);
**   rewrite        ir_rewrite() to its fixed point on a fresh graph: every
**                  match, fold, type check and node replacement.
**
** Each figure is the median of several runs; the machine is shared, so the
** ratios are what to read.  Nothing here asserts a time.
**
** Then where the rewrite's time goes: the same rewrite with rulesets that
** hold parts of canonicalize (bench/rewrite_*.rules): a rule that never
** fires (visiting every node and trying the matcher), the
** requantize-clip-cast rules alone, the fold alone.
*/
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "handmatch.h"
#include "interp.h"
#include "rewrite.h"

extern const Ruleset graft_ruleset_canonicalize, graft_ruleset_bench_none, graft_ruleset_bench_cast,
	graft_ruleset_bench_fold;

/* build: @main of about `target` nodes: blocks of the PyTorch-style
** quantized conv (4 channels, 1x1 kernels) chained through uint8 */
static Module *
build(uint32_t target)
{
	Module *m = ir_module_new();
	Loc nl = { 0, 0, 0 };
	int64_t in[] = { 1, 4, 8, 8 }, wd[] = { 4, 4, 1, 1 }, bd[] = { 4 };
	NodeId x = ir_var(m, ir_symz(m, "input"), ir_type_tensor(m, DT_FLOAT32, 4, in), nl);
	NodeId s_in = bench_scalarf(m, 0.0186579f), z_in = bench_scalari(m, 114), s_w = bench_scalarf(m, 0.00288958f);
	NodeId z0 = bench_scalari(m, 0), s_b = bench_scalarf(m, 5.39136e-05f), s_out = bench_scalarf(m, 0.0150183f);
	NodeId cur, fn;
	static const char *const q_in[] = { "out_dtype", "\"uint8\"", "axis", "1", NULL };
	static const char *const q_w[] = { "out_dtype", "\"int8\"", "axis", "0", NULL };
	static const char *const q_b[] = { "out_dtype", "\"int32\"", "axis", "0", NULL };
	static const char *const conv[] = { "channels", "4", "kernel_size", "[1, 1]", "out_dtype", "\"int32\"", NULL };
	static const char *const req[] = { "axis", "1", "out_dtype", "\"int32\"", NULL };
	static const char *const clip[] = { "a_min", "0f", "a_max", "255f", NULL };
	static const char *const cast[] = { "dtype", "\"uint8\"", NULL };
	float w[16], b[4];

	for (int i = 0; i < 16; i++)
		w[i] = (float)((i * 37) % 255 - 127) * 0.00288958f;
	for (int i = 0; i < 4; i++)
		b[i] = (float)(i * 100 - 150) * 5.39136e-05f;
	{
		NodeId a[] = { x, s_in, z_in };
		cur = bench_call(m, OP_QNN_QUANTIZE, a, 3, q_in);
	}
	while (m->nnodes < target) {
		NodeId wc = ir_const(m, ir_type_tensor(m, DT_FLOAT32, 4, wd), w, nl);
		NodeId bc = ir_const(m, ir_type_tensor(m, DT_FLOAT32, 1, bd), b, nl);
		NodeId a1[] = { wc, s_w, z0 }, qw = bench_call(m, OP_QNN_QUANTIZE, a1, 3, q_w);
		NodeId a2[] = { cur, qw, z_in, z0, s_in, s_w }, cv = bench_call(m, OP_QNN_CONV2D, a2, 6, conv);
		NodeId a3[] = { bc, s_b, z0 }, qb = bench_call(m, OP_QNN_QUANTIZE, a3, 3, q_b);
		NodeId a4[] = { cv, qb }, ba = bench_call(m, OP_NN_BIAS_ADD, a4, 2, NULL);
		NodeId a5[] = { ba, s_b, z0, s_out, z_in }, rq = bench_call(m, OP_QNN_REQUANTIZE, a5, 5, req);
		NodeId cl = bench_call(m, OP_CLIP, &rq, 1, clip);
		cur = bench_call(m, OP_CAST, &cl, 1, cast);
	}
	fn = ir_func(m, &x, 1, cur, 0, 0, 0, nl);
	ir_global_add(m, ir_symz(m, "main"), fn);
	return m;
}

/* postorder: the calls of m in post-order */
static NodeId *
postorder(Module *m, uint32_t *n)
{
	NodeId *v = ir_xmalloc(m->nnodes * sizeof *v);
	uint32_t k = 0;
	/* nodes are created operands first, so id order is a post-order */
	for (NodeId i = 1; i < m->nnodes; i++)
		if (m->nodes[i].kind == NK_CALL)
			v[k++] = i;
	*n = k;
	return v;
}

typedef NodeId Matcher(Rw *rw, NodeId n, uint32_t *rule);

/* rewritetime: median ns per graph node of ir_rewrite with rs on fresh
** graphs of about `size` nodes; *rewrites gets the last run's count */
static double
rewritetime(uint32_t size, const Ruleset *rs, int runs, uint64_t *rewrites)
{
	double t[BENCH_MAXRUNS];

	for (int r = 0; r < runs; r++) {
		Module *m = build(size);
		Diag d;
		RwStats st;
		double t0;

		ir_diag_init(&d, stderr, m);
		if (ir_infer_types(m, &d))
			exit(1);
		t0 = bench_now();
		if (ir_rewrite(m, rs, &d, &st))
			exit(1);
		t[r] = (bench_now() - t0) / (m->nnodes - 1);
		*rewrites = st.rewrites;
		free(st.fired);
		ir_module_free(m);
	}
	return bench_median(t, runs);
}

/* matchpass: ns per graph node for one dry matching pass; *hits counts matches */
static double
matchpass(Module *m, Rw *rw, Matcher *fn, const NodeId *calls, uint32_t ncalls, uint64_t *hits)
{
	uint64_t h = 0;
	double t0 = bench_now();
	for (uint32_t i = 0; i < ncalls; i++) {
		uint32_t rule;
		rw->root = calls[i];
		rw->gfail = 0;
		if (fn(rw, calls[i], &rule))
			h++;
	}
	*hits = h;
	return (bench_now() - t0) / (m->nnodes - 1);
}

/* interpreted: canonicalize loaded at run time (interp/) against its
** generated matcher, matching alone and whole rewrites; 1 on failure */
static int
interpreted(int nsizes, int runs)
{
	const Ruleset *rs = interp_load(GRAFT_SRCDIR "/rulesets/canonicalize.rules", stderr);

	if (!rs)
		return 1;
	printf("\nrules loaded at run time (interp/): canonicalize.rules interpreted, against its generated matcher\n");
	printf("%9s  %10s  %12s  %6s  %10s  %12s  %6s\n", "nodes", "match gen", "match interp", "ratio", "rewrite gen",
	       "rewrite interp", "ratio");
	for (int s = 0; s < nsizes; s++) {
		double tg[BENCH_MAXRUNS], ti[BENCH_MAXRUNS], g, i, rg, ri;
		uint64_t hg = 0, hi = 0, ng, ni;
		for (int r = 0; r < runs; r++) {
			Module *m = build(bench_sizes[s]);
			Diag d;
			Rw rg_, ri_;
			uint32_t ncalls;
			NodeId *calls;

			ir_diag_init(&d, stderr, m);
			if (ir_infer_types(m, &d))
				return 1;
			calls = postorder(m, &ncalls);
			ir_rw_init(&rg_, m, &graft_ruleset_canonicalize, &d);
			ir_rw_init(&ri_, m, rs, &d);
			rg_.dry = ri_.dry = 1;
			if (r % 2) {
				ti[r] = matchpass(m, &ri_, rs->match, calls, ncalls, &hi);
				tg[r] = matchpass(m, &rg_, graft_ruleset_canonicalize.match, calls, ncalls, &hg);
			} else {
				tg[r] = matchpass(m, &rg_, graft_ruleset_canonicalize.match, calls, ncalls, &hg);
				ti[r] = matchpass(m, &ri_, rs->match, calls, ncalls, &hi);
			}
			ir_rw_free(&rg_);
			ir_rw_free(&ri_);
			free(calls);
			ir_diag_free(&d);
			ir_module_free(m);
			if (hg != hi) {
				fprintf(stderr, "bench: generated and interpreted disagree: %llu and %llu matches\n",
				        (unsigned long long)hg, (unsigned long long)hi);
				return 1;
			}
		}
		g = bench_median(tg, runs);
		i = bench_median(ti, runs);
		rg = rewritetime(bench_sizes[s], &graft_ruleset_canonicalize, runs, &ng);
		ri = rewritetime(bench_sizes[s], rs, runs, &ni);
		if (ng != ni) {
			fprintf(stderr, "bench: generated and interpreted disagree: %llu and %llu rewrites\n",
			        (unsigned long long)ng, (unsigned long long)ni);
			return 1;
		}
		printf("%9u  %10.2f  %12.2f  %5.2fx  %11.2f  %14.2f  %5.2fx\n", bench_sizes[s], g, i, i / g, rg, ri, ri / rg);
	}
	printf("goal: interpreted within 3x of generated\n");
	interp_free(rs);
	return 0;
}

int
main(int argc, char **argv)
{
	double gen[BENCH_SIZES], hand[BENCH_SIZES], rew[BENCH_SIZES];
	int runs, nsizes = bench_args(argc, argv, &runs);

	printf("graft rewrite benchmark: canonicalize on PyTorch-style quantized conv blocks\n");
	printf("median of %d runs; ns per graph node\n\n", runs);
	printf("%9s  %10s  %12s  %6s  %8s  %s\n", "nodes", "generated", "hand-written", "ratio", "rewrite", "rewrites");
	for (int s = 0; s < nsizes; s++) {
		double tg[BENCH_MAXRUNS], th[BENCH_MAXRUNS], tr[BENCH_MAXRUNS];
		uint64_t hg = 0, hh = 0, rewrites = 0;
		uint32_t nodes = 0;
		for (int r = 0; r < runs; r++) {
			Module *m = build(bench_sizes[s]);
			Diag d;
			Rw rw;
			uint32_t ncalls;
			NodeId *calls;
			RwStats st;
			double t0;

			ir_diag_init(&d, stderr, m);
			if (ir_infer_types(m, &d))
				return 1;
			nodes = m->nnodes - 1;
			calls = postorder(m, &ncalls);
			ir_rw_init(&rw, m, &graft_ruleset_canonicalize, &d);
			rw.dry = 1;
			/* alternate the order of the two matchers between runs */
			if (r % 2) {
				th[r] = matchpass(m, &rw, bench_handmatch, calls, ncalls, &hh);
				tg[r] = matchpass(m, &rw, graft_ruleset_canonicalize.match, calls, ncalls, &hg);
			} else {
				tg[r] = matchpass(m, &rw, graft_ruleset_canonicalize.match, calls, ncalls, &hg);
				th[r] = matchpass(m, &rw, bench_handmatch, calls, ncalls, &hh);
			}
			ir_rw_free(&rw);
			free(calls);
			if (hg != hh) {
				fprintf(stderr, "bench: the matchers disagree: %llu and %llu matches\n",
				        (unsigned long long)hg, (unsigned long long)hh);
				return 1;
			}
			t0 = bench_now();
			if (ir_rewrite(m, &graft_ruleset_canonicalize, &d, &st))
				return 1;
			tr[r] = (bench_now() - t0) / nodes;
			rewrites = st.rewrites;
			free(st.fired);
			ir_module_free(m);
		}
		gen[s] = bench_median(tg, runs);
		hand[s] = bench_median(th, runs);
		rew[s] = bench_median(tr, runs);
		printf("%9u  %10.2f  %12.2f  %5.2fx  %8.2f  %llu (%llu matches)\n", nodes, gen[s], hand[s],
		       gen[s] / hand[s], rew[s], (unsigned long long)rewrites, (unsigned long long)hg);
	}
	if (interpreted(nsizes, runs))
		return 1;
	printf("\nwhere the rewrite's time goes, ns per graph node (bench/rewrite_*.rules; rewrites in brackets)\n");
	printf("%9s  %16s  %22s  %22s  %10s\n", "nodes", "no rule fires", "requantize-clip-cast", "fold of quantize",
	       "all rules");
	for (int s = 0; s < nsizes; s++) {
		uint64_t nn, nc, nf;
		double tn = rewritetime(bench_sizes[s], &graft_ruleset_bench_none, runs, &nn);
		double tc = rewritetime(bench_sizes[s], &graft_ruleset_bench_cast, runs, &nc);
		double tf = rewritetime(bench_sizes[s], &graft_ruleset_bench_fold, runs, &nf);
		printf("%9u  %16.2f  %12.2f (%7llu)  %12.2f (%7llu)  %10.2f\n", bench_sizes[s], tn, tc,
		       (unsigned long long)nc, tf, (unsigned long long)nf, rew[s]);
	}
	if (nsizes < BENCH_SIZES)
		return 0;
	printf("\nper-node cost, 1M against 10k: generated %.2fx, hand-written %.2fx, rewrite %.2fx\n",
	       gen[2] / gen[0], hand[2] / hand[0], rew[2] / rew[0]);
	printf("goals: generated within 1.3x of hand-written (%.2fx); rewrite under 20 ns/node at 1M (%.2f); "
	       "1M within 2x of 10k (rewrite %.2fx, generated matcher %.2fx)\n", gen[2] / hand[2], rew[2],
	       rew[2] / rew[0], gen[2] / gen[0]);
	return 0;
}
