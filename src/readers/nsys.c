/*
** Reader: Nsight Systems SQLite export (`nsys export --type sqlite`),
** schemas of nsys 2022.1 to 2025.5.  formats.md section 1 describes the
** tables, docs/trace-model.md the mapping into the trace model.
**
** The export is lazy (a table exists only when it has rows) and other tools
** add columns, so every table is looked up first and an optional column the
** table lacks is selected as NULL.  Each table is read with one SELECT,
** streamed row by row.  Names are integer keys into StringIds, which is
** loaded once into an id -> gp_str map; a key with no row there reads as ""
** and is counted in a warning rather than failing the load.
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/demangle.h"
#include "util/u64map.h"
#include "model/window.h"
#include "readers/reader.h"
#include "readers/sqlutil.h"

#define T_KERNEL "CUPTI_ACTIVITY_KIND_KERNEL"
#define T_RUNTIME "CUPTI_ACTIVITY_KIND_RUNTIME"
#define T_MEMCPY "CUPTI_ACTIVITY_KIND_MEMCPY"
#define T_MEMSET "CUPTI_ACTIVITY_KIND_MEMSET"
#define T_SYNC "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"
#define T_EVENT "CUPTI_ACTIVITY_KIND_CUDA_EVENT"
#define T_GRAPH "CUPTI_ACTIVITY_KIND_GRAPH_TRACE"
#define T_GRAPH_NODE "CUDA_GRAPH_NODE_EVENTS"
#define T_NVTX "NVTX_EVENTS"
#define T_MEMUSE "CUDA_GPU_MEMORY_USAGE_EVENTS"

#define PROGRESS_EVERY 0x10000   /* rows between progress callbacks */

/* An nsys enum (ENUM_* table: id, name) translated into one of ours.  The
** table, when the export has it, is authoritative for the ids it lists;
** the built-in numbering (formats.md 1.7) covers the rest and the 2022.1
** exports, which have no ENUM_* tables. */
#define ENUM_IDS 256
struct enum_map {
	int8_t v[ENUM_IDS];     /* nsys id -> our value */
	int8_t fallback;        /* for ids outside 0..ENUM_IDS-1 or unknown names */
};

struct enum_name {
	int id;                 /* nsys' id, used when the ENUM table is absent */
	const char *name;       /* its name in the ENUM table */
	int8_t value;           /* ours */
};

/* How NVTX_EVENTS.eventType values are handled. */
enum nvtx_class { NV_IGNORE, NV_PUSHPOP, NV_STARTEND, NV_MARK, NV_DOMAIN };

/* StringIds as (id, string) pairs sorted by id.  Real exports number them
** 0..n-1 (other writers from 1), so the index is the id less the first
** (dense); otherwise lookups binary-search. */
struct str_entry {
	int64_t id;
	gp_str s;
};

struct strmap {
	GP_VEC(struct str_entry) v;
	bool dense;
	int64_t base;            /* the first id, where dense */
};

/* A range whose NVTX domain is resolved after the whole table is read
** (a DomainCreate row may come after its first use). */
struct domain_ref {
	size_t range;
	uint32_t pid;
	int64_t domain;
};

struct domain_def {
	uint32_t pid;
	int64_t domain;
	gp_str name;
};

struct nsys {
	sqlite3 *db;
	const char *path;
	gp_trace *t;
	const struct gp_load_opts *o;
	gp_error *err;
	uint64_t file_size;
	struct strmap sm;
	gp_str *api_names;       /* [sm.v.n]: StringIds index -> stripped API name, 0 = not yet */
	uint64_t dangling;       /* keys into StringIds with no row */
	uint64_t backwards;      /* records whose end precedes their start */
	gp_ns last;              /* latest timestamp seen, ends unended ranges */
	bool any_time;
	uint64_t done, total;    /* rows read / expected, for progress */
	struct enum_map copy_kind, mem_kind, sync_kind, api_kind, nvtx;
	GP_VEC(struct domain_ref) domain_refs;
	GP_VEC(struct domain_def) domains;
	GP_VEC(size_t) unended;  /* indices of NVTX ranges with a NULL end */
	/* the read window (docs/window.md): rows wholly outside [win_lo,
	** win_hi] are skipped, GPU work ending before win_gpu_lo too */
	bool win_on;
	gp_ns win_lo, win_hi, win_gpu_lo;
};

/* ---- small helpers ---------------------------------------------------- */

/* PID and TID from a serialized globalTid/globalPid (formats.md 1.1). */
static uint32_t gid_pid(int64_t g)
{
	return (uint32_t)(((uint64_t)g >> 24) & 0xFFFFFF);
}

static uint32_t gid_tid(int64_t g)
{
	return (uint32_t)((uint64_t)g & 0xFFFFFF);
}

/* Reads start/end from columns col and col+1, repairs an end before the
** start (counted) and tracks the latest time seen. */
static void read_times(struct nsys *r, sqlite3_stmt *st, int col, gp_ns *start, gp_ns *end)
{
	*start = gp_sql_i64(st, col);
	*end = gp_sql_i64(st, col + 1);
	if (*end < *start) {
		r->backwards++;
		*end = *start;
	}
	if (!r->any_time || *end > r->last)
		r->last = *end;
	r->any_time = true;
}

static void tick(struct nsys *r)
{
	if ((++r->done % PROGRESS_EVERY) == 0 && r->o && r->o->progress)
		r->o->progress(r->o->progress_ctx, r->done, r->total > r->done ? r->total : r->done);
}

/* Whether a row of [start, end] lies outside the read window (gpu: a
** kernel, copy or memset). */
static bool outside(const struct nsys *r, gp_ns start, gp_ns end, bool gpu)
{
	return r->win_on && (start > r->win_hi || end < (gpu ? r->win_gpu_lo : r->win_lo));
}

/* Reserves room for a table's rows, unless a read window keeps few. */
#define RESERVE(r, vec, table) \
	do { if (!(r)->win_on) gp_vec_reserve(vec, (vec).n + estimate_rows(r, table)); } while (0)

/* The StringIds index of id, or -1 (counted as dangling) when absent. */
static int64_t str_index(struct nsys *r, int64_t id)
{
	const struct strmap *m = &r->sm;
	size_t lo = 0, hi = m->v.n;

	if (m->dense) {
		if (id >= m->base && (uint64_t)id - (uint64_t)m->base < m->v.n)
			return id - m->base;
	} else {
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (m->v.v[mid].id == id)
				return (int64_t)mid;
			if (m->v.v[mid].id < id)
				lo = mid + 1;
			else
				hi = mid;
		}
	}
	r->dangling++;
	return -1;
}

