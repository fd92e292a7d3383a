# verdicts/README.md, "tracelens b200": communication is 2.142 ms, 73
# multimem all-reduce kernels (2.120 ms) and 1 NCCL AllGather (0.022 ms).
# The oracle sums the raw trace's kernel durations by name; breakdown's
# communication part must equal their sum (to the microsecond).
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
F=$TESTDATA/verdicts/tracelens/b200/eager_trace.json.gz
[ -r "$F" ] || skip "$F not found"
python3 - "$F" >"$TMP/want" <<'PY' || fail "oracle: the raw trace does not hold the truth"
import gzip, json, sys
ev = json.load(gzip.open(sys.argv[1]))["traceEvents"]
k = [e for e in ev if e.get("ph") == "X" and e.get("cat") == "kernel"]
mm = [e["dur"] for e in k if "multimem_all_reduce_kernel" in e["name"]]
ag = [e["dur"] for e in k if e["name"].startswith("ncclDevKernel_AllGather")]
other = [e["name"] for e in k if "nccl" in e["name"].lower() and not e["name"].startswith("ncclDevKernel_AllGather")]
assert len(mm) == 73 and round(sum(mm)) == 2120 and len(ag) == 1 and round(sum(ag)) == 22 and not other, (len(mm), sum(mm), ag, other)
assert round(sum(mm) + sum(ag)) == 2142
print(round((sum(mm) + sum(ag)) * 1000))
PY
oracle=$(cat "$TMP/want")
run_ok "$GPUPROF" breakdown -f csv "$F"
got=$(awk -F'","' '$1=="\"0" && $2=="all" && $3=="communication" {print $4}' "$TMP/out")
[ -n "$got" ] || fail "breakdown has no communication row"
d=$((got - oracle)); [ "${d#-}" -le 1000 ] || fail "communication $got ns, the oracle's kernels sum to $oracle ns"
