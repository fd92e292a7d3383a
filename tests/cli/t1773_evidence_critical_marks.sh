# export --critical-path marks a CPU call only when the path holds some of
# its time (issue 33 item 6.6).  On HTA's cuda_event_sync_multi_stream
# trace, cudaOccupancyMaxActiveBlocksPerMultiprocessor starts at
# ...368030 us, the instant cudaMemsetAsync returns; the memset that call
# queued starts at ...368034: the path runs from the memset back through
# its launch latency (030-034) into cudaMemsetAsync, never through the
# occupancy query, which launched nothing.  The oracle reads the raw trace;
# HTA marks the memset call and not the query.
command -v python3 >/dev/null || skip "python3 not installed"
need_testdata
T=$TESTDATA/hta/critical_path/cuda_event_sync_multi_stream/event_sync_trace.json.gz
[ -r "$T" ] || skip "hta/critical_path/cuda_event_sync_multi_stream not in testdata"
run_ok "$GPUPROF" export -f perfetto --critical-path -o "$TMP/cp.json" "$T"
python3 - "$T" "$TMP/cp.json" <<'PY' || fail "critical marks"
import gzip, json, sys
raw = [e for e in json.load(gzip.open(sys.argv[1]))["traceEvents"] if e.get("ph") == "X"]
ours = [e for e in json.load(open(sys.argv[2]))["traceEvents"] if e.get("ph") == "X"]
# the oracle, from the raw trace: the query sits between the memset's call
# and the memset, and launched nothing (no GPU record has its correlation)
occ = [e for e in raw if e["name"] == "cudaOccupancyMaxActiveBlocksPerMultiprocessor" and e["ts"] == 1712867402368030]
assert len(occ) == 1, occ
occ = occ[0]
ms_call = [e for e in raw if e["name"] == "cudaMemsetAsync" and e["ts"] + e["dur"] == occ["ts"]]
assert len(ms_call) == 1, ms_call
corr = ms_call[0]["args"]["correlation"]
memset = [e for e in raw if e.get("cat") == "gpu_memset" and e["args"].get("correlation") == corr]
assert len(memset) == 1 and memset[0]["ts"] >= occ["ts"] + occ["dur"], memset
gpu = [e for e in raw if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")]
assert not [e for e in gpu if e["args"].get("correlation") == occ["args"]["correlation"]]

def marked(name, ts):
    m = [e for e in ours if e["name"] == name and round(float(e["ts"])) == ts]
    assert len(m) == 1, (name, ts, m)
    return m[0].get("args", {}).get("critical") is True
assert marked("Memset (Device)", memset[0]["ts"]), "the memset is on the path"
assert marked("cudaMemsetAsync", ms_call[0]["ts"]), "its launch call is on the path"
assert not marked(occ["name"], occ["ts"]), "the occupancy query holds none of the path"
PY
