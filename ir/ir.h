/*
** ir.h: graft's one IR header.
**
** A module is a dataflow graph in the spirit of TVM Relay: variables,
** constants, operator calls, tuples, tuple projections and function
** literals, plus named global functions (@main and the functions a
** partitioner outlines).  Everything a module owns lives in arrays inside
** the Module and is referred to by 32-bit handles, never by pointers:
**
**   NodeId  index into Module.nodes    (0 = no node)
**   TypeId  index into Module.types    (0 = unknown type)
**   Sym     index into Module.syms     (0 = the empty string)
**   AttrId  index into Module.attrs    (0 = no attributes)
**
** Types and strings are interned, so equal handles mean equal values.
**
** Ownership: a Module owns every node, type, string, attribute and
** constant buffer reachable from it; ir_module_free() releases them all at
** once.  Functions that take a Module never keep pointers into its arrays
** across a call that may add to them (arrays grow by reallocation).
*/
#ifndef GRAFT_IR_H
#define GRAFT_IR_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "graph.h"      /* <graft/graph.h>: the public readers, over these types */
#include "opdef.h"      /* <graft/opdef.h>: what a plugin defines its ops with */

#ifdef __cplusplus
extern "C" {
#endif

typedef uint32_t NodeId;
typedef uint32_t TypeId;
typedef uint32_t Sym;
/* a slot of the symbol table: the symbol + 1 (0 when empty) and its hash */
typedef struct SymSlot { uint32_t sym1, h; } SymSlot;
/* A slot of the table of interned attribute runs (attr.c): where the run
** starts (0 = empty slot), its length and its hash. */
typedef struct AttrSlot { uint32_t first, n, h; } AttrSlot;
typedef struct RelMemo RelMemo;     /* infer.c */
typedef uint32_t AttrId;
typedef uint16_t OpId;

/* ---------------------------------------------------------------- memory */

/* Arena: a bump allocator freed as a whole.  Blocks are never moved, so
** pointers into an arena stay valid until ir_arena_free(). */
typedef struct ArenaBlock ArenaBlock;
typedef struct Arena {
	ArenaBlock *head;
	size_t used;    /* bytes used in head */
	size_t total;   /* bytes handed out, for statistics */
} Arena;

void *ir_arena_alloc(Arena *a, size_t n);   /* 16-byte aligned, zeroed */
void *ir_arena_raw(Arena *a, size_t n);     /* 16-byte aligned, not zeroed */
/* Takes back p, n bytes: the last thing allocated from a. */
void ir_arena_giveback(Arena *a, void *p, size_t n);
char *ir_arena_strdup(Arena *a, const char *s, size_t n);
void ir_arena_free(Arena *a);

/* Growable array of T: ir_vgrow(&p, &cap, need) makes room for `need`
** elements.  Dies on allocation failure (graft treats OOM as fatal). */
void ir_vgrow_(void **p, uint32_t *cap, uint32_t need, size_t esz);
#define ir_vgrow(pp, capp, need) do { \
		if ((need) > *(capp)) \
			ir_vgrow_((void **)(pp), (capp), (need), sizeof **(pp)); \
	} while (0)

void *ir_xmalloc(size_t n);
void *ir_xcalloc(size_t n, size_t sz);
void *ir_xrealloc(void *p, size_t n);
#ifdef __cplusplus
[[noreturn]] void ir_die(const char *fmt, ...);
#else
_Noreturn void ir_die(const char *fmt, ...);
#endif

/* ---------------------------------------------------------------- dtypes */

/* DT(ID, name, bytes, kind): kind is 'b' bool, 'i' signed, 'u' unsigned,
** 'f' float.  ORDER DType: printing and parsing use this table. */
#define IR_DTYPES(DT) \
	DT(BOOL,    "bool",    1, 'b') \
	DT(INT8,    "int8",    1, 'i') \
	DT(UINT8,   "uint8",   1, 'u') \
	DT(INT16,   "int16",   2, 'i') \
	DT(UINT16,  "uint16",  2, 'u') \
	DT(INT32,   "int32",   4, 'i') \
	DT(UINT32,  "uint32",  4, 'u') \
	DT(INT64,   "int64",   8, 'i') \
	DT(FLOAT16, "float16", 2, 'f') \
	DT(FLOAT32, "float32", 4, 'f') \
	DT(FLOAT64, "float64", 8, 'f')

typedef enum DType {
	DT_VOID,        /* no dtype: TVM's NullValue<DataType>, printed "" */
#define DT(id, name, bytes, kind) DT_##id,
	IR_DTYPES(DT)
#undef DT
	DT_COUNT
} DType;

extern const char *const ir_dtype_names[DT_COUNT];
extern const uint8_t ir_dtype_bytes[DT_COUNT];
extern const char ir_dtype_kind[DT_COUNT];
DType ir_dtype_parse(const char *s, size_t n);    /* DT_COUNT if unknown */

/* The smallest and largest values of an integer or bool dtype (only
** those: the interpreter and the backends saturate to them). */
static inline int64_t
ir_dtype_min(DType dt)
{
	int bits = ir_dtype_bytes[dt] * 8;

	if (ir_dtype_kind[dt] != 'i')
		return 0;
	return bits == 64 ? INT64_MIN : -((int64_t)1 << (bits - 1));
}

