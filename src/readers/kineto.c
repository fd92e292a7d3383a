/*
** Reader: PyTorch profiler (Kineto) JSON trace, .json or .json.gz, both the
** current format (cpu_op, cuda_runtime, kernel, gpu_memcpy...;
** baseTimeNanoseconds) and the 2021 one (Operator, Runtime, Kernel...;
** absolute microseconds, string tids, "external id").
**
** One streaming pass with yajl over 256 KiB chunks: no DOM, memory grows
** with the records kept, not with the file.  Large plain files are parsed
** in parts on several threads and merged into the trace one pass would
** give; gzip files are inflated on a second thread (see "threads" below).  A small state machine keyed on
** the container path (top level, traceEvents[], event, event.args, ...)
** fills one event at a time and turns it into a model record when its
** object closes.  Numbers arrive as raw text so ids above INT64_MAX and
** microsecond timestamps with fractions convert to integer nanoseconds
** without going through a double.  docs/kineto.md has the field mapping.
*/
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yajl/yajl_parse.h>
#include <zlib.h>

#include "util/demangle.h"
#include "util/u64map.h"
#include "readers/kineto.h"
#include "readers/reader.h"

#define CHUNK (256 * 1024)
#define MAX_DEPTH 128
#define MAX_SYNTH_IDS 4096
#define MAX_PARTS 16          /* most threads a plain file is parsed on */

/* What the container at one depth is. */
enum ctx {
	C_NONE,      /* outside any container */
	C_TOP,       /* the top-level object */
	C_EVENTS,    /* traceEvents (or a bare top-level array) */
	C_EVENT,     /* one event object */
	C_ARGS,      /* event.args */
	C_DIM3,      /* args.grid / args.block */
	C_CAPTURE,   /* a value kept as raw JSON text (Input Dims ...) */
	C_DEVPROPS,  /* deviceProperties */
	C_DEVICE,    /* one deviceProperties entry */
	C_DIST,      /* distributedInfo */
	C_SKIP,      /* anything we do not read */
};

/* Keys we act on; K_NONE for every other key. */
enum key {
	K_NONE,
	/* top level */
	K_TRACE_EVENTS, K_BASE_TIME, K_DEVPROPS, K_DIST, K_META,
	/* event */
	K_NAME, K_CAT, K_PH, K_TS, K_DUR, K_PID, K_TID, K_ID, K_ARGS,
	/* args */
	K_DEVICE, K_CONTEXT, K_STREAM, K_CORR, K_EXT_ID, K_REGS, K_SMEM, K_GRID,
	K_BLOCK, K_BYTES, K_CBID, K_SEQ, K_FWD_TID, K_INPUT_DIMS, K_INPUT_TYPES,
	K_CONCRETE, K_CALL_STACK, K_GRAPH_ID, K_GRAPH_NODE, K_ARG_NAME,
	K_WAIT_EVENT,
	/* deviceProperties entry */
	K_DEV_ID, K_DEV_NAME, K_DEV_MEM, K_DEV_MAJOR, K_DEV_MINOR, K_DEV_SMS,
	/* distributedInfo */
	K_RANK, K_WORLD, K_BACKEND, K_NCCL, K_PG_COUNT,
};

struct keydef {
	const char *s;
	uint8_t len;
	uint8_t key;
	const char *meta;   /* K_META: the gp_meta key it becomes */
};

#define KD(s, key, meta) {s, sizeof(s) - 1, key, meta}

static const struct keydef top_keys[] = {
	KD("traceEvents", K_TRACE_EVENTS, NULL),
	KD("baseTimeNanoseconds", K_BASE_TIME, NULL),
	KD("deviceProperties", K_DEVPROPS, NULL),
	KD("distributedInfo", K_DIST, NULL),
	KD("schemaVersion", K_META, "schema_version"),
	KD("cupti_version", K_META, "cupti_version"),
	KD("cuda_runtime_version", K_META, "cuda_runtime_version"),
	KD("cuda_driver_version", K_META, "cuda_driver_version"),
	KD("hip_runtime_version", K_META, "hip_runtime_version"),
	KD("roctracer_version", K_META, "roctracer_version"),
	KD("pytorch_version", K_META, "pytorch_version"),
	KD("torch_version", K_META, "pytorch_version"),
	KD("trace_id", K_META, "trace_id"),
	KD("traceName", K_META, "trace_name"),
	KD("displayTimeUnit", K_META, "display_time_unit"),
	KD("record_shapes", K_META, "record_shapes"),
	KD("profile_memory", K_META, "profile_memory"),
	KD("with_stack", K_META, "with_stack"),
	KD("with_flops", K_META, "with_flops"),
	KD("with_modules", K_META, "with_modules"),
	KD("host_name", K_META, "host_name"),
	{NULL, 0, 0, NULL},
};

/* The event keys, by hand: they are looked up a dozen times per event. */
static uint8_t event_key(const char *s, size_t n)
{
	switch (n) {
	case 2:
		if (s[0] == 'p' && s[1] == 'h') return K_PH;
		if (s[0] == 't' && s[1] == 's') return K_TS;
		if (s[0] == 'i' && s[1] == 'd') return K_ID;
		return K_NONE;
	case 3:
		if (memcmp(s, "cat", 3) == 0) return K_CAT;
		if (memcmp(s, "dur", 3) == 0) return K_DUR;
		if (memcmp(s, "pid", 3) == 0) return K_PID;
		if (memcmp(s, "tid", 3) == 0) return K_TID;
		return K_NONE;
	case 4:
		if (memcmp(s, "name", 4) == 0) return K_NAME;
		if (memcmp(s, "args", 4) == 0) return K_ARGS;
		return K_NONE;
	}
	return K_NONE;
}

/* The args keys, by hand too: every event has several, most of them keys
** we do not read ("Record function id", occupancy figures), which a switch
** on the length rejects at once. */
static uint8_t arg_key(const char *s, size_t n)
{
#define IS(lit) (memcmp(s, lit, n) == 0)
	switch (n) {
	case 4:
		return IS("grid") ? K_GRID : IS("cbid") ? K_CBID : IS("name") ? K_ARG_NAME : K_NONE;
	case 5:
		return IS("block") ? K_BLOCK : IS("bytes") ? K_BYTES : K_NONE;
	case 6:
		return IS("device") ? K_DEVICE : IS("stream") ? K_STREAM : K_NONE;
	case 7:
		return IS("context") ? K_CONTEXT : K_NONE;
	case 8:
		return IS("graph id") ? K_GRAPH_ID : K_NONE;
	case 10:
		return IS("Input Dims") || IS("Input dims") ? K_INPUT_DIMS
		     : IS("Input type") ? K_INPUT_TYPES : IS("Call stack") ? K_CALL_STACK : K_NONE;
	case 11:
		return IS("correlation") ? K_CORR : IS("External id") || IS("external id") ? K_EXT_ID
		     : K_NONE;
	case 13:
		return IS("shared memory") ? K_SMEM : IS("Fwd thread id") ? K_FWD_TID
		     : IS("graph node id") ? K_GRAPH_NODE : K_NONE;
	case 15:
		return IS("Sequence number") ? K_SEQ : IS("Concrete Inputs") ? K_CONCRETE : K_NONE;
	case 20:
		return IS("registers per thread") ? K_REGS : K_NONE;
	case 21:
		return IS("wait_on_cuda_event_id") ? K_WAIT_EVENT : K_NONE;
	}
	return K_NONE;
#undef IS
}

static const struct keydef device_keys[] = {
	KD("id", K_DEV_ID, NULL), KD("name", K_DEV_NAME, NULL),
	KD("totalGlobalMem", K_DEV_MEM, NULL), KD("computeMajor", K_DEV_MAJOR, NULL),
	KD("computeMinor", K_DEV_MINOR, NULL), KD("numSms", K_DEV_SMS, NULL),
	{NULL, 0, 0, NULL},
};

static const struct keydef dist_keys[] = {
	KD("rank", K_RANK, "rank"), KD("world_size", K_WORLD, "world_size"),
	KD("backend", K_BACKEND, "dist_backend"), KD("nccl_version", K_NCCL, "nccl_version"),
	KD("pg_count", K_PG_COUNT, "pg_count"),
	{NULL, 0, 0, NULL},
};

/* Event categories, old and new spellings folded together. */
enum cat {
	CAT_NONE, CAT_KERNEL, CAT_MEMCPY, CAT_MEMSET, CAT_RUNTIME, CAT_DRIVER,
	CAT_OLD_RUNTIME, CAT_CPU_OP, CAT_USER_ANNOT, CAT_GPU_ANNOT, CAT_PYTHON,
	CAT_SYNC, CAT_MTIA_RUNTIME, CAT_FWDBWD, CAT_IGNORED, CAT_OTHER,
};

static const struct {
	const char *s;
	uint8_t cat;
	uint8_t len;
} cat_names[] = {
	{"kernel", CAT_KERNEL, 6}, {"Kernel", CAT_KERNEL, 6},
	{"gpu_memcpy", CAT_MEMCPY, 10}, {"Memcpy", CAT_MEMCPY, 6},
	{"gpu_memset", CAT_MEMSET, 10}, {"Memset", CAT_MEMSET, 6},
	{"cuda_runtime", CAT_RUNTIME, 12}, {"cuda_driver", CAT_DRIVER, 11},
	{"Runtime", CAT_OLD_RUNTIME, 7},
	{"cpu_op", CAT_CPU_OP, 6}, {"Operator", CAT_CPU_OP, 8},
	{"user_annotation", CAT_USER_ANNOT, 15}, {"gpu_user_annotation", CAT_GPU_ANNOT, 19},
	{"python_function", CAT_PYTHON, 15}, {"cuda_sync", CAT_SYNC, 9},
	{"mtia_runtime", CAT_MTIA_RUNTIME, 12}, {"fwdbwd", CAT_FWDBWD, 6},
	/* read and deliberately not kept: flows duplicating args.correlation,
	** the profiler's own span, memory instants, HTA overlays */
	{"ac2g", CAT_IGNORED, 4}, {"async", CAT_IGNORED, 5}, {"async_gpu", CAT_IGNORED, 9},
	{"async_cpu_to_gpu", CAT_IGNORED, 16}, {"Trace", CAT_IGNORED, 5},
	{"cpu_instant_event", CAT_IGNORED, 17}, {"[memory]", CAT_IGNORED, 8},
	{"overhead", CAT_IGNORED, 8},
	{NULL, 0, 0},
};

