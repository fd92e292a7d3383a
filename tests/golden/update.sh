#!/bin/sh
# update.sh [DIR]: writes the golden outputs listed in tests/golden/cases.tsv
# into DIR (default tests/golden, replacing every NAME.out there).  After a
# change of output that is meant: run it, read `git diff tests/golden` and
# check the changed lines by hand before committing.  tests/cli/t0800 runs
# it into a scratch directory and compares.
#
# Each NAME.out is gpuprof's stdout, then its stderr after a "--- stderr"
# line (when there is any), then "--- exit N".  Paths are normalised (the
# only field that varies between machines): the generated traces' directory
# reads GEN, testdata's TESTDATA.
# Environment: GPUPROF (default build/gpuprof), GEN (default build/gpuprof-gen),
# TESTDATA (default ../shared/testdata).  Exit 77 when testdata is missing.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
GPUPROF=${GPUPROF:-$top/build/gpuprof}
GEN=${GEN:-$top/build/gpuprof-gen}
TESTDATA=${TESTDATA:-$top/../shared/testdata}
out=${1:-$top/tests/golden}
[ -d "$TESTDATA" ] || { echo "update.sh: $TESTDATA not found" >&2; exit 77; }
TESTDATA=$(cd "$TESTDATA" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/golden.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

for f in nsys nvprof kineto; do
	"$GEN" --format $f -n 200 --seed 7 --streams 3 -o "$work/gen.$f" >/dev/null || exit 1
done
mkdir -p "$out" && rm -f "$out"/*.out
grep -v '^#' "$top/tests/golden/cases.tsv" >"$work/cases"
while IFS='	' read -r name trace args; do
	case $trace in
	gen:*) path=$work/gen.${trace#gen:} ;;
	*) path=$TESTDATA/$trace ;;
	esac
	[ -e "$path" ] || { echo "update.sh: $name: $path not found" >&2; exit 1; }   # a file, or a directory of rank files
	"$GPUPROF" $args "$path" >"$work/stdout" 2>"$work/stderr"
	rc=$?
	{
		cat "$work/stdout"
		if [ -s "$work/stderr" ]; then echo "--- stderr"; cat "$work/stderr"; fi
		echo "--- exit $rc"
	} | sed "s|$work/|GEN/|g; s|$TESTDATA/|TESTDATA/|g" >"$out/$name.out"
done <"$work/cases"
