/*
** wholerun.c: `make bench` for whole runs of graft against mlir-opt.
**
**   graft-bench-mlir GRAFT MLIR-OPT DIR [RUNS [MAXNODES]]
**
** Writes three workloads into DIR, each at about 10k, 100k and 1M ops and
** in both tools' formats, runs the two commands on them (RUNS times each,
** default 5, at most 3 at 1M), each run whole (parse, rewrite, print to a
** file), and prints one table of medians:
**
**   qconv   graft: blocks of the PyTorch-style quantized conv that TVM
**           imports (bench/rewrite.c's build(): float weight and bias
**           constants inline, quantized in the graph, requantize, clip,
**           cast), with --rules canonicalize; mlir-opt: blocks of a TOSA
**           quantized conv (tosa.const weights and bias, tosa.conv2d with
**           quantization_info, tosa.rescale, tosa.clamp), with
**           -canonicalize;
**   plain   a chain of float add, tanh and multiply of the input that
**           neither rewrites (graft: add, tanh, multiply; mlir-opt:
**           tosa.add, tosa.tanh, tosa.mul), the same options;
**   params  32 weight matrices of 256x256 float32 and their biases, each
**           used by many blocks (dense, bias_add, tanh; mlir-opt:
**           tosa.fully_connected, tosa.tanh), kept in a parameter file:
**           graft reads meta[relay.Constant][N] from a safetensors file
**           (--params) and writes them back (--save-params); mlir-opt
**           reads dense_resource<wN> with the blobs in the file's
**           dialect_resources section, and prints them there.
**
** Ops are what each tool holds after parsing: graft's IR nodes (calls,
** constants, scalar literals and variables: --time's nodes=), mlir-opt's
** operations (module, func, return and every op of the body).  Each
** tool's wall time is divided by its own ops; the ratio is mlir-opt's ns
** per op over graft's.  Parse and print MB/s are the input and output
** sizes over the times the tools report themselves (graft --time: parse,
** print; mlir-opt --mlir-timing: Parser, Output); peak RSS is the
** kernel's (wait4's ru_maxrss, as /usr/bin/time -v reports it).  graft's
** output is checked against what it printed on the first run; nothing
** here asserts a time.
*/
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE         /* wait4 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "safetensors.h"
#include "text.h"

enum { WL_QCONV, WL_PLAIN, WL_PARAMS, NWORK };
static const char *const wl_names[NWORK] = { "qconv", "plain", "params" };   /* ORDER WL_ */

enum { NW = 32, WN = 256 };     /* params: NW weights of WN x WN */

/* One whole run's figures. */
typedef struct Run {
	double wall;            /* s */
	double parse, print;    /* s, as the tool reports them; 0 if not */
	double rss;             /* MiB */
	long ops;               /* graft: nodes= of its parse line */
} Run;

static const char *dir;

static FILE *
create(const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	return f;
}

static void
closeout(FILE *f, const char *path)
{
	if (ferror(f) | fclose(f)) {
		fprintf(stderr, "bench: cannot write %s\n", path);
		exit(1);
	}
}

static long
filesize(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? (long)st.st_size : 0;
}

/* fl: v as graft prints a float32, into buf */
static const char *
fl(char *buf, float v)
{
	ir_fmt_float(buf, 32, v, DT_FLOAT32);
	return buf;
}

/* stmt: one line of a Relay body, call (printf-style) bound to %id, or
** when last the body's result, unbound */
static void stmt(FILE *f, long id, int last, const char *call, ...) __attribute__((format(printf, 4, 5)));
static void
stmt(FILE *f, long id, int last, const char *call, ...)
{
	va_list ap;

	if (last)
		fputs("  ", f);
	else
		fprintf(f, "  %%%ld = ", id);
	va_start(ap, call);
	vfprintf(f, call, ap);
	va_end(ap);
	fputs(last ? "\n" : ";\n", f);
}

/* ---------------------------------------------------------------- qconv */

