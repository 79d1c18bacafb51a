/*
** rewrite.c: unit tests of the rewrite driver through the C API.
**
** The visiting order (the text parser drops unused values, so it cannot
** make them): which nodes the worklist starts from, for modules whose ids
** put operands first (Module.unordered clear) and for modules where they
** do not.  Results built in place of a matched node (rw_call_in_place):
** which node they are, and what a failed rewrite leaves.  A quantize of a
** constant folded in place: the root becomes the constant.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "rewrite.h"
#include "tap.h"
#include "text.h"

extern const Ruleset graft_ruleset_algebra, graft_ruleset_canonicalize, graft_ruleset_broken;

static Loc noloc;

/* square: multiply(add(x, y), subtract(x, y)), algebra's pattern */
static NodeId
square(Module *m, NodeId x, NodeId y)
{
	NodeId xy[] = { x, y }, a = ir_call(m, OP_ADD, xy, 2, 0, noloc), s = ir_call(m, OP_SUBTRACT, xy, 2, 0, noloc);
	NodeId as[] = { a, s };
	return ir_call(m, OP_MULTIPLY, as, 2, 0, noloc);
}

/* test_unreachable: a live call nothing uses is not rewritten, whether the
** driver sweeps ids in order or walks from the globals */
static void
test_unreachable(int unordered)
{
	Module *m = ir_module_new();
	int64_t dims[] = { 10 };
	TypeId t = ir_type_tensor(m, DT_FLOAT32, 1, dims);
	NodeId x = ir_var(m, ir_symz(m, "x"), t, noloc), y = ir_var(m, ir_symz(m, "y"), t, noloc);
	NodeId used = square(m, x, y), unused = square(m, y, x), body = ir_call(m, OP_EXP, &used, 1, 0, noloc);
	NodeId xy[] = { x, y }, fn;
	RwStats st;
	Diag d;
	const char *how = unordered ? "walking from the globals" : "sweeping ids in order";
	char name[160];

	ok(!m->unordered, "a module built operands first is ordered");
	if (unordered) {
		/* exp's operand becomes a node newer than exp */
		NodeId later = ir_call(m, OP_SIGMOID, &used, 1, 0, noloc);
		ir_set_arg(m, body, 0, later);
		ok(m->unordered, "an operand newer than its user makes the module unordered");
	}
	fn = ir_func(m, xy, 2, body, 0, 0, 0, noloc);
	ir_global_add(m, ir_symz(m, "main"), fn);
	ir_diag_init(&d, stderr, m);
	if (ir_infer_types(m, &d)) {
		ok(0, "types");
		return;
	}
	/* inference types reachable nodes only: type the unused one too, so
	   that only reachability can keep the driver off it */
	for (NodeId n = 1; n < m->nnodes; n++)
		if (!m->nodes[n].type && m->nodes[n].kind == NK_CALL)
			m->nodes[n].type = ir_infer_node(m, n, &d);
	is_int(ir_rewrite(m, &graft_ruleset_algebra, &d, &st), 0, "rewrite succeeds");
	snprintf(name, sizeof name, "one rewrite, of the reachable product (%s)", how);
	is_int((int64_t)st.rewrites, 1, name);
	snprintf(name, sizeof name, "the unused product is left alone (%s)", how);
	ok(m->nodes[unused].kind == NK_CALL && m->nodes[unused].op == OP_MULTIPLY &&
	   m->nodes[ir_arg(m, unused, 0)].op == OP_ADD, name);
	ok(m->nodes[used].kind == NK_DEAD, "the reachable product was replaced");
	free(st.fired);
	is_int(ir_verify(m, &d), 0, "the result verifies");
	ir_module_free(m);
}

/* The seed's requantize, clip and cast, as text. */
static const char chain[] =
	"def @main(%x: Tensor[(1, 8), int32]) {\n"
	"  %0 = qnn.requantize(%x, 0.5f, 0, 0.25f, 3, out_dtype=\"int32\");\n"
	"  %1 = clip(%0, a_min=0f, a_max=255f);\n"
	"  cast(%1, dtype=\"uint8\")\n"
	"}\n";

/* The chain with a user that takes only the cast's type: a result of
** another type is refused there. */
static const char chain_used[] =
	"def @main(%x: Tensor[(1, 8), int32], %y: Tensor[(1, 8), uint8]) {\n"
	"  %0 = qnn.requantize(%x, 0.5f, 0, 0.25f, 3, out_dtype=\"int32\");\n"
	"  %1 = clip(%0, a_min=0f, a_max=255f);\n"
	"  %2 = cast(%1, dtype=\"uint8\");\n"
	"  add(%2, %y)\n"
	"}\n";

/* parsed: text (chain when NULL) parsed and typed; *rq gets the
** requantize's id */
static Module *
parsedtext(Diag *d, NodeId *rq, const char *text)
{
	Module *m = ir_module_new();

	ir_diag_init(d, stderr, m);
	if (ir_parse(m, d, "chain.relay", text, strlen(text)) || ir_infer_types(m, d))
		return NULL;
	for (*rq = 1; *rq < m->nnodes && !(m->nodes[*rq].kind == NK_CALL && m->nodes[*rq].op == OP_QNN_REQUANTIZE);)
		++*rq;
	return m;
}

