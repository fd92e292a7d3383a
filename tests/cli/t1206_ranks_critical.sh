# tier: slow (71 s in make check before the tiers, on the busy 2-core machine)
# The job's critical path across ranks (issue 22 part 3, ranks --view
# critical; docs/dependencies.md, "The critical path across ranks").
# 1. A generated 4-rank job with the dependencies PyTorch's NCCL backend
#    records (gpuprof-gen --deps: each collective waits for its GEMM
#    through an event, the next GEMM for the collective, each step ends in
#    a stream sync 5 us after its last collective), rank 2's GEMMs 300 us
#    longer, each rank's clock 1.5 ms ahead of the one before.  The truth
#    the generator makes: every collective waits for rank 2, so from the
#    job's end (every rank's step ends at one instant: the first rank, 0,
#    is taken) the path holds rank 0's step end (5 us of the step range
#    after 5 us of its sync) and the last reduce-scatter's communication
#    from rank 2's arrival on (8 MiB x 4 ranks at 64 B/ns: 524288 ns),
#    then goes to rank 2 once and stays there: its 15 GEMMs (700 us each)
#    and 14 collectives (524288 ns each), back to its first activity.
#    Ranks 1 and 3 hold nothing.  The path's length is computed here from
#    the raw JSON (the job's last end less its first start, on clocks the
#    generator's skew aligns), and the ranks' times add up to it.
# 2. The same job without the late rank: nobody waits, the path stays on
#    rank 0 from end to start.
# 3. nsys exports (calls matched by position), 3 ranks, rank 1 40 us late:
#    the same shape (the last reduce-scatter: 8 MiB x 3 at 64 B/ns).
# 4. One file: the job is the rank, and its path is the one breakdown
#    --view critical walks (by cause and op, to the nanosecond).
# 5. No collective matched on every rank: a note, no rows.
# 6. hta/trace_filter, two ranks of a real job: the ranks' times add up to
#    the path's length; the job ends on rank 1 (the straggler), whose path
#    walks back through its CPU work without reaching a collective where
#    rank 1 waited, so it stays on rank 1: its time is its own critical
#    path, breakdown's.
# 7. hta/df_index_resolver, one rank with 2020 all-reduces: the walks from
#    its collectives share their segments (each point is walked once), and
#    the path put together from them is still breakdown's.
command -v python3 >/dev/null || skip "python3 not installed"

# sums FILE: checks that the ranks' rows of a ranks --view critical -f csv
# output add up (each rank's causes to its "all" row, the ranks to the
# job's) and prints "RANK HELD ENTERED" per rank.
sums() {
	python3 - "$1" <<'PY' || fail "the rows of $1 do not add up"
import collections, csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
job = rows[0]
assert (job["Rank"], job["Cause"], job["Share (%)"]) == ("all", "all", "100.00"), job
held, causes, entered = {}, collections.Counter(), {}
for r in rows[1:]:
    if r["Cause"] == "all":
        held[r["Rank"]] = int(r["Time (ns)"]); entered[r["Rank"]] = r["Entered"]
    else:
        causes[r["Rank"]] += int(r["Time (ns)"])
assert all(causes[k] == held[k] for k in held), (causes, held)
assert sum(held.values()) == int(job["Time (ns)"]), (held, job)
for k in held:
    print(k, held[k], entered[k])
PY
}

# length DIR SKEW_NS FILE...: the job's length from the raw Kineto JSON of
# FILE... (rank order): the last end less the first start over every
# complete event, rank r's times less r x SKEW_NS.
length() {
	python3 - "$@" <<'PY'
import json, sys
skew = int(sys.argv[1])
first, last = None, None
for r, path in enumerate(sys.argv[2:]):
    for e in json.load(open(path))["traceEvents"]:
        if e.get("ph") != "X":
            continue
        s = round(e["ts"] * 1000) - r * skew
        t = s + round(e["dur"] * 1000)
        first = s if first is None else min(first, s)
        last = t if last is None else max(last, t)
print(last - first)
PY
}

# 1. generated Kineto ranks with their dependencies, rank 2 late
run_ok "$GEN" --format kineto --ranks 4 --slow-rank 2 --delay-us 300 --clock-skew-us 1500 --deps -o "$TMP/slow"
run_ok "$GPUPROF" ranks --view critical -f csv "$TMP/slow"
cp "$TMP/out" "$TMP/slow.csv"
len=$(length 1500000 "$TMP"/slow/rank-0.json "$TMP"/slow/rank-1.json "$TMP"/slow/rank-2.json \
	"$TMP"/slow/rank-3.json) || fail "the oracle"
assert_eq "$(awk -F, 'NR == 2 { gsub(/"/, ""); print $4 }' "$TMP/slow.csv")" "$len" "the path's length"
comm=$((4194304 * 4 * 2 / 64))
tail0=$((comm + 5000 + 5000))
assert_eq "$(sums "$TMP/slow.csv" | tr '\n' ' ')" "0 $tail0 0 1 0 0 2 $((len - tail0)) 1 3 0 0 " \
	"each rank's time on the path"
