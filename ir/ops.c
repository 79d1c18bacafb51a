/*
** ops.c: the op registry, expanded from ops.def, and the ops registered at
** run time (ir_op_register: a plugin's target-specific ops).  Lookup by
** name, attribute lookup by name, and the nearest op name for did-you-mean
** messages.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "typerel.h"

#define NOATTRS
#define A(name, type, deflt) { name, type, deflt },

/* one schema array per op; a leading dummy keeps empty schemas legal C */
#define OP(id, name, nargs, flags, rel, attrs) \
	static const AttrField schema_##id[] = { { NULL, 0, NULL }, attrs };
#include "ops.def"
#undef OP

/* <graft/opdef.h> gives plugins these by their values */
_Static_assert((int)GRAFT_AT_INT == (int)AT_INT && (int)GRAFT_AT_FLOAT == (int)AT_FLOAT && (int)GRAFT_AT_BOOL == (int)AT_BOOL &&
               (int)GRAFT_AT_STR == (int)AT_STR && (int)GRAFT_AT_DTYPE == (int)AT_DTYPE && (int)GRAFT_AT_INTS == (int)AT_INTS &&
               (int)GRAFT_AT_INTS2 == (int)AT_INTS2 && (int)GRAFT_AT_INT_INTS == (int)AT_INT_INTS && (int)GRAFT_AT_FLOATS == (int)AT_FLOATS &&
               (int)GRAFT_AT_OPT == (int)AT_OPT, "opdef.h's GRAFT_AT_ codes are AttrType's");
_Static_assert((int)GRAFT_OPF_COMM == (int)OPF_COMM && (int)GRAFT_OPF_ELEM == (int)OPF_ELEM && (int)GRAFT_OPF_BCAST == (int)OPF_BCAST,
               "opdef.h's GRAFT_OPF_ flags are ir.h's");

static OpInfo optab[IR_MAXOPS] = {
	{ "", 0, 0, NULL, NULL, 0, NULL },
#define OP(id, name, nargs, flags, rel, attrs) \
	{ name, nargs, flags, rel_##rel, schema_##id + 1, \
	  (int)(sizeof schema_##id / sizeof schema_##id[0]) - 1, NULL },
#include "ops.def"
#undef OP
};

#undef A
#undef NOATTRS

const OpInfo *const ir_ops = optab;
static OpId nops = OP_COUNT;    /* built-in ops, then registered ones */

static char *
dup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(ir_xcalloc(n, 1), s, n);
}

OpId
ir_op_count(void)
{
	return nops;
}

/* opname_ok: a registered op's name is dotted identifiers, "acme.conv" */
static int
opname_ok(const char *s)
{
	int start = 1;

	if (!*s)
		return 0;
	for (; *s; s++) {
		if (*s == '.') {
			if (start)
				return 0;
			start = 1;
		} else if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_' ||
		           (!start && *s >= '0' && *s <= '9')) {
			start = 0;
		} else {
			return 0;
		}
	}
	return !start;
}

/* ir_op_register: adds op o to the registry (ir.h) */
OpId
ir_op_register(const OpInfo *o, char *err, size_t nerr)
{
	OpInfo *r;
	AttrField *fields;
	Module *m;

	if (!o->name || !opname_ok(o->name)) {
		snprintf(err, nerr, "op name \"%s\" is not dotted identifiers (\"acme.conv2d\")",
		         o->name ? o->name : "(null)");
		return OP_NONE;
	}
	if (ir_op_lookup(o->name, strlen(o->name))) {
		snprintf(err, nerr, "op %s is already registered", o->name);
		return OP_NONE;
	}
	if (nops >= IR_MAXOPS) {
		snprintf(err, nerr, "op %s: the registry is full (%d ops)", o->name, IR_MAXOPS);
		return OP_NONE;
	}
	if (o->nargs < 0 || o->nargs > 64 || o->nattrs < 0 || o->nattrs > 32 || (o->nattrs && !o->attrs)) {
		snprintf(err, nerr, "op %s: %d operands and %d attributes (at most 64 and 32)",
		         o->name, o->nargs, o->nattrs);
		return OP_NONE;
	}
	if (!o->rel && !o->prel) {
		snprintf(err, nerr, "op %s has no type relation", o->name);
		return OP_NONE;
	}
	/* every default must read and conform, as those of ops.def do */
	m = ir_module_new();
	for (int i = 0; i < o->nattrs; i++) {
		const AttrField *f = &o->attrs[i];
		AttrVal v;
		int t = AT_TYPE(f->type) & ~AT_OPT;
		if (!f->name || !opname_ok(f->name) || strchr(f->name, '.') || t < AT_INT || t > AT_FLOATS ||
		    (f->type & ~(AT_OPT | AT_ALWAYS | 0xff))) {
			snprintf(err, nerr, "op %s: attribute %d has a bad name or type", o->name, i);
			ir_module_free(m);
			return OP_NONE;
		}
		for (int j = 0; j < i; j++)
			if (strcmp(o->attrs[j].name, f->name) == 0) {
				snprintf(err, nerr, "op %s: attribute %s is given twice", o->name, f->name);
				ir_module_free(m);
				return OP_NONE;
			}
		if (f->deflt && (!ir_attr_parse(m, f->deflt, &v) || ir_attr_conform(m, f->type, &v))) {
			snprintf(err, nerr, "op %s: the default %s of attribute %s does not read as its type",
			         o->name, f->deflt, f->name);
			ir_module_free(m);
			return OP_NONE;
		}
	}
	ir_module_free(m);
	/* the registry keeps its own copies: the caller's may go away */
	r = &optab[nops];
	*r = *o;
	r->flags &= OPF_COMM | OPF_ELEM | OPF_BCAST | OPF_QNN | OPF_TUPLE;
	r->name = dup(o->name);
	fields = o->nattrs ? ir_xcalloc((size_t)o->nattrs, sizeof *fields) : NULL;
	for (int i = 0; i < o->nattrs; i++) {
		fields[i].name = dup(o->attrs[i].name);
		fields[i].type = o->attrs[i].type;
		fields[i].deflt = o->attrs[i].deflt ? dup(o->attrs[i].deflt) : NULL;
	}
	r->attrs = fields;
	return nops++;
}

