/*
** Collectives: per rank extraction, cross-rank matching, clock alignment,
** skew/communication split and nccl-tests bandwidths.  See collectives.h
** and docs/comm.md.
*/
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/collectives.h"
#include "model/classify.h"
#include "util/alloc.h"
#include "util/stats.h"
#include "util/u64map.h"

static const char *const kind_names[GP_COLL__COUNT] = {
	"all_reduce", "all_gather", "reduce_scatter", "broadcast", "reduce", "all_to_all",
	"send_recv", "barrier", "other",
};

const char *gp_coll_kind_name(int kind)
{
	return kind >= 0 && kind < GP_COLL__COUNT ? kind_names[kind] : "other";
}

enum gp_coll_kind gp_coll_kind_parse(const char *name)
{
	/* folded: lower case without '_' and ':', so that "AllReduce",
	** "all_reduce" and "allreduce_" read alike; the longer names first
	** ("reducescatter" and "allreduce" contain "reduce").  Kernels that
	** name no collective word: vLLM's and SGLang's custom all-reduce
	** (cross_device_reduce_1stage) and DeepEP's expert-parallel
	** all-to-all (dispatch, combine and their notify steps) */
	static const struct {
		const char *s;
		enum gp_coll_kind kind;
	} words[] = {
		{"reducescatter", GP_COLL_REDUCE_SCATTER}, {"allreduce", GP_COLL_ALL_REDUCE},
		{"crossdevicereduce", GP_COLL_ALL_REDUCE}, {"dispatch", GP_COLL_ALL_TO_ALL},
		{"combine", GP_COLL_ALL_TO_ALL},
		{"allgather", GP_COLL_ALL_GATHER}, {"alltoall", GP_COLL_ALL_TO_ALL},
		{"broadcast", GP_COLL_BROADCAST}, {"sendrecv", GP_COLL_SEND_RECV},
		{"barrier", GP_COLL_BARRIER}, {"reduce", GP_COLL_REDUCE}, {"send", GP_COLL_SEND_RECV},
		{"recv", GP_COLL_SEND_RECV},
	};
	char folded[128];
	size_t n = 0;

	for (; name && *name && n < sizeof(folded) - 1; name++)
		if (*name != '_' && *name != ':')
			folded[n++] = (char)tolower((unsigned char)*name);
	folded[n] = '\0';
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strstr(folded, words[i].s))
			return words[i].kind;
	return GP_COLL_OTHER;
}

double gp_coll_busbw_factor(enum gp_coll_kind kind, int n)
{
	if (n < 1)
		return 0;
	switch (kind) {
	case GP_COLL_ALL_REDUCE:
		return 2.0 * (n - 1) / n;
	case GP_COLL_ALL_GATHER: case GP_COLL_REDUCE_SCATTER: case GP_COLL_ALL_TO_ALL:
		return (double)(n - 1) / n;
	case GP_COLL_BROADCAST: case GP_COLL_REDUCE: case GP_COLL_SEND_RECV:
		return 1;
	default:
		return 0;
	}
}

/* The element count of the first tensor of Kineto's Input Dims text
** ("[[2, 1024, 34820], []]"): the product of its dims; -1 when it has
** none. */
static int64_t first_tensor_nelems(const char *dims)
{
	const char *p = dims ? strchr(dims, '[') : NULL;
	int64_t n = 1;
	bool any = false;

	if (!p || !(p = strchr(p + 1, '[')))
		return -1;
	for (p++; *p && *p != ']';) {
		char *end;
		long long v = strtoll(p, &end, 10);
		if (end == p) {
			p++;
			continue;
		}
		if (v < 0 || (v && n > INT64_MAX / v))
			return -1;
		n *= v;
		any = true;
		p = end;
	}
	return any ? n : -1;
}

/* The dtype of the first entry of Kineto's Input type text ("[\"float\"]"). */
static enum gp_dtype first_type(const char *types)
{
	const char *p = types ? strchr(types, '"') : NULL;
	const char *e = p ? strchr(p + 1, '"') : NULL;
	char buf[48];

	if (!e || (size_t)(e - p - 1) >= sizeof(buf))
		return GP_DT_UNKNOWN;
	memcpy(buf, p + 1, (size_t)(e - p - 1));
	buf[e - p - 1] = '\0';
	return gp_dtype_parse(buf);
}

