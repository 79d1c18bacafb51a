/*
** npy.c: unit tests of the .npy reader and writer (formats/npy.c).
**
** The reference bytes below are what NumPy 1.24 (Debian 12's python3-numpy)
** writes, copied from its output so that the test needs no Python; each
** comment gives the call that made them.
*/
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "npy.h"
#include "tap.h"

/* np.save of 2x3 arrays of each dtype (NumPy 1.24): the header after the preamble "\x93NUMPY\x01\x00\x76\x00", and the data */
static const struct { DType dt; const char *hdr; const char *data; size_t dlen; } saved[] = {
	{ DT_BOOL,
	  "{'descr': '|b1', 'fortran_order': False, 'shape': (2, 3), }                                                          \012",
	  "\001\000\001\000\000\001", 6 },
	{ DT_INT8,
	  "{'descr': '|i1', 'fortran_order': False, 'shape': (2, 3), }                                                          \012",
	  "\200\377\000\001\002\177", 6 },
	{ DT_UINT8,
	  "{'descr': '|u1', 'fortran_order': False, 'shape': (2, 3), }                                                          \012",
	  "\000\001\002\200\376\377", 6 },
	{ DT_INT16,
	  "{'descr': '<i2', 'fortran_order': False, 'shape': (2, 3), }                                                          \012",
	  "\000\200\377\377\000\000\001\000\002\001\377\177", 12 },
	{ DT_UINT16,
	  "{'descr': '<u2', 'fortran_order': False, 'shape': (2, 3), }                                                          \012",
	  "\000\000\001\000\002\001\000\200\376\377\377\377", 12 },
	{ DT_INT32,
	  "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }                                                          \012",
	  "\000\000\000\200\377\377\377\377\000\000\000\000\001\000\000\000\004\003\002\001\377\377\377\177", 24 },
	{ DT_UINT32,
	  "{'descr': '<u4', 'fortran_order': False, 'shape': (2, 3), }                                                          \012",
	  "\000\000\000\000\001\000\000\000\004\003\002\001\000\000\000\200\376\377\377\377\377\377\377\377", 24 },
	{ DT_INT64,
	  "{'descr': '<i8', 'fortran_order': False, 'shape': (2, 3), }                                                          \012",
	  "\000\000\000\000\000\000\000\200\377\377\377\377\377\377\377\377\000\000\000\000\000\000\000\000\001\000\000\000\000\000\000\000\010\007\006\005\004\003\002\001\377\377\377\377\377\377\377\177", 48 },
	{ DT_FLOAT16,
	  "{'descr': '<f2', 'fortran_order': False, 'shape': (2, 3), }                                                          \012",
	  "\000\301\000\000\000<\0008\377{\000\200", 12 },
	{ DT_FLOAT32,
	  "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }                                                          \012",
	  "\000\000 \300\000\000\000\000\000\000\200?\315\314\314=\236\311\177\177\000\000\000\200", 24 },
	{ DT_FLOAT64,
	  "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }                                                          \012",
	  "\000\000\000\000\000\000\004\300\000\000\000\000\000\000\000\000\000\000\000\000\000\000\360?\232\231\231\231\231\231\271?\240\310\353\205\363\314\341\177\000\000\000\000\000\000\000\200", 48 },
};
/* np.save(f, np.array(7, dtype='<i4')): a 0-d array */
static const char zerod[] = "\223NUMPY\001\000v\000{'descr': '<i4', 'fortran_order': False, 'shape': (), }                                                              \012\007\000\000\000";
/* np.save(f, np.zeros((2, 0, 3), dtype='<i8')) */
static const char empty[] = "\223NUMPY\001\000v\000{'descr': '<i8', 'fortran_order': False, 'shape': (2, 0, 3), }                                                       \012";
/* np.save(f, np.asfortranarray(np.arange(6, dtype='<i4').reshape(2, 3))) */
static const char fort2[] = "\223NUMPY\001\000v\000{'descr': '<i4', 'fortran_order': True, 'shape': (2, 3), }                                                           \012\000\000\000\000\003\000\000\000\001\000\000\000\004\000\000\000\002\000\000\000\005\000\000\000";
/* np.save(f, np.asfortranarray(np.arange(24, dtype='<i2').reshape(2, 3, 4))) */
static const char fort3[] = "\223NUMPY\001\000v\000{'descr': '<i2', 'fortran_order': True, 'shape': (2, 3, 4), }                                                        \012\000\000\014\000\004\000\020\000\010\000\024\000\001\000\015\000\005\000\021\000\011\000\025\000\002\000\016\000\006\000\022\000\012\000\026\000\003\000\017\000\007\000\023\000\013\000\027\000";
/* np.save(f, np.array([[1, -2, 258], [4, 5, -32768]], dtype='>i2')) */
static const char big_i2[] = "\223NUMPY\001\000v\000{'descr': '>i2', 'fortran_order': False, 'shape': (2, 3), }                                                          \012\000\001\377\376\001\002\000\004\000\005\200\000";
/* np.save(f, np.array([1.5, -0.25], dtype='>f8')) */
static const char big_f8[] = "\223NUMPY\001\000v\000{'descr': '>f8', 'fortran_order': False, 'shape': (2,), }                                                            \012?\370\000\000\000\000\000\000\277\320\000\000\000\000\000\000";
/* np.save(f, np.asfortranarray(np.arange(6, dtype='>u4').reshape(3, 2))) */
static const char big_fort[] = "\223NUMPY\001\000v\000{'descr': '>u4', 'fortran_order': True, 'shape': (3, 2), }                                                           \012\000\000\000\000\000\000\000\002\000\000\000\004\000\000\000\001\000\000\000\003\000\000\000\005";
/* np.lib.format.write_array(f, np.array([1, 2, 3], dtype='u1'), version=(2, 0)) */
static const char v2[] = "\223NUMPY\002\000t\000\000\000{'descr': '|u1', 'fortran_order': False, 'shape': (3,), }                                                          \012\001\002\003";
/* np.lib.format.write_array(f, np.array([1, 2, 3], dtype='u1'), version=(3, 0)) */
static const char v3[] = "\223NUMPY\003\000t\000\000\000{'descr': '|u1', 'fortran_order': False, 'shape': (3,), }                                                          \012\001\002\003";

