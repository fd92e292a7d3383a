# gpuprof comm on bad input: no FILE or a bad option is a usage error (2);
# a missing file (3) or a corrupt one (4) among good ones stops with a
# message naming that file, and writes no rows; a file with no collective
# gives an empty table, not an error.
run_ok "$GEN" --format kineto --ranks 2 -o "$TMP/job"
expect_exit 2 "$GPUPROF" comm
assert_grep "expected a trace file, a directory or a glob" "$TMP/err"
expect_exit 2 "$GPUPROF" comm --view nope "$TMP/job/rank-0.json"
assert_grep "wants ranks, kinds, calls, advise, a2a, nodes or waits" "$TMP/err"
expect_exit 3 "$GPUPROF" comm "$TMP/job/rank-0.json" "$TMP/job/missing.json"
assert_grep "missing.json" "$TMP/err"
assert_eq "$(wc -c <"$TMP/out")" 0 "output after an error"
head -c 3000 "$TMP/job/rank-1.json" >"$TMP/cut.json"
expect_exit 4 "$GPUPROF" comm -f csv "$TMP/job/rank-0.json" "$TMP/cut.json"
assert_grep "cut.json" "$TMP/err"
assert_eq "$(wc -c <"$TMP/out")" 0 "output after an error"
printf 'not a trace\n' >"$TMP/text.json"
expect_exit 4 "$GPUPROF" comm "$TMP/text.json" "$TMP/job/rank-0.json"
assert_grep "text.json" "$TMP/err"
# a trace without collectives: every view runs, no rows
run_ok "$GEN" --format kineto -n 100 --streams 1 -o "$TMP/plain.json"
for v in kinds calls advise nodes; do
	run_ok "$GPUPROF" comm -V "$v" -f csv --no-header "$TMP/plain.json"
	assert_eq "$(wc -c <"$TMP/out")" 0 "$v rows without collectives"
done
run_ok "$GPUPROF" comm -f csv --no-header "$TMP/plain.json"
assert_grep '^"0",".*plain.json","0","0","0"' "$TMP/out"
# two files saying the same rank: a note, and both are kept
run_ok "$GPUPROF" comm -f tsv --no-header "$TMP/job/rank-0.json" "$TMP/job/rank-0.json"
assert_grep "note: .*rank 0 also given by file" "$TMP/err"
assert_eq "$(wc -l <"$TMP/out")" 2 "rows for two files of one rank"
