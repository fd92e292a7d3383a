/*
** gpuprof comm: collectives across rank files (src/analysis/collectives.h;
** definitions in docs/comm.md).  Views:
**   ranks   per rank: calls, how often it arrived last, the time it waited
**           and the time the others waited for it, its clock offset;
**   kinds   per collective kind: calls, bytes, pure communication, skew,
**           busbw percentiles against the link's peak;
**   calls   the collectives that cost the most waiting (-n, default 20);
**   waits   per complete call and rank: its kernel, the call's transfer
**           (the shortest kernel) and the rank's wait (the excess);
**   advise  the straggler and low-bandwidth findings (analysis/advise.h);
**   a2a     expert parallelism: all-to-all volume per rank and peer, its
**           imbalance, time per layer and pass (analysis/coll_a2a.h);
**   nodes   per span (within a node, across nodes) and kind: the whole
**           calls, their transfer time and bus bandwidth (gp_coll_span).
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/coll_a2a.h"
#include "analysis/collectives.h"
#include "analysis/ranks.h"
#include "cmds/cmds.h"
#include "cmds/options.h"
#include "analysis/advise.h"
#include "ops/ops.h"
#include "util/fmt.h"
#include "util/stats.h"
#include "writers/writer.h"

static const struct gp_cmd_opt comm_own[] = {
	{"view", 'V', "V", "ranks (default), kinds, calls (the -n with the most\n"
	 "waiting, default 20), advise, a2a (all-to-all per rank,\n"
	 "peer, layer and pass) or nodes (intra- and inter-node\n"
	 "calls and busbw) or waits (each rank's wait at each\n"
	 "call); --gpu NAME: its link peak"},
	{NULL, 0, NULL, NULL},
};
enum { OWN_VIEW };

static const struct gp_cmd_spec comm_spec = {
	.name = "comm",
	.about =
	"Collectives (NCCL/RCCL) across the rank files of one job: each FILE (or\n"
	"each trace of a directory or glob) is one rank: the trace's rank, else the\n"
	"one its file name says, else its place among the files (docs/ranks.md).\n"
	"Calls are matched across ranks by process group, kind and sequence number\n"
	"(the trace's, else the call's position).  Clocks are aligned on collective\n"
	"ends, never trusted.  For every call matched on all ranks: the last rank to\n"
	"arrive, each other rank's wait for it, the skew (first to last arrival)\n"
	"and the pure communication time (the last rank's kernel: from its arrival\n"
	"to the end), with nccl-tests' algbw and busbw over it and busbw as a share\n"
	"of the GPU's link peak (NVLink, xGMI, PCIe).  The straggler is the rank\n"
	"the others waited for longest, the one every command names.\n"
	"One FILE: sizes, kernel times and bandwidths only (waits need two ranks).\n"
	"--view a2a: expert parallelism: the bytes each rank sends each peer (split\n"
	"sizes), largest / mean across ranks and peers, all-to-all time per layer\n"
	"and pass (annotations like layer3 > dispatch(F)).\n"
	"--view nodes: where the traces name their hosts (nsys's Hostname, Kineto's\n"
	"host_name, rocprof's hostname), the calls within one node and across\n"
	"nodes (a subgroup's calls too), with busbw over each side's transfer\n"
	"time; ranks and calls say each rank's host and each call's span.\n"
	"--view waits: a row per call matched on every rank and per rank: its\n"
	"kernel time, the call's transfer (the shortest kernel over the ranks)\n"
	"and the rank's wait, the excess (no clock involved), beside its wait\n"
	"for the last arrival on the aligned clocks.\n"
	"Definitions: docs/comm.md.",
	.shared = GP_OPT_FORMAT | GP_OPT_TOP | GP_OPT_WIDTH | GP_OPT_NO_HEADER | GP_OPT_GPU | GP_OPT_JOBS |
		  GP_OPT_WINDOW,
	.row_formats = true,
	.format_note = "(times in ns and bandwidths in GB/s except in the table)",
	.top_help = "--view calls: the N calls with the most waiting (a\npositive number; default 20); --view waits: the first N\ncalls (default all)",
	.own = comm_own,
	.many_files = true,
	.many_help =
	"Several traces: give several FILEs, a directory (the trace files in it,\n"
	"by name; other files are skipped with a note) or a quoted glob\n"
	"('run/rank*.json.gz'), read -j at a time, each reduced to its\n"
	"collectives and freed; the views above combine the ranks.  A file that\n"
	"fails stops the command after all are read, with its error.\n\n",
};

enum view { VIEW_RANKS, VIEW_KINDS, VIEW_CALLS, VIEW_ADVISE, VIEW_A2A, VIEW_NODES, VIEW_WAITS };

static const struct gp_column rank_cols[] = {
	{"rank", "Rank", 4, true, false, NULL},
	{"file", "File", 12, false, true, NULL},
	{"calls", "Calls", 5, true, false, NULL},
	{"matched", "Matched", 5, true, false, NULL},
	{"last", "Last", 4, true, false, NULL},
	{"wait_ns", "Waited", 8, true, false, NULL, GP_UNIT_NS},
	{"caused_ns", "Caused", 8, true, false, NULL, GP_UNIT_NS},
	{"kernel_ns", "Kernel time", 8, true, false, NULL, GP_UNIT_NS},
	{"offset_ns", "Clock offset", 8, true, false, NULL, GP_UNIT_NS},
	{"link_gbs", "Link", 6, true, false, NULL, GP_UNIT_GBPS},
	{"role", "Role", 9, false, false, ""},
	{"host", "Host", 8, false, true, ""},
};

static const struct gp_column kind_cols[] = {
	{"kind", "Kind", 10, false, false, NULL},
	{"calls", "Calls", 5, true, false, NULL},
	{"bytes", "Bytes", 8, true, false, NULL},
	{"comm_ns", "Comm", 8, true, false, NULL, GP_UNIT_NS},
	{"skew_ns", "Skew", 8, true, false, NULL, GP_UNIT_NS},
	{"wait_ns", "Wait", 8, true, false, NULL, GP_UNIT_NS},
	{"busbw_p50_gbs", "busbw p50", 6, true, false, NULL, GP_UNIT_GBPS},
	{"busbw_p90_gbs", "busbw p90", 6, true, false, NULL, GP_UNIT_GBPS},
	{"busbw_max_gbs", "busbw max", 6, true, false, NULL, GP_UNIT_GBPS},
	{"link_pct", "p50 of link", 5, true, false, NULL, GP_UNIT_PCT},
};

static const struct gp_column call_cols[] = {
	{"kind", "Kind", 10, false, false, NULL},
	{"group", "Group", 5, false, true, "(default)"},
	{"seq", "Seq", 4, true, false, NULL},
	{"iteration", "Iter", 4, true, false, NULL},
	{"bytes", "Bytes", 8, true, false, NULL},
	{"last_rank", "Last", 4, true, false, "(none)"},
	{"wait_ns", "Wait", 8, true, false, NULL, GP_UNIT_NS},
	{"skew_ns", "Skew", 8, true, false, NULL, GP_UNIT_NS},
	{"comm_ns", "Comm", 8, true, false, NULL, GP_UNIT_NS},
	{"transfer_ns", "Transfer", 8, true, false, NULL, GP_UNIT_NS},
	{"kernel_ns", "Kernel", 8, true, false, NULL, GP_UNIT_NS},
	{"algbw_gbs", "algbw", 6, true, false, NULL, GP_UNIT_GBPS},
	{"busbw_gbs", "busbw", 6, true, false, NULL, GP_UNIT_GBPS},
	{"busbw_kernel_gbs", "busbw kernel", 6, true, false, NULL, GP_UNIT_GBPS},
	{"link_pct", "busbw of link", 5, true, false, NULL, GP_UNIT_PCT},
	{"span", "Span", 7, false, false, NULL},
	{"hosts", "Hosts", 5, true, false, NULL},
};

static const struct gp_column wait_cols[] = {
	{"kind", "Kind", 10, false, false, NULL},
	{"group", "Group", 5, false, true, "(default)"},
	{"seq", "Seq", 4, true, false, NULL},
	{"iteration", "Iter", 4, true, false, NULL},
	{"rank", "Rank", 4, true, false, NULL},
	{"kernel_ns", "Kernel", 8, true, false, NULL, GP_UNIT_NS},
	{"transfer_ns", "Transfer", 8, true, false, NULL, GP_UNIT_NS},
	{"wait_ns", "Wait", 8, true, false, NULL, GP_UNIT_NS},
	{"arrival_wait_ns", "Behind last", 8, true, false, NULL, GP_UNIT_NS},
	{"last", "Last", 4, false, false, NULL},
};

static const struct gp_column node_cols[] = {
	{"span", "Span", 7, false, false, NULL},
	{"kind", "Kind", 10, false, false, NULL},
	{"calls", "Calls", 5, true, false, NULL},
	{"unsized", "No size", 5, true, false, NULL},
	{"bytes", "Bytes", 8, true, false, NULL},
	{"transfer_ns", "Transfer", 8, true, false, NULL, GP_UNIT_NS},
	{"busbw_gbs", "busbw", 6, true, false, "", GP_UNIT_GBPS},
};

static const struct gp_column advise_cols[] = {
	{"kind", "Finding", 12, false, false, NULL},
	{"ns", "Saving", 8, true, false, NULL},
	{"title", "Title", 30, false, true, NULL},
	{"evidence", "Evidence", 20, false, true, NULL},
	{"change", "Change", 20, false, true, NULL},
};

#define NCOL(c) ((int)(sizeof(c) / sizeof((c)[0])))

static void cell_ns(char *buf, size_t size, double ns, bool table)
{
	if (table)
		gp_fmt_duration(ns, buf, size);
	else
		snprintf(buf, size, "%.0f", ns);
}

/* The smallest link peak over the ranks (bytes/s), 0 = unknown. */
static double link_peak(const struct gp_coll_match *m)
{
	double peak = 0;

	for (size_t r = 0; r < m->nranks; r++)
		if (m->ranks[r].link_bw > 0 && (peak == 0 || m->ranks[r].link_bw < peak))
			peak = m->ranks[r].link_bw;
	return peak;
}

