/*
** emit.c: decision trees -> C.
**
** The output is first built as data, a list of lines each with an indent
** and possibly a #line marker, and then rendered in one pass that counts
** output lines, so that `#line` directives can point back both to the
** .rules file and to the generated file itself.  Everything is emitted in
** a fixed order (trees sorted by op name, rules in priority order, tables
** in order of first use), with no dates, versions or addresses, so the
** same .rules file always gives the same bytes.
**
** dsl_guards runs first and reports what in a guard or result code cannot
** evaluate; with none, every expression here has code (an internal error
** otherwise).
**
** Layout of a generated file: a DO NOT EDIT header, the rule, string and
** literal tables, one static function per root op, a dispatcher, and the
** exported `const graft_matcher graft_ruleset_NAME`.  The code speaks
** <graft/rules.h> and <graft/graph.h> alone (graft_ names), so that a
** plugin compiles it against the installed headers.
*/
#define _POSIX_C_SOURCE 200809L   /* open_memstream */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "compile.h"
#include "rules.tab.h"
#include "text.h"

typedef struct Line {
	int indent;
	const char *text;       /* NULL for a #line marker */
	const char *file;       /* marker: the .rules file as a C string literal,
	                           or NULL for "back" */
	uint32_t line;
} Line;

typedef struct Out {
	Line *v;
	uint32_t n, cap;
} Out;

typedef struct Emit {
	Rules *r;
	const EmitOpts *o;
	int hasrules;            /* rewrite rules: alone, or in a target table with its entries */
	Out tables, funcs;
	const char **strs; uint32_t nstrs, capstrs;
	const char **lits; uint32_t nlits, caplits;
	NameMap strmap, litmap;     /* text -> index in strs, lits */
	NameMap rpats;              /* recursive patterns whose tables are out */
	Out rtables;                /* their tables (rw_pat() data) */
	NameMap bound;              /* the leaf's variant: name -> its bind */
	NameMap names;          /* C names given out: strings, literals, rules */
	int usesm;              /* the current function reads the module */
	int usesv;              /* ... and the root */
	int usesmath;           /* the code calls <math.h>'s floor, fmod, ... */
	uint8_t usesop[IR_MAXOPS];  /* per op: the code names it (opname()) */
	uint32_t ntemp;
	/* the rule being emitted, and its variant as the function sees it */
	const Rule *rule;
	const Variant *var;
	int inplace;            /* its result may be built in place (ip_* parameters) */
	/* per rule (by index): the functions its variants call (RuleFn) */
	struct RuleFn **fns;    /* by Rule.order */
	const char **rids;      /* by Rule.order: the rules' C names */
	/* the tree being emitted, and the functions it is split into */
	const Tree *tree;
	struct Split *splits; uint32_t nsplits, capsplits;
	struct Split *shared; uint32_t nshared, capshared;   /* D_SHARED subtrees, and their calls */
	uint32_t cursplit;      /* the split being rendered */
} Emit;

/* A function made of a subtree: its name, its root, and the variables
** loaded before it, which it takes as parameters. */
typedef struct Split {
	const char *name;
	const DNode *d;
	const char **vars;
	uint32_t nvars;
	Out out;                /* the function, rendered */
	uint32_t *calls;        /* the splits it calls */
	uint32_t ncalls, capcalls;
	int done;               /* written out */
} Split;

/* ---------------------------------------------------------------- text */

static const char *
fmt(Emit *e, const char *f, ...)
	__attribute__((format(printf, 2, 3)));

/* Cat: a text built piece by piece in time linear in its length (fmt() of
** a growing string copies it every time: quadratic in the pieces). */
typedef struct Cat {
	FILE *f;            /* an open_memstream over buf */
	char *buf;
	size_t len;
} Cat;

static void
catinit(Cat *c)
{
	c->buf = NULL;
	c->len = 0;
	if (!(c->f = open_memstream(&c->buf, &c->len)))
		ir_die("open_memstream failed");
}

static void
catf(Cat *c, const char *f, ...)
	__attribute__((format(printf, 2, 3)));

static void
catf(Cat *c, const char *f, ...)
{
	va_list ap;

	va_start(ap, f);
	vfprintf(c->f, f, ap);
	va_end(ap);
}

/* catend: the text of c, in the arena; c is done */
static const char *
catend(Emit *e, Cat *c)
{
	const char *r;

	fclose(c->f);
	r = dsl_strdup(e->r, c->buf, c->len);
	free(c->buf);
	return r;
}

/* fmt: printf into a string in the arena */
static const char *
fmt(Emit *e, const char *f, ...)
{
	va_list ap;
	Cat c;

	catinit(&c);
	va_start(ap, f);
	vfprintf(c.f, f, ap);
	va_end(ap);
	return catend(e, &c);
}

/* printed: an AST printed in rules syntax, in the arena */
static const char *
printed(Emit *e, const Ast *a)
{
	Cat c;

	catinit(&c);
	dsl_print(c.f, a);
	return catend(e, &c);
}

static void
put(Out *o, int indent, const char *text)
{
	ir_vgrow(&o->v, &o->cap, o->n + 1);
	o->v[o->n].indent = indent;
	o->v[o->n].text = text;
	o->v[o->n].file = NULL;
	o->v[o->n].line = 0;
	o->n++;
}

static const char *cstr(Emit *e, const char *s);

/* mark: a #line to line of the .rules file `file`, or (NULL) back to the
** generated file; names are kept as C string literals */
static void
mark(Emit *e, Out *o, const char *file, uint32_t line)
{
	if (!e->o->lines)
		return;
	ir_vgrow(&o->v, &o->cap, o->n + 1);
	o->v[o->n].indent = 0;
	o->v[o->n].text = NULL;
	o->v[o->n].file = file ? cstr(e, file) : NULL;
	o->v[o->n].line = line;
	o->n++;
}

/* cname: an identifier from a name: dots and dashes become underscores */
static const char *
cname(Emit *e, const char *s)
{
	char *c = (char *)dsl_strdup(e->r, s, strlen(s));
	for (char *p = c; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
			*p = '_';
	return c;
}

/* cstr: a C string literal for s */
static const char *
cstr(Emit *e, const char *s)
{
	Cat c;
	FILE *f;

	catinit(&c);
	f = c.f;
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
			fprintf(f, "\\%03o", (unsigned char)*s);
		else if (*s == '?' && s[1] == '?')
			fputs("?\\", f);    /* no trigraphs */
		else
			fputc(*s, f);
	}
	fputc('"', f);
	return catend(e, &c);
}

/* cident: a C name for text, after prefix: its letters, digits and
** underscores (runs of anything else one underscore), at most MAXIDENT
** characters in all, with _2, _3, ... where another text took the name
** first */
enum { MAXIDENT = 63 };
static const char *
cident(Emit *e, const char *prefix, const char *text)
{
	char buf[MAXIDENT + 1];
	size_t n = strlen(prefix);
	const char *name;

	memcpy(buf, prefix, n);      /* prefixes are short: "R_", "S_", ... */
	for (const char *p = text; *p && n < MAXIDENT; p++) {
		int ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9');
		if (ok)
			buf[n++] = *p;
		else if (n && buf[n - 1] != '_')
			buf[n++] = '_';
	}
	while (n > strlen(prefix) && buf[n - 1] == '_')
		n--;
	if (n == strlen(prefix) && n) {
		memcpy(buf + n, "empty", 5);    /* "", "[]": nothing to name it by */
		n += 5;
	}
	buf[n] = 0;
	name = dsl_strdup(e->r, buf, n);
	for (uint32_t k = 2; dsl_map_get(&e->names, name) != UINT32_MAX; k++)
		name = fmt(e, "%s_%u", buf, k);
	dsl_map_put(&e->names, name, 0);
	return name;
}

/* strid: the C name of a string compared as an interned symbol */
static const char *
strid(Emit *e, const char *s)
{
	uint32_t i = dsl_map_get(&e->strmap, s);

	if (i != UINT32_MAX)
		return e->strs[2 * i];
	ir_vgrow(&e->strs, &e->capstrs, 2 * e->nstrs + 2);
	e->strs[2 * e->nstrs] = cident(e, "S_", s);
	e->strs[2 * e->nstrs + 1] = s;
	dsl_map_put(&e->strmap, s, e->nstrs);
	return e->strs[2 * e->nstrs++];
}

/* litid: the C name of an attribute literal, kept as Relay text */
static const char *
litid(Emit *e, const Ast *lit)
{
	const char *s = printed(e, lit);
	uint32_t i = dsl_map_get(&e->litmap, s);

	if (i != UINT32_MAX)
		return e->lits[2 * i];
	ir_vgrow(&e->lits, &e->caplits, 2 * e->nlits + 2);
	e->lits[2 * e->nlits] = cident(e, "L_", s);
	e->lits[2 * e->nlits + 1] = s;
	dsl_map_put(&e->litmap, s, e->nlits);
	return e->lits[2 * e->nlits++];
}

/* upper: prefix followed by name as an upper-case C identifier */
static const char *
upper(Emit *e, const char *prefix, const char *name)
{
	char *c = (char *)fmt(e, "%s%s", prefix, cname(e, name));

	for (char *p = c; *p; p++)
		if (*p >= 'a' && *p <= 'z')
			*p = (char)(*p - 'a' + 'A');
	return c;
}

/* dtname: the GRAFT_DT_ code of a dtype (<graft/kernel.h>), or 0 for
** none */
static const char *
dtname(Emit *e, int dt)
{
	if (dt <= DT_VOID || dt >= DT_COUNT)
		return "0";
	return upper(e, "GRAFT_DT_", ir_dtype_names[dt]);
}

/* opname: the name the generated code knows op by, its local id: LOP_
** and the op's name, XOP_ for a plugin's op (extern op).  The op goes into
** the file's table of ops, whose order gives the local ids (1, 2, ...),
** and which binds each by name to the op that has that name where the
** code runs (ir_rw_init()), so that code compiled here stays right where
** graft has other ops or numbers them otherwise. */
static const char *
opname(Emit *e, OpId op)
{
	e->usesop[op] = 1;
	return upper(e, op >= OP_COUNT ? "XOP_" : "LOP_", ir_ops[op].name);
}

/* opbuild: the op a result builds: its id where the code runs */
static const char *
opbuild(Emit *e, OpId op)
{
	return fmt(e, "graft_rw_gop(rw, %s)", opname(e, op));
}

/* opof: the op of node x as matching compares it, its local id */
static const char *
opof(Emit *e, const char *x)
{
	return fmt(e, "graft_rw_lop(rw, %s)", x);
}

static const char *
dbl(Emit *e, double v)
{
	char buf[64];
	ir_fmt_float(buf, sizeof buf, v, DT_FLOAT64);
	return fmt(e, "%s%s", buf, strpbrk(buf, ".en") ? "" : ".0");
}

/* ---------------------------------------------------------------- AST printing */

static void
printlist(FILE *f, Ast *const *v, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		if (i)
			fputs(", ", f);
		dsl_print(f, v[i]);
	}
}

static const char *
opstr(int op)
{
	switch (op) {
	case T_OROR: return "||";
	case T_ANDAND: return "&&";
	case T_EQ: return "==";
	case T_NE: return "!=";
	case T_LE: return "<=";
	case T_GE: return ">=";
	default: {
		static char s[2][2];
		static int k;
		k ^= 1;
		s[k][0] = (char)op;
		s[k][1] = 0;
		return s[k];
	}
	}
}

void
dsl_print_field(FILE *f, const Ast *a)
{
	if (a->i < 0)
		fputs("._", f);
	else
		fprintf(f, ".%lld", (long long)a->i);
}

