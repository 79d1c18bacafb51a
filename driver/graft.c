/*
** graft.c: the graft command.
**
**   graft [--plugin LIB.so ...] [--rules NAME ...] [--target "T1, T2, host"]
**         (host, or "llvm -mtriple=T -mcpu=C -mattr=A -device=D")
**         [--emit relay|dot|c|llvm|obj] [--emit-target NAME] [-O0..3]
**         [--explain] [--stats] [--time] [--params FILE] [--save-params FILE]
**         [--show-types] [--verify] [-o OUT] MODEL.relay|MODEL.onnx
**   graft run ...                      (driver/run.c)
**
** Reads a model in TVM's Relay text format (or imports an ONNX model,
** frontends/onnx), binds its parameters, infers
** and checks its types, applies the built-in rulesets named, partitions it
** for the targets named (drv_pipeline(), which `graft run` shares), and
** prints it, or compiles it to C (backends/c) or with LLVM (backends/llvm).
** Exit status: 0 on success, 1 on a user error (reported as
** file:line:col: error: ...), 2 on a usage error.  Output files are
** written whole or not at all.
*/
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bind.h"
#include "c/c.h"
#include "dot.h"
#include "llvm/llvm.h"
#include "pipeline.h"
#include "rulesdiff.h"
#include "run.h"
#include "text.h"
#include "coverage.h"
#include "whynot.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "dev"
#endif

/* What --emit writes. */
typedef enum Emit {
	EM_RELAY,               /* Relay text (the default) */
	EM_DOT,                 /* Graphviz */
	EM_C,                   /* C99 source and header (be_c_emit) */
	EM_LLVM,                /* LLVM IR text (be_llvm_emit) */
	EM_OBJ,                 /* a native object file (be_llvm_emit) */
} Emit;

typedef struct Opts {
	Pipeline p;
	const char *at;                 /* --at MODEL:LINE[:COL] */
	uint32_t atline, atcol;
	const char *save_params;
	const char *out;
	const char *emit_target;        /* --emit-target: a plugin's codegen, or c */
	int emit_given;                 /* --emit was given */
	int show_types;
	int opt;                        /* -O: c, llvm and obj; default 2 */
	Emit emit;
} Opts;

static const char usage[] =
	"usage: graft [options] MODEL.relay\n"
	"\n"
	"Reads a model in TVM's Relay text format (or an ONNX model, MODEL.onnx),\n"
	"infers and checks its types, and prints it.\n"
	"\n"
	"options:\n"
	"  --rules NAME         apply a ruleset until nothing matches: a built-in\n"
	"                       or plugin one, or a FILE.rules (a name holding '/'\n"
	"                       or ending in .rules); repeat to apply several\n"
	"  --target \"T, host\"   partition for the targets listed before the host\n"
	"                       (the tvmc convention), in that order: built-in or\n"
	"                       plugin target tables, or .rules files.  The host is\n"
	"                       this machine, or in tvmc's form \"llvm -mtriple=T\n"
	"                       -mcpu=C -mattr=+F,-G -device=D\", for which\n"
	"                       --emit llvm|obj compile\n"
	"  --plugin LIB.so      load a plugin: its rulesets, targets, ops and\n"
	"                       codegens (repeatable; see docs/embedding.md)\n"
	"  --emit relay|dot     print Relay text (the default), or a Graphviz\n"
	"                       picture with one colour per target\n"
	"  --emit c             write C99 source to -o FILE.c and its header to\n"
	"                       FILE.h (entry points: see backends/c/c.h)\n"
	"  --emit-target NAME   hand the partitions for target NAME to the codegen\n"
	"                       its plugin registered; with --emit c, write C for\n"
	"                       those partitions only\n"
	"  --emit llvm|obj      write LLVM IR (.ll), or a native object file (and,\n"
	"                       for -o FILE.o, its header FILE.h), to -o FILE\n"
	"  -O0, -O1, -O2, -O3   optimization level of --emit llvm|obj (default -O2)\n"
	"  --why-not NAME       say, node by node, why the rule or composite NAME\n"
	"                       (or FILE:LINE) does not match: the model as the\n"
	"                       rulesets before NAME's leave it, to standard output\n"
	"  --at MODEL:LINE[:COL]  with --why-not: only the node there\n"
	"  --coverage FILE.json add how often each rule and pattern variant\n"
	"                       matched and fired to FILE.json (made if new)\n"
	"  --explain            say why each op left on the host is there, and\n"
	"                       which region merges were refused (to standard error)\n"
	"  --stop-after STEP    partition only up to composite, annotate, regions\n"
	"                       or partition (the default)\n"
	"  --stats              print how often each rule fired and what was\n"
	"                       offloaded (to standard error)\n"
	"  --time               print the wall time of each step to standard\n"
	"                       error, a line \"time: STEP SECONDS s [KEY=N ...]\"\n"
	"                       each (STEP: load, params, parse, import, bind,\n"
	"                       infer, verify, rules.NAME, partition, print,\n"
	"                       save-params; then total)\n"
	"  --params FILE        bind constants and @main parameters from a\n"
	"                       safetensors file (meta[relay.Constant][N] or %%name)\n"
	"  --bind NAME=FILE.npy make the input NAME (@main's parameter, or an\n"
	"                       ONNX graph input) the constant in FILE.npy\n"
	"  --save-params FILE   write the printed meta[relay.Constant][N] data\n"
	"                       to a safetensors file\n"
	"  --show-types         print ty= annotations\n"
	"  --verify             run the IR verifier after each step\n"
	"  --max-tensor-bytes=N refuse a tensor larger than N bytes (K, M, G:\n"
	"                       2^10, 2^20, 2^30) that a file declares; default 1G\n"
	"  -o FILE              write the model to FILE instead of standard output\n"
	"  --help, --version\n"
	"\n"
	"graft run --help tells how to run a model; graft coverage FILE.json\n"
	"reports what never fired in a --coverage file; graft rules-diff --help\n"
	"tells how to review a rule change.\n";

