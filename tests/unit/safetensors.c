/*
** tests/unit/safetensors.c: unit tests of the safetensors reader and
** writer (formats/safetensors.c).
**
** Covers a write->read->write round trip of every dtype (with rank 0,
** zero-size tensors and names full of escapes), the exact bytes of a small
** written file, writer failures that must leave an existing file alone,
** headers the reader must accept (unknown keys, escapes, metadata,
** whitespace) and malformed inputs, each checked for its exact message.
** With a path in argv[1], it also reads the file written by
** tests/data/make_safetensors.py and checks its contents; the two must
** agree on the table below.
**
** Values are compared as host integers and floats, so the host is assumed
** to be little-endian, like the format.
*/
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ir.h"
#include "safetensors.h"
#include "tap.h"

static char err[1024];

/* slurp: the contents of path (malloc'ed, length in *n), or NULL */
static unsigned char *
slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	unsigned char *b = NULL;
	size_t cap = 0, k;

	*n = 0;
	if (!f)
		return NULL;
	do {
		if (*n == cap)
			b = ir_xrealloc(b, cap = cap ? 2 * cap : 4096);
		k = fread(b + *n, 1, cap - *n, f);
		*n += k;
	} while (k);
	fclose(f);
	return b;
}

/* rdraw: reads buf[0..len) as "m.st"; returns "ok" or the message */
static const char *
rdraw(const void *buf, size_t len)
{
	StFile f;

	err[0] = 0;
	if (ir_st_read_mem("m.st", buf, len, &f, err, sizeof err) == 0) {
		ir_st_free(&f);
		return "ok";
	}
	return err;
}

/* mkfile: le64(hlen) + hdr + dlen bytes of data (value = offset & 0xff) */
static unsigned char *
mkfile(const char *hdr, size_t hlen, size_t dlen, size_t *len)
{
	unsigned char *b = ir_xmalloc(8 + hlen + dlen);

	for (int i = 0; i < 8; i++)
		b[i] = (unsigned char)((uint64_t)hlen >> (8 * i));
	memcpy(b + 8, hdr, hlen);
	for (size_t i = 0; i < dlen; i++)
		b[8 + hlen + i] = (unsigned char)i;
	*len = 8 + hlen + dlen;
	return b;
}

/* rd: reads a file with header hdr and dlen data bytes */
static const char *
rd(const char *hdr, size_t dlen)
{
	size_t len;
	unsigned char *b = mkfile(hdr, strlen(hdr), dlen, &len);
	const char *r = rdraw(b, len);
	free(b);
	return r;
}

/* ---------------------------------------------------------------- round trip */

