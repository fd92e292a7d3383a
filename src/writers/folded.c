/*
** Folded flame-graph stacks (docs/export.md): one line per distinct stack,
** "layer;...;op;kernel weight", for flamegraph.pl, speedscope and inferno.
** Three sinks share this file, one per weight: folded (GPU time, ns),
** folded-flops (modelled FLOPs) and folded-idle (GPU idle time, under the
** CPU context of the kernel that ends each gap); folded-flops needs the
** op model (GP_NEED_OPS).  Weights are integers
** summed exactly: the lines add up to the trace's total.  Frame names are
** escaped so that ';' and '%' (and control characters) cannot break a
** line: they become %3B, %25 (%XX); a space stays a space (the readers
** take the weight after the last one).
**
** Several traces (gp_sink_write per trace, then the sink's end) add into
** one table of stacks, written at the end: identical stacks of different
** files are one line with their weights summed; a trace given its rank
** (gp_sink_input.rank: export --per-rank) starts its stacks with a frame
** "rank-R".  The table is the sink's state, bounded by the distinct stacks.
*/
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/layers.h"
#include "util/strtab.h"
#include "util/u64map.h"
#include "writers/sink.h"

enum weight { W_TIME, W_FLOPS, W_IDLE };

/* The stacks seen so far, in first-seen order, and their weights. */
struct stacks {
	gp_strtab names;        /* stack text, interned */
	gp_u64map index;        /* gp_str -> index into order/weight */
	GP_VEC(gp_str) order;
	GP_VEC(uint64_t) weight;
	char *buf;              /* the stack being built */
	size_t len, cap;
};

static void put_raw(struct stacks *st, const char *s, size_t n)
{
	if (st->len + n + 1 > st->cap) {
		st->cap = 2 * (st->len + n + 1);
		st->buf = gp_xrealloc(st->buf, st->cap);
	}
	memcpy(st->buf + st->len, s, n);
	st->len += n;
	st->buf[st->len] = 0;
}

/* Appends one frame, escaped, after a ';' unless it is the first. */
static void put_frame(struct stacks *st, const char *s, size_t n)
{
	char esc[4];

	if (st->len)
		put_raw(st, ";", 1);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == ';' || c == '%' || c < 0x20 || c == 0x7f) {
			snprintf(esc, sizeof(esc), "%%%02X", c);
			put_raw(st, esc, 3);
		} else {
			put_raw(st, (const char *)&s[i], 1);
		}
	}
}

/* A layer path "Encoder/Layer_1/Attention" as frames, one per component
** (analysis/layers.h): a name holding ':' stays one frame. */
static void put_layer(struct stacks *st, const char *layer)
{
	size_t pos = 0, len;
	const char *c;

	while ((c = gp_layer_next(layer, &pos, &len)) != NULL)
		put_frame(st, c, len);
}

/* Adds w to the stack in st->buf and clears the buffer. */
static void add_stack(struct stacks *st, uint64_t w)
{
	gp_str id = gp_strtab_intern(&st->names, st->buf);
	int32_t i = gp_u64map_add(&st->index, id, (int32_t)st->order.n);

	if (i == (int32_t)st->order.n) {
		*gp_vec_push(st->order) = id;
		*gp_vec_push(st->weight) = 0;
	}
	st->weight.v[i] += w;
	st->len = 0;
	st->buf[0] = 0;
}

/* Builds kernel k's context frames (layer...;op) in st->buf. */
static void kernel_context(struct stacks *st, const struct gp_analysis *an, size_t k)
{
	const gp_trace *t = an->trace;
	const struct gp_attr *a = &t->attrs[k];
	const char *layer = gp_known_text(gp_s(t, a->layer));
	const char *op = gp_known_text(gp_s(t, an->ops.r && an->ops.r[k].op ? an->ops.r[k].op : a->op));

	if (layer)
		put_layer(st, layer);
	op = op ? op : "(no op)";
	put_frame(st, op, strlen(op));
}

static void kernel_frame(struct stacks *st, const gp_trace *t, size_t k)
{
	const char *name = gp_s(t, gp_kernel_def(t, &t->kernels.v[k])->name);

	name = name && *name ? name : "(unnamed kernel)";
	put_frame(st, name, strlen(name));
}

