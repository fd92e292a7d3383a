# gpuprof comm --view waits: each rank's wait at each collective matched on
# every rank, as docs/comm.md defines it: its kernel's duration minus the
# call's transfer (the shortest kernel over the ranks), beside its wait for
# the last arrival on the aligned clocks.  Against tests/tools/coll_oracle.py
# --waits, which reads the raw Kineto rank files in Python: a generated
# 4-rank job (record_param_comms Seq: matched by sequence number; rank 2
# 300 us late, clocks 1 ms apart) and param's 8 DLRM ranks (no collective
# args: matched by order per kind).
command -v python3 >/dev/null || skip "python3 not installed"
run_ok "$GEN" --format kineto --ranks 4 --slow-rank 2 --delay-us 300 --clock-skew-us 1000 --iters 2 -o "$TMP/job"

# ranks given in reverse order come out in rank order; the oracle has no
# iteration column
run_ok "$GPUPROF" comm -V waits -f tsv --no-header $(ls -r "$TMP"/job/rank-*.json)
cut -f1-3,5- "$TMP/out" >"$TMP/got"
python3 "$TOP/tests/tools/coll_oracle.py" --waits "$TMP"/job/rank-0.json "$TMP"/job/rank-1.json \
	"$TMP"/job/rank-2.json "$TMP"/job/rank-3.json | tr ' ' '\t' >"$TMP/want" || fail "coll_oracle.py failed"
diff "$TMP/want" "$TMP/got" >&2 || fail "generated job's waits (< coll_oracle.py)"
# by construction: 6 calls x 4 ranks; rank 2 is last at each and waits 0,
# every other rank waits 300 us, its kernel 824,288 ns over the 524,288 ns transfer
assert_eq "$(wc -l <"$TMP/out")" 24 "rows"
assert_eq "$(awk -F'\t' '{ print $5, $6, $7, $8, $9, $10 }' "$TMP/out" | sort -u | tr '\n' ';')" \
	"0 824288 524288 300000 300000 no;1 824288 524288 300000 300000 no;2 524288 524288 0 0 yes;3 824288 524288 300000 300000 no;" \
	"per-rank waits by construction"
# -n: the first N calls; json has the same cells
run_ok "$GPUPROF" comm -V waits -n 1 -f json "$TMP/job"
assert_eq "$(wc -l <"$TMP/out")" 4 "-n 1: one call"
assert_grep '^\{"kind":"all_reduce","group":"0","seq":0,"iteration":0,"rank":2,"kernel_ns":524288,"transfer_ns":524288,"wait_ns":0,"arrival_wait_ns":0,"last":"yes"\}$' "$TMP/out"
# the calls view's wait is the sum of the ranks' arrival waits (3 x 300 us)
run_ok "$GPUPROF" comm -V calls -f tsv --no-header "$TMP/job"
assert_eq "$(awk -F'\t' '$3 == 0 { print $7 }' "$TMP/out")" 900000 "calls view wait of seq 0"
expect_exit 2 "$GPUPROF" comm -V wait "$TMP/job"

# DLRM, 8 ranks: no Seq, matched by order
need_testdata
D=$TESTDATA/verdicts/param/dlrm_kineto_8rank
[ -d "$D" ] || skip "no $D"
python3 "$TOP/tests/tools/coll_oracle.py" --waits "$D"/*.json.gz | tr ' ' '\t' >"$TMP/want" || fail "coll_oracle.py failed"
run_ok "$GPUPROF" comm -V waits -f tsv --no-header "$D"
cut -f1-3,5- "$TMP/out" >"$TMP/got"
assert_eq "$(wc -l <"$TMP/got")" 64 "DLRM rows (8 calls x 8 ranks)"
diff "$TMP/want" "$TMP/got" >&2 || fail "DLRM waits (< coll_oracle.py)"
