/*
** The op table (optable.h, docs/ops-table.md).
**
** gp_trace_finish() orders ranges by thread, then start, the longer first,
** so one pass with a stack gives each op the op that contains it (its
** parent in PyTorch's tree: containment, not gp_range.parent, which also
** nests a range that overlaps its predecessor's end), and one backward
** pass adds every op's times into its parent's before the parent is read.
** Kernels reach their op through gp_attr.range, the innermost range the
** correlation sweep found around their launch: no search per kernel.  A
** kernel replayed from a CUDA/HIP graph whose op its capture gave
** (gp_attr.graph) is its captured op's Self GPU instead, in the row of that
** op's name, and GPU total of the ops around its graph launch (it ran
** there, inside them).
** Allocator events reach theirs in one walk of the events by thread beside
** the ranges (both sorted).
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/attr_graph.h"
#include "analysis/layers.h"
#include "analysis/markers.h"
#include "analysis/memory.h"
#include "analysis/optable.h"
#include "util/u64map.h"

/* Whether range r is a row of the table: an op, annotation, NVTX range or
** timer the program closed (python frames have their own view). */
static bool is_op(const struct gp_range *r)
{
	if (r->flags & GP_RANGE_F_UNCLOSED)
		return false;
	return r->kind == GP_RANGE_CPU_OP || r->kind == GP_RANGE_USER_ANNOTATION ||
	       r->kind == GP_RANGE_PUSHPOP || r->kind == GP_RANGE_STARTEND ||
	       r->kind == GP_RANGE_TIMER || r->kind == GP_RANGE_OTHER;
}

static bool is_python(const struct gp_range *r)
{
	return r->kind == GP_RANGE_PYTHON;
}

static bool is_nvtx(const struct gp_range *r)
{
	return r->kind == GP_RANGE_PUSHPOP || r->kind == GP_RANGE_STARTEND;
}

/* The parent of range i if gp_trace_finish() set one before it, else -1. */
static int32_t parent_of(const gp_trace *t, size_t i)
{
	int32_t p = t->ranges.v[i].parent;
	return p >= 0 && (size_t)p < i ? p : -1;
}

/* up[i]: range i itself when want(i), else the nearest enclosing range that
** is, -1 when none.  Returns a new array. */
static int32_t *nearest_up(const gp_trace *t, bool (*want)(const struct gp_range *))
{
	int32_t *up = gp_xmalloc((t->ranges.n ? t->ranges.n : 1) * sizeof(*up));

	for (size_t i = 0; i < t->ranges.n; i++) {
		int32_t p = parent_of(t, i);
		up[i] = want(&t->ranges.v[i]) ? (int32_t)i : p >= 0 ? up[p] : -1;
	}
	return up;
}

/* For each range that is want()ed, the one that contains it (start <= its
** start, end >= its end, starts before it ends; on equal intervals the
** earlier range) among those wanted on its thread, as PyTorch's
** populate_cpu_children builds its tree; -1 for a top-level one and for
** ranges not wanted.  Returns a new array. */
static int32_t *containers(const gp_trace *t, bool (*want)(const struct gp_range *))
{
	int32_t *parent = gp_xmalloc((t->ranges.n ? t->ranges.n : 1) * sizeof(*parent));
	GP_VEC(int32_t) open = {0};

	for (size_t i = 0; i < t->ranges.n; i++) {
		const struct gp_range *r = &t->ranges.v[i];
		parent[i] = -1;
		if (i == 0 || gp_thread_cmp(r->pid, r->tid, r[-1].pid, r[-1].tid) != 0)
			open.n = 0;
		if (!want(r))
			continue;
		while (open.n) {
			const struct gp_range *top = &t->ranges.v[open.v[open.n - 1]];
			if (r->start < top->end && r->end <= top->end)
				break;
			open.n--;
		}
		parent[i] = open.n ? open.v[open.n - 1] : -1;
		*gp_vec_push(open) = (int32_t)i;
	}
	gp_vec_free(open);
	return parent;
}

/* The innermost op strictly enclosing [start, end] (starting before it
** starts, ending after it ends) on range r's thread, from r (a range of that
** thread that starts before start, -1 = none): r's nearest op, then up the
** op tree; -1 when none. */
static int32_t op_around(const gp_trace *t, const int32_t *op_up, const int32_t *op_parent, int32_t r,
			 gp_ns start, gp_ns end)
{
	int32_t o;

	if (r < 0 || (size_t)r >= t->ranges.n)
		return -1;
	for (o = op_up[r]; o >= 0; o = op_parent[o]) {
		const struct gp_range *op = &t->ranges.v[o];
		if (op->start < start && op->end > end)
			break;
	}
	return o;
}

/* The innermost op around API call api (op_around from range r); -1. */
static int32_t call_op(const gp_trace *t, const int32_t *op_up, const int32_t *op_parent, int32_t r,
		       int32_t api)
{
	if (api < 0 || (size_t)api >= t->apis.n)
		return -1;
	return op_around(t, op_up, op_parent, r, t->apis.v[api].start, t->apis.v[api].end);
}

