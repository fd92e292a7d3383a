/*
** The dependency graph (deps.h, docs/dependencies.md).
**
** 1. Each unit's launching call: kernels from the correlation pass, copies
**    and memsets by their correlation id.
** 2. Streams: the units in start order (a merge of the three sorted
**    arrays), then a stable counting sort by (device, stream): each
**    stream's units in FIFO order, its predecessor links, and each unit's
**    launch time (its call's start, filled forward where unknown), so that
**    "the last work launched on stream S before time x" is one binary
**    search.
** 3. Syncs and waits: each sync record (or, where a trace has none, each
**    synchronising API call) finds what it waited for that way; an event's
**    work is the last launched on its stream before its record call.
** 4. CPU timelines are built per thread when a walk first needs them.
*/
#include <stdlib.h>
#include <string.h>

#include "analysis/deps.h"
#include "analysis/markers.h"
#include "model/calls.h"
#include "util/alloc.h"

/* The window work unit u is (after the kernels, copies and memsets), or
** NULL when it is none. */
static const struct gp_window_work *window_unit(const gp_trace *t, size_t u)
{
	size_t first = t->kernels.n + t->memcpys.n + t->memsets.n;

	return u >= first ? &t->window_work.v[u - first] : NULL;
}

gp_ns gp_unit_start(const gp_trace *t, size_t u)
{
	const struct gp_window_work *w = window_unit(t, u);

	if (w)
		return w->start;
	if (u < t->kernels.n)
		return t->kernels.v[u].start;
	u -= t->kernels.n;
	if (u < t->memcpys.n)
		return t->memcpys.v[u].start;
	return t->memsets.v[u - t->memcpys.n].start;
}

gp_ns gp_unit_end(const gp_trace *t, size_t u)
{
	const struct gp_window_work *w = window_unit(t, u);
	gp_ns s, e;

	if (w) {
		s = w->start;
		e = w->end;
	} else if (u < t->kernels.n) {
		s = t->kernels.v[u].start;
		e = t->kernels.v[u].end;
	} else if ((u -= t->kernels.n) < t->memcpys.n) {
		s = t->memcpys.v[u].start;
		e = t->memcpys.v[u].end;
	} else {
		s = t->memsets.v[u - t->memcpys.n].start;
		e = t->memsets.v[u - t->memcpys.n].end;
	}
	return e < s ? s : e;
}

int32_t gp_unit_device(const gp_trace *t, size_t u)
{
	const struct gp_window_work *w = window_unit(t, u);

	if (w)
		return w->device;
	if (u < t->kernels.n)
		return gp_kernel_device(t, &t->kernels.v[u]);
	u -= t->kernels.n;
	if (u < t->memcpys.n)
		return t->memcpys.v[u].device;
	return t->memsets.v[u - t->memcpys.n].device;
}

uint32_t gp_unit_stream(const gp_trace *t, size_t u)
{
	const struct gp_window_work *w = window_unit(t, u);

	if (w)
		return w->stream;
	if (u < t->kernels.n)
		return t->kernels.v[u].stream;
	u -= t->kernels.n;
	if (u < t->memcpys.n)
		return t->memcpys.v[u].stream;
	return t->memsets.v[u - t->memcpys.n].stream;
}

enum gp_unit_kind gp_unit_kind(const gp_trace *t, size_t u)
{
	if (u < t->kernels.n || window_unit(t, u))
		return GP_UNIT_KERNEL;
	return u - t->kernels.n < t->memcpys.n ? GP_UNIT_COPY : GP_UNIT_MEMSET;
}

const struct gp_window_work *gp_unit_window_work(const gp_trace *t, size_t u)
{
	return window_unit(t, u);
}

bool gp_unit_replayed(const gp_deps *d, size_t u)
{
	const gp_trace *t = d->t;
	int32_t c = u < d->n ? d->call[u] : -1;
	uint64_t node;

	if (window_unit(t, u))
		return false;   /* another iteration's: the window does not attribute it */
	if (u < t->kernels.n)
		return t->attrs ? t->attrs[u].graph != GP_GRAPH_NONE : gp_kernel_graph_launched(t, &t->kernels.v[u], c);
	u -= t->kernels.n;
	node = u < t->memcpys.n ? t->memcpys.v[u].graph_node : t->memsets.v[u - t->memcpys.n].graph_node;
	return node || (c >= 0 && gp_deps_api_class(d, (size_t)c) == GP_APIC_GRAPH_LAUNCH);
}

static uint64_t unit_corr(const gp_trace *t, size_t u, uint32_t *pid)
{
	const struct gp_window_work *w = window_unit(t, u);

	if (w) {
		*pid = w->pid;
		return 0;   /* its call is named by the cut (gp_window_work.api) */
	}
	if (u < t->kernels.n) {
		*pid = gp_kernel_pid(t, &t->kernels.v[u]);
		return t->kernels.v[u].corr;
	}
	u -= t->kernels.n;
	if (u < t->memcpys.n) {
		*pid = t->memcpys.v[u].pid;
		return t->memcpys.v[u].corr;
	}
	*pid = t->memsets.v[u - t->memcpys.n].pid;
	return t->memsets.v[u - t->memcpys.n].corr;
}

static uint64_t stream_key(int32_t device, uint32_t stream)
{
	return (uint64_t)(uint32_t)device << 32 | stream;
}

/* The streams while the graph is built: every stream's units in FIFO
** order, one after the other (first[s] .. first[s + 1]), with their launch
** times. */
struct streams {
	gp_u64map at;             /* stream key -> stream index */
	GP_VEC(uint64_t) keys;    /* stream index -> key */
	size_t *first;            /* [nstreams + 1] */
	uint32_t *order;          /* [units] */
	gp_ns *launched;          /* [units], parallel to order: non-decreasing per stream */
};