void
dsl_print(FILE *f, const Ast *a)
{
	char buf[64];

	switch (a->kind) {
	case A_ANY: fputc('_', f); break;
	case A_CONST:
		fputs("const", f);
		if (a->nkid) {
			fputc('(', f);
			dsl_print(f, a->kid[0]);
			fputc(')', f);
		}
		break;
	case A_VAR: fprintf(f, a->s ? "var(\"%s\")" : "var", a->s); break;
	case A_NAME: fputs(a->s, f); break;
	case A_BIND: fprintf(f, "%s:", a->s); dsl_print(f, a->kid[0]); break;
	case A_CALL:
		fprintf(f, "%s%s(", a->s, (a->flags & AF_OPTIONAL) ? "?" : "");
		printlist(f, a->kid, a->nkid);
		fputc(')', f);
		break;
	case A_ALT:
		for (uint32_t i = 0; i < a->nkid; i++) {
			if (i)
				fputs(" | ", f);
			dsl_print(f, a->kid[i]);
		}
		break;
	case A_ANYCALL:
		fputs("_(", f);
		printlist(f, a->kid, a->nkid);
		if (a->i >= 0)
			fprintf(f, "%sTOpPattern=\"%s\"", a->nkid ? ", " : "", ir_op_kind_name((int)a->i));
		fputc(')', f);
		break;
	case A_DOM:
		fputs("dominates(", f);
		printlist(f, a->kid, 3);
		fputc(')', f);
		break;
	case A_FN:
		fputs("fn(", f);
		printlist(f, a->kid, a->nkid - 1);
		fputs(") { ", f);
		dsl_print(f, a->kid[a->nkid - 1]);
		fputs(" }", f);
		break;
	case A_CALLFN:
		fputs("call(", f);
		printlist(f, a->kid, a->nkid);
		fputc(')', f);
		break;
	case A_GLOBAL:
		fprintf(f, "global(\"%s\")", a->s);
		break;
	case A_REC: case A_RREF:
		fprintf(f, "%s()", a->s);       /* the named pattern, as written */
		break;
	case A_TUPLE:
		fputc('(', f);
		printlist(f, a->kid, a->nkid);
		fputs(a->nkid == 1 && a->kid[0]->kind != A_REST ? ",)" : ")", f);
		break;
	case A_GETITEM:
		dsl_print(f, a->kid[0]);
		dsl_print_field(f, a);
		break;
	case A_TYPED:
		dsl_print(f, a->kid[0]);
		fputc('<', f);
		if (a->kid[1]) {
			fputs("Tensor[(", f);
			for (uint32_t i = 0; i < a->kid[1]->nkid; i++) {
				if (i)
					fputs(", ", f);
				if (a->kid[1]->kid[i]->kind == A_INT)
					fprintf(f, "%lld", (long long)a->kid[1]->kid[i]->i);
				else
					fputc('_', f);
			}
			fprintf(f, "), %s]", a->dtype == DT_COUNT ? "_" : ir_dtype_names[a->dtype]);
		} else {
			fputs(a->dtype == DT_COUNT ? "_" : ir_dtype_names[a->dtype], f);
		}
		fputc('>', f);
		break;
	case A_REST: fprintf(f, "%s...", a->s ? a->s : ""); break;
	case A_ATTR: fprintf(f, "%s=", a->s); dsl_print(f, a->kid[0]); break;
	case A_ATTRS: fprintf(f, "attrs(%s)", a->s); break;
	case A_INT:
		fprintf(f, "%lld", (long long)a->i);
		if (a->dtype != DT_INT32)
			fprintf(f, "%c%s", ir_dtype_kind[a->dtype] == 'u' ? 'u' : 'i',
			        ir_dtype_names[a->dtype] + (ir_dtype_kind[a->dtype] == 'u' ? 4 : 3));
		break;
	case A_FLOAT:
		ir_fmt_float(buf, sizeof buf, a->f, a->dtype == DT_FLOAT32 ? DT_FLOAT32 : DT_FLOAT64);
		fprintf(f, "%sf%s", buf, a->dtype == DT_FLOAT32 ? "" : ir_dtype_names[a->dtype] + 5);
		break;
	case A_STR: fprintf(f, "\"%s\"", a->s); break;
	case A_BOOL: fputs(a->i ? "True" : "False", f); break;
	case A_NONE: fputs("None", f); break;
	case A_LIST: fputc('[', f); printlist(f, a->kid, a->nkid); fputc(']', f); break;
	case A_UNOP: fputs(opstr((int)a->i), f); dsl_print(f, a->kid[0]); break;
	case A_BINOP:
		fputc('(', f);
		dsl_print(f, a->kid[0]);
		fprintf(f, " %s ", opstr((int)a->i));
		dsl_print(f, a->kid[1]);
		fputc(')', f);
		break;
	case A_INDEX: dsl_print(f, a->kid[0]); fputc('[', f); dsl_print(f, a->kid[1]); fputc(']', f); break;
	case A_FOLD:
		fputs("fold_const", f);
		if (a->nkid) {
			fputc('(', f);
			dsl_print(f, a->kid[0]);
			fputc(')', f);
		}
		break;
	}
}

/* incomment: s as text safe inside a C comment: a '/' next to a '*'
** becomes '|' (one pass: linear, however many there are) */
static const char *
incomment(Emit *e, const char *s)
{
	size_t n = strlen(s);
	char *c = (char *)dsl_strdup(e->r, s, n);

	for (size_t i = 0; i < n; i++)
		if (s[i] == '/' && ((i > 0 && s[i - 1] == '*') || s[i + 1] == '*'))
			c[i] = '|';
	return c;
}

/* ---------------------------------------------------------------- guards */

/* findbind: the (first) bind of name in the variant being emitted */
static const Bind *
findbind(const Emit *e, const char *name)
{
	uint32_t i = dsl_map_get(&e->bound, name);
	return i == UINT32_MAX ? NULL : &e->var->binds[i];
}

/* attrref: for `r.attr` or an attribute-bound name, the call's variable and
** attribute index; 0 if a is not an attribute reference */
static int
attrref(Emit *e, const Ast *a, const char **var, int *k, OpId *op)
{
	const Bind *b = dsl_attrref(e->var, a, k, op);

	if (b)
		*var = b->var;
	return b != NULL;
}

static const char *
nodevar(Emit *e, const Ast *a)
{
	const Bind *b = a->kind == A_NAME ? findbind(e, a->s) : NULL;
	return b ? b->var : "0";
}

static const char *gexpr(Emit *e, const Ast *a);

/* isdtypeval: 1 if a's value is a dtype (dtype(x) or a dtype attribute) */
static int
isdtypeval(Emit *e, const Ast *a)
{
	const char *var;
	int k;
	OpId op;

	if (a->kind == A_CALL && strcmp(a->s, "dtype") == 0)
		return 1;
	return attrref(e, a, &var, &k, &op) && (AT_TYPE(ir_ops[op].attrs[k].type) & ~AT_OPT) == AT_DTYPE;
}

/* compare: a == b (or !=) where the sides may be strings, lists, None */
static const char *
compare(Emit *e, const Ast *x, const Ast *y, int ne)
{
	const char *var, *res = NULL;
	int k;
	OpId op;

	if (x->kind == A_STR || x->kind == A_LIST || x->kind == A_NONE) {
		const Ast *t = x;
		x = y;
		y = t;
	}
	if (y->kind == A_STR) {
		if (isdtypeval(e, x)) {
			DType dt = ir_dtype_parse(y->s, strlen(y->s));
			if (dt == DT_COUNT || dt == DT_VOID) {
				ir_die("emit: \"%s\" is not a dtype (dsl_guards let it through)", y->s);
			}
			res = fmt(e, "%s == %s", gexpr(e, x), dtname(e, dt));
		} else if (attrref(e, x, &var, &k, &op)) {
			e->usesm = 1;
			res = fmt(e, "graft_attr_s(m, %s, %d /* %s */) == graft_rw_sym(rw, %s)", var, k, ir_ops[op].attrs[k].name,
			          strid(e, y->s));
		} else {
			ir_die("emit: a string compared with a non-attribute (dsl_guards let it through)");
		}
	} else if (y->kind == A_NONE) {
		if (!attrref(e, x, &var, &k, &op)) {
			ir_die("emit: None compared with a non-attribute (dsl_guards let it through)");
		} else {
			e->usesm = 1;
			res = fmt(e, "graft_attr_isnone(m, %s, %d /* %s */)", var, k, ir_ops[op].attrs[k].name);
		}
	} else if (y->kind == A_LIST) {
		const char *vals;
		Cat cat;
		catinit(&cat);
		for (uint32_t i = 0; i < y->nkid; i++)
			catf(&cat, "%s%s", i ? ", " : "", gexpr(e, y->kid[i]));
		vals = catend(e, &cat);
		e->usesm = 1;
		if (x->kind == A_CALL && strcmp(x->s, "shape") == 0)
			res = fmt(e, "graft_shape_eq(m, %s, (const int64_t[]){ %s }, %u)", nodevar(e, x->kid[0]),
			          y->nkid ? vals : "0", y->nkid);
		else if (attrref(e, x, &var, &k, &op))
			res = fmt(e, "graft_attr_ints_eq(m, %s, %d /* %s */, (const int64_t[]){ %s }, %u)", var, k,
			          ir_ops[op].attrs[k].name, y->nkid ? vals : "0", y->nkid);
		else {
			ir_die("emit: a list compared with a non-attribute (dsl_guards let it through)");
		}
	} else if (attrref(e, x, &var, &k, &op) && attrref(e, y, &var, &k, &op) &&
	           AT_TYPE(ir_ops[op].attrs[k].type) != AT_INT && AT_TYPE(ir_ops[op].attrs[k].type) != AT_FLOAT &&
	           AT_TYPE(ir_ops[op].attrs[k].type) != AT_BOOL) {
		const char *v1 = "0", *v2 = "0";
		int k1, k2;
		OpId o1, o2;
		attrref(e, x, &v1, &k1, &o1);
		attrref(e, y, &v2, &k2, &o2);
		e->usesm = 1;
		res = fmt(e, "graft_attr_same(m, %s, %d, %s, %d)", v1, k1, v2, k2);
	} else {
		return fmt(e, "(%s %s %s)", gexpr(e, x), ne ? "!=" : "==", gexpr(e, y));
	}
	return ne ? fmt(e, "!(%s)", res) : fmt(e, "(%s)", res);
}

