/*
** attr.c: attribute values.  Values are immutable once pushed, so arrays
** may be shared between calls (a call's attributes copy only the top
** level).  Literal parsing here serves op-schema defaults and anything else
** that spells an attribute in Relay syntax outside the text parser.
*/
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"

AttrId
ir_attr_push(Module *m, const AttrVal *v, uint32_t n)
{
	AttrId id = m->nattrs;

	if (!n)
		return 0;
	ir_vgrow(&m->attrs, &m->capattrs, m->nattrs + n);
	memcpy(&m->attrs[id], v, n * sizeof *v);
	m->nattrs += n;
	return id;
}

/* ---------------------------------------------------------------- interning */

/* ir_attr_hash: h extended with the value a; arrays by their elements, so
** that equal values hash equal wherever their elements are */
uint64_t
ir_attr_hash(const Module *m, const AttrVal *a, uint64_t h)
{
	h = (h ^ a->kind ^ ((uint64_t)a->key << 8)) * 0x100000001b3ull;
	switch (a->kind) {
	case AV_NONE:
		return h;
	case AV_ARRAY:
		h = (h ^ a->n) * 0x100000001b3ull;
		for (uint32_t i = 0; i < a->n; i++)
			h = ir_attr_hash(m, &m->attrs[a->first + i], h);
		return h;
	case AV_FLOAT: {
		uint64_t x;
		memcpy(&x, &a->u.f, 8);
		return (h ^ x) * 0x100000001b3ull;
	}
	case AV_STR:
		return (h ^ a->u.s) * 0x100000001b3ull;
	default:
		return (h ^ (uint64_t)a->u.i) * 0x100000001b3ull;
	}
}

/* runhash: the hash of the n values at a, never 0 */
static uint32_t
runhash(const Module *m, AttrId a, uint32_t n)
{
	uint64_t h = 0xcbf29ce484222325ull ^ n;

	for (uint32_t i = 0; i < n; i++)
		h = ir_attr_hash(m, &m->attrs[a + i], h);
	h ^= h >> 32;
	return (uint32_t)h | 1;
}

/* runequal: whether the n values at a and at b are equal (ir_attr_equal).
** Equal bytes are equal values (floats compare bitwise, and arrays with
** the same first and n are the same elements); values built apart may
** differ in bytes their kind leaves unused, so unequal bytes are looked
** at value by value. */
static int
runequal(const Module *m, AttrId a, AttrId b, uint32_t n)
{
	if (memcmp(&m->attrs[a], &m->attrs[b], n * sizeof *m->attrs) == 0)
		return 1;
	for (uint32_t i = 0; i < n; i++)
		if (!ir_attr_equal(m, &m->attrs[a + i], &m->attrs[b + i]))
			return 0;
	return 1;
}

/* attrslot: the slot of the run equal to the n values at a (hash h), or
** the empty slot where it would go */
static AttrSlot *
attrslot(const Module *m, AttrId a, uint32_t n, uint32_t h)
{
	uint32_t mask = m->attrtabcap - 1;

	for (uint32_t i = h & mask;; i = (i + 1) & mask) {
		AttrSlot *s = &m->attrtab[i];
		if (!s->first || (s->h == h && s->n == n && (s->first == a || runequal(m, s->first, a, n))))
			return s;
	}
}

/* attrrehash: the interning table at twice its size (256 at first) */
static void
attrrehash(Module *m)
{
	uint32_t cap = m->attrtabcap ? 2 * m->attrtabcap : 256, oldcap = m->attrtabcap;
	AttrSlot *old = m->attrtab;

	m->attrtab = ir_xcalloc(cap, sizeof *m->attrtab);
	m->attrtabcap = cap;
	for (uint32_t i = 0; i < oldcap; i++)
		if (old[i].first) {
			uint32_t j = old[i].h & (cap - 1);
			while (m->attrtab[j].first)
				j = (j + 1) & (cap - 1);
			m->attrtab[j] = old[i];
		}
	free(old);
}

/* ir_attr_intern_op: ir_attr_intern for the attributes of a call of op:
** calls of one op often come in runs with the same attributes (a model's
** layers, a rule applied again and again), so the run op's last call got
** is compared first */
AttrId
ir_attr_intern_op(Module *m, OpId op, AttrId a, uint32_t n)
{
	AttrId last = m->oplast[op];

	if (!a || !n)
		return a;
	if (last && last != a && runequal(m, last, a, n)) {
		if (a + n == m->nattrs)
			m->nattrs = a;
		return last;
	}
	return m->oplast[op] = ir_attr_intern(m, a, n);
}

