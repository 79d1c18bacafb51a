/*
** safetensors.h: reading and writing graft's parameter files in the
** safetensors format.
**
** A safetensors file is an 8-byte little-endian header length N, then N
** bytes of UTF-8 JSON mapping tensor names to
** {"dtype": "F32", "shape": [...], "data_offsets": [begin, end]} (plus an
** optional "__metadata__" object of strings), then the data buffer, with
** offsets relative to its start.  The tensors must cover the buffer
** exactly: no gaps, no overlaps.
**
** graft maps the safetensors dtypes BOOL U8 I8 I16 U16 I32 U32 I64 F16 F32
** F64 to the DType of the same width and kind; the others (BF16, U64,
** F8_*, ...) are rejected.  "__metadata__" is checked but not kept.
**
** Errors are reported as "PATH: error: message", never by crashing: the
** reader validates every byte it relies on.
*/
#ifndef GRAFT_SAFETENSORS_H
#define GRAFT_SAFETENSORS_H

#include <stddef.h>
#include <stdint.h>

#include "ir.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct StTensor {
	const char *name;      /* NUL-terminated UTF-8, owned by the StFile */
	DType dtype;
	int rank;
	int64_t *dims;         /* rank entries, each >= 0 */
	const void *data;      /* little-endian, row-major, nbytes bytes;
	                          aligned to the element size */
	size_t nbytes;
} StTensor;

/* A file read into memory.  t[0..n) are in the order of the JSON header.
** A zeroed StFile is empty and may be passed to ir_st_find and ir_st_free. */
typedef struct StFile {
	StTensor *t;
	uint32_t n;
	/* private */
	Arena mem;             /* t, names, dims, index, realigned tensors */
	uint32_t *byname;      /* indices of t sorted by name, in mem */
	void *buf;             /* the data buffer (malloc'ed) */
} StFile;

/* Reads the safetensors file at path into *out.  Returns 0 on success; on
** failure returns -1, leaves *out zeroed and writes "PATH: error: ..." (no
** trailing newline) into err (if errsz > 0). */
int ir_st_read(const char *path, StFile *out, char *err, size_t errsz);

/* Same for the len bytes at buf, named `name` in messages.  The StFile
** keeps its own copy of the data; buf may be freed afterwards. */
int ir_st_read_mem(const char *name, const void *buf, size_t len, StFile *out,
                   char *err, size_t errsz);

/* The tensor called name, or NULL. */
const StTensor *ir_st_find(const StFile *f, const char *name);

/* Releases everything f owns and zeroes it. */
void ir_st_free(StFile *f);

/* Writes the n tensors t to path in the given order.  The bytes depend only
** on the arguments: header keys in order, JSON without whitespace, padded
** with spaces to a multiple of 8 bytes, data back to back.  The file is
** written through ir_out_open(), so a failure leaves an existing file
** intact, and a device or FIFO is written to, not replaced.  Returns 0, or -1
** with "PATH: error: ..." in err. */
int ir_st_write(const char *path, const StTensor *t, uint32_t n, char *err, size_t errsz);

#ifdef __cplusplus
}
#endif

#endif
