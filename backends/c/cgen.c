/*
** cgen.c: be_c_emit(), the C source emitter.
**
** Each Relay function to emit (@main and the globals it calls, or with a
** target only that target's partitions) becomes one C function with the
** calling convention of c.h.  It is built in two passes over the function
** body.  The first lists its nodes in dependency order as Insts, inlining
** the composite function literals it calls, and finds each value's last
** use.  The second gives each value its Leaves (parameters, constants, or
** buffers in a per-function static arena, reused once their values are
** dead; reshapes and tuples alias their operands) and appends the op's
** loop nest (cops.c) to the function's Lines.  Constants become static
** const arrays when first named.  Nothing is printed until everything is
** built, so the output is rendered in one pass, in walk order, and is the
** same bytes for the same module.
*/
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cgen.h"
#include "text.h"

#define NONE UINT32_MAX
#define ALIGN 64

char *
cg_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(ir_xmalloc(n), s, n);
}

const char *
cg_lit(double v, DType dt, char *buf)
{
	if (ir_dtype_kind[dt] != 'f') {
		sprintf(buf, "%lld", (long long)v);
	} else if (isnan(v)) {
		strcpy(buf, "NAN");
	} else if (isinf(v)) {
		strcpy(buf, v < 0 ? "-INFINITY" : "INFINITY");
	} else {
		ir_fmt_float(buf, 64, v, dt);
		if (!strpbrk(buf, ".e"))
			strcat(buf, ".0");
		if (dt == DT_FLOAT32)
			strcat(buf, "f");
	}
	return buf;
}

/* ---------------------------------------------------------------- lines */

static void
vline(Fn *f, uint32_t depth, const char *fmt, va_list ap)
{
	char buf[512], *s = buf;
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(buf, sizeof buf, fmt, aq);
	va_end(aq);
	if (n < 0)
		ir_die("cgen: bad format");
	if ((size_t)n >= sizeof buf) {
		s = ir_xmalloc((size_t)n + 1);
		vsnprintf(s, (size_t)n + 1, fmt, ap);
	} else {
		s = cg_strdup(buf);
	}
	ir_vgrow(&f->lines, &f->caplines, f->nlines + 1);
	f->lines[f->nlines].depth = depth;
	f->lines[f->nlines++].text = s;
}

void
cg_line(Gen *g, Fn *f, const char *fmt, ...)
{
	va_list ap;

	(void)g;
	va_start(ap, fmt);
	vline(f, f->depth, fmt, ap);
	va_end(ap);
}

/* cg_open: a line ending in '{' whose body is one level deeper */
void
cg_open(Gen *g, Fn *f, const char *fmt, ...)
{
	va_list ap;

	(void)g;
	va_start(ap, fmt);
	vline(f, f->depth, fmt, ap);
	va_end(ap);
	f->depth++;
}

void
cg_close(Fn *f)
{
	f->depth--;
	ir_vgrow(&f->lines, &f->caplines, f->nlines + 1);
	f->lines[f->nlines].depth = f->depth;
	f->lines[f->nlines++].text = cg_strdup("}");
}

const char *
cg_ctype(DType dt)
{
	switch (dt) {
	case DT_BOOL: case DT_UINT8: return "uint8_t";
	case DT_INT8: return "int8_t";
	case DT_INT16: return "int16_t";
	case DT_UINT16: case DT_FLOAT16: return "uint16_t";
	case DT_INT32: return "int32_t";
	case DT_UINT32: return "uint32_t";
	case DT_INT64: return "int64_t";
	case DT_FLOAT32: return "float";
	case DT_FLOAT64: return "double";
	default: return NULL;
	}
}

/* ---------------------------------------------------------------- constants */

static int64_t
ldint(const unsigned char *p, DType dt, int64_t i)
{
	int nb = ir_dtype_bytes[dt];
	uint64_t u = 0;

	for (int k = nb - 1; k >= 0; k--)
		u = u << 8 | p[(size_t)i * nb + k];
	if (ir_dtype_kind[dt] == 'i' && nb < 8 && (u >> (nb * 8 - 1)) & 1)
		u |= ~(uint64_t)0 << (nb * 8);
	return (int64_t)u;
}

static double
ldflt(const unsigned char *p, DType dt, int64_t i)
{
	if (dt == DT_FLOAT32) {
		uint32_t u = (uint32_t)ldint(p, DT_UINT32, i);
		float x;
		memcpy(&x, &u, 4);
		return x;
	}
	if (dt == DT_FLOAT64) {
		uint64_t u = (uint64_t)ldint(p, DT_INT64, i);
		double x;
		memcpy(&x, &u, 8);
		return x;
	}
	if (dt == DT_FLOAT16)
		return ir_f32_from_f16((uint16_t)ldint(p, DT_UINT16, i));
	return (double)ldint(p, dt, i);
}

/* konst: the Const behind operand arg of inst i, or NULL; *k becomes 0
** past its end (one value for all channels) and *dt its dtype */
static const Const *
konst(Gen *g, Fn *f, Inst *i, uint32_t arg, int64_t *k, DType *dt)
{
	Inst *o = cg_op(f, i, arg);
	const Node *n = &g->m->nodes[o->node];
	const Const *c;

	if (n->kind != NK_CONST || !(c = &g->m->consts[n->aux])->data)
		return NULL;
	if (*k >= ir_type_numel(g->m, c->type))
		*k = 0;
	*dt = (DType)g->m->types[c->type].dtype;
	return c;
}

int
cg_kint(Gen *g, Fn *f, Inst *i, uint32_t arg, int64_t k, int64_t *out)
{
	DType dt;
	const Const *c = konst(g, f, i, arg, &k, &dt);

	if (!c)
		return 0;
	*out = ir_dtype_kind[dt] == 'f' ? (int64_t)ldflt(c->data, dt, k) : ldint(c->data, dt, k);
	return 1;
}

int
cg_kflt(Gen *g, Fn *f, Inst *i, uint32_t arg, int64_t k, double *out)
{
	DType dt;
	const Const *c = konst(g, f, i, arg, &k, &dt);

	if (!c)
		return 0;
	*out = ldflt(c->data, dt, k);
	return 1;
}

