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

/* quote: print the line `line` of the file's text and a caret at `col` */
static void
quote(Diag *d, Loc loc)
{
	const char *s, *end, *p;
	uint32_t l = 1;

	if (loc.file >= d->nsrcs || !d->srcs[loc.file] || !loc.line)
		return;
	s = d->srcs[loc.file];
	end = s + d->srclens[loc.file];
	if (d->lfile != loc.file || !d->nlines) {
		d->lfile = loc.file;
		d->nlines = 1;
		ir_vgrow(&d->lines, &d->caplines, 1);
		d->lines[0] = 0;
	}
	/* extend the index from its last line up to loc.line */
	l = d->nlines;
	for (p = s + d->lines[l - 1]; p < end && l < loc.line; p++)
		if (*p == '\n') {
			ir_vgrow(&d->lines, &d->caplines, l + 1);
			d->lines[l++] = (size_t)(p + 1 - s);
		}
	d->nlines = l;
	if (l < loc.line)
		return;
	p = s + d->lines[loc.line - 1];
	fputc(' ', d->out);
	for (s = p; p < end && *p != '\n'; p++)
		fputc(*p == '\t' ? ' ' : (*p == '\r' ? ' ' : *p), d->out);
	fputc('\n', d->out);
	fputc(' ', d->out);
	/* the caret goes under column col (1-based, in bytes) */
	for (uint32_t c = 1; c < loc.col && s + c - 1 < p; c++)
		fputc(' ', d->out);
	fputs("^\n", d->out);
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
