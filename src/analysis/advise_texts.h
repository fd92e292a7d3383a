/*
** The texts of advise's findings, one group per rule (docs/op-model.md,
** "advise").  Titles and evidence are printf formats, kept as macros so
** that the compiler checks the arguments each rule passes; changes are the
** advice itself.  Changing what advise says is an edit here, not in the
** rules.
**
** Ownership: string literals only.
*/
#ifndef GP_ADVISE_TEXTS_H
#define GP_ADVISE_TEXTS_H

#include <inttypes.h>

#define TC_TITLE "%zu tensor-core-eligible %s kernels ran on CUDA cores"
#define TC_CHANGE_PAD                                                                      \
	"Tensor cores need GEMM/conv dimensions that are multiples of %d for %s: pad %s "  \
	"(vocabulary, hidden size, channels, batch x sequence)."
#define TC_CHANGE_LAYOUT                                                                   \
	"The dimensions are multiples of %d; check the layout (channels_last for "         \
	"convolutions), set torch.backends.cudnn.benchmark = True, and update cuBLAS/cuDNN."

#define FP32_TITLE "%zu fp32 GEMM/convolution kernels run on CUDA cores"
#define FP32_CHANGE_TF32                                                                   \
	"Allow TF32 (torch.backends.cuda.matmul.allow_tf32 = True, or "                   \
	"torch.set_float32_matmul_precision('high'); cuDNN convolutions use TF32 by "     \
	"default) or train in mixed precision (torch.autocast('cuda', dtype=torch.bfloat16))."
#define FP32_CHANGE_AMP                                                                    \
	"Train in mixed precision: torch.autocast('cuda', dtype=torch.float16) with "      \
	"torch.cuda.amp.GradScaler (this GPU%s has fp16 tensor cores but no TF32)."
#define FP32_UNKNOWN_GPU ", if it is pre-Ampere,"

#define ROOF_TITLE "%zu kernel%s with a large share of GPU time run%s under %.0f%% of their roofline"
#define ROOF_EVIDENCE "; the longest: %s %s, %.0f GFLOP/s, %.0f GB/s, %.1f%% of its %s-bound ideal"
#define ROOF_CHANGE_COMPUTE                                                                \
	"Compute-bound op far from peak: use tensor cores (fp16/bf16/TF32), larger or "    \
	"aligned GEMM shapes, and check for split-K or tiny tiles in the kernel choice."
#define ROOF_CHANGE_MEMORY                                                                 \
	"Memory-bound op far from bandwidth: fuse it with its neighbours (torch.compile, " \
	"fused optimizers/norms), avoid non-contiguous inputs and small-element strided access."
#define ROOF_CHANGE_FUSED_ATTENTION                                                        \
	"Already a fused attention kernel: check that head dim and sequence lengths are "  \
	"multiples of 8 (16 for fp8), that the fastest SDPA backend was chosen "            \
	"(flash/cuDNN over efficient/math), and that batches are not padded to long lengths."
#define ROOF_CHANGE_ATTENTION_DONE                                                         \
	"Already the flash/cuDNN attention kernel, with dims that are multiples of %d "    \
	"(%s): backend and alignment are right.  What is left is the kernel at these "     \
	"shapes: do not pad batches to long lengths (pack them: flash_attn_varlen_func, "  \
	"nested tensors), and few heads or short sequences leave SMs idle (a larger batch)."
#define ROOF_CHANGE_ATTENTION_PAD                                                          \
	"Pad %s: attention kernels tile head dim and sequence lengths in multiples of %d."
#define ROOF_CHANGE_ATTENTION_ALIGNED                                                      \
	"Head dim and sequence lengths are multiples of %d (%s); check that the fastest "  \
	"SDPA backend ran (flash/cuDNN over efficient/math: torch.nn.attention.sdpa_kernel) " \
	"and that batches are not padded to long lengths."
#define ROOF_CHANGE_ATTENTION_BACKEND                                                      \
	"The kernel (%.80s) is the memory-efficient backend, not flash or cuDNN: check why " \
	"(torch.nn.attention.sdpa_kernel, attn_implementation=\"flash_attention_2\"; flash " \
	"needs fp16/bf16, a head dim it supports and no arbitrary attention mask)."

#define COMM_TITLE "communication is exposed %s: %.0f%% of it runs with no compute beside it"
#define COMM_EVIDENCE "; communication runs %s in all (union per device), %s of it hidden behind compute"
/* the SMs its kernels hold while compute runs (commover.h) */
#define COMM_SMS_EVIDENCE "; while compute runs, communication kernels hold %.1f of the %d SMs (their blocks, " \
	"time-weighted over %s): compute runs on the rest"
