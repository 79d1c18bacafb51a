/*
** graph.h: reading a module's graph from outside libgraft, for a plugin's
** code (extern predicates, codegens) and graftc's generated matchers: an
** opaque graft_ir, its nodes by 32-bit handle, and functions that answer
** one question each, so that the IR's layout stays graft's own.  A
** graft_ir is valid while graft hands it over (to a predicate, a
** codegen): keep handles, not pointers into it, and only for that long.
** A handle it has not, an operand or attribute past a node's own, read
** as none (node 0, None).
** Installed as <graft/graph.h>.
*/
#ifndef GRAFT_GRAPH_H
#define GRAFT_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct graft_ir graft_ir;       /* a module's graph */
typedef struct graft_diag graft_diag;   /* where a step reports errors */
typedef uint32_t graft_node;            /* a node of a graft_ir; 0 is none */
typedef uint32_t graft_sym;             /* a string interned in a graft_ir */

/* What a node is (graft_kind()); its operands (graft_arg()) by kind:
** CALL, the call's operands; CALLFN, the callee and then the operands;
** TUPLE, the fields; GETITEM, the tuple; FUNC, the parameters (VARs) and
** then the body. */
enum {
	GRAFT_NK_NONE,          /* node 0 */
	GRAFT_NK_VAR,           /* a variable or a function's parameter */
	GRAFT_NK_CONST,         /* a constant tensor */
	GRAFT_NK_CALL,          /* a call of an op */
	GRAFT_NK_CALLFN,        /* a call of a function */
	GRAFT_NK_TUPLE,
	GRAFT_NK_GETITEM,       /* a field of a tuple */
	GRAFT_NK_FUNC,          /* a function */
	GRAFT_NK_GLOBAL,        /* a reference to a global function, @name */
	GRAFT_NK_DEAD,          /* removed */
};

/* An op's fusion pattern (TVM's TOpPattern, by its values). */
enum {
	GRAFT_OPK_ELEMWISE = 0,
	GRAFT_OPK_BROADCAST = 1,
	GRAFT_OPK_INJECTIVE = 2,
	GRAFT_OPK_COMM_REDUCE = 3,
	GRAFT_OPK_OUT_ELEMWISE_FUSABLE = 4,
	GRAFT_OPK_TUPLE = 7,
	GRAFT_OPK_OPAQUE = 8,
};

/* graft_dtype() of a node whose value is no tensor (a tuple, a
** function); the tensors' dtypes are <graft/kernel.h>'s GRAFT_DT_ codes. */
#define GRAFT_DT_OTHER 12
/* The most dims a tensor has. */
#define GRAFT_MAX_RANK 8

/* ---------------------------------------------------------------- nodes */

/* The number of nodes: handles are 1 .. graft_nnodes(m) - 1. */
uint32_t graft_nnodes(const graft_ir *m);
/* n's kind, GRAFT_NK_*. */
int graft_kind(const graft_ir *m, graft_node n);
/* n's operands (above, by kind), and operand i of them. */
uint32_t graft_nargs(const graft_ir *m, graft_node n);
graft_node graft_arg(const graft_ir *m, graft_node n, uint32_t i);
/* A GETITEM's field index (0 for another kind). */
uint32_t graft_index(const graft_ir *m, graft_node n);
/* How many operand slots of live nodes name n (a rule's uses(x)). */
uint32_t graft_nuses(const graft_ir *m, graft_node n);
/* The name of the op n calls ("nn.conv2d", "acme.clip_cast"), or NULL
** when n is no call; its fusion pattern (GRAFT_OPK_*), GRAFT_OPK_OPAQUE
** when n is no call. */
const char *graft_op_name(const graft_ir *m, graft_node n);
int graft_op_kind(const graft_ir *m, graft_node n);
/* A VAR's name, a GLOBAL's name, or a FUNC's global name (NULL for a
** function that is no global's). */
const char *graft_name(const graft_ir *m, graft_node n);
/* A FUNC's or CALLFN's attribute key, when a string (Composite="add"), or NULL. */
const char *graft_func_attr(const graft_ir *m, graft_node fn, const char *key);

/* ---------------------------------------------------------------- types */

/* n's dtype, a GRAFT_DT_ code, or GRAFT_DT_OTHER for what is no tensor;
** its rank, or -1; its dims (rank of them; -1 for one unknown), or NULL. */
int graft_dtype(const graft_ir *m, graft_node n);
int graft_rank(const graft_ir *m, graft_node n);
const int64_t *graft_dims(const graft_ir *m, graft_node n);
/* n's element count, or -1 when it is no tensor or a dim is unknown. */
int64_t graft_numel(const graft_ir *m, graft_node n);
/* Whether n is a tensor of this rank whose dims equal dims[] (-1: any). */
int graft_shape_is(const graft_ir *m, graft_node n, uint32_t rank, const int64_t *dims);
/* ... and equal exactly, unknown dims included. */
int graft_shape_eq(const graft_ir *m, graft_node n, const int64_t *dims, uint32_t rank);
/* n's type as graft prints it ("Tensor[(1, 3), int8]") into buf, cut to
** size bytes, NUL-terminated; returns buf. */
char *graft_type_str(const graft_ir *m, graft_node n, char *buf, size_t size);

/* Whether n is a constant of one element; of elements that all have one
** value. */
int graft_is_scalar(const graft_ir *m, graft_node n);
int graft_is_splat(const graft_ir *m, graft_node n);
/* A constant's data, dense row-major elements of graft_dtype(m, n), or
** NULL when n is no constant. */
const void *graft_const_data(const graft_ir *m, graft_node n);

/* ---------------------------------------------------------------- attributes */

/* A call's attribute k, by its index in the op's schema: an int, bool or
** dtype (its GRAFT_DT_ code); a float; a string, as an interned symbol
** (graft_symstr()).  Reading a field as another kind than it holds gives
** an unspecified value. */
int64_t graft_attr_i(const graft_ir *m, graft_node n, int k);
double graft_attr_f(const graft_ir *m, graft_node n, int k);
graft_sym graft_attr_s(const graft_ir *m, graft_node n, int k);
/* Whether attribute k is None (an optional field left out). */
int graft_attr_isnone(const graft_ir *m, graft_node n, int k);
/* Whether attribute k is the list of ints [v[0], ..., v[len - 1]]. */
int graft_attr_ints_eq(const graft_ir *m, graft_node n, int k, const int64_t *v, uint32_t len);
/* Whether attribute ka of a equals attribute kb of b. */
int graft_attr_same(const graft_ir *m, graft_node a, int ka, graft_node b, int kb);
/* The text of a symbol. */
const char *graft_symstr(const graft_ir *m, graft_sym s);

/* Reports an error through d, where the step that called the plugin
** sends its diagnostics. */
void graft_diag_error(graft_diag *d, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

#ifdef __cplusplus
}
#endif

#endif
