/*
** The HTML report sink: one self-contained page (docs/html.md).  The page
** is the template share/html/report.html with its style, its script and
** the charting library inlined, and the analysis as one JSON document in a
** <script type="application/json"> element, which the page's script reads
** and draws.  It formats what the analysis runner computed (GP_HTML_NEEDS,
** html.h: the kernel groups, the bucketed timeline, the breakdown, memory,
** the findings, the serving phases), aggregated: the top N groups of a table + "other", at most
** HTML_POINTS roofline points, so the page stays small whatever the
** trace's size.  Every string from the trace goes through
** gp_json_string_html: no trace text can end the element or reach markup.
**
** The document holds a list of inputs, one object each, so a page that
** compares traces (several files, a diff) adds objects, not a format.  A
** page over several ranks (html.h) holds each rank's object, written on
** the worker that read the rank, and a "job" object: the ranks compared
** and the kernel groups of every rank (or one) summed by name.
*/
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/timeline.h"
#include "writers/html.h"
#include "writers/html_assets.h"
#include "writers/html_common.h"
#include "writers/sink.h"

#define HTML_TOP 25         /* table rows when -n is not given */
#define HTML_POINTS 1000    /* roofline points at most */
#define HTML_ITERS 200      /* iterations per GPU in the charts; more are merged */
#define HTML_DRILL 10       /* a layer's ops and kernels in its drill-down, then "other" */
#define HTML_NEAR 15        /* kernels on each side of a gap or kernel in its small timeline */
#define HTML_NEAR_MIN 20000 /* ns: the least margin around it */

/* Groups longest first; equal times by key so the page is reproducible. */
static int cmp_group(const void *pa, const void *pb)
{
	const struct gp_kgroup *a = *(const struct gp_kgroup *const *)pa, *b = *(const struct gp_kgroup *const *)pb;

	if (a->ns != b->ns)
		return a->ns > b->ns ? -1 : 1;
	return (a->key > b->key) - (a->key < b->key);
}

