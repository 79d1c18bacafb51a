/*
** ir.c: unit tests of the module store: interning, def-use lists, attribute
** literals and defaults, float formatting and half-precision conversion,
** the verifier and dead-code elimination, scalar rows' registration.
*/
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "tap.h"
#include "text.h"
#include "scalar.h"     /* last: its words are short */

static Loc noloc;

static void
test_interning(void)
{
	Module *m = ir_module_new();
	int64_t d1[] = { 1, 3, 224, 224 }, d2[] = { 1, 3, 224, 224 }, d3[] = { 1, 3, 224, 225 };
	TypeId a = ir_type_tensor(m, DT_UINT8, 4, d1), b = ir_type_tensor(m, DT_UINT8, 4, d2);
	TypeId c = ir_type_tensor(m, DT_UINT8, 4, d3), e = ir_type_tensor(m, DT_INT8, 4, d1);
	TypeId s = ir_type_scalar(m, DT_FLOAT32), tup[2] = { a, s };
	TypeId t1 = ir_type_tuple(m, 2, tup), t2 = ir_type_tuple(m, 2, tup);
	TypeId f1 = ir_type_func(m, 2, tup, a), f2 = ir_type_func(m, 2, tup, a), f3 = ir_type_func(m, 2, tup, s);
	char buf[128];

	ok(a && a == b, "equal tensor types intern to one id");
	ok(a != c && a != e, "different dims or dtype give different ids");
	ok(t1 == t2 && t1 != a, "tuple types intern");
	ok(f1 == f2 && f1 != f3, "function types intern, return type counts");
	is_int(ir_type_numel(m, a), 150528, "numel of (1, 3, 224, 224)");
	is_str(ir_type_str(m, a, buf, sizeof buf), "Tensor[(1, 3, 224, 224), uint8]", "tensor type prints as TVM does");
	is_str(ir_type_str(m, s, buf, sizeof buf), "float32", "scalar type prints as its dtype");
	is_str(ir_type_str(m, t1, buf, sizeof buf), "(Tensor[(1, 3, 224, 224), uint8], float32)", "tuple type");
	is_str(ir_type_str(m, f3, buf, sizeof buf), "fn (Tensor[(1, 3, 224, 224), uint8], float32) -> float32", "function type");
	{
		TypeId one = ir_type_tuple(m, 1, &s);
		is_str(ir_type_str(m, one, buf, sizeof buf), "(float32,)", "1-tuple type keeps its comma");
	}
	/* cut off: the prefix that fits; ir_type_fmt says so by returning size */
	{
		char small[12];
		int64_t any[] = { IR_DIM_ANY, -7 };
		TypeId neg = ir_type_tensor(m, DT_INT8, 2, any), deep = s;
		is_str(ir_type_str(m, a, small, sizeof small), "Tensor[(1, ", "a type cut off at the buffer's size");
		is_int((int64_t)ir_type_fmt(m, a, small, sizeof small), sizeof small, "cut off: ir_type_fmt returns size");
		is_int((int64_t)ir_type_fmt(m, s, small, 8), 7, "exactly filling the buffer is not cut off");
		is_int((int64_t)ir_type_fmt(m, s, small, 7), 7, "one byte short is");
		is_str(ir_type_str(m, neg, buf, sizeof buf), "Tensor[(?, -7), int8]", "'?' dims and negative ones");
		for (int i = 0; i < 100; i++)
			deep = ir_type_tuple(m, 1, &deep);
		is_int((int64_t)ir_type_fmt(m, deep, buf, sizeof buf), sizeof buf, "a type deeper than its buffer is cut off");
		is_int((int64_t)strlen(buf), sizeof buf - 1, "and fills it");
	}
	/* many types: the hash table grows and stays consistent */
	{
		int bad = 0;
		for (int64_t i = 0; i < 5000; i++) {
			TypeId t = ir_type_tensor(m, DT_INT32, 1, &i);
			if (ir_type_tensor(m, DT_INT32, 1, &i) != t || ir_type_dims(m, t)[0] != i)
				bad++;
		}
		is_int(bad, 0, "5000 interned types survive rehashing");
		ok(ir_type_tensor(m, DT_UINT8, 4, d1) == a, "old ids unchanged after rehashing");
	}
	ok(ir_symz(m, "main") == ir_symz(m, "main") && ir_symz(m, "main") != ir_symz(m, "mai"), "strings intern");
	is_str(ir_symstr(m, ir_sym(m, "features.0.0_weight", 19)), "features.0.0_weight", "interned string reads back");
	/* names that differ only in a counter, across several rehashes */
	{
		char name[32];
		Sym first = 0, found;
		int bad = 0;
		for (unsigned i = 0; i < 20000; i++) {
			Sym t;
			snprintf(name, sizeof name, "FunctionVar_%u_0", i);
			t = ir_symz(m, name);
			first = i ? first : t;
			if (ir_symz(m, name) != t || strcmp(ir_symstr(m, t), name) != 0)
				bad++;
		}
		for (unsigned i = 0; i < 20000; i++) {
			snprintf(name, sizeof name, "FunctionVar_%u_0", i);
			if (!ir_sym_find(m, name, strlen(name), ir_sym_hash(IR_SYM_HASH0, name, strlen(name)), &found) ||
			    found != first + i)
				bad++;
		}
		is_int(bad, 0, "20000 similar names intern and are found again after rehashing");
	}
	{
		Sym f = ir_sym_fresh(m, "main", 4), g;
		is_str(ir_symstr(m, f), "main", "a fresh symbol reads back");
		ok(f != ir_symz(m, "main"), "a fresh symbol is not the interned one of its string");
		ok(ir_sym_find(m, "main", 4, ir_sym_hash(IR_SYM_HASH0, "main", 4), &g) && g == ir_symz(m, "main"),
		   "lookups still find the interned symbol");
	}
	ir_module_free(m);
}

