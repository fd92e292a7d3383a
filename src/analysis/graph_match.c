/*
** Replayed graphs matched to capture traces; see graph_match.h and
** docs/correlation.md ("Kineto: capture traces").
**
** 1. Captured graphs.  In each capture trace, the launches one thread made
**    between *StreamBeginCapture and *StreamEndCapture (kernels, copies,
**    memsets), in order, are one graph.  A launch recorded during capture
**    ran nothing, so the capture trace gets a zero-length kernel per launch,
**    named as the launch's args name it (ROCm; CUDA traces name none), and
**    its own correlation pass attributes those like any kernel: op, module,
**    layer, shapes, Python frame.  Each attribution is copied into t once.
** 2. Replays.  Each graph launch call of t with the kernels, copies and
**    memsets hanging on it, in start order.
** 3. Which captured graph a replay is: those with its kernels (kinds and
**    names, as multisets, and grids where both sides state them; by count
**    where the capture names none), else those whose launches contain its
**    kernels in order, else those holding the most of them in order (at
**    least half: a truncated capture still attributes what it has).  Among
**    several: any, when they attribute alike; the op and layer without
**    shapes when they differ in shapes only (one graph per batch size);
**    when their ops differ, the one captured after the graph the same
**    thread replayed last (piecewise graphs replay in capture order), else
**    the one whose successors alone fit the replays that follow.
**    Otherwise the replay is ambiguous, never guessed.
** 4. Which launch a kernel is: the same position when the orders agree;
**    else, for graphs on several streams, the capture order merged with
**    each stream's replay order (a stream runs its work in order), a tie
**    between streams marking the kernels ambiguous when the launches it
**    could be say different things; else in order, skipping launches the
**    replay lacks (a kernel found in none is not captured).  Without
**    names only one stream's order can be trusted: a multi-stream replay
**    of an unnamed capture is ambiguous.
** A trace that holds the captures itself (torch.profiler around capture
** and replays) is matched the same way, before its correlation: its
** captured launches are keyed by the op their External id names, and a
** kernel matched to one gets that call as its capture point (attr_graph.h).
** Replays repeat: a replay's graph choice and launch map are computed once
** per distinct replay (by its kernels' names, kinds and streams, hashed)
** and reused, so the whole pass is linear in the kernels.
*/
#include <stdlib.h>
#include <string.h>

#include "analysis/correlate.h"
#include "analysis/graph_match.h"
#include "model/calls.h"
#include "util/alloc.h"
#include "util/u64map.h"

/* A captured launch runs nothing; its stand-in kernel has no stream. */
#define CAPTURED_STREAM UINT32_MAX
/* Replays whose graph a capture holds only partly: at least this share of
** their kernels in order. */
#define PARTIAL_MIN 0.5
/* The look-ahead that tells identical graphs apart stops after this many
** replays (it is bounded by the captures' length too): a trace of many
** replays stays linear. */
#define LOOKAHEAD_MAX 64

enum { NK_KERNEL, NK_COPY, NK_SET, NK__COUNT };

/* A captured launch. */
struct node {
	gp_str name;            /* in t; 0 = the capture names no kernel */
	uint32_t grid[3], block[3];
	uint8_t kind;
	struct gp_attr attr;    /* its attribution, in t's strings and args */
	int32_t call;           /* t captured it itself: its launch call in t; else -1 */
	uint64_t akey_op;       /* hash of what attr says, shapes aside */
	uint64_t akey;          /* hash of all attr says */
};

/* A captured graph. */
struct cgraph {
	uint32_t first, n;      /* nodes[first .. first + n), capture order */
	int32_t next;           /* the graph its thread captured next, -1 */
	bool named, gridded;    /* every kernel has a name / a grid */
	uint64_t mset_kinds, mset_names, mset_grid;  /* multiset hashes */
	uint64_t akey_op, akey; /* hash of its nodes' akey_op / akey, in order */
};

/* A replayed kernel, copy or memset. */
struct item {
	gp_ns start;
	uint32_t idx;           /* into t->kernels, memcpys or memsets */
	uint32_t stream;
	uint8_t kind;
	gp_str name;
	uint32_t grid[3], block[3];
};

/* A graph launch with what it ran. */
struct unit {
	int32_t call;
	uint32_t first, n;      /* items */
	bool gridded;
	uint64_t mset_kinds, mset_names, mset_grid;
	uint64_t seq;           /* ordered hash of names, kinds and streams */
	int32_t next;           /* the next unit of its thread, -1 */
	bool streams;           /* its work ran on several streams */
};

/* Candidate graphs of one replay signature. */
struct cand {
	uint32_t first, n;      /* into m->pool */
	uint8_t rule;           /* RULE_* */
};

enum { RULE_NONE, RULE_EXACT, RULE_NAMES, RULE_COUNT, RULE_CONTAINS, RULE_PARTIAL };

struct matcher {
	gp_trace *t;
	size_t cg_base;         /* graph g is t->captured_graphs.v[cg_base + g] */
	size_t cn_base;         /* node i is t->captured_nodes.v[cn_base + i] */
	int32_t *call_of;       /* t's own captures: per kernel, its captured call */
	GP_VEC(struct node) nodes;
	GP_VEC(struct cgraph) graphs;
	gp_u64map args_seen;
	GP_VEC(struct item) items;
	GP_VEC(struct unit) units;
	GP_VEC(int32_t) pool;   /* candidate lists */
	GP_VEC(struct cand) cands;
	gp_u64map cand_at;      /* replay signature -> cands index */
	gp_u64map member;       /* (cands index, graph) -> 1: is_candidate's set */
	int32_t *unit_cand;     /* per unit: its cands index */
	GP_VEC(int32_t) maps;   /* launch maps: per item, a node offset or -1 */
	GP_VEC(uint8_t) amb;    /* beside maps: the item's match is ambiguous */
	gp_u64map map_at;       /* (graph, replay) -> first in maps */
};

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}

