# Every input in ../shared/crashers once ended a released build with a
# signal; each command must now answer it with a result or a message and a
# documented exit code (0-4).
need_testdata
dir=$TESTDATA/../crashers
[ -d "$dir" ] || fail "$dir is missing"
n=0
for f in "$dir"/*; do
	case $f in *.md) continue ;; esac
	for cmd in info report summary advise ranges; do
		"$GPUPROF" $cmd "$f" >"$TMP/out" 2>"$TMP/err"; rc=$?
		[ $rc -le 4 ] || { cat "$TMP/err" >&2; fail "gpuprof $cmd $(basename "$f") exited $rc"; }
		[ $rc = 0 ] || [ -s "$TMP/err" ] || fail "gpuprof $cmd $(basename "$f") exited $rc without a message"
	done
	n=$((n+1))
done
[ $n -gt 0 ] || fail "no inputs in $dir"
# the shared-correlation-id case: one kernel, attributed to conv2d
run_ok "$GPUPROF" report -f csv -c op,kernel "$dir/kineto-shared-correlation-id.json"
assert_grep '^"conv2d","k"$' "$TMP/out"
