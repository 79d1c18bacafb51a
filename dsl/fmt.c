/*
** fmt.c: `graftc fmt`, the canonical layout of a .rules file.  It works
** on tokens, comments and line breaks, never on the parse: every token
** stays, in order, and every line break too (an item ends at the end of
** its line), so meaning cannot change; what changes is the space between
** tokens and at the start of lines:
**
**   - continuation lines are indented two spaces, and two more for each
**     line above whose brackets are still open (a line that opens several
**     adds one level); an item's first line is not indented
**   - one space after a comma and none before; none inside ( ) [ ]
**   - one space around => && || == != <= >= and the word if
**   - no space at the end of a line; at most one blank line in a row,
**     none at the start or end of the file; one newline at the end
**
** Comments are kept as written (a comment on a line of its own is
** indented as a code line there would be).  The result is checked to
** hold the same tokens and line breaks as the input before it is given
** out, and formatting it again changes nothing.
*/
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsl.h"

typedef enum TKind { T_WORD, T_PUNCT, T_STR, T_COMMENT, T_NL } TKind;

typedef struct Tok {
	TKind kind;
	const char *s;
	size_t n;
	int space;              /* white space before it on its line */
} Tok;

typedef struct Toks {
	Tok *v;
	uint32_t n, cap;
} Toks;

static const char *const ops[] = { "=>", "&&", "||", "==", "!=", "<=", ">=", "..." };

