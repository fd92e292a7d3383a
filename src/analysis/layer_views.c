/*
** A trace's kernel time by layer, several views at once; see layer_views.h.
*/
#include <stdlib.h>
#include <string.h>

#include "analysis/attr_graph.h"
#include "analysis/layer_views.h"
#include "util/u64map.h"

gp_str gp_layer_group_of(gp_trace *t, struct gp_layer_cut *c, const struct gp_attr *a)
{
	gp_str layer = c ? gp_layer_cut_str(t, c, a->layer) : a->layer;

	return layer ? layer : gp_graph_layer_group(t, a);
}

/* Longest first, then by name id. */
static int cmp_group(const void *pa, const void *pb)
{
	const struct gp_layer_group *a = pa, *b = pb;

	if (a->ns != b->ns)
		return a->ns > b->ns ? -1 : 1;
	return (a->name > b->name) - (a->name < b->name);
}

/* The components of path (0 for none), counted up to GP_LAYER_VIEWS_DEPTH. */
static int path_depth(const char *path)
{
	size_t pos = 0, len;
	int n = 0;

	while (n < GP_LAYER_VIEWS_DEPTH && gp_layer_next(path, &pos, &len))
		n++;
	return n;
}

/* Groups t's kernels into x under its view (whole paths, uncut, when it
** cuts nothing: as summary --by layer reads them). */
static void build_view(gp_trace *t, struct gp_layer_view_groups *x)
{
	struct gp_layer_cut c = {.v = &x->v};
	bool cut = gp_layer_view_cuts(&x->v);
	gp_u64map at = {0};

	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_kernel *kr = &t->kernels.v[k];
		gp_str key = gp_layer_group_of(t, cut ? &c : NULL, &t->attrs[k]);
		int32_t i = gp_u64map_add(&at, key, (int32_t)x->g.n);
		if (i == (int32_t)x->g.n)
			gp_vec_push(x->g)->name = key;
		x->g.v[i].ns += kr->end > kr->start ? kr->end - kr->start : 0;
		x->g.v[i].count++;
	}
	gp_u64map_free(&at);
	gp_layer_cut_free(&c);
	gp_vec_sort(x->g, cmp_group);
}

void gp_layer_views_build(gp_trace *t, struct gp_layer_views *out)
{
	gp_u64map seen = {0};

	memset(out, 0, sizeof(*out));
	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_kernel *kr = &t->kernels.v[k];
		gp_ns ns = kr->end > kr->start ? kr->end - kr->start : 0;
		gp_str layer = t->attrs ? t->attrs[k].layer : 0;
		out->gpu_ns += ns;
		if (!layer)
			continue;
		out->layer_ns += ns;
		if (gp_u64map_get(&seen, layer) < 0) {
			int d = path_depth(gp_s(t, layer));
			if (d > out->depth)
				out->depth = d;
			gp_u64map_put(&seen, layer, 0);
		}
	}
	gp_u64map_free(&seen);
	if (!t->attrs || !out->depth)
		return;
	out->n = 2 * (size_t)out->depth;
	out->v = gp_xcalloc(out->n, sizeof(*out->v));
	for (size_t i = 0; i < out->n; i++) {
		int level = (int)(i % (size_t)out->depth) + 1;   /* 1 .. depth; depth reads as 0: all */
		out->v[i].v.module_type = i >= (size_t)out->depth;
		out->v[i].v.depth = level < out->depth ? level : 0;
		build_view(t, &out->v[i]);
	}
}

const char *gp_layer_views_record(const struct gp_layer_views *v)
{
	return (double)v->layer_ns < GP_LAYER_COVER_MIN * (double)v->gpu_ns ? GP_LAYER_RECORD : NULL;
}

void gp_layer_views_free(struct gp_layer_views *v)
{
	for (size_t i = 0; i < v->n; i++)
		gp_vec_free(v->v[i].g);
	free(v->v);
	memset(v, 0, sizeof(*v));
}
