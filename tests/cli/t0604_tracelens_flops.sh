# GEMM, attention and convolution FLOPs per op family against TraceLens's
# perf model (generate_perf_report_pytorch) on the shared H100 BERT trace:
# within 1% for every family TraceLens models there (docs/op-model.md,
# "TraceLens": its addmm counts the bias add, MN FLOPs more; attention is
# equal, and its causal flag agrees with ours).
need_testdata
tr=$TESTDATA/tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz
exp=$TESTDATA/expected/tracelens/bert_h100
run_ok "$GPUPROF" report -f csv -c op,params,flops "$tr"
python3 - "$exp" "$TMP/out" <<'PY' || fail "FLOPs differ from TraceLens's by more than 1%"
import csv, os, sys
exp, got = sys.argv[1], sys.argv[2]

def family(op):
    op = op.split("::")[-1]
    if "attention" in op or op.startswith("flash_attn"):
        return "attention"
    if "conv" in op:
        return "conv"
    if op in ("mm", "addmm", "bmm", "baddbmm", "addbmm", "matmul", "linear", "mv", "addmv", "_scaled_mm"):
        return "gemm"
    return None

# TraceLens: one row per distinct op and shapes; GFLOPS_first x name_count
theirs, causal = {}, set()
for sheet, fam in (("GEMM", "gemm"), ("SDPA_fwd", "attention"), ("SDPA_bwd", "attention"),
                   ("CONV_fwd", "conv"), ("CONV_bwd", "conv")):
    p = os.path.join(exp, sheet + ".csv")
    if not os.path.exists(p):
        continue
    for r in csv.DictReader(open(p)):
        theirs[fam] = theirs.get(fam, 0) + float(r["GFLOPS_first"]) * 1e9 * int(r["name_count"])
        if r.get("param: causal") == "True":
            causal.add(fam)
ours, ours_causal = {}, set()
for r in csv.DictReader(open(got)):
    fam = family(r["Op"])
    if fam and r["FLOPs"] != "na":
        ours[fam] = ours.get(fam, 0) + float(r["FLOPs"])
        if "causal=1" in r["Params"]:
            ours_causal.add(fam)
assert {"gemm", "attention"} <= set(theirs), theirs
bad = 0
for fam, t in sorted(theirs.items()):
    o = ours.get(fam, 0)
    rel = abs(o - t) / t
    print("%-9s TraceLens %.6g  gpuprof %.6g  %+.3f%%" % (fam, t, o, 100 * (o - t) / t))
    bad += rel >= 0.01
assert causal == ours_causal, (causal, ours_causal)
sys.exit(1 if bad else 0)
PY
