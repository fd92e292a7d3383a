/*
** XPlane reader, the host side: the /host:CPU plane's lines as threads,
** its events with a correlation id as API calls (hipModuleLaunchKernel,
** cuLaunchKernel, ...; older ROCm files name the call after its kernel),
** the other events (TraceMe annotations, Python frames, XLA thunks) as
** ranges; then each kernel's XLA op, module and JAX/TensorFlow name stack,
** which the profiler writes as stats on the kernel or on its launch, as
** ranges around the launch that the correlation pass reads like a
** framework's ops.  docs/trace-model.md, "XPlane".
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "readers/xplane_int.h"

/* A thread for a host line: its id when it is a thread id, else a number
** of our own (py_xla_execute/-1472503042444199177 has a hash for an id). */
static uint32_t line_tid(struct xp *x, const xp_line *l)
{
	if (l->id > 0 && l->id < 0x40000000)
		return (uint32_t)l->id;
	return x->next_tid++;
}

static enum gp_api_kind api_kind(const char *name)
{
	if (strncmp(name, "cuda", 4) == 0 || strncmp(name, "hip", 3) == 0)
		return GP_API_RUNTIME;
	if (name[0] == 'c' && name[1] == 'u' && name[2] >= 'A' && name[2] <= 'Z')
		return GP_API_DRIVER;
	return GP_API_OTHER;
}

/* The name stack of a launch: the stat "name" (JAX's
** "jit(train_step)/.../dot_general"), else tf_op without its ":Type"
** ("model/dense/MatMul:MatMul"); NULL when neither says one. */
static const char *name_stack(const struct xp_facts *f, char *buf, size_t size)
{
	const char *s = xp_stat_text(f, XK_NAME);
	const char *colon;

	if (s && *s)
		return s;
	s = xp_stat_text(f, XK_TF_OP);
	if (!s || !*s)
		return NULL;
	colon = strrchr(s, ':');
	if (!colon)
		return s;
	if (colon == s || (size_t)(colon - s) >= size || strncmp(s, "XlaModule", 9) == 0)
		return NULL;
	memcpy(buf, s, (size_t)(colon - s));
	buf[colon - s] = '\0';
	return buf;
}

void xp_hlo_note(struct xp *x, uint64_t corr, const struct xp_facts *f)
{
	const char *op = xp_stat_text(f, XK_HLO_OP);
	const char *mod = xp_stat_text(f, XK_HLO_MODULE);
	char buf[1024];
	const char *stack = name_stack(f, buf, sizeof(buf));
	const char *jax = xp_stat_text(f, XK_NAME), *tf = xp_stat_text(f, XK_TF_OP);

	if (jax && *jax)
		x->jax_stacks++;
	if (tf && *tf && strncmp(tf, "XlaModule", 9) != 0)
		x->tf_ops++;
	if (!corr || !((op && *op) || (mod && *mod) || stack))
		return;
	int32_t at = gp_u64map_add(&x->hlo_at, corr, (int32_t)x->hlo.n);
	if ((size_t)at == x->hlo.n)
		gp_vec_push(x->hlo);
	struct xp_hlo *h = &x->hlo.v[at];   /* what one side left out, the other may say */
	if (!h->op && op && *op)
		h->op = gp_intern(x->t, op);
	if (!h->module && mod && *mod)
		h->module = gp_intern(x->t, mod);
	if (!h->stack && stack)
		h->stack = gp_intern(x->t, stack);
}

static void add_range(gp_trace *t, uint32_t pid, uint32_t tid, gp_ns s, gp_ns e, gp_str text, uint8_t kind)
{
	struct gp_range *r = gp_vec_push(t->ranges);

	*r = (struct gp_range){.start = s, .end = e, .pid = pid, .tid = tid, .text = text,
			       .parent = -1, .kind = kind};
}

/* The device of an allocator ("GPU_0_bfc" is GPU 0's BFC allocator),
** GP_MEM_HOST for any other ("cuda_host_bfc", "cpu"). */
static int32_t allocator_device(const char *name)
{
	char *e;
	long v;

	if (!name || strncmp(name, "GPU_", 4) != 0)
		return GP_MEM_HOST;
	v = strtol(name + 4, &e, 10);
	return e != name + 4 && v >= 0 && v < 1 << 20 ? (int32_t)v : GP_MEM_HOST;
}

/* A MemoryAllocation / MemoryDeallocation event (TensorFlow's and XLA's
** allocators) as an allocator event; false when it is none. */
static bool memory_event(struct xp *x, const char *name, const struct xp_facts *f, uint32_t tid, gp_ns ts)
{
	bool alloc = strcmp(name, "MemoryAllocation") == 0;
	uint64_t bytes, v;

	if ((!alloc && strcmp(name, "MemoryDeallocation") != 0) || !xp_stat_u64(f, XK_ALLOC_BYTES, &bytes) ||
	    bytes > INT64_MAX)
		return false;
	struct gp_memevent *m = gp_vec_push(x->t->memevents);
	*m = (struct gp_memevent){.ts = ts, .bytes = alloc ? (int64_t)bytes : -(int64_t)bytes,
				  .total_alloc = -1, .total_reserved = -1, .pid = x->pid, .tid = tid,
				  .order = x->mem_order++,
				  .device = allocator_device(xp_stat_text(f, XK_ALLOCATOR))};
	if (xp_stat_u64(f, XK_BYTES_ALLOCATED, &v) && v <= INT64_MAX)
		m->total_alloc = (int64_t)v;
	if (xp_stat_u64(f, XK_BYTES_RESERVED, &v) && v <= INT64_MAX && v > 0)
		m->total_reserved = (int64_t)v;
	if (xp_stat_u64(f, XK_ADDR, &v))
		m->addr = v;
	return true;
}