static uint64_t dims_key(const uint32_t *d)
{
	return mix((uint64_t)d[0] | (uint64_t)d[1] << 21 | (uint64_t)d[2] << 42);
}

static uint64_t key_kind(uint8_t kind)
{
	return mix(0x5bd1e995ull + kind);
}

static uint64_t key_name(uint8_t kind, gp_str name)
{
	return mix((uint64_t)kind << 32 | name);
}

static uint64_t key_grid(uint8_t kind, gp_str name, const uint32_t *grid, const uint32_t *block)
{
	return mix(key_name(kind, name) ^ dims_key(grid) ^ mix(dims_key(block)));
}

static bool has_dims(const uint32_t *d)
{
	return d[0] || d[1] || d[2];
}

bool gp_graph_launch_name(const char *name)
{
	return strstr(name, "GraphLaunch") != NULL;
}

/* The node kind of a call made during capture, or -1 for calls that add
** no GPU work (queries, events, host functions). */
static int node_kind(const char *name)
{
	if (gp_graph_launch_name(name) || strstr(name, "HostFunc"))
		return -1;
	if (strstr(name, "LaunchKernel") || strstr(name, "LaunchCooperativeKernel"))
		return NK_KERNEL;
	if (strstr(name, "Memcpy"))
		return NK_COPY;
	if (strstr(name, "Memset"))
		return NK_SET;
	return -1;
}

/* What a call of each API name does to a capture (indexed by API def). */
enum { CALL_BEGIN = NK__COUNT, CALL_END, CALL_OTHER };

/* The role of every API def of c (CALL_BEGIN, CALL_END, a node kind or
** CALL_OTHER), named once per distinct name rather than once per call;
** NULL when c has no call that begins a capture.  Free it. */
static uint8_t *call_roles(const gp_trace *c)
{
	uint8_t *role = gp_xmalloc(c->api_defs.n ? c->api_defs.n : 1);
	bool begins = false;

	for (size_t i = 0; i < c->api_defs.n; i++) {
		const char *name = c->api_defs.v[i].name ? gp_s(c, c->api_defs.v[i].name) : "";
		int kind = node_kind(name);
		role[i] = strstr(name, "StreamBeginCapture") ? CALL_BEGIN
			: strstr(name, "StreamEndCapture") ? CALL_END
			: kind >= 0 ? (uint8_t)kind : CALL_OTHER;
		begins |= role[i] == CALL_BEGIN;
	}
	if (!begins) {
		free(role);
		return NULL;
	}
	return role;
}

size_t gp_graph_capture_count(const gp_trace *c)
{
	uint8_t *role = call_roles(c);
	size_t n = 0;

	for (size_t i = 0; role && i < c->apis.n; i++)
		n += role[c->apis.v[i].def] == CALL_BEGIN;
	free(role);
	return n;
}

/* ---- 1. captured graphs ---- */

static gp_str restr(gp_trace *t, const gp_trace *c, gp_str s)
{
	return s ? gp_intern(t, gp_s(c, s)) : 0;
}

/* a (an attribution in capture trace c) in t's strings and args. */
static void attr_into(struct matcher *m, const gp_trace *c, const struct gp_attr *a, struct gp_attr *out)
{
	gp_trace *t = m->t;
	uint32_t first = (uint32_t)t->args.n;

	*out = *a;
	out->api = out->fwd = out->range = -1;
	out->iter = -1;
	out->layer = restr(t, c, a->layer);
	out->trace = restr(t, c, a->trace);
	out->mod = restr(t, c, a->mod);
	out->op = restr(t, c, a->op);
	out->marker = restr(t, c, a->marker);
	out->seq_list = a->seq_is_list ? 0 : restr(t, c, a->seq_list);
	out->altseq_list = restr(t, c, a->altseq_list);
	for (uint32_t i = 0; i < a->args_count && a->args_first + i < c->args.n; i++) {
		struct gp_arg x = c->args.v[a->args_first + i];
		x.name = restr(t, c, x.name);
		x.sval = restr(t, c, x.sval);
		*gp_vec_push(t->args) = x;
	}
	out->args_count = (uint16_t)(t->args.n - first);
	out->args_first = gp_trace_args_share(t, first, &m->args_seen);
}

/* What an attribution says but its shapes, hashed: equal for launches of
** the same op in the same place (sequence numbers aside: each capture
** numbers its own ops). */
static uint64_t attr_key_op(const struct gp_attr *a)
{
	uint64_t h = mix((uint64_t)a->op << 32 | a->mod);
	h = mix(h ^ ((uint64_t)a->layer << 32 | a->trace));
	return mix(h ^ ((uint64_t)a->marker << 32 | a->dir));
}

/* All an attribution says, shapes too (equal lists share their args). */
static uint64_t attr_key(const struct gp_attr *a)
{
	return mix(attr_key_op(a) ^ ((uint64_t)a->args_first << 16 | a->args_count));
}

/* A captured launch being collected: its call in the capture trace. */
struct launch {
	int32_t api;
	int32_t graph;          /* index into m->graphs */
	int kind;
	gp_str name;            /* in the capture trace */
	uint32_t grid[3], block[3];
	bool args_read;         /* name, grid and block come from its args */
};
typedef GP_VEC(struct launch) launch_vec;

