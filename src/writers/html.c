/*
** The HTML report sink: one self-contained page (docs/html.md).  The page
** is the template share/html/report.html with its style, its script and
** the charting library inlined, and the analysis as one JSON document in a
** <script type="application/json"> element, which the page's script reads
** and draws.  Everything here is aggregated (top N + "other", a bucketed
** timeline, at most HTML_POINTS roofline points), so the page stays small
** whatever the trace's size.  Every string from the trace goes through
** gp_json_string_html: no trace text can end the element or reach markup.
**
** The document holds a list of inputs, one object each, so a page that
** compares traces (several files, a diff) adds objects, not a format.
*/
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/breakdown.h"
#include "analysis/memory.h"
#include "ops/advise.h"
#include "ops/ops.h"
#include "util/u64map.h"
#include "writers/html_assets.h"
#include "writers/sink.h"
#include "writers/timeline.h"
#include "writers/writer.h"

#define HTML_TOP 25         /* table rows when -n is not given */
#define HTML_POINTS 1000    /* roofline points at most */
#define HTML_BUCKETS 400    /* timeline and memory buckets */
#define HTML_ITERS 200      /* iterations per GPU in the charts; more are merged */

/* Kernels grouped by a name (a layer, an op, an op with its shapes, a
** kernel name): exact sums of their time and modelled work. */
struct group {
	uint64_t key;
	gp_str name, params;
	int64_t ns;
	uint64_t count;
	double flops, bytes;    /* of the kernels whose FLOPs and bytes are both known */
	int64_t known_ns;       /* their time */
	size_t first;           /* first kernel: the group's peaks */
};

struct groups {
	GP_VEC(struct group) v;
	gp_u64map at;
};

/* The group for key (created with name and params when new). */
static struct group *group_of(struct groups *g, uint64_t key, gp_str name, gp_str params, size_t k)
{
	int32_t i = gp_u64map_add(&g->at, key, (int32_t)g->v.n);

	if (i == (int32_t)g->v.n)
		*gp_vec_push(g->v) = (struct group){.key = key, .name = name, .params = params, .first = k};
	return &g->v.v[i];
}

static void group_add(struct group *x, const gp_trace *t, const struct gp_opres *r, size_t k)
{
	const struct gp_kernel *kr = &t->kernels.v[k];
	int64_t ns = kr->end > kr->start ? kr->end - kr->start : 0;

	x->ns += ns;
	x->count++;
	if (r && r[k].flops >= 0 && r[k].bytes >= 0) {
		x->flops += r[k].flops;
		x->bytes += r[k].bytes;
		x->known_ns += ns;
	}
}

/* Longest first; equal times by key so the page is reproducible. */
static int cmp_group(const void *pa, const void *pb)
{
	const struct group *a = pa, *b = pb;

	if (a->ns != b->ns)
		return a->ns > b->ns ? -1 : 1;
	return (a->key > b->key) - (a->key < b->key);
}

static void groups_free(struct groups *g)
{
	gp_vec_free(g->v);
	gp_u64map_free(&g->at);
}

/* The page's JSON writer: commas between members and elements. */
struct doc {
	FILE *out;
	const gp_trace *t;
	bool first;             /* no member written yet in the open object/array */
};

static void sep(struct doc *d)
{
	if (!d->first)
		fputc(',', d->out);
	d->first = false;
}

static void key(struct doc *d, const char *k)
{
	sep(d);
	fprintf(d->out, "\"%s\":", k);
}

/* Opens an object ('{') or array ('[') as member k, or as the next
** element when k is NULL. */
static void open_c(struct doc *d, const char *k, char c)
{
	if (k)
		key(d, k);
	else
		sep(d);
	fputc(c, d->out);
	d->first = true;
}

static void close_c(struct doc *d, char c)
{
	fputc(c, d->out);
	d->first = false;
}

static void str(struct doc *d, const char *k, const char *v)
{
	key(d, k);
	gp_json_string_html(d->out, v ? v : "");
}

static void tstr(struct doc *d, const char *k, gp_str v)
{
	str(d, k, gp_s(d->t, v));
}

static void i64(struct doc *d, const char *k, int64_t v)
{
	key(d, k);
	fprintf(d->out, "%" PRId64, v);
}