/* Index of group name s in r->groups, added when new. */
static uint32_t group_index(struct gp_coll_rank *r, const char *s)
{
	for (size_t i = 0; i < r->ngroups; i++)
		if (strcmp(r->groups[i], s) == 0)
			return (uint32_t)i;
	r->groups = gp_xrealloc(r->groups, (r->ngroups + 1) * sizeof(*r->groups));
	r->groups[r->ngroups] = gp_xstrdup(s);
	return (uint32_t)r->ngroups++;
}

/* nccl-tests' size of a call: the total buffer (all_gather: the output,
** reduce_scatter: the input, others: the input), from element counts
** (-1 = unknown) and n, the group's size (-1 = unknown). */
static uint64_t call_bytes(enum gp_coll_kind kind, int64_t in, int64_t out, int n, enum gp_dtype dt)
{
	int64_t size = gp_dtype_size(dt), elems = -1;

	if (kind == GP_COLL_ALL_GATHER)
		elems = out >= 0 ? out : in >= 0 && n > 0 ? in * n : -1;
	else
		elems = in >= 0 ? in : out;
	return elems > 0 && size > 0 ? (uint64_t)elems * (uint64_t)size : 0;
}

/* What the ranges around the launch of kernel k say about its call: the
** innermost nccl:* annotation (its Input Dims/type), a c10d:: op, and the
** args of a record_param_comms (by External id in op_args). */
struct call_context {
	const char *annot, *op;
	const struct gp_op_ext *annot_ext;
	const struct gp_coll_args *args;
};

static void call_context(const gp_trace *t, size_t k, const gp_u64map *op_args, struct call_context *c)
{
	int32_t r = t->attrs[k].range;

	memset(c, 0, sizeof(*c));
	for (int depth = 0; r >= 0 && depth < 64; depth++, r = t->ranges.v[r].parent) {
		const struct gp_range *g = &t->ranges.v[r];
		const char *text = gp_s(t, g->text);
		const struct gp_op_ext *x = gp_range_op_ext(t, g);
		if (!c->args && x && x->ext_id) {
			int32_t a = gp_u64map_get(op_args, x->ext_id);
			if (a >= 0)
				c->args = &t->coll_args.v[a];
		}
		if (!c->annot && strncmp(text, "nccl:", 5) == 0) {
			c->annot = text;
			c->annot_ext = x;
		}
		if (!c->op && strncmp(text, "c10d::", 6) == 0)
			c->op = text;
	}
}