/* The string a StringIds key column names; 0 for NULL (no name) or a key
** with no row (counted). */
static gp_str str_col(struct nsys *r, sqlite3_stmt *st, int col)
{
	int64_t key = gp_sql_i64(st, col);

	if (gp_sql_null_at0(st, col, key))
		return 0;
	int64_t i = str_index(r, key);
	return i < 0 ? 0 : r->sm.v.v[i].s;
}

/* Interns a TEXT column (NULL -> 0). */
static gp_str text_col(struct nsys *r, sqlite3_stmt *st, int col)
{
	const char *s = (const char *)sqlite3_column_text(st, col);
	return s ? gp_strtab_intern_n(&r->t->strs, s, (size_t)sqlite3_column_bytes(st, col)) : 0;
}

/* Builds map from the ENUM table when present, else from the built-in ids. */
static void enum_load(struct nsys *r, struct enum_map *map, const char *table,
		      const struct enum_name *names, size_t n, int8_t fallback)
{
	sqlite3_stmt *st;
	char sql[160];

	map->fallback = fallback;
	memset(map->v, fallback, sizeof(map->v));
	for (size_t i = 0; i < n; i++)
		map->v[names[i].id] = names[i].value;
	if (!gp_sql_has_table(r->db, table))
		return;
	snprintf(sql, sizeof(sql), "SELECT id, name FROM \"%s\"", table);
	/* An unreadable ENUM table leaves the built-in numbering: the activity
	** tables will report the damage if there is any. */
	if (sqlite3_prepare_v2(r->db, sql, -1, &st, NULL) != SQLITE_OK)
		return;
	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t id = gp_sql_i64(st, 0);
		const char *name = gp_sql_text(st, 1);
		if (id < 0 || id >= ENUM_IDS)
			continue;
		map->v[id] = fallback;
		for (size_t i = 0; i < n; i++)
			if (strcmp(names[i].name, name) == 0)
				map->v[id] = names[i].value;
	}
	sqlite3_finalize(st);
}

static int enum_get(const struct enum_map *map, int64_t id)
{
	return id >= 0 && id < ENUM_IDS ? map->v[id] : map->fallback;
}

