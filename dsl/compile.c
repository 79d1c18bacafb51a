/*
** compile.c: rules -> decision trees.
**
** Every variant of every rule becomes a row: a sequence of steps along
** operand paths, loads (`v_0_1` is operand 1 of operand 0 of the root
** `v`) and tests (op, node kind, operand count, tuple index, attribute,
** type, the same node twice), ending in a leaf that runs the guard and
** builds the result.  The rows rooted at one op, in priority order, make
** one decision tree (build()):
**
**  - the tree asks the first test still pending in the first row (the
**    highest-priority variant that can still match), loading first the
**    variables that test needs;
**  - where the test holds, every row that asks the same test has it
**    answered and every row whose test on that variable cannot then hold
**    (another op, node kind, operand count, field or attribute value) is
**    gone; where it fails, every row that asks it is gone; rows that do
**    not ask it go both ways;
**  - a first row with nothing pending is a leaf: its guard and result are
**    tried, and the rest of the rows follow it.
** So every test is evaluated at most once on any path, tests are shared by
** all the rows that ask them (not only neighbours), and leaves are reached
** in exactly their priority order.  Rows that ignore a test are copied
** into both of its branches; MAXNODES bounds what that may cost.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile.h"

/* Limits that keep the decision trees, and the code made of them, linear
** in the size of the rules:
**   MAXSTEPS      steps of one variant: a path of a decision tree is one
**                 variant's steps, and dsl/emit.c recurses along paths
**                 and nests one C block per test, so this bounds both its
**                 stack and the nesting of the generated code (a pattern's
**                 depth is bounded by dsl_check, its width only here: a
**                 tuple of 100000 fields is 200000 steps)
**   MAXRULESTEPS  steps of all the variants of one rule (1024 variants of
**                 a 1000-level pattern would be a million)
**   MAXNAME       characters of a variable named by its path; deeper
**                 paths get aliases (see child())
**   MAXNODES      nodes of one root op's decision tree, per step of its
**                 rows (rows that ignore a test go both ways, which can
**                 multiply the tree; this stops a pathological file) */
enum { MAXSTEPS = 10000, MAXRULESTEPS = 100000, MAXNAME = 40, MAXNODES = 64 };

/* Names are kept in maps (dsl.h): compiling stays linear in the size of
** a rule however many names it binds. */
typedef struct Build {
	Rules *r;
	Rule *rule;
	Variant *var;
	NameMap used;           /* names the guard and result use */
	NameMap read;           /* ... and read (not only ask present() of) */
	NameMap repeats;        /* names the variant uses more than once */
	NameMap seen;           /* names the variant uses */
	Step *steps;
	uint32_t nsteps, capsteps;
	Bind *binds;
	uint32_t nbinds, capbinds;
	NameMap bound;          /* name -> its first bind in binds */
	NameMap alias;          /* long operand path -> its alias number */
	uint32_t naliases;
	const char **inner;     /* target tables: what the variant outlines */
	uint32_t ninner, capinner;
} Build;

/* ---------------------------------------------------------------- names */

/* isneeded: 1 if name must be bound: used by the guard or result, or
** repeated in the pattern (an equality test) */
static int
isneeded(const Build *b, const char *name)
{
	return dsl_map_get(&b->used, name) != UINT32_MAX || dsl_map_get(&b->repeats, name) != UINT32_MAX;
}

/* uses: the names an expression refers to, into b->used; those it reads
** (all but present(x)'s: whether x is bound is known statically) into
** b->read as well */
static void
uses(Build *b, const Ast *a, int reads)
{
	if (!a)
		return;
	if ((a->kind == A_NAME || a->kind == A_ATTRS || a->kind == A_REST) && a->s) {
		const char *dot = strchr(a->s, '.');
		const char *name = dot ? dsl_strdup(b->r, a->s, (size_t)(dot - a->s)) : a->s;
		dsl_map_put(&b->used, name, 0);
		if (reads)
			dsl_map_put(&b->read, name, 0);
	}
	if (a->kind == A_CALL && !a->op && a->s && strcmp(a->s, "present") == 0)
		reads = 0;
	for (uint32_t i = 0; i < a->nkid; i++)
		uses(b, a->kid[i], reads);
}

/* counts: names a pattern uses more than once are needed (equality tests) */
static void
counts(Build *b, const Ast *a)
{
	const char *name = NULL;

	if (a->kind == A_NAME || a->kind == A_BIND)
		name = a->s;
	else if (a->kind == A_ATTR && a->kid[0]->kind == A_NAME)
		name = a->kid[0]->s;
	if (name) {
		if (dsl_map_get(&b->seen, name) != UINT32_MAX)
			dsl_map_put(&b->repeats, name, 0);
		else
			dsl_map_put(&b->seen, name, 0);
	}
	if (a->kind == A_ATTR)
		return;
	for (uint32_t i = 0; i < a->nkid; i++)
		if (a->kid[i] && !(a->kind == A_TYPED && i == 1))
			counts(b, a->kid[i]);
}

/* ---------------------------------------------------------------- steps */

static Step *
step(Build *b, StepKind k, const char *v)
{
	Step *s;

	ir_vgrow(&b->steps, &b->capsteps, b->nsteps + 1);
	s = &b->steps[b->nsteps++];
	memset(s, 0, sizeof *s);
	s->kind = (uint8_t)k;
	s->v = v;
	return s;
}

static const Bind *
findbind(const Build *b, const char *name)
{
	uint32_t i = dsl_map_get(&b->bound, name);
	return i == UINT32_MAX ? NULL : &b->binds[i];
}

static void
bind(Build *b, const char *name, int kind, const char *var, int attr, uint32_t start, const Ast *at)
{
	Bind *x;

	ir_vgrow(&b->binds, &b->capbinds, b->nbinds + 1);
	if (dsl_map_get(&b->bound, name) == UINT32_MAX)
		dsl_map_put(&b->bound, name, b->nbinds);
	x = &b->binds[b->nbinds++];
	memset(x, 0, sizeof *x);
	x->name = name;
	x->kind = kind;
	x->var = var;
	x->attr = attr;
	x->start = start;
	x->at = at;
	x->used = dsl_map_get(&b->read, name) != UINT32_MAX;
	while (at && (at->kind == A_TYPED || at->kind == A_BIND))
		at = at->kid[0];
	if (at && at->kind == A_CALL)
		x->op = at->op;
}

