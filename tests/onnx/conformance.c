/*
** conformance.c: the ONNX conformance runner.  ONNX's backend node tests
** (Debian's libonnx-testdata: DIR/test_NAME/model.onnx with
** test_data_set_N/input_K.pb and output_K.pb) are imported with
** onnx_import, run on the backends and compared with their expected
** outputs at the tolerances of ONNX's own runner (onnx/backend/test:
** numpy's assert_allclose with rtol 1e-3 and atol 1e-7, NaN equal to NaN;
** that is exact equality for integers, and the dtypes and shapes must
** match).  docs/onnx.md, "Conformance", is the user's description.
**
** Every test of the suite is taken, and gives one TAP point per backend:
** ref and llvm always, c (which runs cc for every model) only for the
** quantized tests (an op of QUANTOPS) and those of float16 data (a graph
** input or output of elem_type FLOAT16).  Each is passed, wrong or
** refused.  A test the importer refuses for a limitation it states
** (LIMITS: an op it does not know, a dynamic shape, a dtype or an
** attribute it does not take), or a backend refuses at prepare time for
** an op or dtype it lacks (BELIMITS), is refused: a skip naming the
** reason.  Any other import error, a type error, any other refusal, a
** run-time error or a mismatch is wrong: a failure.  A few tests are not
** testable, and are skips counted apart: a training op, a random draw
** (RANDOMOPS, and a Dropout in training mode that the importer refuses
** as one) and ONNX 1.0's opset 1.  Each test runs in a child process, which
** sends its verdicts to the parent on a pipe, so that a crash (or a
** sanitizer's report) fails that test and the runner goes on.
**
** Inputs that the importer needs as constants (Reshape's shape, Slice's
** starts, Clip's bounds since opset 11) are frozen to the test's data, as
** `graft run --input` freezes them (onnx_import_with, ONNX_FREEZE_NEEDED;
** TVM's from_onnx(freeze_params=True) freezes them all), and the point
** says so.  The runner reads the protobuf's wire format itself for the
** few fields it lists (the ops, inputs and outputs of the graph), so it
** needs neither protobuf-c's headers nor the frontend's internals.
**
** The tests are those of ONNX's suite under DEFAULT_ROOT (SUITES: node,
** pytorch-converted, pytorch-operator, simple; one TAP name per test,
** the folder first but for node's), or of the one folder
** $GRAFT_ONNX_TESTDATA; without
** it the whole file is one failure naming the package to install (one
** "1..0 # SKIP" with GRAFT_ALLOW_SKIPS=1).  The last lines sum up each
** backend, on standard output (TAP comments) and on standard error.
** GRAFT_ONNX_ONLY=SUBSTRING runs only the tests whose names hold it.
*/
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backend.h"
#include "onnx.h"
#include "tap.h"

/* The importer's op table (frontends/onnx/onnxi.h, which needs protobuf-c's
** headers): whether it has a converter for an op of the default domain. */
struct OpEntry;
const struct OpEntry *onnx_op_find(const char *name);

#define DEFAULT_ROOT "/usr/include/onnx/backend/test/data"
/* the suite's folders of tests under DEFAULT_ROOT ("real" needs downloads) */
static const char *const SUITES[] = { "node", "pytorch-converted", "pytorch-operator", "simple" };
#define TESTDATA_PACKAGE "libonnx-testdata"

static const double RTOL = 1e-3, ATOL = 1e-7;

enum {
	MAXIO = 16,             /* inputs or outputs of one test */
	MAXSETS = 8,            /* data sets of one test */
	MSG = 1024,
};

/* TensorProto.DataType's FLOAT16: a graph input or output of it puts a
** test on the c backend too */
enum { ONNX_FLOAT16 = 10 };

/* The ops that put a test on the c backend too. */
static const char *const QUANTOPS[] = {
	"QLinearConv", "QLinearMatMul", "QuantizeLinear", "DequantizeLinear", "ConvInteger", "MatMulInteger",
};

/* Import errors that are limitations the importer states (onnx.h,
** docs/onnx.md), matched in the message: a skip, not a failure.  "outputs,
** not" is the op table's count of outputs: an optional output the
** converter does not make (MaxPool's Indices). */
static const char *const LIMITS[] = {
	"unsupported op", "not supported", "does not support", "graft needs", "graft has no",
	"graft takes", "graft handles", "graft reads", "graft pads", "must be a constant",
	"outputs, not", "graft imports for inference",
};

/* Refusals of a backend's prepare that are limitations it states (an op
** or dtype it lacks, docs/backends.md): a skip.  Any other refusal (a
** bound that does not fit its dtype, say) is a failure. */
static const char *const BELIMITS[] = {
	"is not supported", "yet", "that are not constants", "must be constants",
};

