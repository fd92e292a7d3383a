# gpuprof advise on a real trace (PyTorch LM, fp32 on V100, one profiled
# step): the findings a performance engineer would point at first are the
# GPU idle time (the CPU issuing ops too slowly), launch-bound tiny kernels
# and the fp32 GEMMs that mixed precision would put on tensor cores (which
# save little while the CPU paces the step).  Also the option errors and
# the roofline columns of report.
need_testdata
db=$TESTDATA/nvprof/pyprof_lm_v100/net_da6bcc3.sql
run_ok "$GPUPROF" advise "$db"
assert_grep '^GPU V100-SXM2( x [0-9]+)?: ' "$TMP/out"
assert_grep '\[cpu_op\]' "$TMP/out"        # its idle gaps: the host issuing ops
assert_grep '\[tiny-kernels\]' "$TMP/out"
assert_grep '\[fp32-gemm\]' "$TMP/out"
assert_grep 'torch.autocast' "$TMP/out"          # V100: AMP fp16, not TF32
assert_no_grep 'allow_tf32' "$TMP/out"
assert_no_grep '\[tc-not-used\]' "$TMP/out"      # fp32 is not tensor-core eligible

run_ok "$GPUPROF" advise --format json "$db"
python3 - "$TMP/out" <<'PY' || fail "advise json"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip().startswith("{")] or json.load(open(sys.argv[1]))
kinds = [r["kind"] for r in rows]
assert "fp32-gemm" in kinds and "cpu_op" in kinds, kinds
# ranked greedily: the first saves most alone; a later saving exceeds the
# one before only where its change needs the ones above (t1780)
assert rows[0]["alone_ns"] == max(r["alone_ns"] for r in rows), rows
for a, b in zip(rows, rows[1:]):
    assert b["saving_ns"] <= a["saving_ns"] * 1.01 or b["saving_ns"] > b["alone_ns"], (a, b)
assert [r["position"] for r in rows] == list(range(1, len(rows) + 1))
for r in rows:   # shared: what of its own saving the ones above already took
    assert abs(r["shared_ns"] - max(0, r["alone_ns"] - r["saving_ns"])) <= 1, r
assert sum(r["saving_ns"] for r in rows) <= 57.8e6, rows   # never more than the GPU span
g = [r for r in rows if r["kind"] == "fp32-gemm"][0]
assert "linear" in g["evidence"], g
PY
run_ok "$GPUPROF" advise -n 1 --format csv "$db"
assert_eq "$(wc -l < "$TMP/out" | tr -d ' ')" 2 "one finding + header"

expect_exit 2 "$GPUPROF" advise --format xml "$db"
expect_exit 2 "$GPUPROF" advise --gpu NoSuchGPU "$db"
expect_exit 2 "$GPUPROF" advise --peak-flops -3 "$db"
expect_exit 2 "$GPUPROF" advise
expect_exit 3 "$GPUPROF" advise "$TMP/missing.sql"
run_ok "$GPUPROF" advise --gpu list
assert_grep '^H100-SXM ' "$TMP/out"

# Roofline columns: the decoder GEMM (9.3 GFLOP in 762 us) on the V100's
# 15.7 TFLOP/s fp32: compute-bound; with --peak-flops the ideal time moves.
run_ok "$GPUPROF" report -f csv -c op,kernel,sil,flops,gflops,ideal,eff,bound,tceligible "$db"
assert_grep '^"linear","volta_sgemm_128x64_tn","761935","9317840000","12229.18","593493","0.779","compute","0"$' "$TMP/out"
run_ok "$GPUPROF" report -f csv -c kernel,ideal --peak-flops 18.63568e12 --peak-bw 1e15 "$db"
assert_grep '^"volta_sgemm_128x64_tn","500000"$' "$TMP/out"
# a peak the kernel beat: its modelled work cannot be right at that peak,
# so FLOPs, ideal and eff say na rather than eff > 1
run_ok "$GPUPROF" report -f csv -c kernel,flops,ideal,eff --peak-flops 9.31784e12 --peak-bw 1e15 "$db"
assert_grep '^"volta_sgemm_128x64_tn","na","na","na"$' "$TMP/out"
expect_exit 2 "$GPUPROF" report --gpu NoSuchGPU "$db"

# info: the share of GPU time with known FLOPs
run_ok "$GPUPROF" info "$db"
assert_grep '^gpu time with flops +[0-9.]+%' "$TMP/out"
assert_grep '^unknown ops +[0-9]+' "$TMP/out"