int gp_coll_extract(const gp_trace *t, const struct gp_coll_opts *o, struct gp_coll_rank *out,
		    gp_error *err)
{
	gp_u64map kernel_args = {0}, op_args = {0};
	size_t cap = 0;
	const char *s;
	int64_t *position;

	memset(out, 0, sizeof(*out));
	if (!t->attrs)
		return gp_err(err, GP_ERR_INTERNAL, "%s: collectives: the trace is not correlated", gp_s(t, t->path));
	out->path = gp_xstrdup(gp_s(t, t->path));
	out->rank = (s = gp_trace_meta_get(t, "rank")) ? atoi(s) : o->default_rank;
	out->world_size = (s = gp_trace_meta_get(t, "world_size")) && atoi(s) > 0 ? atoi(s) : -1;
	for (size_t i = 0; i < t->coll_args.n; i++)
		gp_u64map_add(t->coll_args.v[i].on_kernel ? &kernel_args : &op_args, t->coll_args.v[i].id,
			      (int32_t)i);
	group_index(out, "");

	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_kernel *kn = &t->kernels.v[k];
		const char *name = gp_s(t, gp_kernel_def(t, kn)->name);
		const struct gp_coll_args *a;
		struct call_context cx;
		enum gp_coll_kind kind = GP_COLL_OTHER;
		int64_t in = -1, out_n = -1;
		int32_t ai;

		if (!gp_kernel_is_comm(t, kn))
			continue;
		call_context(t, k, &op_args, &cx);
		ai = gp_u64map_get(&kernel_args, kn->corr);
		a = ai >= 0 ? &t->coll_args.v[ai] : cx.args;
		if (out->n == cap) {
			cap = cap ? cap * 2 : 64;
			out->v = gp_xrealloc(out->v, cap * sizeof(*out->v));
		}
		struct gp_coll *c = &out->v[out->n++];
		memset(c, 0, sizeof(*c));
		c->start = kn->start;
		c->end = kn->end;
		c->launch = t->attrs[k].api >= 0 ? t->apis.v[t->attrs[k].api].start : -1;
		c->stream = kn->stream;
		c->device = gp_kernel_device(t, kn);
		c->iter = t->attrs[k].iter;
		c->group_size = a && a->group_size > 0 ? a->group_size : -1;
		c->seq = a && a->seq >= 0 ? a->seq : -1;
		c->seq_stated = c->seq >= 0;
		if (a && a->name)
			kind = gp_coll_kind_parse(gp_s(t, a->name));
		if (kind == GP_COLL_OTHER && cx.annot)
			kind = gp_coll_kind_parse(cx.annot);
		if (kind == GP_COLL_OTHER && cx.op)
			kind = gp_coll_kind_parse(cx.op);
		if (kind == GP_COLL_OTHER)
			kind = gp_coll_kind_parse(name);
		c->kind = (uint8_t)kind;
		c->group = group_index(out, a && a->group ? gp_s(t, a->group) : "");
		if (a && (a->in_nelems >= 0 || a->out_nelems >= 0) && a->dtype) {
			in = a->in_nelems, out_n = a->out_nelems;
			c->dtype = a->dtype;
		} else if (cx.annot_ext) {
			in = first_tensor_nelems(gp_s(t, cx.annot_ext->input_dims));
			c->dtype = (uint8_t)first_type(gp_s(t, cx.annot_ext->input_types));
		}
		/* a group the trace does not name is taken as the default one */
		c->bytes = call_bytes(kind, in, out_n, c->group_size > 0 ? c->group_size : out->world_size,
				      c->dtype);
	}
	gp_u64map_free(&kernel_args);
	gp_u64map_free(&op_args);

	/* position per (group, kind) where the trace numbers nothing */
	position = gp_xcalloc(out->ngroups * GP_COLL__COUNT, sizeof(*position));
	for (size_t i = 0; i < out->n; i++) {
		struct gp_coll *c = &out->v[i];
		int64_t *p = &position[c->group * GP_COLL__COUNT + c->kind];
		if (!c->seq_stated)
			c->seq = *p;
		(*p)++;
	}
	free(position);
	return GP_OK;
}

void gp_coll_rank_free(struct gp_coll_rank *r)
{
	free(r->path);
	free(r->v);
	for (size_t i = 0; i < r->ngroups; i++)
		free(r->groups[i]);
	free(r->groups);
	memset(r, 0, sizeof(*r));
}

/* ---- matching ---- */

/* One call of one rank, to sort all ranks' calls by their key. */
struct entry {
	uint32_t group;         /* global group index */
	uint8_t kind;
	int64_t seq;
	uint32_t rank, idx;
};

static int entry_cmp(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;

	if (a->group != b->group)
		return a->group < b->group ? -1 : 1;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (a->seq != b->seq)
		return a->seq < b->seq ? -1 : 1;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* Sorting calls: complete ones first, then by the start of their first
** present rank's kernel (ranks[0]'s clock for complete calls). */
struct call_sort_ctx {
	const struct gp_coll_rank *ranks;
	const int32_t *slots;
	size_t nranks;
};

static gp_ns call_start(const struct call_sort_ctx *x, const struct gp_coll_call *c)
{
	for (size_t r = 0; r < x->nranks; r++) {
		int32_t i = x->slots[c->first + r];
		if (i >= 0)
			return x->ranks[r].v[i].start;
	}
	return 0;
}

static int call_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct call_sort_ctx *x = ctx;
	const struct gp_coll_call *a = pa, *b = pb;
	bool ca = a->present == x->nranks, cb = b->present == x->nranks;
	gp_ns sa, sb;

	if (ca != cb)
		return ca ? -1 : 1;
	sa = call_start(x, a), sb = call_start(x, b);
	if (sa != sb)
		return sa < sb ? -1 : 1;
	return a->first < b->first ? -1 : a->first > b->first;
}