const char *
cg_carray(Gen *g, DType dt, int64_t n, void *data, const char *comment, char *buf)
{
	ir_vgrow(&g->consts, &g->capconsts, g->nconsts + 1);
	memset(&g->consts[g->nconsts], 0, sizeof *g->consts);
	g->consts[g->nconsts].dt = dt;
	g->consts[g->nconsts].n = n;
	g->consts[g->nconsts].data = data;
	g->consts[g->nconsts].comment = cg_strdup(comment);
	sprintf(buf, "k%u", g->nconsts++);
	return buf;
}

const char *
cg_name(Gen *g, Fn *f, const Leaf *l, char *buf)
{
	switch (l->kind) {
	case LK_PARAM:
		sprintf(buf, "p%u", l->id);
		break;
	case LK_CONST:
		if (!g->constof[l->node]) {
			const Const *c = &g->m->consts[g->m->nodes[l->node].aux];
			char tb[256], cm[320];
			ir_type_str(g->m, c->type, tb, sizeof tb);
			if (c->meta >= 0)
				snprintf(cm, sizeof cm, "meta[relay.Constant][%d]: %s", (int)c->meta, tb);
			else
				snprintf(cm, sizeof cm, "%s", tb);
			cg_carray(g, (DType)l->dt, l->n, NULL, cm, buf);
			g->consts[g->nconsts - 1].node = l->node;
			g->constof[l->node] = g->nconsts;
		}
		sprintf(buf, "k%u", g->constof[l->node] - 1);
		break;
	default:
		sprintf(buf, "b%u", l->id);
		break;
	}
	(void)f;
	return buf;
}

/* ---------------------------------------------------------------- buffers */

/* sharable: whether a buffer of dt may take bytes a dead buffer of odt
** had: the same C type, or one of them bytes (char types alias anything).
** Bytes of one type never come back as another, so the emitted C keeps
** to the aliasing rules compilers optimize by. */
static int
sharable(DType dt, DType odt)
{
	return dt == odt || ir_dtype_bytes[dt] == 1 || ir_dtype_bytes[odt] == 1;
}

static uint32_t
bufalloc(Fn *f, DType dt, uint64_t size, uint32_t end)
{
	uint64_t off = 0;
	int moved = 1;

	size = (size + ALIGN - 1) / ALIGN * ALIGN;
	if (!size)
		size = ALIGN;
	/* first fit: the lowest offset that overlaps no live buffer, nor a
	   dead one of another type */
	while (moved) {
		moved = 0;
		for (uint32_t b = 0; b < f->nbufs; b++) {
			Buf *o = &f->bufs[b];
			if ((o->live || !sharable(dt, o->dt)) && off < o->off + o->size && o->off < off + size) {
				off = o->off + o->size;
				moved = 1;
			}
		}
	}
	ir_vgrow(&f->bufs, &f->capbufs, f->nbufs + 1);
	f->bufs[f->nbufs] = (Buf){ off, size, end, 1, dt };
	if (off + size > f->arena)
		f->arena = off + size;
	return f->nbufs++;
}

const char *
cg_scratch(Gen *g, Fn *f, DType dt, int64_t n, char *buf)
{
	uint32_t b = bufalloc(f, dt, (uint64_t)n * ir_dtype_bytes[dt], f->cur);

	(void)g;
	sprintf(buf, "b%u", b);
	return buf;
}

/* ---------------------------------------------------------------- pass 1: insts */

static uint32_t
newinst(Fn *f, NodeId n, const uint32_t *ops, uint32_t nops)
{
	Inst *i;

	ir_vgrow(&f->insts, &f->capinsts, f->ninsts + 1);
	ir_vgrow(&f->opnds, &f->capopnds, f->nopnds + nops);
	i = &f->insts[f->ninsts];
	memset(i, 0, sizeof *i);
	i->node = n;
	i->ops = f->nopnds;
	i->nops = nops;
	i->num = -1;
	if (nops)
		memcpy(&f->opnds[f->nopnds], ops, nops * sizeof *ops);
	f->nopnds += nops;
	return f->ninsts++;
}

/* the memo log: nodes memoized since an inlining began are forgotten when
** it ends, so that a literal called twice is inlined twice */
typedef struct Walk {
	NodeId *log;
	uint32_t nlog, caplog;
} Walk;

static void
memoset(Gen *g, Walk *w, NodeId n, uint32_t inst)
{
	g->memo[n] = (int32_t)inst + 1;
	ir_vgrow(&w->log, &w->caplog, w->nlog + 1);
	w->log[w->nlog++] = n;
}

static int fnindex(Gen *g, NodeId global, const char **name);

