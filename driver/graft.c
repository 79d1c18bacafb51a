/*
** graft.c: the graft command.
**
**   graft [--rules NAME ...] [--target "T1, T2, host"] [--emit relay|dot]
**         [--explain] [--stats] [--params FILE] [--save-params FILE]
**         [--show-types] [--verify] [-o OUT] MODEL.relay
**
** Reads a model in TVM's Relay text format, binds its parameters, infers
** and checks its types, applies the built-in rulesets named, partitions it
** for the targets named, and prints it.  Exit status: 0 on success, 1 on a
** user error (reported as file:line:col: error: ...), 2 on a usage error.
** Output files are written whole or not at all.
*/
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bind.h"
#include "dot.h"
#include "ir.h"
#include "partition.h"
#include "rewrite.h"
#include "rulesets.h"
#include "run.h"
#include "text.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "dev"
#endif

typedef struct Opts {
	const char *model;
	const char *params;
	const char *save_params;
	const char *out;
	int show_types;
	int verify;
	int stats;
	const Ruleset *rules[32];
	int nrules;
	const Ruleset *targets[32];
	int ntargets;
	int dot;                /* --emit dot */
	int explain;
	PartStop stop;
} Opts;

static const char usage[] =
	"usage: graft [options] MODEL.relay\n"
	"\n"
	"Reads a model in TVM's Relay text format, infers and checks its types,\n"
	"and prints it.\n"
	"\n"
	"options:\n"
	"  --rules NAME         apply a built-in ruleset until nothing matches;\n"
	"                       repeat to apply several, in order\n"
	"  --target \"T, host\"   partition for the built-in targets listed before\n"
	"                       the host (the tvmc convention), in that order\n"
	"  --emit relay|dot     print Relay text (the default), or a Graphviz\n"
	"                       picture with one colour per target\n"
	"  --explain            say why each op left on the host is there, and\n"
	"                       which region merges were refused (to standard error)\n"
	"  --stop-after STEP    partition only up to composite, annotate, regions\n"
	"                       or partition (the default)\n"
	"  --stats              print how often each rule fired and what was\n"
	"                       offloaded (to standard error)\n"
	"  --params FILE        bind constants and @main parameters from a\n"
	"                       safetensors file (meta[relay.Constant][N] or %%name)\n"
	"  --save-params FILE   write the printed meta[relay.Constant][N] data\n"
	"                       to a safetensors file\n"
	"  --show-types         print ty= annotations\n"
	"  --verify             run the IR verifier after each step\n"
	"  -o FILE              write the model to FILE instead of standard output\n"
	"  --help, --version\n";

