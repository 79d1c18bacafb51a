/*
** ops.c: the op registry, expanded from ops.def.  Lookup by name, attribute
** lookup by name, and the nearest op name for did-you-mean messages.
*/
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

const OpInfo ir_ops[OP_COUNT] = {
	{ "", 0, 0, NULL, NULL, 0 },
#define OP(id, name, nargs, flags, rel, attrs) \
	{ name, nargs, flags, rel_##rel, schema_##id + 1, \
	  (int)(sizeof schema_##id / sizeof schema_##id[0]) - 1 },
#include "ops.def"
#undef OP
};

#undef A
#undef NOATTRS

OpId
ir_op_lookup(const char *name, size_t n)
{
	/* a linear scan: ~50 ops, and callers intern the result */
	for (OpId i = 1; i < OP_COUNT; i++)
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

	for (OpId i = 1; i < OP_COUNT; i++) {
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
