#!/bin/sh
# Kineto reader benchmark (docs/PERFORMANCE.md, Kineto section): on a generated
# Kineto trace, `gpuprof report --format csv` (read + correlate + op model +
# CSV) against a bare streaming yajl parse of the same file with empty
# callbacks, and gpuprof's peak RSS against the uncompressed file size.
#
# usage: bench/kineto.sh [--large] [--gz] [GPUPROF [GEN]]
#   default: 200,000 kernels (~285 MB JSON); --large: 700,000 (~1 GB);
#   --gz: the same trace gzipped (both sides then pay for inflating)
# gpuprof uses every core (GPUPROF_THREADS=N to choose; 1 = one thread);
# the baseline is single-threaded by design.  Reported: the best of three
# wall times, with the CPU time (user+sys) and peak RSS of that run.
set -e
n=200000 gz=
while [ $# -gt 0 ]; do
	case $1 in
	--large) n=700000 ;;
	--gz) gz=.gz ;;
	*) break ;;
	esac
	shift
done
GPUPROF=${1:-build/gpuprof}
GEN=${2:-build/gpuprof-gen}
dir=build/bench
mkdir -p "$dir"
trace=$dir/kineto-$n.json$gz
[ -f "$trace" ] || "$GEN" --format kineto -n "$n" -o "$trace"
${CC:-cc} -O2 -o "$dir/json_parse_baseline" bench/json_parse_baseline.c -lyajl -lz
if [ -n "$gz" ]; then raw=$(gzip -dc "$trace" | wc -c); else raw=$(wc -c < "$trace"); fi
cat "$trace" > /dev/null   # warm the page cache

# best of 3: wall seconds, CPU seconds and peak RSS (KiB) from /usr/bin/time
best() {
	b= c= m=
	for i in 1 2 3; do
		/usr/bin/time -f '%e %U %S %M' -o "$dir/time.out" "$@" > /dev/null
		read -r s u y k < "$dir/time.out"
		if [ -z "$b" ] || [ "$(echo "$s < $b" | bc)" = 1 ]; then
			b=$s c=$(echo "$u + $y" | bc) m=$k
		fi
	done
	echo "$b $c $m"
}
set -- $(best "$dir/json_parse_baseline" "$trace"); base_s=$1 base_c=$2 base_k=$3
set -- $(best "$GPUPROF" report --format csv "$trace"); rep_s=$1 rep_c=$2 rep_k=$3
echo "trace:            $trace ($n kernels, $raw bytes uncompressed)"
echo "bare yajl parse:  $base_s s wall, $base_c s CPU (peak RSS $base_k KiB)"
echo "gpuprof report:   $rep_s s wall, $rep_c s CPU (peak RSS $rep_k KiB; GPUPROF_THREADS=${GPUPROF_THREADS:-all cores})"
echo "time ratio:       $(echo "scale=2; $rep_s / $base_s" | bc) wall (target <= 1.5), $(echo "scale=2; $rep_c / $base_c" | bc) CPU"
echo "RSS / file size:  $(echo "scale=3; $rep_k * 1024 / $raw" | bc) (target <= 0.5)"
