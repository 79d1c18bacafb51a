/*
** nodes.c: the llvm backend's walk of a module: the value of each node
** (ll_lower), lowering its operands first; op calls dispatched by op
** (call), in functions of their own (opfn) with their fusable operands;
** calls of functions inlined in a scope of their own; partitions a
** plugin's codegen runs called out to (callout); and the entry points
** of the global functions (ll_entry).
*/
#define _POSIX_C_SOURCE 200809L
#include "llvmi.h"

static Val opfn(G *g, Scope *s, NodeId n);
static void flattypes(const Module *m, TypeId t, TypeId *out, uint32_t *n, uint32_t max);

/* ll_callargs: c for the op call n, its operands lowered (all but operand 0
** with skip0, and those FUSED, whose types are still filled in; none
** with s NULL); 0 if an operand failed (after an error) */
int
ll_callargs(G *g, Scope *s, NodeId n, Call *c, int skip0)
{
	const Module *m = g->m;
	const Node *nd = &m->nodes[n];

	memset(c, 0, sizeof *c);
	c->n = n;
	c->m = m;
	c->s = s;
	c->ot = nd->type;
	for (uint32_t i = 0; i < nd->nargs && i < 8; i++) {
		NodeId a = ir_arg(m, n, i);
		int low = s && (i || !skip0) && s->done[a] != FUSED;
		if (low)
			c->a[i] = ll_lower(g, s, a);
		c->at[i] = m->nodes[a].type;
		if (ir_type(m, c->at[i])->kind == TY_TENSOR) {
			c->ar[i] = ll_tdims(m, c->at[i], c->ad[i]);
			c->adt[i] = ll_tdt(m, c->at[i]);
			if (!c->a[i].p && low)
				return 0;
		}
	}
	if (ir_type(m, c->ot)->kind == TY_TENSOR) {
		c->orank = ll_tdims(m, c->ot, c->od);
		c->odt = ll_tdt(m, c->ot);
	}
	return 1;
}

