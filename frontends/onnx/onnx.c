/*
** onnx.c: reading ONNX models and tensors.
**
** The file is decoded by protoc-c's code for frontends/onnx/onnx.proto,
** which rejects anything that is not well-formed protobuf of that schema
** (truncated, a field of the wrong wire type, bad UTF-8 in a string).
** The importer then checks what protobuf cannot: the opset of the
** default domain (6 to 21), that every op is known (one error lists every
** unknown op with its nodes), that value names are produced once and
** before use (nodes are taken in dependency order, so a cycle or a
** dangling input is an error naming the node), that graph inputs are
** tensors of static shape and supported dtype, and that tensor data has
** exactly the size its dims and dtype say.  Then each node is converted
** (ops.c) and @main is built from the graph's inputs and outputs.
**
** Messages have no line: "MODEL.onnx: error: node 'NAME' (Op): ...".
*/
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "onnxi.h"
#include "ref.h"

enum {
	OPSET_MIN = 6,
	OPSET_MAX = 21,
	FILE_MAX = INT_MAX,     /* protobuf's 2 GB limit */
	MAXRANK = IR_MAXDIMS,
};

/* ---------------------------------------------------------------- dtypes */

/* ONNX element types 0..16: graft's DType (DT_VOID: none) and name */
static const struct { DType dt; const char *name; } dtypes[] = {
	{ DT_VOID, "UNDEFINED" }, { DT_FLOAT32, "FLOAT" }, { DT_UINT8, "UINT8" },
	{ DT_INT8, "INT8" }, { DT_UINT16, "UINT16" }, { DT_INT16, "INT16" },
	{ DT_INT32, "INT32" }, { DT_INT64, "INT64" }, { DT_VOID, "STRING" },
	{ DT_BOOL, "BOOL" }, { DT_FLOAT16, "FLOAT16" }, { DT_FLOAT64, "DOUBLE" },
	{ DT_UINT32, "UINT32" }, { DT_VOID, "UINT64" }, { DT_VOID, "COMPLEX64" },
	{ DT_VOID, "COMPLEX128" }, { DT_VOID, "BFLOAT16" },
};
enum { NDTYPES = sizeof dtypes / sizeof dtypes[0] };

/* onnx_dtype: see onnxi.h */
DType
onnx_dtype(int64_t et)
{
	return et >= 0 && et < NDTYPES ? dtypes[et].dt : DT_VOID;
}

/* onnx_dtype_name: see onnxi.h */
const char *
onnx_dtype_name(int64_t et)
{
	return et >= 0 && et < NDTYPES ? dtypes[et].name : "an unknown type";
}

/* ---------------------------------------------------------------- files */

/* slurp: the whole of path (malloc'ed) into *buf, *len; 0, or -1 with the
** reason in msg */
static int
slurp(const char *path, unsigned char **buf, size_t *len, char *msg, size_t msgsz)
{
	const char *what;
	int rc = ir_read_file(path, (size_t)FILE_MAX, (char **)buf, len, &what);

	if (rc == -2)
		snprintf(msg, msgsz, "larger than protobuf's 2 GB limit");
	else if (rc)
		snprintf(msg, msgsz, "cannot %s: %s", what, strerror(errno));
	return rc ? -1 : 0;
}

/* ---------------------------------------------------------------- tensors */

/* external: the bytes of tp's external data (location, offset, length
** relative to dir) into *out (malloc'ed, want bytes); 0 or -1 with msg */
static int
external(const OTensor *tp, const char *dir, size_t want, unsigned char **out, char *msg, size_t msgsz)
{
	const char *loc = NULL;
	uint64_t off = 0, len = UINT64_MAX;
	char *path;
	FILE *f;
	size_t got;

	for (size_t i = 0; i < tp->n_external_data; i++) {
		const GraftOnnx__StringStringEntryProto *e = tp->external_data[i];
		const char *k = e->key ? e->key : "", *v = e->value ? e->value : "";
		char *end;
		if (strcmp(k, "location") == 0) {
			loc = v;
		} else if (strcmp(k, "offset") == 0 || strcmp(k, "length") == 0) {
			unsigned long long x;
			errno = 0;
			x = strtoull(v, &end, 10);
			if (!*v || *end || errno || v[0] == '-') {
				snprintf(msg, msgsz, "external data %s '%.64s' is not a byte count", k, v);
				return -1;
			}
			*(k[0] == 'o' ? &off : &len) = x;
		}
	}
	if (!loc || !*loc) {
		snprintf(msg, msgsz, "external data without a location");
		return -1;
	}
	if (loc[0] == '/' || strstr(loc, "..")) {
		snprintf(msg, msgsz, "external data location '%.200s' leaves the model's directory", loc);
		return -1;
	}
	if (len != UINT64_MAX && len != want) {
		snprintf(msg, msgsz, "external data length %llu, but the dims and type make %zu bytes",
		         (unsigned long long)len, want);
		return -1;
	}
	path = ir_xmalloc(strlen(dir) + strlen(loc) + 2);
	sprintf(path, "%s%s%s", dir, *dir ? "/" : "", loc);
	f = fopen(path, "rb");
	if (!f) {
		snprintf(msg, msgsz, "cannot open external data '%.200s': %s", path, strerror(errno));
		free(path);
		return -1;
	}
	*out = ir_xmalloc(want ? want : 1);
	if (off > (uint64_t)LONG_MAX || fseek(f, (long)off, SEEK_SET) != 0)
		got = 0;
	else
		got = fread(*out, 1, want, f);
	fclose(f);
	if (got != want) {
		snprintf(msg, msgsz, "external data '%.200s' holds fewer than %zu bytes at offset %llu", path, want,
		         (unsigned long long)off);
		free(path);
		free(*out);
		*out = NULL;
		return -1;
	}
	free(path);
	return 0;
}