/* roundtrip: write -> read -> write of every dtype; writer errors */
static void
roundtrip(const char *dir)
{
	static const uint8_t vb[] = {1, 0, 1};
	static const int8_t vi8[] = {-128, 0, 127, 5};
	static const uint8_t vu8[] = {0, 255};
	static const int16_t vi16[] = {-32768, 32767, 1, 2, 3, 4};
	static const uint16_t vu16[] = {65535};
	static const int32_t vi32[] = {-1, 2, -3};
	static const uint32_t vu32[] = {4000000000u, 1};
	static const int64_t vi64[] = {INT64_MIN};
	static const uint16_t vf16[] = {0x3c00, 0xc000};
	static const float vf32[] = {1.5f, -0.25f, 3e38f, 0, 1, 2};
	static const double vf64[] = {0.1, -1e300};
	static int64_t d3[] = {3}, d4[] = {4}, d2[] = {2}, d23[] = {2, 3}, d1[] = {1},
	               d0[] = {0, 5}, d321[] = {3, 2, 1};
	static const char *const esc = "ctl\x01\x1f \"q\" \\ / \xc3\xa9 \xf0\x9f\x98\x80 \n\t\r\b\f\x7f";
	const StTensor t[] = {
		{"mask", DT_BOOL, 1, d3, vb, sizeof vb},
		{"meta[relay.Constant][0]", DT_INT8, 1, d4, vi8, sizeof vi8},
		{"u8", DT_UINT8, 1, d2, vu8, sizeof vu8},
		{"features.0.0_weight", DT_INT16, 3, d321, vi16, sizeof vi16},
		{"u16 scalar", DT_UINT16, 0, NULL, vu16, sizeof vu16},
		{esc, DT_INT32, 1, d3, vi32, sizeof vi32},
		{"u32", DT_UINT32, 1, d2, vu32, sizeof vu32},
		{"empty", DT_FLOAT32, 2, d0, NULL, 0},
		{"i64", DT_INT64, 0, NULL, vi64, sizeof vi64},
		{"f16", DT_FLOAT16, 1, d2, vf16, sizeof vf16},
		{"f32", DT_FLOAT32, 2, d23, vf32, sizeof vf32},
		{"f64", DT_FLOAT64, 1, d2, vf64, sizeof vf64},
		{"", DT_UINT8, 1, d1, vu8, 1},
	};
	enum { N = sizeof t / sizeof t[0] };
	char p1[256], p2[256], want[2048];
	StFile f;
	size_t n1, n2;
	uint64_t hlen = 0;
	unsigned char *b1, *b2;
	int good = 1;

	snprintf(p1, sizeof p1, "%s/st_test_%ld_a.safetensors", dir, (long)getpid());
	snprintf(p2, sizeof p2, "%s/st_test_%ld_b.safetensors", dir, (long)getpid());

	is_int(ir_st_write(p1, t, N, err, sizeof err), 0, "write %d tensors of every dtype", N);
	if (err[0])
		printf("# %s\n", err);
	is_int(ir_st_read(p1, &f, err, sizeof err), 0, "read them back");
	is_int(f.n, N, "tensor count");
	for (int i = 0; i < N && i < (int)f.n; i++) {
		const StTensor *a = &t[i], *b = &f.t[i];
		int same = strcmp(a->name, b->name) == 0 && a->dtype == b->dtype &&
		           a->rank == b->rank && a->nbytes == b->nbytes &&
		           (a->rank == 0 || memcmp(a->dims, b->dims, a->rank * sizeof *a->dims) == 0) &&
		           (a->nbytes == 0 || memcmp(a->data, b->data, a->nbytes) == 0) &&
		           b->data != NULL && b->dims != NULL &&
		           (uintptr_t)b->data % ir_dtype_bytes[b->dtype] == 0;
		if (!same) {
			printf("# tensor %d differs\n", i);
			good = 0;
		}
	}
	ok(good, "names, dtypes, shapes and data survive, in order, aligned");
	good = 1;
	for (int i = 0; i < N && i < (int)f.n; i++)
		if (ir_st_find(&f, t[i].name) != &f.t[i])
			good = 0;
	ok(good, "ir_st_find finds every tensor");
	ok(ir_st_find(&f, "nope") == NULL && ir_st_find(&f, "f6") == NULL &&
	   ir_st_find(&f, "f640") == NULL, "ir_st_find: NULL for a missing name");

	is_int(ir_st_write(p2, f.t, f.n, err, sizeof err), 0, "write what was read");
	b1 = slurp(p1, &n1);
	b2 = slurp(p2, &n2);
	ok(b1 && b2 && n1 == n2 && memcmp(b1, b2, n1) == 0,
	   "rewriting gives the same bytes (escaped names round-trip)");
	if (b1 && n1 >= 8)
		for (int i = 7; i >= 0; i--)
			hlen = hlen << 8 | b1[i];
	ok(hlen % 8 == 0 && hlen > 0 && hlen <= n1 - 8, "header length is a multiple of 8");
	ok(b1 && n1 > 9 && b1[8] == '{', "header starts with '{'");
	free(b1);
	free(b2);
	ir_st_free(&f);
	ok(f.n == 0 && f.t == NULL && ir_st_find(&f, "mask") == NULL, "ir_st_free empties the file");

	/* failures leave the existing file alone */
	b1 = slurp(p1, &n1);
	{
		StTensor dup[2] = {t[0], t[0]};
		is_int(ir_st_write(p1, dup, 2, err, sizeof err), -1, "duplicate names rejected");
		snprintf(want, sizeof want, "%s: error: duplicate tensor name \"mask\"", p1);
		is_str(err, want, "... with a message");
		dup[1].name = "other";
		dup[1].nbytes = 2;
		ir_st_write(p1, dup, 2, err, sizeof err);
		snprintf(want, sizeof want, "%s: error: tensor \"other\": shape [3] of BOOL is 3 bytes, "
		         "but nbytes is 2", p1);
		is_str(err, want, "nbytes mismatch rejected");
		dup[1].nbytes = 3;
		dup[1].name = "__metadata__";
		ir_st_write(p1, dup, 2, err, sizeof err);
		snprintf(want, sizeof want, "%s: error: tensor \"__metadata__\": the name is reserved", p1);
		is_str(err, want, "__metadata__ as a name rejected");
		dup[1].name = "bad\xff";
		ir_st_write(p1, dup, 2, err, sizeof err);
		snprintf(want, sizeof want, "%s: error: tensor 1: name is not valid UTF-8", p1);
		is_str(err, want, "invalid UTF-8 name rejected");
	}
	b2 = slurp(p1, &n2);
	ok(b1 && b2 && n1 == n2 && memcmp(b1, b2, n1) == 0, "the existing file is untouched");
	free(b1);
	free(b2);
	{
		char bad[400];
		snprintf(bad, sizeof bad, "%s/no-such-dir-%ld/x.safetensors", dir, (long)getpid());
		is_int(ir_st_write(bad, t, 1, err, sizeof err), -1, "writing into a missing directory fails");
		snprintf(want, sizeof want, "%s: error: cannot create a temporary file beside it: No such file or directory",
		         bad);
		is_str(err, want, "... saying so");
	}
	snprintf(p2, sizeof p2, "%s/st_test_%ld_b.safetensors", dir, (long)getpid());
	remove(p1);
	remove(p2);
	is_int(ir_st_read(p1, &f, err, sizeof err), -1, "reading a missing file fails");
	snprintf(want, sizeof want, "%s: error: cannot open: No such file or directory", p1);
	is_str(err, want, "... with the path and reason");
	ok(f.n == 0 && f.t == NULL, "... and leaves the StFile empty");
}

