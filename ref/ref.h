/*
** ref.h: graft's reference semantics, the layer every other rests on for
** numbers: the interpreter that defines what each op of ir/ops.def
** computes (ops.c, with the TVM sources each rule follows), exact constant
** folding (the fold_const of the rules language, fold.c) and the
** fixed-point arithmetic every backend shares.  The rewrite driver folds
** through it, `graftc verify` and every backend test compare against it,
** and the ref backend (backends/ref) runs models with it.
**
** Ownership: a value's tensor data is either borrowed (rc NULL: a
** constant's data, an input tensor) or held through a reference count
** shared by every value that aliases it; ref_vdrop() releases one hold.
** A RefProg owns copies of everything it reads at run time.
*/
#ifndef GRAFT_REF_H
#define GRAFT_REF_H

#include <stddef.h>
#include <stdint.h>

#include "ir.h"
#include "kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- folding */

/* Evaluates the subtree rooted at n, whose leaves must all be constants with
** data (Const.data != NULL), into one new NK_CONST node with n's inferred type
** (Node.type, already set) and n's location, exactly as TVM computes it.
** Returns 0 and creates no node if a leaf is not a constant with data, an op
** in the subtree is not supported, or the result would not be exactly
** defined (integer overflow where the op does not define wrapping, float ->
** int cast out of range or NaN, division by zero in integers).  Nodes are
** visited iteratively (no recursion over operands). */
NodeId ref_fold(Module *m, NodeId n);

/* ref_fold()'s fast path alone (qnn.quantize of a float32 constant by one
** scale and zero point), with no node: 1 and *data, n's value in
** Module.data for a constant of n's type; 0 if the result would not be
** exact; -1 if n is not that case (ref_fold() may still fold it). */
int ref_fold_data(Module *m, NodeId n, void **data);

/* The row-major strides, in elements, of a tensor of the rank dims:
** strides[rank - 1] = 1. */
void ref_strides(const int64_t *dims, int rank, int64_t *strides);

/* The strides, in elements, with which an operand of the rank dims is read
** when numpy broadcasting stretches it to the orank odims: the operand's
** axes align with the last ones of the result, and an axis of size 1 (or a
** missing one) reads with stride 0.  Returns 1, or 0 if the shapes do not
** broadcast to odims. */
int ref_bcast_strides(const int64_t *dims, int rank, const int64_t *odims, int orank,
                      int64_t *strides);

/* ---------------------------------------------------------------- indexing */

/* How take and gather read their data, which every backend follows: the
** result's element at multi-index o reads indices at sum(o[k] * ist[k])
** and data at sum(o[k] * dst[k]) + j * astride, where j is that index
** made an index into an axis of n elements by mode:
**   REF_IX_CLIP  clamped to [0, n - 1] (take's "clip": -1 gives 0)
**   REF_IX_WRAP  ((v % n) + n) % n, C's truncating % (take's "wrap")
**   REF_IX_FAST  v itself, which must be in [0, n) (take's "fast")
**   REF_IX_NEG   v + n if v < 0, which must then be in [0, n) (gather)
** An index outside the range is a run-time error on every backend. */
enum { REF_IX_CLIP, REF_IX_WRAP, REF_IX_FAST, REF_IX_NEG };

typedef struct RefIndex {
	int mode;               /* REF_IX_* */
	int rank;               /* the result's rank */
	int64_t n;              /* the length of the indexed axis */
	int64_t astride;        /* the data's stride along it */
	int64_t ist[IR_MAXDIMS];   /* per dim of the result: its stride in indices */
	int64_t dst[IR_MAXDIMS];   /* and in data */
} RefIndex;

/* The plan of take or gather (op) with the attributes attrs (its call's
** in Module.attrs) on data of xr dims xd and indices of ir dims id;
** 0 if the operands do not fit the op. */
int ref_index_plan(const Module *m, OpId op, const AttrVal *attrs, const int64_t *xd, int xr,
                   const int64_t *id, int ir, RefIndex *p);

/* Index value v made an index into p's axis; -1 if out of range. */
int64_t ref_index(const RefIndex *p, int64_t v);

/* ---------------------------------------------------------------- resizing */