AttrId
ir_attr_intern(Module *m, AttrId a, uint32_t n)
{
	uint32_t h;
	AttrSlot *s;

	if (!a || !n)
		return a;
	if (2 * (m->nattrtab + 1) > m->attrtabcap)
		attrrehash(m);
	h = runhash(m, a, n);
	s = attrslot(m, a, n, h);
	if (s->first) {
		if (s->first != a && a + n == m->nattrs)
			m->nattrs = a;      /* a fresh duplicate: take it back */
		return s->first;
	}
	s->first = a;
	s->n = n;
	s->h = h;
	m->nattrtab++;
	return a;
}

AttrId
ir_attr_array(Module *m, const AttrVal *v, uint32_t n)
{
	return ir_attr_intern(m, ir_attr_push(m, v, n), n);
}

int
ir_attr_interned(const Module *m, AttrId a, uint32_t n)
{
	if (!a || !n)
		return 1;
	if (!m->attrtabcap)
		return 0;
	return attrslot(m, a, n, runhash(m, a, n))->first == a;
}

/* ---------------------------------------------------------------- literals */

typedef struct Lit {
	Module *m;
	const char *p;
} Lit;

static void
skipws(Lit *l)
{
	while (*l->p == ' ' || *l->p == '\t' || *l->p == '\n')
		l->p++;
}

/* literal := None | True | False | "str" | number | '[' [literal {, literal}] ']' */
static int
lit(Lit *l, AttrVal *out)
{
	memset(out, 0, sizeof *out);
	skipws(l);
	if (strncmp(l->p, "None", 4) == 0) {
		l->p += 4;
		out->kind = AV_NONE;
		return 1;
	}
	if (strncmp(l->p, "True", 4) == 0 || strncmp(l->p, "False", 5) == 0) {
		out->kind = AV_BOOL;
		out->u.i = *l->p == 'T';
		l->p += *l->p == 'T' ? 4 : 5;
		return 1;
	}
	if (*l->p == '"') {
		const char *s = ++l->p;
		while (*l->p && *l->p != '"')
			l->p++;
		if (*l->p != '"')
			return 0;
		out->kind = AV_STR;
		out->u.s = ir_sym(l->m, s, (size_t)(l->p - s));
		l->p++;
		return 1;
	}
	if (*l->p == '[') {
		AttrVal buf[64];
		uint32_t n = 0;
		l->p++;
		skipws(l);
		while (*l->p != ']') {
			if (n == 64 || !lit(l, &buf[n++]))
				return 0;
			skipws(l);
			if (*l->p == ',') {
				l->p++;
				skipws(l);
			} else if (*l->p != ']') {
				return 0;
			}
		}
		l->p++;
		out->kind = AV_ARRAY;
		out->n = n;
		out->first = ir_attr_array(l->m, buf, n);
		return 1;
	}
	if (*l->p == '-' || isdigit((unsigned char)*l->p)) {
		char *end;
		const char *s = l->p;
		int isfloat = 0;
		if (*s == '-')
			s++;
		while (isdigit((unsigned char)*s))
			s++;
		isfloat = *s == '.' || *s == 'e' || *s == 'E' || *s == 'f';
		errno = 0;
		if (isfloat) {
			out->kind = AV_FLOAT;
			out->u.f = strtod(l->p, &end);
			if (*end == 'f')
				end++;
			/* f32, f64 suffixes */
			if ((end[0] == '3' && end[1] == '2') || (end[0] == '6' && end[1] == '4'))
				end += 2;
		} else {
			out->kind = AV_INT;
			out->u.i = strtoll(l->p, &end, 10);
		}
		if (errno)
			return 0;
		l->p = end;
		return 1;
	}
	return 0;
}

int
ir_attr_parse(Module *m, const char *s, AttrVal *out)
{
	Lit l = { m, s };

	if (!lit(&l, out))
		return 0;
	skipws(&l);
	return *l.p == 0;
}

