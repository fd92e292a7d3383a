#!/bin/sh
# breakdown vs summary (docs/PERFORMANCE.md, "breakdown"): the target is
# that `gpuprof breakdown` adds at most 10% to the time of `gpuprof
# summary` on the same file.  Both load and correlate the trace the same
# way, so the difference is the breakdown's own pass.
#   bench/breakdown.sh [GPUPROF] [GEN]  env: N=kernels (default 300000),
#                                       RUNS=5, BENCH_DIR=build/bench
# Times, on a generated nsys and Kineto trace of N kernels and on the
# largest shared Kineto trace when $TESTDATA is set: summary, breakdown
# (time view), breakdown --view streams, --view gaps, --view depth.  The
# figure is CPU seconds (user + sys, the best of RUNS /usr/bin/time runs):
# on a machine shared with other jobs wall time varies by 30% from run to
# run, CPU time by a few percent.
set -eu
GPUPROF=${1:-build/gpuprof}
GEN=${2:-build/gpuprof-gen}
N=${N:-300000}
RUNS=${RUNS:-5}
DIR=${BENCH_DIR:-build/bench}
mkdir -p "$DIR"
[ -x "$GPUPROF" ] || { echo "bench: $GPUPROF not built (make)" >&2; exit 2; }

secs() { # CMD: best-of-RUNS CPU seconds (user + sys)
	best=
	for _ in $(seq "$RUNS"); do
		/usr/bin/time -f '%U %S' -o "$DIR/time.out" sh -c "$1 > /dev/null"
		t=$(tail -1 "$DIR/time.out" | awk '{print $1 + $2}')
		best=$(awk -v a="$t" -v b="${best:-$t}" 'BEGIN {print (a < b ? a : b)}')
	done
	echo "$best"
}

files=""
for fmt in nsys kineto; do
	f=$DIR/breakdown_$N.$fmt
	[ -f "$f" ] || "$GEN" --format $fmt -n "$N" --streams 3 -o "$f" >/dev/null
	files="$files $f"
done
if [ -n "${TESTDATA:-}" ] && [ -f "$TESTDATA/hta/trace_diff/test/test.json.gz" ]; then
	files="$files $TESTDATA/hta/trace_diff/test/test.json.gz"
fi
printf '%-40s %9s %9s %8s %9s %9s %9s\n' file summary breakdown added streams gaps depth
for f in $files; do
	s=$(secs "$GPUPROF summary $f")
	b=$(secs "$GPUPROF breakdown $f")
	st=$(secs "$GPUPROF breakdown --view streams $f")
	g=$(secs "$GPUPROF breakdown --view gaps $f")
	d=$(secs "$GPUPROF breakdown --view depth $f")
	printf '%-40s %9s %9s %7s%% %9s %9s %9s\n' "$(basename "$f")" "$s" "$b" \
		"$(awk -v b="$b" -v s="$s" 'BEGIN {printf "%+.1f", 100 * (b - s) / s}')" "$st" "$g" "$d"
done