/* Which args fields the current event had. */
enum {
	H_DEVICE = 1 << 0, H_CONTEXT = 1 << 1, H_STREAM = 1 << 2, H_CORR = 1 << 3,
	H_SEQ = 1 << 4, H_FWD_TID = 1 << 5, H_GRID = 1 << 6, H_TS = 1 << 7,
	H_DUR = 1 << 8, H_PID = 1 << 9, H_TID = 1 << 10, H_ID = 1 << 11,
};

/* The event being read. */
struct event {
	char ph;
	uint8_t cat;
	uint32_t have;
	char *name;
	size_t name_len, name_cap;
	char cat_text[48];        /* for naming unknown categories */
	int64_t ts, dur;          /* ns, relative to the base time */
	uint32_t pid, tid;
	uint64_t id;
	int64_t device, context, stream, cbid, seq;
	uint64_t corr, ext_id, regs, smem, bytes, graph_id, graph_node, fwd_tid, wait_event;
	uint32_t grid[3], block[3];
	gp_str input_dims, input_types, concrete, call_stack, arg_name;
};

/* A fwdbwd flow endpoint, resolved to op ranges after the parse. */
struct flow_end {
	uint64_t id;
	int64_t ts;
	uint32_t pid, tid;
	bool start;
};

/* A growable byte buffer. */
struct buf {
	char *s;
	size_t n, cap;
};

/* Counted categories we do not read, for the notes. */
struct skipped_cat {
	char name[48];
	uint64_t count;
};

struct kp {
	gp_trace *t;
	const char *path;
	gp_error *err;
	bool failed;

	int depth;
	uint8_t ctx[MAX_DEPTH + 1];
	uint8_t key[MAX_DEPTH + 1];
	const char *meta_key[MAX_DEPTH + 1];
	int dim_idx;

	/* raw capture of one args value */
	struct buf cap;
	int cap_depth;            /* depth of the captured container */
	uint8_t cap_key;
	bool cap_comma[MAX_DEPTH + 1];

	struct event ev;
	uint64_t nevents;         /* events opened so far */
	bool seen_events;         /* traceEvents found */
	bool top_is_array;
	int64_t base_ns;
	bool base_set;            /* baseTimeNanoseconds was read */

	gp_u64map short_names;    /* kernel name -> its short name (gp_str) */
	gp_str name_cache[256];   /* recent names, by a cheap hash: skips FNV */
	GP_VEC(struct flow_end) flows;
	GP_VEC(struct skipped_cat) skipped;
	char synth[MAX_SYNTH_IDS][40];  /* string pid/tid -> synthetic id */
	int nsynth;

	uint64_t no_ts, neg_dur, no_launch_cfg, hip_apis;
};

/* ---- small helpers ---- */

static void buf_add(struct buf *b, const char *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		b->cap = (b->n + n + 1) * 2;
		b->s = gp_xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = '\0';
}

static void buf_add_json_string(struct buf *b, const char *s, size_t n)
{
	buf_add(b, "\"", 1);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		char esc[8];
		if (c == '"' || c == '\\') {
			esc[0] = '\\';
			esc[1] = (char)c;
			buf_add(b, esc, 2);
		} else if (c < 0x20) {
			snprintf(esc, sizeof(esc), "\\u%04x", c);
			buf_add(b, esc, 6);
		} else {
			buf_add(b, (const char *)&s[i], 1);
		}
	}
	buf_add(b, "\"", 1);
}

static uint8_t lookup_key(const struct keydef *tab, const char *s, size_t n, const char **meta)
{
	for (int i = 0; tab[i].s; i++)
		if (tab[i].len == n && tab[i].s[0] == s[0] && memcmp(tab[i].s, s, n) == 0) {
			if (meta)
				*meta = tab[i].meta;
			return tab[i].key;
		}
	return K_NONE;
}

/* Sets an error naming the current event; returns 0 so a yajl callback can
** `return fail(...)` to stop the parse. */
static int fail(struct kp *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct kp *p, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (!p->failed) {
		if (p->nevents)
			gp_err(p->err, GP_ERR_CORRUPT, "%s: %s: in event %" PRIu64, p->path, what,
			       p->nevents - 1);
		else
			gp_err(p->err, GP_ERR_CORRUPT, "%s: %s", p->path, what);
	}
	p->failed = true;
	return 0;
}

/* Parses an unsigned decimal integer (a fraction or exponent is truncated
** through strtod).  Returns false for text that is not a number. */
static bool parse_u64(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	size_t i = 0;

	if (n == 0)
		return false;
	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		for (i = 2; i < n; i++) {
			int c = s[i], d;
			if (c >= '0' && c <= '9') d = c - '0';
			else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
			else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
			else return false;
			v = v * 16 + (uint64_t)d;
		}
		*out = v;
		return true;
	}
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
		uint64_t d = (uint64_t)(s[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	if (i == n) {
		*out = v;
		return true;
	}
	char tmp[64], *end;
	if (n >= sizeof(tmp))
		return false;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	double d = strtod(tmp, &end);
	if (*end || !(d >= 0) || d >= 18446744073709551616.0)
		return false;
	*out = (uint64_t)d;
	return true;
}

static bool parse_i64(const char *s, size_t n, int64_t *out)
{
	uint64_t v;

	if (n && s[0] == '-') {
		if (!parse_u64(s + 1, n - 1, &v) || v > (uint64_t)INT64_MAX + 1)
			return false;
		*out = (int64_t)(0 - v);
		return true;
	}
	if (!parse_u64(s, n, &v) || v > (uint64_t)INT64_MAX)
		return false;
	*out = (int64_t)v;
	return true;
}

/* Microseconds as written ("1712195495519689.047", "12", "1.5e3") to
** integer nanoseconds, exactly for plain decimals (rounded half up past the
** third decimal). */
static bool parse_us_as_ns(const char *s, size_t n, int64_t *out)
{
	size_t i = 0;
	bool neg = false;
	uint64_t ip = 0, frac = 0;
	int fd = 0;
	bool round_up = false;

	if (i < n && s[i] == '-') {
		neg = true;
		i++;
	}
	size_t d0 = i;
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
		if (ip > 9223372036854775ULL)   /* ip * 1000 would overflow */
			return false;
		ip = ip * 10 + (uint64_t)(s[i] - '0');
	}
	if (i == d0)
		return false;
	if (i < n && s[i] == '.') {
		i++;
		for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
			if (fd < 3) {
				frac = frac * 10 + (uint64_t)(s[i] - '0');
				fd++;
			} else if (fd == 3) {
				round_up = s[i] >= '5';
				fd++;
			}
		}
	}
	if (i < n) {
		/* exponent form: rare, so a double is fine */
		char tmp[64], *end;
		if (n >= sizeof(tmp))
			return false;
		memcpy(tmp, s, n);
		tmp[n] = '\0';
		double d = strtod(tmp, &end) * 1000.0;
		if (*end || !(d > -9.2e18 && d < 9.2e18))
			return false;
		*out = (int64_t)(d < 0 ? d - 0.5 : d + 0.5);
		return true;
	}
	while (fd < 3) {
		frac *= 10;
		fd++;
	}
	uint64_t v = ip * 1000 + frac + (round_up ? 1 : 0);
	if (v > (uint64_t)INT64_MAX)
		return false;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return true;
}

/* pid/tid as a uint32: numbers (negative ones wrap, as they do in the
** files' own joins), "stream 7" and "25738" strings by their number, other
** strings ("Spans") and out-of-range numbers by a synthetic id from the top
** of the range. */
static uint32_t synth_id(struct kp *p, const char *s, size_t n)
{
	if (n >= sizeof(p->synth[0]))
		n = sizeof(p->synth[0]) - 1;
	for (int i = 0; i < p->nsynth; i++)
		if (strlen(p->synth[i]) == n && memcmp(p->synth[i], s, n) == 0)
			return UINT32_MAX - (uint32_t)i;
	if (p->nsynth == MAX_SYNTH_IDS)
		return UINT32_MAX - MAX_SYNTH_IDS;
	memcpy(p->synth[p->nsynth], s, n);
	p->synth[p->nsynth][n] = '\0';
	return UINT32_MAX - (uint32_t)p->nsynth++;
}

static uint32_t parse_thread_id(struct kp *p, const char *s, size_t n, bool is_string)
{
	int64_t v;
	const char *num = s;
	size_t len = n;

	if (is_string) {
		/* "stream 7", "thread 12": the trailing number */
		const char *sp = memchr(s, ' ', n);
		if (sp) {
			num = sp + 1;
			len = n - (size_t)(num - s);
		}
	}
	if (parse_i64(num, len, &v) && v >= INT32_MIN && v <= (int64_t)UINT32_MAX - MAX_SYNTH_IDS - 1 &&
	    memchr(num, '.', len) == NULL)
		return (uint32_t)v;
	return synth_id(p, s, n);
}

/* Interns s[0..n) through a small direct-mapped cache: event names repeat
** (cudaLaunchKernel, aten::mm, the same kernels), and comparing against the
** cached string is cheaper than hashing a 300-byte kernel name. */
static gp_str intern_cached(struct kp *p, const char *s, size_t n)
{
	unsigned h = (unsigned)n;
	gp_strtab *st = &p->t->strs;

	if (n) {
		h = h * 31 + (unsigned char)s[0];
		h = h * 31 + (unsigned char)s[n / 2];
		h = h * 31 + (unsigned char)s[n - 1];
	}
	gp_str *slot = &p->name_cache[h & 255];
	if (*slot && gp_strtab_len(st, *slot) == n && memcmp(gp_strtab_get(st, *slot), s, n) == 0)
		return *slot;
	*slot = gp_strtab_intern_n(st, s, n);
	return *slot;
}

