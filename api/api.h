/*
** api.h, installed as <graft/api.h>: the small API a program uses
** to drive graft, as the graft command does: load a model (Relay text or
** ONNX), bind its parameters, rewrite it with rulesets, partition it for
** targets, print it, compile it on a backend and run it.  It stands alone:
** it includes only the C library's headers and <graft/kernel.h> (for
** graft_tensor and the GRAFT_DT_ codes), every name is graft_-prefixed and
** every type is an opaque handle.  (<graft/graft.h> is the whole internal
** API, for plugins.)
**
** Ownership: every handle is made by a graft_*_new, _open, _load, _parse
** or graft_compile function and released by the matching _free or _close,
** which takes NULL; a handle owns everything it returns (names, shapes,
** records), valid until it is released, except graft_module_text() and
** graft_module_dot(), whose strings the caller releases with graft_free();
** nothing takes ownership of what it is given.
**
** Errors: every function that can fail takes a graft_diags, adds a record
** for each error to it (file:line:col where there is a location, as the
** graft command prints them) and returns a failure value (NULL, or
** nonzero); none exits or aborts on bad input.  A NULL graft_diags is
** allowed: the records are dropped.
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

/* graft_diags_new: an empty collection; NULL if out of memory. */
graft_diags *graft_diags_new(void);
/* graft_diags_free: releases d and its records. */
void graft_diags_free(graft_diags *d);
/* graft_diags_count: the number of records in d (errors, warnings, notes). */
size_t graft_diags_count(const graft_diags *d);
/* graft_diags_errors: the number of records of d that are errors. */
size_t graft_diags_errors(const graft_diags *d);
/*
** graft_diags_get: record i (from 0) of d: its file (NULL when the message
** is about no file), line and column (0 when unknown), severity
** (GRAFT_ERROR...) and message (one line, without the "file:line:col:
** error: " prefix).  Any out pointer may be NULL.  Returns 0, or -1 when i
** is out of range.
*/
int graft_diags_get(const graft_diags *d, size_t i, const char **file, unsigned *line, unsigned *col,
                    int *severity, const char **message);
/* graft_diags_print: writes every record of d to f exactly as the graft
** command prints it (with the source line and a caret under the column
** where it has them). */
void graft_diags_print(const graft_diags *d, FILE *f);
/* graft_diags_clear: drops d's records. */
void graft_diags_clear(graft_diags *d);

/* graft_free: releases a string the API returned for the caller. */
void graft_free(void *p);

/* graft_load_plugin: loads the plugin at path (a shared object, as `graft
** --plugin path` loads it): its rulesets and target tables then open by
** name, its ops and codegens are registered.  It stays loaded until the
** process exits.  0, or nonzero after adding the error to d. */
int graft_load_plugin(const char *path, graft_diags *d);

/* ---------------------------------------------------------------- modules */

/* graft_module_load: the model at path, as `graft FILE` reads it: an ONNX
** model (path ends in .onnx) imported, anything else parsed as Relay text;
** types inferred.  NULL after adding its errors to d. */
graft_module *graft_module_load(const char *path, graft_diags *d);
/* graft_module_parse: Relay text (len bytes, copied), named name in
** diagnostics; types inferred.  NULL after adding its errors to d. */
graft_module *graft_module_parse(const char *text, size_t len, const char *name, graft_diags *d);
/* graft_module_free: releases m. */
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
** prints; NUL-terminated, the caller releases it with graft_free().  NULL
** if out of memory. */
char *graft_module_text(const graft_module *m);
/* graft_module_dot: m as Graphviz, as `graft --emit dot FILE` prints it;
** released with graft_free(). */
char *graft_module_dot(const graft_module *m);
/* graft_module_stats: the number of live nodes of m (those reachable from
** its functions: calls, constants, parameters...) and, into *functions if
** not NULL, its global functions (partitions included). */
size_t graft_module_stats(const graft_module *m, size_t *functions);

/* ---------------------------------------------------------------- rules */

/*
** graft_ruleset_open: rules to rewrite with, from spec: rules text given
** inline (spec holds a newline), a .rules file loaded at run time (spec
** holds a '/' or ends in ".rules"), else the ruleset of that name shipped
** with graft (canonicalize, qdq, ...) or registered by a loaded plugin.
** Inline text is loaded from a file of its own in a fresh temporary
** directory, which its diagnostics name.
** NULL after adding the error to d (no such ruleset, a target table named,
** the rules' own errors at their file:line:col).
*/
graft_ruleset *graft_ruleset_open(const char *spec, graft_diags *d);
/* graft_ruleset_close: releases rs (a module rewritten with it is not
** affected). */
void graft_ruleset_close(graft_ruleset *rs);
/* graft_module_rewrite: rewrites m with rs until no rule matches, as
** `graft --rules` does.  0, or nonzero after adding its errors to d. */
int graft_module_rewrite(graft_module *m, const graft_ruleset *rs, graft_diags *d);

/* graft_target_open: a target's pattern table, from spec as for
** graft_ruleset_open (ethos-n, cmsis-nn, ...).  NULL after adding the error
** to d. */
graft_target *graft_target_open(const char *spec, graft_diags *d);
/* graft_target_close: releases t. */
void graft_target_close(graft_target *t);
/* graft_module_partition: partitions m for ts[0..n), the host last, as
** `graft --target "T0, ..., host"` does: what a target takes goes into a
** function of its own, called from @main.  0, or nonzero after adding its
** errors to d. */
int graft_module_partition(graft_module *m, const graft_target *const *ts, size_t n, graft_diags *d);

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
/* graft_program_ninputs, graft_program_noutputs: p's numbers of inputs
** (@main's parameters) and of outputs (its results, a tuple's fields
** depth first). */
size_t graft_program_ninputs(const graft_program *p);
size_t graft_program_noutputs(const graft_program *p);
/* graft_program_input, graft_program_output: input or output i of p:
** into *name (outputs: NULL), *dtype (GRAFT_DT_*), *rank and *shape (rank
** dims) when not NULL.  Returns 0, or -1 when i is out of range. */
int graft_program_input(const graft_program *p, size_t i, const char **name, int32_t *dtype, int32_t *rank,
                        const int64_t **shape);
int graft_program_output(const graft_program *p, size_t i, const char **name, int32_t *dtype, int32_t *rank,
                         const int64_t **shape);
/*
** graft_program_run: runs p on in[0..nin) into out[0..nout), every buffer
** the caller's: each tensor must have the dtype, rank and shape that
** graft_program_input() or _output() gives, and data of that size; the
** results are copied into out's data.  0, or nonzero after adding to d an
** error for each tensor that does not fit (naming it and what was
** expected) or the run's own error (an integer division by zero).
*/
int graft_program_run(graft_program *p, const graft_tensor *in, size_t nin, graft_tensor *out, size_t nout,
                      graft_diags *d);
/* graft_program_free: releases p. */
void graft_program_free(graft_program *p);

#ifdef __cplusplus
}
#endif

#endif
