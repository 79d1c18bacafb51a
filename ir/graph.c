/*
** graph.c: <graft/graph.h>, reading a module's graph from outside
** libgraft.  Each function answers one question about a node through the
** Module's arrays; none allocates or changes anything.  A graft_ir is the
** Module itself (ir.h's struct graft_ir), and the public codes (GRAFT_NK_,
** GRAFT_OPK_, GRAFT_DT_OTHER, GRAFT_MAX_RANK) are ir.h's own values, as
** the assertions below hold them.
**
** The definitions are written `T (name)(...)` so that graft's own fast
** readers (passes/rwfast.h, function-like macros of the same names) never
** expand in them.
*/
#include <stdarg.h>
#include <string.h>

#include "ir.h"

/* the codes of two enums, compared */
#define SAME(a, b) ((int)(a) == (int)(b))
_Static_assert(SAME(NK_NONE, GRAFT_NK_NONE) && SAME(NK_VAR, GRAFT_NK_VAR) && SAME(NK_CONST, GRAFT_NK_CONST) &&
               SAME(NK_CALL, GRAFT_NK_CALL) && SAME(NK_CALLFN, GRAFT_NK_CALLFN) && SAME(NK_TUPLE, GRAFT_NK_TUPLE) &&
               SAME(NK_GETITEM, GRAFT_NK_GETITEM) && SAME(NK_FUNC, GRAFT_NK_FUNC) && SAME(NK_GLOBAL, GRAFT_NK_GLOBAL) &&
               SAME(NK_DEAD, GRAFT_NK_DEAD), "ir.h's node kinds are graph.h's GRAFT_NK_ codes");
_Static_assert(SAME(OPK_ELEMWISE, GRAFT_OPK_ELEMWISE) && SAME(OPK_BROADCAST, GRAFT_OPK_BROADCAST) &&
               SAME(OPK_INJECTIVE, GRAFT_OPK_INJECTIVE) && SAME(OPK_COMM_REDUCE, GRAFT_OPK_COMM_REDUCE) &&
               SAME(OPK_OUT_ELEMWISE_FUSABLE, GRAFT_OPK_OUT_ELEMWISE_FUSABLE) && SAME(OPK_TUPLE, GRAFT_OPK_TUPLE) &&
               SAME(OPK_OPAQUE, GRAFT_OPK_OPAQUE), "ir.h's op kinds are graph.h's GRAFT_OPK_ codes");
_Static_assert(SAME(DT_COUNT, GRAFT_DT_OTHER), "no tensor's dtype is graph.h's GRAFT_DT_OTHER");
_Static_assert(IR_MAXDIMS == GRAFT_MAX_RANK, "graph.h's GRAFT_MAX_RANK is ir.h's IR_MAXDIMS");
_Static_assert(sizeof(NodeId) == sizeof(graft_node) && sizeof(Sym) == sizeof(graft_sym),
               "graph.h's handles are ir.h's");
#undef SAME

/* NODE: node n of m; node 0 (no node) for a handle m has not: a plugin's
** mistake reads as "none", never out of bounds */
#define NODE(m, n) (&(m)->nodes[(n) < (m)->nnodes ? (n) : 0])

/* tensor: n's type when it is a tensor, else NULL */
static const Type *
tensor(const Module *m, NodeId n)
{
	const Type *t = &m->types[NODE(m, n)->type];
	return t->kind == TY_TENSOR ? t : NULL;
}

/* attr: attribute k of call n, or None when n is no call or has no
** attribute k */
static const AttrVal *
attr(const Module *m, NodeId n, int k)
{
	static const AttrVal none = { .kind = AV_NONE };
	const Node *nd = NODE(m, n);

	if (nd->kind != NK_CALL || !nd->aux || k < 0 || k >= ir_ops[nd->op].nattrs)
		return &none;
	return &m->attrs[nd->aux + (uint32_t)k];
}

