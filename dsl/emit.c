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
** Layout of a generated file: a DO NOT EDIT header, the rule, string and
** literal tables, one static function per root op, a dispatcher, and the
** exported `const Ruleset graft_ruleset_NAME`.
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
	Out tables, funcs;
	const char **strs; uint32_t nstrs, capstrs;
	const char **lits; uint32_t nlits, caplits;
	NameMap strmap, litmap;     /* text -> index in strs, lits */
	NameMap bound;              /* the leaf's variant: name -> its bind */
	int usesm;              /* the current function reads the module */
	uint32_t ntemp;
	int errors;
	/* the leaf being emitted */
	const Rule *rule;
	const Variant *var;
	/* the steps (loads and tests) on the way from the tree's root to it */
	const Step **path; uint32_t npath, cappath;
} Emit;

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

static uint32_t
strid(Emit *e, const char *s)
{
	uint32_t i = dsl_map_get(&e->strmap, s);

	if (i != UINT32_MAX)
		return i;
	ir_vgrow(&e->strs, &e->capstrs, e->nstrs + 1);
	e->strs[e->nstrs] = s;
	dsl_map_put(&e->strmap, s, e->nstrs);
	return e->nstrs++;
}

/* litid: the index of an attribute literal, kept as Relay text */
static uint32_t
litid(Emit *e, const Ast *lit)
{
	const char *s = printed(e, lit);

	{
		uint32_t i = dsl_map_get(&e->litmap, s);
		if (i != UINT32_MAX)
			return i;
	}
	ir_vgrow(&e->lits, &e->caplits, e->nlits + 1);
	e->lits[e->nlits] = s;
	dsl_map_put(&e->litmap, s, e->nlits);
	return e->nlits++;
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

/* dtname: the DT_ enum name of a dtype */
static const char *
dtname(Emit *e, int dt)
{
	if (dt <= DT_VOID || dt >= DT_COUNT)
		return "DT_VOID";
	return upper(e, "DT_", ir_dtype_names[dt]);
}

/* opname: the OP_ enum name of an op */
static const char *
opname(Emit *e, OpId op)
{
	return upper(e, "OP_", ir_ops[op].name);
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
dsl_print(FILE *f, const Ast *a)
{
	char buf[64];

	switch (a->kind) {
	case A_ANY: fputc('_', f); break;
	case A_CONST: fputs("const", f); break;
	case A_VAR: fputs("var", f); break;
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
	case A_TUPLE:
		fputc('(', f);
		printlist(f, a->kid, a->nkid);
		fputs(a->nkid == 1 && a->kid[0]->kind != A_REST ? ",)" : ")", f);
		break;
	case A_GETITEM: dsl_print(f, a->kid[0]); fprintf(f, ".%lld", (long long)a->i); break;
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

/* comment: a pattern, guard or result as text safe inside a C comment */
static const char *
comment(Emit *e, const Ast *a)
{
	return incomment(e, printed(e, a));
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
	const char *dot;
	const Bind *b;

	if (a->kind != A_NAME)
		return 0;
	dot = strchr(a->s, '.');
	b = findbind(e, dot ? dsl_strdup(e->r, a->s, (size_t)(dot - a->s)) : a->s);
	if (!b)
		return 0;
	if (dot && b->kind == 0 && b->op) {
		*var = b->var;
		*op = b->op;
		*k = ir_op_attr_index(b->op, dot + 1, strlen(dot + 1));
		return *k >= 0;
	}
	if (!dot && b->kind == 1) {
		const Ast *at = b->at;
		while (at->kind == A_TYPED || at->kind == A_BIND)
			at = at->kid[0];
		*var = b->var;
		*op = at->op;
		*k = b->attr;
		return 1;
	}
	return 0;
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
				ir_error(e->r->d, y->loc, "\"%s\" is not a dtype", y->s);
				e->errors++;
			}
			res = fmt(e, "%s == %s", gexpr(e, x), dtname(e, dt));
		} else if (attrref(e, x, &var, &k, &op)) {
			e->usesm = 1;
			res = fmt(e, "rw_attr_s(m, %s, %d /* %s */) == rw->syms[%u]", var, k, ir_ops[op].attrs[k].name,
			          strid(e, y->s));
		} else {
			ir_error(e->r->d, x->loc, "a string compares with dtype(x) or a string attribute");
			e->errors++;
			res = "0";
		}
	} else if (y->kind == A_NONE) {
		if (!attrref(e, x, &var, &k, &op)) {
			ir_error(e->r->d, x->loc, "only an attribute can be None");
			e->errors++;
			res = "0";
		} else {
			e->usesm = 1;
			res = fmt(e, "rw_attr_isnone(m, %s, %d /* %s */)", var, k, ir_ops[op].attrs[k].name);
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
			res = fmt(e, "rw_shape_eq(m, %s, (const int64_t[]){ %s }, %u)", nodevar(e, x->kid[0]),
			          y->nkid ? vals : "0", y->nkid);
		else if (attrref(e, x, &var, &k, &op))
			res = fmt(e, "rw_attr_ints_eq(m, %s, %d /* %s */, (const int64_t[]){ %s }, %u)", var, k,
			          ir_ops[op].attrs[k].name, y->nkid ? vals : "0", y->nkid);
		else {
			ir_error(e->r->d, x->loc, "a list compares with shape(x) or a list attribute");
			e->errors++;
			res = "0";
		}
	} else if (attrref(e, x, &var, &k, &op) && attrref(e, y, &var, &k, &op) &&
	           AT_TYPE(ir_ops[op].attrs[k].type) != AT_INT && AT_TYPE(ir_ops[op].attrs[k].type) != AT_FLOAT &&
	           AT_TYPE(ir_ops[op].attrs[k].type) != AT_BOOL) {
		const char *v1, *v2;
		int k1, k2;
		OpId o1, o2;
		attrref(e, x, &v1, &k1, &o1);
		attrref(e, y, &v2, &k2, &o2);
		e->usesm = 1;
		res = fmt(e, "rw_attr_same(m, %s, %d, %s, %d)", v1, k1, v2, k2);
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
				return fmt(e, "rw_attr_f(m, %s, %d /* %s */)", var, k, ir_ops[op].attrs[k].name);
			if (t == AT_INT || t == AT_BOOL || t == AT_DTYPE)
				return fmt(e, "rw_attr_i(m, %s, %d /* %s */)", var, k, ir_ops[op].attrs[k].name);
			return fmt(e, "rw_attr_num(rw, %s, %d /* %s */)", var, k, ir_ops[op].attrs[k].name);
		}
		return nodevar(e, a);
	case A_UNOP:
		return fmt(e, "(%s%s)", a->i == '!' ? "!" : "-", gexpr(e, a->kid[0]));
	case A_INDEX:
		if (a->kid[0]->kind == A_CALL && strcmp(a->kid[0]->s, "shape") == 0)
			return fmt(e, "rw_dim(rw, %s, %s)", nodevar(e, a->kid[0]->kid[0]), gexpr(e, a->kid[1]));
		if (attrref(e, a->kid[0], &var, &k, &op))
			return fmt(e, "rw_attr_ints_at(rw, %s, %d /* %s */, %s)", var, k, ir_ops[op].attrs[k].name,
			           gexpr(e, a->kid[1]));
		ir_error(e->r->d, a->loc, "only shape(x) and list attributes can be indexed");
		e->errors++;
		return "0";
	case A_BINOP: {
		const char *x, *y;
		if (a->i == T_EQ || a->i == T_NE)
			return compare(e, a->kid[0], a->kid[1], a->i == T_NE);
		x = gexpr(e, a->kid[0]);
		y = gexpr(e, a->kid[1]);
		if ((a->i == '/' || a->i == '%') && a->kid[0]->vt == V_INT && a->kid[1]->vt == V_INT)
			return fmt(e, "rw_%s(rw, %s, %s)", a->i == '/' ? "idiv" : "imod", x, y);
		if (a->i == '%')
			return fmt(e, "fmod(%s, %s)", x, y);
		return fmt(e, "(%s %s %s)", x, opstr((int)a->i), y);
	}
	case A_CALL: {
		const char *x;
		if (strcmp(a->s, "floor") == 0)
			return fmt(e, "floor((double)(%s))", gexpr(e, a->kid[0]));
		if (strcmp(a->s, "log2") == 0 || strcmp(a->s, "exp2") == 0)
			return fmt(e, "%s((double)(%s))", a->s, gexpr(e, a->kid[0]));
		x = a->nkid ? nodevar(e, a->kid[0]) : "0";
		if (strcmp(a->s, "dtype") == 0) { e->usesm = 1; return fmt(e, "rw_dtype(m, %s)", x); }
		if (strcmp(a->s, "rank") == 0) return fmt(e, "rw_rank(rw, %s)", x);
		if (strcmp(a->s, "numel") == 0) return fmt(e, "rw_numel(rw, %s)", x);
		if (strcmp(a->s, "value") == 0) return fmt(e, "rw_value(rw, %s)", x);
		if (strcmp(a->s, "is_const") == 0) { e->usesm = 1; return fmt(e, "(rw_kind(m, %s) == NK_CONST)", x); }
		if (strcmp(a->s, "is_scalar") == 0) { e->usesm = 1; return fmt(e, "rw_is_scalar(m, %s)", x); }
		if (strcmp(a->s, "uses") == 0) { e->usesm = 1; return fmt(e, "(int64_t)ir_nuses(m, %s)", x); }
		if (strcmp(a->s, "present") == 0) return findbind(e, a->kid[0]->s) ? "1" : "0";
		if (strcmp(a->s, "len") == 0) {
			const Bind *b = findbind(e, a->kid[0]->s);
			e->usesm = 1;
			return fmt(e, "((int64_t)rw_nargs(m, %s) - %u)", b ? b->var : "0", b ? b->start : 0);
		}
		if (strcmp(a->s, "shape") == 0) {
			ir_error(e->r->d, a->loc, "shape(x) is compared with a list or indexed");
			e->errors++;
			return "0";
		}
		{
			/* an extern predicate */
			Cat args;
			catinit(&args);
			for (uint32_t i = 0; i < a->nkid; i++)
				catf(&args, ", %s", nodevar(e, a->kid[i]));
			return fmt(e, "graft_pred_%s(rw, v%s)", a->s, catend(e, &args));
		}
	}
	default:
		ir_error(e->r->d, a->loc, "this cannot be evaluated in a guard");
		e->errors++;
		return "0";
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
		put(o, ind, fmt(e, "rw_set_from(rw, %s, %d /* %s */, %s, %d);", av, k, name, var, k2));
		return;
	}
	switch (t) {
	case AT_INT:
		put(o, ind, fmt(e, "rw_set_i(rw, %s, %d /* %s */, %s);", av, k, name, gexpr(e, a)));
		return;
	case AT_BOOL:
		put(o, ind, fmt(e, "rw_set_b(rw, %s, %d /* %s */, %s);", av, k, name, gexpr(e, a)));
		return;
	case AT_FLOAT:
		put(o, ind, fmt(e, "rw_set_f(rw, %s, %d /* %s */, %s);", av, k, name, gexpr(e, a)));
		return;
	case AT_DTYPE:
		if (a->kind == A_STR) {
			put(o, ind, fmt(e, "rw_set_dtype(rw, %s, %d /* %s */, %s);", av, k, name,
			                dtname(e, ir_dtype_parse(a->s, strlen(a->s)))));
			return;
		}
		break;
	case AT_STR:
		if (a->kind == A_STR) {
			put(o, ind, fmt(e, "rw_set_sym(rw, %s, %d /* %s */, rw->syms[%u]);", av, k, name, strid(e, a->s)));
			return;
		}
		break;
	default:
		break;
	}
	if (a->kind == A_INT || a->kind == A_FLOAT || a->kind == A_STR || a->kind == A_BOOL ||
	    a->kind == A_NONE || a->kind == A_LIST) {
		put(o, ind, fmt(e, "rw_set_lit(rw, %s, %d /* %s */, %u);", av, k, name, litid(e, a)));
		return;
	}
	ir_error(e->r->d, a->loc, "cannot compute attribute '%s' of %s from this expression", name, ir_ops[op].name);
	e->errors++;
}

/* onpath: the step of kind k about variable v on the way to the leaf */
static const Step *
onpath(const Emit *e, int k, const char *v)
{
	for (uint32_t i = e->npath; i-- > 0;)
		if (e->path[i]->kind == k && strcmp(e->path[i]->v, v) == 0)
			return e->path[i];
	return NULL;
}

/* pathpush: step s is on the way to the leaves below it */
static void
pathpush(Emit *e, const Step *s)
{
	ir_vgrow(&e->path, &e->cappath, e->npath + 1);
	e->path[e->npath++] = s;
}

/* inplace: for a rule's result a, a call whose operands are the operands
** 0..n-1 of one matched node d below the root, in order, the arguments
** that rw_call_in_place() takes after the attributes: d and the matched
** nodes between the root and d; NULL if a is not such a call */
static const char *
inplace(Emit *e, const Ast *a)
{
	const char *d = NULL, *path = "";
	const Step *l;
	uint32_t n = 0, np = 0;

	if (a != e->rule->result)
		return NULL;
	for (uint32_t i = 0; i < a->nkid; i++) {
		const Ast *k = a->kid[i];
		const Bind *b;
		if (k->kind == A_ATTR || k->kind == A_ATTRS)
			continue;
		if (k->kind != A_NAME || !(b = findbind(e, k->s)) || b->kind != 0 || !(l = onpath(e, S_LOAD, b->var)) ||
		    l->k != (int)n || (d && strcmp(l->v2, d) != 0))
			return NULL;
		d = l->v2;
		n++;
	}
	if (!d || strcmp(d, "v") == 0 || !(l = onpath(e, S_OP, d)) || l->n != a->op)
		return NULL;        /* d is not known to be a call of a's op */
	for (l = onpath(e, S_LOAD, d); l && strcmp(l->v2, "v") != 0; l = onpath(e, S_LOAD, l->v2))
		path = fmt(e, "%s%s", np++ ? fmt(e, "%s, ", path) : "", l->v2);
	if (!l)
		return NULL;
	return np ? fmt(e, "%s, (const NodeId[]){ %s }, %u", d, path, np) : fmt(e, "%s, NULL, 0", d);
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
			put(o, ind, fmt(e, "AttrId %s = rw_attrs_copy(rw, %s, %s);", av, opname(e, a->op), from));
		else
			put(o, ind, fmt(e, "AttrId %s = rw_attrs(rw, %s);", av, opname(e, a->op)));
		for (uint32_t i = 0; i < a->nkid; i++)
			if (a->kid[i]->kind == A_ATTR)
				setattr(e, o, ind, av, a->op, ir_op_attr_index(a->op, a->kid[i]->s, strlen(a->kid[i]->s)), a->kid[i]->kid[0]);
	}
	t = temp(e);
	if ((over = inplace(e, a)))
		put(o, ind, fmt(e, "NodeId %s = rw_call_in_place(rw, %s, (const NodeId[]){ %s }, %u, %s, %s);", t,
		                opname(e, a->op), args, n, av, over));
	else
		put(o, ind, fmt(e, "NodeId %s = rw_call(rw, %s, (const NodeId[]){ %s }, %u, %s);", t, opname(e, a->op),
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
		put(o, ind, fmt(e, "NodeId %s = rw_scalar_i(rw, %s, %lldLL);", t,
		                dtname(e, a->kind == A_BOOL ? DT_BOOL : a->dtype), (long long)a->i));
		return t;
	case A_FLOAT:
		t = temp(e);
		put(o, ind, fmt(e, "NodeId %s = rw_scalar_f(rw, %s, %s);", t, dtname(e, a->dtype), dbl(e, a->f)));
		return t;
	case A_FOLD:
		if (a->nkid) {
			const char *x = rexpr(e, a->kid[0], o, ind);
			t = temp(e);
			put(o, ind, fmt(e, "NodeId %s = rw_fold_new(rw, %s);", t, x));
			return t;
		}
		t = temp(e);
		put(o, ind, fmt(e, "NodeId %s = rw_fold(rw, v);", t));
		return t;
	case A_GETITEM: {
		const char *x = rexpr(e, a->kid[0], o, ind);
		t = temp(e);
		put(o, ind, fmt(e, "NodeId %s = rw_getitem(rw, %s, %lld);", t, x, (long long)a->i));
		return t;
	}
	case A_TUPLE: {
		const char *mk = fmt(e, "m%u", ++e->ntemp);
		const char **elems = ir_xcalloc(a->nkid ? a->nkid : 1, sizeof *elems);
		for (uint32_t i = 0; i < a->nkid; i++)
			if (a->kid[i]->kind != A_REST)
				elems[i] = rexpr(e, a->kid[i], o, ind);
		put(o, ind, fmt(e, "uint32_t %s;", mk));
		put(o, ind, fmt(e, "rw_tb_begin(rw, &%s);", mk));
		for (uint32_t i = 0; i < a->nkid; i++) {
			if (a->kid[i]->kind == A_REST) {
				const Bind *b = findbind(e, a->kid[i]->s);
				put(o, ind, fmt(e, "rw_tb_rest(rw, %s, %u);", b ? b->var : "0", b ? b->start : 0));
			} else {
				put(o, ind, fmt(e, "rw_tb_add(rw, %s);", elems[i]));
			}
		}
		free(elems);
		t = temp(e);
		put(o, ind, fmt(e, "NodeId %s = rw_tb_end(rw, %s);", t, mk));
		return t;
	}
	case A_CALL:
		if (a->op)
			return rcall(e, a, o, ind);
		if ((dt = dsl_scalar_ctor(a->s)) != DT_COUNT) {
			const char *x = gexpr(e, a->kid[0]);
			t = temp(e);
			if (ir_dtype_kind[dt] == 'f')
				put(o, ind, fmt(e, "NodeId %s = rw_scalar_f(rw, %s, (double)(%s));", t, dtname(e, dt), x));
			else
				put(o, ind, fmt(e, "NodeId %s = rw_scalar_i(rw, %s, (int64_t)(%s));", t, dtname(e, dt), x));
			return t;
		}
		{
			Cat args;
			catinit(&args);
			for (uint32_t i = 0; i < a->nkid; i++)
				catf(&args, ", %s", nodevar(e, a->kid[i]));
			t = temp(e);
			put(o, ind, fmt(e, "NodeId %s = graft_action_%s(rw, v%s);", t, a->s, catend(e, &args)));
			return t;
		}
	default:
		ir_die("rexpr: kind %d", a->kind);
	}
}

/* ---------------------------------------------------------------- trees */

/* cond: the C condition of a test step */
static const char *
cond(Emit *e, const Step *s)
{
	e->usesm = 1;
	switch (s->kind) {
	case S_OP:
		return fmt(e, "rw_op(m, %s) == %s", s->v, opname(e, (OpId)s->n));
	case S_KIND:
		return fmt(e, "rw_kind(m, %s) == %s", s->v, s->k == NK_CONST ? "NK_CONST" : s->k == NK_VAR ? "NK_VAR" :
		           s->k == NK_TUPLE ? "NK_TUPLE" : "NK_GETITEM");
	case S_NARGS:
		return fmt(e, "rw_nargs(m, %s) %s %lld", s->v, s->atleast ? ">=" : "==", (long long)s->n);
	case S_INDEX:
		return fmt(e, "m->nodes[%s].aux == %lld", s->v, (long long)s->n);
	case S_SAME:
		return fmt(e, "%s == %s", s->v, s->v2);
	case S_ATTREQ:
		return fmt(e, "rw_attr_same(m, %s, %d, %s, %d)", s->v, s->k, s->v2, s->k2);
	case S_TYPE: {
		const Ast *t = s->lit;
		const char *c = NULL;
		if (t->dtype != DT_COUNT)
			c = fmt(e, "rw_dtype(m, %s) == %s", s->v, dtname(e, t->dtype));
		if (t->kid[1]) {
			const char *dims;
			Cat cat;
			catinit(&cat);
			for (uint32_t i = 0; i < t->kid[1]->nkid; i++)
				catf(&cat, "%s%lld", i ? ", " : "",
				     t->kid[1]->kid[i]->kind == A_INT ? (long long)t->kid[1]->kid[i]->i : -1LL);
			dims = catend(e, &cat);
			dims = fmt(e, "rw_shape_is(m, %s, %u, (const int64_t[]){ %s })", s->v, t->kid[1]->nkid,
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
			return fmt(e, "rw_attr_i(m, %s, %d /* %s */) == %lld", s->v, s->k, f->name, (long long)l->i);
		case AT_FLOAT:
			return fmt(e, "rw_attr_f(m, %s, %d /* %s */) == %s", s->v, s->k, f->name,
			           dbl(e, l->kind == A_INT ? (double)l->i : l->f));
		case AT_DTYPE:
			return fmt(e, "rw_attr_i(m, %s, %d /* %s */) == %s", s->v, s->k, f->name,
			           dtname(e, ir_dtype_parse(l->s, strlen(l->s))));
		case AT_STR:
			return fmt(e, "rw_attr_s(m, %s, %d /* %s */) == rw->syms[%u]", s->v, s->k, f->name, strid(e, l->s));
		default:
			return fmt(e, "rw_attr_lit(rw, %s, %d /* %s */, %u)", s->v, s->k, f->name, litid(e, l));
		}
	}
	default:
		ir_die("cond: step %d", s->kind);
	}
}

/* leaf: the guard and result of one rule variant */
static void
leaf(Emit *e, Out *o, const TNode *t, int ind)
{
	const Rule *ru = t->rule;
	const Variant *v = &ru->variants[t->variant];
	int inner = ind;

	e->rule = ru;
	e->var = v;
	dsl_map_clear(&e->bound);
	for (uint32_t i = 0; i < v->nbinds; i++)
		if (dsl_map_get(&e->bound, v->binds[i].name) == UINT32_MAX)
			dsl_map_put(&e->bound, v->binds[i].name, i);
	put(o, ind, fmt(e, "/* %s %s%s", ru->kind == RK_RULE ? "rule" : ru->kind == RK_COMPOSITE ? "composite" : "supports",
	                incomment(e, ru->name), (v->pat->flags & AF_SWAPPED) || ru->nvariants > 1 ?
	                fmt(e, ", variant %u of %u", t->variant + 1, ru->nvariants) : ""));
	if (ru->kind != RK_RULE) {
		/* a target's entry: report the match, guard or not, and go on */
		const char *nodes = "";
		put(o, ind, fmt(e, " * match:  %s%s", comment(e, v->pat), ru->guard ? "" : " */"));
		if (ru->guard)
			put(o, ind, fmt(e, " * cond:   %s */", comment(e, ru->guard)));
		for (uint32_t i = 0; i < v->ninner; i++)
			nodes = fmt(e, "%s%s%s", nodes, i ? ", " : "", v->inner[i]);
		put(o, ind, "{");
		mark(e, o, e->r->m->files[(ru->guard ? ru->guard : v->pat)->loc.file], (ru->guard ? ru->guard : v->pat)->loc.line);
		if (ru->guard) {
			put(o, ind + 1, "rw->gfail = 0;");
			put(o, ind + 1, fmt(e, "int ok = (%s) && !rw->gfail;", gexpr(e, ru->guard)));
		}
		put(o, ind + 1, fmt(e, "rw_report(rw, %u, (const NodeId[]){ %s }, %u, %s);", ru->index, nodes, v->ninner,
		                    ru->guard ? "ok" : "1"));
		mark(e, o, NULL, 0);
		put(o, ind, "}");
		return;
	}
	put(o, ind, fmt(e, " * match:  %s", comment(e, v->pat)));
	if (ru->guard)
		put(o, ind, fmt(e, " * cond:   %s", comment(e, ru->guard)));
	put(o, ind, fmt(e, " * result: %s */", comment(e, ru->result)));
	put(o, ind, "{");
	inner = ind + 1;
	if (ru->guard) {
		mark(e, o, e->r->m->files[ru->guard->loc.file], ru->guard->loc.line);
		put(o, inner, "rw->gfail = 0;");
		put(o, inner, fmt(e, "if (%s && !rw->gfail) {", gexpr(e, ru->guard)));
		inner++;
	}
	mark(e, o, e->r->m->files[ru->result->loc.file], ru->result->loc.line);
	{
		const char *r = rexpr(e, ru->result, o, inner);
		put(o, inner, fmt(e, "if (%s && !rw->gfail) {", r));
		put(o, inner + 1, fmt(e, "*rule = %u;", ru->index));
		put(o, inner + 1, fmt(e, "return %s;", r));
		put(o, inner, "}");
	}
	mark(e, o, NULL, 0);
	if (ru->guard)
		put(o, ind + 1, "}");
	put(o, ind, "}");
}

static int
istest(const Step *s)
{
	return s->kind != S_LOAD && s->kind != S_LEAF;
}

/* node: render the children of t, in order */
static void
node(Emit *e, Out *o, const TNode *t, int ind)
{
	for (uint32_t i = 0; i < t->nkids; i++) {
		const TNode *k = t->kids[i];
		if (k->step.kind == S_LEAF) {
			leaf(e, o, k, ind);
		} else if (k->step.kind == S_LOAD) {
			e->usesm = 1;
			put(o, ind, fmt(e, "%s = rw_arg(m, %s, %d);", k->step.v, k->step.v2, k->step.k));
			pathpush(e, &k->step);
			node(e, o, k, ind);
			e->npath--;
		} else {
			/* a chain of tests with one child each becomes one condition */
			uint32_t mark = e->npath;
			Cat c;
			catinit(&c);
			catf(&c, "if (%s", cond(e, &k->step));
			pathpush(e, &k->step);
			while (k->nkids == 1 && istest(&k->kids[0]->step)) {
				k = k->kids[0];
				catf(&c, " &&\n%s", cond(e, &k->step));
				pathpush(e, &k->step);
			}
			catf(&c, ") {");
			put(o, ind, catend(e, &c));
			node(e, o, k, ind + 1);
			put(o, ind, "}");
			e->npath = mark;
		}
	}
}

/* loads: the variables a tree loads, once each, into vars (seen: those
** already there) */
static void
loads(const TNode *t, const char ***vars, uint32_t *n, uint32_t *cap, NameMap *seen)
{
	for (uint32_t i = 0; i < t->nkids; i++) {
		const TNode *k = t->kids[i];
		if (k->step.kind == S_LOAD && dsl_map_get(seen, k->step.v) == UINT32_MAX) {
			dsl_map_put(seen, k->step.v, *n);
			ir_vgrow(vars, cap, *n + 1);
			(*vars)[(*n)++] = k->step.v;
		}
		loads(k, vars, n, cap, seen);
	}
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
		return fmt(e, "match_%s", cname(e, ir_ops[t->op].name));
	return t->kind == NK_TUPLE ? "match_tuple" : "match_getitem";
}

/* tree: one function for the rules rooted at one op */
static void
tree(Emit *e, const Tree *t)
{
	Out body = { 0 };
	const char **vars = NULL;
	uint32_t nvars = 0, capvars = 0;
	Out *o = &e->funcs;

	e->usesm = 0;
	e->ntemp = 0;
	node(e, &body, &t->root, 1);
	{
		NameMap seen = { 0 };
		loads(&t->root, &vars, &nvars, &capvars, &seen);
		dsl_map_free(&seen);
	}
	if (nvars > 1)
		qsort(vars, nvars, sizeof *vars, varcmp);

	put(o, 0, "");
	put(o, 0, fmt(e, "/* %s */", t->kind == NK_CALL ? fmt(e, "rules rooted at %s", ir_ops[t->op].name) :
	              t->kind == NK_TUPLE ? "rules rooted at a tuple" : "rules rooted at a projection"));
	put(o, 0, "static NodeId");
	put(o, 0, fmt(e, "%s(Rw *rw, NodeId v, uint32_t *rule)", treename(e, t)));
	put(o, 0, "{");
	if (e->usesm)
		put(o, 1, "const Module *m = rw->m;");
	if (e->r->target)
		put(o, 1, "(void)rule;");
	for (uint32_t i = 0; i < nvars; i += 8) {
		const char *line = "NodeId ";
		for (uint32_t j = i; j < nvars && j < i + 8; j++)
			line = fmt(e, "%s%s%s", line, vars[j], j + 1 < nvars && j + 1 < i + 8 ? ", " : ";");
		put(o, 1, line);
	}
	if (e->usesm || nvars)
		put(o, 0, "");
	for (uint32_t i = 0; i < body.n; i++) {
		ir_vgrow(&o->v, &o->cap, o->n + 1);
		o->v[o->n++] = body.v[i];
	}
	put(o, 1, "return 0;");
	put(o, 0, "}");
	free(body.v);
	free(vars);
}

/* ---------------------------------------------------------------- files */

/* Indentation stops at this many tabs: text nested deeper (a long chain of
** tests) is still linear in size. */
enum { MAXINDENT = 64 };

/* render: write the lines of o, the first being output line line + 1;
** outname, the generated file's name, is a C string literal */
static uint32_t
render(FILE *f, const Out *o, const char *outname, uint32_t line)
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
	const char *name, *src = r->path;
	uint32_t line;

	memset(&e, 0, sizeof e);
	e.r = r;
	e.o = o;
	name = cname(&e, r->name);

	/* functions first: they decide the string and literal tables */
	for (uint32_t i = 0; i < r->ntrees; i++)
		tree(&e, &r->trees[i]);
	if (e.errors)
		goto out;

	put(&e.tables, 0, fmt(&e, "/* Code generated by graftc from %s; DO NOT EDIT. */", incomment(&e, src)));
	if (r->target) {
		put(&e.tables, 0, "");
		put(&e.tables, 0, fmt(&e, "/* The pattern table of target %s: match() reports every composite and", incomment(&e, r->name)));
		put(&e.tables, 0, "   supported op that matches at a node, in priority order, to the partitioner. */");
	}
	put(&e.tables, 0, "");
	put(&e.tables, 0, "#include \"rewrite.h\"");
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
				catf(&cat, ", NodeId");
			params = catend(&e, &cat);
			put(&e.tables, 0, fmt(&e, "%s graft_%s_%s(Rw *rw, NodeId root%s);", r->exts[i].action ? "NodeId" : "int",
			                      r->exts[i].action ? "action" : "pred", r->exts[i].name, params));
		}
	}
	put(&e.tables, 0, "");
	put(&e.tables, 0, "static const RuleInfo rules[] = {");
	for (uint32_t i = 0; i < r->nrules; i++)
		put(&e.tables, 1, fmt(&e, "{ %s, %s, %u, %s },", cstr(&e, r->rules[i].name),
		                      cstr(&e, r->m->files[r->rules[i].loc.file]), r->rules[i].loc.line,
		                      r->rules[i].kind == RK_COMPOSITE ? "RI_COMPOSITE" :
		                      r->rules[i].kind == RK_SUPPORTS ? "RI_SUPPORTS" : "RI_RULE"));
	if (!r->nrules)
		put(&e.tables, 1, "{ \"\", \"\", 0, RI_RULE },");
	put(&e.tables, 0, "};");
	put(&e.tables, 0, "");
	put(&e.tables, 0, "static const char *const strs[] = {");
	for (uint32_t i = 0; i < e.nstrs; i++)
		put(&e.tables, 1, fmt(&e, "%s,", cstr(&e, e.strs[i])));
	if (!e.nstrs)
		put(&e.tables, 1, "\"\",");
	put(&e.tables, 0, "};");
	put(&e.tables, 0, "");
	put(&e.tables, 0, "static const char *const lits[] = {");
	for (uint32_t i = 0; i < e.nlits; i++)
		put(&e.tables, 1, fmt(&e, "%s,", cstr(&e, e.lits[i])));
	if (!e.nlits)
		put(&e.tables, 1, "\"\",");
	put(&e.tables, 0, "};");
	put(&e.tables, 0, "");
	put(&e.tables, 0, "/* the ops of the calls that patterns are rooted at */");
	put(&e.tables, 0, "static const OpId roots[] = {");
	{
		uint32_t nroots = 0;
		for (uint32_t i = 0; i < r->ntrees; i++)
			if (r->trees[i].kind == NK_CALL) {
				put(&e.tables, 1, fmt(&e, "%s,", opname(&e, r->trees[i].op)));
				nroots++;
			}
		if (!nroots)
			put(&e.tables, 1, "OP_NONE,");
	}
	put(&e.tables, 0, "};");

	/* the dispatcher */
	put(&e.funcs, 0, "");
	put(&e.funcs, 0, "/* match: try the rules rooted at v, in priority order */");
	put(&e.funcs, 0, "static NodeId");
	put(&e.funcs, 0, "match(Rw *rw, NodeId v, uint32_t *rule)");
	put(&e.funcs, 0, "{");
	put(&e.funcs, 1, "switch (rw_op(rw->m, v)) {");
	for (uint32_t i = 0; i < r->ntrees; i++)
		if (r->trees[i].kind == NK_CALL) {
			put(&e.funcs, 1, fmt(&e, "case %s:", opname(&e, r->trees[i].op)));
			put(&e.funcs, 2, fmt(&e, "return %s(rw, v, rule);", treename(&e, &r->trees[i])));
		}
	put(&e.funcs, 1, "default:");
	put(&e.funcs, 2, "break;");
	put(&e.funcs, 1, "}");
	for (uint32_t i = 0; i < r->ntrees; i++)
		if (r->trees[i].kind != NK_CALL) {
			put(&e.funcs, 1, fmt(&e, "if (rw_kind(rw->m, v) == %s)", r->trees[i].kind == NK_TUPLE ? "NK_TUPLE" : "NK_GETITEM"));
			put(&e.funcs, 2, fmt(&e, "return %s(rw, v, rule);", treename(&e, &r->trees[i])));
		}
	if (!r->ntrees)
		put(&e.funcs, 1, "(void)rule;");
	put(&e.funcs, 1, "return 0;");
	put(&e.funcs, 0, "}");
	put(&e.funcs, 0, "");
	put(&e.funcs, 0, fmt(&e, "const Ruleset graft_ruleset_%s = {", name));
	put(&e.funcs, 1, fmt(&e, "%s, %s,", cstr(&e, r->name), cstr(&e, src)));
	put(&e.funcs, 1, fmt(&e, "%u, rules,", r->nrules));
	put(&e.funcs, 1, fmt(&e, "%u, strs,", e.nstrs));
	put(&e.funcs, 1, fmt(&e, "%u, lits,", e.nlits));
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
		put(&e.funcs, 1, fmt(&e, "%u, roots,", nroots));
		put(&e.funcs, 1, kinds == 0 ? "0," : kinds == 1u << NK_TUPLE ? "1 << NK_TUPLE," :
		    kinds == 1u << NK_GETITEM ? "1 << NK_GETITEM," : "1 << NK_TUPLE | 1 << NK_GETITEM,");
	}
	put(&e.funcs, 0, "};");

	{
		const char *outname = cstr(&e, o->out ? o->out : "<stdout>");
		line = render(c, &e.tables, outname, 0);
		render(c, &e.funcs, outname, line);
	}

	if (h) {
		const char *guard = fmt(&e, "%s_H", upper(&e, "GRAFT_GEN_", name));
		fprintf(h, "/* Code generated by graftc from %s; DO NOT EDIT. */\n", incomment(&e, src));
		fprintf(h, "#ifndef %s\n#define %s\n\n#include \"rewrite.h\"\n\n", guard, guard);
		fprintf(h, "extern const Ruleset graft_ruleset_%s;\n", name);
		if (r->nexts)
			fputs("\n/* Declared in the rules with extern; define them in C. */\n", h);
		for (uint32_t i = 0; i < r->nexts; i++) {
			fprintf(h, "%s graft_%s_%s(Rw *rw, NodeId root", r->exts[i].action ? "NodeId" : "int",
			        r->exts[i].action ? "action" : "pred", r->exts[i].name);
			for (uint32_t j = 0; j < r->exts[i].nparams; j++)
				fputs(", NodeId", h);
			fputs(");\n", h);
		}
		fprintf(h, "\n#endif\n");
	}
out:
	free(e.tables.v);
	free(e.funcs.v);
	free(e.strs);
	free(e.lits);
	free(e.path);
	dsl_map_free(&e.strmap);
	dsl_map_free(&e.litmap);
	dsl_map_free(&e.bound);
	return e.errors ? -1 : 0;
}