/* The page's JSON writer: commas between members and elements. */
struct doc {
	FILE *out;
	const gp_trace *t;
	const gp_strtab *names; /* the groups' names: t's, or the merged ranks' */
	size_t top;             /* rows per table (-n, else HTML_TOP) */
	const struct gp_kgroups *drill;   /* the groups write_tables writes, for a row's detail */
	int by;                 /* the way of the table being written (enum gp_kgroup_by), -1: none */
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

static void write_facts(struct doc *d, const char *path, const struct gp_analysis *an)
{
	const gp_trace *t = d->t;
	gp_ns first = 0, last = 0;
	int64_t gpu_ns = 0;

	for (size_t k = 0; k < t->kernels.n; k++)
		if (t->kernels.v[k].end > t->kernels.v[k].start)
			gpu_ns += t->kernels.v[k].end - t->kernels.v[k].start;
	gp_trace_span(t, &first, &last);
	str(d, "path", path);
	tstr(d, "format", t->format);
	i64(d, "kernels", (int64_t)t->kernels.n);
	i64(d, "copies", (int64_t)t->memcpys.n);
	i64(d, "memsets", (int64_t)t->memsets.n);
	i64(d, "apis", (int64_t)t->apis.n);
	i64(d, "start", first);
	i64(d, "end", last);
	/* what every time point is counted from, as in every command */
	i64(d, "origin", gp_trace_start(t));
	i64(d, "gpu_ns", gpu_ns);
	i64(d, "top", (int64_t)d->top);
	/* the kernels each device ran: a rank's file lists every GPU of its
	** node, and a job counts the ones its ranks ran on */
	int64_t *ran = gp_xcalloc(t->devices.n ? t->devices.n : 1, sizeof(*ran));
	for (size_t k = 0; k < t->kernels.n; k++) {
		int32_t dev = gp_kernel_device(t, &t->kernels.v[k]);
		for (size_t i = 0; i < t->devices.n; i++)
			if (t->devices.v[i].id == dev) {
				ran[i]++;
				break;
			}
	}
	open_c(d, "devices", '[');
	for (size_t i = 0; i < t->devices.n; i++) {
		const struct gp_device *dv = &t->devices.v[i];
		struct gp_gpu est;
		const struct gp_gpu *g = an->opts.peaks.gpu ? an->opts.peaks.gpu : gp_gpu_for_device(t, dv, &est);
		open_c(d, NULL, '{');
		i64(d, "id", dv->id);
		i64(d, "kernels", ran[i]);
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
	free(ran);
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
	i64(d, "comm_hidden", gp_bd_comm_hidden(w));
	i64(d, "comm_exposed", gp_bd_kind_time(w, GP_BD_COMM) - gp_bd_comm_hidden(w));
	i64(d, "kernels", (int64_t)w->kernels);
	open_c(d, "causes", '[');
	for (int c = 0; c < GP_IDLE__COUNT; c++) {
		sep(d);
		fprintf(d->out, "%" PRId64, w->idle[c]);
	}
	close_c(d, ']');
	close_c(d, '}');
}

/* "near": the kernels of device dev around [start, end) (gp_timeline_nearby,
** HTML_NEAR on each side, margin around it) as [start, end, short name]
** rows, times in ns from start, for the page's small timeline of a gap or
** kernel; buf has room for 2 * HTML_NEAR indices. */
static void write_near(struct doc *d, int32_t dev, gp_ns start, gp_ns end, gp_ns margin, size_t *buf)
{
	size_t n = gp_timeline_nearby(d->t, dev, start, end, margin, HTML_NEAR, buf);

	open_c(d, "near", '[');
	for (size_t i = 0; i < n; i++) {
		const struct gp_kernel *k = &d->t->kernels.v[buf[i]];
		const char *name = gp_s(d->t, gp_kernel_short_name_of(d->t, k));
		sep(d);
		fprintf(d->out, "[%" PRId64 ",%" PRId64 ",", k->start - start, (k->end > k->start ? k->end : k->start) - start);
		gp_json_string_html(d->out, gp_known_text(name) ? name : "(none)");
		fputc(']', d->out);
	}
	close_c(d, ']');
}

/* Per device, the whole trace, then its iterations: the span split into
** compute, communication and memory work alone, overlapped work and idle
** time (sums to the span exactly), and idle time by cause.  More than
** HTML_ITERS iterations are merged, consecutive ones, into HTML_ITERS
** groups or fewer (sums of their windows: iters says how many); then the
** longest idle gaps. */
static void write_breakdown(struct doc *d, const gp_breakdown *b)
{
	size_t *near = gp_xmalloc(2 * HTML_NEAR * sizeof(*near));

	open_c(d, "idle_causes", '[');
	for (int c = 0; c < GP_IDLE__COUNT; c++) {
		sep(d);
		gp_json_string_html(d->out, gp_cause_name(c));
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
		str(d, "cause", gp_cause_name(g->cause));
		str(d, "context", g->context);
		int32_t before, after, step = gp_bd_step_of(b, g->device, g->start, g->end, &before, &after);
		i64(d, "step", step);
		i64(d, "step_before", before);
		i64(d, "step_after", after);
		gp_ns margin = g->end - g->start > HTML_NEAR_MIN ? g->end - g->start : HTML_NEAR_MIN;
		write_near(d, g->device, g->start, g->end, margin, near);
		close_c(d, '}');
	}
	close_c(d, ']');
	free(near);
}

/* A group's name as the tables show it. */
static const char *name_of(const struct doc *d, gp_str name)
{
	const char *s = gp_strtab_get(d->names, name);

	return gp_known_text(s) ? s : "(none)";
}

/* What a table row drills down to (d->drill: the groups the table is of,
** d->by: which way): a layer's ops and kernels ("drill": {"ops",
** "kernels"}, each HTML_DRILL rows and "other": they add up to the
** layer's time), and a kernel of the trace's own groups its longest launch
** ("at": [start, end], "device") and that launch's neighbourhood
** ("near"). */
static void write_row_detail(struct doc *d, const struct gp_kgroup *x);

/* The groups of set `by` of g whose name is the layer `layer`, longest
** first (the caller frees the array); *n of them. */
static const struct gp_kgroup **layer_part(const struct gp_kgroups *g, int by, gp_str layer, size_t *n)
{
	const struct gp_kgroup_set *s = &g->by[by];
	const struct gp_kgroup **x = gp_xmalloc((s->v.n ? s->v.n : 1) * sizeof(*x));

	*n = 0;
	for (size_t i = 0; i < s->v.n; i++)
		if (s->v.v[i].name == layer)
			x[(*n)++] = &s->v.v[i];
	gp_sort(x, *n, sizeof(*x), cmp_group);
	return x;
}

/* Writes rows x[0..n) as member k: each {name, ns, count} of its params
** (as_params: a layer's op or kernel) or name, the top of them, then one
** "other" row summing the rest, so the rows add up to the groups'. */
static void write_rows(struct doc *d, const char *k, const struct gp_kgroup *const *x, size_t n, size_t top,
		       bool work, bool as_params)
{
	struct gp_kgroup other = {0};
	size_t rest = 0;

	open_c(d, k, '[');
	for (size_t i = 0; i < n; i++) {
		if (i >= top) {
			other.ns += x[i]->ns;
			other.count += x[i]->count;
			rest++;
			continue;
		}
		open_c(d, NULL, '{');
		str(d, "name", name_of(d, as_params ? x[i]->params : x[i]->name));
		i64(d, "ns", x[i]->ns);
		i64(d, "count", (int64_t)x[i]->count);
		if (work) {
			dbl(d, "flops", x[i]->flops);
			dbl(d, "bytes", x[i]->bytes);
			i64(d, "known_ns", x[i]->known_ns);
		}
		if (!as_params)
			write_row_detail(d, x[i]);
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

static void write_row_detail(struct doc *d, const struct gp_kgroup *x)
{
	const struct gp_kgroups *g = d->drill;

	if (d->by == GP_KGROUP_LAYER) {
		static const struct {
			const char *key;
			int by;
		} parts[] = {{"ops", GP_KGROUP_LAYER_OP}, {"kernels", GP_KGROUP_LAYER_KERNEL}};
		open_c(d, "drill", '{');
		for (size_t p = 0; p < sizeof(parts) / sizeof(parts[0]); p++) {
			size_t n;
			const struct gp_kgroup **y = layer_part(g, parts[p].by, x->name, &n);
			write_rows(d, parts[p].key, y, n, HTML_DRILL, false, true);
			free(y);
		}
		close_c(d, '}');
	} else if (d->by == GP_KGROUP_KERNEL && d->t && g->names == &d->t->strs && x->longest < d->t->kernels.n) {
		/* the trace's own groups: their kernel indices are the trace's */
		const struct gp_kernel *k = &d->t->kernels.v[x->longest];
		int32_t dev = gp_kernel_device(d->t, k);
		gp_ns len = k->end > k->start ? k->end - k->start : 0;
		size_t *near = gp_xmalloc(2 * HTML_NEAR * sizeof(*near));
		open_c(d, "at", '[');
		sep(d);
		fprintf(d->out, "%" PRId64 ",%" PRId64, k->start, k->start + len);
		close_c(d, ']');
		i64(d, "device", dev);
		write_near(d, dev, k->start, k->start + len, 3 * len > HTML_NEAR_MIN ? 3 * len : HTML_NEAR_MIN, near);
		free(near);
	}
}

/* The roofline's points: ops with their shapes (op, params; sorted:
** x[0..n)) whose FLOPs and bytes are known and not 0, the HTML_POINTS
** longest, each with the peaks of its first kernel. */
static void write_roofline(struct doc *d, const struct gp_kgroup *const *x, size_t n)
{
	size_t points = 0;

	open_c(d, "roofline", '[');
	for (size_t i = 0; i < n && points < HTML_POINTS; i++) {
		if (!(x[i]->flops > 0 && x[i]->bytes > 0 && x[i]->known_ns > 0))
			continue;
		open_c(d, NULL, '{');
		str(d, "op", name_of(d, x[i]->name));
		str(d, "params", gp_known_text(gp_strtab_get(d->names, x[i]->params)));
		i64(d, "ns", x[i]->known_ns);
		i64(d, "count", (int64_t)x[i]->count);
		dbl(d, "flops", x[i]->flops);
		dbl(d, "bytes", x[i]->bytes);
		dbl(d, "peak_flops", x[i]->peak_flops);
		dbl(d, "peak_bw", x[i]->peak_bw);
		close_c(d, '}');
		points++;
	}
	close_c(d, ']');
}

/* The groups of s longest first, as pointers (the caller frees the array). */
static const struct gp_kgroup **sorted(const struct gp_kgroup_set *s)
{
	const struct gp_kgroup **x = gp_xmalloc((s->v.n ? s->v.n : 1) * sizeof(*x));

	for (size_t i = 0; i < s->v.n; i++)
		x[i] = &s->v.v[i];
	gp_sort(x, s->v.n, sizeof(*x), cmp_group);
	return x;
}

/* Writes the tables and the roofline of the kernel groups g, the top
** longest of each table. */
static void write_tables(struct doc *d, const struct gp_kgroups *g, size_t top)
{
	static const struct {
		const char *key;
		int by;
		bool work;
	} tables[] = {
		{"layers", GP_KGROUP_LAYER, false},
		{"ops", GP_KGROUP_OP, true},
		{"top_kernels", GP_KGROUP_KERNEL, false},
	};
	const struct gp_kgroup **x;

	d->names = g->names;
	d->drill = g;
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		const struct gp_kgroup_set *s = &g->by[tables[i].by];
		x = sorted(s);
		d->by = tables[i].by;
		write_rows(d, tables[i].key, x, s->v.n, top, tables[i].work, false);
		free(x);
	}
	d->by = -1;
	x = sorted(&g->by[GP_KGROUP_SHAPE]);
	write_roofline(d, x, g->by[GP_KGROUP_SHAPE].v.n);
	free(x);
}

/* The kernels' time by layer path and by module type at each depth
** (layer_views.h: keyed as summary keys its rows), as "layer_views":
** {"depth", "gpu_ns", "layer_ns", "record" (what to record when layers
** cover little, else ""), "views": [{"by": "path" | "module-type",
** "depth" (0: all levels), "rows"}]}; rows longest first, the top of
** them, the no-layer row ({"none": 1}) always, then "other" (with
** "groups") summing the rest. */
static void write_layer_views(struct doc *d, const struct gp_layer_views *lv, const gp_strtab *names)
{
	const char *record = gp_layer_views_record(lv);

	open_c(d, "layer_views", '{');
	i64(d, "depth", lv->depth);
	i64(d, "gpu_ns", lv->gpu_ns);
	i64(d, "layer_ns", lv->layer_ns);
	str(d, "record", record ? record : "");
	open_c(d, "views", '[');
	for (size_t i = 0; i < lv->n; i++) {
		const struct gp_layer_view_groups *x = &lv->v[i];
		int64_t other_ns = 0, other_count = 0, rest = 0;
		size_t shown = 0;
		open_c(d, NULL, '{');
		str(d, "by", x->v.module_type ? "module-type" : "path");
		i64(d, "depth", x->v.depth);
		open_c(d, "rows", '[');
		for (size_t j = 0; j < x->g.n; j++) {
			const struct gp_layer_group *g = &x->g.v[j];
			if (g->name && shown >= d->top) {
				other_ns += g->ns;
				other_count += (int64_t)g->count;
				rest++;
				continue;
			}
			shown += g->name != 0;
			open_c(d, NULL, '{');
			str(d, "name", g->name ? gp_strtab_get(names, g->name) : "no layer");
			if (!g->name)
				i64(d, "none", 1);
			i64(d, "ns", g->ns);
			i64(d, "count", (int64_t)g->count);
			close_c(d, '}');
		}
		if (rest) {
			open_c(d, NULL, '{');
			str(d, "name", "other");
			i64(d, "ns", other_ns);
			i64(d, "count", other_count);
			i64(d, "groups", rest);
			close_c(d, '}');
		}
		close_c(d, ']');
		close_c(d, '}');
	}
	close_c(d, ']');
	close_c(d, '}');
}

/* Per GPU, the busy fraction of each of GP_HTML_BUCKETS buckets over the
** trace's span (the timeline the Perfetto export's counters use). */
static void write_timeline(struct doc *d, const struct gp_timeline *tl)
{
	open_c(d, "timeline", '{');
	i64(d, "start", tl->start);
	i64(d, "width", tl->width);
	open_c(d, "devices", '[');
	for (size_t i = 0; i < tl->ndev && tl->nbuckets; i++) {
		open_c(d, NULL, '{');
		i64(d, "device", tl->devs[i]);
		open_c(d, "busy", '[');
		for (size_t j = 0; j < tl->nbuckets; j++) {
			sep(d);
			fprintf(d->out, "%.4f", tl->b[i * tl->nbuckets + j].busy_ns / (double)tl->width);
		}
		close_c(d, ']');
		close_c(d, '}');
	}
	close_c(d, ']');
	close_c(d, '}');
}

/* Per GPU with allocator events: the peak, and the allocated and reserved
** totals in GP_HTML_BUCKETS buckets (each bucket's highest). */
static void write_memory(struct doc *d, const struct gp_memory *m)
{
	struct gp_mem_step *b = gp_xcalloc(GP_HTML_BUCKETS, sizeof(*b));
	gp_ns s = 0, e = 0;

	gp_trace_span(d->t, &s, &e);
	open_c(d, "memory", '[');
	for (size_t i = 0; m && i < m->devices.n; i++) {
		const struct gp_mem_device *md = &m->devices.v[i];
		if (md->device == GP_MEM_HOST || !md->events)
			continue;
		gp_memory_buckets(m, md, s, e, b, GP_HTML_BUCKETS);
		open_c(d, NULL, '{');
		i64(d, "device", md->device);
		i64(d, "peak", md->peak_alloc);
		i64(d, "peak_ts", md->peak_ts);
		i64(d, "peak_reserved", md->peak_reserved);
		i64(d, "final", md->final_alloc);
		i64(d, "start", s);
		i64(d, "end", e);
		open_c(d, "series", '[');
		for (size_t j = 0; j < GP_HTML_BUCKETS; j++) {
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

/* The rows of the critical path the page lists. */
#define HTML_CRITICAL_ROWS 50

/* The critical path of the whole trace (docs/dependencies.md): its span,
** its time by cause, and the largest (cause, op, layer) rows. */
static void write_critical(struct doc *d, const gp_trace *t, const gp_critpath *cp)
{
	open_c(d, "critical", '{');
	if (cp->nwin) {
		const struct gp_cp_window *w = &cp->win[0];
		i64(d, "span", w->end - w->start);
		open_c(d, "causes", '[');
		for (int c = 0; c < GP_CAUSE__COUNT; c++) {
			sep(d);
			gp_json_string_html(d->out, gp_cause_name(c));
		}
		close_c(d, ']');
		open_c(d, "by_cause", '[');
		for (int c = 0; c < GP_CAUSE__COUNT; c++) {
			sep(d);
			fprintf(d->out, "%" PRId64, w->by_cause[c]);
		}
		close_c(d, ']');
	}
	open_c(d, "rows", '[');
	for (size_t i = 0; i < cp->nrows && i < HTML_CRITICAL_ROWS; i++) {
		const struct gp_cp_row *r = &cp->rows[i];
		open_c(d, NULL, '{');
		str(d, "cause", gp_cause_name(r->cause));
		str(d, "op", r->op ? gp_s(t, r->op) : "");
		str(d, "layer", r->layer ? gp_s(t, r->layer) : "");
		str(d, "pass", gp_cp_dir_name(r->dir));   /* "" unknown */
		i64(d, "ns", r->ns);
		close_c(d, '}');
	}
	close_c(d, ']');
	close_c(d, '}');
}

/* The kernels by serving phase and batch size (GP_NEED_PHASES); an empty
** list when the trace tells neither. */
static void write_phases(struct doc *d, const struct gp_analysis *an)
{
	char name[64];

	open_c(d, "phases", '[');
	for (size_t i = 0; i < an->phases.n; i++) {
		const struct gp_phase_group *g = &an->phases.v[i];
		open_c(d, NULL, '{');
		str(d, "name", gp_phase_label(g->phase, g->batch, name, sizeof(name)));
		i64(d, "steps", (int64_t)g->steps);
		i64(d, "kernels", (int64_t)g->kernels);
		i64(d, "gpu_ns", g->gpu_ns);
		i64(d, "window_ns", g->window_ns);
		i64(d, "idle_ns", g->idle_ns);
		close_c(d, '}');
	}
	close_c(d, ']');
}

/* The findings of f, the top of them, as a list under key: each with its
** saving beyond the findings above (and its share of f's GPU span, as
** advise says), alone, with those above (cumulative), evidence and
** change. */
static void write_findings(struct doc *d, const char *key, const struct gp_findings *f)
{
	open_c(d, key, '[');
	for (size_t i = 0; i < f->v.n && i < d->top; i++) {
		const struct gp_finding *x = &f->v.v[i];
		open_c(d, NULL, '{');
		str(d, "kind", x->kind);
		dbl(d, "ns", x->ns);
		dbl(d, "share", f->span_ns > 0 ? x->ns / f->span_ns : 0);   /* of the GPU span, as advise says */
		dbl(d, "alone", x->alone_ns);
		dbl(d, "cumulative", x->cum_ns);
		dbl(d, "shared", x->overlap_ns);
		str(d, "shared_with", x->overlaps);
		i64(d, "notice", x->first);
		i64(d, "count", (int64_t)x->count);
		str(d, "title", x->title);
		str(d, "evidence", x->evidence);
		str(d, "change", x->change);
		close_c(d, '}');
	}
	close_c(d, ']');
}

/* The verdict's figures (advise's header: the GPU span, busy and kernel
** time, devices, steps and their median), then the findings, the top of
** them, each with its saving from the step model's replay. */
static void write_advice(struct doc *d, const struct gp_findings *f)
{
	open_c(d, "verdict", '{');
	dbl(d, "span", f->span_ns);
	dbl(d, "busy", f->busy_ns);
	dbl(d, "gpu_ns", f->gpu_ns);
	i64(d, "devices", f->devices);
	i64(d, "steps", (int64_t)f->steps);
	dbl(d, "step_ns", f->step_ns);
	close_c(d, '}');
	write_findings(d, "advice", f);
}

/* The run's steps (steps.h, the one definition every command prints):
** their median, their GPU spans' median, and per step [iteration, step
** time, GPU span] (0 when it launched no kernel). */
static void write_run_steps(struct doc *d, const struct gp_steps *st)
{
	open_c(d, "run_steps", '{');
	i64(d, "median", st->median);
	i64(d, "gpu_median", st->gpu_median);
	open_c(d, "v", '[');
	for (size_t i = 0; i < st->n; i++) {
		const struct gp_step *x = &st->v[i];
		sep(d);
		fprintf(d->out, "[%" PRId32 ",%" PRId64 ",%" PRId64 "]", x->iter, gp_step_ns(x),
			x->gpu_end - x->gpu_start);
	}
	close_c(d, ']');
	close_c(d, '}');
}

/* "comm_overlap": per device with communication its hidden and exposed
** time, the SMs its kernels hold under compute (time-weighted; null when
** nothing is hidden) and the device's SMs (0 unknown); "comm_layers": per
** layer and pass the same (commover.h), at most d->top rows. */
static void write_comm_overlap(struct doc *d, const struct gp_comm_overlap *o)
{
	open_c(d, "comm_overlap", '[');
	for (size_t i = 0; i < o->ndev; i++) {
		const struct gp_co_device *x = &o->dev[i];
		open_c(d, NULL, '{');
		i64(d, "device", x->device);
		i64(d, "kernels", (int64_t)x->kernels);
		i64(d, "hidden", x->hidden);
		i64(d, "exposed", x->exposed);
		dbl(d, "sms_held", x->hidden > 0 ? gp_co_sms(x->sm_ns, x->hidden) : NAN);
		i64(d, "sm_count", x->sm_count);
		close_c(d, '}');
	}
	close_c(d, ']');
	open_c(d, "comm_layers", '[');
	for (size_t i = 0; i < o->ngroups && i < d->top; i++) {
		const struct gp_co_group *g = &o->groups[i];
		open_c(d, NULL, '{');
		str(d, "layer", g->layer ? gp_s(d->t, g->layer) : "(none)");
		str(d, "pass", g->dir != GP_DIR_NA ? gp_dir_name(g->dir) : "-");
		i64(d, "kernels", (int64_t)g->kernels);
		i64(d, "hidden", g->hidden);
		i64(d, "exposed", g->exposed);
		dbl(d, "sms_held", g->hidden > 0 ? gp_co_sms(g->sm_ns, g->hidden) : NAN);
		close_c(d, '}');
	}
	close_c(d, ']');
}

/* One input's object (d at an element of "inputs"); with tables (the page
** of one trace) its layers, ops, top kernels, roofline and critical path
** too. */
static void write_input(struct doc *d, const char *path, const struct gp_analysis *an, bool tables)
{
	open_c(d, NULL, '{');
	write_facts(d, path, an);
	write_breakdown(d, &an->breakdown);
	write_comm_overlap(d, &an->comm_overlap);
	if (tables)
		write_tables(d, &an->groups, d->top);
	if (tables && gp_analysis_has(an, GP_NEED_LAYER_VIEWS))
		write_layer_views(d, &an->layer_views, &an->trace->strs);
	write_timeline(d, &an->timeline);
	write_memory(d, &an->memory);
	write_advice(d, &an->findings);
	write_run_steps(d, &an->steps);
	if (tables && gp_analysis_has(an, GP_NEED_CRITPATH))
		write_critical(d, an->trace, &an->critpath);
	if (tables && gp_analysis_has(an, GP_NEED_PHASES))
		write_phases(d, an);
	close_c(d, '}');
}

/* The rows of a table: -n, else HTML_TOP. */
static size_t table_rows(size_t top)
{
	return top == SIZE_MAX ? HTML_TOP : top;
}

void gp_html_input(FILE *out, const char *path, const struct gp_analysis *an, size_t top)
{
	struct doc d = {.out = out, .t = an->trace, .names = &an->trace->strs, .top = table_rows(top), .by = -1,
			.first = true};

	write_input(&d, path, an, false);
}

/* The job's critical path across ranks: its length and jumps, or why the
** traces cannot tell, and its ten largest pieces by rank, cause and op. */
static void write_job_path(struct doc *d, const struct gp_html_job *job)
{
	static const struct gp_job_path none = {.why = "not computed for this page"};
	const struct gp_job_path *p = job->path ? job->path : &none;

	open_c(d, "critical_path", '{');
	i64(d, "known", p->known);
	str(d, "why", p->known ? "" : p->why);
	i64(d, "length", p->known ? p->end - p->start : 0);
	i64(d, "jumps", p->known ? (int64_t)p->jumps : 0);
	/* a path of several ranks that reaches no collective cannot tell who
	** waited for whom (docs/dependencies.md) */
	i64(d, "meets_collective", p->known && gp_job_path_meets_collective(p, job->n));
	open_c(d, "top", '[');
	/* rows come by rank, largest first within a rank: pick the ten largest */
	bool *used = gp_xcalloc(p->nrows ? p->nrows : 1, sizeof(*used));
	for (int k = 0; k < 10 && p->known; k++) {
		size_t best = p->nrows;
		for (size_t i = 0; i < p->nrows; i++)
			if (!used[i] && (best == p->nrows || p->rows[i].ns > p->rows[best].ns))
				best = i;
		if (best == p->nrows)
			break;
		used[best] = true;
		open_c(d, NULL, '{');
		i64(d, "rank", job->ranks[p->rows[best].rank].id.rank);
		str(d, "cause", gp_cause_name(p->rows[best].cause));
		str(d, "op", p->rows[best].op);
		i64(d, "ns", p->rows[best].ns);
		close_c(d, '}');
	}
	free(used);
	close_c(d, ']');
	close_c(d, '}');
}

/* The job's all-to-all ("a2a", null when it has no call matched on every
** rank): the calls, the largest / mean across ranks (bytes sent) and
** across peers (bytes received, -1 without split sizes), the peer that
** receives the most, the waits at them and the rank that caused most,
** their transfer (coll_a2a.h). */
static void write_a2a(struct doc *d, const struct gp_html_job *job)
{
	const struct gp_a2a *a = job->a2a;
	bool peers;

	if (!a || !a->calls) {
		key(d, "a2a");
		fputs("null", d->out);
		return;
	}
	peers = a->matrix && a->peer_hot >= 0;
	open_c(d, "a2a", '{');
	i64(d, "calls", (int64_t)a->calls);
	dbl(d, "rank_imbalance", a->rank_imbalance);
	dbl(d, "peer_imbalance", peers ? a->peer_imbalance : -1);
	i64(d, "peer_hot", peers ? a->peer_hot : -1);
	i64(d, "peer_hot_bytes", peers ? (int64_t)a->peer_hot_bytes : -1);
	i64(d, "wait", a->wait);
	i64(d, "late_rank", a->late >= 0 ? a->ranks[a->late].rank : -1);
	i64(d, "late_caused", a->late >= 0 ? a->ranks[a->late].caused : 0);
	i64(d, "transfer", a->transfer);
	close_c(d, '}');
}

/* The "ranks" and "steps" of the job: each rank's step times, time sums
** and figures at collectives (its wait, the wait it caused the others, the
** calls it arrived last at; the straggler by arrival), then per iteration
** its slowest and fastest rank (facts about steps). */
static void write_ranks(struct doc *d, const struct gp_html_job *job)
{
	const struct gp_rank_job *j = job->cmp;
	const struct gp_ranks_cmp *c = &j->steps;
	bool arrivals = j->coll.ncomplete > 0;
	int32_t *iters;
	size_t niters;

	open_c(d, "ranks", '[');
	for (size_t i = 0; i < job->n; i++) {
		const struct gp_html_rank *r = &job->ranks[i];
		const struct gp_rank_record *rec = &j->rec[i];
		const struct gp_coll_rank_stats *cs = &j->coll.ranks[i];
		gp_ns fastest = j->rec[c->fastest].step_median, vs = rec->step_median - fastest;
		open_c(d, NULL, '{');
		i64(d, "rank", r->id.rank);
		str(d, "rank_from", gp_rank_source_name(r->id.source));
		str(d, "path", r->path);
		i64(d, "step_median", rec->step_median);
		i64(d, "vs_fastest", vs);
		dbl(d, "vs_fastest_pct", fastest > 0 ? 100.0 * (double)vs / (double)fastest : 0.0);
		i64(d, "span", rec->span);
		i64(d, "compute", rec->compute);
		i64(d, "comm", rec->comm);
		i64(d, "memory", rec->memory);
		i64(d, "idle", rec->idle);
		/* -1: no collective matched on every rank, the traces cannot tell */
		i64(d, "wait", arrivals ? cs->wait : -1);
		i64(d, "caused", arrivals ? cs->caused : -1);
		i64(d, "times_last", arrivals ? (int64_t)cs->times_last : -1);
		str(d, "role", (int)i == j->straggler ? "straggler" : "");
		/* -1: the traces cannot tell the job's critical path */
		bool on_path = job->path && job->path->known;
		i64(d, "critical", on_path ? job->path->ranks[i].held : -1);
		i64(d, "critical_entered", on_path ? (int64_t)job->path->ranks[i].entered : -1);
		/* -1: no all-to-all of known size */
		i64(d, "a2a_sent", job->a2a && i < job->a2a->nranks && job->a2a->ranks[i].sent
				   ? (int64_t)job->a2a->ranks[i].sent : -1);
		open_c(d, "steps", '[');
		for (size_t k = 0; k < rec->nsteps; k++) {
			sep(d);
			fprintf(d->out, "[%" PRId32 ",%" PRId64 "]", rec->steps[k].iter, rec->steps[k].time);
		}
		close_c(d, ']');
		close_c(d, '}');
	}
	close_c(d, ']');
	i64(d, "straggler", j->straggler >= 0 ? job->ranks[j->straggler].id.rank : -1);
	i64(d, "collectives", (int64_t)j->coll.ncomplete);
	i64(d, "skew", c->skew);
	dbl(d, "skew_pct", c->skew_pct);
	write_job_path(d, job);
	write_a2a(d, job);
	if (job->findings)
		write_findings(d, "advice", job->findings);
	iters = gp_ranks_iters(j->rp, job->n, &niters);
	open_c(d, "steps", '[');
	for (size_t k = 0; k < niters; k++) {
		struct gp_step_cmp s;
		gp_ranks_step(j->rp, job->n, iters[k], &s);
		open_c(d, NULL, '{');
		i64(d, "iter", iters[k]);
		i64(d, "ranks", (int64_t)s.have);
		i64(d, "median", s.median);
		i64(d, "fastest_rank", job->ranks[s.fastest].id.rank);
		i64(d, "fastest_ns", s.fastest_ns);
		i64(d, "slowest_rank", job->ranks[s.slowest].id.rank);
		i64(d, "slowest_ns", s.slowest_ns);
		close_c(d, '}');
	}
	close_c(d, ']');
	free(iters);
}

/* The job object: the ranks compared, then the kernel groups of every rank
** (or of job->only_rank) summed by name, as one input's tables, and the
** layer views summed the same way (as one input's "layer_views"). */
static void write_job(struct doc *d, const struct gp_html_job *job)
{
	const struct gp_kgroup_set *kernel = &job->groups->by[GP_KGROUP_KERNEL];
	int64_t kernels = 0, gpu_ns = 0;

	for (size_t i = 0; i < kernel->v.n; i++) {
		kernels += (int64_t)kernel->v.v[i].count;
		gpu_ns += kernel->v.v[i].ns;
	}
	open_c(d, "job", '{');
	i64(d, "only_rank", job->only_rank);
	i64(d, "kernels", kernels);
	i64(d, "gpu_ns", gpu_ns);
	i64(d, "top", (int64_t)d->top);
	write_ranks(d, job);
	write_tables(d, job->groups, d->top);
	if (job->layer_views)
		write_layer_views(d, &job->layer_views->lv, &job->layer_views->names);
	close_c(d, '}');
}

/* What the page's data part is written from. */
struct page {
	const struct gp_sink_input *in;
	size_t top;             /* -n */
};

/* The JSON document: {"tool", "inputs": [one object per input]}, and the
** "job" of a page over several ranks (a gp_html_part writer). */
static int write_data(FILE *out, const void *ctx, gp_error *err)
{
	const struct page *pg = ctx;
	const struct gp_sink_input *in = pg->in;
	const gp_trace *t = in->an ? in->an->trace : NULL;
	struct doc d = {.out = out, .t = t, .names = t ? &t->strs : NULL, .top = table_rows(pg->top), .by = -1,
			.first = true};

	(void)err;
	open_c(&d, NULL, '{');
	str(&d, "tool", "gpuprof");
	open_c(&d, "inputs", '[');
	if (in->job) {
		for (size_t i = 0; i < in->job->n; i++) {
			sep(&d);
			fputs(in->job->ranks[i].input, out);
		}
	} else {
		write_input(&d, in->path, in->an, true);
	}
	close_c(&d, ']');
	if (in->job)
		write_job(&d, in->job);
	close_c(&d, '}');
	return GP_OK;
}

/* Writes the template, each "<!--gp:NAME-->" replaced by its part: style,
** library, data, script. */
static int html_write(gp_sink *s, const struct gp_sink_input *in, gp_error *err)
{
	const struct page pg = {in, s->opts.top};
	const struct gp_html_part parts[] = {
		{"style", gp_html_style, gp_html_style_len, NULL, NULL},
		{"library", s->opts.script, s->opts.script_len, NULL, NULL},
		{"data", NULL, 0, write_data, &pg},
		{"common", gp_html_common_script, gp_html_common_script_len, NULL, NULL},
		{"layers", gp_html_layers_script, gp_html_layers_script_len, NULL, NULL},
		{"script", gp_html_script, gp_html_script_len, NULL, NULL},
	};

	if (!in->job && (!in->an || !in->an->trace->attrs || !gp_analysis_has(in->an, GP_HTML_NEEDS)))
		return gp_err(err, GP_ERR_USAGE, "html: no correlated trace");
	if (!s->opts.script)
		return gp_err(err, GP_ERR_USAGE, "html: no charting library");
	if (gp_html_ends_script(s->opts.script, s->opts.script_len))
		return gp_err(err, GP_ERR_FORMAT, "html: the charting library contains '</script': not inlined");
	return gp_html_fill(s->out, (const char *)gp_html_template, gp_html_template_len, parts,
			    sizeof(parts) / sizeof(parts[0]), err);
}

const struct gp_sink_ops gp_sink_html = {
	.name = "html",
	.help = "a self-contained HTML report with charts (gpuprof html)",
	.write = html_write,
};
