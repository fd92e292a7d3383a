#!/bin/sh
# Memory-over-time benchmark (docs/PERFORMANCE.md, memory section): on a real
# Kineto trace with [memory] events grown K times
# (../shared/tools/grow_kineto.py), the time `gpuprof memory` takes for each
# view against `gpuprof summary` on the same file (both read and correlate
# the trace: the difference is the memory replay).  Best of three wall
# times, with the peak RSS of that run.
#
# usage: bench/memory.sh [K [GPUPROF]]    (default K = 4: 112,040 events, 215 MB)
set -e
k=${1:-4}
GPUPROF=${2:-build/gpuprof}
top=$(cd "$(dirname "$0")/.." && pwd)
td=${TESTDATA:-$top/../shared/testdata}
dir=build/bench
mkdir -p "$dir"
trace=$dir/df_index_resolver-x$k.json
[ -f "$trace" ] || python3 "$td/../tools/grow_kineto.py" \
	"$td/hta/df_index_resolver/df_index_resolver.json.gz" "$trace" "$k"
cat "$trace" > /dev/null   # warm the page cache
echo "trace: $trace, $(wc -c < "$trace") bytes, $(grep -c '"\[memory\]"' "$trace") memory events"

best() {
	b= c= m=
	for i in 1 2 3; do
		/usr/bin/time -f '%e %U %S %M' -o "$dir/time.out" "$@" > /dev/null 2>&1
		read -r s u y kb < "$dir/time.out"
		if [ -z "$b" ] || [ "$(echo "$s < $b" | bc)" = 1 ]; then
			b=$s c=$(echo "$u + $y" | bc) m=$kb
		fi
	done
	shift
	printf '%-40s wall %5s s  CPU %5s s  %4d MiB\n' "$*" "$b" "$c" $((m / 1024))
}
best "$GPUPROF" info "$trace"
best "$GPUPROF" summary -f csv "$trace"
best "$GPUPROF" memory -f csv "$trace"
best "$GPUPROF" memory -f csv --by op "$trace"
best "$GPUPROF" memory -f csv --by series --buckets 1000 "$trace"
best "$GPUPROF" memory -f csv --by steps "$trace"
