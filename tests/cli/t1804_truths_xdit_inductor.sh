# verdicts/README.md, "tl2 xdit sd_3.5": its Python gaps are thousands of
# assert_size_stride calls inside Inductor's `call` wrapper.  The oracle
# takes the 4 largest GPU gaps (14-17 ms; the next is under 1.4 ms): the
# innermost Python frame (of the one thread calling assert_size_stride)
# open over most of each is Inductor's generated `call`, and each holds
# 1231 assert_size_stride calls (4924 in all; the trace has 5080).
# breakdown's gaps view must give the same 4 gaps, caused by Python, in
# that `call` frame, naming the 1231 calls that fill each; ops --python
# must count the 5080 calls, and advise's Python finding must say what
# answers a wrapper (CUDA graphs skip it, size_asserts drops the checks).
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
F=$TESTDATA/verdicts/tl2/inference__xdit_sd_3.5__profile_trace_rank_0.json.gz
[ -r "$F" ] || skip "$F not found"
python3 - "$F" >"$TMP/want" <<'PY' || fail "oracle: the raw trace does not hold the truth"
import gzip, json, sys
ev = [e for e in json.load(gzip.open(sys.argv[1]))["traceEvents"] if e.get("ph") == "X"]
gpu = sorted((e for e in ev if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")), key=lambda e: e["ts"])
gaps, end = [], gpu[0]["ts"]
for e in gpu:
    if e["ts"] > end:
        gaps.append((end, e["ts"]))
    end = max(end, e["ts"] + e["dur"])
gaps.sort(key=lambda g: g[0] - g[1])
asserts = [e for e in ev if e["name"] == "<built-in function assert_size_stride>"]
tid, = {e["tid"] for e in asserts}
frames = [e for e in ev if e.get("cat") == "python_function" and e["tid"] == tid]
assert gaps[4][1] - gaps[4][0] < 1400
call, inside = set(), 0
for a, b in gaps[:4]:
    assert 14e3 < b - a < 17e3
    # the innermost frame open over most of the gap (the gap starts at the
    # last kernel's end, ~2 ms before the wrapper is entered)
    inner = max((e for e in frames if min(b, e["ts"] + e["dur"]) - max(a, e["ts"]) > 0.8 * (b - a)), key=lambda e: e["ts"])
    assert inner["name"].startswith("/tmp/torchinductor_") and inner["name"].endswith("): call"), inner["name"]
    call.add(inner["name"])
    n = sum(1 for e in asserts if a <= e["ts"] and e["ts"] + e["dur"] <= b)
    assert n == 1231, n
    inside += n
assert len(call) == 1 and inside == 4924 and len(asserts) == 5080
print(" ".join(str(round((b - a) * 1000)) for a, b in gaps[:4]))
print(call.pop())
print(len(asserts))
PY
set -- $(head -1 "$TMP/want"); call=$(sed -n 2p "$TMP/want"); calls=$(sed -n 3p "$TMP/want")
run_ok "$GPUPROF" breakdown --view gaps -n 4 -f csv --no-header "$F"
cp "$TMP/out" "$TMP/gaps"
for want; do
	row=$(grep -m1 -E "^\"[0-9]+\",\"[^\"]*\",\"[0-9]+\",\"($want|$((want - 1))|$((want + 1)))\"" "$TMP/gaps") ||
		fail "no gap of $want ns (the oracle's) in breakdown's gaps view"
	case $row in *"\"python\",\"python $call (Torch-Compiled Region: "*) ;;
	*) fail "the gap of $want ns: $row; the oracle says Python in $call" ;; esac
	# and the calls that fill it: the 1231 assert_size_stride calls the
	# oracle counts in each gap (their cost is in call's own time: the
	# calls themselves are ~0.5 ms of a gap)
	case $row in *": 1231 x assert_size_stride "[0-9]*) ;;
	*) fail "the gap of $want ns: $row; the oracle counts 1231 assert_size_stride calls in it" ;; esac
done
run_ok "$GPUPROF" ops --python -f csv --no-header "$F"
assert_grep "^\"$calls\",.*\"\{built-in function assert_size_stride\}\"$" "$TMP/out"
# advise: the Python finding's time is in that wrapper, so its change is
# the wrapper's (CUDA graphs skip it; size_asserts drops the checks), not
# "move this Python out of the step"
run_ok "$GPUPROF" advise -f json "$F"
python3 - "$TMP/out" <<'PY' || fail "advise's Python finding on Inductor's wrapper"
import json, sys
py = [r for r in map(json.loads, open(sys.argv[1])) if r["kind"] == "python"]
assert len(py) == 1, py
c = py[0]["change"]
assert "Inductor's generated wrapper" in c and "reduce-overhead" in c and "size_asserts" in c, c
assert "Move this Python" not in c, c
PY
