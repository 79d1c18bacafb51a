/*
** parse.c: the actions of the Relay text grammar (grammar/relay.y) and the
** parser's entry point.  Actions build the Module directly and check what
** can be checked without types: names are bound before use, ops exist,
** arity and attributes follow the op registry, literals fit their dtype.
** Types are checked later by ir_infer_types().
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "pfuncs.h"
#include "text.h"
#include "relay.tab.h"

int yyparse(Parser *p);

#define LOC(l) ir_parse_loc(p, (l))

/* ---------------------------------------------------------------- stacks */

List
p_list_empty(Parser *p)
{
	List l = { 0, 0 };
	(void)p;
	return l;
}

/* After an error, a list may have junk above it; drop the junk. */
List
p_node_first(Parser *p, NodeId n)
{
	List l = { p->nnodes, 1 };
	ir_vgrow(&p->nodes, &p->capnodes, p->nnodes + 1);
	p->nodes[p->nnodes++] = n;
	return l;
}

List
p_node_more(Parser *p, List l, NodeId n)
{
	p->nnodes = l.start + l.n;
	ir_vgrow(&p->nodes, &p->capnodes, p->nnodes + 1);
	p->nodes[p->nnodes++] = n;
	l.n++;
	return l;
}

List
p_node_prepend(Parser *p, NodeId n, List l)
{
	p->nnodes = l.start + l.n;
	ir_vgrow(&p->nodes, &p->capnodes, p->nnodes + 1);
	memmove(&p->nodes[l.start + 1], &p->nodes[l.start], l.n * sizeof *p->nodes);
	p->nodes[l.start] = n;
	p->nnodes++;
	l.n++;
	return l;
}

/* The elements of a node or type list, or NULL for an empty one: the
** stacks stay NULL until first pushed, and &NULL[k] is undefined. */
static const NodeId *
lnodes(const Parser *p, List l)
{
	return l.n ? &p->nodes[l.start] : NULL;
}

static const NodeId *
anodes(const Parser *p, Args a)
{
	return a.n ? &p->nodes[a.start] : NULL;
}

static const TypeId *
ltypes(const Parser *p, List l)
{
	return l.n ? &p->types[l.start] : NULL;
}

static int
anyzero(const NodeId *v, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (!v[i])
			return 1;
	return 0;
}

/* pushattr: push an attribute value, named by its index */
static uint32_t
pushattr(Parser *p, const AttrVal *v, Loc loc)
{
	ir_vgrow(&p->avals, &p->capavals, p->navals + 1);
	ir_vgrow(&p->alocs, &p->capalocs, p->navals + 1);
	p->avals[p->navals] = *v;
	p->alocs[p->navals] = loc;
	return p->navals++;
}

List
p_attr_first(Parser *p, uint32_t v)
{
	List r = { v, 1 };
	p->navals = v + 1;
	return r;
}

/* v was pushed last; after an error there may be junk between the list
** and v, which this drops. */
List
p_attr_more(Parser *p, List r, uint32_t v)
{
	uint32_t at = r.start + r.n;

	if (v != at) {
		p->avals[at] = p->avals[v];
		p->alocs[at] = p->alocs[v];
	}
	p->navals = at + 1;
	r.n++;
	return r;
}

List
p_type_first(Parser *p, TypeId t)
{
	List l = { p->ntypes, 1 };
	ir_vgrow(&p->types, &p->captypes, p->ntypes + 1);
	p->types[p->ntypes++] = t;
	return l;
}

List
p_type_more(Parser *p, List l, TypeId t)
{
	p->ntypes = l.start + l.n;
	ir_vgrow(&p->types, &p->captypes, p->ntypes + 1);
	p->types[p->ntypes++] = t;
	l.n++;
	return l;
}

List
p_type_prepend(Parser *p, TypeId t, List l)
{
	p->ntypes = l.start + l.n;
	ir_vgrow(&p->types, &p->captypes, p->ntypes + 1);
	memmove(&p->types[l.start + 1], &p->types[l.start], l.n * sizeof *p->types);
	p->types[l.start] = t;
	p->ntypes++;
	l.n++;
	return l;
}

static int64_t
checkdim(Parser *p, int64_t d, const YYLTYPE *l)
{
	if (d < 0 && d != IR_DIM_ANY) {
		ir_error(p->d, LOC(l), "negative dimension %lld", (long long)d);
		return 0;
	}
	return d;
}

List
p_dim_first(Parser *p, int64_t d, const YYLTYPE *l)
{
	List r = { p->ndims, 1 };
	ir_vgrow(&p->dims, &p->capdims, p->ndims + 1);
	p->dims[p->ndims++] = checkdim(p, d, l);
	return r;
}

List
p_dim_more(Parser *p, List r, int64_t d, const YYLTYPE *l)
{
	p->ndims = r.start + r.n;
	ir_vgrow(&p->dims, &p->capdims, p->ndims + 1);
	p->dims[p->ndims++] = checkdim(p, d, l);
	r.n++;
	return r;
}

/* ---------------------------------------------------------------- scopes */

