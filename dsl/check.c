/*
** check.c: everything graftc verifies before it generates code.
**
**  1. named sub-patterns are expanded in place (a cycle is an error);
**  2. pattern calls are resolved against the op registry: op names (with a
**     did-you-mean), arity, attribute names and literal value types;
**  3. each pattern is expanded into variants: alternation, optional nodes
**     and the operand orders of commutative ops (ops.def's OPF_COMM);
**  4. in every variant, names are bound consistently; every name a guard or
**     result uses must be bound in every variant;
**  5. guards are typed (they must be boolean) and results are checked as
**     expressions that build nodes;
**  6. rule names are unique, no rule is hidden by an earlier unconditional
**     rule that matches everything it matches, and a result's dtype agrees
**     with the matched value's wherever both are known statically.
** Errors are counted and checking goes on with the next rule.
*/
#define _POSIX_C_SOURCE 200809L   /* open_memstream */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dsl.h"
#include "rules.tab.h"

/* Limits that keep checking (and everything after it) linear in the input
** and its recursion shallow, whatever the input:
**   MAXVARIANTS  variants of one rule (alternatives times operand orders)
**   MAXDEPTH     levels of a rule's pattern, guard or result, also once its
**                named patterns are expanded, and named patterns expanded
**                one inside another: every later stage recurses over these
**                trees, so this bounds their stack use
**   MAXNODES     nodes that expanding a rule's named patterns may add (a
**                pattern that uses its parameter twice doubles the size at
**                every level of nesting) */
enum { MAXVARIANTS = 1024, MAXDEPTH = 1000, MAXNODES = 100000 };

/* The hidden-rule test compares every rule with every earlier one: past
** this many comparisons of pattern nodes it stops (it is incomplete by
** design), so that a file of many rules is checked in linear time. */
#define MAXHIDEWORK ((uint64_t)20000000)

typedef struct Check {
	Rules *r;
	Diag *d;
	Rule *rule;
	int toomany;            /* the current rule has too many variants */
	int toobig;             /* its expansion hit MAXNODES (1) or MAXDEPTH (2) */
	uint32_t budget;        /* nodes its expansion may still add */
	uint32_t expanding;     /* named patterns being expanded, one in another */
	NameMap pats, exts;     /* name -> first index in r->pats, r->exts */
} Check;

/* ---------------------------------------------------------------- helpers */

/* grow: account for one new node at `depth` in the expansion of the current
** rule; 0 (and c->toobig set) once the expansion is over its limits, after
** which callers put a leaf (_) in place of the rest */
static int
grow(Check *c, uint32_t depth)
{
	if (c->toobig)
		return 0;
	if (depth >= MAXDEPTH)
		c->toobig = 2;
	else if (c->budget == 0)
		c->toobig = 1;
	else
		c->budget--;
	return !c->toobig;
}

/* copy: a deep copy of a, whose root lands at `depth` in the rule */
static Ast *
copy(Check *c, const Ast *a, uint32_t depth)
{
	Ast *b;

	if (!grow(c, depth))
		return dsl_ast(c->r, A_ANY, a->loc);
	b = dsl_ast(c->r, (AstKind)a->kind, a->loc);
	*b = *a;
	if (a->nkid) {
		b->kid = ir_arena_alloc(&c->r->arena, a->nkid * sizeof *b->kid);
		for (uint32_t i = 0; i < a->nkid; i++)
			b->kid[i] = a->kid[i] ? copy(c, a->kid[i], depth + 1) : NULL;
	}
	return b;
}

/* shallow: a copy of node a with an array of kids of its own; the kids
** themselves are shared.  Variants share sub-trees freely: nothing changes
** a pattern once it is expanded. */
static Ast *
shallow(Rules *r, const Ast *a)
{
	Ast *b = dsl_ast(r, (AstKind)a->kind, a->loc);

	*b = *a;
	if (a->nkid) {
		b->kid = ir_arena_alloc(&r->arena, a->nkid * sizeof *b->kid);
		memcpy(b->kid, a->kid, a->nkid * sizeof *b->kid);
	}
	return b;
}

/* toodeep: 1 if tree a, whose root is at `depth`, goes below MAXDEPTH; it
** stops looking there, so it is safe on trees of any depth */
static int
toodeep(const Ast *a, uint32_t depth)
{
	if (depth >= MAXDEPTH)
		return 1;
	for (uint32_t i = 0; i < a->nkid; i++)
		if (a->kid[i] && toodeep(a->kid[i], depth + 1))
			return 1;
	return 0;
}

/* findpat, findext: the first named pattern or extern called name */
static SubPat *
findpat(const Check *c, const char *name)
{
	uint32_t i = dsl_map_get(&c->pats, name);
	return i == UINT32_MAX ? NULL : &c->r->pats[i];
}

/* ---------------------------------------------------------------- warnings */

static const struct { const char *name; unsigned bit; } warnings[] = {
	{ "unused-binding", W_UNUSED_BINDING },
	{ "unused-pattern", W_UNUSED_PATTERN },
	{ "constant-guard", W_CONSTANT_GUARD },
	{ "unused-include", W_UNUSED_INCLUDE },
	{ "shadowed-dtype", W_SHADOWED_DTYPE },
};

int
dsl_warning_flag(Rules *r, const char *arg)
{
	int no = strncmp(arg, "-Wno-", 5) == 0;
	const char *name = arg + (no ? 5 : 2);

	if (strncmp(arg, "-W", 2) != 0)
		return 0;
	if (strcmp(name, "all") == 0) {
		r->warn = no ? 0 : W_ALL;
		return 1;
	}
	if (strcmp(name, "error") == 0) {
		r->werror = !no;
		return 1;
	}
	for (size_t i = 0; i < sizeof warnings / sizeof *warnings; i++)
		if (strcmp(name, warnings[i].name) == 0) {
			if (no)
				r->warn &= ~warnings[i].bit;
			else
				r->warn |= warnings[i].bit;
			return 1;
		}
	return 0;
}

/* warn: warning w at loc, named as its option, if it is on */
static void
warn(Check *c, unsigned w, Loc loc, const char *msg)
{
	const char *name = "";

	if (!(c->r->warn & w))
		return;
	for (size_t i = 0; i < sizeof warnings / sizeof *warnings; i++)
		if (warnings[i].bit == w)
			name = warnings[i].name;
	ir_warning(c->d, loc, "%s [-W%s]", msg, name);
}

/* fileused: whether anything of file (or of a file it includes) is used:
** a rule, a used pattern, an extern called */
static int
fileused(const Rules *r, uint16_t file, int depth)
{
	if (depth > 64)
		return 1;
	for (uint32_t i = 0; i < r->nrules; i++)
		if (r->rules[i].loc.file == file)
			return 1;
	for (uint32_t i = 0; i < r->npats; i++)
		if (r->pats[i].loc.file == file && r->pats[i].used)
			return 1;
	for (uint32_t i = 0; i < r->nexts; i++)
		if (r->exts[i].loc.file == file && r->exts[i].used)
			return 1;
	for (uint32_t i = 0; i < r->nxops; i++)
		if (r->xops[i].loc.file == file)
			return 1;       /* an op declared is used by what names it */
	for (uint32_t i = 0; i < r->nincludes; i++)
		if (r->includes[i].loc.file == file && fileused(r, r->includes[i].file, depth + 1))
			return 1;
	return 0;
}

/* A name of a rule: where it is first bound, how often the pattern names
** it, whether the guard or result reads it. */
typedef struct NameUse {
	const char *name;
	Loc loc;
	uint32_t bound;
	int read;
} NameUse;

static NameUse *
nameuse(NameUse *v, uint32_t *n, const char *name, size_t len)
{
	for (uint32_t i = 0; i < *n; i++)
		if (strlen(v[i].name) == len && strncmp(v[i].name, name, len) == 0)
			return &v[i];
	return NULL;
}

/* bound: the names pattern a binds, into v (at most 64 kept) */
static void
bound(const Ast *a, NameUse *v, uint32_t *n)
{
	const char *s = NULL;

	if (!a)
		return;
	if (a->kind == A_NAME || a->kind == A_BIND || (a->kind == A_REST && a->s))
		s = a->s;
	if (s) {
		NameUse *u = nameuse(v, n, s, strlen(s));
		if (u)
			u->bound++;
		else if (*n < 64)
			v[(*n)++] = (NameUse){ s, a->loc, 1, 0 };
	}
	for (uint32_t i = 0; i < a->nkid; i++)
		bound(a->kid[i], v, n);
}

/* reads: marks the names expression a reads */
static void
reads(const Ast *a, NameUse *v, uint32_t n)
{
	if (!a)
		return;
	if ((a->kind == A_NAME || a->kind == A_ATTRS || a->kind == A_REST) && a->s) {
		const char *dot = strchr(a->s, '.');
		NameUse *u = nameuse(v, &n, a->s, dot ? (size_t)(dot - a->s) : strlen(a->s));
		if (u)
			u->read = 1;
	}
	for (uint32_t i = 0; i < a->nkid; i++)
		reads(a->kid[i], v, n);
}

/* unusedbindings: -Wunused-binding for rule ru, before its named patterns
** are expanded (the names are the rule's own); a name starting with '_'
** is bound on purpose */
static void
unusedbindings(Check *c, const Rule *ru)
{
	NameUse v[64];
	uint32_t n = 0;

	if (!(c->r->warn & W_UNUSED_BINDING))
		return;
	bound(ru->pat, v, &n);
	reads(ru->guard, v, n);
	reads(ru->result, v, n);
	for (uint32_t i = 0; i < n; i++)
		if (v[i].bound == 1 && !v[i].read && v[i].name[0] != '_') {
			char msg[256];
			snprintf(msg, sizeof msg, "'%s' is bound and never used (name it _%s, or leave the name out)",
			         v[i].name, v[i].name);
			warn(c, W_UNUSED_BINDING, v[i].loc, msg);
		}
}

/* known: the value of guard a when it holds literals alone: 1 and *v,
** else 0 */
static int
known(const Ast *a, int *v)
{
	int x, y, kx, ky;

	switch (a->kind) {
	case A_BOOL:
		*v = a->i != 0;
		return 1;
	case A_UNOP:
		if (a->i == '!' && known(a->kid[0], &x)) {
			*v = !x;
			return 1;
		}
		return 0;
	case A_BINOP:
		if (a->i == T_ANDAND || a->i == T_OROR) {
			int and = a->i == T_ANDAND;
			kx = known(a->kid[0], &x);
			ky = known(a->kid[1], &y);
			if ((kx && x != and) || (ky && y != and)) {
				*v = !and;      /* false && _, _ || true */
				return 1;
			}
			if (kx && ky) {
				*v = and;
				return 1;
			}
			return 0;
		}
		if ((a->i == T_EQ || a->i == T_NE) && a->kid[0]->kind == a->kid[1]->kind &&
		    (a->kid[0]->kind == A_INT || a->kid[0]->kind == A_STR || a->kid[0]->kind == A_BOOL)) {
			int eq = a->kid[0]->kind == A_STR ? strcmp(a->kid[0]->s, a->kid[1]->s) == 0 :
			         a->kid[0]->i == a->kid[1]->i;
			*v = a->i == T_EQ ? eq : !eq;
			return 1;
		}
		return 0;
	default:
		return 0;
	}
}


static const Extern *
findext(const Check *c, const char *name)
{
	uint32_t i = dsl_map_get(&c->exts, name);
	return i == UINT32_MAX ? NULL : &c->r->exts[i];
}

/* npos: the number of positional arguments of a call (not attributes) */
static uint32_t
npos(const Ast *call)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < call->nkid; i++)
		if (call->kid[i]->kind != A_ATTR && call->kid[i]->kind != A_ATTRS)
			n++;
	return n;
}

/* ---------------------------------------------------------------- 1. sub-patterns */

/* subst: a copy of body with parameter names replaced by arguments; its
** root lands at `depth` in the rule */
static Ast *
subst(Check *c, const Ast *body, const SubPat *sp, Ast **args, uint32_t depth)
{
	Ast *b;

	if (body->kind == A_NAME)
		for (uint32_t i = 0; i < sp->nparams; i++)
			if (strcmp(body->s, sp->params[i]) == 0)
				return copy(c, args[i], depth);
	if (!grow(c, depth))
		return dsl_ast(c->r, A_ANY, body->loc);
	b = dsl_ast(c->r, (AstKind)body->kind, body->loc);
	*b = *body;
	if (body->kind == A_BIND)
		for (uint32_t i = 0; i < sp->nparams; i++)
			if (strcmp(body->s, sp->params[i]) == 0)
				ir_error(c->d, body->loc, "parameter '%s' of pattern %s cannot be bound with ':'",
				         body->s, sp->name);
	if (body->nkid) {
		b->kid = ir_arena_alloc(&c->r->arena, body->nkid * sizeof *b->kid);
		for (uint32_t i = 0; i < body->nkid; i++)
			b->kid[i] = body->kid[i] ? subst(c, body->kid[i], sp, args, depth + 1) : NULL;
	}
	return b;
}

