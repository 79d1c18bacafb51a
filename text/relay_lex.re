/*
** relay_lex.re: the lexer of TVM's Relay text format (re2c).
**
** Tokens are those of relay.y.  Two details of TVM's text:
**  - local names may contain dots (%features.0.0_weight), but a name that
**    starts with a digit is a graph temporary and stops at the first
**    non-digit, so %3.0 is "%3" "." "0";
**  - a comment that opens with ty= is a type annotation: it yields TYANN,
**    the type's tokens, then TYEND at its closing star-slash.  Any other
**    comment, block or line, is skipped.
** Unknown bytes are reported and skipped, so lexing never stops early.
*/
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <float.h>

#include "parse.h"
#include "pfuncs.h"
#include "relay.tab.h"

static void
newline(Parser *p, const char *nl)
{
	p->line++;
	p->linestart = nl + 1;
}

/* col: the 1-based column of q on the current line, at most 65535: a Loc
** holds 16 bits, so the tail of a longer line is reported as column
** 65535, never wrapped around */
static int
col(const Parser *p, const char *q)
{
	size_t c = (size_t)(q - p->linestart) + 1;
	return c > 0xffff ? 0xffff : (int)c;
}

/* here: the current token's location: its line and 1-based column */
static Loc
here(Parser *p)
{
	Loc loc = { p->line, (uint16_t)col(p, p->tok), p->file };
	return loc;
}

/* locate: set *l to the current token's location, written whole */
static void
locate(Parser *p, YYLTYPE *l)
{
	*l = here(p);
}

/* fastnum: number() for the common spellings, an optional minus, digits,
** a fraction, an exponent and no suffix or f, where strtod's result is
** one exact operation: a significand of at most 15 digits (exact in a
** double) times or over a power of ten up to 10^22 (exact too) is rounded
** once, to what strtod gives (where arithmetic is in the operands' own
** precision, FLT_EVAL_METHOD 0).  An integer takes up to 15 digits.  Returns
** 0 where it does not apply: number() then does it all. */
static int
fastnum(const char *s, const char *e, Num *out)
{
	static const double pow10[23] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
		1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };
	uint64_t mant = 0;
	int neg = 0, sig = 0, frac = 0, x = 0, xneg = 0, isfloat = 0;

	if (s < e && *s == '-') {
		neg = 1;
		s++;
	}
	for (; s < e && *s >= '0' && *s <= '9'; s++) {
		mant = mant * 10 + (uint64_t)(*s - '0');
		sig += mant != 0;
		if (sig > 15)
			return 0;
	}
	if (s < e && *s == '.') {
		isfloat = 1;
		for (s++; s < e && *s >= '0' && *s <= '9'; s++, frac++) {
			mant = mant * 10 + (uint64_t)(*s - '0');
			sig += mant != 0;
			if (sig > 15)
				return 0;
		}
	}
	if (s < e && (*s == 'e' || *s == 'E')) {
		isfloat = 1;
		if (++s < e && (*s == '-' || *s == '+'))
			xneg = *s++ == '-';
		if (s == e || *s < '0' || *s > '9')
			return 0;
		for (; s < e && *s >= '0' && *s <= '9'; s++)
			if ((x = x * 10 + (*s - '0')) > 1000)
				return 0;
	}
	if (s < e && *s == 'f' && s + 1 == e) {
		isfloat = 1;
		s++;
	}
	if (s != e || (isfloat && FLT_EVAL_METHOD != 0))
		return 0;
	memset(out, 0, sizeof *out);
	out->isfloat = (uint8_t)isfloat;
	out->dtype = isfloat ? DT_FLOAT32 : DT_INT32;
	if (!isfloat) {
		out->v.i = neg ? -(int64_t)mant : (int64_t)mant;
		return 1;
	}
	x = (xneg ? -x : x) - frac;
	if (mant == 0)
		out->v.f = 0.0;
	else if (x >= 0 && x <= 22)
		out->v.f = (double)mant * pow10[x];
	else if (x < 0 && x >= -22)
		out->v.f = (double)mant / pow10[-x];
	else
		return 0;
	if (neg)
		out->v.f = -out->v.f;
	return 1;
}

