/*
** graph.c: <graft/graph.h>'s readers, called by their exported names (this
** file is compiled without GRAFT_BUILDING, as a plugin is) on a parsed
** module: each answers its question for the node kinds it names, and
** says none for the others.
*/
#define _POSIX_C_SOURCE 200809L   /* open_memstream */
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "kernel.h"
#include "tap.h"
#include "text.h"

#ifdef GRAFT_BUILDING
#error "tests/unit/graph.c tests the exported readers: compile it without GRAFT_BUILDING"
#endif

static const char text[] =
	"def @main(%x: Tensor[(1, 3), int8]) {\n"
	"  %0 = clip(%x, a_min=-1f, a_max=1f);\n"
	"  %1 = (%0, %0);\n"
	"  %2 = %1.1;\n"
	"  %3 = fn (%p: Tensor[(1, 3), int8], Composite=\"sq\") { multiply(%p, %p) };\n"
	"  %4 = %3(%2);\n"
	"  %5 = cast(%4, dtype=\"float32\");\n"
	"  add(%5, 2f)\n"
	"}\n";

/* find: the first node of kind k (a call of op, when op is not NULL) */
static graft_node
find(const graft_ir *m, int k, const char *op)
{
	for (graft_node n = 1; n < graft_nnodes(m); n++)
		if (graft_kind(m, n) == k && (!op || (graft_op_name(m, n) && strcmp(graft_op_name(m, n), op) == 0)))
			return n;
	return 0;
}