/* p_scope_push: open a function's scope; the List remembers what to restore */
List
p_scope_push(Parser *p)
{
	List l = { p->nscope, p->fnbase };
	p->fnbase = p->nscope;
	return l;
}

/* unbind: drop the innermost binding, the name's outer one visible again */
static void
unbind(Parser *p)
{
	const Binding *b = &p->scope[--p->nscope];

	if (b->num)
		p->numbind[b->num - 1] = b->shadowed;
	else
		p->symbind[b->name] = b->shadowed;
}

void
p_scope_reset(Parser *p)
{
	while (p->nscope > 0)
		unbind(p);
	p->fnbase = 0;
	p->nnodes = p->navals = p->ntypes = p->ndims = p->nargs = 0;
}

/* numname: N + 1 when name is a graph temporary N as the printer writes
** them: digits without a leading zero, N below the input's length (so
** that Parser.numbind stays within a multiple of it); else 0.  Such a name
** and its number stand for each other, so they are bound by number. */
static uint32_t
numname(const Parser *p, const Str *name)
{
	const unsigned char *s = (const unsigned char *)name->p;
	uint32_t k = name->n, n = 0;

	if (k == 0 || k > 9 || (s[0] == '0' && k > 1))
		return 0;
	for (uint32_t i = 0; i < k; i++) {
		uint32_t d = (uint32_t)s[i] - '0';
		if (d > 9)
			return 0;
		n = n * 10 + d;
	}
	return n < (uint64_t)(p->end - p->src) ? n + 1 : 0;
}

/* lookup: the binding of name (its Sym s, or its number num + 1), innermost
** first, or NULL.  A binding's node is 0 when its value had an error: uses
** of it report nothing more.  Parser.symbind and Parser.numbind map each
** name to its innermost binding in O(1). */
static const Binding *
lookup(Parser *p, Sym s, uint32_t num)
{
	uint32_t b;

	if (num)
		b = num - 1 < p->capnumbind ? p->numbind[num - 1] : 0;
	else
		b = s < p->capsymbind ? p->symbind[s] : 0;
	return b ? &p->scope[b - 1] : NULL;
}

static void
bind(Parser *p, Sym name, uint32_t num, NodeId n, int isparam, Loc loc)
{
	Binding *b;
	uint32_t *slot;

	if (num && num - 1 >= p->capnumbind) {
		uint32_t old = p->capnumbind;
		ir_vgrow(&p->numbind, &p->capnumbind, num);
		memset(&p->numbind[old], 0, (p->capnumbind - old) * sizeof *p->numbind);
	} else if (!num && name >= p->capsymbind) {
		uint32_t old = p->capsymbind;
		ir_vgrow(&p->symbind, &p->capsymbind, name + 1);
		memset(&p->symbind[old], 0, (p->capsymbind - old) * sizeof *p->symbind);
	}
	slot = num ? &p->numbind[num - 1] : &p->symbind[name];
	ir_vgrow(&p->scope, &p->capscope, p->nscope + 1);
	b = &p->scope[p->nscope];
	b->name = num ? 0 : name;
	b->num = num;
	b->node = n;
	b->isparam = (uint8_t)isparam;
	b->loc = loc;
	b->shadowed = *slot;
	*slot = ++p->nscope;
}

/* used: 1 if n has a use, or is a variable (those are never reported) */
static int
used(Parser *p, NodeId n)
{
	return p->m->firstuse[n] != 0 || p->m->nodes[n].kind == NK_VAR;
}

/* popscope: drop the bindings above depth, warning about unused values */
static void
popscope(Parser *p, uint32_t depth, NodeId result)
{
	/* after an error, values may be unused only because their user failed */
	for (uint32_t i = depth; i < p->nscope && !p->d->errors; i++) {
		const Binding *b = &p->scope[i];
		if (!b->isparam && b->node && b->node != result && !used(p, b->node)) {
			if (b->num)
				ir_warning(p->d, b->loc, "%%%u is never used; it is dropped", b->num - 1);
			else
				ir_warning(p->d, b->loc, "%%%s is never used; it is dropped", ir_symstr(p->m, b->name));
		}
	}
	while (p->nscope > depth)
		unbind(p);
}

/* ---------------------------------------------------------------- types */

TypeId
p_type_scalar(Parser *p, const Str *s, const YYLTYPE *l)
{
	DType dt = ir_dtype_parse(s->p, s->n);
	if (dt == DT_COUNT || dt == DT_VOID) {
		ir_error(p->d, LOC(l), "unknown type '%.*s'", (int)s->n, s->p);
		return 0;
	}
	return ir_type_scalar(p->m, dt);
}

TypeId
p_type_tensor(Parser *p, List dims, const Str *s, const YYLTYPE *l)
{
	DType dt = ir_dtype_parse(s->p, s->n);
	TypeId t;

	if (dt == DT_COUNT || dt == DT_VOID) {
		ir_error(p->d, LOC(l), "unknown dtype '%.*s'", (int)s->n, s->p);
		p->ndims = dims.start;
		return 0;
	}
	t = ir_type_tensor(p->m, dt, (int)dims.n, dims.n ? &p->dims[dims.start] : NULL);
	p->ndims = dims.start;
	return t;
}

