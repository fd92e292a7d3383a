# diff on a generated pair with known changes (issue 14): gpuprof-gen writes
# a base run and a test run of 20 iterations each with different seeds (3%
# noise on every kernel), the test run with aten::gelu 20% slower, one cast
# kernel added per block (op aten::_to_copy) and the backward NT GEMM moved
# from a tensor-core kernel to a SIMT one.  Exactly these changes are
# significant, with the right sizes; a pair that differs by noise only has
# no significant change; the gate trips on the injected changes only; with
# one iteration per run no statistics are claimed.
NT=ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_nt
INJ="slow-op=aten::gelu:1.2,add-kernel=aten::_to_copy,no-tc=$NT"
for f in kineto nsys; do
	"$GEN" --format $f --iters 20 --noise 0.03 --seed 1 -o "$TMP/base.$f" >/dev/null || fail "gen base"
	"$GEN" --format $f --iters 20 --noise 0.03 --seed 2 -o "$TMP/noise.$f" >/dev/null || fail "gen noise"
	"$GEN" --format $f --iters 20 --noise 0.03 --seed 2 --inject "$INJ" -o "$TMP/test.$f" >/dev/null ||
		fail "gen test"
done
# the generator's own flags are checked
expect_exit 2 "$GEN" --format kineto --iters 2 --inject slow-op=aten::gelu -o "$TMP/x.json"
expect_exit 2 "$GEN" --format kineto --iters 2 --inject faster=1 -o "$TMP/x.json"
expect_exit 2 "$GEN" --format kineto --iters 2 --noise 0.9 -o "$TMP/x.json"

# sig FILE: the significant group rows of a tsv diff, "status name" sorted
sig() { awk -F'\t' '$1 == "group" && $11 == "significant" { print $2 " " $24 }' "$1" | LC_ALL=C sort; }
# col FILE NAME-REGEX N: column N of the group row whose name matches
col() { awk -F'\t' -v re="$2" -v c="$3" '$1 == "group" && $24 ~ re { print $c; exit }' "$1"; }
# within X LO HI: LO <= X <= HI
within() { awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x >= lo && x <= hi) }' || fail "$4: $1 not in [$2, $3]"; }

for f in kineto nsys; do
	run_ok "$GPUPROF" diff -f tsv --no-header "$TMP/base.$f" "$TMP/test.$f"
	cp "$TMP/out" "$TMP/k.tsv"
	sig "$TMP/k.tsv" >"$TMP/sig"
	[ "$(wc -l <"$TMP/sig")" = 4 ] || { cat "$TMP/sig" >&2; fail "$f: not 4 significant kernels"; }
	grep -q "^new cutlass_80_simt_hgemm_128x128_8x2_nt_align1$" "$TMP/sig" || fail "$f: SIMT GEMM not new"
	grep -q "^gone $NT$" "$TMP/sig" || fail "$f: tensor-core GEMM not gone"
	grep -q '^new .*CastFunctor<c10::Half, float>' "$TMP/sig" || fail "$f: cast kernel not new"
	grep -q '^changed .*GeluCUDAKernelImpl' "$TMP/sig" || fail "$f: GELU kernel not changed"
	within "$(col "$TMP/k.tsv" GeluCUDAKernelImpl 8)" 18 22 "$f: GELU kernel change (%)"
	assert_eq "$(col "$TMP/k.tsv" simt_hgemm 23)" no "$f: SIMT GEMM test_tc"
	assert_eq "$(col "$TMP/k.tsv" "^$NT" 22)" yes "$f: NT GEMM base_tc"
	assert_eq "$(col "$TMP/k.tsv" "^$NT" 12)/$(col "$TMP/k.tsv" "^$NT" 13)" 160/0 "$f: NT GEMM calls"
	assert_eq "$(col "$TMP/k.tsv" simt_hgemm 12)/$(col "$TMP/k.tsv" simt_hgemm 13)" 0/160 "$f: SIMT calls"
	assert_eq "$(col "$TMP/k.tsv" CastFunctor 13)" 80 "$f: cast kernels (one per block and iteration)"
	# the SIMT GEMM runs 4 times as long as the one it replaces
	within "$(awk -v a="$(col "$TMP/k.tsv" simt_hgemm 15)" -v b="$(col "$TMP/k.tsv" "^$NT" 14)" 'BEGIN { print a / b }')" \
		3.8 4.2 "$f: SIMT / tensor-core time"
	awk -F'\t' '$1 == "step" && $11 == "significant" { ok = 1 } END { exit !ok }' "$TMP/k.tsv" ||
		fail "$f: step change not significant"

	run_ok "$GPUPROF" diff -f tsv --no-header --by op "$TMP/base.$f" "$TMP/test.$f"
	cp "$TMP/out" "$TMP/o.tsv"
	sig "$TMP/o.tsv" >"$TMP/sig"
	printf '%s\n' "changed AddmmBackward0" "changed aten::gelu" "new aten::_to_copy" | LC_ALL=C sort |
		diff - "$TMP/sig" >&2 || fail "$f: significant ops"
	within "$(col "$TMP/o.tsv" '^aten::gelu$' 8)" 18 22 "$f: aten::gelu change (%)"
	assert_eq "$(col "$TMP/o.tsv" '^AddmmBackward0$' 22)/$(col "$TMP/o.tsv" '^AddmmBackward0$' 23)" yes/mixed \
		"$f: AddmmBackward0 tensor cores before/after"

	# noise only: nothing significant, whatever the grouping
	for by in kernel op layer; do
		run_ok "$GPUPROF" diff -f tsv --no-header --by $by --fail-if "$by:*>+2%" --fail-if "$by:*<-2%" \
			--fail-if 'step>+2%' "$TMP/base.$f" "$TMP/noise.$f"
		[ -z "$(sig "$TMP/out")" ] || { sig "$TMP/out" >&2; fail "$f --by $by: noise called significant"; }
		assert_grep '^gpuprof diff: PASS' "$TMP/err"
	done
	# --no-stats: every crossing trips, noise too
	expect_exit 5 "$GPUPROF" diff --no-stats -f tsv --fail-if 'kernel:*>+0%' "$TMP/base.$f" "$TMP/noise.$f"
