/*
** guards.c: dsl_guards, the pass that finds what in a rule's guard or
** result generated code cannot evaluate, as the C emitter would write it:
** strings, lists and None only in comparisons (a string with dtype(x) or
** a string attribute, a list with shape(x) or a list attribute, None with
** an attribute), shape(x) only compared with a list or indexed, only
** shape(x) and list attributes indexed, a dtype string that names a dtype,
** and a result's attribute values each something code can compute (a
** list of literals, at most 64).
**
** It runs after dsl_compile, on each rule's variants as the emitter sees
** them (a name is an attribute through the variant's binds), so that
** dsl_emit, which calls it first, and a .rules file loaded at run time
** (interp/), which calls it instead of emitting C, report the same
** errors.  dsl_check reports these forms from the AST already; this pass
** is what the code is written from, so nothing dsl_check let through
** reaches the emitter.  Changes nothing but the Diag.
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile.h"
#include "rules.tab.h"

/* G: the pass's state: the rule and variant being checked, and the errors
** reported for the rule so far (another variant repeats none of them) */
typedef struct G {
	Rules *r;
	const Variant *var;
	struct { Loc loc; const char *msg; } *seen;
	uint32_t nseen, capseen;
	int errors;
} G;

/* bad: report msg at loc, unless an earlier variant of the rule did */
static void
bad(G *g, Loc loc, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	for (uint32_t i = 0; i < g->nseen; i++)
		if (g->seen[i].loc.file == loc.file && g->seen[i].loc.line == loc.line &&
		    g->seen[i].loc.col == loc.col && strcmp(g->seen[i].msg, msg) == 0)
			return;
	ir_vgrow(&g->seen, &g->capseen, g->nseen + 1);
	g->seen[g->nseen].loc = loc;
	g->seen[g->nseen++].msg = dsl_strdup(g->r, msg, strlen(msg));
	ir_error(g->r->d, loc, "%s", msg);
	g->errors++;
}

/* dsl_attrref: see dsl.h */
const Bind *
dsl_attrref(const Variant *var, const Ast *a, int *k, OpId *op)
{
	const char *dot;
	const Bind *b = NULL;
	size_t n;

	if (a->kind != A_NAME)
		return NULL;
	dot = strchr(a->s, '.');
	n = dot ? (size_t)(dot - a->s) : strlen(a->s);
	for (uint32_t i = 0; i < var->nbinds && !b; i++)
		if (strlen(var->binds[i].name) == n && memcmp(var->binds[i].name, a->s, n) == 0)
			b = &var->binds[i];
	if (!b)
		return NULL;
	if (dot && b->kind == 0 && b->op) {
		*op = b->op;
		*k = ir_op_attr_index(b->op, dot + 1, strlen(dot + 1));
		return *k >= 0 ? b : NULL;
	}
	if (!dot && b->kind == 1) {
		const Ast *at = b->at;
		while (at->kind == A_TYPED || at->kind == A_BIND)
			at = at->kid[0];
		*op = at->op;
		*k = b->attr;
		return b;
	}
	return NULL;
}

/* attrref: 1 if a is an attribute of the variant's (dsl_attrref) */
static int
attrref(const G *g, const Ast *a, int *k, OpId *op)
{
	return dsl_attrref(g->var, a, k, op) != NULL;
}

static int iscall(const Ast *a, const char *name) { return a->kind == A_CALL && strcmp(a->s, name) == 0; }

static void guard(G *g, const Ast *a);

/* compare: x == y (or !=), as emit.c's compare() has code for it */
static void
compare(G *g, const Ast *x, const Ast *y)
{
	int k, k2;
	OpId op, op2;

	if (x->kind == A_STR || x->kind == A_LIST || x->kind == A_NONE) {
		const Ast *t = x;
		x = y;
		y = t;
	}
	if (y->kind == A_STR) {
		if (iscall(x, "dtype") ||
		    (attrref(g, x, &k, &op) && (AT_TYPE(ir_ops[op].attrs[k].type) & ~AT_OPT) == AT_DTYPE)) {
			DType dt = ir_dtype_parse(y->s, strlen(y->s));
			if (dt == DT_COUNT || dt == DT_VOID)
				bad(g, y->loc, "\"%s\" is not a dtype", y->s);
			guard(g, x);
		} else if (!attrref(g, x, &k, &op)) {
			bad(g, x->loc, "a string compares with dtype(x) or a string attribute");
		}
	} else if (y->kind == A_NONE) {
		if (!attrref(g, x, &k, &op))
			bad(g, x->loc, "only an attribute can be None");
	} else if (y->kind == A_LIST) {
		for (uint32_t i = 0; i < y->nkid; i++)
			guard(g, y->kid[i]);
		if (!iscall(x, "shape") && !attrref(g, x, &k, &op))
			bad(g, x->loc, "a list compares with shape(x) or a list attribute");
	} else if (!(attrref(g, x, &k, &op) && attrref(g, y, &k2, &op2) && AT_TYPE(ir_ops[op2].attrs[k2].type) != AT_INT &&
	             AT_TYPE(ir_ops[op2].attrs[k2].type) != AT_FLOAT && AT_TYPE(ir_ops[op2].attrs[k2].type) != AT_BOOL)) {
		guard(g, x);
		guard(g, y);
	}
}