uint32_t *gp_units_by_start(const gp_trace *t)
{
	size_t nk = t->kernels.n, nc = t->memcpys.n, ns = t->memsets.n, nw = t->window_work.n;
	size_t ik = 0, ic = 0, is = 0, iw = 0;
	uint32_t *v = gp_xmalloc((nk + nc + ns + nw + 1) * sizeof(*v));

	for (size_t i = 0; i < nk + nc + ns + nw; i++) {
		gp_ns sk = ik < nk ? t->kernels.v[ik].start : INT64_MAX;
		gp_ns sc = ic < nc ? t->memcpys.v[ic].start : INT64_MAX;
		gp_ns ss = is < ns ? t->memsets.v[is].start : INT64_MAX;
		gp_ns sw = iw < nw ? t->window_work.v[iw].start : INT64_MAX;
		if (iw < nw && sw < sk && sw < sc && sw < ss)
			v[i] = (uint32_t)(nk + nc + ns + iw++);
		else if (ik < nk && sk <= sc && sk <= ss)
			v[i] = (uint32_t)ik++;
		else if (ic < nc && sc <= ss)
			v[i] = (uint32_t)(nk + ic++);
		else
			v[i] = (uint32_t)(nk + nc + is++);
	}
	return v;
}

static void build_streams(gp_deps *d, struct streams *s)
{
	const gp_trace *t = d->t;
	uint32_t *start_order = gp_units_by_start(t), *sidx = gp_xmalloc((d->n + 1) * sizeof(*sidx));
	size_t nst;

	for (size_t i = 0; i < d->n; i++) {
		uint32_t u = start_order[i];
		uint64_t key = stream_key(gp_unit_device(t, u), gp_unit_stream(t, u));
		int32_t k = gp_u64map_add(&s->at, key, (int32_t)s->keys.n);
		if ((size_t)k == s->keys.n)
			*gp_vec_push(s->keys) = key;
		sidx[u] = (uint32_t)k;
	}
	nst = s->keys.n;
	s->first = gp_xcalloc(nst + 2, sizeof(*s->first));
	for (size_t u = 0; u < d->n; u++)
		s->first[sidx[u] + 2]++;
	for (size_t k = 0; k < nst; k++)
		s->first[k + 2] += s->first[k + 1];
	s->order = gp_xmalloc((d->n + 1) * sizeof(*s->order));
	s->launched = gp_xmalloc((d->n + 1) * sizeof(*s->launched));
	for (size_t i = 0; i < d->n; i++) {
		uint32_t u = start_order[i];
		s->order[s->first[sidx[u] + 1]++] = u;
	}
	/* each placement moved first[k + 1] from stream k's start to its end,
	** which is where stream k + 1 starts: first[k] .. first[k + 1] is k */
	for (size_t k = 0; k < nst; k++) {
		gp_ns last = INT64_MIN;
		for (size_t i = s->first[k]; i < s->first[k + 1]; i++) {
			uint32_t u = s->order[i];
			int32_t c = d->call[u];
			gp_ns at = c >= 0 ? t->apis.v[c].start : gp_unit_start(t, u);
			if (at < last)
				at = last;   /* FIFO: launched no earlier than the one before it */
			s->launched[i] = last = at;
			d->prev[u] = i > s->first[k] ? (int32_t)s->order[i - 1] : -1;
			if (d->prev[u] >= 0)
				d->edges[GP_EDGE_STREAM]++;
		}
	}
	free(sidx);
	free(start_order);
}

static void free_streams(struct streams *s)
{
	gp_u64map_free(&s->at);
	gp_vec_free(s->keys);
	free(s->first);
	free(s->order);
	free(s->launched);
}

/* The last unit launched on stream k at or before time x, or -1. */
static int32_t last_launched(const struct streams *s, size_t k, gp_ns x)
{
	size_t lo = s->first[k], hi = s->first[k + 1];

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->launched[mid] <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > s->first[k] ? (int32_t)s->order[lo - 1] : -1;
}

