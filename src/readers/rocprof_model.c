/*
** rocprofv3 records as the model: what the JSON reader (rocprof.c) and the
** CSV reader (rocprof_csv.c) share (rocprof_int.h: kernel names, launch
** sizes, copy ends, allocations, threads, notes), and the JSON reader's
** resolving of a process when its object closes (rocprof_json.h): its
** records name kernels, agents and operations by number, and the tables
** that name them may come after them.  docs/trace-model.md ("rocprofv3
** mapping").
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "readers/rocprof_int.h"
#include "readers/rocprof_json.h"
#include "util/demangle.h"

/* ---- resolving a process ---- */

/* The index of the agent with this handle, added unlisted when new. */
static size_t agent_index(struct proc *pr, uint64_t handle)
{
	int32_t at = gp_u64map_add(&pr->agent_at, handle, (int32_t)pr->agents.n);

	if ((size_t)at == pr->agents.n) {
		struct agent *a = gp_vec_push(pr->agents);
		a->handle = handle;
		a->gpu_index = -1;
	}
	return (size_t)at;
}

/* The operation name of (kind, op) from the string tables, or NULL. */
static const char *op_name(struct rp *p, uint64_t kind, uint64_t op)
{
	const struct proc *pr = &p->proc;

	if (kind >= pr->kinds.n || op >= pr->kinds.v[kind].n)
		return NULL;
	return gp_s(p->t, pr->ops.v[pr->kinds.v[kind].first + op]);
}

/* Device ids for the GPU agents (their gpu_index, else the next free id)
** and a gp_device for each new id. */
static void resolve_agents(struct rp *p)
{
	struct proc *pr = &p->proc;
	int32_t next = 0;

	for (size_t i = 0; i < p->t->devices.n; i++)
		if (p->t->devices.v[i].id >= next)
			next = p->t->devices.v[i].id + 1;
	for (size_t i = 0; i < pr->kdefs.n; i++)   /* kernels run on GPUs, listed or not */
		agent_index(pr, pr->kdefs.v[i].agent);
	for (size_t i = 0; i < pr->agents.n; i++) {
		struct agent *a = &pr->agents.v[i];
		if (a->listed && a->type != AGENT_GPU)
			continue;
		if (!a->listed)
			p->unlisted_agent++;
		if (a->gpu_index >= 0 && a->gpu_index <= INT32_MAX)
			a->dev.id = (int32_t)a->gpu_index;
		else
			a->dev.id = next;
		if (a->dev.id >= next)
			next = a->dev.id + 1;
		if (a->listed && !gp_trace_device(p->t, a->dev.id))
			*gp_vec_push(p->t->devices) = a->dev;
	}
}

/* The device of the agent with this handle: a GPU's id, GP_MEM_HOST for a
** listed CPU, else -1 (*gpu false then). */
static int32_t agent_device(struct rp *p, uint64_t handle, bool *gpu)
{
	int32_t at = gp_u64map_get(&p->proc.agent_at, handle);
	const struct agent *a = at >= 0 ? &p->proc.agents.v[at] : NULL;

	*gpu = a && (!a->listed || a->type == AGENT_GPU);
	if (*gpu)
		return a->dev.id;
	return a && a->type == AGENT_CPU ? GP_MEM_HOST : -1;
}

void gp_rocprof_kernel_names(gp_trace *t, const char *raw, gp_str formatted,
			     struct gp_kernel_def *d)
{
	size_t n = strlen(raw);
	char buf[1024];

	if (n > 3 && strcmp(raw + n - 3, ".kd") == 0)
		n -= 3;
	char *base = gp_xmalloc(n + 1);
	memcpy(base, raw, n);
	base[n] = '\0';
	char *dem = strncmp(base, "_Z", 2) == 0 ? gp_demangle(base) : NULL;
	d->mangled = 0;
	if (dem) {
		d->mangled = gp_intern(t, base);
		d->demangled = gp_intern(t, dem);
	} else {
		d->demangled = formatted ? formatted : gp_intern(t, base);
	}
	d->name = gp_intern(t, gp_kernel_short_name(gp_s(t, d->demangled), buf, sizeof(buf)));
	free(dem);
	free(base);
}

bool gp_rocprof_launch(const uint64_t wg[3], const uint64_t grid[3], uint32_t block[3],
		       uint32_t blocks[3])
{
	for (int i = 0; i < 3; i++) {
		block[i] = clamp32(wg[i]);
		blocks[i] = wg[i] ? clamp32(grid[i] / wg[i] + (grid[i] % wg[i] != 0)) : 0;
	}
	return wg[0] && wg[1] && wg[2];
}

void gp_rocprof_gfx(uint64_t version, struct gp_device *d)
{
	d->cc_major = (int16_t)(version / 10000 % 1000);
	d->cc_minor = (int16_t)(version / 100 % 100);
}

