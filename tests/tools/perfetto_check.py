"""Checks a gpuprof export -f perfetto file (used by tests/cli/t100*.sh).

usage: perfetto_check.py EXPORT [REPORT_CSV]
EXPORT: the trace (.gz read as gzip).  REPORT_CSV: `report -f csv -c
start,end,device` of the input, for the kernel count.  The "idle" slices
of each GPU must sum to the gaps between its kernels, copies and memsets,
merged here, each named by the cause holding most of it.
Exits non-zero with the reason on the first problem."""
import bisect, csv, gzip, json, sys
from decimal import Decimal

# the idle causes (docs/dependencies.md)
CAUSES = ("launch", "gpu_gap", "pageable_copy", "event_wait", "sync", "comm_wait", "cpu_op", "python", "annotation", "dataloader",
          "allocator", "jit", "module_load", "capture", "cuda_api", "untraced", "unknown")

def ns(us):
    """Exact nanoseconds of a microsecond value written with 3 decimals."""
    return int(Decimal(repr(us)) * 1000) if isinstance(us, float) else us * 1000

path = sys.argv[1]
with (gzip.open if path.endswith(".gz") else open)(path, "rt") as f:
    text = f.read()
doc = json.loads(text, parse_float=Decimal)
events = doc["traceEvents"]
need = {"X": ("name", "cat", "ts", "pid", "tid", "dur"), "M": ("name", "pid", "tid", "args"),
        "C": ("name", "ts", "pid", "tid", "args"), "s": ("cat", "ts", "pid", "tid", "id"),
        "f": ("cat", "ts", "pid", "tid", "id", "bp"), "i": ("name", "ts", "pid", "tid", "s")}
slices, named_pids, named_threads, starts, ends = {}, set(), set(), {}, {}
kernels, idle, counters = [], {}, set()
for e in events:
    assert e.get("ph") in need, e
    for k in need[e["ph"]]:
        assert k in e, ("missing " + k, e)
    if e["ph"] == "X":
        assert e["dur"] >= 0, e
        s = int(e["ts"] * 1000)
        assert Decimal(s) == e["ts"] * 1000, ("ts not whole ns", e)
        slices.setdefault((e["pid"], e["tid"]), []).append((s, s + int(e["dur"] * 1000)))
        if e["cat"] == "kernel":
            kernels.append(e)
            for k in ("device", "stream", "correlation", "grid", "block", "dir"):
                assert k in e["args"], ("kernel without " + k, e)
        if e["cat"] == "gpu_idle":
            idle[e["pid"]] = idle.get(e["pid"], 0) + int(e["dur"] * 1000)
            # named by the cause holding most of it (docs/dependencies.md)
            assert e["name"] == e["args"]["cause"], ("idle slice name is not its cause", e)
            assert e["name"] in CAUSES, e
    elif e["ph"] == "M":
        if e["name"] == "process_name":
            named_pids.add(e["pid"])
        if e["name"] == "thread_name":
            named_threads.add((e["pid"], e["tid"]))
    elif e["ph"] == "C":
        counters.add((e["pid"], e["name"]))
    elif e["ph"] == "s":
        assert (e["cat"], e["id"]) not in starts, ("flow id used twice", e)
        starts[(e["cat"], e["id"])] = e
    elif e["ph"] == "f":
        assert e["bp"] == "e", e
        ends[(e["cat"], e["id"])] = e
assert set(starts) == set(ends), "a flow without its other end"
for v in slices.values():
    v.sort()
for e in list(starts.values()) + list(ends.values()):
    v = slices.get((e["pid"], e["tid"]), [])
    at = int(e["ts"] * 1000)
    i = bisect.bisect_right(v, (at, float("inf")))
    assert any(s <= at <= t for s, t in v[max(0, i - 256):i]), ("flow end on no slice", e)
for pid, tid in slices:
    assert pid in named_pids, ("unnamed process", pid)
gpus = {k["pid"] for k in kernels}
for g in gpus:
    assert (g, "GPU busy %") in counters, ("no busy counter", g)
    for k in kernels:
        if k["pid"] == g:
            assert (g, k["tid"]) in named_threads, ("unnamed stream", k)
            break
if len(sys.argv) > 2:
    rows = list(csv.DictReader(open(sys.argv[2])))
    assert len(rows) == len(kernels), ("kernel count", len(rows), len(kernels))
busy = {}
for e in events:
    if e["ph"] == "X" and e["cat"] in ("kernel", "gpu_memcpy", "gpu_memset"):
        s = int(e["ts"] * 1000)
        busy.setdefault(e["pid"], []).append((s, s + int(e["dur"] * 1000)))
for dev, v in busy.items():
    v.sort()
    gap, end = 0, v[0][1]
    for s, e in v[1:]:
        if s > end:
            gap += s - end
        end = max(end, e)
    assert idle.get(dev, 0) == gap, ("idle time", dev, idle.get(dev, 0), gap)
print(len(events), "events,", len(starts), "flows,", len(kernels), "kernels")
