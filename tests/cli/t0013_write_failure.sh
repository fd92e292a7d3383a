# tier: slow (20 s in make check before the tiers, on the busy 2-core machine)
# A failed write to stdout (a full disk) is an I/O error: exit 3 with a
# message, for every command and format, never a silent success.
command -v sqlite3 >/dev/null || skip "sqlite3 CLI not installed"
[ -w /dev/full ] || skip "no /dev/full"
tests/fuzz/make-nvprof-corpus.sh "$TMP/db" || fail "cannot build fixtures"
f=$TMP/db/small.nvvp
for cmd in info "info -f json" report "report -f csv" "report -f json" summary "summary -f tsv" \
	advise "advise -f json" ranges "ranges -f json" "report --help"; do
	"$GPUPROF" $cmd "$f" >/dev/full 2>"$TMP/err"; rc=$?
	[ "$rc" = 3 ] || fail "'$cmd >/dev/full' exited $rc, expected 3"
	assert_grep 'write failure' "$TMP/err"
done