static char err[512];
static char tmpd[] = "/tmp/graft-npy.XXXXXX";

/* mk: a .npy image of format `major`.0 with header text h and dlen bytes
** of data, into a fresh buffer of *len bytes */
static unsigned char *
mk(int major, const char *h, const void *data, size_t dlen, size_t *len)
{
	size_t pre = major == 1 ? 10 : 12, hl = strlen(h);
	unsigned char *b = malloc(pre + hl + dlen + 1);

	memcpy(b, "\223NUMPY", 6);
	b[6] = (unsigned char)major;
	b[7] = 0;
	for (size_t k = 0; k < pre - 8; k++)
		b[8 + k] = (unsigned char)(hl >> (8 * k));
	memcpy(b + pre, h, hl);
	if (dlen)
		memcpy(b + pre + hl, data, dlen);
	*len = pre + hl + dlen;
	return b;
}

/* rd: reads the n bytes at b as "x.npy"; returns "ok" or the message */
static const char *
rd(const void *b, size_t n)
{
	Tensor t;
	if (npy_read_mem("x.npy", b, n, &t, err, sizeof err) != 0) {
		if (t.data || t.rank)
			return "the tensor is not cleared after an error";
		return err;
	}
	ir_tensor_free(&t);
	return "ok";
}

/* rdh: rd of a 1.0 file with header h and dlen zero bytes of data */
static const char *
rdh(const char *h, size_t dlen)
{
	static unsigned char zeros[4096];
	size_t n;
	unsigned char *b = mk(1, h, zeros, dlen, &n);
	const char *r = rd(b, n);
	free(b);
	return r;
}

