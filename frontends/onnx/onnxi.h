/*
** onnxi.h: what the ONNX frontend's two files share.  onnx.c reads the
** file, checks the graph (names, order, types of the graph inputs) and
** drives the conversion; ops.c holds the op table and one converter per
** ONNX op.
*/
#ifndef GRAFT_ONNXI_H
#define GRAFT_ONNXI_H

#include "onnx.h"
#include "onnx.pb-c.h"

typedef GraftOnnx__NodeProto ONode;
typedef GraftOnnx__AttributeProto OAttr;
typedef GraftOnnx__TensorProto OTensor;

/* AttributeProto.type values */
enum {
	OA_FLOAT = 1, OA_INT = 2, OA_STRING = 3, OA_TENSOR = 4, OA_GRAPH = 5,
	OA_FLOATS = 6, OA_INTS = 7, OA_STRINGS = 8, OA_TENSORS = 9,
};

enum { ONNX_MAXIN = 64 };      /* inputs of one node (Concat's are many) */

/* The import of one model. */
typedef struct Imp {
	Module *m;
	Diag *d;
	int errors0;            /* d's errors when the import began */
	const char *path;       /* the model, as named in messages */
	const char *dir;        /* its directory, for external data ("" = .) */
	Loc loc;                /* the whole file: line 0 */
	int opset;              /* of the default domain */
	NodeId *valof;          /* Sym of an ONNX value name -> its node */
	uint32_t capvalof;
	const ONode *nd;        /* the node being converted */
	const OnnxOpts *o;      /* values for graph inputs, or NULL */
	uint8_t *freeze;        /* o->nbind flags: the inputs made constants */
	uint8_t *need;          /* o->nbind flags: the inputs a converter needed
	                           as constants and did not get */
	NodeId *bindvar;        /* o->nbind: the parameter each value's input became */
	uint8_t *made;          /* o->nbind flags: the inputs made constants */
	int depth;              /* subgraphs being converted (If, Loop, Scan) */
	/* --stats: per op of the table, its nodes and the Relay calls and
	   constants they became (ncalls[op * ir_op_count() + relay op]) */
	uint32_t *nnodes, *ncalls, *nconsts;
	int pytorch;            /* the model's producer_name is "pytorch" */
	uint32_t intbias;       /* DequantizeLinear of int32 constants in such a
	                           model: biases its exporter folded, truncated */
	uint32_t qs8, qu8z0;    /* in such a model, QuantizeLinear of computed
	                           values to int8, and to uint8 with zero point 0 */
} Imp;

/*
** A converter: computes the outputs out[0..nout) of node im->nd from its
** inputs in[0..nin) (0 for an absent optional input).  Returns 0, or -1
** after reporting through onnx_err().
*/
typedef int OpConv(Imp *im, const NodeId *in, int nin, NodeId *out, int nout);

typedef struct OpEntry {
	const char *name;       /* ONNX op_type, default domain */
	int minin, maxin;       /* input count */
	int minout, maxout;     /* output count */
	OpConv *conv;
} OpEntry;

/* The table, sorted by name, and its length. */
extern const OpEntry onnx_ops[];
extern const int onnx_nops;
const OpEntry *onnx_op_find(const char *name);
/* onnx_op_lookup: the converter of op name of domain ("" or "ai.onnx":
** the table above; "com.microsoft": ONNX Runtime's quantized ops), or NULL */
const OpEntry *onnx_op_lookup(const char *domain, const char *name);
/* every op of both tables, numbered from 0 to onnx_nops_all: e's number,
** and op i */
extern const int onnx_nops_all;
int onnx_op_index(const OpEntry *e);
const OpEntry *onnx_op_at(int i);
/* whether op a (a number as above) is listed after op b: the default
** domain's by name, then ONNX Runtime's by name (op i of a row of
** scalar.def without an ONNX operator is never counted) */
int onnx_op_after(int a, int b);

/* onnx_err: "PATH: error: node 'NAME' (Op): message" for node im->nd
** (or without the node part outside a node); returns -1 */
int onnx_err(Imp *im, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* onnx_needconst: notes that the converter of im->nd needs value n as a
** constant: every graph input n is computed from that o binds is marked
** in im->need (an import with ONNX_FREEZE_NEEDED freezes them and tries
** again) */
void onnx_needconst(Imp *im, NodeId n);

enum { ONNX_MAXDEPTH = 16 };    /* subgraphs within subgraphs */

/* onnx_subgraph: converts subgraph g (of node im->nd) with its inputs
** bound to ins[0..nins), into its outputs outs[0..nouts); values of the
** scopes around are visible by name.  0, or -1 after reporting */
int onnx_subgraph(Imp *im, const GraftOnnx__GraphProto *g, const NodeId *ins, int nins, NodeId *outs, int nouts);

/* onnx_mk: the call op(args) with attributes at (from ir_attr_defaults),
** its type inferred; 0 after reporting a type error */
NodeId onnx_mk(Imp *im, OpId op, const NodeId *args, uint32_t nargs, AttrId at);

/* onnx_type: the inferred type of node n */
static inline const Type *onnx_type(const Imp *im, NodeId n) { return &im->m->types[im->m->nodes[n].type]; }

/* onnx_dims: the dims of n's tensor type */
static inline const int64_t *onnx_dims(const Imp *im, NodeId n) {
	return ir_type_dims(im->m, im->m->nodes[n].type);
}

/*
** onnx_tensor_data: the elements of tensor proto tp as DType, rank and
** dims into *t (data malloc'ed, even for no elements); external data is
** looked for under dir.  Returns 0, or -1 with a message (no file name)
** in msg.
*/
int onnx_tensor_data(const OTensor *tp, const char *dir, Tensor *t, char *msg, size_t msgsz);

/* onnx_dtype: the DType of an ONNX element type, DT_VOID if none */
DType onnx_dtype(int64_t et);
/* onnx_dtype_name: the ONNX name of element type et ("FLOAT", "STRING") */
const char *onnx_dtype_name(int64_t et);

#endif
