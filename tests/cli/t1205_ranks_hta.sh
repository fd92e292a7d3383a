# HTA reads a directory of rank files as one job; so does gpuprof: `breakdown
# --as hta` and `--as hta-idle` on hta/trace_filter's directory give HTA
# 0.6.1's own get_temporal_breakdown, get_comm_comp_overlap and
# get_idle_time_breakdown tables for both ranks
# (testdata/expected/hta/trace_filter, made by HTA on that directory), rank
# column against HTA's rank column.
need_testdata
E=$TESTDATA/expected/hta/trace_filter
run_ok "$GPUPROF" breakdown --as hta -f csv "$TESTDATA/hta/trace_filter"
cp "$TMP/out" "$TMP/hta.csv"
run_ok "$GPUPROF" breakdown --as hta-idle -f csv "$TESTDATA/hta/trace_filter"
python3 - "$TMP/hta.csv" "$TMP/out" "$E" <<'PY' || fail "differs from HTA's tables"
import csv, sys
got = {r["Rank"]: r for r in csv.DictReader(open(sys.argv[1]))}
exp = list(csv.DictReader(open(sys.argv[3] + "/hta_temporal_breakdown.csv")))
ovl = {r["rank"]: r for r in csv.DictReader(open(sys.argv[3] + "/hta_comm_comp_overlap.csv"))}
assert sorted(got) == sorted(r["rank"] for r in exp), (sorted(got), exp)
for e in exp:
    g = got[e["rank"]]
    for k in ("idle_time", "compute_time", "non_compute_time", "kernel_time"):
        assert int(g[k + "(ns)"]) == round(float(e[k + "(us)"]) * 1000), (e["rank"], k, g, e)
    for k in ("idle_time_pctg", "compute_time_pctg", "non_compute_time_pctg"):
        assert abs(float(g[k]) - float(e[k])) <= 0.01, (e["rank"], k)
    assert abs(float(g["comp_comm_overlap_pctg"]) - float(ovl[e["rank"]]["comp_comm_overlap_pctg"])) <= 0.01
# HTA leaves out a stream's empty categories: same streams, the rest 0
mine = {(r["Rank"], r["stream"], r["idle_category"]): int(r["idle_time(ns)"]) for r in csv.DictReader(open(sys.argv[2]))}
theirs = {(r["rank"], r["stream"], r["idle_category"]): round(float(r["idle_time"]) * 1000)
          for r in csv.DictReader(open(sys.argv[3] + "/hta_idle_time_breakdown_0.csv"))}
assert {k[:2] for k in mine} == {k[:2] for k in theirs}, (sorted(mine), sorted(theirs))
for k in mine:
    assert mine[k] == theirs.get(k, 0), (k, mine[k], theirs.get(k))
PY
