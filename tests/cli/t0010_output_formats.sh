# tier: slow (30 s in make check before the tiers, on the busy 2-core machine)
# -f is checked against the command's formats before the input is read:
# a bad format is a usage error (2) even for a missing file, nothing is
# written for an input that fails to load, and --help lists the formats of
# the writer registry.
command -v sqlite3 >/dev/null || skip "sqlite3 CLI not installed"
tests/fuzz/make-nvprof-corpus.sh "$TMP/db" || fail "cannot build fixtures"
f=$TMP/db/small.nvvp
missing=$TMP/does-not-exist.nvvp
expect_exit 2 "$GPUPROF" report -f xml "$missing"
assert_grep "unknown output format 'xml' \(valid: table, csv, tsv or json\)" "$TMP/err"
expect_exit 2 "$GPUPROF" summary -f "csv, tsv" "$missing"
assert_grep "unknown output format 'csv, tsv'" "$TMP/err"
expect_exit 2 "$GPUPROF" summary -f "csv, tsv" "$f"
expect_exit 2 "$GPUPROF" ranges -f xml "$missing"
expect_exit 2 "$GPUPROF" advise -f xml "$missing"
assert_grep "valid: text, table, csv, tsv or json" "$TMP/err"
expect_exit 2 "$GPUPROF" info -f csv "$missing"
assert_grep "valid: text or json" "$TMP/err"
# a good format and a missing file: exit 3 and not a byte on stdout
for cmd in "info -f json" "report -f csv" "summary -f csv" "advise -f csv" "advise" "ranges -f tsv"; do
	expect_exit 3 "$GPUPROF" $cmd "$missing"
	[ -s "$TMP/out" ] && fail "'$cmd' wrote to stdout before failing to load"
	assert_grep 'cannot open' "$TMP/err"
done
# damaged input: exit 4, nothing on stdout either
expect_exit 4 "$GPUPROF" advise -f csv "$TMP/db/truncated.nvvp"
[ -s "$TMP/out" ] && fail "advise -f csv wrote its header before a failed load"
# every format of each command works, and --help names exactly those
for cmd in report summary ranges advise; do
	run_ok "$GPUPROF" $cmd --help
	case $cmd in
	advise) assert_grep '^  -f, --format F +text \(default\), table, csv, tsv or json$' "$TMP/out" ;;
	*) assert_grep '^  -f, --format F +table \(default\), csv, tsv or json$' "$TMP/out" ;;
	esac
	for fmt in table csv tsv json; do run_ok "$GPUPROF" $cmd -f $fmt "$f"; done
done
run_ok "$GPUPROF" info --help
assert_grep '^  -f, --format F +text \(default\) or json$' "$TMP/out"
# csv and tsv headers come before the first row; --no-header drops them
run_ok "$GPUPROF" ranges -f csv "$f"
assert_eq "$(head -1 "$TMP/out")" '"Calls","Total (ns)","Avg (ns)","Min (ns)","Max (ns)","StdDev (ns)","Kind","Name"'
run_ok "$GPUPROF" ranges -f csv --no-header "$f"
assert_eq "$(head -1 "$TMP/out")" '"1","500","500.0","500","500","0.0","push","layer:Block1"'
