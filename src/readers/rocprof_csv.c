/*
** Reader: rocprofv3's CSV output (ROCm's rocprofiler-sdk-tool, written by
** `rocprofv3 --kernel-trace ...` with its default `--output-format csv`):
** one file per record kind, PREFIX_kernel_trace.csv, PREFIX_agent_info.csv,
** PREFIX_hip_api_trace.csv, PREFIX_hsa_api_trace.csv,
** PREFIX_marker_api_trace.csv, PREFIX_rccl_api_trace.csv,
** PREFIX_memory_copy_trace.csv and PREFIX_memory_allocation_trace.csv
** (PREFIX: the process id, by default).
**
** The kernel trace is the file the loader recognises (by its header); the
** other files of its run are read with it, found by their names beside
** it.  Every file is read by its header's column names, so the column sets
** of rocprofv3's versions (Stream_Id and the register counts since ROCm
** 6.4; Private_Segment_Size / Group_Segment_Size before) read alike.  The
** records become the same model as the JSON reader's (rocprof.c), through
** the functions they share (rocprof_int.h).  docs/trace-model.md
** ("rocprofv3 mapping", "CSV") has the mapping and what CSV cannot tell.
**
** One streaming pass over each file, row by row.
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "readers/inflate.h"
#include "readers/reader.h"
#include "readers/rocprof.h"
#include "readers/rocprof_int.h"
#include "util/u64map.h"

#define CHUNK (256u << 10)
#define MAX_ROW (1u << 20)       /* bytes of one row: a kernel name is < 64 KiB */
#define MAX_FIELDS 128           /* agent_info has 53 columns */
#define KERNEL_FILE "kernel_trace"

/* What a file holds, by its header. */
enum kind { F_UNKNOWN, F_KERNEL, F_API, F_COPY, F_ALLOC, F_AGENT };

/* The columns the reader reads, by name; any other is skipped. */
enum col {
	COL_AGENT, COL_QUEUE, COL_STREAM, COL_THREAD, COL_KERNEL_ID, COL_KERNEL_NAME, COL_CORR,
	COL_START, COL_END, COL_LDS, COL_GROUP_SEG, COL_VGPR, COL_ACCUM_VGPR, COL_WG_X, COL_WG_Y,
	COL_WG_Z, COL_GRID_X, COL_GRID_Y, COL_GRID_Z,
	COL_DOMAIN, COL_FUNCTION, COL_PID,
	COL_DIRECTION, COL_SRC_AGENT, COL_DST_AGENT,
	COL_OPERATION, COL_ALLOC_SIZE, COL_ADDRESS,
	COL_NODE, COL_AGENT_TYPE, COL_CU_COUNT, COL_GFX, COL_CLK, COL_WAVE, COL_NAME, COL_PRODUCT,
	COL__COUNT
};

static const char *const col_names[COL__COUNT] = {
	"Agent_Id", "Queue_Id", "Stream_Id", "Thread_Id", "Kernel_Id", "Kernel_Name",
	"Correlation_Id", "Start_Timestamp", "End_Timestamp", "LDS_Block_Size", "Group_Segment_Size",
	"VGPR_Count", "Accum_VGPR_Count", "Workgroup_Size_X", "Workgroup_Size_Y", "Workgroup_Size_Z",
	"Grid_Size_X", "Grid_Size_Y", "Grid_Size_Z",
	"Domain", "Function", "Process_Id",
	"Direction", "Source_Agent_Id", "Destination_Agent_Id",
	"Operation", "Allocation_Size", "Address",
	"Node_Id", "Agent_Type", "Cu_Count", "Gfx_Target_Version", "Max_Engine_Clk_Fcompute",
	"Wave_Front_Size", "Name", "Product_Name",
};

/* The sibling files of a kernel trace, in the order they are read: agents
** first (devices), then the calls (the process id), kernels, copies and
** allocations (which name agents). */
static const struct {
	const char *name;
	enum kind kind;
} siblings[] = {
	{"agent_info", F_AGENT}, {"hip_api_trace", F_API}, {"hsa_api_trace", F_API},
	{"marker_api_trace", F_API}, {"rccl_api_trace", F_API}, {KERNEL_FILE, F_KERNEL},
	{"memory_copy_trace", F_COPY}, {"memory_allocation_trace", F_ALLOC},
};

