/*
** models.c: the structure-aware harness.  The input's bytes choose a small
** valid model (Relay text: a chain of elementwise, broadcasting,
** comparison, reduction, data movement and cast ops on float32, int32 or
** int8 tensors) and its inputs, edge values among them (NaN, infinities,
** -0, the largest and smallest numbers); it runs on ref and llvm, and on c
** too when GRAFT_FUZZ_C is set (c compiles each model with cc: the
** replay in `make check` sets it, libFuzzer's runs do not).  Every backend
** must agree with ref: integers bit for bit, floats as the IR's semantics
** define them (within |a - b| <= 1e-5 max(|a|, |b|) + 1e-6 for the
** transcendental functions, whose last bits the math libraries choose;
** NaN equal to NaN, infinities equal to themselves).
*/
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "text.h"
#include "fuzz.h"

enum { MAXV = 16, MAXR = 3 };

typedef struct Bytes {
	const uint8_t *p;
	size_t n, i;
} Bytes;

/* take: the next byte modulo k (0 once the input is used up) */
static unsigned
take(Bytes *b, unsigned k)
{
	return b->i < b->n ? b->p[b->i++] % k : 0;
}

typedef struct V {
	int rank;
	int64_t d[MAXR];
	DType dt;
} V;

typedef struct Gen {
	Bytes *b;
	char text[16384];
	size_t at;
	V v[MAXV + 4];
	int nv, nparams, used[MAXV + 4];
} Gen;