/* Global group index of name in m->groups, added when new. */
static uint32_t global_group(struct gp_coll_match *m, const char *name)
{
	for (size_t i = 0; i < m->ngroups; i++)
		if (strcmp(m->groups[i], name) == 0)
			return (uint32_t)i;
	m->groups = gp_xrealloc(m->groups, (m->ngroups + 1) * sizeof(*m->groups));
	m->groups[m->ngroups] = gp_xstrdup(name);
	return (uint32_t)m->ngroups++;
}

/* Each rank's clock offset to ranks[0]: the median of (end on ranks[0] -
** end on it) over the calls both have.  A collective ends at about the
** same instant on every rank (the last data arrives everywhere at once),
** while its start depends on when each rank got there. */
static void align_clocks(const struct gp_coll_rank *ranks, struct gp_coll_match *m)
{
	int64_t *diff = gp_xmalloc((m->ncalls ? m->ncalls : 1) * sizeof(*diff));

	m->ranks[0].aligned = true;
	for (size_t r = 1; r < m->nranks; r++) {
		size_t n = 0;
		struct gp_stats st;
		for (size_t c = 0; c < m->ncalls; c++) {
			int32_t i0 = m->slots[m->calls[c].first], ir = m->slots[m->calls[c].first + r];
			if (i0 >= 0 && ir >= 0)
				diff[n++] = ranks[0].v[i0].end - ranks[r].v[ir].end;
		}
		if (!n)
			continue;
		gp_stats_compute(diff, n, &st);
		m->ranks[r].offset = (gp_ns)llround(st.med);
		m->ranks[r].aligned = true;
	}
	free(diff);
}

/* The waits, skew, communication time and bandwidths of complete call c. */
static void settle_call(const struct gp_coll_rank *ranks, struct gp_coll_match *m, struct gp_coll_call *c)
{
	const struct gp_coll *first = NULL;
	gp_ns last = 0, earliest = 0, kernel_sum = 0;
	int last_rank = -1;

	for (size_t r = 0; r < m->nranks; r++) {
		const struct gp_coll *x = &ranks[r].v[m->slots[c->first + r]];
		gp_ns arrival = x->start + m->ranks[r].offset;
		if (!first)
			first = x;
		if (last_rank < 0 || arrival > last)
			last = arrival, last_rank = (int)r;
		if (r == 0 || arrival < earliest)
			earliest = arrival;
		kernel_sum += x->end - x->start;
		if (x->bytes != first->bytes)
			c->size_mismatch = 1;
	}
	c->skew = last - earliest;
	/* all at once: nobody is last, and any rank's kernel is pure communication */
	c->last_rank = c->skew > 0 ? last_rank : -1;
	const struct gp_coll *straggler = &ranks[last_rank].v[m->slots[c->first + (size_t)last_rank]];
	c->comm = straggler->end - straggler->start;
	c->kernel_mean = kernel_sum / (gp_ns)m->nranks;
	c->bytes = first->bytes;
	c->iter = first->iter;
	c->nranks_group = first->group_size > 0 ? first->group_size
			: ranks[0].world_size > 0 ? ranks[0].world_size : (int)m->nranks;
	for (size_t r = 0; r < m->nranks; r++) {
		const struct gp_coll *x = &ranks[r].v[m->slots[c->first + r]];
		gp_ns wait = last - (x->start + m->ranks[r].offset);
		c->wait_total += wait;
		m->ranks[r].wait += wait;
		m->ranks[r].matched++;
	}
	if (c->last_rank >= 0) {
		m->ranks[last_rank].times_last++;
		m->ranks[last_rank].caused += c->wait_total;
	}
	double factor = gp_coll_busbw_factor(c->kind, c->nranks_group);
	if (c->bytes && c->comm > 0) {
		c->algbw = (double)c->bytes * 1e9 / (double)c->comm;
		c->busbw = c->algbw * factor;
	}
	if (c->bytes && c->kernel_mean > 0)
		c->busbw_kernel = (double)c->bytes * 1e9 / (double)c->kernel_mean * factor;

	struct gp_coll_kind_stats *ks = &m->kinds[c->kind];
	ks->calls++;
	ks->bytes += c->bytes;
	ks->comm += c->comm;
	ks->skew += c->skew;
	ks->wait += c->wait_total;
	ks->kernel_mean += c->kernel_mean;
	if (c->busbw > 0)
		gp_hist_add(&ks->busbw_mbs, (int64_t)llround(c->busbw / 1e6));
	m->wait_total += c->wait_total;
	m->comm_total += c->comm;
}

