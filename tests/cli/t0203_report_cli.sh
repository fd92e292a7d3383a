# tier: slow (23 s in make check before the tiers, on the busy 2-core machine)
# gpuprof report's command line: help, column and format errors, width.
command -v sqlite3 >/dev/null || skip "sqlite3 CLI not installed"
tests/fuzz/make-nvprof-corpus.sh "$TMP/db" || fail "cannot build fixtures"
f=$TMP/db/small.nvvp
run_ok "$GPUPROF" report --help
assert_grep '^usage: gpuprof report' "$TMP/out"
assert_grep 'Exit codes' "$TMP/out"
expect_exit 2 "$GPUPROF" report
expect_exit 2 "$GPUPROF" report -c idx,bogus "$f"
assert_grep "unknown column 'bogus'" "$TMP/err"
expect_exit 2 "$GPUPROF" report -f xml "$f"
expect_exit 2 "$GPUPROF" report -f xml "$TMP/missing.nvvp"   # checked before reading
expect_exit 2 "$GPUPROF" report -w abc "$f"
# default columns are PyProf's
run_ok "$GPUPROF" report "$f"
assert_grep '^ *Idx +Direction +Sub +Module +Op +Kernel +Params +Sil\(ns\)' "$TMP/out"
run_ok "$GPUPROF" report --no-header -f tsv -c idx,sil "$f"
assert_eq "$(head -1 "$TMP/out")" "$(printf '0\t200')"
# -w fits the width; trace shows the innermost file only
run_ok "$GPUPROF" report -w 120 -c idx,trace,kernel,params "$f"
awk 'length($0) > 120 { exit 1 }' "$TMP/out" || fail "line longer than 120"
run_ok "$GPUPROF" report -f json -c idx,kernel,latency,altseq,trace "$f"
assert_eq "$(head -1 "$TMP/out")" '{"idx":0,"kernel":"volta_sgemm_128x64_tn","latency":500,"altseq":null,"trace":null}'
run_ok "$GPUPROF" report -f json -c idx,kernel,latency "$f"
assert_eq "$(head -1 "$TMP/out")" '{"idx":0,"kernel":"volta_sgemm_128x64_tn","latency":500}'