/*
** The graphs captured in capture trace c, with their launches (in the
** capture trace's terms), appended to m->graphs; the stand-in kernels
** added to c unless c was correlated before.  A capture still open at
** the end of the trace is left out (with a warning on t).
*/
static void find_graphs(struct matcher *m, gp_trace *c, launch_vec *ls)
{
	gp_u64map open = {0}, wanted = {0}; /* thread -> its open graph; (pid, corr) -> captured kernel launch */
	GP_VEC(uint8_t) ended = {0};        /* per graph found here */
	size_t g0 = m->graphs.n, unended = 0;
	uint8_t *role = call_roles(c);

	for (size_t i = 0; role && i < c->apis.n; i++) {
		const struct gp_api *a = &c->apis.v[i];
		uint64_t thread = (uint64_t)a->pid << 32 | a->tid;
		int32_t g = gp_u64map_get(&open, thread);
		uint8_t r = role[a->def];

		if (r == CALL_BEGIN) {
			struct cgraph *x = gp_vec_push(m->graphs);
			x->next = -1;
			gp_vec_push(ended);
			gp_u64map_put(&open, thread, (int32_t)(m->graphs.n - 1));
		} else if (g >= 0 && r == CALL_END) {
			ended.v[g - (int32_t)g0] = 1;
			gp_u64map_put(&open, thread, -1);
		} else if (g >= 0 && r < NK__COUNT) {
			*gp_vec_push(*ls) = (struct launch){.api = (int32_t)i, .graph = g, .kind = r};
			if (r == NK_KERNEL)
				gp_u64map_put(&wanted, mix(a->corr) ^ a->pid, (int32_t)(ls->n - 1));
			m->graphs.v[g].n++;
		}
	}
	/* the kernel names and grids the launches' args give (ROCm), in one
	** pass over the args, looking up only the captured launches */
	for (size_t i = 0; wanted.n && i < c->launch_args.n; i++) {
		const struct gp_launch_args *la = &c->launch_args.v[i];
		int32_t x = gp_u64map_get(&wanted, mix(la->corr) ^ la->pid);
		const struct gp_api *a = x >= 0 ? &c->apis.v[ls->v[x].api] : NULL;
		if (!a || a->corr != la->corr || a->pid != la->pid || ls->v[x].args_read)
			continue;
		ls->v[x].args_read = true;   /* the first args row counts */
		ls->v[x].name = la->kernel;
		memcpy(ls->v[x].grid, la->grid, sizeof(la->grid));
		memcpy(ls->v[x].block, la->block, sizeof(la->block));
	}
	free(role);
	gp_u64map_free(&wanted);
	/* a graph whose capture never ended was cut off: left out */
	for (size_t g = g0; g < m->graphs.n; g++)
		if (!ended.v[g - g0]) {
			unended += m->graphs.v[g].n > 0;
			m->graphs.v[g].n = 0;
		}
	if (unended)
		gp_trace_warn(m->t, "%zu graph captures never ended in %s (left out)", unended,
			      c == m->t ? "the trace" : "their capture trace");
	gp_vec_free(ended);
	gp_u64map_free(&open);
}

/* Gives capture trace c a zero-length kernel for each launch of ls, unless
** it was correlated before (its stand-ins are there), and correlates it. */
static void correlate_capture(gp_trace *c, const launch_vec *ls)
{
	struct gp_correlate_opts co = {0};
	gp_error err = {0};

	if (c->attrs)
		return;
	for (size_t i = 0; i < ls->n; i++) {
		const struct launch *l = &ls->v[i];
		const struct gp_api *a = &c->apis.v[l->api];
		struct gp_kernel *k = gp_vec_push(c->kernels);
		struct gp_kernel_def d = {
			.name = l->name ? l->name : gp_api_def(c, a)->name,
			.pid = a->pid,
			.device = -1,
		};
		d.demangled = d.name;
		memcpy(d.grid, l->grid, sizeof(d.grid));
		memcpy(d.block, l->block, sizeof(d.block));
		*k = (struct gp_kernel){.start = a->start, .end = a->start, .corr = a->corr, .ext_id = a->ext_id,
					.stream = CAPTURED_STREAM, .def = gp_kernel_def_add(c, &d)};
	}
	gp_trace_finish(c);
	gp_correlate(c, &co, &err);
}

/* Places the nodes of the graphs found from g0 on (ls: their launches),
** in capture order, per graph; returns the slot of each launch (an index
** into m->nodes, -1 for a launch of an unended capture), to be freed. */
static int32_t *place_nodes(struct matcher *m, size_t g0, const launch_vec *ls)
{
	int32_t *slot = gp_xmalloc((ls->n ? ls->n : 1) * sizeof(*slot));
	uint32_t *next = gp_xcalloc(m->graphs.n - g0 + 1, sizeof(*next));
	size_t total = m->nodes.n;

	for (size_t g = g0; g < m->graphs.n; g++) {
		m->graphs.v[g].first = (uint32_t)total;
		next[g - g0] = (uint32_t)total;
		total += m->graphs.v[g].n;
	}
	gp_vec_reserve(m->nodes, total);
	m->nodes.n = total;
	for (size_t i = 0; i < ls->n; i++) {
		const struct launch *l = &ls->v[i];
		if (!m->graphs.v[l->graph].n) {
			slot[i] = -1;   /* an unended capture */
			continue;
		}
		slot[i] = (int32_t)next[l->graph - (int32_t)g0]++;
		struct node *n = &m->nodes.v[slot[i]];
		memset(n, 0, sizeof(*n));
		n->kind = (uint8_t)l->kind;
		n->call = -1;
		memcpy(n->grid, l->grid, sizeof(n->grid));
		memcpy(n->block, l->block, sizeof(n->block));
	}
	free(next);
	return slot;
}

/* Records the graphs found from g0 on in t->captured_graphs as capture
** trace ci's (-1: t's own), graph g at cg_base + g. */
static void record_graphs(struct matcher *m, size_t g0, int32_t ci)
{
	for (size_t g = g0; g < m->graphs.n; g++)
		*gp_vec_push(m->t->captured_graphs) = (struct gp_captured_graph){
			.capture = ci, .ordinal = (uint32_t)(g - g0), .launches = m->graphs.v[g].n};
}