TypeId
p_type_tuple(Parser *p, List l)
{
	TypeId t = 0;
	if (!anyzero(ltypes(p, l), l.n))
		t = ir_type_tuple(p->m, (int)l.n, ltypes(p, l));
	p->ntypes = l.start;
	return t;
}

TypeId
p_type_fn(Parser *p, List l, TypeId ret)
{
	TypeId t = 0;
	if (ret && !anyzero(ltypes(p, l), l.n))
		t = ir_type_func(p->m, (int)l.n, ltypes(p, l), ret);
	p->ntypes = l.start;
	return t;
}

/* ---------------------------------------------------------------- attributes */

/* p_attr_key: value v with its key; the item is located at the key */
uint32_t
p_attr_key(Parser *p, const Str *name, uint32_t v, const YYLTYPE *l)
{
	p->avals[v].key = ir_sym(p->m, name->p, name->n);
	p->alocs[v] = LOC(l);
	return v;
}

uint32_t
p_attr_num(Parser *p, const Num *v, const YYLTYPE *l)
{
	AttrVal a;
	memset(&a, 0, sizeof a);
	if (v->isfloat) {
		a.kind = AV_FLOAT;
		a.u.f = v->v.f;
	} else {
		a.kind = AV_INT;
		a.u.i = v->v.i;
	}
	return pushattr(p, &a, LOC(l));
}

uint32_t
p_attr_str(Parser *p, const Str *s, const YYLTYPE *l)
{
	AttrVal a;
	memset(&a, 0, sizeof a);
	a.kind = AV_STR;
	a.u.s = ir_sym(p->m, s->p, s->n);
	return pushattr(p, &a, LOC(l));
}

uint32_t
p_attr_bool(Parser *p, int v, const YYLTYPE *l)
{
	AttrVal a;
	memset(&a, 0, sizeof a);
	a.kind = AV_BOOL;
	a.u.i = v;
	return pushattr(p, &a, LOC(l));
}

uint32_t
p_attr_none(Parser *p, const YYLTYPE *l)
{
	AttrVal a;
	memset(&a, 0, sizeof a);
	a.kind = AV_NONE;
	return pushattr(p, &a, LOC(l));
}

uint32_t
p_attr_array(Parser *p, List l, const YYLTYPE *loc)
{
	AttrVal a;
	memset(&a, 0, sizeof a);
	a.kind = AV_ARRAY;
	a.n = l.n;
	a.first = ir_attr_array(p->m, l.n ? &p->avals[l.start] : NULL, l.n);
	if (l.n)
		p->navals = l.start;
	return pushattr(p, &a, LOC(loc));
}

/* ---------------------------------------------------------------- literals */

static int
fits(int64_t v, DType dt)
{
	switch (dt) {
	case DT_INT8: return v >= -128 && v <= 127;
	case DT_UINT8: return v >= 0 && v <= 255;
	case DT_INT16: return v >= -32768 && v <= 32767;
	case DT_UINT16: return v >= 0 && v <= 65535;
	case DT_INT32: return v >= INT32_MIN && v <= INT32_MAX;
	case DT_UINT32: return v >= 0 && v <= (int64_t)UINT32_MAX;
	default: return 1;
	}
}

/* store: write v (an integer or a double) as one element of dtype dt */
static void
store(void *dst, DType dt, int64_t i, double f, int isfloat)
{
	switch (dt) {
	case DT_BOOL: { uint8_t x = isfloat ? f != 0 : i != 0; memcpy(dst, &x, 1); break; }
	case DT_INT8: { int8_t x = (int8_t)i; memcpy(dst, &x, 1); break; }
	case DT_UINT8: { uint8_t x = (uint8_t)i; memcpy(dst, &x, 1); break; }
	case DT_INT16: { int16_t x = (int16_t)i; memcpy(dst, &x, 2); break; }
	case DT_UINT16: { uint16_t x = (uint16_t)i; memcpy(dst, &x, 2); break; }
	case DT_INT32: { int32_t x = (int32_t)i; memcpy(dst, &x, 4); break; }
	case DT_UINT32: { uint32_t x = (uint32_t)i; memcpy(dst, &x, 4); break; }
	case DT_INT64: memcpy(dst, &i, 8); break;
	case DT_FLOAT16: { uint16_t x = ir_f16_from_f32(isfloat ? (float)f : (float)i); memcpy(dst, &x, 2); break; }
	case DT_FLOAT32: { float x = isfloat ? (float)f : (float)i; memcpy(dst, &x, 4); break; }
	case DT_FLOAT64: { double x = isfloat ? f : (double)i; memcpy(dst, &x, 8); break; }
	default: break;
	}
}

/* overflows: whether the finite value v becomes infinite when stored as
** dtype dt, which the printer could not write back as a literal */
static int
overflows(double v, int isfloat, int64_t i, DType dt)
{
	double x = isfloat ? v : (double)i;

	switch (dt) {
	case DT_FLOAT16: return (ir_f16_from_f32((float)x) & 0x7c00u) == 0x7c00u;
	case DT_FLOAT32: return isinf((float)x);
	default: return 0;
	}
}

