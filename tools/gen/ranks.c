/*
** `gpuprof-gen --ranks N`: the traces of an N-rank data-parallel job, one
** file per rank, told through the format's sink (gen.h): Kineto or nsys
** (whose NVTX ranges carry the op names but not the collective args).  Every rank runs
** the same iterations; each iteration is three phases of a GEMM on the
** compute stream then a collective on the communication stream (NCCL
** all-reduce, all-gather, reduce-scatter), launched from
** c10d:: > record_param_comms (with PyTorch's collective args: Seq,
** Collective name, In/Out msg nelems, Group size, dtype, Process Group
** Name) > nccl:* ranges.
**
** The timeline is exact so tests can check to the nanosecond: on the true
** clock every rank starts a phase's GEMM at the same instant; the slow
** rank's GEMM lasts delay_ns longer, so it starts the collective (arrives)
** delay_ns after the others; the collective ends at the same instant on
** every rank, its pure communication time (from the last arrival) being
** bytes / ALGBW.  Each rank writes its times on a clock r x skew_ns ahead.
**
** With deps (--deps), the trace also records why each piece of work waited,
** as PyTorch's NCCL backend makes it wait: the collective's stream waits
** for the GEMM's (cudaEventRecord + cudaStreamWaitEvent), the next GEMM's
** stream for the collective's, and each step ends in a
** cudaStreamSynchronize of the communication stream that returns 5 us
** after the last collective ends.  The times stay as without.
**
** With nodes (--nodes K), rank r runs on host "node<r / (N/K)>" (the
** trace says so: Kineto's host_name, nsys's Hostname) and each iteration
** ends in a fourth phase: a GEMM then an all-reduce of INTRA_NELEMS fp16
** within the node (process group "node<k>", Group size N/K, Seq from 0),
** at INTRA_BYTES_PER_NS algbw from the node's last arrival, the node's
** slowest rank being the slow rank only on its node; the three phases
** above, over all ranks, cross nodes.
**
** With a2a (--a2a), an expert-parallel job instead: per iteration, pass F
** over layers 0 then 1, pass B over layers 1 then 0; per layer a GEMM then
** dispatch and combine (B: combine then dispatch), each a GEMM then an
** all-to-all-v (NCCL SendRecv kernel) launched from
** layerL > dispatch(P) > c10d::alltoall_base_ > record_param_comms (Seq
** from 0 in process group "1" of all ranks, "all_to_allv", In/Out split
** size in rows, In/Out msg nelems, dtype) > nccl:all_to_all.  At dispatch
** rank r sends a2a_rows(r, p) = 16 (1 + r + 2p) rows of A2A_ROW_NELEMS
** FP8 (Float8_e4m3fn, 1 byte) to rank p (8 times that when p is the hot
** rank, --a2a-hot); at combine each rank sends back
** the rows it received, in BF16 (2 bytes), as DeepEP does.  A call's pure
** communication is the largest rank's input over A2A_BYTES_PER_NS; the
** slow rank arrives last by delay_ns as above.
*/
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "gen.h"

#define US 1000LL
#define ORIGIN_NS 1000000000LL      /* the true clock's first iteration */
#define GEMM_NS (400 * US)           /* a phase's GEMM on a rank that is not slow */
#define ALGBW_BYTES_PER_NS 128       /* all-reduce: 128 GB/s algbw */
#define GATHER_BYTES_PER_NS 64       /* all-gather, reduce-scatter: 64 GB/s */
#define SHARD_NELEMS 4194304LL       /* all-gather's per-rank input, fp16 */
#define ALLREDUCE_NELEMS 33554432LL  /* fp16: 64 MiB */

#define INTRA_NELEMS 16777216LL     /* intra-node all-reduce: 32 MiB fp16 */
#define INTRA_BYTES_PER_NS 256       /* at 256 GB/s algbw */

#define A2A_ROW_NELEMS 2048LL       /* a token's hidden state */
#define A2A_BYTES_PER_NS 64          /* all-to-all: 64 GB/s over the largest input */

enum { PH_ALL_REDUCE, PH_ALL_GATHER, PH_REDUCE_SCATTER, PH__COUNT };