/* The names the model gives symbol s (gp_rocprof_kernel_names), made once. */
static void sym_names(struct rp *p, struct sym *s)
{
	struct gp_kernel_def d;

	s->named = true;
	gp_rocprof_kernel_names(p->t, gp_s(p->t, s->raw), s->formatted, &d);
	s->name = d.name;
	s->demangled = d.demangled;
	s->mangled = d.mangled;
}

/* The process's pending kernel defs become the model's (names from the
** symbols, device from the agent, pid), and its kernels point at them. */
static void resolve_kernels(struct rp *p, uint32_t pid)
{
	struct proc *pr = &p->proc;
	uint32_t *def = gp_xmalloc((pr->kdefs.n ? pr->kdefs.n : 1) * sizeof(*def));
	gp_str unknown = gp_intern(p->t, "(unknown kernel)");

	for (size_t i = 0; i < pr->kdefs.n; i++) {
		const struct pend_kdef *k = &pr->kdefs.v[i];
		struct gp_kernel_def d = {0};
		int32_t at = k->kernel_id == UINT64_MAX ? -1 : gp_u64map_get(&pr->sym_at, k->kernel_id);
		bool gpu;
		memcpy(d.block, k->block, sizeof(d.block));
		memcpy(d.grid, k->grid, sizeof(d.grid));
		d.pid = pid;
		d.device = agent_device(p, k->agent, &gpu);
		d.dynamic_smem = k->group_seg;
		if (at >= 0) {
			struct sym *s = &pr->syms.v[at];
			if (!s->named)
				sym_names(p, s);
			d.name = s->name;
			d.demangled = s->demangled;
			d.mangled = s->mangled;
			d.regs = s->regs;
			d.static_smem = s->lds;
			/* the dispatch's group segment is the static LDS plus the dynamic */
			d.dynamic_smem = k->group_seg > s->lds ? k->group_seg - s->lds : 0;
		} else {
			d.name = d.demangled = unknown;
		}
		def[i] = gp_kernel_def_add(p->t, &d);
	}
	for (size_t i = pr->kernel_first; i < p->t->kernels.n; i++) {
		struct gp_kernel *k = &p->t->kernels.v[i];
		k->def = def[k->def];
		if (gp_kernel_def(p->t, k)->name == unknown)
			p->no_symbol++;
	}
	free(def);
}

/* The process's pending API defs become the model's (names from the string
** tables, kind by section), and its calls get them and the pid. */
static void resolve_apis(struct rp *p, uint32_t pid)
{
	static const char *sections[] = {[S_HIP] = "hip_api", [S_HSA] = "hsa_api",
					 [S_RCCL] = "rccl_api", [S_OTHER_API] = "api",
					 [S_MARKER] = "marker_api"};
	struct proc *pr = &p->proc;
	uint32_t *def = gp_xmalloc((pr->adefs.n ? pr->adefs.n : 1) * sizeof(*def));

	for (size_t i = 0; i < pr->adefs.n; i++) {
		const struct pend_adef *a = &pr->adefs.v[i];
		struct gp_api_def d = {.cbid = -1};
		const char *name = op_name(p, a->kind, a->op);
		char buf[96];
		if (!name) {
			snprintf(buf, sizeof(buf), "%s operation %" PRIu64, sections[a->section], a->op);
			name = buf;
		}
		d.name = gp_intern(p->t, name);
		d.kind = a->section == S_HIP ? GP_API_RUNTIME : a->section == S_HSA ? GP_API_DRIVER
			 : GP_API_OTHER;
		def[i] = gp_api_def_add(p->t, &d);
	}
	for (size_t i = pr->api_first; i < p->t->apis.n; i++) {
		p->t->apis.v[i].def = def[p->t->apis.v[i].def];
		p->t->apis.v[i].pid = pid;
	}
	free(def);
}

void gp_rocprof_copy_ends(struct gp_memcpy *m, bool sg, int32_t s, bool dg, int32_t d)
{
	m->src_device = sg ? s : -1;
	m->dst_device = dg ? d : -1;
	m->src_kind = sg ? GP_MEM_DEVICE : GP_MEM_UNKNOWN;
	m->dst_kind = dg ? GP_MEM_DEVICE : GP_MEM_UNKNOWN;
	m->device = sg ? s : dg ? d : -1;
	if (sg && dg)
		m->copy_kind = s == d ? GP_COPY_DTOD : GP_COPY_PTOP;
	else if (sg)
		m->copy_kind = d == GP_MEM_HOST ? GP_COPY_DTOH : GP_COPY_UNKNOWN;
	else if (dg)
		m->copy_kind = s == GP_MEM_HOST ? GP_COPY_HTOD : GP_COPY_UNKNOWN;
	else
		m->copy_kind = s == GP_MEM_HOST && d == GP_MEM_HOST ? GP_COPY_HTOH : GP_COPY_UNKNOWN;
}

