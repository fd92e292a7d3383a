/*
** Kernels grouped six ways; see groups.h.
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/attr_graph.h"
#include "analysis/groups.h"
#include "analysis/layer_views.h"

/* The group for key in set s (created with name, params and first kernel
** k when new). */
static struct gp_kgroup *group_of(struct gp_kgroup_set *s, uint64_t key, gp_str name, gp_str params,
				  size_t k)
{
	int32_t i = gp_u64map_add(&s->at, key, (int32_t)s->v.n);

	if (i == (int32_t)s->v.n)
		*gp_vec_push(s->v) = (struct gp_kgroup){.key = key, .name = name, .params = params, .first = k,
							.longest = k};
	return &s->v.v[i];
}

/* Adds kernel k of t (r: the op model's results, may be NULL) to x. */
static void group_add(struct gp_kgroup *x, const gp_trace *t, const struct gp_opres *r, size_t k)
{
	const struct gp_kernel *kr = &t->kernels.v[k];
	int64_t ns = kr->end > kr->start ? kr->end - kr->start : 0;

	if (ns > t->kernels.v[x->longest].end - t->kernels.v[x->longest].start)
		x->longest = k;
	x->ns += ns;
	x->count++;
	if (r && r[k].flops >= 0 && r[k].bytes >= 0) {
		x->flops += r[k].flops;
		x->bytes += r[k].bytes;
		x->known_ns += ns;
	}
}

void gp_kgroups_build(gp_trace *t, const struct gp_ops *ops, struct gp_kgroups *g)
{
	const struct gp_opres *r = ops ? ops->r : NULL;
	struct gp_kgroup_set *shape = &g->by[GP_KGROUP_SHAPE];
	gp_str *labels = gp_xcalloc(t->kernel_defs.n + 1, sizeof(*labels));

	memset(g, 0, sizeof(*g));
	g->names = &t->strs;
	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_attr *a = &t->attrs[k];
		gp_str op = r && r[k].op ? r[k].op : a->op ? a->op : gp_graph_op_group(t, a);
		gp_str params = r ? r[k].params : 0;
		gp_str name = gp_kernel_label_of(t, &t->kernels.v[k], labels);
		gp_str layer = gp_layer_group_of(t, NULL, a);
		group_add(group_of(&g->by[GP_KGROUP_LAYER], layer, layer, 0, k), t, r, k);
		group_add(group_of(&g->by[GP_KGROUP_OP], op, op, 0, k), t, r, k);
		group_add(group_of(shape, (uint64_t)op << 32 | params, op, params, k), t, r, k);
		group_add(group_of(&g->by[GP_KGROUP_KERNEL], name, name, 0, k), t, r, k);
		group_add(group_of(&g->by[GP_KGROUP_LAYER_OP], (uint64_t)layer << 32 | op, layer, op, k), t, r, k);
		group_add(group_of(&g->by[GP_KGROUP_LAYER_KERNEL], (uint64_t)layer << 32 | name, layer, name, k), t, r,
			  k);
	}
	free(labels);
	for (size_t i = 0; i < shape->v.n; i++) {
		struct gp_kgroup *x = &shape->v.v[i];
		if (x->flops > 0 && x->bytes > 0 && x->known_ns > 0) {
			x->peak_flops = gp_op_peak(ops, x->first)->flops;
			x->peak_bw = gp_op_peak(ops, x->first)->bw;
		}
	}
}

void gp_kgroups_init(struct gp_kgroups *g)
{
	memset(g, 0, sizeof(*g));
	gp_strtab_init(&g->own);
	g->has_own = true;
	g->names = &g->own;
}

const struct gp_column gp_kgroup_cols[GP_KGROUP_NCOLS] = {
	{"part", "Part", 4, false, false, NULL},
	{"name", "Name", 4, false, true, NULL},
	{"params", "Params", 4, false, true, NULL},
	{"ns", "ns", 4, true, false, NULL},
	{"count", "Count", 4, true, false, NULL},
	{"flops", "FLOPs", 4, true, false, NULL},
	{"bytes", "Bytes", 4, true, false, NULL},
	{"known_ns", "Known ns", 4, true, false, NULL},
	{"peak_flops", "Peak FLOP/s", 4, true, false, NULL},
	{"peak_bw", "Peak B/s", 4, true, false, NULL},
};

