# Framework ops on another thread hold the time inside a user annotation
# the main thread only sits in (issue 33 item 6.2).  On rank 7 of PARAM's
# DLRM job (Kineto), inside "## backward ##" (4,371 us on the main thread)
# the autograd engine's thread runs 906 events (its backward ops and their
# calls) covering 3,767 us: the critical path gives the annotation at
# most the time none ran, and its time there is cpu_op on the autograd
# thread.  The oracle reads the raw JSON.
command -v python3 >/dev/null || skip "python3 not installed"
need_testdata
set -- "$TESTDATA"/verdicts/param/dlrm_kineto_8rank/worker7_*.json.gz
T=$1
[ -r "$T" ] || skip "verdicts/param/dlrm_kineto_8rank not in testdata"
run_ok "$GPUPROF" export -f perfetto --critical-path -o "$TMP/cp.json" "$T"
python3 - "$T" "$TMP/cp.json" <<'PY' || fail "the path inside ## backward ##"
import gzip, json, sys
raw = [e for e in json.load(gzip.open(sys.argv[1]))["traceEvents"] if e.get("ph") == "X"]
ours = json.load(open(sys.argv[2]))["traceEvents"]
bw = [e for e in raw if e["name"] == "## backward ##"]
assert len(bw) == 1 and bw[0]["dur"] == 4371, bw
bw = bw[0]
lo, hi = bw["ts"], bw["ts"] + bw["dur"]
# the other threads' events (ops, their calls, their ranges) inside it
ops = sorted((e["ts"], min(e["ts"] + e["dur"], hi)) for e in raw if e.get("cat") in ("cpu_op", "cuda_runtime", "user_annotation") and
             e["tid"] != bw["tid"] and e["pid"] == bw["pid"] and lo <= e["ts"] < hi)
assert len(ops) == 906, len(ops)
covered, end = 0, lo
for a, b in ops:   # the union of the autograd thread's ops
    a = max(a, end)
    if b > a:
        covered += b - a
        end = b
assert 3760 <= covered <= 3770, covered
track = [e for e in ours if e.get("cat") == "critical_path" and e.get("ph") == "X"]
def inside(e):
    return lo <= float(e["ts"]) and float(e["ts"]) + float(e["dur"]) <= hi
ann = sum(float(e["dur"]) for e in track if inside(e) and e["name"] == "annotation" and e["args"].get("what") == "## backward ##")
ops_on_path = sum(float(e["dur"]) for e in track if inside(e) and e["name"] == "cpu_op")
assert ann <= bw["dur"] - covered + 1, (ann, bw["dur"] - covered)
assert ops_on_path >= 3000, ops_on_path
PY