/* The first unit launched on stream k at or after time x, or -1. */
static int32_t first_launched(const struct streams *s, size_t k, gp_ns x)
{
	size_t lo = s->first[k], hi = s->first[k + 1];

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->launched[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->first[k + 1] ? (int32_t)s->order[lo] : -1;
}

/* The unit of device (-1: any device of process pid) whose work was the
** last to finish among the last launched on each of its streams before x:
** what a device synchronisation waits for; -1 when none. */
static int32_t device_target(const gp_deps *d, const struct streams *s, int32_t device, uint32_t pid,
			     gp_ns x)
{
	int32_t best = -1;

	for (size_t k = 0; k < s->keys.n; k++) {
		int32_t dev = (int32_t)(uint32_t)(s->keys.v[k] >> 32), u;
		if (device >= 0 && dev != device)
			continue;
		if ((u = last_launched(s, k, x)) < 0)
			continue;
		if (device < 0 && pid) {
			uint32_t upid;
			unit_corr(d->t, (size_t)u, &upid);
			if (upid && upid != pid)
				continue;
		}
		if (best < 0 || gp_unit_end(d->t, (size_t)u) > gp_unit_end(d->t, (size_t)best))
			best = u;
	}
	return best;
}

/* Records that API call c waited for unit u (the later-finishing unit
** when the call is known to wait for several). */
static void set_synced(gp_deps *d, int32_t c, int32_t u)
{
	int32_t old = gp_u64map_get(&d->synced, (uint64_t)c);

	if (old >= 0 && gp_unit_end(d->t, (size_t)old) >= gp_unit_end(d->t, (size_t)u))
		return;
	if (old < 0)
		d->edges[GP_EDGE_SYNC]++;
	gp_u64map_put(&d->synced, (uint64_t)c, u);
}

/* The event records indexed by record-call correlation id and by (event
** id, record time): the latest record of an event before a wait is the one
** it waits on. */
struct record_key {
	uint64_t event_id;
	gp_ns at;                 /* the record call's start */
	int32_t idx;
};
struct records {
	gp_u64map by_corr;        /* corr -> record index */
	int32_t *call;            /* [records] the record call, -1 = not found */
	struct record_key *keys;  /* records with a call, by (event id, time) */
	size_t nkeys;
};

static int cmp_record_key(const void *pa, const void *pb)
{
	const struct record_key *a = pa, *b = pb;

	if (a->event_id != b->event_id)
		return a->event_id < b->event_id ? -1 : 1;
	if (a->at != b->at)
		return a->at < b->at ? -1 : 1;
	return (a->idx > b->idx) - (a->idx < b->idx);
}

static void index_records(const gp_trace *t, const gp_call_index *calls, struct records *r)
{
	r->call = gp_xmalloc((t->event_records.n + 1) * sizeof(*r->call));
	r->keys = gp_xmalloc((t->event_records.n + 1) * sizeof(*r->keys));
	for (size_t i = 0; i < t->event_records.n; i++) {
		const struct gp_event_record *e = &t->event_records.v[i];
		r->call[i] = gp_call_find(calls, e->corr, e->pid);
		gp_u64map_add(&r->by_corr, e->corr, (int32_t)i);
		if (r->call[i] >= 0 && e->event_id)
			r->keys[r->nkeys++] = (struct record_key){e->event_id, t->apis.v[r->call[i]].start,
								  (int32_t)i};
	}
	gp_sort(r->keys, r->nkeys, sizeof(*r->keys), cmp_record_key);
}

static void free_records(struct records *r)
{
	gp_u64map_free(&r->by_corr);
	free(r->call);
	free(r->keys);
}

static bool no_event(uint64_t id)
{
	return !id || id == UINT32_MAX || id == UINT64_MAX;
}

/* The record a sync or wait y (its call c) waits on, or -1. */
static int32_t record_of(const gp_deps *d, const struct records *r, const struct gp_sync *y, int32_t c)
{
	struct record_key want;
	size_t lo = 0, hi = r->nkeys;

	if (y->record_corr)
		return gp_u64map_get(&r->by_corr, y->record_corr);
	if (no_event(y->event_id))
		return -1;
	/* nsys and nvprof name the event: its latest record at or before the wait */
	want = (struct record_key){y->event_id, d->t->apis.v[c].start, INT32_MAX};
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cmp_record_key(&r->keys[mid], &want) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && r->keys[lo - 1].event_id == y->event_id ? r->keys[lo - 1].idx : -1;
}

/* The unit the event record e captured: the last launched on its stream
** before its record call started; -1 when unknown. */
static int32_t recorded_unit(const gp_deps *d, const struct streams *s, const struct records *r, int32_t e)
{
	const struct gp_event_record *er = &d->t->event_records.v[e];
	int32_t k;

	if (r->call[e] < 0)
		return -1;
	k = gp_u64map_get(&s->at, stream_key(er->device, er->stream));
	return k < 0 ? -1 : last_launched(s, (size_t)k, d->t->apis.v[r->call[e]].start);
}

/* The device of context ctx, as the GPU work of the trace says (a map
** filled on first use); -1 when no work names it. */
static int32_t context_device(const gp_deps *d, gp_u64map *m, uint32_t ctx)
{
	const gp_trace *t = d->t;

	if (!m->n) {
		for (size_t k = 0; k < t->kernels.n; k++) {
			const struct gp_kernel_def *kd = gp_kernel_def(t, &t->kernels.v[k]);
			if (kd->device >= 0)
				gp_u64map_add(m, kd->context, kd->device);
		}
		for (size_t i = 0; i < t->memcpys.n; i++)
			if (t->memcpys.v[i].device >= 0)
				gp_u64map_add(m, t->memcpys.v[i].context, t->memcpys.v[i].device);
		if (!m->n)
			gp_u64map_put(m, UINT64_MAX, 0);   /* looked, found nothing: not again */
	}
	return gp_u64map_get(m, ctx);
}

/* What a sync record of unknown type y (its call c) waited for: the last
** work launched before the call on the stream it names (a device sync
** call, or no such stream: on each stream of its device, of any device
** of the process when it names none), the one that finished last, if it
** finished before the call returned; -1 otherwise (it waited for
** nothing the trace shows). */
static int32_t unknown_sync_target(const gp_deps *d, const struct streams *s, const struct gp_sync *y, int32_t c)
{
	const struct gp_api *a = &d->t->apis.v[c];
	int32_t k = gp_u64map_get(&s->at, stream_key(y->device, y->stream)), u;

	if (k >= 0 && gp_deps_api_class(d, (size_t)c) != GP_APIC_SYNC_DEVICE)
		u = last_launched(s, (size_t)k, a->start);
	else
		u = device_target(d, s, y->device, a->pid, a->start);
	return u >= 0 && gp_unit_end(d->t, (size_t)u) <= a->end ? u : -1;
}

/* How many calls after a stream wait without a sync record are searched
** for its thread's next launch. */
#define BARE_WAIT_LOOKAHEAD 4096

/* Stream waits the trace has no sync record for (Kineto traces without
** cuda_sync events, HIP traces: only the call's name): the stream made to
** wait is the one the thread's next launch queued work onto (PyTorch's
** stream.wait_event(), then work on that stream).  The event and its
** record are not named, so that work waits for something the trace does
** not show (wait_unknown, counted in waits_unresolved).  covered[c]: call
** c has a sync record.  One pass over the units, then a short scan after
** each such call (the calls are in start order). */
static void link_bare_waits(gp_deps *d, const uint8_t *covered)
{
	const gp_trace *t = d->t;
	int32_t *unit_of = gp_xmalloc((t->apis.n + 1) * sizeof(*unit_of));
	bool any = false;

	for (size_t c = 0; c < t->apis.n; c++) {
		unit_of[c] = -1;
		any |= !covered[c] && gp_deps_api_class(d, c) == GP_APIC_STREAM_WAIT;
	}
	for (size_t u = 0; any && u < d->n; u++) {
		int32_t c = d->call[u];
		if (c >= 0 && (unit_of[c] < 0 || gp_unit_start(t, u) < gp_unit_start(t, (size_t)unit_of[c])))
			unit_of[c] = (int32_t)u;
	}
	for (size_t c = 0; any && c < t->apis.n; c++) {
		const struct gp_api *w = &t->apis.v[c];
		if (covered[c] || gp_deps_api_class(d, c) != GP_APIC_STREAM_WAIT)
			continue;
		for (size_t n = c + 1; n < t->apis.n && n - c <= BARE_WAIT_LOOKAHEAD; n++) {
			const struct gp_api *a = &t->apis.v[n];
			if (a->pid != w->pid || a->tid != w->tid)
				continue;
			if (gp_deps_api_class(d, n) == GP_APIC_STREAM_WAIT)
				break;   /* the next wait's launch, not this one's */
			if (unit_of[n] >= 0) {
				d->waits_unresolved++;
				gp_u64map_put(&d->wait_unknown, (uint64_t)unit_of[n], (int32_t)(2 * c));
				break;
			}
		}
	}
	free(unit_of);
}

static void link_syncs(gp_deps *d, const struct streams *s, const gp_call_index *calls)
{
	const gp_trace *t = d->t;
	struct records r = {0};
	uint8_t *covered = gp_xcalloc(t->apis.n + 1, 1);
	gp_u64map ctx_dev = {0};

	index_records(t, calls, &r);

	for (size_t i = 0; i < t->syncs.n; i++) {
		struct gp_sync y = t->syncs.v[i];
		int32_t c = gp_call_find(calls, y.corr, y.pid), u = -1, e, k;

		if (c < 0)
			continue;
		covered[c] = 1;
		if (y.device < 0)   /* a recording names the context: its work's device */
			y.device = context_device(d, &ctx_dev, y.context);
		switch (y.kind) {
		case GP_SYNC_STREAM:
			k = gp_u64map_get(&s->at, stream_key(y.device, y.stream));
			u = k < 0 ? -1 : last_launched(s, (size_t)k, t->apis.v[c].start);
			break;
		case GP_SYNC_CONTEXT:
			u = device_target(d, s, y.device, t->apis.v[c].pid, t->apis.v[c].start);
			break;
		case GP_SYNC_EVENT:
			e = record_of(d, &r, &y, c);
			u = e < 0 ? -1 : recorded_unit(d, s, &r, e);
			break;
		case GP_SYNC_STREAM_WAIT: {
			int32_t dst;
			e = record_of(d, &r, &y, c);
			u = e < 0 ? -1 : recorded_unit(d, s, &r, e);
			k = gp_u64map_get(&s->at, stream_key(y.device, y.stream));
			dst = k < 0 ? -1 : first_launched(s, (size_t)k, t->apis.v[c].start);
			if (u < 0 || dst < 0 || u == dst) {
				d->waits_unresolved++;
				if (dst >= 0)   /* it waits for something: what, the trace does not say */
					gp_u64map_put(&d->wait_unknown, (uint64_t)dst, 2 * c + (e >= 0));
			} else {
				int32_t old = gp_u64map_get(&d->wait, (uint64_t)dst);
				if (old < 0 || gp_unit_end(t, (size_t)u) > gp_unit_end(t, (size_t)old)) {
					if (old < 0)
						d->edges[GP_EDGE_EVENT]++;
					gp_u64map_put(&d->wait, (uint64_t)dst, u);
				}
			}
			continue;   /* the CPU does not wait */
		}
		case GP_SYNC_UNKNOWN:
			/* CUPTI's type 0 (nsys writes it for cudaDeviceSynchronize):
			** the call waited for the latest work that ended before it
			** returned, on its stream, else its device */
			u = unknown_sync_target(d, s, &y, c);
			break;
		default:
			continue;
		}
		if (u < 0)
			d->syncs_unresolved++;
		else
			set_synced(d, c, u);
	}

	/* sync calls the trace has no sync record for (older Kineto traces,
	** syncs tracing off): a device sync waits for the whole device; a
	** stream sync's stream is unknown, so it waits for the work that
	** finishes last of the process's streams (one stream in most
	** programs; counted in syncs_unresolved when there is nothing) */
	for (size_t c = 0; c < t->apis.n; c++) {
		enum gp_api_class k = gp_deps_api_class(d, c);
		int32_t u;
		if (covered[c] || (k != GP_APIC_SYNC_DEVICE && k != GP_APIC_SYNC_STREAM))
			continue;
		u = device_target(d, s, -1, t->apis.v[c].pid, t->apis.v[c].start);
		if (u >= 0)
			set_synced(d, (int32_t)c, u);
		else if (k == GP_APIC_SYNC_STREAM)
			d->syncs_unresolved++;
	}

	link_bare_waits(d, covered);

	/* a copy or memset call that returned after its own work finished
	** waited for it (synchronous copies, pageable memory) */
	for (size_t u = t->kernels.n; u < d->n; u++) {
		int32_t c = d->call[u];
		if (c < 0 || window_unit(t, u))
			continue;
		enum gp_api_class k = gp_deps_api_class(d, (size_t)c);
		if ((k == GP_APIC_COPY || k == GP_APIC_MEMSET) && t->apis.v[c].end >= gp_unit_end(t, u))
			set_synced(d, c, (int32_t)u);
	}

	free(covered);
	free_records(&r);
	gp_u64map_free(&ctx_dev);
}

void gp_deps_build(gp_deps *d, const gp_trace *t)
{
	gp_call_index calls;
	struct streams s = {0};

	memset(d, 0, sizeof(*d));
	d->t = t;
	d->n = t->kernels.n + t->memcpys.n + t->memsets.n + t->window_work.n;
	d->call = gp_xmalloc((d->n + 1) * sizeof(*d->call));
	d->prev = gp_xmalloc((d->n + 1) * sizeof(*d->prev));
	d->api_class = gp_xmalloc(t->api_defs.n + 1);
	d->text_class = gp_xcalloc(t->strs.n + 2, 1);
	for (size_t i = 0; i < t->api_defs.n; i++)
		d->api_class[i] = (uint8_t)gp_api_class_of(i ? gp_s(t, t->api_defs.v[i].name) : NULL);

	gp_call_index_build(&calls, t);
	for (size_t u = 0; u < d->n; u++) {
		uint32_t pid;
		uint64_t corr = unit_corr(t, u, &pid);
		if (u < t->kernels.n && t->attrs)
			d->call[u] = t->attrs[u].api;
		else if (window_unit(t, u))
			d->call[u] = window_unit(t, u)->api;
		else
			d->call[u] = gp_call_find(&calls, corr, pid);
		if (d->call[u] >= 0)
			d->edges[GP_EDGE_LAUNCH]++;
	}
	build_streams(d, &s);
	link_syncs(d, &s, &calls);
	free_streams(&s);
	gp_call_index_free(&calls);
}

void gp_deps_label_markers(gp_deps *d, gp_trace *t)
{
	size_t n = t->strs.n + 1;

	gp_marker_labels_free(&d->labels);
	free(d->marker);
	gp_marker_labels_init(&d->labels, t);
	d->marker = gp_xcalloc(n / 8 + 1, 1);
	for (size_t i = 0; i < t->ranges.n; i++) {
		const struct gp_range *r = &t->ranges.v[i];
		if ((r->kind == GP_RANGE_PUSHPOP || r->kind == GP_RANGE_STARTEND) && r->text && r->text < n)
			d->marker[r->text >> 3] |= (uint8_t)(1u << (r->text & 7));
	}
}

gp_str gp_deps_text(const gp_deps *d, gp_str s)
{
	if (s >= d->labels.n || !((d->marker[s >> 3] >> (s & 7)) & 1))
		return s;
	return gp_marker_labels_get(&d->labels, s, NULL);
}

void gp_deps_free(gp_deps *d)
{
	free(d->call);
	free(d->prev);
	free(d->api_class);
	free(d->text_class);
	gp_marker_labels_free(&d->labels);
	free(d->marker);
	gp_u64map_free(&d->wait);
	gp_u64map_free(&d->wait_unknown);
	gp_u64map_free(&d->synced);
	gp_vec_free(d->views);
	gp_u64map_free(&d->view_of);
	free(d->api_count);
	free(d->by_end);
	gp_vec_free(d->mains);
	gp_vec_free(d->onetime);
	gp_u64map_free(&d->first_launch);
	free(d->api_by_thread);
	gp_u64map_free(&d->api_first);
	memset(d, 0, sizeof(*d));
}

uint32_t gp_deps_unit_pid(const gp_deps *d, size_t u)
{
	uint32_t pid = 0;

	if (d->call[u] >= 0)
		return d->t->apis.v[d->call[u]].pid;
	unit_corr(d->t, u, &pid);
	return pid;
}

bool gp_deps_staged_copy(const gp_deps *d, size_t u)
{
	const gp_trace *t = d->t;
	const struct gp_memcpy *m;

	if (u < t->kernels.n || u >= t->kernels.n + t->memcpys.n || d->call[u] < 0)
		return false;
	m = &t->memcpys.v[u - t->kernels.n];
	return m->bytes >= GP_SMALL_COPY_BYTES && (m->src_kind == GP_MEM_PAGEABLE || m->dst_kind == GP_MEM_PAGEABLE);
}

enum gp_edge gp_deps_binding(const gp_deps *d, size_t u, int32_t *from, gp_ns *ready)
{
	const gp_trace *t = d->t;
	enum gp_edge best = GP_EDGE_NONE;
	int32_t p = d->prev[u], w = gp_deps_wait_of(d, u), c = d->call[u];

	*from = -1;
	*ready = INT64_MIN;
	/* ties go to the GPU side: a kernel queued behind its predecessor was
	** not late to launch */
	if (p >= 0) {
		best = GP_EDGE_STREAM;
		*from = p;
		*ready = gp_unit_end(t, (size_t)p);
	}
	if (w >= 0 && gp_unit_end(t, (size_t)w) > *ready) {
		best = GP_EDGE_EVENT;
		*from = w;
		*ready = gp_unit_end(t, (size_t)w);
	}
	if (c >= 0 && t->apis.v[c].start > *ready) {
		best = GP_EDGE_LAUNCH;
		*from = c;
		*ready = t->apis.v[c].start;
		/* launched, then held back long after the call returned by a
		** wait on an event the trace does not name: an event wait
		** whose source is unknown */
		if (gp_u64map_get(&d->wait_unknown, u) >= 0 &&
		    gp_unit_start(t, u) - t->apis.v[c].end > GP_LAUNCH_LATENCY_MAX_NS) {
			best = GP_EDGE_EVENT;
			*from = -1;
			*ready = t->apis.v[c].end;
		}
	}
	return best;
}

/* ---- CPU timelines ---------------------------------------------------- */

/* Whether range r is CPU activity of its thread (not an instant mark, not
** a GPU-side annotation, not a range the program never closed). */
static bool cpu_range(const struct gp_range *r)
{
	if (r->flags & GP_RANGE_F_UNCLOSED)
		return false;
	switch (r->kind) {
	case GP_RANGE_PUSHPOP: case GP_RANGE_STARTEND: case GP_RANGE_CPU_OP:
	case GP_RANGE_USER_ANNOTATION: case GP_RANGE_PYTHON: case GP_RANGE_TIMER:
	case GP_RANGE_OTHER:
		return r->end > r->start;
	}
	return false;
}

/* The API calls of every thread that take time, grouped by thread in start
** order: a counting sort of their indices (API calls are sorted by start).
** A call of no duration (Kineto writes many "dur": 0 calls) never holds
** its thread: left out, so that a look-back over a thread's last calls
** (gp_cpu_before) never spends itself on them. */
static void index_api_threads(gp_deps *d)
{
	const gp_trace *t = d->t;
	GP_VEC(uint32_t) count = {0};
	uint32_t *slot = gp_xmalloc((t->apis.n + 1) * sizeof(*slot));
	size_t at = 0;

	for (size_t i = 0; i < t->apis.n; i++) {
		uint64_t key = (uint64_t)t->apis.v[i].pid << 32 | t->apis.v[i].tid;
		if (t->apis.v[i].end <= t->apis.v[i].start) {
			slot[i] = UINT32_MAX;
			continue;
		}
		int32_t k = gp_u64map_add(&d->api_first, key, (int32_t)count.n);
		if ((size_t)k == count.n)
			*gp_vec_push(count) = 0;
		slot[i] = (uint32_t)k;
		count.v[k]++;
	}
	d->api_count = gp_xmalloc((count.n + 1) * sizeof(*d->api_count));
	for (size_t k = 0; k < count.n; k++) {
		uint32_t c = count.v[k];
		d->api_count[k] = c;
		count.v[k] = (uint32_t)at;
		at += c;
	}
	d->api_by_thread = gp_xmalloc((t->apis.n + 1) * sizeof(*d->api_by_thread));
	for (size_t i = 0; i < t->apis.n; i++)
		if (slot[i] != UINT32_MAX)
			d->api_by_thread[count.v[slot[i]]++] = (uint32_t)i;
	gp_vec_free(count);
	free(slot);
}

struct gp_thread_view *gp_deps_view(gp_deps *d, uint32_t pid, uint32_t tid)
{
	const gp_trace *t = d->t;
	uint64_t key = (uint64_t)pid << 32 | tid;
	int32_t i = gp_u64map_get(&d->view_of, key), g;
	struct gp_thread_view *v;
	size_t lo = 0, hi = t->ranges.n;

	if (i >= 0)
		return &d->views.v[i];
	if (!d->api_by_thread)
		index_api_threads(d);
	v = gp_vec_push(d->views);
	memset(v, 0, sizeof(*v));
	gp_u64map_put(&d->view_of, key, (int32_t)(d->views.n - 1));
	v->pid = pid;
	v->tid = tid;
	/* its ranges: one block of t->ranges (sorted by thread, then start) */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct gp_range *r = &t->ranges.v[mid];
		if (gp_thread_cmp(r->pid, r->tid, pid, tid) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	v->r_lo = v->r_hi = lo;
	while (v->r_hi < t->ranges.n && t->ranges.v[v->r_hi].pid == pid && t->ranges.v[v->r_hi].tid == tid)
		v->r_hi++;
	/* its API calls: the group api_first names; group starts are in
	** order, so the group's start is the sum of the counts before it */
	g = gp_u64map_get(&d->api_first, key);
	if (g >= 0) {
		size_t start = 0;
		for (int32_t k = 0; k < g; k++)
			start += d->api_count[k];
		v->a_lo = start;
		v->a_hi = start + d->api_count[g];
	}
	v->r_hint = v->r_hi;
	v->a_hint = v->a_hi;
	return v;
}

/* The last index in [lo, hi) whose start is before x (lo - 1 when none),
** searched from hint first: walks back in small steps ask near it. */
#define LAST_BEFORE(START, lo, hi, hint, x, out)                                  \
	do {                                                                      \
		size_t h_ = (hint) < (lo) ? (lo) : (hint) > (hi) ? (hi) : (hint); \
		size_t l_, r_;                                                    \
		if (h_ < (hi) && START(h_) < (x) && (h_ + 1 == (hi) || START(h_ + 1) >= (x))) { \
			(out) = h_;                                               \
			break;                                                    \
		}                                                                 \
		if (h_ > (lo) && START(h_ - 1) < (x) && (h_ == (hi) || START(h_) >= (x))) { \
			(out) = h_ - 1;                                           \
			break;                                                    \
		}                                                                 \
		l_ = (lo), r_ = (hi);                                             \
		while (l_ < r_) {                                                 \
			size_t m_ = l_ + (r_ - l_) / 2;                           \
			if (START(m_) < (x))                                      \
				l_ = m_ + 1;                                      \
			else                                                      \
				r_ = m_;                                          \
		}                                                                 \
		(out) = l_ - 1;                                                   \
	} while (0)

/* Over one thread's API calls, nested ones included, how many to look at
** before the last one started before x for one that encloses x: an API
** call holds at most its driver call. */
#define API_LOOKBACK 3

bool gp_cpu_before(gp_deps *d, struct gp_thread_view *v, gp_ns x, struct gp_cpu_mark *m)
{
	const gp_trace *t = d->t;
	const struct gp_range *rv = t->ranges.v;
	const uint32_t *ab = d->api_by_thread;
	size_t ri, ai;
	gp_ns since = INT64_MIN;
	int32_t inner = -1;
	bool any = false;

#define R_START(i) (rv[i].start)
#define A_START(i) (t->apis.v[ab[i]].start)
	m->who = GP_CPU_NONE;
	m->range = -1;
	/* the ranges: the last one started before x, then up its parents to
	** the first that is still open at x; the boundary before x is that
	** one's start or the end of the highest one below it that closed */
	LAST_BEFORE(R_START, v->r_lo, v->r_hi, v->r_hint, x, ri);
	if (ri + 1 > v->r_lo && ri < v->r_hi) {
		v->r_hint = ri;
		for (size_t j = ri + 1; j-- > v->r_lo;) {   /* skip marks and the like */
			if (!cpu_range(&rv[j]))
				continue;
			int32_t r = (int32_t)j;
			any = true;
			since = rv[r].start;
			while (r >= 0 && rv[r].end < x) {
				since = rv[r].end > since ? rv[r].end : since;
				do
					r = rv[r].parent;
				while (r >= 0 && !cpu_range(&rv[r]));
			}
			if (r >= 0) {
				inner = r;
				if (rv[r].start > since)
					since = rv[r].start;
			}
			break;
		}
	}
	m->range = inner;
	m->who = inner >= 0 ? (uint32_t)inner : GP_CPU_NONE;
	/* the API calls: the outermost one open at x (a driver call inside a
	** runtime call is the runtime call's) is the innermost activity */
	LAST_BEFORE(A_START, v->a_lo, v->a_hi, v->a_hint, x, ai);
	if (ai + 1 > v->a_lo && ai < v->a_hi) {
		gp_ns floor = inner >= 0 ? rv[inner].start : INT64_MIN, ended = INT64_MIN;
		ptrdiff_t outer = -1;
		v->a_hint = ai;
		for (size_t k = 0, j = ai + 1; k < API_LOOKBACK && j-- > v->a_lo; k++) {
			const struct gp_api *c = &t->apis.v[ab[j]];
			any = true;
			if (c->end >= x && c->start >= floor)
				outer = (ptrdiff_t)j;
			else if (c->end < x && c->end > ended)
				ended = c->end;
		}
		if (outer >= 0) {
			m->who = GP_CPU_API | ab[outer];
			if (t->apis.v[ab[outer]].start > since)
				since = t->apis.v[ab[outer]].start;
		} else if (ended > since) {
			since = ended;
		}
	}
#undef R_START
#undef A_START
	m->at = since;
	return any && since != INT64_MIN;
}

gp_ns gp_cpu_next_start(gp_deps *d, const struct gp_thread_view *v, gp_ns x)
{
	const gp_trace *t = d->t;
	gp_ns best = INT64_MAX;
	size_t lo = v->r_lo, hi = v->r_hi;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->ranges.v[mid].start < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < v->r_hi; lo++)
		if (cpu_range(&t->ranges.v[lo])) {
			best = t->ranges.v[lo].start;
			break;
		}
	lo = v->a_lo, hi = v->a_hi;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->apis.v[d->api_by_thread[mid]].start < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < v->a_hi && t->apis.v[d->api_by_thread[lo]].start < best)
		best = t->apis.v[d->api_by_thread[lo]].start;
	return best;
}

