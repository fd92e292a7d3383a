/*
** A run's facts for diff's "What changed"; see diff_facts.h.
*/
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "analysis/diff.h"
#include "analysis/diff_facts.h"
#include "util/u64map.h"

const char *const gp_diff_fact_names[GP_FACT__COUNT] = {
	[GP_FACT_GPU] = "GPU",
	[GP_FACT_TOOL] = "profiler",
	[GP_FACT_CUDA] = "CUDA runtime",
	[GP_FACT_DRIVER] = "CUDA driver",
	[GP_FACT_TORCH] = "PyTorch",
	[GP_FACT_WORLD] = "world size",
	[GP_FACT_GRAPHS] = "CUDA graph launches",
	[GP_FACT_TRITON] = "Triton kernels (torch.compile)",
	[GP_FACT_COMPILED] = "compiled regions (torch.compile)",
	[GP_FACT_SHAPES] = "first op's input shapes",
};

/* Whether range text s names a torch.compile region: Inductor's
** "## Call CompiledFxGraph <hash> ##" or Dynamo's "Torch-Compiled Region". */
static bool compiled_region(const char *s)
{
	return s && (strstr(s, "CompiledFxGraph") || strncmp(s, "Torch-Compiled Region", 21) == 0);
}

/* The number of distinct compiled regions of t, and into buf the name and
** input shapes of t's earliest framework op that has shapes with a
** dimension ("aten::conv2d [[32,3,224,224],[64,3,7,7],[]]"; "" when none). */
static size_t ops_facts(const gp_trace *t, char *buf, size_t size)
{
	gp_u64map seen = {0};
	size_t regions = 0;
	gp_ns first = INT64_MAX;

	buf[0] = '\0';
	for (size_t i = 0; i < t->ranges.n; i++) {
		const struct gp_range *r = &t->ranges.v[i];
		const char *text = gp_s(t, r->text);
		if (compiled_region(text) && gp_u64map_add(&seen, r->text, (int32_t)regions) == (int32_t)regions)
			regions++;   /* a text seen for the first time */
		const struct gp_op_ext *x = r->kind == GP_RANGE_CPU_OP ? gp_range_op_ext(t, r) : NULL;
		const char *dims = x && x->input_dims ? gp_s(t, x->input_dims) : NULL;
		if (dims && r->start < first && strpbrk(dims, "0123456789")) {
			first = r->start;
			snprintf(buf, size, "%s %s", text, dims);
		}
	}
	gp_u64map_free(&seen);
	return regions;
}

/* The text a run shows for a fact whose files disagree. */
#define MIXED "mixed"

static void set(struct gp_diff_facts *f, int i, const char *s)
{
	snprintf(f->v[i], sizeof(f->v[i]), "%s", s ? s : "");
}

/* The counts and the world size as the texts the output compares. */
static void count_texts(struct gp_diff_facts *f)
{
	snprintf(f->v[GP_FACT_GRAPHS], GP_DIFF_FACT_TEXT, "%" PRId64, f->graphs);
	snprintf(f->v[GP_FACT_TRITON], GP_DIFF_FACT_TEXT, "%" PRId64, f->triton);
	if (f->world > 0)
		snprintf(f->v[GP_FACT_WORLD], GP_DIFF_FACT_TEXT, "%" PRId64, f->world);
	else
		snprintf(f->v[GP_FACT_WORLD], GP_DIFF_FACT_TEXT, "%zu", f->files);
}