/* gexpr: a guard expression as C */
static const char *
gexpr(Emit *e, const Ast *a)
{
	const char *var;
	int k;
	OpId op;

	switch (a->kind) {
	case A_INT: return fmt(e, "%lldLL", (long long)a->i);
	case A_FLOAT: return dbl(e, a->f);
	case A_BOOL: return a->i ? "1" : "0";
	case A_NAME:
		if (attrref(e, a, &var, &k, &op)) {
			int t = AT_TYPE(ir_ops[op].attrs[k].type);
			e->usesm = 1;
			if (t == AT_FLOAT)
				return fmt(e, "graft_attr_f(m, %s, %d /* %s */)", var, k, ir_ops[op].attrs[k].name);
			if (t == AT_INT || t == AT_BOOL || t == AT_DTYPE)
				return fmt(e, "graft_attr_i(m, %s, %d /* %s */)", var, k, ir_ops[op].attrs[k].name);
			return fmt(e, "graft_rw_attr_num(rw, %s, %d /* %s */)", var, k, ir_ops[op].attrs[k].name);
		}
		return nodevar(e, a);
	case A_UNOP:
		return fmt(e, "(%s%s)", a->i == '!' ? "!" : "-", gexpr(e, a->kid[0]));
	case A_INDEX:
		if (a->kid[0]->kind == A_CALL && strcmp(a->kid[0]->s, "shape") == 0)
			return fmt(e, "graft_rw_dim(rw, %s, %s)", nodevar(e, a->kid[0]->kid[0]), gexpr(e, a->kid[1]));
		if (attrref(e, a->kid[0], &var, &k, &op))
			return fmt(e, "graft_rw_attr_ints_at(rw, %s, %d /* %s */, %s)", var, k, ir_ops[op].attrs[k].name,
			           gexpr(e, a->kid[1]));
		ir_die("emit: an index into what is not a list (dsl_guards let it through)");
	case A_BINOP: {
		const char *x, *y;
		if (a->i == T_EQ || a->i == T_NE)
			return compare(e, a->kid[0], a->kid[1], a->i == T_NE);
		x = gexpr(e, a->kid[0]);
		y = gexpr(e, a->kid[1]);
		if ((a->i == '/' || a->i == '%') && a->kid[0]->vt == V_INT && a->kid[1]->vt == V_INT)
			return fmt(e, "graft_rw_%s(rw, %s, %s)", a->i == '/' ? "idiv" : "imod", x, y);
		if (a->i == '%') {
			e->usesmath = 1;
			return fmt(e, "fmod(%s, %s)", x, y);
		}
		return fmt(e, "(%s %s %s)", x, opstr((int)a->i), y);
	}
	case A_CALL: {
		const char *x;
		if (strcmp(a->s, "floor") == 0 || strcmp(a->s, "log2") == 0 || strcmp(a->s, "exp2") == 0) {
			e->usesmath = 1;
			return fmt(e, "%s((double)(%s))", a->s, gexpr(e, a->kid[0]));
		}
		x = a->nkid ? nodevar(e, a->kid[0]) : "0";
		if (strcmp(a->s, "dtype") == 0) { e->usesm = 1; return fmt(e, "graft_dtype(m, %s)", x); }
		if (strcmp(a->s, "rank") == 0) return fmt(e, "graft_rw_rank(rw, %s)", x);
		if (strcmp(a->s, "numel") == 0) return fmt(e, "graft_rw_numel(rw, %s)", x);
		if (strcmp(a->s, "value") == 0) return fmt(e, "graft_rw_value(rw, %s)", x);
		if (strcmp(a->s, "splat") == 0) return fmt(e, "graft_rw_splat(rw, %s)", x);
		if (strcmp(a->s, "is_const") == 0) { e->usesm = 1; return fmt(e, "(graft_kind(m, %s) == GRAFT_NK_CONST)", x); }
		if (strcmp(a->s, "is_scalar") == 0) { e->usesm = 1; return fmt(e, "graft_is_scalar(m, %s)", x); }
		if (strcmp(a->s, "is_splat") == 0) { e->usesm = 1; return fmt(e, "graft_is_splat(m, %s)", x); }
		if (strcmp(a->s, "uses") == 0) { e->usesm = 1; return fmt(e, "(int64_t)graft_nuses(m, %s)", x); }
		if (strcmp(a->s, "present") == 0) return findbind(e, a->kid[0]->s) ? "1" : "0";
		if (strcmp(a->s, "len") == 0) {
			const Bind *b = findbind(e, a->kid[0]->s);
			e->usesm = 1;
			return fmt(e, "((int64_t)graft_nargs(m, %s) - %u)", b ? b->var : "0", b ? b->start + b->end : 0);
		}
		if (strcmp(a->s, "shape") == 0) {
			ir_die("emit: shape(x) neither compared nor indexed (dsl_guards let it through)");
		}
		{
			/* an extern predicate */
			Cat args;
			catinit(&args);
			for (uint32_t i = 0; i < a->nkid; i++)
				catf(&args, ", %s", nodevar(e, a->kid[i]));
			e->usesv = 1;
			return fmt(e, "graft_pred_%s(rw, v%s)", a->s, catend(e, &args));
		}
	}
	default:
		ir_die("emit: a guard expression of kind %d (dsl_guards let it through)", a->kind);
	}
}

/* ---------------------------------------------------------------- results */

static const char *
temp(Emit *e)
{
	return fmt(e, "t%u", ++e->ntemp);
}

static const char *rexpr(Emit *e, const Ast *a, Out *o, int ind);

/* setattr: the statement that sets attribute k of attrs `av` to value a */
static void
setattr(Emit *e, Out *o, int ind, const char *av, OpId op, int k, const Ast *a)
{
	int t = AT_TYPE(ir_ops[op].attrs[k].type);
	const char *name = ir_ops[op].attrs[k].name, *var;
	int k2;
	OpId op2;

	if (attrref(e, a, &var, &k2, &op2)) {
		put(o, ind, fmt(e, "graft_rw_set_from(rw, %s, %d /* %s */, %s, %d);", av, k, name, var, k2));
		return;
	}
	switch (t) {
	case AT_INT:
		put(o, ind, fmt(e, "graft_rw_set_i(rw, %s, %d /* %s */, %s);", av, k, name, gexpr(e, a)));
		return;
	case AT_BOOL:
		put(o, ind, fmt(e, "graft_rw_set_b(rw, %s, %d /* %s */, %s);", av, k, name, gexpr(e, a)));
		return;
	case AT_FLOAT:
		put(o, ind, fmt(e, "graft_rw_set_f(rw, %s, %d /* %s */, %s);", av, k, name, gexpr(e, a)));
		return;
	case AT_DTYPE:
		if (a->kind == A_STR) {
			put(o, ind, fmt(e, "graft_rw_set_dtype(rw, %s, %d /* %s */, %s);", av, k, name,
			                dtname(e, ir_dtype_parse(a->s, strlen(a->s)))));
			return;
		}
		break;
	case AT_STR:
		if (a->kind == A_STR) {
			put(o, ind, fmt(e, "graft_rw_set_sym(rw, %s, %d /* %s */, graft_rw_sym(rw, %s));", av, k, name, strid(e, a->s)));
			return;
		}
		break;
	default:
		break;
	}
	if (a->kind == A_INT || a->kind == A_FLOAT || a->kind == A_STR || a->kind == A_BOOL ||
	    a->kind == A_NONE || a->kind == A_LIST) {
		put(o, ind, fmt(e, "graft_rw_set_lit(rw, %s, %d /* %s */, %s);", av, k, name, litid(e, a)));
		return;
	}
	ir_die("emit: attribute '%s' of %s from an expression (dsl_guards let it through)", name, ir_ops[op].name);
}

/* inplace: for variant var of rule ru, whose steps are row r, the
** arguments rw_call_in_place() takes after the attributes (dsl_inplace):
** the node d, and the matched nodes between the root and d; NULL if the
** result cannot be built in place */
static const char *
inplace(Emit *e, const Rule *ru, const Variant *var, const Row *r)
{
	const char *d, *chain[64], *path = "";
	int np = dsl_inplace(ru, var, r, &d, chain, 64);

	if (np < 0)
		return NULL;
	for (int i = 0; i < np; i++)
		path = fmt(e, "%s%s%s", path, i ? ", " : "", chain[i]);
	return np ? fmt(e, "%s, (const graft_node[]){ %s }, %d", d, path, np) : fmt(e, "%s, NULL, 0", d);
}

/* rcall: statements building an op call; returns its variable */
static const char *
rcall(Emit *e, const Ast *a, Out *o, int ind)
{
	const char *args, *av = "0", *t, *over;
	uint32_t n = 0;
	Cat cat;

	catinit(&cat);
	for (uint32_t i = 0; i < a->nkid; i++)
		if (a->kid[i]->kind != A_ATTR && a->kid[i]->kind != A_ATTRS) {
			const char *x = rexpr(e, a->kid[i], o, ind);
			catf(&cat, "%s%s", n ? ", " : "", x);
			n++;
		}
	args = catend(e, &cat);
	if (ir_ops[a->op].nattrs) {
		const char *from = NULL;
		av = fmt(e, "a%u", ++e->ntemp);
		for (uint32_t i = 0; i < a->nkid; i++)
			if (a->kid[i]->kind == A_ATTRS) {
				const Bind *b = findbind(e, a->kid[i]->s);
				from = b ? b->var : "0";
			}
		if (from)
			put(o, ind, fmt(e, "graft_attrs %s = graft_rw_attrs_copy(rw, %s, %s);", av, opbuild(e, a->op), from));
		else
			put(o, ind, fmt(e, "graft_attrs %s = graft_rw_attrs(rw, %s);", av, opbuild(e, a->op)));
		for (uint32_t i = 0; i < a->nkid; i++)
			if (a->kid[i]->kind == A_ATTR)
				setattr(e, o, ind, av, a->op, ir_op_attr_index(a->op, a->kid[i]->s, strlen(a->kid[i]->s)), a->kid[i]->kid[0]);
	}
	t = temp(e);
	if ((over = e->inplace && a == e->rule->result ? "ip_d, ip_path, ip_n" : NULL))
		put(o, ind, fmt(e, "graft_node %s = graft_rw_call_in_place(rw, %s, (const graft_node[]){ %s }, %u, %s, %s);", t,
		                opbuild(e, a->op), args, n, av, over));
	else
		put(o, ind, fmt(e, "graft_node %s = graft_rw_call(rw, %s, (const graft_node[]){ %s }, %u, %s);", t, opbuild(e, a->op),
		                args, n, av));
	return t;
}

/* rexpr: statements building a result node; returns its variable */
static const char *
rexpr(Emit *e, const Ast *a, Out *o, int ind)
{
	const char *t;
	DType dt;

	switch (a->kind) {
	case A_NAME:
		return nodevar(e, a);
	case A_INT: case A_BOOL:
		t = temp(e);
		put(o, ind, fmt(e, "graft_node %s = graft_rw_scalar_i(rw, %s, %lldLL);", t,
		                dtname(e, a->kind == A_BOOL ? DT_BOOL : a->dtype), (long long)a->i));
		return t;
	case A_FLOAT:
		t = temp(e);
		put(o, ind, fmt(e, "graft_node %s = graft_rw_scalar_f(rw, %s, %s);", t, dtname(e, a->dtype), dbl(e, a->f)));
		return t;
	case A_FOLD:
		if (a->nkid) {
			const char *x = rexpr(e, a->kid[0], o, ind);
			t = temp(e);
			put(o, ind, fmt(e, "graft_node %s = graft_rw_fold_new(rw, %s);", t, x));
			return t;
		}
		t = temp(e);
		e->usesv = 1;
		put(o, ind, fmt(e, "graft_node %s = graft_rw_fold(rw, v);", t));
		return t;
	case A_GETITEM: {
		const char *x = rexpr(e, a->kid[0], o, ind);
		t = temp(e);
		put(o, ind, fmt(e, "graft_node %s = graft_rw_getitem(rw, %s, %lld);", t, x, (long long)a->i));
		return t;
	}
	case A_TUPLE: {
		const char *mk = fmt(e, "m%u", ++e->ntemp);
		const char **elems = ir_xcalloc(a->nkid ? a->nkid : 1, sizeof *elems);
		for (uint32_t i = 0; i < a->nkid; i++)
			if (a->kid[i]->kind != A_REST)
				elems[i] = rexpr(e, a->kid[i], o, ind);
		put(o, ind, fmt(e, "uint32_t %s;", mk));
		put(o, ind, fmt(e, "graft_rw_tb_begin(rw, &%s);", mk));
		for (uint32_t i = 0; i < a->nkid; i++) {
			if (a->kid[i]->kind == A_REST) {
				const Bind *b = findbind(e, a->kid[i]->s);
				if (b && b->end)
					put(o, ind, fmt(e, "graft_rw_tb_rest_to(rw, %s, %u, %u);", b->var, b->start, b->end));
				else
					put(o, ind, fmt(e, "graft_rw_tb_rest(rw, %s, %u);", b ? b->var : "0", b ? b->start : 0));
			} else {
				put(o, ind, fmt(e, "graft_rw_tb_add(rw, %s);", elems[i]));
			}
		}
		free(elems);
		t = temp(e);
		put(o, ind, fmt(e, "graft_node %s = graft_rw_tb_end(rw, %s);", t, mk));
		return t;
	}
	case A_CALL:
		if (a->op)
			return rcall(e, a, o, ind);
		if ((dt = dsl_scalar_ctor(a->s)) != DT_COUNT) {
			const char *x = gexpr(e, a->kid[0]);
			t = temp(e);
			if (ir_dtype_kind[dt] == 'f')
				put(o, ind, fmt(e, "graft_node %s = graft_rw_scalar_f(rw, %s, (double)(%s));", t, dtname(e, dt), x));
			else
				put(o, ind, fmt(e, "graft_node %s = graft_rw_scalar_i(rw, %s, (int64_t)(%s));", t, dtname(e, dt), x));
			return t;
		}
		{
			Cat args;
			catinit(&args);
			for (uint32_t i = 0; i < a->nkid; i++)
				catf(&args, ", %s", nodevar(e, a->kid[i]));
			t = temp(e);
			e->usesv = 1;
			put(o, ind, fmt(e, "graft_node %s = graft_action_%s(rw, v%s);", t, a->s, catend(e, &args)));
			return t;
		}
	default:
		ir_die("rexpr: kind %d", a->kind);
	}
}

