# Helpers for CLI tests (sourced by tests/run.sh for each tests/cli/t*.sh).
# A test is a shell script that calls these; the first failing check ends
# it.  Environment: GPUPROF (binary), GEN (the trace generator,
# gpuprof-gen), TESTDATA (../shared/testdata or ""), TMP (a fresh
# directory), BUILD.

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }

# need_testdata: skip (or fail under CI) when the real traces are missing,
# saying where they are looked for: ../shared/testdata beside the checkout,
# or the folder TESTDATA names.
need_testdata() {
	if [ -z "$TESTDATA" ] || [ ! -d "$TESTDATA" ]; then
		[ "${CI:-}" = true ] && fail "no test data (required under CI): ../shared/testdata beside the checkout, or TESTDATA=DIR"
		skip "no test data: this test reads real traces from public repositories, listed with their sources in the collection's PROVENANCE.md (README.md, 'Test data'); put the collection in ../shared/testdata beside the checkout, or run with TESTDATA=DIR"
	fi
}

# every_trace FILE: lists into FILE every trace file of testdata (sorted)
# and generated ones (every format, seeds and streams 1 and 4): the
# corpus of the tests that walk every trace.
every_trace() {
	find "$TESTDATA" -type f \( -name '*.sqlite' -o -name '*.sql' -o -name '*.nvvp' -o -name '*.json' \
		-o -name '*.json.gz' \) -not -path '*/expected/*' | sort >"$1"
	for fmt in nsys nvprof kineto; do
		for k in 1 4; do
			"$GEN" --format $fmt -n 2000 --seed $k --streams $k -o "$TMP/gen$k.$fmt" --force >/dev/null ||
				fail "gpuprof-gen $fmt"
			echo "$TMP/gen$k.$fmt" >>"$1"
		done
	done
}

# need_chromium: headless Chromium, python3 and the charting library the
# pages inline, or the test is skipped (a failure under CI).
need_chromium() {
	if ! command -v chromium >/dev/null; then
		[ "${CI:-}" = true ] && fail "chromium is not installed (required under CI: scripts/install-deps.sh)"
		skip "chromium not installed (Debian package chromium; scripts/install-deps.sh)"
	fi
	command -v python3 >/dev/null || skip "python3 not installed"
	[ -r /usr/share/javascript/chart.js/chart.min.js ] || [ -n "${GPUPROF_CHARTJS:-}" ] ||
		{ [ "${CI:-}" = true ] && fail "libjs-chart.js is not installed"; skip "libjs-chart.js not installed"; }
}

# open_page HTML: Chromium's DOM after a gpuprof page's script ran in
# $TMP/dom, its console log in $TMP/console; fails on a JavaScript error
# or a page that did not finish drawing.
open_page() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$TMP/chrome" \
		--enable-logging=stderr --v=0 --dump-dom "file://$1" >"$TMP/dom" 2>"$TMP/console" ||
		{ tail -5 "$TMP/console" >&2; fail "chromium failed on $1"; }
	! grep -q "Uncaught" "$TMP/console" || { grep "Uncaught" "$TMP/console" >&2; fail "$1: JavaScript error"; }
	grep -q 'id="report" data-state="done"' "$TMP/dom" || { grep -A3 'id="errors"' "$TMP/dom" >&2; fail "$1: the page did not finish drawing"; }
}

# expect_exit CODE CMD...: run CMD, stdout to $TMP/out, stderr to $TMP/err.
expect_exit() {
	want=$1; shift
	"$@" >"$TMP/out" 2>"$TMP/err"; got=$?
	[ "$got" = "$want" ] || { cat "$TMP/err" >&2; fail "'$*' exited $got, expected $want"; }
}

# run_ok CMD...: expect exit 0.
run_ok() { expect_exit 0 "$@"; }

assert_eq() { [ "$1" = "$2" ] || fail "${3:-values differ}: got '$1', expected '$2'"; }

# assert_grep PATTERN FILE: extended regex must match a line.
assert_grep() { grep -Eq -- "$1" "$2" || { head -20 "$2" >&2; fail "no line matching '$1' in $2"; }; }
assert_no_grep() { ! grep -Eq -- "$1" "$2" || fail "unexpected line matching '$1' in $2"; }

# sqlite_count DB SQL: a single number from sqlite3.
sqlite_count() { sqlite3 "$1" "$2"; }
