#!/usr/bin/env python3
"""The op table of a Kineto trace, computed from the JSON by Python alone
(no gpuprof), for tests/cli/t0950_ops_kineto.sh to compare `gpuprof ops`
against.

    tests/tools/optable_oracle.py TRACE.json[.gz] > table.tsv
    tests/tools/optable_oracle.py --python TRACE.json[.gz] > pstats.tsv
    tests/tools/optable_oracle.py --memory TRACE.json[.gz] > memory.tsv

One line per op name (cpu_op, Operator and user_annotation events), sorted:
name, calls, cpu_total, self_cpu, gpu_total, self_gpu, in ns (microseconds
as written, exact Decimal arithmetic, half up, as the reader converts).

- A kernel, memcpy or memset belongs to the ops on its runtime call's
  thread (the runtime or driver event with its correlation id; the first
  such event) that strictly enclose the call (start < call start, end >
  call end): GPU total of an op instance is the sum of the durations of
  those kernels, memcpys and memsets; Self GPU goes to the innermost
  of them (latest start; on a tie the shorter; on a tie the later in the
  file, as PyTorch writes an op before the ops it calls).
- --python: one line per python_function name, as pstats shows it
  ("dir/f.py(12): fn" -> "dir/f.py:12(fn)", "<built-in x>" -> "{built-in
  x}"): the name, ncalls ("calls/primitive calls" when they differ; a
  primitive call is not inside a frame of the same name), tottime (its
  duration minus the frames directly inside), cumtime (durations of the
  primitive calls), ns.
- Self CPU of an instance is its duration minus those of the ops directly
  inside it: the op instances it contains whose innermost containing op
  instance it is (containment: start >= its start, end <= its end).
- --memory: one line per op name: the name, then CPU Mem, Self CPU Mem,
  GPU Mem, Self GPU Mem (net: Bytes summed, a free negative), CPU Alloc,
  Self CPU Alloc, GPU Alloc, Self GPU Alloc (gross: positive Bytes only),
  in bytes.  A [memory] instant (Device Type 0 = CPU; 1 = CUDA and 6 =
  HIP, c10::DeviceType's numbers, are GPU; others are neither) belongs to
  the ops on its thread (pid, tid) whose interval holds its ts (start <=
  ts <= end): all of them count it in their totals, the innermost (as for
  Self GPU) in its self figures.
"""
import decimal
import gzip
import json
import re
import sys
from collections import defaultdict

D = decimal.Decimal
OPS = ("cpu_op", "Operator", "user_annotation")
DEVICE = ("kernel", "Kernel", "gpu_memcpy", "Memcpy", "gpu_memset", "Memset")
CALLS = ("cuda_runtime", "cuda_driver", "Runtime", "mtia_runtime")


def ns(us):
    return int((D(us) * 1000).quantize(D(1), rounding=decimal.ROUND_HALF_UP))


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        doc = json.loads(f.read(), parse_float=str)
    return doc if isinstance(doc, list) else doc["traceEvents"]


def nest(items):
    """The direct parent (by containment, on its thread) of each of items
    (pid, tid, start, end, ...): index or None."""
    by_thread = defaultdict(list)
    for i, it in enumerate(items):
        by_thread[(it[0], it[1])].append(i)
    parent = [None] * len(items)
    for idx in by_thread.values():
        idx.sort(key=lambda i: (items[i][2], -items[i][3], i))
        stack = []
        for i in idx:
            while stack and not (items[stack[-1]][3] >= items[i][3] and items[i][2] < items[stack[-1]][3]):
                stack.pop()
            if stack:
                parent[i] = stack[-1]
            stack.append(i)
    return parent


def python_view(path):
    frames = []
    for e in load(path):
        if isinstance(e, dict) and e.get("ph") == "X" and "ts" in e and e.get("cat") == "python_function":
            start = ns(e["ts"])
            frames.append((e.get("pid"), e.get("tid"), start, start + max(0, ns(e.get("dur", 0))), e.get("name", "")))
    parent = nest(frames)
    inner = [0] * len(frames)
    for i, p in enumerate(parent):
        if p is not None:
            inner[p] += frames[i][3] - frames[i][2]
    rows = defaultdict(lambda: [0, 0, 0, 0])
    for i, (_, _, start, end, name) in enumerate(frames):
        p, primitive = parent[i], True
        while p is not None and primitive:
            primitive = frames[p][4] != name
            p = parent[p]
        r = rows[name]
        r[0] += 1
        r[1] += primitive
        r[2] += end - start - inner[i]
        r[3] += (end - start) if primitive else 0
    for name in sorted(rows):
        calls, prim, tottime, cumtime = rows[name]
        m = re.match(r"^([^(]+)\((\d+)\): (.*)$", name, re.S)
        if m:
            name = "%s:%s(%s)" % m.groups()
        elif len(name) >= 2 and name[0] == "<" and name[-1] == ">":
            name = "{%s}" % name[1:-1]
        ncalls = str(calls) if calls == prim else "%d/%d" % (calls, prim)
        print("\t".join([name, ncalls, str(tottime), str(cumtime)]))


