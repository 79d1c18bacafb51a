/*
** par.c: unit tests of the llvm backend's thread pool (backends/llvm/par.c).
**
** Each run's body marks the iterations it runs in a counter per
** iteration: every iteration must run exactly once, whatever the thread
** count, the iteration count (fewer than the threads, not a multiple of
** the chunks), a run started from inside a body (serial), and runs from
** two threads of the caller at once (one holds the pool, the other goes
** serial), and many small jobs back to back (a late worker must not take
** a chunk of the next job: that hung once).  The pool must use as many
** threads as asked: the threads that ran a large job are counted.
*/
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../tap.h"
#include "par.h"

enum { NMAX = 100000 };

static atomic_int hits[NMAX];
static atomic_int nested_calls;
static pthread_t seen[64];
static atomic_int nseen;
static pthread_mutex_t seenmu = PTHREAD_MUTEX_INITIALIZER;

/* mark: counts each iteration of [lo, hi) */
static void
mark(void *const *in, int32_t *err, int64_t lo, int64_t hi)
{
	(void)in;
	(void)err;
	for (int64_t i = lo; i < hi; i++)
		atomic_fetch_add(&hits[i], 1);
}

/* who: mark, after recording the calling thread and waiting until
** be_par_nthreads() threads have come (so that a pool that uses fewer
** fails the test instead of passing by chance; after 30 s it gives up) */
static void
who(void *const *in, int32_t *err, int64_t lo, int64_t hi)
{
	pthread_t me = pthread_self();
	int known = 0;
	time_t t0 = time(NULL);

	pthread_mutex_lock(&seenmu);
	for (int i = 0; i < nseen; i++)
		known |= pthread_equal(seen[i], me);
	if (!known && nseen < 64)
		seen[nseen++] = me;
	pthread_mutex_unlock(&seenmu);
	while (atomic_load(&nseen) < be_par_nthreads() && time(NULL) - t0 < 30)
		sched_yield();
	mark(in, err, lo, hi);
}

/* nested: runs a nested run of mark over 10 iterations per iteration,
** offset so that each nested iteration is its own */
static void
nested(void *const *in, int32_t *err, int64_t lo, int64_t hi)
{
	(void)in;
	for (int64_t i = lo; i < hi; i++) {
		atomic_fetch_add(&nested_calls, 1);
		be_par_run(mark, (void *const *)(intptr_t)0, err, 10);
	}
}

/* once: whether each of the first n counters is exactly k, the rest 0 */
static int
once(int64_t n, int k)
{
	for (int64_t i = 0; i < NMAX; i++)
		if (atomic_load(&hits[i]) != (i < n ? k : 0))
			return 0;
	return 1;
}

static void
clear(void)
{
	for (int i = 0; i < NMAX; i++)
		atomic_store(&hits[i], 0);
}

/* caller: a thread of the caller's, running mark over NMAX 20 times */
static void *
caller(void *arg)
{
	(void)arg;
	for (int r = 0; r < 20; r++)
		be_par_run(mark, NULL, NULL, NMAX);
	return NULL;
}

int
main(void)
{
	static const int64_t ns[] = { 0, 1, 2, 3, 7, 8, 9, 31, 1000, 99991 };
	int32_t err = 0;
	pthread_t th[2];

	alarm(600);     /* a hang fails the test (SIGALRM) instead of stalling make check */
	plan_lazy();
	ok(be_par_cores() >= 1, "be_par_cores: at least one core (%d)", be_par_cores());
	for (int t = 1; t <= 4; t++) {
		be_par_threads(t);
		is_int(be_par_nthreads(), t, "be_par_threads(%d) sets the count", t);
		for (size_t j = 0; j < sizeof ns / sizeof *ns; j++) {
			clear();
			be_par_run(mark, NULL, &err, ns[j]);
			ok(once(ns[j], 1), "%d thread(s), %lld iterations: each runs once", t, (long long)ns[j]);
		}
	}
	be_par_threads(3);
	nseen = 0;
	clear();
	be_par_run(who, NULL, &err, 3000);
	ok(once(3000, 1), "3 threads: a job of 3000 iterations runs each once");
	is_int(nseen, 3, "3 threads: that job ran on 3 threads (the caller's and 2 workers)");
	be_par_threads(0);
	is_int(be_par_nthreads(), 1, "be_par_threads(0) is one thread");
	be_par_threads(1000);
	is_int(be_par_nthreads(), 64, "be_par_threads(1000) is 64 threads");

	/* many small jobs back to back: a worker that comes late to one must
	   not use up a chunk of the next (which then nobody runs: a hang) */
	for (int t = 2; t <= 3; t++) {
		int good = 1;
		be_par_threads(t);
		clear();
		for (int r = 0; r < 20000; r++)
			be_par_run(mark, NULL, &err, 2 + r % 9);
		for (int64_t i = 0; i < 10; i++) {
			int want = 0;
			for (int r = 0; r < 20000; r++)
				want += i < 2 + r % 9;
			good &= atomic_load(&hits[i]) == want;
		}
		ok(good, "%d threads: 20000 small jobs back to back each run in full", t);
	}

	be_par_threads(2);
	clear();
	nested_calls = 0;
	be_par_run(nested, NULL, &err, 50);
	is_int(nested_calls, 50, "a run inside a body: the outer iterations run once each");
	ok(once(10, 50), "a run inside a body runs serially, in full, each time");

	be_par_threads(2);
	clear();
	pthread_create(&th[0], NULL, caller, NULL);
	pthread_create(&th[1], NULL, caller, NULL);
	pthread_join(th[0], NULL);
	pthread_join(th[1], NULL);
	ok(once(NMAX, 40), "two threads running jobs at once: every iteration of each runs once");

	be_par_shutdown();
	clear();
	be_par_run(mark, NULL, &err, 1000);
	ok(once(1000, 1), "after be_par_shutdown, a run starts the workers again");
	be_par_shutdown();
	return done_testing();
}