/* onnx_tensor_data: see onnxi.h */
int
onnx_tensor_data(const OTensor *tp, const char *dir, Tensor *t, char *msg, size_t msgsz)
{
	DType dt;
	uint64_t numel = 1;
	size_t nb, esz, have;
	unsigned char *p;

	memset(t, 0, sizeof *t);
	if (!tp->has_data_type || tp->data_type == 0) {
		snprintf(msg, msgsz, "tensor has no data type");
		return -1;
	}
	if ((dt = onnx_dtype(tp->data_type)) == DT_VOID) {
		snprintf(msg, msgsz, "tensors of type %s (%d) are not supported", onnx_dtype_name(tp->data_type),
		         (int)tp->data_type);
		return -1;
	}
	if (tp->n_dims > MAXRANK) {
		snprintf(msg, msgsz, "tensor of rank %zu; graft handles up to %d", tp->n_dims, MAXRANK);
		return -1;
	}
	if (tp->segment) {
		snprintf(msg, msgsz, "segmented tensors are not supported");
		return -1;
	}
	t->dt = dt;
	t->rank = (uint32_t)tp->n_dims;
	for (size_t i = 0; i < tp->n_dims; i++) {
		if (tp->dims[i] < 0) {
			snprintf(msg, msgsz, "tensor dim %zu is negative (%lld)", i, (long long)tp->dims[i]);
			return -1;
		}
		t->dims[i] = tp->dims[i];
	}
	for (size_t i = 0; i < tp->n_dims; i++)
		if (tp->dims[i] == 0)
			numel = 0;
	for (size_t i = 0; i < tp->n_dims && numel; i++) {
		if ((uint64_t)tp->dims[i] > ((uint64_t)1 << 40) / numel) {
			snprintf(msg, msgsz, "tensor of more than 2^40 elements");
			return -1;
		}
		numel *= (uint64_t)tp->dims[i];
	}
	esz = ir_dtype_bytes[dt];
	nb = (size_t)numel * esz;
	if (tp->has_data_location && tp->data_location == 1) {
		if (external(tp, dir, nb, &t->data, msg, msgsz) != 0)
			return -1;
		return 0;
	}
	if (tp->has_data_location && tp->data_location != 0) {
		snprintf(msg, msgsz, "unknown data_location %d", (int)tp->data_location);
		return -1;
	}
	if (tp->has_raw_data) {
		if (tp->raw_data.len != nb) {
			snprintf(msg, msgsz, "tensor raw_data holds %zu bytes, but its dims and type %s make %zu",
			         tp->raw_data.len, onnx_dtype_name(tp->data_type), nb);
			return -1;
		}
		t->data = ir_xmalloc(nb ? nb : 1);
		if (nb)
			memcpy(t->data, tp->raw_data.data, nb);
		return 0;
	}
	/* the typed fields: which one holds the elements, and how many */
	switch (dt) {
	case DT_FLOAT32: have = tp->n_float_data; break;
	case DT_INT64: have = tp->n_int64_data; break;
	case DT_FLOAT64: have = tp->n_double_data; break;
	case DT_UINT32: have = tp->n_uint64_data; break;
	default: have = tp->n_int32_data; break;
	}
	if (have != numel) {
		snprintf(msg, msgsz, "tensor holds %zu %s elements, but its dims make %llu", have,
		         onnx_dtype_name(tp->data_type), (unsigned long long)numel);
		return -1;
	}
	p = t->data = ir_xmalloc(nb ? nb : 1);
	for (size_t i = 0; i < numel; i++) {
		int64_t v = 0, lo = 0, hi = 0;
		switch (dt) {
		case DT_FLOAT32: memcpy(p + 4 * i, &tp->float_data[i], 4); continue;
		case DT_INT64: memcpy(p + 8 * i, &tp->int64_data[i], 8); continue;
		case DT_FLOAT64: memcpy(p + 8 * i, &tp->double_data[i], 8); continue;
		case DT_UINT32:
			if (tp->uint64_data[i] > UINT32_MAX)
				goto range;
			{ uint32_t u = (uint32_t)tp->uint64_data[i]; memcpy(p + 4 * i, &u, 4); }
			continue;
		case DT_INT32: memcpy(p + 4 * i, &tp->int32_data[i], 4); continue;
		case DT_BOOL: lo = 0; hi = 1; break;
		case DT_INT8: lo = INT8_MIN; hi = INT8_MAX; break;
		case DT_UINT8: lo = 0; hi = UINT8_MAX; break;
		case DT_INT16: lo = INT16_MIN; hi = INT16_MAX; break;
		case DT_UINT16: case DT_FLOAT16: lo = 0; hi = UINT16_MAX; break;
		default: break;
		}
		v = tp->int32_data[i];
		if (dt == DT_FLOAT16 && v < 0 && v >= INT16_MIN)
			v &= 0xffff;        /* bits stored sign-extended */
		if (v < lo || v > hi)
			goto range;
		if (esz == 1)
			p[i] = (unsigned char)v;
		else {
			uint16_t h = (uint16_t)v;
			memcpy(p + 2 * i, &h, 2);
		}
		continue;
range:
		snprintf(msg, msgsz, "tensor element %zu is out of range for %s", i, onnx_dtype_name(tp->data_type));
		ir_tensor_free(t);
		return -1;
	}
	return 0;
}

/* onnx_read_tensor: see onnx.h */
int
onnx_read_tensor(const char *path, Tensor *t, char *err, size_t errsz)
{
	unsigned char *buf;
	size_t len;
	char msg[400];
	OTensor *tp;
	char *dir, *slash;
	int r;

	memset(t, 0, sizeof *t);
	if (slurp(path, &buf, &len, msg, sizeof msg) != 0) {
		snprintf(err, errsz, "%s: error: %s", path, msg);
		return -1;
	}
	tp = graft_onnx__tensor_proto__unpack(NULL, len, buf);
	free(buf);
	if (!tp) {
		snprintf(err, errsz, "%s: error: not a serialized ONNX TensorProto (truncated or malformed protobuf)", path);
		return -1;
	}
	dir = ir_xmalloc(strlen(path) + 1);
	strcpy(dir, path);
	if ((slash = strrchr(dir, '/')))
		*slash = 0;
	else
		dir[0] = 0;
	r = onnx_tensor_data(tp, dir, t, msg, sizeof msg);
	free(dir);
	graft_onnx__tensor_proto__free_unpacked(tp, NULL);
	if (r != 0) {
		snprintf(err, errsz, "%s: error: %s", path, msg);
		return -1;
	}
	return 0;
}