/* suffix: whether s ends in suf */
static int
suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), k = strlen(suf);
	return n > k && strcmp(s + n - k, suf) == 0;
}

/* samefile: whether paths a and b name one file (or, where neither
** exists yet, are the same string) */
static int
samefile(const char *a, const char *b)
{
	struct stat sa, sb;

	if (strcmp(a, b) == 0)
		return 1;
	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* atplace: LINE and COL of --at MODEL:LINE[:COL] (COL 0 when absent) */
static int
atplace(const char *at, uint32_t *line, uint32_t *col)
{
	const char *c1 = strrchr(at, ':'), *c2;
	char *end;
	unsigned long a, b;

	if (!c1)
		return 0;
	b = strtoul(c1 + 1, &end, 10);
	if (*end || c1[1] == 0)
		return 0;
	for (c2 = c1 - 1; c2 >= at && *c2 != ':'; c2--)
		;
	if (c2 >= at) {
		a = strtoul(c2 + 1, &end, 10);
		if (end == c1 && c2[1] != ':' && a) {
			*line = (uint32_t)a;
			*col = (uint32_t)b;
			return b > 0;
		}
	}
	*line = (uint32_t)b;
	*col = 0;
	return b > 0;
}

/* hastarget: whether --emit-target names a target of --target (known
** once the pipeline has loaded the .rules files among them) */
static int
hastarget(const Opts *o)
{
	for (int k = 0; k < o->p.ntargets; k++)
		if (o->p.targets[k] && strcmp(o->p.targets[k]->name, o->emit_target) == 0)
			return 1;
	fprintf(stderr, "graft: error: --emit-target %s: not a target of --target, so the model has no partition "
	        "for it\n", o->emit_target);
	return 0;
}

/* parseargs: o from the command line; 0 after printing a usage error */
static int
parseargs(int argc, char **argv, Opts *o)
{
	static const char *const emits[] = { "relay", "dot", "c", "llvm", "obj" };   /* ORDER Emit */

	o->opt = 2;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char **val = NULL;
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			printf(usage);
			exit(0);
		} else if (strcmp(a, "--version") == 0) {
			printf("graft %s\n", PACKAGE_VERSION);
			exit(0);
		} else if (strcmp(a, "--show-types") == 0) {
			o->show_types = 1;
		} else if (strcmp(a, "--verify") == 0) {
			o->p.verify = 1;
		} else if (strcmp(a, "--stats") == 0) {
			o->p.stats = 1;
		} else if (strcmp(a, "--time") == 0) {
			o->p.time = 1;
		} else if (strcmp(a, "--rules") == 0) {
			if (++i == argc) {
				fprintf(stderr, "graft: error: option '--rules' needs a ruleset name\n");
				return 0;
			}
			if (!drv_opt_rules(&o->p, argv[i]))
				return 0;
		} else if (strcmp(a, "--target") == 0) {
			if (++i == argc) {
				fprintf(stderr, "graft: error: option '--target' needs a list of targets\n");
				return 0;
			}
			if (!drv_opt_target(&o->p, argv[i]))
				return 0;
		} else if (strcmp(a, "--emit") == 0) {
			int k = 0;
			if (++i < argc)
				for (k = 0; k < 5 && strcmp(argv[i], emits[k]) != 0; k++)
					;
			if (i == argc || k == 5) {
				fprintf(stderr, "graft: error: option '--emit' takes relay, dot, c, llvm or obj\n");
				return 0;
			}
			o->emit = (Emit)k;
			o->emit_given = 1;
		} else if (strcmp(a, "--coverage") == 0) {
			val = &o->p.coverage;
		} else if (strcmp(a, "--why-not") == 0 || strcmp(a, "--at") == 0) {
			if (++i == argc) {
				fprintf(stderr, "graft: error: option '%s' needs %s\n", a,
				        a[2] == 'w' ? "a rule or composite name" : "MODEL:LINE[:COL]");
				return 0;
			}
			*(a[2] == 'w' ? &o->p.whynot : &o->at) = argv[i];
		} else if (strcmp(a, "--plugin") == 0) {
			i++;    /* loaded already: drv_plugins_load() */
		} else if (strncmp(a, "--plugin=", 9) == 0) {
			continue;
		} else if (strcmp(a, "--emit-target") == 0) {
			if (++i == argc) {
				fprintf(stderr, "graft: error: option '--emit-target' needs a target name\n");
				return 0;
			}
			o->emit_target = argv[i];
		} else if (a[0] == '-' && a[1] == 'O' && a[2] >= '0' && a[2] <= '3' && !a[3]) {
			o->opt = a[2] - '0';
		} else if (strcmp(a, "--explain") == 0) {
			o->p.explain = 1;
		} else if (strcmp(a, "--stop-after") == 0) {
			static const char *const steps[] = { "composite", "annotate", "regions", "partition" };
			int k = 0;
			if (++i < argc)
				for (k = 0; k < 4 && strcmp(argv[i], steps[k]) != 0; k++)
					;
			if (i == argc || k == 4) {
				fprintf(stderr, "graft: error: option '--stop-after' takes composite, annotate, regions or partition\n");
				return 0;
			}
			o->p.stop = (PartStop)(PS_COMPOSITE + k);
		} else if (strcmp(a, "--params") == 0) {
			val = &o->p.params;
		} else if (strcmp(a, "--bind") == 0) {
			if (++i == argc) {
				fprintf(stderr, "graft: error: option '--bind' needs NAME=FILE.npy\n");
				return 0;
			}
			if (!drv_opt_bind(&o->p, "--bind", argv[i]))
				return 0;
		} else if (strcmp(a, "--save-params") == 0) {
			val = &o->save_params;
		} else if (strcmp(a, "-o") == 0) {
			val = &o->out;
		} else if (!drv_opt_model(&o->p, a)) {
			return 0;
		}
		if (val) {
			if (++i == argc) {
				fprintf(stderr, "graft: error: option '%s' needs a file name\n", a);
				return 0;
			}
			*val = argv[i];
		}
	}
	if (!o->p.model) {
		fprintf(stderr, "graft: error: no model given\n");
		return 0;
	}
	if (o->at && !o->p.whynot) {
		fprintf(stderr, "graft: error: --at goes with --why-not\n");
		return 0;
	}
	if (o->at && !atplace(o->at, &o->atline, &o->atcol)) {
		fprintf(stderr, "graft: error: --at %s: give MODEL:LINE or MODEL:LINE:COL\n", o->at);
		return 0;
	}
	if ((o->p.explain || o->p.stop) && !o->p.ntargets) {
		fprintf(stderr, "graft: error: %s needs --target\n", o->p.explain ? "--explain" : "--stop-after");
		return 0;
	}
	if (o->out && o->save_params && samefile(o->out, o->save_params)) {
		fprintf(stderr, "graft: error: -o and --save-params name the same file, '%s'\n", o->out);
		return 0;
	}
	if (o->emit >= EM_C) {
		const char *what = emits[o->emit];
		if (!o->out || (o->emit == EM_C && !suffix(o->out, ".c"))) {
			fprintf(stderr, "graft: error: --emit %s needs -o FILE%s\n", what,
			        o->emit == EM_C ? ".c (the header is written to FILE.h)" : o->emit == EM_LLVM ? ".ll" : ".o");
			return 0;
		}
		if (o->save_params) {
			fprintf(stderr, "graft: error: --save-params goes with --emit relay, not --emit %s\n", what);
			return 0;
		}
	}
	if (o->emit_target) {
		const BeCodegen *cg = be_codegen_find(o->emit_target);
		int k;
		if (o->emit_given ? o->emit != EM_C : !cg || !cg->emit) {
			fprintf(stderr, "graft: error: --emit-target %s: %s\n", o->emit_target, o->emit_given ?
			        "goes with --emit c, or alone for a target whose plugin registers a codegen" :
			        "no loaded plugin registers a codegen for this target; --emit c writes C for its partitions");
			return 0;
		}
		if (o->save_params) {
			fprintf(stderr, "graft: error: --save-params goes with --emit relay, not --emit-target\n");
			return 0;
		}
		/* known now, unless a target is a .rules file still to be loaded */
		for (k = 0; k < o->p.ntargets && o->p.targets[k]; k++)
			;
		if (k == o->p.ntargets && !hastarget(o))
			return 0;
	}
	return 1;
}