/* call: lowers the op call n whose operands are lowered */
static Val
call(G *g, Scope *s, NodeId n)
{
	const Module *m = g->m;
	const Node *nd = &m->nodes[n];
	Call c;
	Ew e;
	MapFn *f;
	int nin;
	Val fused;

	if (g->dot && (nd->op == OP_QNN_REQUANTIZE || nd->op == OP_QNN_CONV2D) && ll_dot_root(g, s, n, &fused))
		return fused;
	if ((nd->op == OP_NN_CONV2D || nd->op == OP_NN_BIAS_ADD || nd->op == OP_ADD || nd->op == OP_NN_RELU ||
	     nd->op == OP_CLIP) && ll_fconv_root(g, s, n, &fused))
		return fused;
	if (!ll_callargs(g, s, n, &c, 0))
		return ll_tensorbuf(g, c.ot);   /* after an error */
	if (ir_type(m, c.ot)->kind == TY_TENSOR && !ll_h16ok(&c)) {
		ll_refuse(g, n, "float16 is not supported");
		return ll_tensorbuf(g, c.ot);
	}
	if (ll_ewop(&c, &e, &f, &nin))
		return ll_ewise(g, &c, nin, f, &e);
	if (ir_ops[nd->op].flags & OPF_VIEW)
		return ll_alias(&c);
	switch (nd->op) {
	case OP_SUM: case OP_PROD: case OP_MAX: case OP_MIN: case OP_ARGMAX: case OP_ARGMIN:
		return ll_reduce(g, &c);
	case OP_CLIP:       /* the rest ll_ewop() took */
		if (ll_clip_whole(m, n))
			return ll_alias(&c);
		ll_refuse(g, n, "a bound does not fit the dtype");
		return ll_tensorbuf(g, c.ot);
	case OP_QNN_QUANTIZE: return ll_quantize(g, &c, 0);
	case OP_QNN_DEQUANTIZE: return ll_quantize(g, &c, 1);
	case OP_QNN_REQUANTIZE: return ll_requantize(g, &c);
	case OP_QNN_ADD: case OP_QNN_MUL: return ll_qbinary(g, &c);
	case OP_NN_BIAS_ADD: return ll_bias_add(g, &c);
	case OP_NN_PAD: return ll_pad(g, &c);
	case OP_IMAGE_RESIZE2D: return ll_resize(g, &c);
	case OP_TRANSPOSE: return ll_transpose(g, &c);
	case OP_LAYOUT_TRANSFORM: return ll_layout_transform(g, &c);
	case OP_EINSUM: return ll_einsum(g, &c);
	case OP_NN_BATCH_NORM: return ll_batch_norm(g, &c);
	case OP_NN_LAYER_NORM: case OP_NN_GROUP_NORM: case OP_NN_INSTANCE_NORM: return ll_norm(g, &c);
	case OP_STRIDED_SLICE: return ll_slice(g, &c);
	case OP_TAKE: case OP_GATHER: return ll_take(g, &c);
	case OP_CONCATENATE: return ll_concat(g, &c);
	case OP_QNN_CONCATENATE: return ll_qconcat(g, &c);
	case OP_SPLIT: return ll_split(g, &c);
	case OP_MEAN: return ll_mean(g, &c);
	case OP_CUMSUM: case OP_CUMPROD: return ll_scan(g, &c);
	case OP_NN_SOFTMAX: return ll_softmax(g, &c);
	case OP_NN_GLOBAL_AVG_POOL2D: return ll_global_avg_pool(g, &c);
	case OP_NN_MAX_POOL2D: return ll_pool2d(g, &c, 0);
	case OP_NN_AVG_POOL2D: return ll_pool2d(g, &c, 1);
	case OP_NN_DENSE: return ll_dense(g, &c, 0);
	case OP_NN_BATCH_MATMUL: return ll_batch_matmul(g, &c);
	case OP_QNN_DENSE: return ll_dense(g, &c, 1);
	case OP_NN_CONV2D: return ll_conv2d(g, &c, 0);
	case OP_QNN_CONV2D: return ll_conv2d(g, &c, 1);
	default:
		if (ref_ckernel(nd->op, NULL))
			return ll_kcall(g, &c);
		if (nd->op >= OP_COUNT) {
			ll_refuse(g, n, "the plugin that registers it gives it no C kernel (graft_plugin_add_op)");
			return ll_tensorbuf(g, c.ot);
		}
		break;
	}
	{
		const char *why = nd->op < OP_COUNT ? ir_op_accepts(nd->op, e.dt) : NULL;
		char msg[96];
		snprintf(msg, sizeof msg, "%s it is not supported", why ? why : "");
		ll_refuse(g, n, why ? msg : ll_isint(e.dt) && nd->op != OP_NONE && (ir_ops[nd->op].flags & OPF_ELEM)
		                      ? "on integer operands it is not supported" : "the op is not supported");
	}
	return ir_type(m, c.ot)->kind == TY_TENSOR ? ll_tensorbuf(g, c.ot) : (Val){ 0 };
}

void
ll_scope_init(Scope *s, const Module *m)
{
	s->v = ir_xcalloc(m->nnodes, sizeof *s->v);
	s->done = ir_xcalloc(m->nnodes, 1);
	s->up = NULL;
	s->call = s->fn = 0;
}

void
ll_scope_free(Scope *s)
{
	free(s->v);
	free(s->done);
}

/* ll_callee: the function literal that NK_CALLFN n calls, or 0 */
NodeId
ll_callee(const Module *m, NodeId n)
{
	NodeId f = ir_arg(m, n, 0);

	if (m->nodes[f].kind == NK_GLOBAL)
		return ir_global_find(m, m->nodes[f].aux);
	return m->nodes[f].kind == NK_FUNC ? f : 0;
}

/* unflat: the Val of type t whose tensors are bufs[*k...], depth first */
static Val
unflat(G *g, TypeId t, const LLVMValueRef *bufs, uint32_t *k)
{
	const Type *ty = ir_type(g->m, t);
	Val v = { 0 };

	if (ty->kind != TY_TUPLE) {
		v.p = bufs[(*k)++];
		return v;
	}
	v.nf = ty->n;
	v.f = ir_arena_alloc(&g->a, (ty->n ? ty->n : 1) * sizeof *v.f);
	for (uint32_t i = 0; i < ty->n; i++)
		v.f[i] = unflat(g, g->m->tylist[ty->first + i], bufs, k);
	return v;
}

