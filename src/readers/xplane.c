/*
** XPlane reader: the protobuf files JAX's and TensorFlow's profilers write
** (`plugins/profile/<run>/<host>.xplane.pb`, plain or gzipped), decoded
** with protobuf-c from src/readers/xplane.proto.  This file: the probe,
** the whole-file read, names and stats, the device planes (/device:GPU:N:
** streams of kernels and copies).  xplane_host.c: the host plane and the
** attribution to XLA ops; xplane_hlo.c: the ops' FLOPs and bytes from the
** HLO in /host:metadata.  docs/trace-model.md, "XPlane".
*/
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "readers/reader.h"
#include "readers/xplane_int.h"

/* ---- names and stats ---- */

static const char *const key_names[XK__COUNT] = {
	[XK_CORR] = "correlation_id", [XK_KERNEL_DETAILS] = "kernel_details",
	[XK_MEMCPY_DETAILS] = "memcpy_details", [XK_HLO_OP] = "hlo_op",
	[XK_HLO_MODULE] = "hlo_module", [XK_NAME] = "name", [XK_TF_OP] = "tf_op",
	[XK_LONG_NAME] = "long_name", [XK_STEP_NUM] = "step_num", [XK_GROUP_ID] = "group_id",
	[XK_DEVICE_ID] = "device_id", [XK_FLOPS] = "flops", [XK_BYTES_ACCESSED] = "bytes_accessed",
	[XK_VENDOR] = "device_vendor", [XK_CLOCK] = "clock_rate", [XK_CORES] = "core_count",
	[XK_MEM_BW] = "memory_bandwidth", [XK_MEM_SIZE] = "memory_size",
	[XK_CC_MAJOR] = "compute_cap_major", [XK_CC_MINOR] = "compute_cap_minor",
	[XK_DEVICE_NAME] = "device_name", [XK_ALLOCATOR] = "allocator_name",
	[XK_ALLOC_BYTES] = "allocation_bytes", [XK_BYTES_ALLOCATED] = "bytes_allocated",
	[XK_BYTES_RESERVED] = "bytes_reserved", [XK_ADDR] = "addr",
};

void xp_names_init(struct xp_names *nm, const xp_plane *p)
{
	memset(nm, 0, sizeof(*nm));
	nm->p = p;
	for (size_t i = 0; i < p->n_event_metadata; i++)
		gp_u64map_put(&nm->ev, (uint64_t)p->event_metadata[i]->key, (int32_t)i);
	for (size_t i = 0; i < p->n_stat_metadata; i++) {
		const Gpuprof__Xplane__XStatMetadata *m = p->stat_metadata[i]->value;
		uint64_t id = (uint64_t)p->stat_metadata[i]->key;
		gp_u64map_put(&nm->st, id, (int32_t)i);
		if (!m || !m->name)
			continue;
		for (int k = 1; k < XK__COUNT; k++)
			if (strcmp(m->name, key_names[k]) == 0)
				gp_u64map_put(&nm->key, id, k);
		if (strcmp(m->name, "gpu_device_name") == 0)   /* XLA's CUPTI collector's */
			gp_u64map_put(&nm->key, id, XK_DEVICE_NAME);
	}
}

void xp_names_free(struct xp_names *nm)
{
	gp_u64map_free(&nm->ev);
	gp_u64map_free(&nm->st);
	gp_u64map_free(&nm->key);
}

/* The event metadata of e, or NULL. */
static const Gpuprof__Xplane__XEventMetadata *event_meta(const struct xp_names *nm, const xp_event *e)
{
	int32_t i = gp_u64map_get(&nm->ev, (uint64_t)e->metadata_id);
	return i >= 0 ? nm->p->event_metadata[i]->value : NULL;
}

const char *xp_event_name(const struct xp_names *nm, const xp_event *e)
{
	const Gpuprof__Xplane__XEventMetadata *m = event_meta(nm, e);

	if (m && m->name && *m->name)
		return m->name;
	if (m && m->display_name)
		return m->display_name;
	return "";
}