/* child: the variable of operand i of the node in v: named by its path of
** operands from the root (v_0_1), or, when that would be longer than
** MAXNAME, by an alias (w7) of the path, the same in every variant and
** rule.  Each path has its own variable, and names stay short: a path 1000
** operands deep would take 2000 characters at each of its 1000 steps. */
static const char *
child(Build *b, const char *v, uint32_t i)
{
	char buf[MAXNAME + 32];     /* v is MAXNAME characters at most */
	uint32_t k;

	snprintf(buf, sizeof buf, "%s_%u", v, i);
	if (strlen(buf) > MAXNAME) {
		if ((k = dsl_map_get(&b->alias, buf)) == UINT32_MAX) {
			k = b->naliases++;
			dsl_map_put(&b->alias, dsl_strdup(b->r, buf, strlen(buf)), k);
		}
		snprintf(buf, sizeof buf, "w%u", k);
	}
	return dsl_strdup(b->r, buf, strlen(buf));
}

/* fmt1: fmt with one string, in the arena (names stay short: v is a
** variable's) */
static const char *
fmt1(Build *b, const char *f, const char *v)
{
	char buf[MAXNAME + 64];
	snprintf(buf, sizeof buf, f, v);
	return dsl_strdup(b->r, buf, strlen(buf));
}

/* fmt2: fmt with one unsigned, in the arena */
static const char *
fmt2(Build *b, const char *f, unsigned u)
{
	char buf[64];
	snprintf(buf, sizeof buf, f, u);
	return dsl_strdup(b->r, buf, strlen(buf));
}

/* needsvar: 1 if pattern a at some path must be loaded into a variable */
static int
needsvar(const Build *b, const Ast *a)
{
	if (a->kind == A_ANY || a->kind == A_REST)
		return 0;
	if (a->kind == A_NAME)
		return isneeded(b, a->s);
	return 1;
}

/* namenode: bind a node name at v, or test it against its first binding */
static void
namenode(Build *b, const char *name, const char *v, const Ast *at)
{
	const Bind *old = findbind(b, name);

	if (old) {
		Step *s = step(b, S_SAME, v);
		s->v2 = old->var;
	} else {
		bind(b, name, 0, v, 0, 0, at);
	}
}

static int
attrcmp(const void *x, const void *y)
{
	const Step *a = x, *b = y;
	return a->k - b->k;
}

static void walk(Build *b, const Ast *a, const char *v, int root);

/* inner: in a target table, the node in v is part of what a match outlines */
static void
inner(Build *b, const char *v)
{
	if (b->rule->kind == RK_RULE)
		return;
	ir_vgrow(&b->inner, &b->capinner, b->ninner + 1);
	b->inner[b->ninner++] = v;
}

/* operand: load operand k of v (k < 0: counted from the end) into cv, and
** walk pattern p there, when p needs its node */
static void
operand(Build *b, const char *v, int k, const char *cv, const Ast *p)
{
	Step *s;

	if (!needsvar(b, p))
		return;
	s = step(b, S_LOAD, cv);
	s->v2 = v;
	s->k = k;
	walk(b, p, cv, 0);
}

/* args: load and walk a call's or tuple's operands from index 0; in a
** tuple, the fields after a rest count from the end */
static void
args(Build *b, const Ast *a, const char *v)
{
	uint32_t pos = 0;

	for (uint32_t i = 0; i < a->nkid; i++) {
		const Ast *k = a->kid[i];
		if (k->kind == A_ATTR)
			continue;
		if (k->kind == A_REST) {
			uint32_t after = 0;
			for (uint32_t j = i + 1; j < a->nkid; j++)
				after += a->kid[j]->kind != A_ATTR;
			if (k->s && isneeded(b, k->s)) {
				bind(b, k->s, 2, v, 0, pos, k);
				b->binds[b->nbinds - 1].end = after;
			}
			for (uint32_t j = i + 1; j < a->nkid; j++) {
				if (a->kid[j]->kind == A_ATTR)
					continue;
				operand(b, v, -(int)after, fmt2(b, fmt1(b, "%s_e%%u", v), after), a->kid[j]);
				after--;
			}
			break;
		}
		operand(b, v, (int)pos, child(b, v, pos), k);
		pos++;
	}
}

/* callshape: the steps that say the node in v is of kind (a call of any
** op or of a function, a tuple) with a's operands: at least those but a
** `...` */
static void
callshape(Build *b, const Ast *a, const char *v, int root, int kind)
{
	uint32_t n = 0;
	int rest = 0;
	Step *s;

	for (uint32_t i = 0; i < a->nkid; i++)
		if (a->kid[i]->kind == A_REST)
			rest = 1;
		else if (a->kid[i]->kind != A_ATTR)
			n++;
	if (!root)
		step(b, S_KIND, v)->k = kind;
	inner(b, v);
	if (n || !rest) {       /* "at least 0 operands" asks nothing */
		s = step(b, S_NARGS, v);
		s->n = n;
		s->atleast = (uint8_t)rest;
	}
}

