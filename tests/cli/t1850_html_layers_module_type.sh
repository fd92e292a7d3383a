# tier: slow
# The HTML page's layer views (issue 35, "the HTML layer section misleads
# on a Hugging Face model"): the kernels' time by module type and by path
# at every depth, which must be summary's (`summary --by module-type|layer
# --depth N -f json`: each shown row's time and share, "other" the rest,
# "no layer" always shown), every view adding up to the kernels' time; and
# the sentence on what to record when layers cover under half the GPU
# time: absent on a generated trace with layers (80% covered), present on
# the same trace without its annotations (none covered, its GPU time the
# raw kernels' own) and on PARAM's ResNet (0.7% covered); absent on the
# H100 Qwen (69.9%), whose module types the page ranks as summary does
# (Qwen2Attention 27.4%, Linear 19.5%, Qwen2RMSNorm 16.2%).  Where
# Chromium is at hand, the drawn table and sentence too.
command -v python3 >/dev/null || skip "python3 not installed"

# check_page TRACE WANT_RECORD(0|1): the page's views against summary's rows
check_page() {
	run_ok "$GPUPROF" html -o "$TMP/page.html" --force "$1"
	for by in module-type layer; do
		for d in 0 1 2 3 4 5 6 7; do
			"$GPUPROF" summary --section gpu --by $by $([ $d = 0 ] || echo --depth $d) -n 1000000 -f json "$1" \
				>"$TMP/sum-$by-$d.json" || fail "summary --by $by --depth $d $1"
		done
	done
	python3 - "$TMP/page.html" "$TMP" "$2" "$TOP/tests/tools" <<'PY' || fail "$1: the page's layer views differ from summary's"
import json, sys
sys.path.insert(0, sys.argv[4])
from html_job_oracle import page_data
lv = page_data(sys.argv[1])["inputs"][0]["layer_views"]
want_record = sys.argv[3] == "1"
assert bool(lv["record"]) == want_record, (lv["record"], lv["layer_ns"], lv["gpu_ns"])
assert (2 * lv["layer_ns"] < lv["gpu_ns"]) == want_record
if want_record:
    assert "with_modules=True" in lv["record"] and "layer:NAME" in lv["record"], lv["record"]
assert len(lv["views"]) == 2 * lv["depth"], (len(lv["views"]), lv["depth"])
for v in lv["views"]:
    by = "module-type" if v["by"] == "module-type" else "layer"
    rows = [json.loads(l) for l in open("%s/sum-%s-%d.json" % (sys.argv[2], by, v["depth"]))]
    total = sum(r["total_ns"] for r in rows)
    assert total == lv["gpu_ns"], (v["by"], v["depth"], total, lv["gpu_ns"])
    ns = {r["name"]: r for r in rows}
    shown = set()
    assert sum(r["ns"] for r in v["rows"]) == total, (v["by"], v["depth"])
    assert [r["ns"] for r in v["rows"] if "groups" not in r] == sorted((r["ns"] for r in v["rows"] if "groups" not in r), reverse=True)
    for r in v["rows"]:
        if "groups" in r:   # "other": summary's rows not shown
            rest = [x for x in rows if x["name"] not in shown]
            assert r["ns"] == sum(x["total_ns"] for x in rest) and r["groups"] == len(rest), (v["by"], v["depth"])
            continue
        name = None if r.get("none") else r["name"]
        shown.add(name)
        s = ns[name]
        assert (r["ns"], r["count"]) == (s["total_ns"], s["calls"]), (v["by"], v["depth"], r, s)
        assert round(100 * r["ns"] / lv["gpu_ns"], 1) == s["time_pct"], (r, s)
    if None in ns:
        assert None in shown, (v["by"], v["depth"], "no-layer row not shown")
PY
}

