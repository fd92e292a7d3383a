#!/bin/sh
# Reading a collector recording (format version 2) of N kernels, each with
# its cudaLaunchKernel call, in chunks of 40,000 lines as the collector
# writes them (no GPU needed; docs/PERFORMANCE.md, "gpuprof record"):
#   bench/record-read.sh [GPUPROF]     env: N (default 1000000), BENCH_DIR
# Prints the file size and, for info, summary and report -f csv, the wall
# seconds and peak RSS of one run (/usr/bin/time).
set -eu
GPUPROF=${1:-build/gpuprof}
N=${N:-1000000}
DIR=${BENCH_DIR:-build/bench}
mkdir -p "$DIR"
f=$DIR/record-$N.gprec
python3 - "$N" >"$f" <<'PY'
import sys
n = int(sys.argv[1])
w = sys.stdout.write
w("GPUPROF-REC\t2\nmeta\tpid\t4242\n")
w("device\t0\t132\t9\t0\t85520809984\t3352320000000\t1980000000\t52428800\tNVIDIA H100 80GB HBM3\n")
names = ["_Z6vecAddPKfS0_Pfi", "_Z4gemmILi128EEvPKfS1_Pfiii", "volta_sgemm_128x64_tn"]
lines, t = 2, 1000000
for i in range(1, n + 1):
    w("api\truntime\t%d\t%d\t4242\t%d\t211\t0\n" % (t, t + 2000, i))
    w("kernel\t%d\t%d\t0\t1\t7\t%d\t128\t1\t1\t256\t1\t1\t32\t0\t1024\t0\t0\t%s\n"
      % (t + 5000, t + 9000 + (i % 7) * 100, i, names[i % 3]))
    t += 10000
    lines += 2
    if lines >= 40000:
        w("chunk\t%d\n" % lines)
        lines = 0
w("chunk\t%d\nend\t0\t0\n" % lines)
PY
echo "recording: $f, $(wc -c <"$f") bytes, $N kernels and launches"
for c in "info" "summary" "report -f csv"; do
	/usr/bin/time -f "%e s, %M KB peak RSS" -o "$DIR/time.out" "$GPUPROF" $c "$f" >/dev/null
	echo "gpuprof $c: $(tail -1 "$DIR/time.out")"
done