AttrId
ir_op_defaults(Module *m, OpId op)
{
	const OpInfo *o = &ir_ops[op];
	AttrVal vals[32];

	if (!o->nattrs)
		return 0;
	if (!m->opdefaults[op]) {
		if (o->nattrs > 32)
			ir_die("op %s has too many attributes", o->name);
		for (int i = 0; i < o->nattrs; i++) {
			const AttrField *f = &o->attrs[i];
			if (!f->deflt) {
				/* required: None marks "not given" until the parser fills it */
				memset(&vals[i], 0, sizeof vals[i]);
				continue;
			}
			if (!ir_attr_parse(m, f->deflt, &vals[i]) || ir_attr_conform(m, f->type, &vals[i]))
				ir_die("bad default %s for %s.%s", f->deflt, o->name, f->name);
		}
		m->opdefaults[op] = ir_attr_push(m, vals, (uint32_t)o->nattrs);
	}
	return m->opdefaults[op];
}

AttrId
ir_attr_defaults(Module *m, OpId op)
{
	const OpInfo *o = &ir_ops[op];
	AttrId id, defs = ir_op_defaults(m, op);

	if (!o->nattrs)
		return 0;
	/* copy the top level: elements are immutable and shared */
	id = m->nattrs;
	ir_vgrow(&m->attrs, &m->capattrs, m->nattrs + (uint32_t)o->nattrs);
	memcpy(&m->attrs[id], &m->attrs[defs], (size_t)o->nattrs * sizeof *m->attrs);
	m->nattrs += (uint32_t)o->nattrs;
	return id;
}

/* ---------------------------------------------------------------- checks */

static int
allints(const Module *m, const AttrVal *v, int depth)
{
	if (v->kind != AV_ARRAY)
		return 0;
	for (uint32_t i = 0; i < v->n; i++) {
		const AttrVal *e = &m->attrs[v->first + i];
		if (depth == 1 ? e->kind != AV_INT : !allints(m, e, depth - 1))
			return 0;
	}
	return 1;
}

/* floats: whether v is a list of numbers; a list holding integers is
** replaced by a fresh copy with them as floats (pushed values never change) */
static int
floats(Module *m, AttrVal *v)
{
	AttrVal *copy;
	int ints = 0;

	if (v->kind != AV_ARRAY)
		return 0;
	for (uint32_t i = 0; i < v->n; i++) {
		const AttrVal *e = &m->attrs[v->first + i];
		if (e->kind != AV_FLOAT && e->kind != AV_INT)
			return 0;
		ints |= e->kind == AV_INT;
	}
	if (!ints)
		return 1;
	copy = ir_xmalloc(v->n * sizeof *copy);
	memcpy(copy, &m->attrs[v->first], v->n * sizeof *copy);
	for (uint32_t i = 0; i < v->n; i++)
		if (copy[i].kind == AV_INT) {
			copy[i].kind = AV_FLOAT;
			copy[i].u.f = (double)copy[i].u.i;
		}
	v->first = ir_attr_array(m, copy, v->n);
	free(copy);
	return 1;
}

const char *
ir_attr_conform(Module *m, int type, AttrVal *v)
{
	int base = type & ~(AT_OPT | AT_ALWAYS);

	if (v->kind == AV_NONE)
		return (type & AT_OPT) ? NULL : "a value, not None";
	switch (base) {
	case AT_INT:
		return v->kind == AV_INT ? NULL : "an integer";
	case AT_FLOAT:
		if (v->kind == AV_INT) {
			v->kind = AV_FLOAT;
			v->u.f = (double)v->u.i;
		}
		return v->kind == AV_FLOAT ? NULL : "a number";
	case AT_BOOL:
		if (v->kind == AV_INT && (v->u.i == 0 || v->u.i == 1))
			v->kind = AV_BOOL;
		return v->kind == AV_BOOL ? NULL : "True or False";
	case AT_STR:
		return v->kind == AV_STR ? NULL : "a string";
	case AT_DTYPE:
		if (v->kind == AV_STR) {
			const char *s = ir_symstr(m, v->u.s);
			DType dt = ir_dtype_parse(s, strlen(s));
			if (dt == DT_COUNT)
				return "a dtype such as \"int8\" or \"float32\"";
			v->kind = AV_DTYPE;
			v->u.i = dt;
		}
		return v->kind == AV_DTYPE ? NULL : "a dtype such as \"int8\" or \"float32\"";
	case AT_INTS:
		return allints(m, v, 1) ? NULL : "a list of integers";
	case AT_INTS2:
		return allints(m, v, 2) ? NULL : "a list of lists of integers";
	case AT_INT_INTS:
		return v->kind == AV_INT || allints(m, v, 1) ? NULL : "an integer or a list of integers";
	case AT_FLOATS:
		return floats(m, v) ? NULL : "a list of numbers";
	}
	return "a known attribute type";
}

