/*
** conformance.c: the ONNX conformance runner (to come): ONNX's node tests
** imported, run on every backend and compared with their expected
** outputs.  For now it checks that the frontend's API is linked and
** answers: a missing model is one error, a missing tensor file an error
** message naming it.
*/
#include <string.h>

#include "onnx.h"
#include "tap.h"

int
main(void)
{
	Module *m = ir_module_new();
	Diag d;
	Tensor t;
	char err[512];

	plan_lazy();
	ir_diag_init(&d, NULL, m);
	is_int(onnx_import(m, "no/such/model.onnx", &d), 1, "a missing model is one error");
	ok(!ir_global_find(m, ir_symz(m, "main")), "and makes no @main");
	is_int(onnx_read_tensor("no/such/input_0.pb", &t, err, sizeof err), -1, "a missing tensor file fails");
	ok(strncmp(err, "no/such/input_0.pb: error: cannot open", 38) == 0, "naming the file: %s", err);
	ok(t.data == NULL, "and leaves the tensor empty");
	ir_diag_free(&d);
	ir_module_free(m);
	return done_testing();
}
