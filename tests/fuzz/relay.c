/*
** relay.c: the Relay text harness.  Any input: parse, infer types, verify
** and print, with no crash, hang or leak.  A module that type-checks must
** pass the verifier, and what graft prints it must read back, to the same
** text: print(parse(print(x))) == print(x).  (A module printed with
** meta[...] constants is not read back: their data is not in the text.)
*/
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "text.h"

/* printed: m as graft prints it, into *out (malloc'ed) */
static size_t
printed(Module *m, char **out)
{
	PrintOpts po = { 0 };
	size_t n = 0;
	FILE *f = open_memstream(out, &n);

	FZ_CHECK(f != NULL, "open_memstream");
	ir_print(f, m, &po, NULL);
	fclose(f);
	return n;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Module *m = ir_module_new();
	Diag d;

	ir_diag_init(&d, fz_sink(), m);
	if (ir_parse(m, &d, "fuzz.relay", (const char *)data, size) == 0 && ir_infer_types(m, &d) == 0) {
		char *a = NULL, *b = NULL;
		size_t na, nb;
		FZ_CHECK(ir_verify(m, &d) == 0, "a module that type-checks fails the verifier");
		na = printed(m, &a);
		if (!strstr(a, "meta[")) {
			Module *m2 = ir_module_new();
			Diag d2;
			ir_diag_init(&d2, stderr, m2);
			FZ_CHECK(ir_parse(m2, &d2, "printed.relay", a, na) == 0 && ir_infer_types(m2, &d2) == 0,
			         "graft cannot read back what it printed");
			nb = printed(m2, &b);
			if (na != nb || memcmp(a, b, na) != 0)
				fprintf(stderr, "--- printed\n%s--- read back and printed\n%s", a, b);
			FZ_CHECK(na == nb && memcmp(a, b, na) == 0, "print(parse(print(x))) differs from print(x)");
			free(b);
			ir_diag_free(&d2);
			ir_module_free(m2);
		}
		free(a);
	}
	ir_diag_free(&d);
	ir_module_free(m);
	return 0;
}
