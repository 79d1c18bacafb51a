/*
** rules.c: the .rules harness.  Any input: parse, check, compile to
** decision trees and emit C (graftc), and load it as a run-time ruleset
** (interp_load), with no crash, hang or leak.  A file that graftc compiles
** must load at run time too; what loads runs on a small model (a
** ruleset rewrites it, a target table partitions it).
**
** With GRAFT_FUZZ_CC set (the replay in `make check` sets it to the C
** compiler and its flags), the C that graftc emitted is compiled into a
** shared object too, loaded, and run on the same model: the compiled and
** the interpreted ruleset must leave the same module, to the byte.
*/
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsl.h"
#include "interp.h"
#include "partition.h"
#include "rewrite.h"
#include "text.h"
#include "fuzz.h"

/* a small quantized model for a loaded ruleset to run on */
static const char model[] =
	"def @main(%x: Tensor[(1, 4, 4, 4), float32], %w: Tensor[(4, 4, 1, 1), int8]) {\n"
	"  %0 = qnn.quantize(%x, 0.5f, 3, out_dtype=\"uint8\");\n"
	"  %1 = qnn.conv2d(%0, %w, 3, 0, 0.5f, 0.25f, padding=[0, 0, 0, 0], channels=4, kernel_size=[1, 1], out_dtype=\"int32\");\n"
	"  %2 = qnn.requantize(%1, 0.125f, 0, 0.5f, 3, out_dtype=\"int32\");\n"
	"  %3 = clip(%2, a_min=0f, a_max=255f);\n"
	"  %4 = cast(%3, dtype=\"uint8\");\n"
	"  (add(%x, 1f), multiply(%x, %x), nn.relu(%x), %4)\n"
	"}\n";

/* apply: rs on a fresh copy of the model, printed into *out (malloc'ed) */
static void
apply(const Ruleset *rs, char **out)
{
	Module *mm = ir_module_new();
	Diag dd;
	size_t n;
	FILE *f = open_memstream(out, &n);
	PrintOpts po = { 0 };
	int errs;

	FZ_CHECK(f != NULL, "open_memstream");
	ir_diag_init(&dd, f, mm);
	FZ_CHECK(ir_parse(mm, &dd, "model.relay", model, sizeof model - 1) == 0 && ir_infer_types(mm, &dd) == 0,
	         "the harness's model");
	if (rs->target) {
		Partitioner pt;
		memset(&pt, 0, sizeof pt);
		pt.m = mm;
		pt.d = &dd;
		pt.targets = &rs;
		pt.ntargets = 1;
		pt.stop = PS_ALL;
		pt.explain = 1;
		errs = ir_partition(&pt);
		if (!errs)
			ir_partition_explain(f, &pt);
		ir_partition_free(&pt);
	} else {
		RwStats st = { 0 };
		errs = ir_rewrite(mm, rs, &dd, &st);
		free(st.fired);
	}
	if (!errs)
		ir_print(f, mm, &po, NULL);
	fprintf(f, "[%d errors]\n", errs);
	fclose(f);
	ir_diag_free(&dd);
	ir_module_free(mm);
}

/* compiled: the ruleset of the C in cpath, compiled with cc into a shared
** object and loaded (kept loaded: its code may be in use until exit), or
** NULL if the compiler refuses it */
static const Ruleset *
compiled(const char *cc, const char *cpath)
{
	static int k;
	char so[300], cmd[2048], name[128] = "", line[512];
	FILE *c = fopen(cpath, "r");
	void *h;

	FZ_CHECK(c != NULL, "the emitted C");
	while (fgets(line, sizeof line, c))
		if (sscanf(line, "const graft_matcher %127[A-Za-z0-9_] =", name) == 1)
			break;
	fclose(c);
	FZ_CHECK(name[0], "the emitted C defines no graft_matcher");
	snprintf(so, sizeof so, "%.256s.%d.so", cpath, k++);
	snprintf(cmd, sizeof cmd, "%.1000s -shared -fPIC -o %s %s", cc, so, cpath);
	FZ_CHECK(system(cmd) == 0, "the C graftc emitted does not compile");
	h = dlopen(so, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		fprintf(stderr, "%s\n", dlerror());
	FZ_CHECK(h != NULL, "the compiled ruleset does not load");
	remove(so);
	return dlsym(h, name);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *cc = getenv("GRAFT_FUZZ_CC");
	char cpath[256] = "";
	const char *p = fz_file(data, size, ".rules");
	Module *m = ir_module_new();
	Diag d;
	Rules r;
	int ok = 0;

	ir_diag_init(&d, fz_sink(), m);
	dsl_rules_init(&r, m, &d);
	if (dsl_parse(&r, p) == 0 && dsl_check(&r) == 0 && d.errors == 0 && dsl_compile(&r) == 0) {
		FILE *c = fz_sink();
		if (cc && *cc) {
			snprintf(cpath, sizeof cpath, "%s.c", p);
			c = fopen(cpath, "w");
			FZ_CHECK(c != NULL, "the C file");
		}
		ok = dsl_emit(&r, c, fz_sink(), &(EmitOpts){ 0 }) == 0;
		if (c != fz_sink())
			fclose(c);
	}
	dsl_rules_free(&r);
	ir_diag_free(&d);
	ir_module_free(m);
	{
		const Ruleset *rs = interp_load(p, fz_sink());
		FZ_CHECK(rs || !ok, "graftc compiles the file, the run-time loader refuses it");
		if (rs) {
			char *a = NULL;
			apply(rs, &a);
			if (ok && cpath[0]) {
				const Ruleset *crs = compiled(cc, cpath);
				char *b = NULL;
				FZ_CHECK(crs != NULL, "the compiled ruleset's symbol");
				apply(crs, &b);
				if (strcmp(a, b) != 0)
					fprintf(stderr, "--- interpreted\n%s--- compiled\n%s", a, b);
				FZ_CHECK(strcmp(a, b) == 0, "the interpreted and the compiled ruleset disagree");
				free(b);
			}
			free(a);
		}
		if (cpath[0])
			remove(cpath);
		if (rs)
			interp_free(rs);
	}
	return 0;
}