/* number: convert [s, e) to a Num; suffix is i8..u64, f, f16, f32, f64 */
static int
number(Parser *p, const char *s, const char *e, Num *out)
{
	char buf[64];
	const char *suf = s;
	size_t n;
	char *end;

	if (e - s < 64 && fastnum(s, e, out))
		return 1;
	memset(out, 0, sizeof *out);
	if (*suf == '-')
		suf++;
	while (suf < e && (strchr("0123456789.eE", *suf) || ((*suf == '-' || *suf == '+') && (suf[-1] == 'e' || suf[-1] == 'E'))))
		suf++;
	n = (size_t)(suf - s);
	if (n >= sizeof buf) {
		ir_error(p->d, here(p), "numeric literal is too long");
		return 0;
	}
	memcpy(buf, s, n);
	buf[n] = 0;
	out->isfloat = strpbrk(buf, ".eE") != NULL || (suf < e && *suf == 'f');
	out->dtype = out->isfloat ? DT_FLOAT32 : DT_INT32;
	if (suf < e) {
		char sbuf[8];
		size_t sn = (size_t)(e - suf);
		if (sn == 1 && *suf == 'f') {
			out->dtype = DT_FLOAT32;
		} else {
			DType dt = DT_COUNT;
			if (sn < sizeof sbuf - 4) {
				const char *base = *suf == 'i' ? "int" : *suf == 'u' ? "uint" : "float";
				snprintf(sbuf, sizeof sbuf, "%s%.*s", base, (int)sn - 1, suf + 1);
				dt = ir_dtype_parse(sbuf, strlen(sbuf));
			}
			if (dt == DT_COUNT) {
				ir_error(p->d, here(p), "unknown literal suffix '%.*s'", (int)sn, suf);
				return 0;
			}
			out->dtype = (uint8_t)dt;
			if (*suf == 'f')
				out->isfloat = 1;
			else if (out->isfloat) {
				ir_error(p->d, here(p), "integer suffix '%.*s' on a floating-point literal", (int)sn, suf);
				return 0;
			}
		}
	}
	errno = 0;
	if (out->isfloat)
		out->v.f = strtod(buf, &end);
	else
		out->v.i = strtoll(buf, &end, 10);
	if (errno == ERANGE && !out->isfloat) {
		ir_error(p->d, here(p), "integer literal %s does not fit in 64 bits", buf);
		return 0;
	}
	if (errno == ERANGE && out->isfloat && (out->v.f > 1 || out->v.f < -1)) {
		ir_error(p->d, here(p), "floating-point literal %s is out of range", buf);
		return 0;
	}
	return 1;
}

/* string: unescape the body of a string literal [s, e) */
static Tok
string(Parser *p, const char *s, const char *e)
{
	Tok r;
	char *out, *o;

	if (!memchr(s, '\\', (size_t)(e - s))) {
		r.off = (uint32_t)(s - p->src);
		r.n = (uint32_t)(e - s);
		return r;
	}
	ir_vgrow(&p->esc, &p->capesc, p->nesc + (uint32_t)(e - s) + 1);
	o = out = p->esc + p->nesc;
	while (s < e) {
		if (*s != '\\') {
			*o++ = *s++;
			continue;
		}
		s++;
		switch (*s++) {
		case 'n': *o++ = '\n'; break;
		case 't': *o++ = '\t'; break;
		case 'r': *o++ = '\r'; break;
		default: *o++ = s[-1]; break;
		}
	}
	r.off = p->nesc | TOK_ESC;
	r.n = (uint32_t)(o - out);
	p->nesc += r.n;
	return r;
}

/* digits: the decimal number [s, e), as strtoll() gives it: LLONG_MAX
** when it is larger */
static int64_t
digits(const char *s, const char *e)
{
	int64_t v = 0;

	for (; s < e; s++) {
		if (v > (INT64_MAX - (*s - '0')) / 10)
			return INT64_MAX;
		v = v * 10 + (*s - '0');
	}
	return v;
}

