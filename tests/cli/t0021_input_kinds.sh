# What is not a trace file gets a message naming what it is and the exit
# code --help documents (issue 10 item 8): 3 when the input cannot be read
# (missing, no permission, a pipe), 4 when it is not a trace (a directory
# for the commands of one file, a device, an empty file).  Every command
# loads the same way; those of several files read a directory's traces
# (issue 12; t1200).
"$GEN" --format nsys -n 20 --seed 1 -o "$TMP/ok.sqlite" >/dev/null || fail "gpuprof-gen"
mkdir "$TMP/dir"
cp "$TMP/ok.sqlite" "$TMP/dir/inside.sqlite"
: >"$TMP/empty"
for cmd in info report summary advise ranges; do
	if [ $cmd = report ]; then
		expect_exit 4 "$GPUPROF" $cmd "$TMP/dir"
		assert_eq "$(cat "$TMP/err")" "gpuprof: $TMP/dir: is a directory, not a trace file (give one trace file)"
	else
		# a directory of one trace: that trace, as if named
		run_ok "$GPUPROF" $cmd "$TMP/dir"
		mv "$TMP/out" "$TMP/dir.out"
		run_ok "$GPUPROF" $cmd "$TMP/dir/inside.sqlite"
		cmp -s "$TMP/out" "$TMP/dir.out" || fail "$cmd: a directory of one trace differs from the trace"
	fi
	expect_exit 4 "$GPUPROF" $cmd /dev/null
	assert_eq "$(cat "$TMP/err")" "gpuprof: /dev/null: is a character device, not a trace file"
	expect_exit 4 "$GPUPROF" $cmd "$TMP/empty"
	assert_eq "$(cat "$TMP/err")" "gpuprof: $TMP/empty: empty file, not a trace"
	expect_exit 3 "$GPUPROF" $cmd "$TMP/missing.sqlite"
	assert_eq "$(cat "$TMP/err")" "gpuprof: $TMP/missing.sqlite: cannot open: No such file or directory"
	run_ok "$GPUPROF" $cmd "$TMP/ok.sqlite"
done
# a directory given with a trailing slash, or through a symlink, is one too
ln -s "$TMP/dir" "$TMP/link"
expect_exit 4 "$GPUPROF" report "$TMP/link"
assert_grep 'is a directory' "$TMP/err"
expect_exit 4 "$GPUPROF" report "$TMP/dir/"
assert_grep 'is a directory' "$TMP/err"
# a FIFO is refused without opening it (opening would wait for a writer)
if mkfifo "$TMP/fifo" 2>/dev/null; then
	expect_exit 3 "$GPUPROF" info "$TMP/fifo"
	assert_eq "$(cat "$TMP/err")" "gpuprof: $TMP/fifo: is a pipe; gpuprof reads traces from regular files (save it to a file first)"
fi
# --help documents the codes
run_ok "$GPUPROF" info --help
assert_grep '^  3  cannot read the input \(missing, no permission, a pipe\)' "$TMP/out"
assert_grep '^     a directory \(for commands of one FILE\) or a device$' "$TMP/out"
# without read permission (root reads everything: skipped there)
if [ "$(id -u)" != 0 ]; then
	cp "$TMP/ok.sqlite" "$TMP/noread.sqlite"
	chmod 000 "$TMP/noread.sqlite"
	expect_exit 3 "$GPUPROF" info "$TMP/noread.sqlite"
	assert_eq "$(cat "$TMP/err")" "gpuprof: $TMP/noread.sqlite: cannot open: Permission denied"
fi
