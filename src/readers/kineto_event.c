/*
** The Kineto reader's records: a finished event becomes a model record, one
** function per kind (kernel, memcpy, memset, sync, API call, range), a
** flow end, a process or thread name, or a count for the notes.  See
** kineto_int.h; docs/kineto.md has the field mapping.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/demangle.h"
#include "readers/kineto.h"
#include "readers/kineto_int.h"
#include "util/demangle.h"

void kineto_event_reset(struct kineto_event *e)
{
	char *name = e->name;
	size_t cap = e->name_cap;

	memset(e, 0, sizeof(*e));
	e->name = name;
	e->name_cap = cap;
	e->seq = -1;
	e->device = -1;
	e->wait_stream = -1;
	e->mem_total_alloc = e->mem_total_reserved = -1;
	e->mem_device = e->mem_device_type = -1;
	e->coll_in = e->coll_out = e->coll_group_size = e->coll_seq = -1;
	if (!e->name) {
		e->name_cap = 256;
		e->name = gp_xmalloc(e->name_cap);
	}
	e->name[0] = '\0';
}

void kineto_event_set_name(struct kineto_event *e, const char *s, size_t n)
{
	if (n + 1 > e->name_cap) {
		e->name_cap = n + 64;
		e->name = gp_xrealloc(e->name, e->name_cap);
	}
	memcpy(e->name, s, n);
	e->name[n] = '\0';
	e->name_len = n;
}

/* Interns s[0..n) through a small direct-mapped cache: event names repeat
** (cudaLaunchKernel, aten::mm, the same kernels), and comparing against the
** cached string is cheaper than hashing a 300-byte kernel name. */
static gp_str intern_cached(struct kineto_parser *p, const char *s, size_t n)
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

/* Counts one event of an unknown category for the notes (the first
** KINETO_MAX_SKIPPED categories by name). */
static void count_skipped(struct kineto_parser *p, const char *name)
{
	for (size_t i = 0; i < p->skipped.n; i++)
		if (strcmp(p->skipped.v[i].name, name) == 0) {
			p->skipped.v[i].count++;
			return;
		}
	if (p->skipped.n >= KINETO_MAX_SKIPPED)
		return;
	struct skipped_cat *c = gp_vec_push(p->skipped);
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->count = 1;
}

/* "Pageable", "Device"...: the memory kind named by s[0..n). */
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