static const struct {
	const char *op, *annot, *coll_name;
} phases[PH__COUNT] = {
	{"c10d::allreduce_", "nccl:all_reduce", "allreduce"},
	{"c10d::_allgather_base_", "nccl:_all_gather_base", "_allgather_base"},
	{"c10d::_reduce_scatter_base_", "nccl:_reduce_scatter_base", "_reduce_scatter_base"},
};

/* The element counts of phase p's collective in a job of n ranks and the
** nanoseconds of its pure communication (nccl-tests' size / algbw). */
static void phase_size(int p, int n, int64_t *in, int64_t *out, int64_t *comm_ns)
{
	int64_t bytes;

	if (p == PH_ALL_REDUCE) {
		*in = *out = ALLREDUCE_NELEMS;
		*comm_ns = ALLREDUCE_NELEMS * 2 / ALGBW_BYTES_PER_NS;
		return;
	}
	/* all-gather: shard in, n shards out; reduce-scatter the reverse */
	*in = p == PH_ALL_GATHER ? SHARD_NELEMS : SHARD_NELEMS * n;
	*out = p == PH_ALL_GATHER ? SHARD_NELEMS * n : SHARD_NELEMS;
	bytes = SHARD_NELEMS * n * 2;
	*comm_ns = bytes / GATHER_BYTES_PER_NS;
}

/* State of the rank being written. */
struct rank_run {
	const struct gen_rank_opts *ro;
	const struct gen_sink *sink;
	int rank;
	int64_t shift;          /* this rank's clock minus the true clock */
	uint64_t corr, op_id, seq, node_seq;
	uint32_t event_id;
};

static void range(struct rank_run *x, enum gen_range_kind kind, const char *name, int64_t start,
		  int64_t end, uint64_t op_id, const char *more)
{
	struct gen_range r = {.start = start + x->shift, .end = end + x->shift, .thr = GEN_THR_MAIN,
			      .kind = kind, .text = name, .name = name, .seq = -1, .op_id = op_id,
			      .more_args = more};
	x->sink->range(x->sink->ctx, &r);
}

/* cudaLaunchKernel at cpu (true clock) of kernel kd on stream index si
** from gpu_start to gpu_end, inside op ext. */
static void launch(struct rank_run *x, int64_t cpu, int kd, int si, int64_t gpu_start, int64_t gpu_end,
		   uint64_t ext)
{
	uint64_t corr = ++x->corr;
	struct gen_api a = {.start = cpu + x->shift, .end = cpu + 8 * US + x->shift, .thr = GEN_THR_MAIN,
			    .api = GEN_API_LAUNCH, .corr = corr, .ext = ext};
	struct gen_kernel k = {.start = gpu_start + x->shift, .end = gpu_end + x->shift, .kdef = kd,
			       .stream = gen_stream_id(si), .corr = corr, .ext = ext,
			       .grid = {32, 1, 1}, .block = {512, 1, 1}};

	x->sink->api(x->sink->ctx, &a);
	x->sink->kernel(x->sink->ctx, &k);
}

/* A CUDA runtime call id from cpu to end (true clock) with correlation
** corr, on the main thread. */
static void call(struct rank_run *x, enum gen_api_id id, int64_t cpu, int64_t end, uint64_t corr)
{
	struct gen_api a = {.start = cpu + x->shift, .end = end + x->shift, .thr = GEN_THR_MAIN, .api = id,
			    .corr = corr};

	x->sink->api(x->sink->ctx, &a);
}

/* cudaEventRecord on stream index from at cpu, then cudaStreamWaitEvent
** of stream index to on it: 6 us of CPU (true clock). */
static void stream_wait(struct rank_run *x, int64_t cpu, int from, int to)
{
	struct gen_sync y = {.type = 2, .event_id = ++x->event_id, .record_corr = ++x->corr,
			     .record_stream = gen_stream_id(from), .stream = gen_stream_id(to)};

	call(x, GEN_API_EVENT_RECORD, cpu, cpu + 2 * US, y.record_corr);
	y.corr = ++x->corr;
	y.start = cpu + 3 * US + x->shift;
	y.end = cpu + 5 * US + x->shift;
	call(x, GEN_API_STREAM_WAIT_EVENT, cpu + 3 * US, cpu + 5 * US, y.corr);
	x->sink->sync(x->sink->ctx, &y);
}