/* walk: the steps that match pattern a against the node in variable v */
static void
walk(Build *b, const Ast *a, const char *v, int root)
{
	switch (a->kind) {
	case A_ANY:
	case A_REST:
		return;
	case A_NAME:
		if (isneeded(b, a->s))
			namenode(b, a->s, v, a);
		return;
	case A_BIND:
		if (isneeded(b, a->s))
			namenode(b, a->s, v, a->kid[0]);
		walk(b, a->kid[0], v, root);
		return;
	case A_CONST:
		step(b, S_KIND, v)->k = NK_CONST;
		inner(b, v);
		if (a->nkid)
			step(b, S_CVALUE, v)->lit = a->kid[0];
		return;
	case A_VAR:
		step(b, S_KIND, v)->k = NK_VAR;
		if (a->s)
			step(b, S_VARNAME, v)->lit = a;
		return;
	case A_TYPED: {
		Step *s;
		walk(b, a->kid[0], v, root);
		s = step(b, S_TYPE, v);
		s->lit = a;
		return;
	}
	case A_DOM: {
		/* the child as the root; the parent and path are searched for
		   at the leaf (rw_dominator), whose captures bind the parent's
		   names as dom[k] */
		NameMap caps = { 0 };
		DomPat dp = { 0 };
		walk(b, a->kid[2], v, root);
		dsl_rwpat(b->r, a->kid[3], &dp, &caps);
		for (uint32_t i = 0; i < caps.cap; i++) {
			const char *name;
			if (!caps.key || !(name = caps.key[i]))
				continue;
			if (findbind(b, name)) {
				ir_error(b->r->d, a->loc, "'%s' is bound in the child of dominates() and in its parent: "
				         "name them apart and compare them in a guard", name);
				continue;
			}
			if (isneeded(b, name))
				bind(b, name, 0, fmt2(b, "dom[%u]", caps.val[i]), 0, 0, NULL);
		}
		dsl_map_free(&caps);
		free(dp.v);
		free(dp.lits);
		return;
	}
	case A_FN: {
		/* fn(x, _, ..., K="V") { B }: the parameters by position, the
		   body as the last operand */
		uint32_t n = 0, pos = 0;
		int rest = 0;
		const Ast *body = a->kid[a->nkid - 1];
		for (uint32_t i = 0; i + 1 < a->nkid; i++)
			if (a->kid[i]->kind == A_REST)
				rest = 1;
			else if (a->kid[i]->kind != A_ATTR)
				n++;
		if (!root)
			step(b, S_KIND, v)->k = NK_FUNC;
		inner(b, v);    /* a composite takes the function literal whole */
		{
			Step *s = step(b, S_NARGS, v);
			s->n = n + 1;
			s->atleast = (uint8_t)rest;
		}
		for (uint32_t i = 0; i + 1 < a->nkid; i++)
			if (a->kid[i]->kind == A_ATTR)
				step(b, S_FATTR, v)->lit = a->kid[i];
		for (uint32_t i = 0; i + 1 < a->nkid; i++) {
			const Ast *k = a->kid[i];
			if (k->kind == A_ATTR || k->kind == A_REST)
				continue;
			operand(b, v, (int)pos, child(b, v, pos), k);
			pos++;
		}
		operand(b, v, -1, fmt1(b, "%s_body", v), body);
		return;
	}
	case A_REC:
		/* a recursive pattern: its node is matched as data */
		step(b, S_RPAT, v)->lit = a;
		return;
	case A_CALLFN:
		callshape(b, a, v, root, NK_CALLFN);
		/* K="V": the call's own attributes, tested as a function's are */
		for (uint32_t i = 0; i < a->nkid; i++)
			if (a->kid[i]->kind == A_ATTR)
				step(b, S_FATTR, v)->lit = a->kid[i];
		args(b, a, v);
		return;
	case A_GLOBAL:
		step(b, S_KIND, v)->k = NK_GLOBAL;
		step(b, S_VARNAME, v)->lit = a;
		return;
	case A_ANYCALL: {
		callshape(b, a, v, root, NK_CALL);
		if (a->i >= 0)
			step(b, S_OPKIND, v)->n = a->i;
		args(b, a, v);
		return;
	}
	case A_GETITEM: {
		const char *cv = child(b, v, 0);
		Step *s;
		if (!root)
			step(b, S_KIND, v)->k = NK_GETITEM;
		inner(b, v);
		if (a->i >= 0) {        /* P._: any field */
			s = step(b, S_INDEX, v);
			s->n = a->i;
		}
		if (needsvar(b, a->kid[0])) {
			s = step(b, S_LOAD, cv);
			s->v2 = v;
			walk(b, a->kid[0], cv, 0);
		}
		return;
	}
	case A_TUPLE:
		callshape(b, a, v, root, NK_TUPLE);
		args(b, a, v);
		return;
	case A_CALL: {
		uint32_t first;
		if (!root)
			step(b, S_OP, v)->n = a->op;
		inner(b, v);
		/* attribute tests in schema order, so that rules share them */
		first = b->nsteps;
		for (uint32_t i = 0; i < a->nkid; i++) {
			const Ast *k = a->kid[i];
			Step *s;
			if (k->kind != A_ATTR || k->kid[0]->kind == A_NAME)
				continue;
			s = step(b, S_ATTR, v);
			s->k = ir_op_attr_index(a->op, k->s, strlen(k->s));
			s->lit = k->kid[0];
			s->op = a->op;
		}
		if (b->nsteps - first > 1)
			qsort(b->steps + first, b->nsteps - first, sizeof *b->steps, attrcmp);
		for (uint32_t i = 0; i < a->nkid; i++) {
			const Ast *k = a->kid[i];
			int idx;
			const Bind *old;
			if (k->kind != A_ATTR || k->kid[0]->kind != A_NAME || !isneeded(b, k->kid[0]->s))
				continue;
			idx = ir_op_attr_index(a->op, k->s, strlen(k->s));
			if ((old = findbind(b, k->kid[0]->s))) {
				Step *s = step(b, S_ATTREQ, v);
				s->k = idx;
				s->v2 = old->var;
				s->k2 = old->attr;
			} else {
				bind(b, k->kid[0]->s, 1, v, idx, 0, a);
			}
		}
		args(b, a, v);
		return;
	}
	default:
		ir_die("walk: pattern kind %d", a->kind);
	}
}

/* ---------------------------------------------------------------- dominators */

static RwPat *
dpadd(DomPat *d, int kind, const Ast *lit)
{
	RwPat *p;
	ir_vgrow(&d->v, &d->cap, d->n + 1);
	d->lits = ir_xrealloc(d->lits, d->cap * sizeof *d->lits);
	p = &d->v[d->n];
	memset(p, 0, sizeof *p);
	p->kind = (uint8_t)kind;
	p->size = 1;
	d->lits[d->n++] = lit;
	return p;
}