/* same: whether t holds dt, shape dims[0..rank) and the bytes data[0..n) */
static int
same(const Tensor *t, DType dt, uint32_t rank, const int64_t *dims, const void *data, size_t n)
{
	if (t->dt != dt || t->rank != rank || ir_tensor_bytes(t) != n || !t->data)
		return 0;
	for (uint32_t i = 0; i < rank; i++)
		if (t->dims[i] != dims[i])
			return 0;
	return memcmp(t->data, data, n) == 0;
}

/* encodes: whether t encodes to the n bytes at want */
static int
encodes(const Tensor *t, const void *want, size_t n)
{
	unsigned char *b;
	size_t len;
	int r;

	if (npy_encode("x.npy", t, &b, &len, err, sizeof err) != 0)
		return 0;
	r = len == n && memcmp(b, want, n) == 0;
	free(b);
	return r;
}

/* path: name in the test's temporary folder */
static const char *
path(const char *name)
{
	static char p[256];
	snprintf(p, sizeof p, "%s/%s", tmpd, name);
	return p;
}

/* putfile: writes n bytes to the temporary file name */
static void
putfile(const char *name, const void *b, size_t n)
{
	FILE *f = fopen(path(name), "wb");
	if (f) {
		fwrite(b, 1, n, f);
		fclose(f);
	}
}

static void
numpy_files(void)
{
	static const int64_t d23[] = { 2, 3 };
	char name[64];

	/* every dtype: read as NumPy wrote it, written back the same, and
	   through a file */
	for (size_t i = 0; i < sizeof saved / sizeof saved[0]; i++) {
		const char *dn = ir_dtype_names[saved[i].dt];
		size_t hl = strlen(saved[i].hdr), n;
		unsigned char *b = malloc(10 + hl + saved[i].dlen);
		Tensor t, u;

		memcpy(b, "\223NUMPY\001\000\166\000", 10);
		memcpy(b + 10, saved[i].hdr, hl);
		memcpy(b + 10 + hl, saved[i].data, saved[i].dlen);
		n = 10 + hl + saved[i].dlen;
		ok(npy_read_mem("x.npy", b, n, &t, err, sizeof err) == 0 &&
		   same(&t, saved[i].dt, 2, d23, saved[i].data, saved[i].dlen), "reads NumPy's 2x3 %s", dn);
		ok(encodes(&t, b, n), "writes a 2x3 %s as NumPy does, byte for byte", dn);
		snprintf(name, sizeof name, "%s.npy", dn);
		ok(npy_write(path(name), &t, err, sizeof err) == 0 && npy_read(path(name), &u, err, sizeof err) == 0 &&
		   same(&u, t.dt, t.rank, t.dims, t.data, ir_tensor_bytes(&t)), "%s round-trips through a file", dn);
		ir_tensor_free(&t);
		ir_tensor_free(&u);
		free(b);
	}
}