/* onnx_is_model: see onnx.h */
int
onnx_is_model(const char *path)
{
	size_t n = strlen(path);
	return n > 5 && strcmp(path + n - 5, ".onnx") == 0;
}

/* ---------------------------------------------------------------- diagnostics */

/* onnx_err: see onnxi.h */
int
onnx_err(Imp *im, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (im->nd) {
		/* the message names the node: no line of the node list quoted */
		Loc at = im->loc;
		at.line = at.col = 0;
		ir_error(im->d, at, "node '%s' (%s): %s", im->nd->name ? im->nd->name : "",
		         im->nd->op_type ? im->nd->op_type : "", msg);
	} else {
		ir_error(im->d, im->loc, "%s", msg);
	}
	return -1;
}

/* Shape computations (Shape, Gather, Unsqueeze, Concat into Reshape;
** ConstantOfShape's shape; Range's bounds) fold as they are built, so
** that the converters that need a constant get one: a call whose
** operands are all constants (or tuples of them) folds when its result
** is a small tensor of integers or booleans and it is not a quantized
** op, whose constant operands the rulesets match. */
enum { FOLD_MAX = 4096 };       /* elements of a result folded */

/* isdata: whether a is a constant with data or a tuple of them */
static int
isdata(Module *m, NodeId a)
{
	const Node *nd = &m->nodes[a];
	if (nd->kind == NK_CONST)
		return ir_node_const(m, a)->data != NULL;
	if (nd->kind == NK_TUPLE) {
		for (uint32_t i = 0; i < nd->nargs; i++)
			if (!isdata(m, ir_arg(m, a, i)))
				return 0;
		return 1;
	}
	return 0;
}

/* foldable: whether call n is one to fold now */
static int
foldable(const Imp *im, NodeId n)
{
	Module *m = im->m;
	const Node *nd = &m->nodes[n];
	const Type *t = &m->types[nd->type];
	DType dt;
	int64_t numel;

	if (t->kind != TY_TENSOR || (ir_ops[nd->op].flags & OPF_QNN))
		return 0;
	dt = (DType)t->dtype;
	numel = ir_type_numel(m, nd->type);
	if ((dt != DT_INT64 && dt != DT_INT32 && dt != DT_BOOL) || numel < 0 || numel > FOLD_MAX)
		return 0;
	for (uint32_t i = 0; i < nd->nargs; i++)
		if (!isdata(m, ir_arg(m, n, i)))
			return 0;
	return 1;
}

/* onnx_needconst: see onnxi.h */
void
onnx_needconst(Imp *im, NodeId n)
{
	uint32_t cap = 64, top = 0;
	NodeId *stack;
	uint8_t *seen;

	if (!im->o || !im->need || !n)
		return;
	stack = ir_xmalloc(cap * sizeof *stack);
	seen = ir_xcalloc(im->m->nnodes + 1, 1);
	stack[top++] = n;
	seen[n] = 1;
	while (top) {
		NodeId v = stack[--top];
		const Node *nd = &im->m->nodes[v];
		if (nd->kind == NK_VAR) {
			for (int b = 0; b < im->o->nbind; b++)
				if (im->bindvar && im->bindvar[b] == v)
					im->need[b] = 1;
			continue;
		}
		if (nd->kind != NK_CALL && nd->kind != NK_TUPLE && nd->kind != NK_GETITEM)
			continue;
		for (uint32_t i = 0; i < nd->nargs; i++) {
			NodeId a = ir_arg(im->m, v, i);
			if (!a || seen[a])
				continue;
			seen[a] = 1;
			if (top == cap)
				stack = ir_xrealloc(stack, (cap *= 2) * sizeof *stack);
			stack[top++] = a;
		}
	}
	free(stack);
	free(seen);
}

/* onnx_mk: see onnxi.h */
NodeId
onnx_mk(Imp *im, OpId op, const NodeId *args, uint32_t nargs, AttrId at)
{
	NodeId n;
	Diag quiet = *im->d;
	TypeId t;

	if (!at && ir_ops[op].nattrs)
		at = ir_attr_defaults(im->m, op);
	n = ir_call(im->m, op, args, nargs, at, im->loc);

	quiet.out = NULL;
	t = ir_infer_node(im->m, n, &quiet);
	if (!t) {
		onnx_err(im, "%s: %s", ir_ops[op].name, quiet.relmsg[0] ? quiet.relmsg : "type error");
		return 0;
	}
	im->m->nodes[n].type = t;
	return foldable(im, n) ? ref_fold(im->m, n) ?: n : n;
}

/* ---------------------------------------------------------------- values */

/* valslot: the entry of value name in im->valof */
static NodeId *
valslot(Imp *im, const char *name)
{
	Sym s = ir_symz(im->m, name);
	if (s >= im->capvalof) {
		uint32_t old = im->capvalof;
		ir_vgrow(&im->valof, &im->capvalof, s + 1);
		memset(im->valof + old, 0, (im->capvalof - old) * sizeof *im->valof);
	}
	return &im->valof[s];
}

void
onnx_relay_name(const char *name, char *b, size_t size)
{
	size_t n = strlen(name), j = 0;

	if (size < 2) {
		if (size)
			b[0] = 0;
		return;
	}
	if (!n || !((name[0] >= 'a' && name[0] <= 'z') || (name[0] >= 'A' && name[0] <= 'Z') || name[0] == '_'))
		b[j++] = '_';
	for (size_t i = 0; i < n && j + 1 < size; i++) {
		char c = name[i];
		int alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
		if (c == '.' && i + 1 < n && ((name[i + 1] >= 'a' && name[i + 1] <= 'z') ||
		    (name[i + 1] >= 'A' && name[i + 1] <= 'Z') || name[i + 1] == '_'))
			alnum = 1;
		b[j++] = alnum ? c : '_';
	}
	b[j] = 0;
}

