/*
** Reader: gpuprof recordings, as libgpuprof writes them (GPUPROF_RECORD,
** version 1) and as `gpuprof record`'s CUPTI collector writes them
** (version 3; version 2 lacks the CUDA graph lines and fields).  The
** format is in include/gpuprof/record-format.h: tab-separated lines after
** a "GPUPROF-REC<TAB>N" magic line, ending with an "end" trailer that
** counts what came before (so a truncated file is caught).  A version 2
** or 3 file is written in chunks while the program runs;
** one without its end line (the program crashed) is read up to its last
** complete chunk, with a note.
**
** Ranges keep their kind (push/pop, start/end, mark, timer); the training
** markers become push/pop ranges named iteration/forward/backward/update.
** Timer statistics go to metadata: "timer NAME" and "gpu-timer NAME" with
** value "calls=N total_ns=T min_ns=A max_ns=B sumsq_ns2=S".  The
** collector's kernels, memcpys, memsets, API calls (named by their CUPTI
** callback id), syncs and devices fill the model as an nsys export does;
** dropped-record counts and CUPTI's overhead go to metadata, notes to the
** trace's notes (docs/collector.md).  CUDA graph nodes' creations and
** clones (version 3 "gnode") become the trace's graph node events, as
** nsys's CUDA_GRAPH_NODE_EVENTS: the graph-replay attribution follows a
** replayed kernel's node to where it was captured.
*/
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "gpuprof/record-format.h"
#include "readers/cupti_cbid.h"
#include "readers/reader.h"
#include "util/demangle.h"
#include "util/u64map.h"

#define MAX_FIELDS 20

static double probe(const struct gp_probe_input *in)
{
	size_t n = strlen(GPREC_MAGIC);
	return in->head_len >= n && memcmp(in->head, GPREC_MAGIC, n) == 0 ? 1.0 : 0;
}

/* Undoes the recording's escapes in place (\\ \t \n \r); false on a bad
** escape. */
static bool unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (*s != '\\') {
			*o++ = *s;
			continue;
		}
		switch (*++s) {
		case '\\': *o++ = '\\'; break;
		case 't': *o++ = '\t'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		default: return false;
		}
	}
	*o = '\0';
	return true;
}

/* Splits line at TABs into f[]; returns the number of fields. */
static int split(char *line, char **f, int max)
{
	int n = 0;

	f[n++] = line;
	for (char *p = line; *p && n < max; p++)
		if (*p == '\t') {
			*p = '\0';
			f[n++] = p + 1;
		}
	return n;
}

static bool parse_i64(const char *s, int64_t *v)
{
	char *end;

	if (!*s)
		return false;
	errno = 0;
	*v = strtoll(s, &end, 10);
	return !*end && errno == 0;
}

/* Decimal digits only (no sign, no space), at most UINT64_MAX: the
** collector's numbers, several per record, so no strtoull. */
static bool parse_u64(const char *s, uint64_t *v)
{
	uint64_t x = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		unsigned d = (unsigned)(*s - '0');
		if (d > 9 || x > (UINT64_MAX - d) / 10)
			return false;
		x = x * 10 + d;
	}
	*v = x;
	return true;
}

static bool parse_u32(const char *s, uint32_t *v, int base)
{
	char *end;
	unsigned long long x;

	if (!*s || *s == '-' || *s == '+')
		return false;
	errno = 0;
	x = strtoull(s, &end, base);
	*v = (uint32_t)x;
	return !*end && errno == 0 && x <= UINT32_MAX;
}

static bool parse_double(const char *s, double *v)
{
	char *end;

	if (!*s)
		return false;
	*v = strtod(s, &end);
	return !*end && *v == *v && *v >= 0 && *v < 1e300;
}

/* Where the model stood at the last chunk line: a truncated version 2
** file is cut back to it. */
struct chunk_mark {
	size_t kernels, apis, memcpys, memsets, syncs, event_records, ranges, devices, threads, warnings, graph_nodes;
	uint64_t nranges, dropped[4], graphs, graph_execs, overhead_ns;
	uint64_t lineno;
};

/* The dropped-record reasons of version 2 and their metadata keys. */
static const char *const dropped_reasons[] = {"cupti", "untimed", "after_duration", "nvtx"};
static const char *const dropped_keys[] = {
	"dropped_records", "untimed_records", "records_after_duration", "dropped_nvtx_ranges",
};

/* A kernel name's three forms, computed once per distinct raw name. */
struct kname {
	gp_str name, demangled, mangled;
};

struct rec_state {
	gp_trace *t;
	int version;
	uint32_t pid;
	uint64_t nranges, ntimers;
	bool ended;
	uint64_t lines_in_chunk;    /* version 2: records since the last chunk line */
	uint64_t dropped[4];        /* by dropped_reasons */
	uint64_t graphs, graph_execs, overhead_ns;
	struct chunk_mark mark;     /* at the last chunk line */
	gp_u64map kernel_names;     /* raw name's gp_str -> index into names */
	GP_VEC(struct kname) names;
};

