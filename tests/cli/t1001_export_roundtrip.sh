# tier: slow (it runs gpuprof on every shared trace: minutes on the busy 2-core machine)
# The Perfetto export is a Kineto trace: on every trace in
# ../shared/testdata (Kineto, rocprofv3, nsys, nvprof), `report` on the
# export gives the same kernels, ops, attribution, model and times (to the
# nanosecond) as on the original, and `summary` the same tables; and each
# export under 4 MB is well-formed (tests/tools/perfetto_check.py; t1000
# checks every format, the larger ones only cost time here).  Capture traces
# are not read (--capture none): what a replayed kernel takes from its
# graph's capture trace does not travel with the export yet
# (docs/correlation.md, "Graph replays").
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
cols=kernel,op,mod,dir,seq,altseq,layer,iter,params,sil,start,end,device,stream,flops,bytes,tc,grid,block,corr,tid,latency,api,longname
# every trace, told by content (not vLLM's execution_details.json)
python3 tests/tools/trace_kind.py "$TESTDATA" kineto rocprof nsys nvprof | sed "s|^|$TESTDATA/|" >"$TMP/files" ||
	fail "trace_kind.py"
[ "$(wc -l <"$TMP/files")" -ge 30 ] || fail "fewer traces than expected in $TESTDATA"
while read -r f; do
	run_ok "$GPUPROF" export -o "$TMP/x.json" --force --capture none "$f"
	"$GPUPROF" report -f csv -c $cols --capture none "$f" >"$TMP/a.csv" 2>/dev/null
	"$GPUPROF" report -f csv -c $cols "$TMP/x.json" >"$TMP/b.csv" 2>/dev/null
	cmp -s "$TMP/a.csv" "$TMP/b.csv" || { diff "$TMP/a.csv" "$TMP/b.csv" | head >&2; fail "$f: report differs after the round trip"; }
	"$GPUPROF" summary -f csv --capture none "$f" >"$TMP/a.csv" 2>/dev/null
	"$GPUPROF" summary -f csv "$TMP/x.json" >"$TMP/b.csv" 2>/dev/null
	cmp -s "$TMP/a.csv" "$TMP/b.csv" || { diff "$TMP/a.csv" "$TMP/b.csv" | head >&2; fail "$f: summary differs after the round trip"; }
	[ "$(wc -c <"$TMP/x.json")" -gt 4000000 ] ||
		python3 tests/tools/perfetto_check.py "$TMP/x.json" >/dev/null || fail "$f: export is not well-formed"
done <"$TMP/files"
