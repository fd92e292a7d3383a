#!/bin/sh
# Rebuilds the seed corpus of fuzz_rocprof_csv: the CSV files rocprofv3 would
# write for tests/tools/make_rocprof.py's small run (tests/tools/
# rocprof_to_csv.py: every file kind, the current and the pre-6.4 column
# sets, type-relative agents), the kernel trace cut mid-row and mid-quote,
# and a few odd ones (a bad number, a quote inside a name, a short row).
# Usage: tests/fuzz/make-corpus-rocprof-csv.sh [OUTDIR]
set -e
here=$(dirname "$0")
out=${1:-$here/corpus/rocprof_csv}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
python3 "$here/../tools/make_rocprof.py" "$tmp/run.json" --one-process
python3 "$here/../tools/rocprof_to_csv.py" "$tmp/run.json" "$tmp/new"
python3 "$here/../tools/rocprof_to_csv.py" "$tmp/run.json" "$tmp/legacy" --legacy
python3 "$here/../tools/rocprof_to_csv.py" "$tmp/run.json" "$tmp/rel" --type-relative
for f in "$tmp"/new/*.csv; do cp "$f" "$out/$(basename "$f" .csv | sed 's/^[0-9]*_//').csv"; done
cp "$tmp/legacy/4242_kernel_trace.csv" "$out/kernel_trace_legacy.csv"
cp "$tmp/rel/4242_memory_copy_trace.csv" "$out/memory_copy_type_relative.csv"
k=$out/kernel_trace.csv
size=$(wc -c <"$k")
head -c $((size / 2)) "$k" >"$out/cut_half.csv"
head -c 260 "$k" >"$out/cut_header.csv"
head -n 2 "$k" | head -c $(( $(head -n 1 "$k" | wc -c) + 60 )) >"$out/cut_in_quote.csv"
{ head -n 1 "$k"; printf '"KERNEL_DISPATCH","Agent 1",7,1,4243,11,1,"op""erator\\"q"(int)",11,1000,x2000,0,0,0,0,0,64,1,1,64,1,1\n'; } >"$out/bad_number.csv"
{ head -n 1 "$k"; printf '"KERNEL_DISPATCH","Agent 1",7\n'; } >"$out/short_row.csv"