static int parse_range(struct rec_state *st, char **f, int n, const char *where, gp_error *err)
{
	static const char *const kinds[] = GPREC_KIND_NAMES;
	static const uint8_t to_range_kind[] = {
		[GPREC_PUSH] = GP_RANGE_PUSHPOP, [GPREC_STARTEND] = GP_RANGE_STARTEND,
		[GPREC_MARK] = GP_RANGE_MARK, [GPREC_TIMER] = GP_RANGE_TIMER,
		[GPREC_ITERATION] = GP_RANGE_PUSHPOP, [GPREC_FORWARD] = GP_RANGE_PUSHPOP,
		[GPREC_BACKWARD] = GP_RANGE_PUSHPOP, [GPREC_UPDATE] = GP_RANGE_PUSHPOP,
	};
	struct gp_range r = {.parent = -1};
	struct gp_range_nvtx x = {0};
	int64_t arg;
	int kind = -1;

	if (n != 10)
		return gp_err(err, GP_ERR_CORRUPT, "%s: range has %d fields, expected 10", where, n);
	for (int k = 0; k < GPREC_KIND__COUNT; k++)
		if (strcmp(f[1], kinds[k]) == 0)
			kind = k;
	if (kind < 0)
		return gp_err(err, GP_ERR_CORRUPT, "%s: unknown range kind '%.40s'", where, f[1]);
	if (!parse_u32(f[2], &r.tid, 10) || !parse_u32(f[3], &x.end_tid, 10) ||
	    !parse_i64(f[4], &r.start) || !parse_i64(f[5], &r.end) ||
	    !parse_u32(f[6], &x.color, 16) || !parse_i64(f[7], &arg))
		return gp_err(err, GP_ERR_CORRUPT, "%s: bad number in a range", where);
	if (r.end < r.start)
		return gp_err(err, GP_ERR_CORRUPT, "%s: range ends (%" PRId64 ") before it starts (%" PRId64 ")",
			      where, r.end, r.start);
	if (!unescape(f[8]) || !unescape(f[9]))
		return gp_err(err, GP_ERR_CORRUPT, "%s: bad escape in a name", where);
	r.pid = st->pid;
	r.kind = to_range_kind[kind];
	x.domain = gp_intern(st->t, f[8]);
	r.text = gp_intern(st->t, f[9]);
	if (x.end_tid || x.color || x.domain)
		*gp_range_nvtx_add(st->t, &r) = x;
	*gp_vec_push(st->t->ranges) = r;
	st->nranges++;
	return GP_OK;
}

static int parse_timer(struct rec_state *st, char **f, int n, const char *where, gp_error *err)
{
	double total, min, max, sumsq;
	int64_t count;
	char key[4096], val[256];

	if (n != 8)
		return gp_err(err, GP_ERR_CORRUPT, "%s: timer has %d fields, expected 8", where, n);
	if (strcmp(f[1], "cpu") && strcmp(f[1], "gpu"))
		return gp_err(err, GP_ERR_CORRUPT, "%s: timer kind '%.40s' is not cpu or gpu", where, f[1]);
	if (!parse_i64(f[2], &count) || count < 0 || !parse_double(f[3], &total) ||
	    !parse_double(f[4], &min) || !parse_double(f[5], &max) || !parse_double(f[6], &sumsq) ||
	    min > max || (count && max > total))
		return gp_err(err, GP_ERR_CORRUPT, "%s: bad timer statistics", where);
	if (!unescape(f[7]))
		return gp_err(err, GP_ERR_CORRUPT, "%s: bad escape in a timer name", where);
	snprintf(key, sizeof(key), "%s %s", f[1][0] == 'g' ? "gpu-timer" : "timer", f[7]);
	snprintf(val, sizeof(val), "calls=%" PRId64 " total_ns=%.0f min_ns=%.0f max_ns=%.0f sumsq_ns2=%.17g",
		 count, total, min, max, sumsq);
	gp_trace_meta_set(st->t, key, val);
	st->ntimers++;
	return GP_OK;
}


/* A device line: its properties make the GPU's peaks known without --gpu. */
static int parse_device(struct rec_state *st, char **f, int n, const char *where, gp_error *err)
{
	uint64_t id, sms, major, minor, mem, bw, clock, l2;

	if (n != 10)
		return gp_err(err, GP_ERR_CORRUPT, "%s: device has %d fields, expected 10", where, n);
	if (!parse_u64(f[1], &id) || !parse_u64(f[2], &sms) || !parse_u64(f[3], &major) ||
	    !parse_u64(f[4], &minor) || !parse_u64(f[5], &mem) || !parse_u64(f[6], &bw) ||
	    !parse_u64(f[7], &clock) || !parse_u64(f[8], &l2) || id > INT32_MAX || sms > INT32_MAX ||
	    major > INT16_MAX || minor > INT16_MAX)
		return gp_err(err, GP_ERR_CORRUPT, "%s: bad number in a device", where);
	if (!unescape(f[9]))
		return gp_err(err, GP_ERR_CORRUPT, "%s: bad escape in a device name", where);
	if (gp_trace_device(st->t, (int32_t)id))
		return GP_OK;   /* CUPTI reports a device again per context */
	struct gp_device *d = gp_vec_push(st->t->devices);
	d->id = (int32_t)id;
	d->name = gp_intern(st->t, f[9]);
	d->sm_count = (int32_t)sms;
	d->cc_major = (int16_t)major;
	d->cc_minor = (int16_t)minor;
	d->mem_bytes = mem;
	d->mem_bw = (double)bw;
	d->clock_hz = (double)clock;
	d->l2_bytes = l2;
	return GP_OK;
}

