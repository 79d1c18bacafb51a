/*
** fuzz.c: the helpers of fuzz.h.
*/
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

static char dir[64];
static char path[128];

static void
cleanup(void)
{
	if (path[0])
		unlink(path);
	if (dir[0])
		rmdir(dir);
}

const char *
fz_file(const uint8_t *data, size_t size, const char *suffix)
{
	FILE *f;

	if (!dir[0]) {
		const char *t = getenv("TMPDIR");
		snprintf(dir, sizeof dir, "%s/graft-fuzz.XXXXXX", t && strlen(t) < 32 ? t : "/tmp");
		if (!mkdtemp(dir)) {
			perror("fuzz: mkdtemp");
			abort();
		}
		atexit(cleanup);
	}
	snprintf(path, sizeof path, "%s/input%s", dir, suffix);
	if (!(f = fopen(path, "wb")) || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0) {
		perror("fuzz: writing the scratch file");
		abort();
	}
	return path;
}

FILE *
fz_sink(void)
{
	static FILE *f;

	if (!f && !(f = fopen("/dev/null", "w"))) {
		perror("fuzz: /dev/null");
		abort();
	}
	return f;
}
