/*
** safetensors.c: the safetensors reader and writer.
**
** The reader takes the file apart in three steps: the 8-byte header length
** (checked against the file size and a 100 MB cap), the JSON header (a
** small recursive-descent parser that knows only what the format needs but
** accepts any JSON where it skips values, with a depth limit), and the
** data buffer, which the tensors must cover exactly.  Every index into the
** input is checked before use, so no input can make it read out of bounds.
** Syntax errors give the byte offset in the header; semantic errors name
** the tensor.
**
** Storage: an StFile keeps its tensors, names and dims in one Arena and the
** data buffer in one malloc'ed block that tensors point into.  The block is
** 16-byte aligned; a tensor whose offset is not a multiple of its element
** size is copied into the arena, so data is always aligned for its dtype.
**
** The writer emits deterministic bytes: keys in the caller's order, JSON
** without whitespace, spaces padding the header to a multiple of 8, data
** back to back.  It writes through ir_out_open() (ir/file.c), so a regular
** file is replaced whole or not at all and a device or FIFO is written to.
*/
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "safetensors.h"

enum {
	HDR_MAX = 100000000,    /* the largest header accepted, in bytes */
	DEPTH_MAX = 128,        /* nesting allowed in skipped JSON values */
	QBUF = 256,             /* room for a quoted name in a message */
	TOKMAX = 40,            /* characters of a number quoted in a message */
};

/* safetensors dtype names by DType */
static const char *const stnames[DT_COUNT] = {
	[DT_BOOL] = "BOOL",
	[DT_INT8] = "I8",
	[DT_UINT8] = "U8",
	[DT_INT16] = "I16",
	[DT_UINT16] = "U16",
	[DT_INT32] = "I32",
	[DT_UINT32] = "U32",
	[DT_INT64] = "I64",
	[DT_FLOAT16] = "F16",
	[DT_FLOAT32] = "F32",
	[DT_FLOAT64] = "F64",
};

/* safetensors dtypes that graft has no DType for */
static const char *const unsupported[] = {
	"BF16", "U64", "F8_E4M3", "F8_E5M2", "F8_E8M0", "F6_E2M3", "F6_E3M2",
	"F4", "C64", NULL
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

/* esc: the JSON escape for byte c into out (returns its length), or 0 if c
** stands for itself in a JSON string */
static size_t
esc(unsigned char c, char out[8])
{
	static const char hex[] = "0123456789abcdef";
	const char *s = NULL;

	switch (c) {
	case '"': s = "\\\""; break;
	case '\\': s = "\\\\"; break;
	case '\b': s = "\\b"; break;
	case '\f': s = "\\f"; break;
	case '\n': s = "\\n"; break;
	case '\r': s = "\\r"; break;
	case '\t': s = "\\t"; break;
	default:
		if (c >= 0x20)
			return 0;
		memcpy(out, "\\u00", 4);
		out[4] = hex[c >> 4];
		out[5] = hex[c & 15];
		return 6;
	}
	memcpy(out, s, 2);
	return 2;
}

/* quote: s[0..n) as a JSON string literal in q[QBUF], cut short with
** "..." if too long (never inside a UTF-8 sequence); returns q */
static const char *
quote(char *q, const char *s, size_t n)
{
	size_t k = 0, i = 0;

	q[k++] = '"';
	while (i < n) {
		unsigned char c = (unsigned char)s[i];
		char e[8];
		const char *out = e;
		size_t m = 1, len = esc(c, e);

		if (!len) {
			m = c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
			if (m > n - i)
				m = n - i;
			out = s + i;
			len = m;
		}
		if (k + len + 5 > QBUF) {
			memcpy(q + k, "...", 3);
			k += 3;
			break;
		}
		memcpy(q + k, out, len);
		k += len;
		i += m;
	}
	q[k++] = '"';
	q[k] = 0;
	return q;
}

/* shapestr: "[2, 3]" into buf[0..size), ending in "...]" if cut short */
static const char *
shapestr(char *buf, size_t size, const int64_t *d, int rank)
{
	size_t k = 1;

	buf[0] = '[';
	for (int i = 0; i < rank; i++) {
		char num[32];
		int m = snprintf(num, sizeof num, "%s%lld", i ? ", " : "", (long long)d[i]);
		if (k + (size_t)m + 5 > size) {
			memcpy(buf + k, "...", 3);
			k += 3;
			break;
		}
		memcpy(buf + k, num, (size_t)m);
		k += (size_t)m;
	}
	buf[k++] = ']';
	buf[k] = 0;
	return buf;
}

/* ---------------------------------------------------------------- utilities */

/* le64: the little-endian u64 at b[0..8) */
static uint64_t
le64(const unsigned char *b)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | b[i];
	return v;
}

/* A growable byte buffer. */
typedef struct Buf {
	char *p;
	size_t n, cap;
} Buf;

