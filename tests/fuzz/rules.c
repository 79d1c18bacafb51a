/*
** rules.c: the .rules harness.  Any input: parse, check, compile to
** decision trees and emit C (graftc), and load it as a run-time ruleset
** (interp_load), with no crash, hang or leak.  A file that graftc compiles
** must load at run time too; what loads runs on a small model (a
** ruleset rewrites it, a target table partitions it).
*/
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

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = fz_file(data, size, ".rules");
	Module *m = ir_module_new();
	Diag d;
	Rules r;
	int compiled = 0;

	ir_diag_init(&d, fz_sink(), m);
	dsl_rules_init(&r, m, &d);
	if (dsl_parse(&r, p) == 0 && dsl_check(&r) == 0 && d.errors == 0 && dsl_compile(&r) == 0) {
		compiled = dsl_emit(&r, fz_sink(), fz_sink(), &(EmitOpts){ 0 }) == 0;
	}
	dsl_rules_free(&r);
	ir_diag_free(&d);
	ir_module_free(m);
	{
		const Ruleset *rs = interp_load(p, fz_sink());
		FZ_CHECK(rs || !compiled, "graftc compiles the file, the run-time loader refuses it");
		if (rs) {
			Module *mm = ir_module_new();
			Diag dd;
			ir_diag_init(&dd, fz_sink(), mm);
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
				ir_partition(&pt);
				ir_partition_free(&pt);
			} else {
				RwStats st = { 0 };
				ir_rewrite(mm, rs, &dd, &st);
				free(st.fired);
			}
			ir_diag_free(&dd);
			ir_module_free(mm);
		}
		if (rs)
			interp_free(rs);
	}
	return 0;
}
