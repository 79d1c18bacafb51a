/*
** print.c: writes a Module in TVM's Relay text layout.
**
** Each function body is printed in post-order, operands left to right:
** every call, tuple, projection and fn literal gets a binding `%N = ...;`
** numbered in that order, except the body's result, which ends the block.
** Variables, globals and constants are printed inline: scalars as
** literals, other tensors as meta[relay.Constant][k] numbered by first
** appearance (or inline const(...) if they were written that way).
** Attributes equal to the op's default are left out, as TVM does.
** Globals are printed sorted by name.  The output depends only on the
** module, never on addresses or hash order.  Types are spelt by ir/'s
** ir_type_fmt, as diagnostics spell them.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

/* ---------------------------------------------------------------- output */

/* Out: where the printer writes, a buffer passed to f whenever it fills
** (stdio's fprintf costs more than the text it formats).  cap is at
** least 24, a number's most. */
typedef struct Out {
	FILE *f;
	char *buf;
	size_t n, cap;
} Out;

static void
oflush(Out *o)
{
	if (o->n)
		fwrite(o->buf, 1, o->n, o->f);
	o->n = 0;
}

/* oputslow: oput() where the buffer has no room for the n bytes */
static void
oputslow(Out *o, const char *s, size_t n)
{
	oflush(o);
	if (n > o->cap) {
		fwrite(s, 1, n, o->f);
		return;
	}
	memcpy(o->buf, s, n);
	o->n = n;
}

/* oput: n bytes of s; inline, so that a string literal's copy is a move */
static inline void
oput(Out *o, const char *s, size_t n)
{
	if (n > o->cap - o->n) {
		oputslow(o, s, n);
		return;
	}
	memcpy(o->buf + o->n, s, n);
	o->n += n;
}

static inline void
ostr(Out *o, const char *s)
{
	oput(o, s, strlen(s));
}

static inline void
ochar(Out *o, char c)
{
	if (o->n == o->cap)
		oflush(o);
	o->buf[o->n++] = c;
}

/* ouint, oint: v in decimal, as %llu and %lld write it.  Its digits are
** counted from its bit length (a power of two has 1233/4096 of its bits'
** worth of digits, or one more), then written from the last, two at a
** time. */
static void
ouint(Out *o, uint64_t v)
{
	static const uint64_t tens[20] = {
		1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull, 100000000ull,
		1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull, 10000000000000ull,
		100000000000000ull, 1000000000000000ull, 10000000000000000ull, 100000000000000000ull,
		1000000000000000000ull, 10000000000000000000ull
	};
	static const char pairs[201] =
		"0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546474849"
		"5051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899";
	char *q;
	unsigned k = (unsigned)(64 - __builtin_clzll(v | 1)) * 1233 >> 12;

	k += k < 20 && v >= tens[k];
	k += k == 0;
	if (k > o->cap - o->n)
		oflush(o);
	q = o->buf + o->n + k;
	o->n += k;
	for (; v >= 100; v /= 100) {
		q -= 2;
		memcpy(q, &pairs[v % 100 * 2], 2);
	}
	if (v >= 10)
		memcpy(q - 2, &pairs[v * 2], 2);
	else
		q[-1] = (char)('0' + v);
}

static void
oint(Out *o, int64_t v)
{
	if (v < 0) {
		ochar(o, '-');
		ouint(o, 0 - (uint64_t)v);
	} else {
		ouint(o, (uint64_t)v);
	}
}

/* ---------------------------------------------------------------- floats */

/*
** ir_fmt_float writes the first of "%.1g", "%.2g", ... that reads back as
** v, then prefers "%.6g" when that is the same number without an exponent.
** fmtslow does just that, through snprintf and strtod; shortest() gets
** the same bytes for float32 and float64 from the exact decimal digits of
** v and of the two bounds of the values that round to it, in integers.
*/

/* fmtslow: the definition, for float16 (read back through float32) */
static void
fmtslow(char *buf, size_t size, double v, DType dt)
{
	int maxp = dt == DT_FLOAT64 ? 17 : dt == DT_FLOAT16 ? 5 : 9;

	for (int prec = 1; prec <= maxp; prec++) {
		snprintf(buf, size, "%.*g", prec, v);
		if (dt == DT_FLOAT64 ? strtod(buf, NULL) == v
		    : dt == DT_FLOAT16 ? ir_f16_from_f32(strtof(buf, NULL)) == ir_f16_from_f32((float)v)
		    : strtof(buf, NULL) == (float)v) {
			/* 200, not 2e+02: below six digits the fewest digits in
			   plain notation, as TVM prints them (%g's precision 6) */
			if (strchr(buf, 'e') && prec < 6) {
				char plain[64];
				snprintf(plain, sizeof plain, "%.*g", 6, v);
				if (!strchr(plain, 'e') && strtod(plain, NULL) == strtod(buf, NULL))
					snprintf(buf, size, "%s", plain);
			}
			return;
		}
	}
}

/* A natural number in 32-bit limbs, least significant first: 2^56 times
** 5^1076 (a float64's digits at its smallest) fits in 84 of them. */
enum { BIGLIMBS = 84, BIGDIGITS = BIGLIMBS * 10 };
typedef struct Big {
	uint32_t n;
	uint32_t d[BIGLIMBS];
} Big;

static void
bigmul(Big *b, uint32_t x)
{
	uint64_t c = 0;

	for (uint32_t i = 0; i < b->n; i++) {
		c += (uint64_t)b->d[i] * x;
		b->d[i] = (uint32_t)c;
		c >>= 32;
	}
	if (c)
		b->d[b->n++] = (uint32_t)c;
}

/* bigset: b = x * 2^sh when sh >= 0, x * 5^-sh otherwise */
static void
bigset(Big *b, uint64_t x, int sh)
{
	static const uint32_t pow5[14] = { 1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125, 9765625,
		48828125, 244140625, 1220703125 };

	b->n = 0;
	while (x) {
		b->d[b->n++] = (uint32_t)x;
		x >>= 32;
	}
	for (int k = -sh; k > 0; k -= 13)
		bigmul(b, pow5[k < 13 ? k : 13]);
	for (int k = sh; k > 0; k -= 31)
		bigmul(b, 1u << (k < 31 ? k : 31));
}

