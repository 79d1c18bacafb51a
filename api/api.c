/*
** api.c: <graft/api.h> (api/api.h) over graft's internals: each
** function does one step of what driver/pipeline.c and driver/run.c do for
** the graft command, on an opaque handle.
**
** Diagnostics: graft's layers report to a FILE (Diag.out, interp_load()'s
** errs), as the command prints them.  A graft_diags is that FILE, a memory
** stream, cut into records after each call: a line "FILE:LINE:COL: error:
** MESSAGE" (or "FILE: error: ...", or "graft: error: ..." for no file)
** starts a record, and the source line and caret under it belong to it.
** graft_diags_print() writes the text as it came, so a program prints
** exactly what the command prints.
*/
#ifndef _GNU_SOURCE
#define _GNU_SOURCE             /* open_memstream */
#endif
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apii.h"
#include "backend.h"
#include "bind.h"
#include "dot.h"
#include "interp.h"
#include "npy.h"
#include "onnx.h"
#include "partition.h"
#include "host.h"
#include "ref.h"
#include "rewrite.h"
#include "safetensors.h"
#include "shipped.h"
#include "text.h"

/* ---------------------------------------------------------------- diagnostics */

typedef struct Record {
	char *file;             /* NULL: about no file */
	unsigned line, col;
	int sev;
	char *msg;
} Record;

struct graft_diags {
	FILE *f;                /* the stream graft's layers write to */
	char *buf;              /* its text (open_memstream) */
	size_t len;
	size_t done;            /* the text up to here is cut into records */
	Record *r;
	uint32_t n, cap;
};

/* graft_diags_new: see api.h */
graft_diags *
graft_diags_new(void)
{
	graft_diags *d = calloc(1, sizeof *d);

	if (d && !(d->f = open_memstream(&d->buf, &d->len))) {
		free(d);
		return NULL;
	}
	return d;
}

/* graft_diags_clear: see api.h */
void
graft_diags_clear(graft_diags *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->n; i++) {
		free(d->r[i].file);
		free(d->r[i].msg);
	}
	d->n = 0;
	fflush(d->f);
	rewind(d->f);           /* a memory stream's size follows its position */
	fflush(d->f);
	d->done = 0;
}

/* graft_diags_free: see api.h */
void
graft_diags_free(graft_diags *d)
{
	if (!d)
		return;
	graft_diags_clear(d);
	fclose(d->f);
	free(d->buf);
	free(d->r);
	free(d);
}

/* dup: the n bytes at s, NUL-terminated, fresh */
static char *
sdup(const char *s, size_t n)
{
	char *t = ir_xmalloc(n + 1);

	memcpy(t, s, n);
	t[n] = 0;
	return t;
}

/* lineno: the number that ends s[0..*n) after a ':', taken off it; 0 if
** there is none */
static unsigned
lineno(const char *s, size_t *n)
{
	size_t k = *n;
	unsigned long v = 0, p = 1;

	while (k && s[k - 1] >= '0' && s[k - 1] <= '9' && p < 100000000)
		v += (unsigned long)(s[--k] - '0') * p, p *= 10;
	if (k == *n || !k || s[k - 1] != ':')
		return 0;
	*n = k - 1;
	return (unsigned)v;
}

/* collect: cuts the text written to d since the last call into records,
** as the file comment tells */
static void
collect(graft_diags *d)
{
	static const char *const tags[] = { ": error: ", ": warning: ", ": note: " };  /* ORDER GRAFT_ERROR */

	fflush(d->f);
	while (d->done < d->len) {
		const char *s = d->buf + d->done, *nl = memchr(s, '\n', d->len - d->done), *at = NULL;
		size_t n = nl ? (size_t)(nl - s) : d->len - d->done, pre;
		int sev = 0;
		Record *r;

		d->done += n + (nl != NULL);
		if (s[0] == ' ' && d->n)
			continue;       /* the quoted source line, or its caret */
		for (int k = 0; k < 3; k++) {
			const char *p = memmem(s, n, tags[k], strlen(tags[k]));
			if (p && (!at || p < at))
				at = p, sev = k;
		}
		ir_vgrow(&d->r, &d->cap, d->n + 1);
		r = &d->r[d->n++];
		memset(r, 0, sizeof *r);
		if (!at) {
			/* a line of no known form: an error of its own */
			r->msg = sdup(s, n);
			continue;
		}
		r->sev = sev;
		r->msg = sdup(at + strlen(tags[sev]), n - (size_t)(at - s) - strlen(tags[sev]));
		pre = (size_t)(at - s);
		r->col = lineno(s, &pre);
		r->line = r->col ? lineno(s, &pre) : 0;
		if (!r->line) {
			pre = (size_t)(at - s);
			r->col = 0;
		}
		if (!(pre == 5 && memcmp(s, "graft", 5) == 0))
			r->file = sdup(s, pre);
	}
}

