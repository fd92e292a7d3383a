# gpuprof html on bad command lines and bad input: documented exit codes,
# a message naming the file and the package to install when the charting
# library is missing, no half-written page left behind, /dev/full never
# removed; every file of the fuzz corpora gives exit 0, 3 or 4 (never a
# signal or a sanitizer report), and on success a page whose data block
# is valid JSON with no raw '<' in it.
command -v python3 >/dev/null || skip "python3 not installed"
[ -r /usr/share/javascript/chart.js/chart.min.js ] || [ -n "${GPUPROF_CHARTJS:-}" ] ||
	{ [ "${CI:-}" = true ] && fail "libjs-chart.js is not installed"; skip "libjs-chart.js not installed"; }
run_ok "$GEN" --format kineto -n 200 -o "$TMP/g.json"

expect_exit 2 "$GPUPROF" html "$TMP/g.json"
assert_grep "-o FILE is required" "$TMP/err"
expect_exit 2 "$GPUPROF" html --rank x -o "$TMP/a.html" "$TMP/g.json"
assert_grep "rank number" "$TMP/err"

expect_exit 3 "$GPUPROF" html --chart-js "$TMP/none.js" -o "$TMP/a.html" "$TMP/g.json"
assert_grep "none.js: No such file" "$TMP/err"
assert_grep "apt-get install libjs-chart.js" "$TMP/err"
[ ! -e "$TMP/a.html" ] || fail "a page was written without the library"
GPUPROF_CHARTJS="$TMP/none.js" expect_exit 3 "$GPUPROF" html -o "$TMP/a.html" "$TMP/g.json"
printf 'var x = "</script>";' > "$TMP/bad.js"
expect_exit 4 "$GPUPROF" html --chart-js "$TMP/bad.js" -o "$TMP/a.html" "$TMP/g.json"
assert_grep "</script" "$TMP/err"
[ ! -e "$TMP/a.html" ] || fail "a refused page was left behind"

run_ok "$GPUPROF" html -o "$TMP/a.html" "$TMP/g.json"
expect_exit 3 "$GPUPROF" html -o "$TMP/a.html" "$TMP/g.json"
assert_grep "exists \(--force overwrites it\)" "$TMP/err"
run_ok "$GPUPROF" html -o "$TMP/a.html" --force "$TMP/g.json"
printf '{"traceEvents": [' > "$TMP/cut.json"
expect_exit 4 "$GPUPROF" html -o "$TMP/cut.html" "$TMP/cut.json"
[ ! -e "$TMP/cut.html" ] || fail "a page was left behind for a corrupt input"
if [ -c /dev/full ]; then
	for cmd in html export; do
		expect_exit 3 "$GPUPROF" $cmd -o /dev/full --force "$TMP/g.json"
		assert_grep "write failure" "$TMP/err"
		[ -c /dev/full ] || fail "$cmd removed /dev/full after a failed write"
	done
fi

n=0
for f in tests/fuzz/corpus/*/*; do
	"$GPUPROF" html -o - "$f" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	case $rc in
	0|3|4) ;;
	*) cat "$TMP/err" >&2; fail "html $f exited $rc" ;;
	esac
	! grep -q "runtime error\|AddressSanitizer" "$TMP/err" || { cat "$TMP/err" >&2; fail "html $f: sanitizer report"; }
	if [ $rc = 0 ]; then
		python3 - "$TMP/out" <<'PY' || fail "html $f: bad data block"
import json, sys
page = open(sys.argv[1], encoding="utf-8", errors="replace").read()
head = '<script type="application/json" id="gp-data">'
data = page[page.index(head) + len(head):]
data = data[:data.index("</script>")]
assert "<" not in data, "raw < in the data block"
json.loads(data)
PY
	fi
	n=$((n + 1))
done
[ $n -ge 20 ] || fail "only $n runs: the fuzz corpora are missing"
