# ops on the nsys and nvprof exports of testdata with NVTX ranges (issue 11
# item 3): the calls, CPU total, GPU total and Self GPU over all rows equal
# what SQL computes over the export alone (tests/tools/nvtx_ops_oracle.py),
# and on DLProf's emit_nvtx export the Self GPU per aten op equals the
# kernels, memcpys and memsets whose innermost enclosing range (SQL) has
# that op's name.
need_testdata
# sums FILE: calls, CPU total, GPU total and Self GPU over the rows of ops
sums() {
	run_ok "$GPUPROF" ops -f tsv "$1"
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ a += $c["# of Calls"]; b += $c["CPU total (ns)"]; g += $c["GPU total (ns)"]; s += $c["Self GPU (ns)"] }
		END { printf "%d %.0f %.0f %.0f\n", a, b, g, s }' "$TMP/out"
}
for x in nsys:nsys/dlprof_rtx2070_2022.1/no_relu_nsys_profile.sqlite \
	nsys:nsys/mmagic_vsr_a100_2024.2/net.sqlite \
	nvprof:nvprof/pyprof_lm_v100/net_da6bcc3.sql; do
	fmt=${x%%:*} f=$TESTDATA/${x#*:}
	want=$(python3 tests/tools/nvtx_ops_oracle.py "$fmt" "$f") || fail "$f: the oracle failed"
	case $want in 0\ *) fail "$f: the oracle found no ranges" ;; esac
	assert_eq "$(sums "$f")" "$want" "$f: calls, CPU total, GPU total, Self GPU"
done

f=$TESTDATA/nsys/dlprof_rtx2070_2022.1/no_relu_nsys_profile.sqlite
sqlite3 -separator '	' "$f" "
	with d as (select start, end, correlationId from CUPTI_ACTIVITY_KIND_KERNEL
		union all select start, end, correlationId from CUPTI_ACTIVITY_KIND_MEMCPY
		union all select start, end, correlationId from CUPTI_ACTIVITY_KIND_MEMSET),
	k as (select d.end - d.start d, r.start rs, r.end re, r.globalTid tid
		from d join CUPTI_ACTIVITY_KIND_RUNTIME r on r.correlationId = d.correlationId),
	inner as (select k.d, (select n.text from NVTX_EVENTS n where n.eventType = 59 and n.globalTid = k.tid
		and n.start < k.rs and n.end > k.re order by n.start desc, n.end asc limit 1) t from k)
	select substr(t, 1, instr(t || ',', ',') - 1), sum(d) from inner where t like 'aten::%' group by 1 order by 1" >"$TMP/want"
run_ok "$GPUPROF" ops -f tsv --no-header --sort name "$f"
awk -F'\t' '$7 > 0 && $1 ~ /^aten::/ { print $1 "\t" $7 }' "$TMP/out" >"$TMP/got"
[ -s "$TMP/want" ] || fail "no kernel inside a range in $f"
diff "$TMP/want" "$TMP/got" >&2 || fail "Self GPU per emit_nvtx op differs from SQL (< SQL, > gpuprof)"
