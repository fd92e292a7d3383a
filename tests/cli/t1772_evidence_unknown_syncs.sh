# A sync record of unknown type (CUPTI's type 0, which nsys writes for
# cudaDeviceSynchronize) waits for the latest GPU work on its device that
# ended before the call returned (issue 33 item 6.3).  On SIGMA's serial
# program (nsys) the four device syncs return at most 33 us after their
# work: the critical path goes through the work, and only those
# microseconds are the syncs' own.  The oracle reads the raw SQLite file.
command -v python3 >/dev/null || skip "python3 not installed"
need_testdata
T=$TESTDATA/verdicts/new3/sigma_report2.sqlite
[ -r "$T" ] || skip "verdicts/new3/sigma_report2.sqlite not in testdata"
python3 - "$T" > "$TMP/oracle" <<'PY' || fail "oracle"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
rows = db.execute("select r.start, r.end, s.deviceId from CUPTI_ACTIVITY_KIND_SYNCHRONIZATION s "
                  "join CUPTI_ACTIVITY_KIND_RUNTIME r on r.correlationId = s.correlationId "
                  "where s.syncType = 0").fetchall()
assert len(rows) == 4, rows
own = waited = 0
for a, b, dev in rows:
    # the GPU work of the device that ended last before the call returned
    e, s = db.execute("select end, start from (select start, end, deviceId from CUPTI_ACTIVITY_KIND_KERNEL "
                      "union all select start, end, deviceId from CUPTI_ACTIVITY_KIND_MEMCPY) "
                      "where deviceId = ? and end <= ? order by end desc limit 1", (dev, b)).fetchone()
    assert 0 <= b - e <= 33000, (a, b, e)
    own += b - max(e, a)
    waited += max(e, a) - a
print(own, waited)
PY
read own waited < "$TMP/oracle"
# without the link every call's whole time was the sync's: 15.4 ms
[ "$waited" -gt 10000000 ] || fail "the oracle: the calls waited $waited ns"
run_ok "$GPUPROF" breakdown --view critical -f tsv "$T"
ns=$(awk -F'\t' '$1 == "all" && $2 == "sync" && $3 == "cudaDeviceSynchronize" { print $5 }' "$TMP/out")
[ -n "$ns" ] || fail "no device sync on the path"
[ "$ns" -le "$own" ] || fail "the device syncs hold $ns ns of the path, more than their own $own ns"
# the path goes through the work they waited for: no call of 1 ms or more
# as sync
run_ok "$GPUPROF" export -f perfetto --critical-path -o "$TMP/cp.json" "$T"
python3 - "$TMP/cp.json" <<'PY' || fail "the export's critical path"
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
track = [e for e in ev if e.get("cat") == "critical_path" and e.get("ph") == "X"]
syncs = [e for e in track if e["name"] == "sync" and e["args"].get("what", "").startswith("cudaDeviceSynchronize")]
assert syncs and all(e["dur"] <= 33 for e in syncs), syncs
PY
