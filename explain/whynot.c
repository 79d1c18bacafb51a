/*
** whynot.c: `graft --why-not NAME`.  The rule's source is loaded with the
** interpreter (interp/), which runs it and reports, through its trace,
** whether the rule's guard held and what fired; this file walks each of
** the rule's variants (its patterns without alternatives) over the model
** node by node beside it, to say where a pattern stops matching: the part
** of the pattern, what it expected, what it found.
*/
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "dsl.h"
#include "interp.h"
#include "partition.h"
#include "text.h"
#include "whynot.h"

enum { MAXBIND = 128 };

/* A name the pattern bound: a node, or attribute attr of a call. */
typedef struct Binding {
	const char *name;
	NodeId n;
	int attr;               /* -1: the node itself */
} Binding;

/* Walking one variant over one node. */
typedef struct Walk {
	Module *m;
	Binding b[MAXBIND];
	uint32_t nb;
	uint32_t steps;         /* pattern parts that matched: how far it got */
	int failed;
	const Ast *at;          /* the first failure: the pattern part, */
	NodeId node;            /* the node it met, */
	char why[640];          /* and what was expected and found */
	const Ast *rec[16];     /* the recursive patterns being followed */
	uint32_t nrec, depth;
} Walk;

/* desc: node n of m, said in words: "%w, a parameter", "a call of nn.relu" */
static const char *
desc(const Module *m, NodeId n, char *buf, size_t size)
{
	const Node *nd = &m->nodes[n];
	char ty[256] = "";

	if (nd->type)
		ir_type_str(m, nd->type, ty, sizeof ty);
	switch (nd->kind) {
	case NK_VAR: snprintf(buf, size, "%%%s, a parameter", ir_symstr(m, nd->aux)); break;
	case NK_CONST: snprintf(buf, size, "a constant%s%s", *ty ? " of " : "", ty); break;
	case NK_CALL: snprintf(buf, size, "a call of %s%s%s", ir_ops[nd->op].name, *ty ? " giving " : "", ty); break;
	case NK_CALLFN: snprintf(buf, size, "a call of a function"); break;
	case NK_TUPLE: snprintf(buf, size, "a tuple of %u field%s", nd->nargs, nd->nargs == 1 ? "" : "s"); break;
	case NK_GETITEM: snprintf(buf, size, "field %u of a tuple", nd->aux); break;
	case NK_FUNC: snprintf(buf, size, "a function"); break;
	default: snprintf(buf, size, "a node of kind %d", nd->kind); break;
	}
	return buf;
}

/* what: node n, short: its op, or its description */
static const char *
what(const Module *m, NodeId n, char *buf, size_t size)
{
	if (m->nodes[n].kind == NK_CALL) {
		snprintf(buf, size, "%s", ir_ops[m->nodes[n].op].name);
		return buf;
	}
	return desc(m, n, buf, size);
}

/* ofcomposite: if n calls a composite function (the partitioner's
** outlined match), its Composite name, when want is NULL or equals it;
** else NULL */
static const char *
ofcomposite(const Module *m, NodeId n, const char *want)
{
	const AttrVal *a;
	const char *name;
	if (!n || m->nodes[n].kind != NK_CALLFN || m->nodes[ir_arg(m, n, 0)].kind != NK_FUNC)
		return NULL;
	a = ir_func_attr(m, ir_arg(m, n, 0), "Composite");
	if (!a || a->kind != AV_STR)
		return NULL;
	name = ir_symstr(m, a->u.s);
	return !want || !strcmp(name, want) ? name : NULL;
}

/* printed: pattern part a as text, into buf */
static const char *
printed(const Ast *a, char *buf, size_t size)
{
	FILE *f = fmemopen(buf, size, "w");
	if (!f) {
		snprintf(buf, size, "?");
		return buf;
	}
	dsl_print(f, a);
	fclose(f);
	buf[size - 1] = 0;
	return buf;
}

/* nodename: node n as the partitioner's notes name it: what it is, and
** its line:col when it has one */
static const char *
nodename(const Module *m, NodeId n, char *buf, size_t size)
{
	char w[200];
	what(m, n, w, sizeof w);
	if (m->nodes[n].kind == NK_CALLFN && ofcomposite(m, n, NULL))
		snprintf(w, sizeof w, "composite %s", ofcomposite(m, n, NULL));
	if (m->locs[n].file)
		snprintf(buf, size, "%.200s at %u:%u", w, m->locs[n].line, m->locs[n].col);
	else
		snprintf(buf, size, "%.200s", w);
	return buf;
}

