/*
** use.c: a downstream program built against an installed graft alone
** (pkg-config graft), through <graft/api.h>: it loads a .rules file at run
** time, applies it to a Relay text model and prints the result.  .ci/run
** builds and runs it after `make install` into a temporary prefix, and
** tests/library.sh against the shared library.
**
**   use RULES.rules MODEL.relay
*/
#include <stdio.h>

#include <graft/graft.h>

int
main(int argc, char **argv)
{
	graft_diags *d = graft_diags_new();
	graft_ruleset *rs = NULL;
	graft_module *m = NULL;
	uint64_t n;
	char *text;
	int status = 1;

	if (argc != 3) {
		fprintf(stderr, "usage: use RULES.rules MODEL.relay\n");
		return 2;
	}
	printf("graft %s\n", GRAFT_VERSION_STRING);
	if ((rs = graft_ruleset_open(argv[1], d)) && (m = graft_module_load(argv[2], d)) &&
	    graft_module_rewrite(m, rs, &n, d) == 0 && (text = graft_module_text(m))) {
		printf("%s: %llu rewrites\n%s", graft_ruleset_name(rs), (unsigned long long)n, text);
		graft_free(text);
		status = 0;
	}
	graft_diags_print(d, stderr);
	graft_module_free(m);
	graft_ruleset_close(rs);
	graft_diags_free(d);
	return status;
}