/* The last range of thread (pid, tid) that starts before at, -1 (a binary
** search: ranges are in gp_range_cmp's order). */
static int32_t last_range_before(const gp_trace *t, uint32_t pid, uint32_t tid, gp_ns at)
{
	size_t lo = 0, hi = t->ranges.n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct gp_range *r = &t->ranges.v[mid];
		int c = gp_thread_cmp(r->pid, r->tid, pid, tid);
		if (c < 0 || (c == 0 && r->start < at))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return -1;
	const struct gp_range *r = &t->ranges.v[lo - 1];
	return r->pid == pid && r->tid == tid ? (int32_t)(lo - 1) : -1;
}

/* The op ranges numbered in range order, so that arrays over ops leave
** out the other ranges (python frames are three in four ranges of the
** H100 BERT trace).  of[i] is op range i's number (the other ranges'
** entries are never set nor read); of is NULL when every range is an op:
** a range's number is then its index. */
struct op_index {
	int32_t *of;
	size_t n;               /* ops */
};

/* Numbers the op ranges of t (op_up[i] == i, nearest_up(t, is_op)) into
** x.  Never fails. */
static void op_index_init(const gp_trace *t, const int32_t *op_up, struct op_index *x)
{
	size_t n = 0;

	for (size_t i = 0; i < t->ranges.n; i++)
		n += op_up[i] == (int32_t)i;
	x->n = n;
	x->of = NULL;
	if (n == t->ranges.n)
		return;
	x->of = gp_xmalloc((t->ranges.n ? t->ranges.n : 1) * sizeof(*x->of));
	n = 0;
	for (size_t i = 0; i < t->ranges.n; i++)
		if (op_up[i] == (int32_t)i)
			x->of[i] = (int32_t)n++;
}

/* The number of op range o (o >= 0, an op). */
static size_t op_no(const struct op_index *x, int32_t o)
{
	return x->of ? (size_t)x->of[o] : (size_t)o;
}

/* The memory figures (enum gp_opmem) of the op instances, kept only for
** traces with allocator events and only for the ops that get any: an op
** with events of its own or below it (on df_index x5, 111,400 of 293,575
** ops; the others' figures are 0 and adding them changes nothing). */
struct op_mem_figs {
	int64_t self[GP_OPMEM__COUNT];
	int64_t total[GP_OPMEM__COUNT];
};

struct op_mem {
	uint32_t *slot;         /* per op (struct op_index): its index in figs
				** plus 1, 0 = none (all 0): zeroed, so the
				** pages of ops without figures are never
				** touched */
	GP_VEC(struct op_mem_figs) figs;
};

/* Sets up mem for nops ops: none has figures yet. */
static void op_mem_init(size_t nops, struct op_mem *mem)
{
	mem->slot = gp_xcalloc(nops ? nops : 1, sizeof(*mem->slot));
}

/* The figures of op number o, zero ones added when it has none.  The pointer
** lasts until the next call. */
static struct op_mem_figs *op_mem_of(struct op_mem *mem, int32_t o)
{
	if (!mem->slot[o]) {
		memset(gp_vec_push(mem->figs), 0, sizeof(struct op_mem_figs));
		mem->slot[o] = (uint32_t)mem->figs.n;
	}
	return &mem->figs.v[mem->slot[o] - 1];
}

/* The figures of op number o, or NULL when it has none. */
static const struct op_mem_figs *op_mem_get(const struct op_mem *mem, size_t o)
{
	return mem->slot && mem->slot[o] ? &mem->figs.v[mem->slot[o] - 1] : NULL;
}

/* Completes the total of op number o, which has figures and whose
** children have handed theirs up: adds its self figures, then hands the
** total to its parent op, number pop (-1: none). */
static void op_mem_up(struct op_mem *mem, int32_t o, int32_t pop)
{
	struct op_mem_figs *f = &mem->figs.v[mem->slot[o] - 1], *pf;

	for (int m = 0; m < GP_OPMEM__COUNT; m++)
		gp_mem_add_bytes(&f->total[m], f->self[m]);
	if (pop < 0)
		return;
	pf = op_mem_of(mem, pop);
	f = &mem->figs.v[mem->slot[o] - 1];   /* op_mem_of may have moved it */
	for (int m = 0; m < GP_OPMEM__COUNT; m++)
		gp_mem_add_bytes(&pf->total[m], f->total[m]);
}

static void op_mem_free(struct op_mem *mem)
{
	free(mem->slot);
	gp_vec_free(mem->figs);
}

