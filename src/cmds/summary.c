/*
** gpuprof summary: nvprof's summary view with nsys stats' numbers.  Two
** sections: "GPU activities" (kernels grouped by name, memcpy by kind,
** memset; or GPU time grouped by op, layer, iteration, stream or device)
** and "API calls" (grouped by name without its _vNNNN suffix).  Each row:
** Time (%), Total, Calls, Avg, Med, Min, Max, StdDev, Name, with the math
** of cuda_gpu_kern_sum/cuda_api_sum (formats.md 1.9; src/util/stats.h).
**
** One pass collects (group key, duration) pairs, one sort makes groups
** contiguous with their durations ascending, one pass computes each group.
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/layers.h"
#include "cmds/cmds.h"
#include "cmds/options.h"
#include "analysis/attr_graph.h"
#include "analysis/phases.h"
#include "analysis/steps.h"
#include "util/sort.h"
#include "util/stats.h"
#include "writers/writer.h"

static const struct gp_cmd_opt summary_own[] = {
	{"section", 's', "S", "gpu, api or all (default)"},
	{"by", 'b', "G", "group GPU time by: kernel (default: kernel name, plus\n"
	 "memcpy by kind and memset), op, layer, module-type (the\n"
	 "layer's module class: Qwen2Attention_3 counts as\n"
	 "Qwen2Attention), iter (a row per step of the run, as\n"
	 "advise counts them: the kernels launched inside it, its\n"
	 "Step time and GPU span; kernels launched in no step:\n"
	 "'(none)', null in json; by\n"
	 "op, kernels replayed from a CUDA graph whose op is\n"
	 "unknown: 'graph replay (op unknown)'; by layer, those\n"
	 "no capture attributed: 'graph replay (layer unknown)'),\n"
	 "phase (the serving step around the launch: prefill,\n"
	 "decode, mixed; with the batch size of the capture a\n"
	 "replayed graph matched: 'decode bs=8', or 'bs=8' where\n"
	 "no step is marked), pass (fprop, bprop, wgrad: the op's,\n"
	 "else one a user annotation names, 'attn(F)', 'mlp(W)';\n"
	 "docs/correlation.md), stream or device (all GPU\n"
	 "activities)"},
	{"phase", 0, "P", "GPU activities: only the kernels of serving steps of\n"
	 "phase P (prefill, decode, mixed: SGLang step[EXTEND],\n"
	 "vLLM execute_... markers; docs/correlation.md), or of\n"
	 "graph replays of batch size N (bs=N: the capture they\n"
	 "matched), or both ('decode bs=8')"},
	{"sort", 0, "COL", "each section's rows in the order of this column (a\n"
	 "-f json key: total, calls, avg, med, min, max,\n"
	 "stddev, name): numbers largest first, names A to Z\n"
	 "(default: total; -s is --section); -n keeps the first"},
	{NULL, 0, NULL, NULL},
};
enum { OWN_SECTION, OWN_BY, OWN_PHASE, OWN_SORT };

static const struct gp_cmd_spec summary_spec = {
	.name = "summary",
	.about =
	"Total, count, average, median, minimum, maximum and standard deviation of\n"
	"the time of each kernel, memory operation and CUDA API call, largest total\n"
	"first (nvprof's summary; the numbers of nsys stats' cuda_gpu_kern_sum and\n"
	"cuda_api_sum).  Time (%) is the share of the section's total.  -n limits\n"
	"each section.",
	.shared = GP_OPT_FORMAT | GP_OPT_TOP | GP_OPT_WIDTH | GP_OPT_NO_HEADER | GP_OPT_JOBS | GP_OPT_WINDOW | GP_OPT_FILTER |
		  GP_OPT_DEPTH | GP_OPT_NAMES,
	.many_files = true,
	.row_formats = true,
	.format_note = "(times in ns except in the table)",
	.own = summary_own,
};

enum by { BY_KERNEL, BY_OP, BY_LAYER, BY_ITER, BY_STREAM, BY_DEVICE, BY_PHASE, BY_PASS };

/* One duration (b, >= 0) and the group it belongs to (a): a gp_str for
** names, a number for iteration/stream/device.  Pairs, so that the one
** large sort (an item per kernel and API call) is a radix sort. */
typedef GP_VEC(struct gp_pair) item_vec;

