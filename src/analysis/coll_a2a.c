/*
** Expert parallelism from the ranks' all-to-all calls: per rank and peer
** volume, imbalance, time per layer and pass.  See coll_a2a.h and
** docs/comm.md.
*/
#include <stdlib.h>
#include <string.h>

#include "analysis/coll_a2a.h"
#include "analysis/ranks.h"
#include "util/alloc.h"
#include "util/stats.h"

char gp_a2a_pass(const char *layer)
{
	char pass = 0;

	/* the innermost component wins: scan them all, keep the last */
	for (const char *p = layer ? strchr(layer, '(') : NULL; p; p = strchr(p + 1, '('))
		if ((p[1] == 'F' || p[1] == 'B' || p[1] == 'W') && p[2] == ')' && (p[3] == '\0' || p[3] == '/'))
			pass = p[1];
	return pass;
}

/* Index of layer in a->labels, added when new. */
static size_t label_of(struct gp_a2a *a, const char *layer)
{
	for (size_t i = 0; i < a->nlabels; i++)
		if (strcmp(a->labels[i].layer, layer) == 0)
			return i;
	a->labels = gp_xrealloc(a->labels, (a->nlabels + 1) * sizeof(*a->labels));
	memset(&a->labels[a->nlabels], 0, sizeof(*a->labels));
	a->labels[a->nlabels].layer = gp_xstrdup(layer);
	a->labels[a->nlabels].pass = gp_a2a_pass(layer);
	return a->nlabels++;
}

/* largest / mean of v[0..n), 0 when the sum is 0. */
static double largest_over_mean(const uint64_t *v, size_t n)
{
	uint64_t max = 0;
	double sum = 0;

	for (size_t i = 0; i < n; i++) {
		sum += (double)v[i];
		if (v[i] > max)
			max = v[i];
	}
	return sum > 0 ? (double)max * (double)n / sum : 0;
}

static int by_time(const void *pa, const void *pb)
{
	const struct gp_a2a_label *a = pa, *b = pb;

	if (a->time_mean != b->time_mean)
		return a->time_mean > b->time_mean ? -1 : 1;
	return strcmp(a->layer, b->layer);
}

/* Per rank: calls, bytes, kernel time; the bytes per label and the peer
** matrix.  Fills lab[r][i], the label (index into a->labels) of rank r's
** a2a record i. */
static void per_rank(const struct gp_coll_rank *ranks, struct gp_a2a *a, size_t **lab)
{
	int maxpeer = -1;

	for (size_t r = 0; r < a->nranks; r++) {
		lab[r] = gp_xmalloc((ranks[r].na2a ? ranks[r].na2a : 1) * sizeof(**lab));
		for (size_t i = 0; i < ranks[r].na2a; i++) {
			const struct gp_coll_a2a *x = &ranks[r].a2a[i];
			lab[r][i] = label_of(a, ranks[r].labels[x->label]);
			for (uint32_t p = 0; p < x->npeers; p++)
				if (ranks[r].peers[x->at + p].rank > maxpeer)
					maxpeer = ranks[r].peers[x->at + p].rank;
		}
	}
	if (maxpeer >= 0) {
		a->npeers = (size_t)maxpeer + 1;
		a->matrix = gp_xcalloc(a->nranks * a->npeers, sizeof(*a->matrix));
	}
	for (size_t r = 0; r < a->nranks; r++) {
		struct gp_a2a_rank *ar = &a->ranks[r];
		ar->rank = ranks[r].rank;
		ar->peer_max_rank = -1;
		for (size_t i = 0; i < ranks[r].na2a; i++) {
			const struct gp_coll_a2a *x = &ranks[r].a2a[i];
			const struct gp_coll *c = &ranks[r].v[x->call];
			ar->calls++;
			ar->sent += x->sent;
			ar->recv += x->recv;
			ar->time += c->end - c->start;
			a->labels[lab[r][i]].sent += x->sent;
			for (uint32_t p = 0; p < x->npeers; p++) {
				const struct gp_coll_peer *q = &ranks[r].peers[x->at + p];
				if (q->rank >= 0)
					a->matrix[r * a->npeers + (size_t)q->rank] += q->sent;
			}
		}
	}
}

/* Each rank's row of the matrix: its largest peer and imbalance over the
** peers it sent to at least once in a group (a zero split counts). */
static void peer_stats(const struct gp_coll_rank *ranks, struct gp_a2a *a)
{
	bool *member = gp_xmalloc((a->npeers ? a->npeers : 1) * sizeof(*member));
	uint64_t *row = gp_xmalloc((a->npeers ? a->npeers : 1) * sizeof(*row));
	uint64_t *col = gp_xcalloc(a->npeers ? a->npeers : 1, sizeof(*col));

	for (size_t r = 0; r < a->nranks && a->matrix; r++) {
		struct gp_a2a_rank *ar = &a->ranks[r];
		size_t n = 0;
		memset(member, 0, a->npeers * sizeof(*member));
		for (size_t i = 0; i < ranks[r].na2a; i++)
			for (uint32_t p = 0; p < ranks[r].a2a[i].npeers; p++) {
				int32_t q = ranks[r].peers[ranks[r].a2a[i].at + p].rank;
				if (q >= 0)
					member[q] = true;
			}
		for (size_t p = 0; p < a->npeers; p++) {
			uint64_t b = a->matrix[r * a->npeers + p];
			col[p] += b;
			if (!member[p])
				continue;
			row[n++] = b;
			if (ar->peer_max_rank < 0 || b > ar->peer_max)
				ar->peer_max = b, ar->peer_max_rank = (int)p;
		}
		ar->peer_imbalance = largest_over_mean(row, n);
	}
	if (a->matrix) {
		a->peer_imbalance = largest_over_mean(col, a->npeers);
		a->peer_hot = -1;
		for (size_t p = 0; p < a->npeers; p++)
			if (a->peer_hot < 0 || col[p] > a->peer_hot_bytes)
				a->peer_hot = (int)p, a->peer_hot_bytes = col[p];
	}
	free(member);
	free(row);
	free(col);
}

