# verdicts/README.md, "param dlrm 8 ranks": rank 7 is the straggler.  The
# oracle matches each rank's NCCL kernels by order (every rank runs the
# same 8), takes the last rank to start each one: rank 7 at 5, rank 5 at
# 2, rank 4 at 1; the ends align within 7 us (so the raw clocks agree);
# the others waited ~35.55 ms for rank 7 (its start minus theirs, summed
# over the collectives it came last to).  ranks, comm and advise on the
# directory must all name rank 7, with the same counts of last arrivals
# and its wait to 0.1 ms (gpuprof aligns the clocks on the ends first).
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
D=$TESTDATA/verdicts/param/dlrm_kineto_8rank
[ -d "$D" ] || skip "$D not found"
python3 - "$D" >"$TMP/want" <<'PY' || fail "oracle: the raw traces do not hold the truth"
import collections, glob, gzip, json, sys
ranks = {}
for f in glob.glob(sys.argv[1] + "/worker*.pt.trace.json.gz"):
    t = json.load(gzip.open(f))
    ranks[t["distributedInfo"]["rank"]] = sorted((e for e in t["traceEvents"] if e.get("ph") == "X" and e.get("cat") == "kernel"
                                                  and e["name"].startswith("ncclKernel_")), key=lambda e: e["ts"])
assert sorted(ranks) == list(range(8)) and {len(k) for k in ranks.values()} == {8}
last, spread, waited = collections.Counter(), 0, 0
for i in range(8):
    assert len({k[i]["name"] for k in ranks.values()}) == 1, i
    start = {r: k[i]["ts"] for r, k in ranks.items()}
    end = [k[i]["ts"] + k[i]["dur"] for k in ranks.values()]
    spread = max(spread, max(end) - min(end))
    lr = max(start, key=start.get)
    last[lr] += 1
    if lr == 7:
        waited += sum(start[7] - s for s in start.values())
assert last == {7: 5, 5: 2, 4: 1} and spread <= 7 and round(waited / 10) == 3555, (last, spread, waited)
print(waited * 1000)
PY
waited=$(cat "$TMP/want")
near() { d=$(($1 - waited)); [ "${d#-}" -le 100000 ] || fail "$2: rank 7 caused $1 ns of waiting, the oracle's $waited ns"; }
run_ok "$GPUPROF" ranks -f csv --no-header "$D"
# Rank, ..., Caused (ns) ($13), Last ($14), Role ($15)
awk -F'","' '{print substr($1, 2), $14, $15}' "$TMP/out" >"$TMP/last"
assert_grep '^7 5 straggler$' "$TMP/last"
assert_grep '^5 2 $' "$TMP/last"
assert_grep '^4 1 $' "$TMP/last"
[ "$(grep -c straggler "$TMP/last")" = 1 ] || fail "ranks names more than one straggler"
near "$(awk -F'","' '$1 == "\"7" {print $13}' "$TMP/out")" ranks
run_ok "$GPUPROF" comm -f csv --no-header "$D"
# Rank, File, Calls, Matched, Last ($5), Waited, Caused ($7), ..., Role ($11), Host
awk -F'","' '{print substr($1, 2), $4, $5, $11}' "$TMP/out" >"$TMP/last"
assert_grep '^7 8 5 straggler$' "$TMP/last"
assert_grep '^5 8 2 $' "$TMP/last"
assert_grep '^4 8 1 $' "$TMP/last"
[ "$(grep -c straggler "$TMP/last")" = 1 ] || fail "comm names more than one straggler"
near "$(awk -F'","' '$1 == "\"7" {print $7}' "$TMP/out")" comm
run_ok "$GPUPROF" advise -f json "$D"
assert_grep '^\{"rank":null,.*"kind":"straggler",.*"count":5,"title":"rank 7 is the straggler: the others waited [0-9.]+ ms for it at 5 of 8 collectives"' "$TMP/out"
near "$(sed -n 's/^{"rank":null,.*"kind":"straggler",.*"involved_ns":\([0-9]*\),.*/\1/p' "$TMP/out")" advise
[ "$(grep -c '"kind":"straggler"' "$TMP/out")" = 1 ] || fail "advise names more than one straggler"
