/*
** text.h: TVM Relay text format, parser and printer.
**
** The parser (grammar/relay.y, lexer text/relay_lex.re) reads a module as
** printed by TVM (`def @main(...) { ... }`, graph bindings `%N = ...;`,
** `fn (...) { ... }` literals with attributes, `meta[relay.Constant][N]`,
** and `ty=` annotation comments) into a Module.  The printer writes it
** back in TVM's layout, deterministically.
*/
#ifndef GRAFT_TEXT_H
#define GRAFT_TEXT_H

#include "ir.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Parses text (len bytes; it need not be NUL-terminated) named `file` into
** m, reporting errors through d.  Returns the number of errors.  The text
** must stay alive as long as d quotes from it. */
int ir_parse(Module *m, Diag *d, const char *file, const char *text, size_t len);
/* As ir_parse, but text[len] is NUL and text lives as long as m (as from
** ir_read_file_in(&m->data, ...)): it is read in place, not copied. */
int ir_parse_in_place(Module *m, Diag *d, const char *file, const char *text, size_t len);

typedef struct PrintOpts {
	unsigned show_types : 1;    /* print ty= annotation comments */
} PrintOpts;

/* The constants printed as meta[relay.Constant][k], in k order. */
typedef struct MetaList {
	NodeId *consts;
	uint32_t n, cap;
} MetaList;

/* Prints m to f.  Fills meta (if not NULL) with the constants printed as
** meta references, so that a caller can save their data. */
void ir_print(FILE *f, Module *m, const PrintOpts *o, MetaList *meta);
void ir_metalist_free(MetaList *l);

/* Formats a floating-point value with the fewest digits that read back as
** the same value of the given dtype (DT_FLOAT16/32/64). */
void ir_fmt_float(char *buf, size_t size, double v, DType dt);

/* Prints one attribute value in Relay syntax. */
void ir_attr_print(FILE *f, const Module *m, const AttrVal *v);

#ifdef __cplusplus
}
#endif

#endif
