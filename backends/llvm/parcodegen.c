/*
** parcodegen.c: the JIT's parallel code generation: an unoptimized
** module's functions spread among a few parts, each optimized and
** compiled into an object on a thread of its own (ll_splitjit), and the
** objects looked up in and stored to the object cache (objcache.h).
*/
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <unistd.h>

#include <llvm/Config/llvm-config.h>    /* LLVM_VERSION_STRING, for the object cache's key */
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>

#include "llvmi.h"
#include "objcache.h"

enum { MAXPARTS = 8 };

/* One part of the module compiled on a thread of its own (ll_splitjit):
** the functions of part k, optimized and made into an object. */
typedef struct Part {
	const char *bc;                 /* the whole module's bitcode, nbc bytes */
	size_t nbc;
	const uint8_t *owner;           /* per function of the module, in order: its part */
	const Mach *mc;
	int k, opt;
	LLVMMemoryBufferRef obj;        /* out: the object, or NULL */
	char *err;                      /* out: why not (LLVMDisposeMessage) */
	double opt_ns;                  /* out: LLVMRunPasses's time */
} Part;

/* unbody: makes f a declaration (the C API has no deleteBody) */
static void
unbody(LLVMValueRef f)
{
	LLVMBasicBlockRef bb, next;
	LLVMValueRef i, in;

	for (bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
		for (i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
			if (LLVMGetTypeKind(LLVMTypeOf(i)) != LLVMVoidTypeKind)
				LLVMReplaceAllUsesWith(i, LLVMGetUndef(LLVMTypeOf(i)));
	for (bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
		for (i = LLVMGetFirstInstruction(bb); i; i = in) {
			in = LLVMGetNextInstruction(i);
			LLVMInstructionEraseFromParent(i);
		}
	for (bb = LLVMGetFirstBasicBlock(f); bb; bb = next) {
		next = LLVMGetNextBasicBlock(bb);
		LLVMDeleteBasicBlock(bb);
	}
	LLVMSetLinkage(f, LLVMExternalLinkage);
}

/* partrun: a thread's work: parses the module into a context of its own,
** keeps the bodies of part k's functions and the data of part 0 only
** (the others' data stays available_externally, for folding), then
** optimizes it and generates its object */
static void *
partrun(void *arg)
{
	Part *pt = arg;
	LLVMContextRef cx = LLVMContextCreate();
	LLVMMemoryBufferRef mb = LLVMCreateMemoryBufferWithMemoryRange(pt->bc, pt->nbc, "graft", 0);
	LLVMModuleRef mod = NULL;
	LLVMTargetMachineRef tm = ll_tmnew(pt->mc, pt->opt);
	LLVMErrorRef e;
	uint32_t i = 0;
	double t0;

	if (!tm || LLVMParseBitcodeInContext2(cx, mb, &mod)) {
		pt->err = LLVMCreateMessage("cannot read back the module's bitcode");
		goto out;
	}
	for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f), i++)
		if (!LLVMIsDeclaration(f) && pt->owner[i] != pt->k)
			unbody(f);
	for (LLVMValueRef v = LLVMGetFirstGlobal(mod); v && pt->k; v = LLVMGetNextGlobal(v))
		if (!LLVMIsDeclaration(v))
			LLVMSetLinkage(v, LLVMAvailableExternallyLinkage);
	t0 = ll_now();
	if ((e = ll_passes(mod, tm, pt->opt)) != NULL) {
		pt->err = LLVMGetErrorMessage(e);
		goto out;
	}
	pt->opt_ns = ll_now() - t0;
	if (LLVMTargetMachineEmitToMemoryBuffer(tm, mod, LLVMObjectFile, &pt->err, &pt->obj))
		pt->obj = NULL;
out:
	if (mod)
		LLVMDisposeModule(mod);
	LLVMDisposeMemoryBuffer(mb);
	if (tm)
		LLVMDisposeTargetMachine(tm);
	LLVMContextDispose(cx);
	return NULL;
}

/* ll_nparts: how many threads compile the module: one per core, at most
** MAXPARTS; GRAFT_LLVM_THREADS overrides */
int
ll_nparts(void)
{
	const char *env = getenv("GRAFT_LLVM_THREADS");
	long n = env ? strtol(env, NULL, 10) : sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > MAXPARTS ? MAXPARTS : (int)n;
}

/* cached: adds the n parts of entry key in dir (objcache.h) to jit, if
** all are there; 1 then (with *e the JIT's error, if any), else 0 */
static int
cached(LLVMOrcLLJITRef jit, const char *dir, const ObjKey *key, int n, LLVMErrorRef *e)
{
	void *data[MAXPARTS];
	size_t size[MAXPARTS];
	int k = 0;

	while (k < n && be_objcache_load(dir, key, k, n, &data[k], &size[k]) == 0)
		k++;
	for (int j = 0; j < k; j++) {
		if (k == n && !*e)
			*e = LLVMOrcLLJITAddObjectFile(jit, LLVMOrcLLJITGetMainJITDylib(jit),
			                               LLVMCreateMemoryBufferWithMemoryRangeCopy(data[j], size[j], "graft-cached"));
		free(data[j]);
	}
	return k == n;
}

/* ll_splitjit: optimizes and compiles mod (unoptimized; consumed) in n parts
** on as many threads, its functions spread by size, and adds their
** objects to jit; its internal functions and data become external, each
** defined in one part.  opt_ns is the slowest part's optimization.  With
** cache, the objects are first looked up in the object cache (objcache.h;
** *hit set when they were there, and nothing is compiled), and stored
** there after. */
LLVMErrorRef
ll_splitjit(LLVMOrcLLJITRef jit, LLVMModuleRef mod, const Mach *mc, int opt, int n, int cache, const Blobs *bl, double *opt_ns,
         int *hit)
{
	Part pt[MAXPARTS];
	pthread_t th[MAXPARTS];
	int started[MAXPARTS] = { 0 };
	uint64_t load[MAXPARTS] = { 0 };
	uint32_t nf = 0, i = 0;
	uint8_t *owner;
	LLVMMemoryBufferRef bc;
	LLVMErrorRef e = NULL;
	char *dir = cache ? be_objcache_dir() : NULL, extra[1024];
	ObjKey key;

	*hit = 0;
	for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f))
		nf++;
	owner = ir_xcalloc(nf + 1, 1);
	for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f), i++) {
		uint64_t size = 0;
		int k = 0;
		if (LLVMIsDeclaration(f))
			continue;
		for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
			for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
				size++;
		for (int j = 1; j < n; j++)
			if (load[j] < load[k])
				k = j;
		owner[i] = (uint8_t)k;
		load[k] += size;
		if (LLVMGetLinkage(f) == LLVMInternalLinkage) {
			LLVMSetLinkage(f, LLVMExternalLinkage);
			LLVMSetVisibility(f, LLVMHiddenVisibility);
		}
	}
	for (LLVMValueRef v = LLVMGetFirstGlobal(mod); v; v = LLVMGetNextGlobal(v))
		if (LLVMGetLinkage(v) == LLVMInternalLinkage) {
			LLVMSetLinkage(v, LLVMExternalLinkage);
			LLVMSetVisibility(v, LLVMHiddenVisibility);
		}
	bc = LLVMWriteBitcodeToMemoryBuffer(mod);
	LLVMDisposeModule(mod);
	*opt_ns = 0;
	if (dir) {
		/* the blobs' sizes and data, hashed one after another */
		ObjKey bk = { { 0, 0 } };
		for (uint32_t k = 0; k < bl->n; k++) {
			snprintf(extra, sizeof extra, "%016" PRIx64 "%016" PRIx64 " %zu", bk.h[0], bk.h[1], bl->b[k].n);
			be_objcache_key(&bk, bl->b[k].data, bl->b[k].n, extra);
		}
		snprintf(extra, sizeof extra, "graft-objcache-2 LLVM %s %s %s %s O%d parts %d blobs %u %016" PRIx64 "%016" PRIx64,
		         LLVM_VERSION_STRING, mc->triple, mc->cpu, mc->feat, opt, n, bl->n, bk.h[0], bk.h[1]);
		be_objcache_key(&key, LLVMGetBufferStart(bc), LLVMGetBufferSize(bc), extra);
		if ((*hit = cached(jit, dir, &key, n, &e))) {
			LLVMDisposeMemoryBuffer(bc);
			free(owner);
			free(dir);
			return e;
		}
	}
	for (int k = 0; k < n; k++) {
		memset(&pt[k], 0, sizeof pt[k]);
		pt[k].bc = LLVMGetBufferStart(bc);
		pt[k].nbc = LLVMGetBufferSize(bc);
		pt[k].owner = owner;
		pt[k].mc = mc;
		pt[k].k = k;
		pt[k].opt = opt;
		started[k] = k && !pthread_create(&th[k], NULL, partrun, &pt[k]);
	}
	for (int k = 0; k < n; k++)
		if (!started[k])
			partrun(&pt[k]);
	for (int k = 0; k < n; k++) {
		if (started[k])
			pthread_join(th[k], NULL);
		if (pt[k].opt_ns > *opt_ns)
			*opt_ns = pt[k].opt_ns;
		if (!e && pt[k].err)
			e = LLVMCreateStringError(pt[k].err);
		else if (!e && pt[k].obj) {
			if (dir)
				be_objcache_store(dir, &key, k, n, LLVMGetBufferStart(pt[k].obj), LLVMGetBufferSize(pt[k].obj));
			e = LLVMOrcLLJITAddObjectFile(jit, LLVMOrcLLJITGetMainJITDylib(jit), pt[k].obj), pt[k].obj = NULL;
		}
		if (pt[k].obj)
			LLVMDisposeMemoryBuffer(pt[k].obj);
		if (pt[k].err)
			LLVMDisposeMessage(pt[k].err);
	}
	LLVMDisposeMemoryBuffer(bc);
	free(owner);
	free(dir);
	return e;
}
