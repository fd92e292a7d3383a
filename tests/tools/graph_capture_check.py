#!/usr/bin/env python3
"""Checks gpuprof's attribution of graph-replayed kernels against a Kineto
replay trace and its capture traces, read here by Python alone.

    tests/tools/graph_capture_check.py REPLAY.json[.gz] CAPTURE_DIR REPORT.csv [MIN_PCT]

REPORT.csv is `gpuprof report -f csv -c start,stream,marker REPLAY` (the
replay's kernels with their op as attributed, before the op model names
roles such as "bias").  The replayed kernels are the kernel
events whose correlation is that of a *GraphLaunch runtime event; a
report row is theirs when start (baseTimeNanoseconds + ts in ns) and
stream agree.  From the capture traces: every launch a thread made between
*StreamBeginCapture and *StreamEndCapture, with the kernel its args name
(ROCm), under its innermost enclosing cpu_op on that thread (strictly
enclosing, as gpuprof's sweep), by its full name ("aten::addmm").

Checks: (1) at least MIN_PCT (default 95) percent of the replayed GPU time
has an op in the report; (2) for every op, the names of the replayed
kernels the report gives it are the names of the launches captured under
that op (every captured graph being replayed).  Prints the figures; exits 1
on a failed check.
"""
import csv, glob, gzip, json, os, sys, collections

def load(p):
    return json.load(gzip.open(p, "rt") if p.endswith(".gz") else open(p))

def ns(doc, ts):
    return int(doc.get("baseTimeNanoseconds", 0)) + round(float(ts) * 1000)

def captured_names_by_op(paths):
    """op -> set of kernel names launched under it during graph capture."""
    by_op = collections.defaultdict(set)
    for p in paths:
        ev = load(p)["traceEvents"]
        ops = collections.defaultdict(list)
        for e in ev:
            if e.get("ph") == "X" and e.get("cat") == "cpu_op":
                ops[(e["pid"], e["tid"])].append(e)
        rts = sorted((e for e in ev if e.get("ph") == "X" and e.get("cat") == "cuda_runtime"),
                     key=lambda e: float(e["ts"]))
        open_on = set()
        for r in rts:
            th = (r["pid"], r["tid"])
            n = r["name"]
            if "StreamBeginCapture" in n:
                open_on.add(th)
            elif "StreamEndCapture" in n:
                open_on.discard(th)
            elif th in open_on and "LaunchKernel" in n and "kernel" in r.get("args", {}):
                s, e = float(r["ts"]), float(r["ts"]) + float(r.get("dur", 0))
                inner = None
                for o in ops[th]:
                    os_, oe = float(o["ts"]), float(o["ts"]) + float(o.get("dur", 0))
                    if os_ < s and oe > e and (inner is None or (os_, -oe) >= (float(inner["ts"]),
                                                              -float(inner["ts"]) - float(inner.get("dur", 0)))):
                        inner = o
                if inner is not None:
                    by_op[inner["name"]].add(r["args"]["kernel"])
    return by_op

def main():
    replay, capdir, report = sys.argv[1:4]
    min_pct = float(sys.argv[4]) if len(sys.argv) > 4 else 95.0
    doc = load(replay)
    ev = doc["traceEvents"]
    launch = {e["args"]["correlation"] for e in ev
              if e.get("cat") == "cuda_runtime" and "GraphLaunch" in e.get("name", "")}
    replayed = {}
    for e in ev:
        if e.get("cat") == "kernel" and e.get("args", {}).get("correlation") in launch:
            replayed[(ns(doc, e["ts"]), int(e["args"].get("stream", e.get("tid", 0))))] = e
    rows = {}
    with open(report) as f:
        for r in csv.DictReader(f):
            rows[(int(r["Start(ns)"]), int(r["Stream"]))] = r
    total = sum(float(e["dur"]) for e in replayed.values())
    with_op, missing = 0.0, 0
    got = collections.defaultdict(set)
    for key, e in replayed.items():
        r = rows.get(key)
        if r is None:
            missing += 1
            continue
        if r["Marker"] not in ("", "na"):
            with_op += float(e["dur"])
            got[r["Marker"]].add(e["name"])
    caps = sorted(glob.glob(os.path.join(capdir, "*.json*")))
    caps = [c for c in caps if not c.endswith("execution_details.json")]
    want = captured_names_by_op(caps)
    pct = 100.0 * with_op / total if total else 100.0
    print("replayed kernels %d, GPU time %.3f ms, with an op %.1f%%, ops %d, not in the report %d"
          % (len(replayed), total / 1000, pct, len(got), missing))
    ok = pct >= min_pct and not missing
    for op in sorted(set(got) | set(want)):
        if got.get(op, set()) != want.get(op, set()):
            ok = False
            print("op %s: replayed kernel names %s, captured launches %s"
                  % (op, sorted(got.get(op, set()))[:3], sorted(want.get(op, set()))[:3]))
    sys.exit(0 if ok else 1)

main()