/* Records where node i of m can be read: capture trace ci's stand-in
** kernel at, or (ci -1) t's launch call at. */
static void node_at(struct matcher *m, size_t i, int32_t ci, int32_t at)
{
	gp_trace *t = m->t;

	while (t->captured_nodes.n < m->cn_base + m->nodes.n)
		*gp_vec_push(t->captured_nodes) = (struct gp_captured_node){-1, -1};
	t->captured_nodes.v[m->cn_base + i] = (struct gp_captured_node){ci, at};
}

/* The keys of the graphs found from g0 on (their nodes complete), and
** which one each thread captured next. */
static void graph_keys(struct matcher *m, size_t g0)
{
	int32_t last = -1;

	for (size_t g = g0; g < m->graphs.n; g++) {
		struct cgraph *x = &m->graphs.v[g];
		if (!x->n)
			continue;
		x->named = x->gridded = true;
		for (uint32_t j = 0; j < x->n; j++) {
			const struct node *n = &m->nodes.v[x->first + j];
			if (n->kind == NK_KERNEL) {
				x->named &= n->name != 0;
				x->gridded &= has_dims(n->grid);
			}
			x->mset_kinds += key_kind(n->kind);
			x->mset_names += key_name(n->kind, n->name);
			x->mset_grid += key_grid(n->kind, n->name, n->grid, n->block);
			x->akey_op = mix(x->akey_op * 31 + n->akey_op);
			x->akey = mix(x->akey * 31 + n->akey);
		}
		if (last >= 0)
			m->graphs.v[last].next = (int32_t)g;
		last = (int32_t)g;
	}
}

/* Reads capture trace ci of t into m->graphs and m->nodes. */
static void read_capture(struct matcher *m, size_t ci)
{
	gp_trace *c = m->t->captures.v[ci].t;
	launch_vec ls = {0};
	gp_u64map stand_in = {0};   /* (pid, corr) -> the stand-in kernel */
	size_t g0 = m->graphs.n;
	int32_t *slot;

	find_graphs(m, c, &ls);
	record_graphs(m, g0, (int32_t)ci);
	if (!ls.n) {
		gp_vec_free(ls);
		return;
	}
	/* ls holds indices of c's calls: the trace was sorted when read, so
	** the second gp_trace_finish() moves its kernels only */
	correlate_capture(c, &ls);
	for (size_t k = 0; k < c->kernels.n; k++)
		if (c->kernels.v[k].stream == CAPTURED_STREAM)
			gp_u64map_add(&stand_in, mix(c->kernels.v[k].corr) ^ gp_kernel_pid(c, &c->kernels.v[k]),
				      (int32_t)k);
	slot = place_nodes(m, g0, &ls);
	for (size_t i = 0; i < ls.n; i++) {
		const struct launch *l = &ls.v[i];
		const struct gp_api *a = &c->apis.v[l->api];
		if (slot[i] < 0)
			continue;
		struct node *n = &m->nodes.v[slot[i]];
		int32_t k = gp_u64map_get(&stand_in, mix(a->corr) ^ a->pid);
		node_at(m, (size_t)slot[i], (int32_t)ci, k >= 0 && c->kernels.v[k].corr == a->corr ? k : -1);
		n->name = restr(m->t, c, l->name);
		if (k >= 0 && c->attrs && c->kernels.v[k].corr == a->corr)
			attr_into(m, c, &c->attrs[k], &n->attr);
		else
			attr_into(m, c, &(struct gp_attr){.seq = -1, .api = -1, .iter = -1, .fwd = -1, .range = -1},
				  &n->attr);
		n->akey_op = attr_key_op(&n->attr);
		n->akey = attr_key(&n->attr);
	}
	graph_keys(m, g0);
	free(slot);
	gp_u64map_free(&stand_in);
	gp_vec_free(ls);
}

/*
** Reads the graphs t captured itself into m->graphs and m->nodes, before
** t is correlated: each node remembers its launch call, and its keys come
** from the framework op its call's External id names (the op and its
** parent's names; its input dims for the shapes), so that graphs alike
** but for their ops or shapes are told apart as with capture traces.
*/
static void read_self(struct matcher *m)
{
	gp_trace *t = m->t;
	launch_vec ls = {0};
	gp_u64map op_of = {0};   /* External id -> its op range */
	size_t g0 = m->graphs.n;
	int32_t *slot;

	find_graphs(m, t, &ls);
	record_graphs(m, g0, -1);
	if (!ls.n) {
		gp_vec_free(ls);
		return;
	}
	for (size_t r = 0; r < t->ranges.n; r++) {
		const struct gp_range *x = &t->ranges.v[r];
		const struct gp_op_ext *e = x->flags & GP_RANGE_F_NVTX ? NULL : gp_range_op_ext(t, x);
		if (e && e->ext_id)
			gp_u64map_put(&op_of, mix(e->ext_id) ^ x->pid, (int32_t)r);
	}
	slot = place_nodes(m, g0, &ls);
	for (size_t i = 0; i < ls.n; i++) {
		const struct gp_api *a = &t->apis.v[ls.v[i].api];
		if (slot[i] < 0)
			continue;
		struct node *n = &m->nodes.v[slot[i]];
		int32_t r = a->ext_id ? gp_u64map_get(&op_of, mix(a->ext_id) ^ a->pid) : -1;
		node_at(m, (size_t)slot[i], -1, ls.v[i].api);
		n->name = ls.v[i].name;
		n->call = ls.v[i].api;
		if (r >= 0) {
			const struct gp_range *op = &t->ranges.v[r];
			gp_str parent = op->parent >= 0 ? t->ranges.v[op->parent].text : 0;
			n->akey_op = mix((uint64_t)op->text << 32 | parent);
			n->akey = mix(n->akey_op ^ gp_range_op_ext(t, op)->input_dims);
			n->attr.marker = op->text;   /* the op of a replayed copy (kernels take the call) */
		}
	}
	graph_keys(m, g0);
	free(slot);
	gp_u64map_free(&op_of);
	gp_vec_free(ls);
}

/* ---- 2. replays ---- */

