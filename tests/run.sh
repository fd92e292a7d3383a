#!/bin/sh
# Runs every test: unit binaries (cmocka), libgpuprof's tests, the Python
# binding tests, CLI tests (tests/cli/t*.sh) and the fuzz targets replayed
# over their corpus.  Prints one line per test, in this order, and ends with
# "N passed, N failed, N skipped".  A test exits 0 (pass), 77 (skip:
# something it needs is missing, the reason on a "SKIP: " line) or anything
# else (fail).  Every test source must have its binary built: one that is
# not is a failure, not a silent omission.  Under CI=true, skips that hide
# missing testdata fail (need_testdata in tests/lib.sh, tests/run-unit.sh).
#
# Tests run TEST_JOBS at a time (default: one per CPU) through
# tests/run-one.sh; each has its own log and scratch directory
# (build/test-out/), so they share nothing but the build.  The end lists
# the slowest tests with their wall times (build/test-out/times.tsv has
# them all) before the summary line.
#
# Tiers: a test whose source has a "tier: slow" line in its first five
# lines (`# tier: slow` in a CLI test) is in the slow tier, run only with
# SLOW=1 (`make check-all`, `make check SLOW=1`); `make check` runs the
# fast tier and says how many slow tests it left out.  Every test is in
# exactly one tier; .ci/run runs both.
GPUPROF=${GPUPROF:-build/gpuprof}
BUILD=${BUILD:-build}
TOP=$(cd "$(dirname "$0")/.." && pwd)
GPUPROF=$(cd "$(dirname "$GPUPROF")" && pwd)/$(basename "$GPUPROF")
GEN=$TOP/$BUILD/gpuprof-gen
TESTDATA=${TESTDATA:-$TOP/../shared/testdata}
[ -d "$TESTDATA" ] || TESTDATA=""
OUTDIR=$TOP/build/test-out
export GPUPROF GEN BUILD TESTDATA OUTDIR TOP
# the tests' outputs never depend on the ops files of whoever runs them
# (~/.config/gpuprof/ops.d/): t0613 sets its own
GPUPROF_OPS=
export GPUPROF_OPS
# The sanitizer runtime of GCC <= 13 takes some dynamic TLS blocks for
# pre-2.25 glibc ones (its __tls_get_addr interceptor) and LeakSanitizer's
# tracer then dies at exit ("Tracer caught signal 11", exit 1, no leak):
# a flake of programs that dlopen a library with __thread data, as NVTX
# does with the collector's libgpuprof-inject.so (t1510 failed so in CI).
case $BUILD in *asan*)
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}intercept_tls_get_addr=0
	export ASAN_OPTIONS ;;
esac
jobs=${TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
rm -rf "$OUTDIR"; mkdir -p "$OUTDIR"
# The tests' python3 is the system's (/usr/bin/python3, the one
# install-deps.sh gives python3-pandas), ahead of a version manager's shim
# on PATH: pyenv's runs about ten shell processes per call, and the tests
# call python3 hundreds of times.
if [ -x /usr/bin/python3 ]; then
	mkdir -p "$OUTDIR/bin" && ln -s /usr/bin/python3 "$OUTDIR/bin/python3"
	PATH=$OUTDIR/bin:$PATH; export PATH
fi
# The last run's wall times (build/test-times.tsv), to start the longest
# tests first: a long test started last would run alone at the end.
times_prev=$TOP/$BUILD/test-times.tsv

# The tests, as "KIND NAME" lines, named from their sources.
list=$OUTDIR/tests.list
{
	for s in "$TOP"/tests/unit/test_*.c; do echo "unit $(basename "$s" .c)"; done
	for s in "$TOP"/tests/lib/test_*.c; do echo "lib $(basename "$s" .c)"; done
	for s in "$TOP"/tests/python/test_*.py; do echo "python $(basename "$s" .py)"; done
	for s in "$TOP"/tests/cli/t*.sh; do echo "cli $(basename "$s" .sh)"; done
	for s in "$TOP"/tests/fuzz/fuzz_*.c; do echo "fuzz $(basename "$s" .c)"; done
} | grep -v '\*' >"$OUTDIR/all.list"

# test_source KIND NAME: the test's source file, where its tier is written.
test_source() {
	case $1 in
	unit) echo "$TOP/tests/unit/$2.c" ;; lib) echo "$TOP/tests/lib/$2.c" ;;
	python) echo "$TOP/tests/python/$2.py" ;; cli) echo "$TOP/tests/cli/$2.sh" ;;
	fuzz) echo "$TOP/tests/fuzz/$2.c" ;;
	esac
}
slown=0
while read -r kind n; do
	if [ "${SLOW:-0}" != 1 ] && head -5 "$(test_source "$kind" "$n")" | grep -q 'tier: slow'; then
		slown=$((slown+1))
	else
		echo "$kind $n"
	fi
done <"$OUTDIR/all.list" >"$list"

# longest first by the last run's times (unknown ones first: they may be long)
if [ -s "$times_prev" ]; then
	awk -F'\t' 'NR == FNR { split($2, a, "/"); ms[a[1] " " a[2]] = $1; next }
		{ print ($0 in ms ? ms[$0] : 999999999) "\t" $0 }' "$times_prev" "$list" |
		sort -k1,1 -rn | cut -f2 >"$list.order"
else
	cp "$list" "$list.order"
fi
xargs -P "$jobs" -L 1 "$TOP/tests/run-one.sh" <"$list.order"

pass=0 failn=0 skipn=0 failed=""
while read -r kind n; do
	log=$OUTDIR/$kind-$n.log
	rc=$(cat "$OUTDIR/$kind-$n.rc" 2>/dev/null || echo 1)
	case $rc in
	0) pass=$((pass+1)); echo "PASS  $kind/$n" ;;
	77) skipn=$((skipn+1)); echo "SKIP  $kind/$n: $(grep -h '^SKIP' "$log" | head -1 | sed 's/^SKIP: //')" ;;
	*) failn=$((failn+1)); failed="$failed $kind/$n"; echo "FAIL  $kind/$n"; sed 's/^/      /' "$log" | tail -30 ;;
	esac
done <"$list"

# the wall times, slowest first; their sum over the jobs is about what the
# run took
while read -r kind n; do
	printf '%s\t%s/%s\n' "$(cat "$OUTDIR/$kind-$n.ms" 2>/dev/null || echo 0)" "$kind" "$n"
done <"$list" | sort -rn >"$OUTDIR/times.tsv"
# kept for the next run's order (a fast-tier run keeps the slow tier's times)
touch "$times_prev"
awk -F'\t' 'NR == FNR { seen[$2] = 1; print; next } !($2 in seen)' "$OUTDIR/times.tsv" "$times_prev" >"$times_prev.tmp" &&
	mv "$times_prev.tmp" "$times_prev"
echo
echo "slowest (seconds; all in $OUTDIR/times.tsv):"
head -10 "$OUTDIR/times.tsv" | awk -F'\t' '{ printf "  %7.1f  %s\n", $1 / 1000, $2 }'
awk -F'\t' -v j="$jobs" '{ t += $1 } END { printf "  %7.1f  in all, over %d jobs at once\n", t / 1000, j }' "$OUTDIR/times.tsv"
[ "$slown" = 0 ] || echo "not run: $slown tests of the slow tier (make check-all, or SLOW=1, runs them)"
[ -n "$failed" ] && echo "failed:$failed"
echo "$pass passed, $failn failed, $skipn skipped"
[ "$failn" = 0 ]
