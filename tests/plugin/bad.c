/*
** bad.c: plugins that are broken in one way each, for tests/plugin.sh:
** BAD=1 has no entry point, 2 was built for another ABI, 3 fails in
** init(), 4 registers a ruleset whose plugin op nobody registers.
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
static NodeId
match(Rw *rw, NodeId n, uint32_t *rule)
{
	(void)rw, (void)n, (void)rule;
	return 0;
}
static const RwOp ops[] = { { "nobody.op", IR_MAXOPS, 0 } };
static const Ruleset rs = { "orphan", "orphan.rules", 0, 0, 0, 0, 0, 0, match, 0, 0, 0, 0, 0, 1, ops };
static int
init(GraftPluginHost *h)
{
	return graft_plugin_add_ruleset(h, &rs) ? 0 : 1;
}
GRAFT_PLUGIN("orphan", "1.0", init);
#endif