void xp_read_host(struct xp *x, const xp_plane *p)
{
	struct xp_names nm;
	gp_trace *t = x->t;

	xp_names_init(&nm, p);
	for (size_t li = 0; li < p->n_lines; li++) {
		const xp_line *l = p->lines[li];
		uint32_t tid = line_tid(x, l);
		const char *lname = l->display_name && *l->display_name ? l->display_name : l->name;
		*gp_vec_push(t->threads) = (struct gp_thread){x->pid, tid, gp_intern(t, lname ? lname : "")};
		for (size_t ei = 0; ei < l->n_events; ei++) {
			const xp_event *e = l->events[ei];
			const char *name = xp_event_name(&nm, e);
			struct xp_facts f;
			uint64_t corr = 0;
			gp_ns s, en;

			xp_facts_of(&nm, e, &f);
			xp_event_span(l, e, &s, &en);
			if (xp_stat_u64(&f, XK_CORR, &corr) && corr) {
				struct gp_api_def d = {.name = gp_intern(t, name), .cbid = -1,
						       .kind = api_kind(name)};
				struct gp_api *a = gp_vec_push(t->apis);
				*a = (struct gp_api){.start = s, .end = en, .corr = corr, .pid = x->pid,
						     .tid = tid, .def = gp_api_def_add(t, &d)};
				xp_hlo_note(x, corr, &f);
				continue;
			}
			if (memory_event(x, name, &f, tid, s))
				continue;
			uint64_t step;
			if (xp_stat_u64(&f, XK_STEP_NUM, &step) && step <= INT32_MAX) {
				/* jax.profiler.StepTraceAnnotation("train", step_num=N):
				** the step as the analyses read steps */
				char text[32];
				snprintf(text, sizeof(text), "ProfilerStep#%d", (int)step);
				add_range(t, x->pid, tid, s, en, gp_intern(t, text), GP_RANGE_USER_ANNOTATION);
			}
			add_range(t, x->pid, tid, s, en, gp_intern(t, name), GP_RANGE_OTHER);
		}
	}
	xp_names_free(&nm);
}

/* The ranges around a launch (or its kernel) that name its XLA module
** (outermost), its name stack, its HLO op (innermost), each a little
** wider than the next so that they nest in that order, all strictly
** around the launch (as correlate.c counts enclosing). */
static void add_hlo_ranges(gp_trace *t, const struct xp_hlo *h, uint32_t pid, uint32_t tid, gp_ns s,
			   gp_ns e, uint64_t ext)
{
	if (s < INT64_MIN + 3 || e > INT64_MAX - 3)
		return;   /* a damaged file's times: no room around them */
	if (h->module)
		add_range(t, pid, tid, s - 3, e + 3, h->module, GP_RANGE_CPU_OP);
	if (h->stack)
		add_range(t, pid, tid, s - 2, e + 2, h->stack, GP_RANGE_USER_ANNOTATION);
	if (h->op) {
		add_range(t, pid, tid, s - 1, e + 1, h->op, GP_RANGE_CPU_OP);
		if (ext || h->work) {
			struct gp_op_ext *x = gp_vec_push(t->op_exts);
			x->ext_id = ext;
			x->seq = -1;
			x->work = h->work;
			t->ranges.v[t->ranges.n - 1].ext = (uint32_t)t->op_exts.n;
		}
	}
}

void xp_attribute(struct xp *x)
{
	gp_trace *t = x->t;
	gp_u64map api_at = {0};
	uint32_t orphan_tid = 0;
	size_t orphans = 0;

	if (!x->hlo.n)
		return;
	for (size_t i = 0; i < t->apis.n; i++)
		gp_u64map_add(&api_at, t->apis.v[i].corr, (int32_t)i);
	for (size_t k = 0; k < t->kernels.n; k++) {
		struct gp_kernel *kr = &t->kernels.v[k];
		int32_t hi = kr->corr ? gp_u64map_get(&x->hlo_at, kr->corr) : -1;
		if (hi < 0)
			continue;
		struct xp_hlo h = x->hlo.v[hi];
		int32_t ai = gp_u64map_get(&api_at, kr->corr);
		if (ai >= 0) {
			const struct gp_api *a = &t->apis.v[ai];
			add_hlo_ranges(t, &h, a->pid, a->tid, a->start, a->end, 0);
			continue;
		}
		/* no launch call recorded: on a thread of their own at the
		** kernel's time, found by the kernel's External id */
		if (!orphan_tid) {
			orphan_tid = x->next_tid++;
			*gp_vec_push(t->threads) = (struct gp_thread){x->pid, orphan_tid,
				gp_intern(t, "XLA ops (launch not recorded)")};
		}
		kr->ext_id = k + 1;
		add_hlo_ranges(t, &h, x->pid, orphan_tid, kr->start, kr->end, k + 1);
		orphans++;
	}
	gp_u64map_free(&api_at);
	if (orphans)
		gp_trace_warn(t, "%zu kernel(s) carry their XLA op but no launch call with their "
			      "correlation id: attributed by their own stats", orphans);
}

void xp_free(struct xp *x)
{
	gp_u64map_free(&x->hlo_at);
	gp_vec_free(x->hlo);
}