/* A double; JSON has no inf or nan: null. */
static void dbl(struct doc *d, const char *k, double v)
{
	key(d, k);
	if (isfinite(v))
		fprintf(d->out, "%.17g", v);
	else
		fputs("null", d->out);
}

static void write_facts(struct doc *d, const struct gp_analysis *an)
{
	const gp_trace *t = d->t;
	gp_ns first = 0, last = 0;
	int64_t gpu_ns = 0;

	for (size_t k = 0; k < t->kernels.n; k++)
		if (t->kernels.v[k].end > t->kernels.v[k].start)
			gpu_ns += t->kernels.v[k].end - t->kernels.v[k].start;
	gp_trace_span(t, &first, &last);
	str(d, "path", an->path);
	tstr(d, "format", t->format);
	i64(d, "kernels", (int64_t)t->kernels.n);
	i64(d, "copies", (int64_t)t->memcpys.n);
	i64(d, "memsets", (int64_t)t->memsets.n);
	i64(d, "apis", (int64_t)t->apis.n);
	i64(d, "start", first);
	i64(d, "end", last);
	i64(d, "gpu_ns", gpu_ns);
	i64(d, "top", (int64_t)(an->top == SIZE_MAX ? HTML_TOP : an->top));
	open_c(d, "devices", '[');
	for (size_t i = 0; i < t->devices.n; i++) {
		const struct gp_device *dv = &t->devices.v[i];
		const struct gp_gpu *g = an->peaks && an->peaks->gpu ? an->peaks->gpu : gp_gpu_for_device(t, dv);
		open_c(d, NULL, '{');
		i64(d, "id", dv->id);
		tstr(d, "name", dv->name);
		str(d, "gpu", g ? g->name : NULL);
		i64(d, "sm", dv->sm_count);
		if (g) {
			dbl(d, "fp32", g->fp32 * 1e12);
			dbl(d, "fp16", g->fp16 * 1e12);
			dbl(d, "bw", g->bw * 1e9);
		}
		close_c(d, '}');
	}
	close_c(d, ']');
	open_c(d, "notes", '[');
	for (size_t i = 0; i < t->warnings.n; i++) {
		sep(d);
		gp_json_string_html(d->out, gp_s(t, t->warnings.v[i]));
	}
	close_c(d, ']');
}

static void write_window(struct doc *d, const struct gp_bd_window *w, int32_t iter_last, size_t iters)
{
	open_c(d, NULL, '{');
	i64(d, "device", w->device);
	i64(d, "iter", w->iter);
	i64(d, "iter_last", iter_last);
	i64(d, "iters", (int64_t)iters);
	i64(d, "start", w->start);
	i64(d, "end", w->end);
	i64(d, "compute", w->by_mask[GP_BD_COMPUTE]);
	i64(d, "comm", w->by_mask[GP_BD_COMM]);
	i64(d, "memory", w->by_mask[GP_BD_MEMORY]);
	i64(d, "overlap", gp_bd_busy(w) - w->by_mask[GP_BD_COMPUTE] - w->by_mask[GP_BD_COMM] -
			  w->by_mask[GP_BD_MEMORY]);
	i64(d, "idle", w->by_mask[0]);
	i64(d, "kernels", (int64_t)w->kernels);
	open_c(d, "causes", '[');
	for (int c = 0; c < GP_IDLE__COUNT; c++) {
		sep(d);
		fprintf(d->out, "%" PRId64, w->idle[c]);
	}
	close_c(d, ']');
	close_c(d, '}');
}

