/*
** The HTML report over several ranks (docs/html.md, "Several ranks").  A
** command of many files reduces each rank's trace, on the worker that read
** it, to its part of the page: its input object (JSON text, as the page of
** one file has it, without the tables) and its kernel groups as kept rows
** (a rowbuf over gp_html_part_cols), then frees the trace.  The html sink
** then writes one page from the parts of every rank (gp_analysis.job): the
** ranks compared (their records, analysis/ranks.h) and the groups of every
** rank, or of one, summed by name.
**
** Ownership: a gp_html_job and its ranks point to what the command owns
** (paths, the input texts, the kept rows, the records).
*/
#ifndef GP_HTML_H
#define GP_HTML_H

#include <stdio.h>

#include "analysis/ranks.h"
#include "writers/rowbuf.h"
#include "writers/sink.h"
#include "writers/writer.h"

/* The kept rows of a rank's part: "layer", "op", "shape" and "kernel"
** groups (part, name, params, ns, count, flops, bytes, known_ns,
** peak_flops, peak_bw; exact sums, doubles as %.17g); the command may keep
** other parts in them (its "input" row), which the sink skips. */
#define GP_HTML_PART_NCOLS 10
extern const struct gp_column gp_html_part_cols[GP_HTML_PART_NCOLS];

/* Writes a's input object (trace, opres, peaks, findings, memory and
** breakdown set) to out as JSON: what the page of one file shows but the
** layer, op, kernel and roofline tables. */
void gp_html_input(FILE *out, const struct gp_analysis *a);

/* Writes a's kernels grouped by layer, op, op and shapes, and kernel name
** to w, one row per group over gp_html_part_cols. */
void gp_html_groups(const struct gp_analysis *a, gp_writer *w);

/* One rank's part, as its worker left it. */
struct gp_html_rank {
	const char *path;
	struct gp_rank_id id;                   /* completed by gp_ranks_order */
	const char *input;                      /* gp_html_input's text */
	const struct gp_rowbuf *parts;          /* gp_html_groups' rows */
	const struct gp_rank_record *record;    /* its steps and time sums */
};

/* The page over ranks[0..n) (rank order, n >= 1): the tables and roofline
** sum the groups of every rank, or only of rank only_rank when >= 0. */
struct gp_html_job {
	const struct gp_html_rank *ranks;
	size_t n;
	int32_t only_rank;
};

#endif
