# tier: slow (it runs gpuprof on every shared trace: minutes on the busy 2-core machine)
# ops' memory columns (issue 11, key_averages' CPU Mem / Self CPU Mem /
# CUDA Mem / Self CUDA Mem): on every shared Kineto trace with [memory]
# events, per op name the net and gross bytes, host and GPU, self and total,
# equal an independent attribution of the raw JSON in Python
# (tests/tools/optable_oracle.py --memory: every op on the event's thread
# whose interval holds its ts counts it in its total, the innermost in its
# self figures).  Traces without memory events have no memory columns.
need_testdata
find "$TESTDATA" -type f \( -name '*.json' -o -name '*.json.gz' \) -not -path '*/expected/*' |
	LC_ALL=C sort >"$TMP/files"
n=0
while read -r f; do
	case $f in
	*.gz) zcat "$f" | grep -q '"\[memory\]"' || continue ;;
	*) grep -q '"\[memory\]"' "$f" || continue ;;
	esac
	n=$((n + 1))
	python3 tests/tools/optable_oracle.py --memory "$f" | LC_ALL=C sort >"$TMP/want" || fail "$f: oracle"
	run_ok "$GPUPROF" ops -f tsv "$f"
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ print $c["Name"] "\t" $c["CPU Mem (B)"] "\t" $c["Self CPU Mem (B)"] "\t" $c["GPU Mem (B)"] "\t" $c["Self GPU Mem (B)"] "\t" \
		  $c["CPU Alloc (B)"] "\t" $c["Self CPU Alloc (B)"] "\t" $c["GPU Alloc (B)"] "\t" $c["Self GPU Alloc (B)"] }' \
		"$TMP/out" | LC_ALL=C sort >"$TMP/got"
	diff "$TMP/want" "$TMP/got" >&2 || fail "$f: memory columns differ from the oracle (< oracle, > gpuprof)"
	# the oracle found some memory inside ops (not a table of zeros)
	awk -F'\t' '$5 != 0 || $3 != 0 { found = 1 } END { exit !found }' "$TMP/want" ||
		fail "$f: no op holds a memory event"
done <"$TMP/files"
[ "$n" -ge 4 ] || fail "only $n traces with memory events"

# PyTorch's sort_by names for the memory columns
f=$TESTDATA/tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz
run_ok "$GPUPROF" ops -f tsv --no-header -n 1 -s self_cuda_memory_usage "$f"
run_ok "$GPUPROF" ops -f json -s gpu_alloc "$f"
python3 - "$TMP/out" <<'PY' || fail "sort by gpu_alloc_bytes"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
v = [r["gpu_alloc_bytes"] for r in rows]
assert v == sorted(v, reverse=True) and v[0] > 0, v[:5]
PY

# no memory events: no memory columns
f=$(find "$TESTDATA/hta/trace_diff/control" -name '*.json*' | head -1)
[ -n "$f" ] || fail "no trace_diff/control trace"
run_ok "$GPUPROF" ops -f tsv -n 1 "$f"
assert_no_grep 'Mem' "$TMP/out"
