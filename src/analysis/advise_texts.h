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

#define ROOF_TITLE "%zu kernels with a large share of GPU time run under %.0f%% of their roofline"
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

#define COMM_TITLE "communication is exposed %s: %.0f%% of it runs with no compute beside it"
#define COMM_EVIDENCE "; communication runs %s in all (union per device), %s of it hidden behind compute"
#define COMM_CHANGE \
	"Overlap communication with compute: launch collectives asynchronously on their own "   \
	"stream and wait for them as late as possible; in DDP let gradient buckets "            \
	"(bucket_cap_mb) all-reduce during backward; in FSDP enable forward/backward "          \
	"prefetch; check the exposed part for a straggling rank (the collective waits for it)."

#define IDLE_TITLE "the GPU sat idle %s in %zu gaps of %.0f us or more (%.1f%% of the span)"
#define IDLE_EVIDENCE "longest gap %s at %.3f s into the trace; CPU during the gaps:"
#define IDLE_EVIDENCE_CAUSE "%s %s %s (%u gaps)"
#define IDLE_EVIDENCE_BREAKDOWN \
	"; all idle time (%s, gpuprof breakdown): host launch %.0f%%, synchronisation %.0f%%, "  \
	"pageable copies %.0f%%, gaps under 10 us %.0f%%, other %.0f%%"
#define IDLE_NO_CALL "no CUDA call (Python, data loading)"
#define IDLE_CHANGE_ALLOC                                                                  \
	"Most idle time is spent in cudaMalloc/cudaFree: let PyTorch's caching "           \
	"allocator reuse memory (no torch.cuda.empty_cache() in the loop, fixed shapes, "  \
	"warm-up steps before profiling). "
#define IDLE_CHANGE                                                                        \
	"Keep the GPU fed: overlap data loading (DataLoader num_workers > 0, pin_memory=True, " \
	"prefetch), move CPU-side work out of the training step, and remove host "         \
	"synchronizations; for gaps inside a step, CUDA graphs or torch.compile."

#define LARGEST_GAPS "; the largest gaps:"
#define LARGEST_GAP "%s %s at %.3f s (CPU: %.160s)"
#define LARGEST_GAP_NO_CPU "no CPU range open"

#define HOST_TITLE "the GPU waited for the host to launch work %s (%.1f%% of the span) in %zu gaps"
#define HOST_EVIDENCE "the GPU had nothing queued and the next kernel's launch call returned after the gap began"
#define HOST_CHANGE                                                                         \
	"The step is launch-bound: the CPU does not launch kernels as fast as the GPU runs them. " \
	"Capture the step in a CUDA graph (torch.compile(mode='reduce-overhead'), "           \
	"torch.cuda.graphs), fuse kernels with torch.compile, move Python work (logging, "     \
	"metrics, data preparation) out of the step, or give each launch more work (larger batch)."

#define SHORT_TITLE "%zu gaps under %.0f us between back-to-back GPU work: %s idle (%.1f%% of the span)"
#define SHORT_EVIDENCE "each gap is the launch latency between two kernels; %.1f us per gap on average"
#define SHORT_CHANGE                                                                        \
	"Remove the per-kernel launch latency: CUDA graphs (torch.compile(mode='reduce-overhead'), " \
	"torch.cuda.graphs) replay the step without it, and torch.compile fuses small kernels "  \
	"into fewer; fused or foreach optimizers do the same for the optimizer step."

#define SYNC_TITLE "host synchronization left the GPU idle %s"
#define SYNC_EVIDENCE_CAUSE "; the CPU was synchronising during %s of idle time in %zu gaps"
#define SYNC_CHANGE                                                                        \
	"Remove synchronizations from the loop: .item(), .cpu(), .tolist(), print(tensor), " \
	"torch.cuda.synchronize(), blocking copies; accumulate metrics on the GPU and read them " \
	"every N steps; use non_blocking=True copies from pinned memory."

#define TINY_TITLE "%zu of %zu kernels run under %.0f us: the GPU waits on launches between them"
#define TINY_EVIDENCE "; they run %s in all, with %s of idle gaps before them"
#define TINY_CHANGE                                                                        \
	"Launch fewer, larger kernels: torch.compile (fusion), CUDA graphs "               \
	"(torch.cuda.graphs / mode='reduce-overhead'), fused or foreach optimizers, a larger " \
	"batch; avoid Python loops over small tensors."

#define PAGEABLE_TITLE "%zu copies from or to pageable host memory"
#define PAGEABLE_EVIDENCE "%zu pageable memcpy, %.1f MB, %s of copy time"
#define PAGEABLE_EVIDENCE_WAIT "; the GPU sat idle %s in %zu gaps waiting for them"
#define PAGEABLE_CHANGE                                                                    \
	"Copy from pinned memory (DataLoader(pin_memory=True), tensor.pin_memory()) with "  \
	"non_blocking=True: pageable copies are staged through a bounce buffer and block the host."

#define SYNCCOPY_TITLE "%zu synchronous memory copies"
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

#define GRID_TITLE "%zu kernels launch fewer blocks than the %d SMs"
#define GRID_EVIDENCE "; e.g. grid %u,%u,%u = %u blocks"
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
	"rank %d is the straggler in %" PRIu64 " of %zu collectives, costing the others %s of waiting"
#define STRAGGLER_EVIDENCE                                                                 \
	"it arrives last by %s on average; all ranks waited %s in all in the %zu collectives " \
	"matched on every rank (clocks aligned on collective ends)"
#define STRAGGLER_CHANGE                                                                   \
	"find what rank %d does before its collectives that the others do not: compare "   \
	"`gpuprof breakdown` and `gpuprof ops` of its file with another rank's (slower "    \
	"compute, data loading, a throttled GPU, more work in its shard)"

#define BUSBW_TITLE "%s reaches %.1f GB/s bus bandwidth (median), %.0f%% of the %s peak %.0f GB/s"
#define BUSBW_EVIDENCE \
	"%" PRIu64 " calls, %.1f MB on average, %s of pure communication (from the last arrival to the end)"
#define BUSBW_CHANGE                                                                       \
	"small messages cannot fill the link: fuse them (DDP bucket_cap_mb, FSDP/ZeRO bucket sizes); " \
	"check the topology (nvidia-smi topo -m) and that NCCL uses NVLink/xGMI (NCCL_DEBUG=INFO), " \
	"and compare with nccl-tests on the same GPUs"

#endif