/* One CSV file being read, row by row. */
struct csv {
	const char *path;        /* for messages */
	gp_inflate *in;          /* NULL: reading data[0..len) */
	const char *data;
	size_t len, off;
	const char *chunk;       /* the chunk being read: chunk[pos..n) */
	size_t pos, n;
	int pending;             /* a byte read ahead, -1 none */
	uint64_t line;           /* lines read */
	uint64_t row_line;       /* the line the row read starts on */
	char *buf;               /* the row's fields, each NUL-terminated */
	size_t used, cap;
	uint32_t at[MAX_FIELDS]; /* where each field starts in buf */
	int nf;
	int col[COL__COUNT];     /* the header's column of each, -1 none */
	int ncols;
};

/* An agent of agent_info.csv. */
struct agent {
	uint64_t node;
	int type;                /* 1 CPU, 2 GPU, 0 other */
	struct gp_device dev;    /* id: its rank among the GPUs */
};

/* A run being read: its files and what they share. */
struct run {
	gp_trace *t;
	gp_error *err;
	GP_VEC(struct agent) agents;
	bool have_agents;
	gp_u64map node_dev;      /* without agent_info: node -> device id, by first sight */
	int32_t next_dev;
	uint32_t pid;
	gp_u64map names;         /* interned Kernel_Name -> names index */
	GP_VEC(struct gp_kernel_def) name_defs;   /* name, demangled, mangled of each */
	GP_VEC(struct gp_rocprof_alloc) allocs;
	bool failed;             /* err is set: the first error is kept */
	/* counted for the notes */
	uint64_t neg_dur, zero_wg, no_name, undescribed, unpaired_free, no_bytes;
	uint64_t rows;
};

/* ---- rows ---- */

/* The next byte, -1 at the end, -2 (err set) for a damaged gzip stream. */
static int next_byte(struct csv *c, gp_error *err)
{
	if (c->pending >= 0) {
		int b = c->pending;
		c->pending = -1;
		return b;
	}
	while (c->pos == c->n) {
		long got;
		const char *why = NULL;
		if (c->in) {
			got = gp_inflate_read(c->in, &c->chunk, &why);
		} else {
			c->chunk = c->data + c->off;
			got = (long)(c->len - c->off < CHUNK ? c->len - c->off : CHUNK);
			c->off += (size_t)got;
		}
		if (got < 0)
			return gp_err(err, GP_ERR_CORRUPT, "%s: truncated or damaged gzip stream (%s): "
				      "at line %" PRIu64, c->path, gp_inflate_cause(why, c->path),
				      c->line + 1), -2;
		if (got == 0)
			return -1;
		c->pos = 0;
		c->n = (size_t)got;
	}
	return (unsigned char)c->chunk[c->pos++];
}

static int put(struct csv *c, char b, gp_error *err)
{
	if (c->used == c->cap) {
		if (c->cap >= MAX_ROW)
			return gp_err(err, GP_ERR_CORRUPT, "%s: line %" PRIu64 " is longer than %u bytes",
				      c->path, c->row_line, MAX_ROW);
		c->cap = c->cap ? c->cap * 2 : 4096;
		c->buf = gp_xrealloc(c->buf, c->cap);
	}
	c->buf[c->used++] = b;
	return GP_OK;
}

/* Ends the field being read and starts the next. */
static int end_field(struct csv *c, gp_error *err)
{
	if (put(c, '\0', err))
		return err->status;
	if (c->nf == MAX_FIELDS)
		return gp_err(err, GP_ERR_CORRUPT, "%s: line %" PRIu64 " has more than %d fields",
			      c->path, c->row_line, MAX_FIELDS);
	c->at[c->nf++] = (uint32_t)c->used;
	return GP_OK;
}

