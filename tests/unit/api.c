/*
** api.c: <graft/api.h> driven as a program drives it, through that header
** alone (compiled with only the staged public headers on the include
** path): a model loaded with its parameters, rewritten, partitioned,
** printed (byte for byte the graft command's text), compiled on ref and
** llvm and run (bit for bit `graft run`'s results); then bad inputs, each
** giving its diagnostic records and a failure value, never a crash.  Under
** the ASan build, a leak fails it.
*/
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <graft/api.h>

#include "../tap.h"

static const char *srcdir, *graft;
static char dir[256];

/* slurp: the whole of a command's output or a file, fresh; NULL if none */
static char *
slurp(FILE *f, size_t *len)
{
	char *s = NULL;
	size_t n = 0, cap = 0, k;

	if (!f)
		return NULL;
	do {
		if (n + 4096 > cap)
			s = realloc(s, cap = 2 * cap + 4096);
		k = fread(s + n, 1, cap - n - 1, f);
		n += k;
	} while (k);
	s[n] = 0;
	if (len)
		*len = n;
	return s;
}

/* writenpy: a float32 .npy file of shape (1, 3, 224, 224) holding data */
static void
writenpy(const char *path, const float *data, size_t n)
{
	char h[128];
	FILE *f = fopen(path, "wb");

	memset(h, ' ', sizeof h);
	memcpy(h, "\x93NUMPY\x01\x00\x76\x00", 10);
	memcpy(h + 10, "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 3, 224, 224), }", 69);
	h[sizeof h - 1] = '\n';
	fwrite(h, 1, sizeof h, f);
	fwrite(data, sizeof *data, n, f);
	fclose(f);
}

/* npydata: the data of the .npy file at path (after its header), fresh */
static char *
npydata(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *s = slurp(f, len);
	size_t hl;

	if (f)
		fclose(f);
	if (!s || *len < 10)
		return s;
	hl = 10 + (unsigned char)s[8] + 256u * (unsigned char)s[9];
	memmove(s, s + hl, *len - hl);
	*len -= hl;
	return s;
}

/* has: whether d has a record of severity sev whose file is file (NULL: none),
** at line:col (0: any), whose message holds msg */
static int
has(const graft_diags *d, int sev, const char *file, unsigned line, unsigned col, const char *msg)
{
	for (size_t i = 0; i < graft_diags_count(d); i++) {
		const char *f, *m;
		unsigned l, c;
		int s;
		graft_diags_get(d, i, &f, &l, &c, &s, &m);
		if (s == sev && (file ? f && strcmp(f, file) == 0 : !f) && (!line || (l == line && c == col)) &&
		    strstr(m, msg))
			return 1;
	}
	return 0;
}

/* dump: d's records as diagnostics of the test (on failure) */
static void
dump(const graft_diags *d)
{
	for (size_t i = 0; i < graft_diags_count(d); i++) {
		const char *f, *m;
		unsigned l, c;
		int s;
		graft_diags_get(d, i, &f, &l, &c, &s, &m);
		printf("# record %zu: %s:%u:%u: [%d] %s\n", i, f ? f : "(none)", l, c, s, m);
	}
}