/* qconv_relay: graft's qconv of about ops nodes (21 a block, 3 besides) */
static void
qconv_relay(const char *path, long ops)
{
	FILE *f = create(path);
	char w[512] = "", b[128] = "", s[32];
	long nb = (ops - 3) / 21 > 0 ? (ops - 3) / 21 : 1, t = 0;

	/* bench/rewrite.c's build(): 4 channels, 1x1 kernels, (4, 4, 1, 1) */
	for (int i = 0; i < 16; i++) {
		fl(s, (float)((i * 37) % 255 - 127) * 0.00288958f);
		snprintf(w + strlen(w), sizeof w - strlen(w), "%s[[%s%s]]%s", i % 4 ? ", " : i ? "], [" : "[",
		         s, strpbrk(s, ".en") ? "" : ".0", i == 15 ? "]" : "");
	}
	for (int i = 0; i < 4; i++) {
		fl(s, (float)(i * 100 - 150) * 5.39136e-05f);
		snprintf(b + strlen(b), sizeof b - strlen(b), "%s%s%s", i ? ", " : "", s, strpbrk(s, ".en") ? "" : ".0");
	}
	fprintf(f, "def @main(%%input: Tensor[(1, 4, 8, 8), float32]) {\n");
	fprintf(f, "  %%0 = qnn.quantize(%%input, 0.0186579f, 114, out_dtype=\"uint8\", axis=1);\n");
	for (long k = 0; k < nb; k++) {
		fprintf(f, "  %%%ld = qnn.quantize(const([%s], dtype=\"float32\"), 0.00288958f, 0, out_dtype=\"int8\", "
		        "axis=0);\n", t + 1, w);
		fprintf(f, "  %%%ld = qnn.conv2d(%%%ld, %%%ld, 114, 0, 0.0186579f, 0.00288958f, padding=[0, 0, 0, 0], "
		        "channels=4, kernel_size=[1, 1], out_dtype=\"int32\");\n", t + 2, t, t + 1);
		fprintf(f, "  %%%ld = qnn.quantize(const([%s], dtype=\"float32\"), 5.39136e-05f, 0, out_dtype=\"int32\", "
		        "axis=0);\n", t + 3, b);
		fprintf(f, "  %%%ld = nn.bias_add(%%%ld, %%%ld);\n", t + 4, t + 2, t + 3);
		fprintf(f, "  %%%ld = qnn.requantize(%%%ld, 5.39136e-05f, 0, 0.0150183f, 114, axis=1, out_dtype=\"int32\");\n",
		        t + 5, t + 4);
		fprintf(f, "  %%%ld = clip(%%%ld, a_min=0f, a_max=255f);\n", t + 6, t + 5);
		stmt(f, t + 7, k + 1 == nb, "cast(%%%ld, dtype=\"uint8\")", t + 6);
		t += 7;
	}
	fprintf(f, "}\n");
	closeout(f, path);
}

#define QT "tensor<1x8x8x4xi8>"
#define QT32 "tensor<1x8x8x4xi32>"

/* qconv_mlir: the TOSA qconv of about ops operations (5 a block, 3 besides);
** returns the operations */
static long
qconv_mlir(const char *path, long ops)
{
	FILE *f = create(path);
	long nb = (ops - 3) / 5 > 0 ? (ops - 3) / 5 : 1, t = 0;
	char w[512] = "";

	/* OHWI: (4, 1, 1, 4) */
	for (int i = 0; i < 16; i++)
		snprintf(w + strlen(w), sizeof w - strlen(w), "%s%d%s", i % 4 ? ", " : i ? ", [[[" : "[[[",
		         (i * 37) % 255 - 127, i % 4 == 3 ? "]]]" : "");
	fprintf(f, "func.func @main(%%arg0: " QT ") -> " QT " {\n");
	for (long k = 0; k < nb; k++) {
		char in[32];
		snprintf(in, sizeof in, k ? "%%%ld" : "%%arg0", t - 1);
		fprintf(f, "  %%%ld = \"tosa.const\"() <{value = dense<[%s]> : tensor<4x1x1x4xi8>}> : () -> "
		        "tensor<4x1x1x4xi8>\n", t, w);
		fprintf(f, "  %%%ld = \"tosa.const\"() <{value = dense<[-150, -50, 50, 150]> : tensor<4xi32>}> : () -> "
		        "tensor<4xi32>\n", t + 1);
		fprintf(f, "  %%%ld = tosa.conv2d %s, %%%ld, %%%ld {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, "
		        "stride = array<i64: 1, 1>, quantization_info = #tosa.conv_quant<input_zp = -14, weight_zp = 0>} : "
		        "(" QT ", tensor<4x1x1x4xi8>, tensor<4xi32>) -> " QT32 "\n", t + 2, in, t, t + 1);
		fprintf(f, "  %%%ld = tosa.rescale %%%ld {input_zp = 0 : i32, output_zp = -14 : i32, multiplier = "
		        "array<i32: 1926766817>, shift = array<i8: 42>, scale32 = true, double_round = true, per_channel = "
		        "false} : (" QT32 ") -> " QT "\n", t + 3, t + 2);
		fprintf(f, "  %%%ld = tosa.clamp %%%ld {min_int = -14 : i64, max_int = 127 : i64, min_fp = 0.0 : f32, "
		        "max_fp = 3.4e38 : f32} : (" QT ") -> " QT "\n", t + 4, t + 3);
		t += 5;
	}
	fprintf(f, "  return %%%ld : " QT "\n}\n", t - 1);
	closeout(f, path);
	return 5 * nb + 3;
}

