/*
** ops.c: the ONNX op table and its converters, one per ONNX op.
**
** A converter reads its node's attributes (with the ONNX spec's defaults,
** per opset where they changed), checks what graft cannot express (a
** dynamic shape input, an unsupported mode), and builds the Relay calls
** through onnx_mk(), which infers each call's type as it goes, so that a
** later converter can read shapes.  Constant inputs that ONNX passes as
** tensors (Reshape's shape, Slice's starts) must be initializers or
** Constant outputs: graft has no dynamic shapes.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "onnxi.h"

/* ---------------------------------------------------------------- converters */

/* relu: Relu -> nn.relu */
static int
relu(Imp *im, const NodeId *in, int nin, NodeId *out, int nout)
{
	return (out[0] = onnx_mk(im, OP_NN_RELU, in, 1, 0)) ? 0 : -1;
}

/* ---------------------------------------------------------------- table */

/* ORDER by name (strcmp): onnx_op_find searches it by halves */
const OpEntry onnx_ops[] = {
	{ "Relu", 1, 1, 1, 1, relu },
};
const int onnx_nops = (int)(sizeof onnx_ops / sizeof onnx_ops[0]);

static int
cmpop(const void *key, const void *e)
{
	return strcmp((const char *)key, ((const OpEntry *)e)->name);
}

/* onnx_op_find: see onnxi.h */
const OpEntry *
onnx_op_find(const char *name)
{
	return name ? bsearch(name, onnx_ops, (size_t)onnx_nops, sizeof *onnx_ops, cmpop) : NULL;
}