/* The process's copies: their ends from their agents (gp_rocprof_copy_ends). */
static void resolve_copies(struct rp *p, uint32_t pid)
{
	struct proc *pr = &p->proc;

	for (size_t i = 0; i < pr->copies.n; i++) {
		struct gp_memcpy *m = &p->t->memcpys.v[pr->copy_first + i];
		bool sg, dg;
		int32_t s = agent_device(p, pr->copies.v[i].src, &sg);
		int32_t d = agent_device(p, pr->copies.v[i].dst, &dg);
		m->pid = pid;
		gp_rocprof_copy_ends(m, sg, s, dg, d);
	}
}

/* ROCTx: a mark, a push/pop or a start/stop range, with its message; a
** marker record without a message is an API call (roctxNameOsThread,
** roctxProfilerPause...): rocprofv3 keeps messages only for ranges. */
static void resolve_marks(struct rp *p, uint32_t pid)
{
	struct proc *pr = &p->proc;

	for (size_t i = 0; i < pr->marks.n; i++) {
		const struct pend_mark *m = &pr->marks.v[i];
		int32_t at = gp_u64map_get(&pr->msg_at, m->corr);
		const char *op = op_name(p, m->kind, m->op);
		if (at < 0) {
			struct gp_api_def d = {.cbid = -1, .kind = GP_API_OTHER};
			char buf[64];
			snprintf(buf, sizeof(buf), "marker_api operation %" PRIu64, m->op);
			d.name = gp_intern(p->t, op ? op : buf);
			*gp_vec_push(p->t->apis) = (struct gp_api){m->start, m->end, m->corr, 0, pid,
								   (uint32_t)m->tid, gp_api_def_add(p->t, &d)};
			if (op && (strcmp(op, "roctxMarkA") == 0 || strstr(op, "Range")))
				p->no_message++;
			continue;
		}
		struct gp_range *r = gp_vec_push(p->t->ranges);
		r->start = m->start;
		r->end = m->end;
		r->pid = pid;
		r->tid = (uint32_t)m->tid;
		r->text = pr->msgs.v[at];
		r->parent = -1;
		if (op ? strcmp(op, "roctxMarkA") == 0 : m->start == m->end)
			r->kind = GP_RANGE_MARK;
		else if (op && (strcmp(op, "roctxRangeStartA") == 0 || strcmp(op, "roctxProcessRangeA") == 0))
			r->kind = GP_RANGE_STARTEND;
		else
			r->kind = GP_RANGE_PUSHPOP;
		if (r->kind == GP_RANGE_MARK)
			r->end = r->start;
	}
}