/* flow: the whole flow on the example, checked against the command */
static void
flow(void)
{
	char model[512], params[512], input[512], outnpy[512], cmd[4096];
	graft_diags *d = graft_diags_new();
	graft_module *m;
	graft_ruleset *rs;
	graft_target *t;
	uint64_t nrw = 0;
	char *text, *want;
	enum { N = 3 * 224 * 224 };
	float *x = malloc(N * sizeof *x);

	snprintf(model, sizeof model, "%s/examples/pytorch_qconv.relay", srcdir);
	snprintf(params, sizeof params, "%s/examples/pytorch_qconv.safetensors", srcdir);
	snprintf(input, sizeof input, "%s/input.npy", dir);
	snprintf(outnpy, sizeof outnpy, "%s/out.npy", dir);
	for (int i = 0; i < N; i++)
		x[i] = (float)((i * 7919) % 1000) / 250.0f - 2.0f;
	writenpy(input, x, N);

	m = graft_module_load(model, d);
	ok(m != NULL, "graft_module_load reads %s", model);
	is_int(graft_module_bind_params(m, params, d), 0, "graft_module_bind_params binds its parameters");
	rs = graft_ruleset_open("canonicalize", d);
	t = graft_target_open("ethos-n", d);
	ok(rs && t, "the shipped canonicalize and ethos-n open by name");
	is_int(graft_module_rewrite(m, rs, &nrw, d), 0, "graft_module_rewrite with canonicalize");
	ok(nrw > 0 && strcmp(graft_ruleset_name(rs), "canonicalize") == 0, "it made %llu rewrites, with the ruleset "
	   "it names canonicalize", (unsigned long long)nrw);
	{
		const graft_target *ts[] = { t };
		is_int(graft_module_partition(m, ts, 1, NULL, d), 0, "graft_module_partition for ethos-n, host");
	}
	is_int(graft_diags_count(d), 0, "no diagnostics");
	dump(d);
	text = graft_module_text(m);
	snprintf(cmd, sizeof cmd, "'%s' --rules canonicalize --target 'ethos-n, host' --params '%s' '%s'", graft, params,
	         model);
	{
		FILE *p = popen(cmd, "r");
		want = slurp(p, NULL);
		ok(p && pclose(p) == 0 && want, "%s runs", cmd);
	}
	ok(text && want && strcmp(text, want) == 0, "graft_module_text is byte for byte graft's output");
	ok(text && strstr(text, "Compiler=\"ethos-n\""), "it holds the ethos-n partition");
	{
		size_t fns, nodes = graft_module_stats(m, &fns);
		ok(nodes > 0 && fns == 2, "graft_module_stats: %zu nodes, %zu functions (@main and the partition)", nodes,
		   fns);
	}
	{
		char *dot = graft_module_dot(m);
		ok(dot && strncmp(dot, "digraph", 7) == 0, "graft_module_dot gives Graphviz");
		graft_free(dot);
	}
	graft_free(text);
	free(want);

	for (int b = 0; b < 2; b++) {
		const char *be = b ? "llvm" : "ref";
		graft_program *p = graft_compile(m, be, 2, d);
		const char *name;
		int32_t dt, rank;
		const int64_t *shape;
		graft_tensor in, out;
		int64_t oshape[4] = { 1, 32, 112, 112 };
		size_t osize = 32 * 112 * 112, glen;
		unsigned char *res = malloc(osize);
		char *gres;

		ok(p != NULL, "graft_compile on %s", be);
		if (!p) {
			dump(d);
			free(res);
			continue;
		}
		is_int(graft_program_ninputs(p), 1, "%s: one input", be);
		is_int(graft_program_noutputs(p), 1, "%s: one output", be);
		ok(graft_program_input(p, 0, &name, &dt, &rank, &shape) == 0 && strcmp(name, "input") == 0 &&
		   dt == GRAFT_DT_FLOAT32 && rank == 4 && shape[1] == 3 && shape[3] == 224,
		   "%s: input 0 is %%input, float32 (1, 3, 224, 224)", be);
		ok(graft_program_output(p, 0, &name, &dt, &rank, &shape) == 0 && !name && dt == GRAFT_DT_UINT8 &&
		   rank == 4 && shape[1] == 32, "%s: output 0 is uint8 (1, 32, 112, 112)", be);
		ok(graft_program_input(p, 1, NULL, NULL, NULL, NULL) == -1, "%s: no input 1", be);
		memset(res, 0xaa, osize);        /* what the run must overwrite */
		in = (graft_tensor){ x, (const int64_t[]){ 1, 3, 224, 224 }, 4, GRAFT_DT_FLOAT32 };
		out = (graft_tensor){ res, oshape, 4, GRAFT_DT_UINT8 };
		is_int(graft_program_run(p, &in, 1, &out, 1, d), 0, "%s: graft_program_run", be);
		snprintf(cmd, sizeof cmd, "'%s' run --backend %s --threads 2 --rules canonicalize --target 'ethos-n, host' "
		         "--params '%s' --input input='%s' --output '%s' '%s'", graft, be, params, input, outnpy, model);
		is_int(system(cmd), 0, "%s", cmd);
		gres = npydata(outnpy, &glen);
		ok(gres && glen == osize && memcmp(gres, res, osize) == 0, "%s: the result is bit for bit graft run's", be);
		{
			size_t k = 0;
			while (k < osize && res[k] == res[0])
				k++;
			ok(k < osize, "%s: and not all one value", be);
		}
		free(gres);

		/* caller's buffers of the wrong type */
		graft_diags_clear(d);
		in.dtype = GRAFT_DT_INT8;
		ok(graft_program_run(p, &in, 1, &out, 1, d) != 0 && graft_diags_errors(d) == 1 &&
		   has(d, GRAFT_ERROR, NULL, 0, 0, "input 0 (%input) is Tensor[(1, 3, 224, 224), float32], and the "
		       "tensor given is Tensor[(1, 3, 224, 224), int8]"), "%s: a wrong input dtype is named", be);
		dump(d);
		graft_diags_clear(d);
		in.dtype = GRAFT_DT_FLOAT32;
		in.shape = (const int64_t[]){ 1, 3, 224 };
		in.rank = 3;
		oshape[1] = 31;
		ok(graft_program_run(p, &in, 1, &out, 1, d) != 0 && graft_diags_errors(d) == 2 &&
		   has(d, GRAFT_ERROR, NULL, 0, 0, "and the tensor given is Tensor[(1, 3, 224), float32]") &&
		   has(d, GRAFT_ERROR, NULL, 0, 0, "output 0 is Tensor[(1, 32, 112, 112), uint8], and the tensor given "
		       "is Tensor[(1, 31, 112, 112), uint8]"), "%s: a wrong input and output shape are named", be);
		graft_diags_clear(d);
		ok(graft_program_run(p, &in, 0, &out, 1, d) != 0 &&
		   has(d, GRAFT_ERROR, NULL, 0, 0, "1 input and 1 output, and 0 and 1 were given"),
		   "%s: a wrong number of inputs", be);
		graft_diags_clear(d);
		graft_program_free(p);
		free(res);
	}
	graft_ruleset_close(rs);
	graft_target_close(t);
	graft_module_free(m);
	graft_diags_free(d);
	free(x);
}

