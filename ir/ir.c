/*
** ir.c: the module store.  Memory helpers, interned strings and types,
** node construction and def-use lists.
**
** Invariants kept here:
**  - handle 0 of every table is a reserved "none" entry;
**  - types are hash-consed, so TypeId equality is structural equality;
**  - every operand slot is on exactly one use list, the one of its value.
*/
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE         /* madvise */
#endif
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "ir.h"

/* ---------------------------------------------------------------- memory */

_Noreturn void
ir_die(const char *fmt, ...)
{
	va_list ap;
	fputs("graft: internal error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

/* bigtable: asks for huge pages behind a table of n bytes at p, when it is
** big enough to get some.  A graph of a million nodes has tables of tens
** of megabytes; with 4 KiB pages, faulting them in and missing the TLB on
** them costs more per node than on a small graph.  Advice only: nothing
** changes if the kernel says no. */
static void
bigtable(void *p, size_t n)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
	enum { PAGE = 4096, HUGE = 2u << 20 };
	uintptr_t a = ((uintptr_t)p + PAGE - 1) & ~(uintptr_t)(PAGE - 1);
	uintptr_t e = ((uintptr_t)p + n) & ~(uintptr_t)(PAGE - 1);

	if (n >= 2 * (size_t)HUGE && e > a)
		(void)madvise((void *)a, e - a, MADV_HUGEPAGE);
#else
	(void)p;
	(void)n;
#endif
}

void *
ir_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		ir_die("out of memory (%zu bytes)", n);
	bigtable(p, n);
	return p;
}

void *
ir_xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz ? sz : 1);
	if (!p)
		ir_die("out of memory (%zu x %zu bytes)", n, sz);
	bigtable(p, n * sz);
	return p;
}

void *
ir_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		ir_die("out of memory (%zu bytes)", n);
	/* a block that stays where it was keeps its advice (the kernel's is
	   per mapping): only a moved one asks again, so that reallocating a
	   table in place, however often, costs no system call */
	if (q != p)
		bigtable(q, n);
	return q;
}

void
ir_vgrow_(void **p, uint32_t *cap, uint32_t need, size_t esz)
{
	uint64_t c;

	if (need <= *cap)
		return;
	c = *cap ? *cap : 16;
	while (c < need)
		c *= 2;
	if (c > UINT32_MAX)
		ir_die("table overflow");
	*p = ir_xrealloc(*p, (size_t)c * esz);
	*cap = (uint32_t)c;
}

struct ArenaBlock {
	ArenaBlock *next;
	size_t size;
	_Alignas(16) unsigned char mem[];
};

enum { ARENA_BLOCK = 64 * 1024 };

void *
ir_arena_raw(Arena *a, size_t n)
{
	ArenaBlock *b;
	void *p;

	n = (n + 15) & ~(size_t)15;
	if (!a->head || a->used + n > a->head->size) {
		size_t sz = n > ARENA_BLOCK ? n : ARENA_BLOCK;
		b = ir_xmalloc(sizeof *b + sz);
		b->next = a->head;
		b->size = sz;
		a->head = b;
		a->used = 0;
	}
	p = a->head->mem + a->used;
	a->used += n;
	a->total += n;
	return p;
}

void *
ir_arena_alloc(Arena *a, size_t n)
{
	void *p = ir_arena_raw(a, n);
	memset(p, 0, n);
	return p;
}

void
ir_arena_giveback(Arena *a, void *p, size_t n)
{
	n = (n + 15) & ~(size_t)15;
	if (a->head && a->used >= n && (unsigned char *)p == a->head->mem + a->used - n) {
		a->used -= n;
		a->total -= n;
	}
}

