# Layers a user can read (issue 25): one path separator '/' for every
# source, --depth N and --by module-type in summary, diff, memory and html,
# folded frames split at '/' only.  The expected totals come from the
# trace written here (python), not from gpuprof.
command -v python3 >/dev/null || skip "python3 not installed"
python3 - "$TMP" <<'PY' || fail "crafting the traces"
import json, sys
tmp = sys.argv[1]
# A 4-layer decoder recorded with with_modules=True: per layer an attention
# and an MLP module, each launching kernels; an embedding outside the layers
# and a kernel under an annotation with ':' in its name (annotations win).
ev, exp_depth2, exp_type, exp_type2 = [], {}, {}, {}
ts, corr = 0.0, 0
def span(name, cat, start, dur, tid=1):
    ev.append({"ph": "X", "cat": cat, "name": name, "pid": 1, "tid": tid, "ts": start, "dur": dur})
def kernel(path, dur):
    global ts, corr
    corr += 1
    ev.append({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": ts, "dur": 4,
               "args": {"External id": corr}})
    ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": ts + 1,
               "dur": 2, "args": {"correlation": corr}})
    ev.append({"ph": "X", "cat": "kernel", "name": "k%d" % corr, "pid": 0, "tid": 7, "ts": 1000 + corr * 20,
               "dur": dur, "args": {"device": 0, "stream": 7, "correlation": corr}})
    ts += 5
    ns = int(round(dur * 1000))
    parts = path.split("/")
    key2 = "/".join(parts[:2])
    exp_depth2[key2] = exp_depth2.get(key2, 0) + ns
    t = parts[-1].rsplit("_", 1)[0] if parts[-1].rsplit("_", 1)[-1].isdigit() else parts[-1]
    exp_type[t] = exp_type.get(t, 0) + ns
    t2 = parts[1].rsplit("_", 1)[0] if len(parts) > 1 else t
    exp_type2[t2] = exp_type2.get(t2, 0) + ns
start = ts
span("nn.Module: Model_0", "python_function", 0, 10000)
ts = 1
span("nn.Module: Embedding_0", "python_function", ts, 6); ts += 0.5
kernel("Model_0/Embedding_0", 3.0)
for i in range(4):
    span("nn.Module: DecoderLayer_%d" % i, "python_function", ts, 40); ts += 0.5
    span("nn.Module: Attention_%d" % i, "python_function", ts, 11); ts += 0.5
    kernel("Model_0/DecoderLayer_%d/Attention_%d" % (i, i), 5.0 + i)
    kernel("Model_0/DecoderLayer_%d/Attention_%d" % (i, i), 2.0)
    ts += 1
    span("nn.Module: MLP_%d" % i, "python_function", ts, 11); ts += 0.5
    kernel("Model_0/DecoderLayer_%d/MLP_%d" % (i, i), 7.0)
    kernel("Model_0/DecoderLayer_%d/MLP_%d" % (i, i), 1.0 + i)
    ts += 20
json.dump({"traceEvents": ev}, open(tmp + "/mods.json", "w"))
for name, exp in (("depth2", exp_depth2), ("type", exp_type), ("type2", exp_type2)):
    with open(tmp + "/" + name + ".exp", "w") as f:
        for k in sorted(exp):
            f.write("%s\t%d\n" % (k, exp[k]))
PY
m=$TMP/mods.json
# summary: the GPU time per group (total_ns) equals the trace's sum
got() { "$GPUPROF" summary -s gpu -f tsv --no-header "$@" "$m" | awk -F'\t' '{ print $10 "\t" $3 }' | sort; }
assert_eq "$(got --by layer --depth 2)" "$(cat "$TMP/depth2.exp")" "summary --by layer --depth 2"
assert_eq "$(got --by module-type)" "$(cat "$TMP/type.exp")" "summary --by module-type"
assert_eq "$(got --by module-type --depth 2)" "$(cat "$TMP/type2.exp")" "summary --by module-type --depth 2"
assert_eq "$(got --by layer --depth 9)" "$(got --by layer)" "a depth past the paths"
# ops --by layer: each aten::mm launched one kernel, so its Self GPU per
# layer path cut at depth 2 is the trace's sum per path
opsl() { "$GPUPROF" ops --by layer -f tsv --no-header -c name,layer,self_gpu_ns "$@" "$m" |
	awk -F'\t' '$1 == "aten::mm" { print $2 "\t" $3 }' | sort; }
assert_eq "$(opsl --depth 2)" "$(cat "$TMP/depth2.exp")" "ops --by layer --depth 2"
assert_eq "$(opsl --depth 9)" "$(opsl)" "ops: a depth past the paths"
# diff of the trace with itself: the same groups
run_ok "$GPUPROF" diff --by module-type -f tsv --no-header --no-stats "$m" "$m"
assert_eq "$(awk -F'\t' '$1 != "step" && $1 != "idle" && $1 != "total" { print $NF }' "$TMP/out" | sort | tr '\n' ' ')" \
	"Attention Embedding MLP "
