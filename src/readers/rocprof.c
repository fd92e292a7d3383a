/*
** Reader: rocprofv3's JSON output (ROCm's rocprofiler-sdk-tool, written by
** `rocprofv3 --output-format json`), .json or .json.gz.
**
** The document is {"rocprofiler-sdk-tool": [PROCESS, ...]}, one object per
** traced process: its metadata (pid, command), agents (CPUs and GPUs with
** their properties), string tables (the names of the record kinds and
** operations, ROCTx messages by correlation id), kernel symbols (names by
** kernel id) and buffer_records: kernel_dispatch, hip_api, hsa_api,
** marker_api, rccl_api, memory_copy, memory_allocation, ...  Records name
** kernels, agents and operations by number; the tables that name them may
** come before or after the records, so a process's records are kept with
** those numbers (kernels and API calls point at pending shared defs) and
** resolved when its object closes (rocprof_finish_process, in
** rocprof_model.c; rocprof_json.h has the state both files share).
**
** One streaming pass with yajl over chunks of the (inflated) file: memory
** grows with the records kept, not with the file.  docs/trace-model.md
** ("rocprofv3 mapping") has the field mapping and what rocprofv3 cannot
** tell.
*/
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yajl/yajl_parse.h>

#include "readers/inflate.h"
#include "readers/jsonutil.h"
#include "readers/reader.h"
#include "readers/rocprof.h"
#include "readers/rocprof_int.h"
#include "readers/rocprof_json.h"

#define CHUNK (256u << 10)
#define TOOL_KEY "rocprofiler-sdk-tool"

/* What a container is, decided when it opens from where it opens. */
enum ctx {
	C_ROOT, C_TOP, C_PROCS, C_PROC, C_META, C_CMD, C_NODE, C_AGENTS, C_AGENT, C_AGENT_ID,
	C_BANKS, C_BANK, C_CACHES, C_CACHE, C_STRINGS, C_SBUF, C_SKIND, C_SOPS, C_SMARK, C_SMARK_KV,
	C_SYMS, C_SYM, C_BUFREC, C_RECS, C_REC, C_RSUB, C_RSUB2, C_SKIP,
};

/* The keys the reader knows; any other is K_NONE (skipped). */
enum key {
	K_NONE, K_TOOL, K_METADATA, K_AGENTS, K_STRINGS, K_KERNEL_SYMBOLS, K_BUFFER_RECORDS,
	K_PID, K_COMMAND, K_NODE, K_HOSTNAME,
	K_ID, K_HANDLE, K_TYPE, K_CU_COUNT, K_GFX, K_CLK_F, K_NAME, K_PRODUCT_NAME, K_GPU_INDEX,
	K_MEM_BANKS, K_SIZE_IN_BYTES, K_CACHES, K_LEVEL, K_SIZE,
	K_KIND, K_OPERATIONS, K_MARKER_API, K_KEY, K_VALUE,
	K_KERNEL_ID, K_KERNEL_NAME, K_FORMATTED_NAME, K_GROUP_SEG, K_ARCH_VGPR, K_ACCUM_VGPR,
	K_KERNEL_DISPATCH, K_HIP_API, K_HSA_API, K_RCCL_API, K_ROCDECODE_API, K_ROCJPEG_API,
	K_MEMORY_COPY, K_MEMORY_ALLOCATION,
	K_OPERATION, K_THREAD_ID, K_CORRELATION_ID, K_INTERNAL, K_START, K_END, K_DISPATCH_INFO,
	K_STREAM_ID, K_QUEUE_ID, K_AGENT_ID, K_SRC_AGENT, K_DST_AGENT, K_BYTES, K_ADDRESS,
	K_ALLOC_SIZE, K_WORKGROUP, K_GRID, K_X, K_Y, K_Z,
};

