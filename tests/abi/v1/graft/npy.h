/*
** npy.h: NumPy's .npy tensor files (formats/npy.c).
**
** The reader takes format versions 1.0, 2.0 and 3.0 holding one of the
** dtypes graft has (b1 i1 u1 i2 u2 i4 u4 i8 f2 f4 f8), in either byte
** order, in C or Fortran order; it returns a row-major, little-endian
** Tensor (ir.h).  The writer writes what NumPy 1.24's np.save writes,
** byte for byte: format 1.0 (2.0 when the header needs more than 65535
** bytes), 64-byte aligned data.
**
** Errors are "NAME: error: what is wrong" in the caller's buffer, NAME
** being the file's path.  Ownership: a Tensor read holds fresh data,
** freed with ir_tensor_free(); the writer borrows its tensor.
*/
#ifndef GRAFT_NPY_H
#define GRAFT_NPY_H

#include <stddef.h>

#include "ir.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
	NPY_HDR_MAX = 1 << 20,  /* the longest header read, in bytes */
};

/*
** npy_read: reads the .npy file at path into *t.  Returns 0, or -1 with
** the message in err[0..errsz) and *t cleared.  Never allocates more
** than the file's size plus a constant.
*/
int npy_read(const char *path, Tensor *t, char *err, size_t errsz);

/*
** npy_read_mem: the same for the len bytes at buf, named `name` in
** messages; *t gets its own copy of the data.
*/
int npy_read_mem(const char *name, const void *buf, size_t len, Tensor *t,
                 char *err, size_t errsz);

/*
** npy_encode: t as the bytes of a .npy file, in a fresh buffer *out of
** *len bytes (free() it).  Returns 0, or -1 with a message naming `name`
** if t is not a valid tensor (dtype, rank, a negative dim, no data).
*/
int npy_encode(const char *name, const Tensor *t, unsigned char **out, size_t *len,
               char *err, size_t errsz);

/*
** npy_write: writes t to path as a .npy file through ir_out_open(): a
** regular file whole or not at all (synced), a device or FIFO directly.
** Returns 0, or -1 with the message in err and a regular file untouched.
*/
int npy_write(const char *path, const Tensor *t, char *err, size_t errsz);

/*
** npy_shapestr: t's shape as NumPy prints it, "(1, 3)", "(5,)" or "()",
** into buf[0..size) (cut short with "...)" if it does not fit); returns buf.
*/
const char *npy_shapestr(char *buf, size_t size, const int64_t *dims, uint32_t rank);

#ifdef __cplusplus
}
#endif

#endif
