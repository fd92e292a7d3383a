# tier: slow (91 s in make check before the tiers, on the busy 2-core machine)
# rocprofv3 CSV (its default output format: PREFIX_kernel_trace.csv and the
# files of its run beside it): the CSV files rocprofv3 writes for the small
# run of tests/tools/make_rocprof.py (tests/tools/rocprof_to_csv.py, after
# rocprofiler-sdk's generateCSV.cpp), in the current column set, the one
# before ROCm 6.4 and with type-relative agents, give the figures worked
# out by hand (the small file's, t0507, less what CSV does not record: copy
# sizes, start/stop vs push/pop); the shared MI350X run written as CSV reads
# as its JSON does (43,915 kernels, 4.44 s, the same rows, RCCL as
# communication); damaged and odd files exit 4 naming the file and line.
command -v python3 >/dev/null || skip "python3 not installed"
python3 tests/tools/make_rocprof.py "$TMP/r.json" --one-process || fail "make_rocprof.py"
for v in new legacy rel; do
	case $v in new) o= ;; legacy) o=--legacy ;; rel) o=--type-relative ;; esac
	# shellcheck disable=SC2086
	python3 tests/tools/rocprof_to_csv.py "$TMP/r.json" "$TMP/$v" $o || fail "rocprof_to_csv.py $o"
done
[ "$(ls "$TMP/new" | tr '\n' ' ')" = "4242_agent_info.csv 4242_hip_api_trace.csv 4242_hsa_api_trace.csv \
4242_kernel_trace.csv 4242_marker_api_trace.csv 4242_memory_allocation_trace.csv 4242_memory_copy_trace.csv " ] ||
	fail "the CSV files of the run: $(ls "$TMP/new")"

for v in new legacy rel; do
	f=$TMP/$v/4242_kernel_trace.csv
	run_ok "$GPUPROF" info -f json "$f"
	python3 - "$TMP/out" <<'PY' || fail "$v: info"
import json, sys
d = json.load(open(sys.argv[1]))
want = dict(format="rocprof-csv", processes=1, threads=2, kernels=4, kernel_ns=18000, api_calls=10,
            api_calls_runtime=8, api_calls_driver=1, nvtx_ranges=2, nvtx_marks=1, memcpy=3,
            memcpy_bytes=0, kernels_with_launch=4, start_ns=1000000050, end_ns=1000036100)
got = {k: d[k] for k in want}
assert got == want, (got, want)
# agent_info names no memory size
assert [(g["id"], g["name"], g["sm_count"], g["compute_capability"]) for g in d["gpus"]] == \
    [(i, "AMD Instinct MI300X", 304, "9.4") for i in (0, 1)], d["gpus"]
notes = " | ".join(d["notes"])
for n in ("1 kernel dispatches have no Kernel_Name", "1 memory frees have no recorded allocation",
          "CSV records no memory copy sizes: 3 copies"):
    assert n in notes, notes
PY
	run_ok "$GPUPROF" report -f csv -c kernel,longname,sil,start,grid,block,regs,smem,stream,device,api,corr,pid,tid "$f"
	# by hand: the registers and static LDS are the CSV's columns since ROCm
	# 6.4 (LDS_Block_Size: the kernel's 1024 bytes; VGPR 32 + accumulation
	# VGPR 16), before it the dispatch's Group_Segment_Size (3072) and no
	# registers; the stream is Stream_Id, before 6.4 the queue (7)
	case $v in
	legacy) r1=0 s1=3072 r2=0 r3=0 q1=7 q2=7 ;;
	*) r1=48 s1=1024 r2=128 r3=40 q1=1 q2=2 ;;
	esac
	cat >"$TMP/want.csv" <<EOF
