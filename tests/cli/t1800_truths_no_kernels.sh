# Traces without kernels (verdicts/README.md: centerformer_*, dynamicvit,
# minigemm: TensorRT NVTX only, no kernel table): "GPU span" and "busy"
# mean nothing there.  The oracle reads the raw SQLite: no kernel table (or
# an empty one).  Every command about kernels then says
# "this trace has no kernels" in one line and exits 0 (gpuprof --help's
# exit codes) without a table or a "busy 0 ns" (html and export still
# write the trace's CPU side, and say it too); info lists the
# counts with that note; ops keeps its ranges' CPU times and says it too;
# diff says it of each such run.
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
N3=$TESTDATA/verdicts/new3
checked=0
for f in "$N3"/centerformer_baseline.sqlite "$N3"/centerformer_poolformer.sqlite \
	"$N3"/dynamicvit_nsys_profile.sqlite "$N3"/minigemm_report1.sqlite; do
	[ -r "$f" ] || continue
	python3 - "$f" <<'PY' || fail "oracle: $f has kernels"
import sqlite3, sys
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
tables = {r[0] for r in db.execute("select name from sqlite_master where type='table'")}
kernels = db.execute("select count(*) from CUPTI_ACTIVITY_KIND_KERNEL").fetchone()[0] \
    if "CUPTI_ACTIVITY_KIND_KERNEL" in tables else 0
ranges = db.execute("select count(*) from NVTX_EVENTS").fetchone()[0] if "NVTX_EVENTS" in tables else 0
assert kernels == 0, (kernels, ranges)
PY
	name=$(basename "$f")
	for cmd in report summary advise breakdown; do
		expect_exit 0 "$GPUPROF" $cmd "$f"
		[ ! -s "$TMP/out" ] || fail "$cmd $name: printed a table for a trace without kernels"
		[ "$(grep -c 'this trace has no kernels' "$TMP/err")" = 1 ] || fail "$cmd $name: no 'this trace has no kernels' line"
	done
	expect_exit 0 "$GPUPROF" advise -f json "$f"
	[ ! -s "$TMP/out" ] || fail "advise -f json $name: printed findings"
	# a page and a timeline of its CPU side (ranges, ops) are still
	# written, the line said
	for cmd in html export; do
		rm -f "$TMP/page"
		expect_exit 0 "$GPUPROF" $cmd -o "$TMP/page" "$f"
		[ -s "$TMP/page" ] || fail "$cmd $name: wrote no output for the trace's CPU side"
		assert_grep 'this trace has no kernels' "$TMP/err"
	done
	run_ok "$GPUPROF" info "$f"
	assert_grep '^kernels +0$' "$TMP/out"
	assert_grep 'this trace has no kernels' "$TMP/out"
	run_ok "$GPUPROF" ops "$f"
	assert_grep 'this trace has no kernels' "$TMP/err"
	assert_no_grep 'busy|GPU span' "$TMP/out"
	checked=$((checked + 1))
done
[ "$checked" -ge 1 ] || skip "no verdicts/new3 trace without kernels found"
# diff of two such runs: each said, nothing compared (no "step 0 ns" rows),
# no limit checked; against a run with kernels, the missing side is said
# and no note counts its "0 rank files"
A=$N3/centerformer_baseline.sqlite B=$N3/centerformer_poolformer.sqlite
if [ -r "$A" ] && [ -r "$B" ]; then
	expect_exit 0 "$GPUPROF" diff --fail-if 'step>+5%' "$A" "$B"
	[ ! -s "$TMP/out" ] || fail "diff of two traces without kernels printed rows"
	[ "$(grep -c 'this trace has no kernels' "$TMP/err")" = 2 ] || fail "diff: not both runs said"
	assert_grep 'no limit checked' "$TMP/err"
	K=$N3/sigma_report2.sqlite
	if [ -r "$K" ]; then
		run_ok "$GPUPROF" diff "$A" "$K"
		assert_grep "centerformer_baseline.sqlite: this trace has no kernels" "$TMP/err"
		assert_no_grep "0 rank files" "$TMP/err"
		assert_grep "^step +0 ns" "$TMP/out"
	fi
fi
echo "$checked traces without kernels checked"