static inline int64_t
ir_dtype_max(DType dt)
{
	int bits = ir_dtype_bytes[dt] * 8;

	if (dt == DT_BOOL)
		return 1;
	if (ir_dtype_kind[dt] == 'i')
		return bits == 64 ? INT64_MAX : ((int64_t)1 << (bits - 1)) - 1;
	return bits >= 64 ? INT64_MAX : ((int64_t)1 << bits) - 1;
}

/* ---------------------------------------------------------------- tensors */

/* The most dims a tensor value has in the interpreter, the backends and
** the tensor files. */
#define IR_MAXDIMS 8

/* A dense tensor value: row-major, little-endian, no padding between
** elements (bool is one byte, 0 or 1; float16 is IEEE binary16).  What
** runs a model takes and gives them; the tensor files read and write them. */
typedef struct Tensor {
	DType dt;
	uint32_t rank;
	int64_t dims[IR_MAXDIMS];
	unsigned char *data;    /* ir_tensor_bytes() bytes */
} Tensor;

/* The number of elements and of bytes of t's data (0 if a dim is < 0). */
int64_t ir_tensor_numel(const Tensor *t);
size_t ir_tensor_bytes(const Tensor *t);
/* Element i of t as a double (int64 beyond 2^53 rounds). */
double ir_tensor_get(const Tensor *t, int64_t i);
/* Frees t's data and clears it. */
void ir_tensor_free(Tensor *t);

/* The largest tensor graft makes from what a file declares (ONNX's
** ConstantOfShape, say) or allocates to run a model, in bytes: 1 GiB
** unless set (graft --max-tensor-bytes).  Anything larger is refused with
** a message before memory is taken.  ir_tensor_fits: whether numel
** elements of dtype dt are within it. */
uint64_t ir_max_tensor_bytes(void);
void ir_set_max_tensor_bytes(uint64_t n);
int ir_tensor_fits(int64_t numel, DType dt);

/* ---------------------------------------------------------------- types */

typedef enum TypeKind {
	TY_UNKNOWN,     /* the type at TypeId 0 */
	TY_TENSOR,      /* dtype, n = rank, first = index of dims in Module.dims */
	TY_TUPLE,       /* n fields, first = index in Module.tylist */
	TY_FUNC,        /* n params in Module.tylist[first..], return type after them */
} TypeKind;

#define IR_DIM_ANY (-1)     /* a dimension printed as '?' */

typedef struct Type {
	uint8_t kind;       /* TypeKind */
	uint8_t dtype;      /* DType, TY_TENSOR only */
	uint16_t pad_;
	uint32_t n;
	uint32_t first;
} Type;

/* ---------------------------------------------------------------- attributes */

typedef enum AttrKind {
	AV_NONE,        /* None */
	AV_BOOL,        /* i = 0 or 1 */
	AV_INT,         /* i */
	AV_FLOAT,       /* f */
	AV_STR,         /* s */
	AV_DTYPE,       /* i = DType; printed as a quoted string */
	AV_ARRAY,       /* n elements at Module.attrs[first..] */
} AttrKind;

/* One attribute value.  A call's attributes are the n values of its op's
** schema, stored consecutively from its AttrId, in schema order, with
** defaults filled in.  A function's attributes are n values with keys. */
typedef struct AttrVal {
	uint8_t kind;       /* AttrKind */
	uint8_t pad_[3];
	Sym key;            /* function attributes only; 0 elsewhere */
	uint32_t n;         /* AV_ARRAY: element count */
	uint32_t first;     /* AV_ARRAY: index of the first element */
	union {
		int64_t i;      /* AV_BOOL, AV_INT, AV_DTYPE */
		double f;       /* AV_FLOAT */
		Sym s;          /* AV_STR */
	} u;
} AttrVal;

/* Schema field types.  AT_OPT may be or-ed in: None is accepted too. */
typedef enum AttrType {
	AT_INT = 1, AT_FLOAT, AT_BOOL, AT_STR, AT_DTYPE,
	AT_INTS,        /* [int, ...] */
	AT_INTS2,       /* [[int, ...], ...] */
	AT_INT_INTS,    /* an int or [int, ...] */
	AT_FLOATS,      /* [float, ...]; integers are taken as floats */
	AT_OPT = 0x100,     /* or-ed in: None is accepted too */
	AT_ALWAYS = 0x200,  /* or-ed in: always printed, as TVM does for a field
	                       without a default; older dumps that leave it out
	                       get the default given here */
} AttrType;

/* The GRAFT_DT_ code of dt (<graft/kernel.h>): DType's own value, the
** codes being DType's order (ir.c checks), 0 for DT_VOID. */
static inline int32_t
ir_kdtype(DType dt)
{
	return dt < DT_COUNT ? (int32_t)dt : 0;
}

/* The type of a schema field, without AT_ALWAYS (AT_OPT is kept). */
#define AT_TYPE(t) ((t) & ~AT_ALWAYS)

/* A field of a schema: <graft/opdef.h>'s graft_attr_def (name, AttrType,
** default as Relay text; NULL = required). */
typedef graft_attr_def AttrField;

/* ---------------------------------------------------------------- ops */