/* readfile: the whole of path, or NULL after printing why */
static char *
readfile(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f) {
		fprintf(stderr, "graft: error: cannot open '%s': %s\n", path, strerror(errno));
		return NULL;
	}
	for (;;) {
		size_t got;
		if (n == cap) {
			cap = cap ? cap * 2 : 65536;
			buf = ir_xrealloc(buf, cap);
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		fprintf(stderr, "graft: error: cannot read '%s': %s\n", path, strerror(errno));
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	*len = n;
	return buf;
}

/* targets: o->targets from a --target list "a, b, host": the targets
** before the host (named host, llvm or c) partition, in order */
static int
targets(Opts *o, const char *list)
{
	const char *s = list;
	int host = 0;

	for (;;) {
		const char *e;
		size_t n;
		char name[128];
		const Ruleset *rs;
		while (*s == ' ' || *s == '\t')
			s++;
		e = strchr(s, ',');
		n = e ? (size_t)(e - s) : strlen(s);
		while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
			n--;
		if (!n || n >= sizeof name) {
			fprintf(stderr, "graft: error: --target \"%s\": %s\n", list, n ? "a name is too long" : "an empty name");
			return 0;
		}
		memcpy(name, s, n);
		name[n] = 0;
		if (host) {
			fprintf(stderr, "graft: error: --target \"%s\": '%s' comes after the host target; "
			        "partitioned targets come first\n", list, name);
			return 0;
		}
		if (strcmp(name, "host") == 0 || strcmp(name, "llvm") == 0 || strcmp(name, "c") == 0) {
			host = 1;
		} else if (!(rs = graft_ruleset_find(name)) || !rs->target) {
			fprintf(stderr, "graft: error: --target: %s '%s' (built-in targets: ", rs ? "not a target table, but the ruleset" :
			        "no target called", name);
			graft_rulesets_list(stderr, 1);
			fprintf(stderr, ", and host)%s\n", rs ? "; apply rulesets with --rules" : "");
			return 0;
		} else {
			for (int i = 0; i < o->ntargets; i++)
				if (o->targets[i] == rs) {
					fprintf(stderr, "graft: error: --target \"%s\": '%s' is listed twice\n", list, name);
					return 0;
				}
			if (o->ntargets == 32) {
				fprintf(stderr, "graft: error: more than 32 targets\n");
				return 0;
			}
			o->targets[o->ntargets++] = rs;
		}
		if (!e)
			break;
		s = e + 1;
	}
	return 1;
}

static int
parseargs(int argc, char **argv, Opts *o)
{
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
			o->verify = 1;
		} else if (strcmp(a, "--stats") == 0) {
			o->stats = 1;
		} else if (strcmp(a, "--rules") == 0) {
			const Ruleset *rs;
			if (++i == argc) {
				fprintf(stderr, "graft: error: option '--rules' needs a ruleset name\n");
				return 0;
			}
			if (!(rs = graft_ruleset_find(argv[i])) || rs->target) {
				fprintf(stderr, "graft: error: %s '%s' (built-in rulesets: ", rs ? "not a ruleset, but the target table" :
				        "no ruleset called", argv[i]);
				graft_rulesets_list(stderr, 0);
				fprintf(stderr, ")%s\n", rs ? "; partition with --target" : "");
				return 0;
			}
			if (o->nrules == 32) {
				fprintf(stderr, "graft: error: more than 32 --rules\n");
				return 0;
			}
			o->rules[o->nrules++] = rs;
		} else if (strcmp(a, "--target") == 0) {
			if (++i == argc) {
				fprintf(stderr, "graft: error: option '--target' needs a list of targets\n");
				return 0;
			}
			if (!targets(o, argv[i]))
				return 0;
		} else if (strcmp(a, "--emit") == 0) {
			if (++i == argc || (strcmp(argv[i], "relay") != 0 && strcmp(argv[i], "dot") != 0)) {
				fprintf(stderr, "graft: error: option '--emit' takes relay or dot\n");
				return 0;
			}
			o->dot = strcmp(argv[i], "dot") == 0;
		} else if (strcmp(a, "--explain") == 0) {
			o->explain = 1;
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
			o->stop = (PartStop)(PS_COMPOSITE + k);
		} else if (strcmp(a, "--params") == 0) {
			val = &o->params;
		} else if (strcmp(a, "--save-params") == 0) {
			val = &o->save_params;
		} else if (strcmp(a, "-o") == 0) {
			val = &o->out;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "graft: error: unknown option '%s'\n", a);
			return 0;
		} else if (o->model) {
			fprintf(stderr, "graft: error: more than one model given ('%s' and '%s')\n", o->model, a);
			return 0;
		} else {
			o->model = a;
		}
		if (val) {
			if (++i == argc) {
				fprintf(stderr, "graft: error: option '%s' needs a file name\n", a);
				return 0;
			}
			*val = argv[i];
		}
	}
	if (!o->model) {
		fprintf(stderr, "graft: error: no model given\n");
		return 0;
	}
	if ((o->explain || o->stop) && !o->ntargets) {
		fprintf(stderr, "graft: error: %s needs --target\n", o->explain ? "--explain" : "--stop-after");
		return 0;
	}
	if (!o->stop)
		o->stop = PS_ALL;
	return 1;
}