/* cgemit: --emit-target T alone: T's partitions through its plugin's codegen */
static int
cgemit(const Module *m, const Opts *o, FILE *out, FILE *h, const char *hbase, Diag *d)
{
	const BeCodegen *cg = be_codegen_find(o->emit_target);
	NodeId *fns = ir_xcalloc(m->nglobals + 1, sizeof *fns);
	uint32_t n = 0;
	int errs;

	(void)h, (void)hbase;
	for (uint32_t k = 0; k < m->nglobals; k++)
		if (be_codegen_of(m, m->globals[k].fn) == cg)
			fns[n++] = m->globals[k].fn;
	if (!n) {
		ir_error(d, (Loc){ 0, 0, 0 }, "the model has no partition for target '%s'", o->emit_target);
		free(fns);
		return 1;
	}
	errs = cg->emit(m, fns, n, out, d);
	free(fns);
	return errs || ferror(out);
}

/* cantwrite: reports that an output file cannot be written; returns 0 */
static int
cantwrite(const IrOut *f)
{
	fprintf(stderr, "graft: error: %s: %s\n", f->path, f->msg);
	return 0;
}

/* hname: FILE.h for FILE.c or FILE.o, fresh */
static char *
hname(const char *path)
{
	size_t n = strlen(path);
	char *h = ir_xmalloc(n + 1);

	memcpy(h, path, n + 1);
	h[n - 1] = 'h';
	return h;
}