"Kernel","LongName","Sil(ns)","Start(ns)","Grid","Block","Regs","SMem","Stream","Device","API","CorrId","PId","TId"
"matmul","matmul(float*, float*, float*, int)","2000","1000001000","256,1,1","256,1,1","$r1","$s1","$q1","0","hipLaunchKernel","11","4242","4243"
"Cijk_Alik_Bljk_HHS_BH_MT128x128x32","Cijk_Alik_Bljk_HHS_BH_MT128x128x32","5000","1000004000","4,4,1","256,1,1","$r2","0","$q1","0","hipLaunchKernel","12","4242","4243"
"ncclDevKernel_Generic_1","ncclDevKernel_Generic_1(ncclDevKernelArgsStorage<4096ul>)","10000","1000005000","8,1,1","512,1,1","$r3","0","$q2","1","hipLaunchKernel","13","4242","4243"
"(unknown_kernel)","(unknown kernel)","1000","1000020000","1,1,1","64,1,1","0","0","$q1","0","hipLaunchKernel","14","4242","4243"
EOF
	diff "$TMP/want.csv" "$TMP/out" >&2 || fail "$v: report (< by hand, > gpuprof)"
	# the copies' kinds from their agents (CPU node 0, GPUs 1 and 2)
	run_ok "$GPUPROF" summary -f csv "$f"
	for row in '"6000","1",.*"\[CUDA memcpy HtoD\]"' '"1800","1",.*"\[CUDA memcpy DtoH\]"' \
		'"1000","1",.*"\[CUDA memcpy PtoP\]"' '"API calls",.*"4",.*"hipLaunchKernel"' \
		'"API calls",.*"roctxNameOsThread"' '"API calls",.*"hsa_queue_create"'; do
		assert_grep "$row" "$TMP/out"
	done
	# ROCTx ranges by their message; a start/stop range reads as push/pop
	run_ok "$GPUPROF" ranges -f csv "$f"
	assert_grep '^"1","39300",.*"push","epoch"$' "$TMP/out"
	assert_grep '^"1","15200",.*"push","forward"$' "$TMP/out"
	assert_grep '^"1","0",.*"mark","step 1"$' "$TMP/out"
	# memory: the free takes size and GPU from the allocation at its address
	run_ok "$GPUPROF" memory -f csv --no-header "$f"
	assert_grep '^"0","2","1","1","1048576","1048576","1048576","150","0",.*,"1000000200"$' "$TMP/out"
	assert_grep '^"host","1","1","0","4096","0","4096",' "$TMP/out"
	run_ok "$GPUPROF" breakdown -f csv --no-header "$f"
	assert_grep '^"1","all","communication","10000",' "$TMP/out"
done
# the JSON of the same run gives the same rows where CSV records the same
cols=kernel,longname,sil,start,grid,block,regs,stream,device,api,corr,pid,tid
run_ok "$GPUPROF" report -f csv -c $cols "$TMP/r.json"
cp "$TMP/out" "$TMP/json.csv"
run_ok "$GPUPROF" report -f csv -c $cols "$TMP/new/4242_kernel_trace.csv"
diff "$TMP/json.csv" "$TMP/out" >&2 || fail "CSV and JSON of one run differ (< JSON, > CSV)"

# alone (no siblings by its name), a kernel trace still reads, with a note
cp "$TMP/new/4242_kernel_trace.csv" "$TMP/kernels.csv"
run_ok "$GPUPROF" info "$TMP/kernels.csv"
assert_grep 'read alone' "$TMP/out"
assert_grep '^kernels +4$' "$TMP/out"
# no agent_info: the kernels' agents are GPUs numbered as they appear
mkdir "$TMP/noagents" && cp "$TMP/new/4242_kernel_trace.csv" "$TMP/noagents/"
run_ok "$GPUPROF" report -f tsv --no-header -c kernel,device "$TMP/noagents/4242_kernel_trace.csv"
assert_eq "$(cut -f2 "$TMP/out" | tr '\n' ' ')" "0 0 1 0 " "devices without agent_info"

# damaged and odd input: exit 4, the file and line named
k=$TMP/bad/1_kernel_trace.csv
mkdir "$TMP/bad"
head -n 1 "$TMP/new/4242_kernel_trace.csv" >"$TMP/header"
# bad_row ROW COMMAND MESSAGE: a kernel trace of the header and ROW exits 4
# with MESSAGE (a regex)
bad_row() {
	{ cat "$TMP/header"; printf '%s\n' "$1"; } >"$k"
	expect_exit 4 "$GPUPROF" "$2" "$k"
	assert_grep "$3" "$TMP/err"
}
bad_row '"KERNEL_DISPATCH","Agent 1",7' info \
	"1_kernel_trace.csv: line 2 has 3 fields, the header 22 \(a truncated file\?\)"
