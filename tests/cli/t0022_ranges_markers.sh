# ranges on PyProf's dict markers (issue 10 item 7): rows are grouped by the
# marker's short name (module.op, trace FILE:LINE, the emit_nvtx op), PyProf's
# per-op markers are no path components of what they enclose, and -f json
# keeps each row's full text.  mmagic's nsys export nests its markers hundreds
# deep: 1,956 ranges gave 1,520 rows with names up to 326,104 characters.
need_testdata
f=$TESTDATA/nsys/mmagic_vsr_a100_2024.2/net.sqlite
run_ok "$GPUPROF" ranges -f tsv --no-header "$f"
cp "$TMP/out" "$TMP/rows"
assert_eq "$(wc -l <"$TMP/rows")" 36 "rows"
assert_eq "$(awk -F'\t' '{ if (length($8) > n) n = length($8) } END { print n }' "$TMP/rows")" 44 "longest name"
# every range is counted once, in one row
assert_eq "$(awk -F'\t' '{ n += $1 } END { print n }' "$TMP/rows")" 1956 "calls"
# the op marker and the trace marker around it are rows of their own, with
# the counts of their texts in the export
assert_grep '^18	[0-9]+	.*	push	torch\.nn\.functional\.conv2d$' "$TMP/rows"
assert_grep '^702	2612852163034	.*	push	trace multiscale_arch\.py:148$' "$TMP/rows"
assert_grep '^702	2612844970958	.*	push	torch\.__getattr__$' "$TMP/rows"
assert_eq "$(sqlite3 "$f" "select count(*) from NVTX_EVENTS where text like '{''mod'': ''torch.nn.functional'', ''op'': ''conv2d''%'")" 18 "conv2d markers in the export"
# no path: per-op markers enclose everything here, and they are not scopes
assert_no_grep '/' "$TMP/rows"
# --name-only gives the same rows here (no scopes), in the same order
run_ok "$GPUPROF" ranges --name-only -f tsv --no-header "$f"
cmp -s "$TMP/out" "$TMP/rows" || fail "--name-only differs"
# json: the short name plus the full text of the row's first range
run_ok "$GPUPROF" ranges -f json "$f"
assert_eq "$(grep -c '"name":"torch.nn.functional.conv2d","text":"{'"'"'mod'"'"': '"'"'torch.nn.functional'"'"', '"'"'op'"'"': '"'"'conv2d'"'"', '"'"'args'"'"': \[' "$TMP/out")" 1 "conv2d json row"
assert_grep '"name":"trace multiscale_arch.py:148","text":"\{'"'"'traceMarker'"'"': \['"'"'/workspace/mmagic/editors/d2dunet/multiscale_arch.py:148'"'"', ' "$TMP/out"
# csv and tsv have no text column
run_ok "$GPUPROF" ranges -f csv -n 1 "$f"
assert_eq "$(head -1 "$TMP/out")" '"Calls","Total (ns)","Avg (ns)","Min (ns)","Max (ns)","StdDev (ns)","Kind","Name"'

# emit_nvtx ranges (DLProf's export): grouped by op without seq, op_id and
# sizes, and they stay path components (the op call tree)
run_ok "$GPUPROF" ranges -f tsv --no-header "$TESTDATA/nsys/dlprof_rtx2070_2022.1/no_relu_nsys_profile.sqlite"
assert_grep '	push	aten::conv2d/aten::convolution/aten::_convolution$' "$TMP/out"
assert_no_grep 'seq = |sizes = |op_id' "$TMP/out"

# a generated trace: layer: ranges are scopes, PyProf's op and trace markers
# inside them are rows under the scope path, not under each other
"$GEN" --format nsys -n 300 --seed 2 -o "$TMP/g.sqlite" >/dev/null || fail "gpuprof-gen"
run_ok "$GPUPROF" ranges -f tsv --no-header "$TMP/g.sqlite"
assert_grep '	push	iteration 0/layer:Encoder/layer:Block_0/layer:Linear1/torch\.nn\.functional\.linear$' "$TMP/out"
assert_grep '	push	iteration 0/layer:Encoder/layer:Block_0/layer:Linear1/trace model\.py:[0-9]+$' "$TMP/out"
assert_no_grep "trace model\.py:[0-9]+/|\{'" "$TMP/out"
# breakdown -V gaps and advise name what held the work after a gap (the
# dependency chain's pieces) with marker texts as ranges shows them (issue
# 25): PyProf's kilobyte dict markers by module.op or trace FILE:LINE,
# never their raw text
lm=$TESTDATA/nvprof/pyprof_lm_v100/net_da6bcc3.sql
run_ok "$GPUPROF" breakdown -V gaps -f tsv --no-header "$lm"
assert_grep '	cpu_op	cpu_op torch\.nn\.functional\.linear [0-9.]+ us; cpu_op torch\.nn\.functional\.multi_head_attention_forward [0-9.]+ us	[0-9]+$' "$TMP/out"
assert_grep '; cpu_op trace profile2\.py:110 [0-9.]+ us' "$TMP/out"
assert_no_grep "\{'" "$TMP/out"
awk -F'\t' 'length($6) > 200 { exit 1 }' "$TMP/out" || fail "a gap's CPU context over 200 characters"
run_ok "$GPUPROF" advise "$lm"
assert_no_grep "\{'" "$TMP/out"

# A serving engine's Python call stacks (vLLM's capture trace: paths
# hundreds of ranges deep) are cut to their first 3 and last 4 levels
# around "..." by default: short rows, the same ranges counted (--full-paths
# keeps every level)
vllm=$TESTDATA/tracelens/inference/vllm_prefilldecode_piecewise/capture_traces/graph_capture_rank_0.1773709679453551615.pt.trace.json.gz
run_ok "$GPUPROF" ranges -f tsv --no-header "$vllm"
cp "$TMP/out" "$TMP/cut.tsv"
run_ok "$GPUPROF" ranges -f tsv --no-header --full-paths "$vllm"
cp "$TMP/out" "$TMP/full.tsv"
calls() { awk -F'\t' '{ n += $1 } END { print n }' "$1"; }
assert_eq "$(calls "$TMP/cut.tsv")" "$(calls "$TMP/full.tsv")"
longest() { awk '{ if (length($0) > n) n = length($0) } END { print n }' "$1"; }
[ "$(longest "$TMP/full.tsv")" -gt 4000 ] || fail "--full-paths: no deep path"
[ "$(longest "$TMP/cut.tsv")" -lt 1000 ] || fail "ranges: a deep path not cut"
[ "$(wc -l <"$TMP/cut.tsv")" -lt "$(wc -l <"$TMP/full.tsv")" ] || fail "ranges: cut paths do not group"
assert_grep '	annotation	threading\.py\(1032\): _bootstrap/threading\.py\(1075\): _bootstrap_inner/tqdm/_monitor\.py\(60\): run/\.\.\./' "$TMP/cut.tsv"
