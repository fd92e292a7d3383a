/*
** Ranges, markers and sync levels.  Every range goes to NVTX (seen by nsys
** and any NVTX tool) and, when recording, into the calling thread's event
** buffer when it closes.
*/
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Start/end ranges may end on another thread: they wait here, by id. */
struct open_range {
	uint64_t id, nvtx_id;
	int64_t start;
	gp_domain *dom;
	char *name;
	uint32_t tid, color;
};
static struct open_range *open_ranges;
static size_t n_open, cap_open;
static uint64_t next_range_id = 1;

static const char *const phase_names[] = {"iteration", "forward", "backward", "update"};
static const uint32_t phase_colors[] = {
	GP_COLOR_ITERATION, GP_COLOR_FORWARD, GP_COLOR_BACKWARD, GP_COLOR_UPDATE,
};

/* The sync level from which a range of this kind synchronizes:
** chainer_profutil's levels. */
static int sync_threshold(uint8_t kind)
{
	switch (kind) {
	case GPREC_ITERATION: return 1;
	case GPREC_FORWARD: case GPREC_BACKWARD: case GPREC_UPDATE: return 2;
	default: return 3;
	}
}

/* Synchronizes the device, or calls the program's sync hook instead. */
static void do_sync(void)
{
	gp_sync_fn fn;
	void *ctx;
	const struct gpi_cuda *c;

	/* the hook and its context as one pair, as gp_set_sync_hook() sets
	** them; called outside the lock (it may call the library) */
	pthread_mutex_lock(&gpi.lock);
	fn = gpi.sync_fn;
	ctx = gpi.sync_ctx;
	pthread_mutex_unlock(&gpi.lock);
	if (fn) {
		fn(ctx);
		return;
	}
	c = gpi_cuda();
	if (c && c->device_synchronize)
		c->device_synchronize();
}

/* Synchronizes when the current level asks for it for this kind of range.
** Returns 1 if it did. */
static int maybe_sync(uint8_t kind)
{
	if (atomic_load_explicit(&gpi.sync_level, memory_order_relaxed) < sync_threshold(kind))
		return 0;
	do_sync();
	return 1;
}

/* Pushes a frame for name on th's stack; 0, or -1 when out of memory. */
static int frame_push(struct gpi_thread *th, uint8_t kind, const char *name, gp_domain *d,
		      uint32_t color, int64_t arg)
{
	size_t len = strlen(name);

	if (th->depth == th->cap) {
		int cap = th->cap ? th->cap * 2 : 32;
		struct gpi_frame *s = realloc(th->stack, (size_t)cap * sizeof(*s));
		if (!s)
			return -1;
		th->stack = s;
		th->cap = cap;
	}
	if (th->names_len + len + 1 > th->names_cap || len > UINT32_MAX / 2) {
		size_t cap = th->names_cap ? th->names_cap * 2 : 1024;
		while (cap < th->names_len + len + 1)
			cap *= 2;
		char *n = len > UINT32_MAX / 2 ? NULL : realloc(th->names, cap);
		if (!n)
			return -1;
		th->names = n;
		th->names_cap = cap;
	}
	struct gpi_frame *f = &th->stack[th->depth++];
	f->kind = kind;
	f->dom = d;
	f->color = color;
	f->arg = arg;
	f->name_off = (uint32_t)th->names_len;
	f->name_len = (uint32_t)len;
	memcpy(th->names + th->names_len, name, len + 1);
	th->names_len += len + 1;
	f->synced = (uint8_t)maybe_sync(kind);
	f->start = atomic_load_explicit(&gpi.recording, memory_order_relaxed) ? gpi_now() : 0;
	return 0;
}

static void push_kind(uint8_t kind, gp_domain *d, const char *name, uint32_t color, int64_t arg)
{
	struct gpi_thread *th = gpi_self();

	if (!name)
		name = "";
	if (!th || frame_push(th, kind, name, d, color, arg)) {
		gpi_log(0, "out of memory: range '%s' is not annotated", name);
		return;
	}
	gpi_nvtx_push(d, name, color, arg, kind == GPREC_ITERATION);
}