/* One row per rank; the straggler (gp_coll_straggler) marked. */
static void write_ranks(gp_writer *w, const struct gp_coll_rank *ranks, const struct gp_coll_match *m,
			bool table)
{
	int straggler = gp_coll_straggler(m);

	for (size_t r = 0; r < m->nranks; r++) {
		const struct gp_coll_rank_stats *s = &m->ranks[r];
		char v[10][64];
		const char *row[12] = {v[0], ranks[r].path, v[2], v[3], v[4], v[5], v[6], v[7],
				       s->aligned ? v[8] : NULL, s->link_bw > 0 ? v[9] : NULL,
				       (int)r == straggler ? "straggler" : NULL,
				       *ranks[r].host ? ranks[r].host : NULL};
		snprintf(v[0], 64, "%d", s->rank);
		snprintf(v[2], 64, "%" PRIu64, s->calls);
		snprintf(v[3], 64, "%" PRIu64, s->matched);
		snprintf(v[4], 64, "%" PRIu64, s->times_last);
		cell_ns(v[5], 64, (double)s->wait, table);
		cell_ns(v[6], 64, (double)s->caused, table);
		cell_ns(v[7], 64, (double)s->kernel, table);
		snprintf(v[8], 64, "%" PRId64, s->offset);
		snprintf(v[9], 64, "%.2f", s->link_bw / 1e9);
		gp_writer_row(w, row);
	}
}