static void load_enums(struct nsys *r)
{
	static const struct enum_name copy[] = {
		{0, "CUDA_MEMCPY_KIND_UNKNOWN", GP_COPY_UNKNOWN},
		{1, "CUDA_MEMCPY_KIND_HTOD", GP_COPY_HTOD},
		{2, "CUDA_MEMCPY_KIND_DTOH", GP_COPY_DTOH},
		{3, "CUDA_MEMCPY_KIND_HTOA", GP_COPY_HTOA},
		{4, "CUDA_MEMCPY_KIND_ATOH", GP_COPY_ATOH},
		{5, "CUDA_MEMCPY_KIND_ATOA", GP_COPY_ATOA},
		{6, "CUDA_MEMCPY_KIND_ATOD", GP_COPY_ATOD},
		{7, "CUDA_MEMCPY_KIND_DTOA", GP_COPY_DTOA},
		{8, "CUDA_MEMCPY_KIND_DTOD", GP_COPY_DTOD},
		{9, "CUDA_MEMCPY_KIND_HTOH", GP_COPY_HTOH},
		{10, "CUDA_MEMCPY_KIND_PTOP", GP_COPY_PTOP},
		{11, "CUDA_MEMCPY_KIND_UVM_HTOD", GP_COPY_UVM_HTOD},
		{12, "CUDA_MEMCPY_KIND_UVM_DTOH", GP_COPY_UVM_DTOH},
		{13, "CUDA_MEMCPY_KIND_UVM_DTOD", GP_COPY_UVM_DTOD},
	};
	/* nsys numbers memory kinds from Pageable = 0 (CUPTI from Unknown = 0) */
	static const struct enum_name mem[] = {
		{0, "CUDA_MEMOPR_MEMORY_KIND_PAGEABLE", GP_MEM_PAGEABLE},
		{1, "CUDA_MEMOPR_MEMORY_KIND_PINNED", GP_MEM_PINNED},
		{2, "CUDA_MEMOPR_MEMORY_KIND_DEVICE", GP_MEM_DEVICE},
		{3, "CUDA_MEMOPR_MEMORY_KIND_ARRAY", GP_MEM_ARRAY},
		{4, "CUDA_MEMOPR_MEMORY_KIND_MANAGED", GP_MEM_MANAGED},
		{5, "CUDA_MEMOPR_MEMORY_KIND_DEVICE_STATIC", GP_MEM_DEVICE_STATIC},
		{6, "CUDA_MEMOPR_MEMORY_KIND_MANAGED_STATIC", GP_MEM_MANAGED_STATIC},
		{7, "CUDA_MEMOPR_MEMORY_KIND_UNKNOWN", GP_MEM_UNKNOWN},
	};
	static const struct enum_name sync[] = {
		{0, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_UNKNOWN", GP_SYNC_UNKNOWN},
		{1, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE", GP_SYNC_EVENT},
		{2, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT", GP_SYNC_STREAM_WAIT},
		{3, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE", GP_SYNC_STREAM},
		{4, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE", GP_SYNC_CONTEXT},
	};
	static const struct enum_name api[] = {
		{0, "TRACE_PROCESS_EVENT_CUDA_RUNTIME", GP_API_RUNTIME},
		{1, "TRACE_PROCESS_EVENT_CUDA_DRIVER", GP_API_DRIVER},
	};
	static const struct enum_name nvtx[] = {
		{34, "NvtxMark", NV_MARK},
		{59, "NvtxPushPopRange", NV_PUSHPOP},
		{60, "NvtxStartEndRange", NV_STARTEND},
		{65, "NvtxtMark", NV_MARK},
		{70, "NvtxtPushPopRange", NV_PUSHPOP},
		{71, "NvtxtStartEndRange", NV_STARTEND},
		{75, "NvtxDomainCreate", NV_DOMAIN},
	};
#define LOAD(map, table, names, fb) enum_load(r, map, table, names, sizeof(names) / sizeof(names[0]), fb)
	LOAD(&r->copy_kind, "ENUM_CUDA_MEMCPY_OPER", copy, GP_COPY_UNKNOWN);
	LOAD(&r->mem_kind, "ENUM_CUDA_MEM_KIND", mem, GP_MEM_UNKNOWN);
	LOAD(&r->sync_kind, "ENUM_CUPTI_SYNC_TYPE", sync, GP_SYNC_UNKNOWN);
	LOAD(&r->api_kind, "ENUM_NSYS_EVENT_CLASS", api, GP_API_OTHER);
	LOAD(&r->nvtx, "ENUM_NSYS_EVENT_TYPE", nvtx, NV_IGNORE);
#undef LOAD
}

/* Rows a table is expected to hold, for progress and reservations: its
** largest rowid (cheap: one B-tree descent; nsys only appends), bounded by
** what the file could hold so a damaged rowid cannot ask for gigabytes. */
static uint64_t estimate_rows(struct nsys *r, const char *table)
{
	sqlite3_stmt *st;
	char sql[160];
	uint64_t n = 0;

	if (!gp_sql_has_table(r->db, table))
		return 0;
	snprintf(sql, sizeof(sql), "SELECT max(rowid) FROM \"%s\"", table);
	if (sqlite3_prepare_v2(r->db, sql, -1, &st, NULL) != SQLITE_OK)
		return 0;
	if (sqlite3_step(st) == SQLITE_ROW && gp_sql_i64(st, 0) > 0)
		n = (uint64_t)gp_sql_i64(st, 0);
	sqlite3_finalize(st);
	/* a row takes at least 16 bytes of file */
	return n <= r->file_size / 16 ? n : 0;
}

/* gp_sql_select() and gp_sql_finish() on the export being read. */
static int select_cols(struct nsys *r, const char *table, const char *purpose,
		       const char *const *cols, int ncols, int nreq, sqlite3_stmt **st)
{
	return gp_sql_select(r->db, r->path, table, purpose, cols, ncols, nreq, st, r->err);
}

static int finish(struct nsys *r, sqlite3_stmt *st, int rc, const char *purpose)
{
	return gp_sql_finish(r->db, st, rc, r->path, purpose, r->err);
}

/* ---- tables ------------------------------------------------------------ */

static int cmp_str_entry(const void *pa, const void *pb)
{
	const struct str_entry *a = pa, *b = pb;
	return a->id < b->id ? -1 : a->id > b->id;
}

static int read_strings(struct nsys *r)
{
	static const char *const cols[] = {"id", "value"};
	sqlite3_stmt *st;
	bool sorted = true;
	int rc;

	if ((rc = select_cols(r, "StringIds", "strings", cols, 2, 2, &st)))
		return rc;
	if (!st)
		return gp_err(r->err, GP_ERR_FORMAT, "%s: not an Nsight Systems export (no StringIds table)", r->path);
	gp_vec_reserve(r->sm.v, estimate_rows(r, "StringIds"));
	r->sm.dense = true;
	/* rowid order, which is id order for nsys' INTEGER PRIMARY KEY */
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = gp_sql_i64(st, 0);
		if (r->sm.v.n && id <= r->sm.v.v[r->sm.v.n - 1].id)
			sorted = false;
		if (!r->sm.v.n)
			r->sm.base = id;
		r->sm.dense = r->sm.dense && (uint64_t)id - (uint64_t)r->sm.base == r->sm.v.n;
		struct str_entry *e = gp_vec_push(r->sm.v);
		e->id = id;
		e->s = text_col(r, st, 1);
		tick(r);
	}
	if ((rc = finish(r, st, rc, "strings")))
		return rc;
	if (!sorted)   /* implies n > 1 */
		qsort(r->sm.v.v, r->sm.v.n, sizeof(*r->sm.v.v), cmp_str_entry);
	r->api_names = gp_xcalloc(r->sm.v.n ? r->sm.v.n : 1, sizeof(*r->api_names));
	return GP_OK;
}

static int read_meta(struct nsys *r)
{
	static const char *const cols[] = {"name", "value"};
	const char *table = gp_sql_has_table(r->db, "META_DATA_EXPORT") ? "META_DATA_EXPORT" : "EXPORT_META_DATA";
	sqlite3_stmt *st;
	char buf[256];
	int rc;

	if ((rc = select_cols(r, table, "export metadata", cols, 2, 2, &st)) || !st)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = gp_sql_text(st, 0), *value = gp_sql_text(st, 1);
		if (strcmp(name, "EXPORT_PRODUCT_VERSION") == 0) {
			snprintf(buf, sizeof(buf), "nsys %s", value);
			r->t->tool_version = gp_intern(r->t, buf);
		} else if (strcmp(name, "EXPORT_SCHEMA_VERSION") == 0) {
			gp_trace_meta_set(r->t, "schema version", value);
		}
	}
	return finish(r, st, rc, "export metadata");
}

static int read_session_start(struct nsys *r)
{
	static const char *const cols[] = {"utcEpochNs", "utcTime"};
	sqlite3_stmt *st;
	char buf[64];
	int rc;

	if ((rc = select_cols(r, "TARGET_INFO_SESSION_START_TIME", "session start", cols, 2, 0, &st)) || !st)
		return rc;
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (!gp_sql_is_null(st, 0)) {
			snprintf(buf, sizeof(buf), "%" PRId64, gp_sql_i64(st, 0));
			gp_trace_meta_set(r->t, "session epoch (ns)", buf);
		}
		if (!gp_sql_is_null(st, 1))
			gp_trace_meta_set(r->t, "session start (UTC)", gp_sql_text(st, 1));
		rc = SQLITE_DONE;
	}
	return finish(r, st, rc, "session start");
}

/* The host the report was taken on (TARGET_INFO_SYSTEM_ENV's "Hostname")
** into meta "hostname": it tells which ranks of a job share a node. */
static int read_host(struct nsys *r)
{
	static const char *const cols[] = {"name", "value"};
	sqlite3_stmt *st;
	int rc;

	if ((rc = select_cols(r, "TARGET_INFO_SYSTEM_ENV", "system", cols, 2, 2, &st)) || !st)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (strcmp(gp_sql_text(st, 0), "Hostname") == 0 && *gp_sql_text(st, 1))
			gp_trace_meta_set(r->t, "hostname", gp_sql_text(st, 1));
	return finish(r, st, rc, "system");
}

static int cmp_device(const void *pa, const void *pb)
{
	const struct gp_device *a = pa, *b = pb;
	return a->id < b->id ? -1 : a->id > b->id;
}

static int read_devices(struct nsys *r)
{
	static const char *const cols[] = {
		"id", "name", "smCount", "computeMajor", "computeMinor", "totalMemory",
		"memoryBandwidth", "clockRate", "l2CacheSize",
	};
	sqlite3_stmt *st;
	int rc;

	if ((rc = select_cols(r, "TARGET_INFO_GPU", "GPUs", cols, GP_SQL_NCOLS(cols), 1, &st)) || !st)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int32_t id = (int32_t)gp_sql_i64(st, 0);
		if (gp_trace_device(r->t, id))
			continue;   /* the same GPU seen from another VM */
		struct gp_device *d = gp_vec_push(r->t->devices);
		d->id = id;
		d->name = text_col(r, st, 1);
		d->sm_count = (int32_t)gp_sql_i64(st, 2);
		d->cc_major = (int16_t)gp_sql_i64(st, 3);
		d->cc_minor = (int16_t)gp_sql_i64(st, 4);
		d->mem_bytes = (uint64_t)gp_sql_i64(st, 5);
		d->mem_bw = (double)gp_sql_i64(st, 6);
		d->clock_hz = (double)gp_sql_i64(st, 7);
		d->l2_bytes = (uint64_t)gp_sql_i64(st, 8);
	}
	if (r->t->devices.n > 1)
		qsort(r->t->devices.v, r->t->devices.n, sizeof(*r->t->devices.v), cmp_device);
	return finish(r, st, rc, "GPUs");
}

static int read_processes(struct nsys *r)
{
	static const char *const cols[] = {"globalPid", "pid", "name"};
	sqlite3_stmt *st;
	int rc;

	if ((rc = select_cols(r, "PROCESSES", "processes", cols, GP_SQL_NCOLS(cols), 0, &st)) || !st)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct gp_process *p = gp_vec_push(r->t->processes);
		p->pid = gp_sql_is_null(st, 1) ? gid_pid(gp_sql_i64(st, 0)) : (uint32_t)gp_sql_i64(st, 1);
		p->name = text_col(r, st, 2);
	}
	return finish(r, st, rc, "processes");
}

