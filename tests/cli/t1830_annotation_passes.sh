# Layers and passes from user annotations where no op is known (issue 34,
# item 6; analysis/layers.h gp_layer_pass, docs/correlation.md "Passes
# from annotations").  gpuprof-gen --annot passes (tools/gen/annot.c, the
# truth by construction): kernels launched inside attn(F), mlp(B),
# mlp(W), dispatch(fwd), combine(B) without any op take that pass; the
# aten::mm inside mlp(W) keeps its op's pass (fprop); router_B and
# optimizer name none.  Kineto: the oracle reads the raw JSON (the
# innermost annotation around each launch naming a pass, an op's fprop
# first) and must agree with the construction's sums.  nsys: the
# innermost NVTX range names the op, block_0 is the layer; the pass as
# the construction says.
command -v python3 >/dev/null || skip "python3 not installed"
k=$TMP/passes.json
run_ok "$GEN" --format kineto --annot passes -o "$k"
run_ok "$GPUPROF" summary -s gpu --by pass -f csv --no-header "$k"
got=$(cut -d, -f3,4,10 "$TMP/out")
assert_eq "$got" '"230000","10","fprop"
"184000","8","bprop"
"50000","2","wgrad"
"28000","4","(none)"' "summary --by pass (kineto)"
want=$(python3 - "$k" <<'PY'
import json, re, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
grammar = re.compile(r".+\((F|B|W|(?i:fwd|forward|bwd|backward|wgrad))\)$")
word = {"f": "fprop", "fwd": "fprop", "forward": "fprop", "b": "bprop", "bwd": "bprop",
        "backward": "bprop", "w": "wgrad", "wgrad": "wgrad"}
ranges = [e for e in ev if e.get("cat") in ("user_annotation", "cpu_op")]
launch = {e["args"]["correlation"]: e for e in ev if e.get("cat") == "cuda_runtime"}
tot = {}
for kr in (e for e in ev if e.get("cat") == "kernel"):
    l = launch[kr["args"]["correlation"]]
    around = sorted((r for r in ranges if r["tid"] == l["tid"] and r["ts"] <= l["ts"]
                     and l["ts"] + l["dur"] <= r["ts"] + r["dur"]), key=lambda r: r["ts"])
    p = "(none)"
    if any(r["cat"] == "cpu_op" for r in around):
        p = "fprop"
    else:
        for r in around:
            m = grammar.match(r["name"])
            if m:
                p = word[m.group(1).lower()]
    n, d = tot.get(p, (0, 0))
    tot[p] = (n + 1, d + round(kr["dur"] * 1000))
for p in ("fprop", "bprop", "wgrad", "(none)"):
    print('"%d","%d","%s"' % (tot[p][1], tot[p][0], p))
PY
)
assert_eq "$got" "$want" "the oracle's passes"
run_ok "$GPUPROF" summary -s gpu --by layer -f csv --no-header "$k"
assert_eq "$(cut -d, -f3,10 "$TMP/out" | sort -t, -k2)" '"90000","block_0/attn(B)"
"100000","block_0/attn(F)"
"24000","block_0/combine(B)"
"40000","block_0/dispatch(fwd)"
"70000","block_0/mlp(B)"
"60000","block_0/mlp(F)"
"80000","block_0/mlp(W)"
"12000","block_0/router_B"
"16000","optimizer"' "summary --by layer"
# module-type: the layer without its pass (and instance number)
run_ok "$GPUPROF" summary -s gpu --by module-type -f csv --no-header "$k"
assert_eq "$(cut -d, -f3,10 "$TMP/out")" '"210000","mlp"
"190000","attn"
"40000","dispatch"
"24000","combine"
"16000","optimizer"
"12000","router_B"' "summary --by module-type"
# the per-kernel column and the critical path's layers
run_ok "$GPUPROF" report -f csv --no-header -c dir,layer "$k"
assert_eq "$(sort "$TMP/out" | uniq -c | awk '{print $1, $2}' | tr '\n' ' ')" \
	'2 "bprop","block_0/attn(B)" 2 "bprop","block_0/combine(B)" 4 "bprop","block_0/mlp(B)" 4 "fprop","block_0/attn(F)" 2 "fprop","block_0/dispatch(fwd)" 2 "fprop","block_0/mlp(F)" 2 "fprop","block_0/mlp(W)" 2 "na","block_0/router_B" 2 "na","optimizer" 2 "wgrad","block_0/mlp(W)" ' "report -c dir,layer"
run_ok "$GPUPROF" breakdown --view critical -f csv --no-header "$k"
assert_grep '"block_0/mlp\(W\)"' "$TMP/out"
expect_exit 2 "$GPUPROF" summary --by passes "$k"
assert_grep "phase or pass, not 'passes'" "$TMP/err"

n=$TMP/passes.sqlite
run_ok "$GEN" --format nsys --annot passes -o "$n"
run_ok "$GPUPROF" summary -s gpu --by pass -f csv --no-header "$n"
assert_eq "$(cut -d, -f3,4,10 "$TMP/out")" '"228000","12","fprop"
"184000","8","bprop"
"80000","4","wgrad"' "summary --by pass (nsys)"
run_ok "$GPUPROF" summary -s gpu --by layer -f csv --no-header "$n"
assert_eq "$(cut -d, -f3,10 "$TMP/out")" '"476000","block_0"
"16000","(none)"' "nsys: block_0 is the layer"
