# tier: slow (53 s in make check before the tiers, on the busy 2-core machine)
# The MPI build (issue 12 item 6; make check builds build/mpi/gpuprof when
# OpenMPI is installed): mpirun -n 1, 2 and 4 give the output of the
# single-process run, for breakdown, ranks, summary and advise (the ranks'
# records travel with their collectives) over a directory of ranks; a
# missing and a corrupt file on some processes give their errors,
# by name, and every process ends (no hang: the run is bounded by timeout).
MPIGP=$TOP/build/mpi/gpuprof
if ! command -v mpirun >/dev/null 2>&1 || [ ! -x "$MPIGP" ]; then
	[ "${CI:-}" = true ] && fail "OpenMPI or build/mpi/gpuprof missing (required under CI; scripts/install-deps.sh)"
	skip "no OpenMPI (scripts/install-deps.sh installs it) or build/mpi/gpuprof not built"
fi
mpi() { # NP ARGS...: the MPI build under mpirun with NP processes
	np=$1; shift
	timeout 300 mpirun --oversubscribe --allow-run-as-root -n "$np" "$MPIGP" "$@"
}
D=$TMP/job; mkdir "$D"
for r in 0 1 2 3 4; do
	"$GEN" --format kineto -n 400 --seed $((r + 1)) -o "$D/rank$r.json" >/dev/null || fail gen
done
"$GEN" --format nsys -n 300 --seed 9 -o "$D/rank5.sqlite" >/dev/null || fail gen
for args in "breakdown -f csv" "breakdown --view streams" "ranks -f json" "ranks --view steps" "summary -f tsv" \
	"advise -f csv"; do
	run_ok "$GPUPROF" $args "$D"
	cp "$TMP/out" "$TMP/single"
	for np in 1 2 4; do
		run_ok mpi $np $args "$D"
		cmp -s "$TMP/out" "$TMP/single" || { diff "$TMP/out" "$TMP/single" | head >&2; fail "mpirun -n $np $args differs"; }
	done
done
# one file: its own output, no rank column
run_ok "$GPUPROF" breakdown "$D/rank0.json"
cp "$TMP/out" "$TMP/single"
run_ok mpi 2 breakdown "$D/rank0.json"
cmp -s "$TMP/out" "$TMP/single" || fail "mpirun -n 2 on one file differs"
# a missing file (process 2 of 4 reads it) and a corrupt one (process 3)
printf '{"traceEvents": [{"ph": "X", "ts": ' >"$TMP/rank7.json"
expect_exit 3 mpi 4 ranks "$D/rank0.json" "$D/rank1.json" "$TMP/rank6.json" "$TMP/rank7.json"
assert_grep "^gpuprof: $TMP/rank6.json: cannot open: No such file or directory$" "$TMP/err"
assert_grep "^gpuprof: $TMP/rank7.json: " "$TMP/err"
[ ! -s "$TMP/out" ] || fail "output written although files failed"