static int cmp_item(const void *pa, const void *pb)
{
	const struct item *a = pa, *b = pb;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* The call of copy or memset (corr, pid) when it is a graph launch; -1. */
static int32_t copy_call(const gp_trace *t, const gp_call_index *ix, const uint8_t *is_launch, uint64_t corr,
			 uint32_t pid)
{
	int32_t c = gp_call_find(ix, corr, pid);
	return c >= 0 && is_launch[c] ? c : -1;
}

/*
** The replays of t: every graph launch call with the kernels (still
** GP_GRAPH_NO_CAPTURE), copies and memsets hanging on it, in start order;
** units in call order (the calls are sorted by start).  Replayed kernels
** whose launch is not in the trace cannot be matched: GP_GRAPH_NO_MATCH.
*/
static void find_replays(struct matcher *m)
{
	gp_trace *t = m->t;
	uint8_t *is_launch = gp_xcalloc(t->apis.n ? t->apis.n : 1, 1);
	uint32_t *count = gp_xcalloc(t->apis.n + 1, sizeof(*count));
	int32_t *call_of_copy = NULL, *call_of_set = NULL;
	gp_call_index ix;
	gp_u64map last = {0};

	for (size_t i = 0; i < t->apis.n; i++)
		is_launch[i] = gp_graph_launch_name(gp_s(t, gp_api_def(t, &t->apis.v[i])->name));
	for (size_t k = 0; k < t->kernels.n; k++) {
		struct gp_attr *a = &t->attrs[k];
		if (a->graph != GP_GRAPH_NO_CAPTURE)
			continue;
		if (a->api >= 0 && is_launch[a->api])
			count[a->api]++;
		else
			a->graph = GP_GRAPH_NO_MATCH;
	}
	gp_call_index_build(&ix, t);
	call_of_copy = gp_xmalloc((t->memcpys.n ? t->memcpys.n : 1) * sizeof(*call_of_copy));
	call_of_set = gp_xmalloc((t->memsets.n ? t->memsets.n : 1) * sizeof(*call_of_set));
	for (size_t i = 0; i < t->memcpys.n; i++)
		if ((call_of_copy[i] = copy_call(t, &ix, is_launch, t->memcpys.v[i].corr, t->memcpys.v[i].pid)) >= 0)
			count[call_of_copy[i]]++;
	for (size_t i = 0; i < t->memsets.n; i++)
		if ((call_of_set[i] = copy_call(t, &ix, is_launch, t->memsets.v[i].corr, t->memsets.v[i].pid)) >= 0)
			count[call_of_set[i]]++;
	gp_call_index_free(&ix);

	/* one unit per call with work, items placed by a counting sort */
	uint32_t *at = gp_xmalloc((t->apis.n + 1) * sizeof(*at));
	size_t total = 0;
	for (size_t i = 0; i < t->apis.n; i++) {
		at[i] = (uint32_t)total;
		if (count[i]) {
			*gp_vec_push(m->units) = (struct unit){.call = (int32_t)i, .first = (uint32_t)total,
							       .n = count[i], .next = -1};
		}
		total += count[i];
	}
	m->items.n = total;
	m->items.cap = total ? total : 1;
	m->items.v = gp_xmalloc(m->items.cap * sizeof(*m->items.v));
	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_attr *a = &t->attrs[k];
		if (a->graph != GP_GRAPH_NO_CAPTURE)
			continue;
		const struct gp_kernel *kr = &t->kernels.v[k];
		const struct gp_kernel_def *d = gp_kernel_def(t, kr);
		struct item *it = &m->items.v[at[a->api]++];
		*it = (struct item){.start = kr->start, .idx = (uint32_t)k, .stream = kr->stream, .kind = NK_KERNEL,
				    .name = d->mangled ? d->mangled : d->demangled};
		memcpy(it->grid, d->grid, sizeof(it->grid));
		memcpy(it->block, d->block, sizeof(it->block));
	}
	for (size_t i = 0; i < t->memcpys.n; i++)
		if (call_of_copy[i] >= 0)
			m->items.v[at[call_of_copy[i]]++] = (struct item){
				.start = t->memcpys.v[i].start, .idx = (uint32_t)i, .stream = t->memcpys.v[i].stream,
				.kind = NK_COPY};
	for (size_t i = 0; i < t->memsets.n; i++)
		if (call_of_set[i] >= 0)
			m->items.v[at[call_of_set[i]]++] = (struct item){
				.start = t->memsets.v[i].start, .idx = (uint32_t)i, .stream = t->memsets.v[i].stream,
				.kind = NK_SET};

	for (size_t u = 0; u < m->units.n; u++) {
		struct unit *x = &m->units.v[u];
		const struct gp_api *call = &t->apis.v[x->call];
		struct item *v = m->items.v + x->first;
		qsort(v, x->n, sizeof(*v), cmp_item);
		x->gridded = true;
		for (uint32_t i = 0; i < x->n; i++) {
			if (v[i].kind == NK_KERNEL)
				x->gridded &= has_dims(v[i].grid);
			x->mset_kinds += key_kind(v[i].kind);
			x->mset_names += key_name(v[i].kind, v[i].name);
			x->mset_grid += key_grid(v[i].kind, v[i].name, v[i].grid, v[i].block);
			x->seq = mix(x->seq * 31 + (key_name(v[i].kind, v[i].name) ^ mix(v[i].stream)));
			x->streams |= v[i].stream != v[0].stream;
		}
		/* the thread's units in order, for the successor rule's look-ahead */
		uint64_t thread = (uint64_t)call->pid << 32 | call->tid;
		int32_t prev = gp_u64map_get(&last, thread);
		if (prev >= 0)
			m->units.v[prev].next = (int32_t)u;
		gp_u64map_put(&last, thread, (int32_t)u);
	}
	gp_u64map_free(&last);
	free(at);
	free(count);
	free(is_launch);
	free(call_of_copy);
	free(call_of_set);
}

