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
