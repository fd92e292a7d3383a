# Autotuning and warm-up allocation are one-time costs (issue 33 item 5;
# docs/cli.md, "Causes"): gpuprof-gen --inject autotune=5000,malloc=3000
# writes, by construction, a cudnnFindConvolutionForwardAlgorithmEx call of
# 5 ms before step 1's first GEMM and a cudaMalloc of 3 ms in steps 1 and 3
# (the GPU idle meanwhile).  The oracle reads the raw file (nsys SQLite,
# Kineto JSON): the GPU's idle gaps (union of kernels, copies, memsets),
# the calls, the steps (NVTX "iteration N", ProfilerStep#N), and the part
# of each call inside its gap (from the gap's start, or the call's, to the
# call's end: the walk back from the work after it passes the call).
# gpuprof must give the search's part to autotune, the step-1 malloc's to
# first_alloc, the step-3 one's to allocator (breakdown's idle_NAME and its
# gaps view), none to jit; advise must tell autotune and first_alloc as
# one-time findings (no per-step figure, "profile a later step", never CUDA
# graphs) and allocator per step; --what-if cause:autotune=0 gives the
# search's idle time back.
command -v python3 >/dev/null || skip "python3 not installed"
for fmt in nsys kineto; do
	f=$TMP/gen.$fmt
	"$GEN" --format $fmt --iters 4 --seed 5 --inject autotune=5000,malloc=3000 -o "$f" >/dev/null ||
		fail "gpuprof-gen --format $fmt"
	run_ok "$GPUPROF" breakdown -f csv "$f"; mv "$TMP/out" "$TMP/bd.csv"
	run_ok "$GPUPROF" breakdown --view gaps -f csv "$f"; mv "$TMP/out" "$TMP/gaps.csv"
	run_ok "$GPUPROF" advise -f json "$f"; mv "$TMP/out" "$TMP/adv.json"
	run_ok "$GPUPROF" advise --what-if cause:autotune=0 -f csv "$f"; mv "$TMP/out" "$TMP/wi.csv"
	python3 - "$f" "$fmt" "$TMP" <<'PY' || fail "$fmt: the one-time gaps"
import csv, json, re, sqlite3, sys
path, fmt, d = sys.argv[1:4]
if fmt == "nsys":
    db = sqlite3.connect(path)
    gpu = db.execute("SELECT start, end FROM CUPTI_ACTIVITY_KIND_KERNEL UNION ALL SELECT start, end FROM "
                     "CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL SELECT start, end FROM CUPTI_ACTIVITY_KIND_MEMSET").fetchall()
    calls = db.execute("SELECT r.start, r.end, s.value FROM CUPTI_ACTIVITY_KIND_RUNTIME r "
                       "JOIN StringIds s ON s.id = r.nameId").fetchall()
    steps = [(s, e, int(t.split()[1])) for s, e, t in db.execute(
        "SELECT n.start, n.end, COALESCE(n.text, s.value) FROM NVTX_EVENTS n LEFT JOIN StringIds s "
        "ON s.id = n.textId WHERE n.eventType = 59").fetchall() if t and re.fullmatch(r"iteration \d+", t)]
else:
    ev = json.load(open(path))["traceEvents"]
    span = lambda e: (round(e["ts"] * 1000), round((e["ts"] + e["dur"]) * 1000))
    gpu = [span(e) for e in ev if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")]
    calls = [span(e) + (e["name"],) for e in ev if e.get("cat") == "cuda_runtime"]
    steps = [span(e) + (int(e["name"].split("#")[1]),) for e in ev
             if e.get("cat") == "user_annotation" and e["name"].startswith("ProfilerStep#")]
gpu.sort()
gaps, end = [], gpu[0][1]
for s, e in gpu[1:]:
    if s > end:
        gaps.append((end, s))
    end = max(end, e)
steps.sort()
assert len(steps) == 4 and steps[0][2] == 0, steps
def part(c):   # the call's part of the idle gap it ends in
    g = [(a, b) for a, b in gaps if a < c[1] <= b]
    assert len(g) == 1, (c, g)
    return g[0], c[1] - max(c[0], g[0][0])
find = [c for c in calls if c[2].startswith("cudnnFind")]
mallocs = [c for c in calls if c[2].startswith("cudaMalloc")]
assert len(find) == 1 and abs(find[0][1] - find[0][0] - 5e6) < 1e3, find
assert len(mallocs) == 2 and all(abs(c[1] - c[0] - 3e6) < 1e3 for c in mallocs), mallocs
step_of = lambda c: [n for s, e, n in steps if s <= c[0] < e]
assert step_of(find[0]) == [0] and [step_of(c) for c in mallocs] == [[0], [2]], (steps, find, mallocs)
want = {"autotune": part(find[0]), "first_alloc": part(mallocs[0]), "allocator": part(mallocs[1])}
for k, (g, ns) in want.items():
    assert ns > 2.5e6, (k, g, ns)   # the GPU idle most of the call
# breakdown: the parts, exactly (within the readers' rounding); no jit
bd = {r["Part"]: int(r["Time (ns)"]) for r in csv.DictReader(open(d + "/bd.csv")) if r["Iter"] == "all"}
for k, (g, ns) in want.items():
    assert abs(bd["idle_" + k] - ns) < 200, (k, bd["idle_" + k], ns)
assert bd["idle_jit"] == 0, bd
rows = list(csv.DictReader(open(d + "/gaps.csv")))
for k, (g, ns) in want.items():
    row = [r for r in rows if abs(int(r["Idle (ns)"]) - (g[1] - g[0])) < 200]
    assert len(row) == 1 and row[0]["Cause"] == k, (k, g, row)
# advise: one-time findings for autotune and first_alloc, per-step allocator
fs = {x["kind"]: x for x in map(json.loads, filter(str.strip, open(d + "/adv.json")))}
assert "jit" not in fs, fs.get("jit")
for k in ("autotune", "first_alloc"):
    x = fs[k]
    assert abs(x["involved_ns"] - want[k][1]) < 200 and x["per_step_ns"] is None, x
    assert "profile a later step" in x["change"] and "warm up before the profiler starts" in x["change"], x
    assert "CUDA graph" not in x["title"] + x["evidence"] + x["change"], x
assert fs["autotune"]["title"].startswith("one-time cost: autotuning"), fs["autotune"]
a = fs["allocator"]
assert abs(a["involved_ns"] - want["allocator"][1]) < 200 and a["per_step_ns"] is not None, a
# --what-if: the search removed gives its idle part back, at least
wi = [r for r in csv.reader(open(d + "/wi.csv")) if r and r[0] == "gpu_span"]
assert len(wi) == 1, wi
saving = float(wi[0][3])
assert saving >= want["autotune"][1] - 200, (wi, want["autotune"])
PY
done