/* bigdigits: b's decimal digits right-aligned in dig[0..len), zeros
** before them; b is consumed */
static void
bigdigits(Big *b, char *dig, int len)
{
	int k = len;

	memset(dig, '0', (size_t)len);
	while (b->n) {
		uint64_t r = 0;
		for (uint32_t i = b->n; i-- > 0;) {
			r = r << 32 | b->d[i];
			b->d[i] = (uint32_t)(r / 1000000000u);
			r %= 1000000000u;
		}
		while (b->n && !b->d[b->n - 1])
			b->n--;
		for (int j = 0; j < 9 && k > 0; j++, r /= 10)
			dig[--k] = (char)('0' + r % 10);
	}
}

/* roundat: c = v's digits rounded to nearest (ties to even) after index
** r, the rest zeros, as %g rounds */
static void
roundat(const char *v, char *c, int len, int r)
{
	int up = 0;

	memcpy(c, v, (size_t)len);
	if (r + 1 < len) {
		if (v[r + 1] > '5')
			up = 1;
		else if (v[r + 1] == '5') {
			up = (v[r] - '0') & 1;
			for (int i = r + 2; i < len && !up; i++)
				up = v[i] != '0';
		}
		memset(c + r + 1, '0', (size_t)(len - r - 1));
	}
	for (int i = r; up && i >= 0; i--) {
		up = c[i] == '9';
		c[i] = up ? '0' : (char)(c[i] + 1);
	}
}

/* gfmt: "%.*g" (precision prec) of the number whose digits are c[0..len)
** times 10^scale, already rounded to prec digits, after sign */
static void
gfmt(char *buf, size_t size, const char *sign, const char *c, int len, int scale, int prec)
{
	char dig[32], out[64];
	int first = 0, nd, x, k = 0;

	while (first < len && c[first] == '0')
		first++;
	x = scale + len - 1 - first;    /* c's leading digit's power of 10 */
	for (nd = 0; nd < prec && first + nd < len; nd++)
		dig[nd] = c[first + nd];
	while (nd > 1 && dig[nd - 1] == '0')
		nd--;
	k += snprintf(out, sizeof out, "%s", sign);
	if (x < -4 || x >= prec) {
		out[k++] = dig[0];
		if (nd > 1) {
			out[k++] = '.';
			memcpy(out + k, dig + 1, (size_t)nd - 1);
			k += nd - 1;
		}
		snprintf(out + k, sizeof out - (size_t)k, "e%c%02d", x < 0 ? '-' : '+', x < 0 ? -x : x);
	} else if (x < 0) {
		out[k++] = '0';
		out[k++] = '.';
		for (int i = 0; i < -x - 1; i++)
			out[k++] = '0';
		memcpy(out + k, dig, (size_t)nd);
		out[k + nd] = 0;
	} else {
		for (int i = 0; i <= x; i++)
			out[k++] = i < nd ? dig[i] : '0';
		if (nd > x + 1) {
			out[k++] = '.';
			memcpy(out + k, dig + x + 1, (size_t)(nd - x - 1));
			k += nd - x - 1;
		}
		out[k] = 0;
	}
	snprintf(buf, size, "%s", out);
}

#ifdef __SIZEOF_INT128__
typedef unsigned __int128 U128;

/* u64digits: the decimal digits of q into d; their count */
static int
u64digits(uint64_t q, char *d)
{
	char t[24];
	int k = 0, n = 0;

	do
		t[k++] = (char)('0' + q % 10);
	while (q /= 10);
	while (k)
		d[n++] = t[--k];
	return n;
}

/* round128: nv rounded to nearest, ties to even, at 10^t: the digits kept,
** and the rounded number into *c */
static U128
round128(U128 nv, const U128 *pow10, int t, U128 *c)
{
	U128 q = nv, r, half;

	*c = nv;
	if (t == 0)
		return q;
	r = nv % pow10[t];
	half = pow10[t] / 2;
	q = nv / pow10[t];
	q += r > half || (r == half && (q & 1));
	*c = q * pow10[t];
	return q;
}

/* shortfast: shortest()'s search in 128-bit integers, where m, lo and hi
** times 2^e (or 5^-e) stay below 2^127; 0 when they would not */
static int
shortfast(char *buf, size_t size, const char *sign, uint64_t m, uint64_t lo, uint64_t hi, int e, int even,
          int maxp)
{
	U128 f = 1, nv, nlo, nhi, pow10[40];
	int ndig, scale = e < 0 ? e : 0;

	if (e < 0) {
		for (int k = 0; k < -e; k++) {
			if (f > ((U128)1 << 120) / 5)
				return 0;
			f *= 5;
		}
	} else {
		if (e > 60)
			return 0;
		f = (U128)1 << e;
	}
	if (f > (((U128)1 << 126) / hi))
		return 0;
	nv = m * f;
	nlo = lo * f;
	nhi = hi * f;
	pow10[0] = 1;
	for (ndig = 1; ndig < 39 && pow10[ndig - 1] * 10 <= nv; ndig++)
		pow10[ndig] = pow10[ndig - 1] * 10;
	/* nv has ndig digits: pow10[ndig - 1] <= nv < 10^ndig */
	for (int p = 1; p <= maxp; p++) {
		int t = ndig - p > 0 ? ndig - p : 0, n;
		U128 c, q = round128(nv, pow10, t, &c);
		char d[48];
		if (!(c > nlo || (c == nlo && even)) || !(c < nhi || (c == nhi && even)))
			continue;
		n = u64digits((uint64_t)q, d);
		gfmt(buf, size, sign, d, n, scale + t, p);
		if (strchr(buf, 'e') && p < 6) {
			/* "%.6g", if it has no exponent and is the same number */
			int t6 = ndig - 6 > 0 ? ndig - 6 : 0, x6;
			U128 c6, q6 = round128(nv, pow10, t6, &c6);
			n = u64digits((uint64_t)q6, d);
			x6 = scale + t6 + n - 1;
			if (x6 >= -4 && x6 < 6 && c6 == c)
				gfmt(buf, size, sign, d, n, scale + t6, 6);
		}
		return 1;
	}
	return 0;
}
#endif