/* The part names of the rows, by enum gp_kgroup_by. */
static const char *const part_name[GP_KGROUP__COUNT] = {"layer", "op", "shape", "kernel", "layer-op",
							 "layer-kernel"};

void gp_kgroups_put(const struct gp_kgroups *g, gp_writer *w)
{
	char v[7][32];
	const char *row[GP_KGROUP_NCOLS] = {NULL, NULL, NULL, v[0], v[1], v[2], v[3], v[4], v[5], v[6]};

	for (int i = 0; i < GP_KGROUP__COUNT; i++) {
		row[0] = part_name[i];
		for (size_t j = 0; j < g->by[i].v.n; j++) {
			const struct gp_kgroup *x = &g->by[i].v.v[j];
			row[1] = gp_kgroup_text(g, x->name);
			row[2] = gp_kgroup_text(g, x->params);
			snprintf(v[0], 32, "%" PRId64, x->ns);
			snprintf(v[1], 32, "%" PRIu64, x->count);
			snprintf(v[2], 32, "%.17g", x->flops);
			snprintf(v[3], 32, "%.17g", x->bytes);
			snprintf(v[4], 32, "%" PRId64, x->known_ns);
			snprintf(v[5], 32, "%.17g", x->peak_flops);
			snprintf(v[6], 32, "%.17g", x->peak_bw);
			gp_writer_row(w, row);
		}
	}
}

/* Adds one group row (cells c, its part already matched to set s) to s,
** its names interned in names; false when a number is not one. */
static bool add_row(struct gp_kgroup_set *s, gp_strtab *names, const char *const *c)
{
	char *end[7];

	for (int i = 3; i < GP_KGROUP_NCOLS; i++)
		if (!c[i] || !*c[i])
			return false;
	int64_t ns = strtoll(c[3], &end[0], 10);
	uint64_t count = strtoull(c[4], &end[1], 10);
	double flops = strtod(c[5], &end[2]), bytes = strtod(c[6], &end[3]);
	int64_t known = strtoll(c[7], &end[4], 10);
	double pf = strtod(c[8], &end[5]), pbw = strtod(c[9], &end[6]);
	for (int i = 0; i < 7; i++)
		if (*end[i])
			return false;
	gp_str name = gp_strtab_intern(names, c[1]), params = gp_strtab_intern(names, c[2]);
	struct gp_kgroup *x = group_of(s, (uint64_t)name << 32 | params, name, params, 0);
	if (x->peak_flops <= 0 && x->peak_bw <= 0) {
		/* the first rank that ran the group with known work */
		x->peak_flops = pf;
		x->peak_bw = pbw;
	}
	x->ns += ns;
	x->count += count;
	x->flops += flops;
	x->bytes += bytes;
	x->known_ns += known;
	return true;
}

bool gp_kgroups_add_rows(struct gp_kgroups *g, const struct gp_rowbuf *rb, size_t *at)
{
	const char *c[GP_KGROUP_NCOLS];
	int got;

	*at = 0;
	while ((got = gp_rowbuf_next(rb, at, c)) > 0) {
		int p = 0;
		while (p < GP_KGROUP__COUNT && !(c[0] && strcmp(c[0], part_name[p]) == 0))
			p++;
		if (p == GP_KGROUP__COUNT)
			continue;   /* another part: the command's own */
		if (!add_row(&g->by[p], &g->own, c))
			return false;
	}
	return got == 0;
}

void gp_kgroups_free(struct gp_kgroups *g)
{
	for (int i = 0; i < GP_KGROUP__COUNT; i++) {
		gp_vec_free(g->by[i].v);
		gp_u64map_free(&g->by[i].at);
	}
	if (g->has_own)
		gp_strtab_free(&g->own);
	memset(g, 0, sizeof(*g));
}
