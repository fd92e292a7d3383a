# tier: slow (71 s in make check before the tiers, on the busy 2-core machine)
# rocprofv3 JSON (rocprofiler-sdk-tool, `rocprofv3 --output-format json`):
# a small file with every section the reader reads (tests/tools/
# make_rocprof.py; its figures worked out by hand there), its tables before
# and after the records, gzipped: info, report, summary, ranges, memory and
# breakdown give those figures; on every rocprofv3 file of testdata, info's
# counts equal Python's count over the raw JSON (tests/data/
# rocprof_counts.tsv, made by tests/tools/rocprof_counts.py), report's rows
# and Sil add up to them, RCCL kernels are communication, and summary,
# breakdown, report, html, export, advise, memory and ops run.
command -v python3 >/dev/null || skip "python3 not installed"
python3 tests/tools/make_rocprof.py "$TMP/r.json" || fail "make_rocprof.py"
python3 tests/tools/make_rocprof.py "$TMP/last.json" --tables-last || fail "make_rocprof.py"
gzip -c "$TMP/r.json" >"$TMP/r.json.gz"
cols=kernel,longname,sil,start,grid,block,regs,smem,stream,device,api,corr,pid,tid
for f in r.json last.json r.json.gz; do
	run_ok "$GPUPROF" info -f json "$TMP/$f"
	python3 - "$TMP/out" <<'PY' || fail "$f: info"
import json, sys
d = json.load(open(sys.argv[1]))
want = dict(format="rocprof", processes=2, threads=3, kernels=5, kernel_ns=20000, api_calls=11,
            api_calls_runtime=9, api_calls_driver=1, nvtx_ranges=2, nvtx_marks=1, memcpy=3,
            memcpy_bytes=1060864, kernels_with_launch=5, start_ns=1000000050, end_ns=1000052000)
got = {k: d[k] for k in want}
assert got == want, (got, want)
assert [(g["id"], g["name"], g["sm_count"], g["compute_capability"], g["memory_bytes"]) for g in d["gpus"]] == \
    [(i, "AMD Instinct MI300X", 304, "9.4", 206141652992) for i in (0, 1)], d["gpus"]
assert d["metadata"] == {"hostname": "node1", "command": "/usr/bin/python3 train.py --steps 1"}, d["metadata"]
notes = " | ".join(d["notes"])
for n in ("1 kernel dispatches name a kernel_id that kernel_symbols does not list",
          "1 memory frees have no recorded allocation", "1 rocprofv3 records of other kinds"):
    assert n in notes, notes
PY
	run_ok "$GPUPROF" report -f csv -c $cols "$TMP/$f"
	cat >"$TMP/want.csv" <<'EOF'
"Kernel","LongName","Sil(ns)","Start(ns)","Grid","Block","Regs","SMem","Stream","Device","API","CorrId","PId","TId"
"matmul","matmul(float*, float*, float*, int)","2000","1000001000","256,1,1","256,1,1","48","3072","1","0","hipLaunchKernel","11","4242","4243"
"Cijk_Alik_Bljk_HHS_BH_MT128x128x32","Cijk_Alik_Bljk_HHS_BH_MT128x128x32","5000","1000004000","4,4,1","256,1,1","128","0","1","0","hipLaunchKernel","12","4242","4243"
"ncclDevKernel_Generic_1","ncclDevKernel_Generic_1(ncclDevKernelArgsStorage<4096ul>)","10000","1000005000","8,1,1","512,1,1","40","0","2","1","hipLaunchKernel","13","4242","4243"
"(unknown_kernel)","(unknown kernel)","1000","1000020000","1,1,1","64,1,1","0","0","1","0","hipLaunchKernel","14","4242","4243"
"softmax","softmax(float*, int)","2000","1000050000","8,1,1","128,1,1","24","0","1","0","hipLaunchKernel","1","5151","5152"
EOF
	diff "$TMP/want.csv" "$TMP/out" >&2 || fail "$f: report (< by hand, > gpuprof)"
	# the copies' kinds from the agents (CPU 100, GPUs 101 and 102), async from the call
	run_ok "$GPUPROF" summary -f csv "$TMP/$f"
	for row in '"6000","1",.*"\[CUDA memcpy HtoD\]"' '"1800","1",.*"\[CUDA memcpy DtoH\]"' \
		'"1000","1",.*"\[CUDA memcpy PtoP\]"' '"API calls",.*"5",.*"hipLaunchKernel"' \
		'"API calls",.*"roctxNameOsThread"' '"API calls",.*"hsa_queue_create"'; do
		assert_grep "$row" "$TMP/out"
	done
	run_ok "$GPUPROF" ranges -f csv "$TMP/$f"
	assert_grep '^"1","39300",.*"startend","epoch"$' "$TMP/out"
	assert_grep '^"1","15200",.*"push","forward"$' "$TMP/out"
	assert_grep '^"1","0",.*"mark","step 1"$' "$TMP/out"
	# memory: the free takes size and GPU from the allocation at its address
	run_ok "$GPUPROF" memory -f csv --no-header "$TMP/$f"
	assert_grep '^"0","2","1","1","1048576","1048576","1048576","150","0",.*,"1000000200"$' "$TMP/out"
	assert_grep '^"host","1","1","0","4096","0","4096",' "$TMP/out"
	# RCCL's kernel on GPU 1 is communication
	run_ok "$GPUPROF" breakdown -f csv --no-header "$TMP/$f"
	assert_grep '^"1","all","communication","10000",' "$TMP/out"
	assert_grep '^"0","all","communication","0",' "$TMP/out"
