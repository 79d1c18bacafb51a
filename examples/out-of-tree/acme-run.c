/*
** acme-run.c: a program that drives graft through its C API (<graft/api.h>)
** with the Acme plugin linked in: it reads a model in Relay text,
** partitions it for acme (acme.rules: its rewrite rule first, then its
** pattern table), prints it, and runs it on graft's ref backend, acme's
** partitions on acme's codegen, on an input of the values 0, 1, 2, ...
** (wrapping in the input's dtype).
**
**   acme-run MODEL.relay
**
** Exit status 0, or 1 after graft's diagnostics.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <graft/graft.h>

#include "acme.h"

/* esize: the bytes of an element of dtype dt (GRAFT_DT_*) */
static size_t
esize(int32_t dt)
{
	switch (dt) {
	case GRAFT_DT_BOOL: case GRAFT_DT_INT8: case GRAFT_DT_UINT8: return 1;
	case GRAFT_DT_INT16: case GRAFT_DT_UINT16: case GRAFT_DT_FLOAT16: return 2;
	case GRAFT_DT_INT32: case GRAFT_DT_UINT32: case GRAFT_DT_FLOAT32: return 4;
	default: return 8;
	}
}

/* room: t of dtype dt and shape, with zeroed data; its element count */
static int64_t
room(graft_tensor *t, int32_t dt, int32_t rank, const int64_t *shape)
{
	int64_t n = 1;

	for (int32_t k = 0; k < rank; k++)
		n *= shape[k];
	*t = (graft_tensor){ calloc((size_t)n + 1, esize(dt)), shape, rank, dt };
	return n;
}

/* get: element i of t as a double */
static double
get(const graft_tensor *t, int64_t i)
{
	const void *p = t->data;

	switch (t->dtype) {
	case GRAFT_DT_INT8: return ((const int8_t *)p)[i];
	case GRAFT_DT_UINT8: case GRAFT_DT_BOOL: return ((const uint8_t *)p)[i];
	case GRAFT_DT_INT16: return ((const int16_t *)p)[i];
	case GRAFT_DT_UINT16: return ((const uint16_t *)p)[i];
	case GRAFT_DT_INT32: return ((const int32_t *)p)[i];
	case GRAFT_DT_UINT32: return ((const uint32_t *)p)[i];
	case GRAFT_DT_INT64: return (double)((const int64_t *)p)[i];
	case GRAFT_DT_FLOAT32: return ((const float *)p)[i];
	case GRAFT_DT_FLOAT64: return ((const double *)p)[i];
	default: return 0;      /* float16: not in acme's models */
	}
}

/* ramp: t's elements 0, 1, 2, ... as t's dtype (integers wrap) */
static void
ramp(graft_tensor *t, int64_t n)
{
	size_t esz = esize(t->dtype);

	for (int64_t i = 0; i < n; i++) {
		if (t->dtype == GRAFT_DT_FLOAT32) {
			float v = (float)i;
			memcpy((char *)t->data + i * esz, &v, 4);
		} else {
			uint64_t v = (uint64_t)i;
			memcpy((char *)t->data + i * esz, &v, esz);     /* little-endian */
		}
	}
}

/* run: m on ramps, on the ref backend; prints each result's dtype, size
** and the sum of its elements.  0, or 1 after adding errors to d. */
static int
run(const graft_module *m, graft_diags *d)
{
	static const char *const names[] = { "", "bool", "int8", "uint8", "int16", "uint16", "int32", "uint32",
	                                     "int64", "float16", "float32", "float64" };
	graft_program *p = graft_compile(m, "ref", 1, d);
	size_t nin, nout;
	graft_tensor *in, *out;
	int64_t *nout_el;
	int bad = 1;

	if (!p)
		return 1;
	nin = graft_program_ninputs(p);
	nout = graft_program_noutputs(p);
	in = calloc(nin + 1, sizeof *in);
	out = calloc(nout + 1, sizeof *out);
	nout_el = calloc(nout + 1, sizeof *nout_el);
	for (size_t i = 0; i < nin; i++) {
		int32_t dt, rank;
		const int64_t *shape;
		graft_program_input(p, i, NULL, &dt, &rank, &shape);
		ramp(&in[i], room(&in[i], dt, rank, shape));
	}
	for (size_t i = 0; i < nout; i++) {
		int32_t dt, rank;
		const int64_t *shape;
		graft_program_output(p, i, NULL, &dt, &rank, &shape);
		nout_el[i] = room(&out[i], dt, rank, shape);
	}
	if (!(bad = graft_program_run(p, in, nin, out, nout, d)))
		for (size_t i = 0; i < nout; i++) {
			double sum = 0;
			for (int64_t k = 0; k < nout_el[i]; k++)
				sum += get(&out[i], k);
			printf("result %zu: %s, %lld values, sum %.17g\n", i, names[out[i].dtype], (long long)nout_el[i],
			       sum);
		}
	for (size_t i = 0; i < nin; i++)
		free(in[i].data);
	for (size_t i = 0; i < nout; i++)
		free(out[i].data);
	free(in);
	free(out);
	free(nout_el);
	graft_program_free(p);
	return bad != 0;
}

int
main(int argc, char **argv)
{
	graft_diags *d = graft_diags_new();
	graft_module *m = NULL;
	graft_target *acme = NULL;
	graft_partition_stats st;
	char *text;
	int status = 1;

	if (argc != 2) {
		fprintf(stderr, "usage: acme-run MODEL.relay\n");
		return 2;
	}
	/* what `graft --plugin acme.so` would load: here, linked in */
	if (graft_register_plugin(&graft_plugin, "acme-run", d) != 0 || !(m = graft_module_load(argv[1], d)) ||
	    !(acme = graft_target_open("acme", d)) ||
	    graft_module_partition(m, (const graft_target *const[]){ acme }, 1, &st, d) != 0)
		goto out;
	printf("acme: %llu rewrites, %llu composites, %llu partitions, %llu ops offloaded, %llu on the host\n",
	       (unsigned long long)st.rewrites, (unsigned long long)st.composites,
	       (unsigned long long)st.partitions, (unsigned long long)st.offloaded, (unsigned long long)st.host);
	if (!(text = graft_module_text(m)))
		goto out;
	fputs(text, stdout);
	graft_free(text);
	status = run(m, d);
out:
	graft_diags_print(d, stderr);
	graft_target_close(acme);
	graft_module_free(m);
	graft_diags_free(d);
	return status;
}