static void
layouts(void)
{
	Tensor t;
	int32_t seven = 7, i6[6] = { 0, 1, 2, 3, 4, 5 };
	int16_t i24[24];
	int16_t bi2[6] = { 1, -2, 258, 4, 5, -32768 };
	uint32_t u6[6] = { 0, 1, 2, 3, 4, 5 };
	double f2[2] = { 1.5, -0.25 };
	uint8_t u3[3] = { 1, 2, 3 };
	static const int64_t d0[1] = { 0 }, d203[] = { 2, 0, 3 }, d23[] = { 2, 3 }, d234[] = { 2, 3, 4 },
	        d32[] = { 3, 2 }, d2[] = { 2 }, d3[] = { 3 };

	for (int i = 0; i < 24; i++)
		i24[i] = (int16_t)i;
	ok(npy_read_mem("x.npy", zerod, sizeof zerod - 1, &t, err, sizeof err) == 0 &&
	   same(&t, DT_INT32, 0, d0, &seven, 4), "reads a 0-d array");
	ok(encodes(&t, zerod, sizeof zerod - 1), "writes a 0-d array as NumPy does");
	ir_tensor_free(&t);
	ok(npy_read_mem("x.npy", empty, sizeof empty - 1, &t, err, sizeof err) == 0 &&
	   t.dt == DT_INT64 && t.rank == 3 && t.dims[0] == 2 && t.dims[1] == 0 && t.dims[2] == 3 &&
	   ir_tensor_bytes(&t) == 0 && t.data, "reads an empty (2, 0, 3) array, with a data pointer");
	ok(encodes(&t, empty, sizeof empty - 1), "writes an empty array as NumPy does");
	ir_tensor_free(&t);
	(void)d203;
	ok(npy_read_mem("x.npy", fort2, sizeof fort2 - 1, &t, err, sizeof err) == 0 &&
	   same(&t, DT_INT32, 2, d23, i6, sizeof i6), "a Fortran-order 2x3 array is read in row order");
	ir_tensor_free(&t);
	ok(npy_read_mem("x.npy", fort3, sizeof fort3 - 1, &t, err, sizeof err) == 0 &&
	   same(&t, DT_INT16, 3, d234, i24, sizeof i24), "a Fortran-order 2x3x4 array is read in row order");
	ir_tensor_free(&t);
	ok(npy_read_mem("x.npy", big_i2, sizeof big_i2 - 1, &t, err, sizeof err) == 0 &&
	   same(&t, DT_INT16, 2, d23, bi2, sizeof bi2), "big-endian int16 is read little-endian");
	ir_tensor_free(&t);
	ok(npy_read_mem("x.npy", big_f8, sizeof big_f8 - 1, &t, err, sizeof err) == 0 &&
	   same(&t, DT_FLOAT64, 1, d2, f2, sizeof f2), "big-endian float64 is read little-endian");
	ir_tensor_free(&t);
	ok(npy_read_mem("x.npy", big_fort, sizeof big_fort - 1, &t, err, sizeof err) == 0 &&
	   same(&t, DT_UINT32, 2, d32, u6, sizeof u6), "big-endian Fortran-order uint32 is swapped and transposed");
	ir_tensor_free(&t);
	ok(npy_read_mem("x.npy", v2, sizeof v2 - 1, &t, err, sizeof err) == 0 &&
	   same(&t, DT_UINT8, 1, d3, u3, 3), "reads format version 2.0");
	ir_tensor_free(&t);
	ok(npy_read_mem("x.npy", v3, sizeof v3 - 1, &t, err, sizeof err) == 0 &&
	   same(&t, DT_UINT8, 1, d3, u3, 3), "reads format version 3.0");
	ir_tensor_free(&t);
	is_str(rdh("{'shape':(3L,),'fortran_order':False,'descr':'|u1'}\n", 3), "ok",
	       "Python 2's headers: keys in any order, long ints");
	is_str(rdh("{\"descr\": \"<i1\", \"fortran_order\": True, \"shape\": (1, 3,),}", 3), "ok",
	       "double quotes, '<' on a one-byte type, trailing commas, no newline");
}