/* expandpats: replace uses of named sub-patterns in a, recursively; a is at
** `depth` in the rule, and what replaces it is cut at MAXDEPTH (setting
** c->toobig), so the recursion stays within MAXDEPTH levels */
static Ast *
expandpats(Check *c, Ast *a, uint32_t depth)
{
	for (uint32_t i = 0; i < a->nkid; i++)
		if (a->kid[i])
			a->kid[i] = expandpats(c, a->kid[i], depth + 1);
	if (a->kind == A_CALL && !ir_op_lookup(a->s, strlen(a->s))) {
		SubPat *sp = findpat(c, a->s);
		Ast *body;
		if (!sp)
			return a;
		sp->used = 1;
		if (a->nkid != sp->nparams || npos(a) != a->nkid) {
			ir_error(c->d, a->loc, "pattern %s takes %u argument%s, not %u", sp->name,
			         sp->nparams, sp->nparams == 1 ? "" : "s", a->nkid);
			return dsl_ast(c->r, A_ANY, a->loc);
		}
		if (a->flags & AF_OPTIONAL)
			ir_error(c->d, a->loc, "'?' applies to ops, not to pattern %s", sp->name);
		if (sp->expanding) {
			/* recursion: matched as data, one node down each time */
			if (sp->nparams) {
				ir_error(c->d, a->loc, "pattern %s uses itself: a recursive pattern takes no parameters", sp->name);
				return dsl_ast(c->r, A_ANY, a->loc);
			}
			sp->recursive = 1;
			body = dsl_ast(c->r, A_RREF, a->loc);
			body->s = sp->name;
			return body;
		}
		if (c->expanding >= MAXDEPTH) {
			/* a chain P0(x) = P1(x), P1(x) = P2(x), ... adds no depth */
			c->toobig = 2;
			return dsl_ast(c->r, A_ANY, a->loc);
		}
		sp->expanding = 1;
		sp->recursive = 0;
		c->expanding++;
		body = expandpats(c, subst(c, sp->body, sp, a->kid, depth), depth);
		c->expanding--;
		sp->expanding = 0;
		if (sp->recursive) {
			Ast *r = dsl_ast(c->r, A_REC, a->loc);
			r->s = sp->name;
			r->kid = ir_arena_alloc(&c->r->arena, sizeof *r->kid);
			r->kid[0] = body;
			r->nkid = 1;
			sp->recursive = 0;
			return r;
		}
		return body;
	}
	return a;
}

/* ---------------------------------------------------------------- 2. resolution */

/* litattr: the attribute value of a literal AST; 0 if it is not a literal */
static int
litattr(Rules *r, const Ast *a, AttrVal *v)
{
	memset(v, 0, sizeof *v);
	switch (a->kind) {
	case A_INT: v->kind = AV_INT; v->u.i = a->i; return 1;
	case A_FLOAT: v->kind = AV_FLOAT; v->u.f = a->f; return 1;
	case A_STR: v->kind = AV_STR; v->u.s = ir_symz(r->m, a->s); return 1;
	case A_BOOL: v->kind = AV_BOOL; v->u.i = a->i; return 1;
	case A_NONE: v->kind = AV_NONE; return 1;
	case A_LIST: {
		AttrVal buf[64];
		if (a->nkid > 64)
			return 0;
		for (uint32_t i = 0; i < a->nkid; i++)
			if (!litattr(r, a->kid[i], &buf[i]))
				return 0;
		v->kind = AV_ARRAY;
		v->n = a->nkid;
		v->first = ir_attr_push(r->m, buf, a->nkid);
		return 1;
	}
	default:
		return 0;
	}
}

/* callattr: check attribute argument `at` of a call of op; 1 if fine */
static int
callattr(Check *c, OpId op, const Ast *at, int inresult)
{
	const OpInfo *o = &ir_ops[op];
	int k = ir_op_attr_index(op, at->s, strlen(at->s));
	AttrVal v;
	const char *want;

	if (k < 0) {
		int s = ir_op_attr_suggest(op, at->s, strlen(at->s));
		if (s >= 0)
			ir_error(c->d, at->loc, "%s has no attribute '%s'; did you mean '%s'?", o->name, at->s, o->attrs[s].name);
		else if (o->nattrs)
			ir_error(c->d, at->loc, "%s has no attribute '%s'", o->name, at->s);
		else
			ir_error(c->d, at->loc, "%s has no attributes", o->name);
		return 0;
	}
	if (litattr(c->r, at->kid[0], &v) && (want = ir_attr_conform(c->r->m, o->attrs[k].type, &v))) {
		ir_error(c->d, at->kid[0]->loc, "attribute '%s' of %s must be %s", at->s, o->name, want);
		return 0;
	}
	if (!inresult && at->kid[0]->kind != A_NAME && !litattr(c->r, at->kid[0], &v)) {
		ir_error(c->d, at->kid[0]->loc, "a pattern's attribute is a literal or a name");
		return 0;
	}
	return 1;
}

/* dupattrs: report an attribute given twice in a call */
static void
dupattrs(Check *c, const Ast *call)
{
	for (uint32_t i = 0; i < call->nkid; i++)
		for (uint32_t j = 0; j < i; j++)
			if (call->kid[i]->kind == A_ATTR && call->kid[j]->kind == A_ATTR &&
			    strcmp(call->kid[i]->s, call->kid[j]->s) == 0)
				ir_error(c->d, call->kid[i]->loc, "attribute '%s' is given twice", call->kid[i]->s);
}

/* unknownop: report an unknown op name with a suggestion */
static void
unknownop(Check *c, const Ast *a, const char *what)
{
	OpId s = ir_op_suggest(a->s, strlen(a->s));
	if (s)
		ir_error(c->d, a->loc, "unknown %s '%s'; did you mean '%s'?", what, a->s, ir_ops[s].name);
	else
		ir_error(c->d, a->loc, "unknown %s '%s'", what, a->s);
}

/* undeclared: op is a plugin's and this file has no `extern op` for it:
** reported, so that the file compiles with graftc as it loads at run time */
static int
undeclared(Check *c, const Ast *a, OpId op)
{
	if (op < OP_COUNT)
		return 0;
	for (uint32_t i = 0; i < c->r->nxops; i++)
		if (c->r->xops[i].op == op)
			return 0;
	ir_error(c->d, a->loc, "op %s comes from a plugin: declare it with 'extern op %s(...)' first", a->s, a->s);
	return 1;
}

static void resolve(Check *c, Ast *a);

/* recchk: what recursive pattern rec's body x (resolved) may hold, as
** rw_pat() matches it: no names bound, no '?', no constant's or variable's
** value, no shape, no functions; and each use of itself below a call, a
** tuple or a projection (guarded: one node down), so that matching ends */
static void
recchk(Check *c, const Ast *rec, const Ast *x, int guarded)
{
	const char *no = NULL;

	switch (x->kind) {
	case A_RREF:
		if (!guarded && strcmp(x->s, rec->s) == 0)
			ir_error(c->d, x->loc, "pattern %s uses itself before it matches a node, so matching would never end: "
			         "use it as an operand of a call, a tuple or a projection", x->s);
		return;
	case A_NAME: case A_BIND:
		no = "binds no names (test them in a guard, outside it)";
		break;
	case A_CONST:
		no = x->nkid ? "tests no constant's value (match const, and test it in a guard)" : NULL;
		break;
	case A_VAR:
		no = x->s ? "tests no input's name" : NULL;
		break;
	case A_TYPED:
		no = x->kid[1] ? "tests dtypes, not shapes" : NULL;
		break;
	case A_DOM: case A_FN: case A_CALLFN: case A_GLOBAL:
		no = "holds no dominates(), function or call of one";
		break;
	case A_CALL:
		if (x->flags & AF_OPTIONAL)
			no = "holds no optional op (write the alternatives: P | op(P))";
		for (uint32_t i = 0; i < x->nkid && !no; i++)
			if (x->kid[i]->kind == A_ATTR && x->kid[i]->kid[0]->kind == A_NAME)
				no = "binds no attributes";
		break;
	default:
		break;
	}
	if (no) {
		ir_error(c->d, x->loc, "a recursive pattern (%s) %s", rec->s, no);
		return;
	}
	for (uint32_t i = 0; i < x->nkid; i++)
		if (x->kid[i] && x->kid[i]->kind != A_ATTR)
			recchk(c, rec, x->kid[i], guarded || x->kind == A_CALL || x->kind == A_ANYCALL || x->kind == A_TUPLE ||
			       x->kind == A_GETITEM);
}

/* hasrec: whether pattern a holds a recursive pattern (A_REC) */
static int
hasrec(const Ast *a)
{
	if (a->kind == A_REC)
		return 1;
	for (uint32_t i = 0; i < a->nkid; i++)
		if (a->kid[i] && hasrec(a->kid[i]))
			return 1;
	return 0;
}

/* fnattrlit: K=LIT on a call of a function value (TVM's attrs of a call):
** tested against a literal, as a function's own attributes are */
static void
fnattrlit(Check *c, const Ast *k)
{
	if (k->kid[0]->kind == A_NAME)
		ir_error(c->d, k->loc, "a call's attribute %s is tested against a literal, not bound", k->s);
}

/* oppattern: TOpPattern="KIND" on a call of a named op is known now: true,
** it is dropped; false, the pattern never matches, an error */
static void
oppattern(Check *c, Ast *a, OpId op)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < a->nkid; i++) {
		Ast *x = a->kid[i];
		if (x->kind == A_ATTR && strcmp(x->s, "TOpPattern") == 0) {
			int kind = x->kid[0]->kind == A_STR ? ir_op_kind_parse(x->kid[0]->s) : -1;
			if (kind < 0)
				ir_error(c->d, x->kid[0]->loc, "TOpPattern is one of \"elemwise\", \"broadcast\", "
				         "\"injective\", \"comm_reduce\", \"out_elemwise_fusable\", \"tuple\", \"opaque\"");
			else if (kind != ir_op_kind(op))
				ir_error(c->d, x->loc, "%s is %s, not %s: this pattern never matches", ir_ops[op].name,
				         ir_op_kind_name(ir_op_kind(op)), ir_op_kind_name(kind));
			continue;
		}
		a->kid[k++] = x;
	}
	a->nkid = k;
}

/* anycall: _(P1, ..., TOpPattern="kind") becomes an A_ANYCALL */
static void
anycall(Check *c, Ast *a)
{
	uint32_t k = 0;

	a->kind = A_ANYCALL;
	a->i = -1;
	if (a->flags & AF_OPTIONAL)
		ir_error(c->d, a->loc, "'?' applies to ops, not to a call of any op");
	for (uint32_t i = 0; i < a->nkid; i++) {
		Ast *x = a->kid[i];
		if (x->kind == A_ATTR) {
			int kind = x->kid[0]->kind == A_STR ? ir_op_kind_parse(x->kid[0]->s) : -1;
			if (strcmp(x->s, "TOpPattern") != 0)
				ir_error(c->d, x->loc, "a call of any op tests no attribute '%s': only its op's "
				         "TOpPattern=\"...\"", x->s);
			else if (kind < 0)
				ir_error(c->d, x->kid[0]->loc, "TOpPattern is one of \"elemwise\", \"broadcast\", "
				         "\"injective\", \"comm_reduce\", \"out_elemwise_fusable\", \"tuple\", \"opaque\"");
			else
				a->i = kind;
			continue;
		}
		if (x->kind == A_REST && x->s)
			ir_error(c->d, x->loc, "'%s...' binds tuple fields; use '...' for the other operands", x->s);
		if (x->kind == A_REST && i + 1 < a->nkid && a->kid[i + 1]->kind != A_ATTR)
			ir_error(c->d, x->loc, "'...' must be the last argument");
		a->kid[k++] = x;
	}
	a->nkid = k;
}

/* domparts: what the parent (path == 0) or path of a dominator may hold:
** the matcher of rw_pat() takes no optional nodes, shapes or nested
** dominators, and a path binds no names */
static void
domparts(Check *c, const Ast *a, int path)
{
	switch (a->kind) {
	case A_NAME:
	case A_BIND:
		if (path) {
			ir_error(c->d, a->loc, "the path of dominates() matches many nodes and binds no names: write _");
			return;
		}
		break;
	case A_CALL:
		if (a->flags & AF_OPTIONAL)
			ir_error(c->d, a->loc, "an optional node cannot stand in a dominator's parent or path");
		break;
	case A_CONST:
	case A_VAR:
		if (a->nkid || a->s)
			ir_error(c->d, a->loc, "const(...) and var(\"...\") cannot stand in a dominator's parent or path");
		return;
	case A_TUPLE:
		for (uint32_t i = 0; i + 1 < a->nkid; i++)
			if (a->kid[i]->kind == A_REST)
				ir_error(c->d, a->kid[i]->loc, "in a dominator's parent or path, '...' is the last field");
		break;
	case A_TYPED:
		if (a->kid[1])
			ir_error(c->d, a->loc, "a dominator's parent or path may constrain dtypes, not shapes");
		domparts(c, a->kid[0], path);
		return;
	case A_DOM:
		ir_error(c->d, a->loc, "dominates() nests in no other dominates()");
		return;
	case A_FN: case A_CALLFN: case A_GLOBAL:
		ir_error(c->d, a->loc, "functions and their calls cannot stand in a dominator's parent or path");
		return;
	case A_ATTR:
		if (path == 0 && a->kid[0]->kind == A_NAME)
			ir_error(c->d, a->loc, "a dominator's parent binds nodes, not attributes: test '%s' with a literal",
			         a->s);
		return;
	default:
		break;
	}
	for (uint32_t i = 0; i < a->nkid; i++)
		if (a->kid[i])
			domparts(c, a->kid[i], path);
}

