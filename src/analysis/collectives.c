/*
** Collectives: per rank extraction, cross-rank matching, clock alignment,
** skew/communication split and nccl-tests bandwidths.  See collectives.h
** and docs/comm.md.
*/
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/collectives.h"
#include "model/classify.h"
#include "ops/ops.h"
#include "util/alloc.h"
#include "util/fmt.h"
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

/* Index of name s in names[0..*n), appended (a copy) when new: the
** groups, labels and hosts the records and the match keep by index. */
size_t gp_coll_name_index(char ***names, size_t *n, const char *s)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp((*names)[i], s) == 0)
			return i;
	*names = gp_xrealloc(*names, (*n + 1) * sizeof(**names));
	(*names)[*n] = gp_xstrdup(s);
	return (*n)++;
}

/* Index of group name s in r->groups, added when new. */
static uint32_t group_index(struct gp_coll_rank *r, const char *s)
{
	return (uint32_t)gp_coll_name_index(&r->groups, &r->ngroups, s);
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
** innermost nccl:* annotation (its Input Dims/type), a c10d:: op (its
** Input Dims/type), and the args of a record_param_comms (by External id
** in op_args). */
struct call_context {
	const char *annot, *op;
	const struct gp_op_ext *annot_ext, *op_ext;
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
		if (!c->op && strncmp(text, "c10d::", 6) == 0) {
			c->op = text;
			c->op_ext = x;
		}
	}
}

/* Index of label s in r->labels, added when new (labels[0] is ""). */
static uint32_t label_index(struct gp_coll_rank *r, const char *s)
{
	return (uint32_t)gp_coll_name_index(&r->labels, &r->nlabels, s);
}

/* The integers of a list as PyTorch writes it, "[32, 64, 96]" ("[]": none)
** into a new array *v (free it) of *n; false when s is anything else (a
** list PyTorch cut, "[1, 2, ...]"). */
static bool int_list(const char *s, int64_t **v, size_t *n)
{
	size_t cap = 0;

	*v = NULL, *n = 0;
	while (*s == ' ')
		s++;
	if (*s++ != '[')
		return false;
	for (;;) {
		char *end;
		long long x;
		while (*s == ' ')
			s++;
		if (*s == ']' && !*n)
			return s[1] == '\0';
		x = strtoll(s, &end, 10);
		if (end == s || x < 0)
			break;
		if (*n == cap) {
			cap = cap ? 2 * cap : 16;
			*v = gp_xrealloc(*v, cap * sizeof(**v));
		}
		(*v)[(*n)++] = x;
		for (s = end; *s == ' '; s++)
			;
		if (*s == ']' && s[1] == '\0')
			return true;
		if (*s++ != ',')
			break;
	}
	free(*v);
	*v = NULL, *n = 0;
	return false;
}

/* Peer i's share of total bytes split as v[0..n) (rows per peer; n = 0:
** evenly over np peers). */
static uint64_t split_share(uint64_t total, const int64_t *v, size_t n, size_t i, size_t np)
{
	uint64_t sum = 0;

	if (!n)
		return total / np;
	for (size_t k = 0; k < n; k++)
		sum += (uint64_t)v[k];
	if (!sum)
		return 0;
	if (total % sum == 0)
		return total / sum * (uint64_t)v[i];
	return (uint64_t)llround((double)total * (double)v[i] / (double)sum);
}

/* The all-to-all record of r's last call (kernel k, args a, context cx):
** its layer path, the bytes it sends (the call's size) and receives
** (Out msg nelems, else c10d::alltoall_base_'s output, its first tensor),
** and per peer when the args state both split lists. */
static void add_a2a(const gp_trace *t, size_t k, const struct gp_coll_args *a, const struct call_context *cx,
		    struct gp_coll_rank *r)
{
	const struct gp_coll *c = &r->v[r->n - 1];
	struct gp_coll_a2a *x;
	int64_t *in = NULL, *out = NULL, *ranks = NULL;
	size_t nin = 0, nout = 0, nranks = 0, np;
	int size = gp_dtype_size((enum gp_dtype)c->dtype);

