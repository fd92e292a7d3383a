#!/usr/bin/env python3
"""TraceLens's gpu_timeline of a Kineto trace, recomputed from the raw JSON
by its own rules (AMD-AGI/TraceLens, TreePerf/tree_perf.py
get_df_gpu_timeline over Trace2Tree/trace_to_tree.py's links and
TreePerf/gpu_event_analyser.py's categories; docs/breakdown.md), as an
oracle for `gpuprof breakdown --as tracelens`.

    tracelens_timeline.py [--include-unlinked] TRACE

prints "type,time ms" rows in TraceLens's order, or "none" when TraceLens
finds no GPU event ("No GPU events found in the trace").

Rules: the GPU events are the events of category kernel, gpu_memcpy,
gpu_memset.  Without --include-unlinked only those its tree links: a
cuda_runtime or cuda_driver event named cudaGraphLaunch or hipGraphLaunch
links every GPU event whose args.correlation is its own; any other such
event links the GPU event found through the ac2g flow pair (a start 's' and
an end 'f' with id = its correlation): the event on the end's (pid, tid)
with that correlation.  Communication: a kernel or memset whose name
contains "nccl" or "deep_ep"; memcpy: gpu_memcpy; computation: the rest.
Times are float microseconds, as TraceLens reads them.
"""
import gzip
import json
import sys

GPU = ("kernel", "gpu_memcpy", "gpu_memset")


def load(path):
    with (gzip.open if path.endswith(".gz") else open)(path, "rb") as f:
        doc = json.load(f)
    return doc["traceEvents"] if isinstance(doc, dict) else doc


def linked_events(ev):
    gpu = [e for e in ev if e.get("cat") in GPU and e.get("ph") == "X"]
    starts, ends, by_key, by_corr = {}, {}, {}, {}
    for e in ev:
        args = e.get("args") if isinstance(e.get("args"), dict) else {}
        if e.get("cat") == "ac2g":
            if e.get("ph") == "s":
                starts[e.get("id")] = e
            elif e.get("ph") == "f":
                ends[e.get("id")] = e
            continue
        corr = args.get("correlation")
        if e.get("pid") is not None and e.get("tid") is not None and corr is not None:
            by_key[(e.get("pid"), e.get("tid"), corr)] = e
        if e.get("cat") in GPU and corr is not None:
            by_corr.setdefault(corr, []).append(e)
    linked = {}
    for e in ev:
        if e.get("cat") not in ("cuda_runtime", "cuda_driver"):
            continue
        corr = (e.get("args") or {}).get("correlation")
        if e.get("name") in ("cudaGraphLaunch", "hipGraphLaunch"):
            for g in by_corr.get(corr, []) if corr is not None else []:
                linked[id(g)] = g
            continue
        if corr not in starts or corr not in ends:
            continue
        f = ends[corr]
        g = by_key.get((f.get("pid"), f.get("tid"), f.get("id")))
        if g is not None and g.get("cat") in GPU:
            linked[id(g)] = g
    return gpu, [g for g in gpu if id(g) in linked]


def union(iv):
    out = []
    for s, t in sorted(iv):
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], t)
        else:
            out.append([s, t])
    return out


def minus(a, b):
    """The parts of merged intervals b outside merged intervals a (both
    sorted), in one pass."""
    out, i = [], 0
    for s, t in b:
        while i < len(a) and a[i][1] <= s:
            i += 1
        cur, j = s, i
        while j < len(a) and a[j][0] < t:
            if a[j][0] > cur:
                out.append((cur, a[j][0]))
            cur = max(cur, a[j][1])
            if cur >= t:
                break
            j += 1
        if cur < t:
            out.append((cur, t))
    return out


def timeline(evs):
    iv = lambda es: [(e["ts"], e["ts"] + e["dur"]) for e in es]
    is_comm = lambda e: "nccl" in e["name"] or "deep_ep" in e["name"]
    comm_ev = [e for e in evs if e["cat"] != "gpu_memcpy" and is_comm(e)]
    comp_ev = [e for e in evs if e["cat"] != "gpu_memcpy" and not is_comm(e)]
    comp, comm = union(iv(comp_ev)), union(iv(comm_ev))
    mem = union(iv([e for e in evs if e["cat"] == "gpu_memcpy"]))
    al = union(iv(evs))
    tot = lambda v: sum(t - s for s, t in v)
    total = al[-1][1] - al[0][0]
    busy = tot(al)
    return [("computation_time", tot(comp)), ("exposed_comm_time", tot(minus(comp, comm))),
            ("exposed_memcpy_time", tot(minus(comm, minus(comp, mem)))), ("busy_time", busy),
            ("idle_time", total - busy), ("total_time", total), ("total_comm_time", tot(comm)),
            ("total_memcpy_time", tot(mem))]


def main():
    args = sys.argv[1:]
    unlinked = args[:1] == ["--include-unlinked"]
    if unlinked:
        args = args[1:]
    gpu, linked = linked_events(load(args[0]))
    evs = gpu if unlinked else linked
    if not evs:
        print("none")
        return
    for k, v in timeline(evs):
        print("%s,%.6f" % (k, v / 1e3))


if __name__ == "__main__":
    main()