/* Parses f[from..to) as unsigned numbers into v; false on a bad one. */
static bool parse_u64s(char **f, int from, int to, uint64_t *v)
{
	for (int i = from; i < to; i++)
		if (!parse_u64(f[i], &v[i - from]))
			return false;
	return true;
}

/* Checks a GPU record's times and the 32-bit ids among v[first..last]. */
static int check_times(uint64_t start, uint64_t end, const char *what, const char *where, gp_error *err)
{
	if (start > INT64_MAX || end > INT64_MAX)
		return gp_err(err, GP_ERR_CORRUPT, "%s: %s time out of range", where, what);
	if (end < start)
		return gp_err(err, GP_ERR_CORRUPT, "%s: %s ends (%" PRIu64 ") before it starts (%" PRIu64 ")",
			      where, what, end, start);
	return GP_OK;
}

static bool fits_u32(const uint64_t *v, int n)
{
	for (int i = 0; i < n; i++)
		if (v[i] > UINT32_MAX)
			return false;
	return true;
}

/* The short, demangled and mangled names of a CUPTI kernel name, each
** distinct name demangled once. */
static void kernel_names(struct rec_state *st, struct gp_kernel_def *d, const char *raw)
{
	gp_str id = gp_intern(st->t, raw);
	int32_t i = gp_u64map_get(&st->kernel_names, id);
	char buf[1024];

	if (i < 0) {
		char *dem = gp_demangle(raw);
		struct kname *kn = gp_vec_push(st->names);
		kn->demangled = dem ? gp_intern(st->t, dem) : id;
		kn->name = gp_intern(st->t, gp_kernel_short_name(dem ? dem : raw, buf, sizeof(buf)));
		if (!*gp_s(st->t, kn->name))
			kn->name = id;
		kn->mangled = dem ? id : 0;
		free(dem);
		i = (int32_t)(st->names.n - 1);
		gp_u64map_put(&st->kernel_names, id, i);
	}
	d->name = st->names.v[i].name;
	d->demangled = st->names.v[i].demangled;
	d->mangled = st->names.v[i].mangled;
}

static int parse_kernel(struct rec_state *st, char **f, int n, const char *where, gp_error *err)
{
	uint64_t v[17];
	int rc;

	if (n != 19)
		return gp_err(err, GP_ERR_CORRUPT, "%s: kernel has %d fields, expected 19", where, n);
	if (!parse_u64s(f, 1, 18, v) || v[2] > INT32_MAX || !fits_u32(v + 3, 1) || !fits_u32(v + 4, 1) ||
	    !fits_u32(v + 6, 10))
		return gp_err(err, GP_ERR_CORRUPT, "%s: bad number in a kernel", where);
	if ((rc = check_times(v[0], v[1], "kernel", where, err)))
		return rc;
	if (!unescape(f[18]))
		return gp_err(err, GP_ERR_CORRUPT, "%s: bad escape in a kernel name", where);
	struct gp_kernel *k = gp_vec_push(st->t->kernels);
	struct gp_kernel_def d = {
		.regs = (uint32_t)v[12],
		.static_smem = (uint32_t)v[13],
		.dynamic_smem = (uint32_t)v[14],
		.graph_id = (uint32_t)v[15],
		.graph_node = v[16],
	};
	k->start = (gp_ns)v[0];
	k->end = (gp_ns)v[1];
	d.device = (int32_t)v[2];
	d.context = (uint32_t)v[3];
	k->stream = (uint32_t)v[4];
	k->corr = v[5];
	d.pid = st->pid;
	for (int i = 0; i < 3; i++) {
		d.grid[i] = (uint32_t)v[6 + i];
		d.block[i] = (uint32_t)v[9 + i];
	}
	kernel_names(st, &d, f[18]);
	k->def = gp_kernel_def_add(st->t, &d);
	return GP_OK;
}

/* The memory kind of CUPTI's numbering, which is ours (trace.h). */
static bool mem_kind(uint64_t v, uint8_t *out)
{
	*out = (uint8_t)v;
	return v < GP_MEM__COUNT;
}

/* Version 3's graph id and node of a memcpy or memset, the last two of
** its n fields; 0 in version 2.  False on a bad number. */
static bool graph_fields(const struct rec_state *st, char **f, int n, uint64_t *node)
{
	uint64_t graph;

	*node = 0;
	return st->version < 3 || (parse_u64(f[n - 2], &graph) && graph <= UINT32_MAX && parse_u64(f[n - 1], node));
}

