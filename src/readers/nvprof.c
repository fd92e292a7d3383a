/*
** Reader: nvprof SQLite database (`nvprof -o x.nvvp` / `.sql`).
**
** One streaming SELECT per table, no per-row queries.  StringTable is read
** first into an id-sorted array (names are ids into it); kernel names are
** mangled and are demangled once per distinct string.  RUNTIME/DRIVER rows
** carry only a CUPTI callback id, named through cupti_cbid.h.  MARKER rows
** are start (flags 2), end (4) and mark (1) records; starts and ends are
** paired by `id` after reading with one sort (formats.md section 2).
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/demangle.h"
#include "readers/cupti_cbid.h"
#include "model/window.h"
#include "readers/reader.h"
#include "readers/sqlutil.h"

#define T_KERNEL   "CUPTI_ACTIVITY_KIND_KERNEL"
#define T_CKERNEL  "CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL"
#define T_RUNTIME  "CUPTI_ACTIVITY_KIND_RUNTIME"
#define T_DRIVER   "CUPTI_ACTIVITY_KIND_DRIVER"
#define T_MARKER   "CUPTI_ACTIVITY_KIND_MARKER"
#define T_DEVICE   "CUPTI_ACTIVITY_KIND_DEVICE"
#define T_CONTEXT  "CUPTI_ACTIVITY_KIND_CONTEXT"
#define T_NAME     "CUPTI_ACTIVITY_KIND_NAME"
#define T_MEMCPY   "CUPTI_ACTIVITY_KIND_MEMCPY"
#define T_MEMCPY2  "CUPTI_ACTIVITY_KIND_MEMCPY2"
#define T_MEMSET   "CUPTI_ACTIVITY_KIND_MEMSET"
#define T_SYNC     "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"
#define T_EVENT    "CUPTI_ACTIVITY_KIND_CUDA_EVENT"

/* CUPTI marker flags and object kinds (cupti_activity.h). */
#define MARKER_INSTANT 1
#define MARKER_START   2
#define MARKER_END     4
#define OBJECT_PROCESS 1
#define OBJECT_THREAD  2
#define MEMCPY_ASYNC   1

/* One StringTable row; kernel-name forms are filled on first use. */
struct nvstr {
	int64_t id;
	gp_str s;            /* raw value; 0 for '-- null --' */
	gp_str kshort, kdem; /* kernel short / demangled name, 0 = not computed */
};

/* A marker start or end row, before pairing. */
struct nvmark {
	int64_t id;
	gp_ns ts;
	uint32_t pid, tid;
	gp_str name, domain;
	size_t row;          /* row order, so equal ids pair first-with-first */
};

struct ctx {
	const char *path;
	sqlite3 *db;
	gp_trace *t;
	const struct gp_load_opts *o;
	uint64_t rows;
	GP_VEC(struct nvstr) strs;
	GP_VEC(struct nvmark) starts, ends;
	GP_VEC(int32_t) ctx_dev;          /* contextId -> deviceId, -1 unknown */
	gp_str rt_names[1024], drv_names[1024];
	size_t kernel_tables;             /* kernel tables with rows */
	size_t bad_times;                 /* records with end < start */
	size_t odd_markers;               /* unknown flags */
	size_t lone_starts, lone_ends;    /* marker rows left unpaired */
	/* the read window (docs/window.md): rows wholly outside [win_lo,
	** win_hi] are skipped, GPU work ending before win_gpu_lo too */
	bool win_on;
	gp_ns win_lo, win_hi, win_gpu_lo;
};

typedef int (*row_fn)(struct ctx *c, sqlite3_stmt *st);

/* Selects cols from table (the first nreq required, gp_sql_select()) and
** calls fn for each row.  A missing table is not an error (nvprof writes
** ~50 tables but other tools may drop empty ones). */
static int each_row(struct ctx *c, const char *table, const char *purpose, const char *const *cols,
		    int ncols, int nreq, row_fn fn, gp_error *err)
{
	sqlite3_stmt *st;
	int rc;

	if ((rc = gp_sql_select(c->db, c->path, table, purpose, cols, ncols, nreq, &st, err)) || !st)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int frc = fn(c, st);
		if (frc) {
			sqlite3_finalize(st);
			return frc;
		}
		if ((++c->rows & 0xffff) == 0 && c->o && c->o->progress)
			c->o->progress(c->o->progress_ctx, c->rows, 0);
	}
	return gp_sql_finish(c->db, st, rc, c->path, purpose, err);
}