NodeId
p_scalar(Parser *p, const Num *v, const YYLTYPE *l)
{
	unsigned char buf[8];
	DType dt = (DType)v->dtype;

	if (!v->isfloat && !fits(v->v.i, dt)) {
		ir_error(p->d, LOC(l), "literal %lld does not fit in %s", (long long)v->v.i, ir_dtype_names[dt]);
		return 0;
	}
	if (v->isfloat && dt == DT_FLOAT32 && isfinite(v->v.f) && fabs(v->v.f) > 3.4028234663852886e38) {
		ir_error(p->d, LOC(l), "literal %g does not fit in float32", v->v.f);
		return 0;
	}
	if (v->isfloat && dt == DT_FLOAT16 && isfinite(v->v.f) && overflows(v->v.f, 1, 0, dt)) {
		ir_error(p->d, LOC(l), "literal %g does not fit in float16", v->v.f);
		return 0;
	}
	store(buf, dt, v->v.i, v->v.f, v->isfloat);
	return ir_const(p->m, ir_type_scalar(p->m, dt), buf, LOC(l));
}

NodeId
p_bool(Parser *p, int v, const YYLTYPE *l)
{
	uint8_t b = (uint8_t)v;
	return ir_const(p->m, ir_type_scalar(p->m, DT_BOOL), &b, LOC(l));
}

NodeId
p_meta(Parser *p, const Num *index, const YYLTYPE *l)
{
	int64_t n = index->v.i;
	NodeId id;

	if (n < 0)
		return 0;       /* reported by the lexer */
	if (n >= (1 << 24)) {
		ir_error(p->d, LOC(l), "meta index %lld is too large", (long long)n);
		return 0;
	}
	if ((uint32_t)n >= p->capmetas) {
		uint32_t old = p->capmetas;
		ir_vgrow(&p->metas, &p->capmetas, (uint32_t)n + 1);
		memset(&p->metas[old], 0, (p->capmetas - old) * sizeof *p->metas);
	}
	if (p->metas[n])
		return p->metas[n];
	id = ir_const_meta(p->m, 0, (int32_t)n, LOC(l));
	p->metas[n] = id;
	return id;
}

/* shape: the dims of a rectangular nested array v into dims[], or -1 */
static int
shape(Parser *p, const AttrVal *v, int depth, int64_t *dims, int maxrank)
{
	if (v->kind != AV_ARRAY)
		return depth;
	if (depth >= maxrank)
		return -1;
	dims[depth] = v->n;
	if (!v->n)
		return depth + 1;
	{
		int r = shape(p, &p->m->attrs[v->first], depth + 1, dims, maxrank);
		for (uint32_t i = 1; i < v->n && r >= 0; i++) {
			int64_t sub[8];
			int r2;
			memcpy(sub, dims, sizeof sub);
			r2 = shape(p, &p->m->attrs[v->first + i], depth + 1, sub, maxrank);
			if (r2 != r || memcmp(sub + depth + 1, dims + depth + 1, (size_t)(r - depth - 1) * sizeof *dims))
				r = -1;
		}
		return r;
	}
}

/* elemok: whether a number (the integer i, or with isfloat the double f)
** is a dt value: 1; 0 where it is not (a float for an integer dtype, an
** integer out of its range), -1 where dt cannot hold it finitely (it would
** print as inf, which does not read back) */
static int
elemok(DType dt, int isfloat, int64_t i, double f)
{
	if (ir_dtype_kind[dt] != 'f' && (isfloat || !fits(i, dt)))
		return 0;
	if (overflows(f, isfloat, i, dt))
		return -1;
	return 1;
}

/* flatten: write the scalars of v into data, row-major.  Returns 1, or
** elemok()'s 0 or -1 at the first element that is not a dt value. */
static int
flatten(Parser *p, const AttrVal *v, DType dt, unsigned char **data)
{
	int r;

	if (v->kind == AV_ARRAY) {
		for (uint32_t i = 0; i < v->n; i++) {
			r = flatten(p, &p->m->attrs[v->first + i], dt, data);
			if (r <= 0)
				return r;
		}
		return 1;
	}
	if (v->kind == AV_INT || v->kind == AV_BOOL) {
		if ((r = elemok(dt, 0, v->u.i, 0)) <= 0)
			return r;
		store(*data, dt, v->u.i, 0, 0);
	} else if (v->kind == AV_FLOAT) {
		if ((r = elemok(dt, 1, 0, v->u.f)) <= 0)
			return r;
		store(*data, dt, 0, v->u.f, 1);
	} else {
		return 0;
	}
	*data += ir_dtype_bytes[dt];
	return 1;
}

/* constdtype: the dtype of const(..., key="dtype"), or DT_COUNT, reported */
static DType
constdtype(Parser *p, const Str *key, const Str *dtype, const YYLTYPE *dl)
{
	DType dt;

	if (key->n != 5 || memcmp(key->p, "dtype", 5) != 0) {
		ir_error(p->d, LOC(dl), "const(...) takes dtype=\"...\", not %.*s=", (int)key->n, key->p);
		return DT_COUNT;
	}
	dt = ir_dtype_parse(dtype->p, dtype->n);
	if (dt == DT_COUNT || dt == DT_VOID) {
		ir_error(p->d, LOC(dl), "unknown dtype \"%.*s\"", (int)dtype->n, dtype->p);
		return DT_COUNT;
	}
	return dt;
}