/* An op's fusion pattern: TVM's TOpPattern, by its values. */
typedef enum OpKind {
	OPK_ELEMWISE = 0,
	OPK_BROADCAST = 1,
	OPK_INJECTIVE = 2,
	OPK_COMM_REDUCE = 3,
	OPK_OUT_ELEMWISE_FUSABLE = 4,
	OPK_TUPLE = 7,
	OPK_OPAQUE = 8,
} OpKind;

/* Op flags, the column key of ops.def. */
enum {
	OPF_COMM   = 1 << 0,    /* commutative in its first two operands */
	OPF_ELEM   = 1 << 1,    /* elementwise */
	OPF_BCAST  = 1 << 2,    /* numpy broadcasting of its operands */
	OPF_QNN    = 1 << 3,    /* quantized: takes scale/zero-point operands */
	OPF_ANNOT  = 1 << 4,    /* annotation: identity on values */
	OPF_TUPLE  = 1 << 5,    /* returns a tuple */
	OPF_VIEW   = 1 << 6,    /* its result is its first operand's data seen
	                           anew (reshape, annotations): no copy */
	/* the op's fusion pattern (TVM's TOpPattern) in bits 8-11, plus one;
	** none given is opaque */
	OPF_ELEMWISE = (OPK_ELEMWISE + 1) << 8,
	OPF_BROADCAST = (OPK_BROADCAST + 1) << 8,
	OPF_INJECTIVE = (OPK_INJECTIVE + 1) << 8,
	OPF_REDUCE = (OPK_COMM_REDUCE + 1) << 8,
	OPF_OUTFUSE = (OPK_OUT_ELEMWISE_FUSABLE + 1) << 8,
	OPF_OPAQUE = (OPK_OPAQUE + 1) << 8,
};

typedef struct graft_ir Module;     /* <graft/graph.h>: graft_ir */
typedef struct graft_diag Diag;    /* <graft/graph.h>: graft_diag */

/* A type relation: given the argument types and the call's attributes,
** return the result type, or 0 after reporting why through ir_rel_error().
** Argument types are never 0 (inference checks that first). */
typedef TypeId TypeRel(Module *m, const TypeId *args, int nargs,
                       const AttrVal *attrs, Diag *d);

typedef struct OpInfo {
	const char *name;
	int nargs;              /* fixed operand count */
	unsigned flags;         /* OPF_* */
	TypeRel *rel;
	const AttrField *attrs; /* schema, nattrs entries */
	int nattrs;
	/* a plugin's type relation in <graft/opdef.h>'s form, used instead
	** of rel when set */
	graft_type_rel *prel;
} OpInfo;

enum {
	OP_NONE,
#define OP(id, name, nargs, flags, rel, attrs) OP_##id,
#include "ops.def"
#undef OP
	OP_COUNT
};

/* The attributes of a call of op as a C kernel and a plugin's type
** relation get them (<graft/kernel.h>): attrs (the call's, in m->attrs)
** as graft_attr values into ka[0..nattrs of op's schema).  The arrays and
** strings they point at are in one block, returned, which the caller
** frees (after ka's last use). */
void *ir_kattrs(const Module *m, OpId op, const AttrVal *attrs, graft_attr *ka);

/* Room for the built-in ops and those registered at run time. */
enum { IR_MAXOPS = 512 };

/* The op registry: ir_ops[1 .. ir_op_count()), the built-in ops of ops.def
** (below OP_COUNT), then the registered ones. */
extern const OpInfo *const ir_ops;
OpId ir_op_count(void);

/*
** ir_op_register: adds an op that ops.def does not have (a target's fused
** op, registered by a plugin) and returns its id, from OP_COUNT up.  The
** registry copies o's name and schema; o->rel is kept as given.  The op
** then reads and prints in Relay text, type-checks through o->rel, and can
** be named in rules loaded afterwards.  Refused, with 0 and a message in
** err: a name taken or not dotted identifiers, no type relation, a default
** that does not read as its attribute's type, a full registry.  Not
** thread-safe: register ops before modules using them are made.
*/
OpId ir_op_register(const OpInfo *o, char *err, size_t nerr);

/* The permutation that layout_transform applies: axes[i] is the axis of
** src that dst's axis i is, for layouts of one letter per axis (NCHW to
** NHWC: 0 2 3 1).  Returns the rank, or -1 (with why) when the layouts are
** not permutations of each other or hold sub-axes (NCHW4c). */
int ir_layout_axes(const char *src, const char *dst, int64_t *axes, int max, const char **why);

/* An einsum equation ("ij,jk->ik") over nin inputs of the given ranks:
** each input's and the output's axes as letter numbers (in order of first
** appearance; "..." stands for the axes beyond a term's letters, aligned
** to the right across the inputs, numbered where it first appears).
** Without "->" the output is the axes of "...", then the letters that
** appear once, alphabetically.  Returns 1, or 0 with why. */
enum { IR_EINSUM_MAX = 8, IR_EINSUM_RANK = 16 };
typedef struct IrEinsum {
	uint8_t nin, nout, nlet;
	uint8_t rank[IR_EINSUM_MAX];
	uint8_t in[IR_EINSUM_MAX][IR_EINSUM_RANK];
	uint8_t out[IR_EINSUM_RANK];
} IrEinsum;
int ir_einsum(const char *eq, uint32_t nin, const int *ranks, IrEinsum *e, const char **why);