/* callout: call n of partition f, which its target's codegen runs: the
** operands' and fresh results' addresses in two arrays, passed to
** be_ext_call with the partition's BeExt, whose address (like
** be_ext_call's) is a constant of this in-process code; a failure sets
** the entry's error flag */
static Val
callout(G *g, Scope *s, NodeId n, NodeId f)
{
	const Module *m = g->m;
	uint32_t nin = m->nodes[n].nargs - 1, nout = 0, k = 0;
	LLVMTypeRef pp = LLVMPointerType(g->p8, 0), fty;
	LLVMValueRef ina, outa, *bufs, args[3], rc, err;
	TypeId *tys;
	BeExt *x = NULL;
	Val v = { 0 };

	for (uint32_t i = 0; i < *g->next; i++)
		if ((*g->ext)[i]->fn == f)
			x = (*g->ext)[i];
	if (!x) {
		if (!(x = be_ext_new(m, f, g->d))) {
			g->errors++;
			return v;
		}
		*g->ext = ir_xrealloc(*g->ext, (*g->next + 1) * sizeof **g->ext);
		(*g->ext)[(*g->next)++] = x;
	}
	ina = LLVMBuildAlloca(g->b, LLVMArrayType(g->p8, nin ? nin : 1), "ext.in");
	for (uint32_t i = 0; i < nin; i++) {
		Val a = ll_lower(g, s, ir_arg(m, n, i + 1));
		LLVMValueRef ix[2] = { ll_c64(g, 0), ll_c64(g, i) };
		if (!a.p) {
			ir_error(g->d, m->locs[n], "the llvm backend passes only tensors to @%s's codegen", x->name);
			g->errors++;
			return v;
		}
		LLVMBuildStore(g->b, a.p, LLVMBuildInBoundsGEP2(g->b, LLVMArrayType(g->p8, nin), ina, ix, 2, ""));
	}
	flattypes(m, m->nodes[n].type, NULL, &nout, 0);
	tys = ir_xcalloc(nout + 1, sizeof *tys);
	bufs = ir_xcalloc(nout + 1, sizeof *bufs);
	flattypes(m, m->nodes[n].type, tys, &k, nout);
	outa = LLVMBuildAlloca(g->b, LLVMArrayType(g->p8, nout ? nout : 1), "ext.out");
	for (uint32_t j = 0; j < nout; j++) {
		LLVMValueRef ix[2] = { ll_c64(g, 0), ll_c64(g, j) };
		bufs[j] = ll_tensorbuf(g, tys[j]).p;
		LLVMBuildStore(g->b, bufs[j], LLVMBuildInBoundsGEP2(g->b, LLVMArrayType(g->p8, nout), outa, ix, 2, ""));
	}
	fty = LLVMFunctionType(g->i32, (LLVMTypeRef[]){ g->p8, pp, pp }, 3, 0);
	args[0] = LLVMConstIntToPtr(ll_c64(g, (int64_t)(uintptr_t)x), g->p8);
	args[1] = LLVMBuildBitCast(g->b, ina, pp, "");
	args[2] = LLVMBuildBitCast(g->b, outa, pp, "");
	rc = LLVMBuildCall2(g->b, fty, LLVMConstIntToPtr(ll_c64(g, (int64_t)(uintptr_t)be_ext_call),
	                                                 LLVMPointerType(fty, 0)), args, 3, "");
	err = LLVMBuildLoad2(g->b, g->i32, g->err, "");
	LLVMBuildStore(g->b, LLVMBuildOr(g->b, err, LLVMBuildZExt(g->b, LLVMBuildICmp(g->b, LLVMIntNE, rc, ll_c32(g, 0), ""),
	                                                           g->i32, ""), ""), g->err);
	k = 0;
	v = unflat(g, m->nodes[n].type, bufs, &k);
	free(tys);
	free(bufs);
	return v;
}

/* ll_relocal: makes op function f use its own loads of the entry's
** parameters (g->pin, which lowering put in Vals), loaded from its in */
void
ll_relocal(G *g, LLVMValueRef f)
{
	LLVMValueRef *mine = ir_xcalloc(g->npin + 1, sizeof *mine), in = LLVMGetParam(f, 0);
	LLVMBuilderRef b = LLVMCreateBuilderInContext(g->cx);
	LLVMValueRef top = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(f));

	LLVMPositionBuilderBefore(b, top);
	for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
		for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
			for (int k = 0, nk = LLVMGetNumOperands(i); k < nk; k++) {
				LLVMValueRef o = LLVMGetOperand(i, k);
				uint32_t j = 0;
				if (!o || !LLVMIsAInstruction(o) || LLVMGetBasicBlockParent(LLVMGetInstructionParent(o)) == f)
					continue;
				while (j < g->npin && g->pin[j] != o)
					j++;
				if (j == g->npin)
					ir_die("llvm backend: an op function uses a value of another function");
				if (!mine[j]) {
					LLVMValueRef ix = ll_c64(g, j);
					mine[j] = LLVMBuildLoad2(b, g->p8, LLVMBuildInBoundsGEP2(b, g->p8, in, &ix, 1, ""), "");
				}
				LLVMSetOperand(i, k, mine[j]);
			}
	LLVMDisposeBuilder(b);
	free(mine);
}

