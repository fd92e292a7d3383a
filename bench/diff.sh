#!/bin/sh
# diff benchmark (docs/PERFORMANCE.md, "diff"): a generated pair of Kineto
# runs of N iterations (default 2000: 158,000 kernels and 213 MB each; the
# test run with aten::gelu 20% slower), then `gpuprof info` on each file
# (read + correlate + op model: what reading costs) against `gpuprof diff`
# of the two, with and without statistics.  Reported: the best of three
# wall times, and the CPU time (user+sys) and peak RSS of that run.  On a
# shared machine the CPU time is the steadier figure.
#
# Then runs of RANKS rank files each (default 4; 0 skips them): the same
# N iterations split over the ranks (N / RANKS iterations a file, seeds
# per rank), `gpuprof info` on each of the 2 x RANKS files against
# `gpuprof diff BASE_DIR TEST_DIR` with -j 1 and -j 2: a file at a time is
# read, reduced and freed, so diff's peak is about one file's, not a run's.
#
# usage: [RANKS=R] bench/diff.sh [N [GPUPROF [GEN]]]
set -e
n=${1:-2000}
GPUPROF=${2:-build/gpuprof}
GEN=${3:-build/gpuprof-gen}
dir=build/bench
mkdir -p "$dir"
a=$dir/diff-base-$n.json b=$dir/diff-test-$n.json
[ -f "$a" ] || "$GEN" --format kineto --iters "$n" --noise 0.03 --seed 1 -o "$a"
[ -f "$b" ] || "$GEN" --format kineto --iters "$n" --noise 0.03 --seed 2 --inject slow-op=aten::gelu:1.2 -o "$b"
cat "$a" "$b" > /dev/null   # warm the page cache
echo "traces: $a, $b ($(($(wc -c < "$a") / 1048576)) MiB each)"
best() {
	b_= c= m=
	for i in 1 2 3; do
		/usr/bin/time -f '%e %U %S %M' -o "$dir/time.out" "$@" > /dev/null
		read -r s u y kb < "$dir/time.out"
		if [ -z "$b_" ] || [ "$(echo "$s < $b_" | bc)" = 1 ]; then b_=$s c=$(echo "$u + $y" | bc) m=$kb; fi
	done
	printf '%-44s wall %6.2f s  cpu %6.2f s  %6d MiB\n' "$*" "$b_" "$c" $((m / 1024)) |
		sed "s|$GPUPROF |gpuprof |; s|$a|BASE|; s|$b|TEST|"
}
best "$GPUPROF" info "$a"
best "$GPUPROF" info "$b"
best "$GPUPROF" diff "$a" "$b"
best "$GPUPROF" diff --no-stats "$a" "$b"
best "$GPUPROF" diff --by op "$a" "$b"

ranks=${RANKS:-4}
[ "$ranks" -gt 0 ] || exit 0
per=$((n / ranks))
rb=$dir/diff-ranks-base-$n-$ranks rt=$dir/diff-ranks-test-$n-$ranks
mkdir -p "$rb" "$rt"
r=0
while [ $r -lt "$ranks" ]; do
	[ -f "$rb/rank-$r.json" ] || "$GEN" --format kineto --iters "$per" --noise 0.03 --seed $((r + 1)) \
		-o "$rb/rank-$r.json"
	[ -f "$rt/rank-$r.json" ] || "$GEN" --format kineto --iters "$per" --noise 0.03 --seed $((r + 101)) \
		--inject slow-op=aten::gelu:1.2 -o "$rt/rank-$r.json"
	r=$((r + 1))
done
cat "$rb"/*.json "$rt"/*.json > /dev/null
echo "ranks: $ranks files a run of $per iterations ($(($(wc -c < "$rb/rank-0.json") / 1048576)) MiB each)"
for f in "$rb"/*.json "$rt"/*.json; do
	best "$GPUPROF" info "$f"
done
best "$GPUPROF" diff -j 1 "$rb" "$rt"
best "$GPUPROF" diff -j 2 "$rb" "$rt"
best "$GPUPROF" diff -j 1 --by rank "$rb" "$rt"
