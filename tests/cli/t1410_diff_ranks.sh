# diff of runs with several rank files per side (issue 14): BASE and TEST
# a directory or a glob of rank files.  A generated pair of 3-rank runs
# (Kineto base, nsys test: any formats) with known injected changes on
# every rank: exactly these are significant, with their sizes, and the
# kernel calls and times of the base run are the sums a Python count over
# the raw rank files gives.  A slow rank (gpuprof-gen --ranks --slow-rank,
# an exact timeline: each phase's GEMM 400 us, the slow rank's 100 us
# longer, 3 phases an iteration) is found by --by rank: its compute time
# +300 us an iteration, no other rank's; the step time, the slowest rank's,
# +300 us.  A multi-rank run against itself: nothing changed, exit 0; the
# gate on a multi-rank step time; the note when rank counts differ; the
# output does not depend on -j.
NT=ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_nt
INJ="slow-op=aten::gelu:1.2,add-kernel=aten::_to_copy,no-tc=$NT"
mkdir -p "$TMP/base" "$TMP/test" "$TMP/noise"
for r in 0 1 2; do
	"$GEN" --format kineto --iters 12 --noise 0.03 --seed $((r + 1)) -o "$TMP/base/rank-$r.json" >/dev/null ||
		fail "gen base"
	"$GEN" --format nsys --iters 12 --noise 0.03 --seed $((r + 11)) --inject "$INJ" \
		-o "$TMP/test/rank-$r.sqlite" >/dev/null || fail "gen test"
	"$GEN" --format kineto --iters 12 --noise 0.03 --seed $((r + 21)) -o "$TMP/noise/rank-$r.json" >/dev/null ||
		fail "gen noise"
done

# sig FILE: the significant group rows of a tsv diff, "status name" sorted
sig() { awk -F'\t' '$1 == "group" && $11 == "significant" { print $2 " " $24 }' "$1" | LC_ALL=C sort; }
# col FILE NAME-REGEX N: column N of the group row whose name matches
col() { awk -F'\t' -v re="$2" -v c="$3" '$1 == "group" && $24 ~ re { print $c; exit }' "$1"; }
within() { awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x >= lo && x <= hi) }' || fail "$4: $1 not in [$2, $3]"; }

# 1. the injected changes, found on 3 ranks a side
run_ok "$GPUPROF" diff -f tsv --no-header "$TMP/base" "$TMP/test/rank-*.sqlite"
cp "$TMP/out" "$TMP/k.tsv"
sig "$TMP/k.tsv" >"$TMP/sig"
[ "$(wc -l <"$TMP/sig")" = 4 ] || { cat "$TMP/sig" >&2; fail "not 4 significant kernels"; }
grep -q "^new cutlass_80_simt_hgemm_128x128_8x2_nt_align1$" "$TMP/sig" || fail "SIMT GEMM not new"
grep -q "^gone $NT$" "$TMP/sig" || fail "tensor-core GEMM not gone"
grep -q '^new .*CastFunctor<c10::Half, float>' "$TMP/sig" || fail "cast kernel not new"
grep -q '^changed .*GeluCUDAKernelImpl' "$TMP/sig" || fail "GELU kernel not changed"
within "$(col "$TMP/k.tsv" GeluCUDAKernelImpl 8)" 18 22 "GELU kernel change (%)"
# calls over 3 ranks x 12 iterations: 8 NT GEMMs, 4 casts an iteration
assert_eq "$(col "$TMP/k.tsv" "^$NT" 12)/$(col "$TMP/k.tsv" "^$NT" 13)" 288/0 "NT GEMM calls"
assert_eq "$(col "$TMP/k.tsv" simt_hgemm 12)/$(col "$TMP/k.tsv" simt_hgemm 13)" 0/288 "SIMT calls"
assert_eq "$(col "$TMP/k.tsv" CastFunctor 13)" 144 "cast kernels"
awk -F'\t' '$1 == "step" { exit !($11 == "significant" && $12 == 12 && $13 == 12) }' "$TMP/k.tsv" ||
	fail "step: not significant over 12 iterations a run"
# the base run's calls and times per kernel: sums over the raw rank files
python3 - "$TMP/k.tsv" "$TMP"/base/rank-*.json <<'PY' || fail "base run: diff and python disagree"
import decimal, json, sys
D = decimal.Decimal
want = {}
for path in sys.argv[2:]:
    for e in json.load(open(path), parse_float=D)["traceEvents"]:
        if e.get("ph") == "X" and e.get("cat") == "kernel":
            c = want.setdefault(e["name"], [0, 0])
            c[0] += 1
            c[1] += int((e["dur"] * 1000).quantize(D(1), rounding=decimal.ROUND_HALF_UP))
got, total = {}, None
for line in open(sys.argv[1]):
    f = line.rstrip("\n").split("\t")
    if f[0] == "group" and f[1] != "new":
        got[f[23]] = [int(f[11]), int(f[2])]
    if f[0] == "total":
        total = int(f[2])
bad = [n for n in set(want) | set(got) if want.get(n) != got.get(n)]
for n in bad:
    print("%s: diff %s, python %s" % (n[:90], got.get(n), want.get(n)))
if total != sum(c[1] for c in want.values()):
    print("total: diff %s, python %s" % (total, sum(c[1] for c in want.values())))
    bad.append("total")