/* op's fusion pattern (OpKind): what its flags give, else opaque */
static inline int
ir_op_kind(OpId op)
{
	unsigned k = (ir_ops[op].flags >> 8) & 0xfu;
	return k ? (int)k - 1 : OPK_OPAQUE;
}
/* An OpKind by its name as TVM spells the enum in lower case without the
** k ("elemwise", "broadcast", "injective", "comm_reduce",
** "out_elemwise_fusable", "tuple", "opaque"), or -1; and back. */
int ir_op_kind_parse(const char *s);
const char *ir_op_kind_name(int k);

OpId ir_op_lookup(const char *name, size_t n);     /* OP_NONE if unknown */
int ir_op_attr_index(OpId op, const char *name, size_t n);  /* -1 if none */
/* The position in layout ("NHWC") of each letter of ref ("NCHW") into
** pos; 0 if layout is not a permutation of ref's four letters (typerel.c) */
int ir_layout_perm(const char *layout, const char *ref, int pos[4]);
/* strided_slice's index i into an axis of n elements: from the end if
** negative, then clamped for stride s as TVM does (typerel.c) */
int64_t ir_slice_index(int64_t i, int64_t n, int64_t s);
/* The op whose name is nearest to `name` (for did-you-mean), or OP_NONE. */
OpId ir_op_suggest(const char *name, size_t n);
/* The index of op's attribute nearest to `name`, or -1. */
int ir_op_attr_suggest(OpId op, const char *name, size_t n);

/* ---------------------------------------------------------------- scalar semantics */

/* What an elementwise op computes on one element (ir/scalar.def says it
** all; scalar.c).  An expression node: its kind (ScalarKind), and the
** members that kind uses. */
typedef enum ScalarKind {
	SX_X,           /* the operand */
	SX_K,           /* k */
	SX_P,           /* attribute p of the op's schema, a float */
	SX_NEG,         /* -a */
	SX_FN,          /* fn(a): fd in float64, ff in float32 */
	SX_ADD, SX_SUB, SX_MUL, SX_DIV,         /* a op b */
	SX_MIN, SX_MAX, /* a < b ? a : b, a > b ? a : b */
	SX_SEL,         /* a ? b : c, a an SX_GT, SX_LT or SX_ISNAN */
	SX_GT, SX_LT,   /* a > b, a < b (ordered: false with a NaN) */
	SX_Y,           /* the second operand (an op of two) */
	SX_FN2,         /* fn(a, b): fd2 in float64, ff2 in float32 */
	SX_RND,         /* a rounded to the dtype: float16's to half, else a */
	SX_ISNAN,       /* a != a */
} ScalarKind;

/* A node of an expression: <graft/opdef.h>'s graft_scalar_expr (kind, p,
** k, fn with fd and ff, operands a, b, c). */
typedef graft_scalar_expr ScalarExpr;

/* What integer operands give (scalar.def's ints column). */
typedef enum ScalarInts {
	SI_NONE, SI_SAME, SI_NEG, SI_ABS, SI_SIGN,
	SI_ADD, SI_SUB, SI_MUL, SI_DIV, SI_MOD, SI_FLOOR_MOD, SI_POW, SI_MAX, SI_MIN,
	SI_RELU, SI_CLIP,
} ScalarInts;

/* One row of scalar.def. */
typedef struct ScalarDef {
	OpId op;
	uint8_t ints;           /* ScalarInts */
	const char *when;       /* "attr=value" selecting this row, or NULL */
	const char *onnx;       /* the ONNX operator imported as op, or NULL */
	const ScalarExpr *expr;
} ScalarDef;

extern const ScalarDef ir_scalars[];
extern const uint32_t ir_nscalars;

/* The row of scalar.def that gives what a call of op with attributes
** attrs (an AttrId of m's; 0: the defaults) computes, or NULL: op has no
** row, or none whose `when` its attributes meet. */
const ScalarDef *ir_scalar_of(const Module *m, OpId op, AttrId attrs);
/* Whether op has rows in scalar.def, or registered ones. */
int ir_op_is_scalar(OpId op);
/* Gives registered op op (ir_op_register: one operand or two) its semantics as
** rows in scalar.def's form, written with scalar.h's words: copied (their
** op set to op; expressions kept by pointer, so in static storage), then
** read by every backend as the built-in rows are.  Returns 1, or 0 with
** why in err: op has rows already, a row is malformed (an attribute that
** is not a float or integer of op's, a `when` that names no string
** attribute, an onnx name), or there are too many.  Not thread-safe:
** register before modules use the op. */
int ir_scalar_register(OpId op, const ScalarDef *rows, uint32_t n, char *err, size_t nerr);
/* The type relation of scalar.def's form of op: of one operand, its
** type, a tensor; of two, their numpy broadcast (add's). */
TypeId ir_rel_same(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d);

/*
** ir_op_accepts: whether a call of op takes operands of dtype dt (its
** first operand's; for the elementwise ops every operand's), the one rule
** that ref's checks, the c and llvm backends' refusals and graftc's checks
** call.  Returns NULL, or why not as a phrase that follows "cannot run
** OP": "on integer tensors", "on bool tensors".  Ops it knows nothing of
** (DT_VOID, a structured op) are accepted here and checked where run.
*/
const char *ir_op_accepts(OpId op, DType dt);

