/*
** dot.c: the Graphviz picture of a module (dot.h).
**
** Nodes are named n<NodeId>, so the picture is deterministic.  A call of
** a function (a partition or a composite) is not drawn: each parameter of
** the callee stands for the call's argument, and the call for the callee's
** body, so edges join the ops that compute and use each value.
*/
#include <stdlib.h>
#include <string.h>

#include "dot.h"

/* Fill colours of targets, in the order their partitions first appear. */
static const char *const palette[] = {
	"#9ecae1", "#fdae6b", "#a1d99b", "#fc9272", "#bcbddc", "#fdd0a2", "#c7e9c0", "#d9d9d9",
};
enum { NPALETTE = sizeof palette / sizeof palette[0] };

typedef struct Dot {
	FILE *f;
	const Module *m;
	NodeId *alias;          /* a parameter -> the argument it stands for */
	uint8_t *drawn;
	const char *targets[64];    /* names, in the module (not changed while drawing) */
	uint32_t ntargets;
} Dot;

/* strattr: string attribute key of function literal fn, or NULL */
static const char *
strattr(const Module *m, NodeId fn, const char *key)
{
	const AttrVal *v = ir_func_attr(m, fn, key);
	return v && v->kind == AV_STR ? ir_symstr(m, v->u.s) : NULL;
}

/* callee: the function literal a call runs, or 0 */
static NodeId
callee(const Module *m, NodeId call)
{
	NodeId c = ir_arg(m, call, 0);
	if (m->nodes[c].kind == NK_GLOBAL)
		return ir_global_find(m, m->nodes[c].aux);
	return m->nodes[c].kind == NK_FUNC ? c : 0;
}

/* resolve: the drawn node that computes value n, or 0 (a constant) */
static NodeId
resolve(const Dot *g, NodeId n)
{
	const Module *m = g->m;
	for (;;) {
		const Node *x = &m->nodes[n];
		if (x->kind == NK_VAR && g->alias[n]) {
			n = g->alias[n];
		} else if (x->kind == NK_CALLFN && callee(m, n)) {
			n = ir_func_body(m, callee(m, n));
		} else if (x->kind == NK_GETITEM && m->nodes[ir_arg(m, n, 0)].kind == NK_CALLFN &&
		           callee(m, ir_arg(m, n, 0))) {
			NodeId body = ir_func_body(m, callee(m, ir_arg(m, n, 0)));
			if (m->nodes[body].kind != NK_TUPLE)
				return n;
			n = ir_arg(m, body, x->aux);
		} else {
			return x->kind == NK_CONST || x->kind == NK_FUNC || x->kind == NK_GLOBAL ? 0 : n;
		}
	}
}

static const char *
color(Dot *g, const char *target)
{
	uint32_t i;
	for (i = 0; i < g->ntargets && strcmp(g->targets[i], target) != 0; i++)
		;
	if (i == g->ntargets && g->ntargets < 64)
		g->targets[g->ntargets++] = target;
	return palette[i % NPALETTE];
}

static void graph(Dot *g, NodeId body, int depth);

