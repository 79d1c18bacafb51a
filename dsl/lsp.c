/*
** lsp.c: `graftc lsp`, a language server for .rules files over standard
** input and output (JSON-RPC with Content-Length headers, the Language
** Server Protocol).  It keeps each open document's text, checks it on
** every change with graftc's own front end (the same errors and
** warnings), and answers hover (an op's operands and attributes from the
** op registry, a builtin's meaning), go to definition (named patterns,
** included files) and completion (ops, keywords, builtins, and the
** attributes of the op whose parentheses the cursor is in).
*/
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsl.h"

/* ---------------------------------------------------------------- JSON in */

enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

typedef struct J {
	int kind;
	double num;
	char *str;              /* J_STR */
	struct J **kid;         /* J_ARR, J_OBJ */
	char **key;             /* J_OBJ */
	uint32_t n;
} J;

typedef struct JP {
	const char *p, *end;
	int bad;
} JP;

static void
jfree(J *j)
{
	if (!j)
		return;
	for (uint32_t i = 0; i < j->n; i++) {
		jfree(j->kid[i]);
		if (j->key)
			free(j->key[i]);
	}
	free(j->kid);
	free(j->key);
	free(j->str);
	free(j);
}

static void
jws(JP *p)
{
	while (p->p < p->end && (*p->p == ' ' || *p->p == '\t' || *p->p == '\n' || *p->p == '\r'))
		p->p++;
}

