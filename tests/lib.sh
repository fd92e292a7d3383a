# Helpers for CLI tests (sourced by tests/run.sh for each tests/cli/t*.sh).
# A test is a shell script that calls these; the first failing check ends
# it.  Environment: GPUPROF (binary), GEN (the trace generator,
# gpuprof-gen), TESTDATA (../shared/testdata or ""), TMP (a fresh
# directory), BUILD.

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }

# need_testdata: skip (or fail under CI) when ../shared/testdata is missing.
need_testdata() {
	if [ -z "$TESTDATA" ] || [ ! -d "$TESTDATA" ]; then
		[ "${CI:-}" = true ] && fail "../shared/testdata is missing (required under CI)"
		skip "../shared/testdata not found (tests on real traces need it)"
	fi
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