/* ---- the state machine ---- */

static void event_reset(struct event *e)
{
	char *name = e->name;
	size_t cap = e->name_cap;

	memset(e, 0, sizeof(*e));
	e->name = name;
	e->name_cap = cap;
	e->seq = -1;
	e->device = -1;
	if (!e->name) {
		e->name_cap = 256;
		e->name = gp_xmalloc(e->name_cap);
	}
	e->name[0] = '\0';
}

static void event_set_name(struct event *e, const char *s, size_t n)
{
	if (n + 1 > e->name_cap) {
		e->name_cap = n + 64;
		e->name = gp_xrealloc(e->name, e->name_cap);
	}
	memcpy(e->name, s, n);
	e->name[n] = '\0';
	e->name_len = n;
}

static uint8_t category(const char *s, size_t n)
{
	for (int i = 0; cat_names[i].s; i++)
		if (cat_names[i].len == n && cat_names[i].s[0] == s[0] && memcmp(cat_names[i].s, s, n) == 0)
			return cat_names[i].cat;
	return CAT_OTHER;
}

static void count_skipped(struct kp *p, const char *name)
{
	for (size_t i = 0; i < p->skipped.n; i++)
		if (strcmp(p->skipped.v[i].name, name) == 0) {
			p->skipped.v[i].count++;
			return;
		}
	if (p->skipped.n >= 32)
		return;
	struct skipped_cat *c = gp_vec_push(p->skipped);
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->count = 1;
}

/* "Memcpy HtoD (Pageable -> Device)": copy kind and memory kinds. */
static uint8_t mem_kind_of(const char *s, size_t n)
{
	static const struct { const char *s; uint8_t k; } kinds[] = {
		{"Pageable", GP_MEM_PAGEABLE}, {"Pinned", GP_MEM_PINNED}, {"Device", GP_MEM_DEVICE},
		{"Array", GP_MEM_ARRAY}, {"Managed", GP_MEM_MANAGED}, {NULL, 0},
	};
	for (int i = 0; kinds[i].s; i++)
		if (strlen(kinds[i].s) == n && memcmp(kinds[i].s, s, n) == 0)
			return kinds[i].k;
	return GP_MEM_UNKNOWN;
}

static void parse_memcpy_name(const char *name, struct gp_memcpy *m)
{
	static const struct { const char *s; uint8_t k; } kinds[] = {
		{"HtoD", GP_COPY_HTOD}, {"DtoH", GP_COPY_DTOH}, {"DtoD", GP_COPY_DTOD},
		{"HtoH", GP_COPY_HTOH}, {"PtoP", GP_COPY_PTOP}, {"HtoA", GP_COPY_HTOA},
		{"AtoH", GP_COPY_ATOH}, {"AtoA", GP_COPY_ATOA}, {"AtoD", GP_COPY_ATOD},
		{"DtoA", GP_COPY_DTOA}, {NULL, 0},
	};
	const char *sp = strchr(name, ' ');

	if (sp)
		for (int i = 0; kinds[i].s; i++)
			if (strncmp(sp + 1, kinds[i].s, 4) == 0)
				m->copy_kind = kinds[i].k;
	const char *open = strchr(name, '('), *arrow = strstr(name, " -> ");
	if (open && arrow && arrow > open) {
		m->src_kind = mem_kind_of(open + 1, (size_t)(arrow - open - 1));
		const char *dst = arrow + 4, *close = strchr(dst, ')');
		if (close)
			m->dst_kind = mem_kind_of(dst, (size_t)(close - dst));
	}
}

static uint8_t sync_kind_of(const char *name)
{
	if (strstr(name, "Wait"))
		return GP_SYNC_STREAM_WAIT;
	if (strstr(name, "Event"))
		return GP_SYNC_EVENT;
	if (strstr(name, "Stream"))
		return GP_SYNC_STREAM;
	if (strstr(name, "Context") || strstr(name, "Device"))
		return GP_SYNC_CONTEXT;
	return GP_SYNC_UNKNOWN;
}

static uint32_t gpu_stream(const struct event *e)
{
	return (e->have & H_STREAM) ? (uint32_t)e->stream : e->tid;
}

static int32_t gpu_device(const struct event *e)
{
	return (e->have & H_DEVICE) ? (int32_t)e->device : (int32_t)e->pid;
}

/* Turns the completed event into a record. */
static int event_finish(struct kp *p)
{
	struct event *e = &p->ev;
	gp_trace *t = p->t;

	if (e->ph == 'M') {
		if (!e->arg_name)
			return 1;
		if (strcmp(e->name, "process_name") == 0) {
			struct gp_process *pr = gp_vec_push(t->processes);
			pr->pid = e->pid;
			pr->name = e->arg_name;
		} else if (strcmp(e->name, "thread_name") == 0) {
			struct gp_thread *th = gp_vec_push(t->threads);
			th->pid = e->pid;
			th->tid = e->tid;
			th->name = e->arg_name;
		}
		return 1;
	}
	if (e->cat == CAT_FWDBWD && (e->ph == 's' || e->ph == 'f') && (e->have & H_ID) &&
	    (e->have & H_TS)) {
		struct flow_end *f = gp_vec_push(p->flows);
		f->id = e->id;
		f->ts = e->ts;
		f->pid = e->pid;
		f->tid = e->tid;
		f->start = e->ph == 's';
		return 1;
	}
	if (e->ph != 'X')
		return 1;
	if (e->cat == CAT_IGNORED || e->cat == CAT_NONE)
		return 1;
	if (e->cat == CAT_OTHER) {
		count_skipped(p, e->cat_text);
		return 1;
	}
	if (!(e->have & H_TS)) {
		p->no_ts++;
		return 1;
	}
	if (e->dur < 0) {
		p->neg_dur++;
		e->dur = 0;
	}
	gp_ns start = e->ts, end = e->ts + e->dur;

	switch (e->cat) {
	case CAT_KERNEL: {
		struct gp_kernel *k = gp_vec_push(t->kernels);
		char shortbuf[256];
		k->start = start;
		k->end = end;
		k->corr = e->corr;
		k->ext_id = e->ext_id;
		k->device = gpu_device(e);
		k->stream = gpu_stream(e);
		k->context = (uint32_t)e->context;
		memcpy(k->grid, e->grid, sizeof(k->grid));
		memcpy(k->block, e->block, sizeof(k->block));
		k->regs = (uint32_t)e->regs;
		k->static_smem = (uint32_t)e->smem;  /* Kineto gives the total only */
		k->demangled = intern_cached(p, e->name, e->name_len);
		int32_t sn = gp_u64map_get(&p->short_names, k->demangled);
		if (sn < 0) {
			sn = (int32_t)gp_intern(t, gp_kernel_short_name(e->name, shortbuf, sizeof(shortbuf)));
			gp_u64map_put(&p->short_names, k->demangled, sn);
		}
		k->name = (gp_str)sn;
		k->graph_id = (uint32_t)e->graph_id;
		k->graph_node = e->graph_node;
		if (!(e->have & H_GRID))
			p->no_launch_cfg++;
		break;
	}
	case CAT_MEMCPY: {
		struct gp_memcpy *m = gp_vec_push(t->memcpys);
		m->start = start;
		m->end = end;
		m->corr = e->corr;
		m->ext_id = e->ext_id;
		m->bytes = e->bytes;
		m->device = gpu_device(e);
		m->src_device = m->dst_device = m->device;
		m->context = (uint32_t)e->context;
		m->stream = gpu_stream(e);
		parse_memcpy_name(e->name, m);
		break;
	}
	case CAT_MEMSET: {
		struct gp_memset *m = gp_vec_push(t->memsets);
		const char *open = strchr(e->name, '(');
		m->start = start;
		m->end = end;
		m->corr = e->corr;
		m->ext_id = e->ext_id;
		m->bytes = e->bytes;
		m->device = gpu_device(e);
		m->context = (uint32_t)e->context;
		m->stream = gpu_stream(e);
		if (open) {
			const char *close = strchr(open, ')');
			if (close)
				m->mem_kind = mem_kind_of(open + 1, (size_t)(close - open - 1));
		}
		break;
	}
	case CAT_SYNC: {
		struct gp_sync *s = gp_vec_push(t->syncs);
		s->start = start;
		s->end = end;
		s->corr = e->corr;
		s->device = gpu_device(e);
		s->context = (uint32_t)e->context;
		s->stream = (uint32_t)e->stream;
		s->kind = sync_kind_of(e->name);
		s->event_id = e->wait_event;
		break;
	}
	case CAT_RUNTIME: case CAT_DRIVER: case CAT_OLD_RUNTIME: case CAT_MTIA_RUNTIME: {
		struct gp_api *a = gp_vec_push(t->apis);
		char nbuf[256];
		a->start = start;
		a->end = end;
		a->corr = e->corr;
		a->ext_id = e->ext_id;
		a->pid = e->pid;
		a->tid = e->tid;
		const char *an = gp_api_strip_version(e->name, nbuf, sizeof(nbuf));
		a->name = intern_cached(p, an, strlen(an));
		a->cbid = e->cbid ? (int32_t)e->cbid : -1;
		if (e->cat == CAT_DRIVER ||
		    (e->cat == CAT_OLD_RUNTIME && strncmp(e->name, "cu", 2) == 0 &&
		     strncmp(e->name, "cuda", 4) != 0))
			a->kind = GP_API_DRIVER;
		else if (e->cat == CAT_MTIA_RUNTIME)
			a->kind = GP_API_OTHER;
		else
			a->kind = GP_API_RUNTIME;
		if (strncmp(e->name, "hip", 3) == 0)
			p->hip_apis++;
		break;
	}
	case CAT_CPU_OP: case CAT_USER_ANNOT: case CAT_GPU_ANNOT: case CAT_PYTHON: {
		struct gp_range *r = gp_vec_push(t->ranges);
		r->start = start;
		r->end = end;
		r->text = intern_cached(p, e->name, e->name_len);
		r->parent = -1;
		if (e->cat == CAT_GPU_ANNOT) {
			r->kind = GP_RANGE_GPU_ANNOTATION;
			r->pid = e->pid;   /* device */
			r->tid = e->tid;   /* stream */
		} else {
			r->pid = e->pid;
			r->tid = e->tid;
			r->kind = e->cat == CAT_PYTHON ? GP_RANGE_PYTHON
				: e->cat == CAT_USER_ANNOT ? GP_RANGE_USER_ANNOTATION
				: GP_RANGE_CPU_OP;
			/* 2021 files log record_function ranges as Operator */
			if (r->kind == GP_RANGE_CPU_OP && strncmp(e->name, "ProfilerStep#", 13) == 0)
				r->kind = GP_RANGE_USER_ANNOTATION;
		}
		if (e->cat != CAT_PYTHON &&
		    (e->ext_id || (e->have & (H_SEQ | H_FWD_TID)) || e->input_dims || e->input_types ||
		     e->concrete || e->call_stack)) {
			struct gp_op_ext *x = gp_vec_push(t->op_exts);
			x->ext_id = e->ext_id;
			x->seq = (e->have & H_SEQ) ? e->seq : -1;
			x->fwd_tid = (uint32_t)e->fwd_tid;   /* forward ops say 0 */
			x->input_dims = e->input_dims;
			x->input_types = e->input_types;
			x->concrete_inputs = e->concrete;
			x->call_stack = e->call_stack;
			r->ext = (uint32_t)t->op_exts.n;
		}
		break;
	}
	}
	return 1;
}