/* paramname: name made a Relay local name (onnx_relay_name), unique among
** the k names in used */
static Sym
paramname(Imp *im, const char *name, const Sym *used, uint32_t k)
{
	size_t n = strlen(name);
	char *b = ir_xmalloc(n + 24);
	size_t j;
	Sym s;

	onnx_relay_name(name, b, n + 2);
	j = strlen(b);
	for (int v = 2;; v++) {
		uint32_t i;
		s = ir_symz(im->m, b);
		for (i = 0; i < k && used[i] != s; i++)
			;
		if (i == k)
			break;
		sprintf(b + j, "_%d", v);
	}
	free(b);
	return s;
}

/* ---------------------------------------------------------------- import */

/* opset: im->opset from the model's imports; 0 or -1 after reporting */
static int
opset(Imp *im, const GraftOnnx__ModelProto *mp)
{
	int found = 0;

	for (size_t i = 0; i < mp->n_opset_import; i++) {
		const GraftOnnx__OperatorSetIdProto *o = mp->opset_import[i];
		const char *dom = o->domain ? o->domain : "";
		if (*dom && strcmp(dom, "ai.onnx") != 0)
			continue;
		if (!o->has_version || o->version < OPSET_MIN || o->version > OPSET_MAX) {
			onnx_err(im, "opset %lld of the default domain is not supported (graft reads opsets %d to %d)",
			         (long long)o->version, OPSET_MIN, OPSET_MAX);
			return -1;
		}
		im->opset = (int)o->version;
		found = 1;
	}
	if (!found && mp->n_opset_import == 0 && mp->has_ir_version && mp->ir_version < 3) {
		onnx_err(im, "IR version %lld has no opset import; graft reads opsets %d to %d",
		         (long long)mp->ir_version, OPSET_MIN, OPSET_MAX);
		return -1;
	}
	if (!found)
		return onnx_err(im, "the model imports no opset of the default domain (graft reads opsets %d to %d)",
		                OPSET_MIN, OPSET_MAX);
	return 0;
}

/* unsupported: one error listing every op of the graph that has no
** converter, with its nodes; 0 if there is none, else -1 */
static int
unsupported(Imp *im, const GraftOnnx__GraphProto *g)
{
	enum { NAMED = 3 };     /* nodes named per op */
	size_t *first = ir_xcalloc(g->n_node + 1, sizeof *first), nops = 0;
	char *buf = NULL;
	size_t len = 0, cap = 0;

	/* first[k]: index of the first node of the k-th unknown op */
	for (size_t i = 0; i < g->n_node; i++) {
		const ONode *nd = g->node[i];
		const char *dom = nd->domain ? nd->domain : "", *op = nd->op_type ? nd->op_type : "";
		size_t k;
		if (onnx_op_lookup(dom, op))
			continue;
		for (k = 0; k < nops; k++) {
			const ONode *o = g->node[first[k]];
			if (strcmp(o->op_type ? o->op_type : "", op) == 0 && strcmp(o->domain ? o->domain : "", dom) == 0)
				break;
		}
		if (k == nops)
			first[nops++] = i;
	}
	for (size_t k = 0; k < nops; k++) {
		const ONode *o = g->node[first[k]];
		const char *dom = o->domain ? o->domain : "", *op = o->op_type ? o->op_type : "";
		size_t nn = 0;
		for (size_t i = first[k]; i < g->n_node; i++) {
			const ONode *nd = g->node[i];
			if (strcmp(nd->op_type ? nd->op_type : "", op) == 0 && strcmp(nd->domain ? nd->domain : "", dom) == 0)
				nn++;
		}
		for (size_t i = first[k], j = 0; i < g->n_node; i++) {
			const ONode *nd = g->node[i];
			size_t need;
			if (strcmp(nd->op_type ? nd->op_type : "", op) != 0 || strcmp(nd->domain ? nd->domain : "", dom) != 0)
				continue;
			need = len + strlen(op) + strlen(dom) + strlen(nd->name ? nd->name : "") + 32;
			if (need > cap) {
				cap = need * 2;
				buf = ir_xrealloc(buf, cap);
			}
			if (j == 0)
				len += (size_t)sprintf(buf + len, "%s'%s%s%s' (node%s ", k ? ", " : "", dom, *dom ? "." : "", op,
				                       nn > 1 ? "s" : "");
			/* a few names, then a count: a model of hundreds of one
			   op gets one line, not hundreds of names */
			if (j < NAMED)
				len += (size_t)sprintf(buf + len, "%s'%s'", j ? ", " : "", nd->name ? nd->name : "");
			else if (j == NAMED)
				len += (size_t)sprintf(buf + len, " and %zu more", nn - NAMED);
			if (++j == nn) {
				len += (size_t)sprintf(buf + len, ")");
				break;
			}
		}
	}
	if (nops)
		onnx_err(im, "%zu unsupported op%s: %s", nops, nops > 1 ? "s" : "", buf);
	free(buf);
	free(first);
	return nops ? -1 : 0;
}

/* inputtype: the type of graph input vi (a tensor of static shape and a
** supported dtype); 0 after reporting */
static TypeId
inputtype(Imp *im, const GraftOnnx__ValueInfoProto *vi)
{
	const char *name = vi->name;
	const GraftOnnx__TypeProto__Tensor *tt = vi->type ? vi->type->tensor_type : NULL;
	int64_t dims[MAXRANK];
	DType dt;

	if (!tt) {
		onnx_err(im, "graph input '%s' is not a tensor (a sequence, map or optional value), which graft does not "
		         "support", name);
		return 0;
	}
	if ((dt = onnx_dtype(tt->elem_type)) == DT_VOID) {
		onnx_err(im, "graph input '%s' has element type %s (%d), which graft does not support", name,
		         onnx_dtype_name(tt->elem_type), (int)tt->elem_type);
		return 0;
	}
	if (!tt->shape) {
		onnx_err(im, "graph input '%s' has no shape; graft needs static shapes", name);
		return 0;
	}
	if (tt->shape->n_dim > MAXRANK) {
		onnx_err(im, "graph input '%s' has rank %zu; graft handles up to %d", name, tt->shape->n_dim, MAXRANK);
		return 0;
	}
	for (size_t i = 0; i < tt->shape->n_dim; i++) {
		const GraftOnnx__TensorShapeProto__Dimension *dm = tt->shape->dim[i];
		if (dm->value_case == GRAFT_ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM) {
			onnx_err(im, "graph input '%s': dim %zu is symbolic ('%s'); graft needs static shapes "
			         "(export the model with fixed input sizes)", name, i, dm->dim_param);
			return 0;
		}
		if (dm->value_case != GRAFT_ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE || dm->dim_value < 0) {
			onnx_err(im, "graph input '%s': dim %zu is unknown; graft needs static shapes", name, i);
			return 0;
		}
		dims[i] = dm->dim_value;
	}
	return ir_type_tensor(im->m, dt, (int)tt->shape->n_dim, dims);
}

