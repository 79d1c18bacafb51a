/*
** parse.c: reading .rules files.  The grammar actions of grammar/rules.y
** build AST nodes in the Rules arena; dsl_parse reads a file and the files
** it includes (relative to the including file, each once per chain, a
** cycle being an error).
*/
#define _POSIX_C_SOURCE 200809L   /* stat */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compile.h"
#include "dparse.h"
#include "rfuncs.h"
#include "rules.tab.h"

#ifndef GRAFT_RULESDIR
#define GRAFT_RULESDIR ""       /* no shipped rulesets' folder */
#endif

/* Limits on what a rules file may read:
**   MAXINCLUDE  files in one chain of includes (each level of it holds a
**               parser on the stack)
**   MAXFILES    distinct files (a Loc names its file in 16 bits)
**   MAXBYTES    bytes in one file (an include of /dev/zero must end) */
enum { MAXINCLUDE = 256, MAXFILES = 60000 };
#define MAXBYTES ((size_t)1 << 30)

int dparse(DParser *p);
static int parsefile(Rules *r, const char *path, Loc from);

/* ---------------------------------------------------------------- helpers */

Loc
dsl_loc(const DParser *p, const DLTYPE *l)
{
	Loc loc = { (uint32_t)l->first_line, (uint16_t)(l->first_column > 0xffff ? 0xffff : l->first_column), p->file };
	return loc;
}

#define LOC(l) dsl_loc(p, (l))

Ast *
dsl_ast(Rules *r, AstKind k, Loc loc)
{
	Ast *a = ir_arena_alloc(&r->arena, sizeof *a);
	a->kind = (uint8_t)k;
	a->loc = loc;
	return a;
}

const char *
dsl_strdup(Rules *r, const char *s, size_t n)
{
	return ir_arena_strdup(&r->arena, s, n);
}

void
dsl_rules_init(Rules *r, Module *m, Diag *d)
{
	memset(r, 0, sizeof *r);
	r->m = m;
	r->d = d;
}

void
dsl_rules_free(Rules *r)
{
	free(r->rules);
	free(r->pats);
	free(r->exts);
	free(r->xops);
	free(r->includes);
	free(r->incs);
	free(r->incdirs);
	for (uint32_t i = 0; i < r->ntrees; i++)
		free(r->trees[i].rows);
	free(r->trees);
	ir_arena_free(&r->arena);
}

/* ---------------------------------------------------------------- name maps */

static uint32_t
namehash(const char *s)
{
	uint32_t h = 2166136261u;       /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* slot: where name is in m, or the empty slot where it would go */
static uint32_t
slot(const NameMap *m, const char *name)
{
	uint32_t i = namehash(name) & (m->cap - 1);

	while (m->key[i] && strcmp(m->key[i], name) != 0)
		i = (i + 1) & (m->cap - 1);
	return i;
}

uint32_t
dsl_map_get(const NameMap *m, const char *name)
{
	uint32_t i;

	if (!m->n)
		return UINT32_MAX;
	i = slot(m, name);
	return m->key[i] ? m->val[i] : UINT32_MAX;
}

void
dsl_map_put(NameMap *m, const char *name, uint32_t val)
{
	uint32_t i;

	if (2 * (m->n + 1) > m->cap) {
		NameMap old = *m;
		if (m->cap >= 0x40000000u)
			ir_die("name map overflow");
		m->cap = m->cap ? 2 * m->cap : 16;
		m->key = ir_xcalloc(m->cap, sizeof *m->key);
		m->val = ir_xcalloc(m->cap, sizeof *m->val);
		m->n = 0;
		for (uint32_t j = 0; j < old.cap; j++)
			if (old.key[j]) {
				i = slot(m, old.key[j]);
				m->key[i] = old.key[j];
				m->val[i] = old.val[j];
				m->n++;
			}
		free(old.key);
		free(old.val);
	}
	i = slot(m, name);
	if (!m->key[i]) {
		m->key[i] = name;
		m->n++;
	}
	m->val[i] = val;
}

void
dsl_map_clear(NameMap *m)
{
	/* a large map kept for a few names would make clearing it cost more
	   than filling it: let it go instead */
	if (m->cap > 1024 && m->n < m->cap / 8)
		dsl_map_free(m);
	else if (m->n)
		memset(m->key, 0, m->cap * sizeof *m->key);
	m->n = 0;
}

void
dsl_map_free(NameMap *m)
{
	free(m->key);
	free(m->val);
	memset(m, 0, sizeof *m);
}

AList
r_list0(void)
{
	AList l = { NULL, 0, 0 };
	return l;
}

AList
dsl_list1(DParser *p, Ast *a)
{
	return dsl_list_add(p, r_list0(), a);
}

AList
dsl_list_add(DParser *p, AList l, Ast *a)
{
	if (l.n == l.cap) {
		uint32_t cap = l.cap ? l.cap * 2 : 4;
		Ast **v = ir_arena_alloc(&p->r->arena, cap * sizeof *v);
		if (l.n)
			memcpy(v, l.v, l.n * sizeof *v);
		l.v = v;
		l.cap = cap;
	}
	l.v[l.n++] = a;
	return l;
}

AList
r_prepend(DParser *p, Ast *a, AList l)
{
	AList r = dsl_list1(p, a);
	for (uint32_t i = 0; i < l.n; i++)
		r = dsl_list_add(p, r, l.v[i]);
	return r;
}

static void
setkids(Ast *a, AList l)
{
	a->kid = l.v;
	a->nkid = l.n;
}

static const char *
str(DParser *p, const RStr *s)
{
	return dsl_strdup(p->r, s->p, s->n);
}

/* ---------------------------------------------------------------- items */

/* header: the `ruleset NAME` or `target "NAME"` line of the top file */
static void
header(DParser *p, const RStr *name, const DLTYPE *l, int target)
{
	Rules *r = p->r;
	const char *bad = NULL;

	if (p->file != ir_file(r->m, r->path))
		return;     /* an included file's header names that file only */
	if (r->name) {
		ir_error(r->d, LOC(l), "a file has one 'ruleset' or 'target' line");
		return;
	}
	if (target) {
		/* the name is the --target argument and a C identifier once its
		   '-' and '.' become '_' */
		if (!name->n)
			bad = "is empty";
		for (uint32_t i = 0; i < name->n && !bad; i++) {
			char ch = name->p[i];
			if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
			      ch == '_' || ch == '-' || ch == '.'))
				bad = "may hold only letters, digits, '_', '-' and '.'";
		}
		if (bad) {
			ir_error(r->d, LOC(l), "a target's name %s", bad);
			return;
		}
	}
	r->name = str(p, name);
	r->nameloc = LOC(l);
	r->target = target;
}

