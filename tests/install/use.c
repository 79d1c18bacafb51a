/*
** use.c: a downstream program built against an installed graft alone
** (pkg-config graft): it loads a .rules file at run time, applies it to a
** Relay text model and prints the result.  .ci/run builds and runs it
** after `make install` into a temporary prefix.
**
**   use RULES.rules MODEL.relay
*/
#include <stdio.h>
#include <stdlib.h>

#include <graft/graft.h>

int
main(int argc, char **argv)
{
	const Ruleset *rs;
	Module *m;
	Diag d;
	char *text;
	size_t len;
	const char *what;
	RwStats st;
	PrintOpts po = { 0 };
	int status = 1;

	if (argc != 3) {
		fprintf(stderr, "usage: use RULES.rules MODEL.relay\n");
		return 2;
	}
	printf("graft %s\n", GRAFT_VERSION_STRING);
	if (!(rs = interp_load(argv[1], stderr)))
		return 1;
	m = ir_module_new();
	ir_diag_init(&d, stderr, m);
	if (ir_read_file(argv[2], 1 << 30, &text, &len, &what) != 0) {
		fprintf(stderr, "use: cannot %s %s\n", what, argv[2]);
		goto out;
	}
	if (ir_parse(m, &d, argv[2], text, len) == 0 && ir_infer_types(m, &d) == 0 &&
	    ir_rewrite(m, rs, &d, &st) == 0) {
		printf("%s: %llu rewrites\n", rs->name, (unsigned long long)st.rewrites);
		ir_print(stdout, m, &po, NULL);
		free(st.fired);
		status = 0;
	}
	free(text);
out:
	ir_diag_free(&d);
	ir_module_free(m);
	interp_free(rs);
	return status;
}
