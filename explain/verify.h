/*
** verify.h: `graftc verify FILE.rules` (verify.c): each rewrite rule and
** composite checked on random instances of its patterns, the rewritten
** graph against the original on the reference interpreter.
*/
#ifndef GRAFT_VERIFY_H
#define GRAFT_VERIFY_H

#include <stdint.h>
#include <stdio.h>

typedef struct VerifyOpts {
	uint64_t seed;          /* the same seed, the same instances */
	uint32_t instances;     /* kept per pattern variant, at most */
	uint32_t tries;         /* per pattern variant, at most */
	const char *out;        /* where counterexamples go, or NULL */
} VerifyOpts;

/* Verifies path: writes, per rule, how many instances agreed or why none
** could be made, and each counterexample.  Returns 0, 1 if a rule has a
** counterexample, 2 if the file does not load. */
int verify_file(const char *path, const VerifyOpts *o, FILE *out, FILE *errs);

#endif
