# The collector's decoder on CUPTI records built from CUDA 13's structs
# (build/tests/collector/test_decode, no GPU needed), then what gpuprof
# makes of the recording it wrote, against figures taken from the
# recording's lines with awk: the kernel's time and launch, the memcpy's
# kind and bytes, the API calls, dropped records and CUPTI's overhead.
t=$BUILD/tests/collector/test_decode
[ -x "$t" ] || skip "collector not built (no CUDA toolkit)"
rec=$TMP/decoded.gprec
grec=$TMP/graphs.gprec
"$t" "$rec" "$grec" >"$TMP/unit.log" 2>&1 || { cat "$TMP/unit.log"; fail "test_decode failed"; }
# independent figures from the recording's text
kdur=$(awk -F'\t' '$1 == "kernel" { print $3 - $2 }' "$rec")
nk=$(grep -c '^kernel	' "$rec")
napi=$(grep -c '^api	' "$rec")
nrt=$(grep -c '^api	runtime	' "$rec")
mbytes=$(awk -F'\t' '$1 == "memcpy" { print $12 }' "$rec")
dropped=$(awk -F'\t' '$1 == "dropped" && $3 == "cupti" { n += $2 } END { print n }' "$rec")
over=$(awk -F'\t' '$1 == "overhead" { n += $4 - $3 } END { print n }' "$rec")
run_ok "$GPUPROF" info "$rec"
assert_grep "^kernels +$nk\$" "$TMP/out"
assert_grep "^api calls +$napi\$" "$TMP/out"
assert_grep "^api calls \(runtime\) +$nrt\$" "$TMP/out"
assert_grep "^memcpy bytes +$mbytes\$" "$TMP/out"
assert_grep "^dropped_records +$dropped\$" "$TMP/out"
assert_grep "^cupti_overhead_ns +$over\$" "$TMP/out"
assert_grep '^gpu 0 +NVIDIA H100 80GB HBM3, 132 SMs, cc 9.0' "$TMP/out"
assert_grep "CUPTI dropped $dropped records" "$TMP/out"
assert_grep '^kernels with launch +1$' "$TMP/out"
# the kernel row: demangled short name, its duration
run_ok "$GPUPROF" report -f tsv --no-header -c kernel,sil "$rec"
assert_eq "$(cat "$TMP/out")" "$(printf 'vecAdd\t%s' "$kdur")" "report row"
# nvprof's summary: memcpy kind from the pageable -> device record
run_ok "$GPUPROF" summary -f csv "$rec"
assert_grep '"\[CUDA memcpy HtoD\]"$' "$TMP/out"
assert_grep '"cudaLaunchKernel"$' "$TMP/out"
assert_grep '"cuCtxSynchronize"$' "$TMP/out"
# every command reads it
for c in advise ranges breakdown ops memory; do
	run_ok "$GPUPROF" $c "$rec"
done
run_ok "$GPUPROF" export -o "$TMP/x.json" "$rec"

# CUDA graphs: the replayed kernel is attributed where its node was
# captured (the op range around the node's creation, with its shapes), the
# kernel of a node no callback named is counted, without op
node=$(awk -F'\t' '$1 == "kernel" && $17 != 0 { print $18; exit }' "$grec")
made=$(awk -F'\t' -v n="$node" '$1 == "gnode" && $5 == n && $6 != 0 { print $6 }' "$grec")
at=$(awk -F'\t' -v n="$made" '$1 == "gnode" && $5 == n && $6 == 0 { print $2 }' "$grec")
mm=$(awk -F'\t' -v t="$at" '$1 == "range" && $5 < t && $6 > t && $10 ~ /^aten::mm/ { n++ } END { print n }' "$grec")
assert_eq "$mm" 1 "the first replayed kernel's node was made inside aten::mm"
run_ok "$GPUPROF" report -f csv --no-header -c graph,op,layer,flops "$grec"
assert_eq "$(cat "$TMP/out")" "$(printf '"captured","aten::mm","decoder","16777216"\n"node-unseen","na","-","na"')" \
	"replayed kernels of the graph recording"
run_ok "$GPUPROF" info "$grec"
assert_grep '^cuda_graphs_instantiated +1$' "$TMP/out"
assert_grep '^  with an op +1 of them \(50\.0% of their GPU time\)' "$TMP/out"