/* Closes th's innermost frame; want_kind >= 0 checks what it is. */
static void pop_kind(int want_kind)
{
	struct gpi_thread *th = gpi_self();
	struct gpi_frame *f;

	if (!th)
		return;
	if (th->depth == 0) {
		if (!th->warned_pop)
			gpi_log(1, "pop with no open range on thread %u (ignored)", th->tid);
		th->warned_pop = true;
		return;
	}
	f = &th->stack[th->depth - 1];
	if (want_kind >= 0 && f->kind != want_kind)
		gpi_log(1, "end of %s closes '%s' (ranges are not properly nested)",
			phase_names[want_kind - GPREC_ITERATION], th->names + f->name_off);
	if (f->synced)
		do_sync();   /* pairs with the push's, even if the level changed since */
	if (f->start && atomic_load_explicit(&gpi.recording, memory_order_relaxed))
		gpi_record(th, f->kind, th->names + f->name_off, f->name_len, f->dom, f->color,
			   f->start, gpi_now(), f->arg, 0, 0);
	gpi_nvtx_pop(f->dom);
	th->names_len = f->name_off;
	th->depth--;
}

GPI_EXPORT void gp_push(const char *name)
{
	push_kind(GPREC_PUSH, NULL, name, 0, 0);
}

GPI_EXPORT void gp_push_ex(gp_domain *d, const char *name, uint32_t argb)
{
	push_kind(GPREC_PUSH, d, name, argb, 0);
}

GPI_EXPORT void gp_pop(void)
{
	pop_kind(-1);
}

GPI_EXPORT void gp_layer_push(const char *name)
{
	char buf[256];
	size_t len = name ? strlen(name) : 0;
	char *s = len + 7 <= sizeof(buf) ? buf : malloc(len + 7);

	if (!s) {
		gpi_log(0, "out of memory: layer '%s' is not annotated", name);
		return;
	}
	memcpy(s, "layer:", 6);
	memcpy(s + 6, name ? name : "", len + 1);
	push_kind(GPREC_PUSH, NULL, s, 0, 0);
	if (s != buf)
		free(s);
}

GPI_EXPORT size_t gp_layer_path(char *buf, size_t size)
{
	struct gpi_thread *th = gpi_self();
	size_t n = 0;

	if (size)
		buf[0] = '\0';
	if (!th)
		return 0;
	for (int i = 0; i < th->depth; i++) {
		const char *name = th->names + th->stack[i].name_off;
		size_t len = th->stack[i].name_len;
		if (len < 6 || memcmp(name, "layer:", 6) != 0)
			continue;
		name += 6;
		len -= 6;
		if (n) {
			if (n + 1 < size)
				buf[n] = ':', buf[n + 1] = '\0';
			n++;
		}
		if (n < size) {
			size_t k = n + len < size ? len : size - n - 1;
			memcpy(buf + n, name, k);
			buf[n + k] = '\0';
		}
		n += len;
	}
	return n;
}

GPI_EXPORT int gp_depth(void)
{
	struct gpi_thread *th = gpi_self();
	return th ? th->depth : 0;
}

GPI_EXPORT uint64_t gp_range_start(gp_domain *d, const char *name, uint32_t argb)
{
	struct gpi_thread *th = gpi_self();
	struct open_range r = {.dom = d, .color = argb};
	uint64_t id;

	if (!name)
		name = "";
	maybe_sync(GPREC_STARTEND);
	r.start = gpi_now();
	r.tid = th ? th->tid : 0;
	r.name = strdup(name);
	r.nvtx_id = gpi_nvtx_start(d, name, argb);
	pthread_mutex_lock(&gpi.lock);
	id = next_range_id++;
	r.id = id;
	if (n_open == cap_open) {
		size_t cap = cap_open ? cap_open * 2 : 16;
		struct open_range *v = realloc(open_ranges, cap * sizeof(*v));
		if (v) {
			open_ranges = v;
			cap_open = cap;
		}
	}
	if (r.name && n_open < cap_open)
		open_ranges[n_open++] = r;
	else
		free(r.name);   /* out of memory: NVTX still sees it, the recording will not */
	pthread_mutex_unlock(&gpi.lock);
	return id;
}

