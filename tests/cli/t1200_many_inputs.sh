# Several FILEs, a directory, a glob (issue 12 item 1): the same files in
# the same order give the same output however they are named; a directory
# (and a glob) skip what is not a trace with a note naming it, a JSON file
# that is no trace too (issue 25); errors name the file.
G="$TMP/g"; mkdir "$G"
for r in 0 1 2; do
	"$GEN" --format kineto -n 300 --seed $((r + 5)) -o "$G/job_rank-$r.json" >/dev/null || fail "gpuprof-gen"
done
echo "not a trace" >"$G/README.txt"
echo '{"lr": 0.1, "batch_size": 32}' >"$G/job_rank-config.json"
echo '[0.5, 0.25, 0.125]' >"$G/losses.json"
mkdir "$G/sub"
for cmd in info summary advise ranges breakdown ranks; do
	run_ok "$GPUPROF" $cmd "$G/job_rank-0.json" "$G/job_rank-1.json" "$G/job_rank-2.json"
	mv "$TMP/out" "$TMP/files.out"
	run_ok "$GPUPROF" $cmd "$G"
	cmp -s "$TMP/out" "$TMP/files.out" || fail "$cmd: a directory differs from its files"
	assert_grep "^gpuprof $cmd: note: skipped $G/README.txt: not a recognised trace" "$TMP/err"
	assert_grep "^gpuprof $cmd: note: $G/sub skipped: a directory" "$TMP/err"
	assert_grep "^gpuprof $cmd: note: skipped $G/job_rank-config.json: not a PyTorch profiler trace: no traceEvents" "$TMP/err"
	assert_grep "^gpuprof $cmd: note: skipped $G/losses.json: not a trace: a JSON array whose first element is not an event" "$TMP/err"
	run_ok "$GPUPROF" $cmd "$G/job_rank-*.json"
	cmp -s "$TMP/out" "$TMP/files.out" || fail "$cmd: a glob differs from its files"
	assert_grep "^gpuprof $cmd: note: skipped $G/job_rank-config.json: not a PyTorch" "$TMP/err"
	# the order of the arguments does not matter: rows go by rank
	run_ok "$GPUPROF" $cmd "$G/job_rank-2.json" "$G/job_rank-0.json" "$G/job_rank-1.json"
	cmp -s "$TMP/out" "$TMP/files.out" || fail "$cmd: argument order changed the output"
done
# --help says which commands take several files
run_ok "$GPUPROF" --help
assert_grep '^FILE may also be several files, a directory or a quoted glob' "$TMP/out"
run_ok "$GPUPROF" summary --help
assert_grep '^usage: gpuprof summary \[OPTIONS\] FILE\.\.\.$' "$TMP/out"
assert_grep '^  -j, --jobs N' "$TMP/out"
run_ok "$GPUPROF" report --help
assert_grep '^usage: gpuprof report \[OPTIONS\] FILE$' "$TMP/out"
# a glob matching nothing, a directory without traces, a bad -j
expect_exit 3 "$GPUPROF" summary "$G/none*.json"
assert_eq "$(cat "$TMP/err")" "gpuprof: $G/none*.json: no file matches this pattern"
mkdir "$TMP/empty"
expect_exit 4 "$GPUPROF" breakdown "$TMP/empty"
assert_eq "$(cat "$TMP/err")" "gpuprof: $TMP/empty: no trace file in this directory"
expect_exit 4 "$GPUPROF" breakdown "$G/*config*"
assert_grep "^gpuprof: $G/\*config\*: no trace file matches this pattern" "$TMP/err"
# a file named on the command line is read whatever it holds
expect_exit 4 "$GPUPROF" breakdown "$G/job_rank-config.json" "$G/job_rank-0.json"
assert_grep "no traceEvents array" "$TMP/err"
expect_exit 2 "$GPUPROF" breakdown -j 0 "$G"
assert_grep "bad --jobs '0'" "$TMP/err"
# a file that fails among several: its error, nothing written, its exit code
printf '{"traceEvents": [' >"$TMP/rank-7.json"
expect_exit 4 "$GPUPROF" summary "$G" "$TMP/rank-7.json"
assert_grep "^gpuprof: $TMP/rank-7.json: " "$TMP/err"
[ ! -s "$TMP/out" ] || fail "output written although a file failed"
expect_exit 3 "$GPUPROF" ranks "$G" "$TMP/rank-9.json"
assert_grep "^gpuprof: $TMP/rank-9.json: cannot open: No such file or directory" "$TMP/err"
# commands of one file still refuse a directory
expect_exit 4 "$GPUPROF" report "$G"
assert_grep 'is a directory' "$TMP/err"
expect_exit 2 "$GPUPROF" report "$G/job_rank-0.json" "$G/job_rank-1.json"
assert_grep 'expected exactly one trace file' "$TMP/err"