sys.exit(1 if bad else 0)
PY
# -j does not change the output
run_ok "$GPUPROF" diff -j 1 -f tsv --no-header "$TMP/base" "$TMP/test/rank-*.sqlite"
cmp -s "$TMP/out" "$TMP/k.tsv" || fail "-j 1 and the default -j differ"
# noise only: nothing significant, whatever the grouping
for by in kernel op layer; do
	run_ok "$GPUPROF" diff -f tsv --no-header --by $by --fail-if "$by:*>+2%" --fail-if 'step>+2%' \
		"$TMP/base" "$TMP/noise"
	[ -z "$(sig "$TMP/out")" ] || { sig "$TMP/out" >&2; fail "--by $by: noise called significant"; }
	assert_grep '^gpuprof diff: PASS' "$TMP/err"
done

# 2. a multi-rank run against itself: nothing changed, exit 0
for by in kernel op rank; do
	run_ok "$GPUPROF" diff -f tsv --no-header --by $by --fail-if 'step>+0%' --fail-if "$by:*>+0ns" \
		"$TMP/base" "$TMP/base/rank-*.json"
	awk -F'\t' '$2 != "same" || $5 != 0 || $7 != 0.0 { print; bad = 1 } END { exit bad }' "$TMP/out" ||
		fail "--by $by: a change between a run and itself"
	assert_grep '^gpuprof diff: PASS \(2 limits, none crossed\)$' "$TMP/err"
	assert_no_grep 'note' "$TMP/err"
done

# 3. a slow rank: --by rank finds it
"$GEN" --format kineto --ranks 4 --iters 8 -o "$TMP/even" >/dev/null || fail "gen ranks"
"$GEN" --format kineto --ranks 4 --iters 8 --slow-rank 2 --delay-us 100 -o "$TMP/slow" >/dev/null ||
	fail "gen slow rank"
run_ok "$GPUPROF" diff -f tsv --no-header --by rank "$TMP/even" "$TMP/slow"
cp "$TMP/out" "$TMP/r.tsv"
assert_eq "$(sig "$TMP/r.tsv" | grep -c compute)" 1 "ranks whose compute time changed"
# rank 2's GEMMs: 3 x 400 us an iteration, then 3 x 500 us
assert_eq "$(col "$TMP/r.tsv" '^rank 2 compute$' 14)/$(col "$TMP/r.tsv" '^rank 2 compute$' 15)/$(col "$TMP/r.tsv" '^rank 2 compute$' 11)" \
	"1200000.0/1500000.0/significant" "rank 2 compute: medians and verdict"
for r in 0 1 3; do
	assert_eq "$(col "$TMP/r.tsv" "^rank $r compute\$" 2)/$(col "$TMP/r.tsv" "^rank $r compute\$" 7)" "same/0.0" \
		"rank $r compute"
done
# the straggler by arrival, as gpuprof ranks and advise name it: rank 2 in
# the test run (8 iterations x 3 collectives, 100 us late at each: the 3
# others wait 7.2 ms in all), none in the base run
assert_grep '^gpuprof diff: note: TEST: rank 2 is the straggler: the others waited 7.200 ms for it at 24 of 24 collectives \(2.400 ms after the next-to-last rank in all\)$' "$TMP/err"
assert_grep '^gpuprof diff: note: BASE: no straggler at the 24 collectives matched on every rank$' "$TMP/err"
# every rank waits for the slow one: the step time (the slowest rank's) +300 us
awk -F'\t' '$1 == "step" { exit !($7 == "300000.0" && $11 == "significant") }' "$TMP/r.tsv" ||
	fail "step: not +300 us"
# the gate on a multi-rank step time (the run's step, host waits
# included: +300 us of 3.903 ms, +7.7%)
expect_exit 5 "$GPUPROF" diff -n 1 --fail-if 'step>+7%' "$TMP/even" "$TMP/slow"
assert_grep '^gpuprof diff: FAIL step \+7\.7% \[\+7\.7%, \+7\.7%\] > \+7%$' "$TMP/err"
run_ok "$GPUPROF" diff -n 1 --fail-if 'step>+8%' --fail-if 'rank:rank [013] compute>+1%' "$TMP/even" "$TMP/slow"
assert_grep '^gpuprof diff: PASS \(2 limits, none crossed\)$' "$TMP/err"
expect_exit 5 "$GPUPROF" diff -n 1 --fail-if 'rank:*compute>+20%' "$TMP/even" "$TMP/slow"
assert_grep '^gpuprof diff: FAIL rank:rank 2 compute \+25\.0% \[\+25\.0%, \+25\.0%\] > \+20%$' "$TMP/err"

# 4. rank counts that differ: said on stderr; a rank the test run lacks is gone
run_ok "$GPUPROF" diff -f tsv --no-header --by rank "$TMP/even" "$TMP/slow/rank-[0-2].json"
assert_grep '^gpuprof diff: note: BASE has 4 rank files, TEST 3: ' "$TMP/err"
assert_eq "$(col "$TMP/out" '^rank 3 step$' 2)" gone "rank 3 of the base run only"

# 5. a rank file that is damaged: named, exit 4 (a file that is no trace
# at all is skipped with a note, as in a directory)
printf '{"traceEvents": [{"ph": "X", "cat": "kernel", "ts": 1' >"$TMP/slow/rank-9.json"
expect_exit 4 "$GPUPROF" diff "$TMP/even" "$TMP/slow/rank-*.json"
assert_grep 'rank-9.json' "$TMP/err"