/* ---------------------------------------------------------------- files */

/* fileerrs: errors found while reading from a file rather than memory */
static void
fileerrs(const char *dir)
{
	char path[256], want[1024];
	StFile f;
	FILE *fp;

	snprintf(path, sizeof path, "%s/st_test_%ld_s.safetensors", dir, (long)getpid());
	fp = fopen(path, "wb");
	fwrite("\x10\0\0", 1, 3, fp);
	fclose(fp);
	is_int(ir_st_read(path, &f, err, sizeof err), -1, "reading a 3-byte file fails");
	snprintf(want, sizeof want, "%s: error: file is 3 bytes long, too short for the 8-byte "
	         "header length", path);
	is_str(err, want, "... as too short");
	fp = fopen(path, "wb");
	fwrite("\x10\0\0\0\0\0\0\0{}", 1, 10, fp);
	fclose(fp);
	ir_st_read(path, &f, err, sizeof err);
	snprintf(want, sizeof want, "%s: error: header length 16 exceeds the 2 bytes that follow it",
	         path);
	is_str(err, want, "header length larger than the file, read from a file");
	fp = fopen(path, "wb");
	fwrite("\x08\0\0\0\0\0\0\0{}      \x01\x02", 1, 18, fp);
	fclose(fp);
	ir_st_read(path, &f, err, sizeof err);
	snprintf(want, sizeof want, "%s: error: data bytes [0, 2) at the end of the buffer belong "
	         "to no tensor", path);
	is_str(err, want, "a semantic error, read from a file");
	remove(path);
	ir_st_read(dir, &f, err, sizeof err);
	snprintf(want, sizeof want, "%s: error: cannot read: Is a directory", dir);
	is_str(err, want, "reading a directory fails cleanly");
}

/* ---------------------------------------------------------------- exact bytes */