static void write_kinds(gp_writer *w, const struct gp_coll_match *m, bool table)
{
	double peak = link_peak(m);

	for (int k = 0; k < GP_COLL__COUNT; k++) {
		const struct gp_coll_kind_stats *ks = &m->kinds[k];
		bool bw = ks->busbw_mbs.n > 0;
		char v[10][64];
		const char *row[10] = {gp_coll_kind_name(k), v[1], v[2], v[3], v[4], v[5],
				       bw ? v[6] : NULL, bw ? v[7] : NULL, bw ? v[8] : NULL,
				       bw && peak > 0 ? v[9] : NULL};
		if (!ks->calls)
			continue;
		snprintf(v[1], 64, "%" PRIu64, ks->calls);
		snprintf(v[2], 64, "%" PRIu64, ks->bytes);
		cell_ns(v[3], 64, (double)ks->comm, table);
		cell_ns(v[4], 64, (double)ks->skew, table);
		cell_ns(v[5], 64, (double)ks->wait, table);
		snprintf(v[6], 64, "%.3f", (double)gp_hist_quantile(&ks->busbw_mbs, 0.5) / 1e3);
		snprintf(v[7], 64, "%.3f", (double)gp_hist_quantile(&ks->busbw_mbs, 0.9) / 1e3);
		snprintf(v[8], 64, "%.3f", (double)ks->busbw_mbs.max / 1e3);
		snprintf(v[9], 64, "%.1f", peak > 0 ? 100 * (double)gp_hist_quantile(&ks->busbw_mbs, 0.5) * 1e6 / peak : 0);
		gp_writer_row(w, row);
	}
}