void
r_ruleset(DParser *p, const RStr *name, const DLTYPE *l)
{
	header(p, name, l, 0);
}

void
r_target(DParser *p, const RStr *name, const DLTYPE *l)
{
	header(p, name, l, 1);
}

/* normpath: drop "./" and "dir/../" from a relative or absolute path */
static void
normpath(char *path)
{
	char **seg, *out = path;
	size_t n = 0, ups = 0, max = 1;
	int abs = path[0] == '/';

	for (const char *s = path; *s; s++)
		max += *s == '/';
	seg = ir_xmalloc(max * sizeof *seg);    /* one per segment, at most */
	for (char *s = strtok(path + abs, "/"); s; s = strtok(NULL, "/")) {
		if (strcmp(s, ".") == 0)
			continue;
		if (strcmp(s, "..") == 0 && n > ups) {
			n--;
			continue;
		}
		if (strcmp(s, "..") == 0)
			ups++;
		seg[n++] = s;
	}
	/* rebuild in place: segments only move left */
	out = path + abs;
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(seg[i]);
		memmove(out, seg[i], len);
		out += len;
		if (i + 1 < n)
			*out++ = '/';
	}
	*out = 0;
	free(seg);
}

void
r_include(DParser *p, const RStr *file, const DLTYPE *l)
{
	const char *slash = strrchr(p->path, '/');
	size_t dir = slash ? (size_t)(slash - p->path) + 1 : 0;
	char *path;

	if (file->n && file->p[0] == '/')
		dir = 0;
	path = ir_xmalloc(dir + file->n + 1);
	memcpy(path, p->path, dir);
	memcpy(path + dir, file->p, file->n);
	path[dir + file->n] = 0;
	normpath(path);
	if (file->p[0] != '/' && access(path, F_OK) != 0) {
		/* not beside the includer: the folders of -I, then the shipped
		   rulesets' */
		Rules *r = p->r;
		for (uint32_t i = 0; i <= r->nincdirs; i++) {
			const char *d = i < r->nincdirs ? r->incdirs[i] : GRAFT_RULESDIR;
			size_t n = strlen(d);
			char *alt = ir_xmalloc(n + file->n + 2);
			memcpy(alt, d, n);
			alt[n] = '/';
			memcpy(alt + n + 1, file->p, file->n);
			alt[n + 1 + file->n] = 0;
			normpath(alt);
			if (*d && access(alt, F_OK) == 0) {
				free(path);
				path = alt;
				break;
			}
			free(alt);
		}
	}
	if (!parsefile(p->r, path, LOC(l))) {
		Rules *r = p->r;
		ir_vgrow(&r->includes, &r->capincludes, r->nincludes + 1);
		r->includes[r->nincludes].loc = LOC(l);
		r->includes[r->nincludes++].file = ir_file(r->m, path);
	}
	free(path);
}

void
dsl_include_dir(Rules *r, const char *dir)
{
	ir_vgrow(&r->incdirs, &r->capincdirs, r->nincdirs + 1);
	r->incdirs[r->nincdirs++] = dir;
}

void
r_subpat(DParser *p, const RStr *name, const DLTYPE *l, AList params, Ast *body)
{
	Rules *r = p->r;
	SubPat *s;

	ir_vgrow(&r->pats, &r->cappats, r->npats + 1);
	s = &r->pats[r->npats++];
	memset(s, 0, sizeof *s);
	s->name = str(p, name);
	s->loc = LOC(l);
	s->nparams = params.n;
	s->params = ir_arena_alloc(&r->arena, (params.n ? params.n : 1) * sizeof *s->params);
	for (uint32_t i = 0; i < params.n; i++)
		s->params[i] = params.v[i]->s;
	s->body = body;
}