/* Reads the next row into c's fields: 1, or 0 at the end, or -1 (err set).
** CSV as rocprofv3 writes it: fields separated by ',', strings in double
** quotes; "" in a quoted field is a quote, and a quote not followed by ','
** or the line's end is taken as it is (rocprofv3 does not escape the
** quotes a kernel name may hold).  Empty lines are skipped. */
static int next_row(struct csv *c, gp_error *err)
{
	int b;

	do {
		c->used = 0;
		c->nf = 0;
		c->at[c->nf++] = 0;
		c->row_line = c->line + 1;
		bool quoted = false, any = false;
		for (;;) {
			b = next_byte(c, err);
			if (b == -2)
				return -1;
			if (b == -1) {
				if (quoted)
					return gp_err(err, GP_ERR_CORRUPT, "%s: truncated: a quoted field of "
						      "line %" PRIu64 " is not closed at the end of the file",
						      c->path, c->row_line), -1;
				if (!any && c->used == 0)
					return 0;
				break;
			}
			any = true;
			if (quoted) {
				if (b == '\n')
					c->line++;
				if (b != '"') {
					if (put(c, (char)b, err))
						return -1;
					continue;
				}
				int nb = next_byte(c, err);
				if (nb == -2)
					return -1;
				if (nb == '"') {
					if (put(c, '"', err))
						return -1;
					continue;
				}
				c->pending = nb;
				if (nb == ',' || nb == '\n' || nb == '\r' || nb == -1)
					quoted = false;
				else if (put(c, '"', err))
					return -1;
				continue;
			}
			if (b == '"' && c->used == c->at[c->nf - 1]) {
				quoted = true;
			} else if (b == ',') {
				if (end_field(c, err))
					return -1;
			} else if (b == '\n') {
				c->line++;
				break;
			} else if (b != '\r') {
				if (put(c, (char)b, err))
					return -1;
			}
		}
		if (put(c, '\0', err))
			return -1;
	} while (c->nf == 1 && c->buf[0] == '\0');   /* an empty line */
	return 1;
}

static const char *field(const struct csv *c, int i)
{
	return i == 0 ? c->buf : c->buf + c->at[i];
}

/* The kind of file a header says, with its columns found. */
static enum kind read_header(struct csv *c)
{
	bool has[COL__COUNT] = {false};

	for (int k = 0; k < COL__COUNT; k++)
		c->col[k] = -1;
	c->ncols = c->nf;
	for (int i = 0; i < c->nf; i++) {
		const char *h = field(c, i);
		for (int k = 0; k < COL__COUNT; k++)
			if (c->col[k] < 0 && strcmp(h, col_names[k]) == 0) {
				c->col[k] = i;
				has[k] = true;
			}
		if (strcmp(h, "Counter_Name") == 0)
			return F_UNKNOWN;   /* counter collection: per counter, not per dispatch */
	}
	if (has[COL_KERNEL_NAME] && has[COL_START] && has[COL_END])
		return F_KERNEL;
	if (has[COL_NODE] && has[COL_AGENT_TYPE])
		return F_AGENT;
	if (has[COL_DIRECTION] && has[COL_START])
		return F_COPY;
	if (has[COL_ALLOC_SIZE] && has[COL_START])
		return F_ALLOC;
	if (has[COL_DOMAIN] && has[COL_FUNCTION] && has[COL_START])
		return F_API;
	return F_UNKNOWN;
}

static const char *kind_name(enum kind k)
{
	static const char *const names[] = {"unknown", "kernel trace", "API trace", "memory copy trace",
					    "memory allocation trace", "agent info"};
	return names[k];
}

/* Column k of the row as text ("" when the file has no such column). */
static const char *text(const struct csv *c, enum col k)
{
	return c->col[k] < 0 ? "" : field(c, c->col[k]);
}

/* Column k of the row as a number in *v: true; false when it is empty or
** the file has no such column (*v = 0); false with r->failed (err set)
** when it is not a number (decimal; hex with 0x). */
static bool number(struct run *r, const struct csv *c, enum col k, uint64_t *v)
{
	const char *s = text(c, k), *p = s;
	int base = 10;
	uint64_t x = 0;

	*v = 0;
	if (!*s)
		return false;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && s[2])
		base = 16, p = s + 2;
	for (; *p; p++) {
		int d = *p >= '0' && *p <= '9' ? *p - '0'
			: base == 16 && *p >= 'a' && *p <= 'f' ? *p - 'a' + 10
			: base == 16 && *p >= 'A' && *p <= 'F' ? *p - 'A' + 10 : -1;
		if (d < 0 || x > (UINT64_MAX - (uint64_t)d) / (uint64_t)base) {
			if (!r->failed)
				gp_err(r->err, GP_ERR_CORRUPT, "%s: line %" PRIu64 ": %s is '%.40s', expected %s",
				       c->path, c->row_line, col_names[k], s,
				       d < 0 ? "a number" : "a number below 2^64");
			r->failed = true;
			return false;
		}
		x = x * (uint64_t)base + (uint64_t)d;
	}
	*v = x;
	return true;
}

