/*
** Expert parallelism from the ranks' all-to-all calls (collectives.h's
** gp_coll_a2a records, matched by gp_coll_match): the bytes each rank
** sends to each peer, how uneven that is across ranks and across peers
** (largest / mean), and the time of the all-to-all kernels per layer path
** and pass ("layer3/dispatch(F)": F forward, B backward, W weight
** gradient), with the waiting at them.  Definitions: docs/comm.md,
** "Expert parallelism".
**
** Ownership: gp_a2a_summarise() fills a gp_a2a that owns its arrays and
** label strings (copied from the ranks' records); gp_a2a_free() releases
** it.
*/
#ifndef GP_COLL_A2A_H
#define GP_COLL_A2A_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/collectives.h"

/* One rank's all-to-all calls. */
struct gp_a2a_rank {
	int rank;
	uint64_t calls;
	uint64_t sent, recv;    /* bytes over its calls with a known size */
	gp_ns time;             /* its all-to-all kernels */
	gp_ns wait;             /* at the calls matched on every rank */
	uint64_t peer_max;      /* the most it sent one peer, over the calls
				** that state peers; 0 = none does */
	int peer_max_rank;      /* that peer, -1 = none */
	double peer_imbalance;  /* largest / mean of what it sent per peer of
				** its groups; 0 = unknown */
	uint64_t times_last;    /* matched all-to-all calls it arrived last at */
	gp_ns caused;           /* the others' wait at those calls */
};

/* One layer path (the kernel's, gp_attr.layer) over the ranks. */
struct gp_a2a_label {
	char *layer;            /* "" = no layer */
	char pass;              /* 'F', 'B', 'W' from the innermost "(P)"
				** component; 0 = none */
	uint64_t calls;         /* the most any rank made */
	uint64_t sent;          /* bytes, all ranks */
	gp_ns time_mean, time_max;  /* per rank: its kernels' time */
	double imbalance;       /* time_max / time_mean, 0 = no time */
	gp_ns wait;             /* all ranks' waits at its matched calls */
	gp_ns transfer;         /* its matched calls' transfer time (the
				** shortest kernel), counted by the first rank's
				** label */
};

struct gp_a2a {
	size_t nranks;
	struct gp_a2a_rank *ranks;      /* in the order given */
	size_t npeers;                  /* global ranks 0 .. npeers-1 */
	uint64_t *matrix;               /* [nranks * npeers]: bytes rank i sent
					** to global rank p; NULL = no call
					** states its peers */
	struct gp_a2a_label *labels;    /* by time_mean, the largest first */
	size_t nlabels;
	uint64_t calls;                 /* all-to-all calls matched on every rank */
	gp_ns wait, transfer;           /* over those */
	double rank_imbalance;          /* largest / mean of the ranks' sent
					** bytes; 0 = unknown */
	int peer_hot;                   /* the peer that receives the most
					** (column sums of matrix), -1 = unknown */
	uint64_t peer_hot_bytes;
	double peer_imbalance;          /* largest / mean of the received
					** column sums; 0 = unknown */
	int late;                       /* the rank (index) that caused the
					** most waiting at the matched calls,
					** -1 = nobody waited */
};

/* The expert-parallel summary of ranks[0..n) matched as m (gp_coll_match
** over the same ranks, in the same order).  Never fails. */
void gp_a2a_summarise(const struct gp_coll_rank *ranks, size_t n, const struct gp_coll_match *m,
		      struct gp_a2a *out);
void gp_a2a_free(struct gp_a2a *a);

/* The same over the ranks of job j (their records' collectives and
** match, analysis/ranks.h).  Never fails. */
struct gp_rank_job;
void gp_a2a_of_job(const struct gp_rank_job *j, struct gp_a2a *out);

/* The pass a layer path names: the last of its components that ends in
** "(F)", "(B)" or "(W)" ("layer3/dispatch(B)" -> 'B'); 0 when none. */
char gp_a2a_pass(const char *layer);

#endif
