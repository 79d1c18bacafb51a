/*
** run.c: the `graft run` command.
**
**   graft run [--rules NAME ...] [--target "T, ..., host"]
**             [--backend ref|c|llvm] [--params FILE] [-O0..3] [--threads N] [--stats]
**             [--verify] --input NAME=FILE.npy ... [--output FILE.npy ...]
**             MODEL.relay
**
** Takes the model through graft's pipeline (drv_pipeline(): parse, bind,
** infer, rewrite, partition), then runs its @main on a backend: the inputs
** are .npy files, each checked against @main's signature (be_sig()); the
** results go to .npy files, one --output per result in order, or, without
** --output, are summed up on standard output.  Every input error is
** reported before giving up.  Exit status as graft's: 0, 1 on a user
** error, 2 on a usage error.
**
** The summary is deterministic: the Relay type, then the values (nested
** brackets, NumPy-like) if there are at most SMALL, else the first FIRST
** values, the min, max and mean; floats are printed in the fewest digits
** that read back the same (ir_fmt_float), as graft prints constants.
*/
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "npy.h"
#include "pipeline.h"
#include "run.h"
#include "text.h"

enum {
	SMALL = 64,             /* results printed whole */
	FIRST = 8,              /* values printed of larger ones */
};

typedef struct RunOpts {
	Pipeline p;
	const Backend *be;
	BeOpts bo;
	const char **out;
	int nout;
} RunOpts;

static const char usage[] =
	"usage: graft run [options] --input NAME=FILE.npy ... MODEL.relay|MODEL.onnx\n"
	"\n"
	"Runs @main of a model (TVM's Relay text format, or ONNX) on .npy inputs,\n"
	"after graft's rewriting and partitioning, and writes its results.\n"
	"\n"
	"options:\n"
	"  --input NAME=FILE    the value of @main's parameter %NAME: a .npy file\n"
	"                       of its shape and dtype; one for each parameter.\n"
	"                       An ONNX input that the importer needs as a\n"
	"                       constant (a Reshape's shape) is frozen to it\n"
	"  --output FILE        write a result to a .npy file; one for each\n"
	"                       result, in order.  Without --output, the results\n"
	"                       are summed up on standard output\n"
	"  --backend NAME       ref (the reference interpreter, the default), c\n"
	"                       (C compiled with cc) or llvm (LLVM's JIT)\n"
	"  -O0, -O1, -O2, -O3   optimization level of the c and llvm backends\n"
	"                       (default -O2)\n"
	"  --threads N          threads the llvm backend's code runs on (1 to 64;\n"
	"                       default: the machine's cores); its results do\n"
	"                       not depend on N.  ref and c run on one\n"
	"  --rules NAME         apply a ruleset first (built-in, a plugin's, or a\n"
	"                       FILE.rules); repeat for several\n"
	"  --target \"T, host\"   partition for the targets before the host; a host\n"
	"                       of another machine (\"llvm -mtriple=T ...\") runs\n"
	"                       only on ref\n"
	"  --plugin LIB.so      load a plugin (repeatable): its target's partitions\n"
	"                       run through its codegen, the rest on the backend\n"
	"  --params FILE        bind constants and @main parameters from a\n"
	"                       safetensors file\n"
	"  --stats              print how often each rule fired (to standard error)\n"
	"  --verify             run the IR verifier after each step\n"
	"  --max-tensor-bytes=N refuse to run a model with a tensor larger than N\n"
	"                       bytes (K, M, G: 2^10, 2^20, 2^30); default 1G\n"
	"  --help\n";

/* freeopts: frees what parseargs allocated */
static void
freeopts(RunOpts *o)
{
	free(o->out);
}