static void
test_uses(void)
{
	Module *m = ir_module_new();
	TypeId t = ir_type_scalar(m, DT_FLOAT32);
	NodeId x = ir_var(m, ir_symz(m, "x"), t, noloc), y = ir_var(m, ir_symz(m, "y"), t, noloc);
	NodeId xy[2] = { x, y }, xx[2] = { x, x };
	NodeId add = ir_call(m, OP_ADD, xy, 2, 0, noloc), mul = ir_call(m, OP_MULTIPLY, xx, 2, 0, noloc);
	NodeId am[2] = { add, mul };
	NodeId sub = ir_call(m, OP_SUBTRACT, am, 2, 0, noloc);
	NodeId fn = ir_func(m, xy, 2, sub, 0, 0, 0, noloc);
	Diag d;

	is_int(ir_nuses(m, x), 4, "x: used by add, twice by multiply, and as a parameter");
	is_int(ir_nuses(m, y), 2, "y: used by add and as a parameter");
	ir_set_arg(m, mul, 1, y);
	is_int(ir_nuses(m, x), 3, "set_arg unlinks the old operand");
	is_int(ir_nuses(m, y), 3, "and links the new one");
	ir_replace_uses(m, add, mul);
	is_int(ir_nuses(m, add), 0, "replace_uses empties the old node's list");
	ok(ir_arg(m, sub, 0) == mul && ir_arg(m, sub, 1) == mul, "users now refer to the new node");
	is_int(ir_nuses(m, mul), 2, "which has both uses");
	ok(ir_global_add(m, ir_symz(m, "main"), fn), "@main added");
	ok(!ir_global_add(m, ir_symz(m, "main"), fn), "@main twice refused");
	ir_diag_init(&d, NULL, m);
	is_int(ir_infer_types(m, &d), 0, "types infer");
	is_int(ir_verify(m, &d), 0, "module verifies");
	is_int(ir_dce(m), 1, "dce kills the dead add");
	is_int(m->nodes[add].kind, NK_DEAD, "the add is dead");
	is_int(ir_nuses(m, x), 2, "x lost add's use");
	is_int(ir_verify(m, &d), 0, "module still verifies after dce");
	/* corrupt a use list: the verifier must notice */
	m->argv[m->nodes[sub].args] = y;
	ok(ir_verify(m, &d) > 0, "verifier catches a corrupt use list");
	ir_module_free(m);
}

static void
test_cycle(void)
{
	Module *m = ir_module_new();
	TypeId t = ir_type_scalar(m, DT_FLOAT32);
	NodeId x = ir_var(m, ir_symz(m, "x"), t, noloc);
	NodeId r1 = ir_call(m, OP_NN_RELU, &x, 1, 0, noloc), r2 = ir_call(m, OP_NN_RELU, &r1, 1, 0, noloc);
	NodeId fn = ir_func(m, &x, 1, r2, 0, 0, 0, noloc);
	Diag d;

	ir_global_add(m, ir_symz(m, "main"), fn);
	ir_diag_init(&d, NULL, m);
	is_int(ir_infer_types(m, &d), 0, "relu chain infers");
	ir_set_arg(m, r1, 0, r2);
	ok(ir_verify(m, &d) > 0, "verifier catches a cycle");
	ir_module_free(m);
}

