/*
** c.c: the c backend: be_c_emit()'s C (cgen.c) compiled with the system's
** C compiler into a shared object in a private temporary directory, and
** loaded in-process.
**
** prepare() writes model.c and model.h, runs `$CC -std=c99 -O<opt>
** -ffp-contract=off -shared -fPIC` on them (the C compiler's messages go
** to the Diag when it fails), dlopen()s the result and finds graft_main;
** run() calls it; release() unloads it and removes the directory unless
** BeOpts.keep.  -ffp-contract=off keeps float results those of the
** separate IEEE operations the source spells.
*/
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bei.h"
#include "c.h"
#include "ref.h"


struct Program {
	char dir[64];
	void *so;
	BeEntry *entry;
	BeSig sig;
	int keep;
	BeExt **ext;            /* the partitions codegens run, by slot */
	uint32_t next;
};

/* freeext: p's partitions */
static void
freeext(Program *p)
{
	for (uint32_t k = 0; k < p->next; k++)
		be_ext_free(p->ext[k]);
	free(p->ext);
	p->ext = NULL;
	p->next = 0;
}

/* bindext: the partitions of ext[0..n) prepared by their codegens, and the
** loaded code's graft_ext_call and graft_ext_ctx set to call them; 0 after
** reporting through d */
static int
bindext(Program *p, const Module *m, const NodeId *ext, uint32_t n, Diag *d)
{
	int32_t (**call)(void *, const void *const *, void *const *);
	void **ctx;

	if (!n)
		return 1;
	p->ext = ir_xcalloc(n, sizeof *p->ext);
	for (; p->next < n; p->next++)
		if (!(p->ext[p->next] = be_ext_new(m, ext[p->next], d)))
			return 0;
	/* POSIX: data objects' addresses from dlsym() */
	call = dlsym(p->so, "graft_ext_call");
	ctx = dlsym(p->so, "graft_ext_ctx");
	if (!call || !ctx) {
		ir_error(d, (Loc){ 0, 0, 0 }, "the c backend's code has no graft_ext_call or graft_ext_ctx");
		return 0;
	}
	*call = be_ext_call;
	for (uint32_t k = 0; k < n; k++)
		ctx[k] = p->ext[k];
	return 1;
}

/* bindkernels: the loaded code's pointers graft_kfn_SYMBOL (cgen.c's
** kdecls) set to the C kernels of plugin ops they name */
static void
bindkernels(Program *p)
{
	char name[300];

	for (OpId op = OP_COUNT; op < ir_op_count(); op++) {
		const char *sym;
		graft_kernel *fn = ref_ckernel(op, &sym), **at;
		if (!fn)
			continue;
		snprintf(name, sizeof name, "graft_kfn_%s", sym);
		/* POSIX: a data object's address from dlsym() */
		if ((at = dlsym(p->so, name)) != NULL)
			*at = fn;
	}
}

/* rmdir_all: removes the files prepare() makes, then the directory */
static void
rmdir_all(const char *dir)
{
	static const char *const files[] = { "model.c", "model.h", "model.so", "cc.err" };
	char path[128];

	for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
		snprintf(path, sizeof path, "%s/%s", dir, files[k]);
		unlink(path);
	}
	rmdir(dir);
}

/* slurp: the contents of path (at most 8k), or an empty string */
static void
slurp(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n = 0;

	if (f) {
		n = fread(buf, 1, size - 1, f);
		fclose(f);
	}
	buf[n] = 0;
	while (n && (buf[n - 1] == '\n'))
		buf[--n] = 0;
}

static Program *
prepare(const Module *m, const BeOpts *o, Diag *d)
{
	Program *p;
	const char *cc = o && o->cc ? o->cc : getenv("CC");
	const char *tmp = getenv("TMPDIR");
	char path[128], hpath[128], cmd[1024], err[8192];
	FILE *c, *h;
	int opt = o ? o->opt : 2, rc;
	NodeId *ext = NULL;
	uint32_t next = 0;

	if (be_check_sizes(m, d))
		return NULL;
	p = ir_xcalloc(1, sizeof *p);

	if (!cc || !*cc)
		cc = "cc";
	if (opt < 0 || opt > 3)
		opt = 2;
	p->keep = o && o->keep;
	if (be_sig(m, &p->sig, d)) {
		free(p);
		return NULL;
	}
	snprintf(p->dir, sizeof p->dir, "%s/graft-c.XXXXXX", tmp && *tmp && strlen(tmp) < 40 ? tmp : "/tmp");
	if (!mkdtemp(p->dir)) {
		ir_error(d, (Loc){ 0, 0, 0 }, "the c backend cannot make a temporary directory in %s", p->dir);
		be_sig_free(&p->sig);
		free(p);
		return NULL;
	}
	snprintf(path, sizeof path, "%s/model.c", p->dir);
	snprintf(hpath, sizeof hpath, "%s/model.h", p->dir);
	c = fopen(path, "w");
	h = fopen(hpath, "w");
	if (!c || !h) {
		ir_error(d, (Loc){ 0, 0, 0 }, "the c backend cannot write %s", path);
		goto fail;
	}
	rc = be_c_emit_run(m, c, h, "model.h", &ext, &next, d);
	if (fclose(c) | fclose(h) || rc) {
		c = h = NULL;
		goto fail;
	}
	c = h = NULL;
	snprintf(cmd, sizeof cmd, "%s -std=c99 -O%d -ffp-contract=off -shared -fPIC -o %s/model.so %s -lm 2>%s/cc.err",
	         cc, opt, p->dir, path, p->dir);
	if (system(cmd) != 0) {
		snprintf(path, sizeof path, "%s/cc.err", p->dir);
		slurp(path, err, sizeof err);
		ir_error(d, (Loc){ 0, 0, 0 }, "the c backend's compiler (%s) failed:\n%s", cc, err);
		goto fail;
	}
	snprintf(path, sizeof path, "%s/model.so", p->dir);
	if (!(p->so = dlopen(path, RTLD_NOW | RTLD_LOCAL)) ||
	    !(*(void **)&p->entry = dlsym(p->so, "graft_main"))) {
		ir_error(d, (Loc){ 0, 0, 0 }, "the c backend cannot load %s: %s", path, dlerror());
		goto fail;
	}
	bindkernels(p);
	if (!bindext(p, m, ext, next, d))
		goto fail;
	free(ext);
	return p;
fail:
	free(ext);
	freeext(p);
	if (c)
		fclose(c);
	if (h)
		fclose(h);
	if (p->so)
		dlclose(p->so);
	if (!p->keep)
		rmdir_all(p->dir);
	be_sig_free(&p->sig);
	free(p);
	return NULL;
}

static int
run(Program *p, const Tensor *in, Tensor *out, Diag *d)
{
	return be_run_entry_ext(p->entry, &p->sig, in, out, d, p->ext, p->next);
}

static void
release(Program *p)
{
	if (!p)
		return;
	freeext(p);
	if (p->so)
		dlclose(p->so);
	if (!p->keep)
		rmdir_all(p->dir);
	else
		fprintf(stderr, "graft: the c backend's files are in %s\n", p->dir);
	be_sig_free(&p->sig);
	free(p);
}

const Backend be_c = { "c", prepare, run, release };
