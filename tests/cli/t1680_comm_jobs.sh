# gpuprof comm reads its files on gp_cli_run's threads (src/cmds/multi.c):
# every view in every format is the same bytes with -j 1, 2 and 4 and
# whatever the order of the FILE arguments; under mpirun (the MPI build)
# with 1 and 3 processes too.  Files that fail are all named, after every
# file is read, with the first one's exit code and no rows.
run_ok "$GEN" --format kineto --ranks 4 --slow-rank 2 --delay-us 300 --iters 6 -o "$TMP/job"
J=$TMP/job
for v in ranks kinds calls advise; do
	for f in table csv json; do
		run_ok "$GPUPROF" comm -V "$v" -f "$f" -j 1 "$J"/rank-0.json "$J"/rank-1.json "$J"/rank-2.json "$J"/rank-3.json
		cp "$TMP/out" "$TMP/want"
		[ -s "$TMP/want" ] || fail "comm -V $v -f $f wrote nothing"
		for j in 2 4; do
			run_ok "$GPUPROF" comm -V "$v" -f "$f" -j "$j" "$J"/rank-3.json "$J"/rank-1.json "$J"/rank-0.json "$J"/rank-2.json
			cmp -s "$TMP/out" "$TMP/want" || { diff "$TMP/out" "$TMP/want" | head >&2; fail "comm -V $v -f $f -j $j differs from -j 1"; }
		done
	done
done
# the straggler is found whatever -j
run_ok "$GPUPROF" comm -V advise -f csv --no-header -j 2 "$J"
assert_grep '^"straggler",.*rank 2 ' "$TMP/out"
# two failing files: both named, the first one's code, nothing written
head -c 3000 "$J/rank-1.json" >"$TMP/cut.json"
expect_exit 3 "$GPUPROF" comm -j 2 "$J/rank-0.json" "$TMP/missing.json" "$TMP/cut.json"
assert_grep "missing.json: cannot open" "$TMP/err"
assert_grep "cut.json" "$TMP/err"
assert_eq "$(wc -c <"$TMP/out")" 0 "output after an error"
MPIGP=$BUILD/mpi/gpuprof
if command -v mpirun >/dev/null 2>&1 && [ -x "$MPIGP" ]; then
	run_ok "$GPUPROF" comm -V calls -f csv "$J"
	cp "$TMP/out" "$TMP/want"
	for np in 1 3; do
		run_ok timeout 300 mpirun --oversubscribe --allow-run-as-root -n "$np" "$MPIGP" comm -V calls -f csv "$J"
		cmp -s "$TMP/out" "$TMP/want" || fail "comm under mpirun -n $np differs"
	done
fi
