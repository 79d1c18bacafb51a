/*
** plugin.c: loading plugins (plugin.h): dlopen(), the entry point and its
** ABI checked before anything is called, then init() with a host through
** which it registers matchers, ops and codegens (host.h: graft's side).
*/
#include <dlfcn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "host.h"
#include "ref.h"

enum { MAXPLUGINS = 64, MAXRULESETS = 256 };

struct graft_plugin_host {
	const char *path;
	char err[512];
};

typedef struct Loaded {
	void *dl;
	const graft_plugin_info *pl;
	char *path;
} Loaded;

static Loaded plugins[MAXPLUGINS];
static uint32_t nplugins;
static const Ruleset *rulesets[MAXRULESETS];
static uint32_t nrulesets;

void
graft_plugin_error(graft_plugin_host *h, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(h->err, sizeof h->err, fmt, ap);
	va_end(ap);
}

/* graft_plugin_add_matcher: see plugin.h */
int
graft_plugin_add_matcher(graft_plugin_host *h, const graft_matcher *rs)
{
	char why[512];

	if (!rs || !rs->name || !rs->match) {
		graft_plugin_error(h, "a matcher without a name or match function");
		return 0;
	}
	if (plugin_matcher(rs->name)) {
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

/* opinfo: op as the registry takes it, its relation in opdef.h's form */
static OpInfo
opinfo(const graft_op_def *op)
{
	return (OpInfo){ op->name, op->nargs, op->flags, NULL, op->attrs, op->nattrs, op->rel };
}

/* graft_plugin_add_op: see plugin.h */
int
graft_plugin_add_op(graft_plugin_host *h, const graft_op_def *op, graft_kernel *fn, const char *symbol)
{
	char why[256];
	OpInfo o;
	OpId id;

	if (!op || !fn) {
		graft_plugin_error(h, "op %s: no %s", op && op->name ? op->name : "?", op ? "kernel" : "op");
		return 0;
	}
	o = opinfo(op);
	if (!(id = ir_op_register(&o, why, sizeof why)) || !ref_ckernel_register(id, fn, symbol, why, sizeof why)) {
		graft_plugin_error(h, "%s", why);
		return 0;
	}
	return 1;
}

/* graft_plugin_add_scalar_op: see plugin.h */
int
graft_plugin_add_scalar_op(graft_plugin_host *h, const graft_op_def *op, const graft_scalar_row *rows, uint32_t n)
{
	char why[256];
	ScalarDef *defs;
	OpInfo o;
	OpId id;
	int ok;

	if (!op || !rows || !n) {
		graft_plugin_error(h, "op %s: no rows", op && op->name ? op->name : "?");
		return 0;
	}
	o = opinfo(op);
	if (!o.prel)
		o.rel = ir_rel_same;    /* its operand's type */
	defs = ir_xcalloc(n, sizeof *defs);
	for (uint32_t i = 0; i < n; i++)
		defs[i] = (ScalarDef){ 0, rows[i].ints, rows[i].when, NULL, rows[i].expr };
	ok = (id = ir_op_register(&o, why, sizeof why)) && ir_scalar_register(id, defs, n, why, sizeof why);
	free(defs);     /* ir_scalar_register() copied the rows */
	if (!ok)
		graft_plugin_error(h, "%s", why);
	return ok;
}

int
graft_plugin_add_codegen(graft_plugin_host *h, const graft_codegen *cg)
{
	char why[256];

	if (!be_codegen_register(cg, why, sizeof why)) {
		graft_plugin_error(h, "%s", why);
		return 0;
	}
	return 1;
}

/* plugin_register: see host.h */
int
plugin_register(const graft_plugin_info *pl, const char *where, char *err, size_t nerr)
{
	graft_plugin_host host;

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

/* plugin_load: see host.h */
int
plugin_load(const char *path, char *err, size_t nerr)
{
	const graft_plugin_info *pl;
	uint32_t abi;
	int peek;
	void *dl;
	size_t n;

	if (nplugins == MAXPLUGINS) {
		snprintf(err, nerr, "%s: no room for more than %d plugins", path, MAXPLUGINS);
		return 1;
	}
	/* refused before it is loaded, when it says it was built for another
	** ABI: another graft's plugin may name symbols this one lacks */
	peek = strchr(path, '/') ? plugin_peek_abi(path, &abi) : -1;
	if (peek == -2) {
		snprintf(err, nerr, "cannot load plugin %s: it is not a whole shared object (what it says to load lies "
		         "past its end: cut short?)", path);
		return 1;
	}
	if (peek == 0 && abi != GRAFT_PLUGIN_ABI) {
		snprintf(err, nerr, "plugin %s was built for graft's plugin ABI %u; this graft has ABI %u: rebuild it "
		         "against this graft's headers", path, (unsigned)abi, (unsigned)GRAFT_PLUGIN_ABI);
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
		snprintf(err, nerr, "%s is not a graft plugin: it defines no '%s' (GRAFT_PLUGIN(...) of <graft/plugin.h> "
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
	if (plugin_register(pl, path, err, nerr) != 0)
		return 1;       /* what it registered stays: it stays loaded too */
	n = strlen(path) + 1;
	plugins[nplugins].dl = dl;
	plugins[nplugins].pl = pl;
	plugins[nplugins++].path = memcpy(ir_xcalloc(n, 1), path, n);
	return 0;
}

/* plugin_matcher: see host.h */
const Ruleset *
plugin_matcher(const char *name)
{
	for (uint32_t i = 0; i < nrulesets; i++)
		if (strcmp(rulesets[i]->name, name) == 0)
			return rulesets[i];
	return NULL;
}

/* plugin_matchers: see host.h */
const Ruleset *const *
plugin_matchers(uint32_t *n)
{
	*n = nrulesets;
	return rulesets;
}

/* plugin_list: see host.h */
void
plugin_list(FILE *f)
{
	for (uint32_t i = 0; i < nplugins; i++)
		fprintf(f, "%s %s (%s)\n", plugins[i].pl->name ? plugins[i].pl->name : "?",
		        plugins[i].pl->version ? plugins[i].pl->version : "", plugins[i].path);
}