/* fail: the first failure of w, at pattern part a against node n */
static int
fail(Walk *w, const Ast *a, NodeId n, const char *fmt, ...)
{
	va_list ap;

	if (!w->failed) {
		w->failed = 1;
		w->at = a;
		w->node = n;
		va_start(ap, fmt);
		vsnprintf(w->why, sizeof w->why, fmt, ap);
		va_end(ap);
	}
	return 0;
}

static const Binding *
lookup(const Walk *w, const char *name)
{
	for (uint32_t i = 0; i < w->nb; i++)
		if (strcmp(w->b[i].name, name) == 0)
			return &w->b[i];
	return NULL;
}

static void
bind(Walk *w, const char *name, NodeId n, int attr)
{
	if (w->nb < MAXBIND)
		w->b[w->nb++] = (Binding){ name, n, attr };
}

/* attrtext: attribute k of call n as Relay text */
static const char *
attrtext(const Module *m, NodeId n, int k, char *buf, size_t size)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

	if (!f)
		return "?";
	ir_attr_print(f, m, &m->attrs[m->nodes[n].aux + (uint32_t)k]);
	fclose(f);
	snprintf(buf, size, "%s", s ? s : "?");
	free(s);
	return buf;
}

static int pm(Walk *w, const Ast *a, NodeId n, const char *where);

/* operands: the positional parts of a call or tuple pattern a over node n
** (`...` takes the rest) */
static int
operands(Walk *w, const Ast *a, NodeId n, const char *what)
{
	const Module *m = w->m;
	uint32_t pos = 0;

	for (uint32_t i = 0; i < a->nkid; i++) {
		const Ast *k = a->kid[i];
		char where[160];
		if (k->kind == A_ATTR)
			continue;
		if (k->kind == A_REST) {
			/* the fields after it, from the end */
			uint32_t after = 0, na = m->nodes[n].nargs;
			if (k->s)
				bind(w, k->s, n, -1);
			for (uint32_t j = i + 1; j < a->nkid; j++)
				after += a->kid[j]->kind != A_ATTR;
			if (pos + after > na)
				return fail(w, a, n, "%s has %u field%s; the pattern wants at least %u", what, na, na == 1 ? "" : "s",
				            pos + after);
			for (uint32_t j = i + 1; j < a->nkid; j++) {
				if (a->kid[j]->kind == A_ATTR)
					continue;
				snprintf(where, sizeof where, "field %u of %s", na - after, what);
				if (!pm(w, a->kid[j], ir_arg(m, n, na - after), where))
					return 0;
				after--;
			}
			return 1;
		}
		if (pos >= m->nodes[n].nargs)
			return fail(w, k, n, "%s has %u operand%s; the pattern wants more", what, m->nodes[n].nargs,
			            m->nodes[n].nargs == 1 ? "" : "s");
		snprintf(where, sizeof where, "%s %u of %s", a->kind == A_TUPLE ? "field" : "operand", pos, what);
		if (!pm(w, k, ir_arg(m, n, pos), where))
			return 0;
		pos++;
	}
	if (pos != m->nodes[n].nargs && a->kind == A_TUPLE)
		return fail(w, a, n, "%s: expected %u fields, found %u", what, pos, m->nodes[n].nargs);
	return 1;
}