/* ---- 3. which captured graph ---- */

/* How many of unit u's items graph g holds in order (each item takes the
** next launch of its kind and name, skipping others). */
static uint32_t in_order(const struct matcher *m, const struct unit *u, const struct cgraph *g)
{
	uint32_t j = 0, found = 0;

	for (uint32_t i = 0; i < u->n; i++) {
		const struct item *it = &m->items.v[u->first + i];
		for (uint32_t s = j; s < g->n; s++) {
			const struct node *n = &m->nodes.v[g->first + s];
			if (n->kind == it->kind && n->name == it->name) {
				found++;
				j = s + 1;
				break;
			}
		}
	}
	return found;
}

/* The candidate graphs of unit u (memoized by its signature). */
static int32_t candidates(struct matcher *m, const struct unit *u)
{
	uint64_t sig = mix(u->mset_grid ^ mix(u->mset_names + u->n)) ^ (u->gridded ? 1 : 0);
	int32_t c = gp_u64map_get(&m->cand_at, sig);
	uint32_t first = (uint32_t)m->pool.n, best = 0;
	uint8_t rule = RULE_NONE;

	if (c >= 0)
		return c;
	for (uint8_t r = RULE_EXACT; r <= RULE_COUNT && first == m->pool.n; r++)
		for (size_t g = 0; g < m->graphs.n; g++) {
			const struct cgraph *x = &m->graphs.v[g];
			bool fits = x->n == u->n &&
				    (r == RULE_EXACT ? x->named && x->gridded && u->gridded && x->mset_grid == u->mset_grid
				     : r == RULE_NAMES ? x->named && x->mset_names == u->mset_names
				     : !x->named && x->mset_kinds == u->mset_kinds);
			if (fits) {
				*gp_vec_push(m->pool) = (int32_t)g;
				rule = r;
			}
		}
	/* a capture with launches the replay lacks, or only part of it */
	if (rule == RULE_NONE) {
		for (size_t g = 0; g < m->graphs.n; g++) {
			const struct cgraph *x = &m->graphs.v[g];
			if (!x->named || !x->n)
				continue;
			uint32_t f = in_order(m, u, x);
			if (f > best) {
				best = f;
				m->pool.n = first;
			}
			if (f && f == best)
				*gp_vec_push(m->pool) = (int32_t)g;
		}
		rule = !best ? RULE_NONE : best == u->n ? RULE_CONTAINS
		     : (double)best >= PARTIAL_MIN * u->n ? RULE_PARTIAL : RULE_NONE;
		if (rule == RULE_NONE)
			m->pool.n = first;
	}
	*gp_vec_push(m->cands) = (struct cand){first, (uint32_t)(m->pool.n - first), rule};
	c = (int32_t)m->cands.n - 1;
	gp_u64map_put(&m->cand_at, sig, c);
	for (size_t i = first; i < m->pool.n; i++)
		gp_u64map_put(&m->member, (uint64_t)c << 32 | (uint32_t)m->pool.v[i], 1);
	return c;
}

static bool is_candidate(const struct matcher *m, int32_t c, int32_t g)
{
	return gp_u64map_get(&m->member, (uint64_t)c << 32 | (uint32_t)g) > 0;
}

/* How a replay's graph was chosen. */
enum pick { PICK_NONE, PICK_EXACT, PICK_OPS, PICK_AMBIGUOUS };

/*
** The graph of unit u among its candidates, or -1; *how says how sure:
** PICK_EXACT, PICK_OPS (the candidates that fit differ in shapes only:
** several batch sizes, the kernels alike), PICK_AMBIGUOUS, PICK_NONE.
** prev: the graph the same thread replayed last (-1), prev_exact whether
** it was PICK_EXACT.
**
** When candidates differ in their ops, order decides: the graph captured
** after prev (piecewise graphs replay in capture order), else the one
** whose successors alone keep fitting the replays that follow.  Order
** carries shapes only from an exact start: after a PICK_OPS replay the
** chain may be any batch size's.
*/
static int32_t choose(struct matcher *m, size_t u, int32_t prev, bool prev_exact, enum pick *how)
{
	const struct cand *c = &m->cands.v[m->unit_cand[u]];
	bool ops_alike = true, via_prev = false;
	int32_t g = -1;

	*how = PICK_NONE;
	if (!c->n)
		return -1;   /* (the pool may still be empty) */
	const int32_t *v = m->pool.v + c->first;
	int32_t *alive = gp_xmalloc(c->n * sizeof(*alive));
	int32_t *at = gp_xmalloc(c->n * sizeof(*at));
	uint32_t na = c->n;

	memcpy(alive, v, c->n * sizeof(*alive));
	for (uint32_t i = 1; i < na; i++)
		ops_alike &= m->graphs.v[alive[i]].akey_op == m->graphs.v[alive[0]].akey_op;
	if (na > 1 && !ops_alike) {
		int32_t succ = prev >= 0 ? m->graphs.v[prev].next : -1;
		if (succ >= 0 && is_candidate(m, m->unit_cand[u], succ)) {
			alive[0] = succ;
			na = 1;
			via_prev = true;
		}
		/* look ahead while several are left, never to none */
		memcpy(at, alive, na * sizeof(*at));
		int depth = 0;
		for (int32_t w = m->units.v[u].next; w >= 0 && na > 1 && depth++ < LOOKAHEAD_MAX;
		     w = m->units.v[w].next) {
			uint32_t keep = 0;
			for (uint32_t i = 0; i < na; i++) {
				int32_t nx = m->graphs.v[at[i]].next;
				if (nx >= 0 && is_candidate(m, m->unit_cand[w], nx))
					keep++;
			}
			if (!keep)
				break;
			keep = 0;
			for (uint32_t i = 0; i < na; i++) {
				int32_t nx = m->graphs.v[at[i]].next;
				if (nx >= 0 && is_candidate(m, m->unit_cand[w], nx)) {
					alive[keep] = alive[i];
					at[keep++] = nx;
				}
			}
			na = keep;
		}
	}
	/* na >= 1: the look-ahead never leaves none */
	bool alike = true, shapes_open = false;
	for (uint32_t i = 1; i < na; i++)
		alike &= m->graphs.v[alive[i]].akey_op == m->graphs.v[alive[0]].akey_op;
	g = alive[0];
	/* shapes are open when a candidate with g's ops has other shapes */
	for (uint32_t i = 0; i < c->n && alike; i++)
		shapes_open |= m->graphs.v[v[i]].akey_op == m->graphs.v[g].akey_op &&
			       m->graphs.v[v[i]].akey != m->graphs.v[g].akey;
	*how = !alike ? PICK_AMBIGUOUS : shapes_open && !(via_prev && prev_exact) ? PICK_OPS : PICK_EXACT;
	if (!alike)
		g = -1;
	free(alive);
	free(at);
	return g;
}