/* newnum: the next slot of the number ring, named by the token's value */
static Num *
newnum(Parser *p, YYSTYPE *lval)
{
	lval->num = p->nnums = (p->nnums + 1) % NNUMS;
	return &p->nums[lval->num];
}

/* blanks: s past spaces and tabs */
static const char *
blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* cnum: the number at s, lexed as the int and float rules do and converted
** by fastnum() as number() does, into *out.  Returns its end, or NULL where
** the token would be another (a suffix but f, an exponent without digits),
** fastnum() does not take it, or a byte other than a blank, ',', ']' or
** ')' follows it. */
static const char *
cnum(const char *s, Num *out)
{
	const char *q = s;

	if (*q == '-')
		q++;
	if (*q < '0' || *q > '9')
		return NULL;
	while (*q >= '0' && *q <= '9')
		q++;
	if (*q == '.')
		for (q++; *q >= '0' && *q <= '9'; q++)
			;
	if ((*q == 'e' || *q == 'E') && ((q[1] >= '0' && q[1] <= '9') ||
	    ((q[1] == '-' || q[1] == '+') && q[2] >= '0' && q[2] <= '9')))
		for (q += 2; *q >= '0' && *q <= '9'; q++)
			;
	if (*q == 'f')
		q++;
	if ((*q != ' ' && *q != '\t' && *q != ',' && *q != ']' && *q != ')') || q - s >= 64 || !fastnum(s, q, out))
		return NULL;
	return q;
}

/* cvalue: the array or number at s, at depth, onto c: numbers onto c->v,
** the first array ending at each depth sets c->dims[depth], the first
** number sets c->rank.  Returns its end, or NULL where the value is not a
** rectangular array of at most 8 dimensions, none empty, of numbers that
** cnum() takes, on one line without comments. */
static const char *
cvalue(ConstData *c, const char *s, int depth)
{
	int64_t n = 0;

	if (*s != '[') {
		if (c->rank < 0)
			c->rank = depth;
		if (c->rank != depth)
			return NULL;
		ir_vgrow(&c->v, &c->cap, c->n + 1);
		if (!(s = cnum(s, &c->v[c->n])))
			return NULL;
		c->n++;
		return s;
	}
	if (depth >= 8 || (c->rank >= 0 && depth >= c->rank))
		return NULL;
	for (s = blanks(s + 1);; s = blanks(s + 1)) {
		if (!(s = cvalue(c, s, depth + 1)))
			return NULL;
		n++;
		s = blanks(s);
		if (*s == ']')
			break;
		if (*s != ',')
			return NULL;
	}
	if (c->dims[depth] < 0)
		c->dims[depth] = n;
	return c->dims[depth] == n ? s + 1 : NULL;
}

/* constdata: after the '(' of "const (", read the array that follows into
** Parser.cdata, to be the next token (CONSTDATA), if cvalue() takes it.
** Anything else is left to the tokens of attr_val, which read it as
** p_inline_const() wants and report what is wrong. */
static void
constdata(Parser *p)
{
	ConstData *c = &p->cdata;
	const char *s = blanks(p->cur), *e;

	if (*s != '[')
		return;
	c->n = 0;
	c->rank = -1;
	for (int i = 0; i < 8; i++)
		c->dims[i] = -1;
	if ((e = cvalue(c, s, 0))) {
		c->start = s;
		c->end = e;
	}
}