/* shortest: ir_fmt_float for a finite nonzero v that is a value of dt
** (float32 or float64).  v is m * 2^e; what reads back as v are the
** numbers strictly between lo and hi, and lo and hi themselves when m is
** even (ties go to even).  All three are integers times 10^scale. */
static void
shortest(char *buf, size_t size, double v, DType dt)
{
	char dv[BIGDIGITS], dlo[BIGDIGITS], dhi[BIGDIGITS], c[BIGDIGITS], c6[BIGDIGITS];
	int bits = dt == DT_FLOAT64 ? 53 : 24, emin = dt == DT_FLOAT64 ? -1074 : -149;
	int maxp = dt == DT_FLOAT64 ? 17 : 9, e, len, first, scale, even, nbits;
	const char *sign = v < 0 ? "-" : "";
	uint64_t m, lo, hi;
	Big b;

	m = (uint64_t)ldexp(frexp(fabs(v), &e), bits);
	e -= bits;
	if (e < emin) {
		m >>= emin - e;
		e = emin;
	}
	even = !(m & 1);
	/* the bounds halfway to the neighbours, in units of 2^(e-2) */
	lo = 4 * m - (m == (uint64_t)1 << (bits - 1) && e > emin ? 1 : 2);
	hi = 4 * m + 2;
	m *= 4;
	e -= 2;
	scale = e < 0 ? e : 0;
#ifdef __SIZEOF_INT128__
	if (shortfast(buf, size, sign, m, lo, hi, e, even, maxp))
		return;
#endif
	bigset(&b, hi, e);
	/* as many digits as hi's bits can hold, and a place for a carry */
	for (nbits = 32 * (int)b.n; !(b.d[b.n - 1] >> (nbits - 32 * ((int)b.n - 1) - 1)); nbits--)
		;
	len = nbits * 30103 / 100000 + 2;
	bigdigits(&b, dhi, len);
	bigset(&b, m, e);
	bigdigits(&b, dv, len);
	bigset(&b, lo, e);
	bigdigits(&b, dlo, len);
	for (first = 0; dv[first] == '0'; first++)
		;
	for (int p = 1; p <= maxp; p++) {
		int clo, chi;
		roundat(dv, c, len, first + p - 1);
		clo = memcmp(c, dlo, (size_t)len);
		chi = memcmp(c, dhi, (size_t)len);
		if (!(clo > 0 || (clo == 0 && even)) || !(chi < 0 || (chi == 0 && even)))
			continue;
		gfmt(buf, size, sign, c, len, scale, p);
		if (strchr(buf, 'e') && p < 6) {
			/* "%.6g", if it has no exponent and is the same number */
			int f6 = 0, x6;
			roundat(dv, c6, len, first + 5);
			while (c6[f6] == '0')
				f6++;
			x6 = scale + len - 1 - f6;
			if (x6 >= -4 && x6 < 6 && memcmp(c, c6, (size_t)len) == 0)
				gfmt(buf, size, sign, c6, len, scale, 6);
		}
		return;
	}
	fmtslow(buf, size, v, dt);
}

void
ir_fmt_float(char *buf, size_t size, double v, DType dt)
{
	if (isnan(v)) {
		snprintf(buf, size, "nan");
		return;
	}
	if (isinf(v)) {
		snprintf(buf, size, v < 0 ? "-inf" : "inf");
		return;
	}
	if (v == 0)
		snprintf(buf, size, signbit(v) ? "-0" : "0");
	else if (dt == DT_FLOAT64 || (dt == DT_FLOAT32 && (double)(float)v == v))
		shortest(buf, size, v, dt);
	else
		fmtslow(buf, size, v, dt);
}

static void
putstr(Out *f, const char *s)
{
	ochar(f, '"');
	for (; *s; s++) {
		switch (*s) {
		case '"': ostr(f, "\\\""); break;
		case '\\': ostr(f, "\\\\"); break;
		case '\n': ostr(f, "\\n"); break;
		case '\t': ostr(f, "\\t"); break;
		case '\r': ostr(f, "\\r"); break;
		default: ochar(f, *s); break;
		}
	}
	ochar(f, '"');
}

static void
attrprint(Out *f, const Module *m, const AttrVal *v)
{
	char buf[64];

	switch (v->kind) {
	case AV_NONE: ostr(f, "None"); break;
	case AV_BOOL: ostr(f, v->u.i ? "True" : "False"); break;
	case AV_INT: oint(f, v->u.i); break;
	case AV_FLOAT:
		ir_fmt_float(buf, sizeof buf, v->u.f, DT_FLOAT64);
		ostr(f, buf);
		ochar(f, 'f');
		break;
	case AV_STR: putstr(f, ir_symstr(m, v->u.s)); break;
	case AV_DTYPE: putstr(f, ir_dtype_names[v->u.i]); break;
	case AV_ARRAY:
		ochar(f, '[');
		for (uint32_t i = 0; i < v->n; i++) {
			if (i)
				ostr(f, ", ");
			attrprint(f, m, &m->attrs[v->first + i]);
		}
		ochar(f, ']');
		break;
	}
}

void
ir_attr_print(FILE *f, const Module *m, const AttrVal *v)
{
	char buf[256];
	Out o = { f, buf, 0, sizeof buf };

	attrprint(&o, m, v);
	oflush(&o);
}

