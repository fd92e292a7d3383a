/*
** The advise report for people: the GPU and time totals, then each
** finding with its time at stake (and the time it shares with larger
** findings, counted there), evidence and change, wrapped at 78 columns.
** A sink: it needs the findings (GP_NEED_FINDINGS) and the path.
*/
#include <string.h>

#include "analysis/analysis.h"
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

static int advise_write(gp_sink *s, const struct gp_sink_input *in, gp_error *err)
{
	FILE *out = s->out;
	char d[64], d2[64], of[48];

	if (!in->an || !gp_analysis_has(in->an, GP_NEED_FINDINGS))
		return gp_err(err, GP_ERR_USAGE, "the advise output needs the findings");
	const struct gp_findings *f = &in->an->findings;
	fprintf(out, "gpuprof advise: %s\n", in->path);
	fprintf(out, "GPU %s, %s of kernel time over a %s span\n", f->gpu ? f->gpu : "unknown (use --gpu)",
		gp_fmt_duration(f->gpu_ns, d, sizeof(d)), gp_fmt_duration(f->span_ns, d2, sizeof(d2)));
	if (!f->v.n) {
		fprintf(out, "\nNo findings: nothing above the thresholds.\n");
		return GP_OK;
	}
	if (f->devices > 1)
		snprintf(of, sizeof(of), "of %d GPUs x the span", f->devices);
	else
		snprintf(of, sizeof(of), "of the span");
	for (size_t i = 0; i < f->v.n && i < s->opts.top; i++) {
		const struct gp_finding *x = &f->v.v[i];
		fprintf(out, "\n%2zu. %s\n", i + 1, x->title);
		fprintf(out, "     at stake: about %s (%.1f%% %s)  [%s]\n", gp_fmt_duration(x->ns, d, sizeof(d)),
			f->capacity_ns > 0 ? 100 * x->ns / f->capacity_ns : 0.0, of, x->kind);
		if (x->overlap_ns > 0)
			fprintf(out, "     shared:   %s more, counted above under [%s]\n",
				gp_fmt_duration(x->overlap_ns, d, sizeof(d)), x->overlaps);
		wrap(out, "evidence: ", x->evidence);
		wrap(out, "change:   ", x->change);
	}
	return GP_OK;
}

const struct gp_sink_ops gp_sink_advise_text = {
	.name = "advise-text",
	.help = "ranked findings with evidence and change, for people",
	.write = advise_write,
};