/* parseargs: o from argv[1..argc) (argv[0] is "run"); returns 1, 0 after
** printing a usage error, or -1 after printing the help */
static int
parseargs(int argc, char **argv, RunOpts *o)
{
	o->out = ir_xcalloc((size_t)argc, sizeof *o->out);
	o->be = &be_ref;
	o->p.bindneeded = 1;    /* an ONNX input the importer needs constant is frozen */
	o->bo.opt = 2;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int takes = strcmp(a, "--rules") == 0 || strcmp(a, "--target") == 0 || strcmp(a, "--backend") == 0 ||
		            strcmp(a, "--params") == 0 || strcmp(a, "--input") == 0 || strcmp(a, "--output") == 0 ||
		            strcmp(a, "--plugin") == 0 || strcmp(a, "--threads") == 0;
		const char *v = NULL;

		if (takes) {
			if (++i == argc) {
				fprintf(stderr, "graft: error: option '%s' needs %s\n", a,
				        strcmp(a, "--rules") == 0 ? "a ruleset name" : strcmp(a, "--target") == 0 ?
				        "a list of targets" : strcmp(a, "--backend") == 0 ? "a backend name" :
				        strcmp(a, "--input") == 0 ? "NAME=FILE.npy" : strcmp(a, "--threads") == 0 ?
				        "a thread count" : "a file name");
				return 0;
			}
			v = argv[i];
		}
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			fputs(usage, stdout);
			return -1;
		} else if (strcmp(a, "--rules") == 0) {
			if (!drv_opt_rules(&o->p, v))
				return 0;
		} else if (strcmp(a, "--target") == 0) {
			if (!drv_opt_target(&o->p, v))
				return 0;
		} else if (strcmp(a, "--backend") == 0) {
			if (!(o->be = be_find(v))) {
				fprintf(stderr, "graft: error: --backend: no backend called '%s' (backends: %s, %s, %s)\n", v,
				        be_ref.name, be_c.name, be_llvm.name);
				return 0;
			}
		} else if (strcmp(a, "--plugin") == 0 || strncmp(a, "--plugin=", 9) == 0) {
			continue;       /* loaded already: drv_plugins_load() */
		} else if (strcmp(a, "--params") == 0) {
			o->p.params = v;
		} else if (strcmp(a, "--input") == 0) {
			if (!drv_opt_bind(&o->p, "--input", v))
				return 0;
		} else if (strcmp(a, "--output") == 0) {
			o->out[o->nout++] = v;
		} else if (strcmp(a, "--threads") == 0 || strncmp(a, "--threads=", 10) == 0) {
			char *end;
			long n;
			v = v ? v : a + 10;
			n = strtol(v, &end, 10);
			if (end == v || *end || n < 1 || n > 64) {
				fprintf(stderr, "graft: error: --threads: '%s' is not a thread count from 1 to 64\n", v);
				return 0;
			}
			o->bo.threads = (int)n;
		} else if (a[0] == '-' && a[1] == 'O' && a[2] >= '0' && a[2] <= '3' && !a[3]) {
			o->bo.opt = a[2] - '0';
		} else if (strcmp(a, "--stats") == 0) {
			o->p.stats = 1;
		} else if (strcmp(a, "--verify") == 0) {
			o->p.verify = 1;
		} else if (!drv_opt_model(&o->p, a)) {
			return 0;
		}
	}
	if (!o->p.model) {
		fprintf(stderr, "graft: error: no model given\n");
		return 0;
	}
	for (int i = 0; i < o->nout; i++)
		for (int k = 0; k < i; k++)
			if (strcmp(o->out[i], o->out[k]) == 0) {
				fprintf(stderr, "graft: error: --output %s is given twice\n", o->out[i]);
				return 0;
			}
	return 1;
}

/* ---------------------------------------------------------------- printing */

/* tystr: t's type in Relay syntax ("Tensor[(1, 3), int8]", "float32") */
static const char *
tystr(const Tensor *t, char *buf, size_t size)
{
	size_t k;

	if (!t->rank) {
		snprintf(buf, size, "%s", ir_dtype_names[t->dt]);
		return buf;
	}
	k = (size_t)snprintf(buf, size, "Tensor[(");
	for (uint32_t i = 0; i < t->rank && k < size; i++)
		k += (size_t)snprintf(buf + k, size - k, "%s%lld", i ? ", " : "", (long long)t->dims[i]);
	if (k < size)
		snprintf(buf + k, size - k, "), %s]", ir_dtype_names[t->dt]);
	return buf;
}

/* elem: prints element i of t exactly (integers whole, floats in the
** fewest digits that read back the same) */
static void
elem(FILE *f, const Tensor *t, size_t i)
{
	char buf[64];

	if (t->dt == DT_INT64) {
		int64_t x;
		memcpy(&x, t->data + i * 8, 8);
		fprintf(f, "%lld", (long long)x);
	} else if (t->dt == DT_BOOL) {
		fputs(t->data[i] ? "True" : "False", f);
	} else if (ir_dtype_kind[t->dt] == 'f') {
		ir_fmt_float(buf, sizeof buf, ir_tensor_get(t, (int64_t)i), t->dt);
		fputs(buf, f);
	} else {
		fprintf(f, "%.0f", ir_tensor_get(t, (int64_t)i));
	}
}

