#!/bin/sh
# run-one.sh KIND NAME: runs one test of tests/run.sh (KIND unit, lib,
# python, cli or fuzz) with its output in $OUTDIR/KIND-NAME.log, its
# exit status (0 pass, 77 skip, else fail) in $OUTDIR/KIND-NAME.rc and its
# wall time in whole milliseconds in $OUTDIR/KIND-NAME.ms (run.sh lists
# the slowest).  The environment is run.sh's (GPUPROF, GEN, BUILD,
# TESTDATA, OUTDIR, TOP).
kind=$1 n=$2
log=$OUTDIR/$kind-$n.log
cd "$TOP" || exit 1
start_ms=$(date +%s%3N)

# built BIN: true if BIN was built, else the test fails saying so (a test
# source without its binary is a failure, not a silent omission).
built() {
	[ -x "$1" ] && return 0
	echo "FAIL: $1 was not built (make check builds it)" >"$log"
	return 1
}

case $kind in
unit)
	t=$BUILD/tests/$n
	if built "$t"; then tests/run-unit.sh "$t" >"$log" 2>&1; else false; fi ;;
lib)
	t=$BUILD/tests/lib/$n
	if built "$t"; then "$t" >"$log" 2>&1; else false; fi ;;
python)
	# an ASan-built library needs the ASan runtime preloaded into python3
	pypre=""
	case $BUILD in *asan*) pypre=$(${CC:-cc} -print-file-name=libasan.so) ;; esac
	GPUPROF_LIB=$TOP/$BUILD/libgpuprof.so PYTHONPATH=$TOP/python LD_PRELOAD=$pypre \
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 python3 "tests/python/$n.py" >"$log" 2>&1 ;;
cli)
	TMP=$OUTDIR/$n.tmp; rm -rf "$TMP"; mkdir -p "$TMP"; export TMP
	(. tests/lib.sh && . "tests/cli/$n.sh") >"$log" 2>&1 ;;
fuzz)
	t=$BUILD/tests/${n}_replay
	if built "$t"; then "$t" "tests/fuzz/corpus/${n#fuzz_}" >"$log" 2>&1; else false; fi ;;
*)
	echo "run-one.sh: unknown kind $kind" >"$log"; false ;;
esac
rc=$?
echo $(( $(date +%s%3N) - start_ms )) >"$OUTDIR/$kind-$n.ms"
echo $rc >"$OUTDIR/$kind-$n.rc"
