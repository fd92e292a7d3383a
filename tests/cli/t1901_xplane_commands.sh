# Every command on XPlane files (issue 36): both TraceLens JAX profiles,
# plain and gzipped (a copy made here), and a profile folder of two hosts
# written by tests/tools/xplane_mini.py (plugins/profile/<run>/<host>.xplane.pb:
# hosts become ranks).  Each command exits 0 with sane output; the
# generated hosts' numbers are the ones xplane_mini.py's docstring states
# (kernel times 10+40+25+5 us on GPU 0, 10+8 us on GPU 1; the NCCL kernel
# is communication by its name, gather_kernel_impl by its XLA op
# all-gather-start.2; a 2 us copy of 4096 bytes).
command -v python3 >/dev/null || skip "python3 not installed"

# the generated profile folder (no test data needed)
D=$TMP/plugins/profile/run1
mkdir -p "$D"
python3 tests/tools/xplane_mini.py host "$D/host0.xplane.pb" --host 0 || fail "xplane_mini.py failed"
python3 tests/tools/xplane_mini.py host "$D/host1.xplane.pb" --host 1 || fail "xplane_mini.py failed"
G=$D/host0.xplane.pb
run_ok "$GPUPROF" info "$G"
assert_grep '^format +xplane$' "$TMP/out"
assert_grep '^kernels +6$' "$TMP/out"
assert_grep '^kernel time +98\.000 us$' "$TMP/out"
assert_grep '^memcpy bytes +4096$' "$TMP/out"
assert_grep '^hostname +host0$' "$TMP/out"
run_ok "$GPUPROF" summary --by op -f csv "$G"
assert_grep '^"GPU activities",[^,]*,"40000","1",.*"dot\.3"$' "$TMP/out"
assert_grep '^"GPU activities",[^,]*,"20000","2",.*"loop_add_fusion"$' "$TMP/out"
assert_grep '^"GPU activities",[^,]*,"25000","1",.*"all-reduce\.1"$' "$TMP/out"
run_ok "$GPUPROF" summary --by layer -f csv "$G"
assert_grep '"jit\(step\)/dot_general"$' "$TMP/out"
assert_grep '"jit\(step\)/reduce_sum"$' "$TMP/out"     # the name stack from the launch, the op from the kernel
run_ok "$GPUPROF" breakdown -f csv "$G"
assert_grep '^"0","all","communication","25000",' "$TMP/out"
assert_grep '^"0","all","compute","55000",' "$TMP/out"
assert_grep '^"0","all","memory","2000",' "$TMP/out"
assert_grep '^"1","all","communication","8000",' "$TMP/out"
assert_grep '^"1","all","compute","10000",' "$TMP/out"
run_ok "$GPUPROF" ranks "$D"
# two steps (TraceMe "train" with step_num 0 and 1): 58 us to the next
# step's start, then 61 us to its own end: a median of 59.5 us
assert_grep '^ +0 order +2 +59\.500 us .*host0\.xplane\.pb$' "$TMP/out"
assert_grep '^ +1 order +2 +59\.500 us .*host1\.xplane\.pb$' "$TMP/out"
run_ok "$GPUPROF" report -f csv -c iter,op "$G"
assert_eq "$(tr -d '"' <"$TMP/out" | tail -n +2 | tr '\n' ' ')" \
	"0,loop_add_fusion 0,loop_add_fusion 0,dot.3 0,all-gather-start.2 1,all-reduce.1 1,input_reduce_fusion " "steps of the kernels"
run_ok "$GPUPROF" memory "$G"
assert_grep '^0 +1 +1 +0 +1\.00 MiB' "$TMP/out"
run_ok "$GPUPROF" diff "$G" "$D/host1.xplane.pb"

# the real profiles, plain and gzipped, through every command
need_testdata
J=$TESTDATA/tracelens/jax
[ -d "$J" ] || skip "no $J in the test data"
gzip -c "$J/mi300_jax_conv_minimal_08.xplane.pb" >"$TMP/new.xplane.pb.gz"
for f in "$J/mi300_jax_conv_minimal_08.xplane.pb" "$J/mi300_jax_conv_minimal_legacy.xplane.pb" "$TMP/new.xplane.pb.gz"; do
	run_ok "$GPUPROF" info "$f"
	assert_grep '^format +xplane$' "$TMP/out"
	cp "$TMP/out" "$TMP/info.$(basename "$f")"
	run_ok "$GPUPROF" report "$f"
	assert_grep 'input_transpose_fusion' "$TMP/out"
	run_ok "$GPUPROF" summary --by op "$f"
	assert_grep 'cudnn-conv\.1' "$TMP/out"
	run_ok "$GPUPROF" summary --by layer "$f"
	assert_grep 'conv_general_dilated' "$TMP/out"
	run_ok "$GPUPROF" breakdown "$f"
	for c in ops ranges memory comm; do run_ok "$GPUPROF" $c "$f"; done
	run_ok "$GPUPROF" advise "$f"
	[ -s "$TMP/out" ] || fail "advise $f printed nothing"
	# idle summed over the 8 GPUs is a share of the span times the GPUs
	# (as the header's busy share), never more than all of it
	over=$(grep -oE '[0-9.]+% of the GPU span' "$TMP/out" | awk '$1 + 0 > 100' | head -1)
	[ -z "$over" ] || fail "advise $f: $over"
	run_ok "$GPUPROF" html -o "$TMP/page.html" --force "$f"
	assert_grep '</html>' "$TMP/page.html"
	run_ok "$GPUPROF" export -o "$TMP/t.json" --force "$f"
	python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$TMP/t.json" || fail "export $f: not JSON"
done
# the newer file: 235 kernels on 8 GPUs, 28.137 ms (summed from a dump of the raw file)
assert_grep '^kernels +235$' "$TMP/info.mi300_jax_conv_minimal_08.xplane.pb"
assert_grep '^kernel time +28\.137 ms$' "$TMP/info.mi300_jax_conv_minimal_08.xplane.pb"
assert_grep '^gpu 0-7 +8 x AMD GPU' "$TMP/info.mi300_jax_conv_minimal_08.xplane.pb"
# gzip changes nothing but the file name
sed 1d "$TMP/info.mi300_jax_conv_minimal_08.xplane.pb" >"$TMP/a"
sed 1d "$TMP/info.new.xplane.pb.gz" >"$TMP/b"
cmp -s "$TMP/a" "$TMP/b" || { diff "$TMP/a" "$TMP/b" >&2; fail "the gzipped copy reads differently"; }
run_ok "$GPUPROF" diff "$J/mi300_jax_conv_minimal_legacy.xplane.pb" "$J/mi300_jax_conv_minimal_08.xplane.pb"
