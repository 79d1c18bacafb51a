/*
** api.h, installed as <graft/api.h>: the API a program drives graft with,
** as the graft command does: load a model (Relay text or ONNX), bind its
** parameters, rewrite it, partition it for targets, print it, compile it
** on a backend and run it, through opaque handles.
**
** Ownership: a handle made by a graft_*_new, _open, _load, _parse or
** graft_compile function is released by the matching _free or _close
** (which take NULL); what it returns (names, shapes, records) is valid
** until then, but for the strings of graft_module_text() and _dot(), which
** the caller releases with graft_free().  Nothing takes what it is given.
**
** Errors: a function that can fail takes a graft_diags (or NULL: records
** dropped), adds a record per error (file:line:col where there is one, as
** the graft command prints them) and returns NULL or nonzero; none exits
** or aborts on bad input.
*/
#ifndef GRAFT_API_H
#define GRAFT_API_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct graft_diags graft_diags;       /* diagnostics collected */
typedef struct graft_module graft_module;     /* a model */
typedef struct graft_ruleset graft_ruleset;   /* rewrite rules */
typedef struct graft_target graft_target;     /* a target's pattern table */
typedef struct graft_program graft_program;   /* a module compiled */

/* ---------------------------------------------------------------- diagnostics */

/* A record's severity. */
enum { GRAFT_ERROR = 0, GRAFT_WARNING = 1, GRAFT_NOTE = 2 };

/* A new collection (NULL if out of memory); releasing it; the number of
** its records, and of those that are errors. */
graft_diags *graft_diags_new(void);
void graft_diags_free(graft_diags *d);
size_t graft_diags_count(const graft_diags *d);
size_t graft_diags_errors(const graft_diags *d);
/* graft_diags_get: record i of d: its file (NULL: about no file), line and
** column (0: unknown), severity (GRAFT_ERROR...) and message (one line,
** without "file:line:col: error: "); out pointers may be NULL.  Returns
** 0, or -1 when i is out of range. */
int graft_diags_get(const graft_diags *d, size_t i, const char **file, unsigned *line, unsigned *col,
                    int *severity, const char **message);
/* graft_diags_print: d's records to f as the graft command prints them
** (with the source line and a caret where it has them). */
void graft_diags_print(const graft_diags *d, FILE *f);
/* graft_diags_clear: drops d's records. */
void graft_diags_clear(graft_diags *d);

/* graft_free: releases a string the API returned for the caller. */
void graft_free(void *p);

/* graft_load_plugin: loads the plugin at path, as `graft --plugin path`
** does, until the process exits: its matchers then open by name.
** graft_register_plugin: the same for pl (<graft/plugin.h>), linked into
** the program; where names it in messages.  0, or nonzero after adding
** the error to d. */
int graft_load_plugin(const char *path, graft_diags *d);
struct graft_plugin_info;
int graft_register_plugin(const struct graft_plugin_info *pl, const char *where, graft_diags *d);

/* ---------------------------------------------------------------- modules */

/* graft_module_load: the model at path, as `graft FILE` reads it (ONNX
** if it ends in .onnx, else Relay text); graft_module_parse: Relay text
** (len bytes, copied), named name in diagnostics.  Types inferred.  NULL
** after adding its errors to d. */
graft_module *graft_module_load(const char *path, graft_diags *d);
graft_module *graft_module_parse(const char *text, size_t len, const char *name, graft_diags *d);
void graft_module_free(graft_module *m);
/* graft_module_bind_params: binds the tensors of the safetensors file at
** path to m's constants (meta[relay.Constant][N]) and @main's parameters
** by name, as `graft --params path` does.  0, or nonzero after adding its
** errors to d (m is then unchanged or unusable: free it). */
int graft_module_bind_params(graft_module *m, const char *path, graft_diags *d);
/* graft_module_bind: freezes @main's parameter name (written without its
** '%') to the .npy file at path, as `graft --bind name=path` does.  0, or
** nonzero after adding its errors to d. */
int graft_module_bind(graft_module *m, const char *name, const char *path, graft_diags *d);
/* graft_module_text: m as Relay text, byte for byte what `graft FILE`
** prints; graft_module_dot: as Graphviz (`graft --emit dot`).  Released
** with graft_free(); NULL if out of memory. */
char *graft_module_text(const graft_module *m);
char *graft_module_dot(const graft_module *m);
/* graft_module_stats: the live nodes of m, and into *functions (if not
** NULL) its global functions, partitions included. */
size_t graft_module_stats(const graft_module *m, size_t *functions);