/* ---------------------------------------------------------------- the fast path
**
** Most lines of a printed model bind one call of plain operands:
**
**   %N = op(%a, meta[relay.Constant][K], 1f, key=value, ...);
**
** fastlines() reads such lines where Bison waits for a body's next
** binding with nothing pending, and calls for each the actions Bison would
** call, in Bison's order (each operand, then its list; each attribute
** value, then its key, then its list; p_args(), p_call(), p_bind()) and
** with the same locations, so that the Module, the diagnostics and the
** Parser's stacks come out as from the tokens.  That place is just after a
** ';' or '{' (Parser.atbind): each is shifted into a state that reduces by
** default, with no lookahead, so that Bison has done every action before
** it and waits in a body's `bindings .` for its next token.  A line is
** taken only when it is such a line whole, on one line, without comments,
** and split by the lexer's rules into the tokens it is read as here; any
** other is left to the tokens, which read it and report what is wrong.
** The fast path is off for good after a syntax error (Parser.syntaxerr),
** as Bison's recovery counts the tokens it shifts, and under more than
** FASTNEST open brackets, where Bison's stack could fill up (YYMAXDEPTH)
** on a line that the fast path would take.
**
** fline() reads a line and records its actions, without doing any;
** fdo() does them once the whole line is read.
*/

enum {
	FASTNEST = 64,          /* Parser.depth at most; Bison's stack takes some 16 a bracket */
	FASTDEPTH = 16,         /* attribute arrays nested at most */
	FASTACTS = 128          /* actions a line at most */
};

/* An action of a line: the action of one operand or one attribute value,
** or of an attribute's key.  Each has its token's location. */
typedef enum FKind {
	FA_LOCAL,       /* p_local(); name [s, s + n) */
	FA_META,        /* p_meta(); num the index */
	FA_SCALAR,      /* p_scalar(); num */
	FA_BOOL,        /* p_bool(); num.v.i 1 or 0 */
	FA_STR,         /* p_attr_str(); the string's body [s, s + n) */
	FA_NUM,         /* p_attr_num(); num */
	FA_ABOOL,       /* p_attr_bool(); num.v.i 1 or 0 */
	FA_NONE,        /* p_attr_none() */
	FA_OPEN,        /* '[': an array's elements follow, up to its FA_CLOSE */
	FA_CLOSE,       /* p_attr_array() of the array opened last */
	FA_KEY          /* p_attr_key() of the value before; key [s, s + n) */
} FKind;

typedef struct FAct {
	uint8_t kind;   /* FKind */
	Loc loc;
	const char *s;
	uint32_t n;
	Num num;
} FAct;

/* FLine: a line as fline() reads it */
typedef struct FLine {
	Str lhs, op;
	Loc lloc, oloc;
	FAct act[FASTACTS];
	uint32_t nact;
} FLine;

/* at: the location of q on the current line */
static Loc
at(const Parser *p, const char *q)
{
	Loc loc = { p->line, (uint16_t)col(p, q), p->file };
	return loc;
}

/* fblanks: s past the blanks of ws */
static const char *
fblanks(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	return s;
}

/* isfirst: a letter or '_'; isrest: those or a digit */
static int
isfirst(unsigned char c)
{
	return (unsigned char)((c | 0x20) - 'a') < 26 || c == '_';
}

static int
isrest(unsigned char c)
{
	return isfirst(c) || (unsigned char)(c - '0') < 10;
}

/* fword: the end of the word at s as the ident rule reads it, or s */
static const char *
fword(const char *s)
{
	const char *q = s;

	if (!isfirst((unsigned char)*q))
		return s;
	while (isrest((unsigned char)*++q))
		;
	while (*q == '.' && isfirst((unsigned char)q[1]))
		for (q += 2; isrest((unsigned char)*q); q++)
			;
	return q;
}

/* wordtok: the token the lexer makes of the word [s, e) fword() read: a
** keyword's, T_IDENT, or 0 where a meta rule reads on */
static int
wordtok(const char *s, const char *e)
{
	static const struct {
		char w[8];
		int n, tok;
	} kw[] = {      /* the keyword rules of lex() */
		{ "def", 3, T_DEF }, { "fn", 2, T_FN }, { "let", 3, T_LET }, { "Tensor", 6, T_TENSOR },
		{ "True", 4, T_TRUE }, { "False", 5, T_FALSE }, { "None", 4, T_NONE }, { "const", 5, T_CONST },
	};
	int n = (int)(e - s);

	if (n > 6 || !strchr("dflTFNcm", *s))
		return T_IDENT;
	if (n == 4 && memcmp(s, "meta", 4) == 0 && *e == '[')
		return 0;
	for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++)
		if (kw[i].n == n && memcmp(kw[i].w, s, (size_t)n) == 0)
			return kw[i].tok;
	return T_IDENT;
}