static int cmp_alloc(const void *pa, const void *pb)
{
	const struct gp_rocprof_alloc *a = pa, *b = pb;

	if (a->ts != b->ts)
		return a->ts < b->ts ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

uint64_t gp_rocprof_add_allocs(gp_trace *t, struct gp_rocprof_alloc *v, size_t n, uint32_t pid)
{
	gp_u64map live = {0};
	uint64_t unpaired = 0;

	if (n)
		qsort(v, n, sizeof(*v), cmp_alloc);
	for (size_t i = 0; i < n; i++) {
		struct gp_rocprof_alloc *a = &v[i];
		struct gp_memevent e = {.ts = a->ts, .total_alloc = -1, .total_reserved = -1,
					.addr = a->addr, .pid = pid, .tid = a->tid};
		if (a->frees) {
			int32_t at = gp_u64map_get(&live, a->addr);
			if (at < 0 || !v[at].live) {
				unpaired++;
				continue;
			}
			v[at].live = false;
			a = &v[at];
			e.bytes = -(int64_t)a->size;
		} else {
			if (a->size > INT64_MAX)
				continue;
			e.bytes = (int64_t)a->size;
			a->live = true;
			gp_u64map_put(&live, a->addr, (int32_t)i);
		}
		if (a->undescribed)
			continue;
		e.device = a->device;
		*gp_vec_push(t->memevents) = e;
	}
	gp_u64map_free(&live);
	return unpaired;
}

/* Whether allocation record a frees (by its operation's name; rocprofv3's
** numbering 3 FREE, 4 VMEM_FREE when the file has no names), else
** allocates (1 ALLOCATE, 2 VMEM_ALLOCATE); -1 for neither. */
static int alloc_frees(struct rp *p, const struct pend_alloc *a)
{
	const char *op = op_name(p, a->kind, a->op);

	if (!op)
		return a->op == 3 || a->op == 4 ? 1 : a->op == 1 || a->op == 2 ? 0 : -1;
	if (strstr(op, "FREE"))
		return 1;
	return strstr(op, "ALLOCATE") ? 0 : -1;
}

/* The process's allocations and frees, their agents resolved, as memory
** events (gp_rocprof_add_allocs). */
static void resolve_allocs(struct rp *p, uint32_t pid)
{
	struct proc *pr = &p->proc;
	struct gp_rocprof_alloc *v = gp_xcalloc(pr->allocs.n ? pr->allocs.n : 1, sizeof(*v));
	size_t n = 0;

	for (size_t i = 0; i < pr->allocs.n; i++) {
		const struct pend_alloc *a = &pr->allocs.v[i];
		int frees = alloc_frees(p, a);
		bool gpu;
		if (frees < 0)
			continue;
		int32_t dev = agent_device(p, a->agent, &gpu);
		v[n++] = (struct gp_rocprof_alloc){.ts = a->ts, .addr = a->addr, .size = a->size,
						   .tid = (uint32_t)a->tid, .order = (uint32_t)i,
						   .device = dev, .frees = frees,
						   .undescribed = !gpu && dev != GP_MEM_HOST};
	}
	p->unpaired_free += gp_rocprof_add_allocs(p->t, v, n, pid);
	free(v);
}

/* Adds thread (pid, tid) unless seen has it. */
static void add_thread(gp_trace *t, gp_u64map *seen, uint32_t pid, uint32_t tid)
{
	if (gp_u64map_get(seen, tid) >= 0)
		return;
	gp_u64map_put(seen, tid, 0);
	*gp_vec_push(t->threads) = (struct gp_thread){pid, tid, 0};
}

void gp_rocprof_add_threads(gp_trace *t, uint32_t pid, size_t api_first, size_t range_first)
{
	gp_u64map seen = {0};

	for (size_t i = 0; i < t->threads.n; i++)
		if (t->threads.v[i].pid == pid)
			gp_u64map_put(&seen, t->threads.v[i].tid, 0);
	for (size_t i = api_first; i < t->apis.n; i++)
		add_thread(t, &seen, pid, t->apis.v[i].tid);
	for (size_t i = range_first; i < t->ranges.n; i++)
		add_thread(t, &seen, pid, t->ranges.v[i].tid);
	gp_u64map_free(&seen);
}

void rocprof_proc_free(struct proc *pr)
{
	gp_vec_free(pr->agents);
	gp_u64map_free(&pr->agent_at);
	gp_vec_free(pr->kinds);
	gp_vec_free(pr->ops);
	gp_vec_free(pr->syms);
	gp_u64map_free(&pr->sym_at);
	gp_vec_free(pr->msgs);
	gp_u64map_free(&pr->msg_at);
	gp_vec_free(pr->kdefs);
	gp_u64map_free(&pr->kdef_at);
	gp_vec_free(pr->adefs);
	gp_u64map_free(&pr->adef_at);
	gp_vec_free(pr->copies);
	gp_vec_free(pr->marks);
	gp_vec_free(pr->allocs);
	memset(pr, 0, sizeof(*pr));
}

void rocprof_finish_process(struct rp *p)
{
	struct proc *pr = &p->proc;
	uint32_t pid = (uint32_t)pr->pid;
	size_t range_first = p->t->ranges.n;

	resolve_agents(p);
	resolve_kernels(p, pid);
	resolve_apis(p, pid);
	resolve_copies(p, pid);
	resolve_marks(p, pid);
	resolve_allocs(p, pid);
	gp_rocprof_add_threads(p->t, pid, pr->api_first, range_first);
	if (pid || pr->command) {
		struct gp_process *q = gp_vec_push(p->t->processes);
		q->pid = pid;
		q->name = pr->command;
	}
	/* the first process's host and command line describe the run */
	if (pr->hostname && !gp_trace_meta_get(p->t, "hostname"))
		gp_trace_meta_set(p->t, "hostname", gp_s(p->t, pr->hostname));
	if (p->cmd_n && !gp_trace_meta_get(p->t, "command"))
		gp_trace_meta_set(p->t, "command", p->cmd);
	p->cmd_n = 0;
	p->cmd[0] = '\0';
	p->nprocs++;
	rocprof_proc_free(pr);
	pr->kernel_first = p->t->kernels.n;
	pr->api_first = p->t->apis.n;
	pr->copy_first = p->t->memcpys.n;
}

void gp_rocprof_notes(gp_trace *t, uint64_t neg_dur, uint64_t zero_wg, uint64_t unpaired_free)
{
	if (neg_dur)
		gp_trace_warn(t, "%" PRIu64 " records end before they start (read as zero-length)",
			      neg_dur);
	if (zero_wg)
		gp_trace_warn(t, "%" PRIu64 " kernel dispatches have a workgroup size of 0 (grid read "
			      "as 0 blocks)", zero_wg);
	if (unpaired_free)
		gp_trace_warn(t, "%" PRIu64 " memory frees have no recorded allocation at their address "
			      "(allocated before tracing): skipped", unpaired_free);
}