/* walk: the inst of node n, listing its operands first (post-order);
** NONE after an error */
static uint32_t
walk(Gen *g, Fn *f, Walk *w, NodeId n)
{
	const Module *m = g->m;
	const Node *nd = &m->nodes[n];
	uint32_t ops[64], *opv = ops, r = NONE;

	if (g->memo[n])
		return (uint32_t)g->memo[n] - 1;
	if (nd->nargs > 64)
		opv = ir_xmalloc(nd->nargs * sizeof *opv);
	switch (nd->kind) {
	case NK_CONST:
		if (!m->consts[nd->aux].data) {
			ir_error(g->d, m->locs[n], "the c backend needs the data of this constant (a parameter file?)");
			goto out;
		}
		r = newinst(f, n, NULL, 0);
		break;
	case NK_CALL:
	case NK_TUPLE:
	case NK_GETITEM:
		for (uint32_t k = 0; k < nd->nargs; k++)
			if ((opv[k] = walk(g, f, w, ir_arg(m, n, k))) == NONE)
				goto out;
		r = newinst(f, n, opv, nd->nargs);
		f->insts[r].num = f->nextnum++;
		break;
	case NK_CALLFN: {
		NodeId callee = ir_arg(m, n, 0);
		for (uint32_t k = 1; k < nd->nargs; k++)
			if ((opv[k - 1] = walk(g, f, w, ir_arg(m, n, k))) == NONE)
				goto out;
		if (m->nodes[callee].kind == NK_FUNC) {
			/* inline the literal: its parameters are the arguments */
			uint32_t mark = w->nlog;
			if (ir_func_nparams(m, callee) != nd->nargs - 1) {
				ir_error(g->d, m->locs[n], "the c backend: function called with %u arguments for %u parameters",
				         nd->nargs - 1, ir_func_nparams(m, callee));
				goto out;
			}
			for (uint32_t k = 0; k + 1 < nd->nargs; k++)
				memoset(g, w, ir_arg(m, callee, k), opv[k]);
			r = walk(g, f, w, ir_func_body(m, callee));
			while (w->nlog > mark)
				g->memo[w->log[--w->nlog]] = 0;
			if (r == NONE)
				goto out;
		} else if (m->nodes[callee].kind == NK_GLOBAL) {
			if (fnindex(g, callee, NULL) < 0)
				goto out;
			r = newinst(f, n, opv, nd->nargs - 1);
			f->insts[r].num = f->nextnum++;
		} else {
			ir_error(g->d, m->locs[n], "the c backend cannot call a function value that is not a literal or a global");
			goto out;
		}
		break;
	}
	case NK_VAR:
		ir_error(g->d, m->locs[n], "the c backend cannot use the free variable %%%s", ir_symstr(m, nd->aux));
		goto out;
	default:
		ir_error(g->d, m->locs[n], "the c backend cannot evaluate a function value here");
		goto out;
	}
	memoset(g, w, n, r);
out:
	if (opv != ops)
		free(opv);
	return r;
}

/* ---------------------------------------------------------------- pass 2: values and code */

/* nleaves: the number of tensors in type t, flattened */
static uint32_t
nleaves(const Module *m, TypeId t)
{
	const Type *ty = &m->types[t];
	uint32_t n = 0;

	if (ty->kind != TY_TUPLE)
		return 1;
	for (uint32_t k = 0; k < ty->n; k++)
		n += nleaves(m, m->tylist[ty->first + k]);
	return n;
}

/* leaftypes: appends the tensor types of t, flattened, to out */
static void
leaftypes(const Module *m, TypeId t, TypeId *out, uint32_t *n)
{
	const Type *ty = &m->types[t];

	if (ty->kind != TY_TUPLE) {
		out[(*n)++] = t;
		return;
	}
	for (uint32_t k = 0; k < ty->n; k++)
		leaftypes(m, m->tylist[ty->first + k], out, n);
}

/* mkleaf: a leaf of tensor type t; 0 after reporting at loc */
static int
mkleaf(Gen *g, TypeId t, Loc loc, Leaf *l)
{
	const Type *ty = &g->m->types[t];
	char tb[256];

	memset(l, 0, sizeof *l);
	if (ty->kind != TY_TENSOR || ty->n > IR_MAXDIMS || ir_type_numel(g->m, t) < 0 ||
	    !cg_ctype((DType)ty->dtype)) {
		ir_error(g->d, loc, "the c backend cannot hold a value of type %s",
		         ir_type_str(g->m, t, tb, sizeof tb));
		return 0;
	}
	l->dt = ty->dtype;
	l->rank = (uint8_t)ty->n;
	if (ty->n)
		memcpy(l->dims, ir_type_dims(g->m, t), ty->n * sizeof(int64_t));
	l->n = ir_type_numel(g->m, t);
	return 1;
}

static void
pushleaf(Fn *f, const Leaf *l)
{
	Leaf copy = *l;     /* l may point into f->leaves */

	ir_vgrow(&f->leaves, &f->capleaves, f->nleaves + 1);
	f->leaves[f->nleaves++] = copy;
}

/* holds: inst i's leaves keep their buffers alive until i's last use */
static void
holds(Fn *f, Inst *i)
{
	for (uint32_t k = 0; k < i->nval; k++) {
		Leaf *l = &f->leaves[i->val + k];
		if (l->kind == LK_BUF && f->bufs[l->id].end < i->last)
			f->bufs[l->id].end = i->last;
	}
}

/* freshleaves: new buffers for inst i's (flattened) type */
static int
freshleaves(Gen *g, Fn *f, Inst *i)
{
	const Module *m = g->m;
	TypeId tys[256];
	uint32_t nt = 0;

	if (nleaves(m, m->nodes[i->node].type) > 256) {
		ir_error(g->d, m->locs[i->node], "the c backend: too many tuple fields");
		return 0;
	}
	leaftypes(m, m->nodes[i->node].type, tys, &nt);
	i->val = f->nleaves;
	i->nval = nt;
	for (uint32_t k = 0; k < nt; k++) {
		Leaf l;
		if (!mkleaf(g, tys[k], m->locs[i->node], &l))
			return 0;
		l.kind = LK_BUF;
		l.id = bufalloc(f, (DType)l.dt, (uint64_t)l.n * ir_dtype_bytes[l.dt], i->last);
		pushleaf(f, &l);
	}
	return 1;
}

/* ref: how inst o reads in a comment: %3, %x, a scalar or a meta constant */
static void
ref(Gen *g, Fn *f, Inst *o, FILE *s)
{
	const Module *m = g->m;
	const Node *n = &m->nodes[o->node];

	if (o->num >= 0) {
		fprintf(s, "%%%d", o->num);
	} else if (n->kind == NK_VAR) {
		fprintf(s, "%%%s", ir_symstr(m, n->aux));
	} else if (n->kind == NK_CONST) {
		const Const *c = &m->consts[n->aux];
		DType dt = (DType)m->types[c->type].dtype;
		if (m->types[c->type].n == 0 && dt != DT_BOOL) {
			if (ir_dtype_kind[dt] == 'f') {
				char b[64];
				ir_fmt_float(b, sizeof b, ldflt(c->data, dt, 0), dt);
				fprintf(s, "%s%s", b, dt == DT_FLOAT32 ? "f" : dt == DT_FLOAT16 ? "f16" : "");
			} else {
				fprintf(s, "%lld", (long long)ldint(c->data, dt, 0));
			}
		} else if (c->meta >= 0) {
			fprintf(s, "meta[relay.Constant][%d]", (int)c->meta);
		} else {
			fprintf(s, "const");
		}
	}
	(void)f;
}