/* The key table: name, its length, the key. */
#define K(name, key) {name, sizeof(name) - 1, key}
static const struct { const char *name; uint8_t len, key; } keys[] = {
	K(TOOL_KEY, K_TOOL), K("metadata", K_METADATA), K("agents", K_AGENTS),
	K("strings", K_STRINGS), K("kernel_symbols", K_KERNEL_SYMBOLS),
	K("buffer_records", K_BUFFER_RECORDS), K("pid", K_PID), K("command", K_COMMAND),
	K("node", K_NODE), K("hostname", K_HOSTNAME), K("id", K_ID), K("handle", K_HANDLE),
	K("type", K_TYPE), K("cu_count", K_CU_COUNT), K("gfx_target_version", K_GFX),
	K("max_engine_clk_fcompute", K_CLK_F), K("name", K_NAME), K("product_name", K_PRODUCT_NAME),
	K("gpu_index", K_GPU_INDEX), K("mem_banks", K_MEM_BANKS), K("size_in_bytes", K_SIZE_IN_BYTES),
	K("caches", K_CACHES), K("level", K_LEVEL), K("size", K_SIZE), K("kind", K_KIND),
	K("operations", K_OPERATIONS), K("marker_api", K_MARKER_API), K("key", K_KEY),
	K("value", K_VALUE), K("kernel_id", K_KERNEL_ID), K("kernel_name", K_KERNEL_NAME),
	K("formatted_kernel_name", K_FORMATTED_NAME), K("group_segment_size", K_GROUP_SEG),
	K("arch_vgpr_count", K_ARCH_VGPR), K("accum_vgpr_count", K_ACCUM_VGPR),
	K("kernel_dispatch", K_KERNEL_DISPATCH), K("hip_api", K_HIP_API), K("hsa_api", K_HSA_API),
	K("rccl_api", K_RCCL_API), K("rocdecode_api", K_ROCDECODE_API),
	K("rocjpeg_api", K_ROCJPEG_API), K("memory_copy", K_MEMORY_COPY),
	K("memory_allocation", K_MEMORY_ALLOCATION), K("operation", K_OPERATION),
	K("thread_id", K_THREAD_ID), K("correlation_id", K_CORRELATION_ID), K("internal", K_INTERNAL),
	K("start_timestamp", K_START), K("end_timestamp", K_END), K("dispatch_info", K_DISPATCH_INFO),
	K("stream_id", K_STREAM_ID), K("queue_id", K_QUEUE_ID), K("agent_id", K_AGENT_ID),
	K("src_agent_id", K_SRC_AGENT), K("dst_agent_id", K_DST_AGENT), K("bytes", K_BYTES),
	K("address", K_ADDRESS), K("allocation_size", K_ALLOC_SIZE), K("workgroup_size", K_WORKGROUP),
	K("grid_size", K_GRID), K("x", K_X), K("y", K_Y), K("z", K_Z),
};
#undef K

/* ---- messages ---- */

