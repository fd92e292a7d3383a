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

    tests/tools/coll_oracle.py --job RANKFILE... > arrivals.txt

The arrivals at the collectives of one job's rank files (in rank order),
as docs/comm.md defines them: calls match by (process group, kind, the
trace's Seq else the call's position among its rank's calls of that
group and kind); each rank's clock offset to the first rank is the median
(of an even count, the mean of the middle two, rounded half away from
zero) of the first rank's kernel end minus its own over the calls both
have; over the calls every rank has, a rank's arrival is its kernel's
start plus its offset, the last arrival (the first rank of equals; none
when all arrive at once) makes each rank wait last - arrival, and is late
by last - the next-to-last arrival.  One line per rank: rank index, calls,
matched, times last, waited, caused (the others' wait for it), late; then
"calls N", "wait W" and "straggler S" (the rank the others waited for
longest, ties to more times last, then the lower index, when it was last
at more than half of the calls matched on every rank and caused more than
a quarter of all waiting; -1 when none).  Times in ns, read from the JSON
as gpuprof reads them (decimal microseconds to ns, half up).

    tests/tools/coll_oracle.py --waits RANKFILE... > waits.txt

Each rank's wait at each call matched on every rank (in the first rank's
order), one line per call and rank: kind, group ("(default)" when none),
seq (the trace's, else the position), rank index, its kernel's duration,
the call's transfer (the shortest kernel over the ranks), its wait (its
kernel - the transfer), its wait for the last arrival (aligned as
above), and "yes" when it is the last rank, else "no".
"""
import gzip, json, sys, collections, decimal
D = decimal.Decimal
def load(p):
    return json.load(gzip.open(p, "rt") if p.endswith(".gz") else open(p), parse_float=D)
def ns(us):
    return int((D(us) * 1000).quantize(D(1), rounding=decimal.ROUND_HALF_UP))
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
def calls(p):
    """Every collective kernel of p in trace order: (kind, bytes, group,
    seq or None, start ns, end ns)."""
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
    out = []
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
        group = str(src.get("Process Group Name", "")) if src else ""
        seq = src.get("Seq") if src and src.get("Seq", -1) >= 0 else None
        t0 = ns(e["ts"])
        out.append((k, size, group, seq, t0, t0 + ns(e.get("dur", 0))))
    return out
def per_file(p):
    out = collections.Counter(); nbytes = collections.Counter()
    for k, size, *_ in calls(p):
        out[k] += 1; nbytes[k] += size
    return out, nbytes
def med(v):
    v = sorted(v); n = len(v)
    if n % 2:
        return v[n // 2]
    s = v[n // 2 - 1] + v[n // 2]   # half of s, half away from zero
    return (abs(s) + 1) // 2 * (1 if s >= 0 else -1)
def keyed_calls(paths):
    """Per rank {(group, kind, seq): (start, end)}, the clock offsets, and
    the keys matched on every rank in the first rank's order."""
    keyed = []
    for p in paths:
        pos = collections.Counter(); m = {}
        for k, size, g, seq, t0, t1 in sorted(calls(p), key=lambda c: c[4]):
            key = (g, k, seq if seq is not None else pos[(g, k)])
            pos[(g, k)] += 1
            m.setdefault(key, (t0, t1))   # a second call of one key is left out
        keyed.append(m)
    n = len(paths)
    off = [0] * n
    for r in range(1, n):
        d = [keyed[0][c][1] - keyed[r][c][1] for c in keyed[0] if c in keyed[r]]
        off[r] = med(d) if d else 0
    complete = [c for c in keyed[0] if all(c in keyed[r] for r in range(n))]
    return keyed, off, complete
def job(paths):
    """Per rank [calls, matched, last, waited, caused, late], the complete
    calls, all waiting, the straggler's index (-1: none)."""
    keyed, off, complete = keyed_calls(paths)
    n = len(paths)
    st = [[len(keyed[r]), 0, 0, 0, 0, 0] for r in range(n)]
    total = 0
    for c in complete:
        arr = [keyed[r][c][0] + off[r] for r in range(n)]
        last = max(arr)
        lr = arr.index(last)
        for r in range(n):
            st[r][1] += 1; st[r][3] += last - arr[r]
        waits = sum(last - a for a in arr)
        total += waits
        if last > min(arr):
            st[lr][2] += 1; st[lr][4] += waits
            st[lr][5] += last - max(a for r, a in enumerate(arr) if r != lr)
    best = -1
    for r in range(n):
        if st[r][4] > 0 and (best < 0 or (st[r][4], st[r][2]) > (st[best][4], st[best][2])):
            best = r
    if best >= 0 and not (n > 1 and st[best][2] > 0.5 * len(complete) and st[best][4] > 0.25 * total
                          and st[best][5] > 0):
        best = -1
    return st, len(complete), total, best
if __name__ == "__main__" and sys.argv[1:2] == ["--job"]:
    st, ncalls, total, best = job(sys.argv[2:])
    for r, x in enumerate(st):
        print(r, *x)
    print("calls", ncalls); print("wait", total); print("straggler", best)
elif __name__ == "__main__" and sys.argv[1:2] == ["--waits"]:
    keyed, off, complete = keyed_calls(sys.argv[2:])
    n = len(keyed)
    for c in complete:
        dur = [keyed[r][c][1] - keyed[r][c][0] for r in range(n)]
        arr = [keyed[r][c][0] + off[r] for r in range(n)]
        last = max(arr)
        lr = arr.index(last) if last > min(arr) else -1
        for r in range(n):
            print(c[1], c[0] or "(default)", c[2], r, dur[r], min(dur), dur[r] - min(dur), last - arr[r],
                  "yes" if r == lr else "no")
elif __name__ == "__main__":
    for p in sys.argv[1:]:
        c, b = per_file(p)
        for k in sorted(c):
            print(p, k, c[k], b[k])
