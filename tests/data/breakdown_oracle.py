# The independent oracle of tests/cli/t0900: reads a trace the way the
# format defines it (Kineto JSON with exact decimal timestamps; rocprofv3
# JSON, integer ns; the nsys or nvprof SQLite tables through SQL) and computes per device the span, the
# union per kind of work, the overlap and the idle time with its own sweep;
# then checks gpuprof breakdown -f csv (argv[2]) and --view streams (argv[3]).
#   breakdown_oracle.py TRACE OUT STREAMS            computes, then checks
#   breakdown_oracle.py TRACE OUT STREAMS REF KEY    checks against the lines
#                                                    of KEY in REF (computed once)
#   breakdown_oracle.py --emit TRACE KEY             prints REF lines for TRACE
# tests/tools/make-breakdown-ref.sh writes tests/data/breakdown_ref.tsv with
# --emit over testdata, so that t0900 need not parse 42 traces in Python at
# every run.
import csv, gzip, json, re, sqlite3, sys
from decimal import Decimal, ROUND_HALF_UP
PARTS = ("span", "idle", "compute", "communication", "memory", "busy", "overlap", "kernels")
if sys.argv[1] == "--emit":
    path, key = sys.argv[2:4]
    refkey = None
else:
    path, out, streams = sys.argv[1:4]
    refpath, refkey = (sys.argv[4:6] + [None, None])[:2]
COMM = ("ncclKernel_", "ncclDevKernel_", "rccl")
# collectives outside NCCL by the words in their names (vLLM TP on NVLS:
# PyTorch symmetric memory's multimem all-reduce; vLLM's custom all-reduce)
COMM_WORDS = ("multimem_all_reduce", "cross_device_reduce")
def is_comm(name):
    return name.startswith(COMM) or any(w in name for w in COMM_WORDS)
def base(name):   # the function's name of a mangled "_Z25ncclKernel_AllReduce...Pv"
    m = re.match(r"_ZN?(\d+)", name or "")
    return name[m.end():m.end() + int(m.group(1))] if m else (name or "")
def ns(v):
    return int(Decimal(str(v)).scaleb(3).quantize(Decimal(1), rounding=ROUND_HALF_UP))
def compute():
    acts = trace_activities()
    ref = {}
    for dev in {a[0] for a in acts}:
        ev = []
        for a in acts:
            if a[0] == dev:
                ev += [(a[1], 1, a[3]), (a[2], -1, a[3])]
        ev.sort(key=lambda x: (x[0], x[1]))
        cnt = {1: 0, 2: 0, 4: 0}; bym = [0] * 8; last = None
        for t, d, k in ev:
            if last is not None and t > last:
                m = sum(b for b in cnt if cnt[b] > 0)
                bym[m] += t - last
            cnt[k] += d; last = t
        kind = lambda b: sum(bym[m] for m in range(1, 8) if m & b)
        span = max(a[2] for a in acts if a[0] == dev) - min(a[1] for a in acts if a[0] == dev)
        ref[dev] = {"span": span, "idle": bym[0], "compute": kind(1), "communication": kind(2),
                    "memory": kind(4), "busy": kind(7),
                    "overlap": sum((bin(m).count("1") - 1) * bym[m] for m in range(1, 8)),
                    "kernels": sum(1 for a in acts if a[0] == dev and a[3] != 4)}
    return ref
def rocprof_activities(procs):
    # rocprofv3 JSON: integer ns; a GPU agent's device is its gpu_index; a
    # kernel's name is its symbol's (kernel_symbols by kernel_id, per
    # process); a copy runs on its GPU side (GPU to GPU: the source)
    acts = []
    for p in procs:
        gpu = {a["id"]["handle"]: a["gpu_index"] for a in p.get("agents", []) if a.get("type") == 2}
        names = {k["kernel_id"]: k.get("formatted_kernel_name", "") for k in p.get("kernel_symbols", [])}
        rec = p.get("buffer_records", {})
        for k in rec.get("kernel_dispatch", []):
            s, t, di = k["start_timestamp"], k["end_timestamp"], k["dispatch_info"]
            comm = is_comm(names.get(di["kernel_id"], ""))
            acts.append((gpu[di["agent_id"]["handle"]], s, max(s, t), 2 if comm else 1))
        for m in rec.get("memory_copy", []):
            s, t = m["start_timestamp"], m["end_timestamp"]
            src, dst = gpu.get(m["src_agent_id"]["handle"]), gpu.get(m["dst_agent_id"]["handle"])
            acts.append((src if src is not None else dst, s, max(s, t), 4))
    return acts
