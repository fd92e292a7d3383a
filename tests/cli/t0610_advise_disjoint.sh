# tier: slow (over 268 s in make check before the tiers, on the busy 2-core machine: it runs gpuprof on every shared trace)
# advise's savings are disjoint: on every trace in testdata and on
# generated ones (1 to 4 streams, every format) each finding saves what its
# change adds to the ones above it (the changes applied together, re-timed
# on the dependency graph), so the savings sum to at most the GPU span
# (info's duration bounds it) and their shares to at most 100%; a finding
# whose own saving the ones above already took in part says how much, and
# names those that change the same work, all ranked above it; one-time
# costs lead the list.
need_testdata
every_trace "$TMP/files"
n=0
while read -r f; do
	n=$((n + 1))
	"$GPUPROF" advise -f json "$f" >"$TMP/a$n.json" 2>/dev/null
	"$GPUPROF" info -f json "$f" >"$TMP/i$n.json" 2>/dev/null
	"$GPUPROF" summary -f csv --by device "$f" >"$TMP/d$n.csv" 2>/dev/null
	"$GPUPROF" advise "$f" >"$TMP/t$n.txt" 2>/dev/null
	echo "$n $f" >>"$TMP/index"
done <"$TMP/files"
python3 - "$TMP" <<'PY' || fail "times at stake"
import json, sys
d = sys.argv[1]
checked = shared = 0
for line in open(d + "/index"):
    n, f = line.split(" ", 1)
    try:
        rows = [json.loads(l) for l in open("%s/a%s.json" % (d, n)) if l.strip()]
        info = json.load(open("%s/i%s.json" % (d, n)))
    except ValueError:
        continue                     # not a trace advise reads
    devices = max(1, len(open("%s/d%s.csv" % (d, n)).read().splitlines()) - 1)
    text = open("%s/t%s.txt" % (d, n)).read()
    ranked = [r for r in rows if r["saving_ns"] is not None]   # notices save nothing
    total = sum(r["saving_ns"] for r in ranked)
    cap = info.get("duration_ns") or 0
    assert total <= cap + len(rows), (f, total, cap, rows)
    assert sum(r["saving_pct"] for r in ranked) <= 100 + 0.01 * len(rows), (f, rows)
    # ranked greedily (t1780), one-time costs first and the others after
    # them: within a group a saving above the one before only where the
    # change needs the ones above (it saves more than alone)
    assert [r["one_time"] for r in ranked] == sorted((r["one_time"] for r in ranked), reverse=True), (f, ranked)
    for a, b in zip(ranked, ranked[1:]):
        if a["one_time"] == b["one_time"]:
            assert b["saving_ns"] <= a["saving_ns"] * 1.01 + 1000 or b["saving_ns"] > b["alone_ns"], (f, a, b)
    for r in ranked:
        assert abs(r["shared_ns"] - max(0, r["alone_ns"] - r["saving_ns"])) <= 1, (f, r)
        assert r["shared_with"] == "" or r["shared_ns"] > 0, (f, r)
        if r["shared_ns"] > 0:
            shared += 1
            assert "saved too by the changes above" in text, (f, r["kind"])
        if r["shared_with"]:
            assert "saved too by the changes above [%s]" % r["shared_with"] in text, (f, r["kind"])
            above = [q["kind"] for q in rows if q["position"] < r["position"]]
            assert all(k in above for k in r["shared_with"].split(", ")), (f, r, above)
    checked += 1
assert checked >= 40, checked
assert shared >= 3, shared
PY

# the HTA step trace (130 tiny kernels on a GP100, the CPU issuing them):
# tiny-kernels and cpu_op make about the same change (the ops' CPU time
# gone), so the later of the two saves next to nothing beyond the first and
# says so; the breakdown
# puts 4.684 ms of the idle time on the ops, which cpu_op states; the
# untraced share of the idle time (25%) is noticed first
f=$TESTDATA/hta/with_gpu_user_annotation/step_based_trace_2543932.json.gz
run_ok "$GPUPROF" advise -f json "$f"
cp "$TMP/out" "$TMP/advise.json"
run_ok "$GPUPROF" breakdown -f json "$f"
python3 - "$TMP/advise.json" "$TMP/out" <<'PY' || fail "HTA step trace"
import json, sys
rows = {r["kind"]: r for r in map(json.loads, open(sys.argv[1]))}
bd = {r["part"]: r["time_ns"] for r in map(json.loads, open(sys.argv[2])) if r["iteration"] is None}
tiny, cpu, cover = rows["tiny-kernels"], rows["cpu_op"], rows["coverage"]
assert cover["position"] == 1 and cover["saving_ns"] is None, rows
# ranked greedily: the first of the two saves what both would alone, the
# later one next to nothing beyond it and names it
first, later = sorted((tiny, cpu), key=lambda r: r["position"])
assert first["position"] == 2 and later["shared_with"] == first["kind"], rows
assert first["alone_ns"] == later["alone_ns"] > 0, rows
assert later["saving_ns"] <= 0.01 * later["alone_ns"] and later["shared_ns"] > 0.99 * later["alone_ns"], later
assert cpu["involved_ns"] == bd["idle_cpu_op"] == 4684000, (cpu, bd)
assert 0 < first["saving_ns"] <= bd["idle"], (first, bd)
assert cover["involved_ns"] == bd["idle_untraced"] + bd["idle_unknown"], (cover, bd)
PY
