# Small things a new user hits (issue 35): `export` without -o refuses a
# terminal (-o - writes there anyway); `html` and `export` say on stderr
# what they wrote, with the file's size (from stat here); `gpuprof help
# CMD` is `gpuprof CMD --help`; one step is "1 step".
command -v python3 >/dev/null || skip "python3 not installed"
"$GEN" --format kineto -n 200 --seed 5 -o "$TMP/g.json" >/dev/null || fail gen
size() {   # binary units as gp_fmt_bytes writes them
	python3 -c 'import os,sys
n = os.path.getsize(sys.argv[1]); u = -1
if n < 1024: print("%d B" % n); sys.exit()
while n >= 1024 and u < 4: n /= 1024; u += 1
print("%.2f %s" % (n, ["KiB", "MiB", "GiB", "TiB", "PiB"][u]))' "$1"
}
# 1. gpuprof help CMD
for cmd in advise export ranks; do
	run_ok "$GPUPROF" $cmd --help; cp "$TMP/out" "$TMP/h1"
	run_ok "$GPUPROF" help $cmd
	cmp -s "$TMP/out" "$TMP/h1" || fail "gpuprof help $cmd is not gpuprof $cmd --help"
	assert_grep "^usage: gpuprof $cmd " "$TMP/out"
done
expect_exit 2 "$GPUPROF" help nosuch
assert_grep "^gpuprof: unknown command 'nosuch'" "$TMP/err"
# 2. what html and export wrote
run_ok "$GPUPROF" export -o "$TMP/t.json" "$TMP/g.json"
assert_eq "$(cat "$TMP/err")" "gpuprof export: wrote $TMP/t.json ($(size "$TMP/t.json"))"
[ ! -s "$TMP/out" ] || fail "export -o FILE wrote to stdout"
run_ok "$GPUPROF" export -o - "$TMP/g.json"
[ -s "$TMP/out" ] && [ ! -s "$TMP/err" ] || fail "export -o - : the trace on stdout and nothing said"
if [ -r /usr/share/javascript/chart.js/chart.min.js ] || [ -n "${GPUPROF_CHARTJS:-}" ]; then
	run_ok "$GPUPROF" html -o "$TMP/p.html" "$TMP/g.json"
	assert_eq "$(cat "$TMP/err")" "gpuprof html: wrote $TMP/p.html ($(size "$TMP/p.html"))"
fi
# 3. a terminal: script(1) gives the command one
if command -v script >/dev/null; then
	script -qec "$GPUPROF export $TMP/g.json; echo rc=\$?" /dev/null >"$TMP/tty" 2>&1
	assert_grep "gpuprof export: standard output is a terminal: give -o FILE \(-o - writes there anyway\)" "$TMP/tty"
	assert_grep "^rc=2" "$TMP/tty"
	assert_no_grep "traceEvents" "$TMP/tty"
	script -qec "$GPUPROF export -o - $TMP/g.json" /dev/null >"$TMP/tty" 2>&1
	assert_grep "traceEvents" "$TMP/tty"
fi
# 4. one step: the sqlite export's account of a one-step trace (its step
# count read back with sqlite3)
if command -v sqlite3 >/dev/null; then
	"$GEN" --format kineto -n 50 --iters 1 --seed 5 -o "$TMP/one.json" >/dev/null 2>&1 ||
		"$GEN" --format kineto -n 50 --seed 5 -o "$TMP/one.json" >/dev/null || fail gen
	run_ok "$GPUPROF" export -f sqlite -o "$TMP/one.db" "$TMP/one.json"
	n=$(sqlite3 "$TMP/one.db" "SELECT count(*) FROM steps")
	if [ "$n" = 1 ]; then
		assert_grep ", 1 step, " "$TMP/err"
	else
		assert_grep ", $n steps, " "$TMP/err"
	fi
	assert_no_grep "[^0-9]1 [a-z]+s[ ,]" "$TMP/err"
fi
exit 0
