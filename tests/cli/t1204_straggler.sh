# tier: slow (56 s in make check before the tiers, on the busy 2-core machine)
# The straggler is the rank the others wait for at collectives (issue 22
# part 5), one answer in advise, ranks, comm, html and diff --by rank.
# 1. A generated 4-rank job, rank 2 late: gpuprof-gen --ranks 4
#    --slow-rank 2 --delay-us 300 runs rank 2's GEMMs 300 us longer, so it
#    arrives last at each of the 15 collectives (5 iterations x 3) by 300
#    us and each of the 3 others waits that long: 13.5 ms of waiting in
#    all, caused by rank 2, which is 4.5 ms late in all.  Every command
#    names rank 2, and its waits are those tests/tools/coll_oracle.py --job
#    computes from the raw JSON.  advise's finding saves 4.5 ms (the
#    what-if: rank 2 on time), and --what-if rank:2=on-time predicts the
#    job the generator writes without the slow rank: its GPU span and
#    median step to the nanosecond, nobody waiting.
# 2. The same as nsys exports (no rank metadata: ranks by file name; no
#    collective args: calls match by position), 3 ranks, rank 1 40 us late.
# 3. No collectives: ranks whose steps differ (rank 2 stretched by 1.25)
#    but that share no collective: no straggler anywhere, a notice from
#    advise that the traces cannot tell (a slow step is no straggler).
# 4. hta/trace_filter, two ranks of a real 128-rank job: every command
#    names rank 1 (last at 7 of the 10 collectives matched), the waits as
#    the oracle computes them.
command -v python3 >/dev/null || skip "python3 not installed"
O=$TOP/tests/tools/coll_oracle.py

# same_straggler DIR RANK CALLS FILE...: every command names rank RANK of
# the job in DIR (FILE...: its files in rank order, for the oracle when
# Kineto; "-" skips the oracle), at CALLS collectives matched on every rank
same_straggler() {
	# (not "want": expect_exit's)
	dir=$1 sr=$2 calls=$3; shift 3
	# ranks: the role on RANK alone, Waited/Caused/Last as the oracle's
	run_ok "$GPUPROF" ranks -f csv "$dir"
	cp "$TMP/out" "$TMP/ranks.csv"
	assert_eq "$(awk -F, '{ gsub(/"/, "") } NR > 1 && $15 != "" { print $1, $15 }' "$TMP/ranks.csv")" \
		"$sr straggler" "ranks: the straggler of $dir"
	# comm: the same rank
	run_ok "$GPUPROF" comm -f tsv --no-header "$dir"
	cp "$TMP/out" "$TMP/comm.tsv"
	assert_eq "$(awk -F'\t' '$11 != "" { print $1, $11 }' "$TMP/comm.tsv")" "$sr straggler" \
		"comm: the straggler of $dir"
	# ranks and comm agree on every rank's wait, caused wait and times last
	assert_eq "$(awk -F, '{ gsub(/"/, "") } NR > 1 { print $1, $12, $13, $14 }' "$TMP/ranks.csv")" \
		"$(awk -F'\t' '{ print $1, $6, $7, $5 }' "$TMP/comm.tsv")" "ranks and comm: waits of $dir"
	if [ "$1" != - ]; then
		python3 "$O" --job "$@" >"$TMP/oracle" || fail "oracle"
		assert_eq "$(awk '$1 ~ /^[0-9]+$/ { print $1, $5, $6, $4 }' "$TMP/oracle")" \
			"$(awk -F'\t' '{ print $1, $6, $7, $5 }' "$TMP/comm.tsv")" "comm and the oracle: waits of $dir"
		assert_grep "^straggler $sr$" "$TMP/oracle"
		assert_grep "^calls $calls$" "$TMP/oracle"
	fi
	# advise: the job's finding, naming the rank (ranked by what it saves
	# the job on the replay across ranks: first where the late rank is
	# what the job waits for most; the nsys job's launch latency on every
	# rank saves it more, 1.3 ms against 600 us)
	run_ok "$GPUPROF" advise -f csv "$dir"
	assert_grep "^\"all\",\"[0-9]+\",\"straggler\",.*,\"rank $sr is the straggler: the others waited [^\"]* for it at [0-9]+ of $calls collectives\"" "$TMP/out"
	assert_eq "$(grep -c '"straggler' "$TMP/out")" 1 "advise: one straggler finding"
	# html: the job's straggler and the role
	run_ok "$GPUPROF" html -o "$TMP/job.html" --force "$dir"
	python3 - "$TMP/job.html" "$sr" "$TMP/ranks.csv" "$TOP/tests/tools" <<'PY' || fail "html: the straggler of $dir"