/* The backends and, ORDER BACKENDS, their counts. */
enum { B_REF, B_LLVM, B_C, NB };
static const Backend *const backends[NB] = { &be_ref, &be_llvm, &be_c };

typedef struct Count {
	int pass, fail, skip, total;    /* of the testable tests */
	int untestable;
} Count;

static Count counts[NB];
static int ntests;
static FILE *rec;               /* a test's child: its verdicts, to the parent */


/* ---------------------------------------------------------------- helpers */

static int
isdir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int
isfile(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* slurp: path's bytes (malloc'ed) into *buf, *len; 0 or -1 */
static int
slurp(const char *path, unsigned char **buf, size_t *len)
{
	FILE *f = fopen(path, "rb");
	long n;

	if (!f)
		return -1;
	if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
		fclose(f);
		return -1;
	}
	*buf = ir_xmalloc((size_t)n + 1);
	*len = fread(*buf, 1, (size_t)n, f);
	fclose(f);
	if (*len != (size_t)n) {
		free(*buf);
		return -1;
	}
	return 0;
}

/* firstline: the first line of s into buf, without the model's path (the
** message part after "error: ") */
static void
firstline(const char *s, char *buf, size_t size)
{
	const char *e = strstr(s, "error: ");
	size_t n;

	s = e ? e + 7 : s;
	n = strcspn(s, "\n");
	snprintf(buf, size, "%.*s", (int)(n < size ? n : size - 1), s);
}

/* islimit: whether the import error msg is a limitation of LIMITS */
static int
islimit(const char *msg)
{
	for (size_t i = 0; i < sizeof LIMITS / sizeof LIMITS[0]; i++)
		if (strstr(msg, LIMITS[i]))
			return 1;
	return 0;
}

/* isbelimit: whether the refusal msg of a backend's prepare is a
** limitation of BELIMITS */
static int
isbelimit(const char *msg)
{
	if (!strstr(msg, "backend cannot run"))
		return 0;
	for (size_t i = 0; i < sizeof BELIMITS / sizeof BELIMITS[0]; i++)
		if (strstr(msg, BELIMITS[i]))
			return 1;
	return 0;
}

/* ---------------------------------------------------------------- comparing */

/* shapestr: t's dtype and dims ("float32 (1, 3)") into buf */
static const char *
shapestr(const Tensor *t, char *buf, size_t size)
{
	size_t k = (size_t)snprintf(buf, size, "%s (", ir_dtype_names[t->dt]);

	for (uint32_t i = 0; i < t->rank && k < size; i++)
		k += (size_t)snprintf(buf + k, size - k, "%s%lld", i ? ", " : "", (long long)t->dims[i]);
	if (k < size)
		snprintf(buf + k, size - k, ")");
	return buf;
}

/* compare: whether got matches want (dtype, shape, and the values within
** ONNX's tolerances); else why, into why */
static int
compare(const Tensor *got, const Tensor *want, char *why, size_t size)
{
	char a[200], b[200];
	size_t n, bad = 0, first = 0;
	int isf = ir_dtype_kind[want->dt] == 'f';
	int64_t lo = 0, hi = 0;

	if (got->dt != want->dt || got->rank != want->rank ||
	    memcmp(got->dims, want->dims, want->rank * sizeof *want->dims) != 0) {
		snprintf(why, size, "got %s, want %s", shapestr(got, a, sizeof a), shapestr(want, b, sizeof b));
		return 0;
	}
	n = (size_t)ir_tensor_numel(want);
	if (!isf && ir_dtype_bytes[want->dt] == 8) {
		/* int64: exact, without going through double */
		for (size_t i = 0; i < n; i++) {
			memcpy(&lo, got->data + 8 * i, 8);
			memcpy(&hi, want->data + 8 * i, 8);
			if (lo != hi && !bad++)
				first = i;
		}
	} else {
		for (size_t i = 0; i < n; i++) {
			double g = ir_tensor_get(got, (int64_t)i), w = ir_tensor_get(want, (int64_t)i);
			int same = isf ? (isnan(g) && isnan(w)) || g == w || fabs(g - w) <= ATOL + RTOL * fabs(w) : g == w;
			if (!same && !bad++)
				first = i;
		}
	}
	if (!bad)
		return 1;
	if (!isf && ir_dtype_bytes[want->dt] == 8) {
		memcpy(&lo, got->data + 8 * first, 8);
		memcpy(&hi, want->data + 8 * first, 8);
		snprintf(why, size, "%zu of %zu values differ; the first, [%zu]: got %lld, want %lld", bad, n, first,
		         (long long)lo, (long long)hi);
	} else {
		snprintf(why, size, "%zu of %zu values differ%s; the first, [%zu]: got %.9g, want %.9g", bad, n,
		         isf ? " beyond rtol 1e-3, atol 1e-7" : "", first, ir_tensor_get(got, (int64_t)first), ir_tensor_get(want, (int64_t)first));
	}
	return 0;
}

