/*
** The advise report for people (the advise-text sink, sink.h) and the
** block of a job's findings that advise over several rank files writes
** before each rank's report.
**
** Ownership: writes only; the findings stay the caller's.
*/
#ifndef GP_ADVISE_TEXT_H
#define GP_ADVISE_TEXT_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/advise.h"

/* Writes the findings f of a job of nranks ranks (gp_advise_job) to out
** as the advise-text sink writes a trace's, under a header naming the
** denominator (f->span_ns, the job's GPU span), then an empty line;
** nothing when f holds no finding. */
void gp_advise_text_job(FILE *out, const struct gp_findings *f, size_t nranks);

#endif
