/*
** lex.re: the lexer of the rules language (re2c).
**
** Items end at a newline (token END, as does ';') except where the item
** clearly goes on: inside ( ) or [ ], after a token that cannot end an item
** (an operator, ',', ':', '=', '=>', 'if', ...), or before a line that
** starts with 'if', '=>', '&&', '||' or '|'.  Blank lines and comments
** never produce END.  Unknown bytes are reported and skipped.
*/
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "dparse.h"
#include "rules.tab.h"

static void
newline(DParser *p, const char *nl)
{
	p->line++;
	p->linestart = nl + 1;
}

static void
locate(DParser *p, DLTYPE *l)
{
	l->first_line = l->last_line = (int)p->line;
	l->first_column = (int)(p->tok - p->linestart) + 1;
	l->last_column = (int)(p->cur - p->linestart);
	l->first_off = (uint32_t)(p->tok - p->src);
	l->last_off = (uint32_t)(p->cur - p->src);
}

/* here: the location of the current token; columns past 65535 (the most a
** Loc holds) are reported as 65535, as dsl_loc does */
static Loc
here(DParser *p)
{
	ptrdiff_t col = p->tok - p->linestart + 1;
	Loc loc = { p->line, (uint16_t)(col > 0xffff ? 0xffff : col), p->file };
	return loc;
}

/* continues: 1 if an item cannot end after token t */
static int
continues(int t)
{
	switch (t) {
	case 0: case T_END: case T_ARROW: case T_IF: case T_ANDAND: case T_OROR:
	case T_EQ: case T_NE: case T_LE: case T_GE: case T_RULE: case T_PRIORITY:
	case T_RULESET: case T_INCLUDE: case T_PATTERN: case T_EXTERN: case T_PRED:
	case T_ACTION: case T_TARGET: case T_COMPOSITE: case T_SUPPORTS:
	case '|': case ',': case ':': case '=': case '<': case '+': case '-':
	case '*': case '/': case '%': case '!': case '(': case '[': case '.':
		return 1;
	}
	return 0;
}

