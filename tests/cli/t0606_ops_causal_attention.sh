# Causal attention from a Kineto trace's Concrete Inputs (issue 10 item 2):
# the H100 BERT trace runs non-causal SDPA (is_causal False at each op's own
# position: scaled_dot_product_attention 6th, _scaled_dot_product_flash_
# attention 5th, _flash_attention_forward 9th); the same trace with those
# flags set to True must halve the fused kernel's FLOPs, not count them twice.
need_testdata
tr=$TESTDATA/tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz
python3 - "$tr" "$TMP/causal.json" <<'PY' || fail "cannot derive the causal trace"
import gzip, json, sys
doc = json.load(gzip.open(sys.argv[1]))
pos = {"aten::scaled_dot_product_attention": 5, "aten::_scaled_dot_product_flash_attention": 4,
       "aten::_flash_attention_forward": 8}
n = 0
for e in doc["traceEvents"]:
    p = pos.get(e.get("name"))
    if p is not None and e.get("cat") == "cpu_op":
        ci = e["args"]["Concrete Inputs"]
        assert ci[p] == "False", (e["name"], ci)
        ci[p] = "True"
        n += 1
assert n == 12, n
json.dump(doc, open(sys.argv[2], "w"))
PY
run_ok "$GPUPROF" report -f tsv --no-header -c op,kernel,params,flops "$tr"
assert_grep '^_flash_attention_forward	flash_fwd_kernel	BH=8,L=141,S=141,E=64,type=bf16	40716288$' "$TMP/out"
run_ok "$GPUPROF" report -f tsv --no-header -c op,kernel,params,flops "$TMP/causal.json"
# 2*BH*L*S*(E+Ev)/2 = 8*141*141*128
assert_grep '^_flash_attention_forward	flash_fwd_kernel	BH=8,L=141,S=141,E=64,causal=1,type=bf16	20358144$' "$TMP/out"
assert_no_grep '	40716288$' "$TMP/out"
[ "$(grep -c 'flash_fwd_kernel' "$TMP/out")" = 4 ] || fail "expected 4 flash kernels"