/* onnx: an ONNX model loads as `graft FILE` imports it; a bad one is an
** error record naming it; and a small module runs on the c backend as on
** ref */
static void
onnx(void)
{
	char path[512], cmd[1200], *want, *text;
	graft_diags *d = graft_diags_new();
	graft_module *m;
	FILE *p;

	snprintf(path, sizeof path, "%s/tests/fuzz/corpus/onnx/conv.onnx", srcdir);
	m = graft_module_load(path, d);
	ok(m && graft_diags_count(d) == 0, "graft_module_load imports %s", path);
	snprintf(cmd, sizeof cmd, "'%s' '%s'", graft, path);
	p = popen(cmd, "r");
	want = slurp(p, NULL);
	ok(p && pclose(p) == 0 && want, "%s runs", cmd);
	text = m ? graft_module_text(m) : NULL;
	ok(text && want && strcmp(text, want) == 0, "its text is byte for byte graft's");
	graft_free(text);
	free(want);
	graft_module_free(m);

	snprintf(path, sizeof path, "%s/tests/fuzz/corpus/onnx/badtensor.onnx", srcdir);
	ok(!graft_module_load(path, d) && graft_diags_errors(d) >= 1 && has(d, GRAFT_ERROR, path, 0, 0, ""),
	   "a bad ONNX model is an error naming its file");
	dump(d);
	graft_diags_clear(d);

	{
		static const char small[] = "def @main(%x: Tensor[(5), float32]) {\n  nn.relu(add(%x, %x))\n}\n";
		float x[5] = { -2.5f, -0.f, 0.25f, 3.f, 1e30f }, y[2][5];
		const int64_t shape[] = { 5 };
		graft_module *sm = graft_module_parse(small, sizeof small - 1, "small.relay", d);
		for (int b = 0; b < 2; b++) {
			graft_program *pr = sm ? graft_compile(sm, b ? "c" : "ref", 0, d) : NULL;
			graft_tensor in = { x, shape, 1, GRAFT_DT_FLOAT32 }, out = { y[b], shape, 1, GRAFT_DT_FLOAT32 };
			ok(pr && graft_program_run(pr, &in, 1, &out, 1, d) == 0, "small.relay runs on %s", b ? "c" : "ref");
			graft_program_free(pr);
		}
		dump(d);
		ok(memcmp(y[0], y[1], sizeof y[0]) == 0 && y[0][3] == 6.f && y[0][0] == 0.f,
		   "the c backend's results are ref's");
		graft_module_free(sm);
	}
	graft_diags_free(d);
}

/* plugin: the example's plugin loads, and its target table opens by name;
** a broken one is an error */
static void
plugin(void)
{
	const char *b = getenv("builddir") ? getenv("builddir") : ".";
	char path[512];
	graft_diags *d = graft_diags_new();
	graft_target *t;

	ok(!graft_target_open("acme", d) && has(d, GRAFT_ERROR, NULL, 0, 0, "no target table called 'acme'"),
	   "no acme target before its plugin is loaded");
	graft_diags_clear(d);
	snprintf(path, sizeof path, "%s/tests/plugin/bad1.so", b);
	ok(graft_load_plugin(path, d) != 0 && graft_diags_errors(d) == 1, "a plugin without an entry point is an error");
	dump(d);
	graft_diags_clear(d);
	snprintf(path, sizeof path, "%s/tests/plugin/acme.so", b);
	ok(graft_load_plugin(path, d) == 0 && graft_diags_count(d) == 0, "graft_load_plugin loads %s", path);
	dump(d);
	t = graft_target_open("acme", d);
	ok(t != NULL, "its target table acme opens by name");
	graft_target_close(t);
	graft_diags_free(d);
}