/* emit: --emit relay|dot: m to o->out (or standard output) and, with
** --save-params, its constants; the text is put in place only once the
** parameters are written.  t0: when printing began, for --time */
static int
emit(Module *m, const Opts *o, MetaList *meta, double *t0)
{
	PrintOpts po = { .show_types = (unsigned)o->show_types };
	IrOut f;
	char err[512];
	long long start;

	if (ir_out_open(&f, o->out ? o->out : "-", 0) != 0)
		return cantwrite(&f);
	start = o->p.time ? (long long)ftello(f.f) : -1;
	if (o->emit == EM_DOT)
		ir_print_dot(f.f, m);
	else
		ir_print(f.f, m, &po, meta);
	if (o->p.time) {
		/* the bytes are known where the output is a file */
		long long end;
		fflush(f.f);
		end = (long long)ftello(f.f);
		if (start >= 0 && end >= start)
			drv_time_step(&o->p, "print", t0, " bytes=%lld", end - start);
		else
			drv_time_step(&o->p, "print", t0, NULL);
	}
	if (o->save_params && ir_save_params(m, meta, o->save_params, err, sizeof err) != 0) {
		Diag d;
		ir_diag_init(&d, stderr, m);
		ir_error_file(&d, o->save_params, err);
		ir_diag_free(&d);
		ir_out_abort(&f);
		return 0;
	}
	if (o->save_params)
		drv_time_step(&o->p, "save-params", t0, " tensors=%u", meta->n);
	if (ir_out_commit(&f) != 0)
		return cantwrite(&f);
	return 1;
}