static void
errors(void)
{
	static const char hdr[] = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\n";
	size_t n;
	unsigned char *b;
	char big[9000];

	/* the preamble */
	is_str(rd("", 0), "x.npy: error: not a .npy file: the file is empty", "an empty file");
	is_str(rd("PK\003\004\024\000\000\000\010\000\000\000", 12),
	       "x.npy: error: not a .npy file: it does not start with \"\\x93NUMPY\"", "a zip file is not a .npy file");
	is_str(rd("\223NUM", 4), "x.npy: error: truncated: the file is 4 bytes long, too short for the .npy preamble",
	       "a file cut inside the magic");
	is_str(rd("\223NUMPY\004\000\010\000{}      ", 18),
	       "x.npy: error: unsupported .npy format version 4.0 (graft reads 1.0, 2.0 and 3.0)", "version 4.0");
	is_str(rd("\223NUMPY\001\001\010\000{}      ", 18),
	       "x.npy: error: unsupported .npy format version 1.1 (graft reads 1.0, 2.0 and 3.0)", "version 1.1");
	is_str(rd("\223NUMPY\002\000\010\000\000", 11),
	       "x.npy: error: truncated: the file is 11 bytes long, too short for the version 2.0 preamble of 12 bytes",
	       "a 2.0 preamble cut short");
	is_str(rd("\223NUMPY\001\000\166\000{'descr': '<f4', 'fortran_order': False, 'shape'", 58),
	       "x.npy: error: truncated header: the header is 118 bytes long, the file has 48 after the preamble",
	       "a header cut short");
	b = calloc(1, 12 + NPY_HDR_MAX + 1);
	memcpy(b, "\223NUMPY\002\000\001\000\020\000", 12);
	is_str(rd(b, 12 + NPY_HDR_MAX + 1), "x.npy: error: the header is 1048577 bytes long, more than the limit of 1048576",
	       "a header over the limit");
	free(b);

	/* the header's syntax */
	is_str(rdh("[1, 2]\n", 0), "x.npy: error: the header is not a Python dict: it starts with '['",
	       "a header that is a list");
	is_str(rdh("   \n", 0), "x.npy: error: the header is empty, expected a Python dict", "a blank header");
	is_str(rdh("{'descr': '<f4, 'shape': (2,)}\n", 0), "x.npy: error: header byte 17: expected ',' or '}', found 's'",
	       "a string ended early");
	is_str(rdh("{'descr': '<f4\n", 0), "x.npy: error: header byte 10: unterminated string", "an unterminated string");
	is_str(rdh("{'descr': '<f4', 'fortran_order': False, 'shape': (2,)\n", 0),
	       "x.npy: error: header byte 55: the header ends early, expected ',' or '}'", "a dict never closed");
	is_str(rdh("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), } x\n", 8),
	       "x.npy: error: header byte 58: text after the header dict", "text after the dict");
	is_str(rdh("{'descr': '<f4', 'fortran_order': Flase, 'shape': (2,), }\n", 8),
	       "x.npy: error: header byte 34: expected a value, found 'F'", "a misspelt False");
	is_str(rdh("{'descr': '<f4', 3: False}\n", 0), "x.npy: error: header byte 17: the key 3 is an int, expected a string",
	       "a key that is not a string");
	big[0] = '{';
	memset(big + 1, '(', 8000);
	memcpy(big + 8001, "\n", 2);
	is_str(rdh(big, 0), "x.npy: error: header byte 65: values nested deeper than 64 levels",
	       "8000 nested tuples are not a crash");
	memcpy(big, "{'x': ", 6);
	memset(big + 6, '[', 100);
	memcpy(big + 106, "\n", 2);
	is_str(rdh(big, 0), "x.npy: error: header byte 1: unexpected key 'x' (a .npy header has exactly 'descr', "
	       "'fortran_order' and 'shape')", "an unexpected key");
	memcpy(big, "{'shape': ", 10);
	memset(big + 10, '[', 100);
	memcpy(big + 110, "\n", 2);
	is_str(rdh(big, 0), "x.npy: error: header byte 74: values nested deeper than 64 levels", "nesting is limited");
	is_str(rdh("{'descr': '<f4', 'descr': '<f4'}\n", 0), "x.npy: error: header byte 17: the key 'descr' comes twice",
	       "a key twice");
	is_str(rdh("{'descr': '<f4', 'fortran_order': False}\n", 0), "x.npy: error: the header has no 'shape' key",
	       "a key missing");
	b = mk(3, "{'descr': '\303(', 'fortran_order': False, 'shape': (2,), }\n", "", 0, &n);
	is_str(rd(b, n), "x.npy: error: header byte 11: invalid UTF-8 in a version 3.0 header", "invalid UTF-8 in 3.0");
	free(b);

	/* the header's values */
	is_str(rdh("{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }\n", 16),
	       "x.npy: error: descr '<c8' is NumPy's complex64, which graft does not have", "complex64");
	is_str(rdh("{'descr': '<u8', 'fortran_order': False, 'shape': (2,), }\n", 16),
	       "x.npy: error: descr '<u8' is NumPy's uint64, which graft does not have", "uint64");
	is_str(rdh("{'descr': '<U5', 'fortran_order': False, 'shape': (2,), }\n", 16),
	       "x.npy: error: unknown descr '<U5' (graft reads b1, i1, u1, i2, u2, i4, u4, i8, f2, f4 and f8, "
	       "little- or big-endian)", "a string dtype");
	is_str(rdh("{'descr': '|i4', 'fortran_order': False, 'shape': (2,), }\n", 8),
	       "x.npy: error: descr '|i4' says '|' (no byte order) for a 4-byte type; expected '<' or '>'",
	       "'|' on a 4-byte type");
	is_str(rdh("{'descr': 'f4', 'fortran_order': False, 'shape': (2,), }\n", 8),
	       "x.npy: error: descr 'f4' has no byte order; expected '<', '>' or '|' before 'f4'", "no byte order");
	is_str(rdh("{'descr': [('a', '<i4'), ('b', '<f4')], 'fortran_order': False, 'shape': (2,), }\n", 16),
	       "x.npy: error: 'descr' is a list, a structured dtype; graft reads only plain dtypes such as '<f4'",
	       "a structured dtype");
	is_str(rdh("{'descr': 4, 'fortran_order': False, 'shape': (2,), }\n", 16),
	       "x.npy: error: 'descr' is an int (4), expected a dtype string such as '<f4'", "a descr that is an int");
	is_str(rdh("{'descr': '<f4', 'fortran_order': 0, 'shape': (2,), }\n", 8),
	       "x.npy: error: 'fortran_order' is an int (0), expected True or False", "fortran_order 0");
	is_str(rdh("{'descr': '<f4', 'fortran_order': False, 'shape': [2, 3], }\n", 24),
	       "x.npy: error: 'shape' is a list ([2, 3]), expected a tuple of ints", "a shape that is a list");
	is_str(rdh("{'descr': '<f4', 'fortran_order': False, 'shape': (2), }\n", 8),
	       "x.npy: error: 'shape' is an int ((2)), expected a tuple of ints", "(2) is not a tuple");
	is_str(rdh("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3.0), }\n", 24),
	       "x.npy: error: 'shape' (2, 3.0) is not a tuple of ints", "a float dimension");
	is_str(rdh("{'descr': '<f4', 'fortran_order': False, 'shape': (2, -1), }\n", 0),
	       "x.npy: error: 'shape' (2, -1) has a negative dimension", "a negative dimension");
	is_str(rdh("{'descr': '<f4', 'fortran_order': False, 'shape': (9223372036854775808,), }\n", 0),
	       "x.npy: error: 'shape' (9223372036854775808,) has a dimension larger than 2^63 - 1",
	       "a dimension over 2^63 - 1");
	is_str(rdh("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999999,), }\n", 0),
	       "x.npy: error: 'shape' (99999999999999999999999,) has a dimension larger than 2^63 - 1",
	       "a dimension over 2^64");
	is_str(rdh("{'descr': '|u1', 'fortran_order': False, 'shape': (1, 1, 1, 1, 1, 1, 1, 1, 1), }\n", 1),
	       "x.npy: error: 'shape' (1, 1, 1, 1, 1, 1, 1, 1, 1) has 9 dimensions; graft handles at most 8",
	       "nine dimensions");
	is_str(rdh("{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904, 4), }\n", 8),
	       "x.npy: error: the shape (4611686018427387904, 4) of float32 overflows a 64-bit byte count",
	       "a shape whose size overflows");
	is_str(rdh("{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000000,), }\n", 8),
	       "x.npy: error: truncated: the shape (1000000000000,) of float64 needs 8000000000000 bytes of data, "
	       "the file has 8", "a lying shape allocates nothing");

	/* the data */
	is_str(rdh("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 3, 224, 224), }\n", 1000),
	       "x.npy: error: truncated: the shape (1, 3, 224, 224) of float32 needs 602112 bytes of data, the file has 1000",
	       "data cut short");
	is_str(rdh(hdr, 9), "x.npy: error: trailing data: the shape (2,) of float32 needs 8 bytes of data, the file has 9",
	       "trailing data");
	b = mk(1, "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }\n", "\001\000\002", 3, &n);
	is_str(rd(b, n), "x.npy: error: bool element 2 is 0x02, not 0 or 1", "a bool that is 2");
	free(b);
}