/* Adds each allocator event of t to the self figures (in mem, by op
** number: ox) of the innermost op on its thread that holds its time
** (start <= ts <= end): from the last range of the thread that starts at
** or before it (one walk beside the events in thread order), that range's
** nearest op, then up the op tree.  Events outside every op, and absurd
** ones, count nowhere. */
static void add_memory(const gp_trace *t, const int32_t *op_up, const int32_t *op_parent,
		       const struct op_index *ox, struct op_mem *mem)
{
	uint32_t *ord = gp_mem_thread_order(t);
	size_t ri = 0, nr = t->ranges.n;

	for (size_t k = 0; k < t->memevents.n; k++) {
		const struct gp_memevent *e = &t->memevents.v[ord[k]];
		int32_t o = -1;
		while (ri < nr && (gp_thread_cmp(t->ranges.v[ri].pid, t->ranges.v[ri].tid, e->pid, e->tid) < 0 ||
				   (t->ranges.v[ri].pid == e->pid && t->ranges.v[ri].tid == e->tid &&
				    t->ranges.v[ri].start <= e->ts)))
			ri++;
		if (ri > 0 && t->ranges.v[ri - 1].pid == e->pid && t->ranges.v[ri - 1].tid == e->tid)
			for (o = op_up[ri - 1]; o >= 0; o = op_parent[o])
				if (t->ranges.v[o].start <= e->ts && e->ts <= t->ranges.v[o].end)
					break;
		if (o < 0 || gp_mem_absurd(e))
			continue;
		int64_t *b = op_mem_of(mem, (int32_t)op_no(ox, o))->self +
			     (e->device == GP_MEM_HOST ? GP_OPMEM_CPU_NET : GP_OPMEM_GPU_NET);
		gp_mem_add_bytes(&b[0], e->bytes);
		if (e->bytes > 0)
			gp_mem_add_bytes(&b[1], e->bytes);
	}
	free(ord);
}

/* The name, and the shapes an NVTX text carries, per distinct text; NVTX
** marker texts are parsed once each (ids below n exist before labelling). */
struct names {
	size_t n;
	struct gp_marker_labels labels;
	gp_str *sizes;          /* GP_NO_SIZES = not looked for yet */
};

#define GP_NO_SIZES UINT32_MAX

/* The row name of range r: an NVTX marker's short label (gp_marker_label:
** "aten::mm" for an emit_nvtx range), else its text. */
static gp_str name_of(gp_trace *t, struct names *nm, const struct gp_range *r)
{
	gp_str label;

	if (!is_nvtx(r) || r->text >= nm->n)
		return r->text;
	label = gp_marker_labels_get(&nm->labels, r->text, NULL);   /* interned first, as always */
	if (nm->sizes[r->text] == GP_NO_SIZES) {
		const char *s = gp_s(t, r->text);
		const char *sz = strstr(s, "sizes = [");
		nm->sizes[r->text] = 0;
		if (sz) {
			/* emit_nvtx: "aten::mm, seq = 3, sizes = [[2, 3], [3, 4]]" */
			const char *b = sz + strlen("sizes = "), *e = b;
			int depth = 0;
			do {
				depth += *e == '[' ? 1 : *e == ']' ? -1 : 0;
				e++;
			} while (*e && depth > 0);
			nm->sizes[r->text] = gp_strtab_intern_n(&t->strs, b, (size_t)(e - b));
		}
	}
	return label;
}

/* The input shapes of op range i: Kineto's Input Dims, an emit_nvtx
** range's sizes; 0 when it has none. */
static gp_str shapes_of(gp_trace *t, struct names *nm, size_t i)
{
	const struct gp_range *r = &t->ranges.v[i];

	if (gp_range_op_ext(t, r))
		return gp_range_op_ext(t, r)->input_dims;
	if (is_nvtx(r) && r->text < nm->n) {
		name_of(t, nm, r);
		return nm->sizes[r->text];
	}
	return 0;
}

/* The op name a replayed kernel takes from its capture (gp_attr.graph
** CAPTURED, CAPTURED_OPS, ANNOTATED): the raw op ("aten::mm") where the
** attribution names one, else its op; 0 for any other kernel. */
static gp_str captured_op(const struct gp_attr *a)
{
	if (a->graph != GP_GRAPH_CAPTURED && a->graph != GP_GRAPH_CAPTURED_OPS && a->graph != GP_GRAPH_ANNOTATED)
		return 0;
	return a->marker ? a->marker : a->op;
}

/* Whether op o or an op around it is named name: a graph captured and
** replayed inside the same op (torch.compile's "Torch-Compiled Region"
** captures, instantiates and launches its graph), whose replayed kernels
** would otherwise count twice in that op's GPU total (as its captured
** op's Self GPU, and in the GPU total of the ops around the launch). */
static bool op_named_around(const gp_trace *t, const int32_t *op_parent, int32_t o, gp_str name)
{
	for (; o >= 0; o = op_parent[o])
		if (t->ranges.v[o].text == name)
			return true;
	return false;
}

