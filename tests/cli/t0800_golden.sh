# Golden outputs: info, report, summary, advise and ranges on small fixed-seed
# generated traces (one per format) and on a few small real traces equal the
# files in tests/golden/ (checked by hand once: tests/golden/README.md).
# After an intended change: tests/golden/update.sh, then check the diff.
need_testdata
tests/golden/update.sh "$TMP/golden" >"$TMP/update.log" 2>&1 ||
	{ cat "$TMP/update.log" >&2; fail "tests/golden/update.sh failed"; }
if ! diff -ru -x '*.sh' -x '*.tsv' -x '*.md' tests/golden "$TMP/golden" >"$TMP/diff"; then
	head -80 "$TMP/diff" >&2
	fail "output differs from tests/golden ($(grep -c '^[-+][^-+]' "$TMP/diff") lines, diff above); if meant: tests/golden/update.sh and check the diff by hand"
fi