import csv, sys
sys.path.insert(0, sys.argv[4])
from html_job_oracle import page_data
job = page_data(sys.argv[1])["job"]
want = int(sys.argv[2])
assert job["straggler"] == want, job["straggler"]
ranks = list(csv.DictReader(open(sys.argv[3])))
for r, x in zip(job["ranks"], ranks):
    assert r["role"] == ("straggler" if r["rank"] == want else ""), r
    assert (r["wait"], r["caused"], r["times_last"]) == (int(x["Waited (ns)"]), int(x["Caused (ns)"]), int(x["Last"])), (r, x)
PY
	# diff --by rank: the same rank in both runs (a run against itself)
	run_ok "$GPUPROF" diff --by rank -n 1 "$dir" "$dir"
	assert_grep "^gpuprof diff: note: BASE: rank $sr is the straggler: .* at [0-9]+ of $calls collectives" "$TMP/err"
	assert_grep "^gpuprof diff: note: TEST: rank $sr is the straggler: " "$TMP/err"
}

# 1. generated Kineto ranks, rank 2 late; its clock 2 x 1.5 ms ahead
run_ok "$GEN" --format kineto --ranks 4 --slow-rank 2 --delay-us 300 --clock-skew-us 1500 -o "$TMP/slow"
run_ok "$GEN" --format kineto --ranks 4 --clock-skew-us 1500 -o "$TMP/even"
same_straggler "$TMP/slow" 2 15 "$TMP"/slow/rank-0.json "$TMP"/slow/rank-1.json "$TMP"/slow/rank-2.json \
	"$TMP"/slow/rank-3.json
# the generator's truth: 3 x 15 x 300 us waited, all of it for rank 2
assert_eq "$(awk -F'\t' '{ print $1, $5, $6, $7 }' "$TMP/comm.tsv" | tr '\n' ' ')" \
	"0 0 4500000 0 1 0 4500000 0 2 15 0 13500000 3 0 4500000 0 " "the generator's waits"
# rank 2 computes 15 x 300 us more: a fact beside the finding, not its test
assert_eq "$(awk -F, '{ gsub(/"/, "") } NR > 1 { print $1, $8 }' "$TMP/ranks.csv" | tr '\n' ' ')" \
	"0 6000000 1 6000000 2 10500000 3 6000000 " "compute per rank"
# advise's finding: saves rank 2's lateness, 4.5 ms (900 us a step), of
# 13.5 ms of waiting it caused, at 15 calls
run_ok "$GPUPROF" advise -f json "$TMP/slow"
python3 - "$TMP/out" <<'PY' || fail "advise's straggler finding"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
s = rows[0]
assert s["rank"] is None and s["kind"] == "straggler", s
assert (s["saving_ns"], s["alone_ns"], s["per_step_ns"], s["involved_ns"], s["count"]) == \
    (4500000, 4500000, 900000, 13500000, 15), s
assert "its compute 10.500 ms vs 6.000 ms" in s["evidence"], s["evidence"]
# then the ranks' findings judged in the job, one per kind: a kind on
# several ranks is the job's ("ranks 0-3: ..."), on one a rank's
assert all(r["kind"] != "straggler" and (r["rank"] is not None or r["title"].startswith("ranks "))
           for r in rows[1:]), rows[1:]