/* ---------------------------------------------------------------- trees */

/* kindname: a node kind's C name */
static const char *
kindname(int k)
{
	switch (k) {
	case NK_CONST: return "GRAFT_NK_CONST";
	case NK_VAR: return "GRAFT_NK_VAR";
	case NK_TUPLE: return "GRAFT_NK_TUPLE";
	case NK_CALL: return "GRAFT_NK_CALL";
	case NK_CALLFN: return "GRAFT_NK_CALLFN";
	case NK_FUNC: return "GRAFT_NK_FUNC";
	case NK_GLOBAL: return "GRAFT_NK_GLOBAL";
	default: return "GRAFT_NK_GETITEM";
	}
}

/* cond: the C condition of a test step */
static const char *rpattable(Emit *e, const Ast *rec);

static const char *
cond(Emit *e, const Step *s)
{
	int usedm = e->usesm;

	e->usesm = 1;
	switch (s->kind) {
	case S_OP:
		e->usesm = usedm;       /* asks rw, not m */
		return fmt(e, "%s == %s", opof(e, s->v), opname(e, (OpId)s->n));
	case S_KIND:
		return fmt(e, "graft_kind(m, %s) == %s", s->v, kindname(s->k));
	case S_OPKIND:
		return fmt(e, "graft_op_kind(m, %s) == %s", s->v, upper(e, "GRAFT_OPK_", ir_op_kind_name((int)s->n)));
	case S_VARNAME:
		return fmt(e, "graft_rw_name_is(rw, %s, %s)", s->v, strid(e, s->lit->s));
	case S_FATTR:
		return fmt(e, "graft_rw_func_attr_is(rw, %s, %s, %s)", s->v, cstr(e, s->lit->s), litid(e, s->lit->kid[0]));
	case S_RPAT:
		return fmt(e, "graft_rw_pat(rw, %s, %s, NULL, 0)", rpattable(e, s->lit), s->v);
	case S_CVALUE: {
		const Ast *l = s->lit;
		return fmt(e, "graft_rw_const_is(rw, %s, %s, %s)", s->v, dtname(e, l->kind == A_BOOL ? DT_BOOL : l->dtype),
		           dbl(e, l->kind == A_FLOAT ? l->f : (double)l->i));
	}
	case S_NARGS:
		return fmt(e, "graft_nargs(m, %s) %s %lld", s->v, s->atleast ? ">=" : "==", (long long)s->n);
	case S_INDEX:
		return fmt(e, "graft_index(m, %s) == %lld", s->v, (long long)s->n);
	case S_SAME:
		return fmt(e, "%s == %s", s->v, s->v2);
	case S_ATTREQ:
		return fmt(e, "graft_attr_same(m, %s, %d, %s, %d)", s->v, s->k, s->v2, s->k2);
	case S_TYPE: {
		const Ast *t = s->lit;
		const char *c = NULL;
		if (t->dtype != DT_COUNT)
			c = fmt(e, "graft_dtype(m, %s) == %s", s->v, dtname(e, t->dtype));
		if (t->kid[1]) {
			const char *dims;
			Cat cat;
			catinit(&cat);
			for (uint32_t i = 0; i < t->kid[1]->nkid; i++)
				catf(&cat, "%s%lld", i ? ", " : "",
				     t->kid[1]->kid[i]->kind == A_INT ? (long long)t->kid[1]->kid[i]->i : -1LL);
			dims = catend(e, &cat);
			dims = fmt(e, "graft_shape_is(m, %s, %u, (const int64_t[]){ %s })", s->v, t->kid[1]->nkid,
			           t->kid[1]->nkid ? dims : "0");
			c = c ? fmt(e, "%s && %s", c, dims) : dims;
		}
		return c ? c : "1";
	}
	case S_ATTR: {
		const AttrField *f = &ir_ops[s->op].attrs[s->k];
		const Ast *l = s->lit;
		switch (AT_TYPE(f->type)) {
		case AT_INT: case AT_BOOL:
			return fmt(e, "graft_attr_i(m, %s, %d /* %s */) == %lld", s->v, s->k, f->name, (long long)l->i);
		case AT_FLOAT:
			return fmt(e, "graft_attr_f(m, %s, %d /* %s */) == %s", s->v, s->k, f->name,
			           dbl(e, l->kind == A_INT ? (double)l->i : l->f));
		case AT_DTYPE:
			return fmt(e, "graft_attr_i(m, %s, %d /* %s */) == %s", s->v, s->k, f->name,
			           dtname(e, ir_dtype_parse(l->s, strlen(l->s))));
		case AT_STR:
			return fmt(e, "graft_attr_s(m, %s, %d /* %s */) == graft_rw_sym(rw, %s)", s->v, s->k, f->name, strid(e, l->s));
		default:
			e->usesm = usedm;       /* reads through rw, not m */
			return fmt(e, "graft_rw_attr_lit(rw, %s, %d /* %s */, %s)", s->v, s->k, f->name, litid(e, l));
		}
	}
	default:
		ir_die("cond: step %d", s->kind);
	}
}

/* ---------------------------------------------------------------- rule functions */

/* A function that variants of a rule call with their nodes: one per rule,
** or more where its variants bind its names differently. */
typedef struct RuleFn {
	const char *name;
	const char *sig;            /* what the variants calling it share */
	const char **params;        /* the names the guard and result use */
	uint32_t nparams;
	int inplace;                /* takes ip_d, ip_path, ip_n */
	int usesv;                  /* takes the root */
	uint32_t variant;           /* the first variant that calls it */
	struct RuleFn *next;
} RuleFn;

/* usednames: the names expression a reads, into map (as Bind.used) */
static void
usednames(Emit *e, const Ast *a, NameMap *map)
{
	if (!a)
		return;
	if ((a->kind == A_NAME || a->kind == A_ATTRS || a->kind == A_REST) && a->s) {
		const char *dot = strchr(a->s, '.');
		dsl_map_put(map, dot ? dsl_strdup(e->r, a->s, (size_t)(dot - a->s)) : a->s, 0);
	}
	if (a->kind == A_CALL && !a->op && a->s && strcmp(a->s, "present") == 0)
		return;         /* known statically: reads nothing */
	for (uint32_t i = 0; i < a->nkid; i++)
		usednames(e, a->kid[i], map);
}

/* presentnames: the names present(x) asks of in expression a, into map */
static void
presentnames(const Ast *a, NameMap *map)
{
	if (!a)
		return;
	if (a->kind == A_CALL && !a->op && a->s && strcmp(a->s, "present") == 0 && a->nkid && a->kid[0]->kind == A_NAME)
		dsl_map_put(map, a->kid[0]->s, 0);
	for (uint32_t i = 0; i < a->nkid; i++)
		presentnames(a->kid[i], map);
}

/* rowof: the steps of variant v of rule ru, as its tree has them */
static const Row *
rowof(const Emit *e, const Rule *ru, uint32_t v)
{
	for (uint32_t i = 0; i < e->r->ntrees; i++)
		for (uint32_t j = 0; j < e->r->trees[i].nrows; j++)
			if (e->r->trees[i].rows[j].rule == ru && e->r->trees[i].rows[j].variant == v)
				return &e->r->trees[i].rows[j];
	ir_die("rowof: rule '%s' variant %u has no row", ru->name, v);
}

/* firstbind: the first bind of name in variant var, or NULL */
static const Bind *
firstbind(const Variant *var, const char *name)
{
	for (uint32_t i = 0; i < var->nbinds; i++)
		if (strcmp(var->binds[i].name, name) == 0)
			return &var->binds[i];
	return NULL;
}

/* fnof: the function variant v of rule ru calls, made on first need */
static RuleFn *
fnof(Emit *e, const Rule *ru, uint32_t v, const char *id)
{
	const Variant *var = &ru->variants[v];
	NameMap used = { 0 };
	const char **params = ir_arena_alloc(&e->r->arena, (var->nbinds ? var->nbinds : 1) * sizeof *params);
	uint32_t np = 0, k = 0;
	int ip = ru->kind == RK_RULE && inplace(e, ru, var, rowof(e, ru, v)) != NULL;
	Cat sig;
	RuleFn **fp, *fn;

	usednames(e, ru->guard, &used);
	usednames(e, ru->result, &used);
	catinit(&sig);
	catf(&sig, "%d", ip);
	/* the names in the order the rule's first variant binds them (the
	   pattern as written), so that its operand orders share a function */
	for (uint32_t w = 0; w < 2; w++) {
		const Variant *order = w ? var : &ru->variants[0];
		for (uint32_t i = 0; i < order->nbinds; i++) {
			const Bind *b = firstbind(var, order->binds[i].name);
			if (!b || dsl_map_get(&used, b->name) == UINT32_MAX || firstbind(order, b->name) != &order->binds[i])
				continue;
			if (strncmp(b->var, "dom[", 4) == 0)
				continue;       /* the parent's, captured in the function */
			params[np++] = b->name;
			dsl_map_put(&used, b->name, UINT32_MAX);     /* taken */
			catf(&sig, " %s:%d:%d:%d:%u:%u", b->name, b->kind, (int)b->op, b->attr, b->start, b->end);
		}
	}
	dsl_map_free(&used);
	{
		/* present(x) is answered by whether the variant binds x */
		NameMap asked = { 0 };
		presentnames(ru->guard, &asked);
		for (uint32_t i = 0; i < asked.cap; i++)
			if (asked.key && asked.key[i])
				catf(&sig, " present(%s)=%d", asked.key[i], firstbind(var, asked.key[i]) != NULL);
		dsl_map_free(&asked);
	}
	{
		const char *sg = catend(e, &sig);
		for (fp = &e->fns[ru->order]; *fp; fp = &(*fp)->next, k++)
			if (strcmp((*fp)->sig, sg) == 0)
				return *fp;
		fn = ir_arena_alloc(&e->r->arena, sizeof *fn);
		fn->sig = sg;
	}
	fn->name = k ? fmt(e, "%s_%u", id, k + 1) : id;
	fn->params = params;
	fn->nparams = np;
	fn->inplace = ip;
	fn->variant = v;
	*fp = fn;
	return fn;
}

