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
graft_ruleset_find(const char *name)
{
	const Ruleset *rs = builtin(name);
	return rs ? rs : plugin_matcher(name);
}

int
graft_plugins_load(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		char err[1024];
		const char *path = NULL;
		uint32_t before, after;
		const Ruleset *const *rs;
		if (strcmp(argv[i], "--plugin") == 0 && i + 1 < argc)
			path = argv[++i];
		else if (strncmp(argv[i], "--plugin=", 9) == 0)
			path = argv[i] + 9;
		if (!path)
			continue;
		plugin_matchers(&before);
		if (plugin_load(path, err, sizeof err) != 0) {
			fprintf(stderr, "graft: error: %s\n", err);
			return 1;
		}
		rs = plugin_matchers(&after);
		for (uint32_t k = before; k < after; k++)
			if (builtin(rs[k]->name)) {
				fprintf(stderr, "graft: error: plugin %s: %s %s has the name of a built-in one\n", path,
				        rs[k]->target ? "target" : "ruleset", rs[k]->name);
				return 1;
			}
	}
	return 0;
}

void
graft_rulesets_list(FILE *f, int targets)
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