kinds = [r["kind"] for r in rows[1:]]
assert len(kinds) == len(set(kinds)), kinds
PY
# text: the job's block, the ranks' findings merged into it
run_ok "$GPUPROF" advise "$TMP/slow"
assert_grep '^Across 4 ranks: the job.s GPU span 22\.904 ms' "$TMP/out"
assert_grep '^ 1\. rank 2 is the straggler: the others waited 13\.500 ms for it at 15 of 15 collectives$' "$TMP/out"
assert_grep '^     saves:    about 4\.500 ms \(19\.6% of the job.s GPU span; 900\.000 us per step\)  \[straggler\]$' "$TMP/out"
assert_grep '^ 2\. ranks 0-3: ' "$TMP/out"
# on_time SLOW EVEN R LATE: --what-if rank:R=on-time on the job SLOW
# predicts the job EVEN the generator writes without the late rank, to the
# ns: its GPU span, median step and no waiting; the span saves LATE
on_time() {
	run_ok "$GPUPROF" advise --what-if "rank:$3=on-time" -f csv "$1"
	cp "$TMP/out" "$TMP/pred"
	run_ok "$GPUPROF" advise --what-if "rank:$3=on-time" -f csv "$2"
	assert_grep "rank $3 arrived last at none of the 15 collectives" "$TMP/err"
	python3 - "$TMP/pred" "$TMP/out" "$4" <<'PY' || fail "rank:$3=on-time against the job without the late rank"
import csv, sys
pred = {r[1]: r for r in csv.reader(open(sys.argv[1]))}
real = {r[1]: r for r in csv.reader(open(sys.argv[2]))}
for m in ("gpu_span", "median_step", "collective_wait"):
    assert pred[m][3] == real[m][2] == real[m][3], (m, pred[m], real[m])
assert pred["gpu_span"][4] == sys.argv[3] and pred["collective_wait"][3] == "0", pred
PY
}
on_time "$TMP/slow" "$TMP/even" 2 4500000
# the even job: nobody waits, no straggler anywhere
run_ok "$GPUPROF" ranks -f csv "$TMP/even"
assert_no_grep '"straggler",' "$TMP/out"
run_ok "$GPUPROF" advise -f csv "$TMP/even"
assert_no_grep '"straggler' "$TMP/out"
# what-if errors: a rank that is no file, with other changes, one file
expect_exit 2 "$GPUPROF" advise --what-if rank:9=on-time "$TMP/slow"
assert_grep 'no rank 9 among the 4 files' "$TMP/err"
expect_exit 2 "$GPUPROF" advise --what-if rank:2=on-time --what-if op:mm=2x "$TMP/slow"
assert_grep 'give it alone' "$TMP/err"
expect_exit 2 "$GPUPROF" advise --what-if rank:2=on-time "$TMP/slow/rank-2.json"
assert_grep 'needs the rank files of one job' "$TMP/err"
expect_exit 2 "$GPUPROF" advise --what-if rank:2=late "$TMP/slow"
assert_grep 'a rank can only be on-time' "$TMP/err"

# 2. nsys rank files: ranks by file name, calls by position, the same answer
run_ok "$GEN" --format nsys --ranks 3 --slow-rank 1 --delay-us 40 --clock-skew-us 7 -o "$TMP/nsys"
same_straggler "$TMP/nsys" 1 15 -
assert_eq "$(awk -F'\t' '{ print $1, $5, $6, $7 }' "$TMP/comm.tsv" | tr '\n' ' ')" \
	"0 0 600000 0 1 15 0 1200000 2 0 600000 0 " "nsys: the generator's waits"
run_ok "$GEN" --format nsys --ranks 3 --clock-skew-us 7 -o "$TMP/nsys-even"
on_time "$TMP/nsys" "$TMP/nsys-even" 1 600000

# 3. no collectives (one stream: no all-reduce), rank 2's steps 25% longer
D=$TMP/nocoll; mkdir "$D"
for r in 0 1 3; do
	"$GEN" --format kineto -k 1 -n 1500 --seed $((r + 1)) -o "$D/rank$r.json" >/dev/null || fail gen
done
"$GEN" --format kineto -k 1 -n 1500 --seed 3 -o "$TMP/r2.json" >/dev/null || fail gen
python3 "$TOP/tests/tools/stretch_kineto.py" "$TMP/r2.json" "$D/rank2.json" || fail "stretching rank 2"
run_ok "$GPUPROF" ranks -f csv "$D"
assert_no_grep '"straggler",' "$TMP/out"
assert_eq "$(awk -F, '{ gsub(/"/, "") } NR > 1 { print $12 $13 $14 }' "$TMP/out" | sort -u)" "---" "no waits known (-)"
run_ok "$GPUPROF" advise -f json "$D"
python3 - "$TMP/out" <<'PY' || fail "advise without collectives"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
s = rows[0]
assert s["rank"] is None and s["kind"] == "straggler-unknown" and s["saving_ns"] is None, s
assert "rank 2 the slowest" in s["title"] and "cannot be told" in s["title"], s["title"]
assert not any(r["kind"] == "straggler" for r in rows)
PY
run_ok "$GPUPROF" diff --by rank -n 1 "$D" "$D"
assert_no_grep 'is the straggler' "$TMP/err"

# 4. the shared trace_filter ranks: rank 1
need_testdata
H=$TESTDATA/hta/trace_filter
same_straggler "$H" 1 10 "$H/sampled_rank-0.json.gz" "$H/sampled_rank-1.json.gz"
# its saving alone: its lateness, 7 calls, as the oracle sums it (ranked
# second: both ranks' annotation time gone saves the job more, and the
# straggler then adds less than alone)
run_ok "$GPUPROF" advise -f csv "$H"
late=$(awk '$1 == 1 { print $7 }' "$TMP/oracle")
assert_grep "^\"all\",\"[0-9]+\",\"straggler\",\"[0-9]+\",\"[^\"]*\",\"[^\"]*\",\"$late\"," "$TMP/out"
run_ok "$GPUPROF" advise --what-if rank:1=on-time -f csv "$H"
assert_grep "^\"all\",\"gpu_span\",\"[0-9]+\",\"[0-9]+\",\"$late\"," "$TMP/out"