static Module *
parsed(Diag *d, NodeId *rq)
{
	return parsedtext(d, rq, chain);
}

/* test_in_place: canonicalize turns the chain into its requantize, which
** keeps its id and takes out_dtype="uint8" and the cast's type */
static void
test_in_place(void)
{
	Diag d;
	NodeId rq, cast;
	TypeId castty;
	Module *m = parsed(&d, &rq);
	RwStats st;
	int k = ir_op_attr_index(OP_QNN_REQUANTIZE, "out_dtype", 9);

	if (!m) {
		ok(0, "the chain parses");
		return;
	}
	cast = ir_func_body(m, m->globals[0].fn);
	castty = m->nodes[cast].type;
	ok(m->nodes[cast].op == OP_CAST, "the chain's body is the cast");
	is_int(ir_rewrite(m, &graft_ruleset_canonicalize, &d, &st), 0, "canonicalize succeeds");
	is_int((int64_t)st.rewrites, 1, "one rewrite");
	free(st.fired);
	is_int(ir_func_body(m, m->globals[0].fn), rq, "the body is the requantize that was matched, changed in place");
	is_int(m->nodes[rq].type, castty, "it has the cast's type");
	is_int(rw_attr_i(m, rq, k), DT_UINT8, "and out_dtype=\"uint8\"");
	ok(m->nodes[cast].kind == NK_DEAD, "the cast is gone");
	is_int(ir_nuses(m, rq), 1, "the requantize has one use, the function's");
	is_int(ir_verify(m, &d), 0, "the result verifies");
	ir_diag_free(&d);
	ir_module_free(m);
}

/* test_in_place_undone: a result built in place whose type its user does
** not take is an error, and the requantize gets its attributes and type
** back */
static void
test_in_place_undone(void)
{
	Diag d;
	NodeId rq;
	Module *m = parsedtext(&d, &rq, chain_used);
	AttrId aux;
	TypeId ty;
	FILE *null = fopen("/dev/null", "w");

	if (!m || !null) {
		ok(0, "the chain parses");
		return;
	}
	aux = m->nodes[rq].aux;
	ty = m->nodes[rq].type;
	d.out = null;
	is_int(ir_rewrite(m, &graft_ruleset_broken, &d, NULL), 1, "a result of the wrong type is one error");
	is_int(m->nodes[rq].aux, aux, "the requantize has its attributes back");
	is_int(m->nodes[rq].type, ty, "and its type");
	ok(m->nodes[ir_arg(m, ir_func_body(m, m->globals[0].fn), 0)].op == OP_CAST, "the cast is still the add's operand");
	d.out = stderr;
	is_int(ir_verify(m, &d), 0, "the module verifies");
	ir_diag_free(&d);
	ir_module_free(m);
	fclose(null);
}

/* test_fold_in_place: canonicalize folds the quantize of a constant into
** the quantize's own node, which keeps its id and its use; the float
** constant is gone */
static void
test_fold_in_place(void)
{
	static const char text[] =
		"def @main(%x: Tensor[(4), int8]) {\n"
		"  %0 = qnn.quantize(const([2.5, -1f, 0.4, 300f], dtype=\"float32\"), 0.5f, 0, out_dtype=\"int8\");\n"
		"  add(%x, %0)\n"
		"}\n";
	static const int8_t want[] = { 5, -2, 1, 127 };
	Module *m = ir_module_new();
	NodeId add, q, f;
	TypeId ty;
	Diag d;

	ir_diag_init(&d, stderr, m);
	if (ir_parse(m, &d, "fold.relay", text, sizeof text - 1) || ir_infer_types(m, &d)) {
		ok(0, "the fold test parses");
		ir_diag_free(&d);
		ir_module_free(m);
		return;
	}
	add = ir_func_body(m, m->globals[0].fn);
	q = ir_arg(m, add, 1);
	f = ir_arg(m, q, 0);
	ty = m->nodes[q].type;
	is_int(ir_rewrite(m, &graft_ruleset_canonicalize, &d, NULL), 0, "canonicalize folds the quantize");
	is_int(ir_arg(m, add, 1), q, "the add's operand is the quantize's node");
	ok(m->nodes[q].kind == NK_CONST && m->nodes[q].nargs == 0, "which is now a constant");
	is_int(m->nodes[q].type, ty, "of the quantize's type");
	ok(ir_node_const(m, q)->type == ty && ir_node_const(m, q)->nbytes == 4 &&
	   memcmp(ir_node_const(m, q)->data, want, 4) == 0, "holding the quantized values");
	ok(m->nodes[f].kind == NK_DEAD, "the float constant is gone");
	is_int(ir_verify(m, &d), 0, "the result verifies");
	ir_diag_free(&d);
	ir_module_free(m);
}

int
main(void)
{
	plan_lazy();
	test_unreachable(0);
	test_unreachable(1);
	test_in_place();
	test_in_place_undone();
	test_fold_in_place();
	return done_testing();
}