/* pm: pattern part a against node n, which is `where` ("operand 1 of
** nn.bias_add"); 1 if it matches, else 0 with the first failure in w */
static int
pm(Walk *w, const Ast *a, NodeId n, const char *where)
{
	Module *m = w->m;
	const Node *nd = &m->nodes[n];
	char d1[320], d2[320];

	switch (a->kind) {
	case A_ANY:
		break;
	case A_CONST:
		if (nd->kind != NK_CONST)
			return fail(w, a, n, "%s: expected a constant, found %s", where, desc(m, n, d1, sizeof d1));
		if (a->nkid) {
			const Ast *l = a->kid[0];
			Rw rw;
			int same;
			memset(&rw, 0, sizeof rw);
			rw.m = m;
			same = rw_const_is(&rw, n, l->kind == A_BOOL ? DT_BOOL : l->dtype, l->kind == A_FLOAT ? l->f : (double)l->i);
			if (!same) {
				char lit[64];
				dsl_littext(l, lit, sizeof lit);
				return fail(w, a, n, "%s: expected the constant %s (%s), found %s", where, lit,
				            ir_dtype_names[l->kind == A_BOOL ? DT_BOOL : l->dtype], desc(m, n, d1, sizeof d1));
			}
		}
		break;
	case A_VAR:
		if (nd->kind != NK_VAR)
			return fail(w, a, n, "%s: expected a parameter of the graph, found %s", where,
			            desc(m, n, d1, sizeof d1));
		if (a->s && strcmp(ir_symstr(m, nd->aux), a->s) != 0)
			return fail(w, a, n, "%s: expected the parameter %%%s, found %s", where, a->s, desc(m, n, d1, sizeof d1));
		break;
	case A_NAME: {
		const Binding *b = lookup(w, a->s);
		if (!b) {
			bind(w, a->s, n, -1);
		} else if (b->attr < 0 && b->n != n) {
			return fail(w, a, n, "%s: expected the node bound to %s (%s), found %s", where, a->s,
			            desc(m, b->n, d1, sizeof d1), desc(m, n, d2, sizeof d2));
		}
		break;
	}
	case A_BIND:
		bind(w, a->s, n, -1);
		return pm(w, a->kid[0], n, where);
	case A_TYPED: {
		const Type *t;
		int bad = 0;
		if (!pm(w, a->kid[0], n, where))
			return 0;
		t = nd->type ? ir_type(m, nd->type) : NULL;
		if (!t || t->kind != TY_TENSOR) {
			bad = 1;
		} else {
			if (a->dtype != DT_COUNT && t->dtype != a->dtype)
				bad = 1;
			if (a->kid[1]) {
				const int64_t *dims = ir_type_dims(m, nd->type);
				if (t->n != a->kid[1]->nkid)
					bad = 1;
				for (uint32_t i = 0; !bad && i < a->kid[1]->nkid; i++)
					if (a->kid[1]->kid[i]->kind == A_INT && dims[i] != a->kid[1]->kid[i]->i)
						bad = 1;
			}
		}
		if (bad) {
			char ty[256] = "no type";
			if (nd->type)
				ir_type_str(m, nd->type, ty, sizeof ty);
			return fail(w, a, n, "%s: the type constraint does not hold: it is %s", where, ty);
		}
		break;
	}
	case A_DOM:
		/* the child here; the search above it is the matcher's */
		return pm(w, a->kid[2], n, where);
	case A_REC: {
		/* a pattern that uses itself: followed down the graph, as
		   rw_pat() follows it (its uses, A_RREF, go back here) */
		int ok;
		if (w->nrec == sizeof w->rec / sizeof w->rec[0])
			return fail(w, a, n, "%s: patterns that use themselves nest too deep to follow", where);
		w->rec[w->nrec++] = a;
		ok = pm(w, a->kid[0], n, where);
		w->nrec--;
		return ok;
	}
	case A_RREF: {
		uint32_t k = w->nrec;
		int ok;
		while (k > 0 && strcmp(w->rec[k - 1]->s, a->s) != 0)
			k--;
		if (!k || w->depth >= RW_PATDEPTH)
			return fail(w, a, n, "%s: %s() is followed no deeper", where, a->s);
		w->depth++;
		ok = pm(w, w->rec[k - 1]->kid[0], n, where);
		w->depth--;
		return ok;
	}
	case A_ALT: {
		/* any alternative (inside a recursive pattern): the first
		   failure is the one told */
		Walk save = *w;
		for (uint32_t i = 0; i < a->nkid; i++) {
			Walk t = save;
			if (pm(&t, a->kid[i], n, where)) {
				*w = t;
				return 1;
			}
			if (!i)
				*w = t;
		}
		return 0;
	}
	case A_GLOBAL:
		if (nd->kind != NK_GLOBAL || strcmp(ir_symstr(m, nd->aux), a->s) != 0)
			return fail(w, a, n, "%s: expected the global @%s, found %s", where, a->s, desc(m, n, d1, sizeof d1));
		break;
	case A_CALLFN:
		if (nd->kind != NK_CALLFN)
			return fail(w, a, n, "%s: expected a call of a function, found %s", where, desc(m, n, d1, sizeof d1));
		w->steps++;
		return operands(w, a, n, "the call");
	case A_FN: {
		uint32_t np = 0;
		int rest = 0;
		if (nd->kind != NK_FUNC)
			return fail(w, a, n, "%s: expected a function, found %s", where, desc(m, n, d1, sizeof d1));
		for (uint32_t i = 0; i + 1 < a->nkid; i++) {
			const Ast *k = a->kid[i];
			if (k->kind == A_REST)
				rest = 1;
			else if (k->kind == A_ATTR) {
				const AttrVal *v = ir_func_attr(m, n, k->s);
				char lit[256];
				AttrVal want;
				dsl_littext(k->kid[0], lit, sizeof lit);
				if (v)
					want.key = v->key;
				if (!v || !ir_attr_parse(m, lit, &want) || ((want.key = v->key), !ir_attr_equal(m, &want, v)))
					return fail(w, k, n, "%s: expected a function with %s=%s, found %s", where, k->s, lit,
					            v ? "another value" : "none");
			} else
				np++;
		}
		if (rest ? ir_func_nparams(m, n) < np : ir_func_nparams(m, n) != np)
			return fail(w, a, n, "%s: expected a function of %s%u parameter%s, found one of %u", where,
			            rest ? "at least " : "", np, np == 1 ? "" : "s", ir_func_nparams(m, n));
		w->steps++;
		for (uint32_t i = 0, pos = 0; i + 1 < a->nkid; i++) {
			const Ast *k = a->kid[i];
			if (k->kind == A_REST || k->kind == A_ATTR)
				continue;
			if (!pm(w, k, ir_arg(m, n, pos), "a parameter"))
				return 0;
			pos++;
		}
		return pm(w, a->kid[a->nkid - 1], ir_func_body(m, n), "the function's body");
	}
	case A_ANYCALL:
		if (nd->kind != NK_CALL || (a->i >= 0 && ir_op_kind(nd->op) != a->i))
			return fail(w, a, n, "%s: expected a call of %s op, found %s", where,
			            a->i >= 0 ? ir_op_kind_name((int)a->i) : "any", desc(m, n, d1, sizeof d1));
		w->steps++;
		return operands(w, a, n, ir_ops[nd->op].name);
	case A_GETITEM:
		if (nd->kind != NK_GETITEM || (a->i >= 0 && nd->aux != (uint32_t)a->i)) {
			if (a->i < 0)
				return fail(w, a, n, "%s: expected a field of a tuple, found %s", where, desc(m, n, d1, sizeof d1));
			return fail(w, a, n, "%s: expected field %lld of a tuple, found %s", where, (long long)a->i,
			            desc(m, n, d1, sizeof d1));
		}
		w->steps++;
		return pm(w, a->kid[0], ir_arg(m, n, 0), "the tuple");
	case A_TUPLE:
		if (nd->kind != NK_TUPLE)
			return fail(w, a, n, "%s: expected a tuple, found %s", where, desc(m, n, d1, sizeof d1));
		w->steps++;
		return operands(w, a, n, "the tuple");
	case A_CALL: {
		const char *op = ir_ops[a->op].name;
		if (nd->kind != NK_CALL || nd->op != a->op)
			return fail(w, a, n, "%s: expected a call of %s, found %s", where, op, desc(m, n, d1, sizeof d1));
		w->steps++;
		for (uint32_t i = 0; i < a->nkid; i++) {
			const Ast *k = a->kid[i], *v;
			int idx;
			if (k->kind != A_ATTR)
				continue;
			v = k->kid[0];
			idx = ir_op_attr_index(a->op, k->s, strlen(k->s));
			if (idx < 0)
				continue;
			if (v->kind == A_NAME) {
				const Binding *b = lookup(w, v->s);
				if (!b) {
					bind(w, v->s, n, idx);
				} else if (b->attr >= 0 &&
				           !ir_attr_equal(m, &m->attrs[m->nodes[b->n].aux + (uint32_t)b->attr],
				                          &m->attrs[nd->aux + (uint32_t)idx])) {
					return fail(w, k, n, "attribute %s of %s: expected %s's value, %s, found %s", k->s, op,
					            v->s, attrtext(m, b->n, b->attr, d1, sizeof d1),
					            attrtext(m, n, idx, d2, sizeof d2));
				}
			} else {
				char lit[256];
				AttrVal want;
				dsl_littext(v, lit, sizeof lit);
				if (!ir_attr_parse(m, lit, &want) || ir_attr_conform(m, ir_ops[a->op].attrs[idx].type, &want) ||
				    !ir_attr_equal(m, &want, &m->attrs[nd->aux + (uint32_t)idx]))
					return fail(w, k, n, "attribute %s of %s: expected %s, found %s", k->s, op, lit,
					            attrtext(m, n, idx, d2, sizeof d2));
			}
			w->steps++;
		}
		return operands(w, a, n, op);
	}
	default:
		return fail(w, a, n, "%s: a pattern part --why-not cannot follow", where);
	}
	w->steps++;
	return 1;
}