static int read_threads(struct nsys *r)
{
	static const char *const cols[] = {"globalTid", "nameId"};
	sqlite3_stmt *st;
	int rc;

	if ((rc = select_cols(r, "ThreadNames", "thread names", cols, GP_SQL_NCOLS(cols), 2, &st)) || !st)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct gp_thread *th = gp_vec_push(r->t->threads);
		int64_t g = gp_sql_i64(st, 0);
		th->pid = gid_pid(g);
		th->tid = gid_tid(g);
		th->name = str_col(r, st, 1);
	}
	return finish(r, st, rc, "thread names");
}

/* Exports without a shortName column (older than 2022) get the short
** name of the demangled name; a small cache keyed by the demangled name's
** id keeps this off the per-row cost. */
#define SHORT_CACHE 256
static gp_str short_name(struct nsys *r, gp_str demangled, gp_str cache[][2])
{
	gp_str *slot = cache[demangled % SHORT_CACHE];
	char buf[1024];

	if (!demangled)
		return 0;
	if (slot[0] != demangled) {
		slot[0] = demangled;
		slot[1] = gp_intern(r->t, gp_kernel_short_name(gp_s(r->t, demangled), buf, sizeof(buf)));
	}
	return slot[1];
}

static int read_kernels(struct nsys *r)
{
	static const char *const cols[] = {
		"start", "end", "deviceId", "contextId", "streamId", "correlationId",
		"globalPid", "shortName", "demangledName", "mangledName",
		"gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ",
		"registersPerThread", "staticSharedMemory", "dynamicSharedMemory",
		"graphNodeId", "graphId",
	};
	enum { START, END, DEV, CTX, STRM, CORR, GPID, SHORT, DEMANGLED, MANGLED,
	       GRID, BLOCK = GRID + 3, REGS = BLOCK + 3, SSMEM, DSMEM, NODE, GRAPH };
	gp_str short_cache[SHORT_CACHE][2] = {{0}};
	sqlite3_stmt *st;
	int rc;

	if ((rc = select_cols(r, T_KERNEL, "kernels", cols, GP_SQL_NCOLS(cols), 2, &st)))
		return rc;
	if (!st) {
		gp_trace_warn(r->t, "no CUDA kernels were captured (the export has no "
			      T_KERNEL " table)");
		return GP_OK;
	}
	RESERVE(r, r->t->kernels, T_KERNEL);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		gp_ns start, end;
		read_times(r, st, START, &start, &end);
		if (outside(r, start, end, true)) {
			tick(r);
			continue;
		}
		struct gp_kernel *k = gp_vec_push(r->t->kernels);
		k->start = start;
		k->end = end;
		k->stream = (uint32_t)gp_sql_i64(st, STRM);
		k->corr = (uint64_t)gp_sql_i64(st, CORR);
		struct gp_kernel_def d = {
			.device = (int32_t)gp_sql_i64(st, DEV),
			.context = (uint32_t)gp_sql_i64(st, CTX),
			.pid = gid_pid(gp_sql_i64(st, GPID)),
			.name = str_col(r, st, SHORT),
			.demangled = str_col(r, st, DEMANGLED),
			.mangled = str_col(r, st, MANGLED),
			.regs = (uint32_t)gp_sql_i64(st, REGS),
			.static_smem = (uint32_t)gp_sql_i64(st, SSMEM),
			.dynamic_smem = (uint32_t)gp_sql_i64(st, DSMEM),
			.graph_node = (uint64_t)gp_sql_i64(st, NODE),
			.graph_id = (uint32_t)gp_sql_i64(st, GRAPH),
		};
		if (!d.name)
			d.name = short_name(r, d.demangled, short_cache);
		for (int i = 0; i < 3; i++) {
			d.grid[i] = (uint32_t)gp_sql_i64(st, GRID + i);
			d.block[i] = (uint32_t)gp_sql_i64(st, BLOCK + i);
		}
		k->def = gp_kernel_def_add(r->t, &d);
		tick(r);
	}
	return finish(r, st, rc, "kernels");
}

/* --cuda-graph-trace=graph records one row per graph launch and no row for
** its kernels: each becomes one pseudo-kernel "[CUDA graph N]" so the GPU
** time is not lost. */
static int read_graphs(struct nsys *r)
{
	static const char *const cols[] = {
		"start", "end", "deviceId", "contextId", "streamId", "correlationId",
		"globalPid", "graphId", "graphExecId",
	};
	sqlite3_stmt *st;
	size_t n0 = r->t->kernels.n;
	char name[64];
	int rc;

	if ((rc = select_cols(r, T_GRAPH, "CUDA graph launches", cols, GP_SQL_NCOLS(cols), 2, &st)) || !st)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct gp_kernel *k = gp_vec_push(r->t->kernels);
		read_times(r, st, 0, &k->start, &k->end);
		k->stream = (uint32_t)gp_sql_i64(st, 4);
		k->corr = (uint64_t)gp_sql_i64(st, 5);
		struct gp_kernel_def d = {
			.device = (int32_t)gp_sql_i64(st, 2),
			.context = (uint32_t)gp_sql_i64(st, 3),
			.pid = gid_pid(gp_sql_i64(st, 6)),
			.graph_id = (uint32_t)gp_sql_i64(st, 7),
			.graph_exec = (uint32_t)gp_sql_i64(st, 8),
			.flags = GP_KDEF_WHOLE_GRAPH,
		};
		snprintf(name, sizeof(name), "[CUDA graph %" PRIu32 "]", d.graph_id);
		d.name = d.demangled = gp_intern(r->t, name);
		k->def = gp_kernel_def_add(r->t, &d);
		tick(r);
	}
	if ((rc = finish(r, st, rc, "CUDA graph launches")))
		return rc;
	if (r->t->kernels.n > n0)
		gp_trace_warn(r->t, "%zu CUDA graph launches were traced as whole graphs "
			      "(nsys --cuda-graph-trace=graph): each is one \"[CUDA graph N]\" kernel; "
			      "profile with --cuda-graph-trace=node to see their kernels",
			      r->t->kernels.n - n0);
	return GP_OK;
}

