/*
** The causes of idle time by name, and the story of an idle gap told by
** cause (critpath.h): the one vocabulary every output and --what-if uses
** (docs/cli.md, "Causes"), apart from the walk that finds them
** (critpath.c).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/critpath.h"
#include "util/alloc.h"
#include "util/fmt.h"

static const struct gp_cause_def cause_defs[GP_CAUSE__COUNT] = {
	[GP_CAUSE_GPU_COMPUTE] = {"gpu_compute", {NULL}, "a compute kernel ran", false},
	[GP_CAUSE_GPU_COMM] = {"gpu_comm", {"comm", NULL}, "a communication kernel ran", false},
	[GP_CAUSE_GPU_MEMORY] = {"gpu_memory", {NULL}, "a copy or memset ran", false},
	[GP_CAUSE_LAUNCH] = {"launch", {"launch-latency", NULL},
			     "from a launch call's return to its work's start (launch latency)", false},
	[GP_CAUSE_GPU_GAP] = {"gpu_gap", {NULL},
			      "between back-to-back work queued on one stream", false},
	[GP_CAUSE_PAGEABLE_COPY] = {"pageable_copy", {"pageable-memcpy", NULL},
				    "a copy of pageable host memory waiting for its call to stage it "
				    "through a bounce buffer", false},
	[GP_CAUSE_EVENT_WAIT] = {"event_wait", {"event-wait", NULL},
				 "work waiting for an event of another stream or device", false},
	[GP_CAUSE_SYNC] = {"sync", {"sync-calls", NULL},
			   "a host call waiting for GPU work, past that work's end", false},
	[GP_CAUSE_COMM_WAIT] = {"comm_wait", {NULL},
				"the CPU waiting on a collective (Work.wait, c10d::wait, wait_tensor): "
				"communication, not the caller's code", false},
	[GP_CAUSE_CPU_OP] = {"cpu_op", {"cpu-bound", NULL},
			     "CPU time of framework ops and their launch calls", false},
	[GP_CAUSE_PYTHON] = {"python", {"python-cpu", NULL}, "Python frames outside framework ops", false},
	[GP_CAUSE_ANNOTATION] = {"annotation", {"user-code", NULL},
				 "the user's own ranges (record_function, NVTX) outside ops", false},
	[GP_CAUSE_DATALOADER] = {"dataloader", {NULL}, "data loading", false},
	[GP_CAUSE_ALLOCATOR] = {"allocator", {NULL}, "cudaMalloc, cudaFree and the like, after the first step",
				false},
	[GP_CAUSE_FIRST_ALLOC] = {"first_alloc", {NULL},
				  "allocation calls (cudaMalloc, cuMemAlloc, hipMalloc, cudaMallocAsync...) in or "
				  "before the run's first step: warm-up allocation", true},
	[GP_CAUSE_JIT] = {"jit", {NULL},
			  "compiling GPU code (NVRTC, torch.compile, Triton, nvFuser), on any thread of the "
			  "process", true},
	[GP_CAUSE_AUTOTUNE] = {"autotune", {NULL},
			       "autotuning: trying algorithms to pick the fastest (cudnnFind*, cudnnGet*Algorithm_v7, "
			       "cublasLtMatmulAlgoGetHeuristic, Triton's autotuner), trial launches included", true},
	[GP_CAUSE_MODULE_LOAD] = {"module_load", {NULL},
				  "loading GPU code: cuModuleLoad*, cuLibraryLoad*, a first launch "
				  "that loads its module (lazy loading)", true},
	[GP_CAUSE_CAPTURE] = {"capture", {NULL},
			      "capturing a CUDA/HIP graph (BeginCapture to EndCapture, Instantiate)", true},
	[GP_CAUSE_CUDA_API] = {"cuda_api", {"cuda-api", NULL}, "other runtime or driver calls", false},
	[GP_CAUSE_UNTRACED] = {"untraced", {"untraced-cpu", NULL},
			       "the thread ran nothing the trace recorded", false},
	[GP_CAUSE_UNKNOWN] = {"unknown", {NULL}, "nothing recorded explains it", false},
};

const struct gp_cause_def *gp_cause_def(int cause)
{
	return &cause_defs[cause >= 0 && cause < GP_CAUSE__COUNT ? cause : GP_CAUSE_UNKNOWN];
}

const char *gp_cause_name(int cause)
{
	return gp_cause_def(cause)->name;
}

int gp_cause_find(const char *name)
{
	for (int c = 0; c < GP_CAUSE__COUNT; c++) {
		if (strcmp(name, cause_defs[c].name) == 0)
			return c;
		for (int a = 0; cause_defs[c].aliases[a]; a++)
			if (strcmp(name, cause_defs[c].aliases[a]) == 0)
				return c;
	}
	return -1;
}

char *gp_wait_text(gp_deps *d, const struct gp_piece *p, char *buf, size_t size)
{
	const gp_trace *t = d->t;
	int32_t w, c;
	bool recorded;

	buf[0] = '\0';
	if (p->cause != GP_CAUSE_EVENT_WAIT || p->of != GP_PIECE_UNIT || p->idx < 0 || (size_t)p->idx >= d->n ||
	    p->end > gp_unit_start(t, (size_t)p->idx))
		return buf;   /* not a unit's wait: the run of the work waited for, or other */
	if ((w = gp_deps_wait_of(d, (size_t)p->idx)) >= 0) {
		const char *what = (size_t)w < t->kernels.n ? gp_s(t, gp_kernel_short_name_of(t, &t->kernels.v[w]))
				 : gp_unit_kind(t, (size_t)w) == GP_UNIT_COPY ? "memcpy" : "memset";
		snprintf(buf, size, "for %.100s on stream %u of device %d", what, gp_unit_stream(t, (size_t)w),
			 gp_unit_device(t, (size_t)w));
	} else if ((c = gp_deps_unknown_wait(d, (size_t)p->idx, &recorded)) >= 0) {
		snprintf(buf, size, "after %.80s: %s", gp_s(t, gp_api_def(t, &t->apis.v[c])->name),
			 recorded ? "the work the event recorded is not in the trace"
				  : "the event's record is not in the trace");
	}
	return buf;
}

