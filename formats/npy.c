/*
** npy.c: NumPy's .npy tensor files.
**
** A .npy file is a preamble (the magic "\x93NUMPY", a major and minor
** version byte, and the header length: 2 bytes little-endian in 1.0, 4 in
** 2.0 and 3.0), a header that is the text of a Python dict literal with
** exactly the keys 'descr', 'fortran_order' and 'shape' (latin-1 in 1.0
** and 2.0, UTF-8 in 3.0), then the raw data, nothing after it.
**
** The reader checks the preamble against the file's size before reading
** the header (at most NPY_HDR_MAX bytes), parses the header with a small
** recursive-descent parser of Python literals (strings, ints, floats,
** True/False/None, tuples, lists, dicts; nested at most DEPTH_MAX deep) so
** that a malformed header is reported at its byte, then checks that the
** data are exactly as long as the shape needs before allocating them: no
** header can make it allocate more than the file holds.  Big-endian data
** are swapped and Fortran-order data transposed, so every Tensor read is
** row-major and little-endian.  Every index into the input is checked
** before use.
**
** The writer emits what NumPy 1.24's np.save emits for the same array:
** the dict with keys in sorted order, spare spaces so that the first dim
** can grow in place, padding that aligns the data to 64 bytes, a newline.
** It writes through ir_out_open() (ir/file.c), so a regular file is
** replaced whole or not at all and a device or FIFO is written to.
*/
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "npy.h"

enum {
	DEPTH_MAX = 64,         /* nesting allowed in header values */
	QBUF = 96,              /* room for a quoted value in a message */
	SBUF = 32,              /* room for a decoded string value */
	ALIGN = 64,             /* NumPy's ARRAY_ALIGN */
	GROWTH_DIGITS = 21,     /* NumPy's GROWTH_AXIS_MAX_DIGITS */
};

static const unsigned char magic[6] = { 0x93, 'N', 'U', 'M', 'P', 'Y' };

/* The .npy type code (after the byte order) of each DType.  ORDER DType. */
static const char *const codes[DT_COUNT] = {
	[DT_BOOL] = "b1",
	[DT_INT8] = "i1",
	[DT_UINT8] = "u1",
	[DT_INT16] = "i2",
	[DT_UINT16] = "u2",
	[DT_INT32] = "i4",
	[DT_UINT32] = "u4",
	[DT_INT64] = "i8",
	[DT_FLOAT16] = "f2",
	[DT_FLOAT32] = "f4",
	[DT_FLOAT64] = "f8",
};

/* NumPy type codes graft has no DType for, with NumPy's names. */
static const char *const others[][2] = {
	{ "u8", "uint64" }, { "f16", "float128" }, { "f12", "float96" },
	{ "c8", "complex64" }, { "c16", "complex128" }, { "c32", "complex256" },
	{ "O", "object" }, { "O8", "object" }, { "V", "void" }, { NULL, NULL },
};

/* ---------------------------------------------------------------- errors */

/* Where messages go: "name: error: ..." into buf[0..size). */
typedef struct Err {
	const char *name;
	char *buf;
	size_t size;
} Err;

