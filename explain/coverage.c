/*
** coverage.c: rule coverage, counted through the interpreter's trace and
** kept in a JSON file (coverage.h).  The reader takes the JSON this file
** writes, in any layout and key order, and refuses anything else with
** its place.
*/
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "coverage.h"
#include "interp.h"

static char *
dup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(ir_xmalloc(n), s, n);
}

/* ---------------------------------------------------------------- reading */

typedef struct Rd {
	const char *path, *s, *p, *end;
	FILE *errs;
	int bad;
} Rd;

static int
err(Rd *r, const char *fmt, const char *what)
{
	uint32_t line = 1, col = 1;

	if (r->bad++)
		return 0;
	for (const char *q = r->s; q < r->p; q++) {
		if (*q == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	fprintf(r->errs, "%s:%u:%u: error: ", r->path, line, col);
	fprintf(r->errs, fmt, what);
	fputc('\n', r->errs);
	return 0;
}

static void
ws(Rd *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
		r->p++;
}

static int
eat(Rd *r, char c)
{
	char what[2] = { c, 0 };

	ws(r);
	if (r->p < r->end && *r->p == c) {
		r->p++;
		return 1;
	}
	return err(r, "expected '%s'", what);
}

static int
peek(Rd *r, char c)
{
	ws(r);
	return r->p < r->end && *r->p == c;
}

/* str: a JSON string (escapes \" \\ \/ \n \t; others refused) */
static char *
str(Rd *r)
{
	char *out;
	size_t n = 0;

	if (!eat(r, '"'))
		return NULL;
	out = ir_xmalloc((size_t)(r->end - r->p) + 1);
	while (r->p < r->end && *r->p != '"') {
		char c = *r->p++;
		if ((unsigned char)c < 0x20) {
			r->p--;
			free(out);
			err(r, "%s", "a control character in a string");
			return NULL;
		}
		if (c == '\\') {
			if (r->p == r->end)
				break;
			c = *r->p++;
			switch (c) {
			case '"': case '\\': case '/': break;
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			default:
				r->p--;
				free(out);
				err(r, "%s", "an escape this file does not use");
				return NULL;
			}
		}
		out[n++] = c;
	}
	if (r->p == r->end) {
		free(out);
		err(r, "%s", "a string that does not end");
		return NULL;
	}
	r->p++;
	out[n] = 0;
	return out;
}

/* num: a non-negative integer */
static uint64_t
num(Rd *r)
{
	uint64_t v = 0;

	ws(r);
	if (r->p == r->end || *r->p < '0' || *r->p > '9')
		return err(r, "%s", "expected a count");
	while (r->p < r->end && *r->p >= '0' && *r->p <= '9') {
		if (v > (UINT64_MAX - 9) / 10)
			return err(r, "%s", "a count too large");
		v = v * 10 + (uint64_t)(*r->p++ - '0');
	}
	return v;
}

/* object: calls field(r, key, ctx) for each key of an object */
static void
object(Rd *r, void (*field)(Rd *, const char *, void *), void *ctx)
{
	if (!eat(r, '{'))
		return;
	if (peek(r, '}')) {
		r->p++;
		return;
	}
	while (!r->bad) {
		char *key = str(r);
		if (!key || !eat(r, ':')) {
			free(key);
			return;
		}
		field(r, key, ctx);
		free(key);
		if (peek(r, ',')) {
			r->p++;
			continue;
		}
		eat(r, '}');
		return;
	}
}

/* array: calls elem(r, ctx) for each element of an array */
static void
array(Rd *r, void (*elem)(Rd *, void *), void *ctx)
{
	if (!eat(r, '['))
		return;
	if (peek(r, ']')) {
		r->p++;
		return;
	}
	while (!r->bad) {
		elem(r, ctx);
		if (peek(r, ',')) {
			r->p++;
			continue;
		}
		eat(r, ']');
		return;
	}
}

static void
varfield(Rd *r, const char *k, void *ctx)
{
	CovVar *v = ctx;

	if (!strcmp(k, "pattern")) {
		free(v->pattern);
		v->pattern = str(r);
	} else if (!strcmp(k, "matched")) {
		v->matched = num(r);
	} else if (!strcmp(k, "fired")) {
		v->fired = num(r);
	} else {
		err(r, "unknown key \"%s\" in a variant", k);
	}
}

static void
varelem(Rd *r, void *ctx)
{
	CovRule *ru = ctx;

	ru->vars = ir_xrealloc(ru->vars, (ru->nvars + 1) * sizeof *ru->vars);
	memset(&ru->vars[ru->nvars], 0, sizeof *ru->vars);
	object(r, varfield, &ru->vars[ru->nvars++]);
}

static void
rulefield(Rd *r, const char *k, void *ctx)
{
	CovRule *ru = ctx;

	if (!strcmp(k, "name")) {
		free(ru->name);
		ru->name = str(r);
	} else if (!strcmp(k, "kind")) {
		free(ru->kind);
		ru->kind = str(r);
	} else if (!strcmp(k, "line")) {
		ru->line = (uint32_t)num(r);
	} else if (!strcmp(k, "matched")) {
		ru->matched = num(r);
	} else if (!strcmp(k, "fired")) {
		ru->fired = num(r);
	} else if (!strcmp(k, "variants")) {
		array(r, varelem, ru);
	} else {
		err(r, "unknown key \"%s\" in a rule", k);
	}
}

static void
ruleelem(Rd *r, void *ctx)
{
	CovSet *s = ctx;

	s->rules = ir_xrealloc(s->rules, (s->nrules + 1) * sizeof *s->rules);
	memset(&s->rules[s->nrules], 0, sizeof *s->rules);
	object(r, rulefield, &s->rules[s->nrules++]);
}

static void
setfield(Rd *r, const char *k, void *ctx)
{
	CovSet *s = ctx;

	if (!strcmp(k, "name")) {
		free(s->name);
		s->name = str(r);
	} else if (!strcmp(k, "file")) {
		free(s->file);
		s->file = str(r);
	} else if (!strcmp(k, "rules")) {
		array(r, ruleelem, s);
	} else {
		err(r, "unknown key \"%s\" in a ruleset", k);
	}
}

static void
setelem(Rd *r, void *ctx)
{
	Coverage *c = ctx;

	c->sets = ir_xrealloc(c->sets, (c->nsets + 1) * sizeof *c->sets);
	memset(&c->sets[c->nsets], 0, sizeof *c->sets);
	object(r, setfield, &c->sets[c->nsets++]);
}

static void
topfield(Rd *r, const char *k, void *ctx)
{
	Coverage *c = ctx;

	if (!strcmp(k, "graft-coverage")) {
		if (num(r) != 1 && !r->bad)
			err(r, "%s", "a coverage file of another version (this graft writes version 1)");
	} else if (!strcmp(k, "runs")) {
		c->runs = num(r);
	} else if (!strcmp(k, "rulesets")) {
		array(r, setelem, c);
	} else {
		err(r, "unknown key \"%s\"", k);
	}
}

int
cov_read(const char *path, Coverage *c, FILE *errs)
{
	char *buf;
	size_t len;
	const char *what;
	Rd r;

	memset(c, 0, sizeof *c);
	if (ir_read_file(path, (size_t)1 << 30, &buf, &len, &what) != 0) {
		if (errno == ENOENT)
			return 0;       /* the first run */
		fprintf(errs, "graft: error: cannot %s '%s': %s\n", what, path, strerror(errno));
		return 1;
	}
	memset(&r, 0, sizeof r);
	r.path = path;
	r.s = r.p = buf;
	r.end = buf + len;
	r.errs = errs;
	object(&r, topfield, c);
	ws(&r);
	if (!r.bad && r.p != r.end)
		err(&r, "%s", "something after the coverage object");
	/* every field this file needs */
	for (uint32_t i = 0; i < c->nsets && !r.bad; i++) {
		if (!c->sets[i].name || !c->sets[i].file)
			err(&r, "%s", "a ruleset without a name or file");
		for (uint32_t j = 0; j < c->sets[i].nrules && !r.bad; j++) {
			if (!c->sets[i].rules[j].name || !c->sets[i].rules[j].kind)
				err(&r, "%s", "a rule without a name or kind");
			for (uint32_t k = 0; k < c->sets[i].rules[j].nvars && !r.bad; k++)
				if (!c->sets[i].rules[j].vars[k].pattern)
					err(&r, "%s", "a variant without a pattern");
		}
	}
	free(buf);
	if (r.bad) {
		cov_free(c);
		return 1;
	}
	return 0;
}

/* ---------------------------------------------------------------- writing */

static void
jstr(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", f);
		else if (*s == '\t')
			fputs("\\t", f);
		else if ((unsigned char)*s >= 0x20)
			fputc(*s, f);
	}
	fputc('"', f);
}

int
cov_write(const char *path, const Coverage *c, FILE *errs)
{
	IrOut o;

	if (ir_out_open(&o, path, 0) != 0) {
		fprintf(errs, "graft: error: %s: %s\n", o.path, o.msg);
		return 1;
	}
	fprintf(o.f, "{\n  \"graft-coverage\": 1,\n  \"runs\": %llu,\n  \"rulesets\": [", (unsigned long long)c->runs);
	for (uint32_t i = 0; i < c->nsets; i++) {
		const CovSet *s = &c->sets[i];
		fprintf(o.f, "%s\n    {\n      \"name\": ", i ? "," : "");
		jstr(o.f, s->name);
		fputs(",\n      \"file\": ", o.f);
		jstr(o.f, s->file);
		fputs(",\n      \"rules\": [", o.f);
		for (uint32_t j = 0; j < s->nrules; j++) {
			const CovRule *ru = &s->rules[j];
			fprintf(o.f, "%s\n        { \"name\": ", j ? "," : "");
			jstr(o.f, ru->name);
			fputs(", \"kind\": ", o.f);
			jstr(o.f, ru->kind);
			fprintf(o.f, ", \"line\": %u, \"matched\": %llu, \"fired\": %llu,\n          \"variants\": [", ru->line,
			        (unsigned long long)ru->matched, (unsigned long long)ru->fired);
			for (uint32_t k = 0; k < ru->nvars; k++) {
				fprintf(o.f, "%s\n            { \"pattern\": ", k ? "," : "");
				jstr(o.f, ru->vars[k].pattern);
				fprintf(o.f, ", \"matched\": %llu, \"fired\": %llu }", (unsigned long long)ru->vars[k].matched,
				        (unsigned long long)ru->vars[k].fired);
			}
			fputs(" ] }", o.f);
		}
		fputs(" ]\n    }", o.f);
	}
	fputs(" ]\n}\n", o.f);
	if (ir_out_commit(&o) != 0) {
		fprintf(errs, "graft: error: %s: %s\n", o.path, o.msg);
		return 1;
	}
	return 0;
}

void
cov_free(Coverage *c)
{
	for (uint32_t i = 0; i < c->nsets; i++) {
		CovSet *s = &c->sets[i];
		for (uint32_t j = 0; j < s->nrules; j++) {
			for (uint32_t k = 0; k < s->rules[j].nvars; k++)
				free(s->rules[j].vars[k].pattern);
			free(s->rules[j].vars);
			free(s->rules[j].name);
			free(s->rules[j].kind);
		}
		free(s->rules);
		free(s->name);
		free(s->file);
	}
	free(c->sets);
	memset(c, 0, sizeof *c);
}

/* ---------------------------------------------------------------- counting */

void
cov_run_init(CovRun *r, const Ruleset *rs, const char *file)
{
	uint32_t nv = 0;

	memset(r, 0, sizeof *r);
	r->rs = rs;
	r->file = file;
	r->matched = ir_xcalloc(rs->nrules + 1, sizeof *r->matched);
	r->fired = ir_xcalloc(rs->nrules + 1, sizeof *r->fired);
	r->first = ir_xcalloc(rs->nrules + 1, sizeof *r->first);
	for (uint32_t i = 0; i < rs->nrules; i++) {
		r->first[i] = nv;
		nv += interp_variants(rs, i);
	}
	r->first[rs->nrules] = nv;
	r->vmatched = ir_xcalloc(nv + 1, sizeof *r->vmatched);
	r->vfired = ir_xcalloc(nv + 1, sizeof *r->vfired);
}

void
cov_run_free(CovRun *r)
{
	free(r->matched);
	free(r->fired);
	free(r->first);
	free(r->vmatched);
	free(r->vfired);
}

void
cov_trace(void *ctx, uint32_t rule, uint32_t variant, int what)
{
	CovRun *r = ctx;
	uint32_t slot;

	if (rule >= r->rs->nrules || (what != IT_MATCH && what != IT_UNCHANGED))
		return;
	slot = r->first[rule] + variant;
	if (slot >= r->first[rule + 1])
		return;
	r->matched[rule]++;
	r->vmatched[slot]++;
	if (what == IT_UNCHANGED)
		return;         /* matched, and made no change */
	/* a rewrite rule's leaf that matches returns its result: it fires
	   (the driver's count, in fired[], says whether it was kept) */
	if (r->rs->rules[rule].kind == RI_RULE)
		r->vfired[slot]++;
}

static int
rulecmp(const void *a, const void *b)
{
	const CovRule *x = a, *y = b;
	return x->line != y->line ? (x->line < y->line ? -1 : 1) : strcmp(x->name, y->name);
}

static int
setcmp(const void *a, const void *b)
{
	const CovSet *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : strcmp(x->file, y->file);
}

void
cov_add(Coverage *c, const CovRun *r)
{
	const Ruleset *rs = r->rs;
	CovSet *s = NULL;

	for (uint32_t i = 0; i < c->nsets && !s; i++)
		if (!strcmp(c->sets[i].name, rs->name) && !strcmp(c->sets[i].file, r->file))
			s = &c->sets[i];
	if (!s) {
		c->sets = ir_xrealloc(c->sets, (c->nsets + 1) * sizeof *c->sets);
		s = &c->sets[c->nsets++];
		memset(s, 0, sizeof *s);
		s->name = dup(rs->name);
		s->file = dup(r->file);
	}
	for (uint32_t i = 0; i < rs->nrules; i++) {
		const RuleInfo *ri = &rs->rules[i];
		const char *kind = ri->kind == RI_RULE ? "rule" : ri->kind == RI_COMPOSITE ? "composite" : "supports";
		CovRule *ru = NULL;
		for (uint32_t j = 0; j < s->nrules && !ru; j++)
			if (!strcmp(s->rules[j].name, ri->name) && s->rules[j].line == ri->line)
				ru = &s->rules[j];
		if (!ru) {
			s->rules = ir_xrealloc(s->rules, (s->nrules + 1) * sizeof *s->rules);
			ru = &s->rules[s->nrules++];
			memset(ru, 0, sizeof *ru);
			ru->name = dup(ri->name);
			ru->kind = dup(kind);
			ru->line = ri->line;
		}
		ru->matched += r->matched[i];
		ru->fired += r->fired[i];
		for (uint32_t v = r->first[i]; v < r->first[i + 1]; v++) {
			char text[1024];
			CovVar *cv = NULL;
			interp_variant_text(rs, i, v - r->first[i], text, sizeof text);
			for (uint32_t k = 0; k < ru->nvars && !cv; k++)
				if (!strcmp(ru->vars[k].pattern, text))
					cv = &ru->vars[k];
			if (!cv) {
				ru->vars = ir_xrealloc(ru->vars, (ru->nvars + 1) * sizeof *ru->vars);
				cv = &ru->vars[ru->nvars++];
				memset(cv, 0, sizeof *cv);
				cv->pattern = dup(text);
			}
			cv->matched += r->vmatched[v];
			/* a composite's or supports entry's variant is taken when it
			   matches and its entry fires: counted as matched alone */
			cv->fired += r->vfired[v];
		}
	}
	qsort(s->rules, s->nrules, sizeof *s->rules, rulecmp);
	qsort(c->sets, c->nsets, sizeof *c->sets, setcmp);
}

/* ---------------------------------------------------------------- report */

void
cov_report(FILE *f, const Coverage *c)
{
	fprintf(f, "coverage over %llu run%s\n", (unsigned long long)c->runs, c->runs == 1 ? "" : "s");
	for (uint32_t i = 0; i < c->nsets; i++) {
		const CovSet *s = &c->sets[i];
		uint32_t fired = 0, vars = 0, vfired = 0;
		for (uint32_t j = 0; j < s->nrules; j++) {
			const CovRule *ru = &s->rules[j];
			int israw = !strcmp(ru->kind, "rule");
			fired += ru->fired > 0;
			for (uint32_t k = 0; k < ru->nvars; k++) {
				vars++;
				vfired += (israw ? ru->vars[k].fired : ru->vars[k].matched) > 0;
			}
		}
		fprintf(f, "\n%s (%s): %u of %u fired; %u of %u pattern variants %s\n", s->name, s->file, fired,
		        s->nrules, vfired, vars, "fired or matched");
		for (uint32_t j = 0; j < s->nrules; j++) {
			const CovRule *ru = &s->rules[j];
			int israw = !strcmp(ru->kind, "rule");
			if (!ru->fired)
				fprintf(f, "  %s:%u: %s %s never fired (its pattern and guard matched %llu time%s)\n", s->file,
				        ru->line, ru->kind, ru->name, (unsigned long long)ru->matched, ru->matched == 1 ? "" : "s");
			for (uint32_t k = 0; ru->fired && k < ru->nvars && ru->nvars > 1; k++)
				if (!(israw ? ru->vars[k].fired : ru->vars[k].matched))
					fprintf(f, "  %s:%u: %s %s: variant %s never %s\n", s->file, ru->line, ru->kind, ru->name,
					        ru->vars[k].pattern, israw ? "fired" : "matched");
		}
	}
}
