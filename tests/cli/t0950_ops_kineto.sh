# tier: slow (it runs gpuprof on every shared trace: minutes on the busy 2-core machine)
# ops on every Kineto trace of testdata (issue 11 item 3): per op name, the
# calls, CPU total, Self CPU, GPU total and Self GPU equal what Python
# computed from the raw JSON alone (tests/tools/optable_oracle.py, run once
# over testdata by tests/tools/make-optable-ref.sh into
# tests/data/optable_ref.tsv.gz: kernel ->
# its runtime call by correlation id -> the ops enclosing that call on its
# thread; Self CPU = total minus the ops directly inside), and the shares
# add up: Self CPU % over all rows is 100, Self GPU never exceeds the
# kernels' time.  On the traces with python_function frames, ops --python
# (cProfile's view) equals the oracle's ncalls, tottime and cumtime.
need_testdata
ref=$TMP/ref.tsv
gzip -dc tests/data/optable_ref.tsv.gz >"$ref" || fail "cannot read tests/data/optable_ref.tsv.gz"
# The oracle covers exactly the Kineto files testdata has, told by content
# (tests/tools/trace_kind.py; a file added or lost there: regenerate it
# with tests/tools/make-optable-ref.sh).
python3 tests/tools/trace_kind.py "$TESTDATA" kineto >"$TMP/have" || fail "trace_kind.py"
awk -F'\t' '$2 == "#file" { print $1 }' "$ref" >"$TMP/covered"
diff "$TMP/covered" "$TMP/have" >&2 || fail "testdata's Kineto files differ from the oracle's (< oracle, > testdata)"
n=0 py=0
for f in $(cat "$TMP/have"); do
	awk -F'\t' -v f="$f" '$1 == f && $2 != "py" && $2 != "#file"' "$ref" | cut -f2- >"$TMP/want"
	# --capture none: PyTorch's view, a replayed kernel in the op around its
	# graph launch (with capture traces it is its captured op's: t1700)
	run_ok "$GPUPROF" ops -f tsv --capture none "$TESTDATA/$f"
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ print $c["Name"] "\t" $c["# of Calls"] "\t" $c["CPU total (ns)"] "\t" $c["Self CPU (ns)"] "\t" $c["GPU total (ns)"] "\t" $c["Self GPU (ns)"] }' \
		"$TMP/out" | LC_ALL=C sort >"$TMP/got"
	diff "$TMP/want" "$TMP/got" >&2 || fail "$f: ops differs from the oracle (< oracle, > gpuprof)"
	# Self CPU shares add up to 100% (when there is CPU time at all);
	# the Self GPU shares to at most 100%
	awk -F'\t' -v f="$f" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ cpu += $c["Self CPU (ns)"]; pc += $c["Self CPU share (%)"]; pg += $c["Self GPU share (%)"]; rows++ }
		END { if (rows && cpu > 0 && (pc < 99.5 || pc > 100.5)) { print f ": Self CPU % adds to " pc; exit 1 }
		      if (pg > 100.5) { print f ": Self GPU % adds to " pg; exit 1 } }' "$TMP/out" >&2 ||
		fail "$f: shares"
	n=$((n + 1))

	run_ok "$GPUPROF" ops --python -f tsv --no-header --capture none "$TESTDATA/$f"
	[ -s "$TMP/out" ] || continue
	awk -F'\t' '{ print $6 "\t" $1 "\t" $2 "\t" $4 }' "$TMP/out" | LC_ALL=C sort >"$TMP/got"
	awk -F'\t' -v f="$f" '$1 == f && $2 == "py"' "$ref" | cut -f3- >"$TMP/want"
	diff "$TMP/want" "$TMP/got" >&2 || fail "$f: ops --python differs from the oracle (< oracle, > gpuprof)"
	py=$((py + 1))
done
[ "$n" -ge 30 ] || fail "only $n Kineto traces"
[ "$py" -ge 1 ] || fail "no Kineto trace with python_function frames"
