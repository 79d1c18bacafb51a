/*
** rulesets.c: the rulesets the graft command knows by name: the shipped
** ones and the loaded plugins' (api/: graft_ruleset_open() finds the
** same), and those a build of the command adds (rulesets.def: none for
** graft; tests/graft-test's test rulesets).
*/
#include <string.h>

#include "apii.h"
#include "rulesets.h"

#define RULESET(name) extern const Ruleset graft_ruleset_##name;
#include <rulesets.def>   /* from the include path: tests use their own */
#undef RULESET

static const Ruleset *const extra[] = {
#define RULESET(name) &graft_ruleset_##name,
#include <rulesets.def>   /* from the include path: tests use their own */
#undef RULESET
	NULL
};

const Ruleset *
drv_ruleset_find(const char *name)
{
	for (size_t i = 0; extra[i]; i++)
		if (strcmp(extra[i]->name, name) == 0)
			return extra[i];
	return api_ruleset_find(name);
}

void
drv_rulesets_list(FILE *f, int targets)
{
	int n = api_rulesets_list(f, targets);

	for (size_t i = 0; extra[i]; i++)
		if (extra[i]->target == targets)
			fprintf(f, "%s%s", n++ ? ", " : "", extra[i]->name);
	if (!n)
		fputs("none", f);
}