	r->a2a = gp_xrealloc(r->a2a, (r->na2a + 1) * sizeof(*r->a2a));
	x = &r->a2a[r->na2a++];
	memset(x, 0, sizeof(*x));
	x->call = (uint32_t)(r->n - 1);
	x->label = label_index(r, t->attrs[k].layer ? gp_s(t, t->attrs[k].layer) : "");
	x->sent = c->bytes;
	if (a && a->out_nelems >= 0 && a->dtype && size > 0) {
		x->recv = (uint64_t)a->out_nelems * (uint64_t)size;
	} else if (cx->op && strcmp(cx->op, "c10d::alltoall_base_") == 0 && cx->op_ext) {
		int64_t o = first_tensor_nelems(gp_s(t, cx->op_ext->input_dims));
		int osize = gp_dtype_size(first_type(gp_s(t, cx->op_ext->input_types)));
		if (o >= 0 && osize > 0)
			x->recv = (uint64_t)o * (uint64_t)osize;
	}
	if (!a || !a->in_split || !a->out_split || !int_list(gp_s(t, a->in_split), &in, &nin) ||
	    !int_list(gp_s(t, a->out_split), &out, &nout))
		goto done;
	np = nin ? nin : nout ? nout : c->group_size > 0 ? (size_t)c->group_size : 0;
	if (!np || (nin && nin != np) || (nout && nout != np) || (!x->sent && !x->recv))
		goto done;
	if (a->ranks && (!int_list(gp_s(t, a->ranks), &ranks, &nranks) || nranks != np))
		nranks = 0;
	x->at = (uint32_t)r->npeers;
	x->npeers = (uint32_t)np;
	r->peers = gp_xrealloc(r->peers, (r->npeers + np) * sizeof(*r->peers));
	for (size_t i = 0; i < np; i++)
		r->peers[r->npeers++] = (struct gp_coll_peer){
			.rank = nranks ? (int32_t)ranks[i] : (int32_t)i,
			.sent = split_share(x->sent, in, nin, i, np),
			.recv = split_share(x->recv, out, nout, i, np),
		};
done:
	free(in);
	free(out);
	free(ranks);
}

/* The GPU of r's trace t (gpu, else the GPU table's for the device of the
** first collective, else of the trace's first device) and its link into r. */
static void link_of(const gp_trace *t, const struct gp_gpu *gpu, struct gp_coll_rank *r)
{
	const struct gp_gpu *g = gpu;
	struct gp_gpu est;

	if (!g) {
		int32_t dev = r->n ? r->v[0].device : t->devices.n ? t->devices.v[0].id : -1;
		const struct gp_device *d = gp_trace_device(t, dev);
		if (d)
			g = gp_gpu_for_device(t, d, &est);
	}
	if (!g)
		return;
	r->link_bw = g->link_bw * 1e9;
	snprintf(r->gpu, sizeof(r->gpu), "%s", g->name);
	snprintf(r->link, sizeof(r->link), "%s", g->link ? g->link : "");
}

/* The host of t into host[size] (collectives.h, gp_coll_extract), ""
** when the trace states none.  Never guessed from the file's name: names
** like "worker7_step_12.TIME.pt.trace.json" look like PyTorch's
** HOST_PID.TIME but carry no host. */
static void host_of(const gp_trace *t, char *host, size_t size)
{
	const char *s = gp_trace_meta_get(t, "hostname");

	if (!s || !*s)
		s = gp_trace_meta_get(t, "host_name");
	snprintf(host, size, "%s", s ? s : "");
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
	label_index(out, "");

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
		if (kind == GP_COLL_ALL_TO_ALL)
			add_a2a(t, k, a, &cx, out);
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
	link_of(t, o->gpu, out);
	host_of(t, out->host, sizeof(out->host));
	out->framework = t->framework;
	return GP_OK;
}