/* CUDA_GRAPH_NODE_EVENTS: every graph node's creation (during stream
** capture or a cudaGraphAdd*Node call) and every clone of it (one per node
** at each cudaGraphInstantiate), for the graph-replay attribution
** (src/analysis/attr_graph.c).  All of them, whatever the read window: a
** graph captured before the window is replayed inside it.  Rows without a
** node id or a start say nothing and are counted in a warning. */
static int read_graph_nodes(struct nsys *r)
{
	static const char *const cols[] = {
		"graphNodeId", "start", "end", "globalTid", "originalGraphNodeId",
	};
	sqlite3_stmt *st;
	uint64_t unusable = 0;
	int rc;

	if ((rc = select_cols(r, T_GRAPH_NODE, "CUDA graph node events", cols, GP_SQL_NCOLS(cols), 0, &st)) ||
	    !st)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (gp_sql_is_null(st, 0) || gp_sql_is_null(st, 1) || gp_sql_i64(st, 0) == 0) {
			unusable++;
			continue;
		}
		struct gp_graph_node *g = gp_vec_push(r->t->graph_nodes);
		int64_t gtid = gp_sql_i64(st, 3);
		g->node = (uint64_t)gp_sql_i64(st, 0);
		read_times(r, st, 1, &g->start, &g->end);
		g->pid = gid_pid(gtid);
		g->tid = gid_tid(gtid);
		g->original = (uint64_t)gp_sql_i64(st, 4);
	}
	if (unusable)
		gp_trace_warn(r->t, "%" PRIu64 " CUDA graph node events have no node id or time "
			      "(left out)", unusable);
	return finish(r, st, rc, "CUDA graph node events");
}

/* The API name for a StringIds key, "_vNNNN" stripped once per name. */
static gp_str api_name(struct nsys *r, sqlite3_stmt *st, int col)
{
	char buf[512];

	int64_t key = gp_sql_i64(st, col);

	if (gp_sql_null_at0(st, col, key))
		return 0;
	int64_t i = str_index(r, key);
	if (i < 0)
		return 0;
	if (!r->api_names[i]) {
		const char *s = gp_s(r->t, r->sm.v.v[i].s);
		r->api_names[i] = gp_intern(r->t, gp_api_strip_version(s, buf, sizeof(buf)));
	}
	return r->api_names[i];
}

static int read_apis(struct nsys *r)
{
	static const char *const cols[] = {
		"start", "end", "eventClass", "globalTid", "correlationId", "nameId", "returnValue",
	};
	sqlite3_stmt *st;
	int rc;

	if ((rc = select_cols(r, T_RUNTIME, "CUDA API calls", cols, GP_SQL_NCOLS(cols), 2, &st)) || !st)
		return rc;
	RESERVE(r, r->t->apis, T_RUNTIME);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		gp_ns start, end;
		read_times(r, st, 0, &start, &end);
		if (outside(r, start, end, false)) {
			tick(r);
			continue;
		}
		struct gp_api *a = gp_vec_push(r->t->apis);
		int64_t g = gp_sql_i64(st, 3), event_class = gp_sql_i64(st, 2);
		a->start = start;
		a->end = end;
		a->pid = gid_pid(g);
		a->tid = gid_tid(g);
		a->corr = (uint64_t)gp_sql_i64(st, 4);
		a->def = gp_api_def_add(r->t, &(struct gp_api_def){
			.name = api_name(r, st, 5),
			.ret = (int32_t)gp_sql_i64(st, 6),
			.cbid = -1,
			/* no eventClass column: the table's historical content, runtime */
			.kind = (uint32_t)(gp_sql_null_at0(st, 2, event_class) ? GP_API_RUNTIME
					   : enum_get(&r->api_kind, event_class)),
		});
		tick(r);
	}
	return finish(r, st, rc, "CUDA API calls");
}

static int read_memcpys(struct nsys *r)
{
	static const char *const cols[] = {
		"start", "end", "deviceId", "contextId", "streamId", "correlationId", "globalPid",
		"bytes", "copyKind", "srcKind", "dstKind", "srcDeviceId", "dstDeviceId", "graphNodeId",
	};
	sqlite3_stmt *st;
	int rc;

	if ((rc = select_cols(r, T_MEMCPY, "memory copies", cols, GP_SQL_NCOLS(cols), 2, &st)) || !st)
		return rc;
	RESERVE(r, r->t->memcpys, T_MEMCPY);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		gp_ns start, end;
		read_times(r, st, 0, &start, &end);
		if (outside(r, start, end, true)) {
			tick(r);
			continue;
		}
		struct gp_memcpy *m = gp_vec_push(r->t->memcpys);
		m->start = start;
		m->end = end;
		m->device = (int32_t)gp_sql_i64(st, 2);
		m->context = (uint32_t)gp_sql_i64(st, 3);
		m->stream = (uint32_t)gp_sql_i64(st, 4);
		m->corr = (uint64_t)gp_sql_i64(st, 5);
		m->pid = gid_pid(gp_sql_i64(st, 6));
		m->bytes = (uint64_t)gp_sql_i64(st, 7);
		m->copy_kind = (uint8_t)enum_get(&r->copy_kind, gp_sql_i64(st, 8));
		m->src_kind = (uint8_t)(gp_sql_is_null(st, 9) ? GP_MEM_UNKNOWN : enum_get(&r->mem_kind, gp_sql_i64(st, 9)));
		m->dst_kind = (uint8_t)(gp_sql_is_null(st, 10) ? GP_MEM_UNKNOWN : enum_get(&r->mem_kind, gp_sql_i64(st, 10)));
		m->src_device = gp_sql_is_null(st, 11) ? -1 : (int32_t)gp_sql_i64(st, 11);
		m->dst_device = gp_sql_is_null(st, 12) ? -1 : (int32_t)gp_sql_i64(st, 12);
		m->graph_node = (uint64_t)gp_sql_i64(st, 13);
		tick(r);
	}
	return finish(r, st, rc, "memory copies");
}