/* elemvalue: element 0 of constant n, of at least one element, as a
** double into out, and its bytes into *at; 0 if n is no such constant */
static int
elemvalue(const Module *m, NodeId n, double *out, const unsigned char **at)
{
	const Node *nd = &m->nodes[n];
	const Const *c;
	const unsigned char *p;

	if (nd->kind != NK_CONST)
		return 0;
	c = &m->consts[nd->aux];
	if (!c->data || ir_type_numel(m, c->type) < 1)
		return 0;
	p = *at = c->data;
	switch (m->types[c->type].dtype) {
	case DT_BOOL: case DT_UINT8: *out = *p; return 1;
	case DT_INT8: *out = (int8_t)*p; return 1;
	case DT_INT16: { int16_t x; memcpy(&x, p, 2); *out = x; return 1; }
	case DT_UINT16: { uint16_t x; memcpy(&x, p, 2); *out = x; return 1; }
	case DT_INT32: { int32_t x; memcpy(&x, p, 4); *out = x; return 1; }
	case DT_UINT32: { uint32_t x; memcpy(&x, p, 4); *out = x; return 1; }
	case DT_INT64: { int64_t x; memcpy(&x, p, 8); *out = (double)x; return 1; }
	case DT_FLOAT16: { uint16_t x; memcpy(&x, p, 2); *out = ir_f32_from_f16(x); return 1; }
	case DT_FLOAT32: { float x; memcpy(&x, p, 4); *out = x; return 1; }
	case DT_FLOAT64: memcpy(out, p, 8); return 1;
	default: return 0;
	}
}

/* ir_const_scalar: the value of a one-element constant (ir.h) */
int
ir_const_scalar(const Module *m, NodeId n, double *out)
{
	const unsigned char *p;
	return m->nodes[n].kind == NK_CONST && ir_type_numel(m, m->consts[m->nodes[n].aux].type) == 1 &&
	       elemvalue(m, n, out, &p);
}

/* ir_const_splat: the value all elements of a constant have, compared as
** bytes (ir.h) */
int
ir_const_splat(const Module *m, NodeId n, double *out)
{
	const unsigned char *p;
	const Const *c;
	size_t w;
	int64_t k, i;

	if (!elemvalue(m, n, out, &p))
		return 0;
	c = &m->consts[m->nodes[n].aux];
	w = ir_dtype_bytes[m->types[c->type].dtype];
	k = ir_type_numel(m, c->type);
	for (i = 1; i < k && memcmp(p + (size_t)i * w, p, w) == 0; i++)
		;
	return i == k;
}

/* ---------------------------------------------------------------- nodes */

uint32_t (graft_nnodes)(const graft_ir *m)
{
	return m->nnodes;
}

int (graft_kind)(const graft_ir *m, graft_node n)
{
	return NODE(m, n)->kind;
}

uint32_t (graft_nargs)(const graft_ir *m, graft_node n)
{
	return NODE(m, n)->nargs;
}

graft_node (graft_arg)(const graft_ir *m, graft_node n, uint32_t i)
{
	const Node *nd = NODE(m, n);
	return i < nd->nargs ? m->argv[nd->args + i] : 0;
}

uint32_t (graft_index)(const graft_ir *m, graft_node n)
{
	return NODE(m, n)->kind == NK_GETITEM ? NODE(m, n)->aux : 0;
}

uint32_t (graft_nuses)(const graft_ir *m, graft_node n)
{
	return n < m->nnodes ? ir_nuses(m, n) : 0;
}

const char *(graft_op_name)(const graft_ir *m, graft_node n)
{
	return NODE(m, n)->kind == NK_CALL ? ir_ops[NODE(m, n)->op].name : NULL;
}

int (graft_op_kind)(const graft_ir *m, graft_node n)
{
	return NODE(m, n)->kind == NK_CALL ? ir_op_kind(NODE(m, n)->op) : OPK_OPAQUE;
}

const char *(graft_name)(const graft_ir *m, graft_node n)
{
	switch (NODE(m, n)->kind) {
	case NK_VAR: case NK_GLOBAL:
		return ir_symstr(m, NODE(m, n)->aux);
	case NK_FUNC:
		for (uint32_t i = 0; i < m->nglobals; i++)
			if (m->globals[i].fn == n)
				return ir_symstr(m, m->globals[i].name);
		return NULL;
	default:
		return NULL;
	}
}