/* exactbytes: the writer's output, byte for byte */
static void
exactbytes(const char *dir)
{
	static const float va[] = {1.0f, 2.0f};
	static const uint8_t vb[] = {7};
	static int64_t d2[] = {2};
	static const unsigned char want[] =
		"\x70\0\0\0\0\0\0\0"
		"{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
		"\"b\":{\"dtype\":\"U8\",\"shape\":[],\"data_offsets\":[8,9]}}       "
		"\x00\x00\x80\x3f\x00\x00\x00\x40"
		"\x07";
	const StTensor t[] = {
		{"a", DT_FLOAT32, 1, d2, va, sizeof va},
		{"b", DT_UINT8, 0, NULL, vb, 1},
	};
	char path[512];
	unsigned char *got;
	size_t n;

	snprintf(path, sizeof path, "%s/st_test_%ld_x.safetensors", dir, (long)getpid());
	is_int(ir_st_write(path, t, 2, err, sizeof err), 0, "write a two-tensor file");
	got = slurp(path, &n);
	is_int(n, sizeof want - 1, "file size is 8 + 112 + 9");
	ok(got && n == sizeof want - 1 && memcmp(got, want, n) == 0, "bytes are exactly as expected");
	free(got);
	remove(path);

	snprintf(path, sizeof path, "%s/st_test_%ld_y.safetensors", dir, (long)getpid());
	is_int(ir_st_write(path, NULL, 0, err, sizeof err), 0, "write an empty file");
	got = slurp(path, &n);
	ok(got && n == 16 && memcmp(got, "\x08\0\0\0\0\0\0\0{}      ", 16) == 0,
	   "empty file: \"{}\" padded to 8 bytes");
	free(got);
	remove(path);
}

/* ---------------------------------------------------------------- accepted headers */

/* accepted: unusual but valid headers */
static void
accepted(void)
{
	static const char hdr[] =
		"{ \"__metadata__\" : {\"k\":\"v\", \"\\u00e9\":\"\\\"\"} ,\n"
		"\t\"\\u00e9\\ud83d\\ude00\\/\" : { \"extra\":[{\"x\":[true,false,null,-1.5e3,0,{}]}],"
		" \"dtype\":\"U8\", \"shape\":[ 2 ], \"data_offsets\":[0,2], \"more\": \"s\" },\r\n"
		"\"z\":{\"data_offsets\":[2,2],\"shape\":[0, 3],\"dtype\":\"F64\"},"
		"\"s\":{\"dtype\":\"I32\",\"shape\":[],\"data_offsets\":[3,7]},"
		"\"e\":{\"dtype\":\"I16\",\"shape\":[-0],\"data_offsets\":[7,7]},"
		"\"c\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[2,3]}}   ";
	size_t len;
	unsigned char *b = mkfile(hdr, strlen(hdr), 7, &len);
	StFile f;
	int32_t s;

	is_int(ir_st_read_mem("m.st", b, len, &f, err, sizeof err), 0,
	       "escapes, unknown keys, metadata, whitespace, key order accepted");
	if (err[0] && f.n == 0)
		printf("# %s\n", err);
	free(b);    /* the StFile keeps its own copy */
	is_int(f.n, 5, "five tensors");
	if (f.n == 5) {
		is_str(f.t[0].name, "\xc3\xa9\xf0\x9f\x98\x80/", "\\u escapes and surrogate pairs decoded");
		ok(f.t[0].dtype == DT_UINT8 && f.t[0].rank == 1 && f.t[0].dims[0] == 2 &&
		   memcmp(f.t[0].data, "\x00\x01", 2) == 0, "first tensor's type and data");
		ok(f.t[1].dtype == DT_FLOAT64 && f.t[1].rank == 2 && f.t[1].dims[0] == 0 &&
		   f.t[1].dims[1] == 3 && f.t[1].nbytes == 0, "zero-size tensor in the middle");
		memcpy(&s, f.t[2].data, 4);
		ok(f.t[2].rank == 0 && f.t[2].nbytes == 4 && s == 0x06050403 &&
		   (uintptr_t)f.t[2].data % 4 == 0, "misaligned scalar copied to aligned memory");
		ok(f.t[3].rank == 1 && f.t[3].dims[0] == 0, "-0 is a dimension of 0");
		is_str(f.t[4].name, "c", "tensors kept in header order, not offset order");
	}
	ir_st_free(&f);
	is_str(rd("{}", 0), "ok", "an empty header and buffer");
	is_str(rd("{\"__metadata__\":{}}", 0), "ok", "metadata only");
}

/* ---------------------------------------------------------------- malformed inputs */

#define W(rest) "{\"w\":{\"dtype\":\"F32\"," rest "}}"