/* Per device, the whole trace, then its iterations: the span split into
** compute, communication and memory work alone, overlapped work and idle
** time (sums to the span exactly), and idle time by cause.  More than
** HTML_ITERS iterations are merged, consecutive ones, into HTML_ITERS
** groups or fewer (sums of their windows: iters says how many); then the
** longest idle gaps. */
static void write_breakdown(struct doc *d, const gp_breakdown *b)
{
	open_c(d, "idle_causes", '[');
	for (int c = 0; c < GP_IDLE__COUNT; c++) {
		sep(d);
		gp_json_string_html(d->out, gp_idle_cause_name(c));
	}
	close_c(d, ']');
	open_c(d, "breakdown", '[');
	for (size_t i = 0; b && i < b->nwin;) {
		size_t n = 1;
		if (b->win[i].iter < 0) {
			write_window(d, &b->win[i], -1, 1);
			i++;
			continue;
		}
		while (i + n < b->nwin && b->win[i + n].device == b->win[i].device && b->win[i + n].iter >= 0)
			n++;
		size_t per = (n + HTML_ITERS - 1) / HTML_ITERS;
		for (size_t j = 0; j < n; j += per) {
			struct gp_bd_window w = b->win[i + j];
			size_t m = j + per <= n ? per : n - j;
			for (size_t k = 1; k < m; k++)
				gp_bd_window_merge(&w, &b->win[i + j + k]);
			write_window(d, &w, b->win[i + j + m - 1].iter, m);
		}
		i += n;
	}
	close_c(d, ']');
	open_c(d, "gaps", '[');
	for (size_t i = 0; b && i < b->ngaps; i++) {
		const struct gp_bd_gap *g = &b->gaps[i];
		open_c(d, NULL, '{');
		i64(d, "device", g->device);
		i64(d, "iter", g->iter);
		i64(d, "start", g->start);
		i64(d, "ns", g->end - g->start);
		str(d, "cause", gp_idle_cause_name(g->cause));
		str(d, "context", g->context);
		close_c(d, '}');
	}
	close_c(d, ']');
}

/* Writes the top groups of g (sorted) as rows, then one "other" row for
** the rest; work: with their FLOPs and bytes. */
static void write_groups(struct doc *d, const char *k, const struct groups *g, size_t top, bool work)
{
	const gp_trace *t = d->t;
	struct group other = {0};
	size_t rest = 0;

	open_c(d, k, '[');
	for (size_t i = 0; i < g->v.n; i++) {
		const struct group *x = &g->v.v[i];
		if (i >= top) {
			other.ns += x->ns;
			other.count += x->count;
			rest++;
			continue;
		}
		open_c(d, NULL, '{');
		str(d, "name", gp_known_text(gp_s(t, x->name)) ? gp_s(t, x->name) : "(none)");
		i64(d, "ns", x->ns);
		i64(d, "count", (int64_t)x->count);
		if (work) {
			dbl(d, "flops", x->flops);
			dbl(d, "bytes", x->bytes);
			i64(d, "known_ns", x->known_ns);
		}
		close_c(d, '}');
	}
	if (rest) {
		open_c(d, NULL, '{');
		str(d, "name", "other");
		i64(d, "ns", other.ns);
		i64(d, "count", (int64_t)other.count);
		i64(d, "groups", (int64_t)rest);
		close_c(d, '}');
	}
	close_c(d, ']');
}

/* The roofline's points: ops with their shapes (op, params) whose FLOPs
** and bytes are known and not 0, the HTML_POINTS longest, each with the
** peaks of its first kernel. */
static void write_roofline(struct doc *d, const struct gp_analysis *an, const struct groups *g)
{
	const gp_trace *t = d->t;
	size_t n = 0;

	open_c(d, "roofline", '[');
	for (size_t i = 0; i < g->v.n && n < HTML_POINTS; i++) {
		const struct group *x = &g->v.v[i];
		double pf, pbw;
		if (!(x->flops > 0 && x->bytes > 0 && x->known_ns > 0))
			continue;
		gp_kernel_peaks(t, x->first, an->opres ? &an->opres[x->first] : NULL, an->peaks, &pf, &pbw);
		open_c(d, NULL, '{');
		str(d, "op", gp_known_text(gp_s(t, x->name)) ? gp_s(t, x->name) : "(none)");
		str(d, "params", gp_known_text(gp_s(t, x->params)));
		i64(d, "ns", x->known_ns);
		i64(d, "count", (int64_t)x->count);
		dbl(d, "flops", x->flops);
		dbl(d, "bytes", x->bytes);
		dbl(d, "peak_flops", pf);
		dbl(d, "peak_bw", pbw);
		close_c(d, '}');
		n++;
	}
	close_c(d, ']');
}

