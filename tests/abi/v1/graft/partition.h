/*
** partition.h: partitioning a module for hardware targets, the four steps
** of TVM's BYOC pipeline driven by graftc's generated target tables
** (docs/partitioning.md):
**
**   merge composites   every match of a composite becomes a function with
**                      Composite="<target>.<name>", called where the match
**                      was (TVM's MergeComposite)
**   annotate           composites and supported single ops are given to
**                      the target (AnnotateTarget)
**   merge regions      neighbouring nodes of the target join into regions
**                      as large as they can be without a cycle
**                      (MergeCompilerRegions)
**   outline            each region becomes a global function with
**                      Compiler="<target>", called from its function
**                      (PartitionGraph)
**
** Targets are partitioned one after the other, in the order given: a node
** taken by one is not seen by the next.  Every decision that leaves an op
** on the host is recorded, for ir_partition_explain().
*/
#ifndef GRAFT_PARTITION_H
#define GRAFT_PARTITION_H

#include "rewrite.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where to stop: after which step (the later steps are skipped). */
typedef enum PartStop {
	PS_COMPOSITE = 1,       /* merge composites only */
	PS_ANNOTATE,            /* ... and annotate (nothing visible in the IR) */
	PS_REGIONS,             /* ... and merge regions (nothing visible) */
	PS_ALL,                 /* the whole pipeline */
} PartStop;

/* Why a node is where it is. */
typedef enum WhyKind {
	WHY_GUARD,              /* a composite matched, its guard was false */
	WHY_SGUARD,             /* a supports entry matched, its guard was false */
	WHY_OVERLAP,            /* a composite's match overlapped one taken first */
	WHY_ESCAPE,             /* a composite's match has an inner value used outside it */
	WHY_CYCLE,              /* a region merge was refused: it would make a cycle */
} WhyKind;

typedef struct Why {
	NodeId node;            /* the node the reason is about */
	uint8_t kind;           /* WhyKind */
	uint16_t target;        /* index of the target */
	uint32_t rule;          /* the entry of the target's table */
	uint32_t rule2;         /* WHY_OVERLAP: the entry that was taken */
	NodeId other;           /* OVERLAP: the taken match's root; ESCAPE: the
	                           outside user; CYCLE: the operand whose region
	                           was refused */
	NodeId via;             /* CYCLE: a node on the path that closes the cycle */
} Why;

typedef struct PartStats {
	uint64_t composites;    /* matches outlined, all targets */
	uint64_t regions;       /* global functions made */
	uint64_t offloaded;     /* ops inside them (composites' inner ops counted) */
	uint64_t host;          /* ops left on the host (after the whole pipeline) */
	uint64_t lowered;       /* rewrites by the targets' own rewrite rules */
	uint64_t *fired;        /* per target, per entry: composites made and
	                           single ops given to the target */
} PartStats;

typedef struct Partitioner {
	Module *m;
	Diag *d;
	const Ruleset *const *targets;
	uint32_t ntargets;
	PartStop stop;
	int explain;            /* record reasons (costs memory) */
	Why *why; uint32_t nwhy, capwhy;
	PartStats st;
} Partitioner;

/* Partitions every function of p->m that is not itself a partition, for
** p->targets in order; first, the rewrite rules that target tables hold
** (their lowering) are applied, in target order, until none matches.  Returns the number of errors.  p->st and p->why
** are filled in; free them with ir_partition_free(). */
int ir_partition(Partitioner *p);
void ir_partition_free(Partitioner *p);

/* Writes, for every op left on the host in @main and the other
** unpartitioned functions, why: as "FILE:LINE:COL: OP: reason" lines, in
** graph order; then the merges of regions that were refused. */
void ir_partition_explain(FILE *f, const Partitioner *p);

/* Writes what was offloaded, per target and entry, most first. */
void ir_partition_stats(FILE *f, const Partitioner *p);

#ifdef __cplusplus
}
#endif

#endif