/* fusable: the dot path may take n, a requantize (of a bias_add) of
** a qnn.conv2d, together with the conv */
static int
fusable(const Module *m, NodeId n)
{
	NodeId x;

	if (!ll_isop(m, n, OP_QNN_REQUANTIZE))
		return 0;
	x = ir_arg(m, n, 0);
	if (ll_isop(m, x, OP_NN_BIAS_ADD))
		x = ir_arg(m, x, 0);
	return ll_isop(m, x, OP_QNN_CONV2D);
}

/* ewmark: lowers the operands of op call cn (its types: ll_callargs
** without a scope) in s, but marks FUSED (and recurses into) each
** elementwise operand that its loop can compute in place (ll_ewacc): an
** ll_ewop() call used once, not lowered yet, with cn's result dims, neither
** of them touching float16 (so ll_ewop retypes nothing), while the loop
** reads at most MAXLEAF tensors (*room: how many more it may read) */
static void
ewmark(G *g, Scope *s, const Call *cn, int *room)
{
	const Module *m = g->m;
	int nin = ll_ewin(cn);
	Call ca;
	Ew e;
	MapFn *f;
	int k;

	for (uint32_t i = 0; i < m->nodes[cn->n].nargs; i++) {
		NodeId a = ir_arg(m, cn->n, i);
		if ((int)i < nin && ll_single(g, s, a) && ll_nohalf(cn) && ll_callargs(g, NULL, a, &ca, 0) &&
		    ir_type(m, ca.ot)->kind == TY_TENSOR && ll_nohalf(&ca) && ll_ewop(&ca, &e, &f, &k) && k - 1 <= *room &&
		    ca.orank == cn->orank && !memcmp(ca.od, cn->od, (size_t)cn->orank * sizeof *cn->od)) {
			*room -= k - 1;
			s->done[a] = FUSED;
			ewmark(g, s, &ca, room);
		} else {
			ll_lower(g, s, a);
		}
	}
}

/* opfn: lowers the op call n into a function of its own, internal and
** never inlined, "void op.N.name(void **in, i32 *err)", called where n
** runs; its operands are lowered first where they are, but those the
** dot path or the float path may fuse (lowered inside, maybe into
** functions of their own).  The optimizer and the code generator, superlinear in a
** function's size, then work on one op at a time.  Aliasing ops (no
** code) are lowered in place. */
static Val
opfn(G *g, Scope *s, NodeId n)
{
	const Module *m = g->m;
	const Node *nd = &m->nodes[n];
	LLVMTypeRef pt[2] = { LLVMPointerType(g->p8, 0), LLVMPointerType(g->i32, 0) }, ft;
	LLVMValueRef f, args[2] = { g->in, g->err };
	Here h;
	char name[96];
	Val v;
	int fused;

	if (nd->op < OP_COUNT && (ir_ops[nd->op].flags & OPF_VIEW))
		return call(g, s, n);
	switch (nd->op) {
	case OP_CLIP:
		if (ll_clip_whole(m, n))
			return call(g, s, n);
		break;
	default:
		break;
	}
	fused = nd->op == OP_NN_BIAS_ADD || nd->op == OP_ADD || nd->op == OP_NN_RELU || nd->op == OP_CLIP ? ll_fconv_fused(g, s, n) : -1;
	if (fused >= 0) {
		for (uint32_t i = 0; i < nd->nargs; i++)
			if ((int)i != fused)
				ll_lower(g, s, ir_arg(m, n, i));
	} else if (!(g->dot && (fusable(m, n) || (nd->op == OP_QNN_CONV2D && fusable(m, ir_arg(m, n, 0)))))) {
		Call c;
		int room;
		ll_callargs(g, NULL, n, &c, 0);
		room = MAXLEAF - ll_ewreads(&c);
		ewmark(g, s, &c, &room);
	} else {
		for (uint32_t i = 1; i < nd->nargs; i++)
			ll_lower(g, s, ir_arg(m, n, i));
	}
	snprintf(name, sizeof name, "op.%u.%s", g->nfn++, ir_ops[nd->op].name);
	ft = LLVMFunctionType(LLVMVoidTypeInContext(g->cx), pt, 2, 0);
	f = ll_newfn(g, name, ft, 1);
	LLVMSetFunctionCallConv(f, LLVMFastCallConv);
	ll_fnenter(g, f, &h);
	v = call(g, s, n);
	ll_fnleave(g, &h);
	ll_relocal(g, f);
	LLVMSetInstructionCallConv(LLVMBuildCall2(g->b, ft, f, args, 2, ""), LLVMFastCallConv);
	return v;
}

