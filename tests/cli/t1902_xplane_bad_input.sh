# Bad XPlane files (issue 36): truncated (plain and gzipped), garbage, empty,
# an XSpace of no device or host plane, planes without events.  Each gets
# one line on stderr naming the file and exit 4 (docs/cli.md, exit codes:
# input not recognised, truncated or corrupt), or reads as a trace without
# kernels; never a crash.  Every cut of a generated file
# (tests/tools/xplane_mini.py) at 1..N bytes ends in 0 or 4.
command -v python3 >/dev/null || skip "python3 not installed"
G=$TMP/host.xplane.pb
python3 tests/tools/xplane_mini.py host "$G" || fail "xplane_mini.py failed"

one_line_error() {   # FILE: exit 4, one line on stderr naming FILE
	expect_exit 4 "$GPUPROF" info "$1"
	[ "$(wc -l <"$TMP/err")" = 1 ] || { cat "$TMP/err" >&2; fail "$1: not one line of error"; }
	assert_grep "^gpuprof: $1: " "$TMP/err"
}

head -c 700 "$G" >"$TMP/cut.xplane.pb"
one_line_error "$TMP/cut.xplane.pb"
assert_grep 'XPlane protobuf is truncated or damaged' "$TMP/err"
head -c 700 "$G" | gzip -c >"$TMP/cut.xplane.pb.gz"
one_line_error "$TMP/cut.xplane.pb.gz"
gzip -c "$G" | head -c 200 >"$TMP/cutgz.xplane.pb.gz"
one_line_error "$TMP/cutgz.xplane.pb.gz"
: >"$TMP/empty.xplane.pb"
one_line_error "$TMP/empty.xplane.pb"
assert_grep 'empty file' "$TMP/err"
python3 -c "import os; open('$TMP/garbage.xplane.pb','wb').write(bytes((i * 73 + 11) % 256 for i in range(4096)))"
one_line_error "$TMP/garbage.xplane.pb"
assert_grep 'not a recognised trace' "$TMP/err"

# an XSpace holding only /host:metadata; one whose GPU plane has no lines
python3 - "$TMP" <<'PY' || fail "writing the odd XSpaces failed"
import sys
sys.path.insert(0, "tests/tools")
import xplane_mini as x
d = sys.argv[1]
open(d + "/meta.xplane.pb", "wb").write(x.ld(1, x.Plane(0, "/host:metadata").encode()))
open(d + "/nolines.xplane.pb", "wb").write(x.ld(1, x.Plane(0, "/device:GPU:0").encode()) +
                                             x.ld(1, x.Plane(0, "/host:CPU").encode()))
PY
one_line_error "$TMP/meta.xplane.pb"
assert_grep 'no /device:GPU or /host:CPU plane' "$TMP/err"
run_ok "$GPUPROF" info "$TMP/nolines.xplane.pb"
assert_grep '^kernels +0$' "$TMP/out"
run_ok "$GPUPROF" summary "$TMP/nolines.xplane.pb"

# every cut: 0 or 4, no crash, no sanitizer report
n=$(wc -c <"$G")
i=1
while [ $i -lt "$n" ]; do
	head -c $i "$G" >"$TMP/c.xplane.pb"
	"$GPUPROF" info "$TMP/c.xplane.pb" >/dev/null 2>"$TMP/err"
	rc=$?
	case $rc in 0|4) ;; *) cat "$TMP/err" >&2; fail "a cut at $i bytes exited $rc" ;; esac
	! grep -q "runtime error\|AddressSanitizer" "$TMP/err" || fail "a cut at $i bytes: sanitizer report"
	i=$((i + 7))
done

# the probe steals no other format: a Kineto trace starting with a newline
# (the byte XSpace's first field starts with) stays Kineto's
printf '\n{"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1, "dur": 2, "args": {"correlation": 1, "device": 0, "stream": 7}}]}\n' >"$TMP/nl.json"
run_ok "$GPUPROF" info "$TMP/nl.json"
assert_grep '^format +kineto$' "$TMP/out"