/* The GPU time and FLOPs of the replayed kernels (copies, memsets) of one
** captured op name (and shapes or stack: the row key's extra part). */
struct replayed_op {
	gp_str name, extra;
	gp_ns gpu;
	double flops;           /* < 0 = none known */
};

/* The replayed work by captured op name and extra key. */
struct replays {
	GP_VEC(struct replayed_op) v;
	gp_u64map at;           /* (name, extra) -> index in v */
};

static struct replayed_op *replayed_row(struct replays *rp, gp_str name, gp_str extra)
{
	int32_t at = gp_u64map_add(&rp->at, (uint64_t)name << 32 | extra, (int32_t)rp->v.n);

	if ((size_t)at == rp->v.n)
		*gp_vec_push(rp->v) = (struct replayed_op){name, extra, 0, -1};
	return &rp->v.v[at];
}

/* What add_copy() reads and adds to. */
struct copies {
	gp_trace *t;
	const int32_t *op_up, *op_parent;
	gp_u64map corrs;        /* a copy's or set's correlation id -> its slot in api_of */
	int32_t *api_of;        /* per slot: the first API call with that id, -1 = none */
	gp_u64map nodes;        /* graph node events (gp_graph_node_index) */
	const struct op_index *ox;
	gp_ns *self_gpu, *gpu_total;    /* per op number */
	gp_ns *sum;
	struct replays *rp;
	struct names *nm;
};

/* Adds one memcpy's or memset's time to *sum and to an op: replayed from
** a graph and made inside an op during capture (its node's creation, as
** for kernels: attr_graph.h; or graph_op, the op of its launch in a
** matched Kineto capture), that op's row by name and the GPU total of the
** op around its graph launch; else Self GPU of the op around its
** launching call (the API call with its correlation id and pid; a record
** without a pid takes any). */
static void add_copy(struct copies *c, uint64_t corr, uint32_t pid, gp_ns start, gp_ns end, uint64_t node,
		     gp_str graph_op)
{
	const gp_trace *t = c->t;
	int32_t s = corr ? gp_u64map_get(&c->corrs, corr) : -1;
	int32_t a = s >= 0 ? c->api_of[s] : -1, o = -1, cap = -1;

	*c->sum += end - start;
	if (a >= 0 && pid && pid != t->apis.v[a].pid)
		a = -1;
	if (a >= 0) {
		const struct gp_api *api = &t->apis.v[a];
		o = call_op(t, c->op_up, c->op_parent, last_range_before(t, api->pid, api->tid, api->start), a);
	}
	int32_t e = node && t->graph_nodes.n ? gp_graph_node_creation(t, &c->nodes, pid, node) : -1;
	if (e >= 0) {
		const struct gp_graph_node *n = &t->graph_nodes.v[e];
		cap = op_around(t, c->op_up, c->op_parent, last_range_before(t, n->pid, n->tid, n->start),
				n->start, n->end);
	}
	if (cap >= 0 || graph_op) {
		gp_str name = cap >= 0 ? name_of(c->t, c->nm, &t->ranges.v[cap]) : graph_op;
		replayed_row(c->rp, name, 0)->gpu += end - start;
		if (o >= 0)
			c->gpu_total[op_no(c->ox, o)] += end - start;
	} else if (o >= 0) {
		c->self_gpu[op_no(c->ox, o)] += end - start;
	}
}

/* Adds corr, a copy's or set's correlation id (0: none), to c->corrs with
** the next slot; returns the slots now taken. */
static size_t copy_corr(struct copies *c, uint64_t corr, size_t slots)
{
	if (corr && gp_u64map_add(&c->corrs, corr, (int32_t)slots) == (int32_t)slots)
		slots++;
	return slots;
}

/* add_copy() for every memcpy and memset of c->t.  The kernels' launches
** come from the correlation pass; copies and sets are fewer, so a hash of
** their correlation ids, one pass over the calls for each id's first call
** (not a hash of every call: 9 MB while it lived on PARAM resnet x10, for
** 4,850 copies and sets), and one binary search each. */
static void add_copies(struct copies *c)
{
	const gp_trace *t = c->t;
	size_t slots = 0;

	if (!t->memcpys.n && !t->memsets.n)
		return;
	gp_u64map_reserve(&c->corrs, t->memcpys.n + t->memsets.n);
	for (size_t i = 0; i < t->memcpys.n; i++)
		slots = copy_corr(c, t->memcpys.v[i].corr, slots);
	for (size_t i = 0; i < t->memsets.n; i++)
		slots = copy_corr(c, t->memsets.v[i].corr, slots);
	c->api_of = gp_xmalloc((slots ? slots : 1) * sizeof(*c->api_of));
	for (size_t i = 0; i < slots; i++)
		c->api_of[i] = -1;
	for (size_t i = 0; slots && i < t->apis.n; i++) {
		int32_t s = t->apis.v[i].corr ? gp_u64map_get(&c->corrs, t->apis.v[i].corr) : -1;
		if (s >= 0 && c->api_of[s] < 0)
			c->api_of[s] = (int32_t)i;
	}
	gp_graph_node_index(t, &c->nodes);
	for (size_t i = 0; i < t->memcpys.n; i++) {
		const struct gp_memcpy *m = &t->memcpys.v[i];
		add_copy(c, m->corr, m->pid, m->start, m->end, m->graph_node, m->graph_op);
	}
	for (size_t i = 0; i < t->memsets.n; i++) {
		const struct gp_memset *m = &t->memsets.v[i];
		add_copy(c, m->corr, m->pid, m->start, m->end, m->graph_node, m->graph_op);
	}
	free(c->api_of);
	gp_u64map_free(&c->corrs);
	gp_u64map_free(&c->nodes);
}