/* bad: bad inputs, each reported as a record */
static void
bad(void)
{
	graft_diags *d = graft_diags_new();
	static const char text[] = "def @main(%x: Tensor[(2), float32]) {\n  nn.relu(%x, )\n}\n";
	static const char good[] = "def @main(%x: Tensor[(2), float32]) {\n  nn.relu(%x)\n}\n";
	static const char rules[] = "ruleset inline;\nqnn.quantize(x, s, z) =>\n";
	graft_module *m;
	char path[512], *out;
	FILE *f;

	ok(!graft_module_load("no/such/model.relay", d) && graft_diags_errors(d) == 1 &&
	   has(d, GRAFT_ERROR, NULL, 0, 0, "cannot open 'no/such/model.relay'"), "a missing file");
	dump(d);
	graft_diags_clear(d);
	ok(!graft_module_parse(text, sizeof text - 1, "bad.relay", d) && graft_diags_errors(d) >= 1 &&
	   has(d, GRAFT_ERROR, "bad.relay", 2, 15, "syntax error"), "a syntax error is at its file:line:col");
	dump(d);
	f = fopen(strcat(strcpy(path, dir), "/diags.txt"), "w+");
	graft_diags_print(d, f);
	rewind(f);
	out = slurp(f, NULL);
	fclose(f);
	ok(out && strncmp(out, "bad.relay:2:15: error: ", 23) == 0 && strstr(out, "\n   nn.relu(%x, )\n") &&
	   strstr(out, "^\n"), "graft_diags_print prints it as graft does, with the line and a caret");
	free(out);
	graft_diags_clear(d);
	ok(!graft_ruleset_open("no-such-rules", d) && graft_diags_errors(d) == 1 &&
	   has(d, GRAFT_ERROR, NULL, 0, 0, "no ruleset called 'no-such-rules' (rulesets: ") &&
	   has(d, GRAFT_ERROR, NULL, 0, 0, "canonicalize"), "an unknown ruleset");
	graft_diags_clear(d);
	ok(!graft_ruleset_open("ethos-n", d) && has(d, GRAFT_ERROR, NULL, 0, 0, "not a ruleset, but the target table"),
	   "a target table is not a ruleset");
	graft_diags_clear(d);
	ok(!graft_target_open("canonicalize", d) && has(d, GRAFT_ERROR, NULL, 0, 0, "not a target table"),
	   "a ruleset is not a target table");
	graft_diags_clear(d);
	ok(!graft_ruleset_open("no/such.rules", d) && graft_diags_errors(d) >= 1, "a missing .rules file");
	dump(d);
	graft_diags_clear(d);
	ok(!graft_ruleset_open(rules, d) && graft_diags_errors(d) >= 1 && has(d, GRAFT_ERROR, "inline.rules", 0, 0, ""),
	   "rules text with an error: its records name inline.rules, the same every time");
	dump(d);
	graft_diags_clear(d);
	m = graft_module_parse(good, sizeof good - 1, "good.relay", d);
	ok(m && graft_diags_count(d) == 0, "graft_module_parse of good text");
	ok(m && graft_module_bind(m, "y", "none.npy", d) != 0 &&
	   has(d, GRAFT_ERROR, NULL, 0, 0, "the model has no input called y"), "binding no input");
	graft_diags_clear(d);
	ok(m && graft_module_bind(m, "x", "none.npy", d) != 0 && has(d, GRAFT_ERROR, "none.npy", 0, 0, ""),
	   "binding a missing .npy file");
	graft_diags_clear(d);
	ok(m && graft_module_bind_params(m, "none.safetensors", d) != 0 &&
	   has(d, GRAFT_ERROR, "none.safetensors", 0, 0, ""), "binding a missing safetensors file");
	graft_diags_clear(d);
	ok(!graft_compile(m, "tpu", 0, d) && has(d, GRAFT_ERROR, NULL, 0, 0, "no backend called 'tpu'"),
	   "an unknown backend");
	graft_diags_clear(d);
	{
		graft_ruleset *rs = graft_ruleset_open("ruleset inl;\nnn.relu(nn.relu(x)) => nn.relu(x)\n", d);
		ok(rs != NULL, "rules text given inline loads");
		dump(d);
		graft_ruleset_close(rs);
	}
	{
		/* no diags: records are dropped */
		ok(!graft_module_load("no/such/model.relay", NULL), "a NULL graft_diags is allowed");
	}
	graft_module_free(m);
	graft_diags_free(d);
}

int
main(void)
{
	const char *tmp = getenv("TMPDIR");

	srcdir = getenv("srcdir") ? getenv("srcdir") : ".";
	graft = getenv("GRAFT") ? getenv("GRAFT") : "./graft";
	snprintf(dir, sizeof dir, "%s/graft-api-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		printf("Bail out! no temporary directory\n");
		return 1;
	}
	flow();
	onnx();
	bad();
	plugin();
	{
		char cmd[600];
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			printf("# cannot remove %s\n", dir);
	}
	return done_testing();
}