#define COMM_CHANGE \
	"Overlap communication with compute: launch collectives asynchronously on their own "   \
	"stream and wait for them as late as possible; in DDP let gradient buckets "            \
	"(bucket_cap_mb) all-reduce during backward; in FSDP enable forward/backward "          \
	"prefetch; check the exposed part for a straggling rank (the collective waits for it)."

/* The idle-time findings, one per cause of the dependency chain
** (docs/dependencies.md): a title with the idle time, its share of the GPU
** span and the gaps; the evidence names what held the work (the op, call,
** range or Python frame) and the largest gaps with their chains. */
#define IDLE_CAUSE_TITLE "%s: the GPU sat idle %s (%.1f%% of the GPU span) in %zu gap%s"
#define IDLE_CAUSE_TOP "%s%.160s %s"
#define IDLE_CAUSE_TOP_LEAD "in the %zu longest of them: "

#define LARGEST_GAPS "the largest gaps (at: from the trace start):"
#define LARGEST_GAP "%s %s at %s (%.300s)"
#define LARGEST_GAP_UNKNOWN "nothing recorded explains it"

#define CPU_WHAT "the CPU issuing work (framework ops' own time and their launch calls)"
#define CPU_CHANGE                                                                          	"The step is CPU-bound: the framework's per-op CPU cost (dispatch, launch) exceeds "  	"the GPU work it issues.  Capture the step in a CUDA graph "                          	"(torch.compile(mode='reduce-overhead'), torch.cuda.graphs), fuse ops with "          	"torch.compile, or give each op more work (a larger batch)."

#define CPU_CHANGE_LONG_OPS                                                                 \
	"Most of this time (%s) is op calls that each held the CPU %.0f ms or more: work on "   \
	"the host, not the per-op dispatch and launch cost that CUDA graphs remove.  See what " \
	"these ops do there: a first call autotunes or allocates (cuDNN benchmark, "            \
	"workspaces: profile after warm-up steps), an op on CPU tensors (a sampler's "           \
	"randperm, indexing, data preparation) belongs in the data loader or ahead of the step."

#define LAUNCH_WHAT "launch and queue latency between back-to-back GPU work"
#define LAUNCH_EVIDENCE "%.1f us per gap on average: %s after launch calls returned, %s between kernels queued on one stream"
#define LAUNCH_CHANGE                                                                       	"Remove the per-kernel launch latency: CUDA graphs (torch.compile(mode='reduce-overhead'), " 	"torch.cuda.graphs) replay the step without it, and torch.compile fuses small kernels "  	"into fewer; fused or foreach optimizers do the same for the optimizer step."

#define SYNC_WHAT "host synchronization (the launching thread waited for the GPU)"
#define SYNC_CHANGE                                                                        	"Remove synchronizations from the loop: .item(), .cpu(), .tolist(), print(tensor), " 	"torch.cuda.synchronize(), blocking copies; accumulate metrics on the GPU and read them " 	"every N steps; use non_blocking=True copies from pinned memory."

#define LOADER_WHAT "data loading"
#define LOADER_CHANGE                                                                       	"Load data ahead of the GPU: DataLoader(num_workers > 0, pin_memory=True, "           	"prefetch_factor, persistent_workers=True); move decoding and augmentation into the " 	"workers or onto the GPU (DALI), and check that storage keeps up."

#define PYTHON_WHAT "Python code outside framework ops"
#define PYTHON_CHANGE                                                                       	"Move this Python work out of the step or off its critical path: precompute it, "     	"vectorize it with tensor ops, or run it in a worker while the GPU works; the frames " 	"above say where it is."
#define PYTHON_CHANGE_INDUCTOR                                                             \
	"Most of this host time is Inductor's generated wrapper (the `call` of a "             \
	"torchinductor module), which launches the compiled kernels one by one from Python: " \
	"torch.compile(mode='reduce-overhead') replays them as CUDA graphs without it; "       \
	"torch._inductor.config.size_asserts = False (TORCHINDUCTOR_SIZE_ASSERTS=0) drops its " \
	"assert_size_stride checks."

#define COMM_WAIT_WHAT "the CPU waiting on collectives (Work.wait, c10d::wait, wait_tensor)"
#define COMM_WAIT_CHANGE \
	"The host blocks until a collective ends while the GPU has nothing queued: wait later " \
	"(launch the collective with async_op=True and wait only where its result is read), " \
	"queue the next independent work before the wait, or let the stream wait instead of " \
	"the CPU (work.wait() without blocking wait; see comm for the collective's own time)."