/* dominates: dominates(P, Q, C) becomes an A_DOM, kid[3] its parent as
** written */
static void
dominates(Check *c, Ast *a)
{
	Ast **kids;

	if (a->nkid != 3 || npos(a) != 3 || (a->flags & AF_OPTIONAL)) {
		ir_error(c->d, a->loc, "dominates(parent, path, child) takes three patterns");
		a->kind = A_ANY;
		a->nkid = 0;
		return;
	}
	a->kind = A_DOM;
	for (uint32_t i = 0; i < 3; i++)
		resolve(c, a->kid[i]);
	domparts(c, a->kid[0], 0);
	domparts(c, a->kid[1], 1);
	kids = ir_arena_alloc(&c->r->arena, 4 * sizeof *kids);
	memcpy(kids, a->kid, 3 * sizeof *kids);
	kids[3] = kids[0];
	a->kid = kids;
	a->nkid = 4;
}

/* resolve: resolve and check the calls of pattern a */
static void
resolve(Check *c, Ast *a)
{
	switch (a->kind) {
	case A_REC:
		resolve(c, a->kid[0]);
		recchk(c, a, a->kid[0], 0);
		return;
	case A_RREF:
		return;
	case A_CALL: {
		OpId op = ir_op_lookup(a->s, strlen(a->s));
		uint32_t n = npos(a), want;
		int rest = 0;
		if (!op && strcmp(a->s, "_") == 0) {
			anycall(c, a);
			break;
		}
		if (!op && strcmp(a->s, "dominates") == 0) {
			dominates(c, a);
			return;
		}
		if (!op && strcmp(a->s, "call") == 0) {
			if (!a->nkid || a->kid[0]->kind == A_ATTR || a->kid[0]->kind == A_REST)
				ir_error(c->d, a->loc, "call(F, ARGS...) takes the function called first");
			for (uint32_t i = 0; i < a->nkid; i++)
				if (a->kid[i]->kind == A_ATTR)
					fnattrlit(c, a->kid[i]);
				else if (a->kid[i]->kind == A_REST && (a->kid[i]->s || i + 1 < a->nkid) &&
				         !(i + 1 < a->nkid && a->kid[i + 1]->kind == A_ATTR))
					ir_error(c->d, a->kid[i]->loc, "'...' stands last for any further arguments");
			a->kind = A_CALLFN;
			break;
		}
		if (!op && strcmp(a->s, "global") == 0) {
			if (a->nkid != 1 || a->kid[0]->kind != A_STR)
				ir_error(c->d, a->loc, "global(\"NAME\") names a global function");
			else
				a->s = a->kid[0]->s;
			a->kind = A_GLOBAL;
			a->nkid = 0;
			return;
		}
		if (!op) {
			unknownop(c, a, "op");
			break;
		}
		if (undeclared(c, a, op))
			break;
		a->op = op;
		want = (uint32_t)ir_ops[op].nargs;
		oppattern(c, a, op);
		for (uint32_t i = 0; i < a->nkid; i++) {
			Ast *k = a->kid[i];
			if (k->kind == A_REST) {
				if (k->s)
					ir_error(c->d, k->loc, "'%s...' binds tuple fields; use '...' for the other arguments of %s", k->s, a->s);
				if (i + 1 < a->nkid && a->kid[i + 1]->kind != A_ATTR)
					ir_error(c->d, k->loc, "'...' must be the last argument");
				rest = 1;
			} else if (k->kind == A_ATTR) {
				callattr(c, op, k, 0);
			} else if (k->kind == A_ATTRS) {
				ir_error(c->d, k->loc, "attrs(...) belongs in results, not patterns");
			}
		}
		dupattrs(c, a);
		if (rest ? n - 1 > want : n != want)
			ir_error(c->d, a->loc, "%s takes %u argument%s, not %u", a->s, want, want == 1 ? "" : "s", n - (uint32_t)rest);
		if ((a->flags & AF_OPTIONAL) && (n - (uint32_t)rest) == 0)
			ir_error(c->d, a->loc, "an optional %s needs an argument to stand for it when absent", a->s);
		break;
	}
	case A_TUPLE: {
		/* one rest, anywhere: (xs..., last) takes the fields but the last */
		uint32_t nrest = 0;
		for (uint32_t i = 0; i < a->nkid; i++)
			if (a->kid[i]->kind == A_REST && nrest++)
				ir_error(c->d, a->kid[i]->loc, "a tuple pattern takes one '...'");
		break;
	}
	case A_FN:
		/* parameters are names or _, then ... for any more; attributes
		   are literals; the body is a pattern */
		for (uint32_t i = 0; i + 1 < a->nkid; i++) {
			const Ast *k = a->kid[i];
			if (k->kind == A_ATTR) {
				if (k->kid[0]->kind == A_NAME)
					ir_error(c->d, k->loc, "a function's attribute %s is tested against a literal, not bound",
					         k->s);
			} else if (k->kind == A_REST) {
				if (k->s)
					ir_error(c->d, k->loc, "'...' stands for any further parameters and binds nothing");
				for (uint32_t j = i + 1; j + 1 < a->nkid; j++)
					if (a->kid[j]->kind != A_ATTR)
						ir_error(c->d, a->kid[j]->loc, "'...' must be the last parameter");
			} else if (k->kind != A_NAME && k->kind != A_ANY) {
				ir_error(c->d, k->loc, "a function's parameter is a name or _");
			}
		}
		resolve(c, a->kid[a->nkid - 1]);
		return;
	case A_INT: case A_FLOAT: case A_STR: case A_BOOL: case A_NONE: case A_LIST:
		ir_error(c->d, a->loc, "a literal is not a pattern; use const, or an attribute constraint");
		return;
	case A_ATTR:
		ir_error(c->d, a->loc, "attribute '%s' outside a call", a->s);
		return;
	case A_FOLD: case A_UNOP: case A_BINOP: case A_INDEX: case A_ATTRS:
		ir_error(c->d, a->loc, "this is not a pattern");
		return;
	default:
		break;
	}
	if (a->kind == A_CONST && a->nkid) {
		/* const(LIT): one number */
		if (a->kid[0]->kind != A_INT && a->kid[0]->kind != A_FLOAT && a->kid[0]->kind != A_BOOL)
			ir_error(c->d, a->kid[0]->loc, "const(...) takes a number or a boolean: the constant's one value");
		return;
	}
	for (uint32_t i = 0; i < a->nkid; i++)
		if (a->kid[i] && a->kind != A_TYPED && !((a->kind == A_CALL || a->kind == A_CALLFN) && a->kid[i]->kind == A_ATTR))
			resolve(c, a->kid[i]);
	if (a->kind == A_TYPED)
		resolve(c, a->kid[0]);
}

/* ---------------------------------------------------------------- 3. variants */

typedef struct Alts {
	Ast **v;
	uint32_t n, cap;
} Alts;

static void
altadd(Check *c, Alts *l, Ast *a)
{
	if (c->toomany || l->n >= MAXVARIANTS) {
		c->toomany = 1;
		return;
	}
	ir_vgrow(&l->v, &l->cap, l->n + 1);
	l->v[l->n++] = a;
}

static void expand(Check *c, Ast *a, Alts *out);

/* expandkids: every combination of the variants of a's children.  Once
** c->toomany is set, no list is complete (a child's may even be empty):
** then nothing is combined. */
/* qnnswap: call v of a commutative quantized binary op (qnn.add, qnn.mul:
** lhs, rhs, lhs_scale, lhs_zero_point, rhs_scale, rhs_zero_point, ...)
** with its operands exchanged together with their quantization
** parameters; operands a `...` stands for become `_` */
static Ast *
qnnswap(Check *c, const Ast *v)
{
	uint32_t n = (uint32_t)ir_ops[v->op].nargs, k = 0, nattrs = 0;
	static const uint32_t perm[] = { 1, 0, 4, 5, 2, 3 };
	Ast **pos = ir_arena_alloc(&c->r->arena, n * sizeof *pos), *s = shallow(c->r, v);

	for (uint32_t i = 0; i < v->nkid; i++) {
		Ast *x = v->kid[i];
		if (x->kind == A_ATTR || x->kind == A_ATTRS)
			nattrs++;
		else if (x->kind != A_REST && k < n)
			pos[k++] = x;
	}
	for (; k < n; k++)
		pos[k] = dsl_ast(c->r, A_ANY, v->loc);
	s->kid = ir_arena_alloc(&c->r->arena, (n + nattrs) * sizeof *s->kid);
	s->nkid = 0;
	for (uint32_t i = 0; i < n; i++)
		s->kid[s->nkid++] = pos[i < 6 ? perm[i] : i];
	for (uint32_t i = 0; i < v->nkid; i++)
		if (v->kid[i]->kind == A_ATTR || v->kid[i]->kind == A_ATTRS)
			s->kid[s->nkid++] = v->kid[i];
	s->flags |= AF_SWAPPED;
	return s;
}

static void
expandkids(Check *c, Ast *a, Alts *out)
{
	Alts *kids = ir_xcalloc(a->nkid ? a->nkid : 1, sizeof *kids);
	uint32_t *pick = ir_xcalloc(a->nkid ? a->nkid : 1, sizeof *pick);
	uint64_t total = 1;

	for (uint32_t i = 0; i < a->nkid && !c->toomany; i++) {
		if (a->kid[i] && a->kind != A_ATTR && a->kid[i]->kind != A_ATTR && !(a->kind == A_TYPED && i == 1) &&
		    !(a->kind == A_DOM && (i == 1 || i == 3)))     /* matched as written (rw_pat) */
			expand(c, a->kid[i], &kids[i]);
		else
			altadd(c, &kids[i], a->kid[i]);
		/* total stays <= MAXVARIANTS before each product: no overflow */
		total *= kids[i].n ? kids[i].n : 1;
		if (total > MAXVARIANTS)
			c->toomany = 1;
	}
	if (!c->toomany)
		for (;;) {
			Ast *b = dsl_ast(c->r, (AstKind)a->kind, a->loc);
			uint32_t i;
			*b = *a;
			if (a->nkid)
				b->kid = ir_arena_alloc(&c->r->arena, a->nkid * sizeof *b->kid);
			for (i = 0; i < a->nkid; i++)
				b->kid[i] = kids[i].n ? kids[i].v[pick[i]] : NULL;
			altadd(c, out, b);
			for (i = 0; i < a->nkid; i++) {
				if (++pick[i] < kids[i].n)
					break;
				pick[i] = 0;
			}
			if (i == a->nkid)
				break;
		}
	for (uint32_t i = 0; i < a->nkid; i++)
		free(kids[i].v);
	free(kids);
	free(pick);
}

/* firstpos: the index of a call's first positional argument */
static int
firstpos(const Ast *call, int nth)
{
	for (uint32_t i = 0; i < call->nkid; i++)
		if (call->kid[i]->kind != A_ATTR && call->kid[i]->kind != A_ATTRS && nth-- == 0)
			return (int)i;
	return -1;
}