/* flocal: the end of the LOCAL token at s, a '%', or NULL */
static const char *
flocal(const char *s)
{
	const char *q = s + 1;

	if ((unsigned char)(*q - '0') < 10) {
		while ((unsigned char)(*++q - '0') < 10)
			;
	} else if (isfirst((unsigned char)*q)) {
		while (isrest((unsigned char)*++q) || *q == '.')
			;
	} else {
		return NULL;
	}
	return q;
}

/* fact: the next action of l, of kind k at s, or NULL if l has too many */
static FAct *
fact(const Parser *p, FLine *l, FKind k, const char *s)
{
	FAct *a;

	if (l->nact == FASTACTS)
		return NULL;
	a = &l->act[l->nact++];
	a->kind = (uint8_t)k;
	a->loc = at(p, s);
	a->s = s;
	a->n = 0;
	return a;
}

/* foperand: an operand at s, as postfix reads LOCAL, META, INT, FLOAT,
** TRUE or FALSE, onto l's actions.  Returns its end, or NULL. */
static const char *
foperand(const Parser *p, FLine *l, const char *s)
{
	const char *q;
	FAct *a;
	int t;

	if (*s == '%') {
		if (!(q = flocal(s)) || !(a = fact(p, l, FA_LOCAL, s)))
			return NULL;
		a->s = s + 1;
		a->n = (uint32_t)(q - s - 1);
		return q;
	}
	if (strncmp(s, "meta[relay.Constant][", 21) == 0) {
		for (q = s + 21; (unsigned char)(*q - '0') < 10; q++)
			;
		if (q == s + 21 || *q != ']' || !(a = fact(p, l, FA_META, s)))
			return NULL;
		memset(&a->num, 0, sizeof a->num);
		a->num.v.i = digits(s + 21, q);
		a->num.dtype = DT_INT64;
		return q + 1;
	}
	if (*s == '-' || (unsigned char)(*s - '0') < 10) {
		if (!(a = fact(p, l, FA_SCALAR, s)) || !(q = cnum(s, &a->num)))
			return NULL;
		return q;
	}
	q = fword(s);
	t = q > s ? wordtok(s, q) : 0;
	if ((t != T_TRUE && t != T_FALSE) || !(a = fact(p, l, FA_BOOL, s)))
		return NULL;
	a->num.v.i = t == T_TRUE;
	return q;
}

/* fattrval: attr_val at s, depth arrays in, onto l's actions.  Returns
** its end, or NULL. */
static const char *
fattrval(const Parser *p, FLine *l, const char *s, int depth)
{
	const char *q;
	FAct *a;
	int t;

	if (*s == '"') {
		for (q = s + 1; *q != '"'; q++)
			if (*q == '\\' || *q == '\n' || *q == '\0')
				return NULL;
		if (!(a = fact(p, l, FA_STR, s)))
			return NULL;
		a->s = s + 1;
		a->n = (uint32_t)(q - s - 1);
		return q + 1;
	}
	if (*s == '[') {
		if (depth >= FASTDEPTH || !fact(p, l, FA_OPEN, s))
			return NULL;
		for (q = fblanks(s + 1); *q != ']';) {
			if (!(q = fattrval(p, l, q, depth + 1)))
				return NULL;
			q = fblanks(q);
			if (*q == ',') {
				if (*(q = fblanks(q + 1)) == ']')
					return NULL;
			} else if (*q != ']') {
				return NULL;
			}
		}
		return fact(p, l, FA_CLOSE, s) ? q + 1 : NULL;
	}
	if (*s == '-' || (unsigned char)(*s - '0') < 10) {
		if (!(a = fact(p, l, FA_NUM, s)) || !(q = cnum(s, &a->num)))
			return NULL;
		return q;
	}
	q = fword(s);
	t = q > s ? wordtok(s, q) : 0;
	if (t == T_NONE)
		return fact(p, l, FA_NONE, s) ? q : NULL;
	if ((t != T_TRUE && t != T_FALSE) || !(a = fact(p, l, FA_ABOOL, s)))
		return NULL;
	a->num.v.i = t == T_TRUE;
	return q;
}

