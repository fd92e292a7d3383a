# tier: slow (27 s in make check before the tiers, on the busy 2-core machine)
# gpuprof summary on generated nsys and nvprof traces: per-section totals
# and counts equal what sqlite3 computes from the tables, Time(%) adds up to
# 100, every --by grouping distributes the same kernel time, --top and
# --section cut rows, bad options exit 2.
command -v python3 >/dev/null || skip "python3 not installed"
check() { # db kernel_table memcpy_table memset_table api_table
	db=$1
	ksum=$(sqlite3 "$db" "select sum(end - start) from $2")
	kn=$(sqlite3 "$db" "select count(*) from $2")
	msum=$(sqlite3 "$db" "select coalesce(sum(end - start), 0) + (select coalesce(sum(end - start), 0) from $4) from $3")
	mn=$(sqlite3 "$db" "select count(*) + (select count(*) from $4) from $3")
	asum=$(sqlite3 "$db" "select sum(end - start) from $5")
	an=$(sqlite3 "$db" "select count(*) from $5")
	run_ok "$GPUPROF" summary --format csv "$db"
	python3 - "$TMP/out" "$ksum" "$kn" "$msum" "$mn" "$asum" "$an" <<'PY' || fail "$db: totals differ from sqlite3"
import csv, sys
ksum, kn, msum, mn, asum, an = map(int, sys.argv[2:])
rows = list(csv.DictReader(open(sys.argv[1])))
gpu = [r for r in rows if r["Type"] == "GPU activities"]
api = [r for r in rows if r["Type"] == "API calls"]
mem = [r for r in gpu if r["Name"].startswith("[CUDA mem")]
ker = [r for r in gpu if not r["Name"].startswith("[CUDA mem")]
tot = lambda rs: sum(int(r["Total Time (ns)"]) for r in rs)
calls = lambda rs: sum(int(r["Calls"]) for r in rs)
assert (tot(ker), calls(ker)) == (ksum, kn), (tot(ker), calls(ker), ksum, kn)
assert (tot(mem), calls(mem)) == (msum, mn), (tot(mem), calls(mem), msum, mn)
assert (tot(api), calls(api)) == (asum, an), (tot(api), calls(api), asum, an)
assert {r["Name"] for r in mem} == {"[CUDA memcpy HtoD]", "[CUDA memcpy DtoH]", "[CUDA memset]"}, mem
assert "cudaLaunchKernel" in {r["Name"] for r in api}
for sec in (gpu, api):
    pct = sum(float(r["Time (%)"]) for r in sec)
    assert abs(pct - 100) <= 0.05 * len(sec) + 0.01, pct
    # nsys order: total descending
    t = [int(r["Total Time (ns)"]) for r in sec]
    assert t == sorted(t, reverse=True)
    for r in sec:
        lo, hi, med, avg = int(r["Min (ns)"]), int(r["Max (ns)"]), float(r["Med (ns)"]), float(r["Avg (ns)"])
        assert lo <= med <= hi and lo <= avg <= hi, r
PY
	# every grouping of kernel time adds up to the same total
	for by in op layer iter; do
		run_ok "$GPUPROF" summary --by $by --section gpu --format tsv --no-header "$db"
		assert_eq "$(awk -F'\t' '{s += $3; n += $4} END {print s, n}' "$TMP/out")" "$ksum $kn" "--by $by totals"
	done
	for by in stream device; do
		run_ok "$GPUPROF" summary --by $by --section gpu --format tsv --no-header "$db"
		assert_eq "$(awk -F'\t' '{s += $3; n += $4} END {print s, n}' "$TMP/out")" "$((ksum + msum)) $((kn + mn))" "--by $by totals"
	done
	run_ok "$GPUPROF" summary --by stream --section gpu --format tsv --no-header "$db"
	assert_eq "$(wc -l < "$TMP/out" | tr -d ' ')" 3 "three streams"
	run_ok "$GPUPROF" summary --top 2 --format csv --no-header "$db"
	assert_eq "$(grep -c '^"GPU activities"' "$TMP/out")" 2 "--top 2 gpu rows"
	assert_eq "$(grep -c '^"API calls"' "$TMP/out")" 2 "--top 2 api rows"
	run_ok "$GPUPROF" summary --section api --format csv --no-header "$db"
	assert_no_grep 'GPU activities' "$TMP/out"
}
run_ok "$GEN" --format nsys -n 3000 --streams 3 --seed 11 -o "$TMP/g.sqlite"
check "$TMP/g.sqlite" CUPTI_ACTIVITY_KIND_KERNEL CUPTI_ACTIVITY_KIND_MEMCPY CUPTI_ACTIVITY_KIND_MEMSET CUPTI_ACTIVITY_KIND_RUNTIME
run_ok "$GEN" --format nvprof -n 3000 --streams 3 --seed 12 -o "$TMP/g.sql"
check "$TMP/g.sql" CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL CUPTI_ACTIVITY_KIND_MEMCPY CUPTI_ACTIVITY_KIND_MEMSET CUPTI_ACTIVITY_KIND_RUNTIME

# the per-kernel rows of one name agree with sqlite3's own aggregate
db=$TMP/g.sqlite
run_ok "$GPUPROF" summary --base --section gpu --format tsv --no-header "$db"
want=$(sqlite3 -separator '	' "$db" "select sum(end - start), count(*), min(end - start), max(end - start)
	from CUPTI_ACTIVITY_KIND_KERNEL k join StringIds s on s.id = k.shortName where s.value = 'fused_dropout_kernel_vec'")
assert_eq "$(awk -F'\t' '$10 == "fused_dropout_kernel_vec" {print $3 "\t" $4 "\t" $7 "\t" $8}' "$TMP/out")" "$want" "dropout row"

# a trace without kernels is valid (exit 0), but has no table to show:
# one line says so instead of an empty table (issue 33, t1800)
run_ok "$GEN" --format nsys -n 0 -o "$TMP/zero.sqlite"
run_ok "$GPUPROF" summary --format csv "$TMP/zero.sqlite"
assert_eq "$(wc -l < "$TMP/out" | tr -d ' ')" 0 "no table"
assert_grep 'this trace has no kernels' "$TMP/err"

# usage and input errors
run_ok "$GPUPROF" summary --help
assert_grep '^usage: gpuprof summary' "$TMP/out"
assert_grep 'Exit codes' "$TMP/out"
expect_exit 2 "$GPUPROF" summary
expect_exit 2 "$GPUPROF" summary --by module "$db"
expect_exit 2 "$GPUPROF" summary --section cpu "$db"
expect_exit 2 "$GPUPROF" summary --format xml "$db"
expect_exit 2 "$GPUPROF" summary --top -1 "$db"
assert_eq "$(wc -c < "$TMP/out" | tr -d ' ')" 0 "nothing on stdout after a usage error"
# two FILEs are two ranks now (issue 12, t1200/t1201), by position here
run_ok "$GPUPROF" summary -f csv "$db" "$db"
assert_grep '^"Rank","Type",' "$TMP/out"
assert_grep '^"1","GPU activities",' "$TMP/out"
expect_exit 3 "$GPUPROF" summary "$TMP/missing.sqlite"
printf 'not a trace\n' > "$TMP/foreign"
expect_exit 4 "$GPUPROF" summary --format csv "$TMP/foreign"
assert_eq "$(wc -c < "$TMP/out" | tr -d ' ')" 0 "no header for an unreadable trace"