void gp_coll_rank_free(struct gp_coll_rank *r)
{
	free(r->path);
	free(r->v);
	for (size_t i = 0; i < r->ngroups; i++)
		free(r->groups[i]);
	free(r->groups);
	free(r->a2a);
	free(r->peers);
	for (size_t i = 0; i < r->nlabels; i++)
		free(r->labels[i]);
	free(r->labels);
	memset(r, 0, sizeof(*r));
}

/* ---- the record as kept rows ---- */

const struct gp_column gp_coll_record_cols[GP_COLL_RECORD_NCOLS] = {
	{"what", "What", 4, false, false, NULL},
	{"a", "A", 4, false, false, NULL}, {"b", "B", 4, false, false, NULL},
	{"c", "C", 4, false, false, NULL}, {"d", "D", 4, false, false, NULL},
	{"e", "E", 4, false, false, NULL}, {"f", "F", 4, false, false, NULL},
	{"g", "G", 4, false, false, NULL}, {"h", "H", 4, false, false, NULL},
	{"i", "I", 4, false, false, NULL}, {"j", "J", 4, false, false, NULL},
	{"k", "K", 4, false, false, NULL}, {"l", "L", 4, false, false, NULL},
	{"m", "M", 4, false, false, NULL},
};

void gp_coll_rank_put(const struct gp_coll_rank *r, gp_writer *w)
{
	char v[13][32];
	const char *row[GP_COLL_RECORD_NCOLS] = {"rank", v[0], v[1], r->gpu, *r->link ? r->link : NULL,
						 *r->host ? r->host : NULL, v[2]};

	snprintf(v[0], 32, "%d", r->world_size);
	snprintf(v[2], 32, "%d", r->framework);
	snprintf(v[1], 32, "%.17g", r->link_bw);   /* round-trips exactly */
	gp_writer_row(w, row);
	for (size_t g = 0; g < r->ngroups; g++) {
		const char *grow[GP_COLL_RECORD_NCOLS] = {"group", r->groups[g]};
		gp_writer_row(w, grow);
	}
	row[0] = "coll";
	for (int c = 0; c < 13; c++)
		row[c + 1] = v[c];
	for (size_t i = 0; i < r->n; i++) {
		const struct gp_coll *c = &r->v[i];
		/* gp_fmt, not snprintf: a rank has tens of thousands of calls */
		gp_fmt_i64(v[0], c->start);
		gp_fmt_i64(v[1], c->end);
		gp_fmt_i64(v[2], c->launch);
		gp_fmt_i64(v[3], c->seq);
		gp_fmt_u64(v[4], c->bytes);
		gp_fmt_u64(v[5], c->group);
		gp_fmt_u64(v[6], c->stream);
		gp_fmt_i64(v[7], c->device);
		gp_fmt_i64(v[8], c->iter);
		gp_fmt_i64(v[9], c->group_size);
		gp_fmt_u64(v[10], c->kind);
		gp_fmt_u64(v[11], c->dtype);
		gp_fmt_u64(v[12], c->seq_stated);
		gp_writer_row(w, row);
	}
	for (size_t i = 0; i < r->na2a; i++) {
		const struct gp_coll_a2a *x = &r->a2a[i];
		char *peers = gp_xmalloc(x->npeers * 64 + 1);
		const char *arow[GP_COLL_RECORD_NCOLS] = {"a2a", v[0], r->labels[x->label], v[1], v[2],
							   x->npeers ? peers : NULL};
		size_t at = 0;
		*peers = '\0';
		for (uint32_t p = 0; p < x->npeers; p++) {
			const struct gp_coll_peer *q = &r->peers[x->at + p];
			at += (size_t)snprintf(peers + at, 64, "%s%d:%" PRIu64 ":%" PRIu64, p ? " " : "", q->rank,
					       q->sent, q->recv);
		}
		gp_fmt_u64(v[0], x->call);
		gp_fmt_u64(v[1], x->sent);
		gp_fmt_u64(v[2], x->recv);
		gp_writer_row(w, arow);
		free(peers);
	}
}

