/*
** The html-diff sink: the comparison of two runs as one self-contained page
** (html_diff.h, docs/diff.md).  The page is share/html/diff.html with the
** report's style, diff.js and the charting library inlined, and the
** comparison as one JSON document in a <script type="application/json">
** element that diff.js reads and draws.  Every name from the traces goes
** through gp_json_string_html: no text can end the element or reach markup.
** The document is bounded: the step and total rows, -n groups, the new and
** gone groups, one step time per iteration of each run.
*/
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "util/demangle.h"
#include "writers/html_assets.h"
#include "writers/html_common.h"
#include "writers/html_diff.h"
#include "writers/sink.h"
#include "writers/writer.h"

/* A JSON number; JSON has no inf or nan: null. */
static void number(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, "%.17g", v);
	else
		fputs("null", out);
}

/* A row's figures of one run as shown: its per-iteration median with
** statistics, else its total. */
static double shown(const struct gp_diff_row *r, const struct gp_diff_run *run)
{
	return r->has_ci ? run->med : (double)run->total;
}

static void write_row(FILE *out, const struct gp_diff *d, const struct gp_diff_row *r)
{
	const struct gp_diff_run *run[2] = {&r->base, &r->test};

	fputs("{\"kind\":", out);
	gp_json_string_html(out, gp_diff_kind_names[r->kind]);
	fputs(",\"status\":", out);
	gp_json_string_html(out, gp_diff_status_names[r->status]);
	fputs(",\"verdict\":", out);
	gp_json_string_html(out, gp_diff_verdict_names[r->verdict]);
	fputs(",\"name\":", out);
	const char *name = gp_strtab_get(&d->strs, r->name);
	gp_json_string_html(out, name);
	if (d->by == GP_DIFF_BY_KERNEL && r->kind == GP_DIFF_ROW_GROUP) {
		/* the kernel's short name (diff --base's), the page's label */
		char buf[512];
		const char *brief = gp_kernel_short_name(name, buf, sizeof(buf));
		if (strcmp(brief, name) != 0) {
			fputs(",\"short\":", out);
			gp_json_string_html(out, brief);
		}
	}
	for (int s = 0; s < 2; s++) {
		fputs(s ? ",\"test\":" : ",\"base\":", out);
		number(out, shown(r, run[s]));
	}
	fputs(",\"change\":", out);
	number(out, r->change);
	fputs(",\"rel\":", out);
	number(out, r->rel);
	if (r->has_ci) {
		fputs(",\"ci\":[", out);
		number(out, r->ci_lo);
		fputc(',', out);
		number(out, r->ci_hi);
		fputc(']', out);
	} else {
		fputs(",\"ci\":null", out);
	}
	fprintf(out, ",\"calls\":[%" PRIu64 ",%" PRIu64 "],\"tc\":[", r->base.calls, r->test.calls);
	for (int s = 0; s < 2; s++) {
		const char *tc = gp_diff_tc_names[run[s]->tc];
		if (s)
			fputc(',', out);
		if (tc)
			gp_json_string_html(out, tc);
		else
			fputs("null", out);
	}
	fputs("],\"eff\":[", out);
	number(out, r->base.eff >= 0 ? r->base.eff : NAN);
	fputc(',', out);
	number(out, r->test.eff >= 0 ? r->test.eff : NAN);
	fputs("]}", out);
}

/* The rows of d whose status is status (new or gone), all of them. */
static void write_status_rows(FILE *out, const struct gp_diff *d, int status)
{
	bool first = true;

	fputc('[', out);
	for (size_t i = d->lead; i < d->n; i++) {
		if (d->rows[i].status != status)
			continue;
		if (!first)
			fputc(',', out);
		first = false;
		write_row(out, d, &d->rows[i]);
	}
	fputc(']', out);
}

