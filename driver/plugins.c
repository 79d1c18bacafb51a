/*
** plugins.c: the commands' --plugin FILE options, loaded before any other
** option is read, through the API's loader (graft_load_plugin()).
*/
#include <stdio.h>
#include <string.h>

#include "api.h"
#include "rulesets.h"

/* drv_plugins_load: see rulesets.h; through the API's loader, which
** refuses a plugin's matcher named like a shipped one */
int
drv_plugins_load(int argc, char **argv)
{
	graft_diags *d = graft_diags_new();
	int bad = 0;

	for (int i = 1; i < argc && !bad; i++) {
		const char *path = NULL;
		if (strcmp(argv[i], "--plugin") == 0 && i + 1 < argc)
			path = argv[++i];
		else if (strncmp(argv[i], "--plugin=", 9) == 0)
			path = argv[i] + 9;
		if (path)
			bad = graft_load_plugin(path, d) != 0;
	}
	graft_diags_print(d, stderr);
	graft_diags_free(d);
	return bad;
}

