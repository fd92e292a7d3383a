# gpuprof html opened in headless Chromium: the page's script ran without
# a JavaScript error (none in #errors, none "Uncaught" on the console),
# every chart and table drew the number of marks computed from `report`,
# `advise` and `breakdown --view critical` rows by tests/tools/html_marks.py
# and, for Kineto traces, from the raw JSON alone by tests/tools/kineto_page_counts.py (iterations, kernel names), and hostile names from a crafted trace
# (</script>, an <img onerror>, quotes, U+2028) show as text with no element
# injected; the same for the page of several ranks (one step-time series
# per rank, each iteration's slowest rank).  Saves screenshots of a
# generated trace's page and of the job's; with UPDATE_SCREENSHOT=1 they
# replace docs/img/html-report.png and docs/img/html-ranks.png.
need_chromium

# check_marks TRACE: the page of TRACE draws what its report rows say.
check_marks() {
	run_ok "$GPUPROF" html -o "$TMP/page.html" --force "$1"
	"$GPUPROF" report -f json -c device,iter,layer,op,params,flops,bytes,label,sil "$1" >"$TMP/report.json" ||
		fail "report $1"
	"$GPUPROF" advise -f json "$1" >"$TMP/advise.json" || fail "advise $1"
	"$GPUPROF" breakdown --view critical -f json -n 1000000 "$1" >"$TMP/critical.json" || fail "breakdown $1"
	open_page "$TMP/page.html"
	python3 tests/tools/html_marks.py "$TMP/report.json" "$TMP/advise.json" "$TMP/dom" 25 "$TMP/critical.json" ||
		fail "$1: marks differ from the report's rows"
	case $1 in
	*.json|*.json.gz) python3 tests/tools/kineto_page_counts.py "$TMP/dom" "$1" 25 ||
		fail "$1: marks differ from the counts of the raw JSON" ;;
	esac
}

# 1. a generated trace with layers, iterations and memory: marks, screenshot
run_ok "$GEN" --format kineto -n 3000 -o "$TMP/gen.json"
check_marks "$TMP/gen.json"
timeout 120 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$TMP/chrome" --hide-scrollbars \
	--screenshot="$TMP/html-report.png" --window-size=1400,2000 "file://$TMP/page.html" 2>/dev/null ||
	fail "chromium --screenshot failed"
