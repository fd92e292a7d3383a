# A collector recording gives what an nsys export of the same run gives:
# a real export (mmagic, PyTorch with PyProf NVTX markers, A100) written as
# a format-2 recording by tests/tools/nsys_to_gprec.py (CUPTI's numbering
# from CUDA's headers, mangled kernel names, as the collector writes), then
# PyProf's report columns, ops, ranges, breakdown and advise must be the
# same on both files, and summary's numbers (its long names differ: nsys
# demangles in its own style, gpuprof with libiberty).
need_testdata
src=$TESTDATA/nsys/mmagic_vsr_a100_2024.2/net.sqlite
inc=${CUDA_HOME:-/usr/local/cuda}/include
[ -f "$inc/cupti_runtime_cbid.h" ] || skip "no CUDA headers for the callback ids ($inc)"
rec=$TMP/mmagic.gprec
python3 tests/tools/nsys_to_gprec.py "$src" "$rec" "$inc" || fail "conversion failed"
run_ok "$GPUPROF" info "$rec"
assert_grep '^kernels +328$' "$TMP/out"
assert_grep '^kernels with launch +328$' "$TMP/out"
same() { # CMD...: the same output on the export and on the recording
	"$GPUPROF" "$@" "$src" >"$TMP/nsys.out" 2>&1 || fail "gpuprof $* on the export"
	"$GPUPROF" "$@" "$rec" >"$TMP/rec.out" 2>&1 || fail "gpuprof $* on the recording"
	diff "$TMP/nsys.out" "$TMP/rec.out" >"$TMP/diff" || { head -20 "$TMP/diff"; fail "gpuprof $* differs"; }
}
same report -f tsv -c idx,seq,altseq,tid,layer,trace,dir,sub,mod,op,kernel,params,sil,tc,device,stream,grid,block,flops,bytes,api
same ops -f tsv
same ranges -f tsv
same breakdown -f tsv
same advise -f tsv
"$GPUPROF" summary -f tsv "$src" | cut -f1-9 | sort >"$TMP/nsys.sum"
"$GPUPROF" summary -f tsv "$rec" | cut -f1-9 | sort >"$TMP/rec.sum"
cmp "$TMP/nsys.sum" "$TMP/rec.sum" || { diff "$TMP/nsys.sum" "$TMP/rec.sum" | head; fail "summary's numbers differ"; }
