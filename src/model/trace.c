/*
** Trace model housekeeping: init/free, warnings, metadata, final sort and
** nesting.  See trace.h.
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/calls.h"
#include "model/classify.h"
#include "model/trace.h"
#include "util/demangle.h"
#include "util/fmt.h"
#include "util/par.h"
#include "util/sort.h"


void gp_trace_init(gp_trace *t)
{
	memset(t, 0, sizeof(*t));
	gp_strtab_init(&t->strs);
	gp_vec_push(t->kernel_defs);   /* def 0: what a zeroed kernel runs */
	gp_vec_push(t->api_defs);
}

void gp_trace_free(gp_trace *t)
{
	gp_vec_free(t->devices);
	gp_vec_free(t->processes);
	gp_vec_free(t->threads);
	gp_vec_free(t->kernels);
	gp_vec_free(t->kernel_defs);
	gp_u64map_free(&t->kernel_defs_seen);
	gp_vec_free(t->def_comm);
	gp_vec_free(t->api_defs);
	gp_u64map_free(&t->api_defs_seen);
	gp_vec_free(t->apis);
	gp_vec_free(t->memcpys);
	gp_vec_free(t->memsets);
	gp_vec_free(t->syncs);
	gp_vec_free(t->window_work);
	gp_vec_free(t->window_step_ends);
	gp_vec_free(t->event_records);
	gp_vec_free(t->ranges);
	gp_vec_free(t->coll_args);
	gp_vec_free(t->launch_args);
	gp_vec_free(t->graph_nodes);
	gp_vec_free(t->node_annots);
	for (size_t i = 0; i < t->captures.n; i++) {
		gp_trace_free(t->captures.v[i].t);
		free(t->captures.v[i].t);
	}
	gp_vec_free(t->captures);
	gp_vec_free(t->memevents);
	gp_vec_free(t->op_exts);
	gp_vec_free(t->op_work);
	gp_vec_free(t->range_nvtx);
	gp_vec_free(t->args);
	gp_vec_free(t->meta);
	gp_vec_free(t->warnings);
	gp_vec_free(t->launch_flows);
	free(t->attrs);
	free(t->replay_graph);
	free(t->kernel_trial);
	free(t->replay_node);
	gp_vec_free(t->captured_graphs);
	gp_vec_free(t->captured_nodes);
	gp_arena_free(&t->arena);
	gp_strtab_free(&t->strs);
	memset(t, 0, sizeof(*t));
}

void gp_trace_warn(gp_trace *t, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	gp_str id;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	id = gp_intern(t, buf);
	for (size_t i = 0; i < t->warnings.n; i++)
		if (t->warnings.v[i] == id)
			return;
	*gp_vec_push(t->warnings) = id;
}

/* The record sizes docs/trace-model.md and docs/PERFORMANCE.md state: a
** field added to a per-event record costs bytes on every event. */
_Static_assert(sizeof(struct gp_range) == 40, "gp_range is 40 bytes");
_Static_assert(sizeof(struct gp_kernel) == 40, "gp_kernel is 40 bytes");
_Static_assert(sizeof(struct gp_attr) == 64, "gp_attr is 64 bytes");
_Static_assert(sizeof(struct gp_api) == 48, "gp_api is 48 bytes");
/* The shared tables are hashed and compared as bytes: no padding in them. */
_Static_assert(sizeof(struct gp_kernel_def) == 18 * 4 + 8, "gp_kernel_def has no padding");
_Static_assert(sizeof(struct gp_api_def) == 4 * 4, "gp_api_def has no padding");

uint32_t gp_share_record(void **v, size_t *n, size_t *cap, size_t size, gp_u64map *seen,
			 const void *rec)
{
	int32_t prev = gp_u64map_add(seen, gp_strtab_hash(rec, size), (int32_t)*n);

	if ((size_t)prev < *n && memcmp((char *)*v + (size_t)prev * size, rec, size) == 0)
		return (uint32_t)prev;
	gp_vec_grow_(v, cap, size, *n + 1);
	memcpy((char *)*v + *n * size, rec, size);
	return (uint32_t)(*n)++;
}