#define USER_WHAT "code inside your own ranges, outside framework ops"
#define USER_CHANGE                                                                         	"The code inside these ranges (record_function / NVTX) runs while the GPU waits: "    	"move it out of the step, overlap it with GPU work, or make it cheaper."

#define ALLOC_WHAT "the CUDA allocator (cudaMalloc, cudaFree, host allocation)"
#define ALLOC_CHANGE                                                                        	"cudaMalloc/cudaFree synchronize the device: let PyTorch's caching allocator reuse "  	"memory (no torch.cuda.empty_cache() in the loop, fixed shapes or length buckets, "   	"buffers allocated once), set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True, and " 	"profile after warm-up steps."

#define JIT_WHAT "one-time cost: compiling GPU code (on any thread)"
#define JIT_CHANGE                                                                          \
	"A one-time cost, paid once per process and not every step: profile a later step, or " \
	"warm up before the profiler starts (torch.profiler schedule with wait and warmup); "  \
	"keep compiled code across runs (TORCHINDUCTOR_CACHE_DIR, the Triton and NVRTC "       \
	"caches)."

#define AUTOTUNE_WHAT "one-time cost: autotuning (cuDNN/cuBLASLt algorithm search, Triton's autotuner)"
#define AUTOTUNE_CHANGE                                                                     \
	"A one-time cost, paid once per shape and not every step: profile a later step, or "   \
	"warm up before the profiler starts (torch.profiler schedule with wait and warmup); "  \
	"keep the results across runs (max-autotune caches), or fix the input shapes so each " \
	"is tuned once."

/* cudnn.benchmark's trial runs (the op model's trial kernels) */
#define TRIALS_TITLE                                                                        \
	"one-time cost: autotuning trials (cudnn.benchmark): %zu kernel%s ran %s (%.1f%% of GPU " \
	"time) trying algorithms"
#define TRIALS_MORE "; and %zu trial kernel%s (cudnn.benchmark) ran %s trying algorithms"

#define FIRST_ALLOC_WHAT "one-time cost: warm-up allocation (cudaMalloc and the like in the first step)"
#define FIRST_ALLOC_CHANGE                                                                  \
	"A one-time cost, paid while the caching allocator fills up in the first step: "       \
	"profile a later step, or warm up before the profiler starts (torch.profiler "         \
	"schedule with wait and warmup)."

#define MODULE_WHAT "one-time cost: loading GPU code (module and library loads, lazy loading)"
#define MODULE_CHANGE                                                                       \
	"A one-time cost, paid once per process and not every step: profile a later step, or " \
	"warm up before the profiler starts; CUDA_MODULE_LOADING=EAGER loads every module at " \
	"start-up instead of at a kernel's first launch."

#define CAPTURE_WHAT "one-time cost: capturing CUDA/HIP graphs (captured work does not run)"
#define CAPTURE_CHANGE                                                                      \
	"A one-time cost, paid once when the graphs are captured and not every step: profile " \
	"a later step, or warm up (capture) before the profiler starts."

#define API_WHAT "other CUDA calls (stream and event creation, device queries)"
#define API_CHANGE                                                                          	"Create streams, events and handles once, outside the step, and avoid device queries " 	"in the loop; the first CUDA call of a process creates its context (one-time)."

#define EVENT_WHAT "work on other streams or devices (event waits)"
#define EVENT_CHANGE                                                                        	"The work after these gaps waited for an event on another stream or device: start "   	"the producing work earlier, or wait for it later (cudaStreamWaitEvent just before "   	"its result is needed)."

#define UNTRACED_WHAT "code the profiler did not record on the launching thread"
#define UNTRACED_CHANGE                                                                     	"Record what the CPU does there: torch.profiler(with_stack=True) for Python frames, " 	"record_function or NVTX ranges around your own code, or nsys with "                  	"--python-sampling=true; gpuprof then names the cause."

#define COVER_TITLE "what the trace cannot tell: %s"
#define COVER_OPS "%.0f%% of GPU time has no known op"
#define COVER_IDLE "%.0f%% of idle time has no known cause"
#define COVER_EVIDENCE_NOLAUNCH "%s of kernel time whose launch is not in the trace (launched before it started)"
#define COVER_EVIDENCE_NOOP "%s of kernel time launched outside any recorded op"
#define COVER_EVIDENCE_IDLE "%s of idle time unexplained (%s with no recorded cause, %s while the CPU ran code the profiler did not record)"
/* COVER_CHANGE_GRAPH only when some replayed kernel's capture was not
** read (GP_GRAPH_NO_CAPTURE): after --capture it is not asked for again */
#define COVER_CHANGE "Record what is missing: %sfor kernels launched before the trace, " \
	"start the profiler a step earlier; for ops and causes, torch.profiler(" \
	"record_shapes=True, with_stack=True), or emit_nvtx(record_shapes=True) under nsys."