/* expand: the alternation-free variants of pattern a, into out; nothing
** once c->toomany is set */
static void
expand(Check *c, Ast *a, Alts *out)
{
	if (c->toomany)
		return;
	switch (a->kind) {
	case A_ALT:
		for (uint32_t i = 0; i < a->nkid; i++)
			expand(c, a->kid[i], out);
		return;
	case A_REC:     /* matched as data: its alternatives stay inside */
		altadd(c, out, a);
		return;
	case A_BIND: {
		Alts sub = { 0 };
		Ast *k = a->kid[0];
		int opt = k->kind == A_CALL && (k->flags & AF_OPTIONAL);
		if (opt) {
			/* present: bound; absent: the name is not bound */
			Ast *present = shallow(c->r, k);
			present->flags &= (uint8_t)~AF_OPTIONAL;
			expand(c, present, &sub);
		} else {
			expand(c, k, &sub);
		}
		for (uint32_t i = 0; i < sub.n; i++) {
			Ast *b = shallow(c->r, a);
			b->kid[0] = sub.v[i];
			altadd(c, out, b);
		}
		free(sub.v);
		if (opt && firstpos(k, 0) >= 0)
			expand(c, k->kid[firstpos(k, 0)], out);
		return;
	}
	case A_CALL: {
		Alts calls = { 0 };
		if (a->flags & AF_OPTIONAL) {
			Ast *present = shallow(c->r, a);
			int f = firstpos(a, 0);
			present->flags &= (uint8_t)~AF_OPTIONAL;
			expand(c, present, out);
			if (f >= 0)
				expand(c, a->kid[f], out);
			return;
		}
		expandkids(c, a, &calls);
		for (uint32_t i = 0; i < calls.n; i++) {
			Ast *v = calls.v[i];
			int p0 = firstpos(v, 0), p1 = firstpos(v, 1);
			altadd(c, out, v);
			if (v->op && (ir_ops[v->op].flags & (OPF_COMM | OPF_QNN)) == (OPF_COMM | OPF_QNN)) {
				altadd(c, out, qnnswap(c, v));
			} else if (v->op && (ir_ops[v->op].flags & OPF_COMM) && p0 >= 0 && p1 >= 0 &&
			    v->kid[p0]->kind != A_REST && v->kid[p1]->kind != A_REST) {
				Ast *s = shallow(c->r, v), *t = s->kid[p0];
				s->kid[p0] = s->kid[p1];
				s->kid[p1] = t;
				s->flags |= AF_SWAPPED;
				altadd(c, out, s);
			}
		}
		free(calls.v);
		return;
	}
	default:
		if (a->nkid)
			expandkids(c, a, out);
		else
			altadd(c, out, a);
	}
}

/* canon: write a variant's canonical text, for duplicate detection */
static void
canon(FILE *f, const Ast *a)
{
	switch (a->kind) {
	case A_ANY: fputc('_', f); return;
	case A_CONST:
		fputs("const", f);
		if (a->nkid) {
			fputc('(', f);
			canon(f, a->kid[0]);
			fputc(')', f);
		}
		return;
	case A_VAR: fprintf(f, a->s ? "var(\"%s\")" : "var", a->s); return;
	case A_NAME: fputs(a->s, f); return;
	case A_REST: fprintf(f, "%s...", a->s ? a->s : ""); return;
	case A_INT: fprintf(f, "%lld:%d", (long long)a->i, a->dtype); return;
	case A_FLOAT: fprintf(f, "%.17g:%d", a->f, a->dtype); return;
	case A_STR: fprintf(f, "\"%s\"", a->s); return;
	case A_BOOL: fputs(a->i ? "True" : "False", f); return;
	case A_NONE: fputs("None", f); return;
	case A_BIND: fprintf(f, "%s:", a->s); canon(f, a->kid[0]); return;
	case A_ATTR: fprintf(f, "%s=", a->s); canon(f, a->kid[0]); return;
	case A_GETITEM:
		canon(f, a->kid[0]);
		dsl_print_field(f, a);
		return;
	case A_TYPED:
		canon(f, a->kid[0]);
		fprintf(f, "<%d", a->dtype);
		if (a->kid[1])
			canon(f, a->kid[1]);
		fputc('>', f);
		return;
	case A_ANYCALL:
		fprintf(f, "_%lld", (long long)a->i);
		break;
	case A_GLOBAL:
		fprintf(f, "global(\"%s\")", a->s);
		return;
	case A_FN:
		fputs("fn(", f);
		for (uint32_t i = 0; i + 1 < a->nkid; i++) {
			if (i)
				fputc(',', f);
			canon(f, a->kid[i]);
		}
		fputs("){", f);
		canon(f, a->kid[a->nkid - 1]);
		fputc('}', f);
		return;
	case A_CALLFN:
		fputs("call", f);
		break;
	case A_REC: fprintf(f, "rec %s", a->s); return;
	case A_RREF: fprintf(f, "ref %s", a->s); return;
	case A_DOM:
		fputs("dominates(", f);
		for (uint32_t i = 0; i < 3; i++) {
			if (i)
				fputc(',', f);
			canon(f, a->kid[i]);
		}
		fputc(')', f);
		return;
	default:
		break;
	}
	{
		fprintf(f, "%s(", a->kind == A_CALL ? a->s : a->kind == A_LIST ? "list" :
		        a->kind == A_ANYCALL || a->kind == A_CALLFN ? "" : "tuple");
		for (uint32_t i = 0; i < a->nkid; i++) {
			if (i)
				fputc(',', f);
			canon(f, a->kid[i]);
		}
		fputc(')', f);
	}
}

static char *
canonstr(const Ast *a)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		ir_die("open_memstream failed");
	canon(f, a);
	fclose(f);
	return buf;
}

/* ---------------------------------------------------------------- 4. bindings */

typedef enum BindKind { BK_NODE, BK_ATTR, BK_REST } BindKind;

typedef struct Bound {
	const char *name;
	BindKind kind;
	const Ast *at;          /* BK_NODE: the pattern bound (A_NAME: any node);
	                           BK_ATTR, BK_REST: the call or tuple */
	int attr;               /* BK_ATTR: the attribute index */
	Loc loc;
} Bound;

typedef struct Env {
	Bound *v;
	uint32_t n, cap;
	NameMap idx;            /* name -> index in v */
} Env;

static const Bound *
envfind(const Env *e, const char *name)
{
	uint32_t i = dsl_map_get(&e->idx, name);
	return i == UINT32_MAX ? NULL : &e->v[i];
}

static void
envadd(Check *c, Env *e, const char *name, BindKind k, const Ast *at, int attr, Loc loc)
{
	const Bound *old = envfind(e, name);

	if (old) {
		if (old->kind != k || k == BK_REST)
			ir_error(c->d, loc, "'%s' is bound twice, as different kinds of thing", name);
		return;     /* a repeated node or attribute name: an equality test */
	}
	ir_vgrow(&e->v, &e->cap, e->n + 1);
	e->v[e->n].name = name;
	e->v[e->n].kind = k;
	e->v[e->n].at = at;
	e->v[e->n].attr = attr;
	e->v[e->n].loc = loc;
	dsl_map_put(&e->idx, name, e->n);
	e->n++;
}

/* bindings: the names variant a binds, into e */
static void
bindings(Check *c, const Ast *a, Env *e)
{
	switch (a->kind) {
	case A_NAME:
		envadd(c, e, a->s, BK_NODE, a, 0, a->loc);
		return;
	case A_BIND:
		envadd(c, e, a->s, BK_NODE, a->kid[0], 0, a->loc);
		bindings(c, a->kid[0], e);
		return;
	case A_REST:
		if (a->s)
			envadd(c, e, a->s, BK_REST, a, 0, a->loc);
		return;
	case A_CALL:
		for (uint32_t i = 0; i < a->nkid; i++) {
			const Ast *k = a->kid[i];
			if (k->kind == A_ATTR && k->kid[0]->kind == A_NAME && a->op)
				envadd(c, e, k->kid[0]->s, BK_ATTR, a, ir_op_attr_index(a->op, k->s, strlen(k->s)), k->loc);
			else if (k->kind != A_ATTR)
				bindings(c, k, e);
		}
		return;
	case A_TYPED:
		bindings(c, a->kid[0], e);
		return;
	case A_DOM:
		bindings(c, a->kid[2], e);
		bindings(c, a->kid[0], e);
		return;
	default:
		for (uint32_t i = 0; i < a->nkid; i++)
			if (a->kid[i])
				bindings(c, a->kid[i], e);
	}
}

/* ---------------------------------------------------------------- 5. guards and results */

static const char *const vnames[] = {
	"an error", "an integer", "a float", "a boolean", "a string", "a list", "None",
	"an attribute value", "a node", "a list of nodes",
};

static int
numeric(VType t)
{
	return t == V_INT || t == V_FLOAT || t == V_ANY;
}

/* attrvtype: the guard type of attribute field k of op */
static VType
attrvtype(OpId op, int k)
{
	int t = AT_TYPE(ir_ops[op].attrs[k].type);
	if (t & AT_OPT)
		return V_ANY;
	switch (t) {
	case AT_INT: return V_INT;
	case AT_FLOAT: return V_FLOAT;
	case AT_BOOL: return V_BOOL;
	case AT_STR: case AT_DTYPE: return V_STR;
	case AT_INTS: case AT_INTS2: return V_LIST;
	default: return V_ANY;
	}
}

typedef struct Scope {
	Env *envs;              /* one per variant */
	uint32_t n;
	const char *where;      /* "guard" or "result" */
} Scope;

/* lookup: check that name is bound, the same way, in every variant */
static const Bound *
lookup(Check *c, const Scope *s, const char *name, Loc loc)
{
	const Bound *first = NULL;
	uint32_t hits = 0;

	for (uint32_t i = 0; i < s->n; i++) {
		const Bound *b = envfind(&s->envs[i], name);
		if (!b)
			continue;
		hits++;
		if (!first)
			first = b;
		else if (b->kind != first->kind)
			ir_error(c->d, loc, "'%s' is bound to different kinds of thing in different alternatives", name);
	}
	if (!hits)
		ir_error(c->d, loc, "'%s' is used in the %s but never bound", name, s->where);
	else if (hits < s->n)
		ir_error(c->d, loc, "'%s' is used in the %s but not bound in every alternative of the pattern", name, s->where);
	return hits == s->n ? first : NULL;
}

/* callop: the op of the call bound to name in every variant, or 0 */
static OpId
callop(Check *c, const Scope *s, const char *name, Loc loc)
{
	OpId op = 0;

	for (uint32_t i = 0; i < s->n; i++) {
		const Bound *b = envfind(&s->envs[i], name);
		const Ast *at = b ? b->at : NULL;
		while (at && at->kind == A_TYPED)
			at = at->kid[0];
		if (!b || b->kind != BK_NODE || !at || at->kind != A_CALL || !at->op) {
			ir_error(c->d, loc, "'%s' is not bound to an op call in every alternative, so it has no attributes", name);
			return 0;
		}
		if (op && at->op != op) {
			ir_error(c->d, loc, "'%s' is bound to %s in one alternative and %s in another", name,
			         ir_ops[op].name, ir_ops[at->op].name);
			return 0;
		}
		op = at->op;
	}
	return op;
}

static VType expr(Check *c, const Scope *s, Ast *a);

/* nodearg: check a builtin's argument names a bound node */
static int
nodearg(Check *c, const Scope *s, const Ast *a, const char *fn)
{
	const Bound *b;

	if (a->kind != A_NAME) {
		ir_error(c->d, a->loc, "%s() takes a name bound by the pattern", fn);
		return 0;
	}
	b = lookup(c, s, a->s, a->loc);
	if (b && b->kind != BK_NODE) {
		ir_error(c->d, a->loc, "%s() takes a node; '%s' is %s", fn, a->s,
		         b->kind == BK_ATTR ? "an attribute value" : "a list of nodes");
		return 0;
	}
	return b != NULL;
}

static const struct Builtin {
	const char *name;
	VType ret;
	int nargs;
} builtins[] = {
	{ "dtype", V_STR, 1 }, { "rank", V_INT, 1 }, { "shape", V_LIST, 1 },
	{ "numel", V_INT, 1 }, { "value", V_FLOAT, 1 }, { "splat", V_FLOAT, 1 },
	{ "is_const", V_BOOL, 1 },
	{ "is_scalar", V_BOOL, 1 }, { "is_splat", V_BOOL, 1 }, { "present", V_BOOL, 1 }, { "len", V_INT, 1 },
	{ "uses", V_INT, 1 }, { "floor", V_FLOAT, 1 }, { "log2", V_FLOAT, 1 },
	{ "exp2", V_FLOAT, 1 },
};

