/*
** diag.c: diagnostics in one format everywhere:
**
**   file:line:col: error: message
**    source line
**         ^
**
** Errors and warnings are counted; callers keep going after a user error.
*/
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"

void
ir_diag_init(Diag *d, FILE *out, const Module *m)
{
	memset(d, 0, sizeof *d);
	d->out = out;
	d->m = m;
}

void
ir_diag_free(Diag *d)
{
	free(d->srcs);
	free(d->srclens);
	free(d->lines);
	d->lines = NULL;
	d->nlines = d->caplines = 0;
	d->srcs = NULL;
	d->srclens = NULL;
	d->nsrcs = 0;
}

void
ir_diag_source(Diag *d, uint16_t file, const char *text, size_t len)
{
	if (file >= d->nsrcs) {
		uint32_t n = file + 1u;
		d->srcs = ir_xrealloc(d->srcs, n * sizeof *d->srcs);
		d->srclens = ir_xrealloc(d->srclens, n * sizeof *d->srclens);
		for (uint32_t i = d->nsrcs; i < n; i++) {
			d->srcs[i] = NULL;
			d->srclens[i] = 0;
		}
		d->nsrcs = n;
	}
	d->srcs[file] = text;
	d->srclens[file] = len;
	if (d->lfile == file)
		d->nlines = 0;      /* the index was of the old text */
}

enum { QUOTE_MAX = 200 };   /* longer lines are quoted around the caret */

/* quote: print the line `line` of the file's text and a caret at `col`.
** Lines are found through an index built as far as needed (Diag.lines),
** and a line longer than QUOTE_MAX bytes is quoted as a window of that
** width around the caret, marked "...": the cost of a message does not
** grow with the file or the line. */
static void
quote(Diag *d, Loc loc)
{
	const char *s, *end, *p, *ls, *le;
	size_t len, start = 0, width, caret;
	uint32_t l;

	if (loc.file >= d->nsrcs || !d->srcs[loc.file] || !loc.line)
		return;
	s = d->srcs[loc.file];
	end = s + d->srclens[loc.file];
	if (d->lfile != loc.file || !d->nlines) {
		d->lfile = loc.file;
		d->nlines = 1;
		d->lscan = 0;
		ir_vgrow(&d->lines, &d->caplines, 1);
		d->lines[0] = 0;
	}
	/* extend the index through the start of the line after loc.line */
	l = d->nlines;
	for (p = s + d->lscan; p < end && l <= loc.line; p++)
		if (*p == '\n') {
			ir_vgrow(&d->lines, &d->caplines, l + 1);
			d->lines[l++] = (size_t)(p + 1 - s);
		}
	d->nlines = l;
	d->lscan = (size_t)(p - s);
	if (l < loc.line)
		return;
	ls = s + d->lines[loc.line - 1];
	le = l > loc.line ? s + d->lines[loc.line] - 1 : end;
	len = (size_t)(le - ls);
	/* the caret goes under column col (1-based, in bytes), at most just
	** past the end of the line */
	caret = loc.col ? loc.col - 1u : 0;
	if (caret > len)
		caret = len;
	width = len;
	if (len > QUOTE_MAX) {
		width = QUOTE_MAX;
		start = caret > QUOTE_MAX / 2 ? caret - QUOTE_MAX / 2 : 0;
		if (start > len - width)
			start = len - width;
	}
	/* built in a buffer and written at once: stderr is unbuffered */
	{
		char buf[2 * QUOTE_MAX + 32];
		size_t k = 0;
		buf[k++] = ' ';
		if (start) {
			memcpy(buf + k, "...", 3);
			k += 3;
		}
		/* one byte out per byte in, so the caret stays aligned; control
		** bytes (a NUL, an escape) must not reach the terminal */
		for (p = ls + start; p < ls + start + width; p++) {
			unsigned char c = (unsigned char)*p;
			buf[k++] = c == '\t' || c == '\r' ? ' ' : c < 0x20 || c == 0x7f ? '?' : (char)c;
		}
		if (start + width < len) {
			memcpy(buf + k, "...", 3);
			k += 3;
		}
		buf[k++] = '\n';
		buf[k++] = ' ';
		for (size_t c = (start ? 3 : 0) + caret - start; c > 0; c--)
			buf[k++] = ' ';
		buf[k++] = '^';
		buf[k++] = '\n';
		fwrite(buf, 1, k, d->out);
	}
}

static void
report(Diag *d, Loc loc, const char *what, const char *fmt, va_list ap)
{
	if (!d->out)
		return;
	if (loc.file && d->m && loc.file < d->m->nfiles && loc.line)
		fprintf(d->out, "%s:%u:%u: %s: ", d->m->files[loc.file], loc.line, loc.col, what);
	else if (loc.file && d->m && loc.file < d->m->nfiles)
		fprintf(d->out, "%s: %s: ", d->m->files[loc.file], what);   /* a whole file */
	else
		fprintf(d->out, "%s: %s: ", d->prog ? d->prog : "graft", what);
	vfprintf(d->out, fmt, ap);
	fputc('\n', d->out);
	quote(d, loc);
}

void
ir_error_file(Diag *d, const char *path, const char *msg)
{
	size_t n = strlen(path);

	if (strncmp(msg, path, n) == 0 && strncmp(msg + n, ": error: ", 9) == 0)
		msg += n + 9;
	if (d->out)
		fprintf(d->out, "%s: error: %s\n", path, msg);
	d->errors++;
}

void
ir_error(Diag *d, Loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report(d, loc, "error", fmt, ap);
	va_end(ap);
	d->errors++;
}

void
ir_warning(Diag *d, Loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report(d, loc, "warning", fmt, ap);
	va_end(ap);
	d->warnings++;
}

void
ir_note(Diag *d, Loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report(d, loc, "note", fmt, ap);
	va_end(ap);
}

TypeId
ir_rel_error(Diag *d, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(d->relmsg, sizeof d->relmsg, fmt, ap);
	va_end(ap);
	return 0;
}