static void facts_add(const struct xp_names *nm, xp_stat *const *s, size_t n, struct xp_facts *f)
{
	for (size_t i = 0; i < n; i++) {
		int32_t k = gp_u64map_get(&nm->key, (uint64_t)s[i]->metadata_id);
		if (k > 0 && !f->s[k])
			f->s[k] = s[i];
	}
}

void xp_facts_of(const struct xp_names *nm, const xp_event *e, struct xp_facts *f)
{
	const Gpuprof__Xplane__XEventMetadata *m = event_meta(nm, e);

	memset(f, 0, sizeof(*f));
	f->nm = nm;
	facts_add(nm, e->stats, e->n_stats, f);
	if (m)
		facts_add(nm, m->stats, m->n_stats, f);
}

const char *xp_stat_text(const struct xp_facts *f, enum xp_key k)
{
	const xp_stat *s = f->s[k];

	if (!s)
		return NULL;
	if (s->value_case == GPUPROF__XPLANE__XSTAT__VALUE_STR_VALUE)
		return s->str_value;
	if (s->value_case == GPUPROF__XPLANE__XSTAT__VALUE_REF_VALUE) {
		int32_t i = gp_u64map_get(&f->nm->st, s->ref_value);
		const Gpuprof__Xplane__XStatMetadata *m = i >= 0 ? f->nm->p->stat_metadata[i]->value : NULL;
		return m ? m->name : NULL;
	}
	return NULL;
}

bool xp_stat_u64(const struct xp_facts *f, enum xp_key k, uint64_t *v)
{
	const xp_stat *s = f->s[k];

	if (!s)
		return false;
	switch (s->value_case) {
	case GPUPROF__XPLANE__XSTAT__VALUE_UINT64_VALUE:
		*v = s->uint64_value;
		return true;
	case GPUPROF__XPLANE__XSTAT__VALUE_INT64_VALUE:
		*v = (uint64_t)s->int64_value;
		return s->int64_value >= 0;
	case GPUPROF__XPLANE__XSTAT__VALUE_DOUBLE_VALUE:
		*v = (uint64_t)s->double_value;
		return s->double_value >= 0 && s->double_value < 1.8e19;
	default:
		return false;
	}
}

/* A damaged file's times are held within a quarter of the int64 range
** (+-73 years of ns, far beyond any clock's epoch), so the difference of
** any two of them, a duration or a gap later passes take, cannot overflow. */
#define XP_TIME_LIMIT (INT64_MAX / 4)

/* a + b, held within +-XP_TIME_LIMIT */
static int64_t sat_add(int64_t a, int64_t b)
{
	int64_t r;

	if (__builtin_add_overflow(a, b, &r))
		return b > 0 ? XP_TIME_LIMIT : -XP_TIME_LIMIT;
	return r > XP_TIME_LIMIT ? XP_TIME_LIMIT : r < -XP_TIME_LIMIT ? -XP_TIME_LIMIT : r;
}

void xp_event_span(const xp_line *l, const xp_event *e, gp_ns *start, gp_ns *end)
{
	/* picoseconds from the line's start; whole ns (floor) both ends */
	int64_t off = e->data_case == GPUPROF__XPLANE__XEVENT__DATA_OFFSET_PS ? e->offset_ps : 0;
	int64_t dur = e->duration_ps > 0 ? e->duration_ps : 0;

	*start = sat_add(l->timestamp_ns, off / 1000);
	*end = sat_add(*start, sat_add(off % 1000, dur) / 1000);
}

/* ---- device planes ---- */

/* Lines a profiler derives from the streams (xprof's "XLA Ops" & co):
** they repeat the streams' time, so they are no stream. */
static bool derived_line(const char *name)
{
	static const char *const derived[] = {
		"XLA Modules", "XLA Ops", "XLA TraceMe", "TensorFlow Ops", "TensorFlow Name Scope",
		"Framework Ops", "Framework Name Scope", "Steps", "Source code", "Launch Stats",
		"Async XLA Ops", "SparseCore",
	};
	for (size_t i = 0; i < sizeof(derived) / sizeof(*derived); i++)
		if (strcmp(name, derived[i]) == 0)
			return true;
	return false;
}

