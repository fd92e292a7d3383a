# tier: slow (it runs gpuprof on every shared trace: minutes on the busy 2-core machine)
# Kineto reader on every Kineto file in testdata: info, report and summary
# exit 0, and what they count equals what Python counted in the same JSON
# (tests/data/kineto_counts.tsv, made by tests/tools/kineto_counts.py):
# info's kernel/API/memcpy/memset/sync counts, report's rows and the sum of
# the kernels' Sil, summary's memcpy/memset/kernel calls.  Where launches
# were captured and the trace has ops, >= 95% of the captured kernels are
# attributed to an op; kernels a CUDA/HIP graph launch replays are not
# counted (their ops ran when the graph was captured, often in another
# trace: vLLM's graph_execution replays 361 kernels from hipGraphLaunch
# calls inside no op).
need_testdata
oracle=tests/data/kineto_counts.tsv

# The oracle lists exactly the Kineto files testdata has, told by content
# (tests/tools/trace_kind.py: not vLLM's execution_details.json, not a
# rocprofv3 JSON file); a file added or lost there means: regenerate the
# oracle, or find out what went missing.
python3 tests/tools/trace_kind.py "$TESTDATA" kineto >"$TMP/have" || fail "trace_kind.py"
grep -v '^#' "$oracle" | sed 1d | cut -f1 >"$TMP/want"
diff "$TMP/want" "$TMP/have" >&2 || fail "testdata's Kineto files differ from $oracle (< oracle, > testdata)"

# json_num KEY: the number for KEY in $TMP/info.json.
json_num() { sed -n "s/^  \"$1\": \([0-9-]*\),\{0,1\}\$/\1/p" "$TMP/info.json"; }

n=0
grep -v '^#' "$oracle" | sed 1d >"$TMP/rows"
while IFS='	' read -r f kernels api memcpy memset sync kernel_ns ops; do
	run_ok "$GPUPROF" info --format json "$TESTDATA/$f"
	mv "$TMP/out" "$TMP/info.json"
	assert_grep '"format": "kineto"' "$TMP/info.json"
	assert_eq "$(json_num kernels)" "$kernels" "$f kernels"
	assert_eq "$(json_num api_calls)" "$api" "$f api calls"
	assert_eq "$(json_num memcpy)" "$memcpy" "$f memcpy"
	assert_eq "$(json_num memset)" "$memset" "$f memset"
	assert_eq "$(json_num synchronizations)" "$sync" "$f synchronizations"

	run_ok "$GPUPROF" report -f tsv -c sil,api,op "$TESTDATA/$f"
	# rows, sum of Sil, kernels with a captured launch (not a graph
	# launch), those with an op
	set -- $(awk -F'\t' 'NR > 1 { n++; sil += $1; if ($2 != "na" && $2 !~ /GraphLaunch/) { c++; if ($3 != "na") o++ } }
		END { printf "%d %.0f %d %d\n", n, sil, c, o }' "$TMP/out")
	assert_eq "$1" "$kernels" "$f report rows"
	assert_eq "$2" "$kernel_ns" "$f sum of Sil (ns)"
	if [ "$3" -ge 20 ] && [ "$ops" -gt 0 ] && [ $(($4 * 100)) -lt $(($3 * 95)) ]; then
		fail "$f: only $4 of $3 captured kernels attributed to an op"
	fi

	# summary: one GPU-activities call per kernel, memcpy and memset event
	run_ok "$GPUPROF" summary -f csv "$TESTDATA/$f"
	set -- $(awk -F'","' '$1 == "\"GPU activities" {
			if ($10 ~ /^\[CUDA memcpy/) m += $4; else if ($10 ~ /^\[CUDA memset/) s += $4; else k += $4 }
		END { printf "%d %d %d\n", k, m, s }' "$TMP/out")
	assert_eq "$1" "$kernels" "$f summary kernel calls"
	assert_eq "$2" "$memcpy" "$f summary memcpy calls"
	assert_eq "$3" "$memset" "$f summary memset calls"
	n=$((n + 1))
done <"$TMP/rows"
[ "$n" -ge 30 ] || fail "only $n Kineto files in $oracle"