static int read_memsets(struct nsys *r)
{
	static const char *const cols[] = {
		"start", "end", "deviceId", "contextId", "streamId", "correlationId", "globalPid",
		"bytes", "value", "memKind", "graphNodeId",
	};
	sqlite3_stmt *st;
	int rc;

	if ((rc = select_cols(r, T_MEMSET, "memsets", cols, GP_SQL_NCOLS(cols), 2, &st)) || !st)
		return rc;
	RESERVE(r, r->t->memsets, T_MEMSET);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		gp_ns start, end;
		read_times(r, st, 0, &start, &end);
		if (outside(r, start, end, true)) {
			tick(r);
			continue;
		}
		struct gp_memset *m = gp_vec_push(r->t->memsets);
		m->start = start;
		m->end = end;
		m->device = (int32_t)gp_sql_i64(st, 2);
		m->context = (uint32_t)gp_sql_i64(st, 3);
		m->stream = (uint32_t)gp_sql_i64(st, 4);
		m->corr = (uint64_t)gp_sql_i64(st, 5);
		m->pid = gid_pid(gp_sql_i64(st, 6));
		m->bytes = (uint64_t)gp_sql_i64(st, 7);
		m->value = (uint32_t)gp_sql_i64(st, 8);
		m->mem_kind = (uint8_t)(gp_sql_is_null(st, 9) ? GP_MEM_UNKNOWN : enum_get(&r->mem_kind, gp_sql_i64(st, 9)));
		m->graph_node = (uint64_t)gp_sql_i64(st, 10);
		tick(r);
	}
	return finish(r, st, rc, "memsets");
}

static int read_syncs(struct nsys *r)
{
	static const char *const cols[] = {
		"start", "end", "deviceId", "contextId", "streamId", "correlationId", "globalPid",
		"syncType", "eventId",
	};
	sqlite3_stmt *st;
	int rc;

	if ((rc = select_cols(r, T_SYNC, "synchronizations", cols, GP_SQL_NCOLS(cols), 2, &st)) || !st)
		return rc;
	RESERVE(r, r->t->syncs, T_SYNC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		gp_ns start, end;
		read_times(r, st, 0, &start, &end);
		if (outside(r, start, end, false)) {
			tick(r);
			continue;
		}
		struct gp_sync *s = gp_vec_push(r->t->syncs);
		s->start = start;
		s->end = end;
		s->device = (int32_t)gp_sql_i64(st, 2);
		s->context = (uint32_t)gp_sql_i64(st, 3);
		s->stream = (uint32_t)gp_sql_i64(st, 4);
		s->corr = (uint64_t)gp_sql_i64(st, 5);
		s->pid = gid_pid(gp_sql_i64(st, 6));
		s->kind = (uint8_t)enum_get(&r->sync_kind, gp_sql_i64(st, 7));
		s->event_id = (uint64_t)gp_sql_i64(st, 8);
		tick(r);
	}
	return finish(r, st, rc, "synchronizations");
}

/* cudaEventRecord calls as the GPU saw them: which stream each event was
** recorded on.  They carry no time (their API call does), so a window
** keeps them all; the dependency pass ignores those whose call is gone.
** greenContextId and later columns are not needed. */
static int read_event_records(struct nsys *r)
{
	static const char *const cols[] = {"correlationId", "eventId", "globalPid", "deviceId", "streamId"};
	sqlite3_stmt *st;
	int rc;

	if ((rc = select_cols(r, T_EVENT, "CUDA event records", cols, GP_SQL_NCOLS(cols), 5, &st)) || !st)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct gp_event_record *e = gp_vec_push(r->t->event_records);
		e->corr = gp_sql_is_null(st, 0) ? 0 : (uint64_t)gp_sql_i64(st, 0);
		e->event_id = (uint64_t)gp_sql_i64(st, 1);
		e->pid = gp_sql_is_null(st, 2) ? 0 : gid_pid(gp_sql_i64(st, 2));
		e->device = (int32_t)gp_sql_i64(st, 3);
		e->stream = (uint32_t)gp_sql_i64(st, 4);
	}
	return finish(r, st, rc, "CUDA event records");
}

/* nsys --cuda-memory-usage=true: one row per allocation or free (operation
** 0 or 1) with its size as a positive count and no totals.  The thread is
** that of the API call with the same correlation id (the rows name only the
** process); host kinds (pageable, pinned) are host memory. */
static int read_memevents(struct nsys *r)
{
	static const char *const cols[] = {
		"start", "deviceId", "bytes", "memoryOperationType", "globalPid", "address",
		"memKind", "correlationId",
	};
	sqlite3_stmt *st;
	gp_u64map api_of = {0};
	uint64_t unknown_op = 0;
	int rc;

	if ((rc = select_cols(r, T_MEMUSE, "CUDA memory usage", cols, GP_SQL_NCOLS(cols), 4, &st)) || !st)
		return rc;
	for (size_t i = 0; i < r->t->apis.n; i++)
		gp_u64map_put(&api_of, r->t->apis.v[i].corr, (int32_t)i);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t op = gp_sql_i64(st, 3), bytes = gp_sql_i64(st, 2);
		if ((op != 0 && op != 1) || gp_sql_is_null(st, 3) || bytes < 0) {
			unknown_op++;
			continue;
		}
		if (outside(r, gp_sql_i64(st, 0), gp_sql_i64(st, 0), false)) {
			tick(r);
			continue;
		}
		struct gp_memevent *m = gp_vec_push(r->t->memevents);
		m->ts = gp_sql_i64(st, 0);
		m->bytes = op == 0 ? bytes : -bytes;
		m->total_alloc = m->total_reserved = -1;
		m->addr = (uint64_t)gp_sql_i64(st, 5);
		m->pid = gid_pid(gp_sql_i64(st, 4));
		int kind = gp_sql_is_null(st, 6) ? GP_MEM_DEVICE : enum_get(&r->mem_kind, gp_sql_i64(st, 6));
		m->device = kind == GP_MEM_PAGEABLE || kind == GP_MEM_PINNED ? GP_MEM_HOST
			  : (int32_t)gp_sql_i64(st, 1);
		int32_t a = gp_sql_is_null(st, 7) ? -1 : gp_u64map_get(&api_of, (uint64_t)gp_sql_i64(st, 7));
		if (a >= 0 && r->t->apis.v[a].pid == m->pid)
			m->tid = r->t->apis.v[a].tid;
		tick(r);
	}
	gp_u64map_free(&api_of);
	if (unknown_op)
		gp_trace_warn(r->t, "%" PRIu64 " CUDA memory usage rows with an unknown operation or "
			      "a negative size skipped", unknown_op);
	return finish(r, st, rc, "CUDA memory usage");
}