uint32_t gp_kernel_def_add(gp_trace *t, const struct gp_kernel_def *d)
{
	return gp_share_record((void **)&t->kernel_defs.v, &t->kernel_defs.n, &t->kernel_defs.cap,
			    sizeof(*d), &t->kernel_defs_seen, d);
}

void gp_kernel_set_pid(gp_trace *t, struct gp_kernel *k, uint32_t pid, gp_u64map *memo)
{
	uint64_t key = (uint64_t)k->def << 32 | pid;
	int32_t seen = memo ? gp_u64map_get(memo, key) : -1;
	struct gp_kernel_def d;

	if (seen >= 0) {
		k->def = (uint32_t)seen;
		return;
	}
	d = *gp_kernel_def(t, k);
	if (d.pid != pid) {
		d.pid = pid;
		k->def = gp_kernel_def_add(t, &d);
	}
	if (memo)
		gp_u64map_put(memo, key, (int32_t)k->def);
}

uint32_t gp_api_def_add(gp_trace *t, const struct gp_api_def *d)
{
	return gp_share_record((void **)&t->api_defs.v, &t->api_defs.n, &t->api_defs.cap, sizeof(*d),
			    &t->api_defs_seen, d);
}

struct gp_range_nvtx *gp_range_nvtx_add(gp_trace *t, struct gp_range *r)
{
	if (!(r->ext && (r->flags & GP_RANGE_F_NVTX))) {
		gp_vec_push(t->range_nvtx);
		r->ext = (uint32_t)t->range_nvtx.n;
		r->flags |= GP_RANGE_F_NVTX;
	}
	return &t->range_nvtx.v[r->ext - 1];
}

uint32_t gp_trace_args_share(gp_trace *t, uint32_t first, gp_u64map *seen)
{
	size_t count = t->args.n - first, bytes = count * sizeof(*t->args.v);

	if (!count)
		return first;   /* (args.v may still be NULL) */
	const struct gp_arg *run = t->args.v + first;
	/* key: the content's hash and the list's length; on a hash collision
	** between different lists the later one keeps its own copy */
	uint64_t key = (uint64_t)count << 32 | gp_strtab_hash(run, bytes);
	int32_t prev = gp_u64map_add(seen, key, (int32_t)first);
	if ((uint32_t)prev == first || memcmp(t->args.v + prev, run, bytes) != 0)
		return first;
	t->args.n = first;
	return (uint32_t)prev;
}

void gp_trace_meta_set(gp_trace *t, const char *key, const char *value)
{
	gp_str k = gp_intern(t, key);

	for (size_t i = 0; i < t->meta.n; i++)
		if (t->meta.v[i].key == k) {
			t->meta.v[i].value = gp_intern(t, value);
			return;
		}
	struct gp_meta *m = gp_vec_push(t->meta);
	m->key = k;
	m->value = gp_intern(t, value);
}

const char *gp_trace_meta_get(const gp_trace *t, const char *key)
{
	for (size_t i = 0; i < t->meta.n; i++)
		if (strcmp(gp_s(t, t->meta.v[i].key), key) == 0)
			return gp_s(t, t->meta.v[i].value);
	return NULL;
}

const struct gp_device *gp_trace_device(const gp_trace *t, int32_t id)
{
	for (size_t i = 0; i < t->devices.n; i++)
		if (t->devices.v[i].id == id)
			return &t->devices.v[i];
	return NULL;
}

/* Comparators: by start, then longer first, then original order is lost
** (qsort is not stable) so add a tie-break on a stable key where it
** matters. */
#define CMP_START_END(T)                                                  \
	static int cmp_##T(const void *pa, const void *pb)                \
	{                                                                 \
		const struct gp_##T *a = pa, *b = pb;                     \
		if (a->start != b->start)                                 \
			return a->start < b->start ? -1 : 1;              \
		if (a->end != b->end)                                     \
			return a->end > b->end ? -1 : 1;                  \
		return 0;                                                 \
	}
