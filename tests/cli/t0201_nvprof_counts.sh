# nvprof reader: the counts `info` reports equal what sqlite3 counts in the
# same files (kernels, API calls, NVTX ranges, memcpy, memset).
need_testdata
command -v sqlite3 >/dev/null || skip "sqlite3 CLI not installed"
files="nvprof/pyprof_lm_v100/net_da6bcc3.sql nvprof/pyprof_lm_v100/net_472e6c3_empty.sql
	nvprof/mxnet_titanv/timeline.nvvp"
# info --format json of every file, parsed by one python3 into "i<TAB>key<TAB>value"
i=0
for f in $files; do
	i=$((i + 1))
	run_ok "$GPUPROF" info --format json "$TESTDATA/$f"
	mv "$TMP/out" "$TMP/info$i.json"
done
python3 -c '
import json, sys
for i, path in enumerate(sys.argv[1:], 1):
    for k, v in json.load(open(path)).items():
        print(f"{i}\t{k}\t{v}")
' "$TMP"/info[0-9]*.json >"$TMP/info.tsv" || fail "info --format json is not JSON"
# get KEY: KEY's value in the info of file $i
get() { awk -F'\t' -v i="$i" -v k="$1" '$1 == i && $2 == k { print $3 }' "$TMP/info.tsv"; }
i=0
for f in $files; do
	i=$((i + 1))
	db=$TESTDATA/$f
	assert_eq "$(get format)" nvprof "$f format"
	assert_eq "$(get kernels)" "$(sqlite_count "$db" "select (select count(*) from CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) + (select count(*) from CUPTI_ACTIVITY_KIND_KERNEL)")" "$f kernels"
	assert_eq "$(get api_calls_runtime)" "$(sqlite_count "$db" "select count(*) from CUPTI_ACTIVITY_KIND_RUNTIME")" "$f runtime calls"
	assert_eq "$(get api_calls_driver)" "$(sqlite_count "$db" "select count(*) from CUPTI_ACTIVITY_KIND_DRIVER")" "$f driver calls"
	assert_eq "$(get nvtx_ranges)" "$(sqlite_count "$db" "select count(*) from CUPTI_ACTIVITY_KIND_MARKER where flags = 2")" "$f ranges"
	assert_eq "$(get nvtx_marks)" "$(sqlite_count "$db" "select count(*) from CUPTI_ACTIVITY_KIND_MARKER where flags = 1")" "$f marks"
	assert_eq "$(get memcpy)" "$(sqlite_count "$db" "select (select count(*) from CUPTI_ACTIVITY_KIND_MEMCPY) + (select count(*) from CUPTI_ACTIVITY_KIND_MEMCPY2)")" "$f memcpy"
	assert_eq "$(get memcpy_bytes)" "$(sqlite_count "$db" "select (select coalesce(sum(bytes),0) from CUPTI_ACTIVITY_KIND_MEMCPY) + (select coalesce(sum(bytes),0) from CUPTI_ACTIVITY_KIND_MEMCPY2)")" "$f memcpy bytes"
	assert_eq "$(get memset)" "$(sqlite_count "$db" "select count(*) from CUPTI_ACTIVITY_KIND_MEMSET")" "$f memset"
	assert_eq "$(get synchronizations)" "$(sqlite_count "$db" "select count(*) from CUPTI_ACTIVITY_KIND_SYNCHRONIZATION")" "$f syncs"
done
# Every kernel of both files with kernels finds its launch (runtime API).
run_ok "$GPUPROF" info --format json "$TESTDATA/nvprof/mxnet_titanv/timeline.nvvp"
assert_grep '"kernels_with_launch": 38' "$TMP/out"
python3 -c 'import json, sys; g = json.load(open(sys.argv[1]))["gpus"][0]; sys.exit(g["id"] != 0 or g["name"] != "TITAN V" or g["sm_count"] != 80 or g["compute_capability"] != "7.0")' "$TMP/out" || fail "gpus[0] of mxnet_titanv is not TITAN V, 80 SMs, cc 7.0"
# The empty database is valid: no kernels, a note that says why.
run_ok "$GPUPROF" info "$TESTDATA/nvprof/pyprof_lm_v100/net_472e6c3_empty.sql"
assert_grep 'no activity was recorded' "$TMP/out"
run_ok "$GPUPROF" report "$TESTDATA/nvprof/pyprof_lm_v100/net_472e6c3_empty.sql"
assert_grep 'has no kernels' "$TMP/err"
# Names: mangled kernels demangled and shortened, cbid mapped to API names.
run_ok "$GPUPROF" report -f csv -c kernel,longname,api "$TESTDATA/nvprof/pyprof_lm_v100/net_da6bcc3.sql"
assert_grep '^"indexSelectLargeIndex","void indexSelectLargeIndex<float, unsigned int, 2, 2, -2, true>\(TensorInfo' "$TMP/out"
assert_grep '^"fused_dropout_kernel","void at::native::\(anonymous namespace\)::fused_dropout_kernel<' "$TMP/out"
assert_grep '^"volta_sgemm_128x64_tn","volta_sgemm_128x64_tn","cudaLaunchKernel"$' "$TMP/out"