/* utf8: code point c onto s */
static size_t
utf8(char *s, unsigned long c)
{
	if (c < 0x80) {
		s[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		s[0] = (char)(0xc0 | (c >> 6));
		s[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		s[0] = (char)(0xe0 | (c >> 12));
		s[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		s[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	s[0] = (char)(0xf0 | (c >> 18));
	s[1] = (char)(0x80 | ((c >> 12) & 0x3f));
	s[2] = (char)(0x80 | ((c >> 6) & 0x3f));
	s[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

static char *
jstring(JP *p)
{
	char *out = ir_xmalloc((size_t)(p->end - p->p) + 4), *o = out;

	p->p++;         /* the quote */
	while (p->p < p->end && *p->p != '"') {
		char c = *p->p++;
		if (c != '\\') {
			*o++ = c;
			continue;
		}
		if (p->p == p->end)
			break;
		c = *p->p++;
		switch (c) {
		case 'n': *o++ = '\n'; break;
		case 't': *o++ = '\t'; break;
		case 'r': *o++ = '\r'; break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'u': {
			unsigned long u = 0;
			for (int k = 0; k < 4 && p->p < p->end; k++, p->p++)
				u = u * 16 + (unsigned long)(*p->p >= 'a' ? *p->p - 'a' + 10 : *p->p >= 'A' ? *p->p - 'A' + 10 :
				                             *p->p - '0');
			if (u >= 0xd800 && u < 0xdc00 && p->end - p->p >= 6 && p->p[0] == '\\' && p->p[1] == 'u') {
				unsigned long lo = 0;
				p->p += 2;
				for (int k = 0; k < 4; k++, p->p++)
					lo = lo * 16 + (unsigned long)(*p->p >= 'a' ? *p->p - 'a' + 10 : *p->p >= 'A' ?
					                               *p->p - 'A' + 10 : *p->p - '0');
				u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
			}
			o += utf8(o, u);
			break;
		}
		default: *o++ = c; break;
		}
	}
	if (p->p == p->end)
		p->bad = 1;
	else
		p->p++;
	*o = 0;
	return out;
}

static J *
jvalue(JP *p, int depth)
{
	J *j = ir_xcalloc(1, sizeof *j);

	jws(p);
	if (p->p >= p->end || depth > 64) {
		p->bad = 1;
		return j;
	}
	if (*p->p == '{' || *p->p == '[') {
		int obj = *p->p == '{';
		char close = obj ? '}' : ']';
		j->kind = obj ? J_OBJ : J_ARR;
		p->p++;
		jws(p);
		if (p->p < p->end && *p->p == close) {
			p->p++;
			return j;
		}
		while (!p->bad) {
			char *key = NULL;
			jws(p);
			if (obj) {
				if (p->p >= p->end || *p->p != '"') {
					p->bad = 1;
					break;
				}
				key = jstring(p);
				jws(p);
				if (p->p >= p->end || *p->p != ':') {
					free(key);
					p->bad = 1;
					break;
				}
				p->p++;
			}
			j->kid = ir_xrealloc(j->kid, (j->n + 1) * sizeof *j->kid);
			if (obj)
				j->key = ir_xrealloc(j->key, (j->n + 1) * sizeof *j->key), j->key[j->n] = key;
			j->kid[j->n++] = jvalue(p, depth + 1);
			jws(p);
			if (p->p < p->end && *p->p == ',') {
				p->p++;
				continue;
			}
			if (p->p < p->end && *p->p == close)
				p->p++;
			else
				p->bad = 1;
			break;
		}
	} else if (*p->p == '"') {
		j->kind = J_STR;
		j->str = jstring(p);
	} else if (!strncmp(p->p, "true", 4) || !strncmp(p->p, "false", 5)) {
		j->kind = J_BOOL;
		j->num = *p->p == 't';
		p->p += *p->p == 't' ? 4 : 5;
	} else if (!strncmp(p->p, "null", 4)) {
		p->p += 4;
	} else {
		char *e;
		j->kind = J_NUM;
		j->num = strtod(p->p, &e);
		if (e == p->p)
			p->bad = 1;
		p->p = e;
	}
	return j;
}

static J *
jget(const J *j, const char *key)
{
	if (!j || j->kind != J_OBJ)
		return NULL;
	for (uint32_t i = 0; i < j->n; i++)
		if (!strcmp(j->key[i], key))
			return j->kid[i];
	return NULL;
}

static const char *
jstr(const J *j)
{
	return j && j->kind == J_STR ? j->str : NULL;
}

/* jpos: a position's line or character: a number from 0, or -1 */
static long
jpos(const J *pos, const char *key)
{
	const J *j = jget(pos, key);
	return j && j->kind == J_NUM && j->num >= 0 && j->num < 1e9 ? (long)j->num : -1;
}

/* ---------------------------------------------------------------- JSON out */

static void
qstr(FILE *f, const char *s, size_t n)
{
	fputc('"', f);
	for (size_t i = 0; i < n && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* send: one message, the JSON in body */
static void
send(FILE *out, const char *body, size_t n)
{
	fprintf(out, "Content-Length: %zu\r\n\r\n", n);
	fwrite(body, 1, n, out);
	fflush(out);
}

/* reply: the id of request req, its result as JSON text */
static void
reply(FILE *out, const J *req, const char *result)
{
	char *b = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&b, &n);
	const J *id = jget(req, "id");

	fputs("{\"jsonrpc\":\"2.0\",\"id\":", f);
	if (id && id->kind == J_STR)
		qstr(f, id->str, strlen(id->str));
	else
		fprintf(f, "%.17g", id ? id->num : 0.0);
	fprintf(f, ",\"result\":%s}", result);
	fclose(f);
	send(out, b, n);
	free(b);
}

/* ---------------------------------------------------------------- documents */

typedef struct Doc {
	char *uri, *path, *text;
	size_t len;
} Doc;

typedef struct Server {
	Doc *docs;
	uint32_t ndocs;
	const char *const *incdirs;
	uint32_t ninc;
	FILE *out;
} Server;

/* path: the file a file:// URI names (percent-decoded) */
static char *
uripath(const char *uri)
{
	const char *s = strncmp(uri, "file://", 7) == 0 ? uri + 7 : uri;
	char *p = ir_xmalloc(strlen(s) + 1), *o = p;

	for (; *s; s++) {
		if (*s == '%' && s[1] && s[2]) {
			char hex[3] = { s[1], s[2], 0 };
			*o++ = (char)strtol(hex, NULL, 16);
			s += 2;
		} else {
			*o++ = *s;
		}
	}
	*o = 0;
	return p;
}

static Doc *
doc(Server *sv, const char *uri, int make)
{
	for (uint32_t i = 0; i < sv->ndocs; i++)
		if (!strcmp(sv->docs[i].uri, uri))
			return &sv->docs[i];
	if (!make)
		return NULL;
	sv->docs = ir_xrealloc(sv->docs, (sv->ndocs + 1) * sizeof *sv->docs);
	memset(&sv->docs[sv->ndocs], 0, sizeof *sv->docs);
	sv->docs[sv->ndocs].uri = ir_xmalloc(strlen(uri) + 1);
	strcpy(sv->docs[sv->ndocs].uri, uri);
	sv->docs[sv->ndocs].path = uripath(uri);
	return &sv->docs[sv->ndocs++];
}

/* wordat: the name (letters, digits, _ and .) at line, character of d,
** into w; its start column into *col */
static int
wordat(const Doc *d, long line, long ch, char *w, size_t n, long *col)
{
	const char *s = d->text, *e = d->text + d->len;
	long a, b, len;

	for (long l = 0; l < line && s < e; s++)
		if (*s == '\n')
			l++;
	for (len = 0; s + len < e && s[len] != '\n'; len++)
		;
#define NAMECH(c) (((c) >= 'a' && (c) <= 'z') || ((c) >= 'A' && (c) <= 'Z') || ((c) >= '0' && (c) <= '9') || \
                   (c) == '_' || (c) == '.')
	if (ch > len)
		ch = len;
	for (a = ch; a > 0 && NAMECH(s[a - 1]); a--)
		;
	for (b = ch; b < len && NAMECH(s[b]); b++)
		;
#undef NAMECH
	if (b == a || (size_t)(b - a) >= n)
		return 0;
	memcpy(w, s + a, (size_t)(b - a));
	w[b - a] = 0;
	if (col)
		*col = a;
	return 1;
}

/* check: d checked with graftc's front end; its diagnostics published */
static void
check(Server *sv, Doc *d)
{
	Module *m = ir_module_new();
	Diag dg;
	Rules r;
	char *msgs = NULL, *b = NULL;
	size_t nmsgs = 0, n = 0;
	FILE *mf = open_memstream(&msgs, &nmsgs), *f;
	int first = 1;

	ir_diag_init(&dg, mf, m);
	dsl_rules_init(&r, m, &dg);
	r.declops = 1;
	r.warn = W_ALL;
	r.overtext = d->text;
	r.overlen = d->len;
	for (uint32_t i = 0; i < sv->ninc; i++)
		dsl_include_dir(&r, sv->incdirs[i]);
	dsl_parse(&r, d->path);
	if (r.name)
		dsl_check(&r);
	fclose(mf);
	f = open_memstream(&b, &n);
	fputs("{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/publishDiagnostics\",\"params\":{\"uri\":", f);
	qstr(f, d->uri, strlen(d->uri));
	fputs(",\"diagnostics\":[", f);
	/* the messages' first lines about this file: FILE:LINE:COL: KIND: TEXT */
	for (char *s = msgs; s && *s;) {
		char *nl = strchr(s, '\n'), *p;
		size_t plen = strlen(d->path);
		unsigned long line, col;
		if (nl)
			*nl = 0;
		if (!strncmp(s, d->path, plen) && s[plen] == ':' &&
		    (line = strtoul(s + plen + 1, &p, 10)) && *p == ':' && (col = strtoul(p + 1, &p, 10)) && *p == ':') {
			int sev = !strncmp(p, ": error: ", 9) ? 1 : !strncmp(p, ": warning: ", 11) ? 2 :
			          !strncmp(p, ": note: ", 8) ? 3 : 0;
			const char *msg = sev == 1 ? p + 9 : sev == 2 ? p + 11 : p + 8;
			char w[256];
			long start = (long)col - 1, wc = start;
			size_t wl = wordat(d, (long)line - 1, start, w, sizeof w, &wc) && wc == start ? strlen(w) : 1;
			if (sev) {
				fprintf(f, "%s{\"range\":{\"start\":{\"line\":%lu,\"character\":%ld},\"end\":{\"line\":%lu,"
				        "\"character\":%ld}},\"severity\":%d,\"source\":\"graftc\",\"message\":", first ? "" : ",",
				        line - 1, start, line - 1, start + (long)wl, sev);
				qstr(f, msg, strlen(msg));
				fputc('}', f);
				first = 0;
			}
		}
		s = nl ? nl + 1 : NULL;
	}
	fputs("]}}", f);
	fclose(f);
	send(sv->out, b, n);
	free(b);
	free(msgs);
	dsl_rules_free(&r);
	ir_diag_free(&dg);
	ir_module_free(m);
}

/* ---------------------------------------------------------------- requests */

static const struct { const char *name, *doc; } builtins[] = {
	{ "dtype", "dtype(x): the dtype of x's type, as a string (\"int8\")" },
	{ "rank", "rank(x): the number of dimensions of x" },
	{ "shape", "shape(x): x's dimensions, a list; shape(x)[i] one of them" },
	{ "numel", "numel(x): the number of elements of x" },
	{ "value", "value(c): the value of a scalar constant c (the guard is false otherwise)" },
	{ "splat", "splat(c): the value every element of constant c has (the guard is false if they differ)" },
	{ "is_const", "is_const(x): whether x is a constant" },
	{ "is_scalar", "is_scalar(x): whether x has one element" },
	{ "is_splat", "is_splat(x): whether x is a constant whose elements all have one value" },
	{ "present", "present(k): whether the optional node bound to k is there" },
	{ "len", "len(xs): the number of fields a rest binds" },
	{ "uses", "uses(x): how many operands refer to x" },
	{ "floor", "floor(E): E rounded down, as a float" },
	{ "log2", "log2(E): base-2 logarithm, as a float" },
	{ "exp2", "exp2(E): 2 to the power E, as a float" },
	{ "dominates", "dominates(P, Q, C): a node matching C whose operands all lead up, through nodes matching "
	  "the path Q, to one node matching the parent P, which C post-dominates" },
};

static const char *const keywords[] = { "ruleset", "target", "include", "pattern", "extern", "pred", "action",
	"op", "rule", "once", "priority", "within", "finite", "composite", "supports", "if", "const", "var", "fold_const", "attrs", "True",
	"False", "None" };

static const char *const atnames[] = { "", "int", "float", "bool", "str", "dtype", "ints", "ints2",
	"int_or_ints", "floats" };

/* opdoc: op's signature as Markdown onto f */
static void
opdoc(FILE *f, OpId op)
{
	const OpInfo *o = &ir_ops[op];

	fprintf(f, "**%s**: %d operand%s%s", o->name, o->nargs, o->nargs == 1 ? "" : "s",
	        o->flags & OPF_COMM ? ", commutative" : "");
	if (o->nattrs)
		fputs("\n\nattributes:", f);
	for (int i = 0; i < o->nattrs; i++)
		fprintf(f, "\n- `%s: %s%s = %s`", o->attrs[i].name, atnames[AT_TYPE(o->attrs[i].type) & 0xff],
		        o->attrs[i].type & AT_OPT ? "?" : "", o->attrs[i].deflt ? o->attrs[i].deflt : "(required)");
}

static void
hover(Server *sv, const J *req)
{
	const J *pr = jget(req, "params"), *pos = jget(pr, "position");
	Doc *d = doc(sv, jstr(jget(jget(pr, "textDocument"), "uri")) ? jstr(jget(jget(pr, "textDocument"), "uri")) : "", 0);
	char w[256], *md = NULL, *b = NULL;
	size_t nmd = 0, n = 0;
	FILE *f;
	OpId op;
	int any = 0;

	if (!d || jpos(pos, "line") < 0 || jpos(pos, "character") < 0 ||
	    !wordat(d, jpos(pos, "line"), jpos(pos, "character"), w, sizeof w, NULL)) {
		reply(sv->out, req, "null");
		return;
	}
	f = open_memstream(&md, &nmd);
	if ((op = ir_op_lookup(w, strlen(w)))) {
		opdoc(f, op);
		any = 1;
	}
	for (size_t i = 0; i < sizeof builtins / sizeof *builtins && !any; i++)
		if (!strcmp(builtins[i].name, w)) {
			fputs(builtins[i].doc, f);
			any = 1;
		}
	fclose(f);
	if (!any) {
		free(md);
		reply(sv->out, req, "null");
		return;
	}
	f = open_memstream(&b, &n);
	fputs("{\"contents\":{\"kind\":\"markdown\",\"value\":", f);
	qstr(f, md, nmd);
	fputs("}}", f);
	fclose(f);
	reply(sv->out, req, b);
	free(md);
	free(b);
}

/* definition: a named pattern's definition in the document, or the file an
** include names */
static void
definition(Server *sv, const J *req)
{
	const J *pr = jget(req, "params"), *pos = jget(pr, "position");
	const char *uri = jstr(jget(jget(pr, "textDocument"), "uri"));
	Doc *d = uri ? doc(sv, uri, 0) : NULL;
	char w[256], *b = NULL, pat[300];
	size_t n = 0;
	long line = 0;
	FILE *f;

	if (!d || jpos(pos, "line") < 0 || jpos(pos, "character") < 0 ||
	    !wordat(d, jpos(pos, "line"), jpos(pos, "character"), w, sizeof w, NULL)) {
		reply(sv->out, req, "null");
		return;
	}
	snprintf(pat, sizeof pat, "pattern %s(", w);
	for (const char *s = d->text, *e = d->text + d->len; s < e; line++) {
		const char *nl = memchr(s, '\n', (size_t)(e - s)), *t = s;
		while (t < (nl ? nl : e) && (*t == ' ' || *t == '\t'))
			t++;
		if ((size_t)((nl ? nl : e) - t) >= strlen(pat) && !strncmp(t, pat, strlen(pat))) {
			f = open_memstream(&b, &n);
			fputs("{\"uri\":", f);
			qstr(f, d->uri, strlen(d->uri));
			fprintf(f, ",\"range\":{\"start\":{\"line\":%ld,\"character\":%ld},\"end\":{\"line\":%ld,\"character\":%ld}}}",
			        line, (long)(t - s) + 8, line, (long)(t - s) + 8 + (long)strlen(w));
			fclose(f);
			reply(sv->out, req, b);
			free(b);
			return;
		}
		if (!nl)
			break;
		s = nl + 1;
	}
	/* include "FILE": the file, beside the document */
	{
		char inc[600];
		const char *slash = strrchr(d->path, '/');
		snprintf(inc, sizeof inc, "include \"%s\"", w);
		if (strstr(d->text, inc)) {
			char path[4096];
			snprintf(path, sizeof path, "%.*s%s", slash ? (int)(slash - d->path + 1) : 0, d->path, w);
			f = open_memstream(&b, &n);
			fputs("{\"uri\":", f);
			{
				char u[4200];
				snprintf(u, sizeof u, "file://%s", path);
				qstr(f, u, strlen(u));
			}
			fputs(",\"range\":{\"start\":{\"line\":0,\"character\":0},\"end\":{\"line\":0,\"character\":0}}}", f);
			fclose(f);
			reply(sv->out, req, b);
			free(b);
			return;
		}
	}
	reply(sv->out, req, "null");
}

/* callop: the op whose parentheses hold line, character of d, or 0 */
static OpId
callop(const Doc *d, long line, long ch)
{
	const char *s = d->text, *at;
	int depth = 0;

	for (long l = 0; l < line && *s; s++)
		if (*s == '\n')
			l++;
	at = s + ch < d->text + d->len ? s + ch : d->text + d->len;
	for (const char *p = at; p > d->text;) {
		p--;
		if (*p == ')')
			depth++;
		else if (*p == '(' && depth-- == 0) {
			const char *e = p, *b = p;
			while (b > d->text && (((b[-1] | 32) >= 'a' && (b[-1] | 32) <= 'z') || (b[-1] >= '0' && b[-1] <= '9') ||
			                      b[-1] == '_' || b[-1] == '.'))
				b--;
			return ir_op_lookup(b, (size_t)(e - b));
		}
	}
	return OP_NONE;
}

static void
item(FILE *f, int *first, const char *label, int kind, const char *detail)
{
	fprintf(f, "%s{\"label\":", *first ? "" : ",");
	qstr(f, label, strlen(label));
	fprintf(f, ",\"kind\":%d", kind);
	if (detail) {
		fputs(",\"detail\":", f);
		qstr(f, detail, strlen(detail));
	}
	fputc('}', f);
	*first = 0;
}

static void
completion(Server *sv, const J *req)
{
	const J *pr = jget(req, "params"), *pos = jget(pr, "position");
	const char *uri = jstr(jget(jget(pr, "textDocument"), "uri"));
	Doc *d = uri ? doc(sv, uri, 0) : NULL;
	char *b = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&b, &n);
	int first = 1;
	OpId op = d && jpos(pos, "line") >= 0 && jpos(pos, "character") >= 0 ?
	          callop(d, jpos(pos, "line"), jpos(pos, "character")) : OP_NONE;

	fputs("{\"isIncomplete\":false,\"items\":[", f);
	/* inside op(...): its attributes first (kind 5, field) */
	for (int i = 0; op && i < ir_ops[op].nattrs; i++) {
		char label[128];
		snprintf(label, sizeof label, "%s=", ir_ops[op].attrs[i].name);
		item(f, &first, label, 5, atnames[AT_TYPE(ir_ops[op].attrs[i].type) & 0xff]);
	}
	for (OpId k = 1; k < ir_op_count(); k++)
		item(f, &first, ir_ops[k].name, 3, "op");
	for (size_t k = 0; k < sizeof keywords / sizeof *keywords; k++)
		item(f, &first, keywords[k], 14, NULL);
	for (size_t k = 0; k < sizeof builtins / sizeof *builtins; k++)
		item(f, &first, builtins[k].name, 3, builtins[k].doc);
	fputs("]}", f);
	fclose(f);
	reply(sv->out, req, b);
	free(b);
}

/* ---------------------------------------------------------------- the loop */

/* message: the next message's body from in, malloc'ed; NULL at the end */
static char *
message(FILE *in, size_t *len)
{
	char line[512];
	size_t n = 0;
	char *body;

	for (;;) {
		if (!fgets(line, sizeof line, in))
			return NULL;
		if (!strncmp(line, "Content-Length:", 15))
			n = strtoul(line + 15, NULL, 10);
		else if (!strcmp(line, "\r\n") || !strcmp(line, "\n"))
			break;
	}
	if (n > ((size_t)1 << 28))
		return NULL;
	body = ir_xmalloc(n + 1);
	if (fread(body, 1, n, in) != n) {
		free(body);
		return NULL;
	}
	body[n] = 0;
	*len = n;
	return body;
}

int
dsl_lsp(FILE *in, FILE *out, const char *const *incdirs, uint32_t ninc)
{
	Server sv;
	char *body;
	size_t len;
	int shutdown = 0;

	memset(&sv, 0, sizeof sv);
	sv.out = out;
	sv.incdirs = incdirs;
	sv.ninc = ninc;
	while ((body = message(in, &len))) {
		JP p = { body, body + len, 0 };
		J *req = jvalue(&p, 0);
		const char *method = jstr(jget(req, "method"));
		const J *pr = jget(req, "params"), *td = jget(pr, "textDocument");
		free(body);
		if (p.bad || !method) {
			jfree(req);
			continue;
		}
		if (!strcmp(method, "initialize")) {
			reply(out, req, "{\"capabilities\":{\"textDocumentSync\":1,\"hoverProvider\":true,\"definitionProvider\":"
			      "true,\"completionProvider\":{\"triggerCharacters\":[\"(\",\",\",\".\"]}},\"serverInfo\":"
			      "{\"name\":\"graftc lsp\"}}");
		} else if (!strcmp(method, "shutdown")) {
			shutdown = 1;
			reply(out, req, "null");
		} else if (!strcmp(method, "exit")) {
			jfree(req);
			break;
		} else if (!strcmp(method, "textDocument/didOpen") || !strcmp(method, "textDocument/didChange")) {
			const char *uri = jstr(jget(td, "uri")), *text = jstr(jget(td, "text"));
			const J *ch = jget(pr, "contentChanges");
			if (!text && ch && ch->kind == J_ARR && ch->n)
				text = jstr(jget(ch->kid[ch->n - 1], "text"));
			if (uri && text) {
				Doc *d = doc(&sv, uri, 1);
				free(d->text);
				d->len = strlen(text);
				d->text = ir_xmalloc(d->len + 1);
				memcpy(d->text, text, d->len + 1);
				check(&sv, d);
			}
		} else if (!strcmp(method, "textDocument/hover")) {
			hover(&sv, req);
		} else if (!strcmp(method, "textDocument/definition")) {
			definition(&sv, req);
		} else if (!strcmp(method, "textDocument/completion")) {
			completion(&sv, req);
		} else if (jget(req, "id")) {
			/* a request this server does not answer */
			char *b = NULL;
			size_t n = 0;
			FILE *f = open_memstream(&b, &n);
			const J *id = jget(req, "id");
			fputs("{\"jsonrpc\":\"2.0\",\"id\":", f);
			if (id->kind == J_STR)
				qstr(f, id->str, strlen(id->str));
			else
				fprintf(f, "%.17g", id->num);
			fputs(",\"error\":{\"code\":-32601,\"message\":\"method not found\"}}", f);
			fclose(f);
			send(out, b, n);
			free(b);
		}
		jfree(req);
	}
	for (uint32_t i = 0; i < sv.ndocs; i++) {
		free(sv.docs[i].uri);
		free(sv.docs[i].path);
		free(sv.docs[i].text);
	}
	free(sv.docs);
	return shutdown ? 0 : 1;
}