/* ---------------------------------------------------------------- tests */

/* ---------------------------------------------------------------- protobuf
**
** The runner reads what it needs of a model (its nodes' op types and
** domains, its graph inputs and initializers' names) from the wire format
** itself, and writes a frozen model by splicing fields: ModelProto.graph
** is field 7; GraphProto's node 1, initializer 5, input 11, output 12;
** NodeProto's op_type 4, domain 7; ValueInfoProto's name 1, type 2;
** TypeProto's tensor_type 1; its elem_type 1; TensorProto's name 8.
*/

enum { PB_VARINT = 0, PB_I64 = 1, PB_LEN = 2, PB_I32 = 5 };

typedef struct Pb {
	const unsigned char *p, *end;
} Pb;

/* varint: reads a varint at b->p into *v; 0 or -1 if malformed */
static int
varint(Pb *b, uint64_t *v)
{
	*v = 0;
	for (int sh = 0; sh < 64; sh += 7) {
		if (b->p == b->end)
			return -1;
		*v |= (uint64_t)(*b->p & 0x7f) << sh;
		if (!(*b->p++ & 0x80))
			return 0;
	}
	return -1;
}

/* pbnext: the next field of b: its number, its wire type, its payload (a
** LEN field's bytes in *val, *len) and where it starts (*at); 1, 0 at the
** end, -1 if malformed */
static int
pbnext(Pb *b, uint32_t *field, int *wt, const unsigned char **val, size_t *len, const unsigned char **at)
{
	uint64_t key, v;

	*at = b->p;
	if (b->p == b->end)
		return 0;
	if (varint(b, &key) != 0)
		return -1;
	*field = (uint32_t)(key >> 3);
	*wt = (int)(key & 7);
	*val = b->p;
	*len = 0;
	switch (*wt) {
	case PB_VARINT: return varint(b, &v) == 0 ? 1 : -1;
	case PB_I64: *len = 8; break;
	case PB_I32: *len = 4; break;
	case PB_LEN:
		if (varint(b, &v) != 0)
			return -1;
		*val = b->p;
		*len = (size_t)v;
		break;
	default: return -1;
	}
	if ((size_t)(b->end - b->p) < *len)
		return -1;
	b->p += *len;
	return 1;
}

/* pbfind: the string or message of field f (the last, as protobuf
** merges) of message m[0..n) into *val, *len; 0 if there is none */
static int
pbfind(const unsigned char *m, size_t n, uint32_t f, const unsigned char **val, size_t *len)
{
	Pb b = { m, m + n };
	const unsigned char *v, *at;
	size_t l;
	uint32_t fd;
	int wt, found = 0;

	while (pbnext(&b, &fd, &wt, &v, &l, &at) == 1)
		if (fd == f && wt == PB_LEN) {
			*val = v;
			*len = l;
			found = 1;
		}
	return found;
}

/* elemtype: the elem_type of ValueInfoProto m[0..n) (a tensor's), or 0 */
static uint64_t
elemtype(const unsigned char *m, size_t n)
{
	const unsigned char *t, *tt, *v, *at;
	size_t tl, ttl, l;
	uint32_t f;
	int wt;
	uint64_t e = 0;
	Pb b;

	if (!pbfind(m, n, 2, &t, &tl) || !pbfind(t, tl, 1, &tt, &ttl))
		return 0;
	b.p = tt;
	b.end = tt + ttl;
	while (pbnext(&b, &f, &wt, &v, &l, &at) == 1)
		if (f == 1 && wt == PB_VARINT) {
			Pb vb = { v, b.end };
			if (varint(&vb, &e) != 0)
				e = 0;
		}
	return e;
}

/* pbstr: field f of message m[0..n) as a C string (malloc'ed; "" if
** absent) */
static char *
pbstr(const unsigned char *m, size_t n, uint32_t f)
{
	const unsigned char *v = NULL;
	size_t l = 0;
	char *s;

	pbfind(m, n, f, &v, &l);
	s = ir_xmalloc(l + 1);
	if (l)
		memcpy(s, v, l);
	s[l] = 0;
	return s;
}

/* ---------------------------------------------------------------- tests */