int
ir_attr_equal(const Module *m, const AttrVal *a, const AttrVal *b)
{
	if (a->kind != b->kind || a->key != b->key)
		return 0;
	switch (a->kind) {
	case AV_NONE:
		return 1;
	case AV_BOOL:
	case AV_INT:
	case AV_DTYPE:
		return a->u.i == b->u.i;
	case AV_FLOAT:
		/* bitwise, so that printing decisions are exact (and NaN == NaN) */
		return memcmp(&a->u.f, &b->u.f, sizeof a->u.f) == 0;
	case AV_STR:
		return a->u.s == b->u.s;
	case AV_ARRAY:
		if (a->n != b->n)
			return 0;
		for (uint32_t i = 0; i < a->n; i++)
			if (!ir_attr_equal(m, &m->attrs[a->first + i], &m->attrs[b->first + i]))
				return 0;
		return 1;
	}
	return 0;
}

/* ir_kattrs: a call's attributes as a C kernel or a plugin's type
** relation gets them (ir.h);
** arrays first in the block, 8-byte elements, then strings */
void *
ir_kattrs(const Module *m, OpId op, const AttrVal *attrs, graft_attr *ka)
{
	const OpInfo *o = &ir_ops[op];
	size_t size = 1, at = 0, sat;
	unsigned char *mem;

	for (int k = 0; k < o->nattrs; k++)
		if (attrs[k].kind == AV_ARRAY)
			at += (size_t)attrs[k].n * 8;
		else if (attrs[k].kind == AV_STR)
			size += strlen(ir_symstr(m, attrs[k].u.s)) + 1;
	mem = ir_xcalloc(at + size, 1);
	sat = at;
	at = 0;
	for (int k = 0; k < o->nattrs; k++) {
		const AttrVal *a = &attrs[k];
		int t = AT_TYPE(o->attrs[k].type) & ~AT_OPT;
		graft_attr *x = &ka[k];
		memset(x, 0, sizeof *x);
		switch (a->kind) {
		case AV_BOOL: case AV_INT:
			if (t == AT_FLOAT) {
				x->kind = GRAFT_ATTR_FLOAT;
				x->f = (double)a->u.i;
			} else {
				x->kind = GRAFT_ATTR_INT;
				x->i = a->u.i;
			}
			break;
		case AV_DTYPE:
			x->kind = GRAFT_ATTR_INT;
			x->i = a->u.i;     /* DType is the GRAFT_DT_ code */
			break;
		case AV_FLOAT:
			x->kind = GRAFT_ATTR_FLOAT;
			x->f = a->u.f;
			break;
		case AV_STR: {
			const char *s = ir_symstr(m, a->u.s);
			size_t n = strlen(s);
			x->kind = GRAFT_ATTR_STRING;
			x->n = (int32_t)n;
			x->s = memcpy(mem + sat, s, n + 1);
			sat += n + 1;
			break;
		}
		case AV_ARRAY:
			x->n = (int32_t)a->n;
			if (t == AT_FLOATS) {
				double *v = (double *)(void *)(mem + at);
				x->kind = GRAFT_ATTR_FLOATS;
				x->floats = v;
				for (uint32_t j = 0; j < a->n; j++) {
					const AttrVal *e = &m->attrs[a->first + j];
					v[j] = e->kind == AV_FLOAT ? e->u.f : (double)e->u.i;
				}
			} else {
				int64_t *v = (int64_t *)(void *)(mem + at);
				x->kind = GRAFT_ATTR_INTS;
				x->ints = v;
				for (uint32_t j = 0; j < a->n; j++)
					v[j] = m->attrs[a->first + j].u.i;
			}
			at += (size_t)a->n * 8;
			break;
		default:
			x->kind = GRAFT_ATTR_NONE;
			break;
		}
	}
	return mem;
}