/* ---------------------------------------------------------------- plain */

/* plain_relay: add, tanh, multiply of the input, about ops nodes */
static void
plain_relay(const char *path, long ops)
{
	FILE *f = create(path);
	long n = ops - 1 > 1 ? ops - 1 : 1;
	static const char *const fmt[3] = { "add(%s, %%x)", "tanh(%s)", "multiply(%s, %%x)" };

	fprintf(f, "def @main(%%x: Tensor[(1, 4, 8, 8), float32]) {\n");
	for (long k = 0; k < n; k++) {
		char in[32];
		snprintf(in, sizeof in, k ? "%%%ld" : "%%x", k - 1);
		stmt(f, k, k + 1 == n, fmt[k % 3], in);
	}
	fprintf(f, "}\n");
	closeout(f, path);
}

#define FT "tensor<1x8x8x4xf32>"

static long
plain_mlir(const char *path, long ops)
{
	FILE *f = create(path);
	long n = ops - 3 > 1 ? ops - 3 : 1;

	fprintf(f, "func.func @main(%%arg0: " FT ") -> " FT " {\n");
	for (long k = 0; k < n; k++) {
		char in[32];
		snprintf(in, sizeof in, k ? "%%%ld" : "%%arg0", k - 1);
		if (k % 3 == 0)
			fprintf(f, "  %%%ld = tosa.add %s, %%arg0 : (" FT ", " FT ") -> " FT "\n", k, in);
		else if (k % 3 == 1)
			fprintf(f, "  %%%ld = tosa.tanh %s : (" FT ") -> " FT "\n", k, in);
		else
			fprintf(f, "  %%%ld = tosa.mul %s, %%arg0 {shift = 0 : i8} : (" FT ", " FT ") -> " FT "\n", k, in);
	}
	fprintf(f, "  return %%%ld : " FT "\n}\n", n - 1);
	closeout(f, path);
	return n + 3;
}

/* ---------------------------------------------------------------- params */

/* weights: the values of weight (or, from NW on, bias) k */
static void
weights(float *v, int k)
{
	uint32_t h = 2166136261u ^ (uint32_t)k;
	int n = k < NW ? WN * WN : WN;

	for (int i = 0; i < n; i++) {
		h = h * 1664525u + 1013904223u;
		v[i] = (float)((int32_t)(h >> 8) - (1 << 23)) / (float)(1 << 27);
	}
}

