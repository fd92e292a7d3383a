# tier: slow
# The HTML job page's layer views: the kernels' time by module type and by
# path at every depth, summed over the ranks (analysis/layer_views.h,
# gp_layer_views_job_*), which must equal the sum over the rank files of
# `summary --by module-type|layer [--depth N] -f json` (each shown row's
# time and kernels, "other" the rest, "no layer" always shown, every view
# adding up to the job's GPU time).  A generated 3-rank job whose ranks
# differ in depth: rank 0 paths of 3 levels (Encoder/Block_N/Linear1),
# rank 1 the same trace shorter and without its Block_N ranges (2
# levels: its views at depth 2 are its whole paths), rank 2 without any
# annotation (all "no layer").  --rank 1: that rank's views alone.  Where
# Chromium is at hand, the drawn switch and table.
command -v python3 >/dev/null || skip "python3 not installed"
mkdir -p "$TMP/job"
run_ok "$GEN" --format kineto -n 600 -o "$TMP/job/rank-0.json"
run_ok "$GEN" --format kineto -n 300 -o "$TMP/one.json"
python3 - "$TMP/one.json" "$TMP/job" <<'PY' || fail "making ranks 1 and 2"
import json, sys
t = json.load(open(sys.argv[1]))
ev = t["traceEvents"]
t["traceEvents"] = [e for e in ev if not e.get("name", "").startswith("layer:Block_")]
json.dump(t, open(sys.argv[2] + "/rank-1.json", "w"))
t["traceEvents"] = [e for e in ev if e.get("cat") not in ("user_annotation", "gpu_user_annotation", "python_function")]
json.dump(t, open(sys.argv[2] + "/rank-2.json", "w"))
PY

# check_page PAGE DEPTH FILE...: the job's views against summary's rows summed over FILEs
check_page() {
	page=$1 depth=$2
	shift 2
	for by in module-type layer; do
		for d in 0 1 2 3 4; do
			for f in "$@"; do
				"$GPUPROF" summary --section gpu --by $by $([ $d = 0 ] || echo --depth $d) -n 1000000 -f json "$f" ||
					fail "summary --by $by --depth $d $f"
			done >"$TMP/sum-$by-$d.json"
		done
	done
	python3 - "$page" "$TMP" "$depth" "$TOP/tests/tools" <<'PY' || fail "$page: the job's layer views differ from summary's summed over the ranks"
import json, sys, collections
sys.path.insert(0, sys.argv[4])
from html_job_oracle import page_data
lv = page_data(sys.argv[1])["job"]["layer_views"]
assert lv["depth"] == int(sys.argv[3]), lv["depth"]
assert len(lv["views"]) == 2 * lv["depth"], (len(lv["views"]), lv["depth"])
for v in lv["views"]:
    by = "module-type" if v["by"] == "module-type" else "layer"
    ns, calls = collections.Counter(), collections.Counter()
    for l in open("%s/sum-%s-%d.json" % (sys.argv[2], by, v["depth"])):
        r = json.loads(l)
        ns[r["name"]] += r["total_ns"]
        calls[r["name"]] += r["calls"]
    assert sum(ns.values()) == lv["gpu_ns"], (v["by"], v["depth"], sum(ns.values()), lv["gpu_ns"])
    assert sum(r["ns"] for r in v["rows"]) == lv["gpu_ns"], (v["by"], v["depth"])
    plain = [r["ns"] for r in v["rows"] if "groups" not in r]
    assert plain == sorted(plain, reverse=True), (v["by"], v["depth"])
    shown = set()
    for r in v["rows"]:
        if "groups" in r:   # "other": summary's rows not shown
            rest = [n for n in ns if n not in shown]
            assert r["ns"] == sum(ns[n] for n in rest) and r["groups"] == len(rest), (v["by"], v["depth"])
            continue
        name = None if r.get("none") else r["name"]
        shown.add(name)
        assert (r["ns"], r["count"]) == (ns[name], calls[name]), (v["by"], v["depth"], r, ns[name], calls[name])
    if None in ns:
        assert None in shown, (v["by"], v["depth"], "no-layer row not shown")
PY
}

run_ok "$GPUPROF" html -o "$TMP/job.html" --force "$TMP/job"
check_page "$TMP/job.html" 3 "$TMP"/job/rank-0.json "$TMP"/job/rank-1.json "$TMP"/job/rank-2.json
# by hand: rank 1 has no Block_N, rank 2 no layer at all: the job's
# Block_0 is rank 0's alone; its no-layer time includes all of rank 2's
python3 - "$TMP/job.html" "$TOP/tests/tools" <<'PY' || fail "the job's views by hand"
import sys
sys.path.insert(0, sys.argv[2])
from html_job_oracle import page_data
d = page_data(sys.argv[1])
lv = d["job"]["layer_views"]
rows = {(v["by"], v["depth"]): {r["name"]: r for r in v["rows"]} for v in lv["views"]}
assert "layer:Encoder/layer:Linear1" in rows[("path", 2)], sorted(rows[("path", 2)])
assert "layer:Encoder/layer:Block_0" in rows[("path", 2)], sorted(rows[("path", 2)])
assert 2 * lv["layer_ns"] > lv["gpu_ns"] and lv["record"] == "", (lv["layer_ns"], lv["gpu_ns"])
PY
# --rank 1: its views alone (2 levels)
run_ok "$GPUPROF" html --rank 1 -o "$TMP/one.html" --force "$TMP/job"
check_page "$TMP/one.html" 2 "$TMP"/job/rank-1.json
# the rank without layers alone: no views, the sentence on what to record
run_ok "$GPUPROF" html --rank 2 -o "$TMP/bare.html" --force "$TMP/job"
python3 - "$TMP/bare.html" "$TOP/tests/tools" <<'PY' || fail "the bare rank's page"
import sys
sys.path.insert(0, sys.argv[2])
from html_job_oracle import page_data
lv = page_data(sys.argv[1])["job"]["layer_views"]
assert lv["depth"] == 0 and lv["views"] == [] and lv["layer_ns"] == 0 and "with_modules=True" in lv["record"], lv
PY

if command -v chromium >/dev/null && { [ -r /usr/share/javascript/chart.js/chart.min.js ] || [ -n "${GPUPROF_CHARTJS:-}" ]; }; then
	open_page "$TMP/job.html"
	assert_grep '<div id="layer-views" data-view="module-type:0">' "$TMP/dom"
	assert_grep '<p class="record" id="layers-record" hidden' "$TMP/dom"
	python3 - "$TMP/dom" "$TMP/job.html" "$TOP/tests/tools" <<'PY' || fail "the job page's drawn module types"
import re, sys
sys.path.insert(0, sys.argv[3])
from html_job_oracle import page_data
lv = page_data(sys.argv[2])["job"]["layer_views"]
v = [v for v in lv["views"] if v["by"] == "module-type" and v["depth"] == 0][0]
dom = open(sys.argv[1]).read()
t = dom.split('id="table-layer-view"')[1].split("</table>")[0]
cells = re.findall(r"<td[^>]*>([^<]*)</td>", t)
assert cells[0:8:4] == [r["name"] for r in v["rows"][:2]], (cells[:12], v["rows"][:2])
PY
fi
exit 0
