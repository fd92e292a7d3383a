/*
** A trace's kernel time by layer read several ways at once, for the HTML
** report's layer section: by path and by module type (layers.h), each at
** every depth the trace's paths have.  Each view's groups are keyed as
** `summary --by layer|module-type [--depth N]` keys its rows
** (gp_layer_group_of over gp_layer_cut_str), so the page's shares equal
** summary's.  With the coverage of the trace: how much GPU time ran
** under any layer at all, which the page turns into a sentence on what
** to record when it is little.  The analysis runner builds them
** (GP_NEED_LAYER_VIEWS), after the run's own cut (GP_NEED_LAYERS).
**
** The views of a job's ranks (the HTML job page) travel as kept rows
** beside the kernel groups (gp_layer_views_put) and add up by name over
** the ranks (gp_layer_views_job_*), each view the sum of the ranks' at
** the same depth: as summary --by module-type|layer --depth N would give
** on each rank, summed.
**
** Ownership: a gp_layer_views owns its arrays (gp_layer_views_free); the
** group names are strings of the trace, which must outlive it, or of the
** job's own table (struct gp_layer_views_job, which owns views and names).
*/
#ifndef GP_ANALYSIS_LAYER_VIEWS_H
#define GP_ANALYSIS_LAYER_VIEWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/layers.h"
#include "model/trace.h"
#include "util/alloc.h"
#include "util/rows.h"

/* Kernels with a layer under this share of GPU time leave the layer
** views mostly "no layer": GP_LAYER_RECORD says what to record. */
#define GP_LAYER_COVER_MIN 0.5
#define GP_LAYER_RECORD                                                                     \
	"Record which layer each kernel runs in, then run gpuprof again: with torch.profiler, " \
	"profile(with_modules=True) for the nn.Module path of every op (or record_function "    \
	"ranges around your blocks); under Nsight Systems, NVTX ranges named \"layer:NAME\" "   \
	"around each block (torch.cuda.nvtx.range_push, or gp_push(\"layer:NAME\") with "       \
	"libgpuprof), which nest into a path."

/* The deepest level the views cut at; deeper paths read whole at "all". */
#define GP_LAYER_VIEWS_DEPTH 8

/* The group of kernel attribution a under the cut c (NULL: the path as
** it is): its cut layer path, else (no layer, or none left after the
** cut) the graph group of a replayed kernel whose layer is unknown
** (attr_graph.h), else 0 (no layer).  The one key every command that
** groups kernels by layer uses. */
gp_str gp_layer_group_of(gp_trace *t, struct gp_layer_cut *c, const struct gp_attr *a);

/* One group of a view: kernels of one key and their time. */
struct gp_layer_group {
	gp_str name;            /* 0: no layer */
	int64_t ns;             /* sum of the kernels' durations (end - start, 0 when damaged) */
	uint64_t count;
};

/* One view: the groups of one way of reading the paths, longest first
** (equal times: by name id, so the order is reproducible). */
struct gp_layer_view_groups {
	struct gp_layer_view v;         /* depth 0: whole paths / the innermost type */
	GP_VEC(struct gp_layer_group) g;
};

struct gp_layer_views {
	int depth;              /* components of the longest path, at most GP_LAYER_VIEWS_DEPTH */
	int64_t gpu_ns;         /* every kernel's time */
	int64_t layer_ns;       /* the time of kernels with a layer path (not graph groups) */
	/* by path then by module type, each at depth 1 .. depth - 1 then 0
	** ("all"); 2 * depth views (none when no kernel has a layer) */
	struct gp_layer_view_groups *v;
	size_t n;
};

/* Builds the views of t's kernels (t->attrs filled; without: no views,
** every kernel's time in gpu_ns) into out. */
void gp_layer_views_build(gp_trace *t, struct gp_layer_views *out);

/* What to record for the views to say where the time goes (GP_LAYER_RECORD)
** when layers cover under GP_LAYER_COVER_MIN of the kernels' time (or
** none: no kernel), else NULL. */
const char *gp_layer_views_record(const struct gp_layer_views *v);

void gp_layer_views_free(struct gp_layer_views *v);

/* The kept rows of lv (t's views) over gp_kgroup_cols (analysis/groups.h;
** parts its reader skips): one "lviews" row (name: depth, params: layer_ns,
** ns: gpu_ns, count: kernels), then per view and group one "lview" row
** (name: "path:D" or "module-type:D", params: the group's name, none for
** no layer; ns, count).  A trace whose kernels have no layer path keeps
** its one view of whole paths (graph groups, else no layer) as "path:0". */
void gp_layer_views_put(const struct gp_layer_views *lv, gp_trace *t, gp_writer *w);

/* The views of several ranks summed: gp_layer_views_job_init, then
** gp_layer_views_job_add for each rank's rows (gp_layer_views_put's,
** among other parts), then gp_layer_views_job_end, which fills lv: depth
** the ranks' largest, gpu_ns and layer_ns their sums, and for each view of
** that depth each group's time and kernels over the ranks (a rank whose
** paths are shallower than a view's depth gives its whole paths; one
** without paths gives its one view to every view), longest first, equal
** times by name id (the order names were first read).  Names are ids into names. */
struct gp_layer_views_job {
	gp_strtab names;
	struct gp_layer_views lv;
	struct gp_lvj_rank *ranks;      /* each rank's views as read */
	size_t nranks;
};
void gp_layer_views_job_init(struct gp_layer_views_job *j);
/* False when a row of rb is damaged (*at: the byte where reading stopped). */
bool gp_layer_views_job_add(struct gp_layer_views_job *j, const struct gp_rowbuf *rb, size_t *at);
void gp_layer_views_job_end(struct gp_layer_views_job *j);
void gp_layer_views_job_free(struct gp_layer_views_job *j);

#endif
