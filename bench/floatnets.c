/*
** floatnets.c: `make bench` for float32 inference on real models.
**
**   graft-bench-floatnets DIR [RUNS]
**
** DIR holds what bench/floatnets.py writes: the names of its models
** (floatnets.txt), and for each NAME torchvision's float32 model as ONNX
** (NAME.onnx), its input (NAME.in.npy) and PyTorch's output for it
** (NAME.out.npy); and PyTorch's single-threaded median ns per inference
** of each (torch.txt, a line "torch_ns NAME NS" per model), and on all
** N cores ("torch_ns NAME@N NS").
**
** Each model is imported, typed and prepared on the llvm backend (-O2,
** JIT) as `graft run --backend llvm --threads 1 NAME.onnx` does; then it
** runs RUNS times (default 7) on one thread, and one line gives the median ms per
** inference beside PyTorch's, their ratio, and the largest absolute
** difference of graft's output from PyTorch's; then the same on all N
** cores (graft run --threads N) against PyTorch on N threads.  Nothing
** here asserts a time.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "bench.h"
#include "llvm.h"
#include "npy.h"
#include "onnx.h"

/* prepare: NAME.onnx of dir prepared on llvm; NULL after reporting */
static Program *
prepare(const char *dir, const char *name)
{
	char path[4096];
	Module *m = ir_module_new();
	Diag d;
	BeOpts bo = { .opt = 2, .threads = 1 };
	BeStats st = { 0 };
	Program *prog = NULL;

	snprintf(path, sizeof path, "%s/%s.onnx", dir, name);
	ir_diag_init(&d, stderr, m);
	if (!onnx_import(m, path, &d) && (m->typed || !ir_infer_types(m, &d)))
		prog = be_llvm_prepare(m, &bo, &st, &d);
	ir_diag_free(&d);
	ir_module_free(m);
	return prog;
}

/* maxdiff: the largest |got - want| of two float32 tensors, or -1 if
** they differ in shape or dtype */
static double
maxdiff(const Tensor *got, const Tensor *want)
{
	int64_t n = ir_tensor_numel(got);
	const float *g = (const float *)(const void *)got->data, *w = (const float *)(const void *)want->data;
	double e = 0;

	if (got->dt != DT_FLOAT32 || want->dt != DT_FLOAT32 || n != ir_tensor_numel(want))
		return -1;
	for (int64_t i = 0; i < n; i++)
		if (!(fabs((double)g[i] - w[i]) <= e))
			e = fabs((double)g[i] - w[i]);
	return e;
}

/* bench: one model's lines, on one thread and on all nc cores,
** PyTorch's ns tns[0] and tns[1] (0: unknown); 0, or 1 after reporting */
static int
bench(const char *dir, const char *name, int runs, const double *tns, int nc)
{
	char path[4096], err[512];
	Tensor in = { 0 }, out = { 0 }, want = { 0 };
	double t[BENCH_MAXRUNS], ms;
	Module *none = ir_module_new();
	Program *prog;
	Diag d;
	int bad = 1;

	ir_diag_init(&d, stderr, none);
	snprintf(path, sizeof path, "%s/%s.in.npy", dir, name);
	if (npy_read(path, &in, err, sizeof err) != 0) {
		fprintf(stderr, "%s\n", err);
		goto out;
	}
	if (!(prog = prepare(dir, name)))
		goto out;
	snprintf(path, sizeof path, "%s/%s.out.npy", dir, name);
	if (npy_read(path, &want, err, sizeof err) != 0)
		want.data = NULL;
	for (int pass = 0; pass < (nc > 1 ? 2 : 1); pass++) {
		char label[300];
		be_llvm_threads(prog, pass ? nc : 1);
		for (int r = 0; r < runs; r++) {
			double t0 = bench_now();
			ir_tensor_free(&out);
			if (be_llvm.run(prog, &in, &out, &d))
				goto rel;
			t[r] = bench_now() - t0;
		}
		ms = bench_median(t, runs) / 1e6;
		snprintf(label, sizeof label, "%s%s", name, pass ? " (threads)" : "");
		printf("%-22s %8d %10.2f %10.2f", label, pass ? nc : 1, ms, tns[pass] / 1e6);
		if (tns[pass] > 0)
			printf(" %9.2fx", ms / (tns[pass] / 1e6));
		else
			printf(" %10s", "-");
		if (want.data)
			printf(" %12.3g\n", maxdiff(&out, &want));
		else
			printf(" %12s\n", "-");
	}
	bad = 0;
rel:
	be_llvm.release(prog);
out:
	ir_tensor_free(&in);
	ir_tensor_free(&out);
	ir_tensor_free(&want);
	ir_diag_free(&d);
	ir_module_free(none);
	return bad;
}

int
main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "bench/floatnets";
	int runs = argc > 2 ? atoi(argv[2]) : 7, bad = 0, nt;
	char path[4096], name[256], tname[BENCH_ENGINES][64];
	double tns[BENCH_ENGINES];
	FILE *f;

	if (runs < 1 || runs > BENCH_MAXRUNS) {
		fprintf(stderr, "usage: graft-bench-floatnets DIR [RUNS (1..%d)]\n", BENCH_MAXRUNS);
		return 2;
	}
	snprintf(path, sizeof path, "%s/floatnets.txt", dir);
	if (!(f = fopen(path, "r"))) {
		fprintf(stderr, "%s: run bench/floatnets.py %s first\n", path, dir);
		return 1;
	}
	printf("float32 inference: graft run --backend llvm --threads N (O2, JIT) against PyTorch on as many threads\n");
	printf("median of %d runs (PyTorch: bench/floatnets.py's), 1x3x224x224\n\n", runs);
	printf("%-22s %8s %10s %10s %10s %12s\n", "model", "threads", "graft ms", "torch ms", "graft/torch", "max |diff|");
	nt = bench_torch_ns(dir, tname, tns, BENCH_ENGINES);
	while (fscanf(f, "%255s", name) == 1) {
		double t[2] = { 0, 0 };
		char mt[300];
		snprintf(mt, sizeof mt, "%s@%d", name, be_llvm_cores());
		for (int k = 0; k < nt; k++) {
			if (!strcmp(tname[k], name))
				t[0] = tns[k];
			if (!strcmp(tname[k], mt))
				t[1] = tns[k];
		}
		bad |= bench(dir, name, runs, t, be_llvm_cores());
	}
	fclose(f);
	return bad;
}