/* ll_paramof: the index of n among the parameters of s's function that its
** call binds, or -1 (n is no such parameter, or s is not an inlined call) */
int64_t
ll_paramof(const Module *m, const Scope *s, NodeId n)
{
	if (!s->up)
		return -1;
	for (uint32_t i = 0; i < ir_func_nparams(m, s->fn); i++)
		if (ir_arg(m, s->fn, i) == n)
			return i + 1 < m->nodes[s->call].nargs ? (int64_t)i : -1;
	return -1;
}

/* ll_lower: the value of node n in scope s, lowering it (and its operands)
** on first use */
Val
ll_lower(G *g, Scope *s, NodeId n)
{
	const Module *m = g->m;
	const Node *nd = &m->nodes[n];
	Val v = { 0 };

	if (s->done[n])
		return s->v[n];
	switch (nd->kind) {
	case NK_CONST: {
		const Const *k = &m->consts[nd->aux];
		if (!k->data) {
			ir_error(g->d, m->locs[n], "the llvm backend needs the data of this constant (--params)");
			g->errors++;
			v = ll_tensorbuf(g, k->type);
		} else {
			if (!g->cglob[nd->aux])
				g->cglob[nd->aux] = ll_constbuf(g, k->data, k->nbytes);
			v.p = g->cglob[nd->aux];
		}
		v.cnode = n;
		break;
	}
	case NK_CALL:
		v = opfn(g, s, n);
		break;
	case NK_VAR: {
		int64_t i = ll_paramof(g->m, s, n);
		if (i < 0) {
			ir_error(g->d, m->locs[n], "the llvm backend cannot run this expression");
			g->errors++;
		} else {
			v = ll_lower(g, s->up, ir_arg(m, s->call, (uint32_t)i + 1));
		}
		break;
	}
	case NK_TUPLE:
		v.nf = nd->nargs;
		v.f = ir_arena_alloc(&g->a, (nd->nargs + 1) * sizeof *v.f);
		for (uint32_t i = 0; i < nd->nargs; i++)
			v.f[i] = ll_lower(g, s, ir_arg(m, n, i));
		break;
	case NK_GETITEM: {
		Val t = ll_lower(g, s, ir_arg(m, n, 0));
		if (nd->aux < t.nf)
			v = t.f[nd->aux];
		else
			v = ll_tensorbuf(g, nd->type);
		break;
	}
	case NK_CALLFN: {
		NodeId f = ll_callee(m, n);
		Scope in;
		if (f && g->ext && m->nodes[ir_arg(m, n, 0)].kind == NK_GLOBAL && be_codegen_of(m, f) &&
		    be_codegen_of(m, f)->run) {
			v = callout(g, s, n, f);
			break;
		}
		if (!f) {
			ir_error(g->d, m->locs[n], "the llvm backend cannot run this call: its callee is not a known function");
			g->errors++;
			break;
		}
		/* the parameters are bound lazily (lower's NK_VAR): an argument
		   is lowered where the callee first needs it, unless the dot path
		   fuses its producer into its consumer (vconv_emit) */
		ll_scope_init(&in, m);
		in.up = s;
		in.call = n;
		in.fn = f;
		v = ll_lower(g, &in, ir_func_body(m, f));
		ll_scope_free(&in);
		break;
	}
	default:
		ir_error(g->d, m->locs[n], "the llvm backend cannot run this expression");
		g->errors++;
		break;
	}
	s->v[n] = v;
	s->done[n] = 1;
	return v;
}

