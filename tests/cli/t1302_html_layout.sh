# gpuprof html read as a user reads it, in headless Chromium, against
# counts taken from the raw traces: identical GPUs listed once with their
# count (8 A100s of one trace; 8 ranks of one GPU each), GPU busy of 8
# ranks as a heat map with one row per rank and GPU (not 8 overlapping
# lines), the job's layer drill-down adding up to the layer, gaps placed
# in steps (never "na").  Takes the screenshots of docs/html.md: a
# single-GPU real trace, a job of 8 generated ranks, a vLLM graph-replay
# trace; UPDATE_SCREENSHOT=1 replaces docs/img/html-single.png,
# html-ranks8.png and html-graphs.png.  (t1300 checks every chart's marks
# and the section order, t1330 the job's figures.)
need_chromium

# shot HTML PNG HEIGHT HIDE: a screenshot of the page, 1400 px wide, the
# sections HIDE (CSS selectors, comma-separated) left out so that the
# picture shows the rest; kept in docs/img/ under UPDATE_SCREENSHOT=1.
shot() {
	sed "s|</style>|$4{display:none}</style>|" "$1" >"$TMP/shot.html"
	timeout 120 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$TMP/chrome" --hide-scrollbars \
		--screenshot="$TMP/$2" --window-size=1400,"$3" "file://$TMP/shot.html" 2>/dev/null ||
		fail "chromium --screenshot failed"
	[ "$(head -c 8 "$TMP/$2" | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ] || fail "$2 is not a PNG"
	[ "${UPDATE_SCREENSHOT:-}" = 1 ] && cp "$TMP/$2" "docs/img/$2"
	return 0
}

# gpus TRACE...: "N × NAME, ..." of the deviceProperties of the raw
# traces, identical names counted once, in the order they first come
gpus() {
	python3 - "$@" <<'PY'
import gzip, json, sys
seen = {}
for f in sys.argv[1:]:
    d = json.load(gzip.open(f) if f.endswith(".gz") else open(f))
    for p in d.get("deviceProperties", []):
        seen[p["name"]] = seen.get(p["name"], 0) + 1
print(", ".join("%d \u00d7 %s" % (n, name) for name, n in seen.items()))
PY
}

# 1. one trace of 8 identical GPUs: one row with their count
need_testdata
f=$TESTDATA/hta/critical_path/cuda_event_sync/event_sync_trace.json.gz
run_ok "$GPUPROF" html -o "$TMP/sync.html" "$f"
open_page "$TMP/sync.html"
assert_grep "<dt>GPUs</dt><dd>$(gpus "$f")</dd>" "$TMP/dom"
assert_grep '<table id="devices" class="data" data-rows="1">' "$TMP/dom"
assert_grep '<td>0-7</td><td>8</td>' "$TMP/dom"

# 2. 8 ranks (generated, rank 5 slow): the GPUs once, a heat map row per
# rank and GPU, the job's layer drill-down adding up, gaps in steps
run_ok "$GEN" --format kineto --ranks 8 --slow-rank 5 --delay-us 3000 --iters 12 -o "$TMP/job"
run_ok "$GPUPROF" html -o "$TMP/job.html" "$TMP/job"
open_page "$TMP/job.html"
assert_grep "<dt>GPUs</dt><dd>$(gpus "$TMP"/job/rank-*.json)</dd>" "$TMP/dom"
python3 - "$TMP/dom" "$TMP"/job/rank-*.json <<'PY' || fail "the job page's heat map, drill-down or gaps differ from the raw traces"
import json, re, sys
dom = open(sys.argv[1]).read()
# one row per (rank, GPU that ran a kernel): the raw events
rows = sum(len({e["args"]["device"] for e in json.load(open(f))["traceEvents"] if e.get("cat") == "kernel"})
           for f in sys.argv[2:])
heat = re.search(r'<div id="heatmap"[^>]*>', dom).group(0)
assert 'data-rows="%d"' % rows in heat and "hidden" not in heat, (heat, rows)
assert re.search(r'<div class="chart" id="chart-timeline"[^>]*style="display: none;"', dom), "busy lines drawn too"
# the drill-down: the layer's ops and kernels add up to the layer
layer = re.search(r'<div id="layer-detail"[^>]*data-ns="([0-9]+)"', dom).group(1)
for part in ("ops", "kernels"):
    got = re.search(r'id="layer-detail-%s"[^>]*data-ns="([0-9]+)"' % part, dom).group(1)
    assert got == layer, (part, got, layer)
# the data: every layer's drill adds up to it
data = json.loads(re.search(r'<script type="application/json" id="gp-data">(.*?)</script>', dom, re.S).group(1))
for l in data["job"]["layers"]:
    if "drill" in l:
        for part in ("ops", "kernels"):
            assert sum(r["ns"] for r in l["drill"][part]) == l["ns"], (l["name"], part)
gaps = dom.split('id="table-gaps"')[1].split("</table>")[0]
assert ">na<" not in gaps and ">n/a<" not in gaps and re.search(r'<td class="tag">(step \d+|between steps \d+ and \d+)</td>', gaps), "gap steps"
# the longest gap drawn on its small timeline: the gap and its kernels
near = re.search(r'<div id="gap-detail"[^>]*data-marks="([0-9]+)"', dom)
assert near and int(near.group(1)) > 1, "no small timeline of the longest gap"
print("ok: %d heat map rows, drill-down of %s ns, gap steps" % (rows, layer))
PY
# memory over time of many ranks: a heat map row per rank and GPU (lines
# would lie on each other), the darkest cell the job's highest allocation
python3 - "$TMP/job" "$TMP/mem" <<'PY' || fail "crafting the ranks' memory events"
import json, os, sys
src, dst = sys.argv[1], sys.argv[2]
os.mkdir(dst)
for r in range(8):
    d = json.load(open("%s/rank-%d.json" % (src, r)))
    ev = d["traceEvents"]
    t0 = min(e["ts"] for e in ev if "ts" in e)
    for i in range(20):   # allocate (r + 1) MiB more at each event: rank 7 holds the most
        ev.append({"ph": "i", "s": "t", "cat": "cpu_instant_event", "name": "[memory]", "pid": 1, "tid": 1,
                   "ts": t0 + 100 * i, "args": {"Device Type": 1, "Device Id": 0, "Addr": 4096 * (i + 1),
                   "Bytes": (r + 1) << 20, "Total Allocated": (i + 1) * ((r + 1) << 20), "Total Reserved": 1 << 30}})
    json.dump(d, open("%s/rank-%d.json" % (dst, r), "w"))
PY
run_ok "$GPUPROF" html -o "$TMP/mem.html" "$TMP/mem"
open_page "$TMP/mem.html"
python3 - "$TMP/dom" <<'PY' || fail "the job page's memory is not a heat map of its ranks"
import re, sys
dom = open(sys.argv[1]).read()
heat = re.search(r'<div id="memory-heatmap"[^>]*>', dom).group(0)
assert 'data-rows="8"' in heat and "hidden" not in heat, heat
assert re.search(r'<div class="chart" id="chart-memory"[^>]*style="display: none;"', dom), "memory lines drawn too"
assert "as a share of the job's highest (160.00 MiB)" in dom, "the caption names the job's highest"
PY
shot "$TMP/job.html" html-ranks8.png 2050 'section#layers,section#ops,section#kernels,section#memory,section#roofline,section#critical,section#steps,section#gaps'

# 3. screenshots of real traces: a single GPU (BERT on an H100), a vLLM
# graph replay (MI300X): the verdict and where the time goes, then layers
f=$TESTDATA/tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz
run_ok "$GPUPROF" html -o "$TMP/bert.html" "$f"
# one time reference: the page counts time points from the trace start as
# breakdown --view gaps does (its csv gives both clocks of each gap)
run_ok "$GPUPROF" breakdown --view gaps -f csv "$f"
python3 - "$TMP/bert.html" "$TMP/out" "$TOP/tests/tools" <<'PY' || fail "the page's time origin is not the CLI's"
import csv, sys
sys.path.insert(0, sys.argv[3])
from html_job_oracle import page_data
inp = page_data(sys.argv[1])["inputs"][0]
origins = {int(r["Start on the trace's clock (ns)"]) - int(r["Start from trace start (ns)"])
           for r in csv.DictReader(open(sys.argv[2]))}
assert origins == {inp["origin"]}, (origins, inp["origin"])
PY
open_page "$TMP/bert.html"
shot "$TMP/bert.html" html-single.png 2200 'section#ops,section#steps,section#timeline,section#memory,section#roofline,section#critical'
f=$TESTDATA/tracelens/inference/vllm_prefilldecode_piecewise/graph_execution.json.gz
run_ok "$GPUPROF" html -o "$TMP/graphs.html" "$f"
open_page "$TMP/graphs.html"
assert_grep 'id="steps-absent">Step time: the trace marks no steps' "$TMP/dom"
shot "$TMP/graphs.html" html-graphs.png 1700 'section#ops,section#kernels,section#gaps,section#memory,section#roofline,section#critical,section#timeline'