/* An "a2a" row's cells c[1..5] into r (its call already read); false
** when one is not a value the record can hold. */
static bool a2a_of_row(const char *const *c, struct gp_coll_rank *r)
{
	struct gp_coll_a2a x = {0};
	int64_t call;
	const char *s = c[5];

	if (!gp_rowbuf_cell_i64(c[1], 0, (int64_t)r->n - 1, &call) || !c[2] || !gp_rowbuf_cell_u64(c[3], &x.sent) ||
	    !gp_rowbuf_cell_u64(c[4], &x.recv) || r->v[call].kind != GP_COLL_ALL_TO_ALL)
		return false;
	x.call = (uint32_t)call;
	x.label = label_index(r, c[2]);
	x.at = (uint32_t)r->npeers;
	while (s && *s) {
		struct gp_coll_peer q;
		char *end;
		long long rank = strtoll(s, &end, 10);
		if (end == s || *end != ':' || rank < INT32_MIN || rank > INT32_MAX)
			return false;
		q.rank = (int32_t)rank;
		s = end + 1;
		q.sent = strtoull(s, &end, 10);
		if (end == s || *end != ':')
			return false;
		s = end + 1;
		q.recv = strtoull(s, &end, 10);
		if (end == s || (*end && *end != ' '))
			return false;
		s = *end ? end + 1 : end;
		r->peers = gp_xrealloc(r->peers, (r->npeers + 1) * sizeof(*r->peers));
		r->peers[r->npeers++] = q;
		x.npeers++;
	}
	r->a2a = gp_xrealloc(r->a2a, (r->na2a + 1) * sizeof(*r->a2a));
	r->a2a[r->na2a++] = x;
	return true;
}

/* One "coll" row's cells c[1..13] into *out; false when one is not a
** value the record can hold. */
static bool coll_of_row(const char *const *c, size_t ngroups, struct gp_coll *out)
{
	int64_t v[13];
	static const int64_t lo[13] = {INT64_MIN, INT64_MIN, INT64_MIN, INT64_MIN, 0, 0, 0,
				       INT32_MIN, INT32_MIN, INT32_MIN, 0, 0, 0};
	static const int64_t hi[13] = {INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX, 0, 0, UINT32_MAX,
				       INT32_MAX, INT32_MAX, INT32_MAX, GP_COLL__COUNT - 1, UINT8_MAX, 1};

	for (int k = 0; k < 13; k++)
		if (k != 4 && !gp_rowbuf_cell_i64(c[k + 1], lo[k], k == 5 ? (int64_t)ngroups - 1 : hi[k], &v[k]))
			return false;
	if (!gp_rowbuf_cell_u64(c[5], &out->bytes))
		return false;
	out->start = v[0], out->end = v[1], out->launch = v[2], out->seq = v[3];
	out->group = (uint32_t)v[5], out->stream = (uint32_t)v[6], out->device = (int32_t)v[7];
	out->iter = (int32_t)v[8], out->group_size = (int32_t)v[9];
	out->kind = (uint8_t)v[10], out->dtype = (uint8_t)v[11], out->seq_stated = (uint8_t)v[12];
	return true;
}

void gp_coll_reader_init(struct gp_coll_reader *rd, struct gp_coll_rank *r)
{
	memset(r, 0, sizeof(*r));
	rd->r = r;
	rd->cap = 0;
	rd->heads = 0;
}