/* ---- the forward sweep ---- */

struct open_iv {
	gp_ns end;
	uint32_t who;
	int32_t range;
};

typedef GP_VEC(struct open_iv) open_stack;

struct sweep {
	bool (*fn)(void *ctx, const struct gp_cpu_mark *m);
	void *ctx;
	struct gp_cpu_mark last;  /* pending: emitted when the next differs in time */
	bool have, stopped;
};

/* The state (who, range) from time at: merged with a change at the same
** time, dropped when it changes nothing. */
static void mark(struct sweep *sw, gp_ns at, uint32_t who, int32_t range)
{
	if (sw->stopped)
		return;
	if (sw->have && sw->last.at == at) {
		sw->last.who = who;
		sw->last.range = range;
		return;
	}
	if (sw->have && sw->last.who == who && sw->last.range == range)
		return;
	if (sw->have && !sw->fn(sw->ctx, &sw->last))
		sw->stopped = true;
	sw->last = (struct gp_cpu_mark){at, who, range};
	sw->have = true;
}

static void pop_until(struct sweep *sw, open_stack *st, gp_ns x)
{
	while (st->n && st->v[st->n - 1].end <= x) {
		gp_ns at = st->v[st->n - 1].end;
		st->n--;
		if (st->n)
			mark(sw, at, st->v[st->n - 1].who, st->v[st->n - 1].range);
		else
			mark(sw, at, GP_CPU_NONE, -1);
	}
}