/* constnode: a new constant of dt and dims[0..rank), at loc; its data to
** be written at *data, then it is marked CF_INLINE */
static NodeId
constnode(Parser *p, DType dt, int rank, const int64_t *dims, Loc loc, unsigned char **data)
{
	NodeId id = ir_const(p->m, ir_type_tensor(p->m, dt, rank, dims), NULL, loc);

	*data = ir_node_const(p->m, id)->data;
	return id;
}

/* badelem: report flatten()'s or elemok()'s r (0 or -1); returns 0 */
static NodeId
badelem(Parser *p, int r, DType dt, Loc loc)
{
	if (r == 0)
		ir_error(p->d, loc, "constant has an element that is not a %s value", ir_dtype_names[dt]);
	else
		ir_error(p->d, loc, "constant has an element out of the range of %s", ir_dtype_names[dt]);
	return 0;
}

NodeId
p_inline_const(Parser *p, uint32_t vi, const YYLTYPE *vl,
               const Str *key, const Str *dtype, const YYLTYPE *dl)
{
	AttrVal val = p->avals[vi];
	int64_t dims[8];
	int rank, r;
	DType dt;
	NodeId id;
	unsigned char *data;

	p->navals = vi;
	if ((dt = constdtype(p, key, dtype, dl)) == DT_COUNT)
		return 0;
	rank = shape(p, &val, 0, dims, 8);
	if (rank < 0) {
		ir_error(p->d, LOC(vl), "constant is not a rectangular array of at most 8 dimensions");
		return 0;
	}
	id = constnode(p, dt, rank, dims, LOC(vl), &data);
	if ((r = flatten(p, &val, dt, &data)) <= 0)
		return badelem(p, r, dt, LOC(vl));
	ir_node_const(p->m, id)->flags |= CF_INLINE;
	return id;
}

/* p_const_data: p_inline_const() for a CONSTDATA token: the lexer read
** the array, rectangular and of plain numbers, into Parser.cdata */
NodeId
p_const_data(Parser *p, const YYLTYPE *vl, const Str *key, const Str *dtype, const YYLTYPE *dl)
{
	const ConstData *c = &p->cdata;
	DType dt;
	NodeId id;
	unsigned char *data;
	size_t esz;

	if ((dt = constdtype(p, key, dtype, dl)) == DT_COUNT)
		return 0;
	id = constnode(p, dt, c->rank, c->dims, LOC(vl), &data);
	esz = ir_dtype_bytes[dt];
	for (uint32_t i = 0; i < c->n; i++, data += esz) {
		const Num *v = &c->v[i];
		int r = elemok(dt, v->isfloat, v->v.i, v->v.f);
		if (r <= 0)
			return badelem(p, r, dt, LOC(vl));
		store(data, dt, v->v.i, v->v.f, v->isfloat);
	}
	ir_node_const(p->m, id)->flags |= CF_INLINE;
	return id;
}

/* ---------------------------------------------------------------- expressions */

NodeId
p_local(Parser *p, const Str *name, const YYLTYPE *l)
{
	uint32_t num = numname(p, name);
	Sym s = num ? 0 : ir_sym(p->m, name->p, name->n);
	const Binding *b = lookup(p, s, num);
	NodeId n;

	if (b)
		return b->node;
	/* %x.0.1: a dotted name that is not bound may be x's fields.  The
	** candidates are the prefixes before each ".N" of the name's trailing
	** run of them, and the longest bound one wins.  They are hashed in one
	** forward pass and looked up without interning them, so that a long
	** name costs linear time and no memory. */
	{
		size_t tail = name->n, cut, best = 0;
		const Binding *bb = NULL;
		uint32_t h;

		for (;;) {
			size_t dot = tail;
			while (dot > 0 && name->p[dot - 1] >= '0' && name->p[dot - 1] <= '9')
				dot--;
			if (dot == tail || dot < 2 || name->p[dot - 1] != '.')
				break;
			tail = dot - 1;
		}
		h = ir_sym_hash(IR_SYM_HASH0, name->p, tail);
		for (cut = tail; cut < name->n;) {
			size_t next = cut + 1;
			Sym t;
			if (ir_sym_find(p->m, name->p, cut, h, &t) && (b = lookup(p, t, 0))) {
				best = cut;
				bb = b;
			}
			while (next < name->n && name->p[next] != '.')
				next++;
			h = ir_sym_hash(h, name->p + cut, next - cut);
			cut = next;
		}
		if (bb) {
			const char *f = name->p + best;
			if (!(n = bb->node))
				return 0;
			while (f < name->p + name->n) {
				/* each field index in [0, INT32_MAX], as for postfix .N */
				uint64_t idx = 0;
				for (f++; f < name->p + name->n && *f != '.'; f++)
					if (idx <= INT32_MAX)
						idx = idx * 10 + (uint64_t)(*f - '0');
				if (idx > INT32_MAX) {
					ir_error(p->d, LOC(l), "tuple index in %%%.*s out of range", (int)name->n, name->p);
					return 0;
				}
				n = ir_getitem(p->m, n, (uint32_t)idx, LOC(l));
			}
			return n;
		}
	}
	ir_error(p->d, LOC(l), "undefined variable %%%.*s", (int)name->n, name->p);
	return 0;
}

