/*
** Collectives within a node and across nodes: which hosts the ranks ran
** on (gp_coll_rank.host), which matched calls span more than one, and the
** bus bandwidth of each side.  See collectives.h (gp_coll_span) and
** docs/comm.md, "Within a node, across nodes".
*/
#include <stdlib.h>
#include <string.h>

#include "analysis/collectives.h"
#include "util/alloc.h"

static const char *const span_names[GP_SPAN__COUNT] = {"unknown", "intra", "inter"};

const char *gp_coll_span_name(int span)
{
	return span >= 0 && span < GP_SPAN__COUNT ? span_names[span] : "?";
}

/* Index of host h in m->hosts, added when new. */
static int host_index(struct gp_coll_match *m, const char *h)
{
	return (int)gp_coll_name_index(&m->hosts, &m->nhosts, h);
}

/* The group size the ranks that have call c state (the first that
** states one), 0 when none does. */
static int stated_group_size(const struct gp_coll_rank *ranks, const struct gp_coll_match *m,
			     const struct gp_coll_call *c)
{
	for (size_t r = 0; r < m->nranks; r++) {
		int32_t i = m->slots[c->first + r];
		if (i >= 0 && ranks[r].v[i].group_size > 0)
			return ranks[r].v[i].group_size;
	}
	return 0;
}

/* A whole call that is not on every rank: its bytes (all_to_all: the
** largest rank's), transfer (its shortest kernel) and group size, as
** settle_call gives a complete one. */
static void settle_subgroup(const struct gp_coll_rank *ranks, const struct gp_coll_match *m,
			    struct gp_coll_call *c, int group_size)
{
	bool first = true;

	c->nranks_group = group_size;
	for (size_t r = 0; r < m->nranks; r++) {
		int32_t i = m->slots[c->first + r];
		const struct gp_coll *x;
		if (i < 0)
			continue;
		x = &ranks[r].v[i];
		if (first || x->end - x->start < c->transfer)
			c->transfer = x->end - x->start;
		if (first)
			c->bytes = x->bytes;
		else if (x->bytes != c->bytes)
			c->size_mismatch = 1;
		if (c->kind == GP_COLL_ALL_TO_ALL && x->bytes > c->bytes)
			c->bytes = x->bytes;
		first = false;
	}
}

void gp_coll_span(const struct gp_coll_rank *ranks, struct gp_coll_match *m)
{
	char *seen = gp_xcalloc(m->nranks ? m->nranks : 1, 1);

	for (size_t r = 0; r < m->nranks; r++)
		m->ranks[r].host = *ranks[r].host ? host_index(m, ranks[r].host) : -1;
	for (size_t k = 0; k < m->ncalls; k++) {
		struct gp_coll_call *c = &m->calls[k];
		int gs = stated_group_size(ranks, m, c);
		bool unknown = false;
		struct gp_coll_span_stats *s;

		if (c->present == m->nranks) {
			c->whole = 1;
		} else if (gs > 1 && c->present == (uint32_t)gs) {
			c->whole = 1;
			settle_subgroup(ranks, m, c, gs);
		}
		memset(seen, 0, m->nranks ? m->nranks : 1);
		c->hosts = 0;
		for (size_t r = 0; r < m->nranks; r++) {
			int h = m->ranks[r].host;
			if (m->slots[c->first + r] < 0)
				continue;
			if (h < 0)
				unknown = true;
			else if (!seen[h]++)
				c->hosts++;
		}
		/* ranks of its group that were not given ran somewhere unknown */
		if (gs > 0 && c->present < (uint32_t)gs)
			unknown = true;
		c->span = c->hosts > 1 ? GP_SPAN_INTER : unknown ? GP_SPAN_UNKNOWN : GP_SPAN_INTRA;
		if (!c->whole)
			continue;
		s = &m->spans[c->span][c->kind];
		s->calls++;
		if (!c->bytes || c->transfer <= 0) {
			s->unknown_size++;
			continue;
		}
		s->bytes += c->bytes;
		s->transfer += c->transfer;
		s->bus_bytes += (double)c->bytes * gp_coll_busbw_factor(c->kind, c->nranks_group);
	}
	free(seen);
}
