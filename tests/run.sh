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
# (build/test-out/), so they share nothing but the build.
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

# The tests, as "KIND NAME" lines, named from their sources.
list=$OUTDIR/tests.list
{
	for s in "$TOP"/tests/unit/test_*.c; do echo "unit $(basename "$s" .c)"; done
	for s in "$TOP"/tests/lib/test_*.c; do echo "lib $(basename "$s" .c)"; done
	for s in "$TOP"/tests/python/test_*.py; do echo "python $(basename "$s" .py)"; done
	for s in "$TOP"/tests/cli/t*.sh; do echo "cli $(basename "$s" .sh)"; done
	for s in "$TOP"/tests/fuzz/fuzz_*.c; do echo "fuzz $(basename "$s" .c)"; done
} | grep -v '\*' >"$list"

xargs -P "$jobs" -L 1 "$TOP/tests/run-one.sh" <"$list"

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

echo
[ -n "$failed" ] && echo "failed:$failed"
echo "$pass passed, $failn failed, $skipn skipped"
[ "$failn" = 0 ]
