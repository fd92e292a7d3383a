/*
** A trace's kernels grouped six ways, for the tables and roofline of the
** HTML report: by layer, by op, by op and shapes (the roofline's points),
** by kernel name, and for the layer view's drill-down by layer and op and
** by layer and kernel name (name: the layer, params: the op or kernel, so
** a layer's op groups add up to its layer group exactly).  Each group holds exact sums of its kernels' time and
** modelled work, and an op+shape group with known work the peaks of its
** first kernel.  The analysis runner builds them (GP_NEED_GROUPS); the
** groups of the ranks of a job travel as kept rows (gp_kgroups_put) and
** add up by name (gp_kgroups_add_rows), a rank at a time.
**
** Ownership: a gp_kgroups owns its vectors and, once rows were added, its
** own string table; built from a trace, its names are the trace's, which
** must outlive it.  gp_kgroups_free() releases it.
*/
#ifndef GP_GROUPS_H
#define GP_GROUPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/trace.h"
#include "ops/ops.h"
#include "util/rows.h"
#include "util/u64map.h"

enum gp_kgroup_by {
	GP_KGROUP_LAYER, GP_KGROUP_OP, GP_KGROUP_SHAPE, GP_KGROUP_KERNEL,
	GP_KGROUP_LAYER_OP, GP_KGROUP_LAYER_KERNEL,   /* name: the layer; params: the op, the kernel */
	GP_KGROUP__COUNT
};

struct gp_kgroup {
	uint64_t key;
	gp_str name, params;    /* in gp_kgroups.names; params only of shape groups */
	int64_t ns;
	uint64_t count;
	double flops, bytes;    /* of the kernels whose FLOPs and bytes are both known */
	int64_t known_ns;       /* their time */
	size_t first;           /* a trace's groups: the first kernel */
	size_t longest;         /* a trace's groups: the longest kernel (the first of equals) */
	double peak_flops, peak_bw;   /* shape groups with known work: the first kernel's peaks */
};

/* The groups of one way, in the order their first kernel came. */
struct gp_kgroup_set {
	GP_VEC(struct gp_kgroup) v;
	gp_u64map at;           /* key -> index in v */
};

struct gp_kgroups {
	const gp_strtab *names; /* the groups' names: the trace's, or own */
	gp_strtab own;          /* the names of the rows added */
	bool has_own;
	struct gp_kgroup_set by[GP_KGROUP__COUNT];
};

/* Groups t's kernels (t->attrs filled) six ways in one pass into g, with
** the FLOPs, bytes and peaks of ops (its r may be NULL: no work known).
** Kernels group by their label (gp_kernel_label_of, interned into t: the
** name every command shows, keeping the functor that tells a template's
** kernels apart). */
void gp_kgroups_build(gp_trace *t, const struct gp_ops *ops, struct gp_kgroups *g);

/* An empty g with its own names, for gp_kgroups_add_rows. */
void gp_kgroups_init(struct gp_kgroups *g);

/* The kept rows of groups: part ("layer", "op", "shape", "kernel",
** "layer-op", "layer-kernel"), name,
** params, ns, count, flops, bytes, known_ns, peak_flops, peak_bw; exact
** sums, doubles as %.17g.  A command may keep rows of its own parts in the
** same buffer (html's "input"), which gp_kgroups_add_rows skips. */
#define GP_KGROUP_NCOLS 10
extern const struct gp_column gp_kgroup_cols[GP_KGROUP_NCOLS];

/* Writes every group of g to w, one row each over gp_kgroup_cols. */
void gp_kgroups_put(const struct gp_kgroups *g, gp_writer *w);

/* Adds the group rows of rb (gp_kgroups_put's, among other parts) into g
** (gp_kgroups_init's), summing groups of the same name and params; a
** group's peaks are those of the first rows that have any.  False when a
** row is damaged (a number that is not one, a row cut short); *at is then
** the byte where reading stopped. */
bool gp_kgroups_add_rows(struct gp_kgroups *g, const struct gp_rowbuf *rb, size_t *at);

/* The text of a group's name or params id ("" for none). */
static inline const char *gp_kgroup_text(const struct gp_kgroups *g, gp_str id)
{
	return gp_strtab_get(g->names, id);
}

void gp_kgroups_free(struct gp_kgroups *g);

#endif
