/*
** rulesdiff.c: `graft rules-diff OLD.rules NEW.rules [options] MODEL...`,
** for the code review of a rule change.  Each model goes through graft's
** pipeline twice, once with OLD and once with NEW in the place of the
** ruleset or target of OLD's name (or added: a ruleset after the --rules,
** a target first); what differs is printed as Markdown: the rules that
** fire more or less often, the ops each target takes, the outputs on
** seeded random inputs (ref), and a unified diff of the printed result.
** OLD and NEW are files, or REV:PATH, read with git.  Exit status as
** diff's: 0 nothing changed, 1 something did, 2 an error.
*/
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "interp.h"
#include "pipeline.h"
#include "rulesdiff.h"
#include "text.h"

enum { MAXMODELS = 256, CONTEXT = 3, MAXDIFFCELLS = 40000000 };

typedef struct Opts {
	const char *old, *new;          /* as given */
	char oldpath[4096], newpath[4096];  /* the files read */
	const char *rules[GRAFT_MAXSETS];
	int nrules;
	const char *targets;
	const char *params;
	const char *models[MAXMODELS];
	int nmodels;
	unsigned long long seed;
	char tmpdir[64];
} Opts;

/* What one side (OLD or NEW) made of a model. */
typedef struct Side {
	char *text;             /* the printed module */
	size_t len;
	/* rule firings: "ruleset.rule" and count, every ruleset's */
	char **names;
	uint64_t *counts;
	uint32_t n;
	/* ops each target took: target name and count */
	char *tnames[GRAFT_MAXSETS];
	uint64_t tops[GRAFT_MAXSETS];
	uint32_t nt;
	/* the outputs on the seeded inputs (ran: 0 when it could not run) */
	int ran;
	char runerr[256];
	Tensor *out;
	uint32_t nout;
} Side;

static char *
sdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(ir_xmalloc(n), s, n);
}

/* fetch: OLD or NEW into path: the file, or REV:PATH from git into a file
** of PATH's base name in o->tmpdir; 0, or 1 after saying why */
static int
fetch(Opts *o, const char *arg, const char *which, char *path, size_t n)
{
	const char *colon = strchr(arg, ':'), *base;
	char cmd[8192];
	FILE *in, *out;
	int c, st;

	if (access(arg, R_OK) == 0 || !colon) {
		snprintf(path, n, "%s", arg);
		return 0;
	}
	if (!o->tmpdir[0]) {
		snprintf(o->tmpdir, sizeof o->tmpdir, "%s/graft-diff.XXXXXX",
		         getenv("TMPDIR") && strlen(getenv("TMPDIR")) < 40 ? getenv("TMPDIR") : "/tmp");
		if (!mkdtemp(o->tmpdir)) {
			fprintf(stderr, "graft: error: rules-diff: cannot make a temporary folder\n");
			o->tmpdir[0] = 0;
			return 1;
		}
	}
	base = strrchr(colon + 1, '/');
	base = base ? base + 1 : colon + 1;
	snprintf(path, n, "%s/%s/%s", o->tmpdir, which, base);
	snprintf(cmd, sizeof cmd, "%s/%s", o->tmpdir, which);
	{
		char mk[8300];
		snprintf(mk, sizeof mk, "mkdir -p '%s'", cmd);
		if (system(mk) != 0)
			return 1;
	}
	for (const char *s = arg; *s; s++)
		if (*s == '\'') {
			fprintf(stderr, "graft: error: rules-diff: %s: a quote in a revision or path\n", arg);
			return 1;
		}
	snprintf(cmd, sizeof cmd, "git show '%s' 2>&1", arg);
	if (!(in = popen(cmd, "r")) || !(out = fopen(path, "w"))) {
		if (in)
			pclose(in);
		fprintf(stderr, "graft: error: rules-diff: cannot run git for %s\n", arg);
		return 1;
	}
	while ((c = fgetc(in)) != EOF)
		fputc(c, out);
	st = pclose(in);
	if (fclose(out) != 0 || st != 0) {
		fprintf(stderr, "graft: error: rules-diff: git show %s failed:\n", arg);
		if ((in = fopen(path, "r"))) {
			while ((c = fgetc(in)) != EOF)
				fputc(c, stderr);
			fclose(in);
		}
		return 1;
	}
	return 0;
}