static void
test_attrs(void)
{
	Module *m = ir_module_new();
	AttrVal v, w;
	AttrId def = ir_attr_defaults(m, OP_NN_CONV2D);
	int k = ir_op_attr_index(OP_NN_CONV2D, "strides", 7);

	ok(ir_attr_parse(m, "[[0, 0], [1, 1]]", &v) && v.kind == AV_ARRAY && v.n == 2, "nested array literal");
	is_int(m->attrs[m->attrs[v.first + 1].first].u.i, 1, "nested element reads back");
	ok(ir_attr_conform(m, AT_INTS2, &v) == NULL, "pad_width conforms to a list of lists");
	ok(ir_attr_conform(m, AT_INTS, &v) != NULL, "but not to a list of ints");
	ok(ir_attr_parse(m, "0f", &v) && v.kind == AV_FLOAT && v.u.f == 0, "0f is a float");
	ok(ir_attr_parse(m, "255", &v) && ir_attr_conform(m, AT_FLOAT, &v) == NULL && v.kind == AV_FLOAT, "an int conforms to a float field");
	ok(ir_attr_parse(m, "\"int32\"", &v) && ir_attr_conform(m, AT_DTYPE, &v) == NULL && v.u.i == DT_INT32, "a string conforms to a dtype");
	ok(ir_attr_parse(m, "\"int33\"", &v) && ir_attr_conform(m, AT_DTYPE, &v) != NULL, "an unknown dtype does not");
	ok(!ir_attr_parse(m, "[1, 2", &v), "unterminated array rejected");
	ok(k >= 0, "nn.conv2d has strides");
	ir_attr_parse(m, "[1, 1]", &w);
	ok(ir_attr_equal(m, &m->attrs[def + (uint32_t)k], &w), "strides default is [1, 1]");
	ok(ir_attr_defaults(m, OP_NN_CONV2D) != def, "defaults are a fresh copy each time");
	is_int(ir_op_lookup("qnn.conv2d", 10), OP_QNN_CONV2D, "op lookup");
	is_int(ir_op_lookup("qnn.conv3d", 10), OP_NONE, "unknown op");
	is_str(ir_ops[ir_op_suggest("qnn.conv3d", 10)].name, "qnn.conv2d", "did-you-mean for a typo");
	is_str(ir_ops[ir_op_suggest("conv2d", 6)].name, "nn.conv2d", "did-you-mean for a missing namespace");
	is_int(ir_op_suggest("zzzzzzzzzz", 10), OP_NONE, "no suggestion for nonsense");
	is_str(ir_ops[OP_QNN_CONV2D].attrs[ir_op_attr_suggest(OP_QNN_CONV2D, "stride", 6)].name, "strides",
	       "attribute did-you-mean");
	ir_module_free(m);
}

/* setf: attribute value a is the float f */
static void
setf(Module *m, AttrId a, double f)
{
	m->attrs[a].kind = AV_FLOAT;
	m->attrs[a].u.f = f;
}