enum { NVTX_START, NVTX_END, NVTX_TYPE, NVTX_TEXT, NVTX_TEXTID, NVTX_GTID };

/* The text of an NVTX row (its text column, else its StringIds key), not
** interned; "" for none. */
static const char *nvtx_raw_text(struct nsys *r, sqlite3_stmt *st)
{
	if (!gp_sql_is_null(st, NVTX_TEXT))
		return (const char *)sqlite3_column_text(st, NVTX_TEXT);
	return gp_s(r->t, str_col(r, st, NVTX_TEXTID));
}

/* Whether an NVTX row of class cls is dropped by the read window: a mark,
** or a range wholly outside it, unless it is an iteration range (the
** correlation numbers those by their order: every one is kept) or has no
** end (it ends at the end of the trace). */
static bool nvtx_outside(struct nsys *r, sqlite3_stmt *st, int cls)
{
	int64_t num;

	if (cls == NV_DOMAIN || (cls != NV_MARK && gp_sql_is_null(st, NVTX_END)))
		return false;
	gp_ns start = gp_sql_i64(st, NVTX_START);
	gp_ns end = cls == NV_MARK ? start : gp_sql_i64(st, NVTX_END);
	if (!outside(r, start, end < start ? start : end, false))
		return false;
	return !((cls == NV_PUSHPOP || cls == NV_STARTEND) && gp_iteration_text(nvtx_raw_text(r, st), &num));
}

/* For --iters: the span of the window's NVTX iteration ranges, read before
** everything else, sets the read window.  Leaves it off when there is no
** NVTX table, no such range, or one of them has no end. */
static int prescan_iterations(struct nsys *r, int32_t a, int32_t b, gp_ns *lo, gp_ns *hi, bool *found)
{
	static const char *const cols[] = {"start", "end", "eventType", "text", "textId", "globalTid"};
	GP_VEC(struct gp_range) its = {0};
	sqlite3_stmt *st;
	int rc;
	int64_t num;

	*found = false;
	if ((rc = select_cols(r, T_NVTX, "NVTX events", cols, GP_SQL_NCOLS(cols), 2, &st)) || !st)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int cls = !gp_sql_is_null(st, NVTX_TYPE) ? enum_get(&r->nvtx, gp_sql_i64(st, NVTX_TYPE))
			  : gp_sql_is_null(st, NVTX_END) ? NV_MARK : NV_PUSHPOP;
		if ((cls != NV_PUSHPOP && cls != NV_STARTEND) || !gp_iteration_text(nvtx_raw_text(r, st), &num))
			continue;
		struct gp_range *rg = gp_vec_push(its);
		memset(rg, 0, sizeof(*rg));
		rg->start = gp_sql_i64(st, NVTX_START);
		rg->end = gp_sql_is_null(st, NVTX_END) ? GP_NS_MAX : gp_sql_i64(st, NVTX_END);
		if (rg->end < rg->start)
			rg->end = rg->start;
		rg->pid = gid_pid(gp_sql_i64(st, NVTX_GTID));
		rg->tid = gid_tid(gp_sql_i64(st, NVTX_GTID));
		rg->kind = (uint8_t)(cls == NV_PUSHPOP ? GP_RANGE_PUSHPOP : GP_RANGE_STARTEND);
		rg->text = gp_sql_is_null(st, NVTX_TEXT) ? str_col(r, st, NVTX_TEXTID)
			   : text_col(r, st, NVTX_TEXT);
	}
	rc = finish(r, st, rc, "NVTX events");
	if (!rc)
		*found = gp_iteration_ranges_span(r->t, its.v, its.n, a, b, lo, hi);
	gp_vec_free(its);
	return rc;
}

/* Sets the read window for o->window (off for none, an open time span, or
** iterations the pre-scan cannot place). */
static int set_window(struct nsys *r)
{
	const struct gp_window *w = r->o ? &r->o->window : NULL;
	gp_ns lo, hi;
	bool found = true;
	int rc = GP_OK;

	if (!w || w->mode == GP_WINDOW_NONE)
		return GP_OK;
	lo = w->start;
	hi = w->end;
	if (w->mode == GP_WINDOW_ITERS)
		rc = prescan_iterations(r, w->iter_a, w->iter_b, &lo, &hi, &found);
	if (!rc && found)
		r->win_on = gp_window_read_span(lo, hi, &r->win_lo, &r->win_hi, &r->win_gpu_lo);
	return rc;
}

static int read_nvtx(struct nsys *r)
{
	static const char *const cols[] = {
		"start", "end", "eventType", "text", "textId", "globalTid", "endGlobalTid",
		"domainId", "color", "category",
	};
	enum { START, END, TYPE, TEXT, TEXTID, GTID, ENDGTID, DOMAIN, COLOR, CATEGORY };
	sqlite3_stmt *st;
	int rc;

	/* only start and end are required: exports older than the ones we have
	** seen may lack eventType (PyProf read text, globalTid, start, end) */
	if ((rc = select_cols(r, T_NVTX, "NVTX events", cols, GP_SQL_NCOLS(cols), 2, &st)) || !st)
		return rc;
	RESERVE(r, r->t->ranges, T_NVTX);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t type = gp_sql_i64(st, TYPE), end = gp_sql_i64(st, END);
		bool no_end = gp_sql_null_at0(st, END, end);
		int cls = !gp_sql_null_at0(st, TYPE, type) ? enum_get(&r->nvtx, type)
			  : no_end ? NV_MARK : NV_PUSHPOP;
		int64_t g = gp_sql_i64(st, GTID), domain;
		const char *s;
		gp_str text;

		tick(r);
		if (cls == NV_IGNORE || (r->win_on && nvtx_outside(r, st, cls)))
			continue;
		/* the text, else (NULL) the StringIds key of it */
		s = (const char *)sqlite3_column_text(st, TEXT);
		text = s ? gp_strtab_intern_n(&r->t->strs, s, (size_t)sqlite3_column_bytes(st, TEXT))
			 : gp_sql_is_null(st, TEXT) ? str_col(r, st, TEXTID) : 0;
		domain = gp_sql_i64(st, DOMAIN);
		if (cls == NV_DOMAIN) {
			struct domain_def *d = gp_vec_push(r->domains);
			d->pid = gid_pid(g);
			d->domain = domain;
			d->name = text;
			continue;
		}
		struct gp_range *rg = gp_vec_push(r->t->ranges);
		rg->start = gp_sql_i64(st, START);
		rg->end = rg->start;
		if (cls != NV_MARK) {
			if (no_end)
				*gp_vec_push(r->unended) = r->t->ranges.n - 1;
			else
				read_times(r, st, START, &rg->start, &rg->end);
		}
		rg->pid = gid_pid(g);
		rg->tid = gid_tid(g);
		rg->text = text;
		struct gp_range_nvtx x = {
			.color = (uint32_t)gp_sql_i64(st, COLOR),
			.category = (int32_t)gp_sql_i64(st, CATEGORY),
		};
		int64_t end_g = gp_sql_i64(st, ENDGTID);
		if (!gp_sql_null_at0(st, ENDGTID, end_g) && end_g != g)
			x.end_tid = gid_tid(end_g);
		if (x.end_tid || x.color || x.category)
			*gp_range_nvtx_add(r->t, rg) = x;
		rg->kind = (uint8_t)(cls == NV_PUSHPOP ? GP_RANGE_PUSHPOP :
				     cls == NV_STARTEND ? GP_RANGE_STARTEND : GP_RANGE_MARK);
		rg->parent = -1;
		if (domain != 0) {
			struct domain_ref *d = gp_vec_push(r->domain_refs);
			d->range = r->t->ranges.n - 1;
			d->pid = rg->pid;
			d->domain = domain;
		}
	}
	return finish(r, st, rc, "NVTX events");
}