/* scalar: print a rank-0 constant as a literal with its dtype's suffix */
static void
scalar(Out *f, DType dt, const void *data)
{
	char buf[64];

	switch (dt) {
	case DT_BOOL: ostr(f, *(const uint8_t *)data ? "True" : "False"); break;
	case DT_INT8: oint(f, *(const int8_t *)data); ostr(f, "i8"); break;
	case DT_UINT8: ouint(f, *(const uint8_t *)data); ostr(f, "u8"); break;
	case DT_INT16: { int16_t x; memcpy(&x, data, 2); oint(f, x); ostr(f, "i16"); break; }
	case DT_UINT16: { uint16_t x; memcpy(&x, data, 2); ouint(f, x); ostr(f, "u16"); break; }
	case DT_INT32: { int32_t x; memcpy(&x, data, 4); oint(f, x); break; }
	case DT_UINT32: { uint32_t x; memcpy(&x, data, 4); ouint(f, x); ostr(f, "u32"); break; }
	case DT_INT64: { int64_t x; memcpy(&x, data, 8); oint(f, x); ostr(f, "i64"); break; }
	case DT_FLOAT16: {
		uint16_t x;
		memcpy(&x, data, 2);
		ir_fmt_float(buf, sizeof buf, ir_f32_from_f16(x), DT_FLOAT16);
		ostr(f, buf);
		ostr(f, "f16");
		break;
	}
	case DT_FLOAT32: {
		float x;
		memcpy(&x, data, 4);
		ir_fmt_float(buf, sizeof buf, x, DT_FLOAT32);
		ostr(f, buf);
		ochar(f, 'f');
		break;
	}
	case DT_FLOAT64: {
		double x;
		memcpy(&x, data, 8);
		ir_fmt_float(buf, sizeof buf, x, DT_FLOAT64);
		ostr(f, buf);
		ostr(f, "f64");
		break;
	}
	default: ostr(f, "?"); break;
	}
}

/* inlinable: whether const([...]) can spell c's shape: its data is known,
** and nested lists stop at the first empty one, so a 0 dimension must be
** the last */
static int
inlinable(const Module *m, const Const *c)
{
	const Type *ty = &m->types[c->type];

	if (!c->data)
		return 0;
	for (uint32_t i = 0; i + 1 < ty->n; i++)
		if (m->dims[ty->first + i] == 0)
			return 0;
	return 1;
}

/* emptynest: the nested empty lists of a tensor type t of no elements from
** dimension i on: (2, 0) is [[], []] (the rank is at most 8) */
static void
emptynest(Out *f, const Module *m, TypeId t, uint32_t i)
{
	const Type *ty = &m->types[t];
	int64_t n = m->dims[ty->first + i];

	ochar(f, '[');
	if (i + 1 < ty->n)
		for (int64_t k = 0; k < n; k++) {
			if (k)
				ostr(f, ", ");
			emptynest(f, m, t, i + 1);
		}
	ochar(f, ']');
}

/* inlineconst: print a constant as const([...], dtype="...") */
static void
inlineconst(Out *f, const Module *m, const Const *c)
{
	const Type *ty = &m->types[c->type];
	DType dt = (DType)ty->dtype;
	size_t esz = ir_dtype_bytes[dt];
	int64_t n = ir_type_numel(m, c->type), stride[8];
	char buf[64];
	int r = (int)ty->n;

	ostr(f, "const(");
	if (n == 0) {
		/* no elements: the brackets alone give the shape */
		emptynest(f, m, c->type, 0);
		ostr(f, ", dtype=\"");
		ostr(f, ir_dtype_names[dt]);
		ostr(f, "\")");
		return;
	}
	stride[r > 0 ? r - 1 : 0] = 1;
	for (int i = r - 1; i > 0; i--)
		stride[i - 1] = stride[i] * m->dims[ty->first + i];
	for (int i = 0; i < r; i++)
		ochar(f, '[');
	for (int64_t k = 0; k < n; k++) {
		const unsigned char *p = (const unsigned char *)c->data + (size_t)k * esz;
		int closes = 0;
		if (k) {
			for (int i = r - 1; i > 0 && k % stride[i - 1] == 0; i--)
				closes++;
			for (int i = 0; i < closes; i++)
				ochar(f, ']');
			ostr(f, ", ");
			for (int i = 0; i < closes; i++)
				ochar(f, '[');
		}
		switch (ir_dtype_kind[dt]) {
		case 'f': {
			double v;
			if (dt == DT_FLOAT16) { uint16_t h; memcpy(&h, p, 2); v = ir_f32_from_f16(h); }
			else if (dt == DT_FLOAT32) { float x; memcpy(&x, p, 4); v = x; }
			else memcpy(&v, p, 8);
			ir_fmt_float(buf, sizeof buf, v, dt);
			/* keep a float spelling: 1 reads as an integer */
			ostr(f, buf);
			if (!strpbrk(buf, ".en"))
				ostr(f, ".0");
			break;
		}
		case 'b': ostr(f, *p ? "1" : "0"); break;
		case 'u': {
			uint64_t v = 0;
			memcpy(&v, p, esz);
			ouint(f, v);
			break;
		}
		default: {
			int64_t v;
			if (esz == 1) v = *(const int8_t *)p;
			else if (esz == 2) { int16_t x; memcpy(&x, p, 2); v = x; }
			else if (esz == 4) { int32_t x; memcpy(&x, p, 4); v = x; }
			else memcpy(&v, p, 8);
			oint(f, v);
			break;
		}
		}
	}
	for (int i = 0; i < r; i++)
		ochar(f, ']');
	ostr(f, ", dtype=\"");
	ostr(f, ir_dtype_names[dt]);
	ostr(f, "\")");
}

/* ---------------------------------------------------------------- printer */

typedef struct Printer {
	Out *o;
	Module *m;
	const PrintOpts *opt;
	uint32_t *num;          /* temp number + 1 of each printed node; 0 = none */
	uint8_t *done;          /* bound already, in the current pass */
	int dry;                /* the numbering pass: walk, number, print nothing */
	int live;               /* no numbering pass: bindings are numbered as printed */
	uint32_t next;          /* next temp number */
	int32_t *metaidx;       /* meta index + 1 per constant; 0 = none yet */
	MetaList *meta;
	uint32_t nmeta;
	struct { NodeId n; uint32_t i; } *stack;
	uint32_t nstack, capstack;
	/* placement (see place()), per node; all three NULL where oneblock() */
	NodeId *blk;            /* the fn whose block binds the node; 0: a global's fn */
	uint32_t *depth;        /* fn nodes: how deep their block nests */
	uint8_t *leaky;         /* fn nodes: their region holds nodes bound outside */
	uint32_t *seen;         /* the walk that last reached the node */
	uint32_t epoch;
	/* the names of all variables, sorted, to spell projections (see getitem()) */
	const char **vnames;
	uint32_t nvnames;
	/* the text of each type printed so far (see ptype()), by TypeId */
	struct { uint32_t at, len; } *tys;      /* len 0: not yet; TYLONG: not kept */
	char *tytext;
	uint32_t ntytext, captytext;
} Printer;

