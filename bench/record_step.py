#!/usr/bin/env python3
"""Time per training step of a small transformer block on the GPU, for
bench/record-overhead.sh: plain, under `gpuprof record` (the script does not
know; the launcher runs it), or under torch.profiler (--profiler).

  record_step.py [--steps N] [--emit-nvtx] [--gpuprof-markers]
                 [--profiler] [--trace-out FILE.json] [--cuda-profiler-range]

Prints "ms_per_step X" (median over the steps after 5 warm-up steps, each
step ended by torch.cuda.synchronize).  --emit-nvtx wraps the steps in
torch.autograd.profiler.emit_nvtx(record_shapes=True) (PyProf's route);
--gpuprof-markers annotates the model with libgpuprof (python/gpuprof);
--profiler runs the steps under torch.profiler (CPU+CUDA activities) and
with --trace-out exports its Chrome trace, for the kernel-by-kernel
comparison with a gpuprof recording of the same (seeded) step;
--cuda-profiler-range brackets the steps (those torch.profiler sees) with
cudaProfilerStart/Stop, for `gpuprof record --capture-range cudaProfilerApi`
to record just them (not the set-up's random init and weight copies).
"""
import argparse
import contextlib
import statistics
import time

import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, d=1024, heads=16, ff=4096):
        super().__init__()
        self.ln1 = nn.LayerNorm(d)
        self.attn = nn.MultiheadAttention(d, heads, batch_first=True)
        self.ln2 = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, ff)
        self.fc2 = nn.Linear(ff, d)

    def forward(self, x):
        h = self.ln1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.fc2(torch.relu(self.fc1(self.ln2(x))))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--emit-nvtx", action="store_true")
    ap.add_argument("--gpuprof-markers", action="store_true")
    ap.add_argument("--profiler", action="store_true")
    ap.add_argument("--trace-out")
    ap.add_argument("--cuda-profiler-range", action="store_true")
    a = ap.parse_args()

    torch.manual_seed(0)
    dev = torch.device("cuda")
    model = nn.Sequential(*[Block() for _ in range(4)]).to(dev)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    x = torch.randn(8, 512, 1024, device=dev)
    if a.gpuprof_markers:
        import gpuprof.torch as gt
        gt.annotate_model(model)
        opt = gt.marked_optimizer(opt, model)

    def step():
        opt.zero_grad(set_to_none=True)
        loss = model(x).square().mean()
        if a.gpuprof_markers:
            opt.backward(loss)
        else:
            loss.backward()
        opt.step()

    ctx = contextlib.ExitStack()
    if a.emit_nvtx:
        ctx.enter_context(torch.autograd.profiler.emit_nvtx(record_shapes=True))
    prof = None
    if a.profiler:
        prof = ctx.enter_context(torch.profiler.profile(
            activities=[torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA]))
    times = []
    with ctx:
        if a.cuda_profiler_range:
            torch.cuda.profiler.start()
        for i in range(5 + a.steps):
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            step()
            torch.cuda.synchronize()
            if i >= 5:
                times.append(time.perf_counter() - t0)
        if a.cuda_profiler_range:
            torch.cuda.profiler.stop()
    if prof is not None and a.trace_out:
        prof.export_chrome_trace(a.trace_out)
    print("ms_per_step %.3f" % (1e3 * statistics.median(times)))


if __name__ == "__main__":
    main()