/* malformed: invalid inputs, each with its exact message */
static void
malformed(void)
{
	unsigned char b[64];
	char deep[1024], want[256];
	size_t len, at;
	unsigned char *p;

	memcpy(b, "\x05\0\0\0\0", 5);
	is_str(rdraw(b, 5), "m.st: error: file is 5 bytes long, too short for the 8-byte header length",
	       "file shorter than 8 bytes");
	is_str(rdraw(b, 0), "m.st: error: file is 0 bytes long, too short for the 8-byte header length",
	       "empty file");
	memcpy(b, "\x64\0\0\0\0\0\0\0{}        ", 18);
	is_str(rdraw(b, 18), "m.st: error: header length 100 exceeds the 10 bytes that follow it",
	       "header length larger than the file");
	memcpy(b, "\x00\xc2\xeb\x0b\0\0\0\0{}", 10);
	is_str(rdraw(b, 10), "m.st: error: header length 200000000 exceeds the limit of 100000000 bytes",
	       "header length over 100 MB");
	memcpy(b, "\xff\xff\xff\xff\xff\xff\xff\xff", 8);
	is_str(rdraw(b, 8), "m.st: error: header length 18446744073709551615 exceeds the limit of "
	       "100000000 bytes", "header length 2^64-1");
	is_str(rd("", 0), "m.st: error: header byte 0: unexpected end of header, expected '{'",
	       "empty header");
	is_str(rd(" {}", 0), "m.st: error: header byte 0: expected '{', found byte 0x20",
	       "header not starting with '{'");
	is_str(rd("[]", 0), "m.st: error: header byte 0: expected '{', found '['", "header is an array");
	is_str(rd("{\"a\" {}}", 0), "m.st: error: header byte 5: expected ':', found '{'",
	       "JSON syntax: missing ':'");
	is_str(rd("{\"a\\q\":{}}", 0), "m.st: error: header byte 3: invalid escape '\\q'",
	       "JSON syntax: bad escape");
	is_str(rd("{\"a\":{},}", 0), "m.st: error: tensor \"a\": missing \"dtype\"",
	       "semantic error comes first");
	is_str(rd("{\"w\":{\"dtype\":\"F3", 0), "m.st: error: header byte 14: unterminated string",
	       "JSON syntax: truncated string");
	is_str(rd(W("\"shape\":[1],\"data_offsets\":[0,4]"), 4), "ok", "(a well-formed base case)");
	is_str(rd(W("\"shape\":[1],\"data_offsets\":[0,4],}"), 4),
	       "m.st: error: header byte 53: expected a string key, found '}'",
	       "JSON syntax: trailing comma");
	is_str(rd(W("\"shape\":[1] \"data_offsets\":[0,4]"), 4),
	       "m.st: error: header byte 32: expected ',' or '}', found '\"'",
	       "JSON syntax: missing comma");
	is_str(rd(W("\"shape\":[01],\"data_offsets\":[0,4]"), 4),
	       "m.st: error: header byte 30: expected ',' or ']', found '1'",
	       "JSON syntax: leading zero");
	is_str(rd(W("\"shape\":[1],\"data_offsets\":[0,4],\"x\":tru"), 4),
	       "m.st: error: header byte 57: expected a value, found 't'",
	       "JSON syntax: bad literal in a skipped value");
	is_str(rd(W("\"shape\":[1],\"data_offsets\":[0,4],\"x\":-"), 4),
	       "m.st: error: header byte 57: invalid number", "JSON syntax: bad number");
	is_str(rd("{} x", 0), "m.st: error: header byte 3: unexpected data after the header object",
	       "data after the header object");
	is_str(rd("{\"\xff\":{}}", 0), "m.st: error: header byte 2: invalid UTF-8 in string",
	       "invalid UTF-8");
	is_str(rd("{\"\xed\xa0\x80\":{}}", 0), "m.st: error: header byte 2: invalid UTF-8 in string",
	       "UTF-8-encoded surrogate");
	is_str(rd("{\"a\tb\":{}}", 0), "m.st: error: header byte 3: control character 0x09 in string",
	       "raw control character in a string");
	is_str(rd("{\"\\ud800x\":{}}", 0), "m.st: error: header byte 2: unpaired surrogate \\ud800",
	       "unpaired high surrogate");
	is_str(rd("{\"\\udc00\":{}}", 0), "m.st: error: header byte 2: unpaired surrogate \\udc00",
	       "lone low surrogate");
	is_str(rd("{\"\\u12g4\":{}}", 0), "m.st: error: header byte 2: invalid \\u escape",
	       "bad hex digit in \\u");
	is_str(rd("{\"a\\u0000\":{}}", 0),
	       "m.st: error: header byte 1: tensor name \"a\\u0000\" contains U+0000",
	       "U+0000 in a name");

	is_str(rd("{\"w\":[1]}", 0), "m.st: error: tensor \"w\": entry is an array, expected an object",
	       "entry not an object");
	is_str(rd("{\"w\":{\"shape\":[1],\"data_offsets\":[0,4]}}", 4),
	       "m.st: error: tensor \"w\": missing \"dtype\"", "missing dtype");
	is_str(rd(W("\"data_offsets\":[0,4]"), 4), "m.st: error: tensor \"w\": missing \"shape\"",
	       "missing shape");
	is_str(rd("{\"x\\\"y\\n\":{\"dtype\":\"U8\",\"shape\":[]}}", 1),
	       "m.st: error: tensor \"x\\\"y\\n\": missing \"data_offsets\"",
	       "missing data_offsets, name escaped in the message");
	is_str(rd("{\"w\":{\"dtype\":7,\"shape\":[1],\"data_offsets\":[0,4]}}", 4),
	       "m.st: error: tensor \"w\": dtype is a number, expected a string", "dtype not a string");
	is_str(rd(W("\"shape\":\"2\",\"data_offsets\":[0,8]"), 8),
	       "m.st: error: tensor \"w\": shape is a string, expected an array", "shape not an array");
	is_str(rd(W("\"shape\":[1],\"data_offsets\":{}"), 4),
	       "m.st: error: tensor \"w\": data_offsets is an object, expected an array",
	       "data_offsets not an array");
	is_str(rd(W("\"shape\":[2,-3],\"data_offsets\":[0,24]"), 24),
	       "m.st: error: tensor \"w\": shape[1] = -3 is not a non-negative integer", "negative dim");
	is_str(rd(W("\"shape\":[2.5],\"data_offsets\":[0,8]"), 8),
	       "m.st: error: tensor \"w\": shape[0] = 2.5 is not a non-negative integer",
	       "fractional dim");
	is_str(rd(W("\"shape\":[1e2],\"data_offsets\":[0,8]"), 8),
	       "m.st: error: tensor \"w\": shape[0] = 1e2 is not a non-negative integer",
	       "dim with an exponent");
	is_str(rd(W("\"shape\":[null],\"data_offsets\":[0,8]"), 8),
	       "m.st: error: tensor \"w\": shape[0] is null, expected a non-negative integer",
	       "null dim");
	is_str(rd(W("\"shape\":[9223372036854775808],\"data_offsets\":[0,8]"), 8),
	       "m.st: error: tensor \"w\": shape[0] = 9223372036854775808 is too large",
	       "dim over 2^63-1");
	is_str(rd(W("\"shape\":[1],\"data_offsets\":[0,\"4\"]"), 4),
	       "m.st: error: tensor \"w\": data_offsets[1] is a string, expected a non-negative integer",
	       "offset not a number");
	is_str(rd(W("\"shape\":[1],\"data_offsets\":[0,18446744073709551616]"), 4),
	       "m.st: error: tensor \"w\": data_offsets[1] = 18446744073709551616 is too large",
	       "offset over 2^64-1");
	is_str(rd(W("\"shape\":[1],\"data_offsets\":[0,4,8]"), 4),
	       "m.st: error: tensor \"w\": data_offsets has 3 entries, expected 2",
	       "three data_offsets");
	is_str(rd(W("\"shape\":[1],\"data_offsets\":[4]"), 4),
	       "m.st: error: tensor \"w\": data_offsets has 1 entries, expected 2", "one data_offset");
	is_str(rd(W("\"shape\":[1],\"shape\":[1],\"data_offsets\":[0,4]"), 4),
	       "m.st: error: tensor \"w\": duplicate key \"shape\"", "duplicate key in an entry");
	is_str(rd("{\"w\":{\"dtype\":\"BF16\",\"shape\":[1],\"data_offsets\":[0,2]}}", 2),
	       "m.st: error: tensor \"w\": dtype BF16 is not supported", "BF16 rejected");
	is_str(rd("{\"w\":{\"dtype\":\"U64\",\"shape\":[1],\"data_offsets\":[0,8]}}", 8),
	       "m.st: error: tensor \"w\": dtype U64 is not supported", "U64 rejected");
	is_str(rd("{\"w\":{\"dtype\":\"F8_E4M3\",\"shape\":[1],\"data_offsets\":[0,1]}}", 1),
	       "m.st: error: tensor \"w\": dtype F8_E4M3 is not supported", "F8_E4M3 rejected");
	is_str(rd("{\"w\":{\"dtype\":\"f32\",\"shape\":[1],\"data_offsets\":[0,4]}}", 4),
	       "m.st: error: tensor \"w\": unknown dtype \"f32\"", "unknown dtype");
	is_str(rd(W("\"shape\":[2,3],\"data_offsets\":[0,20]"), 20),
	       "m.st: error: tensor \"w\": shape [2, 3] of F32 is 24 bytes, but data_offsets [0, 20] "
	       "span 20", "size does not match the offsets");
	is_str(rd(W("\"shape\":[4294967296,4294967296],\"data_offsets\":[0,0]"), 0),
	       "m.st: error: tensor \"w\": shape [4294967296, 4294967296] of F32 overflows a 64-bit "
	       "byte count", "overflow in the byte count");
	is_str(rd(W("\"shape\":[4611686018427387904],\"data_offsets\":[0,0]"), 0),
	       "m.st: error: tensor \"w\": shape [4611686018427387904] of F32 overflows a 64-bit "
	       "byte count", "overflow in dim * element size");
	is_str(rd(W("\"shape\":[4294967296,4294967296,0],\"data_offsets\":[0,0]"), 0), "ok",
	       "huge dims times a zero dim are 0 bytes");
	is_str(rd(W("\"shape\":[0],\"data_offsets\":[8,4]"), 8),
	       "m.st: error: tensor \"w\": data_offsets [8, 4]: end is before begin", "end < begin");
	is_str(rd(W("\"shape\":[2],\"data_offsets\":[0,8]"), 4),
	       "m.st: error: tensor \"w\": data_offsets [0, 8] extend past the end of the 4-byte data "
	       "buffer", "offsets beyond the buffer");
	is_str(rd("{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
	          "\"b\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,8]}}", 8),
	       "m.st: error: tensor \"b\" (data_offsets [4, 8]) overlaps tensor \"a\" "
	       "(data_offsets [0, 8])", "overlapping tensors");
	is_str(rd("{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
	          "\"z\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[4,4]}}", 8),
	       "m.st: error: tensor \"z\" (data_offsets [4, 4]) overlaps tensor \"a\" "
	       "(data_offsets [0, 8])", "zero-size tensor inside another");
	is_str(rd("{\"b\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[8,12]},"
	          "\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}", 12),
	       "m.st: error: data bytes [4, 8) before tensor \"b\" belong to no tensor",
	       "gap between tensors");
	is_str(rd(W("\"shape\":[1],\"data_offsets\":[0,4]"), 8),
	       "m.st: error: data bytes [4, 8) at the end of the buffer belong to no tensor",
	       "uncovered bytes at the end");
	is_str(rd("{}", 3), "m.st: error: data bytes [0, 3) at the end of the buffer belong to no tensor",
	       "data with no tensors");
	is_str(rd("{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]},"
	          "\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[1,2]}}", 2),
	       "m.st: error: header byte 53: duplicate tensor name \"a\"", "duplicate tensor names");
	is_str(rd("{\"\\u0061\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]},"
	          "\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[1,2]}}", 2),
	       "m.st: error: header byte 58: duplicate tensor name \"a\"",
	       "duplicate names after decoding escapes");
	is_str(rd("{\"__metadata__\":{\"k\":1}}", 0),
	       "m.st: error: \"__metadata__\" entry \"k\" is a number, expected a string",
	       "metadata value not a string");
	is_str(rd("{\"__metadata__\":[]}", 0),
	       "m.st: error: \"__metadata__\" is an array, expected an object of strings",
	       "metadata not an object");
	is_str(rd("{\"__metadata__\":{},\"__metadata__\":{}}", 0),
	       "m.st: error: header byte 19: duplicate \"__metadata__\"", "metadata twice");

	/* nesting: the '[' at depth 129 is refused */
	strcpy(deep, W("\"shape\":[1],\"data_offsets\":[0,4],\"x\":"));
	len = strlen(deep) - 2;
	at = len;
	memset(deep + len, '[', 300);
	deep[len + 300] = 0;
	snprintf(want, sizeof want, "m.st: error: header byte %zu: nesting deeper than 128 levels",
	         at + 126);
	is_str(rd(deep, 4), want, "deeply nested value");

	/* a header length that cuts the JSON short */
	p = mkfile("{\"w\":{}}", 4, 0, &len);
	is_str(rdraw(p, len), "m.st: error: header byte 4: unexpected end of header, expected ':'",
	       "header length cuts the JSON");
	free(p);
}

