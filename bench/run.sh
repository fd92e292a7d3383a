#!/bin/sh
# Benchmarks (make bench; docs/PERFORMANCE.md has the figures):
#   bench/run.sh [GPUPROF] [GEN]  env: N=kernels (default 1000000), RUNS=3,
#                                 BENCH_DIR=build/bench
# 1. generates an N-kernel nsys and nvprof trace with GEN (default
#    build/gpuprof-gen; timed),
# 2. times `gpuprof report --format csv` and `gpuprof summary` on each,
# 3. times sqlite3 running the SELECTs the reader runs (bench/*_read.sql),
#    the floor our "at most 2x sqlite3" target is measured against,
# 4. records peak RSS (/usr/bin/time -v) and bytes of RSS per kernel.
# Uses hyperfine (mean of RUNS runs) when installed, else one timed run.
set -eu
GPUPROF=${1:-build/gpuprof}
GEN=${2:-build/gpuprof-gen}
N=${N:-1000000}
RUNS=${RUNS:-3}
DIR=${BENCH_DIR:-build/bench}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$DIR"
[ -x "$GPUPROF" ] || { echo "bench: $GPUPROF not built (make)" >&2; exit 2; }
[ -x "$GEN" ] || { echo "bench: $GEN not built (make)" >&2; exit 2; }
command -v sqlite3 >/dev/null || { echo "bench: sqlite3 not installed" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time missing (apt-get install time)" >&2; exit 2; }

# secs_rss CMD...: one run; prints "<seconds> <peak RSS KB>"
secs_rss() {
	/usr/bin/time -f '%e %M' -o "$DIR/time.out" sh -c "$* > /dev/null" || { echo "bench: failed: $*" >&2; exit 1; }
	tail -1 "$DIR/time.out"
}

# mean_secs CMD: hyperfine's mean over RUNS runs, else one /usr/bin/time run
mean_secs() {
	if command -v hyperfine >/dev/null; then
		hyperfine -N --style none --warmup 1 --runs "$RUNS" --export-json "$DIR/hf.json" "$1" >/dev/null 2>&1 \
			|| hyperfine --style none --warmup 1 --runs "$RUNS" --export-json "$DIR/hf.json" "$1 > /dev/null" >/dev/null
		python3 -c "import json; print('%.2f' % json.load(open('$DIR/hf.json'))['results'][0]['mean'])"
	else
		secs_rss "$1" | cut -d' ' -f1
	fi
}

printf '%-8s %-28s %8s %10s %12s\n' format step seconds "peak MB" "B/kernel"
for fmt in nsys nvprof; do
	db=$DIR/bench_$N.$fmt
	if [ ! -f "$db" ]; then
		set -- $(secs_rss "$GEN --format $fmt -n $N -o $db")
		printf '%-8s %-28s %8s %10s %12s\n' $fmt "gen -n $N" "$1" $(($2 / 1024)) -
	fi
	printf '%-8s %-28s %8s %10s %12s\n' $fmt "file size (MB)" - $(($(wc -c < "$db") / 1048576)) -
	s=$(mean_secs "sqlite3 $db -init $here/${fmt}_read.sql .quit")
	set -- $(secs_rss "sqlite3 $db < $here/${fmt}_read.sql")
	printf '%-8s %-28s %8s %10s %12s\n' $fmt "sqlite3 SELECTs (baseline)" "$s" $(($2 / 1024)) -
	for cmd in "report --format csv" "summary"; do
		s=$(mean_secs "$GPUPROF $cmd $db")
		set -- $(secs_rss "$GPUPROF $cmd $db")
		printf '%-8s %-28s %8s %10s %12s\n' $fmt "$cmd" "$s" $(($2 / 1024)) $(($2 * 1024 / N))
	done
done
