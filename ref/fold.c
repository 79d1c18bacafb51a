/*
** fold.c: exact constant evaluation, the fold_const of graft's rules
** language, by the reference interpreter (interp.c) in its exact mode:
** ref_fold() hands the subtree to ref_evalconst(), which compiles it like a
** function, runs it with kernels that refuse whatever TVM does not define
** bit for bit, and makes one constant of the root's value.  Nothing else
** is added to the module, and a subtree that cannot be evaluated exactly
** leaves it unchanged.  What "exactly" means op by op, and which TVM
** sources each rule follows, is told at the top of ref/ops.c.
**
** The common fold, qnn.quantize of a float32 constant by per-tensor
** parameters, takes a fast path (ref_quickquantize_data) with the same
** arithmetic, straight into the new constant.
*/
#include <stdint.h>
#include <stddef.h>

#include "refi.h"

/* ---------------------------------------------------------------- shapes */

void
ref_strides(const int64_t *dims, int rank, int64_t *strides)
{
	int64_t s = 1;

	for (int k = rank - 1; k >= 0; k--) {
		strides[k] = s;
		s *= dims[k];
	}
}

int
ref_bcast_strides(const int64_t *dims, int rank, const int64_t *odims, int orank,
                      int64_t *strides)
{
	int64_t own[IR_MAXDIMS];

	if (rank > orank || rank > IR_MAXDIMS || orank > IR_MAXDIMS)
		return 0;
	ref_strides(dims, rank, own);
	for (int k = 0; k < orank; k++) {
		int j = k - (orank - rank);
		if (j < 0 || dims[j] == 1)
			strides[k] = 0;
		else if (dims[j] == odims[k])
			strides[k] = own[j];
		else
			return 0;
	}
	return 1;
}

int
ref_fold_data(Module *m, NodeId n, void **data)
{
	if (!n || n >= m->nnodes)
		return -1;
	return ref_quickquantize_data(m, n, data);
}

NodeId
ref_fold(Module *m, NodeId n)
{
	void *data;
	int st;

	if (!n || n >= m->nnodes)
		return 0;
	if ((st = ref_quickquantize_data(m, n, &data)) >= 0)
		return st ? ir_const_own(m, m->nodes[n].type, data, m->locs[n]) : 0;
	return ref_evalconst(m, n);
}
