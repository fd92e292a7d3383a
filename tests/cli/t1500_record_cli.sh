# gpuprof record's contract without a GPU: it runs CMD, returns CMD's exit
# status (128+N for a signal), leaves CMD's stdout byte for byte, forwards
# a SIGTERM sent to gpuprof alone, and leaves a recording that says why it
# holds no GPU activity.  Without the collector (no CUDA toolkit at build
# time) it says so and exits 5.
inject=$BUILD/libgpuprof-inject.so
run_ok "$GPUPROF" record --help
assert_grep '^usage: gpuprof record \[OPTIONS\] \[--\] CMD' "$TMP/out"
assert_grep '^  -t, --trace LIST' "$TMP/out"
assert_grep '^ +--capture-range cudaProfilerApi' "$TMP/out"
assert_grep '^  5 +the collector is not installed' "$TMP/out"
expect_exit 2 "$GPUPROF" record
assert_grep 'no command to run' "$TMP/err"
expect_exit 2 "$GPUPROF" record --trace cuda,osrt -- true
assert_grep "unknown 'osrt'" "$TMP/err"
expect_exit 2 "$GPUPROF" record --duration -1 -- true
expect_exit 2 "$GPUPROF" record --capture-range nvtx -- true
expect_exit 2 "$GPUPROF" record --frobnicate -- true
# a collector that is not there: CMD does not run
GPUPROF_INJECT_LIB=$TMP/none.so expect_exit 5 "$GPUPROF" record -o "$TMP/x.gprec" -- touch "$TMP/ran"
assert_grep 'collector .* is not installed' "$TMP/err"
[ ! -e "$TMP/ran" ] || fail "CMD ran without the collector"
[ -f "$inject" ] || skip "collector not built (no CUDA toolkit)"

cd "$TMP" || fail "cd"
# exit status, and the recording of a program that loaded neither CUDA nor NVTX
expect_exit 0 "$GPUPROF" record -o "$TMP/true-%p.gprec" -- true
rec=$(ls "$TMP"/true-*.gprec)
[ -f "$rec" ] || fail "no recording for true"
assert_grep "recording: $rec" "$TMP/err"
run_ok "$GPUPROF" info "$rec"
assert_grep '^format +gpuprof-rec$' "$TMP/out"
assert_grep '^kernels +0$' "$TMP/out"
if [ ! -e /proc/driver/nvidia/version ]; then
	assert_grep '^note 1 +no GPU found: no NVIDIA driver is loaded' "$TMP/out"
fi
assert_grep 'loaded neither CUDA nor NVTX' "$TMP/out"
expect_exit 7 "$GPUPROF" record -q -o "$TMP/seven.gprec" -- sh -c 'exit 7'
[ -f "$TMP/seven.gprec" ] || fail "no recording for sh -c 'exit 7'"
[ ! -s "$TMP/err" ] || fail "-q still wrote to stderr: $(cat "$TMP/err")"
# the default name, in the current directory
expect_exit 3 "$GPUPROF" record -q -- sh -c 'exit 3'
ls "$TMP"/gpuprof-*.gprec >/dev/null 2>&1 || fail "no gpuprof-PID.gprec in the current directory"
# a program killed by a signal: 128 + N, and its recording still there
expect_exit 137 "$GPUPROF" record -o "$TMP/killed.gprec" -- sh -c 'kill -KILL $$'
assert_grep 'died of signal 9' "$TMP/err"
run_ok "$GPUPROF" info "$TMP/killed.gprec"
# not found / not executable: the shell's codes
expect_exit 127 "$GPUPROF" record -q -o "$TMP/nf.gprec" -- "$TMP/no-such-program"
assert_grep 'cannot run .*no-such-program' "$TMP/err"
printf 'not a program\n' >"$TMP/noexec"; chmod -x "$TMP/noexec"
expect_exit 126 "$GPUPROF" record -q -o "$TMP/ne.gprec" -- "$TMP/noexec"

# stdout intact, byte for byte (binary and text), stderr too
printf 'line 1\n\tbinary \001\377 no newline' >"$TMP/payload"
sh -c "cat '$TMP/payload'; echo to-stderr >&2" >"$TMP/plain.out" 2>"$TMP/plain.err"
"$GPUPROF" record -q -o "$TMP/cat.gprec" -- sh -c "cat '$TMP/payload'; echo to-stderr >&2" \
	>"$TMP/rec.out" 2>"$TMP/rec.err" || fail "record of cat failed"
cmp "$TMP/plain.out" "$TMP/rec.out" || fail "stdout changed under gpuprof record"
cmp "$TMP/plain.err" "$TMP/rec.err" || fail "stderr changed under gpuprof record"

# a SIGTERM sent to gpuprof alone reaches CMD, whose status is returned
"$GPUPROF" record -q -o "$TMP/term.gprec" -- sh -c 'trap "exit 42" TERM; while :; do sleep 0.05; done' &
gp=$!
sleep 1
kill -TERM $gp
wait $gp; got=$?
assert_eq "$got" 42 "status of a CMD that handled the forwarded SIGTERM"