struct group {
	uint64_t key;
	struct gp_stats st;
	const char *name;      /* points into the trace's strings or names[] */
	bool unknown;          /* no op, layer or iteration: "(none)", null in JSON */
	const struct gp_step *step;   /* --by iter: its step (NULL: none) */
};

struct opts {
	enum by by;
	struct gp_layer_view layers;   /* --depth, --by module-type */
	bool base;
	size_t top;            /* rows per section, SIZE_MAX = all */
	int sections;          /* bit 0 gpu, bit 1 api */
	bool select;           /* --phase given */
	struct gp_phase_sel sel;  /* --phase */
	const char *sort;      /* --sort: a column key, NULL = nsys' order */
};

/* nsys' order: total descending, then count, then name. */
static int cmp_group(const void *a, const void *b)
{
	const struct group *x = a, *y = b;

	if (x->st.total != y->st.total)
		return x->st.total > y->st.total ? -1 : 1;
	if (x->st.n != y->st.n)
		return x->st.n < y->st.n ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void add(item_vec *v, uint64_t key, int64_t start, int64_t end)
{
	struct gp_pair *it = gp_vec_push(*v);
	it->a = key;
	/* a record ending before it starts is damaged; count it as 0, not as a
	** huge negative that would poison every total */
	it->b = end > start ? (uint64_t)(end - start) : 0;
}

/* Kernel k's group name: its label (--base; memo: gp_kernel_label_of's)
** or its full name, interned. */
static gp_str kernel_name(gp_trace *t, const struct gp_kernel *k, bool base, gp_str *memo)
{
	const struct gp_kernel_def *kd = gp_kernel_def(t, k);
	gp_str a = base ? gp_kernel_label_of(t, k, memo) : kd->demangled;
	return a ? a : kd->name ? kd->name : gp_intern(t, "(unnamed kernel)");
}

/* Group key of kernel i; names are interned so the key is a gp_str.
** phase, batch: the kernels' serving phases and batch sizes (NULL: none
** known); kernel_iter: each kernel's step number (steps.h; NULL: none). */
static uint64_t kernel_key(gp_trace *t, size_t i, const struct opts *o, const uint8_t *phase,
			   const int32_t *batch, const int32_t *kernel_iter, gp_str *memo)
{
	const struct gp_kernel *k = &t->kernels.v[i];
	const struct gp_attr *a = t->attrs ? &t->attrs[i] : NULL;

	switch (o->by) {
	case BY_KERNEL:
		return kernel_name(t, k, o->base, memo);
	case BY_OP:
		if (a && gp_graph_op_group(t, a))
			return gp_graph_op_group(t, a);
		return a && a->op ? a->op : a && a->marker ? a->marker : 0;
	case BY_LAYER:
		return a ? gp_layer_group_of(t, NULL, a) : 0;
	case BY_ITER:   /* the run's step (steps.h): the one its launch lies in */
		return kernel_iter && kernel_iter[i] >= 0 ? (uint64_t)kernel_iter[i] + 1 : 0;
	case BY_STREAM:
		return (uint64_t)(uint32_t)gp_kernel_device(t, k) << 32 | k->stream;
	case BY_DEVICE:
		return (uint32_t)gp_kernel_device(t, k);
	case BY_PHASE:
		return (uint64_t)(phase ? phase[i] : GP_PHASE_NONE) << 32 | (uint32_t)((batch ? batch[i] : -1) + 1);
	case BY_PASS:   /* the op's pass, else an annotation's (layers.h) */
		return a ? a->dir : GP_DIR_NA;
	}
	return 0;
}

/* The row name of a group's key. */
static const char *key_label(const gp_trace *t, uint64_t key, const struct opts *o, char *buf,
			     size_t size)
{
	const struct gp_device *d;

	switch (o->by) {
	case BY_KERNEL:
	case BY_OP:
	case BY_LAYER:
		return key ? gp_s(t, (gp_str)key) : "(none)";
	case BY_ITER:
		if (!key)
			return "(none)";
		snprintf(buf, size, "iteration %" PRIu64, key - 1);
		return buf;
	case BY_STREAM:
		snprintf(buf, size, "GPU %d stream %u", (int32_t)(key >> 32), (uint32_t)key);
		return buf;
	case BY_PHASE:
		return key ? gp_phase_label((int)(key >> 32), (int32_t)(uint32_t)key - 1, buf, size) : "(none)";
	case BY_PASS:
		return key ? gp_dir_name((int)key) : "(none)";
	case BY_DEVICE:
		d = gp_trace_device(t, (int32_t)key);
		if (d && d->name)
			snprintf(buf, size, "GPU %d (%s)", (int32_t)key, gp_s(t, d->name));
		else
			snprintf(buf, size, "GPU %d", (int32_t)key);
		return buf;
	}
	return "";
}

/* Reorders groups g[0..n) (in nsys' order) by column key (--sort, checked
** by summary_option): a number largest first, the name A to Z; equal
** keys keep their order. */
static void sort_groups(struct group *g, size_t n, const char *key)
{
	struct gp_sort_key *keys = gp_xmalloc(n * sizeof(*keys));
	struct group *copy = gp_xmalloc(n * sizeof(*copy));

	for (size_t i = 0; i < n; i++) {
		const struct gp_stats *st = &g[i].st;
		keys[i] = (struct gp_sort_key){.row = i};
		if (strcmp(key, "name") == 0)
			keys[i].text = g[i].unknown ? "" : g[i].name;
		else
			keys[i].num = !strcmp(key, "calls") ? (double)st->n : !strcmp(key, "avg_ns") ? st->avg
				: !strcmp(key, "med_ns") ? st->med : !strcmp(key, "min_ns") ? (double)st->min
				: !strcmp(key, "max_ns") ? (double)st->max : !strcmp(key, "stddev_ns") ? st->stddev
				: (double)st->total;   /* total_ns, time_pct, type */
	}
	qsort(keys, n, sizeof(*keys), gp_sort_key_cmp);
	for (size_t i = 0; i < n; i++)
		copy[i] = g[keys[i].row];
	memcpy(g, copy, n * sizeof(*g));
	free(copy);
	free(keys);
}

/* Sorts items, computes one group per key, sorts the groups.  Labels of
** numeric keys are kept in *labels (freed by the caller). */
static struct group *make_groups(const gp_trace *t, struct gp_pair *items, size_t n, const struct opts *o,
				 bool named_keys, size_t *ngroups, char ***labels)
{
	struct group *g = NULL;
	int64_t *scratch;
	size_t ng = 0, cap = 0;

	*labels = NULL;
	gp_sort_pairs(items, n);
	scratch = gp_xmalloc((n ? n : 1) * sizeof(*scratch));
	for (size_t i = 0; i < n;) {
		size_t j = i;
		char buf[512];
		while (j < n && items[j].a == items[i].a) {
			scratch[j - i] = (int64_t)items[j].b;
			j++;
		}
		if (ng == cap) {
			cap = cap ? 2 * cap : 64;
			g = gp_xrealloc(g, cap * sizeof(*g));
			*labels = gp_xrealloc(*labels, cap * sizeof(**labels));
		}
		g[ng].key = items[i].a;
		g[ng].step = NULL;
		g[ng].unknown = !items[i].a && (named_keys || o->by == BY_ITER || o->by == BY_PHASE || o->by == BY_PASS);
		gp_stats_sorted(scratch, j - i, &g[ng].st);
		if (named_keys) {
			g[ng].name = items[i].a ? gp_s(t, (gp_str)items[i].a) : "(none)";
			(*labels)[ng] = NULL;
		} else {
			(*labels)[ng] = gp_xstrdup(key_label(t, items[i].a, o, buf, sizeof(buf)));
			g[ng].name = (*labels)[ng];
		}
		ng++;
		i = j;
	}
	free(scratch);
	if (ng > 1)
		qsort(g, ng, sizeof(*g), cmp_group);
	if (o->sort && ng > 1)
		sort_groups(g, ng, o->sort);
	*ngroups = ng;
	return g;
}

static const struct gp_column cols_raw[] = {
	{"type", "Type", 14, false, false, NULL},
	{"time_pct", "Time", 5, true, false, NULL, GP_UNIT_PCT},
	{"total_ns", "Total Time", 8, true, false, NULL, GP_UNIT_NS},
	{"calls", "Calls", 5, true, false, NULL},
	{"avg_ns", "Avg", 8, true, false, "-", GP_UNIT_NS},
	{"med_ns", "Med", 8, true, false, "-", GP_UNIT_NS},
	{"min_ns", "Min", 8, true, false, "-", GP_UNIT_NS},
	{"max_ns", "Max", 8, true, false, "-", GP_UNIT_NS},
	{"stddev_ns", "StdDev", 8, true, false, "-", GP_UNIT_NS},
	{"name", "Name", 20, false, true, "(none)"},
};

static const struct gp_column cols_table[] = {
	{"type", "Type", 14, false, false, NULL},
	{"time_pct", "Time", 5, true, false, NULL, GP_UNIT_PCT},
	{"total", "Total", 8, true, false, NULL},
	{"calls", "Calls", 5, true, false, NULL},
	{"avg", "Avg", 8, true, false, "-"},
	{"med", "Med", 8, true, false, "-"},
	{"min", "Min", 8, true, false, "-"},
	{"max", "Max", 8, true, false, "-"},
	{"stddev", "StdDev", 8, true, false, "-"},
	{"name", "Name", 20, false, true, "(none)"},
};

#define NCOLS ((int)(sizeof(cols_raw) / sizeof(cols_raw[0])))

/* --by iter's two more columns, before Name: the step's time (its start
** to the next one's, steps.h) and its kernels' GPU span. */
static const struct gp_column step_raw[] = {
	{"step_ns", "Step", 8, true, false, "-", GP_UNIT_NS},
	{"gpu_span_ns", "GPU span", 8, true, false, "-", GP_UNIT_NS},
};

static const struct gp_column step_table[] = {
	{"step", "Step", 8, true, false, "-"},
	{"gpu_span", "GPU span", 8, true, false, "-"},
};

#define NSTEPCOLS 2
#define MAXCOLS (NCOLS + NSTEPCOLS)

/* The Step and GPU span cells of step x (NULL: no step, both unknown)
** into a and b (size bytes each), their pointers at cell[0] and cell[1]. */
static void step_cells(const struct gp_step *x, bool table, char *a, char *b, size_t size, const char **cell)
{
	cell[0] = cell[1] = NULL;
	if (!x)
		return;
	gp_ns span = x->gpu_end > x->gpu_start ? x->gpu_end - x->gpu_start : 0;
	if (table) {
		gp_fmt_duration((double)gp_step_ns(x), a, size);
		gp_fmt_duration((double)span, b, size);
	} else {
		snprintf(a, size, "%" PRId64, (int64_t)gp_step_ns(x));
		snprintf(b, size, "%" PRId64, (int64_t)span);
	}
	cell[0] = a;
	cell[1] = x->gpu_end > x->gpu_start ? b : NULL;
}

/* Writes one section's rows; Time (%) is relative to the section's sum over
** all groups, also those cut by --top. */
static void write_section(gp_writer *w, const char *type, const struct group *g, size_t ng,
			  const struct opts *o, bool table)
{
	char v[MAXCOLS - 2][64];
	const char *row[MAXCOLS];
	int64_t sum = 0;
	size_t shown = o->top < ng ? o->top : ng;
	int ncols = o->by == BY_ITER ? MAXCOLS : NCOLS;

	for (size_t i = 0; i < ng; i++)
		sum += g[i].st.total;
	for (size_t i = 0; i < shown; i++) {
		const struct gp_stats *s = &g[i].st;
		row[0] = table && i ? "" : type;
		snprintf(v[0], sizeof(v[0]), "%.1f", gp_percent(s->total, sum));
		snprintf(v[2], sizeof(v[2]), "%" PRIu64, s->n);
		if (table) {
			gp_fmt_duration((double)s->total, v[1], sizeof(v[1]));
			gp_fmt_duration(s->avg, v[3], sizeof(v[3]));
			gp_fmt_duration(s->med, v[4], sizeof(v[4]));
			gp_fmt_duration((double)s->min, v[5], sizeof(v[5]));
			gp_fmt_duration((double)s->max, v[6], sizeof(v[6]));
			gp_fmt_duration(s->stddev, v[7], sizeof(v[7]));
		} else {
			snprintf(v[1], sizeof(v[1]), "%" PRId64, s->total);
			snprintf(v[3], sizeof(v[3]), "%.1f", s->avg);
			snprintf(v[4], sizeof(v[4]), "%.1f", s->med);
			snprintf(v[5], sizeof(v[5]), "%" PRId64, s->min);
			snprintf(v[6], sizeof(v[6]), "%" PRId64, s->max);
			snprintf(v[7], sizeof(v[7]), "%.1f", s->stddev);
		}
		for (int c = 0; c < ncols - 2; c++)
			row[c + 1] = v[c];
		if (!s->n)   /* a step without kernels: no kernel time to describe */
			for (int c = 3; c < 8; c++)
				row[c + 1] = NULL;
		if (o->by == BY_ITER)
			step_cells(g[i].step, table, v[NCOLS - 2], v[NCOLS - 1], sizeof(v[0]), &row[NCOLS - 1]);
		row[ncols - 1] = g[i].unknown ? NULL : g[i].name;
		gp_writer_row(w, row);
	}
}

static void free_groups(struct group *g, char **labels, size_t ng)
{
	if (labels)
		for (size_t i = 0; i < ng; i++)
			free(labels[i]);
	free(labels);
	free(g);
}

/* --by iter: gives each group of g (ng of them, labels as make_groups
** made them) its step of s, and adds a row of no kernel for each step
** none was launched in (not under --phase, which shows only the steps
** of its kernels); re-sorts.  Returns g, reallocated. */
static struct group *with_steps(const gp_trace *t, struct group *g, size_t *ng, char ***labels,
				const struct gp_steps *s, const struct opts *o)
{
	uint8_t *seen = gp_xcalloc(s->n ? s->n : 1, 1);
	gp_u64map at = {0};
	size_t n = *ng;

	for (size_t i = 0; i < s->n; i++)
		gp_u64map_put(&at, (uint32_t)s->v[i].iter, (int32_t)i);
	for (size_t i = 0; i < n; i++) {
		int32_t x = g[i].key ? gp_u64map_get(&at, (uint32_t)(g[i].key - 1)) : -1;
		if (x >= 0) {
			g[i].step = &s->v[x];
			seen[x] = 1;
		}
	}
	gp_u64map_free(&at);
	for (size_t i = 0; i < s->n && !o->select; i++) {
		char buf[64];
		if (seen[i])
			continue;
		g = gp_xrealloc(g, (n + 1) * sizeof(*g));
		*labels = gp_xrealloc(*labels, (n + 1) * sizeof(**labels));
		memset(&g[n], 0, sizeof(g[n]));
		g[n].key = (uint64_t)s->v[i].iter + 1;
		g[n].step = &s->v[i];
		(*labels)[n] = gp_xstrdup(key_label(t, g[n].key, o, buf, sizeof(buf)));
		g[n].name = (*labels)[n];
		n++;
	}
	free(seen);
	if (n > 1)
		qsort(g, n, sizeof(*g), cmp_group);
	*ng = n;
	return g;
}

/* GPU activities: kernels, then (by kernel/stream/device) memcpy and memset;
** the run's facts from a: its steps (--by iter), its kernels' phases
** (--by phase, --phase), its layers (--by layer, cut by the runner). */
static void gpu_section(gp_writer *w, gp_trace *t, const struct opts *o, const struct gp_analysis *a, bool table)
{
	item_vec items = {0};
	bool named = o->by == BY_KERNEL || o->by == BY_OP || o->by == BY_LAYER;
	bool mem = (o->by == BY_KERNEL || o->by == BY_STREAM || o->by == BY_DEVICE) && !o->select;
	const uint8_t *phase = a->kernel_phases.phase;
	const int32_t *batch = a->kernel_phases.batch;
	gp_str *memo = gp_xcalloc(t->kernel_defs.n + 1, sizeof(*memo));
	struct group *g;
	char **labels;
	size_t ng;

	gp_vec_reserve(items, t->kernels.n + (mem ? t->memcpys.n + t->memsets.n : 0));
	for (size_t i = 0; i < t->kernels.n; i++)
		if (!o->select || gp_phase_sel_keeps(phase, batch, i, &o->sel))
			add(&items, kernel_key(t, i, o, phase, batch, a->steps.kernel_iter, memo), t->kernels.v[i].start,
			    t->kernels.v[i].end);
	free(memo);
	if (mem) {
		gp_str copy_key[GP_COPY__COUNT] = {0}, set_key = gp_intern(t, "[CUDA memset]");
		for (size_t i = 0; i < t->memcpys.n; i++) {
			const struct gp_memcpy *c = &t->memcpys.v[i];
			unsigned kind = c->copy_kind < GP_COPY__COUNT ? c->copy_kind : GP_COPY_UNKNOWN;
			uint64_t key;
			if (o->by == BY_KERNEL) {
				if (!copy_key[kind]) {
					char buf[64];
					snprintf(buf, sizeof(buf), "[CUDA memcpy %s]", gp_copy_kind_name((int)kind));
					copy_key[kind] = gp_intern(t, buf);
				}
				key = copy_key[kind];
			} else {
				key = o->by == BY_STREAM ? (uint64_t)(uint32_t)c->device << 32 | c->stream
							 : (uint32_t)c->device;
			}
			add(&items, key, c->start, c->end);
		}
		for (size_t i = 0; i < t->memsets.n; i++) {
			const struct gp_memset *s = &t->memsets.v[i];
			uint64_t key = o->by == BY_KERNEL ? set_key
				     : o->by == BY_STREAM ? (uint64_t)(uint32_t)s->device << 32 | s->stream
							  : (uint32_t)s->device;
			add(&items, key, s->start, s->end);
		}
	}
	g = make_groups(t, items.v, items.n, o, named, &ng, &labels);
	if (o->by == BY_ITER)
		g = with_steps(t, g, &ng, &labels, &a->steps, o);
	write_section(w, "GPU activities", g, ng, o, table);
	free_groups(g, labels, ng);
	gp_vec_free(items);
}

/* API calls, by name without the version suffix.  The stripped name of each
** distinct name id is computed once. */
static void api_section(gp_writer *w, gp_trace *t, const struct opts *o, bool table)
{
	item_vec items = {0};
	gp_str *stripped = gp_xcalloc(t->strs.n + 1, sizeof(*stripped));
	size_t nstripped = t->strs.n + 1, ng;
	struct group *g;
	char **labels;

	gp_vec_reserve(items, t->apis.n);
	for (size_t i = 0; i < t->apis.n; i++) {
		const struct gp_api *a = &t->apis.v[i];
		gp_str key = 0, name = gp_api_def(t, a)->name;
		if (name < nstripped) {
			if (!stripped[name]) {
				char buf[256];
				const char *s = gp_s(t, name);
				stripped[name] = gp_intern(t, *s ? gp_api_strip_version(s, buf, sizeof(buf))
							       : "(unnamed API call)");
			}
			key = stripped[name];
		}
		add(&items, key, a->start, a->end);
	}
	g = make_groups(t, items.v, items.n, o, true, &ng, &labels);
	write_section(w, "API calls", g, ng, o, table);
	free_groups(g, labels, ng);
	gp_vec_free(items);
	free(stripped);
}

static const char *const by_names[] = {"kernel", "op", "layer", "iter", "stream", "device", "phase", "pass"};

/* Parses summary's own options into the struct opts at ctx. */
static int summary_option(void *ctx, int index, const char *arg)
{
	struct opts *o = ctx;

	switch (index) {
	case OWN_SECTION:
		if (strcmp(arg, "gpu") == 0)
			o->sections = 1;
		else if (strcmp(arg, "api") == 0)
			o->sections = 2;
		else if (strcmp(arg, "all") == 0)
			o->sections = 3;
		else
			return gp_cli_usage("summary", "--section wants gpu, api or all, not '%s'", arg);
		return 0;
	case OWN_BY:
		o->layers.module_type = strcmp(arg, "module-type") == 0;
		if (o->layers.module_type) {
			o->by = BY_LAYER;
			return 0;
		}
		for (int i = 0; i < (int)(sizeof(by_names) / sizeof(by_names[0])); i++)
			if (strcmp(arg, by_names[i]) == 0) {
				o->by = (enum by)i;
				return 0;
			}
		return gp_cli_usage("summary", "--by wants kernel, op, layer, module-type, iter, stream, device, "
				    "phase or pass, not '%s'", arg);
	case OWN_PHASE:
		o->select = true;
		if (gp_phase_sel_parse(arg, &o->sel) == 0)
			return 0;
		return gp_cli_usage("summary", "--phase wants " GP_PHASE_SEL_WANTS ", not '%s'", arg);
	case OWN_SORT: {
		int c = gp_column_find(cols_raw, NCOLS, strcmp(arg, "time") == 0 ? "time_pct" : arg);
		if (c < 0)
			return gp_cli_usage("summary", "bad --sort '%s' (total, calls, avg, med, min, max, stddev "
					    "or name)", arg);
		o->sort = cols_raw[c].key;
		return 0;
	}
	}
	return 0;
}

/* What summary does with each trace (gp_cli_trace_fn). */
struct job {
	struct opts o;
	bool table;
};

static int summary_trace(const void *ctx, gp_trace *t, gp_writer *w, gp_writer *rec, gp_error *err)
{
	const struct job *j = ctx;
	struct gp_analysis a;
	struct gp_analysis_opts ao;
	/* the run's facts, as every command's: --by iter its steps, --by
	** layer its layers under --depth/module-type, --by phase and --phase
	** its kernels' phases */
	unsigned needs = (j->o.by == BY_ITER ? GP_NEED_STEPS : 0) | (j->o.by == BY_LAYER ? GP_NEED_LAYERS : 0) |
			 (j->o.by == BY_PHASE || j->o.select ? GP_NEED_KERNEL_PHASES : 0);
	int rc;

	gp_analysis_opts_init(&ao);
	ao.layers = j->o.layers;
	rc = gp_analysis_run(t, needs, &ao, &a, err);
	if (rc == GP_OK && (j->o.sections & 1))
		gpu_section(w, t, &j->o, &a, j->table);
	if (rc == GP_OK && (j->o.sections & 2))
		api_section(w, t, &j->o, j->table);
	gp_analysis_free(&a);
	return rc;
}

int cmd_summary(int argc, char **argv)
{
	struct job j = {.o = {.by = BY_KERNEL, .sections = 3}};
	struct gp_cli_many m = {.cmd = "summary", .fn = summary_trace, .ctx = &j, .ncols = NCOLS,
				.needs_kernels = true};
	static struct gp_column iter_cols[MAXCOLS];
	struct gp_cli_opts co;
	int rc;

	rc = gp_cli_parse(&summary_spec, argc, argv, &co, summary_option, &j.o);
	if (rc)
		return rc == GP_CLI_DONE ? GP_EXIT_OK : rc;
	if (co.depth && j.o.by != BY_LAYER)
		return gp_cli_usage("summary", "--depth cuts layer paths: it needs --by layer or module-type");
	j.o.layers.depth = co.depth;
	j.o.base = gp_cli_short_names(&co);
	j.o.top = co.top;
	j.table = strcmp(co.format, "table") == 0;
	m.cols = j.table ? cols_table : cols_raw;
	if (j.o.by == BY_ITER) {
		/* the step's two columns before Name */
		memcpy(iter_cols, m.cols, (NCOLS - 1) * sizeof(*iter_cols));
		memcpy(&iter_cols[NCOLS - 1], j.table ? step_table : step_raw, sizeof(step_raw));
		iter_cols[MAXCOLS - 1] = m.cols[NCOLS - 1];
		m.cols = iter_cols;
		m.ncols = MAXCOLS;
	}
	return gp_cli_run(&m, &co);
}