/* Complete calls by wait cost, the largest first (then in time order). */
static int by_wait(const void *pa, const void *pb)
{
	const struct gp_coll_call *a = *(const struct gp_coll_call *const *)pa;
	const struct gp_coll_call *b = *(const struct gp_coll_call *const *)pb;

	if (a->wait_total != b->wait_total)
		return a->wait_total > b->wait_total ? -1 : 1;
	return a < b ? -1 : a > b;
}

static void write_calls(gp_writer *w, const struct gp_coll_match *m, size_t top, bool table)
{
	const struct gp_coll_call **order = gp_xmalloc((m->ncomplete ? m->ncomplete : 1) * sizeof(*order));
	double peak = link_peak(m);

	for (size_t i = 0; i < m->ncomplete; i++)
		order[i] = &m->calls[i];
	qsort(order, m->ncomplete, sizeof(*order), by_wait);
	for (size_t i = 0; i < m->ncomplete && i < top; i++) {
		const struct gp_coll_call *c = order[i];
		const char *group = m->groups[c->group];
		char v[17][64];
		const char *row[17] = {gp_coll_kind_name(c->kind), *group ? group : NULL, v[2],
				       c->iter >= 0 ? v[3] : NULL, c->bytes ? v[4] : NULL, c->last_rank >= 0 ? v[5] : NULL, v[6], v[7], v[8],
				       v[14], v[9], c->algbw > 0 ? v[10] : NULL, c->busbw > 0 ? v[11] : NULL,
				       c->busbw_kernel > 0 ? v[12] : NULL, c->busbw > 0 && peak > 0 ? v[13] : NULL,
				       gp_coll_span_name(c->span), v[16]};
		snprintf(v[2], 64, "%" PRId64, c->seq);
		snprintf(v[3], 64, "%d", c->iter);
		snprintf(v[4], 64, "%" PRIu64, c->bytes);
		if (c->last_rank >= 0)
			snprintf(v[5], 64, "%d", m->ranks[c->last_rank].rank);
		cell_ns(v[6], 64, (double)c->wait_total, table);
		cell_ns(v[7], 64, (double)c->skew, table);
		cell_ns(v[8], 64, (double)c->comm, table);
		cell_ns(v[9], 64, (double)c->kernel_mean, table);
		cell_ns(v[14], 64, (double)c->transfer, table);
		snprintf(v[10], 64, "%.3f", c->algbw / 1e9);
		snprintf(v[11], 64, "%.3f", c->busbw / 1e9);
		snprintf(v[12], 64, "%.3f", c->busbw_kernel / 1e9);
		snprintf(v[13], 64, "%.1f", peak > 0 ? 100 * c->busbw / peak : 0);
		snprintf(v[16], 64, "%u", (unsigned)c->hosts);
		gp_writer_row(w, row);
	}
	free(order);
}

