# advise's pattern rules, each on a small Kineto trace written here that has
# the pattern and on one that does not:
#   fusion            rows of small elementwise/norm/RoPE kernels -> torch.compile
#   unfused-attention bmm + softmax (+ dropout) + bmm / baddbmm + softmax + bmm -> SDPA
#   fp32-unshaped     fp32 sgemm kernels without shapes on a tensor-core GPU
#                     -> TF32/AMP and record_shapes=True
python3 - "$TMP" <<'PY' || fail "writing the traces"
import json, sys
d = sys.argv[1]
def trace(path, gpu, ops, shapes=True):
    """ops: (op, kernel, dur_us, dims, types); one kernel each, back to back
    (2 us apart), launched by a CPU that runs ahead of the GPU (an op every
    7 us): the GPU's work is what the step waits for."""
    ev, cpu, gpu_t, corr = [], 1000.0, 1005.0, 100
    for op, kernel, dur, dims, types in ops:
        t = cpu
        corr += 1
        args = {"External id": corr}
        if shapes and op:
            args.update({"Input Dims": dims, "Input type": types})
        if op:
            ev.append({"ph": "X", "cat": "cpu_op", "name": op, "pid": 1, "tid": 1, "ts": t, "dur": 4, "args": args})
        ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
                   "ts": t + 1, "dur": 2, "args": {"External id": corr if op else 0, "correlation": corr}})
        start = max(gpu_t, t + 5)
        ev.append({"ph": "X", "cat": "kernel", "name": kernel, "pid": 0, "tid": 7, "ts": start, "dur": dur,
                   "args": {"External id": corr if op else 0, "device": 0, "stream": 7, "correlation": corr,
                            "grid": [1024, 1, 1], "block": [128, 1, 1]}})
        cpu += 7
        gpu_t = start + dur + 2
    json.dump({"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": gpu, "numSms": 108}],
               "traceEvents": ev}, open(d + "/" + path, "w"))
H = "c10::Half"
qkv, scores = [[8, 512, 64], [8, 64, 512]], [[8, 512, 512]]
lin = ("aten::addmm", "ampere_fp16_s16816gemm_fp16_128x128_ldg8_stages_32x5_tn", 200,
       [[1024], [4096, 1024], [1024, 1024]], [H, H, H])
def attention(first):
    return [lin,
            (first, "ampere_fp16_s16816gemm_fp16_128x128_ldg8_stages_32x5_nn", 60, qkv, [H, H]),
            ("aten::div", "vectorized_elementwise_kernel", 30, scores, [H]),
            ("aten::_softmax", "softmax_warp_forward", 50, scores + [[]], [H, "Scalar"]),
            ("aten::native_dropout", "fused_dropout_kernel_vec", 40, scores, [H]),
            ("aten::bmm", "ampere_fp16_s16816gemm_fp16_128x128_ldg8_stages_32x5_nn", 60,
             [[8, 512, 512], [8, 512, 64]], [H, H])]
sdpa = [lin, ("aten::_scaled_dot_product_flash_attention", "pytorch_flash::flash_fwd_kernel", 80,
              [[8, 8, 512, 64]] * 3, [H] * 3)]
A100 = "NVIDIA A100-SXM4-40GB"
trace("attn.json", A100, sum((attention("aten::bmm" if i % 2 else "aten::baddbmm") for i in range(6)), []))
trace("sdpa.json", A100, sdpa * 6)
small = [("aten::add", "vectorized_elementwise_kernel", 8, [[4096, 1024]] * 2, [H, H]),
         ("aten::mul", "vectorized_elementwise_kernel", 8, [[4096, 1024]] * 2, [H, H]),
         ("aten::native_layer_norm", "vectorized_layer_norm_kernel", 12, [[4096, 1024], [], [1024], [1024], []],
          [H, "", H, H, "Scalar"]),
         (None, "rotary_embedding_kernel", 9, None, None)]
trace("fuse.json", A100, ([lin] + small * 3) * 6)
mm32 = ("aten::mm", "ampere_sgemm_128x64_tn", 500, [[2048, 2048], [2048, 2048]], ["float", "float"])
trace("fp32.json", A100, [mm32, lin] * 10, shapes=False)
trace("fp32_shapes.json", A100, [mm32, lin] * 10)
trace("fp32_pascal.json", "Quadro GP100", [mm32, lin] * 10, shapes=False)
PY
for f in attn sdpa fuse fp32 fp32_shapes fp32_pascal; do
	run_ok "$GPUPROF" advise "$TMP/$f.json"
	cp "$TMP/out" "$TMP/$f.advise"
done

# unfused attention: 6 layers, baddbmm/bmm + div + softmax + dropout + bmm
assert_grep '^ *[0-9]+\. 6 unfused attention paths \(baddbmm \+ softmax \+ bmm\)' "$TMP/attn.advise"
assert_grep 'scaled_dot_product_attention' "$TMP/attn.advise"
assert_no_grep '\[unfused-attention\]' "$TMP/sdpa.advise"
assert_no_grep '\[unfused-attention\]' "$TMP/fuse.advise"
run_ok "$GPUPROF" advise -f json "$TMP/attn.json"
python3 - "$TMP/out" <<'PY' || fail "unfused attention at stake"
import json, sys
x = [r for r in map(json.loads, open(sys.argv[1])) if r["kind"] == "unfused-attention"][0]
# saved alone: the div, softmax and dropout kernels (30 + 50 + 40 us) of 6
# paths, the GPU running the rest back to back as before
assert abs(x["alone_ns"] - 6 * 120000) < 10, x
assert x["shared_ns"] == x["alone_ns"] - x["saving_ns"] and "below-roofline" in x["shared_with"], x
assert x["count"] == 6 and x["involved_ns"] == 6 * 240000, x
PY

# fusion: rows of 12 small add/mul/layer_norm/RoPE kernels between GEMMs
# (72 kernels, 666 us of the 1866 us of kernel time)
assert_grep '^ *[0-9]+\. 72 small elementwise/norm/RoPE/copy kernels in rows: 35\.7% of GPU time$' "$TMP/fuse.advise"
assert_grep 'torch.compile' "$TMP/fuse.advise"
tr -d '\n' < "$TMP/fuse.advise" | tr -s ' ' | grep -q '6 rows of 3 or more kernels under 50 us back to back, the longest 12' || fail "fusion rows"
for f in attn sdpa fp32; do assert_no_grep '\[fusion\]' "$TMP/$f.advise"; done

# fp32 GEMMs without shapes on an A100: TF32 and record shapes
assert_grep '10 fp32 GEMM/convolution kernels run on CUDA cores of a GPU with tensor cores' "$TMP/fp32.advise"
assert_grep '\[fp32-unshaped\]' "$TMP/fp32.advise"
assert_grep 'allow_tf32' "$TMP/fp32.advise"
tr -d '\n' < "$TMP/fp32.advise" | tr -s ' ' | grep -q 'record_shapes=True' || fail "no record_shapes advice"
assert_no_grep '\[fp32-gemm\]' "$TMP/fp32.advise"
# with shapes: fp32-gemm (FLOPs known); on Pascal (no tensor cores): neither
assert_grep '\[fp32-gemm\]' "$TMP/fp32_shapes.advise"
assert_no_grep '\[fp32-unshaped\]' "$TMP/fp32_shapes.advise"
assert_no_grep '\[fp32-(unshaped|gemm)\]' "$TMP/fp32_pascal.advise"
