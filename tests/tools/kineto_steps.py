"""Step times of a Kineto trace, computed from the raw JSON for the rank
tests (t1202, t1204): a kernel belongs to step N when its launch call (the
cuda_runtime event with its correlation id) starts inside ProfilerStep#N;
the step's time is its first kernel's start to its last kernel's end (ns,
timestamps rounded to ns as gpuprof reads them)."""
import gzip
import json
import re


def steps(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        ev = json.load(f)["traceEvents"]
    prof, launch, kern = [], {}, []
    for e in ev:
        if e.get("ph") != "X":
            continue
        n, c = e.get("name", ""), e.get("cat", "")
        t0 = round(e["ts"] * 1000)
        t1 = t0 + round(e.get("dur", 0) * 1000)
        m = re.fullmatch(r"ProfilerStep#(\d+)", n)
        if m and c in ("cpu_op", "user_annotation"):
            prof.append((t0, t1, int(m.group(1))))
        elif c == "cuda_runtime" and "correlation" in e.get("args", {}):
            launch[e["args"]["correlation"]] = t0
        elif c == "kernel":
            kern.append((e["args"].get("correlation"), t0, t1))
    win = {}
    for corr, a, b in kern:
        t = launch.get(corr)
        for p0, p1, n in prof:
            if t is not None and p0 <= t <= p1:
                lo, hi = win.get(n, (a, b))
                win[n] = (min(lo, a), max(hi, b))
    return {n: b - a for n, (a, b) in win.items()}


def median(v):
    """The median as gpuprof gives it: the mean of the middle two of an
    even count, rounded down."""
    v = sorted(v)
    k = len(v)
    return v[k // 2] if k % 2 else (v[k // 2 - 1] + v[k // 2]) // 2