/* How image.resize2d reads its data (topi's image/resize.py, in float32),
** which every backend follows.  Along H and along W alike, output index o
** of an axis of n inputs resized to out reads the input indices
** idx[o * taps + k], k < taps, clamped to [0, n), with the float32
** weights w[o * taps + k], all worked out from the input coordinate x of
** o (coordinate_transformation_mode, computed in float32):
**   REF_RS_NEAREST  1 tap of weight 1: x rounded by rounding_method
**   REF_RS_LINEAR   2: floor(x) and floor(x) + 1, weighing 1 - t and t
**                   (t = x - floor(x))
**   REF_RS_CUBIC    4: floor(x) - 1 .. floor(x) + 2, the cubic convolution
**                   weights of t with cubic_alpha (cubic_exclude: taps
**                   outside [0, n) weigh 0, the others divided by their sum)
** A nearest result is its tap's element converted as cast converts it.
** Otherwise each element read is converted to float32 (a float64 rounded),
** each of H's taps j sums its row along W, r_j = p_j0 * w0 + p_j1 * w1
** (linear) or (((+0 + p_j0 * w0) + p_j1 * w1) + p_j2 * w2) + p_j3 * w3
** (cubic), and the rows are summed the same way with H's weights, every
** step rounded to float32; that value is cast to the result's dtype. */
enum { REF_RS_NEAREST, REF_RS_LINEAR, REF_RS_CUBIC };

typedef struct RefResize {
	int method;             /* REF_RS_* */
	int taps;               /* per output index: 1, 2 or 4 */
	const char *coord;      /* coordinate_transformation_mode */
	const char *rounding;   /* rounding_method ("": TVM's default made explicit) */
	float alpha;            /* cubic_alpha */
	int exclude;            /* cubic_exclude */
	int pos[4];             /* the axes of N, C, H and W in the layout */
} RefResize;

/* The resize of an image.resize2d call whose attributes are attrs (in
** m->attrs; its strings stay m's) into *p: NULL, or the name of the
** attribute whose value no backend runs (coordinate_transformation_mode
** tf_crop_and_resize, an unknown mode or rounding method; a layout that
** is not NCHW's letters). */
const char *ref_resize_mode(const Module *m, const AttrVal *attrs, RefResize *p);

/* The taps of an axis of n inputs resized to out under p into
** idx[0 .. out * p->taps) and w[0 .. out * p->taps). */
void ref_resize_taps(const RefResize *p, int64_t n, int64_t out, int64_t *idx, float *w);

/* ---------------------------------------------------------------- normalization */

/* How nn.layer_norm, nn.group_norm and nn.instance_norm group their data,
** which every backend follows.  The data, viewed as [outer][r1][k][r2]
** in row-major order, is normalized over (r1, r2) for each (outer, k):
** the mean of those r1 * r2 elements, then their variance, the mean of
** (x - mean)^2, each summed from +0 in row-major order in double; then
** each element becomes (x - mean) / sqrt(var + epsilon), times gamma
** (with scale), plus beta (with center), at its channel (flat index /
** cinner) % channels, in double and rounded once to the data's dtype.
** As TVM's SimplifyInference lowers them:
**   layer_norm     outer: the axes before axis; r1: axis; k: the axes
**                  after it; r2 = 1
**   group_norm     outer: the axes before axis, times num_groups; r1: the
**                  group's channels times the axes after axis; k = r2 = 1
**   instance_norm  outer: axis 0; r1: the axes between 0 and axis; k:
**                  axis; r2: the axes after it (axis 0: outer = r1 = 1) */
typedef struct RefNorm {
	int64_t outer, r1, k, r2;
	int64_t channels;       /* the length of gamma and beta */
	int64_t cinner;         /* the elements after the channel axis */
	double epsilon;
	int scale, center;      /* whether gamma, beta apply */
} RefNorm;

/* The plan of the normalization op with the attributes attrs (its call's
** in Module.attrs) on data of xr dims xd; 0 if they do not fit the op. */
int ref_norm_plan(OpId op, const AttrVal *attrs, const int64_t *xd, int xr, RefNorm *p);

/* ---------------------------------------------------------------- fixed point */

/* A Q31 fixed-point multiplier: d = mul * 2^(shift - 31), mul in
** [2^30, 2^31) (0 for d = 0), as TVM's GetFixedPointMultiplierShift makes
** it for qnn.requantize and the ops lowered to it.  Every backend takes it
** from ref_fixed(), so that they agree on it bit for bit. */
typedef struct RefFixed {
	int32_t mul;
	int32_t shift;
} RefFixed;