/* comment: the Relay call of inst i as a comment line */
static void
comment(Gen *g, Fn *f, Inst *i)
{
	const Module *m = g->m;
	const Node *n = &m->nodes[i->node];
	char *text = NULL;
	size_t len = 0;
	FILE *s = open_memstream(&text, &len);

	if (!s)
		ir_die("out of memory");
	fprintf(s, "/* %%%d = ", i->num);
	if (n->kind == NK_CALL)
		fprintf(s, "%s(", ir_ops[n->op].name);
	else if (n->kind == NK_CALLFN)
		fprintf(s, "@%s(", ir_symstr(m, m->nodes[ir_arg(m, i->node, 0)].aux));
	else if (n->kind == NK_TUPLE)
		fprintf(s, "(");
	for (uint32_t k = 0; k < i->nops; k++) {
		if (k)
			fprintf(s, ", ");
		ref(g, f, cg_op(f, i, k), s);
	}
	if (n->kind == NK_GETITEM) {
		fprintf(s, ".%u", n->aux);
	} else {
		if (n->kind == NK_CALL) {
			const OpInfo *op = &ir_ops[n->op];
			const AttrVal *a = ir_attrs(m, i->node), *dflt = &m->attrs[m->opdefaults[n->op]];
			for (int k = 0; k < op->nattrs; k++) {
				if (m->opdefaults[n->op] && ir_attr_equal(m, &a[k], &dflt[k]))
					continue;
				fprintf(s, "%s%s=", i->nops || k ? ", " : "", op->attrs[k].name);
				ir_attr_print(s, m, &a[k]);
			}
		}
		fprintf(s, ")");
	}
	fprintf(s, " */");
	fclose(s);
	for (char *p = text; (p = strstr(p, "*/")) && p[2]; )
		p[1] = '_';     /* no early end of the comment */
	cg_line(g, f, "%s", text);
	free(text);
}

/* callglobal: the call of global function inst i into fresh buffers */
static int
callglobal(Gen *g, Fn *f, Inst *i)
{
	const char *name;
	char nb[32];
	char *line = NULL;
	size_t len = 0;
	FILE *s;

	fnindex(g, ir_arg(g->m, i->node, 0), &name);
	if (!freshleaves(g, f, i))
		return 0;
	comment(g, f, i);
	cg_open(g, f, "{");
	s = open_memstream(&line, &len);
	fprintf(s, "const void *const a[] = { ");
	for (uint32_t k = 0; k < i->nops; k++) {
		Inst *o = cg_op(f, i, k);
		for (uint32_t j = 0; j < o->nval; j++)
			fprintf(s, "%s%s", k || j ? ", " : "", cg_name(g, f, &f->leaves[o->val + j], nb));
	}
	if (!i->nops)
		fprintf(s, "0");
	fprintf(s, " };");
	fclose(s);
	cg_line(g, f, "%s", line);
	free(line);
	line = NULL;
	s = open_memstream(&line, &len);
	fprintf(s, "void *const r[] = { ");
	for (uint32_t j = 0; j < i->nval; j++)
		fprintf(s, "%s%s", j ? ", " : "", cg_name(g, f, &f->leaves[i->val + j], nb));
	fprintf(s, " };");
	fclose(s);
	cg_line(g, f, "%s", line);
	free(line);
	cg_line(g, f, "const int32_t rc = %s(a, r);", name);
	cg_line(g, f, "if (rc)");
	cg_line(g, f, "\treturn rc;");
	cg_close(f);
	return 1;
}

/* value: gives inst i its leaves and appends its code */
static int
value(Gen *g, Fn *f, Inst *i)
{
	const Module *m = g->m;
	const Node *n = &m->nodes[i->node];
	Leaf l;

	switch (n->kind) {
	case NK_VAR:
		return 1;   /* a parameter: leaves set up front */
	case NK_CONST:
		if (!mkleaf(g, n->type, m->locs[i->node], &l))
			return 0;
		l.kind = LK_CONST;
		l.node = i->node;
		i->val = f->nleaves;
		i->nval = 1;
		pushleaf(f, &l);
		return 1;
	case NK_TUPLE:
		i->val = f->nleaves;
		for (uint32_t k = 0; k < i->nops; k++) {
			Inst *o = cg_op(f, i, k);
			for (uint32_t j = 0; j < o->nval; j++)
				pushleaf(f, &f->leaves[o->val + j]);
		}
		i->nval = f->nleaves - i->val;
		holds(f, i);
		return 1;
	case NK_GETITEM: {
		Inst *o = cg_op(f, i, 0);
		const Type *tt = &m->types[m->nodes[o->node].type];
		uint32_t at = 0;
		for (uint32_t k = 0; k < n->aux; k++)
			at += nleaves(m, m->tylist[tt->first + k]);
		i->val = f->nleaves;
		i->nval = nleaves(m, n->type);
		for (uint32_t j = 0; j < i->nval; j++)
			pushleaf(f, &f->leaves[o->val + at + j]);
		holds(f, i);
		return 1;
	}
	case NK_CALLFN:
		return callglobal(g, f, i);
	case NK_CALL:
		if (cg_op_alias(n->op)) {
			if (!mkleaf(g, n->type, m->locs[i->node], &l))
				return 0;
			Leaf *src = cg_leaf(f, i, 0);
			l.kind = src->kind;
			l.id = src->id;
			l.node = src->node;
			i->val = f->nleaves;
			i->nval = 1;
			pushleaf(f, &l);
			holds(f, i);
			comment(g, f, i);
			cg_line(g, f, "/* the same data, as %lld elements of %s */", (long long)l.n,
			        ir_dtype_names[l.dt]);
			return 1;
		}
		if (!freshleaves(g, f, i))
			return 0;
		comment(g, f, i);
		return cg_op_emit(g, f, i);
	default:
		return 0;
	}
}

/* ---------------------------------------------------------------- functions */