/* A scalar value (kind: 's' string, 'n' number, 'b' bool, 'z' null). */
static int on_scalar(struct kp *p, char kind, const char *s, size_t n)
{
	uint8_t c = p->ctx[p->depth], k = p->key[p->depth];
	struct event *e = &p->ev;
	uint64_t u;
	int64_t v;

	switch (c) {
	case C_NONE:
		return fail(p, "not a trace: the JSON document is a single value");
	case C_TOP:
		if (k == K_TRACE_EVENTS)
			return fail(p, "traceEvents is a %s, expected an array",
				    kind == 's' ? "string" : kind == 'n' ? "number" : "scalar");
		if (k == K_BASE_TIME) {
			if (kind != 'n' || !parse_i64(s, n, &p->base_ns))
				return fail(p, "baseTimeNanoseconds is not an integer");
			p->base_set = true;
		} else if (k == K_META && kind != 'z') {
			char tmp[256];
			size_t m = n < sizeof(tmp) - 1 ? n : sizeof(tmp) - 1;
			memcpy(tmp, s, m);
			tmp[m] = '\0';
			if (kind == 'b')
				snprintf(tmp, sizeof(tmp), "%s", n ? "1" : "0");
			gp_trace_meta_set(p->t, p->meta_key[p->depth], tmp);
		}
		return 1;
	case C_EVENTS:
		p->nevents++;
		return fail(p, "an event is a %s, expected an object",
			    kind == 's' ? "string" : kind == 'n' ? "number" : kind == 'b' ? "boolean" : "null");
	case C_EVENT:
		switch (k) {
		case K_PH:
			if (kind != 's')
				return fail(p, "ph is not a string");
			e->ph = n ? s[0] : 0;
			return 1;
		case K_CAT:
			if (kind != 's')
				return kind == 'z' ? 1 : fail(p, "cat is not a string");
			e->cat = category(s, n);
			if (e->cat == CAT_OTHER)
				snprintf(e->cat_text, sizeof(e->cat_text), "%.*s", (int)(n < 40 ? n : 40), s);
			return 1;
		case K_NAME:
			if (kind != 's' && kind != 'n')
				return kind == 'z' ? 1 : fail(p, "name is not a string");
			event_set_name(e, s, n);
			return 1;
		case K_TS: case K_DUR: {
			int64_t ns;
			if (kind != 'n')
				return fail(p, "%s is a %s, expected a number", k == K_TS ? "ts" : "dur",
					    kind == 's' ? "string" : kind == 'b' ? "boolean" : "null");
			if (!parse_us_as_ns(s, n, &ns))
				return fail(p, "%s %.*s is out of range", k == K_TS ? "ts" : "dur",
					    (int)(n < 40 ? n : 40), s);
			if (k == K_TS) {
				e->ts = ns;
				e->have |= H_TS;
			} else {
				e->dur = ns;
				e->have |= H_DUR;
			}
			return 1;
		}
		case K_PID: case K_TID: {
			if (kind != 's' && kind != 'n')
				return kind == 'z' ? 1 : fail(p, "%s is a boolean", k == K_PID ? "pid" : "tid");
			uint32_t id = parse_thread_id(p, s, n, kind == 's');
			if (k == K_PID) {
				e->pid = id;
				e->have |= H_PID;
			} else {
				e->tid = id;
				e->have |= H_TID;
			}
			return 1;
		}
		case K_ID:
			if (parse_u64(s, n, &u) || (kind == 's' && (u = synth_id(p, s, n)))) {
				e->id = u;
				e->have |= H_ID;
			}
			return 1;
		case K_ARGS:
			if (kind == 'z')
				return 1;
			return fail(p, "args is a %s, expected an object",
				    kind == 's' ? "string" : kind == 'n' ? "number" : "boolean");
		}
		return 1;
	case C_ARGS:
		if (k == K_NONE)
			return 1;
		if (k == K_ARG_NAME) {
			if (kind == 's')
				e->arg_name = gp_strtab_intern_n(&p->t->strs, s, n);
			return 1;
		}
		if (k == K_CALL_STACK) {
			if (kind == 's')
				e->call_stack = gp_strtab_intern_n(&p->t->strs, s, n);
			return 1;
		}
		if (k == K_INPUT_DIMS || k == K_INPUT_TYPES || k == K_CONCRETE || k == K_GRID ||
		    k == K_BLOCK)
			return 1;   /* expected a list: a scalar carries nothing */
		if (kind != 'n' && kind != 's')
			return 1;
		/* numbers; AMD writes some as strings ("stream": "0x0") */
		if (k == K_SEQ || k == K_DEVICE || k == K_CONTEXT || k == K_STREAM || k == K_CBID) {
			if (!parse_i64(s, n, &v)) {
				if (!parse_u64(s, n, &u))
					return 1;
				v = (int64_t)u;
			}
			switch (k) {
			case K_SEQ: e->seq = v; e->have |= H_SEQ; break;
			case K_DEVICE: e->device = v; e->have |= H_DEVICE; break;
			case K_CONTEXT: e->context = v; e->have |= H_CONTEXT; break;
			case K_STREAM: e->stream = v; e->have |= H_STREAM; break;
			case K_CBID: e->cbid = v; break;
			}
			return 1;
		}
		if (!parse_u64(s, n, &u))
			return 1;
		switch (k) {
		case K_CORR: e->corr = u; e->have |= H_CORR; break;
		case K_EXT_ID: e->ext_id = u; break;
		case K_REGS: e->regs = u; break;
		case K_SMEM: e->smem = u; break;
		case K_BYTES: e->bytes = u; break;
		case K_FWD_TID: e->fwd_tid = u; e->have |= H_FWD_TID; break;
		case K_GRAPH_ID: e->graph_id = u; break;
		case K_GRAPH_NODE: e->graph_node = u; break;
		case K_WAIT_EVENT: e->wait_event = u; break;
		}
		return 1;
	case C_DIM3:
		if (kind == 'n' && p->dim_idx < 3 && parse_u64(s, n, &u)) {
			uint32_t *d = p->key[p->depth - 1] == K_GRID ? e->grid : e->block;
			d[p->dim_idx] = u > UINT32_MAX ? UINT32_MAX : (uint32_t)u;
			if (p->key[p->depth - 1] == K_GRID)
				e->have |= H_GRID;
		}
		p->dim_idx++;
		return 1;
	case C_CAPTURE:
		if (p->cap_comma[p->depth])
			buf_add(&p->cap, ",", 1);
		p->cap_comma[p->depth] = true;
		if (kind == 's')
			buf_add_json_string(&p->cap, s, n);
		else
			buf_add(&p->cap, s, n);
		return 1;
	case C_DEVICE: {
		struct gp_device *d = &p->t->devices.v[p->t->devices.n - 1];
		if (k == K_DEV_NAME && kind == 's') {
			d->name = gp_strtab_intern_n(&p->t->strs, s, n);
			return 1;
		}
		if (kind != 'n' || !parse_i64(s, n, &v))
			return 1;
		switch (k) {
		case K_DEV_ID: d->id = (int32_t)v; break;
		case K_DEV_MEM: d->mem_bytes = (uint64_t)v; break;
		case K_DEV_MAJOR: d->cc_major = (int16_t)v; break;
		case K_DEV_MINOR: d->cc_minor = (int16_t)v; break;
		case K_DEV_SMS: d->sm_count = (int32_t)v; break;
		}
		return 1;
	}
	case C_DIST:
		if (k != K_NONE && kind != 'z') {
			char tmp[128];
			snprintf(tmp, sizeof(tmp), "%.*s", (int)(n < 120 ? n : 120), s);
			gp_trace_meta_set(p->t, p->meta_key[p->depth], tmp);
		}
		return 1;
	}
	return 1;
}

static int cb_null(void *ctx)
{
	return on_scalar(ctx, 'z', "null", 4);
}

static int cb_boolean(void *ctx, int b)
{
	return on_scalar(ctx, 'b', b ? "true" : "false", (size_t)b);
}

static int cb_number(void *ctx, const char *s, size_t n)
{
	return on_scalar(ctx, 'n', s, n);
}

static int cb_string(void *ctx, const unsigned char *s, size_t n)
{
	return on_scalar(ctx, 's', (const char *)s, n);
}