/* nested: prints the elements of dims k.. of t from element *i on, in
** brackets, rows on lines of their own */
static void
nested(FILE *f, const Tensor *t, uint32_t k, size_t *i)
{
	fputc('[', f);
	for (int64_t j = 0; j < t->dims[k]; j++) {
		if (j && k + 1 == t->rank)
			fputs(", ", f);
		else if (j)
			fprintf(f, ",\n%*s", (int)k + 1, "");
		if (k + 1 == t->rank)
			elem(f, t, (*i)++);
		else
			nested(f, t, k + 1, i);
	}
	fputc(']', f);
}

/* summary: prints t to f, as the file comment tells */
static void
summary(FILE *f, const Tensor *t)
{
	size_t n = (size_t)ir_tensor_numel(t), i = 0;
	char buf[300];

	fprintf(f, "%s\n", tystr(t, buf, sizeof buf));
	if (!t->rank) {
		elem(f, t, 0);
	} else if (n <= SMALL) {
		nested(f, t, 0, &i);
	} else {
		double lo = ir_tensor_get(t, 0), hi = lo, sum = 0;
		int nan = 0;
		fputs("first:", f);
		for (i = 0; i < FIRST; i++) {
			fputc(' ', f);
			elem(f, t, i);
		}
		fprintf(f, " ... (%zu values)\n", n);
		for (i = 0; i < n; i++) {
			double x = ir_tensor_get(t, (int64_t)i);
			if (isnan(x))
				nan = 1;
			lo = x < lo ? x : lo;
			hi = x > hi ? x : hi;
			sum += x;
		}
		if (nan)
			lo = hi = NAN;
		fputs("min ", f);
		ir_fmt_float(buf, sizeof buf, lo, ir_dtype_kind[t->dt] == 'f' ? t->dt : DT_FLOAT64);
		fprintf(f, "%s, max ", buf);
		ir_fmt_float(buf, sizeof buf, hi, ir_dtype_kind[t->dt] == 'f' ? t->dt : DT_FLOAT64);
		fprintf(f, "%s, mean ", buf);
		ir_fmt_float(buf, sizeof buf, sum / (double)n, DT_FLOAT64);
		fputs(buf, f);
	}
	fputc('\n', f);
}

/* ---------------------------------------------------------------- running */

/* inputs: reads o's inputs into in[] in the order of sig's parameters,
** checking each against it; returns the number of errors, all reported */
static int
inputs(const RunOpts *o, const Module *m, const BeSig *sig, Tensor *in, Diag *d)
{
	int errs = 0;
	char *given = ir_xcalloc(sig->nin ? sig->nin : 1, 1);

	for (int i = 0; i < o->p.nbind; i++) {
		const char *name = o->p.bindname[i], *file = o->p.bindfile[i], *arg = o->p.bindarg[i];
		char err[512], want[300], got[300];
		uint32_t k;
		Tensor t;

		if (o->p.frozen[i])
			continue;       /* the importer made it a constant */
		for (k = 0; k < sig->nin && strcmp(ir_symstr(m, sig->inname[k]), name) != 0; k++)
			;
		if (k == sig->nin) {
			fprintf(stderr, "graft: error: --input %s: @main has no parameter %s (", arg, name);
			if (!sig->nin)
				fputs("it has none", stderr);
			for (uint32_t j = 0; j < sig->nin; j++)
				fprintf(stderr, "%s%s", j ? ", " : "its parameters: ", ir_symstr(m, sig->inname[j]));
			fputs(")\n", stderr);
			errs++;
			continue;
		}
		given[k] = 1;
		if (npy_read(file, &t, err, sizeof err) != 0) {
			ir_error_file(d, file, err);
			errs++;
			continue;
		}
		if (t.dt != sig->in[k].dt || t.rank != sig->in[k].rank ||
		    memcmp(t.dims, sig->in[k].dims, t.rank * sizeof *t.dims) != 0) {
			fprintf(stderr, "graft: error: --input %s: %s is %s, %s holds %s %s\n", arg, name,
			        tystr(&sig->in[k], want, sizeof want), file, npy_shapestr(got, sizeof got, t.dims, t.rank),
			        ir_dtype_names[t.dt]);
			ir_tensor_free(&t);
			errs++;
			continue;
		}
		in[k] = t;
	}
	for (uint32_t k = 0; k < sig->nin; k++)
		if (!given[k]) {
			char want[300];
			fprintf(stderr, "graft: error: no --input for %s, the %s parameter of @main\n",
			        ir_symstr(m, sig->inname[k]), tystr(&sig->in[k], want, sizeof want));
			errs++;
		}
	free(given);
	return errs;
}