OpId
ir_op_lookup(const char *name, size_t n)
{
	/* a linear scan: ~100 ops, and callers intern the result */
	for (OpId i = 1; i < nops; i++)
		if (strlen(ir_ops[i].name) == n && memcmp(ir_ops[i].name, name, n) == 0)
			return i;
	return OP_NONE;
}

int
ir_op_attr_index(OpId op, const char *name, size_t n)
{
	const OpInfo *o = &ir_ops[op];

	for (int i = 0; i < o->nattrs; i++)
		if (strlen(o->attrs[i].name) == n && memcmp(o->attrs[i].name, name, n) == 0)
			return i;
	return -1;
}

/* editdist: Levenshtein distance of a[0..n) and b, capped at 31 columns */
static int
editdist(const char *a, size_t n, const char *b)
{
	int row[64], m = (int)strlen(b);

	if (n > 62 || m > 62)
		return 99;
	for (int j = 0; j <= m; j++)
		row[j] = j;
	for (size_t i = 1; i <= n; i++) {
		int diag = row[0];
		row[0] = (int)i;
		for (int j = 1; j <= m; j++) {
			int up = row[j], best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[m];
}

OpId
ir_op_suggest(const char *name, size_t n)
{
	OpId best = OP_NONE;
	int bestd = 99, bestfull = 99;

	for (OpId i = 1; i < nops; i++) {
		const char *cand = ir_ops[i].name;
		const char *dot = strrchr(cand, '.');
		int full = editdist(name, n, cand), d = full;
		/* "conv2d" for "nn.conv2d": a missing namespace costs 1 */
		if (dot && editdist(name, n, dot + 1) + 1 < d)
			d = editdist(name, n, dot + 1) + 1;
		/* ties go to the nearer full name: nn.conv2d before qnn.conv2d */
		if (d < bestd || (d == bestd && full < bestfull)) {
			bestd = d;
			bestfull = full;
			best = i;
		}
	}
	/* only plausible typos: at most a third of the name wrong */
	return bestd <= 1 + (int)n / 3 ? best : OP_NONE;
}

int
ir_op_attr_suggest(OpId op, const char *name, size_t n)
{
	const OpInfo *o = &ir_ops[op];
	int best = -1, bestd = 99;

	for (int i = 0; i < o->nattrs; i++) {
		int d = editdist(name, n, o->attrs[i].name);
		if (d < bestd) {
			bestd = d;
			best = i;
		}
	}
	return bestd <= 1 + (int)n / 3 ? best : -1;
}

static const char *const kindnames[] = {
	[OPK_ELEMWISE] = "elemwise", [OPK_BROADCAST] = "broadcast", [OPK_INJECTIVE] = "injective",
	[OPK_COMM_REDUCE] = "comm_reduce", [OPK_OUT_ELEMWISE_FUSABLE] = "out_elemwise_fusable",
	[OPK_TUPLE] = "tuple", [OPK_OPAQUE] = "opaque",
};

int
ir_op_kind_parse(const char *s)
{
	for (int k = 0; k < (int)(sizeof kindnames / sizeof *kindnames); k++)
		if (kindnames[k] && strcmp(kindnames[k], s) == 0)
			return k;
	return -1;
}

const char *
ir_op_kind_name(int k)
{
	return k >= 0 && k < (int)(sizeof kindnames / sizeof *kindnames) && kindnames[k] ? kindnames[k] : "opaque";
}