void
r_extern(DParser *p, const RStr *name, const DLTYPE *l, AList params, int action)
{
	Rules *r = p->r;
	Extern *e;

	ir_vgrow(&r->exts, &r->capexts, r->nexts + 1);
	e = &r->exts[r->nexts++];
	e->name = str(p, name);
	e->loc = LOC(l);
	e->nparams = params.n;
	e->action = action;
}

/* A bounded text buffer: what does not fit is cut (and then refused). */
typedef struct Buf {
	char s[512];
	size_t n;
} Buf;

static void
bputs(Buf *b, const char *t)
{
	size_t k = strlen(t);
	if (b->n + k >= sizeof b->s)
		k = sizeof b->s - 1 - b->n;
	memcpy(b->s + b->n, t, k);
	b->n += k;
	b->s[b->n] = 0;
}

/* littext: literal a as Relay text, onto b */
static void
littext(Buf *b, const Ast *a)
{
	char t[64];

	switch (a->kind) {
	case A_INT: snprintf(t, sizeof t, "%lld", (long long)a->i); bputs(b, t); break;
	case A_FLOAT: snprintf(t, sizeof t, "%.17g", a->f); bputs(b, t); break;
	case A_BOOL: bputs(b, a->i ? "True" : "False"); break;
	case A_NONE: bputs(b, "None"); break;
	case A_STR:
		bputs(b, "\"");
		for (const char *s = a->s; *s; s++) {
			char c[3] = { '\\', *s, 0 };
			bputs(b, *s == '"' || *s == '\\' ? c : c + 1);
		}
		bputs(b, "\"");
		break;
	case A_LIST:
		bputs(b, "[");
		for (uint32_t i = 0; i < a->nkid; i++) {
			bputs(b, i ? ", " : "");
			littext(b, a->kid[i]);
		}
		bputs(b, "]");
		break;
	default:
		break;
	}
}

/* dsl_littext: literal a as Relay text (dsl.h) */
void
dsl_littext(const Ast *a, char *buf, size_t n)
{
	Buf b = { "", 0 };

	littext(&b, a);
	snprintf(buf, n, "%s", b.s);
}

/* the attribute types an extern op's schema names, as ops.def's AT_ */
static const struct { const char *name; int type; } attrtypes[] = {
	{ "int", AT_INT }, { "float", AT_FLOAT }, { "bool", AT_BOOL }, { "str", AT_STR },
	{ "dtype", AT_DTYPE }, { "ints", AT_INTS }, { "ints2", AT_INTS2 },
	{ "int_or_ints", AT_INT_INTS }, { "floats", AT_FLOATS },
};

/* r_xattr: NAME ':' TYPE ['?'] ['=' DEFAULT], an attribute of an extern op:
** an A_ATTR with the type's name in kid[0] and the default or NULL in kid[1],
** AF_OPTIONAL for '?' */
Ast *
r_xattr(DParser *p, const RStr *name, const DLTYPE *l, const RStr *type, const DLTYPE *tl, int opt,
        Ast *deflt)
{
	Ast *a = dsl_ast(p->r, A_ATTR, LOC(l));

	a->s = str(p, name);
	a->kid = ir_arena_alloc(&p->r->arena, 2 * sizeof *a->kid);
	a->kid[0] = r_name(p, type, tl);
	a->kid[1] = deflt;
	a->nkid = 2;
	if (opt)
		a->flags |= AF_OPTIONAL;
	return a;
}

/* sameop: NULL if registered op o has x's operands and schema, else what
** differs (in a static buffer) */
static const char *
sameop(const OpInfo *o, const OpInfo *x)
{
	static char why[256];
#define dsl_strf(r, ...) (snprintf(why, sizeof why, __VA_ARGS__), why)
	if (o->nargs != x->nargs)
		return dsl_strf(r, "%d operand%s, not %d", o->nargs, o->nargs == 1 ? "" : "s", x->nargs);
	if (o->nattrs != x->nattrs)
		return dsl_strf(r, "%d attribute%s, not %d", o->nattrs, o->nattrs == 1 ? "" : "s", x->nattrs);
	for (int i = 0; i < o->nattrs; i++) {
		const AttrField *f = &o->attrs[i], *g = &x->attrs[i];
		if (strcmp(f->name, g->name))
			return dsl_strf(r, "attribute %d %s, not %s", i + 1, f->name, g->name);
		if (AT_TYPE(f->type) != AT_TYPE(g->type))
			return dsl_strf(r, "attribute %s of another type", f->name);
		if (!f->deflt != !g->deflt)
			return dsl_strf(r, "attribute %s %s", f->name, f->deflt ? "with a default" : "required");
	}
#undef dsl_strf
	return NULL;
}