/* paramname: the C parameter that holds name in a rule's function */
static const char *
paramname(Emit *e, const char *name)
{
	return fmt(e, "p_%s", cname(e, name));
}

/* quoted: a rule part as its author wrote it (or printed, where the text
** is not at hand), safe in a C comment */
static const char *
quoted(Emit *e, const char *q, const Ast *a)
{
	return incomment(e, q ? q : printed(e, a));
}

/* domtable: dominator part d as a static RwPat table NAME */
static void
domtable(Emit *e, Out *o, const char *name, const DomPat *d)
{
	static const char *const kinds[] = { "GRAFT_PAT_ANY", "GRAFT_PAT_CONST", "GRAFT_PAT_VAR", "GRAFT_PAT_NAME",
	                                     "GRAFT_PAT_CALL", "GRAFT_PAT_ANYCALL", "GRAFT_PAT_ATTR", "GRAFT_PAT_TUPLE",
	                                     "GRAFT_PAT_GETITEM", "GRAFT_PAT_TYPED", "GRAFT_PAT_ALT", "GRAFT_PAT_REF" };

	put(o, 0, fmt(e, "static const graft_pat %s[] = {", name));
	for (uint32_t i = 0; i < d->n; i++) {
		const RwPat *p = &d->v[i];
		const char *a = fmt(e, "%d", (int)p->a), *b = "0";
		if (p->kind == RP_CALL)
			a = opname(e, (OpId)p->a);
		else if (p->kind == RP_ANYCALL && p->a >= 0)
			a = upper(e, "GRAFT_OPK_", ir_op_kind_name(p->a));
		else if (p->kind == RP_TYPED)
			a = p->a == DT_COUNT ? "GRAFT_DT_OTHER" : dtname(e, p->a);
		else if (p->kind == RP_ATTR)
			b = litid(e, d->lits[i]);
		put(o, 1, fmt(e, "{ %s, %u, %u, %u, %u, %s, %s },", kinds[p->kind], p->flags, p->nattr, p->n, p->size, a, b));
	}
	put(o, 0, "};");
}

/* rpattable: the name of the table of recursive pattern rec (an A_REC),
** rendered into e->rtables the first time */
static const char *
rpattable(Emit *e, const Ast *rec)
{
	const char *name = fmt(e, "rpat_%s", cname(e, rec->s));

	if (dsl_map_get(&e->rpats, name) == UINT32_MAX) {
		DomPat d;
		NameMap none = { 0 };
		memset(&d, 0, sizeof d);
		dsl_map_put(&e->rpats, name, 0);
		dsl_rwpat(e->r, rec, &d, &none);
		put(&e->rtables, 0, fmt(e, "/* pattern %s(), which uses itself: matched as data (graft_rw_pat) */", rec->s));
		domtable(e, &e->rtables, name, &d);
		put(&e->rtables, 0, "");
		free(d.v);
		free(d.lits);
		dsl_map_free(&none);
	}
	return name;
}

/* domtables: the parent and path tables of dominator pattern dom for
** function fn; returns how many names the parent captures */
static uint32_t
domtables(Emit *e, Out *o, const char *fn, const Ast *dom)
{
	DomPat pp, qq;
	uint32_t n = dsl_domparts(e->r, dom, &pp, &qq);

	put(o, 0, "");
	put(o, 0, fmt(e, "/* %s: dominates()'s parent, %s, and path, %s */", fn, printed(e, dom->kid[3]),
	              printed(e, dom->kid[1])));
	domtable(e, o, fmt(e, "%s_parent", fn), &pp);
	domtable(e, o, fmt(e, "%s_path", fn), &qq);
	dsl_domfree(&pp, &qq);
	return n;
}

/* rulefn: the function fn of rule ru, whose id is id: the guard and the
** result, or the report to the partitioner */
static void
rulefn(Emit *e, const Rule *ru, RuleFn *fn, const char *id)
{
	const Variant *src = &ru->variants[fn->variant];
	Variant var = *src;
	Bind *binds = ir_arena_alloc(&e->r->arena, (src->nbinds ? src->nbinds : 1) * sizeof *binds);
	Out body = { 0 }, *o = &e->funcs;
	const char *kind = ru->kind == RK_RULE ? "rule" : ru->kind == RK_COMPOSITE ? "composite" : "supports";
	Cat sig;

	/* the variant's names, as the function's parameters hold them */
	memcpy(binds, src->binds, src->nbinds * sizeof *binds);
	for (uint32_t i = 0; i < fn->nparams; i++)
		for (uint32_t j = 0; j < var.nbinds; j++)
			if (strcmp(binds[j].name, fn->params[i]) == 0) {
				binds[j].var = paramname(e, fn->params[i]);
				break;
			}
	var.binds = binds;
	e->rule = ru;
	e->var = &var;
	e->inplace = fn->inplace;
	e->usesm = e->usesv = 0;
	e->ntemp = 0;
	dsl_map_clear(&e->bound);
	for (uint32_t i = 0; i < var.nbinds; i++)
		if (dsl_map_get(&e->bound, var.binds[i].name) == UINT32_MAX)
			dsl_map_put(&e->bound, var.binds[i].name, i);

	if (var.pat->kind == A_DOM) {
		/* dominates(): the search, whose captures are the parent's names */
		uint32_t ncaps = domtables(e, o, fn->name, var.pat);
		if (ncaps)
			put(&body, 1, fmt(e, "graft_node dom[%u];", ncaps));
		e->usesv = 1;
		put(&body, 1, fmt(e, "if (!graft_rw_dominator(rw, v, %s_parent, %s_path, %s, %u))", fn->name, fn->name,
		                  ncaps ? "dom" : "NULL", ncaps));
		put(&body, 2, ru->kind == RK_RULE ? "return 0;" : "return;");
	}
	if (ru->guard)
		mark(e, &body, e->r->m->files[ru->guard->loc.file], ru->guard->loc.line);
	if (ru->guard || ru->kind == RK_RULE)
		put(&body, 1, "graft_rw_clear(rw);");     /* what an earlier rule's guard left */
	if (ru->kind == RK_RULE && ru->once) {
		/* `once`: not at what its own results built */
		e->usesv = 1;
		put(&body, 1, fmt(e, "if (graft_rw_onced(rw, v, %s))", id));
		put(&body, 2, "return 0;");
	}
	if (ru->kind != RK_RULE) {
		const char *rep = var.pat->kind == A_DOM ? "graft_rw_report_dom" : "graft_rw_report";
		if (ru->guard)
			put(&body, 1, fmt(e, "%s(rw, %s, in, nin, (%s) && !graft_rw_failed(rw));", rep, id, gexpr(e, ru->guard)));
		else
			put(&body, 1, fmt(e, "%s(rw, %s, in, nin, 1);", rep, id));
	} else {
		const char *r;
		if (ru->guard) {
			put(&body, 1, fmt(e, "if (!(%s) || graft_rw_failed(rw))", gexpr(e, ru->guard)));
			put(&body, 2, "return 0;");
		}
		mark(e, &body, e->r->m->files[ru->result->loc.file], ru->result->loc.line);
		r = rexpr(e, ru->result, &body, 1);
		if (dsl_may_unchange(var.pat, ru->result))
			put(&body, 1, fmt(e, "if (!%s || graft_rw_failed(rw) || graft_rw_unchanged(rw, %s))", r, r));
		else
			put(&body, 1, fmt(e, "if (!%s || graft_rw_failed(rw))", r));
		put(&body, 2, "return 0;");
		if (ru->once)
			put(&body, 1, "graft_rw_once(rw);");
		put(&body, 1, fmt(e, "*rule = %s;", id));
		put(&body, 1, fmt(e, "return %s;", r));
	}
	mark(e, &body, NULL, 0);
	fn->usesv = e->usesv;

	put(o, 0, "");
	put(o, 0, fmt(e, "/* %s %s%s", kind, incomment(e, ru->name),
	              fn->variant ? fmt(e, ", its variants that bind names as variant %u does", fn->variant + 1) : ""));
	if (ru->kind == RK_SUPPORTS && !ru->guard) {
		o->v[o->n - 1].text = fmt(e, "%s */", o->v[o->n - 1].text);
	} else if (ru->kind == RK_SUPPORTS) {
		put(o, 0, fmt(e, " * cond:   %s */", quoted(e, ru->qguard, ru->guard)));
	} else {
		put(o, 0, fmt(e, " * match:  %s%s", quoted(e, ru->qpat, ru->pat), ru->guard || ru->result ? "" : " */"));
		if (ru->guard)
			put(o, 0, fmt(e, " * cond:   %s%s", quoted(e, ru->qguard, ru->guard), ru->result ? "" : " */"));
		if (ru->result)
			put(o, 0, fmt(e, " * result: %s */", quoted(e, ru->qresult, ru->result)));
	}
	put(o, 0, ru->kind == RK_RULE ? "static graft_node" : "static void");
	catinit(&sig);
	catf(&sig, "%s(graft_rw *rw%s%s", fn->name, ru->kind == RK_RULE ? ", uint32_t *rule" : "",
	     fn->usesv ? ", graft_node v" : "");
	if (ru->kind != RK_RULE)
		catf(&sig, ", const graft_node *in, uint32_t nin");
	for (uint32_t i = 0; i < fn->nparams; i++)
		catf(&sig, ", graft_node %s", paramname(e, fn->params[i]));
	if (fn->inplace)
		catf(&sig, ", graft_node ip_d, const graft_node *ip_path, uint32_t ip_n");
	catf(&sig, ")");
	put(o, 0, catend(e, &sig));
	put(o, 0, "{");
	if (e->usesm)
		put(o, 1, "const graft_ir *m = graft_rw_ir(rw);");
	for (uint32_t i = 0; i < body.n; i++) {
		ir_vgrow(&o->v, &o->cap, o->n + 1);
		o->v[o->n++] = body.v[i];
	}
	put(o, 0, "}");
	free(body.v);
}

/* ruleid: the C name of rule ru: R_ and its name; an unnamed rule's name
** holds its line, so it is named by its root op and a hash of its text,
** which moving it leaves alone */
static const char *
ruleid(Emit *e, const Rule *ru)
{
	const Ast *root = ru->pat;
	uint32_t h = 2166136261u;
	const char *parts[3] = { ru->qpat, ru->qguard, ru->qresult };

	if (ru->named || ru->kind != RK_RULE)
		return cident(e, "R_", ru->name);
	while (root && (root->kind == A_BIND || root->kind == A_TYPED))
		root = root->kid[0];
	for (int i = 0; i < 3; i++)
		for (const char *p = parts[i] ? parts[i] : ""; ; p++) {
			h = (h ^ (unsigned char)*p) * 16777619u;
			if (!*p)
				break;
		}
	return cident(e, "R_", fmt(e, "%s_%06x", root && root->kind == A_CALL ? root->s :
	                            root && root->kind == A_TUPLE ? "tuple" : "getitem", (unsigned)(h & 0xffffff)));
}

/* ---------------------------------------------------------------- trees */

/* Limits on what one generated function holds: blocks nest at most
** MAXNEST deep (a deeper subtree, or one of more than SPLITLINES lines,
** becomes a function of its own), and a function goes on in another once
** it has MAXLINES lines. */
enum { MAXNEST = 7, SPLITLINES = 60, MAXLINES = 120 };

/* Fn: the function being rendered: its body and the variables it loads */
typedef struct Fn {
	Out body;
	NameMap decl;
	const char **vars;
	uint32_t nvars, capvars;
	int leaves;             /* calls a rule's function (needs r) */
} Fn;

/* Path: the variables loaded on the way to a node */
typedef struct Path {
	const char **v;
	uint32_t n, cap;
} Path;

