#!/usr/bin/env python3
"""The same small model run eagerly or replayed from a CUDA graph, for the
GPU validation (bench/gpu-validate.sh, docs/collector.md) and the graph
attribution (docs/graphs.md): recorded by `gpuprof record` (the script does
not know) or by torch.profiler (--profiler), each replayed kernel must get the
op its captured launch had, so the graph run's kernels per op equal the eager
run's.

  record_graphs.py --mode eager|graph [--iters N] [--emit-nvtx]
                   [--profiler --trace-out FILE.json
                    [--capture-out FILE.json]]

The model: 3 blocks of LayerNorm, Linear(512->2048), GELU, Linear(2048->512)
and a residual add on a [16, 128, 512] fp16 input, inference (no_grad).
--mode graph captures one forward in a torch.cuda.CUDAGraph (after 3
warm-up forwards on a side stream, as the PyTorch docs do) and replays it
N times; eager runs the forward N times.  --emit-nvtx wraps the run (and
so the capture) in emit_nvtx(record_shapes=True).  Under --profiler the
capture is inside the profile (one file holding capture and replays) unless
--capture-out names a second file: then the capture is profiled into it
and the replays into --trace-out, as vLLM writes capture_traces/.
Prints "ms_per_iter X" (median over the iterations).
"""
import argparse
import contextlib
import statistics
import time

import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, d=512, ff=2048):
        super().__init__()
        self.ln = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, ff)
        self.fc2 = nn.Linear(ff, d)

    def forward(self, x):
        return x + self.fc2(torch.nn.functional.gelu(self.fc1(self.ln(x))))


def profiler():
    return torch.profiler.profile(
        activities=[torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA],
        record_shapes=True, with_stack=False)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", choices=["eager", "graph"], required=True)
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--emit-nvtx", action="store_true")
    ap.add_argument("--profiler", action="store_true")
    ap.add_argument("--trace-out")
    ap.add_argument("--capture-out")
    a = ap.parse_args()

    torch.manual_seed(0)
    dev = torch.device("cuda")
    model = nn.Sequential(*[Block() for _ in range(3)]).to(dev).half().eval()
    x = torch.randn(16, 128, 512, device=dev, dtype=torch.half)

    outer = contextlib.ExitStack()
    if a.emit_nvtx:
        outer.enter_context(torch.autograd.profiler.emit_nvtx(record_shapes=True))
    outer.enter_context(torch.no_grad())
    times = []
    with outer:
        graph = None
        if a.mode == "graph":
            side = torch.cuda.Stream()
            side.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(side):
                for _ in range(3):
                    model(x)
            torch.cuda.current_stream().wait_stream(side)
            torch.cuda.synchronize()
            graph = torch.cuda.CUDAGraph()
            cap = profiler() if a.profiler and a.capture_out else contextlib.nullcontext()
            with cap:
                with torch.cuda.graph(graph):
                    model(x)
            torch.cuda.synchronize()
            if a.profiler and a.capture_out:
                cap.export_chrome_trace(a.capture_out)
        prof = profiler() if a.profiler else contextlib.nullcontext()
        with prof:
            if a.mode == "graph" and a.profiler and not a.capture_out:
                # the capture inside the same profile: a second graph of the
                # same forward, captured under the profiler, then replayed
                graph = torch.cuda.CUDAGraph()
                with torch.cuda.graph(graph):
                    model(x)
                torch.cuda.synchronize()
            for _ in range(a.iters):
                torch.cuda.synchronize()
                t0 = time.perf_counter()
                if graph is not None:
                    graph.replay()
                else:
                    model(x)
                torch.cuda.synchronize()
                times.append(time.perf_counter() - t0)
        if a.profiler and a.trace_out:
            prof.export_chrome_trace(a.trace_out)
    print("ms_per_iter %.3f" % (1e3 * statistics.median(times)))


if __name__ == "__main__":
    main()
