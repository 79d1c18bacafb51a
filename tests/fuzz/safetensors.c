/*
** safetensors.c: the safetensors harness.  Any input: read, with no
** crash or leak, and every tensor read lies within the file.
*/
#include <stdlib.h>

#include "safetensors.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	StFile f;
	char err[256];

	if (ir_st_read_mem("fuzz.safetensors", data, size, &f, err, sizeof err) != 0)
		return 0;
	ir_st_free(&f);
	return 0;
}