#define COVER_CHANGE_GRAPH "for CUDA-graph replays, the capture (vLLM/SGLang " \
	"capture_traces beside the trace, gpuprof --capture FILE, nsys " \
	"--cuda-graph-trace=node, gpuprof record); "

/* The graph rules (advise_graph.c): replayed time without op (a notice:
** what to record), the idle between replays (the host) and inside them
** (the graph's own latency). */
#define GRAPH_UNATTR_TITLE "%.1f%% of GPU time (%s in %zu kernels) was replayed from CUDA/HIP graphs whose ops are unknown"
#define GRAPH_UNATTR_EVIDENCE "%s%s %s in %zu kernels: %s"
#define GRAPH_UNATTR_NO_OP_OPEN "captured where no op range was open"
#define GRAPH_UNATTR_CHANGE                                                                \
	"Record where the graphs were captured, then run gpuprof again: the op, layer and "  \
	"shapes of a replayed kernel are those of its capture.  vLLM and SGLang write capture " \
	"traces (vLLM's capture tracing, SGLang --enable-profile-cuda-graph: capture_traces/ " \
	"beside the trace, or --capture DIR); Nsight Systems: --cuda-graph-trace=node with the " \
	"profile running while the graphs are captured (emit_nvtx for the ops); or gpuprof "   \
	"record, which records every node's capture.  Until then no op-level finding sees this time."

#define GRAPH_HOST_WHAT "the host between CUDA/HIP graph replays (preparing and launching the next)"
#define GRAPH_HOST_EVIDENCE "%.1f us before each replay on average, by the chain's cause: "
#define GRAPH_HOST_CAUSE "%s%s %s"
#define GRAPH_HOST_CHANGE                                                                   \
	"The step is bound by the CPU work between replays (input preparation, sampling, "    \
	"scheduling), not by kernel launches: the graphs already remove those.  Overlap that "  \
	"work with the running replay (vLLM's async scheduling, SGLang's overlap scheduler), " \
	"move sampling and input preparation to the GPU, avoid host synchronization between "  \
	"steps, or replay larger batches."

#define GRAPH_GAPS_WHAT "latency inside CUDA/HIP graph replays (between a replay's nodes)"
#define GRAPH_GAPS_EVIDENCE "idle between the kernels of a running replay:"
#define GRAPH_GAPS_GRAPH "%s %s: %zu replays of %.0f kernels, %s of GPU time, %s idle inside (%s per replay)"
#define GRAPH_GAPS_CHANGE                                                                   \
	"These gaps are the graph's own: the latency between its nodes and waits between its " \
	"streams, which replaying as a graph does not remove.  Give the graph fewer, larger "  \
	"nodes (torch.compile fusion, fused kernels), remove host nodes and cross-stream "     \
	"waits from the captured region, and check that the kernels are not waiting on copies."

#define TINY_TITLE "%zu of %zu kernels run under %.0f us: the GPU waits on launches between them"
#define TINY_EVIDENCE "; they run %s in all, with %s of idle gaps before them"
#define TINY_CHANGE                                                                        \
	"Launch fewer, larger kernels: torch.compile (fusion), CUDA graphs "               \
	"(torch.cuda.graphs / mode='reduce-overhead'), fused or foreach optimizers, a larger " \
	"batch; avoid Python loops over small tensors."

#define PAGEABLE_TITLE "%zu cop%s of 64 KB or more from or to pageable host memory"
#define PAGEABLE_EVIDENCE "%zu pageable memcpy, %.1f MB, %s of copy time"
#define PAGEABLE_IDLE "; the GPU sat idle %s while their calls staged them"
#define SMALLCOPY_TITLE                                                                    \
	"%zu cop%s under %u KB that hold the host until the GPU catches up (.item(), .cpu(), " \
	".tolist(), small tensors made on the host)"
#define SMALLCOPY_EVIDENCE "%zu pageable or synchronous copies, %.1f KB in all, %s of copy time"
#define PAGEABLE_CHANGE                                                                    \
	"Pin host memory (DataLoader(pin_memory=True), tensor.pin_memory(), cudaHostAlloc) " \
	"and copy with non_blocking=True: pageable copies are staged through a bounce buffer and block the host."

#define SYNCCOPY_TITLE "%zu synchronous memory cop%s of 64 KB or more"
#define SYNCCOPY_EVIDENCE "%zu memcpy issued without Async, %s of copy time"
#define SYNCCOPY_CHANGE                                                                    \
	"Use cudaMemcpyAsync / tensor.to(device, non_blocking=True) from pinned memory so copies " \
	"overlap compute; avoid .cpu()/.item() inside the step."

