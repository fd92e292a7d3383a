# tier: slow (it runs gpuprof on every shared trace: minutes on the busy 2-core machine)
# gpuprof breakdown on every shared trace and on generated ones: per device
# the span, union of busy time, compute, communication, memory, overlap and
# idle equal what tests/data/breakdown_oracle.py computes from the raw file
# (Python over the Kineto and rocprofv3 JSON, SQL over nsys/nvprof: on the
# generated traces at each run, on testdata once, into
# tests/data/breakdown_ref.tsv, by tests/tools/make-breakdown-ref.sh); in
# every window (device x iteration) compute + communication + memory + idle
# - overlap = span, busy <= span, the idle causes add up to idle; the
# streams view counts every kernel once.
command -v python3 >/dev/null || skip "python3 not installed"
check() { # trace [KEY: its lines in tests/data/breakdown_ref.tsv]
	run_ok "$GPUPROF" breakdown -f csv "$1"
	cp "$TMP/out" "$TMP/time.csv"
	run_ok "$GPUPROF" breakdown --view streams -f csv "$1"
	python3 tests/data/breakdown_oracle.py "$1" "$TMP/time.csv" "$TMP/out" \
		${2:+tests/data/breakdown_ref.tsv "$2"} >"$TMP/log" 2>&1 ||
		{ cat "$TMP/log" >&2; fail "$1: breakdown differs from the oracle"; }
}
for fmt in kineto nsys nvprof; do
	case $fmt in kineto) ext=json ;; nsys) ext=sqlite ;; *) ext=sql ;; esac
	run_ok "$GEN" --format $fmt -n 4000 --streams 3 --seed 21 -o "$TMP/g.$ext"
	check "$TMP/g.$ext"
	# the generator's NVTX iterations give per-iteration windows
	run_ok "$GPUPROF" breakdown -f csv --no-header "$TMP/g.$ext"
	[ "$(cut -d, -f2 "$TMP/out" | sort -u | wc -l)" -gt 2 ] || fail "$fmt: no iteration windows"
done
need_testdata
# The reference covers exactly the traces testdata has (one added or lost
# there: regenerate it with tests/tools/make-breakdown-ref.sh).
python3 tests/tools/trace_kind.py "$TESTDATA" kineto rocprof nsys nvprof >"$TMP/have" || fail "trace_kind.py"
awk -F'\t' '$2 == "#file" { print $1 }' tests/data/breakdown_ref.tsv >"$TMP/covered"
diff "$TMP/covered" "$TMP/have" >&2 || fail "testdata's traces differ from breakdown_ref.tsv's (< ref, > testdata)"
n=0
for f in $(cat "$TMP/have"); do
	check "$TESTDATA/$f" "$f"
	n=$((n + 1))
done
[ "$n" -ge 40 ] || fail "only $n shared traces found"
