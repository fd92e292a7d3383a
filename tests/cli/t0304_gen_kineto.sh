# gpuprof-gen --format kineto: valid JSON (plain and gzip), N kernel events,
# each with a cuda_runtime of the same correlation and an External id that a
# cpu_op carries, ProfilerStep annotations, base time.
command -v python3 >/dev/null || skip "python3 not installed"
run_ok "$GEN" --format kineto -n 400 --streams 3 -o "$TMP/t.json"
run_ok "$GEN" --format kineto -n 400 --streams 3 -o "$TMP/t.json.gz"
[ "$(head -c 2 "$TMP/t.json.gz" | od -An -tx1 | tr -d ' ')" = 1f8b ] || fail "no gzip magic"
python3 - "$TMP/t.json" "$TMP/t.json.gz" <<'PY' || fail "Kineto invariants"
import gzip, json, sys
a = json.load(open(sys.argv[1]))
b = json.load(gzip.open(sys.argv[2]))
assert a.pop("traceName") == "t.json" and b.pop("traceName") == "t.json.gz"
assert a == b, "gzip and plain differ"
ev = a["traceEvents"]
assert a["schemaVersion"] == 1 and a["baseTimeNanoseconds"] > 0 and a["deviceProperties"][0]["numSms"] == 108
k = [e for e in ev if e.get("cat") == "kernel"]
assert len(k) == 400, len(k)
rt = {e["args"]["correlation"]: e for e in ev if e.get("cat") == "cuda_runtime"}
ops = {e["args"]["External id"] for e in ev if e.get("cat") == "cpu_op"}
for e in k:
    r = rt[e["args"]["correlation"]]
    assert r["name"] == "cudaLaunchKernel", r
    assert r["ts"] <= e["ts"]
    assert e["args"]["External id"] == r["args"]["External id"] and e["args"]["External id"] in ops
steps = [e["name"] for e in ev if e.get("cat") == "user_annotation" and e["name"].startswith("ProfilerStep#")]
assert steps and "ProfilerStep#0" in steps
bwd = [e for e in ev if e.get("cat") == "cpu_op" and e["name"] == "AddmmBackward0"]
fwd = {e["args"]["Sequence number"] for e in ev if e.get("cat") == "cpu_op" and e["name"] == "aten::addmm"}
assert bwd and all(e["args"]["Sequence number"] in fwd and e["args"]["Fwd thread id"] == 24242 for e in bwd)
mm = [e for e in ev if e.get("name") == "aten::addmm"][0]["args"]
assert mm["Input Dims"] == [[4096], [2048, 1024], [1024, 4096], [], []], mm
flows = [e for e in ev if e.get("cat") == "ac2g"]
assert len([f for f in flows if f["ph"] == "s"]) == len([f for f in flows if f["ph"] == "f"]) >= 400
assert {e["cat"] for e in ev if "cat" in e} >= {"gpu_memcpy", "gpu_memset", "cuda_sync"}
PY