/* guard: a guard expression, as emit.c's gexpr() has code for it */
static void
guard(G *g, const Ast *a)
{
	int k;
	OpId op;

	switch (a->kind) {
	case A_INT: case A_FLOAT: case A_BOOL: case A_NAME:
		return;
	case A_UNOP:
		guard(g, a->kid[0]);
		return;
	case A_INDEX:
		if (iscall(a->kid[0], "shape") || attrref(g, a->kid[0], &k, &op))
			guard(g, a->kid[1]);
		else
			bad(g, a->loc, "only shape(x) and list attributes can be indexed");
		return;
	case A_BINOP:
		if (a->i == T_EQ || a->i == T_NE) {
			compare(g, a->kid[0], a->kid[1]);
		} else {
			guard(g, a->kid[0]);
			guard(g, a->kid[1]);
		}
		return;
	case A_CALL:
		if (iscall(a, "floor") || iscall(a, "log2") || iscall(a, "exp2"))
			guard(g, a->kid[0]);
		else if (iscall(a, "shape"))
			bad(g, a->loc, "shape(x) is compared with a list or indexed");
		return;     /* the other builtins and predicates take names */
	default:
		bad(g, a->loc, "this cannot be evaluated in a guard");
	}
}

/* islit: 1 if a is a literal, a list of at most 64 literals included */
static int
islit(const Ast *a)
{
	if (a->kind == A_LIST) {
		if (a->nkid > 64)
			return 0;
		for (uint32_t i = 0; i < a->nkid; i++)
			if (!islit(a->kid[i]))
				return 0;
		return 1;
	}
	return a->kind == A_INT || a->kind == A_FLOAT || a->kind == A_STR || a->kind == A_BOOL || a->kind == A_NONE;
}

/* attrval: value a of attribute k of op in a result, as emit.c's
** setattr() has code for it (a list: a literal one) */
static void
attrval(G *g, OpId op, int k, const Ast *a)
{
	int t = AT_TYPE(ir_ops[op].attrs[k].type), k2;
	OpId op2;

	if (attrref(g, a, &k2, &op2))
		return;
	if (t == AT_INT || t == AT_BOOL || t == AT_FLOAT) {
		guard(g, a);
		return;
	}
	if ((t == AT_DTYPE || t == AT_STR) && a->kind == A_STR)
		return;
	if (a->kind == A_LIST && !islit(a))
		bad(g, a->loc, "a list for attribute '%s' of %s holds only literals, 64 at most", ir_ops[op].attrs[k].name,
		    ir_ops[op].name);
	else if (!islit(a) && a->kind != A_LIST)
		bad(g, a->loc, "cannot compute attribute '%s' of %s from this expression", ir_ops[op].attrs[k].name,
		    ir_ops[op].name);
}

/* result: a result expression, as emit.c's rexpr() builds it */
static void
result(G *g, const Ast *a)
{
	switch (a->kind) {
	case A_FOLD:
		if (a->nkid)
			result(g, a->kid[0]);
		return;
	case A_GETITEM:
		result(g, a->kid[0]);
		return;
	case A_TUPLE:
		for (uint32_t i = 0; i < a->nkid; i++)
			if (a->kid[i]->kind != A_REST)
				result(g, a->kid[i]);
		return;
	case A_CALL:
		if (a->op) {
			/* the operands, then the attributes (rcall()) */
			for (uint32_t i = 0; i < a->nkid; i++)
				if (a->kid[i]->kind != A_ATTR && a->kid[i]->kind != A_ATTRS)
					result(g, a->kid[i]);
			for (uint32_t i = 0; ir_ops[a->op].nattrs && i < a->nkid; i++)
				if (a->kid[i]->kind == A_ATTR)
					attrval(g, a->op, ir_op_attr_index(a->op, a->kid[i]->s, strlen(a->kid[i]->s)),
					        a->kid[i]->kid[0]);
		} else if (dsl_scalar_ctor(a->s) != DT_COUNT) {
			guard(g, a->kid[0]);
		}
		return;     /* an extern action takes names */
	default:
		return;     /* names and numbers */
	}
}

int
dsl_guards(Rules *r)
{
	uint32_t *byorder = ir_xcalloc(r->nrules ? r->nrules : 1, sizeof *byorder);
	G g;

	memset(&g, 0, sizeof g);
	g.r = r;
	for (uint32_t i = 0; i < r->nrules; i++)
		byorder[r->rules[i].order] = i;
	/* in the file's order, each variant's guard and then its result */
	for (uint32_t i = 0; i < r->nrules; i++) {
		const Rule *ru = &r->rules[byorder[i]];
		g.nseen = 0;
		for (uint32_t v = 0; v < ru->nvariants; v++) {
			g.var = &ru->variants[v];
			if (ru->guard)
				guard(&g, ru->guard);
			if (ru->kind == RK_RULE)
				result(&g, ru->result);
		}
	}
	free(byorder);
	free(g.seen);
	return g.errors;
}
