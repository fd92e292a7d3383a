#!/usr/bin/env python3
"""The collectives of Kineto traces, counted from the JSON by Python alone
(no gpuprof), for tests/cli/t1231_comm_shared.sh to compare `gpuprof comm`
against.

    tests/tools/coll_oracle.py TRACE.json[.gz]... > kinds.txt

One line per (file, kind): file, kind, NCCL/RCCL kernels, bytes.  A kernel's
kind is its own "Collective name" arg, else that of a record_param_comms
range enclosing its launch (the cuda_runtime event with its correlation,
on the same thread), else the innermost enclosing nccl:* annotation's name,
else a c10d:: op's, else the kernel name's.  Bytes are nccl-tests' size:
the input's (all_gather: the output's; from "In/Out msg nelems" x dtype,
else the annotation's first Input Dims x Input type, an all_gather's times
the world size), 0 when unknown.
"""
import gzip, json, sys, collections, bisect
def load(p):
    return json.load(gzip.open(p, "rt") if p.endswith(".gz") else open(p))
DT = {"float": 4, "c10::half": 2, "half": 2, "bfloat16": 2, "c10::bfloat16": 2, "double": 8,
      "long": 8, "int": 4, "signed char": 1, "unsigned char": 1, "byte": 1, "char": 1, "bool": 1}
def kind(name):
    f = name.lower().replace("_", "").replace(":", "")
    for w, k in (("reducescatter", "reduce_scatter"), ("allreduce", "all_reduce"), ("allgather", "all_gather"),
                 ("alltoall", "all_to_all"), ("broadcast", "broadcast"), ("sendrecv", "send_recv"),
                 ("barrier", "barrier"), ("reduce", "reduce"), ("send", "send_recv"), ("recv", "send_recv")):
        if w in f:
            return k
    return "other"
def per_file(p):
    d = load(p)
    ev = d["traceEvents"]
    ws = (d.get("distributedInfo") or {}).get("world_size")
    launch = {}
    ranges = collections.defaultdict(list)   # tid -> (ts, end, event)
    for e in ev:
        a = e.get("args") or {}
        if e.get("cat") in ("cuda_runtime", "runtime") and "correlation" in a:
            launch[a["correlation"]] = (e["pid"], e["tid"], e["ts"])
        if e.get("ph") == "X" and e.get("cat") in ("cpu_op", "user_annotation"):
            ranges[(e["pid"], e["tid"])].append((e["ts"], e["ts"] + e.get("dur", 0), e))
    out = collections.Counter(); nbytes = collections.Counter()
    for e in ev:
        if e.get("cat") != "kernel" or not e.get("name", "").startswith(("nccl", "rccl")):
            continue
        a = e["args"]
        ann = op = params = None
        if a.get("correlation") in launch:
            pid, tid, ts = launch[a["correlation"]]
            # enclosing ranges, innermost (latest start) first
            enc = sorted((r for r in ranges[(pid, tid)] if r[0] <= ts <= r[1]), key=lambda r: -r[0])
            for s, t, r in enc:
                n = r["name"]
                if ann is None and n.startswith("nccl:"): ann = r
                if op is None and n.startswith("c10d::"): op = r
                if params is None and "Collective name" in (r.get("args") or {}): params = r["args"]
        src = a if "Collective name" in a else params
        k = kind(src["Collective name"]) if src else "other"
        if k == "other" and ann: k = kind(ann["name"])
        if k == "other" and op: k = kind(op["name"])
        if k == "other": k = kind(e["name"])
        size = 0
        if src and src.get("dtype"):
            sz = DT.get(src["dtype"].lower(), 0)
            i, o, g = src.get("In msg nelems", -1), src.get("Out msg nelems", -1), src.get("Group size", -1)
            if k == "all_gather":
                el = o if o >= 0 else (i * g if i >= 0 and g > 0 else -1)
            else:
                el = i if i >= 0 else o
            size = el * sz if el > 0 else 0
        elif ann and ann["args"].get("Input Dims"):
            dims = ann["args"]["Input Dims"][0]
            el = 1
            for x in dims: el *= x
            sz = DT.get((ann["args"].get("Input type") or [""])[0].lower(), 0)
            if not dims: el = -1
            if k == "all_gather": el = el * ws if ws and el > 0 else -1
            size = el * sz if el > 0 else 0
        out[k] += 1; nbytes[k] += size
    return out, nbytes
for p in sys.argv[1:]:
    c, b = per_file(p)
    for k in sorted(c):
        print(p, k, c[k], b[k])
