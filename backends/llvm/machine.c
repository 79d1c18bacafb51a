/*
** machine.c: the machine the llvm backend compiles for: the host, or the
** one --target's llvm part names (-mtriple, -mcpu, -mattr), checked
** (be_llvm_target_check), with the features that choose its conv
** kernels (Mach), and the LLVM target machine for it.
*/
#define _POSIX_C_SOURCE 200809L
#include <unistd.h>

#include <llvm-c/Disassembler.h>
#include <llvm-c/Target.h>

#include "llvmi.h"

/* inittargets: every target LLVM was built with, once: the host's, or
** the one --target's -mtriple names (Debian's libLLVM has AArch64, ARM
** and X86 among others), with their disassemblers for decodes() */
static void
inittargets(void)
{
	static int inited;

	if (inited++)
		return;
	LLVMInitializeAllTargetInfos();
	LLVMInitializeAllTargets();
	LLVMInitializeAllTargetMCs();
	LLVMInitializeAllAsmPrinters();
	LLVMInitializeAllDisassemblers();
}

/* field: the k-th '-'-separated field of triple t (0 arch, 2 OS of a
** normalized triple) into buf, "" past the last */
static const char *
field(const char *t, int k, char *buf, size_t n)
{
	size_t len;

	for (; k > 0 && t; k--)
		if ((t = strchr(t, '-')))
			t++;
	len = t ? strcspn(t, "-") : 0;
	len = len < n ? len : n - 1;
	memcpy(buf, t ? t : "", len);
	buf[len] = 0;
	return buf;
}

