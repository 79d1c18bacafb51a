/*
** kernel.h: the C kernel of a plugin's op, the one definition of what the
** op computes that every backend runs: the ref backend calls it through
** its function pointer, the c backend's generated code declares and calls
** it by its symbol name, the llvm backend's code calls that symbol (the
** JIT binds it to the loaded plugin; an object file leaves it for the
** linker).  A plugin registers it with graft_plugin_add_kernel_op()
** (plugin.h): the function pointer and the exported symbol it is known by.
**
** This header stands alone (it needs only <stdint.h>, and nothing of
** libgraft): a kernel's own source, and the C that graft generates, can
** include it without linking graft.  Installed as <graft/kernel.h>.
**
** The kernel is
**
**   int KERNEL(const graft_tensor *in, uint32_t nin,
**              graft_tensor *out, uint32_t nout, const graft_attr *attrs);
**
** and its rules:
**   - in[0..nin): the call's operands, in order, dense row-major tensors
**     of the dtypes and shapes the op's type relation accepted.  Their
**     data is read-only (it may be a constant of the model's).
**   - out[0..nout): the call's result (nout is 1: an op's result is one
**     tensor), its dtype and shape those the type relation gave, its data
**     room for that many elements, never overlapping an operand.  The
**     kernel writes every element; what it holds before is unspecified.
**   - attrs: the call's attributes, one per field of the op's schema, in
**     schema order, defaults filled in (graft_attr below).
**   - Everything it is given is valid during the call only.
**   - It returns 0, or nonzero for a run-time error (a value it cannot
**     compute): the run then fails on every backend (the generated code
**     of the c and llvm backends returns with bit 4 set), its results
**     unspecified.
**   - It is a pure function of its operands and attributes: no state kept
**     between calls, and it may run on several threads at once (different
**     runs of the model).  Every backend gives the same bits because each
**     calls this same function.
*/
#ifndef GRAFT_KERNEL_H
#define GRAFT_KERNEL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Element types, by fixed codes that never change (ir.h's DType has the
** same values: passes/rules.c asserts it).  bool is one byte, 0 or 1;
** float16 is IEEE binary16, its bits in a uint16_t. */
enum {
	GRAFT_DT_BOOL = 1,
	GRAFT_DT_INT8 = 2,
	GRAFT_DT_UINT8 = 3,
	GRAFT_DT_INT16 = 4,
	GRAFT_DT_UINT16 = 5,
	GRAFT_DT_INT32 = 6,
	GRAFT_DT_UINT32 = 7,
	GRAFT_DT_INT64 = 8,
	GRAFT_DT_FLOAT16 = 9,
	GRAFT_DT_FLOAT32 = 10,
	GRAFT_DT_FLOAT64 = 11,
};

/* backends/c/cgen.c's kdecls() writes graft_tensor and graft_attr into
** the C it generates, under this header's guard: change both together. */

/* One tensor: rank dims at shape, elements of dtype (GRAFT_DT_*) at data. */
typedef struct graft_tensor {
	void *data;
	const int64_t *shape;
	int32_t rank;
	int32_t dtype;
} graft_tensor;

/* The kinds of attribute value; each says which fields of graft_attr it
** sets (the others are 0 or NULL). */
enum {
	GRAFT_ATTR_NONE = 0,    /* None (an optional attribute left out) */
	GRAFT_ATTR_INT = 1,     /* i: int, bool (0 or 1), dtype (its GRAFT_DT_ code) */
	GRAFT_ATTR_FLOAT = 2,   /* f */
	GRAFT_ATTR_INTS = 3,    /* n, ints: [int, ...] */
	GRAFT_ATTR_FLOATS = 4,  /* n, floats: [float, ...] */
	GRAFT_ATTR_STRING = 5,  /* n, s: n bytes, then a NUL */
};

/* One attribute of a call.  An int_or_ints field passes whichever it
** holds; an ints2 field is not passed to kernels (registration refuses
** it). */
typedef struct graft_attr {
	int32_t kind;           /* GRAFT_ATTR_* */
	int32_t n;              /* INTS, FLOATS: elements; STRING: bytes */
	int64_t i;              /* INT */
	double f;               /* FLOAT */
	const int64_t *ints;    /* INTS */
	const double *floats;   /* FLOATS */
	const char *s;          /* STRING */
} graft_attr;

/* A kernel, as above. */
typedef int graft_kernel(const graft_tensor *in, uint32_t nin, graft_tensor *out, uint32_t nout,
                         const graft_attr *attrs);

#ifdef __cplusplus
}
#endif

#endif