/* ---------------------------------------------------------------- guards */

/* term: the value of guard term a under w's bindings into buf, or NULL if
** a is no term whose value says something (a literal, an operator) */
static const char *
term(const Walk *w, const Ast *a, char *buf, size_t size)
{
	const Module *m = w->m;
	const Binding *b;

	if (a->kind == A_NAME) {
		const char *dot = strchr(a->s, '.');
		char base[128];
		snprintf(base, sizeof base, "%.*s", dot ? (int)(dot - a->s) : (int)strlen(a->s), a->s);
		if (!(b = lookup(w, base)))
			return NULL;
		if (dot && b->attr < 0 && m->nodes[b->n].kind == NK_CALL) {
			int k = ir_op_attr_index(m->nodes[b->n].op, dot + 1, strlen(dot + 1));
			return k < 0 ? NULL : attrtext(m, b->n, k, buf, size);
		}
		if (b->attr >= 0)
			return attrtext(m, b->n, b->attr, buf, size);
		return NULL;
	}
	if (a->kind == A_CALL && !a->op && a->nkid == 1 && a->kid[0]->kind == A_NAME &&
	    (b = lookup(w, a->kid[0]->s)) && b->attr < 0) {
		const Node *nd = &m->nodes[b->n];
		const Type *t = nd->type ? ir_type(m, nd->type) : NULL;
		if (strcmp(a->s, "dtype") == 0 && t && t->kind == TY_TENSOR)
			snprintf(buf, size, "\"%s\"", ir_dtype_names[t->dtype]);
		else if (strcmp(a->s, "rank") == 0 && t && t->kind == TY_TENSOR)
			snprintf(buf, size, "%u", t->n);
		else if (strcmp(a->s, "shape") == 0 && t && t->kind == TY_TENSOR) {
			const int64_t *dims = ir_type_dims(m, nd->type);
			size_t k = (size_t)snprintf(buf, size, "[");
			for (uint32_t i = 0; i < t->n && k < size; i++)
				k += (size_t)snprintf(buf + k, size - k, "%s%lld", i ? ", " : "", (long long)dims[i]);
			if (k < size)
				snprintf(buf + k, size - k, "]");
		}
		else if (strcmp(a->s, "numel") == 0 && nd->type)
			snprintf(buf, size, "%lld", (long long)ir_type_numel(m, nd->type));
		else if (strcmp(a->s, "is_const") == 0)
			snprintf(buf, size, "%s", nd->kind == NK_CONST ? "True" : "False");
		else if (strcmp(a->s, "uses") == 0)
			snprintf(buf, size, "%u", ir_nuses(m, b->n));
		else if (strcmp(a->s, "value") == 0 && nd->kind == NK_CONST && ir_type_numel(m, nd->type) == 1 &&
		         m->consts[nd->aux].data) {
			Tensor t1 = { (DType)t->dtype, 0, { 0 }, m->consts[nd->aux].data };
			snprintf(buf, size, "%.9g", ir_tensor_get(&t1, 0));
		} else if (strcmp(a->s, "splat") == 0 && rw_is_splat(m, b->n)) {
			/* the guard's own test (bit for bit), so the two agree */
			Tensor t1 = { (DType)t->dtype, 0, { 0 }, m->consts[nd->aux].data };
			snprintf(buf, size, "%.9g", ir_tensor_get(&t1, 0));
		} else
			return NULL;
		return buf;
	}
	return NULL;
}