/* params_relay: blocks of dense, bias_add and tanh (3 nodes), weights as
** meta[relay.Constant][2k] and biases as [2k + 1], numbered in order of
** first use as graft prints them; their data in path's .safetensors */
static void
params_relay(const char *path, const char *stpath, long ops)
{
	FILE *f = create(path);
	long nb = (ops - 1 - 2 * NW) / 3 > NW ? (ops - 1 - 2 * NW) / 3 : NW, t = 0;
	StTensor st[2 * NW];
	int64_t wd[2] = { WN, WN }, bd[1] = { WN };
	char names[2 * NW][48], err[512];
	float *data = ir_xmalloc((size_t)NW * (WN * WN + WN) * sizeof *data);

	fprintf(f, "def @main(%%x: Tensor[(1, %d), float32]) {\n", WN);
	for (long k = 0; k < nb; k++) {
		long j = k % NW;
		char in[32];
		snprintf(in, sizeof in, k ? "%%%ld" : "%%x", t - 1);
		fprintf(f, "  %%%ld = nn.dense(%s, meta[relay.Constant][%ld], units=%d);\n", t, in, 2 * j, WN);
		fprintf(f, "  %%%ld = nn.bias_add(%%%ld, meta[relay.Constant][%ld]);\n", t + 1, t, 2 * j + 1);
		stmt(f, t + 2, k + 1 == nb, "tanh(%%%ld)", t + 1);
		t += 3;
	}
	fprintf(f, "}\n");
	closeout(f, path);
	for (int j = 0; j < NW; j++) {
		float *w = data + (size_t)j * (WN * WN + WN), *b = w + WN * WN;
		weights(w, j);
		weights(b, NW + j);
		snprintf(names[2 * j], sizeof names[0], "meta[relay.Constant][%d]", 2 * j);
		snprintf(names[2 * j + 1], sizeof names[0], "meta[relay.Constant][%d]", 2 * j + 1);
		st[2 * j] = (StTensor){ names[2 * j], DT_FLOAT32, 2, wd, w, (size_t)WN * WN * 4 };
		st[2 * j + 1] = (StTensor){ names[2 * j + 1], DT_FLOAT32, 1, bd, b, (size_t)WN * 4 };
	}
	if (ir_st_write(stpath, st, 2 * NW, err, sizeof err) != 0) {
		fprintf(stderr, "bench: %s\n", err);
		exit(1);
	}
	free(data);
}

#define PT "tensor<1x256xf32>"

/* hexblob: a dense_resource blob as MLIR writes one: "0x", the alignment
** (4, as a little-endian uint32), then the bytes */
static void
hexblob(FILE *f, const float *v, int n)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *p = (const unsigned char *)v;

	fputs("\"0x04000000", f);
	for (size_t i = 0; i < (size_t)n * 4; i++) {
		putc(hex[p[i] >> 4], f);
		putc(hex[p[i] & 15], f);
	}
	putc('"', f);
}

static long
params_mlir(const char *path, long ops)
{
	FILE *f = create(path);
	long nb = (ops - 3 - 2 * NW) / 2 > NW ? (ops - 3 - 2 * NW) / 2 : NW, t = 0;
	float *v = ir_xmalloc((size_t)WN * WN * sizeof *v);

	fprintf(f, "func.func @main(%%arg0: " PT ") -> " PT " {\n");
	for (int j = 0; j < NW; j++) {
		fprintf(f, "  %%w%d = \"tosa.const\"() <{value = dense_resource<w%d> : tensor<%dx%dxf32>}> : () -> "
		        "tensor<%dx%dxf32>\n", j, j, WN, WN, WN, WN);
		fprintf(f, "  %%b%d = \"tosa.const\"() <{value = dense_resource<b%d> : tensor<%dxf32>}> : () -> "
		        "tensor<%dxf32>\n", j, j, WN, WN);
	}
	for (long k = 0; k < nb; k++) {
		long j = k % NW;
		char in[32];
		snprintf(in, sizeof in, k ? "%%%ld" : "%%arg0", t - 1);
		fprintf(f, "  %%%ld = tosa.fully_connected %s, %%w%ld, %%b%ld : (" PT ", tensor<%dx%dxf32>, "
		        "tensor<%dxf32>) -> " PT "\n", t, in, j, j, WN, WN, WN);
		fprintf(f, "  %%%ld = tosa.tanh %%%ld : (" PT ") -> " PT "\n", t + 1, t);
		t += 2;
	}
	fprintf(f, "  return %%%ld : " PT "\n}\n", t - 1);
	fprintf(f, "{-#\n  dialect_resources: {\n    builtin: {\n");
	for (int j = 0; j < 2 * NW; j++) {
		int k = j < NW ? j : j - NW;
		weights(v, j);
		fprintf(f, "      %s%d: ", j < NW ? "w" : "b", k);
		hexblob(f, v, j < NW ? WN * WN : WN);
		fputs(j + 1 < 2 * NW ? ",\n" : "\n", f);
	}
	fprintf(f, "    }\n  }\n#-}\n");
	closeout(f, path);
	free(v);
	return 2 * nb + 2 * NW + 3;
}

/* ---------------------------------------------------------------- runs */

