/*
** Collectives across ranks: per rank file, the NCCL/RCCL collective calls
** as a small record (gp_coll_extract), then the calls matched across
** ranks (gp_coll_match): who arrived last (the straggler), how long every
** other rank waited for it, the split of each call into synchronisation
** skew and pure communication, and the bandwidth nccl-tests would report
** (algbw, busbw).  Ranks' clocks are aligned on the collectives' ends, never
** trusted.  Definitions: docs/comm.md.
**
** A rank's record travels from the worker that read its trace to the
** reduce (another thread or MPI process) as kept rows: gp_coll_rank_put,
** read back by gp_coll_reader (docs/comm.md, "The per-rank record"); the
** cross-rank record of every command of many files carries it
** (analysis/ranks.h).
**
** Ownership: gp_coll_extract() fills a gp_coll_rank that owns its arrays and
** strings (copied: it outlives the trace it came from, so a caller can
** free each trace after extracting, or ship the record to another
** process); gp_coll_rank_free() releases it.  gp_coll_match() fills a
** gp_coll_match that owns its arrays and points into nothing;
** gp_coll_match_free() releases it.
*/
#ifndef GP_COLLECTIVES_H
#define GP_COLLECTIVES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/error.h"
#include "model/trace.h"
#include "util/hist.h"
#include "util/rows.h"

struct gp_gpu;

enum gp_coll_kind {
	GP_COLL_ALL_REDUCE, GP_COLL_ALL_GATHER, GP_COLL_REDUCE_SCATTER, GP_COLL_BROADCAST,
	GP_COLL_REDUCE, GP_COLL_ALL_TO_ALL, GP_COLL_SEND_RECV, GP_COLL_BARRIER, GP_COLL_OTHER,
	GP_COLL__COUNT
};

/* One collective call on one rank: its GPU kernel and what the trace says
** about the call. */
struct gp_coll {
	gp_ns start, end;       /* the kernel, on the rank's own clock */
	gp_ns launch;           /* start of the launching API call, -1 = unknown */
	int64_t seq;            /* the trace's sequence number, or the call's
				** position among its rank's calls of the same
				** (group, kind) when the trace has none */
	uint64_t bytes;         /* message size as nccl-tests counts it, 0 = unknown */
	uint32_t group;         /* index into the rank's groups */
	uint32_t stream;
	int32_t device;
	int32_t iter;           /* iteration, -1 = unknown */
	int32_t group_size;     /* ranks in the group, -1 = unknown */
	uint8_t kind;           /* enum gp_coll_kind */
	uint8_t dtype;          /* enum gp_dtype */
	uint8_t seq_stated;     /* 1: seq is the trace's own */
};

/* One peer of an all-to-all call: the bytes this rank sends to it and
** receives from it. */
struct gp_coll_peer {
	int32_t rank;           /* the peer's global rank ("Process Group Ranks",
				** else its index in the group) */
	uint64_t sent, recv;
};

/* What an all-to-all(-v) call says beyond its gp_coll: what it moves per
** peer (Kineto's "In split size"/"Out split size", in dim-0 rows, scaled
** to the message's bytes; "[]" is an even split) and where it was
** launched (docs/comm.md, "Expert parallelism"). */
struct gp_coll_a2a {
	uint32_t call;          /* index into gp_coll_rank.v */
	uint32_t label;         /* into gp_coll_rank.labels: the kernel's layer
				** path ("layer3/dispatch(F)"); 0 = "" */
	uint64_t sent, recv;    /* bytes this rank sends (the input) and
				** receives (the output), 0 = unknown */
	uint32_t at, npeers;    /* peers[at .. at + npeers); 0 = not stated */
};

/* What one rank file contributes. */
struct gp_coll_rank {
	char *path;
	int rank;               /* the trace's "rank", else the caller's default */
	int world_size;         /* the trace's "world_size", -1 = unknown */
	double link_bw;         /* the GPU's link peak, bytes/s per direction, 0 =
				** unknown (ops.h, struct gp_gpu) */
	char gpu[32];           /* the GPU table's name, "" = unknown */
	char link[32];          /* the link's name ("NVLink4"), "" = unknown */
	char host[64];          /* the node the rank ran on, "" = unknown
				** (gp_coll_extract says where it comes from) */
	uint8_t framework;      /* enum gp_framework of the rank's trace: the
				** job's advice speaks its terms */
	struct gp_coll *v;      /* sorted by kernel start */
	size_t n;
	char **groups;          /* process group names; "" = not stated */
	size_t ngroups;
	struct gp_coll_a2a *a2a;        /* one per all-to-all call, by call */
	size_t na2a;
	struct gp_coll_peer *peers;     /* the a2a's peers */
	size_t npeers;
	char **labels;                  /* layer paths; labels[0] = "" */
	size_t nlabels;
};

/* Options of the extraction. */
struct gp_coll_opts {
	int default_rank;       /* rank when the trace does not state one */
	const struct gp_gpu *gpu;   /* --gpu NAME: its link; NULL = the trace's GPU */
};