/* The stack key of python frame p and the depth-1 frames enclosing it,
** innermost first, "; "-joined; memo[p] keeps it. */
static gp_str stack_of(gp_trace *t, const int32_t *py_up, gp_str *memo, int32_t p, int depth)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;

	if (memo[p])
		return memo[p];
	for (int32_t f = p; f >= 0 && depth-- > 0;) {
		const char *s = gp_s(t, t->ranges.v[f].text);
		size_t sl = strlen(s);
		if (len + sl + 3 > cap) {
			cap = (len + sl + 3) * 2;
			buf = gp_xrealloc(buf, cap);
		}
		if (len) {
			memcpy(buf + len, "; ", 2);
			len += 2;
		}
		memcpy(buf + len, s, sl);
		len += sl;
		int32_t up = parent_of(t, (size_t)f);
		f = up >= 0 ? py_up[up] : -1;
	}
	memo[p] = len ? gp_strtab_intern_n(&t->strs, buf, len) : 0;
	free(buf);
	return memo[p];
}

/* What a row's key is read from in one trace (t, or a capture trace a
** replayed kernel was matched in): its op tree and, for the grouping's
** extra key, names and shapes, python frames and their stacks. */
/* The length of the longest common leading components of layer paths a
** and b (whole components: "M/Block_1" and "M/Block_10" share "M"). */
static size_t common_path(const char *a, const char *b)
{
	size_t i = 0, keep = 0;

	for (;; i++) {
		bool end_a = !a[i] || a[i] == GP_LAYER_SEP, end_b = !b[i] || b[i] == GP_LAYER_SEP;
		if (end_a && end_b)
			keep = i;
		if (end_a || end_b || a[i] != b[i])
			break;
	}
	return keep;
}

/* Each range's layer path (malloc'd, [ranges.n], 0 = none): the path all
** the kernels launched under it share (their attrs' layers' common leading
** components: an op inside one layer gets it whole, a step or optimizer
** range spanning several layers their common part); a range with no
** kernel under it, its parent's.  So an op's layer is read from what the
** kernels' attribution decided (annotations, modules, NVTX), never a
** second rule. */
static gp_str *range_layers(gp_trace *t)
{
	size_t n = t->ranges.n;
	gp_str *of = gp_xcalloc(n ? n : 1, sizeof(*of));
	uint8_t *seen = gp_xcalloc(n ? n : 1, 1);

	for (size_t k = 0; t->attrs && k < t->kernels.n; k++) {
		gp_str l = t->attrs[k].layer;
		for (int32_t r = t->attrs[k].range; r >= 0 && (size_t)r < n; r = t->ranges.v[r].parent) {
			if (!seen[r]) {
				seen[r] = 1;
				of[r] = l;
				continue;
			}
			if (of[r] == l || !of[r])
				break;   /* its ancestors' paths are prefixes of this one already */
			const char *a = gp_s(t, of[r]), *b = l ? gp_s(t, l) : "";
			size_t keep = common_path(a, b);
			if (keep == strlen(a))
				break;
			of[r] = keep ? gp_strtab_intern_n(&t->strs, a, keep) : 0;
			l = of[r];
		}
	}
	/* parents come before their children in range order */
	for (size_t i = 0; i < n; i++) {
		int32_t p = t->ranges.v[i].parent;
		if (!seen[i] && p >= 0 && (size_t)p < i)
			of[i] = of[p];
	}
	free(seen);
	return of;
}

struct keyer {
	gp_trace *t;
	int group;              /* enum gp_optable_group */
	int stack_depth;
	int32_t *op_up, *op_parent;
	int32_t *py_up;         /* BY_STACK */
	gp_str *stack_memo;
	gp_str *layer_of;       /* BY_LAYER: each range's layer path */
	struct names nm;
};