void gp_coll_match(const struct gp_coll_rank *ranks, size_t n, struct gp_coll_match *m)
{
	size_t total = 0, e = 0;
	struct entry *ents;
	uint32_t **gmap = gp_xcalloc(n, sizeof(*gmap));

	memset(m, 0, sizeof(*m));
	m->nranks = n;
	m->ranks = gp_xcalloc(n, sizeof(*m->ranks));
	for (size_t r = 0; r < n; r++) {
		total += ranks[r].n;
		gmap[r] = gp_xcalloc(ranks[r].ngroups ? ranks[r].ngroups : 1, sizeof(**gmap));
		for (size_t g = 0; g < ranks[r].ngroups; g++)
			gmap[r][g] = global_group(m, ranks[r].groups[g]);
		m->ranks[r].rank = ranks[r].rank;
		m->ranks[r].calls = ranks[r].n;
		m->ranks[r].link_bw = ranks[r].link_bw;
		for (size_t i = 0; i < ranks[r].n; i++)
			m->ranks[r].kernel += ranks[r].v[i].end - ranks[r].v[i].start;
	}
	ents = gp_xmalloc((total ? total : 1) * sizeof(*ents));
	for (size_t r = 0; r < n; r++)
		for (size_t i = 0; i < ranks[r].n; i++) {
			const struct gp_coll *c = &ranks[r].v[i];
			ents[e++] = (struct entry){gmap[r][c->group], c->kind, c->seq, (uint32_t)r, (uint32_t)i};
		}
	qsort(ents, total, sizeof(*ents), entry_cmp);

	/* one call per run of equal keys; a rank's second call of a key
	** (a trace numbering two calls alike) is left out */
	m->calls = gp_xmalloc((total ? total : 1) * sizeof(*m->calls));
	m->slots = gp_xmalloc((total ? total : 1) * n * sizeof(*m->slots));
	for (size_t i = 0; i < total;) {
		size_t j = i;
		struct gp_coll_call *c = &m->calls[m->ncalls++];
		memset(c, 0, sizeof(*c));
		c->first = (uint32_t)((m->ncalls - 1) * n);
		c->kind = ents[i].kind;
		c->group = (int32_t)ents[i].group;
		c->seq = ents[i].seq;
		c->last_rank = -1;
		for (size_t r = 0; r < n; r++)
			m->slots[c->first + r] = -1;
		for (; j < total && ents[j].group == ents[i].group && ents[j].kind == ents[i].kind &&
		       ents[j].seq == ents[i].seq; j++)
			if (m->slots[c->first + ents[j].rank] < 0) {
				m->slots[c->first + ents[j].rank] = (int32_t)ents[j].idx;
				c->present++;
			}
		if (c->present < n)
			for (size_t r = 0; r < n; r++)
				if (m->slots[c->first + r] >= 0) {
					c->bytes = ranks[r].v[m->slots[c->first + r]].bytes;
					c->iter = ranks[r].v[m->slots[c->first + r]].iter;
					break;
				}
		i = j;
	}
	free(ents);
	for (size_t r = 0; r < n; r++)
		free(gmap[r]);
	free(gmap);

	struct call_sort_ctx sx = {ranks, m->slots, n};
	qsort_r(m->calls, m->ncalls, sizeof(*m->calls), call_cmp, &sx);
	align_clocks(ranks, m);
	for (size_t c = 0; c < m->ncalls && m->calls[c].present == n; c++) {
		settle_call(ranks, m, &m->calls[c]);
		m->ncomplete++;
	}
}

void gp_coll_match_free(struct gp_coll_match *m)
{
	free(m->ranks);
	free(m->calls);
	free(m->slots);
	for (size_t i = 0; i < m->ngroups; i++)
		free(m->groups[i]);
	free(m->groups);
	memset(m, 0, sizeof(*m));
}