/* a declared op's type relation in graftc, which never infers types */
static TypeId
rel_declared(Module *m, const TypeId *args, int nargs, const AttrVal *attrs, Diag *d)
{
	(void)m, (void)args, (void)nargs, (void)attrs, (void)d;
	return 0;
}

/*
** r_xop: `extern op NAME(operands, attributes)`: checks the declaration,
** then finds the op in the registry (it must agree with the declaration)
** or, in graftc (r->declops), registers it there, so that patterns name it
** as any op.
*/
void
r_xop(DParser *p, const RStr *kw, const DLTYPE *kl, const RStr *name, const DLTYPE *l, AList params)
{
	Rules *r = p->r;
	Diag *d = r->d;
	XOp x;
	AttrField *f;
	const char *why;
	int bad = 0;

	if (kw->n != 2 || memcmp(kw->p, "op", 2) != 0) {
		ir_error(d, LOC(kl), "expected 'pred', 'action' or 'op' after 'extern', not '%.*s'", (int)kw->n, kw->p);
		return;
	}
	memset(&x, 0, sizeof x);
	x.info.name = str(p, name);
	x.loc = LOC(l);
	f = ir_arena_alloc(&r->arena, (params.n + 1) * sizeof *f);
	for (uint32_t i = 0; i < params.n; i++) {
		Ast *a = params.v[i];
		if (a->kind == A_NAME) {
			if (x.info.nattrs) {
				ir_error(d, a->loc, "operand %s follows an attribute; operands come first", a->s);
				bad = 1;
			}
			x.info.nargs++;
			continue;
		}
		{
			AttrField *g = &f[x.info.nattrs++];
			size_t k;
			g->name = a->s;
			for (k = 0; k < sizeof attrtypes / sizeof *attrtypes; k++)
				if (strcmp(attrtypes[k].name, a->kid[0]->s) == 0)
					break;
			if (k == sizeof attrtypes / sizeof *attrtypes) {
				ir_error(d, a->kid[0]->loc, "unknown attribute type '%s' (int, float, bool, str, dtype, ints, "
				         "ints2, int_or_ints or floats)", a->kid[0]->s);
				bad = 1;
				continue;
			}
			g->type = attrtypes[k].type | (a->flags & AF_OPTIONAL ? AT_OPT : 0);
			if (a->kid[1]) {
				Buf b = { "", 0 };
				AttrVal v;
				littext(&b, a->kid[1]);
				g->deflt = dsl_strdup(r, b.s, b.n);
				if (!ir_attr_parse(r->m, g->deflt, &v) || ir_attr_conform(r->m, g->type, &v)) {
					ir_error(d, a->kid[1]->loc, "the default %s is not a%s %s", g->deflt,
					         strchr("aeiou", a->kid[0]->s[0]) ? "n" : "", a->kid[0]->s);
					bad = 1;
				}
			}
			for (int j = 0; j + 1 < x.info.nattrs; j++)
				if (strcmp(f[j].name, g->name) == 0) {
					ir_error(d, a->loc, "attribute %s is declared twice", g->name);
					bad = 1;
				}
		}
	}
	x.info.attrs = f;
	if (bad)
		return;
	x.op = ir_op_lookup(x.info.name, strlen(x.info.name));
	if (x.op && x.op < OP_COUNT) {
		ir_error(d, x.loc, "%s is a built-in op; 'extern op' declares ops that plugins register", x.info.name);
		return;
	}
	for (uint32_t i = 0; i < r->nxops; i++)
		if (r->xops[i].op == x.op && x.op) {
			ir_error(d, x.loc, "extern op %s is declared twice", x.info.name);
			ir_note(d, r->xops[i].loc, "first declared here");
			return;
		}
	if (x.op && (why = sameop(&ir_ops[x.op], &x.info))) {
		ir_error(d, x.loc, "extern op %s: the op registered under this name has %s", x.info.name, why);
		return;
	}
	if (!x.op && !r->declops) {
		ir_error(d, x.loc, "extern op %s: no loaded plugin registers this op (load it with --plugin)",
		         x.info.name);
		return;
	}
	if (!x.op) {
		char err[256];
		x.info.rel = rel_declared;
		if (!(x.op = ir_op_register(&x.info, err, sizeof err))) {
			ir_error(d, x.loc, "extern op %s: %s", x.info.name, err);
			return;
		}
	}
	ir_vgrow(&r->xops, &r->capxops, r->nxops + 1);
	r->xops[r->nxops++] = x;
}

/* r_prio: a priority, n or -n; an int, or an error */
int
r_prio(DParser *p, const RNum *n, int neg, const DLTYPE *l)
{
	int64_t v = neg ? -n->i : n->i;     /* n->i >= 0: no overflow */

	if (v < INT_MIN || v > INT_MAX) {
		ir_error(p->r->d, LOC(l), "priority %lld is out of range", (long long)v);
		return 0;
	}
	return (int)v;
}