static void
cname(const char *s, char *out, size_t size)
{
	size_t k = 0;

	for (; *s && k + 1 < size; s++, k++)
		out[k] = (char)((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		                (*s >= '0' && *s <= '9') ? *s : '_');
	out[k] = 0;
}

/* addfn: queues global function gi (an index in Module.globals) */
static int
addfn(Gen *g, uint32_t gi)
{
	const Module *m = g->m;
	const Global *gl = &m->globals[gi];
	const AttrVal *sym = ir_func_attr(m, gl->fn, "global_symbol");
	char nb[300];
	Fn *f;

	if (g->globaldone[gi])
		return (int)g->globaldone[gi] - 1;
	if (sym && sym->kind == AV_STR) {
		cname(ir_symstr(m, sym->u.s), nb, sizeof nb);
	} else if (strcmp(ir_symstr(m, gl->name), "main") == 0) {
		strcpy(nb, "graft_main");
	} else {
		strcpy(nb, "graft_");
		cname(ir_symstr(m, gl->name), nb + 6, sizeof nb - 6);
	}
	f = ir_xcalloc(1, sizeof *f);
	f->name = cg_strdup(nb);
	f->fn = gl->fn;
	f->exported = 1;
	if (g->callout && be_codegen_of(m, gl->fn) && be_codegen_of(m, gl->fn)->run) {
		f->ext = 1;
		f->extidx = g->next;
		ir_vgrow(&g->extfns, &g->capext, g->next + 1);
		g->extfns[g->next++] = gl->fn;
	}
	ir_vgrow(&g->fns, &g->capfns, g->nfns + 1);
	g->fns[g->nfns++] = f;
	g->globaldone[gi] = g->nfns;
	return (int)g->nfns - 1;
}

/* fnindex: the Fn of global reference ref, queued if new; -1 after an error */
static int
fnindex(Gen *g, NodeId gref, const char **name)
{
	uint32_t gi = ir_global_index(g->m, g->m->nodes[gref].aux);
	int k;

	if (!gi) {
		ir_error(g->d, g->m->locs[gref], "the c backend: no function @%s",
		         ir_symstr(g->m, g->m->nodes[gref].aux));
		return -1;
	}
	k = addfn(g, gi - 1);
	if (name)
		*name = g->fns[k]->name;
	return k;
}

/* buildfn: both passes over f's body */
static int
buildfn(Gen *g, Fn *f)
{
	const Module *m = g->m;
	uint32_t np = ir_func_nparams(m, f->fn), body;
	Walk w = { 0 };
	int errs = g->d->errors;
	char nb[32];

	for (uint32_t k = 0; k < np; k++) {
		NodeId p = ir_arg(m, f->fn, k);
		uint32_t r = newinst(f, p, NULL, 0);
		Leaf l;
		if (!mkleaf(g, m->nodes[p].type, m->locs[p], &l))
			goto out;
		l.kind = LK_PARAM;
		l.id = k;
		f->insts[r].val = f->nleaves;
		f->insts[r].nval = 1;
		pushleaf(f, &l);
		memoset(g, &w, p, r);
	}
	body = walk(g, f, &w, ir_func_body(m, f->fn));
	for (uint32_t k = 0; k < w.nlog; k++)
		g->memo[w.log[k]] = 0;
	if (body == NONE)
		goto out;
	/* last uses */
	for (uint32_t k = 0; k < f->ninsts; k++) {
		Inst *i = &f->insts[k];
		i->last = k;
		for (uint32_t j = 0; j < i->nops; j++)
			f->insts[f->opnds[i->ops + j]].last = k;
	}
	f->insts[body].last = NONE;
	/* values and code, freeing dead buffers after each inst */
	for (uint32_t k = 0; k < f->ninsts; k++) {
		f->cur = k;
		if (!value(g, f, &f->insts[k]))
			goto out;
		for (uint32_t b = 0; b < f->nbufs; b++)
			if (f->bufs[b].live && f->bufs[b].end <= k)
				f->bufs[b].live = 0;
	}
	/* the results */
	for (uint32_t j = 0; j < f->insts[body].nval; j++) {
		Leaf *l = &f->leaves[f->insts[body].val + j];
		cg_line(g, f, "memcpy(out[%u], %s, %lld);", j, cg_name(g, f, l, nb),
		        (long long)(l->n * ir_dtype_bytes[l->dt]));
	}
	cg_line(g, f, "return 0;");
out:
	free(w.log);
	return g->d->errors == errs;
}

static void
fnfree(Fn *f)
{
	for (uint32_t k = 0; k < f->nlines; k++)
		free(f->lines[k].text);
	free(f->lines);
	free(f->insts);
	free(f->opnds);
	free(f->leaves);
	free(f->bufs);
	free(f->name);
	free(f);
}

/* ---------------------------------------------------------------- rendering */

static void
fmtval(FILE *c, DType dt, const unsigned char *p, const void *owned, int64_t i)
{
	if (dt == DT_FLOAT16) {         /* the bits */
		fprintf(c, "0x%04x", owned ? ((const uint16_t *)owned)[i] : (unsigned)ldint(p, DT_UINT16, i));
		return;
	}
	if (ir_dtype_kind[dt] == 'f') {
		double v = owned ? (dt == DT_FLOAT32 ? ((const float *)owned)[i] : ((const double *)owned)[i])
		                 : ldflt(p, dt, i);
		char b[80];
		fputs(cg_lit(v, dt, b), c);
		return;
	}
	{
		int64_t v;
		if (owned) {
			switch (dt) {
			case DT_INT8: v = ((const int8_t *)owned)[i]; break;
			case DT_UINT8: case DT_BOOL: v = ((const uint8_t *)owned)[i]; break;
			case DT_INT16: v = ((const int16_t *)owned)[i]; break;
			case DT_UINT16: v = ((const uint16_t *)owned)[i]; break;
			case DT_INT32: v = ((const int32_t *)owned)[i]; break;
			case DT_UINT32: v = ((const uint32_t *)owned)[i]; break;
			default: v = ((const int64_t *)owned)[i]; break;
			}
		} else {
			v = ldint(p, dt, i);
		}
		if (dt == DT_INT64 && v == INT64_MIN)
			fputs("INT64_MIN", c);
		else if (dt == DT_INT32 && v == INT32_MIN)
			fputs("INT32_MIN", c);
		else if (dt == DT_INT64 || dt == DT_UINT32)
			fprintf(c, "%lld%s", (long long)v, dt == DT_UINT32 ? "u" : "");
		else
			fprintf(c, "%lld", (long long)v);
	}
}

static void
rconst(Gen *g, FILE *c, uint32_t k)
{
	const CArr *a = &g->consts[k];
	const unsigned char *p = a->node ? g->m->consts[g->m->nodes[a->node].aux].data : NULL;
	int perline = ir_dtype_kind[a->dt] == 'f' ? 8 : 16;

	fprintf(c, "/* %s */\n", a->comment);
	fprintf(c, "static const %s k%u[%lld] = {", cg_ctype(a->dt), k, (long long)(a->n ? a->n : 1));
	if (!a->n)
		fprintf(c, " 0");
	for (int64_t i = 0; i < a->n; i++) {
		if (i % perline == 0)
			fprintf(c, "\n\t");
		else
			fputc(' ', c);
		fmtval(c, a->dt, p, a->data, i);
		if (i + 1 < a->n)
			fputc(',', c);
	}
	fprintf(c, "\n};\n\n");
}

static void
proto(FILE *c, const Fn *f)
{
	fprintf(c, "%sint32_t %s(const void *const *in, void *const *out)", f->exported ? "" : "static ",
	        f->name);
}

static void
rfn(Gen *g, FILE *c, Fn *f)
{
	const Module *m = g->m;
	uint32_t np = ir_func_nparams(m, f->fn);
	char tb[1024];
	uint8_t *used = ir_xcalloc(np + 1, 1), *decl = ir_xcalloc(f->nbufs + 1, 1);
	int anyin = 0;

	/* which parameters and buffers the lines name */
	for (uint32_t k = 0; k < f->nlines; k++)
		for (const char *s = f->lines[k].text; *s; s++) {
			if ((*s == 'p' || *s == 'b') && (s == f->lines[k].text || !(s[-1] == '_' ||
			    (s[-1] >= 'a' && s[-1] <= 'z') || (s[-1] >= 'A' && s[-1] <= 'Z') ||
			    (s[-1] >= '0' && s[-1] <= '9'))) && s[1] >= '0' && s[1] <= '9') {
				unsigned long v = strtoul(s + 1, NULL, 10);
				if (*s == 'p' && v < np)
					used[v] = 1;
				else if (*s == 'b' && v < f->nbufs)
					decl[v] = 1;
			}
		}
	ir_type_str(m, m->nodes[f->fn].type, tb, sizeof tb);
	fprintf(c, "/* @%s: %s */\n", f->name, tb);
	proto(c, f);
	fprintf(c, "\n{\n");
	if (f->ext) {
		fprintf(c, "\treturn graft_ext_call(graft_ext_ctx[%u], in, out);\n}\n", f->extidx);
		free(used);
		free(decl);
		return;
	}
	if (f->arena)
		fprintf(c, "\tstatic int64_t arena[%llu];\n\tunsigned char *const a = (unsigned char *)arena;\n",
		        (unsigned long long)(f->arena / 8));
	for (uint32_t k = 0; k < np; k++) {
		const char *t = cg_ctype((DType)f->leaves[f->insts[k].val].dt);
		if (used[k]) {
			fprintf(c, "\tconst %s *const p%u = (const %s *)in[%u];\n", t, k, t, k);
			anyin = 1;
		}
	}
	if (!anyin)
		fprintf(c, "\t(void)in;\n");
	for (uint32_t b = 0; b < f->nbufs; b++)
		if (decl[b])
			fprintf(c, "\t%s *const b%u = (%s *)(a + %llu);\n", cg_ctype(f->bufs[b].dt), b,
			        cg_ctype(f->bufs[b].dt), (unsigned long long)f->bufs[b].off);
	fprintf(c, "\n");
	for (uint32_t k = 0; k < f->nlines; k++) {
		for (uint32_t d = 0; d < f->lines[k].depth + 1; d++)
			fputc('\t', c);
		fprintf(c, "%s\n", f->lines[k].text);
	}
	fprintf(c, "}\n");
	free(used);
	free(decl);
}

static const char helper_fpm[] =
	"/* graft_fpm: x times the Q31 fixed-point multiplier mul, shifted left by\n"
	"** ls and right by total (31 + the right shift), rounding half up or, with\n"
	"** nearest, half away from zero; in 64 bits, wrapping, truncated to 32 bits\n"
	"** (TVM's FixedPointMultiply, qnn.requantize's integer lowering) */\n"
	"static inline int32_t\n"
	"graft_fpm(int32_t x, int32_t mul, int ls, int total, int nearest)\n"
	"{\n"
	"\tint64_t t = (int64_t)((uint64_t)(int64_t)x << ls);\n"
	"\n"
	"\tt = (int64_t)((uint64_t)t * (uint64_t)(int64_t)mul);\n"
	"\tt = (int64_t)((uint64_t)t + (uint64_t)(((int64_t)1 << (total - 1)) - (nearest && t < 0)));\n"
	"\treturn (int32_t)(t >> total);\n"
	"}\n\n";

static const char helper_rtz[] =
	"/* graft_f2i: float x to an integer, truncating, saturated to [lo, hi]\n"
	"** (the dtype's range) and NaN to 0, as llvm.fptosi.sat and the reference\n"
	"** interpreter do (TVM leaves them undefined); lo1 and hi1 are lo - 1 and\n"
	"** hi + 1 as doubles */\n"
	"static inline int64_t\n"
	"graft_f2i(double x, double lo1, double hi1, int64_t lo, int64_t hi)\n"
	"{\n"
	"\treturn x != x ? 0 : x <= lo1 ? lo : x >= hi1 ? hi : (int64_t)x;\n"
	"}\n\n";

static const char helper_ipow[] =
	"/* graft_ipow: a ** b by squaring in 64 bits, wrapping; a negative\n"
	"** exponent gives 0 but for a base of 1 or -1, as integer division would\n"
	"** (the reference interpreter's integer power) */\n"
	"static inline int64_t\n"
	"graft_ipow(int64_t a, int64_t b)\n"
	"{\n"
	"\tuint64_t x = (uint64_t)a, y = 1;\n"
	"\n"
	"\tif (b < 0)\n"
	"\t\treturn a == 1 ? 1 : a == -1 ? (b % 2 ? -1 : 1) : 0;\n"
	"\tfor (uint64_t e = (uint64_t)b; e; e >>= 1, x *= x)\n"
	"\t\tif (e & 1)\n"
	"\t\t\ty *= x;\n"
	"\treturn (int64_t)y;\n"
	"}\n\n";

static const char helper_f16[] =
	"/* float16 data are their bits (uint16_t).  graft_h2f widens them to\n"
	"** float, exactly; graft_f2h rounds a float to half, to nearest even,\n"
	"** every NaN 0x7e00; graft_hr is a float rounded to half and widened back\n"
	"** (a step of a float16 sum); graft_d2h rounds a double to half once, by\n"
	"** way of a float rounded to odd (the reference interpreter's rounding) */\n"
	"static inline float\n"
	"graft_h2f(uint16_t h)\n"
	"{\n"
	"\tuint32_t s = (uint32_t)(h & 0x8000u) << 16, e = h >> 10 & 0x1fu, m = h & 0x3ffu;\n"
	"\tfloat f;\n"
	"\n"
	"\tif (e == 0) {                  /* zero, subnormal: m * 2^-24 */\n"
	"\t\tf = (float)m * 5.9604644775390625e-8f;\n"
	"\t\treturn s ? -f : f;\n"
	"\t}\n"
	"\ts |= e == 0x1f ? 0x7f800000u | m << 13 : (e + 112) << 23 | m << 13;\n"
	"\tmemcpy(&f, &s, 4);\n"
	"\treturn f;\n"
	"}\n"
	"\n"
	"static inline uint16_t\n"
	"graft_f2h(float f)\n"
	"{\n"
	"\tuint32_t u, s, a, h, rest, half;\n"
	"\n"
	"\tmemcpy(&u, &f, 4);\n"
	"\ts = u >> 16 & 0x8000u;\n"
	"\ta = u & 0x7fffffffu;\n"
	"\tif (a > 0x7f800000u)\n"
	"\t\treturn 0x7e00;\n"
	"\tif (a >= 0x477ff000u)          /* 65520 and up */\n"
	"\t\treturn (uint16_t)(s | 0x7c00u);\n"
	"\tif (a >= 0x38800000u) {        /* 2^-14 and up: normal */\n"
	"\t\ta -= 0x38000000u;\n"
	"\t\th = a >> 13, rest = a & 0x1fffu, half = 0x1000u;\n"
	"\t} else if (a >= 0x33000000u) { /* 2^-25 and up: m * 2^-24 */\n"
	"\t\tuint32_t sh = 126 - (a >> 23), m = (a & 0x7fffffu) | 0x800000u;\n"
	"\t\th = m >> sh, rest = m & ((1u << sh) - 1), half = 1u << (sh - 1);\n"
	"\t} else {\n"
	"\t\treturn (uint16_t)s;\n"
	"\t}\n"
	"\tif (rest > half || (rest == half && (h & 1)))\n"
	"\t\th++;                        /* may carry into the exponent */\n"
	"\treturn (uint16_t)(s | h);\n"
	"}\n"
	"\n"
	"static inline float\n"
	"graft_hr(float f)\n"
	"{\n"
	"\treturn graft_h2f(graft_f2h(f));\n"
	"}\n"
	"\n"
	"static inline uint16_t\n"
	"graft_d2h(double d)\n"
	"{\n"
	"\tfloat f;\n"
	"\tuint32_t u;\n"
	"\n"
	"\tif (d != d)\n"
	"\t\treturn 0x7e00;\n"
	"\tif (fabs(d) >= 65520.0)\n"
	"\t\treturn d < 0 ? 0xfc00 : 0x7c00;\n"
	"\tf = (float)d;\n"
	"\tif ((double)f != d) {          /* to odd: toward zero, the last bit set */\n"
	"\t\tmemcpy(&u, &f, 4);\n"
	"\t\tif (fabs((double)f) > fabs(d))\n"
	"\t\t\tu--;\n"
	"\t\tu |= 1;\n"
	"\t\tmemcpy(&f, &u, 4);\n"
	"\t}\n"
	"\treturn graft_f2h(f);\n"
	"}\n\n";

static const char *
modelname(const Module *m)
{
	return m->nfiles > 1 ? m->files[1] : "<stdin>";
}

/* kdecls: the types of ir/kernel.h (the same declarations, under its
** include guard, so that the file needs no graft header) and the C
** kernels of plugin ops the code calls: by their symbols, which the
** program links; or, for running in-process, through pointers
** graft_kfn_SYMBOL that graft sets (be_c_bind_kernels) */
static void
kdecls(Gen *g, FILE *c)
{
	int any = 0;

	for (OpId op = OP_COUNT; op < ir_op_count(); op++)
		any |= g->kused[op];
	if (!any)
		return;
	fprintf(c, "/* ir/kernel.h (<graft/kernel.h>): the C kernels of plugin ops */\n"
	           "#ifndef GRAFT_KERNEL_H\n"
	           "#define GRAFT_KERNEL_H\n"
	           "typedef struct graft_tensor {\n"
	           "\tvoid *data;\n"
	           "\tconst int64_t *shape;\n"
	           "\tint32_t rank;\n"
	           "\tint32_t dtype;\n"
	           "} graft_tensor;\n"
	           "typedef struct graft_attr {\n"
	           "\tint32_t kind;\n"
	           "\tint32_t n;\n"
	           "\tint64_t i;\n"
	           "\tdouble f;\n"
	           "\tconst int64_t *ints;\n"
	           "\tconst double *floats;\n"
	           "\tconst char *s;\n"
	           "} graft_attr;\n"
	           "#endif\n\n");
	for (OpId op = OP_COUNT; op < ir_op_count(); op++) {
		const char *sym;
		if (!g->kused[op] || !ref_ckernel(op, &sym))
			continue;
		fprintf(c, "/* %s */\n", ir_ops[op].name);
		if (g->callout)
			fprintf(c, "int (*graft_kfn_%s)(const graft_tensor *, uint32_t, graft_tensor *, uint32_t, "
			           "const graft_attr *);\n", sym);
		else
			fprintf(c, "int %s(const graft_tensor *in, uint32_t nin, graft_tensor *out, uint32_t nout, "
			           "const graft_attr *attrs);\n", sym);
	}
	fputc('\n', c);
}

static void
render(Gen *g, FILE *c, FILE *h, const char *hname)
{
	const Module *m = g->m;
	char guard[256];

	/* the header: the entry points */
	cname(hname, guard, sizeof guard);
	for (char *p = guard; *p; p++)
		if (*p >= 'a' && *p <= 'z')
			*p = (char)(*p - 'a' + 'A');
	fprintf(h, "/* generated by graft from %s; do not edit */\n", modelname(m));
	fprintf(h, "#ifndef GRAFT_%s\n#define GRAFT_%s\n\n#include <stdint.h>\n\n", guard, guard);
	fprintf(h, "/* in[i]: parameter i's data, out[j]: room for result j; returns 0, or 1\n"
	           "** after an integer division by zero, 2 after an index out of range */\n");
	for (uint32_t k = 0; k < g->nfns; k++) {
		const Fn *f = g->fns[k];
		char tb[1024];
		if (!f->exported)
			continue;
		ir_type_str(m, m->nodes[f->fn].type, tb, sizeof tb);
		fprintf(h, "\n/* %s */\n", tb);
		proto(h, f);
		fprintf(h, ";\n");
	}
	fprintf(h, "\n#endif\n");

	/* the source */
	fprintf(c, "/* generated by graft from %s; do not edit */\n", modelname(m));
	fprintf(c, "#include <math.h>\n#include <stdint.h>\n#include <string.h>\n\n#include \"%s\"\n\n", hname);
	if (g->helpers & H_FPM)
		fputs(helper_fpm, c);
	if (g->helpers & H_F2I)
		fputs(helper_rtz, c);
	if (g->helpers & H_IPOW)
		fputs(helper_ipow, c);
	if (g->helpers & H_F16)
		fputs(helper_f16, c);
	for (uint32_t k = 0; k < g->nfns; k++)
		if (!g->fns[k]->exported) {
			proto(c, g->fns[k]);
			fprintf(c, ";\n");
		}
	kdecls(g, c);
	if (g->next)
		fprintf(c, "/* the partitions their targets' codegens run, called through graft,\n"
		           "** which sets these when it loads this code */\n"
		           "int32_t (*graft_ext_call)(void *ctx, const void *const *in, void *const *out);\n"
		           "void *graft_ext_ctx[%u];\n\n", g->next);
	for (uint32_t k = 0; k < g->nconsts; k++)
		rconst(g, c, k);
	for (uint32_t k = 0; k < g->nfns; k++) {
		if (k)
			fputc('\n', c);
		rfn(g, c, g->fns[k]);
	}
}

static int emit(const Module *m, const char *target, int callout, FILE *c, FILE *h, const char *hname,
                NodeId **ext, uint32_t *next, Diag *d);

int
be_c_emit(const Module *m, const char *target, FILE *c, FILE *h, const char *hname, Diag *d)
{
	return emit(m, target, 0, c, h, hname, NULL, NULL, d);
}

int
be_c_emit_run(const Module *m, FILE *c, FILE *h, const char *hname, NodeId **ext, uint32_t *next, Diag *d)
{
	return emit(m, NULL, 1, c, h, hname, ext, next, d);
}

/* emit: be_c_emit(), and with callout, be_c_emit_run() */
static int
emit(const Module *m, const char *target, int callout, FILE *c, FILE *h, const char *hname, NodeId **ext,
     uint32_t *next, Diag *d)
{
	Gen g;
	int errs = d->errors;

	memset(&g, 0, sizeof g);
	g.m = m;
	g.d = d;
	g.target = target;
	g.callout = callout;
	g.constof = ir_xcalloc(m->nnodes + 1, sizeof *g.constof);
	g.memo = ir_xcalloc(m->nnodes + 1, sizeof *g.memo);
	g.globaldone = ir_xcalloc(m->nglobals + 1, sizeof *g.globaldone);
	if (target) {
		for (uint32_t k = 0; k < m->nglobals; k++) {
			const AttrVal *cc = ir_func_attr(m, m->globals[k].fn, "Compiler");
			if (cc && cc->kind == AV_STR && strcmp(ir_symstr(m, cc->u.s), target) == 0)
				addfn(&g, k);
		}
		if (!g.nfns)
			ir_error(d, (Loc){ 0, 0, 0 }, "the model has no partition for target '%s'", target);
	} else {
		Sym s;
		uint32_t gi = 0;
		if (ir_sym_find(m, "main", 4, ir_sym_hash(IR_SYM_HASH0, "main", 4), &s))
			gi = ir_global_index(m, s);
		if (!gi)
			ir_error(d, (Loc){ 0, 0, 0 }, "the model has no @main function");
		else
			addfn(&g, gi - 1);
	}
	for (uint32_t k = 0; k < g.nfns && d->errors == errs; k++)
		if (!g.fns[k]->ext)
			buildfn(&g, g.fns[k]);
	if (d->errors == errs)
		render(&g, c, h, hname);
	for (uint32_t k = 0; k < g.nfns; k++)
		fnfree(g.fns[k]);
	for (uint32_t k = 0; k < g.nconsts; k++) {
		free(g.consts[k].data);
		free(g.consts[k].comment);
	}
	free(g.fns);
	free(g.consts);
	free(g.constof);
	free(g.memo);
	free(g.globaldone);
	if (ext) {
		*ext = g.extfns;
		*next = g.next;
	} else {
		free(g.extfns);
	}
	return d->errors - errs;
}
