# diff reads a faster run as faster (issue 33): resnet50 with
# num_workers 0 -> 4 (kineto_tb_plugin) waits far less on the data loader,
# so its steps (host waits included) are shorter though its kernels take
# as long.  diff's step row gives the median steps an oracle computes
# from the raw JSON (tests/tools/kineto_steps.py: ProfilerStep#N's start
# to the next one's), the change is negative and significant, and
# --fail-if 'step>+5%' passes.  (diff said "+5.0%, significant" when its
# step was the GPU span of an iteration, which leaves the host's waits out.)
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
K=$TESTDATA/kineto_tb_plugin
set -- "$K"/resnet50_num_workers_0/*.json.gz "$K"/resnet50_num_workers_4/*.json.gz
[ -f "$1" ] && [ -f "$2" ] || fail "missing the resnet50 pair in $K"
med() {
	python3 - "$1" "$TOP/tests/tools" <<'PY'
import sys
sys.path.insert(0, sys.argv[2])
from kineto_steps import steps, median
print(median(list(steps(sys.argv[1]).values())))
PY
}
b=$(med "$1") && t=$(med "$2") || fail "oracle"
[ "$t" -lt "$b" ] || fail "the oracle says the test run is not faster: $b -> $t"
run_ok "$GPUPROF" diff -f csv --no-header "$1" "$2"
row=$(grep '^"step"' "$TMP/out" | tr -d '"')
assert_eq "$(echo "$row" | cut -d, -f14,15)" "$b.0,$t.0" "diff's median steps"
case $(echo "$row" | cut -d, -f8) in -*) ;; *) fail "step change is not negative: $row" ;; esac
assert_eq "$(echo "$row" | cut -d, -f11)" "significant" "step verdict"
run_ok "$GPUPROF" diff --fail-if 'step>+5%' "$1" "$2"
assert_grep "PASS" "$TMP/err"
# diff leads with the GPU's idle time: its whole-file totals are those an
# oracle computes (the span of the GPU work less its merged busy time:
# 392.919 -> 187.137 ms), and the data-loader wait going away (283.7 ->
# 2.8 ms in the breakdown's causes) is a lead row of its own.
idle() {
	python3 - "$1" <<'PY'
import gzip, json, sys
with gzip.open(sys.argv[1], "rt") as f:
    ev = json.load(f)["traceEvents"]
iv = sorted((round(e["ts"] * 1000), round(e["ts"] * 1000) + round(e.get("dur", 0) * 1000))
            for e in ev if e.get("ph") == "X" and e.get("cat", "").lower() in ("kernel", "memcpy", "memset", "gpu_memcpy", "gpu_memset"))
busy, end = 0, None
for a, b in iv:
    if end is None or a > end:
        busy, end = busy + b - a, b
    elif b > end:
        busy, end = busy + b - end, b
print(max(b for _, b in iv) - iv[0][0] - busy)
PY
}
ib=$(idle "$1") && it=$(idle "$2") || fail "idle oracle"
run_ok "$GPUPROF" diff -f csv --no-header "$1" "$2"
assert_eq "$(sed -n 2p "$TMP/out" | cut -d, -f1,3,4,24 | tr -d '"')" "idle,$ib,$it,(idle)" "diff's second row: the idle time"
dl=$(grep '"(idle: dataloader)"$' "$TMP/out" | cut -d, -f3,4,11 | tr -d '"') || fail "no data-loader row"
b=${dl%%,*} t=${dl#*,}; t=${t%%,*}
[ "$t" -lt $((b / 10)) ] || fail "the data-loader wait did not go away: $dl"
case $dl in *,significant) ;; *) fail "data-loader change not significant: $dl" ;; esac
total=$(grep -n '^"total"' "$TMP/out" | cut -d: -f1)
dlat=$(grep -n '"(idle: dataloader)"$' "$TMP/out" | cut -d: -f1)
[ "$dlat" -lt "$total" ] || fail "the data-loader row is not among the lead rows"
