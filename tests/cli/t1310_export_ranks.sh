# gpuprof export -f perfetto of several rank files (a directory, a glob,
# files): one well-formed trace (perfetto_check.py: the fields each ph
# needs, flows on written slices, idle time); every process in one rank's
# group, pids never shared by two files, ranks sorted, flows within a
# rank, each rank with its file's own export's kernels, calls, ranges and
# flows (perfetto_ranks.py); read back by `gpuprof report`, each rank's
# GPU (a device of its own) has the kernels, ops, layers, times, params
# and launch calls report gives on the file alone.  On generated Kineto
# and nsys ranks and on HTA's two sampled ranks of a 128-rank job.
command -v python3 >/dev/null || skip "python3 not installed"
run_ok "$GEN" --format kineto --ranks 4 --iters 3 -o "$TMP/k"
run_ok "$GEN" --format nsys --ranks 2 --iters 2 -o "$TMP/n"
sets="$TMP/k $TMP/n"
[ -n "$TESTDATA" ] && [ -d "$TESTDATA" ] && sets="$sets $TESTDATA/hta/trace_filter"
cols=stream,kernel,op,mod,layer,dir,iter,params,start,end,flops,bytes,api,grid,block
for d in $sets; do
	run_ok "$GPUPROF" export -o "$TMP/all.json" --force "$d"
	run_ok "$GPUPROF" report -f csv -c start,end,device "$TMP/all.json"
	python3 tests/tools/perfetto_check.py "$TMP/all.json" "$TMP/out" ||
		fail "$d: the export of its ranks is not a well-formed trace"
	ones=""
	for f in "$d"/*; do
		r=$(echo "$f" | sed 's/.*rank[-_]\{0,1\}\([0-9]*\).*/\1/')
		run_ok "$GPUPROF" export -o "$TMP/one$r.json" --force "$f"
		ones="$ones $r=$TMP/one$r.json"
		[ "$d" = "$TMP/k" ] && cp "$TMP/one$r.json" "$TMP/k$r.json"
	done
	# shellcheck disable=SC2086
	python3 tests/tools/perfetto_ranks.py "$TMP/all.json" $ones >"$TMP/gpus" ||
		fail "$d: the ranks of the export"
	[ -s "$TMP/gpus" ] || fail "$d: no GPU process"
	run_ok "$GPUPROF" report -f csv --no-header -c device,$cols "$TMP/all.json"
	mv "$TMP/out" "$TMP/all.csv"
	while read -r r pid; do
		f=$(ls "$d"/* | grep "rank[-_]\{0,1\}$r\.")
		run_ok "$GPUPROF" report -f csv --no-header -c $cols "$f"
		sort "$TMP/out" >"$TMP/want.csv"
		[ -s "$TMP/want.csv" ] || fail "$f: no kernels"
		awk -F, -v d="\"$pid\"" '$1 == d' "$TMP/all.csv" | cut -d, -f2- | sort >"$TMP/got.csv"
		cmp -s "$TMP/got.csv" "$TMP/want.csv" || { diff "$TMP/want.csv" "$TMP/got.csv" | head >&2;
			fail "$f: report on the export, device $pid, is not report on the file"; }
	done <"$TMP/gpus"
done
# the same files as a glob and as arguments give the same document
run_ok "$GPUPROF" export -o "$TMP/a.json" "$TMP/k/rank-*.json"
run_ok "$GPUPROF" export -o "$TMP/b.json" "$TMP/k/rank-0.json" "$TMP/k/rank-1.json" "$TMP/k/rank-2.json" \
	"$TMP/k/rank-3.json"
cmp -s "$TMP/a.json" "$TMP/b.json" || fail "a glob and its files give different exports"
# the order of the arguments changes the pids, not the ranks' order in the UI
run_ok "$GPUPROF" export -o "$TMP/c.json" "$TMP/k/rank-3.json" "$TMP/k/rank-1.json" "$TMP/k/rank-0.json" \
	"$TMP/k/rank-2.json"
python3 tests/tools/perfetto_ranks.py "$TMP/c.json" 0="$TMP/k0.json" 1="$TMP/k1.json" 2="$TMP/k2.json" \
	3="$TMP/k3.json" >/dev/null || fail "ranks given out of order"
# a window cuts each file; an iteration a rank lacks fails the whole export
run_ok "$GPUPROF" export --iter 1 -o "$TMP/w.json" "$TMP/k"
run_ok "$GPUPROF" report -f csv -c start,end,device "$TMP/w.json"
python3 tests/tools/perfetto_check.py "$TMP/w.json" "$TMP/out" >/dev/null || fail "windowed export"
n=0
for f in "$TMP"/k/*; do
	run_ok "$GPUPROF" report -f csv --no-header -c kernel --iter 1 "$f"
	n=$((n + $(wc -l <"$TMP/out")))
done
run_ok "$GPUPROF" report -f csv --no-header -c kernel "$TMP/w.json"
assert_eq "$(wc -l <"$TMP/out")" "$n" "--iter 1 over the ranks: kernels"
expect_exit 2 "$GPUPROF" export --iter 9 -o "$TMP/none.json" "$TMP/k"
[ ! -e "$TMP/none.json" ] || fail "a failed export of several files left its output"
# a file that is not a trace stops the export, naming it; no output is left
cp "$TMP/k/rank-1.json" "$TMP/ok.json"
printf '{"traceEvents": [' >"$TMP/bad.json"
expect_exit 4 "$GPUPROF" export -o "$TMP/bad.out.json" "$TMP/ok.json" "$TMP/bad.json"
assert_grep "bad.json" "$TMP/err"
[ ! -e "$TMP/bad.out.json" ] || fail "a failed export left its output file"
expect_exit 2 "$GPUPROF" export --per-rank "$TMP/k"
expect_exit 3 "$GPUPROF" export "$TMP/k/rank-9*.json"
