/*
** The Kineto reader after a complete parse: what needs the whole file
** (the base time comes after the events, flows and pids join records),
** then the notes.  See kineto_int.h.
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/calls.h"
#include "util/par.h"
#include "readers/kineto_int.h"


/* Adds the base time to every record (libkineto writes ts relative to
** baseTimeNanoseconds, and writes that key after the events). */
static void apply_base(struct kineto_parser *p)
{
	gp_trace *t = p->t;
	int64_t b = p->base_ns;

	if (!b)
		return;
#define SHIFT(vec)                                            \
	for (size_t i = 0; i < t->vec.n; i++) {               \
		t->vec.v[i].start += b;                       \
		t->vec.v[i].end += b;                         \
	}
	SHIFT(kernels)
	SHIFT(apis)
	SHIFT(memcpys)
	SHIFT(memsets)
	SHIFT(syncs)
	SHIFT(ranges)
#undef SHIFT
	for (size_t i = 0; i < t->memevents.n; i++)
		t->memevents.v[i].ts += b;
	char tmp[32];
	snprintf(tmp, sizeof(tmp), "%" PRId64, b);
	gp_trace_meta_set(t, "base_time_ns", tmp);
}

/* GPU records carry the device as pid; the launching process is the one
** whose runtime call has the same correlation id.  An id that calls of
** different processes share names none of them (merged multi-process
** traces): gp_call_find_unique says so instead of a sentinel index. */
static void link_pids(gp_trace *t)
{
	gp_call_index calls;
	gp_u64map memo = {0};

	gp_call_index_build(&calls, t);
#define LINK(vec)                                                           \
	for (size_t i = 0; i < t->vec.n; i++) {                             \
		int32_t j = gp_call_find_unique(&calls, t->vec.v[i].corr);  \
		if (j >= 0)                                                 \
			t->vec.v[i].pid = t->apis.v[j].pid;                 \
	}
	for (size_t i = 0; i < t->kernels.n; i++) {
		int32_t j = gp_call_find_unique(&calls, t->kernels.v[i].corr);
		if (j >= 0)
			gp_kernel_set_pid(t, &t->kernels.v[i], t->apis.v[j].pid, &memo);
	}
	gp_u64map_free(&memo);
	LINK(memcpys)
	LINK(memsets)
	LINK(syncs)
	LINK(event_records)
#undef LINK
	gp_call_index_free(&calls);
}

/* The base time, then the launching processes: the records and the
** string table (gp_par2). */
static void base_and_pids(void *arg)
{
	struct kineto_parser *p = arg;

	apply_base(p);
	link_pids(p->t);
}

/* What the reader kept, what it skipped and what the file lacks. */
static void add_notes(struct kineto_parser *p)
{
	gp_trace *t = p->t;
	const char *rank = gp_trace_meta_get(t, "rank");

	if (gp_trace_meta_get(t, "dist_backend") && !rank)
		gp_trace_warn(t, "distributedInfo has no rank");
	for (size_t i = 0; i < p->skipped.n; i++) {
		const char *why = "not a category gpuprof reads";
		if (strncmp(p->skipped.v[i].name, "mtia", 4) == 0)
			why = "MTIA device activity, not CUDA kernels";
		else if (strcmp(p->skipped.v[i].name, "cuda_profiler_range") == 0)
			why = "CUPTI range-profiler counters: kernel records were not captured";
		gp_trace_warn(t, "%" PRIu64 " events of category %s not read (%s)",
			      p->skipped.v[i].count, p->skipped.v[i].name, why);
	}
	if (p->hip_apis)
		gp_trace_warn(t, "AMD GPU trace (HIP API names under cuda_runtime); kernels have no "
			      "registers or occupancy fields");
	else if (p->no_launch_cfg)
		gp_trace_warn(t, "%" PRIu64 " kernels have no grid/block/register fields",
			      p->no_launch_cfg);
	if (p->no_ts)
		gp_trace_warn(t, "%" PRIu64 " complete events without ts skipped", p->no_ts);
	if (p->mem_unread)
		gp_trace_warn(t, "%" PRIu64 " [memory] events without ts or Bytes skipped", p->mem_unread);
	if (p->mem_negative_total)
		gp_trace_warn(t, "%" PRIu64 " [memory] events state a total below 0 (read as not "
			      "stated: replayed from the byte counts)", p->mem_negative_total);
	if (p->mem_other_type)
		gp_trace_warn(t, "%" PRIu64 " [memory] events of a device type other than CPU, CUDA or "
			      "HIP not read", p->mem_other_type);
	if (p->neg_dur)
		gp_trace_warn(t, "%" PRIu64 " events with negative dur set to 0", p->neg_dur);
}

/* CUDA versions as libkineto writes them (12040) also as "12.4". */
static void format_versions(gp_trace *t)
{
	static const char *keys[] = {"cuda_runtime_version", "cuda_driver_version"};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const char *v = gp_trace_meta_get(t, keys[i]);
		char *end, tmp[64];
		long n = v ? strtol(v, &end, 10) : 0;
		if (!v || *end || n < 1000)
			continue;
		snprintf(tmp, sizeof(tmp), "%ld.%ld (%ld)", n / 1000, (n % 1000) / 10, n);
		gp_trace_meta_set(t, keys[i], tmp);
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The launch flows: the ids of "ac2g" flows seen with both a start and
** an end, sorted and unique, into the trace.  Touches p->ac2g and
** t->launch_flows only (gp_par2). */
static void launch_flows(void *arg)
{
	struct kineto_parser *p = arg;
	gp_trace *t = p->t;

	t->has_launch_flows = true;
	gp_vec_sort(p->ac2g[0], cmp_u64);
	gp_vec_sort(p->ac2g[1], cmp_u64);
	for (size_t i = 0, j = 0; i < p->ac2g[0].n && j < p->ac2g[1].n;) {
		uint64_t a = p->ac2g[0].v[i], b = p->ac2g[1].v[j];
		if (a < b) {
			i++;
		} else if (b < a) {
			j++;
		} else {
			if (!t->launch_flows.n || t->launch_flows.v[t->launch_flows.n - 1] != a)
				*gp_vec_push(t->launch_flows) = a;
			i++;
			j++;
		}
	}
}

void kineto_finish(struct kineto_parser *p)
{
	const char *schema = gp_trace_meta_get(p->t, "schema_version");
	char tool[64];

	kineto_resolve_flows(p);   /* flow ts are still relative, like the ranges */
	gp_par2(base_and_pids, p, launch_flows, p, gp_par_worth(p->t->work_threads, p->ac2g[0].n));
	format_versions(p->t);
	add_notes(p);
	snprintf(tool, sizeof(tool), "PyTorch profiler (Kineto)%s%s", schema ? ", schema " : "",
		 schema ? schema : "");
	p->t->tool_version = gp_intern(p->t, tool);
	p->t->framework = GP_FW_PYTORCH;
	p->t->clock_res = p->clock_res;
}