/* ---- 4. which launch ---- */

/*
** The launch map of unit u in graph g: maps[first + i] is item i's node
** offset in g or -1, amb[first + i] 1 when that match is ambiguous.
** Computed once per (graph, replay signature).
*/
static uint32_t launch_map(struct matcher *m, const struct unit *u, int32_t gi)
{
	const struct cgraph *g = &m->graphs.v[gi];
	uint64_t key = mix(u->seq ^ mix((uint64_t)gi + 1)) ^ u->n;
	int32_t have = gp_u64map_get(&m->map_at, key);
	const struct item *v = m->items.v + u->first;
	const struct node *nd = m->nodes.v + g->first;
	uint32_t first = (uint32_t)m->maps.n;
	bool same = g->n == u->n;

	if (have >= 0)
		return (uint32_t)have;
	for (uint32_t i = 0; i < u->n; i++) {
		*gp_vec_push(m->maps) = -1;
		*gp_vec_push(m->amb) = 0;
	}
	int32_t *map = m->maps.v + first;
	uint8_t *amb = m->amb.v + first;

	/* the same order (without names, on one stream only: streams may run
	** in any order, and nothing else tells their work apart) */
	for (uint32_t i = 0; i < u->n && same; i++)
		same = nd[i].kind == v[i].kind && (!g->named || nd[i].name == v[i].name);
	if (!g->named && u->streams) {
		for (uint32_t i = 0; i < u->n; i++)
			amb[i] = 1;
	} else if (same) {
		for (uint32_t i = 0; i < u->n; i++)
			map[i] = (int32_t)i;
	} else if (!g->named) {
		/* by position within each kind: the capture names no kernel */
		uint32_t next[NK__COUNT] = {0};
		for (uint32_t i = 0; i < u->n; i++) {
			uint32_t *j = &next[v[i].kind];
			while (*j < g->n && nd[*j].kind != v[i].kind)
				(*j)++;
			if (*j < g->n)
				map[i] = (int32_t)(*j)++;
		}
	} else if (g->n == u->n && g->mset_names == u->mset_names) {
		/* several streams: merge the capture order with each stream's */
		GP_VEC(uint32_t) streams = {0};
		uint32_t *head;
		uint8_t *contested = gp_xcalloc(g->n, 1);
		for (uint32_t i = 0; i < u->n; i++) {
			bool seen = false;
			for (size_t s = 0; s < streams.n && !seen; s++)
				seen = streams.v[s] == v[i].stream;
			if (!seen)
				*gp_vec_push(streams) = v[i].stream;
		}
		head = gp_xcalloc(streams.n, sizeof(*head));
		for (uint32_t j = 0; j < g->n; j++) {
			int32_t pick = -1, ties = 0;
			for (size_t s = 0; s < streams.n; s++) {
				while (head[s] < u->n && (v[head[s]].stream != streams.v[s] || map[head[s]] >= 0))
					head[s]++;
				if (head[s] < u->n && v[head[s]].kind == nd[j].kind && v[head[s]].name == nd[j].name) {
					ties++;
					if (pick < 0 || head[s] < (uint32_t)pick)
						pick = (int32_t)head[s];
				}
			}
			if (pick < 0)
				continue;
			map[pick] = (int32_t)j;
			amb[pick] = contested[j];
			if (ties > 1)
				for (uint32_t j2 = j + 1; j2 < g->n; j2++)
					if (nd[j2].kind == nd[j].kind && nd[j2].name == nd[j].name) {
						if (nd[j2].akey != nd[j].akey) {
							amb[pick] = 1;
							contested[j2] = 1;
						}
						break;
					}
		}
		free(head);
		free(contested);
		gp_vec_free(streams);
	} else {
		/* in order, skipping launches the replay lacks */
		uint32_t j = 0;
		for (uint32_t i = 0; i < u->n; i++)
			for (uint32_t s = j; s < g->n; s++)
				if (nd[s].kind == v[i].kind && nd[s].name == v[i].name) {
					map[i] = (int32_t)s;
					j = s + 1;
					break;
				}
	}
	gp_u64map_put(&m->map_at, key, (int32_t)first);
	return first;
}

/* Kernel k takes node n's attribution (without its shapes when
** ops_only), keeping its launch, iteration and launch-side range. */
static void take(gp_trace *t, size_t k, const struct node *n, bool ops_only)
{
	struct gp_attr *a = &t->attrs[k], keep = *a;

	*a = n->attr;
	a->api = keep.api;
	a->iter = keep.iter;
	a->range = keep.range;
	a->fwd = -1;
	a->graph = ops_only ? GP_GRAPH_CAPTURED_OPS : GP_GRAPH_CAPTURED;
	if (ops_only)
		a->args_count = 0;
}