static void keyer_init(struct keyer *kx, gp_trace *t, const struct gp_optable_opts *o)
{
	size_t nn = t->ranges.n ? t->ranges.n : 1;

	memset(kx, 0, sizeof(*kx));
	kx->t = t;
	kx->group = o->group;
	kx->stack_depth = o->stack_depth;
	kx->op_up = nearest_up(t, is_op);
	kx->op_parent = containers(t, is_op);
	kx->py_up = o->group == GP_OPTABLE_BY_STACK ? nearest_up(t, is_python) : NULL;
	kx->stack_memo = kx->py_up ? gp_xcalloc(nn, sizeof(*kx->stack_memo)) : NULL;
	kx->layer_of = o->group == GP_OPTABLE_BY_LAYER ? range_layers(t) : NULL;
	kx->nm.n = t->strs.n;
	gp_marker_labels_init(&kx->nm.labels, t);
	kx->nm.sizes = gp_xmalloc((kx->nm.n ? kx->nm.n : 1) * sizeof(*kx->nm.sizes));
	for (size_t i = 0; i < kx->nm.n; i++)
		kx->nm.sizes[i] = GP_NO_SIZES;
}

static void keyer_free(struct keyer *kx)
{
	free(kx->op_up);
	free(kx->op_parent);
	free(kx->py_up);
	free(kx->stack_memo);
	free(kx->layer_of);
	gp_marker_labels_free(&kx->nm.labels);
	free(kx->nm.sizes);
}

/* The extra key of op range i of kx's trace (its shapes, or the stack of
** the python frame around it; a string of that trace), 0 for BY_NAME or
** when it has none. */
static gp_str extra_of(struct keyer *kx, size_t i)
{
	if (kx->group == GP_OPTABLE_BY_SHAPE)
		return shapes_of(kx->t, &kx->nm, i);
	if (kx->group == GP_OPTABLE_BY_STACK) {
		int32_t p = parent_of(kx->t, i), f = p >= 0 ? kx->py_up[p] : -1;
		return f >= 0 ? stack_of(kx->t, kx->py_up, kx->stack_memo, f, kx->stack_depth) : 0;
	}
	if (kx->group == GP_OPTABLE_BY_LAYER)
		return kx->layer_of[i];
	return 0;
}

/* The extra key (a string of kt->t) of replayed kernel k, read at the op
** around its captured launch: in the trace itself (kt), or in the capture
** trace it was matched in (kc[capture], set up on first use).  0 by name,
** when the capture is not known, and for shapes of a kernel that several
** captures alike but for shapes fit (GP_GRAPH_CAPTURED_OPS). */
static gp_str replay_extra(struct keyer *kt, struct keyer *kc, const struct gp_optable_opts *o, size_t k)
{
	gp_trace *t = kt->t;
	int32_t n = t->replay_node ? t->replay_node[k] : -1, r;

	if (o->group == GP_OPTABLE_BY_LAYER)
		return t->attrs[k].layer;   /* the replay's own: its capture's, or "graph replay" */
	if (o->group == GP_OPTABLE_BY_NAME || n < 0 || (size_t)n >= t->captured_nodes.n ||
	    (o->group == GP_OPTABLE_BY_SHAPE && t->attrs[k].graph == GP_GRAPH_CAPTURED_OPS))
		return 0;
	const struct gp_captured_node *cn = &t->captured_nodes.v[n];
	if (cn->capture < 0) {
		if (cn->at < 0 || (size_t)cn->at >= t->apis.n)
			return 0;
		const struct gp_api *api = &t->apis.v[cn->at];
		r = call_op(t, kt->op_up, kt->op_parent, last_range_before(t, api->pid, api->tid, api->start), cn->at);
		return r >= 0 ? extra_of(kt, (size_t)r) : 0;
	}
	if ((size_t)cn->capture >= t->captures.n)
		return 0;
	gp_trace *c = t->captures.v[cn->capture].t;
	struct keyer *x = &kc[cn->capture];
	if (!c || !c->attrs || cn->at < 0 || (size_t)cn->at >= c->kernels.n)
		return 0;
	if (!x->t)
		keyer_init(x, c, o);
	r = call_op(c, x->op_up, x->op_parent, c->attrs[cn->at].range, c->attrs[cn->at].api);
	gp_str e = r >= 0 ? extra_of(x, (size_t)r) : 0;
	return e ? gp_intern(t, gp_s(c, e)) : 0;
}

/* A range's FLOPs in a zeroed array: +0.0 = none known, a known total
** of zero kept as -0.0 (adding either to a row's positive sum or to 0
** gives the same as adding +0.0).  flops_put() stores known total v >= 0. */
static void flops_put(double *f, double v)
{
	*f = v > 0 ? v : -0.0;
}

static bool flops_known(double f)
{
	return f != 0 || signbit(f);
}

/* Opens the row of op range i of kt's trace (o's grouping) in tb, or the
** one of its name and extra key already open; returns its index. */
static int32_t range_row(struct keyer *kt, const struct gp_optable_opts *o, gp_u64map *slot,
			 struct gp_optable *tb, size_t i)
{
	const struct gp_range *r = &kt->t->ranges.v[i];
	gp_str name = name_of(kt->t, &kt->nm, r), extra = extra_of(kt, i);
	int32_t at = gp_u64map_add(slot, (uint64_t)name << 32 | extra, (int32_t)tb->rows.n);