static int parse_memcpy(struct rec_state *st, char **f, int n, const char *where, gp_error *err)
{
	uint64_t v[11], node;
	int64_t src, dst;
	int want = st->version >= 3 ? 16 : 14, rc;

	if (n != want)
		return gp_err(err, GP_ERR_CORRUPT, "%s: memcpy has %d fields, expected %d", where, n, want);
	if (!parse_u64s(f, 1, 12, v) || !parse_i64(f[12], &src) || !parse_i64(f[13], &dst) ||
	    !graph_fields(st, f, n, &node) ||
	    v[2] > INT32_MAX || !fits_u32(v + 3, 2) || v[6] >= GP_COPY__COUNT || v[9] > 1 ||
	    src < -1 || src > INT32_MAX || dst < -1 || dst > INT32_MAX)
		return gp_err(err, GP_ERR_CORRUPT, "%s: bad number in a memcpy", where);
	if ((rc = check_times(v[0], v[1], "memcpy", where, err)))
		return rc;
	struct gp_memcpy *m = gp_vec_push(st->t->memcpys);
	m->start = (gp_ns)v[0];
	m->end = (gp_ns)v[1];
	m->device = (int32_t)v[2];
	m->context = (uint32_t)v[3];
	m->stream = (uint32_t)v[4];
	m->corr = v[5];
	m->copy_kind = (uint8_t)v[6];
	if (!mem_kind(v[7], &m->src_kind) || !mem_kind(v[8], &m->dst_kind)) {
		st->t->memcpys.n--;
		return gp_err(err, GP_ERR_CORRUPT, "%s: unknown memory kind in a memcpy", where);
	}
	m->async = v[9] != 0;
	m->bytes = v[10];
	m->src_device = (int32_t)src;
	m->dst_device = (int32_t)dst;
	m->graph_node = node;
	m->pid = st->pid;
	return GP_OK;
}

static int parse_memset(struct rec_state *st, char **f, int n, const char *where, gp_error *err)
{
	uint64_t v[9], node;
	int want = st->version >= 3 ? 12 : 10, rc;

	if (n != want)
		return gp_err(err, GP_ERR_CORRUPT, "%s: memset has %d fields, expected %d", where, n, want);
	if (!parse_u64s(f, 1, 10, v) || v[2] > INT32_MAX || !fits_u32(v + 3, 2) || !fits_u32(v + 7, 1) ||
	    v[8] >= GP_MEM__COUNT || !graph_fields(st, f, n, &node))
		return gp_err(err, GP_ERR_CORRUPT, "%s: bad number in a memset", where);
	if ((rc = check_times(v[0], v[1], "memset", where, err)))
		return rc;
	struct gp_memset *m = gp_vec_push(st->t->memsets);
	m->start = (gp_ns)v[0];
	m->end = (gp_ns)v[1];
	m->device = (int32_t)v[2];
	m->context = (uint32_t)v[3];
	m->stream = (uint32_t)v[4];
	m->corr = v[5];
	m->bytes = v[6];
	m->value = (uint32_t)v[7];
	m->mem_kind = (uint8_t)v[8];
	m->graph_node = node;
	m->pid = st->pid;
	return GP_OK;
}

static int parse_api(struct rec_state *st, char **f, int n, const char *where, gp_error *err)
{
	uint64_t v[6];
	const char *name;
	char buf[64];
	int kind, rc;

	if (n != 8)
		return gp_err(err, GP_ERR_CORRUPT, "%s: api has %d fields, expected 8", where, n);
	if (strcmp(f[1], "runtime") == 0)
		kind = GP_API_RUNTIME;
	else if (strcmp(f[1], "driver") == 0)
		kind = GP_API_DRIVER;
	else
		return gp_err(err, GP_ERR_CORRUPT, "%s: api kind '%.40s' is not runtime or driver", where, f[1]);
	if (!parse_u64s(f, 2, 8, v) || !fits_u32(v + 2, 1) || v[4] > INT32_MAX || v[5] > UINT32_MAX)
		return gp_err(err, GP_ERR_CORRUPT, "%s: bad number in an api call", where);
	if ((rc = check_times(v[0], v[1], "api call", where, err)))
		return rc;
	name = kind == GP_API_RUNTIME ? gp_cupti_runtime_name((int)v[4]) : gp_cupti_driver_name((int)v[4]);
	if (!name) {
		snprintf(buf, sizeof(buf), "%s cbid %" PRIu64, f[1], v[4]);
		name = buf;
	}
	struct gp_api *a = gp_vec_push(st->t->apis);
	a->start = (gp_ns)v[0];
	a->end = (gp_ns)v[1];
	a->tid = (uint32_t)v[2];
	a->corr = v[3];
	a->pid = st->pid;
	a->def = gp_api_def_add(st->t, &(struct gp_api_def){
		.name = gp_intern(st->t, name),
		.cbid = (int32_t)v[4],
		.ret = (int32_t)(uint32_t)v[5],
		.kind = (uint32_t)kind,
	});
	return GP_OK;
}

