# tier: slow (36 s in make check before the tiers, on the busy 2-core machine)
# Each rank's rows of a run over several files are the rows of that file
# analysed alone, with its rank in front, ranks in order (issue 12 item
# 3), on the shared multi-rank traces and on generated ones; -j does not
# change the output.  Ranks come from the metadata (Kineto distributedInfo),
# else the file name, else the position; duplicates and missing ranks get a
# note.
need_testdata
H=$TESTDATA/hta
# expect_ranks OUT RANK:FILE...: OUT must be the files' single-file rows
# (csv, header left out) each prefixed with its rank, in the given order
expect_ranks() {
	out=$1; shift
	: >"$TMP/want"
	for rf in "$@"; do
		"$GPUPROF" $CMD -f csv "${rf#*:}" 2>/dev/null | sed "1d; s/^/\"${rf%%:*}\",/" >>"$TMP/want" ||
			fail "$CMD ${rf#*:} alone failed"
	done
	cmp -s "$out" "$TMP/want" || { diff "$out" "$TMP/want" | head >&2; fail "$CMD: rows differ from the files alone ($*)"; }
}
for CMD in summary ranges "breakdown" "breakdown --view streams" "breakdown --as hta" "breakdown --as hta-idle" \
	   "breakdown --as tracelens"; do
	# metadata ranks 0 and 1, given in reverse
	run_ok "$GPUPROF" $CMD -f csv --no-header "$H/trace_filter/sampled_rank-1.json.gz" "$H/trace_filter/sampled_rank-0.json.gz"
	cp "$TMP/out" "$TMP/got"
	expect_ranks "$TMP/got" 0:"$H/trace_filter/sampled_rank-0.json.gz" 1:"$H/trace_filter/sampled_rank-1.json.gz"
	# ranks 1 (of 2) and 3 (of 8): ranks 0, 2 and 4-7 have no file
	run_ok "$GPUPROF" $CMD -f csv --no-header -j 1 "$H/trace_diff"/*/*.json.gz
	cp "$TMP/out" "$TMP/got"
	expect_ranks "$TMP/got" 1:"$H/trace_diff/test/test.json.gz" 3:"$H/trace_diff/control/control.json.gz"
done
assert_grep "^gpuprof breakdown: note: rank 0 of world size 8 has no file$" "$TMP/err"
assert_grep "^gpuprof breakdown: note: rank 2 of world size 8 has no file$" "$TMP/err"
assert_grep "^gpuprof breakdown: note: ranks 4-7 have no file$" "$TMP/err"
# both files of trace_compare say rank 1: kept in argument order, noted
CMD=summary
run_ok "$GPUPROF" summary -f csv --no-header "$H/trace_compare/base/base.json.gz" "$H/trace_compare/test/test.json.gz"
cp "$TMP/out" "$TMP/got"
expect_ranks "$TMP/got" 1:"$H/trace_compare/base/base.json.gz" 1:"$H/trace_compare/test/test.json.gz"
assert_grep "^gpuprof summary: note: $H/trace_compare/test/test.json.gz: rank 1 also given by file 1" "$TMP/err"
# advise: a job's findings are judged in the job (issue 33 item 4): the
# straggler, and each kind the ranks share as one finding "ranks A-B:
# ..." under rank "all", its involved time the sum of what each rank's
# file alone says for that kind; json too.  Ranked by what each saves the
# job on the replay across ranks: both ranks' annotation time gone saves
# this job more than rank 1 on time (each rank's own replay keeps the
# waits it recorded; in the job both arrive earlier), so the straggler
# is no longer always first.
CMD=advise
run_ok "$GPUPROF" advise -f csv "$H/trace_filter/sampled_rank-0.json.gz" "$H/trace_filter/sampled_rank-1.json.gz"
cp "$TMP/out" "$TMP/job.csv"
for r in 0 1; do
	run_ok "$GPUPROF" advise -f csv "$H/trace_filter/sampled_rank-$r.json.gz"
	cp "$TMP/out" "$TMP/alone$r.csv"
done
python3 - "$TMP/job.csv" "$TMP/alone0.csv" "$TMP/alone1.csv" <<'PY' || fail "advise: the job's rows against the files alone"
import csv, re, sys
job = list(csv.DictReader(open(sys.argv[1])))
alone = [{r["Kind"]: r for r in csv.DictReader(open(f))} for f in sys.argv[2:]]
assert all(r["Rank"] == "all" for r in job), job
assert [r["Kind"] for r in job].count("straggler") == 1, job
merged = 0
for r in job:
    m = re.match(r"ranks? (\d+)(?:-(\d+))?: ", r["Finding"])
    if not m:
        continue
    lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
    want = sum(int(alone[k][r["Kind"]]["Involved (ns)"]) for k in range(lo, hi + 1))
    assert r["Rank"] == "all" and int(r["Involved (ns)"]) == want, (r, want)
    merged += 1
assert merged >= 2, job
PY
run_ok "$GPUPROF" advise -f json "$H/trace_filter"
python3 - "$TMP/out" <<'PY' || fail "advise json"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
# the job's rows (rank null): rank 1 is the straggler by arrival (t1231
# checks the arrivals), with the findings judged in the job
s = [r for r in rows if r["kind"] == "straggler"]
assert len(s) == 1 and all(r["rank"] is None for r in rows), rows
assert s[0]["title"].startswith("rank 1 is the straggler"), s[0]
assert any(r["title"].startswith("ranks 0-1: ") for r in rows), rows
assert all(isinstance(r["position"], int) for r in rows)
PY
# names: rank-3, rank_12 and the position when nothing says
G=$TMP/g; mkdir "$G"
"$GEN" --format nsys -n 200 --seed 3 -o "$G/a.sqlite" >/dev/null || fail gen
"$GEN" --format kineto -n 200 --seed 4 -o "$G/b.json" >/dev/null || fail gen
cp "$G/a.sqlite" "$G/job-rank3.sqlite"; cp "$G/b.json" "$G/job_rank_12.json"
cp "$G/b.json" "$G/trace_7.json"; cp "$G/a.sqlite" "$G/x.sqlite"
run_ok "$GPUPROF" ranks -f csv "$G/job-rank3.sqlite" "$G/job_rank_12.json" "$G/trace_7.json" "$G/x.sqlite"
# (a number without "rank" is no rank: trace_7.json is ranked by its position, 2)
assert_eq "$(cut -d, -f1,2 "$TMP/out" | tr -d '"' | tr '\n' ' ')" "Rank,From 2,order 3,file name 3,order 12,file name "
assert_grep "^gpuprof ranks: note: $G/x.sqlite: rank 3 also given by file 1" "$TMP/err"
assert_grep "^gpuprof ranks: note: 2 file\(s\) say no rank in their metadata or name: ranked by position$" "$TMP/err"
# -j 1 and -j 4 and the default give the same bytes
for j in 1 4; do
	run_ok "$GPUPROF" breakdown -j $j -f csv "$G"
	cp "$TMP/out" "$TMP/j$j"
done
run_ok "$GPUPROF" breakdown -f csv "$G"
cmp -s "$TMP/out" "$TMP/j1" && cmp -s "$TMP/out" "$TMP/j4" || fail "-j changed the output"
# an nsys export says its rank by an NVTX mark "rank N" (it keeps no
# environment): that is its metadata rank, before its name's
cp "$G/a.sqlite" "$TMP/job_rank-2.sqlite"
sqlite3 "$TMP/job_rank-2.sqlite" "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid)
	SELECT min(start), NULL, 34, 'rank 6', globalTid FROM NVTX_EVENTS" || fail sqlite3
run_ok "$GPUPROF" ranks -f csv "$TMP/job_rank-2.sqlite" "$G/job-rank3.sqlite"
assert_eq "$(cut -d, -f1,2 "$TMP/out" | tr -d '"' | tr '\n' ' ')" "Rank,From 3,file name 6,metadata "