/* The long form of each rank's wait: for each of the first top complete
** calls (in time order: m->calls) and each rank (in rank order), its
** kernel's duration, the call's transfer (the shortest kernel), its wait
** = kernel - transfer (no clock involved: docs/comm.md, "Per complete
** call"), its wait for the last arrival on the aligned clocks, and
** whether it was the last rank.  ranks are the records m was matched
** from, in the same order. */
static void write_waits(gp_writer *w, const struct gp_coll_rank *ranks, const struct gp_coll_match *m,
			size_t top, bool table)
{
	for (size_t i = 0; i < m->ncomplete && i < top; i++) {
		const struct gp_coll_call *c = &m->calls[i];
		const char *group = m->groups[c->group];
		gp_ns last = INT64_MIN;

		for (size_t r = 0; r < m->nranks; r++) {
			const struct gp_coll *x = &ranks[r].v[m->slots[c->first + r]];

			if (x->start + m->ranks[r].offset > last)
				last = x->start + m->ranks[r].offset;
		}
		for (size_t r = 0; r < m->nranks; r++) {
			const struct gp_coll *x = &ranks[r].v[m->slots[c->first + r]];
			char v[9][64];
			const char *row[10] = {gp_coll_kind_name(c->kind), *group ? group : NULL, v[0],
					       c->iter >= 0 ? v[1] : NULL, v[2], v[3], v[4], v[5], v[6],
					       c->last_rank == (int)r ? "yes" : "no"};

			snprintf(v[0], 64, "%" PRId64, c->seq);
			snprintf(v[1], 64, "%d", c->iter);
			snprintf(v[2], 64, "%d", m->ranks[r].rank);
			cell_ns(v[3], 64, (double)(x->end - x->start), table);
			cell_ns(v[4], 64, (double)c->transfer, table);
			cell_ns(v[5], 64, (double)(x->end - x->start - c->transfer), table);
			cell_ns(v[6], 64, (double)(last - (x->start + m->ranks[r].offset)), table);
			gp_writer_row(w, row);
		}
	}
}

/* Per span and kind, the whole calls (gp_coll_span): a row per kind
** that has any, then an "all" row per span of more than one kind; busbw
** is the bus bytes over the transfer time of the calls of known size. */
static void write_nodes(gp_writer *w, const struct gp_coll_match *m, bool table)
{
	static const int order[GP_SPAN__COUNT] = {GP_SPAN_INTRA, GP_SPAN_INTER, GP_SPAN_UNKNOWN};

	for (int o = 0; o < GP_SPAN__COUNT; o++) {
		struct gp_coll_span_stats all = {0};
		int kinds = 0, span = order[o];
		for (int k = 0; k <= GP_COLL__COUNT; k++) {
			const struct gp_coll_span_stats *x = k < GP_COLL__COUNT ? &m->spans[span][k] : &all;
			char v[7][64];
			const char *row[7] = {gp_coll_span_name(span), k < GP_COLL__COUNT ? gp_coll_kind_name(k) : "all",
					      v[2], v[3], v[4], v[5], x->transfer > 0 ? v[6] : NULL};
			if (!x->calls || (k == GP_COLL__COUNT && kinds < 2))
				continue;
			if (k < GP_COLL__COUNT) {
				kinds++;
				all.calls += x->calls, all.bytes += x->bytes, all.transfer += x->transfer;
				all.bus_bytes += x->bus_bytes, all.unknown_size += x->unknown_size;
			}
			snprintf(v[2], 64, "%" PRIu64, x->calls);
			snprintf(v[3], 64, "%" PRIu64, x->unknown_size);
			snprintf(v[4], 64, "%" PRIu64, x->bytes);
			cell_ns(v[5], 64, (double)x->transfer, table);
			snprintf(v[6], 64, "%.3f", x->transfer > 0 ? x->bus_bytes / (double)x->transfer : 0);
			gp_writer_row(w, row);
		}
	}
}

