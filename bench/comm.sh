#!/bin/sh
# comm vs info (docs/PERFORMANCE.md, "comm"): the target is that `gpuprof
# comm` costs little over loading the files.  Both load and correlate each
# trace the same way (gp_cli_load); comm then extracts the collectives (one
# pass over the kernels, a walk up the ranges of each NCCL kernel) and
# matches them across files (one sort of all calls).
#   bench/comm.sh [GPUPROF] [GEN]  env: N=kernels (default 300000),
#                                  ITERS=rank-set iterations (default 20000),
#                                  RUNS=5, BENCH_DIR=build/bench
# Times: on a generated Kineto trace of N kernels (its gradient all-reduces
# are NCCL kernels), on an 8-rank generated job of ITERS iterations (3
# collectives each), comm over the 8 files against info run on each, and
# on the shared trace with the most collectives when $TESTDATA is set.  The
# figure is CPU seconds (user + sys, the best of RUNS /usr/bin/time runs),
# as in bench/breakdown.sh.  Then comm over the 8 rank files read -j 1 and
# -j 2 at a time (src/cmds/multi.c): wall and CPU seconds, best of RUNS.
set -eu
GPUPROF=${1:-build/gpuprof}
GEN=${2:-build/gpuprof-gen}
N=${N:-300000}
ITERS=${ITERS:-20000}
RUNS=${RUNS:-5}
DIR=${BENCH_DIR:-build/bench}
mkdir -p "$DIR"
[ -x "$GPUPROF" ] || { echo "bench: $GPUPROF not built (make)" >&2; exit 2; }

wall_cpu() { # CMD: best-of-RUNS wall seconds and CPU seconds (user + sys)
	bw= bc=
	for _ in $(seq "$RUNS"); do
		/usr/bin/time -f '%e %U %S' -o "$DIR/time.out" sh -c "$1 > /dev/null"
		w=$(tail -1 "$DIR/time.out" | awk '{print $1}')
		c=$(tail -1 "$DIR/time.out" | awk '{print $2 + $3}')
		bw=$(awk -v a="$w" -v b="${bw:-$w}" 'BEGIN {print (a < b ? a : b)}')
		bc=$(awk -v a="$c" -v b="${bc:-$c}" 'BEGIN {print (a < b ? a : b)}')
	done
	echo "$bw $bc"
}

secs() { # CMD: best-of-RUNS CPU seconds (user + sys)
	best=
	for _ in $(seq "$RUNS"); do
		/usr/bin/time -f '%U %S' -o "$DIR/time.out" sh -c "$1 > /dev/null"
		t=$(tail -1 "$DIR/time.out" | awk '{print $1 + $2}')
		best=$(awk -v a="$t" -v b="${best:-$t}" 'BEGIN {print (a < b ? a : b)}')
	done
	echo "$best"
}

row() { # NAME INFO_CMD COMM_CMD
	i=$(secs "$2")
	c=$(secs "$3")
	printf '%-34s %9s %9s %7s%%\n' "$1" "$i" "$c" "$(awk -v c="$c" -v i="$i" 'BEGIN {printf "%+.1f", 100 * (c - i) / i}')"
}

f=$DIR/comm_$N.kineto
[ -f "$f" ] || "$GEN" --format kineto -n "$N" --streams 3 -o "$f" >/dev/null
job=$DIR/comm_job_$ITERS
[ -d "$job" ] || "$GEN" --format kineto --ranks 8 --slow-rank 3 --delay-us 100 --iters "$ITERS" -o "$job" >/dev/null
printf '%-34s %9s %9s %8s\n' input info comm added
row "kineto, $N kernels" "$GPUPROF info $f" "$GPUPROF comm $f"
row "8 ranks x $ITERS iterations" "for r in $job/rank-*.json; do $GPUPROF info \$r; done" "$GPUPROF comm $job/rank-*.json"
if [ -n "${TESTDATA:-}" ] && [ -f "$TESTDATA/hta/trace_diff/test/test.json.gz" ]; then
	t=$TESTDATA/hta/trace_diff/test/test.json.gz
	row "hta/trace_diff/test" "$GPUPROF info $t" "$GPUPROF comm $t"
fi
printf '\n%-34s %9s %9s\n' "comm over 8 ranks x $ITERS" "wall s" "CPU s"
for j in 1 2; do
	set -- $(wall_cpu "$GPUPROF comm -j $j $job/rank-*.json")
	printf '%-34s %9s %9s\n' "  -j $j" "$1" "$2"
done