/* The collectives of t (correlated: t->attrs set) into out.  Kind, group,
** sequence number, size and dtype come from the call's record_param_comms
** args (Kineto), else from the enclosing nccl:* annotation (its Input
** Dims/type) and c10d:: op, else from the kernel's name.  The GPU (o->gpu,
** else the one the GPU table finds for the device of the first collective,
** else of the trace's first device: gp_gpu_for_device) gives gpu, link and
** link_bw.  The host is the trace's (nsys: TARGET_INFO_SYSTEM_ENV's
** Hostname; Kineto: "host_name"; rocprof: "hostname"), else unknown.
** Fails only with GP_ERR_INTERNAL when t is not correlated (a
** caller's bug); out is then still freeable. */
int gp_coll_extract(const gp_trace *t, const struct gp_coll_opts *o, struct gp_coll_rank *out,
		    gp_error *err);
void gp_coll_rank_free(struct gp_coll_rank *r);

/* Index of name s in names[0..*n), appended (a copy, the array's owner
** frees it) when new. */
size_t gp_coll_name_index(char ***names, size_t *n, const char *s);

/* The record as kept rows over gp_coll_record_cols ("what" and 13 cells):
** one "rank" row (world size, link peak in bytes/s as %.17g, which reads
** back exactly, GPU name, link name, host or NULL, framework number), one "group" row per process group
** in index order, one "coll" row of 13 integers per call, then one "a2a"
** row per all-to-all call (call, label text, sent, received, its peers as
** "rank:sent:recv ..." or NULL).  path and rank do not travel: the
** reader's caller knows them. */
#define GP_COLL_RECORD_NCOLS 14
extern const struct gp_column gp_coll_record_cols[GP_COLL_RECORD_NCOLS];
void gp_coll_rank_put(const struct gp_coll_rank *r, gp_writer *w);

/* Reading a record back row by row, so that it can sit among another
** record's rows (analysis/ranks.h): gp_coll_reader_init over r (emptied),
** then gp_coll_reader_row for each row (cells c[0..GP_COLL_RECORD_NCOLS)),
** which returns 1 when the row was one of the record's, 0 when it is none
** of its kinds ("rank", "group", "coll", "a2a": the caller's to read), -1 when it
** is one of them but damaged or out of order.  gp_coll_reader_done says
** whether the record was whole (its one "rank" row read). */
struct gp_coll_reader {
	struct gp_coll_rank *r;
	size_t cap;
	int heads;
};
void gp_coll_reader_init(struct gp_coll_reader *rd, struct gp_coll_rank *r);
int gp_coll_reader_row(struct gp_coll_reader *rd, const char *const *c);
bool gp_coll_reader_done(const struct gp_coll_reader *rd);

/* Reads rows that hold one record and nothing else into r (its path and
** rank as given; gp_coll_rank_free it whatever the outcome).  GP_OK, or
** GP_ERR_FORMAT naming path when the rows are not one record (a damaged
** record from another process). */
int gp_coll_rank_read(const struct gp_rowbuf *rb, const char *path, int rank, struct gp_coll_rank *r,
		      gp_error *err);

/* One collective matched across ranks (the same group, kind and sequence
** number). */
struct gp_coll_call {
	uint32_t first;         /* into gp_coll_match.slots: nranks entries, one
				** per rank in the order given (-1 = absent) */
	uint32_t present;       /* ranks that have it */
	uint8_t kind;
	int32_t group;          /* into gp_coll_match.groups */
	int64_t seq;
	int32_t iter;           /* the first rank's iteration */
	uint64_t bytes;         /* the first present rank's (all_to_all: the
				** largest over the ranks, an uneven one's
				** busiest buffer); 0 = unknown */
	int32_t size_mismatch;  /* 1: the ranks disagree on the size */
	int last_rank;          /* index (in the order given) of the last arrival
				** (the first of equals), -1 when all arrived at once */
	gp_ns skew;             /* last arrival - first arrival (aligned clocks) */
	gp_ns late;             /* last arrival - the next-to-last's: what each rank
				** would save if the last had come on time */
	gp_ns comm;             /* pure communication: the last arrival's kernel
				** duration (it waited for nobody) */
	gp_ns wait_total;       /* sum over ranks of last arrival - arrival */
	gp_ns kernel_mean;      /* mean kernel duration over present ranks */
	gp_ns transfer;         /* the shortest kernel over the ranks: each
				** rank's kernel beyond it is its wait, with
				** no clock involved (docs/comm.md) */
	int nranks_group;       /* n in busbw's factor, 0 = unknown */
	double algbw, busbw;    /* bytes/s over comm; 0 = unknown */
	double busbw_kernel;    /* busbw over kernel_mean */
	uint8_t whole;          /* on every rank given, or on as many as its
				** group has ("Group size"): the calls the
				** spans count (gp_coll_span_stats) */
	uint8_t span;           /* enum gp_coll_span over the ranks that have it */
	uint16_t hosts;         /* distinct known hosts among them */
};

/* Where a call ran: across nodes (its ranks name two hosts or more), on
** one node (every rank of its group given, all on one known host), or
** unknown (a rank without a host, or ranks of its group not given). */
enum gp_coll_span { GP_SPAN_UNKNOWN, GP_SPAN_INTRA, GP_SPAN_INTER, GP_SPAN__COUNT };

