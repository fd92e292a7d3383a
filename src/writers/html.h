/*
** The HTML report sink's interface for its command (docs/html.md).  The
** page of one trace formats the analysis runner's results of GP_HTML_NEEDS
** (the runner's timeline at GP_HTML_BUCKETS buckets).  Over several ranks
** ("Several ranks"), a command of many files reduces each rank's trace, on
** the worker that read it, to its part of the page: its input object (JSON
** text, as the page of one file has it, without the tables,
** gp_html_input) and its kernel groups as kept rows (gp_kgroups_put,
** analysis/groups.h), then frees the trace.  The html sink then writes one
** page from the parts of every rank (gp_sink_input.job): the ranks
** compared (their records, analysis/ranks.h: steps, and who the others
** waited for at collectives) and the groups of every rank, or of one,
** summed by name (gp_kgroups_add_rows).
**
** Ownership: a gp_html_job and its ranks point to what the command owns
** (paths, the input texts, the kept rows, the records, the summed groups).
*/
#ifndef GP_HTML_H
#define GP_HTML_H

#include <stdio.h>

#include "analysis/analysis.h"
#include "analysis/coll_a2a.h"
#include "analysis/jobpath.h"
#include "writers/writer.h"
#include "writers/sink.h"

/* The results a page of one trace shows. */
#define GP_HTML_NEEDS                                                                      \
	(GP_NEED_OPS | GP_NEED_BREAKDOWN | GP_NEED_TOP_GAPS | GP_NEED_MEMORY | GP_NEED_FINDINGS | \
	 GP_NEED_GROUPS | GP_NEED_TIMELINE | GP_NEED_CRITPATH | GP_NEED_PHASES | GP_NEED_STEPS |   \
	 GP_NEED_COMM_OVERLAP | GP_NEED_LAYER_VIEWS)

/* Buckets of the page's busy timeline and memory series. */
#define GP_HTML_BUCKETS 400

/* Writes the input object of a's trace (loaded from path; an analysis of
** GP_HTML_NEEDS) to out as JSON, tables of top rows (-n, SIZE_MAX: the
** page's default): what the page of one file shows but the layer, op,
** kernel and roofline tables. */
void gp_html_input(FILE *out, const char *path, const struct gp_analysis *a, size_t top);

/* One rank's part, as its worker left it. */
struct gp_html_rank {
	const char *path;
	struct gp_rank_id id;                   /* completed by gp_ranks_order */
	const char *input;                      /* gp_html_input's text */
};

/* The page over ranks[0..n) (rank order, n >= 1): their records compared
** in cmp (its rec[i] is ranks[i]'s: steps, time sums, collectives and the
** straggler by arrival); the tables and roofline show groups, the groups
** of every rank or only of rank only_rank when >= 0, summed. */
struct gp_html_job {
	const struct gp_html_rank *ranks;
	size_t n;
	const struct gp_rank_job *cmp;
	int32_t only_rank;
	const struct gp_kgroups *groups;
	const struct gp_job_path *path;   /* the job's critical path across ranks;
					  ** NULL: not computed (the page says so) */
	const struct gp_findings *findings;   /* the job's, as advise DIR gives
					      ** them (gp_advise_job, then
					      ** gp_advise_job_ranks); NULL: none */
	const struct gp_a2a *a2a;       /* the job's all-to-all (gp_a2a_of_job);
					** NULL: not computed */
	const struct gp_layer_views_job *layer_views;   /* the ranks' layer views
							** summed (analysis/layer_views.h);
							** NULL: none */
};

#endif
