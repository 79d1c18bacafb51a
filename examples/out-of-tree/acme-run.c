/*
** acme-run.c: a program that drives graft through its C API with the Acme
** plugin linked in: it reads a model in Relay text, partitions it for acme
** (acme.rules: its rewrite rule first, then its pattern table), prints it, and
** runs it on graft's ref backend, acme's partitions on acme's codegen, on
** an input of the values 0, 1, 2, ... (wrapping in the input's dtype).
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

/* ramp: t's data, 0, 1, 2, ... as t's dtype (integers wrap) */
static void
ramp(Tensor *t)
{
	int64_t n = ir_tensor_numel(t);
	size_t esz = ir_dtype_bytes[t->dt];

	t->data = calloc((size_t)n + 1, esz);
	for (int64_t i = 0; i < n; i++) {
		if (ir_dtype_kind[t->dt] == 'f' && esz == 4) {
			float v = (float)i;
			memcpy(t->data + i * esz, &v, 4);
		} else {
			uint64_t v = (uint64_t)i;
			memcpy(t->data + i * esz, &v, esz);     /* little-endian */
		}
	}
}

/* run: @main of m on ramps, through the ref backend; prints each result's
** shape and the sum of its elements */
static int
run(Module *m, Diag *d)
{
	BeSig sig;
	BeOpts bo = { .opt = 2 };
	Program *p;
	Tensor *in, *out;
	int bad = 1;

	if (be_sig(m, &sig, d))
		return 1;
	in = calloc(sig.nin + 1, sizeof *in);
	out = calloc(sig.nout + 1, sizeof *out);
	for (uint32_t i = 0; i < sig.nin; i++) {
		in[i] = sig.in[i];
		ramp(&in[i]);
	}
	if ((p = be_ref.prepare(m, &bo, d)) && !(bad = be_ref.run(p, in, out, d))) {
		for (uint32_t i = 0; i < sig.nout; i++) {
			double sum = 0;
			for (int64_t k = 0; k < ir_tensor_numel(&out[i]); k++)
				sum += ir_tensor_get(&out[i], k);
			printf("result %u: %s, %lld values, sum %.17g\n", i, ir_dtype_names[out[i].dt],
			       (long long)ir_tensor_numel(&out[i]), sum);
			ir_tensor_free(&out[i]);
		}
	}
	if (p)
		be_ref.release(p);
	for (uint32_t i = 0; i < sig.nin; i++)
		ir_tensor_free(&in[i]);
	free(in);
	free(out);
	be_sig_free(&sig);
	return bad;
}

int
main(int argc, char **argv)
{
	const Ruleset *targets[] = { &graft_ruleset_acme };
	char err[512], *text = NULL;
	const char *what;
	size_t len;
	Module *m;
	Diag d;
	Partitioner pt;
	PrintOpts po = { 0 };
	int status = 1;

	if (argc != 2) {
		fprintf(stderr, "usage: acme-run MODEL.relay\n");
		return 2;
	}
	/* what `graft --plugin acme.so` would load: here, linked in */
	if (graft_plugin_register(&graft_plugin, "acme-run", err, sizeof err) != 0) {
		fprintf(stderr, "acme-run: %s\n", err);
		return 1;
	}
	m = ir_module_new();
	ir_diag_init(&d, stderr, m);
	memset(&pt, 0, sizeof pt);
	if (ir_read_file(argv[1], 1 << 30, &text, &len, &what) != 0) {
		fprintf(stderr, "acme-run: cannot %s %s\n", what, argv[1]);
		goto out;
	}
	if (ir_parse(m, &d, argv[1], text, len) || ir_infer_types(m, &d))
		goto out;
	pt.m = m;
	pt.d = &d;
	pt.targets = targets;
	pt.ntargets = 1;
	pt.stop = PS_ALL;
	if (ir_partition(&pt))
		goto out;
	printf("acme: %llu rewrites, %llu composites, %llu partitions, %llu ops offloaded, %llu on the host\n",
	       (unsigned long long)pt.st.lowered, (unsigned long long)pt.st.composites,
	       (unsigned long long)pt.st.regions, (unsigned long long)pt.st.offloaded,
	       (unsigned long long)pt.st.host);
	ir_print(stdout, m, &po, NULL);
	status = run(m, &d);
out:
	ir_partition_free(&pt);
	free(text);
	ir_diag_free(&d);
	ir_module_free(m);
	return status;
}