static void
pathpush(Path *p, const char *v)
{
	ir_vgrow(&p->v, &p->cap, p->n + 1);
	p->v[p->n++] = v;
}

/* leafargs: the arguments variant d of its rule passes to its function,
** after rw (and rule), into *args; the variables they read into refs */
static const char *
leafargs(Emit *e, const DNode *d, NameMap *refs)
{
	const Rule *ru = d->rule;
	const Variant *var = &ru->variants[d->variant];
	RuleFn *fn = fnof(e, ru, d->variant, NULL);
	Cat c;

	catinit(&c);
	if (fn->usesv) {
		catf(&c, ", v");
		dsl_map_put(refs, "v", 0);
	}
	if (ru->kind != RK_RULE) {
		catf(&c, ", (const graft_node[]){ ");
		for (uint32_t i = 0; i < var->ninner; i++) {
			catf(&c, "%s%s", i ? ", " : "", var->inner[i]);
			dsl_map_put(refs, var->inner[i], 0);
		}
		catf(&c, "%s }, %u", var->ninner ? "" : "0", var->ninner);
	}
	for (uint32_t i = 0; i < fn->nparams; i++) {
		const Bind *b = firstbind(var, fn->params[i]);
		catf(&c, ", %s", b->var);
		dsl_map_put(refs, b->var, 0);
	}
	if (fn->inplace) {
		const Row *row = rowof(e, ru, d->variant);
		const char *ip = inplace(e, ru, var, row);
		catf(&c, ", %s", ip);
		/* d and the nodes on the way to it */
		for (const char *p = ip; *p;) {
			size_t n = strcspn(p, ", (){}[]");
			if (n && (p[0] == 'v' || p[0] == 'w') && (n == 1 || p[1] == '_' || (p[1] >= '0' && p[1] <= '9')))
				dsl_map_put(refs, dsl_strdup(e->r, p, n), 0);
			p += n ? n : 1;
		}
	}
	return catend(e, &c);
}

/* refs: the variables the subtree d reads, into map */
static void
refs(Emit *e, const DNode *d, NameMap *map)
{
	for (; d; d = d->kind == D_LEAF ? d->next : d->no) {
		if (d->kind == D_SHARED) {
			/* its function takes the root alone (it loads the rest
			   itself): walking into it from every path that shares
			   it would take exponential time */
			dsl_map_put(map, "v", 0);
			return;
		}
		for (uint32_t i = 0; i < d->nloads; i++)
			dsl_map_put(map, d->loads[i]->v2, 0);
		if (d->kind == D_LEAF) {
			leafargs(e, d, map);
			continue;
		}
		dsl_map_put(map, d->test->v, 0);
		if (d->test->v2)
			dsl_map_put(map, d->test->v2, 0);
		refs(e, d->yes, map);
	}
}

/* lines: about how many lines the subtree d renders to */
static uint32_t
lines(const DNode *d)
{
	uint32_t n = 0;

	for (; d; d = d->kind == D_LEAF ? d->next : d->no)
		n += d->kind == D_SHARED ? 1 : d->nloads + (d->kind == D_LEAF ? 2 : 3 + lines(d->yes));
	return n;
}

/* opcmp: OpIds by the ops' names */
static int
opcmp(const void *x, const void *y)
{
	return strcmp(ir_ops[*(const OpId *)x].name, ir_ops[*(const OpId *)y].name);
}

static int
varcmp(const void *x, const void *y)
{
	const char *a = *(const char *const *)x, *b = *(const char *const *)y;
	size_t la = strlen(a), lb = strlen(b);
	return la != lb ? (la < lb ? -1 : 1) : strcmp(a, b);
}

static const char *
treename(Emit *e, const Tree *t)
{
	if (t->kind == NK_CALL)
		return t->op ? fmt(e, "match_%s", cname(e, ir_ops[t->op].name)) : "match_any_call";
	return t->kind == NK_TUPLE ? "match_tuple" : t->kind == NK_CALLFN ? "match_callfn" : "match_getitem";
}

/* calls: the split being rendered calls split k */
static void
calls(Emit *e, uint32_t k)
{
	Split *c = &e->splits[e->cursplit];
	ir_vgrow(&c->calls, &c->capcalls, c->ncalls + 1);
	c->calls[c->ncalls++] = k;
}

/* split: the call of a new function made of subtree d, given the path's
** loaded variables; the function is rendered after the current one */
static const char *
split(Emit *e, const DNode *d, const Path *p, const char *name)
{
	NameMap r = { 0 };
	Split *s;
	Cat call;
	const char *first = cname(e, e->tree->rows[d->prio].rule->name);

	refs(e, d, &r);
	ir_vgrow(&e->splits, &e->capsplits, e->nsplits + 1);
	calls(e, e->nsplits);
	s = &e->splits[e->nsplits++];
	memset(s, 0, sizeof *s);
	s->d = d;
	/* named by what it decides, not by where: the same name whatever
	   else the file holds */
	s->name = name ? cident(e, "", name) : cident(e, "", fmt(e, "%s_at_%s_%04x", treename(e, e->tree), first,
	                                                    (unsigned)(d->hash & 0xffff)));
	s->vars = ir_arena_alloc(&e->r->arena, (p->n + 1) * sizeof *s->vars);
	if (dsl_map_get(&r, "v") != UINT32_MAX)
		s->vars[s->nvars++] = "v";
	for (uint32_t i = 0; i < p->n; i++)
		if (strcmp(p->v[i], "v") != 0 && dsl_map_get(&r, p->v[i]) != UINT32_MAX)
			s->vars[s->nvars++] = p->v[i];
	if (s->nvars > 1)
		qsort(s->vars + (strcmp(s->vars[0], "v") == 0), s->nvars - (strcmp(s->vars[0], "v") == 0),
		      sizeof *s->vars, varcmp);
	dsl_map_free(&r);
	catinit(&call);
	catf(&call, "%s(rw%s", s->name, e->hasrules ? ", rule" : "");
	for (uint32_t i = 0; i < s->nvars; i++)
		catf(&call, ", %s", s->vars[i]);
	catf(&call, ")");
	return catend(e, &call);
}

/* mentions: whether a line of o holds s */
static int
mentions(const Out *o, const char *s)
{
	for (uint32_t i = 0; i < o->n; i++)
		if (o->v[i].text && strstr(o->v[i].text, s))
			return 1;
	return 0;
}

/* returns: 1 if the statements o end, at indent ind, in a return that
** is not inside an if */
static int
returns(const Out *o, int ind)
{
	const Line *l = o->n ? &o->v[o->n - 1] : NULL;
	return l && l->text && l->indent == ind && strncmp(l->text, "return ", 7) == 0 &&
	       !(o->n > 1 && o->v[o->n - 2].text && o->v[o->n - 2].indent == ind - 1 &&
	         strncmp(o->v[o->n - 2].text, "if (", 4) == 0 && !strchr(o->v[o->n - 2].text, '{'));
}

static void render(Emit *e, Fn *f, const DNode *d, int ind, Path *p);

/* opswitch: a run of tests of one variable's op, each where the one before
** failed, as one switch, each case its subtree: inline where it is short,
** else a function of its own, named by the variable and op, so that a
** rule added for one op changes that case alone.  Returns what follows
** the run (NULL: nothing). */
static const DNode *
opswitch(Emit *e, Fn *f, const DNode *d, int ind, Path *p)
{
	const char *x = d->test->v;

	put(&f->body, ind, fmt(e, "switch (%s) {", opof(e, x)));
	for (int first = 1; d && d->kind == D_TEST && d->test->kind == S_OP && strcmp(d->test->v, x) == 0 &&
	     (first || !d->nloads); d = d->no, first = 0) {
		const char *op = opname(e, (OpId)d->test->n);
		put(&f->body, ind, fmt(e, "case %s:", op));
		if ((ind == 1 && lines(d->yes) > 4) || ind + 1 >= MAXNEST || lines(d->yes) > SPLITLINES) {
			const char *name = fmt(e, "%s_%s_%s", treename(e, e->tree), x, cname(e, ir_ops[d->test->n].name));
			put(&f->body, ind + 1, fmt(e, "return %s;", split(e, d->yes, p, name)));
		} else {
			uint32_t mark = p->n;
			render(e, f, d->yes, ind + 1, p);
			p->n = mark;
			if (!returns(&f->body, ind + 1))
				put(&f->body, ind + 1, "return 0;");
		}
	}
	put(&f->body, ind, "default:");
	put(&f->body, ind + 1, "break;");
	put(&f->body, ind, "}");
	return d;
}

/* render: the statements of subtree d into f at indent ind; p holds the
** variables loaded on the way.  Every path ends in a return, or falls
** off the end of the statements (the caller returns 0 there). */
static void
render(Emit *e, Fn *f, const DNode *d, int ind, Path *p)
{
	int first = 1;

	while (d) {
		if (!first && f->body.n > MAXLINES) {
			put(&f->body, ind, fmt(e, "return %s;", split(e, d, p, NULL)));
			return;
		}
		first = 0;
		if (d->kind == D_SHARED) {
			/* reached on other paths too: one function for all */
			const char *call = NULL;
			for (uint32_t i = 0; i < e->nshared && !call; i++)
				if (e->shared[i].d == d->yes) {
					call = e->shared[i].name;
					calls(e, e->shared[i].nvars);
				}
			if (!call) {
				Path none = { 0 };
				uint32_t k = e->nsplits;
				call = split(e, d->yes, &none, NULL);
				ir_vgrow(&e->shared, &e->capshared, e->nshared + 1);
				memset(&e->shared[e->nshared], 0, sizeof *e->shared);
				e->shared[e->nshared].d = d->yes;
				e->shared[e->nshared].nvars = k;        /* its split */
				e->shared[e->nshared++].name = call;
			}
			put(&f->body, ind, fmt(e, "return %s;", call));
			return;
		}
		for (uint32_t i = 0; i < d->nloads; i++) {
			const Step *l = d->loads[i];
			e->usesm = 1;
			if (l->k < 0)   /* from the end: a function's body, a field after a rest */
				put(&f->body, ind, fmt(e, "%s = graft_arg(m, %s, graft_nargs(m, %s) - %d);", l->v, l->v2, l->v2, -l->k));
			else
				put(&f->body, ind, fmt(e, "%s = graft_arg(m, %s, %d);", l->v, l->v2, l->k));
			if (dsl_map_get(&f->decl, l->v) == UINT32_MAX) {
				dsl_map_put(&f->decl, l->v, 0);
				ir_vgrow(&f->vars, &f->capvars, f->nvars + 1);
				f->vars[f->nvars++] = l->v;
			}
			pathpush(p, l->v);
		}
		if (d->kind == D_LEAF) {
			NameMap r = { 0 };
			RuleFn *fn = fnof(e, d->rule, d->variant, NULL);
			const char *args = leafargs(e, d, &r);
			dsl_map_free(&r);
			/* a target table's rewrite rules run when it rewrites (no
			   report), its entries when it partitions */
			if (d->rule->kind == RK_RULE) {
				put(&f->body, ind, fmt(e, "if (%s(r = %s(rw, rule%s)))", e->r->target ? "!graft_rw_reporting(rw) && " : "",
				                       fn->name, args));
				put(&f->body, ind + 1, "return r;");
				f->leaves = 1;
			} else if (e->hasrules) {
				put(&f->body, ind, "if (graft_rw_reporting(rw))");
				put(&f->body, ind + 1, fmt(e, "%s(rw%s);", fn->name, args));
			} else {
				put(&f->body, ind, fmt(e, "%s(rw%s);", fn->name, args));
			}
			d = d->next;
			continue;
		}
		if (!d->no) {
			/* nothing matches where the test fails: a chain of such
			   tests is one early return */
			Cat c;
			catinit(&c);
			catf(&c, "if (!(%s", cond(e, d->test));
			while (d->yes && d->yes->kind == D_TEST && !d->yes->nloads && !d->yes->no) {
				d = d->yes;
				catf(&c, " &&\n%s", cond(e, d->test));
			}
			catf(&c, "))");
			put(&f->body, ind, catend(e, &c));
			put(&f->body, ind + 1, "return 0;");
			d = d->yes;
			continue;
		}
		if (d->test->kind == S_OP && d->no->kind == D_TEST && d->no->test->kind == S_OP && !d->no->nloads &&
		    strcmp(d->no->test->v, d->test->v) == 0) {
			d = opswitch(e, f, d, ind, p);
			continue;
		}
		if (ind >= MAXNEST || lines(d->yes) > SPLITLINES) {
			put(&f->body, ind, fmt(e, "if (%s)", cond(e, d->test)));
			put(&f->body, ind + 1, fmt(e, "return %s;", split(e, d->yes, p, NULL)));
		} else {
			uint32_t mark = p->n;
			put(&f->body, ind, fmt(e, "if (%s) {", cond(e, d->test)));
			render(e, f, d->yes, ind + 1, p);
			p->n = mark;
			if (!returns(&f->body, ind + 1))
				put(&f->body, ind + 1, "return 0;");
			put(&f->body, ind, "}");
		}
		d = d->no;
	}
}