/* One test's model and expectations: the model file's bytes, its ONNX
** graph inputs that are not initializers (their names, in order) and its
** data sets. */
typedef struct Case {
	const char *name;       /* test_NAME */
	char *dir;              /* DIR/test_NAME, owned */
	unsigned char *model;   /* model.onnx, owned */
	size_t modellen;
	const unsigned char *graph;     /* within model */
	size_t graphlen;
	char untestable[200];   /* why the test cannot be run as ONNX means it, or "" */
	int quant;              /* a node is of QUANTOPS */
	int half;               /* a graph input or output is float16 */
	int ninputs;
	char *input[MAXIO];     /* owned */
	int nsets;
	int nin[MAXSETS], nout[MAXSETS];
	Tensor in[MAXSETS][MAXIO], out[MAXSETS][MAXIO];
} Case;

/* The ops whose outputs are random draws: ONNX's expected outputs are one
** draw, which no other implementation reproduces. */
static const char *const RANDOMOPS[] = {
	"Bernoulli", "Multinomial", "RandomNormal", "RandomNormalLike", "RandomUniform", "RandomUniformLike",
};

/* opsetcheck: notes in c->untestable a model older than the opsets
** graft imports (below OPSET_FLOOR of the default domain: ONNX 1.0's
** opset 1, whose ops later opsets changed wholesale) */
enum { OPSET_FLOOR = 6 };
static void
opsetcheck(Case *c)
{
	Pb b = { c->model, c->model + c->modellen };
	const unsigned char *v, *at;
	size_t l;
	uint32_t f;
	int wt;

	while (pbnext(&b, &f, &wt, &v, &l, &at) == 1) {
		Pb o = { v, v + l };
		const unsigned char *ov, *oat;
		size_t ol;
		uint32_t of;
		int owt, isdefault = 1;
		uint64_t version = 0;
		if (wt != PB_LEN || f != 8)
			continue;
		while (pbnext(&o, &of, &owt, &ov, &ol, &oat) == 1) {
			if (of == 1 && owt == PB_LEN)
				isdefault = ol == 0 || (ol == 7 && memcmp(ov, "ai.onnx", 7) == 0);
			else if (of == 2 && owt == PB_VARINT) {
				Pb vb = { ov, o.end };
				if (varint(&vb, &version) != 0)
					version = 0;
			}
		}
		if (isdefault && version && version < OPSET_FLOOR)
			snprintf(c->untestable, sizeof c->untestable, "opset %d of ONNX 1.0, older than the opset %d graft starts at",
			         (int)version, OPSET_FLOOR);
	}
}

/* untestable: notes in c->untestable a node (op of domain dom) that makes
** c no test of inference: a training op, or a random draw */
static void
untestable(Case *c, const char *op, const char *dom)
{
	if (strcmp(dom, "ai.onnx.preview.training") == 0) {
		snprintf(c->untestable, sizeof c->untestable, "%s of %s, an op of training; graft imports for inference",
		         op, dom);
		return;
	}
	for (size_t k = 0; k < sizeof RANDOMOPS / sizeof *RANDOMOPS; k++)
		if (strcmp(op, RANDOMOPS[k]) == 0)
			snprintf(c->untestable, sizeof c->untestable, "%s draws random numbers, so no implementation "
			         "reproduces the expected output", op);
}

/* casemodel: c's graph from its model: its ops (c->quant, c->untestable),
** inputs and their dtypes and its outputs' (c->half); 0, or -1 with a
** message */
static int
casemodel(Case *c, char *msg, size_t size)
{
	Pb b;
	const unsigned char *v, *at;
	size_t l;
	uint32_t f;
	int wt, r;
	char *inits[256];
	int ninits = 0;

	if (!pbfind(c->model, c->modellen, 7, &c->graph, &c->graphlen)) {
		snprintf(msg, size, "model.onnx has no graph");
		return -1;
	}
	opsetcheck(c);
	b.p = c->graph;
	b.end = c->graph + c->graphlen;
	while ((r = pbnext(&b, &f, &wt, &v, &l, &at)) == 1) {
		if (wt != PB_LEN)
			continue;
		if (f == 1) {
			char *op = pbstr(v, l, 4), *dom = pbstr(v, l, 7);
			if (!c->untestable[0])
				untestable(c, op, dom);
			for (size_t k = 0; k < sizeof QUANTOPS / sizeof QUANTOPS[0]; k++)
				if (strcmp(op, QUANTOPS[k]) == 0)
					c->quant = 1;
			free(op);
			free(dom);
		} else if (f == 5 && ninits < 256) {
			inits[ninits++] = pbstr(v, l, 8);
		} else if ((f == 11 || f == 12) && elemtype(v, l) == ONNX_FLOAT16) {
			c->half = 1;
		}
	}
	b.p = c->graph;
	while (r == 0 && pbnext(&b, &f, &wt, &v, &l, &at) == 1) {
		char *nm;
		int k;
		if (wt != PB_LEN || f != 11)
			continue;
		nm = pbstr(v, l, 1);
		for (k = 0; k < ninits && strcmp(inits[k], nm) != 0; k++)
			;
		if (k < ninits || c->ninputs == MAXIO) {
			free(nm);
			continue;
		}
		c->input[c->ninputs++] = nm;
	}
	for (int k = 0; k < ninits; k++)
		free(inits[k]);
	if (r != 0) {
		snprintf(msg, size, "model.onnx is malformed protobuf");
		return -1;
	}
	return 0;
}