/* execute: checks and reads the inputs, runs m's @main on o->be, writes
** or prints the results; returns 0, or 1 after reporting errors */
static int
execute(const RunOpts *o, const Module *m, Diag *d)
{
	BeSig sig;
	Tensor *in = NULL, *out = NULL;
	Program *prog = NULL;
	int errs = 0, ran = 0;

	/* a value too large to allocate is refused before anything is read */
	if (be_check_sizes(m, d) || be_sig(m, &sig, d))
		return 1;
	in = ir_xcalloc(sig.nin ? sig.nin : 1, sizeof *in);
	out = ir_xcalloc(sig.nout ? sig.nout : 1, sizeof *out);
	errs = inputs(o, m, &sig, in, d);
	if (o->nout && (uint32_t)o->nout != sig.nout) {
		fprintf(stderr, "graft: error: @main has %u result%s, and %d --output %s given; give one for each result, "
		        "in order\n", sig.nout, sig.nout == 1 ? "" : "s", o->nout, o->nout == 1 ? "was" : "were");
		errs++;
	}
	if (errs)
		goto out;
	if (!(prog = o->be->prepare(m, &o->bo, d))) {
		errs++;
		goto out;
	}
	if (o->be->run(prog, in, out, d)) {
		errs++;
		goto out;
	}
	ran = 1;
	for (uint32_t j = 0; j < sig.nout; j++) {
		char err[512];
		if (o->nout) {
			if (npy_write(o->out[j], &out[j], err, sizeof err) != 0) {
				ir_error_file(d, o->out[j], err);
				errs++;
			}
		} else {
			if (sig.nout > 1)
				printf("result %u: ", j);
			summary(stdout, &out[j]);
		}
	}
	if (!o->nout && fflush(stdout) != 0) {
		fprintf(stderr, "graft: error: cannot write output\n");
		errs++;
	}
out:
	if (prog)
		o->be->release(prog);
	for (uint32_t k = 0; k < sig.nin; k++)
		ir_tensor_free(&in[k]);
	for (uint32_t j = 0; ran && j < sig.nout; j++)
		ir_tensor_free(&out[j]);
	free(in);
	free(out);
	be_sig_free(&sig);
	return errs ? 1 : 0;
}

/* drv_run: see run.h */
int
drv_run(int argc, char **argv)
{
	RunOpts o;
	Module *m;
	Diag d;
	StFile params;
	int r, status = 1;

	memset(&o, 0, sizeof o);
	if (drv_plugins_load(argc, argv))
		return 1;
	if ((r = parseargs(argc, argv, &o)) <= 0) {
		if (r == 0)
			fputs("Try 'graft run --help'.\n", stderr);
		freeopts(&o);
		drv_pipeline_free(&o.p);
		return r == 0 ? 2 : 0;
	}
	m = ir_module_new();
	ir_diag_init(&d, stderr, m);

	/* the host target (the ref backend interprets, whatever it names; c
	   and llvm compile code that must run here), the pipeline, the run */
	if (drv_pipeline_host(&o.p)) {
		memset(&params, 0, sizeof params);
	} else if (o.p.hostspec && !o.p.hostnative && o.be != &be_ref) {
		fprintf(stderr, "graft: error: --target \"%s\": graft run cannot run code for another machine on this one "
		        "(--backend %s runs what it compiles here); write it with graft --emit obj or --emit c and run it "
		        "there, or run the model here with --backend ref\n", o.p.hostspec, o.be->name);
		memset(&params, 0, sizeof params);
	} else if (!drv_pipeline(&o.p, m, &d, &params)) {
		o.bo.triple = o.p.host.triple;
		o.bo.cpu = o.p.host.cpu;
		o.bo.attr = o.p.host.attr;
		o.bo.device = o.p.host.device;
		status = execute(&o, m, &d);
	}
	ir_st_free(&params);
	ir_diag_free(&d);
	ir_module_free(m);
	freeopts(&o);
	drv_pipeline_free(&o.p);
	return status;
}
