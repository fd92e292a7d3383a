# The CUDA side of the collector on a machine without a GPU: a program that
# calls InitializeInjection as cuInit does (tests/collector/fake_cuinit.c)
# loads the real CUPTI, whose subscription fails; the recording says so,
# the program runs on with its exit status, and nothing reaches stderr
# unless --log asks.  A CUPTI that cannot be loaded is a note too.
app=$BUILD/tests/collector/fake_cuinit
[ -f "$BUILD/libgpuprof-inject.so" ] && [ -x "$app" ] || skip "collector not built (no CUDA toolkit)"
[ -e /dev/nvidiactl ] && skip "a GPU driver is present: this test is for machines without one"

expect_exit 0 "$GPUPROF" record -q -o "$TMP/a.gprec" -- "$app"
assert_eq "$(cat "$TMP/out")" "InitializeInjection returned 1" "the entry point's answer"
[ ! -s "$TMP/err" ] || fail "stderr without --log: $(cat "$TMP/err")"
run_ok "$GPUPROF" info "$TMP/a.gprec"
assert_grep '^note 1 +no GPU found' "$TMP/out"
assert_grep '^note 2 +CUPTI did not start \(error [0-9]+: CUPTI_ERROR_[A-Z_]+\): no GPU found, or a driver too old' "$TMP/out"
assert_no_grep 'CUDA was not initialized' "$TMP/out"
assert_grep '^trace +cuda-gpu,cuda-api,nvtx$' "$TMP/out"

# --log stderr: the same finding on stderr, tagged with the process
expect_exit 0 "$GPUPROF" record -q --log stderr -o "$TMP/b.gprec" -- "$app"
assert_grep '^gpuprof-collect\[[0-9]+\]: CUPTI did not start' "$TMP/err"
# --log FILE
expect_exit 0 "$GPUPROF" record -q --log "$TMP/collect.log" -o "$TMP/c.gprec" -- "$app"
assert_grep 'CUPTI did not start' "$TMP/collect.log"

# no CUPTI to load
GPUPROF_COLLECT_CUPTI=$TMP/no-libcupti.so expect_exit 0 "$GPUPROF" record -q -o "$TMP/d.gprec" -- "$app"
run_ok "$GPUPROF" info "$TMP/d.gprec"
assert_grep 'note 2 +CUPTI not found' "$TMP/out"