static void write_advise(gp_writer *w, const struct gp_coll_match *m, const char *link, bool table)
{
	struct gp_findings f;

	gp_advise_collectives(m, link, &f);
	for (size_t i = 0; i < f.v.n; i++) {
		char ns[64];
		const char *row[5] = {f.v.v[i].kind, ns, f.v.v[i].title, f.v.v[i].evidence, f.v.v[i].change};
		cell_ns(ns, sizeof(ns), f.v.v[i].ns, table);
		gp_writer_row(w, row);
	}
	gp_findings_free(&f);
}

static const struct gp_column a2a_cols[] = {
	{"scope", "Scope", 5, false, false, NULL},
	{"rank", "Rank", 4, true, false, ""},
	{"peer", "Peer", 4, true, false, ""},
	{"layer", "Layer", 12, false, true, ""},
	{"pass", "Pass", 4, false, false, ""},
	{"calls", "Calls", 5, true, false, ""},
	{"sent_bytes", "Sent", 8, true, false, "", GP_UNIT_BYTES},
	{"recv_bytes", "Received", 8, true, false, "", GP_UNIT_BYTES},
	{"time_ns", "Time", 8, true, false, "", GP_UNIT_NS},
	{"time_max_ns", "Time max", 8, true, false, "", GP_UNIT_NS},
	{"wait_ns", "Wait", 8, true, false, "", GP_UNIT_NS},
	{"transfer_ns", "Transfer", 8, true, false, "", GP_UNIT_NS},
	{"max_bytes", "Largest", 8, true, false, "", GP_UNIT_BYTES},
	{"imbalance", "Max/mean", 6, true, false, ""},
};

/* The cells of one a2a row, NULL where a scope has none. */
struct a2a_row {
	const char *scope, *layer;
	int rank, peer;                 /* -1 = none */
	char pass;
	int64_t calls;                  /* -1 = none */
	int64_t sent, recv, time, time_max, wait, transfer, max_bytes;  /* -1 = none */
	double imbalance;               /* 0 = none */
};

static void a2a_put(gp_writer *w, const struct a2a_row *x, bool table)
{
	char v[14][64], pass[2] = {x->pass, '\0'};
	const char *row[14] = {x->scope, x->rank >= 0 ? v[1] : NULL, x->peer >= 0 ? v[2] : NULL, x->layer,
			       x->pass ? pass : NULL, x->calls >= 0 ? v[5] : NULL};
	const int64_t num[7] = {x->sent, x->recv, x->time, x->time_max, x->wait, x->transfer, x->max_bytes};

	snprintf(v[1], 64, "%d", x->rank);
	snprintf(v[2], 64, "%d", x->peer);
	snprintf(v[5], 64, "%" PRId64, x->calls);
	for (int i = 0; i < 7; i++) {
		bool ns = i >= 2 && i <= 5;
		if (num[i] < 0)
			continue;
		if (ns)
			cell_ns(v[6 + i], 64, (double)num[i], table);
		else
			snprintf(v[6 + i], 64, "%" PRId64, num[i]);
		row[6 + i] = v[6 + i];
	}
	snprintf(v[13], 64, "%.3f", x->imbalance);
	row[13] = x->imbalance > 0 ? v[13] : NULL;
	gp_writer_row(w, row);
}