/* IEEE half-precision conversions (round to nearest even). */
uint16_t ir_f16_from_f32(float f);
float ir_f32_from_f16(uint16_t h);

/* ---------------------------------------------------------------- nodes */

typedef enum NodeKind {
	NK_NONE,        /* the node at NodeId 0 */
	NK_VAR,         /* aux = Sym name; type = declared type (0 if none) */
	NK_CONST,       /* aux = index into Module.consts */
	NK_CALL,        /* op; operands = arguments; aux = AttrId */
	NK_CALLFN,      /* operand 0 = callee (function value), then arguments;
	                   aux = 1 + index into Module.funcs of its keyed
	                   attributes (TVM's DictAttrs on a call), 0: none */
	NK_TUPLE,       /* operands = fields */
	NK_GETITEM,     /* operand 0 = tuple; aux = field index */
	NK_FUNC,        /* operands = parameters (NK_VAR), then the body;
	                   aux = index into Module.funcs */
	NK_GLOBAL,      /* a reference @name; aux = Sym name */
	NK_DEAD,        /* removed by a pass; kept so ids stay stable */
} NodeKind;

typedef struct Loc {
	uint32_t line;
	uint16_t col;
	uint16_t file;      /* index into Module.files; 0 = no location */
} Loc;

/* A node: what matching and evaluation read.  Its use list's head and its
** source location are Module.firstuse[id] and Module.locs[id], apart, so
** that a walk over the nodes reads 20 bytes a node. */
typedef struct Node {
	uint8_t kind;       /* NodeKind */
	uint8_t flags;      /* NF_* */
	OpId op;            /* NK_CALL only */
	uint32_t nargs;     /* operand count */
	uint32_t args;      /* index of operand 0 in Module.argv and Module.uses */
	TypeId type;        /* inferred type; 0 before inference */
	uint32_t aux;       /* see NodeKind */
} Node;

enum {
	NF_MARK = 1 << 0,   /* scratch bit for passes; clear it when done */
};

/* An operand slot.  Slots of one node are consecutive; the slots that refer
** to the same node form a doubly linked list headed by Module.firstuse.  The
** operand itself is Module.argv[slot]: matching reads only operands, so
** they are kept apart from the links that only editing the graph reads. */
typedef struct Use {
	NodeId user;        /* the node whose operand this is */
	uint32_t next;      /* next slot referring to the same operand; 0 = end */
	uint32_t prev;      /* previous slot referring to it; 0 = head */
} Use;

/* A constant tensor.  data is NULL while the constant is only known by its
** type (a meta[relay.Constant][N] whose data was not supplied). */
typedef struct Const {
	TypeId type;        /* always a TY_TENSOR */
	int32_t meta;       /* N of meta[relay.Constant][N] as parsed; -1 if none */
	uint32_t flags;     /* CF_* */
	void *data;         /* row-major, little-endian; in Module.data */
	size_t nbytes;
} Const;

enum {
	CF_INLINE = 1 << 0, /* written inline as const(...); printed that way */
};

typedef struct Func {
	TypeId ret;         /* declared return type, 0 if none */
	uint32_t nattrs;    /* function attributes: keyed AttrVals at attrs */
	AttrId attrs;
} Func;

/* A global function definition: def @name(...) { ... }. */
typedef struct Global {
	Sym name;
	NodeId fn;          /* an NK_FUNC node */
} Global;

/* A type annotation comment (ty=...) seen in the text, checked after inference. */
typedef struct TypeAnn {
	NodeId node;
	TypeId type;
	Loc loc;
} TypeAnn;

enum { IR_FREE_LISTS = 9 };     /* operand counts 0..7, and constants */

struct graft_ir {
	Node *nodes;     uint32_t nnodes, capnodes;
	uint32_t *firstuse; uint32_t capfirstuse;  /* per node: first Use slot naming it; 0 = none */
	Loc *locs;       uint32_t caplocs;      /* per node: where the text wrote it */
	Use *uses;       uint32_t nuses, capuses;
	NodeId *argv;    uint32_t capargv;      /* per use slot: the operand */
	Type *types;     uint32_t ntypes, captypes;
	int64_t *numels; uint32_t capnumels;    /* per type: ir_type_numel */
	int64_t *dims;   uint32_t ndims, capdims;
	TypeId *tylist;  uint32_t ntylist, captylist;
	AttrVal *attrs;  uint32_t nattrs, capattrs;
	Const *consts;   uint32_t nconsts, capconsts;
	Func *funcs;     uint32_t nfuncs, capfuncs;
	Global *globals; uint32_t nglobals, capglobals;
	uint32_t *globalof; uint32_t capglobalof;   /* Sym -> index in globals + 1; 0 = none */
	TypeAnn *anns;   uint32_t nanns, capanns;
	/* interned strings: offsets into strbuf */
	uint32_t *symoff; uint32_t nsyms, capsyms;
	char *strbuf;    uint32_t nstr, capstr;
	SymSlot *symhash; uint32_t symhashcap;
	AttrSlot *attrtab; uint32_t attrtabcap, nattrtab;   /* interned attribute runs */
	RelMemo *relmemo; uint32_t relmemocap, nrelmemo;    /* type relation results */
	uint32_t *tyhash;  uint32_t tyhashcap;
	const char **files; uint32_t nfiles, capfiles;   /* source file names */
	Arena data;         /* constant tensor data, file names */
	AttrId opdefaults[IR_MAXOPS]; /* cached default attributes per op */
	AttrId oplast[IR_MAXOPS];     /* per op: the attributes its last call got */
	uint32_t oprel[IR_MAXOPS];    /* per op: 1 + the relmemo slot it last found */
	/* While `reuse` is on, killed nodes are kept by operand count (the
	** last list holds constants) and new nodes take their ids and operand
	** slots; while `track` is on, every new node is listed in created. */
	NodeId *freed[IR_FREE_LISTS]; uint32_t nfreed[IR_FREE_LISTS], capfreed[IR_FREE_LISTS];
	NodeId *created; uint32_t ncreated, capcreated;
	unsigned reuse : 1;
	unsigned track : 1;
	/* some node has an operand whose id is not below its own (set when
	** such an operand is linked, never cleared): while it is clear, id
	** order visits operands before their users */
	unsigned unordered : 1;
	unsigned has_version : 1;   /* input began with #[version = "0.0.5"] */
	unsigned bare : 1;          /* input was a bare fn expression, kept as @main */
	/* every node the globals reach has the type ir_infer_types would give
	** it and no TypeAnn waits to be checked: set by ir_infer_types when it
	** succeeds and by an importer that infers each node as it builds it
	** (onnx_import), so that a pipeline need not infer again; cleared by
	** every new node and changed operand (ir_set_arg, ir_replace_uses),
	** and to be cleared by whoever writes Node.type or Const.type itself */
	unsigned typed : 1;
};