static void put(Gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* put: more of the model's text */
static void
put(Gen *g, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (g->at < sizeof g->text)
		g->at += (size_t)vsnprintf(g->text + g->at, sizeof g->text - g->at, fmt, ap);
	va_end(ap);
}

static const char *
vname(int i, int nparams, char *buf)
{
	if (i < nparams)
		sprintf(buf, "%%p%d", i);
	else
		sprintf(buf, "%%%d", i - nparams);
	return buf;
}

static void
shapetext(const V *v, char *buf)
{
	int n = sprintf(buf, "(");
	for (int k = 0; k < v->rank; k++)
		n += sprintf(buf + n, "%s%lld", k ? ", " : "", (long long)v->d[k]);
	sprintf(buf + n, "%s)", v->rank == 1 ? "," : "");
}

/* pick: a value of g, the latest more often */
static int
pick(Gen *g)
{
	unsigned k = take(g->b, 4);
	int i = g->nv - 1 - (int)take(g->b, (unsigned)(k ? 2 : g->nv));
	return i < 0 ? 0 : i;
}

static int
isf(DType dt)
{
	return dt == DT_FLOAT32;
}

/* op: one more value from an op on earlier ones; 0 if none was made */
static int
op(Gen *g)
{
	char a[16], b[16];
	int x = pick(g), y, out = g->nv;
	V *vx = &g->v[x], r = *vx;
	unsigned k = take(g->b, 9);

	if (g->nv >= MAXV)
		return 0;
	vname(x, g->nparams, a);
	switch (k) {
	case 0: {       /* elementwise, by dtype */
		static const char *const fl[] = { "sigmoid", "tanh", "sqrt", "abs", "negative", "floor", "ceil", "round",
			"sign", "erf", "exp", "log", "nn.relu", "cos", "sin", "tan", "acos", "asin", "atan", "cosh", "sinh",
			"acosh", "asinh", "atanh" };
		static const char *const in[] = { "sign", "round", "nn.relu" };
		const char *o = isf(r.dt) ? fl[take(g->b, 24)] : in[take(g->b, 3)];
		put(g, "  %%%d = %s(%s);\n", out - g->nparams, o, a);
		break;
	}
	case 1: case 2: {       /* binary, broadcasting against an earlier value of the dtype */
		static const char *const ops[] = { "add", "subtract", "multiply", "maximum", "minimum", "divide" };
		static const char *const iops[] = { "add", "subtract", "multiply", "maximum", "minimum", "bitwise_and",
			"bitwise_or", "bitwise_xor", "left_shift", "right_shift" };
		const char *o = isf(r.dt) ? ops[take(g->b, 6)] : iops[take(g->b, 10)];
		y = pick(g);
		if (g->v[y].dt != r.dt || g->v[y].rank != r.rank)
			y = x;
		for (int q = 0; q < r.rank; q++) {
			if (g->v[y].d[q] != r.d[q] && g->v[y].d[q] != 1 && r.d[q] != 1)
				y = x;
		}
		for (int q = 0; q < r.rank; q++)
			r.d[q] = g->v[y].d[q] > r.d[q] ? g->v[y].d[q] : r.d[q];
		put(g, "  %%%d = %s(%s, %s);\n", out - g->nparams, o, a, vname(y, g->nparams, b));
		g->used[y] = 1;
		break;
	}
	case 3: {       /* a comparison into where */
		static const char *const ops[] = { "equal", "not_equal", "less", "less_equal", "greater", "greater_equal" };
		y = pick(g);
		if (memcmp(&g->v[y], vx, sizeof *vx) != 0)
			y = x;
		vname(y, g->nparams, b);
		put(g, "  %%%d = where(%s(%s, %s), %s, %s);\n", out - g->nparams, ops[take(g->b, 6)], a, b, b, a);
		g->used[y] = 1;
		break;
	}
	case 4: {       /* a reduction over one axis, kept */
		static const char *const ops[] = { "sum", "max", "min", "prod", "argmax", "argmin", "mean" };
		unsigned o = take(g->b, 7);
		int ax = (int)take(g->b, (unsigned)r.rank);
		if (o == 3 && r.d[ax] > 4)
			o = 0;          /* products of many overflow, in an order of the backend's choosing */
		if (o == 6 && !isf(r.dt))
			o = 1;
		r.d[ax] = 1;
		if (o == 4 || o == 5)
			r.dt = DT_INT32;
		put(g, "  %%%d = %s(%s, axis=[%d], keepdims=True%s);\n", out - g->nparams, ops[o], a, ax,
		    (o == 4 || o == 5) && take(g->b, 2) ? ", select_last_index=True" : "");
		break;
	}
	case 5: {       /* transpose: reversed axes */
		char axes[32];
		int n = 0;
		for (int q = 0; q < r.rank; q++) {
			r.d[q] = vx->d[r.rank - 1 - q];
			n += sprintf(axes + n, "%s%d", q ? ", " : "", r.rank - 1 - q);
		}
		put(g, "  %%%d = transpose(%s, axes=[%s]);\n", out - g->nparams, a, axes);
		break;
	}
	case 6: {       /* a cast */
		static const DType to[] = { DT_FLOAT32, DT_INT32, DT_INT8 };
		r.dt = to[take(g->b, 3)];
		put(g, "  %%%d = cast(%s, dtype=\"%s\");\n", out - g->nparams, a, ir_dtype_names[r.dt]);
		break;
	}
	case 7: {       /* clip */
		int lo = (int)take(g->b, 5) - 2, hi = lo + (int)take(g->b, 4);
		put(g, "  %%%d = clip(%s, a_min=%df, a_max=%df);\n", out - g->nparams, a, lo, hi);
		break;
	}
	default: {      /* concatenate with itself along the first axis */
		if (r.d[0] > 4)
			return 0;
		r.d[0] *= 2;
		put(g, "  %%%d = concatenate((%s, %s));\n", out - g->nparams, a, a);
		break;
	}
	}
	g->used[x] = 1;
	g->v[g->nv++] = r;
	return 1;
}

/* fill: element values of t from the input, edges among them */
static void
fill(Bytes *b, Tensor *t)
{
	int64_t n = ir_tensor_numel(t);

	t->data = calloc((size_t)(n ? n : 1), ir_dtype_bytes[t->dt]);
	FZ_CHECK(t->data != NULL, "calloc");
	for (int64_t i = 0; i < n; i++) {
		unsigned k = take(b, 256);
		if (t->dt == DT_FLOAT32) {
			static const float edge[] = { NAN, INFINITY, -INFINITY, -0.0f, 3.4028235e38f, -3.4028235e38f, 1e-45f, 1e30f };
			float f = k < 8 ? edge[k] : ((float)k - 132.0f) / 16.0f;
			memcpy(t->data + i * 4, &f, 4);
		} else if (t->dt == DT_INT32) {
			int32_t x = k == 0 ? INT32_MIN : k == 1 ? INT32_MAX : ((int32_t)k - 128) * 3;
			memcpy(t->data + i * 4, &x, 4);
		} else {
			t->data[i] = (unsigned char)k;
		}
	}
}

/* same: a and b are the same as the IR defines it (*exactp: bit for bit) */
static int
same(const Tensor *a, const Tensor *b, int *exactp)
{
	int64_t n = ir_tensor_numel(a);

	if (a->dt != b->dt || a->rank != b->rank || memcmp(a->dims, b->dims, a->rank * sizeof *a->dims))
		return 0;
	for (int64_t i = 0; i < n; i++) {
		double x = ir_tensor_get(a, i), y = ir_tensor_get(b, i);
		if (a->dt != DT_FLOAT32) {
			if (x != y)
				return 0;
			continue;
		}
		if (isnan(x) || isnan(y)) {
			if (!(isnan(x) && isnan(y)))
				return 0;
			continue;
		}
		if (x == y)
			continue;
		if (*exactp || isinf(x) || isinf(y) || fabs(x - y) > 1e-5 * fmax(fabs(x), fabs(y)) + 1e-6)
			return 0;
	}
	return 1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Bytes b = { data, size, 0 };
	Gen *g = calloc(1, sizeof *g);
	Module *m;
	Diag d;
	BeSig sig;
	Tensor in[4];
	const Backend *bes[3] = { &be_ref, &be_llvm, getenv("GRAFT_FUZZ_C") ? &be_c : NULL };
	Tensor out[3][MAXV];
	int nops = 1 + (int)take(&b, 8), exact = 1;
	char s[64];

	FZ_CHECK(g != NULL, "calloc");
	g->b = &b;
	{
		V base;
		static const DType dts[] = { DT_FLOAT32, DT_INT32, DT_INT8 };
		base.dt = dts[take(&b, 3)];
		base.rank = 1 + (int)take(&b, MAXR);
		for (int k = 0; k < base.rank; k++)
			base.d[k] = 1 + take(&b, 4);
		g->nparams = 1 + (int)take(&b, 2);
		for (int i = 0; i < g->nparams; i++) {
			g->v[i] = base;
			if (i)          /* a second parameter broadcasts against the first */
				for (int k = 0; k < base.rank; k++)
					g->v[i].d[k] = take(&b, 2) ? base.d[k] : 1;
		}
		g->nv = g->nparams;
	}
	put(g, "def @main(");
	for (int i = 0; i < g->nparams; i++) {
		shapetext(&g->v[i], s);
		put(g, "%s%%p%d: Tensor[%s, %s]", i ? ", " : "", i, s, ir_dtype_names[g->v[i].dt]);
	}
	put(g, ") {\n");
	for (int i = 0; i < nops; i++)
		op(g);
	{
		/* the result: every value nobody used, the last one at least */
		int n = 0;
		put(g, "  (");
		for (int i = g->nparams; i < g->nv; i++)
			if (!g->used[i] || i == g->nv - 1)
				put(g, "%s%s", n++ ? ", " : "", vname(i, g->nparams, s));
		if (!n++)
			put(g, "%%p0");
		put(g, "%s)\n}\n", n == 1 ? "," : "");
	}
	/* the math library's functions (and divide, mean) make results
	   approximate; the rest is exact on every backend */
	exact = !strstr(g->text, "sigmoid") && !strstr(g->text, "tanh") && !strstr(g->text, "erf") &&
	        !strstr(g->text, "exp(") && !strstr(g->text, "log(") && !strstr(g->text, "mean(") &&
	        !strstr(g->text, "divide") && !strstr(g->text, "sqrt") && !strstr(g->text, "cos") &&
	        !strstr(g->text, "sin") && !strstr(g->text, "tan");     /* and their inverses, hyperbolic too */
	m = ir_module_new();
	ir_diag_init(&d, stderr, m);
	FZ_CHECK(g->at < sizeof g->text, "the model is too long");
	if (ir_parse(m, &d, "model.relay", g->text, g->at) != 0 || ir_infer_types(m, &d) != 0) {
		fprintf(stderr, "%s", g->text);
		FZ_CHECK(0, "the generated model does not type-check");
	}
	FZ_CHECK(be_sig(m, &sig, &d) == 0, "be_sig");
	for (uint32_t i = 0; i < sig.nin; i++) {
		in[i] = sig.in[i];
		fill(&b, &in[i]);
	}
	for (int k = 0; k < 3; k++) {
		Program *p;
		BeOpts o = { .opt = 2 };
		if (!bes[k])
			continue;
		p = bes[k]->prepare(m, &o, &d);
		if (!p) {
			fprintf(stderr, "%s", g->text);
			FZ_CHECK(0, "a backend refuses a model the generator makes");
		}
		if (bes[k]->run(p, in, out[k], &d) != 0) {
			fprintf(stderr, "%s", g->text);
			FZ_CHECK(0, "a backend fails to run the model");
		}
		bes[k]->release(p);
		if (k)
			for (uint32_t j = 0; j < sig.nout; j++) {
				if (!same(&out[0][j], &out[k][j], &exact)) {
					fprintf(stderr, "%s", g->text);
					for (int64_t e = 0; e < ir_tensor_numel(&out[0][j]); e++)
						fprintf(stderr, "  [%lld] ref %.9g %s %.9g\n", (long long)e, ir_tensor_get(&out[0][j], e),
						        bes[k]->name, ir_tensor_get(&out[k][j], e));
					FZ_CHECK(0, "a backend disagrees with ref");
				}
			}
	}
	for (int k = 0; k < 3; k++)
		if (bes[k])
			for (uint32_t j = 0; j < sig.nout; j++)
				ir_tensor_free(&out[k][j]);
	for (uint32_t i = 0; i < sig.nin; i++)
		free(in[i].data);
	be_sig_free(&sig);
	ir_diag_free(&d);
	ir_module_free(m);
	free(g);
	return 0;
}