/* Opens interval [s, e) of activity who on the stack; an API call inside an
** API call adds nothing, an interval that outlives its parent (bad nesting,
** rounding) is cut at the parent's end. */
static void open_at(struct sweep *sw, open_stack *st, gp_ns s, gp_ns e, uint32_t who, bool is_api)
{
	int32_t range = is_api ? -1 : (int32_t)who;

	pop_until(sw, st, s);
	if (st->n) {
		const struct open_iv *top = &st->v[st->n - 1];
		if (is_api && top->who != GP_CPU_NONE && (top->who & GP_CPU_API))
			return;
		if (e > top->end)
			e = top->end;
		if (is_api)
			range = top->range;
	}
	if (e <= s)
		return;
	*gp_vec_push(*st) = (struct open_iv){e, who, range};
	mark(sw, s, who, range);
}

void gp_cpu_sweep(gp_deps *d, const struct gp_thread_view *v, bool (*fn)(void *ctx, const struct gp_cpu_mark *m),
		  void *ctx)
{
	const gp_trace *t = d->t;
	struct sweep sw = {.fn = fn, .ctx = ctx};
	open_stack st = {0};
	/* fn may ask for other threads' views, which moves v: its bounds first */
	size_t ir = v->r_lo, ia = v->a_lo, r_hi = v->r_hi, a_hi = v->a_hi;

	for (;;) {
		const struct gp_range *r = NULL;
		const struct gp_api *a = NULL;
		while (ir < r_hi && !cpu_range(&t->ranges.v[ir]))
			ir++;
		if (ir < r_hi)
			r = &t->ranges.v[ir];
		if (ia < a_hi)
			a = &t->apis.v[d->api_by_thread[ia]];
		if ((!r && !a) || sw.stopped)
			break;
		/* ranges first on equal starts: an op encloses the calls it makes */
		if (r && (!a || r->start <= a->start)) {
			open_at(&sw, &st, r->start, r->end, (uint32_t)ir, false);
			ir++;
		} else {
			open_at(&sw, &st, a->start, a->end, GP_CPU_API | d->api_by_thread[ia], true);
			ia++;
		}
	}
	pop_until(&sw, &st, INT64_MAX);
	if (sw.have && !sw.stopped)
		fn(ctx, &sw.last);
	gp_vec_free(st);
}