done
# an independent count over the raw JSON agrees
python3 tests/tools/rocprof_counts.py --file "$TMP/r.json" | sed 1d >"$TMP/py"
assert_eq "$(cut -f2- "$TMP/py")" "5	20000	11	9	1	2	1	3	1060864	2	1	10000" "rocprof_counts.py on the small file"

need_testdata
oracle=tests/data/rocprof_counts.tsv
# the oracle lists exactly testdata's rocprofv3 files (told by content)
python3 tests/tools/trace_kind.py "$TESTDATA" rocprof >"$TMP/have" || fail "trace_kind.py"
grep -v '^#' "$oracle" | sed 1d | cut -f1 >"$TMP/want"
diff "$TMP/want" "$TMP/have" >&2 || fail "testdata's rocprofv3 files differ from $oracle (< oracle, > testdata)"
n=0
grep -v '^#' "$oracle" | sed 1d >"$TMP/rows"
while IFS='	' read -r f kernels kernel_ns api runtime driver ranges marks memcpy bytes gpus comm_kernels comm_ns; do
	run_ok "$GPUPROF" info -f json "$TESTDATA/$f"
	python3 - "$TMP/out" "$kernels" "$kernel_ns" "$api" "$runtime" "$driver" "$ranges" "$marks" \
		"$memcpy" "$bytes" "$gpus" <<'PY' || fail "$f: info differs from $oracle"
import json, sys
d = json.load(open(sys.argv[1]))
keys = ("kernels", "kernel_ns", "api_calls", "api_calls_runtime", "api_calls_driver", "nvtx_ranges",
        "nvtx_marks", "memcpy", "memcpy_bytes")
got = [d[k] for k in keys] + [len(d["gpus"])]
want = [int(v) for v in sys.argv[2:]]
assert d["format"] == "rocprof" and got == want, (list(zip(keys + ("gpus",), got, want)))
PY
	run_ok "$GPUPROF" report -f tsv -c sil "$TESTDATA/$f"
	assert_eq "$(awk 'NR > 1 { n++; s += $1 } END { printf "%d %.0f", n, s }' "$TMP/out")" "$kernels $kernel_ns" \
		"$f: report rows and sum of Sil"
	# RCCL's share of the kernel time: summary's kernels of those names
	run_ok "$GPUPROF" summary -f csv "$TESTDATA/$f"
	got=$(awk -F'","' '$1 == "\"GPU activities" && $10 ~ /^(nccl(Dev)?Kernel_|rccl)/ { s += $3 } END { printf "%.0f", s }' "$TMP/out")
	assert_eq "$got" "$comm_ns" "$f: summary's RCCL kernel time"
	# communication in breakdown: RCCL's kernels and nothing else (their union <= their sum)
	run_ok "$GPUPROF" breakdown -f csv --no-header "$TESTDATA/$f"
	comm=$(awk -F'","' '$2 == "all" && $3 == "communication" { s += $4 } END { printf "%.0f", s }' "$TMP/out")
	[ "$comm_ns" = 0 ] || [ "$comm" -gt 0 ] || fail "$f: no communication"
	[ "$comm" -le "$comm_ns" ] || fail "$f: communication $comm ns exceeds RCCL's kernel time $comm_ns"
	run_ok "$GPUPROF" html -o "$TMP/r.html" --force "$TESTDATA/$f"
	assert_grep '"format":"rocprof"' "$TMP/r.html"
	run_ok "$GPUPROF" export -o "$TMP/r.trace.json" --force "$TESTDATA/$f"
	for cmd in advise memory ops ranges; do
		run_ok "$GPUPROF" $cmd "$TESTDATA/$f"
	done
	n=$((n + 1))
done <"$TMP/rows"
[ "$n" -ge 1 ] || fail "no rocprofv3 file in $oracle"
