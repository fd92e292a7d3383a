#!/bin/sh
# The overhead of `gpuprof record` (docs/collector.md, docs/PERFORMANCE.md).
# Needs a GPU (and for "torch", PyTorch); run from the repository root after
# `make`:
#   bench/record-overhead.sh [cuda|torch|all]     env: OUT (default build/bench/record),
#                                                 N (launches, 200000), STEPS (30), REPS (3)
# cuda:  a tight loop of N empty-kernel launches (bench/record_launch_loop.cu,
#        built with nvcc), plain and under `gpuprof record`: ns per launch;
#        the recording must hold every launch (kernel count checked).
# torch: a training step of a 4-block transformer (bench/record_step.py),
#        plain, under `gpuprof record`, under `gpuprof record` with emit_nvtx,
#        and under torch.profiler: ms per step (median over STEPS; best of
#        REPS runs) and the overhead against plain.  Then the same seeded run
#        recorded by gpuprof and by torch.profiler (in two processes: CUPTI
#        takes one subscriber; gpuprof's capture range is the profiled
#        steps), and their kernels compared per name (count equal, total
#        time within 10%) by gpuprof summary on both files.
set -eu
what=${1:-all}
GPUPROF=${GPUPROF:-build/gpuprof}
OUT=${OUT:-build/bench/record}
N=${N:-200000}
STEPS=${STEPS:-30}
REPS=${REPS:-3}
mkdir -p "$OUT"
[ -x "$GPUPROF" ] || { echo "record-overhead: $GPUPROF not built (make)" >&2; exit 2; }
[ -f "$(dirname "$GPUPROF")/libgpuprof-inject.so" ] || { echo "record-overhead: collector not built" >&2; exit 2; }

# best CMD...: the smallest value of the last field over REPS runs
best() {
	r=0; b=""
	while [ $r -lt "$REPS" ]; do
		v=$("$@" | awk '{ print $NF }' | tail -1)
		b=$(echo "$b $v" | awk '{ m = $1; for (i = 2; i <= NF; i++) if ($i < m) m = $i; print m }')
		r=$((r + 1))
	done
	echo "$b"
}
pct() { echo "$1 $2" | awk '{ printf "%+.1f%%", ($2 / $1 - 1) * 100 }'; }

if [ "$what" = cuda ] || [ "$what" = all ]; then
	nvcc -O2 -o "$OUT/record_launch_loop" bench/record_launch_loop.cu
	plain=$(best "$OUT/record_launch_loop" "$N")
	rm -f "$OUT"/loop-*.gprec
	rec=$(best "$GPUPROF" record -q -o "$OUT/loop-%p.gprec" -- "$OUT/record_launch_loop" "$N")
	f=$(ls -t "$OUT"/loop-*.gprec | head -1)
	k=$(grep -c '^kernel	' "$f")
	echo "cuda launch loop: plain $plain ns/launch, gpuprof record $rec ns/launch ($(pct "$plain" "$rec")), kernels recorded $k of $((N + 1))"
	[ "$k" = $((N + 1)) ] || { echo "record-overhead: kernels lost" >&2; "$GPUPROF" info "$f" >&2; exit 1; }
fi

if [ "$what" = torch ] || [ "$what" = all ]; then
	py="python3 bench/record_step.py --steps $STEPS"
	plain=$(best $py)
	rec=$(best "$GPUPROF" record -q -o "$OUT/step-%p.gprec" -- $py)
	nvtx=$(best "$GPUPROF" record -q -o "$OUT/step-nvtx-%p.gprec" -- $py --emit-nvtx)
	kin=$(best $py --profiler)
	echo "torch step (ms): plain $plain, gpuprof record $rec ($(pct "$plain" "$rec")), with emit_nvtx $nvtx ($(pct "$plain" "$nvtx")), torch.profiler $kin ($(pct "$plain" "$kin"))"
	# the same seeded steps, recorded by both: kernels per name (gpuprof
	# records the steps torch.profiler sees: the set-up is outside the range)
	rm -f "$OUT"/cmp-*.gprec
	"$GPUPROF" record -q --capture-range cudaProfilerApi -o "$OUT/cmp-%p.gprec" -- $py --cuda-profiler-range >/dev/null
	$py --profiler --trace-out "$OUT/cmp-kineto.json" >/dev/null
	f=$(ls -t "$OUT"/cmp-*.gprec | head -1)
	"$GPUPROF" summary -f tsv --no-header "$f" | awk -F'\t' '$1 == "GPU activities"' >"$OUT/ours.tsv"
	"$GPUPROF" summary -f tsv --no-header "$OUT/cmp-kineto.json" | awk -F'\t' '$1 == "GPU activities"' >"$OUT/kineto.tsv"
	python3 - "$OUT/ours.tsv" "$OUT/kineto.tsv" <<'PY'
import sys
def rows(p):
    r = {}
    for line in open(p):
        f = line.rstrip("\n").split("\t")
        r[f[-1]] = (int(f[3]), float(f[2]))   # calls, total ns
    return r
ours, kin = rows(sys.argv[1]), rows(sys.argv[2])
bad = [(n, ours.get(n), kin.get(n)) for n in set(ours) | set(kin)
       if n not in ours or n not in kin or ours[n][0] != kin[n][0]
       or abs(ours[n][1] - kin[n][1]) > 0.10 * kin[n][1]]
print("kernels compared with torch.profiler: %d names, %d differ" % (len(set(ours) | set(kin)), len(bad)))
for b in bad[:20]:
    print("  differs:", b)
sys.exit(1 if bad else 0)
PY
fi