/* guardcall: type a call in a guard: builtin, extern predicate */
static VType
guardcall(Check *c, const Scope *s, Ast *a)
{
	const Extern *e;

	for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++) {
		if (strcmp(a->s, builtins[i].name) != 0)
			continue;
		if ((int)a->nkid != builtins[i].nargs) {
			ir_error(c->d, a->loc, "%s() takes %d argument", a->s, builtins[i].nargs);
			return V_BAD;
		}
		if (strcmp(a->s, "present") == 0) {
			/* present(x): x may be unbound in some variants */
			uint32_t hits = 0;
			if (a->kid[0]->kind != A_NAME) {
				ir_error(c->d, a->kid[0]->loc, "present() takes a name bound by the pattern");
				return V_BAD;
			}
			for (uint32_t v = 0; v < s->n; v++)
				hits += envfind(&s->envs[v], a->kid[0]->s) != NULL;
			if (!hits)
				ir_error(c->d, a->kid[0]->loc, "'%s' is never bound", a->kid[0]->s);
			return V_BOOL;
		}
		if (strcmp(a->s, "floor") == 0 || strcmp(a->s, "log2") == 0 || strcmp(a->s, "exp2") == 0) {
			VType t = expr(c, s, a->kid[0]);
			if (!numeric(t) && t != V_BAD && t != V_ANY)
				ir_error(c->d, a->kid[0]->loc, "%s() takes a number, not %s", a->s, vnames[t]);
			return V_FLOAT;
		}
		if (strcmp(a->s, "len") == 0) {
			const Bound *b = a->kid[0]->kind == A_NAME ? lookup(c, s, a->kid[0]->s, a->kid[0]->loc) : NULL;
			if (!b || b->kind != BK_REST) {
				if (b || a->kid[0]->kind != A_NAME)
					ir_error(c->d, a->kid[0]->loc, "len() takes a name bound with '...'");
				return V_BAD;
			}
			return V_INT;
		}
		return nodearg(c, s, a->kid[0], a->s) ? builtins[i].ret : V_BAD;
	}
	if ((e = findext(c, a->s))) {
		((Extern *)e)->used = 1;
		if (e->action) {
			ir_error(c->d, a->loc, "%s is an extern action, not a predicate", a->s);
			return V_BAD;
		}
		if (a->nkid != e->nparams) {
			ir_error(c->d, a->loc, "extern pred %s takes %u argument%s, not %u", a->s, e->nparams,
			         e->nparams == 1 ? "" : "s", a->nkid);
			return V_BAD;
		}
		for (uint32_t i = 0; i < a->nkid; i++)
			if (!nodearg(c, s, a->kid[i], a->s))
				return V_BAD;
		return V_BOOL;
	}
	if (ir_op_lookup(a->s, strlen(a->s)))
		ir_error(c->d, a->loc, "an op call builds a node: it belongs in a result, not a guard");
	else
		ir_error(c->d, a->loc, "unknown function '%s' (builtins: dtype, rank, shape, numel, value, "
		         "splat, is_const, is_scalar, is_splat, present, len; or declare it with 'extern pred')", a->s);
	return V_BAD;
}

static VType expr1(Check *c, const Scope *s, Ast *a);

/* expr: type a guard expression, and remember the type in the AST */
static VType
expr(Check *c, const Scope *s, Ast *a)
{
	VType t = expr1(c, s, a);
	a->vt = (uint8_t)t;
	return t;
}

static VType
expr1(Check *c, const Scope *s, Ast *a)
{
	switch (a->kind) {
	case A_INT: return V_INT;
	case A_FLOAT: return V_FLOAT;
	case A_STR: return V_STR;
	case A_BOOL: return V_BOOL;
	case A_NONE: return V_NONE;
	case A_LIST:
		for (uint32_t i = 0; i < a->nkid; i++)
			if (!numeric(expr(c, s, a->kid[i])))
				ir_error(c->d, a->kid[i]->loc, "list elements in guards are numbers");
		return V_LIST;
	case A_NAME: {
		const char *dot = strchr(a->s, '.');
		const Bound *b;
		if (dot) {
			/* r.attr */
			char *base = (char *)dsl_strdup(c->r, a->s, (size_t)(dot - a->s));
			OpId op;
			int k;
			if (strchr(dot + 1, '.')) {
				ir_error(c->d, a->loc, "'%s' is not a name or name.attribute", a->s);
				return V_BAD;
			}
			if (!lookup(c, s, base, a->loc) || !(op = callop(c, s, base, a->loc)))
				return V_BAD;
			k = ir_op_attr_index(op, dot + 1, strlen(dot + 1));
			if (k < 0) {
				int sg = ir_op_attr_suggest(op, dot + 1, strlen(dot + 1));
				if (sg >= 0)
					ir_error(c->d, a->loc, "%s has no attribute '%s'; did you mean '%s'?", ir_ops[op].name, dot + 1, ir_ops[op].attrs[sg].name);
				else
					ir_error(c->d, a->loc, "%s has no attribute '%s'", ir_ops[op].name, dot + 1);
				return V_BAD;
			}
			return attrvtype(op, k);
		}
		if (!(b = lookup(c, s, a->s, a->loc)))
			return V_BAD;
		if (b->kind == BK_ATTR)
			return attrvtype(b->at->op, b->attr);
		return b->kind == BK_NODE ? V_NODE : V_REST;
	}
	case A_CALL:
		return guardcall(c, s, a);
	case A_UNOP: {
		VType t = expr(c, s, a->kid[0]);
		if (a->i == '!' && t != V_BOOL && t != V_BAD && t != V_ANY)
			ir_error(c->d, a->loc, "'!' takes a boolean, not %s", vnames[t]);
		if (a->i == '-' && !numeric(t) && t != V_BAD)
			ir_error(c->d, a->loc, "'-' takes a number, not %s", vnames[t]);
		return a->i == '!' ? V_BOOL : t;
	}
	case A_INDEX: {
		VType t = expr(c, s, a->kid[0]), i = expr(c, s, a->kid[1]);
		if (t != V_LIST && t != V_ANY && t != V_BAD)
			ir_error(c->d, a->loc, "only lists can be indexed, not %s", vnames[t]);
		if (i != V_INT && i != V_ANY && i != V_BAD)
			ir_error(c->d, a->kid[1]->loc, "an index is an integer, not %s", vnames[i]);
		return V_ANY;
	}
	case A_BINOP: {
		VType x = expr(c, s, a->kid[0]), y = expr(c, s, a->kid[1]);
		if (x == V_BAD || y == V_BAD)
			return a->i == T_ANDAND || a->i == T_OROR || a->i == T_EQ || a->i == T_NE ||
			       a->i == '<' || a->i == '>' || a->i == T_LE || a->i == T_GE ? V_BOOL : V_BAD;
		switch (a->i) {
		case T_ANDAND: case T_OROR:
			if ((x != V_BOOL && x != V_ANY) || (y != V_BOOL && y != V_ANY))
				ir_error(c->d, a->loc, "'%s' takes booleans, not %s and %s", a->i == T_ANDAND ? "&&" : "||", vnames[x], vnames[y]);
			return V_BOOL;
		case T_EQ: case T_NE:
			if (x == V_NODE || y == V_NODE || x == V_REST || y == V_REST)
				ir_error(c->d, a->loc, "nodes are compared by matching them with one name in the pattern, not with '=='");
			else if (!(x == y || x == V_ANY || y == V_ANY || x == V_NONE || y == V_NONE || (numeric(x) && numeric(y))))
				ir_error(c->d, a->loc, "cannot compare %s with %s", vnames[x], vnames[y]);
			return V_BOOL;
		case '<': case '>': case T_LE: case T_GE:
			if (!numeric(x) || !numeric(y))
				ir_error(c->d, a->loc, "ordering compares numbers, not %s and %s", vnames[x], vnames[y]);
			return V_BOOL;
		default:
			if (!numeric(x) || !numeric(y)) {
				ir_error(c->d, a->loc, "arithmetic takes numbers, not %s and %s", vnames[x], vnames[y]);
				return V_BAD;
			}
			if (a->i == '%' && (x == V_FLOAT || y == V_FLOAT))
				ir_error(c->d, a->loc, "'%%' takes integers");
			return x == V_FLOAT || y == V_FLOAT ? V_FLOAT : (x == V_ANY || y == V_ANY ? V_ANY : V_INT);
		}
	}
	default:
		ir_error(c->d, a->loc, "this cannot appear in a guard");
		return V_BAD;
	}
}

/* ---------------------------------------------------------------- forms with code */

/* attrfield: the attribute field guard expression a reads (r.attr, or a
** name bound to an attribute), or NULL; quiet: a was typed without errors,
** so the first variant answers for all */
static const AttrField *
attrfield(const Scope *s, const Ast *a)
{
	const char *dot;
	const Bound *b;

	if (a->kind != A_NAME || !s->n)
		return NULL;
	if ((dot = strchr(a->s, '.'))) {
		char *base = ir_xmalloc((size_t)(dot - a->s) + 1);
		const Ast *at = NULL;
		int k;
		memcpy(base, a->s, (size_t)(dot - a->s));
		base[dot - a->s] = 0;
		if ((b = envfind(&s->envs[0], base)) && b->kind == BK_NODE)
			at = b->at;
		free(base);
		while (at && at->kind == A_TYPED)
			at = at->kid[0];
		if (!at || at->kind != A_CALL || !at->op)
			return NULL;
		k = ir_op_attr_index(at->op, dot + 1, strlen(dot + 1));
		return k >= 0 ? &ir_ops[at->op].attrs[k] : NULL;
	}
	b = envfind(&s->envs[0], a->s);
	return b && b->kind == BK_ATTR && b->attr >= 0 && b->at->op ? &ir_ops[b->at->op].attrs[b->attr] : NULL;
}

static int
iscall(const Ast *a, const char *name)
{
	return a->kind == A_CALL && strcmp(a->s, name) == 0;
}

static void gforms(Check *c, const Scope *s, const Ast *a);

/* cforms: gforms for x == y (or !=), as dsl/emit.c's compare() has code:
** a string with dtype(x) or a dtype attribute (the string a dtype), or
** with another attribute; None with an attribute; a list with shape(x) or
** an attribute; anything else as numbers */
static void
cforms(Check *c, const Scope *s, const Ast *x, const Ast *y)
{
	const AttrField *f;

	if (x->kind == A_STR || x->kind == A_LIST || x->kind == A_NONE) {
		const Ast *t = x;
		x = y;
		y = t;
	}
	if (y->kind == A_STR) {
		if (iscall(x, "dtype") || ((f = attrfield(s, x)) && (AT_TYPE(f->type) & ~AT_OPT) == AT_DTYPE)) {
			DType dt = ir_dtype_parse(y->s, strlen(y->s));
			if (dt == DT_COUNT || dt == DT_VOID)
				ir_error(c->d, y->loc, "\"%s\" is not a dtype", y->s);
		} else if (!attrfield(s, x)) {
			ir_error(c->d, x->loc, "a string compares with dtype(x) or a string attribute");
		}
	} else if (y->kind == A_NONE) {
		if (!attrfield(s, x))
			ir_error(c->d, x->loc, "only an attribute can be None");
	} else if (y->kind == A_LIST) {
		for (uint32_t i = 0; i < y->nkid; i++)
			gforms(c, s, y->kid[i]);
		if (!iscall(x, "shape") && !attrfield(s, x))
			ir_error(c->d, x->loc, "a list compares with shape(x) or a list attribute");
	} else if (!(attrfield(s, x) && (f = attrfield(s, y)) && AT_TYPE(f->type) != AT_INT &&
	           AT_TYPE(f->type) != AT_FLOAT && AT_TYPE(f->type) != AT_BOOL)) {
		gforms(c, s, x);
		gforms(c, s, y);
	}
}

/* gforms: report what in guard expression a (typed without errors) the
** generated code cannot evaluate, exactly as dsl/guards.c's guard() does:
** strings, lists and None only in comparisons, shape(x) only compared with
** a list or indexed, only shape(x) and attributes indexed.  dsl_check so
** reports, among its other errors, every error dsl_guards (which the
** emitter and interp/ run) could. */
static void
gforms(Check *c, const Scope *s, const Ast *a)
{
	switch (a->kind) {
	case A_INT: case A_FLOAT: case A_BOOL: case A_NAME:
		return;
	case A_UNOP:
		gforms(c, s, a->kid[0]);
		return;
	case A_INDEX:
		if (!iscall(a->kid[0], "shape") && !attrfield(s, a->kid[0])) {
			ir_error(c->d, a->loc, "only shape(x) and list attributes can be indexed");
			return;
		}
		gforms(c, s, a->kid[1]);
		return;
	case A_BINOP:
		if (a->i == T_EQ || a->i == T_NE) {
			cforms(c, s, a->kid[0], a->kid[1]);
		} else {
			gforms(c, s, a->kid[0]);
			gforms(c, s, a->kid[1]);
		}
		return;
	case A_CALL:
		if (iscall(a, "shape"))
			ir_error(c->d, a->loc, "shape(x) is compared with a list or indexed");
		if ((iscall(a, "floor") || iscall(a, "log2") || iscall(a, "exp2")) && a->nkid == 1)
			gforms(c, s, a->kid[0]);
		return;     /* builtins and predicates take names */
	default:
		ir_error(c->d, a->loc, "this cannot be evaluated in a guard");
	}
}

/* aforms: gforms for the value v of attribute k of op in a result, as
** dsl/emit.c's setattr() has code: an attribute of the match, a number for
** a number, a literal (a list of at most 64 literals) */
static void
aforms(Check *c, const Scope *s, OpId op, int k, const Ast *v)
{
	int t = AT_TYPE(ir_ops[op].attrs[k].type);
	AttrVal lit;

	if (attrfield(s, v))
		return;
	if (t == AT_INT || t == AT_BOOL || t == AT_FLOAT) {
		gforms(c, s, v);
		return;
	}
	if ((t == AT_DTYPE || t == AT_STR) && v->kind == A_STR)
		return;
	if (v->kind == A_LIST && !litattr(c->r, v, &lit))
		ir_error(c->d, v->loc, "a list for attribute '%s' of %s holds only literals, 64 at most",
		         ir_ops[op].attrs[k].name, ir_ops[op].name);
	else if (v->kind != A_INT && v->kind != A_FLOAT && v->kind != A_STR && v->kind != A_BOOL &&
	         v->kind != A_NONE && v->kind != A_LIST)
		ir_error(c->d, v->loc, "cannot compute attribute '%s' of %s from this expression",
		         ir_ops[op].attrs[k].name, ir_ops[op].name);
}