/* cudaStreamSynchronize of stream index si from cpu to end (true clock). */
static void stream_sync(struct rank_run *x, int64_t cpu, int64_t end, int si)
{
	struct gen_sync y = {.type = 3, .event_id = 0xffffffffu, .corr = ++x->corr, .stream = gen_stream_id(si),
			     .start = cpu + x->shift, .end = end + x->shift};

	call(x, GEN_API_STREAM_SYNC, cpu, end, y.corr);
	x->sink->sync(x->sink->ctx, &y);
}

/* One iteration from t (true clock); returns when the next may start. */
static int64_t iteration(struct rank_run *x, int it, int64_t t)
{
	const struct gen_rank_opts *ro = x->ro;
	int64_t cpu = t + 20 * US, gpu = t + 1000 * US;
	char step[32];

	for (int p = 0; p < PH__COUNT; p++, cpu += 100 * US) {
		int64_t in, out, comm, gemm = GEMM_NS + (x->rank == ro->slow_rank ? ro->delay_ns : 0);
		int64_t slowest = GEMM_NS + (ro->slow_rank >= 0 ? ro->delay_ns : 0);
		uint64_t mm = ++x->op_id, coll = ++x->op_id, params = ++x->op_id;
		char args[512];

		phase_size(p, ro->ranks, &in, &out, &comm);
		range(x, GEN_R_OP, "aten::mm", cpu, cpu + 30 * US, mm, NULL);
		launch(x, cpu + 10 * US, gen_kd_gemm, 0, gpu, gpu + gemm, mm);
		if (ro->deps)   /* the collective waits for the GEMM */
			stream_wait(x, cpu + 32 * US, 0, 1);
		snprintf(args, sizeof(args),
			 "\"Seq\": %" PRIu64 ", \"Collective name\": \"%s\", \"In msg nelems\": %" PRId64
			 ", \"Out msg nelems\": %" PRId64 ", \"Group size\": %d, \"dtype\": \"Half\", "
			 "\"Process Group Name\": \"0\", \"Process Group Description\": \"default_pg\"",
			 x->seq++, phases[p].coll_name, in, out, ro->ranks);
		range(x, GEN_R_OP, phases[p].op, cpu + 40 * US, cpu + 90 * US, coll, NULL);
		range(x, GEN_R_OP, "record_param_comms", cpu + 42 * US, cpu + 88 * US, params, args);
		range(x, GEN_R_ANNOT, phases[p].annot, cpu + 44 * US, cpu + 86 * US, 0, NULL);
		/* arrives when its GEMM ends; ends when the last arrival's data has gone round */
		launch(x, cpu + 50 * US, gen_kd_coll[p], 1, gpu + gemm, gpu + slowest + comm, params);
		if (ro->deps)   /* the next GEMM waits for the collective */
			stream_wait(x, cpu + 92 * US, 1, 0);
		gpu += slowest + comm + 10 * US;
	}
	if (ro->nodes > 0) {   /* the intra-node all-reduce */
		int per = ro->ranks / ro->nodes, node = x->rank / per;
		bool slow_here = ro->slow_rank >= 0 && ro->slow_rank / per == node;
		int64_t gemm = GEMM_NS + (x->rank == ro->slow_rank ? ro->delay_ns : 0);
		int64_t node_slowest = GEMM_NS + (slow_here ? ro->delay_ns : 0);
		int64_t slowest = GEMM_NS + (ro->slow_rank >= 0 ? ro->delay_ns : 0);
		int64_t comm = INTRA_NELEMS * 2 / INTRA_BYTES_PER_NS;
		uint64_t mm = ++x->op_id, coll = ++x->op_id, params = ++x->op_id;
		char args[512];

		range(x, GEN_R_OP, "aten::mm", cpu, cpu + 30 * US, mm, NULL);
		launch(x, cpu + 10 * US, gen_kd_gemm, 0, gpu, gpu + gemm, mm);
		snprintf(args, sizeof(args),
			 "\"Seq\": %" PRIu64 ", \"Collective name\": \"allreduce\", \"In msg nelems\": %lld"
			 ", \"Out msg nelems\": %lld, \"Group size\": %d, \"dtype\": \"Half\", "
			 "\"Process Group Name\": \"node%d\", \"Process Group Description\": \"intra_node\"",
			 x->node_seq++, INTRA_NELEMS, INTRA_NELEMS, per, node);
		range(x, GEN_R_OP, phases[PH_ALL_REDUCE].op, cpu + 40 * US, cpu + 90 * US, coll, NULL);
		range(x, GEN_R_OP, "record_param_comms", cpu + 42 * US, cpu + 88 * US, params, args);
		range(x, GEN_R_ANNOT, phases[PH_ALL_REDUCE].annot, cpu + 44 * US, cpu + 86 * US, 0, NULL);
		launch(x, cpu + 50 * US, gen_kd_coll[PH_ALL_REDUCE], 1, gpu + gemm, gpu + node_slowest + comm, params);
		gpu += slowest + comm + 10 * US;
		cpu += 100 * US;
	}
	if (ro->deps)   /* the step ends when the last collective has */
		stream_sync(x, cpu, gpu - 5 * US, 1);
	snprintf(step, sizeof(step), "ProfilerStep#%d", it);
	range(x, GEN_R_ANNOT, step, t, gpu, 0, NULL);
	return gpu + 100 * US;
}