int gp_coll_reader_row(struct gp_coll_reader *rd, const char *const *c)
{
	struct gp_coll_rank *r = rd->r;
	int64_t world, framework = GP_FW_UNKNOWN;
	char *end;

	if (!c[0])
		return 0;
	if (strcmp(c[0], "rank") == 0) {
		if (rd->heads++ || !gp_rowbuf_cell_i64(c[1], -1, INT32_MAX, &world) || !c[2] || !c[3] ||
		    strlen(c[3]) >= sizeof(r->gpu) || (c[4] && strlen(c[4]) >= sizeof(r->link)) ||
		    (c[5] && strlen(c[5]) >= sizeof(r->host)) ||
		    (c[6] && !gp_rowbuf_cell_i64(c[6], GP_FW_UNKNOWN, GP_FW_TENSORFLOW, &framework)))
			return -1;
		r->framework = (uint8_t)framework;
		r->world_size = (int)world;
		r->link_bw = strtod(c[2], &end);
		if (*end || end == c[2] || !(r->link_bw >= 0))
			return -1;
		snprintf(r->gpu, sizeof(r->gpu), "%s", c[3]);
		snprintf(r->link, sizeof(r->link), "%s", c[4] ? c[4] : "");
		snprintf(r->host, sizeof(r->host), "%s", c[5] ? c[5] : "");
		label_index(r, "");
		return 1;
	}
	if (strcmp(c[0], "group") == 0) {
		if (!rd->heads || r->n || !c[1])
			return -1;
		r->groups = gp_xrealloc(r->groups, (r->ngroups + 1) * sizeof(*r->groups));
		r->groups[r->ngroups++] = gp_xstrdup(c[1]);
		return 1;
	}
	if (strcmp(c[0], "a2a") == 0)
		return rd->heads && a2a_of_row(c, r) ? 1 : -1;
	if (strcmp(c[0], "coll") == 0) {
		if (!rd->heads || r->na2a)
			return -1;
		if (r->n == rd->cap) {
			rd->cap = rd->cap ? 2 * rd->cap : 64;
			r->v = gp_xrealloc(r->v, rd->cap * sizeof(*r->v));
		}
		if (!coll_of_row(c, r->ngroups, &r->v[r->n]))
			return -1;
		r->n++;
		return 1;
	}
	return 0;
}

bool gp_coll_reader_done(const struct gp_coll_reader *rd)
{
	return rd->heads == 1;
}

int gp_coll_rank_read(const struct gp_rowbuf *rb, const char *path, int rank, struct gp_coll_rank *r,
		      gp_error *err)
{
	const char *c[GP_COLL_RECORD_NCOLS];
	struct gp_coll_reader rd;
	size_t at = 0;
	int got;

	gp_coll_reader_init(&rd, r);
	while ((got = gp_rowbuf_next(rb, &at, c)) > 0)
		if (gp_coll_reader_row(&rd, c) != 1) {
			got = -1;
			break;
		}
	r->path = gp_xstrdup(path);
	r->rank = rank;
	if (got < 0 || !gp_coll_reader_done(&rd))
		return gp_err(err, GP_ERR_FORMAT, "%s: a collectives record is damaged (byte %zu of %zu)", path, at,
			      rb->len);
	return GP_OK;
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
	return (uint32_t)gp_coll_name_index(&m->groups, &m->ngroups, name);
}

/* The median of v[0..n) (n >= 1; sorted here): of an even count the mean
** of the middle two, rounded half away from zero.  Exact and free of
** overflow whatever the values (clock differences between a trace on the
** host's epoch and one from 0 are near 2^61, and ten of them overflow a
** sum). */
static gp_ns median_i64(int64_t *v, size_t n)
{
	int64_t a, b, m;
	uint64_t d;

	gp_sort(v, n, sizeof(*v), gp_cmp_i64);
	if (n % 2)
		return v[n / 2];
	a = v[n / 2 - 1], b = v[n / 2];
	d = (uint64_t)b - (uint64_t)a;          /* b >= a: the distance, exact */
	m = (int64_t)((uint64_t)a + d / 2);     /* between a and b */
	return d % 2 && m >= 0 ? m + 1 : m;     /* m + 0.5, away from zero */
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
		for (size_t c = 0; c < m->ncalls; c++) {
			int32_t i0 = m->slots[m->calls[c].first], ir = m->slots[m->calls[c].first + r];
			if (i0 >= 0 && ir >= 0)
				diff[n++] = ranks[0].v[i0].end - ranks[r].v[ir].end;
		}
		if (!n)
			continue;
		m->ranks[r].offset = median_i64(diff, n);
		m->ranks[r].aligned = true;
	}
	free(diff);
}

