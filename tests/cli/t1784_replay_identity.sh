# tier: slow (every trace of testdata, one replay each)
# A saving is a replay (issue 33 item 3), so a change that changes nothing
# must save nothing: on every trace of testdata and on generated ones
# (every format, 1 and 4 streams), `advise --what-if` with a change that
# selects no kernel must give after = before for the GPU span, the run and
# the median step.  The replay once moved work it did not change: a sync
# that returned before its work's recorded end was held to that end
# (DLProf w_relu, 12.5 us), a unit that overlapped its stream predecessor
# was pushed behind it (HTA's trace_diff test, 28 us), and the last step
# ended at the run's last GPU work instead of its own end (HTA's
# triton_example: a median step of 13.336 s replayed as 1.531 ms).
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
every_trace "$TMP/files"
n=0
while read -r f; do
	# a file advise cannot read (not a trace, no kernels) has no replay
	"$GPUPROF" advise -f json --what-if 'kernel:gpuprof-selects-no-kernel=2x' "$f" >"$TMP/w" 2>/dev/null || continue
	[ -s "$TMP/w" ] || continue
	python3 - "$TMP/w" "$f" <<'PY' || fail "an unchanged replay of $f moved"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
assert {r["measure"] for r in rows} >= {"gpu_span", "run"}, rows
for r in rows:
    assert r["after_ns"] == r["before_ns"] and r["saving_ns"] == 0, (sys.argv[2], r)
PY
	n=$((n + 1))
done <"$TMP/files"
[ "$n" -ge 60 ] || fail "only $n traces replayed"
echo "$n traces replayed unchanged"