/* Kernels grouped four ways (layer, op, op with shapes, kernel name) in
** one pass, then each sorted and written. */
static void write_tables(struct doc *d, const struct gp_analysis *an)
{
	const gp_trace *t = d->t;
	const struct gp_opres *r = an->opres;
	struct groups layers = {0}, ops = {0}, shapes = {0}, kernels = {0};
	size_t top = an->top == SIZE_MAX ? HTML_TOP : an->top;

	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_attr *a = &t->attrs[k];
		gp_str op = r && r[k].op ? r[k].op : a->op;
		gp_str params = r ? r[k].params : 0;
		group_add(group_of(&layers, a->layer, a->layer, 0, k), t, r, k);
		group_add(group_of(&ops, op, op, 0, k), t, r, k);
		group_add(group_of(&shapes, (uint64_t)op << 32 | params, op, params, k), t, r, k);
		group_add(group_of(&kernels, gp_kernel_def(t, &t->kernels.v[k])->name,
				    gp_kernel_def(t, &t->kernels.v[k])->name, 0, k), t, r, k);
	}
	gp_vec_sort(layers.v, cmp_group);
	gp_vec_sort(ops.v, cmp_group);
	gp_vec_sort(shapes.v, cmp_group);
	gp_vec_sort(kernels.v, cmp_group);
	write_groups(d, "layers", &layers, top, false);
	write_groups(d, "ops", &ops, top, true);
	write_groups(d, "top_kernels", &kernels, top, false);
	write_roofline(d, an, &shapes);
	groups_free(&layers);
	groups_free(&ops);
	groups_free(&shapes);
	groups_free(&kernels);
}

/* Per GPU, the busy fraction of each of HTML_BUCKETS buckets over the
** trace's span (the timeline the Perfetto export's counters use). */
static void write_timeline(struct doc *d, const struct gp_analysis *an)
{
	const gp_trace *t = d->t;
	struct gp_timeline tl = {0};
	size_t nacts;
	gp_ns s, e;
	struct gp_activity *acts = gp_trace_activities(t, &nacts);

	open_c(d, "timeline", '{');
	if (gp_trace_span(t, &s, &e))
		gp_timeline_build(&tl, t, an->opres, acts, nacts, s, e, HTML_BUCKETS);
	i64(d, "start", tl.start);
	i64(d, "width", tl.width);
	open_c(d, "devices", '[');
	for (size_t i = 0; i < tl.ndev && tl.nbuckets; i++) {
		open_c(d, NULL, '{');
		i64(d, "device", tl.devs[i]);
		open_c(d, "busy", '[');
		for (size_t j = 0; j < tl.nbuckets; j++) {
			sep(d);
			fprintf(d->out, "%.4f", tl.b[i * tl.nbuckets + j].busy_ns / (double)tl.width);
		}
		close_c(d, ']');
		close_c(d, '}');
	}
	close_c(d, ']');
	close_c(d, '}');
	gp_timeline_free(&tl);
	free(acts);
}

/* Per GPU with allocator events: the peak, and the allocated and reserved
** totals in HTML_BUCKETS buckets (each bucket's highest). */
static void write_memory(struct doc *d, const struct gp_memory *m)
{
	struct gp_mem_step *b = gp_xcalloc(HTML_BUCKETS, sizeof(*b));
	gp_ns s = 0, e = 0;

	gp_trace_span(d->t, &s, &e);
	open_c(d, "memory", '[');
	for (size_t i = 0; m && i < m->devices.n; i++) {
		const struct gp_mem_device *md = &m->devices.v[i];
		if (md->device == GP_MEM_HOST || !md->events)
			continue;
		gp_memory_buckets(m, md, s, e, b, HTML_BUCKETS);
		open_c(d, NULL, '{');
		i64(d, "device", md->device);
		i64(d, "peak", md->peak_alloc);
		i64(d, "peak_ts", md->peak_ts);
		i64(d, "peak_reserved", md->peak_reserved);
		i64(d, "final", md->final_alloc);
		i64(d, "start", s);
		i64(d, "end", e);
		open_c(d, "series", '[');
		for (size_t j = 0; j < HTML_BUCKETS; j++) {
			sep(d);
			if (b[j].allocated == INT64_MIN)
				fputs("null", d->out);
			else
				fprintf(d->out, "[%" PRId64 ",%" PRId64 "]", b[j].allocated, b[j].reserved);
		}
		close_c(d, ']');
		close_c(d, '}');
	}
	close_c(d, ']');
	free(b);
}