static int parse_sync(struct rec_state *st, char **f, int n, const char *where, gp_error *err)
{
	uint64_t v[7];
	int rc;

	if (n != 8)
		return gp_err(err, GP_ERR_CORRUPT, "%s: sync has %d fields, expected 8", where, n);
	if (!parse_u64s(f, 1, 8, v) || !fits_u32(v + 2, 2) || v[5] >= GP_SYNC__COUNT || v[6] > UINT32_MAX)
		return gp_err(err, GP_ERR_CORRUPT, "%s: bad number in a sync", where);
	if ((rc = check_times(v[0], v[1], "sync", where, err)))
		return rc;
	struct gp_sync *y = gp_vec_push(st->t->syncs);
	y->start = (gp_ns)v[0];
	y->end = (gp_ns)v[1];
	y->context = (uint32_t)v[2];
	y->stream = (uint32_t)v[3];
	y->corr = v[4];
	y->kind = (uint8_t)v[5];
	y->event_id = v[6];
	y->device = -1;   /* CUPTI's sync record names the context, not the device */
	y->pid = st->pid;
	return GP_OK;
}

/* A cudaEventRecord: the stream its event was recorded on (its call has
** the time). */
static int parse_event(struct rec_state *st, char **f, int n, const char *where, gp_error *err)
{
	uint64_t v[5];

	if (n != 6)
		return gp_err(err, GP_ERR_CORRUPT, "%s: event has %d fields, expected 6", where, n);
	if (!parse_u64s(f, 1, 6, v) || v[2] > INT32_MAX || !fits_u32(v + 3, 2))
		return gp_err(err, GP_ERR_CORRUPT, "%s: bad number in an event", where);
	struct gp_event_record *e = gp_vec_push(st->t->event_records);
	e->corr = v[0];
	e->event_id = v[1];
	e->device = (int32_t)v[2];
	e->stream = (uint32_t)v[4];
	e->pid = st->pid;
	return GP_OK;
}

/* A CUDA graph launch (--cuda-graph-trace graph): one whole-graph record
** ("[CUDA graph N]", GP_KDEF_WHOLE_GRAPH), the GPU busy time of all its
** nodes, which the recording does not hold one by one. */
static int parse_graph(struct rec_state *st, char **f, int n, const char *where, gp_error *err)
{
	uint64_t v[7];
	char name[64];
	int rc;

	if (n != 8)
		return gp_err(err, GP_ERR_CORRUPT, "%s: graph has %d fields, expected 8", where, n);
	if (!parse_u64s(f, 1, 8, v) || v[2] > INT32_MAX || !fits_u32(v + 3, 2) || !fits_u32(v + 6, 1))
		return gp_err(err, GP_ERR_CORRUPT, "%s: bad number in a graph launch", where);
	if ((rc = check_times(v[0], v[1], "graph launch", where, err)))
		return rc;
	struct gp_kernel *k = gp_vec_push(st->t->kernels);
	struct gp_kernel_def d = {
		.device = (int32_t)v[2],
		.context = (uint32_t)v[3],
		.pid = st->pid,
		.graph_id = (uint32_t)v[6],
		.flags = GP_KDEF_WHOLE_GRAPH,
	};
	k->start = (gp_ns)v[0];
	k->end = (gp_ns)v[1];
	k->stream = (uint32_t)v[4];
	k->corr = v[5];
	snprintf(name, sizeof(name), "[CUDA graph %" PRIu32 "]", d.graph_id);
	d.name = d.demangled = gp_intern(st->t, name);
	k->def = gp_kernel_def_add(st->t, &d);
	st->graphs++;
	return GP_OK;
}

/* A CUDA graph node made (ORIGINAL 0) or cloned (version 3): a graph node
** event of the trace, at a moment on a thread.  Node 0 names nothing. */
static int parse_gnode(struct rec_state *st, char **f, int n, const char *where, gp_error *err)
{
	uint64_t v[6];

	if (n != 7)
		return gp_err(err, GP_ERR_CORRUPT, "%s: gnode has %d fields, expected 7", where, n);
	if (!parse_u64s(f, 1, 7, v) || v[0] > INT64_MAX || !fits_u32(v + 1, 2) || v[3] == 0 ||
	    v[5] > UINT32_MAX)
		return gp_err(err, GP_ERR_CORRUPT, "%s: bad number in a graph node", where);
	struct gp_graph_node *g = gp_vec_push(st->t->graph_nodes);
	g->start = g->end = (gp_ns)v[0];
	g->tid = (uint32_t)v[1];
	g->node = v[3];
	g->original = v[4];
	g->pid = st->pid;
	return GP_OK;
}

/* An executable graph instantiated (version 3): counted. */
static int parse_gexec(struct rec_state *st, char **f, int n, const char *where, gp_error *err)
{
	uint64_t v[4];

	if (n != 5)
		return gp_err(err, GP_ERR_CORRUPT, "%s: gexec has %d fields, expected 5", where, n);
	if (!parse_u64s(f, 1, 5, v) || v[0] > INT64_MAX || !fits_u32(v + 1, 3))
		return gp_err(err, GP_ERR_CORRUPT, "%s: bad number in an executable graph", where);
	st->graph_execs++;
	return GP_OK;
}