/* terms: "TERM is VALUE" for each term of guard a, once each, into out */
static void
terms(const Walk *w, const Ast *a, FILE *out, char **seen, int *n)
{
	char v[320], t[160];

	if (!a)
		return;
	if ((a->kind == A_NAME || a->kind == A_CALL) && term(w, a, v, sizeof v)) {
		if (a->kind == A_NAME)
			snprintf(t, sizeof t, "%s", a->s);
		else
			snprintf(t, sizeof t, "%s(%s)", a->s, a->kid[0]->s);
		for (int i = 0; i < *n; i++)
			if (strcmp(seen[i], t) == 0)
				return;
		if (*n < 64) {
			size_t k = strlen(t) + 1;
			seen[(*n)++] = memcpy(ir_xmalloc(k), t, k);
		}
		fprintf(out, "  %s is %s\n", t, v);
		return;
	}
	for (uint32_t i = 0; i < a->nkid; i++)
		terms(w, a->kid[i], out, seen, n);
}

/* leftmost: where expression a starts */
static Loc
leftmost(const Ast *a)
{
	while ((a->kind == A_BINOP || a->kind == A_INDEX) && a->nkid)
		a = a->kid[0];
	return a->loc;
}

/* ---------------------------------------------------------------- driver */

/* What the interpreter's trace saw at one node. */
typedef struct Seen {
	uint32_t rule;          /* the rule explained */
	int what;               /* IT_* for it, or -1: not reached */
} Seen;