run_ok "$GPUPROF" diff --by layer --depth 2 -f tsv --no-header --no-stats "$m" "$m"
assert_eq "$(awk -F'\t' '$1 != "step" && $1 != "idle" && $1 != "total"' "$TMP/out" | wc -l)" 5
# html: the page's layer table holds the cut paths
run_ok "$GPUPROF" html --depth 2 -o "$TMP/p.html" "$m"
assert_grep '"name":"Model_0/DecoderLayer_3"' "$TMP/p.html"
assert_no_grep '"name":"Model_0/DecoderLayer_3/' "$TMP/p.html"
# --depth needs a layer grouping; a bad depth is refused
expect_exit 2 "$GPUPROF" summary --depth 2 "$m"
assert_grep 'needs --by layer or module-type' "$TMP/err"
expect_exit 2 "$GPUPROF" summary --by layer --depth 0 "$m"
assert_grep "bad --depth '0'" "$TMP/err"
expect_exit 2 "$GPUPROF" memory --by op --depth 1 "$m"
expect_exit 2 "$GPUPROF" ops --depth 1 "$m"
assert_grep 'needs --by layer' "$TMP/err"
expect_exit 2 "$GPUPROF" diff --depth 1 "$m" "$m"
for cmd in summary memory diff html ops; do
	run_ok "$GPUPROF" $cmd --help
	assert_grep '^      --depth N +layers: the first N levels' "$TMP/out"
done

# One separator for every source: Kineto annotations and nsys layer:
# markers join with '/'; a ':' inside a name stays (folded: one frame, and
# spaces are not escaped).
cat >"$TMP/a.json" <<'JSON'
{"traceEvents": [
 {"ph": "X", "cat": "user_annotation", "name": "shard model", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
 {"ph": "X", "cat": "user_annotation", "name": "all2all_data:recat_values", "pid": 1, "tid": 1, "ts": 1, "dur": 50},
 {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 2, "dur": 10, "args": {"External id": 1}},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 3, "dur": 2, "args": {"correlation": 1}},
 {"ph": "X", "cat": "kernel", "name": "gemm_k", "pid": 0, "tid": 7, "ts": 10, "dur": 1.5, "args": {"device": 0, "stream": 7, "correlation": 1}}
]}
JSON
run_ok "$GPUPROF" report -f tsv --no-header -c layer "$TMP/a.json"
assert_eq "$(cat "$TMP/out")" "shard model/all2all_data:recat_values"
run_ok "$GPUPROF" export -f folded "$TMP/a.json"
assert_eq "$(cat "$TMP/out")" "shard model;all2all_data:recat_values;mm;gemm_k 1500"
"$GEN" --format nsys -n 200 --seed 3 -o "$TMP/g.sqlite" >/dev/null || fail "gpuprof-gen"
run_ok "$GPUPROF" report -f tsv --no-header -c layer "$TMP/g.sqlite"
assert_grep '^Encoder/Block_0/Linear1$' "$TMP/out"
assert_no_grep ':' "$TMP/out"
# the cut against report's own paths, cut here with awk
"$GPUPROF" report -f tsv --no-header -c layer,sil "$TMP/g.sqlite" |
	awk -F'\t' '$1 != "-" { n = split($1, p, "/"); k = p[1]; if (n > 1) k = k "/" p[2]; s[k] += $2 }
		END { for (k in s) print k "\t" s[k] }' | sort >"$TMP/cut.exp"
"$GPUPROF" summary --by layer --depth 2 -s gpu -f tsv --no-header "$TMP/g.sqlite" |
	awk -F'\t' '$10 != "(none)" { print $10 "\t" $3 }' | sort >"$TMP/cut.got"
assert_eq "$(cat "$TMP/cut.got")" "$(cat "$TMP/cut.exp")" "summary --depth 2 against report's paths"

# memory: the path of the annotations around each event, cut and typed
cat >"$TMP/mem.json" <<'JSON'
{"traceEvents": [
 {"ph": "X", "cat": "user_annotation", "name": "Net", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
 {"ph": "X", "cat": "user_annotation", "name": "Block_0", "pid": 1, "tid": 1, "ts": 1, "dur": 40},
 {"ph": "X", "cat": "user_annotation", "name": "attn", "pid": 1, "tid": 1, "ts": 2, "dur": 10},
 {"ph": "i", "s": "t", "cat": "cpu_instant_event", "name": "[memory]", "pid": 1, "tid": 1, "ts": 3, "args": {"Device Type": 1, "Device Id": 0, "Addr": 16, "Bytes": 100, "Total Allocated": 100, "Total Reserved": 1000}},
 {"ph": "i", "s": "t", "cat": "cpu_instant_event", "name": "[memory]", "pid": 1, "tid": 1, "ts": 20, "args": {"Device Type": 1, "Device Id": 0, "Addr": 32, "Bytes": 10, "Total Allocated": 110, "Total Reserved": 1000}},
 {"ph": "X", "cat": "user_annotation", "name": "Block_1", "pid": 1, "tid": 1, "ts": 50, "dur": 40},
 {"ph": "X", "cat": "user_annotation", "name": "attn", "pid": 1, "tid": 1, "ts": 51, "dur": 10},
 {"ph": "i", "s": "t", "cat": "cpu_instant_event", "name": "[memory]", "pid": 1, "tid": 1, "ts": 52, "args": {"Device Type": 1, "Device Id": 0, "Addr": 48, "Bytes": 1000, "Total Allocated": 1110, "Total Reserved": 2000}},
 {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 10, "dur": 1, "args": {"device": 0, "stream": 7, "correlation": 9}}
]}
JSON
mem() { "$GPUPROF" memory -f tsv --no-header "$@" "$TMP/mem.json" 2>/dev/null | awk -F'\t' '{ print $8 "\t" $3 }' | sort; }
assert_eq "$(mem --by layer)" "$(printf 'Net/Block_0\t10\nNet/Block_0/attn\t100\nNet/Block_1/attn\t1000')"
assert_eq "$(mem --by layer --depth 2)" "$(printf 'Net/Block_0\t110\nNet/Block_1\t1000')"
assert_eq "$(mem --by module-type --depth 2)" "$(printf 'Block\t1110')"
assert_eq "$(mem --by module-type)" "$(printf 'Block\t10\nattn\t1100')"
