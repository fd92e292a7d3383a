/*
** A run's facts for diff's "What changed"; see diff_facts.h.
*/
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "analysis/diff.h"
#include "analysis/diff_facts.h"

const char *const gp_diff_fact_names[GP_FACT__COUNT] = {
	[GP_FACT_GPU] = "GPU",
	[GP_FACT_TOOL] = "profiler",
	[GP_FACT_CUDA] = "CUDA runtime",
	[GP_FACT_DRIVER] = "CUDA driver",
	[GP_FACT_TORCH] = "PyTorch",
	[GP_FACT_WORLD] = "world size",
	[GP_FACT_GRAPHS] = "CUDA graph launches",
	[GP_FACT_TRITON] = "Triton kernels (torch.compile)",
};

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