def table(path):
    events = load(path)
    ops, kernels, calls = [], [], {}
    for e in events:
        if not isinstance(e, dict) or e.get("ph") != "X" or "ts" not in e:
            continue
        cat = e.get("cat")
        start = ns(e["ts"])
        end = start + max(0, ns(e.get("dur", 0)))
        if cat in OPS:
            ops.append((e.get("pid"), e.get("tid"), start, end, e.get("name", "")))
        elif cat in DEVICE:
            kernels.append((e.get("args", {}).get("correlation"), end - start))
        elif cat in CALLS:
            corr = e.get("args", {}).get("correlation")
            if corr is not None:
                calls.setdefault(corr, (e.get("pid"), e.get("tid"), start, end))

    by_thread = defaultdict(list)
    for i, (pid, tid, start, end, _) in enumerate(ops):
        by_thread[(pid, tid)].append(i)
    gpu_total = [0] * len(ops)
    self_gpu = [0] * len(ops)
    launches = defaultdict(list)
    for corr, dur in kernels:
        call = calls.get(corr) if corr is not None else None
        if call is not None:
            launches[(call[0], call[1])].append((call[2], call[3], dur))
    for thread, ls in launches.items():
        idx = sorted(by_thread.get(thread, []), key=lambda i: (ops[i][2], -ops[i][3], i))
        ls.sort()
        nxt, open_ = 0, []
        for cs, ce, dur in ls:
            while nxt < len(idx) and ops[idx[nxt]][2] < cs:
                open_.append(idx[nxt])
                nxt += 1
            open_ = [i for i in open_ if ops[i][3] > cs]
            around = [i for i in open_ if ops[i][3] > ce]
            for i in around:
                gpu_total[i] += dur
            if around:
                self_gpu[max(around, key=lambda i: (ops[i][2], -ops[i][3], i))] += dur

    children = [0] * len(ops)
    for i, p in enumerate(nest(ops)):
        if p is not None:
            children[p] += ops[i][3] - ops[i][2]

    rows = defaultdict(lambda: [0, 0, 0, 0, 0])
    for i, (_, _, start, end, name) in enumerate(ops):
        r = rows[name]
        r[0] += 1
        r[1] += end - start
        r[2] += end - start - children[i]
        r[3] += gpu_total[i]
        r[4] += self_gpu[i]
    for name in sorted(rows):
        print("\t".join([name] + [str(v) for v in rows[name]]))


def memory(path):
    events = load(path)
    ops, mem = [], []
    for e in events:
        if not isinstance(e, dict) or "ts" not in e:
            continue
        if e.get("ph") == "X" and e.get("cat") in OPS:
            start = ns(e["ts"])
            # 2021 files write an op's tid as a string, a [memory] one's as a number
            ops.append((str(e.get("pid")), str(e.get("tid")), start, start + max(0, ns(e.get("dur", 0))),
                        e.get("name", "")))
        elif e.get("ph") in ("i", "I") and e.get("name") == "[memory]":
            a = e.get("args", {})
            if "Bytes" in a and a.get("Device Type") in (0, 1, 6):
                mem.append((str(e.get("pid")), str(e.get("tid")), ns(e["ts"]), int(a["Bytes"]), a["Device Type"]))
    by_thread = defaultdict(list)
    for i, op in enumerate(ops):
        by_thread[(op[0], op[1])].append(i)
    # per op instance: CPU net, CPU alloc, GPU net, GPU alloc
    total = [[0] * 4 for _ in ops]
    self_ = [[0] * 4 for _ in ops]
    evs = defaultdict(list)
    for pid, tid, ts, b, dev in mem:
        evs[(pid, tid)].append((ts, b, dev))
    for thread, es in evs.items():
        idx = sorted(by_thread.get(thread, []), key=lambda i: (ops[i][2], -ops[i][3], i))
        es.sort(key=lambda x: x[0])
        nxt, open_ = 0, []
        for ts, b, dev in es:
            while nxt < len(idx) and ops[idx[nxt]][2] <= ts:
                open_.append(idx[nxt])
                nxt += 1
            open_ = [i for i in open_ if ops[i][3] >= ts]
            if not open_:
                continue
            col = 0 if dev == 0 else 2
            for i in open_:
                total[i][col] += b
                total[i][col + 1] += max(b, 0)
            inner = max(open_, key=lambda i: (ops[i][2], -ops[i][3], i))
            self_[inner][col] += b
            self_[inner][col + 1] += max(b, 0)
    rows = defaultdict(lambda: [0] * 8)
    for i, op in enumerate(ops):
        r = rows[op[4]]
        t, s_ = total[i], self_[i]
        for k, v in enumerate((t[0], s_[0], t[2], s_[2], t[1], s_[1], t[3], s_[3])):
            r[k] += v
    for name in sorted(rows):
        print("\t".join([name] + [str(v) for v in rows[name]]))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--memory":
        memory(sys.argv[2])
        sys.exit(0)
    if len(sys.argv) == 3 and sys.argv[1] == "--python":
        python_view(sys.argv[2])
    elif len(sys.argv) == 2:
        table(sys.argv[1])
    else:
        sys.exit("usage: optable_oracle.py [--python | --memory] TRACE > table.tsv")