static int cmp_piece_len(const void *pa, const void *pb)
{
	const struct gp_piece *a = pa, *b = pb;
	gp_ns la = a->end - a->start, lb = b->end - b->start;

	if (la != lb)
		return la > lb ? -1 : 1;
	return (a->start > b->start) - (a->start < b->start);
}

/* A piece's place among v's pieces, by what it is. */
struct piece_ref {
	uint8_t cause, of;
	int32_t idx;
	uint32_t at;            /* its index in v */
};

static int cmp_piece_ref(const void *pa, const void *pb)
{
	const struct piece_ref *a = pa, *b = pb;

	if (a->cause != b->cause)
		return a->cause < b->cause ? -1 : 1;
	if (a->of != b->of)
		return a->of < b->of ? -1 : 1;
	if (a->idx != b->idx)
		return a->idx < b->idx ? -1 : 1;
	return (a->at > b->at) - (a->at < b->at);
}

/* The same thing (cause, record) in several non-empty pieces of v counts
** once, with their sum, in its first piece; the others become empty.  A
** sort by what each piece is, not a pair-wise scan: a long gap of a
** Python-heavy trace holds tens of thousands of pieces. */
static void merge_same_pieces(gp_piece_vec *v)
{
	struct piece_ref *r = gp_xmalloc((v->n ? v->n : 1) * sizeof(*r));
	size_t n = 0;

	for (size_t i = 0; i < v->n; i++)
		if (v->v[i].end > v->v[i].start)
			r[n++] = (struct piece_ref){v->v[i].cause, v->v[i].of, v->v[i].idx, (uint32_t)i};
	gp_sort(r, n, sizeof(*r), cmp_piece_ref);
	for (size_t i = 0, first = 0; i < n; i++) {
		if (i == 0 || r[i].cause != r[first].cause || r[i].of != r[first].of || r[i].idx != r[first].idx) {
			first = i;
			continue;
		}
		struct gp_piece *x = &v->v[r[first].at], *y = &v->v[r[i].at];
		x->end += y->end - y->start;
		y->end = y->start;
	}
	free(r);
}

/* The fewest calls of one function inside a gap that its story names, and
** the least share of the gap they must spread over. */
#define MANY_CALLS 100
#define MANY_CALLS_SPREAD 0.5

/* The function range text s names: a Python frame "dir/f.py(12): fwd" ->
** "fwd", "<built-in function x>" or "<built-in method x of ...>" -> "x",
** anything else as it is; *len receives its length. */
static const char *function_name(const char *s, int *len)
{
	const char *f = strstr(s, "): ");

	if (f && !strchr(f + 3, ' ')) {
		*len = (int)strlen(f + 3);
		return f + 3;
	}
	if (!strncmp(s, "<built-in ", 10) && (f = strchr(s + 10, ' '))) {
		f++;
		*len = (int)strcspn(f, " >");
		return f;
	}
	*len = (int)strlen(s);
	return s;
}

