# The CLI's own contract: help, unknown commands, documented exit codes for
# missing, empty and foreign files.
run_ok "$GPUPROF" --help
assert_grep 'Exit codes' "$TMP/out"
# The front door: the questions and the command for each, advise and html
# first; every command is listed; README.md opens with the same lines.
sed -n '/^Start here:/,/^FILE may also/p' "$TMP/out" | sed '$d' >"$TMP/door"
assert_eq "$(sed -n 2p "$TMP/door" | awk '{ print $1 }')" advise "the first command"
assert_eq "$(sed -n 3p "$TMP/door" | awk '{ print $1 }')" html "the second command"
for cmd in info report summary advise ops export html ranges memory diff breakdown ranks comm record; do
	grep -Eq "^  $cmd " "$TMP/door" || fail "gpuprof --help does not list $cmd"
done
sed -n '/^## Where to start/,/^## Build/p' README.md >"$TMP/readme"
while IFS= read -r line; do
	[ -z "$line" ] || grep -Fqx -- "$line" "$TMP/readme" || fail "README.md's first section lacks: $line"
done <"$TMP/door"
grep -q "^build/gpuprof " README.md && grep -q "^make install PREFIX=" README.md ||
	fail "README.md does not say where the binary is and how to install it"
expect_exit 2 "$GPUPROF"
assert_grep '^Start here:' "$TMP/err"
expect_exit 2 "$GPUPROF" frobnicate
assert_grep "unknown command 'frobnicate'" "$TMP/err"
run_ok "$GPUPROF" info --help
expect_exit 2 "$GPUPROF" info
expect_exit 3 "$GPUPROF" info "$TMP/does-not-exist.sqlite"
assert_grep 'does-not-exist.sqlite: cannot open' "$TMP/err"
: > "$TMP/empty"
expect_exit 4 "$GPUPROF" info "$TMP/empty"
assert_grep 'empty file' "$TMP/err"
printf 'hello, I am not a trace\n' > "$TMP/foreign.txt"
expect_exit 4 "$GPUPROF" info "$TMP/foreign.txt"
assert_grep 'not a recognised trace' "$TMP/err"
# every command's --help: usage line, the shared -h line, exit codes
for cmd in info report summary advise ranges; do
	run_ok "$GPUPROF" $cmd --help
	assert_grep "^usage: gpuprof $cmd \[OPTIONS\] FILE" "$TMP/out"
	assert_grep '^  -h, --help +this text' "$TMP/out"
	assert_grep 'Exit codes' "$TMP/out"
	expect_exit 2 "$GPUPROF" $cmd --frobnicate "$TMP/empty"
	assert_eq "$(cat "$TMP/err")" "gpuprof $cmd: unknown option --frobnicate; see 'gpuprof $cmd --help'"
done
# An unknown option: one line, with the nearest option of the command
expect_exit 2 "$GPUPROF" summary --bsae "$TMP/empty"
assert_eq "$(cat "$TMP/err")" "gpuprof summary: unknown option --bsae (did you mean --base?); see 'gpuprof summary --help'"
expect_exit 2 "$GPUPROF" report --colums idx "$TMP/empty"
assert_grep 'did you mean --columns\?' "$TMP/err"
expect_exit 2 "$GPUPROF" summary -o x "$TMP/empty"
assert_eq "$(wc -l <"$TMP/err")" 1 "an unknown letter: one line"
assert_grep '^gpuprof summary: unknown option -o;' "$TMP/err"
expect_exit 2 "$GPUPROF" summary --top
assert_grep '^gpuprof summary: option --top wants a value;' "$TMP/err"
expect_exit 2 "$GPUPROF" summary --no-header=1 "$TMP/empty"
assert_grep 'option --no-header takes no value' "$TMP/err"
expect_exit 2 "$GPUPROF" report --peak 1 "$TMP/empty"
assert_grep 'option --peak is ambiguous' "$TMP/err"
# make demo's trace (scripts/demo.sh) is one whose numbers gpuprof trusts:
# info has no note on it
"$GEN" --format nsys -n 300 --seed 42 --streams 3 -o "$TMP/demo.sqlite" >/dev/null || fail "gpuprof-gen"
run_ok "$GPUPROF" info "$TMP/demo.sqlite"
assert_no_grep '^note' "$TMP/out"