	if ((size_t)at == tb->rows.n) {
		struct gp_oprow *row = gp_vec_push(tb->rows);
		memset(row, 0, sizeof(*row));
		row->name = name;
		row->shapes = o->group == GP_OPTABLE_BY_SHAPE ? extra : 0;
		row->stack = o->group == GP_OPTABLE_BY_STACK ? extra : 0;
		row->layer = o->group == GP_OPTABLE_BY_LAYER ? extra : 0;
		row->kind = r->kind;
		row->flops = -1;
	}
	return at;
}

void gp_optable_build(gp_trace *t, const struct gp_optable_opts *o, struct gp_optable *tb)
{
	size_t n = t->ranges.n;
	struct keyer kt, *kc = gp_xcalloc(t->captures.n ? t->captures.n : 1, sizeof(*kc));
	keyer_init(&kt, t, o);
	const int32_t *op_up = kt.op_up, *op_parent = kt.op_parent;
	struct op_index ox;
	op_index_init(t, op_up, &ox);
	size_t no = ox.n ? ox.n : 1;
	/* Per op number: the GPU time of its own kernels, copies and sets;
	** its GPU total (starting as the replays' and its own); the FLOPs of
	** its own kernels (kept per op so that a row adds them in range
	** order; flops_put()).  Zeroed and written only where there is GPU
	** work, so the pages of CPU-only ops are never touched. */
	gp_ns *self_gpu = gp_xcalloc(no, sizeof(*self_gpu));
	gp_ns *gpu_total = gp_xcalloc(no, sizeof(*gpu_total));
	double *flops = gp_xcalloc(no, sizeof(*flops));
	int32_t *row_of;        /* per op number: its row, -1 = none (left out) */
	struct replays rp = {0};
	struct op_mem mem = {0};
	gp_u64map slot = {0};

	memset(tb, 0, sizeof(*tb));

	/* Each kernel's time to the innermost op around its launch, then each
	** memcpy's and memset's. */
	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_kernel *kr = &t->kernels.v[k];
		int32_t op = t->attrs ? call_op(t, op_up, op_parent, t->attrs[k].range, t->attrs[k].api) : -1;
		gp_str cap = t->attrs ? captured_op(&t->attrs[k]) : 0;
		if (cap && op_named_around(t, op_parent, op, cap))
			cap = 0;        /* it ran inside its captured op: an ordinary kernel there */
		if (o->keep_kernel && !o->keep_kernel[k])
			continue;
		tb->gpu_sum += kr->end - kr->start;
		if (cap) {
			struct replayed_op *ro = replayed_row(&rp, cap, replay_extra(&kt, kc, o, k));
			ro->gpu += kr->end - kr->start;
			if (o->flops && o->flops[k] >= 0)
				ro->flops = (ro->flops > 0 ? ro->flops : 0) + o->flops[k];
			if (op >= 0)
				gpu_total[op_no(&ox, op)] += kr->end - kr->start;
			continue;
		}
		if (op < 0)
			continue;
		size_t j = op_no(&ox, op);
		self_gpu[j] += kr->end - kr->start;
		if (o->flops && o->flops[k] >= 0)
			flops_put(&flops[j], (flops[j] > 0 ? flops[j] : 0) + o->flops[k]);
	}
	if (!o->keep_kernel)
		add_copies(&(struct copies){.t = t, .op_up = op_up, .op_parent = op_parent, .ox = &ox, .self_gpu = self_gpu,
					    .gpu_total = gpu_total, .sum = &tb->gpu_sum, .rp = &rp, .nm = &kt.nm});
	tb->has_memory = t->memevents.n > 0;
	if (tb->has_memory) {
		op_mem_init(ox.n, &mem);
		add_memory(t, op_up, op_parent, &ox, &mem);
	}
	/* The rows in range order, so in first-instance order, with their
	** calls, CPU and Self GPU times; each op's children's CPU times are
	** taken off its row's Self CPU below (not kept per range). */
	row_of = gp_xmalloc(no * sizeof(*row_of));
	for (size_t i = 0; i < n; i++) {
		gp_ns dur = t->ranges.v[i].end - t->ranges.v[i].start;
		if (op_up[i] != (int32_t)i)
			continue;
		size_t j = op_no(&ox, (int32_t)i);
		if (self_gpu[j])
			gpu_total[j] += self_gpu[j];
		row_of[j] = -1;
		if (o->keep_range && !o->keep_range[i])
			continue;
		row_of[j] = range_row(&kt, o, &slot, tb, i);
		struct gp_oprow *row = &tb->rows.v[row_of[j]];
		row->calls++;
		row->cpu_total += dur;
		row->self_cpu += dur;
		row->self_gpu += self_gpu[j];
		tb->self_cpu_sum += dur;
	}
	free(self_gpu);
	/* Children after parents: backwards, each op's totals are complete
	** when it hands them to its parent op. */
	for (size_t i = n; i-- > 0;) {
		if (op_up[i] != (int32_t)i)
			continue;
		size_t j = op_no(&ox, (int32_t)i);
		int32_t pop = op_parent[i] >= 0 ? (int32_t)op_no(&ox, op_parent[i]) : -1;
		if (pop >= 0) {
			gp_ns dur = t->ranges.v[i].end - t->ranges.v[i].start;
			if (gpu_total[j])
				gpu_total[pop] += gpu_total[j];
			if (row_of[pop] >= 0) {
				tb->rows.v[row_of[pop]].self_cpu -= dur;
				tb->self_cpu_sum -= dur;
			}
		}
		if (op_mem_get(&mem, j))
			op_mem_up(&mem, (int32_t)j, pop);
	}
	/* The totals to the rows, in range order. */
	for (size_t j = 0; j < ox.n; j++) {
		if (row_of[j] < 0)
			continue;
		struct gp_oprow *row = &tb->rows.v[row_of[j]];
		row->gpu_total += gpu_total[j];
		if (flops_known(flops[j]))
			row->flops = (row->flops > 0 ? row->flops : 0) + flops[j];
		const struct op_mem_figs *f = op_mem_get(&mem, j);
		for (int m = 0; f && m < GP_OPMEM__COUNT; m++) {
			gp_mem_add_bytes(&row->self_mem[m], f->self[m]);
			gp_mem_add_bytes(&row->total_mem[m], f->total[m]);
		}
	}
	/* Replayed kernels to the rows of their captured ops (with the shapes
	** or stack of the op at their capture); an op captured only in a
	** capture trace is a row of no calls. */
	for (size_t i = 0; i < rp.v.n; i++) {
		const struct replayed_op *ro = &rp.v.v[i];
		int32_t at = gp_u64map_add(&slot, (uint64_t)ro->name << 32 | ro->extra, (int32_t)tb->rows.n);
		if ((size_t)at == tb->rows.n) {
			struct gp_oprow *row = gp_vec_push(tb->rows);
			memset(row, 0, sizeof(*row));
			row->name = ro->name;
			row->shapes = o->group == GP_OPTABLE_BY_SHAPE ? ro->extra : 0;
			row->stack = o->group == GP_OPTABLE_BY_STACK ? ro->extra : 0;
			row->layer = o->group == GP_OPTABLE_BY_LAYER ? ro->extra : 0;
			row->kind = GP_RANGE_CPU_OP;
			row->flops = -1;
		}
		struct gp_oprow *row = &tb->rows.v[at];
		row->self_gpu += ro->gpu;
		row->gpu_total += ro->gpu;
		if (ro->flops >= 0)
			row->flops = (row->flops > 0 ? row->flops : 0) + ro->flops;
	}
	gp_vec_free(rp.v);
	gp_u64map_free(&rp.at);
	gp_u64map_free(&slot);
	free(flops);
	op_mem_free(&mem);
	free(gpu_total);
	free(row_of);
	free(ox.of);
	for (size_t i = 0; i < t->captures.n; i++)
		if (kc[i].t)
			keyer_free(&kc[i]);
	free(kc);
	keyer_free(&kt);
}