/* put: appends s[0..n) */
static void
put(Buf *b, const void *s, size_t n)
{
	if (b->n + n > b->cap) {
		size_t c = b->cap ? b->cap : 256;
		while (c < b->n + n)
			c *= 2;
		b->p = ir_xrealloc(b->p, c);
		b->cap = c;
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
}

/* putz: appends the NUL-terminated s */
static void
putz(Buf *b, const char *s)
{
	put(b, s, strlen(s));
}

/* putu: appends v in decimal */
static void
putu(Buf *b, uint64_t v)
{
	char num[24];
	int m = snprintf(num, sizeof num, "%llu", (unsigned long long)v);
	put(b, num, (size_t)m);
}

/* ---------------------------------------------------------------- JSON */

/* The parser: the header text s[0..n), the position i, and a scratch
** buffer holding the last string parsed (decoded; never longer than its
** source text, so n + 1 bytes are enough). */
typedef struct P {
	const Err *e;
	const unsigned char *s;
	size_t n, i;
	char *tmp;
	size_t tlen;
} P;

/* bad: a syntax error at header byte `at`; returns -1 */
static int __attribute__((format(printf, 3, 4)))
bad(P *p, size_t at, const char *fmt, ...)
{
	char msg[512];
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
		return bad(p, p->i, "unexpected end of header, expected %s", what);
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

/* ws: skips JSON whitespace */
static void
ws(P *p)
{
	while (p->i < p->n && (p->s[p->i] == ' ' || p->s[p->i] == '\t' ||
	                       p->s[p->i] == '\n' || p->s[p->i] == '\r'))
		p->i++;
}

/* kind: what the JSON value starting with c is, for messages; NULL if no
** value starts with c */
static const char *
kind(int c)
{
	switch (c) {
	case '{': return "an object";
	case '[': return "an array";
	case '"': return "a string";
	case 't': case 'f': return "a boolean";
	case 'n': return "null";
	default: return c == '-' || (c >= '0' && c <= '9') ? "a number" : NULL;
	}
}

/* hex4: the value of 4 hex digits at s[i..], or -1 */
static long
hex4(const P *p, size_t i)
{
	long v = 0;

	if (i > p->n || p->n - i < 4)
		return -1;
	for (size_t k = i; k < i + 4; k++) {
		int c = p->s[k], d;
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			d = (c | 0x20) - 'a' + 10;
		else
			return -1;
		v = v << 4 | d;
	}
	return v;
}

/* str: parses the string at p->i (a '"') into p->tmp, p->tlen bytes plus
** a NUL; \u0000 decodes to a NUL byte inside.  Errors point at the
** offending byte, or at the opening quote if the string never ends. */
static int
str(P *p)
{
	size_t k = 0, start = p->i;

	p->i++;
	for (;;) {
		unsigned char c;

		if (p->i >= p->n)
			return bad(p, start, "unterminated string");
		c = p->s[p->i];
		if (c == '"') {
			p->i++;
			break;
		}
		if (c < 0x20)
			return bad(p, p->i, "control character 0x%02x in string", c);
		if (c == '\\') {
			unsigned char e = p->i + 1 < p->n ? p->s[p->i + 1] : 0;
			const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t", *at;
			long cp, lo;

			if (e && e != 'u' && (at = strchr(from, e)) != NULL) {
				p->tmp[k++] = to[at - from];
				p->i += 2;
				continue;
			}
			if (e != 'u') {
				if (p->i + 1 >= p->n)
					return bad(p, start, "unterminated string");
				if (e > 0x20 && e < 0x7f)
					return bad(p, p->i, "invalid escape '\\%c'", e);
				return bad(p, p->i, "invalid escape: '\\' then byte 0x%02x", e);
			}
			if ((cp = hex4(p, p->i + 2)) < 0)
				return bad(p, p->i, "invalid \\u escape");
			if (cp >= 0xdc00 && cp <= 0xdfff)
				return bad(p, p->i, "unpaired surrogate \\u%04lx", cp);
			if (cp >= 0xd800 && cp <= 0xdbff) {
				if (p->n - p->i < 12 || p->s[p->i + 6] != '\\' || p->s[p->i + 7] != 'u' ||
				    (lo = hex4(p, p->i + 8)) < 0xdc00 || lo > 0xdfff)
					return bad(p, p->i, "unpaired surrogate \\u%04lx", cp);
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				p->i += 6;
			}
			p->i += 6;
			if (cp < 0x80)
				p->tmp[k++] = (char)cp;
			else if (cp < 0x800) {
				p->tmp[k++] = (char)(0xc0 | cp >> 6);
				p->tmp[k++] = (char)(0x80 | (cp & 0x3f));
			} else if (cp < 0x10000) {
				p->tmp[k++] = (char)(0xe0 | cp >> 12);
				p->tmp[k++] = (char)(0x80 | (cp >> 6 & 0x3f));
				p->tmp[k++] = (char)(0x80 | (cp & 0x3f));
			} else {
				p->tmp[k++] = (char)(0xf0 | cp >> 18);
				p->tmp[k++] = (char)(0x80 | (cp >> 12 & 0x3f));
				p->tmp[k++] = (char)(0x80 | (cp >> 6 & 0x3f));
				p->tmp[k++] = (char)(0x80 | (cp & 0x3f));
			}
			continue;
		}
		if (c < 0x80) {
			p->tmp[k++] = (char)c;
			p->i++;
			continue;
		}
		size_t m = ir_utf8_len((const unsigned char *)p->s + p->i, p->n - p->i);
		if (!m)
			return bad(p, p->i, "invalid UTF-8 in string");
		memcpy(p->tmp + k, p->s + p->i, m);
		k += m;
		p->i += m;
	}
	p->tmp[k] = 0;
	p->tlen = k;
	return 0;
}

/* A number as parsed: v is its magnitude if it is an integer that fits. */
typedef struct Num {
	int isint, neg, big;
	uint64_t v;
	size_t at, len;     /* its text in the header */
} Num;

/* isdig: whether s[i] exists and is a digit */
static int
isdig(const P *p, size_t i)
{
	return i < p->n && p->s[i] >= '0' && p->s[i] <= '9';
}

/* num: parses the JSON number at p->i */
static int
num(P *p, Num *x)
{
	size_t i = p->i;

	memset(x, 0, sizeof *x);
	x->at = i;
	x->isint = 1;
	if (i < p->n && p->s[i] == '-') {
		x->neg = 1;
		i++;
	}
	if (!isdig(p, i))
		return bad(p, x->at, "invalid number");
	if (p->s[i] == '0')
		i++;
	else
		for (; isdig(p, i); i++) {
			unsigned d = p->s[i] - '0';
			if (x->v > (UINT64_MAX - d) / 10)
				x->big = 1;
			else if (!x->big)
				x->v = x->v * 10 + d;
		}
	if (i < p->n && p->s[i] == '.') {
		x->isint = 0;
		if (!isdig(p, ++i))
			return bad(p, x->at, "invalid number");
		while (isdig(p, i))
			i++;
	}
	if (i < p->n && (p->s[i] | 0x20) == 'e') {
		x->isint = 0;
		i++;
		if (i < p->n && (p->s[i] == '+' || p->s[i] == '-'))
			i++;
		if (!isdig(p, i))
			return bad(p, x->at, "invalid number");
		while (isdig(p, i))
			i++;
	}
	x->len = i - x->at;
	p->i = i;
	return 0;
}

/* lit: the literal word at p->i */
static int
lit(P *p, const char *word)
{
	size_t n = strlen(word);

	if (p->n - p->i < n || memcmp(p->s + p->i, word, n) != 0)
		return want(p, "a value");
	p->i += n;
	return 0;
}

/* isclose: after an opening bracket; consumes `close` and returns 1 if
** the container is empty */
static int
isclose(P *p, int close)
{
	ws(p);
	if (peek(p) == close) {
		p->i++;
		return 1;
	}
	return 0;
}

/* next: after a member; returns 1 after a ',', 0 after `close`, -1 on error */
static int
next(P *p, int close)
{
	ws(p);
	if (peek(p) == ',') {
		p->i++;
		ws(p);
		return 1;
	}
	if (peek(p) == close) {
		p->i++;
		return 0;
	}
	return want(p, close == '}' ? "',' or '}'" : "',' or ']'");
}

/* key: an object key and its ':'; the key is left in p->tmp */
static int
key(P *p)
{
	ws(p);
	if (peek(p) != '"')
		return want(p, "a string key");
	if (str(p) < 0)
		return -1;
	ws(p);
	if (peek(p) != ':')
		return want(p, "':'");
	p->i++;
	ws(p);
	return 0;
}

/* skip: any JSON value, nested at most DEPTH_MAX deep */
static int
skip(P *p, int depth)
{
	int c = peek(p), r;
	Num x;

	if (depth > DEPTH_MAX)
		return bad(p, p->i, "nesting deeper than %d levels", DEPTH_MAX);
	switch (c) {
	case '{':
		p->i++;
		if (isclose(p, '}'))
			return 0;
		do
			if (key(p) < 0 || skip(p, depth + 1) < 0)
				return -1;
		while ((r = next(p, '}')) == 1);
		return r;
	case '[':
		p->i++;
		if (isclose(p, ']'))
			return 0;
		do
			if (skip(p, depth + 1) < 0)
				return -1;
		while ((r = next(p, ']')) == 1);
		return r;
	case '"': return str(p);
	case 't': return lit(p, "true");
	case 'f': return lit(p, "false");
	case 'n': return lit(p, "null");
	default:
		if (c == '-' || (c >= '0' && c <= '9'))
			return num(p, &x);
		return want(p, "a value");
	}
}

/* ---------------------------------------------------------------- reader */

/* Where a tensor's data lies, for the coverage check. */
typedef struct Span {
	uint64_t begin, end;
	uint32_t i;         /* index in header order */
	size_t at;          /* header byte of its name */
} Span;

/* The reader's state while loading one file. */
typedef struct Load {
	P p;
	StFile *f;
	size_t dlen;        /* bytes in f->buf */
	StTensor *t;  uint32_t nt, capt;
	Span *sp;     uint32_t capsp;
	int64_t *dims; uint32_t capdims;
	int meta;           /* "__metadata__" seen */
} Load;

/* typed: checks that the value at p->i is `what` (starting with c);
** otherwise reports "tensor Q: FIELD is X, expected WHAT" */
static int
typed(Load *L, int c, const char *q, const char *field, const char *what)
{
	const char *k = kind(peek(&L->p));

	if (peek(&L->p) == c)
		return 0;
	if (!k)
		return want(&L->p, "a value");
	return fail(L->p.e, "tensor %s: %s is %s, expected %s", q, field, k, what);
}

/* intval: the non-negative integer at p->i, at most max, as element idx of
** field */
static int
intval(Load *L, const char *q, const char *field, uint32_t idx, uint64_t max, uint64_t *out)
{
	P *p = &L->p;
	const char *k = kind(peek(p));
	int len;
	Num x;

	if (!k)
		return want(p, "a value");
	if (strcmp(k, "a number") != 0)
		return fail(p->e, "tensor %s: %s[%u] is %s, expected a non-negative integer",
		            q, field, idx, k);
	if (num(p, &x) < 0)
		return -1;
	len = x.len > TOKMAX ? TOKMAX : (int)x.len;
	if (!x.isint || (x.neg && (x.v || x.big)))
		return fail(p->e, "tensor %s: %s[%u] = %.*s%s is not a non-negative integer",
		            q, field, idx, len, p->s + x.at, x.len > TOKMAX ? "..." : "");
	if (x.big || x.v > max)
		return fail(p->e, "tensor %s: %s[%u] = %.*s%s is too large",
		            q, field, idx, len, p->s + x.at, x.len > TOKMAX ? "..." : "");
	*out = x.v;
	return 0;
}

/* dtype: the DType named by the string in p->tmp */
static int
dtype(Load *L, const char *q, DType *out)
{
	P *p = &L->p;
	char qd[QBUF];

	for (int d = 1; d < DT_COUNT; d++)
		if (strlen(stnames[d]) == p->tlen && memcmp(stnames[d], p->tmp, p->tlen) == 0) {
			*out = (DType)d;
			return 0;
		}
	for (int i = 0; unsupported[i]; i++)
		if (strlen(unsupported[i]) == p->tlen && memcmp(unsupported[i], p->tmp, p->tlen) == 0)
			return fail(p->e, "tensor %s: dtype %s is not supported", q, unsupported[i]);
	return fail(p->e, "tensor %s: unknown dtype %s", q, quote(qd, p->tmp, p->tlen));
}

/* entry: the value of the header entry for the tensor named in p->tmp,
** whose key begins at header byte `at` */
static int
entry(Load *L, size_t at)
{
	enum { HDT = 1, HSHAPE = 2, HOFF = 4 };
	P *p = &L->p;
	char q[QBUF], sh[128];
	const char *name;
	unsigned have = 0;
	uint32_t rank = 0, noff = 0;
	uint64_t off[2] = {0, 0}, size;
	DType dt = DT_VOID;
	StTensor *t;
	Span *s;
	int r;

	if (memchr(p->tmp, 0, p->tlen))
		return bad(p, at, "tensor name %s contains U+0000", quote(q, p->tmp, p->tlen));
	name = ir_arena_strdup(&L->f->mem, p->tmp, p->tlen);
	quote(q, p->tmp, p->tlen);
	if (peek(p) != '{') {
		const char *k = kind(peek(p));
		if (!k)
			return want(p, "a value");
		return fail(p->e, "tensor %s: entry is %s, expected an object", q, k);
	}
	p->i++;
	if (!isclose(p, '}')) {
		do {
			if (key(p) < 0)
				return -1;
			if (p->tlen == 5 && memcmp(p->tmp, "dtype", 5) == 0) {
				if (have & HDT)
					return fail(p->e, "tensor %s: duplicate key \"dtype\"", q);
				have |= HDT;
				if (typed(L, '"', q, "dtype", "a string") < 0 || str(p) < 0 ||
				    dtype(L, q, &dt) < 0)
					return -1;
			} else if (p->tlen == 5 && memcmp(p->tmp, "shape", 5) == 0) {
				if (have & HSHAPE)
					return fail(p->e, "tensor %s: duplicate key \"shape\"", q);
				have |= HSHAPE;
				if (typed(L, '[', q, "shape", "an array") < 0)
					return -1;
				p->i++;
				/* rank stays far below INT_MAX: the header is at most HDR_MAX bytes */
				if (!isclose(p, ']')) {
					do {
						uint64_t v;
						if (intval(L, q, "shape", rank, INT64_MAX, &v) < 0)
							return -1;
						ir_vgrow(&L->dims, &L->capdims, rank + 1);
						L->dims[rank++] = (int64_t)v;
					} while ((r = next(p, ']')) == 1);
					if (r < 0)
						return -1;
				}
			} else if (p->tlen == 12 && memcmp(p->tmp, "data_offsets", 12) == 0) {
				if (have & HOFF)
					return fail(p->e, "tensor %s: duplicate key \"data_offsets\"", q);
				have |= HOFF;
				if (typed(L, '[', q, "data_offsets", "an array") < 0)
					return -1;
				p->i++;
				if (!isclose(p, ']')) {
					do {
						uint64_t v;
						if (intval(L, q, "data_offsets", noff, UINT64_MAX, &v) < 0)
							return -1;
						if (noff < 2)
							off[noff] = v;
						noff++;
					} while ((r = next(p, ']')) == 1);
					if (r < 0)
						return -1;
				}
				if (noff != 2)
					return fail(p->e, "tensor %s: data_offsets has %u entries, expected 2",
					            q, noff);
			} else if (skip(p, 3) < 0)
				return -1;
		} while ((r = next(p, '}')) == 1);
		if (r < 0)
			return -1;
	}
	if (!(have & HDT))
		return fail(p->e, "tensor %s: missing \"dtype\"", q);
	if (!(have & HSHAPE))
		return fail(p->e, "tensor %s: missing \"shape\"", q);
	if (!(have & HOFF))
		return fail(p->e, "tensor %s: missing \"data_offsets\"", q);
	shapestr(sh, sizeof sh, L->dims, (int)rank);
	if (ir_tensor_nbytes(L->dims, rank, ir_dtype_bytes[dt], &size) < 0)
		return fail(p->e, "tensor %s: shape %s of %s overflows a 64-bit byte count",
		            q, sh, stnames[dt]);
	if (off[1] < off[0])
		return fail(p->e, "tensor %s: data_offsets [%llu, %llu]: end is before begin",
		            q, (unsigned long long)off[0], (unsigned long long)off[1]);
	if (size != off[1] - off[0])
		return fail(p->e, "tensor %s: shape %s of %s is %llu bytes, but data_offsets "
		            "[%llu, %llu] span %llu", q, sh, stnames[dt], (unsigned long long)size,
		            (unsigned long long)off[0], (unsigned long long)off[1],
		            (unsigned long long)(off[1] - off[0]));
	if (off[1] > L->dlen)
		return fail(p->e, "tensor %s: data_offsets [%llu, %llu] extend past the end of "
		            "the %zu-byte data buffer", q, (unsigned long long)off[0],
		            (unsigned long long)off[1], L->dlen);
	if (L->nt == UINT32_MAX)
		return fail(p->e, "too many tensors");
	ir_vgrow(&L->t, &L->capt, L->nt + 1);
	ir_vgrow(&L->sp, &L->capsp, L->nt + 1);
	t = &L->t[L->nt];
	s = &L->sp[L->nt];
	t->name = name;
	t->dtype = dt;
	t->rank = (int)rank;
	t->dims = ir_arena_alloc(&L->f->mem, rank * sizeof *t->dims);
	if (rank)
		memcpy(t->dims, L->dims, rank * sizeof *t->dims);
	t->nbytes = (size_t)size;
	t->data = NULL;
	s->begin = off[0];
	s->end = off[1];
	s->i = L->nt;
	s->at = at;
	L->nt++;
	return 0;
}

/* meta: the value of "__metadata__", an object of strings */
static int
meta(Load *L)
{
	P *p = &L->p;
	const char *k = kind(peek(p));
	char q[QBUF];
	int r;

	if (peek(p) != '{') {
		if (!k)
			return want(p, "a value");
		return fail(p->e, "\"__metadata__\" is %s, expected an object of strings", k);
	}
	p->i++;
	if (isclose(p, '}'))
		return 0;
	do {
		if (key(p) < 0)
			return -1;
		if (peek(p) != '"') {
			if (!(k = kind(peek(p))))
				return want(p, "a value");
			return fail(p->e, "\"__metadata__\" entry %s is %s, expected a string",
			            quote(q, p->tmp, p->tlen), k);
		}
		if (str(p) < 0)
			return -1;
	} while ((r = next(p, '}')) == 1);
	return r;
}

/* header: the whole JSON header */
static int
header(Load *L)
{
	P *p = &L->p;
	int r;

	if (peek(p) != '{')
		return want(p, "'{'");
	p->i++;
	if (!isclose(p, '}')) {
		do {
			size_t at = p->i;
			if (key(p) < 0)
				return -1;
			if (p->tlen == 12 && memcmp(p->tmp, "__metadata__", 12) == 0) {
				if (L->meta)
					return bad(p, at, "duplicate \"__metadata__\"");
				L->meta = 1;
				if (meta(L) < 0)
					return -1;
			} else if (entry(L, at) < 0)
				return -1;
		} while ((r = next(p, '}')) == 1);
		if (r < 0)
			return -1;
	}
	ws(p);
	if (p->i < p->n)
		return bad(p, p->i, "unexpected data after the header object");
	return 0;
}

typedef struct Named {
	const char *name;
	uint32_t i;
} Named;

/* byname: qsort order of Named: name, then header index */
static int
byname(const void *a, const void *b)
{
	const Named *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : x->i < y->i ? -1 : x->i > y->i;
}

/* byoffset: qsort order of Span: begin, end, then header index */
static int
byoffset(const void *a, const void *b)
{
	const Span *x = a, *y = b;
	if (x->begin != y->begin)
		return x->begin < y->begin ? -1 : 1;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* check: no duplicate names; the tensors tile the data buffer exactly.
** Builds f->byname. */
static int
check(Load *L)
{
	StFile *f = L->f;
	Named *nm = ir_xmalloc((size_t)L->nt * sizeof *nm);
	char q[QBUF], q2[QBUF];
	uint64_t pos = 0;
	int rc = -1;

	for (uint32_t i = 0; i < L->nt; i++) {
		nm[i].name = L->t[i].name;
		nm[i].i = i;
	}
	if (L->nt > 1)
		qsort(nm, L->nt, sizeof *nm, byname);
	for (uint32_t i = 1; i < L->nt; i++)
		if (strcmp(nm[i - 1].name, nm[i].name) == 0) {
			bad(&L->p, L->sp[nm[i].i].at, "duplicate tensor name %s",
			    quote(q, nm[i].name, strlen(nm[i].name)));
			goto out;
		}
	f->byname = ir_arena_alloc(&f->mem, (size_t)L->nt * sizeof *f->byname);
	for (uint32_t i = 0; i < L->nt; i++)
		f->byname[i] = nm[i].i;

	/* L->sp is in header order until here, and L->sp[i].i == i */
	if (L->nt > 1)
		qsort(L->sp, L->nt, sizeof *L->sp, byoffset);
	for (uint32_t i = 0; i < L->nt; i++) {
		const Span *s = &L->sp[i];
		const char *name = L->t[s->i].name;
		if (s->begin > pos) {
			fail(L->p.e, "data bytes [%llu, %llu) before tensor %s belong to no tensor",
			     (unsigned long long)pos, (unsigned long long)s->begin,
			     quote(q, name, strlen(name)));
			goto out;
		}
		if (s->begin < pos) {
			const Span *o = &L->sp[i - 1];
			const char *oname = L->t[o->i].name;
			fail(L->p.e, "tensor %s (data_offsets [%llu, %llu]) overlaps tensor %s "
			     "(data_offsets [%llu, %llu])", quote(q, name, strlen(name)),
			     (unsigned long long)s->begin, (unsigned long long)s->end,
			     quote(q2, oname, strlen(oname)),
			     (unsigned long long)o->begin, (unsigned long long)o->end);
			goto out;
		}
		pos = s->end;
	}
	if (pos < L->dlen) {
		fail(L->p.e, "data bytes [%llu, %zu) at the end of the buffer belong to no tensor",
		     (unsigned long long)pos, L->dlen);
		goto out;
	}
	rc = 0;
out:
	free(nm);
	return rc;
}

/* load: parses the header h[0..hn) and takes ownership of the data buffer
** data[0..dn) (malloc'ed), filling *f */
static int
load(const Err *e, const unsigned char *h, size_t hn, unsigned char *data, size_t dn, StFile *f)
{
	Load L;
	int rc;

	memset(&L, 0, sizeof L);
	L.p.e = e;
	L.p.s = h;
	L.p.n = hn;
	L.p.tmp = ir_xmalloc(hn + 1);
	L.f = f;
	L.dlen = dn;
	f->buf = data;
	rc = header(&L);
	if (rc == 0)
		rc = check(&L);
	if (rc == 0) {
		f->n = L.nt;
		f->t = ir_arena_alloc(&f->mem, (size_t)L.nt * sizeof *f->t);
		if (L.nt)
			memcpy(f->t, L.t, (size_t)L.nt * sizeof *f->t);
		for (uint32_t i = 0; i < L.nt; i++) {
			const Span *s = &L.sp[i];
			StTensor *t = &f->t[s->i];
			unsigned esz = ir_dtype_bytes[t->dtype];
			/* data is malloc'ed, so aligned for any dtype: only the
			** offset can misalign a tensor */
			if (s->begin % esz == 0)
				t->data = data + s->begin;
			else {
				void *copy = ir_arena_alloc(&f->mem, t->nbytes);
				memcpy(copy, data + s->begin, t->nbytes);
				t->data = copy;
			}
		}
	}
	free(L.p.tmp);
	free(L.t);
	free(L.sp);
	free(L.dims);
	if (rc < 0)
		ir_st_free(f);
	return rc;
}

/* lencheck: the header length against the cap and the bytes after it */
static int
lencheck(const Err *e, uint64_t hlen, uint64_t rest)
{
	if (hlen > HDR_MAX)
		return fail(e, "header length %llu exceeds the limit of %d bytes",
		            (unsigned long long)hlen, HDR_MAX);
	if (hlen > rest)
		return fail(e, "header length %llu exceeds the %llu bytes that follow it",
		            (unsigned long long)hlen, (unsigned long long)rest);
	return 0;
}

/* shortfile: the message for a file of n < 8 bytes */
static int
shortfile(const Err *e, size_t n)
{
	return fail(e, "file is %zu bytes long, too short for the 8-byte header length", n);
}

/* ir_st_read_mem: see safetensors.h; the data buffer is copied */
int
ir_st_read_mem(const char *name, const void *buf, size_t len, StFile *out,
               char *err, size_t errsz)
{
	Err e = {name, err, errsz};
	const unsigned char *b = buf;
	unsigned char *data;
	uint64_t hlen;

	memset(out, 0, sizeof *out);
	if (len < 8)
		return shortfile(&e, len);
	hlen = le64(b);
	if (lencheck(&e, hlen, len - 8) < 0)
		return -1;
	data = ir_xmalloc(len - 8 - (size_t)hlen);
	memcpy(data, b + 8 + hlen, len - 8 - (size_t)hlen);
	return load(&e, b + 8, (size_t)hlen, data, len - 8 - (size_t)hlen, out);
}

/* ir_st_read: see safetensors.h; the header is read into a scratch
** buffer and the data buffer into the block the StFile keeps */
int
ir_st_read(const char *path, StFile *out, char *err, size_t errsz)
{
	Err e = {path, err, errsz};
	unsigned char lenb[8], *h = NULL, *data = NULL;
	uint64_t hlen;
	size_t got, dlen;
	off_t size;
	FILE *fp;
	int rc = -1;

	memset(out, 0, sizeof *out);
	if (!(fp = fopen(path, "rb")))
		return fail(&e, "cannot open: %s", strerror(errno));
	got = fread(lenb, 1, 8, fp);
	if (got < 8) {
		if (ferror(fp))
			fail(&e, "cannot read: %s", strerror(errno));
		else
			shortfile(&e, got);
		goto out;
	}
	if (fseeko(fp, 0, SEEK_END) != 0 || (size = ftello(fp)) < 0 || fseeko(fp, 8, SEEK_SET) != 0) {
		fail(&e, "cannot find the file size: %s", strerror(errno));
		goto out;
	}
	hlen = le64(lenb);
	if (lencheck(&e, hlen, (uint64_t)size - 8) < 0)
		goto out;
	if ((uint64_t)size - 8 - hlen > SIZE_MAX) {
		fail(&e, "file too large for memory");
		goto out;
	}
	dlen = (size_t)((uint64_t)size - 8 - hlen);
	h = ir_xmalloc((size_t)hlen);
	data = ir_xmalloc(dlen);
	if (fread(h, 1, (size_t)hlen, fp) != hlen || fread(data, 1, dlen, fp) != dlen) {
		if (ferror(fp))
			fail(&e, "cannot read: %s", strerror(errno));
		else
			fail(&e, "file shrank while being read");
		free(data);
		goto out;
	}
	rc = load(&e, h, (size_t)hlen, data, dlen, out);
out:
	free(h);
	fclose(fp);
	return rc;
}

/* ir_st_find: binary search of f->byname */
const StTensor *
ir_st_find(const StFile *f, const char *name)
{
	uint32_t lo = 0, hi = f->n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		const StTensor *t = &f->t[f->byname[mid]];
		int c = strcmp(name, t->name);
		if (c == 0)
			return t;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/* ir_st_free: see safetensors.h */
void
ir_st_free(StFile *f)
{
	ir_arena_free(&f->mem);
	free(f->buf);
	memset(f, 0, sizeof *f);
}

/* ---------------------------------------------------------------- writer */

/* jstr: s as a JSON string literal */
static void
jstr(Buf *b, const char *s)
{
	const char *run = s;

	put(b, "\"", 1);
	for (; *s; s++) {
		char e[8];
		size_t n = esc((unsigned char)*s, e);
		if (n) {
			put(b, run, (size_t)(s - run));
			put(b, e, n);
			run = s + 1;
		}
	}
	put(b, run, (size_t)(s - run));
	put(b, "\"", 1);
}

/* validname: whether s is valid UTF-8 */
static int
validname(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n = strlen(s), m;

	for (size_t i = 0; i < n; i += m)
		if (!(m = ir_utf8_len(u + i, n - i)))
			return 0;
	return 1;
}

/* build: checks the tensors and writes the padded header JSON into b */
static int
build(const Err *e, const StTensor *t, uint32_t n, Buf *b)
{
	char q[QBUF], sh[128];
	uint64_t off = 0;
	Named *nm;

	putz(b, "{");
	for (uint32_t i = 0; i < n; i++) {
		const StTensor *x = &t[i];
		uint64_t size;

		if (!x->name)
			return fail(e, "tensor %u has no name", i);
		if (!validname(x->name))
			return fail(e, "tensor %u: name is not valid UTF-8", i);
		quote(q, x->name, strlen(x->name));
		if (strcmp(x->name, "__metadata__") == 0)
			return fail(e, "tensor %s: the name is reserved", q);
		if (x->dtype <= DT_VOID || x->dtype >= DT_COUNT)
			return fail(e, "tensor %s: invalid dtype %d", q, (int)x->dtype);
		if (x->rank < 0 || (x->rank > 0 && !x->dims))
			return fail(e, "tensor %s: invalid rank %d", q, x->rank);
		shapestr(sh, sizeof sh, x->dims, x->rank);
		for (int k = 0; k < x->rank; k++)
			if (x->dims[k] < 0)
				return fail(e, "tensor %s: shape %s has a negative dimension", q, sh);
		if (ir_tensor_nbytes(x->dims, (uint32_t)x->rank, ir_dtype_bytes[x->dtype], &size) < 0)
			return fail(e, "tensor %s: shape %s of %s overflows a 64-bit byte count",
			            q, sh, stnames[x->dtype]);
		if (size != x->nbytes)
			return fail(e, "tensor %s: shape %s of %s is %llu bytes, but nbytes is %zu",
			            q, sh, stnames[x->dtype], (unsigned long long)size, x->nbytes);
		if (size && !x->data)
			return fail(e, "tensor %s: no data", q);
		if (size > UINT64_MAX - off)
			return fail(e, "tensor %s: the data exceed 2^64 bytes", q);
		if (i)
			putz(b, ",");
		jstr(b, x->name);
		putz(b, ":{\"dtype\":\"");
		putz(b, stnames[x->dtype]);
		putz(b, "\",\"shape\":[");
		for (int k = 0; k < x->rank; k++) {
			if (k)
				putz(b, ",");
			putu(b, (uint64_t)x->dims[k]);
		}
		putz(b, "],\"data_offsets\":[");
		putu(b, off);
		putz(b, ",");
		putu(b, off + size);
		putz(b, "]}");
		off += size;
	}
	putz(b, "}");
	while (b->n % 8)
		putz(b, " ");

	nm = ir_xmalloc((size_t)n * sizeof *nm);
	for (uint32_t i = 0; i < n; i++) {
		nm[i].name = t[i].name;
		nm[i].i = i;
	}
	if (n > 1)
		qsort(nm, n, sizeof *nm, byname);
	for (uint32_t i = 1; i < n; i++)
		if (strcmp(nm[i - 1].name, nm[i].name) == 0) {
			fail(e, "duplicate tensor name %s", quote(q, nm[i].name, strlen(nm[i].name)));
			free(nm);
			return -1;
		}
	free(nm);
	if (b->n > HDR_MAX)
		return fail(e, "header of %zu bytes exceeds the limit of %d bytes", b->n, HDR_MAX);
	return 0;
}

/* ir_st_write: see safetensors.h; written and synced through ir_out_open() */
int
ir_st_write(const char *path, const StTensor *t, uint32_t n, char *err, size_t errsz)
{
	Err e = {path, err, errsz};
	Buf b = {0};
	unsigned char lenb[8];
	IrOut o;
	int rc = -1;

	if (build(&e, t, n, &b) < 0)
		goto out;
	if (ir_out_open(&o, path, IR_OUT_SYNC) != 0) {
		fail(&e, "%s", o.msg);
		goto out;
	}
	for (int i = 0; i < 8; i++)
		lenb[i] = (unsigned char)((uint64_t)b.n >> (8 * i));
	fwrite(lenb, 1, 8, o.f);
	fwrite(b.p, 1, b.n, o.f);
	for (uint32_t i = 0; i < n && !ferror(o.f); i++)
		if (t[i].nbytes)
			fwrite(t[i].data, 1, t[i].nbytes, o.f);
	if (ir_out_commit(&o) != 0) {
		fail(&e, "%s", o.msg);
		goto out;
	}
	rc = 0;
out:
	free(b.p);
	return rc;
}