/* each_row() with every column required. */
#define EACH_ROW(c, table, purpose, cols, fn, err) \
	each_row(c, table, purpose, cols, GP_SQL_NCOLS(cols), GP_SQL_NCOLS(cols), fn, err)

/* Clamps a reversed interval (end < start) to an instant and counts it. */
static void fix_times(struct ctx *c, gp_ns *start, gp_ns *end)
{
	if (*end < *start) {
		*end = *start;
		c->bad_times++;
	}
}

/* Clamps a row's [start, end] (fix_times) and says whether the read window
** drops it (gpu: a kernel, copy or memset). */
static bool outside(struct ctx *c, gp_ns *start, gp_ns *end, bool gpu)
{
	fix_times(c, start, end);
	return c->win_on && (*start > c->win_hi || *end < (gpu ? c->win_gpu_lo : c->win_lo));
}

/* ---- StringTable ---- */

static int str_row(struct ctx *c, sqlite3_stmt *st)
{
	struct nvstr *s = gp_vec_push(c->strs);
	const char *v = gp_sql_text(st, 1);

	s->id = gp_sql_i64(st, 0);
	s->s = strcmp(v, "-- null --") == 0 ? 0 : gp_intern(c->t, v);
	return GP_OK;
}

static int cmp_nvstr(const void *pa, const void *pb)
{
	const struct nvstr *a = pa, *b = pb;
	return a->id < b->id ? -1 : a->id > b->id;
}

/* The StringTable entry for id, or NULL. */
static struct nvstr *str_find(struct ctx *c, int64_t id)
{
	size_t lo = 0, hi = c->strs.n;