/* A row's start and end (both required, in range); false with r->failed. */
static bool times(struct run *r, const struct csv *c, gp_ns *start, gp_ns *end)
{
	uint64_t s, e;

	if (!number(r, c, COL_START, &s) || !number(r, c, COL_END, &e)) {
		if (!r->failed)
			gp_err(r->err, GP_ERR_CORRUPT, "%s: line %" PRIu64 ": no %s", c->path, c->row_line,
			       text(c, COL_START)[0] ? "End_Timestamp" : "Start_Timestamp");
		r->failed = true;
		return false;
	}
	if (s > INT64_MAX || e > INT64_MAX) {
		gp_err(r->err, GP_ERR_CORRUPT, "%s: line %" PRIu64 ": timestamp %" PRIu64 " ns is out of "
		       "range", c->path, c->row_line, s > INT64_MAX ? s : e);
		r->failed = true;
		return false;
	}
	*start = (gp_ns)s;
	*end = (gp_ns)e;
	if (*end < *start) {
		*end = *start;
		r->neg_dur++;
	}
	return true;
}

/* ---- agents ---- */

static int cmp_agent(const void *pa, const void *pb)
{
	const struct agent *a = pa, *b = pb;

	return a->node < b->node ? -1 : a->node > b->node;
}

/* An agent_info row. */
static int agent_row(struct run *r, const struct csv *c)
{
	struct agent a = {0};
	uint64_t v;
	const char *type = text(c, COL_AGENT_TYPE);

	if (!number(r, c, COL_NODE, &a.node)) {
		if (!r->failed)
			gp_err(r->err, GP_ERR_CORRUPT, "%s: line %" PRIu64 ": no Node_Id", c->path,
			       c->row_line);
		r->failed = true;
		return r->err->status;
	}
	a.type = strcmp(type, "GPU") == 0 ? 2 : strcmp(type, "CPU") == 0 ? 1 : 0;
	if (number(r, c, COL_CU_COUNT, &v))
		a.dev.sm_count = (int32_t)(v > INT32_MAX ? INT32_MAX : v);
	if (number(r, c, COL_GFX, &v))
		gp_rocprof_gfx(v, &a.dev);
	if (number(r, c, COL_CLK, &v))
		a.dev.clock_hz = (double)v * 1e6;
	if (number(r, c, COL_WAVE, &v) && v <= INT16_MAX)
		a.dev.warp_size = (int16_t)v;
	if (r->failed)
		return r->err->status;
	/* the product ("AMD Instinct MI300X") names it, else the gfx target */
	const char *name = *text(c, COL_PRODUCT) ? text(c, COL_PRODUCT) : text(c, COL_NAME);
	if (*name)
		a.dev.name = gp_intern(r->t, name);
	*gp_vec_push(r->agents) = a;
	return GP_OK;
}

/* The agents read: GPUs numbered by node id (rocprofv3's gpu_index, as
** the JSON reader's devices), each a device of the trace. */
static void finish_agents(struct run *r)
{
	int32_t gpu = 0;

	gp_vec_sort(r->agents, cmp_agent);
	for (size_t i = 0; i < r->agents.n; i++) {
		struct agent *a = &r->agents.v[i];
		if (a->type != 2)
			continue;
		a->dev.id = gpu++;
		if (!gp_trace_device(r->t, a->dev.id))
			*gp_vec_push(r->t->devices) = a->dev;
	}
	r->next_dev = gpu;
}