/* fline: the binding at s, LOCAL '=' IDENT '(' call_args ')' ';' with
** plain operands, into l.  Returns the end of its ';', or NULL. */
static const char *
fline(const Parser *p, FLine *l, const char *s)
{
	const char *q, *key, *end;
	int nattrs = 0;
	FAct *a;

	/* LOCAL '=' IDENT '(' */
	l->nact = 0;
	if (!(q = flocal(s)))
		return NULL;
	l->lhs = (Str){ s + 1, (uint32_t)(q - s - 1) };
	l->lloc = at(p, s);
	if (*(q = fblanks(q)) != '=')
		return NULL;
	key = fblanks(q + 1);
	q = fword(key);
	if (q == key || wordtok(key, q) != T_IDENT)
		return NULL;
	l->op = (Str){ key, (uint32_t)(q - key) };
	l->oloc = at(p, key);
	if (*(q = fblanks(q)) != '(')
		return NULL;
	/* call_args: [args] [{',' attr}] */
	for (q = fblanks(q + 1); *q != ')';) {
		key = q;
		end = fword(key);
		if (end > key && *fblanks(end) == '=' && wordtok(key, end) == T_IDENT) {
			/* attr_item: IDENT '=' attr_val */
			if (!(q = fattrval(p, l, fblanks(fblanks(end) + 1), 0)) || !(a = fact(p, l, FA_KEY, key)))
				return NULL;
			a->s = key;
			a->n = (uint32_t)(end - key);
			nattrs++;
		} else if (nattrs || !(q = foperand(p, l, key))) {
			return NULL;
		}
		q = fblanks(q);
		if (*q == ',') {
			if (*(q = fblanks(q + 1)) == ')')
				return NULL;
		} else if (*q != ')') {
			return NULL;
		}
	}
	/* ')' ';' */
	q = fblanks(q + 1);
	return *q == ';' ? q + 1 : NULL;
}

/* fdo: the actions of l, as Bison does them */
static void
fdo(Parser *p, const FLine *l)
{
	List nodes = p_list_empty(p), attrs = p_list_empty(p);
	List elems[FASTDEPTH];          /* of each array open */
	Loc open[FASTDEPTH];
	uint32_t nargs = 0, nattrs = 0, nel[FASTDEPTH], v = 0;
	int depth = 0;
	NodeId n = 0;

	for (uint32_t i = 0; i < l->nact; i++) {
		const FAct *a = &l->act[i];
		Str s = { a->s, a->n };
		switch ((FKind)a->kind) {
		case FA_LOCAL: n = p_local(p, &s, &a->loc); goto operand;
		case FA_META: n = p_meta(p, &a->num, &a->loc); goto operand;
		case FA_SCALAR: n = p_scalar(p, &a->num, &a->loc); goto operand;
		case FA_BOOL: n = p_bool(p, (int)a->num.v.i, &a->loc); goto operand;
		case FA_STR: v = p_attr_str(p, &s, &a->loc); goto value;
		case FA_NUM: v = p_attr_num(p, &a->num, &a->loc); goto value;
		case FA_ABOOL: v = p_attr_bool(p, (int)a->num.v.i, &a->loc); goto value;
		case FA_NONE: v = p_attr_none(p, &a->loc); goto value;
		case FA_OPEN:
			elems[depth] = p_list_empty(p);
			open[depth] = a->loc;
			nel[depth++] = 0;
			continue;
		case FA_CLOSE:
			depth--;
			v = p_attr_array(p, elems[depth], &open[depth]);
			goto value;
		case FA_KEY:
			v = p_attr_key(p, &s, v, &a->loc);
			attrs = nattrs++ ? p_attr_more(p, attrs, v) : p_attr_first(p, v);
			continue;
		}
	operand:
		nodes = nargs++ ? p_node_more(p, nodes, n) : p_node_first(p, n);
		continue;
	value:
		if (depth > 0) {
			elems[depth - 1] = nel[depth - 1]++ ? p_attr_more(p, elems[depth - 1], v)
			                                    : p_attr_first(p, v);
		}
	}
	n = p_call(p, &l->op, &l->oloc, p_args(p, nodes, attrs));
	p_bind(p, &l->lhs, &l->lloc, n, 0);
}

