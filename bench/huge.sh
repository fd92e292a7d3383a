#!/bin/sh
# The 10 GB runs (docs/PERFORMANCE.md, "Traces of 10 GB"): a ~10 GB Kineto
# trace grown from the shared ResNet trace (bench/grow_stream.py, K copies,
# ProfilerStep#N renumbered so iterations follow each other) and a
# 10M-kernel nsys export (gpuprof-gen), each read whole by `gpuprof summary`
# and `gpuprof report -f csv -c kernel,op,sil` and as a window of three
# iterations in the middle (`summary --iters`), once each, with wall and CPU
# seconds and peak RSS from /usr/bin/time.  Needs ~15 GB of
# disk and, for the nsys export, ~7 GB of memory; the files are deleted
# afterwards unless KEEP=1.
#
# usage: bench/huge.sh [GPUPROF [GEN]]   env: K=309 (copies: 309 x 32.4 MB),
#        N=10000000 (kernels), DIR=build/bench/huge, KEEP=0, ONLY=kineto|nsys
set -eu
GPUPROF=${1:-build/gpuprof}
GEN=${2:-build/gpuprof-gen}
K=${K:-309}
N=${N:-10000000}
DIR=${DIR:-build/bench/huge}
top=$(cd "$(dirname "$0")/.." && pwd)
TESTDATA=${TESTDATA:-$top/../shared/testdata}
ONLY=${ONLY:-}
mkdir -p "$DIR"
echo "free disk: $(df -h "$DIR" | awk 'NR == 2 {print $4}')"

run() { # LABEL CMD...: one run, its seconds and peak RSS
	label=$1
	shift
	/usr/bin/time -f '%e %U %S %M' -o "$DIR/time.out" "$@" >/dev/null
	read -r s u y k <"$DIR/time.out"
	printf '%-44s wall %7.1f s  CPU %7.1f s  peak RSS %6d MiB\n' "$label" "$s" "$(echo "$u + $y" | bc)" $((k / 1024))
}

if [ "$ONLY" != nsys ]; then
	f=$DIR/resnet-x$K.json
	[ -f "$f" ] || run "grow_stream.py (K=$K)" python3 "$top/bench/grow_stream.py" --renumber-steps \
		"$TESTDATA/kineto_tb_plugin/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz" "$f" "$K"
	bytes=$(wc -c <"$f")
	echo "$f: $bytes bytes"
	run "kineto summary" "$GPUPROF" summary "$f"
	run "kineto report -f csv -c kernel,op,sil" "$GPUPROF" report -f csv -c kernel,op,sil "$f"
	# the ResNet trace has ProfilerStep#5..#10: 6 steps a copy
	mid=$((5 + K * 6 / 2))
	run "kineto summary --iters $mid:$((mid + 2))" "$GPUPROF" summary --iters "$mid:$((mid + 2))" "$f"
	[ "${KEEP:-0}" = 1 ] || rm -f "$f"
fi
if [ "$ONLY" != kineto ]; then
	f=$DIR/gen-$N.nsys
	[ -f "$f" ] || run "gpuprof-gen --format nsys -n $N" "$GEN" --format nsys -n "$N" --seed 1 --streams 2 -o "$f"
	echo "$f: $(wc -c <"$f") bytes, $N kernels"
	run "nsys summary" "$GPUPROF" summary "$f"
	run "nsys report -f csv -c kernel,op,sil" "$GPUPROF" report -f csv -c kernel,op,sil "$f"
	# gpuprof-gen writes about 75 kernels an iteration: the middle one
	mid=$((N / 150))
	run "nsys summary --iters $mid:$((mid + 2))" "$GPUPROF" summary --iters "$mid:$((mid + 2))" "$f"
	[ "${KEEP:-0}" = 1 ] || rm -f "$f"
fi