/* "grid:219,40,1 block:256,1,1 regs:32 static_shared:0 dynamic_shared:0"
** (the keys in any order, any of them missing) into d. */
static void parse_kernel_details(const char *s, struct gp_kernel_def *d)
{
	for (const char *p = s; p && *p;) {
		while (*p == ' ' || *p == '\n')
			p++;
		const char *colon = strchr(p, ':');
		if (!colon)
			break;
		size_t kl = (size_t)(colon - p);
		unsigned long a = 1, b = 1, c = 1;
		int n = sscanf(colon + 1, "%lu,%lu,%lu", &a, &b, &c);
		if (kl == 4 && strncmp(p, "grid", 4) == 0 && n >= 1)
			d->grid[0] = (uint32_t)a, d->grid[1] = (uint32_t)b, d->grid[2] = (uint32_t)c;
		else if (kl == 5 && strncmp(p, "block", 5) == 0 && n >= 1)
			d->block[0] = (uint32_t)a, d->block[1] = (uint32_t)b, d->block[2] = (uint32_t)c;
		else if (kl == 4 && strncmp(p, "regs", 4) == 0 && n == 1 && a <= 1024)
			d->regs = (uint32_t)a;   /* ROCm's older files write garbage here */
		else if (kl == 13 && strncmp(p, "static_shared", 13) == 0 && n == 1 && a <= (1u << 24))
			d->static_smem = (uint32_t)a;
		else if (kl == 14 && strncmp(p, "dynamic_shared", 14) == 0 && n == 1 && a <= (1u << 24))
			d->dynamic_smem = (uint32_t)a;
		p = strchr(colon, ' ');
	}
}

/* The copy kind a copy's name or memcpy_details kind states. */
static uint8_t copy_kind(const char *name, const char *details)
{
	static const struct { const char *text; uint8_t kind; } kinds[] = {
		{"HostToDevice", GP_COPY_HTOD}, {"H2D", GP_COPY_HTOD}, {"HtoD", GP_COPY_HTOD},
		{"DeviceToHost", GP_COPY_DTOH}, {"D2H", GP_COPY_DTOH}, {"DtoH", GP_COPY_DTOH},
		{"DeviceToDevice", GP_COPY_DTOD}, {"D2D", GP_COPY_DTOD}, {"DtoD", GP_COPY_DTOD},
		{"PeerToPeer", GP_COPY_PTOP}, {"P2P", GP_COPY_PTOP}, {"PtoP", GP_COPY_PTOP},
		{"HostToHost", GP_COPY_HTOH}, {"H2H", GP_COPY_HTOH}, {"HtoH", GP_COPY_HTOH},
	};
	const char *kind = details ? strstr(details, "kind:") : NULL;

	for (size_t i = 0; i < sizeof(kinds) / sizeof(*kinds); i++)
		if (kind && strncmp(kind + 5, kinds[i].text, strlen(kinds[i].text)) == 0)
			return kinds[i].kind;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(*kinds); i++)
		if (strstr(name, kinds[i].text))
			return kinds[i].kind;
	return GP_COPY_UNKNOWN;
}

/* A copy: by its memcpy_details, its line ("Stream #8(MemcpyOther)") or
** its name ("MemcpyH2D", "CopyDeviceToDevice"). */
static bool is_copy(const char *line, const char *name, const struct xp_facts *f)
{
	return f->s[XK_MEMCPY_DETAILS] || strstr(line, "(Memcpy") || strncmp(name, "Memcpy", 6) == 0 ||
	       strncmp(name, "Copy", 4) == 0;
}

/* The kernel's name without ROCm's ".kd" (kernel descriptor) suffix, into
** buf. */
static const char *kernel_name(const char *name, char *buf, size_t size)
{
	size_t n = strlen(name);

	if (n > 3 && n < size && strcmp(name + n - 3, ".kd") == 0) {
		memcpy(buf, name, n - 3);
		buf[n - 3] = '\0';
		return buf;
	}
	return name;
}

