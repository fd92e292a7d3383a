# tier: slow (77 s in make check before the tiers, on the busy 2-core machine)
# Every nsys export in testdata loads, and `info` counts what sqlite3 counts
# in the same file (tables absent from a lazy export count 0).
need_testdata
command -v sqlite3 >/dev/null || skip "sqlite3 CLI not installed"

# cnt DB TABLE [WHERE]: rows of TABLE (0 when the table does not exist).
cnt() {
	if [ -n "$(sqlite3 "$1" "SELECT name FROM sqlite_master WHERE type='table' AND name='$2'")" ]; then
		sqlite3 "$1" "SELECT count(*) FROM $2 ${3:-}"
	else
		echo 0
	fi
}
# json_num KEY: the number for KEY in $TMP/out (info --format json).
json_num() { sed -n "s/^  \"$1\": \([0-9-]*\),\{0,1\}\$/\1/p" "$TMP/out"; }

n=0
for db in "$TESTDATA"/nsys/*/*.sqlite; do
	n=$((n + 1))
	run_ok "$GPUPROF" info --format json "$db"
	assert_grep '"format": "nsys"' "$TMP/out"
	k=$(($(cnt "$db" CUPTI_ACTIVITY_KIND_KERNEL) + $(cnt "$db" CUPTI_ACTIVITY_KIND_GRAPH_TRACE)))
	assert_eq "$(json_num kernels)" "$k" "$db kernels"
	assert_eq "$(json_num api_calls)" "$(cnt "$db" CUPTI_ACTIVITY_KIND_RUNTIME)" "$db api calls"
	assert_eq "$(json_num api_calls_runtime)" "$(cnt "$db" CUPTI_ACTIVITY_KIND_RUNTIME 'WHERE eventClass = 0')" "$db runtime calls"
	assert_eq "$(json_num api_calls_driver)" "$(cnt "$db" CUPTI_ACTIVITY_KIND_RUNTIME 'WHERE eventClass = 1')" "$db driver calls"
	assert_eq "$(json_num memcpy)" "$(cnt "$db" CUPTI_ACTIVITY_KIND_MEMCPY)" "$db memcpy"
	assert_eq "$(json_num memset)" "$(cnt "$db" CUPTI_ACTIVITY_KIND_MEMSET)" "$db memset"
	assert_eq "$(json_num synchronizations)" "$(cnt "$db" CUPTI_ACTIVITY_KIND_SYNCHRONIZATION)" "$db syncs"
	assert_eq "$(json_num nvtx_ranges)" "$(cnt "$db" NVTX_EVENTS 'WHERE eventType IN (59, 60, 70, 71)')" "$db nvtx ranges"
	assert_eq "$(json_num nvtx_marks)" "$(cnt "$db" NVTX_EVENTS 'WHERE eventType IN (34, 65)')" "$db nvtx marks"
	assert_eq "$(json_num threads)" "$(cnt "$db" ThreadNames)" "$db threads"
	assert_eq "$(json_num processes)" "$(cnt "$db" PROCESSES)" "$db processes"
	if [ "$(cnt "$db" CUPTI_ACTIVITY_KIND_MEMCPY)" != 0 ]; then
		assert_eq "$(json_num memcpy_bytes)" "$(sqlite3 "$db" 'SELECT sum(bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY')" "$db memcpy bytes"
	fi
	for meta in EXPORT_META_DATA META_DATA_EXPORT; do
		[ "$(cnt "$db" $meta)" = 0 ] && continue
		v=$(sqlite3 "$db" "SELECT value FROM $meta WHERE name = 'EXPORT_PRODUCT_VERSION'")
		assert_grep "\"tool\": \"nsys $v\"" "$TMP/out"
	done
	for id in $(sqlite3 "$db" 'SELECT DISTINCT id FROM TARGET_INFO_GPU'); do
		name=$(sqlite3 "$db" "SELECT name FROM TARGET_INFO_GPU WHERE id = $id LIMIT 1")
		python3 -c 'import json, sys; sys.exit(not any(g["id"] == int(sys.argv[2]) and g["name"] == sys.argv[3] for g in json.load(open(sys.argv[1]))["gpus"]))' "$TMP/out" "$id" "$name" ||
			fail "$db: no gpus entry with id $id and name $name"
	done
	if [ "$k" = 0 ]; then
		assert_grep 'no CUDA kernels were captured \(the export has no CUPTI_ACTIVITY_KIND_KERNEL table\)' "$TMP/out"
	else
		assert_no_grep 'no CUDA kernels' "$TMP/out"
	fi
done
[ "$n" -ge 5 ] || fail "expected at least 5 nsys exports in testdata, found $n"

# The no-kernel exports are valid traces (exit 0 with the note), in text too.
for db in "$TESTDATA"/nsys/*_nokernels/*.sqlite; do
	run_ok "$GPUPROF" info "$db"
	assert_grep '^kernels +0$' "$TMP/out"
	assert_grep 'no CUDA kernels were captured' "$TMP/out"
done
