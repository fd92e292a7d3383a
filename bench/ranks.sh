#!/bin/sh
# Many rank files (docs/PERFORMANCE.md "Many ranks", docs/scaling.md):
#   bench/ranks.sh [GPUPROF] [GEN]   env: N=kernels per rank file (default
#                                    200000), PAIRS=3, BENCH_DIR=build/bench
# 1. speed: 8 Kineto rank files, `gpuprof breakdown DIR` with -j 1 (one file
#    after another) and -j 2 (two at once), PAIRS paired runs (one -j 1 run,
#    then one -j 2 run, so both see the same machine load); prints each
#    pair and the median ratio, and the per-file throughput (MB/s);
# 2. memory: 32 rank files of growing size (N/4 .. N kernels), peak RSS
#    (/usr/bin/time -v) of `gpuprof breakdown` on the largest file alone and
#    on all 32 with -j 1 and -j 2, against jobs x the largest file's.
# GPUPROF_THREADS=1 keeps each file to one thread, so -j is the only
# parallelism measured.
set -eu
GPUPROF=${1:-build/gpuprof}
GEN=${2:-build/gpuprof-gen}
N=${N:-200000}
PAIRS=${PAIRS:-3}
DIR=${BENCH_DIR:-build/bench}/ranks
[ -x "$GPUPROF" ] && [ -x "$GEN" ] || { echo "bench: build first (make)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time missing (apt-get install time)" >&2; exit 2; }
export GPUPROF_THREADS=1
mkdir -p "$DIR/eight" "$DIR/many"

# secs_rss CMD...: one run; prints "<wall s> <peak RSS KB> <CPU s (user + sys)>"
secs_rss() {
	/usr/bin/time -f '%e %M %U %S' -o "$DIR/time.out" "$@" >/dev/null 2>&1 || { echo "bench: failed: $*" >&2; exit 1; }
	tail -1 "$DIR/time.out" | awk '{ printf "%s %s %.2f\n", $1, $2, $3 + $4 }'
}

for r in 0 1 2 3 4 5 6 7; do
	f=$DIR/eight/rank$r.json
	[ -f "$f" ] || "$GEN" --format kineto -n "$N" --seed $((r + 1)) -o "$f" >/dev/null
done
mb=$(du -cm "$DIR"/eight/*.json | tail -1 | cut -f1)
echo "speed: 8 rank files, $N kernels each ($mb MB in all), gpuprof breakdown -f csv"
ratios=""
for p in $(seq "$PAIRS"); do
	t1=$(secs_rss "$GPUPROF" breakdown -f csv -j 1 "$DIR/eight")
	t2=$(secs_rss "$GPUPROF" breakdown -f csv -j 2 "$DIR/eight")
	s1=${t1%% *} s2=${t2%% *}
	r=$(echo "$s1 $s2" | awk '{ printf "%.2f", $2 / $1 }')
	ratios="$ratios $r"
	echo "  pair $p: -j 1 ${s1} s (CPU ${t1##* } s), -j 2 ${s2} s (CPU ${t2##* } s), ratio $r"
	cpu1=${t1##* }
done
echo "  median ratio (-j 2 / -j 1): $(echo "$ratios" | tr ' ' '\n' | sed '/^$/d' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')"
# per core: bytes over CPU time, which machine load does not change
echo "  per core: $(echo "$mb $cpu1" | awk '{ printf "%.0f MB/s of CPU time, %.3f CPU s per file", $1 / $2, $2 / 8 }')"

for r in $(seq 0 31); do
	f=$DIR/many/rank$r.json
	[ -f "$f" ] || "$GEN" --format kineto -n $((N / 4 + r * (N - N / 4) / 31)) --seed $((r + 1)) -o "$f" >/dev/null
done
largest=$(ls -S "$DIR"/many/*.json | head -1)
echo "memory: 32 rank files of $((N / 4)) to $N kernels ($(du -cm "$DIR"/many/*.json | tail -1 | cut -f1) MB in all)"
one=$(secs_rss "$GPUPROF" breakdown -f csv "$largest" | cut -d' ' -f2)
echo "  largest file alone: max RSS $one KB"
for j in 1 2; do
	rss=$(secs_rss "$GPUPROF" breakdown -f csv -j $j "$DIR/many" | cut -d' ' -f2)
	echo "  32 files, -j $j: max RSS $rss KB ($(echo "$rss $one $j" | awk '{ printf "%.2f", $1 / ($2 * $3) }') x (jobs x largest alone))"
done