# 1. generated: layers cover 80% of GPU time, no sentence
run_ok "$GEN" --format kineto -n 600 -o "$TMP/gen.json"
check_page "$TMP/gen.json" 0
# 2. the same without its annotations: no layers, the sentence; the GPU
# time the raw kernels' own
python3 - "$TMP/gen.json" "$TMP/bare.json" <<'PY' || fail "stripping the annotations"
import json, sys
t = json.load(open(sys.argv[1]))
t["traceEvents"] = [e for e in t["traceEvents"]
                    if e.get("cat") not in ("user_annotation", "gpu_user_annotation", "python_function")]
json.dump(t, open(sys.argv[2], "w"))
PY
check_page "$TMP/bare.json" 1
python3 - "$TMP/page.html" "$TMP/bare.json" "$TOP/tests/tools" <<'PY' || fail "the page's GPU time differs from the raw kernels'"
import json, sys
sys.path.insert(0, sys.argv[3])
from html_job_oracle import page_data
lv = page_data(sys.argv[1])["inputs"][0]["layer_views"]
t = json.load(open(sys.argv[2]))
ks = [e for e in t["traceEvents"] if e.get("cat") == "kernel" and e.get("ph") == "X"]
assert lv["layer_ns"] == 0 and lv["depth"] == 0 and lv["views"] == [], lv
raw = sum(round((e["ts"] + e["dur"]) * 1000) - round(e["ts"] * 1000) for e in ks)
assert abs(lv["gpu_ns"] - raw) <= len(ks), (lv["gpu_ns"], raw)
PY
if command -v chromium >/dev/null && { [ -r /usr/share/javascript/chart.js/chart.min.js ] || [ -n "${GPUPROF_CHARTJS:-}" ]; }; then
	open_page "$TMP/page.html"
	assert_grep '<p class="record" id="layers-record">No layers: .*with_modules=True' "$TMP/dom"
	run_ok "$GPUPROF" html -o "$TMP/page.html" --force "$TMP/gen.json"
	open_page "$TMP/page.html"
	assert_grep '<p class="record" id="layers-record" hidden' "$TMP/dom"
	assert_grep '<div id="layer-views" data-view="module-type:0">' "$TMP/dom"
fi

# 3. real traces: the H100 Qwen (layers of with_modules=True) and PARAM's ResNet
need_testdata
Q="$TESTDATA/verdicts/tracelens/h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz"
R="$TESTDATA/param/resnet_kineto.json.gz"
[ -f "$Q" ] || skip "$Q missing"
[ -f "$R" ] || skip "$R missing"
check_page "$Q" 0
python3 - "$TMP/page.html" "$TOP/tests/tools" <<'PY' || fail "the Qwen page's module types"
import sys
sys.path.insert(0, sys.argv[2])
from html_job_oracle import page_data
lv = page_data(sys.argv[1])["inputs"][0]["layer_views"]
v = [v for v in lv["views"] if v["by"] == "module-type" and v["depth"] == 0][0]
top = [(r["name"], round(100 * r["ns"] / lv["gpu_ns"], 1)) for r in v["rows"][:4]]
assert top == [("no layer", 30.1), ("Qwen2Attention", 27.4), ("Linear", 19.5), ("Qwen2RMSNorm", 16.2)], top
PY
if command -v chromium >/dev/null && { [ -r /usr/share/javascript/chart.js/chart.min.js ] || [ -n "${GPUPROF_CHARTJS:-}" ]; }; then
	open_page "$TMP/page.html"
	python3 - "$TMP/dom" <<'PY' || fail "the Qwen page's drawn module types"
import re, sys
dom = open(sys.argv[1]).read()
t = dom.split('id="table-layer-view"')[1].split("</table>")[0]
cells = re.findall(r"<td[^>]*>([^<]*)</td>", t)
assert cells[0:8:4] == ["no layer", "Qwen2Attention"] and cells[2] == "30.1%" and cells[6] == "27.4%", cells[:12]
PY
	assert_grep '<p class="record" id="layers-record" hidden' "$TMP/dom"
fi
check_page "$R" 1
exit 0