NodeId
p_global(Parser *p, const Str *name, const YYLTYPE *l)
{
	return ir_global_ref(p->m, ir_sym(p->m, name->p, name->n), LOC(l));
}

/* p_args: push the two lists, named by index.  Args are taken back by
** takeargs() in the order Bison reduces them, innermost first. */
uint32_t
p_args(Parser *p, List nodes, List attrs)
{
	Args a = { nodes.start, nodes.n, attrs.start, attrs.n };
	ir_vgrow(&p->args, &p->capargs, p->nargs + 1);
	p->args[p->nargs] = a;
	return p->nargs++;
}

/* takeargs: Args i, popped with any left above it by an error */
static Args
takeargs(Parser *p, uint32_t i)
{
	p->nargs = i;
	return p->args[i];
}

static void
droplist(Parser *p, Args l)
{
	if (l.n)
		p->nnodes = l.start;
	if (l.an)
		p->navals = l.astart;
}

/* callattrs: the op's attributes from the given ones and the defaults */
static AttrId
callattrs(Parser *p, OpId op, Args l, Loc at)
{
	const OpInfo *o = &ir_ops[op];
	AttrId id = ir_attr_defaults(p->m, op);
	uint32_t given = 0;     /* bitmask over the schema; nattrs <= 32 */
	int bad = 0;

	for (uint32_t i = 0; i < l.an; i++) {
		AttrVal v = p->avals[l.astart + i];
		Loc loc = p->alocs[l.astart + i];
		const char *key = ir_symstr(p->m, v.key);
		int k = ir_op_attr_index(op, key, strlen(key));
		const char *want;

		if (k < 0) {
			int s = ir_op_attr_suggest(op, key, strlen(key));
			if (s >= 0)
				ir_error(p->d, loc, "%s has no attribute '%s'; did you mean '%s'?", o->name, key, o->attrs[s].name);
			else if (o->nattrs)
				ir_error(p->d, loc, "%s has no attribute '%s'", o->name, key);
			else
				ir_error(p->d, loc, "%s takes no attributes", o->name);
			bad = 1;
			continue;
		}
		if (given & (1u << k)) {
			ir_error(p->d, loc, "attribute '%s' is given twice", key);
			bad = 1;
			continue;
		}
		given |= 1u << k;
		v.key = 0;
		if ((want = ir_attr_conform(p->m, o->attrs[k].type, &v))) {
			ir_error(p->d, loc, "attribute '%s' of %s must be %s", key, o->name, want);
			bad = 1;
			continue;
		}
		p->m->attrs[id + (uint32_t)k] = v;
	}
	for (int k = 0; k < o->nattrs; k++)
		if (!o->attrs[k].deflt && !(given & (1u << k))) {
			ir_error(p->d, at, "%s requires attribute '%s'", o->name, o->attrs[k].name);
			bad = 1;
		}
	return bad ? 0 : id;
}

/* lookupop: ir_op_lookup() through Parser.opcache, an open-addressed
** table of the ops this parse has looked up (linear probing from the
** name's hash); a model calls few ops many times, and the registry is
** scanned.  Names not ops are not kept, and a full table keeps what it
** has.  Names from the lexer hold no NUL, so a match of n bytes leaves
** name[n] in bounds. */
static OpId
lookupop(Parser *p, const Str *name)
{
	enum { NCACHE = sizeof p->opcache / sizeof p->opcache[0] };
	uint32_t h = 2166136261u, i, k;
	OpId op;

	for (i = 0; i < name->n; i++)
		h = (h ^ (unsigned char)name->p[i]) * 16777619u;
	for (k = 0, i = (h ^ h >> 8) % NCACHE; k < NCACHE; k++, i = (i + 1) % NCACHE) {
		op = p->opcache[i];
		if (!op)
			break;
		if (strncmp(ir_ops[op].name, name->p, name->n) == 0 && ir_ops[op].name[name->n] == '\0')
			return op;
	}
	op = ir_op_lookup(name->p, name->n);
	if (op && k < NCACHE)
		p->opcache[i] = op;
	return op;
}