/* graft_diags_count: see api.h */
size_t
graft_diags_count(const graft_diags *d)
{
	return d ? d->n : 0;
}

/* graft_diags_errors: see api.h */
size_t
graft_diags_errors(const graft_diags *d)
{
	size_t k = 0;

	for (size_t i = 0; d && i < d->n; i++)
		k += d->r[i].sev == GRAFT_ERROR;
	return k;
}

/* graft_diags_get: see api.h */
int
graft_diags_get(const graft_diags *d, size_t i, const char **file, unsigned *line, unsigned *col, int *severity,
                const char **message)
{
	if (!d || i >= d->n)
		return -1;
	if (file)
		*file = d->r[i].file;
	if (line)
		*line = d->r[i].line;
	if (col)
		*col = d->r[i].col;
	if (severity)
		*severity = d->r[i].sev;
	if (message)
		*message = d->r[i].msg;
	return 0;
}

/* graft_diags_print: see api.h */
void
graft_diags_print(const graft_diags *d, FILE *f)
{
	if (d && d->done)
		fwrite(d->buf, 1, d->done, f);
}

/* graft_free: see api.h */
void
graft_free(void *p)
{
	free(p);
}

/* An entry point's diagnostics: d, or a collection of its own that is
** dropped at the end (the caller gave NULL). */
typedef struct Sink {
	graft_diags *d, *own;
} Sink;

/* open: the sink of an entry point given d; NULL diags when out of memory */
static Sink
sinkopen(graft_diags *d)
{
	Sink s = { d, NULL };

	if (!d)
		s.d = s.own = graft_diags_new();
	return s;
}

/* close: ends an entry point: its records collected; returns r */
static int
sinkclose(Sink *s, int r)
{
	if (s->d)
		collect(s->d);
	graft_diags_free(s->own);
	return r;
}

/* out: where s's diagnostics are written (NULL: nowhere) */
static FILE *
sinkout(const Sink *s)
{
	return s->d ? s->d->f : NULL;
}