DType
dsl_scalar_ctor(const char *name)
{
	DType dt = ir_dtype_parse(name, strlen(name));
	return dt == DT_VOID ? DT_COUNT : dt;
}
#define scalarctor dsl_scalar_ctor

/* result: check a result expression that must build or name a node */
static void
result(Check *c, const Scope *s, Ast *a, int top)
{
	switch (a->kind) {
	case A_FOLD:
		if (a->nkid)
			result(c, s, a->kid[0], 0);     /* fold_const(R): anywhere */
		else if (!top)
			ir_error(c->d, a->loc, "fold_const is a whole result, not a part of one; "
			         "fold_const(R) evaluates a result R");
		return;
	case A_INT: case A_FLOAT: case A_BOOL:
		return;     /* a scalar constant */
	case A_NAME: {
		const Bound *b;
		if (strchr(a->s, '.')) {
			ir_error(c->d, a->loc, "'%s' is an attribute value; a result argument is a node "
			         "(use a constructor such as float32(%s) for a constant)", a->s, a->s);
			return;
		}
		b = lookup(c, s, a->s, a->loc);
		if (b && b->kind != BK_NODE)
			ir_error(c->d, a->loc, "'%s' is %s, not a node", a->s,
			         b->kind == BK_ATTR ? "an attribute value" : "a list of nodes (write it inside a tuple: (%s...))");
		return;
	}
	case A_TUPLE:
		for (uint32_t i = 0; i < a->nkid; i++) {
			Ast *k = a->kid[i];
			if (k->kind == A_REST) {
				const Bound *b = k->s ? lookup(c, s, k->s, k->loc) : NULL;
				if (!k->s)
					ir_error(c->d, k->loc, "'...' in a result needs a name bound with '...'");
				else if (b && b->kind != BK_REST)
					ir_error(c->d, k->loc, "'%s' was not bound with '...'", k->s);
			} else {
				result(c, s, k, 0);
			}
		}
		return;
	case A_GETITEM:
		if (a->i < 0)
			ir_error(c->d, a->loc, "'._' matches any field: a result names the field it builds");
		result(c, s, a->kid[0], 0);
		return;
	case A_CALL: {
		OpId op = ir_op_lookup(a->s, strlen(a->s));
		const Extern *e;
		DType dt = scalarctor(a->s);
		if (op && undeclared(c, a, op))
			return;
		if (op) {
			uint32_t n = 0;
			a->op = op;
			for (uint32_t i = 0; i < a->nkid; i++) {
				Ast *k = a->kid[i];
				if (k->kind == A_ATTR) {
					int kk = ir_op_attr_index(op, k->s, strlen(k->s));
					if (callattr(c, op, k, 1) && kk >= 0) {
						AttrVal v;
						if (!litattr(c->r, k->kid[0], &v)) {
							int before = c->d->errors;
							VType t = expr(c, s, k->kid[0]), want = attrvtype(op, kk);
							if (t != V_BAD && t != want && t != V_ANY && want != V_ANY &&
							    !(want == V_FLOAT && t == V_INT))
								ir_error(c->d, k->kid[0]->loc, "attribute '%s' of %s is %s, not %s",
								         k->s, a->s, vnames[want], vnames[t]);
							else if (c->d->errors == before)
								aforms(c, s, op, kk, k->kid[0]);
						}
					}
				} else if (k->kind == A_ATTRS) {
					OpId from;
					if (lookup(c, s, k->s, k->loc) && (from = callop(c, s, k->s, k->loc)) && from != op)
						ir_error(c->d, k->loc, "attrs(%s) copies the attributes of %s, not of %s",
						         k->s, ir_ops[from].name, a->s);
				} else if (k->kind == A_REST) {
					ir_error(c->d, k->loc, "'...' is not an argument of a result; write a tuple");
				} else {
					result(c, s, k, 0);
					n++;
				}
			}
			dupattrs(c, a);
			if ((int)n != ir_ops[op].nargs)
				ir_error(c->d, a->loc, "%s takes %d argument%s, not %u", a->s, ir_ops[op].nargs,
				         ir_ops[op].nargs == 1 ? "" : "s", n);
			for (int k = 0; k < ir_ops[op].nattrs; k++) {
				int given = 0;
				if (ir_ops[op].attrs[k].deflt)
					continue;
				for (uint32_t i = 0; i < a->nkid; i++)
					if ((a->kid[i]->kind == A_ATTR && strcmp(a->kid[i]->s, ir_ops[op].attrs[k].name) == 0) ||
					    a->kid[i]->kind == A_ATTRS)
						given = 1;
				if (!given)
					ir_error(c->d, a->loc, "%s requires attribute '%s'", a->s, ir_ops[op].attrs[k].name);
			}
			return;
		}
		if (dt != DT_COUNT) {
			VType t;
			int before;
			if (a->nkid != 1) {
				ir_error(c->d, a->loc, "%s(...) takes one number", a->s);
				return;
			}
			before = c->d->errors;
			t = expr(c, s, a->kid[0]);
			if (!numeric(t) && t != V_BOOL && t != V_BAD)
				ir_error(c->d, a->kid[0]->loc, "%s(...) takes a number, not %s", a->s, vnames[t]);
			else if (c->d->errors == before)
				gforms(c, s, a->kid[0]);
			return;
		}
		if ((e = findext(c, a->s))) {
			((Extern *)e)->used = 1;
			if (!e->action) {
				ir_error(c->d, a->loc, "%s is an extern predicate, not an action", a->s);
				return;
			}
			if (!top)
				ir_error(c->d, a->loc, "an extern action is a whole result, not a part of one");
			if (a->nkid != e->nparams)
				ir_error(c->d, a->loc, "extern action %s takes %u argument%s, not %u", a->s, e->nparams,
				         e->nparams == 1 ? "" : "s", a->nkid);
			for (uint32_t i = 0; i < a->nkid; i++)
				nodearg(c, s, a->kid[i], a->s);
			return;
		}
		unknownop(c, a, "op or action");
		return;
	}
	default:
		ir_error(c->d, a->loc, "a result is a node: a name, an op call, a tuple, a constant, "
		         "fold_const or an extern action");
	}
}

/* ---------------------------------------------------------------- 6. rule sets */

/* repeated: 1 if variant a uses some name twice (an equality constraint);
** seen holds the names met so far */
static int
repeated(const Ast *a, NameMap *seen)
{
	const char *name = NULL;

	if (a->kind == A_NAME || a->kind == A_BIND || (a->kind == A_REST && a->s))
		name = a->s;
	if (a->kind == A_ATTR && a->kid[0]->kind == A_NAME)
		name = a->kid[0]->s;
	if (name) {
		if (dsl_map_get(seen, name) != UINT32_MAX)
			return 1;
		dsl_map_put(seen, name, 0);
	}
	if (a->kind == A_ATTR)
		return 0;
	for (uint32_t i = 0; i < a->nkid; i++)
		if (a->kid[i] && !(a->kind == A_TYPED && i == 1) && repeated(a->kid[i], seen))
			return 1;
	return 0;
}

static int sameast(const Ast *a, const Ast *b);

/* attrof: the value AST of attribute `name` among a call's arguments */
static const Ast *
attrof(const Ast *call, const char *name)
{
	for (uint32_t i = 0; i < call->nkid; i++)
		if (call->kid[i]->kind == A_ATTR && strcmp(call->kid[i]->s, name) == 0)
			return call->kid[i]->kid[0];
	return NULL;
}

/* sameast: 1 if a and b have the same canonical text; literals (what it
** compares: attribute values, dims) without writing it */
static int
sameast(const Ast *a, const Ast *b)
{
	char *x, *y;
	int same;

	if (a->kind == b->kind)
		switch (a->kind) {
		case A_INT: return a->i == b->i && a->dtype == b->dtype;
		case A_FLOAT: return a->f == b->f && signbit(a->f) == signbit(b->f) && a->dtype == b->dtype;
		case A_STR: return strcmp(a->s, b->s) == 0;
		case A_BOOL: return !a->i == !b->i;
		case A_NONE: case A_ANY: return 1;
		case A_LIST:
			if (a->nkid != b->nkid)
				return 0;
			for (uint32_t i = 0; i < a->nkid; i++)
				if (!sameast(a->kid[i], b->kid[i]))
					return 0;
			return 1;
		default:
			break;
		}
	x = canonstr(a);
	y = canonstr(b);
	same = strcmp(x, y) == 0;
	free(x);
	free(y);
	return same;
}

/* subsumes: 1 if pattern a (with no repeated names) matches everything b
** matches; a sound, incomplete test.  Each call adds one to *work. */
/* -Wshadowed-dtype: subsumes() with a's dtype constraints set aside
** (loose), and the dtypes it set aside */
static int loose, nloosedt;
static DType loosedt[8];

static int
subsumes(const Ast *a, const Ast *b, uint64_t *work)
{
	++*work;
	if (loose && a->kind == A_TYPED && a->dtype != DT_COUNT && !(b->kind == A_TYPED && b->dtype == a->dtype)) {
		/* -Wshadowed-dtype: a's constraint set aside, and noted */
		if (nloosedt < 8)
			loosedt[nloosedt++] = (DType)a->dtype;
		return subsumes(a->kid[0], b->kind == A_TYPED ? b->kid[0] : b, work);
	}
	if (a->kind == A_ANY || a->kind == A_NAME || a->kind == A_REST)
		return 1;
	if (a->kind == A_BIND)
		return subsumes(a->kid[0], b, work);
	if (b->kind == A_BIND)
		return subsumes(a, b->kid[0], work);
	if (a->kind == A_TYPED)
		return b->kind == A_TYPED && a->dtype == b->dtype &&
		       (!a->kid[1] || (b->kid[1] && sameast(a->kid[1], b->kid[1]))) &&
		       subsumes(a->kid[0], b->kid[0], work);
	if (b->kind == A_TYPED)
		return subsumes(a, b->kid[0], work);
	if (a->kind != b->kind)
		return 0;
	switch (a->kind) {
	case A_CONST:
		return !a->nkid || (b->nkid && sameast(a->kid[0], b->kid[0]));
	case A_VAR:
		return !a->s || (b->s && strcmp(a->s, b->s) == 0);
	case A_GETITEM:
		return (a->i < 0 || a->i == b->i) && subsumes(a->kid[0], b->kid[0], work);
	case A_CALL:
	case A_TUPLE: {
		uint32_t i = 0, j = 0;
		if (a->kind == A_CALL && a->op != b->op)
			return 0;
		for (uint32_t k = 0; k + 1 < a->nkid; k++)
			if (a->kid[k]->kind == A_REST)
				return 0;       /* (xs..., last): not compared */
		for (uint32_t k = 0; k + 1 < b->nkid; k++)
			if (b->kid[k]->kind == A_REST)
				return 0;
		/* positional arguments pairwise; a's rest covers what is left */
		for (;;) {
			while (i < a->nkid && a->kid[i]->kind == A_ATTR)
				i++;
			while (j < b->nkid && b->kid[j]->kind == A_ATTR)
				j++;
			if (i == a->nkid || j == b->nkid)
				break;
			if (a->kid[i]->kind == A_REST)
				break;
			if (b->kid[j]->kind == A_REST)
				return 0;
			if (!subsumes(a->kid[i], b->kid[j], work))
				return 0;
			i++;
			j++;
		}
		if (!(i < a->nkid && a->kid[i]->kind == A_REST)) {
			/* no rest in a: both lists must end together */
			while (j < b->nkid && b->kid[j]->kind == A_ATTR)
				j++;
			if (i < a->nkid || j < b->nkid)
				return 0;
		}
		if (a->kind == A_CALL)
			for (uint32_t k = 0; k < a->nkid; k++) {
				const Ast *v = a->kid[k], *w;
				if (v->kind != A_ATTR || v->kid[0]->kind == A_NAME)
					continue;
				w = attrof(b, v->s);
				if (!w || !sameast(v->kid[0], w))
					return 0;
			}
		return 1;
	}
	default:
		return 0;
	}
}

static const char *const kindname[] = { "rule", "composite", "supports" };

/* shadowed: -Wshadowed-dtype: rule b is hidden by the earlier unconditional
** a for the dtypes a's type constraints name (a hides b once they are set
** aside); those dtypes into dts, their count returned (0: no) */
static int
shadowed(const Rule *a, const Rule *b, uint64_t *work, DType *dts)
{
	int n = 0;

	loose = 1;
	for (uint32_t j = 0; j < b->nvariants; j++)
		for (uint32_t i = 0; i < a->nvariants; i++) {
			nloosedt = 0;
			if (subsumes(a->variants[i].pat, b->variants[j].pat, work) && nloosedt)
				for (int k = 0; k < nloosedt && n < 8; k++) {
					int dup = 0;
					for (int q = 0; q < n; q++)
						dup |= dts[q] == loosedt[k];
					if (!dup)
						dts[n++] = loosedt[k];
				}
		}
	loose = 0;
	return n;
}

