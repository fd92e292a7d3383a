/*
** A trace's kernel time by layer, several views at once; see layer_views.h.
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/attr_graph.h"
#include "analysis/groups.h"
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

/* ---- a job's views: kept rows, summed over the ranks ---- */

/* The key of view v in a kept row: "path:D", "module-type:D". */
static void view_key(const struct gp_layer_view *v, char *buf, size_t size)
{
	snprintf(buf, size, "%s:%d", v->module_type ? "module-type" : "path", v->depth);
}

/* One "lview" row per group of x. */
static void put_view(const struct gp_layer_view_groups *x, gp_trace *t, gp_writer *w)
{
	char key[32], ns[32], count[32];
	const char *row[GP_KGROUP_NCOLS] = {"lview", key, NULL, ns, count};

	view_key(&x->v, key, sizeof(key));
	for (size_t j = 0; j < x->g.n; j++) {
		row[2] = x->g.v[j].name ? gp_s(t, x->g.v[j].name) : NULL;
		snprintf(ns, sizeof(ns), "%" PRId64, x->g.v[j].ns);
		snprintf(count, sizeof(count), "%" PRIu64, x->g.v[j].count);
		gp_writer_row(w, row);
	}
}

void gp_layer_views_put(const struct gp_layer_views *lv, gp_trace *t, gp_writer *w)
{
	char depth[16], layer_ns[32], gpu_ns[32], kernels[32];
	const char *head[GP_KGROUP_NCOLS] = {"lviews", depth, layer_ns, gpu_ns, kernels};

	snprintf(depth, sizeof(depth), "%d", lv->depth);
	snprintf(layer_ns, sizeof(layer_ns), "%" PRId64, lv->layer_ns);
	snprintf(gpu_ns, sizeof(gpu_ns), "%" PRId64, lv->gpu_ns);
	snprintf(kernels, sizeof(kernels), "%zu", t->kernels.n);
	gp_writer_row(w, head);
	for (size_t i = 0; i < lv->n; i++)
		put_view(&lv->v[i], t, w);
	if (!lv->n && t->attrs) {
		struct gp_layer_view_groups whole = {0};
		build_view(t, &whole);
		put_view(&whole, t, w);
		gp_vec_free(whole.g);
	}
}

/* One rank's views as read back (names in the job's table). */
struct gp_lvj_rank {
	int depth;
	int64_t gpu_ns, layer_ns;
	GP_VEC(struct gp_layer_view_groups) v;
};

void gp_layer_views_job_init(struct gp_layer_views_job *j)
{
	memset(j, 0, sizeof(*j));
	gp_strtab_init(&j->names);
}

/* The view of r keyed key ("path:2"), added when absent; NULL when key
** names no view. */
static struct gp_layer_view_groups *rank_view(struct gp_lvj_rank *r, const char *key)
{
	struct gp_layer_view v = {0};
	const char *colon = strchr(key, ':');
	int64_t depth;

	if (!colon || !gp_rowbuf_cell_i64(colon + 1, 0, GP_LAYER_VIEWS_DEPTH, &depth))
		return NULL;
	if ((size_t)(colon - key) == 11 && strncmp(key, "module-type", 11) == 0)
		v.module_type = true;
	else if (!((size_t)(colon - key) == 4 && strncmp(key, "path", 4) == 0))
		return NULL;
	v.depth = (int)depth;
	for (size_t i = 0; i < r->v.n; i++)
		if (r->v.v[i].v.depth == v.depth && r->v.v[i].v.module_type == v.module_type)
			return &r->v.v[i];
	struct gp_layer_view_groups *x = gp_vec_push(r->v);
	memset(x, 0, sizeof(*x));
	x->v = v;
	return x;
}

