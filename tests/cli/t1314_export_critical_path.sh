# gpuprof export -f perfetto --critical-path against HTA's own critical
# path of the same trace (testdata/hta/critical_path: HTA's simple_add
# benchmark and the overlaid trace HTA's critical_path_analysis wrote for
# it, whose records on the path carry args.critical).  HTA walks its
# graph back from the last GPU work, gpuprof from the last activity of the
# process (a CPU call here, after the last kernel), and gpuprof follows
# the user annotations HTA leaves out: apart from the path's last
# microseconds the two mark the same records (docs/dependencies.md).
# The track "critical path" tiles the walked span with pieces named by
# their causes, the marked records are the ones its pieces name, and the
# export reads back as the trace it came from.
command -v python3 >/dev/null || skip "python3 not installed"
need_testdata
T=$TESTDATA/hta/critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz
H=$TESTDATA/hta/critical_path/end_to_end/simple_add/output/overlaid_critical_path_trace.json.gz
run_ok "$GPUPROF" export -f perfetto --critical-path -o "$TMP/cp.json" "$T"
python3 - "$H" "$TMP/cp.json" <<'PY' || fail "the critical path differs from HTA's"
import gzip, json, sys
from decimal import Decimal
hta = json.load(gzip.open(sys.argv[1]))["traceEvents"]
ours = json.load(open(sys.argv[2]), parse_float=Decimal)["traceEvents"]
gpu = ("kernel", "gpu_memcpy", "gpu_memset")
def key(e):
    # kernels by start (names differ: HTA keeps Kineto's long ones), the rest by name and start
    return (e["cat"] in gpu, "" if e["cat"] in gpu else e["name"], round(float(e["ts"])))
H = {key(e) for e in hta if e.get("ph") == "X" and e.get("args", {}).get("critical")}
O = {key(e) for e in ours if e.get("ph") == "X" and e.get("args", {}).get("critical") is True}
both = H & O
assert len(H) == 624, len(H)
assert len(both) >= 618, (len(both), sorted(H - O, key=lambda k: k[2])[:10])
# what HTA marks alone is its path's end: at or after its last launch
last = max(k[2] for k in H - O) if H - O else 0
assert all(k[2] >= 1694040010096363 for k in H - O), sorted(H - O, key=lambda k: k[2])
# what gpuprof marks alone: user annotations, or the same end of the path
ann = {(False, e["name"], round(float(e["ts"]))) for e in ours if e.get("cat") == "user_annotation"}
extra = [k for k in O - H if k not in ann and k[2] < 1694040010096363]
assert not extra, extra[:10]

# the track: pieces in time order, back to back, over the walked span
track = [e for e in ours if e.get("cat") == "critical_path" and e["ph"] == "X"]
assert len(track) > 1000, len(track)
ns = lambda us: int(us * 1000)
for a, b in zip(track, track[1:]):
    assert ns(a["ts"]) + ns(a["dur"]) == ns(b["ts"]), (a, b)
for e in track:
    assert e["name"] == e["args"]["cause"] and e["tid"] == 2147483645, e
causes = {e["name"] for e in track}
assert {"cpu_op", "cuda_api", "allocator", "launch", "gpu_memory"} <= causes, causes
# every call the track names as held by it is marked critical
crit_calls = {(e["name"], ns(e["ts"])) for e in ours if e.get("cat") == "cuda_runtime" and e["args"].get("critical")}
for e in track:
    if e["name"] in ("cuda_api", "allocator", "sync") and e["args"].get("what", "").startswith("cuda"):
        assert any(n == e["args"]["what"] and s <= ns(e["ts"]) for n, s in crit_calls), e
PY
# the export reads back as the trace: the overlays are not records
COUNTS='import json,sys; d=json.load(sys.stdin); print([d[k] for k in ("kernels", "kernel_ns", "api_calls",
	"framework_ops", "annotations", "other_ranges", "memcpy", "memset", "synchronizations")])'
run_ok "$GPUPROF" info -f json "$T"
python3 -c "$COUNTS" < "$TMP/out" > "$TMP/a" || fail "info -f json of the trace"
run_ok "$GPUPROF" info -f json "$TMP/cp.json"
python3 -c "$COUNTS" < "$TMP/out" > "$TMP/b" || fail "info -f json of the export"
cmp -s "$TMP/a" "$TMP/b" || fail "the export reads back as $(cat "$TMP/b"), the trace as $(cat "$TMP/a")"
# folded stacks have no path to mark
expect_exit 2 "$GPUPROF" export -f folded --critical-path "$T"
assert_grep "critical-path is for -f perfetto" "$TMP/err"