/* run: argv as a child, its standard error to errpath; r gets its wall
** time and peak RSS.  Exits if the command fails. */
static void
run(char *const *argv, const char *errpath, Run *r)
{
	struct rusage ru;
	int st;
	double t0 = bench_now();
	pid_t pid = fork();

	if (pid < 0) {
		perror("fork");
		exit(1);
	}
	if (pid == 0) {
		int e = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644), o = open("/dev/null", O_WRONLY);
		if (e < 0 || o < 0 || dup2(e, 2) < 0 || dup2(o, 1) < 0)
			_exit(127);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (wait4(pid, &st, 0, &ru) != pid) {
		perror("wait4");
		exit(1);
	}
	r->wall = (bench_now() - t0) * 1e-9;
	r->rss = (double)ru.ru_maxrss / 1024;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		char line[512];
		FILE *f = fopen(errpath, "r");
		fprintf(stderr, "bench: %s failed (status %d):\n", argv[0], st);
		while (f && fgets(line, sizeof line, f))
			fputs(line, stderr);
		exit(1);
	}
}

/* graftfig: parse, print and ops from graft --time's lines in path */
static void
graftfig(const char *path, Run *r)
{
	FILE *f = fopen(path, "r");
	char line[512], step[64];
	double s;

	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "time: %63s %lf s", step, &s) == 2) {
			if (strcmp(step, "parse") == 0) {
				const char *n = strstr(line, "nodes=");
				r->parse = s;
				r->ops = n ? atol(n + 6) : 0;
			} else if (strcmp(step, "print") == 0) {
				r->print = s;
			}
		}
	if (f)
		fclose(f);
}

/* mlirfig: the Parser and Output lines of --mlir-timing's report:
** "    0.0060 ( 90.6%)  Parser" */
static void
mlirfig(const char *path, Run *r)
{
	FILE *f = fopen(path, "r");
	char line[512], name[64];
	double s, pct;

	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, " %lf ( %lf%%) %63s", &s, &pct, name) == 3) {
			if (strcmp(name, "Parser") == 0)
				r->parse = s;
			else if (strcmp(name, "Output") == 0)
				r->print = s;
		}
	if (f)
		fclose(f);
}

/* measure: one run of argv (run()), then its own figures (graftfig() or
** mlirfig()) from its standard error */
static void
measure(char *const *argv, const char *errpath, Run *r, void (*fig)(const char *, Run *))
{
	run(argv, errpath, r);
	fig(errpath, r);
}

/* same: whether files a and b hold the same bytes */
static int
same(const char *a, const char *b)
{
	FILE *f = fopen(a, "r"), *g = fopen(b, "r");
	int x = 0, y = 0;

	while (f && g && (x = getc(f)) == (y = getc(g)) && x != EOF)
		;
	if (f)
		fclose(f);
	if (g)
		fclose(g);
	return f && g && x == y;
}

/* median of field off of r[0..n) */
static double
med(const Run *r, int n, size_t off)
{
	double v[BENCH_MAXRUNS];
	for (int i = 0; i < n; i++)
		memcpy(&v[i], (const char *)&r[i] + off, sizeof v[i]);
	return bench_median(v, n);
}

#define MED(r, n, field) med(r, n, offsetof(Run, field))

