/*
** HTA's view of the time breakdown (breakdown --as hta and --as hta-idle,
** docs/breakdown.md): which GPU work HTA keeps (launched inside a
** ProfilerStep range other than the last), its rounding of fractional
** microseconds, its idle categories per stream and its interval merge for
** the temporal breakdown and the communication/computation overlap.  The
** sweep of breakdown.c feeds it the work in start order; nothing else
** uses it.
**
** Ownership: a gp_bd_hta is the sweep's state, freed by gp_bd_hta_free();
** gp_bd_hta_finish() hands its results to the breakdown.
*/
#ifndef GP_BREAKDOWN_HTA_H
#define GP_BREAKDOWN_HTA_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/breakdown.h"
#include "util/alloc.h"
#include "util/u64map.h"

/* Times are kept within +-2^61 (epoch ns until 2043) so that no difference
** or sum of two overflows, whatever a damaged file says: the sweep and
** HTA's view clamp every time they read. */
#define GP_BD_NS_LIMIT ((gp_ns)1 << 61)

static inline gp_ns gp_bd_clamp(gp_ns v)
{
	return v > GP_BD_NS_LIMIT ? GP_BD_NS_LIMIT : v < -GP_BD_NS_LIMIT ? -GP_BD_NS_LIMIT : v;
}

/* Time x of the model as the Python tools (HTA, TraceLens) hold it: the
** file's microseconds (x - base, base = the reader's base_time_ns) as a
** float64, the nearest double to the decimal the file wrote (an integer
** part below 2^53 is exact; the sum rounds as parsing the decimal does). */
double gp_bd_file_us(gp_ns x, gp_ns base);

/* One GPU work as HTA's temporal breakdown reads it. */
struct gp_bd_hta_iv {
	int32_t device;
	gp_ns start, end;      /* end < start once rounded: HTA keeps it so */
	unsigned kind;         /* GP_BD_* */
};

struct gp_bd_hta {
	const gp_trace *t;
	gp_ns cutoff;          /* the latest start of a ProfilerStep event (CPU or GPU side) */
	bool no_steps;         /* one ProfilerStep name or none: HTA keeps all GPU work */
	gp_u64map api_of_corr; /* API calls by correlation id (copies and memsets) */
	gp_u64map at;          /* (device, stream) -> index into streams */
	GP_VEC(struct gp_bd_hta_stream) streams;
	bool round;            /* fractional-us timestamps: HTA rounds them */
	gp_ns base;            /* the reader's time shift (base_time_ns) */
	GP_VEC(struct gp_bd_hta_iv) iv;   /* every kept GPU work as HTA reads it */
};

/* Prepares h for trace t: HTA's cutoff (the latest start of its
** ProfilerStep events), the calls by correlation id and whether HTA
** rounds its times.  Never fails. */
void gp_bd_hta_begin(struct gp_bd_hta *h, const gp_trace *t);

/* Whether HTA keeps a GPU work (kernel: its index, -1 for a copy or memset
** found by corr): its launch call began before the cutoff, or the trace
** has fewer than two ProfilerStep names.  *launch = that call's start,
** INT64_MIN when unknown. */
bool gp_bd_hta_keep(const struct gp_bd_hta *h, int32_t kernel, uint64_t corr, gp_ns *launch);

/* A kept work [*start, *end) launched at *launch (INT64_MIN: unknown) as
** HTA reads it: rounded inward to whole microseconds when the trace has
** fractions (*end never before *start), *hta_end its end as HTA holds it
** (before *start when rounding crossed it). */
void gp_bd_hta_round(const struct gp_bd_hta *h, gp_ns *start, gp_ns *end, gp_ns *launch, gp_ns *hta_end);

/* Adds a kept work of kind (GP_BD_*) on (device, stream) in start order:
** the idle category of the gap before it on its stream, and its interval. */
void gp_bd_hta_add(struct gp_bd_hta *h, int32_t device, uint32_t stream, gp_ns start, gp_ns hta_end,
		   gp_ns launch, unsigned kind);

/* Fills b->hta (per stream) and b->hta_dev (per device, at most ndev). */
void gp_bd_hta_finish(struct gp_bd_hta *h, gp_breakdown *b, size_t ndev);

void gp_bd_hta_free(struct gp_bd_hta *h);

#endif