RuleHead
r_head(DParser *p, const RStr *name, const DLTYPE *l, int prio, const Ast *tol, int once, int finite)
{
	RuleHead h;

	memset(&h, 0, sizeof h);
	h.once = once;
	h.finite = finite;
	if (name) {
		h.name = str(p, name);
		h.loc = LOC(l);
	}
	h.prio = prio;
	if (tol) {
		h.tol = tol->kind == A_INT ? (double)tol->i : tol->f;
		if (!(h.tol >= 0) || h.tol > 1e30)
			ir_error(p->r->d, tol->loc, "a tolerance is a number from 0");
	}
	return h;
}

/* quote: the text at l as its author wrote it, on one line: comments
** dropped, each run of blanks and line breaks one space, and none just
** inside brackets or before a comma (so re-wrapping a line changes
** nothing); a leading keyword `skip` (e.g. "if") is left out */
static const char *
quote(DParser *p, const DLTYPE *l, const char *skip)
{
	const char *s = p->src + l->first_off, *e = p->src + l->last_off;
	char *out, *o;
	int blank = 0;

	if (l->last_off <= l->first_off || e > p->end)
		return NULL;
	if (skip && (size_t)(e - s) > strlen(skip) && strncmp(s, skip, strlen(skip)) == 0)
		s += strlen(skip);
	o = out = ir_xmalloc((size_t)(e - s) + 1);
	while (s < e) {
		if (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n') {
			blank = 1;
			s++;
		} else if (s + 1 < e && s[0] == '/' && s[1] == '/') {
			while (s < e && *s != '\n')
				s++;
			blank = 1;
		} else if (s + 1 < e && s[0] == '/' && s[1] == '*') {
			int depth = 0;
			do {
				if (s + 1 < e && s[0] == '/' && s[1] == '*')
					depth++, s += 2;
				else if (s + 1 < e && s[0] == '*' && s[1] == '/')
					depth--, s += 2;
				else
					s++;
			} while (depth > 0 && s < e);
			blank = 1;
		} else {
			if (blank && o > out && !strchr("([", o[-1]) && !strchr(")],", *s))
				*o++ = ' ';
			blank = 0;
			if (*s == '"') {
				/* a string: as it is, to its closing quote */
				*o++ = *s++;
				while (s < e && *s != '"' && *s != '\n') {
					if (*s == '\\' && s + 1 < e)
						*o++ = *s++;
					*o++ = *s++;
				}
				if (s < e && *s == '"')
					*o++ = *s++;
			} else {
				*o++ = *s++;
			}
		}
	}
	*o = 0;
	{
		const char *q = dsl_strdup(p->r, out, (size_t)(o - out));
		free(out);
		return q;
	}
}

void
r_rule(DParser *p, const RuleHead *h, Ast *pat, Ast *guard, Ast *result, const DLTYPE *l,
       const DLTYPE *lguard, const DLTYPE *lresult)
{
	Rules *r = p->r;
	Rule *ru;

	ir_vgrow(&r->rules, &r->caprules, r->nrules + 1);
	ru = &r->rules[r->nrules];
	memset(ru, 0, sizeof *ru);
	ru->order = r->nrules++;
	ru->loc = h->name ? h->loc : LOC(l);
	ru->named = h->name != NULL;
	if (h->name) {
		ru->name = h->name;
	} else {
		/* an unnamed rule is named by its place (the whole path: names
		   must stay unique) */
		size_t n = strlen(p->path) + 16;
		char *buf = ir_xmalloc(n);
		snprintf(buf, n, "%s:%u", p->path, ru->loc.line);
		ru->name = dsl_strdup(r, buf, strlen(buf));
		free(buf);
	}
	ru->prio = h->prio;
	ru->tol = h->tol;
	ru->once = h->once;
	ru->finite = h->finite;
	ru->pat = pat;
	ru->guard = guard;
	ru->result = result;
	ru->qpat = quote(p, l, NULL);
	ru->qguard = guard ? quote(p, lguard, "if") : NULL;
	ru->qresult = quote(p, lresult, NULL);
}

/* entry: a new entry of a target table, in file order */
static Rule *
entry(DParser *p, RuleKind kind, const char *name, Loc loc, int prio, Ast *pat, Ast *guard)
{
	Rules *r = p->r;
	Rule *ru;

	ir_vgrow(&r->rules, &r->caprules, r->nrules + 1);
	ru = &r->rules[r->nrules];
	memset(ru, 0, sizeof *ru);
	ru->order = r->nrules++;
	ru->kind = kind;
	ru->name = name;
	ru->named = kind == RK_COMPOSITE;
	ru->loc = loc;
	ru->prio = prio;
	ru->pat = pat;
	ru->guard = guard;
	return ru;
}

void
r_composite(DParser *p, const RStr *name, const DLTYPE *l, int prio, Ast *pat, Ast *guard,
            const DLTYPE *lpat, const DLTYPE *lguard)
{
	Rule *ru = entry(p, RK_COMPOSITE, str(p, name), LOC(l), prio, pat, guard);

	if (ru) {
		ru->qpat = quote(p, lpat, NULL);
		ru->qguard = guard ? quote(p, lguard, "if") : NULL;
	}
}