/* A container opens: decide what it is from where it is. */
static int on_open(struct kp *p, bool is_map)
{
	uint8_t c = p->ctx[p->depth], k = p->key[p->depth], nc = C_SKIP;

	switch (c) {
	case C_NONE:
		if (is_map) {
			nc = C_TOP;
		} else {
			nc = C_EVENTS;
			p->top_is_array = p->seen_events = true;
		}
		break;
	case C_TOP:
		if (k == K_TRACE_EVENTS) {
			if (is_map)
				return fail(p, "traceEvents is an object, expected an array");
			nc = C_EVENTS;
			p->seen_events = true;
		} else if (k == K_DEVPROPS && !is_map) {
			nc = C_DEVPROPS;
		} else if (k == K_DIST && is_map) {
			nc = C_DIST;
		}
		break;
	case C_EVENTS:
		p->nevents++;
		if (!is_map)
			return fail(p, "an event is an array, expected an object");
		event_reset(&p->ev);
		nc = C_EVENT;
		break;
	case C_EVENT:
		if (k == K_ARGS) {
			if (!is_map)
				return fail(p, "args is an array, expected an object");
			nc = C_ARGS;
		} else if (k == K_TS || k == K_DUR || k == K_PH || k == K_PID || k == K_TID ||
			   k == K_NAME || k == K_CAT) {
			static const char *names[] = {[K_TS] = "ts", [K_DUR] = "dur", [K_PH] = "ph",
						      [K_PID] = "pid", [K_TID] = "tid",
						      [K_NAME] = "name", [K_CAT] = "cat"};
			return fail(p, "%s is %s, expected a %s", names[k], is_map ? "an object" : "an array",
				    k == K_TS || k == K_DUR ? "number" : "string");
		}
		break;
	case C_ARGS:
		if ((k == K_GRID || k == K_BLOCK) && !is_map) {
			nc = C_DIM3;
			p->dim_idx = 0;
		} else if (k == K_INPUT_DIMS || k == K_INPUT_TYPES || k == K_CONCRETE) {
			nc = C_CAPTURE;
			p->cap.n = 0;
			p->cap_depth = p->depth + 1;
			p->cap_key = k;
		}
		break;
	case C_DEVPROPS:
		if (is_map) {
			struct gp_device *d = gp_vec_push(p->t->devices);
			d->id = (int32_t)p->t->devices.n - 1;
			nc = C_DEVICE;
		}
		break;
	case C_CAPTURE:
		if (p->cap_comma[p->depth])
			buf_add(&p->cap, ",", 1);
		p->cap_comma[p->depth] = true;
		nc = C_CAPTURE;
		break;
	}
	if (p->depth >= MAX_DEPTH)
		return fail(p, "JSON nested deeper than %d levels", MAX_DEPTH);
	p->depth++;
	p->ctx[p->depth] = nc;
	p->key[p->depth] = K_NONE;
	if (nc == C_CAPTURE) {
		p->cap_comma[p->depth] = false;
		buf_add(&p->cap, is_map ? "{" : "[", 1);
	}
	return 1;
}

static int on_close(struct kp *p, bool is_map)
{
	uint8_t c = p->ctx[p->depth];

	if (c == C_CAPTURE) {
		buf_add(&p->cap, is_map ? "}" : "]", 1);
		if (p->depth == p->cap_depth) {
			gp_str s = gp_strtab_intern_n(&p->t->strs, p->cap.s, p->cap.n);
			if (p->cap_key == K_INPUT_DIMS)
				p->ev.input_dims = s;
			else if (p->cap_key == K_INPUT_TYPES)
				p->ev.input_types = s;
			else
				p->ev.concrete = s;
		}
	}
	p->depth--;
	if (c == C_EVENT)
		return event_finish(p);
	return 1;
}

static int cb_start_map(void *ctx)
{
	return on_open(ctx, true);
}

static int cb_end_map(void *ctx)
{
	return on_close(ctx, true);
}

static int cb_start_array(void *ctx)
{
	return on_open(ctx, false);
}

static int cb_end_array(void *ctx)
{
	return on_close(ctx, false);
}

static int cb_map_key(void *ctx, const unsigned char *key, size_t n)
{
	struct kp *p = ctx;
	const char *s = (const char *)key;
	const char *meta = NULL;
	uint8_t k = K_NONE;

	switch (p->ctx[p->depth]) {
	case C_CAPTURE:
		if (p->cap_comma[p->depth])
			buf_add(&p->cap, ",", 1);
		p->cap_comma[p->depth] = false;   /* the value follows without a comma */
		buf_add_json_string(&p->cap, s, n);
		buf_add(&p->cap, ":", 1);
		return 1;
	case C_TOP: k = lookup_key(top_keys, s, n, &meta); break;
	case C_EVENT: k = event_key(s, n); break;
	case C_ARGS: k = arg_key(s, n); break;
	case C_DEVICE: k = lookup_key(device_keys, s, n, NULL); break;
	case C_DIST: k = lookup_key(dist_keys, s, n, &meta); break;
	}
	p->key[p->depth] = k;
	p->meta_key[p->depth] = meta;
	return 1;
}

static const yajl_callbacks callbacks = {
	.yajl_null = cb_null,
	.yajl_boolean = cb_boolean,
	.yajl_number = cb_number,
	.yajl_string = cb_string,
	.yajl_start_map = cb_start_map,
	.yajl_map_key = cb_map_key,
	.yajl_end_map = cb_end_map,
	.yajl_start_array = cb_start_array,
	.yajl_end_array = cb_end_array,
};

/* ---- after the parse ---- */

/* Adds the base time to every record (libkineto writes ts relative to
** baseTimeNanoseconds, and writes that key after the events). */
static void apply_base(struct kp *p)
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
	char tmp[32];
	snprintf(tmp, sizeof(tmp), "%" PRId64, b);
	gp_trace_meta_set(t, "base_time_ns", tmp);
}

/* GPU records carry the device as pid; the launching process is the one
** whose runtime call has the same correlation id. */
static void link_pids(gp_trace *t)
{
	gp_u64map corr = {0};

	for (size_t i = 0; i < t->apis.n; i++) {
		int32_t j = gp_u64map_add(&corr, t->apis.v[i].corr, (int32_t)i);
		if (j != (int32_t)i && j != INT32_MAX && t->apis.v[j].pid != t->apis.v[i].pid)
			gp_u64map_put(&corr, t->apis.v[i].corr, INT32_MAX);  /* ambiguous */
	}
#define LINK(vec)                                                                 \
	for (size_t i = 0; i < t->vec.n; i++) {                                   \
		int32_t j = gp_u64map_get(&corr, t->vec.v[i].corr);               \
		if (j >= 0 && j != INT32_MAX)                                     \
			t->vec.v[i].pid = t->apis.v[j].pid;                       \
	}
	LINK(kernels)
	LINK(memcpys)
	LINK(memsets)
	LINK(syncs)
#undef LINK
	gp_u64map_free(&corr);
}

static int cmp_op_by_thread(const void *pa, const void *pb, void *arg)
{
	const struct gp_range *r = arg, *a = &r[*(const int32_t *)pa], *b = &r[*(const int32_t *)pb];

	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a->end > b->end ? -1 : a->end < b->end;
}

/* The innermost op in ops[0..n) (sorted by thread and start, with parent
** links in par) on (pid, tid) that contains ts; -1 if none. */
static int32_t op_at(const gp_trace *t, const int32_t *ops, const int32_t *par, size_t n,
		     uint32_t pid, uint32_t tid, gp_ns ts)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {   /* first op that starts after ts on this thread */
		size_t mid = (lo + hi) / 2;
		const struct gp_range *r = &t->ranges.v[ops[mid]];
		if (r->pid < pid || (r->pid == pid && (r->tid < tid || (r->tid == tid && r->start <= ts))))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (int32_t i = (int32_t)lo - 1; i >= 0; i = par[i]) {
		const struct gp_range *r = &t->ranges.v[ops[i]];
		if (r->pid != pid || r->tid != tid)
			return -1;
		if (r->end >= ts)
			return ops[i];
	}
	return -1;
}

/* fwdbwd flows tie a forward op (flow start) to its backward op (flow
** end, bound to the enclosing slice).  The backward op gets the forward
** op's sequence number (or both get a fresh one when neither has any) and
** is marked backward, so attribution can pair them as with Sequence
** number + Fwd thread id. */
static void resolve_flows(struct kp *p)
{
	gp_trace *t = p->t;
	GP_VEC(int32_t) ops = {0};
	gp_u64map starts = {0};
	int64_t next_seq = INT64_C(1) << 48;
	size_t linked = 0;

	if (!p->flows.n)
		return;
	for (size_t i = 0; i < t->ranges.n; i++)
		if (t->ranges.v[i].kind == GP_RANGE_CPU_OP)
			*gp_vec_push(ops) = (int32_t)i;
	if (ops.n > 1)
		qsort_r(ops.v, ops.n, sizeof(*ops.v), cmp_op_by_thread, t->ranges.v);
	int32_t *par = gp_xmalloc((ops.n ? ops.n : 1) * sizeof(*par));
	GP_VEC(int32_t) stack = {0};
	for (size_t i = 0; i < ops.n; i++) {
		const struct gp_range *r = &t->ranges.v[ops.v[i]];
		while (stack.n) {
			const struct gp_range *top = &t->ranges.v[ops.v[stack.v[stack.n - 1]]];
			if (top->pid == r->pid && top->tid == r->tid && top->end >= r->end)
				break;
			stack.n--;
		}
		par[i] = stack.n ? stack.v[stack.n - 1] : -1;
		*gp_vec_push(stack) = (int32_t)i;
	}
	gp_vec_free(stack);

	for (size_t i = 0; i < p->flows.n; i++) {
		const struct flow_end *f = &p->flows.v[i];
		if (f->start) {
			int32_t op = op_at(t, ops.v, par, ops.n, f->pid, f->tid, f->ts);
			if (op >= 0)
				gp_u64map_put(&starts, f->id, op);
		}
	}
	for (size_t i = 0; i < p->flows.n; i++) {
		const struct flow_end *f = &p->flows.v[i];
		if (f->start)
			continue;
		int32_t fwd = gp_u64map_get(&starts, f->id);
		int32_t bwd = op_at(t, ops.v, par, ops.n, f->pid, f->tid, f->ts);
		if (fwd < 0 || bwd < 0 || fwd == bwd)
			continue;
		struct gp_range *fr = &t->ranges.v[fwd], *br = &t->ranges.v[bwd];
		if (!fr->ext) {
			*gp_vec_push(t->op_exts) = (struct gp_op_ext){.seq = -1};
			fr->ext = (uint32_t)t->op_exts.n;
		}
		if (!br->ext) {
			*gp_vec_push(t->op_exts) = (struct gp_op_ext){.seq = -1};
			br->ext = (uint32_t)t->op_exts.n;
		}
		struct gp_op_ext *fx = &t->op_exts.v[fr->ext - 1], *bx = &t->op_exts.v[br->ext - 1];
		if (bx->seq < 0) {
			if (fx->seq < 0)
				fx->seq = next_seq++;
			bx->seq = fx->seq;
		}
		if (!bx->fwd_tid)
			bx->fwd_tid = fr->tid ? fr->tid : 1;
		linked++;
	}
	free(par);
	gp_vec_free(ops);
	gp_u64map_free(&starts);
	if (linked < p->flows.n / 2)
		gp_trace_warn(t, "%zu of %zu fwdbwd flow endpoints could not be tied to ops",
			      p->flows.n - 2 * linked, p->flows.n);
}