void gp_diff_facts_of(const gp_trace *t, struct gp_diff_facts *f)
{
	const char *gpu = NULL, *world = gp_trace_meta_get(t, "world_size");
	char buf[GP_DIFF_FACT_TEXT];
	size_t ngpus = 0;

	memset(f, 0, sizeof(*f));
	f->files = 1;
	for (size_t i = 0; i < t->devices.n; i++) {
		if (!gpu && t->devices.v[i].name)
			gpu = gp_s(t, t->devices.v[i].name);
		ngpus++;
	}
	if (gpu && ngpus > 1) {
		snprintf(buf, sizeof(buf), "%zu x %s", ngpus, gpu);
		gpu = buf;
	}
	set(f, GP_FACT_GPU, gpu);
	set(f, GP_FACT_TOOL, t->tool_version ? gp_s(t, t->tool_version) : t->format ? gp_s(t, t->format) : NULL);
	set(f, GP_FACT_CUDA, gp_trace_meta_get(t, "cuda_runtime_version"));
	set(f, GP_FACT_DRIVER, gp_trace_meta_get(t, "cuda_driver_version"));
	set(f, GP_FACT_TORCH, gp_trace_meta_get(t, "pytorch_version"));
	if (world && *world && sscanf(world, "%" SCNd64, &f->world) != 1)
		f->world = 0;
	for (size_t i = 0; i < t->apis.n; i++)
		f->graphs += strstr(gp_s(t, gp_api_def(t, &t->apis.v[i])->name), "GraphLaunch") != NULL;
	for (size_t k = 0; k < t->kernels.n; k++) {
		const char *name = gp_s(t, gp_kernel_def(t, &t->kernels.v[k])->name);
		f->triton += name && strncmp(name, "triton_", 7) == 0;
	}
	size_t regions = ops_facts(t, buf, sizeof(buf));
	set(f, GP_FACT_SHAPES, buf);
	snprintf(f->v[GP_FACT_COMPILED], GP_DIFF_FACT_TEXT, "%zu", regions);
	count_texts(f);
	if (!f->world)
		set(f, GP_FACT_WORLD, NULL);   /* travels as stated or not */
}

void gp_diff_facts_put(const struct gp_diff_facts *f, gp_writer *w)
{
	for (int i = 0; i < GP_FACT__COUNT; i++) {
		char idx[16];
		const char *row[GP_DIFF_PART_NCOLS] = {"fact", idx, f->v[i]};
		snprintf(idx, sizeof(idx), "%d", i);
		gp_writer_row(w, row);
	}
}

int gp_diff_facts_add(const struct gp_rowbuf *rb, struct gp_diff_facts *run, gp_error *err)
{
	struct gp_diff_facts one;
	const char *c[GP_DIFF_PART_NCOLS];
	size_t at = 0;
	int got;

	memset(&one, 0, sizeof(one));
	while ((got = gp_rowbuf_next(rb, &at, c)) > 0) {
		int64_t i, n = 0;
		if (!c[0] || strcmp(c[0], "fact") != 0)
			continue;
		if (!gp_rowbuf_cell_i64(c[1], 0, GP_FACT__COUNT - 1, &i))
			return gp_err(err, GP_ERR_FORMAT, "diff: a damaged fact record");
		set(&one, (int)i, c[2]);
		if ((i == GP_FACT_GRAPHS || i == GP_FACT_TRITON) &&
		    !gp_rowbuf_cell_i64(c[2], 0, INT64_MAX, &n))
			return gp_err(err, GP_ERR_FORMAT, "diff: a damaged fact record");
		if (i == GP_FACT_GRAPHS)
			one.graphs = n;
		else if (i == GP_FACT_TRITON)
			one.triton = n;
		else if (i == GP_FACT_WORLD && c[2] && *c[2] &&
			 !gp_rowbuf_cell_i64(c[2], 1, INT32_MAX, &one.world))
			return gp_err(err, GP_ERR_FORMAT, "diff: a damaged fact record");
	}
	if (got < 0)
		return gp_err(err, GP_ERR_FORMAT, "diff: a damaged fact record");
	for (int i = 0; i < GP_FACT__COUNT; i++)
		if (!run->files)
			set(run, i, one.v[i]);
		else if (strcmp(run->v[i], one.v[i]) != 0)
			set(run, i, MIXED);
	run->files++;
	run->graphs += one.graphs;
	run->triton += one.triton;
	if (one.world > run->world)
		run->world = one.world;
	count_texts(run);
	return GP_OK;
}

bool gp_diff_fact_changed(const struct gp_diff_facts *a, const struct gp_diff_facts *b, int i)
{
	return a->v[i][0] && b->v[i][0] && strcmp(a->v[i], b->v[i]) != 0;
}
