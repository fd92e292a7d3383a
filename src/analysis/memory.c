/*
** Memory over time; see memory.h and docs/memory.md.
**
** Three passes, each linear: the events in time order build each device's
** series, peak and final totals and pair every free with its allocation by
** address; the events in thread order, walked beside that thread's ranges
** (both sorted), name the op and layer each event happened in; the API
** calls and the events after the first iteration give the churn
** (gp_memory_churn, which advise's alloc-churn rule runs on its own).
*/
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/layers.h"
#include "analysis/memory.h"
#include "util/u64map.h"

#define MAX_STACK 256

/* Where an event happened: the op and the innermost layer range around it. */
struct event_site {
	int32_t op, layer;      /* indices into trace->ranges, -1 = none */
};

static void note(struct gp_memory *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Adds a note for the reader of the result (at most GP_MEM_MAX_NOTES). */
static void note(struct gp_memory *m, const char *fmt, ...)
{
	va_list ap;

	if (m->nnotes >= GP_MEM_MAX_NOTES)
		return;
	va_start(ap, fmt);
	vsnprintf(m->notes[m->nnotes++], sizeof(m->notes[0]), fmt, ap);
	va_end(ap);
}

void gp_mem_add_bytes(int64_t *sum, int64_t v)
{
	if (__builtin_add_overflow(*sum, v, sum))
		*sum = v > 0 ? INT64_MAX : INT64_MIN;
}

bool gp_mem_absurd(const struct gp_memevent *e)
{
	return e->bytes > GP_MEM_ABSURD || e->bytes < -GP_MEM_ABSURD || e->total_alloc > GP_MEM_ABSURD ||
	       e->total_reserved > GP_MEM_ABSURD;
}

/* The index in m->devices of device id (slots: id -> index), added
** (zeroed) when new. */
static size_t device_slot(struct gp_memory *m, gp_u64map *slots, int32_t id)
{
	int32_t s = gp_u64map_get(slots, (uint32_t)id);

	if (s >= 0)
		return (size_t)s;
	gp_u64map_put(slots, (uint32_t)id, (int32_t)m->devices.n);
	struct gp_mem_device *d = gp_vec_push(m->devices);
	memset(d, 0, sizeof(*d));
	d->device = id;
	d->stated = true;
	d->peak_reserved = d->final_reserved = -1;
	d->live_known = -1;
	return m->devices.n - 1;
}

static int cmp_device(const void *pa, const void *pb)
{
	const struct gp_mem_device *a = pa, *b = pb;
	return a->device < b->device ? -1 : a->device > b->device;
}

/* Pass 1: per device, in time order, the series, totals and peak; and for
** every allocation the event that freed it (freed_at[i], -1 = still live at
** the end), paired by address.  Returns the per-event device slot (-1 =
** skipped as absurd); slots maps device ids to their m->devices index.
** Steps are first collected per event, then grouped by device. */
static int32_t *replay(const gp_trace *t, struct gp_memory *m, gp_u64map *slots, int32_t *freed_at)
{
	size_t n = t->memevents.n;
	int32_t *slot = gp_xmalloc((n ? n : 1) * sizeof(*slot));
	struct gp_mem_step *step = gp_xmalloc((n ? n : 1) * sizeof(*step));
	gp_u64map live = {0};   /* address -> allocating event; INT32_MAX once freed */
	uint64_t unmatched = 0, reused = 0, negative = 0, unstated = 0;
	GP_VEC(int64_t) alloc = {0}, reserved = {0};   /* running totals by slot */

	for (size_t i = 0; i < n; i++) {
		const struct gp_memevent *e = &t->memevents.v[i];
		freed_at[i] = -1;
		if (gp_mem_absurd(e)) {
			slot[i] = -1;
			m->skipped++;
			continue;
		}
		size_t s = device_slot(m, slots, e->device);
		slot[i] = (int32_t)s;
		while (alloc.n < m->devices.n) {
			*gp_vec_push(alloc) = 0;
			*gp_vec_push(reserved) = -1;
		}
		struct gp_mem_device *d = &m->devices.v[s];
		if (e->total_alloc >= 0) {
			alloc.v[s] = e->total_alloc;
		} else {
			gp_mem_add_bytes(&alloc.v[s], e->bytes);
			d->stated = false;
			unstated++;
		}
		if (e->total_reserved >= 0)
			reserved.v[s] = e->total_reserved;
		if (alloc.v[s] < 0)
			negative++;
		if (!d->events++)
			d->first_ts = e->ts;
		d->last_ts = e->ts;
		if (e->bytes >= 0) {
			d->allocs++;
			gp_mem_add_bytes(&d->alloc_bytes, e->bytes);
		} else {
			d->frees++;
			gp_mem_add_bytes(&d->free_bytes, -e->bytes);
		}
		if (d->events == 1 || alloc.v[s] > d->peak_alloc) {
			d->peak_alloc = alloc.v[s];
			d->peak_ts = e->ts;
			d->peak_event = (uint32_t)i;
		}
		if (reserved.v[s] > d->peak_reserved)
			d->peak_reserved = reserved.v[s];
		d->final_alloc = alloc.v[s];
		d->final_reserved = reserved.v[s];
		step[i] = (struct gp_mem_step){e->ts, alloc.v[s], reserved.v[s]};

		if (!e->addr)
			continue;
		if (e->bytes > 0) {
			/* an address allocated again while live: its free was not
			** recorded, so the old allocation ends here */
			int32_t a = gp_u64map_get(&live, e->addr);
			if (a >= 0 && a != INT32_MAX) {
				freed_at[a] = (int32_t)i;
				reused++;
			}
			gp_u64map_put(&live, e->addr, (int32_t)i);
		} else if (e->bytes < 0) {
			int32_t a = gp_u64map_get(&live, e->addr);
			if (a >= 0 && a != INT32_MAX && t->memevents.v[a].device == e->device) {
				freed_at[a] = (int32_t)i;
				gp_u64map_put(&live, e->addr, INT32_MAX);
			} else {
				unmatched++;
			}
		}
	}

	/* the series: each device's steps in time order, one device after the
	** other (a counting sort: a device has one step per event) */
	uint32_t at = 0;
	for (size_t s = 0; s < m->devices.n; s++) {
		m->devices.v[s].step0 = at;
		at += (uint32_t)m->devices.v[s].events;
	}
	gp_vec_reserve(m->steps, at);
	m->steps.n = at;
	for (size_t i = 0; i < n; i++)
		if (slot[i] >= 0) {
			struct gp_mem_device *d = &m->devices.v[slot[i]];
			m->steps.v[d->step0 + d->nsteps++] = step[i];
		}
	if (unmatched)
		note(m, "%" PRIu64 " frees have no recorded allocation at their address (allocated "
		     "before the profile began)", unmatched);
	if (reused)
		note(m, "%" PRIu64 " allocations at an address still live (its free was not recorded): "
		     "the earlier allocation is taken as freed there", reused);
	if (unstated && negative)
		note(m, "the file states no allocator totals: they are replayed from 0 at the first "
		     "event, and went below 0 %" PRIu64 " times (memory allocated before the profile "
		     "began was freed)", negative);
	else if (negative)
		note(m, "%" PRIu64 " events state a total below 0", negative);
	if (m->skipped)
		note(m, "%" PRIu64 " events with a byte count or total above 1 PiB skipped", m->skipped);
	gp_u64map_free(&live);
	gp_vec_free(alloc);
	gp_vec_free(reserved);
	free(step);
	return slot;
}

/* An event's place in its thread's order (events are in time order). */
struct by_thread {
	uint32_t pid, tid, idx;
};

static int cmp_by_thread(const void *pa, const void *pb)
{
	const struct by_thread *a = pa, *b = pb;
	int c = gp_thread_cmp(a->pid, a->tid, b->pid, b->tid);
	return c ? c : a->idx < b->idx ? -1 : a->idx > b->idx;
}

uint32_t *gp_mem_thread_order(const gp_trace *t)
{
	size_t n = t->memevents.n;
	struct by_thread *ord = gp_xmalloc((n ? n : 1) * sizeof(*ord));
	uint32_t *idx = gp_xmalloc((n ? n : 1) * sizeof(*idx));

	for (size_t i = 0; i < n; i++)
		ord[i] = (struct by_thread){t->memevents.v[i].pid, t->memevents.v[i].tid, (uint32_t)i};
	gp_sort(ord, n, sizeof(*ord), cmp_by_thread);
	for (size_t i = 0; i < n; i++)
		idx[i] = ord[i].idx;
	free(ord);
	return idx;
}

static bool is_iteration(const char *text)
{
	return strncmp(text, "ProfilerStep#", 13) == 0 || strncasecmp(text, "iteration ", 10) == 0;
}

/* Whether range r can be the op of what happens inside it: a framework op;
** in traces without them (ops_kind false), an NVTX range. */
static bool op_range(const gp_trace *t, const struct gp_range *r, bool framework_ops)
{
	if (framework_ops)
		return r->kind == GP_RANGE_CPU_OP;
	return (r->kind == GP_RANGE_PUSHPOP || r->kind == GP_RANGE_STARTEND) &&
	       strncmp(gp_s(t, r->text), "layer:", 6) != 0 && !is_iteration(gp_s(t, r->text));
}

/* Whether range r names a layer: a record_function annotation (not a
** step), or PyProf's NVTX "layer:" ranges. */
static bool layer_range(const gp_trace *t, const struct gp_range *r)
{
	const char *text = gp_s(t, r->text);

	if (r->kind == GP_RANGE_USER_ANNOTATION)
		return !is_iteration(text);
	return (r->kind == GP_RANGE_PUSHPOP || r->kind == GP_RANGE_STARTEND) &&
	       strncmp(text, "layer:", 6) == 0;
}

/* Pass 2: the innermost op and layer range around every event on its
** thread.  The events sorted by thread and the ranges (sorted by thread,
** then start, enclosing first) are walked together with a stack of the
** ranges open at the event's time. */
static struct event_site *locate(const gp_trace *t)
{
	size_t n = t->memevents.n, ri = 0, nr = t->ranges.n;
	struct event_site *site = gp_xmalloc((n ? n : 1) * sizeof(*site));
	uint32_t *ord = gp_mem_thread_order(t);
	int32_t stack[MAX_STACK];
	int depth = 0;
	bool framework_ops = false;

	for (size_t i = 0; i < nr && !framework_ops; i++)
		framework_ops = t->ranges.v[i].kind == GP_RANGE_CPU_OP;
	for (size_t k = 0; k < n; k++) {
		const struct gp_memevent *e = &t->memevents.v[ord[k]];
		const struct gp_memevent *prev = k ? &t->memevents.v[ord[k - 1]] : NULL;
		struct event_site *s = &site[ord[k]];
		if (!prev || gp_thread_cmp(prev->pid, prev->tid, e->pid, e->tid) != 0)
			depth = 0;
		while (ri < nr && gp_thread_cmp(t->ranges.v[ri].pid, t->ranges.v[ri].tid, e->pid, e->tid) < 0)
			ri++;
		for (; ri < nr && t->ranges.v[ri].pid == e->pid && t->ranges.v[ri].tid == e->tid &&
		       t->ranges.v[ri].start <= e->ts; ri++) {
			const struct gp_range *r = &t->ranges.v[ri];
			if (r->kind == GP_RANGE_MARK || (r->flags & GP_RANGE_F_UNCLOSED))
				continue;
			while (depth && t->ranges.v[stack[depth - 1]].end < r->start)
				depth--;
			if (depth < MAX_STACK)
				stack[depth++] = (int32_t)ri;
		}
		while (depth && t->ranges.v[stack[depth - 1]].end < e->ts)
			depth--;
		s->op = s->layer = -1;
		for (int i = depth - 1; i >= 0 && (s->op < 0 || s->layer < 0); i--) {
			const struct gp_range *r = &t->ranges.v[stack[i]];
			if (r->end < e->ts)   /* under a range that overlapped it partly */
				continue;
			if (s->op < 0 && op_range(t, r, framework_ops))
				s->op = stack[i];
			if (s->layer < 0 && layer_range(t, r))
				s->layer = stack[i];
		}
	}
	free(ord);
	return site;
}

static int cmp_group(const void *pa, const void *pb)
{
	const struct gp_mem_group *a = pa, *b = pb;

	if (a->device != b->device)
		return a->device < b->device ? -1 : 1;
	if (a->by != b->by)
		return a->by < b->by ? -1 : 1;
	if (a->alloc_bytes != b->alloc_bytes)
		return a->alloc_bytes > b->alloc_bytes ? -1 : 1;
	return a->name < b->name ? -1 : a->name > b->name;
}

/* The group of (the device in slot, by, name), added when new. */
static struct gp_mem_group *group_of(struct gp_memory *m, gp_u64map *index, int32_t slot,
				     uint8_t by, gp_str name, bool addresses)
{
	uint64_t key = ((uint64_t)name << 32) | ((uint64_t)(uint32_t)slot << 1) | by;
	int32_t device = m->devices.v[slot].device;
	int32_t g = gp_u64map_get(index, key);

	if (g < 0) {
		struct gp_mem_group *x = gp_vec_push(m->groups);
		memset(x, 0, sizeof(*x));
		x->name = name;
		x->device = device;
		x->by = by;
		x->live_at_peak = addresses ? 0 : -1;
		g = (int32_t)(m->groups.n - 1);
		gp_u64map_put(index, key, g);
	}
	return &m->groups.v[g];
}

/* The layer path of layer range r (analysis/layers.h): the layer ranges
** from the outermost enclosing r down to r, each a "layer:" range's name
** or an annotation's text; interned into t.  paths caches them by r. */
static gp_str layer_path(gp_trace *t, int32_t r, gp_u64map *paths)
{
	int32_t chain[MAX_STACK], n = 0, got = gp_u64map_get(paths, (uint32_t)r);
	GP_VEC(char) buf = {0};

	if (got >= 0)
		return (gp_str)got;
	for (int32_t i = r; i >= 0 && n < MAX_STACK; i = t->ranges.v[i].parent)
		if (layer_range(t, &t->ranges.v[i]))
			chain[n++] = i;
	while (n--) {
		const char *text = gp_s(t, t->ranges.v[chain[n]].text);
		size_t len;
		if (strncmp(text, "layer:", 6) == 0)
			text += 6;
		len = strlen(text);
		if (buf.n)
			*gp_vec_push(buf) = GP_LAYER_SEP;
		gp_vec_reserve(buf, buf.n + len + 1);
		memcpy(buf.v + buf.n, text, len);
		buf.n += len;
	}
	*gp_vec_push(buf) = 0;
	gp_str path = gp_intern(t, buf.v);
	gp_vec_free(buf);
	gp_u64map_put(paths, (uint32_t)r, (int32_t)path);
	return path;
}

/* The allocations and frees per op and layer, and what each had live at
** its device's peak. */
static void group_events(gp_trace *t, struct gp_memory *m, const int32_t *slot,
			 const int32_t *freed_at, const struct event_site *site)
{
	gp_u64map index = {0}, paths = {0};
	bool *addresses = gp_xcalloc(m->devices.n ? m->devices.n : 1, sizeof(*addresses));

	for (size_t i = 0; i < t->memevents.n; i++)
		if (slot[i] >= 0 && t->memevents.v[i].addr)
			addresses[slot[i]] = true;
	for (size_t s = 0; s < m->devices.n; s++)
		if (addresses[s])
			m->devices.v[s].live_known = 0;
	for (size_t i = 0; i < t->memevents.n; i++) {
		const struct gp_memevent *e = &t->memevents.v[i];
		if (slot[i] < 0)
			continue;
		struct gp_mem_device *d = &m->devices.v[slot[i]];
		bool live = addresses[slot[i]] && e->bytes > 0 && e->addr && i <= d->peak_event &&
			    (freed_at[i] < 0 || (uint32_t)freed_at[i] > d->peak_event);
		if (live)
			gp_mem_add_bytes(&d->live_known, e->bytes);
		gp_str name[2] = {site[i].op >= 0 ? t->ranges.v[site[i].op].text : 0,
				  site[i].layer >= 0 ? layer_path(t, site[i].layer, &paths) : 0};
		for (uint8_t by = GP_MEM_BY_OP; by <= GP_MEM_BY_LAYER; by++) {
			struct gp_mem_group *g = group_of(m, &index, slot[i], by, name[by], addresses[slot[i]]);
			if (e->bytes >= 0) {
				g->allocs++;
				gp_mem_add_bytes(&g->alloc_bytes, e->bytes);
			} else {
				g->frees++;
				gp_mem_add_bytes(&g->free_bytes, -e->bytes);
			}
			if (live) {
				gp_mem_add_bytes(&g->live_at_peak, e->bytes);
				g->live_count++;
			}
		}
	}
	gp_vec_sort(m->groups, cmp_group);
	gp_u64map_free(&index);
	gp_u64map_free(&paths);
	free(addresses);
}

void gp_memory_layers(gp_trace *t, struct gp_memory *m, const struct gp_layer_view *v)
{
	struct gp_layer_cut cut = {.v = v};
	gp_u64map index = {0};
	size_t n = 0;
	int32_t device = 0;
	uint8_t by = 0;

	if (!gp_layer_view_cuts(v))
		return;
	for (size_t i = 0; i < m->groups.n; i++) {
		struct gp_mem_group g = m->groups.v[i];
		if (g.by == GP_MEM_BY_LAYER)
			g.name = gp_layer_cut_str(t, &cut, g.name);
		/* one group per (device, by, name): merge into the first; the
		** groups come by device and by, so index holds one run's names */
		if (i == 0 || g.device != device || g.by != by) {
			gp_u64map_free(&index);
			memset(&index, 0, sizeof(index));
			device = g.device;
			by = g.by;
		}
		int32_t at = gp_u64map_add(&index, g.name, (int32_t)n);
		if (at == (int32_t)n) {
			m->groups.v[n++] = g;
			continue;
		}
		struct gp_mem_group *x = &m->groups.v[at];
		x->allocs += g.allocs;
		x->frees += g.frees;
		gp_mem_add_bytes(&x->alloc_bytes, g.alloc_bytes);
		gp_mem_add_bytes(&x->free_bytes, g.free_bytes);
		if (x->live_at_peak >= 0 && g.live_at_peak >= 0)
			gp_mem_add_bytes(&x->live_at_peak, g.live_at_peak);
		x->live_count += g.live_count;
	}
	m->groups.n = n;
	gp_vec_sort(m->groups, cmp_group);
	gp_layer_cut_free(&cut);
	gp_u64map_free(&index);
}

int gp_memory_alloc_call(const char *name)
{
	static const char *const mallocs[] = {"cudaMalloc", "cuMemAlloc", "cuMemAlloc_v2", "hipMalloc", NULL};
	static const char *const frees[] = {"cudaFree", "cuMemFree", "cuMemFree_v2", "hipFree", NULL};

	for (int i = 0; mallocs[i]; i++)
		if (strcmp(name, mallocs[i]) == 0)
			return 1;
	for (int i = 0; frees[i]; i++)
		if (strcmp(name, frees[i]) == 0)
			return -1;
	return 0;
}

/* A device's last reserved total, for gp_memory_churn. */
struct last_reserved {
	int32_t device;
	int64_t reserved;
};

void gp_memory_churn(const gp_trace *t, struct gp_mem_churn *c)
{
	gp_ns first_start = INT64_MAX;
	GP_VEC(struct last_reserved) reserved = {0};

	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < t->ranges.n; i++) {
		const struct gp_range *r = &t->ranges.v[i];
		if (r->kind == GP_RANGE_MARK || r->kind == GP_RANGE_GPU_ANNOTATION ||
		    !is_iteration(gp_s(t, r->text)))
			continue;
		c->iterations++;
		if (r->start < first_start) {
			first_start = r->start;
			c->loop_start = r->end;
		}
	}
	c->has_loop = c->iterations > 0;
	if (!c->has_loop)
		return;
	for (size_t i = 0; i < t->apis.n; i++) {
		const struct gp_api *a = &t->apis.v[i];
		int kind = a->start >= c->loop_start ? gp_memory_alloc_call(gp_s(t, gp_api_def(t, a)->name)) : 0;
		if (!kind)
			continue;
		if (kind > 0)
			c->malloc_calls++;
		else
			c->free_calls++;
		c->call_ns += (double)(a->end - a->start);
	}
	for (size_t i = 0; i < t->memevents.n; i++) {
		const struct gp_memevent *e = &t->memevents.v[i];
		if (e->device == GP_MEM_HOST || e->total_reserved < 0 || gp_mem_absurd(e))
			continue;
		size_t d = 0;
		while (d < reserved.n && reserved.v[d].device != e->device)
			d++;
		if (d == reserved.n)
			*gp_vec_push(reserved) = (struct last_reserved){e->device, e->total_reserved};
		int64_t *prev = &reserved.v[d].reserved;
		if (e->total_reserved > *prev && e->ts >= c->loop_start) {
			c->reserved_growths++;
			gp_mem_add_bytes(&c->reserved_growth_bytes, e->total_reserved - *prev);
		}
		*prev = e->total_reserved;
	}
	gp_vec_free(reserved);
}

