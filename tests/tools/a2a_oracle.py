#!/usr/bin/env python3
"""All-to-all per rank from raw Kineto JSON, independently of gpuprof.

Usage: a2a_oracle.py FILE...  (one rank each; .json or .json.gz)

Prints one line per file, in rank order (distributedInfo.rank):
  rank calls sent_bytes recv_bytes time_ns
where calls counts the NCCL kernels launched under an nccl:all_to_all
annotation (matched to it by the annotation's time span on the launching
thread and the launch's correlation id), sent_bytes sums the annotation's
first Input Dims x Input type (the input tensor), recv_bytes the first
tensor of the enclosing c10d::alltoall_base_ op (its output), and time_ns
the kernels' durations.  When record_param_comms states "In msg nelems"
and "Out msg nelems" with a dtype, those are used instead.
"""
import gzip
import json
import sys

SIZES = {"float": 4, "int": 4, "long int": 8, "long": 8, "double": 8, "c10::half": 2, "half": 2,
         "c10::bfloat16": 2, "bfloat16": 2, "float16": 2, "signed char": 1, "unsigned char": 1,
         "bool": 1, "float8_e4m3fn": 1}


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def nelems(dims):
    n = 1
    for d in dims:
        n *= d
    return n


def enclosing(events, e):
    """events on e's thread whose span holds e's start, outermost first."""
    return [x for x in events if x.get("pid") == e.get("pid") and x.get("tid") == e.get("tid")
            and x["ts"] <= e["ts"] and e["ts"] < x["ts"] + x.get("dur", 0)]


def rank_row(path):
    d = load(path)
    ev = [e for e in d["traceEvents"] if e.get("ph") == "X" and "ts" in e]
    cpu = [e for e in ev if e.get("cat") in ("cpu_op", "user_annotation")]
    launches = {e["args"]["correlation"]: e for e in ev
                if e.get("cat") == "cuda_runtime" and "correlation" in e.get("args", {})}
    calls = sent = recv = time = 0
    for k in ev:
        if k.get("cat") != "kernel" or "nccl" not in k["name"].lower():
            continue
        api = launches.get(k["args"].get("correlation"))
        if api is None:
            continue
        around = enclosing(cpu, api)
        annot = [x for x in around if x["name"] == "nccl:all_to_all"]
        if not annot:
            continue
        calls += 1
        time += round(k["dur"] * 1000)
        params = [x for x in around if x["name"] == "record_param_comms"
                  and "In msg nelems" in x.get("args", {})]
        if params and params[-1]["args"].get("dtype"):
            a = params[-1]["args"]
            size = SIZES[a["dtype"].lower()]
            sent += a["In msg nelems"] * size
            recv += a["Out msg nelems"] * size
            continue
        a = annot[-1]["args"]
        sent += nelems(a["Input Dims"][0]) * SIZES[a["Input type"][0]]
        op = [x for x in around if x["name"] == "c10d::alltoall_base_"]
        if op:
            a = op[-1]["args"]
            recv += nelems(a["Input Dims"][0]) * SIZES[a["Input type"][0]]
    return d.get("distributedInfo", {}).get("rank", -1), calls, sent, recv, time


def main():
    rows = sorted(rank_row(p) for p in sys.argv[1:])
    for r in rows:
        print(*r)


if __name__ == "__main__":
    main()