#define TYLONG UINT32_MAX


static int
atomic(const Module *m, NodeId n)
{
	uint8_t k = m->nodes[n].kind;
	return k == NK_VAR || k == NK_CONST || k == NK_GLOBAL;
}

/* ptype: t's text.  A model's thousands of annotations and parameters
** name a few dozen types: each is formatted once and copied after that,
** but for one too long to keep (a chain of nested tuples is as deep as
** the bindings are many), formatted every time. */
static void
ptype(Printer *p, TypeId t)
{
	char buf[256];
	size_t k;

	if (!p->tys[t].len) {
		k = ir_type_fmt(p->m, t, buf, sizeof buf);
		if (k >= sizeof buf || p->ntytext > (1u << 30)) {
			p->tys[t].len = TYLONG;
		} else {
			ir_vgrow(&p->tytext, &p->captytext, p->ntytext + (uint32_t)k);
			memcpy(p->tytext + p->ntytext, buf, k);
			p->tys[t].at = p->ntytext;
			p->tys[t].len = (uint32_t)k;
			p->ntytext += (uint32_t)k;
		}
	}
	if (p->tys[t].len == TYLONG) {
		oflush(p->o);
		ir_type_print(p->o->f, p->m, t);
		return;
	}
	oput(p->o, p->tytext + p->tys[t].at, p->tys[t].len);
}

static void
tyann(Printer *p, TypeId t)
{
	if (!p->opt->show_types || !t)
		return;
	ostr(p->o, " /* ty=");
	ptype(p, t);
	ostr(p->o, " */");
}

/* ---------------------------------------------------------------- placement */

/* lca: the innermost block enclosing blocks a and b, or 0 if they belong
** to different globals */
static NodeId
lca(const Printer *p, NodeId a, NodeId b)
{
	while (a != b) {
		if (!a || !b)
			return 0;
		if (p->depth[a] >= p->depth[b])
			a = p->blk[a];
		else
			b = p->blk[b];
	}
	return a;
}

/* hasparam: whether fn has a parameter other than v named name */
static int
hasparam(const Module *m, NodeId fn, Sym name, NodeId v)
{
	for (uint32_t i = 0; i + 1 < m->nodes[fn].nargs; i++) {
		NodeId q = ir_arg(m, fn, i);
		if (q && q != v && m->nodes[q].aux == name)
			return 1;
	}
	return 0;
}

/* unshadow: the block at or outside b where every variable n names reads
** as itself: a parameter of a block between b and the variable's own fn
** that has the same name would capture the reference */
static NodeId
unshadow(const Printer *p, NodeId n, NodeId b, const NodeId *owner)
{
	const Module *m = p->m;
	uint32_t floor = 0;     /* the depth of the innermost owner: n may not leave it */

	for (uint32_t i = 0; i < m->nodes[n].nargs; i++) {
		NodeId v = ir_arg(m, n, i);
		if (v && m->nodes[v].kind == NK_VAR && owner[v] && owner[v] != n && p->depth[owner[v]] > floor)
			floor = p->depth[owner[v]];
	}
	for (uint32_t i = 0; i < m->nodes[n].nargs; i++) {
		NodeId v = ir_arg(m, n, i), c, hit = 0;
		if (!v || m->nodes[v].kind != NK_VAR || !owner[v] || owner[v] == n)
			continue;
		for (c = b; c && c != owner[v]; c = p->blk[c])
			if (hasparam(m, c, m->nodes[v].aux, v))
				hit = c;
		if (c == owner[v] && hit && p->blk[hit] && p->depth[p->blk[hit]] >= floor)
			b = p->blk[hit];
	}
	return b;
}

/* oneblock: whether m has one global and no fn literal (no other fn
** node, reached or not).  Then the global's block binds every node its
** fn reaches, as place() would decide, with nothing leaky: the printer
** needs no placement. */
static int
oneblock(const Module *m)
{
	if (m->nglobals != 1)
		return 0;
	for (NodeId n = 1; n < m->nnodes; n++)
		if (m->nodes[n].kind == NK_FUNC && n != m->globals[0].fn)
			return 0;
	return 1;
}

/* place: decide which block binds each node.  TVM's printer binds a node
** in the first block whose walk reaches it, so a node reached first inside
** a fn literal is bound there even when it is used outside too (the outer
** reference then names a binding out of scope), or when it names an outer
** variable that a parameter of the fn shadows.  Here a node is bound in the
** innermost block that holds all its uses, which is where TVM binds it
** whenever TVM's text reads back right, and further out while a parameter
** in between would capture a variable it names.  A fn whose region holds a
** node bound outside it is leaky: the walk of the outer block looks inside
** it, to bind such nodes before the fn. */
static void
place(Printer *p)
{
	Module *m = p->m;
	NodeId *order = ir_xcalloc(m->nnodes, sizeof *order);
	NodeId *owner = ir_xcalloc(m->nnodes, sizeof *owner);
	uint8_t *state = ir_xcalloc(m->nnodes, 1);     /* 0 new, 1 reached, 2 ordered */
	uint8_t *root = ir_xcalloc(m->nnodes, 1);
	struct { NodeId n; uint32_t i; } *st = NULL;
	uint32_t norder = 0, nst = 0, capst = 0;

	/* every node the globals reach, operands before users */
	for (uint32_t g = 0; g < m->nglobals; g++) {
		NodeId fn = m->globals[g].fn;
		root[fn] = 1;
		if (state[fn])
			continue;
		state[fn] = 1;
		ir_vgrow(&st, &capst, nst + 1);
		st[nst].n = fn;
		st[nst++].i = 0;
		while (nst) {
			NodeId n = st[nst - 1].n;
			if (st[nst - 1].i < m->nodes[n].nargs) {
				NodeId a = ir_arg(m, n, st[nst - 1].i++);
				if (a && !state[a]) {
					state[a] = 1;
					ir_vgrow(&st, &capst, nst + 1);
					st[nst].n = a;
					st[nst++].i = 0;
				}
				continue;
			}
			nst--;
			state[n] = 2;
			order[norder++] = n;
		}
	}
	for (uint32_t k = 0; k < norder; k++) {
		NodeId n = order[k];
		if (m->nodes[n].kind == NK_FUNC)
			for (uint32_t i = 0; i + 1 < m->nodes[n].nargs; i++)
				if (ir_arg(m, n, i))
					owner[ir_arg(m, n, i)] = n;
	}
	/* users before operands, so that every user's block is known */
	for (uint32_t k = norder; k-- > 0;) {
		NodeId n = order[k], b = 0, first = 0;
		if (atomic(m, n) || root[n])
			continue;
		IR_FOR_USES(m, n, slot) {
			NodeId u = m->uses[slot].user, at;
			if (state[u] != 2 || m->nodes[u].kind == NK_DEAD)
				continue;       /* a user no global reaches */
			at = m->nodes[u].kind == NK_FUNC ? u : p->blk[u];
			if (!first)
				b = first = at;
			else
				b = lca(p, b, at);
		}
		if (!b)
			b = first;
		if (b)
			b = unshadow(p, n, b, owner);
		p->blk[n] = b;
		if (m->nodes[n].kind == NK_FUNC)
			p->depth[n] = b ? p->depth[b] + 1 : 0;
	}
	/* a fn between a use and the block that binds the used node is leaky */
	for (uint32_t k = 0; k < norder; k++) {
		NodeId n = order[k];
		if (atomic(m, n) || root[n])
			continue;
		IR_FOR_USES(m, n, slot) {
			NodeId u = m->uses[slot].user;
			if (state[u] != 2 || m->nodes[u].kind == NK_DEAD)
				continue;
			for (NodeId c = m->nodes[u].kind == NK_FUNC ? u : p->blk[u]; c && c != p->blk[n]; c = p->blk[c])
				p->leaky[c] = 1;
		}
	}
	free(st);
	free(order);
	free(owner);
	free(state);
	free(root);
}