/* ---------------------------------------------------------------- python file */

/* pyfile: the file written by tests/data/make_safetensors.py, or a SKIP */
static void
pyfile(const char *path)
{
	static const float f32[] = {1.5f, -2.0f, 3.25f, 0.0f};
	static const int64_t i64[] = {1, -2, (int64_t)1 << 40};
	static const uint16_t u16[] = {65535};
	static const uint8_t mask[] = {1, 0};
	static const uint16_t f16[] = {0x3c00, 0xc000};
	static const double f64[] = {0.1};
	static const int32_t i32[] = {-7, 2147483647};
	static const uint8_t u8[] = {0, 128, 255};
	static const int16_t i16[] = {-32768};
	static const uint32_t u32[] = {4294967295u};
	static const int8_t i8[] = {-128, 127};
	static const struct {
		const char *name;
		DType dt;
		int rank;
		int64_t dims[3];
		const void *data;
		size_t nbytes;
	} want[] = {
		{"features.0.0_weight", DT_FLOAT32, 2, {2, 2}, f32, sizeof f32},
		{"meta[relay.Constant][0]", DT_INT64, 1, {3}, i64, sizeof i64},
		{"b\xc3\xa9ta \"q\"\\", DT_UINT16, 0, {0}, u16, sizeof u16},
		{"emoji \xf0\x9f\x98\x80", DT_INT8, 1, {0}, NULL, 0},
		{"mask", DT_BOOL, 2, {2, 1}, mask, sizeof mask},
		{"half", DT_FLOAT16, 1, {2}, f16, sizeof f16},
		{"f64", DT_FLOAT64, 1, {1}, f64, sizeof f64},
		{"i32", DT_INT32, 1, {2}, i32, sizeof i32},
		{"u8", DT_UINT8, 1, {3}, u8, sizeof u8},
		{"i16", DT_INT16, 3, {1, 1, 1}, i16, sizeof i16},
		{"u32", DT_UINT32, 1, {1}, u32, sizeof u32},
		{"i8", DT_INT8, 1, {2}, i8, sizeof i8},
	};
	enum { N = sizeof want / sizeof want[0] };
	StFile f;

	if (!path) {
		tap_n++;
		printf("ok %d # SKIP no python-written file\n", tap_n);
		return;
	}
	if (!is_int(ir_st_read(path, &f, err, sizeof err), 0, "read the python-written file"))
		printf("# %s\n", err);
	is_int(f.n, N, "python file: tensor count");
	for (int i = 0; i < N && i < (int)f.n; i++) {
		const StTensor *t = &f.t[i];
		is_str(t->name, want[i].name, "python file: tensor %d's name", i);
		ok(t->dtype == want[i].dt && t->rank == want[i].rank &&
		   memcmp(t->dims, want[i].dims, (size_t)t->rank * sizeof *t->dims) == 0 &&
		   t->nbytes == want[i].nbytes &&
		   (t->nbytes == 0 || memcmp(t->data, want[i].data, t->nbytes) == 0) &&
		   (uintptr_t)t->data % ir_dtype_bytes[t->dtype] == 0,
		   "python file: %s has the right dtype, shape and values", ir_dtype_names[want[i].dt]);
		ok(ir_st_find(&f, want[i].name) == t, "python file: found by name");
	}
	ir_st_free(&f);
}

/* main: argv[1] is the python-written file, if any */
int
main(int argc, char **argv)
{
	const char *dir = getenv("TMPDIR");

	if (!dir || !*dir)
		dir = "/tmp";
	plan_lazy();
	roundtrip(dir);
	fileerrs(dir);
	exactbytes(dir);
	accepted();
	malformed();
	pyfile(argc > 1 ? argv[1] : NULL);
	return done_testing();
}