static void
traced(void *ctx, uint32_t rule, uint32_t variant, int what)
{
	Seen *s = ctx;

	(void)variant;
	if (rule == s->rule && s->what != IT_MATCH)
		s->what = what;
}

static void
noreport(Rw *rw, uint32_t rule, const NodeId *nodes, uint32_t n, int ok)
{
	(void)rw, (void)rule, (void)nodes, (void)n, (void)ok;
}

/* findrule: the rule of r called name or at FILE:LINE, or NULL */
static const Rule *
findrule(const Rules *r, const char *name)
{
	const char *colon = strrchr(name, ':');

	for (uint32_t i = 0; i < r->nrules; i++)
		if (strcmp(r->rules[i].name, name) == 0)
			return &r->rules[i];
	if (colon && colon[1]) {
		char *end;
		unsigned long line = strtoul(colon + 1, &end, 10);
		size_t flen = (size_t)(colon - name);
		for (uint32_t i = 0; i < r->nrules && !*end; i++) {
			const char *f = r->m->files[r->rules[i].loc.file];
			size_t n = strlen(f);
			if (r->rules[i].loc.line == line && n >= flen && strncmp(f + n - flen, name, flen) == 0 &&
			    (n == flen || f[n - flen - 1] == '/'))
				return &r->rules[i];
		}
	}
	return NULL;
}

int
whynot_has(const Ruleset *rs, const char *name)
{
	const char *colon = strrchr(name, ':');

	for (uint32_t i = 0; i < rs->nrules; i++) {
		const RuleInfo *ri = &rs->rules[i];
		if (strcmp(ri->name, name) == 0)
			return 1;
		if (colon && ri->file) {
			size_t flen = (size_t)(colon - name), n = strlen(ri->file);
			if (strtoul(colon + 1, NULL, 10) == ri->line && n >= flen &&
			    strncmp(ri->file + n - flen, name, flen) == 0 && (n == flen || ri->file[n - flen - 1] == '/'))
				return 1;
		}
	}
	return 0;
}

/* rootop: whether node n is where variant v's pattern is rooted */
static int
rooted(const Module *m, const Ast *a, NodeId n)
{
	a = dsl_root(a);
	if (a->kind == A_CALL)
		return m->nodes[n].kind == NK_CALL && m->nodes[n].op == a->op;
	if (a->kind == A_TUPLE)
		return m->nodes[n].kind == NK_TUPLE;
	if (a->kind == A_GETITEM)
		return m->nodes[n].kind == NK_GETITEM;
	if (a->kind == A_CALLFN)
		return m->nodes[n].kind == NK_CALLFN;
	if (a->kind == A_ANYCALL)
		return m->nodes[n].kind == NK_CALL;
	return 0;
}

