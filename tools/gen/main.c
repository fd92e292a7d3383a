/*
** gpuprof-gen: writes a synthetic but schema-faithful trace for tests, the
** demo and benchmarks.  A tool of its own, not part of gpuprof: the workload
** is in model.c, one sink per format in nsys.c, nvprof.c and kineto.c;
** xplane.c writes JAX XPlane files of a workload of its own.
*/
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

static const char gen_help[] =
	"usage: gpuprof-gen --format nsys|nvprof|kineto|gprec -n KERNELS|--iters N [--seed S]\n"
	"                   [--streams K] [--noise F] [--inject LIST] [--force] -o FILE\n"
	"       gpuprof-gen --format kineto|nsys --ranks N [--slow-rank R --delay-us D]\n"
	"                   [--clock-skew-us S] [--iters I] [--force] -o DIR\n"
	"       gpuprof-gen --format nsys|gprec|kineto --graphs MODE [--force] -o FILE\n"
	"       gpuprof-gen --format kineto --lowprec GPU [--force] -o FILE\n"
	"       gpuprof-gen --format kineto|nsys --annot MODE [--force] -o FILE\n"
	"       gpuprof-gen --format xplane [--iters I] [--gpus G] [--force] -o FILE\n"
	"       gpuprof-gen --format xplane --ranks N [--iters I] [--gpus G] [--force] -o DIR\n\n"
	"Writes a synthetic trace of a small transformer's training loop, as the\n"
	"named tool would have exported it: NVTX iterations and `layer:` ranges,\n"
	"PyProf dict markers, emit_nvtx op markers with sequence numbers and shapes\n"
	"(forward on the main thread, backward on the autograd thread), GEMM and\n"
	"elementwise kernels, memcpy, memset, synchronizations, gradient all-reduce\n"
	"on a second stream.  The same seed always gives the same trace.\n\n"
	"  -f, --format F    nsys (Nsight Systems 2024.2 SQLite export), nvprof\n"
	"                    (nvprof SQLite, V100 names), kineto (PyTorch profiler\n"
	"                    JSON; gzip when FILE ends in .gz), gprec (a recording\n"
	"                    of gpuprof record, version 3), xplane (a JAX profile:\n"
	"                    see below)\n"
	"  -n, --kernels N   exactly N kernels (0 to 1000000000)\n"
	"  -s, --seed S      random seed (default 1)\n"
	"  -k, --streams K   CUDA streams, 1 to 16 (default 2): 2+ adds an all-reduce\n"
	"                    stream, 3+ a copy stream, more spread bias-gradient kernels\n"
	"  -i, --iters N     exactly N whole iterations (1 to 100000; with -n, stop\n"
	"                    at whichever comes first)\n"
	"      --noise F     kernel times vary by +-F (0 to 0.5, default 0.04)\n"
	"      --inject LIST changes for `gpuprof diff` and what-if tests,\n"
	"                    comma-separated:\n"
	"                    slow-op=OP:F (kernels inside op OP take F times as\n"
	"                    long), add-kernel=OP (each block's forward also runs\n"
	"                    op OP: one fp32->fp16 cast kernel), no-tc=KERNEL (the\n"
	"                    GEMM kernel of that short name runs as a SIMT GEMM\n"
	"                    without tensor cores, 4 times as long),\n"
	"                    dataloader=F (each iteration starts with the data\n"
	"                    loader's CPU time, F times the usual; 0 removes it),\n"
	"                    copies=pinned (host copies from pinned memory, async:\n"
	"                    the launching call no longer waits), autotune=US (a\n"
	"                    cudnnFind call of US microseconds before step 1's\n"
	"                    first GEMM), malloc=US (a cudaMalloc of US in steps\n"
	"                    1 and 3, before the first block's GELU); repeatable.  The\n"
	"                    same seed with and without a change gives the trace\n"
	"                    before and after it (gpuprof advise --what-if tests)\n"
	"  -o, --output FILE file to write; it must not exist\n"
	"      --force       replace FILE if it exists\n"
	"\nWith --ranks, the traces of an N-rank data-parallel job instead, one file per\n"
	"rank: DIR/rank-K.json (kineto, with distributedInfo) or DIR/rank-K.sqlite (nsys).\n"
	"Each iteration is three phases of a GEMM then an NCCL collective on its own\n"
	"stream (all-reduce of 64 MiB, all-gather and reduce-scatter of 8 MiB shards,\n"
	"fp16) with PyTorch's record_param_comms args.  The slow rank's GEMMs run D us\n"
	"longer, so it arrives last at every collective by exactly D us and every other\n"
	"rank waits D us; rank K's clock reads K x S us ahead.\n"
	"      --ranks N         ranks, 1 to 4096\n"
	"      --slow-rank R     the slow rank (default: none)\n"
	"      --delay-us D      its extra GEMM time per phase, us (default 0)\n"
	"      --clock-skew-us S rank K's clock offset is K x S us (default 0)\n"
	"      --iters I         iterations per rank, 1 to 100000 (default 5)\n"
	"      --deps            record what each piece of work waited for, as PyTorch's\n"
	"                        NCCL backend makes it wait: the collective's stream waits\n"
	"                        for the GEMM's (event record and stream wait), the next\n"
	"                        GEMM's for the collective's, and each step ends in a\n"
	"                        stream sync 5 us after its last collective (same times)\n"
	"      --a2a             an expert-parallel job instead (2 to 30 ranks): per\n"
	"                        iteration, passes F then B over layers 0 and 1, each a\n"
	"                        GEMM then dispatch and combine all-to-all-v (nccl\n"
	"                        SendRecv) under annotations layerL > dispatch(P), with\n"
	"                        record_param_comms split sizes: rank r sends 16(1+r+2p)\n"
	"                        rows of 2048 FP8 to rank p at dispatch, the reverse in\n"
	"                        BF16 at combine; group \"1\", Seq from 0 (ranks.c)\n"
	"      --a2a-hot P       with --a2a, every rank sends 8 times the rows to rank P\n"
	"                        at dispatch (a hot expert; combine sends them back)\n"
	"      --nodes K         the ranks spread over K hosts (node0, node1...; N/K\n"
	"                        each, in rank order), named in each trace, and each\n"
	"                        iteration ends in an intra-node all-reduce of 32 MiB\n"
	"                        fp16 at 256 GB/s algbw in group nodeK (ranks.c)\n"
	"\nWith --graphs MODE, a small inference server that captures CUDA graphs and\n"
	"replays them (several batch sizes, two streams, a capture never replayed, a\n"
	"replay never captured), with FILE.truth: per replayed kernel the attribution\n"
	"gpuprof should give (tools/gen/graphs.c).  nsys, gprec: MODE node or graph\n"
	"(as --cuda-graph-trace; gprec: CUPTI's graph node callbacks); kineto: MODE\n"
	"amd or cuda, the replay trace at FILE and the capture traces in\n"
	"capture_traces/ beside it, as vLLM writes them.\n"
	"      --graphs MODE     node, graph, eager (nsys, gprec); amd, cuda (kineto)\n"
	"\nWith --lowprec GPU, a Kineto trace of low-precision GEMMs whose kernels run at a\n"
	"known fraction of their element type's peak (tools/gen/lowprec.c): h100\n"
	"(_scaled_mm FP8, _scaled_grouped_mm FP8, _grouped_mm BF16) or b200 (_scaled_mm\n"
	"NVFP4).\n"
	"      --lowprec GPU     h100, b200\n"
	"\nWith --annot MODE, a trace whose layers, passes or serving steps come from\n"
	"user annotations alone (tools/gen/annot.c): passes (kineto, nsys: attn(F),\n"
	"mlp(B), mlp(W)... around kernels without ops) or serving (kineto: vLLM\n"
	"execute_context_... step markers, prefill, decode with a warm-up step, mixed).\n"
	"      --annot MODE      passes, serving\n"
	"\nWith --format xplane, the XPlane profile JAX writes (<host>.xplane.pb; gzip\n"
	"when FILE ends in .gz) of I steps (default 3) of jit_train_step on G H100s\n"
	"(default 2, up to 8): /device:GPU:N planes with CUPTI's device stats and\n"
	"streams (kernels with kernel_details, hlo_op, hlo_module and the JAX name\n"
	"stack; memcpy with memcpy_details), NCCL all-gather, all-to-all,\n"
	"reduce-scatter, all-reduce (one of them overlapped) and collective-permute on\n"
	"their own stream, /host:CPU with the train_step step marker (step_num), the\n"
	"XLA thunks and the CUDA driver calls (correlation_id).  The truth by\n"
	"construction goes to FILE.truth (tools/gen/xplane.c): kernel counts, busy\n"
	"time per HLO op, collective time and how much of it is exposed.  With\n"
	"--ranks N, N hosts running the same program: DIR/plugins/profile/<run>/\n"
	"host<K>.xplane.pb (1 to 64) and the truth in DIR/xplane.truth.\n"
	"      --gpus G          GPUs per host, 1 to 8 (default 2)\n"
	"  -h, --help        this text\n\n"
	"Exit codes:\n"
	"  0  success\n"
	"  1  internal error or out of memory\n"
	"  2  bad command line\n"
	"  3  cannot write the output\n";

