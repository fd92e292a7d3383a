# The replay's main thread is the thread of the process's earliest range,
# not the lowest thread id (issue 33 item 3: a saving is a replay).  On
# PyProf's language model (nvprof, V100) the autograd thread has the lower
# id and ranges only in the backward pass; the main thread launches the
# step and waits 21.5 ms in one cudaMalloc while the GPU idles.  With the
# wrong main thread every idle stretch of the launching thread ended when
# the autograd thread (unmoved) woke it, so removing the allocator saved
# 0.26 ms.  The oracle reads the raw SQLite: the longest cudaMalloc, on
# the thread with the earliest marker, and every kernel after it launched
# by that thread with no GPU work between the call and the next kernel
# (the program is serial there): removing it saves its duration.
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
T=$TESTDATA/verdicts/nvprof/pyprof_lm_v100/net_17ed9e2.sql
[ -r "$T" ] || skip "verdicts/nvprof/pyprof_lm_v100 not in testdata"
python3 - "$T" >"$TMP/want" <<'PY' || fail "oracle"
import sqlite3, struct, sys
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
# cbid 20 is cudaMalloc in CUPTI's runtime callback ids
calls = db.execute("SELECT start, end, threadId FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE cbid = 20").fetchall()
s, e, tid = max(calls, key=lambda c: c[1] - c[0])
first = db.execute("SELECT objectId FROM CUPTI_ACTIVITY_KIND_MARKER ORDER BY timestamp LIMIT 1").fetchone()[0]
main_tid = struct.unpack_from("<q", first, 4)[0] & 0xffffffff
assert tid & 0xffffffff == main_tid, (tid, main_tid)
units = db.execute("SELECT start, end FROM CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL UNION ALL "
                   "SELECT start, end FROM CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL "
                   "SELECT start, end FROM CUPTI_ACTIVITY_KIND_MEMSET").fetchall()
assert not any(s <= a < e for a, b in units), "GPU work during the call"
assert max(b for a, b in units if a < s) < s and any(a > e for a, b in units)
print(e - s)
PY
run_ok "$GPUPROF" advise -f json "$T"
python3 - "$TMP/out" "$(cat "$TMP/want")" <<'PY' || fail "the allocator's replay on the main thread"
import json, sys
want = int(sys.argv[2])
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
al = [r for r in rows if r["kind"] == "allocator"]
assert len(al) == 1, [r["kind"] for r in rows]
assert abs(al[0]["alone_ns"] - want) <= 0.02 * want, (al[0]["alone_ns"], want)
PY
run_ok "$GPUPROF" advise --what-if cause:allocator=0 -f json "$T"
python3 - "$TMP/out" "$(cat "$TMP/want")" <<'PY' || fail "--what-if cause:allocator=0"
import json, sys
want = int(sys.argv[2])
m = next(r for r in map(json.loads, open(sys.argv[1])) if r["measure"] == "gpu_span")
assert abs(m["saving_ns"] - want) <= 0.02 * want, (m["saving_ns"], want)
PY