/* ---------------------------------------------------------------- module API */

Module *ir_module_new(void);
void ir_module_free(Module *m);

/* Strings every new module interns first, in this order, so that their
** Syms are constants: compare an attribute's string with SYM_None rather
** than with strcmp. */
#define IR_SYMS(X) X(None) X(HALF_TO_EVEN) X(UPWARD) X(TONEAREST) X(int64) X(float32) X(float64)
enum {
	SYM_EMPTY,              /* "" */
#define IR_SYM_ID(s) SYM_##s,
	IR_SYMS(IR_SYM_ID)
#undef IR_SYM_ID
	SYM_FIXED
};

Sym ir_sym(Module *m, const char *s, size_t n);
Sym ir_symz(Module *m, const char *s);
/* A symbol for a name that is only ever printed (a generated parameter
** name): it is not entered in the lookup table, so it never equals another
** Sym, even one of the same string, and costs no hash-table probe. */
Sym ir_sym_fresh(Module *m, const char *s, size_t n);
/* Lookup without interning: sets *out to the Sym of s[0..n) and returns 1
** if it is interned, else returns 0.  h must be ir_sym_hash(IR_SYM_HASH0,
** s, n); the hash extends byte by byte, so the prefixes of one string can
** be looked up in a single pass. */
#define IR_SYM_HASH0 2166136261u
uint32_t ir_sym_hash(uint32_t h, const char *s, size_t n);
int ir_sym_find(const Module *m, const char *s, size_t n, uint32_t h, Sym *out);
const char *ir_symstr(const Module *m, Sym s);

/* For the readers of tensor files (safetensors, .npy): the length of the
** valid UTF-8 sequence at s[0..n), 0 if there is none (no overlong forms,
** surrogates or code points above U+10FFFF); and the byte size of a tensor
** of shape d with elements of esz bytes into *out, returning 0, or -1 if
** it does not fit in 64 bits (negative dims are the caller's to refuse). */
size_t ir_utf8_len(const unsigned char *s, size_t n);
/* The whole of the file at path into *buf (malloc'ed, NUL-terminated) and
** *len.  Returns 0; -1 when fopen or fread fails (errno says why, *what is
** "open" or "read"); -2 when the file holds more than max bytes. */
int ir_read_file(const char *path, size_t max, char **buf, size_t *len, const char **what);
/* As ir_read_file, but into memory from a (not malloc'ed): a regular
** file is read once, at its size, with no copy. */
int ir_read_file_in(Arena *a, const char *path, size_t max, char **buf, size_t *len, const char **what);

/* An output file (file.c): every file graft writes goes through one.
** ir_out_open(o, path, flags) readies o->f for writing to path: "-" is
** standard output; a device or FIFO is written directly, never replaced;
** a regular file (through any symbolic links) is written to a temporary
** file and only ir_out_commit() puts it in place, keeping the file's
** mode, owner and other links.  Each returns 0, or -1 with errno set and
** o->msg saying what failed, of the file as "it" (print "PATH: MSG"); a
** failed ir_out_open() holds nothing.  After a successful open, exactly
** one of ir_out_commit() (even when writing failed: it reports that) or
** ir_out_abort() (nothing written; the old file untouched) must follow.
** IR_OUT_SYNC: the data reaches the disk before commit returns. */
enum { IR_OUT_SYNC = 1 };
typedef struct IrOut {
	FILE *f;                /* where the output goes */
	const char *path;       /* the path given (borrowed) */
	char *target;           /* the regular file that gets the data, or NULL */
	char *tmp;              /* the temporary file's name, or NULL */
	int kind;               /* how it gets there (file.c) */
	unsigned flags;         /* IR_OUT_* */
	char msg[256];          /* what failed */
} IrOut;
int ir_out_open(IrOut *o, const char *path, unsigned flags);
int ir_out_commit(IrOut *o);
void ir_out_abort(IrOut *o);
int ir_tensor_nbytes(const int64_t *d, uint32_t rank, unsigned esz, uint64_t *out);
uint16_t ir_file(Module *m, const char *name);