/* rwpat: a into d from entry d->n; returns that entry's index */
static uint32_t
rwpat(const Ast *a, DomPat *d, NameMap *caps)
{
	uint32_t at = d->n;

	switch (a->kind) {
	case A_ANY: dpadd(d, RP_ANY, NULL); break;
	case A_CONST: dpadd(d, RP_CONST, a->nkid ? a->kid[0] : NULL); break;
	case A_VAR: dpadd(d, RP_VAR, NULL); break;
	case A_NAME:
	case A_BIND: {
		uint32_t k = dsl_map_get(caps, a->s);
		if (k == UINT32_MAX) {
			k = caps->n;
			dsl_map_put(caps, a->s, k);
		}
		dpadd(d, RP_NAME, NULL)->a = (int32_t)k;
		if (a->kind == A_BIND) {
			d->v[at].n = 1;
			rwpat(a->kid[0], d, caps);
		}
		break;
	}
	case A_TYPED:
		dpadd(d, RP_TYPED, NULL)->a = a->dtype;
		rwpat(a->kid[0], d, caps);
		break;
	case A_GETITEM:
		dpadd(d, RP_GETITEM, NULL)->a = (int32_t)a->i;
		rwpat(a->kid[0], d, caps);
		break;
	case A_ALT:
		dpadd(d, RP_ALT, NULL)->n = (uint16_t)a->nkid;
		for (uint32_t i = 0; i < a->nkid; i++)
			rwpat(a->kid[i], d, caps);
		break;
	case A_REC: {
		/* its body, here; each A_RREF to it goes back to this entry */
		int pushed = d->nrec < sizeof d->rec / sizeof d->rec[0];
		if (pushed) {
			d->rec[d->nrec] = a->s;
			d->recat[d->nrec++] = at;
		}
		rwpat(a->kid[0], d, caps);
		d->nrec -= (uint32_t)pushed;
		return at;
	}
	case A_RREF: {
		uint32_t k = d->nrec;
		while (k > 0 && strcmp(d->rec[k - 1], a->s) != 0)
			k--;
		if (k)
			dpadd(d, RP_REF, NULL)->a = (int32_t)d->recat[k - 1] - (int32_t)at;
		else
			dpadd(d, RP_ANY, NULL);         /* dsl_check let none through */
		break;
	}
	case A_CALL:
	case A_ANYCALL:
	case A_TUPLE: {
		uint32_t n = 0, na = 0;
		RwPat *p = dpadd(d, a->kind == A_CALL ? RP_CALL : a->kind == A_ANYCALL ? RP_ANYCALL : RP_TUPLE, NULL);
		p->a = a->kind == A_CALL ? (int32_t)a->op : a->kind == A_ANYCALL ? (int32_t)a->i : 0;
		if (a->kind == A_CALL && (ir_ops[a->op].flags & OPF_COMM) && !(ir_ops[a->op].flags & OPF_QNN))
			p->flags |= RPF_COMM;
		for (uint32_t i = 0; i < a->nkid; i++) {
			const Ast *k = a->kid[i];
			if (k->kind == A_ATTR && k->kid[0]->kind != A_NAME) {
				dpadd(d, RP_ATTR, k->kid[0])->a = ir_op_attr_index(a->op, k->s, strlen(k->s));
				na++;
			}
		}
		for (uint32_t i = 0; i < a->nkid; i++) {
			const Ast *k = a->kid[i];
			if (k->kind == A_ATTR)
				continue;
			if (k->kind == A_REST) {
				d->v[at].flags |= RPF_REST;
				break;
			}
			rwpat(k, d, caps);
			n++;
		}
		d->v[at].nattr = (uint8_t)na;
		d->v[at].n = (uint16_t)n;
		break;
	}
	default:
		dpadd(d, RP_ANY, NULL);
		break;
	}
	d->v[at].size = d->n - at;
	return at;
}

void
dsl_rwpat(Rules *r, const Ast *a, DomPat *out, NameMap *caps)
{
	(void)r;
	rwpat(a, out, caps);
}

uint32_t
dsl_domparts(Rules *r, const Ast *dom, DomPat *parent, DomPat *path)
{
	NameMap caps = { 0 }, none = { 0 };
	uint32_t n;

	memset(parent, 0, sizeof *parent);
	memset(path, 0, sizeof *path);
	dsl_rwpat(r, dom->kid[3], parent, &caps);
	dsl_rwpat(r, dom->kid[1], path, &none);
	n = caps.n;
	dsl_map_free(&caps);
	dsl_map_free(&none);
	return n;
}

void
dsl_domfree(DomPat *parent, DomPat *path)
{
	free(parent->v);
	free(parent->lits);
	free(path->v);
	free(path->lits);
}

/* ---------------------------------------------------------------- trie */

static int
samelit(const Ast *a, const Ast *b)
{
	if (a == b)
		return 1;
	if (!a || !b || a->kind != b->kind || a->nkid != b->nkid)
		return 0;
	switch (a->kind) {
	case A_INT: case A_BOOL: return a->i == b->i;
	case A_FLOAT: return a->f == b->f;
	case A_STR: return strcmp(a->s, b->s) == 0;
	case A_ANY: case A_NONE: return 1;
	case A_VAR: case A_GLOBAL: return a->s && b->s && strcmp(a->s, b->s) == 0;
	case A_REC: return strcmp(a->s, b->s) == 0;    /* one named pattern's data */
	case A_ATTR: return strcmp(a->s, b->s) == 0 && samelit(a->kid[0], b->kid[0]);
	case A_TYPED: return a->dtype == b->dtype && samelit(a->kid[1], b->kid[1]);
	case A_LIST:
		for (uint32_t i = 0; i < a->nkid; i++)
			if (!samelit(a->kid[i], b->kid[i]))
				return 0;
		return 1;
	default: return 0;
	}
}

static int
samestep(const Step *a, const Step *b)
{
	return a->kind == b->kind && a->k == b->k && a->k2 == b->k2 && a->n == b->n &&
	       a->atleast == b->atleast && strcmp(a->v, b->v) == 0 &&
	       ((!a->v2 && !b->v2) || (a->v2 && b->v2 && strcmp(a->v2, b->v2) == 0)) &&
	       samelit(a->lit, b->lit);
}