/* The whole calls of one span and kind: their transfer time (each call's
** shortest kernel, which needs no clock: a subgroup's ranks may share no
** call with the reference rank) and nccl-tests' bus bytes over it. */
struct gp_coll_span_stats {
	uint64_t calls;
	uint64_t bytes;
	gp_ns transfer;
	double bus_bytes;       /* sum of bytes x the busbw factor of its group */
	uint64_t unknown_size;  /* of the calls, those of unknown size (no busbw) */
};

/* Per rank, in the order given. */
struct gp_coll_rank_stats {
	int rank;
	gp_ns offset;           /* added to this rank's times to align it */
	bool aligned;           /* an offset was estimated (or it is the reference) */
	uint64_t calls;         /* collectives on this rank */
	uint64_t matched;       /* of them, matched on every rank */
	uint64_t times_last;    /* matched calls where it arrived last */
	gp_ns wait;             /* time it waited for others */
	gp_ns caused;           /* time the others waited for it */
	int host;               /* into gp_coll_match.hosts, -1 = unknown */
	gp_ns late;             /* over the calls it arrived last at, how much after
				** the next-to-last rank: the time it would save
				** every rank if it arrived on time (docs/comm.md) */
	gp_ns kernel;           /* time in collective kernels */
	double link_bw;
};

/* Per kind, over complete (every-rank) calls. */
struct gp_coll_kind_stats {
	uint64_t calls;
	uint64_t bytes;
	gp_ns comm, skew, wait, kernel_mean;
	struct gp_hist busbw_mbs;   /* busbw in MB/s, of calls with a known one */
};

struct gp_coll_match {
	size_t nranks;
	struct gp_coll_rank_stats *ranks;
	struct gp_coll_call *calls;     /* complete calls first (by first rank's
					** start), then incomplete ones */
	size_t ncalls, ncomplete;
	int32_t *slots;                 /* [ncalls * nranks]: index into that
					** rank's v, -1 = absent */
	char **groups;                  /* global group names */
	size_t ngroups;
	struct gp_coll_kind_stats kinds[GP_COLL__COUNT];
	gp_ns wait_total;               /* over complete calls */
	gp_ns comm_total;
	char **hosts;                   /* the ranks' distinct known hosts */
	size_t nhosts;
	uint8_t framework;              /* the ranks' enum gp_framework when they
					** all have one, else GP_FW_UNKNOWN */
	struct gp_coll_span_stats spans[GP_SPAN__COUNT][GP_COLL__COUNT];
};

/* Matches the collectives of ranks[0..n) (n >= 1): by (group, kind,
** sequence number), aligns the clocks (each rank's offset: the median of
** the reference rank's end minus its own over the calls both have; the
** reference is ranks[0]), then fills per call, rank and kind.  Only calls
** present on every rank count in the waits and per kind.  Never fails
** (an out-of-memory aborts, as everywhere). */
void gp_coll_match(const struct gp_coll_rank *ranks, size_t n, struct gp_coll_match *out);
void gp_coll_match_free(struct gp_coll_match *m);

/* The nodes part of gp_coll_match (coll_span.c), called by it last: each
** rank's host index, each call's whole, span and hosts, the whole calls
** that are not complete (a subgroup's: present on exactly "Group size"
** ranks) given their bytes, transfer and nranks_group, and m->spans.
** Never fails. */
void gp_coll_span(const struct gp_coll_rank *ranks, struct gp_coll_match *m);

const char *gp_coll_span_name(int span);   /* "intra", "inter", "unknown" */

/* The straggler of m: the rank the others waited for longest (by index in
** the order given; ties to the rank that arrived last more often, then the
** lower index), when it arrived last at more than half of the calls
** matched on every rank and the others' wait for it is more than a quarter
** of all waiting; else -1 (nobody waited, or a rank is last now and then:
** jitter).  The one answer every command gives (docs/comm.md): a rank is
** the straggler because the others wait for it at collectives, never
** because its own step is the slowest (in a synchronised job the
** straggler's step is the shortest: it is the one that waits least). */
int gp_coll_straggler(const struct gp_coll_match *m);

/* nccl-tests' bus bandwidth factor for kind over n ranks (2(n-1)/n for
** all_reduce, (n-1)/n for all_gather, reduce_scatter and all_to_all, 1
** for broadcast, reduce and send/recv); 0 when unknown (n < 1, barrier). */
double gp_coll_busbw_factor(enum gp_coll_kind kind, int n);

const char *gp_coll_kind_name(int kind);   /* "all_reduce" */

/* The kind a collective's name says: "allreduce", "nccl:all_reduce",
** "c10d::allreduce_", "ncclDevKernel_AllReduce_Sum_f32_RING_LL",
** "_allgather_base", the communication kernels of model/classify.c
** ("multimem_all_reduce_kernel", "cross_device_reduce_1stage": all-reduce;
** DeepEP's "dispatch", "combine": all-to-all)...; GP_COLL_OTHER when none. */
enum gp_coll_kind gp_coll_kind_parse(const char *name);

#endif