/* casedata: reads c's data sets; 0, or -1 with a message */
static int
casedata(Case *c, char *msg, size_t size)
{
	char path[4096], err[MSG];

	for (c->nsets = 0; c->nsets < MAXSETS; c->nsets++) {
		int s = c->nsets;
		snprintf(path, sizeof path, "%s/test_data_set_%d", c->dir, s);
		if (!isdir(path))
			break;
		for (int io = 0; io < 2; io++) {
			int *n = io ? &c->nout[s] : &c->nin[s];
			for (*n = 0;; ++*n) {
				snprintf(path, sizeof path, "%s/test_data_set_%d/%s_%d.pb", c->dir, s, io ? "output" : "input", *n);
				if (!isfile(path))
					break;
				if (*n == MAXIO) {
					snprintf(msg, size, "more than %d %ss", MAXIO, io ? "output" : "input");
					return -1;
				}
				if (onnx_read_tensor(path, io ? &c->out[s][*n] : &c->in[s][*n], err, sizeof err) != 0) {
					snprintf(msg, size, "%s", err);
					return -1;
				}
			}
		}
	}
	if (!c->nsets) {
		snprintf(msg, size, "no test_data_set_0");
		return -1;
	}
	return 0;
}

static void
casefree(Case *c)
{
	for (int s = 0; s < c->nsets; s++) {
		for (int k = 0; k < c->nin[s]; k++)
			ir_tensor_free(&c->in[s][k]);
		for (int k = 0; k < c->nout[s]; k++)
			ir_tensor_free(&c->out[s][k]);
	}
	for (int k = 0; k < c->ninputs; k++)
		free(c->input[k]);
	free(c->model);
	free(c->dir);
}

/* record: the child's verdict on backend b, to the parent: pass, fail
** (why) or skip (why), one line */
static void
record(int b, int state, const char *note, const char *why)
{
	fprintf(rec, "%c %d %s\t%s\n", state, b, note, why);   /* NB < 10 */
}

/* point: one TAP point for test name on backend b */
static void
point(const char *name, int b, int state, const char *note, const char *why)
{
	Count *k = &counts[b];

	if (state == 'u') {     /* not testable: counted apart */
		k->untestable++;
		tap_n++;
		printf("ok %d - %s %s # SKIP not testable: %s\n", tap_n, name, backends[b]->name, why);
		fflush(stdout);
		return;
	}
	k->total++;
	if (state == 's') {
		k->skip++;
		tap_n++;
		printf("ok %d - %s %s%s # SKIP %s\n", tap_n, name, backends[b]->name, note, why);
		fflush(stdout);
		return;
	}
	if (state == 'p')
		k->pass++;
	else
		k->fail++;
	ok(state == 'p', "%s %s%s", name, backends[b]->name, note);
	if (state != 'p')
		printf("#   %s\n", why);
}

