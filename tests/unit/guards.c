/*
** guards.c: unit tests of dsl_guards (dsl/guards.c), the pass the C
** emitter and a .rules file loaded at run time (interp/) run before their
** work.  dsl_check reports the same forms first, so graftc and graft never
** reach the pass with one; here the rules are compiled in spite of
** dsl_check's errors, and the pass must find each of them itself, at the
** same place, with the same message, in the same order, and nothing in
** the rules that have code.
*/
#define _POSIX_C_SOURCE 200809L   /* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsl.h"
#include "tap.h"

/* errorlines: the "error:" lines of text, each with its two quoted lines,
** in a new string */
static char *
errorlines(const char *text)
{
	char *out = calloc(1, strlen(text) + 1), *o = out;
	const char *s = text;
	int keep = 0;

	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) + 1 : strlen(s);
		if (strstr(s, ": error: ") && (!nl || strstr(s, ": error: ") < nl))
			keep = 3;
		else if (strstr(s, ": warning: ") && (!nl || strstr(s, ": warning: ") < nl))
			keep = 0;
		if (keep) {
			memcpy(o, s, n);
			o += n;
			keep--;
		}
		s += n;
	}
	return out;
}

int
main(void)
{
	const char *srcdir = getenv("srcdir");
	char path[4096], *checked = NULL, *guarded = NULL, *want, *got;
	size_t nchecked = 0, nguarded = 0;
	Module *m = ir_module_new();
	Diag d;
	Rules r;
	int errs;

	snprintf(path, sizeof path, "%s/tests/graftc/err_forms.rules", srcdir ? srcdir : ".");
	ir_diag_init(&d, open_memstream(&checked, &nchecked), m);
	dsl_rules_init(&r, m, &d);
	dsl_parse(&r, path);
	dsl_check(&r);
	fclose(d.out);
	is_int(d.errors, 13, "dsl_check finds the 13 errors of err_forms.rules");

	/* compiled in spite of them: the pass sees every variant */
	d.errors = 0;
	d.out = open_memstream(&guarded, &nguarded);
	is_int(dsl_compile(&r), 0, "the rules compile");
	errs = dsl_guards(&r);
	fclose(d.out);
	is_int(errs, 13, "dsl_guards finds as many");
	is_int(d.errors, 13, "and reports each once");
	want = errorlines(checked);
	got = errorlines(guarded);
	is_str(got, want, "the same errors, at the same places, in the same order");
	free(want);
	free(got);
	free(checked);
	free(guarded);
	dsl_rules_free(&r);
	ir_diag_free(&d);
	ir_module_free(m);
	return done_testing();
}
