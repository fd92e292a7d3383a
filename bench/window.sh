#!/bin/sh
# Window-read benchmark (docs/PERFORMANCE.md, "Window reads"): on a real
# Kineto trace grown 20 times (the shared ResNet trace through
# ../shared/tools/grow_kineto.py, its ProfilerStep#N renumbered so the
# copies' iterations follow each other) and on the generated 1M-kernel nsys
# export, `gpuprof summary --iters A:B` against `gpuprof summary` of the
# whole file and against the floor (the bare yajl parse of bench/kineto.sh;
# for nsys, sqlite3 stepping the reader's tables, bench/nsys_read.sql).
# Runs are paired: the commands alternate, RUNS rounds (default 5), and
# the medians of wall time, CPU time (user+sys) and peak RSS are printed.
#
# usage: bench/window.sh [GPUPROF [GEN]]      RUNS=3 bench/window.sh
set -e
GPUPROF=${1:-build/gpuprof}
GEN=${2:-build/gpuprof-gen}
RUNS=${RUNS:-5}
TESTDATA=${TESTDATA:-../shared/testdata}
TOOLS=${TOOLS:-../shared/tools}
dir=build/bench
mkdir -p "$dir"
${CC:-cc} -O2 -o "$dir/json_parse_baseline" bench/json_parse_baseline.c -lyajl -lz

# --- the traces ---
resnet=$TESTDATA/kineto_tb_plugin/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz
kin=$dir/resnet-x20.json
if [ ! -f "$kin" ]; then
	python3 "$TOOLS/grow_kineto.py" "$resnet" "$dir/resnet-x20.raw.json" 20
	# copy i of ProfilerStep#N (per category) becomes N + i * (steps per copy)
	python3 - "$dir/resnet-x20.raw.json" "$kin" <<'PY'
import re, sys
src, dst = sys.argv[1], sys.argv[2]
lines = open(src).read().split("\n")
step = re.compile(r'"ProfilerStep#(\d+)"')
cat = re.compile(r'"cat": *"([^"]*)"')
nums = sorted({int(m.group(1)) for l in lines for m in [step.search(l)] if m})
per = nums[-1] - nums[0] + 1
seen = {}
with open(dst, "w") as f:
    for l in lines:
        m = step.search(l)
        if m:
            c = cat.search(l)
            key = (c.group(1) if c else "", int(m.group(1)))
            copy = seen.get(key, 0)
            seen[key] = copy + 1
            l = l[:m.start(1)] + str(int(m.group(1)) + copy * per) + l[m.end(1):]
        f.write(l + "\n")
PY
	rm -f "$dir/resnet-x20.raw.json"
fi
nsys=$dir/nsys-1m.sqlite
[ -f "$nsys" ] || "$GEN" --format nsys -n 1000000 -o "$nsys"

REPORT_WIDTH=34
. "$(dirname "$0")/medians.sh"

bench_pair() { # LABEL FILE ITERS FLOOR-CMD...
	label=$1 file=$2 iters=$3; shift 3
	rm -f "$dir"/w-floor.times "$dir"/w-full.times "$dir"/w-win.times
	cat "$file" > /dev/null
	for i in $(seq "$RUNS"); do
		run w-floor "$@"
		run w-full "$GPUPROF" summary "$file"
		run w-win "$GPUPROF" summary --iters "$iters" "$file"
	done
	echo "$label: $file ($(wc -c < "$file") bytes), $RUNS paired rounds, medians"
	report w-floor "  floor"
	report w-full "  summary (whole file)"
	report w-win "  summary --iters $iters"
	"$GPUPROF" info --iters "$iters" "$file" | grep -E '^(kernels|api calls|framework ops|nvtx ranges) ' | sed 's/^/  window keeps: /'
	"$GPUPROF" info "$file" | grep -E '^(kernels|api calls|framework ops|nvtx ranges) ' | sed 's/^/  whole file:   /'
}

bench_pair "Kineto ResNet x20" "$kin" 60:62 "$dir/json_parse_baseline" "$kin"
bench_pair "nsys 1M kernels" "$nsys" 1000:1002 sqlite3 "$nsys" -init bench/nsys_read.sql .quit