/* What the reader kept, what it skipped and what the file lacks. */
static void add_notes(struct kp *p)
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

static void finish(struct kp *p)
{
	const char *schema = gp_trace_meta_get(p->t, "schema_version");
	char tool[64];

	resolve_flows(p);   /* flow ts are still relative, like the ranges */
	apply_base(p);
	link_pids(p->t);
	format_versions(p->t);
	add_notes(p);
	snprintf(tool, sizeof(tool), "PyTorch profiler (Kineto)%s%s", schema ? ", schema " : "",
		 schema ? schema : "");
	p->t->tool_version = gp_intern(p->t, tool);
}

static void kp_free(struct kp *p)
{
	free(p->ev.name);
	free(p->cap.s);
	gp_vec_free(p->flows);
	gp_vec_free(p->skipped);
	gp_u64map_free(&p->short_names);
}

/* ---- driving yajl ---- */

/* A source of input chunks: returns the byte count with *data pointing at
** them (valid until the next call), 0 at the end, -1 on error (with
** *errmsg). */
typedef long (*read_fn)(void *src, const char **data, const char **errmsg);

static yajl_handle kp_yajl(struct kp *p)
{
	yajl_handle h = yajl_alloc(&callbacks, NULL, p);

	yajl_config(h, yajl_dont_validate_strings, 1);
	return h;
}

/* The sequential parse: every chunk of src through one yajl handle, then
** finish().  Errors name the file, what and where (docs/kineto.md). */
static int parse_stream(struct kp *p, read_fn rd, void *src, const struct gp_load_opts *o,
			uint64_t total)
{
	yajl_handle h = kp_yajl(p);
	uint64_t offset = 0;
	int rc = GP_OK;
	yajl_status st = yajl_status_ok;
	bool at_end = false;

	for (;;) {
		const char *errmsg = NULL, *data;
		long n = rd(src, &data, &errmsg);
		if (n < 0) {
			size_t pl = strlen(p->path);
			if (errmsg && strncmp(errmsg, p->path, pl) == 0 && strncmp(errmsg + pl, ": ", 2) == 0)
				errmsg += pl + 2;   /* zlib prefixes the path */
			rc = gp_err(p->err, GP_ERR_CORRUPT,
				    "%s: truncated or damaged gzip stream (%s): after %" PRIu64
				    " uncompressed bytes, %" PRIu64 " events",
				    p->path, errmsg ? errmsg : "read error", offset, p->nevents);
			goto out;
		}
		if (n == 0)
			break;
		st = yajl_parse(h, (const unsigned char *)data, (size_t)n);
		if (st != yajl_status_ok) {
			offset += yajl_get_bytes_consumed(h);
			goto parse_error;
		}
		offset += (uint64_t)n;
		if (o && o->progress)
			o->progress(o->progress_ctx, offset, total);
	}
	at_end = true;
	st = yajl_complete_parse(h);
	if (st != yajl_status_ok)
		goto parse_error;
	if (!p->seen_events) {
		rc = gp_err(p->err, GP_ERR_FORMAT,
			    "%s: not a PyTorch profiler trace: no traceEvents array in the JSON object",
			    p->path);
		goto out;
	}
	finish(p);
	goto out;

parse_error:
	if (st == yajl_status_client_canceled) {
		/* fail() wrote the message; add where */
		size_t l = strlen(p->err->msg);
		snprintf(p->err->msg + l, sizeof(p->err->msg) - l, " (byte offset %" PRIu64 ")", offset);
		rc = p->err->status;
	} else if (at_end && p->depth > 0) {
		rc = gp_err(p->err, GP_ERR_CORRUPT,
			    "%s: truncated JSON: the file ends inside %s after %" PRIu64
			    " events (byte offset %" PRIu64 ")",
			    p->path, p->depth >= 2 && p->nevents ? "traceEvents" : "the document",
			    p->nevents, offset);
	} else {
		unsigned char *m = yajl_get_error(h, 0, NULL, 0);
		char msg[256];
		snprintf(msg, sizeof(msg), "%s", (const char *)m);
		yajl_free_error(h, m);
		for (char *c = msg; *c; c++)
			if (*c == '\n')
				*c = ' ';
		size_t l = strlen(msg);
		while (l && msg[l - 1] == ' ')
			msg[--l] = '\0';
		rc = gp_err(p->err, p->nevents ? GP_ERR_CORRUPT : GP_ERR_FORMAT,
			    "%s: invalid JSON (%s): at byte offset %" PRIu64 ", after %" PRIu64 " events",
			    p->path, msg, offset, p->nevents);
	}
out:
	yajl_free(h);
	return rc;
}

struct gzsrc {
	gzFile z;
	char *buf;   /* CHUNK bytes */
};

/* gzread into buf (size bytes); -1 with *errmsg (owned by z) on error. */
static long gz_chunk(gzFile z, char *buf, size_t size, const char **errmsg)
{
	int n = gzread(z, buf, (unsigned)size);
	int code;

	if (n < 0) {
		*errmsg = gzerror(z, &code);
		return -1;
	}
	if (n == 0) {
		const char *m = gzerror(z, &code);
		if (code != Z_OK && code != Z_STREAM_END) {
			*errmsg = m;
			return -1;
		}
	}
	return n;
}

static long read_gz(void *src, const char **data, const char **errmsg)
{
	struct gzsrc *g = src;

	*data = g->buf;
	return gz_chunk(g->z, g->buf, CHUNK, errmsg);
}

struct membuf {
	const char *data;
	size_t len, pos;
};

static long read_mem(void *src, const char **data, const char **errmsg)
{
	struct membuf *m = src;
	size_t n = m->len - m->pos < CHUNK ? m->len - m->pos : CHUNK;

	*data = m->data + m->pos;
	m->pos += n;
	return (long)n;
}

static void kp_init(struct kp *p, const char *path, gp_trace *t, gp_error *err)
{
	memset(p, 0, sizeof(*p));
	p->t = t;
	p->path = path;
	p->err = err;
}

int gp_kineto_load_buffer(const char *name, const void *data, size_t len, gp_trace *t,
			  gp_error *err)
{
	struct kp *p = gp_xmalloc(sizeof(*p));
	struct membuf m = {.data = data, .len = len};
	int rc;

	kp_init(p, name, t, err);
	rc = parse_stream(p, read_mem, &m, NULL, len);
	kp_free(p);
	free(p);
	return rc;
}

/* ---- threads: how many, and from which size on ---- */

/* GPUPROF_THREADS (>= 1; 1 = everything sequential, as before threads
** were used), else the online CPUs; at most MAX_PARTS. */
static int thread_count(void)
{
	const char *s = getenv("GPUPROF_THREADS");
	char *end;
	long n = s ? strtol(s, &end, 10) : 0;

	if (!s || *end || n < 1)
		n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 1)
		n = 1;
	return n > MAX_PARTS ? MAX_PARTS : (int)n;
}

/* Plain files below GPUPROF_PARALLEL_MIN_BYTES (default 32 MiB) are parsed
** by one thread: splitting costs more than it saves there.  Tests set it
** low to exercise the split on small files. */
static uint64_t parallel_min_bytes(void)
{
	const char *s = getenv("GPUPROF_PARALLEL_MIN_BYTES");
	char *end;
	unsigned long long n = s ? strtoull(s, &end, 10) : 0;

	return s && !*end ? n : 32u << 20;
}

/* ---- .json.gz: inflate in a second thread ---- */

#define RING 4

/* A ring of RING chunk buffers filled by the inflating thread and drained
** by the parsing one, so that the wall time is about the slower of the two
** instead of their sum. */
struct gzpipe {
	gzFile z;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t filled, drained;
	char *buf[RING];
	long len[RING];           /* bytes in the slot; 0 = end, -1 = error */
	char errmsg[RING][160];
	unsigned head, count;     /* next slot to fill; slots filled */
	unsigned tail;            /* next slot to hand to the parser */
	bool held;                /* the parser still reads slot tail */
	bool stop;                /* the parser is done: producer exits */
};

static void *gzpipe_producer(void *arg)
{
	struct gzpipe *g = arg;

	for (;;) {
		pthread_mutex_lock(&g->mu);
		while (g->count == RING && !g->stop)
			pthread_cond_wait(&g->drained, &g->mu);
		unsigned slot = g->head;
		bool stop = g->stop;
		pthread_mutex_unlock(&g->mu);
		if (stop)
			return NULL;
		const char *errmsg = NULL;
		long n = gz_chunk(g->z, g->buf[slot], CHUNK, &errmsg);
		if (n < 0)
			snprintf(g->errmsg[slot], sizeof(g->errmsg[slot]), "%s", errmsg ? errmsg : "");
		pthread_mutex_lock(&g->mu);
		g->len[slot] = n;
		g->head = (slot + 1) % RING;
		g->count++;
		pthread_cond_signal(&g->filled);
		pthread_mutex_unlock(&g->mu);
		if (n <= 0)
			return NULL;
	}
}

