/*
** typestr.c: types as Relay writes them: Tensor[(1, 3, ?), int8] (a '?'
** for IR_DIM_ANY), a rank-0 tensor as its dtype alone, (T, T) and (T,) for
** tuples, fn (T, T) -> T for functions, '?' for the unknown type.
**
** Everything that shows a type goes through ir_type_fmt: the Relay printer
** (text/) into its own buffer, diagnostics of every layer through
** ir_type_str.  It writes into the caller's buffer and stops where the
** buffer ends, so a diagnostic about a type as deep as a chain of bindings
** is long costs what its buffer holds, not the whole type.
*/
#include <stdlib.h>
#include <string.h>

#include "ir.h"

/* Buf: the caller's buffer; n bytes written of the cap (size - 1) it may
** hold; full once something did not fit. */
typedef struct Buf {
	char *p;
	size_t n, cap;
	int full;
} Buf;

static inline void
put(Buf *b, const char *s, size_t n)
{
	if (n > b->cap - b->n) {
		n = b->cap - b->n;
		b->full = 1;
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
}

static inline void
putstr(Buf *b, const char *s)
{
	put(b, s, strlen(s));
}

/* putint: v in decimal, as %lld writes it */
static void
putint(Buf *b, int64_t v)
{
	char d[24], *q = d + sizeof d;
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

	do
		*--q = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		*--q = '-';
	put(b, q, (size_t)(d + sizeof d - q));
}

/* Iterative: inference builds types as deep as a chain of bindings is
** long ((((x,),),) ... one level per binding).  Each stack entry is a type
** and the step reached in it. */
size_t
ir_type_fmt(const Module *m, TypeId t, char *buf, size_t size)
{
	struct { TypeId t; uint32_t i; } local[32], *st = local;
	uint32_t n = 0, cap = 32;
	Buf b = { buf, 0, size ? size - 1 : 0, 0 };

	if (!size)
		return 0;
	st[n].t = t;
	st[n++].i = 0;
	while (n && !b.full) {
		const Type *ty = &m->types[st[n - 1].t];
		uint32_t i = st[n - 1].i++;
		TypeId sub = 0;

		switch (ty->kind) {
		case TY_UNKNOWN:
			put(&b, "?", 1);
			n--;
			continue;
		case TY_TENSOR:
			if (ty->n == 0) {
				putstr(&b, ir_dtype_names[ty->dtype]);
				n--;
				continue;
			}
			put(&b, "Tensor[(", 8);
			for (uint32_t k = 0; k < ty->n; k++) {
				int64_t d = m->dims[ty->first + k];
				if (k)
					put(&b, ", ", 2);
				if (d == IR_DIM_ANY)
					put(&b, "?", 1);
				else
					putint(&b, d);
			}
			put(&b, "), ", 3);
			putstr(&b, ir_dtype_names[ty->dtype]);
			put(&b, "]", 1);
			n--;
			continue;
		case TY_TUPLE:
			/* ( T, T ) or (T,) */
			if (i == 0)
				put(&b, "(", 1);
			if (i == ty->n) {
				putstr(&b, ty->n == 1 ? ",)" : ")");
				n--;
				continue;
			}
			if (i)
				put(&b, ", ", 2);
			sub = m->tylist[ty->first + i];
			break;
		case TY_FUNC:
			/* fn (T, T) -> T: steps 0..n-1 the params, n the result */
			if (i == 0)
				put(&b, "fn (", 4);
			if (i == ty->n + 1) {
				n--;
				continue;
			}
			if (i == ty->n)
				put(&b, ") -> ", 5);
			else if (i)
				put(&b, ", ", 2);
			sub = m->tylist[ty->first + i];
			break;
		default:
			n--;
			continue;
		}
		if (n == cap) {
			void *bigger = ir_xmalloc(2 * (size_t)cap * sizeof *st);
			memcpy(bigger, st, (size_t)cap * sizeof *st);
			if (st != local)
				free(st);
			st = bigger;
			cap *= 2;
		}
		st[n].t = sub;
		st[n++].i = 0;
	}
	if (st != local)
		free(st);
	buf[b.n] = 0;
	return b.full ? size : b.n;
}

char *
ir_type_str(const Module *m, TypeId t, char *buf, size_t size)
{
	ir_type_fmt(m, t, buf, size);
	return buf;
}

void
ir_type_print(FILE *f, const Module *m, TypeId t)
{
	char local[256], *p = local;
	size_t size = sizeof local, k;

	while ((k = ir_type_fmt(m, t, p, size)) >= size) {
		if (p != local)
			free(p);
		size *= 2;
		p = ir_xmalloc(size);
	}
	fwrite(p, 1, k, f);
	if (p != local)
		free(p);
}
