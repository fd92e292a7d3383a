# Recordings of versions 2 and 3 (the collector's) that are damaged: each a clear
# message with file and line, exit 4; a recording cut by a crash (no end
# line, or a last line without its newline) is read up to its last
# complete chunk, with a note.  The inputs are the fuzz corpus's seeds
# (tests/fuzz/corpus/gprec/v2_*, v3_*).
C=tests/fuzz/corpus/gprec
bad() { # FILE MESSAGE
	expect_exit 4 "$GPUPROF" info "$C/$1"
	assert_grep "$C/$1: .*$2" "$TMP/err"
}
bad v2_kernel_fields.gprec 'line 2: kernel has 7 fields, expected 19'
bad v2_kernel_backwards.gprec 'line 2: kernel ends \(20\) before it starts \(30\)'
bad v2_memcpy_kind.gprec 'line 2: unknown memory kind in a memcpy'
bad v2_api_kind.gprec "line 2: api kind 'compiler' is not runtime or driver"
bad v2_device_number.gprec 'line 2: bad number in a device'
bad v2_bad_chunk.gprec 'line 4: the chunk line counts 5 lines, the chunk holds 2'
bad v2_no_chunk.gprec 'truncated: no end line after line 3'
bad version4.gprec 'recording version 4, this gpuprof reads versions 1 to 3'
bad v3_gnode_fields.gprec 'line 2: gnode has 6 fields, expected 7'
bad v3_gnode_zero.gprec 'line 2: bad number in a graph node'
bad v3_memcpy_v2_fields.gprec 'line 2: memcpy has 14 fields, expected 16'

# CUDA graph nodes: a node captured outside any range (captured, no op),
# a node that is its own original (a loop) and one whose clone the cut
# left out crash nothing; the replayed kernels are counted without op
f=$C/v3_graph_loop_truncated.gprec
run_ok "$GPUPROF" report -f csv --no-header -c graph,op "$f"
assert_eq "$(cat "$TMP/out")" "$(printf '"captured","na"\n"node-unseen","na"')" "kernels of unknown nodes"
run_ok "$GPUPROF" info "$f"
assert_grep 'recording truncated' "$TMP/out"
assert_grep '^graph replays +2 kernels' "$TMP/out"
assert_grep '^  with an op +0 of them' "$TMP/out"
assert_grep '^  without op +1 kernels, 1.000 us: captured where no op was open' "$TMP/out"
# a version 2 recording's graph lines are a later minor version's: ignored
sed '1s/3$/2/; /^memcpy/d; /^chunk/s/.*/chunk\t15/' tests/fuzz/corpus/gprec/v3_graphs.gprec >"$TMP/v2.gprec"
run_ok "$GPUPROF" report -f csv --no-header -c graph "$TMP/v2.gprec"
assert_eq "$(sort -u "$TMP/out")" '"no-capture"' "version 2: no graph nodes read"


# every record type, counted from the file's lines
f=$C/v2_all_records.gprec
run_ok "$GPUPROF" info "$f"
# a whole-graph launch (--cuda-graph-trace graph) is one kernel record
assert_grep "^kernels +$(grep -c '^\(kernel\|graph\)	' "$f")\$" "$TMP/out"
assert_grep "^api calls +$(grep -c '^api	' "$f")\$" "$TMP/out"
assert_grep "^memset +$(grep -c '^memset	' "$f")\$" "$TMP/out"
assert_grep "^synchronizations +$(grep -c '^sync	' "$f")\$" "$TMP/out"
assert_grep '^nvtx ranges +2$' "$TMP/out"
assert_grep '^cuda_graph_launches +1$' "$TMP/out"
assert_grep '^dropped_nvtx_ranges +2$' "$TMP/out"
assert_grep '^records_after_duration +5$' "$TMP/out"
assert_grep 'note 1 +CUPTI subscriber already in use' "$TMP/out"
assert_no_grep 'truncated' "$TMP/out"

# cut after a chunk: what follows the last chunk line is left out
f=$C/v2_truncated.gprec
run_ok "$GPUPROF" info "$f"
last=$(grep -n '^chunk	' "$f" | tail -1 | cut -d: -f1)
assert_grep "read up to its last complete chunk at line $last, $(($(wc -l <"$f") - last)) line\(s\) after it left out" "$TMP/out"
assert_grep '^nvtx ranges +0$' "$TMP/out"
assert_no_grep 'subscriber already in use' "$TMP/out"
# cut mid-line
f=$C/v2_cut_midline.gprec
run_ok "$GPUPROF" info "$f"
assert_grep 'recording truncated' "$TMP/out"
assert_grep "^kernels +$(grep -c '^\(kernel\|graph\)	.*	' "$f" | awk '{ print $1 - 1 }')\$" "$TMP/out"
# version 1 (libgpuprof) recordings are still read
run_ok "$GPUPROF" info "$C/valid_simple.gprec"
