# One step (docs/dependencies.md, "Steps"): advise, ranks, the HTML page's
# JSON and diff print the same median step on the same trace, and it is
# the step an oracle computes from the raw Kineto JSON: ProfilerStep#N of
# the process that marks the most, from its start to the next one's
# start; the last to its range's end or the end of the last kernel
# launched inside it, the later.
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
# the oracle: tests/tools/kineto_steps.py on the raw JSON
oracle() {
	python3 - "$1" "$TOP/tests/tools" <<'PY'
import sys
sys.path.insert(0, sys.argv[2])
from kineto_steps import steps, median
s = steps(sys.argv[1])
print(len(s), median(list(s.values())))
PY
}
V=$TESTDATA/verdicts
set -- "$V/tl2/mi300__resnet_act_checkpoint.json.gz" "$TESTDATA/hta/trace_compare/base/base.json.gz" \
	"$TESTDATA"/kineto_tb_plugin/resnet50_num_workers_0/*.json.gz "$TESTDATA"/kineto_tb_plugin/resnet50_num_workers_4/*.json.gz
for f in "$@"; do
	[ -f "$f" ] || fail "missing $f"
	want=$(oracle "$f") || fail "oracle on $f"
	n=${want% *} med=${want#* }
	run_ok "$GPUPROF" ranks -f csv --no-header "$f"
	ranks=$(cut -d, -f3,4 "$TMP/out" | tr -d '"')
	assert_eq "${ranks%,*}" "$n" "$f: ranks' steps"
	r=${ranks#*,}
	assert_eq "$r" "$med" "$f: ranks' median step"
	run_ok "$GPUPROF" advise "$f"
	ms=$(awk -v x="$r" 'BEGIN { printf "%.3f ms", x / 1e6 }')
	assert_grep "; $n steps, median $ms" "$TMP/out"
	run_ok "$GPUPROF" html --force -o "$TMP/page.html" "$f"
	grep -q "\"run_steps\":{\"median\":$r," "$TMP/page.html" || fail "$f: the page's run_steps median is not $r"
	run_ok "$GPUPROF" diff -f csv --no-header "$f" "$f"
	assert_eq "$(grep '^"step"' "$TMP/out" | cut -d, -f14 | tr -d '"')" "$r.0" "$f: diff's base median step"
done