[ "$(head -c 8 "$TMP/html-report.png" | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ] || fail "the screenshot is not a PNG"
[ "${UPDATE_SCREENSHOT:-}" = 1 ] && cp "$TMP/html-report.png" docs/img/html-report.png

# the page's busy share is of the GPU span, as advise's header says it
run_ok "$GPUPROF" advise "$TMP/gen.json"
python3 - "$TMP/dom" "$TMP/out" <<'EOF' || fail "the page's GPU span and busy share differ from advise's"
import re, sys
dom, advise = open(sys.argv[1]).read(), open(sys.argv[2]).read()
table = dom.split('id="idle-causes"')[1].split("</table>")[0]
head = re.findall(r"<th>([^<]*)</th>", table)
row = re.findall(r"<td>([^<]*)</td>", table)
want = re.search(r"GPU span ([0-9.]+ [a-z]+), busy ([0-9.]+ [a-z]+) \(([0-9.]+%)\)", advise)
assert head[1:3] == ["GPU span", "Busy (share of the GPU span)"], head
assert row[1] == want.group(1) and row[2] == "%s (%s)" % (want.group(2), want.group(3)), (row, want.groups())
EOF

# 2. hostile names: a kernel, an op and a layer renamed
hostile='</script><img src=x onerror=alert(1)>"'"'"
python3 - "$TMP/gen.json" "$TMP/hostile.json" "$hostile" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
bad = sys.argv[3]
kernel = op = layer = None
for e in d["traceEvents"]:
    cat = e.get("cat")
    if cat == "kernel":
        kernel = kernel or e["name"]
        if e["name"] == kernel:
            e["name"] = bad
    elif cat == "cpu_op" and e["name"].startswith("aten::"):
        op = op or e["name"]
        if e["name"] == op:
            e["name"] = "aten::" + bad + "\u2028<b>op</b>"
    elif cat == "user_annotation" and e["name"].startswith("layer:"):
        layer = layer or e["name"]
        if e["name"] == layer:
            e["name"] = "layer:<svg onload=alert(2)>&amp;"
json.dump(d, open(sys.argv[2], "w"))
EOF
check_marks "$TMP/hostile.json"
for tag in img svg b script; do
	n=$(grep -c "<$tag[ >]" "$TMP/dom")
	want=0
	[ $tag = script ] && want=5     # the page's own: library, data, common, layers, script
	assert_eq "$n" "$want" "<$tag> elements in the hostile page's DOM"
done
grep -q '&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;"'"'"'</td>' "$TMP/dom" ||
	fail "the hostile kernel name is not shown as text"
grep -q '&lt;svg onload=alert(2)&gt;&amp;amp;' "$TMP/dom" || fail "the hostile layer name is not shown as text"

# 3. several ranks: the generated trace, the hostile one, a third stretched
# by 1.25 (the slowest steps) and another seed's make a job; the page draws one step-time
# series per rank with a point per iteration and marks each iteration's
# slowest rank as tests/tools/html_job_marks.py computes them from the raw
# JSON; the hostile names stay text.  Screenshot: docs/img/html-ranks.png.
mkdir "$TMP/job"
cp "$TMP/gen.json" "$TMP/job/rank-0.json"
cp "$TMP/hostile.json" "$TMP/job/rank-1.json"
python3 "$TOP/tests/tools/stretch_kineto.py" "$TMP/gen.json" "$TMP/job/rank-2.json" || fail "stretching rank 2"
run_ok "$GEN" --format kineto -n 3000 --seed 2 -o "$TMP/job/rank-3.json"
# relative paths, as the screenshot shows them
(cd "$TMP" && "$GPUPROF" html -o job.html job) >"$TMP/out" 2>"$TMP/err" || { cat "$TMP/err" >&2; fail "html job"; }
open_page "$TMP/job.html"
python3 tests/tools/html_job_marks.py "$TMP/dom" 25 "$TMP"/job/rank-0.json "$TMP"/job/rank-1.json \
	"$TMP"/job/rank-2.json "$TMP"/job/rank-3.json || fail "the job page's marks differ from the raw traces"
for tag in img svg b; do
	assert_eq "$(grep -c "<$tag[ >]" "$TMP/dom")" 0 "<$tag> elements in the job page's DOM"
done
grep -q '&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;"'"'"'</td>' "$TMP/dom" ||
	fail "the hostile kernel name is not shown as text on the job page"
# the job's critical path: a fact (its length, or why the traces cannot
# tell) and a column of each rank's time on it
assert_grep '<dt>Critical path</dt><dd>(unknown: |[0-9.]+ [mun]?s from the job)' "$TMP/dom"
assert_grep '>On critical path<' "$TMP/dom"
timeout 120 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$TMP/chrome" --hide-scrollbars \
	--screenshot="$TMP/html-ranks.png" --window-size=1400,1700 "file://$TMP/job.html" 2>/dev/null ||
	fail "chromium --screenshot failed"
[ "$(head -c 8 "$TMP/html-ranks.png" | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ] || fail "the screenshot is not a PNG"
[ "${UPDATE_SCREENSHOT:-}" = 1 ] && cp "$TMP/html-ranks.png" docs/img/html-ranks.png

# 4. real traces: a Kineto trace with several GPUs, an nsys and an nvprof export
need_testdata
for f in "$TESTDATA/kineto_tb_plugin/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz" \
	"$TESTDATA/nsys/dlprof_rtx2070_2022.1/no_relu_nsys_profile.sqlite" "$TESTDATA/nvprof/mxnet_titanv/timeline.nvvp"; do
	check_marks "$f"
done