/* emit: print m to o->out (atomically, through a temporary) or stdout */
static int
emit(Module *m, const Opts *o, MetaList *meta)
{
	PrintOpts po = { .show_types = (unsigned)o->show_types };
	char *tmp;
	FILE *f;

	if (!o->out) {
		if (o->dot)
			ir_print_dot(stdout, m);
		else
			ir_print(stdout, m, &po, meta);
		if (fflush(stdout) != 0) {
			fprintf(stderr, "graft: error: cannot write output: %s\n", strerror(errno));
			return 0;
		}
		return 1;
	}
	tmp = ir_xmalloc(strlen(o->out) + 16);
	sprintf(tmp, "%s.tmp%ld", o->out, (long)getpid());
	f = fopen(tmp, "w");
	if (!f) {
		fprintf(stderr, "graft: error: cannot create '%s': %s\n", tmp, strerror(errno));
		free(tmp);
		return 0;
	}
	if (o->dot)
		ir_print_dot(f, m);
	else
		ir_print(f, m, &po, meta);
	if (ferror(f) | (fclose(f) != 0) || rename(tmp, o->out) != 0) {
		fprintf(stderr, "graft: error: cannot write '%s': %s\n", o->out, strerror(errno));
		remove(tmp);
		free(tmp);
		return 0;
	}
	free(tmp);
	return 1;
}

int
main(int argc, char **argv)
{
	Opts o = { 0 };
	Module *m;
	Diag d;
	MetaList meta = { 0 };
	StFile params = { 0 };
	char *text;
	size_t len = 0;
	int ok = 0;

	if (argc > 1 && strcmp(argv[1], "run") == 0)
		return graft_run(argc - 1, argv + 1);
	if (!parseargs(argc, argv, &o)) {
		fputs("Try 'graft --help'.\n", stderr);
		return 2;
	}
	if (!(text = readfile(o.model, &len)))
		return 1;
	m = ir_module_new();
	ir_diag_init(&d, stderr, m);

	/* the pipeline: parse, bind (and drop what binding replaced), infer,
	   verify, rewrite with each ruleset, print */
	if (ir_parse(m, &d, o.model, text, len))
		goto out;
	free(text);     /* the module keeps its own copy for diagnostics */
	text = NULL;
	if (o.params) {
		char err[512];
		if (ir_st_read(o.params, &params, err, sizeof err) != 0) {
			fprintf(stderr, "%s\n", err);
			goto out;
		}
		if (ir_bind_params(m, &params, o.params, &d))
			goto out;
		ir_dce(m);      /* the parameters bound are gone */
	}
	if (ir_infer_types(m, &d))
		goto out;
	if (o.verify && ir_verify(m, &d))
		goto out;
	for (int i = 0; i < o.nrules; i++) {
		RwStats st;
		int errs = ir_rewrite(m, o.rules[i], &d, &st);
		if (o.stats)
			ir_rewrite_stats(stderr, o.rules[i], &st);
		free(st.fired);
		if (errs || (o.verify && ir_verify(m, &d)))
			goto out;
	}
	if (o.ntargets) {
		Partitioner p;
		int errs;
		memset(&p, 0, sizeof p);
		p.m = m;
		p.d = &d;
		p.targets = o.targets;
		p.ntargets = (uint32_t)o.ntargets;
		p.stop = o.stop;
		p.explain = o.explain;
		errs = ir_partition(&p);
		if (o.stats)
			ir_partition_stats(stderr, &p);
		if (o.explain)
			ir_partition_explain(stderr, &p);
		ir_partition_free(&p);
		if (errs || (o.verify && ir_verify(m, &d)))
			goto out;
	}
	if (!emit(m, &o, &meta))
		goto out;
	if (o.save_params) {
		char err[512];
		if (ir_save_params(m, &meta, o.save_params, err, sizeof err) != 0) {
			fprintf(stderr, "%s\n", err);
			goto out;
		}
	}
	ok = 1;
out:
	ir_metalist_free(&meta);
	ir_st_free(&params);
	ir_diag_free(&d);
	ir_module_free(m);
	free(text);
	return ok ? 0 : 1;
}
