/*
** npy.c: the .npy harness.  Any input: read, with no crash or leak; what
** reads writes back (np.save's bytes) and reads again to the same tensor.
*/
#include <stdlib.h>
#include <string.h>

#include "npy.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Tensor t, u;
	char err[256];
	unsigned char *out;
	size_t n;

	if (npy_read_mem("fuzz.npy", data, size, &t, err, sizeof err) != 0)
		return 0;
	FZ_CHECK(npy_encode("fuzz.npy", &t, &out, &n, err, sizeof err) == 0, "a tensor read does not write");
	FZ_CHECK(npy_read_mem("again.npy", out, n, &u, err, sizeof err) == 0, "what graft writes it does not read");
	FZ_CHECK(u.dt == t.dt && u.rank == t.rank && !memcmp(u.dims, t.dims, t.rank * sizeof *t.dims) &&
	         !memcmp(u.data, t.data, ir_tensor_bytes(&t)), "read, written and read again: another tensor");
	free(out);
	ir_tensor_free(&t);
	ir_tensor_free(&u);
	return 0;
}