NodeId
p_call(Parser *p, const Str *name, const YYLTYPE *l, uint32_t ai)
{
	Args args = takeargs(p, ai);
	OpId op = lookupop(p, name);
	AttrId attrs;
	NodeId n = 0;

	if (!op) {
		OpId s = ir_op_suggest(name->p, name->n);
		if (name->n == 2 && memcmp(name->p, "if", 2) == 0)
			ir_error(p->d, LOC(l), "'if' is control flow, which graft's dataflow IR does not have");
		else if (s)
			ir_error(p->d, LOC(l), "unknown op '%.*s'; did you mean '%s'?", (int)name->n, name->p, ir_ops[s].name);
		else
			ir_error(p->d, LOC(l), "unknown op '%.*s'", (int)name->n, name->p);
		droplist(p, args);
		return 0;
	}
	if ((int)args.n != ir_ops[op].nargs) {
		ir_error(p->d, LOC(l), "%s takes %d argument%s, not %u", ir_ops[op].name,
		         ir_ops[op].nargs, ir_ops[op].nargs == 1 ? "" : "s", args.n);
		droplist(p, args);
		return 0;
	}
	attrs = callattrs(p, op, args, LOC(l));
	if ((attrs || !ir_ops[op].nattrs) && !anyzero(anodes(p, args), args.n))
		n = ir_call(p->m, op, anodes(p, args), args.n, attrs, LOC(l));
	droplist(p, args);
	return n;
}

static AttrId fnattrs(Parser *p, Args l, const char *what);

NodeId
p_callfn(Parser *p, NodeId fn, uint32_t ai, const YYLTYPE *l)
{
	Args args = takeargs(p, ai);
	NodeId n = 0;

	AttrId attrs = fnattrs(p, args, "call attribute");

	if (fn && !anyzero(anodes(p, args), args.n))
		n = ir_callfn_attrs(p->m, fn, anodes(p, args), args.n, attrs, args.an, LOC(l));
	droplist(p, args);
	return n;
}

NodeId
p_getitem(Parser *p, NodeId tuple, const Num *index, const YYLTYPE *l)
{
	if (index->v.i < 0 || index->v.i > INT32_MAX) {
		ir_error(p->d, LOC(l), "tuple index %lld out of range", (long long)index->v.i);
		return 0;
	}
	return tuple ? ir_getitem(p->m, tuple, (uint32_t)index->v.i, LOC(l)) : 0;
}

NodeId
p_tuple(Parser *p, List l, const YYLTYPE *loc)
{
	NodeId n = 0;
	if (!anyzero(lnodes(p, l), l.n))
		n = ir_tuple(p->m, lnodes(p, l), l.n, LOC(loc));
	if (l.n)
		p->nnodes = l.start;
	return n;
}

NodeId
p_annotate(Parser *p, NodeId n, TypeId t, const YYLTYPE *l)
{
	Node *nd;

	if (!n || !t)
		return n;
	nd = ir_node(p->m, n);
	if (nd->kind == NK_CONST && !ir_node_const(p->m, n)->type) {
		/* a meta constant learns its type from its annotation */
		if (ir_type(p->m, t)->kind != TY_TENSOR) {
			ir_error(p->d, LOC(l), "a constant's type must be a tensor type");
			return n;
		}
		ir_node_const(p->m, n)->type = t;
		nd->type = t;
		return n;
	}
	ir_vgrow(&p->m->anns, &p->m->capanns, p->m->nanns + 1);
	p->m->anns[p->m->nanns].node = n;
	p->m->anns[p->m->nanns].type = t;
	p->m->anns[p->m->nanns].loc = LOC(l);
	p->m->nanns++;
	return n;
}

/* ---------------------------------------------------------------- bindings */

void
p_bind(Parser *p, const Str *name, const YYLTYPE *l, NodeId val, TypeId type)
{
	uint32_t num = numname(p, name);
	Sym s = num ? 0 : ir_sym(p->m, name->p, name->n);
	const Binding *b = lookup(p, s, num);

	if (b && !b->isparam) {
		ir_error(p->d, LOC(l), "%%%.*s is already bound", (int)name->n, name->p);
		ir_note(p->d, b->loc, "%%%.*s was bound here", (int)name->n, name->p);
		return;
	}
	p_annotate(p, val, type, l);
	bind(p, s, num, val, 0, LOC(l));
}

NodeId
p_param(Parser *p, const Str *name, TypeId type, TypeId ann, const YYLTYPE *l)
{
	Binding b;
	uint32_t num = numname(p, name);

	b.name = ir_sym(p->m, name->p, name->n);
	b.node = ir_var(p->m, b.name, type ? type : ann, LOC(l));
	if (type && ann)
		p_annotate(p, b.node, ann, l);
	b.isparam = 1;
	b.loc = LOC(l);
	/* %N names a graph binding, which the printer numbers afresh: a
	** parameter named so would clash with them (TVM rejects it too) */
	if (name->n && name->p[0] >= '0' && name->p[0] <= '9')
		ir_error(p->d, b.loc, "parameter %%%.*s is named like a graph binding; "
		         "a parameter's name must start with a letter or '_'", (int)name->n, name->p);
	/* a parameter may shadow an outer name, not a sibling parameter */
	{
		const Binding *old = lookup(p, num ? 0 : b.name, num);
		if (old && old->isparam && (uint32_t)(old - p->scope) >= p->fnbase)
			ir_error(p->d, b.loc, "parameter %%%s is declared twice", ir_symstr(p->m, b.name));
	}
	bind(p, b.name, num, b.node, 1, b.loc);
	return b.node;
}