/* function: the function name(params) of subtree d, after the comment
** about it */
static void
function(Emit *e, Out *o, const char *comment, const char *name, const char *const *params, uint32_t nparams,
         int top, const DNode *d)
{
	Fn f;
	Path p = { 0 };
	Cat sig;

	memset(&f, 0, sizeof f);
	e->usesm = 0;
	for (uint32_t i = 0; i < nparams; i++)
		pathpush(&p, params[i]);
	render(e, &f, d, 1, &p);
	free(p.v);
	if (f.nvars > 1)
		qsort(f.vars, f.nvars, sizeof *f.vars, varcmp);

	put(o, 0, "");
	put(o, 0, comment);
	put(o, 0, "static graft_node");
	catinit(&sig);
	catf(&sig, "%s(graft_rw *rw", name);
	if (top)
		catf(&sig, ", graft_node v, uint32_t *rule");
	else {
		if (e->hasrules)
			catf(&sig, ", uint32_t *rule");
		for (uint32_t i = 0; i < nparams; i++)
			catf(&sig, ", graft_node %s", params[i]);
	}
	catf(&sig, ")");
	put(o, 0, catend(e, &sig));
	put(o, 0, "{");
	if (e->usesm)
		put(o, 1, "const graft_ir *m = graft_rw_ir(rw);");
	if ((top || e->hasrules) && !mentions(&f.body, "(rw, rule"))
		put(o, 1, "(void)rule;");       /* no rewrite rule below */
	if (f.leaves)
		put(o, 1, "graft_node r;");
	for (uint32_t i = 0; i < f.nvars; i += 8) {
		const char *line = "graft_node ";
		for (uint32_t j = i; j < f.nvars && j < i + 8; j++)
			line = fmt(e, "%s%s%s", line, f.vars[j], j + 1 < f.nvars && j + 1 < i + 8 ? ", " : ";");
		put(o, 1, line);
	}
	if (e->usesm || f.nvars || f.leaves || top || e->hasrules)
		put(o, 0, "");
	for (uint32_t i = 0; i < f.body.n; i++) {
		ir_vgrow(&o->v, &o->cap, o->n + 1);
		o->v[o->n++] = f.body.v[i];
	}
	if (!returns(&f.body, 1))
		put(o, 1, "return 0;");
	put(o, 0, "}");
	free(f.body.v);
	free(f.vars);
	dsl_map_free(&f.decl);
}

/* emitfn: split k after every split it calls (callees first: no
** prototypes, and a new function stands next to its caller) */
static void
emitfn(Emit *e, uint32_t k)
{
	Split *s = &e->splits[k];

	if (s->done)
		return;
	s->done = 1;
	for (uint32_t i = 0; i < s->ncalls; i++)
		emitfn(e, s->calls[i]);
	s = &e->splits[k];
	for (uint32_t i = 0; i < s->out.n; i++) {
		ir_vgrow(&e->funcs.v, &e->funcs.cap, e->funcs.n + 1);
		e->funcs.v[e->funcs.n++] = s->out.v[i];
	}
}

/* tree: the functions of the rules rooted at one op: one, and those it
** is split into */
static void
tree(Emit *e, const Tree *t)
{
	const char *what = t->kind == NK_CALL && !t->op ? "rules rooted at a call of any op" :
	                   t->kind == NK_CALL ? fmt(e, "rules rooted at %s", ir_ops[t->op].name) :
	                   t->kind == NK_TUPLE ? "rules rooted at a tuple" :
	                   t->kind == NK_CALLFN ? "rules rooted at a call of a function" : "rules rooted at a projection";

	e->tree = t;
	e->nsplits = 0;
	e->nshared = 0;
	/* split 0 is the tree's own function; rendering one may add more */
	ir_vgrow(&e->splits, &e->capsplits, 1);
	memset(&e->splits[0], 0, sizeof *e->splits);
	e->splits[0].name = treename(e, t);
	e->splits[0].d = t->root;
	e->nsplits = 1;
	for (uint32_t i = 0; i < e->nsplits; i++) {
		Split s = e->splits[i];
		Out o = { 0 };
		e->cursplit = i;
		if (i == 0)
			function(e, &o, fmt(e, "/* %s */", what), s.name, NULL, 0, 1, s.d);
		else
			function(e, &o, fmt(e, "/* %s, from %s on */", what, incomment(e, e->tree->rows[s.d->prio].rule->name)),
			         s.name, s.vars, s.nvars, 0, s.d);
		e->splits[i].out = o;
	}
	emitfn(e, 0);
	for (uint32_t i = 0; i < e->nsplits; i++) {
		free(e->splits[i].out.v);
		free(e->splits[i].calls);
	}
}

/* ---------------------------------------------------------------- files */

/* Indentation stops at this many tabs: text nested deeper (a long chain of
** tests) is still linear in size. */
enum { MAXINDENT = 64 };

/* render_: write the lines of o, the first being output line line + 1;
** outname, the generated file's name, is a C string literal */
static uint32_t
render_(FILE *f, const Out *o, const char *outname, uint32_t line)
{
	for (uint32_t i = 0; i < o->n; i++) {
		const Line *l = &o->v[i];
		const char *s, *nl;
		if (!l->text) {
			if (l->file)
				fprintf(f, "#line %u %s\n", l->line, l->file);
			else
				fprintf(f, "#line %u %s\n", line + 1, outname);
			line++;
			continue;
		}
		/* a text may hold several lines (joined conditions): indent each */
		for (s = l->text;; s = nl + 1) {
			int extra = s != l->text;
			nl = strchr(s, '\n');
			if (*s || nl)
				for (int k = 0; k < l->indent + extra && k < MAXINDENT; k++)
					fputc('\t', f);
			if (extra)
				fputs("    ", f);
			fwrite(s, 1, nl ? (size_t)(nl - s) : strlen(s), f);
			fputc('\n', f);
			line++;
			if (!nl)
				break;
		}
	}
	return line;
}