/* The waits and transfer time of the all-to-all calls matched on every
** rank, per rank and per label (each rank's wait to its own label). */
static void matched(const struct gp_coll_rank *ranks, const struct gp_coll_match *m, size_t *const *lab,
		    struct gp_a2a *a)
{
	/* each rank's a2a index by call index */
	int32_t **by_call = gp_xmalloc((a->nranks ? a->nranks : 1) * sizeof(*by_call));

	for (size_t r = 0; r < a->nranks; r++) {
		by_call[r] = gp_xmalloc((ranks[r].n ? ranks[r].n : 1) * sizeof(**by_call));
		for (size_t i = 0; i < ranks[r].n; i++)
			by_call[r][i] = -1;
		for (size_t i = 0; i < ranks[r].na2a; i++)
			by_call[r][ranks[r].a2a[i].call] = (int32_t)i;
	}
	for (size_t k = 0; k < m->ncomplete; k++) {
		const struct gp_coll_call *c = &m->calls[k];
		gp_ns last = INT64_MIN;
		if (c->kind != GP_COLL_ALL_TO_ALL)
			continue;
		for (size_t r = 0; r < a->nranks; r++) {
			gp_ns arrival = ranks[r].v[m->slots[c->first + r]].start + m->ranks[r].offset;
			if (arrival > last)
				last = arrival;
		}
		a->calls++;
		a->transfer += c->transfer;
		if (c->last_rank >= 0) {
			a->ranks[c->last_rank].times_last++;
			a->ranks[c->last_rank].caused += c->wait_total;
		}
		for (size_t r = 0; r < a->nranks; r++) {
			int32_t call = m->slots[c->first + r], i = by_call[r][call];
			gp_ns wait = last - (ranks[r].v[call].start + m->ranks[r].offset);
			a->ranks[r].wait += wait;
			a->wait += wait;
			if (i < 0)
				continue;
			a->labels[lab[r][i]].wait += wait;
			if (r == 0)
				a->labels[lab[r][i]].transfer += c->transfer;
		}
	}
	for (size_t r = 0; r < a->nranks; r++)
		free(by_call[r]);
	free(by_call);
}

void gp_a2a_summarise(const struct gp_coll_rank *ranks, size_t n, const struct gp_coll_match *m,
		      struct gp_a2a *a)
{
	size_t **lab = gp_xcalloc(n ? n : 1, sizeof(*lab));
	uint64_t *sent = gp_xmalloc((n ? n : 1) * sizeof(*sent));

	memset(a, 0, sizeof(*a));
	a->nranks = n;
	a->ranks = gp_xcalloc(n ? n : 1, sizeof(*a->ranks));
	a->peer_hot = -1;
	per_rank(ranks, a, lab);
	peer_stats(ranks, a);
	matched(ranks, m, lab, a);

	/* per label: time per rank, its mean, largest, and the calls */
	for (size_t l = 0; l < a->nlabels; l++) {
		struct gp_a2a_label *L = &a->labels[l];
		gp_ns sum = 0;
		for (size_t r = 0; r < n; r++) {
			gp_ns t = 0;
			uint64_t calls = 0;
			for (size_t i = 0; i < ranks[r].na2a; i++)
				if (lab[r][i] == l) {
					const struct gp_coll *c = &ranks[r].v[ranks[r].a2a[i].call];
					t += c->end - c->start;
					calls++;
				}
			sum += t;
			if (t > L->time_max)
				L->time_max = t;
			if (calls > L->calls)
				L->calls = calls;
		}
		L->time_mean = n ? sum / (gp_ns)n : 0;
		L->imbalance = sum > 0 ? (double)L->time_max * (double)n / (double)sum : 0;
	}
	if (a->nlabels)   /* qsort's array may not be NULL, even empty */
		qsort(a->labels, a->nlabels, sizeof(*a->labels), by_time);

	for (size_t r = 0; r < n; r++)
		sent[r] = a->ranks[r].sent;
	a->rank_imbalance = largest_over_mean(sent, n);
	a->late = -1;
	for (size_t r = 0; r < n; r++)
		if (a->ranks[r].caused > 0 && (a->late < 0 || a->ranks[r].caused > a->ranks[a->late].caused))
			a->late = (int)r;
	for (size_t r = 0; r < n; r++)
		free(lab[r]);
	free(lab);
	free(sent);
}

void gp_a2a_of_job(const struct gp_rank_job *j, struct gp_a2a *out)
{
	/* the records' collectives side by side: shallow copies, read only */
	struct gp_coll_rank *ranks = gp_xmalloc((j->n ? j->n : 1) * sizeof(*ranks));

	for (size_t i = 0; i < j->n; i++)
		ranks[i] = j->rec[i].coll;
	gp_a2a_summarise(ranks, j->n, &j->coll, out);
	free(ranks);
}

void gp_a2a_free(struct gp_a2a *a)
{
	for (size_t i = 0; i < a->nlabels; i++)
		free(a->labels[i].layer);
	free(a->labels);
	free(a->ranks);
	free(a->matrix);
	memset(a, 0, sizeof(*a));
}
