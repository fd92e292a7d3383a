/*
** Communication on its own streams, overlapped with compute: each
** communication kernel's time under compute (hidden) and alone (exposed),
** per layer and pass of the kernels' attribution (t->attrs: an op's
** layer, else a user annotation's "dispatch(F)"), and the SMs the
** communication kernels hold while compute runs (their grid blocks, at
** most the device's SM count, time-weighted over the time they overlap
** compute).  Definitions: docs/comm.md, "Overlap".
**
** Ownership: gp_comm_overlap_run() fills a gp_comm_overlap that owns its
** arrays (labels are the trace's strings: the trace outlives it);
** gp_comm_overlap_free() releases it.
*/
#ifndef GP_COMMOVER_H
#define GP_COMMOVER_H

#include <stddef.h>
#include <stdint.h>

#include "model/trace.h"

/* One device's communication and its overlap with compute.  hidden +
** exposed = comm, the union of its communication kernels' time (the time
** view's comm_hidden and comm_exposed rows). */
struct gp_co_device {
	int32_t device;
	int32_t sm_count;       /* 0 = unknown */
	uint64_t kernels;       /* communication kernels */
	gp_ns comm, hidden, exposed;
	/* the SMs held: sm_ns / hidden is the time-weighted number of SMs the
	** communication kernels' blocks take while compute runs (blocks of
	** the kernels running at once added, at most sm_count when known) */
	double sm_ns;
	uint32_t max_blocks;    /* the most blocks of one communication kernel */
};

/* The communication of one layer and pass, over every device.  A slice
** of time several communication kernels share is split evenly among them,
** so the rows' hidden and exposed add up to the devices'. */
struct gp_co_group {
	gp_str layer;           /* 0 = none */
	uint8_t dir;            /* enum gp_dir: GP_DIR_NA when no pass is known */
	uint64_t kernels;
	gp_ns comm, hidden, exposed;
	double sm_ns;           /* as gp_co_device's, over this group's kernels */
};

/* A change of the SMs communication holds on a device: from at on, its
** running communication kernels have blocks blocks (at most the SM count
** when known), with compute running beside them or not. */
struct gp_co_point {
	int32_t device;
	gp_ns at;
	uint32_t blocks;
	uint8_t compute;
};

struct gp_comm_overlap {
	struct gp_co_device *dev;   /* by device id, those with communication */
	size_t ndev;
	struct gp_co_group *groups; /* by communication time, largest first */
	size_t ngroups;
	/* by device and time, those with communication: the export's counter
	** track; each device's series ends with a point of 0 blocks */
	struct gp_co_point *points;
	size_t npoints;
};

/* Fills o from trace t (correlated; t->attrs may be NULL: one group of no
** layer).  Compute is every kernel that is not communication
** (gp_kernel_is_comm), as in the breakdown; copies and memsets are
** neither.  Never fails (allocation failure exits). */
void gp_comm_overlap_run(const gp_trace *t, struct gp_comm_overlap *o);

void gp_comm_overlap_free(struct gp_comm_overlap *o);

/* The time-weighted SMs held under compute: sm_ns / hidden, 0 when
** nothing is hidden. */
static inline double gp_co_sms(double sm_ns, gp_ns hidden)
{
	return hidden > 0 ? sm_ns / (double)hidden : 0;
}

#endif