/* Kernel k matched node n: takes its attribution (a capture trace's) or
** its call (t's own capture, correlated later); t->replay_node says
** which. */
static void matched(struct matcher *m, size_t k, const struct node *n, bool ops_only)
{
	gp_trace *t = m->t;

	if (!t->replay_node) {
		t->replay_node = gp_xmalloc((t->kernels.n ? t->kernels.n : 1) * sizeof(*t->replay_node));
		for (size_t i = 0; i < t->kernels.n; i++)
			t->replay_node[i] = -1;
	}
	t->replay_node[k] = (int32_t)(m->cn_base + (size_t)(n - m->nodes.v));
	if (m->call_of) {
		m->call_of[k] = n->call;
		m->t->attrs[k].graph = ops_only ? GP_GRAPH_CAPTURED_OPS : GP_GRAPH_CAPTURED;
	} else {
		take(m->t, k, n, ops_only);
	}
}

/* Replayed copy or memset it matched node n: it takes the op of n's
** captured launch (the raw op where it names one). */
static void copy_matched(struct matcher *m, const struct item *it, const struct node *n)
{
	gp_str op = n->attr.marker ? n->attr.marker : n->attr.op;

	if (it->kind == NK_COPY)
		m->t->memcpys.v[it->idx].graph_op = op;
	else
		m->t->memsets.v[it->idx].graph_op = op;
}

/* Kernel k's replay matched graph g of m (exactly: not one of several
** alike but for shapes, which would be a guess among batch sizes):
** t->replay_graph says so. */
static void replayed_in(struct matcher *m, size_t k, int32_t g)
{
	gp_trace *t = m->t;

	if (!t->replay_graph) {
		t->replay_graph = gp_xmalloc((t->kernels.n ? t->kernels.n : 1) * sizeof(*t->replay_graph));
		for (size_t i = 0; i < t->kernels.n; i++)
			t->replay_graph[i] = -1;
	}
	t->replay_graph[k] = (int32_t)(m->cg_base + (size_t)g);
}

/* Matches every replay of t to the graphs read into m (3. and 4.), and
** frees m. */
static void match_replays(struct matcher *m)
{
	gp_trace *t = m->t;
	gp_u64map prev = {0};   /* thread -> the graph it replayed last */

	find_replays(m);
	if (!m->graphs.n) {
		for (size_t i = 0; i < m->items.n; i++)
			if (m->items.v[i].kind == NK_KERNEL)
				t->attrs[m->items.v[i].idx].graph = GP_GRAPH_NO_MATCH;
	}
	m->unit_cand = gp_xmalloc((m->units.n ? m->units.n : 1) * sizeof(*m->unit_cand));
	for (size_t u = 0; u < m->units.n && m->graphs.n; u++)
		m->unit_cand[u] = candidates(m, &m->units.v[u]);
	for (size_t u = 0; u < m->units.n && m->graphs.n; u++) {
		const struct unit *x = &m->units.v[u];
		const struct gp_api *call = &t->apis.v[x->call];
		uint64_t thread = (uint64_t)call->pid << 32 | call->tid;
		int32_t p = gp_u64map_get(&prev, thread);
		enum pick how;
		/* prev holds 2 * graph + exact, -1 */
		int32_t g = choose(m, u, p >= 0 ? p / 2 : -1, p >= 0 && (p & 1), &how);
		const struct item *v = m->items.v + x->first;

		gp_u64map_put(&prev, thread, g >= 0 ? 2 * g + (how == PICK_EXACT) : -1);
		if (g < 0) {
			for (uint32_t i = 0; i < x->n; i++)
				if (v[i].kind == NK_KERNEL)
					t->attrs[v[i].idx].graph = how == PICK_AMBIGUOUS ? GP_GRAPH_AMBIGUOUS
								   : GP_GRAPH_NO_MATCH;
			continue;
		}
		uint32_t first = launch_map(m, x, g);
		for (uint32_t i = 0; i < x->n; i++) {
			int32_t j = m->maps.v[first + i];
			if (v[i].kind != NK_KERNEL) {
				if (j >= 0 && !m->amb.v[first + i])
					copy_matched(m, &v[i], &m->nodes.v[m->graphs.v[g].first + (uint32_t)j]);
				continue;
			}
			if (how == PICK_EXACT)
				replayed_in(m, v[i].idx, g);
			if (m->amb.v[first + i])
				t->attrs[v[i].idx].graph = GP_GRAPH_AMBIGUOUS;
			else if (j < 0)
				t->attrs[v[i].idx].graph = GP_GRAPH_NOT_CAPTURED;
			else
				matched(m, v[i].idx, &m->nodes.v[m->graphs.v[g].first + (uint32_t)j], how == PICK_OPS);
		}
	}
	gp_u64map_free(&prev);
	gp_u64map_free(&m->args_seen);
	gp_u64map_free(&m->cand_at);
	gp_u64map_free(&m->member);
	gp_u64map_free(&m->map_at);
	free(m->unit_cand);
	gp_vec_free(m->nodes);
	gp_vec_free(m->graphs);
	gp_vec_free(m->items);
	gp_vec_free(m->units);
	gp_vec_free(m->pool);
	gp_vec_free(m->cands);
	gp_vec_free(m->maps);
	gp_vec_free(m->amb);
}

void gp_graph_match_captures(gp_trace *t)
{
	struct matcher m = {.t = t, .cg_base = t->captured_graphs.n, .cn_base = t->captured_nodes.n};

	for (size_t i = 0; i < t->captures.n; i++)
		read_capture(&m, i);
	match_replays(&m);
}

void gp_graph_match_self(gp_trace *t, int32_t *call_of)
{
	struct matcher m = {.t = t, .call_of = call_of, .cg_base = t->captured_graphs.n,
			    .cn_base = t->captured_nodes.n};

	for (size_t k = 0; k < t->kernels.n; k++)
		call_of[k] = -1;
	read_self(&m);
	if (!m.graphs.n) {
		gp_vec_free(m.graphs);
		return;   /* captures without launches: nothing to match */
	}
	match_replays(&m);
}