/* flat: appends the tensors of v (depth first) to out */
static void
flat(Val v, Val *out, uint32_t *n, uint32_t max)
{
	if (v.p) {
		if (*n < max)
			out[*n] = v;
		(*n)++;
		return;
	}
	for (uint32_t i = 0; i < v.nf; i++)
		flat(v.f[i], out, n, max);
}

/* flattypes: appends the tensor types of t (depth first) to out */
static void
flattypes(const Module *m, TypeId t, TypeId *out, uint32_t *n, uint32_t max)
{
	const Type *ty = ir_type(m, t);

	if (ty->kind == TY_TUPLE) {
		for (uint32_t i = 0; i < ty->n; i++)
			flattypes(m, m->tylist[ty->first + i], out, n, max);
		return;
	}
	if (*n < max)
		out[*n] = t;
	(*n)++;
}

/* ll_entry: int32_t name(const void *const *in, void *const *out) running fn */
void
ll_entry(G *g, NodeId fn, const char *name)
{
	const Module *m = g->m;
	LLVMTypeRef pp = LLVMPointerType(g->p8, 0), pt[2] = { pp, pp };
	LLVMValueRef in, out;
	Scope s;
	uint32_t np = ir_func_nparams(m, fn), nout = 0, ntys = 0;
	Val *res;
	TypeId *tys;
	NodeId body = ir_func_body(m, fn);

	g->fn = LLVMAddFunction(g->mod, name, LLVMFunctionType(g->i32, pt, 2, 0));
	LLVMAddAttributeAtIndex(g->fn, (unsigned)-1, LLVMCreateEnumAttribute(g->cx, LLVMGetEnumAttributeKindForName("nounwind", 8), 0));
	LLVMPositionBuilderAtEnd(g->b, LLVMAppendBasicBlockInContext(g->cx, g->fn, "entry"));
	g->err = LLVMBuildAlloca(g->b, g->i32, "err");
	LLVMBuildStore(g->b, ll_c32(g, 0), g->err);
	in = g->in = LLVMGetParam(g->fn, 0);
	out = LLVMGetParam(g->fn, 1);
	ll_scope_init(&s, m);
	g->npin = np;
	g->pin = ir_xcalloc(np + 1, sizeof *g->pin);
	for (uint32_t i = 0; i < np; i++) {
		NodeId p = ir_arg(m, fn, i);
		LLVMValueRef ix = ll_c64(g, i);
		if (ir_type(m, m->nodes[p].type)->kind != TY_TENSOR) {
			ir_error(g->d, m->locs[p], "the llvm backend takes only tensor parameters");
			g->errors++;
			continue;
		}
		s.v[p].p = g->pin[i] = LLVMBuildLoad2(g->b, g->p8, LLVMBuildInBoundsGEP2(g->b, g->p8, in, &ix, 1, ""), "");
		s.done[p] = 1;
	}
	ll_lower(g, &s, body);
	flattypes(m, m->nodes[body].type, NULL, &ntys, 0);
	tys = ir_xcalloc(ntys + 1, sizeof *tys);
	res = ir_xcalloc(ntys + 1, sizeof *res);
	ntys = 0;
	flattypes(m, m->nodes[body].type, tys, &ntys, UINT32_MAX);
	flat(s.v[body], res, &nout, ntys);
	for (uint32_t j = 0; j < nout && j < ntys && !g->errors; j++) {
		LLVMValueRef ix = ll_c64(g, j), dst;
		dst = LLVMBuildLoad2(g->b, g->p8, LLVMBuildInBoundsGEP2(g->b, g->p8, out, &ix, 1, ""), "");
		if (ir_type(m, tys[j])->kind == TY_TENSOR && ll_tbytes(m, tys[j]))
			LLVMBuildMemCpy(g->b, dst, 1, res[j].p, 1, ll_c64(g, (int64_t)ll_tbytes(m, tys[j])));
	}
	LLVMBuildRet(g->b, LLVMBuildLoad2(g->b, g->i32, g->err, ""));
	for (uint32_t i = 0; i < np; i++)   /* the loads the op functions do themselves */
		if (g->pin[i] && !LLVMGetFirstUse(g->pin[i])) {
			LLVMValueRef a = LLVMGetOperand(g->pin[i], 0);
			LLVMInstructionEraseFromParent(g->pin[i]);
			LLVMInstructionEraseFromParent(a);
		}
	free(tys);
	free(res);
	free(g->pin);
	g->pin = NULL;
	g->npin = 0;
	ll_scope_free(&s);
}
