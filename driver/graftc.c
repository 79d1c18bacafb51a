/*
** graftc.c: the rules compiler's command.
**
**   graftc [-o OUT.c] [--header OUT.h] [--line] [-I DIR ...] FILE.rules
**   graftc check FILE.rules
**
** Exit status: 0 on success, 1 after errors in the rules (each reported as
** file:line:col: error: ...), 2 on a usage error.  Output files are written
** whole or not at all.
*/
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dsl.h"
#include "verify.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "dev"
#endif

static const char usage[] =
	"usage: graftc [-o OUT.c] [--header OUT.h] [--line] [-I DIR ...] FILE.rules\n"
	"       graftc check FILE.rules\n"
	"       graftc fmt [-w | --check] FILE.rules ...\n"
	"       graftc lsp [-I DIR ...]\n"
	"       graftc verify [--seed N] [--instances N] [--tries N] [--out DIR] FILE.rules ...\n"
	"\n"
	"Compiles a .rules file into a C matcher (docs/rules.md), or only checks it.\n"
	"\n"
	"  -o FILE        write the C source to FILE (default: standard output)\n"
	"  --header FILE  also write a header declaring the ruleset and its externs\n"
	"  --line         #line directives back to the .rules file, for debuggers\n"
	"                 (they change with every line moved above them, so leave\n"
	"                 them out of generated code that is committed)\n"
	"  --no-line      none (the default)\n"
	"  -I DIR         look for included files in DIR too (after the including\n"
	"                 file's folder; the shipped rulesets are looked for last)\n"
	"  -Wall, -Wno-all, -Werror, -Wname, -Wno-name\n"
	"                 warnings, all on by default: unused-binding (a name\n"
	"                 bound and never read; _name is not), unused-pattern,\n"
	"                 constant-guard, unused-include, shadowed-dtype; -Werror\n"
	"                 makes them\n"
	"                 errors\n"
	"  --version      print graftc's version\n"
	"\n"
	"graftc fmt writes a file in the canonical layout (docs/rules.md) to\n"
	"standard output; -w rewrites the files in place; --check lists those\n"
	"that are not so laid out and exits 1 if any is not.  graftc lsp is a\n"
	"language server for editors, on standard input and output.\n";

/* cantwrite: reports that an output file cannot be written */
static void
cantwrite(const IrOut *f)
{
	fprintf(stderr, "graftc: error: %s: %s\n", f->path, f->msg);
}

/* fmt: graftc fmt [-w | --check] FILE...; the exit status */
static int
fmt(int argc, char **argv)
{
	int write = 0, check = 0, status = 0, nfiles = 0;

	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "-w"))
			write = 1;
		else if (!strcmp(argv[i], "--check"))
			check = 1;
		else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "graftc: error: fmt: unknown option '%s'\n", argv[i]);
			return 2;
		} else
			nfiles++;
	}
	if (!nfiles || (write && check) || (!write && !check && nfiles > 1)) {
		fprintf(stderr, "usage: graftc fmt [-w | --check] FILE.rules ... (one file without -w or --check)\n");
		return 2;
	}
	for (int i = 2; i < argc; i++) {
		char *text, *out;
		size_t len, outlen;
		const char *what, *why;
		if (argv[i][0] == '-' && argv[i][1])
			continue;
		if (ir_read_file(argv[i], (size_t)1 << 28, &text, &len, &what) != 0) {
			fprintf(stderr, "graftc: error: cannot %s '%s': %s\n", what, argv[i], strerror(errno));
			status = 1;
			continue;
		}
		if (dsl_fmt(text, len, &out, &outlen, &why) != 0) {
			fprintf(stderr, "graftc: error: %s: %s\n", argv[i], why);
			free(text);
			status = 1;
			continue;
		}
		if (check) {
			if (outlen != len || memcmp(out, text, len)) {
				printf("%s\n", argv[i]);
				status = status ? status : 1;
			}
		} else if (write) {
			IrOut o;
			if (outlen != len || memcmp(out, text, len)) {
				if (ir_out_open(&o, argv[i], 0) != 0) {
					cantwrite(&o);
					status = 1;
				} else {
					fwrite(out, 1, outlen, o.f);
					if (ir_out_commit(&o) != 0) {
						cantwrite(&o);
						status = 1;
					}
				}
			}
		} else {
			fwrite(out, 1, outlen, stdout);
		}
		free(text);
		free(out);
	}
	return status;
}