/* ref: print a reference to n as an operand */
static void
ref(Printer *p, NodeId n)
{
	Module *m = p->m;
	Node *nd = &m->nodes[n];

	if (!n) {
		ostr(p->o, "<missing>");
		return;
	}
	switch (nd->kind) {
	case NK_VAR:
		ochar(p->o, '%');
		ostr(p->o, ir_symstr(m, nd->aux));
		return;
	case NK_GLOBAL:
		ochar(p->o, '@');
		ostr(p->o, ir_symstr(m, nd->aux));
		return;
	case NK_CONST: {
		Const *c = ir_node_const(m, n);
		const Type *ty = &m->types[c->type];
		if (c->data && ty->n == 0) {
			scalar(p->o, (DType)ty->dtype, c->data);
		} else if ((c->flags & CF_INLINE) && inlinable(m, c)) {
			inlineconst(p->o, m, c);
		} else {
			uint32_t ci = nd->aux;
			if (!p->metaidx[ci]) {
				p->metaidx[ci] = (int32_t)++p->nmeta;
				if (p->meta) {
					ir_vgrow(&p->meta->consts, &p->meta->cap, p->meta->n + 1);
					p->meta->consts[p->meta->n++] = n;
				}
			}
			ostr(p->o, "meta[relay.Constant][");
			oint(p->o, p->metaidx[ci] - 1);
			ochar(p->o, ']');
		}
		tyann(p, c->type);
		return;
	}
	default:
		if (p->num[n])
		{
			ochar(p->o, '%');
			ouint(p->o, p->num[n] - 1);
		}
		else
			ostr(p->o, "<unprinted>");
	}
}

static void
indentby(Printer *p, int indent)
{
	for (int i = 0; i < indent; i++)
		ostr(p->o, "  ");
}

/* params: print a function's parameters and attributes */
static void
params(Printer *p, NodeId fn)
{
	Module *m = p->m;
	uint32_t np = ir_func_nparams(m, fn);
	Func *fu = ir_node_func(m, fn);

	ochar(p->o, '(');
	for (uint32_t i = 0; i < np; i++) {
		NodeId v = ir_arg(m, fn, i);
		if (i)
			ostr(p->o, ", ");
		ochar(p->o, '%');
		ostr(p->o, ir_symstr(m, m->nodes[v].aux));
		if (m->nodes[v].type) {
			ostr(p->o, ": ");
			ptype(p, m->nodes[v].type);
			tyann(p, m->nodes[v].type);
		}
	}
	for (uint32_t i = 0; i < fu->nattrs; i++) {
		const AttrVal *a = &m->attrs[fu->attrs + i];
		if (i || np)
			ostr(p->o, ", ");
		ostr(p->o, ir_symstr(m, a->key));
		ochar(p->o, '=');
		attrprint(p->o, m, a);
	}
	ochar(p->o, ')');
	{
		TypeId ret = fu->ret;
		if (!ret && p->opt->show_types && m->nodes[fn].type)
			ret = m->tylist[m->types[m->nodes[fn].type].first + np];
		if (ret) {
			ostr(p->o, " -> ");
			ptype(p, ret);
		}
	}
}

static int
cmpstr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* dotclash: whether field i of tuple t, spelled %name.i when t is the
** variable %name, would read back as another variable named "name.i"
** (the parser looks dotted names up whole first); such a projection is
** printed (%name).i.  Any variable of that name counts, in scope or not. */
static int
dotclash(Printer *p, NodeId t, uint32_t i)
{
	const Module *m = p->m;
	const char *name;
	char *key;
	int found;

	if (!t || m->nodes[t].kind != NK_VAR)
		return 0;
	if (!p->vnames) {
		p->vnames = ir_xcalloc(m->nnodes, sizeof *p->vnames);
		for (NodeId n = 1; n < m->nnodes; n++)
			if (m->nodes[n].kind == NK_VAR)
				p->vnames[p->nvnames++] = ir_symstr(m, m->nodes[n].aux);
		qsort(p->vnames, p->nvnames, sizeof *p->vnames, cmpstr);
	}
	name = ir_symstr(m, m->nodes[t].aux);
	key = ir_xmalloc(strlen(name) + 16);
	sprintf(key, "%s.%u", name, i);
	found = bsearch(&key, p->vnames, p->nvnames, sizeof *p->vnames, cmpstr) != NULL;
	free(key);
	return found;
}