void gp_optable_python(gp_trace *t, struct gp_optable *tb)
{
	size_t n = t->ranges.n, nn = n ? n : 1;
	int32_t *up = containers(t, is_python);
	gp_ns *children = gp_xcalloc(nn, sizeof(*children));
	gp_u64map slot = {0};

	for (size_t i = 0; i < n; i++)
		if (up[i] >= 0)
			children[up[i]] += t->ranges.v[i].end - t->ranges.v[i].start;
	for (size_t i = 0; i < n; i++) {
		const struct gp_range *r = &t->ranges.v[i];
		bool primitive = true;
		if (!is_python(r))
			continue;
		/* cProfile counts a recursive call's time once, in the outermost */
		for (int32_t f = up[i]; f >= 0 && primitive; f = up[f])
			primitive = t->ranges.v[f].text != r->text;
		int32_t at = gp_u64map_add(&slot, r->text, (int32_t)tb->py.n);
		if ((size_t)at == tb->py.n) {
			struct gp_pyrow *row = gp_vec_push(tb->py);
			memset(row, 0, sizeof(*row));
			row->func = r->text;
		}
		struct gp_pyrow *row = &tb->py.v[at];
		row->calls++;
		row->tottime += r->end - r->start - children[i];
		if (primitive) {
			row->prim_calls++;
			row->cumtime += r->end - r->start;
		}
	}
	gp_u64map_free(&slot);
	free(children);
	free(up);
}

void gp_optable_free(struct gp_optable *tb)
{
	gp_vec_free(tb->rows);
	gp_vec_free(tb->py);
}
