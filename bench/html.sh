#!/bin/sh
# HTML report benchmark (docs/PERFORMANCE.md, "html"): on a generated
# Kineto trace of N kernels (default 1,000,000), the wall time, CPU time and
# peak RSS of `gpuprof report -f csv` (load + correlate + op model + one
# row per kernel, the baseline) and of `gpuprof html`, the page's size, and
# how long headless Chromium takes to open it: the page's own figure (from
# navigation start to the last chart drawn, data-drawn-ms) and the wall
# time of `chromium --headless --dump-dom` (browser start included).
#
# With RANKS=R, the page of a job instead: R rank files of N/R kernels each
# (seeds 1..R), `gpuprof html` over them with -j 1 and -j 2, and one rank
# file's page alone (the memory a rank costs).
#
# usage: bench/html.sh [GPUPROF [GEN]]     N=200000 bench/html.sh
#        RANKS=8 bench/html.sh             (8 ranks of 125,000 kernels)
set -e
n=${N:-1000000}
GPUPROF=${1:-build/gpuprof}
GEN=${2:-build/gpuprof-gen}
dir=build/bench
mkdir -p "$dir"
if [ -n "${RANKS:-}" ]; then
	trace=$dir/html_ranks_${RANKS}x$((n / RANKS))
	mkdir -p "$trace"
	for r in $(seq 0 $((RANKS - 1))); do
		[ -f "$trace/rank-$r.json" ] ||
			"$GEN" --format kineto -n $((n / RANKS)) --seed $((r + 1)) -o "$trace/rank-$r.json" >/dev/null
	done
else
	trace=$dir/bench_$n.kineto.json
	[ -f "$trace" ] || "$GEN" --format kineto -n "$n" -o "$trace"
fi
cat "$trace" "$trace"/* > /dev/null 2>&1 || true   # warm the page cache
WIDTH=28
. "$(dirname "$0")/output_runs.sh"
one_header
if [ -n "${RANKS:-}" ]; then
	one "html rank-0.json (one rank)" "$dir/h.html" html -o "$dir/h.html" --force "$trace/rank-0.json"
	one "html -j 1 ($RANKS ranks)" "$dir/h.html" html -j 1 -o "$dir/h.html" --force "$trace"
	one "html -j 2 ($RANKS ranks)" "$dir/h.html" html -j 2 -o "$dir/h.html" --force "$trace"
else
	one "report -f csv" - report -f csv "$trace"
	one "html -o h.html" "$dir/h.html" html -o "$dir/h.html" "$trace"
fi
if command -v chromium >/dev/null; then
	page=$(cd "$dir" && pwd)/h.html
	/usr/bin/time -f '%e' -o "$dir/time.out" chromium --headless --no-sandbox --disable-gpu \
		--user-data-dir="$dir/chromium" --dump-dom "file://$page" > "$dir/dom.html" 2>/dev/null
	drawn=$(grep -o 'data-drawn-ms="[0-9]*"' "$dir/dom.html" | tr -dc 0-9)
	state=$(grep -o 'id="report" data-state="[a-z]*"' "$dir/dom.html" | sed 's/.*="//; s/"//')
	echo "chromium --dump-dom: $(cat "$dir/time.out") s wall; page drawn after ${drawn} ms; state $state"
fi
rm -rf "$dir/h.html" "$dir/dom.html" "$dir/chromium"