/* node: draw n (and, for a call of a function, the function) */
static void
node(Dot *g, NodeId n, int depth)
{
	const Module *m = g->m;
	const Node *x = &m->nodes[n];
	FILE *f = g->f;
	NodeId fn;

	if (g->drawn[n])
		return;
	g->drawn[n] = 1;
	switch (x->kind) {
	case NK_VAR:
		if (!g->alias[n])
			fprintf(f, "%*sn%u [shape=ellipse, label=\"%%%s\"];\n", depth, "", n, ir_symstr(m, x->aux));
		return;
	case NK_CALL:
		fprintf(f, "%*sn%u [label=\"%s\"];\n", depth, "", n, ir_ops[x->op].name);
		break;
	case NK_TUPLE:
		fprintf(f, "%*sn%u [shape=point, label=\"\"];\n", depth, "", n);
		break;
	case NK_GETITEM:
		if (resolve(g, n) != n)
			return;
		fprintf(f, "%*sn%u [shape=plaintext, label=\".%u\"];\n", depth, "", n, x->aux);
		break;
	case NK_CALLFN:
		if (!(fn = callee(m, n))) {
			fprintf(f, "%*sn%u [label=\"call\"];\n", depth, "", n);
			break;
		}
		for (uint32_t i = 1; i < x->nargs && i - 1 < ir_func_nparams(m, fn); i++)
			g->alias[ir_arg(m, fn, i - 1)] = ir_arg(m, n, i);
		{
			const char *comp = strattr(m, fn, "Composite"), *compiler = strattr(m, fn, "Compiler");
			const char *sym = strattr(m, fn, "global_symbol");
			fprintf(f, "%*ssubgraph cluster_n%u {\n", depth, "", n);
			if (compiler)
				fprintf(f, "%*s  label=\"%s\"; style=filled; color=\"%s\";\n", depth, "",
				        sym ? sym : compiler, color(g, compiler));
			else
				fprintf(f, "%*s  label=\"%s\"; style=\"rounded,bold\"; color=black;\n", depth, "",
				        comp ? comp : "fn");
			/* a tuple that only returns a partition's outputs is not drawn */
			if (compiler && m->nodes[ir_func_body(m, fn)].kind == NK_TUPLE) {
				NodeId t = ir_func_body(m, fn);
				g->drawn[t] = 1;
				for (uint32_t i = 0; i < m->nodes[t].nargs; i++)
					graph(g, ir_arg(m, t, i), depth + 2);
			} else {
				graph(g, ir_func_body(m, fn), depth + 2);
			}
			fprintf(f, "%*s}\n", depth, "");
		}
		return;
	default:
		return;
	}
	/* the edges into n */
	for (uint32_t i = 0; i < x->nargs; i++) {
		NodeId a = resolve(g, ir_arg(m, n, i));
		if (a)
			fprintf(f, "%*sn%u -> n%u;\n", depth, "", a, n);
	}
}

/* graph: draw the graph of body, operands first */
static void
graph(Dot *g, NodeId body, int depth)
{
	const Module *m = g->m;
	NodeId *st = NULL;
	uint32_t *idx = NULL, n = 0, cap = 0;
	uint8_t *seen = ir_xcalloc(m->nnodes, 1);

	ir_vgrow(&st, &cap, 1);
	idx = ir_xrealloc(idx, cap * sizeof *idx);
	st[0] = body;
	idx[0] = 0;
	n = 1;
	seen[body] = 1;
	while (n) {
		NodeId x = st[n - 1];
		uint32_t i = idx[n - 1];
		if (m->nodes[x].kind != NK_FUNC && i < m->nodes[x].nargs) {
			NodeId a = ir_arg(m, x, i);
			idx[n - 1] = i + 1;
			if (a && !seen[a] && m->nodes[a].kind != NK_CONST) {
				seen[a] = 1;
				ir_vgrow(&st, &cap, n + 1);
				idx = ir_xrealloc(idx, cap * sizeof *idx);
				st[n] = a;
				idx[n++] = 0;
			}
			continue;
		}
		n--;
		node(g, x, depth);
	}
	free(seen);
	free(st);
	free(idx);
}

void
ir_print_dot(FILE *f, const Module *m)
{
	Dot g;

	memset(&g, 0, sizeof g);
	g.f = f;
	g.m = m;
	g.alias = ir_xcalloc(m->nnodes + 1, sizeof *g.alias);
	g.drawn = ir_xcalloc(m->nnodes + 1, 1);
	fprintf(f, "digraph graft {\n");
	fprintf(f, "  node [shape=box, style=filled, fillcolor=white, fontname=\"Helvetica\"];\n");
	fprintf(f, "  compound=true; rankdir=TB;\n");
	for (uint32_t i = 0; i < m->nglobals; i++) {
		NodeId fn = m->globals[i].fn, out;
		if (ir_func_attr(m, fn, "Compiler"))
			continue;
		fprintf(f, "  subgraph cluster_%s {\n    label=\"@%s\"; style=dashed;\n", ir_symstr(m, m->globals[i].name),
		        ir_symstr(m, m->globals[i].name));
		graph(&g, ir_func_body(m, fn), 4);
		out = resolve(&g, ir_func_body(m, fn));
		fprintf(f, "    %s_out [shape=plaintext, style=\"\", label=\"output\"];\n", ir_symstr(m, m->globals[i].name));
		if (out)
			fprintf(f, "    n%u -> %s_out;\n", out, ir_symstr(m, m->globals[i].name));
		fprintf(f, "  }\n");
	}
	fprintf(f, "}\n");
	free(g.alias);
	free(g.drawn);
}