int
main(void)
{
	Module *m = ir_module_new();
	Diag d;
	char buf[64], *out = NULL;
	size_t outn = 0;
	FILE *f = open_memstream(&out, &outn);
	graft_node clip, x, tup, item, fn, callfn, cast, two, mainfn;
	const int64_t *dims;

	ir_diag_init(&d, f, m);
	if (ir_parse(m, &d, "graph.relay", text, strlen(text)) || ir_infer_types(m, &d)) {
		ok(0, "the module parses");
		return done_testing();
	}
	clip = find(m, GRAFT_NK_CALL, "clip");
	cast = find(m, GRAFT_NK_CALL, "cast");
	tup = find(m, GRAFT_NK_TUPLE, NULL);
	item = find(m, GRAFT_NK_GETITEM, NULL);
	callfn = find(m, GRAFT_NK_CALLFN, NULL);
	two = graft_arg(m, find(m, GRAFT_NK_CALL, "add"), 1);
	ok(clip && cast && tup && item && callfn, "the calls, the tuple, the projection and the function call are found");
	ok(graft_nnodes(m) == m->nnodes, "graft_nnodes: the node count");

	/* a call and its operand */
	x = graft_arg(m, clip, 0);
	ok(graft_nargs(m, clip) == 1 && graft_kind(m, x) == GRAFT_NK_VAR, "clip's one operand is a variable");
	is_str(graft_name(m, x), "x", "graft_name: a variable's name");
	ok(graft_op_name(m, x) == NULL && graft_op_kind(m, x) == GRAFT_OPK_OPAQUE, "a variable calls no op");
	is_int(graft_op_kind(m, clip), GRAFT_OPK_ELEMWISE, "graft_op_kind: clip is elementwise");
	ok(graft_attr_f(m, clip, 0) == -1.0 && graft_attr_f(m, clip, 1) == 1.0, "graft_attr_f: clip's a_min and a_max");
	is_int(graft_attr_i(m, cast, 0), GRAFT_DT_FLOAT32, "graft_attr_i: a dtype attribute is its GRAFT_DT_ code");
	ok(!graft_attr_isnone(m, cast, 0), "graft_attr_isnone: a dtype given is not None");

	/* types */
	is_int(graft_dtype(m, clip), GRAFT_DT_INT8, "graft_dtype: int8 is GRAFT_DT_INT8");
	is_int(graft_rank(m, clip), 2, "graft_rank");
	dims = graft_dims(m, clip);
	ok(dims && dims[0] == 1 && dims[1] == 3, "graft_dims");
	is_int(graft_numel(m, clip), 3, "graft_numel");
	ok(graft_shape_is(m, clip, 2, (const int64_t[]){ -1, 3 }) && !graft_shape_is(m, clip, 2, (const int64_t[]){ 2, -1 }),
	   "graft_shape_is: -1 matches any dim");
	ok(graft_shape_eq(m, clip, (const int64_t[]){ 1, 3 }, 2) && !graft_shape_eq(m, clip, (const int64_t[]){ 1, 3 }, 1),
	   "graft_shape_eq: dims and rank exactly");
	is_str(graft_type_str(m, clip, buf, sizeof buf), "Tensor[(1, 3), int8]", "graft_type_str");
	ok(graft_dtype(m, tup) == GRAFT_DT_OTHER && graft_rank(m, tup) == -1 && !graft_dims(m, tup) &&
	   graft_numel(m, tup) == -1, "a tuple has no dtype, rank, dims or element count");

	/* tuples and functions */
	ok(graft_nargs(m, tup) == 2 && graft_arg(m, tup, 0) == clip && graft_arg(m, tup, 1) == clip, "a tuple's fields");
	ok(graft_nuses(m, clip) == 2 && graft_nuses(m, tup) == 1,
	   "graft_nuses: clip fills both fields, the tuple one projection");
	ok(graft_arg(m, item, 0) == tup && graft_index(m, item) == 1 && graft_index(m, tup) == 0,
	   "graft_index: a projection's field, 0 for another kind");
	fn = graft_arg(m, callfn, 0);
	ok(graft_kind(m, fn) == GRAFT_NK_FUNC && graft_arg(m, callfn, 1) == item, "a function call: callee, then operands");
	is_str(graft_func_attr(m, fn, "Composite"), "sq", "graft_func_attr: a string attribute");
	ok(graft_func_attr(m, fn, "Primitive") == NULL && graft_name(m, fn) == NULL,
	   "no such attribute; a function literal has no global's name");
	mainfn = m->globals[0].fn;
	is_str(graft_name(m, mainfn), "main", "graft_name: a global function's name");

	/* constants */
	ok(graft_kind(m, two) == GRAFT_NK_CONST && graft_is_scalar(m, two) && graft_is_splat(m, two),
	   "2f is a constant scalar, and so a splat");
	ok(graft_const_data(m, two) && *(const float *)graft_const_data(m, two) == 2.0f, "graft_const_data: its value");
	ok(!graft_is_scalar(m, clip) && graft_const_data(m, clip) == NULL, "a call is no constant");
	is_str(graft_symstr(m, 0), "", "graft_symstr: symbol 0 is the empty string");

	/* handles the module has not, and operands and attributes a node has
	   not, read as none, never out of bounds (ASan checks) */
	ok(graft_kind(m, 0xfffffff0u) == GRAFT_NK_NONE && graft_nargs(m, 0xfffffff0u) == 0 &&
	   graft_arg(m, 0xfffffff0u, 3) == 0 && graft_rank(m, 0xfffffff0u) == -1 && graft_nuses(m, 0xfffffff0u) == 0 &&
	   !graft_is_scalar(m, 0xfffffff0u) && graft_op_name(m, 0xfffffff0u) == NULL,
	   "a handle past the module's nodes reads as node 0, none");
	ok(graft_arg(m, clip, 7) == 0 && graft_attr_isnone(m, clip, 99) && graft_attr_isnone(m, two, 0) &&
	   graft_attr_i(m, clip, -1) == 0 && !graft_attr_ints_eq(m, two, 0, NULL, 0),
	   "an operand or attribute past a node's own: none");

	/* errors */
	graft_diag_error(&d, "plugin says %d", 42);
	fflush(f);
	ok(d.errors == 1 && strstr(out, "error: plugin says 42"), "graft_diag_error: counted and printed");

	ir_diag_free(&d);
	fclose(f);
	free(out);
	ir_module_free(m);
	return done_testing();
}
