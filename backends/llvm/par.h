/*
** par.h: the llvm backend's thread pool, which the code its JIT compiles
** calls to run a loop's iterations on several threads.
**
** A loop the backend may split (a conv kernel's rows, a large elementwise
** map) becomes a function of its own, body(in, err, lo, hi), running
** iterations [lo, hi); the code calls be_par_run(body, in, err, n), which
** runs [0, n) in contiguous chunks on the pool's threads and the caller's,
** and returns when all are done.  Iterations write disjoint memory, so
** the results do not depend on the thread count.  One pool per process;
** be_par_threads() sizes it (graft run --threads).
*/
#ifndef GRAFT_PAR_H
#define GRAFT_PAR_H

#include <stdint.h>

/* ParBody: iterations [lo, hi) of a split loop; in and err are those of
** the function that split it */
typedef void ParBody(void *const *in, int32_t *err, int64_t lo, int64_t hi);

/* be_par_threads: the threads be_par_run uses from now on, the caller's
** included (n < 1: one); workers start on the first run that needs them */
void be_par_threads(int n);

/* be_par_nthreads: the threads be_par_run uses */
int be_par_nthreads(void);

/* be_par_cores: the cores this process may run on (at least 1): the
** default of graft run --threads */
int be_par_cores(void);

/* be_par_run: body over [0, n), split among the threads; serial when
** there is one, when n < 2, when called from inside a run, or while
** another thread's run holds the pool (programs may run concurrently) */
void be_par_run(ParBody *body, void *const *in, int32_t *err, int64_t n);

/* be_par_shutdown: stops and joins the workers (at exit; a later run
** starts them again) */
void be_par_shutdown(void);

#endif