/* runon: runs m's @main on backend b for each data set of c, binding the
** inputs by parameter; returns 1 if every output matches, else fills why
** and returns 0 at the first failure, -1 if the backend refuses the model
** for a limitation of BELIMITS */
static int
runon(const Case *c, const Module *m, const BeSig *sig, int b, char *why, size_t size)
{
	const Backend *be = backends[b];
	BeOpts bo = { .opt = 2 };
	Program *p;
	Diag d;
	char *dbuf = NULL;
	size_t dlen = 0;
	FILE *df = open_memstream(&dbuf, &dlen);
	int good = 1;
	Tensor in[MAXIO], out[MAXIO];

	ir_diag_init(&d, df, m);
	if (!(p = be->prepare(m, &bo, &d))) {
		fflush(df);
		firstline(dbuf, why, size);
		good = isbelimit(why) ? -1 : 0;
		if (!good)
			snprintf(why + strlen(why), size - strlen(why), " (prepare)");
		goto out;
	}
	for (int s = 0; s < c->nsets && good; s++) {
		char a[200], w[200];
		if ((uint32_t)c->nout[s] != sig->nout) {
			snprintf(why, size, "@main has %u results, data set %d %d outputs", sig->nout, s, c->nout[s]);
			good = 0;
			break;
		}
		/* parameter i: the graph input of its name, else the i-th */
		for (uint32_t i = 0; i < sig->nin && good; i++) {
			const char *pn = ir_symstr(m, sig->inname[i]);
			int k;
			for (k = 0; k < c->ninputs; k++) {
				char rn[512];
				onnx_relay_name(c->input[k], rn, sizeof rn);
				if (strcmp(rn, pn) == 0)
					break;
			}
			if (k == c->ninputs)
				k = (int)i;
			if (k >= c->nin[s]) {
				snprintf(why, size, "no input_%d.pb in data set %d for parameter %%%s", k, s, pn);
				good = 0;
				break;
			}
			in[i] = c->in[s][k];
			if (in[i].dt != sig->in[i].dt || in[i].rank != sig->in[i].rank ||
			    memcmp(in[i].dims, sig->in[i].dims, in[i].rank * sizeof *in[i].dims) != 0) {
				snprintf(why, size, "parameter %%%s is %s, input_%d.pb holds %s", pn, shapestr(&sig->in[i], a, sizeof a),
				         k, shapestr(&in[i], w, sizeof w));
				good = 0;
			}
		}
		if (!good)
			break;
		if (be->run(p, in, out, &d) != 0) {
			fflush(df);
			snprintf(why, size, "run failed on data set %d: ", s);
			firstline(dbuf, why + strlen(why), size - strlen(why));
			good = 0;
			break;
		}
		for (uint32_t k = 0; k < sig->nout; k++) {
			char cmp[600];
			if (good && !compare(&out[k], &c->out[s][k], cmp, sizeof cmp)) {
				snprintf(why, size, "data set %d, output %u: %s", s, k, cmp);
				good = 0;
			}
			ir_tensor_free(&out[k]);
		}
	}
	be->release(p);
out:
	ir_diag_free(&d);
	fclose(df);
	free(dbuf);
	return good;
}

/* Import of a test, with the inputs it freezes. */
typedef struct Load {
	Module *m;              /* NULL until load() */
	BeSig sig;              /* when state is 'p' */
	int state;              /* 'p' imported; 'f' failed, 's' refused for a limitation (msg),
	                           'u' refused as not testable (a random draw) */
	char msg[MSG];
	char note[128];         /* " (frozen: NAME ...)", or "" */
} Load;

/* load: imports c into l as a user's graft run does, the inputs of data
** set 0 given so that those the importer needs as constants are frozen
** (with several data sets, none is: each would need its own model); all
** freezes every input but the first (the c backend's quantization
** parameters).  Then infers, checks and takes @main's signature. */
static void
load(const Case *c, Load *l, int all)
{
	char path[4096];
	Diag d;
	char *dbuf = NULL;
	size_t dlen = 0;
	FILE *df;
	int errs, hasmain, nb = 0;
	OnnxBind b[MAXIO];
	uint8_t frozen[MAXIO] = { 0 };
	OnnxOpts o = { b, 0, all ? ONNX_FREEZE_ALL : ONNX_FREEZE_NEEDED, NULL, frozen };

	snprintf(path, sizeof path, "%s/model.onnx", c->dir);
	if (c->nsets == 1)
		for (int k = all ? 1 : 0; k < c->ninputs && k < c->nin[0]; k++)
			b[nb++] = (OnnxBind){ c->input[k], &c->in[0][k] };
	o.nbind = nb;
	l->m = ir_module_new();
	df = open_memstream(&dbuf, &dlen);
	ir_diag_init(&d, df, l->m);
	errs = onnx_import_with(l->m, path, &o, &d);
	hasmain = ir_global_find(l->m, ir_symz(l->m, "main")) != 0;
	/* the import types the module as it goes (Module.typed), which the
	   verifier checks */
	if (!errs && (l->m->typed || (errs = ir_infer_types(l->m, &d)) == 0) && (errs = ir_verify(l->m, &d)) == 0)
		errs = be_sig(l->m, &l->sig, &d);
	ir_diag_free(&d);
	fclose(df);
	if (!errs) {
		l->state = 'p';
	} else {
		firstline(dbuf, l->msg, sizeof l->msg);
		l->state = hasmain || !islimit(dbuf) ? 'f' : strstr(dbuf, "draws random numbers") ? 'u' : 's';
		if (l->state == 'f')
			snprintf(l->msg + strlen(l->msg), sizeof l->msg - strlen(l->msg), "%s",
			         hasmain ? " (after import)" : " (import)");
	}
	free(dbuf);
	l->note[0] = 0;
	for (int k = 0; k < nb; k++)
		if (frozen[k] == 1) {
			size_t at = strlen(l->note);
			snprintf(l->note + at, sizeof l->note - at, "%s%s", at ? " " : " (frozen: ", b[k].name);
		}
	if (l->note[0] && strlen(l->note) + 1 < sizeof l->note)
		strcat(l->note, ")");
}