/* fnattrs: a function's or a call's keyed attributes (what: their name
** in errors), in the order written; each
** repeat of a key is reported once.  Keys are marked in Parser.keyseen
** with a fresh stamp per list, so this is linear in the attributes. */
static AttrId
fnattrs(Parser *p, Args l, const char *what)
{
	uint32_t stamp = ++p->keystamp;

	for (uint32_t i = 0; i < l.an; i++) {
		Sym k = p->avals[l.astart + i].key;
		if (k >= p->capkeyseen) {
			uint32_t old = p->capkeyseen;
			ir_vgrow(&p->keyseen, &p->capkeyseen, k + 1);
			memset(&p->keyseen[old], 0, (p->capkeyseen - old) * sizeof *p->keyseen);
		}
		if (p->keyseen[k] == stamp)
			ir_error(p->d, p->alocs[l.astart + i], "%s '%s' is given twice", what, ir_symstr(p->m, k));
		p->keyseen[k] = stamp;
	}
	return ir_attr_push(p->m, l.an ? &p->avals[l.astart] : NULL, l.an);
}

static NodeId
mkfn(Parser *p, List scope, uint32_t pi, TypeId ret, NodeId body, Loc loc)
{
	Args params = takeargs(p, pi);
	NodeId fn = 0;
	AttrId attrs = fnattrs(p, params, "function attribute");

	if (body && !anyzero(anodes(p, params), params.n))
		fn = ir_func(p->m, anodes(p, params), params.n, body,
		             ret, attrs, params.an, loc);
	droplist(p, params);
	popscope(p, scope.start, body);
	p->fnbase = scope.n;
	return fn;
}

NodeId
p_fn(Parser *p, List scope, uint32_t params, TypeId ret, NodeId body, const YYLTYPE *l)
{
	return mkfn(p, scope, params, ret, body, LOC(l));
}

void
p_def(Parser *p, const Str *name, const YYLTYPE *l, List scope, uint32_t params, TypeId ret, NodeId body)
{
	NodeId fn = mkfn(p, scope, params, ret, body, LOC(l));
	Sym s = ir_sym(p->m, name->p, name->n);

	if (!fn)
		return;
	if (!ir_global_add(p->m, s, fn)) {
		ir_error(p->d, LOC(l), "@%.*s is defined twice", (int)name->n, name->p);
		ir_note(p->d, p->m->locs[ir_global_find(p->m, s)], "first defined here");
	}
}

void
p_bare(Parser *p, NodeId fn, const YYLTYPE *l)
{
	(void)l;
	if (!fn)
		return;
	ir_global_add(p->m, ir_symz(p->m, "main"), fn);
	p->m->bare = 1;
}

/* ---------------------------------------------------------------- entry */

int
ir_parse(Module *m, Diag *d, const char *file, const char *text, size_t len)
{
	/* a NUL-terminated copy: the lexer stops at the sentinel */
	char *copy = ir_arena_raw(&m->data, len + 1);

	memcpy(copy, text, len);
	copy[len] = 0;
	return ir_parse_in_place(m, d, file, copy, len);
}

int
ir_parse_in_place(Module *m, Diag *d, const char *file, const char *text, size_t len)
{
	Parser p;
	int before = d->errors;

	memset(&p, 0, sizeof p);
	p.m = m;
	p.d = d;
	p.file = ir_file(m, file);
	ir_diag_source(d, p.file, text, len);
	/* tokens name their text by a 31-bit offset (Tok) */
	if (len >= TOK_ESC) {
		ir_error(d, (Loc){ 1, 1, p.file }, "input too large (2 GiB or more)");
		return d->errors - before;
	}
	/* a printed model takes 30 to 50 bytes a node, 20 or more a use, and
	** has a binding, %N most often, for each node at most; numbind is
	** allocated zeroed, which touches no page before it is used */
	ir_reserve(m, (uint32_t)(len / 32), (uint32_t)(len / 24));
	ir_vgrow(&p.scope, &p.capscope, (uint32_t)(len / 32) + 1);
	p.capnumbind = (uint32_t)(len / 32) + 1;
	p.numbind = ir_xcalloc(p.capnumbind, sizeof *p.numbind);
	p.src = p.cur = p.linestart = text;
	p.end = text + len;
	p.line = 1;

	yyparse(&p);

	/* globals referred to must be defined */
	for (NodeId n = 1; n < m->nnodes; n++)
			if (m->nodes[n].kind == NK_GLOBAL && !ir_global_find(m, m->nodes[n].aux))
				ir_error(d, m->locs[n], "undefined global @%s", ir_symstr(m, m->nodes[n].aux));
	if (d->errors == before && m->nglobals == 0)
		ir_error(d, (Loc){ 1, 1, p.file }, "no definitions: expected 'def @main(...) { ... }'");

	free(p.nodes);
	free(p.avals);
	free(p.alocs);
	free(p.types);
	free(p.dims);
	free(p.scope);
	free(p.symbind);
	free(p.numbind);
	free(p.metas);
	free(p.keyseen);
	free(p.esc);
	free(p.args);
	free(p.cdata.v);
	return d->errors - before;
}
