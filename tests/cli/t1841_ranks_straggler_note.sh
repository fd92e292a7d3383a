# gpuprof ranks (issue 35, "ranks labels rank 7 straggler in a row showing
# vs fastest 0 ns"): a table whose Role column says "straggler" says under
# it what the word means (the straggler is the rank the others wait for,
# often the fastest); the row formats stay rows only, and a table without
# a straggler has no such line.
need_testdata
D="$TESTDATA/verdicts/param/dlrm_kineto_8rank"
[ -d "$D" ] || skip "$D missing"
note="straggler: the rank the others wait for at collectives (arrives last), not necessarily the slowest"
run_ok "$GPUPROF" ranks "$D"
assert_grep ' straggler ' "$TMP/out"
assert_eq "$(tail -1 "$TMP/out")" "$note" "the last line of the table"
# DLRM's straggler is rank 7, its fastest rank (0 ns slower): the case the note is for
assert_grep '^ +7 .* 0 ns +0\.00% .* straggler ' "$TMP/out"
run_ok "$GPUPROF" ranks -f csv "$D"
assert_no_grep '^straggler:' "$TMP/out"
[ "$(wc -l <"$TMP/out")" = 9 ] || fail "csv: not a header and 8 rows"
# unrelated generated traces: no collective matched on every rank, no straggler, no note
for r in 0 1; do
	"$GEN" --format kineto -n 300 --seed $((r + 1)) -o "$TMP/rank$r.json" >/dev/null || fail gen
done
run_ok "$GPUPROF" ranks "$TMP/rank0.json" "$TMP/rank1.json"
assert_no_grep '^straggler:| straggler /' "$TMP/out"
