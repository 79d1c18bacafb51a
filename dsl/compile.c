/*
** compile.c: rules -> decision trees.
**
** Every variant of every rule becomes a sequence of steps along operand
** paths: loads (`v_0_1` is operand 1 of operand 0 of the root `v`) and
** tests (op, node kind, operand count, tuple index, attribute, type, the
** same node twice), ending in a leaf that runs the guard and builds the
** result.  Sequences are merged into one trie per root op: a sequence
** shares the steps it has in common with the latest one inserted before
** it, so every test is evaluated once per match attempt, rules are tried
** in exactly their priority order, and the tree's size is the sum of the
** rules' sizes (no backtracking blow-up).
*/
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
**                 paths get aliases (see child()) */
enum { MAXSTEPS = 10000, MAXRULESTEPS = 100000, MAXNAME = 40 };

/* Names are kept in maps (dsl.h): compiling stays linear in the size of
** a rule however many names it binds. */
typedef struct Build {
	Rules *r;
	Rule *rule;
	Variant *var;
	NameMap used;           /* names the guard and result use */
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

/* uses: the names an expression refers to */
static void
uses(Build *b, const Ast *a)
{
	if (!a)
		return;
	if ((a->kind == A_NAME || a->kind == A_ATTRS || a->kind == A_REST) && a->s) {
		const char *dot = strchr(a->s, '.');
		dsl_map_put(&b->used, dot ? dsl_strdup(b->r, a->s, (size_t)(dot - a->s)) : a->s, 0);
	}
	for (uint32_t i = 0; i < a->nkid; i++)
		uses(b, a->kid[i]);
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
	if (!b->r->target)
		return;
	ir_vgrow(&b->inner, &b->capinner, b->ninner + 1);
	b->inner[b->ninner++] = v;
}

/* args: load and walk a call's or tuple's operands from index 0 */
static void
args(Build *b, const Ast *a, const char *v)
{
	uint32_t pos = 0;

	for (uint32_t i = 0; i < a->nkid; i++) {
		const Ast *k = a->kid[i];
		if (k->kind == A_ATTR)
			continue;
		if (k->kind == A_REST) {
			if (k->s && isneeded(b, k->s))
				bind(b, k->s, 2, v, 0, pos, k);
			break;
		}
		if (needsvar(b, k)) {
			const char *cv = child(b, v, pos);
			Step *s = step(b, S_LOAD, cv);
			s->v2 = v;
			s->k = (int)pos;
			walk(b, k, cv, 0);
		}
		pos++;
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
		return;
	case A_VAR:
		step(b, S_KIND, v)->k = NK_VAR;
		return;
	case A_TYPED: {
		Step *s;
		walk(b, a->kid[0], v, root);
		s = step(b, S_TYPE, v);
		s->lit = a;
		return;
	}
	case A_GETITEM: {
		const char *cv = child(b, v, 0);
		Step *s;
		if (!root)
			step(b, S_KIND, v)->k = NK_GETITEM;
		inner(b, v);
		s = step(b, S_INDEX, v);
		s->n = a->i;
		if (needsvar(b, a->kid[0])) {
			s = step(b, S_LOAD, cv);
			s->v2 = v;
			walk(b, a->kid[0], cv, 0);
		}
		return;
	}
	case A_TUPLE: {
		uint32_t n = 0;
		int rest = 0;
		Step *s;
		for (uint32_t i = 0; i < a->nkid; i++)
			if (a->kid[i]->kind == A_REST)
				rest = 1;
			else
				n++;
		if (!root)
			step(b, S_KIND, v)->k = NK_TUPLE;
		inner(b, v);
		s = step(b, S_NARGS, v);
		s->n = n;
		s->atleast = (uint8_t)rest;
		args(b, a, v);
		return;
	}
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

static TNode *
addkid(Rules *r, TNode *t, const Step *s)
{
	TNode *k = ir_arena_alloc(&r->arena, sizeof *k);

	k->step = *s;
	if (t->nkids == t->capkids) {
		uint32_t cap = t->capkids ? 2 * t->capkids : 4;
		TNode **v = ir_arena_alloc(&r->arena, cap * sizeof *v);
		if (t->nkids)
			memcpy(v, t->kids, t->nkids * sizeof *v);
		t->kids = v;
		t->capkids = cap;
	}
	t->kids[t->nkids++] = k;
	return k;
}

/* insert: add a step sequence ending in leaf (rule, variant) to tree t */
static void
insert(Rules *r, TNode *t, const Step *steps, uint32_t n, Rule *ru, uint32_t variant)
{
	Step leaf;

	for (uint32_t i = 0; i < n; i++) {
		TNode *last = t->nkids ? t->kids[t->nkids - 1] : NULL;
		t = last && last->step.kind != S_LEAF && samestep(&last->step, &steps[i]) ? last : addkid(r, t, &steps[i]);
	}
	memset(&leaf, 0, sizeof leaf);
	leaf.kind = S_LEAF;
	leaf.v = "";
	t = addkid(r, t, &leaf);
	t->rule = ru;
	t->variant = variant;
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
		uses(&b, ru->guard);
		uses(&b, ru->result);
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
			while (root->kind == A_BIND || root->kind == A_TYPED)
				root = root->kid[0];
			t = root->kind == A_CALL ? treefor(r, NK_CALL, root->op)
			  : treefor(r, root->kind == A_TUPLE ? NK_TUPLE : NK_GETITEM, 0);
			insert(r, &t->root, b.steps, b.nsteps, ru, v);
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
	dsl_map_free(&b.used);
	dsl_map_free(&b.repeats);
	dsl_map_free(&b.seen);
	dsl_map_free(&b.bound);
	dsl_map_free(&b.alias);
	free(b.steps);
	free(b.binds);
	free(b.inner);
	return errors;
}