static long read_gzpipe(void *src, const char **data, const char **errmsg)
{
	struct gzpipe *g = src;
	long n;

	pthread_mutex_lock(&g->mu);
	if (g->held) {   /* the parser is done with the previous chunk */
		g->tail = (g->tail + 1) % RING;
		g->count--;
		g->held = false;
		pthread_cond_signal(&g->drained);
	}
	while (g->count == 0)
		pthread_cond_wait(&g->filled, &g->mu);
	n = g->len[g->tail];
	pthread_mutex_unlock(&g->mu);
	if (n > 0) {
		*data = g->buf[g->tail];
		g->held = true;
	} else if (n < 0) {
		*errmsg = g->errmsg[g->tail];
	}
	return n;
}

/* Parses the gzip file z with the inflating on another thread.  Returns
** -1 if that thread could not be started (nothing was read then), else
** what parse_stream returns. */
static int parse_gz_piped(struct kp *p, gzFile z, const struct gp_load_opts *o, uint64_t total)
{
	struct gzpipe *g = gp_xcalloc(1, sizeof(*g));
	int rc = -1;

	g->z = z;
	for (int i = 0; i < RING; i++)
		g->buf[i] = gp_xmalloc(CHUNK);
	pthread_mutex_init(&g->mu, NULL);
	pthread_cond_init(&g->filled, NULL);
	pthread_cond_init(&g->drained, NULL);
	if (pthread_create(&g->thread, NULL, gzpipe_producer, g) == 0) {
		rc = parse_stream(p, read_gzpipe, g, o, total);
		pthread_mutex_lock(&g->mu);   /* stop the producer, also on errors */
		g->stop = true;
		pthread_cond_signal(&g->drained);
		pthread_mutex_unlock(&g->mu);
		pthread_join(g->thread, NULL);
	}
	pthread_mutex_destroy(&g->mu);
	pthread_cond_destroy(&g->filled);
	pthread_cond_destroy(&g->drained);
	for (int i = 0; i < RING; i++)
		free(g->buf[i]);
	free(g);
	return rc;
}

/* ---- plain .json: parse parts of the file in parallel ----
**
** A raw newline cannot occur inside a JSON string, so a "}" "," "\n" "{"
** sequence (libkineto writes "  },\n  {") found near a split point is
** between tokens; when the "}" closes an event of traceEvents, the rest of
** the file from the "{" parses exactly as it would in one pass if yajl
** starts it inside a synthetic `{"traceEvents":[`.  Every part but the
** first parses into a trace of its own; the parts are then merged in file
** order into the caller's trace with the strings re-interned in order of
** first use, so the result is identical to the sequential parse (same
** records, order, string ids, metadata, notes).  Whether a split was right
** is checked, not assumed: a part must end in traceEvents, between tokens
** (the "}" was not inside a string), and each part must parse cleanly;
** anything else (and any error) throws the parallel work away and the
** file is parsed sequentially, so errors read exactly as before. */

#define PART_PREFIX "{\"traceEvents\":["
#define SPLIT_WINDOW 65536
#define SPLIT_CONTEXT 256
#define SPLIT_SEARCH (16u << 20)   /* no boundary this far after a split point: none */

struct part {
	struct kp p;              /* p.t: the caller's trace (part 0), else &t */
	gp_trace t;
	gp_error err;             /* parts > 0: messages are never shown */
	int fd;
	uint64_t start, end;      /* byte range [start, end) of the file */
	int index;
	bool last;
	bool ok;                  /* parsed cleanly and ended where it should */
	bool started;             /* runs on its own thread */
	pthread_t thread;
	_Atomic uint64_t done;    /* bytes parsed, for the progress callback */
	_Atomic bool *stop;       /* another part failed: stop early */
	const struct gp_load_opts *o;   /* part 0 reports progress */
	struct part *all;
	int nparts;
	uint64_t total;
};

static bool is_json_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Finds an event boundary at or after pos (before limit): sets *end to
** just after the "}" and *start to the "{" of the next event.  Returns
** false if there is none. */
static bool find_split(int fd, uint64_t pos, uint64_t limit, uint64_t *end, uint64_t *start)
{
	char *w = gp_xmalloc(SPLIT_WINDOW);
	uint64_t base = pos > SPLIT_CONTEXT ? pos - SPLIT_CONTEXT : 0;
	bool found = false;

	while (!found && pos < limit) {
		ssize_t n = pread(fd, w, SPLIT_WINDOW, (off_t)base);
		if (n <= (ssize_t)(pos - base))
			break;
		const char *nl = w + (pos - base);
		while (!found && (nl = memchr(nl, '\n', (size_t)(w + n - nl)))) {
			ssize_t i = nl++ - w, j = i - 1, l = i + 1;
			while (j >= 0 && is_json_space(w[j]))
				j--;
			if (j < 1 || w[j] != ',')
				continue;
			for (j--; j >= 0 && is_json_space(w[j]); j--)
				;
			while (l < n && is_json_space(w[l]))
				l++;
			if (j < 0 || w[j] != '}' || l >= n || w[l] != '{' || base + (uint64_t)l >= limit)
				continue;
			*end = base + (uint64_t)j + 1;
			*start = base + (uint64_t)l;
			found = true;
		}
		if (n < SPLIT_WINDOW)
			break;
		pos = base + (uint64_t)n - SPLIT_CONTEXT;
		base = pos - SPLIT_CONTEXT;
	}
	free(w);
	return found;
}

static void report_progress(struct part *w)
{
	uint64_t sum = 0;

	for (int i = 0; i < w->nparts; i++)
		sum += w->all[i].done;
	w->o->progress(w->o->progress_ctx, sum, w->total);
}

/* Parses one part (see above); sets w->ok. */
static void *parse_part(void *arg)
{
	struct part *w = arg;
	struct kp *p = &w->p;
	yajl_handle h = kp_yajl(p);
	char *buf = gp_xmalloc(CHUNK);
	uint64_t pos = w->start;
	bool ok = true;

	if (w->index > 0)
		ok = yajl_parse(h, (const unsigned char *)PART_PREFIX, strlen(PART_PREFIX)) == yajl_status_ok;
	while (ok && pos < w->end && !*w->stop) {
		size_t want = w->end - pos < CHUNK ? (size_t)(w->end - pos) : CHUNK;
		ssize_t n = pread(w->fd, buf, want, (off_t)pos);
		if (n <= 0) {
			ok = false;
			break;
		}
		ok = yajl_parse(h, (const unsigned char *)buf, (size_t)n) == yajl_status_ok;
		pos += (uint64_t)n;
		w->done += (uint64_t)n;
		if (w->o && w->o->progress)
			report_progress(w);
	}
	ok = ok && pos == w->end && !*w->stop;
	/* all but the last end right after an event of traceEvents; closing
	** the document there must then work (it would not inside a string) */
	if (ok && !w->last)
		ok = p->depth == 2 && p->ctx[1] == C_TOP && p->ctx[2] == C_EVENTS &&
		     yajl_parse(h, (const unsigned char *)"]}", 2) == yajl_status_ok;
	ok = ok && yajl_complete_parse(h) == yajl_status_ok && !p->failed;
	yajl_free(h);
	free(buf);
	w->ok = ok;
	if (!ok)
		*w->stop = true;
	return NULL;
}

/* Appends the sn elements at sv to a GP_VEC (dv, dn, dcap) of the same
** type, growing it to the exact size; returns the first appended one. */
static void *vec_append(void **dv, size_t *dn, size_t *dcap, const void *sv, size_t sn,
			size_t elem)
{
	char *first;

	if (*dn + sn > *dcap) {
		*dcap = *dn + sn;
		*dv = gp_xrealloc(*dv, *dcap * elem);
	}
	first = (char *)*dv + *dn * elem;
	if (sn)
		memcpy(first, sv, sn * elem);
	*dn += sn;
	return first;
}

#define VEC_APPEND(d, s) \
	vec_append((void **)&(d).v, &(d).n, &(d).cap, (s).v, (s).n, sizeof(*(d).v))

/* The synthetic pid/tid numbers of q (a later part) must be those the
** sequential parse would give: q's table continues p's.  Extends p's. */
static bool merge_synth(struct kp *p, const struct kp *q)
{
	for (int i = 0; i < q->nsynth; i++) {
		if (i < p->nsynth) {
			if (strcmp(p->synth[i], q->synth[i]) != 0)
				return false;
			continue;
		}
		for (int j = 0; j < p->nsynth; j++)
			if (strcmp(p->synth[j], q->synth[i]) == 0)
				return false;
		memcpy(p->synth[p->nsynth++], q->synth[i], sizeof(q->synth[i]));
	}
	return true;
}