#define FP32NS_TITLE "%zu fp32 GEMM/convolution kernels run on CUDA cores of a GPU with tensor cores"
#define FP32NS_EVIDENCE "; the trace has no shapes for them: their FLOPs are unknown"
#define FP32NS_CHANGE                                                                      \
	"%s  Record shapes (torch.profiler.profile(record_shapes=True), or "               \
	"torch.autograd.profiler.emit_nvtx(record_shapes=True) under nsys) and gpuprof "    \
	"gives their FLOPs, roofline and which dimensions to pad."

#define FUSION_TITLE "%zu small elementwise/norm/RoPE/copy kernels in rows: %.1f%% of GPU time"
#define FUSION_EVIDENCE "; %zu rows of %zu or more kernels under %.0f us back to back, the longest %zu"
#define FUSION_CHANGE                                                                      \
	"Fuse them: torch.compile(model) fuses chains of elementwise, norm, RoPE and copy "  \
	"ops into one kernel each; or use fused kernels (fused RMSNorm/LayerNorm, fused RoPE, " \
	"fused bias+activation, optimizers with fused=True or foreach=True)."

#define ATTN_TITLE "%zu unfused attention paths (%s + softmax + %s)"
#define ATTN_EVIDENCE                                                                      \
	"their softmax, scaling, mask and dropout kernels take %s, the score and output GEMMs %s"
#define ATTN_CHANGE                                                                        \
	"Use torch.nn.functional.scaled_dot_product_attention (flash or memory-efficient "  \
	"kernels; Hugging Face: attn_implementation=\"sdpa\" or \"flash_attention_2\"): it " \
	"never writes the sequence x sequence score matrix to memory."

#define GRID_TITLE "%zu kernel%s launch%s fewer blocks than the %d SMs"
#define GRID_EVIDENCE "; e.g. grid %u,%u,%u = %u block%s"
#define GRID_CHANGE                                                                        \
	"Give these kernels more parallel work: a larger batch, fusing small ops, split-K " \
	"for skinny GEMMs, or running independent work on other streams at the same time."

#define CHURN_TITLE "the CUDA allocator grew or was called %" PRIu64 " times inside the iteration loop"
#define CHURN_EVIDENCE                                                                      \
	"after the first of %u iterations: %" PRIu64 " cudaMalloc and %" PRIu64 " cudaFree "   \
	"calls (%s of CPU time), the caching allocator reserved %" PRIu64 " more times "       \
	"(+%.1f MB)"
#define CHURN_CHANGE                                                                        \
	"Keep the allocator's pool warm: cudaMalloc/cudaFree synchronize the device.  Give "   \
	"tensors fixed shapes (pad variable lengths to buckets), allocate buffers once "       \
	"outside the loop, avoid torch.cuda.empty_cache() in it, and set "                     \
	"PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True against fragmentation."

#define STRAGGLER_TITLE \
	"rank %d is the straggler: the others waited %s for it at %" PRIu64 " of %zu collectives"
#define STRAGGLER_EVIDENCE                                                                   \
	"it arrived last at %" PRIu64 " of the %zu collectives matched on every rank, %s after " \
	"the next-to-last rank in all (%s a call); the other ranks waited %s for it, of %s of "  \
	"waiting in all (clocks aligned on collective ends)"
#define STRAGGLER_COMPUTE "; its compute %s vs %s, the median of the other ranks'"
#define STRAGGLER_PATH                                                                     \
	"; the job's critical path (%s, `gpuprof ranks --view critical`) runs %.1f%% on rank %d%s"
#define STRAGGLER_PATH_NO_COLL                                                             \
	"; the job's critical path (%s) reaches no collective: from the job's end the traces " \
	"record nothing the CPU waited for on the GPU (no synchronization), so it cannot say " \
	"who waited for whom; the arrivals above can"
#define STRAGGLER_CHANGE                                                                   \
	"find what rank %d does before its collectives that the others do not: compare "   \
	"`gpuprof breakdown` and `gpuprof ops` of its file with another rank's (slower "    \
	"compute, data loading, a throttled GPU, more work in its shard)"
#define NO_ARRIVALS_TITLE                                                                  \
	"the ranks' median steps differ by %.1f%% (rank %d the slowest, rank %d the fastest), " \
	"but no collective is matched on every rank: who waits for whom cannot be told"
#define NO_ARRIVALS_EVIDENCE                                                               \
	"%zu ranks with %" PRIu64 " collective calls in all, none on every rank (calls match by " \
	"process group, kind and sequence number); a slow step by itself is no straggler: in a " \
	"synchronised job the rank the others wait for has the shortest step"