int
dsl_emit(Rules *r, FILE *c, FILE *h, const EmitOpts *o)
{
	Emit e;
	const Tree *anyop = NULL;       /* the tree of calls of any op (a target table's), if any */
	const char *name, *src = r->path, **rids;
	uint32_t *byorder;
	uint32_t line;

	/* what code cannot evaluate is reported first: from here on, every
	   guard and result has code */
	if (dsl_guards(r))
		return -1;
	memset(&e, 0, sizeof e);
	e.r = r;
	e.o = o;
	name = cname(&e, r->name);
	for (uint32_t i = 0; i < r->nrules; i++)
		e.hasrules |= r->rules[i].kind == RK_RULE;

	/* each rule's id and functions, then the trees that call them: they
	   decide the string and literal tables */
	/* rules are named, and their functions written, in the order of the
	   file; they are tried in priority order (Rule.index) */
	rids = ir_arena_alloc(&r->arena, (r->nrules ? r->nrules : 1) * sizeof *rids);
	byorder = ir_arena_alloc(&r->arena, (r->nrules ? r->nrules : 1) * sizeof *byorder);
	e.rids = rids;
	e.fns = ir_arena_alloc(&r->arena, (r->nrules ? r->nrules : 1) * sizeof *e.fns);
	for (uint32_t i = 0; i < r->nrules; i++)
		byorder[r->rules[i].order] = i;
	for (uint32_t i = 0; i < r->nrules; i++) {
		const Rule *ru = &r->rules[byorder[i]];
		rids[i] = ruleid(&e, ru);
		for (uint32_t v = 0; v < ru->nvariants; v++)
			fnof(&e, ru, v, fmt(&e, "%s_%s", ru->kind == RK_RULE ? "rule" : ru->kind == RK_COMPOSITE ?
			                    "composite" : "supports", rids[i] + 2));
	}
	for (uint32_t i = 0; i < r->nrules; i++)
		for (RuleFn *fn = e.fns[i]; fn; fn = fn->next)
			rulefn(&e, &r->rules[byorder[i]], fn, rids[i]);
	for (uint32_t i = 0; i < r->ntrees; i++)
		tree(&e, &r->trees[i]);

	put(&e.tables, 0, fmt(&e, "/* Code generated by graftc from %s; DO NOT EDIT. */", incomment(&e, src)));
	if (r->target) {
		put(&e.tables, 0, "");
		put(&e.tables, 0, fmt(&e, "/* The pattern table of target %s: match() reports every composite and", incomment(&e, r->name)));
		put(&e.tables, 0, "   supported op that matches at a node, in priority order, to the partitioner. */");
	}
	put(&e.tables, 0, "");
	if (e.usesmath)
		put(&e.tables, 0, "#include <math.h>");
	put(&e.tables, 0, "#include \"rules.h\"");
	if (o->header) {
		const char *base = strrchr(o->header, '/');
		put(&e.tables, 0, fmt(&e, "#include %s", cstr(&e, base ? base + 1 : o->header)));
	} else if (r->nexts) {
		put(&e.tables, 0, "");
		for (uint32_t i = 0; i < r->nexts; i++) {
			const char *params;
			Cat cat;
			catinit(&cat);
			for (uint32_t j = 0; j < r->exts[i].nparams; j++)
				catf(&cat, ", graft_node");
			params = catend(&e, &cat);
			put(&e.tables, 0, fmt(&e, "%s graft_%s_%s(graft_rw *rw, graft_node root%s);",
			                      r->exts[i].action ? "graft_node" : "int", r->exts[i].action ? "action" : "pred",
			                      r->exts[i].name, params));
		}
	}
	put(&e.tables, 0, "");
	put(&e.tables, 0, "/* The rules in the order of the file, where each is (the one place that");
	put(&e.tables, 0, "   holds line numbers) and its priority; the strings compared as interned");
	put(&e.tables, 0, "   symbols; the attribute literals, in Relay syntax.  The code below names");
	put(&e.tables, 0, "   each one. */");
	put(&e.tables, 0, "#define RULES(X) \\");
	for (uint32_t i = 0; i < r->nrules; i++) {
		const Rule *ru = &r->rules[byorder[i]];
		put(&e.tables, 1, fmt(&e, "X(%s, %s, %s, %u, %s, %d) \\", rids[i], cstr(&e, ru->name),
		                      cstr(&e, r->m->files[ru->loc.file]), ru->loc.line,
		                      ru->kind == RK_COMPOSITE ? "GRAFT_COMPOSITE" :
		                      ru->kind == RK_SUPPORTS ? "GRAFT_SUPPORTS" : "GRAFT_RULE", ru->prio));
	}
	put(&e.tables, 1, "/* end */");
	{
		/* strings and literals sorted by name: one added is one line */
		const char **v[2] = { e.strs, e.lits };
		uint32_t n[2] = { e.nstrs, e.nlits };
		const char *list[2] = { "STRS", "LITS" };
		for (int k = 0; k < 2; k++) {
			const char **sorted = ir_xmalloc((n[k] ? n[k] : 1) * sizeof *sorted);
			for (uint32_t i = 0; i < n[k]; i++)
				sorted[i] = v[k][2 * i];
			if (n[k] > 1)
				qsort(sorted, n[k], sizeof *sorted, varcmp);
			put(&e.tables, 0, fmt(&e, "#define %s(X) \\", list[k]));
			for (uint32_t i = 0; i < n[k]; i++) {
				uint32_t j = 0;
				while (strcmp(v[k][2 * j], sorted[i]) != 0)
					j++;
				put(&e.tables, 1, fmt(&e, "X(%s, %s) \\", sorted[i], cstr(&e, v[k][2 * j + 1])));
			}
			put(&e.tables, 1, "/* end */");
			free(sorted);
		}
	}
	put(&e.tables, 0, "");
	put(&e.tables, 0, "#define ID(id, ...) id,");
	put(&e.tables, 0, "#define TEXT(id, text) text,");
	put(&e.tables, 0, "#define INFO(id, name, file, line, kind, prio) { name, file, line, kind, prio },");
	put(&e.tables, 0, "enum { RULES(ID) NRULES };");
	put(&e.tables, 0, "enum { STRS(ID) NSTRS };");
	put(&e.tables, 0, "enum { LITS(ID) NLITS };");
	put(&e.tables, 0, "static const graft_rule_info rules[NRULES + 1] = { RULES(INFO) { 0 } };");
	put(&e.tables, 0, "static const char *const strs[NSTRS + 1] = { STRS(TEXT) 0 };");
	put(&e.tables, 0, "static const char *const lits[NLITS + 1] = { LITS(TEXT) 0 };");
	put(&e.tables, 0, "");
	{
		/* the ops the code names, sorted by name: one added is one line;
		   every extern op declared, used or not, and the roots, which
		   the table below names */
		OpId *sorted;
		uint32_t n = 0;
		for (uint32_t i = 0; i < r->nxops; i++)
			e.usesop[r->xops[i].op] = 1;
		for (uint32_t i = 0; i < r->ntrees; i++)
			if (r->trees[i].kind == NK_CALL)
				e.usesop[r->trees[i].op] = 1;
		sorted = ir_xmalloc(IR_MAXOPS * sizeof *sorted);
		for (OpId op = 1; op < ir_op_count(); op++)
			if (e.usesop[op])
				sorted[n++] = op;
		qsort(sorted, n, sizeof *sorted, opcmp);
		put(&e.tables, 0, "/* The ops the code names, by name, with a fingerprint of the operands and");
		put(&e.tables, 0, "   attributes each had here: graft's (OPS), then plugins' (XOPS).  Their");
		put(&e.tables, 0, "   local ids are 1, 2, ... in this order, which the rewrite driver binds");
		put(&e.tables, 0, "   by name to the ops where the code runs (graft_rw_lop(), graft_rw_gop());");
		put(&e.tables, 0, "   in graft's own build (GRAFT_BUILDING), graft's ops have their ids");
		put(&e.tables, 0, "   there, which need no translating. */");
		for (int x = 0; x < 2; x++) {
			put(&e.tables, 0, x ? "#define XOPS(X) \\" : "#define OPS(X) \\");
			for (uint32_t i = 0; i < n; i++) {
				OpId op = sorted[i];
				if ((op >= OP_COUNT) == x)
					put(&e.tables, 1, fmt(&e, "X(%s, %s, 0x%08x) \\", upper(&e, "", ir_ops[op].name),
					                      cstr(&e, ir_ops[op].name), ir_rw_schema(&ir_ops[op])));
			}
			put(&e.tables, 1, "/* end */");
		}
		put(&e.tables, 0, "#define ONE(...) + 1");
		put(&e.tables, 0, "#ifdef GRAFT_BUILDING");
		put(&e.tables, 0, "#define LOPID(id, name, schema) LOP_##id = OP_##id,");
		put(&e.tables, 0, "enum { XOP_BASE_ = IR_MAXOPS - 1 };");
		put(&e.tables, 0, "#else");
		put(&e.tables, 0, "#define LOPID(id, name, schema) LOP_##id,");
		put(&e.tables, 0, "enum { XOP_BASE_ = 0 OPS(ONE) };");
		put(&e.tables, 0, "#endif");
		put(&e.tables, 0, "#define XOPID(id, name, schema) XOP_##id,");
		put(&e.tables, 0, "#define LOPINFO(id, name, schema) { name, LOP_##id, schema },");
		put(&e.tables, 0, "#define XOPINFO(id, name, schema) { name, XOP_##id, schema },");
		put(&e.tables, 0, "enum { LOP_NONE_, OPS(LOPID) LOP_END_ };");
		put(&e.tables, 0, "enum { XOP_NONE_ = XOP_BASE_, XOPS(XOPID) XOP_END_ };");
		put(&e.tables, 0, "static const graft_rule_op ops[] = { OPS(LOPINFO) XOPS(XOPINFO) { 0, 0, 0 } };");
		free(sorted);
	}
	put(&e.tables, 0, "");
	put(&e.tables, 0, "/* the ops of the calls that patterns are rooted at, and their matchers */");
	put(&e.tables, 0, "#define ROOTS(X) \\");
	for (uint32_t i = 0; i < r->ntrees; i++)
		if (r->trees[i].kind == NK_CALL && r->trees[i].op)
			put(&e.tables, 1, fmt(&e, "X(%s, %s) \\", opname(&e, r->trees[i].op), treename(&e, &r->trees[i])));
		else if (r->trees[i].kind == NK_CALL)
			anyop = &r->trees[i];
	put(&e.tables, 1, "/* end */");
	if (!anyop) {
		put(&e.tables, 0, "#define OPOF(op, fn) op,");
		put(&e.tables, 0, "static const graft_op roots[] = { ROOTS(OPOF) 0 };");
	}

	/* the dispatcher */
	put(&e.funcs, 0, "");
	put(&e.funcs, 0, "/* match: try the rules rooted at v, in priority order */");
	put(&e.funcs, 0, "static graft_node");
	put(&e.funcs, 0, "match(graft_rw *rw, graft_node v, uint32_t *rule)");
	put(&e.funcs, 0, "{");
	put(&e.funcs, 1, fmt(&e, "switch (%s) {", opof(&e, "v")));
	if (anyop) {
		/* a target table's: every match is reported, the op's then any op's */
		put(&e.funcs, 0, "#define CASE(op, fn) case op: fn(rw, v, rule); break;");
	} else {
		put(&e.funcs, 0, "#define CASE(op, fn) case op: return fn(rw, v, rule);");
	}
	put(&e.funcs, 1, "ROOTS(CASE)");
	put(&e.funcs, 0, "#undef CASE");
	put(&e.funcs, 1, "default:");
	put(&e.funcs, 2, "break;");
	put(&e.funcs, 1, "}");
	if (anyop) {
		put(&e.funcs, 1, "if (graft_kind(graft_rw_ir(rw), v) == GRAFT_NK_CALL)");
		put(&e.funcs, 2, fmt(&e, "return %s(rw, v, rule);", treename(&e, anyop)));
	}
	for (uint32_t i = 0; i < r->ntrees; i++)
		if (r->trees[i].kind != NK_CALL) {
			put(&e.funcs, 1, fmt(&e, "if (graft_kind(graft_rw_ir(rw), v) == %s)", kindname(r->trees[i].kind)));
			put(&e.funcs, 2, fmt(&e, "return %s(rw, v, rule);", treename(&e, &r->trees[i])));
		}
	if (!r->ntrees)
		put(&e.funcs, 1, "(void)rule;");
	put(&e.funcs, 1, "return 0;");
	put(&e.funcs, 0, "}");
	put(&e.funcs, 0, "");
	put(&e.funcs, 0, fmt(&e, "const graft_matcher graft_ruleset_%s = {", name));
	put(&e.funcs, 1, fmt(&e, "%s, %s,", cstr(&e, r->name), cstr(&e, src)));
	put(&e.funcs, 1, "NRULES, rules,");
	put(&e.funcs, 1, "NSTRS, strs,");
	put(&e.funcs, 1, "NLITS, lits,");
	put(&e.funcs, 1, "match,");
	put(&e.funcs, 1, r->target ? "1," : "0,");
	{
		uint32_t nroots = 0;
		unsigned kinds = 0;
		for (uint32_t i = 0; i < r->ntrees; i++)
			if (r->trees[i].kind == NK_CALL)
				nroots++;
			else
				kinds |= 1u << r->trees[i].kind;
		(void)nroots;
		/* any op's tree: every call (roots NULL) */
		put(&e.funcs, 1, anyop ? "0, NULL," : "sizeof roots / sizeof *roots - 1, roots,");
		{
			const char *bits = NULL;
			static const int order[] = { NK_TUPLE, NK_GETITEM, NK_CALLFN };
			for (uint32_t i = 0; i < 3; i++)
				if (kinds & (1u << order[i]))
					bits = bits ? fmt(&e, "%s | 1 << %s", bits, kindname(order[i])) :
					       fmt(&e, "1 << %s", kindname(order[i]));
			put(&e.funcs, 1, fmt(&e, "%s,", bits ? bits : "0"));
		}
	}
	put(&e.funcs, 1, "0,");
	put(&e.funcs, 1, "sizeof ops / sizeof *ops - 1, ops,");
	put(&e.funcs, 0, "};");

	{
		const char *outname = cstr(&e, o->out ? o->out : "<stdout>");
		line = render_(c, &e.tables, outname, 0);
		line = render_(c, &e.rtables, outname, line);
		render_(c, &e.funcs, outname, line);
	}

	if (h) {
		const char *guard = fmt(&e, "%s_H", upper(&e, "GRAFT_GEN_", name));
		fprintf(h, "/* Code generated by graftc from %s; DO NOT EDIT. */\n", incomment(&e, src));
		fprintf(h, "#ifndef %s\n#define %s\n\n#include \"rules.h\"\n\n", guard, guard);
		fprintf(h, "extern const graft_matcher graft_ruleset_%s;\n", name);
		if (r->nexts)
			fputs("\n/* Declared in the rules with extern; define them in C. */\n", h);
		for (uint32_t i = 0; i < r->nexts; i++) {
			fprintf(h, "%s graft_%s_%s(graft_rw *rw, graft_node root", r->exts[i].action ? "graft_node" : "int",
			        r->exts[i].action ? "action" : "pred", r->exts[i].name);
			for (uint32_t j = 0; j < r->exts[i].nparams; j++)
				fputs(", graft_node", h);
			fputs(");\n", h);
		}
		fprintf(h, "\n#endif\n");
	}
	free(e.tables.v);
	free(e.rtables.v);
	dsl_map_free(&e.rpats);
	free(e.funcs.v);
	free(e.strs);
	free(e.lits);
	free(e.splits);
	free(e.shared);
	dsl_map_free(&e.names);
	dsl_map_free(&e.strmap);
	dsl_map_free(&e.litmap);
	dsl_map_free(&e.bound);
	return 0;
}