/* expr: print the defining expression of a non-atomic node other than a
** fn literal (block() prints those) */
static void
expr(Printer *p, NodeId n)
{
	Module *m = p->m;
	Node *nd = &m->nodes[n];

	switch (nd->kind) {
	case NK_CALL: {
		const OpInfo *o = &ir_ops[nd->op];
		int first = 1;
		ostr(p->o, o->name);
		ochar(p->o, '(');
		for (uint32_t i = 0; i < nd->nargs; i++) {
			if (!first)
				ostr(p->o, ", ");
			first = 0;
			ref(p, ir_arg(m, n, i));
		}
		if (o->nattrs && nd->aux) {
			AttrId defs = ir_op_defaults(m, nd->op);    /* may move m->attrs */
			const AttrVal *a = &m->attrs[nd->aux];
			for (int k = 0; k < o->nattrs; k++) {
				if (o->attrs[k].deflt && !(o->attrs[k].type & AT_ALWAYS) &&
				    ir_attr_equal(m, &a[k], &m->attrs[defs + k]))
					continue;
				if (!first)
					ostr(p->o, ", ");
				first = 0;
				ostr(p->o, o->attrs[k].name);
				ochar(p->o, '=');
				attrprint(p->o, m, &a[k]);
			}
		}
		ochar(p->o, ')');
		break;
	}
	case NK_CALLFN: {
		AttrId first;
		uint32_t na = ir_node_attrs(m, n, &first);
		ref(p, ir_arg(m, n, 0));
		ochar(p->o, '(');
		for (uint32_t i = 1; i < nd->nargs; i++) {
			if (i > 1)
				ostr(p->o, ", ");
			ref(p, ir_arg(m, n, i));
		}
		/* its keyed attributes, as written (TVM's attrs of the call) */
		for (uint32_t i = 0; i < na; i++) {
			const AttrVal *a = &m->attrs[first + i];
			if (i || nd->nargs > 1)
				ostr(p->o, ", ");
			ostr(p->o, ir_symstr(m, a->key));
			ochar(p->o, '=');
			attrprint(p->o, m, a);
		}
		ochar(p->o, ')');
		break;
	}
	case NK_TUPLE:
		ochar(p->o, '(');
		for (uint32_t i = 0; i < nd->nargs; i++) {
			if (i)
				ostr(p->o, ", ");
			ref(p, ir_arg(m, n, i));
		}
		ostr(p->o, nd->nargs == 1 ? ",)" : ")");
		break;
	case NK_GETITEM:
		if (dotclash(p, ir_arg(m, n, 0), nd->aux)) {
			ochar(p->o, '(');
			ref(p, ir_arg(m, n, 0));
			ochar(p->o, ')');
		} else {
			ref(p, ir_arg(m, n, 0));
		}
		ochar(p->o, '.');
		ouint(p->o, nd->aux);
		break;
	default:
		ref(p, n);
	}
}

/* A block being printed: the bindings and result of a function's body.
** Blocks nest as fn literals do in the output, which may be far deeper
** than in the input (a fn literal used only inside another is printed
** inside it), so they live on a heap stack, not the C stack. */
enum { FR_ROOT, FR_BIND, FR_INLINE };
typedef struct Frame {
	NodeId fn;
	uint8_t mode;       /* FR_ROOT: a global's body; FR_BIND: %k = fn ...;
	                       FR_INLINE: the result of the enclosing block */
	uint8_t result;     /* the result line has been started */
	int indent;         /* of the block's lines */
	uint32_t base, ep;  /* its walk: Printer.stack[base..] and its seen stamp */
} Frame;

/* openblock: start the block of fn, printing its header unless it is a
** global's (ir_print() prints that) */
static void
openblock(Printer *p, Frame **fr, uint32_t *nfr, uint32_t *cap, NodeId fn, int mode, int indent)
{
	NodeId body = ir_func_body(p->m, fn);
	Frame *f;

	if (!p->dry && mode != FR_ROOT) {
		ostr(p->o, "fn ");
		params(p, fn);
		ostr(p->o, " {\n");
	}
	ir_vgrow(fr, cap, *nfr + 1);
	f = &(*fr)[(*nfr)++];
	f->fn = fn;
	f->mode = (uint8_t)mode;
	f->result = 0;
	f->indent = indent;
	f->base = p->nstack;
	f->ep = ++p->epoch;
	ir_vgrow(&p->stack, &p->capstack, p->nstack + 1);
	p->stack[p->nstack].n = body;
	p->stack[p->nstack].i = 0;
	p->nstack++;
	p->seen[body] = f->ep;
}

/* nextbind: advance the walk of block f to the next node it binds, or 0
** when the walk is over.  The walk is a post-order over operands from the
** body; fn literals are leaves unless leaky (see place()). */
static NodeId
nextbind(Printer *p, const Frame *f)
{
	Module *m = p->m;
	NodeId body = ir_func_body(m, f->fn);

	while (p->nstack > f->base) {
		NodeId n = p->stack[p->nstack - 1].n;
		Node *nd = &m->nodes[n];
		uint32_t i = p->stack[p->nstack - 1].i;
		uint32_t nops = nd->kind == NK_FUNC && !(p->leaky && p->leaky[n]) ? 0 : nd->nargs;

		if (i < nops) {
			NodeId a = ir_arg(m, n, i);
			p->stack[p->nstack - 1].i++;
			if (a && !atomic(m, a) && !p->done[a] && p->seen[a] != f->ep) {
				p->seen[a] = f->ep;
				ir_vgrow(&p->stack, &p->capstack, p->nstack + 1);
				p->stack[p->nstack].n = a;
				p->stack[p->nstack].i = 0;
				p->nstack++;
			}
			continue;
		}
		p->nstack--;
		if (n == body)
			break;
		if (p->done[n] || (p->blk && p->blk[n] != f->fn))
			continue;   /* bound already, or in an inner block */
		return n;
	}
	p->nstack = f->base;
	return 0;
}

