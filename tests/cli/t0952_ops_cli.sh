# ops' options (issue 11 item 3): --help, bad arguments before any input is
# read, --sort by any column (times largest first, names A to Z, PyTorch's
# sort_by names), -n, --group-by shape and stack, the formats, --python, a
# CPU-only libgpuprof-like trace and the generated traces of every format;
# bad input never crashes.
run_ok "$GPUPROF" ops --help
assert_grep '^usage: gpuprof ops ' "$TMP/out"
assert_grep 'group-by KEY' "$TMP/out"
assert_grep ' --python ' "$TMP/out"
run_ok "$GPUPROF" --help
assert_grep '^  ops ' "$TMP/out"

expect_exit 2 "$GPUPROF" ops --group-by module /nonexistent
assert_grep "bad --by 'module'" "$TMP/err"
expect_exit 2 "$GPUPROF" ops --stack-depth 0 /nonexistent
assert_grep "bad --stack-depth '0'" "$TMP/err"
expect_exit 2 "$GPUPROF" ops --sort nope /nonexistent
assert_grep "bad --sort 'nope' \(a column key: name, self_cpu_pct, .*gpu_total_ns, .*calls, gflops or kind;" "$TMP/err"
expect_exit 2 "$GPUPROF" ops --python --sort nope /nonexistent
assert_grep "a column key: ncalls, tottime_ns, .*cumtime_ns, .* or function;" "$TMP/err"
# the shapes column exists only with --group-by shape
expect_exit 2 "$GPUPROF" ops --sort shapes /nonexistent

"$GEN" --format kineto -n 300 --seed 3 -o "$TMP/g.json" >/dev/null || fail "gpuprof-gen"
g=$TMP/g.json
# --sort: every numeric column descending, the name ascending
for col in self_cpu_ns cpu_total_ns self_gpu_ns gpu_total_ns calls cpu_avg_ns; do
	run_ok "$GPUPROF" ops -f json --sort $col "$g"
	sed -n "s/.*\"$col\":\([0-9.]*\).*/\1/p" "$TMP/out" >"$TMP/col"
	[ "$(wc -l <"$TMP/col")" -gt 5 ] || fail "--sort $col: few rows"
	sort -g -r "$TMP/col" | cmp -s - "$TMP/col" || fail "--sort $col is not descending"
done
run_ok "$GPUPROF" ops -f tsv --no-header --sort name "$g"
cut -f1 "$TMP/out" >"$TMP/names"
LC_ALL=C sort "$TMP/names" | cmp -s - "$TMP/names" || fail "--sort name is not A to Z"
# PyTorch's names and a key without its unit sort the same
run_ok "$GPUPROF" ops -f tsv --sort self_cuda_time_total "$g"
mv "$TMP/out" "$TMP/a"
run_ok "$GPUPROF" ops -f tsv --sort self_gpu "$g"
cmp -s "$TMP/a" "$TMP/out" || fail "--sort self_cuda_time_total differs from self_gpu"
# -n
run_ok "$GPUPROF" ops -f csv -n 3 "$g"
assert_eq "$(wc -l <"$TMP/out")" 4 "-n 3 lines"
# calls add up to the op and annotation ranges, whatever the grouping
run_ok "$GPUPROF" info -f json "$g"
calls=$(grep -c '"cat": *"\(cpu_op\|user_annotation\)"' "$g")
for grp in name shape stack; do
	run_ok "$GPUPROF" ops -f tsv --no-header --group-by $grp "$g"
	col=13
	[ $grp = name ] && col=12
	assert_eq "$(awk -F'\t' -v c=$col '{ n += $c } END { print n }' "$TMP/out")" "$calls" "calls by $grp"
done
run_ok "$GPUPROF" ops -f tsv --no-header --group-by shape --sort shapes "$g"
cut -f2 "$TMP/out" >"$TMP/shapes"
LC_ALL=C sort "$TMP/shapes" | cmp -s - "$TMP/shapes" || fail "--sort shapes is not A to Z"
run_ok "$GPUPROF" ops -f csv -n 1 --group-by shape "$g"
assert_grep '^"Name","Input Shapes","Self CPU share \(%\)"' "$TMP/out"
run_ok "$GPUPROF" ops -f csv -n 1 --group-by stack --stack-depth 2 "$g"
assert_grep '^"Name","Source Location","Self CPU share \(%\)"' "$TMP/out"
# the table: the header PyTorch users know
run_ok "$GPUPROF" ops -n 2 "$g"
assert_grep '^Name +Self CPU share +Self CPU +CPU total share +CPU total +CPU time avg +Self GPU +Self GPU share +GPU total +GPU total share +GPU time avg +# of Calls +Total GFLOPs +Kind$' "$TMP/out"

