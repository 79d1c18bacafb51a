/*
** lsp.c: the language server harness.  Any input on the server's standard
** input (JSON-RPC messages with their Content-Length headers, or garbage):
** no crash, hang or leak.
*/
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>

#include "dsl.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *in = fmemopen((void *)data, size, "rb");

	if (!in)
		return 0;       /* fmemopen refuses an empty buffer on some libcs */
	dsl_lsp(in, fz_sink(), NULL, 0);
	fclose(in);
	return 0;
}