/* nextcontinues: 1 if the next line with a token starts with if, =>, &&,
** || or |, which continue the current item */
static int
nextcontinues(const DParser *p)
{
	const char *s = p->cur;

	for (;;) {
		while (s < p->end && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n'))
			s++;
		if (s + 1 < p->end && s[0] == '/' && s[1] == '/') {
			while (s < p->end && *s != '\n')
				s++;
			continue;
		}
		if (s + 1 < p->end && s[0] == '/' && s[1] == '*') {
			/* nested, as the lexer reads comments; past NUL bytes too */
			int depth = 1;
			for (s += 2; s < p->end && depth > 0; s++) {
				if (s + 1 < p->end && s[0] == '/' && s[1] == '*') {
					depth++;
					s++;
				} else if (s + 1 < p->end && s[0] == '*' && s[1] == '/') {
					depth--;
					s++;
				}
			}
			if (depth > 0)
				return 0;
			continue;
		}
		break;
	}
	if (s >= p->end)
		return 0;
	if (s[0] == '|' || (s[0] == '&' && s[1] == '&') || (s[0] == '=' && s[1] == '>'))
		return 1;
	return s[0] == 'i' && s[1] == 'f' && !(s[2] == '_' || (s[2] >= 'a' && s[2] <= 'z') ||
	       (s[2] >= 'A' && s[2] <= 'Z') || (s[2] >= '0' && s[2] <= '9'));
}

/* number: a literal [s, e) with an optional dtype suffix */
static int
number(DParser *p, const char *s, const char *e, DSTYPE *v, int isfloat)
{
	char buf[64], sbuf[16];
	const char *suf = s;
	size_t n;

	while (suf < e && (strchr("0123456789.eE", *suf) ||
	       ((*suf == '-' || *suf == '+') && (suf[-1] == 'e' || suf[-1] == 'E'))))
		suf++;
	n = (size_t)(suf - s);
	if (n >= sizeof buf) {
		ir_error(p->r->d, here(p), "numeric literal is too long");
		return 0;
	}
	memcpy(buf, s, n);
	buf[n] = 0;
	v->num.dtype = isfloat ? DT_FLOAT32 : DT_INT32;
	if (suf < e && !(e - suf == 1 && *suf == 'f')) {
		const char *base = *suf == 'i' ? "int" : *suf == 'u' ? "uint" : "float";
		DType dt;
		snprintf(sbuf, sizeof sbuf, "%s%.*s", base, (int)(e - suf - 1), suf + 1);
		dt = ir_dtype_parse(sbuf, strlen(sbuf));
		if (dt == DT_COUNT) {
			ir_error(p->r->d, here(p), "unknown literal suffix '%.*s'", (int)(e - suf), suf);
			return 0;
		}
		v->num.dtype = (uint8_t)dt;
	}
	errno = 0;
	if (isfloat)
		v->num.f = strtod(buf, NULL);
	else
		v->num.i = strtoll(buf, NULL, 10);
	if (errno == ERANGE) {
		ir_error(p->r->d, here(p), "literal %s is out of range", buf);
		return 0;
	}
	return 1;
}

/*!re2c
	re2c:define:YYCTYPE = "unsigned char";
	re2c:define:YYCURSOR = p->cur;
	re2c:define:YYMARKER = p->mark;
	re2c:yyfill:enable = 0;

	digit  = [0-9];
	ident  = [a-zA-Z_] [a-zA-Z0-9_]* ("." [a-zA-Z_] [a-zA-Z0-9_]*)*;
	exp    = [eE] [+-]? digit+;
	isuf   = [iu] ("8" | "16" | "32" | "64");
	fsuf   = "f" ("16" | "32" | "64")?;
	float  = digit+ "." digit* exp? | digit+ exp;
*/

/* ir_lex's counterpart for rules: returns the next token */
static int
token(DSTYPE *lval, DLTYPE *lloc, DParser *p)
{
	int depth;
again:
	p->tok = p->cur;
	/*!re2c
	"\x00" {
		if (p->cur - 1 < p->end) {
			ir_error(p->r->d, here(p), "NUL byte in input");
			goto again;
		}
		p->cur--;
		locate(p, lloc);
		return 0;
	}
	[ \t\r]+ { goto again; }
	"\n" {
		/* an END is where its line ends, not on the next line (column 0) */
		locate(p, lloc);
		newline(p, p->cur - 1);
		if (p->depth > 0 || continues(p->last) || nextcontinues(p))
			goto again;
		return T_END;
	}
	"//" [^\n\x00]* { goto again; }
	"/*" {
		Loc start = here(p);
		for (depth = 1; depth > 0;) {
			if (p->cur >= p->end) {
				ir_error(p->r->d, start, "unterminated comment");
				p->tok = p->cur;
				locate(p, lloc);
				return 0;
			}
			if (p->cur[0] == '\n')
				newline(p, p->cur);
			if (p->cur[0] == '/' && p->cur[1] == '*') {
				depth++;
				p->cur++;
			} else if (p->cur[0] == '*' && p->cur[1] == '/') {
				depth--;
				p->cur++;
			}
			p->cur++;
		}
		goto again;
	}
	";" { locate(p, lloc); return T_END; }

	"ruleset"    { locate(p, lloc); return T_RULESET; }
	"include"    { locate(p, lloc); return T_INCLUDE; }
	"pattern"    { locate(p, lloc); return T_PATTERN; }
	"extern"     { locate(p, lloc); return T_EXTERN; }
	"pred"       { locate(p, lloc); return T_PRED; }
	"action"     { locate(p, lloc); return T_ACTION; }
	"rule"       { locate(p, lloc); return T_RULE; }
	"priority"   { locate(p, lloc); return T_PRIORITY; }
	"within"     { locate(p, lloc); return T_WITHIN; }
	"once"       { locate(p, lloc); return T_ONCE; }
	"finite"     { locate(p, lloc); return T_FINITE; }
	"if"         { locate(p, lloc); return T_IF; }
	"const"      { locate(p, lloc); return T_CONST; }
	"var"        { locate(p, lloc); return T_VAR; }
	"fold_const" { locate(p, lloc); return T_FOLD; }
	"attrs"      { locate(p, lloc); return T_ATTRS; }
	"True"       { locate(p, lloc); return T_TRUE; }
	"False"      { locate(p, lloc); return T_FALSE; }
	"None"       { locate(p, lloc); return T_NONE; }
	"target"     { locate(p, lloc); return T_TARGET; }
	"composite"  { locate(p, lloc); return T_COMPOSITE; }
	"supports"   { locate(p, lloc); return T_SUPPORTS; }
	"_"          { locate(p, lloc); return '_'; }
	ident {
		locate(p, lloc);
		lval->str.p = p->tok;
		lval->str.n = (uint32_t)(p->cur - p->tok);
		return T_IDENT;
	}

	digit+ isuf? {
		locate(p, lloc);
		if (!number(p, p->tok, p->cur, lval, 0))
			lval->num.i = 0;
		return T_INT;
	}
	(digit+ | float) fsuf | float {
		locate(p, lloc);
		if (!number(p, p->tok, p->cur, lval, 1))
			lval->num.f = 0;
		return T_FLOAT;
	}
	"\"" [^"\\\n\x00]* "\"" {
		locate(p, lloc);
		lval->str.p = p->tok + 1;
		lval->str.n = (uint32_t)(p->cur - p->tok - 2);
		return T_STRING;
	}
	"\"" {
		ir_error(p->r->d, here(p), "unterminated string");
		while (p->cur < p->end && *p->cur != '\n')
			p->cur++;
		goto again;
	}

	"=>"  { locate(p, lloc); return T_ARROW; }
	"..." { locate(p, lloc); return T_ELLIPSIS; }
	"=="  { locate(p, lloc); return T_EQ; }
	"!="  { locate(p, lloc); return T_NE; }
	"<="  { locate(p, lloc); return T_LE; }
	">="  { locate(p, lloc); return T_GE; }
	"&&"  { locate(p, lloc); return T_ANDAND; }
	"||"  { locate(p, lloc); return T_OROR; }
	[([{] { locate(p, lloc); p->depth++; return p->tok[0]; }
	[)\]}] { locate(p, lloc); if (p->depth > 0) p->depth--; return p->tok[0]; }
	[,:=|?<>.+\-*/%!] { locate(p, lloc); return p->tok[0]; }

	* {
		unsigned char c = (unsigned char)p->tok[0];
		if (c >= 0x20 && c < 0x7f)
			ir_error(p->r->d, here(p), "unexpected character '%c'", c);
		else
			ir_error(p->r->d, here(p), "unexpected byte 0x%02x", c);
		goto again;
	}
	*/
}

int
dsl_lex(DSTYPE *lval, DLTYPE *lloc, DParser *p)
{
	int t = token(lval, lloc, p);

	/* the last item needs no newline after it */
	if (t == 0 && p->last != T_END && p->last != 0) {
		p->last = T_END;
		return T_END;
	}
	/* an END right after an END (or at the start) carries nothing */
	while (t == T_END && (p->last == T_END || p->last == 0)) {
		p->last = T_END;
		t = token(lval, lloc, p);
	}
	p->last = t;
	return t;
}