static void
loadfree(Load *l)
{
	if (l->state == 'p')
		be_sig_free(&l->sig);
	if (l->m)
		ir_module_free(l->m);
	l->m = NULL;
}

/* child: imports and runs test c on its backends (the first nb),
** recording a verdict for each; in a process of its own, so that a crash
** in the importer or a backend fails one test, not the runner.  A backend
** that needs quantization parameters to be constants (c) gets the model
** again with every input but the first frozen. */
static void
child(Case *c, int nb)
{
	Load l, all;

	memset(&l, 0, sizeof l);
	memset(&all, 0, sizeof all);
	if (!c->graph) {
		snprintf(l.msg, sizeof l.msg, "model.onnx: not protobuf of a ModelProto with a graph");
		l.state = 'f';
	} else if (casedata(c, l.msg, sizeof l.msg) != 0) {
		/* data that is no tensor (an optional or a sequence): the
		   import's refusal, if it is a stated limit, says why better */
		char data[MSG];
		snprintf(data, sizeof data, "%s", l.msg);
		load(c, &l, 0);
		if (l.state == 'p' || !islimit(l.msg)) {
			snprintf(l.msg, sizeof l.msg, "%s", data);
			l.state = islimit(data) ? 's' : 'f';
		}
	} else {
		load(c, &l, 0);
	}
	for (int b = 0; b < nb; b++) {
		char why[MSG];
		int r;
		if (l.state != 'p') {
			record(b, l.state, "", l.msg);
		} else if ((r = runon(c, l.m, &l.sig, b, why, sizeof why)) > 0) {
			record(b, 'p', l.note, "");
		} else if (r < 0 && (strstr(why, "that are not constants") || strstr(why, "must be constants")) &&
		           c->nsets == 1) {
			if (!all.m)
				load(c, &all, 1);
			if (all.state != 'p')
				record(b, all.state, all.note, all.msg);
			else if ((r = runon(c, all.m, &all.sig, b, why, sizeof why)) > 0)
				record(b, 'p', all.note, "");
			else
				record(b, r < 0 ? 's' : 'f', all.note, why);
		} else {
			record(b, r < 0 ? 's' : 'f', l.note, why);
		}
		fflush(rec);
	}
	loadfree(&l);
	loadfree(&all);
}

/* runtest: the test in dir/name, if it is one to take: its child's
** verdicts as TAP points, one per backend (a child that dies fails the
** backends it gave no verdict on, and one that exits with an error, as
** a sanitizer's report does, fails them all); returns whether it was
** taken */
static int
runtest(const char *dir, const char *name)
{
	Case c;
	char msg[MSG], *line = NULL;
	size_t cap = 0;
	int nb, fds[2], status, done[NB] = { 0 }, got[NB];
	char notes[NB][128], whys[NB][MSG];
	char path[4096];
	pid_t pid;
	FILE *in;

	char label[512];
	const char *suite = strrchr(dir, '/');

	/* a test of another folder than node/ is named with its folder */
	suite = suite ? suite + 1 : dir;
	snprintf(label, sizeof label, "%.200s%s%.300s", strcmp(suite, "node") ? suite : "", strcmp(suite, "node") ? "/" : "", name);
	memset(&c, 0, sizeof c);
	c.name = name;
	c.dir = ir_xmalloc(strlen(dir) + strlen(name) + 2);
	sprintf(c.dir, "%s/%s", dir, name);
	snprintf(path, sizeof path, "%s/model.onnx", c.dir);
	if (slurp(path, &c.model, &c.modellen) != 0) {
		free(c.dir);
		return 0;
	}
	if (casemodel(&c, msg, sizeof msg) == 0 && c.untestable[0]) {
		/* one point per backend, counted apart from the testable */
		for (int b = 0; b < B_C; b++) {
			counts[b].untestable++;
			tap_n++;
			printf("ok %d - %s %s # SKIP not testable: %s\n", tap_n, label, backends[b]->name, c.untestable);
		}
		casefree(&c);
		return 1;
	}
	ntests++;
	nb = c.quant || c.half ? NB : B_C;
	fflush(stdout);
	fflush(stderr);
	if (pipe(fds) != 0 || (pid = fork()) < 0)
		ir_die("conformance: cannot fork");
	if (pid == 0) {
		close(fds[0]);
		if (!(rec = fdopen(fds[1], "w")))
			_exit(2);
		child(&c, nb);
		fclose(rec);
		casefree(&c);
		exit(0);
	}
	close(fds[1]);
	if (!(in = fdopen(fds[0], "r")))
		ir_die("conformance: fdopen");
	while (getline(&line, &cap, in) > 0) {
		/* "STATE B NOTE\tWHY\n" */
		char *tab = strchr(line, '\t'), *nl;
		int b = line[0] && line[1] == ' ' ? line[2] - '0' : -1;
		if (b < 0 || b >= nb || line[3] != ' ' || !tab || !strchr("pfsu", line[0]))
			ir_die("conformance: a bad verdict from %s: %s", name, line);
		*tab = 0;
		if ((nl = strchr(tab + 1, '\n')))
			*nl = 0;
		done[b] = 1;
		got[b] = line[0];
		snprintf(notes[b], sizeof notes[b], "%.*s", (int)sizeof notes[b] - 1, line + 4);
		snprintf(whys[b], sizeof whys[b], "%.*s", (int)sizeof whys[b] - 1, tab + 1);
	}
	free(line);
	fclose(in);
	while (waitpid(pid, &status, 0) < 0)
		;
	for (int b = 0; b < nb; b++) {
		if (!done[b]) {
			got[b] = 'f';
			notes[b][0] = 0;
			if (WIFSIGNALED(status))
				snprintf(whys[b], sizeof whys[b], "the test's process died of signal %d", WTERMSIG(status));
			else
				snprintf(whys[b], sizeof whys[b], "the test's process exited with status %d (see the log)",
				         WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		} else if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0) && got[b] != 'f') {
			got[b] = 'f';
			snprintf(whys[b], sizeof whys[b], "the test's process exited with status %d (see the log)",
			         WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		}
		point(label, b, got[b], notes[b], whys[b]);
	}
	casefree(&c);
	return 1;
}

