# tier: slow (55 s in make check before the tiers, on the busy 2-core machine)
# gpuprof breakdown --as hta and --as hta-idle reproduce HTA 0.6.1's
# get_temporal_breakdown, get_comm_comp_overlap and get_idle_time_breakdown
# (../shared/testdata/expected/hta) exactly on every trace, the two with
# nanosecond-resolution timestamps (nccl_parser_config, ns_resolution_trace)
# included: there HTA rounds every event inward to whole microseconds in
# float64 (docs/breakdown.md), and so does --as hta.
command -v python3 >/dev/null || skip "python3 not installed"

# HTA's cut of the last iteration, by hand: it keeps the GPU work launched
# before the latest start of a ProfilerStep event, the GPU-side
# gpu_user_annotation one included (here 150 us, not the CPU step's 100),
# and launches before the first step too; with one ProfilerStep name
# (CPU and GPU side alike) it keeps all GPU work, unlinked kernels too.
python3 - "$TMP" <<'PY' || fail "cannot write the step traces"
import json, sys
def trace(path, steps, launches):
    ev = [{"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid, "ts": ts, "dur": dur, "args": {}}
          for cat, name, pid, tid, ts, dur in steps]
    for i, (ts, gpu) in enumerate(launches):
        if ts is not None:
            ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": ts,
                       "dur": 2, "args": {"correlation": 100 + i}})
        ev.append({"ph": "X", "cat": "kernel", "name": "k%d" % i, "pid": 0, "tid": 7, "ts": gpu, "dur": 10,
                   "args": {"correlation": 100 + i, "device": 0, "stream": 7}})
    json.dump({"traceEvents": ev}, open(path, "w"))
cpu = [("user_annotation", "ProfilerStep#1", 1, 1, 10, 90), ("user_annotation", "ProfilerStep#2", 1, 1, 100, 100)]
gpu2 = [("gpu_user_annotation", "ProfilerStep#2", 0, 7, 150, 110)]
launches = [(5, 30), (20, 60), (120, 160), (160, 200), (210, 240)]
trace(sys.argv[1] + "/steps.json", cpu + gpu2, launches)      # cutoff 150: k0, k1, k2
trace(sys.argv[1] + "/steps_cpu.json", cpu, launches)         # cutoff 100: k0, k1
one = [("user_annotation", "ProfilerStep#7", 1, 1, 10, 300), ("gpu_user_annotation", "ProfilerStep#7", 0, 7, 25, 290)]
trace(sys.argv[1] + "/one.json", one, launches + [(None, 280)])  # all six, k5 without a launch
PY
hta_kernel_time() { # FILE EXPECTED-KERNEL-TIME-NS
	run_ok "$GPUPROF" breakdown --as hta -f csv --no-header "$1"
	awk -F, -v want="$2" '{ gsub(/"/, ""); if ($5 != want) { print "kernel_time " $5 ", expected " want; bad = 1 } }
		END { if (NR != 1) { print NR " rows"; bad = 1 } exit bad }' "$TMP/out" || fail "$1: --as hta"
}
# kept kernels' span: k0..k2 = [30, 170), k0..k1 = [30, 70), all = [30, 290)
hta_kernel_time "$TMP/steps.json" 140000
hta_kernel_time "$TMP/steps_cpu.json" 40000
hta_kernel_time "$TMP/one.json" 260000
run_ok "$GPUPROF" breakdown --as hta-idle -f csv --no-header "$TMP/one.json"
[ "$(awk -F, '{ gsub(/"/, ""); n += $6 } END { print n }' "$TMP/out")" = 5 ] || fail "hta-idle: 5 gaps between 6 kernels"

need_testdata
# the H100 BERT trace has one ProfilerStep (#6, CPU and GPU side): HTA keeps
# all its GPU work, rounded inward to whole microseconds (its ts have
# fractions): kernel_time = the last floor(ts + dur) - the first ceil(ts)
bert=$TESTDATA/tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz
run_ok "$GPUPROF" breakdown --as hta -f csv --no-header "$bert"
python3 - "$bert" "$TMP/out" <<'PY' || fail "BERT: --as hta with one ProfilerStep"
import csv, gzip, json, math, sys
ev = json.load(gzip.open(sys.argv[1]))["traceEvents"]
steps = {e["name"] for e in ev if "ProfilerStep" in str(e.get("name")) and "dur" in e}
assert steps == {"ProfilerStep#6"}, steps
gpu = [e for e in ev if e.get("ph") == "X" and e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")]
span = max(math.floor(e["ts"] + e["dur"]) for e in gpu) - min(math.ceil(e["ts"]) for e in gpu)
rows = list(csv.reader(open(sys.argv[2])))
assert len(rows) == 1, rows
assert int(rows[0][4]) == span * 1000, (rows[0], span)
PY
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
# A trace of one ProfilerStep: one ProfilerStep name, so HTA keeps all its
# GPU work (no cut of the last step): rows, not a bare header (issue 25)
"$GEN" --format kineto --iters 1 -o "$TMP/gen1.json" >/dev/null || fail "gpuprof-gen"
for as in hta hta-idle; do
	run_ok "$GPUPROF" breakdown --as $as -f csv --no-header "$TMP/gen1.json"
	[ -s "$TMP/out" ] || fail "--as $as on one step: no rows"
	assert_no_grep 'note' "$TMP/err"
done
"$GEN" --format kineto --iters 2 -o "$TMP/gen2.json" >/dev/null || fail "gpuprof-gen"
run_ok "$GPUPROF" breakdown --as hta "$TMP/gen2.json"
assert_no_grep 'note' "$TMP/err"