/* attribute interning: equal call attributes share one run, floats by
** their bits, arrays by content; fresh duplicates are taken back */
static void
test_attr_interning(void)
{
	Module *m = ir_module_new();
	int64_t dims[] = { 4 };
	NodeId x = ir_var(m, ir_symz(m, "x"), ir_type_tensor(m, DT_FLOAT32, 1, dims), noloc);
	int kmin = ir_op_attr_index(OP_CLIP, "a_min", 5), kmax = ir_op_attr_index(OP_CLIP, "a_max", 5);
	AttrId a1 = ir_attr_defaults(m, OP_CLIP), a2, a3;
	NodeId c1, c2, c3, c4;
	uint32_t top;
	Diag d;
	AttrVal v, w;

	setf(m, a1 + (uint32_t)kmin, 0);
	setf(m, a1 + (uint32_t)kmax, 6);
	c1 = ir_call(m, OP_CLIP, &x, 1, a1, noloc);
	a2 = ir_attr_defaults(m, OP_CLIP);
	setf(m, a2 + (uint32_t)kmin, 0);
	setf(m, a2 + (uint32_t)kmax, 6);
	top = m->nattrs;
	c2 = ir_call(m, OP_CLIP, &x, 1, a2, noloc);
	is_int(m->nodes[c2].aux, m->nodes[c1].aux, "equal attributes of two calls are one run");
	is_int(m->nattrs, top - 2, "the fresh duplicate at the end of the table is taken back");
	a3 = ir_attr_defaults(m, OP_CLIP);
	setf(m, a3 + (uint32_t)kmin, -0.0);
	setf(m, a3 + (uint32_t)kmax, 6);
	c3 = ir_call(m, OP_CLIP, &x, 1, a3, noloc);
	ok(m->nodes[c3].aux != m->nodes[c1].aux, "-0.0 and 0.0 are different attributes (floats by bits)");
	c4 = ir_call(m, OP_CLIP, &x, 1, ir_op_defaults(m, OP_CLIP), noloc);
	ok(m->nodes[c4].aux != m->nodes[c1].aux && ir_attr_interned(m, m->nodes[c4].aux, 2),
	   "the op's shared defaults intern as themselves");
	/* arrays by content, wherever their elements are */
	ok(ir_attr_parse(m, "[[0, 0], [1, 1]]", &v) && ir_attr_parse(m, "[[0, 0], [1, 1]]", &w) &&
	   v.first == w.first, "equal array literals are one run of elements");
	ok(ir_attr_parse(m, "[[0, 0], [1, 2]]", &w) && v.first != w.first, "different ones are not");
	ok(ir_attr_hash(m, &v, 1) != ir_attr_hash(m, &w, 1), "their hashes differ");
	/* many distinct runs: the table grows and keeps every run */
	{
		int bad = 0;
		for (int i = 0; i < 3000; i++) {
			AttrId a = ir_attr_defaults(m, OP_CLIP);
			setf(m, a + (uint32_t)kmax, i);
			NodeId c = ir_call(m, OP_CLIP, &x, 1, a, noloc);
			AttrId b = ir_attr_defaults(m, OP_CLIP);
			setf(m, b + (uint32_t)kmax, i);
			if (ir_call(m, OP_CLIP, &x, 1, b, noloc) && m->nodes[c].aux != a)
				bad++;
			if (m->nodes[m->nnodes - 1].aux != a)
				bad++;
		}
		is_int(bad, 0, "3000 distinct attribute runs survive rehashing");
	}
	/* the verifier refuses a call whose attributes bypassed interning */
	{
		NodeId f[] = { c1, c2, c3, c4 }, t = ir_tuple(m, f, 4, noloc);
		ir_global_add(m, ir_symz(m, "main"), ir_func(m, &x, 1, t, 0, 0, 0, noloc));
	}
	ir_diag_init(&d, NULL, m);
	ok(ir_infer_types(m, &d) == 0 && ir_verify(m, &d) == 0, "interned module verifies");
	m->nodes[c2].aux = ir_attr_defaults(m, OP_CLIP);
	ok(ir_verify(m, &d) > 0, "a call with a private copy of its attributes does not");
	ir_module_free(m);
}

static void
test_floats(void)
{
	char buf[64];
	static const struct { double v; DType dt; const char *want; } cases[] = {
		{ 0.0186579, DT_FLOAT32, "0.0186579" },
		{ 5.39136e-05, DT_FLOAT32, "5.39136e-05" },
		{ 114, DT_FLOAT32, "114" },
		{ 0, DT_FLOAT32, "0" },
		{ 0.1, DT_FLOAT64, "0.1" },
		{ 1.0 / 3, DT_FLOAT64, "0.3333333333333333" },
		{ 0.00288958, DT_FLOAT32, "0.00288958" },
		{ -2.5, DT_FLOAT16, "-2.5" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		ir_fmt_float(buf, sizeof buf, cases[i].v, cases[i].dt);
		is_str(buf, cases[i].want, "shortest float for %g", cases[i].v);
	}
	/* float32: every printed value reads back exactly */
	{
		int bad = 0;
		uint32_t x = 0x3c98d4a1u;
		for (int i = 0; i < 20000; i++) {
			float f;
			x = x * 1664525u + 1013904223u;
			memcpy(&f, &x, 4);
			if (!isfinite(f))
				continue;
			ir_fmt_float(buf, sizeof buf, f, DT_FLOAT32);
			if (strtof(buf, NULL) != f)
				bad++;
		}
		is_int(bad, 0, "20000 random float32 values round-trip through their shortest form");
	}
	/* half precision against hand-computed encodings */
	is_int(ir_f16_from_f32(1.0f), 0x3c00, "1.0 is 0x3c00 in float16");
	is_int(ir_f16_from_f32(-2.0f), 0xc000, "-2.0 is 0xc000");
	is_int(ir_f16_from_f32(65504.0f), 0x7bff, "65504 is the largest half");
	is_int(ir_f16_from_f32(65520.0f), 0x7c00, "65520 rounds to infinity");
	is_int(ir_f16_from_f32(5.9604645e-08f), 0x0001, "the smallest subnormal");
	is_int(ir_f16_from_f32(1.0009765625f), 0x3c01, "1 + 2^-10 is exact");
	is_int(ir_f16_from_f32(1.00048828125f), 0x3c00, "a tie rounds to even (down)");
	is_int(ir_f16_from_f32(1.00146484375f), 0x3c02, "a tie rounds to even (up)");
	{
		int bad = 0;
		for (uint32_t h = 0; h < 0x10000; h++) {
			if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff))
				continue;   /* NaN payloads */
			if (ir_f16_from_f32(ir_f32_from_f16((uint16_t)h)) != h)
				bad++;
		}
		is_int(bad, 0, "every non-NaN half survives half -> float -> half");
	}
}

