# verdicts/README.md, "tracelens/h100 timesformer": unfused attention, the
# softmax (68.7 ms) and the mul (15.5 ms) over an [8,12,3137,3137] score
# matrix.  The oracle links each aten::softmax/aten::mul of that shape to
# the kernels launched inside it (same thread, launch within the op's
# span, kernel by correlation) and sums them; ops -g shape must give
# those ops the same GPU total.
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
F=$TESTDATA/verdicts/tracelens/h100/facebook_timesformer-base-finetuned-k400__1016002.json.gz
[ -r "$F" ] || skip "$F not found"
python3 - "$F" >"$TMP/want" <<'PY' || fail "oracle: the raw trace does not hold the truth"
import bisect, gzip, json, sys
ev = json.load(gzip.open(sys.argv[1]))["traceEvents"]
kern = {e["args"]["correlation"]: e for e in ev if e.get("ph") == "X" and e.get("cat") == "kernel"}
launch = sorted((e["tid"], e["ts"], e["args"]["correlation"]) for e in ev
                if e.get("ph") == "X" and e.get("cat") == "cuda_runtime" and "correlation" in e.get("args", {}))
for name, want_ms in (("aten::softmax", 68.7), ("aten::mul", 15.5)):
    tot = 0.0
    for e in ev:
        if e.get("ph") == "X" and e.get("cat") == "cpu_op" and e["name"] == name and \
           (e["args"].get("Input Dims") or [None])[0] == [8, 12, 3137, 3137]:
            i = bisect.bisect_left(launch, (e["tid"], e["ts"], -1))
            while i < len(launch) and launch[i][0] == e["tid"] and launch[i][1] <= e["ts"] + e["dur"]:
                k = kern.get(launch[i][2])
                tot += k["dur"] if k else 0
                i += 1
    assert round(tot / 1000, 1) == want_ms, (name, tot)
    print(name, round(tot * 1000))
PY
run_ok "$GPUPROF" ops -g shape -f json "$F"
while read -r name ns; do
	grep -F "\"name\":\"$name\",\"shapes\":\"[[8,12,3137,3137]," "$TMP/out" >"$TMP/row" || fail "ops: no $name over [8,12,3137,3137]"
	got=$(sed 's/.*"gpu_total_ns":\([0-9]*\).*/\1/' "$TMP/row")
	d=$((got - ns)); [ "${d#-}" -le 1000 ] || fail "$name: GPU total $got ns, the oracle's kernels $ns ns"
done <"$TMP/want"