void gp_memory_run(gp_trace *t, struct gp_memory *m)
{
	size_t n = t->memevents.n, idle = 0;
	int32_t *freed_at = gp_xmalloc((n ? n : 1) * sizeof(*freed_at));
	gp_u64map slots = {0};
	int32_t first_idle = 0;

	memset(m, 0, sizeof(*m));
	int32_t *slot = replay(t, m, &slots, freed_at);
	struct event_site *site = locate(t);

	for (size_t k = 0; k < t->kernels.n && m->devices.n; k++) {
		int32_t s = gp_u64map_get(&slots, (uint32_t)gp_kernel_device(t, &t->kernels.v[k]));
		if (s >= 0)
			m->devices.v[s].has_kernels = true;
	}
	for (size_t s = 0; s < m->devices.n; s++)
		if (m->devices.v[s].device != GP_MEM_HOST && !m->devices.v[s].has_kernels && !idle++)
			first_idle = m->devices.v[s].device;
	if (idle && t->kernels.n)
		note(m, "memory events on %zu device(s) that ran no kernel (device %d%s)", idle,
		     (int)first_idle, idle > 1 ? ", ..." : "");
	group_events(t, m, slot, freed_at, site);
	gp_memory_churn(t, &m->churn);

	/* devices in id order (the per-event slots are not used past here) */
	gp_vec_sort(m->devices, cmp_device);
	gp_u64map_free(&slots);
	free(site);
	free(slot);
	free(freed_at);
}

void gp_memory_free(struct gp_memory *m)
{
	gp_vec_free(m->devices);
	gp_vec_free(m->steps);
	gp_vec_free(m->groups);
	memset(m, 0, sizeof(*m));
}

void gp_memory_buckets(const struct gp_memory *m, const struct gp_mem_device *d, gp_ns first,
		       gp_ns last, struct gp_mem_step *out, size_t n)
{
	const struct gp_mem_step *st = m->steps.v + d->step0;
	size_t k = 0;
	double width = n ? (double)(last - first) / (double)n : 0;
	struct gp_mem_step cur = {0, INT64_MIN, -1};   /* the step in effect */

	for (size_t i = 0; i < n; i++) {
		gp_ns lo = first + (gp_ns)(width * (double)i);
		gp_ns hi = i + 1 == n ? last + 1 : first + (gp_ns)(width * (double)(i + 1));
		out[i] = (struct gp_mem_step){lo, cur.allocated, cur.reserved};
		for (; k < d->nsteps && st[k].ts < hi; k++) {
			cur = st[k];
			if (cur.allocated > out[i].allocated)
				out[i].allocated = cur.allocated;
			if (cur.reserved > out[i].reserved)
				out[i].reserved = cur.reserved;
		}
	}
}