static int parse_overhead(struct rec_state *st, char **f, int n, const char *where, gp_error *err)
{
	uint64_t start, end;
	int rc;

	if (n != 4 || !parse_u64(f[2], &start) || !parse_u64(f[3], &end))
		return gp_err(err, GP_ERR_CORRUPT, "%s: bad overhead line", where);
	if ((rc = check_times(start, end, "overhead", where, err)))
		return rc;
	st->overhead_ns += end - start;
	return GP_OK;
}

static int parse_dropped(struct rec_state *st, char **f, int n, const char *where, gp_error *err)
{
	uint64_t count;

	if (n != 3 || !parse_u64(f[1], &count))
		return gp_err(err, GP_ERR_CORRUPT, "%s: bad dropped line", where);
	for (size_t i = 0; i < sizeof(dropped_reasons) / sizeof(dropped_reasons[0]); i++)
		if (strcmp(f[2], dropped_reasons[i]) == 0) {
			st->dropped[i] += count;
			return GP_OK;
		}
	return GP_OK;   /* a reason from a later minor version */
}

/* Remembers where the model stands: a truncated file is cut back here. */
static void mark_chunk(struct rec_state *st, uint64_t lineno)
{
	gp_trace *t = st->t;

	st->mark = (struct chunk_mark){
		.kernels = t->kernels.n, .apis = t->apis.n, .memcpys = t->memcpys.n,
		.memsets = t->memsets.n, .syncs = t->syncs.n, .event_records = t->event_records.n,
		.ranges = t->ranges.n,
		.devices = t->devices.n, .threads = t->threads.n, .warnings = t->warnings.n,
		.graph_nodes = t->graph_nodes.n, .nranges = st->nranges,
		.graphs = st->graphs, .graph_execs = st->graph_execs, .overhead_ns = st->overhead_ns, .lineno = lineno,
	};
	memcpy(st->mark.dropped, st->dropped, sizeof(st->dropped));
}

static void cut_to_mark(struct rec_state *st)
{
	gp_trace *t = st->t;

	t->kernels.n = st->mark.kernels;
	t->apis.n = st->mark.apis;
	t->memcpys.n = st->mark.memcpys;
	t->memsets.n = st->mark.memsets;
	t->syncs.n = st->mark.syncs;
	t->event_records.n = st->mark.event_records;
	t->ranges.n = st->mark.ranges;
	t->devices.n = st->mark.devices;
	t->threads.n = st->mark.threads;
	t->warnings.n = st->mark.warnings;
	t->graph_nodes.n = st->mark.graph_nodes;
	st->nranges = st->mark.nranges;
	st->graphs = st->mark.graphs;
	st->graph_execs = st->mark.graph_execs;
	st->overhead_ns = st->mark.overhead_ns;
	memcpy(st->dropped, st->mark.dropped, sizeof(st->dropped));
}

static int parse_chunk(struct rec_state *st, char **f, int n, uint64_t lineno, const char *where,
		       gp_error *err)
{
	uint64_t count;

	if (n != 2 || !parse_u64(f[1], &count))
		return gp_err(err, GP_ERR_CORRUPT, "%s: bad chunk line", where);
	if (count != st->lines_in_chunk)
		return gp_err(err, GP_ERR_CORRUPT,
			      "%s: the chunk line counts %" PRIu64 " lines, the chunk holds %" PRIu64,
			      where, count, st->lines_in_chunk);
	st->lines_in_chunk = 0;
	mark_chunk(st, lineno);
	return GP_OK;
}

/* The version 2 counts as metadata, for `info`; the threads that made API
** calls (a "thread" line names only those NVTX named). */
static void finish_v2(struct rec_state *st)
{
	gp_trace *t = st->t;
	gp_u64map seen = {0};
	char v[32];

	for (size_t i = 0; i < t->threads.n; i++)
		gp_u64map_add(&seen, t->threads.v[i].tid, 0);
	for (size_t i = 0; i < t->apis.n; i++)
		if (t->apis.v[i].tid && gp_u64map_get(&seen, t->apis.v[i].tid) < 0) {
			gp_u64map_put(&seen, t->apis.v[i].tid, 0);
			*gp_vec_push(t->threads) = (struct gp_thread){.pid = st->pid, .tid = t->apis.v[i].tid};
		}
	gp_u64map_free(&seen);

	for (size_t i = 0; i < sizeof(dropped_keys) / sizeof(dropped_keys[0]); i++) {
		snprintf(v, sizeof(v), "%" PRIu64, st->dropped[i]);
		if (st->dropped[i] || i == 0)
			gp_trace_meta_set(st->t, dropped_keys[i], v);
	}
	if (st->dropped[0])
		gp_trace_warn(st->t, "CUPTI dropped %" PRIu64 " records (no buffer to put them in)",
			      st->dropped[0]);
	if (st->dropped[1])
		gp_trace_warn(st->t, "%" PRIu64 " GPU records had no timestamps (CUPTI's device "
			      "buffers ran out) and were left out", st->dropped[1]);
	if (st->graphs) {
		snprintf(v, sizeof(v), "%" PRIu64, st->graphs);
		gp_trace_meta_set(st->t, "cuda_graph_launches", v);
		gp_trace_warn(st->t, "%" PRIu64 " CUDA graph launches were recorded as whole graphs "
			      "(--cuda-graph-trace graph): each is one \"[CUDA graph N]\" kernel; record "
			      "with --cuda-graph-trace node (the default) to see their kernels", st->graphs);
	}
	if (st->graph_execs) {
		snprintf(v, sizeof(v), "%" PRIu64, st->graph_execs);
		gp_trace_meta_set(st->t, "cuda_graphs_instantiated", v);
	}
	snprintf(v, sizeof(v), "%" PRIu64, st->overhead_ns);
	gp_trace_meta_set(st->t, "cupti_overhead_ns", v);
}

