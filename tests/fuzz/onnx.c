/*
** onnx.c: the ONNX harness.  Any input: import, with no crash, hang or
** leak; a model that imports type-checks, passes the verifier and prints.
*/
#include <stdlib.h>

#include "onnx.h"
#include "text.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = fz_file(data, size, ".onnx");
	Module *m = ir_module_new();
	Diag d;

	ir_diag_init(&d, fz_sink(), m);
	if (onnx_import(m, p, &d) == 0) {
		PrintOpts po = { 0 };
		FZ_CHECK(m->typed && ir_verify(m, &d) == 0, "an imported model is not typed as inference types it");
		ir_print(fz_sink(), m, &po, NULL);
	}
	ir_diag_free(&d);
	ir_module_free(m);
	return 0;
}
