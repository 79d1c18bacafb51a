/*
** backends.c: `make bench` for the execution backends.
**
**   graft-bench-backends DIR [RUNS]
**
** DIR holds what bench/qconv.py writes: a network of int8 3x3 qnn.conv2d
** layers at 56x56x64, batch 1 (qconv.relay, qconv.safetensors), its input
** (input.npy), PyTorch's output (torch.npy) and PyTorch's single-threaded
** time per inference for each of its quantized engines (torch.txt).
**
** Runs the network once on the reference interpreter, the oracle, then
** RUNS times (default 7) on the C backend (cc -O2) and on the LLVM
** backend (O2, JIT), all single-threaded in this process, and prints the
** median time per inference of each, the ratios asked for (llvm against
** c, llvm against each PyTorch engine), and how the outputs agree: c and
** llvm with ref (bit for bit), ref with PyTorch (within one quantization
** step: PyTorch requantizes in floating point, TVM's rules in Q31 fixed
** point).  Nothing here asserts a time.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "bench.h"
#include "bind.h"
#include "npy.h"
#include "safetensors.h"
#include "text.h"

/* load: DIR/qconv.relay with DIR/qconv.safetensors bound, typed; NULL
** after printing why */
static Module *
load(const char *dir, Diag *d)
{
	char path[4096], err[512];
	size_t len = 0;
	char *text;
	const char *what;
	Module *m = ir_module_new();
	StFile st = { 0 };

	ir_diag_init(d, stderr, m);
	snprintf(path, sizeof path, "%s/qconv.relay", dir);
	if (ir_read_file(path, SIZE_MAX / 2, &text, &len, &what) != 0) {
		fprintf(stderr, "bench: cannot read %s: run bench/qconv.py %s first\n", path, dir);
		return NULL;
	}
	if (ir_parse(m, d, path, text, len)) {
		free(text);
		return NULL;
	}
	free(text);
	snprintf(path, sizeof path, "%s/qconv.safetensors", dir);
	if (ir_st_read(path, &st, err, sizeof err) != 0) {
		fprintf(stderr, "%s\n", err);
		return NULL;
	}
	if (ir_bind_params(m, &st, path, d)) {
		ir_st_free(&st);
		return NULL;
	}
	ir_st_free(&st);
	ir_dce(m);
	if (ir_infer_types(m, d))
		return NULL;
	return m;
}

/* timed: median ns of runs runs of be on m (prepared once); out gets the
** last run's outputs; -1 if the backend refused */
static double
timed(const Backend *be, const Module *m, const BeSig *sig, const Tensor *in, Tensor *out, int runs, Diag *d)
{
	BeOpts o = { .opt = 2 };
	Program *p = be->prepare(m, &o, d);
	double t[BENCH_MAXRUNS];

	if (!p)
		return -1;
	for (int r = 0; r < runs; r++) {
		double t0;
		if (r)
			for (uint32_t j = 0; j < sig->nout; j++)
				ir_tensor_free(&out[j]);
		t0 = bench_now();
		if (be->run(p, in, out, d)) {
			be->release(p);
			return -1;
		}
		t[r] = bench_now() - t0;
	}
	be->release(p);
	return bench_median(t, runs);
}

/* same: 1 if a and b hold the same bytes */
static int
same(const Tensor *a, const Tensor *b)
{
	size_t n = ir_tensor_bytes(a);
	return a->dt == b->dt && n == ir_tensor_bytes(b) && memcmp(a->data, b->data, n) == 0;
}

/* within1: the percentage of uint8 elements of a and b that differ by at most 1 */
static double
within1(const Tensor *a, const Tensor *b)
{
	size_t n = ir_tensor_bytes(a), k = 0;

	if (a->dt != DT_UINT8 || b->dt != DT_UINT8 || n != ir_tensor_bytes(b) || !n)
		return 0;
	for (size_t i = 0; i < n; i++)
		k += abs((int)a->data[i] - (int)b->data[i]) <= 1;
	return 100.0 * (double)k / (double)n;
}

