/*
** rulesets.c: the table of built-in rulesets, from rulesets.def.
*/
#include <string.h>

#include "host.h"
#include "rulesets.h"

#define RULESET(name) extern const Ruleset graft_ruleset_##name;
#include <rulesets.def>   /* from the include path: tests use their own */
#undef RULESET

static const Ruleset *const all[] = {
#define RULESET(name) &graft_ruleset_##name,
#include <rulesets.def>   /* from the include path: tests use their own */
#undef RULESET
};

/* builtin: the built-in ruleset called name, or NULL */
static const Ruleset *
builtin(const char *name)
{
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		if (strcmp(all[i]->name, name) == 0)
			return all[i];
	return NULL;
}

const Ruleset *
drv_ruleset_find(const char *name)
{
	const Ruleset *rs = builtin(name);
	return rs ? rs : plugin_matcher(name);
}

void
drv_rulesets_list(FILE *f, int targets)
{
	int n = 0;
	uint32_t np;
	const Ruleset *const *rs = plugin_matchers(&np);
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		if (all[i]->target == targets)
			fprintf(f, "%s%s", n++ ? ", " : "", all[i]->name);
	for (uint32_t i = 0; i < np; i++)
		if (rs[i]->target == targets)
			fprintf(f, "%s%s", n++ ? ", " : "", rs[i]->name);
	if (!n)
		fputs("none", f);
}