/* r_supports: one entry per pattern; a bare name `op` is op(...) */
void
r_supports(DParser *p, AList pats, Ast *guard, const DLTYPE *l, const DLTYPE *lguard)
{
	if (guard && pats.n > 1) {
		ir_error(p->r->d, LOC(l), "a guard belongs to one op: write one 'supports' line for each guarded op");
		return;
	}
	for (uint32_t i = 0; i < pats.n; i++) {
		Ast *a = pats.v[i], *root = a;
		if (a->kind == A_NAME) {
			Ast *rest = dsl_ast(p->r, A_REST, a->loc);
			a->kind = A_CALL;
			a->kid = ir_arena_alloc(&p->r->arena, sizeof *a->kid);
			a->kid[0] = rest;
			a->nkid = 1;
		}
		while (root->kind == A_BIND || root->kind == A_TYPED)
			root = root->kid[0];
		/* named after its op; dsl_check rejects other roots */
		Rule *ru = entry(p, RK_SUPPORTS, root->kind == A_CALL ? root->s : "?", a->loc, 0, a, guard);
		if (ru && guard)
			ru->qguard = quote(p, lguard, "if");
	}
}

/* ---------------------------------------------------------------- AST */

Ast *
r_leaf(DParser *p, AstKind k, const DLTYPE *l)
{
	return dsl_ast(p->r, k, LOC(l));
}

Ast *
r_name(DParser *p, const RStr *name, const DLTYPE *l)
{
	Ast *a = dsl_ast(p->r, A_NAME, LOC(l));
	a->s = str(p, name);
	return a;
}

Ast *
r_bind(DParser *p, const RStr *name, const DLTYPE *l, Ast *sub)
{
	Ast *a = dsl_ast(p->r, A_BIND, LOC(l));
	a->s = str(p, name);
	a->kid = ir_arena_alloc(&p->r->arena, sizeof *a->kid);
	a->kid[0] = sub;
	a->nkid = 1;
	return a;
}

Ast *
r_call(DParser *p, const RStr *name, const DLTYPE *l, AList args, int flags)
{
	Ast *a = dsl_ast(p->r, A_CALL, LOC(l));
	a->s = str(p, name);
	a->flags = (uint8_t)flags;
	setkids(a, args);
	return a;
}

Ast *
r_tuple(DParser *p, AList elems, const DLTYPE *l, int flags)
{
	Ast *a;

	/* (p) is a grouping, unless p is a rest: (xs...) is a tuple */
	if (elems.n == 1 && !(flags & AF_TRAILING) && elems.v[0]->kind != A_REST)
		return elems.v[0];
	a = dsl_ast(p->r, A_TUPLE, LOC(l));
	a->flags = (uint8_t)flags;
	setkids(a, elems);
	return a;
}

static Ast *
unary(DParser *p, AstKind k, Ast *kid, const DLTYPE *l)
{
	Ast *a = dsl_ast(p->r, k, LOC(l));
	a->kid = ir_arena_alloc(&p->r->arena, 2 * sizeof *a->kid);
	a->kid[0] = kid;
	a->nkid = 1;
	return a;
}

/* fn(PARAMS) { BODY }: a function literal; its parameters (and
** attributes) as written, then its body */
Ast *
r_fn(DParser *p, const RStr *name, const DLTYPE *l, AList params, Ast *body)
{
	Ast *a = dsl_ast(p->r, A_FN, LOC(l));

	if (name->n != 2 || memcmp(name->p, "fn", 2) != 0)
		ir_error(p->r->d, LOC(l), "only fn(...) takes a body in braces: '%.*s' is an op or a pattern", (int)name->n,
		         name->p);
	a->s = "fn";
	a->kid = ir_arena_alloc(&p->r->arena, (params.n + 1) * sizeof *a->kid);
	for (uint32_t i = 0; i < params.n; i++)
		a->kid[i] = params.v[i];
	a->kid[params.n] = body;
	a->nkid = params.n + 1;
	return a;
}

/* const(LIT): a constant of one value, the literal's */
Ast *
r_constval(DParser *p, Ast *lit, const DLTYPE *l)
{
	return unary(p, A_CONST, lit, l);
}

Ast *
r_getitem(DParser *p, Ast *t, int64_t i, const DLTYPE *l)
{
	Ast *a = unary(p, A_GETITEM, t, l);
	a->i = i;
	return a;
}

Ast *
r_typed(DParser *p, Ast *x, Ast *t, const DLTYPE *l)
{
	Ast *a = unary(p, A_TYPED, x, l);
	/* t is an A_TYPED shell from r_tcons/r_tensor: take its constraint */
	a->dtype = t->dtype;
	a->kid[1] = t->nkid ? t->kid[0] : NULL;
	a->nkid = 2;
	return a;
}

Ast *
r_rest(DParser *p, const RStr *name, const DLTYPE *l)
{
	Ast *a = dsl_ast(p->r, A_REST, LOC(l));
	if (name)
		a->s = str(p, name);
	return a;
}

Ast *
r_attr(DParser *p, const RStr *name, const DLTYPE *l, Ast *val)
{
	Ast *a = unary(p, A_ATTR, val, l);
	a->s = str(p, name);
	return a;
}