/* Prints "gpuprof-gen: msg" for a usage error; returns GP_EXIT_USAGE. */
static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "gpuprof-gen: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n(see 'gpuprof-gen --help')\n");
	return GP_EXIT_USAGE;
}

static int parse_u64(const char *s, uint64_t max, uint64_t *v)
{
	char *end;

	if (!s || !*s || *s == '-')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || *end || *v > max ? -1 : 0;
}

/* --format xplane: checks what does not apply and runs gen_xplane_run();
** returns the exit code. */
static int xplane_main(const char *path, int steps, int gpus, const struct gen_rank_opts *ro, bool other_mode,
		       bool force)
{
	struct gen_xplane_opts xo = {.hosts = ro->ranks, .gpus = gpus, .steps = steps};
	gp_error err = {0};

	if (other_mode)
		return usage_error("--format xplane writes whole steps (--iters), not -n, --graphs, --lowprec or --annot");
	if (ro->slow_rank >= 0 || ro->delay_ns || ro->skew_ns || ro->deps || ro->a2a)
		return usage_error("--format xplane has no --slow-rank, --delay-us, --clock-skew-us, --deps or --a2a");
	if (ro->ranks > GEN_XPLANE_MAX_HOSTS)
		return usage_error("--format xplane wants --ranks 1 to %d", GEN_XPLANE_MAX_HOSTS);
	if (steps > GEN_XPLANE_MAX_STEPS)
		return usage_error("--format xplane wants --iters 1 to %d", GEN_XPLANE_MAX_STEPS);
	if (!path || !*path)
		return usage_error(ro->ranks ? "-o DIR is required" : "-o FILE is required");
	if (gen_xplane_run(path, &xo, force, &err)) {
		if (err.status == GP_ERR_USAGE)
			return usage_error("%s", err.msg);
		gp_err_print(&err);
		return gp_exit_code(err.status);
	}
	return GP_EXIT_OK;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"format", required_argument, NULL, 'f'},
		{"kernels", required_argument, NULL, 'n'},
		{"seed", required_argument, NULL, 's'},
		{"streams", required_argument, NULL, 'k'},
		{"output", required_argument, NULL, 'o'},
		{"force", no_argument, NULL, 'F'},
		{"ranks", required_argument, NULL, 'R'},
		{"slow-rank", required_argument, NULL, 'S'},
		{"delay-us", required_argument, NULL, 'D'},
		{"clock-skew-us", required_argument, NULL, 'C'},
		{"iters", required_argument, NULL, 'i'},
		{"deps", no_argument, NULL, 'P'},
		{"a2a", no_argument, NULL, 'A'},
		{"a2a-hot", required_argument, NULL, 'H'},
		{"nodes", required_argument, NULL, 'K'},
		{"noise", required_argument, NULL, 'N'},
		{"inject", required_argument, NULL, 'I'},
		{"graphs", required_argument, NULL, 'G'},
		{"lowprec", required_argument, NULL, 'L'},
		{"annot", required_argument, NULL, 'T'},
		{"gpus", required_argument, NULL, 'g'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	static const struct gen_writer *const writers[] = {
		&gen_writer_nsys, &gen_writer_nvprof, &gen_writer_kineto, &gen_writer_gprec, NULL,
	};
	struct gen_opts o = {.seed = 1, .streams = 2, .noise = 0.04};
	struct gen_rank_opts ro = {.slow_rank = -1, .iters = 5, .a2a_hot = -1};
	const struct gen_writer *w = NULL;
	const char *format = NULL, *path = NULL, *graphs = NULL, *lowprec = NULL, *annot = NULL;
	bool force = false, have_n = false, have_iters = false;
	int gpus = 0;
	struct gen_sink sink;
	gp_error err = {0};
	uint64_t v;
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "f:n:s:k:o:i:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			format = optarg;
			break;
		case 'n':
			if (parse_u64(optarg, 1000000000ULL, &o.kernels))
				return usage_error("--kernels wants a number from 0 to 1000000000, not '%s'", optarg);
			have_n = true;
			break;
		case 's':
			if (parse_u64(optarg, UINT64_MAX, &o.seed))
				return usage_error("--seed wants a non-negative integer, not '%s'", optarg);
			break;
		case 'k':
			if (parse_u64(optarg, GEN_MAX_STREAMS, &v) || v < 1)
				return usage_error("--streams wants 1 to %d, not '%s'", GEN_MAX_STREAMS, optarg);
			o.streams = (int)v;
			break;
		case 'o':
			path = optarg;
			break;
		case 'F':
			force = true;
			break;
		case 'R':
			if (parse_u64(optarg, GEN_MAX_RANKS, &v) || v < 1)
				return usage_error("--ranks wants 1 to %d, not '%s'", GEN_MAX_RANKS, optarg);
			ro.ranks = (int)v;
			break;
		case 'S':
			if (parse_u64(optarg, GEN_MAX_RANKS - 1, &v))
				return usage_error("--slow-rank wants a rank number, not '%s'", optarg);
			ro.slow_rank = (int)v;
			break;
		case 'D':
			if (parse_u64(optarg, 1000000000ULL, &v))
				return usage_error("--delay-us wants 0 to 1000000000, not '%s'", optarg);
			ro.delay_ns = (int64_t)v * 1000;
			break;
		case 'C':
			if (parse_u64(optarg, 1000000000ULL, &v))
				return usage_error("--clock-skew-us wants 0 to 1000000000, not '%s'", optarg);
			ro.skew_ns = (int64_t)v * 1000;
			break;
		case 'P':
			ro.deps = true;
			break;
		case 'A':
			ro.a2a = true;
			break;
		case 'H':
			if (parse_u64(optarg, GEN_MAX_RANKS - 1, &v))
				return usage_error("--a2a-hot wants a rank number, not '%s'", optarg);
			ro.a2a_hot = (int)v;
			break;
		case 'K':
			if (parse_u64(optarg, GEN_MAX_RANKS, &v) || v < 1)
				return usage_error("--nodes wants 1 to %d, not '%s'", GEN_MAX_RANKS, optarg);
			ro.nodes = (int)v;
			break;
		case 'i':
			/* whole iterations: of the one trace, or of each rank's */
			if (parse_u64(optarg, 100000, &v) || v < 1)
				return usage_error("--iters wants 1 to 100000, not '%s'", optarg);
			o.iters = ro.iters = (int)v;
			have_iters = true;
			break;
		case 'N':
			o.noise = strtod(optarg, &end);
			if (end == optarg || *end || !(o.noise >= 0 && o.noise <= 0.5))
				return usage_error("--noise wants 0 to 0.5, not '%s'", optarg);
			break;
		case 'I':
			if (gen_inject_parse(optarg, &o.inject, &err))
				return usage_error("%s", err.msg);
			break;
		case 'G':
			graphs = optarg;
			break;
		case 'L':
			lowprec = optarg;
			break;
		case 'T':
			annot = optarg;
			break;
		case 'g':
			if (parse_u64(optarg, GEN_XPLANE_MAX_GPUS, &v) || v < 1)
				return usage_error("--gpus wants 1 to %d, not '%s'", GEN_XPLANE_MAX_GPUS, optarg);
			gpus = (int)v;
			break;
		case 'h':
			fputs(gen_help, stdout);
			return GP_EXIT_OK;
		default:
			return usage_error("unknown option");
		}
	}
	if (optind < argc)
		return usage_error("unexpected argument '%s'", argv[optind]);
	if (!format)
		return usage_error("--format is required (nsys, nvprof, kineto, gprec or xplane)");
	if (strcmp(format, "xplane") == 0)
		return xplane_main(path, have_iters ? o.iters : 3, gpus ? gpus : 2, &ro,
				   have_n || graphs || lowprec || annot, force);
	if (gpus)
		return usage_error("--gpus is for --format xplane");
	for (int i = 0; writers[i]; i++)
		if (strcmp(writers[i]->name, format) == 0)
			w = writers[i];
	if (!w)
		return usage_error("unknown format '%s' (valid: nsys, nvprof, kineto, gprec, xplane)", format);
	if (annot) {
		if (!path || !*path)
			return usage_error("-o FILE is required");
		if (gen_annot_run(w, path, annot, force, &err)) {
			if (err.status == GP_ERR_USAGE)
				return usage_error("%s", err.msg);
			gp_err_print(&err);
			return gp_exit_code(err.status);
		}
		return GP_EXIT_OK;
	}
	if (lowprec) {
		if (!path || !*path)
			return usage_error("-o FILE is required");
		if (gen_lowprec_run(w, path, lowprec, force, &err)) {
			if (err.status == GP_ERR_USAGE)
				return usage_error("%s", err.msg);
			gp_err_print(&err);
			return gp_exit_code(err.status);
		}
		return GP_EXIT_OK;
	}
	if (graphs) {
		if (!path || !*path)
			return usage_error("-o FILE is required");
		if (gen_graphs_run(w, path, graphs, force, &err)) {
			if (err.status == GP_ERR_USAGE)
				return usage_error("%s", err.msg);
			gp_err_print(&err);
			return gp_exit_code(err.status);
		}
		return GP_EXIT_OK;
	}
	if (ro.ranks) {
		if (w == &gen_writer_nvprof)
			return usage_error("--ranks writes kineto or nsys traces, not nvprof");
		if (ro.a2a && (ro.ranks < 2 || ro.ranks > 30 || ro.deps))
			return usage_error("--a2a wants --ranks 2 to 30 and no --deps");
		if (ro.nodes && (ro.a2a || ro.deps || ro.ranks % ro.nodes))
			return usage_error("--nodes wants a divisor of --ranks, and no --a2a or --deps");
		if (ro.a2a_hot >= 0 && (!ro.a2a || ro.a2a_hot >= ro.ranks))
			return usage_error("--a2a-hot wants --a2a and a rank below --ranks");
		if (ro.slow_rank >= ro.ranks)
			return usage_error("--slow-rank %d is not below --ranks %d", ro.slow_rank, ro.ranks);
		if (!path || !*path)
			return usage_error("-o DIR is required");
		if (gen_ranks_run(w, path, force, &ro, &err)) {
			gp_err_print(&err);
			return gp_exit_code(err.status);
		}
		return GP_EXIT_OK;
	}
	if (!have_n && !o.iters)
		return usage_error("-n KERNELS or --iters N is required");
	if (!have_n)
		o.kernels = UINT64_MAX;
	if (!path || !*path)
		return usage_error("-o FILE is required");
	/* nvprof cannot profile Ampere: its traces come from Volta */
	o.sm70 = w == &gen_writer_nvprof;
	if (w->open(path, force, &o, &sink, &err)) {
		gp_err_print(&err);
		return gp_exit_code(err.status);
	}
	gen_model_run(&o, &sink);
	if (w->finish(&sink, &err)) {
		gp_err_print(&err);
		return gp_exit_code(err.status);
	}
	return GP_EXIT_OK;
}