#define NO_ARRIVALS_CHANGE                                                                 \
	"give the files of every rank of one run, traced over the same steps with their "   \
	"collectives: NCCL/RCCL kernels (PyTorch profiler with record_param_comms, or nsys)"

#define A2A_TITLE                                                                          \
	"expert-parallel all-to-all is uneven: %s %d %s %.2fx the mean %s"
#define A2A_UNKNOWN_TITLE                                                                  \
	"all-to-all: the ranks send even volumes (largest %.2fx the mean), but what each "     \
	"peer receives is not recorded: a hot peer (an expert rank) cannot be told"
#define A2A_RANKS                                                                          \
	"%" PRIu64 " all-to-all calls matched on %zu ranks: rank %d sends the most, %s, %.2fx " \
	"the mean of the ranks"
#define A2A_PEERS                                                                          \
	"; rank %d receives the most, %s, %.2fx the mean of the peers (split sizes)"
#define A2A_NO_PEERS                                                                       \
	"; the trace records no split sizes (In/Out split size): what each peer receives, "  \
	"and so which expert rank is hot, cannot be told"
#define A2A_WAIT                                                                           \
	"; at these calls the ranks waited %s in all, %s of it for rank %d (last at %" PRIu64 \
	" of them); their transfer (each call's shortest kernel) is %s, of which about %s is " \
	"the busiest buffer beyond the mean"
#define A2A_RECORD                                                                         \
	"record the split sizes: PyTorch's profiler writes In/Out split size on "            \
	"record_param_comms for all_to_all_single with input/output_split_sizes (record_shapes" \
	"=True); then `gpuprof comm --view a2a` gives the bytes per peer"
#define A2A_CHANGE                                                                         \
	"balance the experts' load: an auxiliary load-balancing loss or a capacity factor, "  \
	"replicas of the hot experts spread over ranks (EPLB), or dropping tokens beyond "    \
	"capacity; `gpuprof comm --view a2a` gives the bytes per rank, peer, layer and pass"

#define BUSBW_TITLE "%s reaches %.1f GB/s bus bandwidth (median), %.0f%% of the %s peak %.0f GB/s"
#define BUSBW_EVIDENCE \
	"%" PRIu64 " calls, %.1f MB on average, %s of pure communication (from the last arrival to the end)"
#define BUSBW_CHANGE                                                                       \
	"small messages cannot fill the link: fuse them (DDP bucket_cap_mb, FSDP/ZeRO bucket sizes); " \
	"check the topology (nvidia-smi topo -m) and that NCCL uses NVLink/xGMI (NCCL_DEBUG=INFO), " \
	"and compare with nccl-tests on the same GPUs"

/* A rank's finding in its job (gp_advise_job_ranks): what each rank's
** change alone saves the job (JOB_RANK_ALONE, its ranks listed: "rank 7
** 1.176 ms", "ranks 0-6 nothing"), the rank whose evidence it shows, then
** that evidence. */
#define JOB_RANK_ALONE "one rank's change alone saves the job: %.300s; "
#define JOB_RANK_EVIDENCE "%.400son rank %d: %.600s"

/* What a rank's saving in its job is, said once before the findings. */
#define JOB_RANK_NOTE                                                                        \
	"A finding saves what its change saves the job, replayed across the ranks: between "  \
	"collectives each rank runs its own work, and a collective ends when its last rank " \
	"arrives, so a rank that waits for another saves nothing until that one's change; " \
	"findings of several ranks are their changes together."

/* The changes in XLA's terms (JAX, TensorFlow), for a trace whose reader
** says so (gp_trace.framework): each stands for the PyTorch text of the
** same name without _XLA, with the same printf conversions in the same
** order (advise_say.c pairs them; tests/unit/test_advise_say checks the
** conversions).  A text with no such twin is said as it is. */
#define CPU_CHANGE_XLA                                                                      \
	"The step is CPU-bound: the host's cost per step (dispatching jitted functions, "    \
	"their arguments, the launches) exceeds the GPU work it issues.  Jit larger regions " \
	"(the whole train step; lax.scan over layers or microbatches instead of a Python "  \
	"loop of small jitted calls), let XLA command buffers "                              \
	"(--xla_gpu_enable_command_buffer) replay the kernels as CUDA graphs, or give each "  \
	"step more work (a larger batch)."
#define CPU_CHANGE_LONG_OPS_XLA                                                             \
	"Most of this time (%s) is XLA ops whose launches each held the CPU %.0f ms or more: " \
	"work on the host, not the per-kernel launch cost that command buffers remove.  See "  \
	"what the host does there: a first call compiles or autotunes (profile after warm-up " \
	"steps), host callbacks and numpy work belong in the input pipeline or ahead of the step."