/* Idle gaps: each under "idle" (after the frame rank, when not NULL), then the context of the kernel that ends
** it (its layer, op and launch call), or "idle" alone when a copy or
** memset ends it, or its kernel has no known op. */
static void add_idle(struct stacks *st, const struct gp_analysis *an, const struct gp_activity *acts,
		     size_t n, const char *rank)
{
	const gp_trace *t = an->trace;
	gp_ns busy_end = 0;

	for (size_t i = 0; i < n; i++) {
		bool same = i && acts[i].dev == acts[i - 1].dev;
		if (same && acts[i].s > busy_end) {
			size_t k = acts[i].unit;
			if (rank)
				put_frame(st, rank, strlen(rank));
			put_frame(st, "idle", 4);
			if (k < t->kernels.n) {
				const struct gp_attr *a = &t->attrs[k];
				const char *op = gp_known_text(gp_s(t, an->ops.r && an->ops.r[k].op ? an->ops.r[k].op : a->op));
				if (op) {
					kernel_context(st, an, k);
					if (a->api >= 0) {
						const char *api = gp_s(t, gp_api_def(t, &t->apis.v[a->api])->name);
						if (api && *api)
							put_frame(st, api, strlen(api));
					}
				}
			}
			add_stack(st, (uint64_t)acts[i].s - (uint64_t)busy_end);
		}
		if (!same || acts[i].e > busy_end)
			busy_end = acts[i].e;
	}
}

/* Adds the stacks of one trace, weighted by w, to st. */
static int add_trace(struct stacks *st, const struct gp_sink_input *in, enum weight w, gp_error *err)
{
	const struct gp_analysis *an = in->an;
	const gp_trace *t = an ? an->trace : NULL;
	char rank[32];

	if (!t || !t->attrs || (w != W_TIME && !gp_analysis_has(an, GP_NEED_OPS)))
		return gp_err(err, GP_ERR_USAGE, "folded: no correlated trace or op model");
	if (in->rank)
		snprintf(rank, sizeof(rank), "rank-%" PRId32, in->rank->rank);
	if (w == W_IDLE) {
		size_t n;
		struct gp_activity *acts = gp_trace_activities(t, &n);
		add_idle(st, an, acts, n, in->rank ? rank : NULL);
		free(acts);
		return GP_OK;
	}
	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_kernel *kr = &t->kernels.v[k];
		uint64_t v;
		if (w == W_TIME)
			v = kr->end > kr->start ? (uint64_t)kr->end - (uint64_t)kr->start : 0;
		else
			v = an->ops.r[k].flops > 0 ? (uint64_t)llround(an->ops.r[k].flops) : 0;
		if (!v)
			continue;
		if (in->rank)
			put_frame(st, rank, strlen(rank));
		kernel_context(st, an, k);
		kernel_frame(st, t, k);
		add_stack(st, v);
	}
	return GP_OK;
}

static int folded_open(gp_sink *s, gp_error *err)
{
	struct stacks *st = gp_xcalloc(1, sizeof(*st));

	(void)err;
	gp_strtab_init(&st->names);
	st->cap = 256;
	st->buf = gp_xmalloc(st->cap);
	st->buf[0] = 0;
	s->priv = st;
	return GP_OK;
}

static void folded_close(gp_sink *s)
{
	struct stacks *st = s->priv;

	free(st->buf);
	free(st->order.v);
	free(st->weight.v);
	gp_u64map_free(&st->index);
	gp_strtab_free(&st->names);
	free(st);
}

/* Writes the stacks, in first-seen order. */
static int folded_end(gp_sink *s, gp_error *err)
{
	const struct stacks *st = s->priv;

	(void)err;
	for (size_t i = 0; i < st->order.n; i++)
		fprintf(s->out, "%s %" PRIu64 "\n", gp_strtab_get(&st->names, st->order.v[i]), st->weight.v[i]);
	return GP_OK;
}

/* One trace: its stacks, written at once; one of several (s->many):
** added to the table that end writes. */
static int folded_write_weight(gp_sink *s, const struct gp_sink_input *in, enum weight w, gp_error *err)
{
	int rc = add_trace(s->priv, in, w, err);

	return rc || s->many ? rc : folded_end(s, err);
}

static int folded_time(gp_sink *s, const struct gp_sink_input *in, gp_error *err)
{
	return folded_write_weight(s, in, W_TIME, err);
}

static int folded_flops(gp_sink *s, const struct gp_sink_input *in, gp_error *err)
{
	return folded_write_weight(s, in, W_FLOPS, err);
}

static int folded_idle(gp_sink *s, const struct gp_sink_input *in, gp_error *err)
{
	return folded_write_weight(s, in, W_IDLE, err);
}

const struct gp_sink_ops gp_sink_folded = {
	.name = "folded",
	.help = "flame-graph stacks layer;...;op;kernel weighted by GPU time (ns)",
	.open = folded_open,
	.write = folded_time,
	.close = folded_close,
	.end = folded_end,
};

const struct gp_sink_ops gp_sink_folded_flops = {
	.name = "folded-flops",
	.help = "flame-graph stacks weighted by modelled FLOPs",
	.open = folded_open,
	.write = folded_flops,
	.close = folded_close,
	.end = folded_end,
};

const struct gp_sink_ops gp_sink_folded_idle = {
	.name = "folded-idle",
	.help = "flame-graph stacks of GPU idle time under the CPU context that ended each gap",
	.open = folded_open,
	.write = folded_idle,
	.close = folded_close,
	.end = folded_end,
};
