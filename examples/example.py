#!/usr/bin/env python3
"""libgpuprof from Python: a training loop with markers, layer ranges and
timers.  Runs without torch or a GPU:

    GPUPROF_RECORD=py.gprec python3 examples/example.py && gpuprof ranges py.gprec

With PyTorch, gpuprof.torch.annotate_model(model) and
gpuprof.torch.marked_optimizer(opt, model, sync_level=2) do the marking.
"""
import gpuprof


def conv(name, n):
    with gpuprof.layer(name), gpuprof.timer("conv"):
        return sum(i * 0.5 for i in range(n))


def main():
    total = 0.0
    with gpuprof.profiler():   # nsys --capture-range=cudaProfilerApi; no-op without CUDA
        for _ in range(3):
            with gpuprof.iteration():
                with gpuprof.forward(), gpuprof.layer("Block1"):
                    total += conv("Conv1", 2000) + conv("Conv2", 4000)
                with gpuprof.backward():
                    total += sum(range(5000))
                with gpuprof.update(), gpuprof.timer("optimizer step"):
                    total += 1
    print("example.py: %d iterations, checksum %.1f, library %s" %
          (gpuprof.iteration_count(), total, "found" if gpuprof.available() else "NOT found"))
    gpuprof.timer_report()


if __name__ == "__main__":
    main()