Ast *
r_attrs(DParser *p, const RStr *name, const DLTYPE *l)
{
	Ast *a = dsl_ast(p->r, A_ATTRS, LOC(l));
	a->s = str(p, name);
	return a;
}

Ast *
r_alt(DParser *p, Ast *x, Ast *y, const DLTYPE *l)
{
	AList kids = r_list0();

	if (x->kind == A_ALT) {
		for (uint32_t i = 0; i < x->nkid; i++)
			kids = dsl_list_add(p, kids, x->kid[i]);
	} else {
		kids = dsl_list_add(p, kids, x);
	}
	kids = dsl_list_add(p, kids, y);
	{
		Ast *a = dsl_ast(p->r, A_ALT, x->kind == A_ALT ? x->loc : LOC(l));
		setkids(a, kids);
		return a;
	}
}

Ast *
r_int(DParser *p, const RNum *v, const DLTYPE *l)
{
	Ast *a = dsl_ast(p->r, A_INT, LOC(l));
	a->i = v->i;
	a->dtype = v->dtype;
	return a;
}

Ast *
r_float(DParser *p, const RNum *v, const DLTYPE *l)
{
	Ast *a = dsl_ast(p->r, A_FLOAT, LOC(l));
	a->f = v->f;
	a->dtype = v->dtype;
	return a;
}

Ast *
r_str(DParser *p, const RStr *s, const DLTYPE *l)
{
	Ast *a = dsl_ast(p->r, A_STR, LOC(l));
	a->s = str(p, s);
	return a;
}

Ast *
r_bool(DParser *p, int v, const DLTYPE *l)
{
	Ast *a = dsl_ast(p->r, A_BOOL, LOC(l));
	a->i = v;
	return a;
}

Ast *
r_list(DParser *p, AList elems, const DLTYPE *l)
{
	Ast *a = dsl_ast(p->r, A_LIST, LOC(l));
	setkids(a, elems);
	return a;
}

/* tdtype: the dtype named s, or DT_COUNT (any) for NULL */
static uint8_t
tdtype(DParser *p, const RStr *s, Loc loc)
{
	DType dt;

	if (!s)
		return DT_COUNT;
	dt = ir_dtype_parse(s->p, s->n);
	if (dt == DT_COUNT || dt == DT_VOID) {
		ir_error(p->r->d, loc, "unknown dtype '%.*s'", (int)s->n, s->p);
		return DT_COUNT;
	}
	return (uint8_t)dt;
}

Ast *
r_tcons(DParser *p, const RStr *dtype, const DLTYPE *l, AList *dims)
{
	Ast *a = dsl_ast(p->r, A_TYPED, LOC(l));
	a->dtype = tdtype(p, dtype, LOC(l));
	if (dims) {
		a->kid = ir_arena_alloc(&p->r->arena, sizeof *a->kid);
		a->kid[0] = r_list(p, *dims, l);
		a->nkid = 1;
	}
	return a;
}

Ast *
r_tensor(DParser *p, const RStr *kw, const DLTYPE *l, AList dims, const RStr *dtype, const DLTYPE *dl)
{
	Ast *a;

	if (kw->n != 6 || memcmp(kw->p, "Tensor", 6) != 0)
		ir_error(p->r->d, LOC(l), "expected 'Tensor[(dims), dtype]', not '%.*s[...]'", (int)kw->n, kw->p);
	a = r_tcons(p, NULL, l, &dims);
	a->dtype = tdtype(p, dtype, LOC(dl));
	return a;
}

Ast *
r_unop(DParser *p, int op, Ast *x, const DLTYPE *l)
{
	Ast *a;

	/* -3, -0.5f: a negative literal, so that results can use it as a constant */
	if (op == '-' && (x->kind == A_INT || x->kind == A_FLOAT) && !(x->flags & AF_NEGATED)) {
		if (x->kind == A_INT && x->i != INT64_MIN)
			x->i = -x->i;
		else
			x->f = -x->f;
		x->flags |= AF_NEGATED;
		x->loc = dsl_loc(p, l);
		return x;
	}
	a = unary(p, A_UNOP, x, l);
	a->i = op;
	return a;
}

Ast *
r_binop(DParser *p, int op, Ast *x, Ast *y, const DLTYPE *l)
{
	Ast *a = unary(p, A_BINOP, x, l);
	a->kid[1] = y;
	a->nkid = 2;
	a->i = op;
	return a;
}

/* r_fold: fold_const(x), a result built and then evaluated into a constant */
Ast *
r_fold(DParser *p, Ast *x, const DLTYPE *l)
{
	return unary(p, A_FOLD, x, l);
}

Ast *
r_index(DParser *p, Ast *x, Ast *i, const DLTYPE *l)
{
	Ast *a = unary(p, A_INDEX, x, l);
	a->kid[1] = i;
	a->nkid = 2;
	return a;
}

/* ---------------------------------------------------------------- files */

