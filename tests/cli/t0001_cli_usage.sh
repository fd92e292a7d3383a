# The CLI's own contract: help, unknown commands, documented exit codes for
# missing, empty and foreign files.
run_ok "$GPUPROF" --help
assert_grep '^  report' "$TMP/out"
assert_grep 'Exit codes' "$TMP/out"
expect_exit 2 "$GPUPROF"
expect_exit 2 "$GPUPROF" frobnicate
assert_grep "unknown command 'frobnicate'" "$TMP/err"
run_ok "$GPUPROF" info --help
expect_exit 2 "$GPUPROF" info
expect_exit 3 "$GPUPROF" info "$TMP/does-not-exist.sqlite"
assert_grep 'does-not-exist.sqlite: cannot open' "$TMP/err"
: > "$TMP/empty"
expect_exit 4 "$GPUPROF" info "$TMP/empty"
assert_grep 'empty file' "$TMP/err"
printf 'hello, I am not a trace\n' > "$TMP/foreign.txt"
expect_exit 4 "$GPUPROF" info "$TMP/foreign.txt"
assert_grep 'not a recognised trace' "$TMP/err"
# every command's --help: usage line, the shared -h line, exit codes
for cmd in info report summary advise ranges; do
	run_ok "$GPUPROF" $cmd --help
	assert_grep "^usage: gpuprof $cmd \[OPTIONS\] FILE" "$TMP/out"
	assert_grep '^  -h, --help +this text' "$TMP/out"
	assert_grep 'Exit codes' "$TMP/out"
	expect_exit 2 "$GPUPROF" $cmd --frobnicate "$TMP/empty"
	assert_grep "gpuprof $cmd: bad option" "$TMP/err"
done