#define LAUNCH_CHANGE_XLA                                                                   \
	"Remove the per-kernel launch latency: larger jit regions and fewer host round trips " \
	"(jit the whole step, lax.scan over repeated layers) let XLA fuse small ops into "      \
	"fewer kernels; XLA command buffers (--xla_gpu_enable_command_buffer) replay kernels " \
	"as CUDA graphs."
#define SYNC_CHANGE_XLA                                                                     \
	"Remove host round trips from the loop: jax.block_until_ready / jax.device_get in "   \
	"the loop, float(x), np.asarray(x) or printing a device array (TensorFlow: .numpy()) " \
	"wait for the GPU; keep metrics on the device and fetch them every N steps, and let "  \
	"asynchronous dispatch run ahead."
#define LOADER_CHANGE_XLA                                                                   \
	"Load data ahead of the GPU: tf.data with .prefetch(tf.data.AUTOTUNE) and a parallel " \
	"map, or a JAX data loader (Grain, flax's prefetch_to_device) that prefetches batches " \
	"to the device; move decoding and augmentation out of the step, and check that "       \
	"storage keeps up."
#define PYTHON_CHANGE_XLA                                                                   \
	"Move this Python work out of the step or off its critical path: precompute it, "     \
	"move it into the jitted step (jax.numpy, jax.vmap; tf.function), or run it while "    \
	"the GPU works (asynchronous dispatch returns at once); the frames above say where it is."
#define USER_CHANGE_XLA                                                                     \
	"The code inside these ranges (jax.profiler.TraceAnnotation, StepTraceAnnotation, "  \
	"tf.profiler.experimental.Trace) runs while the GPU waits: move it out of the step, " \
	"overlap it with GPU work (do not block on results), or make it cheaper."
#define ALLOC_CHANGE_XLA                                                                    \
	"Device allocations synchronize: let XLA's allocator keep its pool "                  \
	"(XLA_PYTHON_CLIENT_PREALLOCATE left on, XLA_PYTHON_CLIENT_MEM_FRACTION; TensorFlow: " \
	"no memory growth), keep shapes fixed (pad variable lengths to buckets), and profile "  \
	"after warm-up steps."
#define JIT_CHANGE_XLA                                                                      \
	"A one-time cost: XLA compiles a jitted function once per input shape, not every "    \
	"step: profile a later step (start the profiler after warm-up steps), keep shapes "    \
	"static so nothing recompiles, and keep compiled code across runs (JAX's persistent "   \
	"compilation cache, jax_compilation_cache_dir)."
#define AUTOTUNE_CHANGE_XLA                                                                 \
	"A one-time cost: XLA autotunes GEMM and convolution algorithms once per shape, not "  \
	"every step: profile a later step, or warm up before the profiler starts; keep the "   \
	"results across runs (the persistent compilation cache), or fix the input shapes so "  \
	"each is tuned once."
#define FIRST_ALLOC_CHANGE_XLA                                                              \
	"A one-time cost, paid while the allocator fills its pool in the first step: profile " \
	"a later step, or warm up before the profiler starts."
#define UNTRACED_CHANGE_XLA                                                                 \
	"Record what the CPU does there: jax.profiler.TraceAnnotation (TensorFlow: "          \
	"tf.profiler.experimental.Trace) around your own code, the profiler's Python tracer " \
	"(python_tracer_level=1), or nsys with --python-sampling=true; gpuprof then names the cause."
#define COVER_CHANGE_XLA "Record what is missing: %sfor kernels launched before the trace, " \
	"start the profiler a step earlier; for ops and causes, keep the host tracer on "  \
	"(host_tracer_level=2) and name your own code with jax.profiler.TraceAnnotation."
#define TINY_CHANGE_XLA                                                                     \
	"Launch fewer, larger kernels: larger jit regions (the whole step; lax.scan, not "    \
	"Python loops over small arrays) so XLA fuses more, XLA command buffers "              \
	"(--xla_gpu_enable_command_buffer) to replay kernels as CUDA graphs, a larger batch."
#define SMALLCOPY_TITLE_XLA                                                                 \
	"%zu cop%s under %u KB that hold the host until the GPU catches up (jax.device_get, " \
	"float(x), np.asarray(x), small arrays made on the host)"
#define PAGEABLE_CHANGE_XLA                                                                 \
	"Copy ahead of use: jax.device_put the next batch while the step runs (prefetch to "  \
	"device; tf.data: prefetch_to_device); pageable copies are staged through a bounce "  \
	"buffer and block the host."