/* test_node_to_const: a call turned into a constant keeps its id, type
** and use; its operands are reaped; while reuse is on it takes a killed
** constant's Const slot */
static void
test_node_to_const(void)
{
	Module *m = ir_module_new();
	int64_t dims[] = { 4 };
	TypeId t = ir_type_tensor(m, DT_FLOAT32, 1, dims);
	static const float one[4] = { 1, 2, 3, 4 }, two[4] = { 10, 20, 30, 40 }, sum[4] = { 11, 22, 33, 44 };
	NodeId x = ir_var(m, ir_symz(m, "x"), t, noloc), old = ir_const(m, t, one, noloc);
	NodeId c1 = ir_const(m, t, one, noloc), c2 = ir_const(m, t, two, noloc);
	NodeId cc[2] = { c1, c2 }, add = ir_call(m, OP_ADD, cc, 2, 0, noloc);
	NodeId xa[2] = { x, add }, mul = ir_call(m, OP_MULTIPLY, xa, 2, 0, noloc), fn;
	NodeId *stack = NULL;
	uint32_t cap = 0, oldci = m->nodes[old].aux;
	void *data;
	Diag d;

	fn = ir_func(m, &x, 1, mul, 0, 0, 0, noloc);
	ir_global_add(m, ir_symz(m, "main"), fn);
	ir_diag_init(&d, NULL, m);
	is_int(ir_infer_types(m, &d), 0, "types infer");
	m->reuse = 1;
	ir_node_kill(m, old);
	data = ir_arena_raw(&m->data, sizeof sum);
	memcpy(data, sum, sizeof sum);
	ir_node_to_const(m, add, data, &stack, &cap);
	ok(m->nodes[add].kind == NK_CONST && m->nodes[add].nargs == 0, "the add is a constant");
	ok(m->nodes[add].type == t && ir_node_const(m, add)->type == t && ir_node_const(m, add)->nbytes == 16 &&
	   memcmp(ir_node_const(m, add)->data, sum, 16) == 0, "of its type, holding the data");
	is_int(ir_arg(m, mul, 1), add, "the multiply still uses it");
	ok(m->nodes[c1].kind == NK_DEAD && m->nodes[c2].kind == NK_DEAD, "its operands are reaped");
	is_int(m->nodes[add].aux, oldci, "it took the killed constant's Const slot");
	is_int(ir_nuses(m, x), 2, "x: the multiply and the parameter");
	m->reuse = 0;
	is_int(ir_verify(m, &d), 0, "the module verifies");
	free(stack);
	ir_module_free(m);
}

