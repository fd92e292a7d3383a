# diff's command line (issue 14): --help and the exit codes, bad options and
# --fail-if expressions before any input is read, bad input, a trace diffed
# with itself (every group "same", no change, exit 0, PASS), and the same
# generated run in two formats (nsys export against Kineto JSON) matches
# every kernel and op with itself.
run_ok "$GPUPROF" diff --help
assert_grep '^usage: gpuprof diff \[OPTIONS\] BASE TEST' "$TMP/out"
assert_grep ' --fail-if EXPR ' "$TMP/out"
assert_grep '^  5  diff: a --fail-if limit was crossed' "$TMP/out"
run_ok "$GPUPROF" --help
assert_grep '^  diff ' "$TMP/out"
assert_grep '^  5  diff: a --fail-if limit' "$TMP/out"

expect_exit 2 "$GPUPROF" diff /nonexistent
assert_grep 'expected two trace files \(BASE TEST\)' "$TMP/err"
expect_exit 2 "$GPUPROF" diff --by stream /nonexistent /nonexistent
assert_grep "not 'stream'" "$TMP/err"
for bad in 'step>5' 'step' 'steps>+5%' 'op:>+5%' 'kernel:x>+5kg' 'total=+3%' 'op:mm>+nan%'; do
	expect_exit 2 "$GPUPROF" diff --fail-if "$bad" /nonexistent /nonexistent
	assert_grep "bad --fail-if '" "$TMP/err"
done
expect_exit 2 "$GPUPROF" diff --threshold -1 /nonexistent /nonexistent
expect_exit 2 "$GPUPROF" diff --resamples 10 /nonexistent /nonexistent
expect_exit 2 "$GPUPROF" diff -f xml /nonexistent /nonexistent

# bad input: the file and what is wrong, the documented codes
"$GEN" --format kineto -n 300 --seed 3 -o "$TMP/k.json" >/dev/null || fail "gpuprof-gen"
expect_exit 3 "$GPUPROF" diff "$TMP/k.json" /nonexistent
assert_grep '/nonexistent' "$TMP/err"
printf 'not a trace\n' >"$TMP/junk.json"
expect_exit 4 "$GPUPROF" diff "$TMP/junk.json" "$TMP/k.json"
assert_grep 'junk.json' "$TMP/err"
head -c 5000 "$TMP/k.json" >"$TMP/cut.json"
expect_exit 4 "$GPUPROF" diff "$TMP/k.json" "$TMP/cut.json"

# a trace against itself, every format and grouping: nothing changed
"$GEN" --format nsys -n 300 --seed 3 -o "$TMP/n.sqlite" >/dev/null || fail "gpuprof-gen"
"$GEN" --format nvprof -n 300 --seed 3 -o "$TMP/v.sqlite" >/dev/null || fail "gpuprof-gen"
for f in k.json n.sqlite v.sqlite; do
	for by in kernel op layer iter; do
		run_ok "$GPUPROF" diff -f tsv --no-header --by $by --fail-if 'step>+0%' --fail-if 'total<-0%' \
			--fail-if "$by:*>+0ns" "$TMP/$f" "$TMP/$f"
		awk -F'\t' '$2 != "same" || $5 != 0 || $7 != 0.0 { print; bad = 1 } END { exit bad }' "$TMP/out" ||
			fail "$f --by $by: a change between a trace and itself"
		assert_grep '^gpuprof diff: PASS \(3 limits, none crossed\)$' "$TMP/err"
	done
done
run_ok "$GPUPROF" diff "$TMP/k.json" "$TMP/k.json"
assert_grep '^Status +Base +Test +Change +Relative +95% CI +Verdict +Calls +TC +Efficiency +Name$' "$TMP/out"
assert_grep '^step ' "$TMP/out"

# the same run as nsys and as Kineto wrote it: kernel names differ in
# spelling ("(int)4" / "4", "<unnamed>" / "(anonymous namespace)",
# parameter lists) and ops by "aten::"; each still meets itself
for by in kernel op; do
	run_ok "$GPUPROF" diff -f tsv --no-header --by $by "$TMP/n.sqlite" "$TMP/k.json"
	awk -F'\t' '$1 == "group" && ($2 != "same" || $5 != 0) { print; bad = 1 } END { exit bad }' "$TMP/out" ||
		fail "nsys against Kineto --by $by: a group did not match itself"
done
run_ok "$GPUPROF" summary -s gpu -f tsv --no-header "$TMP/k.json"
kernels=$(grep -vc '^GPU activities	[^	]*	[^	]*	[^	]*	[^	]*	[^	]*	[^	]*	[^	]*	[^	]*	\[CUDA mem' "$TMP/out")
run_ok "$GPUPROF" diff -f tsv --no-header "$TMP/n.sqlite" "$TMP/k.json"
assert_eq "$(grep -c '^group	same	' "$TMP/out")" "$kernels" "kernel names matched across formats"