/* hasfold: 1 if result a evaluates something (fold_const), which may fail */
static int
hasfold(const Ast *a)
{
	if (!a || a->kind == A_FOLD)
		return a != NULL;
	for (uint32_t i = 0; i < a->nkid; i++)
		if (a->kid[i] && a->kind != A_ATTR && hasfold(a->kid[i]))
			return 1;
	return 0;
}

/* nesteddom: 1 if pattern a holds a dominates() anywhere but at its top */
static int
nesteddom(const Ast *a, int top)
{
	if (a->kind == A_DOM && !top)
		return 1;
	for (uint32_t i = 0; i < a->nkid; i++)
		if (a->kid[i] && nesteddom(a->kid[i], 0))
			return 1;
	return 0;
}

/* argname: the name pattern part a binds (x, x:P), or NULL */
static const char *
argname(const Ast *a)
{
	while (a->kind == A_TYPED)
		a = a->kid[0];
	return a->kind == A_NAME || a->kind == A_BIND ? a->s : NULL;
}

/* swapped: 1 if pattern part a holds a commuted call (a variant graftc
** made, tried after the pattern as written) */
static int
swapped(const Ast *a)
{
	if (a->flags & AF_SWAPPED)
		return 1;
	for (uint32_t i = 0; i < a->nkid; i++)
		if (a->kid[i] && swapped(a->kid[i]))
			return 1;
	return 0;
}

/* rebuilds: 1 if result res is the node pattern pat matched: the name of
** its root, or a call of the root's op with the root's operands, named as
** the pattern names them, in their places (names taken as distinct
** values, as subsumes() takes them) */
static int
rebuilds(const Ast *pat, const Ast *res)
{
	const Ast *p = pat;
	uint32_t i = 0, j = 0;

	if (!dsl_may_unchange(pat, res))
		return 0;
	if (res->kind == A_NAME)
		return 1;
	while (p->kind == A_TYPED || p->kind == A_BIND)
		p = p->kid[0];
	if (res->kind != A_CALL)
		return 0;
	for (; i < res->nkid && j < p->nkid; i++, j++) {
		const char *n;
		while (j < p->nkid && p->kid[j]->kind == A_ATTR)
			j++;
		if (res->kid[i]->kind == A_ATTR || res->kid[i]->kind == A_ATTRS)
			break;
		if (j == p->nkid || !(n = argname(p->kid[j])) || res->kid[i]->kind != A_NAME ||
		    strcmp(res->kid[i]->s, n) != 0)
			return 0;
	}
	return 1;
}

/* unconditional: 1 if a rule fires whenever its pattern matches (a
** result that can be the matched node itself is no rewrite there) */
static int
unconditional(const Rule *ru)
{
	const Ast *res = ru->result;
	int action = res && res->kind == A_CALL && !res->op && scalarctor(res->s) == DT_COUNT;
	if (ru->guard || hasfold(res) || action)
		return 0;
	for (uint32_t i = 0; res && i < ru->nvariants; i++)
		if (!swapped(ru->variants[i].pat) && rebuilds(ru->variants[i].pat, res))
			return 0;
	return 1;
}

/* repeats: 1 if some variant of rule a uses a name twice */
static int
repeats(const Rule *a)
{
	for (uint32_t i = 0; i < a->nvariants; i++) {
		NameMap seen = { 0 };
		int rep = repeated(a->variants[i].pat, &seen);
		dsl_map_free(&seen);
		if (rep)
			return 1;
	}
	return 0;
}

/* hides: 1 if every variant of b is matched by some variant of a, which
** uses no name twice; adds the work done to *work */
static int
hides(const Rule *a, const Rule *b, uint64_t *work)
{
	for (uint32_t j = 0; j < b->nvariants; j++) {
		int covered = 0;
		for (uint32_t i = 0; i < a->nvariants && !covered; i++)
			covered = subsumes(a->variants[i].pat, b->variants[j].pat, work);
		if (!covered)
			return 0;
	}
	return 1;
}

/* ---------------------------------------------------------------- static dtypes */

/* litdtype: the dtype a literal attribute value names, or DT_COUNT */
static DType
litdtype(const Ast *v)
{
	DType dt;
	if (!v || v->kind != A_STR)
		return DT_COUNT;
	dt = ir_dtype_parse(v->s, strlen(v->s));
	return dt == DT_VOID ? DT_COUNT : dt;
}

static DType pdtype(const Ast *a, const Scope *s, uint32_t variant);

/* calldtype: the dtype of a call, from its attributes or its first operand */
static DType
calldtype(const Ast *a, const Scope *s, uint32_t variant)
{
	const Ast *v;
	int f;

	switch (a->op) {
	case OP_CAST: case OP_ANNOTATION_CAST_HINT:
		return a->op == OP_CAST ? litdtype(attrof(a, "dtype")) : DT_COUNT;
	case OP_QNN_QUANTIZE: case OP_QNN_REQUANTIZE: case OP_QNN_DEQUANTIZE:
	case OP_NN_CONV2D: case OP_NN_DENSE: case OP_NN_CONV2D_TRANSPOSE: case OP_NN_BATCH_MATMUL:
	case OP_QNN_CONV2D: case OP_QNN_DENSE:
		v = attrof(a, "out_dtype");
		if (v)
			return litdtype(v);
		if (a->op == OP_QNN_DEQUANTIZE)
			return DT_FLOAT32;
		if (a->op == OP_QNN_CONV2D || a->op == OP_QNN_DENSE)
			return DT_INT32;    /* graft's default for an empty out_dtype */
		return DT_COUNT;
	default:
		break;
	}
	if (!(ir_ops[a->op].flags & (OPF_ELEM | OPF_ANNOT)) && a->op != OP_NN_PAD && a->op != OP_NN_BIAS_ADD &&
	    a->op != OP_RESHAPE && a->op != OP_TRANSPOSE && a->op != OP_SQUEEZE && a->op != OP_EXPAND_DIMS &&
	    a->op != OP_STRIDED_SLICE && a->op != OP_NN_MAX_POOL2D && a->op != OP_NN_AVG_POOL2D &&
	    a->op != OP_NN_SOFTMAX && a->op != OP_NN_BATCH_FLATTEN)
		return DT_COUNT;
	f = firstpos(a, 0);
	return f >= 0 && a->kid[f]->kind != A_REST ? pdtype(a->kid[f], s, variant) : DT_COUNT;
}

/* pdtype: the dtype a pattern or result node has, if known statically */
static DType
pdtype(const Ast *a, const Scope *s, uint32_t variant)
{
	switch (a->kind) {
	case A_TYPED:
		return a->dtype != DT_COUNT ? (DType)a->dtype : pdtype(a->kid[0], s, variant);
	case A_BIND:
		return pdtype(a->kid[0], s, variant);
	case A_CALL:
		if (a->op) {
			/* attrs(r) in a result: r's attributes decide */
			for (uint32_t i = 0; i < a->nkid; i++)
				if (a->kid[i]->kind == A_ATTRS && !attrof(a, "out_dtype") && !attrof(a, "dtype") && s) {
					const Bound *b = envfind(&s->envs[variant], a->kid[i]->s);
					if (b && b->kind == BK_NODE)
						return pdtype(b->at, NULL, 0);
				}
			return calldtype(a, s, variant);
		}
		return scalarctor(a->s);
	case A_INT: case A_FLOAT:
		return (DType)a->dtype;
	case A_BOOL:
		return DT_BOOL;
	case A_FOLD:
		return a->nkid ? pdtype(a->kid[0], s, variant) : DT_COUNT;
	case A_NAME:
		if (s) {
			const Bound *b = envfind(&s->envs[variant], a->s);
			if (b && b->kind == BK_NODE && b->at != a)
				return pdtype(b->at, NULL, 0);
		}
		return DT_COUNT;
	default:
		return DT_COUNT;
	}
}

/* ---------------------------------------------------------------- rules */

/* accepted: whether every op call in result a takes its first operand's
** dtype where variant v of scope s gives it statically (ir_op_accepts,
** the rule every backend runs by); 0 after reporting the first that does
** not */
static int
accepted(Check *c, const Ast *a, const Scope *s, uint32_t v)
{
	const char *why;

	for (uint32_t i = 0; i < a->nkid; i++)
		if (a->kid[i]->kind != A_ATTR && a->kid[i]->kind != A_ATTRS && !accepted(c, a->kid[i], s, v))
			return 0;
	if (a->kind != A_CALL || !a->op || a->op >= OP_COUNT)
		return 1;
	for (uint32_t i = 0; i < a->nkid; i++) {
		DType dt;
		if (a->kid[i]->kind == A_ATTR || a->kid[i]->kind == A_ATTRS)
			continue;
		dt = pdtype(a->kid[i], s, v);
		if (dt != DT_COUNT && (why = ir_op_accepts(a->op, dt))) {
			ir_error(c->d, a->loc, "no backend runs %s %s, and its operand here is %s", ir_ops[a->op].name,
			         why, ir_dtype_names[dt]);
			return 0;
		}
		break;
	}
	return 1;
}

