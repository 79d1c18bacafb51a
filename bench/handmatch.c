/*
** handmatch.c: the benchmark's baseline, a matcher for the rules of
** rulesets/canonicalize.rules written by hand in C, the way one would
** without graftc: a switch on the op, then direct tests.  It makes the same
** matches and calls the same builders as the generated matcher, so the two
** can be timed against each other on the same IR.
*/
#include "handmatch.h"

/* requant: cast(clip(qnn.requantize(x, ..., out_dtype=int32), lo, hi), dt) */
static NodeId
requant(Rw *rw, NodeId v, double lo, double hi, int dt, uint32_t *rule, uint32_t id)
{
	const Module *m = rw->m;
	NodeId c, r;
	AttrId a;

	c = rw_arg(m, v, 0);
	if (rw_op(m, c) != OP_CLIP || rw_attr_f(m, c, 0) != lo || rw_attr_f(m, c, 1) != hi)
		return 0;
	r = rw_arg(m, c, 0);
	if (rw_op(m, r) != OP_QNN_REQUANTIZE || rw_attr_i(m, r, 3) != DT_INT32)
		return 0;
	a = rw_attrs_copy(rw, OP_QNN_REQUANTIZE, r);
	rw_set_dtype(rw, a, 3, dt);
	{
		NodeId args[5] = { rw_arg(m, r, 0), rw_arg(m, r, 1), rw_arg(m, r, 2), rw_arg(m, r, 3), rw_arg(m, r, 4) };
		NodeId res = rw_call(rw, OP_QNN_REQUANTIZE, args, 5, a);
		if (res && !rw->gfail)
			*rule = id;
		return res;
	}
}

NodeId
bench_handmatch(Rw *rw, NodeId v, uint32_t *rule)
{
	const Module *m = rw->m;

	switch (rw_op(m, v)) {
	case OP_QNN_QUANTIZE:
		if (rw_kind(m, rw_arg(m, v, 0)) == NK_CONST && rw_kind(m, rw_arg(m, v, 1)) == NK_CONST &&
		    rw_kind(m, rw_arg(m, v, 2)) == NK_CONST) {
			NodeId r = rw_fold(rw, v);
			if (r)
				*rule = 0;
			return r;
		}
		return 0;
	case OP_CAST:
		if (rw_attr_i(m, v, 0) == DT_UINT8)
			return requant(rw, v, 0.0, 255.0, DT_UINT8, rule, 1);
		if (rw_attr_i(m, v, 0) == DT_INT8)
			return requant(rw, v, -128.0, 127.0, DT_INT8, rule, 2);
		return 0;
	default:
		return 0;
	}
}