/* The device an Agent_Id names: "Agent N" or N (node N: rocprofv3's
** default absolute index), "GPU N" / "CPU N" (its type-relative index).
** *gpu: a GPU (its device id returned); else GP_MEM_HOST for a CPU, -1
** for an agent agent_info does not describe or an empty field.  Without
** agent_info, a node a kernel ran on (kernel: true) is a GPU numbered by
** first sight. */
static int32_t agent_device(struct run *r, const char *s, bool kernel, bool *gpu)
{
	int type = 0;
	char *end;

	*gpu = false;
	if (strncmp(s, "Agent ", 6) == 0)
		s += 6;
	else if (strncmp(s, "GPU ", 4) == 0)
		s += 4, type = 2;
	else if (strncmp(s, "CPU ", 4) == 0)
		s += 4, type = 1;
	if (*s < '0' || *s > '9')
		return -1;
	unsigned long long n = strtoull(s, &end, 10);
	if (*end)
		return -1;
	if (type == 1)
		return GP_MEM_HOST;
	if (!r->have_agents) {
		if (type == 2 && n <= INT32_MAX) {
			*gpu = true;
			return (int32_t)n;
		}
		int32_t at = gp_u64map_get(&r->node_dev, n);
		if (at < 0 && kernel) {
			at = r->next_dev++;
			gp_u64map_put(&r->node_dev, n, at);
		}
		*gpu = at >= 0;
		return at;
	}
	uint64_t rank = 0;
	for (size_t i = 0; i < r->agents.n; i++) {
		const struct agent *a = &r->agents.v[i];
		if (type == 2 ? a->type == 2 && rank++ == n : a->node == n) {
			*gpu = a->type == 2;
			return *gpu ? a->dev.id : a->type == 1 ? GP_MEM_HOST : -1;
		}
	}
	return -1;
}

/* ---- records ---- */

/* The model's names of Kernel_Name, made once per distinct name. */
static const struct gp_kernel_def *kernel_names(struct run *r, const char *raw)
{
	gp_str s = gp_intern(r->t, raw);
	int32_t at = gp_u64map_get(&r->names, s);

	if (at < 0) {
		at = (int32_t)r->name_defs.n;
		gp_u64map_put(&r->names, s, at);
		struct gp_kernel_def *d = gp_vec_push(r->name_defs);
		memset(d, 0, sizeof(*d));
		gp_rocprof_kernel_names(r->t, raw, 0, d);
	}
	return &r->name_defs.v[at];
}

/* A kernel_trace row: a kernel and its def. */
static int kernel_row(struct run *r, const struct csv *c)
{
	struct gp_kernel_def d = {0};
	uint64_t wg[3], grid[3], v, corr, queue, stream, lds = 0, seg = 0;
	gp_ns start, end;
	bool gpu;

	if (!times(r, c, &start, &end))
		return r->err->status;
	for (int i = 0; i < 3; i++) {
		number(r, c, COL_WG_X + i, &wg[i]);
		number(r, c, COL_GRID_X + i, &grid[i]);
	}
	number(r, c, COL_CORR, &corr);
	number(r, c, COL_QUEUE, &queue);
	bool has_stream = number(r, c, COL_STREAM, &stream);
	number(r, c, COL_LDS, &lds);
	number(r, c, COL_GROUP_SEG, &seg);
	if (number(r, c, COL_VGPR, &v))
		d.regs = (uint32_t)(v > UINT32_MAX ? UINT32_MAX : v);
	if (number(r, c, COL_ACCUM_VGPR, &v))
		d.regs = (uint32_t)(d.regs + v > UINT32_MAX ? UINT32_MAX : d.regs + v);
	if (r->failed)
		return r->err->status;
	const char *name = text(c, COL_KERNEL_NAME);
	if (*name) {
		const struct gp_kernel_def *n = kernel_names(r, name);
		d.name = n->name;
		d.demangled = n->demangled;
		d.mangled = n->mangled;
	} else {
		d.name = d.demangled = gp_intern(r->t, "(unknown kernel)");
		r->no_name++;
	}
	if (!gp_rocprof_launch(wg, grid, d.block, d.grid))
		r->zero_wg++;
	/* the kernel's static LDS (ROCm 6.4+), or the dispatch's group segment */
	d.static_smem = (uint32_t)(lds > UINT32_MAX ? UINT32_MAX : lds);
	d.dynamic_smem = (uint32_t)(seg > UINT32_MAX ? UINT32_MAX : seg);
	d.pid = r->pid;
	d.device = agent_device(r, text(c, COL_AGENT), true, &gpu);
	if (!gpu)
		r->undescribed++;
	struct gp_kernel *k = gp_vec_push(r->t->kernels);
	k->start = start;
	k->end = end;
	k->corr = corr;
	k->ext_id = 0;
	v = has_stream ? stream : queue;
	k->stream = (uint32_t)(v > UINT32_MAX ? UINT32_MAX : v);
	k->def = gp_kernel_def_add(r->t, &d);
	return GP_OK;
}