/* hasfeat: whether LLVM feature string f (comma-separated "+x" and "-x")
** turns feature x on: its last mention is "+x" */
static int
hasfeat(const char *f, const char *x)
{
	size_t n = strlen(x);
	int on = 0;

	for (const char *p = f; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if ((*p == '+' || *p == '-') && strncmp(p + 1, x, n) == 0 && (p[n + 1] == ',' || !p[n + 1]))
			on = *p == '+';
	return on;
}

/* decodes: whether LLVM's disassembler for mc's triple, CPU and features
** takes the n bytes at code as one instruction; the AArch64 one checks
** the instruction's feature, so this is how the LLVM-C API tells what a
** CPU named by -mcpu has (cortex-a55: dot product) */
static int
decodes(const Mach *mc, const uint8_t *code, size_t n)
{
	LLVMDisasmContextRef dc = LLVMCreateDisasmCPUFeatures(mc->triple, mc->cpu, mc->feat, NULL, 0, NULL, NULL);
	uint8_t buf[16];
	char text[128];
	size_t k;

	if (!dc)
		return 0;
	memcpy(buf, code, n);
	k = LLVMDisasmInstruction(dc, buf, n, 0, text, sizeof text);
	LLVMDisasmDispose(dc);
	return k == n;
}

/* ll_mach_free: releases mc's strings */
void
ll_mach_free(Mach *mc)
{
	LLVMDisposeMessage(mc->triple);
	LLVMDisposeMessage(mc->cpu);
	LLVMDisposeMessage(mc->feat);
	memset(mc, 0, sizeof *mc);
}

/* ll_mach_init: mc for the machine o names (o NULL: the host): the triple
** normalized; the host's CPU and features when the triple is the host's
** and no -mcpu is given (-mattr then added to them), else -mcpu (native:
** the host's) and -mattr alone.  Returns 0, or 1 with why in err (a
** triple LLVM has no target for: its message) */
int
ll_mach_init(Mach *mc, const BeOpts *o, char *err, size_t nerr)
{
	char *host = LLVMGetDefaultTargetTriple(), *hn = LLVMNormalizeTargetTriple(host), a[64], b[64];
	const char *cpu = o && o->cpu ? o->cpu : NULL, *attr = o && o->attr ? o->attr : "";
	int given = cpu && strcmp(cpu, "native") != 0;
	LLVMTargetRef t;
	char *msg = NULL;

	inittargets();
	memset(mc, 0, sizeof *mc);
	mc->triple = o && o->triple ? LLVMNormalizeTargetTriple(o->triple) : LLVMCreateMessage(hn);
	mc->native = !strcmp(field(mc->triple, 0, a, sizeof a), field(hn, 0, b, sizeof b)) &&
	             !strcmp(field(mc->triple, 2, a, sizeof a), field(hn, 2, b, sizeof b));
	mc->given = (o && (o->cpu || (o->attr && *o->attr)));
	LLVMDisposeMessage(host);
	LLVMDisposeMessage(hn);
	if (LLVMGetTargetFromTriple(mc->triple, &t, &msg)) {
		snprintf(err, nerr, "%s", msg);
		LLVMDisposeMessage(msg);
		ll_mach_free(mc);
		return 1;
	}
	if (cpu && !given && !mc->native) {
		snprintf(err, nerr, "-mcpu=native names this machine's CPU, and %s is not this machine's target", mc->triple);
		ll_mach_free(mc);
		return 1;
	}
	if (mc->native && !given) {
		char *hf = LLVMGetHostCPUFeatures();
		size_t n = strlen(hf) + strlen(attr) + 2;
		char *f = ir_xmalloc(n);
		snprintf(f, n, "%s%s%s", hf, *hf && *attr ? "," : "", attr);
		mc->cpu = LLVMGetHostCPUName();
		mc->feat = LLVMCreateMessage(f);
		LLVMDisposeMessage(hf);
		free(f);
	} else {
		mc->cpu = LLVMCreateMessage(cpu ? cpu : "");
		mc->feat = LLVMCreateMessage(attr);
	}
	return 0;
}

/* ll_tmnew: the target machine of mc at opt level opt, or NULL */
LLVMTargetMachineRef
ll_tmnew(const Mach *mc, int opt)
{
	LLVMTargetRef t;
	char *msg = NULL;

	if (LLVMGetTargetFromTriple(mc->triple, &t, &msg)) {
		LLVMDisposeMessage(msg);
		return NULL;
	}
	return LLVMCreateTargetMachine(t, mc->triple, mc->cpu, mc->feat,
	                               opt <= 0 ? LLVMCodeGenLevelNone : opt == 1 ? LLVMCodeGenLevelLess
	                               : opt == 2 ? LLVMCodeGenLevelDefault : LLVMCodeGenLevelAggressive,
	                               LLVMRelocPIC, LLVMCodeModelDefault);
}

/* be_llvm_target_check: see llvm.h */
int
be_llvm_target_check(const BeOpts *o, int *native, char *err, size_t nerr)
{
	Mach mc;
	LLVMTargetMachineRef tm;
	LLVMTargetDataRef td;
	FILE *f = tmpfile();
	int fd = -1, big;
	size_t n = 0;

	if (o->attr)
		for (const char *p = o->attr; *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : p + strlen(p))
			if (*p != '+' && *p != '-') {
				snprintf(err, nerr, "-mattr=%s: each feature starts with + (on) or - (off): +%.*s", o->attr,
				         (int)strcspn(p, ","), p);
				if (f)
					fclose(f);
				return 1;
			}
	if (ll_mach_init(&mc, o, err, nerr)) {
		if (f)
			fclose(f);
		return 1;
	}
	/* a CPU or feature LLVM does not know is a warning it prints as it
	   makes the machine's subtarget: caught here, it is an error */
	fflush(stderr);
	if (f && (fd = dup(2)) >= 0)
		dup2(fileno(f), 2);
	tm = ll_tmnew(&mc, 0);
	if (fd >= 0) {
		dup2(fd, 2);
		close(fd);
		rewind(f);
		n = fread(err, 1, nerr - 1, f);
		err[n] = 0;
		err[strcspn(err, "\n")] = 0;
		if (strstr(err, " (ignoring "))
			*strstr(err, " (ignoring ") = 0;     /* graft does not ignore it */
	}
	if (f)
		fclose(f);
	td = LLVMCreateTargetDataLayout(tm);
	big = LLVMByteOrder(td) == LLVMBigEndian;
	LLVMDisposeTargetData(td);
	LLVMDisposeTargetMachine(tm);
	if (!n && big)
		snprintf(err, nerr, "%s is big-endian: graft lays out constants in this machine's byte order", mc.triple);
	if (native)
		*native = mc.native;
	ll_mach_free(&mc);
	return n || big;
}

/* ll_machine: the target machine of mc at opt level opt; chooses mc's conv
** kernels from its features (x86: those of the host or named by -mattr;
** AArch64: whatever decodes() says of sdot) */
LLVMTargetMachineRef
ll_machine(Mach *mc, int opt)
{
	static const uint8_t sdot[4] = { 0x20, 0x94, 0x82, 0x4e };      /* sdot v0.4s, v1.16b, v2.16b */
	char arch[64];
	const char *f = mc->feat;

	field(mc->triple, 0, arch, sizeof arch);
	if (!strcmp(arch, "x86_64")) {
		mc->lanes = getenv("GRAFT_LLVM_AVX2") && hasfeat(f, "avx2") ? 8 : getenv("GRAFT_LLVM_NOFAST") ? 0
		            : hasfeat(f, "avx512bw") ? 16 : hasfeat(f, "avx2") ? 8 : 0;
		if (mc->lanes == 16 && hasfeat(f, "avx512vnni") && !getenv("GRAFT_LLVM_NOVNNI"))
			mc->dot = DOT_VNNI;
	} else if ((!strcmp(arch, "aarch64") || !strcmp(arch, "arm64")) && !getenv("GRAFT_LLVM_NOFAST") &&
	           decodes(mc, sdot, sizeof sdot)) {
		mc->dot = DOT_SDOT;
	}
	return ll_tmnew(mc, opt);
}
