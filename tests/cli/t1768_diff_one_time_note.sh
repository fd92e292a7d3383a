# diff says when one-time costs make up a run's step (issue 33 item 5:
# one-time costs kept out of what a step costs).  nvFuser's report1
# (H200) and sync report2 (H100) are each one process start: a first
# NVRTC compile (executor_utils::Nvrtc::CompileProgram, 351.6 and 311.0 ms
# by verdicts/README.md) takes most of a GPU span of about half a second.
# The oracle reads the raw SQLite: the GPU span (first to last kernel,
# copy or memset) and the compile ranges inside it; when they alone hold a
# quarter of the span, diff must note for that run that one-time costs
# (jit among them) hold at least that share and that the step compares
# start-ups.  The resnet50 pair (steady steps, no compile) gets no such note.
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
A=$TESTDATA/verdicts/new3/fuser_report1.sqlite B=$TESTDATA/verdicts/new3/fuser_sync_report2.sqlite
[ -e "$A" ] && [ -e "$B" ] || skip "nvFuser traces not in testdata"
for f in "$A" "$B"; do
	python3 - "$f" <<'PY' || fail "oracle: $f"
import sqlite3, sys
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
gpu = db.execute("SELECT MIN(s), MAX(e) FROM (SELECT start s, end e FROM CUPTI_ACTIVITY_KIND_KERNEL UNION ALL "
                 "SELECT start, end FROM CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL "
                 "SELECT start, end FROM CUPTI_ACTIVITY_KIND_MEMSET)").fetchone()
a, b = gpu
# NVTX push/pop ranges; the text is inline or in StringIds
rows = db.execute("SELECT n.start, n.end, COALESCE(n.text, s.value) FROM NVTX_EVENTS n "
                  "LEFT JOIN StringIds s ON s.id = n.textId WHERE n.end IS NOT NULL").fetchall()
comp = [(max(s, a), min(e, b)) for s, e, t in rows if t and "Nvrtc::CompileProgram" in t and e > a and s < b]
comp.sort()
held, last = 0, a
for s, e in comp:   # their union inside the span
    s = max(s, last)
    if e > s:
        held += e - s
        last = e
share = held / (b - a)
assert share >= 0.25, share
print("%.0f" % (100 * share))
PY
done >"$TMP/want"
run_ok "$GPUPROF" diff "$A" "$B"
for k in BASE TEST; do
	want=$(if [ $k = BASE ]; then sed -n 1p "$TMP/want"; else sed -n 2p "$TMP/want"; fi)
	got=$(sed -n "s/^gpuprof diff: note: $k: one-time costs (\([a-z_, ]*\)) hold \([0-9]*\)% of its GPU span: the step compares start-ups.*/\1 \2/p" "$TMP/err")
	[ -n "$got" ] || fail "no one-time note for $k"
	case " $got" in *jit*) ;; *) fail "$k: the note does not name jit: $got" ;; esac
	[ "${got##* }" -ge "$want" ] || fail "$k: one-time share ${got##* }% below the compiles' own $want%"
done
R=$TESTDATA/kineto_tb_plugin
if [ -d "$R/resnet50_num_workers_0" ] && [ -d "$R/resnet50_num_workers_4" ]; then
	run_ok "$GPUPROF" diff "$R/resnet50_num_workers_0" "$R/resnet50_num_workers_4"
	assert_no_grep "one-time costs" "$TMP/err"
fi