static void
files(void)
{
	Tensor t = { DT_INT8, 1, { 3 }, NULL }, u;
	static const char hdr[] = "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 3, 224, 224), }\n";
	unsigned char *b, zeros[1000] = { 0 };
	char want[512];
	size_t n;

	is_int(npy_read(path("none.npy"), &u, err, sizeof err), -1, "a missing file");
	snprintf(want, sizeof want, "%s: error: cannot open: No such file or directory", path("none.npy"));
	is_str(err, want, "a missing file: the message");
	snprintf(want, sizeof want, "%s: error: cannot read: it is a directory", tmpd);
	npy_read(tmpd, &u, err, sizeof err);
	is_str(err, want, "a directory");
	b = mk(1, hdr, zeros, 1000, &n);
	putfile("cut.npy", b, n);
	free(b);
	npy_read(path("cut.npy"), &u, err, sizeof err);
	snprintf(want, sizeof want, "%s: error: truncated: the shape (1, 3, 224, 224) of float32 needs 602112 bytes "
	         "of data, the file has 1000", path("cut.npy"));
	is_str(err, want, "a truncated file");
	putfile("short.npy", "\223NUMPY\001\000", 8);
	npy_read(path("short.npy"), &u, err, sizeof err);
	snprintf(want, sizeof want, "%s: error: truncated: the file is 8 bytes long, too short for the version 1.0 "
	         "preamble of 10 bytes", path("short.npy"));
	is_str(err, want, "a file of 8 bytes");

	/* the writer */
	is_int(npy_write(path("nodata.npy"), &t, err, sizeof err), -1, "a tensor without data is refused");
	snprintf(want, sizeof want, "%s: error: cannot write a tensor of shape (3,): it has no data", path("nodata.npy"));
	is_str(err, want, "a tensor without data: the message");
	ok(access(path("nodata.npy"), F_OK) != 0, "a write refused leaves no file");
	t.dims[0] = -1;
	npy_write("y.npy", &t, err, sizeof err);
	is_str(err, "y.npy: error: cannot write a tensor of shape (-1,): a negative dimension", "a negative dimension");
	t.dt = DT_VOID;
	npy_write("y.npy", &t, err, sizeof err);
	is_str(err, "y.npy: error: cannot write a tensor of dtype 0", "an invalid dtype");
	t.dt = DT_INT8;
	t.dims[0] = 3;
	t.data = (unsigned char *)"abc";
	is_int(npy_write("/nonexistent/dir/y.npy", &t, err, sizeof err), -1, "a folder that does not exist");
	is_str(err, "/nonexistent/dir/y.npy: error: cannot create a temporary file beside it: No such file or directory",
	       "a folder that does not exist: the message says so");
	putfile("old.npy", "old", 3);
	ok(npy_write(path("old.npy"), &t, err, sizeof err) == 0 && npy_read(path("old.npy"), &u, err, sizeof err) == 0 &&
	   u.dims[0] == 3 && memcmp(u.data, "abc", 3) == 0, "a write replaces an existing file");
	ir_tensor_free(&u);
}

int
main(void)
{
	char cmd[300];

	plan_lazy();
	if (!mkdtemp(tmpd)) {
		perror("mkdtemp");
		return 1;
	}
	numpy_files();
	layouts();
	errors();
	files();
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpd);
	if (system(cmd) != 0)
		return 1;
	return done_testing();
}