/* Whether an operation of the MARKER_CORE_API domain is a call (rocprofv3
** writes the message in place of the operation of marks and ranges, the
** operation's name for the others: roctxRangePop, roctxGetThreadId...). */
static bool roctx_call(const char *function)
{
	return strncmp(function, "roctx", 5) == 0;
}

/* An API trace row (HIP, HSA, ROCTx, RCCL...): a call, or a ROCTx range. */
static int api_row(struct run *r, const struct csv *c)
{
	const char *domain = text(c, COL_DOMAIN), *fn = text(c, COL_FUNCTION);
	uint64_t tid, corr, pid;
	gp_ns start, end;

	if (!times(r, c, &start, &end))
		return r->err->status;
	number(r, c, COL_THREAD, &tid);
	number(r, c, COL_CORR, &corr);
	if (number(r, c, COL_PID, &pid) && !r->pid)
		r->pid = (uint32_t)pid;
	if (r->failed)
		return r->err->status;
	if (strcmp(domain, "MARKER_CORE_API") == 0 && *fn && !roctx_call(fn)) {
		struct gp_range *g = gp_vec_push(r->t->ranges);
		memset(g, 0, sizeof(*g));
		g->start = start;
		g->end = end;
		g->tid = (uint32_t)tid;
		g->text = gp_intern(r->t, fn);
		g->parent = -1;
		/* CSV does not say which call made it: a zero-length one is a
		** mark, others push/pop ranges (start/stop ones read alike) */
		g->kind = start == end ? GP_RANGE_MARK : GP_RANGE_PUSHPOP;
		return GP_OK;
	}
	struct gp_api_def d = {.cbid = -1};
	d.name = gp_intern(r->t, *fn ? fn : "(unnamed call)");
	d.kind = strncmp(domain, "HIP_", 4) == 0 ? GP_API_RUNTIME
		 : strncmp(domain, "HSA_", 4) == 0 ? GP_API_DRIVER : GP_API_OTHER;
	struct gp_api *a = gp_vec_push(r->t->apis);
	memset(a, 0, sizeof(*a));
	a->start = start;
	a->end = end;
	a->corr = corr;
	a->tid = (uint32_t)tid;
	a->def = gp_api_def_add(r->t, &d);
	return GP_OK;
}

/* A memory_copy_trace row.  CSV records no size: bytes stay 0. */
static int copy_row(struct run *r, const struct csv *c)
{
	uint64_t corr, stream;
	gp_ns start, end;
	bool sg, dg;

	if (!times(r, c, &start, &end))
		return r->err->status;
	number(r, c, COL_CORR, &corr);
	number(r, c, COL_STREAM, &stream);
	if (r->failed)
		return r->err->status;
	struct gp_memcpy *m = gp_vec_push(r->t->memcpys);
	memset(m, 0, sizeof(*m));
	m->start = start;
	m->end = end;
	m->corr = corr;
	m->stream = (uint32_t)(stream > UINT32_MAX ? UINT32_MAX : stream);
	int32_t s = agent_device(r, text(c, COL_SRC_AGENT), false, &sg);
	int32_t d = agent_device(r, text(c, COL_DST_AGENT), false, &dg);
	gp_rocprof_copy_ends(m, sg, s, dg, d);
	r->no_bytes++;
	return GP_OK;
}

/* A memory_allocation_trace row: an allocation or a free, replayed when
** the file is read (gp_rocprof_add_allocs). */
static int alloc_row(struct run *r, const struct csv *c)
{
	const char *op = text(c, COL_OPERATION);
	struct gp_rocprof_alloc a = {.order = (uint32_t)r->allocs.n};
	uint64_t tid;
	gp_ns start, end;
	bool gpu;

	if (!times(r, c, &start, &end))
		return r->err->status;
	number(r, c, COL_THREAD, &tid);
	number(r, c, COL_ADDRESS, &a.addr);
	number(r, c, COL_ALLOC_SIZE, &a.size);
	if (r->failed)
		return r->err->status;
	if (!strstr(op, "FREE") && !strstr(op, "ALLOCATE"))
		return GP_OK;   /* MEMORY_ALLOCATION_NONE */
	a.ts = start;
	a.tid = (uint32_t)tid;
	a.frees = strstr(op, "FREE") != NULL;
	a.device = agent_device(r, text(c, COL_AGENT), false, &gpu);
	a.undescribed = !gpu && a.device != GP_MEM_HOST;
	*gp_vec_push(r->allocs) = a;
	return GP_OK;
}