/* conflicts: 1 if tests a and b, both of one variable, cannot both hold:
** another op, node kind, exact operand count, field, or literal value of
** one integer, bool or string attribute */
static int
conflicts(const Step *a, const Step *b)
{
	if (strcmp(a->v, b->v) != 0)
		return 0;
	if (a->kind == S_OP && b->kind == S_OP)
		return a->n != b->n;
	if ((a->kind == S_OP && b->kind == S_KIND) || (a->kind == S_KIND && b->kind == S_OP))
		return (a->kind == S_KIND ? a->k : b->k) != NK_CALL;  /* a call is no constant, ... */
	if ((a->kind == S_OP && b->kind == S_OPKIND) || (a->kind == S_OPKIND && b->kind == S_OP))
		return ir_op_kind((OpId)(a->kind == S_OP ? a->n : b->n)) != (a->kind == S_OP ? b->n : a->n);
	if (a->kind == S_OPKIND && b->kind == S_OPKIND)
		return a->n != b->n;
	if (a->kind == S_VARNAME && b->kind == S_VARNAME)
		return strcmp(a->lit->s, b->lit->s) != 0;
	if (a->kind == S_FATTR && b->kind == S_FATTR && strcmp(a->lit->s, b->lit->s) == 0)
		return !samelit(a->lit->kid[0], b->lit->kid[0]);
	if (a->kind == S_KIND && b->kind == S_KIND)
		return a->k != b->k;
	if (a->kind == S_NARGS && b->kind == S_NARGS && !a->atleast && !b->atleast)
		return a->n != b->n;
	if (a->kind == S_INDEX && b->kind == S_INDEX)
		return a->n != b->n;
	if (a->kind == S_ATTR && b->kind == S_ATTR && a->k == b->k && a->op == b->op && a->lit && b->lit &&
	    a->lit->kind == b->lit->kind) {
		int t = AT_TYPE(ir_ops[a->op].attrs[a->k].type);
		if ((t == AT_INT || t == AT_BOOL) && (a->lit->kind == A_INT || a->lit->kind == A_BOOL))
			return a->lit->i != b->lit->i;
		if ((t == AT_STR || t == AT_DTYPE) && a->lit->kind == A_STR)
			return strcmp(a->lit->s, b->lit->s) != 0;
	}
	return 0;
}

/* Loaded: the variables loaded on the way from the root to a node. */
typedef struct Loaded {
	const char **v;
	uint32_t n, cap;
} Loaded;

static int
isloaded(const Loaded *l, const char *v)
{
	if (strcmp(v, "v") == 0)
		return 1;
	for (uint32_t i = l->n; i-- > 0;)
		if (strcmp(l->v[i], v) == 0)
			return 1;
	return 0;
}

/* A state of the rows: what is left to decide, wherever on the tree it
** arises.  One reached on several paths is built once (shared). */
typedef struct Memo {
	uint64_t h;
	const Row *rows;
	uint32_t n;
	uint32_t seen;          /* on how many paths (the first pass) */
	DNode *shared;          /* its subtree, once built (the second) */
} Memo;

/* TreeB: the state of building one tree. */
typedef struct TreeB {
	Rules *r;
	Tree *t;
	Loaded ld;
	uint32_t budget;        /* nodes it may still make */
	int pass;               /* 1: count states; 2: build, sharing */
	Memo *memo;             /* open addressing, cap a power of two */
	uint32_t nmemo, capmemo;
} TreeB;

static uint64_t
statehash(const Row *rows, uint32_t n)
{
	uint64_t h = 1469598103934665603u;

	for (uint32_t i = 0; i < n; i++) {
		h = (h ^ rows[i].prio) * 1099511628211u;
		for (uint32_t k = 0; k < rows[i].nsteps; k++)
			h = (h ^ (uint64_t)(uintptr_t)rows[i].steps[k]) * 1099511628211u;
		h = (h ^ 0xff) * 1099511628211u;
	}
	return h;
}

static int
samestate(const Memo *m, const Row *rows, uint32_t n)
{
	if (m->n != n)
		return 0;
	for (uint32_t i = 0; i < n; i++) {
		const Row *a = &m->rows[i], *b = &rows[i];
		if (a->prio != b->prio || a->nsteps != b->nsteps ||
		    memcmp(a->steps, b->steps, a->nsteps * sizeof *a->steps) != 0)
			return 0;
	}
	return 1;
}

/* memo: the entry of state rows[0..n), made if new */
static Memo *
memo(TreeB *tb, const Row *rows, uint32_t n)
{
	uint64_t h = statehash(rows, n);
	uint32_t i;

	if (2 * (tb->nmemo + 1) > tb->capmemo) {
		Memo *old = tb->memo;
		uint32_t oldcap = tb->capmemo;
		tb->capmemo = oldcap ? 2 * oldcap : 64;
		tb->memo = ir_xcalloc(tb->capmemo, sizeof *tb->memo);
		for (uint32_t j = 0; j < oldcap; j++)
			if (old[j].rows) {
				for (i = (uint32_t)old[j].h & (tb->capmemo - 1); tb->memo[i].rows; i = (i + 1) & (tb->capmemo - 1))
					;
				tb->memo[i] = old[j];
			}
		free(old);
	}
	for (i = (uint32_t)h & (tb->capmemo - 1); tb->memo[i].rows; i = (i + 1) & (tb->capmemo - 1))
		if (tb->memo[i].h == h && samestate(&tb->memo[i], rows, n))
			return &tb->memo[i];
	tb->memo[i].h = h;
	tb->memo[i].rows = rows;
	tb->memo[i].n = n;
	tb->nmemo++;
	return &tb->memo[i];
}

/* worthsharing: a state with a test left to ask (a lone leaf is as short
** as a call) */
static int
worthsharing(const Row *rows, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t k = 0; k < rows[i].nsteps; k++)
			if (rows[i].steps[k]->kind != S_LOAD)
				return 1;
	return 0;
}

/* strhash: h extended with the string s */
static uint32_t
strhash(uint32_t h, const char *s)
{
	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return (h ^ 0xff) * 16777619u;
}

