/*
** par.c: the llvm backend's thread pool (par.h).
**
** A run publishes its job (body, in, err, n) and then the chunk counter
** next: the job's generation (bits 32 and up), its chunk count (16 to
** 31) and the next chunk to take (0 to 15); every thread takes chunks by
** a compare-and-swap that succeeds only on its job's generation and
** while chunks are left, reading nothing else before.  So a
** late worker can neither run a chunk with another job's fields nor use
** up one of another job's chunks, and the caller, which takes chunks
** too, returns when left (the chunks not finished) is 0.  Workers spin
** a while on next for a new generation, then sleep on a condition
** variable; the caller wakes them only when some sleep.
*/
#ifndef _GNU_SOURCE
#define _GNU_SOURCE     /* sched_getaffinity, CPU_COUNT */
#endif
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "par.h"

enum {
	PAR_MAX = 64,           /* threads at most */
	PAR_CHUNKS = 4,         /* chunks per thread, so that a slow one is helped */
	PAR_SPINS = 1 << 17     /* a worker's spins on next before it sleeps */
};

static struct {
	pthread_mutex_t mu;
	pthread_cond_t wake;
	pthread_t th[PAR_MAX];
	atomic_int want;        /* threads wanted, the caller's included */
	int started;            /* workers started */
	atomic_int stop;
	atomic_int sleeping;    /* workers asleep on wake */
	atomic_int busy;        /* a run holds the pool (another caller's runs go serial) */
	/* the job: written before next is published */
	ParBody *body;
	void *const *in;
	int32_t *err;
	int64_t n;
	int nworkers;           /* the workers that take part */
	atomic_ullong next;     /* generation << 32 | next chunk */
	atomic_llong left;      /* chunks not finished */
} P = { .mu = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER, .want = 1 };

static _Thread_local int inside;        /* this thread runs a chunk */

/* relax: a hint to the core that this thread spins */
static void
relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

/* take: runs chunks of generation gen until none is left.  A chunk is
** taken by a compare-and-swap of next, never an add: a thread that comes
** late, after a new job was published, must not use up one of its
** chunks (which nobody would then run) */
static void
take(uint32_t gen)
{
	unsigned long long k = atomic_load(&P.next);

	for (;;) {
		int64_t c = (int64_t)(k & 0xffff), nc = (int64_t)(k >> 16 & 0xffff);
		if ((uint32_t)(k >> 32) != gen || c >= nc)
			return;
		if (!atomic_compare_exchange_weak(&P.next, &k, k + 1))
			continue;       /* k is next's value now: try again */
		P.body(P.in, P.err, c * P.n / nc, (c + 1) * P.n / nc);
		atomic_fetch_sub(&P.left, 1);
		k = atomic_load(&P.next);
	}
}

/* worker: worker number (intptr_t) arg's loop: waits for a new
** generation, takes part in it if its number is below the job's count */
static void *
worker(void *arg)
{
	int me = (int)(intptr_t)arg;
	uint32_t seen = (uint32_t)(atomic_load(&P.next) >> 32), gen;

	inside = 1;
	for (;;) {
		long spins = 0;
		while ((gen = (uint32_t)(atomic_load(&P.next) >> 32)) == seen && spins++ < PAR_SPINS && !atomic_load(&P.stop))
			relax();
		if (gen == seen) {
			pthread_mutex_lock(&P.mu);
			atomic_fetch_add(&P.sleeping, 1);
			while ((gen = (uint32_t)(atomic_load(&P.next) >> 32)) == seen && !atomic_load(&P.stop))
				pthread_cond_wait(&P.wake, &P.mu);
			atomic_fetch_sub(&P.sleeping, 1);
			pthread_mutex_unlock(&P.mu);
		}
		if (atomic_load(&P.stop))
			return NULL;
		seen = gen;
		if (me < P.nworkers)
			take(gen);
	}
}

/* be_par_threads: see par.h */
void
be_par_threads(int n)
{
	atomic_store(&P.want, n < 1 ? 1 : n > PAR_MAX ? PAR_MAX : n);
}

/* be_par_nthreads: see par.h */
int
be_par_nthreads(void)
{
	return atomic_load(&P.want);
}

/* be_par_cores: see par.h */
int
be_par_cores(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

#ifdef CPU_COUNT
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0 && CPU_COUNT(&set) < n)
		n = CPU_COUNT(&set);
#endif
	return n < 1 ? 1 : n > PAR_MAX ? PAR_MAX : (int)n;
}

/* be_par_run: see par.h */
void
be_par_run(ParBody *body, void *const *in, int32_t *err, int64_t n)
{
	int want = atomic_load(&P.want);
	int64_t nchunks;
	uint32_t gen;

	if (n <= 0)
		return;
	if (want < 2 || n < 2 || inside || atomic_exchange(&P.busy, 1)) {
		body(in, err, 0, n);
		return;
	}
	while (P.started < want - 1) {
		if (pthread_create(&P.th[P.started], NULL, worker, (void *)(intptr_t)P.started) != 0)
			break;
		P.started++;
	}
	P.body = body;
	P.in = in;
	P.err = err;
	P.n = n;
	nchunks = n < (int64_t)want * PAR_CHUNKS ? n : (int64_t)want * PAR_CHUNKS;
	P.nworkers = want - 1 < P.started ? want - 1 : P.started;
	atomic_store(&P.left, nchunks);
	gen = (uint32_t)(atomic_load(&P.next) >> 32) + 1;
	atomic_store(&P.next, (unsigned long long)gen << 32 | (unsigned long long)nchunks << 16);
	if (atomic_load(&P.sleeping)) {
		pthread_mutex_lock(&P.mu);
		pthread_cond_broadcast(&P.wake);
		pthread_mutex_unlock(&P.mu);
	}
	inside = 1;
	take(gen);
	inside = 0;
	for (long spins = 1; atomic_load(&P.left) > 0; spins++)
		if (spins % 4096)
			relax();
		else
			sched_yield();  /* a worker may be waiting for this core */
	atomic_store(&P.busy, 0);
}

/* be_par_shutdown: see par.h */
void
be_par_shutdown(void)
{
	pthread_mutex_lock(&P.mu);
	atomic_store(&P.stop, 1);
	pthread_cond_broadcast(&P.wake);
	pthread_mutex_unlock(&P.mu);
	for (int i = 0; i < P.started; i++)
		pthread_join(P.th[i], NULL);
	P.started = 0;
	atomic_store(&P.stop, 0);
}
