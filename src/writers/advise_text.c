/*
** The advise report for people: the GPU, its span and busy time (the
** denominators of every percentage), then the notices (what the trace
** cannot tell), then each finding with the time its change saves beyond
** the changes above it (and alone, when that differs: what it shares
** with the changes above),
** evidence and change, wrapped at 78 columns.
** A sink: it needs the findings (GP_NEED_FINDINGS) and the path.
*/
#include <math.h>
#include <string.h>

#include "analysis/advise_texts.h"
#include "analysis/analysis.h"
#include "writers/advise_text.h"
#include "writers/sink.h"
#include "writers/writer.h"

/* Writes s after indent and label, wrapped at 78 columns; continuation
** lines are indented two more. */
static void wrap(FILE *out, const char *label, const char *s)
{
	const char *indent = "     ";
	int col = fprintf(out, "%s%s", indent, label);

	while (*s) {
		const char *sp = strchr(s, ' ');
		int w = sp ? (int)(sp - s) : (int)strlen(s);
		if (col + w > 78 && col > (int)strlen(indent) + (int)strlen(label)) {
			fprintf(out, "\n%s  ", indent);
			col = (int)strlen(indent) + 2;
		}
		col += fprintf(out, "%.*s", w, s);
		s += w;
		while (*s == ' ')
			s++;
		if (*s)
			col += fprintf(out, " ");
	}
	fputc('\n', out);
}

/* Finding x of f for people: its title after pos (0: a notice, "!."), the
** time its change saves as a share of f's span (named span) and per step,
** what it shares with the findings above, its evidence and change. */
static void write_finding(FILE *out, size_t pos, const struct gp_finding *x, const struct gp_findings *f,
			  const char *span)
{
	char d[64];

	if (!pos) {
		fprintf(out, "\n !. %s\n", x->title);
	} else {
		fprintf(out, "\n%2zu. %s\n", pos, x->title);
		fprintf(out, "     saves:    about %s (%.1f%% of %s", gp_fmt_duration(x->ns, d, sizeof(d)),
			f->span_ns > 0 ? 100 * x->ns / f->span_ns : 0.0, span);
		if (f->steps > 1)
			fprintf(out, "; %s per step", gp_fmt_duration(x->ns / (double)f->steps, d, sizeof(d)));
		fprintf(out, ")");
		/* beyond the changes above it, it saves other than alone */
		if (fabs(x->alone_ns - x->ns) > 1e-3 * f->span_ns)
			fprintf(out, "; alone %s%s", gp_fmt_duration(x->alone_ns, d, sizeof(d)),
				x->ns > x->alone_ns ? ", the rest with the changes above" : "");
		fprintf(out, "  [%s]\n", x->kind);
		if (x->overlap_ns > 0)
			fprintf(out, "     shared:   %s more alone, saved too by the changes above%s%s%s\n",
				gp_fmt_duration(x->overlap_ns, d, sizeof(d)), *x->overlaps ? " [" : "",
				x->overlaps, *x->overlaps ? "]" : "");
		/* a saving above the idle it names is not an error of the model */
		if (x->idle && x->ns - x->total_ns > 1e-3 * f->span_ns) {
			char why[256];
			snprintf(why, sizeof(why), "%s more than this idle: with these waits gone, work is issued "
				 "earlier and also covers gaps of other causes (the dependency replay)",
				 gp_fmt_duration(x->ns - x->total_ns, d, sizeof(d)));
			wrap(out, "beyond:   ", why);
		}
	}
	wrap(out, "evidence: ", x->evidence);
	wrap(out, "change:   ", x->change);
}

static int advise_write(gp_sink *s, const struct gp_sink_input *in, gp_error *err)
{
	FILE *out = s->out;
	char d[64], d2[64], d3[64];
	size_t shown = 0;

	if (!in->an || !gp_analysis_has(in->an, GP_NEED_FINDINGS))
		return gp_err(err, GP_ERR_USAGE, "the advise output needs the findings");
	const struct gp_findings *f = &in->an->findings;
	/* the denominators every percentage below uses */
	fprintf(out, "gpuprof advise: %s\n", in->path);
	fprintf(out, "GPU %s", f->gpu ? f->gpu : "unknown (use --gpu)");
	if (f->devices > 1)
		fprintf(out, " x %d", f->devices);
	fprintf(out, ": GPU span %s, busy %s (%.1f%%), %s of kernel time", gp_fmt_duration(f->span_ns, d, sizeof(d)),
		gp_fmt_duration(f->busy_ns, d2, sizeof(d2)),
		f->span_ns > 0 ? 100 * f->busy_ns / (f->span_ns * (f->devices > 1 ? f->devices : 1)) : 0.0,
		gp_fmt_duration(f->gpu_ns, d3, sizeof(d3)));
	if (f->steps)
	{
		fprintf(out, "; %zu step%s, median %s", f->steps, f->steps == 1 ? "" : "s",
			gp_fmt_duration(f->step_ns, d, sizeof(d)));
		if (f->step_gpu_ns > 0)
			fprintf(out, " (GPU span %s)", gp_fmt_duration(f->step_gpu_ns, d, sizeof(d)));
	}
	fputc('\n', out);
	for (size_t i = 0; i < f->v.n && shown < s->opts.top; i++)
		write_finding(out, f->v.v[i].first ? 0 : ++shown, &f->v.v[i], f, "the GPU span");
	if (!shown)
		fprintf(out, "\nNo change found that saves more than 0.1%% of the GPU span%s.\n",
			f->v.n ? " (see the notice above)" : "");
	return GP_OK;
}

void gp_advise_text_job(FILE *out, const struct gp_findings *f, size_t nranks)
{
	char d[64];
	size_t shown = 0;

	if (!f->v.n)
		return;
	fprintf(out, "Across %zu ranks: the job's GPU span %s (its longest rank's)\n", nranks,
		gp_fmt_duration(f->span_ns, d, sizeof(d)));
	if (nranks > 1)
		wrap(out, "", JOB_RANK_NOTE);
	for (size_t i = 0; i < f->v.n; i++)
		write_finding(out, f->v.v[i].first ? 0 : ++shown, &f->v.v[i], f, "the job's GPU span");
	fputc('\n', out);
}

const struct gp_sink_ops gp_sink_advise_text = {
	.name = "advise-text",
	.help = "ranked findings with evidence and change, for people",
	.write = advise_write,
};
