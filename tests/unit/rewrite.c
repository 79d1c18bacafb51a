/*
** rewrite.c: unit tests of the rewrite driver's visiting order, through the
** C API (the text parser drops unused values, so it cannot make them):
** which nodes the worklist starts from, for modules whose ids put operands
** first (Module.unordered clear) and for modules where they do not.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "rewrite.h"
#include "tap.h"

extern const Ruleset graft_ruleset_algebra;

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

int
main(void)
{
	plan_lazy();
	test_unreachable(0);
	test_unreachable(1);
	return done_testing();
}