assert_grep '^"0","gpu_comm","record_param_comms","'"$comm"'",' "$TMP/slow.csv"
assert_grep '^"0","sync","cudaStreamSynchronize","5000",' "$TMP/slow.csv"
assert_grep '^"2","gpu_compute","mm","'$((15 * 700000))'",' "$TMP/slow.csv"
assert_grep '^"2","gpu_comm","record_param_comms","'$((14 * comm))'",' "$TMP/slow.csv"
# the straggler the other views name holds the most
run_ok "$GPUPROF" ranks -f csv "$TMP/slow"
assert_eq "$(awk -F, '{ gsub(/"/, "") } NR > 1 && $15 != "" { print $1, $15 }' "$TMP/out")" "2 straggler" \
	"ranks: the straggler"
# the table: the same rows
run_ok "$GPUPROF" ranks --view critical "$TMP/slow"
assert_grep '^ +2 all +\(all\) +23\.380 ms +97\.77% +1$' "$TMP/out"

# 1b. export --critical-path over the job's files marks the job's path,
# not each rank's own: the "critical path" slices of each rank's process
# add up to its time on the path (ranks 1 and 3: none), and only the
# records of ranks 0 and 2 carry "critical": true
run_ok "$GPUPROF" export --critical-path -o "$TMP/slow.trace.json" "$TMP/slow"
python3 - "$TMP/slow.trace.json" "$TMP/slow.csv" <<'PY' || fail "export --critical-path: not the job's path"
import collections, csv, json, re, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
rank_of = {e["pid"]: int(re.match(r"rank (\d+):", e["args"]["name"]).group(1))
           for e in ev if e.get("ph") == "M" and e.get("name") == "process_name"}
held = collections.Counter()
marked = set()
for e in ev:
    if e.get("cat") == "critical_path":
        held[rank_of[e["pid"]]] += round(e["dur"] * 1000)
    elif (e.get("args") or {}).get("critical"):
        marked.add(rank_of[e["pid"]])
want = {int(r["Rank"]): int(r["Time (ns)"]) for r in csv.DictReader(open(sys.argv[2]))
        if r["Rank"] != "all" and r["Cause"] == "all" and r["Time (ns)"] != "0"}
assert dict(held) == want, (held, want)
assert marked == {0, 2}, marked
PY
# advise's straggler and diff --by rank say where the job's path runs
run_ok "$GPUPROF" advise -n 1 "$TMP/slow"
tr -s ' \n' ' ' <"$TMP/out" | grep -q "the job's critical path (23.914 ms, \`gpuprof ranks --view critical\`) runs 97.8% on rank 2" ||
	fail "advise: the straggler's evidence does not give the job's path"
run_ok "$GPUPROF" diff --by rank "$TMP/slow" "$TMP/slow"
assert_grep "note: BASE: the job's critical path \\(23\\.914 ms\\) runs 97\\.8% on rank 2" "$TMP/err"

# 1c. the same job without the dependencies (no event waits, no step-end
# sync): the path walks back on rank 0's CPU and reaches no collective, so
# it cannot tell who waited: said, not "0% on the straggler"
run_ok "$GEN" --format kineto --ranks 4 --slow-rank 2 --delay-us 300 -o "$TMP/nodeps"
run_ok "$GPUPROF" ranks --view critical "$TMP/nodeps"
assert_grep 'note: the critical path reaches no collective' "$TMP/err"
run_ok "$GPUPROF" advise -n 1 "$TMP/nodeps"
tr -s ' \n' ' ' <"$TMP/out" | grep -q "rank 2 is the straggler.*reaches no collective: from the job's end the traces record nothing" ||
	fail "advise: the straggler's evidence claims a path that reaches no collective"
run_ok "$GPUPROF" ranks --view critical "$TMP/slow"
assert_no_grep 'reaches no collective' "$TMP/err"

# 2. nobody late: the path stays on the rank it ends on
run_ok "$GEN" --format kineto --ranks 4 --clock-skew-us 1500 --deps -o "$TMP/even"
run_ok "$GPUPROF" ranks --view critical -f csv "$TMP/even"
cp "$TMP/out" "$TMP/even.csv"
len=$(length 1500000 "$TMP"/even/rank-0.json "$TMP"/even/rank-1.json "$TMP"/even/rank-2.json \
	"$TMP"/even/rank-3.json) || fail "the oracle"
assert_eq "$(sums "$TMP/even.csv" | tr '\n' ' ')" "0 $len 0 1 0 0 2 0 0 3 0 0 " "the even job"

# 3. nsys exports, rank 1 late
run_ok "$GEN" --format nsys --ranks 3 --slow-rank 1 --delay-us 40 --clock-skew-us 7 --deps -o "$TMP/nsys"
run_ok "$GPUPROF" ranks --view critical -f csv "$TMP/nsys"
cp "$TMP/out" "$TMP/nsys.csv"
comm=$((4194304 * 3 * 2 / 64))
s=$(sums "$TMP/nsys.csv" | tr '\n' ' ')
case $s in
"0 $((comm + 10000)) 0 1 "*" 1 2 0 0 ") ;;
*) fail "nsys: each rank's time on the path: $s" ;;
esac
assert_grep '^"1","gpu_compute","aten::mm","'$((15 * 440000))'",' "$TMP/nsys.csv"

