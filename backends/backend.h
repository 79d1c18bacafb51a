/*
** backend.h: graft's execution backends behind one interface, in the
** spirit of QBE's table of targets.
**
** A backend prepares a typed module (ir_infer_types done) for running its
** @main, then runs it on input tensors as often as wanted.  Every function
** @main reaches is prepared with it, partitions included: a partition for
** a target graft cannot drive natively (its Compiler attribute) runs as
** ordinary code, so every partitioned module is executable end to end.
**
**   ref    backends/ref:  the reference interpreter (ref/), graft's
**                         numerics oracle (exact TVM QNN integer semantics)
**   c      backends/c:    C99 source, compiled with the system's cc and
**                         loaded in-process
**   llvm   backends/llvm: LLVM IR through the LLVM-C API, optimized and
**                         JIT-compiled in-process (ORC LLJIT)
**
** Ownership: a Program owns copies of everything it needs from the module
** (the module may be freed or changed after be_prepare()); run() allocates
** the output tensors' data, which the caller frees with ir_tensor_free().
** Inputs are borrowed.
*/
#ifndef GRAFT_BACKEND_H
#define GRAFT_BACKEND_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "codegen.h"
#include "ir.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The signature of @main: its parameters, in order, and its results (a
** tuple result is flattened into one tensor per field, depth first). */
typedef struct BeSig {
	uint32_t nin, nout;
	Sym *inname;            /* parameter names */
	Tensor *in, *out;       /* dt, rank, dims; data NULL */
} BeSig;

/* Fills sig from m's @main; returns 0, or reports through d (no @main, a
** dynamic shape, a result that is not a tensor or a tuple of tensors) and
** returns the number of errors.  Free with be_sig_free(). */
int be_sig(const Module *m, BeSig *sig, Diag *d);
/* Reports every value of m (the first ten) whose tensor is larger than
** ir_max_tensor_bytes(), at its location; returns their number.  Each
** backend's prepare() calls it first: nothing runs that would allocate
** more. */
int be_check_sizes(const Module *m, Diag *d);
/* The same for global function fn of m (a partition, say). */
int be_sig_of(const Module *m, NodeId fn, BeSig *sig, Diag *d);
void be_sig_free(BeSig *sig);

/* An entry point of generated code (c and llvm), in the calling
** convention told in backends/c/c.h. */
typedef int32_t BeEntry(const void *const *in, void *const *out);

/* Calls fn on in[] (as sig's parameters) with fresh out[] (as sig's
** results): a backend's run() for generated code.  Returns 0, or reports
** the integer division by zero fn signals and returns 1, out then empty. */
int be_run_entry(BeEntry *fn, const BeSig *sig, const Tensor *in, Tensor *out, Diag *d);

typedef struct BeOpts {
	int opt;                /* optimization level, 0..3 (c, llvm); default 2 */
	const char *cc;         /* c: the C compiler; NULL for $CC or "cc" */
	int keep;               /* c: keep the temporary directory (debugging) */
	/* llvm: the machine to compile for, as tvmc's "llvm -mtriple=T
	** -mcpu=C -mattr=A" names it (be_llvm_target_check(), llvm.h);
	** each NULL for the host's own */
	const char *triple;     /* an LLVM target triple: aarch64-linux-gnu */
	const char *cpu;        /* an LLVM CPU name: cortex-a55, or native */
	const char *attr;       /* LLVM features, comma-separated: +dotprod,-neon */
	const char *device;     /* -device=: recorded in --emit obj's header */
	int threads;            /* llvm: the threads its code runs on (0: the
	                        ** machine's cores; backends/llvm/par.h) */
} BeOpts;

typedef struct Program Program;   /* a module prepared by one backend */

/* Where a compiling backend's prepare() spends its time, in ns, for `make
** bench` (bench/mobilenet.c); the llvm backend fills it through
** be_llvm_prepare() (backends/llvm/llvm.h). */
typedef struct BeStats {
	double lower_ns;        /* graft's own work: the backend's IR built from the module, and verified */
	double opt_ns;          /* the backend compiler's optimization (llvm: LLVMRunPasses) */
	double codegen_ns;      /* machine code generated and loaded (llvm: the JIT, up to the entry's address) */
	int cached;             /* llvm: the objects came from the object cache (backends/llvm/objcache.h) */
} BeStats;

typedef struct Backend {
	const char *name;
	/* prepare: m's @main and all it calls, ready to run; NULL after
	** reporting through d (an op or dtype the backend cannot run, a
	** compiler that fails) */
	Program *(*prepare)(const Module *m, const BeOpts *o, Diag *d);
	/* run: in[] in the order of @main's parameters, with the shapes and
	** dtypes of be_sig(); fills out[0..sig.nout) with fresh tensors.
	** Returns 0, or reports a run-time error through d (an integer
	** division by zero, say) and returns nonzero; out is then empty. */
	int (*run)(Program *p, const Tensor *in, Tensor *out, Diag *d);
	void (*release)(Program *p);
} Backend;

/* ---------------------------------------------------------------- target codegens */

/*
** A target's own code generator, which a plugin registers (TVM's
** relay.ext.<target>), <graft/codegen.h>'s graft_codegen: what becomes of
** the partitions whose Compiler attribute names its target.  `graft run`
** calls run() wherever @main calls one, while the rest of the model runs
** on the chosen backend; the c and llvm backends call it from their
** generated code, through a pointer graft sets when it loads that code.
*/
typedef graft_codegen BeCodegen;        /* <graft/codegen.h> */

/* Registers cg (copied; its functions must stay loaded).  Returns 1, or 0
** with a message in err: no target, no functions, a target taken. */
int be_codegen_register(const BeCodegen *cg, char *err, size_t nerr);
/* The codegen of target, or NULL. */
const BeCodegen *be_codegen_find(const char *target);
/* The codegen of global function fn of m, by its Compiler attribute, or NULL. */
const BeCodegen *be_codegen_of(const Module *m, NodeId fn);

/* The backends, in the order of BACKENDS; be_find() by name, NULL if none. */
extern const Backend be_ref, be_c, be_llvm;
const Backend *be_find(const char *name);

#ifdef __cplusplus
}
#endif

#endif