/* Innermost-range texts of calls that block their thread until other
** threads' work is done: PyTorch's autograd engine entry (the main thread
** waits while the engine's threads run backward). */
static const char *const blocking_texts[] = {
	"run_backward", "_engine_run_backward", NULL
};

bool gp_deps_blocking_range(const gp_deps *d, int32_t r)
{
	const char *s = gp_s(d->t, d->t->ranges.v[r].text);

	for (int i = 0; blocking_texts[i]; i++)
		if (strstr(s, blocking_texts[i]))
			return true;
	return false;
}

/* The block of t->threads of process pid (sorted by pid, tid). */
static size_t first_thread(const gp_trace *t, uint32_t pid)
{
	size_t lo = 0, hi = t->threads.n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->threads.v[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

bool gp_deps_busy_other(gp_deps *d, uint32_t pid, uint32_t tid, gp_ns x, uint32_t *wtid, gp_ns *at)
{
	const gp_trace *t = d->t;
	struct gp_cpu_mark m;

	for (size_t i = first_thread(t, pid); i < t->threads.n && t->threads.v[i].pid == pid; i++) {
		if (t->threads.v[i].tid == tid)
			continue;
		struct gp_thread_view *v = gp_deps_view(d, pid, t->threads.v[i].tid);
		if (gp_cpu_before(d, v, x, &m) && !gp_cpu_idle(&m)) {
			*wtid = t->threads.v[i].tid;
			*at = x;
			return true;
		}
	}
	return false;
}

bool gp_deps_op_other(gp_deps *d, uint32_t pid, uint32_t tid, gp_ns lo, gp_ns x, uint32_t *wtid, gp_ns *at)
{
	const gp_trace *t = d->t;
	struct gp_cpu_mark m;
	gp_ns best = INT64_MIN;

	for (size_t i = first_thread(t, pid); i < t->threads.n && t->threads.v[i].pid == pid; i++) {
		if (t->threads.v[i].tid == tid)
			continue;
		struct gp_thread_view *v = gp_deps_view(d, pid, t->threads.v[i].tid);
		/* back from x through the thread's states to the first inside
		** an op: the thread's last op time in (lo, x] */
		for (gp_ns y = x; y > lo && y > best && gp_cpu_before(d, v, y, &m); y = m.at) {
			if (!gp_cpu_idle(&m) && m.range >= 0 && t->ranges.v[m.range].kind == GP_RANGE_CPU_OP) {
				best = y;
				*wtid = t->threads.v[i].tid;
				break;
			}
			if (m.at >= y)
				break;   /* no earlier state */
		}
	}
	*at = best;
	return best != INT64_MIN;
}

bool gp_deps_waker(gp_deps *d, uint32_t pid, uint32_t tid, gp_ns a, gp_ns b, uint32_t *wtid, gp_ns *at)
{
	const gp_trace *t = d->t;
	gp_ns best = INT64_MIN;
	struct gp_cpu_mark m;

	for (size_t i = first_thread(t, pid); i < t->threads.n && t->threads.v[i].pid == pid; i++) {
		if (t->threads.v[i].tid == tid)
			continue;
		struct gp_thread_view *v = gp_deps_view(d, pid, t->threads.v[i].tid);
		/* a thread that went idle in (a, b] and still was at b */
		if (gp_cpu_before(d, v, b + 1, &m) && gp_cpu_idle(&m) && m.at > a && m.at > best &&
		    b - m.at <= GP_HANDOFF_MAX_NS) {
			best = m.at;
			*wtid = t->threads.v[i].tid;
		}
	}
	if (best == INT64_MIN)
		return false;
	*at = best;
	return true;
}
