#!/usr/bin/env python3
"""kineto_craft.py: the pieces of a crafted Kineto trace, for tests that
build small traces with a known pattern (t0956, t0957): one process (pid 1,
thread 1) making runtime calls and ranges, its kernels on device 0, stream
7.  Times in us, as Kineto writes them.

    from kineto_craft import Trace
    tr = Trace()
    c = tr.call("cudaLaunchKernel", 10, 2)   # its correlation id
    tr.rng("cpu_op", "aten::mul", 5, 8)
    tr.kern(12, 100, c)                      # graph=True: replayed from a graph
    tr.write("t.json")
"""
import json


class Trace:
    def __init__(self):
        self.ev = []
        self.corr = 0

    def call(self, name, ts, dur):
        """A runtime call on thread 1; returns its correlation id."""
        self.corr += 1
        self.ev.append({"ph": "X", "cat": "cuda_runtime", "name": name, "pid": 1, "tid": 1,
                        "ts": ts, "dur": dur, "args": {"correlation": self.corr}})
        return self.corr

    def rng(self, cat, name, ts, dur):
        """A range of category cat (cpu_op, user_annotation...) on thread 1."""
        self.ev.append({"ph": "X", "cat": cat, "name": name, "pid": 1, "tid": 1, "ts": ts, "dur": dur,
                        "args": {}})

    def kern(self, ts, dur, corr, graph=False):
        """Kernel "k" of the call with correlation corr on device 0, stream
        7; graph: replayed from a CUDA graph (its "graph id")."""
        args = {"device": 0, "stream": 7, "correlation": corr}
        if graph:
            args["graph id"] = 1
        self.ev.append({"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": ts, "dur": dur,
                        "args": args})

    def copy(self, name, ts, dur, corr, nbytes):
        """A copy event (gpu_memcpy) of the call corr on device 0, stream 7."""
        self.ev.append({"ph": "X", "cat": "gpu_memcpy", "name": name, "pid": 0, "tid": 7, "ts": ts, "dur": dur,
                        "args": {"device": 0, "stream": 7, "correlation": corr, "bytes": nbytes}})

    def write(self, path):
        json.dump({"traceEvents": self.ev}, open(path, "w"))