/* The plane's own stats (device_vendor, core_count, clock_rate in kHz,
** memory_bandwidth, memory_size, compute_cap_*) into d. */
static void read_device_stats(struct xp *x, const xp_plane *p, const struct xp_names *nm,
			      struct gp_device *d)
{
	xp_event fake = GPUPROF__XPLANE__XEVENT__INIT;
	struct xp_facts f;
	uint64_t v;
	const char *vendor, *name;
	char buf[128];

	fake.metadata_id = INT64_MIN;   /* no metadata: the plane's stats only */
	fake.n_stats = p->n_stats;
	fake.stats = p->stats;
	xp_facts_of(nm, &fake, &f);
	vendor = xp_stat_text(&f, XK_VENDOR);
	name = xp_stat_text(&f, XK_DEVICE_NAME);
	if (!name || !*name) {
		snprintf(buf, sizeof(buf), "%s%sGPU", vendor ? vendor : "", vendor ? " " : "");
		name = buf;
	}
	d->name = gp_intern(x->t, name);
	if (xp_stat_u64(&f, XK_CORES, &v) && v < INT32_MAX)
		d->sm_count = (int32_t)v;
	if (xp_stat_u64(&f, XK_CLOCK, &v))
		d->clock_hz = (double)v * 1e3;   /* kHz */
	if (xp_stat_u64(&f, XK_MEM_BW, &v))
		d->mem_bw = (double)v;
	if (xp_stat_u64(&f, XK_MEM_SIZE, &v))
		d->mem_bytes = v;
	if (xp_stat_u64(&f, XK_CC_MAJOR, &v) && v < 100)
		d->cc_major = (int16_t)v;
	if (xp_stat_u64(&f, XK_CC_MINOR, &v) && v < 100)
		d->cc_minor = (int16_t)v;
	if (vendor && strcmp(vendor, "AMD") == 0)
		d->warp_size = 64;
}

/* One /device:GPU:N plane: a device, its streams' kernels and copies. */
static void read_device(struct xp *x, const xp_plane *p, int32_t dev)
{
	struct xp_names nm;
	struct gp_device *d = gp_vec_push(x->t->devices);
	char buf[4096];

	d->id = dev;
	xp_names_init(&nm, p);
	read_device_stats(x, p, &nm, d);
	for (size_t li = 0; li < p->n_lines; li++) {
		const xp_line *l = p->lines[li];
		const char *lname = l->name ? l->name : "";
		if (derived_line(lname))
			continue;
		for (size_t ei = 0; ei < l->n_events; ei++) {
			const xp_event *e = l->events[ei];
			const char *name = xp_event_name(&nm, e);
			struct xp_facts f;
			uint64_t corr = 0, bytes = 0;
			gp_ns s, en;

			xp_facts_of(&nm, e, &f);
			xp_event_span(l, e, &s, &en);
			xp_stat_u64(&f, XK_CORR, &corr);
			xp_hlo_note(x, corr, &f);
			if (strncmp(name, "Memset", 6) == 0) {
				struct gp_memset *m = gp_vec_push(x->t->memsets);
				*m = (struct gp_memset){.start = s, .end = en, .corr = corr, .pid = x->pid,
							.device = dev, .stream = (uint32_t)l->id};
				continue;
			}
			if (is_copy(lname, name, &f)) {
				const char *det = xp_stat_text(&f, XK_MEMCPY_DETAILS);
				const char *sz = det ? strstr(det, "size:") : NULL;
				if (sz)
					bytes = strtoull(sz + 5, NULL, 10);
				struct gp_memcpy *m = gp_vec_push(x->t->memcpys);
				*m = (struct gp_memcpy){.start = s, .end = en, .corr = corr, .bytes = bytes,
							.pid = x->pid, .device = dev, .src_device = dev,
							.dst_device = dev, .stream = (uint32_t)l->id,
							.copy_kind = copy_kind(name, det),
							.async = det && strstr(det, "async:1")};
				continue;
			}
			struct gp_kernel_def kd = {0};
			const char *det = xp_stat_text(&f, XK_KERNEL_DETAILS);
			kd.name = gp_intern(x->t, kernel_name(name, buf, sizeof(buf)));
			kd.device = dev;
			kd.pid = x->pid;
			if (det)
				parse_kernel_details(det, &kd);
			struct gp_kernel *k = gp_vec_push(x->t->kernels);
			*k = (struct gp_kernel){.start = s, .end = en, .corr = corr,
						.stream = (uint32_t)l->id,
						.def = gp_kernel_def_add(x->t, &kd)};
		}
	}
	xp_names_free(&nm);
}