/* fail: writes the message; returns -1 */
static int __attribute__((format(printf, 2, 3)))
fail(const Err *e, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (!e->buf || !e->size)
		return -1;
	k = snprintf(e->buf, e->size, "%s: error: ", e->name ? e->name : "(null)");
	if (k >= 0 && (size_t)k < e->size) {
		va_start(ap, fmt);
		vsnprintf(e->buf + k, e->size - (size_t)k, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* quote: the header text s[0..n) for a message, into q[QBUF]: printable
** ASCII as is, other bytes as \xNN, cut short with "..." if too long;
** returns q */
static const char *
quote(char *q, const unsigned char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = s[i];
		size_t len = c >= 0x20 && c < 0x7f ? 1 : 4;
		if (k + len + 4 > QBUF) {
			memcpy(q + k, "...", 3);
			k += 3;
			break;
		}
		if (len == 1) {
			q[k++] = (char)c;
		} else {
			q[k++] = '\\';
			q[k++] = 'x';
			q[k++] = hex[c >> 4];
			q[k++] = hex[c & 15];
		}
	}
	q[k] = 0;
	return q;
}

/* npy_shapestr: see npy.h */
const char *
npy_shapestr(char *buf, size_t size, const int64_t *dims, uint32_t rank)
{
	size_t k = 1;

	if (size < 8) {
		if (size)
			buf[0] = 0;
		return buf;
	}
	buf[0] = '(';
	for (uint32_t i = 0; i < rank; i++) {
		char num[32];
		int m = snprintf(num, sizeof num, "%s%lld", i ? ", " : "", (long long)dims[i]);
		if (k + (size_t)m + 6 > size) {
			memcpy(buf + k, "...", 3);
			k += 3;
			break;
		}
		memcpy(buf + k, num, (size_t)m);
		k += (size_t)m;
	}
	if (rank == 1 && buf[k - 1] != '.')
		buf[k++] = ',';
	buf[k++] = ')';
	buf[k] = 0;
	return buf;
}

/* ---------------------------------------------------------------- utilities */

/* ---------------------------------------------------------------- header parser */

/* The kinds of Python literal in a header.  ORDER Kind: kindnames. */
typedef enum Kind {
	V_STR,          /* s[0..slen): the decoded string, its start if long */
	V_INT,          /* neg, v; big if |value| > 2^64 - 1 */
	V_FLOAT,        /* nothing kept */
	V_BOOL,         /* b */
	V_NONE,         /* nothing */
	V_TUPLE,        /* n elements; d[0..min(n, IR_MAXDIMS)) if all ints */
	V_LIST,         /* n elements */
	V_DICT,         /* n members */
} Kind;

static const char *const kindnames[] = {
	"a string", "an int", "a float", "a bool", "None", "a tuple", "a list", "a dict",
};

/* A parsed value: its kind, its text s[at..end) in the header, and what
** its kind keeps. */
typedef struct Val {
	Kind kind;
	size_t at, end;
	char s[SBUF];
	size_t slen;
	int b, neg, big;
	uint64_t v;
	uint32_t n;
	int allint;             /* V_TUPLE, V_LIST: every element an int */
	int negdim, bigdim;     /* V_TUPLE: an element < 0, or > INT64_MAX */
	int64_t d[IR_MAXDIMS];
} Val;

/* The parser: the header text s[0..n) and the position i. */
typedef struct P {
	const Err *e;
	const unsigned char *s;
	size_t n, i;
} P;

/* bad: a syntax error at header byte `at`; returns -1 */
static int __attribute__((format(printf, 3, 4)))
bad(P *p, size_t at, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return fail(p->e, "header byte %zu: %s", at, msg);
}

/* want: "expected WHAT" at the current position; returns -1 */
static int
want(P *p, const char *what)
{
	unsigned char c;

	if (p->i >= p->n)
		return bad(p, p->i, "the header ends early, expected %s", what);
	c = p->s[p->i];
	if (c > 0x20 && c < 0x7f)
		return bad(p, p->i, "expected %s, found '%c'", what, c);
	return bad(p, p->i, "expected %s, found byte 0x%02x", what, c);
}

/* peek: the byte at p->i, or -1 at the end */
static int
peek(const P *p)
{
	return p->i < p->n ? p->s[p->i] : -1;
}

/* ws: skips Python whitespace */
static void
ws(P *p)
{
	while (p->i < p->n && (p->s[p->i] == ' ' || p->s[p->i] == '\t' || p->s[p->i] == '\n' ||
	                       p->s[p->i] == '\r' || p->s[p->i] == '\f' || p->s[p->i] == '\v'))
		p->i++;
}

/* isdig: whether s[i] exists and is a digit */
static int
isdig(const P *p, size_t i)
{
	return i < p->n && p->s[i] >= '0' && p->s[i] <= '9';
}

/* isident: whether c can continue a Python name */
static int
isident(unsigned char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c >= 0x80;
}

/* str: the Python string literal at p->i (a quote) into v; the common
** escapes are decoded, others kept as written (as Python does) */
static int
str(P *p, Val *v)
{
	unsigned char q = p->s[p->i];
	size_t start = p->i;

	v->kind = V_STR;
	v->slen = 0;
	p->i++;
	for (;;) {
		unsigned char c;
		int out;

		if (p->i >= p->n || p->s[p->i] == '\n')
			return bad(p, start, "unterminated string");
		c = p->s[p->i++];
		if (c == q)
			break;
		out = c;
		if (c == '\\') {
			const char *from = "\\'\"ntr0", *to = "\\'\"\n\t\r", *at;
			int x = peek(p);
			if (x < 0)
				return bad(p, start, "unterminated string");
			if (x && (at = strchr(from, x)) != NULL) {
				out = x == '0' ? 0 : to[at - from];
				p->i++;
			} else if (x == 'x') {
				int hi, lo;
				if (p->n - p->i < 3)
					return bad(p, p->i - 1, "invalid \\x escape");
				hi = p->s[p->i + 1];
				lo = p->s[p->i + 2];
				hi = hi >= '0' && hi <= '9' ? hi - '0' : (hi | 0x20) >= 'a' && (hi | 0x20) <= 'f' ? (hi | 0x20) - 'a' + 10 : -1;
				lo = lo >= '0' && lo <= '9' ? lo - '0' : (lo | 0x20) >= 'a' && (lo | 0x20) <= 'f' ? (lo | 0x20) - 'a' + 10 : -1;
				if (hi < 0 || lo < 0)
					return bad(p, p->i - 1, "invalid \\x escape");
				out = hi << 4 | lo;
				p->i += 3;
			}
		}
		if (v->slen < SBUF - 1)
			v->s[v->slen] = (char)out;
		v->slen++;
	}
	v->s[v->slen < SBUF - 1 ? v->slen : SBUF - 1] = 0;
	return 0;
}

/* num: the Python int or float literal at p->i, with a sign and, for
** files that Python 2 wrote, an L suffix */
static int
num(P *p, Val *v)
{
	size_t start = p->i;

	v->kind = V_INT;
	v->neg = v->big = 0;
	v->v = 0;
	if (peek(p) == '-' || peek(p) == '+') {
		v->neg = p->s[p->i] == '-';
		p->i++;
		ws(p);
	}
	if (!isdig(p, p->i) && peek(p) != '.')
		return bad(p, start, "invalid number");
	for (; isdig(p, p->i); p->i++) {
		unsigned dg = p->s[p->i] - '0';
		if (v->v > (UINT64_MAX - dg) / 10)
			v->big = 1;
		else if (!v->big)
			v->v = v->v * 10 + dg;
	}
	if (peek(p) == '.' || peek(p) == 'e' || peek(p) == 'E') {
		v->kind = V_FLOAT;
		if (peek(p) == '.')
			for (p->i++; isdig(p, p->i); p->i++)
				;
		if (peek(p) == 'e' || peek(p) == 'E') {
			p->i++;
			if (peek(p) == '+' || peek(p) == '-')
				p->i++;
			if (!isdig(p, p->i))
				return bad(p, start, "invalid number");
			while (isdig(p, p->i))
				p->i++;
		}
		if (p->i == start + 1 && p->s[start] == '.')
			return bad(p, start, "invalid number");
	} else if (peek(p) == 'L' || peek(p) == 'l') {
		p->i++;
	}
	return 0;
}

static int value(P *p, Val *v, int depth);

/* seq: a tuple, list or dict (opening bracket at p->i) into v; a
** parenthesized value without a comma is that value, as in Python */
static int
seq(P *p, Val *v, int depth)
{
	int open = p->s[p->i], close = open == '(' ? ')' : open == '[' ? ']' : '}';
	int comma = 0;
	Val x;

	v->kind = open == '(' ? V_TUPLE : open == '[' ? V_LIST : V_DICT;
	v->n = 0;
	v->allint = 1;
	v->negdim = v->bigdim = 0;
	p->i++;
	for (;;) {
		ws(p);
		if (peek(p) == close) {
			p->i++;
			break;
		}
		if (v->n && !comma)
			return want(p, close == ')' ? "',' or ')'" : close == ']' ? "',' or ']'" : "',' or '}'");
		if (value(p, &x, depth + 1) < 0)
			return -1;
		if (v->kind == V_DICT) {
			ws(p);
			if (peek(p) != ':')
				return want(p, "':'");
			p->i++;
			ws(p);
			if (value(p, &x, depth + 1) < 0)
				return -1;
		}
		if (x.kind != V_INT)
			v->allint = 0;
		else if (v->kind == V_TUPLE) {
			if (x.neg && x.v)
				v->negdim = 1;
			else if (x.big || x.v > INT64_MAX)
				v->bigdim = 1;
			else if (v->n < IR_MAXDIMS)
				v->d[v->n] = (int64_t)x.v;
		}
		v->n++;
		ws(p);
		comma = peek(p) == ',';
		if (comma)
			p->i++;
	}
	if (open == '(' && v->n == 1 && !comma) {
		size_t at = v->at;
		*v = x;             /* (x) is x */
		v->at = at;
	}
	return 0;
}

/* value: the Python literal at p->i into v */
static int
value(P *p, Val *v, int depth)
{
	static const char *const words[] = { "True", "False", "None" };
	int c;

	ws(p);
	c = peek(p);
	v->at = p->i;
	if (depth > DEPTH_MAX)
		return bad(p, p->i, "values nested deeper than %d levels", DEPTH_MAX);
	if (c == '\'' || c == '"') {
		if (str(p, v) < 0)
			return -1;
	} else if (c == '(' || c == '[' || c == '{') {
		if (seq(p, v, depth) < 0)
			return -1;
	} else if (c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9')) {
		if (num(p, v) < 0)
			return -1;
	} else {
		int k;
		for (k = 0; k < 3; k++) {
			size_t n = strlen(words[k]);
			if (p->n - p->i >= n && memcmp(p->s + p->i, words[k], n) == 0 &&
			    !(p->n - p->i > n && isident(p->s[p->i + n])))
				break;
		}
		if (k == 3)
			return want(p, "a value");
		p->i += strlen(words[k]);
		v->kind = k < 2 ? V_BOOL : V_NONE;
		v->b = k == 0;
	}
	v->end = p->i;
	return 0;
}

/* ---------------------------------------------------------------- reader */

/* What a header says. */
typedef struct Hdr {
	DType dt;
	int swap;               /* big-endian multi-byte elements */
	int fortran;
	uint32_t rank;
	int64_t dims[IR_MAXDIMS];
	uint64_t size;          /* bytes of data the shape needs */
} Hdr;

/* descr: the dtype of the descr string v into h */
static int
descr(P *p, const Val *v, Hdr *h)
{
	char q[QBUF];
	const char *s = v->s, *code;

	quote(q, p->s + v->at, v->end - v->at);
	if (v->slen >= SBUF - 1)
		return fail(p->e, "unknown descr %s", q);
	code = s[0] == '<' || s[0] == '>' || s[0] == '|' || s[0] == '=' ? s + 1 : s;
	for (int t = DT_VOID + 1; t < DT_COUNT; t++)
		if (strcmp(code, codes[t]) == 0) {
			if (code == s || s[0] == '=')
				return fail(p->e, "descr %s has no byte order; expected '<', '>' or '|' before '%s'", q, code);
			if (s[0] == '|' && ir_dtype_bytes[t] > 1)
				return fail(p->e, "descr %s says '|' (no byte order) for a %u-byte type; expected '<' or '>'",
				            q, (unsigned)ir_dtype_bytes[t]);
			h->dt = (DType)t;
			h->swap = s[0] == '>' && ir_dtype_bytes[t] > 1;
			return 0;
		}
	for (int k = 0; others[k][0]; k++)
		if (strcmp(code, others[k][0]) == 0)
			return fail(p->e, "descr %s is NumPy's %s, which graft does not have", q, others[k][1]);
	return fail(p->e, "unknown descr %s (graft reads b1, i1, u1, i2, u2, i4, u4, i8, f2, f4 and f8, "
	            "little- or big-endian)", q);
}

/* header: parses the header text s[0..n) of a version `major` file into h */
static int
header(const Err *e, const unsigned char *s, size_t n, int major, Hdr *h)
{
	static const char *const keys[3] = { "descr", "fortran_order", "shape" };
	P p = { e, s, n, 0 };
	Val key, val[3];
	int seen[3] = { 0, 0, 0 };
	char q[QBUF], sh[128];

	memset(h, 0, sizeof *h);
	if (major == 3)
		for (size_t i = 0, m; i < n; i += m)
			if (!(m = ir_utf8_len(s + i, n - i)))
				return bad(&p, i, "invalid UTF-8 in a version 3.0 header");
	ws(&p);
	if (peek(&p) != '{') {
		if (p.i == n)
			return fail(e, "the header is empty, expected a Python dict");
		return fail(e, "the header is not a Python dict: it starts with '%s'", quote(q, s + p.i, 1));
	}
	p.i++;
	for (int comma = 1;;) {
		int k;
		ws(&p);
		if (peek(&p) == '}') {
			p.i++;
			break;
		}
		if (!comma)
			return want(&p, "',' or '}'");
		if (value(&p, &key, 1) < 0)
			return -1;
		quote(q, s + key.at, key.end - key.at);
		if (key.kind != V_STR)
			return bad(&p, key.at, "the key %s is %s, expected a string", q, kindnames[key.kind]);
		for (k = 0; k < 3 && !(key.slen == strlen(keys[k]) && strcmp(key.s, keys[k]) == 0); k++)
			;
		if (k == 3)
			return bad(&p, key.at, "unexpected key %s (a .npy header has exactly 'descr', "
			           "'fortran_order' and 'shape')", q);
		if (seen[k])
			return bad(&p, key.at, "the key '%s' comes twice", keys[k]);
		seen[k] = 1;
		ws(&p);
		if (peek(&p) != ':')
			return want(&p, "':'");
		p.i++;
		if (value(&p, &val[k], 1) < 0)
			return -1;
		ws(&p);
		comma = peek(&p) == ',';
		if (comma)
			p.i++;
	}
	ws(&p);
	if (p.i < n)
		return bad(&p, p.i, "text after the header dict");
	for (int k = 0; k < 3; k++)
		if (!seen[k])
			return fail(e, "the header has no '%s' key", keys[k]);

	/* descr */
	quote(q, s + val[0].at, val[0].end - val[0].at);
	if (val[0].kind == V_LIST)
		return fail(e, "'descr' is a list, a structured dtype; graft reads only plain "
		            "dtypes such as '<f4'");
	if (val[0].kind != V_STR)
		return fail(e, "'descr' is %s (%s), expected a dtype string such as '<f4'", kindnames[val[0].kind], q);
	if (descr(&p, &val[0], h) < 0)
		return -1;

	/* fortran_order */
	quote(q, s + val[1].at, val[1].end - val[1].at);
	if (val[1].kind != V_BOOL)
		return fail(e, "'fortran_order' is %s (%s), expected True or False", kindnames[val[1].kind], q);
	h->fortran = val[1].b;

	/* shape */
	quote(q, s + val[2].at, val[2].end - val[2].at);
	if (val[2].kind != V_TUPLE)
		return fail(e, "'shape' is %s (%s), expected a tuple of ints", kindnames[val[2].kind], q);
	if (!val[2].allint)
		return fail(e, "'shape' %s is not a tuple of ints", q);
	if (val[2].negdim)
		return fail(e, "'shape' %s has a negative dimension", q);
	if (val[2].bigdim)
		return fail(e, "'shape' %s has a dimension larger than 2^63 - 1", q);
	if (val[2].n > IR_MAXDIMS)
		return fail(e, "'shape' %s has %u dimensions; graft handles at most %d", q, val[2].n, IR_MAXDIMS);
	h->rank = val[2].n;
	memcpy(h->dims, val[2].d, h->rank * sizeof *h->dims);
	if (ir_tensor_nbytes(h->dims, h->rank, ir_dtype_bytes[h->dt], &h->size) < 0)
		return fail(e, "the shape %s of %s overflows a 64-bit byte count",
		            npy_shapestr(sh, sizeof sh, h->dims, h->rank), ir_dtype_names[h->dt]);
	return 0;
}

/* preamble: checks the first n bytes b[] of a file of `size` bytes (n is
** size, or at least 12); sets *major, *hoff (where the header starts) and
** *hlen */
static int
preamble(const Err *e, const unsigned char *b, size_t n, uint64_t size, int *major,
         size_t *hoff, size_t *hlen)
{
	uint64_t len;

	if (size == 0)
		return fail(e, "not a .npy file: the file is empty");
	if (memcmp(b, magic, n < 6 ? n : 6) != 0)
		return fail(e, "not a .npy file: it does not start with \"\\x93NUMPY\"");
	if (size < 8)
		return fail(e, "truncated: the file is %llu bytes long, too short for the .npy preamble",
		            (unsigned long long)size);
	if (b[6] < 1 || b[6] > 3 || b[7] != 0)
		return fail(e, "unsupported .npy format version %u.%u (graft reads 1.0, 2.0 and 3.0)", b[6], b[7]);
	*major = b[6];
	*hoff = *major == 1 ? 10 : 12;
	if (size < *hoff)
		return fail(e, "truncated: the file is %llu bytes long, too short for the version %d.0 preamble of %zu bytes",
		            (unsigned long long)size, *major, *hoff);
	len = (uint64_t)b[8] | (uint64_t)b[9] << 8;
	if (*major > 1)
		len |= (uint64_t)b[10] << 16 | (uint64_t)b[11] << 24;
	if (len > size - *hoff)
		return fail(e, "truncated header: the header is %llu bytes long, the file has %llu after the preamble",
		            (unsigned long long)len, (unsigned long long)(size - *hoff));
	if (len > NPY_HDR_MAX)
		return fail(e, "the header is %llu bytes long, more than the limit of %d",
		            (unsigned long long)len, NPY_HDR_MAX);
	*hlen = (size_t)len;
	return 0;
}

/* datalen: checks that the dlen bytes of data are what h needs */
static int
datalen(const Err *e, const Hdr *h, uint64_t dlen)
{
	char sh[128];

	if (dlen == h->size)
		return 0;
	npy_shapestr(sh, sizeof sh, h->dims, h->rank);
	return fail(e, "%s: the shape %s of %s needs %llu bytes of data, the file has %llu",
	            dlen < h->size ? "truncated" : "trailing data", sh, ir_dtype_names[h->dt],
	            (unsigned long long)h->size, (unsigned long long)dlen);
}

/* finish: makes t from h and the raw data (malloc'ed, h->size bytes, at
** least one), which it takes: swapped to little-endian, transposed to row
** order, bools checked */
static int
finish(const Err *e, const Hdr *h, unsigned char *raw, Tensor *t)
{
	size_t esz = ir_dtype_bytes[h->dt], n = (size_t)(h->size / esz);

	if (h->swap)
		for (size_t i = 0; i < n; i++) {
			unsigned char *x = raw + i * esz;
			for (size_t a = 0, b = esz - 1; a < b; a++, b--) {
				unsigned char c = x[a];
				x[a] = x[b];
				x[b] = c;
			}
		}
	if (h->dt == DT_BOOL)
		for (size_t i = 0; i < n; i++)
			if (raw[i] > 1) {
				unsigned c = raw[i];
				free(raw);
				return fail(e, "bool element %zu is 0x%02x, not 0 or 1", i, c);
			}
	if (h->fortran && h->rank > 1 && n > 1) {
		/* walk the row-major index odometer-wise, keeping the Fortran
		   offset of the same element */
		unsigned char *row = ir_xmalloc((size_t)h->size);
		size_t stride[IR_MAXDIMS], idx[IR_MAXDIMS] = { 0 }, src = 0;
		uint32_t r = h->rank;

		stride[0] = 1;
		for (uint32_t k = 1; k < r; k++)
			stride[k] = stride[k - 1] * (size_t)h->dims[k - 1];
		for (size_t i = 0; i < n; i++) {
			memcpy(row + i * esz, raw + src * esz, esz);
			for (uint32_t k = r; k-- > 0;) {
				src += stride[k];
				if (++idx[k] < (size_t)h->dims[k])
					break;
				src -= stride[k] * idx[k];
				idx[k] = 0;
			}
		}
		free(raw);
		raw = row;
	}
	t->dt = h->dt;
	t->rank = h->rank;
	memcpy(t->dims, h->dims, h->rank * sizeof *h->dims);
	t->data = raw;
	return 0;
}

/* npy_read_mem: see npy.h */
int
npy_read_mem(const char *name, const void *buf, size_t len, Tensor *t, char *err, size_t errsz)
{
	Err e = { name, err, errsz };
	const unsigned char *b = buf;
	unsigned char *raw;
	size_t hoff, hlen;
	int major;
	Hdr h;

	memset(t, 0, sizeof *t);
	if (preamble(&e, b, len < 12 ? len : 12, len, &major, &hoff, &hlen) < 0 ||
	    header(&e, b + hoff, hlen, major, &h) < 0 ||
	    datalen(&e, &h, len - hoff - hlen) < 0)
		return -1;
	raw = ir_xmalloc(h.size ? (size_t)h.size : 1);
	memcpy(raw, b + hoff + hlen, (size_t)h.size);
	return finish(&e, &h, raw, t);
}

/* npy_read: see npy.h; reads the preamble, then the header, then exactly
** the data the header asks for, each after checking it against the size */
int
npy_read(const char *path, Tensor *t, char *err, size_t errsz)
{
	Err e = { path, err, errsz };
	unsigned char pre[12], *h = NULL, *raw = NULL;
	size_t hoff, hlen, got;
	struct stat st;
	int major, rc = -1;
	Hdr hd;
	FILE *fp;

	memset(t, 0, sizeof *t);
	if (!(fp = fopen(path, "rb")))
		return fail(&e, "cannot open: %s", strerror(errno));
	if (fstat(fileno(fp), &st) != 0) {
		fail(&e, "cannot read: %s", strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		fail(&e, "cannot read: %s", S_ISDIR(st.st_mode) ? "it is a directory" : "not a regular file");
		goto out;
	}
	got = fread(pre, 1, sizeof pre, fp);
	if (ferror(fp)) {
		fail(&e, "cannot read: %s", strerror(errno));
		goto out;
	}
	if (preamble(&e, pre, got, (uint64_t)st.st_size, &major, &hoff, &hlen) < 0)
		goto out;
	h = ir_xmalloc(hlen ? hlen : 1);
	if (fseeko(fp, (off_t)hoff, SEEK_SET) != 0 || fread(h, 1, hlen, fp) != hlen) {
		fail(&e, "cannot read: %s", ferror(fp) ? strerror(errno) : "the file shrank");
		goto out;
	}
	if (header(&e, h, hlen, major, &hd) < 0 ||
	    datalen(&e, &hd, (uint64_t)st.st_size - hoff - hlen) < 0)
		goto out;
	raw = ir_xmalloc(hd.size ? (size_t)hd.size : 1);
	if (fread(raw, 1, (size_t)hd.size, fp) != hd.size) {
		fail(&e, "cannot read: %s", ferror(fp) ? strerror(errno) : "the file shrank");
		free(raw);
		goto out;
	}
	rc = finish(&e, &hd, raw, t);
out:
	free(h);
	fclose(fp);
	return rc;
}

/* ---------------------------------------------------------------- writer */

/* check: whether t can be written; sets *size to its data's bytes */
static int
check(const Err *e, const Tensor *t, uint64_t *size)
{
	char sh[128];

	if (t->dt <= DT_VOID || t->dt >= DT_COUNT)
		return fail(e, "cannot write a tensor of dtype %d", (int)t->dt);
	if (t->rank > IR_MAXDIMS)
		return fail(e, "cannot write a tensor of rank %u (at most %d)", t->rank, IR_MAXDIMS);
	npy_shapestr(sh, sizeof sh, t->dims, t->rank);
	for (uint32_t i = 0; i < t->rank; i++)
		if (t->dims[i] < 0)
			return fail(e, "cannot write a tensor of shape %s: a negative dimension", sh);
	if (ir_tensor_nbytes(t->dims, t->rank, ir_dtype_bytes[t->dt], size) < 0 || *size > SIZE_MAX)
		return fail(e, "cannot write a tensor of shape %s: too large", sh);
	if (*size && !t->data)
		return fail(e, "cannot write a tensor of shape %s: it has no data", sh);
	return 0;
}

/* hdr: the preamble and header of t, as np.save writes them, into
** out[0..*len) (malloc'ed) */
static void
hdr(const Tensor *t, unsigned char **out, size_t *len)
{
	char text[512], sh[300];
	size_t n, pre, total, pad;
	unsigned char *b;
	int v2;

	npy_shapestr(sh, sizeof sh, t->dims, t->rank);
	n = (size_t)snprintf(text, sizeof text, "{'descr': '%c%s', 'fortran_order': False, 'shape': %s, }",
	                     ir_dtype_bytes[t->dt] == 1 ? '|' : '<', codes[t->dt], sh);
	if (t->rank) {
		int digits = snprintf(NULL, 0, "%lld", (long long)t->dims[0]);
		for (int i = digits; i < GROWTH_DIGITS; i++)
			text[n++] = ' ';
	}
	/* the header is n bytes, padding and a newline; 1.0 if that fits */
	pad = ALIGN - (10 + n + 1) % ALIGN;
	v2 = n + 1 + pad > 65535;
	pre = v2 ? 12 : 10;
	pad = ALIGN - (pre + n + 1) % ALIGN;
	total = pre + n + pad + 1;
	b = ir_xmalloc(total);
	memcpy(b, magic, 6);
	b[6] = v2 ? 2 : 1;
	b[7] = 0;
	for (size_t k = 0; k < pre - 8; k++)
		b[8 + k] = (unsigned char)((total - pre) >> (8 * k));
	memcpy(b + pre, text, n);
	memset(b + pre + n, ' ', pad);
	b[total - 1] = '\n';
	*out = b;
	*len = total;
}

/* npy_encode: see npy.h */
int
npy_encode(const char *name, const Tensor *t, unsigned char **out, size_t *len, char *err, size_t errsz)
{
	Err e = { name, err, errsz };
	unsigned char *h;
	size_t hlen;
	uint64_t size;

	*out = NULL;
	*len = 0;
	if (check(&e, t, &size) < 0)
		return -1;
	hdr(t, &h, &hlen);
	h = ir_xrealloc(h, hlen + (size_t)size);
	if (size)
		memcpy(h + hlen, t->data, (size_t)size);
	*out = h;
	*len = hlen + (size_t)size;
	return 0;
}

/* npy_write: see npy.h; written and synced through ir_out_open() */
int
npy_write(const char *path, const Tensor *t, char *err, size_t errsz)
{
	Err e = { path, err, errsz };
	unsigned char *h = NULL;
	size_t hlen;
	uint64_t size;
	IrOut o;
	int rc = -1;

	if (check(&e, t, &size) < 0)
		goto out;
	hdr(t, &h, &hlen);
	if (ir_out_open(&o, path, IR_OUT_SYNC) != 0) {
		fail(&e, "%s", o.msg);
		goto out;
	}
	fwrite(h, 1, hlen, o.f);
	if (size)
		fwrite(t->data, 1, (size_t)size, o.f);
	if (ir_out_commit(&o) != 0) {
		fail(&e, "%s", o.msg);
		goto out;
	}
	rc = 0;
out:
	free(h);
	return rc;
}
