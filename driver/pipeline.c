/*
** pipeline.c: what `graft` and `graft run` share: the options that say
** what to do to a model, and the pipeline that does it (read or import,
** bind, infer, rewrite, partition).  Each step reports through the Diag
** or to standard error, and the pipeline stops at the first step that
** fails.
*/
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "apii.h"
#include "bind.h"
#include "llvm/llvm.h"
#include "npy.h"
#include "interp.h"
#include "onnx.h"
#include "pipeline.h"
#include "rewrite.h"
#include "text.h"
#include "coverage.h"
#include "whynot.h"

#ifndef GRAFT_RULESDIR
#define GRAFT_RULESDIR ""
#endif
#ifndef GRAFT_SRCDIR
#define GRAFT_SRCDIR ""
#endif

/* exists: whether path names a file that can be read */
static int
exists(const char *path)
{
	FILE *f = fopen(path, "r");

	if (f)
		fclose(f);
	return f != NULL;
}

static int load(const char *path, int target, const Ruleset **rs);

/* sourceof: the .rules file rs comes from into out: file, when it was
** given as one; else a compiled ruleset's source, where graftc read it or
** among the installed rulesets.  Returns 0, or 1 after saying it is not
** found (for what, "--why-not" or "--coverage"). */
static int
sourceof(const Ruleset *rs, const char *file, char *out, size_t n, const char *what)
{
	const char *base;
	char path[4096];

	if (file) {
		snprintf(out, n, "%s", file);
		return 0;
	}
	if (rs->source && exists(rs->source)) {
		snprintf(out, n, "%s", rs->source);
		return 0;
	}
	/* a graft not installed: the sources it was built from */
	if (rs->source && *GRAFT_SRCDIR && rs->source[0] != '/') {
		snprintf(path, sizeof path, "%s/%s", GRAFT_SRCDIR, rs->source);
		if (exists(path)) {
			snprintf(out, n, "%s", path);
			return 0;
		}
	}
	base = rs->source ? strrchr(rs->source, '/') : NULL;
	base = base ? base + 1 : rs->source ? rs->source : rs->name;
	snprintf(path, sizeof path, "%s/%s", GRAFT_RULESDIR, base);
	if (*GRAFT_RULESDIR && exists(path)) {
		snprintf(out, n, "%s", path);
		return 0;
	}
	{
		/* beside an installed graft moved elsewhere: BIN/../share/graft/rulesets */
		char exe[2048];
		ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
		char *slash;
		if (k > 0) {
			exe[k] = 0;
			if ((slash = strrchr(exe, '/'))) {
				*slash = 0;
				snprintf(path, sizeof path, "%s/../share/graft/rulesets/%s", exe, base);
				if (exists(path)) {
					snprintf(out, n, "%s", path);
					return 0;
				}
			}
		}
	}
	fprintf(stderr, "graft: error: %s: the source of %s %s (%s) is not found; give the .rules file itself "
	        "to --rules or --target\n", what, rs->target ? "target" : "ruleset", rs->name,
	        rs->source ? rs->source : "?");
	return 1;
}

/* stopfor: --why-not: the pipeline stops before rs, which has the rule;
** o->whyrules gets the .rules file it comes from.  Returns 0, or 1 after
** saying that the source is not found. */
static int
stopfor(Pipeline *o, const Ruleset *rs, const char *file)
{
	o->whystop = 1;
	return sourceof(rs, file, o->whyrules, sizeof o->whyrules, "--why-not");
}