#define SYNCCOPY_CHANGE_XLA                                                                 \
	"Let copies overlap compute: jax.device_put ahead of use (it is asynchronous) rather " \
	"than numpy arrays passed to each jitted call; no jax.device_get or np.asarray of "     \
	"results inside the step."
#define FUSION_CHANGE_XLA                                                                   \
	"Fuse them: XLA fuses elementwise chains inside one jitted computation: jit the whole " \
	"step rather than pieces, avoid host callbacks and custom calls between these ops, "   \
	"and read the optimized HLO (XLA_FLAGS=--xla_dump_to=DIR) for what stopped a fusion."
#define ATTN_CHANGE_XLA                                                                     \
	"Use a fused attention kernel: jax.nn.dot_product_attention(implementation='cudnn') " \
	"or a Pallas flash-attention kernel (Keras: MultiHeadAttention with flash attention): " \
	"it never writes the sequence x sequence score matrix to memory."
#define COMM_CHANGE_XLA \
	"Overlap communication with compute: XLA's latency-hiding scheduler runs collectives " \
	"asynchronously (--xla_gpu_enable_latency_hiding_scheduler=true), pipelined "          \
	"collectives overlap them with the next layer (--xla_gpu_enable_pipelined_all_gather, " \
	"_reduce_scatter, _all_reduce), small ones are combined "                               \
	"(--xla_gpu_all_reduce_combine_threshold_bytes); check the exposed part for a "         \
	"straggling host (the collective waits for it)."
#define CHURN_CHANGE_XLA                                                                    \
	"Keep the allocator's pool warm: device allocations synchronize.  Give arrays fixed "  \
	"shapes (pad variable lengths to buckets: a new shape also recompiles) and keep XLA's " \
	"preallocated pool (XLA_PYTHON_CLIENT_PREALLOCATE on, not "                             \
	"XLA_PYTHON_CLIENT_ALLOCATOR=platform)."
#define GRAPH_GAPS_CHANGE_XLA                                                               \
	"These gaps are the graph's own: the latency between its nodes and waits between its " \
	"streams, which replaying as a graph does not remove.  Give the graph fewer, larger "  \
	"nodes (larger jit regions: XLA fuses more), keep host callbacks out of the command "  \
	"buffer, and check that the kernels are not waiting on copies."
#define FP32_CHANGE_TF32_XLA                                                                \
	"Allow TF32 (jax.default_matmul_precision('tensorfloat32'); TensorFlow: "             \
	"tf.config.experimental.enable_tensor_float_32_execution(True)) or compute in "        \
	"bfloat16 (parameters and activations as jnp.bfloat16; tf.keras.mixed_precision)."
#define FP32_CHANGE_AMP_XLA                                                                 \
	"Compute in float16 with loss scaling (jmp's DynamicLossScale; "                       \
	"tf.keras.mixed_precision.LossScaleOptimizer) (this GPU%s has fp16 tensor cores but no TF32)."
#define FP32NS_CHANGE_XLA                                                                   \
	"%s  gpuprof prices dot, convolution, cuBLAS GEMM custom-calls and fusions from the "  \
	"HLO the profile records (docs/trace-model.md) but not these kernels' ops (another "   \
	"library's custom-call, a GEMM whose backend config does not parse, or a profile "     \
	"without its HLO), so their FLOPs, roofline and the dimensions to pad are unknown; "   \
	"the optimized HLO (XLA_FLAGS=--xla_dump_to=DIR) shows them."
#define NO_ARRIVALS_CHANGE_XLA                                                              \
	"give the profiles of every host of one run (the run folder plugins/profile/RUN/ "    \
	"with one .xplane.pb per host), traced over the same steps with their collectives "   \
	"(NCCL/RCCL kernels on the device planes)"
#define A2A_RECORD_XLA                                                                      \
	"XPlane profiles record no per-peer sizes of an all-to-all: the HLO of the "          \
	"all-to-all (XLA_FLAGS=--xla_dump_to=DIR) gives its shapes, and `gpuprof comm --view " \
	"a2a` the bytes per rank"
#define BUSBW_CHANGE_XLA                                                                    \
	"small messages cannot fill the link: let XLA combine them "                          \
	"(--xla_gpu_all_reduce_combine_threshold_bytes, "                                      \
	"--xla_gpu_all_gather_combine_threshold_bytes, "                                       \
	"--xla_gpu_reduce_scatter_combine_threshold_bytes); check the topology (nvidia-smi "    \
	"topo -m) and that NCCL uses NVLink/xGMI (NCCL_DEBUG=INFO), and compare with "        \
	"nccl-tests on the same GPUs"

#endif