# every format the generator writes: exit 0, Self GPU over all rows at most
# the kernels' time, GPU total at least Self GPU in every row
for fmt in nsys nvprof kineto; do
	"$GEN" --format $fmt -n 300 --seed 5 -o "$TMP/g.$fmt" >/dev/null || fail "gpuprof-gen $fmt"
	run_ok "$GPUPROF" ops -f tsv --no-header "$TMP/g.$fmt"
	[ -s "$TMP/out" ] || fail "$fmt: no rows"
	awk -F'\t' '$9 < $7 { print "row " NR ": GPU total " $9 " < Self GPU " $7; bad = 1 }
		{ p += $8 } END { if (p > 100.5) { print "Self GPU % adds to " p; bad = 1 } exit bad }' "$TMP/out" >&2 ||
		fail "$fmt: GPU columns"
done

# a CPU-only trace with nested ranges (a libgpuprof recording's kind):
# Self CPU is the time outside the ranges inside
cat >"$TMP/rec.json" <<'JSON'
{"traceEvents": [
 {"ph": "X", "cat": "user_annotation", "name": "step", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
 {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 10, "dur": 30},
 {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 50, "dur": 20},
 {"ph": "X", "cat": "cpu_op", "name": "aten::empty", "pid": 1, "tid": 1, "ts": 55, "dur": 5}
]}
JSON
run_ok "$GPUPROF" ops -f tsv --no-header --sort name "$TMP/rec.json"
cut -f1,3,5,12 "$TMP/out" >"$TMP/got"
printf 'aten::empty\t5000\t5000\t1\naten::mm\t45000\t50000\t2\nstep\t50000\t100000\t1\n' >"$TMP/want"
diff "$TMP/want" "$TMP/got" >&2 || fail "CPU-only ranges"
# no python frames: --python prints the header only
run_ok "$GPUPROF" ops --python -f csv "$TMP/rec.json"
assert_eq "$(cat "$TMP/out")" '"ncalls","tottime (ns)","percall (ns)","cumtime (ns)","percall (ns)","filename:lineno(function)"' "empty python view"

# bad input: an error, never a crash
printf '{"traceEvents": [' >"$TMP/bad.json"
"$GPUPROF" ops "$TMP/bad.json" >/dev/null 2>&1; rc=$?
[ $rc -ge 1 ] && [ $rc -lt 128 ] || fail "truncated JSON: exit $rc"
: >"$TMP/empty.json"
"$GPUPROF" ops --python "$TMP/empty.json" >/dev/null 2>&1; rc=$?
[ $rc -ge 1 ] && [ $rc -lt 128 ] || fail "empty file: exit $rc"
# one vocabulary (issue 25): --by groups as -g/--group-by does; -c picks
# columns; times and sizes in human units in the table, raw in csv with
# the unit in the header
run_ok "$GPUPROF" ops -f tsv --no-header -g shape "$TMP/g.json"
cp "$TMP/out" "$TMP/g.tsv"
run_ok "$GPUPROF" ops -f tsv --no-header --by shape "$TMP/g.json"
cmp -s "$TMP/out" "$TMP/g.tsv" || fail "--by shape differs from -g shape"
run_ok "$GPUPROF" ops -f csv -n 2 -c name,self_gpu_ns,calls "$TMP/g.json"
assert_eq "$(head -1 "$TMP/out")" '"Name","Self GPU (ns)","# of Calls"'
assert_grep '^"[^"]*","[0-9]+","[0-9]+"$' "$TMP/out"
run_ok "$GPUPROF" ops -n 2 -c name,gpu_total_ns "$TMP/g.json"
assert_grep '^Name +GPU total$' "$TMP/out"
assert_grep ' [0-9.]+ (ns|us|ms|s)$' "$TMP/out"
expect_exit 2 "$GPUPROF" ops -c name,nope "$TMP/g.json"
assert_grep "unknown column 'nope' \(valid: name,self_cpu_pct," "$TMP/err"
expect_exit 2 "$GPUPROF" ops -c cpu_mem_bytes "$TMP/g.json"
assert_grep 'the memory columns need allocator events' "$TMP/err"
run_ok "$GPUPROF" ops --python -c ncalls,function -f csv "$TMP/g.json"
assert_eq "$(head -1 "$TMP/out")" '"ncalls","filename:lineno(function)"'
