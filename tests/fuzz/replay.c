/*
** replay.c: the main of a harness without libFuzzer.  Runs the harness
** on each file named, and on each file of each folder named (sorted, not
** recursing); prints one line per input so that a failure names it.
**
**   replay-NAME FILE_OR_FOLDER ...
*/
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int
one(const char *p)
{
	FILE *f = fopen(p, "rb");
	uint8_t *buf = NULL;
	size_t n = 0, cap = 0, k;

	if (!f) {
		fprintf(stderr, "replay: %s: %s\n", p, strerror(errno));
		return 1;
	}
	do {
		if (n + 4096 > cap) {
			cap = 2 * cap + 4096;
			if (!(buf = realloc(buf, cap)))
				abort();
		}
		k = fread(buf + n, 1, cap - n, f);
		n += k;
	} while (k);
	fclose(f);
	printf("replay: %s (%zu bytes)\n", p, n);
	fflush(stdout);
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	return 0;
}

static int
cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
main(int argc, char **argv)
{
	int bad = 0;

	for (int i = 1; i < argc; i++) {
		struct stat st;
		DIR *d;
		struct dirent *e;
		char **names = NULL;
		size_t n = 0;

		if (stat(argv[i], &st) != 0) {
			fprintf(stderr, "replay: %s: %s\n", argv[i], strerror(errno));
			bad = 1;
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			bad |= one(argv[i]);
			continue;
		}
		if (!(d = opendir(argv[i]))) {
			fprintf(stderr, "replay: %s: %s\n", argv[i], strerror(errno));
			bad = 1;
			continue;
		}
		while ((e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			if (!(names = realloc(names, (n + 1) * sizeof *names)))
				abort();
			names[n] = malloc(strlen(argv[i]) + strlen(e->d_name) + 2);
			if (!names[n])
				abort();
			sprintf(names[n++], "%s/%s", argv[i], e->d_name);
		}
		closedir(d);
		if (n > 1)
			qsort(names, n, sizeof *names, cmp);
		for (size_t k = 0; k < n; k++) {
			if (stat(names[k], &st) == 0 && S_ISREG(st.st_mode))
				bad |= one(names[k]);
			free(names[k]);
		}
		free(names);
	}
	return bad;
}
