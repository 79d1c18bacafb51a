/*
** externs.c: the C predicate and action that tests/rules/lang.rules
** declares with extern.
*/
#include "lang.h"

/* same_shape: a and b have the same type */
int
graft_pred_same_shape(graft_rw *rw, graft_node root, graft_node a, graft_node b)
{
	(void)root;
	return rw->m->nodes[a].type == rw->m->nodes[b].type;
}

/* double_it: x + x, or no rewrite for a non-float x */
graft_node
graft_action_double_it(graft_rw *rw, graft_node root, graft_node x)
{
	graft_node args[2] = { x, x };
	(void)root;
	if (rw_dtype(rw->m, x) != DT_FLOAT32)
		return 0;
	return rw_call(rw, OP_ADD, args, 2, 0);
}