def trace_activities():
    acts = []   # (device, start, end, kind bit)
    if path.endswith((".json", ".json.gz")):
        f = gzip.open(path, "rt") if path.endswith(".gz") else open(path)
        d = json.load(f, parse_float=Decimal)
        if isinstance(d, dict) and "rocprofiler-sdk-tool" in d:
            return rocprof_activities(d["rocprofiler-sdk-tool"])
        ev = d["traceEvents"] if isinstance(d, dict) else d
        for e in ev:
            if not isinstance(e, dict) or e.get("ph") != "X":
                continue
            cat = e.get("cat")
            if cat not in ("kernel", "Kernel", "gpu_memcpy", "Memcpy", "gpu_memset", "Memset"):
                continue
            s = ns(e["ts"]); t = s + ns(e.get("dur", 0))
            dev = int((e.get("args") or {}).get("device", e.get("pid", 0)))
            kind = 4 if cat not in ("kernel", "Kernel") else 2 if is_comm(e.get("name", "")) else 1
            acts.append((dev, s, max(s, t), kind))
    else:
        db = sqlite3.connect(path)
        tabs = {r[0] for r in db.execute("select name from sqlite_master where type='table'")}
        nsys = "StringIds" in tabs
        strtab = "StringIds" if nsys else "StringTable"
        kt = "CUPTI_ACTIVITY_KIND_KERNEL" if nsys else "CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL"
        namecol = "shortName" if nsys else "name"
        if kt in tabs:
            for dev, s, t, n in db.execute(f"select k.deviceId, k.start, k.end, s.value from {kt} k left join {strtab} s on s._id_id = k.{namecol}".replace("_id_id", "id" if nsys else "_id_")):
                acts.append((dev, s, max(s, t), 2 if is_comm(base(n)) else 1))
        for tab in ("CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET"):
            if tab in tabs:
                for dev, s, t in db.execute(f"select deviceId, start, end from {tab}"):
                    acts.append((dev, s, max(s, t), 4))
    return acts
if sys.argv[1] == "--emit":
    print(key + "\t#file")
    for dev, r in sorted(compute().items()):
        print("\t".join([key, str(dev)] + [str(r[p]) for p in PARTS]))
    sys.exit(0)
if refkey is None:
    ref = compute()
else:
    ref = {}
    for line in open(refpath):
        f = line.rstrip("\n").split("\t")
        if f[0] == refkey and f[1] != "#file":
            ref[int(f[1])] = dict(zip(PARTS, map(int, f[2:])))
got = {}
for r in list(csv.reader(open(out)))[1:]:
    got.setdefault((int(r[0]), r[1]), {})[r[2]] = int(r[3])
assert {k[0] for k in got} == set(ref), (sorted(ref), sorted({k[0] for k in got}))
for (dev, it), g in got.items():
    # the parts add up exactly, in every window
    assert g["compute"] + g["communication"] + g["memory"] + g["idle"] - g["overlap"] == g["span"], (dev, it, g)
    assert g["busy"] + g["idle"] == g["span"] and g["busy"] <= g["span"], (dev, it, g)
    assert sum(v for p, v in g.items() if p.startswith("idle_")) == g["idle"], (dev, it, g)
    assert g["comm_hidden"] + g["comm_exposed"] == g["communication"], (dev, it, g)
    if it == "all":
        for p in ("span", "idle", "compute", "communication", "memory", "busy", "overlap"):
            assert g[p] == ref[dev][p], (path, dev, p, g[p], ref[dev][p])
kern = {}
for r in list(csv.reader(open(streams)))[1:]:
    kern[int(r[0])] = kern.get(int(r[0]), 0) + int(r[2])
for dev in ref:
    assert kern.get(dev, 0) == ref[dev]["kernels"], (path, dev, kern.get(dev), ref[dev]["kernels"])
print(path, "ok", len(got), "windows")