/* order: the nodes of g in an order where each comes after the producers
** of its inputs, into ord[0..n_node); checks that each value is produced
** once (by an input, an initializer or a node) and that every input is
** produced; 0, or -1 after reporting every problem */
static int
order(Imp *im, const GraftOnnx__GraphProto *g, size_t *ord)
{
	/* producer of a value: valslot holds 1 + node index, or UINT32_MAX for
	   graph inputs and initializers, during this function */
	size_t n = g->n_node, *waits = ir_xcalloc(n + 1, sizeof *waits), nord = 0;
	int errs = 0;

	for (size_t i = 0; i < g->n_initializer; i++)
		*valslot(im, g->initializer[i]->name ? g->initializer[i]->name : "") = UINT32_MAX;
	for (size_t i = 0; i < g->n_input; i++)
		*valslot(im, g->input[i]->name ? g->input[i]->name : "") = UINT32_MAX;
	for (size_t i = 0; i < n; i++) {
		const ONode *nd = g->node[i];
		for (size_t k = 0; k < nd->n_output; k++) {
			NodeId *v;
			if (!*nd->output[k])
				continue;
			v = valslot(im, nd->output[k]);
			if (*v) {
				im->nd = nd;
				onnx_err(im, "output '%s' is already produced by %s", nd->output[k],
				         *v == UINT32_MAX ? "a graph input or initializer" : "another node");
				im->nd = NULL;
				errs++;
				continue;
			}
			*v = (NodeId)(i + 1);
		}
	}
	for (size_t i = 0; i < n; i++) {
		const ONode *nd = g->node[i];
		for (size_t k = 0; k < nd->n_input; k++)
			if (*nd->input[k] && !*valslot(im, nd->input[k])) {
				im->nd = nd;
				onnx_err(im, "input '%s' is produced by no node, initializer or graph input", nd->input[k]);
				im->nd = NULL;
				errs++;
			}
	}
	if (errs)
		goto out;
	/* repeated sweeps: a node is ready when its producers are placed;
	   exporters write nodes in order, so one sweep is the usual case */
	{
		uint8_t *placed = ir_xcalloc(n + 1, 1);
		int progress = 1;
		while (nord < n && progress) {
			progress = 0;
			for (size_t i = 0; i < n; i++) {
				const ONode *nd = g->node[i];
				size_t k;
				if (placed[i])
					continue;
				for (k = 0; k < nd->n_input; k++) {
					NodeId p = *nd->input[k] ? *valslot(im, nd->input[k]) : UINT32_MAX;
					if (p != UINT32_MAX && !placed[p - 1])
						break;
				}
				if (k < nd->n_input)
					continue;
				placed[i] = 1;
				ord[nord++] = i;
				progress = 1;
			}
		}
		if (nord < n) {
			for (size_t i = 0; i < n; i++)
				if (!placed[i]) {
					im->nd = g->node[i];
					onnx_err(im, "is on a cycle: its inputs depend on its own outputs");
					im->nd = NULL;
					errs++;
					break;
				}
		}
		free(placed);
	}
out:
	free(waits);
	/* the map is for nodes from here on */
	if (im->valof)
		memset(im->valof, 0, im->capvalof * sizeof *im->valof);
	return errs ? -1 : 0;
}

/* convert: node nd's outputs from its converter; 0 or -1 */
static int
convert(Imp *im, const ONode *nd)
{
	const char *dom = nd->domain ? nd->domain : "";
	const OpEntry *e = onnx_op_lookup(dom, nd->op_type);
	NodeId in[ONNX_MAXIN], out[ONNX_MAXIN];
	int nin = (int)nd->n_input, nout = (int)nd->n_output;

	im->nd = nd;
	if (!e)         /* in a subgraph: the main graph's ops were checked at once */
		return onnx_err(im, "unsupported op '%s%s%s'", dom, *dom ? "." : "", nd->op_type ? nd->op_type : "");
	/* trailing empty names are absent inputs */
	while (nin > 0 && !*nd->input[nin - 1])
		nin--;
	if (nd->n_input > ONNX_MAXIN || nd->n_output > ONNX_MAXIN)
		return onnx_err(im, "more than %d inputs or outputs", ONNX_MAXIN);
	if (nin < e->minin || nin > e->maxin)
		return onnx_err(im, "takes %d to %d inputs, not %d", e->minin, e->maxin, nin);
	if (nout < e->minout || nout > e->maxout)
		return onnx_err(im, "has %d to %d outputs, not %d", e->minout, e->maxout, nout);
	for (int k = 0; k < nin; k++) {
		in[k] = *nd->input[k] ? *valslot(im, nd->input[k]) : 0;
		/* unbound: its producer failed, which was reported, or (in a
		   subgraph, whose nodes are not sorted) nothing before it makes it */
		if (*nd->input[k] && !in[k])
			return im->d->errors > im->errors0 ? -1
			       : onnx_err(im, "input %d ('%s') is produced by no node, initializer or graph input before it", k,
			                  nd->input[k]);
	}
	memset(out, 0, sizeof out);
	{
		NodeId first = im->m->nnodes;
		if (e->conv(im, in, nin, out, nout) != 0)
			return -1;
		if (im->nnodes) {
			/* what this node became: the calls and constants made for it */
			size_t k = (size_t)onnx_op_index(e);
			im->nnodes[k]++;
			for (NodeId n = first; n < im->m->nnodes; n++) {
				if (im->m->nodes[n].kind == NK_CALL)
					im->ncalls[k * ir_op_count() + im->m->nodes[n].op]++;
				else if (im->m->nodes[n].kind == NK_CONST)
					im->nconsts[k]++;
			}
		}
	}
	for (int k = 0; k < nout; k++)
		if (*nd->output[k]) {
			if (!out[k])
				return onnx_err(im, "output %d ('%s') is not supported", k, nd->output[k]);
			*valslot(im, nd->output[k]) = out[k];
		}
	return 0;
}

