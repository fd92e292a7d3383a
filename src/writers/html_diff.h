/*
** The HTML comparison page of two runs (`gpuprof diff -f html`): the
** html-diff sink (sink.h) takes a gp_diff_page through gp_analysis.diff.
** The page is share/html/diff.html with the report's style, its own script
** (diff.js) and the charting library inlined, and the comparison as one
** JSON document (docs/diff.md, "The HTML page"): what changed in the
** runs' setups first (diff_facts.h), then the verdict and the times.
**
** Ownership: a page only points to what the command owns (the comparison,
** the runs' step times, the gates' results); they outlive the write.
*/
#ifndef GP_HTML_DIFF_H
#define GP_HTML_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/diff.h"
#include "analysis/diff_facts.h"

struct gp_diff_page {
	const char *base, *test;          /* the runs as named on the command line */
	const struct gp_diff *diff;       /* under the grouping shown */
	const int64_t *step[2];           /* each run's step time per iteration (ns) */
	size_t nstep[2];
	const struct gp_diff_gate_result *gates;
	size_t ngates;
	double threshold;                 /* --threshold, a fraction */
	size_t top;                       /* groups in the table (the new and gone ones are all listed) */
	const struct gp_diff_facts *facts;  /* [2]: each run's setup, said first; NULL: not read */
};

#endif