/* readall: the bytes of path, NUL-terminated, in the module's data arena;
** NULL after an error.  A directory is an error; so is an included file
** that is not a regular file (a FIFO could block, a device never end:
** the top file may be one, /dev/stdin say), and a file of MAXBYTES or more. */
static char *
readall(Rules *r, const char *path, size_t *len, Loc from, int top)
{
	struct stat st;
	FILE *f;
	char *buf = NULL, *copy;
	size_t cap = 0, n = 0, got;
	int err;

	if (top && r->overtext) {
		/* an editor's text of the file, not what is on disk (graftc lsp) */
		copy = ir_arena_alloc(&r->m->data, r->overlen + 1);
		memcpy(copy, r->overtext, r->overlen);
		*len = r->overlen;
		return copy;
	}
	if (stat(path, &st) == 0 && (S_ISDIR(st.st_mode) || (!top && !S_ISREG(st.st_mode)))) {
		ir_error(r->d, from, "cannot read '%s': %s", path,
		         S_ISDIR(st.st_mode) ? strerror(EISDIR) : "Not a regular file");
		return NULL;
	}
	if (!(f = fopen(path, "rb"))) {
		ir_error(r->d, from, "cannot open '%s': %s", path, strerror(errno));
		return NULL;
	}
	do {
		if (n == cap) {
			if (cap >= MAXBYTES) {
				ir_error(r->d, from, "cannot read '%s': File of %zu bytes or more", path, MAXBYTES);
				fclose(f);
				free(buf);
				return NULL;
			}
			cap = cap ? 2 * cap : 16384;
			buf = ir_xrealloc(buf, cap);
		}
		errno = 0;
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got);
	err = ferror(f) ? errno : 0;
	fclose(f);
	if (err) {
		ir_error(r->d, from, "cannot read '%s': %s", path, strerror(err));
		free(buf);
		return NULL;
	}
	copy = ir_arena_alloc(&r->m->data, n + 1);
	memcpy(copy, buf, n);
	free(buf);
	*len = n;
	return copy;
}

static int
parsefile(Rules *r, const char *path, Loc from)
{
	DParser p;
	size_t len;
	char *text;
	int before = r->d->errors;
	const char *key = dsl_strdup(r, path, strlen(path));

	for (uint32_t i = 0; i < r->nincs; i++)
		if (strcmp(r->incs[i], key) == 0) {
			ir_error(r->d, from, "'%s' is included again (an include cycle)", path);
			return 1;
		}
	if (r->nincs >= MAXINCLUDE) {
		ir_error(r->d, from, "includes nest more than %d files deep", MAXINCLUDE);
		return 1;
	}
	if (r->m->nfiles >= MAXFILES) {
		ir_error(r->d, from, "more than %d files are read", MAXFILES);
		return 1;
	}
	if (!(text = readall(r, path, &len, from, r->nincs == 0)))
		return 1;
	ir_vgrow(&r->incs, &r->capincs, r->nincs + 1);
	r->incs[r->nincs++] = key;

	memset(&p, 0, sizeof p);
	p.r = r;
	p.path = key;
	p.file = ir_file(r->m, path);
	ir_diag_source(r->d, p.file, text, len);
	p.src = p.cur = p.linestart = text;
	p.end = text + len;
	p.line = 1;
	dparse(&p);
	r->nincs--;     /* only the chain being read counts as a cycle */
	return r->d->errors - before;
}

/* unnamed: a file with no 'ruleset NAME' or 'target "NAME"' line is named
** after its base name less ".rules" (acme.rules: acme): a target table if
** all it holds is composites and 'supports' entries, else a ruleset */
static void
unnamed(Rules *r, const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t n = strlen(base);
	int target = r->nrules > 0, ok = n > 0;

	if (n > 6 && strcmp(base + n - 6, ".rules") == 0)
		n -= 6;
	for (size_t i = 0; i < n && ok; i++)
		ok = (base[i] >= 'a' && base[i] <= 'z') || (base[i] >= 'A' && base[i] <= 'Z') || base[i] == '_' ||
		     (i && ((base[i] >= '0' && base[i] <= '9') || base[i] == '-' || base[i] == '.'));
	if (!n || !ok) {
		ir_error(r->d, (Loc){ 1, 1, ir_file(r->m, path) }, "the file has no 'ruleset NAME' or 'target \"NAME\"' "
		         "line, and its name '%.*s' cannot name it (a letter or '_', then letters, digits, '_', '-' "
		         "and '.'): start it with one", (int)n, base);
		return;
	}
	for (uint32_t i = 0; i < r->nrules; i++)
		if (r->rules[i].kind == RK_RULE)
			target = 0;
	r->name = dsl_strdup(r, base, n);
	r->nameloc = (Loc){ 1, 1, ir_file(r->m, path) };
	r->target = target;
}

int
dsl_parse(Rules *r, const char *path)
{
	Loc none = { 0, 0, 0 };
	int errs;

	r->path = dsl_strdup(r, path, strlen(path));
	errs = parsefile(r, path, none);
	if (!r->name && !errs)
		unnamed(r, path);
	return r->d->errors ? r->d->errors : 0;
}