/* Rows rank r sends to rank p at dispatch (at combine: a2a_rows(p, r)),
** 8 times as many to the hot rank (--a2a-hot; -1 = none). */
static int64_t a2a_rows(int r, int p, int hot)
{
	return 16 * (1 + r + 2 * (int64_t)p) * (p == hot ? 8 : 1);
}

/* The record_param_comms args of rank r's all-to-all-v (combine: the
** reverse of dispatch) with sequence number seq, into buf; the rows it
** sends into *sent and the largest any rank sends into *largest. */
static void a2a_args(int r, int n, int hot, bool combine, uint64_t seq, char *buf, size_t size, int64_t *sent,
		     int64_t *largest)
{
	char in[512] = "", out[512] = "", ranks[512] = "";
	int64_t recv = 0;
	size_t li = 0, lo = 0, lr = 0;

	*sent = *largest = 0;
	for (int q = 0; q < n; q++) {
		int64_t s = 0;
		for (int p = 0; p < n; p++)
			s += combine ? a2a_rows(p, q, hot) : a2a_rows(q, p, hot);
		if (s > *largest)
			*largest = s;
	}
	for (int p = 0; p < n; p++) {
		int64_t s = combine ? a2a_rows(p, r, hot) : a2a_rows(r, p, hot);
		int64_t g = combine ? a2a_rows(r, p, hot) : a2a_rows(p, r, hot);
		*sent += s;
		recv += g;
		li += (size_t)snprintf(in + li, sizeof(in) - li, "%s%" PRId64, p ? ", " : "", s);
		lo += (size_t)snprintf(out + lo, sizeof(out) - lo, "%s%" PRId64, p ? ", " : "", g);
		lr += (size_t)snprintf(ranks + lr, sizeof(ranks) - lr, "%s%d", p ? ", " : "", p);
	}
	snprintf(buf, size,
		 "\"Seq\": %" PRIu64 ", \"Collective name\": \"all_to_allv\", \"In msg nelems\": %" PRId64
		 ", \"Out msg nelems\": %" PRId64 ", \"Group size\": %d, \"dtype\": \"%s\", "
		 "\"In split size\": \"[%s]\", \"Out split size\": \"[%s]\", "
		 "\"Process Group Name\": \"1\", \"Process Group Description\": \"ep\", "
		 "\"Process Group Ranks\": \"[%s]\"",
		 seq, (int64_t)(*sent * A2A_ROW_NELEMS), (int64_t)(recv * A2A_ROW_NELEMS), n,
		 combine ? "BFloat16" : "Float8_e4m3fn", in, out, ranks);
}