TypeId ir_type_tensor(Module *m, DType dt, int rank, const int64_t *dims);
TypeId ir_type_scalar(Module *m, DType dt);
TypeId ir_type_tuple(Module *m, int n, const TypeId *fields);
TypeId ir_type_func(Module *m, int n, const TypeId *params, TypeId ret);
static inline const Type *ir_type(const Module *m, TypeId t) { return &m->types[t]; }
/* The dims of tensor type t; NULL while no type has any dims. */
static inline const int64_t *ir_type_dims(const Module *m, TypeId t) { return m->dims ? &m->dims[m->types[t].first] : NULL; }
/* The element count of tensor type t, computed when t was interned; -1 if
** a dim is '?' or the count overflows int64, and for other kinds of type */
static inline int64_t ir_type_numel(const Module *m, TypeId t) { return m->numels[t]; }
/* Writes t in Relay syntax (Tensor[(1, 3), int8], (T, T), fn (T) -> T). */
void ir_type_print(FILE *f, const Module *m, TypeId t);
/* Same into buf (size > 0), cut off at size - 1 bytes; returns buf. */
char *ir_type_str(const Module *m, TypeId t, char *buf, size_t size);
/* Same as ir_type_str; returns the length written, or size if t was cut
** off (so a result below size means all of t is in buf). */
size_t ir_type_fmt(const Module *m, TypeId t, char *buf, size_t size);

static inline Node *ir_node(Module *m, NodeId n) { return &m->nodes[n]; }
static inline NodeId ir_arg(const Module *m, NodeId n, uint32_t i) { return m->argv[m->nodes[n].args + i]; }

void ir_reserve(Module *m, uint32_t nodes, uint32_t uses);
NodeId ir_var(Module *m, Sym name, TypeId type, Loc loc);
NodeId ir_const(Module *m, TypeId type, const void *data, Loc loc);   /* copies data */
/* takes data: as many bytes as type holds, allocated from Module.data */
NodeId ir_const_own(Module *m, TypeId type, void *data, Loc loc);
NodeId ir_const_meta(Module *m, TypeId type, int32_t meta, Loc loc);   /* no data yet */
NodeId ir_call(Module *m, OpId op, const NodeId *args, uint32_t nargs, AttrId attrs, Loc loc);
NodeId ir_callfn(Module *m, NodeId fn, const NodeId *args, uint32_t nargs, Loc loc);
/* The same call with keyed attributes (TVM's attrs of a call of a function
** value, Relay text's %f(%x, K="V")): nattrs AttrVals at attrs. */
NodeId ir_callfn_attrs(Module *m, NodeId fn, const NodeId *args, uint32_t nargs, AttrId attrs, uint32_t nattrs,
                       Loc loc);
NodeId ir_tuple(Module *m, const NodeId *fields, uint32_t n, Loc loc);
NodeId ir_getitem(Module *m, NodeId tuple, uint32_t index, Loc loc);
NodeId ir_func(Module *m, const NodeId *params, uint32_t nparams, NodeId body,
               TypeId ret, AttrId attrs, uint32_t nattrs, Loc loc);
NodeId ir_global_ref(Module *m, Sym name, Loc loc);
/* Adds def @name; returns 1, or 0 if @name exists already. */
int ir_global_add(Module *m, Sym name, NodeId fn);
NodeId ir_global_find(const Module *m, Sym name);   /* the NK_FUNC, or 0 */
/* The index of def @name in Module.globals plus 1, or 0 if none.  O(1):
** globals are found through Module.globalof, never by a scan. */
uint32_t ir_global_index(const Module *m, Sym name);
/* The value of function attribute key (Composite, Compiler, ...) of the
** function literal fn, or of the call of a function value fn, or NULL. */
const AttrVal *ir_func_attr(const Module *m, NodeId fn, const char *key);
/* The keyed attributes of function literal or call n: how many, the first
** at *first (0 for none). */
uint32_t ir_node_attrs(const Module *m, NodeId n, AttrId *first);

static inline Const *ir_node_const(Module *m, NodeId n) { return &m->consts[m->nodes[n].aux]; }
static inline Func *ir_node_func(Module *m, NodeId n) { return &m->funcs[m->nodes[n].aux]; }
static inline uint32_t ir_func_nparams(const Module *m, NodeId fn) { return m->nodes[fn].nargs - 1; }
static inline NodeId ir_func_body(const Module *m, NodeId fn) { return ir_arg(m, fn, m->nodes[fn].nargs - 1); }