int
main(int argc, char **argv)
{
	const char *in = NULL, *out = NULL, *header = NULL;
	int checkonly = 0, lines = 0, status = 1;
	const char **incdirs = NULL, **wflags = NULL;
	uint32_t ninc = 0, capinc = 0, nw = 0, capw = 0;
	char exe[4096];
	Module *m;
	Diag d;
	Rules r;

	if (argc > 1 && strcmp(argv[1], "fmt") == 0)
		return fmt(argc, argv);
	if (argc > 1 && strcmp(argv[1], "verify") == 0) {
		VerifyOpts vo = { 1, 8, 400, NULL };
		int worst = 0, nf = 0;
		for (int i = 2; i < argc; i++) {
			char *end = NULL;
			if ((!strcmp(argv[i], "--seed") || !strcmp(argv[i], "--instances") || !strcmp(argv[i], "--tries") ||
			     !strcmp(argv[i], "--out")) && i + 1 < argc) {
				const char *a = argv[i++];
				if (!strcmp(a, "--out")) {
					vo.out = argv[i];
					continue;
				}
				unsigned long long v = strtoull(argv[i], &end, 10);
				if (!*argv[i] || *end || (strcmp(a, "--seed") && (v == 0 || v > 1000000))) {
					fprintf(stderr, "graftc: error: %s takes a number\n", a);
					return 2;
				}
				if (!strcmp(a, "--seed"))
					vo.seed = v;
				else if (!strcmp(a, "--instances"))
					vo.instances = (uint32_t)v;
				else if (!strcmp(a, "--tries"))
					vo.tries = (uint32_t)v;
			} else if (argv[i][0] == '-') {
				fprintf(stderr, "graftc: error: verify: unknown option '%s'\n", argv[i]);
				return 2;
			} else {
				nf++;
			}
		}
		if (!nf) {
			fprintf(stderr, "usage: graftc verify [--seed N] [--instances N] [--tries N] [--out DIR] FILE.rules ...\n");
			return 2;
		}
		for (int i = 2; i < argc; i++) {
			int rc;
			if (!strcmp(argv[i], "--seed") || !strcmp(argv[i], "--instances") || !strcmp(argv[i], "--tries") ||
			    !strcmp(argv[i], "--out")) {
				i++;
				continue;
			}
			rc = verify_file(argv[i], &vo, stdout, stderr);
			worst = rc > worst ? rc : worst;
		}
		return worst;
	}
	if (argc > 1 && strcmp(argv[1], "lsp") == 0) {
		const char **dirs = ir_xcalloc((size_t)argc, sizeof *dirs);
		uint32_t nd = 0;
		int rc;
		for (int i = 2; i < argc; i++) {
			if (!strcmp(argv[i], "-I") && i + 1 < argc)
				dirs[nd++] = argv[++i];
			else if (!strncmp(argv[i], "-I", 2) && argv[i][2])
				dirs[nd++] = argv[i] + 2;
		}
		rc = dsl_lsp(stdin, stdout, dirs, nd);
		free(dirs);
		return rc;
	}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			fputs(usage, stdout);
			free(incdirs);
			free(wflags);
			return 0;
		} else if (strcmp(a, "--version") == 0) {
			printf("graftc (graft) %s\n", PACKAGE_VERSION);
			free(incdirs);
			return 0;
		} else if (strcmp(a, "-I") == 0 && i + 1 < argc) {
			ir_vgrow(&incdirs, &capinc, ninc + 1);
			incdirs[ninc++] = argv[++i];
		} else if (strncmp(a, "-I", 2) == 0 && a[2]) {
			ir_vgrow(&incdirs, &capinc, ninc + 1);
			incdirs[ninc++] = a + 2;
		} else if (strncmp(a, "-W", 2) == 0) {
			Rules probe;
			memset(&probe, 0, sizeof probe);
			if (!dsl_warning_flag(&probe, a)) {
				fprintf(stderr, "graftc: error: unknown warning option '%s' (-Wall, -Werror, -Wunused-binding, "
				        "-Wunused-pattern, -Wconstant-guard, -Wunused-include, -Wshadowed-dtype, and -Wno- of each)\n", a);
				free(incdirs);
				free(wflags);
				return 2;
			}
			ir_vgrow(&wflags, &capw, nw + 1);
			wflags[nw++] = a;
		} else if (strcmp(a, "check") == 0 && i == 1) {
			checkonly = 1;
		} else if (strcmp(a, "--no-line") == 0 || strcmp(a, "--line") == 0) {
			lines = a[2] == 'l';
		} else if ((strcmp(a, "-o") == 0 || strcmp(a, "--header") == 0) && i + 1 < argc) {
			*(a[1] == 'o' ? &out : &header) = argv[++i];
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "graftc: error: unknown option '%s'\nTry 'graftc --help'.\n", a);
			free(incdirs);
			return 2;
		} else if (in) {
			fprintf(stderr, "graftc: error: more than one rules file given\n");
			free(incdirs);
			return 2;
		} else {
			in = a;
		}
	}
	if (!in) {
		fprintf(stderr, "graftc: error: no rules file given\nTry 'graftc --help'.\n");
		free(incdirs);
		return 2;
	}

	m = ir_module_new();
	ir_diag_init(&d, stderr, m);
	d.prog = "graftc";
	dsl_rules_init(&r, m, &d);
	r.declops = 1;
	r.warn = W_ALL;         /* every warning, unless -Wno-... */
	for (uint32_t i = 0; i < nw; i++)
		dsl_warning_flag(&r, wflags[i]);
	for (uint32_t i = 0; i < ninc; i++)
		dsl_include_dir(&r, incdirs[i]);
	/* an installed graftc moved elsewhere finds the rulesets installed
	   beside it (BIN/../share/graft/rulesets) */
	{
		ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 32);
		char *slash;
		if (n > 0) {
			exe[n] = 0;
			if ((slash = strrchr(exe, '/'))) {
				strcpy(slash, "/../share/graft/rulesets");
				dsl_include_dir(&r, exe);
			}
		}
	}

	/* the pipeline: parse, check, compile, emit; the rules that parsed are
	   checked even after a syntax error elsewhere, to report more at once */
	dsl_parse(&r, in);
	if (r.name)
		dsl_check(&r);
	if (!d.errors && r.werror && d.warnings) {
		fprintf(stderr, "graftc: error: %d warning%s, and -Werror makes them errors\n", d.warnings,
		        d.warnings == 1 ? "" : "s");
		goto done;
	}
	if (d.errors || dsl_compile(&r))
		goto done;
	if (checkonly) {
		/* what the emitter checks before it writes: check reports all
		   that compiling would (dsl_check should have found it all) */
		status = dsl_guards(&r) == 0 ? 0 : 1;
		goto done;
	}
	{
		/* the matcher and its header are put in place both or neither */
		EmitOpts eo = { out, header, lines };
		IrOut c, h;
		if (ir_out_open(&c, out ? out : "-", 0) != 0) {
			cantwrite(&c);
			goto done;
		}
		if (header && ir_out_open(&h, header, 0) != 0) {
			cantwrite(&h);
			ir_out_abort(&c);
			goto done;
		}
		if (dsl_emit(&r, c.f, header ? h.f : NULL, &eo) != 0) {
			ir_out_abort(&c);
			if (header)
				ir_out_abort(&h);
		} else if (header && ir_out_commit(&h) != 0) {
			cantwrite(&h);
			ir_out_abort(&c);
		} else if (ir_out_commit(&c) != 0) {
			cantwrite(&c);
		} else {
			status = 0;
		}
	}
done:
	free(incdirs);
	free(wflags);
	dsl_rules_free(&r);
	ir_diag_free(&d);
	ir_module_free(m);
	return status;
}