done

b=$TMP/base.kineto t=$TMP/test.kineto
# the gate: the verdict line, exit 5 only for a crossed limit
expect_exit 5 "$GPUPROF" diff -n 1 --fail-if 'step>+5%' "$b" "$t"
assert_grep '^gpuprof diff: FAIL step \+[0-9.]+% \[\+[0-9.]+%, \+[0-9.]+%\] > \+5%$' "$TMP/err"
expect_exit 5 "$GPUPROF" diff -n 1 --fail-if 'op:gelu>+10%' "$b" "$t"
assert_grep '^gpuprof diff: FAIL op:aten::gelu \+(19|20|21)\.[0-9]% \[' "$TMP/err"
run_ok "$GPUPROF" diff -n 1 --fail-if 'op:gelu>+30%' --fail-if 'total<-1%' "$b" "$t"
assert_grep '^gpuprof diff: PASS \(2 limits, none crossed\)$' "$TMP/err"
expect_exit 5 "$GPUPROF" diff -n 1 --fail-if 'kernel:*simt*>+1ms' --fail-if 'layer:*GELU>+5%' "$b" "$t"
assert_grep '^gpuprof diff: FAIL kernel:cutlass_80_simt_hgemm_128x128_8x2_nt_align1 \+2\.[0-9]+ ms \[\+.*\] > \+1\.000 ms \(and 4 more\)$' \
	"$TMP/err"
expect_exit 5 "$GPUPROF" diff -n 1 --fail-if "kernel:$NT<-50%" "$b" "$t"
# a gate by a grouping other than the one shown, and the shown rows unchanged
run_ok "$GPUPROF" diff -f csv "$b" "$t"
mv "$TMP/out" "$TMP/plain"
expect_exit 5 "$GPUPROF" diff -f csv --fail-if 'op:_to_copy>+0%' "$b" "$t"
cmp -s "$TMP/plain" "$TMP/out" || fail "--fail-if changed the rows"

# deterministic: the same output every run; -n keeps the lead rows first (step,
# idle, no idle cause here: none changed by the threshold of the step, total)
run_ok "$GPUPROF" diff -f json "$b" "$t"
mv "$TMP/out" "$TMP/a.json"
run_ok "$GPUPROF" diff -f json "$b" "$t"
cmp -s "$TMP/a.json" "$TMP/out" || fail "two runs differ"
run_ok "$GPUPROF" diff -f tsv --no-header -n 2 "$b" "$t"
assert_eq "$(cut -f1 "$TMP/out" | tr '\n' ' ')" "step idle total group group " "-n 2 rows"

# one iteration per run: no statistics, the threshold decides
"$GEN" --format kineto --iters 1 --seed 1 -o "$TMP/b1.json" >/dev/null || fail "gen"
"$GEN" --format kineto --iters 1 --seed 2 --inject "$INJ" -o "$TMP/t1.json" >/dev/null || fail "gen"
run_ok "$GPUPROF" diff -f tsv --no-header "$TMP/b1.json" "$TMP/t1.json"
assert_grep '^gpuprof diff: 1 and 1 iterations: no statistics \(at least 4 per run are needed\); changes of 2% or more are marked$' \
	"$TMP/err"
awk -F'\t' '$11 == "significant" || $11 == "within noise" || $9 != "na" { bad = 1 } END { exit bad }' "$TMP/out" ||
	fail "statistics claimed from one iteration"
assert_eq "$(col "$TMP/out" GeluCUDAKernelImpl 11)" "above threshold" "one iteration: GELU kernel"
expect_exit 5 "$GPUPROF" diff --fail-if 'op:gelu>+10%' "$TMP/b1.json" "$TMP/t1.json"
run_ok "$GPUPROF" diff --threshold 50 -f tsv --no-header "$TMP/b1.json" "$TMP/t1.json"
assert_eq "$(col "$TMP/out" GeluCUDAKernelImpl 11)" "below threshold" "--threshold 50: GELU kernel"