/* covload: --coverage: each ruleset and target of o run interpreted from
** its source, traced (o->cov[]); 0, or 1 after saying why not */
static int
covload(Pipeline *o)
{
	for (int t = 0; t < 2; t++) {
		int n = t ? o->ntargets : o->nrules;
		for (int i = 0; i < n; i++) {
			const Ruleset **rs = t ? &o->targets[i] : &o->rules[i];
			const char *file = t ? o->targetfile[i] : o->rulefile[i];
			char path[4096];
			CovRun *r;
			if (sourceof(*rs, file, path, sizeof path, "--coverage"))
				return 1;
			if (!file) {
				/* a compiled one: its interpreted twin, which gives the
				   same output (tests/interp.sh) */
				const Ruleset *twin;
				if (load(path, t, &twin))
					return 1;
				o->covown[o->ncov] = twin;
				*rs = twin;
			}
			r = &o->cov[o->ncov];
			o->covfile[o->ncov] = ir_xmalloc(strlen(path) + 1);
			strcpy(o->covfile[o->ncov], path);
			cov_run_init(r, *rs, o->covfile[o->ncov]);
			interp_trace(*rs, cov_trace, r);
			o->ncov++;
		}
	}
	return 0;
}

/* covrun: the CovRun of rs, or NULL */
static CovRun *
covrun(Pipeline *o, const Ruleset *rs)
{
	for (int i = 0; i < o->ncov; i++)
		if (o->cov[i].rs == rs)
			return &o->cov[i];
	return NULL;
}

/* drv_pipeline_coverage: see pipeline.h */
int
drv_pipeline_coverage(Pipeline *o)
{
	Coverage c;
	int bad;

	if (cov_read(o->coverage, &c, stderr))
		return 1;
	c.runs++;
	for (int i = 0; i < o->ncov; i++)
		cov_add(&c, &o->cov[i]);
	bad = cov_write(o->coverage, &c, stderr);
	cov_free(&c);
	return bad;
}

/* isfile: whether a --rules or --target name is a .rules file */
static int
isfile(const char *name)
{
	size_t n = strlen(name);
	return strchr(name, '/') || (n > 6 && strcmp(name + n - 6, ".rules") == 0);
}

