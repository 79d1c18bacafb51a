/*
** npyrun.c: runs graft_main of a model compiled by graft --emit obj or
** --emit c (the calling convention of backends/c/c.h) on .npy inputs,
** for tests/arm.sh, which cross-compiles it with the model for AArch64
** and runs it under qemu-user, and for tests/backends.sh, which runs it
** here.
**
**   npyrun [-n RUNS] IN.npy ... [-o OUT.npy LIKE.npy] ...
**
** The inputs are @main's parameters in order (C order, any dtype).  Each
** result j goes to OUT.npy with the header of LIKE.npy, which gives its
** dtype and shape: the reference backend's result j, so that cmp(1)
** compares the two bit for bit.  -n runs graft_main RUNS times (1 to
** 1000; the results are the last run's).  Exit status: 0; 1 on an error
** (a file, a nonzero return of graft_main); 2 on a usage error.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAXARGS = 64 };

/* A .npy file read whole: its header bytes, and its data. */
typedef struct Npy {
	unsigned char *bytes;
	size_t nhead, ndata;    /* header (magic to newline) and data sizes */
} Npy;

int32_t graft_main(const void *const *in, void *const *out);

/* die: prints why and exits 1 */
static void
die(const char *path, const char *why)
{
	fprintf(stderr, "npyrun: %s: %s\n", path, why);
	exit(1);
}

/* npyread: path into x; the data size from the header's shape and
** descr, checked against the file's size */
static void
npyread(const char *path, Npy *x)
{
	FILE *f = fopen(path, "rb");
	long n;
	size_t hl, size, numel = 1;
	const char *h, *p;
	char *text;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 10 || fseek(f, 0, SEEK_SET))
		die(path, "cannot read");
	x->bytes = malloc((size_t)n + 1);
	if (!x->bytes || fread(x->bytes, 1, (size_t)n, f) != (size_t)n)
		die(path, "cannot read");
	fclose(f);
	if (memcmp(x->bytes, "\x93NUMPY", 6))
		die(path, "not a .npy file");
	hl = x->bytes[6] == 1 ? (size_t)(x->bytes[8] | x->bytes[9] << 8) + 10
	     : (size_t)(x->bytes[8] | x->bytes[9] << 8 | x->bytes[10] << 16 | (size_t)x->bytes[11] << 24) + 12;
	if (hl > (size_t)n)
		die(path, "truncated header");
	/* the header's dict, as a string (the version bytes hold a NUL) */
	text = malloc(hl + 1);
	memcpy(text, x->bytes, hl);
	text[hl] = 0;
	h = text + (x->bytes[6] == 1 ? 10 : 12);
	if (strstr(h, "'fortran_order': True"))
		die(path, "Fortran order");
	if (!(p = strstr(h, "'descr': '")) || !strchr("<|>", p[10]))
		die(path, "no descr");
	size = strtoul(p + 12, NULL, 10);
	if (!(p = strstr(h, "'shape': (")))
		die(path, "no shape");
	for (p += 10; *p != ')'; p++)
		if (*p >= '0' && *p <= '9') {
			char *end;
			numel *= strtoul(p, &end, 10);
			p = end - 1;
		}
	free(text);
	x->nhead = hl;
	x->ndata = numel * size;
	if (hl + x->ndata != (size_t)n)
		die(path, "its size is not its header's");
}

int
main(int argc, char **argv)
{
	Npy in[MAXARGS], like[MAXARGS];
	const void *inp[MAXARGS] = { 0 };
	void *outp[MAXARGS] = { 0 };
	const char *outpath[MAXARGS];
	int nin = 0, nout = 0, runs = 1;
	int32_t rc = 0;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-n") == 0 && i + 1 < argc && atoi(argv[i + 1]) >= 1 && atoi(argv[i + 1]) <= 1000) {
			runs = atoi(argv[++i]);
		} else if (strcmp(argv[i], "-o") == 0 && i + 2 < argc && nout < MAXARGS) {
			outpath[nout] = argv[i + 1];
			npyread(argv[i + 2], &like[nout]);
			/* room for the result, zeroed, at least one byte */
			outp[nout] = calloc(like[nout].ndata + 1, 1);
			nout++;
			i += 2;
		} else if (argv[i][0] != '-' && nin < MAXARGS) {
			npyread(argv[i], &in[nin]);
			inp[nin] = in[nin].bytes + in[nin].nhead;
			nin++;
		} else {
			fprintf(stderr, "usage: npyrun [-n RUNS] IN.npy ... [-o OUT.npy LIKE.npy] ...\n");
			return 2;
		}
	}
	while (runs-- > 0 && rc == 0)
		rc = graft_main(inp, outp);
	if (rc != 0) {
		fprintf(stderr, "npyrun: graft_main returned %d\n", (int)rc);
		return 1;
	}
	for (int j = 0; j < nout; j++) {
		FILE *f = fopen(outpath[j], "wb");
		if (!f || fwrite(like[j].bytes, 1, like[j].nhead, f) != like[j].nhead ||
		    fwrite(outp[j], 1, like[j].ndata, f) != like[j].ndata || fclose(f))
			die(outpath[j], "cannot write");
	}
	return 0;
}