/* contenthash: what is left to decide in rows[0..n): their rules and
** pending steps, by content (names, not addresses) */
static uint32_t
contenthash(const Row *rows, uint32_t n)
{
	uint32_t h = 2166136261u;

	for (uint32_t i = 0; i < n; i++) {
		h = strhash(h, rows[i].rule->name);
		h = (h ^ rows[i].variant) * 16777619u;
		for (uint32_t k = 0; k < rows[i].nsteps; k++) {
			const Step *s = rows[i].steps[k];
			const Ast *l = s->lit;
			h = (h ^ s->kind) * 16777619u;
			h = (h ^ (uint32_t)s->k ^ (uint32_t)s->k2 << 8 ^ (uint32_t)s->n << 16 ^ s->atleast) * 16777619u;
			h = strhash(strhash(h, s->v), s->v2);
			if (l) {
				h = (h ^ l->kind ^ (uint32_t)l->i) * 16777619u;
				h = strhash(h, l->kind == A_STR ? l->s : NULL);
			}
		}
	}
	return h;
}

static DNode *
dnode(TreeB *tb, DKind k, const Row *first, uint32_t n)
{
	DNode *d = ir_arena_alloc(&tb->r->arena, sizeof *d);

	d->kind = (uint8_t)k;
	d->prio = first->prio;
	d->hash = tb->pass == 2 ? contenthash(first, n) : 0;
	tb->t->nnodes++;
	if (tb->budget)
		tb->budget--;
	return d;
}

/* takeloads: the loads of row r up to its first pending test (all of them
** when it has none), of variables not loaded yet, onto d and tb->ld; the
** index of that test, or r->nsteps */
static uint32_t
takeloads(TreeB *tb, DNode *d, const Row *r)
{
	const Variant *var = &r->rule->variants[r->variant];
	NameMap need = { 0 };
	uint32_t i;

	/* what the row still reads: its pending tests, its leaf's names and
	   nodes, and the nodes on the way to them */
	for (i = 0; i < r->nsteps; i++)
		if (r->steps[i]->kind != S_LOAD) {
			dsl_map_put(&need, r->steps[i]->v, 0);
			if (r->steps[i]->v2)
				dsl_map_put(&need, r->steps[i]->v2, 0);
		}
	for (i = 0; i < var->nbinds; i++)
		if (var->binds[i].used)
			dsl_map_put(&need, var->binds[i].var, 0);
	for (i = 0; i < var->ninner; i++)
		dsl_map_put(&need, var->inner[i], 0);
	for (i = r->nsteps; i-- > 0;)
		if (r->steps[i]->kind == S_LOAD && dsl_map_get(&need, r->steps[i]->v) != UINT32_MAX)
			dsl_map_put(&need, r->steps[i]->v2, 0);

	for (i = 0; i < r->nsteps && r->steps[i]->kind == S_LOAD; i++)
		;
	if (i)
		d->loads = ir_arena_alloc(&tb->r->arena, i * sizeof *d->loads);
	for (i = 0; i < r->nsteps && r->steps[i]->kind == S_LOAD; i++) {
		const Step *s = r->steps[i];
		if (isloaded(&tb->ld, s->v) || dsl_map_get(&need, s->v) == UINT32_MAX)
			continue;
		d->loads[d->nloads++] = s;
		ir_vgrow(&tb->ld.v, &tb->ld.cap, tb->ld.n + 1);
		tb->ld.v[tb->ld.n++] = s->v;
	}
	dsl_map_free(&need);
	return i;
}

/* takechain: the loads of the variables that test i of row r reads, and
** of the nodes on the way to them, not loaded yet, onto d and tb->ld */
static void
takechain(TreeB *tb, DNode *d, const Row *r, uint32_t ti)
{
	NameMap need = { 0 };
	uint32_t n = 0;

	dsl_map_put(&need, r->steps[ti]->v, 0);
	if (r->steps[ti]->v2)
		dsl_map_put(&need, r->steps[ti]->v2, 0);
	for (uint32_t i = ti; i-- > 0;)
		if (r->steps[i]->kind == S_LOAD && dsl_map_get(&need, r->steps[i]->v) != UINT32_MAX) {
			dsl_map_put(&need, r->steps[i]->v2, 0);
			n++;
		}
	if (n)
		d->loads = ir_arena_alloc(&tb->r->arena, n * sizeof *d->loads);
	for (uint32_t i = 0; i < ti; i++) {
		const Step *s = r->steps[i];
		if (s->kind != S_LOAD || dsl_map_get(&need, s->v) == UINT32_MAX || isloaded(&tb->ld, s->v))
			continue;
		d->loads[d->nloads++] = s;
		ir_vgrow(&tb->ld.v, &tb->ld.cap, tb->ld.n + 1);
		tb->ld.v[tb->ld.n++] = s->v;
	}
	dsl_map_free(&need);
}

/* structural: a test that says what a node is, and so which operands
** and attributes it has */
static int
structural(const Step *s)
{
	return s->kind == S_OP || s->kind == S_KIND || s->kind == S_NARGS;
}

/* choose: which pending test of the first row to ask, as an index into
** its steps (its nsteps if none is pending).  A test can be asked once the
** nodes it reads can be loaded (every structural test of a node on the
** way is answered) and, for an attribute, once its node's op is known.
** Of those, the one the most rows ask or rule out goes first: it splits
** the rows without copying them into both branches, and keeps the tests
** of one node together (a run of op tests becomes one switch).  Ties go
** to the earliest; at most MAXCHOICE are weighed. */
enum { MAXCHOICE = 16 };
static uint32_t
choose(const Row *rows, uint32_t n)
{
	const Row *r0 = &rows[0];
	NameMap blocked = { 0 }, pend = { 0 };
	uint32_t best = r0->nsteps, bestscore = 0, weighed = 0;

	for (uint32_t i = 0; i < r0->nsteps && weighed < MAXCHOICE; i++) {
		const Step *s = r0->steps[i];
		int ok;
		if (s->kind == S_LOAD) {
			if (dsl_map_get(&blocked, s->v2) != UINT32_MAX || dsl_map_get(&pend, s->v2) != UINT32_MAX)
				dsl_map_put(&blocked, s->v, 0);
			continue;
		}
		ok = dsl_map_get(&blocked, s->v) == UINT32_MAX && (!s->v2 || dsl_map_get(&blocked, s->v2) == UINT32_MAX);
		if (ok && (s->kind == S_ATTR || s->kind == S_ATTREQ))
			ok = dsl_map_get(&pend, s->v) == UINT32_MAX && (!s->v2 || dsl_map_get(&pend, s->v2) == UINT32_MAX);
		if (ok) {
			uint32_t score = 0;
			weighed++;
			for (uint32_t j = 1; j < n; j++)
				for (uint32_t k = 0; k < rows[j].nsteps; k++)
					if (rows[j].steps[k]->kind != S_LOAD &&
					    (samestep(rows[j].steps[k], s) || conflicts(rows[j].steps[k], s))) {
						score++;
						break;
					}
			if (best == r0->nsteps || score > bestscore) {
				best = i;
				bestscore = score;
			}
		}
		if (structural(s))
			dsl_map_put(&pend, s->v, 0);
	}
	dsl_map_free(&blocked);
	dsl_map_free(&pend);
	return best;
}