/* A note the collector wrote (no GPU, CUPTI in use, ...): a trace warning. */
static int parse_note(struct rec_state *st, char **f, int n, const char *where, gp_error *err)
{
	if (n != 2 || !unescape(f[1]))
		return gp_err(err, GP_ERR_CORRUPT, "%s: bad note line", where);
	gp_trace_warn(st->t, "%s", f[1]);
	return GP_OK;
}

/* The version 2 and 3 record types; *known = false for another first
** field (version 3's in a version 2 file: a later minor addition). */
static int parse_v2(struct rec_state *st, char **f, int n, uint64_t lineno, const char *where,
		    gp_error *err, bool *known)
{
	static const struct {
		const char *name;
		int (*parse)(struct rec_state *, char **, int, const char *, gp_error *);
	} types[] = {
		{"kernel", parse_kernel}, {"api", parse_api}, {"memcpy", parse_memcpy},
		{"memset", parse_memset}, {"sync", parse_sync}, {"device", parse_device},
		{"graph", parse_graph}, {"event", parse_event}, {"overhead", parse_overhead}, {"dropped", parse_dropped},
		{"note", parse_note}, {"gnode", parse_gnode}, {"gexec", parse_gexec},
	};
	size_t ntypes = sizeof(types) / sizeof(types[0]) - (st->version < 3 ? 2 : 0);

	*known = true;
	for (size_t i = 0; i < ntypes; i++)
		if (strcmp(f[0], types[i].name) == 0)
			return types[i].parse(st, f, n, where, err);
	if (strcmp(f[0], "chunk") == 0)
		return parse_chunk(st, f, n, lineno, where, err);
	*known = false;
	return GP_OK;
}

/* One line (without its newline). */
static int parse_line(struct rec_state *st, char *line, uint64_t lineno, const char *where, gp_error *err)
{
	char *f[MAX_FIELDS];
	int n = split(line, f, MAX_FIELDS);
	bool known;
	int rc;

	if (st->ended)
		return gp_err(err, GP_ERR_CORRUPT, "%s: data after the end line", where);
	if (st->version >= 2 && strcmp(f[0], "end") != 0) {
		if (strcmp(f[0], "chunk") != 0)
			st->lines_in_chunk++;
		rc = parse_v2(st, f, n, lineno, where, err, &known);
		if (known || rc)
			return rc;
	}
	if (strcmp(f[0], "range") == 0)
		return parse_range(st, f, n, where, err);
	if (strcmp(f[0], "timer") == 0)
		return parse_timer(st, f, n, where, err);
	if (strcmp(f[0], "meta") == 0) {
		if (n != 3 || !unescape(f[1]) || !unescape(f[2]))
			return gp_err(err, GP_ERR_CORRUPT, "%s: bad meta line", where);
		if (strcmp(f[1], "pid") == 0 && !parse_u32(f[2], &st->pid, 10))
			return gp_err(err, GP_ERR_CORRUPT, "%s: bad pid '%.40s'", where, f[2]);
		if (strcmp(f[1], "lib_version") == 0 || strcmp(f[1], "collector_version") == 0) {
			char v[128];
			snprintf(v, sizeof(v), "%s %.100s",
				 f[1][0] == 'l' ? "libgpuprof" : "gpuprof record", f[2]);
			st->t->tool_version = gp_intern(st->t, v);
		}
		gp_trace_meta_set(st->t, f[1], f[2]);
		if (strcmp(f[1], "cmdline") == 0 && st->pid) {
			struct gp_process *p = gp_vec_push(st->t->processes);
			p->pid = st->pid;
			p->name = gp_intern(st->t, f[2]);
		}
		return GP_OK;
	}
	if (strcmp(f[0], "thread") == 0) {
		struct gp_thread th = {.pid = st->pid};
		if (n != 3 || !parse_u32(f[1], &th.tid, 10) || !unescape(f[2]))
			return gp_err(err, GP_ERR_CORRUPT, "%s: bad thread line", where);
		th.name = gp_intern(st->t, f[2]);
		*gp_vec_push(st->t->threads) = th;
		return GP_OK;
	}
	if (strcmp(f[0], "end") == 0) {
		int64_t nr, nt;
		if (n != 3 || !parse_i64(f[1], &nr) || !parse_i64(f[2], &nt))
			return gp_err(err, GP_ERR_CORRUPT, "%s: bad end line", where);
		if ((uint64_t)nr != st->nranges || (uint64_t)nt != st->ntimers)
			return gp_err(err, GP_ERR_CORRUPT,
				      "%s: the end line counts %" PRId64 " ranges and %" PRId64
				      " timers, the file holds %" PRIu64 " and %" PRIu64,
				      where, nr, nt, st->nranges, st->ntimers);
		st->ended = true;
		return GP_OK;
	}
	return GP_OK;   /* a record type from a later minor version */
}