/* bindof: the index in im->o of the value given for graph input name
** (by its ONNX name or its parameter's), or -1 */
static int
bindof(const Imp *im, const char *name)
{
	char rn[512];
	if (!im->o)
		return -1;
	onnx_relay_name(name, rn, sizeof rn);
	for (int b = 0; b < im->o->nbind; b++)
		if (strcmp(im->o->bind[b].name, name) == 0 || strcmp(im->o->bind[b].name, rn) == 0)
			return b;
	return -1;
}

/* frozen: graph input name of type t made the constant holding x, into
** *v; 0, or -1 after reporting a value of another dtype or shape */
static int
frozen(Imp *im, const char *name, TypeId t, const Tensor *x, NodeId *v)
{
	const Type *ty = &im->m->types[t];
	const int64_t *d = ir_type_dims(im->m, t);
	if (x->dt != (DType)ty->dtype || x->rank != ty->n || (x->rank && memcmp(x->dims, d, x->rank * sizeof *d) != 0)) {
		char want[256];
		return onnx_err(im, "graph input '%s' is %s; the value given for it is %s", name,
		                ir_type_str(im->m, t, want, sizeof want),
		                ir_type_str(im->m, ir_type_tensor(im->m, x->dt, (int)x->rank, x->dims), want + 128, 128));
	}
	*v = ir_const(im->m, t, x->data, im->loc);
	im->m->nodes[*v].type = t;
	return 0;
}

/* onnx_subgraph: see onnxi.h */
int
onnx_subgraph(Imp *im, const GraftOnnx__GraphProto *g, const NodeId *ins, int nins, NodeId *outs, int nouts)
{
	const ONode *parent = im->nd;
	NodeId *saved;
	int errs = 0;

	if (++im->depth > ONNX_MAXDEPTH) {
		im->depth--;
		return onnx_err(im, "subgraphs nested more than %d deep", ONNX_MAXDEPTH);
	}
	if ((int)g->n_input != nins || (int)g->n_output != nouts) {
		im->depth--;
		return onnx_err(im, "the subgraph has %zu inputs and %zu outputs, not %d and %d", g->n_input, g->n_output,
		                nins, nouts);
	}
	/* its inputs and initializers bound by name (the outer scope's values
	   of those names restored after) */
	saved = ir_xcalloc(g->n_input + g->n_initializer + 1, sizeof *saved);
	for (size_t i = 0; i < g->n_input; i++) {
		NodeId *v = valslot(im, g->input[i]->name ? g->input[i]->name : "");
		saved[i] = *v;
		*v = ins[i];
	}
	for (size_t i = 0; i < g->n_initializer && !errs; i++) {
		const OTensor *tp = g->initializer[i];
		Tensor t;
		char msg[400];
		NodeId *v = valslot(im, tp->name ? tp->name : "");
		saved[g->n_input + i] = *v;
		if (onnx_tensor_data(tp, im->dir, &t, msg, sizeof msg) != 0) {
			errs += onnx_err(im, "initializer '%s': %s", tp->name ? tp->name : "", msg) != 0;
			continue;
		}
		*v = ir_const(im->m, ir_type_tensor(im->m, t.dt, (int)t.rank, t.dims), t.data, im->loc);
		im->m->nodes[*v].type = ir_node_const(im->m, *v)->type;
		ir_tensor_free(&t);
	}
	/* the nodes in the order they are listed (ONNX's topological order) */
	for (size_t i = 0; i < g->n_node && !errs; i++)
		if (convert(im, g->node[i]) != 0)
			errs++;
	im->nd = parent;
	for (int k = 0; k < nouts && !errs; k++) {
		const char *nm = g->output[k]->name ? g->output[k]->name : "";
		if (!(outs[k] = *valslot(im, nm)))
			errs += onnx_err(im, "the subgraph's output '%s' is produced by nothing", nm) != 0;
	}
	for (size_t i = 0; i < g->n_input; i++)
		*valslot(im, g->input[i]->name ? g->input[i]->name : "") = saved[i];
	for (size_t i = 0; i < g->n_initializer; i++)
		*valslot(im, g->initializer[i]->name ? g->initializer[i]->name : "") = saved[g->n_input + i];
	free(saved);
	im->depth--;
	return errs ? -1 : 0;
}