/* ---- the file ---- */

/* Reads the whole file, gunzipped when it is gzip, into *buf (the
** caller's to free). */
static int read_all(const char *path, unsigned char **buf, size_t *len, gp_error *err)
{
	gzFile z = gzopen(path, "rb");
	size_t cap = 1 << 20, n = 0;
	unsigned char *b;
	int r;

	if (!z)
		return gp_err(err, GP_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
	b = gp_xmalloc(cap);
	while ((r = gzread(z, b + n, (unsigned)(cap - n < (1u << 30) ? cap - n : (1u << 30)))) > 0) {
		n += (size_t)r;
		if (n == cap)
			b = gp_xrealloc(b, cap *= 2);
	}
	if (r < 0) {
		int zerr;
		const char *why = gzerror(z, &zerr);
		gzclose(z);
		free(b);
		if (zerr == Z_ERRNO)
			return gp_err(err, GP_ERR_IO, "%s: cannot read: %s", path, strerror(errno));
		return gp_err(err, GP_ERR_CORRUPT, "%s: damaged gzip stream: %s", path, why);
	}
	gzclose(z);
	*buf = b;
	*len = n;
	return GP_OK;
}

/* protobuf-c's allocator over an arena: the decoded messages (a million
** small ones in a large file) are allocated by bumping a pointer and
** freed at once, not one malloc and free each. */
static void *arena_alloc(void *data, size_t n)
{
	return gp_arena_alloc(data, n ? n : 1);
}

static void arena_keep(void *data, void *p)
{
	(void)data;
	(void)p;
}

/* Reads a protobuf varint at *p (below end); false when cut short. */
static bool varint(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	*v = 0;
	for (int shift = 0; *p < end && shift < 64; shift += 7) {
		unsigned char c = *(*p)++;
		*v |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80))
			return true;
	}
	return false;
}

/* Whether a plane's name is one a profiler writes: "/device:...",
** "/host:...". */
static bool plane_name(const unsigned char *s, uint64_t n)
{
	return (n >= 8 && memcmp(s, "/device:", 8) == 0) || (n >= 6 && memcmp(s, "/host:", 6) == 0);
}

/* The name of the plane message at p..end (its id field, if any, first),
** or NULL. */
static const unsigned char *first_plane_name(const unsigned char *p, const unsigned char *end, uint64_t *n)
{
	uint64_t v;

	if (p < end && *p == 0x08) {   /* id */
		p++;
		if (!varint(&p, end, &v))
			return NULL;
	}
	if (p >= end || *p != 0x12)   /* name: field 2, length-delimited */
		return NULL;
	p++;
	if (!varint(&p, end, n) || *n > (uint64_t)(end - p))
		return NULL;
	return p;
}

/* An XSpace: field 1 (planes, length-delimited: byte 0x0a) first, a
** plane whose first fields are an id and a name like "/device:GPU:0" or
** "/host:CPU". */
static double probe(const struct gp_probe_input *in)
{
	const unsigned char *p = in->head, *end = in->head + in->head_len;
	uint64_t len, n;

	for (int planes = 0; planes < 8 && p < end && *p == 0x0a; planes++) {
		p++;
		if (!varint(&p, end, &len))
			return 0;
		const unsigned char *name = first_plane_name(p, end, &n);
		if (name && plane_name(name, n))
			return 0.95;
		if (len > (uint64_t)(end - p))
			return 0;
		p += len;
	}
	return 0;
}

/* The device number of "/device:GPU:N", or -1. */
static int32_t gpu_number(const char *name)
{
	char *e;
	long v;

	if (strncmp(name, "/device:GPU:", 12) != 0)
		return -1;
	v = strtol(name + 12, &e, 10);
	return e != name + 12 && *e == '\0' && v >= 0 && v < 1 << 20 ? (int32_t)v : -1;
}