static void write_advice(struct doc *d, const struct gp_analysis *an)
{
	const struct gp_findings *f = an->findings;
	size_t top = an->top == SIZE_MAX ? HTML_TOP : an->top;

	open_c(d, "advice", '[');
	for (size_t i = 0; f && i < f->v.n && i < top; i++) {
		const struct gp_finding *x = &f->v.v[i];
		open_c(d, NULL, '{');
		str(d, "kind", x->kind);
		dbl(d, "ns", x->ns);
		dbl(d, "share", f->capacity_ns > 0 ? x->ns / f->capacity_ns : 0);
		i64(d, "count", (int64_t)x->count);
		str(d, "title", x->title);
		str(d, "evidence", x->evidence);
		str(d, "change", x->change);
		close_c(d, '}');
	}
	close_c(d, ']');
}

/* The JSON document: {"tool", "inputs": [one object per input]}. */
static void write_data(FILE *out, const struct gp_analysis *an)
{
	struct doc d = {.out = out, .t = an->trace, .first = true};

	open_c(&d, NULL, '{');
	str(&d, "tool", "gpuprof");
	open_c(&d, "inputs", '[');
	open_c(&d, NULL, '{');
	write_facts(&d, an);
	write_breakdown(&d, an->breakdown);
	write_tables(&d, an);
	write_timeline(&d, an);
	write_memory(&d, an->memory);
	write_advice(&d, an);
	close_c(&d, '}');
	close_c(&d, ']');
	close_c(&d, '}');
}

/* Whether text could end the <script> element it is inlined into. */
static bool ends_script(const char *text, size_t len)
{
	static const char tag[] = "</script";

	for (size_t i = 0; i + sizeof(tag) - 1 <= len; i++)
		if (text[i] == '<' && strncasecmp(text + i, tag, sizeof(tag) - 1) == 0)
			return true;
	return false;
}

/* Writes the template, each "<!--gp:NAME-->" replaced by its part: style,
** library, data, script. */
static int html_write(gp_sink *s, const struct gp_analysis *an, gp_error *err)
{
	const char *tpl = (const char *)gp_html_template, *p = tpl, *end = tpl + gp_html_template_len;

	if (!an->trace || !an->trace->attrs)
		return gp_err(err, GP_ERR_USAGE, "html: no correlated trace");
	if (!an->script)
		return gp_err(err, GP_ERR_USAGE, "html: no charting library");
	if (ends_script(an->script, an->script_len))
		return gp_err(err, GP_ERR_FORMAT, "html: the charting library contains '</script': not inlined");
	while (p < end) {
		const char *m = memmem(p, (size_t)(end - p), "<!--gp:", 7);
		if (!m) {
			fwrite(p, 1, (size_t)(end - p), s->out);
			break;
		}
		fwrite(p, 1, (size_t)(m - p), s->out);
		const char *name = m + 7, *close = memmem(name, (size_t)(end - name), "-->", 3);
		size_t len = close ? (size_t)(close - name) : 0;
		if (len == 5 && !memcmp(name, "style", 5))
			fwrite(gp_html_style, 1, gp_html_style_len, s->out);
		else if (len == 7 && !memcmp(name, "library", 7))
			fwrite(an->script, 1, an->script_len, s->out);
		else if (len == 4 && !memcmp(name, "data", 4))
			write_data(s->out, an);
		else if (len == 6 && !memcmp(name, "script", 6))
			fwrite(gp_html_script, 1, gp_html_script_len, s->out);
		else
			return gp_err(err, GP_ERR_INTERNAL, "html: unknown template part at offset %zu",
				      (size_t)(m - tpl));
		p = close + 3;
	}
	return GP_OK;
}

const struct gp_sink_ops gp_sink_html = {
	.name = "html",
	.help = "a self-contained HTML report with charts (gpuprof html)",
	.write = html_write,
};