/* The waits, skew, communication time and bandwidths of complete call c. */
static void settle_call(const struct gp_coll_rank *ranks, struct gp_coll_match *m, struct gp_coll_call *c)
{
	const struct gp_coll *first = NULL;
	gp_ns last = 0, earliest = 0, kernel_sum = 0, second = INT64_MIN;
	int last_rank = -1;
	uint64_t largest = 0;

	for (size_t r = 0; r < m->nranks; r++) {
		const struct gp_coll *x = &ranks[r].v[m->slots[c->first + r]];
		gp_ns arrival = x->start + m->ranks[r].offset;
		if (!first)
			first = x;
		if (last_rank < 0 || arrival > last) {
			if (last_rank >= 0)
				second = last;
			last = arrival, last_rank = (int)r;
		} else if (arrival > second) {
			second = arrival;
		}
		if (r == 0 || arrival < earliest)
			earliest = arrival;
		kernel_sum += x->end - x->start;
		if (r == 0 || x->end - x->start < c->transfer)
			c->transfer = x->end - x->start;
		if (x->bytes != first->bytes)
			c->size_mismatch = 1;
		if (x->bytes > largest)
			largest = x->bytes;
	}
	c->skew = last - earliest;
	/* all at once: nobody is last, and any rank's kernel is pure communication */
	c->last_rank = c->skew > 0 ? last_rank : -1;
	const struct gp_coll *straggler = &ranks[last_rank].v[m->slots[c->first + (size_t)last_rank]];
	c->comm = straggler->end - straggler->start;
	c->kernel_mean = kernel_sum / (gp_ns)m->nranks;
	/* an uneven all-to-all moves the busiest rank's buffer in its time */
	c->bytes = c->kind == GP_COLL_ALL_TO_ALL ? largest : first->bytes;
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
		c->late = second != INT64_MIN ? last - second : 0;
		m->ranks[last_rank].times_last++;
		m->ranks[last_rank].caused += c->wait_total;
		m->ranks[last_rank].late += c->late;
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
	m->framework = n ? ranks[0].framework : GP_FW_UNKNOWN;
	for (size_t r = 1; r < n; r++)
		if (ranks[r].framework != m->framework)
			m->framework = GP_FW_UNKNOWN;
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
	gp_sort(ents, total, sizeof(*ents), entry_cmp);

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
	gp_coll_span(ranks, m);
}

void gp_coll_match_free(struct gp_coll_match *m)
{
	free(m->ranks);
	free(m->calls);
	free(m->slots);
	for (size_t i = 0; i < m->ngroups; i++)
		free(m->groups[i]);
	free(m->groups);
	for (size_t i = 0; i < m->nhosts; i++)
		free(m->hosts[i]);
	free(m->hosts);
	memset(m, 0, sizeof(*m));
}

/* When the rank the others waited for longest is the straggler: it
** arrived last at more than half of the calls matched on every rank, the
** others' wait for it is more than a quarter of all waiting, and it came
** after the next-to-last rank (docs/comm.md).  A rank that is last now and
** then is jitter: nobody to fix. */
static const struct {
	double min_last;        /* last at more than this share of the complete calls */
	double min_share;       /* its caused wait above this share of all waits */
} straggler_limits = {0.5, 0.25};

int gp_coll_straggler(const struct gp_coll_match *m)
{
	const struct gp_coll_rank_stats *x;
	int best = -1;

	for (size_t r = 0; r < m->nranks; r++) {
		x = &m->ranks[r];
		if (x->caused <= 0)
			continue;
		if (best < 0 || x->caused > m->ranks[best].caused ||
		    (x->caused == m->ranks[best].caused && x->times_last > m->ranks[best].times_last))
			best = (int)r;
	}
	if (best < 0 || m->nranks < 2)
		return -1;
	x = &m->ranks[best];
	if ((double)x->times_last <= straggler_limits.min_last * (double)m->ncomplete ||
	    (double)x->caused <= straggler_limits.min_share * (double)m->wait_total || x->late <= 0)
		return -1;
	return best;
}