/* Decodes the whole file, then reads its GPU planes, then its host plane
** (a launch's op may be stated on its kernel), then attributes kernels to
** XLA ops.  GP_ERR_CORRUPT when protobuf-c cannot decode it or the gzip
** stream is damaged; GP_ERR_FORMAT when it is empty or has no GPU or host
** plane. */
static int load(const char *path, gp_trace *t, const struct gp_load_opts *o, gp_error *err)
{
	unsigned char *buf = NULL;
	size_t len = 0;
	Gpuprof__Xplane__XSpace *sp;
	struct xp x = {.t = t, .path = path, .pid = 1, .next_tid = 0x40000000};
	size_t ndev = 0, nhost = 0, nother = 0;
	gp_arena msgs = {0};
	ProtobufCAllocator pa = {.alloc = arena_alloc, .free = arena_keep, .allocator_data = &msgs};
	int rc;

	(void)o;
	rc = read_all(path, &buf, &len, err);
	if (rc)
		return rc;
	if (len == 0) {
		free(buf);
		return gp_err(err, GP_ERR_FORMAT, "%s: empty file, not a trace", path);
	}
	sp = gpuprof__xplane__xspace__unpack(&pa, len, buf);
	*gp_vec_push(t->processes) = (struct gp_process){x.pid, gp_intern(t, "host")};
	free(buf);
	if (!sp) {
		gp_arena_free(&msgs);
		return gp_err(err, GP_ERR_CORRUPT, "%s: XPlane protobuf is truncated or damaged "
			      "(protobuf-c cannot decode it)", path);
	}
	for (size_t i = 0; i < sp->n_planes; i++) {
		const xp_plane *p = sp->planes[i];
		const char *name = p->name ? p->name : "";
		int32_t dev = gpu_number(name);
		if (dev >= 0) {
			read_device(&x, p, dev);
			ndev++;
		} else if (strcmp(name, "/host:CPU") == 0) {
			nhost++;
		} else if (strncmp(name, "/device:", 8) == 0) {
			nother++;
		}
	}
	/* the host after the devices: a launch's op may be on its kernel */
	for (size_t i = 0; i < sp->n_planes; i++)
		if (sp->planes[i]->name && strcmp(sp->planes[i]->name, "/host:CPU") == 0)
			xp_read_host(&x, sp->planes[i]);
	for (size_t i = 0; i < sp->n_planes; i++)
		if (sp->planes[i]->name && strcmp(sp->planes[i]->name, "/host:metadata") == 0)
			xp_read_hlo(&x, sp->planes[i], &pa);
	if (sp->n_hostnames > 0 && sp->hostnames[0] && *sp->hostnames[0])
		gp_trace_meta_set(t, "hostname", sp->hostnames[0]);
	for (size_t i = 0; i < sp->n_errors; i++)
		gp_trace_warn(t, "the profiler noted an error: %s", sp->errors[i]);
	if (nother)
		gp_trace_warn(t, "%zu device plane(s) that are not GPUs (TPU, custom devices) not read", nother);
	gp_arena_free(&msgs);   /* sp and every message in it */
	if (ndev + nhost == 0) {
		xp_free(&x);
		return gp_err(err, GP_ERR_FORMAT, "%s: XPlane file has no /device:GPU or /host:CPU plane", path);
	}
	xp_attribute(&x);
	/* TensorFlow's ops without JAX's name stacks: TensorFlow; else JAX
	** (a profile with neither is JAX's: TensorFlow names every op) */
	t->framework = x.tf_ops && !x.jax_stacks ? GP_FW_TENSORFLOW : GP_FW_JAX;
	xp_free(&x);
	t->tool_version = gp_intern(t, "XPlane");
	return GP_OK;
}

const struct gp_reader gp_reader_xplane = {
	.name = "xplane",
	.description = "XPlane protobuf (JAX / TensorFlow profiler, *.xplane.pb)",
	.probe = probe,
	.load = load,
};