int
whynot(Module *m, Diag *dm, const WhyNot *wn)
{
	const Ruleset *rs = interp_load(wn->rules, wn->errs);
	const Rules *r;
	const Rule *ru;
	FILE *saved = dm->out, *rsaved;
	uint32_t nodes = 0, matched = 0, fires = 0;
	NodeId *cand;
	uint32_t ncand = 0;

	if (!rs)
		return 1;
	r = interp_rules(rs);
	if (!(ru = findrule(r, wn->name))) {
		fprintf(wn->errs, "graft: error: --why-not: %s has no rule or entry called %s\n", wn->rules, wn->name);
		interp_free(rs);
		return 1;
	}
	dm->out = wn->out;
	rsaved = r->d->out;
	r->d->out = wn->out;
	cand = ir_xcalloc(m->nnodes + 1, sizeof *cand);
	for (NodeId n = 1; n < m->nnodes; n++) {
		int root = 0;
		if (m->nodes[n].kind == NK_DEAD)
			continue;
		for (uint32_t v = 0; v < ru->nvariants && !root; v++)
			root = rooted(m, ru->variants[v].pat, n);
		if (!root || (wn->atline && (m->locs[n].line != wn->atline || (wn->atcol && m->locs[n].col != wn->atcol))))
			continue;
		cand[ncand++] = n;
	}
	fprintf(wn->out, "%s %s (%s:%u): %u node%s where it could match%s\n",
	        ru->kind == RK_RULE ? "rule" : ru->kind == RK_COMPOSITE ? "composite" : "supports", ru->name,
	        r->m->files[ru->loc.file], ru->loc.line, ncand, ncand == 1 ? "" : "s",
	        wn->atline ? " at the place given" : "");
	for (uint32_t c = 0; c < ncand; c++) {
		NodeId n = cand[c];
		Walk best, w;
		int found = 0;
		nodes++;
		memset(&best, 0, sizeof best);
		for (uint32_t v = 0; v < ru->nvariants; v++) {
			memset(&w, 0, sizeof w);
			w.m = m;
			if (!rooted(m, ru->variants[v].pat, n))
				continue;
			pm(&w, ru->variants[v].pat, n, "the root");
			if (!found || (!w.failed && best.failed) || (w.failed == best.failed && w.steps > best.steps))
				best = w;
			found = 1;
		}
		fputc('\n', wn->out);
		if (best.failed) {
			char d1[320];
			if (best.node != n) {
				ir_note(dm, m->locs[n], "%s does not match at this %s", ru->name, what(m, n, d1, sizeof d1));
				ir_note(dm, m->locs[best.node], "matching stopped here: %s", best.why);
			} else {
				ir_note(dm, m->locs[n], "%s does not match here: %s", ru->name, best.why);
			}
			ir_note(r->d, best.at->loc, "at this part of the pattern");
			continue;
		}
		/* the pattern matches: the guard, and what the matcher does here */
		{
			Seen seen = { ru->order, -1 };
			Rw rw;
			int domwhy = RD_NONE;
			NodeId domat = 0, domother = 0;
			uint32_t fired = UINT32_MAX;
			NodeId got;
			int nt = 0;
			interp_trace(rs, traced, &seen);
			ir_rw_init(&rw, m, rs, dm);
			rw.dry = 1;        /* matching alone: results are not built */
			rw.root = n;
			if (ru->kind != RK_RULE)
				rw.report = noreport;
			got = rs->match(&rw, n, &fired);
			ir_rw_free(&rw);
			interp_trace(rs, NULL, NULL);
			if (seen.what == -1 && ru->nvariants && ru->variants[0].pat->kind == A_DOM) {
				/* the child matches: why the search above it found no region */
				uint32_t f2;
				ir_rw_init(&rw, m, rs, dm);
				rw.dry = 1;
				rw.root = n;
				if (ru->kind != RK_RULE)
					rw.report = noreport;
				interp_only(rs, ru->order);
				rs->match(&rw, n, &f2);
				interp_only(rs, -1);
				domwhy = rw.domwhy;
				domat = rw.domat;
				domother = rw.domother;
				ir_rw_free(&rw);
			}
			if (seen.what == IT_GUARD) {
				char d1[320];
				ir_note(dm, m->locs[n], "%s's pattern matches at this %s, but its guard is false", ru->name,
				        what(m, n, d1, sizeof d1));
				ir_note(r->d, ru->guard ? leftmost(ru->guard) : ru->loc, "the guard");
				{
					char *said[64];
					fprintf(wn->out, "the guard's terms here:\n");
					terms(&best, ru->guard, wn->out, said, &nt);
					if (!nt)
						fprintf(wn->out, "  (none with a value of the model)\n");
					for (int i = 0; i < nt && i < 64; i++)
						free(said[i]);
				}
			} else if (seen.what == IT_RESULT) {
				ir_note(dm, m->locs[n], "%s matches here, but its result cannot be built (a fold_const that "
				        "is not exact, or a value out of its dtype's range)", ru->name);
			} else if (seen.what == IT_MATCH) {
				matched++;
				fires += ru->kind == RK_RULE;
				ir_note(dm, m->locs[n], "%s matches here%s", ru->name,
				        ru->kind == RK_RULE ? " and fires" : "");
			} else if (ru->kind == RK_RULE && got && fired < rs->nrules) {
				matched++;
				ir_note(dm, m->locs[n], "%s matches here, but %s (%s:%u) is tried first and fires", ru->name,
				        rs->rules[fired].name, rs->rules[fired].file, rs->rules[fired].line);
			} else if (domwhy != RD_NONE) {
				char d1[320], d2[320];
				const Ast *dom = ru->variants[0].pat;
				ir_note(dm, m->locs[n], "%s's child, %s, matches here, but no region above it is dominated "
				        "as it asks", ru->name, what(m, n, d1, sizeof d1));
				if (domwhy == RD_TWO) {
					ir_note(dm, m->locs[domat], "this %s matches the parent, %s", what(m, domat, d1, sizeof d1),
					        printed(dom->kid[3], d2, sizeof d2));
					ir_note(dm, m->locs[domother], "and so does this %s: a dominator has one parent",
					        what(m, domother, d1, sizeof d1));
				} else if (domwhy == RD_OFFPATH) {
					char d3[320];
					ir_note(dm, m->locs[domat], "%s, on the way up, matches neither the parent, %s, nor the "
					        "path, %s", desc(m, domat, d1, sizeof d1), printed(dom->kid[3], d2, sizeof d2),
					        printed(dom->kid[1], d3, sizeof d3));
				} else if (domwhy == RD_ESCAPE) {
					ir_note(dm, m->locs[domat], "this %s, inside the region, is also used outside it",
					        what(m, domat, d1, sizeof d1));
					ir_note(dm, m->locs[domother], "by this %s: the child does not post-dominate the region",
					        what(m, domother, d1, sizeof d1));
				} else {
					ir_note(dm, m->locs[n], "no node above it matches the parent, %s",
					        printed(dom->kid[3], d2, sizeof d2));
				}
			} else {
				ir_note(dm, m->locs[n], "%s's pattern matches here, but the matcher did not reach it", ru->name);
			}
		}
	}
	fprintf(wn->out, "\n%s: %u of %u node%s matched\n", ru->name, matched, nodes, nodes == 1 ? "" : "s");
	if (ru->kind == RK_RULE && !wn->atline) {
		/* what the nodes above say is the model as NAME's ruleset finds
		   it; the other rules of the ruleset rewrite it too, into NAME's
		   pattern or out of it: run the ruleset, and count */
		RwStats st;
		uint64_t k;
		int bad;
		memset(&st, 0, sizeof st);
		dm->out = wn->errs;
		bad = ir_rewrite(m, rs, dm, &st);
		dm->out = wn->out;
		k = st.fired ? st.fired[ru->order] : 0;
		if (bad) {
			fprintf(wn->out, "\n%s stops at an error when run to its fixed point (on standard error), "
			        "so how often %s fires there is not known\n", rs->name, ru->name);
		} else if (k != fires) {
			fprintf(wn->out, "\nbut while %s runs to its fixed point, %s fires %llu time%s", rs->name, ru->name,
			        (unsigned long long)k, k == 1 ? "" : "s");
			if (k > fires)
				fprintf(wn->out, ": other rules of %s rewrite %llu more node%s into its pattern first\n",
				        rs->name, (unsigned long long)(k - fires), k - fires == 1 ? "" : "s");
			else
				fprintf(wn->out, ": other rules of %s rewrite %llu of the nodes above first\n", rs->name,
				        (unsigned long long)(fires - k));
		}
		free(st.fired);
	}
	if (ru->kind == RK_COMPOSITE && matched) {
		/* a composite that matches can still lose: partition, and say
		   where it did */
		const Ruleset *targets[1] = { rs };
		Partitioner p;
		uint32_t lost = 0;
		char want[256];
		snprintf(want, sizeof want, "%s.%s", rs->name, ru->name);
		memset(&p, 0, sizeof p);
		p.m = m;
		p.d = dm;
		p.targets = targets;
		p.ntargets = 1;
		p.stop = PS_ALL;
		p.explain = 1;
		if (ir_partition(&p) == 0)
			for (uint32_t i = 0; i < p.nwhy; i++) {
				const Why *y = &p.why[i];
				if (y->kind == WHY_CYCLE) {
					NodeId c = ofcomposite(m, y->node, want) ? y->node :
					           ofcomposite(m, y->other, want) ? y->other :
					           ofcomposite(m, y->via, want) ? y->via : 0;
					char b1[240], b2[240], b3[240];
					if (!c)
						continue;
					if (!lost++)
						fputc('\n', wn->out);
					ir_note(dm, m->locs[c], "%s matched here and is offloaded, but a region boundary "
					        "falls next to it: %s was kept out of the region of %s, because merging them would make a "
					        "cycle through %s", ru->name, nodename(m, y->node, b1, sizeof b1),
					        nodename(m, y->other, b2, sizeof b2), nodename(m, y->via, b3, sizeof b3));
					continue;
				}
				if (y->rule != ru->order || (y->kind != WHY_OVERLAP && y->kind != WHY_ESCAPE))
					continue;
				if (!lost++)
					fputc('\n', wn->out);
				if (y->kind == WHY_OVERLAP)
					ir_note(dm, m->locs[y->node], "%s matched here but lost: its match overlaps one of %s, "
					        "taken first (at %s:%u:%u)", ru->name, rs->rules[y->rule2].name,
					        m->files[m->locs[y->other].file], m->locs[y->other].line, m->locs[y->other].col);
				else
					ir_note(dm, m->locs[y->node], "%s matched here but lost: a value inside its match is used "
					        "outside it (at %s:%u:%u)", ru->name, m->files[m->locs[y->other].file],
					        m->locs[y->other].line, m->locs[y->other].col);
			}
		ir_partition_free(&p);
	}
	free(cand);
	dm->out = saved;
	r->d->out = rsaved;
	interp_free(rs);
	return 0;
}