# 4. one file: breakdown's critical path, by cause and op
same_path() {
	run_ok "$GPUPROF" ranks --view critical -f csv "$1"
	cp "$TMP/out" "$TMP/one.csv"
	sums "$TMP/one.csv" >/dev/null
	run_ok "$GPUPROF" breakdown --view critical -f csv "$1"
	python3 - "$TMP/one.csv" "$TMP/out" <<'PY' || fail "ranks and breakdown: the critical path of $1"
import collections, csv, sys
a, b = collections.Counter(), collections.Counter()
for r in csv.DictReader(open(sys.argv[1])):
    if r["Rank"] != "all" and r["Cause"] != "all":
        a[r["Cause"], r["Op"]] += int(r["Time (ns)"])
for r in csv.DictReader(open(sys.argv[2])):
    if r["Iter"] == "all":
        b[r["Cause"], r["Op"]] += int(r["Time (ns)"])
assert a and a == b, (a - b, b - a)
PY
}
same_path "$TMP/slow/rank-2.json"
same_path "$TMP/nsys/rank-1.sqlite"

# 5. no collective in common: the traces cannot tell
D=$TMP/nocoll; mkdir "$D"
for r in 0 1; do
	"$GEN" --format kineto -k 1 -n 300 --seed $((r + 1)) -o "$D/rank$r.json" >/dev/null || fail gen
done
run_ok "$GPUPROF" ranks --view critical -f csv "$D"
assert_eq "$(wc -l <"$TMP/out")" 1 "no rows but the header"
assert_grep 'note: no critical path across the ranks: a rank shares no collective' "$TMP/err"

# 6. the shared trace_filter ranks
need_testdata
H=$TESTDATA/hta/trace_filter
run_ok "$GPUPROF" ranks --view critical -f csv "$H"
cp "$TMP/out" "$TMP/hta.csv"
# its export marks rank 1 alone
run_ok "$GPUPROF" export --critical-path -o "$TMP/hta.trace.json" "$H"
python3 - "$TMP/hta.trace.json" <<'PY' || fail "trace_filter: export --critical-path marks a rank other than 1"
import json, re, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
rank_of = {e["pid"]: int(re.match(r"rank (\d+):", e["args"]["name"]).group(1))
           for e in ev if e.get("ph") == "M" and e.get("name") == "process_name"}
on = {rank_of[e["pid"]] for e in ev if e.get("cat") == "critical_path" or (e.get("args") or {}).get("critical")}
assert on == {1}, on
PY
s=$(sums "$TMP/hta.csv" | tr '\n' ' ')
held1=$(echo "$s" | awk '{ print $5 }')
assert_eq "$(echo "$s" | awk '{ print $1, $2, $3, $4, $6 }')" "0 0 0 1 0" "trace_filter: rank 1 alone, never entered"
assert_eq "$held1" "$(awk -F, 'NR == 2 { gsub(/"/, ""); print $4 }' "$TMP/hta.csv")" "trace_filter: rank 1 holds it all"
same_path "$H/sampled_rank-1.json.gz"

# 7. many collectives, shared segments
same_path "$TESTDATA/hta/df_index_resolver/df_index_resolver.json.gz"

# 5. the HTML page of the job shows the same path: its length, each rank's
# time on it and the times it came to each, as ranks --view critical -f csv
run_ok "$GPUPROF" html -o "$TMP/slow.html" "$TMP/slow"
run_ok "$GPUPROF" ranks --view critical -f csv "$TMP/slow"
python3 - "$TMP/slow.html" "$TMP/out" "$TOP/tests/tools" <<'PY' || fail "the job page's critical path differs from ranks --view critical"
import csv, sys
sys.path.insert(0, sys.argv[3])
from html_job_oracle import page_data
job = page_data(sys.argv[1])["job"]
rows = [r for r in csv.DictReader(open(sys.argv[2])) if r["Cause"] == "all"]
cp = job["critical_path"]
assert cp["known"] == 1 and cp["jumps"] == 1, cp
assert str(cp["length"]) == rows[0]["Time (ns)"], (cp, rows[0])
want = {int(r["Rank"]): (int(r["Time (ns)"]), int(r["Entered"])) for r in rows[1:]}
got = {r["rank"]: (r["critical"], r["critical_entered"]) for r in job["ranks"]}
assert got == want, (got, want)
top = cp["top"]
assert top[0] == {"rank": 2, "cause": "gpu_compute", "op": "mm", "ns": 15 * 700000}, top[0]
assert all(a["ns"] >= b["ns"] for a, b in zip(top, top[1:])), top
# the job's findings, as advise DIR gives them (t1782 compares them):
# rank 2 the straggler among the ranks' findings judged in the job
adv = [a for a in job["advice"] if a["kind"] == "straggler"]
assert len(adv) == 1 and adv[0]["title"].startswith("rank 2 is the straggler"), job["advice"]
assert "runs 97.8% on rank 2" in adv[0]["evidence"], adv[0]["evidence"]
PY
