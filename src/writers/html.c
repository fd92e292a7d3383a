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
** compares traces (several files, a diff) adds objects, not a format.  A
** page over several ranks (html.h) holds each rank's object, written on
** the worker that read the rank, and a "job" object: the ranks compared
** and the kernel groups of every rank (or one) summed by name.
*/
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/breakdown.h"
#include "analysis/memory.h"
#include "analysis/ranks.h"
#include "analysis/advise.h"
#include "ops/ops.h"
#include "util/u64map.h"
#include "writers/html.h"
#include "writers/html_assets.h"
#include "writers/html_common.h"
#include "writers/rowbuf.h"
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
	double peak_flops, peak_bw;   /* op+shape groups: the first kernel's peaks */
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

static int cmp_i32(const void *pa, const void *pb)
{
	int32_t a = *(const int32_t *)pa, b = *(const int32_t *)pb;

	return (a > b) - (a < b);
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
	const gp_strtab *names; /* the groups' names: t's, or the merged ranks' */
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
		const struct gp_gpu *g = an->ops && an->ops->po.gpu ? an->ops->po.gpu : gp_gpu_for_device(t, dv);
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

/* A group's name as the tables show it. */
static const char *name_of(const struct doc *d, gp_str name)
{
	const char *s = gp_strtab_get(d->names, name);

	return gp_known_text(s) ? s : "(none)";
}

/* Writes the top groups of g (sorted) as rows, then one "other" row for
** the rest; work: with their FLOPs and bytes. */
static void write_groups(struct doc *d, const char *k, const struct groups *g, size_t top, bool work)
{
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
		str(d, "name", name_of(d, x->name));
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
static void write_roofline(struct doc *d, const struct groups *g)
{
	size_t n = 0;

	open_c(d, "roofline", '[');
	for (size_t i = 0; i < g->v.n && n < HTML_POINTS; i++) {
		const struct group *x = &g->v.v[i];
		if (!(x->flops > 0 && x->bytes > 0 && x->known_ns > 0))
			continue;
		open_c(d, NULL, '{');
		str(d, "op", name_of(d, x->name));
		str(d, "params", gp_known_text(gp_strtab_get(d->names, x->params)));
		i64(d, "ns", x->known_ns);
		i64(d, "count", (int64_t)x->count);
		dbl(d, "flops", x->flops);
		dbl(d, "bytes", x->bytes);
		dbl(d, "peak_flops", x->peak_flops);
		dbl(d, "peak_bw", x->peak_bw);
		close_c(d, '}');
		n++;
	}
	close_c(d, ']');
}

/* The four ways the tables group kernels. */
enum { G_LAYER, G_OP, G_SHAPE, G_KERNEL, G__COUNT };

/* Groups an's kernels four ways (layer, op, op with shapes, kernel name)
** in one pass into g[G__COUNT] (zeroed by the caller; unsorted); the
** shape groups with known work get the peaks of their first kernel. */
static void group_kernels(const struct gp_analysis *an, struct groups *g)
{
	const gp_trace *t = an->trace;
	const struct gp_opres *r = an->ops ? an->ops->r : NULL;

	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_attr *a = &t->attrs[k];
		gp_str op = r && r[k].op ? r[k].op : a->op;
		gp_str params = r ? r[k].params : 0;
		group_add(group_of(&g[G_LAYER], a->layer, a->layer, 0, k), t, r, k);
		group_add(group_of(&g[G_OP], op, op, 0, k), t, r, k);
		group_add(group_of(&g[G_SHAPE], (uint64_t)op << 32 | params, op, params, k), t, r, k);
		group_add(group_of(&g[G_KERNEL], gp_kernel_def(t, &t->kernels.v[k])->name,
				   gp_kernel_def(t, &t->kernels.v[k])->name, 0, k), t, r, k);
	}
	for (size_t i = 0; i < g[G_SHAPE].v.n; i++) {
		struct group *x = &g[G_SHAPE].v.v[i];
		if (x->flops > 0 && x->bytes > 0 && x->known_ns > 0) {
			x->peak_flops = gp_op_peak(an->ops, x->first)->flops;
			x->peak_bw = gp_op_peak(an->ops, x->first)->bw;
		}
	}
}

/* Sorts the groups g[G__COUNT] and writes the tables and the roofline. */
static void write_tables(struct doc *d, struct groups *g, size_t top)
{
	for (int i = 0; i < G__COUNT; i++)
		gp_vec_sort(g[i].v, cmp_group);
	write_groups(d, "layers", &g[G_LAYER], top, false);
	write_groups(d, "ops", &g[G_OP], top, true);
	write_groups(d, "top_kernels", &g[G_KERNEL], top, false);
	write_roofline(d, &g[G_SHAPE]);
}

static void groups_free_all(struct groups *g)
{
	for (int i = 0; i < G__COUNT; i++)
		groups_free(&g[i]);
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
		gp_timeline_build(&tl, t, an->ops ? an->ops->r : NULL, acts, nacts, s, e, HTML_BUCKETS);
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

/* One input's object (d at an element of "inputs"); with tables its
** layers, ops, top kernels and roofline too. */
static void write_input(struct doc *d, const struct gp_analysis *an, bool tables)
{
	open_c(d, NULL, '{');
	write_facts(d, an);
	write_breakdown(d, an->breakdown);
	if (tables) {
		struct groups g[G__COUNT] = {0};
		group_kernels(an, g);
		write_tables(d, g, an->top == SIZE_MAX ? HTML_TOP : an->top);
		groups_free_all(g);
	}
	write_timeline(d, an);
	write_memory(d, an->memory);
	write_advice(d, an);
	close_c(d, '}');
}

void gp_html_input(FILE *out, const struct gp_analysis *an)
{
	struct doc d = {.out = out, .t = an->trace, .names = &an->trace->strs, .first = true};

	write_input(&d, an, false);
}

const struct gp_column gp_html_part_cols[GP_HTML_PART_NCOLS] = {
	{"part", "Part", 4, false, false, NULL},
	{"name", "Name", 4, false, true, NULL},
	{"params", "Params", 4, false, true, NULL},
	{"ns", "ns", 4, true, false, NULL},
	{"count", "Count", 4, true, false, NULL},
	{"flops", "FLOPs", 4, true, false, NULL},
	{"bytes", "Bytes", 4, true, false, NULL},
	{"known_ns", "Known ns", 4, true, false, NULL},
	{"peak_flops", "Peak FLOP/s", 4, true, false, NULL},
	{"peak_bw", "Peak B/s", 4, true, false, NULL},
};

/* The part names of the group rows, by G_*. */
static const char *const group_part[G__COUNT] = {"layer", "op", "shape", "kernel"};

void gp_html_groups(const struct gp_analysis *an, gp_writer *w)
{
	const gp_trace *t = an->trace;
	struct groups g[G__COUNT] = {0};
	char v[7][32];
	const char *row[GP_HTML_PART_NCOLS] = {NULL, NULL, NULL, v[0], v[1], v[2], v[3], v[4], v[5], v[6]};

	group_kernels(an, g);
	for (int i = 0; i < G__COUNT; i++) {
		row[0] = group_part[i];
		for (size_t j = 0; j < g[i].v.n; j++) {
			const struct group *x = &g[i].v.v[j];
			row[1] = gp_s(t, x->name);
			row[2] = gp_s(t, x->params);
			snprintf(v[0], 32, "%" PRId64, x->ns);
			snprintf(v[1], 32, "%" PRIu64, x->count);
			snprintf(v[2], 32, "%.17g", x->flops);
			snprintf(v[3], 32, "%.17g", x->bytes);
			snprintf(v[4], 32, "%" PRId64, x->known_ns);
			snprintf(v[5], 32, "%.17g", x->peak_flops);
			snprintf(v[6], 32, "%.17g", x->peak_bw);
			gp_writer_row(w, row);
		}
	}
	groups_free_all(g);
}

/* Adds one group row (cells c, part already matched to g) to the merged
** groups g, its names interned in names; false when a number is not one. */
static bool merge_row(struct groups *g, gp_strtab *names, const char *const *c)
{
	char *end[7];

	for (int i = 3; i < GP_HTML_PART_NCOLS; i++)
		if (!c[i] || !*c[i])
			return false;
	int64_t ns = strtoll(c[3], &end[0], 10);
	uint64_t count = strtoull(c[4], &end[1], 10);
	double flops = strtod(c[5], &end[2]), bytes = strtod(c[6], &end[3]);
	int64_t known = strtoll(c[7], &end[4], 10);
	double pf = strtod(c[8], &end[5]), pbw = strtod(c[9], &end[6]);
	for (int i = 0; i < 7; i++)
		if (*end[i])
			return false;
	gp_str name = gp_strtab_intern(names, c[1]), params = gp_strtab_intern(names, c[2]);
	struct group *x = group_of(g, (uint64_t)name << 32 | params, name, params, 0);
	if (x->peak_flops <= 0 && x->peak_bw <= 0) {
		/* the first rank that ran the group with known work */
		x->peak_flops = pf;
		x->peak_bw = pbw;
	}
	x->ns += ns;
	x->count += count;
	x->flops += flops;
	x->bytes += bytes;
	x->known_ns += known;
	return true;
}

/* The "ranks" and "steps" of the job: each rank's straggler figures and
** step times, then per iteration its slowest and fastest rank. */
static void write_ranks(struct doc *d, const struct gp_html_job *job)
{
	const struct gp_rank_record **rp = gp_xmalloc(job->n * sizeof(*rp));
	GP_VEC(int32_t) iters = {0};
	struct gp_ranks_cmp c;

	for (size_t i = 0; i < job->n; i++)
		rp[i] = job->ranks[i].record;
	gp_ranks_compare(rp, job->n, &c);
	open_c(d, "ranks", '[');
	for (size_t i = 0; i < job->n; i++) {
		const struct gp_html_rank *r = &job->ranks[i];
		gp_ns fastest = rp[c.fastest]->step_median, vs = r->record->step_median - fastest;
		open_c(d, NULL, '{');
		i64(d, "rank", r->id.rank);
		str(d, "rank_from", gp_rank_source_name(r->id.source));
		str(d, "path", r->path);
		i64(d, "step_median", r->record->step_median);
		i64(d, "vs_fastest", vs);
		dbl(d, "vs_fastest_pct", fastest > 0 ? 100.0 * (double)vs / (double)fastest : 0.0);
		i64(d, "span", r->record->span);
		i64(d, "compute", r->record->compute);
		i64(d, "comm", r->record->comm);
		i64(d, "memory", r->record->memory);
		i64(d, "idle", r->record->idle);
		str(d, "role", job->n < 2 || c.skew == 0 ? "" : i == c.slowest ? "slowest" : i == c.fastest ? "fastest" : "");
		open_c(d, "steps", '[');
		for (size_t k = 0; k < r->record->nsteps; k++) {
			sep(d);
			fprintf(d->out, "[%" PRId32 ",%" PRId64 "]", r->record->steps[k].iter, r->record->steps[k].time);
			*gp_vec_push(iters) = r->record->steps[k].iter;
		}
		close_c(d, ']');
		close_c(d, '}');
	}
	close_c(d, ']');
	i64(d, "skew", c.skew);
	dbl(d, "skew_pct", c.skew_pct);
	i64(d, "at_stake", c.at_stake);
	gp_vec_sort(iters, cmp_i32);
	open_c(d, "steps", '[');
	for (size_t k = 0; k < iters.n; k++) {
		struct gp_step_cmp s;
		if (k && iters.v[k] == iters.v[k - 1])
			continue;
		gp_ranks_step(rp, job->n, iters.v[k], &s);
		open_c(d, NULL, '{');
		i64(d, "iter", iters.v[k]);
		i64(d, "ranks", (int64_t)s.have);
		i64(d, "median", s.median);
		i64(d, "fastest_rank", job->ranks[s.fastest].id.rank);
		i64(d, "fastest_ns", s.fastest_ns);
		i64(d, "slowest_rank", job->ranks[s.slowest].id.rank);
		i64(d, "slowest_ns", s.slowest_ns);
		close_c(d, '}');
	}
	close_c(d, ']');
	gp_vec_free(iters);
	free(rp);
}

/* The job object: the ranks compared, then the kernel groups of every rank
** (or of job->only_rank) summed by name, as one input's tables.  Fails
** with GP_ERR_FORMAT when a rank's rows are damaged. */
static int write_job(struct doc *d, const struct gp_html_job *job, size_t top, gp_error *err)
{
	struct groups g[G__COUNT] = {0};
	gp_strtab names;
	int64_t kernels = 0, gpu_ns = 0;
	int rc = GP_OK;

	gp_strtab_init(&names);
	d->names = &names;
	for (size_t i = 0; i < job->n && rc == GP_OK; i++) {
		const struct gp_html_rank *r = &job->ranks[i];
		const char *c[GP_HTML_PART_NCOLS];
		size_t at = 0;
		int got;
		if (job->only_rank >= 0 && r->id.rank != job->only_rank)
			continue;
		while ((got = gp_rowbuf_next(r->parts, &at, c)) > 0) {
			int p = 0;
			while (p < G__COUNT && !(c[0] && strcmp(c[0], group_part[p]) == 0))
				p++;
			if (p == G__COUNT)
				continue;   /* the input's own object */
			if (!merge_row(&g[p], &names, c)) {
				got = -1;
				break;
			}
		}
		if (got < 0)
			rc = gp_err(err, GP_ERR_FORMAT, "%s: html: the rank's kept groups are damaged (byte %zu)",
				    r->path, at);
	}
	for (size_t i = 0; i < g[G_KERNEL].v.n; i++) {
		kernels += (int64_t)g[G_KERNEL].v.v[i].count;
		gpu_ns += g[G_KERNEL].v.v[i].ns;
	}
	open_c(d, "job", '{');
	i64(d, "only_rank", job->only_rank);
	i64(d, "kernels", kernels);
	i64(d, "gpu_ns", gpu_ns);
	i64(d, "top", (int64_t)top);
	write_ranks(d, job);
	write_tables(d, g, top);
	close_c(d, '}');
	groups_free_all(g);
	gp_strtab_free(&names);
	return rc;
}

/* The JSON document: {"tool", "inputs": [one object per input]}, and the
** "job" of a page over several ranks. */
static int write_data(FILE *out, const struct gp_analysis *an, gp_error *err)
{
	struct doc d = {.out = out, .t = an->trace, .names = an->trace ? &an->trace->strs : NULL, .first = true};
	size_t top = an->top == SIZE_MAX ? HTML_TOP : an->top;
	int rc = GP_OK;

	open_c(&d, NULL, '{');
	str(&d, "tool", "gpuprof");
	open_c(&d, "inputs", '[');
	if (an->job) {
		for (size_t i = 0; i < an->job->n; i++) {
			sep(&d);
			fputs(an->job->ranks[i].input, out);
		}
	} else {
		write_input(&d, an, true);
	}
	close_c(&d, ']');
	if (an->job)
		rc = write_job(&d, an->job, top, err);
	close_c(&d, '}');
	return rc;
}

static int write_data_part(FILE *out, const void *an, gp_error *err)
{
	return write_data(out, an, err);
}

/* Writes the template, each "<!--gp:NAME-->" replaced by its part: style,
** library, data, script. */
static int html_write(gp_sink *s, const struct gp_analysis *an, gp_error *err)
{
	const struct gp_html_part parts[] = {
		{"style", gp_html_style, gp_html_style_len, NULL, NULL},
		{"library", an->script, an->script_len, NULL, NULL},
		{"data", NULL, 0, write_data_part, an},
		{"common", gp_html_common_script, gp_html_common_script_len, NULL, NULL},
		{"script", gp_html_script, gp_html_script_len, NULL, NULL},
	};

	if (!an->job && (!an->trace || !an->trace->attrs))
		return gp_err(err, GP_ERR_USAGE, "html: no correlated trace");
	if (!an->script)
		return gp_err(err, GP_ERR_USAGE, "html: no charting library");
	if (gp_html_ends_script(an->script, an->script_len))
		return gp_err(err, GP_ERR_FORMAT, "html: the charting library contains '</script': not inlined");
	return gp_html_fill(s->out, (const char *)gp_html_template, gp_html_template_len, parts,
			    sizeof(parts) / sizeof(parts[0]), err);
}

const struct gp_sink_ops gp_sink_html = {
	.name = "html",
	.help = "a self-contained HTML report with charts (gpuprof html)",
	.write = html_write,
};