/* prioritycmp: priority order (higher first), then file order */
static int
prioritycmp(const void *x, const void *y)
{
	const Rule *a = x, *b = y;
	if (a->prio != b->prio)
		return a->prio > b->prio ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

/* litrange: report integer literals that do not fit their dtype (1000i8) */
static void
litrange(Check *c, const Ast *a)
{
	if (!a)
		return;
	if (a->kind == A_INT && a->dtype != DT_INT64) {
		int64_t lo = 0, hi = 0;
		switch (a->dtype) {
		case DT_INT8: lo = INT8_MIN; hi = INT8_MAX; break;
		case DT_UINT8: hi = UINT8_MAX; break;
		case DT_INT16: lo = INT16_MIN; hi = INT16_MAX; break;
		case DT_UINT16: hi = UINT16_MAX; break;
		case DT_INT32: lo = INT32_MIN; hi = INT32_MAX; break;
		case DT_UINT32: hi = UINT32_MAX; break;
		default: lo = INT64_MIN; hi = INT64_MAX; break;
		}
		if (a->i < lo || a->i > hi)
			ir_error(c->d, a->loc, "literal %lld does not fit in %s", (long long)a->i, ir_dtype_names[a->dtype]);
	}
	for (uint32_t i = 0; i < a->nkid; i++)
		litrange(c, a->kid[i]);
}

/* checkrule: steps 2-5 for one rule */
static void
checkrule(Check *c, Rule *ru)
{
	Alts alts = { 0 };
	Scope s;
	int before = c->d->errors;

	c->rule = ru;
	c->toomany = 0;
	c->toobig = 0;
	c->budget = MAXNODES;
	if (toodeep(ru->pat, 0) || (ru->guard && toodeep(ru->guard, 0)) || (ru->result && toodeep(ru->result, 0))) {
		ir_error(c->d, ru->loc, "rule '%s' is nested more than %d levels deep", ru->name, MAXDEPTH);
		return;
	}
	{
		int lits = c->d->errors;
		litrange(c, ru->pat);
		litrange(c, ru->guard);
		litrange(c, ru->result);
		if (c->d->errors != lits)
			return;
	}
	unusedbindings(c, ru);
	{
		int v;
		if (ru->guard && known(ru->guard, &v)) {
			const Ast *g = ru->guard;
			while ((g->kind == A_BINOP || g->kind == A_INDEX) && g->nkid)
				g = g->kid[0];  /* where the guard starts */
			warn(c, W_CONSTANT_GUARD, g->loc, v ? "this guard is always true: leave it out" :
			     "this guard is always false: the rule can never fire");
		}
	}
	ru->pat = expandpats(c, ru->pat, 0);
	if (ru->guard)
		ru->guard = expandpats(c, ru->guard, 0);
	if (c->toobig) {
		if (c->toobig == 2)
			ir_error(c->d, ru->loc, "rule '%s' is nested more than %d levels deep once its named patterns "
			         "are expanded", ru->name, MAXDEPTH);
		else
			ir_error(c->d, ru->loc, "rule '%s' grows by more than %d nodes when its named patterns "
			         "are expanded", ru->name, MAXNODES);
		return;
	}
	resolve(c, ru->pat);
	if (ru->pat->kind == A_NAME || ru->pat->kind == A_ANY || ru->pat->kind == A_CONST || ru->pat->kind == A_VAR)
		ir_error(c->d, ru->pat->loc, "a rule's pattern must have an op, a tuple or a projection at its root");
	if (c->d->errors != before)
		return;
	expand(c, ru->pat, &alts);
	if (c->toomany) {
		ir_error(c->d, ru->loc, "rule '%s' expands into more than %d variants "
		         "(alternatives times commutative operand orders)", ru->name, MAXVARIANTS);
		free(alts.v);
		return;
	}
	/* dsl_compile files each variant under its root: every one needs an op,
	   a tuple or a projection there (x:_, a | f(b) or f?(x) have not) */
	for (uint32_t i = 0; i < alts.n; i++) {
		const Ast *root = dsl_root(alts.v[i]);
		if (nesteddom(alts.v[i], 1)) {
			ir_error(c->d, ru->pat->loc, "dominates() stands for a whole pattern: it is the root of the "
			         "pattern, unnamed, or nowhere");
			free(alts.v);
			return;
		}
		if (ru->kind == RK_SUPPORTS && root->kind != A_CALL) {
			ir_error(c->d, ru->pat->loc, "a 'supports' entry names one op: its pattern must have a call of "
			         "that op at its root, in every alternative");
			free(alts.v);
			return;
		}
		if (ru->kind == RK_COMPOSITE && hasrec(alts.v[i])) {
			/* what a composite outlines is what its pattern names node
			   by node; a recursive pattern's nodes are matched as data */
			ir_error(c->d, ru->pat->loc, "composite '%s' uses a pattern that uses itself: composites do not "
			         "yet; use it in a rule or a supports entry", ru->name);
			free(alts.v);
			return;
		}
		if (root->kind == A_ANYCALL && ru->kind != RK_COMPOSITE) {
			/* a rule's match() stops at the first rule that fires, in
			   priority order, one root op at a time; a composite's
			   reports every match, so any op can root one */
			ir_error(c->d, root->loc, "a rule's pattern must have an op at its root, not _(...): a call of any "
			         "op roots composites only");
			free(alts.v);
			return;
		}
		if (root->kind != A_CALL && root->kind != A_TUPLE && root->kind != A_GETITEM && root->kind != A_CALLFN &&
		    root->kind != A_ANYCALL) {
			ir_error(c->d, root->loc, "a %s pattern must have an op, a tuple, a projection or a call at its "
			         "root, in every alternative", ru->kind == RK_COMPOSITE ? "composite's" : "rule's");
			free(alts.v);
			return;
		}
	}
	/* drop duplicate variants: add(x, x) is its own swap.  Each variant's
	   text is made once and compared only when the hashes agree, so this
	   stays linear in the size of the variants. */
	ru->variants = ir_arena_alloc(&c->r->arena, (alts.n ? alts.n : 1) * sizeof *ru->variants);
	ru->nvariants = 0;
	{
		char **text = ir_xcalloc(alts.n ? alts.n : 1, sizeof *text);
		uint64_t *hash = ir_xcalloc(alts.n ? alts.n : 1, sizeof *hash);
		for (uint32_t i = 0; i < alts.n; i++) {
			int dup = 0;
			text[i] = canonstr(alts.v[i]);
			hash[i] = 1469598103934665603u;     /* FNV-1a */
			for (const char *p = text[i]; *p; p++)
				hash[i] = (hash[i] ^ (unsigned char)*p) * 1099511628211u;
			for (uint32_t j = 0; j < i && !dup; j++)
				dup = text[j] && hash[j] == hash[i] && strcmp(text[j], text[i]) == 0;
			if (dup) {
				free(text[i]);
				text[i] = NULL;     /* compare with the kept ones only */
			} else {
				ru->variants[ru->nvariants++].pat = alts.v[i];
			}
		}
		for (uint32_t i = 0; i < alts.n; i++)
			free(text[i]);
		free(text);
		free(hash);
	}
	free(alts.v);

	s.n = ru->nvariants;
	s.envs = ir_xcalloc(s.n, sizeof *s.envs);
	for (uint32_t i = 0; i < s.n; i++)
		bindings(c, ru->variants[i].pat, &s.envs[i]);
	if (ru->guard) {
		VType t;
		int gbefore = c->d->errors;
		s.where = "guard";
		t = expr(c, &s, ru->guard);
		if (t != V_BOOL && t != V_BAD && t != V_ANY)
			ir_error(c->d, ru->guard->loc, "a guard is a boolean, not %s", vnames[t]);
		else if (c->d->errors == gbefore)
			gforms(c, &s, ru->guard);
	}
	s.where = "result";
	if (ru->result)
		result(c, &s, ru->result, 1);
	/* the result's dtype must agree with the matched value's */
	if (c->d->errors == before && ru->result && !(ru->result->kind == A_FOLD && !ru->result->nkid))
		for (uint32_t v = 0; v < s.n; v++) {
			DType want = pdtype(ru->variants[v].pat, &s, v), got = pdtype(ru->result, &s, v);
			if (want != DT_COUNT && got != DT_COUNT && want != got) {
				ir_error(c->d, ru->result->loc, "the result has dtype %s, but what it replaces has dtype %s",
				         ir_dtype_names[got], ir_dtype_names[want]);
				break;
			}
		}
	/* and every op it builds must take its operand's dtype */
	if (c->d->errors == before && ru->result)
		for (uint32_t v = 0; v < s.n && !accepted(c, ru->result, &s, v); v++)
			;
	for (uint32_t i = 0; i < s.n; i++) {
		free(s.envs[i].v);
		dsl_map_free(&s.envs[i].idx);
	}
	free(s.envs);
}

int
dsl_check(Rules *r)
{
	Check c;
	int before = r->d->errors;
	Rule *sorted;
	NameMap rules = { 0 };
	uint32_t first;

	memset(&c, 0, sizeof c);
	c.r = r;
	c.d = r->d;
	/* names are looked up through maps: checking stays linear in the
	   number of rules, patterns and externs */
	for (uint32_t i = 0; i < r->npats; i++) {
		if ((first = dsl_map_get(&c.pats, r->pats[i].name)) != UINT32_MAX) {
			ir_error(r->d, r->pats[i].loc, "pattern %s is defined twice", r->pats[i].name);
			ir_note(r->d, r->pats[first].loc, "first defined here");
		} else {
			dsl_map_put(&c.pats, r->pats[i].name, i);
		}
	}
	for (uint32_t i = 0; i < r->npats; i++)
		if (ir_op_lookup(r->pats[i].name, strlen(r->pats[i].name)))
			ir_error(r->d, r->pats[i].loc, "pattern %s has the name of an op", r->pats[i].name);
	for (uint32_t i = 0; i < r->nexts; i++) {
		/* the name goes into C: graft_pred_NAME, graft_action_NAME */
		if (strchr(r->exts[i].name, '.'))
			ir_error(r->d, r->exts[i].loc, "extern %s: the name of an extern is a C identifier, with no '.'",
			         r->exts[i].name);
		if ((first = dsl_map_get(&c.exts, r->exts[i].name)) != UINT32_MAX) {
			ir_error(r->d, r->exts[i].loc, "extern %s is declared twice", r->exts[i].name);
			ir_note(r->d, r->exts[first].loc, "first declared here");
		} else {
			dsl_map_put(&c.exts, r->exts[i].name, i);
		}
	}
	for (uint32_t i = 0; i < r->nrules; i++) {
		if (!r->target && r->rules[i].kind != RK_RULE) {
			ir_error(r->d, r->rules[i].loc, "'%s' belongs in a target table, a file that starts with "
			         "'target \"NAME\"'", r->rules[i].kind == RK_COMPOSITE ? "composite" : "supports");
			continue;
		}
		if (r->rules[i].kind == RK_SUPPORTS) {
			/* named after their op: several may share it */
		} else if ((first = dsl_map_get(&rules, r->rules[i].name)) != UINT32_MAX) {
			ir_error(r->d, r->rules[i].loc, "%s '%s' is defined twice", kindname[r->rules[i].kind], r->rules[i].name);
			ir_note(r->d, r->rules[first].loc, "first defined here");
		} else {
			dsl_map_put(&rules, r->rules[i].name, i);
		}
		checkrule(&c, &r->rules[i]);
	}
	dsl_map_free(&rules);
	dsl_map_free(&c.pats);
	dsl_map_free(&c.exts);
	if (r->d->errors != before)
		return r->d->errors - before;

	/* priority order, then: is any rule hidden by an earlier one? */
	if (r->nrules) {
		sorted = ir_xmalloc(r->nrules * sizeof *sorted);
		memcpy(sorted, r->rules, r->nrules * sizeof *sorted);
		qsort(sorted, r->nrules, sizeof *sorted, prioritycmp);
		memcpy(r->rules, sorted, r->nrules * sizeof *sorted);
		free(sorted);
	}
	for (uint32_t i = 0; i < r->nrules; i++)
		r->rules[i].index = i;
	/* report in file order; the rules that can hide others are the
	   unconditional ones with no name used twice (hiders, in priority
	   order); past MAXHIDEWORK the test stops */
	{
		uint32_t *hiders = ir_xcalloc(r->nrules ? r->nrules : 1, sizeof *hiders), nhiders = 0;
		uint32_t *at = ir_xcalloc(r->nrules ? r->nrules : 1, sizeof *at);
		uint64_t work = 0;
		for (uint32_t i = 0; i < r->nrules; i++) {
			if (unconditional(&r->rules[i]) && !repeats(&r->rules[i]))
				hiders[nhiders++] = i;
			at[r->rules[i].order] = i;
		}
		for (uint32_t o = 0; o < r->nrules && work < MAXHIDEWORK; o++) {
			uint32_t j = at[o];
			for (uint32_t h = 0; h < nhiders && hiders[h] < j && work < MAXHIDEWORK; h++) {
				uint32_t i = hiders[h];
				const Rule *a = &r->rules[i], *b = &r->rules[j];
				if (a->kind != b->kind || !hides(a, b, &work))
					continue;
				if (b->kind == RK_RULE)
					ir_error(r->d, b->loc, "rule '%s' can never fire: rule '%s' matches everything it matches and is tried first",
					         b->name, a->name);
				else if (b->kind == RK_COMPOSITE)
					ir_error(r->d, b->loc, "composite '%s' can never match: composite '%s' matches everything it "
					         "matches and is tried first (list '%s' first, or give it a higher priority, to "
					         "try it before '%s')", b->name, a->name, b->name, a->name);
				else
					ir_error(r->d, b->loc, "this 'supports' entry adds nothing: an earlier one without a guard "
					         "accepts every %s it accepts", b->name);
				ir_note(r->d, a->loc, "%s '%s' is here", kindname[a->kind], a->name);
				break;
			}
			/* hidden for some dtypes only */
			for (uint32_t h = 0; h < nhiders && hiders[h] < j && work < MAXHIDEWORK && (r->warn & W_SHADOWED_DTYPE); h++) {
				const Rule *a = &r->rules[hiders[h]], *b = &r->rules[j];
				DType dts[8];
				int n;
				if (a->kind != b->kind || b->kind == RK_SUPPORTS || hides(a, b, &work) ||
				    !(n = shadowed(a, b, &work, dts)))
					continue;
				{
					char msg[512];
					size_t k = (size_t)snprintf(msg, sizeof msg, "%s '%s' never %s for ", kindname[b->kind], b->name,
					                            b->kind == RK_RULE ? "fires" : "matches");
					for (int q = 0; q < n && k < sizeof msg; q++)
						k += (size_t)snprintf(msg + k, sizeof msg - k, "%s%s", q ? (q + 1 == n ? " or " : ", ") : "",
						                      ir_dtype_names[dts[q]]);
					if (k < sizeof msg)
						snprintf(msg + k, sizeof msg - k, ": %s '%s', tried first, takes those", kindname[a->kind],
						         a->name);
					warn(&c, W_SHADOWED_DTYPE, b->loc, msg);
				}
				break;
			}
		}
		free(hiders);
		free(at);
	}
	for (uint32_t i = 0; i < r->npats; i++)
		if (!r->pats[i].used) {
			char msg[256];
			snprintf(msg, sizeof msg, "pattern %s is never used", r->pats[i].name);
			warn(&c, W_UNUSED_PATTERN, r->pats[i].loc, msg);
		}
	for (uint32_t i = 0; i < r->nincludes; i++)
		if (!fileused(r, r->includes[i].file, 0)) {
			char msg[512];
			snprintf(msg, sizeof msg, "nothing '%s' holds is used: no rule, and no pattern or extern a rule uses",
			         r->m->files[r->includes[i].file]);
			warn(&c, W_UNUSED_INCLUDE, r->includes[i].loc, msg);
		}
	return r->d->errors - before;
}

int
dsl_may_unchange(const Ast *pat, const Ast *res)
{
	const Ast *p = pat;
	while (p->kind == A_TYPED || p->kind == A_BIND) {
		if (p->kind == A_BIND && res->kind == A_NAME && strcmp(p->s, res->s) == 0)
			return 1;
		p = p->kid[0];
	}
	switch (res->kind) {
	case A_CALL: return res->op && p->kind == A_CALL && p->op == res->op;
	case A_TUPLE: return p->kind == A_TUPLE;
	case A_GETITEM: return p->kind == A_GETITEM;
	default: return 0;
	}
}

const Ast *
dsl_root(const Ast *a)
{
	while (a->kind == A_BIND || a->kind == A_TYPED || a->kind == A_DOM)
		a = a->kind == A_DOM ? a->kid[2] : a->kid[0];
	return a;
}
