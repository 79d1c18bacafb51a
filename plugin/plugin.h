/*
** plugin.h: graft plugins.  A plugin is a shared object that brings a
** target to graft without rebuilding it: compiled rulesets and target
** tables (graftc's output), the extern predicates and actions its rules
** call, the target's own ops, and a codegen for its partitions.  `graft
** --plugin LIB.so` (and `graft run --plugin`) loads one; a program using
** libgraft loads one with graft_plugin_load().
**
** The one entry point is a GraftPlugin object called graft_plugin, which
** GRAFT_PLUGIN() defines.  The host checks its abi against its own
** GRAFT_PLUGIN_ABI before it calls anything, then calls init() once, which
** registers what the plugin brings through the graft_plugin_add_*()
** functions below.  Extern predicates and actions need no registering:
** rules compiled into the plugin call them directly, and rules loaded at
** run time find them by name (graft_pred_NAME, graft_action_NAME) among
** the symbols of the program and its plugins, so they must be exported
** (GRAFT_EXPORT) when the plugin hides its symbols.
**
** Ownership: what a plugin registers stays registered, and the plugin
** stays loaded, until the process exits.  Registered rulesets and codegens
** are kept by pointer or copied as told below; ops are copied.
**
**   static int init(GraftPluginHost *h) {
**       return graft_plugin_add_ruleset(h, &graft_ruleset_acme) ? 0 : 1;
**   }
**   GRAFT_PLUGIN("acme", "1.0", init);
*/
#ifndef GRAFT_PLUGIN_H
#define GRAFT_PLUGIN_H

#include <stdint.h>
#include <stdio.h>

#include "backend.h"
#include "ir.h"
#include "ref.h"
#include "rewrite.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The plugin ABI: what GraftPlugin, the registration functions and the
** structures they take (Ruleset, Rw, OpInfo, RefVal, BeCodegen, Module)
** look like.  Raised whenever any of them changes incompatibly
** (docs/embedding.md: "Versions"; tests/abi.sh checks).  The numbering of
** the built-in ops (OP_ in ir.h) is not part of it: graftc's code names
** ops by name, bound when it is used (Ruleset.ops), and a plugin's own C
** should too (ir_op_lookup(), ir_ops[op].name), so that a graft with ops
** added, removed or reordered runs it unchanged.  2: Ruleset.ops. */
#define GRAFT_PLUGIN_ABI 2

/* A symbol the host must see in a plugin that hides its symbols. */
#if defined(__GNUC__)
#define GRAFT_EXPORT __attribute__((visibility("default")))
#else
#define GRAFT_EXPORT
#endif

typedef struct GraftPluginHost GraftPluginHost;

typedef struct GraftPlugin {
	uint32_t abi;           /* GRAFT_PLUGIN_ABI as the plugin was built */
	const char *name;
	const char *version;
	/* registers what the plugin brings; returns 0, or nonzero after
	** saying why with graft_plugin_error() */
	int (*init)(GraftPluginHost *h);
} GraftPlugin;

/* The name of the entry point, and a definition of it. */
#define GRAFT_PLUGIN_ENTRY "graft_plugin"
#ifdef __cplusplus
#define GRAFT_PLUGIN_LINKAGE extern "C"
#else
#define GRAFT_PLUGIN_LINKAGE
#endif
#define GRAFT_PLUGIN(name, version, init) \
	GRAFT_PLUGIN_LINKAGE GRAFT_EXPORT const GraftPlugin graft_plugin = { GRAFT_PLUGIN_ABI, name, version, init }

/* ---------------------------------------------------------------- what init() calls */

/* A compiled ruleset or target table (graftc's graft_ruleset_NAME), kept by
** pointer, found afterwards by its name as built-in ones are (--rules NAME,
** --target NAME).  The plugin ops it uses must be registered first.
** Returns 1, or 0 after recording why (a name taken). */
int graft_plugin_add_ruleset(GraftPluginHost *h, const Ruleset *rs);

/* An op of the target's (ir_op_register()), with its reference kernel or
** NULL.  Returns the op's id, or 0 after recording why. */
OpId graft_plugin_add_op(GraftPluginHost *h, const OpInfo *op, RefKernel *kernel);

/* An op of the target's (ir_op_register()) with its C kernel (kernel.h),
** which every backend runs: fn, called in-process, and symbol, the name
** fn is exported by (GRAFT_EXPORT), which the code the c and llvm
** backends generate calls, so that `--emit c` and `--emit obj` output
** links with the plugin.  Returns the op's id, or 0 after recording why
** (ir_op_register()'s reasons, and ref_ckernel_register()'s: a symbol
** that is not a C identifier or starts with graft_, an ints2 attribute, a
** tuple result). */
OpId graft_plugin_add_kernel_op(GraftPluginHost *h, const OpInfo *op, graft_kernel *fn, const char *symbol);

/* An op of the target's, one operand, elementwise, whose semantics is
** rows in scalar.def's form (ir_scalar_register(), written with
** <graft/scalar.h>'s words): every backend computes it as it computes
** graft's own elementwise ops, and `--emit c`/`--emit obj` code needs
** nothing of the plugin's.  An op without a type relation (rel NULL) gets
** ir_rel_same.  Returns the op's id, or 0 after recording why. */
OpId graft_plugin_add_scalar_op(GraftPluginHost *h, const OpInfo *op, const ScalarDef *rows, uint32_t nrows);

/* The codegen of the target's partitions (be_codegen_register()).
** Returns 1, or 0 after recording why. */
int graft_plugin_add_codegen(GraftPluginHost *h, const BeCodegen *cg);

/* Records why init() fails; the host prints it with the plugin's name. */
void graft_plugin_error(GraftPluginHost *h, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/* ---------------------------------------------------------------- the host */

/* Loads the plugin at path (a name without '/' is looked up as dlopen()
** does; give ./NAME.so for one in the current folder).  Returns 0, or 1
** with a message in err: it does not load, has no entry point, was built
** for another ABI, is loaded already, or its init() fails. */
int graft_plugin_load(const char *path, char *err, size_t nerr);

/* Registers what pl brings, as loading it would, for a plugin linked into
** the program itself (where names it in messages).  Returns 0, or 1 with a
** message in err (another ABI, init() fails). */
int graft_plugin_register(const GraftPlugin *pl, const char *where, char *err, size_t nerr);

/* The ruleset or target table called name that a loaded plugin
** registered, or NULL. */
const Ruleset *graft_plugin_ruleset(const char *name);

/* The rulesets loaded plugins registered: *n of them, in load order. */
const Ruleset *const *graft_plugin_rulesets(uint32_t *n);

/* The plugins loaded, "name version (path)" each, one per line, to f. */
void graft_plugin_list(FILE *f);

#ifdef __cplusplus
}
#endif

#endif
