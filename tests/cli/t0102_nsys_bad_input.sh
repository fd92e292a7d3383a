# Damaged nsys exports: truncated, bit-flipped, foreign or empty SQLite
# files exit 4 with a message naming the file (or 0 when what remains is a
# valid trace), never crash.  Runs under ASAN with `make ASAN=1 check`.
need_testdata
command -v sqlite3 >/dev/null || skip "sqlite3 CLI not installed"
src="$TESTDATA/nsys/mmagic_vsr_a100_2024.2/net.sqlite"
[ -f "$src" ] || fail "$src missing from testdata"
size=$(wc -c < "$src")

# expect_0_or_4 FILE: exit 0 or 4; with 4, a message naming FILE.
expect_0_or_4() {
	"$GPUPROF" info "$1" >"$TMP/out" 2>"$TMP/err"; rc=$?
	case $rc in
	0) ;;
	4) assert_grep "$1: " "$TMP/err" ;;
	*) cat "$TMP/err" >&2; fail "info $1 exited $rc (expected 0 or 4)" ;;
	esac
}

for n in 1 100 4096 8192 65536 1000000 $((size - 4096)) $((size - 1)); do
	head -c "$n" "$src" > "$TMP/trunc.sqlite"
	expect_exit 4 "$GPUPROF" info "$TMP/trunc.sqlite"
	[ "$n" -ge 100 ] && assert_grep "trunc.sqlite: truncated SQLite database: its header says $size bytes, the file has $n" "$TMP/err"
done

# Bit flips: in the schema page (damage reported), then in data pages.
flip() { # flip SRC DST OFFSET: flip the top bit of 64 bytes at OFFSET
	cp "$1" "$2"; chmod u+w "$2"
	dd if="$1" bs=1 skip="$3" count=64 2>/dev/null | tr '\000-\377' '\200-\377\000-\177' |
		dd of="$2" bs=1 seek="$3" conv=notrunc 2>/dev/null
}
flip "$src" "$TMP/flip.sqlite" 100
expect_exit 4 "$GPUPROF" info "$TMP/flip.sqlite"
assert_grep 'flip.sqlite: cannot read the table list: database disk image is malformed' "$TMP/err"
flip "$src" "$TMP/flip.sqlite" 4096
expect_exit 4 "$GPUPROF" info "$TMP/flip.sqlite"
assert_grep 'flip.sqlite: error while reading .*: database disk image is malformed' "$TMP/err"
for off in 20 5000 20000 100000 300000 700000 1200000 1500000 2100000; do
	flip "$src" "$TMP/flip.sqlite" $off
	expect_0_or_4 "$TMP/flip.sqlite"
done

# A SQLite file with a StringIds table of the wrong shape.
sqlite3 "$TMP/garbage.sqlite" "CREATE TABLE StringIds (foo, bar); INSERT INTO StringIds VALUES (1, 2);
	CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (x); INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES ('y');"
expect_exit 4 "$GPUPROF" info "$TMP/garbage.sqlite"
assert_grep "garbage.sqlite: cannot read strings: table StringIds has no column 'id'" "$TMP/err"

# Right StringIds, kernel table without the required columns.
sqlite3 "$TMP/nokcols.sqlite" "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
	CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, duration INTEGER);"
expect_exit 4 "$GPUPROF" info "$TMP/nokcols.sqlite"
assert_grep "nokcols.sqlite: cannot read kernels: table CUPTI_ACTIVITY_KIND_KERNEL has no column 'end'" "$TMP/err"

# Wrong types everywhere: text where numbers belong, NULLs in NOT NULL columns.
sqlite3 "$TMP/types.sqlite" "CREATE TABLE StringIds (id, value); INSERT INTO StringIds VALUES ('x', NULL), (1, x'00ff');
	CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start, end, shortName, gridX);
	INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES ('abc', NULL, 'def', -1), (1e300, -1e300, 1, 3.5);
	CREATE TABLE NVTX_EVENTS (start, end, eventType, text, textId, domainId);
	INSERT INTO NVTX_EVENTS VALUES (NULL, NULL, 59, NULL, 99, 7), (5, 1, 60, x'41', NULL, NULL);"
run_ok "$GPUPROF" info "$TMP/types.sqlite"
assert_grep '^kernels +2$' "$TMP/out"
assert_grep 'references to missing StringIds rows' "$TMP/out"

# An empty SQLite database (header only) and one with unrelated tables.
sqlite3 "$TMP/empty.sqlite" "PRAGMA user_version = 1;"
expect_exit 4 "$GPUPROF" info "$TMP/empty.sqlite"
assert_grep 'empty.sqlite: not a recognised trace' "$TMP/err"
sqlite3 "$TMP/other.sqlite" "CREATE TABLE t (a); INSERT INTO t VALUES (1);"
expect_exit 4 "$GPUPROF" info "$TMP/other.sqlite"
assert_grep 'other.sqlite: not a recognised trace' "$TMP/err"