/* The a2a view (analysis/coll_a2a.h): a "job" row (all ranks; max/mean
** across ranks of the bytes sent), a "peers" row (the peer receiving the
** most; max/mean across peers), per rank (its largest peer; max/mean
** across its peers), per layer path and pass (time per rank: mean, max,
** max/mean), and per rank and peer the bytes sent. */
static void write_a2a(gp_writer *w, const struct gp_coll_rank *ranks, const struct gp_coll_match *m, bool table)
{
	struct gp_a2a a;
	int64_t sent = 0, recv = 0, time = 0, time_max = 0, largest = 0;

	gp_a2a_summarise(ranks, m->nranks, m, &a);
	for (size_t r = 0; r < a.nranks; r++) {
		sent += (int64_t)a.ranks[r].sent;
		recv += (int64_t)a.ranks[r].recv;
		time += a.ranks[r].time;
		if (a.ranks[r].time > time_max)
			time_max = a.ranks[r].time;
		if ((int64_t)a.ranks[r].sent > largest)
			largest = (int64_t)a.ranks[r].sent;
	}
	a2a_put(w, &(struct a2a_row){"job", NULL, -1, -1, 0, (int64_t)a.calls, sent, recv,
				      a.nranks ? time / (int64_t)a.nranks : 0, time_max, a.wait, a.transfer, largest,
				      a.rank_imbalance}, table);
	if (a.matrix)
		a2a_put(w, &(struct a2a_row){"peers", NULL, -1, a.peer_hot, 0, -1, -1, (int64_t)a.peer_hot_bytes,
					      -1, -1, -1, -1, (int64_t)a.peer_hot_bytes, a.peer_imbalance}, table);
	for (size_t r = 0; r < a.nranks; r++) {
		const struct gp_a2a_rank *x = &a.ranks[r];
		a2a_put(w, &(struct a2a_row){"rank", NULL, x->rank, x->peer_max_rank, 0, (int64_t)x->calls,
					      (int64_t)x->sent, (int64_t)x->recv, x->time, -1, x->wait, -1,
					      x->peer_max_rank >= 0 ? (int64_t)x->peer_max : -1, x->peer_imbalance},
			table);
	}
	for (size_t l = 0; l < a.nlabels; l++) {
		const struct gp_a2a_label *x = &a.labels[l];
		a2a_put(w, &(struct a2a_row){"layer", *x->layer ? x->layer : NULL, -1, -1, x->pass,
					      (int64_t)x->calls, (int64_t)x->sent, -1, x->time_mean, x->time_max,
					      x->wait, x->transfer, -1, x->imbalance}, table);
	}
	for (size_t r = 0; r < a.nranks && a.matrix; r++)
		for (size_t p = 0; p < a.npeers; p++)
			a2a_put(w, &(struct a2a_row){"peer", NULL, a.ranks[r].rank, (int)p, 0, -1,
						      (int64_t)a.matrix[r * a.npeers + p], -1, -1, -1, -1, -1, -1, 0},
				table);
	gp_a2a_free(&a);
}

/* What comm's workers (each rank file kept as its collectives' record:
** gp_coll_rank_put) and its reduce share. */
struct job {
	enum view view;
	bool table;
	size_t top;
	const struct gp_gpu *gpu;   /* --gpu, else each trace's device */
};

/* One rank file: its collectives and its GPU's link as record rows
** (gp_cli_trace_fn). */
static int comm_trace(const void *ctx, gp_trace *t, gp_writer *w, gp_writer *rec, gp_error *err)
{
	const struct job *j = ctx;
	struct gp_coll_opts o = {.gpu = j->gpu};
	struct gp_coll_rank r;
	int rc = gp_coll_extract(t, &o, &r, err);

	if (rc == GP_OK)
		gp_coll_rank_put(&r, w);
	gp_coll_rank_free(&r);
	return rc;
}

