# gpuprof advise DIR: a rank is judged in its job (issue 33, "a rank in its
# job").  DLRM's 8 ranks mostly wait for each other at their SendRecvs.
# Findings common to several ranks are one finding ("ranks 0-7: ..."), so
# the output is far shorter than the 547 lines of a rank-by-rank listing.
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
D="$TESTDATA/verdicts/param/dlrm_kineto_8rank"
[ -d "$D" ] || skip "$D missing"
run_ok "$GPUPROF" advise "$D"
cp "$TMP/out" "$TMP/adv.txt"
n=$(wc -l < "$TMP/adv.txt")
[ "$n" -lt 200 ] || fail "advise DIR printed $n lines: the ranks' findings are not merged"
assert_grep "ranks 0-7: " "$TMP/adv.txt"
[ "$(grep -c '\[tiny-kernels\]' "$TMP/adv.txt")" = 1 ] || fail "tiny-kernels is not one finding"
run_ok "$GPUPROF" advise -f json "$D"
# The savings are the job's replay across ranks (docs/dependencies.md, "A
# rank's change in its job"; rank 1's bound is t1782's oracle): no longer
# a rank's tail plus its late, which the changes of several ranks together
# exceed (every rank's tiny kernels gone: the collectives' last arrivals
# move too).  What holds whatever the model: the findings' changes
# together save less than the job's GPU span, and each finding's saving
# adds to the ones above (cumulative).
python3 - "$TMP/out" <<'PY' || fail "advise DIR: the job's savings"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
span = 18853000   # the job's GPU span (its longest rank's), as the text says
cum = 0
for r in rows:
    if r["saving_ns"] is None:
        continue
    cum += r["saving_ns"]
    assert abs(r["cumulative_ns"] - cum) <= 1, (r["kind"], r["cumulative_ns"], cum)
assert 0 < cum < span, cum
PY