/* ---- files ---- */

/* Reads one CSV document (the file at path, or data[0..len) when in is
** NULL) whose kind must be want (F_UNKNOWN: any the header says).
** Returns GP_OK or an error with err set. */
static int read_csv(struct run *r, const char *path, gp_inflate *in, const char *data, size_t len,
		    enum kind want)
{
	struct csv c = {.path = path, .in = in, .data = data, .len = len, .pending = -1};
	int rc = GP_OK, more;
	enum kind got;

	more = next_row(&c, r->err);
	if (more <= 0) {
		rc = more < 0 ? (int)r->err->status
		     : gp_err(r->err, GP_ERR_FORMAT, "%s: not a rocprofv3 CSV file: it is empty", path);
		goto out;
	}
	got = read_header(&c);
	if (got == F_UNKNOWN) {
		rc = gp_err(r->err, want == F_UNKNOWN ? GP_ERR_FORMAT : GP_ERR_CORRUPT,
			    "%s: not a rocprofv3 CSV file: its header has the columns of no record kind "
			    "(a kernel trace's Kind, Kernel_Name, Start_Timestamp, End_Timestamp...)", path);
		goto out;
	}
	if (want != F_UNKNOWN && got != want) {
		rc = gp_err(r->err, GP_ERR_CORRUPT, "%s: a rocprofv3 %s where its %s was expected", path,
			    kind_name(got), kind_name(want));
		goto out;
	}
	while ((more = next_row(&c, r->err)) > 0) {
		if (c.nf != c.ncols) {
			rc = gp_err(r->err, GP_ERR_CORRUPT, "%s: line %" PRIu64 " has %d fields, the "
				    "header %d%s", path, c.row_line, c.nf, c.ncols,
				    c.nf < c.ncols ? " (a truncated file?)" : "");
			goto out;
		}
		r->rows++;
		switch (got) {
		case F_KERNEL: rc = kernel_row(r, &c); break;
		case F_API: rc = api_row(r, &c); break;
		case F_COPY: rc = copy_row(r, &c); break;
		case F_ALLOC: rc = alloc_row(r, &c); break;
		case F_AGENT: rc = agent_row(r, &c); break;
		default: break;
		}
		if (rc)
			goto out;
	}
	if (more < 0)
		rc = r->err->status;
	if (got == F_AGENT && rc == GP_OK) {
		r->have_agents = true;
		finish_agents(r);
	}
out:
	free(c.buf);
	return rc;
}

/* The notes, the process, threads and memory events of the run (read
** into an empty trace: every record of t is the run's). */
static void finish_run(struct run *r, const char *tool)
{
	gp_trace *t = r->t;

	r->unpaired_free = gp_rocprof_add_allocs(t, r->allocs.v, r->allocs.n, r->pid);
	for (size_t i = 0; i < t->ranges.n; i++)
		t->ranges.v[i].pid = r->pid;
	for (size_t i = 0; i < t->apis.n; i++)
		t->apis.v[i].pid = r->pid;
	for (size_t i = 0; i < t->memcpys.n; i++)
		t->memcpys.v[i].pid = r->pid;
	gp_rocprof_add_threads(t, r->pid, 0, 0);
	if (r->pid)
		*gp_vec_push(t->processes) = (struct gp_process){r->pid, 0};
	t->tool_version = gp_intern(t, tool);
	gp_rocprof_notes(t, r->neg_dur, r->zero_wg, r->unpaired_free);
	if (r->no_name)
		gp_trace_warn(t, "%" PRIu64 " kernel dispatches have no Kernel_Name: named (unknown "
			      "kernel)", r->no_name);
	if (r->undescribed)
		gp_trace_warn(t, "%" PRIu64 " kernel dispatches ran on agents agent_info.csv does not "
			      "describe as GPUs", r->undescribed);
	if (r->no_bytes)
		gp_trace_warn(t, "rocprofv3's CSV records no memory copy sizes: %" PRIu64 " copies have "
			      "0 bytes (its JSON output has them)", r->no_bytes);
}

