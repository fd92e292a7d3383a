#!/bin/sh
# ops benchmark (docs/PERFORMANCE.md, "ops"): a real Kineto trace grown K
# times by /work/shared/tools/grow_kineto.py (default: the H100 BERT trace
# of testdata, which has ops, kernels and python_function frames; K=200),
# then `gpuprof summary` (read + correlate + group kernels) against
# `gpuprof ops` (read + correlate + op model + op table), `ops --group-by
# stack` and `ops --python`.  Reported: the best of three wall times, and
# the CPU time (user+sys) and peak RSS of that run.  On a shared machine
# the CPU time is the steadier figure.
#
# usage: bench/ops.sh [K [TRACE [GPUPROF]]]
set -e
k=${1:-200}
src=${2:-${TESTDATA:-../shared/testdata}/tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz}
GPUPROF=${3:-build/gpuprof}
GROW=${GROW:-/work/shared/tools/grow_kineto.py}
dir=build/bench
mkdir -p "$dir"
trace=$dir/ops-$(basename "$src" .json.gz)-x$k.json
[ -f "$trace" ] || python3 "$GROW" "$src" "$trace" "$k"
cat "$trace" > /dev/null   # warm the page cache
echo "trace: $trace ($(($(wc -c < "$trace") / 1048576)) MiB)"
best() {
	b= c= m=
	for i in 1 2 3; do
		/usr/bin/time -f '%e %U %S %M' -o "$dir/time.out" "$@" > /dev/null
		read -r s u y kb < "$dir/time.out"
		if [ -z "$b" ] || [ "$(echo "$s < $b" | bc)" = 1 ]; then b=$s c=$(echo "$u + $y" | bc) m=$kb; fi
	done
	printf '%-40s wall %6.2f s  cpu %6.2f s  %6d MiB\n' "$*" "$b" "$c" $((m / 1024)) |
		sed "s|$GPUPROF |gpuprof |; s|$trace|TRACE|"
}
best "$GPUPROF" info "$trace"
best "$GPUPROF" summary "$trace"
best "$GPUPROF" ops "$trace"
best "$GPUPROF" ops --group-by stack "$trace"
best "$GPUPROF" ops --python "$trace"