	/* nvprof ids are dense from 0: try the direct slot first. */
	if (id >= 0 && (uint64_t)id < c->strs.n && c->strs.v[id].id == id)
		return &c->strs.v[id];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->strs.v[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->strs.n && c->strs.v[lo].id == id ? &c->strs.v[lo] : NULL;
}

static gp_str str_get(struct ctx *c, int64_t id)
{
	struct nvstr *s = str_find(c, id);
	return s ? s->s : 0;
}

/* Fills d's name fields from StringTable id, demangling each distinct name
** once. */
static void kernel_names(struct ctx *c, struct gp_kernel_def *d, int64_t id)
{
	struct nvstr *s = str_find(c, id);
	char buf[1024];

	if (!s || !s->s) {
		d->name = d->demangled = gp_intern(c->t, "(unknown kernel)");
		return;
	}
	if (!s->kshort) {
		const char *raw = gp_s(c->t, s->s);
		char *dem = gp_demangle(raw);

		s->kdem = dem ? gp_intern(c->t, dem) : s->s;
		s->kshort = gp_intern(c->t, gp_kernel_short_name(dem ? dem : raw, buf, sizeof(buf)));
		if (!s->kshort)   /* a name that shortens to "": keep the raw one */
			s->kshort = s->s;
		free(dem);
	}
	d->name = s->kshort;
	d->demangled = s->kdem;
	d->mangled = s->kdem != s->s ? s->s : 0;
}

/* ---- DEVICE, CONTEXT, NAME ---- */

static int device_row(struct ctx *c, sqlite3_stmt *st)
{
	struct gp_device *d = gp_vec_push(c->t->devices);

	d->id = (int32_t)gp_sql_i64(st, 0);
	d->name = str_get(c, gp_sql_i64(st, 1));
	d->cc_major = (int16_t)gp_sql_i64(st, 2);
	d->cc_minor = (int16_t)gp_sql_i64(st, 3);
	d->sm_count = (int32_t)gp_sql_i64(st, 4);
	d->mem_bw = (double)gp_sql_i64(st, 5) * 1000.0;      /* KB/s */
	d->mem_bytes = (uint64_t)gp_sql_i64(st, 6);
	d->clock_hz = (double)gp_sql_i64(st, 7) * 1000.0;    /* kHz */
	d->l2_bytes = (uint64_t)gp_sql_i64(st, 8);
	return GP_OK;
}

static int context_row(struct ctx *c, sqlite3_stmt *st)
{
	int64_t ctx = gp_sql_i64(st, 0);

	if (ctx < 0 || ctx > 1 << 20)   /* absurd id: leave its device unknown */
		return GP_OK;
	while (c->ctx_dev.n <= (size_t)ctx)
		*gp_vec_push(c->ctx_dev) = -1;
	c->ctx_dev.v[ctx] = (int32_t)gp_sql_i64(st, 1);
	return GP_OK;
}

static int32_t ctx_device(struct ctx *c, int64_t ctx)
{
	return ctx >= 0 && (size_t)ctx < c->ctx_dev.n ? c->ctx_dev.v[ctx] : -1;
}

/* Reads a little-endian integer of n bytes from p. */
static uint64_t le(const unsigned char *p, int n)
{
	uint64_t v = 0;
	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* objectId blob: int32 pid, then int64 tid for threads (tid masked to 32
** bits like RUNTIME.threadId). */
static void object_id(sqlite3_stmt *st, int col, uint32_t *pid, uint32_t *tid)
{
	const unsigned char *b = sqlite3_column_blob(st, col);
	int n = sqlite3_column_bytes(st, col);

	*pid = b && n >= 4 ? (uint32_t)le(b, 4) : 0;
	*tid = b && n >= 12 ? (uint32_t)(le(b + 4, 8) & 0xffffffff) : 0;
}

static int name_row(struct ctx *c, sqlite3_stmt *st)
{
	uint32_t pid, tid;

	if (gp_sql_i64(st, 0) != OBJECT_PROCESS)
		return GP_OK;
	object_id(st, 1, &pid, &tid);
	struct gp_process *p = gp_vec_push(c->t->processes);
	p->pid = pid;
	p->name = str_get(c, gp_sql_i64(st, 2));
	return GP_OK;
}

/* ---- kernels ---- */

static int kernel_row(struct ctx *c, sqlite3_stmt *st)
{
	gp_ns start = gp_sql_i64(st, 0), end = gp_sql_i64(st, 1);

	if (outside(c, &start, &end, true))
		return GP_OK;
	struct gp_kernel *k = gp_vec_push(c->t->kernels);
	struct gp_kernel_def d = {
		.regs = gp_sql_u32(st, 11),
		.static_smem = gp_sql_u32(st, 12),
		.dynamic_smem = gp_sql_u32(st, 13),
	};
	k->start = start;
	k->end = end;
	d.device = (int32_t)gp_sql_i64(st, 2);
	d.context = gp_sql_u32(st, 3);
	k->stream = gp_sql_u32(st, 4);
	for (int i = 0; i < 3; i++) {
		d.grid[i] = gp_sql_u32(st, 5 + i);
		d.block[i] = gp_sql_u32(st, 8 + i);
	}
	k->corr = (uint64_t)gp_sql_i64(st, 14);
	kernel_names(c, &d, gp_sql_i64(st, 15));
	k->def = gp_kernel_def_add(c->t, &d);
	return GP_OK;
}

static int read_kernels(struct ctx *c, const char *table, gp_error *err)
{
	static const char *const cols[] = {
		"start", "end", "deviceId", "contextId", "streamId", "gridX", "gridY", "gridZ",
		"blockX", "blockY", "blockZ", "registersPerThread", "staticSharedMemory",
		"dynamicSharedMemory", "correlationId", "name",
	};
	char purpose[128];
	size_t before = c->t->kernels.n;
	int rc;

	snprintf(purpose, sizeof(purpose), "kernels (%s)", table);
	rc = EACH_ROW(c, table, purpose, cols, kernel_row, err);
	if (rc == GP_OK && c->t->kernels.n > before)
		c->kernel_tables++;
	return rc;
}

static int cmp_kernel_dup(const void *pa, const void *pb, void *trace)
{
	const struct gp_kernel *a = pa, *b = pb;
	int32_t da = gp_kernel_def(trace, a)->device, db = gp_kernel_def(trace, b)->device;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (a->corr != b->corr)
		return a->corr < b->corr ? -1 : 1;
	if (da != db)
		return da < db ? -1 : 1;
	return a->end < b->end ? -1 : a->end > b->end;
}

/* When both kernel tables had rows, the same launch may be in both: keep
** one record per (start, end, correlation id, device). */
static void dedup_kernels(struct ctx *c)
{
	struct gp_kernel *v = c->t->kernels.v;
	size_t n = c->t->kernels.n, w = 0;

	if (c->kernel_tables < 2 || n == 0)
		return;
	qsort_r(v, n, sizeof(*v), cmp_kernel_dup, c->t);
	for (size_t i = 0; i < n; i++)
		if (w == 0 || cmp_kernel_dup(&v[w - 1], &v[i], c->t) != 0)
			v[w++] = v[i];
	if (w < n)
		gp_trace_warn(c->t, "%zu kernels were in both kernel tables (counted once)", n - w);
	c->t->kernels.n = w;
}

/* ---- RUNTIME / DRIVER ---- */

/* The interned API name for cbid (cached per id). */
static gp_str api_name(struct ctx *c, int kind, int64_t cbid)
{
	gp_str *cache = kind == GP_API_RUNTIME ? c->rt_names : c->drv_names;
	const size_t ncache = sizeof(c->rt_names) / sizeof(c->rt_names[0]);
	const char *name = NULL;
	char buf[64];

	if (cbid >= 0 && (uint64_t)cbid < ncache && cache[cbid])
		return cache[cbid];
	if (cbid > 0 && cbid < INT32_MAX)
		name = kind == GP_API_RUNTIME ? gp_cupti_runtime_name((int)cbid)
					      : gp_cupti_driver_name((int)cbid);
	if (!name) {
		snprintf(buf, sizeof(buf), "%s cbid %" PRId64, kind == GP_API_RUNTIME ? "runtime" : "driver",
			 cbid);
		name = buf;
	}
	gp_str id = gp_intern(c->t, name);
	if (cbid >= 0 && (uint64_t)cbid < ncache)
		cache[cbid] = id;
	return id;
}

static int api_row(struct ctx *c, sqlite3_stmt *st, int kind)
{
	gp_ns start = gp_sql_i64(st, 1), end = gp_sql_i64(st, 2);

	if (outside(c, &start, &end, false))
		return GP_OK;
	struct gp_api *a = gp_vec_push(c->t->apis);
	int64_t cbid = gp_sql_i64(st, 0);

	a->def = gp_api_def_add(c->t, &(struct gp_api_def){
		.kind = (uint32_t)kind,
		.cbid = cbid >= INT32_MIN && cbid <= INT32_MAX ? (int32_t)cbid : -1,
		.name = api_name(c, kind, cbid),
		.ret = (int32_t)gp_sql_i64(st, 6),
	});
	a->start = start;
	a->end = end;
	a->pid = gp_sql_u32(st, 3);
	a->tid = gp_sql_u32(st, 4);   /* stored as signed 32-bit */
	a->corr = (uint64_t)gp_sql_i64(st, 5);
	return GP_OK;
}

static int runtime_row(struct ctx *c, sqlite3_stmt *st)
{
	return api_row(c, st, GP_API_RUNTIME);
}

static int driver_row(struct ctx *c, sqlite3_stmt *st)
{
	return api_row(c, st, GP_API_DRIVER);
}

/* ---- MARKER ---- */

static int marker_row(struct ctx *c, sqlite3_stmt *st)
{
	int64_t flags = gp_sql_i64(st, 0);
	uint32_t pid, tid;

	object_id(st, 4, &pid, &tid);
	if (gp_sql_i64(st, 3) != OBJECT_THREAD)
		tid = 0;
	if (flags == MARKER_INSTANT) {
		struct gp_range *r = gp_vec_push(c->t->ranges);
		r->start = r->end = gp_sql_i64(st, 1);
		r->pid = pid;
		r->tid = tid;
		r->text = str_get(c, gp_sql_i64(st, 5));
		gp_str domain = str_get(c, gp_sql_i64(st, 6));
		if (domain)
			gp_range_nvtx_add(c->t, r)->domain = domain;
		r->kind = GP_RANGE_MARK;
		r->parent = -1;
		return GP_OK;
	}
	if (flags != MARKER_START && flags != MARKER_END) {
		c->odd_markers++;
		return GP_OK;
	}
	struct nvmark *m = flags == MARKER_START ? gp_vec_push(c->starts) : gp_vec_push(c->ends);
	m->ts = gp_sql_i64(st, 1);
	m->id = gp_sql_i64(st, 2);
	m->pid = pid;
	m->tid = tid;
	m->row = c->starts.n + c->ends.n;
	if (flags == MARKER_START) {
		m->name = str_get(c, gp_sql_i64(st, 5));
		m->domain = str_get(c, gp_sql_i64(st, 6));
	}
	return GP_OK;
}

static int cmp_nvmark(const void *pa, const void *pb)
{
	const struct nvmark *a = pa, *b = pb;

	if (a->id != b->id)
		return a->id < b->id ? -1 : 1;
	return a->row < b->row ? -1 : a->row > b->row;
}

/* Pairs start and end rows with equal id (first start with first end) into
** ranges, then frees the rows.  Unpaired rows are dropped (counted for a
** warning), as PyProf's inner self-join drops them. */
static void pair_markers(struct ctx *c)
{
	size_t i = 0, j = 0, lone_start = 0, lone_end = 0;

	gp_vec_sort(c->starts, cmp_nvmark);
	gp_vec_sort(c->ends, cmp_nvmark);
	gp_vec_reserve(c->t->ranges, c->t->ranges.n + c->starts.n);
	while (i < c->starts.n || j < c->ends.n) {
		if (j == c->ends.n || (i < c->starts.n && c->starts.v[i].id < c->ends.v[j].id)) {
			lone_start++, i++;
			continue;
		}
		if (i == c->starts.n || c->ends.v[j].id < c->starts.v[i].id) {
			lone_end++, j++;
			continue;
		}
		const struct nvmark *s = &c->starts.v[i++], *e = &c->ends.v[j++];
		struct gp_range *r = gp_vec_push(c->t->ranges);
		r->start = s->ts;
		r->end = e->ts;
		fix_times(c, &r->start, &r->end);
		r->pid = s->pid;
		r->tid = s->tid;
		r->text = s->name;
		if (s->domain)
			gp_range_nvtx_add(c->t, r)->domain = s->domain;
		r->parent = -1;
		/* nvprof does not tell push/pop from start/end; a range that ends
		** on another thread can only be a start/end one. */
		if (e->tid != s->tid || e->pid != s->pid) {
			r->kind = GP_RANGE_STARTEND;
			gp_range_nvtx_add(c->t, r)->end_tid = e->tid;
		} else {
			r->kind = GP_RANGE_PUSHPOP;
		}
	}
	c->lone_starts = lone_start;
	c->lone_ends = lone_end;
	gp_vec_free(c->starts);
	gp_vec_free(c->ends);
}

/* Sets the read window for o->window from the ranges paired so far (for
** iterations, the span of their NVTX iteration ranges), then drops the
** ranges outside it but the iteration ranges, which the correlation
** numbers by their order.  Leaves it off for no window, an open time span
** or iterations it cannot place. */
static void set_window(struct ctx *c)
{
	const struct gp_window *w = c->o ? &c->o->window : NULL;
	gp_trace *t = c->t;
	gp_ns lo, hi;
	int64_t num;
	size_t n = 0;

	if (!w || w->mode == GP_WINDOW_NONE)
		return;
	lo = w->start;
	hi = w->end;
	if (w->mode == GP_WINDOW_ITERS &&
	    !gp_iteration_ranges_span(t, t->ranges.v, t->ranges.n, w->iter_a, w->iter_b, &lo, &hi))
		return;
	c->win_on = gp_window_read_span(lo, hi, &c->win_lo, &c->win_hi, &c->win_gpu_lo);
	if (!c->win_on)
		return;
	for (size_t i = 0; i < t->ranges.n; i++) {
		const struct gp_range *r = &t->ranges.v[i];
		if (gp_span_overlaps(r->start, r->end, c->win_lo, c->win_hi) ||
		    ((r->kind == GP_RANGE_PUSHPOP || r->kind == GP_RANGE_STARTEND) &&
		     gp_iteration_text(gp_s(t, r->text), &num)))
			t->ranges.v[n++] = *r;
	}
	t->ranges.n = n;
}

/* ---- MEMCPY, MEMSET, SYNCHRONIZATION ---- */

static uint8_t copy_kind(int64_t v)
{
	return v >= 0 && v < GP_COPY__COUNT ? (uint8_t)v : GP_COPY_UNKNOWN;
}

/* CUPTI numbers memory kinds 0 unknown, 1 pageable, 2 pinned, 3 device,
** 4 array, 5 managed, 6 device static, 7 managed static: the same order as
** enum gp_mem_kind, which this checks at compile time. */
_Static_assert(GP_MEM_PAGEABLE == 1 && GP_MEM_PINNED == 2 && GP_MEM_DEVICE == 3 &&
		       GP_MEM_ARRAY == 4 && GP_MEM_MANAGED == 5 && GP_MEM_DEVICE_STATIC == 6 &&
		       GP_MEM_MANAGED_STATIC == 7,
	       "gp_mem_kind must follow CUPTI's numbering");

static uint8_t mem_kind(int64_t v)
{
	return v >= 0 && v < GP_MEM__COUNT ? (uint8_t)v : GP_MEM_UNKNOWN;
}

static int memcpy_row(struct ctx *c, sqlite3_stmt *st)
{
	gp_ns start = gp_sql_i64(st, 5), end = gp_sql_i64(st, 6);

	if (outside(c, &start, &end, true))
		return GP_OK;
	struct gp_memcpy *m = gp_vec_push(c->t->memcpys);
	m->copy_kind = copy_kind(gp_sql_i64(st, 0));
	m->src_kind = mem_kind(gp_sql_i64(st, 1));
	m->dst_kind = mem_kind(gp_sql_i64(st, 2));
	m->async = (gp_sql_i64(st, 3) & MEMCPY_ASYNC) != 0;
	m->bytes = (uint64_t)gp_sql_i64(st, 4);
	m->start = start;
	m->end = end;
	m->device = (int32_t)gp_sql_i64(st, 7);
	m->context = gp_sql_u32(st, 8);
	m->stream = gp_sql_u32(st, 9);
	m->corr = (uint64_t)gp_sql_i64(st, 10);
	/* MEMCPY2 (peer copies) adds the two devices. */
	if (sqlite3_column_count(st) > 12) {
		m->src_device = (int32_t)gp_sql_i64(st, 11);
		m->dst_device = (int32_t)gp_sql_i64(st, 12);
	} else {
		m->src_device = m->dst_device = m->device;
	}
	return GP_OK;
}

static int memset_row(struct ctx *c, sqlite3_stmt *st)
{
	gp_ns start = gp_sql_i64(st, 2), end = gp_sql_i64(st, 3);

	if (outside(c, &start, &end, true))
		return GP_OK;
	struct gp_memset *m = gp_vec_push(c->t->memsets);
	m->value = gp_sql_u32(st, 0);
	m->bytes = (uint64_t)gp_sql_i64(st, 1);
	m->start = start;
	m->end = end;
	m->device = (int32_t)gp_sql_i64(st, 4);
	m->context = gp_sql_u32(st, 5);
	m->stream = gp_sql_u32(st, 6);
	m->corr = (uint64_t)gp_sql_i64(st, 7);
	m->mem_kind = mem_kind(gp_sql_i64(st, 8));
	return GP_OK;
}

static int sync_row(struct ctx *c, sqlite3_stmt *st)
{
	gp_ns start = gp_sql_i64(st, 1), end = gp_sql_i64(st, 2);

	if (outside(c, &start, &end, false))
		return GP_OK;
	struct gp_sync *s = gp_vec_push(c->t->syncs);
	int64_t type = gp_sql_i64(st, 0);

	s->kind = type >= 0 && type < GP_SYNC__COUNT ? (uint8_t)type : GP_SYNC_UNKNOWN;
	s->start = start;
	s->end = end;
	s->corr = (uint64_t)gp_sql_i64(st, 3);
	s->context = gp_sql_u32(st, 4);
	s->device = ctx_device(c, gp_sql_i64(st, 4));
	s->stream = gp_sql_u32(st, 5);
	s->event_id = (uint64_t)gp_sql_i64(st, 6);
	return GP_OK;
}

/* cudaEventRecord calls: the stream each event was recorded on (no time:
** the call has it).  nvprof names the context, not the device. */
static int event_record_row(struct ctx *c, sqlite3_stmt *st)
{
	struct gp_event_record *e = gp_vec_push(c->t->event_records);

	e->corr = (uint64_t)gp_sql_i64(st, 0);
	e->device = ctx_device(c, gp_sql_i64(st, 1));
	e->stream = gp_sql_u32(st, 2);
	e->event_id = (uint64_t)gp_sql_i64(st, 3);
	return GP_OK;
}

/* ---- threads ---- */

static int cmp_thread(const void *pa, const void *pb)
{
	const struct gp_thread *a = pa, *b = pb;

	return gp_thread_cmp(a->pid, a->tid, b->pid, b->tid);
}

/* Adds (pid, tid) to t->threads unless seen has it. */
static void add_thread(gp_trace *t, gp_u64map *seen, uint32_t pid, uint32_t tid)
{
	if (gp_u64map_add(seen, (uint64_t)pid << 32 | tid, (int32_t)t->threads.n) == (int32_t)t->threads.n)
		*gp_vec_push(t->threads) = (struct gp_thread){.pid = pid, .tid = tid};
}

/* Lists every (pid, tid) seen in API calls and ranges once, and every pid
** that NAME did not list as a process.  Deduplicated while collected: a
** record per call and range, sorted and then cut, cost 16 bytes a call and
** range at the peak (48 MB at a million kernels). */
static void collect_threads(struct ctx *c)
{
	gp_trace *t = c->t;
	gp_u64map seen = {0};

	for (size_t i = 0; i < t->apis.n; i++)
		add_thread(t, &seen, t->apis.v[i].pid, t->apis.v[i].tid);
	for (size_t i = 0; i < t->ranges.n; i++)
		if (t->ranges.v[i].tid)
			add_thread(t, &seen, t->ranges.v[i].pid, t->ranges.v[i].tid);
	gp_u64map_free(&seen);
	gp_vec_sort(t->threads, cmp_thread);

	size_t nproc = t->processes.n;
	for (size_t i = 0; i < t->threads.n; i++) {
		uint32_t pid = t->threads.v[i].pid;
		bool known = false;
		if (i > 0 && t->threads.v[i - 1].pid == pid)
			continue;
		for (size_t p = 0; p < nproc && !known; p++)
			known = t->processes.v[p].pid == pid;
		if (!known)
			gp_vec_push(t->processes)->pid = pid;
	}
}

/* ---- probe / load ---- */

static double probe(const struct gp_probe_input *in)
{
	sqlite3 *db;
	double w = 0;

	switch (gp_sql_probe_open(in, &db)) {
	case GP_SQL_UNREADABLE: return 0;
	case GP_SQL_DAMAGED: return 0.05;
	case GP_SQL_WHOLE: break;
	}
	if (gp_sql_has_table(db, "StringTable")) {
		if (gp_sql_has_table(db, T_CKERNEL) || gp_sql_has_table(db, "Version"))
			w = 0.95;
		else
			w = 0.5;
	}
	sqlite3_close(db);
	return w;
}

static int load_tables(struct ctx *c, gp_error *err)
{
	static const char *const strings[] = {"_id_", "value"};
	static const char *const devices[] = {
		"id", "name", "computeCapabilityMajor", "computeCapabilityMinor", "numMultiprocessors",
		"globalMemoryBandwidth", "globalMemorySize", "coreClockRate", "l2CacheSize",
	};
	static const char *const contexts[] = {"contextId", "deviceId"};
	static const char *const names[] = {"objectKind", "objectId", "name"};
	static const char *const apis[] = {
		"cbid", "start", "end", "processId", "threadId", "correlationId", "returnValue",
	};
	static const char *const markers[] = {
		"flags", "timestamp", "id", "objectKind", "objectId", "name", "domain",
	};
	/* MEMCPY has the first 11, MEMCPY2 (peer copies) all 13 */
	static const char *const copies[] = {
		"copyKind", "srcKind", "dstKind", "flags", "bytes", "start", "end", "deviceId",
		"contextId", "streamId", "correlationId", "srcDeviceId", "dstDeviceId",
	};
	/* memoryKind is newer than the table: optional */
	static const char *const memsets[] = {
		"value", "bytes", "start", "end", "deviceId", "contextId", "streamId", "correlationId",
		"memoryKind",
	};
	static const char *const syncs[] = {
		"type", "start", "end", "correlationId", "contextId", "streamId", "cudaEventId",
	};
	static const char *const events[] = {"correlationId", "contextId", "streamId", "eventId"};
	gp_trace *t = c->t;
	int rc;

	if (!gp_sql_has_table(c->db, "StringTable"))
		return gp_err(err, GP_ERR_FORMAT, "%s: not an nvprof database: no StringTable", c->path);
	if (gp_sql_has_table(c->db, "Version")) {
		sqlite3_stmt *st;
		if (gp_sql_prepare(c->db, c->path, "Version", "SELECT version FROM Version", &st, err) == GP_OK) {
			if (sqlite3_step(st) == SQLITE_ROW) {
				char buf[64];
				snprintf(buf, sizeof(buf), "nvprof (Version %lld)",
					 (long long)sqlite3_column_int64(st, 0));
				t->tool_version = gp_intern(t, buf);
			}
			sqlite3_finalize(st);
		}
	}
	if (!t->tool_version)
		t->tool_version = gp_intern(t, "nvprof");

	rc = EACH_ROW(c, "StringTable", "StringTable", strings, str_row, err);
	if (rc)
		return rc;
	gp_vec_sort(c->strs, cmp_nvstr);

	if ((rc = EACH_ROW(c, T_DEVICE, "devices (" T_DEVICE ")", devices, device_row, err)) ||
	    (rc = EACH_ROW(c, T_CONTEXT, "contexts (" T_CONTEXT ")", contexts, context_row, err)) ||
	    (rc = EACH_ROW(c, T_NAME, "process names (" T_NAME ")", names, name_row, err)))
		return rc;
	/* markers first, paired and their rows freed before the big tables
	** are read: the start and end rows (80 bytes a range) and the ranges
	** are never resident beside the kernels and API calls; and a window's
	** span is that of its iteration ranges */
	if ((rc = EACH_ROW(c, T_MARKER, "NVTX markers (" T_MARKER ")", markers, marker_row, err)))
		return rc;
	pair_markers(c);
	set_window(c);
	if ((rc = read_kernels(c, T_CKERNEL, err)) ||
	    (rc = read_kernels(c, T_KERNEL, err)) ||
	    (rc = EACH_ROW(c, T_RUNTIME, "runtime API calls (" T_RUNTIME ")", apis, runtime_row, err)) ||
	    (rc = EACH_ROW(c, T_DRIVER, "driver API calls (" T_DRIVER ")", apis, driver_row, err)) ||
	    (rc = each_row(c, T_MEMCPY, "memcpy (" T_MEMCPY ")", copies, 11, 11, memcpy_row, err)))
		return rc;
	if (gp_sql_has_column(c->db, T_MEMCPY2, "srcDeviceId") &&
	    (rc = EACH_ROW(c, T_MEMCPY2, "peer memcpy (" T_MEMCPY2 ")", copies, memcpy_row, err)))
		return rc;
	if ((rc = each_row(c, T_MEMSET, "memset (" T_MEMSET ")", memsets, GP_SQL_NCOLS(memsets),
			   GP_SQL_NCOLS(memsets) - 1, memset_row, err)) ||
	    (rc = EACH_ROW(c, T_SYNC, "synchronizations (" T_SYNC ")", syncs, sync_row, err)) ||
	    (rc = EACH_ROW(c, T_EVENT, "CUDA event records (" T_EVENT ")", events, event_record_row, err)))
		return rc;

	dedup_kernels(c);
	if (c->lone_starts)
		gp_trace_warn(t, "%zu NVTX ranges have a start but no end (ignored)", c->lone_starts);
	if (c->lone_ends)
		gp_trace_warn(t, "%zu NVTX range ends have no start (ignored)", c->lone_ends);
	collect_threads(c);
	if (c->bad_times)
		gp_trace_warn(t, "%zu records end before they start (made instants)", c->bad_times);
	if (c->odd_markers)
		gp_trace_warn(t, "%zu NVTX marker records have unknown flags (ignored)", c->odd_markers);
	if (!t->kernels.n && !t->apis.n && !t->memcpys.n && !t->memsets.n && !t->ranges.n)
		gp_trace_warn(t, "no activity was recorded (profiling never started, e.g. "
				 "--profile-from-start off without cudaProfilerStart?)");
	return GP_OK;
}

static int load(const char *path, gp_trace *t, const struct gp_load_opts *o, gp_error *err)
{
	struct ctx *c = gp_xcalloc(1, sizeof(*c));
	int rc;

	c->path = path;
	c->t = t;
	c->o = o;
	rc = gp_sql_open_whole(path, &c->db, NULL, err);
	if (rc == GP_OK) {
		rc = load_tables(c, err);
		sqlite3_close(c->db);
	}
	gp_vec_free(c->strs);
	gp_vec_free(c->starts);
	gp_vec_free(c->ends);
	gp_vec_free(c->ctx_dev);
	free(c);
	return rc;
}

const struct gp_reader gp_reader_nvprof = {
	.name = "nvprof",
	.description = "nvprof SQLite database",
	.probe = probe,
	.load = load,
};
