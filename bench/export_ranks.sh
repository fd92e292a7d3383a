#!/bin/sh
# Export of several ranks (docs/PERFORMANCE.md, "export of 8 ranks"): on 8
# generated Kineto rank files of N kernels each (default 100,000), the wall
# time, CPU time and peak RSS of `gpuprof export` (perfetto and folded) of
# one file and of all 8 into one output, and the size of each output.  The
# files are read, written and freed one at a time, so the 8-rank export
# should take about 8 times one file's time at one file's peak RSS.
#
# usage: bench/export_ranks.sh [GPUPROF [GEN]]     N=20000 bench/export_ranks.sh
set -e
n=${N:-100000}
GPUPROF=${1:-build/gpuprof}
GEN=${2:-build/gpuprof-gen}
dir=${BENCH_DIR:-build/bench}/export_ranks
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time missing (apt-get install time)" >&2; exit 2; }
mkdir -p "$dir/ranks"
for r in 0 1 2 3 4 5 6 7; do
	f=$dir/ranks/rank-$r.json
	[ -f "$f" ] || "$GEN" --format kineto -n "$n" --seed $((r + 1)) -o "$f" >/dev/null
done
cat "$dir"/ranks/*.json > /dev/null   # warm the page cache
echo "8 Kineto rank files of $n kernels ($(du -cm "$dir"/ranks/*.json | tail -1 | cut -f1) MB in all)"
WIDTH=44
. "$(dirname "$0")/output_runs.sh"
one_header
one "export -o x.json rank-0.json" "$dir/x.json" export -o "$dir/x.json" "$dir/ranks/rank-0.json"
one "export -o x.json ranks/ (8 files)" "$dir/x.json" export -o "$dir/x.json" "$dir/ranks"
one "export -f folded rank-0.json" - export -f folded "$dir/ranks/rank-0.json"
one "export -f folded ranks/ (8 files)" - export -f folded "$dir/ranks"
one "export -f folded --per-rank ranks/" - export -f folded --per-rank "$dir/ranks"
rm -f "$dir/x.json"