static int cmp_domain(const void *pa, const void *pb)
{
	const struct domain_def *a = pa, *b = pb;

	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return a->domain < b->domain ? -1 : a->domain > b->domain;
}

/* Names ranges' NVTX domains (domain ids are per process) and ends ranges
** that never ended at the end of the trace. */
static void fix_ranges(struct nsys *r)
{
	size_t unknown = 0;

	if (r->domains.n > 1)
		qsort(r->domains.v, r->domains.n, sizeof(*r->domains.v), cmp_domain);
	for (size_t i = 0; i < r->domain_refs.n; i++) {
		struct domain_def key = {.pid = r->domain_refs.v[i].pid, .domain = r->domain_refs.v[i].domain};
		const struct domain_def *d = r->domains.n ?
			bsearch(&key, r->domains.v, r->domains.n, sizeof(key), cmp_domain) : NULL;
		if (d)
			gp_range_nvtx_add(r->t, &r->t->ranges.v[r->domain_refs.v[i].range])->domain = d->name;
		else
			unknown++;
	}
	if (unknown)
		gp_trace_warn(r->t, "%zu NVTX events name a domain that was never created "
			      "(shown in the default domain)", unknown);
	for (size_t i = 0; i < r->unended.n; i++) {
		struct gp_range *rg = &r->t->ranges.v[r->unended.v[i]];
		rg->flags |= GP_RANGE_F_UNCLOSED;
		if (r->any_time && r->last > rg->start)
			rg->end = r->last;
	}
	if (r->unended.n)
		gp_trace_warn(r->t, "%zu NVTX ranges have no end (ended at the end of the trace)",
			      r->unended.n);
}

/* ---- reader entry points --------------------------------------------- */

static double probe(const struct gp_probe_input *in)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	bool strings = false, nsys_tables = false;
	int rc = SQLITE_ERROR;

	switch (gp_sql_probe_open(in, &db)) {
	case GP_SQL_UNREADABLE: return 0;
	case GP_SQL_DAMAGED: return 0.1;   /* above nvprof's: either load says the same */
	case GP_SQL_WHOLE: break;
	}
	if (sqlite3_prepare_v2(db, "SELECT name FROM sqlite_master WHERE type = 'table' AND "
			       "(name = 'StringIds' OR name = 'NVTX_EVENTS' OR "
			       "name GLOB 'CUPTI_ACTIVITY_KIND_*' OR name GLOB 'TARGET_INFO_*')",
			       -1, &st, NULL) == SQLITE_OK) {
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			if (strcmp(gp_sql_text(st, 0), "StringIds") == 0)
				strings = true;
			else
				nsys_tables = true;
		}
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
	if (rc != SQLITE_DONE)
		return 0.1;
	return !strings ? 0 : nsys_tables ? 0.95 : 0.6;
}

static int load(const char *path, gp_trace *t, const struct gp_load_opts *o, gp_error *err)
{
	static const char *const big[] = {
		"StringIds", T_KERNEL, T_GRAPH, T_RUNTIME, T_MEMCPY, T_MEMSET, T_SYNC, T_NVTX, T_MEMUSE,
	};
	struct nsys r = {.path = path, .t = t, .o = o, .err = err};
	int rc;

	if ((rc = gp_sql_open_whole(path, &r.db, &r.file_size, err)))
		return rc;
	load_enums(&r);
	for (size_t i = 0; i < sizeof(big) / sizeof(big[0]); i++)
		r.total += estimate_rows(&r, big[i]);

	if (!(rc = read_strings(&r)) &&
	    !(rc = read_meta(&r)) &&
	    !(rc = read_session_start(&r)) && !(rc = read_host(&r)) &&
	    !(rc = read_devices(&r)) &&
	    !(rc = read_processes(&r)) &&
	    !(rc = read_threads(&r)) &&
	    !(rc = set_window(&r)) &&
	    !(rc = read_kernels(&r)) &&
	    !(rc = read_graphs(&r)) &&
	    !(rc = read_graph_nodes(&r)) &&
	    !(rc = read_apis(&r)) &&
	    !(rc = read_memcpys(&r)) &&
	    !(rc = read_memsets(&r)) &&
	    !(rc = read_syncs(&r)) &&
	    !(rc = read_event_records(&r)) &&
	    !(rc = read_memevents(&r)) &&
	    !(rc = read_nvtx(&r))) {
		fix_ranges(&r);
		if (r.dangling)
			gp_trace_warn(t, "%" PRIu64 " references to missing StringIds rows "
				      "(their names are empty)", r.dangling);
		if (r.backwards)
			gp_trace_warn(t, "%" PRIu64 " records end before they start "
				      "(read as zero-length)", r.backwards);
		if (o && o->progress)
			o->progress(o->progress_ctx, r.done, r.done);
	}
	sqlite3_close(r.db);
	gp_vec_free(r.sm.v);
	free(r.api_names);
	gp_vec_free(r.domain_refs);
	gp_vec_free(r.domains);
	gp_vec_free(r.unended);
	return rc;
}

const struct gp_reader gp_reader_nsys = {
	.name = "nsys",
	.description = "Nsight Systems SQLite export",
	.probe = probe,
	.load = load,
};
