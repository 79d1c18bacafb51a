/*
** bad.c: plugins that are broken in one way each, for tests/plugin.sh:
** BAD=1 has no entry point, 2 was built for another ABI, 3 fails in
** init(), 4 registers a ruleset whose plugin op nobody registers, 5 an
** op whose C kernel's symbol takes graft's own graft_ prefix.
*/
#include <graft/graft.h>

#if BAD == 1
int not_a_plugin = 1;
#elif BAD == 2
GRAFT_EXPORT const GraftPlugin graft_plugin = { GRAFT_PLUGIN_ABI + 1, "future", "9.9", 0 };
#elif BAD == 3
static int
init(GraftPluginHost *h)
{
	graft_plugin_error(h, "the license file is missing");
	return 1;
}
GRAFT_PLUGIN("failing", "1.0", init);
#elif BAD == 4
static graft_node
match(graft_rw *rw, graft_node n, uint32_t *rule)
{
	(void)rw, (void)n, (void)rule;
	return 0;
}
static const graft_rule_op ops[] = { { "nobody.op", 1, 0 } };
static const graft_matcher rs = { "orphan", "orphan.rules", 0, 0, 0, 0, 0, 0, match, 0, 0, 0, 0, 0, 1, ops };
static int
init(GraftPluginHost *h)
{
	return graft_plugin_add_ruleset(h, &rs) ? 0 : 1;
}
GRAFT_PLUGIN("orphan", "1.0", init);
#elif BAD == 5
static TypeId
rel(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	(void)m, (void)nargs, (void)attrs, (void)d;
	return args[0];
}
static int
kernel(const graft_tensor *in, uint32_t nin, graft_tensor *out, uint32_t nout, const graft_attr *attrs)
{
	(void)in, (void)nin, (void)out, (void)nout, (void)attrs;
	return 0;
}
static int
init(GraftPluginHost *h)
{
	static const OpInfo k = { "bad.k", 1, 0, rel, 0, 0 };
	return graft_plugin_add_kernel_op(h, &k, kernel, "graft_k") ? 0 : 1;
}
GRAFT_PLUGIN("badkernel", "1.0", init);
#elif BAD == 6
#include <graft/scalar.h>
static const AttrField attrs[] = { { "alpha", AT_FLOAT, "0f" } };
/* P(1): the op has one attribute */
static const ScalarDef rows[] = { { 0, SI_NONE, NULL, NULL, MUL(X, P(1)) } };
static int
init(GraftPluginHost *h)
{
	static const OpInfo s = { "bad.s", 1, OPF_ELEM, NULL, attrs, 1 };
	return graft_plugin_add_scalar_op(h, &s, rows, 1) ? 0 : 1;
}
GRAFT_PLUGIN("badscalar", "1.0", init);
#endif