/* "Memcpy HtoD (Pageable -> Device)": copy kind and memory kinds. */
static void parse_memcpy_name(const char *name, struct gp_memcpy *m)
{
	static const struct { const char *s; uint8_t k; } kinds[] = {
		{"HtoD", GP_COPY_HTOD}, {"DtoH", GP_COPY_DTOH}, {"DtoD", GP_COPY_DTOD},
		{"HtoH", GP_COPY_HTOH}, {"PtoP", GP_COPY_PTOP}, {"HtoA", GP_COPY_HTOA},
		{"AtoH", GP_COPY_ATOH}, {"AtoA", GP_COPY_ATOA}, {"AtoD", GP_COPY_ATOD},
		{"DtoA", GP_COPY_DTOA}, {NULL, 0},
	};
	static const struct { const char *s; uint8_t k; } unified[] = {
		{"HtoD", GP_COPY_UVM_HTOD}, {"DtoH", GP_COPY_UVM_DTOH}, {"DtoD", GP_COPY_UVM_DTOD},
		{NULL, 0},
	};
	const char *sp = strchr(name, ' ');

	/* "Memcpy Unified HtoD": unified-memory migrations, as gpuprof's own
	** export names them (an nsys trace's, exported and read back) */
	if (sp && strncmp(sp + 1, "Unified ", 8) == 0) {
		for (int i = 0; unified[i].s; i++)
			if (strncmp(sp + 9, unified[i].s, 4) == 0)
				m->copy_kind = unified[i].k;
	} else if (sp) {
		for (int i = 0; kinds[i].s; i++)
			if (strncmp(sp + 1, kinds[i].s, 4) == 0)
				m->copy_kind = kinds[i].k;
	}
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

/* Keeps where a record (index in table, an SR_*) holds e's synthetic ids
** among fields (S_*), for the merge of a later part to renumber. */
static void note_synth(struct kineto_parser *p, uint8_t table, size_t index, uint8_t fields)
{
	if (!fields || !p->note_synth)
		return;
	struct synth_ref *r = gp_vec_push(p->synth_refs);
	r->index = (uint32_t)index;
	r->table = table;
	r->fields = fields;
}

/* A GPU record takes e's pid as its device and its tid as its stream
** unless args name them: no synth_ref follows those. */
static void gpu_synth(struct kineto_parser *p, const struct kineto_event *e, bool tid_used)
{
	if (((e->synth & S_PID) && !(e->have & H_DEVICE)) ||
	    (tid_used && (e->synth & S_TID) && !(e->have & H_STREAM)))
		p->synth_stuck = true;
}

/* GPU events name their stream and device in args; old files only as
** tid and pid. */
static uint32_t gpu_stream(const struct kineto_event *e)
{
	return (e->have & H_STREAM) ? (uint32_t)e->stream : e->tid;
}

static int32_t gpu_device(const struct kineto_event *e)
{
	return (e->have & H_DEVICE) ? (int32_t)e->device : (int32_t)e->pid;
}

/* ---- one function per kind of complete ('X') event ---- */

typedef void (*add_fn)(struct kineto_parser *p, const struct kineto_event *e, gp_ns start,
		       gp_ns end);

/* A kernel named by its mangled name: keeps it as mangled and names the
** kernel by its demangled form (or readable prefix, gp_demangle), once per
** distinct name. */
static void demangle_kernel(struct kineto_parser *p, struct gp_kernel_def *k)
{
	int32_t d = gp_u64map_get(&p->demangled, k->mangled = k->demangled);

	if (d < 0) {
		char *s = gp_demangle(gp_s(p->t, k->mangled));
		d = s ? (int32_t)gp_intern(p->t, s) : (int32_t)k->mangled;
		free(s);
		gp_u64map_put(&p->demangled, k->mangled, d);
	}
	k->demangled = (gp_str)d;
}

/* A graph kernel's annotation (PyTorch's CUDA graph kernel annotations:
** the mark_kernels() fields written into its args) into the model's side
** table, once per (graph, node): every replay repeats it. */
static void add_node_annot(struct kineto_parser *p, const struct kineto_event *e)
{
	gp_trace *t = p->t;
	uint64_t key = e->graph_node * 0x9E3779B97F4A7C15ull ^ e->graph_id;
	int32_t at = gp_u64map_get(&p->annots, key);
	gp_str layer = e->module_fqn ? e->module_fqn : e->annot_layer;

	if (at >= 0 && t->node_annots.v[at].node == e->graph_node &&
	    t->node_annots.v[at].graph == (uint32_t)e->graph_id && t->node_annots.v[at].name == e->arg_name &&
	    t->node_annots.v[at].layer == layer)
		return;
	gp_u64map_put(&p->annots, key, (int32_t)t->node_annots.n);
	*gp_vec_push(t->node_annots) = (struct gp_node_annot){
		.node = e->graph_node, .graph = (uint32_t)e->graph_id, .name = e->arg_name, .layer = layer,
	};
}

static void add_kernel(struct kineto_parser *p, const struct kineto_event *e, gp_ns start,
		       gp_ns end)
{
	gp_trace *t = p->t;
	struct gp_kernel *k = gp_vec_push(t->kernels);
	struct gp_kernel_def d = {
		.regs = (uint32_t)e->regs,
		.static_smem = (uint32_t)e->smem,  /* Kineto gives the total only */
		.graph_id = (uint32_t)e->graph_id,
		.graph_node = e->graph_node,
	};
	char shortbuf[1024];   /* as every reader: Tensile names run to 500 characters */

	k->start = start;
	k->end = end;
	k->corr = e->corr;
	k->ext_id = e->ext_id;
	d.device = gpu_device(e);
	k->stream = gpu_stream(e);
	gpu_synth(p, e, true);
	d.context = (uint32_t)e->context;
	memcpy(d.grid, e->grid, sizeof(d.grid));
	memcpy(d.block, e->block, sizeof(d.block));
	d.demangled = intern_cached(p, e->name, e->name_len);
	if (e->name[0] == '_' && e->name[1] == 'Z')   /* ROCm and Triton keep names mangled */
		demangle_kernel(p, &d);
	int32_t sn = gp_u64map_get(&p->short_names, d.demangled);
	if (sn < 0) {
		sn = (int32_t)gp_intern(t, gp_kernel_short_name(gp_s(t, d.demangled), shortbuf, sizeof(shortbuf)));
		gp_u64map_put(&p->short_names, d.demangled, sn);
	}
	d.name = (gp_str)sn;
	k->def = gp_kernel_def_add(t, &d);
	if (!(e->have & H_GRID))
		p->no_launch_cfg++;
	if (e->graph_node && (e->arg_name || e->module_fqn || e->annot_layer))
		add_node_annot(p, e);
}

static void add_memcpy(struct kineto_parser *p, const struct kineto_event *e, gp_ns start,
		       gp_ns end)
{
	struct gp_memcpy *m = gp_vec_push(p->t->memcpys);

	m->start = start;
	m->end = end;
	m->corr = e->corr;
	m->ext_id = e->ext_id;
	m->bytes = e->bytes;
	m->device = gpu_device(e);
	m->src_device = m->dst_device = m->device;
	m->context = (uint32_t)e->context;
	m->stream = gpu_stream(e);
	gpu_synth(p, e, true);
	parse_memcpy_name(e->name, m);
}

/* "Memset (Device)": the memory kind in parentheses. */
static void add_memset(struct kineto_parser *p, const struct kineto_event *e, gp_ns start,
		       gp_ns end)
{
	struct gp_memset *m = gp_vec_push(p->t->memsets);
	const char *open = strchr(e->name, '(');

	m->start = start;
	m->end = end;
	m->corr = e->corr;
	m->ext_id = e->ext_id;
	m->bytes = e->bytes;
	m->device = gpu_device(e);
	m->context = (uint32_t)e->context;
	m->stream = gpu_stream(e);
	gpu_synth(p, e, true);
	if (open) {
		const char *close = strchr(open, ')');
		if (close)
			m->mem_kind = mem_kind_of(open + 1, (size_t)(close - open - 1));
	}
}

static void add_sync(struct kineto_parser *p, const struct kineto_event *e, gp_ns start,
		     gp_ns end)
{
	struct gp_sync *s = gp_vec_push(p->t->syncs);

	s->start = start;
	s->end = end;
	s->corr = e->corr;
	s->device = gpu_device(e);
	gpu_synth(p, e, false);
	s->context = (uint32_t)e->context;
	s->stream = (uint32_t)e->stream;
	s->kind = sync_kind_of(e->name);
	s->event_id = e->wait_event;
	/* a wait names the event's record call and stream ("wait_on_*", newer
	** PyTorch; -1 when the record is unknown): the record as nsys lists it */
	if (e->wait_record && e->wait_record != UINT64_MAX && e->wait_stream >= 0) {
		struct gp_event_record *r = gp_vec_push(p->t->event_records);
		r->corr = e->wait_record;
		r->event_id = e->wait_event;
		r->pid = 0;
		r->device = s->device;
		r->stream = (uint32_t)e->wait_stream;
		s->record_corr = e->wait_record;
	}
}

/* cuda_runtime, cuda_driver, mtia_runtime and the 2021 Runtime, where
** cu* names that are not cuda* are driver calls. */
static void add_api(struct kineto_parser *p, const struct kineto_event *e, gp_ns start,
		    gp_ns end)
{
	struct gp_api *a = gp_vec_push(p->t->apis);
	char nbuf[256];

	a->start = start;
	a->end = end;
	a->corr = e->corr;
	a->ext_id = e->ext_id;
	a->pid = e->pid;
	a->tid = e->tid;
	note_synth(p, SR_API, p->t->apis.n - 1, e->synth & (S_PID | S_TID));
	const char *an = gp_api_strip_version(e->name, nbuf, sizeof(nbuf));
	struct gp_api_def d = {
		.name = intern_cached(p, an, strlen(an)),
		.cbid = e->cbid ? (int32_t)e->cbid : -1,
	};
	if (e->cat == CAT_DRIVER ||
	    (e->cat == CAT_OLD_RUNTIME && strncmp(e->name, "cu", 2) == 0 &&
	     strncmp(e->name, "cuda", 4) != 0))
		d.kind = GP_API_DRIVER;
	else if (e->cat == CAT_MTIA_RUNTIME)
		d.kind = GP_API_OTHER;
	else
		d.kind = GP_API_RUNTIME;
	a->def = gp_api_def_add(p->t, &d);
	if (strncmp(e->name, "hip", 3) == 0)
		p->hip_apis++;
	if (e->launch_kernel || (e->have & H_GRID)) {
		struct gp_launch_args *l = gp_vec_push(p->t->launch_args);
		l->corr = e->corr;
		l->pid = e->pid;
		l->kernel = e->launch_kernel;
		memcpy(l->grid, e->grid, sizeof(l->grid));
		memcpy(l->block, e->block, sizeof(l->block));
	}
}

/* The op fields of a cpu_op or annotation, when it has any, as its
** gp_op_ext (r->ext, 1-based). */
static void add_op_ext(gp_trace *t, struct gp_range *r, const struct kineto_event *e)
{
	if (!e->ext_id && !(e->have & (H_SEQ | H_FWD_TID)) && !e->input_dims && !e->input_types &&
	    !e->concrete && !e->call_stack)
		return;
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

/* A new range of e's name on e's (pid, tid) from start to end; the caller
** sets its kind. */
static struct gp_range *push_range(struct kineto_parser *p, const struct kineto_event *e, gp_ns start,
				   gp_ns end)
{
	struct gp_range *r = gp_vec_push(p->t->ranges);

	r->start = start;
	r->end = end;
	r->text = intern_cached(p, e->name, e->name_len);
	r->parent = -1;
	r->pid = e->pid;
	r->tid = e->tid;
	note_synth(p, SR_RANGE, p->t->ranges.n - 1, e->synth & (S_PID | S_TID));
	return r;
}

/* cpu_op, user_annotation, python_function, nvtx (an NVTX push/pop range,
** as gpuprof export writes them): a range on the CPU thread. */
static void add_cpu_range(struct kineto_parser *p, const struct kineto_event *e, gp_ns start,
			  gp_ns end)
{
	struct gp_range *r = push_range(p, e, start, end);

	r->kind = e->cat == CAT_PYTHON ? GP_RANGE_PYTHON
		: e->cat == CAT_USER_ANNOT ? GP_RANGE_USER_ANNOTATION
		: e->cat == CAT_NVTX ? GP_RANGE_PUSHPOP
		: GP_RANGE_CPU_OP;
	/* 2021 files log record_function ranges as Operator */
	if (r->kind == GP_RANGE_CPU_OP && strncmp(e->name, "ProfilerStep#", 13) == 0)
		r->kind = GP_RANGE_USER_ANNOTATION;
	if (e->cat != CAT_PYTHON && e->cat != CAT_NVTX)
		add_op_ext(p->t, r, e);
}

/* gpu_user_annotation: a range on the GPU stream (pid = device, tid = stream). */
static void add_gpu_range(struct kineto_parser *p, const struct kineto_event *e, gp_ns start,
			  gp_ns end)
{
	struct gp_range *r = push_range(p, e, start, end);

	r->kind = GP_RANGE_GPU_ANNOTATION;
	add_op_ext(p->t, r, e);
}

/* The collective args of a kernel (keyed by its correlation id) or an op
** (by its External id) into the model's side table. */
static void add_coll_args(gp_trace *t, const struct kineto_event *e)
{
	struct gp_coll_args *c = gp_vec_push(t->coll_args);

	c->on_kernel = e->cat == CAT_KERNEL;
	c->id = c->on_kernel ? e->corr : e->ext_id;
	c->seq = e->coll_seq;
	c->in_nelems = e->coll_in;
	c->out_nelems = e->coll_out;
	c->group_size = e->coll_group_size > INT32_MAX ? -1 : (int32_t)e->coll_group_size;
	c->name = e->coll_name;
	c->group = e->coll_group;
	c->in_split = e->coll_in_split;
	c->out_split = e->coll_out_split;
	c->ranks = e->coll_ranks;
	c->dtype = e->coll_dtype;
}

/* What each category of complete event becomes; NULL: nothing. */
static const add_fn add_by_cat[CAT__COUNT] = {
	[CAT_KERNEL] = add_kernel,
	[CAT_MEMCPY] = add_memcpy,
	[CAT_MEMSET] = add_memset,
	[CAT_SYNC] = add_sync,
	[CAT_RUNTIME] = add_api,
	[CAT_DRIVER] = add_api,
	[CAT_OLD_RUNTIME] = add_api,
	[CAT_MTIA_RUNTIME] = add_api,
	[CAT_CPU_OP] = add_cpu_range,
	[CAT_USER_ANNOT] = add_cpu_range,
	[CAT_PYTHON] = add_cpu_range,
	[CAT_NVTX] = add_cpu_range,
	[CAT_GPU_ANNOT] = add_gpu_range,
};

/* A complete event: its category's record, if it has one.  Events of a
** category we read (fwdbwd included) count in the notes when they have no
** ts or a negative dur; unknown categories are counted by name. */
static void add_complete(struct kineto_parser *p, struct kineto_event *e)
{
	add_fn add = add_by_cat[e->cat];

	if (e->cat == CAT_IGNORED || e->cat == CAT_NONE || e->cat == CAT_AC2G)
		return;
	if (e->cat == CAT_OTHER) {
		count_skipped(p, e->cat_text);
		return;
	}
	if (!(e->have & H_TS)) {
		p->no_ts++;
		return;
	}
	if (e->dur < 0) {
		p->neg_dur++;
		e->dur = 0;
	}
	if (add && !kineto_event_outside(p, e, true))
		add(p, e, e->ts, e->ts + e->dur);
	if ((e->have & H_COLL) && (e->cat == CAT_KERNEL || e->cat == CAT_CPU_OP || e->cat == CAT_USER_ANNOT))
		add_coll_args(p->t, e);
}

/* process_name and thread_name metadata events. */
static void add_name(struct kineto_parser *p, const struct kineto_event *e)
{
	gp_trace *t = p->t;

	if (!e->arg_name)
		return;
	if (strcmp(e->name, "process_name") == 0) {
		struct gp_process *pr = gp_vec_push(t->processes);
		pr->pid = e->pid;
		pr->name = e->arg_name;
		note_synth(p, SR_PROCESS, t->processes.n - 1, e->synth & S_PID);
	} else if (strcmp(e->name, "thread_name") == 0) {
		struct gp_thread *th = gp_vec_push(t->threads);
		th->pid = e->pid;
		th->tid = e->tid;
		th->name = e->arg_name;
		note_synth(p, SR_THREAD, t->threads.n - 1, e->synth & (S_PID | S_TID));
	}
}

/* A fwdbwd flow start ('s') or end ('f'), kept for kineto_resolve_flows(). */
static void add_flow_end(struct kineto_parser *p, const struct kineto_event *e)
{
	struct flow_end *f = gp_vec_push(p->flows);

	f->id = e->id;
	f->ts = e->ts;
	f->pid = e->pid;
	f->tid = e->tid;
	f->start = e->ph == 's';
	note_synth(p, SR_FLOW, p->flows.n - 1, e->synth);
}

/* Kineto's device types in [memory] instants (c10::DeviceType: CPU 0,
** CUDA 1, ..., HIP 6, ..., XPU 12, MPS 13, ...).  A ROCm build of PyTorch
** writes its GPU allocator's events as CUDA (HIP masquerades as CUDA) or
** as HIP (MI300X traces of 2025): both are the memory of the GPU with that
** Device Id, the ordinal the kernels' "device" uses. */
enum { KINETO_DEVICE_CPU = 0, KINETO_DEVICE_CUDA = 1, KINETO_DEVICE_HIP = 6 };

/* A "[memory]" instant (profile_memory=True): one allocator event.  Old
** files (2021) state only Bytes and the device; newer ones the allocator's
** totals and the address too.  Device types other than CPU, CUDA and HIP
** (other accelerators, whose ids are not the GPUs' ids) are counted for
** the notes. */
static void add_memevent(struct kineto_parser *p, const struct kineto_event *e)
{
	if (!(e->have & H_TS) || !(e->have & H_MEM_BYTES)) {
		p->mem_unread++;
		return;
	}
	if (e->mem_device_type != KINETO_DEVICE_CPU && e->mem_device_type != KINETO_DEVICE_CUDA &&
	    e->mem_device_type != KINETO_DEVICE_HIP) {
		p->mem_other_type++;
		return;
	}
	if (kineto_event_outside(p, e, true))
		return;
	if (e->mem_total_alloc < -1 || e->mem_total_reserved < -1 ||
	    (e->mem_total_alloc == -1 && e->have & H_MEM_TOTAL_ALLOC) ||
	    (e->mem_total_reserved == -1 && e->have & H_MEM_TOTAL_RESERVED))
		p->mem_negative_total++;
	struct gp_memevent *m = gp_vec_push(p->t->memevents);
	m->ts = e->ts;
	m->bytes = e->mem_bytes;
	/* a total below 0 is no total: the analysis replays the event instead */
	m->total_alloc = e->mem_total_alloc < 0 ? -1 : e->mem_total_alloc;
	m->total_reserved = e->mem_total_reserved < 0 ? -1 : e->mem_total_reserved;
	m->addr = e->mem_addr;
	m->pid = e->pid;
	m->tid = e->tid;
	note_synth(p, SR_MEMEVENT, p->t->memevents.n - 1, e->synth & (S_PID | S_TID));
	m->device = e->mem_device_type == KINETO_DEVICE_CPU ? GP_MEM_HOST
		  : e->mem_device < 0 || e->mem_device > INT32_MAX ? 0 : (int32_t)e->mem_device;
}

int kineto_event_finish(struct kineto_parser *p)
{
	struct kineto_event *e = &p->ev;

	p->with_ph += e->ph != 0;
	switch (e->ph) {
	case 'M':
		add_name(p, e);
		break;
	case 's': case 'f':
		if (e->cat == CAT_FWDBWD && (e->have & H_ID) && (e->have & H_TS))
			add_flow_end(p, e);
		else if (e->cat == CAT_AC2G && (e->have & H_ID))
			*gp_vec_push(p->ac2g[e->ph == 'f']) = e->id;
		break;
	case 'X':
		add_complete(p, e);
		break;
	case 'i': case 'I':
		if (strcmp(e->name, "[memory]") == 0)
			add_memevent(p, e);
		break;
	}
	return 1;
}
