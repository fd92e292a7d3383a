# Serving phases in breakdown (--view phases) and ops (--phase), and the
# batch sizes of replayed graphs as a phase (analysis/phases.h).
# tests/fuzz/corpus/kineto/phases.json (by hand, see t1707): breakdown's
# rows are info's figures; ops --phase prefill keeps the step[EXTEND] and
# the ops inside it (mm 20 us, add 10 us of GPU time), nothing else.
# gpuprof-gen --graphs amd (tools/gen/graphs.c): the prologue P is captured
# only at batch size 1, the MoE graph M only at 8, the decoder G at 1, 8
# and 32 alike (which one a replay is cannot be told: no batch size), U
# never: the batch-size groups hold exactly P's and M's kernels, counted
# from the generator's truth.  The real vLLM pair: its one mixed step
# replays graphs of the one capture (batch size 8192): every kernel of the
# step is "mixed bs=8192", as many as Python counts inside the step.
f=tests/fuzz/corpus/kineto/phases.json
run_ok "$GPUPROF" breakdown --view phases -f csv --no-header "$f"
assert_eq "$(cat "$TMP/out")" '"(none)","0","2","10000","10.20","0","0","0.00"
"prefill","1","2","30000","30.61","40000","10000","25.00"
"decode","2","3","18000","18.37","33000","15000","45.45"
"mixed","1","2","40000","40.82","30000","0","0.00"' "breakdown --view phases"
run_ok "$GPUPROF" ops --phase prefill -f csv --no-header "$f"
assert_eq "$(cut -d, -f1,7,12 "$TMP/out")" '"step[EXTEND]","0","1"
"aten::mm","20000","1"
"aten::add","10000","1"' "ops --phase prefill"
expect_exit 2 "$GPUPROF" ops --phase bs=x "$f"
assert_grep "phase wants prefill, decode, mixed, bs=N or PHASE bs=N, not 'bs=x'" "$TMP/err"
expect_exit 2 "$GPUPROF" breakdown --view phase "$f"
assert_grep "critical, phases, steps, graphs or comm, not 'phase'" "$TMP/err"
# no step, no batch size: no rows
run_ok "$GEN" --format kineto -n 50 -o "$TMP/plain.json"
run_ok "$GPUPROF" breakdown --view phases -f csv --no-header "$TMP/plain.json"
assert_eq "$(cat "$TMP/out")" "" "no phases: no rows"

command -v python3 >/dev/null || skip "python3 not installed"
mkdir -p "$TMP/amd"
r=$TMP/amd/replay.pt.trace.json
run_ok "$GEN" --format kineto --graphs amd -o "$r"
p=$(awk -F'\t' '$5 == "embed"' "$r.truth" | wc -l)
m=$(awk -F'\t' '$5 ~ /^moe\./ || $3 == "ambiguous"' "$r.truth" | wc -l)
all=$(wc -l <"$r.truth")
[ "$p" = 12 ] && [ "$m" = 24 ] || fail "truth: P $p, M $m kernels (want 12, 24)"
run_ok "$GPUPROF" summary -s gpu --by phase -f csv --no-header "$r"
assert_eq "$(grep -v '(none)' "$TMP/out" | cut -d, -f4,10)" "\"$m\",\"bs=8\"
\"$p\",\"bs=1\"" "summary --by phase: P at bs=1, M at bs=8"
none=$(grep '(none)' "$TMP/out" | cut -d, -f4 | tr -d '"')
# every other kernel (G: three alike, no batch size; U; eager) is in none
kernels=$("$GPUPROF" summary -s gpu --by iter -f csv --no-header "$r" | awk -F, '{gsub(/"/, "", $4); n += $4} END {print n}')
assert_eq "$((none + p + m))" "$kernels" "the phases hold every kernel"
[ "$all" -le "$((p + m + none))" ] || fail "truth has more replayed kernels than the trace"
run_ok "$GPUPROF" summary -s gpu --by layer --phase bs=1 -f csv --no-header "$r"
assert_eq "$(cut -d, -f4,10 "$TMP/out")" "\"$p\",\"embed\"" "--phase bs=1: the prologue"
run_ok "$GPUPROF" breakdown --view phases -f csv --no-header "$r"
assert_eq "$(cut -d, -f1-3 "$TMP/out")" "\"(none)\",\"0\",\"$none\"
\"bs=1\",\"4\",\"$p\"
\"bs=8\",\"4\",\"$m\"" "breakdown --view phases: four replays of each"
# info: the same batch sizes, their replays and kernels (the truth's counts)
run_ok "$GPUPROF" info -f json "$r"
assert_eq "$(python3 -c 'import json, sys
print(" ".join("%d:%d:%d" % (b["batch"], b["steps"], b["kernels"]) for b in json.load(open(sys.argv[1]))["batch_sizes"]))' "$TMP/out")" \
	"1:4:$p 8:4:$m" "info: batch sizes"