/* ---------------------------------------------------------------- rules */

/*
** graft_ruleset_open: rules to rewrite with, from spec: rules text given
** inline (spec holds a newline), a .rules file loaded at run time (spec
** holds a '/' or ends in ".rules"), else the ruleset of that name shipped
** with graft (canonicalize, qdq, ...) or registered by a loaded plugin.
** NULL after adding the error to d (no such ruleset, a target table named,
** the rules' own errors at their file:line:col).
*/
graft_ruleset *graft_ruleset_open(const char *spec, graft_diags *d);
/* graft_ruleset_close: releases rs (what it rewrote stays). */
void graft_ruleset_close(graft_ruleset *rs);
/* graft_ruleset_name: its name ("canonicalize", or its file's). */
const char *graft_ruleset_name(const graft_ruleset *rs);
/* graft_module_rewrite: rewrites m with rs until no rule matches, as
** `graft --rules` does; the rewrites made into *rewrites if not NULL.  0,
** or nonzero after adding its errors to d. */
int graft_module_rewrite(graft_module *m, const graft_ruleset *rs, uint64_t *rewrites, graft_diags *d);

/* graft_target_open: a target's pattern table, from spec as for
** graft_ruleset_open (ethos-n, cmsis-nn, ...); NULL after adding the
** error to d.  graft_target_close: releases t. */
graft_target *graft_target_open(const char *spec, graft_diags *d);
void graft_target_close(graft_target *t);
/* What partitioning did: rewrites by the targets' own rules, composites
** made, partitions (global functions) made, ops in them, ops left on the
** host. */
typedef struct graft_partition_stats {
	uint64_t rewrites, composites, partitions, offloaded, host;
} graft_partition_stats;
/* graft_module_partition: partitions m for ts[0..n), the host last, as
** `graft --target "T0, ..., host"` does: what a target takes goes into a
** function of its own, called from @main; what it did into *st if not
** NULL.  0, or nonzero after adding its errors to d. */
int graft_module_partition(graft_module *m, const graft_target *const *ts, size_t n, graft_partition_stats *st,
                           graft_diags *d);

/* ---------------------------------------------------------------- running */

/*
** graft_compile: m's @main and all it calls prepared for running on the
** backend "ref" (the reference interpreter), "c" (C compiled with cc) or
** "llvm" (LLVM's JIT), its code on threads threads (llvm; 0 for the
** machine's cores; ref and c run on one), as `graft run --backend B
** --threads N` does.  m may be changed or freed afterwards.  NULL after
** adding its errors to d.
*/
graft_program *graft_compile(const graft_module *m, const char *backend, int threads, graft_diags *d);
/* p's numbers of inputs (@main's parameters) and outputs (its results, a
** tuple's fields depth first). */
size_t graft_program_ninputs(const graft_program *p);
size_t graft_program_noutputs(const graft_program *p);
/* graft_program_input, graft_program_output: input or output i of p:
** into *name (outputs: NULL), *dtype (GRAFT_DT_*), *rank and *shape (rank
** dims) when not NULL.  Returns 0, or -1 when i is out of range. */
int graft_program_input(const graft_program *p, size_t i, const char **name, int32_t *dtype, int32_t *rank,
                        const int64_t **shape);
int graft_program_output(const graft_program *p, size_t i, const char **name, int32_t *dtype, int32_t *rank,
                         const int64_t **shape);
/* graft_program_run: runs p on in[0..nin) into out[0..nout), the
** caller's buffers, of the dtypes, ranks and shapes graft_program_input()
** and _output() give.  0, or nonzero after adding to d an error for each
** tensor that does not fit, or the run's own (a division by zero). */
int graft_program_run(graft_program *p, const graft_tensor *in, size_t nin, graft_tensor *out, size_t nout,
                      graft_diags *d);
void graft_program_free(graft_program *p);

#ifdef __cplusplus
}
#endif

#endif