/* tokens: text into t; 0, or -1 for a string or comment that does not end */
static int
tokens(const char *s, size_t len, Toks *t)
{
	const char *end = s + len;
	int space = 0;

	while (s < end) {
		Tok k = { T_PUNCT, s, 1, space };
		if (*s == ' ' || *s == '\t' || *s == '\r') {
			space = 1;
			s++;
			continue;
		}
		if (*s == '\n') {
			k.kind = T_NL;
		} else if (s + 1 < end && s[0] == '/' && s[1] == '/') {
			k.kind = T_COMMENT;
			while (s + k.n < end && s[k.n] != '\n')
				k.n++;
			while (k.n > 2 && (s[k.n - 1] == ' ' || s[k.n - 1] == '\t' || s[k.n - 1] == '\r'))
				k.n--;
		} else if (s + 1 < end && s[0] == '/' && s[1] == '*') {
			const char *e = s + 2;
			while (e + 1 < end && !(e[0] == '*' && e[1] == '/'))
				e++;
			if (e + 1 >= end)
				return -1;
			k.kind = T_COMMENT;
			k.n = (size_t)(e + 2 - s);
		} else if (*s == '"') {
			k.kind = T_STR;
			while (s + k.n < end && s[k.n] != '"' && s[k.n] != '\n')
				k.n += s[k.n] == '\\' && s + k.n + 1 < end ? 2 : 1;
			if (s + k.n >= end || s[k.n] != '"')
				return -1;
			k.n++;
		} else if ((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_') {
			k.kind = T_WORD;
			k.n = 0;
			while (s + k.n < end && ((s[k.n] >= 'A' && s[k.n] <= 'Z') || (s[k.n] >= 'a' && s[k.n] <= 'z') ||
			                         (s[k.n] >= '0' && s[k.n] <= '9') || s[k.n] == '_' ||
			                         (s[k.n] == '.' && s + k.n + 1 < end && s[k.n + 1] != '.')))
				k.n++;
		} else {
			for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
				if ((size_t)(end - s) >= strlen(ops[i]) && !memcmp(s, ops[i], strlen(ops[i])))
					k.n = strlen(ops[i]);
		}
		ir_vgrow(&t->v, &t->cap, t->n + 1);
		t->v[t->n++] = k;
		s += k.n;
		space = 0;
	}
	return 0;
}

static int
is(const Tok *k, const char *s)
{
	return k->kind != T_NL && k->n == strlen(s) && !memcmp(k->s, s, k->n);
}

static int
isop(const Tok *k)
{
	for (size_t i = 0; i < sizeof ops / sizeof *ops - 1; i++)
		if (is(k, ops[i]))
			return 1;
	return 0;
}

/* continues: whether a line ending in token k goes on (the lexer's rule:
** an operator or a separator at its end) */
static int
continues(const Tok *k)
{
	static const char *const tails[] = { "=>", "&&", "||", "|", ",", ":", "=", "==", "!=", "<", ">", "<=", ">=",
	                                     "+", "-", "*", "/", "%", "!", "(", "[" };
	for (size_t i = 0; i < sizeof tails / sizeof *tails; i++)
		if (is(k, tails[i]))
			return 1;
	return 0;
}

/* leads: whether a line starting with token k continues the one before */
static int
leads(const Tok *k)
{
	return is(k, "if") || is(k, "=>") || is(k, "&&") || is(k, "||") || is(k, "|");
}

/* layout: the formatted text of t, malloc'ed, into *out */
static void
layout(const Toks *t, char **out, size_t *outlen)
{
	FILE *f = open_memstream(out, outlen);
	int depth = 0, open = 0;        /* brackets open; the item goes on */
	int blank = 0, any = 0;
	int levels[64], nlevels = 0;    /* the depth each open level started at */
	const Tok *last = NULL;         /* the last code token of the item so far */

	for (uint32_t i = 0; i < t->n;) {
		uint32_t e = i, first = i;
		int indent, lead, d;
		/* a line: tokens i .. e-1, then a newline or the end */
		while (e < t->n && t->v[e].kind != T_NL)
			e++;
		if (e == i) {
			blank++;
			i = e + 1;
			continue;
		}
		/* the depth at its start, after closers that begin it */
		d = depth;
		for (uint32_t k = i; k < e && (is(&t->v[k], ")") || is(&t->v[k], "]")); k++)
			d--;
		lead = t->v[i].kind != T_COMMENT && leads(&t->v[i]);
		while (nlevels && levels[nlevels - 1] >= (d > 0 ? d : 0))
			nlevels--;      /* closed before this line's first code */
		indent = open || depth > 0 || lead ? 2 + 2 * nlevels : 0;
		if (any && blank)
			fputc('\n', f);
		blank = 0;
		any = 1;
		for (int k = 0; k < indent; k++)
			fputc(' ', f);
		for (uint32_t k = i; k < e; k++) {
			const Tok *a = k > first ? &t->v[k - 1] : NULL, *b = &t->v[k];
			if (a) {
				int sp;
				if (is(b, ",") || is(a, "(") || is(a, "[") || is(b, ")") || is(b, "]"))
					sp = 0;
				else if (is(a, ",") || isop(a) || isop(b) || b->kind == T_COMMENT || is(a, "if") || is(b, "if"))
					sp = 1;
				else
					sp = b->space;
				if (sp)
					fputc(' ', f);
			}
			fwrite(b->s, 1, b->n, f);
			if (b->kind == T_COMMENT)
				continue;
			if (is(b, "(") || is(b, "["))
				depth++;
			else if ((is(b, ")") || is(b, "]")) && depth > 0)
				depth--;
			last = b;
		}
		fputc('\n', f);
		/* a line that leaves more brackets open than it found: one level */
		if (depth > (d > 0 ? d : 0) && nlevels < 64)
			levels[nlevels++] = d > 0 ? d : 0;
		/* does the item go on past this line? */
		open = last && (depth > 0 || continues(last));
		if (!open) {
			last = NULL;
			nlevels = 0;
		}
		i = e + 1;
	}
	fclose(f);
}

/* same: whether a and b hold the same tokens and line breaks (blank lines
** apart) */
static int
same(const Toks *a, const Toks *b)
{
	uint32_t i = 0, j = 0;

	for (;;) {
		/* runs of line breaks count as one */
		while (i < a->n && a->v[i].kind == T_NL && i + 1 < a->n && a->v[i + 1].kind == T_NL)
			i++;
		while (j < b->n && b->v[j].kind == T_NL && j + 1 < b->n && b->v[j + 1].kind == T_NL)
			j++;
		if (i == a->n || j == b->n)
			break;
		if (a->v[i].kind != b->v[j].kind || (a->v[i].kind != T_NL &&
		    (a->v[i].n != b->v[j].n || memcmp(a->v[i].s, b->v[j].s, a->v[i].n))))
			return 0;
		i++, j++;
	}
	/* what is left is line breaks */
	while (i < a->n && a->v[i].kind == T_NL)
		i++;
	while (j < b->n && b->v[j].kind == T_NL)
		j++;
	return i == a->n && j == b->n;
}

/* dsl_fmt: see dsl.h */
int
dsl_fmt(const char *text, size_t len, char **out, size_t *outlen, const char **why)
{
	Toks a = { 0 }, b = { 0 };
	int rc = 0;

	*out = NULL;
	*outlen = 0;
	if (tokens(text, len, &a)) {
		*why = "a string or comment does not end";
		free(a.v);
		return -1;
	}
	layout(&a, out, outlen);
	/* every token and line break kept: nothing that means anything moved */
	if (tokens(*out, *outlen, &b) || !same(&a, &b)) {
		*why = "formatting would change the tokens (a bug in graftc fmt)";
		free(*out);
		*out = NULL;
		rc = -1;
	}
	free(a.v);
	free(b.v);
	return rc;
}