/* fastlines: at Parser.cur, the lines fline() takes, each done by fdo(),
** with the blanks and newlines before each; Parser.cur is left at the
** first line it does not take */
static void
fastlines(Parser *p)
{
	const char *s = p->cur, *e;
	FLine l;

	for (;;) {
		for (;; s++) {
			if (*s == '\n')
				newline(p, s);
			else if (*s != ' ' && *s != '\t' && *s != '\r')
				break;
		}
		p->cur = s;
		if (*s != '%' || !(e = fline(p, &l, s)))
			return;
		fdo(p, &l);
		s = e;
	}
}

/*!re2c
	re2c:define:YYCTYPE = "unsigned char";
	re2c:define:YYCURSOR = p->cur;
	re2c:define:YYMARKER = p->mark;
	re2c:yyfill:enable = 0;
	re2c:flags:utf-8 = 0;

	digit  = [0-9];
	letter = [a-zA-Z_];
	ident  = letter [a-zA-Z0-9_]* ("." [a-zA-Z_][a-zA-Z0-9_]*)*;
	name   = [a-zA-Z_] [a-zA-Z0-9_.]*;
	exp    = [eE] [+-]? digit+;
	isuf   = [iu] ("8" | "16" | "32" | "64");
	fsuf   = "f" ("16" | "32" | "64")?;
	int    = "-"? digit+;
	float  = "-"? (digit+ "." digit* exp? | digit+ exp);
	ws     = [ \t\r]+;
*/

