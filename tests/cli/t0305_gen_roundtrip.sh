# Our own readers load what gen writes: the kernel, API call and range
# counts `info` reports equal the rows sqlite3 counts, and every kernel
# finds its launch.
command -v python3 >/dev/null || skip "python3 not installed"
for f in nsys nvprof; do
	db=$TMP/g.$f
	run_ok "$GEN" --format $f -n 2500 --streams 3 -o "$db"
	run_ok "$GPUPROF" info --format json "$db"
	if [ $f = nsys ]; then
		api=$(sqlite3 "$db" 'select count(*) from CUPTI_ACTIVITY_KIND_RUNTIME')
		ranges=$(sqlite3 "$db" 'select count(*) from NVTX_EVENTS')
	else
		api=$(sqlite3 "$db" 'select count(*) from CUPTI_ACTIVITY_KIND_RUNTIME')
		ranges=$(sqlite3 "$db" 'select count(*) from CUPTI_ACTIVITY_KIND_MARKER where flags = 2')
	fi
	python3 - "$TMP/out" 2500 "$api" "$ranges" <<'PY' || fail "$f: info counts differ from sqlite3"
import json, sys
d = json.load(open(sys.argv[1]))
want = dict(kernels=int(sys.argv[2]), api=int(sys.argv[3]), ranges=int(sys.argv[4]))
got = dict(kernels=d["kernels"], api=d["api_calls"], ranges=d["nvtx_ranges"])
assert got == want and d["kernels_with_launch"] == want["kernels"], (got, want, d)
PY
done
