# breakdown --view graphs (analysis/graph_table.c): per graph replayed, the
# batch size of the captures its replays matched, replays, kernels per
# replay, GPU time, its attributed share, and the idle inside its replays.
# gpuprof-gen --graphs amd and cuda (tools/gen/graphs.c): four steps each
# replay G (16 kernels, captured at three batch sizes alike: none told),
# M (6 kernels, batch size 8; amd: its two adds ambiguous, 4 of 6 kernels
# of equal length attributed; cuda: none, two streams without names), P
# (3, batch size 1, all attributed), U (2, never captured).  The GPU time
# and attributed time add up to info's replayed and attributed figures;
# the idle inside replays is computed by Python from the raw JSON: per
# replay (the GPU events of one graph launch's correlation id), the time
# between its first start and last end that no GPU work of the device
# covered, summed per graph.  The real vLLM pair: every graph of batch
# size 8192, all attributed, as many kernels as info's replayed ones.
command -v python3 >/dev/null || skip "python3 not installed"
for m in amd cuda; do
	mkdir -p "$TMP/$m"
	r=$TMP/$m/replay.pt.trace.json
	run_ok "$GEN" --format kineto --graphs $m -o "$r"
	run_ok "$GPUPROF" breakdown --view graphs -f csv --no-header "$r"
	case $m in
	amd) want='"-","4","16.0","100.00"
"8","4","6.0","66.67"
"1","4","3.0","100.00"
"-","4","2.0","0.00"' ;;
	cuda) want='"-","4","16.0","100.00"
"8","4","6.0","0.00"
"1","4","3.0","100.00"
"-","4","2.0","0.00"' ;;
	esac
	assert_eq "$(awk -F'","' '{ print "\"" $2 "\",\"" $3 "\",\"" $4 "\",\"" $6 "\"" }' "$TMP/out")" "$want" "$m: graphs"
	cp "$TMP/out" "$TMP/graphs.csv"
	run_ok "$GPUPROF" info -f json "$r"
	python3 - "$TMP/graphs.csv" "$TMP/out" "$r" <<'PY' || fail "$m: graph table against info and the raw JSON"
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1])))
info = json.load(open(sys.argv[2]))
st = info["graph_kernels_by_state"]
gpu = sum(int(r[4]) for r in rows)
att = sum(int(r[4]) * float(r[5]) / 100 for r in rows)
assert gpu == sum(v["gpu_ns"] for v in st.values()), (gpu, st)
assert abs(att - st["captured"]["gpu_ns"] - st["captured-ops"]["gpu_ns"]) < 1e-4 * gpu, (att, st)   # shares to 0.01%
ev = json.load(open(sys.argv[3]))["traceEvents"]
launch = {e["args"]["correlation"] for e in ev if e.get("cat") == "cuda_runtime" and "GraphLaunch" in e["name"]}
gpu_ev = [e for e in ev if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")]
replays = {}
for e in gpu_ev:
    c = e["args"].get("correlation")
    if c in launch:
        replays.setdefault(c, []).append(e)
busy = sorted((e["ts"], e["ts"] + e["dur"]) for e in gpu_ev)   # one device
merged = []
for s, e in busy:
    if merged and s <= merged[-1][1]:
        merged[-1][1] = max(merged[-1][1], e)
    else:
        merged.append([s, e])
idle = {}
for evs in replays.values():
    lo, hi = min(e["ts"] for e in evs), max(e["ts"] + e["dur"] for e in evs)
    covered = sum(max(0, min(e, hi) - max(s, lo)) for s, e in merged)
    n = sum(1 for e in evs if e["cat"] == "kernel")
    idle[n] = idle.get(n, 0) + (hi - lo) - covered
got = {round(float(r[3])): int(r[7]) for r in rows}
want = {n: round(v * 1000) for n, v in idle.items()}
assert got == want, (got, want)
PY
done

need_testdata
[ -d "$TESTDATA/tracelens" ] || skip "$TESTDATA/tracelens not found"
V=$TESTDATA/tracelens/inference/vllm_prefilldecode_piecewise/graph_execution.json.gz
run_ok "$GPUPROF" breakdown --view graphs -f csv --no-header "$V"
cp "$TMP/out" "$TMP/graphs.csv"
run_ok "$GPUPROF" info -f json "$V"
python3 - "$TMP/graphs.csv" "$TMP/out" <<'PY' || fail "vLLM graph table"
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1])))
info = json.load(open(sys.argv[2]))
assert rows and all(r[1] == "8192" and r[5] == "100.00" for r in rows), rows
assert sum(round(int(r[2]) * float(r[3])) for r in rows) == info["graph_kernels"], (rows, info["graph_kernels"])
assert sum(int(r[2]) for r in rows) == info["graph_launches"], (rows, info["graph_launches"])
PY