/* The multiplier of d into *f; 0 (and *f zero) if d is not finite. */
int ref_fixed(double d, RefFixed *f);

/* d rounded to float16 (to nearest, ties to even; every NaN 0x7e00), as
** the reference stores a float16 result: the backends round constants
** that meet float16 data with it. */
uint16_t ref_f16(double d);

/* ---------------------------------------------------------------- values */

enum {
	RV_NONE,        /* an empty slot */
	RV_TENSOR,      /* dt, rank, dims, n, data (rc: its hold) */
	RV_TUPLE,       /* nf fields at f (owned) */
};

typedef struct RefVal {
	uint8_t kind;       /* RV_* */
	uint8_t dt;         /* DType */
	uint16_t rank;
	uint32_t nf;
	int64_t n;          /* element count */
	int64_t dims[IR_MAXDIMS];
	unsigned char *data;
	int64_t *rc;        /* the hold count of data; NULL when borrowed */
	struct RefVal *f;   /* RV_TUPLE: the fields */
} RefVal;

void ref_vdrop(RefVal *v);                 /* releases v's holds; v empty */
void ref_vcopy(RefVal *dst, const RefVal *src);   /* a new hold on src */
/* Sets v to an empty tensor of tensor type t; 0 unless t is a tensor of
** known dims, at most IR_MAXDIMS of them. */
int ref_vshape(const Module *m, TypeId t, RefVal *v);
void ref_valloc(RefVal *v);                /* gives v fresh data, held once */

/* ---------------------------------------------------------------- registered ops */

/* Gives registered op op its C kernel (kernel.h): fn, which the ref
** backend and constant folding call, and the exported symbol it is known
** by, which the code the c and llvm backends generate calls (copied).
** Returns 1, or 0 with a message in err: op is not a registered op or has
** a kernel already, symbol is not a C identifier, the op's schema has an
** ints2 field, or its result is not one tensor (a tuple op). */
int ref_ckernel_register(OpId op, graft_kernel *fn, const char *symbol, char *err, size_t nerr);

/* The C kernel of op, and its symbol in *symbol; NULL if it has none. */
graft_kernel *ref_ckernel(OpId op, const char **symbol);

/* ---------------------------------------------------------------- programs */

/* A function compiled for the interpreter, with every function it calls
** (partitions and composite functions alike). */
typedef struct graft_ref_prog RefProg;   /* <graft/codegen.h>: graft_ref_prog */

/* Compiles fn, an NK_FUNC of the typed module m (ir_infer_types done).
** Returns NULL after reporting through d (an op or dtype the interpreter
** does not run).  The module may change or be freed afterwards. */
RefProg *ref_prepare(const Module *m, NodeId fn, Diag *d);
uint32_t ref_nparams(const RefProg *p);

/* Global functions that something else runs (a plugin's codegen runs its
** target's partitions): ref_prepare_ext() calls claim() once for each
** global function the program calls.  A handle (not NULL) makes every call
** of that function run(handle, args, res) instead of interpreting it: res
** is RV_NONE on entry, and run() fills it with fresh data, or reports
** through d and returns nonzero.  NULL with *failed left 0: interpreted as
** usual; *failed set: an error claim() reported through d.  release() is
** called for each handle when the program is released. */
typedef struct RefExt {
	void *(*claim)(void *ctx, const Module *m, NodeId fn, Diag *d, int *failed);
	int (*run)(void *ctx, void *h, const RefVal *const *args, uint32_t nargs, RefVal *res, Diag *d);
	void (*release)(void *ctx, void *h);
	void *ctx;
} RefExt;

RefProg *ref_prepare_ext(const Module *m, NodeId fn, const RefExt *ext, Diag *d);
/* Runs p on args[0..ref_nparams(p)) (borrowed) into *res (RV_NONE on
** entry; fresh, released with ref_vdrop()).  Returns 0, or 1 after
** reporting a run-time error (an integer division by zero) through d. */
int ref_run(RefProg *p, const RefVal *const *args, RefVal *res, Diag *d);
void ref_release(RefProg *p);

#ifdef __cplusplus
}
#endif

#endif
