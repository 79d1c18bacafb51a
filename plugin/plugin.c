/*
** plugin.c: loading plugins (plugin.h): dlopen(), the entry point and its
** ABI checked before anything is called, then init() with a host through
** which it registers rulesets, ops and codegens.
*/
#include <dlfcn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "plugin.h"

enum { MAXPLUGINS = 64, MAXRULESETS = 256 };

struct GraftPluginHost {
	const char *path;
	char err[512];
};

typedef struct Loaded {
	void *dl;
	const GraftPlugin *pl;
	char *path;
} Loaded;

static Loaded plugins[MAXPLUGINS];
static uint32_t nplugins;
static const Ruleset *rulesets[MAXRULESETS];
static uint32_t nrulesets;

void
graft_plugin_error(GraftPluginHost *h, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(h->err, sizeof h->err, fmt, ap);
	va_end(ap);
}

int
graft_plugin_add_ruleset(GraftPluginHost *h, const Ruleset *rs)
{
	char why[512];

	if (!rs || !rs->name || !rs->match) {
		graft_plugin_error(h, "a ruleset without a name or match function");
		return 0;
	}
	if (graft_plugin_ruleset(rs->name)) {
		graft_plugin_error(h, "%s %s is registered already", rs->target ? "target" : "ruleset", rs->name);
		return 0;
	}
	if (!ir_ruleset_ops_ok(rs, why, sizeof why)) {
		graft_plugin_error(h, "%s", why);
		return 0;
	}
	if (nrulesets == MAXRULESETS) {
		graft_plugin_error(h, "ruleset %s: no room for more than %d rulesets", rs->name, MAXRULESETS);
		return 0;
	}
	rulesets[nrulesets++] = rs;
	return 1;
}

OpId
graft_plugin_add_op(GraftPluginHost *h, const OpInfo *op, RefKernel *kernel)
{
	char why[256];
	OpId id = ir_op_register(op, why, sizeof why);

	if (!id) {
		graft_plugin_error(h, "%s", why);
		return 0;
	}
	if (kernel)
		ref_kernel_register(id, kernel);
	return id;
}

OpId
graft_plugin_add_scalar_op(GraftPluginHost *h, const OpInfo *op, const ScalarDef *rows, uint32_t nrows)
{
	char why[256];
	OpInfo o;
	OpId id;

	if (!op) {
		graft_plugin_error(h, "no op");
		return 0;
	}
	o = *op;
	if (!o.rel)
		o.rel = ir_rel_same;    /* its operand's type */
	if (!(id = ir_op_register(&o, why, sizeof why)) || !ir_scalar_register(id, rows, nrows, why, sizeof why)) {
		graft_plugin_error(h, "%s", why);
		return 0;
	}
	return id;
}

OpId
graft_plugin_add_kernel_op(GraftPluginHost *h, const OpInfo *op, graft_kernel *fn, const char *symbol)
{
	char why[256];
	OpId id;

	if (!fn) {
		graft_plugin_error(h, "op %s: no kernel", op && op->name ? op->name : "?");
		return 0;
	}
	if (!(id = ir_op_register(op, why, sizeof why)) || !ref_ckernel_register(id, fn, symbol, why, sizeof why)) {
		graft_plugin_error(h, "%s", why);
		return 0;
	}
	return id;
}

int
graft_plugin_add_codegen(GraftPluginHost *h, const BeCodegen *cg)
{
	char why[256];

	if (!be_codegen_register(cg, why, sizeof why)) {
		graft_plugin_error(h, "%s", why);
		return 0;
	}
	return 1;
}

/* graft_plugin_register: see plugin.h */
int
graft_plugin_register(const GraftPlugin *pl, const char *where, char *err, size_t nerr)
{
	GraftPluginHost host;

	if (pl->abi != GRAFT_PLUGIN_ABI) {
		snprintf(err, nerr, "plugin %s was built for graft's plugin ABI %u; this graft has ABI %u: rebuild it "
		         "against this graft's headers", where, (unsigned)pl->abi, (unsigned)GRAFT_PLUGIN_ABI);
		return 1;
	}
	if (!pl->init) {
		snprintf(err, nerr, "plugin %s has no init function", where);
		return 1;
	}
	memset(&host, 0, sizeof host);
	host.path = where;
	if (pl->init(&host) != 0) {
		snprintf(err, nerr, "plugin %s (%s): %s", where, pl->name ? pl->name : "?",
		         host.err[0] ? host.err : "its init function failed");
		return 1;
	}
	return 0;
}

/* graft_plugin_load: see plugin.h */
int
graft_plugin_load(const char *path, char *err, size_t nerr)
{
	const GraftPlugin *pl;
	void *dl;
	size_t n;

	if (nplugins == MAXPLUGINS) {
		snprintf(err, nerr, "%s: no room for more than %d plugins", path, MAXPLUGINS);
		return 1;
	}
	dlerror();
	/* RTLD_GLOBAL: rules loaded later find the plugin's externs by name */
	if (!(dl = dlopen(path, RTLD_NOW | RTLD_GLOBAL))) {
		const char *e = dlerror();
		snprintf(err, nerr, "cannot load plugin %s: %s", path, e ? e : "dlopen failed");
		return 1;
	}
	for (uint32_t i = 0; i < nplugins; i++)
		if (plugins[i].dl == dl) {
			snprintf(err, nerr, "plugin %s is loaded already (as %s)", path, plugins[i].path);
			dlclose(dl);
			return 1;
		}
	/* POSIX: a data object's address from dlsym() */
	if (!(pl = dlsym(dl, GRAFT_PLUGIN_ENTRY))) {
		snprintf(err, nerr, "%s is not a graft plugin: it defines no '%s' (GRAFT_PLUGIN(...) in plugin.h "
		         "defines it)", path, GRAFT_PLUGIN_ENTRY);
		dlclose(dl);
		return 1;
	}
	if (pl->abi != GRAFT_PLUGIN_ABI) {
		snprintf(err, nerr, "plugin %s was built for graft's plugin ABI %u; this graft has ABI %u: rebuild it "
		         "against this graft's headers", path, (unsigned)pl->abi, (unsigned)GRAFT_PLUGIN_ABI);
		dlclose(dl);
		return 1;
	}
	if (graft_plugin_register(pl, path, err, nerr) != 0)
		return 1;       /* what it registered stays: it stays loaded too */
	n = strlen(path) + 1;
	plugins[nplugins].dl = dl;
	plugins[nplugins].pl = pl;
	plugins[nplugins++].path = memcpy(ir_xcalloc(n, 1), path, n);
	return 0;
}

const Ruleset *
graft_plugin_ruleset(const char *name)
{
	for (uint32_t i = 0; i < nrulesets; i++)
		if (strcmp(rulesets[i]->name, name) == 0)
			return rulesets[i];
	return NULL;
}

const Ruleset *const *
graft_plugin_rulesets(uint32_t *n)
{
	*n = nrulesets;
	return rulesets;
}

void
graft_plugin_list(FILE *f)
{
	for (uint32_t i = 0; i < nplugins; i++)
		fprintf(f, "%s %s (%s)\n", plugins[i].pl->name ? plugins[i].pl->name : "?",
		        plugins[i].pl->version ? plugins[i].pl->version : "", plugins[i].path);
}