/* block: print the body of global function fn at indent 1, or in the dry
** pass only number its bindings.  A fn literal's body takes its numbers
** before the fn itself, so the printing pass needs the dry pass's numbers
** to write %k = fn ... ahead of its body. */
static void
block(Printer *p, NodeId fn)
{
	Module *m = p->m;
	Frame *fr = NULL;
	uint32_t nfr = 0, cap = 0;

	openblock(p, &fr, &nfr, &cap, fn, FR_ROOT, 1);
	while (nfr) {
		Frame *f = &fr[nfr - 1];
		NodeId body = ir_func_body(m, f->fn), n;
		int indent = f->indent, mode = f->mode;

		if (!f->result && (n = nextbind(p, f))) {
			Node *nd = &m->nodes[n];
			if (p->live)
				p->num[n] = ++p->next;
			if (!p->dry) {
				indentby(p, indent);
				ochar(p->o, '%');
				ouint(p->o, p->num[n] - 1);
				ostr(p->o, " = ");
			}
			if (nd->kind == NK_FUNC) {
				openblock(p, &fr, &nfr, &cap, n, FR_BIND, indent + 1);
				continue;
			}
			if (p->dry)
				p->num[n] = ++p->next;
			else {
				expr(p, n);
				tyann(p, nd->type);
				ostr(p->o, ";\n");
			}
			p->done[n] = 1;
			continue;
		}
		if (!f->result) {
			/* the walk is over: the result line */
			f->result = 1;
			if (!p->dry)
				indentby(p, indent);
			if (!atomic(m, body) && !p->done[body] && m->nodes[body].kind == NK_FUNC) {
				openblock(p, &fr, &nfr, &cap, body, FR_INLINE, indent + 1);
				continue;
			}
			if (p->dry)
				;
			else if (atomic(m, body) || p->done[body])
				ref(p, body);
			else
				expr(p, body);
		}
		/* the result line is written (an inline fn has just closed) */
		if (!p->dry) {
			if (!atomic(m, body))
				tyann(p, m->nodes[body].type);
			ochar(p->o, '\n');
		}
		nfr--;
		if (mode == FR_ROOT)
			continue;
		if (!p->dry) {
			indentby(p, indent - 1);
			ochar(p->o, '}');
		}
		if (mode == FR_BIND) {
			NodeId g = f->fn;
			if (p->dry)
				p->num[g] = ++p->next;
			else {
				tyann(p, m->nodes[g].type);
				ostr(p->o, ";\n");
			}
			p->done[g] = 1;
		}
	}
	free(fr);
}

typedef struct GlobalName {
	const char *name;
	uint32_t idx;
} GlobalName;

static int
cmpglobal(const void *a, const void *b)
{
	return strcmp(((const GlobalName *)a)->name, ((const GlobalName *)b)->name);
}

/* sortglobals: global indices sorted by name (names are unique, so the
** order is total; qsort, since a module may have very many globals) */
static void
sortglobals(const Module *m, uint32_t *idx)
{
	GlobalName *g = ir_xcalloc(m->nglobals ? m->nglobals : 1, sizeof *g);

	for (uint32_t i = 0; i < m->nglobals; i++) {
		g[i].name = ir_symstr(m, m->globals[i].name);
		g[i].idx = i;
	}
	if (m->nglobals)
		qsort(g, m->nglobals, sizeof *g, cmpglobal);
	for (uint32_t i = 0; i < m->nglobals; i++)
		idx[i] = g[i].idx;
	free(g);
}

void
ir_print(FILE *f, Module *m, const PrintOpts *opts, MetaList *meta)
{
	Printer p;
	uint32_t *order;
	Out out = { f, ir_xmalloc(1 << 16), 0, 1 << 16 }, *o = &out;

	memset(&p, 0, sizeof p);
	p.o = o;
	p.m = m;
	p.opt = opts;
	p.meta = meta;
	p.num = ir_xcalloc(m->nnodes, sizeof *p.num);
	p.metaidx = ir_xcalloc(m->nconsts ? m->nconsts : 1, sizeof *p.metaidx);
	if (!oneblock(m)) {
		p.blk = ir_xcalloc(m->nnodes, sizeof *p.blk);
		p.depth = ir_xcalloc(m->nnodes, sizeof *p.depth);
		p.leaky = ir_xcalloc(m->nnodes, 1);
	}
	p.seen = ir_xcalloc(m->nnodes, sizeof *p.seen);
	p.tys = ir_xcalloc(m->ntypes ? m->ntypes : 1, sizeof *p.tys);
	p.done = ir_xcalloc(m->nnodes, 1);
	if (p.blk)
		place(&p);
	order = ir_xcalloc(m->nglobals ? m->nglobals : 1, sizeof *order);
	sortglobals(m, order);
	if (m->has_version)
		ostr(o, "#[version = \"0.0.5\"]\n");
	/* number every global's bindings, then print.  A fn literal's binding
	** is numbered after its body's, and printed before them; where there
	** is none (oneblock()), the walk numbers in the order it prints. */
	if (p.blk) {
		p.dry = 1;
		for (uint32_t g = 0; g < m->nglobals; g++) {
			p.next = 0;
			block(&p, m->globals[order[g]].fn);
		}
		p.dry = 0;
		memset(p.done, 0, m->nnodes);
	} else {
		p.live = 1;
	}
	for (uint32_t g = 0; g < m->nglobals; g++) {
		const Global *gl = &m->globals[order[g]];
		NodeId fn = gl->fn;
		if (g)
			ochar(o, '\n');
		if (m->bare) {
			ostr(o, "fn ");
		} else {
			ostr(o, "def @");
			ostr(o, ir_symstr(m, gl->name));
		}
		params(&p, fn);
		ostr(o, " {\n");
		block(&p, fn);
		ochar(o, '}');
		if (m->bare)
			tyann(&p, m->nodes[fn].type);
		ochar(o, '\n');
	}
	oflush(o);
	free(out.buf);
	free(order);
	free(p.num);
	free(p.metaidx);
	free(p.stack);
	free(p.blk);
	free(p.depth);
	free(p.leaky);
	free(p.seen);
	free(p.done);
	free(p.vnames);
	free(p.tys);
	free(p.tytext);
}

void
ir_metalist_free(MetaList *l)
{
	free(l->consts);
	l->consts = NULL;
	l->n = l->cap = 0;
}
