# tier: slow (29 s in make check before the tiers, on the busy 2-core machine)
# nvprof reader on damaged and odd databases: exit 4 with a message naming
# the file (and the table where it can), or a valid result with a note;
# never a crash.  Fixtures: tests/fuzz/make-nvprof-corpus.sh.
command -v sqlite3 >/dev/null || skip "sqlite3 CLI not installed"
tests/fuzz/make-nvprof-corpus.sh "$TMP/db" || fail "cannot build fixtures"
db=$TMP/db

expect_exit 4 "$GPUPROF" report "$db/truncated.nvvp"
assert_grep 'truncated.nvvp: .*(malformed|truncated SQLite database)' "$TMP/err"
expect_exit 4 "$GPUPROF" info "$db/flipped.nvvp"
assert_grep 'flipped.nvvp: ' "$TMP/err"
expect_exit 4 "$GPUPROF" info "$db/badcolumns.nvvp"
assert_grep 'badcolumns.nvvp: cannot read runtime API calls \(CUPTI_ACTIVITY_KIND_RUNTIME\)' "$TMP/err"

# A database with only a StringTable, and one with empty tables: valid.
run_ok "$GPUPROF" info "$db/stringtable-only.nvvp"
assert_grep '^format +nvprof' "$TMP/out"
assert_grep 'no activity was recorded' "$TMP/out"
run_ok "$GPUPROF" report "$db/empty.nvvp"
assert_grep 'has no kernels' "$TMP/err"

# Odd values: unpaired markers and duplicated kernel tables are noted.
run_ok "$GPUPROF" info "$db/odd.nvvp"
assert_grep 'NVTX ranges have a start but no end' "$TMP/out"
assert_grep 'NVTX range ends have no start' "$TMP/out"
assert_grep 'kernels were in both kernel tables' "$TMP/out"
assert_grep 'end before they start' "$TMP/out"

# The small database, checked by hand: a linear fprop GEMM and its bias
# kernel (sub 0, 1, layer Block1), then a backward GEMM launched on another
# thread (signed threadId) that inherits linear from seq 3.
run_ok "$GPUPROF" report -f csv -c idx,seq,dir,sub,mod,op,kernel,layer,tid,latency,api,sil,grid,block,smem "$db/small.nvvp"
assert_eq "$(sed -n 2p "$TMP/out")" '"0","3","fprop","0","torch.nn.functional","linear","volta_sgemm_128x64_tn","Block1","7","500","cudaLaunchKernel","200","1,1,1","128,1,1","0"'
assert_eq "$(sed -n 3p "$TMP/out")" '"1","3","fprop","1","torch.nn.functional","bias","elementwise_kernel","Block1","7","600","cudaLaunchKernel","100","2,1,1","512,1,1","0"'
assert_eq "$(sed -n 4p "$TMP/out")" '"2","3","bprop","0","torch.nn.functional","linear","volta_sgemm_128x64_tn","Block1","3590305536","300","cudaLaunchKernel","100","4,1,1","256,1,1","1024"'

# Truncating and damaging a real database.
if [ -n "$TESTDATA" ] && [ -f "$TESTDATA/nvprof/pyprof_lm_v100/net_da6bcc3.sql" ]; then
	real=$TESTDATA/nvprof/pyprof_lm_v100/net_da6bcc3.sql
	size=$(wc -c < "$real")
	# Cut anywhere, even by one byte: the same message as a cut nsys
	# export (t0102), whichever SQLite reader takes the file.
	for n in 100 4096 200000 600000 900000 $((size - 1)); do
		head -c $n "$real" > "$TMP/cut.sql"
		expect_exit 4 "$GPUPROF" report "$TMP/cut.sql"
		assert_grep "cut.sql: truncated SQLite database: its header says $size bytes, the file has $n " "$TMP/err"
	done
	python3 - "$real" "$TMP/flip.sql" <<'PY'
import sys
b = bytearray(open(sys.argv[1], 'rb').read())
for i in range(4096, len(b), 4099):
    b[i] ^= 0xff
open(sys.argv[2], 'wb').write(bytes(b))
PY
	"$GPUPROF" report "$TMP/flip.sql" >/dev/null 2>"$TMP/err"; rc=$?
	[ $rc = 0 ] || [ $rc = 4 ] || fail "bit-flipped: exit $rc"
fi