/* registered ops' scalar rows: of one operand or two, each checked as
** ir_scalar_register says; the built-in rows' dtype rule (ir_op_accepts) */
static void
test_scalar_rows(void)
{
	static const AttrField clipattrs[] = { { "lo", AT_FLOAT, "0f" }, { "hi", AT_FLOAT, "1f" } };
	OpInfo one = { "t.one", 1, OPF_ELEM, ir_rel_same, NULL, 0, NULL };
	OpInfo two = { "t.two", 2, OPF_ELEM | OPF_BCAST, ir_rel_same, NULL, 0, NULL };
	OpInfo clip = { "t.clip", 1, OPF_ELEM, ir_rel_same, clipattrs, 2, NULL };
	OpInfo three = { "t.three", 3, OPF_ELEM, ir_rel_same, NULL, 0, NULL };
	ScalarDef y1 = { 0, SI_NONE, NULL, NULL, ADD(X, Y) };
	ScalarDef add1 = { 0, SI_ADD, NULL, NULL, X };
	ScalarDef neg2 = { 0, SI_NEG, NULL, NULL, SUB(X, Y) };
	ScalarDef badfn2 = { 0, SI_NONE, NULL, NULL, &(const ScalarExpr){ .kind = SX_FN2, .fn = "atan2", .a = X, .b = Y } };
	ScalarDef badsel = { 0, SI_NONE, NULL, NULL, SEL(X, X, Y) };
	ScalarDef good2 = { 0, SI_MAX, NULL, NULL, SEL(ISNAN(X), X, FN2(atan2, RND(X), Y)) };
	ScalarDef clipok = { 0, SI_CLIP, NULL, NULL, MAX(MIN(X, P(1)), P(0)) };
	ScalarDef any = { 0, SI_NONE, NULL, NULL, X };
	OpId o1, o2, oc, o3;
	char err[256];

	o1 = ir_op_register(&one, err, sizeof err);
	o2 = ir_op_register(&two, err, sizeof err);
	oc = ir_op_register(&clip, err, sizeof err);
	o3 = ir_op_register(&three, err, sizeof err);
	ok(o1 && o2 && oc && o3, "four ops registered");
	ok(!ir_scalar_register(o1, &y1, 1, err, sizeof err) && strstr(err, "t.one: Y, the second operand") != NULL,
	   "Y in a row of an op of one operand: refused (%s)", err);
	ok(!ir_scalar_register(o1, &add1, 1, err, sizeof err) && strstr(err, "ints") != NULL,
	   "SI_ADD for an op of one operand: refused (%s)", err);
	ok(!ir_scalar_register(o2, &neg2, 1, err, sizeof err) && strstr(err, "ints") != NULL,
	   "SI_NEG for an op of two operands: refused (%s)", err);
	ok(!ir_scalar_register(o2, &badfn2, 1, err, sizeof err) && strstr(err, "FN2() without its function") != NULL,
	   "FN2 without its functions: refused (%s)", err);
	ok(!ir_scalar_register(o2, &badsel, 1, err, sizeof err) && strstr(err, "GT(), LT() or ISNAN()") != NULL,
	   "SEL on X: refused (%s)", err);
	ok(!ir_scalar_register(o3, &any, 1, err, sizeof err) && strstr(err, "one operand or two") != NULL,
	   "an op of three operands: refused (%s)", err);
	ok(!ir_scalar_register(o1, &clipok, 1, err, sizeof err), "SI_CLIP on an op without two numeric attributes: refused");
	ok(ir_scalar_register(oc, &clipok, 1, err, sizeof err), "SI_CLIP on one with them: taken");
	ok(ir_scalar_register(o2, &good2, 1, err, sizeof err) && ir_op_is_scalar(o2) &&
	   ir_scalar_of(NULL, o2, 0)->ints == SI_MAX, "a row of two operands (ISNAN, FN2, RND, Y): taken and found");
	ok(!ir_op_accepts(o2, DT_INT32) && ir_op_accepts(o2, DT_BOOL) != NULL, "its ints column takes int32, not bool");
	ok(!ir_op_accepts(OP_ADD, DT_INT8) && !ir_op_accepts(OP_ADD, DT_FLOAT16) && ir_op_accepts(OP_ADD, DT_BOOL) != NULL &&
	   ir_op_accepts(OP_POWER, DT_BOOL) != NULL && ir_op_accepts(OP_NN_RELU, DT_BOOL) != NULL,
	   "add, power, nn.relu (rows of scalar.def): integers and floats, not bool");
	ok(ir_op_is_scalar(OP_ADD) && ir_op_is_scalar(OP_FLOOR_MOD) && ir_op_is_scalar(OP_CLIP) && ir_op_is_scalar(OP_NN_RELU) &&
	   !ir_op_is_scalar(OP_EQUAL) && !ir_op_is_scalar(OP_CAST), "the arithmetic ops are rows; comparisons and cast are not");
}

int
main(void)
{
	plan_lazy();
	test_interning();
	test_uses();
	test_cycle();
	test_attrs();
	test_attr_interning();
	test_floats();
	test_node_to_const();
	test_scalar_rows();
	return done_testing();
}