/* lex: the next token, from the rules */
static int
lex(YYSTYPE *lval, YYLTYPE *lloc, Parser *p)
{
	int depth;
	Num *n;

	if (p->stopped)
		return 0;
	if (p->cdata.end) {
		p->tok = p->cdata.start;
		p->cur = p->cdata.end;
		p->cdata.end = NULL;
		locate(p, lloc);
		return T_CONSTDATA;
	}
again:
	p->tok = p->cur;
	/*!re2c
	"\x00" {
		if (p->cur - 1 < p->end) {
			ir_error(p->d, here(p), "NUL byte in input");
			goto again;
		}
		p->cur--;
		locate(p, lloc);
		return 0;
	}
	ws { goto again; }
	"\n" { newline(p, p->cur - 1); goto again; }
	"//" [^\n\x00]* { goto again; }

	"/*" [ \t]* "ty=" {
		locate(p, lloc);
		if (p->in_ann)
			ir_error(p->d, here(p), "type annotation inside a type annotation");
		p->in_ann = 1;
		return T_TYANN;
	}
	"*/" {
		locate(p, lloc);
		if (!p->in_ann) {
			ir_error(p->d, here(p), "'*/' outside a comment");
			goto again;
		}
		p->in_ann = 0;
		return T_TYEND;
	}
	"/*" {
		Loc start = here(p);
		for (depth = 1; depth > 0;) {
			if (p->cur >= p->end) {
				ir_error(p->d, start, "unterminated comment");
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

	"#[version" [ \t]* "=" [ \t]* "\"" [^"\n\x00]* "\"" [ \t]* "]" {
		locate(p, lloc);
		return T_VERSION;
	}
	"#[metadata]" {
		ir_warning(p->d, here(p), "TVM's metadata section is not read; "
		           "pass constants with --params FILE (safetensors)");
		p->stopped = 1;
		locate(p, lloc);
		return 0;
	}
	"meta[relay.Constant][" digit+ "]" {
		locate(p, lloc);
		n = newnum(p, lval);
		n->v.i = digits(p->tok + 21, p->cur - 1);
		n->dtype = DT_INT64;
		n->isfloat = 0;
		return T_META;
	}
	"meta[" [^\]\n\x00]* "]" {
		ir_error(p->d, here(p), "unsupported meta reference '%.*s'; "
		         "only meta[relay.Constant][N] is supported",
		         (int)(p->cur - p->tok), p->tok);
		locate(p, lloc);
		newnum(p, lval)->v.i = -1;
		return T_META;
	}

	"%" digit+ {
		locate(p, lloc);
		lval->str = (Tok){ (uint32_t)(p->tok + 1 - p->src), (uint32_t)(p->cur - p->tok - 1) };
		return T_LOCAL;
	}
	"%" name {
		locate(p, lloc);
		lval->str = (Tok){ (uint32_t)(p->tok + 1 - p->src), (uint32_t)(p->cur - p->tok - 1) };
		return T_LOCAL;
	}
	"@" name {
		locate(p, lloc);
		lval->str = (Tok){ (uint32_t)(p->tok + 1 - p->src), (uint32_t)(p->cur - p->tok - 1) };
		return T_GLOBAL;
	}

	"def"    { locate(p, lloc); return T_DEF; }
	"fn"     { locate(p, lloc); return T_FN; }
	"let"    { locate(p, lloc); return T_LET; }
	"Tensor" { locate(p, lloc); return T_TENSOR; }
	"True"   { locate(p, lloc); return T_TRUE; }
	"False"  { locate(p, lloc); return T_FALSE; }
	"None"   { locate(p, lloc); return T_NONE; }
	"const"  { locate(p, lloc); p->constend = p->cur; return T_CONST; }
	ident {
		locate(p, lloc);
		lval->str = (Tok){ (uint32_t)(p->tok - p->src), (uint32_t)(p->cur - p->tok) };
		return T_IDENT;
	}

	int isuf? {
		locate(p, lloc);
		n = newnum(p, lval);
		if (!number(p, p->tok, p->cur, n))
			n->v.i = 0;
		return n->isfloat ? T_FLOAT : T_INT;
	}
	(int | float) fsuf | float {
		locate(p, lloc);
		n = newnum(p, lval);
		if (!number(p, p->tok, p->cur, n))
			n->v.f = 0;
		n->isfloat = 1;
		return T_FLOAT;
	}

	"\"" [^"\\\n\x00]* ("\\" [^\n\x00] [^"\\\n\x00]*)* "\"" {
		locate(p, lloc);
		lval->str = string(p, p->tok + 1, p->cur - 1);
		return T_STRING;
	}
	"\"" {
		ir_error(p->d, here(p), "unterminated string");
		while (p->cur < p->end && *p->cur != '\n')
			p->cur++;
		goto again;
	}

	"->" { locate(p, lloc); return T_ARROW; }
	"(" {
		locate(p, lloc);
		if (p->constend && blanks(p->constend) == p->tok)
			constdata(p);
		return '(';
	}
	[)[\]{},;=:.?] { locate(p, lloc); return p->tok[0]; }

	* {
		unsigned char c = (unsigned char)p->tok[0];
		if (c >= 0x20 && c < 0x7f)
			ir_error(p->d, here(p), "unexpected character '%c'", c);
		else
			ir_error(p->d, here(p), "unexpected byte 0x%02x", c);
		goto again;
	}
	*/
}

/* ir_lex: the next token for Bison, after the lines fastlines() takes
** where it may; keeps Parser.atbind and Parser.depth */
int
ir_lex(YYSTYPE *lval, YYLTYPE *lloc, Parser *p)
{
	int t;

	if (p->atbind && !p->syntaxerr && p->depth <= FASTNEST)
		fastlines(p);
	t = lex(lval, lloc, p);
	switch (t) {
	case '(': case '[': case '{': p->depth++; break;
	case ')': case ']': case '}': p->depth--; break;
	}
	p->atbind = t == ';' || t == '{';
	return t;
}