static void run_free(struct run *r)
{
	gp_vec_free(r->agents);
	gp_u64map_free(&r->node_dev);
	gp_u64map_free(&r->names);
	gp_vec_free(r->name_defs);
	gp_vec_free(r->allocs);
}

int gp_rocprof_csv_load_buffer(const char *name, const void *data, size_t len, gp_trace *t,
			       gp_error *err)
{
	struct run r = {.t = t, .err = err};
	int rc = read_csv(&r, name, NULL, data, len, F_UNKNOWN);

	if (rc == GP_OK)
		finish_run(&r, "rocprofv3 (rocprofiler-sdk-tool CSV)");
	run_free(&r);
	return rc;
}

/* The process id a file name starts with ("908_kernel_trace.csv"), 0 if
** none. */
static uint32_t name_pid(const char *base, size_t n)
{
	uint64_t v = 0;
	size_t i = 0;

	for (; i < n && base[i] >= '0' && base[i] <= '9' && v <= UINT32_MAX; i++)
		v = v * 10 + (uint64_t)(base[i] - '0');
	return i && i < n && base[i] == '_' && v <= UINT32_MAX ? (uint32_t)v : 0;
}

/* gp_reader.load: the kernel trace at path and the files of its run beside
** it (PREFIX<kind>SUFFIX for PREFIX kernel_trace SUFFIX).  A missing sibling
** is skipped (rocprofv3 writes none for a kind it did not trace). */
static int load(const char *path, gp_trace *t, const struct gp_load_opts *o, gp_error *err)
{
	struct run r = {.t = t, .err = err};
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	const char *mark = strstr(base, KERNEL_FILE);
	size_t pre = mark ? (size_t)(mark - path) : 0;
	int rc = GP_OK;
	bool threaded = !o || o->threads != 1;

	if (mark)
		r.pid = name_pid(base, (size_t)(mark - base));
	for (size_t i = 0; i < sizeof(siblings) / sizeof(siblings[0]) && rc == GP_OK; i++) {
		bool is_kernel = siblings[i].kind == F_KERNEL;
		char *p = NULL;
		struct stat st;
		if (!is_kernel && !mark)
			continue;
		if (is_kernel) {
			p = gp_xstrdup(path);
		} else {
			const char *suffix = mark + strlen(KERNEL_FILE);
			size_t n = pre + strlen(siblings[i].name) + strlen(suffix) + 1;
			p = gp_xmalloc(n);
			snprintf(p, n, "%.*s%s%s", (int)pre, path, siblings[i].name, suffix);
			if (stat(p, &st) != 0) {
				free(p);
				continue;
			}
		}
		gp_inflate *in = gp_inflate_open(p, CHUNK, threaded, err);
		if (!in) {
			free(p);
			rc = err->status;
			break;
		}
		rc = read_csv(&r, p, in, NULL, 0, siblings[i].kind);
		gp_inflate_close(in);
		if (o && o->progress)
			o->progress(o->progress_ctx, i + 1, sizeof(siblings) / sizeof(siblings[0]));
		free(p);
	}
	if (rc == GP_OK) {
		finish_run(&r, "rocprofv3 (rocprofiler-sdk-tool CSV)");
		if (!mark)
			gp_trace_warn(t, "%s: read alone: the other files of a rocprofv3 run are found by "
				      "the name PREFIX" KERNEL_FILE ".csv", path);
	}
	run_free(&r);
	return rc;
}

/* Content sniffing: a first line that is a kernel trace's header. */
static double probe(const struct gp_probe_input *in)
{
	size_t n = 0;
	char line[1024];

	while (n < in->head_len && n < sizeof(line) - 1 && in->head[n] != '\n') {
		line[n] = (char)in->head[n];
		n++;
	}
	line[n] = '\0';
	if (strncmp(line, "\"Kind\",", 7) != 0 && strncmp(line, "Kind,", 5) != 0)
		return 0;
	if (strstr(line, "Kernel_Name") && strstr(line, "Start_Timestamp") &&
	    strstr(line, "End_Timestamp") && !strstr(line, "Counter_Name"))
		return 0.95;
	return 0;
}

const struct gp_reader gp_reader_rocprof_csv = {
	.name = "rocprof-csv",
	.description = "rocprofv3 CSV (PREFIX_kernel_trace.csv and the files of its run)",
	.probe = probe,
	.load = load,
};
