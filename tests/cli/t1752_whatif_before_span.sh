# The what-if's "before" is the GPU span advise prints (issue 33): on
# three real traces, advise's header and --what-if's gpu_span before_ns
# both equal the GPU span an oracle computes from the raw Kineto JSON,
# the first kernel's start to the last kernel's end.  (The what-if's
# before was its iterations' span, 56.518 ms on the MI300X ResNet and
# 33.131 ms on the MI300X Qwen, not advise's 86.568 and 47.086 ms.)
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
V=$TESTDATA/verdicts
set -- "$V"/tl2/mi300__resnet_act_checkpoint.json.gz "$V"/tl2/mi300__Qwen*.json.gz \
	"$V"/param/dlrm_kineto_8rank/worker1_*.json.gz
for f in "$@"; do
	[ -f "$f" ] || fail "missing $f"
	span=$(python3 - "$f" <<'PY'
import gzip, json, sys
with gzip.open(sys.argv[1], "rt") as f:
    ev = json.load(f)["traceEvents"]
k = [(round(e["ts"] * 1000), round(e["ts"] * 1000) + round(e.get("dur", 0) * 1000))
     for e in ev if e.get("ph") == "X" and e.get("cat", "").lower() == "kernel"]
print(max(b for _, b in k) - min(a for a, _ in k))
PY
) || fail "oracle on $f"
	run_ok "$GPUPROF" advise "$f"
	ms=$(awk -v x="$span" 'BEGIN { printf "%.3f ms", x / 1e6 }')
	assert_grep "^GPU .*: GPU span $ms, " "$TMP/out"
	run_ok "$GPUPROF" advise -f json --what-if op:none=1x "$f"
	assert_grep "^\{\"measure\":\"gpu_span\",\"before_ns\":$span," "$TMP/out"
done