int
main(int argc, char **argv)
{
	const char *graft, *mlir;
	int runs, nsizes;

	if (argc < 4) {
		fprintf(stderr, "usage: graft-bench-mlir GRAFT MLIR-OPT DIR [RUNS [MAXNODES]]\n");
		return 2;
	}
	graft = argv[1];
	mlir = argv[2];
	dir = argv[3];
	nsizes = bench_args(argc - 3, argv + 3, &runs);
	if (argc < 5)
		runs = 5;
	mkdir(dir, 0755);
	printf("whole runs, graft against %s: parse, rewrite to a fixed point, print to a file\n", mlir);
	printf("ops: graft's IR nodes after parsing (calls, constants, literals, variables); mlir-opt's operations\n");
	printf("median of %d runs (3 at 1M); ratio = mlir-opt ns/op over graft's; MB/s of parse and print from "
	       "graft --time and --mlir-timing; peak RSS in MiB\n\n", runs);
	printf("%-7s %9s %9s %8s %7s %8s %7s %6s  %15s  %15s  %13s\n", "", "graft", "mlir-opt", "graft", "", "mlir-opt",
	       "", "", "parse MB/s", "print MB/s", "peak RSS MiB");
	printf("%-7s %9s %9s %8s %7s %8s %7s %6s  %7s %7s  %7s %7s  %6s %6s\n", "work", "ops", "ops", "s", "ns/op", "s",
	       "ns/op", "ratio", "graft", "mlir", "graft", "mlir", "graft", "mlir");
	for (int w = 0; w < NWORK; w++)
		for (int s = 0; s < nsizes; s++) {
			char rin[4096], min[4096], rout[4096], mout[4096], first[4096], err[4096], st[4096], sto[4096];
			const char *nm = wl_names[w];
			long size = (long)bench_sizes[s], mops;
			int n = bench_sizes[s] >= 1000000 && runs > 3 ? 3 : runs;
			Run g[BENCH_MAXRUNS], ml[BENCH_MAXRUNS];
			double gw, mw;

			snprintf(rin, sizeof rin, "%s/%s-%ld.relay", dir, nm, size);
			snprintf(min, sizeof min, "%s/%s-%ld.mlir", dir, nm, size);
			snprintf(rout, sizeof rout, "%s/%s-%ld.out.relay", dir, nm, size);
			snprintf(first, sizeof first, "%s/%s-%ld.first.relay", dir, nm, size);
			snprintf(mout, sizeof mout, "%s/%s-%ld.out.mlir", dir, nm, size);
			snprintf(err, sizeof err, "%s/%s-%ld.err", dir, nm, size);
			snprintf(st, sizeof st, "%s/%s-%ld.safetensors", dir, nm, size);
			snprintf(sto, sizeof sto, "%s/%s-%ld.out.safetensors", dir, nm, size);
			if (w == WL_QCONV) {
				qconv_relay(rin, size);
				mops = qconv_mlir(min, size);
			} else if (w == WL_PLAIN) {
				plain_relay(rin, size);
				mops = plain_mlir(min, size);
			} else {
				params_relay(rin, st, size);
				mops = params_mlir(min, size);
			}
			memset(g, 0, sizeof g);
			memset(ml, 0, sizeof ml);
			/* alternate the tools, so that both see the machine alike */
			for (int r = 0; r < n; r++) {
				char *gargv[16], *margv[8];
				int k = 0;
				gargv[k++] = (char *)graft;
				gargv[k++] = "--time";
				gargv[k++] = "--rules";
				gargv[k++] = "canonicalize";
				if (w == WL_PARAMS) {
					gargv[k++] = "--params";
					gargv[k++] = st;
					gargv[k++] = "--save-params";
					gargv[k++] = sto;
				}
				gargv[k++] = "-o";
				gargv[k++] = r ? rout : first;
				gargv[k++] = rin;
				gargv[k] = NULL;
				k = 0;
				margv[k++] = (char *)mlir;
				margv[k++] = "-canonicalize";
				margv[k++] = "--mlir-disable-threading";
				margv[k++] = "--mlir-timing";
				margv[k++] = "-o";
				margv[k++] = mout;
				margv[k++] = min;
				margv[k] = NULL;
				for (int t = 0; t < 2; t++) {
					if ((t == 0) == (r % 2 == 0))
						measure(gargv, err, &g[r], graftfig);
					else
						measure(margv, err, &ml[r], mlirfig);
				}
				if (r && !same(first, rout)) {
					fprintf(stderr, "bench: graft printed %s and %s differently\n", first, rout);
					return 1;
				}
			}
			gw = MED(g, n, wall);
			mw = MED(ml, n, wall);
			{
				double gops = (double)g[0].ops, mo = (double)mops;
				double gin = (double)filesize(rin), gout = (double)filesize(first);
				double min_ = (double)filesize(min), mout_ = (double)filesize(mout);
				double gp = MED(g, n, parse), gpr = MED(g, n, print), mp = MED(ml, n, parse), mpr = MED(ml, n, print);
				printf("%-7s %9.0f %9.0f %8.3f %7.0f %8.3f %7.0f %5.1fx  %7.0f %7.0f  %7.0f %7.0f  %6.0f %6.0f\n", nm,
				       gops, mo, gw, gw * 1e9 / gops, mw, mw * 1e9 / mo, (mw / mo) / (gw / gops),
				       gp > 0 ? gin / gp / 1e6 : 0, mp > 0 ? min_ / mp / 1e6 : 0, gpr > 0 ? gout / gpr / 1e6 : 0,
				       mpr > 0 ? mout_ / mpr / 1e6 : 0, MED(g, n, rss), MED(ml, n, rss));
				fflush(stdout);
			}
		}
	printf("\ngoal: graft at least 20x faster per op than mlir-opt at 1M, on each workload\n");
	return 0;
}
