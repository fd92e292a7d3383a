# verdicts/README.md, "tl2 mi300 Qwen": the allocator's peak is
# 2,219,047,936 B (2.067 GiB), reserved 2.359 GiB.  The oracle reads the
# raw trace's [memory] events of Device Type 6 (the GPU); memory's row of
# device 0 must give the same peak and peak reserved.
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
F=$TESTDATA/verdicts/tl2/mi300__Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz
[ -r "$F" ] || skip "$F not found"
read -r peak rsv <<EOF2
$(python3 - "$F" <<'PY'
import gzip, json, sys
ev = json.load(gzip.open(sys.argv[1]))["traceEvents"]
m = [e["args"] for e in ev if e.get("name") == "[memory]" and e["args"].get("Device Type") == 6]
peak = max(a["Total Allocated"] for a in m)
rsv = max(a["Total Reserved"] for a in m)
assert peak == 2219047936 and round(rsv / 2**30, 3) == 2.359, (peak, rsv)
print(peak, rsv)
PY
)
EOF2
[ -n "$rsv" ] || fail "oracle: the raw trace does not hold the truth"
run_ok "$GPUPROF" memory -f csv "$F"
python3 - "$TMP/out" "$peak" "$rsv" <<'PY' || fail "memory's peak differs from the oracle's"
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["Device"] == "0"]
assert len(rows) == 1 and rows[0]["Peak (B)"] == sys.argv[2] and rows[0]["Peak rsv (B)"] == sys.argv[3], rows
PY
