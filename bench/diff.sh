#!/bin/sh
# diff benchmark (docs/PERFORMANCE.md, "diff"): a generated pair of Kineto
# runs of N iterations (default 2000: 158,000 kernels and 213 MB each; the
# test run with aten::gelu 20% slower), then `gpuprof info` on each file
# (read + correlate + op model: what reading costs) against `gpuprof diff`
# of the two, with and without statistics.  Reported: the best of three
# wall times, and the CPU time (user+sys) and peak RSS of that run.  On a
# shared machine the CPU time is the steadier figure.
#
# usage: bench/diff.sh [N [GPUPROF [GEN]]]
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
