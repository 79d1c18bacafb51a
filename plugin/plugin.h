/*
** plugin.h: a graft plugin, a shared object that brings a target without
** rebuilding graft: compiled matchers (graftc's output), the extern
** predicates and actions its rules call, its ops, its codegen.  `graft
** --plugin LIB.so` and graft_load_plugin() load one; a program that links
** one in gives it to graft_register_plugin() (<graft/api.h>).
**
** Its entry point is the graft_plugin_info graft_plugin, which
** GRAFT_PLUGIN() defines.  The host refuses it unless its abi is the
** host's GRAFT_PLUGIN_ABI, then calls init(), which registers with the
** graft_plugin_add_ functions.  All of it stays until the process exits;
** what they are given is copied, but matchers and scalar rows'
** expressions and when strings are kept by pointer (static storage).
**
**   static int init(graft_plugin_host *h) {
**       return graft_plugin_add_matcher(h, &graft_ruleset_acme) ? 0 : 1;
**   }
**   GRAFT_PLUGIN("acme", "1.0", init);
*/
#ifndef GRAFT_PLUGIN_H
#define GRAFT_PLUGIN_H

#include <stdint.h>

#include "codegen.h"
#include "kernel.h"
#include "opdef.h"
#include "rules.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The plugin ABI: graft_plugin_info and what the graft_plugin_add_
** functions take, raised when any changes incompatibly (docs/embedding.md,
** "Versions").  4: scalar rows of two operands. */
#define GRAFT_PLUGIN_ABI 4

typedef struct graft_plugin_host graft_plugin_host;

typedef struct graft_plugin_info {
	uint32_t abi;           /* GRAFT_PLUGIN_ABI as the plugin was built */
	const char *name;
	const char *version;
	int (*init)(graft_plugin_host *h);     /* 0, or nonzero after graft_plugin_error() */
} graft_plugin_info;

/* The entry point's name, and its definition. */
#define GRAFT_PLUGIN_ENTRY "graft_plugin"
#ifdef __cplusplus
#define GRAFT_PLUGIN_LINKAGE extern "C"
#else
#define GRAFT_PLUGIN_LINKAGE
#endif
#define GRAFT_PLUGIN(name, version, init) \
	GRAFT_PLUGIN_LINKAGE GRAFT_EXPORT const graft_plugin_info graft_plugin = { GRAFT_PLUGIN_ABI, name, version, init }

/* A compiled ruleset or target table, found afterwards by its name as
** graft's own are (--rules NAME, --target NAME).  The ops it names must
** be registered first.  Returns 1, or 0 after recording why. */
int graft_plugin_add_matcher(graft_plugin_host *h, const graft_matcher *m);

/* An op with its C kernel (<graft/kernel.h>), which every backend runs:
** fn, called in-process, and symbol, the name fn is exported by
** (GRAFT_EXPORT), which the code the c and llvm backends write calls, so
** that `--emit c` and `--emit obj` output links with the plugin.  Returns
** 1, or 0 after recording why: a name taken or not dotted identifiers, a
** schema or default that does not read, no type relation, a symbol that
** is no C identifier or starts with graft_, an ints2 attribute. */
int graft_plugin_add_op(graft_plugin_host *h, const graft_op_def *op, graft_kernel *fn, const char *symbol);

/* An elementwise op of one operand or two (broadcast), whose semantics
** is rows[0..n) (<graft/scalar.h>'s words): every backend computes it as
** it does graft's own elementwise ops.  Without a type relation, its
** operand's type (two: their broadcast).  Returns 1, or 0 after
** recording why. */
int graft_plugin_add_scalar_op(graft_plugin_host *h, const graft_op_def *op, const graft_scalar_row *rows,
                               uint32_t n);

/* The codegen of the target's partitions.  Returns 1, or 0 after
** recording why (no target, no functions, a target taken). */
int graft_plugin_add_codegen(graft_plugin_host *h, const graft_codegen *cg);

/* Records why init() fails; the host prints it with the plugin's name. */
void graft_plugin_error(graft_plugin_host *h, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

#ifdef __cplusplus
}
#endif

#endif
