# tier: slow (28 s in make check before the tiers, on the busy 2-core machine)
# The options the commands share are parsed by one table: the same
# spelling, limits and messages everywhere.  -w: a positive number (a
# limit: never refused for being small, see t0020); -n: a positive number (--top, in
# every command that takes it); --name-only is ranges' long option.
command -v sqlite3 >/dev/null || skip "sqlite3 CLI not installed"
tests/fuzz/make-nvprof-corpus.sh "$TMP/db" || fail "cannot build fixtures"
f=$TMP/db/small.nvvp
for cmd in summary advise ranges report; do
	for n in 0 -1 abc 2x ''; do
		expect_exit 2 "$GPUPROF" $cmd -n "$n" "$f"
		assert_grep "bad --top '$n' \(a positive number\)" "$TMP/err"
	done
	run_ok "$GPUPROF" $cmd --top 1 "$f"
	run_ok "$GPUPROF" $cmd --help
	assert_grep '^  -n, --top N ' "$TMP/out"
done
for cmd in report summary ranges; do
	for w in 0 -5 abc 100001; do
		expect_exit 2 "$GPUPROF" $cmd -w "$w" "$f"
		assert_grep "bad --width '$w' \(a positive number\)" "$TMP/err"
	done
	run_ok "$GPUPROF" $cmd -w 20 "$f"
	run_ok "$GPUPROF" $cmd -w 200 "$f"
	awk 'length($0) > 200 { exit 1 }' "$TMP/out" || fail "$cmd -w 200: a line longer than 200"
done
# --top limits rows: summary per section, ranges and advise overall
run_ok "$GPUPROF" summary -n 1 -f csv --no-header "$f"
assert_eq "$(grep -c '"GPU activities"' "$TMP/out")" 1
assert_eq "$(grep -c '"API calls"' "$TMP/out")" 1
run_ok "$GPUPROF" ranges -n 2 -f csv --no-header "$f"
assert_eq "$(wc -l <"$TMP/out")" 2
run_ok "$GPUPROF" ranges --name-only -f tsv --no-header "$f"
assert_no_grep '/' "$TMP/out"
run_ok "$GPUPROF" ranges --help
assert_grep '^      --name-only +group by range name' "$TMP/out"
# --gpu and the peaks are checked the same way by report and advise
for cmd in report advise; do
	expect_exit 2 "$GPUPROF" $cmd --gpu Z9000 "$f"
	assert_grep "unknown GPU 'Z9000'" "$TMP/err"
	expect_exit 2 "$GPUPROF" $cmd --peak-flops 0 "$f"
	expect_exit 2 "$GPUPROF" $cmd --peak-bw abc "$f"
	run_ok "$GPUPROF" $cmd --gpu list
	assert_grep '^V100' "$TMP/out"
	run_ok "$GPUPROF" $cmd --gpu V100 --peak-flops 1e14 --peak-bw 9e11 "$f"
done
# options a command does not take are refused
expect_exit 2 "$GPUPROF" info -w 80 "$f"
run_ok "$GPUPROF" report -n 3 --no-header -f csv "$f"
assert_eq "$(wc -l <"$TMP/out")" 3 "report -n 3: the first 3 kernels"
expect_exit 2 "$GPUPROF" summary -c name "$f"
expect_exit 2 "$GPUPROF" report "$f" "$f"
assert_grep 'expected exactly one trace file' "$TMP/err"
