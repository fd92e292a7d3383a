#!/bin/sh
# Rebuilds the seed corpus of fuzz_rocprof: small rocprofv3 JSON files made
# by tests/tools/make_rocprof.py (every section the reader reads, tables
# before and after the records, two processes), gzipped, cut at several
# places, and a few odd ones (an empty process list, a wrong type, a record
# without times).  Usage: tests/fuzz/make-corpus-rocprof.sh [OUTDIR]
set -e
here=$(dirname "$0")
out=${1:-$here/corpus/rocprof}
mk=$here/../tools/make_rocprof.py
mkdir -p "$out"
python3 "$mk" "$out/full.json" --compact
python3 "$mk" "$out/tables_last.json" --compact --tables-last --one-process
gzip -9nc "$out/full.json" >"$out/full.json.gz"
size=$(wc -c <"$out/full.json")
for part in 4 2; do
	head -c $((size / part)) "$out/full.json" >"$out/cut_1of$part.json"
done
head -c $((size * 3 / 4)) "$out/full.json" >"$out/cut_3of4.json"
head -c 400 "$out/full.json.gz" >"$out/cut.json.gz"
printf '{"rocprofiler-sdk-tool":[]}\n' >"$out/empty.json"
printf '{"rocprofiler-sdk-tool":[{"metadata":{"pid":7},"buffer_records":{"kernel_dispatch":[{"kind":11,"operation":2,"thread_id":7,"correlation_id":{"internal":1,"external":0},"start_timestamp":"12","end_timestamp":20}]}}]}\n' >"$out/wrong_type.json"
printf '{"rocprofiler-sdk-tool":[{"buffer_records":{"hip_api":[{"kind":5,"operation":3,"correlation_id":{"internal":2},"thread_id":1}],"kernel_dispatch":[{"correlation_id":{"internal":2},"start_timestamp":30,"end_timestamp":10,"dispatch_info":{"agent_id":{"handle":9},"kernel_id":4,"workgroup_size":{"x":0,"y":1,"z":1},"grid_size":{"x":5,"y":1,"z":1}}}]}}]}\n' >"$out/odd_records.json"
