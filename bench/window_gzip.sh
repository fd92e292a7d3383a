#!/bin/sh
# A window read of a gzip Kineto trace inflated once against twice
# (docs/PERFORMANCE.md, "Window reads"; docs/window.md): `gpuprof summary
# --iters A:B FILE.json.gz` with the pre-scan's inflated bytes kept for the
# parse (GPUPROF_GZIP_KEEP=$KEEP, default 4 GiB: kept whatever the file)
# against GPUPROF_GZIP_KEEP=0 (nothing kept: the pre-scan and the parse
# each inflate the file, as before), the same binary otherwise.  Runs are
# paired (the two alternate, RUNS rounds, default 5); prints the medians
# of wall time, CPU time (user+sys) and peak RSS.
#
# usage: bench/window_gzip.sh FILE.json.gz A:B [GPUPROF]
#   e.g. gzip -1 -c gen-kineto-200000.json > g.json.gz; bench/window_gzip.sh g.json.gz 3:4
set -eu
file=$1 iters=$2
GPUPROF=${3:-build/gpuprof}
RUNS=${RUNS:-5}
KEEP=${KEEP:-4294967296}
dir=${DIR:-build/bench}
mkdir -p "$dir"
REPORT_WIDTH=40
. "$(dirname "$0")/medians.sh"
rm -f "$dir/gz-twice.times" "$dir/gz-once.times"
cat "$file" >/dev/null
for i in $(seq "$RUNS"); do
	run gz-twice env GPUPROF_GZIP_KEEP=0 "$GPUPROF" summary --iters "$iters" "$file"
	run gz-once env GPUPROF_GZIP_KEEP="$KEEP" "$GPUPROF" summary --iters "$iters" "$file"
done
echo "$file ($(wc -c <"$file") bytes, $(gzip -dc "$file" | wc -c) inflated), summary --iters $iters, $RUNS paired rounds, medians"
report gz-twice "  inflated twice (GPUPROF_GZIP_KEEP=0)"
report gz-once "  inflated once (GPUPROF_GZIP_KEEP=$KEEP)"