int
main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "bench-qconv";
	int runs = argc > 2 ? atoi(argv[2]) : 7;
	char path[4096], err[512];
	Diag d;
	BeSig sig;
	Module *m;
	Tensor in = { 0 }, want = { 0 }, ref[4] = { { 0 } }, c[4] = { { 0 } }, llvm[4] = { { 0 } };
	double tref, tc, tllvm, macs = 0;
	char engine[BENCH_ENGINES][64];
	double ns[BENCH_ENGINES];
	int nengines;

	if (runs < 1 || runs > BENCH_MAXRUNS) {
		fprintf(stderr, "usage: graft-bench-backends DIR [RUNS (1..%d)]\n", BENCH_MAXRUNS);
		return 2;
	}
	if (!(m = load(dir, &d)))
		return 1;
	if (be_sig(m, &sig, &d) || sig.nin != 1 || sig.nout != 1)
		return 1;
	snprintf(path, sizeof path, "%s/input.npy", dir);
	if (npy_read(path, &in, err, sizeof err) != 0) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	/* multiply-accumulates: every qnn.conv2d's output elements times its
	   input channels times its kernel's area */
	for (NodeId n = 1; n < m->nnodes; n++)
		if (m->nodes[n].kind == NK_CALL && m->nodes[n].op == OP_QNN_CONV2D) {
			const int64_t *w = ir_type_dims(m, m->nodes[ir_arg(m, n, 1)].type);
			macs += (double)ir_type_numel(m, m->nodes[n].type) * (double)(w[1] * w[2] * w[3]);
		}

	printf("graft backend benchmark: %s (%.0fM multiply-accumulates), single-threaded\n", dir, macs / 1e6);
	printf("median of %d runs (ref: one run)\n\n", runs);
	tref = timed(&be_ref, m, &sig, &in, ref, 1, &d);
	tc = timed(&be_c, m, &sig, &in, c, runs, &d);
	tllvm = timed(&be_llvm, m, &sig, &in, llvm, runs, &d);
	printf("%-22s %12s %10s\n", "backend", "ms/inference", "GMAC/s");
	if (tref > 0)
		printf("%-22s %12.2f %10.2f\n", "ref (interpreter)", tref / 1e6, macs / tref);
	if (tc > 0)
		printf("%-22s %12.2f %10.2f\n", "c (cc -O2)", tc / 1e6, macs / tc);
	if (tllvm > 0)
		printf("%-22s %12.2f %10.2f\n", "llvm (O2, JIT)", tllvm / 1e6, macs / tllvm);
	nengines = bench_torch_ns(dir, engine, ns, BENCH_ENGINES);
	for (int k = 0; k < nengines; k++) {
		printf("%-22s %12.2f %10.2f", engine[k], ns[k] / 1e6, macs / ns[k]);
		if (tllvm > 0)
			printf("   llvm/%s %.2fx", engine[k], tllvm / ns[k]);
		printf("\n");
	}
	printf("\n");
	if (tc > 0 && tllvm > 0)
		printf("llvm against c: %.2fx the time (goal: at most 1x)\n", tllvm / tc);
	if (tref > 0 && tc > 0)
		printf("c %s ref bit for bit\n", same(&c[0], &ref[0]) ? "equals" : "DIFFERS FROM");
	if (tref > 0 && tllvm > 0)
		printf("llvm %s ref bit for bit\n", same(&llvm[0], &ref[0]) ? "equals" : "DIFFERS FROM");
	snprintf(path, sizeof path, "%s/torch.npy", dir);
	if (tref > 0 && npy_read(path, &want, err, sizeof err) == 0)
		printf("ref within one step of PyTorch on %.2f%% of the outputs\n", within1(&ref[0], &want));
	ir_tensor_free(&in);
	ir_tensor_free(&want);
	ir_tensor_free(&ref[0]);
	ir_tensor_free(&c[0]);
	ir_tensor_free(&llvm[0]);
	be_sig_free(&sig);
	ir_diag_free(&d);
	ir_module_free(m);
	return 0;
}