/* Def-use. */
void ir_set_arg(Module *m, NodeId user, uint32_t i, NodeId val);
void ir_replace_uses(Module *m, NodeId old, NodeId with);  /* every use of old now uses with */
void ir_node_kill(Module *m, NodeId n);    /* NK_DEAD; its operands lose a use */
/* Kills n if nothing uses it, then likewise each operand that this leaves
** unused, and so on down; variables and functions are never killed.
** stack is scratch space, grown as needed, for the caller to free. */
void ir_reap(Module *m, NodeId n, NodeId **stack, uint32_t *cap);
/* The call n becomes a constant of its type holding data (allocated from
** Module.data, as many bytes as the type holds), keeping its id and its
** uses; its operands lose their uses to it and are reaped as by ir_reap. */
void ir_node_to_const(Module *m, NodeId n, void *data, NodeId **stack, uint32_t *cap);
uint32_t ir_nuses(const Module *m, NodeId n);
/* The value of n when it is a constant of one element, as a double into
** out; of the elements of a constant that all have one value (compared as
** bytes).  0 when n is no such constant. */
int ir_const_scalar(const Module *m, NodeId n, double *out);
int ir_const_splat(const Module *m, NodeId n, double *out);
#define IR_FOR_USES(m, n, slot) \
	for (uint32_t slot = (m)->firstuse[n]; slot; slot = (m)->uses[slot].next)

/* Attributes. */
AttrId ir_attr_push(Module *m, const AttrVal *v, uint32_t n);   /* copies n values */
/* Interning.  A call's attributes and the elements of an array value are
** interned: equal runs of values (floats bitwise, arrays by content) are
** one run, so a call's AttrId names its attributes' values, and type
** inference can remember a relation's result by it.  Interned values never
** change.  ir_attr_intern returns the canonical run equal to the n values
** at a, which is a itself when there was none; a duplicate run at the end
** of the table is dropped.  ir_call interns its attributes; array values
** are pushed with ir_attr_array, which is ir_attr_push then ir_attr_intern. */
AttrId ir_attr_intern(Module *m, AttrId a, uint32_t n);
AttrId ir_attr_intern_op(Module *m, OpId op, AttrId a, uint32_t n);  /* a call of op's (ir_call) */
AttrId ir_attr_array(Module *m, const AttrVal *v, uint32_t n);
int ir_attr_interned(const Module *m, AttrId a, uint32_t n);    /* a is canonical */
uint64_t ir_attr_hash(const Module *m, const AttrVal *a, uint64_t h);  /* h extended with a */
AttrId ir_attr_defaults(Module *m, OpId op);     /* the op's defaults, fresh copy */
AttrId ir_op_defaults(Module *m, OpId op);       /* the shared default values */
int ir_attr_equal(const Module *m, const AttrVal *a, const AttrVal *b);
static inline const AttrVal *ir_attrs(const Module *m, NodeId call) {
	return &m->attrs[m->nodes[call].aux];
}
/* Parses an attribute literal in Relay syntax (1, 2.5f, "s", None, True,
** [1, [2]]), as used for schema defaults.  Returns 1 on success. */
int ir_attr_parse(Module *m, const char *s, AttrVal *out);
/* Checks v against a schema field type, converting where lossless (an int
** literal for a float field, a string for a dtype field).  Returns NULL or
** a message describing what was expected. */
const char *ir_attr_conform(Module *m, int type, AttrVal *v);

/* ---------------------------------------------------------------- diagnostics */

/* Diagnostics are printed as `file:line:col: error: message`, then the
** source line and a caret under the column.  A Diag counts errors; work
** goes on after an error so that several are reported in one run. */
struct graft_diag {
	FILE *out;
	const char *prog;       /* names messages without a location; "graft" */
	const Module *m;        /* names the files of locations */
	const char **srcs;      /* source text by file index, or NULL */
	size_t *srclens;
	uint32_t nsrcs;
	int errors;
	int warnings;
	/* set by ir_rel_error for the caller to report at the right place */
	char relmsg[256];
	/* line index of file lfile, built as far as quoting has needed it:
	** lines[k] is the offset of line k + 1.  Quoting costs O(1) per message,
	** not a scan from the top of the file.  Owned; a copy of a Diag must
	** not quote (set its out to NULL). */
	uint16_t lfile;
	uint32_t nlines, caplines;
	size_t *lines;
	size_t lscan;           /* the index covers the text up to here */
};

void ir_diag_init(Diag *d, FILE *out, const Module *m);
void ir_diag_free(Diag *d);
/* Registers the text of file `file` so that messages can quote it; the
** text must outlive the Diag. */
void ir_diag_source(Diag *d, uint16_t file, const char *text, size_t len);
void ir_error(Diag *d, Loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void ir_warning(Diag *d, Loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void ir_note(Diag *d, Loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* An error about the file path as a whole, reported and counted as the
** others are: "path: error: msg".  The file formats' readers write their
** messages as "PATH: error: ..." into a buffer: given one, the prefix is
** not repeated. */
void ir_error_file(Diag *d, const char *path, const char *msg);
/* For type relations: records a message; returns 0 (the failed TypeId). */
TypeId ir_rel_error(Diag *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---------------------------------------------------------------- passes */

/* Each pass says what it preserves; all return the number of errors. */
int ir_infer_types(Module *m, Diag *d);   /* sets Node.type; checks TypeAnns */
/* The type of one node from its operands' types (which must be set); 0
** after reporting an error.  Sets nothing. */
TypeId ir_infer_node(Module *m, NodeId n, Diag *d);
int ir_verify(Module *m, Diag *d);        /* ids, arity, acyclicity, types */
uint32_t ir_dce(Module *m);               /* marks unreachable nodes NK_DEAD */

#ifdef __cplusplus
}
#endif

#endif
