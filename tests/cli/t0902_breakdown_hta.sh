# gpuprof breakdown --as hta and --as hta-idle reproduce HTA 0.6.1's
# get_temporal_breakdown, get_comm_comp_overlap and get_idle_time_breakdown
# (../shared/testdata/expected/hta) exactly on every trace, the two with
# nanosecond-resolution timestamps (nccl_parser_config, ns_resolution_trace)
# included: there HTA rounds every event inward to whole microseconds in
# float64 (docs/breakdown.md), and so does --as hta.
command -v python3 >/dev/null || skip "python3 not installed"
need_testdata
E=$TESTDATA/expected/hta
check() { # name trace [rank]
	run_ok "$GPUPROF" breakdown --as hta -f csv "$TESTDATA/$2"
	cp "$TMP/out" "$TMP/temporal.csv"
	run_ok "$GPUPROF" breakdown --as hta-idle -f csv "$TESTDATA/$2"
	python3 - "$E/$1" "$TMP/temporal.csv" "$TMP/out" "${3:-}" <<'PY' || fail "$1: differs from HTA"
import csv, sys
exp, temporal, idle, rank = sys.argv[1:5]
want = list(csv.DictReader(open(exp + "/hta_temporal_breakdown.csv")))
if rank:
    want = [r for r in want if r["rank"] == rank]
want = want[0]
got = list(csv.DictReader(open(temporal)))
assert len(got) == 1, got
got = got[0]
us = lambda v: round(float(v) * 1000)
for k in ("idle_time", "compute_time", "non_compute_time", "kernel_time"):
    assert int(got[k + "(ns)"]) == us(want[k + "(us)"]), (k, got, want)
for k in ("idle_time_pctg", "compute_time_pctg", "non_compute_time_pctg"):
    assert abs(float(got[k]) - float(want[k])) < 0.006, (k, got, want)
ov = [r for r in csv.DictReader(open(exp + "/hta_comm_comp_overlap.csv")) if not rank or r["rank"] == rank][0]
if ov["comp_comm_overlap_pctg"]:
    assert abs(float(got["comp_comm_overlap_pctg"]) - float(ov["comp_comm_overlap_pctg"])) < 0.006, (got, ov)
else:
    assert got["comp_comm_overlap_pctg"] == "na", got
mine = {(r["stream"], r["idle_category"]): int(r["idle_time(ns)"]) for r in csv.DictReader(open(idle))}
theirs = {(r["stream"], r["idle_category"]): us(r["idle_time"])
          for r in csv.DictReader(open(exp + "/hta_idle_time_breakdown_0.csv")) if not rank or r["rank"] == rank}
assert {s for s, _ in mine} == {s for s, _ in theirs}, (sorted(mine), sorted(theirs))
for key in mine:
    assert mine[key] == theirs.get(key, 0), (key, mine[key], theirs.get(key))
PY
}
check trace_diff_test hta/trace_diff/test/test.json.gz
check trace_diff_control hta/trace_diff/control/control.json.gz
check df_index_resolver hta/df_index_resolver/df_index_resolver.json.gz
check negative_queue_length hta/negative_queue_length_values_check/rank0.json.gz
check resnet50_num_workers_0 kineto_tb_plugin/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz
check resnet50_num_workers_4 kineto_tb_plugin/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz
check step_based_trace hta/with_gpu_user_annotation/step_based_trace_2543932.json.gz
check trace_filter hta/trace_filter/sampled_rank-0.json.gz 0
check trace_filter hta/trace_filter/sampled_rank-1.json.gz 1
check nccl_parser_config hta/nccl_parser_config/nccl_data.json.gz
check ns_resolution_trace hta/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz
# A trace of one ProfilerStep: HTA drops the last step, so its view is
# empty; a note says why instead of a bare header (issue 25)
"$GEN" --format kineto --iters 1 -o "$TMP/one.json" >/dev/null || fail "gpuprof-gen"
for as in hta hta-idle; do
	run_ok "$GPUPROF" breakdown --as $as -f csv --no-header "$TMP/one.json"
	assert_eq "$(wc -c <"$TMP/out")" 0 "--as $as: no rows"
	assert_grep "^gpuprof breakdown: note: $TMP/one.json: HTA drops the last ProfilerStep of a trace and this one has a single step" "$TMP/err"
done
"$GEN" --format kineto --iters 2 -o "$TMP/two.json" >/dev/null || fail "gpuprof-gen"
run_ok "$GPUPROF" breakdown --as hta "$TMP/two.json"
assert_no_grep 'note' "$TMP/err"