/* The innermost ranges of CPU thread (pid, tid) inside gap [a, b) (those
** holding no range of their own), when most are calls of one function:
** then at least MANY_CALLS of them spread over MANY_CALLS_SPREAD of the
** gap (thousands of assert_size_stride calls inside Inductor's generated
** `call`, each too short to be a piece of the gap's story, all of them
** its reason).  Writes ": N x NAME TIME" into buf ("" when none). */
static void many_calls(gp_deps *d, uint32_t pid, uint32_t tid, gp_ns a, gp_ns b, char *buf, size_t size)
{
	const gp_trace *t = d->t;
	const struct gp_thread_view *v = gp_deps_view(d, pid, tid);
	size_t lo = v->r_lo, hi = v->r_hi, n = 0, best_n = 0;
	gp_u64map count = {0};
	gp_str best = 0;
	gp_ns first = INT64_MAX, last = INT64_MIN, ns = 0;
	char dur[32];

	buf[0] = '\0';
	while (lo < hi) {   /* the thread's first range starting at or after a */
		size_t mid = lo + (hi - lo) / 2;
		if (t->ranges.v[mid].start < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < v->r_hi && t->ranges.v[i].start < b; i++) {
		const struct gp_range *r = &t->ranges.v[i];
		if (r->end > b || (i + 1 < v->r_hi && t->ranges.v[i + 1].parent == (int32_t)i))
			continue;   /* not inside the gap, or not innermost */
		int32_t c = gp_u64map_get(&count, r->text);
		c = c < 0 ? 1 : c + 1;
		gp_u64map_put(&count, r->text, c);
		n++;
		if ((size_t)c > best_n) {
			best_n = (size_t)c;
			best = r->text;
		}
	}
	gp_u64map_free(&count);
	if (best_n < MANY_CALLS || 2 * best_n < n)
		return;
	for (size_t i = lo; i < v->r_hi && t->ranges.v[i].start < b; i++) {
		const struct gp_range *r = &t->ranges.v[i];
		if (r->text != best || r->end > b || (i + 1 < v->r_hi && t->ranges.v[i + 1].parent == (int32_t)i))
			continue;
		first = r->start < first ? r->start : first;
		last = r->end > last ? r->end : last;
		ns += r->end - r->start;
	}
	if (last - first < MANY_CALLS_SPREAD * (double)(b - a))
		return;
	int len;
	const char *name = function_name(gp_s(t, gp_deps_text(d, best)), &len);
	snprintf(buf, size, ": %zu x %.*s %s", best_n, len > 80 ? 80 : len, name,
		 gp_fmt_duration((double)ns, dur, sizeof(dur)));
}

char *gp_gap_story(gp_deps *d, int32_t u, gp_ns a, gp_ns b, char *buf, size_t size)
{
	gp_piece_vec v = {0};
	char text[320], dur[32], calls[160];
	size_t len = 0, shown = 0;
	bool told_calls = false;

	buf[0] = '\0';
	if (u < 0 || (size_t)u >= d->n)
		return buf;
	gp_gap_pieces(d, (size_t)u, a, &v);
	merge_same_pieces(&v);
	gp_sort(v.v, v.n, sizeof(*v.v), cmp_piece_len);
	for (size_t k = 0; k < v.n && shown < 3 && len + 1 < size; k++) {
		const struct gp_piece *p = &v.v[k];
		if (p->end <= p->start || (shown && 20 * (p->end - p->start) < b - a))
			continue;
		gp_fmt_duration((double)(p->end - p->start), dur, sizeof(dur));
		calls[0] = '\0';
		if (p->cpu && !told_calls) {   /* the calls filling the gap on its first CPU piece's thread */
			many_calls(d, p->lane_a, p->lane_b, a, b, calls, sizeof(calls));
			told_calls = true;
		}
		int w = snprintf(buf + len, size - len, "%s%s %s%s", shown ? "; " : "",
				 gp_piece_text(d, p, text, sizeof(text)), dur, calls);
		if (w < 0)
			break;
		len += (size_t)w;
		if (len >= size)
			len = size - 1;
		shown++;
	}
	gp_vec_free(v);
	return buf;
}