/* ---------------------------------------------------------------- running */

/* seeded: a reproducible pseudo-random stream (splitmix64) */
static uint64_t
seeded(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* fill: t's data, random: floats in [-1, 1), integers over the dtype's
** range (at most +-1000 for wide ones) */
static void
fill(Tensor *t, uint64_t *s)
{
	int64_t n = ir_tensor_numel(t);
	size_t esz = ir_dtype_bytes[t->dt];

	t->data = ir_xcalloc((size_t)n + 1, esz);
	for (int64_t i = 0; i < n; i++) {
		uint64_t r = seeded(s);
		if (ir_dtype_kind[t->dt] == 'f') {
			double v = (double)(r >> 11) / 9007199254740992.0 * 2 - 1;
			if (esz == 4) {
				float f = (float)v;
				memcpy(t->data + i * esz, &f, 4);
			} else if (esz == 8) {
				memcpy(t->data + i * esz, &v, 8);
			} else {
				uint16_t h = ir_f16_from_f32((float)v);
				memcpy(t->data + i * esz, &h, 2);
			}
		} else {
			int64_t lo = ir_dtype_min(t->dt), hi = ir_dtype_max(t->dt), v;
			if (lo < -1000)
				lo = -1000;
			if (hi > 1000)
				hi = 1000;
			v = lo + (int64_t)(r % (uint64_t)(hi - lo + 1));
			memcpy(t->data + i * esz, &v, esz);     /* little-endian */
		}
	}
}

/* targetops: the calls inside each partition of m, by its target */
static void
targetops(const Module *m, Side *sd)
{
	for (uint32_t g = 0; g < m->nglobals; g++) {
		NodeId fn = m->globals[g].fn;
		const AttrVal *cc = ir_func_attr(m, fn, "Compiler");
		uint32_t t;
		NodeId *stack;
		uint8_t *seen;
		uint32_t ns = 0;
		if (!cc || cc->kind != AV_STR)
			continue;
		for (t = 0; t < sd->nt && strcmp(sd->tnames[t], ir_symstr(m, cc->u.s)); t++)
			;
		if (t == sd->nt) {
			if (sd->nt == GRAFT_MAXSETS)
				continue;
			sd->tnames[sd->nt++] = sdup(ir_symstr(m, cc->u.s));
		}
		stack = ir_xcalloc(m->nnodes + 1, sizeof *stack);
		seen = ir_xcalloc(m->nnodes + 1, 1);
		stack[ns++] = ir_func_body(m, fn);
		while (ns) {
			NodeId n = stack[--ns];
			const Node *nd = &m->nodes[n];
			if (seen[n])
				continue;
			seen[n] = 1;
			if (nd->kind == NK_CALL)
				sd->tops[t]++;
			if (nd->kind == NK_FUNC) {
				stack[ns++] = ir_func_body(m, n);
				continue;
			}
			for (uint32_t i = 0; i < nd->nargs; i++)
				stack[ns++] = ir_arg(m, n, i);
		}
		free(stack);
		free(seen);
	}
}

/* side: model i through the pipeline with rs in its place, into sd; 0,
** or 1 after graft's messages */
static int
side(const Opts *o, const char *model, const Ruleset *rs, const char *path, Side *sd)
{
	Pipeline p;
	Module *m = ir_module_new();
	Diag d;
	StFile params;
	int bad = 1, found = -1;
	FILE *f;

	memset(&p, 0, sizeof p);
	memset(sd, 0, sizeof *sd);
	ir_diag_init(&d, stderr, m);
	for (int i = 0; i < o->nrules; i++)
		if (!drv_opt_rules(&p, o->rules[i]))
			goto out;
	if (o->targets && !drv_opt_target(&p, o->targets))
		goto out;
	/* rs in the place of the entry of its name, or of its file */
	for (int i = 0; i < (rs->target ? p.ntargets : p.nrules); i++) {
		const Ruleset *e = rs->target ? p.targets[i] : p.rules[i];
		const char *file = rs->target ? p.targetfile[i] : p.rulefile[i];
		if ((e && !strcmp(e->name, rs->name)) || (file && (!strcmp(file, o->old) || !strcmp(file, o->new) ||
		                                                   !strcmp(file, path))))
			found = i;
	}
	if (found < 0) {
		if (rs->target) {
			if (p.ntargets == GRAFT_MAXSETS)
				goto out;
			memmove(&p.targets[1], &p.targets[0], (size_t)p.ntargets * sizeof *p.targets);
			memmove(&p.targetfile[1], &p.targetfile[0], (size_t)p.ntargets * sizeof *p.targetfile);
			p.ntargets++;
			found = 0;
		} else {
			if (p.nrules == GRAFT_MAXSETS)
				goto out;
			found = p.nrules++;
		}
	}
	if (rs->target) {
		free(p.targetfile[found]);
		p.targetfile[found] = NULL;
		p.targets[found] = rs;
	} else {
		p.rulefile[found] = NULL;
		p.rules[found] = rs;
	}
	p.model = model;
	p.params = o->params;
	p.keep = 1;
	if (drv_pipeline(&p, m, &d, &params)) {
		ir_st_free(&params);
		goto out;
	}
	ir_st_free(&params);
	/* the firings, every ruleset's */
	for (int t = 0; t < 2; t++) {
		int n = t ? p.ntargets : p.nrules;
		for (int i = 0; i < n; i++) {
			const Ruleset *e = t ? p.targets[i] : p.rules[i];
			const uint64_t *fired = p.keepfired[t ? GRAFT_MAXSETS + i : i];
			for (uint32_t k = 0; fired && k < e->nrules; k++) {
				char name[512];
				snprintf(name, sizeof name, "%s.%s", e->name, e->rules[k].name);
				sd->names = ir_xrealloc(sd->names, (sd->n + 1) * sizeof *sd->names);
				sd->counts = ir_xrealloc(sd->counts, (sd->n + 1) * sizeof *sd->counts);
				sd->names[sd->n] = sdup(name);
				sd->counts[sd->n++] = fired[k];
			}
		}
	}
	targetops(m, sd);
	if (!(f = open_memstream(&sd->text, &sd->len)))
		goto out;
	ir_print(f, m, &(PrintOpts){ 0 }, NULL);
	fclose(f);
	/* the outputs on seeded inputs */
	{
		BeSig sig;
		Diag rd;
		char *errs = NULL;
		size_t errlen = 0;
		FILE *ef = open_memstream(&errs, &errlen);
		ir_diag_init(&rd, ef, m);
		if (be_sig(m, &sig, &rd) == 0) {
			Tensor *in = ir_xcalloc(sig.nin + 1, sizeof *in);
			uint64_t s = o->seed;
			Program *prog;
			sd->out = ir_xcalloc(sig.nout + 1, sizeof *sd->out);
			for (uint32_t i = 0; i < sig.nin; i++) {
				in[i] = sig.in[i];
				fill(&in[i], &s);
			}
			if ((prog = be_ref.prepare(m, &(BeOpts){ .opt = 2 }, &rd)) && !be_ref.run(prog, in, sd->out, &rd)) {
				sd->ran = 1;
				sd->nout = sig.nout;
			}
			if (prog)
				be_ref.release(prog);
			for (uint32_t i = 0; i < sig.nin; i++)
				ir_tensor_free(&in[i]);
			free(in);
			be_sig_free(&sig);
		}
		ir_diag_free(&rd);
		fclose(ef);
		if (!sd->ran)
			snprintf(sd->runerr, sizeof sd->runerr, "%.*s", (int)strcspn(errs ? errs : "", "\n"),
			         errs ? errs : "");
		free(errs);
	}
	bad = 0;
out:
	drv_pipeline_free(&p);
	ir_diag_free(&d);
	ir_module_free(m);
	return bad;
}

static void
sidefree(Side *sd)
{
	free(sd->text);
	for (uint32_t i = 0; i < sd->n; i++)
		free(sd->names[i]);
	free(sd->names);
	free(sd->counts);
	for (uint32_t i = 0; i < sd->nt; i++)
		free(sd->tnames[i]);
	for (uint32_t i = 0; i < sd->nout; i++)
		ir_tensor_free(&sd->out[i]);
	free(sd->out);
}

/* ---------------------------------------------------------------- comparing */

/* lines: text split at '\n' (in place) */
static char **
lines(char *text, uint32_t *n)
{
	char **v = NULL;
	uint32_t cap = 0;

	*n = 0;
	for (char *s = text; s && *s;) {
		char *nl = strchr(s, '\n');
		ir_vgrow(&v, &cap, *n + 1);
		v[(*n)++] = s;
		if (!nl)
			break;
		*nl = 0;
		s = nl + 1;
	}
	return v;
}

/* udiff: a unified diff of a and b, with CONTEXT lines, to f; the lines
** are compared by a longest common subsequence */
static void
udiff(FILE *f, char **a, uint32_t na, char **b, uint32_t nb)
{
	uint32_t *L, i, j;
	char *op;               /* ' ', '-', '+' */
	uint32_t *ai, *bi, n = 0;

	if ((uint64_t)(na + 1) * (nb + 1) > MAXDIFFCELLS) {
		fprintf(f, "(the printed results differ: %u and %u lines, too many to diff here)\n", na, nb);
		return;
	}
	L = ir_xcalloc((size_t)(na + 1) * (nb + 1), sizeof *L);
#define AT(x, y) L[(size_t)(x) * (nb + 1) + (y)]
	for (i = na; i-- > 0;)
		for (j = nb; j-- > 0;)
			AT(i, j) = strcmp(a[i], b[j]) == 0 ? AT(i + 1, j + 1) + 1 :
			           AT(i + 1, j) > AT(i, j + 1) ? AT(i + 1, j) : AT(i, j + 1);
	op = ir_xmalloc(na + nb + 1);
	ai = ir_xmalloc((na + nb + 1) * sizeof *ai);
	bi = ir_xmalloc((na + nb + 1) * sizeof *bi);
	for (i = 0, j = 0; i < na || j < nb;) {
		if (i < na && j < nb && strcmp(a[i], b[j]) == 0) {
			op[n] = ' ', ai[n] = i++, bi[n++] = j++;
		} else if (i < na && (j == nb || AT(i + 1, j) >= AT(i, j + 1))) {
			op[n] = '-', ai[n] = i++, bi[n++] = j;
		} else {
			op[n] = '+', ai[n] = i, bi[n++] = j++;
		}
	}
#undef AT
	/* hunks: runs of changes with CONTEXT lines around them */
	for (uint32_t k = 0; k < n;) {
		uint32_t s, e, oa = 0, ob = 0;
		if (op[k] == ' ') {
			k++;
			continue;
		}
		s = k > CONTEXT ? k - CONTEXT : 0;
		e = k;
		while (e < n) {
			uint32_t run = 0;
			while (e + run < n && op[e + run] == ' ')
				run++;
			if (e + run == n || run > 2 * CONTEXT) {
				e += run < CONTEXT ? run : CONTEXT;
				break;
			}
			e += run;
			while (e < n && op[e] != ' ')
				e++;
		}
		for (uint32_t q = s; q < e; q++) {
			oa += op[q] != '+';
			ob += op[q] != '-';
		}
		fprintf(f, "@@ -%u,%u +%u,%u @@\n", ai[s] + 1, oa, bi[s] + 1, ob);
		for (uint32_t q = s; q < e; q++)
			fprintf(f, "%c%s\n", op[q], op[q] == '+' ? b[bi[q]] : a[ai[q]]);
		k = e;
	}
	free(L);
	free(op);
	free(ai);
	free(bi);
}

/* count: the count of name in sd, 0 if none */
static uint64_t
count(const Side *sd, const char *name)
{
	for (uint32_t i = 0; i < sd->n; i++)
		if (!strcmp(sd->names[i], name))
			return sd->counts[i];
	return 0;
}

/* compare: model's two sides as Markdown; 1 if anything differs */
static int
compare(FILE *f, const char *model, Side *a, Side *b, unsigned long long seed)
{
	int changed = 0, rows = 0;

	fprintf(f, "\n## %s\n\n", model);
	/* firings */
	for (int pass = 0; pass < 2; pass++) {
		const Side *s = pass ? b : a, *t = pass ? a : b;
		for (uint32_t i = 0; i < s->n; i++) {
			uint64_t x = pass ? count(t, s->names[i]) : s->counts[i];
			uint64_t y = pass ? s->counts[i] : count(t, s->names[i]);
			int dupl = 0;
			if (pass)
				for (uint32_t k = 0; k < t->n && !dupl; k++)
					dupl = !strcmp(t->names[k], s->names[i]);
			if (x == y || dupl)
				continue;
			if (!rows++)
				fprintf(f, "| rule | fired, old | fired, new |\n| --- | ---: | ---: |\n");
			fprintf(f, "| `%s` | %llu | %llu |\n", s->names[i], (unsigned long long)x, (unsigned long long)y);
		}
	}
	if (rows) {
		fputc('\n', f);
		changed = 1;
	} else {
		fprintf(f, "Every rule fires as often as before.\n\n");
	}
	/* targets */
	rows = 0;
	for (int pass = 0; pass < 2; pass++) {
		const Side *s = pass ? b : a, *t = pass ? a : b;
		for (uint32_t i = 0; i < s->nt; i++) {
			uint64_t other = 0;
			int there = 0;
			for (uint32_t k = 0; k < t->nt; k++)
				if (!strcmp(t->tnames[k], s->tnames[i])) {
					other = t->tops[k];
					there = 1;
				}
			if ((pass && there) || other == s->tops[i])
				continue;
			if (!rows++)
				fprintf(f, "| target | ops it takes, old | new |\n| --- | ---: | ---: |\n");
			fprintf(f, "| %s | %llu | %llu |\n", s->tnames[i], (unsigned long long)(pass ? other : s->tops[i]),
			        (unsigned long long)(pass ? s->tops[i] : other));
		}
	}
	if (rows) {
		fputc('\n', f);
		changed = 1;
	} else if (a->nt || b->nt) {
		fprintf(f, "Each target takes as many ops as before.\n\n");
	}
	/* outputs */
	if (!a->ran || !b->ran) {
		fprintf(f, "Outputs: not compared (%s side does not run on ref: %s).\n\n", !a->ran ? "the old" : "the new",
		        !a->ran ? a->runerr : b->runerr);
	} else if (a->nout != b->nout) {
		fprintf(f, "Outputs on random inputs (seed %llu, ref): **%u results before, %u now**.\n\n", seed, a->nout,
		        b->nout);
		changed = 1;
	} else {
		uint64_t differ = 0, total = 0;
		double worst = 0;
		int shape = 0;
		for (uint32_t i = 0; i < a->nout; i++) {
			const Tensor *x = &a->out[i], *y = &b->out[i];
			if (x->dt != y->dt || x->rank != y->rank || memcmp(x->dims, y->dims, x->rank * sizeof *x->dims)) {
				shape = 1;
				continue;
			}
			for (int64_t k = 0; k < ir_tensor_numel(x); k++) {
				double p = ir_tensor_get(x, k), q = ir_tensor_get(y, k);
				total++;
				if (memcmp(x->data + (size_t)k * ir_dtype_bytes[x->dt], y->data + (size_t)k * ir_dtype_bytes[x->dt],
				           ir_dtype_bytes[x->dt])) {
					differ++;
					if (fabs(p - q) > worst || isnan(p - q))
						worst = fabs(p - q);
				}
			}
		}
		if (shape) {
			fprintf(f, "Outputs on random inputs (seed %llu, ref): **their shapes or dtypes differ**.\n\n", seed);
			changed = 1;
		} else if (differ) {
			fprintf(f, "Outputs on random inputs (seed %llu, ref): **%llu of %llu values differ**, by at most %g.\n\n",
			        seed, (unsigned long long)differ, (unsigned long long)total, worst);
			changed = 1;
		} else {
			fprintf(f, "Outputs on random inputs (seed %llu, ref): the same, bit for bit (%llu values).\n\n", seed,
			        (unsigned long long)total);
		}
	}
	/* the printed result */
	if (strcmp(a->text ? a->text : "", b->text ? b->text : "") != 0) {
		uint32_t na, nb;
		char **la = lines(a->text, &na), **lb = lines(b->text, &nb);
		fprintf(f, "<details><summary>the printed result changes</summary>\n\n```diff\n");
		udiff(f, la, na, lb, nb);
		fprintf(f, "```\n\n</details>\n");
		free(la);
		free(lb);
		changed = 1;
	} else {
		fprintf(f, "The printed result is the same.\n");
	}
	return changed;
}

/* ---------------------------------------------------------------- the command */

static const char usage[] =
	"usage: graft rules-diff OLD.rules NEW.rules [options] MODEL...\n"
	"\n"
	"Runs each model through graft with OLD and with NEW (files, or REV:PATH\n"
	"read with git) in the place of the ruleset or target of OLD's name, and\n"
	"prints what changes as Markdown: the rules that fire more or less, the\n"
	"ops each target takes, the outputs on seeded random inputs (ref), and a\n"
	"diff of the printed result.  Exit 0: nothing changed; 1: something did;\n"
	"2: an error.\n"
	"\n"
	"options:\n"
	"  --rules NAME         a ruleset applied too, as graft's (repeatable)\n"
	"  --target \"T, host\"   the targets, as graft's\n"
	"  --params FILE        parameters, as graft's\n"
	"  --plugin LIB.so      a plugin, as graft's\n"
	"  --seed N             the random inputs' seed (default 1)\n";

int
drv_rules_diff(int argc, char **argv)
{
	Opts o;
	const Ruleset *old = NULL, *new = NULL;
	int status = 2, changed = 0;

	memset(&o, 0, sizeof o);
	o.seed = 1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(usage, stdout);
			return 0;
		} else if ((!strcmp(a, "--rules") || !strcmp(a, "--target") || !strcmp(a, "--params") ||
		            !strcmp(a, "--seed") || !strcmp(a, "--plugin")) && i + 1 < argc) {
			const char *v = argv[++i];
			if (!strcmp(a, "--rules")) {
				if (o.nrules == GRAFT_MAXSETS) {
					fprintf(stderr, "graft: error: more than %d --rules\n", GRAFT_MAXSETS);
					return 2;
				}
				o.rules[o.nrules++] = v;
			} else if (!strcmp(a, "--target")) {
				o.targets = v;
			} else if (!strcmp(a, "--params")) {
				o.params = v;
			} else if (!strcmp(a, "--seed")) {
				char *end;
				o.seed = strtoull(v, &end, 10);
				if (*end || !*v) {
					fprintf(stderr, "graft: error: --seed takes a number\n");
					return 2;
				}
			}
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "graft: error: rules-diff: unknown option '%s'\nTry 'graft rules-diff --help'.\n", a);
			return 2;
		} else if (!o.old) {
			o.old = a;
		} else if (!o.new) {
			o.new = a;
		} else if (o.nmodels < MAXMODELS) {
			o.models[o.nmodels++] = a;
		}
	}
	if (!o.old || !o.new || !o.nmodels) {
		fprintf(stderr, "graft: error: rules-diff needs OLD.rules NEW.rules and a model\n"
		                "Try 'graft rules-diff --help'.\n");
		return 2;
	}
	if (drv_plugins_load(argc, argv))
		return 2;
	if (fetch(&o, o.old, "old", o.oldpath, sizeof o.oldpath) || fetch(&o, o.new, "new", o.newpath, sizeof o.newpath))
		goto out;
	if (!(old = interp_load(o.oldpath, stderr)) || !(new = interp_load(o.newpath, stderr)))
		goto out;
	if (old->target != new->target) {
		fprintf(stderr, "graft: error: rules-diff: %s is a %s and %s a %s\n", o.old, old->target ? "target table" :
		        "ruleset", o.new, new->target ? "target table" : "ruleset");
		goto out;
	}
	printf("# graft rules-diff: `%s` → `%s`\n", o.old, o.new);
	for (int i = 0; i < o.nmodels; i++) {
		Side a, b;
		if (side(&o, o.models[i], old, o.oldpath, &a)) {
			sidefree(&a);
			goto out;
		}
		if (side(&o, o.models[i], new, o.newpath, &b)) {
			sidefree(&a);
			sidefree(&b);
			goto out;
		}
		changed |= compare(stdout, o.models[i], &a, &b, o.seed);
		sidefree(&a);
		sidefree(&b);
	}
	printf("\n%s\n", changed ? "**Something changes.**" : "Nothing changes.");
	status = changed ? 1 : 0;
out:
	if (old)
		interp_free(old);
	if (new)
		interp_free(new);
	if (o.tmpdir[0]) {
		char cmd[200];
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", o.tmpdir);
		if (system(cmd) != 0)
			fprintf(stderr, "graft: warning: cannot remove %s\n", o.tmpdir);
	}
	fflush(stdout);
	return status;
}