/* import: the graph of mp into @main of im->m; 0 or -1 */
static int
import(Imp *im, const GraftOnnx__ModelProto *mp)
{
	const GraftOnnx__GraphProto *g = mp->graph;
	NodeId *params = NULL, *outs = NULL, body, fn;
	Sym *pnames = NULL;
	uint32_t np = 0;
	size_t *ord = NULL;
	int errs = 0;

	if (!g)
		return onnx_err(im, "the model has no graph");
	if (opset(im, mp) != 0 || unsupported(im, g) != 0)
		return -1;
	if (g->n_sparse_initializer)
		return onnx_err(im, "sparse initializers are not supported");
	if (g->n_output == 0)
		return onnx_err(im, "the graph has no outputs");
	ord = ir_xcalloc(g->n_node + 1, sizeof *ord);
	for (size_t i = 0; i < g->n_input + g->n_initializer; i++) {
		const char *nm = i < g->n_input ? g->input[i]->name : g->initializer[i - g->n_input]->name;
		if (!nm || !*nm) {
			onnx_err(im, "a graph %s has no name", i < g->n_input ? "input" : "initializer");
			free(ord);
			return -1;
		}
	}
	if (order(im, g, ord) != 0) {
		free(ord);
		return -1;
	}
	/* initializers: constants with data; then the graph inputs that are
	   not initializers (IR < 4 lists initializers as inputs too) */
	for (size_t i = 0; i < g->n_initializer; i++) {
		const OTensor *tp = g->initializer[i];
		Tensor t;
		char msg[400];
		NodeId *v = valslot(im, tp->name);
		if (*v) {
			errs += onnx_err(im, "initializer '%s' is given twice", tp->name) != 0;
			continue;
		}
		if (onnx_tensor_data(tp, im->dir, &t, msg, sizeof msg) != 0) {
			errs += onnx_err(im, "initializer '%s': %s", tp->name, msg) != 0;
			continue;
		}
		*v = ir_const(im->m, ir_type_tensor(im->m, t.dt, (int)t.rank, t.dims), t.data, im->loc);
		im->m->nodes[*v].type = ir_node_const(im->m, *v)->type;
		ir_tensor_free(&t);
	}
	params = ir_xcalloc(g->n_input + 1, sizeof *params);
	pnames = ir_xcalloc(g->n_input + 1, sizeof *pnames);
	for (size_t i = 0; i < g->n_input; i++) {
		const GraftOnnx__ValueInfoProto *vi = g->input[i];
		NodeId *v = valslot(im, vi->name);
		TypeId t;
		int b;
		if (*v) {
			if (im->m->nodes[*v].kind == NK_CONST)
				continue;       /* an initializer listed as an input */
			errs += onnx_err(im, "graph input '%s' is listed twice", vi->name) != 0;
			continue;
		}
		if (!(t = inputtype(im, vi))) {
			errs++;
			continue;
		}
		if ((b = bindof(im, vi->name)) >= 0 && im->made)
			im->made[b] = 2;
		if (b >= 0 && im->freeze && im->freeze[b]) {
			if (frozen(im, vi->name, t, im->o->bind[b].t, v) != 0)
				errs++;
			else if (im->made)
				im->made[b] = 1;
			continue;
		}
		pnames[np] = paramname(im, vi->name, pnames, np);
		params[np] = ir_var(im->m, pnames[np], t, im->loc);
		im->m->nodes[params[np]].type = t;
		*valslot(im, vi->name) = params[np];
		if (b >= 0 && im->bindvar)
			im->bindvar[b] = params[np];
		np++;
	}

	if (errs)
		goto out;
	/* where a node comes from: line K of the model is its node K, "node
	   'NAME' (OP)", a text diagnostics quote (--why-not, type errors) */
	{
		size_t cap = 64, len = 0;
		char *text = ir_xmalloc(cap), *copy;
		for (size_t i = 0; i < g->n_node; i++) {
			const ONode *nd = g->node[i];
			size_t need = strlen(nd->name ? nd->name : "") + strlen(nd->op_type ? nd->op_type : "") + 16;
			if (len + need >= cap) {
				cap = 2 * (len + need);
				text = ir_xrealloc(text, cap);
			}
			len += (size_t)snprintf(text + len, cap - len, "node '%s' (%s)\n", nd->name ? nd->name : "",
			                        nd->op_type ? nd->op_type : "");
		}
		copy = ir_arena_raw(&im->m->data, len + 1);
		memcpy(copy, text, len);
		copy[len] = 0;
		free(text);
		ir_diag_source(im->d, im->loc.file, copy, len);
	}
	for (size_t i = 0; i < g->n_node; i++) {
		im->loc.line = (uint32_t)ord[i] + 1;
		im->loc.col = 1;
		if (convert(im, g->node[ord[i]]) != 0)
			errs++;
	}
	im->loc.line = im->loc.col = 0;
	im->nd = NULL;
	if (errs)
		goto out;
	outs = ir_xcalloc(g->n_output, sizeof *outs);
	for (size_t i = 0; i < g->n_output; i++) {
		const char *nm = g->output[i]->name ? g->output[i]->name : "";
		if (g->output[i]->type && !g->output[i]->type->tensor_type) {
			errs += onnx_err(im, "graph output '%s' is not a tensor (a sequence, map or optional value), which graft "
			                 "does not support", nm) != 0;
			continue;
		}
		if (!*nm || !(outs[i] = *valslot(im, nm))) {
			errs += onnx_err(im, "graph output '%s' is produced by no node, initializer or graph input", nm) != 0;
			continue;
		}
	}
	if (errs)
		goto out;
	/* the outputs' tuple and @main typed as every node before them was
	   (neither can fail: their operands are typed, @main declares no
	   return type), so the module is typed and need not be inferred again
	   (Module.typed), unless m held more than this import made */
	if (g->n_output != 1) {
		body = ir_tuple(im->m, outs, (uint32_t)g->n_output, im->loc);
		im->m->nodes[body].type = ir_infer_node(im->m, body, im->d);
	} else {
		body = outs[0];
	}
	fn = ir_func(im->m, params, np, body, 0, 0, 0, im->loc);
	im->m->nodes[fn].type = ir_infer_node(im->m, fn, im->d);
	if (!ir_global_add(im->m, ir_symz(im->m, "main"), fn))
		errs += onnx_err(im, "the module has a @main already") != 0;
	else
		im->m->typed = im->m->nglobals == 1 && !im->m->nanns;
out:
	free(ord);
	free(outs);
	free(params);
	free(pnames);
	return errs ? -1 : 0;
}