bad_row '"KERNEL_DISPATCH","Agent 1",7,1,1,1,1,"k",1,1000,x2000,0,0,0,0,0,64,1,1,64,1,1' summary \
	"line 2: End_Timestamp is 'x2000', expected a number"
bad_row '"KERNEL_DISPATCH","Agent 1",7,1,1,1,1,"never closed,1,1000,2000' report \
	"a quoted field of line 2 is not closed at the end of the file"
bad_row '"KERNEL_DISPATCH","Agent 1",7,1,1,1,1,"k",1,,2000,0,0,0,0,0,64,1,1,64,1,1' info \
	"line 2: no Start_Timestamp"
# a quote inside a name rocprofv3 did not escape, "" as a quote, CRLF lines
{ cat "$TMP/header"; printf '"KERNEL_DISPATCH","Agent 1",7,1,1,1,1,"operator""""_x<"a">(int)",1,1000,2000,0,0,0,0,0,64,1,1,64,1,1\r\n'; } >"$k"
run_ok "$GPUPROF" report -f tsv --no-header -c longname,sil "$k"
assert_eq "$(cat "$TMP/out")" 'operator""_x<"a">(int)	1000' "quotes in a name"
# a sibling of another kind where a file of the run belongs
printf '"Node_Id","Agent_Type"\n' >"$TMP/bad/1_memory_copy_trace.csv"
expect_exit 4 "$GPUPROF" info "$k"
assert_grep "1_memory_copy_trace.csv: a rocprofv3 agent info where its .* was expected|1_memory_copy_trace.csv: a rocprofv3 agent info" "$TMP/err"
rm "$TMP/bad/1_memory_copy_trace.csv"
# a header only: a run without kernels; an API trace alone is no trace
cp "$TMP/header" "$k"
run_ok "$GPUPROF" info "$k"
assert_grep '^kernels +0$' "$TMP/out"
expect_exit 4 "$GPUPROF" info "$TMP/new/4242_hip_api_trace.csv"

need_testdata
# the shared MI350X run written as rocprofv3 would have written it as CSV
f=$TESTDATA/tracelens/rocprof/908_results.json.gz
python3 tests/tools/rocprof_to_csv.py "$f" "$TMP/908" || fail "rocprof_to_csv.py on the shared file"
c=$TMP/908/908_kernel_trace.csv
run_ok "$GPUPROF" info -f json "$c"
python3 - "$TMP/out" <<'PY' || fail "908 CSV: info"
import json, sys
d = json.load(open(sys.argv[1]))
# tests/data/rocprof_counts.tsv: Python's count over the raw JSON
assert (d["kernels"], d["kernel_ns"]) == (43915, 4441741378), (d["kernels"], d["kernel_ns"])
assert [(g["id"], g["name"]) for g in d["gpus"]] == [(i, "AMD Instinct MI350X") for i in range(8)], d["gpus"]
PY
grep -q '908_results.json.gz	43915	4441741378	' tests/data/rocprof_counts.tsv || fail "the oracle changed"
cols=kernel,longname,sil,start,grid,block,regs,stream,device
for cmd in "report -f tsv -c $cols" "summary -f csv" "breakdown -f csv" "advise -f json"; do
	# shellcheck disable=SC2086
	run_ok "$GPUPROF" $cmd "$f"
	cp "$TMP/out" "$TMP/json.out"
	# shellcheck disable=SC2086
	run_ok "$GPUPROF" $cmd "$c"
	sed 's/908_kernel_trace.csv/908_results.json.gz/; s|'"$TMP/908"'|'"$TESTDATA/tracelens/rocprof"'|' \
		"$TMP/out" >"$TMP/csv.out"
	cmp -s "$TMP/json.out" "$TMP/csv.out" || { diff "$TMP/json.out" "$TMP/csv.out" | head -5 >&2; fail "908: $cmd differs between JSON and CSV"; }
done
# RCCL's kernels are communication: 4158756678 ns, the oracle's
run_ok "$GPUPROF" breakdown -f csv --no-header "$c"
assert_grep '^"0","all","communication","4158756678",' "$TMP/out"
run_ok "$GPUPROF" html -o "$TMP/908.html" "$c"
[ -s "$TMP/908.html" ] || fail "html wrote nothing"