run_ok "$GPUPROF" info "$r"
assert_grep '^batch sizes +1 \(4 steps, [0-9.]+ [mu]s\); 8 \(4 steps, [0-9.]+ [mu]s\)$' "$TMP/out"
# ops --phase bs=8: M's captured ops with summary's GPU time per op (the
# ambiguous adds have none: 'graph replay (op unknown)')
run_ok "$GPUPROF" summary -s gpu --by op --phase bs=8 -f csv --no-header "$r"
grep -v 'op unknown' "$TMP/out" | cut -d, -f3,10 | sed 's/"//g; s/\(.*\),\(.*\)/aten::\2,\1/' | sort >"$TMP/want"
run_ok "$GPUPROF" ops --phase bs=8 -f csv --no-header "$r"
assert_eq "$(cut -d, -f1,7 "$TMP/out" | sed 's/"//g' | sort)" "$(cat "$TMP/want")" "ops --phase bs=8: Self GPU per op"
assert_no_grep 'embedding|layer_norm' "$TMP/out"

need_testdata
[ -d "$TESTDATA/tracelens" ] || skip "$TESTDATA/tracelens not found"
V=$TESTDATA/tracelens/inference/vllm_prefilldecode_piecewise/graph_execution.json.gz
n=$(python3 - "$V" <<'PY'
import gzip, json, sys
ev = json.load(gzip.open(sys.argv[1]))["traceEvents"]
s = [e for e in ev if e.get("cat") == "user_annotation" and e["name"].startswith("execute_")][0]
inside = {e["args"]["correlation"] for e in ev if e.get("cat") == "cuda_runtime" and e.get("tid") == s["tid"]
          and e.get("pid") == s["pid"] and s["ts"] < e["ts"] and e["ts"] + e.get("dur", 0) < s["ts"] + s["dur"]}
print(sum(1 for e in ev if e.get("cat") == "kernel" and e["args"].get("correlation") in inside))
PY
)
run_ok "$GPUPROF" breakdown --view phases -f csv --no-header "$V"
assert_eq "$(cut -d, -f1-3,5 "$TMP/out")" "\"mixed bs=8192\",\"1\",\"$n\",\"100.00\"" "vLLM: one mixed step of batch size 8192"
run_ok "$GPUPROF" summary -s gpu --by iter --phase 'mixed bs=8192' -f csv --no-header "$V"
assert_eq "$(cut -d, -f4 "$TMP/out")" "\"$n\"" "summary --phase 'mixed bs=8192'"
run_ok "$GPUPROF" summary -s gpu --phase 'decode bs=8192' -f csv --no-header "$V"
assert_eq "$(cat "$TMP/out")" "" "no decode step"
# the HTML report's phase table, drawn (headless Chromium): the same row
command -v chromium >/dev/null || skip "chromium not installed"
[ -r /usr/share/javascript/chart.js/chart.min.js ] || [ -n "${GPUPROF_CHARTJS:-}" ] || skip "libjs-chart.js not installed"
run_ok "$GPUPROF" html -o "$TMP/v.html" "$V"
timeout 120 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$TMP/chrome" --dump-dom \
	"file://$TMP/v.html" >"$TMP/dom" 2>/dev/null || fail "chromium failed"
python3 - "$TMP/dom" "$n" <<'PY' || fail "the page's phase table"
import re, sys
dom, n = open(sys.argv[1]).read(), sys.argv[2]
assert 'id="report" data-state="done"' in dom
box = dom.split('id="phases"')[1].split("</table>")[0]
assert not box.lstrip().startswith("hidden"), box[:80]
rows = [re.findall(r"<td[^>]*>([^<]*)</td>", r) for r in box.split("<tr")[2:]]
assert len(rows) == 1 and rows[0][:3] == ["mixed bs=8192", "1", n], rows
PY
# a trace without phases: the section stays hidden
run_ok "$GPUPROF" html -o "$TMP/p.html" "$TMP/plain.json"
timeout 120 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$TMP/chrome" --dump-dom \
	"file://$TMP/p.html" >"$TMP/dom" 2>/dev/null || fail "chromium failed"
grep -q '<div id="phases" hidden' "$TMP/dom" || fail "phases shown for a trace without any"