/* One expert-parallel iteration from t (true clock; the file's comment);
** returns when the next may start. */
static int64_t iteration_a2a(struct rank_run *x, int it, int64_t t)
{
	const struct gen_rank_opts *ro = x->ro;
	int64_t cpu = t + 20 * US, gpu = t + 1000 * US;
	char step[32];

	for (int pass = 0; pass < 2; pass++)
		for (int li = 0; li < 2; li++, cpu += 200 * US) {
			int layer = pass ? 1 - li : li;
			char lname[16];
			snprintf(lname, sizeof(lname), "layer%d", layer);
			range(x, GEN_R_ANNOT, lname, cpu, cpu + 199 * US, 0, NULL);
			for (int ph = 0; ph < 2; ph++) {
				int64_t c = cpu + ph * 100 * US, sent, largest;
				int64_t gemm = GEMM_NS + (x->rank == ro->slow_rank ? ro->delay_ns : 0);
				int64_t slowest = GEMM_NS + (ro->slow_rank >= 0 ? ro->delay_ns : 0);
				bool combine = (ph == 1) != (pass == 1);
				uint64_t mm = ++x->op_id, coll = ++x->op_id, params = ++x->op_id;
				char args[2048], aname[32];
				int64_t comm;

				a2a_args(x->rank, ro->ranks, ro->a2a_hot, combine, x->seq++, args, sizeof(args), &sent, &largest);
				comm = largest * A2A_ROW_NELEMS * (combine ? 2 : 1) / A2A_BYTES_PER_NS;
				snprintf(aname, sizeof(aname), "%s(%c)", combine ? "combine" : "dispatch", pass ? 'B' : 'F');
				range(x, GEN_R_OP, "aten::mm", c, c + 30 * US, mm, NULL);
				launch(x, c + 10 * US, gen_kd_gemm, 0, gpu, gpu + gemm, mm);
				range(x, GEN_R_ANNOT, aname, c + 38 * US, c + 92 * US, 0, NULL);
				range(x, GEN_R_OP, "c10d::alltoall_base_", c + 40 * US, c + 90 * US, coll, NULL);
				range(x, GEN_R_OP, "record_param_comms", c + 42 * US, c + 88 * US, params, args);
				range(x, GEN_R_ANNOT, "nccl:all_to_all", c + 44 * US, c + 86 * US, 0, NULL);
				launch(x, c + 50 * US, gen_kd_a2a, 1, gpu + gemm, gpu + slowest + comm, params);
				gpu += slowest + comm + 10 * US;
			}
		}
	snprintf(step, sizeof(step), "ProfilerStep#%d", it);
	range(x, GEN_R_ANNOT, step, t, gpu, 0, NULL);
	return gpu + 100 * US;
}

int gen_ranks_run(const struct gen_writer *w, const char *dir, bool force, const struct gen_rank_opts *ro,
		  gp_error *err)
{
	const char *ext = strcmp(w->name, "kineto") == 0 ? "json" : "sqlite";

	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		return gp_err(err, GP_ERR_IO, "%s: cannot create the directory: %s", dir, strerror(errno));
	for (int r = 0; r < ro->ranks; r++) {
		struct gen_opts o = {.seed = (uint64_t)r + 1, .streams = 2, .rank = r, .world_size = ro->ranks};
		char host[32];
		struct rank_run x = {.ro = ro, .rank = r, .shift = r * ro->skew_ns};
		struct gen_sink sink;
		char path[4096];
		int64_t t = ORIGIN_NS;

		if ((size_t)snprintf(path, sizeof(path), "%s/rank-%d.%s", dir, r, ext) >= sizeof(path))
			return gp_err(err, GP_ERR_USAGE, "%s: directory name too long", dir);
		if (ro->nodes > 0) {
			snprintf(host, sizeof(host), "node%d", r / (ro->ranks / ro->nodes));
			o.host = host;
		}
		if (w->open(path, force, &o, &sink, err))
			return err->status;
		x.sink = &sink;
		for (int it = 0; it < ro->iters; it++)
			t = ro->a2a ? iteration_a2a(&x, it, t) : iteration(&x, it, t);
		if (w->finish(&sink, err))
			return err->status;
	}
	return GP_OK;
}
