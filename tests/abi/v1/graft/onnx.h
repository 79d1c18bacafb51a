/*
** onnx.h: the ONNX frontend, graft's importer for ONNX models.
**
** onnx_import reads an ONNX model file (protobuf, the default domain at
** opsets 6 to 21) into a Module as def @main: one parameter per graph
** input that is not an initializer, named after the ONNX value (made a
** valid Relay name), initializers as constants with their data, each
** node as the Relay ops that compute it (docs/onnx.md lists the mapping).
** Shapes must be static.  Errors are reported through the Diag as
** "MODEL.onnx: error: node 'NAME' (OpType): message"; every op the
** importer does not know is listed in one error.
**
** Ownership: the Module owns all it is given; nothing is kept of the
** file once onnx_import returns.
*/
#ifndef GRAFT_ONNX_H
#define GRAFT_ONNX_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ir.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
** onnx_import: reads the ONNX model at path into m (which holds no @main
** yet), reporting through d.  Returns the number of errors reported; m
** holds a complete @main only when that is 0.
*/
int onnx_import(Module *m, const char *path, Diag *d);

/*
** Freezing graph inputs.  A value given for a graph input (by its ONNX
** name, or by the name of the @main parameter it would become) makes the
** input a constant holding that value, as TVM's from_onnx(...,
** freeze_params=True) does: the converters that need a constant (a
** Reshape's shape, Clip's bounds, a zero point) and the shape
** computations that fold at import then see it.  ONNX_FREEZE_ALL freezes
** every input given (graft --bind, --params); ONNX_FREEZE_NEEDED only
** those that some converter needs as a constant, directly or through a
** computation (graft run --input): the others stay parameters, to be
** given at run time.
*/
typedef struct OnnxBind {
	const char *name;
	const Tensor *t;
} OnnxBind;

enum { ONNX_FREEZE_ALL, ONNX_FREEZE_NEEDED };

typedef struct OnnxOpts {
	const OnnxBind *bind;   /* values for graph inputs */
	int nbind;
	int freeze;             /* ONNX_FREEZE_ALL or ONNX_FREEZE_NEEDED */
	FILE *stats;            /* if not NULL: how each ONNX op mapped, a table */
	uint8_t *frozen;        /* out, if not NULL: for each value, 1 if the
	                           import made its input a constant, 2 if it
	                           names a graph input left a parameter (or
	                           refused), 0 if it names none */
} OnnxOpts;

/*
** onnx_import_with: onnx_import, freezing the graph inputs o gives
** values for (o may be NULL).  A value frozen whose dtype or shape is not
** its input's is an error; one that names no graph input is left alone
** (o->frozen tells the caller).
*/
int onnx_import_with(Module *m, const char *path, const OnnxOpts *o, Diag *d);

/*
** onnx_read_tensor: reads a serialized TensorProto (a .pb file of ONNX's
** test data) into *t, whose data the caller frees with ir_tensor_free().
** Returns 0, or -1 with "PATH: error: message" (no newline) in err and *t
** cleared.
*/
int onnx_read_tensor(const char *path, Tensor *t, char *err, size_t errsz);

/* onnx_relay_name: an ONNX value name as the importer names the @main
** parameter it becomes ([A-Za-z_][A-Za-z0-9_.]*, no dot before a digit),
** before it is made unique; into b[0..size) */
void onnx_relay_name(const char *name, char *b, size_t size);

/* onnx_is_model: whether path names an ONNX model (ends in .onnx) */
int onnx_is_model(const char *path);

#ifdef __cplusplus
}
#endif

#endif