/* err: an error about no file, "graft: error: ..." */
static void
err(const Sink *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void
err(const Sink *s, const char *fmt, ...)
{
	va_list ap;

	if (!sinkout(s))
		return;
	fputs("graft: error: ", sinkout(s));
	va_start(ap, fmt);
	vfprintf(sinkout(s), fmt, ap);
	va_end(ap);
	fputc('\n', sinkout(s));
}

/* ---------------------------------------------------------------- modules */

struct graft_module {
	Module *m;
	Diag d;                 /* quotes the text parsed; out set per call */
	StFile *params;         /* the safetensors files bound: m's
	                        ** constants point into them */
	size_t nparams;
};

/* modnew: an empty module whose diagnostics go to s */
static graft_module *
modnew(void)
{
	graft_module *gm = ir_xcalloc(1, sizeof *gm);

	gm->m = ir_module_new();
	ir_diag_init(&gm->d, NULL, gm->m);
	return gm;
}

/* graft_module_free: see api.h */
void
graft_module_free(graft_module *gm)
{
	if (!gm)
		return;
	ir_diag_free(&gm->d);
	ir_module_free(gm->m);
	for (size_t i = 0; i < gm->nparams; i++)
		ir_st_free(&gm->params[i]);
	free(gm->params);
	free(gm);
}

/* typed: infers gm's types if a step since changed it; 0, or the
** number of errors */
static int
typed(graft_module *gm)
{
	return gm->m->typed ? 0 : ir_infer_types(gm->m, &gm->d);
}

/* loaded: the end of graft_module_load and _parse: gm, typed, or NULL
** after its errors */
static graft_module *
loaded(graft_module *gm, int bad, Sink *s)
{
	if (!bad)
		bad = typed(gm);
	gm->d.out = NULL;
	if (bad) {
		graft_module_free(gm);
		gm = NULL;
	}
	sinkclose(s, 0);
	return gm;
}

/* graft_module_load: see api.h */
graft_module *
graft_module_load(const char *path, graft_diags *d)
{
	Sink s = sinkopen(d);
	graft_module *gm = modnew();
	int bad;

	gm->d.out = sinkout(&s);
	if (onnx_is_model(path)) {
		bad = onnx_import(gm->m, path, &gm->d) != 0;
	} else {
		char *src;
		size_t len;
		const char *what;
		/* read into the module, which keeps it for diagnostics */
		if ((bad = ir_read_file_in(&gm->m->data, path, SIZE_MAX / 2, &src, &len, &what) != 0))
			err(&s, "cannot %s '%s': %s", what, path, strerror(errno));
		else
			bad = ir_parse_in_place(gm->m, &gm->d, path, src, len) != 0;
	}
	return loaded(gm, bad, &s);
}

/* graft_module_parse: see api.h */
graft_module *
graft_module_parse(const char *text, size_t len, const char *name, graft_diags *d)
{
	Sink s = sinkopen(d);
	graft_module *gm = modnew();
	char *src = ir_arena_alloc(&gm->m->data, len + 1);

	gm->d.out = sinkout(&s);
	memcpy(src, text, len);
	src[len] = 0;
	return loaded(gm, ir_parse_in_place(gm->m, &gm->d, name ? name : "<text>", src, len) != 0, &s);
}

/* bound: the end of a binding: the parameters bound dropped, types
** inferred again; returns bad, or the errors inferring found */
static int
bound(graft_module *gm, int bad, Sink *s)
{
	if (!bad) {
		ir_dce(gm->m);
		gm->m->typed = 0;
		bad = typed(gm);
	}
	gm->d.out = NULL;
	return sinkclose(s, bad ? 1 : 0);
}

/* graft_module_bind_params: see api.h */
int
graft_module_bind_params(graft_module *gm, const char *path, graft_diags *d)
{
	Sink s = sinkopen(d);
	char msg[512];
	StFile f;

	gm->d.out = sinkout(&s);
	if (ir_st_read(path, &f, msg, sizeof msg) != 0) {
		ir_error_file(&gm->d, path, msg);
		return bound(gm, 1, &s);
	}
	gm->params = ir_xrealloc(gm->params, (gm->nparams + 1) * sizeof *gm->params);
	gm->params[gm->nparams++] = f;
	return bound(gm, f.n && ir_bind_params(gm->m, &f, path, &gm->d) != 0, &s);
}

/* graft_module_bind: see api.h */
int
graft_module_bind(graft_module *gm, const char *name, const char *path, graft_diags *d)
{
	Sink s = sinkopen(d);
	int r;

	gm->d.out = sinkout(&s);
	name += name[0] == '%';
	if ((r = api_bind_npy(gm->m, name, path, &gm->d)) < 0)
		err(&s, "graft_module_bind %s: the model has no input called %s", path, name);
	return bound(gm, r != 0, &s);
}

/* printed: what print writes of gm, in a fresh string */
static char *
printed(const graft_module *gm, int dot)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	PrintOpts po = { 0 };
	MetaList meta = { 0 };

	if (!f)
		return NULL;
	if (dot)
		ir_print_dot(f, gm->m);
	else
		ir_print(f, gm->m, &po, &meta);
	ir_metalist_free(&meta);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* graft_module_text: see api.h */
char *
graft_module_text(const graft_module *gm)
{
	return printed(gm, 0);
}

/* graft_module_dot: see api.h */
char *
graft_module_dot(const graft_module *gm)
{
	return printed(gm, 1);
}

/* graft_module_stats: see api.h */
size_t
graft_module_stats(const graft_module *gm, size_t *functions)
{
	size_t n = 0;

	for (uint32_t i = 1; i < gm->m->nnodes; i++)
		n += gm->m->nodes[i].kind != NK_DEAD;
	if (functions)
		*functions = gm->m->nglobals;
	return n;
}

/* ---------------------------------------------------------------- rules */

/* A ruleset or a target table: shipped, a plugin's, or loaded (owned). */
typedef struct Rules {
	const Ruleset *rs;
	int owned;              /* interp_load()'s: interp_free() it */
} Rules;
/* each a Rules as its first and only member, so that rulesnew() makes
** either */
struct graft_ruleset {
	Rules r;
};
struct graft_target {
	Rules r;
};

#define SHIPPED(name) &graft_ruleset_##name,
static const Ruleset *const shipped[] = { GRAFT_SHIPPED_RULESETS(SHIPPED) };
#undef SHIPPED

/* api_ruleset_find: see apii.h */
const Ruleset *
api_ruleset_find(const char *name)
{
	for (size_t i = 0; i < sizeof shipped / sizeof *shipped; i++)
		if (strcmp(shipped[i]->name, name) == 0)
			return shipped[i];
	return plugin_matcher(name);
}

/* api_rulesets_list: see apii.h */
int
api_rulesets_list(FILE *f, int target)
{
	uint32_t np;
	const Ruleset *const *rs = plugin_matchers(&np);
	int n = 0;

	for (size_t i = 0; i < sizeof shipped / sizeof *shipped; i++)
		if (shipped[i]->target == target)
			fprintf(f, "%s%s", n++ ? ", " : "", shipped[i]->name);
	for (uint32_t i = 0; i < np; i++)
		if (rs[i]->target == target)
			fprintf(f, "%s%s", n++ ? ", " : "", rs[i]->name);
	return n;
}

/* shippednames: reports each matcher the plugin where registered, those
** from the before'th on, that has a shipped one's name; 1 if any */
static int
shippednames(uint32_t before, const char *where, Sink *s)
{
	uint32_t after;
	const Ruleset *const *rs = plugin_matchers(&after);
	int bad = 0;

	for (uint32_t k = before; k < after; k++)
		for (size_t i = 0; i < sizeof shipped / sizeof *shipped; i++)
			if (strcmp(rs[k]->name, shipped[i]->name) == 0) {
				err(s, "plugin %s: %s %s has the name of a shipped one", where,
				    rs[k]->target ? "target" : "ruleset", rs[k]->name);
				bad = 1;
			}
	return bad;
}

/* graft_load_plugin: see api.h */
int
graft_load_plugin(const char *path, graft_diags *d)
{
	Sink s = sinkopen(d);
	char msg[1024];
	uint32_t before;

	plugin_matchers(&before);
	if (plugin_load(path, msg, sizeof msg) != 0) {
		err(&s, "%s", msg);
		return sinkclose(&s, 1);
	}
	return sinkclose(&s, shippednames(before, path, &s));
}

/* graft_register_plugin: see api.h */
int
graft_register_plugin(const graft_plugin_info *pl, const char *where, graft_diags *d)
{
	Sink s = sinkopen(d);
	char msg[1024];
	uint32_t before;

	plugin_matchers(&before);
	if (plugin_register(pl, where, msg, sizeof msg) != 0) {
		err(&s, "%s", msg);
		return sinkclose(&s, 1);
	}
	return sinkclose(&s, shippednames(before, where, &s));
}

/* inlined: loads rules text into r, named inline.rules in diagnostics
** (nothing is written or read by that name); 0, or 1 after reporting */
static int
inlined(Rules *r, const char *text, Sink *s)
{
	return !(r->rs = interp_load_text("inline.rules", text, strlen(text), sinkout(s)));
}

/* rulesfree: releases what r owns */
static void
rulesfree(Rules *r)
{
	if (r->owned && r->rs)
		interp_free(r->rs);
}

/* rulesopen: graft_ruleset_open and graft_target_open: spec into r, a
** target table if target; 0, or 1 after reporting */
static int
rulesopen(Rules *r, const char *spec, int target, Sink *s)
{
	size_t n = strlen(spec);
	const char *what = target ? "target table" : "ruleset";

	memset(r, 0, sizeof *r);
	if (strchr(spec, '\n') || strchr(spec, '/') || (n > 6 && strcmp(spec + n - 6, ".rules") == 0)) {
		r->owned = 1;
		if (strchr(spec, '\n') ? inlined(r, spec, s) : !(r->rs = interp_load(spec, sinkout(s))))
			return 1;
		if (r->rs->target != target) {
			err(s, "%s: a %s, not a %s", strchr(spec, '\n') ? "rules text" : spec,
			    target ? "ruleset" : "target table", what);
			return 1;
		}
		return 0;
	}
	if ((r->rs = api_ruleset_find(spec)) && r->rs->target == target)
		return 0;
	if (sinkout(s)) {
		fprintf(sinkout(s), "graft: error: %s '%s' (%s: ", r->rs ? target ? "not a target table, but the ruleset" :
		        "not a ruleset, but the target table" : target ? "no target table called" : "no ruleset called",
		        spec, target ? "target tables" : "rulesets");
		api_rulesets_list(sinkout(s), target);
		fputs(")\n", sinkout(s));
	}
	r->rs = NULL;
	return 1;
}

/* rulesnew: a graft_ruleset or graft_target (target) for spec: each is
** a Rules alone, so one allocation serves both; NULL after reporting */
static Rules *
rulesnew(const char *spec, int target, graft_diags *d)
{
	Sink s = sinkopen(d);
	Rules *r = ir_xcalloc(1, sizeof *r);

	if (rulesopen(r, spec, target, &s)) {
		rulesfree(r);
		free(r);
		r = NULL;
	}
	sinkclose(&s, 0);
	return r;
}

/* rulesdel: releases what rulesnew() made, or nothing for NULL */
static void
rulesdel(Rules *r)
{
	if (!r)
		return;
	rulesfree(r);
	free(r);
}

/* graft_ruleset_open: see api.h */
graft_ruleset *
graft_ruleset_open(const char *spec, graft_diags *d)
{
	return (graft_ruleset *)(void *)rulesnew(spec, 0, d);
}

/* graft_ruleset_close: see api.h */
void
graft_ruleset_close(graft_ruleset *rs)
{
	rulesdel(rs ? &rs->r : NULL);
}

/* graft_target_open: see api.h */
graft_target *
graft_target_open(const char *spec, graft_diags *d)
{
	return (graft_target *)(void *)rulesnew(spec, 1, d);
}

/* graft_target_close: see api.h */
void
graft_target_close(graft_target *t)
{
	rulesdel(t ? &t->r : NULL);
}

/* graft_module_rewrite: see api.h */
int
graft_module_rewrite(graft_module *gm, const graft_ruleset *rs, uint64_t *rewrites, graft_diags *d)
{
	Sink s = sinkopen(d);
	RwStats st;
	int bad;

	gm->d.out = sinkout(&s);
	memset(&st, 0, sizeof st);
	if ((bad = typed(gm)) == 0) {
		bad = ir_rewrite(gm->m, rs->r.rs, &gm->d, &st);
		free(st.fired);
	}
	if (rewrites)
		*rewrites = st.rewrites;
	gm->d.out = NULL;
	return sinkclose(&s, bad ? 1 : 0);
}

/* graft_ruleset_name: see api.h */
const char *
graft_ruleset_name(const graft_ruleset *rs)
{
	return rs->r.rs->name;
}

/* graft_module_partition: see api.h */
int
graft_module_partition(graft_module *gm, const graft_target *const *ts, size_t n, graft_partition_stats *st,
                       graft_diags *d)
{
	Sink s = sinkopen(d);
	const Ruleset **rs = ir_xcalloc(n + 1, sizeof *rs);
	Partitioner p;
	int bad;

	for (size_t i = 0; i < n; i++)
		rs[i] = ts[i]->r.rs;
	gm->d.out = sinkout(&s);
	if (st)
		memset(st, 0, sizeof *st);
	if ((bad = typed(gm)) == 0 && n) {
		memset(&p, 0, sizeof p);
		p.m = gm->m;
		p.d = &gm->d;
		p.targets = rs;
		p.ntargets = (uint32_t)n;
		p.stop = PS_ALL;
		bad = ir_partition(&p);
		if (st)
			*st = (graft_partition_stats){ p.st.lowered, p.st.composites, p.st.regions, p.st.offloaded,
			                               p.st.host };
		ir_partition_free(&p);
	}
	free(rs);
	gm->d.out = NULL;
	return sinkclose(&s, bad ? 1 : 0);
}

/* ---------------------------------------------------------------- running */

struct graft_program {
	const Backend *be;
	Program *p;
	BeSig sig;
	char **inname;          /* sig's parameter names */
	int32_t *indt, *outdt;  /* the GRAFT_DT_ codes of sig's in and out */
};

/* graft_program_free: see api.h */
void
graft_program_free(graft_program *gp)
{
	if (!gp)
		return;
	if (gp->p)
		gp->be->release(gp->p);
	for (uint32_t i = 0; gp->inname && i < gp->sig.nin; i++)
		free(gp->inname[i]);
	free(gp->inname);
	free(gp->indt);
	free(gp->outdt);
	be_sig_free(&gp->sig);
	free(gp);
}

/* graft_compile: see api.h */
graft_program *
graft_compile(const graft_module *cgm, const char *backend, int threads, graft_diags *d)
{
	Sink s = sinkopen(d);
	graft_module *gm = (graft_module *)cgm;   /* only its Diag's out changes */
	graft_program *gp;
	BeOpts bo = { .opt = 2, .threads = threads };
	const Backend *be = be_find(backend ? backend : "ref");

	if (!be) {
		err(&s, "no backend called '%s' (backends: %s, %s, %s)", backend, be_ref.name, be_c.name, be_llvm.name);
		sinkclose(&s, 0);
		return NULL;
	}
	if (threads < 0 || threads > 64) {
		err(&s, "%d is not a thread count from 1 to 64 (or 0: the machine's cores)", threads);
		sinkclose(&s, 0);
		return NULL;
	}
	gp = ir_xcalloc(1, sizeof *gp);
	gp->be = be;
	gm->d.out = sinkout(&s);
	if (typed(gm) || be_check_sizes(gm->m, &gm->d) || be_sig(gm->m, &gp->sig, &gm->d) ||
	    !(gp->p = be->prepare(gm->m, &bo, &gm->d))) {
		gm->d.out = NULL;
		graft_program_free(gp);
		sinkclose(&s, 0);
		return NULL;
	}
	gm->d.out = NULL;
	gp->inname = ir_xcalloc(gp->sig.nin + 1, sizeof *gp->inname);
	gp->indt = ir_xcalloc(gp->sig.nin + 1, sizeof *gp->indt);
	gp->outdt = ir_xcalloc(gp->sig.nout + 1, sizeof *gp->outdt);
	for (uint32_t i = 0; i < gp->sig.nin; i++) {
		const char *nm = ir_symstr(gm->m, gp->sig.inname[i]);
		gp->inname[i] = sdup(nm, strlen(nm));
		gp->indt[i] = ir_kdtype(gp->sig.in[i].dt);
	}
	for (uint32_t i = 0; i < gp->sig.nout; i++)
		gp->outdt[i] = ir_kdtype(gp->sig.out[i].dt);
	sinkclose(&s, 0);
	return gp;
}

/* graft_program_ninputs: see api.h */
size_t
graft_program_ninputs(const graft_program *gp)
{
	return gp->sig.nin;
}

/* graft_program_noutputs: see api.h */
size_t
graft_program_noutputs(const graft_program *gp)
{
	return gp->sig.nout;
}

/* port: graft_program_input and _output's work */
static int
port(const graft_program *gp, size_t i, int isout, const char **name, int32_t *dtype, int32_t *rank,
     const int64_t **shape)
{
	const Tensor *t;

	if (i >= (isout ? gp->sig.nout : gp->sig.nin))
		return -1;
	t = isout ? &gp->sig.out[i] : &gp->sig.in[i];
	if (name)
		*name = isout ? NULL : gp->inname[i];
	if (dtype)
		*dtype = isout ? gp->outdt[i] : gp->indt[i];
	if (rank)
		*rank = (int32_t)t->rank;
	if (shape)
		*shape = t->dims;
	return 0;
}

/* graft_program_input: see api.h */
int
graft_program_input(const graft_program *gp, size_t i, const char **name, int32_t *dtype, int32_t *rank,
                    const int64_t **shape)
{
	return port(gp, i, 0, name, dtype, rank, shape);
}

/* graft_program_output: see api.h */
int
graft_program_output(const graft_program *gp, size_t i, const char **name, int32_t *dtype, int32_t *rank,
                     const int64_t **shape)
{
	return port(gp, i, 1, name, dtype, rank, shape);
}

/* dtname: the name of GRAFT_DT_ code k ("int8"), or "dtype K" */
static const char *
dtname(int32_t k, char *buf, size_t size)
{
	for (int dt = 1; dt < DT_COUNT; dt++)
		if (ir_kdtype((DType)dt) == k && k)
			return ir_dtype_names[dt];
	snprintf(buf, size, "dtype %d", (int)k);
	return buf;
}

/* tystr: a tensor's type as Relay writes it, "Tensor[(1, 3), int8]" */
static const char *
tystr(int32_t dtype, int32_t rank, const int64_t *dims, char *buf, size_t size)
{
	char dn[32];
	size_t k;

	if (rank < 0 || rank > IR_MAXDIMS || (rank && !dims)) {
		snprintf(buf, size, "a tensor of rank %d", (int)rank);
		return buf;
	}
	if (!rank) {
		snprintf(buf, size, "%s", dtname(dtype, dn, sizeof dn));
		return buf;
	}
	k = (size_t)snprintf(buf, size, "Tensor[(");
	for (int32_t i = 0; i < rank && k < size; i++)
		k += (size_t)snprintf(buf + k, size - k, "%s%lld", i ? ", " : "", (long long)dims[i]);
	if (k < size)
		snprintf(buf + k, size - k, "), %s]", dtname(dtype, dn, sizeof dn));
	return buf;
}

/* fits: whether caller tensor t is of the type of sig tensor want (GRAFT_DT_
** code dt), with data; else 0 after reporting it as what */
static int
fits(const graft_tensor *t, const Tensor *want, int32_t dt, const char *what, Sink *s)
{
	char w[300], g[300];

	if (t->dtype == dt && t->rank == (int32_t)want->rank &&
	    (!want->rank || (t->shape && memcmp(t->shape, want->dims, want->rank * sizeof *want->dims) == 0))) {
		if (t->data || !ir_tensor_numel(want))
			return 1;
		err(s, "%s: its data is NULL", what);
		return 0;
	}
	err(s, "%s is %s, and the tensor given is %s", what, tystr(dt, (int32_t)want->rank, want->dims, w, sizeof w),
	    tystr(t->dtype, t->rank, t->shape, g, sizeof g));
	return 0;
}

/* graft_program_run: see api.h */
int
graft_program_run(graft_program *gp, const graft_tensor *in, size_t nin, graft_tensor *out, size_t nout,
                  graft_diags *d)
{
	Sink s = sinkopen(d);
	const BeSig *sig = &gp->sig;
	Tensor *ti, *to;
	Diag dg;
	int bad = 0;
	char what[300];

	if (nin != sig->nin || nout != sig->nout) {
		err(&s, "the program has %u input%s and %u output%s, and %zu and %zu were given", sig->nin,
		    sig->nin == 1 ? "" : "s", sig->nout, sig->nout == 1 ? "" : "s", nin, nout);
		return sinkclose(&s, 1);
	}
	for (uint32_t i = 0; i < sig->nin; i++) {
		snprintf(what, sizeof what, "input %u (%%%s)", i, gp->inname[i]);
		bad |= !fits(&in[i], &sig->in[i], gp->indt[i], what, &s);
	}
	for (uint32_t i = 0; i < sig->nout; i++) {
		snprintf(what, sizeof what, "output %u", i);
		bad |= !fits(&out[i], &sig->out[i], gp->outdt[i], what, &s);
	}
	if (bad)
		return sinkclose(&s, 1);
	ti = ir_xcalloc(sig->nin + 1, sizeof *ti);
	to = ir_xcalloc(sig->nout + 1, sizeof *to);
	for (uint32_t i = 0; i < sig->nin; i++) {
		ti[i] = sig->in[i];
		ti[i].data = in[i].data;
	}
	ir_diag_init(&dg, sinkout(&s), NULL);
	if (!(bad = gp->be->run(gp->p, ti, to, &dg) != 0))
		for (uint32_t i = 0; i < sig->nout; i++) {
			memcpy(out[i].data, to[i].data, ir_tensor_bytes(&to[i]));
			ir_tensor_free(&to[i]);
		}
	ir_diag_free(&dg);
	free(ti);
	free(to);
	return sinkclose(&s, bad);
}