GPI_EXPORT void gp_range_end(uint64_t id)
{
	struct gpi_thread *th = gpi_self();
	struct open_range r = {0};
	int found = 0;

	pthread_mutex_lock(&gpi.lock);
	for (size_t i = n_open; i-- > 0;)
		if (open_ranges[i].id == id) {
			r = open_ranges[i];
			open_ranges[i] = open_ranges[--n_open];
			found = 1;
			break;
		}
	pthread_mutex_unlock(&gpi.lock);
	if (!found) {
		gpi_log(1, "gp_range_end: unknown range id %llu (ignored)", (unsigned long long)id);
		return;
	}
	maybe_sync(GPREC_STARTEND);
	if (th && atomic_load_explicit(&gpi.recording, memory_order_relaxed))
		gpi_record(th, GPREC_STARTEND, r.name, strlen(r.name), r.dom, r.color, r.start,
			   gpi_now(), 0, r.tid, r.tid == th->tid ? 0 : th->tid);
	gpi_nvtx_end(r.dom, r.nvtx_id);
	free(r.name);
}

GPI_EXPORT void gp_mark(gp_domain *d, const char *name, uint32_t argb)
{
	struct gpi_thread *th = gpi_self();

	if (!name)
		name = "";
	if (th && atomic_load_explicit(&gpi.recording, memory_order_relaxed)) {
		int64_t now = gpi_now();
		gpi_record(th, GPREC_MARK, name, strlen(name), d, argb, now, now, 0, 0, 0);
	}
	gpi_nvtx_mark(d, name, argb);
}

GPI_EXPORT gp_domain *gp_domain_get(const char *name)
{
	gp_domain *d;

	if (!name || !*name)
		return NULL;
	gpi_init();
	pthread_mutex_lock(&gpi.lock);
	for (d = gpi.domains; d; d = d->next)
		if (strcmp(d->name, name) == 0)
			break;
	if (!d && (d = calloc(1, sizeof(*d))) != NULL) {
		d->name = strdup(name);
		if (!d->name) {
			free(d);
			d = NULL;
		} else {
			d->nvtx = gpi_nvtx_domain(name);
			d->next = gpi.domains;
			gpi.domains = d;
		}
	}
	pthread_mutex_unlock(&gpi.lock);
	return d;
}

GPI_EXPORT void gp_phase_begin(enum gp_phase p)
{
	int64_t arg = 0;

	if ((unsigned)p > GP_UPDATE) {
		gpi_log(1, "gp_phase_begin: unknown phase %d (ignored)", (int)p);
		return;
	}
	gpi_init();
	if (p == GP_ITERATION)
		arg = atomic_fetch_add(&gpi.iterations, 1);
	push_kind((uint8_t)(GPREC_ITERATION + p), NULL, phase_names[p], phase_colors[p], arg);
}

GPI_EXPORT void gp_phase_end(enum gp_phase p)
{
	if ((unsigned)p > GP_UPDATE) {
		gpi_log(1, "gp_phase_end: unknown phase %d (ignored)", (int)p);
		return;
	}
	pop_kind(GPREC_ITERATION + p);
}

GPI_EXPORT int64_t gp_iteration_count(void)
{
	gpi_init();
	return atomic_load(&gpi.iterations);
}

GPI_EXPORT int gp_set_sync_level(int level)
{
	gpi_init();
	if (level < 0 || level > 3)
		return -1;
	return atomic_exchange(&gpi.sync_level, level);
}

GPI_EXPORT int gp_sync_level(void)
{
	gpi_init();
	return atomic_load(&gpi.sync_level);
}

GPI_EXPORT void gp_set_sync_hook(gp_sync_fn fn, void *ctx)
{
	gpi_init();
	pthread_mutex_lock(&gpi.lock);
	gpi.sync_ctx = ctx;
	gpi.sync_fn = fn;
	pthread_mutex_unlock(&gpi.lock);
}
