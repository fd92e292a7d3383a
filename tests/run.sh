#!/bin/sh
# Runs every test: unit binaries (cmocka), libgpuprof's tests, the Python
# binding tests, CLI tests (tests/cli/t*.sh) and the fuzz targets replayed
# over their corpus.  Prints one line per test and ends with "N passed, N
# failed, N skipped".  A test exits 0 (pass), 77 (skip: something it needs
# is missing, the reason on a "SKIP: " line) or anything else (fail).  Every
# test source must have its binary built: one that is not is a failure, not
# a silent omission.  Under CI=true, skips that hide missing testdata fail
# (need_testdata in tests/lib.sh, tests/run-unit.sh).
GPUPROF=${GPUPROF:-build/gpuprof}
BUILD=${BUILD:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
GPUPROF=$(cd "$(dirname "$GPUPROF")" && pwd)/$(basename "$GPUPROF")
GEN=$top/$BUILD/gpuprof-gen
TESTDATA=${TESTDATA:-$top/../shared/testdata}
[ -d "$TESTDATA" ] || TESTDATA=""
export GPUPROF GEN BUILD TESTDATA
pass=0 failn=0 skipn=0 failed=""
outdir=$top/build/test-out
rm -rf "$outdir"; mkdir -p "$outdir"

record() { # name status(0/77/other) log
	case $2 in
	0) pass=$((pass+1)); echo "PASS  $1" ;;
	77) skipn=$((skipn+1)); echo "SKIP  $1: $(grep -h '^SKIP' "$3" | head -1 | sed 's/^SKIP: //')" ;;
	*) failn=$((failn+1)); failed="$failed $1"; echo "FAIL  $1"; sed 's/^/      /' "$3" | tail -30 ;;
	esac
}

# built NAME BIN LOG: true if BIN was built, else records NAME as failed.
built() {
	[ -x "$2" ] && return 0
	echo "FAIL: $2 was not built (make check builds it)" >"$3"
	record "$1" 1 "$3"
	return 1
}

for src in "$top"/tests/unit/test_*.c; do
	n=$(basename "$src" .c); t=$top/$BUILD/tests/$n; log=$outdir/$n.log
	built "unit/$n" "$t" "$log" || continue
	(cd "$top" && tests/run-unit.sh "$t") >"$log" 2>&1; record "unit/$n" $? "$log"
done

# libgpuprof's unit tests (linked with the library, not the analyzer core)
for src in "$top"/tests/lib/test_*.c; do
	n=$(basename "$src" .c); t=$top/$BUILD/tests/lib/$n; log=$outdir/lib-$n.log
	built "lib/$n" "$t" "$log" || continue
	(cd "$top" && "$t") >"$log" 2>&1; record "lib/$n" $? "$log"
done

# Python binding tests over $BUILD/libgpuprof.so (exit 77 = skip); an
# ASan-built library needs the ASan runtime preloaded into python3.
pypre=""
case $BUILD in *asan*) pypre=$(${CC:-cc} -print-file-name=libasan.so) ;; esac
for t in "$top"/tests/python/test_*.py; do
	n=$(basename "$t" .py); log=$outdir/py-$n.log
	(cd "$top" && GPUPROF_LIB=$top/$BUILD/libgpuprof.so PYTHONPATH=$top/python \
		LD_PRELOAD=$pypre ASAN_OPTIONS=detect_leaks=0 python3 "$t") >"$log" 2>&1
	record "python/$n" $? "$log"
done

for t in "$top"/tests/cli/t*.sh; do
	n=$(basename "$t" .sh); log=$outdir/$n.log
	TMP=$outdir/$n.tmp; rm -rf "$TMP"; mkdir -p "$TMP"; export TMP
	(cd "$top" && . tests/lib.sh && . "$t") >"$log" 2>&1; record "cli/$n" $? "$log"
done

for src in "$top"/tests/fuzz/fuzz_*.c; do
	n=$(basename "$src" .c); t=$top/$BUILD/tests/${n}_replay; log=$outdir/$n.log
	built "fuzz/$n" "$t" "$log" || continue
	corpus=$top/tests/fuzz/corpus/${n#fuzz_}
	(cd "$top" && "$t" "$corpus") >"$log" 2>&1; record "fuzz/$n" $? "$log"
done

echo
[ -n "$failed" ] && echo "failed:$failed"
echo "$pass passed, $failn failed, $skipn skipped"
[ "$failn" = 0 ]
