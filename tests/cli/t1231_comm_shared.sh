# tier: slow (30 s in make check before the tiers, on the busy 2-core machine)
# gpuprof comm on the shared multi-rank traces agrees with an independent
# Python count over the raw JSON (tests/tools/coll_oracle.py): per file,
# the collectives of each kind and their bytes (one file: every call is
# complete); for the two ranks of hta/trace_filter together, each kind's
# matched calls are the fewer of the two ranks' counts (calls match by
# position per group and kind: these traces carry no sequence number) and
# each rank's calls are those it has alone.
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
h=$TESTDATA/hta
files="$h/trace_filter/sampled_rank-0.json.gz $h/trace_filter/sampled_rank-1.json.gz
$h/trace_diff/control/control.json.gz $h/trace_diff/test/test.json.gz
$h/trace_compare/base/base.json.gz $h/trace_compare/test/test.json.gz
$h/nccl_parser_config/nccl_data.json.gz"
# shellcheck disable=SC2086
python3 tests/tools/coll_oracle.py $files >"$TMP/oracle" || fail "oracle failed"
[ -s "$TMP/oracle" ] || fail "the oracle found no collectives"
: >"$TMP/ours"
for f in $files; do
	run_ok "$GPUPROF" comm -V kinds -f tsv --no-header "$f"
	awk -F'\t' -v f="$f" '{print f, $1, $2, $3}' "$TMP/out" >>"$TMP/ours"
done
sort "$TMP/oracle" >"$TMP/a"; sort "$TMP/ours" >"$TMP/b"
diff "$TMP/a" "$TMP/b" >&2 || fail "collectives per kind differ from the oracle (< oracle, > gpuprof)"
# the trace_compare files hold nccl annotations but no NCCL kernel
assert_no_grep trace_compare "$TMP/ours"

# the two ranks of one job
r0=$h/trace_filter/sampled_rank-0.json.gz r1=$h/trace_filter/sampled_rank-1.json.gz
run_ok "$GPUPROF" comm -V kinds -f tsv --no-header "$r1" "$r0"
awk -v a="$r0" -v b="$r1" '$1 == a || $1 == b { n[$2, $1] = $3; k[$2] = 1 }
	END { for (x in k) { c0 = n[x, a] + 0; c1 = n[x, b] + 0; print x, (c0 < c1 ? c0 : c1) } }' \
	"$TMP/oracle" | sort >"$TMP/want"
cut -f1,2 "$TMP/out" | tr '\t' ' ' | sort >"$TMP/got"
diff "$TMP/want" "$TMP/got" >&2 || fail "matched calls per kind of trace_filter's ranks"
run_ok "$GPUPROF" comm -f tsv --no-header "$r1" "$r0"
# ranks come out by their distributedInfo rank, whatever the argument order
assert_eq "$(cut -f1,2 "$TMP/out" | tr '\t' ' ')" "0 $r0
1 $r1" "ranks in rank order"
for r in 0 1; do
	f=$(awk -F'\t' -v r=$r '$1 == r { print $2 }' "$TMP/out")
	want=$(awk -v f="$f" '$1 == f { s += $3 } END { print s }' "$TMP/oracle")
	assert_eq "$(awk -F'\t' -v r=$r '$1 == r { print $3 }' "$TMP/out")" "$want" "rank $r's calls"
done