/* Moves the records, strings, metadata and counters of q (a later part)
** into p (the first part, on the caller's trace), as if p had parsed q's
** bytes itself.  q's trace is emptied.  Returns false where the merge
** could not be exact (the caller then parses sequentially). */
static bool merge_part(struct kp *p, struct kp *q)
{
	gp_trace *t = p->t, *u = q->t;

	if (!merge_synth(p, q) || q->skipped.n >= 32 || (t->devices.n && u->devices.n))
		return false;

	/* strings, in order of first use in q: ids as one pass would give */
	gp_str *map = gp_xmalloc(u->strs.n * sizeof(*map));
	map[0] = 0;
	for (uint32_t i = 1; i < u->strs.n; i++)
		map[i] = gp_strtab_intern_n(&t->strs, gp_strtab_get(&u->strs, i),
					    gp_strtab_len(&u->strs, i));

	struct gp_device *d = VEC_APPEND(t->devices, u->devices);
	for (size_t i = 0; i < u->devices.n; i++)
		d[i].name = map[d[i].name];
	struct gp_process *pr = VEC_APPEND(t->processes, u->processes);
	for (size_t i = 0; i < u->processes.n; i++)
		pr[i].name = map[pr[i].name];
	struct gp_thread *th = VEC_APPEND(t->threads, u->threads);
	for (size_t i = 0; i < u->threads.n; i++)
		th[i].name = map[th[i].name];
	struct gp_kernel *k = VEC_APPEND(t->kernels, u->kernels);
	for (size_t i = 0; i < u->kernels.n; i++) {
		k[i].name = map[k[i].name];
		k[i].demangled = map[k[i].demangled];
		k[i].mangled = map[k[i].mangled];
	}
	gp_vec_free(u->kernels);
	struct gp_api *a = VEC_APPEND(t->apis, u->apis);
	for (size_t i = 0; i < u->apis.n; i++)
		a[i].name = map[a[i].name];
	gp_vec_free(u->apis);
	VEC_APPEND(t->memcpys, u->memcpys);
	VEC_APPEND(t->memsets, u->memsets);
	VEC_APPEND(t->syncs, u->syncs);
	uint32_t ext0 = (uint32_t)t->op_exts.n;
	struct gp_range *r = VEC_APPEND(t->ranges, u->ranges);
	for (size_t i = 0; i < u->ranges.n; i++) {
		r[i].text = map[r[i].text];
		r[i].domain = map[r[i].domain];
		if (r[i].ext)
			r[i].ext += ext0;
	}
	gp_vec_free(u->ranges);
	struct gp_op_ext *x = VEC_APPEND(t->op_exts, u->op_exts);
	for (size_t i = 0; i < u->op_exts.n; i++) {
		x[i].input_dims = map[x[i].input_dims];
		x[i].input_types = map[x[i].input_types];
		x[i].concrete_inputs = map[x[i].concrete_inputs];
		x[i].call_stack = map[x[i].call_stack];
	}
	for (size_t i = 0; i < u->meta.n; i++)
		gp_trace_meta_set(t, gp_s(u, u->meta.v[i].key), gp_s(u, u->meta.v[i].value));
	for (size_t i = 0; i < u->warnings.n; i++)
		gp_trace_warn(t, "%s", gp_s(u, u->warnings.v[i]));
	free(map);

	VEC_APPEND(p->flows, q->flows);
	for (size_t i = 0; i < q->skipped.n; i++) {
		size_t j = 0;
		while (j < p->skipped.n && strcmp(p->skipped.v[j].name, q->skipped.v[i].name) != 0)
			j++;
		if (j < p->skipped.n)
			p->skipped.v[j].count += q->skipped.v[i].count;
		else if (p->skipped.n < 32)
			*gp_vec_push(p->skipped) = q->skipped.v[i];
	}
	if (q->base_set) {
		p->base_ns = q->base_ns;
		p->base_set = true;
	}
	p->nevents += q->nevents;
	p->no_ts += q->no_ts;
	p->neg_dur += q->neg_dur;
	p->no_launch_cfg += q->no_launch_cfg;
	p->hip_apis += q->hip_apis;
	return true;
}

/* Whether t holds nothing but interned strings (as load.c hands it over:
** path and format), which is what the parallel parse can undo. */
static bool trace_is_blank(const gp_trace *t)
{
	return !t->devices.n && !t->processes.n && !t->threads.n && !t->kernels.n && !t->apis.n &&
	       !t->memcpys.n && !t->memsets.n && !t->syncs.n && !t->ranges.n && !t->op_exts.n &&
	       !t->args.n && !t->meta.n && !t->warnings.n && !t->attrs;
}

/* Puts t back to its blank state with strings 1..nstrs-1 as saved. */
static void trace_reset(gp_trace *t, char **saved, uint32_t nstrs)
{
	gp_str path = t->path, format = t->format, tool = t->tool_version;

	gp_trace_free(t);
	gp_trace_init(t);
	for (uint32_t i = 1; i < nstrs; i++)
		gp_strtab_intern(&t->strs, saved[i]);
	t->path = path;
	t->format = format;
	t->tool_version = tool;
}

/* Parses the plain JSON file fd (size bytes) in nparts parts on as many
** threads.  Returns GP_OK with p finished, or -1 when the sequential
** parse must run instead (t is then as it was on entry). */
static int parse_parallel(struct kp *p, int fd, uint64_t size, int nparts,
			  const struct gp_load_opts *o)
{
	uint64_t bounds[MAX_PARTS + 1][2];   /* part i: [bounds[i][1], bounds[i+1][0]) */
	int n = 0;

	if (!trace_is_blank(p->t))
		return -1;
	bounds[0][1] = 0;
	for (int i = 1; i < nparts; i++) {
		uint64_t e, s, at = size / (uint64_t)nparts * (uint64_t)i;
		if (at <= bounds[n][1])
			continue;
		uint64_t limit = size - at > SPLIT_SEARCH ? at + SPLIT_SEARCH : size;
		if (find_split(fd, at, limit, &e, &s) && e > bounds[n][1]) {
			n++;
			bounds[n][0] = e;
			bounds[n][1] = s;
		}
	}
	n++;
	bounds[n][0] = size;
	if (n < 2)
		return -1;

	uint32_t nstrs = p->t->strs.n;
	char **saved = gp_xmalloc(nstrs * sizeof(*saved));
	for (uint32_t i = 1; i < nstrs; i++)
		saved[i] = gp_xstrdup(gp_s(p->t, i));

	struct part *w = gp_xcalloc((size_t)n, sizeof(*w));
	_Atomic bool stop = false;
	for (int i = 0; i < n; i++) {
		w[i].fd = fd;
		w[i].start = bounds[i][1];
		w[i].end = bounds[i + 1][0];
		w[i].index = i;
		w[i].last = i == n - 1;
		w[i].stop = &stop;
		w[i].all = w;
		w[i].nparts = n;
		w[i].total = size;
		if (i == 0) {
			w[i].p = *p;
			w[i].p.err = &w[i].err;
			w[i].o = o;
		} else {
			gp_trace_init(&w[i].t);
			kp_init(&w[i].p, p->path, &w[i].t, &w[i].err);
		}
	}
	for (int i = 1; i < n; i++)
		w[i].started = pthread_create(&w[i].thread, NULL, parse_part, &w[i]) == 0;
	parse_part(&w[0]);
	bool ok = w[0].ok;
	for (int i = 1; i < n; i++) {
		if (w[i].started)
			pthread_join(w[i].thread, NULL);
		else if (ok)
			parse_part(&w[i]);
		ok = ok && w[i].ok;
	}
	gp_error *err = p->err;
	*p = w[0].p;
	p->err = err;
	for (int i = 1; i < n; i++) {
		ok = ok && merge_part(p, &w[i].p);
		kp_free(&w[i].p);
		gp_trace_free(&w[i].t);
	}
	free(w);
	if (ok) {
		finish(p);
	} else {
		trace_reset(p->t, saved, nstrs);
		kp_free(p);
		kp_init(p, p->path, p->t, p->err);
	}
	for (uint32_t i = 1; i < nstrs; i++)
		free(saved[i]);
	free(saved);
	return ok ? GP_OK : -1;
}

static int load(const char *path, gp_trace *t, const struct gp_load_opts *o, gp_error *err)
{
	struct stat stbuf = {0};
	unsigned char magic[2] = {0, 0};
	uint64_t size;
	int threads = thread_count(), rc = -1, fd;
	struct kp *p;
	gzFile z;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return gp_err(err, GP_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
	size = fstat(fd, &stbuf) == 0 ? (uint64_t)stbuf.st_size : 0;
	p = gp_xmalloc(sizeof(*p));
	kp_init(p, path, t, err);
	bool gzip = pread(fd, magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
	if (threads > 1 && !gzip && S_ISREG(stbuf.st_mode) && size >= parallel_min_bytes())
		rc = parse_parallel(p, fd, size, threads, o);
	if (rc < 0) {
		z = gzopen(path, "rb");   /* not gzdopen: zlib's messages name the file */
		if (!z) {
			rc = gp_err(err, GP_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
		} else {
			gzbuffer(z, CHUNK);
			if (threads > 1 && gzip)
				rc = parse_gz_piped(p, z, o, size);
			if (rc < 0) {
				struct gzsrc g = {.z = z, .buf = gp_xmalloc(CHUNK)};
				rc = parse_stream(p, read_gz, &g, o, size);
				free(g.buf);
			}
			gzclose(z);
		}
	}
	close(fd);
	kp_free(p);
	free(p);
	return rc;
}

/* Content sniffing: a JSON object whose first keys include traceEvents or
** Kineto's header keys, or a bare array of trace events. */
static double probe(const struct gp_probe_input *in)
{
	size_t i = 0;
	char head[4097];
	size_t n = in->head_len < 4096 ? in->head_len : 4096;

	while (i < n && (in->head[i] == ' ' || in->head[i] == '\t' || in->head[i] == '\n' ||
			 in->head[i] == '\r'))
		i++;
	if (i == n || (in->head[i] != '{' && in->head[i] != '['))
		return 0;
	memcpy(head, in->head, n);
	head[n] = '\0';
	for (size_t j = 0; j < n; j++)
		if (head[j] == '\0')
			head[j] = ' ';
	if (head[i] == '{') {
		if (strstr(head, "\"traceEvents\"") || strstr(head, "\"schemaVersion\"") ||
		    strstr(head, "\"deviceProperties\"") || strstr(head, "\"distributedInfo\""))
			return 0.9;
		return 0.2;   /* JSON, maybe with a long header first: let load() decide */
	}
	if (strstr(head, "\"ph\"") && (strstr(head, "\"ts\"") || strstr(head, "\"name\"")))
		return 0.6;
	return 0.1;
}

const struct gp_reader gp_reader_kineto = {
	.name = "kineto",
	.description = "PyTorch profiler (Kineto) JSON trace",
	.probe = probe,
	.load = load,
};
