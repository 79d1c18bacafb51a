/*
** fuzz.h: what graft's fuzz harnesses share (tests/fuzz/README.md).
**
** Each harness is one LLVMFuzzerTestOneInput over an entry point that
** reads outside input.  `make fuzz` links them with libFuzzer (clang,
** ASan, UBSan); `make check` links them with replay.c, a main that feeds
** them every file of their corpus and regression folders, so that what
** once crashed keeps being run without clang.
*/
#ifndef GRAFT_FUZZ_H
#define GRAFT_FUZZ_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* fz_file: data written to this process's scratch file ending in suffix
** (a folder of its own, removed at exit); its path */
const char *fz_file(const uint8_t *data, size_t size, const char *suffix);
/* fz_sink: a stream that discards what is written to it (diagnostics) */
FILE *fz_sink(void);

/* FZ_CHECK: a finding when cond is false: the message, then abort() so
** that libFuzzer keeps the input and the replay driver fails */
#define FZ_CHECK(cond, msg) do { \
		if (!(cond)) { \
			fprintf(stderr, "fuzz: %s:%d: %s\n", __FILE__, __LINE__, msg); \
			abort(); \
		} \
	} while (0)

#endif