char *
ir_arena_strdup(Arena *a, const char *s, size_t n)
{
	char *p = ir_arena_alloc(a, n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

void
ir_arena_free(Arena *a)
{
	ArenaBlock *b, *next;

	for (b = a->head; b; b = next) {
		next = b->next;
		free(b);
	}
	a->head = NULL;
	a->used = a->total = 0;
}

/* ---------------------------------------------------------------- dtypes */

const char *const ir_dtype_names[DT_COUNT] = {
	"",
#define DT(id, name, bytes, kind) name,
	IR_DTYPES(DT)
#undef DT
};

const uint8_t ir_dtype_bytes[DT_COUNT] = {
	0,
#define DT(id, name, bytes, kind) bytes,
	IR_DTYPES(DT)
#undef DT
};

const char ir_dtype_kind[DT_COUNT] = {
	0,
#define DT(id, name, bytes, kind) kind,
	IR_DTYPES(DT)
#undef DT
};

DType
ir_dtype_parse(const char *s, size_t n)
{
	for (int i = 0; i < DT_COUNT; i++)
		if (strlen(ir_dtype_names[i]) == n && memcmp(ir_dtype_names[i], s, n) == 0)
			return (DType)i;
	return DT_COUNT;
}

/* ---------------------------------------------------------------- module */

static uint32_t
hashbytes(uint32_t h, const void *p, size_t n)
{
	const unsigned char *s = p;
	/* FNV-1a */
	for (size_t i = 0; i < n; i++)
		h = (h ^ s[i]) * 16777619u;
	return h;
}

Module *
ir_module_new(void)
{
	Module *m = ir_xcalloc(1, sizeof *m);

	/* entry 0 of each table is "none" */
	ir_vgrow(&m->nodes, &m->capnodes, 1);
	ir_vgrow(&m->firstuse, &m->capfirstuse, 1);
	ir_vgrow(&m->locs, &m->caplocs, 1);
	memset(&m->nodes[0], 0, sizeof m->nodes[0]);
	m->firstuse[0] = 0;
	memset(&m->locs[0], 0, sizeof m->locs[0]);
	m->nnodes = 1;
	ir_vgrow(&m->uses, &m->capuses, 1);
	ir_vgrow(&m->argv, &m->capargv, 1);
	memset(&m->uses[0], 0, sizeof m->uses[0]);
	m->argv[0] = 0;
	m->nuses = 1;
	ir_vgrow(&m->types, &m->captypes, 1);
	memset(&m->types[0], 0, sizeof m->types[0]);
	ir_vgrow(&m->numels, &m->capnumels, 1);
	m->numels[0] = 1;       /* as a tensor type of no dims */
	m->ntypes = 1;
	ir_vgrow(&m->attrs, &m->capattrs, 1);
	memset(&m->attrs[0], 0, sizeof m->attrs[0]);
	m->nattrs = 1;
	ir_vgrow(&m->files, &m->capfiles, 1);
	m->files[0] = "";
	m->nfiles = 1;
	{
		static const char *const fixed[] = {
			"",
#define IR_SYM_STR(s) #s,
			IR_SYMS(IR_SYM_STR)
#undef IR_SYM_STR
		};
		for (Sym i = 0; i < SYM_FIXED; i++)
			if (ir_symz(m, fixed[i]) != i)
				ir_die("ir_module_new: symbol %s is not number %u", fixed[i], i);
	}
	return m;
}

void
ir_module_free(Module *m)
{
	if (!m)
		return;
	free(m->nodes);
	free(m->firstuse);
	free(m->locs);
	free(m->uses);
	free(m->argv);
	free(m->types);
	free(m->numels);
	free(m->dims);
	free(m->tylist);
	free(m->attrs);
	free(m->consts);
	free(m->funcs);
	free(m->globals);
	free(m->globalof);
	free(m->anns);
	free(m->symoff);
	free(m->strbuf);
	free(m->symhash);
	free(m->tyhash);
	free(m->attrtab);
	free(m->relmemo);
	free(m->files);
	for (int i = 0; i < IR_FREE_LISTS; i++)
		free(m->freed[i]);
	free(m->created);
	ir_arena_free(&m->data);
	free(m);
}

uint16_t
ir_file(Module *m, const char *name)
{
	for (uint32_t i = 1; i < m->nfiles; i++)
		if (strcmp(m->files[i], name) == 0)
			return (uint16_t)i;
	if (m->nfiles >= UINT16_MAX)
		ir_die("too many source files");
	ir_vgrow(&m->files, &m->capfiles, m->nfiles + 1);
	m->files[m->nfiles] = ir_arena_strdup(&m->data, name, strlen(name));
	return (uint16_t)m->nfiles++;
}

/* ---------------------------------------------------------------- strings */

static uint32_t
symlen(const Module *m, Sym s)
{
	uint32_t end = s + 1 < m->nsyms ? m->symoff[s + 1] : m->nstr;
	return end - m->symoff[s] - 1;
}

/* symslot: where a symbol of FNV hash h starts probing.  FNV's low bits
** depend only on the low bits of each byte, so names that differ in a
** counter ("FunctionVar_12_0", "FunctionVar_13_0") would crowd together;
** a finishing mix spreads them over the table. */
static uint32_t
symslot(uint32_t h, uint32_t cap)
{
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	return h & (cap - 1);
}

/* symrehash: doubles the symbol table.  Slots keep their hash, so no
** string is read, and walking the old table in order writes the new one
** nearly in order too. */
static void
symrehash(Module *m)
{
	uint32_t old = m->symhashcap, cap = old ? old * 2 : 256;
	SymSlot *from = m->symhash;

	m->symhash = ir_xcalloc(cap, sizeof *m->symhash);
	m->symhashcap = cap;
	for (uint32_t k = 0; k < old; k++) {
		uint32_t i;
		if (!from[k].sym1)
			continue;
		for (i = symslot(from[k].h, cap); m->symhash[i].sym1; i = (i + 1) & (cap - 1))
			;
		m->symhash[i] = from[k];
	}
	free(from);
}

/* symprobe: the slot holding s[0..n) of hash h, or the empty slot where it
** would go.  Slots keep the hash, so a probe reads the strings only on a
** full hash match. */
static uint32_t
symprobe(const Module *m, const char *s, size_t n, uint32_t h)
{
	uint32_t i;

	for (i = symslot(h, m->symhashcap); m->symhash[i].sym1; i = (i + 1) & (m->symhashcap - 1)) {
		Sym t = m->symhash[i].sym1 - 1;
		if (m->symhash[i].h == h && symlen(m, t) == n && memcmp(m->strbuf + m->symoff[t], s, n) == 0)
			break;
	}
	return i;
}

/* symappend: s[0..n) as the next symbol, in the string table only */
static Sym
symappend(Module *m, const char *s, size_t n)
{
	if (n >= UINT32_MAX - m->nstr - 1)
		ir_die("string table overflow");
	ir_vgrow(&m->strbuf, &m->capstr, m->nstr + (uint32_t)n + 1);
	ir_vgrow(&m->symoff, &m->capsyms, m->nsyms + 1);
	if (n)
		memcpy(m->strbuf + m->nstr, s, n);
	m->strbuf[m->nstr + n] = 0;
	m->symoff[m->nsyms] = m->nstr;
	m->nstr += (uint32_t)n + 1;
	return m->nsyms++;
}

Sym
ir_sym(Module *m, const char *s, size_t n)
{
	uint32_t h, i;

	if (2 * (m->nsyms + 1) > m->symhashcap)
		symrehash(m);
	h = hashbytes(IR_SYM_HASH0, s, n);
	i = symprobe(m, s, n, h);
	if (m->symhash[i].sym1)
		return m->symhash[i].sym1 - 1;
	m->symhash[i].sym1 = m->nsyms + 1;
	m->symhash[i].h = h;
	return symappend(m, s, n);
}

Sym
ir_sym_fresh(Module *m, const char *s, size_t n)
{
	return symappend(m, s, n);
}

uint32_t
ir_sym_hash(uint32_t h, const char *s, size_t n)
{
	return hashbytes(h, s, n);
}

int
ir_sym_find(const Module *m, const char *s, size_t n, uint32_t h, Sym *out)
{
	uint32_t i;

	if (!m->symhashcap)
		return 0;
	i = symprobe(m, s, n, h);
	if (!m->symhash[i].sym1)
		return 0;
	*out = m->symhash[i].sym1 - 1;
	return 1;
}

Sym
ir_symz(Module *m, const char *s)
{
	return ir_sym(m, s, strlen(s));
}

const char *
ir_symstr(const Module *m, Sym s)
{
	return m->strbuf + m->symoff[s];
}

/* ---------------------------------------------------------------- types */

static uint32_t
typehash(const Module *m, const Type *t, const void *items, size_t isz)
{
	/* word at a time: the items are int64 dims or 32-bit type ids, so isz
	** is a multiple of 4; a multiply and a shift mix each word in */
	const unsigned char *p = items;
	uint64_t h = ((uint64_t)t->kind << 40 | (uint64_t)t->dtype << 32 | t->n) * 0x9e3779b97f4a7c15ull;

	(void)m;
	for (; isz >= 8; isz -= 8, p += 8) {
		uint64_t x;
		memcpy(&x, p, 8);
		h = (h ^ x) * 0x9e3779b97f4a7c15ull;
		h ^= h >> 29;
	}
	if (isz) {
		uint32_t x;
		memcpy(&x, p, 4);
		h = (h ^ x) * 0x9e3779b97f4a7c15ull;
	}
	return (uint32_t)(h ^ h >> 32);
}

/* typeitems: the items (dims or type ids) of type id and their size in
** bytes.  A type with no items (a scalar, the empty tuple) gets NULL and 0
** without indexing m->dims or m->tylist, which may still be NULL. */
static size_t
typeitems(const Module *m, TypeId id, const void **items)
{
	const Type *u = &m->types[id];
	size_t isz = u->kind == TY_TENSOR ? u->n * sizeof(int64_t)
	                                  : (u->n + (u->kind == TY_FUNC)) * sizeof(TypeId);

	*items = NULL;
	if (isz)
		*items = u->kind == TY_TENSOR ? (const void *)&m->dims[u->first]
		                              : (const void *)&m->tylist[u->first];
	return isz;
}

static int
typesame(const Module *m, TypeId id, const Type *t, const void *items, size_t isz)
{
	const Type *u = &m->types[id];
	const void *uitems;

	if (u->kind != t->kind || u->dtype != t->dtype || u->n != t->n)
		return 0;
	if (typeitems(m, id, &uitems) != isz)
		return 0;
	return isz == 0 || memcmp(uitems, items, isz) == 0;
}

static void
tyrehash(Module *m)
{
	uint32_t cap = m->tyhashcap ? m->tyhashcap * 2 : 256;

	free(m->tyhash);
	m->tyhash = ir_xcalloc(cap, sizeof *m->tyhash);
	m->tyhashcap = cap;
	for (TypeId t = 1; t < m->ntypes; t++) {
		const void *items;
		size_t isz = typeitems(m, t, &items);
		uint32_t i = typehash(m, &m->types[t], items, isz) & (cap - 1);
		while (m->tyhash[i])
			i = (i + 1) & (cap - 1);
		m->tyhash[i] = t;
	}
}

/* intern: find or add the type t whose items (dims or type ids) are given */
/* numel: the element count of a tensor type of the n dims d; -1 if a dim
** is unknown or the count overflows int64 */
static int64_t
numel(const int64_t *d, uint32_t n)
{
	int64_t c = 1;
	int zero = 0, over = 0;

	for (uint32_t i = 0; i < n; i++) {
		if (d[i] < 0)
			return -1;
		zero |= d[i] == 0;
		over |= __builtin_mul_overflow(c, d[i], &c);
	}
	return zero ? 0 : over ? -1 : c;
}

static TypeId
intern(Module *m, Type t, const void *items, size_t isz)
{
	uint32_t h, i, nitems;
	const char *p = items;
	void *own = NULL;
	TypeId id;

	/* items inside the module's own arrays (the dims of another type) move
	   when those grow: intern a copy */
	if (isz && ((m->dims && p >= (const char *)m->dims && p < (const char *)(m->dims + m->capdims)) ||
	            (m->tylist && p >= (const char *)m->tylist && p < (const char *)(m->tylist + m->captylist)))) {
		own = ir_xmalloc(isz);
		memcpy(own, items, isz);
		id = intern(m, t, own, isz);
		free(own);
		return id;
	}

	if (2 * (m->ntypes + 1) > m->tyhashcap)
		tyrehash(m);
	h = typehash(m, &t, items, isz);
	for (i = h & (m->tyhashcap - 1); m->tyhash[i]; i = (i + 1) & (m->tyhashcap - 1))
		if (typesame(m, m->tyhash[i], &t, items, isz))
			return m->tyhash[i];
	if (t.kind == TY_TENSOR) {
		nitems = t.n;
		ir_vgrow(&m->dims, &m->capdims, m->ndims + nitems);
		t.first = m->ndims;
		if (isz)
			memcpy(&m->dims[m->ndims], items, isz);
		m->ndims += nitems;
	} else {
		nitems = (uint32_t)(isz / sizeof(TypeId));
		ir_vgrow(&m->tylist, &m->captylist, m->ntylist + nitems);
		t.first = m->ntylist;
		if (isz)
			memcpy(&m->tylist[m->ntylist], items, isz);
		m->ntylist += nitems;
	}
	ir_vgrow(&m->types, &m->captypes, m->ntypes + 1);
	ir_vgrow(&m->numels, &m->capnumels, m->ntypes + 1);
	m->types[m->ntypes] = t;
	m->numels[m->ntypes] = t.kind != TY_TENSOR ? -1 : t.n ? numel(&m->dims[t.first], t.n) : 1;
	m->tyhash[i] = m->ntypes;
	return m->ntypes++;
}

TypeId
ir_type_tensor(Module *m, DType dt, int rank, const int64_t *dims)
{
	Type t = { TY_TENSOR, (uint8_t)dt, 0, (uint32_t)rank, 0 };
	return intern(m, t, dims, (size_t)rank * sizeof *dims);
}

TypeId
ir_type_scalar(Module *m, DType dt)
{
	return ir_type_tensor(m, dt, 0, NULL);
}

TypeId
ir_type_tuple(Module *m, int n, const TypeId *fields)
{
	Type t = { TY_TUPLE, 0, 0, (uint32_t)n, 0 };
	return intern(m, t, fields, (size_t)n * sizeof *fields);
}

TypeId
ir_type_func(Module *m, int n, const TypeId *params, TypeId ret)
{
	Type t = { TY_FUNC, 0, 0, (uint32_t)n, 0 };
	TypeId buf[64], *items = n + 1 <= 64 ? buf : ir_xmalloc((size_t)(n + 1) * sizeof *items);
	TypeId id;

	if (n)
		memcpy(items, params, (size_t)n * sizeof *items);
	items[n] = ret;
	id = intern(m, t, items, (size_t)(n + 1) * sizeof *items);
	if (items != buf)
		free(items);
	return id;
}

/* ---------------------------------------------------------------- nodes */

/* created: note a new node for whoever tracks them */
static NodeId
created(Module *m, NodeId id)
{
	m->typed = 0;
	if (m->track) {
		ir_vgrow(&m->created, &m->capcreated, m->ncreated + 1);
		m->created[m->ncreated++] = id;
	}
	return id;
}

/* ir_reserve: room for nodes more nodes and uses more operand slots, so
** that building a graph of a known size grows no table on the way (a
** grown table is copied; a reserved one is only touched as it is used) */
void
ir_reserve(Module *m, uint32_t nodes, uint32_t uses)
{
	ir_vgrow(&m->nodes, &m->capnodes, m->nnodes + nodes);
	ir_vgrow(&m->firstuse, &m->capfirstuse, m->nnodes + nodes);
	ir_vgrow(&m->locs, &m->caplocs, m->nnodes + nodes);
	ir_vgrow(&m->uses, &m->capuses, m->nuses + uses);
	ir_vgrow(&m->argv, &m->capargv, m->nuses + uses);
}

static NodeId
newnode(Module *m, NodeKind k, uint32_t nargs, Loc loc)
{
	Node *n;
	NodeId id;

	if (m->reuse && nargs < IR_FREE_LISTS - 1 && k != NK_CONST && m->nfreed[nargs]) {
		/* a killed node with as many operand slots: its slots are unlinked */
		id = m->freed[nargs][--m->nfreed[nargs]];
		n = &m->nodes[id];
		{
			uint32_t args = n->args;
			memset(n, 0, sizeof *n);
			n->args = args;
		}
		n->kind = (uint8_t)k;
		n->nargs = nargs;
		m->firstuse[id] = 0;
		m->locs[id] = loc;
		return created(m, id);
	}
	ir_vgrow(&m->nodes, &m->capnodes, m->nnodes + 1);
	ir_vgrow(&m->firstuse, &m->capfirstuse, m->nnodes + 1);
	ir_vgrow(&m->locs, &m->caplocs, m->nnodes + 1);
	n = &m->nodes[m->nnodes];
	memset(n, 0, sizeof *n);
	n->kind = (uint8_t)k;
	n->nargs = nargs;
	m->firstuse[m->nnodes] = 0;
	m->locs[m->nnodes] = loc;
	if (nargs) {
		ir_vgrow(&m->uses, &m->capuses, m->nuses + nargs);
		ir_vgrow(&m->argv, &m->capargv, m->nuses + nargs);
		n->args = m->nuses;
		memset(&m->uses[m->nuses], 0, nargs * sizeof *m->uses);
		memset(&m->argv[m->nuses], 0, nargs * sizeof *m->argv);
		m->nuses += nargs;
	}
	return created(m, m->nnodes++);
}

static inline void
uselink(Module *m, uint32_t slot, NodeId val)
{
	Use *u = &m->uses[slot];

	m->argv[slot] = val;
	u->prev = 0;
	u->next = val ? m->firstuse[val] : 0;
	if (!val)
		return;
	if (val >= u->user)
		m->unordered = 1;
	if (u->next)
		m->uses[u->next].prev = slot;
	m->firstuse[val] = slot;
}

static inline void
useunlink(Module *m, uint32_t slot)
{
	Use *u = &m->uses[slot];
	NodeId val = m->argv[slot];

	if (!val)
		return;
	if (u->prev)
		m->uses[u->prev].next = u->next;
	else
		m->firstuse[val] = u->next;
	if (u->next)
		m->uses[u->next].prev = u->prev;
	m->argv[slot] = 0;
	u->next = u->prev = 0;
}

static NodeId
withargs(Module *m, NodeKind k, const NodeId *args, uint32_t nargs, Loc loc)
{
	NodeId id = newnode(m, k, nargs, loc);
	uint32_t base = m->nodes[id].args;

	for (uint32_t i = 0; i < nargs; i++) {
		m->uses[base + i].user = id;
		uselink(m, base + i, args[i]);
	}
	return id;
}

NodeId
ir_var(Module *m, Sym name, TypeId type, Loc loc)
{
	NodeId id = newnode(m, NK_VAR, 0, loc);
	m->nodes[id].aux = name;
	m->nodes[id].type = type;
	return id;
}

static NodeId
newconst(Module *m, TypeId type, int32_t meta, Loc loc)
{
	NodeId id;
	Const *c;
	uint32_t ci;

	if (m->reuse && m->nfreed[IR_FREE_LISTS - 1]) {
		/* a killed constant: its node and its Const slot */
		id = m->freed[IR_FREE_LISTS - 1][--m->nfreed[IR_FREE_LISTS - 1]];
		ci = m->nodes[id].aux;
		memset(&m->nodes[id], 0, sizeof m->nodes[id]);
		m->nodes[id].kind = NK_CONST;
		m->firstuse[id] = 0;
		m->locs[id] = loc;
		created(m, id);
	} else {
		id = newnode(m, NK_CONST, 0, loc);
		ir_vgrow(&m->consts, &m->capconsts, m->nconsts + 1);
		ci = m->nconsts++;
	}
	c = &m->consts[ci];
	memset(c, 0, sizeof *c);
	c->type = type;
	c->meta = meta;
	m->nodes[id].aux = ci;
	m->nodes[id].type = type;
	return id;
}

NodeId
ir_const(Module *m, TypeId type, const void *data, Loc loc)
{
	int64_t n = ir_type_numel(m, type);
	size_t nbytes;
	void *p;

	if (n < 0)
		ir_die("constant with unknown shape");
	nbytes = (size_t)n * ir_dtype_bytes[m->types[type].dtype];
	p = ir_arena_raw(&m->data, nbytes);
	if (data && nbytes)
		memcpy(p, data, nbytes);
	else
		memset(p, 0, nbytes);
	return ir_const_own(m, type, p, loc);
}

NodeId
ir_const_own(Module *m, TypeId type, void *data, Loc loc)
{
	NodeId id = newconst(m, type, -1, loc);
	Const *c = ir_node_const(m, id);

	c->nbytes = (size_t)ir_type_numel(m, type) * ir_dtype_bytes[m->types[type].dtype];
	c->data = data;
	return id;
}

NodeId
ir_const_meta(Module *m, TypeId type, int32_t meta, Loc loc)
{
	return newconst(m, type, meta, loc);
}

NodeId
ir_call(Module *m, OpId op, const NodeId *args, uint32_t nargs, AttrId attrs, Loc loc)
{
	NodeId id;

	attrs = ir_attr_intern_op(m, op, attrs, (uint32_t)ir_ops[op].nattrs);
	id = withargs(m, NK_CALL, args, nargs, loc);
	m->nodes[id].op = op;
	m->nodes[id].aux = attrs;
	return id;
}

NodeId
ir_callfn(Module *m, NodeId fn, const NodeId *args, uint32_t nargs, Loc loc)
{
	NodeId buf[16], *all = nargs + 1 <= 16 ? buf : ir_xmalloc((nargs + 1) * sizeof *all);
	NodeId id;

	all[0] = fn;
	if (nargs)
		memcpy(all + 1, args, nargs * sizeof *all);
	id = withargs(m, NK_CALLFN, all, nargs + 1, loc);
	if (all != buf)
		free(all);
	return id;
}

NodeId
ir_callfn_attrs(Module *m, NodeId fn, const NodeId *args, uint32_t nargs, AttrId attrs, uint32_t nattrs, Loc loc)
{
	NodeId id = ir_callfn(m, fn, args, nargs, loc);

	if (id && nattrs) {
		ir_vgrow(&m->funcs, &m->capfuncs, m->nfuncs + 1);
		m->funcs[m->nfuncs] = (Func){ 0, nattrs, attrs };
		m->nodes[id].aux = ++m->nfuncs;
	}
	return id;
}

NodeId
ir_tuple(Module *m, const NodeId *fields, uint32_t n, Loc loc)
{
	return withargs(m, NK_TUPLE, fields, n, loc);
}

NodeId
ir_getitem(Module *m, NodeId tuple, uint32_t index, Loc loc)
{
	NodeId id = withargs(m, NK_GETITEM, &tuple, 1, loc);
	m->nodes[id].aux = index;
	return id;
}

NodeId
ir_func(Module *m, const NodeId *params, uint32_t nparams, NodeId body,
        TypeId ret, AttrId attrs, uint32_t nattrs, Loc loc)
{
	NodeId buf[16], *all = nparams + 1 <= 16 ? buf : ir_xmalloc((nparams + 1) * sizeof *all);
	NodeId id;
	Func *f;

	if (nparams)
		memcpy(all, params, nparams * sizeof *all);
	all[nparams] = body;
	id = withargs(m, NK_FUNC, all, nparams + 1, loc);
	if (all != buf)
		free(all);

	ir_vgrow(&m->funcs, &m->capfuncs, m->nfuncs + 1);
	f = &m->funcs[m->nfuncs];
	f->ret = ret;
	f->attrs = attrs;
	f->nattrs = nattrs;
	m->nodes[id].aux = m->nfuncs++;
	return id;
}

NodeId
ir_global_ref(Module *m, Sym name, Loc loc)
{
	NodeId id = newnode(m, NK_GLOBAL, 0, loc);
	m->nodes[id].aux = name;
	return id;
}

int
ir_global_add(Module *m, Sym name, NodeId fn)
{
	if (ir_global_index(m, name))
		return 0;
	if (name >= m->capglobalof) {
		uint32_t old = m->capglobalof;
		ir_vgrow(&m->globalof, &m->capglobalof, name + 1);
		memset(&m->globalof[old], 0, (m->capglobalof - old) * sizeof *m->globalof);
	}
	ir_vgrow(&m->globals, &m->capglobals, m->nglobals + 1);
	m->globals[m->nglobals].name = name;
	m->globals[m->nglobals].fn = fn;
	m->globalof[name] = ++m->nglobals;
	return 1;
}

const AttrVal *
ir_func_attr(const Module *m, NodeId fn, const char *key)
{
	AttrId first;
	uint32_t n = ir_node_attrs(m, fn, &first);

	for (uint32_t i = 0; i < n; i++) {
		const AttrVal *v = &m->attrs[first + i];
		if (strcmp(ir_symstr(m, v->key), key) == 0)
			return v;
	}
	return NULL;
}

uint32_t
ir_node_attrs(const Module *m, NodeId n, AttrId *first)
{
	const Node *nd = &m->nodes[n];
	const Func *f = nd->kind == NK_FUNC ? &m->funcs[nd->aux] :
	                nd->kind == NK_CALLFN && nd->aux && nd->aux <= m->nfuncs ? &m->funcs[nd->aux - 1] : NULL;

	*first = f ? f->attrs : 0;
	return f ? f->nattrs : 0;
}

uint32_t
ir_global_index(const Module *m, Sym name)
{
	return name < m->capglobalof ? m->globalof[name] : 0;
}

NodeId
ir_global_find(const Module *m, Sym name)
{
	uint32_t g = ir_global_index(m, name);
	return g ? m->globals[g - 1].fn : 0;
}

/* ---------------------------------------------------------------- def-use */

void
ir_set_arg(Module *m, NodeId user, uint32_t i, NodeId val)
{
	uint32_t slot = m->nodes[user].args + i;

	if (i >= m->nodes[user].nargs)
		ir_die("ir_set_arg: operand %u of node %u out of range", i, user);
	m->typed = 0;
	useunlink(m, slot);
	uselink(m, slot, val);
}

void
ir_replace_uses(Module *m, NodeId old, NodeId with)
{
	uint32_t slot, next;

	if (old == with)
		return;
	m->typed = 0;
	if (!with) {
		for (slot = m->firstuse[old]; slot; slot = next) {
			next = m->uses[slot].next;
			useunlink(m, slot);
		}
		return;
	}
	/* old's whole list moves: each slot goes to the head of with's list,
	   as uselink() would put it */
	{
		NodeId *argv = m->argv;
		Use *uses = m->uses;
		uint32_t head = m->firstuse[with];
		for (slot = m->firstuse[old]; slot; slot = next) {
			Use *u = &uses[slot];
			next = u->next;
			argv[slot] = with;
			if (with >= u->user)
				m->unordered = 1;
			u->prev = 0;
			u->next = head;
			if (head)
				uses[head].prev = slot;
			head = slot;
		}
		m->firstuse[old] = 0;
		m->firstuse[with] = head;
	}
}

/* tofree: while reuse is on, a node killed as kind k with na operand slots
** goes to the free list of its operand count (constants: their own) */
static inline void
tofree(Module *m, NodeId n, uint8_t k, uint32_t na)
{
	uint32_t list;

	if (!m->reuse)
		return;
	if (k == NK_CONST)
		list = IR_FREE_LISTS - 1;
	else if ((k == NK_CALL || k == NK_TUPLE || k == NK_GETITEM) && na < IR_FREE_LISTS - 1)
		list = na;
	else
		return;
	ir_vgrow(&m->freed[list], &m->capfreed[list], m->nfreed[list] + 1);
	m->freed[list][m->nfreed[list]++] = n;
}

void
ir_node_kill(Module *m, NodeId n)
{
	Node *nd = &m->nodes[n];
	uint8_t k = nd->kind;
	uint32_t na = nd->nargs, base = nd->args;

	for (uint32_t i = 0; i < na; i++)
		useunlink(m, base + i);
	nd->kind = NK_DEAD;
	if (k != NK_DEAD)
		tofree(m, n, k, na);
}

/* unlinkargs: x's operands lose their uses by x; each left with none is
** pushed on st at *sp (room for x's operand count is the caller's) */
static inline void
unlinkargs(Module *m, const Node *x, NodeId *st, uint32_t *sp)
{
	NodeId *argv = m->argv, *first = m->firstuse;
	Use *uses = m->uses;
	uint32_t base = x->args, na = x->nargs;

	for (uint32_t i = 0; i < na; i++) {
		uint32_t slot = base + i;
		NodeId val = argv[slot];
		Use *u = &uses[slot];
		if (!val)
			continue;
		if (u->prev)
			uses[u->prev].next = u->next;
		else
			first[val] = u->next;
		if (u->next)
			uses[u->next].prev = u->prev;
		argv[slot] = 0;
		u->next = u->prev = 0;
		if (!first[val])
			st[(*sp)++] = val;      /* its last use: once only */
	}
}

/* reapstack: ir_reap() of the sp nodes on *stack, none of which has uses */
static void
reapstack(Module *m, NodeId **stack, uint32_t *cap, uint32_t sp)
{
	while (sp) {
		NodeId x = (*stack)[--sp];
		Node *nd = &m->nodes[x];
		uint8_t k = nd->kind;

		if (k == NK_DEAD || k == NK_VAR || k == NK_FUNC)
			continue;
		ir_vgrow(stack, cap, sp + nd->nargs);
		unlinkargs(m, nd, *stack, &sp);
		nd->kind = NK_DEAD;
		tofree(m, x, k, nd->nargs);
	}
}

void
ir_reap(Module *m, NodeId n, NodeId **stack, uint32_t *cap)
{
	if (m->firstuse[n])
		return;
	ir_vgrow(stack, cap, 8);
	(*stack)[0] = n;
	reapstack(m, stack, cap, 1);
}

void
ir_node_to_const(Module *m, NodeId n, void *data, NodeId **stack, uint32_t *cap)
{
	Node *nd = &m->nodes[n];
	uint32_t sp = 0, ci;
	Const *c;

	/* a Const slot: a killed constant's (its node stays dead, off the
	   lists), or a new one */
	if (m->reuse && m->nfreed[IR_FREE_LISTS - 1]) {
		NodeId x = m->freed[IR_FREE_LISTS - 1][--m->nfreed[IR_FREE_LISTS - 1]];
		ci = m->nodes[x].aux;
		m->nodes[x].aux = 0;
	} else {
		ir_vgrow(&m->consts, &m->capconsts, m->nconsts + 1);
		ci = m->nconsts++;
	}
	ir_vgrow(stack, cap, nd->nargs);
	unlinkargs(m, nd, *stack, &sp);
	nd->kind = NK_CONST;
	nd->op = 0;
	nd->nargs = 0;
	nd->args = 0;
	nd->aux = ci;
	c = &m->consts[ci];
	memset(c, 0, sizeof *c);
	c->type = nd->type;
	c->meta = -1;
	c->nbytes = (size_t)ir_type_numel(m, nd->type) * ir_dtype_bytes[m->types[nd->type].dtype];
	c->data = data;
	reapstack(m, stack, cap, sp);
}

uint32_t
ir_nuses(const Module *m, NodeId n)
{
	uint32_t k = 0;
	for (uint32_t s = m->firstuse[n]; s; s = m->uses[s].next)
		k++;
	return k;
}

/* ---------------------------------------------------------------- float16 */

uint16_t
ir_f16_from_f32(float f)
{
	uint32_t x, sign, mant;
	int32_t exp;

	memcpy(&x, &f, 4);
	sign = (x >> 16) & 0x8000u;
	exp = (int32_t)((x >> 23) & 0xff);
	mant = x & 0x7fffffu;
	if (exp == 0xff)                            /* inf, nan */
		return (uint16_t)(sign | 0x7c00u | (mant ? 0x200u | (mant >> 13) : 0));
	exp = exp - 127 + 15;
	if (exp >= 0x1f)                            /* overflow */
		return (uint16_t)(sign | 0x7c00u);
	if (exp <= 0) {                             /* subnormal or zero */
		uint32_t shift, half, rest;
		if (exp < -10)
			return (uint16_t)sign;
		mant |= 0x800000u;
		shift = (uint32_t)(14 - exp);
		half = mant >> shift;
		rest = mant & ((1u << shift) - 1);
		if (rest > (1u << (shift - 1)) || (rest == (1u << (shift - 1)) && (half & 1)))
			half++;
		return (uint16_t)(sign | half);
	}
	{
		uint32_t h = sign | ((uint32_t)exp << 10) | (mant >> 13);
		uint32_t rest = mant & 0x1fffu;
		if (rest > 0x1000u || (rest == 0x1000u && (h & 1)))
			h++;                                /* may carry into the exponent: correct */
		return (uint16_t)h;
	}
}

float
ir_f32_from_f16(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu, x;
	float f;

	if (exp == 0x1f)
		x = sign | 0x7f800000u | (mant << 13);
	else if (exp == 0) {
		if (!mant)
			x = sign;
		else {                                  /* normalise a subnormal */
			exp = 127 - 15 + 1;
			while (!(mant & 0x400u)) {
				mant <<= 1;
				exp--;
			}
			x = sign | (exp << 23) | ((mant & 0x3ffu) << 13);
		}
	} else
		x = sign | ((exp - 15 + 127) << 23) | (mant << 13);
	memcpy(&f, &x, 4);
	return f;
}

/* ---------------------------------------------------------------- tensors */

int64_t
ir_tensor_numel(const Tensor *t)
{
	int64_t n = 1;

	for (uint32_t i = 0; i < t->rank; i++) {
		if (t->dims[i] < 0 || (t->dims[i] && n > INT64_MAX / t->dims[i]))
			return 0;
		n *= t->dims[i];
	}
	return n;
}

static uint64_t maxtensor = (uint64_t)1 << 30;

uint64_t
ir_max_tensor_bytes(void)
{
	return maxtensor;
}

void
ir_set_max_tensor_bytes(uint64_t n)
{
	maxtensor = n;
}

int
ir_tensor_fits(int64_t numel, DType dt)
{
	uint64_t b = ir_dtype_bytes[dt] ? ir_dtype_bytes[dt] : 1;
	return numel >= 0 && (uint64_t)numel <= maxtensor / b;
}

size_t
ir_tensor_bytes(const Tensor *t)
{
	int64_t n = ir_tensor_numel(t);
	if (t->dt <= DT_VOID || t->dt >= DT_COUNT || (uint64_t)n > SIZE_MAX / 8)
		return 0;
	return (size_t)n * ir_dtype_bytes[t->dt];
}

double
ir_tensor_get(const Tensor *t, int64_t i)
{
	const unsigned char *p = t->data + (size_t)i * ir_dtype_bytes[t->dt];

	switch (t->dt) {
	case DT_BOOL: case DT_UINT8: return p[0];
	case DT_INT8: return (int8_t)p[0];
	case DT_INT16: { int16_t x; memcpy(&x, p, 2); return x; }
	case DT_UINT16: { uint16_t x; memcpy(&x, p, 2); return x; }
	case DT_INT32: { int32_t x; memcpy(&x, p, 4); return x; }
	case DT_UINT32: { uint32_t x; memcpy(&x, p, 4); return x; }
	case DT_INT64: { int64_t x; memcpy(&x, p, 8); return (double)x; }
	case DT_FLOAT16: { uint16_t x; memcpy(&x, p, 2); return ir_f32_from_f16(x); }
	case DT_FLOAT32: { float x; memcpy(&x, p, 4); return x; }
	case DT_FLOAT64: { double x; memcpy(&x, p, 8); return x; }
	default: ir_die("ir_tensor_get: a tensor of dtype %d", (int)t->dt);
	}
}

void
ir_tensor_free(Tensor *t)
{
	free(t->data);
	memset(t, 0, sizeof *t);
}

size_t
ir_utf8_len(const unsigned char *s, size_t n)
{
	unsigned c = s[0], lo = 0x80, hi = 0xbf;
	size_t len;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		if (c == 0xe0)
			lo = 0xa0;      /* no overlong forms */
		if (c == 0xed)
			hi = 0x9f;      /* no surrogates */
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		if (c == 0xf0)
			lo = 0x90;
		if (c == 0xf4)
			hi = 0x8f;      /* nothing above U+10FFFF */
	} else
		return 0;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

int
ir_tensor_nbytes(const int64_t *d, uint32_t rank, unsigned esz, uint64_t *out)
{
	uint64_t n = esz;

	for (uint32_t i = 0; i < rank; i++)
		if (d[i] == 0) {
			*out = 0;
			return 0;
		}
	for (uint32_t i = 0; i < rank; i++) {
		if ((uint64_t)d[i] > UINT64_MAX / n)
			return -1;
		n *= (uint64_t)d[i];
	}
	*out = n;
	return 0;
}
