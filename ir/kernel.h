/*
** kernel.h: the C kernel of a plugin's op, the one definition of what it
** computes, which every backend runs: ref through its pointer, the code c
** and llvm write by its symbol (the JIT binds it to the plugin; an object
** file leaves it to the linker).  graft_plugin_add_op() registers it.  It
** stands alone (<stdint.h> only): a kernel's source, and the C graft
** writes, include it without linking graft.  Installed as <graft/kernel.h>.
**
**   int KERNEL(const graft_tensor *in, uint32_t nin,
**              graft_tensor *out, uint32_t nout, const graft_attr *attrs);
**
**   - in[0..nin): the operands, dense row-major, as the type relation
**     accepted them; read-only (they may be the model's constants).
**   - out[0..nout): the result (nout is 1), as the relation gave it, its
**     data room that overlaps no operand; the kernel writes every element.
**   - attrs: one per field of the op's schema, in order, defaults filled.
**   - All of it is valid during the call only.  It returns 0, or nonzero
**     for a value it cannot compute: the run fails on every backend.
**   - It is pure (no state between calls) and may run on several threads
**     at once: every backend gives the same bits as each calls it.
*/
#ifndef GRAFT_KERNEL_H
#define GRAFT_KERNEL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Element types, by codes that never change (graft's own DType follows
** them).  bool is one byte, 0 or 1; float16 is IEEE binary16's bits. */
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

/* (backends/c/cgen.c writes graft_tensor and graft_attr into its C too) */
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