const char *(graft_func_attr)(const graft_ir *m, graft_node fn, const char *key)
{
	int k = NODE(m, fn)->kind;
	const AttrVal *a = k == NK_FUNC || k == NK_CALLFN ? ir_func_attr(m, fn, key) : NULL;
	return a && a->kind == AV_STR ? ir_symstr(m, a->u.s) : NULL;
}

/* ---------------------------------------------------------------- types */

int (graft_dtype)(const graft_ir *m, graft_node n)
{
	const Type *t = tensor(m, n);
	return t ? (int)t->dtype : (int)DT_COUNT;
}

int (graft_rank)(const graft_ir *m, graft_node n)
{
	const Type *t = tensor(m, n);
	return t ? (int)t->n : -1;
}

const int64_t *(graft_dims)(const graft_ir *m, graft_node n)
{
	const Type *t = tensor(m, n);
	return t ? &m->dims[t->first] : NULL;
}

int64_t (graft_numel)(const graft_ir *m, graft_node n)
{
	return tensor(m, n) ? ir_type_numel(m, NODE(m, n)->type) : -1;
}

int (graft_shape_is)(const graft_ir *m, graft_node n, uint32_t rank, const int64_t *dims)
{
	const Type *t = tensor(m, n);
	if (!t || t->n != rank)
		return 0;
	for (uint32_t i = 0; i < rank; i++)
		if (dims[i] >= 0 && m->dims[t->first + i] != dims[i])
			return 0;
	return 1;
}

int (graft_shape_eq)(const graft_ir *m, graft_node n, const int64_t *dims, uint32_t rank)
{
	const Type *t = tensor(m, n);
	if (!t || t->n != rank)
		return 0;
	return rank == 0 || memcmp(&m->dims[t->first], dims, rank * sizeof *dims) == 0;
}

char *(graft_type_str)(const graft_ir *m, graft_node n, char *buf, size_t size)
{
	return ir_type_str(m, NODE(m, n)->type, buf, size);
}

/* ---------------------------------------------------------------- constants */

int (graft_is_scalar)(const graft_ir *m, graft_node n)
{
	double v;
	return n < m->nnodes && ir_const_scalar(m, n, &v);
}

int (graft_is_splat)(const graft_ir *m, graft_node n)
{
	double v;
	return n < m->nnodes && ir_const_splat(m, n, &v);
}

const void *(graft_const_data)(const graft_ir *m, graft_node n)
{
	return NODE(m, n)->kind == NK_CONST ? m->consts[NODE(m, n)->aux].data : NULL;
}

/* ---------------------------------------------------------------- attributes */

int64_t (graft_attr_i)(const graft_ir *m, graft_node n, int k)
{
	return attr(m, n, k)->u.i;
}

double (graft_attr_f)(const graft_ir *m, graft_node n, int k)
{
	return attr(m, n, k)->u.f;
}

graft_sym (graft_attr_s)(const graft_ir *m, graft_node n, int k)
{
	return attr(m, n, k)->u.s;
}

int (graft_attr_isnone)(const graft_ir *m, graft_node n, int k)
{
	return attr(m, n, k)->kind == AV_NONE;
}

int (graft_attr_ints_eq)(const graft_ir *m, graft_node n, int k, const int64_t *v, uint32_t len)
{
	const AttrVal *a = attr(m, n, k);
	if (a->kind != AV_ARRAY || a->n != len)
		return 0;
	for (uint32_t i = 0; i < len; i++)
		if (m->attrs[a->first + i].kind != AV_INT || m->attrs[a->first + i].u.i != v[i])
			return 0;
	return 1;
}

int (graft_attr_same)(const graft_ir *m, graft_node a, int ka, graft_node b, int kb)
{
	AttrVal x = *attr(m, a, ka), y = *attr(m, b, kb);
	x.key = y.key = 0;
	return ir_attr_equal(m, &x, &y);
}

const char *(graft_symstr)(const graft_ir *m, graft_sym s)
{
	return ir_symstr(m, s);
}

/* ---------------------------------------------------------------- errors */

void (graft_diag_error)(graft_diag *d, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	ir_error(d, (Loc){ 0, 0, 0 }, "%s", buf);
}