/* The ranks' records back from the kept rows (in rank order, the first
** the clock reference), matched and written in the view asked for
** (gp_cli_reduce_fn).  The link named by advise is that of the first rank
** whose link has the smallest peak, the peak the findings compare with. */
static int comm_reduce(const void *ctx, const struct gp_cli_result *const *res, size_t n,
		       gp_writer *out, gp_error *err)
{
	const struct job *j = ctx;
	struct gp_coll_rank *ranks = gp_xcalloc(n ? n : 1, sizeof(*ranks));
	const char *link = NULL;
	double peak = 0;
	struct gp_coll_match m;
	int rc = GP_OK;

	for (size_t i = 0; i < n && rc == GP_OK; i++)
		rc = gp_coll_rank_read(&res[i]->rows, res[i]->path, res[i]->id.rank, &ranks[i], err);
	if (rc == GP_OK) {
		for (size_t i = 0; i < n; i++)
			if (*ranks[i].link && ranks[i].link_bw > 0 && (peak == 0 || ranks[i].link_bw < peak)) {
				peak = ranks[i].link_bw;
				link = ranks[i].link;
			}
		gp_coll_match(ranks, n, &m);
		if (j->view == VIEW_KINDS)
			write_kinds(out, &m, j->table);
		else if (j->view == VIEW_CALLS)
			write_calls(out, &m, j->top, j->table);
		else if (j->view == VIEW_ADVISE)
			write_advise(out, &m, link, j->table);
		else if (j->view == VIEW_A2A)
			write_a2a(out, ranks, &m, j->table);
		else if (j->view == VIEW_NODES)
			write_nodes(out, &m, j->table);
		else if (j->view == VIEW_WAITS)
			write_waits(out, ranks, &m, j->top, j->table);
		else
			write_ranks(out, ranks, &m, j->table);
		gp_coll_match_free(&m);
	}
	for (size_t i = 0; i < n; i++)
		gp_coll_rank_free(&ranks[i]);
	free(ranks);
	return rc;
}

static int comm_option(void *ctx, int index, const char *arg)
{
	struct job *j = ctx;

	if (index != OWN_VIEW)
		return 0;
	if (strcmp(arg, "ranks") == 0)
		j->view = VIEW_RANKS;
	else if (strcmp(arg, "kinds") == 0)
		j->view = VIEW_KINDS;
	else if (strcmp(arg, "calls") == 0)
		j->view = VIEW_CALLS;
	else if (strcmp(arg, "advise") == 0)
		j->view = VIEW_ADVISE;
	else if (strcmp(arg, "a2a") == 0)
		j->view = VIEW_A2A;
	else if (strcmp(arg, "nodes") == 0)
		j->view = VIEW_NODES;
	else if (strcmp(arg, "waits") == 0)
		j->view = VIEW_WAITS;
	else
		return gp_cli_usage("comm", "--view wants ranks, kinds, calls, advise, a2a, nodes or waits, not '%s'",
				    arg);
	return 0;
}

int cmd_comm(int argc, char **argv)
{
	struct job j = {.view = VIEW_RANKS};
	struct gp_cli_many m = {.cmd = "comm", .fn = comm_trace, .ctx = &j, .cols = gp_coll_record_cols,
				.ncols = GP_COLL_RECORD_NCOLS, .reduce = comm_reduce};
	struct gp_cli_opts co;
	int rc;

	rc = gp_cli_parse(&comm_spec, argc, argv, &co, comm_option, &j);
	if (rc)
		return rc == GP_CLI_DONE ? GP_EXIT_OK : rc;
	j.table = strcmp(co.format, "table") == 0;
	j.top = co.top == SIZE_MAX ? (j.view == VIEW_WAITS ? SIZE_MAX : 20) : co.top;
	j.gpu = co.peaks.gpu;
	switch (j.view) {
	case VIEW_KINDS:
		m.out_cols = kind_cols, m.out_ncols = NCOL(kind_cols);
		break;
	case VIEW_CALLS:
		m.out_cols = call_cols, m.out_ncols = NCOL(call_cols);
		break;
	case VIEW_ADVISE:
		m.out_cols = advise_cols, m.out_ncols = NCOL(advise_cols);
		break;
	case VIEW_A2A:
		m.out_cols = a2a_cols, m.out_ncols = NCOL(a2a_cols);
		break;
	case VIEW_NODES:
		m.out_cols = node_cols, m.out_ncols = NCOL(node_cols);
		break;
	case VIEW_WAITS:
		m.out_cols = wait_cols, m.out_ncols = NCOL(wait_cols);
		break;
	default:
		m.out_cols = rank_cols, m.out_ncols = NCOL(rank_cols);
	}
	return gp_cli_run(&m, &co);
}
