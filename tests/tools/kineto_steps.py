"""Step times of a Kineto trace, computed from the raw JSON for the rank
tests (t1202, t1204) by the one definition (docs/dependencies.md,
"Steps"): step N runs from ProfilerStep#N's start to the next step's
start, host waits included; the last one to its range's end or the end of
the last kernel whose launch call (the cuda_runtime event with its
correlation id) starts inside it, the later (ns, timestamps rounded to ns
as gpuprof reads them)."""
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
        n, c = e.get("name", ""), e.get("cat", "").lower()   # 2021's Kineto: "Operator", "Runtime", "Kernel"
        t0 = round(e["ts"] * 1000)
        t1 = t0 + round(e.get("dur", 0) * 1000)
        m = re.fullmatch(r"ProfilerStep#(\d+)", n)
        if m and c in ("cpu_op", "user_annotation", "operator"):
            prof.append((t0, t1, int(m.group(1))))
        elif c in ("cuda_runtime", "runtime") and "correlation" in e.get("args", {}):
            launch[e["args"]["correlation"]] = t0
        elif c == "kernel":
            kern.append((e["args"].get("correlation"), t0, t1))
    prof.sort()
    seen, v = set(), []
    for p0, p1, n in prof:
        if n not in seen:
            seen.add(n)
            v.append((p0, p1, n))
    if not v:
        return {}
    out = {v[i][2]: v[i + 1][0] - v[i][0] for i in range(len(v) - 1)}
    p0, end, n = v[-1]
    for corr, a, b in kern:
        t = launch.get(corr)
        if t is not None and t >= p0:
            end = max(end, b)
    out[n] = end - p0
    return out


def median(v):
    """The median as gpuprof gives it: the mean of the middle two of an
    even count, rounded down."""
    v = sorted(v)
    k = len(v)
    return v[k // 2] if k % 2 else (v[k // 2 - 1] + v[k // 2]) // 2