CMP_START_END(api)
CMP_START_END(memcpy)
CMP_START_END(memset)
CMP_START_END(sync)

static int cmp_kernel(const void *pa, const void *pb)
{
	const struct gp_kernel *a = pa, *b = pb;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (a->end != b->end)
		return a->end < b->end ? -1 : 1;
	if (a->corr != b->corr)
		return a->corr < b->corr ? -1 : 1;
	return 0;
}

/* A time as an unsigned key in the same order (the sign bit flipped). */
static uint64_t time_key(gp_ns t)
{
	return (uint64_t)t ^ (UINT64_C(1) << 63);
}

static uint64_t kernel_key(const void *p)
{
	return time_key(((const struct gp_kernel *)p)->start);
}

/* Within one thread's run gp_range_cmp orders by start first. */
static uint64_t range_key(const void *p)
{
	return time_key(((const struct gp_range *)p)->start);
}

int gp_range_cmp(const struct gp_range *a, const struct gp_range *b)
{
	int c = gp_thread_cmp(a->pid, a->tid, b->pid, b->tid);

	if (c)
		return c;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (a->end != b->end)
		return a->end > b->end ? -1 : 1;
	return a->kind < b->kind ? -1 : a->kind > b->kind;
}

/* Memory events by time; equal times keep the reader's order, so that
** replaying them gives the totals the allocator stated. */
static int cmp_memevent(const void *pa, const void *pb)
{
	const struct gp_memevent *a = pa, *b = pb;

	if (a->ts != b->ts)
		return a->ts < b->ts ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

static int cmp_range(const void *pa, const void *pb)
{
	return gp_range_cmp(pa, pb);
}

struct thread_run {
	uint32_t pid, tid;
	size_t first, n;        /* where its ranges go, and how many */
	size_t next;            /* the place of its next range */
};

static int cmp_thread_run(const void *pa, const void *pb)
{
	const struct thread_run *a = pa, *b = pb;

	return gp_thread_cmp(a->pid, a->tid, b->pid, b->tid);
}

/*
** sort_ranges' stable partition when one thread holds nearly all ranges
** (the Python thread of a PyTorch trace: 15 of 16 or more): its ranges
** slide down in stretches (memmove), the few others are set aside in
** reader order, the thread's ranges move to their place in one memmove,
** and the others are put in theirs.  Sequential copies, where following
** the permutation's cycles moves every range to a random place; the
** ranges set aside take at most 3.5 bytes a range.  run[i] is range i's
** thread in order of first sight, run_of maps that to runs[].
*/
static void gather_largest_run(struct gp_range *v, size_t n, uint32_t *run, const int32_t *run_of,
			       struct thread_run *runs, size_t largest)
{
	size_t others = n - runs[largest].n, kept = 0, aside_n = 0;
	struct gp_range *aside = gp_xmalloc((others ? others : 1) * sizeof(*aside));

	for (size_t i = 0; i < n;) {
		if ((size_t)run_of[run[i]] != largest) {
			aside[aside_n] = v[i];
			run[aside_n++] = (uint32_t)run_of[run[i]];   /* aside_n <= i: read first */
			i++;
			continue;
		}
		size_t end = i + 1;
		while (end < n && (size_t)run_of[run[end]] == largest)
			end++;
		if (kept != i)
			memmove(v + kept, v + i, (end - i) * sizeof(*v));
		kept += end - i;
		i = end;
	}
	if (runs[largest].first)
		memmove(v + runs[largest].first, v, kept * sizeof(*v));
	for (size_t k = 0; k < aside_n; k++)
		v[runs[run[k]].next++] = aside[k];
	free(aside);
}

/*
** Sorts t->ranges in gp_range_cmp's order, the result of one stable sort
** of the whole array.  Readers give each thread's ranges nearly in start
** order but interleave the threads (nsys: by start over all threads;
** Kineto: in file order), so one comparison sort does a million-range
** sort's work to undo the interleaving.  Instead each range gets its place
** in its thread's run, in reader order (a stable partition), the ranges
** are moved there in place by following the permutation's cycles (4 bytes
** a range aside, not a second array of ranges: this can be the peak of a
** Kineto read), and each run is sorted where it is not in order already,
** by start with a radix sort and by the rest of gp_range_cmp among equal
** starts (gp_sort_keyed); stable sorts compose, so the order is the same.
*/
static void sort_ranges(gp_trace *t)
{
	size_t n = t->ranges.n, i;
	GP_VEC(struct thread_run) runs = {0};
	gp_u64map at = {0};
	struct gp_range *v = t->ranges.v;
	uint32_t *dest;
	int32_t *run_of;

	for (i = 1; i < n && gp_range_cmp(&v[i - 1], &v[i]) <= 0; i++)
		;
	if (i >= n)
		return;
	/* dest[i]: first the thread's order of first sight (a stretch of one
	** thread's ranges asks the map once), then the range's place */
	dest = gp_xmalloc(n * sizeof(*dest));
	for (i = 0; i < n; i++) {
		uint64_t key = (uint64_t)v[i].pid << 32 | v[i].tid;
		int32_t r = i && key == ((uint64_t)v[i - 1].pid << 32 | v[i - 1].tid) ? (int32_t)dest[i - 1]
			    : gp_u64map_add(&at, key, (int32_t)runs.n);
		if ((size_t)r == runs.n)
			*gp_vec_push(runs) = (struct thread_run){.pid = v[i].pid, .tid = v[i].tid};
		runs.v[r].n++;
		dest[i] = (uint32_t)r;
	}
	gp_vec_sort(runs, cmp_thread_run);
	/* run_of: from the order of first sight to the run */
	run_of = gp_xmalloc(runs.n * sizeof(*run_of));
	for (size_t r = 0, first = 0; r < runs.n; r++) {
		runs.v[r].first = runs.v[r].next = first;
		first += runs.v[r].n;
		run_of[gp_u64map_get(&at, (uint64_t)runs.v[r].pid << 32 | runs.v[r].tid)] = (int32_t)r;
	}
	size_t largest = 0;
	for (size_t r = 1; r < runs.n; r++)
		if (runs.v[r].n > runs.v[largest].n)
			largest = r;
	if (n - runs.v[largest].n <= n / 16) {
		gather_largest_run(v, n, dest, run_of, runs.v, largest);
	} else {
		for (i = 0; i < n; i++)
			dest[i] = (uint32_t)runs.v[run_of[dest[i]]].next++;
		for (i = 0; i < n; i++) {
			while (dest[i] != i) {   /* each swap puts one range in its place */
				uint32_t d = dest[i];
				struct gp_range tmp = v[i];
				v[i] = v[d];
				v[d] = tmp;
				dest[i] = dest[d];
				dest[d] = d;
			}
		}
	}
	free(dest);
	for (size_t r = 0; r < runs.n; r++)
		gp_sort_keyed(v + runs.v[r].first, runs.v[r].n, sizeof(*v), range_key, cmp_range);
	free(run_of);
	gp_u64map_free(&at);
	gp_vec_free(runs);
}

/* Sets depth/parent with a stack per thread.  A range that is not inside
** the top of the stack pops it; partial overlap (start/end ranges) simply
** nests under the last range still open. */
static void nest_ranges(gp_trace *t)
{
	GP_VEC(int32_t) stack = {0};
	uint32_t pid = 0, tid = 0;

	for (size_t i = 0; i < t->ranges.n; i++) {
		struct gp_range *r = &t->ranges.v[i];

		if (i == 0 || r->pid != pid || r->tid != tid) {
			stack.n = 0;
			pid = r->pid;
			tid = r->tid;
		}
		while (stack.n && t->ranges.v[stack.v[stack.n - 1]].end <= r->start &&
		       !(t->ranges.v[stack.v[stack.n - 1]].end == r->start &&
			 r->end == r->start && t->ranges.v[stack.v[stack.n - 1]].start == r->start))
			stack.n--;
		r->parent = stack.n ? stack.v[stack.n - 1] : -1;
		r->depth = (uint16_t)(stack.n > 0xffff ? 0xffff : stack.n);
		if (r->kind != GP_RANGE_MARK)
			*gp_vec_push(stack) = (int32_t)i;
	}
	gp_vec_free(stack);
}

/* Push/pop ranges a program never popped are ended by the profiler at
** exit, all at one timestamp: the latest on their thread.  Real pops take
** time, so two or more push/pop ranges of one thread ending at exactly
** that instant are such leftovers (PyProf's own wrapper leaks one whenever
** a wrapped call raises).  Ranges must be sorted by thread. */
static void mark_unclosed(gp_trace *t)
{
	size_t flagged = 0;

	for (size_t i = 0, j; i < t->ranges.n; i = j) {
		gp_ns last = INT64_MIN;
		size_t at_last = 0;

		for (j = i; j < t->ranges.n && t->ranges.v[j].pid == t->ranges.v[i].pid &&
			    t->ranges.v[j].tid == t->ranges.v[i].tid; j++) {
			const struct gp_range *r = &t->ranges.v[j];
			if (r->kind != GP_RANGE_PUSHPOP)
				continue;
			if (r->end > last) {
				last = r->end;
				at_last = 0;
			}
			at_last += r->end == last;
		}
		if (at_last < 2)
			continue;
		for (size_t k = i; k < j; k++)
			if (t->ranges.v[k].kind == GP_RANGE_PUSHPOP && t->ranges.v[k].end == last &&
			    !(t->ranges.v[k].flags & GP_RANGE_F_UNCLOSED)) {
				t->ranges.v[k].flags |= GP_RANGE_F_UNCLOSED;
				flagged++;
			}
	}
	if (flagged)
		gp_trace_warn(t, "%zu NVTX push/pop ranges were never popped (the profiler ended them "
			      "at exit); kernels are not attributed to them", flagged);
}

/* Whether an API call returns before its copy ends: the *Async forms of
** every runtime and driver (cudaMemcpyAsync, cudaMemcpy2DAsync,
** cuMemcpyHtoDAsync, hipMemcpyAsync, hipMemcpyDtoHAsync...) and graph
** launches, whose copy nodes run on the graph's stream. */
static bool call_is_async(const char *name)
{
	return strstr(name, "Async") != NULL || strstr(name, "GraphLaunch") != NULL;
}

/* Marks a copy asynchronous when the call that launched it (same
** correlation id, same process when the copy names one) is an async call,
** for every reader: only nvprof stores the flag on the copy itself (kept
** as it is); Kineto, nsys and gprec copies learn it here.  A copy whose
** call is not in the trace keeps false. */
static void copies_async_from_calls(gp_trace *t)
{
	gp_call_index calls;

	if (!t->memcpys.n || !t->apis.n)
		return;
	gp_call_index_build(&calls, t);
	for (size_t c = 0; c < t->memcpys.n; c++) {
		struct gp_memcpy *m = &t->memcpys.v[c];
		int32_t api = m->async ? -1 : gp_call_find(&calls, m->corr, m->pid);
		if (api >= 0)
			m->async = call_is_async(gp_s(t, gp_api_def(t, &t->apis.v[api])->name));
	}
	gp_call_index_free(&calls);
}

/* The earliest start over every record array of t (0 when it has none). */
static gp_ns first_start(const gp_trace *t)
{
	gp_ns lo = INT64_MAX;

#define EARLIEST(vec)                                           \
	for (size_t i = 0; i < t->vec.n; i++)                   \
		if (t->vec.v[i].start < lo) lo = t->vec.v[i].start;
	EARLIEST(kernels)
	EARLIEST(apis)
	EARLIEST(memcpys)
	EARLIEST(memsets)
	EARLIEST(syncs)
	EARLIEST(ranges)
#undef EARLIEST
	for (size_t i = 0; i < t->memevents.n; i++)
		if (t->memevents.v[i].ts < lo)
			lo = t->memevents.v[i].ts;
	return lo == INT64_MAX ? 0 : lo;
}

/* The records other than ranges: copies learn whether they are async,
** then every array is sorted by start. */
static void finish_records(void *arg)
{
	gp_trace *t = arg;

	copies_async_from_calls(t);
	gp_sort_keyed(t->kernels.v, t->kernels.n, sizeof(*t->kernels.v), kernel_key, cmp_kernel);
	gp_vec_sort(t->apis, cmp_api);
	gp_vec_sort(t->memcpys, cmp_memcpy);
	gp_vec_sort(t->memsets, cmp_memset);
	gp_vec_sort(t->syncs, cmp_sync);
	for (size_t i = 0; i < t->memevents.n; i++)
		t->memevents.v[i].order = (uint32_t)i;
	gp_vec_sort(t->memevents, cmp_memevent);
}

/* The ranges, sorted and nested. */
static void finish_ranges(void *arg)
{
	gp_trace *t = arg;

	sort_ranges(t);
	nest_ranges(t);
}

/* The two halves touch disjoint arrays and intern nothing (gp_par2), so
** with t->work_threads > 1 they run at once: on a large trace each is a
** quarter of what follows the parse. */
void gp_trace_finish(gp_trace *t)
{
	gp_par2(finish_records, t, finish_ranges, t,
		gp_par_worth(t->work_threads, t->ranges.n + t->kernels.n + t->apis.n));
	mark_unclosed(t);
	gp_trace_classify_kernels(t);
	t->start = first_start(t);
	t->has_start = true;
}

const char *gp_kernel_label_text(const gp_trace *t, const struct gp_kernel *k, char *buf, size_t size)
{
	const struct gp_kernel_def *d = gp_kernel_def(t, k);

	return d->demangled ? gp_kernel_label(gp_s(t, d->demangled), buf, size) : gp_s(t, d->name);
}

gp_str gp_kernel_label_of(gp_trace *t, const struct gp_kernel *k, gp_str *memo)
{
	const struct gp_kernel_def *d = gp_kernel_def(t, k);
	char buf[1024];

	if (memo && memo[k->def])
		return memo[k->def];
	gp_str label = d->demangled ? gp_intern(t, gp_kernel_label_text(t, k, buf, sizeof(buf))) : d->name;
	if (memo)
		memo[k->def] = label;
	return label;
}

gp_ns gp_trace_start(const gp_trace *t)
{
	return t->has_start ? t->start : first_start(t);
}

bool gp_trace_span(const gp_trace *t, gp_ns *first, gp_ns *last)
{
	gp_ns lo = INT64_MAX, hi = INT64_MIN;

#define SPAN(vec)                                               \
	for (size_t i = 0; i < t->vec.n; i++) {                 \
		if (t->vec.v[i].start < lo) lo = t->vec.v[i].start; \
		if (t->vec.v[i].end > hi) hi = t->vec.v[i].end;     \
	}
	SPAN(kernels)
	SPAN(apis)
	SPAN(memcpys)
	SPAN(memsets)
	SPAN(syncs)
	if (lo == INT64_MAX)
		SPAN(ranges)
#undef SPAN
	if (lo == INT64_MAX)
		return false;
	*first = lo;
	*last = hi;
	return true;
}

static int cmp_activity(const void *pa, const void *pb)
{
	const struct gp_activity *a = pa, *b = pb;

	if (a->dev != b->dev)
		return a->dev < b->dev ? -1 : 1;
	return a->s < b->s ? -1 : a->s > b->s;
}

struct gp_activity *gp_trace_activities(const gp_trace *t, size_t *n)
{
	size_t cap = t->kernels.n + t->memcpys.n + t->memsets.n + t->window_work.n, m = 0;
	struct gp_activity *v = gp_xmalloc((cap ? cap : 1) * sizeof(*v));

	for (size_t i = 0; i < t->kernels.n; i++, m++)
		v[m] = (struct gp_activity){t->kernels.v[i].start, t->kernels.v[i].end,
						 gp_kernel_device(t, &t->kernels.v[i]), (uint32_t)m};
	for (size_t i = 0; i < t->memcpys.n; i++, m++)
		v[m] = (struct gp_activity){t->memcpys.v[i].start, t->memcpys.v[i].end, t->memcpys.v[i].device, (uint32_t)m};
	for (size_t i = 0; i < t->memsets.n; i++, m++)
		v[m] = (struct gp_activity){t->memsets.v[i].start, t->memsets.v[i].end, t->memsets.v[i].device, (uint32_t)m};
	for (size_t i = 0; i < t->window_work.n; i++, m++)
		v[m] = (struct gp_activity){t->window_work.v[i].start, t->window_work.v[i].end, t->window_work.v[i].device,
					    UINT32_MAX};
	for (size_t i = 0; i < m; i++)
		if (v[i].e < v[i].s)
			v[i].e = v[i].s;
	qsort(v, m, sizeof(*v), cmp_activity);
	*n = m;
	return v;
}

/* Runtime entry points carry the CUDA version that introduced them
** (cudaLaunchKernel_v7000, cudaLaunchKernelExC_v11060); driver entry points
** such as cuMemAlloc_v2 are distinct functions whose suffix is part of the
** name (nsys keeps it too), so only 4 or more digits count as a version. */
const char *gp_api_strip_version(const char *name, char *buf, size_t size)
{
	size_t n = strlen(name), i = n;

	while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9')
		i--;
	if (n - i >= 4 && i >= 2 && name[i - 1] == 'v' && name[i - 2] == '_') {
		n = i - 2;
		if (n >= size)
			n = size - 1;
		memcpy(buf, name, n);
		buf[n] = '\0';
		return buf;
	}
	return name;
}

const char *gp_copy_kind_name(int kind)
{
	static const char *names[GP_COPY__COUNT] = {
		"Unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA", "AtoD",
		"DtoA", "DtoD", "HtoH", "PtoP", "Unified HtoD", "Unified DtoH",
		"Unified DtoD",
	};
	return kind >= 0 && kind < GP_COPY__COUNT ? names[kind] : "Unknown";
}

const char *gp_mem_kind_name(int kind)
{
	static const char *names[GP_MEM__COUNT] = {
		"Unknown", "Pageable", "Pinned", "Device", "Array", "Managed",
		"Device Static", "Managed Static",
	};
	return kind >= 0 && kind < GP_MEM__COUNT ? names[kind] : "Unknown";
}

const char *gp_range_kind_name(int kind)
{
	switch (kind) {
	case GP_RANGE_PUSHPOP: return "PushPop";
	case GP_RANGE_STARTEND: return "StartEnd";
	case GP_RANGE_MARK: return "Mark";
	case GP_RANGE_CPU_OP: return "CpuOp";
	case GP_RANGE_USER_ANNOTATION: return "Annotation";
	case GP_RANGE_PYTHON: return "Python";
	case GP_RANGE_GPU_ANNOTATION: return "GpuAnnotation";
	case GP_RANGE_TIMER: return "Timer";
	}
	return "Other";
}

const char *gp_dir_name(int dir)
{
	return dir == GP_DIR_FPROP ? "fprop" : dir == GP_DIR_BPROP ? "bprop" : dir == GP_DIR_WGRAD ? "wgrad" : "na";
}

const char *gp_attr_seq_list(const gp_trace *t, const struct gp_attr *a, char *buf)
{
	if (!a->seq_is_list)
		return gp_s(t, a->seq_list);
	gp_fmt_i64_list(buf, GP_SEQ_TEXT, &a->seq, 1);
	return buf;
}
