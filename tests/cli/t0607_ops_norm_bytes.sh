# tier: slow (53 s in make check before the tiers, on the busy 2-core machine)
# Softmax and normalization bytes (issue 24 item 6): each kernel moves each
# tensor once (softmax 2B fprop / 3B bprop, normalization per kernel role,
# docs/op-model.md "Normalization and softmax bytes"), so on every shared
# trace no softmax or normalization kernel whose op has shapes is above its
# GPU's bandwidth: its bytes are known (not na: the above-the-peak check
# did not fire) and its eff is at most 1.  Inductor's fused Triton kernels
# (triton_red_fused_..._native_layer_norm_...) are named after the ops they
# fuse: no normalization op, no op model (bytes na by design).
need_testdata
find "$TESTDATA" -type f \( -name '*.sqlite' -o -name '*.sql' -o -name '*.nvvp' -o -name '*.json' -o -name '*.json.gz' \) \
	-not -path '*/expected/*' | sort >"$TMP/files"
n=0
while read -r f; do
	"$GPUPROF" report -f tsv --no-header -c op,kernel,params,bytes,gbps,eff "$f" >"$TMP/rows" 2>/dev/null || continue
	awk -F'\t' -v f="$f" 'tolower($1) ~ /softmax|_norm|batch_norm|layer_norm|group_norm|rms_norm/ && $1 !~ /^triton_/ && $3 != "na" {
			n++
			if ($4 == "na" || ($6 != "na" && $6 + 0 > 1)) { print f ": " $1 " " $2 " bytes " $4 " eff " $6; bad = 1 }
		}
		END { print n + 0 > "/dev/stderr"; exit bad }' "$TMP/rows" 2>>"$TMP/counts" ||
		fail "a normalization or softmax kernel above the GPU's bandwidth"
done <"$TMP/files"
total=$(awk '{ s += $1 } END { print s + 0 }' "$TMP/counts")
[ "$total" -ge 1000 ] || fail "only $total normalization/softmax kernels with shapes"

# ResNet-50 on a V100-DGXS (900 GB/s): cuDNN's one-kernel batch norm at 4B
# (PyProf) ran up to 1.8 TB/s; at 2B (x read, y written) none is above the
# peak and info names only convolutions
rn=$TESTDATA/kineto_tb_plugin/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz
run_ok "$GPUPROF" info "$rn"
assert_no_grep "exceeds the GPU's peak.*(batch_norm|softmax)" "$TMP/out"
run_ok "$GPUPROF" report -f tsv --no-header -c kernel,dir,params,flops,bytes "$rn"
# the first batch norm: [32,64,112,112] fp32, n = 25690112
assert_grep '^bn_fw_tr_1C11_kernel_NCHW	fprop	T=\(32,64,112,112\),type=fp32	205520896	205520896$' "$TMP/out"
assert_grep '^bn_bw_1C11_kernel_new	bprop	T=\(32,64,112,112\),type=fp32	205520896	308281344$' "$TMP/out"
# log_softmax over [32,1000] fp32: 21n FLOPs, 2B and 3B
assert_grep '^softmax_warp_forward	fprop	T=\(32,1000\),type=fp32	672000	256000$' "$TMP/out"
assert_grep '^softmax_warp_backward	bprop	T=\(32,1000\),type=fp32	672000	384000$' "$TMP/out"

# MI300X normalization test (TraceLens): the split native batch norm moves
# B (statistics), C-sized running statistics, 2B (normalization); group
# norm's per-(N, C) kernels move a few arrays of N x C = 128 values
nt=$TESTDATA/tracelens/perf_model/normalization/normalization_layer_test.json.gz
run_ok "$GPUPROF" report -f tsv --no-header -c op,sub,kernel,params,bytes "$nt"
assert_grep '^native_batch_norm	0	batch_norm_collect_statistics_kernel	T=\(8,16,32,32\),type=fp32	524288$' "$TMP/out"
assert_grep '^native_batch_norm	1	unrolled_elementwise_kernel_for_multi_outputs	T=\(8,16,32,32\),type=fp32	256$' "$TMP/out"
assert_grep '^native_batch_norm	2	batch_norm_transform_input_kernel	T=\(8,16,32,32\),type=fp32	1048576$' "$TMP/out"
assert_grep '^native_group_norm	1	ComputeFusedParamsCUDAKernel	T=\(8,16,32,32\),type=fp32	2048$' "$TMP/out"
assert_grep '^native_group_norm_backward	1	elementwise_kernel_manual_unroll	T=\(8,16,32,32\),type=fp32	2048$' "$TMP/out"
assert_grep '^native_group_norm_backward	3	elementwise_kernel_manual_unroll	T=\(8,16,32,32\),type=fp32	1572864$' "$TMP/out"
assert_grep '^miopen_batch_norm_backward	0	MIOpenBatchNormBwdSpatial	T=\(1,128,32,32\),type=fp32	1572864$' "$TMP/out"