/* "setup": each fact of the runs' setups (diff_facts.h) as {name, base,
** test, changed}, "" where a trace does not state it; changed by
** gp_diff_fact_changed, the rule of the table output's "What changed". */
static void write_setup(FILE *out, const struct gp_diff_facts *f)
{
	fputs(",\"setup\":[", out);
	for (int i = 0; f && i < GP_FACT__COUNT; i++) {
		fputs(i ? ",{\"name\":" : "{\"name\":", out);
		gp_json_string_html(out, gp_diff_fact_names[i]);
		fputs(",\"base\":", out);
		gp_json_string_html(out, f[0].v[i]);
		fputs(",\"test\":", out);
		gp_json_string_html(out, f[1].v[i]);
		fprintf(out, ",\"changed\":%s}", gp_diff_fact_changed(&f[0], &f[1], i) ? "true" : "false");
	}
	fputc(']', out);
}

/* The JSON document (docs/diff.md, "The HTML page"). */
static int write_data(FILE *out, const void *ctx, gp_error *err)
{
	const struct gp_diff_page *pg = ctx;
	const struct gp_diff *d = pg->diff;
	size_t shown_rows = pg->top < d->n - d->lead ? pg->top + d->lead : d->n;

	fputs("{\"tool\":\"gpuprof\",\"page\":\"diff\",\"base\":", out);
	gp_json_string_html(out, pg->base);
	fputs(",\"test\":", out);
	gp_json_string_html(out, pg->test);
	fputs(",\"by\":", out);
	gp_json_string_html(out, gp_diff_by_names[d->by]);
	write_setup(out, pg->facts);
	fprintf(out, ",\"stats\":%s,\"threshold\":", d->stats ? "true" : "false");
	number(out, pg->threshold);
	fprintf(out, ",\"iters\":[%zu,%zu],\"ranks\":[%zu,%zu],\"groups\":%zu,\"steps\":[", d->base_iters,
		d->test_iters, d->base_ranks, d->test_ranks, d->n - d->lead);
	for (int s = 0; s < 2; s++) {
		fputs(s ? ",[" : "[", out);
		for (size_t i = 0; i < pg->nstep[s]; i++)
			fprintf(out, "%s%" PRId64, i ? "," : "", pg->step[s][i]);
		fputc(']', out);
	}
	fputs("],\"rows\":[", out);
	for (size_t i = 0; i < shown_rows; i++) {
		if (i)
			fputc(',', out);
		write_row(out, d, &d->rows[i]);
	}
	fputs("],\"appeared\":", out);
	write_status_rows(out, d, GP_DIFF_NEW);
	fputs(",\"disappeared\":", out);
	write_status_rows(out, d, GP_DIFF_GONE);
	fputs(",\"gates\":[", out);
	for (size_t i = 0; i < pg->ngates; i++) {
		fputs(i ? ",{\"text\":" : "{\"text\":", out);
		gp_json_string_html(out, pg->gates[i].text);
		fprintf(out, ",\"trips\":%zu,\"first\":", pg->gates[i].trips);
		gp_json_string_html(out, pg->gates[i].first);
		fputc('}', out);
	}
	fputs("]}", out);
	(void)err;
	return GP_OK;
}

static int html_diff_write(gp_sink *s, const struct gp_sink_input *in, gp_error *err)
{
	const struct gp_html_part parts[] = {
		{"style", gp_html_style, gp_html_style_len, NULL, NULL},
		{"library", s->opts.script, s->opts.script_len, NULL, NULL},
		{"data", NULL, 0, write_data, in->diff},
		{"common", gp_html_common_script, gp_html_common_script_len, NULL, NULL},
		{"script", gp_html_diff_script, gp_html_diff_script_len, NULL, NULL},
	};

	if (!in->diff || !in->diff->diff)
		return gp_err(err, GP_ERR_USAGE, "html-diff: no comparison");
	if (!s->opts.script)
		return gp_err(err, GP_ERR_USAGE, "html-diff: no charting library");
	if (gp_html_ends_script(s->opts.script, s->opts.script_len))
		return gp_err(err, GP_ERR_FORMAT, "html-diff: the charting library contains '</script': not inlined");
	return gp_html_fill(s->out, (const char *)gp_html_diff_template, gp_html_diff_template_len, parts,
			    sizeof(parts) / sizeof(parts[0]), err);
}

const struct gp_sink_ops gp_sink_html_diff = {
	.name = "html-diff",
	.help = "a self-contained HTML page comparing two runs (gpuprof diff -f html)",
	.write = html_diff_write,
};