/* drv_opt_target: see pipeline.h */
int
drv_opt_target(Pipeline *o, const char *list)
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
		if (!n) {
			fprintf(stderr, "graft: error: --target \"%s\": an empty name\n", list);
			return 0;
		}
		if (n > 4 && strncmp(s, "llvm", 4) == 0 && (s[4] == ' ' || s[4] == '\t') && !host) {
			/* tvmc's host target with options, read by
			   drv_pipeline_host(); as tvmc reads it, a comma before
			   + or - continues a list of features (-mattr=+a,-b) */
			while (e && (e[1] == '+' || e[1] == '-'))
				e = strchr(e + 1, ',');
			n = e ? (size_t)(e - s) : strlen(s);
			while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
				n--;
			free(o->hostspec);
			o->hostspec = ir_xmalloc(n + 1);
			memcpy(o->hostspec, s, n);
			o->hostspec[n] = 0;
			host = 1;
			if (!e)
				break;
			s = e + 1;
			continue;
		}
		if (n >= sizeof name) {
			/* only a file's name is long */
			char *file = ir_xmalloc(n + 1);
			memcpy(file, s, n);
			file[n] = 0;
			if (host || !isfile(file) || o->ntargets == GRAFT_MAXSETS) {
				fprintf(stderr, "graft: error: --target \"%s\": a name is too long\n", list);
				free(file);
				return 0;
			}
			o->targetfile[o->ntargets] = file;
			o->targets[o->ntargets++] = NULL;
			if (!e)
				break;
			s = e + 1;
			continue;
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
		} else if (isfile(name)) {
			if (o->ntargets == GRAFT_MAXSETS) {
				fprintf(stderr, "graft: error: more than 32 targets\n");
				return 0;
			}
			o->targetfile[o->ntargets] = ir_xmalloc(n + 1);
			memcpy(o->targetfile[o->ntargets], name, n + 1);
			o->targets[o->ntargets++] = NULL;
		} else if (!(rs = drv_ruleset_find(name)) || !rs->target) {
			fprintf(stderr, "graft: error: --target: %s '%s' (built-in targets: ", rs ? "not a target table, but the ruleset" :
			        "no target called", name);
			drv_rulesets_list(stderr, 1);
			fprintf(stderr, ", and host)%s\n", rs ? "; apply rulesets with --rules" : "");
			return 0;
		} else {
			for (int i = 0; i < o->ntargets; i++)
				if (o->targets[i] == rs) {
					fprintf(stderr, "graft: error: --target \"%s\": '%s' is listed twice\n", list, name);
					return 0;
				}
			if (o->ntargets == GRAFT_MAXSETS) {
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

/* hostread: drv_pipeline_host()'s work, done once */
static int
hostread(Pipeline *o)
{
	static const char *const opts[] = { "-mtriple", "-mcpu", "-mattr", "-device" };
	const char **val[] = { &o->host.triple, &o->host.cpu, &o->host.attr, &o->host.device };   /* ORDER opts */
	char *w, err[1024];

	if (!o->hostspec)
		return 0;
	/* the words after "llvm", NUL-terminated in hostbuf */
	o->hostbuf = ir_xmalloc(strlen(o->hostspec) + 1);
	strcpy(o->hostbuf, o->hostspec);
	w = o->hostbuf + 4;
	for (;;) {
		size_t k, len;
		char *eq;
		while (*w == ' ' || *w == '\t')
			w++;
		if (!*w)
			break;
		len = strcspn(w, " \t");
		if (w[len])
			w[len++] = 0;
		eq = strchr(w, '=');
		for (k = 0; k < 4 && (strncmp(w, opts[k], strlen(opts[k])) != 0 || (w[strlen(opts[k])] != '=' && w[strlen(opts[k])]));
		     k++)
			;
		if (k == 4) {
			fprintf(stderr, "graft: error: --target \"%s\": llvm has no option '%.*s' (it takes -mtriple, -mcpu, "
			        "-mattr and -device)\n", o->hostspec, eq ? (int)(eq - w) : (int)strlen(w), w);
			return 1;
		}
		if (!eq || !eq[1]) {
			fprintf(stderr, "graft: error: --target \"%s\": %s needs a value: %s=%s\n", o->hostspec, opts[k], opts[k],
			        k == 0 ? "TRIPLE" : k == 1 ? "CPU" : k == 2 ? "+FEATURE,..." : "DEVICE");
			return 1;
		}
		if (*val[k]) {
			fprintf(stderr, "graft: error: --target \"%s\": %s is given twice\n", o->hostspec, opts[k]);
			return 1;
		}
		*val[k] = eq + 1;
		w += len;
	}
	if (be_llvm_target_check(&o->host, &o->hostnative, err, sizeof err)) {
		fprintf(stderr, "graft: error: --target \"%s\": %s\n", o->hostspec, err);
		return 1;
	}
	return 0;
}

/* drv_pipeline_host: see pipeline.h */
int
drv_pipeline_host(Pipeline *o)
{
	if (!o->hostdone)
		o->hostdone = 1 + hostread(o);
	return o->hostdone - 1;
}

/* drv_opt_rules: see pipeline.h */
int
drv_opt_rules(Pipeline *o, const char *name)
{
	const Ruleset *rs = isfile(name) ? NULL : drv_ruleset_find(name);

	if (isfile(name)) {
		if (o->nrules == GRAFT_MAXSETS) {
			fprintf(stderr, "graft: error: more than %d --rules\n", GRAFT_MAXSETS);
			return 0;
		}
		o->rulefile[o->nrules] = name;
		o->rules[o->nrules++] = NULL;
		return 1;
	}
	if (!rs || rs->target) {
		fprintf(stderr, "graft: error: %s '%s' (built-in rulesets: ", rs ? "not a ruleset, but the target table" :
		        "no ruleset called", name);
		drv_rulesets_list(stderr, 0);
		fprintf(stderr, ")%s\n", rs ? "; partition with --target" : "");
		return 0;
	}
	if (o->nrules == GRAFT_MAXSETS) {
		fprintf(stderr, "graft: error: more than %d --rules\n", GRAFT_MAXSETS);
		return 0;
	}
	o->rules[o->nrules++] = rs;
	return 1;
}

/* drv_opt_model: see pipeline.h */
int
drv_opt_model(Pipeline *o, const char *a)
{
	if (strncmp(a, "--max-tensor-bytes=", 19) == 0) {
		char *end;
		unsigned long long n = strtoull(a + 19, &end, 10), k = 1;
		if (*end == 'K' || *end == 'k')
			k = 1ull << 10, end++;
		else if (*end == 'M' || *end == 'm')
			k = 1ull << 20, end++;
		else if (*end == 'G' || *end == 'g')
			k = 1ull << 30, end++;
		if (a[19] < '0' || a[19] > '9' || *end || n == 0 || n > UINT64_MAX / k) {
			fprintf(stderr, "graft: error: --max-tensor-bytes takes a number of bytes from 1, with K, M or G "
			        "after it for 2^10, 2^20 or 2^30, not '%s'\n", a + 19);
			return 0;
		}
		ir_set_max_tensor_bytes(n * k);
		return 1;
	}
	if (a[0] == '-' && a[1]) {
		fprintf(stderr, "graft: error: unknown option '%s'\n", a);
		return 0;
	}
	if (o->model) {
		fprintf(stderr, "graft: error: more than one model given ('%s' and '%s')\n", o->model, a);
		return 0;
	}
	o->model = a;
	return 1;
}

/* load: the .rules file path, a target table if target (else a
** ruleset), into *rs; 1 after reporting what is wrong */
static int
load(const char *path, int target, const Ruleset **rs)
{
	if (!(*rs = interp_load(path, stderr)))
		return 1;
	if ((*rs)->target != target) {
		fprintf(stderr, "graft: error: %s: %s\n", path, target ? "a ruleset, not a target table: apply it "
		        "with --rules" : "a target table, not a ruleset: partition with it with --target");
		interp_free(*rs);
		*rs = NULL;
		return 1;
	}
	return 0;
}

/* drv_opt_bind: see pipeline.h */
int
drv_opt_bind(Pipeline *p, const char *opt, const char *arg)
{
	const char *eq = strchr(arg, '='), *name = arg[0] == '%' ? arg + 1 : arg;
	char *nm;

	if (!eq || eq == name || !eq[1]) {
		fprintf(stderr, "graft: error: %s '%s': expected NAME=FILE.npy\n", opt, arg);
		return 0;
	}
	nm = ir_xmalloc((size_t)(eq - name) + 1);
	memcpy(nm, name, (size_t)(eq - name));
	nm[eq - name] = 0;
	for (int i = 0; i < p->nbind; i++)
		if (strcmp(p->bindname[i], nm) == 0) {
			fprintf(stderr, "graft: error: %s %s is given twice ('%s' and '%s')\n", opt, nm, p->bindarg[i], arg);
			free(nm);
			return 0;
		}
	p->bindname = ir_xrealloc(p->bindname, (size_t)(p->nbind + 1) * sizeof *p->bindname);
	p->bindfile = ir_xrealloc(p->bindfile, (size_t)(p->nbind + 1) * sizeof *p->bindfile);
	p->bindarg = ir_xrealloc(p->bindarg, (size_t)(p->nbind + 1) * sizeof *p->bindarg);
	p->frozen = ir_xrealloc(p->frozen, (size_t)(p->nbind + 1));
	p->bindname[p->nbind] = nm;
	p->bindfile[p->nbind] = eq + 1;
	p->bindarg[p->nbind] = arg;
	p->frozen[p->nbind++] = 0;
	return 1;
}

/* drv_pipeline_free: see pipeline.h */
void
drv_pipeline_free(Pipeline *o)
{
	for (int i = 0; i < 2 * GRAFT_MAXSETS; i++) {
		free(o->keepfired[i]);
		o->keepfired[i] = NULL;
	}
	for (int i = 0; i < o->ncov; i++) {
		cov_run_free(&o->cov[i]);
		free(o->covfile[i]);
		if (o->covown[i]) {
			/* the compiled ruleset it stood in for is not freed */
			for (int k = 0; k < o->nrules; k++)
				if (o->rules[k] == o->covown[i])
					o->rules[k] = NULL;
			for (int k = 0; k < o->ntargets; k++)
				if (o->targets[k] == o->covown[i])
					o->targets[k] = NULL;
			interp_free(o->covown[i]);
		}
	}
	o->ncov = 0;
	free(o->hostspec);
	free(o->hostbuf);
	o->hostspec = o->hostbuf = NULL;
	memset(&o->host, 0, sizeof o->host);
	o->hostdone = 0;
	for (int i = 0; i < o->nbind; i++)
		free(o->bindname[i]);
	free(o->bindname);
	free(o->bindfile);
	free(o->bindarg);
	free(o->frozen);
	o->bindname = NULL;
	o->bindfile = o->bindarg = NULL;
	o->frozen = NULL;
	o->nbind = 0;
	for (int i = 0; i < o->nrules; i++)
		if (o->rulefile[i]) {
			interp_free(o->rules[i]);
			o->rules[i] = NULL;
		}
	for (int i = 0; i < o->ntargets; i++)
		if (o->targetfile[i]) {
			interp_free(o->targets[i]);
			o->targets[i] = NULL;
			free(o->targetfile[i]);
			o->targetfile[i] = NULL;
		}
}

/* drv_now: see pipeline.h */
double
drv_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* drv_time_step: see pipeline.h */
void
drv_time_step(const Pipeline *p, const char *step, double *t0, const char *fmt, ...)
{
	double now;
	va_list ap;

	if (!p->time)
		return;
	now = drv_now();
	fprintf(stderr, "time: %s %.6f s", step, now - *t0);
	if (fmt) {
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
	}
	fputc('\n', stderr);
	*t0 = drv_now();
}

/* readbinds: the --bind (or --input) values of o, read into t[0..nbind);
** 0, or the number of files that could not be read, reported */
static int
readbinds(const Pipeline *o, Tensor *t, Diag *d)
{
	int errs = 0;
	for (int i = 0; i < o->nbind; i++) {
		char err[512];
		if (npy_read(o->bindfile[i], &t[i], err, sizeof err) != 0) {
			ir_error_file(d, o->bindfile[i], err);
			errs++;
		}
	}
	return errs;
}

/* readmodel: reads o->model into m and binds to it: an ONNX model is
** imported with the --bind values (and --params tensors named after
** graph inputs) frozen, Relay text parsed and its @main parameters bound
** by name; then the rest of params binds (meta[relay.Constant][N] and
** @main's parameters).  0, or 1 after reporting */
static int
readmodel(Pipeline *o, Module *m, Diag *d, StFile *params, double *t0)
{
	Tensor *t = ir_xcalloc((size_t)o->nbind + params->n + 1, sizeof *t);
	OnnxBind *b = ir_xcalloc((size_t)o->nbind + params->n + 1, sizeof *b);
	uint8_t *frozen = ir_xcalloc((size_t)o->nbind + params->n + 1, 1);
	int onnx = onnx_is_model(o->model);
	/* graft run's --input values are read here only for an ONNX model */
	int bad = onnx || !o->bindneeded ? readbinds(o, t, d) : 0, nb = 0;
	size_t len;

	if (bad)
		goto out;
	for (int i = 0; i < o->nbind; i++)
		b[nb++] = (OnnxBind){ o->bindname[i], &t[i] };
	if (o->bindneeded && !onnx)
		nb = 0;
	if (onnx) {
		/* a --params tensor named after a graph input freezes it too */
		for (uint32_t i = 0; i < params->n; i++) {
			const StTensor *s = &params->t[i];
			Tensor *x = &t[o->nbind + i];
			x->dt = s->dtype;
			x->rank = (uint32_t)s->rank;
			memcpy(x->dims, s->dims, (size_t)s->rank * sizeof *s->dims);
			x->data = (void *)s->data;
			b[nb++] = (OnnxBind){ s->name, x };
		}
		OnnxOpts oo = { b, nb, o->bindneeded ? ONNX_FREEZE_NEEDED : ONNX_FREEZE_ALL, o->stats ? stderr : NULL, frozen };
		bad = onnx_import_with(m, o->model, &oo, d) != 0;
		if (!bad)
			drv_time_step(o, "import", t0, " nodes=%u", m->nnodes - 1);
	} else {
		char *src;
		const char *what;
		/* read into the module, which keeps it for diagnostics */
		if (ir_read_file_in(&m->data, o->model, SIZE_MAX / 2, &src, &len, &what) != 0) {
			fprintf(stderr, "graft: error: cannot %s '%s': %s\n", what, o->model, strerror(errno));
			bad = 1;
			goto out;
		}
		if (ir_parse_in_place(m, d, o->model, src, len)) {
			bad = 1;
			goto out;
		}
		drv_time_step(o, "parse", t0, " bytes=%zu nodes=%u", len, m->nnodes - 1);
		/* --bind: each value bound by name (api/, as graft_module_bind()) */
		for (int i = 0; i < o->nbind && !o->bindneeded; i++) {
			int r = api_bind_tensor(m, o->bindname[i], &t[i], o->bindfile[i], d);
			if (r > 0) {
				bad = 1;
				goto out;
			}
			frozen[i] = r == 0;     /* -1: no such input, reported below */
		}
	}
	/* a --bind value that names no input (an ONNX model's inputs are all
	   read before a node fails) */
	for (int i = 0; i < o->nbind && !o->bindneeded && (!bad || onnx); i++)
		if (!frozen[i]) {
			fprintf(stderr, "graft: error: --bind %s: the model has no input called %s\n", o->bindarg[i],
			        o->bindname[i]);
			bad = 1;
		}
	for (int i = 0; i < o->nbind + (int)params->n; i++)
		frozen[i] = frozen[i] == 1;     /* an ONNX input's 2: not frozen */
	if (bad)
		goto out;
	if (!bad && params->n) {
		/* the --params tensors the import did not take */
		StFile rest = *params;
		StTensor *keep = ir_xcalloc(params->n, sizeof *keep);
		rest.n = 0;
		for (uint32_t i = 0; i < params->n; i++)
			if (!frozen[o->nbind + i])
				keep[rest.n++] = params->t[i];
		rest.t = keep;
		bad = rest.n && ir_bind_params(m, &rest, o->params, d);
		free(keep);
	}
	if (!bad)
		ir_dce(m);      /* the parameters bound are gone */
	if (!bad && !onnx && (params->n || (o->nbind && !o->bindneeded)))
		drv_time_step(o, "bind", t0, NULL);
	if (o->frozen)
		memcpy(o->frozen, frozen, (size_t)o->nbind);
out:
	for (int i = 0; i < o->nbind; i++)
		ir_tensor_free(&t[i]);
	free(t);
	free(b);
	free(frozen);
	return bad;
}

/* drv_pipeline: see pipeline.h */
int
drv_pipeline(Pipeline *o, Module *m, Diag *d, StFile *params)
{
	int bad = 0;
	double t0 = drv_now();

	memset(params, 0, sizeof *params);
	/* the verifier between passes: --verify, a debug build, or
	   GRAFT_VERIFY=1 (make check sets it) */
#ifdef GRAFT_DEBUG
	o->verify = 1;
#endif
	if (getenv("GRAFT_VERIFY") && strcmp(getenv("GRAFT_VERIFY"), "1") == 0)
		o->verify = 1;
	/* the host target's machine first: it needs no model */
	if (drv_pipeline_host(o))
		return 1;
	/* rules loaded at run time first: their errors before the model's */
	for (int i = 0; i < o->nrules; i++)
		if (o->rulefile[i] && !o->rules[i])
			bad |= load(o->rulefile[i], 0, &o->rules[i]);
	for (int i = 0; i < o->ntargets; i++)
		if (o->targetfile[i] && !o->targets[i])
			bad |= load(o->targetfile[i], 1, &o->targets[i]);
	if (bad || (o->coverage && covload(o)))
		return 1;
	for (int i = 0; i < o->nrules + o->ntargets; i++)
		if (i < o->nrules ? o->rulefile[i] != NULL : o->targetfile[i - o->nrules] != NULL) {
			drv_time_step(o, "load", &t0, NULL);
			break;
		}

	/* read (an ONNX model is imported, anything else parsed as Relay
	   text), bind (and drop what binding replaced), infer, verify, rewrite
	   with each ruleset, partition */
	if (o->params) {
		char err[512];
		if (ir_st_read(o->params, params, err, sizeof err) != 0) {
			ir_error_file(d, o->params, err);
			return 1;
		}
		drv_time_step(o, "params", &t0, " tensors=%u", params->n);
	}
	if (readmodel(o, m, d, params, &t0))
		return 1;
	/* an ONNX import infers each node as it makes it: unless binding
	   changed the module since, it is typed (Module.typed) already */
	if (!m->typed) {
		if (ir_infer_types(m, d))
			return 1;
		drv_time_step(o, "infer", &t0, " nodes=%u", m->nnodes - 1);
	}
	if (o->verify && ir_verify(m, d))
		return 1;
	if (o->verify)
		drv_time_step(o, "verify", &t0, NULL);
	for (int i = 0; i < o->nrules; i++) {
		RwStats st;
		int errs;
		char step[160];
		if (o->whynot && whynot_has(o->rules[i], o->whynot))
			return stopfor(o, o->rules[i], o->rulefile[i]);
		errs = ir_rewrite(m, o->rules[i], d, &st);
		snprintf(step, sizeof step, "rules.%s", o->rules[i]->name);
		drv_time_step(o, step, &t0, " rewrites=%llu", (unsigned long long)st.rewrites);
		if (o->stats)
			ir_rewrite_stats(stderr, o->rules[i], &st);
		if (o->coverage && covrun(o, o->rules[i]))
			for (uint32_t k = 0; k < o->rules[i]->nrules; k++)
				covrun(o, o->rules[i])->fired[k] += st.fired[k];
		if (o->keep) {
			o->keepfired[i] = st.fired;
			st.fired = NULL;
		}
		free(st.fired);
		if (errs || (o->verify && ir_verify(m, d)))
			return 1;
	}
	for (int i = 0; o->whynot && i < o->ntargets; i++)
		if (whynot_has(o->targets[i], o->whynot))
			return stopfor(o, o->targets[i], o->targetfile[i]);
	if (o->whynot) {
		fprintf(stderr, "graft: error: --why-not: no ruleset or target given has a rule or entry called %s\n",
		        o->whynot);
		return 1;
	}
	if (o->ntargets) {
		Partitioner p;
		int errs;
		memset(&p, 0, sizeof p);
		p.m = m;
		p.d = d;
		p.targets = o->targets;
		p.ntargets = (uint32_t)o->ntargets;
		p.stop = o->stop ? o->stop : PS_ALL;
		p.explain = o->explain;
		errs = ir_partition(&p);
		drv_time_step(o, "partition", &t0, NULL);
		if (o->stats)
			ir_partition_stats(stderr, &p);
		if (o->keep && p.st.fired) {
			const uint64_t *f = p.st.fired;
			for (int t = 0; t < o->ntargets; t++) {
				uint32_t n = o->targets[t]->nrules;
				o->keepfired[GRAFT_MAXSETS + t] = ir_xcalloc(n + 1, sizeof **o->keepfired);
				memcpy(o->keepfired[GRAFT_MAXSETS + t], f, n * sizeof *f);
				f += n;
			}
		}
		if (o->coverage && p.st.fired) {
			const uint64_t *f = p.st.fired;
			for (int t = 0; t < o->ntargets; t++) {
				CovRun *r = covrun(o, o->targets[t]);
				for (uint32_t k = 0; r && k < o->targets[t]->nrules; k++)
					r->fired[k] += f[k];
				f += o->targets[t]->nrules;
			}
		}
		if (o->explain)
			ir_partition_explain(stderr, &p);
		ir_partition_free(&p);
		if (errs || (o->verify && ir_verify(m, d)))
			return 1;
	}
	return 0;
}