/* Sets an error naming where the parse is; returns 0 so a yajl callback
** can `return fail(...)` to stop the parse. */
static int fail(struct rp *p, enum gp_status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(struct rp *p, enum gp_status st, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (!p->failed) {
		if (p->rec_depth)
			gp_err(p->err, st, "%s: %s: in buffer_records.%s record %" PRIu64, p->path, what,
			       p->section_name, p->section_records);
		else
			gp_err(p->err, st, "%s: %s", p->path, what);
	}
	p->failed = true;
	return 0;
}

static const char *json_type(char kind)
{
	return kind == 's' ? "string" : kind == 'n' ? "number" : kind == 'b' ? "boolean" : "null";
}

/* ---- small helpers ---- */

static uint8_t key_of(const char *s, size_t n)
{
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (keys[i].len == n && memcmp(keys[i].name, s, n) == 0)
			return keys[i].key;
	return K_NONE;
}

/* The name of key k, for messages ("a field" for the others). */
static const char *key_name(uint8_t k)
{
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (keys[i].key == k)
			return keys[i].name;
	return "a field";
}

/* A number field: its value in *out; for an address also a string
** ("0x00007f...", as rocprofv3 writes them).  Fails (stopping the parse)
** on any other value. */
static bool number(struct rp *p, const char *field, char kind, const char *s, size_t n,
		   uint64_t *out)
{
	if ((kind == 'n' || (kind == 's' && strcmp(field, "address") == 0)) && gp_json_u64(s, n, out))
		return true;
	if (kind == 'n' && n && s[0] == '-')
		fail(p, GP_ERR_CORRUPT, "%s %.*s is negative", field, (int)(n < 40 ? n : 40), s);
	else
		fail(p, GP_ERR_CORRUPT, "%s is a %s, expected a number", field, json_type(kind));
	return false;
}

static gp_str intern(struct rp *p, const char *s, size_t n)
{
	return gp_strtab_intern_n(&p->t->strs, s, n);
}

/* ---- records ---- */

/* Times of the record read: false (counted) when it has none. */
static bool record_times(struct rp *p, gp_ns *start, gp_ns *end)
{
	struct rec *r = &p->rec;

	if ((r->have & (H_START | H_END)) != (H_START | H_END)) {
		p->no_time++;
		return false;
	}
	if (r->start > INT64_MAX || r->end > INT64_MAX) {
		fail(p, GP_ERR_CORRUPT, "timestamp %" PRIu64 " ns is out of range",
		     r->start > INT64_MAX ? r->start : r->end);
		return false;
	}
	*start = (gp_ns)r->start;
	*end = (gp_ns)r->end;
	if (*end < *start) {
		*end = *start;
		p->neg_dur++;
	}
	return true;
}

/* The kernel_dispatch record read, as a kernel whose def is a pending one
** (resolve_kernels names it when the process closes). */
static void add_dispatch(struct rp *p, gp_ns start, gp_ns end)
{
	struct rec *r = &p->rec;
	struct proc *pr = &p->proc;
	struct pend_kdef d = {.kernel_id = r->kernel_id, .agent = r->agent,
			      .group_seg = clamp32(r->group_seg)};

	if (!gp_rocprof_launch(r->wg, r->grid, d.block, d.grid))
		p->zero_wg++;
	if (!(r->have & H_KERNEL))
		d.kernel_id = UINT64_MAX;   /* no symbol has it */
	struct gp_kernel *k = gp_vec_push(p->t->kernels);
	k->start = start;
	k->end = end;
	k->corr = r->corr;
	k->stream = clamp32(r->have & H_STREAM ? r->stream : r->queue);
	k->def = GP_SHARE(pr->kdefs, &pr->kdef_at, &d);
}

/* The API record read (section p->section), as a call whose def is a
** pending one (resolve_apis names it). */
static void add_api(struct rp *p, gp_ns start, gp_ns end)
{
	struct rec *r = &p->rec;
	struct pend_adef d = {.kind = r->kind, .op = r->op, .section = p->section};
	struct gp_api *a = gp_vec_push(p->t->apis);

	a->start = start;
	a->end = end;
	a->corr = r->corr;
	a->tid = (uint32_t)r->tid;
	a->def = GP_SHARE(p->proc.adefs, &p->proc.adef_at, &d);
}

/* The memory_copy record read; its agents are resolved with the process. */
static void add_copy(struct rp *p, gp_ns start, gp_ns end)
{
	struct rec *r = &p->rec;
	struct gp_memcpy *m = gp_vec_push(p->t->memcpys);
	struct pend_copy *c = gp_vec_push(p->proc.copies);

	m->start = start;
	m->end = end;
	m->corr = r->corr;
	m->bytes = r->bytes;
	m->stream = clamp32(r->stream);
	c->src = r->src;
	c->dst = r->dst;
}

/* A record object closed: one record of the current section. */
static int finish_record(struct rp *p)
{
	struct rec *r = &p->rec;
	gp_ns start, end;

	p->nrecords++;
	if (p->section == S_SKIP) {
		p->skipped_records++;
		return 1;
	}
	if (!record_times(p, &start, &end))
		return !p->failed;
	switch (p->section) {
	case S_KERNEL:
		add_dispatch(p, start, end);
		break;
	case S_HIP: case S_HSA: case S_RCCL: case S_OTHER_API:
		add_api(p, start, end);
		break;
	case S_MARKER:
		*gp_vec_push(p->proc.marks) = (struct pend_mark){start, end, r->tid, r->corr, r->kind, r->op};
		break;
	case S_COPY:
		add_copy(p, start, end);
		break;
	case S_ALLOC:
		*gp_vec_push(p->proc.allocs) = (struct pend_alloc){
			.ts = start, .tid = r->tid, .agent = r->agent, .addr = r->addr, .size = r->size,
			.kind = r->kind, .op = r->op};
		break;
	}
	return 1;
}

/* ---- scalars, by the container they are in ---- */

static int meta_value(struct rp *p, uint8_t ctx, uint8_t k, char kind, const char *s, size_t n)
{
	struct proc *pr = &p->proc;

	if (ctx == C_META && k == K_PID)
		return number(p, "metadata.pid", kind, s, n, &pr->pid);
	if (ctx == C_NODE && k == K_HOSTNAME && kind == 's')
		pr->hostname = intern(p, s, n);
	if (ctx == C_CMD && kind == 's') {
		/* the process's name is its program's file name */
		if (!pr->command) {
			size_t b = n;
			while (b && s[b - 1] != '/')
				b--;
			pr->command = intern(p, s + b, n - b);
		}
		int w = snprintf(p->cmd + p->cmd_n, sizeof(p->cmd) - p->cmd_n, "%s%.*s",
				 p->cmd_n ? " " : "", (int)n, s);
		if (w > 0)
			p->cmd_n = p->cmd_n + (size_t)w < sizeof(p->cmd) ? p->cmd_n + (size_t)w
				   : sizeof(p->cmd) - 1;
	}
	return 1;
}

/* One field of an agent, of its id, memory bank or cache. */
static int agent_value(struct rp *p, uint8_t ctx, uint8_t k, char kind, const char *s, size_t n)
{
	struct proc *pr = &p->proc;
	struct agent *a = &pr->agents.v[pr->agents.n - 1];
	uint64_t v;

	if (ctx == C_AGENT_ID) {
		if (k != K_HANDLE)
			return 1;
		if (!number(p, "agent id", kind, s, n, &v))
			return 0;
		a->handle = v;
		return 1;
	}
	if (ctx == C_AGENT && (k == K_NAME || k == K_PRODUCT_NAME)) {
		/* the product ("AMD Instinct MI300X") names it, else the gfx target */
		if (kind == 's' && n && (k == K_PRODUCT_NAME || !a->dev.name))
			a->dev.name = intern(p, s, n);
		return 1;
	}
	if (kind != 'n' || !gp_json_u64(s, n, &v)) {
		if (ctx == C_AGENT && k == K_GPU_INDEX && kind == 'n')
			a->gpu_index = -1;   /* CPUs: -1 */
		return 1;
	}
	if (ctx == C_BANK && k == K_SIZE_IN_BYTES)
		a->dev.mem_bytes += v;
	if (ctx == C_CACHE && k == K_LEVEL)
		a->cache_level = v;
	if (ctx == C_CACHE && k == K_SIZE)
		a->cache_kb = v;
	if (ctx != C_AGENT)
		return 1;
	switch (k) {
	case K_TYPE: a->type = (int64_t)(v & 0xff); break;
	case K_CU_COUNT: a->dev.sm_count = (int32_t)(v > INT32_MAX ? INT32_MAX : v); break;
	case K_GFX: gp_rocprof_gfx(v, &a->dev); break;
	case K_CLK_F: a->dev.clock_hz = (double)v * 1e6; break;
	case K_GPU_INDEX: a->gpu_index = v > INT32_MAX ? -1 : (int64_t)v; break;
	}
	return 1;
}

/* strings.buffer_records[i] {kind, operations[]}, strings.marker_api[]
** {key: correlation id, value: message}. */
static int strings_value(struct rp *p, uint8_t ctx, uint8_t k, char kind, const char *s, size_t n)
{
	struct proc *pr = &p->proc;

	if (ctx == C_SKIND && k == K_KIND && kind == 's')
		pr->kinds.v[pr->kinds.n - 1].name = intern(p, s, n);
	else if (ctx == C_SOPS) {
		if (kind != 's')
			return fail(p, GP_ERR_CORRUPT, "strings.buffer_records operations hold a %s, "
				    "expected names", json_type(kind));
		*gp_vec_push(pr->ops) = intern(p, s, n);
		pr->kinds.v[pr->kinds.n - 1].n++;
	} else if (ctx == C_SMARK_KV && k == K_KEY) {
		if (!number(p, "strings.marker_api key", kind, s, n, &pr->msg_key))
			return 0;
		pr->msg_has_key = true;
	} else if (ctx == C_SMARK_KV && k == K_VALUE && kind == 's') {
		pr->msg_value = intern(p, s, n);
	}
	return 1;
}

/* One field of a kernel_symbols entry (its id is kept in p->rec until the
** entry closes). */
static int sym_value(struct rp *p, uint8_t k, char kind, const char *s, size_t n)
{
	struct sym *y = &p->proc.syms.v[p->proc.syms.n - 1];
	uint64_t v;

	switch (k) {
	case K_KERNEL_ID:
		if (!number(p, "kernel_symbols kernel_id", kind, s, n, &v))
			return 0;
		p->rec.kernel_id = v;
		p->rec.have |= H_KERNEL;
		return 1;
	case K_KERNEL_NAME:
		if (kind == 's')
			y->raw = intern(p, s, n);
		return 1;
	case K_FORMATTED_NAME:
		if (kind == 's' && n)
			y->formatted = intern(p, s, n);
		return 1;
	case K_GROUP_SEG: case K_ARCH_VGPR: case K_ACCUM_VGPR:
		if (kind != 'n' || !gp_json_u64(s, n, &v))
			return 1;
		if (k == K_GROUP_SEG)
			y->lds = clamp32(v);
		else   /* VGPRs per work-item: the architected and the accumulation ones */
			y->regs = clamp32((uint64_t)y->regs + v);
		return 1;
	}
	return 1;
}

/* A field of the record being read, at its top level (sub 0), inside one
** of its objects (sub 1: correlation_id, dispatch_info, stream_id, agent
** ids) or one level deeper (sub 2: dispatch_info.agent_id, .workgroup_size,
** .grid_size). */
static int rec_value(struct rp *p, int sub, uint8_t k, char kind, const char *s, size_t n)
{
	struct rec *r = &p->rec;
	uint8_t k1 = sub >= 1 ? p->key[p->rec_depth] : K_NONE;
	uint8_t k2 = sub >= 2 ? p->key[p->rec_depth + 1] : K_NONE;
	uint64_t v;
	uint64_t *dst = NULL;
	unsigned bit = 0;

	if (sub == 0) {
		switch (k) {
		case K_KIND: dst = &r->kind; break;
		case K_OPERATION: dst = &r->op; break;
		case K_THREAD_ID: dst = &r->tid; break;
		case K_START: dst = &r->start; bit = H_START; break;
		case K_END: dst = &r->end; bit = H_END; break;
		case K_BYTES: dst = &r->bytes; break;
		case K_ALLOC_SIZE: dst = &r->size; break;
		case K_ADDRESS: dst = &r->addr; break;   /* a hex string: "0x00007f..." */
		}
	} else if (sub == 1) {
		if (k1 == K_CORRELATION_ID && k == K_INTERNAL)
			dst = &r->corr;
		else if (k1 == K_DISPATCH_INFO && k == K_KERNEL_ID)
			dst = &r->kernel_id, bit = H_KERNEL;
		else if (k1 == K_DISPATCH_INFO && k == K_GROUP_SEG)
			dst = &r->group_seg;
		else if (k == K_HANDLE && k1 == K_STREAM_ID)
			dst = &r->stream, bit = H_STREAM;
		else if (k == K_HANDLE && k1 == K_AGENT_ID)
			dst = &r->agent;
		else if (k == K_HANDLE && k1 == K_SRC_AGENT)
			dst = &r->src;
		else if (k == K_HANDLE && k1 == K_DST_AGENT)
			dst = &r->dst;
		else if (k == K_HANDLE && k1 == K_QUEUE_ID)
			dst = &r->queue;
	} else if (k1 == K_DISPATCH_INFO) {
		int i = k == K_X ? 0 : k == K_Y ? 1 : k == K_Z ? 2 : -1;
		if (k2 == K_AGENT_ID && k == K_HANDLE)
			dst = &r->agent;
		else if (k2 == K_QUEUE_ID && k == K_HANDLE)
			dst = &r->queue;
		else if (k2 == K_WORKGROUP && i >= 0)
			dst = &r->wg[i];
		else if (k2 == K_GRID && i >= 0)
			dst = &r->grid[i];
	}
	if (!dst || kind == 'z')
		return 1;   /* not read, or null: not stated */
	if (!number(p, key_name(k), kind, s, n, &v))
		return 0;
	*dst = v;
	r->have |= bit;
	return 1;
}

/* A scalar value (kind: 's' string, 'n' number, 'b' bool, 'z' null). */
static int on_value(struct rp *p, char kind, const char *s, size_t n)
{
	uint8_t c = p->ctx[p->depth], k = p->key[p->depth];

	switch (c) {
	case C_ROOT:
		return fail(p, GP_ERR_FORMAT, "not a rocprofv3 JSON file: the document is a single %s",
			    json_type(kind));
	case C_PROCS:
		return fail(p, GP_ERR_CORRUPT, TOOL_KEY " holds a %s, expected process objects",
			    json_type(kind));
	case C_RECS:
		return fail(p, GP_ERR_CORRUPT, "buffer_records.%s holds a %s, expected record objects",
			    p->section_name, json_type(kind));
	case C_META: case C_CMD: case C_NODE:
		return meta_value(p, c, k, kind, s, n);
	case C_AGENT: case C_AGENT_ID: case C_BANK: case C_CACHE:
		return agent_value(p, c, k, kind, s, n);
	case C_SKIND: case C_SOPS: case C_SMARK_KV:
		return strings_value(p, c, k, kind, s, n);
	case C_SYM:
		return sym_value(p, k, kind, s, n);
	case C_REC:
		return rec_value(p, 0, k, kind, s, n);
	case C_RSUB:
		return rec_value(p, 1, k, kind, s, n);
	case C_RSUB2:
		return rec_value(p, 2, k, kind, s, n);
	}
	return 1;
}

static int cb_null(void *ctx)
{
	return on_value(ctx, 'z', "null", 4);
}

static int cb_boolean(void *ctx, int b)
{
	return on_value(ctx, 'b', b ? "true" : "false", b ? 4 : 5);
}

static int cb_number(void *ctx, const char *s, size_t n)
{
	return on_value(ctx, 'n', s, n);
}

static int cb_string(void *ctx, const unsigned char *s, size_t n)
{
	return on_value(ctx, 's', (const char *)s, n);
}

/* ---- containers ---- */

/* The section a buffer_records key names. */
static uint8_t section_of(uint8_t k)
{
	switch (k) {
	case K_KERNEL_DISPATCH: return S_KERNEL;
	case K_HIP_API: return S_HIP;
	case K_HSA_API: return S_HSA;
	case K_RCCL_API: return S_RCCL;
	case K_ROCDECODE_API: case K_ROCJPEG_API: return S_OTHER_API;
	case K_MARKER_API: return S_MARKER;
	case K_MEMORY_COPY: return S_COPY;
	case K_MEMORY_ALLOCATION: return S_ALLOC;
	}
	return S_SKIP;
}

/* What a container opening in container c under key k is; C_SKIP for
** what the reader does not read, -1 (after fail()) for a container where
** a scalar or the other kind of container belongs. */
static int open_ctx(struct rp *p, uint8_t c, uint8_t k, bool is_map)
{
	struct proc *pr = &p->proc;

	switch (c) {
	case C_ROOT:
		if (!is_map)
			return fail(p, GP_ERR_FORMAT, "not a rocprofv3 JSON file: the document is an "
				    "array, expected an object with a " TOOL_KEY " array"), -1;
		return C_TOP;
	case C_TOP:
		if (k != K_TOOL)
			return C_SKIP;
		if (is_map)
			return fail(p, GP_ERR_CORRUPT, TOOL_KEY " is an object, expected an array"), -1;
		p->seen_tool = true;
		return C_PROCS;
	case C_PROCS:
		if (!is_map)
			return fail(p, GP_ERR_CORRUPT, TOOL_KEY " holds an array, expected process "
				    "objects"), -1;
		pr->kernel_first = p->t->kernels.n;
		pr->api_first = p->t->apis.n;
		pr->copy_first = p->t->memcpys.n;
		return C_PROC;
	case C_PROC:
		if (k == K_METADATA && is_map)
			return C_META;
		if (k == K_AGENTS && !is_map)
			return C_AGENTS;
		if (k == K_STRINGS && is_map)
			return C_STRINGS;
		if (k == K_KERNEL_SYMBOLS && !is_map)
			return C_SYMS;
		if (k == K_BUFFER_RECORDS && is_map)
			return C_BUFREC;
		return C_SKIP;
	case C_META:
		return k == K_COMMAND && !is_map ? C_CMD : k == K_NODE && is_map ? C_NODE : C_SKIP;
	case C_AGENTS:
		if (!is_map)
			return C_SKIP;
		struct agent *a = gp_vec_push(pr->agents);
		a->listed = true;
		a->gpu_index = -1;
		return C_AGENT;
	case C_AGENT:
		if (k == K_ID && is_map)
			return C_AGENT_ID;
		return k == K_MEM_BANKS && !is_map ? C_BANKS : k == K_CACHES && !is_map ? C_CACHES : C_SKIP;
	case C_BANKS:
		return is_map ? C_BANK : C_SKIP;
	case C_CACHES:
		if (!is_map)
			return C_SKIP;
		pr->agents.v[pr->agents.n - 1].cache_level = 0;
		pr->agents.v[pr->agents.n - 1].cache_kb = 0;
		return C_CACHE;
	case C_STRINGS:
		return k == K_BUFFER_RECORDS && !is_map ? C_SBUF : k == K_MARKER_API && !is_map ? C_SMARK
		       : C_SKIP;
	case C_SBUF:
		if (!is_map)
			return C_SKIP;
		gp_vec_push(pr->kinds)->first = (uint32_t)pr->ops.n;
		return C_SKIND;
	case C_SKIND:
		return k == K_OPERATIONS && !is_map ? C_SOPS : C_SKIP;
	case C_SOPS:
		return fail(p, GP_ERR_CORRUPT, "strings.buffer_records operations hold %s, expected "
			    "names", is_map ? "an object" : "an array"), -1;
	case C_SMARK:
		if (!is_map)
			return C_SKIP;
		pr->msg_has_key = false;
		pr->msg_value = 0;
		return C_SMARK_KV;
	case C_SYMS:
		if (!is_map)
			return C_SKIP;
		gp_vec_push(pr->syms);
		p->rec.have = 0;
		return C_SYM;
	case C_BUFREC:
		if (is_map)
			return C_SKIP;
		p->section = section_of(k);
		p->section_name = key_name(k);
		p->section_records = 0;
		return C_RECS;
	case C_RECS:
		if (!is_map)
			return fail(p, GP_ERR_CORRUPT, "buffer_records.%s holds an array, expected "
				    "record objects", p->section_name), -1;
		memset(&p->rec, 0, sizeof(p->rec));
		p->rec_depth = p->depth + 1;
		return C_REC;
	case C_REC:
		if (k == K_START || k == K_END || k == K_KIND || k == K_OPERATION || k == K_THREAD_ID ||
		    k == K_BYTES || k == K_ALLOC_SIZE)
			return fail(p, GP_ERR_CORRUPT, "%s is %s, expected a number", key_name(k),
				    is_map ? "an object" : "an array"), -1;
		if (!is_map && (k == K_CORRELATION_ID || k == K_DISPATCH_INFO || k == K_STREAM_ID ||
				k == K_AGENT_ID || k == K_SRC_AGENT || k == K_DST_AGENT))
			return fail(p, GP_ERR_CORRUPT, "%s is an array, expected an object", key_name(k)), -1;
		return is_map ? C_RSUB : C_SKIP;
	case C_RSUB:
		return is_map ? C_RSUB2 : C_SKIP;
	}
	return C_SKIP;
}

static int on_open(struct rp *p, bool is_map)
{
	uint8_t c = p->ctx[p->depth], k = p->key[p->depth];
	int nc = c == C_SKIP ? C_SKIP : open_ctx(p, c, k, is_map);

	if (nc < 0)
		return 0;
	if (p->depth >= MAX_DEPTH)
		return fail(p, GP_ERR_CORRUPT, "JSON nested deeper than %d levels", MAX_DEPTH);
	p->depth++;
	p->ctx[p->depth] = (uint8_t)nc;
	p->key[p->depth] = K_NONE;
	return 1;
}

/* A container closes: what it held is complete. */
static int on_close(struct rp *p)
{
	struct proc *pr = &p->proc;
	uint8_t c = p->ctx[p->depth];
	int ok = 1;

	p->depth--;
	switch (c) {
	case C_PROC:
		rocprof_finish_process(p);
		break;
	case C_AGENT: {
		size_t last = pr->agents.n - 1;
		int32_t at = gp_u64map_add(&pr->agent_at, pr->agents.v[last].handle, (int32_t)last);
		if ((size_t)at != last) {   /* named by a record before, or listed twice */
			if (!pr->agents.v[at].listed)
				pr->agents.v[at] = pr->agents.v[last];
			pr->agents.n--;
		}
		break;
	}
	case C_CACHE: {
		struct agent *a = &pr->agents.v[pr->agents.n - 1];
		if (a->cache_level == 2)
			a->dev.l2_bytes += a->cache_kb << 10;
		break;
	}
	case C_SMARK_KV:
		if (pr->msg_has_key && pr->msg_value) {
			int32_t at = gp_u64map_add(&pr->msg_at, pr->msg_key, (int32_t)pr->msgs.n);
			if ((size_t)at == pr->msgs.n)
				*gp_vec_push(pr->msgs) = pr->msg_value;
		}
		break;
	case C_SYM: {
		size_t last = pr->syms.n - 1;
		if (!(p->rec.have & H_KERNEL)) {
			pr->syms.n--;   /* a symbol without an id names nothing */
			break;
		}
		if ((size_t)gp_u64map_add(&pr->sym_at, p->rec.kernel_id, (int32_t)last) != last)
			pr->syms.n--;   /* the first of a repeated id */
		break;
	}
	case C_REC:
		ok = finish_record(p);
		p->rec_depth = 0;
		p->section_records++;
		break;
	}
	return ok;
}

static int cb_start_map(void *ctx)
{
	return on_open(ctx, true);
}

static int cb_end_map(void *ctx)
{
	return on_close(ctx);
}

static int cb_start_array(void *ctx)
{
	return on_open(ctx, false);
}

static int cb_end_array(void *ctx)
{
	return on_close(ctx);
}

static int cb_map_key(void *ctx, const unsigned char *key, size_t n)
{
	struct rp *p = ctx;

	if (p->ctx[p->depth] != C_SKIP)
		p->key[p->depth] = key_of((const char *)key, n);
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

/* ---- driving the parse ---- */
/* The notes of what was skipped or repaired. */
static void add_notes(struct rp *p)
{
	gp_trace *t = p->t;

	if (p->no_time)
		gp_trace_warn(t, "%" PRIu64 " rocprofv3 records without start_timestamp or end_timestamp "
			      "skipped", p->no_time);
	gp_rocprof_notes(t, p->neg_dur, p->zero_wg, p->unpaired_free);
	if (p->no_symbol)
		gp_trace_warn(t, "%" PRIu64 " kernel dispatches name a kernel_id that kernel_symbols "
			      "does not list: named (unknown kernel)", p->no_symbol);
	if (p->unlisted_agent)
		gp_trace_warn(t, "%" PRIu64 " agents named by records are not in agents: their GPUs "
			      "have no properties", p->unlisted_agent);
	if (p->no_message)
		gp_trace_warn(t, "%" PRIu64 " ROCTx marks or ranges have no message in strings.marker_api "
			      "(read as API calls)", p->no_message);
	if (p->skipped_records)
		gp_trace_warn(t, "%" PRIu64 " rocprofv3 records of other kinds (scratch memory, PC "
			      "samples, counters...) not read", p->skipped_records);
}

/* The message for a yajl status other than ok; returns its status.
** offset: bytes consumed; at_end: the input ended cleanly. */
static int parse_error(struct rp *p, yajl_handle h, yajl_status st, uint64_t offset, bool at_end)
{
	if (st == yajl_status_client_canceled)   /* fail() wrote the message; add where */
		return gp_json_err_at(p->err, offset);
	if (at_end && p->depth > 0)
		return gp_err(p->err, GP_ERR_CORRUPT, "%s: truncated JSON: the file ends after %" PRIu64
			      " records (byte offset %" PRIu64 ")", p->path, p->nrecords, offset);
	char msg[256];
	gp_json_yajl_error(h, msg, sizeof(msg));
	return gp_err(p->err, p->seen_tool ? GP_ERR_CORRUPT : GP_ERR_FORMAT,
		      "%s: invalid JSON (%s): at byte offset %" PRIu64 ", after %" PRIu64 " records",
		      p->path, msg, offset, p->nrecords);
}

/* Parses chunks from in (or, when in is NULL, data[0..len)) into t;
** progress (o's, if any) against size.  Returns GP_OK, or an error naming
** path, what and where (docs/trace-model.md, "rocprofv3 mapping"). */
static int parse(const char *path, gp_inflate *in, const char *data, size_t len, uint64_t size,
		 const struct gp_load_opts *o, gp_trace *t, gp_error *err)
{
	struct rp *p = gp_xcalloc(1, sizeof(*p));
	yajl_handle h = yajl_alloc(&callbacks, NULL, p);
	uint64_t offset = 0;
	int rc = GP_OK;
	yajl_status st;

	p->t = t;
	p->path = path;
	p->err = err;
	yajl_config(h, yajl_dont_validate_strings, 1);
	for (;;) {
		const char *chunk = NULL, *why = NULL;
		long n;
		if (in) {
			n = gp_inflate_read(in, &chunk, &why);
		} else {
			chunk = data + offset;
			n = (long)(len - offset < CHUNK ? len - offset : CHUNK);
		}
		if (n < 0) {
			rc = gp_err(err, GP_ERR_CORRUPT, "%s: truncated or damaged gzip stream (%s): after "
				    "%" PRIu64 " uncompressed bytes, %" PRIu64 " records", path,
				    gp_inflate_cause(why, path), offset, p->nrecords);
			goto out;
		}
		if (n == 0)
			break;
		st = yajl_parse(h, (const unsigned char *)chunk, (size_t)n);
		if (st != yajl_status_ok) {
			rc = parse_error(p, h, st, offset + yajl_get_bytes_consumed(h), false);
			goto out;
		}
		offset += (uint64_t)n;
		if (o && o->progress)
			o->progress(o->progress_ctx, in ? gp_inflate_position(in) : offset, size);
	}
	st = yajl_complete_parse(h);
	if (st != yajl_status_ok)
		rc = parse_error(p, h, st, offset, true);
	else if (!p->seen_tool)
		rc = gp_err(err, GP_ERR_FORMAT, "%s: not a rocprofv3 JSON file: no " TOOL_KEY
			    " array in the JSON object", path);
	if (rc == GP_OK) {
		t->tool_version = gp_intern(t, "rocprofv3 (rocprofiler-sdk-tool JSON)");
		add_notes(p);
	}
out:
	yajl_free(h);
	rocprof_proc_free(&p->proc);
	free(p);
	return rc;
}

int gp_rocprof_load_buffer(const char *name, const void *data, size_t len, gp_trace *t,
			   gp_error *err)
{
	return parse(name, NULL, data, len, len, NULL, t, err);
}

/* gp_reader.load: the file (gzip or plain), inflated on a second thread
** unless o asks for one thread. */
static int load(const char *path, gp_trace *t, const struct gp_load_opts *o, gp_error *err)
{
	struct stat st;
	uint64_t size = stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
	gp_inflate *in = gp_inflate_open(path, CHUNK, !o || o->threads != 1, err);
	int rc;

	if (!in)
		return err->status;
	rc = parse(path, in, NULL, 0, size, o, t, err);
	gp_inflate_close(in);
	return rc;
}

/* Content sniffing: a JSON object whose first key is rocprofiler-sdk-tool
** (rocprofv3 writes it first), or that names it in its first bytes. */
static double probe(const struct gp_probe_input *in)
{
	size_t i = 0, n = in->head_len;
	const char *key = "\"" TOOL_KEY "\"";
	size_t kl = strlen(key);

	while (i < n && (in->head[i] == ' ' || in->head[i] == '\t' || in->head[i] == '\n' ||
			 in->head[i] == '\r'))
		i++;
	if (i == n || in->head[i] != '{')
		return 0;
	for (i++; i < n && (in->head[i] == ' ' || in->head[i] == '\t' || in->head[i] == '\n' ||
			    in->head[i] == '\r'); i++)
		;
	if (n - i >= kl && memcmp(in->head + i, key, kl) == 0)
		return 0.95;
	for (size_t j = i; j + kl <= n; j++)
		if (memcmp(in->head + j, key, kl) == 0)
			return 0.5;
	return 0;
}

const struct gp_reader gp_reader_rocprof = {
	.name = "rocprof",
	.description = "rocprofv3 JSON (rocprofiler-sdk-tool)",
	.probe = probe,
	.load = load,
};
