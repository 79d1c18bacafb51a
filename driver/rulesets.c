/*
** rulesets.c: the table of built-in rulesets, from rulesets.def.
*/
#include <string.h>

#include "rulesets.h"

#define RULESET(name) extern const Ruleset graft_ruleset_##name;
#include <rulesets.def>   /* from the include path: tests use their own */
#undef RULESET

static const Ruleset *const all[] = {
#define RULESET(name) &graft_ruleset_##name,
#include <rulesets.def>   /* from the include path: tests use their own */
#undef RULESET
};

const Ruleset *
graft_ruleset_find(const char *name)
{
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		if (strcmp(all[i]->name, name) == 0)
			return all[i];
	return NULL;
}

void
graft_rulesets_list(FILE *f, int targets)
{
	int n = 0;
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		if (all[i]->target == targets)
			fprintf(f, "%s%s", n++ ? ", " : "", all[i]->name);
	if (!n)
		fputs("none", f);
}