/* printstats: the table of how each ONNX op of the model mapped: its
** nodes, then the Relay calls they made (a call folded at import is
** counted, and its constant too) */
static void
printstats(const Imp *im, FILE *f)
{
	uint32_t nodes = 0, ops = 0;
	for (int k = 0; k < onnx_nops_all; k++)
		if (im->nnodes[k]) {
			nodes += im->nnodes[k];
			ops++;
		}
	fprintf(f, "onnx import: %u nodes of %u ops\n", nodes, ops);
	/* in onnx_op_after()'s order: by name, ONNX Runtime's ops last */
	for (int j = 0, k, prev = -1; j < onnx_nops_all; j++, prev = k) {
		const char *sep = " -> ";
		k = -1;
		for (int i = 0; i < onnx_nops_all; i++)
			if (im->nnodes[i] && (prev < 0 || onnx_op_after(i, prev)) && (k < 0 || onnx_op_after(k, i)))
				k = i;
		if (k < 0)
			break;
		fprintf(f, "  %-28s %6u", onnx_op_at(k)->name, im->nnodes[k]);
		for (int op = 0; op < ir_op_count(); op++) {
			uint32_t c = im->ncalls[(size_t)k * ir_op_count() + op];
			if (c) {
				fprintf(f, "%s%s %u", sep, ir_ops[op].name, c);
				sep = ", ";
			}
		}
		if (im->nconsts[k])
			fprintf(f, "%sconstants %u", sep, im->nconsts[k]);
		fputc('\n', f);
	}
}

/* importinto: mp (read from path) into m, freezing the inputs of o
** flagged in freeze, noting those needed in need and those made
** constants in made (each may be NULL); the number of errors reported
** through d */
static int
importinto(Module *m, const char *path, const char *dir, const GraftOnnx__ModelProto *mp, const OnnxOpts *o,
           uint8_t *freeze, uint8_t *need, uint8_t *made, Diag *d)
{
	Imp im;
	int before = d->errors;

	memset(&im, 0, sizeof im);
	im.m = m;
	im.d = d;
	im.errors0 = d->errors;
	im.path = path;
	im.dir = dir;
	im.loc.file = ir_file(m, path);
	im.o = o;
	im.freeze = freeze;
	im.need = need;
	im.made = made;
	if (o && o->stats && !need) {
		im.nnodes = ir_xcalloc((size_t)onnx_nops_all, sizeof *im.nnodes);
		im.nconsts = ir_xcalloc((size_t)onnx_nops_all, sizeof *im.nconsts);
		im.ncalls = ir_xcalloc((size_t)onnx_nops_all * (size_t)ir_op_count(), sizeof *im.ncalls);
	}
	if (o && o->nbind)
		im.bindvar = ir_xcalloc((size_t)o->nbind, sizeof *im.bindvar);
	im.pytorch = mp->producer_name && strcmp(mp->producer_name, "pytorch") == 0;
	if (import(&im, mp) == 0) {
		if (im.nnodes)
			printstats(&im, o->stats);
		if (im.intbias && !need)
			ir_warning(d, im.loc, "%u int32 biases as PyTorch's exporter folds them (do_constant_folding): "
			           "truncated from b / scale where PyTorch's kernels round, so results may differ from "
			           "PyTorch's by a step from the first layer on; export with do_constant_folding=False "
			           "(docs/onnx.md)", im.intbias);
		if (im.qs8 && im.qu8z0 && !need)
			ir_warning(d, im.loc, "%u QuantizeLinear to int8 but %u to uint8 with zero point 0: PyTorch's "
			           "exporter writes the outputs of qint8 layers as uint8, so their negative values "
			           "become 0 and results differ from PyTorch's; the file does not say which were int8 "
			           "(docs/onnx.md)", im.qs8, im.qu8z0);
	}
	free(im.valof);
	free(im.bindvar);
	free(im.nnodes);
	free(im.nconsts);
	free(im.ncalls);
	return d->errors - before;
}

/* onnx_import: see onnx.h */
int
onnx_import(Module *m, const char *path, Diag *d)
{
	return onnx_import_with(m, path, NULL, d);
}

/* onnx_import_with: see onnx.h.  With ONNX_FREEZE_NEEDED, trial imports
** into scratch modules, silent, find the inputs to freeze: each freezes
** what the last one needed, until one succeeds or needs nothing new. */
int
onnx_import_with(Module *m, const char *path, const OnnxOpts *o, Diag *d)
{
	enum { TRIALS = 8 };
	Imp im;
	unsigned char *buf;
	size_t len;
	char msg[400], *dir, *slash;
	GraftOnnx__ModelProto *mp;
	uint8_t *freeze = NULL, *need = NULL;
	int errs;

	memset(&im, 0, sizeof im);
	im.m = m;
	im.d = d;
	im.path = path;
	im.loc.file = ir_file(m, path);
	if (slurp(path, &buf, &len, msg, sizeof msg) != 0) {
		onnx_err(&im, "%s", msg);
		return 1;
	}
	mp = graft_onnx__model_proto__unpack(NULL, len, buf);
	free(buf);
	if (!mp) {
		onnx_err(&im, "not an ONNX model: the file is truncated or is not protobuf of ONNX's ModelProto");
		return 1;
	}
	dir = ir_xmalloc(strlen(path) + 1);
	strcpy(dir, path);
	if ((slash = strrchr(dir, '/')))
		*slash = 0;
	else
		dir[0] = 0;
	if (o && o->nbind) {
		freeze = ir_xcalloc((size_t)o->nbind, 1);
		need = ir_xcalloc((size_t)o->nbind, 1);
		if (o->freeze == ONNX_FREEZE_ALL)
			memset(freeze, 1, (size_t)o->nbind);
		for (int trial = 0; o->freeze == ONNX_FREEZE_NEEDED && trial < TRIALS; trial++) {
			Module *s = ir_module_new();
			Diag q;
			int more = 0;
			ir_diag_init(&q, NULL, s);
			memset(need, 0, (size_t)o->nbind);
			errs = importinto(s, path, dir, mp, o, freeze, need, NULL, &q);
			ir_diag_free(&q);
			ir_module_free(s);
			for (int b = 0; b < o->nbind; b++)
				if (need[b] && !freeze[b])
					freeze[b] = more = 1;
			if (!errs || !more)
				break;
		}
	}
	if (o && o->frozen)
		memset(o->frozen, 0, (size_t)o->nbind);
	errs = importinto(m, path, dir, mp, o, freeze, NULL, o ? o->frozen : NULL, d);
	free(freeze);
	free(need);
	free(dir);
	graft_onnx__model_proto__free_unpacked(mp, NULL);
	return errs;
}