/* without: row r with step i answered (a copy, in the arena) */
static Row
without(Rules *r, const Row *row, uint32_t i)
{
	Row c = *row;

	c.steps = ir_arena_alloc(&r->arena, (row->nsteps ? row->nsteps : 1) * sizeof *c.steps);
	memcpy(c.steps, row->steps, i * sizeof *c.steps);
	memcpy(c.steps + i, row->steps + i + 1, (row->nsteps - i - 1) * sizeof *c.steps);
	c.nsteps = row->nsteps - 1;
	return c;
}

/* build: the decision tree of rows[0..n), in priority order, given the
** variables tb->ld loaded on the way; NULL when n is 0.  Leaves and failed
** tests continue in a loop; only a test with both branches recurses (for
** its yes branch), at most once per test of the first row. */
static DNode *
build(TreeB *tb, Row *rows, uint32_t n, int top)
{
	DNode *root = NULL, **slot = &root;
	uint32_t mark = tb->ld.n;

	while (n && tb->budget) {
		Row *r0 = &rows[0];
		DNode *d;
		uint32_t ti, ny = 0, nn = 0;
		const Step *t;
		Row *yes, *no;

		if (!top && worthsharing(rows, n)) {
			/* a state met before: the first pass counts it once and
			   goes no further; the second builds it once, by itself */
			Memo *me = memo(tb, rows, n);
			if (tb->pass == 1 && me->seen++)
				break;
			if (tb->pass == 2 && me->seen > 1) {
				if (!me->shared) {
					Loaded outer = tb->ld;
					memset(&tb->ld, 0, sizeof tb->ld);
					me->shared = build(tb, rows, n, 1);
					free(tb->ld.v);
					tb->ld = outer;
				}
				d = dnode(tb, D_SHARED, r0, n);
				d->yes = me->shared;
				*slot = d;
				break;
			}
		}
		top = 0;
		d = dnode(tb, D_LEAF, r0, n);
		ti = choose(rows, n);
		if (ti == r0->nsteps)
			takeloads(tb, d, r0);
		else
			takechain(tb, d, r0, ti);
		if (ti == r0->nsteps) {
			/* row 0 is decided: its leaf, then the rest */
			d->rule = r0->rule;
			d->variant = r0->variant;
			*slot = d;
			slot = &d->next;
			rows++;
			n--;
			continue;
		}
		d->kind = D_TEST;
		d->test = t = r0->steps[ti];
		yes = ir_arena_alloc(&tb->r->arena, n * sizeof *yes);
		no = ir_arena_alloc(&tb->r->arena, n * sizeof *no);
		for (uint32_t j = 0; j < n; j++) {
			const Row *r = &rows[j];
			uint32_t k, asks = UINT32_MAX;
			int dead = 0;
			for (k = 0; k < r->nsteps; k++) {
				const Step *s = r->steps[k];
				if (s->kind == S_LOAD)
					continue;
				if (asks == UINT32_MAX && samestep(s, t))
					asks = k;
				else if (conflicts(s, t))
					dead = 1;
			}
			if (asks != UINT32_MAX)
				yes[ny++] = without(tb->r, r, asks);
			else {
				if (!dead)
					yes[ny++] = *r;
				no[nn++] = *r;
			}
		}
		*slot = d;
		if (nn) {
			uint32_t m2 = tb->ld.n;
			d->yes = build(tb, yes, ny, 0);
			tb->ld.n = m2;
			slot = &d->no;
			rows = no;
			n = nn;
		} else {
			slot = &d->yes;
			rows = yes;
			n = ny;
		}
	}
	tb->ld.n = mark;
	return root;
}

/* addrow: the steps of variant v of rule ru as the last row of tree t */
static void
addrow(Rules *r, Tree *t, const Step *steps, uint32_t n, Rule *ru, uint32_t v)
{
	Step *own = ir_arena_alloc(&r->arena, (n ? n : 1) * sizeof *own);
	Row *row;

	if (n)
		memcpy(own, steps, n * sizeof *own);
	ir_vgrow(&t->rows, &t->caprows, t->nrows + 1);
	row = &t->rows[t->nrows];
	row->steps = ir_arena_alloc(&r->arena, (n ? n : 1) * sizeof *row->steps);
	for (uint32_t i = 0; i < n; i++)
		row->steps[i] = &own[i];
	row->nsteps = n;
	row->rule = ru;
	row->variant = v;
	row->prio = t->nrows++;
}

/* treefor: the tree of root op (or node kind), created in sorted order */
static Tree *
treefor(Rules *r, int kind, OpId op)
{
	uint32_t i;

	for (i = 0; i < r->ntrees; i++)
		if (r->trees[i].kind == kind && r->trees[i].op == op)
			return &r->trees[i];
	r->trees = ir_xrealloc(r->trees, (r->ntrees + 1) * sizeof *r->trees);
	memset(&r->trees[r->ntrees], 0, sizeof r->trees[0]);
	r->trees[r->ntrees].kind = kind;
	r->trees[r->ntrees].op = op;
	return &r->trees[r->ntrees++];
}

static int
treecmp(const void *x, const void *y)
{
	const Tree *a = x, *b = y;
	if (a->kind != b->kind)
		return a->kind - b->kind;
	if (a->op == OP_NONE || b->op == OP_NONE)       /* any op's, last */
		return (a->op == OP_NONE) - (b->op == OP_NONE);
	return strcmp(ir_ops[a->op].name, ir_ops[b->op].name);
}

