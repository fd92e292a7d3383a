# tier: slow (51 s in make check before the tiers, on the busy 2-core machine)
# FLOPs a user can trust (issue 10 item 5): no report row of any shared or
# generated trace has eff > 1 (the model's work for such a kernel is wrong:
# report says na and info names the kernels); helper kernels of GEMMs and
# convolutions have 0 FLOPs; autotuning trial runs are marked; an NLL
# backward kernel touches one element per row.
need_testdata
find "$TESTDATA" -type f \( -name '*.sqlite' -o -name '*.sql' -o -name '*.nvvp' -o -name '*.json' -o -name '*.json.gz' \) \
	-not -path '*/expected/*' | sort >"$TMP/files"
for f in nsys nvprof kineto; do
	"$GEN" --format $f -n 3000 --seed 11 --streams 3 -o "$TMP/gen.$f" >/dev/null || fail "gpuprof-gen $f"
	echo "$TMP/gen.$f" >>"$TMP/files"
done
n=0
while read -r f; do
	"$GPUPROF" report -f tsv --no-header -c eff,kernel,op "$f" >"$TMP/rows" 2>/dev/null || continue
	n=$((n + 1))
	awk -F'\t' -v f="$f" '$1 != "na" && $1 + 0 > 1 { print f ": eff " $1 " " $2 " (" $3 ")"; bad = 1 }
		END { exit bad }' "$TMP/rows" || fail "a kernel with eff > 1"
done <"$TMP/files"
[ "$n" -ge 30 ] || fail "only $n traces reported"

# ResNet-50 on a V100 (Kineto): Winograd helpers carry no FLOPs; the
# kernels whose modelled work the V100 could not have done are named
rn=$TESTDATA/kineto_tb_plugin/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz
run_ok "$GPUPROF" report -f tsv --no-header -c kernel,op,flops,tc "$rn"
assert_grep '^generateWinogradTilesKernel	cudnn_convolution	0	-$' "$TMP/out"
assert_grep '^winogradForwardData4x4	cudnn_convolution	0	-$' "$TMP/out"
assert_no_grep '^(generateWinograd|winograd|computeOffsets|nchwToNhwc)[^	]*	[^	]*	[1-9]' "$TMP/out"
run_ok "$GPUPROF" info "$rn"
assert_grep "^note [0-9]+ +[0-9]+ kernels \([0-9.]+ ms of GPU time\) whose modelled work exceeds the GPU's peak; their FLOPs are not trusted: " "$TMP/out"

# DLProf export on an RTX 2070 (nsys): cudnn.benchmark runs every algorithm
# of each convolution once; only the chosen kernel keeps the conv's FLOPs
dl=$TESTDATA/nsys/dlprof_rtx2070_2022.1/no_relu_nsys_profile.sqlite
run_ok "$GPUPROF" info "$dl"
assert_grep '^note [0-9]+ +15 kernels \([0-9.]+ ms of GPU time\) are autotuning trial runs' "$TMP/out"
run_ok "$GPUPROF" report -f tsv --no-header -c seq,sub,kernel,flops "$dl"
assert_grep '^0	2	computeOffsetsKernel	0$' "$TMP/out"
assert_grep '^0	9	compute_gemm_pointers	0$' "$TMP/out"
assert_grep '^0	0	implicit_convolve_sgemm	na$' "$TMP/out"    # a trial
# the first conv: 2 N1 K6 30x30 C3 3x3 once, on its last kernel
awk -F'\t' '$1 == 0 && $4 != "na" { s += $4 } END { if (s != 291600) { print s; exit 1 } }' "$TMP/out" ||
	fail "the first conv's FLOPs are not counted once"

# PyProf LM on a V100 (nvprof): the NLL gradient kernel writes one element
# per row of the 700 x 33278 logits: 700 FLOPs, 8*700 + 4*700 + 4 bytes
lm=$TESTDATA/nvprof/pyprof_lm_v100/net_da6bcc3.sql
run_ok "$GPUPROF" report -f tsv --no-header -c kernel,dir,flops,bytes "$lm"
assert_grep '^cunn_ClassNLLCriterion_updateGradInput_kernel	bprop	700	8404$' "$TMP/out"