bool gp_layer_views_job_add(struct gp_layer_views_job *j, const struct gp_rowbuf *rb, size_t *at)
{
	const char *c[GP_KGROUP_NCOLS];
	struct gp_lvj_rank *r = NULL;
	int got;

	*at = 0;
	while ((got = gp_rowbuf_next(rb, at, c)) > 0) {
		int64_t a, b;
		if (c[0] && strcmp(c[0], "lviews") == 0) {
			if (r || !c[1] || !c[2] || !gp_rowbuf_cell_i64(c[1], 0, GP_LAYER_VIEWS_DEPTH, &a) ||
			    !gp_rowbuf_cell_i64(c[2], 0, INT64_MAX, &b))
				return false;
			j->ranks = gp_xrealloc(j->ranks, (j->nranks + 1) * sizeof(*j->ranks));
			r = memset(&j->ranks[j->nranks++], 0, sizeof(*r));
			r->depth = (int)a, r->layer_ns = b;
			if (!gp_rowbuf_cell_i64(c[3], 0, INT64_MAX, &r->gpu_ns))
				return false;
		} else if (c[0] && strcmp(c[0], "lview") == 0) {
			struct gp_layer_view_groups *x = r && c[1] ? rank_view(r, c[1]) : NULL;
			if (!x || !gp_rowbuf_cell_i64(c[3], 0, INT64_MAX, &a) || !gp_rowbuf_cell_i64(c[4], 0, INT64_MAX, &b))
				return false;
			struct gp_layer_group *g = gp_vec_push(x->g);
			g->name = gp_strtab_intern(&j->names, c[2]);
			g->ns = a, g->count = (uint64_t)b;
		}
	}
	return got == 0;
}

/* The view of r that counts in the job's view v: its own at v's depth
** when its paths are deeper, else its whole paths; NULL when none. */
static const struct gp_layer_view_groups *source_view(const struct gp_lvj_rank *r, const struct gp_layer_view *v)
{
	int depth = v->depth > 0 && v->depth < r->depth ? v->depth : 0;
	bool module_type = r->depth ? v->module_type : false;

	for (size_t i = 0; i < r->v.n; i++)
		if (r->v.v[i].v.depth == depth && r->v.v[i].v.module_type == module_type)
			return &r->v.v[i];
	return NULL;
}

void gp_layer_views_job_end(struct gp_layer_views_job *j)
{
	struct gp_layer_views *lv = &j->lv;

	gp_layer_views_free(lv);
	for (size_t k = 0; k < j->nranks; k++) {
		lv->gpu_ns += j->ranks[k].gpu_ns;
		lv->layer_ns += j->ranks[k].layer_ns;
		if (j->ranks[k].depth > lv->depth)
			lv->depth = j->ranks[k].depth;
	}
	if (!lv->depth)
		return;
	lv->n = 2 * (size_t)lv->depth;
	lv->v = gp_xcalloc(lv->n, sizeof(*lv->v));
	for (size_t i = 0; i < lv->n; i++) {
		struct gp_layer_view_groups *x = &lv->v[i];
		int level = (int)(i % (size_t)lv->depth) + 1;
		gp_u64map at = {0};
		x->v.module_type = i >= (size_t)lv->depth;
		x->v.depth = level < lv->depth ? level : 0;
		for (size_t k = 0; k < j->nranks; k++) {
			const struct gp_layer_view_groups *s = source_view(&j->ranks[k], &x->v);
			for (size_t g = 0; s && g < s->g.n; g++) {
				int32_t at_i = gp_u64map_add(&at, s->g.v[g].name, (int32_t)x->g.n);
				if (at_i == (int32_t)x->g.n)
					gp_vec_push(x->g)->name = s->g.v[g].name;
				x->g.v[at_i].ns += s->g.v[g].ns;
				x->g.v[at_i].count += s->g.v[g].count;
			}
		}
		gp_u64map_free(&at);
		gp_vec_sort(x->g, cmp_group);
	}
}

void gp_layer_views_job_free(struct gp_layer_views_job *j)
{
	for (size_t k = 0; k < j->nranks; k++) {
		for (size_t i = 0; i < j->ranks[k].v.n; i++)
			gp_vec_free(j->ranks[k].v.v[i].g);
		gp_vec_free(j->ranks[k].v);
	}
	free(j->ranks);
	gp_layer_views_free(&j->lv);
	gp_strtab_free(&j->names);
	memset(j, 0, sizeof(*j));
}