int
dsl_compile(Rules *r)
{
	Build b;
	int errors = 0;

	memset(&b, 0, sizeof b);
	b.r = r;
	for (uint32_t i = 0; i < r->nrules; i++) {
		Rule *ru = &r->rules[i];
		uint32_t rulesteps = 0;
		b.rule = ru;
		dsl_map_clear(&b.used);
		dsl_map_clear(&b.read);
		uses(&b, ru->guard, 1);
		uses(&b, ru->result, 1);
		for (uint32_t v = 0; v < ru->nvariants; v++) {
			const Ast *root = ru->variants[v].pat;
			Tree *t;
			/* repeated names are per variant */
			dsl_map_clear(&b.repeats);
			dsl_map_clear(&b.seen);
			dsl_map_clear(&b.bound);
			counts(&b, root);
			b.nsteps = 0;
			b.nbinds = 0;
			b.ninner = 0;
			walk(&b, root, "v", 1);
			if (b.nsteps > MAXSTEPS) {
				ir_error(r->d, ru->loc, "rule '%s' takes more than %d steps to match (tests and "
				         "operand loads)", ru->name, MAXSTEPS);
				errors++;
				break;
			}
			if ((rulesteps += b.nsteps) > MAXRULESTEPS) {
				ir_error(r->d, ru->loc, "rule '%s' takes more than %d steps to match in all its "
				         "variants", ru->name, MAXRULESTEPS);
				errors++;
				break;
			}
			root = dsl_root(root);
			/* _(...): the tree of calls of any op, OP_NONE */
			t = root->kind == A_CALL ? treefor(r, NK_CALL, root->op) : root->kind == A_ANYCALL ? treefor(r, NK_CALL, OP_NONE)
			  : treefor(r, root->kind == A_TUPLE ? NK_TUPLE : root->kind == A_CALLFN ? NK_CALLFN : NK_GETITEM, 0);
			addrow(r, t, b.steps, b.nsteps, ru, v);
			ru->variants[v].binds = ir_arena_alloc(&r->arena, (b.nbinds ? b.nbinds : 1) * sizeof(Bind));
			if (b.nbinds)
				memcpy(ru->variants[v].binds, b.binds, b.nbinds * sizeof(Bind));
			ru->variants[v].nbinds = b.nbinds;
			if (b.ninner) {
				ru->variants[v].inner = ir_arena_alloc(&r->arena, b.ninner * sizeof *b.inner);
				memcpy(ru->variants[v].inner, b.inner, b.ninner * sizeof *b.inner);
				ru->variants[v].ninner = b.ninner;
			}
		}
	}
	if (r->ntrees > 1)
		qsort(r->trees, r->ntrees, sizeof *r->trees, treecmp);
	for (uint32_t i = 0; i < r->ntrees && !errors; i++) {
		Tree *t = &r->trees[i];
		TreeB tb;
		uint64_t steps = t->nrows;
		for (uint32_t j = 0; j < t->nrows; j++)
			steps += t->rows[j].nsteps;
		memset(&tb, 0, sizeof tb);
		tb.r = r;
		tb.t = t;
		tb.budget = steps * MAXNODES + 1024 > UINT32_MAX ? UINT32_MAX : (uint32_t)(steps * MAXNODES + 1024);
		/* count the states met on several paths, then build sharing them */
		tb.pass = 1;
		build(&tb, t->rows, t->nrows, 1);
		tb.pass = 2;
		t->nnodes = 0;
		if (tb.budget)
			t->root = build(&tb, t->rows, t->nrows, 1);
		free(tb.ld.v);
		free(tb.memo);
		if (!tb.budget) {
			const Rule *ru = t->rows[0].rule;
			ir_error(r->d, ru->loc, "the rules rooted at %s make a decision tree of more than %u nodes: "
			         "many rules that test different things of one node; give them guards instead, or "
			         "split them into rulesets",
			         t->kind == NK_CALL ? (t->op ? ir_ops[t->op].name : "a call of any op") :
			         t->kind == NK_TUPLE ? "a tuple" : t->kind == NK_CALLFN ? "a call of a function" : "a projection",
			         t->nnodes);
			errors++;
		}
	}
	dsl_map_free(&b.used);
	dsl_map_free(&b.read);
	dsl_map_free(&b.repeats);
	dsl_map_free(&b.seen);
	dsl_map_free(&b.bound);
	dsl_map_free(&b.alias);
	free(b.steps);
	free(b.binds);
	free(b.inner);
	return errors;
}

/* onpath: the step of kind k about variable v in row r, the last one */
static const Step *
onpath(const Row *r, int k, const char *v)
{
	for (uint32_t i = r->nsteps; i-- > 0;)
		if (r->steps[i]->kind == k && strcmp(r->steps[i]->v, v) == 0)
			return r->steps[i];
	return NULL;
}

int
dsl_inplace(const Rule *ru, const Variant *var, const Row *r, const char **d, const char **chain, uint32_t max)
{
	const Ast *a = ru->result;
	const Step *l;
	uint32_t n = 0;
	int np = 0;

	*d = NULL;
	if (!a || a->kind != A_CALL || !a->op)
		return -1;
	for (uint32_t i = 0; i < a->nkid; i++) {
		const Ast *k = a->kid[i];
		const Bind *b = NULL;
		if (k->kind == A_ATTR || k->kind == A_ATTRS)
			continue;
		if (k->kind == A_NAME)
			for (uint32_t j = 0; j < var->nbinds && !b; j++)
				if (strcmp(var->binds[j].name, k->s) == 0)
					b = &var->binds[j];
		if (!b || b->kind != 0 || !(l = onpath(r, S_LOAD, b->var)) || l->k != (int)n ||
		    (*d && strcmp(l->v2, *d) != 0))
			return -1;
		*d = l->v2;
		n++;
	}
	if (!*d || strcmp(*d, "v") == 0 || !(l = onpath(r, S_OP, *d)) || l->n != a->op)
		return -1;          /* d is not known to be a call of a's op */
	for (l = onpath(r, S_LOAD, *d); l && strcmp(l->v2, "v") != 0; l = onpath(r, S_LOAD, l->v2)) {
		if ((uint32_t)np == max)
			return -1;
		chain[np++] = l->v2;
	}
	return l ? np : -1;
}