/* emit_files: a backend's output to o->out and, where want_h, FILE.h
** beside it; emitter writes both, and both are put in place, or neither */
static int
emit_files(const Module *m, const Opts *o, Diag *d, int want_h,
           int (*emitter)(const Module *, const Opts *, FILE *, FILE *, const char *, Diag *))
{
	char *h = want_h ? hname(o->out) : NULL;
	const char *base = h && strrchr(h, '/') ? strrchr(h, '/') + 1 : h;
	IrOut fc, fh;
	int ok = 0;

	if (ir_out_open(&fc, o->out ? o->out : "-", 0) != 0) {
		free(h);
		return cantwrite(&fc);
	}
	if (h && ir_out_open(&fh, h, 0) != 0) {
		cantwrite(&fh);
		ir_out_abort(&fc);
		free(h);
		return 0;
	}
	if (emitter(m, o, fc.f, h ? fh.f : NULL, base, d) != 0) {
		ir_out_abort(&fc);
		if (h)
			ir_out_abort(&fh);
	} else if (h && ir_out_commit(&fh) != 0) {
		cantwrite(&fh);
		ir_out_abort(&fc);
	} else if (ir_out_commit(&fc) != 0) {
		cantwrite(&fc);
	} else {
		ok = 1;
	}
	free(h);
	return ok;
}

/* cemit: --emit c, the model and its header */
static int
cemit(const Module *m, const Opts *o, FILE *c, FILE *h, const char *hbase, Diag *d)
{
	return be_c_emit(m, o->emit_target, c, h, hbase, d);
}

/* llvmemit: --emit llvm|obj (and, for obj to FILE.o, FILE.h) */
static int
llvmemit(const Module *m, const Opts *o, FILE *out, FILE *h, const char *hbase, Diag *d)
{
	BeOpts bo = o->p.host;

	bo.opt = o->opt;
	return be_llvm_emit(m, &bo, o->emit == EM_OBJ ? BE_LLVM_OBJ : BE_LLVM_IR, out, h, d);
}

int
main(int argc, char **argv)
{
	Opts o = { 0 };
	Module *m;
	Diag d;
	MetaList meta = { 0 };
	StFile params = { 0 };
	int ok = 0;
	double tstart = drv_now(), t0;

	if (argc > 1 && strcmp(argv[1], "run") == 0)
		return drv_run(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "rules-diff") == 0)
		return drv_rules_diff(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "coverage") == 0) {
		Coverage c;
		if (argc != 3 || argv[2][0] == '-') {
			fprintf(stderr, "usage: graft coverage FILE.json\n");
			return 2;
		}
		if (cov_read(argv[2], &c, stderr))
			return 1;
		if (!c.nsets) {
			fprintf(stderr, "graft: error: %s: no coverage recorded there (graft --coverage %s ... writes it)\n",
			        argv[2], argv[2]);
			return 1;
		}
		cov_report(stdout, &c);
		cov_free(&c);
		return 0;
	}
	if (drv_plugins_load(argc, argv))
		return 1;
	if (!parseargs(argc, argv, &o)) {
		fputs("Try 'graft --help'.\n", stderr);
		drv_pipeline_free(&o.p);
		return 2;
	}
	m = ir_module_new();
	ir_diag_init(&d, stderr, m);

	/* the pipeline (parse, bind, infer, rewrite, partition), then the
	   output: Relay text or Graphviz (and the parameters), C, LLVM */
	if (drv_pipeline(&o.p, m, &d, &params))
		goto out;
	if (o.p.whystop) {
		WhyNot w = { o.p.whynot, o.p.whyrules, o.atline, o.atcol, stdout, stderr };
		ok = whynot(m, &d, &w) == 0;
		goto out;
	}
	if (o.emit_target && !hastarget(&o))
		goto out;
	t0 = drv_now();
	if (o.emit_target && !o.emit_given)
		ok = emit_files(m, &o, &d, 0, cgemit);
	else if (o.emit == EM_C)
		ok = emit_files(m, &o, &d, 1, cemit);
	else if (o.emit == EM_LLVM || o.emit == EM_OBJ)
		ok = emit_files(m, &o, &d, o.emit == EM_OBJ && suffix(o.out, ".o"), llvmemit);
	else
		ok = emit(m, &o, &meta, &t0);     /* times its own steps */
	if (ok && ((o.emit_target && !o.emit_given) || o.emit >= EM_C))
		drv_time_step(&o.p, "print", &t0, NULL);
	if (ok && o.p.coverage && drv_pipeline_coverage(&o.p))
		ok = 0;
	if (ok)
		drv_time_step(&o.p, "total", &tstart, NULL);
out:
	ir_metalist_free(&meta);
	ir_st_free(&params);
	ir_diag_free(&d);
	ir_module_free(m);
	drv_pipeline_free(&o.p);
	return ok ? 0 : 1;
}
