# advise on several ranks finds the straggler (issue 12 item 4): four
# generated ranks, one of them slowed down (every timestamp and duration of
# rank 2 stretched by 1.25).  The finding names rank 2, its excess over the
# others' median step, and the time at stake: over its steps, its time
# beyond the other ranks' median step, from tests/tools/kineto_steps.py.
D=$TMP/job; mkdir "$D"
for r in 0 1 3; do
	"$GEN" --format kineto -n 1500 --seed $((r + 1)) -o "$D/rank$r.json" >/dev/null || fail gen
done
"$GEN" --format kineto -n 1500 --seed 3 -o "$TMP/r2.json" >/dev/null || fail gen
python3 "$TOP/tests/tools/stretch_kineto.py" "$TMP/r2.json" "$D/rank2.json" || fail "stretching rank 2"
run_ok "$GPUPROF" advise -f json "$D"
python3 - "$TMP/out" "$TOP/tests/tools" "$D" <<'PY' || fail "straggler finding"
import json, sys
sys.path.insert(0, sys.argv[2])
from kineto_steps import steps, median
rows = [json.loads(l) for l in open(sys.argv[1])]
st = {r: steps("%s/rank%d.json" % (sys.argv[3], r)) for r in range(4)}
s = [r for r in rows if r["kind"] == "straggler"]
assert len(s) == 1 and s[0]["rank"] is None and s[0]["finding"] == 1, s
s = s[0]
assert s["title"].startswith("rank 2 is the straggler"), s["title"]
meds = {r: median(list(v.values())) for r, v in st.items()}
others = median([meds[r] for r in (0, 1, 3)])
pct = 100.0 * (meds[2] - others) / others
assert "%.1f%% longer" % pct in s["title"], (s["title"], pct)
stake = 0
shared = 0
for n, t in st[2].items():
    o = [st[r][n] for r in (0, 1, 3) if n in st[r]]
    if o:
        shared += 1
        stake += max(0, t - median(o))
assert s["time_ns"] == stake, (s["time_ns"], stake)
assert s["count"] == shared, (s["count"], shared)
assert s["involved_ns"] == sum(st[2].values())
# every rank's own findings follow, by rank
assert [r["rank"] for r in rows[1:]] == sorted(r["rank"] for r in rows[1:])
PY
# text: the finding first, then one block per rank
run_ok "$GPUPROF" advise "$D"
assert_grep '^Across 4 ranks:$' "$TMP/out"
assert_grep '^  rank 2 is the straggler' "$TMP/out"
assert_grep "^== rank 3: $D/rank3.json ==$" "$TMP/out"
# ranks marks it the slowest; equal ranks give no finding
run_ok "$GPUPROF" ranks -f csv "$D"
assert_grep '^"2","file name",.*,"slowest",' "$TMP/out"
cp "$D/rank0.json" "$TMP/rank1.json"
run_ok "$GPUPROF" advise -f csv "$D/rank0.json" "$TMP/rank1.json"
assert_no_grep 'straggler' "$TMP/out"