/* Reads the next line of z into *buf (grown as needed), without the
** newline; *complete says whether it had one.  Returns 1, 0 at end of
** file, -1 on a read error. */
static int read_line(gzFile z, char **buf, size_t *cap, size_t *len, bool *complete)
{
	size_t n = 0;

	*complete = false;
	for (;;) {
		if (*cap - n < 2) {
			*cap = *cap ? *cap * 2 : 4096;
			*buf = gp_xrealloc(*buf, *cap);
		}
		if (!gzgets(z, *buf + n, (int)(*cap - n > INT32_MAX ? INT32_MAX : *cap - n))) {
			int e;
			gzerror(z, &e);
			if (e != Z_OK && e != Z_STREAM_END)
				return -1;
			*len = n;
			return n > 0;
		}
		n += strlen(*buf + n);
		if (n && (*buf)[n - 1] == '\n') {
			(*buf)[--n] = '\0';
			*len = n;
			*complete = true;
			return 1;
		}
		if (gzeof(z)) {
			*len = n;
			return n > 0;
		}
	}
}

/* Writes n in decimal and a NUL at out (room for 21 bytes): the line
** number of every message, without a printf per line. */
static void put_lineno(char *out, uint64_t n)
{
	char tmp[20];
	int k = 0;

	do {
		tmp[k++] = (char)('0' + n % 10);
		n /= 10;
	} while (n);
	while (k)
		*out++ = tmp[--k];
	*out = '\0';
}

/* The magic line: sets st->version (1 to 3). */
static int parse_magic(struct rec_state *st, const char *buf, size_t len, const char *where, gp_error *err)
{
	size_t m = strlen(GPREC_MAGIC);
	int64_t version;

	if (len < m || memcmp(buf, GPREC_MAGIC, m) || !parse_i64(buf + m, &version))
		return gp_err(err, GP_ERR_FORMAT, "%s: not a gpuprof recording", where);
	if (version < GPREC_VERSION || version > GPREC_VERSION_COLLECTOR)
		return gp_err(err, GP_ERR_FORMAT,
			      "%s: recording version %" PRId64 ", this gpuprof reads versions %d to %d",
			      where, version, GPREC_VERSION, GPREC_VERSION_COLLECTOR);
	st->version = (int)version;
	return GP_OK;
}

static int load(const char *path, gp_trace *t, const struct gp_load_opts *o, gp_error *err)
{
	struct rec_state st = {.t = t};
	gzFile z = gzopen(path, "rb");
	char *buf = NULL, where[1200];
	size_t cap = 0, len, prefix;
	uint64_t lineno = 0;
	bool complete;
	int rc = GP_OK, r;

	if (!z)
		return gp_err(err, GP_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
	snprintf(where, sizeof(where) - 24, "%s: line ", path);
	prefix = strlen(where);
	while ((r = read_line(z, &buf, &cap, &len, &complete)) > 0) {
		lineno++;
		put_lineno(where + prefix, lineno);
		if (memchr(buf, '\0', len)) {
			rc = gp_err(err, GP_ERR_CORRUPT, "%s: NUL byte in the text", where);
			break;
		}
		if (lineno == 1) {
			if ((rc = parse_magic(&st, buf, len, where, err)))
				break;
			continue;
		}
		if (st.version >= 2 && !complete)
			break;   /* cut mid-line by the crash: part of the truncated tail */
		rc = parse_line(&st, buf, lineno, where, err);
		if (rc)
			break;
		if (o && o->progress && lineno % 65536 == 0)
			o->progress(o->progress_ctx, (uint64_t)gzoffset(z), 0);
	}
	if (!rc && r < 0)
		rc = gp_err(err, GP_ERR_IO, "%s: read error after line %" PRIu64, path, lineno);
	if (!rc && !st.ended && st.version >= 2 && st.mark.lineno) {
		uint64_t left = lineno - st.mark.lineno;
		cut_to_mark(&st);
		gp_trace_warn(t, "recording truncated (the program ended before the collector did, "
			      "e.g. it crashed): read up to its last complete chunk at line %" PRIu64
			      ", %" PRIu64 " line(s) after it left out", st.mark.lineno, left);
	} else if (!rc && !st.ended) {
		rc = gp_err(err, GP_ERR_CORRUPT, "%s: truncated: no end line after line %" PRIu64,
			    path, lineno);
	}
	if (!rc && st.version >= 2)
		finish_v2(&st);
	gp_u64map_free(&st.kernel_names);
	free(st.names.v);
	free(buf);
	gzclose(z);
	return rc;
}
const struct gp_reader gp_reader_gprec = {
	.name = "gpuprof-rec",
	.description = "gpuprof recording (libgpuprof's GPUPROF_RECORD, gpuprof record)",
	.probe = probe,
	.load = load,
};
