#!/bin/sh
# Export benchmark (docs/PERFORMANCE.md, "export"): on a generated nsys
# trace of N kernels (default 1,000,000), the wall time, CPU time and peak
# RSS of `gpuprof report -f csv` (load + correlate + op model + one row per
# kernel, the baseline) and of each export, and the size of each output.
#
# usage: bench/export.sh [GPUPROF [GEN]]     N=200000 bench/export.sh
set -e
n=${N:-1000000}
GPUPROF=${1:-build/gpuprof}
GEN=${2:-build/gpuprof-gen}
dir=build/bench
mkdir -p "$dir"
trace=$dir/bench_$n.nsys
[ -f "$trace" ] || "$GEN" --format nsys -n "$n" -o "$trace"
cat "$trace" > /dev/null   # warm the page cache
WIDTH=40
. "$(dirname "$0")/output_runs.sh"
one_header
one "report -f csv" - report -f csv "$trace"
one "export -f perfetto -o x.json" "$dir/x.json" export -o "$dir/x.json" "$trace"
one "export -f perfetto -o x.json.gz" "$dir/x.json.gz" export -o "$dir/x.json.gz" "$trace"
one "export -f perfetto --iter 5" "$dir/i.json" export --iter 5 -o "$dir/i.json" "$trace"
one "export -f folded" - export -f folded "$trace"
one "export -f folded --weight idle" - export -f folded --weight idle "$trace"
rm -f "$dir/x.json" "$dir/x.json.gz" "$dir/i.json"