static int
byname(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* scan: the tests of folder dir, sorted, into *ents; their number, or -1 */
static int
scan(const char *dir, struct dirent ***ents)
{
	return isdir(dir) ? scandir(dir, ents, NULL, byname) : -1;
}

int
main(void)
{
	const char *env = getenv("GRAFT_ONNX_TESTDATA"), *only = getenv("GRAFT_ONNX_ONLY");
	char dirs[4][1024];
	int ndirs = 0;

	if (env && *env) {
		snprintf(dirs[ndirs++], sizeof dirs[0], "%s", env);
	} else {
		for (size_t k = 0; k < sizeof SUITES / sizeof *SUITES; k++)
			snprintf(dirs[ndirs++], sizeof dirs[0], "%s/%s", DEFAULT_ROOT, SUITES[k]);
	}
	if (!isdir(dirs[0])) {
		/* as tests/lib.sh's needs: a failure naming the package, or
		   with GRAFT_ALLOW_SKIPS a SKIP */
		if (getenv("GRAFT_ALLOW_SKIPS") && *getenv("GRAFT_ALLOW_SKIPS")) {
			printf("1..0 # SKIP no ONNX tests at %s (apt-get install %s, or set GRAFT_ONNX_TESTDATA)\n", dirs[0],
			       TESTDATA_PACKAGE);
		} else {
			printf("1..1\nnot ok 1 - ONNX's backend tests: needs %s (apt-get install %s; or set "
			       "GRAFT_ONNX_TESTDATA, or GRAFT_ALLOW_SKIPS=1 to skip them)\n", TESTDATA_PACKAGE, TESTDATA_PACKAGE);
		}
		return 0;
	}
	plan_lazy();
	for (int k = 0; k < ndirs; k++) {
		struct dirent **ents;
		int n = scan(dirs[k], &ents);
		if (n < 0) {
			ok(0, "the ONNX tests at %s can be read", dirs[k]);
			continue;
		}
		for (int i = 0; i < n; i++) {
			const char *nm = ents[i]->d_name;
			if (strncmp(nm, "test_", 5) == 0 && (!only || strstr(nm, only)))
				runtest(dirs[k], nm);
			free(ents[i]);
		}
		free(ents);
	}
	if (!ntests)
		ok(0, "the tests at %s are ONNX backend tests", dirs[0]);
	for (int b = 0; b < NB; b++) {
		char line[256];
		const Count *k = &counts[b];
		snprintf(line, sizeof line, "onnx conformance on %s: %d passed, %d wrong, %d refused of %d testable "
		         "(%.1f%% passed; %d not testable)", backends[b]->name, k->pass, k->fail, k->skip, k->total,
		         k->total ? 100.0 * k->pass / k->total : 0.0, k->untestable);
		printf("# %s\n", line);
		fprintf(stderr, "%s\n", line);
	}
	return done_testing();
}
