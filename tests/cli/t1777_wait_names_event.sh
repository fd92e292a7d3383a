# A stream wait on an event names the event's stream and the work it
# waited for, and says so when the trace does not hold the event's record
# (issue 33 item 6).  A generated nsys trace (cudaStreamWaitEvent with
# CUPTI's stream-wait records and the events' records): every event_wait
# gap's text names the kernel the event recorded and its stream, as the
# oracle finds them in the SQLite (the wait's eventId, that event's latest
# record before the wait, the last kernel, copy or memset launched onto
# the record's stream before the record call).  SGLang's Qwen3-8B decode step (MI300X, Kineto:
# hipStreamWaitEvent, no event record, t1774): the 463 ms wait says the
# event's record is not in the trace, in the gaps view and in advise's
# notice, and names no work it waited for.
command -v python3 >/dev/null || skip "python3 not installed"
"$GEN" --format nsys -n 200 --seed 7 --streams 3 -o "$TMP/gen.nsys" >/dev/null || fail "gpuprof-gen"
run_ok "$GPUPROF" breakdown --view gaps -n 1000 -f csv "$TMP/gen.nsys"
python3 - "$TMP/gen.nsys" "$TMP/out" <<'PY' || fail "the generated trace's event waits"
import csv, re, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
name = dict(db.execute("SELECT id, value FROM StringIds"))
calls = {c: s for c, s in db.execute("SELECT correlationId, start FROM CUPTI_ACTIVITY_KIND_RUNTIME")}
units = db.execute("SELECT correlationId, streamId, deviceId, shortName FROM CUPTI_ACTIVITY_KIND_KERNEL").fetchall()
launched = [(calls[c], stream, dev, name[n]) for c, stream, dev, n in units]
for kind in ("memcpy", "memset"):
    launched += [(calls[c], stream, dev, kind) for c, stream, dev in
                 db.execute("SELECT correlationId, streamId, deviceId FROM CUPTI_ACTIVITY_KIND_" + kind.upper())]
records = db.execute("SELECT eventId, streamId, deviceId, correlationId FROM CUPTI_ACTIVITY_KIND_CUDA_EVENT").fetchall()
waits = db.execute("SELECT eventId, correlationId FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION s JOIN ENUM_CUPTI_SYNC_TYPE t "
                   "ON t.id = s.syncType WHERE t.name = 'CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT'").fetchall()
assert waits, "no stream waits"
want = set()
for ev, corr in waits:
    at = calls[corr]
    rec = max((calls[rc], st, dev) for e, st, dev, rc in records if e == ev and calls[rc] <= at)
    k = max(l for l in launched if l[1] == rec[1] and l[2] == rec[2] and l[0] < rec[0])
    want.add((k[3], rec[1], rec[2]))
rows = [r for r in csv.DictReader(open(sys.argv[2])) if r["Cause"] == "event_wait"]
assert rows, "no event_wait gap"
for r in rows:
    m = re.search(r"\bfor (\S+) on stream (\d+) of device (\d+)\)", r["CPU context"])
    assert m and (m[1], int(m[2]), int(m[3])) in want, (r["CPU context"], want)
    assert "not in the trace" not in r["CPU context"], r
PY

need_testdata
T=$TESTDATA/verdicts/tl2/inference__sglang_decode__sglang_Qwen3-8B_decode.json.gz
[ -r "$T" ] || skip "verdicts/tl2 sglang decode trace not in testdata"
python3 - "$T" <<'PY' || fail "oracle: the trace holds the event's record"
import gzip, json, sys
ev = [e for e in json.load(gzip.open(sys.argv[1]))["traceEvents"] if e.get("ph") == "X"]
assert [e for e in ev if e["name"] == "hipStreamWaitEvent"], "no stream wait"
assert not [e for e in ev if "EventRecord" in e["name"] or e.get("cat") == "cuda_sync"], "the event's record is there"
PY
run_ok "$GPUPROF" breakdown --view gaps -n 1 -f tsv "$T"
assert_grep "	event_wait	event_wait [^	]*\(after hipStreamWaitEvent: the event's record is not in the trace\)" "$TMP/out"
assert_no_grep " on stream [0-9]+ of device" "$TMP/out"
run_ok "$GPUPROF" advise "$T"
tr '\n' ' ' <"$TMP/out" | tr -s ' ' >"$TMP/adv"
assert_grep "event waits.*after hipStreamWaitEvent: the event's record is not in the trace" "$TMP/adv"
